/* The types IR operands show, read through the tables (the verifier infers
 * empty type slots from them and the selector prints literals by them), and
 * the state space a variable's name addresses. */
#include "front/optype.h"
#include "tables/query.h"

int px_opnd_value_type(const px_func *f, const px_opnd *o, bool is_result)
{
	switch (o->kind) {
	case PX_O_VALUE:
		if (is_result && o->decl_type)
			return o->decl_type;
		return f->values[o->id].type;
	case PX_O_SREG:
		return px_sregs[o->id].type;
	case PX_O_GROUP:
		return o->nelems ? px_opnd_value_type(f, &o->elems[0], false) : 0;
	default:
		return 0;
	}
}

/* The type a source position shows for slot si, undoing a derived width
 * (mul.wide's result is twice its type). */
int px_source_type(const px_func *f, const px_node *n, int src, unsigned si, px_loc *loc)
{
	const px_op_def *op = n->op;
	const px_opnd_def *def;
	const px_opnd *o;
	if (src >= PX_SRC_OPERAND) {
		unsigned i = (unsigned)(src - PX_SRC_OPERAND);
		if (i >= n->nops || i >= op->noperands)
			return 0;
		o = &n->ops[i];
		def = &op->operands[i];
	} else {
		unsigned i = (unsigned)src;
		if (i >= n->nres || i >= op->nresults)
			return 0;
		o = &n->res[i];
		def = &op->results[i];
	}
	int t = px_opnd_value_type(f, o, src < PX_SRC_OPERAND);
	*loc = o->loc;
	if (!t || def->type_slot != (int)si || def->derive == PX_DERIVE_NONE)
		return t;
	unsigned want = def->derive == PX_DERIVE_WIDE ? px_types[t].width / 2 : px_types[t].width * 2;
	for (unsigned k = 1; k < px_ntypes; k++)
		if (px_types[k].kind == px_types[t].kind && px_types[k].width == want)
			return (int)k;
	return 0;
}

/* The type a decimal literal operand stands for. A type slot inferred from an
 * f16 or bf16 value holds .b16 where the op has no such token (mov: PTX has no
 * mov.f16 immediate): the literal is that value's number, not an integer. */
int px_literal_type(const px_func *f, const px_node *n, const px_opnd_def *def)
{
	int want = px_opnd_type(def, n->slot);
	if (def->type_slot < 0 || def->derive != PX_DERIVE_NONE || !(n->inferred & (1u << def->type_slot)) ||
	    !want || px_types[want].kind != PX_KIND_BIT)
		return want;
	const px_slot_def *s = &n->op->slots[def->type_slot];
	for (unsigned k = 0; k < 4 && s->infer[k] != PX_SRC_END; k++) {
		px_loc loc;
		int t = px_source_type(f, n, s->infer[k], (unsigned)def->type_slot, &loc);
		if (!t)
			continue;
		if (px_types[t].kind == PX_KIND_FLOAT && px_types[t].width == 16 && px_types[want].width == 16)
			return t;
		break;
	}
	return want;
}

/* The tag of a variable's address (its own window); unknown for a function. */
uint8_t px_sym_space(const px_module *m, px_str name)
{
	uint32_t e = px_module_sym(m, name);
	if (e == PX_STRMAP_NONE || (e & 1) || m->globals[e >> 1].handle)
		return PX_SP_UNKNOWN; /* a texref or surfref variable is a handle, not memory */
	static const uint8_t of[] = {[PX_SPACE_GLOBAL] = PX_AS_GLOBAL, [PX_SPACE_CONST] = PX_AS_CONST,
	                             [PX_SPACE_SHARED] = PX_AS_SHARED};
	return PX_SP_IN(of[m->globals[e >> 1].space]);
}
