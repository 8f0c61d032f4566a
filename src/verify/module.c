/* What the verifier can only tell about the whole module: globals and their
 * initializers, and calls to functions defined after the caller. */
#include <stdio.h>
#include <string.h>

#include "util/fp.h"
#include "verify/state.h"
#include "verify/verify.h"

static void check_init(px_verifier *v, const px_global *g, const px_opnd *o)
{
	const px_type_info *t = &px_types[g->type];
	px_lanes ln;
	if (o->kind != PX_O_SYM && px_type_lanes(g->type, &ln)) {
		char place[96];
		snprintf(place, sizeof place, "an element of @%.*s", (int)g->name.n, g->name.s);
		px_check_lanes(v, o, &ln, place);
		return;
	}
	switch (o->kind) {
	case PX_O_INT:
		if (t->kind == PX_KIND_FLOAT) {
			int8_t dir;
			double f = px_fp_from_int(o->ival, &dir);
			if (!px_float_fits(f, dir, g->type)) {
				const char *s;
				int n = px_literal_text(v, o->loc, &s);
				px_error(v->d, o->loc, PX_D_float_type_range, n, s, t->name);
			}
			return;
		}
		if (t->width < 64) {
			int64_t lo = -((int64_t)1 << (t->width - 1));
			int64_t hi = t->kind == PX_KIND_SINT ? ((int64_t)1 << (t->width - 1)) - 1
			                                     : ((int64_t)1 << t->width) - 1;
			if (o->ival < lo || o->ival > hi)
				px_error(v->d, o->loc, PX_D_int_range, (long long)o->ival, t->name);
		}
		return;
	case PX_O_FLOAT:
		if (t->kind != PX_KIND_FLOAT)
			px_error(v->d, o->loc, PX_D_float_literal_type, t->name);
		else if (!px_float_fits(o->fval, o->fdir, g->type)) {
			const char *s;
			int n = px_literal_text(v, o->loc, &s);
			px_error(v->d, o->loc, PX_D_float_type_range, n, s, t->name);
		}
		return;
	case PX_O_FBITS:
		if (t->width != o->fwidth)
			px_error(v->d, o->loc, PX_D_fbits_type, o->fwidth == 32 ? "0f" : "0d", t->name);
		return;
	case PX_O_SYM: {
		uint32_t s = px_module_sym(v->m, o->sym);
		if (s == PX_STRMAP_NONE)
			px_error(v->d, o->loc, PX_D_unknown_symbol, (int)o->sym.n, o->sym.s);
		else if (!(s & 1) && v->m->globals[s >> 1].handle)
			px_error(v->d, o->loc, PX_D_handle_use, (int)o->sym.n, o->sym.s,
			         px_tok_names[v->m->globals[s >> 1].handle], "an initializer");
		else if (!(s & 1) && v->m->globals[s >> 1].space == PX_SPACE_SHARED)
			px_error(v->d, o->loc, PX_D_shared_address_init, (int)o->sym.n, o->sym.s);
		else if (t->width != 64 || t->kind == PX_KIND_FLOAT)
			px_error(v->d, o->loc, PX_D_address_init_type, t->name);
		return;
	}
	case PX_O_GROUP:
		px_error(v->d, o->loc, PX_D_init_lanes_type, t->name);
		return;
	default: /* the grammar makes only the literals above */
		break;
	}
}

/* `global @t : texref` (surfref): PTX's .texref and .surfref variables live in
 * .global only (ptxas: "Texture and surface variables must be declared in
 * .global space"); ptxemit prints them bare. .samplerref is refused under
 * the unified texture mode ptxemit's .target line implies. */
static void check_handle_global(px_verifier *v, const px_global *g)
{
	int name_n = (int)g->name.n;
	const char *kind = px_tok_names[g->handle];
	if (g->handle == PX_TOK_samplerref)
		px_error(v->d, g->loc, PX_D_samplerref_unified, name_n, g->name.s);
	else if (g->space != PX_SPACE_GLOBAL)
		px_error(v->d, g->loc, PX_D_handle_space, name_n, g->name.s, kind);
	else if (g->is_array || g->align || g->ninit)
		px_error(v->d, g->loc, PX_D_handle_form, name_n, g->name.s, kind);
}

