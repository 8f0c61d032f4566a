/* pxgen: the generated C, px_tables.h and px_tables.c. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pxgen.h"
#include "tables/namehash.h"

static const char **tok_sorted; /* [0] is "" */
static size_t ntok_sorted;

void sort_tokens(void)
{
	ntok_sorted = M.toks.n + 1;
	tok_sorted = xrealloc(NULL, ntok_sorted * sizeof *tok_sorted);
	tok_sorted[0] = "";
	memcpy(tok_sorted + 1, M.toks.v, M.toks.n * sizeof *tok_sorted);
	qsort(tok_sorted + 1, M.toks.n, sizeof *tok_sorted, cmp_str);
	for (size_t i = 1; i < ntok_sorted; i++) {
		if (!*tok_sorted[i]) {
			fprintf(stderr, "pxgen: error: an empty token\n");
			exit(1);
		}
		char *a = sanitize(tok_sorted[i]);
		for (size_t j = 1; j < i; j++) {
			char *b = sanitize(tok_sorted[j]);
			if (!strcmp(a, b)) {
				fprintf(stderr, "pxgen: error: tokens '%s' and '%s' both become PX_TOK_%s\n",
				        tok_sorted[j], tok_sorted[i], a);
				exit(1);
			}
			free(b);
		}
		free(a);
	}
}

unsigned tok_id(const char *s)
{
	const char **hit = bsearch(&s, tok_sorted + 1, ntok_sorted - 1, sizeof *tok_sorted, cmp_str);
	return hit ? (unsigned)(hit - tok_sorted) : 0;
}

/* ---------------------------------------------------------------- emitting C */

/* Arrays with the same element type and body are written once and shared. */
typedef struct pooled {
	const char *ctype;
	char *body, *name;
} pooled;

static struct {
	pooled *v;
	size_t n, cap;
	sbuf defs;
} pool;

static const char *pool_array(const char *prefix, const char *ctype, const char *body)
{
	for (size_t i = 0; i < pool.n; i++)
		if (!strcmp(pool.v[i].ctype, ctype) && !strcmp(pool.v[i].body, body))
			return pool.v[i].name;
	pooled *p = PUSH(pool.v, pool.n, pool.cap);
	sbuf name = {0};
	sb_printf(&name, "px_%s%zu", prefix, pool.n - 1);
	*p = (pooled){.ctype = ctype, .body = xstrdup(body), .name = name.p};
	sb_printf(&pool.defs, "static const %s %s[] = {%s};\n", ctype, p->name, body);
	return p->name;
}

static const char *tok_list(const strs *toks)
{
	sbuf b = {0};
	for (size_t i = 0; i < toks->n; i++)
		sb_printf(&b, "%u, ", tok_id(toks->v[i]));
	sb_printf(&b, "0");
	const char *name = pool_array("tl", "uint16_t", b.p);
	free(b.p);
	return name;
}

/* The generated C names tables.h's enums (PX_OK_REG, PX_SLOT_FIXED | PX_SLOT_TYPE)
 * instead of their values, so it compiles against them and cannot drift. */
static const char *enum_name(const char *prefix, const char *spelling)
{
	static sbuf b;
	b.n = 0;
	sb_printf(&b, "%s", prefix);
	for (const char *c = spelling; *c; c++)
		sb_printf(&b, "%c", *c >= 'a' && *c <= 'z' ? *c - 'a' + 'A' : *c);
	return b.p;
}

/* Bit i of bits is prefix + names[i] (pxgen's own bit order). */
static void sb_bits(sbuf *b, uint64_t bits, const char *prefix, const flag_name *names, unsigned n)
{
	const char *sep = "";
	for (unsigned i = 0; i < n; i++)
		if (bits & ((uint64_t)1 << i)) {
			sb_printf(b, "%s%s%s", sep, prefix, names[i].name);
			sep = " | ";
		}
	if (!*sep)
		sb_printf(b, "0");
}

#define PXGEN_FLAG_ROW(name, doc) {#name, doc},
const flag_name slot_flags[] = {PXGEN_SLOT_FLAGS(PXGEN_FLAG_ROW)};
const flag_name opnd_flags[] = {PXGEN_OPND_FLAGS(PXGEN_FLAG_ROW)};
const flag_name op_flags[] = {PXGEN_OPF_FLAGS(PXGEN_FLAG_ROW)};

