/* pxgen's shared declarations: the YAML access layer, the model the readers
 * fill and the emitters write out, and each file's entry points.
 *
 *   util.c      memory, growable arrays, string buffers
 *   yaml.c      YAML access and `file:line:col: error:` reporting
 *   model.c     the model (M) and the lookups every reader shares
 *   basic.c     regclasses, types, targets, sregs, directives, flags, diag/
 *   ops.c       ops/NAME.yaml, the operations
 *   foreach.c   an op's lists, operand sets, variant templates and iid formulas
 *   families.c  families.yaml
 *   mma.c       mma_desc.yaml
 *   desc.c      desc.yaml
 *   patterns.c  patterns.yaml
 *   emit.c      px_tables.h and px_tables.c
 *   main.c      the command line, file kinds, reading order, output files */
#ifndef PXGEN_H
#define PXGEN_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <yaml.h>

#include "flags.h"

/* The rows' limits, written into px_tables.h as PX_MAX_SLOTS and PX_MAX_OPNDS. */
enum { MAX_SLOTS = 24, MAX_OPNDS = 16, MAX_INFER = 3, SRC_RESULT = 0, SRC_OPERAND = 32 };
/* Slot names: px_slot_def.sname is a byte, and PX_SN__NONE is 0. */
enum { MAX_SNAMES = 254 };
/* A pattern replacement's most operands, written into px_tables.h as PX_MAX_PAT_OPNDS. */
enum { PAT_MAX_OPNDS = 4 };

/* ---------------------------------------------------------------- memory and strings (util.c) */

typedef struct strs {
	const char **v;
	size_t n, cap;
} strs;

typedef struct sbuf {
	char *p;
	size_t n, cap;
} sbuf;

void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
/* Room for one more element in a growable array of elsize-byte elements. */
void *grow(void *v, size_t *cap, size_t n, size_t elsize);
#define PUSH(arr, n, cap) ((arr) = grow((arr), &(cap), (n), sizeof *(arr)), &(arr)[(n)++])
void strs_push(strs *s, const char *str);
int strs_find(const strs *s, const char *str);
void strs_free(strs *s); /* one allocated with its own list */
void sb_printf(sbuf *b, const char *fmt, ...);
void sb_cstr(sbuf *b, const char *s);
char *sanitize(const char *s);
int cmp_str(const void *a, const void *b);

/* ---------------------------------------------------------------- YAML access and errors (yaml.c) */

enum file_kind { K_REGCLASSES, K_TYPES, K_TARGETS, K_SREGS, K_DIRECTIVES, K_FLAGS, K_DIAG, K_OPS, K_MMA, K_PATTERNS,
                 K_FAMILIES, K_DESC, K_NAMES, K_NKINDS };

typedef struct yfile {
	const char *path;
	enum file_kind kind;
	yaml_document_t doc;
} yfile;

extern const yfile *cur; /* the file being read: names the file in errors, resolves node ids */

typedef yaml_node_t ynode;

#define SEQ_EACH(it, seq) \
	for (yaml_node_item_t *it = (seq)->data.sequence.items.start; it < (seq)->data.sequence.items.top; it++)
#define MAP_EACH(pr, map) \
	for (yaml_node_pair_t *pr = (map)->data.mapping.pairs.start; pr < (map)->data.mapping.pairs.top; pr++)

_Noreturn void fail(const ynode *n, const char *fmt, ...);
ynode *node(int id);
const char *scalar(const ynode *n, const char *what);
bool is_null(const ynode *n);
unsigned to_uint(const ynode *n, const char *what, unsigned max);
int32_t to_int(const ynode *n, const char *what);
bool to_bool(const ynode *n, const char *what);
unsigned to_ptx(const ynode *n);
void expect(const ynode *n, yaml_node_type_t type, const char *what);
const char *key_of(const yaml_node_pair_t *p);
ynode *map_get(const ynode *map, const char *key);
ynode *map_need(const ynode *map, const char *key, const char *what);
bool in_list(const char *const *list, const char *s);
void check_keys(const ynode *map, const char *what, const char *const *allowed);
ynode *root_list(const char *what);
strs scalar_list(const ynode *n, const char *what);
const char *identifier(const ynode *n, const char *what);

/* ---------------------------------------------------------------- the model read from YAML (model.c) */

/* The spellings the YAML may write for tables.h's enums; the generated C
 * names the constant (opnd kind "reg": PX_OK_REG), so their order is free. */
extern const char *const type_kinds[], *const opnd_kinds[], *const layer_names[], *const shape_names[];
extern const char *const space_names[], *const space_consts[];
extern const unsigned space_none;

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
	unsigned decl_ptx; /* a parameter, result or initialized variable of the type needs this PTX version (0: none) */
} type_row;

