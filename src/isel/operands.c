/* Operands as PTX can take them: values become registers, literals become
 * immediates spelled for the instruction's type, and what PTX cannot take
 * directly (an f16 constant, a register-only operand, a special register
 * outside mov, a pointer into a state space) is first moved into a register. */
#include <string.h>

#include "front/optype.h"
#include "isel/isel.h"
#include "tables/query.h"
#include "util/fp.h"

/* A literal as an immediate of type want (0: as written). */
static px_mop immediate(const px_opnd *o, int want)
{
	const px_type_info *t = &px_types[want];
	bool is_float = want && t->kind == PX_KIND_FLOAT;
	px_mop m = px_mop_of(PX_M_IMM);
	m.type = (uint16_t)want;
	if (o->kind == PX_O_FBITS) {
		m.kind = PX_M_FIMM;
		m.bits = o->bits;
		m.type = o->fwidth == 32 ? PX_T_f32 : PX_T_f64;
		return m;
	}
	/* an operand of another kind in a literal's place (the verifier has said
	 * so, or lets it stand) reads as 0 */
	int64_t ival = o->kind == PX_O_INT ? o->ival : 0;
	int8_t dir = o->fdir;
	double v = o->kind == PX_O_FLOAT ? o->fval : px_fp_from_int(ival, &dir);
	if (!is_float) {
		m.imm = ival;
		return m;
	}
	switch (t->width) {
	case 16: /* PTX has no 16-bit float immediates: the pattern, moved as b16 */
		m.imm = (int64_t)px_fp_bits(px_fp_fmt_of_type(want), v, dir);
		m.type = PX_T_b16;
		return m;
	case 64:
		m.kind = PX_M_FIMM;
		m.bits = px_fp_bits(PX_FP_F64, v, dir);
		return m;
	default:
		m.kind = PX_M_FIMM;
		m.bits = px_fp_bits(PX_FP_F32, v, dir);
		m.type = PX_T_f32;
		return m;
	}
}

/* mov the immediate or special register into the register dst of type. */
px_mop px_materialize_to(px_isel *s, int type, px_mop dst, px_mop src, px_loc loc)
{
	const px_op_def *mov = &px_ops[PX_OP_mov];
	uint16_t slot[PX_MAX_SLOTS] = {0};
	int mt = type;
	if (px_types[type].kind == PX_KIND_FLOAT && px_types[type].width == 16)
		mt = PX_T_b16; /* mov.f16 takes no immediate; mov.b16 does */
	px_set_slot(mov, slot, PX_SN_type, px_type_tok(mov, PX_SN_type, mt));
	return px_emit_unary(s, mov, slot, dst, src, loc);
}

/* mov the immediate or special register into a fresh register of type. */
px_mop px_materialize(px_isel *s, int type, px_mop src, px_loc loc)
{
	return px_materialize_to(s, type, px_fresh_reg(s, type), src, loc);
}

/* A value (or one element) as a register; `_` becomes a scratch register. */
px_mop px_lower_value_as(px_isel *s, const px_opnd *o, int want, px_loc loc)
{
	(void)loc;
	if (o->kind != PX_O_VALUE) {
		int t = want ? want : PX_T_b32;
		return px_fresh_reg(s, t);
	}
	const px_value *v = &s->f->values[o->id];
	uint32_t r = px_value_reg(s, o->id);
	if (v->count && o->elem < 0) {
		px_mop g = px_mop_of(PX_M_GROUP);
		g.elems = px_mops(s, v->count);
		g.nelems = v->count;
		for (uint32_t k = 0; k < v->count; k++)
			g.elems[k] = px_reg_mop(s, v->type, r + k);
		return g;
	}
	px_mop m = px_reg_mop(s, v->type, r + (o->elem > 0 ? (uint32_t)o->elem : 0));
	m.neg = o->neg;
	return m;
}

static bool is_literal(const px_opnd *o)
{
	return o->kind == PX_O_INT || o->kind == PX_O_FLOAT || o->kind == PX_O_FBITS;
}

static px_mop sreg_mop(const px_opnd *o)
{
	px_mop m = px_mop_of(PX_M_SREG);
	m.name.s = px_sregs[o->id].name;
	m.name.n = (uint32_t)strlen(m.name.s);
	return m;
}

static const uint16_t space_tok[] = {
	[PX_AS_GLOBAL] = PX_TOK_global, [PX_AS_SHARED] = PX_TOK_shared, [PX_AS_CLUSTER] = PX_TOK_shared__cluster,
	[PX_AS_CONST] = PX_TOK_const,   [PX_AS_LOCAL] = PX_TOK_local,   [PX_AS_PARAM] = PX_TOK_param,
};

/* dst = cvta.space.u64 sym: the generic address of a variable or parameter */
static px_mop generic_of(px_isel *s, unsigned space, px_mop sym, px_loc loc)
{
	const px_op_def *cvta = &px_ops[PX_OP_cvta];
	uint16_t slot[PX_MAX_SLOTS] = {0};
	px_set_slot(cvta, slot, PX_SN_space, space_tok[space]);
	px_set_slot(cvta, slot, PX_SN_type, PX_TOK_u64);
	return px_emit_unary(s, cvta, slot, px_fresh_reg(s, PX_T_u64), sym, loc);
}

