/* --emit=mir: the module as the verifier understood it, in MIR again, one
 * spelling per form (ptxemit-mir(5), "Canonical spelling"): every operation
 * with all its modifier tokens in PTX's order (the inferred type and space
 * included, the fixed tokens too), each value's type at its first
 * definition, kernel directives in their printed order, addresses as
 * [base + offset], and the dictionary only for what has no dotted token
 * (node flags, noprint slots, descriptor fields, tile layouts). Values,
 * labels, globals and functions keep their names, literals their spelling,
 * so the text translates back to the same PTX. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "front/format.h"
#include "print/print.h"
#include "verify/desc.h"
#include "verify/verify.h"

static void put_str(px_buf *out, px_str s) { px_buf_put(out, s.s, s.n); }

/* A string literal with C's escapes, as the scanner reads them back. */
static void put_quoted(px_buf *out, const char *s, size_t n)
{
	px_buf_putc(out, '"');
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '"' || c == '\\') {
			px_buf_putc(out, '\\');
			px_buf_putc(out, (char)c);
		} else if (c == '\n')
			px_buf_puts(out, "\\n");
		else if (c == '\t')
			px_buf_puts(out, "\\t");
		else if (c < 0x20 || c >= 0x7f)
			px_buf_printf(out, "\\%03o", c);
		else
			px_buf_putc(out, (char)c);
	}
	px_buf_putc(out, '"');
}

/* A number keeps its own spelling: a decimal float's digits say on which
 * side of the nearest double it lies, which rounding to f16 reads, and an
 * integer's its sign and base, which the range check reads. */
static void put_number(px_buf *out, const px_module *m, px_loc loc)
{
	const char *src = m->src;
	size_t at = px_loc_off(loc), end = at, n = m->srclen;
	if (end < n && src[end] == '-')
		end++;
	if (end + 1 < n && src[end] == '0' && (src[end + 1] == 'x' || src[end + 1] == 'X')) {
		end += 2;
		while (end < n && isxdigit((unsigned char)src[end]))
			end++;
	} else {
		while (end < n && (isdigit((unsigned char)src[end]) || src[end] == '.'))
			end++;
		size_t e = end + 1;
		if (e < n && (src[e] == '-' || src[e] == '+'))
			e++;
		if (end < n && (src[end] == 'e' || src[end] == 'E') && e < n && isdigit((unsigned char)src[e])) {
			end = e;
			while (end < n && isdigit((unsigned char)src[end]))
				end++;
		}
	}
	px_buf_put(out, src + at, end - at);
}

typedef struct mir_printer {
	px_buf *out;
	const px_module *m;
	const px_func *f;
	bool *typed; /* per value: its type was printed at an earlier definition */
	uint32_t told[8]; /* the values this statement defines first, whose space is known */
	unsigned ntold;
} mir_printer;

static void put_value(mir_printer *p, uint32_t id)
{
	px_buf_putc(p->out, '%');
	put_str(p->out, p->f->values[id].name);
}

static void put_opnd(mir_printer *p, const px_opnd *o);

static void put_list(mir_printer *p, const px_opnd *o, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		if (i)
			px_buf_puts(p->out, ", ");
		put_opnd(p, &o[i]);
	}
}

static void put_opnd(mir_printer *p, const px_opnd *o)
{
	px_buf *out = p->out;
	switch ((enum px_okind)o->kind) {
	case PX_O_NONE:
		break;
	case PX_O_VALUE:
		if (o->neg)
			px_buf_putc(out, '!');
		put_value(p, o->id);
		if (o->elem >= 0)
			px_buf_printf(out, "[%d]", o->elem);
		break;
	case PX_O_INT:
	case PX_O_FLOAT:
		put_number(out, p->m, o->loc);
		break;
	case PX_O_FBITS:
		if (o->fwidth == 32)
			px_buf_printf(out, "0f%08llX", (unsigned long long)o->bits);
		else
			px_buf_printf(out, "0d%016llX", (unsigned long long)o->bits);
		break;
	case PX_O_SREG:
		px_buf_puts(out, px_sregs[o->id].name);
		break;
	case PX_O_SYM:
		px_buf_putc(out, '@');
		put_str(out, o->sym);
		break;
	case PX_O_LABEL:
		px_buf_putc(out, '^');
		put_str(out, p->f->labels[o->id].name);
		break;
	case PX_O_ADDR: {
		px_buf_putc(out, '[');
		put_opnd(p, o->base);
		const px_opnd *idx = px_addr_idx(o);
		if (idx) {
			px_buf_puts(out, ", ");
			put_opnd(p, idx);
		} else if (o->off) {
			uint64_t mag = o->off < 0 ? -(uint64_t)o->off : (uint64_t)o->off;
			px_buf_printf(out, " %c %llu", o->off < 0 ? '-' : '+', (unsigned long long)mag);
		}
		px_buf_putc(out, ']');
		break;
	}
	case PX_O_GROUP:
		px_buf_putc(out, '(');
		put_list(p, o->elems, o->nelems);
		px_buf_putc(out, ')');
		break;
	case PX_O_DISCARD:
		px_buf_putc(out, '_');
		break;
	}
}

