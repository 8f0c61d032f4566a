/* Generic-proxy writes to shared memory that the async proxy then reads: a
 * st, stmatrix, atom or red into a shared variable, then a bulk or TMA copy
 * (or reduction) that reads it as its source, or a wgmma.mma_async,
 * tcgen05.mma or tcgen05.cp whose shared-memory matrix descriptor holds its
 * address, on a path with no fence.proxy.async between (-Wproxy-fence). The
 * async proxy does not see generic writes until such a fence orders them.
 *
 * A descriptor is a value every definition of which is wgmma.desc or
 * tcgen05.desc of an address into the variable, or one built by hand from
 * such an address or descriptor: mov, cvt, shifts, and, or, xor, add of it
 * and values that are neither (the constant fields, a K loop's step).
 *
 * The variables are those addresses point into (verify/analysis/points.h); a forward
 * dataflow problem over the blocks, a join a union, with a bit per variable
 * "written by the generic proxy on this path, not fenced yet": fence.proxy.async
 * without a space or with a shared one clears every bit.
 *
 * A fence covers only the writes of the threads that execute it, so the
 * threads that read after a CTA barrier see the other threads' writes fenced
 * only if those threads fenced before the barrier (CUTLASS: every thread
 * fences, the barrier, then one thread issues the TMA store). Which threads
 * write and fence is what verify/analysis/facts.h follows: per variable and fact (and
 * one for every thread that reaches the statement), "written by the threads
 * where the fact holds, not fenced by them"; a fence under a fact clears its
 * own fact's bits, one every thread reaching it runs clears them all. A CTA
 * barrier hands what is pending over as "other threads' writes, not fenced
 * before a barrier", which a later fence does not clear (the reader may run
 * before it) and a later barrier replaces. Other threads are taken to run
 * the same code as the reader (a kernel's threads do). */
#include <stdlib.h>
#include <string.h>

#include "verify/analysis/bits.h"
#include "verify/analysis/facts.h"
#include "verify/analysis/points.h"
#include "verify/hazard/frame.h"

typedef struct pfence {
	px_verifier *v;
	px_points points;
	px_facts facts;       /* the state's first words */
	size_t mine;          /* the first word of the per-path bits, a bit per variable */
	size_t by;            /* the first bit of "written by the threads of a fact": variable * per + fact */
	size_t others;        /* the first bit of "other threads' writes, not fenced before a barrier" */
	uint32_t per;         /* facts and one for every thread */
	const px_node **barrier; /* per bit: a CTA barrier that handed it over */
	uint32_t *bit;        /* per global: 1 + its bit, or 0 */
	uint32_t nbits;
	const px_node **write; /* per bit: a generic write of it */
	const px_func *f;
	uint32_t *desc;        /* per value: 1 + the global its descriptor's address is in, 0 none, UINT32_MAX several */
	uint8_t *said;
	size_t w;
} pfence;

static bool has(const px_node *n, uint64_t flag)
{
	return n->kind == PX_N_INST && n->op && (n->op->flags & flag);
}

static bool generic_write(const px_node *n) { return has(n, PX_OPF_GENERIC_WRITE); }

/* A bulk or TMA copy or reduction: its operands after the first are its sources. */
static bool async_reader(const px_node *n) { return has(n, PX_OPF_ASYNC_SOURCE); }

/* An operation whose descriptor operands the async proxy reads through. */
static bool desc_reader(const px_node *n) { return has(n, PX_OPF_DESC_READER); }

static bool is_barrier(const px_node *n)
{
	return n->kind == PX_N_INST && n->op && (n->op->flags & PX_OPF_CTA_BARRIER);
}

static bool is_fence(const px_node *n)
{
	if (!has(n, PX_OPF_PROXY_FENCE))
		return false;
	int k = px_slot_find(n->op, PX_SN_kind), s = px_slot_find(n->op, PX_SN_space);
	unsigned kind = k < 0 ? 0 : px_slot_tok(n->op, n->slot, (unsigned)k);
	unsigned space = s < 0 ? 0 : px_slot_tok(n->op, n->slot, (unsigned)s);
	return kind == PX_TOK_async && space != PX_TOK_global;
}

/* The first operand of n that points into a tracked variable: its bit + 1. */
static uint32_t bit_of(const pfence *p, const px_opnd *o)
{
	uint32_t t = px_points_target(&p->points, o);
	return t ? p->bit[t - 1] : 0;
}

