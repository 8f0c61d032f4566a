/* The pattern matcher (seed 003's MatcherTable layer). A node is covered either
 * by its own one-node pattern, lowered from the tables, or by a larger pattern
 * that also absorbs the node defining one of its operands. Today's larger
 * pattern is the FMA fold: fadd(fmul(a, b), c) -> fma(a, b, c) when both nodes
 * allow contraction ({fast} or {contract}). The fold wins when its score is
 * below the sum of the one-node scores of the nodes it covers. */
#include <string.h>

#include "isel/match.h"
#include "verify/verify.h"

/* How far back a fold looks for the fmul; a longer distance keeps both. */
enum { FOLD_REACH = 256 };
/* The depth a pattern's root scope is scored at: with the seed's amplifier
 * 9 * (depth != 2) + 1 the root weighs 1 and every nested level 10. */
enum { ROOT = 2 };

struct px_match_plan {
	const px_node **def; /* per value: its only defining node, or NULL */
	uint32_t *uses;      /* per value: operand reads */
	uint8_t *ndefs;      /* per value: definitions, saturating at 2 */
	uint8_t *absorbed;   /* per value: its defining node is folded into its user */
};

int64_t px_cost_add(int64_t a, int64_t b)
{
	if (b > 0 && a > INT64_MAX - b)
		return INT64_MAX;
	if (b < 0 && a < INT64_MIN - b)
		return INT64_MIN;
	return a + b;
}

int64_t px_cost_mul(int64_t a, int64_t b)
{
	if (!a || !b)
		return 0;
	if (a > 0 ? (b > 0 ? a > INT64_MAX / b : b < INT64_MIN / a)
	          : (b > 0 ? a < INT64_MIN / b : b < INT64_MAX / a))
		return (a > 0) == (b > 0) ? INT64_MAX : INT64_MIN;
	return a * b;
}

int64_t px_cost_depth(unsigned depth) { return 9LL * (depth != 2) + 1; }

/* Volta lacks the dual-issue path that lets an fma and a following add share a
 * cycle, so the seed's lattice doubles the fold there (byte 4). */
unsigned px_lattice_byte(enum px_pat_row row, unsigned sm)
{
	if (row == PX_ROW_FMA_FOLD && sm < 75)
		return 4;
	return 1;
}

int64_t px_check_predicate(int64_t cost, enum px_pat_row row, unsigned sm)
{
	unsigned byte = px_lattice_byte(row, sm);
	if (byte <= 1)
		return cost;
	if (byte == 4)
		return px_cost_mul(2, cost);
	return PX_COST_REJECT;
}

/* ---- def/use facts ---- */

static void note_use(struct px_match_plan *p, const px_opnd *o)
{
	switch (o->kind) {
	case PX_O_VALUE:
		p->uses[o->id]++;
		break;
	case PX_O_ADDR:
		if (o->base)
			note_use(p, o->base);
		if (o->idx)
			note_use(p, o->idx);
		break;
	case PX_O_GROUP:
		for (uint32_t i = 0; i < o->nelems; i++)
			note_use(p, &o->elems[i]);
		break;
	default:
		break;
	}
}

static void note_defs(struct px_match_plan *p, const px_node *n)
{
	for (uint32_t i = 0; i < n->nres; i++) {
		const px_opnd *o = &n->res[i];
		if (o->kind != PX_O_VALUE)
			continue;
		if (p->ndefs[o->id] < 2)
			p->ndefs[o->id]++;
		p->def[o->id] = n;
	}
}

/* Does n write any value the operand reads? */
static bool writes(const px_node *n, const px_opnd *o)
{
	if (o->kind != PX_O_VALUE)
		return false;
	for (uint32_t i = 0; i < n->nres; i++)
		if (n->res[i].kind == PX_O_VALUE && n->res[i].id == o->id)
			return true;
	return false;
}

/* ---- the FMA fold ---- */

static int slot_tok(const px_node *n, const char *name)
{
	int i = px_slot_index(n->op, name);
	return i < 0 ? 0 : n->slot[i];
}

static int node_type(const px_node *n) { return px_tok_type((unsigned)slot_tok(n, "type")); }

/* A float add or mul the fold may take: no rounding, saturation or mode
 * written (an explicit rounding forbids contraction in PTX), no guard, and
 * contraction allowed by its flags. */
static bool foldable(const px_node *n, unsigned op)
{
	if (n->kind != PX_N_INST || n->op != &px_ops[op] || n->has_guard)
		return false;
	int t = node_type(n);
	if (t != PX_T_f32 && t != PX_T_f64)
		return false;
	if (slot_tok(n, "rnd") || slot_tok(n, "sat") || slot_tok(n, "mode"))
		return false;
	return (n->flags & (PX_NF_fast | PX_NF_contract)) != 0;
}

