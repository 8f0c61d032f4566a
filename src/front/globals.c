/* Module-level variables (global, const, shared) and where a module
 * symbol was defined, for the note under a redefinition. */
#include "front/build.h"
#include "tables/tables.h"

/* A module symbol's value is its index, shifted, with bit 0 set for a function. */
px_loc px_sym_loc(const px_module *m, uint32_t sym)
{
	return sym & 1 ? m->funcs[sym >> 1].loc : m->globals[sym >> 1].loc;
}

/* "x=%d\n" as the initializer of a byte array: one integer per byte and the NUL. */
px_olist px_string_bytes(px_parser *P, px_tok t)
{
	px_str b = px_unescape(&P->tmp, t);
	px_olist l = {0};
	for (uint32_t i = 0; i <= b.n; i++) {
		px_olink *x = px_opnd_link(P, PX_O_INT, t.loc);
		x->o.ival = i < b.n ? (unsigned char)b.s[i] : 0;
		l = px_olist_add(l, x);
	}
	return l;
}

void px_global_def(px_parser *P, uint8_t linkage, uint8_t space, px_tok name, px_tok type,
                   const px_tok *count, bool unsized, const px_tok *align, px_olist init,
                   bool init_list, bool init_string)
{
	px_module *m = P->m;
	px_global g = {.name = px_sans_sigil(name), .loc = name.loc, .space = space, .linkage = linkage};
	/* texref, surfref, samplerref: PTX's opaque handle types, istypep's tokens */
	unsigned h = px_tok_lookup(type.s.s, type.s.n);
	if (h == PX_TOK_texref || h == PX_TOK_surfref || h == PX_TOK_samplerref)
		g.handle = (uint16_t)h;
	else
		g.type = px_type_of(P, type);
	g.is_array = count || unsized;
	g.unsized = unsized;
	if (count)
		g.count = px_small_uint(P, *count, 1, UINT64_MAX);
	if (align)
		g.align = (uint32_t)px_small_uint(P, *align, 1, UINT32_MAX);
	g.init = px_olist_array(&m->arena, init);
	g.ninit = init.n;
	g.init_is_list = init_list;
	g.init_is_string = init_string;
	/* the size is the initializer's (a string's NUL included), as ptxas
	 * sizes `.global .b32 v[] = {1, 2}` */
	if ((init_string || init_list) && unsized && init.n) {
		g.unsized = false;
		g.count = init.n;
	}
	uint32_t prev = px_strmap_get(&m->syms, g.name.s, g.name.n);
	if (prev != PX_STRMAP_NONE) {
		PX_PERR(P, g.loc, PX_D_redefinition, (int)g.name.n, g.name.s);
		px_report(m->diags, PX_SEV_NOTE, px_sym_loc(m, prev), PX_D_previous, (int)g.name.n, g.name.s);
		return;
	}
	px_module_add_global(m, &g);
}
