/* The pattern matcher (NVPTX's MatcherTable layer). A node is covered either
 * by its own one-node pattern, lowered from the tables, or by a pattern of
 * data/patterns.yaml that also absorbs the node defining one of its operands
 * (the FMA fold fadd(fmul(a, b), c) -> fma.rn(a, b, c), the integer
 * add(mul.lo(a, b), c) -> mad.lo(a, b, c)). A pattern wins when its score is
 * below the sum of the one-node scores of the nodes it covers. */
#include <stdio.h>
#include <string.h>

#include "isel/match.h"
#include "tables/query.h"

/* The depth a pattern's root scope is scored at: with the amplifier
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

unsigned px_lattice_byte(const px_lattice_step *row, unsigned sm)
{
	while (row->sm_below && sm >= row->sm_below)
		row++;
	return row->byte;
}

int64_t px_check_predicate(int64_t cost, const px_lattice_step *row, unsigned sm)
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
		if (o->has_idx)
			note_use(p, px_addr_idx(o));
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

/* ---- matching a pattern ---- */

/* Does n fit a pattern node: its op, unguarded, one result, the op's operand
 * count, every slot as the pattern says, and one of the pattern's flags? */
static bool fits(const px_node *n, const px_pat_node *pn, uint32_t flags)
{
	const px_op_def *op = &px_ops[pn->op];
	if (n->kind != PX_N_INST || n->op != op || n->has_guard || n->nres != 1 || n->nops != op->noperands)
		return false;
	if (flags && !(n->flags & flags))
		return false;
	for (unsigned k = 0; k < op->nslots; k++) {
		const uint16_t *want = pn->when[k];
		if (want && (!want[0] ? n->slot[k] != 0 : !px_toks_have(want, n->slot[k])))
			return false;
	}
	return true;
}

/* The node feeding operand k of the root n, if pat may absorb it: its result
 * is read only here, it shares the slots pat names with n, and nothing between
 * the two (in the same block, within pat's reach) rewrites what it reads. */
