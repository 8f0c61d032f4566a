/* --emit=mir's statements: an operation with its tokens and dictionary,
 * a call, a return, inline PTX, a printf, a label, and a loc statement where
 * the place in force changes; their operands and results. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "print/mir.h"
#include "verify/desc.h"
#include "verify/verify.h"

static void put_str(px_buf *out, px_str s) { px_buf_put(out, s.s, s.n); }

/* A string literal with C's escapes, as the scanner reads them back. */
void px_mir_quoted(px_buf *out, const char *s, size_t n)
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
void px_mir_number(px_buf *out, const px_module *m, px_loc loc)
{
	const char *src = m->src;
	size_t at = px_loc_off(loc), end = at, n = m->srclen;
	if (end < n && src[end] == '-')
		end++;
	char x = end + 1 < n && src[end] == '0' ? src[end + 1] : 0;
	if (end < n && isalpha((unsigned char)src[end])) { /* inf, nan */
		while (end < n && isalpha((unsigned char)src[end]))
			end++;
	} else if (x == 'x' || x == 'X' || x == 'f' || x == 'F' || x == 'd' || x == 'D') { /* hex, 0f, 0d */
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

void px_mir_value(px_mir_printer *p, uint32_t id)
{
	px_buf_putc(p->out, '%');
	put_str(p->out, p->f->values[id].name);
}

static void put_opnd(px_mir_printer *p, const px_opnd *o);

static void put_list(px_mir_printer *p, const px_opnd *o, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		if (i)
			px_buf_puts(p->out, ", ");
		put_opnd(p, &o[i]);
	}
}

static void put_opnd(px_mir_printer *p, const px_opnd *o)
{
	px_buf *out = p->out;
	switch ((enum px_okind)o->kind) {
	case PX_O_NONE:
		break;
	case PX_O_VALUE:
		if (o->neg)
			px_buf_putc(out, '!');
		px_mir_value(p, o->id);
		if (o->elem >= 0)
			px_buf_printf(out, "[%d]", o->elem);
		break;
	case PX_O_INT:
	case PX_O_FLOAT:
	case PX_O_FBITS:
		px_mir_number(out, p->m, o->loc);
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
static void put_result(px_mir_printer *p, const px_opnd *r)
{
	if (r->kind != PX_O_VALUE || r->elem >= 0 || p->typed[r->id]) {
		put_opnd(p, r);
		return;
	}
	const px_value *v = &p->f->values[r->id];
	px_mir_value(p, r->id);
	px_buf_printf(p->out, ":%s", px_types[v->type].name);
	if (v->count)
		px_buf_printf(p->out, "[%u]", v->count);
	p->typed[r->id] = true;
	char what[80];
	if (p->ntold < sizeof p->told / sizeof *p->told && px_space_tag_text(what, sizeof what, v->aspace))
		p->told[p->ntold++] = r->id;
}

static void put_results(px_mir_printer *p, const px_node *n)
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
static void put_dict(px_mir_printer *p, const px_node *n)
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

/* Every filled slot is printed, an inferred type too: one PTX spells
 * otherwise (mov.b16 for an f16) reads a decimal by its value's type as the
 * inferred one does, and a type left to inference again could take another
 * type slot's written token (slct.b16.s32 printed slct.s32). */
static bool shows_slot(const px_node *n, unsigned i)
{
	return n->slot[i] && !(n->op->slots[i].flags & PX_SLOT_NOPRINT);
}

static void put_inst(px_mir_printer *p, const px_node *n)
{
	px_buf *out = p->out;
	if (n->nres) {
		put_results(p, n);
		px_buf_puts(out, " = ");
	}
	px_buf_puts(out, n->op->name);
	for (unsigned i = 0; i < n->op->nslots; i++)
		if (shows_slot(n, i))
			px_buf_printf(out, ".%s", px_tok_names[n->slot[i]]);
	if (n->nops)
		px_buf_putc(out, ' ');
	put_list(p, n->ops, n->nops);
	put_dict(p, n);
}

static void put_call(px_mir_printer *p, const px_node *n)
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

static void put_node(px_mir_printer *p, const px_node *n)
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
		px_mir_value(p, n->guard);
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
	{
		/* one lane literal is a group too: ((0.5, -1.0)), not two results */
		bool wrap = n->nops > 1 || (n->nops == 1 && n->ops[0].kind == PX_O_GROUP);
		px_buf_puts(out, n->nops ? "ret " : "ret");
		if (wrap)
			px_buf_putc(out, '(');
		put_list(p, n->ops, n->nops);
		if (wrap)
			px_buf_putc(out, ')');
	}
		break;
	case PX_N_ASM:
		px_buf_puts(out, "asm ");
		px_mir_quoted(out, n->text.s, n->text.n);
		px_buf_puts(out, " (");
		put_results(p, n);
		px_buf_puts(out, ") (");
		put_list(p, n->ops, n->nops);
		px_buf_putc(out, ')');
		break;
	case PX_N_PRINTF:
		px_buf_puts(out, "printf ");
		px_mir_quoted(out, n->text.s, n->text.n);
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
		px_mir_value(p, p->told[i]);
		px_buf_printf(out, " is %s", px_space_tag_text(what, sizeof what, v->aspace));
	}
	p->ntold = 0;
	px_buf_putc(out, '\n');
}

/* A loc statement wherever the place in force changes. */
static void put_place(px_mir_printer *p, const px_node *n, px_dloc *cur)
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
	px_mir_quoted(p->out, name->s, name->n);
	px_buf_printf(p->out, " %u", d.line);
	if (d.col)
		px_buf_printf(p->out, ":%u", d.col);
	px_buf_putc(p->out, '\n');
}

void px_mir_stmt(px_mir_printer *p, const px_node *n, px_dloc *cur)
{
	put_place(p, n, cur);
	put_node(p, n);
}
