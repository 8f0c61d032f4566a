/* Values that point into shared module variables (see points.h): a
 * flow-insensitive meet over every definition, to a fixed point. */
#include "verify/analysis/points.h"

#include <stdlib.h>

enum { CONFLICT = UINT32_MAX, ROUNDS = 8 };

static uint32_t shared_global(const px_points *p, px_str name)
{
	if (px_func_local(p->f, name))
		return 0;
	uint32_t e = px_module_sym(p->v->m, name);
	if (e == PX_STRMAP_NONE || (e & 1) || (e >> 1) >= p->v->m->nglobals)
		return 0;
	return p->v->m->globals[e >> 1].space == PX_SPACE_SHARED ? (e >> 1) + 1 : 0;
}

uint32_t px_points_of(const px_points *p, const px_opnd *o)
{
	if (o->kind == PX_O_SYM)
		return shared_global(p, o->sym);
	if (o->kind == PX_O_VALUE && o->elem < 0)
		return p->pt[o->id] == CONFLICT ? 0 : p->pt[o->id];
	return 0;
}

uint32_t px_points_target(const px_points *p, const px_opnd *o)
{
	return o->kind == PX_O_ADDR && !px_addr_idx(o) ? px_points_of(p, o->base) : 0;
}

/* The global n's single result points into, or 0. */
static uint32_t defined_from(const px_points *p, const px_node *n)
{
	const px_op_def *op = n->op;
	if ((op == &px_ops[PX_OP_mov] || op == &px_ops[PX_OP_cvt] || op == &px_ops[PX_OP_cvta]) && n->nops == 1)
		return px_points_of(p, &n->ops[0]);
	if ((op == &px_ops[PX_OP_add] || op == &px_ops[PX_OP_sub]) && n->nops == 2) {
		uint32_t x = px_points_of(p, &n->ops[0]), y = op == &px_ops[PX_OP_add] ? px_points_of(p, &n->ops[1]) : 0;
		return x && !y ? x : !x && y ? y : 0;
	}
	return 0;
}

void px_points_init(px_points *p, px_verifier *v, const px_func *f, px_arena *a)
{
	p->v = v;
	p->f = f;
	p->pt = px_arena_calloc(a, f->nvalues + 1, sizeof *p->pt);
	/* a value's pointer may be defined from itself (a loop): a few rounds
	 * reach the fixed point of any real kernel; past them a value not yet
	 * settled points nowhere */
	bool changed = true;
	for (unsigned round = 0; changed && round < ROUNDS; round++) {
		changed = false;
		for (const px_node *n = f->first; n; n = n->next)
			for (uint32_t r = 0; r < n->nres; r++) {
				const px_opnd *o = &n->res[r];
				if (o->kind != PX_O_VALUE)
					continue;
				bool one = n->kind == PX_N_INST && n->op && n->nres == 1 && o->elem < 0;
				uint32_t g = one ? defined_from(p, n) : 0;
				uint32_t old = p->pt[o->id], now = !g ? CONFLICT : old == 0 || old == g ? g : CONFLICT;
				if (now != old) {
					p->pt[o->id] = now;
					changed = true;
				}
			}
	}
	if (changed)
		for (uint32_t i = 0; i <= f->nvalues; i++)
			p->pt[i] = CONFLICT;
}