static const char *opnd_array(const opnd_list *l)
{
	if (!l->n)
		return "NULL";
	sbuf b = {0};
	for (size_t i = 0; i < l->n; i++) {
		const opnd_row *o = &l->v[i];
		sb_printf(&b, "%s{", i ? ", " : "");
		sb_cstr(&b, o->name);
		sb_printf(&b, ", %s, %d, %u, ", enum_name("PX_OK_", o->kind), o->type_slot, o->type);
		sb_printf(&b, "%s, %d, %u, ", enum_name("PX_DERIVE_", o->derive ? o->derive : "none"), o->count_slot,
		          o->count);
		sb_bits(&b, o->flags, "PX_OPND_", opnd_flags, OPND_NFLAGS);
		sb_printf(&b, ", %d, PX_AS_%s", o->space_slot, space_consts[o->space]);
		if (o->nallowed) {
			sbuf a = {0};
			sb_printf(&a, "%d", o->allowed_slot);
			for (size_t k = 0, at = 0; k < o->nallowed; k++) {
				const char *tok = o->allowed.v[at++];
				sb_printf(&a, ", %u, %zu", *tok ? tok_id(tok) : 0, o->allowed_n[k]);
				for (size_t j = 0; j < o->allowed_n[k]; j++)
					sb_printf(&a, ", %s", o->allowed.v[at++]);
			}
			sb_printf(&a, ", -1");
			sb_printf(&b, ", %s", pool_array("iv", "int32_t", a.p));
			free(a.p);
		} else {
			sb_printf(&b, ", NULL");
		}
		if (o->ranged) {
			sbuf r = {0};
			/* no range: the operand type's own bounds, which the literal check already applies */
			if (o->lo == INT32_MIN)
				sb_printf(&r, "{INT64_MIN, ");
			else
				sb_printf(&r, "{%d, ", (int)o->lo);
			if (o->hi == INT32_MAX)
				sb_printf(&r, "INT64_MAX, ");
			else
				sb_printf(&r, "%d, ", (int)o->hi);
			sb_printf(&r, "%d, %s, %s}", (int)o->multiple, o->pow2 ? "true" : "false",
			          o->nonzero ? "true" : "false");
			sb_printf(&b, ", %s", pool_array("rg", "px_imm_range", r.p));
			free(r.p);
		} else {
			sb_printf(&b, ", NULL");
		}
		sb_printf(&b, ", %d, %d, %s, %u}", o->select_slot + 1, o->negate_slot + 1,
		          enum_name("PX_ALIGN_", o->align_by ? o->align_by : "none"), o->align);
	}
	const char *name = pool_array("od", "px_opnd_def", b.p);
	free(b.p);
	return name;
}

static const char *slot_array(const op_row *op)
{
	if (!op->nslots)
		return "NULL";
	sbuf b = {0};
	for (size_t i = 0; i < op->nslots; i++) {
		const slot_row *s = &op->slots[i];
		sb_printf(&b, "%s{", i ? ", " : "");
		sb_cstr(&b, s->name);
		sb_printf(&b, ", PX_SN_%s, %s, ", s->name, tok_list(&s->toks));
		sb_bits(&b, s->flags, "PX_SLOT_", slot_flags, SLOT_NFLAGS);
		sb_printf(&b, ", %u, {", s->fixed ? tok_id(s->fixed) : 0);
		for (const int *src = s->infer;; src++) {
			sb_printf(&b, "%d", *src);
			if (*src < 0)
				break;
			sb_printf(&b, ", ");
		}
		if (s->dflt.n)
			sb_printf(&b, "}, %d, %s}", s->dflt_from, tok_list(&s->dflt));
		else
			sb_printf(&b, "}, -1, NULL}");
	}
	const char *name = pool_array("sl", "px_slot_def", b.p);
	free(b.p);
	return name;
}

