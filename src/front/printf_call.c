/* A printf statement and what it adds to the module: its format string as
 * a global, vprintf's declaration, and the function's argument buffer. */
#include <string.h>

#include "front/build.h"
#include "front/format.h"
#include "tables/tables.h"

/* The format's module string: "$$str", "$$str$1", ... (no MIR name, nor a
 * label's PTX name, starts with "$$"), b8[N] with its NUL, in .global as the CUDA compiler puts it; a text
 * printed before shares its string. Returns its ordinal k. */
static uint32_t printf_string(px_parser *P, px_str text, px_loc loc)
{
	px_module *m = P->m;
	uint32_t k = 0;
	for (uint32_t i = 0; i < m->nglobals; i++) {
		const px_global *g = &m->globals[i];
		if (!px_printf_string_k(g->name, NULL))
			continue;
		bool same = g->ninit == text.n + 1;
		for (uint32_t b = 0; same && b < text.n; b++)
			same = g->init[b].ival == (unsigned char)text.s[b];
		if (same)
			return k;
		k++;
	}
	px_global g = {.name = px_printf_string_name(&m->arena, k), .loc = loc, .space = PX_SPACE_GLOBAL,
	               .linkage = PX_LINK_INTERNAL, .type = PX_T_b8, .is_array = true, .count = text.n + 1,
	               .align = 1, .init_is_list = true};
	g.init = px_arena_alloc(&m->arena, (text.n + 1) * sizeof *g.init);
	for (uint32_t b = 0; b <= text.n; b++) {
		g.init[b].kind = PX_O_INT;
		g.init[b].loc = loc;
		g.init[b].ival = b < text.n ? (unsigned char)text.s[b] : 0;
	}
	g.ninit = text.n + 1;
	if (m->nglobals == m->cap_globals) {
		uint32_t cap = m->cap_globals ? m->cap_globals * 2 : 16;
		m->globals = px_arena_grow(&m->arena, m->globals, m->nglobals, cap, sizeof *m->globals);
		m->cap_globals = cap;
	}
	m->globals[m->nglobals] = g;
	px_module_sym_put(m, g.name, m->nglobals << 1);
	m->nglobals++;
	return k;
}

/* Whether a 64-bit integer or ptr type t passes as printf's u64 or ptr. */
static bool is_address_type(unsigned t)
{
	return t == PX_T_ptr || ((px_types[t].kind == PX_KIND_BIT || px_types[t].kind == PX_KIND_UINT ||
	                          px_types[t].kind == PX_KIND_SINT) && px_types[t].width == 64);
}

/* vprintf(format, buffer) -> int, declared once for the module at the first
 * printf as `extern func @vprintf(%f: ptr, %a: ptr) -> (s32)`; a @vprintf the
 * module declared before must take two 64-bit addresses and return 32 bits. */
static void printf_decl(px_parser *P, px_loc loc)
{
	px_module *m = P->m;
	static const uint16_t params[2] = {PX_T_ptr, PX_T_ptr}, rets[1] = {PX_T_s32};
	static const uint32_t zeros[2] = {0, 0};
	px_funcsig sig = {(px_str){"vprintf", 7}, loc, false, false, PX_LINK_EXTERN, (uint16_t *)params,
	                  (uint32_t *)zeros, (uint32_t *)zeros, NULL, 2, (uint16_t *)rets, 1, 0, 0};
	uint32_t prev = px_strmap_get(&m->syms, sig.name.s, sig.name.n);
	if (prev != PX_STRMAP_NONE) {
		const px_funcsig *old = prev & 1 ? &m->funcs[prev >> 1] : NULL;
		if (!old || old->is_kernel || old->nparams != 2 || !is_address_type(old->params[0]) ||
		    !is_address_type(old->params[1]) || old->nrets != 1 || px_types[old->rets[0]].width != 32 ||
		    px_types[old->rets[0]].kind == PX_KIND_FLOAT) {
			px_error(m->diags, loc, PX_D_printf_vprintf);
			px_report(m->diags, PX_SEV_NOTE, px_sym_loc(m, prev), PX_D_previous, (int)sig.name.n, sig.name.s);
		}
		return;
	}
	px_module_add_func(m, &sig);
}

/* `printf "format", args`: the arguments go through a buffer in local memory,
 * the function's $$printf_args, as large as its largest printf needs. */
px_node *px_printf_node(px_parser *P, px_tok kw, px_tok text, px_olist args)
{
	px_arena *a = &P->m->fn_arena;
	px_func *f = P->f;
	px_node *n = px_node_new(P, PX_N_PRINTF, kw.loc);
	n->text = px_unescape(a, text);
	n->text_loc = text.loc;
	n->ops = px_olist_array(a, args);
	n->nops = args.n;
	n->label = printf_string(P, n->text, text.loc);
	printf_decl(P, kw.loc);
	px_fmt fmt;
	px_fmt_scan(&P->tmp, n->text, &fmt);
	if (!fmt.size)
		return n;
	px_str name = {PX_PRINTF_BUFFER, sizeof PX_PRINTF_BUFFER - 1};
	for (uint32_t i = 0; i < f->nlocals; i++) {
		px_local *l = &f->locals[i];
		if (l->name.n == name.n && !memcmp(l->name.s, name.s, name.n)) {
			if (fmt.size > l->count)
				l->count = fmt.size;
			if (fmt.align > l->align)
				l->align = fmt.align;
			return n;
		}
	}
	if (f->nlocals == f->cap_locals) {
		uint32_t cap = f->cap_locals ? f->cap_locals * 2 : 4;
		f->locals = px_arena_grow(a, f->locals, f->nlocals, cap, sizeof *f->locals);
		f->cap_locals = cap;
	}
	f->locals[f->nlocals++] = (px_local){.name = name, .loc = kw.loc, .type = PX_T_b8, .is_array = true,
	                                     .count = fmt.size, .align = fmt.align};
	return n;
}
