/* Immediates ptxas restricts beyond their type (the imm_range family): a size
 * from a fixed set (`allowed:`: applypriority, discard, the tensor map fences
 * and copies work on 128 bytes; ptxas: "expected to be 128") and
 * createpolicy's fraction, an f32 above 0 and at most 1 (ptxas: "expected to
 * be in range (0.000000 .. 1.000000]"). A literal outside the set is reported
 * at the operand; a register is the program's own business. */
#include <string.h>

#include "verify/verify.h"

/* The f32 a literal operand stands for, as ptxemit prints it. */
static bool literal_f32(const px_opnd *o, float *out)
{
	switch (o->kind) {
	case PX_O_FLOAT:
		*out = (float)o->fval;
		return true;
	case PX_O_INT:
		*out = (float)o->ival;
		return true;
	case PX_O_FBITS:
		if (o->fwidth == 64) {
			double d;
			memcpy(&d, &o->bits, sizeof d);
			*out = (float)d;
		} else {
			uint32_t b = (uint32_t)o->bits;
			memcpy(out, &b, sizeof *out);
		}
		return true;
	default:
		return false;
	}
}

void px_imm_range_check(px_verifier *v, px_func *f, px_node *n)
{
	(void)f;
	unsigned no, nv;
	const px_opnd_def *defs = px_var_operands(n->op, n->var, &no);
	for (unsigned i = 0; i < n->nops && i < no; i++) {
		const int32_t *vals = px_opnd_allowed(&defs[i], n->slot, &nv);
		if (!vals || n->ops[i].kind != PX_O_INT || px_int_allowed(&n->ops[i], vals, nv))
			continue;
		char text[128];
		px_error(v->d, n->ops[i].loc, PX_D_imm_not_allowed, n->op->name,
		         px_allowed_text(text, sizeof text, false, vals, nv), defs[i].name, (long long)n->ops[i].ival);
	}
	int ki = px_slot_find(n->op, PX_SN_kind);
	float fr;
	if (ki >= 0 && n->slot[ki] == PX_TOK_fractional && n->nops >= 1 && literal_f32(&n->ops[0], &fr) &&
	    !(fr > 0.0f && fr <= 1.0f))
		px_error(v->d, n->ops[0].loc, PX_D_policy_fraction, (double)fr);
}
