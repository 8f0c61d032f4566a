/* Which way branches on a predicate went (see facts.h). */
#include "verify/analysis/facts.h"

#include <stdlib.h>
#include <string.h>

#include "tables/tables.h"

static bool is_bra(const px_node *n)
{
	return n->kind == PX_N_INST && n->op == &px_ops[PX_OP_bra] && n->nops == 1 && n->ops[0].kind == PX_O_LABEL;
}

/* Which values a thread always computes the same (facts.h's steady), and
 * which two are the same computation. */
typedef struct steadiness {
	const px_func *f;
	const px_node **def; /* per value: its one defining statement, or NULL */
	uint32_t *ndefs;     /* per value: how many statements define it */
	uint8_t *memo;       /* per value: 0 not asked, 1 steady, 2 not */
	const px_node *at;   /* the statement whose results are being counted */
} steadiness;

/* Chains of values deeper than this are taken as not steady: the answer
 * stays cheap and the stack small. */
enum { STEADY_DEPTH = 32 };

static void count_def(void *ctx, uint32_t id, px_loc loc)
{
	(void)loc;
	steadiness *st = ctx;
	st->ndefs[id]++;
	st->def[id] = st->at;
}

static bool steady_value(steadiness *st, uint32_t id, unsigned depth);

static bool steady_opnd(steadiness *st, const px_opnd *o, unsigned depth)
{
	switch (o->kind) {
	case PX_O_VALUE:
		return steady_value(st, o->id, depth + 1);
	case PX_O_SREG:
		return px_sregs[o->id].fixed;
	case PX_O_INT:
	case PX_O_FLOAT:
	case PX_O_FBITS:
	case PX_O_SYM:
		return true;
	default:
		return false; /* an address reads memory; a group is a vector's parts */
	}
}

/* What makes a statement's result differ from one run to the next although
 * its operands do not: other threads, or memory behind an address. */
static bool steady_node(steadiness *st, const px_node *n, unsigned depth)
{
	if (n->kind != PX_N_INST || !n->op || n->has_guard || n->nres != 1 ||
	    (n->op->flags & (PX_OPF_THREAD_RESULT | PX_OPF_CTA_BARRIER | PX_OPF_WARP_COLLECTIVE | PX_OPF_WARPGROUP)))
		return false;
	for (uint32_t i = 0; i < n->nops; i++)
		if (!steady_opnd(st, &n->ops[i], depth))
			return false;
	return true;
}

static bool steady_value(steadiness *st, uint32_t id, unsigned depth)
{
	if (st->memo[id])
		return st->memo[id] == 1;
	if (depth > STEADY_DEPTH)
		return false;
	bool ok = st->ndefs[id] == 0 ? st->f->values[id].param != PX_PARAM_NONE
	                             : st->ndefs[id] == 1 && steady_node(st, st->def[id], depth);
	st->memo[id] = ok ? 1 : 2;
	return ok;
}

/* Whether steady values a and b are the same computation. */
static bool same_value(const steadiness *st, uint32_t a, uint32_t b, unsigned depth)
{
	if (a == b)
		return true;
	const px_node *x = st->def[a], *y = st->def[b];
	if (depth > STEADY_DEPTH || !st->ndefs[a] || !st->ndefs[b] || x->op != y->op || x->nops != y->nops ||
	    (x->op->nslots && x->slot != y->slot && memcmp(x->slot, y->slot, x->op->nslots * sizeof *x->slot)))
		return false;
	for (uint32_t i = 0; i < x->nops; i++) {
		const px_opnd *o = &x->ops[i], *p = &y->ops[i];
		if (o->kind != p->kind || o->neg != p->neg)
			return false;
		bool eq = false;
		switch (o->kind) {
		case PX_O_VALUE:
			eq = o->elem == p->elem && same_value(st, o->id, p->id, depth + 1);
			break;
		case PX_O_SREG:
			eq = o->id == p->id;
			break;
		case PX_O_INT:
			eq = o->ival == p->ival;
			break;
		case PX_O_FLOAT:
			eq = o->fval == p->fval && o->fdir == p->fdir;
			break;
		case PX_O_FBITS:
			eq = o->bits == p->bits && o->fwidth == p->fwidth;
			break;
		case PX_O_SYM:
			eq = o->sym.n == p->sym.n && !memcmp(o->sym.s, p->sym.s, o->sym.n);
			break;
		default:
			break;
		}
		if (!eq)
			return false;
	}
	return true;
}

static void follow(px_facts *x, uint32_t value, uint32_t *nfollowed, uint32_t *followed)
{
	if (!x->key[value]) {
		x->key[value] = 1;
		followed[(*nfollowed)++] = value;
	}
}

/* Each followed value's predicate: a steady one joins the first earlier
 * steady one computed the same way. */
