/* Building the module IR (front/ir.h): the module's lifetime and the per-function
 * value and label tables the parser fills. */
#include "front/ir.h"
#include "diag/diag.h"
#include "tables/tables.h"
#include "util/huge.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const uint16_t px_no_slots[PX_MAX_SLOTS];

void px_module_init(px_module *m, const char *filename, const char *src, size_t len, struct px_diags *d)
{
	memset(m, 0, sizeof *m);
	m->filename = filename;
	m->src = src;
	m->srclen = len;
	m->diags = d;
	px_arena_init(&m->arena);
	px_arena_init(&m->fn_arena);
	px_strmap_init(&m->syms);
	px_lines_init(&m->line_index, src, len);
	m->lines = &m->line_index;
	/* one index of the text for the module and its messages */
	if (d && d->src == src && d->len == len) {
		d->lines = &m->line_index;
		d->dsl = &m->dsl;
	}
}

void px_module_free(px_module *m)
{
	px_strmap_free(&m->syms);
	px_lines_free(&m->line_index);
	px_dslmap_free(&m->dsl);
	px_arena_free(&m->fn_arena);
	px_arena_free(&m->arena);
	px_huge_free(m->value_buf, (size_t)m->value_cap * sizeof *m->value_buf);
	m->value_buf = NULL;
	m->value_cap = 0;
	m->globals = NULL;
	m->funcs = NULL;
	m->nglobals = m->cap_globals = m->nfuncs = m->cap_funcs = 0;
}

uint32_t px_func_value(px_module *m, px_func *f, px_str name)
{
	/* put returns the id a name already has: one hash for old and new names */
	uint32_t id = px_valmap_put(&f->value_ids, f->values, name.s, name.n, f->nvalues);
	if (id != f->nvalues)
		return id;
	if (f->nvalues == f->cap_values) {
		/* One table for every function of the module: a big one is moved by
		 * remapping its pages, not copied, and a small function after it
		 * reuses it as it is. */
		if (m->value_cap <= f->nvalues) {
			size_t cap = m->value_cap ? (size_t)m->value_cap * 2 : 64;
			px_value *nv = px_huge_grow(m->value_buf, (size_t)m->value_cap * sizeof *nv, cap * sizeof *nv);
			m->value_buf = nv;
			m->value_cap = (uint32_t)cap;
		}
		f->values = m->value_buf;
		f->cap_values = m->value_cap;
	}
	f->nvalues++;
	px_value *v = &f->values[id];
	memset(v, 0, sizeof *v);
	v->name = name;
	return id;
}

uint32_t px_func_label(px_module *m, px_func *f, px_str name)
{
	uint32_t id = px_strmap_get(&f->label_ids, name.s, name.n);
	if (id != PX_STRMAP_NONE)
		return id;
	if (f->nlabels == f->cap_labels) {
		uint32_t cap = f->cap_labels ? f->cap_labels * 2 : 16;
		f->labels = px_arena_grow(&m->fn_arena, f->labels, f->nlabels, cap, sizeof *f->labels);
		f->cap_labels = cap;
	}
	id = f->nlabels++;
	px_label *l = &f->labels[id];
	memset(l, 0, sizeof *l);
	l->name = name;
	px_strmap_put(&f->label_ids, name.s, name.n, id);
	return id;
}

void px_func_append(px_func *f, px_node *n)
{
	n->next = NULL;
	if (f->last)
		f->last->next = n;
	else
		f->first = n;
	f->last = n;
	f->nnodes++;
	f->ncalls += n->kind == PX_N_CALL || n->kind == PX_N_PRINTF; /* printf calls vprintf */
	uint32_t args = n->kind == PX_N_CALL ? n->nops : n->kind == PX_N_PRINTF ? 2 : 0;
	if (args > f->widest_call)
		f->widest_call = args;
}

uint32_t px_module_sym(const px_module *m, px_str name)
{
	const px_module *owner = m->live ? m->live : m; /* a view reads its module's */
	const px_symtab *t = owner->symtab;
	uint32_t e = t ? t->get(t->ctx, &owner->syms, name) : px_strmap_get(&owner->syms, name.s, name.n);
	/* registered after the view was made: not there yet. A name keeps its
	 * entry once registered (the parser quiesces before taking one back). */
	if (m->live && e != PX_STRMAP_NONE && (e >> 1) >= (e & 1 ? m->nfuncs : m->nglobals))
		return PX_STRMAP_NONE;
	return e;
}