/* A fixed slot is always allowed its token, whether or not the variant names it. */
static void emit_variant(sbuf *b, const op_row *op, const variant_row *v)
{
	sb_printf(b, "{.allow = {");
	bool first = true;
	for (size_t i = 0; i < op->nslots; i++) {
		strs fixed = {0};
		const strs *allow = v->allow[i];
		if (!allow && op->slots[i].fixed) {
			strs_push(&fixed, op->slots[i].fixed);
			allow = &fixed;
		}
		if (allow) {
			sb_printf(b, "%s[%zu] = %s", first ? "" : ", ", i, tok_list(allow));
			first = false;
		}
		free(fixed.v);
	}
	if (first)
		sb_printf(b, "NULL");
	sb_printf(b, "}, .sm = %u, .ptx = %u", v->sm, v->ptx);
	if (v->require)
		sb_printf(b, ", .require = 0x%x", v->require);
	sb_printf(b, ", .targets = 0x%llxull", (unsigned long long)v->targets);
	sb_printf(b, ", .mc = ");
	sb_cstr(b, v->mc);
	sb_printf(b, ", .iid = %d", (int)v->iid);
	if (v->isd)
		sb_printf(b, ", .isd = %d", (int)v->isd);
	if (v->results.given)
		sb_printf(b, ", .results = %s, .nresults = %zu", opnd_array(&v->results), v->results.n);
	if (v->operands.given)
		sb_printf(b, ", .operands = %s, .noperands = %zu", opnd_array(&v->operands), v->operands.n);
	sb_printf(b, "}");
}

static const char *variant_array(const op_row *op)
{
	sbuf b = {0};
	for (size_t i = 0; i < op->nvariants; i++) {
		sb_printf(&b, "%s\n\t", i ? "," : "");
		emit_variant(&b, op, &op->variants[i]);
	}
	sb_printf(&b, "\n");
	const char *name = pool_array("va", "px_variant", b.p);
	free(b.p);
	return name;
}

static const char *prop_array(const op_row *op)
{
	sbuf b = {0};
	for (size_t i = 0; i < op->nprops; i++) {
		const prop_row *p = &op->props[i];
		const char *from = "NULL";
		if (p->from.n) {
			sbuf f = {0};
			for (size_t j = 0; j < p->from.n; j++) {
				sb_cstr(&f, p->from.v[j]);
				sb_printf(&f, ", ");
			}
			sb_printf(&f, "NULL");
			from = pool_array("pv", "char *const", f.p);
			free(f.p);
		}
		sb_printf(&b, "{");
		sb_cstr(&b, p->key);
		sb_printf(&b, ", %d, %s}, ", p->slot, from);
	}
	sb_printf(&b, "{NULL, -1, NULL}");
	const char *name = pool_array("pr", "px_prop_def", b.p);
	free(b.p);
	return name;
}

static void emit_rule(sbuf *b, const op_row *op, const rule_row *r)
{
	sb_printf(b, "{.when = {");
	bool first = true;
	for (size_t k = 0; k < op->nslots; k++) {
		if (!r->when[k])
			continue;
		sb_printf(b, "%s[%zu] = %s", first ? "" : ", ", k, r->when[k]->n ? tok_list(r->when[k]) : "px_rule_empty");
		first = false;
	}
	if (first)
		sb_printf(b, "NULL");
	sb_printf(b, "}, .sm_below = %u, .ptx_below = %u", r->sm_below, r->ptx_below);
	if (r->sm_from)
		sb_printf(b, ", .sm_from = %u", r->sm_from);
	if (r->gpu)
		sb_printf(b, ", .gpu = true");
	sb_printf(b, ", .not_arch = %d, .diag = %zu, .args = {%d, %d, %d, %d}}", r->not_arch, r->diag, r->args[0],
	          r->args[1], r->args[2], r->args[3]);
}

static const char *otherwise_ref(const op_row *op)
{
	if (!op->otherwise)
		return "NULL";
	sbuf b = {0};
	emit_rule(&b, op, op->otherwise);
	const char *name = pool_array("ow", "px_rule", b.p);
	free(b.p);
	return name;
}

static const char *rule_array(const op_row *op)
{
	if (!op->nrules)
		return "NULL";
	sbuf b = {0};
	for (size_t i = 0; i < op->nrules; i++) {
		const rule_row *r = &op->rules[i];
		sb_printf(&b, "%s\n\t", i ? "," : "");
		emit_rule(&b, op, r);
	}
	sb_printf(&b, "\n");
	const char *name = pool_array("ru", "px_rule", b.p);
	free(b.p);
	return name;
}

/* A name table's hash index (px_name_index): open addressing by
 * px_name_hash, at most a quarter full, so that a lookup, found or not,
 * mostly compares one name or none. An empty name (the token table's row 0)
 * is not entered: no text names it. */