typedef struct target_row {
	const char *name;
	unsigned sm, ptx;
	unsigned family; /* the lowest SM of the family whose sm_XXf code the target runs */
	char suffix;
	size_t line; /* file order, so sorting by SM keeps plain, a, f in the order written */
	unsigned static_shared; /* the most static shared memory a kernel may have, in bytes */
	/* ptxas: {cuda: X.Y, arch: NAME, code: false}: from CUDA X.Y on ptxas
	 * takes the target's code as -arch=NAME, or (code: false) makes none and
	 * checks a text for it under -arch=NAME (0 / NULL: its own name always) */
	unsigned ptxas_cuda;
	const char *ptxas_arch;
	bool ptxas_code;
} target_row;

typedef struct sreg_row {
	const char *name;
	unsigned type, sm, ptx;
	unsigned varies; /* index into basic.c's varies names: 0 the same in the whole CTA */
	bool fixed;      /* a thread reads the same value every time */
	uint64_t targets;
} sreg_row;

typedef struct dir_row {
	const char *name, *print;
	unsigned min_args, max_args, sm, ptx;
	uint64_t targets;
	bool kernel_only;
	uint32_t needs, excludes;          /* PX_DIR_* bits the directive needs / refuses beside it */
	size_t needs_diag, excludes_diag;  /* the messages */
	const ynode *needs_at, *excludes_at;
	unsigned lo[3], hi[3];             /* range: each argument's lowest and highest value */
	unsigned product;                  /* product: the most the arguments' product may be (0: no limit) */
	size_t product_diag;
} dir_row;

typedef struct diag_row {
	const char *id, *text;
	int warning; /* index into M.warnings of its -W option, or -1: not a warning */
} diag_row;

/* Tokens with a window of their own (a slot's `windows:`): a variant that
 * admits them is split by pxgen into rows whose windows include theirs. */
typedef struct tokwin_row {
	strs toks;
	unsigned sm, ptx;
	uint64_t targets;
} tokwin_row;

typedef struct slot_row {
	const char *name, *fixed;
	strs toks;
	unsigned flags;
	int infer[MAX_INFER + 1];
	const ynode *infer_at;
	tokwin_row *wins;
	size_t nwins, cap_wins;
	int dflt_from;  /* `default: {SLOT: {TOKEN: TOKEN}}`: SLOT's index */
	strs dflt;      /* SLOT's token, this slot's default, ... */
} slot_row;

typedef struct opnd_row {
	const char *name, *kind;
	int type_slot, count_slot;
	unsigned type, count, flags;
	const char *derive;
	int space_slot;  /* addr: the slot whose token names its state space, or -1 */
	unsigned space;  /* with space_slot -1: index in space_consts (space_none: no address) */
	int allowed_slot; /* `allowed:` keyed by this slot's token, or -1 */
	strs allowed;    /* per set: its token ("" with allowed_slot -1), then its values */
	size_t *allowed_n; /* the values in each set */
	size_t nallowed;
	bool ranged;     /* range:, multiple: or power_of_two: given */
	int32_t lo, hi;  /* range: [lo, hi] (INT32_MIN, INT32_MAX: the type's own) */
	int32_t multiple; /* multiple: N (1: any) */
	bool pow2;       /* power_of_two: true */
	bool nonzero;    /* nonzero: true */
	int select_slot; /* select: the noprint slot whose token prints after the operand, or -1 */
	int negate_slot; /* negate: the noprint slot that, filled, prints '-' before it, or -1 */
	const char *align_by; /* addr: the op's `aligns:` entry: "bytes", "access", "operand"; NULL: none */
	unsigned align;  /* with "bytes" the bytes, with "operand" the immediate operand's index */
} opnd_row;

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
	uint64_t list;          /* `targets:` as a mask over the sorted targets, or 0 */
	uint64_t targets;       /* every target the variant runs on (the window's SM side) */
	const char *mc;
	int32_t iid;
	int32_t isd;            /* NVPTXISD opcode of the variant's selection, or 0 */
	const ynode *iid_formula; /* the op's `iid:` formula, evaluated per variant, or NULL */
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
	unsigned sm_below, ptx_below, sm_from;
	char not_arch;
	bool gpu;               /* ptxas assembles it; the GPU computes another value */
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
	uint64_t flags;         /* OPF_* */
	const ynode *spaces;    /* operand name -> slot or state space of its address */
	const ynode *aligns;    /* address operand name -> what its address is a multiple of */
} op_row;


/* A geometry token and its coordinates: how many, the first nindex of them
 * integer indexes (a layer, a sample). */
typedef struct geom_row {
	const char *tok;
	unsigned ncoords, nindex;
	const ynode *at;
	const yfile *file; /* at's, for an error found at emit time */
} geom_row;

