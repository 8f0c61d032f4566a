/* pxgen: patterns.yaml, the pattern matcher's tables. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pxgen.h"

/* patterns.yaml: the pattern matcher's tables (seed 003's MatcherTable layer):
 * `bare`, the tail of every node's one-node pattern, and `patterns`, each
 * folding an inner node into the root that reads its result. Ops and slots
 * are named as in ops/ and checked against them; op indices are resolved at
 * emit time, after the ops are sorted. */

typedef struct lattice_step {
	unsigned sm_below, byte;
} lattice_step;

typedef struct pat_tail {
	lattice_step *steps;
	size_t nsteps, cap;
	unsigned cost;
} pat_tail;

typedef struct pat_node {
	const op_row *op;      /* valid while reading only: the ops are sorted afterwards */
	const char *opname;
	size_t nslots;
	strs *when[MAX_SLOTS]; /* NULL: any token; an empty list: the slot must be empty */
} pat_node;

typedef struct pat_row {
	const char *name;
	pat_node root, inner;
	unsigned at, commutative, flags, reach;
	unsigned same[MAX_SLOTS];    /* per root slot: 1 + inner slot */
	pat_tail tail;
	const op_row *emit;    /* valid while reading only */
	const char *emitname;
	size_t emit_nslots;
	const char *set[MAX_SLOTS];  /* per replacement slot: token or NULL */
	unsigned copy[MAX_SLOTS];    /* per replacement slot: 1 + root slot */
	unsigned nops;
	unsigned ops[PAT_MAX_OPNDS][2]; /* {from the inner node, operand index} */
} pat_row;

static struct {
	pat_tail bare;
	bool have_bare;
	pat_row *v;
	size_t n, cap;
} P;

static const op_row *pat_op(const ynode *n)
{
	const char *name = scalar(n, "an op name");
	for (size_t i = 0; i < M.nops; i++)
		if (!strcmp(M.ops[i].name, name))
			return &M.ops[i];
	fail(n, "unknown op '%s'", name);
}

static int opnd_index(const op_row *op, const char *name)
{
	for (size_t i = 0; i < op->operands.n; i++)
		if (!strcmp(op->operands.v[i].name, name))
			return (int)i;
	return -1;
}

/* Steps by ascending sm_below, the last without one: the byte for every other target. */
static void read_lattice(pat_tail *t, const ynode *list)
{
	static const char *const keys[] = {"sm_below", "byte", NULL};
	expect(list, YAML_SEQUENCE_NODE, "lattice");
	SEQ_EACH(it, list) {
		const ynode *e = node(*it);
		check_keys(e, "a lattice step", keys);
		lattice_step *s = PUSH(t->steps, t->nsteps, t->cap);
		const ynode *below = map_get(e, "sm_below");
		bool last = it + 1 == list->data.sequence.items.top;
		if (!below != last)
			fail(e, last ? "the last lattice step applies to every target: no sm_below"
			             : "every lattice step but the last needs sm_below");
		s->sm_below = below ? to_uint(below, "sm_below", 1000) : 0;
		if (below && (!s->sm_below || (t->nsteps > 1 && s->sm_below <= s[-1].sm_below)))
			fail(below, "sm_below must be positive and ascend");
		s->byte = to_uint(map_need(e, "byte", "a lattice step"), "byte", 255);
	}
	if (!t->nsteps)
		fail(list, "a lattice needs at least one step");
}

static void read_tail(pat_tail *t, const ynode *map, const char *what)
{
	read_lattice(t, map_need(map, "lattice", what));
	t->cost = to_uint(map_need(map, "cost", what), "cost", 255);
}

static void read_bare(const ynode *map)
{
	static const char *const keys[] = {"lattice", "cost", NULL};
	check_keys(map, "bare", keys);
	read_tail(&P.bare, map, "bare");
	P.have_bare = true;
}

/* A matched node: op, slot constraints (`types` constrains the type slot), and
 * `commutative` (root) or `operand` (inner: the root operand it defines). */
/* A `slots:` map of op's slot names to token lists, into when[slot]; with
 * single, each list must be one token (a replacement writes one). */
