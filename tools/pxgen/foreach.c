/* pxgen: the table language's loops. An op may name value lists (`lists:`)
 * and operand sets (`operand_sets:`); a variants entry with `foreach` or
 * `let` is a template expanded once per binding of its variables, and
 * `${...}` in any scalar read while a template is expanded is replaced by a
 * variable's value or an integer expression over the variables. An `iid`
 * written as a mapping is a formula evaluated for every variant. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pxgen.h"

enum { MAX_BINDINGS = 16, MAX_SET_DEPTH = 8 };

static struct {
	const char *name, *value;
} env[MAX_BINDINGS];
static size_t nenv;
static strs expanded; /* every string a substitution made, kept for the run */
static const ynode *op_lists, *op_sets; /* the op being read: its lists: and operand_sets: */

static void bind(const ynode *at, const char *name, const char *value)
{
	if (nenv == MAX_BINDINGS)
		fail(at, "more than %d foreach variables at once", MAX_BINDINGS);
	env[nenv].name = name;
	env[nenv++].value = value;
}

static const char *lookup(const char *name, size_t len)
{
	for (size_t i = nenv; i-- > 0;)
		if (strlen(env[i].name) == len && !strncmp(env[i].name, name, len))
			return env[i].value;
	return NULL;
}

/* Appended to every error: the bindings of the expansion at fault. */
void foreach_context(FILE *f)
{
	for (size_t i = 0; i < nenv; i++)
		fprintf(f, "%s%s=%s", i ? ", " : " (foreach ", env[i].name, env[i].value);
	if (nenv)
		fputc(')', f);
}

/* ---------------------------------------------------------------- ${...} */

struct expr {
	const ynode *at;
	const char *p, *text;
};

static long long expr_sum(struct expr *e);

static void skip_space(struct expr *e)
{
	while (*e->p == ' ')
		e->p++;
}

static size_t name_len(const char *s)
{
	size_t n = 0;
	while ((s[n] >= 'a' && s[n] <= 'z') || (s[n] >= 'A' && s[n] <= 'Z') || s[n] == '_' ||
	       (n && s[n] >= '0' && s[n] <= '9'))
		n++;
	return n;
}

static long long expr_atom(struct expr *e)
{
	long long v = 0;
	size_t n;
	skip_space(e);
	if (*e->p == '(') {
		e->p++;
		v = expr_sum(e);
		skip_space(e);
		if (*e->p != ')')
			fail(e->at, "'${%s}' lacks a ')'", e->text);
		e->p++;
	} else if (*e->p >= '0' && *e->p <= '9') {
		while (*e->p >= '0' && *e->p <= '9' && v < 1000000000)
			v = v * 10 + (*e->p++ - '0');
	} else if ((n = name_len(e->p))) {
		const char *val = lookup(e->p, n), *c;
		if (!val)
			fail(e->at, "'%.*s' in '${%s}' is not a foreach variable", (int)n, e->p, e->text);
		for (c = val; *c >= '0' && *c <= '9' && v < 1000000000; c++)
			v = v * 10 + (*c - '0');
		if (!*val || *c)
			fail(e->at, "'%.*s' is '%s', not an integer, in '${%s}'", (int)n, e->p, val, e->text);
		e->p += n;
	} else {
		fail(e->at, "'${%s}' is not an integer expression", e->text);
	}
	return v;
}

static long long expr_product(struct expr *e)
{
	long long v = expr_atom(e);
	for (skip_space(e); *e->p == '*' || *e->p == '/'; skip_space(e)) {
		char op = *e->p++;
		long long r = expr_atom(e);
		if (op == '*')
			v *= r;
		else if (!r || v % r)
			fail(e->at, "'${%s}' divides %lld by %lld, which leaves a remainder", e->text, v, r);
		else
			v /= r;
	}
	return v;
}

static long long expr_sum(struct expr *e)
{
	long long v = expr_product(e);
	for (skip_space(e); *e->p == '+' || *e->p == '-'; skip_space(e)) {
		char op = *e->p++;
		long long r = expr_product(e);
		v = op == '+' ? v + r : v - r;
	}
	return v;
}

