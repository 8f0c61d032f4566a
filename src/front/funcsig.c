/* A function's signature entered in the module's symbol table, where calls
 * find it. */
#include "front/build.h"

static bool sig_equal(const px_funcsig *a, const px_funcsig *b)
{
	if (a->is_kernel != b->is_kernel || a->nparams != b->nparams || a->nrets != b->nrets)
		return false;
	for (uint32_t i = 0; i < a->nparams; i++)
		if (a->params[i] != b->params[i] || a->param_sizes[i] != b->param_sizes[i] ||
		    a->param_aligns[i] != b->param_aligns[i])
			return false;
	for (uint32_t i = 0; i < a->nrets; i++)
		if (a->rets[i] != b->rets[i])
			return false;
	return a->ret_size == b->ret_size && a->ret_align == b->ret_align;
}

/* Record the signature for calls. A declaration and a definition of the same
 * function agree or are an error; two definitions are a redefinition. */
void px_func_register(px_parser *P, bool defined)
{
	px_module *m = P->m;
	px_func *f = P->f;
	f->is_decl = !defined;
	if (!defined && f->linkage != PX_LINK_EXTERN)
		PX_PERR(P, f->loc, PX_D_no_body, (int)f->name.n, f->name.s);
	px_funcsig sig = {f->name, f->loc, f->is_kernel, defined, f->linkage, NULL, NULL, NULL, NULL, f->nparams, NULL,
	                  f->nrets, f->ret_size, f->ret_align};
	sig.params = px_arena_alloc(&m->arena, (f->nparams + 1) * sizeof *sig.params);
	sig.param_sizes = px_arena_alloc(&m->arena, (f->nparams + 1) * sizeof *sig.param_sizes);
	sig.param_aligns = px_arena_alloc(&m->arena, (f->nparams + 1) * sizeof *sig.param_aligns);
	sig.param_spaces = px_arena_alloc(&m->arena, (f->nparams + 1) * sizeof *sig.param_spaces);
	for (uint32_t i = 0; i < f->nparams; i++) {
		const px_param *p = &f->params[i];
		sig.param_spaces[i] = p->kind == PX_PARAM_PTR ? p->space : 0;
		sig.params[i] = p->kind == PX_PARAM_AGG ? 0 : p->type;
		sig.param_sizes[i] = p->kind == PX_PARAM_AGG ? p->size : 0;
		sig.param_aligns[i] = p->kind == PX_PARAM_AGG ? p->align : 0;
	}
	sig.rets = px_arena_dup(&m->arena, f->rets, f->nrets * sizeof *f->rets);
	sig.ret_size = f->ret_size;
	sig.ret_align = f->ret_align;

	uint32_t prev = px_strmap_get(&m->syms, f->name.s, f->name.n);
	if (prev != PX_STRMAP_NONE) {
		px_funcsig *old = prev & 1 ? &m->funcs[prev >> 1] : NULL;
		if (!old || (old->defined && defined)) {
			PX_PERR(P, f->loc, PX_D_redefinition, (int)f->name.n, f->name.s);
			px_report(m->diags, PX_SEV_NOTE, px_sym_loc(m, prev), PX_D_previous, (int)f->name.n, f->name.s);
		} else if (!sig_equal(old, &sig)) {
			PX_PERR(P, f->loc, PX_D_declaration_mismatch, (int)f->name.n, f->name.s);
			px_report(m->diags, PX_SEV_NOTE, old->loc, PX_D_previous, (int)f->name.n, f->name.s);
		} else if (defined) {
			P->reg_undo = (px_reg_undo){PX_REG_REPLACED, prev >> 1, *old};
			px_module_quiesce(m);
			*old = sig;
		}
		return;
	}
	P->reg_undo = (px_reg_undo){.what = PX_REG_ADDED, .index = px_module_add_func(m, &sig)};
}