static void read_slot_tokens(const op_row *op, const ynode *v, strs **when, bool single)
{
	expect(v, YAML_MAPPING_NODE, "slots");
	MAP_EACH(p, v) {
		int k = need_slot(op, node(p->key));
		when[k] = variant_tokens(op, k, node(p->value));
		if (single && when[k]->n != 1)
			fail(node(p->value), "an emitted slot takes one token");
	}
}

static void read_pat_node(pat_row *r, pat_node *pn, const ynode *map, bool root)
{
	static const char *const root_keys[] = {"op", "types", "slots", "commutative", NULL};
	static const char *const inner_keys[] = {"op", "types", "slots", "operand", NULL};
	const char *what = root ? "a pattern's root" : "a pattern's inner node";
	check_keys(map, what, root ? root_keys : inner_keys);
	const ynode *v = map_need(map, "op", what);
	pn->op = pat_op(v);
	pn->opname = pn->op->name;
	pn->nslots = pn->op->nslots;
	if ((v = map_get(map, "slots")))
		read_slot_tokens(pn->op, v, pn->when, false);
	if ((v = map_get(map, "types"))) {
		int k = slot_index(pn->op, "type");
		if (k < 0 || pn->when[k])
			fail(v, "types needs a type slot not also named in slots");
		pn->when[k] = variant_tokens(pn->op, k, v);
	}
	if (root && (v = map_get(map, "commutative"))) {
		r->commutative = to_bool(v, "commutative");
		if (r->commutative && pn->op->operands.n != 2)
			fail(v, "only a two-operand root may commute");
	}
	if (!root) {
		v = map_need(map, "operand", what);
		int k = opnd_index(r->root.op, scalar(v, "operand"));
		if (k < 0)
			fail(v, "op '%s' has no operand '%s'", r->root.op->name, scalar(v, "operand"));
		r->at = (unsigned)k;
	}
}

/* Slots whose token the root and the inner node must share. */
static void read_same(pat_row *r, const ynode *list)
{
	expect(list, YAML_SEQUENCE_NODE, "same");
	SEQ_EACH(it, list) {
		int k = need_slot(r->root.op, node(*it)), j = need_slot(r->inner.op, node(*it));
		r->same[k] = (unsigned)j + 1;
	}
}

static unsigned read_pat_flags(const ynode *list)
{
	unsigned bits = 0;
	expect(list, YAML_SEQUENCE_NODE, "flags");
	SEQ_EACH(it, list) {
		int f = strs_find(&M.flags, scalar(node(*it), "a flag"));
		if (f < 0)
			fail(node(*it), "unknown flag '%s' (flags.yaml)", scalar(node(*it), "a flag"));
		bits |= 1u << f;
	}
	return bits;
}

/* "inner.a" or "root.b": an operand of a matched node, by its name in ops/. */
static void read_ref(pat_row *r, unsigned *ref, const ynode *n)
{
	const char *s = scalar(n, "an operand reference");
	const char *dot = strchr(s, '.');
	bool inner = dot && dot - s == 5 && !strncmp(s, "inner", 5);
	if (!dot || (!inner && (dot - s != 4 || strncmp(s, "root", 4))))
		fail(n, "an operand reference is inner.NAME or root.NAME, not '%s'", s);
	const op_row *op = inner ? r->inner.op : r->root.op;
	int k = opnd_index(op, dot + 1);
	if (k < 0)
		fail(n, "op '%s' has no operand '%s'", op->name, dot + 1);
	if (!inner && (unsigned)k == r->at)
		fail(n, "root.%s is the inner node's result, which the pattern absorbs", dot + 1);
	ref[0] = inner;
	ref[1] = (unsigned)k;
}

/* The replacement: its op, the tokens it writes, the root slots it copies and
 * where each of its operands comes from. */
