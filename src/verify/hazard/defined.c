/* Definite definition: a read of a value that some path from the start of
 * the function reaches without passing a definition of it. The verifier's
 * walk in text order already refuses a read before every definition in the
 * text; what it cannot see is a path around one: a branch over it, a loop
 * that may run no times, the other arm of an if.
 *
 * Two forward dataflow problems over the blocks (verify/analysis/cfg.h), as bit
 * vectors per block: "undefined on some path" (the start: every value; a
 * block's definitions take their values out) and "defined on some path" (the
 * start: none; a block's definitions put theirs in); a join is a union. A
 * read in the first set is a warning; a read outside the second is an error,
 * since every execution that reaches it reads no value. Only the values read
 * in some block before that block defines them take part: the rest are
 * defined before each of their reads in their own block. A definition under
 * a guard counts as one (the guard is not followed). The vectors are made for
 * a slice of the values at a time, so memory stays bounded in a function with
 * many blocks and many such values.
 *
 * A read that the first two problems find undefined on some path is asked
 * again with the guard facts (verify/analysis/facts.h): a value defined under `if
 * warp == 0` and read under a second `if warp == 0` is defined on every path
 * that can run, since no thread takes the first branch one way and the second
 * the other. Per such value and fact, "undefined on some path on which no
 * branch went against the fact" (and one bit with no fact, the first problem
 * again); a read is quiet when its guard's fact or a fact every path to it
 * established has its bit clear. Only the values that would be reported take
 * part, so a function with none pays nothing. */
#include <stdlib.h>
#include <string.h>

#include "verify/analysis/bits.h"
#include "verify/analysis/facts.h"
#include "verify/hazard/frame.h"

/* the most bytes of vectors at once (two vectors a block per slice) */
enum { VECTOR_BUDGET = 64 << 20 };

typedef struct exposed {
	uint32_t block, cand;
	px_loc loc;
} exposed;

typedef struct defcheck {
	px_arena *a;
	px_verifier *v;
	px_func *f;
	const px_cfg *g;
	uint32_t *mark;     /* per value: 1 + the block whose scan last defined it */
	uint32_t *cand;     /* per value: its candidate index + 1, or 0 */
	uint32_t *cand_val; /* per candidate: its value */
	uint32_t ncand, cap_cand;
	uint8_t *reported;  /* per candidate: said once */
	exposed *reads;     /* the exposed reads, in text order */
	uint32_t nreads, cap_reads;
	uint32_t *def_at, *defs; /* per block: the candidates it defines (CSR) */
	uint32_t block;     /* the block being scanned */
	bool count_only;
	uint32_t ndefs;
} defcheck;

static void on_read(void *ctx, uint32_t id, px_loc loc)
{
	defcheck *c = ctx;
	if (c->mark[id] == c->block + 1 || c->f->values[id].param)
		return;
	if (!c->cand[id]) {
		if (c->ncand == c->cap_cand) {
			uint32_t cap = c->cap_cand ? c->cap_cand * 2 : 64;
			c->cand_val = px_arena_grow(c->a, c->cand_val, c->ncand, cap, sizeof *c->cand_val);
			c->cap_cand = cap;
		}
		c->cand_val[c->ncand] = id;
		c->cand[id] = ++c->ncand;
	}
	if (c->nreads == c->cap_reads) {
		uint32_t cap = c->cap_reads ? c->cap_reads * 2 : 64;
		c->reads = px_arena_grow(c->a, c->reads, c->nreads, cap, sizeof *c->reads);
		c->cap_reads = cap;
	}
	c->reads[c->nreads++] = (exposed){c->block, c->cand[id] - 1, loc};
	/* one read a block is enough: mark it as though defined */
	c->mark[id] = c->block + 1;
}

static void result_defs(defcheck *c, const px_opnd *o, uint32_t b)
{
	if (o->kind == PX_O_GROUP) {
		for (uint32_t j = 0; j < o->nelems; j++)
			result_defs(c, &o->elems[j], b);
		return;
	}
	if (o->kind != PX_O_VALUE)
		return;
	c->mark[o->id] = b + 1;
}

/* The exposed reads, block by block, in text order. */
static void scan_reads(defcheck *c)
{
	for (uint32_t b = 0; b < c->g->nblocks; b++) {
		c->block = b;
		for (uint32_t i = c->g->at[b]; i < c->g->at[b + 1]; i++) {
			px_node *n = c->g->stmt[i];
			px_node_reads(n, on_read, c);
			for (uint32_t r = 0; r < n->nres; r++)
				result_defs(c, &n->res[r], b);
		}
	}
}

