/* What an address is known to be a multiple of (verify/align.h). */
#include "verify/align.h"

#include "tables/tables.h"

uint32_t px_symbol_align(const px_global *g)
{
	unsigned size = px_types[g->type].width / 8;
	return g->align ? g->align : size ? size : 1;
}

const px_global *px_global_named(const px_module *m, px_str name)
{
	uint32_t e = px_module_sym(m, name);
	return e == PX_STRMAP_NONE || (e & 1) ? NULL : &m->globals[e >> 1];
}

/* A constant's: its lowest set bit (0 is a multiple of anything). */
static uint32_t low_bit(int64_t c) { return c ? (uint32_t)((uint64_t)c & -(uint64_t)c) : 1u << 30; }

uint32_t px_value_align(const px_module *m, const px_func *f, uint32_t id, px_defs_fn *defs, const void *ctx,
                        unsigned depth)
{
	const px_value *val = &f->values[id];
	if (val->count)
		return 0;
	const px_node *d = NULL;
	unsigned n = defs(ctx, id, &d);
	if (val->param)
		return n || val->param_index >= f->nparams ? 0 : f->params[val->param_index].align;
	if (n != 1 || d->kind != PX_N_INST)
		return 0;
	unsigned lg = (d->flags & PX_NF_align) >> PX_NF_align_SHIFT;
	if (lg)
		return 1u << lg;
	if (d->op == &px_ops[PX_OP_mov] && d->nops == 1 && d->ops[0].kind == PX_O_SYM) {
		const px_global *g = px_global_named(m, d->ops[0].sym);
		return g ? px_symbol_align(g) : 0;
	}
	if (!depth || d->op != &px_ops[PX_OP_add] || d->nops != 2)
		return 0;
	uint32_t a = 1u << 30;
	for (unsigned i = 0; i < 2; i++) {
		const px_opnd *o = &d->ops[i];
		uint32_t x = o->kind == PX_O_INT                      ? low_bit(o->ival)
		             : o->kind == PX_O_VALUE && o->elem < 0 ? px_value_align(m, f, o->id, defs, ctx, depth - 1)
		                                                      : 0;
		if (!x)
			return 0;
		a = x < a ? x : a;
	}
	return a;
}