static void read_emit(pat_row *r, const ynode *map)
{
	static const char *const keys[] = {"op", "slots", "copy", "operands", NULL};
	check_keys(map, "emit", keys);
	const ynode *v = map_need(map, "op", "emit");
	r->emit = pat_op(v);
	r->emitname = r->emit->name;
	r->emit_nslots = r->emit->nslots;
	if ((v = map_get(map, "slots"))) {
		strs *one[MAX_SLOTS] = {0};
		read_slot_tokens(r->emit, v, one, true);
		for (int k = 0; k < MAX_SLOTS; k++) {
			if (!one[k])
				continue;
			r->set[k] = one[k]->v[0]; /* the one token is kept; its list is not */
			free(one[k]->v);
			free(one[k]);
		}
	}
	if ((v = map_get(map, "copy"))) {
		expect(v, YAML_SEQUENCE_NODE, "copy");
		SEQ_EACH(it, v) {
			int k = need_slot(r->emit, node(*it)), j = need_slot(r->root.op, node(*it));
			if (r->set[k])
				fail(node(*it), "slot '%s' is both written and copied", r->emit->slots[k].name);
			r->copy[k] = (unsigned)j + 1;
		}
	}
	v = map_need(map, "operands", "emit");
	expect(v, YAML_SEQUENCE_NODE, "operands");
	SEQ_EACH(it, v) {
		if (r->nops == PAT_MAX_OPNDS)
			fail(node(*it), "a replacement takes at most %d operands", PAT_MAX_OPNDS);
		read_ref(r, r->ops[r->nops++], node(*it));
	}
	if (r->nops != r->emit->operands.n)
		fail(v, "op '%s' takes %zu operands, not %u", r->emit->name, r->emit->operands.n, r->nops);
}

static void read_pattern(const ynode *e)
{
	static const char *const keys[] = {"name", "root", "inner", "same", "flags", "one_use", "reach",
	                                   "lattice", "cost", "emit", NULL};
	check_keys(e, "a pattern", keys);
	pat_row *r = PUSH(P.v, P.n, P.cap);
	*r = (pat_row){.name = identifier(map_need(e, "name", "a pattern"), "pattern name")};
	for (size_t i = 0; i + 1 < P.n; i++)
		if (!strcmp(P.v[i].name, r->name))
			fail(e, "duplicate pattern '%s'", r->name);
	read_pat_node(r, &r->root, map_need(e, "root", "a pattern"), true);
	read_pat_node(r, &r->inner, map_need(e, "inner", "a pattern"), false);
	const ynode *v;
	if ((v = map_get(e, "same")))
		read_same(r, v);
	if ((v = map_get(e, "flags")))
		r->flags = read_pat_flags(v);
	v = map_need(e, "one_use", "a pattern");
	if (!to_bool(v, "one_use"))
		fail(v, "a pattern absorbs its inner node, whose result must have that one read: one_use: true");
	r->reach = to_uint(map_need(e, "reach", "a pattern"), "reach", 65535);
	read_tail(&r->tail, e, "a pattern");
	read_emit(r, map_need(e, "emit", "a pattern"));
}

/* A folded root is emitted as its replacement, so no pattern may absorb it. */
static void check_pattern_nesting(const ynode *at)
{
	for (size_t i = 0; i < P.n; i++)
		for (size_t j = 0; j < P.n; j++)
			if (P.v[i].inner.op == P.v[j].root.op)
				fail(at, "pattern '%s' absorbs op '%s', the root of pattern '%s'", P.v[i].name,
				     P.v[i].inner.opname, P.v[j].name);
}

void read_patterns(void)
{
	static const char *const keys[] = {"bare", "patterns", NULL};
	ynode *root = yaml_document_get_root_node((yaml_document_t *)&cur->doc);
	if (!root)
		return;
	check_keys(root, "patterns.yaml", keys);
	read_bare(map_need(root, "bare", "patterns.yaml"));
	ynode *list = map_get(root, "patterns");
	if (!list)
		return;
	expect(list, YAML_SEQUENCE_NODE, "patterns");
	SEQ_EACH(it, list)
		read_pattern(node(*it));
	check_pattern_nesting(list);
}

static size_t op_position(const char *name)
{
	size_t i = 0;
	while (strcmp(M.ops[i].name, name))
		i++;
	return i;
}

static void emit_lattice(sbuf *c, const char *name, const pat_tail *t)
{
	sb_printf(c, "static const px_lattice_step %s[] = {", name);
	for (size_t i = 0; i < t->nsteps; i++)
		sb_printf(c, "%s{%u, %u}", i ? ", " : "", t->steps[i].sm_below, t->steps[i].byte);
	sb_printf(c, "};\n");
}

