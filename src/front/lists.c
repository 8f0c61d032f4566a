/* The lists a rule builds before it knows their length: linked in the
 * scratch arena (reset per statement), copied into an array of the arena that
 * keeps them once the list is complete, so every list costs linear time
 * (front/build.h links them). */
#include "front/build.h"

px_opnd *px_olist_copy(px_opnd *v, px_olist l)
{
	if (!l.n)
		return NULL;
	uint32_t i = 0;
	for (px_olink *x = l.head; x; x = x->next)
		v[i++] = x->o;
	return v;
}

px_opnd *px_olist_array(px_arena *a, px_olist l)
{
	return l.n ? px_olist_copy(px_arena_alloc(a, l.n * sizeof(px_opnd)), l) : NULL;
}

px_plink *px_prop_link(px_parser *P, px_tok key, const px_tok *val)
{
	px_plink *l = px_arena_alloc(&P->tmp, sizeof *l);
	l->p.key = key.s;
	l->p.loc = key.loc;
	if (val) {
		l->p.val = val->s;
		l->p.val_loc = val->loc;
	}
	return l;
}

px_prop *px_plist_array(px_arena *a, px_plist l)
{
	if (!l.n)
		return NULL;
	px_prop *v = px_arena_alloc(a, l.n * sizeof *v);
	uint32_t i = 0;
	for (px_plink *x = l.head; x; x = x->next)
		v[i++] = x->p;
	return v;
}
