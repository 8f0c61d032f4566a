/* Function-local arrays (`local` statements). */
#include "front/build.h"

/* `local @name : T[N] align A`: a function-local array, declared before the
 * body's first statement. Its name may not repeat a local or a module symbol
 * defined so far. These mistakes lose no statement, so they are reported
 * without counting as syntax errors: the body is still checked. */
void px_local_def(px_parser *P, px_tok name, px_tok type, const px_tok *count, bool unsized,
                  const px_tok *align)
{
	px_module *m = P->m;
	px_func *f = P->f;
	px_local l = {.name = px_sans_sigil(name), .loc = name.loc, .type = px_type_of(P, type), .count = 1};
	if (f->first)
		px_error(m->diags, name.loc, PX_D_local_not_first, (int)l.name.n, l.name.s);
	if (unsized)
		px_error(m->diags, name.loc, PX_D_local_unsized, (int)l.name.n, l.name.s);
	if (count) {
		l.is_array = true;
		l.count = px_small_uint(P, *count, 1, UINT32_MAX);
	}
	if (align)
		l.align = (uint32_t)px_small_uint(P, *align, 1, UINT32_MAX);
	const px_local *old = px_func_local(f, l.name);
	uint32_t sym = px_strmap_get(&m->syms, l.name.s, l.name.n);
	if (old || sym != PX_STRMAP_NONE) {
		px_error(m->diags, name.loc, PX_D_redefinition, (int)l.name.n, l.name.s);
		px_report(m->diags, PX_SEV_NOTE, old ? old->loc : px_sym_loc(m, sym), PX_D_previous, (int)l.name.n,
		          l.name.s);
		return;
	}
	if (f->nlocals == f->cap_locals) {
		uint32_t cap = f->cap_locals ? f->cap_locals * 2 : 4;
		f->locals = px_arena_grow(&m->fn_arena, f->locals, f->nlocals, cap, sizeof *f->locals);
		f->cap_locals = cap;
	}
	f->locals[f->nlocals++] = l;
}