/* A matched node's slot lists go to c as arrays named after the pattern; its
 * initializer goes to row. */
static void emit_pat_node(sbuf *c, sbuf *row, const pat_row *r, const pat_node *pn, const char *role)
{
	sb_printf(row, "{%zu, {", op_position(pn->opname));
	const char *sep = "";
	for (size_t k = 0; k < pn->nslots; k++) {
		if (!pn->when[k])
			continue;
		if (pn->when[k]->n) {
			sb_printf(c, "static const uint16_t px_pat_%s_%s%zu[] = {", r->name, role, k);
			for (size_t t = 0; t < pn->when[k]->n; t++)
				sb_printf(c, "%u, ", tok_id(pn->when[k]->v[t]));
			sb_printf(c, "0};\n");
			sb_printf(row, "%s[%zu] = px_pat_%s_%s%zu", sep, k, r->name, role, k);
		} else {
			sb_printf(row, "%s[%zu] = px_rule_empty", sep, k);
		}
		sep = ", ";
	}
	sb_printf(row, "%s}}", *sep ? "" : "NULL");
}

/* A per-slot array of a pattern as a designated initializer of its nonzero entries. */
static void emit_slot_uints(sbuf *row, const unsigned *v, size_t n)
{
	const char *sep = "";
	sb_printf(row, "{");
	for (size_t k = 0; k < n; k++)
		if (v[k]) {
			sb_printf(row, "%s[%zu] = %u", sep, k, v[k]);
			sep = ", ";
		}
	sb_printf(row, "%s}", *sep ? "" : "0");
}

static void emit_pattern(sbuf *c, sbuf *rows, const pat_row *r)
{
	sbuf name = {0};
	sb_printf(&name, "px_pat_%s_lattice", r->name);
	emit_lattice(c, name.p, &r->tail);
	unsigned set[MAX_SLOTS] = {0};
	for (size_t k = 0; k < r->emit_nslots; k++)
		set[k] = r->set[k] ? tok_id(r->set[k]) : 0;
	sb_printf(rows, "\t{\"%s\", ", r->name);
	emit_pat_node(c, rows, r, &r->root, "root");
	sb_printf(rows, ", ");
	emit_pat_node(c, rows, r, &r->inner, "inner");
	sb_printf(rows, ", %u, %u, ", r->at, r->commutative);
	emit_slot_uints(rows, r->same, r->root.nslots);
	sb_printf(rows, ", 0x%xu, %u, {%s, %u}, %zu, ", r->flags, r->reach, name.p, r->tail.cost,
	          op_position(r->emitname));
	emit_slot_uints(rows, set, r->emit_nslots);
	sb_printf(rows, ", ");
	emit_slot_uints(rows, r->copy, r->emit_nslots);
	sb_printf(rows, ", %u, {", r->nops);
	for (unsigned i = 0; i < r->nops; i++)
		sb_printf(rows, "%s{%u, %u}", i ? ", " : "", r->ops[i][0], r->ops[i][1]);
	sb_printf(rows, "}},\n");
	free(name.p);
}

void emit_patterns(sbuf *c)
{
	if (!P.have_bare) {
		fprintf(stderr, "pxgen: error: no patterns.yaml: the matcher needs its bare tail\n");
		exit(1);
	}
	sb_printf(c, "\n/* the pattern matcher's patterns (data/patterns.yaml) */\n");
	emit_lattice(c, "px_bare_lattice", &P.bare);
	sb_printf(c, "const px_pat_tail px_bare_tail = {px_bare_lattice, %u};\n", P.bare.cost);
	sbuf rows = {0};
	for (size_t i = 0; i < P.n; i++)
		emit_pattern(c, &rows, &P.v[i]);
	emit_row_array(c, "px_pattern", "px_patterns", "px_npatterns", &rows, P.n);
	free(rows.p);
}

void emit_pattern_enum(sbuf *h)
{
	const char **names = xrealloc(NULL, (P.n + 1) * sizeof *names);
	for (size_t i = 0; i < P.n; i++)
		names[i] = P.v[i].name;
	emit_enum(h, "the matcher's patterns: px_patterns[]", "PX_PAT_", names, P.n, NULL, true);
	free(names);
}
