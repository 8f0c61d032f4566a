/* Address operands: [base], [base + n], [base - n], [base, (index)]. */
#include "front/build.h"

static px_opnd *addr_base(px_parser *P, px_olink *l)
{
	return px_arena_dup(&P->m->fn_arena, &l->o, sizeof l->o);
}

/* [b + n] and [b - n]: the offset must fit in int64 after the sign is applied. */
int64_t px_addr_offset(px_parser *P, px_tok t, bool minus)
{
	bool bad = minus ? (t.neg ? t.i == INT64_MIN : t.i < 0 && t.i != INT64_MIN) : !t.neg && t.i < 0;
	if (bad) {
		PX_PERR(P, t.loc, PX_D_offset_range, (int)t.s.n, t.s.s);
		return 0;
	}
	return minus ? (int64_t)(0 - (uint64_t)t.i) : t.i;
}

px_olink *px_addr_link(px_parser *P, px_loc loc, px_olink *b, int64_t off, px_olink *idx)
{
	px_opnd *base = addr_base(P, b);
	px_olink *l = px_opnd_link(P, PX_O_ADDR, loc);
	l->o.base = base;
	l->o.off = off;
	if (idx) {
		px_opnd *both = px_arena_alloc(&P->m->fn_arena, 2 * sizeof *both);
		both[0] = *base;
		both[1] = idx->o;
		l->o.base = both;
		l->o.has_idx = true;
	}
	return l;
}

/* [%p -16]: the scanner folded the sign into the literal; without one the
 * integer stands where '+', '-' or ']' belongs. */
px_olink *px_addr_folded(px_parser *P, px_loc loc, px_olink *base, px_tok off)
{
	if (!off.neg)
		PX_PERR(P, off.loc, PX_D_syntax_expected, "integer", "'+', '-' or ']'");
	return px_addr_link(P, loc, base, px_addr_offset(P, off, false), NULL);
}
