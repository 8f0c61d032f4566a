/* Tensor-core checks beyond the tables (wgmma, tcgen05): how operand A is
 * given (it picks the variant, and PTX spells the forms alike), the values
 * PTX allows for wgmma's immediates, tcgen05.commit's mask width and
 * tcgen05.mma's disable-output-lane group. (tcgen05.mma's target gates are
 * rules of data/ops/tcgen05.yaml.) */

#include "verify/verify.h"

static bool is_fragment(const px_func *f, const px_opnd *o)
{
	return o->kind == PX_O_GROUP || (o->kind == PX_O_VALUE && o->elem < 0 && f->values[o->id].count > 1);
}

/* The noprint slot asrc: A as a register fragment, tensor memory or a descriptor. */
bool px_wgmma_prepare(px_verifier *v, px_func *f, px_node *n)
{
	int asrc = px_slot_find(n->op, PX_SN_asrc);
	if (asrc < 0 || n->nops < 2 || n->slot[asrc])
		return true;
	const px_opnd *a = &n->ops[1];
	unsigned tok = is_fragment(f, a) ? PX_TOK_regs : a->kind == PX_O_ADDR ? PX_TOK_tmem : PX_TOK_desc;
	if (px_slot_has(&n->op->slots[asrc], tok))
		px_slots_edit(v, n)[asrc] = (uint16_t)tok;
	return true;
}

/* The immediates of data/ops/wgmma.yaml's `allowed:` sets; an operand that
 * takes values as well (scale-d) takes a predicate register. */
void px_wgmma_check(px_verifier *v, px_func *f, px_node *n)
{
	unsigned no, nv;
	const px_opnd_def *defs = px_var_operands(n->op, n->var, &no);
	for (unsigned i = 0; i < n->nops && i < no; i++) {
		const px_opnd *o = &n->ops[i];
		const int32_t *vals = px_opnd_allowed(&defs[i], n->slot, &nv);
		bool pred_ok = defs[i].kind != PX_OK_IMM;
		bool pred = o->kind == PX_O_VALUE && px_types[f->values[o->id].type].kind == PX_KIND_PRED;
		char text[64];
		if (vals && !(pred_ok && pred) && !px_int_allowed(o, vals, nv))
			px_error(v->d, o->loc, PX_D_wgmma_imm, i + 1, n->op->name, px_allowed_text(text, sizeof text, pred_ok, vals, nv));
	}
	px_desc_check_operands(v, f, n, PX_OP_wgmma_desc);
}

/* tcgen05.commit's multicast mask: NVVM's selector takes 16- and 32-bit
 * masks only. The width picks the variant (the noprint slot mask). */
bool px_tcgen05_commit_prepare(px_verifier *v, px_func *f, px_node *n)
{
	int mask = px_slot_find(n->op, PX_SN_mask);
	if (n->nops < 2)
		return true;
	const px_opnd *o = &n->ops[1];
	unsigned width = o->kind == PX_O_INT ? 16 : o->kind == PX_O_VALUE ? px_types[f->values[o->id].type].width : 0;
	if (width != 16 && width != 32) {
		px_error(v->d, o->loc, PX_D_tc05_commit_mask);
		return false;
	}
	px_slots_edit(v, n)[mask] = width == 16 ? PX_TOK_mask16 : PX_TOK_mask32;
	return true;
}

/* tcgen05.mma's disable-output-lane: a group right after idesc (the noprint
 * slot dol picks NVVM's Large selection class). */
static void output_lanes(px_verifier *v, const px_func *f, px_node *n)
{
	int dol = px_slot_find(n->op, PX_SN_dol), sp = px_slot_find(n->op, PX_SN_sp);
	unsigned at = n->slot[sp] ? 5 : 4;
	if (n->nops > at && is_fragment(f, &n->ops[at]))
		px_slots_edit(v, n)[dol] = PX_TOK_disable_output_lane;
}

bool px_tcgen05_mma_prepare(px_verifier *v, px_func *f, px_node *n)
{
	output_lanes(v, f, n);
	return px_wgmma_prepare(v, f, n);
}

/* idesc comes after d, a and b (and the sparse form's metadata). */
void px_tcgen05_mma_check(px_verifier *v, px_func *f, px_node *n)
{
	int sp = px_slot_find(n->op, PX_SN_sp);
	unsigned at = n->slot[sp] ? 4 : 3;
	if (n->nops > at)
		px_desc_check_mma(v, f, n, &n->ops[at]);
	px_desc_check_operands(v, f, n, PX_OP_tcgen05_desc);
}
