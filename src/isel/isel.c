/* The selector's driver: per function, the parameter loads, then each node
 * through NVPTX's three selector layers in order (intrinsic-with-chain, vector
 * load/store, pattern matcher); a layer that does not take a node passes it on. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isel/isel.h"
#include "family.h"
#include "isel/match.h"
#include "tables/query.h"

void px_isel_init(px_isel *s, px_module *m, px_diags *d)
{
	memset(s, 0, sizeof *s);
	s->m = m;
	s->d = d;
	s->a = &m->fn_arena;
	s->keep = &m->arena;
	px_arena_init(&s->ia);
	px_strmap_init(&s->early_calls);
}

void px_isel_free(px_isel *s)
{
	free(s->vreg);
	free(s->b8mark);
	px_arena_free(&s->ia);
	px_strmap_free(&s->early_calls);
	px_first_rows_free(&s->first_rows);
}

px_mop *px_mops(px_isel *s, uint32_t n) { return px_arena_alloc(&s->ia, (n ? n : 1) * sizeof(px_mop)); }

void px_set_slot(const px_op_def *op, uint16_t *slot, unsigned sname, unsigned tok)
{
	int i = px_slot_find(op, sname);
	if (i >= 0)
		slot[i] = (uint16_t)tok;
}

/* The token naming type in op's slot (the exact type, else its bit type). */
unsigned px_type_tok(const px_op_def *op, unsigned sname, int type)
{
	int i = px_slot_find(op, sname);
	if (i < 0)
		return 0;
	const px_slot_def *sd = &op->slots[i];
	const px_type_info *t = &px_types[type == PX_T_ptr ? PX_T_u64 : type];
	if (t->token && px_slot_has(sd, t->token))
		return t->token;
	for (unsigned k = 1; k < px_ntypes; k++)
		if (px_types[k].kind == PX_KIND_BIT && px_types[k].width == t->width && px_slot_has(sd, px_types[k].token))
			return px_types[k].token;
	return 0;
}

/* The line and column of loc, asked of the module once per place. */
static px_linecol linecol(px_isel *s, px_loc loc)
{
	if (loc.pos != s->lc_loc.pos) {
		s->lc = px_module_linecol(s->m, loc);
		s->lc_loc = loc;
	}
	return s->lc;
}

/* Append an instruction of op in variant var. */
static px_minst *append_inst(px_isel *s, const px_op_def *op, const uint16_t *slot, const px_variant *var,
                             px_loc loc)
{
	px_minst *mi = px_arena_alloc(&s->ia, sizeof *mi);
	mi->op = op;
	if (slot)
		memcpy(mi->slot, slot, sizeof mi->slot);
	mi->var = var;
	mi->iid = var ? var->iid : -1;
	mi->loc = loc;
	if (s->mc_names)
		mi->at = linecol(s, loc);
	if (s->cur && s->cur->dloc) {
		const px_dloc *d = &s->f->dlocs[s->cur->dloc - 1];
		mi->dloc = (px_dloc){d->file + 1, d->line, d->col};
	} else if (s->cur && s->lineinfo) {
		px_linecol lc = linecol(s, s->cur->loc);
		mi->dloc = (px_dloc){1, lc.line, lc.col};
	}
	if (s->mf.last)
		s->mf.last->next = mi;
	else
		s->mf.first = mi;
	s->mf.before_last = s->mf.last;
	s->mf.last = mi;
	return mi;
}

/* Append an instruction of op with the given slots; the variant comes from the
 * tables like any node's, so synthesized instructions obey the same windows. */
px_minst *px_emit_inst(px_isel *s, const px_op_def *op, const uint16_t *slot, px_loc loc)
{
	uint16_t none[PX_MAX_SLOTS] = {0};
	const px_variant *var = px_variant_find(&s->first_rows, op, slot ? slot : none, s->target, 0);
	if (!var && op->nvariants)
		var = &op->variants[0]; /* the verifier admitted the node; a synthesized
		                         * instruction outside every window is a table bug
		                         * ptxas will point out */
	return append_inst(s, op, slot, var, loc);
}

/* Only --emit=isel prints MC names: PTX output does not pay for building
 * them. */
void px_finish(px_isel *s, px_minst *mi)
{
	if (s->mc_names)
		mi->mc = px_mc_name(&s->ia, mi);
}