enum { SEVERAL = UINT32_MAX };

/* The global a descriptor operand o describes, 0 when none or several. */
static uint32_t described(const pfence *p, const px_opnd *o)
{
	if (o->kind != PX_O_VALUE || o->elem >= 0)
		return 0;
	return p->desc[o->id] == SEVERAL ? 0 : p->desc[o->id];
}

/* What n's single result describes, by its operation (see above). */
static uint32_t desc_of(const pfence *p, const px_node *n)
{
	const px_op_def *op = n->op;
	if (op->flags & PX_OPF_DESC_BUILDER)
		return n->nops ? px_points_target(&p->points, &n->ops[0]) : 0;
	static const unsigned keeps[] = {PX_OP_mov, PX_OP_cvt, PX_OP_shl, PX_OP_shr, PX_OP_and,
	                                 PX_OP_or,  PX_OP_xor, PX_OP_add, PX_OP_cvta};
	bool keep = false;
	for (unsigned i = 0; i < sizeof keeps / sizeof *keeps; i++)
		keep = keep || op == &px_ops[keeps[i]];
	uint32_t g = 0;
	for (uint32_t i = 0; keep && i < n->nops; i++) {
		const px_opnd *o = &n->ops[i];
		uint32_t h = described(p, o);
		h = h ? h : px_points_of(&p->points, o);
		if (h && g && h != g)
			return 0;
		g = h ? h : g;
	}
	return g;
}

/* Each value's descriptor, over its definitions in text order, twice (a
 * loop's stepped descriptor is defined from itself). */
static void find_descriptors(pfence *p, px_arena *a)
{
	p->desc = px_arena_calloc(a, p->f->nvalues + 1, sizeof *p->desc);
	for (unsigned round = 0; round < 2; round++)
		for (const px_node *n = p->f->first; n; n = n->next) {
			if (n->kind != PX_N_INST || !n->op || n->nres != 1 || n->res[0].kind != PX_O_VALUE ||
			    n->res[0].elem >= 0)
				continue;
			uint32_t id = n->res[0].id, g = desc_of(p, n), old = p->desc[id];
			p->desc[id] = round == 0 && !old ? (g ? g : SEVERAL) : old == g ? g : SEVERAL;
		}
}

static void warn(pfence *p, const px_node *n, const px_opnd *o, uint32_t t, uint32_t b, bool other)
{
	p->said[b - 1] = 1;
	const px_str name = p->v->m->globals[t - 1].name;
	px_warn(p->v->d, o->loc, other ? PX_D_proxy_other_threads : PX_D_proxy_no_fence, n->op->name, (int)name.n,
	        name.s);
	px_note(p->v->d, p->write[b - 1]->loc, PX_D_proxy_write_here, p->write[b - 1]->op->name, (int)name.n, name.s);
	if (other && p->barrier[b - 1])
		px_note(p->v->d, p->barrier[b - 1]->loc, PX_D_proxy_barrier_here, (int)name.n, name.s,
		        p->barrier[b - 1]->op->name);
}

/* Variable b (from 1) read through the async proxy by n's operand o. */
static void read_async(pfence *p, const uint64_t *s, const px_node *n, const px_opnd *o, uint32_t t, uint32_t b)
{
	if (!b || p->said[b - 1])
		return;
	if (px_bit(s, p->mine * 64 + b - 1))
		warn(p, n, o, t, b, false);
	else if (px_bit(s, p->others + b - 1))
		warn(p, n, o, t, b, true);
}