/* s with every ${NAME} replaced by the variable's value and every other
 * ${EXPR} by the expression's integer value; s itself when it has no "${". */
const char *subst(const ynode *at, const char *s)
{
	if (!strstr(s, "${"))
		return s;
	sbuf b = {0};
	for (const char *p = s; *p;) {
		const char *open = strstr(p, "${"), *close;
		if (!open) {
			sb_printf(&b, "%s", p);
			break;
		}
		if (!(close = strchr(open, '}')))
			fail(at, "'%s' opens a '${' it does not close", s);
		sb_printf(&b, "%.*s", (int)(open - p), p);
		char *text = xstrdup(open + 2);
		text[close - open - 2] = 0;
		const char *val = name_len(text) == strlen(text) ? lookup(text, strlen(text)) : NULL;
		if (val) {
			sb_printf(&b, "%s", val);
		} else {
			struct expr e = {at, text, text};
			long long v = expr_sum(&e);
			skip_space(&e);
			if (*e.p)
				fail(at, "'${%s}' is not an integer expression", text);
			sb_printf(&b, "%lld", v);
		}
		free(text);
		p = close + 1;
	}
	strs_push(&expanded, b.p ? b.p : xstrdup(""));
	return expanded.v[expanded.n - 1];
}

/* ---------------------------------------------------------------- lists and operand sets */

void foreach_begin_op(const ynode *op)
{
	op_lists = map_get(op, "lists");
	op_sets = map_get(op, "operand_sets");
	if (op_lists) {
		expect(op_lists, YAML_MAPPING_NODE, "lists");
		MAP_EACH(p, op_lists) {
			identifier(node(p->key), "a list name");
			expect(node(p->value), YAML_SEQUENCE_NODE, "a list");
		}
	}
	if (op_sets) {
		expect(op_sets, YAML_MAPPING_NODE, "operand_sets");
		MAP_EACH(p, op_sets) {
			identifier(node(p->key), "an operand set name");
			expect(node(p->value), YAML_SEQUENCE_NODE, "an operand set");
		}
	}
}

/* A list of values: written out, or the name of one of the op's lists. */
static strs value_list(const ynode *v)
{
	if (v->type == YAML_SEQUENCE_NODE)
		return scalar_list(v, "a foreach value");
	const char *name = scalar(v, "a list name");
	const ynode *l = op_lists ? map_get(op_lists, name) : NULL;
	if (!l)
		fail(v, "unknown list '%s' (the op's lists: names each)", name);
	return scalar_list(l, "a list value");
}

static void flatten(opnd_items *out, const ynode *list, unsigned depth, const ynode *at)
{
	if (depth > MAX_SET_DEPTH)
		fail(at, "operand sets nest more than %d deep", MAX_SET_DEPTH);
	SEQ_EACH(it, list) {
		ynode *e = node(*it);
		if (e->type != YAML_SCALAR_NODE) {
			*PUSH(out->v, out->n, out->cap) = e;
			continue;
		}
		const char *name = scalar(e, "an operand set name");
		const ynode *set = op_sets ? map_get(op_sets, name) : NULL;
		if (!set)
			fail(e, "unknown operand set '%s' (the op's operand_sets: names each)", name);
		flatten(out, set, depth + 1, e);
	}
}

/* An operand list with every set name replaced by the set's operands. */
opnd_items operand_items(const ynode *list)
{
	opnd_items out = {0};
	flatten(&out, list, 0, list);
	return out;
}

/* ---------------------------------------------------------------- templates */

/* iid: {over: {VAR: VALUES}, sort: TEXT, value: EXPR}: `rank` is the place of
 * TEXT (as this variant expands it) among TEXT expanded for every value of
 * VAR, sorted as byte strings; EXPR, with rank bound, is the ID. */
