/* cp.async's copy size is an immediate operand whose allowed values depend on
 * the cache operator (data/ops/async.yaml's `allowed:`: .ca copies 4, 8 or 16
 * bytes, .cg only 16; ptxas: "expected to be 16"); this reports a size
 * outside the set in cp.async's own words. */
#include "verify/verify.h"

void px_cp_async_check(px_verifier *v, px_func *f, px_node *n)
{
	(void)f;
	unsigned no, nv;
	const px_opnd_def *defs = px_var_operands(n->op, n->var, &no);
	if (n->nops < 3 || no < 3 || n->ops[2].kind != PX_O_INT)
		return; /* the operand check has reported it */
	const int32_t *vals = px_opnd_allowed(&defs[2], n->slot, &nv);
	if (!vals || px_int_allowed(&n->ops[2], vals, nv))
		return;
	char text[64];
	int ci = px_slot_find(n->op, PX_SN_cop);
	px_error(v->d, n->ops[2].loc, PX_D_cp_async_size, px_tok_names[n->slot[ci]],
	         px_allowed_text(text, sizeof text, false, vals, nv), (long long)n->ops[2].ival);
}