void px_module_sym_put(px_module *m, px_str name, uint32_t entry)
{
	if (m->symtab)
		m->symtab->put(m->symtab->ctx, &m->syms, name, entry);
	else
		px_strmap_put(&m->syms, name.s, name.n, entry);
}

void px_module_sym_remove(px_module *m, px_str name)
{
	if (m->symtab)
		m->symtab->remove(m->symtab->ctx, &m->syms, name);
	else
		px_strmap_remove(&m->syms, name.s, name.n);
}

uint32_t px_module_add_func(px_module *m, const px_funcsig *sig)
{
	if (m->nfuncs == m->cap_funcs) {
		uint32_t cap = m->cap_funcs ? m->cap_funcs * 2 : 16;
		m->funcs = px_arena_grow(&m->arena, m->funcs, m->nfuncs, cap, sizeof *m->funcs);
		m->cap_funcs = cap;
	}
	m->funcs[m->nfuncs] = *sig;
	px_module_sym_put(m, sig->name, m->nfuncs << 1 | 1);
	return m->nfuncs++;
}

uint32_t px_module_add_global(px_module *m, const px_global *g)
{
	if (m->nglobals == m->cap_globals) {
		uint32_t cap = m->cap_globals ? m->cap_globals * 2 : 16;
		m->globals = px_arena_grow(&m->arena, m->globals, m->nglobals, cap, sizeof *m->globals);
		m->cap_globals = cap;
	}
	m->globals[m->nglobals] = *g;
	px_module_sym_put(m, g->name, m->nglobals << 1);
	return m->nglobals++;
}

void px_module_quiesce(px_module *m)
{
	if (m->symtab)
		m->symtab->quiesce(m->symtab->ctx);
}

void px_module_view(px_module *view, const px_module *m)
{
	memset(view, 0, sizeof *view);
	view->filename = m->filename;
	view->src = m->src;
	view->srclen = m->srclen;
	view->target = m->target;
	view->target_written = m->target_written;
	view->target_loc = m->target_loc;
	view->ptx = m->ptx;
	view->ptx_loc = m->ptx_loc;
	/* an array's first n entries stay where they are when it grows (the old
	 * copy lives in the arena), and are not written again before a quiesce */
	view->globals = m->globals;
	view->nglobals = view->cap_globals = m->nglobals;
	view->funcs = m->funcs;
	view->nfuncs = view->cap_funcs = m->nfuncs;
	view->locfiles = m->locfiles;
	view->nlocfiles = view->cap_locfiles = m->nlocfiles;
	view->live = m;
	view->lines = m->lines;
}

px_linecol px_module_linecol(const px_module *m, px_loc loc)
{
	return px_lines_find(m->lines, loc);
}

unsigned px_module_line(const px_module *m, px_loc loc) { return px_module_linecol(m, loc).line; }

const px_local *px_func_local(const px_func *f, px_str name)
{
	for (uint32_t i = 0; f && i < f->nlocals; i++)
		if (f->locals[i].name.n == name.n && memcmp(f->locals[i].name.s, name.s, name.n) == 0)
			return &f->locals[i];
	return NULL;
}

const px_prop *px_node_prop(const px_node *n, const char *key)
{
	for (uint32_t i = 0; i < n->nprops; i++)
		if (n->props[i].key.n == strlen(key) && !memcmp(n->props[i].key.s, key, n->props[i].key.n))
			return &n->props[i];
	return NULL;
}

void px_node_name(const px_node *n, char *buf, size_t size)
{
	size_t len = (size_t)snprintf(buf, size, "%s", n->op->name);
	for (unsigned i = 0; i < n->op->nslots && len < size; i++) {
		if (!n->slot[i] || (n->op->slots[i].flags & PX_SLOT_NOPRINT))
			continue;
		len += (size_t)snprintf(buf + len, size - len, ".%s", px_tok_names[n->slot[i]]);
	}
}
