/* pxgen: desc.yaml, the layouts of the descriptors MIR builds from named
 * fields (tcgen05.idesc, wgmma.desc, tcgen05.desc). */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "pxgen.h"

/* Four kinds of row (data/README.md):
 * {desc: OP, field: NAME, lo: L, bits: B, shift: S, required, coded, fixed: V,
 * address, kinds: [K..]}: a field of the descriptor OP builds; without lo it
 * is packed nowhere (kind: it picks the code rows), fixed packs V always,
 * address is the builder's address operand; kinds: the kinds that have it.
 * {desc: OP, kind: K or [K..], field: F, value: V, code: C, align: A}: the
 * code a coded field packs for V under kind K (any: the descriptor has no
 * kind), and the bytes a tile's start is a multiple of with it.
 * {desc: OP, kind: K or [K..], field: F, value: V, needs: G, in: [W..]}: F = V
 * is valid only where G's value is one of W; with mma_slot: S instead of
 * needs, where the MMA reading the descriptor has one of W in its slot S.
 * {desc: OP, kinds: [K..], m: [M..], n: [LO, HI], n_step: S, cta_group: [1, 2],
 * ws, sparse: [0, 1]}: shapes; without n_step, n lists N's values.
 * A kind is a bit of a mask over every kind name the rows use (px_desc_kinds). */
typedef struct field_row {
	const char *desc, *name;
	int lo;
	unsigned bits, shift;
	bool required, coded;
	int fixed; /* the value always packed (no property), or -1 */
	bool address; /* the builder's address operand, not a property */
	unsigned kinds; /* mask over kinds[]; 0: every kind */
} field_row;
typedef struct code_row {
	size_t field;
	const char *kind, *value;
	unsigned code, align;
} code_row;
typedef struct shape_row {
	const char *desc;
	unsigned m, n_lo, n_hi, n_step, groups, kinds, sparse;
	bool ws;
} shape_row;
typedef struct need_row {
	size_t field, needs;
	const char *slot; /* mma_slot's name, or NULL */
	const char *kind, *value;
	const char **in; /* NULL ends */
} need_row;

static field_row *fields;
static size_t nfields, cap_fields;
static code_row *codes;
static size_t ncodes, cap_codes;
static shape_row *shapes;
static size_t nshapes, cap_shapes;
static need_row *rules;
static size_t nrules, cap_rules;
static const char *kinds[32];
static size_t nkinds;

/* the bit of kind name k, added on first sight */
static unsigned kind_bit(const ynode *e, const char *k)
{
	for (size_t i = 0; i < nkinds; i++)
		if (!strcmp(kinds[i], k))
			return 1u << i;
	if (nkinds == 32)
		fail(e, "more than 32 descriptor kinds");
	kinds[nkinds] = k;
	return 1u << nkinds++;
}

/* a scalar or a sequence of scalars, as a NULL-ended list */
static const char **names_of(const ynode *v, const char *what)
{
	size_t n = 0, cap = 0;
	const char **out = NULL;
	if (v->type == YAML_SEQUENCE_NODE) {
		SEQ_EACH(it, v) *PUSH(out, n, cap) = scalar(node(*it), what);
	} else
		*PUSH(out, n, cap) = scalar(v, what);
	*PUSH(out, n, cap) = NULL;
	return out;
}

static unsigned kind_mask(const ynode *e, const ynode *v)
{
	unsigned mask = 0;
	const char **names = names_of(v, "kinds");
	for (const char **k = names; *k; k++)
		mask |= kind_bit(e, *k);
	free(names);
	return mask;
}

/* [a, b, ...] of numbers up to max, as a NULL-less array of count *n */
static unsigned *uints_of(const ynode *v, const char *what, unsigned max, size_t *n)
{
	size_t cap = 0;
	unsigned *out = NULL;
	*n = 0;
	if (v->type != YAML_SEQUENCE_NODE) {
		*PUSH(out, *n, cap) = to_uint(v, what, max);
		return out;
	}
	SEQ_EACH(it, v) *PUSH(out, *n, cap) = to_uint(node(*it), what, max);
	return out;
}

static const char *desc_op(const ynode *e)
{
	const char *op = scalar(map_need(e, "desc", "a descriptor row"), "desc");
	for (size_t i = 0; i < M.nops; i++)
		if (!strcmp(M.ops[i].name, op))
			return op;
	fail(e, "'%s' is no op of ops/", op);
}

static size_t field_of(const ynode *e, const char *desc, const char *name)
{
	for (size_t i = 0; i < nfields; i++)
		if (!strcmp(fields[i].desc, desc) && !strcmp(fields[i].name, name))
			return i;
	fail(e, "'%s' names no field of %s written before it", name, desc);
}