static void emit_name_index(sbuf *c, const char *table, const char *const *names, size_t n)
{
	size_t size = 8;
	while (size < 4 * n)
		size *= 2;
	unsigned *slot = xrealloc(NULL, size * sizeof *slot);
	memset(slot, 0, size * sizeof *slot);
	for (size_t i = 0; i < n; i++) {
		if (!names[i][0])
			continue;
		size_t k = px_name_hash(names[i], strlen(names[i])) & (size - 1);
		while (slot[k])
			k = (k + 1) & (size - 1);
		slot[k] = (unsigned)i + 1;
	}
	sb_printf(c, "static const uint16_t %s_slots[] = {", table);
	for (size_t k = 0; k < size; k++)
		sb_printf(c, "%s%u", k ? (k % 16 ? ", " : ",\n\t") : "", slot[k]);
	sb_printf(c, "};\nconst px_name_index %s_index = {%zu, %s_slots};\n", table, size - 1, table);
	free(slot);
}

/* A table of rows and its length; C has no empty arrays, so an empty table is
 * one zeroed row behind a length of 0. */
void emit_row_array(sbuf *c, const char *type, const char *name, const char *count, const sbuf *rows,
                           size_t n)
{
	if (n)
		sb_printf(c, "const %s %s[] = {\n%s};\n", type, name, rows->p);
	else
		sb_printf(c, "const %s %s[1];\n", type, name);
	sb_printf(c, "const unsigned %s = %zu;\n", count, n);
}

int cmp_op(const void *a, const void *b)
{
	return strcmp(((const op_row *)a)->name, ((const op_row *)b)->name);
}

static void emit_ops(sbuf *c)
{
	sbuf rows = {0};
	for (size_t i = 0; i < M.nops; i++) {
		const op_row *op = &M.ops[i];
		const char *slots = slot_array(op), *res = opnd_array(&op->results);
		const char *opd = opnd_array(&op->operands), *vars = variant_array(op), *props = prop_array(op);
		const char *rules = rule_array(op), *otherwise = otherwise_ref(op);
		sb_printf(&rows, "\t{");
		sb_cstr(&rows, op->name);
		sb_printf(&rows, ", %s, %zu, %s, %zu, %s, %zu, %s, %zu, ", slots, op->nslots, res, op->results.n, opd,
		          op->operands.n, vars, op->nvariants);
		sb_printf(&rows, "%s, ", enum_name("PX_SHAPE_", op->shape));
		sb_printf(&rows, "%s, %s, ", enum_name("PX_LAYER_", op->layer), props);
		sb_bits(&rows, op->flags, "PX_OPF_", op_flags, OPF_NFLAGS);
		sb_printf(&rows, ", %s, %zu, %s, PX_FAM_%s, {", rules, op->nrules, otherwise,
		          op->family ? M.families.v[op->family - 1] : "none");
		/* bit PX_SN_* of each slot's name (PX_SN__NONE is 0) */
		unsigned long long words[(MAX_SNAMES + 64) / 64] = {0};
		for (size_t k = 0; k < op->nslots; k++) {
			size_t sn = (size_t)strs_find(&M.snames, op->slots[k].name) + 1;
			words[sn / 64] |= 1ull << (sn % 64);
		}
		for (size_t w = 0; w < (M.snames.n + 64) / 64; w++)
			sb_printf(&rows, "%s0x%llxull", w ? ", " : "", words[w]);
		sb_printf(&rows, "}},\n");
	}
	sb_printf(c, "\n/* operations (data/ops/); shared arrays first */\nconst uint16_t px_rule_empty[] = {0};\n%s",
	          pool.defs.p ? pool.defs.p : "");
	emit_row_array(c, "px_op_def", "px_ops", "px_nops", &rows, M.nops);
	free(rows.p);
	const char **names = xrealloc(NULL, (M.nops + 1) * sizeof *names);
	for (size_t i = 0; i < M.nops; i++)
		names[i] = M.ops[i].name;
	emit_name_index(c, "px_op", names, M.nops);
	free(names);
}