static void number(px_facts *x, const px_func *f, const uint32_t *followed, uint32_t nfollowed)
{
	px_arena *a = x->g->arena;
	steadiness st = {.f = f};
	st.def = px_arena_calloc(a, f->nvalues + 1, sizeof *st.def);
	st.ndefs = px_arena_calloc(a, f->nvalues + 1, sizeof *st.ndefs);
	st.memo = px_arena_calloc(a, f->nvalues + 1, 1);
	for (uint32_t i = 0; nfollowed && i < x->g->nstmts; i++) {
		st.at = x->g->stmt[i];
		px_node_writes(st.at, count_def, &st); /* a call's or asm's results are never steady (steady_node) */
	}
	uint32_t npreds = 0;
	for (uint32_t i = 0; i < nfollowed; i++) {
		uint32_t v = followed[i], k = 0;
		bool steady = steady_value(&st, v, 0);
		for (uint32_t j = 0; steady && j < npreds && !k; j++)
			if (x->steady[j] && same_value(&st, x->pred[j], v, 0))
				k = j + 1;
		if (!k) {
			x->pred[npreds] = v;
			x->steady[npreds] = steady;
			k = ++npreds;
		}
		x->key[v] = k;
	}
	x->nfacts = 2 * npreds;
}

void px_facts_init(px_facts *x, const px_func *f, const px_cfg *g, size_t base, uint64_t flags, uint8_t marks,
                   bool (*cares)(void *ctx, const px_node *n), void *ctx)
{
	px_arena *a = g->arena;
	x->g = g;
	x->base = base;
	x->key = px_arena_calloc(a, f->nvalues + 1, sizeof *x->key);
	x->pred = px_arena_calloc(a, f->nvalues + 1, sizeof *x->pred);
	x->steady = px_arena_calloc(a, f->nvalues + 1, 1);
	px_arena_mark mark = px_arena_mark_now(a);
	uint32_t *followed = px_arena_calloc(a, f->nvalues + 1, sizeof *followed);
	/* how many statements the check cares about come before each position,
	 * and where each label is: a label starts its block */
	uint32_t nfollowed = 0;
	uint32_t *before = px_arena_calloc(a, g->nstmts + 1, sizeof *before);
	uint32_t *label_at = px_arena_calloc(a, f->nlabels + 1, sizeof *label_at);
	for (uint32_t i = 0; i < g->nstmts; i++) {
		const px_node *n = g->stmt[i];
		bool c = ((px_cfg_flags(g, i) & flags) || (g->stmt_marks[i] & marks)) && cares(ctx, n);
		before[i + 1] = before[i] + c;
		if (c && n->has_guard)
			follow(x, n->guard, &nfollowed, followed);
	}
	for (uint32_t b = 0; b < g->nblocks; b++)
		if (g->stmt_marks[g->at[b]] & PX_CFG_KIND(PX_N_LABEL))
			label_at[px_cfg_first(g, b)->label] = g->at[b];
	/* a branch ends its block */
	for (uint32_t b = 0; b < g->nblocks; b++) {
		const px_node *n = px_cfg_last(g, b);
		uint32_t i = g->at[b + 1] - 1;
		if (is_bra(n) && n->has_guard) {
			uint32_t to = label_at[n->ops[0].id];
			if (to > i && before[to] > before[i + 1])
				follow(x, n->guard, &nfollowed, followed);
		}
	}
	number(x, f, followed, nfollowed);
	px_arena_release(a, mark);
	x->words = px_bits_words(x->nfacts);
}


static inline void set(const px_facts *x, uint64_t *s, uint32_t f) { px_bit_set(s + x->base, f); }
static inline void clr(const px_facts *x, uint64_t *s, uint32_t f) { px_bit_clear(s + x->base, f); }

void px_facts_start(const px_facts *x, uint64_t *s)
{
	for (uint32_t f = 0; f < x->nfacts; f++)
		set(x, s, f);
}


uint32_t px_facts_edge(const px_facts *x, uint64_t *s, uint32_t from, uint32_t to)
{
	const px_node *n = px_cfg_last(x->g, from);
	if (!is_bra(n) || !n->has_guard || !x->key[n->guard])
		return x->nfacts;
	const px_node *head = px_cfg_first(x->g, to);
	bool at_label = head->kind == PX_N_LABEL && head->label == n->ops[0].id;
	if (at_label && to == from + 1)
		return x->nfacts; /* both ways lead here */
	/* taken: the guard holds as written (@%p: %p true; @!%p: false) */
	bool truth = at_label != n->guard_neg;
	uint32_t holds = 2 * (x->key[n->guard] - 1) + truth;
	clr(x, s, holds);
	set(x, s, holds ^ 1);
	return holds ^ 1;
}

typedef struct redef {
	const px_facts *x;
	uint64_t *s;
	uint32_t key;
} redef;

static void redefines(void *ctx, uint32_t id, px_loc loc)
{
	(void)loc;
	redef *r = ctx;
	uint32_t k = r->x->key[id];
	if (!k || r->x->steady[k - 1])
		return;
	set(r->x, r->s, 2 * (k - 1));
	set(r->x, r->s, 2 * (k - 1) + 1);
	r->key = k;
}

uint32_t px_facts_step(const px_facts *x, uint64_t *s, const px_node *n)
{
	redef r = {x, s, 0};
	if (n->kind == PX_N_INST)
		px_node_writes(n, redefines, &r);
	return r.key;
}

uint32_t px_facts_guard(const px_facts *x, const px_node *n)
{
	return n->has_guard && x->key[n->guard] ? 2 * (x->key[n->guard] - 1) + !n->guard_neg : x->nfacts;
}

uint32_t px_facts_of(const px_facts *x, const uint64_t *s, const px_node *n)
{
	if (n->has_guard)
		return px_facts_guard(x, n);
	uint32_t f = 0;
	while (f < x->nfacts && s[x->base + (f >> 6)] >> (f & 63) & 1)
		f++;
	return f;
}