void px_verify_globals(px_verifier *v)
{
	for (uint32_t i = 0; i < v->m->nfuncs; i++) /* every function, declared or defined */
		px_check_reserved_name(v, v->m->funcs[i].name, v->m->funcs[i].loc, false);
	for (uint32_t i = 0; i < v->m->nglobals; i++) {
		const px_global *g = &v->m->globals[i];
		int name_n = (int)g->name.n;
		px_check_reserved_name(v, g->name, g->loc, false);
		if (g->handle) {
			check_handle_global(v, g);
			continue;
		}
		if (px_types[g->type].kind == PX_KIND_PRED || px_types[g->type].kind == PX_KIND_PTR) {
			px_error(v->d, g->loc, PX_D_global_type, name_n, g->name.s, px_types[g->type].name);
			continue;
		}
		if (g->unsized && g->linkage != PX_LINK_EXTERN)
			px_error(v->d, g->loc, PX_D_unsized_global, name_n, g->name.s);
		if (g->align && (g->align & (g->align - 1)))
			px_error(v->d, g->loc, PX_D_bad_align, g->align);
		/* an unknown type (PX_T_none, width 0) was reported by the parser;
		 * checking the initializer against it would shift by -1 */
		if (!g->ninit || !g->type)
			continue;
		px_note_decl_type(v, g->init[0].loc, g->type, "an initialized .%s variable");
		if (g->linkage == PX_LINK_EXTERN || g->space == PX_SPACE_SHARED) {
			px_error(v->d, g->init[0].loc, PX_D_init_not_allowed, name_n, g->name.s);
			continue;
		}
		if (g->init_is_string && (px_types[g->type].width != 8 || !g->is_array)) {
			px_error(v->d, g->init[0].loc, PX_D_string_init_type, name_n, g->name.s, px_types[g->type].name,
			         g->is_array ? "[]" : "");
			continue;
		}
		if (g->init_is_list != g->is_array) {
			px_error(v->d, g->init[0].loc, g->is_array ? PX_D_init_needs_list : PX_D_init_not_list,
			         name_n, g->name.s);
			continue;
		}
		if (g->is_array && !g->unsized && g->ninit > g->count)
			px_error(v->d, g->init[0].loc, PX_D_init_count, g->ninit, name_n, g->name.s,
			         (unsigned long long)g->count);
		for (uint32_t k = 0; k < g->ninit; k++)
			check_init(v, g, &g->init[k]);
	}
}

void px_verify_module_end(px_verifier *v)
{
	if (!v->target && !v->target_reported) {
		px_loc none = {0};
		px_error(v->d, none, PX_D_no_target);
		v->target_reported = true;
	}
	px_check_param_refs(v);
	for (px_pending_call *p = v->pending; p; p = p->next) {
		uint32_t s = px_module_sym(v->m, p->callee);
		if (s == PX_STRMAP_NONE || !(s & 1)) {
			px_error(v->d, p->loc, PX_D_undefined_function, (int)p->callee.n, p->callee.s);
			continue;
		}
		const px_funcsig *sig = &v->m->funcs[s >> 1];
		px_check_call_sig(v, sig, "@", p->callee, p->loc, p->args, p->arg_bytes, p->lits, p->nargs, p->rets,
		                  p->ret_bytes, p->nrets);
		for (uint32_t i = 0; i < p->nargs && i < sig->nparams; i++) {
			if (sig->params[i] != PX_T_ptr)
				continue;
			if (p->not_pointer[i])
				px_error(v->d, p->arg_locs[i], PX_D_ptr_arg_space, i + 1, "@", (int)p->callee.n, p->callee.s,
				         p->not_pointer[i]);
			else
				px_check_arg_space(v, sig, i, "@", p->callee, p->known_space[i], p->known_as[i], p->arg_locs[i]);
		}
	}
	px_check_kernels(v);
}