/* The fmul feeding operand k of the fadd n, if the fold may absorb it: its
 * result is read only here, and nothing between the two nodes (in the same
 * block) rewrites what the fmul reads. */
static const px_node *fold_source(const struct px_match_plan *p, const px_node *n, unsigned k)
{
	const px_opnd *o = &n->ops[k];
	if (o->kind != PX_O_VALUE || o->elem >= 0 || o->neg)
		return NULL;
	if (p->ndefs[o->id] != 1 || p->uses[o->id] != 1)
		return NULL;
	const px_node *m = p->def[o->id];
	if (!m || !foldable(m, PX_OP_mul) || m->nres != 1 || m->nops != 2)
		return NULL;
	if (node_type(m) != node_type(n) || slot_tok(m, "ftz") != slot_tok(n, "ftz"))
		return NULL;
	unsigned steps = 0;
	for (const px_node *x = m->next; x != n; x = x->next) {
		if (!x || x->kind == PX_N_LABEL || ++steps > FOLD_REACH)
			return NULL;
		if (writes(x, &m->ops[0]) || writes(x, &m->ops[1]))
			return NULL;
	}
	return m;
}

/* CostOperand: what capturing an operand at depth costs; a value another
 * instruction computes weighs twice a leaf (a parameter or a literal). */
static int64_t cost_operand(const struct px_match_plan *p, const px_opnd *o, unsigned depth)
{
	int64_t w = (o->kind == PX_O_VALUE && p->def[o->id]) ? 2 : 1;
	return px_cost_mul(px_cost_depth(depth), w);
}

/* The one-node pattern of a two-operand node: CheckOpcode, each operand
 * recorded one level down, EmitNode. fadd(x, c) with x computed scores
 * 1 + 10*2 + 10*1 + 2 = 33, the seed's P_FADD_R. */
static int64_t score_bare(const struct px_match_plan *p, const px_node *n, unsigned sm)
{
	int64_t c = px_cost_depth(ROOT);
	for (uint32_t i = 0; i < n->nops; i++)
		c = px_cost_add(c, cost_operand(p, &n->ops[i], ROOT + 1));
	c = px_check_predicate(c, PX_ROW_BARE, sm);
	return px_cost_add(c, 2);
}

/* fadd(fmul(a, b), c): CheckOpcode and CheckChildType at the root, the fmul's
 * scope one level down with its operands below it and its fast-math check, c
 * one level down, the predicate tail, one EmitNode. With leaves a, b, c:
 * 1 + 1 + (10 + 10 + 10 + 1) + 10 = 43, then 45; on Volta 2 * 43 + 2 = 88,
 * above the 33 + 23 of the two nodes apart, so Volta keeps them apart. */
static int64_t score_fold(const struct px_match_plan *p, const px_node *n, const px_node *m, unsigned k,
                          unsigned sm)
{
	int64_t inner = px_cost_depth(ROOT + 1);
	inner = px_cost_add(inner, cost_operand(p, &m->ops[0], ROOT + 2));
	inner = px_cost_add(inner, cost_operand(p, &m->ops[1], ROOT + 2));
	inner = px_cost_add(inner, 1); /* CheckFastMathFlag */
	int64_t c = px_cost_add(px_cost_depth(ROOT), px_cost_depth(ROOT));
	c = px_cost_add(c, inner);
	c = px_cost_add(c, cost_operand(p, &n->ops[1 - k], ROOT + 1));
	c = px_check_predicate(c, PX_ROW_FMA_FOLD, sm);
	return px_cost_add(c, 2);
}

/* Which operand of n (an fadd) the fold takes, or -1. */
static int fold_operand(const px_isel *s, const struct px_match_plan *p, const px_node *n, const px_node **mp)
{
	if (!foldable(n, PX_OP_add) || n->nops != 2 || n->nres != 1)
		return -1;
	unsigned sm = s->target ? s->target->sm : 0;
	for (unsigned k = 0; k < 2; k++) {
		const px_node *m = fold_source(p, n, k);
		if (!m)
			continue;
		int64_t apart = px_cost_add(score_bare(p, n, sm), score_bare(p, m, sm));
		if (score_fold(p, n, m, k, sm) < apart) {
			*mp = m;
			return (int)k;
		}
	}
	return -1;
}