px_minst *px_build_inst(px_isel *s, const px_op_def *op, const uint16_t *slot, const px_mop *res, uint32_t nres,
                        const px_mop *ops, uint32_t nops, px_loc loc)
{
	px_minst *mi = px_emit_inst(s, op, slot, loc);
	if (nres) {
		mi->res = px_mops(s, nres);
		memcpy(mi->res, res, nres * sizeof *res);
		mi->nres = nres;
	}
	if (nops) {
		mi->ops = px_mops(s, nops);
		memcpy(mi->ops, ops, nops * sizeof *ops);
		mi->nops = nops;
	}
	px_finish(s, mi);
	return mi;
}

px_mop px_imm_mop(int type, int64_t v)
{
	px_mop m = px_mop_of(PX_M_IMM);
	m.type = (uint16_t)type;
	m.imm = v;
	return m;
}

px_mop px_sym_mop(px_str name)
{
	px_mop m = px_mop_of(PX_M_SYM);
	m.name = name;
	return m;
}

px_mop px_fresh_reg(px_isel *s, int type) { return px_reg_mop(s, type, px_new_reg(s, type, 1)); }

px_mop px_emit_unary(px_isel *s, const px_op_def *op, const uint16_t *slot, px_mop dst, px_mop src, px_loc loc)
{
	px_build_inst(s, op, slot, &dst, 1, &src, 1, loc);
	return dst;
}

px_mop px_emit_cvta_to(px_isel *s, unsigned space, px_mop dst, px_mop src, px_loc loc)
{
	const px_op_def *cvta = &px_ops[PX_OP_cvta];
	uint16_t slot[PX_MAX_SLOTS] = {0};
	px_set_slot(cvta, slot, PX_SN_to, PX_TOK_to);
	px_set_slot(cvta, slot, PX_SN_space, space);
	px_set_slot(cvta, slot, PX_SN_type, PX_TOK_u64);
	return px_emit_unary(s, cvta, slot, dst, src, loc);
}

void px_set_guard(px_isel *s, px_minst *mi, const px_node *n)
{
	if (!n->has_guard)
		return;
	mi->has_guard = true;
	mi->guard_neg = n->guard_neg;
	mi->guard_reg = px_value_reg(s, n->guard);
}

/* One result item: PTX's sink where the row takes it and the MIR discards the
 * result; else a register (a scratch one for a `_` PTX does not take). */
static px_mop result_item(px_isel *s, const px_opnd *o, const px_opnd_def *def, int want, px_loc loc)
{
	if (o->kind == PX_O_DISCARD && (def->flags & PX_OPND_SINK))
		return (px_mop){.kind = PX_M_SINK};
	return px_lower_value_as(s, o, want, loc);
}

/* Results: a group definition, of one register too, takes one array value or
 * N scalar results. */
static void lower_results(px_isel *s, const px_node *n, px_minst *mi)
{
	unsigned nd;
	const px_opnd_def *defs = px_var_results(n->op, n->var, &nd);
	mi->res = px_mops(s, nd);
	unsigned it = 0;
	for (unsigned d = 0; d < nd && it < n->nres; d++) {
		int want = px_opnd_type(&defs[d], n->slot);
		unsigned count = px_opnd_count(&defs[d], n->slot);
		const px_opnd *o = &n->res[it];
		px_mop *m = &mi->res[mi->nres++];
		bool whole = o->kind == PX_O_VALUE && o->elem < 0 && s->f->values[o->id].count;
		if (px_opnd_is_group(&defs[d], n->slot) && !whole) {
			m->kind = PX_M_GROUP;
			m->elems = px_mops(s, count);
			m->nelems = count;
			for (unsigned k = 0; k < count; k++)
				m->elems[k] = px_lower_value_as(s, &n->res[it++], want, n->loc);
			continue;
		}
		*m = result_item(s, o, &defs[d], want, n->loc);
		/* PTX joins a paired result with '|' however the MIR separated it
		 * (ptxas refuses `elect.sync d, p, mask`) */
		m->pair = (defs[d].flags & PX_OPND_PAIR) != 0;
		it++;
	}
}