void read_desc(void)
{
	static const char *const keys[] = {"desc", "field", "lo", "bits", "shift", "required", "coded", "kind",
	                                   "value", "code", "fixed", "address", "align", "m", "n", "n_step", "cta_group", "note",
	                                   "kinds", "ws", "sparse", "needs", "in", "mma_slot", NULL};
	ynode *root = root_list("desc.yaml");
	if (!root)
		return;
	SEQ_EACH(it, root) {
		ynode *e = node(*it);
		check_keys(e, "a descriptor row", keys);
		const char *desc = desc_op(e);
		ynode *v;
		if ((v = map_get(e, "m"))) {
			size_t nm, nn, nsp;
			unsigned *ms = uints_of(v, "m", 1024, &nm), groups = 0, sparse = 0;
			ynode *n = map_need(e, "n", "a shape row");
			expect(n, YAML_SEQUENCE_NODE, "n");
			unsigned *ns = uints_of(n, "n", 1024, &nn);
			ynode *st = map_get(e, "n_step");
			unsigned step = st ? to_uint(st, "n_step", 1024) : 0;
			if (st && (nn != 2 || !step || ns[0] % step || ns[1] % step || ns[0] > ns[1]))
				fail(e, "n is [lowest, highest], multiples of n_step, lowest first");
			ynode *g = map_need(e, "cta_group", "a shape row");
			expect(g, YAML_SEQUENCE_NODE, "cta_group");
			SEQ_EACH(gi, g) {
				unsigned k = to_uint(node(*gi), "cta_group", 2);
				if (!k)
					fail(node(*gi), "cta_group is 1 or 2");
				groups |= 1u << k;
			}
			if ((v = map_get(e, "sparse"))) {
				unsigned *sp = uints_of(v, "sparse", 1, &nsp);
				for (size_t i = 0; i < nsp; i++)
					sparse |= 1u << sp[i];
				free(sp);
			} else
				sparse = 3;
			unsigned mask = (v = map_get(e, "kinds")) ? kind_mask(e, v) : 0;
			bool ws = (v = map_get(e, "ws")) && to_bool(v, "ws");
			for (size_t i = 0; i < nm; i++)
				for (size_t j = 0; j < (st ? 1 : nn); j++) {
					shape_row *s = PUSH(shapes, nshapes, cap_shapes);
					*s = (shape_row){desc, ms[i], st ? ns[0] : ns[j], st ? ns[1] : ns[j], st ? step : ns[j],
					                 groups, mask, sparse, ws};
					if (!s->m || !s->n_step)
						fail(e, "m and n are above 0");
				}
			free(ms);
			free(ns);
		} else if ((v = map_get(e, "needs")) || map_get(e, "mma_slot")) {
			const char **ks = names_of(map_need(e, "kind", "a rule row"), "kind");
			ynode *in = map_need(e, "in", "a rule row");
			expect(in, YAML_SEQUENCE_NODE, "in");
			for (const char **k = ks; *k; k++) {
				need_row *r = PUSH(rules, nrules, cap_rules);
				r->field = field_of(e, desc, scalar(map_need(e, "field", "a rule row"), "field"));
				r->needs = v ? field_of(e, desc, scalar(v, "needs")) : 0;
				r->slot = v ? NULL : identifier(map_get(e, "mma_slot"), "mma_slot");
				if (v && map_get(e, "mma_slot"))
					fail(e, "a rule row has needs or mma_slot, not both");
				r->kind = *k;
				kind_bit(e, *k);
				r->value = scalar(map_need(e, "value", "a rule row"), "value");
				r->in = names_of(in, "in");
			}
			free(ks);
		} else if ((v = map_get(e, "code"))) {
			const char **ks = names_of(map_need(e, "kind", "a code row"), "kind");
			for (const char **k = ks; *k; k++) {
				code_row *c = PUSH(codes, ncodes, cap_codes);
				c->field = field_of(e, desc, scalar(map_need(e, "field", "a code row"), "field"));
				if (!fields[c->field].coded)
					fail(e, "field '%s' is not coded", fields[c->field].name);
				c->kind = *k;
				kind_bit(e, *k);
				c->value = scalar(map_need(e, "value", "a code row"), "value");
				c->code = to_uint(v, "code", (1u << fields[c->field].bits) - 1);
				ynode *a = map_get(e, "align");
				c->align = a ? to_uint(a, "align", 1u << 16) : 0;
				for (size_t i = 0; i + 1 < ncodes; i++)
					if (codes[i].field == c->field && !strcmp(codes[i].kind, c->kind) &&
					    !strcmp(codes[i].value, c->value))
						fail(e, "duplicate code row");
			}
			free(ks);
		} else {
			field_row *f = PUSH(fields, nfields, cap_fields);
			f->desc = desc;
			f->name = identifier(map_need(e, "field", "a field row"), "field");
			for (size_t i = 0; i + 1 < nfields; i++)
				if (!strcmp(fields[i].desc, desc) && !strcmp(fields[i].name, f->name))
					fail(e, "duplicate field '%s' of %s", f->name, desc);
			f->lo = -1;
			f->bits = 0;
			if ((v = map_get(e, "lo"))) {
				f->lo = (int)to_uint(v, "lo", 63);
				f->bits = to_uint(map_need(e, "bits", "a packed field"), "bits", 31);
				if (!f->bits || f->lo + (int)f->bits > 64)
					fail(e, "the field lies outside 64 bits");
			}
			f->shift = (v = map_get(e, "shift")) ? to_uint(v, "shift", 16) : 0;
			f->required = (v = map_get(e, "required")) && to_bool(v, "required");
			f->coded = (v = map_get(e, "coded")) && to_bool(v, "coded");
			f->address = (v = map_get(e, "address")) && to_bool(v, "address");
			f->fixed = -1;
			if ((v = map_get(e, "fixed"))) {
				if (f->lo < 0)
					fail(v, "a fixed field needs its bits");
				f->fixed = (int)to_uint(v, "fixed", (1u << f->bits) - 1);
			}
			f->kinds = (v = map_get(e, "kinds")) ? kind_mask(e, v) : 0;
		}
	}
}