/* A result, with its type where the value is first defined. */
static void put_result(mir_printer *p, const px_opnd *r)
{
	if (r->kind != PX_O_VALUE || r->elem >= 0 || p->typed[r->id]) {
		put_opnd(p, r);
		return;
	}
	const px_value *v = &p->f->values[r->id];
	put_value(p, r->id);
	px_buf_printf(p->out, ":%s", px_types[v->type].name);
	if (v->count)
		px_buf_printf(p->out, "[%u]", v->count);
	p->typed[r->id] = true;
	char what[80];
	if (p->ntold < sizeof p->told / sizeof *p->told && px_space_tag_text(what, sizeof what, v->aspace))
		p->told[p->ntold++] = r->id;
}

static void put_results(mir_printer *p, const px_node *n)
{
	for (uint32_t i = 0; i < n->nres; i++) {
		if (i)
			px_buf_puts(p->out, n->res[i].pair ? " | " : ", ");
		put_result(p, &n->res[i]);
	}
}

static void put_types(px_buf *out, const uint16_t *t, uint32_t n)
{
	px_buf_putc(out, '(');
	for (uint32_t i = 0; i < n; i++)
		px_buf_printf(out, "%s%s", i ? ", " : "", px_types[t[i]].name);
	px_buf_putc(out, ')');
}

static bool str_is(px_str s, const char *z) { return strlen(z) == s.n && !memcmp(s.s, z, s.n); }

/* A tile copy's layout, written as (sizes):(strides): the family reads the
 * text itself, and it fills the slot of its name. */
static bool is_layout(const px_prop *pr) { return pr->val.n && pr->val.s[0] == '('; }

static bool layout_prop(const px_node *n, const char *key)
{
	const px_prop *pr = px_node_prop(n, key);
	return pr && is_layout(pr);
}

/* What has no dotted token: node flags, noprint slots, the fields a
 * descriptor builder reads and a tile copy's layouts, as written. */
static void put_dict(mir_printer *p, const px_node *n)
{
	px_buf *out = p->out;
	const char *sep = " {";
	for (unsigned i = 0; i < px_nnode_flags; i++) {
		const px_flag_def *fl = &px_node_flags[i];
		uint32_t field = n->flags & fl->bit;
		if (!field)
			continue;
		px_buf_printf(out, "%s%s", sep, fl->name);
		if (fl->bits > 1)
			px_buf_printf(out, " = %llu", 1ull << (field >> fl->shift));
		sep = ", ";
	}
	for (unsigned i = 0; i < n->op->nslots; i++) {
		const px_slot_def *s = &n->op->slots[i];
		if (!n->slot[i] || !(s->flags & PX_SLOT_NOPRINT) || layout_prop(n, s->name))
			continue;
		const char *tok = px_tok_names[n->slot[i]];
		if (!strcmp(tok, s->name))
			px_buf_printf(out, "%s%s", sep, s->name);
		else
			px_buf_printf(out, "%s%s = %s", sep, s->name, tok);
		sep = ", ";
	}
	for (uint32_t i = 0; i < n->nprops; i++) {
		const px_prop *pr = &n->props[i];
		if (!is_layout(pr) && !px_desc_is_field(n, pr->key))
			continue;
		px_buf_printf(out, "%s%.*s", sep, (int)pr->key.n, pr->key.s);
		if (pr->val.n)
			px_buf_printf(out, " = %.*s", (int)pr->val.n, pr->val.s);
		sep = ", ";
	}
	if (sep[0] == ',')
		px_buf_putc(out, '}');
}

/* The type of the value an inferred slot was read from, or 0. */
static unsigned inferred_from(const mir_printer *p, const px_node *n, const px_slot_def *s)
{
	for (unsigned k = 0; k < 4 && s->infer[k] != PX_SRC_END; k++) {
		int src = s->infer[k];
		const px_opnd *o = src >= PX_SRC_OPERAND ? (uint32_t)(src - PX_SRC_OPERAND) < n->nops ? &n->ops[src - PX_SRC_OPERAND] : NULL
		                                         : (uint32_t)src < n->nres ? &n->res[src] : NULL;
		if (o && o->kind == PX_O_VALUE)
			return p->f->values[o->id].type;
	}
	return 0;
}

/* An inferred type is printed where it is the value's own; one PTX spells
 * otherwise (mov.b16 for an f16) is left to inference again, since MIR reads
 * a literal by the written type (a float is no b16). */
static bool shows_slot(const mir_printer *p, const px_node *n, unsigned i)
{
	const px_slot_def *s = &n->op->slots[i];
	if (!n->slot[i] || (s->flags & PX_SLOT_NOPRINT))
		return false;
	if (!(s->flags & PX_SLOT_TYPE) || !(n->inferred & (1u << i)))
		return true;
	unsigned t = inferred_from(p, n, s);
	return !t || px_types[t].token == n->slot[i];
}

