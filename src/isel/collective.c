/* Warp collectives: shfl.sync, vote.sync, match.sync, redux.sync carry a
 * member mask as their last operand. A literal all-lanes mask selects NVPTX's
 * *_FULL opcode; NVPTX's AsmWriter drops the mask there, but ptxas requires
 * it, so the FULL form prints it as -1. */

#include "isel/isel.h"

static bool all_lanes(const px_mop *m)
{
	return m->kind == PX_M_IMM && (uint32_t)m->imm == UINT32_MAX;
}

bool px_select_collective(px_isel *s, const px_node *n)
{
	px_lower_node(s, n);
	px_minst *mi = s->mf.last;
	if (!mi->nops || !all_lanes(&mi->ops[mi->nops - 1]))
		return true;
	mi->ops[mi->nops - 1].imm = -1;
	mi->full_mask = true;
	px_finish(s, mi); /* named again: SHFL_SYNC_BFLY_B32_FULL_rriii */
	return true;
}
