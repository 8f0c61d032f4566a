/* Tensor-core checks beyond the tables (wgmma, tcgen05): how operand A is
 * given (it picks the variant, and PTX spells the forms alike), the values
 * PTX allows for wgmma's immediates, and seed 002's target and mask checks
 * that depend on more than the slots. */
#include <string.h>

#include "verify/verify.h"

static bool is_fragment(const px_func *f, const px_opnd *o)
{
	return o->kind == PX_O_GROUP || (o->kind == PX_O_VALUE && o->elem < 0 && f->values[o->id].count > 1);
}

/* The noprint slot asrc: A as a register fragment, tensor memory or a descriptor. */
bool px_wgmma_prepare(px_verifier *v, px_func *f, px_node *n)
{
	(void)v;
	int asrc = px_slot_find(n->op, PX_SN_asrc);
	if (asrc < 0 || n->nops < 2 || n->slot[asrc])
		return true;
	const px_opnd *a = &n->ops[1];
	unsigned tok = is_fragment(f, a) ? PX_TOK_regs : a->kind == PX_O_ADDR ? PX_TOK_tmem : PX_TOK_desc;
	if (px_slot_has(&n->op->slots[asrc], tok))
		n->slot[asrc] = (uint16_t)tok;
	return true;
}

static bool int_in(const px_opnd *o, int64_t a, int64_t b)
{
	return o->kind == PX_O_INT && (o->ival == a || o->ival == b);
}

void px_wgmma_check(px_verifier *v, px_func *f, px_node *n)
{
	unsigned no;
	const px_opnd_def *defs = px_var_operands(n->op, n->var, &no);
	for (unsigned i = 0; i < n->nops && i < no; i++) {
		const px_opnd *o = &n->ops[i];
		const char *name = defs[i].name;
		if (!strcmp(name, "scale_d")) {
			bool pred = o->kind == PX_O_VALUE && px_types[f->values[o->id].type].kind == PX_KIND_PRED;
			if (!pred && !int_in(o, 0, 1))
				px_error(v->d, o->loc, PX_D_wgmma_imm, i + 1, "a predicate, 0 or 1");
		} else if (!strncmp(name, "scale_", 6) && !int_in(o, 1, -1)) {
			px_error(v->d, o->loc, PX_D_wgmma_imm, i + 1, "1 or -1");
		} else if (!strncmp(name, "trans_", 6) && !int_in(o, 0, 1)) {
			px_error(v->d, o->loc, PX_D_wgmma_imm, i + 1, "0 or 1");
		}
	}
}

/* tcgen05.commit's multicast mask: seed 002's selector takes 16- and 32-bit
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
	n->slot[mask] = width == 16 ? PX_TOK_mask16 : PX_TOK_mask32;
	return true;
}

/* Seed 002's gate for tcgen05.mma: an arch- or family-conditional target of
 * the sm_100 family (ptxas refuses sm_120a too), and its scale-input
 * accumulator, which ptxas refuses from sm_110 on. */
static bool mma_target(px_verifier *v, px_node *n)
{
	const px_target *t = v->target;
	if (!t)
		return true;
	if (t->sm < 100 || t->sm >= 120 || (t->suffix != 'a' && t->suffix != 'f')) {
		px_error(v->d, n->oploc, PX_D_tc05_arch);
		return false;
	}
	int sia = px_slot_find(n->op, PX_SN_sia);
	if (n->slot[sia] && t->sm >= 110) {
		px_error(v->d, n->oploc, PX_D_tc05_sia_arch);
		return false;
	}
	return true;
}

/* tcgen05.mma's disable-output-lane: a group right after idesc (the noprint
 * slot dol picks seed 002's Large class). */
static void output_lanes(const px_func *f, px_node *n)
{
	int dol = px_slot_find(n->op, PX_SN_dol), sp = px_slot_find(n->op, PX_SN_sp);
	unsigned at = n->slot[sp] ? 5 : 4;
	if (n->nops > at && is_fragment(f, &n->ops[at]))
		n->slot[dol] = PX_TOK_disable_output_lane;
}

bool px_tcgen05_mma_prepare(px_verifier *v, px_func *f, px_node *n)
{
	if (!mma_target(v, n))
		return false;
	output_lanes(f, n);
	return px_wgmma_prepare(v, f, n);
}
