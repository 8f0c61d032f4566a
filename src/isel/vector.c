/* The selector's second layer, vector loads and stores. A load or store
 * the MIR writes with .v2/.v4/.v8 is lowered as it stands. A run of adjacent
 * scalar ones the selector proves contiguous and aligned becomes one vector
 * access: same operation and modifiers, the same base, offsets one element
 * apart, and a base whose alignment (what the value analysis knows: a
 * parameter's `align`, a variable's, a variable's address moved into a
 * register, an address its statement states with {align = N}, sums and
 * multiples of these) covers the whole vector.
 * The widest run (.v8, .v4, then .v2) the tables admit on the target wins;
 * --remarks says once per run what was merged, and what kept a wider vector
 * out and what to write instead. */
#include <stdio.h>
#include <string.h>

#include "isel/isel.h"
#include "isel/match.h"
#include "tables/query.h"
#include "verify/align.h"
#include "verify/verify.h"

/* Merged widths, widest first. .v8 only for 32-bit elements (the 256-bit
 * global forms of sm_100 and PTX 8.8): ptxas 13.0 crashes on an ld.v8 into
 * 16-bit registers, so narrower elements never merge to .v8. */
static const unsigned widths[] = {8, 4, 2};

static int slot_of(const px_node *n, unsigned sname) { return px_slot_find(n->op, sname); }

/* The value's only definition, if it is `mov @symbol`: that symbol's global. */
static const px_global *moved_symbol(const px_isel *s, uint32_t id)
{
	const px_node *n = px_match_def(s, id);
	if (!n || n->kind != PX_N_INST || n->op != &px_ops[PX_OP_mov] || n->nops != 1 || n->ops[0].kind != PX_O_SYM)
		return NULL;
	return px_global_named(s->m, n->ops[0].sym);
}

/* What the address's base is known to be aligned to, in bytes (1: unknown):
 * the value analysis's answer (verify/analysis/value.h): the verifier's, or
 * one made here once a function. */
static uint32_t base_align(px_isel *s, const px_opnd *addr)
{
	const px_opnd *b = addr->base;
	if (!b || (b->kind != PX_O_SYM && (b->kind != PX_O_VALUE || b->elem >= 0)))
		return 1;
	if (!s->va) {
		s->va = s->va_given;
		if (!s->va) {
			px_values_init(&s->va_own, s->m, s->f, NULL, s->a);
			s->va = &s->va_own;
		}
	}
	px_aff a = px_value_form(s->va, b);
	uint64_t m = px_aff_multiple(s->va, &a);
	return !m ? 1 : m > (1u << 30) ? 1u << 30 : (uint32_t)m;
}

/* The remark's advice for a base aligned to less than need: give the pointer
 * or the variable its `align` where it has one to give, else state the
 * computed address's alignment where it is computed. */