static const px_node *inner_node(const struct px_match_plan *p, const px_pattern *pat, const px_node *n,
                                 unsigned k)
{
	const px_opnd *o = &n->ops[k];
	if (o->kind != PX_O_VALUE || o->elem >= 0 || o->neg)
		return NULL;
	if (p->ndefs[o->id] != 1 || p->uses[o->id] != 1)
		return NULL;
	const px_node *m = p->def[o->id];
	if (!m || !fits(m, &pat->inner, pat->flags))
		return NULL;
	for (unsigned i = 0; i < n->op->nslots; i++)
		if (pat->same[i] && n->slot[i] != m->slot[pat->same[i] - 1])
			return NULL;
	unsigned steps = 0;
	for (const px_node *x = m->next; x != n; x = x->next) {
		if (!x || x->kind == PX_N_LABEL || ++steps > pat->reach)
			return NULL;
		for (uint32_t i = 0; i < m->nops; i++)
			if (writes(x, &m->ops[i]))
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

/* The one-node pattern: CheckOpcode, each operand recorded one level down,
 * the predicate tail, EmitNode. fadd(x, c) with x computed scores
 * 1 + 10*2 + 10*1 + 2 = 33, the cost of NVPTX's bare add.f32 pattern. */
static int64_t score_bare(const struct px_match_plan *p, const px_node *n, unsigned sm)
{
	int64_t c = px_cost_depth(ROOT);
	for (uint32_t i = 0; i < n->nops; i++)
		c = px_cost_add(c, cost_operand(p, &n->ops[i], ROOT + 1));
	c = px_check_predicate(c, px_bare_tail.lattice, sm);
	return px_cost_add(c, px_bare_tail.cost);
}

/* root(inner(...), ...): CheckOpcode and CheckChildType at the root, the inner
 * node's scope one level down with its operands below it and, when the
 * pattern needs flags, its CheckFastMathFlag; the root's other operands one
 * level down, the predicate tail, one EmitNode. The FMA fold with leaves
 * a, b, c: 1 + 1 + (10 + 10 + 10 + 1) + 10 = 43, then 45; on Volta
 * 2 * 43 + 2 = 88, above the 33 + 23 of the two nodes apart. */
static int64_t score_pattern(const struct px_match_plan *p, const px_pattern *pat, const px_node *n,
                             const px_node *m, unsigned k, unsigned sm)
{
	int64_t inner = px_cost_depth(ROOT + 1);
	for (uint32_t i = 0; i < m->nops; i++)
		inner = px_cost_add(inner, cost_operand(p, &m->ops[i], ROOT + 2));
	if (pat->flags)
		inner = px_cost_add(inner, 1);
	int64_t c = px_cost_add(px_cost_depth(ROOT), px_cost_depth(ROOT));
	c = px_cost_add(c, inner);
	for (uint32_t i = 0; i < n->nops; i++)
		if (i != k)
			c = px_cost_add(c, cost_operand(p, &n->ops[i], ROOT + 1));
	c = px_check_predicate(c, pat->tail.lattice, sm);
	return px_cost_add(c, pat->tail.cost);
}

/* A pattern matched at a root: which, the inner node, and the root operand it defines. */
struct px_cover {
	const px_pattern *pat;
	const px_node *inner;
	unsigned at;
};

/* The replacement for a cover: pat's op with the tokens it writes and the
 * root's slots it copies, the root's result, flags and location, and operands
 * gathered from both nodes (root operands in their written order: a commuted
 * match swaps 0 and 1). ops has room for PX_MAX_PAT_OPNDS, slot for PX_MAX_SLOTS. */
static px_node replacement(const px_isel *s, const struct px_cover *cv, const px_node *n, px_opnd *ops,
                           uint16_t *slot)
{
	const px_pattern *pat = cv->pat;
	px_node r = {.kind = PX_N_INST, .loc = n->loc, .oploc = n->oploc, .res = n->res, .nres = 1,
	             .ops = ops, .nops = pat->nops, .op = &px_ops[pat->emit], .flags = n->flags, .slot = slot};
	memset(slot, 0, PX_MAX_SLOTS * sizeof *slot);
	for (unsigned k = 0; k < r.op->nslots; k++)
		slot[k] = pat->copy[k] ? n->slot[pat->copy[k] - 1] : pat->set[k];
	for (unsigned i = 0; i < pat->nops; i++) {
		const px_pat_ref *ref = &pat->ops[i];
		unsigned j = ref->index;
		ops[i] = ref->inner ? cv->inner->ops[j] : n->ops[cv->at == pat->at ? j : 1 - j];
	}
	r.var = px_variant_find(NULL, r.op, r.slot, s->target, 0);
	return r;
}

/* Consider pat with its inner node on root operand k; keep it in best when it
 * saves more than best does over the nodes apart and the target has the
 * replacement. */
static void try_cover(const px_isel *s, const struct px_match_plan *p, const px_pattern *pat, const px_node *n,
                      unsigned k, struct px_cover *best, int64_t *saving)
{
	const px_node *m = inner_node(p, pat, n, k);
	if (!m)
		return;
	unsigned sm = s->target ? s->target->sm : 0;
	int64_t apart = px_cost_add(score_bare(p, n, sm), score_bare(p, m, sm));
	int64_t fold = score_pattern(p, pat, n, m, k, sm);
	if (fold >= apart || apart - fold <= *saving)
		return;
	struct px_cover cv = {pat, m, k};
	px_opnd ops[PX_MAX_PAT_OPNDS];
	uint16_t slot[PX_MAX_SLOTS];
	if (!replacement(s, &cv, n, ops, slot).var)
		return;
	*best = cv;
	*saving = apart - fold;
}

/* The cheapest cover of n by a pattern, or one with pat NULL. */
static struct px_cover cover(const px_isel *s, const struct px_match_plan *p, const px_node *n)
{
	struct px_cover best = {0};
	int64_t saving = 0;
	for (unsigned i = 0; i < px_npatterns; i++) {
		const px_pattern *pat = &px_patterns[i];
		if (!fits(n, &pat->root, pat->flags))
			continue;
		try_cover(s, p, pat, n, pat->at, &best, &saving);
		if (pat->commutative)
			try_cover(s, p, pat, n, 1 - pat->at, &best, &saving);
	}
	return best;
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
		struct px_cover cv = cover(s, p, n);
		if (cv.pat)
			p->absorbed[n->ops[cv.at].id] = 1;
	}
	s->match = p;
}

const px_node *px_match_def(const px_isel *s, uint32_t id)
{
	const struct px_match_plan *p = s->match;
	return p->ndefs[id] == 1 ? p->def[id] : NULL;
}

unsigned px_match_ndefs(const px_isel *s, uint32_t id) { return s->match->ndefs[id]; }

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

/* A node as written, or a pattern's replacement: an f32 fma that names no
 * .ftz takes the probe's answer when the target has that form. */
static void select_node(px_isel *s, const px_node *n)
{
	int ftz_slot = px_slot_find(n->op, PX_SN_ftz);
	if (n->op == &px_ops[PX_OP_fma] && ftz_slot >= 0) {
		int type = px_tok_type(n->slot[px_slot_find(n->op, PX_SN_type)]);
		unsigned ftz = fma_ftz_tok(s, n, type, n->slot[ftz_slot] != 0);
		if (ftz) {
			uint16_t slot[PX_MAX_SLOTS];
			memcpy(slot, n->slot, sizeof slot);
			slot[ftz_slot] = (uint16_t)ftz;
			px_node probed = *n;
			probed.slot = slot;
			probed.var = px_variant_find(&s->first_rows, n->op, slot, s->target, 0);
			if (probed.var) {
				px_lower_node(s, &probed);
				return;
			}
		}
	}
	px_lower_node(s, n);
}

/* ---- remarks ---- */

/* The node flags of mask by name, "fast or contract". */
static void flag_names(uint32_t mask, char *buf, size_t size)
{
	size_t len = 0;
	buf[0] = '\0';
	for (unsigned i = 0; i < px_nnode_flags && len < size; i++)
		if (mask & px_node_flags[i].bit)
			len += (size_t)snprintf(buf + len, size - len, "%s%s", len ? " or " : "", px_node_flags[i].name);
}

/* Why a root that fits pat apart from its flags was not fused with the node
 * computing its operand k, if one of the reasons a DSL can act on: a flag
 * missing, the product read elsewhere, or the target's cost. False if pat's
 * inner node is not there or something else stopped the fold. */
static bool remark_unfused(const px_isel *s, const struct px_match_plan *p, const px_pattern *pat,
                           const px_node *n, unsigned k)
{
	const px_opnd *o = &n->ops[k];
	if (o->kind != PX_O_VALUE || o->elem >= 0 || o->neg || p->ndefs[o->id] != 1)
		return false;
	const px_node *m = p->def[o->id];
	if (!m || !fits(m, &pat->inner, 0))
		return false;
	for (unsigned i = 0; i < n->op->nslots; i++)
		if (pat->same[i] && n->slot[i] != m->slot[pat->same[i] - 1])
			return false;
	char root[128], inner[128], into[128];
	px_node_name(n, root, sizeof root);
	px_node_name(m, inner, sizeof inner);
	struct px_cover cv = {pat, m, k};
	px_opnd ops[PX_MAX_PAT_OPNDS];
	uint16_t slot[PX_MAX_SLOTS];
	px_node r = replacement(s, &cv, n, ops, slot);
	if (!r.var)
		return false;
	px_node_name(&r, into, sizeof into);
	unsigned line = px_module_line(s->m, m->oploc);
	if (pat->flags && (!(n->flags & pat->flags) || !(m->flags & pat->flags))) {
		char names[64];
		flag_names(pat->flags, names, sizeof names);
		px_report(s->d, PX_SEV_REMARK, n->oploc, PX_D_remark_fold_flags, root, inner, line, into, names);
		return true;
	}
	if (p->uses[o->id] != 1) {
		px_report(s->d, PX_SEV_REMARK, n->oploc, PX_D_remark_fold_uses, root, inner, line, into,
		          (unsigned)p->uses[o->id]);
		return true;
	}
	unsigned sm = s->target ? s->target->sm : 0;
	if (s->target && inner_node(p, pat, n, k) &&
	    score_pattern(p, pat, n, m, k, sm) >= px_cost_add(score_bare(p, n, sm), score_bare(p, m, sm))) {
		px_report(s->d, PX_SEV_REMARK, n->oploc, PX_D_remark_fold_cost, root, inner, line, into,
		          s->target->name);
		return true;
	}
	return false;
}

static void remark_no_fold(const px_isel *s, const struct px_match_plan *p, const px_node *n)
{
	for (unsigned i = 0; i < px_npatterns; i++) {
		const px_pattern *pat = &px_patterns[i];
		if (!fits(n, &pat->root, 0))
			continue;
		if (remark_unfused(s, p, pat, n, pat->at) ||
		    (pat->commutative && remark_unfused(s, p, pat, n, 1 - pat->at)))
			return;
	}
}

void px_select_match(px_isel *s, const px_node *n)
{
	const struct px_match_plan *p = s->match;
	if (n->nres == 1 && n->res[0].kind == PX_O_VALUE && p->absorbed[n->res[0].id])
		return; /* its user's pattern covers it */
	struct px_cover cv = cover(s, p, n);
	if (cv.pat && p->absorbed[n->ops[cv.at].id]) {
		px_opnd ops[PX_MAX_PAT_OPNDS];
		uint16_t slot[PX_MAX_SLOTS];
		px_node r = replacement(s, &cv, n, ops, slot);
		if (s->remarks) {
			char root[128], inner[128], into[128];
			px_node_name(n, root, sizeof root);
			px_node_name(cv.inner, inner, sizeof inner);
			px_node_name(&r, into, sizeof into);
			px_report(s->d, PX_SEV_REMARK, n->oploc, PX_D_remark_fold, root, inner,
			           px_module_line(s->m, cv.inner->oploc), into);
		}
		select_node(s, &r);
		return;
	}
	if (s->remarks)
		remark_no_fold(s, p, n);
	select_node(s, n);
}
