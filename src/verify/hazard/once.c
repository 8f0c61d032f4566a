/* One warning per hazard (see once.h). */
#include "verify/hazard/once.h"

#include "tables/tables.h"

uint32_t px_once_add(px_once *o, const void *cause, unsigned kind, px_loc at, bool *fresh)
{
	/* the latest items first: findings of one cause come close together */
	for (uint32_t i = o->n; i-- > 0;) {
		px_once_item *x = &o->items[i];
		if (x->cause != cause || x->kind != kind)
			continue;
		*fresh = at.pos < x->first.pos;
		if (at.pos != x->first.pos && at.pos != x->last.pos)
			x->more++;
		if (*fresh)
			x->first = at;
		if (at.pos > x->last.pos)
			x->last = at;
		return i;
	}
	if (o->n == o->cap) {
		uint32_t cap = o->cap ? 2 * o->cap : 16;
		o->items = px_arena_grow(o->a, o->items, o->n, cap, sizeof *o->items);
		o->cap = cap;
	}
	o->items[o->n] = (px_once_item){cause, kind, at, at, 0};
	*fresh = true;
	return o->n++;
}

void px_once_note(const px_once *o, uint32_t i, px_diags *d, const px_module *m)
{
	const px_once_item *x = &o->items[i];
	if (x->more)
		px_note(d, x->last, PX_D_hazard_more, x->more, x->more == 1 ? "" : "s", px_module_line(m, x->last));
}
