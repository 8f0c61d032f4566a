/* tex, tld4, suld, sust and sured take their coordinates inside the address,
 * [%h, (%x, %y)], where the tables do not reach: a geometry has a fixed
 * number of them (px_tex_geom_coords, which --describe prints too), array
 * geometries lead with an integer layer index (multisample ones also with
 * the sample), and every other element has the coordinate type (.f32, or
 * .s32 for texel indexes; surfaces always .s32). */
#include "verify/verify.h"

static unsigned slot_or_fixed(const px_node *n, int si)
{
	return n->slot[si] ? n->slot[si] : n->op->slots[si].fixed_tok;
}

static int elem_type(const px_func *f, const px_opnd *e)
{
	if (e->kind == PX_O_VALUE)
		return f->values[e->id].type;
	if (e->kind == PX_O_SREG)
		return px_sregs[e->id].type;
	return 0;
}

void px_texture_check(px_verifier *v, px_func *f, px_node *n)
{
	if (!n->nops || n->ops[0].kind != PX_O_ADDR)
		return; /* the operand check has reported it */
	const px_opnd *a = &n->ops[0];
	unsigned geom = n->slot[px_slot_find(n->op, PX_SN_geom)];
	int ci = px_slot_find(n->op, PX_SN_ctype); /* surfaces: none, s32 coordinates */
	unsigned ctype = ci < 0 ? PX_TOK_s32 : slot_or_fixed(n, ci);
	unsigned nindex, want = px_tex_geom_coords(geom, &nindex);
	const px_opnd *g = px_addr_idx(a);
	unsigned have = g ? g->nelems : 0;
	if (have != want) {
		px_error(v->d, a->loc, PX_D_tex_coord_count, n->op->name, px_tok_names[geom], want, have);
		return;
	}
	for (unsigned i = 0; i < have; i++) {
		const px_opnd *e = &g->elems[i];
		bool index = i < nindex || ctype == PX_TOK_s32;
		if (e->kind == PX_O_INT && index)
			continue; /* a literal index: materialized as an s32 */
		int t = elem_type(f, e);
		bool ok = index ? px_type_fits(t, PX_T_s32) || px_type_fits(t, PX_T_u32)
		                : px_type_fits(t, PX_T_f32);
		if (!ok)
			px_error(v->d, e->loc, PX_D_tex_coord_type, i, n->op->name, px_tok_names[geom],
			         index ? "an s32 or u32 value" : "an f32 value");
	}
}