/* Per block, the candidates it defines (each once). */
static void scan_defs(defcheck *c)
{
	c->def_at = px_arena_calloc(c->a, c->g->nblocks + 1, sizeof *c->def_at);
	uint32_t cap = 0;
	for (uint32_t pass = 0; pass < 2; pass++) {
		uint32_t k = 0;
		memset(c->mark, 0, (c->f->nvalues + 1) * sizeof *c->mark);
		for (uint32_t b = 0; b < c->g->nblocks; b++) {
			c->def_at[b] = k;
			for (uint32_t i = c->g->at[b]; i < c->g->at[b + 1]; i++)
				for (uint32_t r = 0; r < c->g->stmt[i]->nres; r++) {
					const px_opnd *o = &c->g->stmt[i]->res[r];
					if (o->kind != PX_O_VALUE || !c->cand[o->id] || c->mark[o->id] == b + 1)
						continue;
					c->mark[o->id] = b + 1;
					if (pass)
						c->defs[k] = c->cand[o->id] - 1;
					k++;
				}
		}
		c->def_at[c->g->nblocks] = k;
		if (!pass) {
			cap = k;
			c->defs = px_arena_calloc(c->a, cap, sizeof *c->defs);
		}
	}
}

/* The branch nearest before block b on a path that leaves the candidate k
 * undefined (the one a reader should look at), or NULL. The blocks' states
 * at their ends are stride words apart, each starting with "undefined". */
static const px_node *bypass(const defcheck *c, const uint64_t *out, size_t stride, uint32_t lo, uint32_t b,
                             uint32_t k)
{
	px_arena_mark mark = px_arena_mark_now(c->a);
	uint8_t *seen = px_arena_calloc(c->a, c->g->nblocks, 1);
	const px_node *found = NULL;
	for (uint32_t steps = 0; steps < c->g->nblocks && !found; steps++) {
		seen[b] = 1;
		uint32_t next = UINT32_MAX;
		for (uint32_t e = c->g->pred_at[b]; e < c->g->pred_at[b + 1]; e++) {
			uint32_t p = c->g->pred[e];
			if (c->g->reached[p] && !seen[p] && px_bit(out + (size_t)p * stride, k - lo)) {
				next = p;
				break;
			}
		}
		if (next == UINT32_MAX)
			break;
		b = next;
		if (c->g->succ_at[b + 1] - c->g->succ_at[b] > 1)
			found = px_cfg_last(c->g, b);
	}
	px_arena_release(c->a, mark);
	return found;
}

static void report(defcheck *c, const exposed *r, bool never, const px_node *branch)
{
	const px_value *val = &c->f->values[c->cand_val[r->cand]];
	px_diags *d = c->v->d;
	if (never)
		px_error(d, r->loc, PX_D_never_defined, (int)val->name.n, val->name.s, (int)c->f->name.n, c->f->name.s);
	else
		px_warn(d, r->loc, PX_D_maybe_undefined, (int)val->name.n, val->name.s, (int)c->f->name.n,
		        c->f->name.s);
	if (branch)
		px_note(d, branch->loc, PX_D_undefined_path, px_module_line(c->v->m, r->loc), (int)val->name.n,
		        val->name.s);
	px_note(d, val->def_loc, PX_D_defined_here, (int)val->name.n, val->name.s);
}

typedef struct defslice {
	const defcheck *c;
	uint32_t lo, hi;
	size_t w; /* words a vector: a state is the "undefined" vector, then the "defined" one */
} defslice;

/* Block b's definitions take their candidates out of "undefined on some
 * path" and put them into "defined on some path". */
static void block_defs(void *ctx, uint64_t *s, uint32_t b)
{
	const defslice *sl = ctx;
	const defcheck *c = sl->c;
	uint64_t *undef = s, *some = s + sl->w;
	for (uint32_t e = c->def_at[b]; e < c->def_at[b + 1]; e++) {
		uint32_t k = c->defs[e];
		if (k < sl->lo || k >= sl->hi)
			continue;
		px_bit_clear(undef, k - sl->lo);
		px_bit_set(some, k - sl->lo);
	}
}

/* The guard facts' second look at the suspects (see the top). */
typedef struct guarded {
	px_facts facts;
	const px_func *f;
	uint32_t *sus;            /* per value: 1 + its suspect index, or 0 */
	uint32_t nsus, per;       /* per: bits a suspect (a fact each, then none) */
	const px_node *at;        /* the statement being read */
	uint64_t *state;          /* the state at it */
	const px_node **found;    /* per suspect: the first read still undefined, or NULL */
	px_loc *found_loc;
	bool hit;
} guarded;

