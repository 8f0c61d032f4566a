/* --emit=mir: the module as the verifier understood it, in MIR again, one
 * spelling per form (ptxemit-mir(5), "Canonical spelling"): every operation
 * with all its modifier tokens in PTX's order (the inferred type included,
 * the fixed tokens too), each value's type at its first definition, with a
 * comment naming the space of an address the verifier knows, kernel
 * directives in their printed order, addresses as [base + offset], and the
 * dictionary only for what has no dotted token (node flags, noprint slots,
 * descriptor fields, tile layouts). Values, labels, globals and functions
 * keep their names, literals their spelling, so the text translates back to
 * the same PTX. This file prints the module's
 * items; print/mir_stmt.c a function's statements. */
#include <stdlib.h>
#include <string.h>

#include "front/format.h"
#include "print/mir.h"

static void put_str(px_buf *out, px_str s) { px_buf_put(out, s.s, s.n); }

static const char *linkage_kw(uint8_t linkage)
{
	switch (linkage) {
	case PX_LINK_EXTERN:
		return "extern ";
	case PX_LINK_WEAK:
		return "weak ";
	case PX_LINK_INTERNAL:
		return "internal ";
	default:
		return "";
	}
}

static void put_align(px_buf *out, uint32_t align)
{
	if (align)
		px_buf_printf(out, " align %u", align);
}

static void put_rets(px_buf *out, const uint16_t *rets, uint32_t nrets, uint32_t size, uint32_t align)
{
	if (!nrets)
		return;
	px_buf_puts(out, " -> (");
	for (uint32_t i = 0; i < nrets; i++) {
		if (i)
			px_buf_puts(out, ", ");
		if (rets[i] == PX_T_none) {
			px_buf_printf(out, "b8[%u]", size);
			put_align(out, align);
		} else
			px_buf_puts(out, px_types[rets[i]].name);
	}
	px_buf_putc(out, ')');
}

static void put_param(px_mir_printer *p, const px_param *pa)
{
	px_buf *out = p->out;
	px_mir_value(p, pa->value);
	px_buf_puts(out, ": ");
	if (pa->kind == PX_PARAM_AGG) {
		px_buf_printf(out, "b8[%u]", pa->size);
	} else {
		px_buf_puts(out, px_types[pa->type].name);
		if (pa->space)
			px_buf_printf(out, " %s", px_tok_names[pa->space]);
	}
	put_align(out, pa->align);
	p->typed[pa->value] = true;
}

static void put_props(px_buf *out, const px_prop *pr, uint32_t n)
{
	px_buf_putc(out, '{');
	for (uint32_t i = 0; i < n; i++) {
		px_buf_printf(out, "%s%.*s", i ? ", " : "", (int)pr[i].key.n, pr[i].key.s);
		if (pr[i].val.n)
			px_buf_printf(out, " = %.*s", (int)pr[i].val.n, pr[i].val.s);
	}
	px_buf_putc(out, '}');
}

void px_print_mir_func(px_buf *out, const px_module *m, const px_func *f)
{
	px_mir_printer p = {.out = out, .m = m, .f = f, .typed = calloc(f->nvalues + 1, sizeof(bool))};
	if (!p.typed)
		abort();
	px_buf_printf(out, "%s%s @", linkage_kw(f->linkage), f->is_kernel ? "kernel" : "func");
	put_str(out, f->name);
	px_buf_putc(out, '(');
	for (uint32_t i = 0; i < f->nparams; i++) {
		if (i)
			px_buf_puts(out, ", ");
		put_param(&p, &f->params[i]);
	}
	px_buf_putc(out, ')');
	put_rets(out, f->rets, f->nrets, f->ret_size, f->ret_align);
	for (unsigned d = 0; d < px_ndirectives; d++) {
		const px_dirval *dv = &f->dirs[d];
		if (!dv->present)
			continue;
		px_buf_printf(out, " %s", px_directives[d].name);
		if (!px_directives[d].max_args)
			continue;
		for (unsigned i = 0; i < dv->nargs; i++)
			px_buf_printf(out, "%c%u", i ? ',' : '(', dv->args[i]);
		px_buf_putc(out, ')');
	}
	if (f->nattrs) {
		px_buf_puts(out, " attrs ");
		put_props(out, f->attrs, f->nattrs);
	}
	px_buf_puts(out, " {\n");
	for (uint32_t i = 0; i < f->nlocals; i++) {
		const px_local *l = &f->locals[i];
		if (l->name.n && l->name.s[0] == '$')
			continue; /* a printf's buffer: the printf makes it again */
		px_buf_puts(out, "  local @");
		put_str(out, l->name);
		px_buf_printf(out, " : %s", px_types[l->type].name);
		if (l->is_array)
			px_buf_printf(out, "[%llu]", (unsigned long long)l->count);
		put_align(out, l->align);
		px_buf_putc(out, '\n');
	}
	px_dloc cur = {0, 0, 0};
	for (const px_node *n = f->first; n; n = n->next)
		px_mir_stmt(&p, n, &cur);
	px_buf_puts(out, "}\n\n");
	free(p.typed);
}

