/* pxgen: turns the YAML files of data/ into the C tables of src/tables/tables.h.
 *
 *   pxgen -o OUTDIR file.yaml...
 *
 * Every file is loaded first; the kinds are then read in dependency order
 * (register classes before types, types before special registers and
 * operations), so the command line may name the files in any order. A file's
 * kind comes from its path: types.yaml, regclasses.yaml, targets.yaml,
 * sregs.yaml, directives.yaml, flags.yaml, mma_desc.yaml, patterns.yaml by
 * basename; anything under a diag/ directory is a diagnostics list and
 * anything under ops/ an operations list.
 *
 * The first mistake stops the run with `file:line:col: error: ...` naming the
 * YAML node at fault. OUTDIR/px_tables.h and OUTDIR/px_tables.c are written to
 * temporary files and renamed only when everything succeeded, so a failed run
 * never leaves half a table behind for make to trust. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

/* Mirrors of limits in src/tables/tables.h, which pxgen cannot include: that
 * header includes the px_tables.h this program writes. */
enum { MAX_SLOTS = 24, MAX_OPNDS = 16, MAX_INFER = 3, SRC_RESULT = 0, SRC_OPERAND = 32 };

/* ---------------------------------------------------------------- memory and strings */

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p) {
		perror("pxgen");
		exit(1);
	}
	return p;
}

static char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(xrealloc(NULL, n), s, n);
}

/* Room for one more element in a growable array of elsize-byte elements. */
static void *grow(void *v, size_t *cap, size_t n, size_t elsize)
{
	if (n < *cap)
		return v;
	*cap = *cap ? *cap * 2 : 16;
	return xrealloc(v, *cap * elsize);
}
#define PUSH(arr, n, cap) ((arr) = grow((arr), &(cap), (n), sizeof *(arr)), &(arr)[(n)++])

typedef struct strs {
	const char **v;
	size_t n, cap;
} strs;

static void strs_push(strs *s, const char *str)
{
	*PUSH(s->v, s->n, s->cap) = str;
}

static int strs_find(const strs *s, const char *str)
{
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->v[i], str) == 0)
			return (int)i;
	return -1;
}

typedef struct sbuf {
	char *p;
	size_t n, cap;
} sbuf;

static void sb_printf(sbuf *b, const char *fmt, ...)
{
	for (;;) {
		va_list ap;
		va_start(ap, fmt);
		int need = vsnprintf(b->p ? b->p + b->n : NULL, b->cap - b->n, fmt, ap);
		va_end(ap);
		if ((size_t)need < b->cap - b->n) {
			b->n += (size_t)need;
			return;
		}
		b->cap = (b->cap + (size_t)need + 1) * 2;
		b->p = xrealloc(b->p, b->cap);
	}
}

/* A C string literal for s: quotes, backslashes and bytes outside printable
 * ASCII escaped (octal, so a following digit cannot extend the escape). */
static void sb_cstr(sbuf *b, const char *s)
{
	if (!s) {
		sb_printf(b, "NULL");
		return;
	}
	sb_printf(b, "\"");
	for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
		if (*c == '"' || *c == '\\')
			sb_printf(b, "\\%c", *c);
		else if (*c < 0x20 || *c >= 0x7f)
			sb_printf(b, "\\%03o", *c);
		else
			sb_printf(b, "%c", *c);
	}
	sb_printf(b, "\"");
}