static void emit_types(sbuf *c)
{
	sb_printf(c, "\n/* value types (data/types.yaml) */\nconst px_type_info px_types[] = {\n");
	sb_printf(c, "\t{\"none\", 0, PX_KIND_NONE, 0xff, 0xff, 0, 0},\n");
	for (size_t i = 0; i < M.ntypes; i++) {
		const type_row *t = &M.types[i];
		/* the class its registers print as: a float view's (%f over %r) */
		unsigned print_class = t->regclass;
		for (size_t r = 0; t->float_view && r < M.nrc; r++)
			if (M.rc[r].view_of == t->regclass)
				print_class = M.rc[r].id;
		if (t->float_view && print_class == t->regclass) {
			fprintf(stderr, "pxgen: error: type '%s' has float_view, but no register class is a view of its class\n",
			        t->name);
			exit(1);
		}
		sb_printf(c, "\t{\"%s\", %u, %s, %u, %u, %u, %u},\n", t->name, t->width, enum_name("PX_KIND_", t->kind),
		          t->regclass, print_class, strcmp(t->kind, "ptr") ? tok_id(t->name) : 0, t->decl_ptx);
	}
	sb_printf(c, "};\nconst unsigned px_ntypes = %zu;\n", M.ntypes + 1);
	/* the inverse, so that reading a type slot is one load */
	uint8_t *of = xrealloc(NULL, ntok_sorted + 1);
	memset(of, 0, ntok_sorted + 1);
	for (size_t i = 0; i < M.ntypes; i++)
		if (strcmp(M.types[i].kind, "ptr"))
			of[tok_id(M.types[i].name)] = (uint8_t)(i + 1);
	sb_printf(c, "const uint8_t px_tok_types[] = {");
	for (size_t i = 0; i < ntok_sorted; i++)
		sb_printf(c, "%s%u", i ? (i % 32 ? ", " : ",\n\t") : "", of[i]);
	sb_printf(c, "};\n");
	free(of);
}

static void emit_regclasses(sbuf *c)
{
	sb_printf(c, "\n/* register classes (data/regclasses.yaml), indexed by id */\n");
	sb_printf(c, "const px_regclass px_regclasses[] = {\n");
	for (unsigned id = 0; id < M.nrc; id++)
		for (size_t i = 0; i < M.nrc; i++) {
			const regclass_row *r = &M.rc[i];
			if (r->id != id)
				continue;
			sb_printf(c, "\t{");
			sb_cstr(c, r->name);
			sb_printf(c, ", %u, %u, ", r->id, r->width);
			sb_cstr(c, r->decl);
			sb_printf(c, ", ");
			sb_cstr(c, r->prefix);
			sb_printf(c, ", 0x%x, ", r->view_of);
			sb_cstr(c, r->view_decl);
			sb_printf(c, ", 0x%x, 0x%x},\n", r->sub, r->super);
		}
	sb_printf(c, "};\nconst unsigned px_nregclasses = %zu;\n", M.nrc);
}

static void emit_tokens(sbuf *c)
{
	sb_printf(c, "\n/* modifier tokens, sorted by spelling */\nconst char *const px_tok_names[] = {\n");
	for (size_t i = 0; i < ntok_sorted; i++) {
		sb_printf(c, "\t");
		sb_cstr(c, tok_sorted[i]);
		sb_printf(c, ",\n");
	}
	sb_printf(c, "};\nconst unsigned px_ntoks = %zu;\n", ntok_sorted);
	/* the n of a spelling <lane>x<n>: whether a token may name a packed
	 * operand's lanes is asked for nearly every operand (front/optype.c) */
	sb_printf(c, "const unsigned char px_tok_lanes[] = {");
	for (size_t i = 0; i < ntok_sorted; i++) {
		const char *x = strrchr(tok_sorted[i], 'x');
		unsigned n = 0;
		if (x && x != tok_sorted[i] && x[1] && strspn(x + 1, "0123456789") == strlen(x + 1))
			n = (unsigned)atoi(x + 1);
		if (n > 255) {
			fprintf(stderr, "pxgen: error: token '%s' has more than 255 lanes\n", tok_sorted[i]);
			exit(1);
		}
		sb_printf(c, "%s%u,", i % 32 ? " " : "\n\t", n);
	}
	sb_printf(c, "\n};\n");
	emit_name_index(c, "px_tok", (const char *const *)tok_sorted, ntok_sorted);
}