int32_t iid_formula(const ynode *f)
{
	static const char *const keys[] = {"over", "sort", "value", NULL};
	check_keys(f, "an iid formula", keys);
	const ynode *over = map_need(f, "over", "an iid formula"), *sort = map_need(f, "sort", "an iid formula");
	expect(over, YAML_MAPPING_NODE, "over");
	if (over->data.mapping.pairs.top - over->data.mapping.pairs.start != 1)
		fail(over, "over names one variable");
	const char *var = identifier(node(over->data.mapping.pairs.start->key), "a foreach variable");
	strs vals = value_list(node(over->data.mapping.pairs.start->value));
	const char *mine = scalar(sort, "sort");
	const char **texts = xrealloc(NULL, (vals.n + 1) * sizeof *texts);
	for (size_t i = 0; i < vals.n; i++) {
		bind(over, var, vals.v[i]);
		texts[i] = scalar(sort, "sort");
		nenv--;
	}
	qsort(texts, vals.n, sizeof *texts, cmp_str);
	size_t rank = 0;
	while (rank < vals.n && strcmp(texts[rank], mine))
		rank++;
	free(texts);
	free(vals.v);
	if (rank == vals.n)
		fail(sort, "'%s' is not among the values over names", mine);
	char num[24];
	snprintf(num, sizeof num, "%zu", rank);
	bind(f, "rank", num);
	int32_t id = to_int(map_need(f, "value", "an iid formula"), "iid");
	nenv--;
	return id;
}

static bool is_template(const ynode *e)
{
	return e->type == YAML_MAPPING_NODE &&
	       (map_get(e, "foreach") || map_get(e, "let") || map_get(e, "variants"));
}

static void expand(op_row *op, const ynode *e, const variant_row *dflt);

static void expand_list(op_row *op, const ynode *list, const variant_row *dflt)
{
	expect(list, YAML_SEQUENCE_NODE, "variants");
	SEQ_EACH(it, list) {
		ynode *e = node(*it);
		if (is_template(e))
			expand(op, e, dflt);
		else
			read_variant(op, PUSH(op->variants, op->nvariants, op->cap_variants), e, dflt);
	}
}

/* The body of a template once its variables are bound: its own variants, or
 * the template itself read as one variant. */
static void expand_body(op_row *op, const ynode *e, const variant_row *dflt)
{
	const ynode *body = map_get(e, "variants");
	if (body)
		expand_list(op, body, dflt);
	else
		read_variant(op, PUSH(op->variants, op->nvariants, op->cap_variants), e, dflt);
}

/* Binds the foreach variables from the k-th on, the first outermost. */
static void expand_loop(op_row *op, const ynode *e, const ynode *loop, yaml_node_pair_t *k,
                        const variant_row *dflt)
{
	if (!loop || k == loop->data.mapping.pairs.top) {
		expand_body(op, e, dflt);
		return;
	}
	const char *var = identifier(node(k->key), "a foreach variable");
	strs vals = value_list(node(k->value));
	if (!vals.n)
		fail(node(k->value), "foreach variable '%s' has no values", var);
	for (size_t i = 0; i < vals.n; i++) {
		bind(node(k->key), var, vals.v[i]);
		expand_loop(op, e, loop, k + 1, dflt);
		nenv--;
	}
	free(vals.v);
}

static void expand(op_row *op, const ynode *e, const variant_row *dflt)
{
	static const char *const group_keys[] = {"foreach", "let", "variants", NULL};
	const ynode *loop = map_get(e, "foreach"), *let = map_get(e, "let");
	size_t mark = nenv;
	if (map_get(e, "variants"))
		check_keys(e, "a variants group", group_keys);
	if (let) {
		expect(let, YAML_MAPPING_NODE, "let");
		MAP_EACH(p, let)
			bind(node(p->key), identifier(node(p->key), "a let variable"), scalar(node(p->value), "a let value"));
	}
	if (loop)
		expect(loop, YAML_MAPPING_NODE, "foreach");
	expand_loop(op, e, loop, loop ? loop->data.mapping.pairs.start : NULL, dflt);
	nenv = mark;
}

void read_variants(op_row *op, const ynode *list, const variant_row *dflt)
{
	expand_list(op, list, dflt);
}
