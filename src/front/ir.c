/* Building the module IR (front/ir.h): the module's lifetime and the per-function
 * value and label tables the parser fills. */
#include "front/ir.h"

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
		/* Doubling in the arena wastes the old copies, at most as much again. */
		uint32_t cap = f->cap_values ? f->cap_values * 2 : 32;
		f->values = px_arena_grow(&m->fn_arena, f->values, f->nvalues, cap, sizeof *f->values);
		f->cap_values = cap;
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
