/* Operands as the grammar meets them: values (each name entered in the
 * function's value table at its first use), literals, special registers,
 * labels and ( ) groups, linked into the statement's lists. */
#include "front/build.h"
#include "tables/tables.h"

px_olink *px_opnd_link(px_parser *P, uint8_t kind, px_loc loc)
{
	px_olink *l = px_arena_alloc(&P->tmp, sizeof *l);
	l->o.kind = kind;
	l->o.loc = loc;
	l->o.elem = -1;
	return l;
}

uint32_t px_value_of(px_parser *P, px_tok t)
{
	return px_func_value(P->m, P->f, px_sans_sigil(t));
}

/* Operands pass their tokens by address: the grammar makes one per operand. */
px_olink *px_value_link(px_parser *P, const px_tok *t, const px_tok *index)
{
	px_olink *l = px_opnd_link(P, PX_O_VALUE, t->loc);
	l->o.id = px_func_value(P->m, P->f, px_sans_sigil(*t));
	if (index)
		l->o.elem = (int32_t)px_small_uint(P, *index, 0, INT32_MAX);
	return l;
}

/* !%p: the value's complement, for a predicate operand. */
px_olink *px_not_value_link(px_parser *P, px_tok bang, px_tok t)
{
	px_olink *l = px_value_link(P, &t, NULL);
	l->o.neg = true;
	l->o.loc = bang.loc;
	return l;
}

/* -%v: PTX has no negated operand, so the message says what to write instead. */
px_olink *px_neg_value_link(px_parser *P, px_tok minus, px_tok t)
{
	PX_PERR(P, minus.loc, PX_D_neg_value, (int)t.s.n - 1, t.s.s + 1, (int)t.s.n - 1, t.s.s + 1);
	return px_value_link(P, &t, NULL);
}

/* A result defines its value; the first typed definition gives the value its type. */
px_olink *px_result_link(px_parser *P, const px_tok *t, const px_tok *type, const px_tok *count)
{
	px_olink *l = px_value_link(P, t, NULL);
	px_value *v = &P->f->values[l->o.id];
	v->has_def = true;
	if (!type)
		return l;
	l->o.decl_type = px_type_of(P, *type);
	if (count)
		l->o.decl_count = (uint32_t)px_small_uint(P, *count, 1, UINT32_MAX);
	if (!v->type && l->o.decl_type) {
		v->type = l->o.decl_type;
		v->count = l->o.decl_count;
		v->def_loc = t->loc;
	}
	return l;
}

px_olink *px_literal_link(px_parser *P, uint8_t kind, const px_tok *t)
{
	px_olink *l = px_opnd_link(P, kind, t->loc);
	switch (kind) {
	case PX_O_INT:
		l->o.ival = t->i;
		break;
	case PX_O_FLOAT:
		l->o.fval = t->f;
		l->o.fdir = t->fdir;
		break;
	case PX_O_FBITS:
		l->o.bits = t->bits;
		l->o.fwidth = t->fwidth;
		break;
	case PX_O_SYM:
		l->o.sym = px_sans_sigil(*t);
		break;
	}
	return l;
}

/* %v[i] = ...: one element of a vector value, which the statement defines. */
px_olink *px_result_elem_link(px_parser *P, px_tok t, px_tok index)
{
	px_olink *l = px_value_link(P, &t, &index);
	P->f->values[l->o.id].has_def = true;
	return l;
}

px_olink *px_sreg_link(px_parser *P, px_tok t)
{
	px_olink *l = px_opnd_link(P, PX_O_SREG, t.loc);
	l->o.id = (uint32_t)t.i;
	return l;
}

/* A label operand: its first use is kept for the message when it is never defined. */
px_olink *px_label_link(px_parser *P, px_tok t)
{
	px_olink *o = px_opnd_link(P, PX_O_LABEL, t.loc);
	o->o.id = px_func_label(P->m, P->f, px_sans_sigil(t));
	px_label *l = &P->f->labels[o->o.id];
	if (!l->used) {
		l->used = true;
		l->first_use = t.loc;
	}
	return o;
}

/* A return type, carried in a list link until the header is complete. */
px_olink *px_type_link(px_parser *P, px_tok t)
{
	px_olink *l = px_opnd_link(P, PX_O_NONE, t.loc);
	l->o.decl_type = px_type_of(P, t);
	return l;
}

px_olink *px_group_link(px_parser *P, px_loc loc, px_olist elems)
{
	px_olink *l = px_opnd_link(P, PX_O_GROUP, loc);
	l->o.elems = px_olist_array(&P->m->fn_arena, elems);
	l->o.nelems = elems.n;
	return l;
}

/* An initializer's ( , ) lanes: kept with the module, as its globals are. */
px_olink *px_init_lanes(px_parser *P, px_loc loc, px_olist elems)
{
	px_olink *l = px_opnd_link(P, PX_O_GROUP, loc);
	l->o.elems = px_olist_array(&P->m->arena, elems);
	l->o.nelems = elems.n;
	return l;
}

/* { } where ( ) was meant: one message per statement. */
static void brace_reported(px_parser *P, px_loc loc)
{
	if (!P->brace_reported) {
		P->brace_reported = true;
		PX_PERR(P, loc, PX_D_brace_group);
	}
}

/* {%a, %b} as an operand: reported, kept as the group it was meant to be. */
px_olink *px_brace_group(px_parser *P, px_loc loc, px_olist elems)
{
	brace_reported(P, loc);
	return px_group_link(P, loc, elems);
}

/* {%a, %b} after an operation, read as its property dictionary: the operand
 * is no property (NULL). */
px_plink *px_brace_item(px_parser *P, px_olink *l)
{
	brace_reported(P, l->o.loc);
	return NULL;
}
