/* The tensor-core selectors of the selector's first layer: an mma node is
 * lowered from its tables and then carries NVVM's packed MMA descriptor,
 * which --emit=isel shows (the printer takes the suffixes from the slots). */
#include <string.h>

#include "isel/isel.h"
#include "isel/mma_desc.h"
#include "tables/query.h"

/* The token the slot named sname prints, or 0 (the op has no such slot). */
static unsigned slot_tok(const px_node *n, unsigned sname)
{
	int i = px_slot_find(n->op, sname);
	return i < 0 ? 0 : px_slot_tok(n->op, n->slot, (unsigned)i);
}

/* ptxas wants every fragment in braces, a one-register fragment too ({%r4}). */
static void as_group(px_isel *s, px_mop *m)
{
	if (m->kind != PX_M_REG)
		return;
	px_mop *elem = px_mops(s, 1);
	*elem = *m;
	*m = (px_mop){.kind = PX_M_GROUP, .elems = elem, .nelems = 1};
}

/* The instruction word's properties; implied stands for an A/B type the
 * node leaves out (wmma.mma's f16). */
static px_mma_props inst_props(const px_node *n, unsigned implied)
{
	unsigned aty = slot_tok(n, PX_SN_atype), bty = slot_tok(n, PX_SN_btype);
	return (px_mma_props){
		.shape = slot_tok(n, PX_SN_shape),
		.aty = aty ? aty : implied,
		.bty = bty ? bty : implied,
		.acol = slot_tok(n, PX_SN_alayout) == PX_TOK_col,
		.bcol = slot_tok(n, PX_SN_blayout) == PX_TOK_col,
		.satf = slot_tok(n, PX_SN_satf),
		.rnd = slot_tok(n, PX_SN_rnd),
		.opc = slot_tok(n, PX_SN_opc),
	};
}

static void encode_failed(px_isel *s, const px_node *n, unsigned err)
{
	if (err)
		px_error(s->d, n->oploc, (int)err, px_tok_names[slot_tok(n, PX_SN_shape)]);
}

bool px_select_mma(px_isel *s, const px_node *n)
{
	px_lower_node(s, n);
	px_minst *mi = s->mf.last;
	for (uint32_t i = 0; i < mi->nres; i++)
		as_group(s, &mi->res[i]);
	for (uint32_t i = 0; i < mi->nops && i < 3; i++) /* A, B, C; not block scaling's operands */
		as_group(s, &mi->ops[i]);
	px_mma_props p = inst_props(n, 0);
	encode_failed(s, n, px_mma_encode(&p, &mi->mma_desc));
	return true;
}

static bool same_regs(const px_mop *a, const px_mop *b)
{
	if (a->kind != b->kind || a->nelems != b->nelems)
		return false;
	if (a->kind == PX_M_REG)
		return a->reg == b->reg && a->rc == b->rc;
	for (uint32_t i = 0; i < a->nelems; i++)
		if (!same_regs(&a->elems[i], &b->elems[i]))
			return false;
	return a->kind == PX_M_GROUP;
}

/* Take the last instruction off the list, to emit others before it. */
static px_minst *detach_last(px_isel *s)
{
	px_minst *mi = s->mf.last, *prev = NULL;
	if (s->mf.before_last && s->mf.before_last->next == mi)
		prev = s->mf.before_last;
	else
		for (px_minst *it = s->mf.first; it != mi; it = it->next)
			prev = it;
	s->mf.last = prev;
	if (prev)
		prev->next = NULL;
	else
		s->mf.first = NULL;
	s->mf.before_last = NULL;
	return mi;
}

static void reattach(px_isel *s, px_minst *mi)
{
	if (s->mf.last)
		s->mf.last->next = mi;
	else
		s->mf.first = mi;
	s->mf.before_last = s->mf.last;
	s->mf.last = mi;
}

/* wgmma.mma_async reads and writes its d: the C operand is not printed, and a
 * C held in other registers is copied into D's first. */
