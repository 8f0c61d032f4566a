/* Matrix copies: NVVM's property blob {num, shape, sz, trans, layout} read
 * into the PTX slots before the tables' rules run, and the state space chosen
 * from the address.
 *
 * The tables hold the PTX spelling and the element format each shape implies
 * (the sz slot's `default:`); what this file adds is what a value map cannot
 * say: NVVM's num for the m16n16 shape counts 32-bit registers (num 2 is .x1),
 * layout col is the transposed load. (An address known to be in shared
 * memory takes the .shared form: verify/space.c, once the function's
 * addresses are known.) */
#include <string.h>

#include "verify/verify.h"

static int slot(const px_node *n, unsigned sname) { return px_slot_find(n->op, sname); }

/* NVVM's num for m16n16 counts registers: 2 and 4 are PTX's .x1 and .x2. */
static bool m16n16_num(px_verifier *v, px_node *n, int num)
{
	const px_prop *p = px_node_prop(n, "num");
	if (!p || n->slot[num] == 0)
		return true;
	if (n->slot[num] == PX_TOK_x1) {
		px_error(v->d, p->loc, PX_D_ldsm_m16n16_num);
		return false;
	}
	px_slots_edit(v, n)[num] = n->slot[num] == PX_TOK_x2 ? PX_TOK_x1 : PX_TOK_x2;
	return true;
}

bool px_matrix_prepare(px_verifier *v, px_func *f, px_node *n)
{
	int shape = slot(n, PX_SN_shape), num = slot(n, PX_SN_num), trans = slot(n, PX_SN_trans);
	int layout = slot(n, PX_SN_layout);
	unsigned sh = n->slot[shape];
	if (layout >= 0) {
		uint16_t *w = px_slots_edit(v, n);
		if (w[layout] == PX_TOK_col)
			w[trans] = PX_TOK_trans;
		w[layout] = 0; /* no PTX token: read, then let go */
	}
	return sh != PX_TOK_m16n16 || m16n16_num(v, n, num);
}
