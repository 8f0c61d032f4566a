/* pxgen: desc.yaml, the layouts of the descriptors MIR builds from named
 * fields (tcgen05.idesc, wgmma.desc, tcgen05.desc). */
#define _POSIX_C_SOURCE 200809L
#include <string.h>

#include "pxgen.h"

/* Three kinds of row (data/README.md):
 * {desc: OP, field: NAME, lo: L, bits: B, shift: S, required, coded, fixed: V,
 * address}: a field of the descriptor OP builds; without lo it is packed
 * nowhere (kind: it picks the code rows), fixed packs V always, address is
 * the builder's address operand.
 * {desc: OP, kind: K, field: F, value: V, code: C, align: A}: the code a coded
 * field packs for V under kind K (any: the descriptor has no kind), and the
 * bytes a tile's start is a multiple of with it.
 * {desc: OP, m: M, n: [LO, HI], n_step: S, cta_group: [1, 2]}: a shape. */
typedef struct field_row {
	const char *desc, *name;
	int lo;
	unsigned bits, shift;
	bool required, coded;
	int fixed; /* the value always packed (no property), or -1 */
	bool address; /* the builder's address operand, not a property */
} field_row;
typedef struct code_row {
	size_t field;
	const char *kind, *value;
	unsigned code, align;
} code_row;
typedef struct shape_row {
	const char *desc;
	unsigned m, n_lo, n_hi, n_step, groups;
} shape_row;

static field_row *fields;
static size_t nfields, cap_fields;
static code_row *codes;
static size_t ncodes, cap_codes;
static shape_row *shapes;
static size_t nshapes, cap_shapes;

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
	                                   "value", "code", "fixed", "address", "align", "m", "n", "n_step", "cta_group", "note", NULL};
	ynode *root = root_list("desc.yaml");
	if (!root)
		return;
	SEQ_EACH(it, root) {
		ynode *e = node(*it);
		check_keys(e, "a descriptor row", keys);
		const char *desc = desc_op(e);
		ynode *v;
		if ((v = map_get(e, "m"))) {
			shape_row *s = PUSH(shapes, nshapes, cap_shapes);
			s->desc = desc;
			s->m = to_uint(v, "m", 1024);
			ynode *n = map_need(e, "n", "a shape row");
			expect(n, YAML_SEQUENCE_NODE, "n");
			if (n->data.sequence.items.top - n->data.sequence.items.start != 2)
				fail(n, "n is [lowest, highest]");
			s->n_lo = to_uint(node(n->data.sequence.items.start[0]), "n", 1024);
			s->n_hi = to_uint(node(n->data.sequence.items.start[1]), "n", 1024);
			s->n_step = to_uint(map_need(e, "n_step", "a shape row"), "n_step", 1024);
			if (!s->n_step || s->n_lo % s->n_step || s->n_hi % s->n_step || s->n_lo > s->n_hi)
				fail(e, "n's bounds are multiples of n_step, lowest first");
			ynode *g = map_need(e, "cta_group", "a shape row");
			expect(g, YAML_SEQUENCE_NODE, "cta_group");
			SEQ_EACH(gi, g) {
				unsigned k = to_uint(node(*gi), "cta_group", 2);
				if (!k)
					fail(node(*gi), "cta_group is 1 or 2");
				s->groups |= 1u << k;
			}
		} else if ((v = map_get(e, "code"))) {
			code_row *c = PUSH(codes, ncodes, cap_codes);
			c->field = field_of(e, desc, scalar(map_need(e, "field", "a code row"), "field"));
			if (!fields[c->field].coded)
				fail(e, "field '%s' is not coded", fields[c->field].name);
			c->kind = scalar(map_need(e, "kind", "a code row"), "kind");
			c->value = scalar(map_need(e, "value", "a code row"), "value");
			c->code = to_uint(v, "code", (1u << fields[c->field].bits) - 1);
			c->align = (v = map_get(e, "align")) ? to_uint(v, "align", 1u << 16) : 0;
			for (size_t i = 0; i + 1 < ncodes; i++)
				if (codes[i].field == c->field && !strcmp(codes[i].kind, c->kind) &&
				    !strcmp(codes[i].value, c->value))
					fail(e, "duplicate code row");
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
	sb_printf(c, "\n/* the descriptors' fields, codes and shapes (data/desc.yaml) */\n"
	             "const px_desc_field px_desc_fields[] = {\n");
	for (size_t i = 0; i < nfields; i++) {
		char *op = sanitize(fields[i].desc);
		sb_printf(c, "\t{PX_OP_%s, \"%s\", %d, %u, %u, %d, %d, %d, %d},\n", op, fields[i].name, fields[i].lo,
		          fields[i].bits, fields[i].shift, fields[i].required, fields[i].coded, fields[i].fixed,
		          fields[i].address);
		free(op);
	}
	sb_printf(c, "\t{0, NULL, 0, 0, 0, 0, 0, -1, 0},\n};\nconst px_desc_code px_desc_codes[] = {\n");
	for (size_t i = 0; i < ncodes; i++)
		sb_printf(c, "\t{%zu, \"%s\", \"%s\", %u, %u},\n", codes[i].field, codes[i].kind, codes[i].value,
		          codes[i].code, codes[i].align);
	sb_printf(c, "\t{0, NULL, NULL, 0, 0},\n};\nconst px_desc_shape px_desc_shapes[] = {\n");
	for (size_t i = 0; i < nshapes; i++) {
		char *op = sanitize(shapes[i].desc);
		sb_printf(c, "\t{PX_OP_%s, %u, %u, %u, %u, 0x%x},\n", op, shapes[i].m, shapes[i].n_lo, shapes[i].n_hi,
		          shapes[i].n_step, shapes[i].groups);
		free(op);
	}
	sb_printf(c, "\t{0, 0, 0, 0, 0, 0},\n};\n");
}
