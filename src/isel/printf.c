/* printf as the CUDA compiler lowers it: each argument, promoted as C
 * promotes a variadic argument (an integer narrower than 32 bits to int, f32
 * to f64), is stored at its offset of the function's local buffer; then
 * vprintf(generic address of the format string, generic address of the
 * buffer, or 0 without arguments) is called (params.c). */
#include <string.h>

#include "front/format.h"
#include "isel/isel.h"

/* dst = cvt.dtype.stype src */
static px_mop convert(px_isel *s, int dtype, int stype, px_mop src, px_loc loc)
{
	const px_op_def *cvt = &px_ops[PX_OP_cvt];
	uint16_t slot[PX_MAX_SLOTS] = {0};
	px_set_slot(cvt, slot, PX_SN_dtype, px_type_tok(cvt, PX_SN_dtype, dtype));
	px_set_slot(cvt, slot, PX_SN_stype, px_type_tok(cvt, PX_SN_stype, stype));
	return px_emit_unary(s, cvt, slot, px_fresh_reg(s, dtype), src, loc);
}

/* The generic address of a symbol in space: mov.u64, then cvta.space.u64. */
static px_mop generic_address(px_isel *s, px_str name, unsigned space, px_loc loc)
{
	const px_op_def *mov = &px_ops[PX_OP_mov];
	uint16_t mslot[PX_MAX_SLOTS] = {0};
	px_set_slot(mov, mslot, PX_SN_type, PX_TOK_u64);
	px_mop a = px_emit_unary(s, mov, mslot, px_fresh_reg(s, PX_T_u64), px_sym_mop(name), loc);
	const px_op_def *cvta = &px_ops[PX_OP_cvta];
	uint16_t cslot[PX_MAX_SLOTS] = {0};
	px_set_slot(cvta, cslot, PX_SN_space, space);
	px_set_slot(cvta, cslot, PX_SN_type, PX_TOK_u64);
	return px_emit_unary(s, cvta, cslot, px_fresh_reg(s, PX_T_u64), a, loc);
}

/* A float literal as the f64 bits vprintf reads (a 0f pattern widened). */
static px_mop double_imm(const px_opnd *o)
{
	px_mop m = px_mop_of(PX_M_FIMM);
	m.type = PX_T_f64;
	double d = o->fval;
	if (o->kind == PX_O_FBITS && o->fwidth == 32) {
		uint32_t b = (uint32_t)o->bits;
		float x;
		memcpy(&x, &b, sizeof x);
		d = x;
	} else if (o->kind == PX_O_FBITS) {
		m.bits = o->bits;
		return m;
	}
	memcpy(&m.bits, &d, sizeof d);
	return m;
}

/* An argument as the buffer holds it, and the type it is stored as. */
static px_mop promoted(px_isel *s, const px_node *n, const px_opnd *o, unsigned want, int *st, px_loc loc)
{
	bool wide = want != PX_FMT_INT;
	if (o->kind == PX_O_INT) {
		px_mop m = px_mop_of(PX_M_IMM);
		m.type = (uint16_t)(wide ? PX_T_b64 : PX_T_b32);
		m.imm = o->ival;
		*st = m.type;
		return m;
	}
	if (o->kind != PX_O_VALUE && o->kind != PX_O_SREG) {
		*st = PX_T_f64;
		return double_imm(o);
	}
	int t = o->kind == PX_O_SREG ? px_sregs[o->id].type : s->f->values[o->id].type;
	px_opnd_def def;
	memset(&def, 0, sizeof def);
	def.kind = PX_OK_VALUE;
	def.type_slot = -1;
	px_mop v = px_lower_operand(s, n, o, &def, t, loc); /* a special register is moved into one */
	if (t == PX_T_f32) {
		*st = PX_T_f64;
		return convert(s, PX_T_f64, PX_T_f32, v, loc);
	}
	if (px_types[t].kind == PX_KIND_FLOAT) {
		*st = t;
		return v;
	}
	unsigned w = px_types[t].width;
	if (w < 32) { /* C's promotion to int, by the value's signedness */
		bool sign = px_types[t].kind == PX_KIND_SINT;
		int from = w == 8 ? (sign ? PX_T_s8 : PX_T_u8) : (sign ? PX_T_s16 : PX_T_u16);
		*st = PX_T_b32;
		return convert(s, sign ? PX_T_s32 : PX_T_u32, from, v, loc);
	}
	*st = w == 32 ? PX_T_b32 : PX_T_b64;
	return v;
}

/* st.local.T [$$printf_args+off], v */
static void store_local(px_isel *s, int type, uint32_t off, px_mop v, px_loc loc)
{
	const px_op_def *st = &px_ops[PX_OP_st];
	uint16_t slot[PX_MAX_SLOTS] = {0};
	px_set_slot(st, slot, PX_SN_space, PX_TOK_local);
	px_set_slot(st, slot, PX_SN_type, px_type_tok(st, PX_SN_type, type));
	px_mop at = px_mop_of(PX_M_ADDR);
	at.base = px_mops(s, 1);
	*at.base = px_sym_mop((px_str){PX_PRINTF_BUFFER, sizeof PX_PRINTF_BUFFER - 1});
	at.off = off;
	px_build_inst(s, st, slot, NULL, 0, (px_mop[]){at, v}, 2, loc);
}

void px_select_printf(px_isel *s, const px_node *n)
{
	px_fmt fmt;
	px_fmt_scan(s->a, n->text, &fmt);
	for (uint32_t i = 0; i < fmt.nitems && i < n->nops; i++) {
		int st;
		px_mop v = promoted(s, n, &n->ops[i], fmt.items[i].want, &st, n->loc);
		store_local(s, st, fmt.items[i].off, v, n->loc);
	}
	px_mop buf = px_mop_of(PX_M_IMM);
	buf.type = PX_T_b64;
	if (fmt.nitems)
		buf = generic_address(s, (px_str){PX_PRINTF_BUFFER, sizeof PX_PRINTF_BUFFER - 1}, PX_TOK_local, n->loc);
	px_mop str = generic_address(s, px_printf_string_name(s->a, n->label), PX_TOK_global, n->loc);
	px_select_vprintf(s, n, str, buf);
}
