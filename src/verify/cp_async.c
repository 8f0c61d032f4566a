/* cp.async's copy size is an immediate operand, which the tables cannot
 * constrain: .ca copies 4, 8 or 16 bytes, .cg only 16 (ptxas: "expected to
 * be 16"). */
#include "verify/verify.h"

void px_cp_async_check(px_verifier *v, px_func *f, px_node *n)
{
	(void)f;
	if (n->nops < 3 || n->ops[2].kind != PX_O_INT)
		return; /* the operand check has reported it */
	int ci = px_slot_find(n->op, PX_SN_cop);
	bool cg = ci >= 0 && n->slot[ci] == PX_TOK_cg;
	long long size = (long long)n->ops[2].ival;
	if (cg ? size == 16 : (size == 4 || size == 8 || size == 16))
		return;
	px_error(v->d, n->ops[2].loc, PX_D_cp_async_size, cg ? "cg" : "ca", cg ? "16" : "4, 8 or 16", size);
}