static inline size_t ubit(const guarded *q, uint32_t j, uint32_t f)
{
	return q->facts.words * 64 + (size_t)j * q->per + f;
}

static inline bool uget(const guarded *q, const uint64_t *s, uint32_t j, uint32_t f)
{
	return px_bit(s, (uint32_t)ubit(q, j, f));
}

static inline void uput(const guarded *q, uint64_t *s, uint32_t j, uint32_t f, bool on)
{
	px_bit_put(s, ubit(q, j, f), on);
}

static void touch(void *ctx, uint32_t id, px_loc loc)
{
	(void)loc;
	guarded *q = ctx;
	q->hit = q->hit || q->sus[id];
}

static bool touches(void *ctx, const px_node *n)
{
	guarded *q = ctx;
	q->hit = false;
	px_node_reads(n, touch, q);
	px_node_writes(n, touch, q);
	return q->hit;
}

static void guarded_read(void *ctx, uint32_t id, px_loc loc)
{
	guarded *q = ctx;
	uint32_t j = q->sus[id];
	if (!j-- || q->found[j] || !uget(q, q->state, j, q->per - 1))
		return;
	uint32_t g = px_facts_guard(&q->facts, q->at);
	if (g < q->facts.nfacts && !uget(q, q->state, j, g))
		return;
	for (uint32_t f = 0; f < q->facts.nfacts; f++)
		if (px_facts_holds(&q->facts, q->state, f) && !uget(q, q->state, j, f))
			return;
	q->found[j] = q->at;
	q->found_loc[j] = loc;
}

static void guarded_def(void *ctx, uint32_t id, px_loc loc)
{
	(void)loc;
	guarded *q = ctx;
	if (q->sus[id])
		for (uint32_t f = 0; f < q->per; f++)
			uput(q, q->state, q->sus[id] - 1, f, false);
}

static void guarded_step(void *ctx, uint64_t *s, const px_node *n, bool report)
{
	guarded *q = ctx;
	q->at = n;
	q->state = s;
	if (report)
		px_node_reads(n, guarded_read, q);
	uint32_t k = px_facts_step(&q->facts, s, n);
	for (uint32_t j = 0; k && j < q->nsus; j++) /* the predicate is computed anew: its branches say nothing */
		for (uint32_t f = 2 * (k - 1); f < 2 * k; f++)
			uput(q, s, j, f, uget(q, s, j, q->per - 1));
	px_node_writes(n, guarded_def, q);
}

static void guarded_edge(void *ctx, uint64_t *s, uint32_t from, uint32_t to)
{
	guarded *q = ctx;
	uint32_t against = px_facts_edge(&q->facts, s, from, to);
	for (uint32_t j = 0; against < q->facts.nfacts && j < q->nsus; j++)
		uput(q, s, j, against, false);
}

/* Reports the suspects that the guard facts do not clear, at their first
 * read still undefined; out holds the first two problems' states for
 * candidates lo .. (stride words a block). When the facts would not fit the
 * budget it reports nothing, and the suspects are reported as before. */
static void report_guarded(defcheck *c, const uint32_t *suspects, uint32_t nsus, const uint64_t *out, size_t stride,
                           uint32_t lo)
{
	px_arena_mark mark = px_arena_mark_now(c->a);
	guarded q = {.f = c->f, .nsus = nsus};
	q.sus = px_arena_calloc(c->a, c->f->nvalues + 1, sizeof *q.sus);
	for (uint32_t j = 0; j < nsus; j++)
		q.sus[c->cand_val[suspects[j]]] = j + 1;
	px_facts_init(&q.facts, c->f, c->g, 0, 0, PX_CFG_ANY_KIND, touches, &q);
	q.per = q.facts.nfacts + 1;
	size_t w = q.facts.words + px_bits_words((size_t)nsus * q.per);
	bool fits = q.facts.nfacts && w * 8 * 2 * (c->g->nblocks ? c->g->nblocks : 1) <= VECTOR_BUDGET;
	if (fits) {
		q.found = px_arena_calloc(c->a, nsus, sizeof *q.found);
		q.found_loc = px_arena_calloc(c->a, nsus, sizeof *q.found_loc);
		uint64_t *start = px_arena_calloc(c->a, w, 8);
		px_facts_start(&q.facts, start);
		for (uint32_t j = 0; j < nsus; j++)
			for (uint32_t f = 0; f < q.per; f++)
				uput(&q, start, j, f, true);
		px_flow_check_edges(c->g, w, start, guarded_step, guarded_edge, &q);
		for (uint32_t j = 0; j < nsus; j++) {
			uint32_t k = suspects[j];
			c->reported[k] = 1;
			if (!q.found[j])
				continue;
			exposed r = {px_cfg_block_of(c->g, q.found[j]), k, q.found_loc[j]};
			bool some_def = false;
			for (uint32_t e = c->g->pred_at[r.block]; e < c->g->pred_at[r.block + 1]; e++)
				some_def = some_def || px_bit(out + (size_t)c->g->pred[e] * stride + stride / 2, k - lo);
			report(c, &r, !some_def, some_def ? bypass(c, out, stride, lo, r.block, k) : NULL);
		}
	}
	px_arena_release(c->a, mark);
}