static void emit_targets(sbuf *c)
{
	sb_printf(c, "\n/* targets and PTX versions (data/targets.yaml) */\nconst px_target px_targets[] = {\n");
	for (size_t i = 0; i < M.ntargets; i++) {
		const target_row *t = &M.targets[i];
		sb_printf(c, "\t{\"%s\", %u, %u, ", t->name, t->sm, t->ptx);
		sb_printf(c, t->suffix ? "'%c'" : "0", t->suffix);
		sb_printf(c, ", %zu, %u, %u, %u, ", i, t->family, t->static_shared, t->ptxas_cuda);
		if (t->ptxas_arch)
			sb_cstr(c, t->ptxas_arch);
		else
			sb_printf(c, "NULL");
		sb_printf(c, ", %d},\n", t->ptxas_code);
	}
	if (!M.ntargets)
		sb_printf(c, "\t{NULL, 0, 0, 0},\n");
	sb_printf(c, "};\nconst unsigned px_ntargets = %zu;\nconst uint16_t px_ptx_versions[] = {", M.ntargets);
	for (size_t i = 0; i < M.nptx; i++)
		sb_printf(c, "%s%u", i ? ", " : "", M.ptx_versions[i]);
	sb_printf(c, "%s};\nconst unsigned px_nptx_versions = %zu;\n", M.nptx ? "" : "0", M.nptx);
	sb_printf(c, "const uint16_t px_ptx_cuda[] = {");
	for (size_t i = 0; i < M.nptx; i++)
		sb_printf(c, "%s%u", i ? ", " : "", M.ptx_cuda[i]);
	sb_printf(c, "%s};\nconst uint16_t px_ptx_driver[] = {", M.nptx ? "" : "0");
	for (size_t i = 0; i < M.nptx; i++)
		sb_printf(c, "%s%u", i ? ", " : "", M.ptx_driver[i]);
	sb_printf(c, "%s};\n", M.nptx ? "" : "0");
	sb_printf(c, "const px_param_space px_kernel_params = {%u, %u, %u};\n", M.kparam_bytes, M.kparam_wide_bytes,
	          M.kparam_wide_ptx);
	sb_printf(c, "const uint32_t px_const_data_bytes = %u;\n", M.const_bytes);
}

static void emit_sregs(sbuf *c)
{
	sb_printf(c, "\n/* special registers (data/sregs.yaml), sorted by name */\nconst px_sreg px_sregs[] = {\n");
	for (size_t i = 0; i < M.nsregs; i++)
		sb_printf(c, "\t{\"%s\", %u, %u, %u, 0x%llxull, %u, %u},\n", M.sregs[i].name, M.sregs[i].type, M.sregs[i].sm,
		          M.sregs[i].ptx, (unsigned long long)M.sregs[i].targets, M.sregs[i].varies, M.sregs[i].fixed);
	if (!M.nsregs)
		sb_printf(c, "\t{NULL, 0, 0, 0, 0, 0, 0},\n");
	sb_printf(c, "};\nconst unsigned px_nsregs = %zu;\n", M.nsregs);
	const char **names = xrealloc(NULL, (M.nsregs + 1) * sizeof *names);
	for (size_t i = 0; i < M.nsregs; i++)
		names[i] = M.sregs[i].name;
	emit_name_index(c, "px_sreg", names, M.nsregs);
	free(names);
	/* Most %names a module uses are values, and each is asked for here
	 * first: the shapes filter turns nearly all of them away without
	 * hashing the name. */
	uint64_t shape[128] = {0};
	for (size_t i = 0; i < M.nsregs; i++)
		shape[(unsigned char)M.sregs[i].name[1]] |= (uint64_t)1 << strlen(M.sregs[i].name);
	sb_printf(c, "const uint64_t px_sreg_shapes[128] = {");
	for (size_t k = 0; k < 128; k++)
		sb_printf(c, "%s0x%llxull", k ? (k % 4 ? ", " : ",\n\t") : "", (unsigned long long)shape[k]);
	sb_printf(c, "};\n");
}

static void emit_directives(sbuf *c)
{
	sb_printf(c, "\n/* kernel directives (data/directives.yaml), in print order */\n");
	sb_printf(c, "const px_directive px_directives[] = {\n");
	for (size_t i = 0; i < M.ndirs; i++) {
		const dir_row *d = &M.dirs[i];
		sb_printf(c, "\t{\"%s\", ", d->name);
		sb_cstr(c, d->print);
		sb_printf(c, ", %u, %u, %u, %u, %d, 0x%x, 0x%x, %zu, %zu, 0x%llxull", d->min_args, d->max_args,
		          d->sm, d->ptx, d->kernel_only, (unsigned)d->needs, (unsigned)d->excludes, d->needs_diag,
		          d->excludes_diag, (unsigned long long)d->targets);
		sb_printf(c, ", {%uu, %uu, %uu}, {%uu, %uu, %uu}, %uu, %zu},\n", d->lo[0], d->lo[1], d->lo[2], d->hi[0],
		          d->hi[1], d->hi[2], d->product, d->product_diag);
	}
	if (!M.ndirs)
		sb_printf(c, "\t{NULL, NULL, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, {0}, {0}, 0, 0},\n");
	sb_printf(c, "};\nconst unsigned px_ndirectives = %zu;\n", M.ndirs);
}

