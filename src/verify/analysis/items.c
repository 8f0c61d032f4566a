/* A check's items (see items.h). */
#include "verify/analysis/items.h"

void px_items_init(px_items *t, px_arena *a, uint32_t nkeys)
{
	*t = (px_items){.a = a, .of = px_arena_calloc(a, nkeys, sizeof *t->of)};
}

uint32_t px_items_add(px_items *t, uint32_t key)
{
	if (t->of[key])
		return t->of[key] - 1;
	if (t->n == t->cap) {
		uint32_t cap = t->cap ? 2 * t->cap : 16;
		t->first = px_arena_grow(t->a, t->first, t->n, cap, sizeof *t->first);
		t->said = px_arena_grow(t->a, t->said, t->n, cap, sizeof *t->said);
		t->cap = cap;
	}
	t->first[t->n] = NULL;
	t->said[t->n] = 0;
	t->of[key] = ++t->n;
	return t->n - 1;
}