/* Whether exposed read r finds its candidate undefined on some path, and
 * defined on some: out holds the states at the blocks' ends. */
static bool maybe_at(const defcheck *c, const exposed *r, const uint64_t *out, size_t w, uint32_t lo, bool *some_def)
{
	bool maybe = r->block == 0;
	*some_def = false;
	for (uint32_t e = c->g->pred_at[r->block]; e < c->g->pred_at[r->block + 1]; e++) {
		const uint64_t *p = out + (size_t)c->g->pred[e] * 2 * w;
		maybe = maybe || px_bit(p, r->cand - lo);
		*some_def = *some_def || px_bit(p + w, r->cand - lo);
	}
	return maybe;
}

/* The two problems for candidates lo .. hi - 1, then their reads: a
 * candidate whose first read undefined on some path is defined on another
 * is a suspect the guard facts look at again. */
static void solve_slice(defcheck *c, uint32_t lo, uint32_t hi)
{
	px_arena_mark mark = px_arena_mark_now(c->a);
	defslice sl = {c, lo, hi, px_bits_words(hi - lo)};
	size_t w = sl.w;
	uint64_t *start = px_arena_calloc(c->a, 2 * w, 8);
	memset(start, 0xff, w * 8); /* at the start every candidate is undefined */
	uint64_t *out = px_flow_solve(c->g, 2 * w, start, block_defs, &sl); /* at each block's end */
	uint32_t *suspects = px_arena_calloc(c->a, hi - lo, sizeof *suspects), nsus = 0;
	uint8_t *first = px_arena_calloc(c->a, hi - lo, 1);
	for (uint32_t i = 0; i < c->nreads; i++) {
		const exposed *r = &c->reads[i];
		bool some_def;
		if (r->cand < lo || r->cand >= hi || !c->g->reached[r->block] || c->reported[r->cand] ||
		    first[r->cand - lo] || !maybe_at(c, r, out, w, lo, &some_def))
			continue;
		first[r->cand - lo] = 1;
		if (some_def)
			suspects[nsus++] = r->cand;
	}
	if (nsus)
		report_guarded(c, suspects, nsus, out, 2 * w, lo);
	for (uint32_t i = 0; i < c->nreads; i++) {
		const exposed *r = &c->reads[i];
		bool some_def;
		if (r->cand < lo || r->cand >= hi || !c->g->reached[r->block] || c->reported[r->cand] ||
		    !maybe_at(c, r, out, w, lo, &some_def))
			continue;
		c->reported[r->cand] = 1;
		report(c, r, !some_def, some_def ? bypass(c, out, 2 * w, lo, r->block, r->cand) : NULL);
	}
	px_arena_release(c->a, mark);
}

void px_check_defined(px_frame *fr)
{
	px_func *f = fr->f;
	const px_cfg *g = &fr->g;
	defcheck c = {.a = fr->a, .v = fr->v, .f = f, .g = g};
	c.mark = px_frame_alloc(fr, f->nvalues + 1, sizeof *c.mark);
	c.cand = px_frame_alloc(fr, f->nvalues + 1, sizeof *c.cand);
	scan_reads(&c);
	if (c.ncand) {
		scan_defs(&c);
		c.reported = px_frame_alloc(fr, c.ncand, 1);
		size_t per_block = 2 * 8 * (size_t)(g->nblocks ? g->nblocks : 1);
		size_t words = VECTOR_BUDGET / per_block;
		uint32_t slice = words < 1 ? 64 : words > px_bits_words(c.ncand) ? c.ncand : (uint32_t)words * 64;
		for (uint32_t lo = 0; lo < c.ncand; lo += slice)
			solve_slice(&c, lo, lo + slice < c.ncand ? lo + slice : c.ncand);
	}
}