void px_print_mir_decl(px_buf *out, const px_funcsig *s)
{
	px_buf_puts(out, "extern func @");
	put_str(out, s->name);
	px_buf_putc(out, '(');
	for (uint32_t i = 0; i < s->nparams; i++) {
		px_buf_printf(out, "%s%%%u: ", i ? ", " : "", i);
		if (s->param_sizes[i]) {
			px_buf_printf(out, "b8[%u]", s->param_sizes[i]);
			put_align(out, s->param_aligns[i]);
		} else
			px_buf_puts(out, px_types[s->params[i]].name);
	}
	px_buf_putc(out, ')');
	put_rets(out, s->rets, s->nrets, s->ret_size, s->ret_align);
	px_buf_puts(out, "\n\n");
}

static void put_literal(px_buf *out, const px_module *m, const px_opnd *o)
{
	switch (o->kind) {
	case PX_O_INT:
	case PX_O_FLOAT:
	case PX_O_FBITS:
		px_mir_number(out, m, o->loc);
		break;
	case PX_O_SYM:
		px_buf_putc(out, '@');
		put_str(out, o->sym);
		break;
	case PX_O_GROUP:
		px_buf_putc(out, '(');
		for (uint32_t i = 0; i < o->nelems; i++) {
			if (i)
				px_buf_puts(out, ", ");
			put_literal(out, m, &o->elems[i]);
		}
		px_buf_putc(out, ')');
		break;
	}
}

static const char *const space_kw[] = {[PX_SPACE_GLOBAL] = "global", [PX_SPACE_CONST] = "const",
                                       [PX_SPACE_SHARED] = "shared"};

void px_print_mir_global(px_buf *out, const px_module *m, const px_global *g)
{
	/* a printf's format string is the printf's own: it makes it again */
	if (px_printf_string_k(g->name, NULL))
		return;
	px_buf_printf(out, "%s%s @", linkage_kw(g->linkage), space_kw[g->space]);
	put_str(out, g->name);
	px_buf_printf(out, " : %s", g->handle ? px_tok_names[g->handle] : px_types[g->type].name);
	if (g->unsized)
		px_buf_puts(out, "[]");
	else if (g->is_array)
		px_buf_printf(out, "[%llu]", (unsigned long long)g->count);
	put_align(out, g->align);
	if (g->init_is_string) {
		char *bytes = malloc(g->ninit + 1);
		if (!bytes)
			abort();
		for (uint32_t i = 0; i + 1 < g->ninit; i++)
			bytes[i] = (char)g->init[i].ival;
		px_buf_puts(out, " = ");
		px_mir_quoted(out, bytes, g->ninit ? g->ninit - 1 : 0);
		free(bytes);
	} else if (g->init) {
		px_buf_puts(out, g->init_is_list ? " = [" : " = ");
		for (uint32_t i = 0; i < g->ninit; i++) {
			if (i)
				px_buf_puts(out, ", ");
			put_literal(out, m, &g->init[i]);
		}
		if (g->init_is_list)
			px_buf_putc(out, ']');
	}
	px_buf_puts(out, "\n\n");
}

void px_print_mir_target(px_buf *out, const px_module *m)
{
	if (!m->target.n)
		return;
	px_buf_puts(out, "target ");
	put_str(out, m->target);
	if (m->ptx)
		px_buf_printf(out, " ptx %u.%u", m->ptx / 10, m->ptx % 10);
	px_buf_puts(out, "\n\n");
}