static void put_inst(mir_printer *p, const px_node *n)
{
	px_buf *out = p->out;
	if (n->nres) {
		put_results(p, n);
		px_buf_puts(out, " = ");
	}
	px_buf_puts(out, n->op->name);
	for (unsigned i = 0; i < n->op->nslots; i++)
		if (shows_slot(p, n, i))
			px_buf_printf(out, ".%s", px_tok_names[n->slot[i]]);
	if (n->nops)
		px_buf_putc(out, ' ');
	put_list(p, n->ops, n->nops);
	put_dict(p, n);
}

static void put_call(mir_printer *p, const px_node *n)
{
	px_buf *out = p->out;
	if (n->nres) {
		put_results(p, n);
		px_buf_puts(out, " = ");
	}
	px_buf_puts(out, "call ");
	if (n->icall)
		put_opnd(p, &n->icall->target);
	else {
		px_buf_putc(out, '@');
		put_str(out, n->callee);
	}
	px_buf_putc(out, '(');
	put_list(p, n->ops, n->nops);
	px_buf_putc(out, ')');
	if (n->icall) {
		const px_funcsig *s = n->icall->proto;
		px_buf_puts(out, " : ");
		put_types(out, s->params, s->nparams);
		if (s->nrets) {
			px_buf_puts(out, " -> ");
			put_types(out, s->rets, s->nrets);
		}
	}
}

static void put_node(mir_printer *p, const px_node *n)
{
	px_buf *out = p->out;
	if (n->kind == PX_N_LABEL) {
		px_buf_putc(out, '^');
		put_str(out, p->f->labels[n->label].name);
		px_buf_puts(out, ":\n");
		return;
	}
	px_buf_puts(out, "  ");
	if (n->has_guard) {
		px_buf_puts(out, n->guard_neg ? "@!" : "@");
		put_value(p, n->guard);
		px_buf_putc(out, ' ');
	}
	switch ((enum px_nkind)n->kind) {
	case PX_N_INST:
		put_inst(p, n);
		break;
	case PX_N_CALL:
		put_call(p, n);
		break;
	case PX_N_RET:
		px_buf_puts(out, n->nops ? "ret " : "ret");
		if (n->nops > 1)
			px_buf_putc(out, '(');
		put_list(p, n->ops, n->nops);
		if (n->nops > 1)
			px_buf_putc(out, ')');
		break;
	case PX_N_ASM:
		px_buf_puts(out, "asm ");
		put_quoted(out, n->text.s, n->text.n);
		px_buf_puts(out, " (");
		put_results(p, n);
		px_buf_puts(out, ") (");
		put_list(p, n->ops, n->nops);
		px_buf_putc(out, ')');
		break;
	case PX_N_PRINTF:
		px_buf_puts(out, "printf ");
		put_quoted(out, n->text.s, n->text.n);
		if (n->nops)
			px_buf_puts(out, ", ");
		put_list(p, n->ops, n->nops);
		break;
	case PX_N_LABEL:
		break;
	}
	/* the space the verifier knows an address in, which no token says */
	for (unsigned i = 0; i < p->ntold; i++) {
		char what[80];
		const px_value *v = &p->f->values[p->told[i]];
		px_buf_puts(out, i ? ", " : " ; ");
		put_value(p, p->told[i]);
		px_buf_printf(out, " is %s", px_space_tag_text(what, sizeof what, v->aspace));
	}
	p->ntold = 0;
	px_buf_putc(out, '\n');
}

/* A loc statement wherever the place in force changes. */
static void put_place(mir_printer *p, const px_node *n, px_dloc *cur)
{
	px_dloc d = n->dloc ? p->f->dlocs[n->dloc - 1] : (px_dloc){0, 0, 0};
	if (d.file == cur->file && d.line == cur->line && d.col == cur->col)
		return;
	*cur = d;
	if (!d.file) {
		px_buf_puts(p->out, "  loc off\n");
		return;
	}
	const px_str *name = &p->m->locfiles[d.file - 1];
	px_buf_puts(p->out, "  loc ");
	put_quoted(p->out, name->s, name->n);
	px_buf_printf(p->out, " %u", d.line);
	if (d.col)
		px_buf_printf(p->out, ":%u", d.col);
	px_buf_putc(p->out, '\n');
}

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

static void put_param(mir_printer *p, const px_param *pa)
{
	px_buf *out = p->out;
	put_value(p, pa->value);
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
	mir_printer p = {.out = out, .m = m, .f = f, .typed = calloc(f->nvalues + 1, sizeof(bool))};
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
	for (const px_node *n = f->first; n; n = n->next) {
		put_place(&p, n, &cur);
		put_node(&p, n);
	}
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
		put_number(out, m, o->loc);
		break;
	case PX_O_FBITS:
		if (o->fwidth == 32)
			px_buf_printf(out, "0f%08llX", (unsigned long long)o->bits);
		else
			px_buf_printf(out, "0d%016llX", (unsigned long long)o->bits);
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
		put_quoted(out, bytes, g->ninit ? g->ninit - 1 : 0);
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