static void emit_reserved(sbuf *c)
{
	sb_printf(c, "\n/* the names PTX keeps for itself (data/names.yaml) */\nconst px_reserved_name px_reserved_names[] = {\n");
	for (size_t i = 0; i < M.reserved.n; i++) {
		sb_printf(c, "\t{");
		sb_cstr(c, M.reserved.v[i]);
		sb_printf(c, ", ");
		sb_cstr(c, M.reserved_why.v[i]);
		sb_printf(c, ", %d},\n", M.reserved_module[i]);
	}
	if (!M.reserved.n)
		sb_printf(c, "\t{NULL, NULL, 0},\n");
	sb_printf(c, "};\nconst unsigned px_nreserved_names = %zu;\n", M.reserved.n);
}

static void emit_diags_and_flags(sbuf *c)
{
	sb_printf(c, "\n/* diagnostics (data/diag/) */\nconst px_diag_def px_diag_texts[] = {\n");
	for (size_t i = 0; i < M.ndiags; i++) {
		sb_printf(c, "\t{\"%s\", ", M.diags[i].id);
		sb_cstr(c, M.diags[i].text);
		sb_printf(c, ", %d},\n", M.diags[i].warning + 1);
	}
	if (!M.ndiags)
		sb_printf(c, "\t{NULL, NULL, 0},\n");
	sb_printf(c, "};\nconst unsigned px_ndiags = %zu;\n", M.ndiags);
	sb_printf(c, "\n/* the -W options of the warnings (data/diag/ rows' warning:) */\nconst char *const px_warning_names[] = {\n");
	for (size_t i = 0; i < M.warnings.n; i++)
		sb_printf(c, "\t\"%s\",\n", M.warnings.v[i]);
	if (!M.warnings.n)
		sb_printf(c, "\tNULL,\n");
	sb_printf(c, "};\nconst unsigned px_nwarning_names = %zu;\n", M.warnings.n);
	sb_printf(c, "/* the warnings off until -WNAME (rows with off: true), bit k warning k */\n"
	             "const uint64_t px_warnings_off = 0x%llxu;\n", (unsigned long long)M.warnings_off);
	sb_printf(c, "\n/* node flags (data/flags.yaml) */\nconst px_flag_def px_node_flags[] = {\n");
	for (size_t i = 0, shift = 0; i < M.flags.n; shift += M.flag_bits[i++])
		sb_printf(c, "\t{\"%s\", 0x%xu, %zu, %u},\n", M.flags.v[i], ((1u << M.flag_bits[i]) - 1) << shift, shift,
		          M.flag_bits[i]);
	if (!M.flags.n)
		sb_printf(c, "\t{NULL, 0, 0, 0},\n");
	sb_printf(c, "};\nconst unsigned px_nnode_flags = %zu;\n", M.flags.n);
}

void emit_enum(sbuf *h, const char *comment, const char *prefix, const char *const *names, size_t n,
                      const char *first, bool count)
{
	sb_printf(h, "\n/* %s */\nenum {\n", comment);
	if (first)
		sb_printf(h, "\t%s%s,\n", prefix, first);
	for (size_t i = 0; i < n; i++) {
		char *s = sanitize(names[i]);
		sb_printf(h, "\t%s%s,\n", prefix, s);
		free(s);
	}
	if (count)
		sb_printf(h, "\t%s_COUNT\n", prefix);
	sb_printf(h, "};\n");
}

/* A flag set of the rows (tools/pxgen/flags.h) as the C code reads it. */
static void emit_flags(sbuf *h, const char *decl, const char *prefix, const flag_name *f, unsigned n)
{
	sb_printf(h, "\n%s {\n", decl);
	for (unsigned i = 0; i < n; i++)
		sb_printf(h, "\t%s%s = 0x%xu, /* %s */\n", prefix, f[i].name, 1u << i, f[i].doc);
	sb_printf(h, "};\n");
}

/* A set of more than 32 flags: 64-bit constants (an enum holds an int). */
static void emit_wide_flags(sbuf *h, const char *prefix, const flag_name *f, unsigned n)
{
	sb_printf(h, "\n");
	for (unsigned i = 0; i < n; i++)
		sb_printf(h, "#define %s%s UINT64_C(0x%llx) /* %s */\n", prefix, f[i].name, 1ULL << i, f[i].doc);
}