static void step(void *ctx, uint64_t *s, const px_node *n, bool report)
{
	pfence *p = ctx;
	const uint32_t none = p->facts.nfacts;
	uint32_t k = px_facts_step(&p->facts, s, n);
	for (uint32_t v = 0; k && v < p->nbits; v++) /* the threads of a recomputed predicate are no one in particular */
		for (uint32_t f = 2 * (k - 1); f < 2 * k; f++)
			if (px_bit(s, p->by + (size_t)v * p->per + f)) {
				px_bit_put(s, p->by + (size_t)v * p->per + f, false);
				px_bit_put(s, p->by + (size_t)v * p->per + none, true);
			}
	if (is_fence(n)) {
		memset(s + p->mine, 0, px_bits_words(p->nbits) * 8);
		uint32_t g = px_facts_of(&p->facts, s, n);
		for (uint32_t v = 0; v < p->nbits; v++)
			for (uint32_t f = 0; f <= none; f++)
				if (g == none || f == g)
					px_bit_put(s, p->by + (size_t)v * p->per + f, false);
		return;
	}
	if (is_barrier(n)) {
		for (uint32_t v = 0; v < p->nbits; v++) {
			bool pending = false;
			for (uint32_t f = 0; f <= none; f++)
				pending = pending || px_bit(s, p->by + (size_t)v * p->per + f);
			px_bit_put(s, p->others + v, pending);
			if (report && pending && !p->barrier[v])
				p->barrier[v] = n;
		}
		return;
	}
	if (generic_write(n)) {
		uint32_t w = px_facts_of(&p->facts, s, n);
		for (uint32_t i = 0; i < n->nops; i++) {
			uint32_t b = bit_of(p, &n->ops[i]);
			if (b) {
				px_bit_put(s, p->mine * 64 + b - 1, true);
				px_bit_put(s, p->by + (size_t)(b - 1) * p->per + w, true);
			}
		}
		return;
	}
	if (!report)
		return;
	for (uint32_t i = 1; async_reader(n) && i < n->nops; i++)
		read_async(p, s, n, &n->ops[i], px_points_target(&p->points, &n->ops[i]), bit_of(p, &n->ops[i]));
	for (uint32_t i = 0; desc_reader(n) && i < n->nops; i++) {
		uint32_t t = described(p, &n->ops[i]);
		read_async(p, s, n, &n->ops[i], t, t ? p->bit[t - 1] : 0);
	}
}

static void edge(void *ctx, uint64_t *s, uint32_t from, uint32_t to)
{
	pfence *p = ctx;
	px_facts_edge(&p->facts, s, from, to);
}

static bool cares(void *ctx, const px_node *n)
{
	(void)ctx;
	return generic_write(n) || is_fence(n);
}

void px_check_proxy_fence(px_frame *fr)
{
	px_verifier *v = fr->v;
	px_func *f = fr->f;
	const px_cfg *g = &fr->g;
	if (!px_cfg_has_flag(g, PX_OPF_ASYNC_SOURCE | PX_OPF_DESC_READER))
		return;
	pfence p = {.v = v, .f = f};
	px_points_init(&p.points, v, f, fr->a);
	find_descriptors(&p, fr->a);
	p.bit = px_frame_alloc(fr, v->m->nglobals + 1, sizeof *p.bit);
	const uint64_t writes = PX_OPF_GENERIC_WRITE;
	for (uint32_t k = px_cfg_next(g, 0, writes); k < g->nstmts; k = px_cfg_next(g, k + 1, writes))
		for (uint32_t i = 0; i < g->stmt[k]->nops; i++) {
			uint32_t t = px_points_target(&p.points, &g->stmt[k]->ops[i]);
			if (t && !p.bit[t - 1])
				p.bit[t - 1] = ++p.nbits;
		}
	p.write = px_frame_alloc(fr, p.nbits + 1, sizeof *p.write);
	for (uint32_t k = px_cfg_next(g, 0, writes); k < g->nstmts; k = px_cfg_next(g, k + 1, writes))
		for (uint32_t i = 0; i < g->stmt[k]->nops; i++) {
			const px_node *n = g->stmt[k];
			uint32_t b = bit_of(&p, &n->ops[i]);
			if (b && !p.write[b - 1])
				p.write[b - 1] = n;
		}
	if (p.nbits) {
		px_facts_init(&p.facts, f, g, 0, writes | PX_OPF_PROXY_FENCE, 0, cares, NULL);
		p.per = p.facts.nfacts + 1;
		p.mine = p.facts.words;
		p.by = (p.mine + px_bits_words(p.nbits)) * 64;
		p.others = p.by + (size_t)p.nbits * p.per;
		p.w = px_bits_words(p.others + p.nbits);
		p.said = px_frame_alloc(fr, p.nbits, 1);
		p.barrier = px_frame_alloc(fr, p.nbits, sizeof *p.barrier);
		uint64_t *start = px_frame_alloc(fr, p.w, 8);
		px_facts_start(&p.facts, start);
		px_flow_check_edges(g, p.w, start, step, edge, &p);
	}
}
