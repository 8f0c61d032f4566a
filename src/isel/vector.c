/* The selector's second layer, vector loads and stores. A load or store
 * the MIR writes with .v2/.v4/.v8 is lowered as it stands. A run of adjacent
 * scalar ones the selector proves contiguous and aligned becomes one vector
 * access: same operation and modifiers, the same base, offsets one element
 * apart, and a base whose alignment (a parameter's `align`, a variable's, or
 * a variable's address moved into a register) covers the whole vector. The
 * widest run (.v8, .v4, then .v2) the tables admit on the target wins. */
#include <stdio.h>
#include <string.h>

#include "isel/isel.h"
#include "isel/match.h"
#include "tables/query.h"

/* Merged widths, widest first. .v8 only for 32-bit elements (the 256-bit
 * global forms of sm_100 and PTX 8.8): ptxas 13.0 crashes on an ld.v8 into
 * 16-bit registers, so narrower elements never merge to .v8. */
static const unsigned widths[] = {8, 4, 2};

static int slot_of(const px_node *n, unsigned sname) { return px_slot_find(n->op, sname); }

static const px_global *global_named(const px_module *m, px_str name)
{
	for (uint32_t i = 0; i < m->nglobals; i++)
		if (m->globals[i].name.n == name.n && !memcmp(m->globals[i].name.s, name.s, name.n))
			return &m->globals[i];
	return NULL;
}

/* The value's only definition, if it is `mov @symbol`: that symbol's global. */
static const px_global *moved_symbol(const px_isel *s, uint32_t id)
{
	const px_node *n = px_match_def(s, id);
	if (!n || n->kind != PX_N_INST || n->op != &px_ops[PX_OP_mov] || n->nops != 1 || n->ops[0].kind != PX_O_SYM)
		return NULL;
	return global_named(s->m, n->ops[0].sym);
}

/* What the address's base is known to be aligned to, in bytes (1: unknown). */
static uint32_t base_align(const px_isel *s, const px_opnd *addr)
{
	const px_opnd *b = addr->base;
	if (!b)
		return 1;
	if (b->kind == PX_O_SYM) {
		const px_global *g = global_named(s->m, b->sym);
		return g && g->align ? g->align : 1;
	}
	if (b->kind != PX_O_VALUE || b->elem >= 0)
		return 1;
	const px_value *v = &s->f->values[b->id];
	if (v->param && v->param_index < s->f->nparams && s->f->params[v->param_index].align)
		return s->f->params[v->param_index].align;
	const px_global *g = moved_symbol(s, b->id);
	return g && g->align ? g->align : 1;
}

static bool same_base(const px_opnd *a, const px_opnd *b)
{
	if (!a->base || !b->base || a->base->kind != b->base->kind || a->has_idx || b->has_idx)
		return false;
	if (a->base->kind == PX_O_VALUE)
		return a->base->id == b->base->id && a->base->elem == b->base->elem;
	return a->base->kind == PX_O_SYM && a->base->sym.n == b->base->sym.n &&
	       !memcmp(a->base->sym.s, b->base->sym.s, a->base->sym.n);
}

/* A scalar load or store the merge may take. */
static bool scalar_access(const px_node *n, const px_op_def *op)
{
	if (!n || n->kind != PX_N_INST || n->op != op || n->has_guard || n->slot[slot_of(n, PX_SN_vec)])
		return false;
	if (op == &px_ops[PX_OP_ld])
		return n->nres == 1 && n->res[0].kind == PX_O_VALUE && n->res[0].elem < 0 && n->nops == 1 &&
		       n->ops[0].kind == PX_O_ADDR;
	return n->nops == 2 && n->ops[0].kind == PX_O_ADDR && n->ops[1].kind == PX_O_VALUE && n->ops[1].elem < 0;
}

/* The value a scalar access loads or stores. */
static uint32_t accessed(const px_node *n) { return n->op == &px_ops[PX_OP_ld] ? n->res[0].id : n->ops[1].id; }

/* Do the count nodes from n form a contiguous run of bytes-wide accesses? */
static bool run_of(px_isel *s, const px_node *n, unsigned count, unsigned bytes)
{
	const px_node *x = n;
	for (unsigned i = 0; i < count; i++, x = x->next) {
		if (!scalar_access(x, n->op) || memcmp(x->slot, n->slot, PX_MAX_SLOTS * sizeof *x->slot))
			return false;
		/* ptxas rejects a vector mixing true .b8 registers (%rb) with %rs */
		if (bytes == 1 && px_value_true_b8(s, accessed(x)) != px_value_true_b8(s, accessed(n)))
			return false;
		if (!same_base(&x->ops[0], &n->ops[0]) || x->ops[0].off != n->ops[0].off + (int64_t)(i * bytes))
			return false;
		if (x->op != &px_ops[PX_OP_ld])
			continue;
		/* a load writing the base, or a value an earlier one wrote, ends the run */
		const px_opnd *b = n->ops[0].base;
		if (b->kind == PX_O_VALUE && x->res[0].id == b->id)
			return false;
		for (const px_node *y = n; y != x; y = y->next)
			if (y->res[0].id == x->res[0].id)
				return false;
	}
	return true;
}