/* The C identifier suffix of a spelling: every character outside [A-Za-z0-9] becomes '_'. */
static char *sanitize(const char *s)
{
	char *out = xstrdup(s);
	for (char *c = out; *c; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9')))
			*c = '_';
	return out;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* ---------------------------------------------------------------- YAML access and errors */

enum file_kind { K_REGCLASSES, K_TYPES, K_TARGETS, K_SREGS, K_DIRECTIVES, K_FLAGS, K_DIAG, K_OPS, K_MMA, K_PATTERNS, K_NKINDS };

typedef struct yfile {
	const char *path;
	enum file_kind kind;
	yaml_document_t doc;
} yfile;

static const yfile *cur; /* the file being read: names the file in errors, resolves node ids */

typedef yaml_node_t ynode;

static _Noreturn void fail(const ynode *n, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "%s:%lu:%lu: error: ", cur->path, (unsigned long)n->start_mark.line + 1,
	        (unsigned long)n->start_mark.column + 1);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static ynode *node(int id)
{
	return yaml_document_get_node((yaml_document_t *)&cur->doc, id);
}

static const char *scalar(const ynode *n, const char *what)
{
	if (n->type != YAML_SCALAR_NODE)
		fail(n, "%s must be a scalar", what);
	return (const char *)n->data.scalar.value;
}

static bool is_null(const ynode *n)
{
	if (n->type != YAML_SCALAR_NODE || n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		return false;
	const char *s = (const char *)n->data.scalar.value;
	return !*s || !strcmp(s, "null") || !strcmp(s, "~") || !strcmp(s, "Null") || !strcmp(s, "NULL");
}

static unsigned to_uint(const ynode *n, const char *what, unsigned max)
{
	const char *s = scalar(n, what);
	unsigned long v = 0;
	if (!*s)
		fail(n, "%s must be an integer", what);
	for (const char *c = s; *c; c++) {
		if (*c < '0' || *c > '9')
			fail(n, "%s must be an integer, not '%s'", what, s);
		v = v * 10 + (unsigned long)(*c - '0');
		if (v > max)
			fail(n, "%s %s is out of range (at most %u)", what, s, max);
	}
	return (unsigned)v;
}

/* A signed integer: an optional '-' and decimal digits. */
static int32_t to_int(const ynode *n, const char *what)
{
	const char *s = scalar(n, what);
	bool neg = *s == '-';
	int64_t v = 0;
	if (!s[neg] || strspn(s + neg, "0123456789") != strlen(s + neg))
		fail(n, "%s must be an integer, not '%s'", what, s);
	for (const char *c = s + neg; *c; c++) {
		v = v * 10 + (*c - '0');
		if (v > INT32_MAX)
			fail(n, "%s %s is out of range", what, s);
	}
	return (int32_t)(neg ? -v : v);
}

static bool to_bool(const ynode *n, const char *what)
{
	const char *s = scalar(n, what);
	if (!strcmp(s, "true"))
		return true;
	if (!strcmp(s, "false"))
		return false;
	fail(n, "%s must be true or false, not '%s'", what, s);
}

/* A PTX ISA version written as MAJOR.MINOR with one minor digit: "7.8" -> 78.
 * Read from the scalar text so no floating-point rounding is involved. */
static unsigned to_ptx(const ynode *n)
{
	const char *s = scalar(n, "a PTX version");
	unsigned major = 0;
	const char *c = s;
	if (*c < '0' || *c > '9')
		fail(n, "PTX version '%s' must be written MAJOR.MINOR (e.g. 7.8)", s);
	while (*c >= '0' && *c <= '9')
		major = major * 10 + (unsigned)(*c++ - '0');
	if (c[0] != '.' || c[1] < '0' || c[1] > '9' || c[2] || major > 99)
		fail(n, "PTX version '%s' must be written MAJOR.MINOR (e.g. 7.8)", s);
	return major * 10 + (unsigned)(c[1] - '0');
}

static void expect(const ynode *n, yaml_node_type_t type, const char *what)
{
	static const char *const names[] = {"", "a scalar", "a list", "a mapping"};
	if (n->type != type)
		fail(n, "%s must be %s", what, names[type]);
}

#define SEQ_EACH(it, seq) \
	for (yaml_node_item_t *it = (seq)->data.sequence.items.start; it < (seq)->data.sequence.items.top; it++)
#define MAP_EACH(pr, map) \
	for (yaml_node_pair_t *pr = (map)->data.mapping.pairs.start; pr < (map)->data.mapping.pairs.top; pr++)

static const char *key_of(const yaml_node_pair_t *p)
{
	return scalar(node(p->key), "a key");
}

static ynode *map_get(const ynode *map, const char *key)
{
	MAP_EACH(p, map)
		if (!strcmp(key_of(p), key))
			return node(p->value);
	return NULL;
}

static ynode *map_need(const ynode *map, const char *key, const char *what)
{
	ynode *v = map_get(map, key);
	if (!v)
		fail(map, "%s is missing required key '%s'", what, key);
	return v;
}

static bool in_list(const char *const *list, const char *s)
{
	for (; *list; list++)
		if (!strcmp(*list, s))
			return true;
	return false;
}

/* Every key of map must be in allowed (NULL-terminated) and appear once.
 * `note` is accepted everywhere as a comment the generator drops. */
static void check_keys(const ynode *map, const char *what, const char *const *allowed)
{
	expect(map, YAML_MAPPING_NODE, what);
	MAP_EACH(p, map) {
		const char *k = key_of(p);
		if (strcmp(k, "note") && !in_list(allowed, k))
			fail(node(p->key), "unknown key '%s' in %s", k, what);
		for (yaml_node_pair_t *q = map->data.mapping.pairs.start; q < p; q++)
			if (!strcmp(key_of(q), k))
				fail(node(p->key), "duplicate key '%s' in %s", k, what);
	}
}

/* The root list of a file; an empty file is an empty list. */
static ynode *root_list(const char *what)
{
	ynode *r = yaml_document_get_root_node((yaml_document_t *)&cur->doc);
	if (r && !is_null(r))
		expect(r, YAML_SEQUENCE_NODE, what);
	return r && r->type == YAML_SEQUENCE_NODE ? r : NULL;
}

/* A list of scalars (a single scalar is a list of one). */
static strs scalar_list(const ynode *n, const char *what)
{
	strs out = {0};
	if (n->type == YAML_SCALAR_NODE) {
		strs_push(&out, scalar(n, what));
		return out;
	}
	expect(n, YAML_SEQUENCE_NODE, what);
	SEQ_EACH(it, n)
		strs_push(&out, scalar(node(*it), what));
	return out;
}

static bool is_identifier(const char *s)
{
	if (!*s || (*s >= '0' && *s <= '9'))
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '_'))
			return false;
	return true;
}

static const char *identifier(const ynode *n, const char *what)
{
	const char *s = scalar(n, what);
	if (!is_identifier(s))
		fail(n, "%s '%s' must be a C identifier", what, s);
	return s;
}

/* Spellings of the tables.h enums, in enum order: the YAML names a value by
 * its spelling and the generated C writes its index. */
static const char *const type_kinds[] = {"none", "pred", "bit", "uint", "sint", "float", "ptr", NULL};
static const char *const opnd_kinds[] = {"value", "reg", "imm", "addr", "label", "pred", "sym", NULL};
static const char *const layer_names[] = {"chain", "vector", "match", NULL};
static const char *const shape_names[] = {"plain", "branch", "pseudo", NULL};

/* ---------------------------------------------------------------- the model read from YAML */

typedef struct regclass_row {
	const char *name, *decl, *prefix, *view_decl;
	unsigned id, width, view_of; /* view_of: class id or 0xff */
	uint32_t sub, super;
	const ynode *at;
} regclass_row;

typedef struct type_row {
	const char *name, *kind;
	unsigned width, regclass;
	bool float_view;
} type_row;

typedef struct target_row {
	const char *name;
	unsigned sm, ptx;
	char suffix;
	size_t line; /* file order, so sorting by SM keeps plain, a, f in the order written */
} target_row;

typedef struct sreg_row {
	const char *name;
	unsigned type, sm, ptx;
} sreg_row;

typedef struct dir_row {
	const char *name, *print;
	unsigned min_args, max_args, sm, ptx;
	bool kernel_only;
} dir_row;

typedef struct diag_row {
	const char *id, *text;
} diag_row;

/* Tokens with a window of their own (a slot's `windows:`): a variant that
 * admits them is split by pxgen into rows whose windows include theirs. */
typedef struct tokwin_row {
	strs toks;
	unsigned sm, ptx;
	char arch;
} tokwin_row;

typedef struct slot_row {
	const char *name, *fixed;
	strs toks;
	unsigned flags;
	int infer[MAX_INFER + 1];
	const ynode *infer_at;
	tokwin_row *wins;
	size_t nwins, cap_wins;
} slot_row;
enum { SLOT_FIXED = 1, SLOT_TYPE = 2, SLOT_REQUIRED = 4, SLOT_NOPRINT = 8 };

typedef struct opnd_row {
	const char *name, *kind;
	int type_slot, count_slot;
	unsigned type, count, flags;
	const char *derive;
} opnd_row;
enum { OPND_OPTIONAL = 1, OPND_SREG = 2, OPND_PAIR = 4, OPND_GROUP = 8, OPND_INOUT = 16, OPND_B8REG = 32,
       OPND_SINK = 64, OPND_SINK_ONLY = 128 };

typedef struct opnd_list {
	opnd_row *v;
	size_t n, cap;
	bool given; /* a variant's list overrides the op's only when written */
} opnd_list;

typedef struct variant_row {
	strs *allow[MAX_SLOTS]; /* NULL: not named in the variant */
	uint32_t require;
	unsigned sm, ptx, sm_max;
	char arch;
	const char *mc;
	int32_t iid;
	int32_t isd;            /* NVPTXISD opcode a seed names for the variant, or 0 */
	opnd_list results, operands;
} variant_row;

typedef struct prop_row {
	const char *key;
	int slot;
	strs from; /* value, token, value, token, ... */
} prop_row;

/* A legality rule: when the slots hold these tokens (and the target is below
 * the window), the node is rejected with the named diagnostic. */
typedef struct rule_row {
	strs *when[MAX_SLOTS];  /* NULL: any token; an empty list: the slot must be empty */
	unsigned sm_below, ptx_below;
	char not_arch;
	size_t diag;
	int args[4];            /* slot index, RARG_OP, RARG_TARGET; RARG_END ends */
} rule_row;
enum { RARG_END = -1, RARG_OP = -2, RARG_TARGET = -3 };

typedef struct op_row {
	const char *name, *mc, *shape, *layer;
	rule_row *rules;
	size_t nrules, cap_rules;
	rule_row *otherwise;    /* the message when no variant admits the tokens */
	size_t family;          /* index into M.families + 1; 0: none */
	slot_row *slots;
	size_t nslots, cap_slots;
	opnd_list results, operands;
	variant_row *variants;
	size_t nvariants, cap_variants;
	prop_row *props;
	size_t nprops, cap_props;
	unsigned flags;
} op_row;

static struct {
	regclass_row *rc;
	size_t nrc, cap_rc;
	type_row *types;
	size_t ntypes, cap_types;
	unsigned *ptx_versions;
	size_t nptx, cap_ptx;
	target_row *targets;
	size_t ntargets, cap_targets;
	sreg_row *sregs;
	size_t nsregs, cap_sregs;
	dir_row *dirs;
	size_t ndirs, cap_dirs;
	diag_row *diags;
	size_t ndiags, cap_diags;
	strs flags;
	op_row *ops;
	size_t nops, cap_ops;
	strs toks; /* every token spelling, unsorted until emit time */
	strs families; /* op families with selector/verifier code of their own */
} M;

/* Defaults for an entry that names no window: available everywhere ptxemit prints. */
enum { DEFAULT_SM = 70 };
static unsigned default_ptx(void)
{
	return M.nptx ? M.ptx_versions[0] : 60;
}

/* PX_T_* of a type name (index + 1), or 0. */
static unsigned type_index(const char *name)
{
	for (size_t i = 0; i < M.ntypes; i++)
		if (!strcmp(M.types[i].name, name))
			return (unsigned)i + 1;
	return 0;
}

static unsigned rc_by_name(const ynode *n)
{
	const char *s = scalar(n, "a register class");
	for (size_t i = 0; i < M.nrc; i++)
		if (!strcmp(M.rc[i].name, s))
			return M.rc[i].id;
	fail(n, "unknown register class '%s'", s);
}

static void add_token(const char *t)
{
	if (strs_find(&M.toks, t) < 0)
		strs_push(&M.toks, t);
}

/* The window keys shared by sregs, directives and variants. */
static void read_window(const ynode *map, unsigned *sm, unsigned *ptx)
{
	const ynode *v;
	*sm = (v = map_get(map, "sm")) ? to_uint(v, "sm", 1000) : DEFAULT_SM;
	*ptx = (v = map_get(map, "ptx")) ? to_ptx(v) : default_ptx();
	if ((v = map_get(map, "ptx")) && M.nptx) {
		bool known = false;
		for (size_t i = 0; i < M.nptx; i++)
			known |= M.ptx_versions[i] == *ptx;
		if (!known)
			fail(v, "PTX version %u.%u is not in targets.yaml's ptx_versions", *ptx / 10, *ptx % 10);
	}
}

/* ---------------------------------------------------------------- regclasses.yaml */

static uint32_t rc_mask(const ynode *list)
{
	uint32_t mask = 0;
	expect(list, YAML_SEQUENCE_NODE, "a class list");
	SEQ_EACH(it, list)
		mask |= 1u << rc_by_name(node(*it));
	return mask;
}

static const char *nullable(const ynode *map, const char *key, const char *what)
{
	const ynode *v = map_get(map, key);
	return !v || is_null(v) ? NULL : scalar(v, what);
}

static void read_regclasses(void)
{
	static const char *const keys[] = {"name", "id", "width", "decl", "prefix", "view_of", "view_decl",
	                                   "subclasses", "superclasses", NULL};
	ynode *root = root_list("regclasses.yaml");
	if (!root)
		return;
	SEQ_EACH(it, root) {
		ynode *e = node(*it);
		check_keys(e, "a register class", keys);
		regclass_row *r = PUSH(M.rc, M.nrc, M.cap_rc);
		*r = (regclass_row){.at = e, .view_of = 0xff};
		r->name = scalar(map_need(e, "name", "a register class"), "name");
		r->id = to_uint(map_need(e, "id", "a register class"), "id", 31);
		r->width = to_uint(map_need(e, "width", "a register class"), "width", 1024);
		r->decl = nullable(e, "decl", "decl");
		r->prefix = nullable(e, "prefix", "prefix");
		r->view_decl = nullable(e, "view_decl", "view_decl");
		for (size_t j = 0; j + 1 < M.nrc; j++) {
			if (!strcmp(M.rc[j].name, r->name))
				fail(e, "duplicate register class '%s'", r->name);
			if (M.rc[j].id == r->id)
				fail(e, "duplicate register class id %u", r->id);
		}
	}
	/* Class lists may name classes further down, so they resolve once all are known. */
	for (size_t i = 0; i < M.nrc; i++) {
		regclass_row *r = &M.rc[i];
		const ynode *v;
		if ((v = map_get(r->at, "view_of")))
			r->view_of = rc_by_name(v);
		if ((v = map_get(r->at, "subclasses")))
			r->sub = rc_mask(v);
		if ((v = map_get(r->at, "superclasses")))
			r->super = rc_mask(v);
	}
	for (size_t i = 0; i < M.nrc; i++)
		for (size_t j = 0; j < M.nrc; j++)
			if (((M.rc[i].sub >> M.rc[j].id) & 1) != ((M.rc[j].super >> M.rc[i].id) & 1))
				fail(M.rc[i].at, "'%s' and '%s' disagree on their subclass relation", M.rc[i].name,
				     M.rc[j].name);
}

/* px_regclasses is indexed by class id, so the ids must be 0..n-1. */
static void check_rc_ids(void)
{
	for (unsigned id = 0; id < M.nrc; id++) {
		bool found = false;
		for (size_t i = 0; i < M.nrc; i++)
			found |= M.rc[i].id == id;
		if (!found) {
			fprintf(stderr, "pxgen: error: register class ids must be 0..%zu; %u is missing\n", M.nrc - 1, id);
			exit(1);
		}
	}
}

/* ---------------------------------------------------------------- types.yaml */

static void read_types(void)
{
	static const char *const keys[] = {"name", "width", "kind", "class", "float_view", NULL};
	ynode *root = root_list("types.yaml");
	if (!root)
		return;
	SEQ_EACH(it, root) {
		ynode *e = node(*it), *v;
		check_keys(e, "a type", keys);
		type_row *t = PUSH(M.types, M.ntypes, M.cap_types);
		*t = (type_row){0};
		t->name = identifier(map_need(e, "name", "a type"), "type name");
		if (type_index(t->name) != M.ntypes)
			fail(e, "duplicate type '%s'", t->name);
		if (!strcmp(t->name, "none") || !strcmp(t->name, "any"))
			fail(e, "'%s' is reserved", t->name);
		t->width = to_uint(map_need(e, "width", "a type"), "width", 1024);
		v = map_need(e, "kind", "a type");
		t->kind = scalar(v, "kind");
		if (!in_list(type_kinds + 1, t->kind))
			fail(v, "unknown type kind '%s'", t->kind);
		t->regclass = rc_by_name(map_need(e, "class", "a type"));
		t->float_view = (v = map_get(e, "float_view")) && to_bool(v, "float_view");
		if (strcmp(t->kind, "ptr"))
			add_token(t->name);
	}
}

/* ---------------------------------------------------------------- targets.yaml */

static void read_targets(void)
{
	static const char *const top_keys[] = {"ptx_versions", "targets", NULL};
	static const char *const keys[] = {"name", "sm", "ptx", "suffix", NULL};
	ynode *root = yaml_document_get_root_node((yaml_document_t *)&cur->doc), *v;
	if (!root)
		return;
	check_keys(root, "targets.yaml", top_keys);
	v = map_need(root, "ptx_versions", "targets.yaml");
	expect(v, YAML_SEQUENCE_NODE, "ptx_versions");
	SEQ_EACH(it, v) {
		unsigned ptx = to_ptx(node(*it));
		if (M.nptx && ptx <= M.ptx_versions[M.nptx - 1])
			fail(node(*it), "ptx_versions must be ascending and unique");
		*PUSH(M.ptx_versions, M.nptx, M.cap_ptx) = ptx;
	}
	v = map_need(root, "targets", "targets.yaml");
	expect(v, YAML_SEQUENCE_NODE, "targets");
	SEQ_EACH(it, v) {
		ynode *e = node(*it), *s;
		check_keys(e, "a target", keys);
		target_row *t = PUSH(M.targets, M.ntargets, M.cap_targets);
		*t = (target_row){.line = M.ntargets};
		t->name = scalar(map_need(e, "name", "a target"), "name");
		for (size_t j = 0; j + 1 < M.ntargets; j++)
			if (!strcmp(M.targets[j].name, t->name))
				fail(e, "duplicate target '%s'", t->name);
		map_need(e, "sm", "a target");
		map_need(e, "ptx", "a target");
		read_window(e, &t->sm, &t->ptx);
		if ((s = map_get(e, "suffix"))) {
			const char *sfx = scalar(s, "suffix");
			if (strcmp(sfx, "a") && strcmp(sfx, "f"))
				fail(s, "suffix must be a or f, not '%s'", sfx);
			t->suffix = sfx[0];
		}
	}
}

/* Targets ascend by SM; within one SM the file's order (plain, a, f) stays. */
static int cmp_target(const void *a, const void *b)
{
	const target_row *x = a, *y = b;
	if (x->sm != y->sm)
		return x->sm < y->sm ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

/* ---------------------------------------------------------------- sregs.yaml */

static void read_sregs(void)
{
	static const char *const keys[] = {"name", "type", "sm", "ptx", NULL};
	ynode *root = root_list("sregs.yaml");
	if (!root)
		return;
	SEQ_EACH(it, root) {
		ynode *e = node(*it), *v;
		check_keys(e, "a special register", keys);
		sreg_row *s = PUSH(M.sregs, M.nsregs, M.cap_sregs);
		*s = (sreg_row){0};
		s->name = scalar(map_need(e, "name", "a special register"), "name");
		if (s->name[0] != '%')
			fail(e, "special register '%s' must start with '%%'", s->name);
		for (size_t j = 0; j + 1 < M.nsregs; j++)
			if (!strcmp(M.sregs[j].name, s->name))
				fail(e, "duplicate special register '%s'", s->name);
		v = map_need(e, "type", "a special register");
		const char *tn = scalar(v, "type");
		if (strcmp(tn, "none") && !(s->type = type_index(tn)))
			fail(v, "unknown type '%s'", tn);
		read_window(e, &s->sm, &s->ptx);
	}
}

static int cmp_sreg(const void *a, const void *b)
{
	return strcmp(((const sreg_row *)a)->name, ((const sreg_row *)b)->name);
}

/* ---------------------------------------------------------------- directives.yaml */

static void read_directives(void)
{
	static const char *const keys[] = {"name", "print", "args", "sm", "ptx", "kernel_only", NULL};
	ynode *root = root_list("directives.yaml");
	if (!root)
		return;
	SEQ_EACH(it, root) {
		ynode *e = node(*it), *v;
		check_keys(e, "a directive", keys);
		dir_row *d = PUSH(M.dirs, M.ndirs, M.cap_dirs);
		*d = (dir_row){.kernel_only = true};
		d->name = identifier(map_need(e, "name", "a directive"), "directive name");
		for (size_t j = 0; j + 1 < M.ndirs; j++)
			if (!strcmp(M.dirs[j].name, d->name))
				fail(e, "duplicate directive '%s'", d->name);
		d->print = scalar(map_need(e, "print", "a directive"), "print");
		v = map_need(e, "args", "a directive");
		expect(v, YAML_SEQUENCE_NODE, "args");
		if (v->data.sequence.items.top - v->data.sequence.items.start != 2)
			fail(v, "args must be [min, max]");
		d->min_args = to_uint(node(v->data.sequence.items.start[0]), "args", 255);
		d->max_args = to_uint(node(v->data.sequence.items.start[1]), "args", 255);
		if (d->min_args > d->max_args)
			fail(v, "args [min, max] has min > max");
		read_window(e, &d->sm, &d->ptx);
		if ((v = map_get(e, "kernel_only")))
			d->kernel_only = to_bool(v, "kernel_only");
	}
}

/* ---------------------------------------------------------------- flags.yaml, diag/ */

static void read_flags(void)
{
	static const char *const keys[] = {"name", NULL};
	ynode *root = root_list("flags.yaml");
	if (!root)
		return;
	SEQ_EACH(it, root) {
		ynode *e = node(*it);
		check_keys(e, "a flag", keys);
		const char *name = identifier(map_need(e, "name", "a flag"), "flag name");
		if (strs_find(&M.flags, name) >= 0)
			fail(e, "duplicate flag '%s'", name);
		if (M.flags.n == 32)
			fail(e, "more than 32 node flags");
		strs_push(&M.flags, name);
	}
}

static void read_diags(void)
{
	static const char *const keys[] = {"id", "text", "seed", NULL};
	ynode *root = root_list("a diagnostics file");
	if (!root)
		return;
	SEQ_EACH(it, root) {
		ynode *e = node(*it);
		check_keys(e, "a diagnostic", keys);
		diag_row *d = PUSH(M.diags, M.ndiags, M.cap_diags);
		d->id = identifier(map_need(e, "id", "a diagnostic"), "diagnostic id");
		d->text = scalar(map_need(e, "text", "a diagnostic"), "text");
		for (size_t j = 0; j + 1 < M.ndiags; j++)
			if (!strcmp(M.diags[j].id, d->id))
				fail(e, "duplicate diagnostic id '%s'", d->id);
	}
}

/* ---------------------------------------------------------------- ops/ */

static int slot_index(const op_row *op, const char *name)
{
	for (size_t i = 0; i < op->nslots; i++)
		if (!strcmp(op->slots[i].name, name))
			return (int)i;
	return -1;
}

static int need_slot(const op_row *op, const ynode *n)
{
	const char *s = scalar(n, "a slot name");
	int i = slot_index(op, s);
	if (i < 0)
		fail(n, "unknown slot '%s' in op '%s'", s, op->name);
	return i;
}

/* Keys a variant understands besides slot names; a slot may not take one of these names. */
static const char *const variant_keys[] = {"require", "sm", "ptx", "sm_max", "arch", "mc",
                                           "iid", "isd", "results", "operands", NULL};

static void read_infer(slot_row *s, const ynode *list)
{
	expect(list, YAML_SEQUENCE_NODE, "infer");
	size_t n = 0;
	SEQ_EACH(it, list) {
		ynode *v = node(*it);
		const char *src = scalar(v, "an infer source");
		int base = !strncmp(src, "result", 6) ? SRC_RESULT : !strncmp(src, "operand", 7) ? SRC_OPERAND : -1;
		const char *num = src + (base == SRC_RESULT ? 6 : 7);
		if (base < 0 || !*num || strspn(num, "0123456789") != strlen(num) || atoi(num) >= 32)
			fail(v, "infer source '%s' must be resultN or operandN", src);
		if (n == MAX_INFER)
			fail(v, "at most %d infer sources", MAX_INFER);
		s->infer[n++] = base + atoi(num);
	}
	s->infer[n] = -1;
	s->infer_at = list;
}

static char read_arch(const ynode *v)
{
	const char *a = scalar(v, "arch");
	if (strcmp(a, "a") && strcmp(a, "f"))
		fail(v, "arch must be a or f, not '%s'", a);
	return a[0];
}

/* windows: [{tokens: [...], sm: 80, ptx: 7.4, arch: a}, ...]: each token in one at most. */
static void read_token_windows(slot_row *s, const ynode *list)
{
	static const char *const keys[] = {"tokens", "sm", "ptx", "arch", NULL};
	expect(list, YAML_SEQUENCE_NODE, "windows");
	SEQ_EACH(it, list) {
		ynode *e = node(*it), *v;
		check_keys(e, "a token window", keys);
		tokwin_row *w = PUSH(s->wins, s->nwins, s->cap_wins);
		*w = (tokwin_row){0};
		v = map_need(e, "tokens", "a token window");
		w->toks = scalar_list(v, "tokens");
		for (size_t i = 0; i < w->toks.n; i++) {
			if (strs_find(&s->toks, w->toks.v[i]) < 0)
				fail(v, "token '%s' of a window is not in slot '%s'", w->toks.v[i], s->name);
			for (size_t j = 0; j + 1 < s->nwins; j++)
				if (strs_find(&s->wins[j].toks, w->toks.v[i]) >= 0)
					fail(v, "token '%s' has two windows in slot '%s'", w->toks.v[i], s->name);
		}
		read_window(e, &w->sm, &w->ptx);
		if ((v = map_get(e, "arch")))
			w->arch = read_arch(v);
	}
}

static void read_slots(op_row *op, const ynode *list)
{
	static const char *const keys[] = {"name", "tokens", "type", "required", "fixed", "noprint", "infer",
	                                   "windows", NULL};
	expect(list, YAML_SEQUENCE_NODE, "slots");
	SEQ_EACH(it, list) {
		ynode *e = node(*it), *v;
		check_keys(e, "a slot", keys);
		if (op->nslots == MAX_SLOTS)
			fail(e, "op '%s' has more than %d slots", op->name, MAX_SLOTS);
		slot_row *s = PUSH(op->slots, op->nslots, op->cap_slots);
		*s = (slot_row){.infer = {-1}};
		v = map_need(e, "name", "a slot");
		s->name = identifier(v, "slot name");
		if (slot_index(op, s->name) != (int)op->nslots - 1 || in_list(variant_keys, s->name))
			fail(v, "slot name '%s' is taken in op '%s'", s->name, op->name);
		if ((v = map_get(e, "tokens")))
			s->toks = scalar_list(v, "tokens");
		if ((v = map_get(e, "fixed"))) {
			s->fixed = scalar(v, "fixed");
			s->flags |= SLOT_FIXED;
			if (strs_find(&s->toks, s->fixed) < 0)
				strs_push(&s->toks, s->fixed);
		}
		if ((v = map_get(e, "type")) && to_bool(v, "type"))
			s->flags |= SLOT_TYPE;
		if ((v = map_get(e, "required")) && to_bool(v, "required"))
			s->flags |= SLOT_REQUIRED;
		if ((v = map_get(e, "noprint")) && to_bool(v, "noprint"))
			s->flags |= SLOT_NOPRINT;
		if ((v = map_get(e, "infer")))
			read_infer(s, v);
		if (!s->toks.n)
			fail(e, "slot '%s' has no tokens", s->name);
		if ((v = map_get(e, "windows")))
			read_token_windows(s, v);
		for (size_t i = 0; i < s->toks.n; i++)
			add_token(s->toks.v[i]);
	}
}

static void read_opnd_type(const op_row *op, opnd_row *o, const ynode *v)
{
	const char *t = scalar(v, "type");
	o->type_slot = slot_index(op, t);
	if (o->type_slot >= 0 || !strcmp(t, "any"))
		return;
	if (!(o->type = type_index(t)))
		fail(v, "unknown type or slot '%s' in op '%s'", t, op->name);
}

static void read_opnd_count(const op_row *op, opnd_row *o, const ynode *v)
{
	const char *c = scalar(v, "count");
	o->flags |= OPND_GROUP;
	if (*c >= '0' && *c <= '9')
		o->count = to_uint(v, "count", 255);
	else
		o->count_slot = need_slot(op, v);
}

/* sink: true (PTX takes _ for this result) or only (it takes nothing else);
 * a result's property, so an operand list rejects it. The verifier points at a
 * value written for a sink-only result as the list's only result. */
static void read_opnd_sink(opnd_row *o, const ynode *v, const ynode *list, const char *what)
{
	if (strcmp(what, "results"))
		fail(v, "sink is a property of results, not %s", what);
	const char *s = scalar(v, "sink");
	if (!strcmp(s, "only") && list->data.sequence.items.top - list->data.sequence.items.start != 1)
		fail(v, "sink: only needs a list of one result");
	if (!strcmp(s, "only"))
		o->flags |= OPND_SINK | OPND_SINK_ONLY;
	else if (!strcmp(s, "true"))
		o->flags |= OPND_SINK;
	else if (strcmp(s, "false"))
		fail(v, "sink must be true, false or only, not '%s'", s);
}

static const struct {
	const char *key;
	unsigned bit;
} opnd_flag_keys[] = {{"optional", OPND_OPTIONAL}, {"sreg", OPND_SREG}, {"pair", OPND_PAIR}, {"inout", OPND_INOUT}, {"b8reg", OPND_B8REG}};

static void read_opnds(const op_row *op, opnd_list *out, const ynode *list, const char *what)
{
	static const char *const keys[] = {"name", "kind", "type", "derive", "count", "optional", "sreg", "pair",
	                                   "inout", "b8reg", "sink", NULL};
	static const char *const derives[] = {"wide", "half", NULL};
	expect(list, YAML_SEQUENCE_NODE, what);
	out->given = true;
	SEQ_EACH(it, list) {
		ynode *e = node(*it), *v;
		check_keys(e, "an operand", keys);
		if (out->n == MAX_OPNDS)
			fail(e, "more than %d %s", MAX_OPNDS, what);
		opnd_row *o = PUSH(out->v, out->n, out->cap);
		*o = (opnd_row){.kind = "value", .type_slot = -1, .count_slot = -1};
		o->name = scalar(map_need(e, "name", "an operand"), "name");
		if ((v = map_get(e, "kind")) && !in_list(opnd_kinds, o->kind = scalar(v, "kind")))
			fail(v, "unknown operand kind '%s'", o->kind);
		if ((v = map_get(e, "type")))
			read_opnd_type(op, o, v);
		else if (!strcmp(o->kind, "pred"))
			o->type = type_index("pred");
		if ((v = map_get(e, "derive"))) {
			if (!in_list(derives, o->derive = scalar(v, "derive")))
				fail(v, "derive must be wide or half, not '%s'", o->derive);
			if (o->type_slot < 0)
				fail(v, "derive needs a type taken from a slot");
		}
		if ((v = map_get(e, "count")))
			read_opnd_count(op, o, v);
		if ((v = map_get(e, "sink")))
			read_opnd_sink(o, v, list, what);
		for (size_t f = 0; f < sizeof opnd_flag_keys / sizeof opnd_flag_keys[0]; f++)
			if ((v = map_get(e, opnd_flag_keys[f].key)) && to_bool(v, opnd_flag_keys[f].key))
				o->flags |= opnd_flag_keys[f].bit;
	}
}

static strs *variant_tokens(const op_row *op, int slot, const ynode *v)
{
	strs *list = xrealloc(NULL, sizeof *list);
	*list = scalar_list(v, "a variant's tokens");
	const slot_row *s = &op->slots[slot];
	for (size_t i = 0; i < list->n; i++)
		if (strs_find(&s->toks, list->v[i]) < 0)
			fail(v, "token '%s' is not in slot '%s' of op '%s'", list->v[i], s->name, op->name);
	return list;
}


static void read_variant_window(variant_row *var, const ynode *map)
{
	const ynode *v;
	if (map_get(map, "sm") || map_get(map, "ptx")) {
		unsigned sm = var->sm, ptx = var->ptx;
		read_window(map, &sm, &ptx);
		var->sm = map_get(map, "sm") ? sm : var->sm;
		var->ptx = map_get(map, "ptx") ? ptx : var->ptx;
	}
	if ((v = map_get(map, "sm_max")))
		var->sm_max = to_uint(v, "sm_max", 1000);
	if ((v = map_get(map, "arch")))
		var->arch = read_arch(v);
	if ((v = map_get(map, "mc")))
		var->mc = identifier(v, "mc");
	if ((v = map_get(map, "iid")))
		var->iid = to_int(v, "iid");
	if ((v = map_get(map, "isd")))
		var->isd = to_int(v, "isd");
}

/* A variant: slot names map to the tokens allowed; a slot not named stays empty. */
static void read_variant(op_row *op, variant_row *var, const ynode *e, const variant_row *dflt)
{
	const ynode *v;
	expect(e, YAML_MAPPING_NODE, "a variant");
	*var = *dflt;
	MAP_EACH(p, e) {
		const char *k = key_of(p);
		int slot = slot_index(op, k);
		for (yaml_node_pair_t *q = e->data.mapping.pairs.start; q < p; q++)
			if (!strcmp(key_of(q), k))
				fail(node(p->key), "duplicate key '%s' in a variant", k);
		if (slot >= 0)
			var->allow[slot] = variant_tokens(op, slot, node(p->value));
		else if (!in_list(variant_keys, k) && strcmp(k, "note"))
			fail(node(p->key), "unknown slot '%s' in a variant of op '%s'", k, op->name);
	}
	read_variant_window(var, e);
	if ((v = map_get(e, "require"))) {
		expect(v, YAML_SEQUENCE_NODE, "require");
		SEQ_EACH(it, v)
			var->require |= 1u << need_slot(op, node(*it));
	}
	if ((v = map_get(e, "results")))
		read_opnds(op, &var->results, v, "results");
	if ((v = map_get(e, "operands")))
		read_opnds(op, &var->operands, v, "operands");
}

/* Without a variants list an op has one variant admitting every token of every slot. */
static void default_variant(op_row *op, const variant_row *dflt)
{
	variant_row *var = PUSH(op->variants, op->nvariants, op->cap_variants);
	*var = *dflt;
	for (size_t i = 0; i < op->nslots; i++)
		var->allow[i] = &op->slots[i].toks;
}

static void read_props(op_row *op, const ynode *map)
{
	static const char *const keys[] = {"slot", "values", NULL};
	expect(map, YAML_MAPPING_NODE, "props");
	MAP_EACH(p, map) {
		ynode *e = node(p->value), *v;
		check_keys(e, "a property", keys);
		const char *key = identifier(node(p->key), "property key");
		for (size_t j = 0; j < op->nprops; j++)
			if (!strcmp(op->props[j].key, key))
				fail(node(p->key), "duplicate property '%s' in op '%s'", key, op->name);
		prop_row *pr = PUSH(op->props, op->nprops, op->cap_props);
		*pr = (prop_row){.key = key};
		pr->slot = need_slot(op, map_need(e, "slot", "a property"));
		if (!(v = map_get(e, "values")))
			continue;
		expect(v, YAML_MAPPING_NODE, "values");
		MAP_EACH(q, v) {
			const char *tok = scalar(node(q->value), "a property value's token");
			strs_push(&pr->from, key_of(q));
			strs_push(&pr->from, tok);
			if (*tok) /* "": the value leaves the slot empty (a seed's 0 flag) */
				add_token(tok);
		}
	}
}

static size_t diag_index(const ynode *n)
{
	const char *id = scalar(n, "diag");
	for (size_t i = 0; i < M.ndiags; i++)
		if (!strcmp(M.diags[i].id, id))
			return i;
	fail(n, "unknown diagnostic '%s'", id);
}

static void read_rule(op_row *op, rule_row *r, const ynode *e)
{
	static const char *const keys[] = {"when", "sm_below", "ptx_below", "not_arch", "diag", "args", NULL};
	const ynode *v;
	expect(e, YAML_MAPPING_NODE, "a rule");
	check_keys(e, "a rule", keys);
	{
		*r = (rule_row){.args = {RARG_END, RARG_END, RARG_END, RARG_END}};
		if ((v = map_get(e, "when"))) {
			expect(v, YAML_MAPPING_NODE, "when");
			MAP_EACH(p, v) {
				int slot = slot_index(op, key_of(p));
				if (slot < 0)
					fail(node(p->key), "unknown slot '%s' in a rule of op '%s'", key_of(p), op->name);
				r->when[slot] = variant_tokens(op, slot, node(p->value));
			}
		}
		if ((v = map_get(e, "sm_below")))
			r->sm_below = to_uint(v, "sm_below", 1000);
		if ((v = map_get(e, "ptx_below")))
			r->ptx_below = to_ptx(v);
		if ((v = map_get(e, "not_arch"))) {
			const char *a = scalar(v, "not_arch");
			if (strcmp(a, "a") && strcmp(a, "f"))
				fail(v, "not_arch must be a or f, not '%s'", a);
			r->not_arch = a[0];
		}
		r->diag = diag_index(map_need(e, "diag", "a rule"));
		if ((v = map_get(e, "args"))) {
			expect(v, YAML_SEQUENCE_NODE, "args");
			size_t k = 0;
			SEQ_EACH(a, v) {
				const char *name = scalar(node(*a), "a rule argument");
				if (k == 4)
					fail(node(*a), "a rule takes at most 4 arguments");
				r->args[k] = !strcmp(name, "op") ? RARG_OP : !strcmp(name, "target") ? RARG_TARGET
				                                                                        : need_slot(op, node(*a));
				k++;
			}
		}
	}
}

static void read_rules(op_row *op, const ynode *list)
{
	expect(list, YAML_SEQUENCE_NODE, "rules");
	SEQ_EACH(it, list)
		read_rule(op, PUSH(op->rules, op->nrules, op->cap_rules), node(*it));
}

static unsigned read_op_flags(const ynode *v)
{
	static const char *const names[] = {"terminator", "noguard", "internal", NULL};
	unsigned flags = 0;
	expect(v, YAML_SEQUENCE_NODE, "flags");
	SEQ_EACH(it, v) {
		const char *f = scalar(node(*it), "a flag");
		unsigned bit = 0;
		while (names[bit] && strcmp(names[bit], f))
			bit++;
		if (!names[bit])
			fail(node(*it), "unknown op flag '%s'", f);
		flags |= 1u << bit;
	}
	return flags;
}

static const char *one_of(const ynode *map, const char *key, const char *const *allowed, const char *dflt)
{
	const ynode *v = map_get(map, key);
	if (!v)
		return dflt;
	const char *s = scalar(v, key);
	if (!in_list(allowed, s))
		fail(v, "unknown %s '%s'", key, s);
	return s;
}

/* The default MC stem: the op's stem upper-cased with '.' as '_'. */
static const char *default_mc(const char *stem)
{
	char *mc = sanitize(stem);
	for (char *c = mc; *c; c++)
		if (*c >= 'a' && *c <= 'z')
			*c = (char)(*c - 'a' + 'A');
	return mc;
}

/* Infer sources must name a result or operand that exists in some variant. */
static void check_infer(const op_row *op)
{
	size_t nres = op->results.n, nopd = op->operands.n;
	for (size_t i = 0; i < op->nvariants; i++) {
		nres = op->variants[i].results.n > nres ? op->variants[i].results.n : nres;
		nopd = op->variants[i].operands.n > nopd ? op->variants[i].operands.n : nopd;
	}
	for (size_t i = 0; i < op->nslots; i++)
		for (const int *src = op->slots[i].infer; *src >= 0; src++)
			if (*src >= SRC_OPERAND ? (size_t)(*src - SRC_OPERAND) >= nopd : (size_t)*src >= nres)
				fail(op->slots[i].infer_at, "infer source %s%d does not exist in op '%s'",
				     *src >= SRC_OPERAND ? "operand" : "result",
				     *src >= SRC_OPERAND ? *src - SRC_OPERAND : *src, op->name);
}

/* The tokens of list that lie in window w (w NULL: in none of the slot's). */
static strs *window_part(const slot_row *s, const strs *list, const tokwin_row *w)
{
	strs *part = xrealloc(NULL, sizeof *part);
	*part = (strs){0};
	for (size_t i = 0; i < list->n; i++) {
		int in = -1;
		for (size_t j = 0; j < s->nwins && in < 0; j++)
			if (strs_find(&s->wins[j].toks, list->v[i]) >= 0)
				in = (int)j;
		if (w ? in == (int)(w - s->wins) : in < 0)
			strs_push(part, list->v[i]);
	}
	return part;
}

/* Split every variant that admits tokens with windows of their own: one row for
 * the slot empty or holding unwindowed tokens, with the variant's window, then
 * one row per token window, the slot required there, with the later SM and PTX
 * version of the two and the stricter arch. The rows admit disjoint token sets,
 * so their order does not change which one a node selects. */
static void split_token_windows(op_row *op, const ynode *at)
{
	for (size_t si = 0; si < op->nslots; si++) {
		const slot_row *s = &op->slots[si];
		if (!s->nwins)
			continue;
		variant_row *out = NULL;
		size_t nout = 0, cap = 0;
		for (size_t vi = 0; vi < op->nvariants; vi++) {
			const variant_row *var = &op->variants[vi];
			if (!var->allow[si]) {
				*PUSH(out, nout, cap) = *var;
				continue;
			}
			strs *plain = window_part(s, var->allow[si], NULL);
			if (plain->n || !((var->require >> si) & 1)) {
				variant_row *r = PUSH(out, nout, cap);
				*r = *var;
				r->allow[si] = plain->n ? plain : NULL;
			}
			for (size_t wi = 0; wi < s->nwins; wi++) {
				const tokwin_row *w = &s->wins[wi];
				strs *part = window_part(s, var->allow[si], w);
				if (!part->n)
					continue;
				variant_row *r = PUSH(out, nout, cap);
				*r = *var;
				r->allow[si] = part;
				r->require |= 1u << si;
				r->sm = w->sm > r->sm ? w->sm : r->sm;
				r->ptx = w->ptx > r->ptx ? w->ptx : r->ptx;
				if (w->arch == 'a' || (w->arch == 'f' && !r->arch))
					r->arch = w->arch;
			}
		}
		if (nout > 65535)
			fail(at, "op '%s' has more than 65535 variants after its token windows", op->name);
		op->variants = out;
		op->nvariants = nout;
		op->cap_variants = cap;
	}
}

static void read_op(const ynode *e)
{
	static const char *const keys[] = {"op", "layer", "shape", "flags", "slots", "props", "results", "operands",
	                                   "mc", "variants", "rules", "otherwise", "family", "sm", "ptx", "sm_max",
	                                   "arch", "iid", "isd", NULL};
	const ynode *v;
	check_keys(e, "an op", keys);
	op_row *op = PUSH(M.ops, M.nops, M.cap_ops);
	*op = (op_row){0};
	v = map_need(e, "op", "an op");
	op->name = scalar(v, "op");
	for (size_t j = 0; j + 1 < M.nops; j++)
		if (!strcmp(M.ops[j].name, op->name))
			fail(v, "duplicate op '%s'", op->name);
	op->layer = one_of(e, "layer", layer_names, "match");
	op->shape = one_of(e, "shape", shape_names, "plain");
	op->flags = (v = map_get(e, "flags")) ? read_op_flags(v) : 0;
	op->mc = (v = map_get(e, "mc")) ? identifier(v, "mc") : default_mc(op->name);
	if ((v = map_get(e, "slots")))
		read_slots(op, v);
	if ((v = map_get(e, "results")))
		read_opnds(op, &op->results, v, "results");
	if ((v = map_get(e, "operands")))
		read_opnds(op, &op->operands, v, "operands");
	if ((v = map_get(e, "props")))
		read_props(op, v);
	if ((v = map_get(e, "rules")))
		read_rules(op, v);
	if ((v = map_get(e, "otherwise"))) {
		op->otherwise = xrealloc(NULL, sizeof *op->otherwise);
		read_rule(op, op->otherwise, v);
	}
	if ((v = map_get(e, "family"))) {
		const char *fam = identifier(v, "family");
		int at = strs_find(&M.families, fam);
		if (at < 0) {
			strs_push(&M.families, fam);
			at = (int)M.families.n - 1;
		}
		op->family = (size_t)at + 1;
	}

	variant_row dflt = {.sm = DEFAULT_SM, .ptx = default_ptx(), .mc = op->mc, .iid = -1};
	read_variant_window(&dflt, e);
	if (!(v = map_get(e, "variants"))) {
		default_variant(op, &dflt);
	} else {
		expect(v, YAML_SEQUENCE_NODE, "variants");
		SEQ_EACH(it, v)
			read_variant(op, PUSH(op->variants, op->nvariants, op->cap_variants), node(*it), &dflt);
		if (!op->nvariants)
			fail(v, "op '%s' has an empty variants list", op->name);
	}
	split_token_windows(op, e);
	/* A required slot is required in every variant; folding it into each
	 * variant's mask gives the verifier one place to look. */
	for (size_t i = 0; i < op->nslots; i++)
		if (op->slots[i].flags & SLOT_REQUIRED)
			for (size_t j = 0; j < op->nvariants; j++)
				op->variants[j].require |= 1u << i;
	check_infer(op);
}

static void read_ops(void)
{
	ynode *root = root_list("an operations file");
	if (!root)
		return;
	SEQ_EACH(it, root)
		read_op(node(*it));
}

/* ---------------------------------------------------------------- tokens */

static const char **tok_sorted; /* [0] is "" */
static size_t ntok_sorted;

static void sort_tokens(void)
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

static unsigned tok_id(const char *s)
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

static unsigned index_in(const char *const *list, const char *s)
{
	unsigned i = 0;
	while (strcmp(list[i], s))
		i++;
	return i;
}

static const char *opnd_array(const opnd_list *l)
{
	if (!l->n)
		return "NULL";
	sbuf b = {0};
	for (size_t i = 0; i < l->n; i++) {
		const opnd_row *o = &l->v[i];
		unsigned derive = !o->derive ? 0 : !strcmp(o->derive, "wide") ? 1 : 2;
		sb_printf(&b, "%s{", i ? ", " : "");
		sb_cstr(&b, o->name);
		sb_printf(&b, ", %u, %d, %u, %u, %d, %u, %u}", index_in(opnd_kinds, o->kind), o->type_slot, o->type,
		          derive, o->count_slot, o->count, o->flags);
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
		sb_printf(&b, ", %s, %u, %u, {", tok_list(&s->toks), s->flags, s->fixed ? tok_id(s->fixed) : 0);
		for (const int *src = s->infer;; src++) {
			sb_printf(&b, "%d", *src);
			if (*src < 0)
				break;
			sb_printf(&b, ", ");
		}
		sb_printf(&b, "}}");
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
	if (v->sm_max)
		sb_printf(b, ", .sm_max = %u", v->sm_max);
	if (v->arch)
		sb_printf(b, ", .arch = '%c'", v->arch);
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
	sb_printf(b, "}, .sm_below = %u, .ptx_below = %u, .not_arch = %d, .diag = %zu, .args = {%d, %d, %d, %d}}",
	          r->sm_below, r->ptx_below, r->not_arch, r->diag, r->args[0], r->args[1], r->args[2], r->args[3]);
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

/* A sorted name table's index on the first byte where its names differ: the
 * rows whose byte `at` is c lie in [first[c], first[c+1]), so a lookup
 * compares a handful of names instead of a binary search's dozen. */
static void emit_name_index(sbuf *c, const char *table, const char *const *names, size_t n)
{
	size_t at = n ? strlen(names[0]) : 0;
	for (size_t i = 1; i < n; i++) {
		size_t k = 0;
		while (k < at && names[i][k] == names[0][k])
			k++;
		at = k;
	}
	unsigned first[257];
	size_t row = 0;
	for (unsigned b = 0; b < 257; b++) {
		while (row < n && (unsigned char)names[row][at] < b)
			row++;
		first[b] = (unsigned)row;
	}
	sb_printf(c, "const px_name_index %s_index = {%zu, {", table, at);
	for (unsigned b = 0; b < 257; b++)
		sb_printf(c, "%s%u", b ? (b % 16 ? ", " : ",\n\t") : "", first[b]);
	sb_printf(c, "}};\n");
}

/* A table of rows and its length; C has no empty arrays, so an empty table is
 * one zeroed row behind a length of 0. */
static void emit_row_array(sbuf *c, const char *type, const char *name, const char *count, const sbuf *rows,
                           size_t n)
{
	if (n)
		sb_printf(c, "const %s %s[] = {\n%s};\n", type, name, rows->p);
	else
		sb_printf(c, "const %s %s[1];\n", type, name);
	sb_printf(c, "const unsigned %s = %zu;\n", count, n);
}

static int cmp_op(const void *a, const void *b)
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
		sb_printf(&rows, ", %s, %zu, %s, %zu, %s, %zu, %s, %zu, %u, %u, %s, 0x%x, %s, %zu, %s, %zu},\n", slots,
		          op->nslots, res, op->results.n, opd, op->operands.n, vars, op->nvariants,
		          index_in(shape_names, op->shape), index_in(layer_names, op->layer), props, op->flags, rules,
		          op->nrules, otherwise, op->family);
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
	sb_printf(c, "\t{\"none\", 0, PX_KIND_NONE, 0xff, 0, 0},\n");
	for (size_t i = 0; i < M.ntypes; i++) {
		const type_row *t = &M.types[i];
		sb_printf(c, "\t{\"%s\", %u, %u, %u, %d, %u},\n", t->name, t->width, index_in(type_kinds, t->kind),
		          t->regclass, t->float_view, strcmp(t->kind, "ptr") ? tok_id(t->name) : 0);
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
	emit_name_index(c, "px_tok", (const char *const *)tok_sorted, ntok_sorted);
}

static void emit_targets(sbuf *c)
{
	sb_printf(c, "\n/* targets and PTX versions (data/targets.yaml) */\nconst px_target px_targets[] = {\n");
	for (size_t i = 0; i < M.ntargets; i++) {
		const target_row *t = &M.targets[i];
		sb_printf(c, "\t{\"%s\", %u, %u, ", t->name, t->sm, t->ptx);
		sb_printf(c, t->suffix ? "'%c'},\n" : "0},\n", t->suffix);
	}
	if (!M.ntargets)
		sb_printf(c, "\t{NULL, 0, 0, 0},\n");
	sb_printf(c, "};\nconst unsigned px_ntargets = %zu;\nconst uint16_t px_ptx_versions[] = {", M.ntargets);
	for (size_t i = 0; i < M.nptx; i++)
		sb_printf(c, "%s%u", i ? ", " : "", M.ptx_versions[i]);
	sb_printf(c, "%s};\nconst unsigned px_nptx_versions = %zu;\n", M.nptx ? "" : "0", M.nptx);
}

static void emit_sregs(sbuf *c)
{
	sb_printf(c, "\n/* special registers (data/sregs.yaml), sorted by name */\nconst px_sreg px_sregs[] = {\n");
	for (size_t i = 0; i < M.nsregs; i++)
		sb_printf(c, "\t{\"%s\", %u, %u, %u},\n", M.sregs[i].name, M.sregs[i].type, M.sregs[i].sm,
		          M.sregs[i].ptx);
	if (!M.nsregs)
		sb_printf(c, "\t{NULL, 0, 0, 0},\n");
	sb_printf(c, "};\nconst unsigned px_nsregs = %zu;\n", M.nsregs);
	const char **names = xrealloc(NULL, (M.nsregs + 1) * sizeof *names);
	for (size_t i = 0; i < M.nsregs; i++)
		names[i] = M.sregs[i].name;
	emit_name_index(c, "px_sreg", names, M.nsregs);
	free(names);
}

static void emit_directives(sbuf *c)
{
	sb_printf(c, "\n/* kernel directives (data/directives.yaml), in print order */\n");
	sb_printf(c, "const px_directive px_directives[] = {\n");
	for (size_t i = 0; i < M.ndirs; i++) {
		const dir_row *d = &M.dirs[i];
		sb_printf(c, "\t{\"%s\", ", d->name);
		sb_cstr(c, d->print);
		sb_printf(c, ", %u, %u, %u, %u, %d},\n", d->min_args, d->max_args, d->sm, d->ptx, d->kernel_only);
	}
	if (!M.ndirs)
		sb_printf(c, "\t{NULL, NULL, 0, 0, 0, 0, 0},\n");
	sb_printf(c, "};\nconst unsigned px_ndirectives = %zu;\n", M.ndirs);
}

static void emit_diags_and_flags(sbuf *c)
{
	sb_printf(c, "\n/* diagnostics (data/diag/) */\nconst px_diag_def px_diag_texts[] = {\n");
	for (size_t i = 0; i < M.ndiags; i++) {
		sb_printf(c, "\t{\"%s\", ", M.diags[i].id);
		sb_cstr(c, M.diags[i].text);
		sb_printf(c, "},\n");
	}
	if (!M.ndiags)
		sb_printf(c, "\t{NULL, NULL},\n");
	sb_printf(c, "};\nconst unsigned px_ndiags = %zu;\n", M.ndiags);
	sb_printf(c, "\n/* node flags (data/flags.yaml) */\nconst px_flag_def px_node_flags[] = {\n");
	for (size_t i = 0; i < M.flags.n; i++)
		sb_printf(c, "\t{\"%s\", 0x%xu},\n", M.flags.v[i], 1u << i);
	if (!M.flags.n)
		sb_printf(c, "\t{NULL, 0},\n");
	sb_printf(c, "};\nconst unsigned px_nnode_flags = %zu;\n", M.flags.n);
}

static void emit_enum(sbuf *h, const char *comment, const char *prefix, const char *const *names, size_t n,
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

static void emit_pattern_enum(sbuf *h); /* patterns.yaml's section, below */

static void emit_header(sbuf *h)
{
	sb_printf(h, "/* Generated by tools/pxgen from the YAML files in data/; do not edit. */\n");
	sb_printf(h, "#ifndef PX_TABLES_GENERATED_H\n#define PX_TABLES_GENERATED_H\n");
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
	emit_enum(h, "op families with code of their own (px_op_def.family)", "PX_FAM_", (const char **)M.families.v,
	          M.families.n, "none", true);
	free(names);
	emit_pattern_enum(h);
	sb_printf(h, "\n/* register classes: the seed's class ids */\nenum {\n");
	for (size_t i = 0; i < M.nrc; i++) {
		char *s = sanitize(M.rc[i].name + (M.rc[i].name[0] == '%'));
		sb_printf(h, "\tPX_RC_%s = %u,\n", s, M.rc[i].id);
		free(s);
	}
	sb_printf(h, "};\n#define PX_NREGCLASS_IDS %zu\n", M.nrc);
	sb_printf(h, "\n/* node flags: px_node_flags[] */\nenum {\n");
	for (size_t i = 0; i < M.flags.n; i++)
		sb_printf(h, "\tPX_NF_%s = 0x%xu,\n", M.flags.v[i], 1u << i);
	sb_printf(h, "};\n\n#endif\n");
}

/* ---------------------------------------------------------------- mma_desc.yaml (seed 002's MMA enums) */

/* mma_desc.yaml: the element-type and shape enums of seed 002's packed MMA
 * descriptor, one row each: {type: f16, id: 6} or {shape: m16n8k16, id: 18}. */
static strs mma_names[2];
static unsigned *mma_ids[2];
static size_t mma_cap[2];

static void read_mma(void)
{
	static const char *const keys[] = {"type", "shape", "id", NULL};
	ynode *root = root_list("mma_desc.yaml");
	if (!root)
		return;
	SEQ_EACH(it, root) {
		ynode *e = node(*it);
		check_keys(e, "an MMA enum row", keys);
		int k = map_get(e, "shape") != NULL;
		const char *name = scalar(map_need(e, k ? "shape" : "type", "an MMA enum row"), "name");
		if (strs_find(&mma_names[k], name) >= 0)
			fail(e, "duplicate MMA enum row '%s'", name);
		unsigned id = to_uint(map_need(e, "id", "an MMA enum row"), "id", 255);
		mma_ids[k] = grow(mma_ids[k], &mma_cap[k], mma_names[k].n, sizeof *mma_ids[k]);
		mma_ids[k][mma_names[k].n] = id;
		strs_push(&mma_names[k], name);
		add_token(name);
	}
}

static void emit_mma(sbuf *c)
{
	static const char *const arrays[2] = {"px_mma_types", "px_mma_shapes"};
	for (int k = 0; k < 2; k++) {
		sb_printf(c, "\n/* seed 002's MMA %s enum (data/mma_desc.yaml) */\nconst px_mma_enum %s[] = {\n",
		          k ? "shape" : "element-type", arrays[k]);
		for (size_t i = 0; i < mma_names[k].n; i++)
			sb_printf(c, "\t{%u, %u},\n", tok_id(mma_names[k].v[i]), mma_ids[k][i]);
		if (!mma_names[k].n)
			sb_printf(c, "\t{0, 0},\n");
		sb_printf(c, "};\nconst unsigned %s_n = %zu;\n", arrays[k], mma_names[k].n);
	}
}

/* ---------------------------------------------------------------- patterns.yaml (the matcher's patterns) */

/* patterns.yaml: the pattern matcher's tables (seed 003's MatcherTable layer):
 * `bare`, the tail of every node's one-node pattern, and `patterns`, each
 * folding an inner node into the root that reads its result. Ops and slots
 * are named as in ops/ and checked against them; op indices are resolved at
 * emit time, after the ops are sorted. */
enum { PAT_MAX_OPNDS = 4 }; /* mirrors PX_MAX_PAT_OPNDS */

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

static void read_patterns(void)
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

static void emit_patterns(sbuf *c)
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

static void emit_pattern_enum(sbuf *h)
{
	const char **names = xrealloc(NULL, (P.n + 1) * sizeof *names);
	for (size_t i = 0; i < P.n; i++)
		names[i] = P.v[i].name;
	emit_enum(h, "the matcher's patterns: px_patterns[]", "PX_PAT_", names, P.n, NULL, true);
	free(names);
}

static void emit_source(sbuf *c)
{
	sb_printf(c, "/* Generated by tools/pxgen from the YAML files in data/; do not edit. */\n");
	sb_printf(c, "#include \"tables/tables.h\"\n");
	emit_types(c);
	emit_regclasses(c);
	emit_tokens(c);
	emit_targets(c);
	emit_sregs(c);
	emit_directives(c);
	emit_diags_and_flags(c);
	emit_ops(c);
	emit_mma(c);
	emit_patterns(c);
}

/* ---------------------------------------------------------------- names that must stay distinct in C */

static void check_unique_sanitized(const char *what, const char *const *names, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char *a = sanitize(names[i]);
		for (size_t j = 0; j < i; j++) {
			char *b = sanitize(names[j]);
			if (!strcmp(a, b)) {
				fprintf(stderr, "pxgen: error: %s '%s' and '%s' both become _%s\n", what, names[j], names[i], a);
				exit(1);
			}
			free(b);
		}
		free(a);
	}
}

static void check_op_names(void)
{
	const char **names = xrealloc(NULL, (M.nops + 1) * sizeof *names);
	for (size_t i = 0; i < M.nops; i++)
		names[i] = M.ops[i].name;
	check_unique_sanitized("ops", names, M.nops);
	free(names);
}

/* ---------------------------------------------------------------- files */

static enum file_kind kind_of(const char *path)
{
	static const char *const bases[] = {"regclasses.yaml", "types.yaml", "targets.yaml", "sregs.yaml",
	                                    "directives.yaml", "flags.yaml"};
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	for (int k = 0; k < 6; k++)
		if (!strcmp(base, bases[k]))
			return (enum file_kind)k;
	if (!strcmp(base, "mma_desc.yaml"))
		return K_MMA;
	if (!strcmp(base, "patterns.yaml"))
		return K_PATTERNS;
	if (strstr(path, "/diag/") || !strncmp(path, "diag/", 5))
		return K_DIAG;
	if (strstr(path, "/ops/") || !strncmp(path, "ops/", 4))
		return K_OPS;
	fprintf(stderr, "pxgen: error: %s: not a known table file (types.yaml, ..., diag/*.yaml, ops/*.yaml)\n", path);
	exit(1);
}

static void load(yfile *f)
{
	FILE *in = fopen(f->path, "rb");
	if (!in) {
		fprintf(stderr, "pxgen: error: %s: %s\n", f->path, strerror(errno));
		exit(1);
	}
	yaml_parser_t parser;
	yaml_parser_initialize(&parser);
	yaml_parser_set_input_file(&parser, in);
	if (!yaml_parser_load(&parser, &f->doc)) {
		fprintf(stderr, "%s:%lu:%lu: error: %s\n", f->path, (unsigned long)parser.problem_mark.line + 1,
		        (unsigned long)parser.problem_mark.column + 1, parser.problem ? parser.problem : "bad YAML");
		exit(1);
	}
	yaml_parser_delete(&parser);
	fclose(in);
}

static void (*const readers[K_NKINDS])(void) = {
	[K_REGCLASSES] = read_regclasses, [K_TYPES] = read_types, [K_TARGETS] = read_targets,
	[K_SREGS] = read_sregs, [K_DIRECTIVES] = read_directives, [K_FLAGS] = read_flags,
	[K_DIAG] = read_diags, [K_OPS] = read_ops, [K_MMA] = read_mma, [K_PATTERNS] = read_patterns,
};

/* Writes path through a temporary file: returns the temporary's name. */
static char *write_temp(const char *dir, const char *name, const sbuf *b)
{
	sbuf path = {0};
	sb_printf(&path, "%s/%s.tmp", dir, name);
	FILE *out = fopen(path.p, "wb");
	if (!out || fwrite(b->p, 1, b->n, out) != b->n || fclose(out)) {
		fprintf(stderr, "pxgen: error: %s: %s\n", path.p, strerror(errno));
		remove(path.p);
		exit(1);
	}
	return path.p;
}

static void install(const char *dir, const char *name, char *tmp)
{
	sbuf path = {0};
	sb_printf(&path, "%s/%s", dir, name);
	if (rename(tmp, path.p)) {
		fprintf(stderr, "pxgen: error: %s: %s\n", path.p, strerror(errno));
		exit(1);
	}
	free(path.p);
	free(tmp);
}

int main(int argc, char **argv)
{
	if (argc < 3 || strcmp(argv[1], "-o")) {
		fprintf(stderr, "usage: pxgen -o OUTDIR file.yaml...\n");
		return 1;
	}
	const char *outdir = argv[2];
	size_t nfiles = (size_t)argc - 3;
	yfile *files = xrealloc(NULL, (nfiles + 1) * sizeof *files);
	for (size_t i = 0; i < nfiles; i++) {
		files[i] = (yfile){.path = argv[i + 3], .kind = kind_of(argv[i + 3])};
		load(&files[i]);
	}
	/* Targets come before the windows that are checked against its PTX versions. */
	static const enum file_kind order[] = {K_REGCLASSES, K_TARGETS, K_TYPES, K_SREGS,     K_DIRECTIVES,
	                                       K_FLAGS,      K_DIAG,    K_OPS,   K_PATTERNS, K_MMA};
	for (size_t k = 0; k < K_NKINDS; k++) {
		for (size_t i = 0; i < nfiles; i++)
			if (files[i].kind == order[k]) {
				cur = &files[i];
				readers[order[k]]();
			}
		if (order[k] == K_REGCLASSES)
			check_rc_ids();
	}
	check_op_names();
	qsort(M.targets, M.ntargets, sizeof *M.targets, cmp_target);
	qsort(M.sregs, M.nsregs, sizeof *M.sregs, cmp_sreg);
	qsort(M.ops, M.nops, sizeof *M.ops, cmp_op);
	sort_tokens();

	sbuf h = {0}, c = {0};
	emit_header(&h);
	emit_source(&c);
	char *htmp = write_temp(outdir, "px_tables.h", &h), *ctmp = write_temp(outdir, "px_tables.c", &c);
	install(outdir, "px_tables.h", htmp);
	install(outdir, "px_tables.c", ctmp);
	/* freed, so that LeakSanitizer passes the sanitizer build's pxgen */
	free(h.p);
	free(c.p);
	return 0;
}
