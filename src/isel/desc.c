/* A descriptor built from named fields (tcgen05.idesc): the fields are all
 * constants, so it is the packed word moved into the result's register. */
#include <string.h>

#include "isel/isel.h"
#include "verify/desc.h"

bool px_select_desc(px_isel *s, const px_node *n)
{
	px_desc_value dv;
	if (!px_desc_read(n, NULL, &dv)) /* the verifier reported it; nothing reaches here */
		return false;
	int type = s->f->values[n->res[0].id].type;
	const px_op_def *mov = &px_ops[PX_OP_mov];
	uint16_t slot[PX_MAX_SLOTS] = {0};
	px_set_slot(mov, slot, PX_SN_type, px_type_tok(mov, PX_SN_type, type));
	px_mop imm;
	memset(&imm, 0, sizeof imm);
	imm.kind = PX_M_IMM;
	imm.type = (uint16_t)type;
	imm.imm = (int64_t)dv.word;
	px_emit_unary(s, mov, slot, px_reg_mop(s, type, px_value_reg(s, n->res[0].id)), imm, n->loc);
	return true;
}
