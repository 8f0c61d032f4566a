/* The carry chain. add.cc, sub.cc, mad.cc and the .cc forms of addc, subc
 * and madc write PTX's condition-code register (CC.CF); addc, subc and madc
 * read it (ops with the carry_in flag; a producer is an op whose `cc` slot is
 * filled). CC is state no MIR value names, and ptxas takes a consumer wherever
 * it stands, so this check is what makes a chain that assembles also mean
 * what it says: every consumer reads the flag its own chain set.
 *
 * A consumer must follow a producer in the same basic block, with nothing
 * between them that may write CC behind ptxemit's back:
 * - a label or the end of a block (bra, brx, ret, exit, trap, guarded or not)
 *   starts a new chain: control may arrive there with any flag;
 * - a call: the PTX ISA does not preserve CC across calls;
 * - inline asm: ptxemit does not read its text, which may hold a .cc
 *   instruction or a call.
 * A guarded producer writes CC only when its guard holds, so its consumer
 * must carry the same guard (same value, same sense), and nothing between
 * them may redefine that predicate.
 *
 * Selection keeps the chain as written: every carry op is selected in place
 * as one instruction (the mad_lo pattern of data/patterns.yaml takes no
 * add.cc as its root, and only a mul is ever absorbed), and vector merging
 * joins adjacent loads and stores only, which neither read nor write CC. */
#include "verify/verify.h"

static bool is_producer(const px_node *n)
{
	int k = px_slot_find(n->op, PX_SN_cc);
	return k >= 0 && n->slot[k];
}

static bool ends_block(const px_node *n)
{
	return n->kind == PX_N_RET || n->kind == PX_N_LABEL ||
	       (n->kind == PX_N_INST && n->op &&
	        (n->op->shape == PX_SHAPE_BRANCH || (n->op->flags & PX_OPF_TERMINATOR)));
}

static bool defines(const px_node *n, uint32_t id)
{
	for (uint32_t i = 0; i < n->nres; i++)
		if (n->res[i].kind == PX_O_VALUE && n->res[i].id == id)
			return true;
	return false;
}

static void check_consumer(px_verifier *v, const px_func *f, const px_node *n, const px_node *prod,
                           const px_node *cut, const px_node *reguard)
{
	char what[128];
	px_node_name(n, what, sizeof what);
	if (!prod) {
		px_error(v->d, n->oploc, PX_D_carry_unset, what);
	} else if (cut) {
		px_error(v->d, n->oploc, PX_D_carry_clobbered, what, px_module_line(v->m, prod->oploc),
		         cut->kind == PX_N_CALL ? "call" : cut->kind == PX_N_PRINTF ? "printf" : "inline asm",
		         px_module_line(v->m, cut->loc));
	} else if (prod->has_guard &&
	           (!n->has_guard || n->guard != prod->guard || n->guard_neg != prod->guard_neg || reguard)) {
		const px_value *g = &f->values[prod->guard];
		px_error(v->d, n->oploc, PX_D_carry_guard, what, px_module_line(v->m, prod->oploc), prod->guard_neg ? "!" : "",
		         (int)g->name.n, g->name.s);
	}
}

void px_check_carry(px_verifier *v, px_func *f)
{
	const px_node *prod = NULL;    /* the chain's last producer in this block */
	const px_node *cut = NULL;     /* a call or inline asm after it */
	const px_node *reguard = NULL; /* a statement after it that redefines its guard */
	for (const px_node *n = f->first; n; n = n->next) {
		if (n->kind == PX_N_CALL || n->kind == PX_N_ASM || n->kind == PX_N_PRINTF) {
			if (prod && !cut)
				cut = n;
		} else if (n->kind == PX_N_INST && n->op) {
			if ((n->op->flags & PX_OPF_CARRY_IN) && n->var)
				check_consumer(v, f, n, prod, cut, reguard);
			if (is_producer(n)) {
				prod = n;
				cut = reguard = NULL;
			}
		}
		if (prod && prod->has_guard && n != prod && !reguard && defines(n, prod->guard))
			reguard = n;
		if (ends_block(n))
			prod = cut = reguard = NULL;
	}
}