void emit_header(sbuf *h)
{
	sb_printf(h, "/* Generated by tools/pxgen from the YAML files in data/; do not edit. */\n");
	sb_printf(h, "#ifndef PX_TABLES_GENERATED_H\n#define PX_TABLES_GENERATED_H\n");
	sb_printf(h, "\n/* limits of the rows (pxgen enforces them) */\nenum { PX_MAX_SLOTS = %d, PX_MAX_OPNDS = %d, "
	          "PX_MAX_PAT_OPNDS = %d };\n", MAX_SLOTS, MAX_OPNDS, PAT_MAX_OPNDS);
	sb_printf(h, "/* the 64-bit words of a set of slot names (px_op_def.snames) */\nenum { PX_SN_WORDS = %zu };\n",
	          (M.snames.n + 64) / 64);
	const char **names = xrealloc(NULL, (M.ntypes + M.ndiags + M.ndirs + M.nops + 1) * sizeof *names);
	for (size_t i = 0; i < M.ntypes; i++)
		names[i] = M.types[i].name;
	emit_enum(h, "value types: px_types[]", "PX_T_", names, M.ntypes, "none", true);
	emit_enum(h, "modifier tokens: px_tok_names[]; 0 is the empty token", "PX_TOK_", tok_sorted + 1,
	          ntok_sorted - 1, "_NONE", true);
	for (size_t i = 0; i < M.nops; i++)
		names[i] = M.ops[i].name;
	emit_enum(h, "operations: px_ops[]", "PX_OP_", names, M.nops, NULL, true);
	for (size_t i = 0; i < M.ndiags; i++)
		names[i] = M.diags[i].id;
	emit_enum(h, "diagnostics: px_diag_texts[]", "PX_D_", names, M.ndiags, NULL, true);
	for (size_t i = 0; i < M.ndirs; i++)
		names[i] = M.dirs[i].name;
	emit_enum(h, "kernel directives: px_directives[], in print order", "PX_DIR_", names, M.ndirs, NULL, true);
	emit_enum(h, "op families with code of their own (px_op_def.family; data/families.yaml)", "PX_FAM_",
	          (const char **)M.families.v, M.families.n, "none", true);
	emit_enum(h, "slot names of every op (px_slot_def.sname; px_slot_find)", "PX_SN_", (const char **)M.snames.v,
	          M.snames.n, "_NONE", true);
	free(names);
	emit_pattern_enum(h);
	emit_desc_enum(h);
	sb_printf(h, "\n/* register classes: NVPTX's class ids */\nenum {\n");
	for (size_t i = 0; i < M.nrc; i++) {
		char *s = sanitize(M.rc[i].name + (M.rc[i].name[0] == '%'));
		sb_printf(h, "\tPX_RC_%s = %u,\n", s, M.rc[i].id);
		free(s);
	}
	sb_printf(h, "};\n#define PX_NREGCLASS_IDS %zu\n", M.nrc);
	emit_flags(h, "enum px_slot_flags", "PX_SLOT_", slot_flags, SLOT_NFLAGS);
	emit_flags(h, "enum px_opnd_flags", "PX_OPND_", opnd_flags, OPND_NFLAGS);
	emit_wide_flags(h, "PX_OPF_", op_flags, OPF_NFLAGS);
	sb_printf(h, "\n/* node flags: px_node_flags[] */\nenum {\n");
	for (size_t i = 0, shift = 0; i < M.flags.n; shift += M.flag_bits[i++]) {
		sb_printf(h, "\tPX_NF_%s = 0x%xu,\n", M.flags.v[i], ((1u << M.flag_bits[i]) - 1) << shift);
		if (M.flag_bits[i] > 1)
			sb_printf(h, "\tPX_NF_%s_SHIFT = %zu,\n", M.flags.v[i], shift);
	}
	sb_printf(h, "};\n\n#endif\n");
}

void emit_source(sbuf *c)
{
	sb_printf(c, "/* Generated by tools/pxgen from the YAML files in data/; do not edit. */\n");
	sb_printf(c, "#include \"tables/tables.h\"\n");
	emit_types(c);
	emit_regclasses(c);
	emit_tokens(c);
	emit_targets(c);
	emit_sregs(c);
	emit_directives(c);
	emit_reserved(c);
	emit_diags_and_flags(c);
	emit_ops(c);
	emit_mma(c);
	emit_desc(c);
	emit_patterns(c);
	emit_geometries(c);
}
