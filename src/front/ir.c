/* Building the module IR (front/ir.h): the module's lifetime and the per-function
 * value and label tables the parser fills. */
#include "front/ir.h"

#include <stdlib.h>
#include <string.h>

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
}

void px_module_free(px_module *m)
{
	px_strmap_free(&m->syms);
	px_arena_free(&m->fn_arena);
	px_arena_free(&m->arena);
	free(m->value_buf);
	m->value_buf = NULL;
	m->value_cap = 0;
	m->globals = NULL;
	m->funcs = NULL;
	m->nglobals = m->cap_globals = m->nfuncs = m->cap_funcs = 0;
}

uint32_t px_func_value(px_module *m, px_func *f, px_str name)
{
	/* put returns the id a name already has: one hash for old and new names */
	uint32_t id = px_strmap_put(&f->value_ids, name.s, name.n, f->nvalues);
	if (id != f->nvalues)
		return id;
	if (f->nvalues == f->cap_values) {
		/* One table for every function of the module, grown by realloc: a
		 * big one is moved by remapping its pages, not copied, and a small
		 * function after it reuses it as it is. */
		if (m->value_cap <= f->nvalues) {
			size_t cap = m->value_cap ? (size_t)m->value_cap * 2 : 64;
			px_value *nv = realloc(m->value_buf, cap * sizeof *nv);
			if (!nv)
				abort(); /* out of memory */
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
}

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
