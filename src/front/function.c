/* A function from its header to its end: the parameters and results the
 * header declares, the body's start, and the hand-off of the finished
 * function to the module's consumer (m->on_function). */
#include "front/build.h"
#include "tables/tables.h"

void px_func_begin(px_parser *P, uint8_t linkage, bool kernel, px_tok name)
{
	px_func *f = px_arena_alloc(&P->m->fn_arena, sizeof *f);
	f->name = px_sans_sigil(name);
	f->loc = name.loc;
	f->is_kernel = kernel;
	f->linkage = linkage;
	px_valmap_init(&f->value_ids);
	px_strmap_init(&f->label_ids);
	P->f = f;
	P->f_broken = false;
	P->in_body = false;
	P->dloc = (px_dloc){0, 0, 0}; /* a loc statement holds to its function's end */
	P->dloc_id = 0;
	P->params = NULL;
	P->nparams = P->cap_params = 0;
	P->f_errors = P->nerrors;
}

void px_param_add(px_parser *P, px_tok name, px_tok type, const px_tok *count, uint16_t space,
                  const px_tok *align, px_loc space_loc)
{
	px_func *f = P->f;
	px_param p = {.loc = name.loc, .type = px_type_of(P, type)};
	if (count) {
		if (p.type && p.type != PX_T_b8)
			PX_PERR(P, type.loc, PX_D_aggregate_type);
		p.kind = PX_PARAM_AGG;
		p.type = PX_T_b8;
		p.size = (uint32_t)px_small_uint(P, *count, 1, UINT32_MAX);
	} else if (p.type == PX_T_ptr) {
		p.kind = PX_PARAM_PTR;
		p.space = space;
	} else {
		p.kind = PX_PARAM_SCALAR;
		if (space)
			PX_PERR(P, space_loc, PX_D_space_not_ptr);
		if (align)
			PX_PERR(P, align->loc, PX_D_align_scalar);
	}
	if (align)
		p.align = (uint32_t)px_small_uint(P, *align, 1, UINT32_MAX);
	p.value = px_value_of(P, name);
	px_value *v = &f->values[p.value];
	if (v->param) {
		PX_PERR(P, name.loc, PX_D_duplicate_param, (int)v->name.n, v->name.s);
		return;
	}
	v->type = p.type;
	v->def_loc = name.loc;
	v->has_def = true;
	v->param = p.kind;
	v->param_index = P->nparams;
	if (P->nparams == P->cap_params) {
		uint32_t cap = P->cap_params ? P->cap_params * 2 : 8;
		P->params = px_arena_grow(&P->m->fn_arena, P->params, P->nparams, cap, sizeof *P->params);
		P->cap_params = cap;
	}
	P->params[P->nparams++] = p;
}

/* A device function's aggregate result, b8[N] align A: PTX returns one .param,
 * so it is the only result (the grammar reports the others). */
px_olink *px_agg_ret(px_parser *P, px_tok type, px_tok count, const px_tok *align)
{
	px_olink *l = px_opnd_link(P, PX_O_NONE, type.loc);
	uint16_t t = px_type_of(P, type);
	if (t && t != PX_T_b8)
		PX_PERR(P, type.loc, PX_D_aggregate_type);
	l->o.decl_type = PX_T_none;
	P->f->ret_size = (uint32_t)px_small_uint(P, count, 1, UINT32_MAX);
	P->f->ret_align = align ? (uint32_t)px_small_uint(P, *align, 1, UINT32_MAX) : 0;
	return l;
}

void px_func_header(px_parser *P, px_olist rets, px_loc rets_loc, px_plist attrs)
{
	px_func *f = P->f;
	px_arena *a = &P->m->fn_arena;
	f->params = P->params;
	f->nparams = P->nparams;
	if (rets.n) {
		f->rets = px_arena_alloc(a, rets.n * sizeof *f->rets);
		uint32_t i = 0;
		for (px_olink *x = rets.head; x; x = x->next)
			f->rets[i++] = x->o.decl_type;
		f->nrets = rets.n;
	}
	f->rets_loc = rets_loc;
	f->attrs = px_plist_array(a, attrs);
	f->nattrs = attrs.n;
}

/* The body's '{' ends the header, so it does not count toward the nesting
 * of the first statement (the scanner ends no statement after '{'). */
void px_body_open(px_parser *P)
{
	px_func_register(P, true);
	P->in_body = true;
	P->depth = 0;
	P->dloc = (px_dloc){0, 0, 0};
	P->dloc_id = 0;
	px_stmt_reset(P);
}

/* The body of a function whose header did not parse: parsed for its errors only. */
void px_broken_body_open(px_parser *P)
{
	if (!P->f)
		px_func_begin(P, PX_LINK_VISIBLE, false, (px_tok){0});
	P->f_broken = true;
	P->in_body = true;
	P->depth = 0;
	px_stmt_reset(P);
}

/* A function is complete: hand it on, then forget it. */
void px_func_end(px_parser *P)
{
	px_module *m = P->m;
	px_func *f = P->f;
	f->nerrors = P->nerrors - P->f_errors;
	if (!P->f_broken && m->on_function)
		m->on_function(m, f, m->hook_ctx);
	px_func_drop(P);
}

void px_func_drop(px_parser *P)
{
	px_dslmap_mark(&P->m->dsl, P->last_loc, NULL, 0, 0); /* a loc holds to its function's end */
	if (P->f) {
		if (!P->m->fn_taken) {
			px_valmap_free(&P->f->value_ids);
			px_strmap_free(&P->f->label_ids);
		}
		P->m->fn_taken = false;
		px_arena_reset(&P->m->fn_arena);
		P->f = NULL;
	}
	P->params = NULL;
	P->in_body = false;
	px_stmt_reset(P);
}