void px_match_plan(px_isel *s, const px_func *f)
{
	struct px_match_plan *p = px_arena_alloc(s->a, sizeof *p);
	uint32_t nv = f->nvalues + 1;
	p->def = px_arena_alloc(s->a, nv * sizeof *p->def);
	p->uses = px_arena_alloc(s->a, nv * sizeof *p->uses);
	p->ndefs = px_arena_alloc(s->a, nv);
	p->absorbed = px_arena_alloc(s->a, nv);
	for (const px_node *n = f->first; n; n = n->next) {
		for (uint32_t i = 0; i < n->nops; i++)
			note_use(p, &n->ops[i]);
		if (n->has_guard)
			p->uses[n->guard]++;
		note_defs(p, n);
	}
	for (const px_node *n = f->first; n; n = n->next) {
		const px_node *m;
		int k = fold_operand(s, p, n, &m);
		if (k >= 0)
			p->absorbed[n->ops[k].id] = 1;
	}
	s->match = p;
}

const px_node *px_match_def(const px_isel *s, uint32_t id)
{
	const struct px_match_plan *p = s->match;
	return p->ndefs[id] == 1 ? p->def[id] : NULL;
}

/* ---- the FTZ probe ---- */

static const px_prop *func_attr(const px_func *f, const char *key)
{
	size_t len = strlen(key);
	for (uint32_t i = 0; i < f->nattrs; i++)
		if (f->attrs[i].key.n == len && !memcmp(f->attrs[i].key.s, key, len))
			return &f->attrs[i];
	return NULL;
}

static bool attr_is(const px_prop *a, const char *val)
{
	size_t len = strlen(val);
	return a && a->val.n == len && !memcmp(a->val.s, val, len);
}

bool px_fma_ftz(const px_isel *s, const px_node *n)
{
	if (n->flags & PX_NF_ftz_ok)
		return true;
	const px_prop *unsafe = func_attr(s->f, "unsafe_fp_math");
	if (unsafe && (!unsafe->val.n || attr_is(unsafe, "true")))
		return true;
	return attr_is(func_attr(s->f, "denormal_fp_math"), "preserve_sign");
}

/* An f32 fma without a written .ftz takes it when the probe says so. */
static unsigned fma_ftz_tok(const px_isel *s, const px_node *n, int type, bool written)
{
	if (type != PX_T_f32 || written)
		return 0;
	return px_fma_ftz(s, n) ? PX_TOK_ftz : 0;
}

/* Emit fma(a, b, c) for the fadd n absorbing the fmul m (operand k). */
static void emit_fold(px_isel *s, const px_node *n, const px_node *m, unsigned k)
{
	const px_op_def *fma = &px_ops[PX_OP_fma];
	int type = node_type(n);
	uint16_t slot[PX_MAX_SLOTS] = {0};
	px_set_slot(fma, slot, "rnd", PX_TOK_rn);
	unsigned ftz = slot_tok(n, "ftz");
	px_set_slot(fma, slot, "ftz", ftz ? ftz : fma_ftz_tok(s, n, type, false));
	px_set_slot(fma, slot, "type", px_type_tok(fma, "type", type));
	const px_opnd *src[3] = {&m->ops[0], &m->ops[1], &n->ops[1 - k]};
	px_mop *ops = px_mops(s, 3);
	for (unsigned i = 0; i < 3; i++)
		ops[i] = px_lower_operand(s, i < 2 ? m : n, src[i], &fma->operands[i], type, n->loc);
	px_minst *mi = px_emit_inst(s, fma, slot, n->loc);
	mi->res = px_mops(s, 1);
	mi->res[0] = px_lower_value_as(s, &n->res[0], type, n->loc);
	mi->nres = 1;
	mi->ops = ops;
	mi->nops = 3;
	px_finish(s, mi);
}

void px_select_match(px_isel *s, const px_node *n)
{
	const struct px_match_plan *p = s->match;
	if (n->nres == 1 && n->res[0].kind == PX_O_VALUE && p->absorbed[n->res[0].id])
		return; /* its user's pattern covers it */
	const px_node *m;
	int k = fold_operand(s, p, n, &m);
	if (k >= 0 && p->absorbed[n->ops[k].id]) {
		emit_fold(s, n, m, (unsigned)k);
		return;
	}
	if (n->op == &px_ops[PX_OP_fma]) {
		int type = node_type(n);
		unsigned ftz = fma_ftz_tok(s, n, type, slot_tok(n, "ftz") != 0);
		if (ftz) {
			px_node probed = *n;
			probed.slot[px_slot_index(n->op, "ftz")] = (uint16_t)ftz;
			probed.var = px_variant_find(n->op, probed.slot, s->target, 0);
			if (probed.var) {
				px_lower_node(s, &probed);
				return;
			}
		}
	}
	px_lower_node(s, n);
}