bool px_select_wgmma(px_isel *s, const px_node *n)
{
	px_lower_node(s, n);
	px_minst *mi = s->mf.last;
	px_mop c = mi->ops[0], d = mi->res[0];
	mi->ops++;
	mi->nops--;
	px_finish(s, mi); /* the MC name without the C group */
	if (same_regs(&c, &d))
		return true;
	detach_last(s);
	const px_op_def *mov = &px_ops[PX_OP_mov];
	uint16_t slot[PX_MAX_SLOTS] = {0};
	unsigned nd;
	const px_opnd_def *defs = px_var_results(n->op, n->var, &nd);
	px_set_slot(mov, slot, PX_SN_type, px_type_tok(mov, PX_SN_type, px_opnd_type(&defs[0], n->slot)));
	for (uint32_t k = 0; k < d.nelems && k < c.nelems; k++)
		px_emit_unary(s, mov, slot, d.elems[k], c.elems[k], n->loc);
	reattach(s, mi);
	return true;
}

/* tcgen05.ld / tcgen05.st: the register fragment is braced even at .x1.
 * tcgen05.ld.red's second result, the reduced value, is a plain register. */
bool px_select_tmem_fragment(px_isel *s, const px_node *n)
{
	px_lower_node(s, n);
	px_minst *mi = s->mf.last;
	if (mi->nres)
		as_group(s, &mi->res[0]);
	for (uint32_t i = 0; i < mi->nops; i++)
		as_group(s, &mi->ops[i]);
	return true;
}

/* tcgen05.commit: NVVM's selector takes a 32-bit multicast mask (ISD 4774,
 * 4777), but ptxas reads only a 16-bit one, so the mask is narrowed first. */
bool px_select_tcgen05_commit(px_isel *s, const px_node *n)
{
	px_lower_node(s, n);
	px_minst *mi = s->mf.last;
	int mask = px_slot_find(n->op, PX_SN_mask);
	if (n->slot[mask] != PX_TOK_mask32 || mi->nops < 2 || mi->ops[1].kind != PX_M_REG)
		return true;
	detach_last(s);
	const px_op_def *cvt = &px_ops[PX_OP_cvt];
	uint16_t slot[PX_MAX_SLOTS] = {0};
	px_set_slot(cvt, slot, PX_SN_dtype, PX_TOK_u16);
	px_set_slot(cvt, slot, PX_SN_stype, PX_TOK_u32);
	px_mop narrow = px_fresh_reg(s, PX_T_u16);
	mi->ops[1] = px_emit_unary(s, cvt, slot, narrow, mi->ops[1], n->loc);
	reattach(s, mi);
	px_finish(s, mi);
	return true;
}

/* tcgen05.mma: lowered from its tables (its prepare hook chose the variant). */
bool px_select_tcgen05_mma(px_isel *s, const px_node *n)
{
	px_lower_node(s, n);
	return true;
}

/* wmma: load and store carry NVVM's fragment word (mid, rowcol, ety,
 * shape), wmma.mma the instruction word; f16 inputs are implied there. */
bool px_select_wmma(px_isel *s, const px_node *n)
{
	px_lower_node(s, n);
	px_minst *mi = s->mf.last;
	unsigned no;
	const px_opnd_def *defs = px_var_operands(n->op, n->var, &no);
	for (uint32_t i = 0; i < mi->nres; i++)
		as_group(s, &mi->res[i]);
	for (uint32_t i = 0; i < mi->nops && i < no; i++)
		if (px_opnd_is_group(&defs[i], n->slot)) /* the fragments (a `count:`); not p or stride */
			as_group(s, &mi->ops[i]);
	if (px_slot_find(n->op, PX_SN_mid) >= 0) {
		static const char mids[] = "abcd";
		const char *mid = strchr(mids, px_tok_names[slot_tok(n, PX_SN_mid)][0]);
		encode_failed(s, n,
		              px_mma_encode_frag(slot_tok(n, PX_SN_shape), mid ? (unsigned)(mid - mids) : 0,
		                                 slot_tok(n, PX_SN_rowcol) == PX_TOK_col, slot_tok(n, PX_SN_ety), &mi->mma_desc));
	} else {
		px_mma_props p = inst_props(n, PX_TOK_f16);
		encode_failed(s, n, px_mma_encode(&p, &mi->mma_desc));
	}
	return true;
}