static void advice(const px_isel *s, const px_opnd *addr, uint32_t need, char *buf, size_t size)
{
	const px_opnd *b = addr->base;
	if (b->kind == PX_O_SYM) {
		snprintf(buf, size, px_diag_texts[PX_D_advice_align_symbol].text, (int)b->sym.n, b->sym.s, need);
		return;
	}
	const px_value *v = &s->f->values[b->id];
	const px_global *g = moved_symbol(s, b->id);
	const px_node *d = px_match_def(s, b->id);
	if (v->param && !px_match_ndefs(s, b->id))
		snprintf(buf, size, px_diag_texts[PX_D_advice_align_param].text, (int)v->name.n, v->name.s, need);
	else if (g)
		snprintf(buf, size, px_diag_texts[PX_D_advice_align_symbol].text, (int)g->name.n, g->name.s, need);
	else if (d)
		snprintf(buf, size, px_diag_texts[PX_D_advice_align_computed].text, (int)v->name.n, v->name.s,
		         px_module_line(s->m, d->loc), need, need);
	else
		snprintf(buf, size, px_diag_texts[PX_D_advice_align_assigned].text, (int)v->name.n, v->name.s, need);
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
		/* ptxas rejects a vector mixing true .b8 registers (%rb) with %rs, or
		 * registers of two widths (ld.u8 into a u32 and into a u16) */
		if (bytes == 1 && px_value_true_b8(s, accessed(x)) != px_value_true_b8(s, accessed(n)))
			return false;
		const px_type_info *tx = &px_types[s->f->values[accessed(x)].type];
		const px_type_info *tn = &px_types[s->f->values[accessed(n)].type];
		if (px_regclasses[tx->regclass].width != px_regclasses[tn->regclass].width)
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

/* The widest vector a run could not become, and why: the run's one remark. */
typedef struct kept_out {
	unsigned count, span;
	const px_node *v;      /* the vector node it would have been */
	uint16_t ptx;          /* why: the PTX ISA it needs, or 0: the alignment */
} kept_out;

static void remark_merged(px_isel *s, const px_node *n, const px_node *v, unsigned count, const kept_out *k,
                          uint32_t align, uint16_t limit)
{
	char one[128], all[128], wide[128], adv[256];
	px_node_name(n, one, sizeof one);
	px_node_name(v, all, sizeof all);
	if (!k->count) {
		px_report(s->d, PX_SEV_REMARK, n->oploc, PX_D_remark_vector, count, one, all);
		return;
	}
	px_node_name(k->v, wide, sizeof wide);
	if (k->ptx) {
		px_report(s->d, PX_SEV_REMARK, n->oploc, PX_D_remark_vector_narrow_ptx, count, one, all, k->count, wide,
		          k->ptx / 10u, k->ptx % 10u, limit / 10u, limit % 10u);
		return;
	}
	advice(s, &n->ops[0], k->span, adv, sizeof adv);
	px_report(s->d, PX_SEV_REMARK, n->oploc, PX_D_remark_vector_narrow_align, count, one, all, k->count, wide,
	          k->span, align, adv);
}

static void remark_kept_out(px_isel *s, const px_node *n, const kept_out *k, uint32_t align, uint16_t limit)
{
	char one[128], wide[128], adv[256];
	px_node_name(n, one, sizeof one);
	px_node_name(k->v, wide, sizeof wide);
	if (k->ptx) {
		px_report(s->d, PX_SEV_REMARK, n->oploc, PX_D_remark_vector_ptx, k->count, one, wide, k->ptx / 10u,
		          k->ptx % 10u, limit / 10u, limit % 10u);
		return;
	}
	advice(s, &n->ops[0], k->span, adv, sizeof adv);
	px_report(s->d, PX_SEV_REMARK, n->oploc, PX_D_remark_vector_align, k->count, one, wide, align,
	          align == 1 ? "" : "s", wide, k->span, adv);
}

bool px_select_vector(px_isel *s, const px_node *n)
{
	bool quiet = s->vquiet > 0; /* inside a run already remarked on */
	if (s->vquiet)
		s->vquiet--;
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
	/* the scalar node settled the printed .version: stay inside it */
	uint16_t limit = px_ptx_settled(s->ptx, s->target, n->var->ptx);
	kept_out k = {0, 0, NULL, 0};
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
		if (align % span) {
			if (!k.count)
				k = (kept_out){count, span, v, 0};
			continue;
		}
		v->var = px_variant_find(&s->first_rows, n->op, v->slot, s->target, s->ptx);
		if (!v->var || v->var->ptx > limit) {
			if (v->var && !k.count)
				k = (kept_out){count, span, v, v->var->ptx};
			continue;
		}
		if (s->remarks)
			remark_merged(s, n, v, count, &k, align, limit);
		px_lower_node(s, v);
		s->vskip = count - 1;
		return true;
	}
	if (k.count && s->remarks && !quiet) {
		remark_kept_out(s, n, &k, align, limit);
		s->vquiet = k.count - 1;
	}
	return false;
}