void px_lower_node(px_isel *s, const px_node *n)
{
	unsigned no;
	const px_opnd_def *defs = px_var_operands(n->op, n->var, &no);
	/* operands first: materializing a constant emits its mov before the node */
	px_mop *ops = px_mops(s, n->nops);
	for (unsigned i = 0; i < n->nops && i < no; i++)
		ops[i] = px_lower_operand(s, n, &n->ops[i], &defs[i], px_opnd_type(&defs[i], n->slot), n->loc);
	/* an array defined whole by a one-value operation (%acc:f32[4] = mov 0.0):
	 * one instruction per element */
	unsigned nd;
	const px_opnd_def *rd = px_var_results(n->op, n->var, &nd);
	const px_opnd *r = n->nres == 1 ? &n->res[0] : NULL;
	if (r && nd == 1 && !px_opnd_is_group(&rd[0], n->slot) && r->kind == PX_O_VALUE && r->elem < 0 &&
	    s->f->values[r->id].count) {
		px_mop all = px_lower_value_as(s, r, 0, n->loc);
		for (uint32_t k = 0; k < all.nelems; k++) {
			px_minst *mi = append_inst(s, n->op, n->slot, n->var, n->loc);
			px_set_guard(s, mi, n);
			mi->res = px_mops(s, 1);
			mi->res[0] = all.elems[k];
			mi->nres = 1;
			mi->ops = ops;
			mi->nops = n->nops < no ? n->nops : no;
			px_finish(s, mi);
		}
		return;
	}
	/* the verifier chose the node's variant: the selector keeps it */
	px_minst *mi = append_inst(s, n->op, n->slot, n->var, n->loc);
	px_set_guard(s, mi, n);
	lower_results(s, n, mi);
	mi->ops = ops;
	mi->nops = n->nops < no ? n->nops : no;
	px_finish(s, mi);
}

/* Layer 1: operations that carry memory or control-flow chains as intrinsics. */
static bool select_chain(px_isel *s, const px_node *n)
{
	bool (*own)(px_isel *, const px_node *) = px_families[n->op->family].select;
	if (own && own(s, n))
		return true;
	if (n->op->layer != PX_LAYER_CHAIN)
		return false;
	px_lower_node(s, n);
	return true;
}

static void select_label(px_isel *s, const px_node *n)
{
	px_minst *mi = px_emit_inst(s, &px_ops[PX_OP_label], NULL, n->loc);
	mi->name = s->f->labels[n->label].name;
	px_finish(s, mi);
}

/* A piece ends once its instructions take this much memory. */
enum { PIECE_BYTES = 256 * 1024 };

void px_select_begin(px_isel *s, px_func *f, const px_values *va)
{
	s->f = f;
	px_arena_reset(&s->ia);
	memset(&s->mf, 0, sizeof s->mf);
	memset(s->next, 0, sizeof s->next);
	s->mf.fn = f;
	s->mf.lineinfo = s->lineinfo;
	s->mf.ptxmap = s->ptxmap;
	s->cur = NULL;
	if (s->vcap < f->nvalues + 1) {
		free(s->vreg);
		s->vcap = f->nvalues + 64;
		s->vreg = malloc(s->vcap * sizeof *s->vreg);
		if (!s->vreg)
			abort();
	}
	memset(s->vreg, 0xff, (f->nvalues + 1) * sizeof *s->vreg);
	s->b8f = NULL;
	s->va = NULL; /* the last function's went with the function arena */
	s->va_given = va;
	s->late = false;
	px_select_entry(s);
	px_match_plan(s, f);
	s->vskip = 0;
	s->pending = f->first;
	s->ended = s->handed = false;
}

bool px_select_more(px_isel *s)
{
	if (s->handed) { /* the caller is done with the last piece: its memory is reused */
		s->mf.first = s->mf.last = s->mf.before_last = NULL;
		px_arena_reset(&s->ia);
		s->handed = false;
	}
	if (!s->pending && s->ended)
		return false;
	const px_node *n = s->pending;
	for (; n && s->ia.used_total < PIECE_BYTES; n = n->next) {
		s->cur = n;
		switch (n->kind) {
		case PX_N_LABEL:
			select_label(s, n);
			break;
		case PX_N_CALL:
			px_select_call(s, n);
			break;
		case PX_N_RET:
			px_select_ret(s, n);
			break;
		case PX_N_ASM:
			px_select_asm(s, n);
			break;
		case PX_N_PRINTF:
			px_select_printf(s, n);
			break;
		default:
			if (!select_chain(s, n) && !px_select_vector(s, n))
				px_select_match(s, n); /* layer 3 */
		}
	}
	s->pending = n;
	if (!n) {
		s->cur = NULL; /* the closing ret below has no statement: no .loc */
		if (s->f->falls_off) /* a path runs off the end: it returns there, as MIR says (verify/flow.c) */
			px_finish(s, px_emit_inst(s, &px_ops[PX_OP_ret], NULL, s->f->loc));
		s->ended = true;
	}
	s->handed = true;
	return true;
}
