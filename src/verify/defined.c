/* Definite definition: a read of a value that some path from the start of
 * the function reaches without passing a definition of it. The verifier's
 * walk in text order already refuses a read before every definition in the
 * text; what it cannot see is a path around one: a branch over it, a loop
 * that may run no times, the other arm of an if.
 *
 * Two forward dataflow problems over the blocks (verify/cfg.h), as bit
 * vectors per block: "undefined on some path" (the start: every value; a
 * block's definitions take their values out) and "defined on some path" (the
 * start: none; a block's definitions put theirs in); a join is a union. A
 * read in the first set is a warning; a read outside the second is an error,
 * since every execution that reaches it reads no value. Only the values read
 * in some block before that block defines them take part: the rest are
 * defined before each of their reads in their own block. A definition under
 * a guard counts as one (the guard is not followed). The vectors are made for
 * a slice of the values at a time, so memory stays bounded in a function with
 * many blocks and many such values. */
#include <stdlib.h>
#include <string.h>

#include "verify/cfg.h"
#include "verify/verify.h"

/* the most bytes of vectors at once (two vectors a block per slice) */
enum { VECTOR_BUDGET = 64 << 20 };

typedef struct exposed {
	uint32_t block, cand;
	px_loc loc;
} exposed;

typedef struct defcheck {
	px_verifier *v;
	px_func *f;
	const px_cfg *g;
	uint32_t *mark;     /* per value: 1 + the block whose scan last defined it */
	uint32_t *cand;     /* per value: its candidate index + 1, or 0 */
	uint32_t *cand_val; /* per candidate: its value */
	uint32_t ncand;
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
		c->cand[id] = ++c->ncand;
		c->cand_val = realloc(c->cand_val, c->ncand * sizeof *c->cand_val);
		if (!c->cand_val)
			abort();
		c->cand_val[c->ncand - 1] = id;
	}
	if (c->nreads == c->cap_reads) {
		c->cap_reads = c->cap_reads ? c->cap_reads * 2 : 64;
		c->reads = realloc(c->reads, c->cap_reads * sizeof *c->reads);
		if (!c->reads)
			abort();
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
		px_node *n = c->g->first[b];
		for (uint32_t i = 0; i < c->g->len[b]; i++, n = n->next) {
			px_node_reads(n, on_read, c);
			for (uint32_t r = 0; r < n->nres; r++)
				result_defs(c, &n->res[r], b);
		}
	}
}

/* Per block, the candidates it defines (each once). */
static void scan_defs(defcheck *c)
{
	c->def_at = px_zalloc(c->g->nblocks + 1, sizeof *c->def_at);
	uint32_t cap = 0;
	for (uint32_t pass = 0; pass < 2; pass++) {
		uint32_t k = 0;
		memset(c->mark, 0, (c->f->nvalues + 1) * sizeof *c->mark);
		for (uint32_t b = 0; b < c->g->nblocks; b++) {
			c->def_at[b] = k;
			px_node *n = c->g->first[b];
			for (uint32_t i = 0; i < c->g->len[b]; i++, n = n->next)
				for (uint32_t r = 0; r < n->nres; r++) {
					const px_opnd *o = &n->res[r];
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
			c->defs = px_zalloc(cap, sizeof *c->defs);
		}
	}
}

static inline bool bit(const uint64_t *v, uint32_t i)
{
	return v[i >> 6] >> (i & 63) & 1;
}

/* The branch nearest before block b on a path that leaves the candidate k
 * undefined (the one a reader should look at), or NULL. The blocks' states
 * at their ends are stride words apart, each starting with "undefined". */
static const px_node *bypass(const defcheck *c, const uint64_t *out, size_t stride, uint32_t lo, uint32_t b,
                             uint32_t k)
{
	uint8_t *seen = px_zalloc(c->g->nblocks, 1);
	const px_node *found = NULL;
	for (uint32_t steps = 0; steps < c->g->nblocks && !found; steps++) {
		seen[b] = 1;
		uint32_t next = UINT32_MAX;
		for (uint32_t e = c->g->pred_at[b]; e < c->g->pred_at[b + 1]; e++) {
			uint32_t p = c->g->pred[e];
			if (c->g->reached[p] && !seen[p] && bit(out + (size_t)p * stride, k - lo)) {
				next = p;
				break;
			}
		}
		if (next == UINT32_MAX)
			break;
		b = next;
		const px_node *last = c->g->first[b];
		for (uint32_t i = 1; i < c->g->len[b]; i++)
			last = last->next;
		if (c->g->succ_at[b + 1] - c->g->succ_at[b] > 1)
			found = last;
	}
	free(seen);
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
		undef[(k - sl->lo) >> 6] &= ~((uint64_t)1 << ((k - sl->lo) & 63));
		some[(k - sl->lo) >> 6] |= (uint64_t)1 << ((k - sl->lo) & 63);
	}
}

/* The two problems for candidates lo .. hi - 1, then their reads. */
static void solve_slice(defcheck *c, uint32_t lo, uint32_t hi)
{
	defslice sl = {c, lo, hi, (hi - lo + 63) / 64};
	size_t w = sl.w;
	uint64_t *start = px_zalloc(2 * w, 8);
	memset(start, 0xff, w * 8); /* at the start every candidate is undefined */
	uint64_t *out = px_flow_solve(c->g, 2 * w, start, block_defs, &sl); /* at each block's end */
	for (uint32_t i = 0; i < c->nreads; i++) {
		const exposed *r = &c->reads[i];
		if (r->cand < lo || r->cand >= hi || !c->g->reached[r->block] || c->reported[r->cand])
			continue;
		bool maybe = r->block == 0, some_def = false;
		for (uint32_t e = c->g->pred_at[r->block]; e < c->g->pred_at[r->block + 1]; e++) {
			const uint64_t *p = out + (size_t)c->g->pred[e] * 2 * w;
			maybe = maybe || bit(p, r->cand - lo);
			some_def = some_def || bit(p + w, r->cand - lo);
		}
		if (!maybe)
			continue;
		c->reported[r->cand] = 1;
		report(c, r, !some_def, some_def ? bypass(c, out, 2 * w, lo, r->block, r->cand) : NULL);
	}
	free(out);
	free(start);
}

void px_check_defined(px_verifier *v, px_func *f, const px_cfg *g)
{
	defcheck c = {.v = v, .f = f, .g = g};
	c.mark = px_zalloc(f->nvalues + 1, sizeof *c.mark);
	c.cand = px_zalloc(f->nvalues + 1, sizeof *c.cand);
	scan_reads(&c);
	if (c.ncand) {
		scan_defs(&c);
		c.reported = px_zalloc(c.ncand, 1);
		size_t per_block = 2 * 8 * (size_t)(g->nblocks ? g->nblocks : 1);
		size_t words = VECTOR_BUDGET / per_block;
		uint32_t slice = words < 1 ? 64 : words > (c.ncand + 63) / 64 ? c.ncand : (uint32_t)words * 64;
		for (uint32_t lo = 0; lo < c.ncand; lo += slice)
			solve_slice(&c, lo, lo + slice < c.ncand ? lo + slice : c.ncand);
	}
	free(c.mark);
	free(c.cand);
	free(c.cand_val);
	free(c.reported);
	free(c.reads);
	free(c.def_at);
	free(c.defs);
}