/* The run merged into one node of the vector width tok. */
static px_node *merged(px_isel *s, const px_node *n, unsigned count, unsigned tok)
{
	px_node *v = px_arena_alloc(s->a, sizeof *v);
	*v = *n;
	uint16_t *slot = px_arena_dup(s->a, n->slot, PX_MAX_SLOTS * sizeof *slot);
	slot[slot_of(n, PX_SN_vec)] = (uint16_t)tok;
	v->slot = slot;
	const px_node *x = n;
	if (n->op == &px_ops[PX_OP_ld]) {
		v->res = px_arena_alloc(s->a, count * sizeof *v->res);
		v->nres = count;
		for (unsigned i = 0; i < count; i++, x = x->next)
			v->res[i] = x->res[0];
		return v;
	}
	v->ops = px_arena_alloc(s->a, 2 * sizeof *v->ops);
	v->ops[0] = n->ops[0];
	px_opnd *g = &v->ops[1];
	memset(g, 0, sizeof *g);
	g->kind = PX_O_GROUP;
	g->loc = n->ops[1].loc;
	g->elems = px_arena_alloc(s->a, count * sizeof *g->elems);
	g->nelems = count;
	for (unsigned i = 0; i < count; i++, x = x->next)
		g->elems[i] = x->ops[1];
	return v;
}

bool px_select_vector(px_isel *s, const px_node *n)
{
	if (s->vskip) { /* a later element of a run already selected */
		s->vskip--;
		return true;
	}
	if (n->op->layer != PX_LAYER_VECTOR)
		return false;
	int vi = slot_of(n, PX_SN_vec);
	if (vi < 0)
		return false;
	if (n->slot[vi]) { /* written as a vector */
		px_lower_node(s, n);
		return true;
	}
	if (!scalar_access(n, n->op))
		return false;
	int ti = slot_of(n, PX_SN_type);
	int type = ti < 0 ? 0 : px_tok_type(n->slot[ti]);
	if (!type || px_types[type].width < 8)
		return false;
	unsigned bytes = px_types[type].width / 8;
	uint32_t align = 0; /* looked up once a run is found */
	for (unsigned w = 0; w < sizeof widths / sizeof widths[0]; w++) {
		unsigned count = widths[w], span = count * bytes;
		if (count == 8 && bytes != 4)
			continue;
		if (n->ops[0].off % (int64_t)span || !run_of(s, n, count, bytes))
			continue;
		if (!align)
			align = base_align(s, &n->ops[0]);
		char name[4] = {'v', (char)('0' + count), 0};
		unsigned tok = px_tok_lookup(name, strlen(name));
		px_node *v = merged(s, n, count, tok);
		char one[128], all[128];
		if (s->remarks) {
			px_node_name(n, one, sizeof one);
			px_node_name(v, all, sizeof all);
		}
		if (align % span) {
			if (s->remarks)
				px_report(s->d, PX_SEV_REMARK, n->oploc, PX_D_remark_vector_align, count, one, all, align,
				          align == 1 ? "" : "s", all, span, span);
			continue;
		}
		/* the printed .version was settled by the scalar nodes (or given, or
		 * the target's lowest): stay inside it */
		v->var = px_variant_find(&s->first_rows, n->op, v->slot, s->target, s->ptx);
		uint16_t limit = s->ptx ? s->ptx : n->var->ptx;
		if (!s->ptx && s->target && s->target->ptx > limit)
			limit = s->target->ptx;
		if (!v->var || v->var->ptx > limit) {
			if (v->var && s->remarks)
				px_report(s->d, PX_SEV_REMARK, n->oploc, PX_D_remark_vector_ptx, count, one, all,
				          v->var->ptx / 10u, v->var->ptx % 10u, limit / 10u, limit % 10u);
			continue;
		}
		if (s->remarks)
			px_report(s->d, PX_SEV_REMARK, n->oploc, PX_D_remark_vector, count, one, all);
		px_lower_node(s, v);
		s->vskip = count - 1;
		return true;
	}
	return false;
}