void emit_desc_enum(sbuf *h)
{
	const char **names = xrealloc(NULL, (nfields + 1) * sizeof *names);
	sbuf *full = xrealloc(NULL, (nfields + 1) * sizeof *full);
	for (size_t i = 0; i < nfields; i++) {
		full[i] = (sbuf){0};
		sb_printf(&full[i], "%s_%s", fields[i].desc, fields[i].name);
		names[i] = full[i].p;
	}
	emit_enum(h, "descriptor fields: px_desc_fields[], PX_DF_<op>_<field> (data/desc.yaml)", "PX_DF_", names,
	          nfields, NULL, true);
	for (size_t i = 0; i < nfields; i++)
		free(full[i].p);
	free(full);
	free(names);
}

void emit_desc(sbuf *c)
{
	sb_printf(c, "\n/* the descriptors' kinds, fields, codes, rules and shapes (data/desc.yaml) */\n"
	             "const char *const px_desc_kinds[] = {");
	for (size_t i = 0; i < nkinds; i++)
		sb_printf(c, "\"%s\", ", kinds[i]);
	sb_printf(c, "NULL};\nconst px_desc_field px_desc_fields[] = {\n");
	for (size_t i = 0; i < nfields; i++) {
		char *op = sanitize(fields[i].desc);
		sb_printf(c, "\t{PX_OP_%s, \"%s\", %d, %u, %u, %d, %d, %d, %d, 0x%x},\n", op, fields[i].name, fields[i].lo,
		          fields[i].bits, fields[i].shift, fields[i].required, fields[i].coded, fields[i].fixed,
		          fields[i].address, fields[i].kinds);
		free(op);
	}
	sb_printf(c, "\t{0, NULL, 0, 0, 0, 0, 0, -1, 0, 0},\n};\nconst px_desc_code px_desc_codes[] = {\n");
	for (size_t i = 0; i < ncodes; i++)
		sb_printf(c, "\t{%zu, \"%s\", \"%s\", %u, %u},\n", codes[i].field, codes[i].kind, codes[i].value,
		          codes[i].code, codes[i].align);
	sb_printf(c, "\t{0, NULL, NULL, 0, 0},\n};\n");
	for (size_t i = 0; i < nrules; i++) {
		sb_printf(c, "static const char *const px_desc_rule_in%zu[] = {", i);
		for (const char **w = rules[i].in; *w; w++)
			sb_printf(c, "\"%s\", ", *w);
		sb_printf(c, "NULL};\n");
	}
	sb_printf(c, "const px_desc_rule px_desc_rules[] = {\n");
	for (size_t i = 0; i < nrules; i++)
		sb_printf(c, "\t{%zu, %zu, PX_SN_%s, \"%s\", \"%s\", px_desc_rule_in%zu},\n", rules[i].field,
		          rules[i].needs, rules[i].slot ? rules[i].slot : "_NONE", rules[i].kind, rules[i].value, i);
	sb_printf(c, "\t{0, 0, PX_SN__NONE, NULL, NULL, NULL},\n};\nconst px_desc_shape px_desc_shapes[] = {\n");
	for (size_t i = 0; i < nshapes; i++) {
		char *op = sanitize(shapes[i].desc);
		sb_printf(c, "\t{PX_OP_%s, %u, %u, %u, %u, 0x%x, 0x%x, %u, %d},\n", op, shapes[i].m, shapes[i].n_lo,
		          shapes[i].n_hi, shapes[i].n_step, shapes[i].groups, shapes[i].kinds, shapes[i].sparse,
		          shapes[i].ws);
		free(op);
	}
	sb_printf(c, "\t{0, 0, 0, 0, 0, 0, 0, 0, 0},\n};\n");
}
