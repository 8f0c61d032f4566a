/* A function body's statements as nodes: instructions, labels, asm, ret,
 * each with the guard and the loc in force. Nodes live in the function's
 * arena, handed on with the function at its end. */
#include "front/build.h"

/* A node with room for extra bytes behind it. */
static px_node *node_with(px_parser *P, uint8_t kind, px_loc loc, size_t extra)
{
	px_node *n = px_arena_alloc(&P->m->fn_arena, sizeof *n + extra);
	n->kind = kind;
	n->loc = loc;
	n->slot = px_no_slots;
	return n;
}

px_node *px_node_new(px_parser *P, uint8_t kind, px_loc loc)
{
	return node_with(P, kind, loc, 0);
}

px_node *px_inst_node(px_parser *P, const px_olist *res, const px_tok *op, const px_olist *ops,
                      const px_plist *props)
{
	/* the node, its results and its operands in one allocation: the arena
	 * rounds each to 16 bytes, so one rounding instead of three */
	uint32_t nres = res ? res->n : 0;
	px_node *n = node_with(P, PX_N_INST, res ? res->head->o.loc : op->loc, (nres + ops->n) * sizeof(px_opnd));
	n->opname = op->s;
	n->oploc = op->loc;
	px_opnd *v = (px_opnd *)(n + 1);
	if (res) {
		n->res = px_olist_copy(v, *res);
		n->nres = nres;
	}
	n->ops = px_olist_copy(v + nres, *ops);
	n->nops = ops->n;
	for (uint32_t i = 0; i < n->nops; i++)
		n->has_addr |= n->ops[i].kind == PX_O_ADDR;
	n->props = px_plist_array(&P->m->fn_arena, *props);
	n->nprops = props->n;
	return n;
}

/* ret, or ret with a value; ret (%a, %b) returns the group's elements. */
px_node *px_ret_node(px_parser *P, px_tok kw, px_olink *value)
{
	px_node *n = px_node_new(P, PX_N_RET, kw.loc);
	if (!value)
		return n;
	if (value->o.kind == PX_O_GROUP) {
		n->ops = value->o.elems;
		n->nops = value->o.nelems;
	} else {
		n->ops = px_olist_array(&P->m->fn_arena, px_olist_one(value));
		n->nops = 1;
	}
	return n;
}

void px_stmt_done(px_parser *P, px_guard g, px_node *n)
{
	n->dloc = px_srcloc_index(P);
	if (g.has) {
		n->has_guard = true;
		n->guard_neg = g.neg;
		n->guard = g.value;
		n->loc = g.loc;
	}
	px_func_append(P->f, n);
}

void px_label_def(px_parser *P, px_tok t)
{
	px_str name = px_sans_sigil(t);
	uint32_t id = px_func_label(P->m, P->f, name);
	px_label *l = &P->f->labels[id];
	if (l->defined) {
		PX_PERR(P, t.loc, PX_D_label_redefinition, (int)name.n, name.s);
		px_report(P->m->diags, PX_SEV_NOTE, l->def_loc, PX_D_label_previous, (int)name.n, name.s);
		return;
	}
	l->defined = true;
	l->def_loc = t.loc;
	px_node *n = px_node_new(P, PX_N_LABEL, t.loc);
	n->label = id;
	px_func_append(P->f, n);
}

/* asm "template" (outputs) (inputs): the template's escapes decoded. */
px_node *px_asm_node(px_parser *P, px_tok kw, px_tok text, const px_olist *outs, px_olist ins)
{
	px_arena *a = &P->m->fn_arena;
	px_node *n = px_node_new(P, PX_N_ASM, kw.loc);
	n->text = px_unescape(a, text);
	n->text_loc = text.loc;
	if (outs) {
		n->res = px_olist_array(a, *outs);
		n->nres = outs->n;
	}
	n->ops = px_olist_array(a, ins);
	n->nops = ins.n;
	return n;
}

/* Lists of the statement just finished are dead: their arena starts over. */
void px_stmt_reset(px_parser *P)
{
	px_arena_reset(&P->tmp);
	P->brace_reported = false;
}