/* A pointer argument or result (a generic address, ptr): a window address of
 * shared, const or local memory (mov @tile) is converted to the generic
 * address of the same place; the verifier refused the windows cvta cannot
 * convert (shared::cluster, param, one known on some paths only). */
px_mop px_generic_pointer(px_isel *s, const px_opnd *o, px_mop src, px_loc loc)
{
	uint8_t t = o->kind == PX_O_VALUE && o->elem < 0 ? s->f->values[o->id].aspace
	          : o->kind == PX_O_SYM                 ? px_sym_space(s->m, s->f, o->sym)
	                                                : PX_SP_UNKNOWN;
	if (!px_space_is_window(t))
		return src;
	return generic_of(s, PX_SP_SPACE(t), src, loc);
}

/* A variable's name where PTX wants a register (st.bulk): its own window
 * address for an instruction in its space, else its generic address. */
static px_mop symbol_register(px_isel *s, const px_opnd *b, px_mop sym, unsigned space, px_loc loc)
{
	unsigned have = PX_SP_SPACE(px_sym_space(s->m, s->f, b->sym));
	if (space == PX_AS_GENERIC)
		return generic_of(s, have, sym, loc);
	int t = have == PX_AS_GLOBAL ? PX_T_u64 : PX_T_u32;
	const px_op_def *mov = &px_ops[PX_OP_mov];
	uint16_t slot[PX_MAX_SLOTS] = {0};
	px_set_slot(mov, slot, PX_SN_type, px_type_tok(mov, PX_SN_type, t));
	return px_emit_unary(s, mov, slot, px_fresh_reg(s, t), sym, loc);
}

/* The address base an instruction working in space can take. A generic
 * address known to point into that space (a ptr shared parameter, or one
 * derived from it) is converted with cvta.to; a kernel's ptr global was
 * converted once at entry. A parameter aggregate is its .param name, or,
 * for a generic address (a TMA tensor map), its generic address. */
static px_mop address_base(px_isel *s, const px_node *n, const px_opnd *b, unsigned space, px_loc loc)
{
	if (b->kind == PX_O_SYM) {
		px_mop m = px_mop_of(PX_M_SYM);
		m.name = b->sym;
		return n->op->flags & PX_OPF_REGISTER_ADDRESS ? symbol_register(s, b, m, space, loc) : m;
	}
	if (b->kind == PX_O_INT) {
		px_mop m = px_mop_of(PX_M_IMM);
		m.imm = b->ival;
		m.type = PX_T_u64;
		return m;
	}
	const px_value *v = &s->f->values[b->id];
	if (v->param == PX_PARAM_AGG) {
		px_mop m = px_mop_of(PX_M_SYM);
		m.name = px_param_sym(s, v->param_index);
		return space == PX_AS_GENERIC ? generic_of(s, PX_AS_PARAM, m, loc) : m;
	}
	px_mop base = px_lower_value_as(s, b, v->type, loc);
	if (!(v->aspace & PX_SP_GEN))
		return base;
	unsigned have = PX_SP_SPACE(v->aspace);
	if (space != have && !(space == PX_AS_CLUSTER && have == PX_AS_SHARED))
		return base; /* generic, as written */
	return px_emit_cvta_to(s, space_tok[have], px_fresh_reg(s, PX_T_u64), base, loc);
}

static px_mop address(px_isel *s, const px_node *n, const px_opnd *o, unsigned space, px_loc loc)
{
	px_mop m = px_mop_of(PX_M_ADDR);
	m.base = px_mops(s, 1);
	*m.base = address_base(s, n, o->base, space, loc);
	m.off = o->off;
	const px_opnd *g = px_addr_idx(o);
	if (g) {
		m.idx = px_mops(s, 1);
		*m.idx = px_mop_of(PX_M_GROUP);
		m.idx->elems = px_mops(s, g->nelems);
		m.idx->nelems = g->nelems;
		for (uint32_t i = 0; i < g->nelems; i++) {
			const px_opnd *e = &g->elems[i];
			if (e->kind == PX_O_SREG) { /* a coordinate register, never the name itself */
				m.idx->elems[i] = px_materialize(s, px_sregs[e->id].type, sreg_mop(e), loc);
			} else {
				m.idx->elems[i] = is_literal(e) ? px_materialize(s, PX_T_s32, immediate(e, PX_T_s32), loc)
				                                : px_lower_value_as(s, e, PX_T_s32, loc);
			}
		}
	}
	return m;
}

/* One scalar item for a definition expecting type want. */
static px_mop scalar(px_isel *s, const px_opnd *o, const px_opnd_def *def, int want, bool in_group, px_loc loc)
{
	if (o->kind == PX_O_VALUE)
		return px_lower_value_as(s, o, want, loc);
	if (o->kind == PX_O_SREG) {
		px_mop m = sreg_mop(o);
		if (def->flags & PX_OPND_SREG)
			return m;
		return px_materialize(s, px_sregs[o->id].type, m, loc);
	}
	int t = want ? want : (o->kind == PX_O_INT ? PX_T_s32 : PX_T_f32);
	px_mop imm = immediate(o, t);
	bool narrow_float = px_types[t].kind == PX_KIND_FLOAT && px_types[t].width == 16;
	if (def->kind == PX_OK_REG || narrow_float || in_group)
		return px_materialize(s, t, imm, loc);
	return imm;
}

