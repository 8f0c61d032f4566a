/* A descriptor built from named fields (data/desc.yaml): the fields are
 * constants, packed into one word; a matrix descriptor's start address is
 * known only at run time, so its field is computed, (address >> 4) & 0x3FFF
 * at its bits, and or'ed with the constant part. */
#include <string.h>

#include "isel/isel.h"
#include "verify/desc.h"

/* dst = op.type a, b */
static px_mop binary(px_isel *s, unsigned opi, int type, px_mop dst, px_mop a, px_mop b, px_loc loc)
{
	const px_op_def *op = &px_ops[opi];
	uint16_t slot[PX_MAX_SLOTS] = {0};
	px_set_slot(op, slot, PX_SN_type, px_type_tok(op, PX_SN_type, type));
	px_build_inst(s, op, slot, &dst, 1, (px_mop[]){a, b}, 2, loc);
	return dst;
}

static px_mop unary(px_isel *s, unsigned opi, unsigned sname, int type, px_mop dst, px_mop a, px_loc loc)
{
	const px_op_def *op = &px_ops[opi];
	uint16_t slot[PX_MAX_SLOTS] = {0};
	px_set_slot(op, slot, sname, px_type_tok(op, sname, type));
	return px_emit_unary(s, op, slot, dst, a, loc);
}

/* The tile's shared-window address as a 64-bit register. */
static px_mop start_address(px_isel *s, const px_opnd *a, px_loc loc)
{
	const px_opnd *b = a->base;
	px_mop r;
	if (b->kind == PX_O_SYM) {
		r = unary(s, PX_OP_mov, PX_SN_type, PX_T_u64, px_fresh_reg(s, PX_T_u64), px_sym_mop(b->sym), loc);
	} else {
		int t = s->f->values[b->id].type;
		r = px_lower_value_as(s, b, t, loc);
		if (px_types[t].width != 64) {
			const px_op_def *cvt = &px_ops[PX_OP_cvt];
			uint16_t slot[PX_MAX_SLOTS] = {0};
			px_set_slot(cvt, slot, PX_SN_dtype, px_type_tok(cvt, PX_SN_dtype, PX_T_u64));
			px_set_slot(cvt, slot, PX_SN_stype, px_type_tok(cvt, PX_SN_stype, PX_T_u32));
			r = px_emit_unary(s, cvt, slot, px_fresh_reg(s, PX_T_u64), r, loc);
		}
	}
	if (a->off)
		r = binary(s, PX_OP_add, PX_T_u64, px_fresh_reg(s, PX_T_u64), r, px_imm_mop(PX_T_u64, a->off), loc);
	return r;
}

bool px_select_desc(px_isel *s, const px_node *n)
{
	px_desc_value dv;
	if (!px_desc_read(n, NULL, &dv)) /* the verifier reported it; nothing reaches here */
		return false;
	if (n->res[0].kind != PX_O_VALUE) /* `_`: a descriptor nothing reads */
		return true;
	int type = s->f->values[n->res[0].id].type;
	px_mop dst = px_reg_mop(s, type, px_value_reg(s, n->res[0].id));
	unsigned op = (unsigned)(n->op - px_ops);
	const px_desc_field *start = NULL;
	for (int f = 0; px_desc_fields[f].name; f++)
		if (px_desc_fields[f].op == op && px_desc_fields[f].address)
			start = &px_desc_fields[f];
	if (!start) {
		unary(s, PX_OP_mov, PX_SN_type, type, dst, px_imm_mop(type, (int64_t)dv.word), n->loc);
		px_set_guard(s, s->mf.last, n);
		return true;
	}
	px_mop r = start_address(s, &n->ops[0], n->loc);
	r = binary(s, PX_OP_shr, PX_T_u64, px_fresh_reg(s, PX_T_u64), r, px_imm_mop(PX_T_u32, start->shift), n->loc);
	r = binary(s, PX_OP_and, PX_T_b64, px_fresh_reg(s, PX_T_b64), r, px_imm_mop(PX_T_b64, (int64_t)((1ull << start->bits) - 1)), n->loc);
	if (start->lo)
		r = binary(s, PX_OP_shl, PX_T_b64, px_fresh_reg(s, PX_T_b64), r, px_imm_mop(PX_T_u32, start->lo), n->loc);
	/* the guard goes on the instruction that writes the result; the others
	 * write scratch registers */
	binary(s, PX_OP_or, PX_T_b64, dst, r, px_imm_mop(PX_T_b64, (int64_t)dv.word), n->loc);
	px_set_guard(s, s->mf.last, n);
	return true;
}
