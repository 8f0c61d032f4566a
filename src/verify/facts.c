/* Which way branches on a predicate went (see facts.h). */
#include "verify/facts.h"

#include <stdlib.h>
#include <string.h>

#include "tables/tables.h"

static bool is_bra(const px_node *n)
{
	return n->kind == PX_N_INST && n->op == &px_ops[PX_OP_bra] && n->nops == 1 && n->ops[0].kind == PX_O_LABEL;
}

static void follow(px_facts *x, uint32_t value, uint32_t *npreds)
{
	if (!x->key[value]) {
		x->pred[*npreds] = value;
		x->key[value] = ++*npreds;
	}
}

void px_facts_init(px_facts *x, const px_func *f, const px_cfg *g, size_t base, bool (*cares)(const px_node *))
{
	x->g = g;
	x->base = base;
	x->key = px_zalloc(f->nvalues + 1, sizeof *x->key);
	x->pred = px_zalloc(f->nvalues + 1, sizeof *x->pred);
	/* the position of each statement and label, and how many statements the
	 * check cares about come before each position */
	uint32_t nstmts = 0, npreds = 0;
	for (const px_node *n = f->first; n; n = n->next)
		nstmts++;
	uint32_t *before = px_zalloc(nstmts + 1, sizeof *before);
	uint32_t *label_at = px_zalloc(f->nlabels + 1, sizeof *label_at);
	uint32_t i = 0;
	for (const px_node *n = f->first; n; n = n->next, i++) {
		bool c = cares(n);
		before[i + 1] = before[i] + c;
		if (n->kind == PX_N_LABEL)
			label_at[n->label] = i;
		if (c && n->has_guard)
			follow(x, n->guard, &npreds);
	}
	i = 0;
	for (const px_node *n = f->first; n; n = n->next, i++)
		if (is_bra(n) && n->has_guard) {
			uint32_t to = label_at[n->ops[0].id];
			if (to > i && before[to] > before[i + 1])
				follow(x, n->guard, &npreds);
		}
	free(before);
	free(label_at);
	x->nfacts = 2 * npreds;
	x->words = (x->nfacts + 63) / 64;
}

void px_facts_free(px_facts *x)
{
	free(x->key);
	free(x->pred);
	x->key = x->pred = NULL;
}

static inline void set(const px_facts *x, uint64_t *s, uint32_t f) { s[x->base + (f >> 6)] |= (uint64_t)1 << (f & 63); }
static inline void clr(const px_facts *x, uint64_t *s, uint32_t f) { s[x->base + (f >> 6)] &= ~((uint64_t)1 << (f & 63)); }

void px_facts_start(const px_facts *x, uint64_t *s)
{
	for (uint32_t f = 0; f < x->nfacts; f++)
		set(x, s, f);
}

static const px_node *last_of(const px_cfg *g, uint32_t b)
{
	const px_node *n = g->first[b];
	for (uint32_t i = 1; i < g->len[b]; i++)
		n = n->next;
	return n;
}

uint32_t px_facts_edge(const px_facts *x, uint64_t *s, uint32_t from, uint32_t to)
{
	const px_node *n = last_of(x->g, from);
	if (!is_bra(n) || !n->has_guard || !x->key[n->guard])
		return x->nfacts;
	const px_node *head = x->g->first[to];
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
	if (!k)
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

uint32_t px_facts_of(const px_facts *x, const uint64_t *s, const px_node *n)
{
	if (n->has_guard)
		return x->key[n->guard] ? 2 * (x->key[n->guard] - 1) + !n->guard_neg : x->nfacts;
	uint32_t f = 0;
	while (f < x->nfacts && s[x->base + (f >> 6)] >> (f & 63) & 1)
		f++;
	return f;
}