struct model {
	regclass_row *rc;
	size_t nrc, cap_rc;
	type_row *types;
	size_t ntypes, cap_types;
	unsigned *ptx_versions;
	size_t nptx, cap_ptx;
	unsigned *ptx_cuda, *ptx_driver; /* per PTX version: its CUDA release, the oldest driver */
	size_t nptx_cuda, cap_ptx_cuda, nptx_driver, cap_ptx_driver;
	target_row *targets;
	size_t ntargets, cap_targets;
	/* kernel_params: a kernel's parameter space, bytes, and the wider one
	 * from PTX ISA wide_ptx on (0: none given) */
	unsigned kparam_bytes, kparam_wide_bytes, kparam_wide_ptx;
	unsigned const_bytes; /* const_data: a module's const variables, bytes (0: none given) */
	sreg_row *sregs;
	size_t nsregs, cap_sregs;
	dir_row *dirs;
	size_t ndirs, cap_dirs;
	diag_row *diags;
	size_t ndiags, cap_diags;
	strs warnings; /* the -W option names diag rows give, in order of first appearance */
	uint64_t warnings_off; /* bit k: warning k is off until -WNAME (its rows say off: true) */
	strs flags;
	strs reserved, reserved_why; /* names.yaml: the names PTX keeps, and why */
	unsigned char *reserved_module; /* per reserved name: only module-scope names may not take it */
	size_t cap_reserved_module;
	unsigned flag_bits[32]; /* per flag: 1, or the width of a valued flag's log2 field */
	op_row *ops;
	size_t nops, cap_ops;
	strs toks; /* every token spelling, unsorted until emit time */
	strs families; /* op families with selector/verifier code of their own (families.yaml) */
	strs *fam_slots; /* per family: the slots every op of it has */
	size_t nfam_slots, cap_fam_slots;
	geom_row *geoms; /* the texture geometries' coordinates (families.yaml geometries:) */
	size_t ngeoms, cap_geoms;
	strs snames; /* every slot name of every op: PX_SN_* */
};
extern struct model M;

/* Defaults for an entry that names no window: available everywhere ptxemit prints. */
enum { DEFAULT_SM = 70 };
unsigned default_ptx(void);
/* PX_T_* of a type name (index + 1), or 0. */
unsigned type_index(const char *name);
unsigned rc_by_name(const ynode *n);
void add_token(const char *t);
/* The window keys shared by sregs, directives and variants. */
void read_window(const ynode *map, unsigned *sm, unsigned *ptx);

/* ---------------------------------------------------------------- readers */

/* basic.c */
void read_regclasses(void);
void check_rc_ids(void);
void read_types(void);
void read_targets(void);
int cmp_target(const void *a, const void *b);
/* `targets: [...]` as a mask over the sorted targets. */
uint64_t read_target_list(const ynode *v);
/* The targets of a window: the list if not 0, else sm..sm_max narrowed by arch. */
uint64_t window_mask(const ynode *at, unsigned sm, unsigned sm_max, char arch, uint64_t list);
/* The lowest SM of a target mask. */
unsigned mask_sm(uint64_t m);
/* An `arch:` value: a or f. */
char read_arch(const ynode *v);
void read_sregs(void);
int cmp_sreg(const void *a, const void *b);
void read_directives(void);
void read_flags(void);
void read_names(void);
void read_diags(void);

/* ops.c */
size_t diag_index(const ynode *n); /* a diag id of diag/ (read before directives and ops) */
int slot_index(const op_row *op, const char *name);
int need_slot(const op_row *op, const ynode *n);
strs *variant_tokens(const op_row *op, int slot, const ynode *v);
/* A token list with its patterns expanded: "b[0-7][0-3]" is b00 .. b73. */
strs token_list(const ynode *v, const char *what);
void read_ops(void);

/* ops.c's variant reader, which foreach.c calls once per expanded template */
void read_variant(op_row *op, variant_row *var, const ynode *e, const variant_row *dflt);

/* foreach.c */
typedef struct opnd_items {
	ynode **v;
	size_t n, cap;
} opnd_items;
const char *subst(const ynode *at, const char *s);
void foreach_context(FILE *f);
void foreach_begin_op(const ynode *op);
opnd_items operand_items(const ynode *list);
int32_t iid_formula(const ynode *f);
void read_variants(op_row *op, const ynode *list, const variant_row *dflt);

/* families.c */
void read_families(void);
void check_family(const op_row *op, const ynode *at);
void emit_geometries(sbuf *c);

/* mma.c, patterns.c */
void read_mma(void);
void emit_mma(sbuf *c);
/* desc.c */
void read_desc(void);
void emit_desc_enum(sbuf *h);
void emit_desc(sbuf *c);
void read_patterns(void);
void emit_patterns(sbuf *c);
void emit_pattern_enum(sbuf *h);

/* ---------------------------------------------------------------- emitting C (emit.c) */

void sort_tokens(void);
unsigned tok_id(const char *s);
void emit_enum(sbuf *h, const char *comment, const char *prefix, const char *const *names, size_t n,
               const char *first, bool count);
void emit_row_array(sbuf *c, const char *type, const char *name, const char *count, const sbuf *rows,
                    size_t n);
int cmp_op(const void *a, const void *b);
void emit_header(sbuf *h);
void emit_source(sbuf *c);

#endif
