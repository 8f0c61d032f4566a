/* Generic-proxy writes to shared memory that the async proxy then reads: a
 * st, stmatrix, atom or red into a shared variable, then a bulk or TMA copy
 * (or reduction) that reads it as its source, on a path with no
 * fence.proxy.async between (-Wproxy-fence). The async proxy does not see
 * generic writes until such a fence orders them.
 *
 * The variables are those addresses point into (verify/points.h); a forward
 * dataflow problem over the blocks, a bit per variable ("written by the
 * generic proxy, not fenced yet"), a join a union. fence.proxy.async without
 * a space or with a shared one clears every bit. */
#include <stdlib.h>
#include <string.h>

#include "verify/cfg.h"
#include "verify/points.h"
#include "verify/verify.h"

typedef struct pfence {
	px_verifier *v;
	const px_cfg *g;
	px_points points;
	uint32_t *bit;        /* per global: 1 + its bit, or 0 */
	uint32_t nbits;
	const px_node **write; /* per bit: a generic write of it */
	uint8_t *said;
	size_t w;
	uint64_t *out;
	bool report;
} pfence;

static void *zalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);
	if (!p)
		abort();
	return p;
}

static bool generic_write(const px_node *n)
{
	return n->kind == PX_N_INST && (n->op == &px_ops[PX_OP_st] || n->op == &px_ops[PX_OP_stmatrix] ||
	                                n->op == &px_ops[PX_OP_atom] || n->op == &px_ops[PX_OP_red]);
}

/* A bulk or TMA copy or reduction: its operands after the first are its sources. */
static bool async_reader(const px_node *n)
{
	return n->kind == PX_N_INST &&
	       (n->op == &px_ops[PX_OP_cp_async_bulk] || n->op == &px_ops[PX_OP_cp_async_bulk_tensor] ||
	        n->op == &px_ops[PX_OP_cp_reduce_async_bulk] || n->op == &px_ops[PX_OP_cp_reduce_async_bulk_tensor]);
}

static bool is_fence(const px_node *n)
{
	if (n->kind != PX_N_INST || n->op != &px_ops[PX_OP_fence_proxy])
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

static void step(pfence *p, uint64_t *s, const px_node *n)
{
	if (is_fence(n)) {
		memset(s, 0, p->w * 8);
		return;
	}
	if (generic_write(n)) {
		for (uint32_t i = 0; i < n->nops; i++) {
			uint32_t b = bit_of(p, &n->ops[i]);
			if (b)
				s[(b - 1) >> 6] |= (uint64_t)1 << ((b - 1) & 63);
		}
		return;
	}
	if (!p->report || !async_reader(n))
		return;
	for (uint32_t i = 1; i < n->nops; i++) {
		uint32_t b = bit_of(p, &n->ops[i]);
		if (!b || !(s[(b - 1) >> 6] >> ((b - 1) & 63) & 1) || p->said[b - 1])
			continue;
		p->said[b - 1] = 1;
		uint32_t t = px_points_target(&p->points, &n->ops[i]);
		const px_str name = p->v->m->globals[t - 1].name;
		px_warn(p->v->d, n->ops[i].loc, PX_D_proxy_no_fence, n->op->name, (int)name.n, name.s);
		px_note(p->v->d, p->write[b - 1]->loc, PX_D_proxy_write_here, p->write[b - 1]->op->name, (int)name.n,
		        name.s);
	}
}

static void block_in(pfence *p, uint32_t b, uint64_t *in)
{
	memset(in, 0, p->w * 8);
	for (uint32_t e = p->g->pred_at[b]; e < p->g->pred_at[b + 1]; e++) {
		const uint64_t *q = p->out + (size_t)p->g->pred[e] * p->w;
		for (size_t k = 0; k < p->w; k++)
			in[k] |= q[k];
	}
}

void px_check_proxy_fence(px_verifier *v, px_func *f, const px_cfg *g)
{
	if (!px_cfg_has(g, PX_OP_cp_async_bulk) && !px_cfg_has(g, PX_OP_cp_async_bulk_tensor) &&
	    !px_cfg_has(g, PX_OP_cp_reduce_async_bulk) && !px_cfg_has(g, PX_OP_cp_reduce_async_bulk_tensor))
		return;
	pfence p = {.v = v, .g = g};
	px_points_init(&p.points, v, f);
	p.bit = zalloc(v->m->nglobals + 1, sizeof *p.bit);
	for (const px_node *n = f->first; n; n = n->next)
		for (uint32_t i = 0; generic_write(n) && i < n->nops; i++) {
			uint32_t t = px_points_target(&p.points, &n->ops[i]);
			if (t && !p.bit[t - 1])
				p.bit[t - 1] = ++p.nbits;
		}
	p.write = zalloc(p.nbits + 1, sizeof *p.write);
	for (const px_node *n = f->first; n; n = n->next)
		for (uint32_t i = 0; generic_write(n) && i < n->nops; i++) {
			uint32_t b = bit_of(&p, &n->ops[i]);
			if (b && !p.write[b - 1])
				p.write[b - 1] = n;
		}
	if (p.nbits) {
		p.w = (p.nbits + 63) / 64;
		p.said = zalloc(p.nbits, 1);
		p.out = zalloc((size_t)g->nblocks * p.w, 8);
		uint64_t *s = zalloc(p.w, 8);
		bool changed = true;
		while (changed) {
			changed = false;
			for (uint32_t i = 0; i < g->nrpo; i++) {
				uint32_t b = g->rpo[i];
				block_in(&p, b, s);
				const px_node *n = g->first[b];
				for (uint32_t k = 0; k < g->len[b]; k++, n = n->next)
					step(&p, s, n);
				uint64_t *out = p.out + (size_t)b * p.w;
				if (memcmp(out, s, p.w * 8)) {
					memcpy(out, s, p.w * 8);
					changed = true;
				}
			}
		}
		p.report = true;
		for (uint32_t b = 0; b < g->nblocks; b++) {
			if (!g->reached[b])
				continue;
			block_in(&p, b, s);
			const px_node *n = g->first[b];
			for (uint32_t k = 0; k < g->len[b]; k++, n = n->next)
				step(&p, s, n);
		}
		free(s);
		free(p.out);
		free(p.said);
	}
	free(p.write);
	free(p.bit);
	px_points_free(&p.points);
}