/* A group of one written as its value ({%r0} for stmatrix.x1's %r). */
static px_mop group_of_one(px_isel *s, px_mop m)
{
	if (m.kind == PX_M_GROUP)
		return m; /* an array value is its own group */
	px_mop g = px_mop_of(PX_M_GROUP);
	g.elems = px_mops(s, 1);
	g.elems[0] = m;
	g.nelems = 1;
	return g;
}

static px_mop label_mop(px_isel *s, const px_opnd *o)
{
	px_mop m = px_mop_of(PX_M_LABEL);
	m.name = s->f->labels[o->id].name;
	return m;
}

/* A packed operand's literal (one for every lane, or ( , ) lane 0 first) as
 * the register's bits. PTX takes no packed immediate but mov's (and ptxas
 * refuses an f16x2 or s16x2 one with "Arguments mismatch"): elsewhere the
 * bits go through a register, moved as the whole's bit type. */
static px_mop packed_literal(px_isel *s, const px_node *n, const px_opnd *o, const px_opnd_def *def,
                             const px_lanes *ln, px_loc loc)
{
	px_mop imm = px_mop_of(PX_M_IMM);
	imm.imm = (int64_t)px_lanes_bits(o, ln);
	imm.type = ln->whole;
	if (n->op == &px_ops[PX_OP_mov] && def->kind != PX_OK_REG)
		return imm;
	if (!(def->flags & PX_OPND_B8REG))
		return px_materialize(s, ln->whole, imm, loc);
	/* PTX moves no immediate into a true .b8 register (an e2m1x2 pair): a .b16
	 * one unpacked into two, the high byte a scratch */
	px_mop pair = px_mop_of(PX_M_GROUP);
	pair.elems = px_mops(s, 2);
	pair.nelems = 2;
	for (unsigned i = 0; i < 2; i++)
		pair.elems[i] = px_reg_mop(s, PX_T_b8, px_new_true_b8(s));
	imm.type = PX_T_b16;
	px_materialize_to(s, PX_T_b16, pair, imm, loc);
	return pair.elems[0];
}

static bool literal_or_lanes(const px_opnd *o) { return is_literal(o) || o->kind == PX_O_GROUP; }

px_mop px_lower_operand(px_isel *s, const px_node *n, const px_opnd *o, const px_opnd_def *def,
                        int want, px_loc loc)
{
	px_lanes ln;
	bool packed = literal_or_lanes(o) && px_operand_lanes(s->f, n, def, &ln);
	if (packed && !px_opnd_is_group(def, n->slot))
		return packed_literal(s, n, o, def, &ln, loc);
	switch (o->kind) {
	case PX_O_ADDR:
		return address(s, n, o, px_opnd_space(def, n->slot), loc);
	case PX_O_LABEL:
		return label_mop(s, o);
	case PX_O_SYM: {
		px_mop m = px_mop_of(PX_M_SYM);
		m.name = o->sym;
		return m;
	}
	case PX_O_GROUP: {
		int lt = px_literal_type(s->f, n, def); /* mov's lanes: an f16 in a .b16 element */
		/* st.v2.u8 of (0, %x) with %x a u32: the literal's register is as wide as %x's */
		int gt = px_opnd_value_type(s->f, o, false);
		if ((def->flags & PX_OPND_WIDER) && px_type_widens(gt, want))
			want = gt;
		px_mop g = px_mop_of(PX_M_GROUP);
		g.elems = px_mops(s, o->nelems);
		g.nelems = o->nelems;
		for (uint32_t i = 0; i < o->nelems; i++) /* a label list is brx.idx's */
			g.elems[i] = def->kind == PX_OK_LABEL                  ? label_mop(s, &o->elems[i])
			             : packed && literal_or_lanes(&o->elems[i]) ? packed_literal(s, n, &o->elems[i], def, &ln, loc)
			             : o->elems[i].kind == PX_O_FLOAT && lt && lt != want
			                 ? px_materialize(s, want, immediate(&o->elems[i], lt), loc)
			                 : scalar(s, &o->elems[i], def, want, true, loc);
		return g;
	}
	case PX_O_FLOAT: {
		/* a decimal for an f16/bf16 value in a .b16 slot (mov): its bits */
		int lt = px_literal_type(s->f, n, def);
		if (lt && lt != want) {
			px_mop imm = immediate(o, lt);
			return def->kind == PX_OK_REG ? px_materialize(s, want, imm, loc) : imm;
		}
	}
	/* fallthrough */
	default:
		if (px_opnd_is_group(def, n->slot))
			return group_of_one(s, packed ? packed_literal(s, n, o, def, &ln, loc) : scalar(s, o, def, want, true, loc));
		return scalar(s, o, def, want, false, loc);
	}
}
