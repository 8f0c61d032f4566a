/* The shapes of the instruction knowledge in the YAML files of data/.
 *
 * tools/pxgen reads the YAML at build time and writes px_tables.c (the rows)
 * and px_tables.h (enums naming rows the code refers to). Every stage reads the
 * same rows: the verifier checks against them, the selector picks an MC opcode
 * from them and the printer orders suffixes by them. Nothing here is written by
 * hand twice. */
#ifndef PX_TABLES_H
#define PX_TABLES_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "px_tables.h" /* generated: PX_MAX_SLOTS, PX_MAX_PAT_OPNDS, PX_T_*, PX_TOK_*, PX_OP_*, PX_D_*, PX_RC_*, PX_DIR_*, PX_PAT_* */


/* ---- value types (data/types.yaml) ---- */
enum px_type_kind { PX_KIND_NONE, PX_KIND_PRED, PX_KIND_BIT, PX_KIND_UINT, PX_KIND_SINT, PX_KIND_FLOAT, PX_KIND_PTR };
typedef struct px_type_info {
	const char *name;  /* "f32" */
	uint16_t width;    /* bits; pred is 1 */
	uint8_t kind;      /* enum px_type_kind */
	uint8_t regclass;  /* PX_RC_* of a value of this type */
	uint8_t print_class; /* PX_RC_* its registers print as: regclass, or its float view (%f, %fd) */
	uint16_t token;    /* PX_TOK_* with the same spelling (0 for ptr) */
	uint16_t decl_ptx; /* a parameter, result or initialized variable of the type needs this PTX version (0: any) */
} px_type_info;
extern const px_type_info px_types[];   /* indexed by PX_T_*; [0] is "none" */
extern const unsigned px_ntypes;

/* ---- register classes (data/regclasses.yaml) ---- */
typedef struct px_regclass {
	const char *name;      /* "%r", "Special" */
	uint8_t id;            /* NVPTX's class ID */
	uint16_t width;        /* bits */
	const char *decl;      /* declaration type (".b32"); NULL when never declared */
	const char *prefix;    /* printer prefix; NULL for Special */
	uint8_t view_of;       /* for a view class (%f): the class whose numbering it shares, else 0xff */
	const char *view_decl; /* how ptxemit declares a view so ptxas accepts it (see ptxemit-mir(5)) */
	uint32_t subclasses;   /* bit i set: class id i is a subclass */
	uint32_t superclasses; /* bit i set: class id i is a superclass */
} px_regclass;
extern const px_regclass px_regclasses[]; /* indexed by class id */
extern const unsigned px_nregclasses;

/* ---- name indexes over the tables (generated with them) ----
 * Open addressing: a name's row is found from slot[px_name_hash(name) & mask]
 * on (tables/namehash.h), probing the next slot while it holds another name;
 * a slot holds its row + 1, 0 when empty. At most a quarter is full. */
typedef struct px_name_index {
	uint32_t mask;
	const uint16_t *slot;
} px_name_index;
extern const px_name_index px_tok_index, px_sreg_index, px_op_index;

/* ---- modifier tokens (every dotted spelling any table uses) ---- */
extern const char *const px_tok_names[]; /* indexed by PX_TOK_*, sorted by spelling; [0] is "" */
extern const unsigned char px_tok_lanes[]; /* the n of a token spelled <lane>x<n> (f16x2, e4m3x2), else 0 */
extern const unsigned px_ntoks;
extern const uint8_t px_tok_types[]; /* indexed by PX_TOK_*: the PX_T_* spelled alike, or 0 */
/* PX_TOK_* of a spelling, or 0. */
unsigned px_tok_lookup(const char *s, size_t n);

/* ---- targets and PTX versions (data/targets.yaml) ---- */
typedef struct px_target {
	const char *name; /* "sm_90a" */
	uint16_t sm;      /* 90 */
	uint16_t ptx;     /* lowest PTX ISA version, major*10+minor: 80 */
	char suffix;      /* 0, 'a' (architecture-specific) or 'f' (family) */
	uint8_t index;    /* its place in px_targets: its bit in a window's target mask */
	uint16_t family;  /* the lowest SM of the family whose sm_XXf code it runs: 100 for sm_103f */
	uint32_t static_shared; /* the most static shared memory a kernel may have, in bytes (0: unknown) */
	/* From CUDA ptxas_cuda on (major*10+minor; 0: never) ptxas takes this
	 * target's code as -arch=ptxas_arch, or, without ptxas_code, makes none
	 * for it and checks a text for it under -arch=ptxas_arch. */
	uint16_t ptxas_cuda;
	const char *ptxas_arch;
	bool ptxas_code;
} px_target;
extern const px_target px_targets[];
extern const unsigned px_ntargets;
extern const uint16_t px_ptx_versions[]; /* every PTX ISA version ptxemit can print, ascending */
/* The most parameter space a kernel may have (data/targets.yaml kernel_params):
 * bytes, or wide_bytes from PTX ISA wide_ptx on; 0: not checked. */
typedef struct px_param_space {
	uint32_t bytes, wide_bytes;
	uint16_t wide_ptx;
} px_param_space;
extern const px_param_space px_kernel_params;
/* The most const data a module may have (data/targets.yaml const_data); 0: not checked. */
extern const uint32_t px_const_data_bytes;
extern const unsigned px_nptx_versions;
/* per PTX ISA version (px_ptx_versions' order): the CUDA release that brought
 * it (major*10+minor) and the oldest driver branch that loads it (535) */
extern const uint16_t px_ptx_cuda[];
extern const uint16_t px_ptx_driver[];

/* ---- special registers (data/sregs.yaml) ---- */
typedef struct px_sreg {
	const char *name; /* "%tid.x" */
	uint16_t type;    /* PX_T_*; PX_T_none for a vector register that needs a component */
	uint16_t sm, ptx; /* lowest SM and PTX ISA version */
	uint64_t targets; /* bit i: px_targets[i] has it */
	uint8_t varies;   /* PX_VARIES_*: which threads may read different values (sregs.yaml's varies:) */
	bool fixed;       /* a thread reads the same value every time (sregs.yaml's fixed:) */
} px_sreg;
enum {
	PX_VARIES_CTA,    /* the same in the whole CTA */
	PX_VARIES_THREAD, /* differs from thread to thread */
	PX_VARIES_WARP,   /* the same within a warp */
	PX_VARIES_TID_X,  /* %tid.x: the thread's x index (warps are runs of 32 along x) */
	PX_VARIES_TID_YZ, /* %tid.y, %tid.z: the same within a warp when the x size is a multiple of 32 */
};
extern const px_sreg px_sregs[]; /* sorted by name */
extern const unsigned px_nsregs;

/* A name PTX keeps for itself (data/names.yaml): no module variable or
 * function may take it, nor, unless module_only, a function-local array. */
typedef struct px_reserved_name {
	const char *name, *why;
	bool module_only;
} px_reserved_name;
extern const px_reserved_name px_reserved_names[];
extern const unsigned px_nreserved_names;
/* by the character after '%': bit n set when a special register of n bytes
 * begins with it (every name is shorter than 64 bytes, that character ASCII) */
extern const uint64_t px_sreg_shapes[128];

/* ---- kernel directives (data/directives.yaml, in print order) ---- */
typedef struct px_directive {
	const char *name;  /* MIR spelling: "reqntid" */
	const char *print; /* PTX spelling: ".reqntid" */
	uint8_t min_args, max_args; /* 0,0 for a flag such as explicitcluster */
	uint16_t sm, ptx;
	uint8_t kernel_only;
	uint32_t needs, excludes;        /* 1 << PX_DIR_*: directives it needs / refuses beside it */
	uint16_t needs_diag, excludes_diag; /* PX_D_* reported at it when one is missing / present */
	uint64_t targets; /* bit i: px_targets[i] has it */
	uint32_t lo[3], hi[3];  /* each argument's lowest and highest value (`range:`) */
	uint32_t product;       /* the most the arguments' product may be (`product:`; 0: no limit) */
	uint16_t product_diag;  /* PX_D_* reported when it is more */
} px_directive;
extern const px_directive px_directives[]; /* indexed by PX_DIR_*, in print order */
extern const unsigned px_ndirectives;

/* ---- diagnostics (data/diag/) ---- */
typedef struct px_diag_def {
	const char *id;   /* "unknown_op" */
	const char *text; /* printf format; NVVM's own words where it has the message */
	uint8_t warning;  /* a warning's -W option: px_warning_names[warning - 1]; 0 for the others */
} px_diag_def;
extern const px_diag_def px_diag_texts[]; /* indexed by PX_D_* */
extern const unsigned px_ndiags;
extern const char *const px_warning_names[]; /* "maybe-uninitialized": -Wmaybe-uninitialized */
extern const unsigned px_nwarning_names;
extern const uint64_t px_warnings_off; /* bit k: px_warning_names[k] is off until -WNAME */

/* ---- node flags accepted in property dictionaries (data/flags.yaml) ---- */
typedef struct px_flag_def {
	const char *name; /* "fast" */
	uint32_t bit;     /* PX_NF_* bit, or a valued flag's field mask */
	uint8_t shift;    /* a valued flag ({align = 16}): its field's lowest bit */
	uint8_t bits;     /* 1: a bare flag; else the field's width, holding log2 of a power of two */
} px_flag_def;
extern const px_flag_def px_node_flags[];
extern const unsigned px_nnode_flags;

/* ---- operations (data/ops/) ---- */
/* The flags of slots (PX_SLOT_*), operands (PX_OPND_*) and operations
 * (PX_OPF_*) are generated into px_tables.h from tools/pxgen/flags.h. */
enum { PX_SRC_END = -1, PX_SRC_RESULT = 0, PX_SRC_OPERAND = 32 }; /* infer sources: RESULT+i, OPERAND+i */

typedef struct px_slot_def {
	const char *name;       /* "rnd", "type", "space" */
	uint8_t sname;          /* PX_SN_*: the name as a constant */
	const uint16_t *toks;   /* every token the slot can hold, 0-terminated */
	uint8_t flags;          /* enum px_slot_flags */
	uint16_t fixed_tok;     /* for PX_SLOT_FIXED */
	int8_t infer[4];        /* PX_SRC_* in order of preference, PX_SRC_END-terminated */
	int8_t dflt_from;       /* with dflt: the slot whose token picks this one's default */
	const uint16_t *dflt;   /* NULL or pairs {its token, the default, ..., 0} (`default:`) */
} px_slot_def;

enum px_opnd_kind {
	PX_OK_VALUE,  /* register or immediate of the type */
	PX_OK_REG,    /* register only: an immediate is materialized with mov */
	PX_OK_IMM,    /* immediate only: a value there is an error */
	PX_OK_ADDR,   /* [base + offset] */
	PX_OK_LABEL,  /* ^label */
	PX_OK_PRED,   /* predicate value, may be written !%p */
	PX_OK_SYM,    /* @symbol */
};
enum px_derive { PX_DERIVE_NONE, PX_DERIVE_WIDE, PX_DERIVE_HALF };
/* An operand's `range:`, `multiple:`, `power_of_two:` and `nonzero:` (data/ops):
 * an integer literal there must lie in [lo, hi], be a multiple of `multiple`,
 * with pow2 a power of two and with nonzero other than 0. */
typedef struct px_imm_range {
	int64_t lo, hi;
	int32_t multiple; /* 1: any */
	bool pow2;
	bool nonzero;
} px_imm_range;

typedef struct px_opnd_def {
	const char *name;   /* for diagnostics: "a", "b", "d" */
	uint8_t kind;       /* enum px_opnd_kind */
	int8_t type_slot;   /* slot whose token gives the type, or -1 */
	uint16_t type;      /* PX_T_* when type_slot is -1 (PX_T_none: any type) */
	uint8_t derive;     /* enum px_derive applied to the slot's type */
	int8_t count_slot;  /* slot whose token (v2, v4, x4) gives a group's size, or -1 */
	uint8_t count;      /* fixed group size when count_slot is -1 */
	uint16_t flags;     /* enum px_opnd_flags */
	int8_t space_slot;  /* PX_OK_ADDR: the slot whose token names the state space (empty:
	                     * generic), or -1 for the fixed space below */
	uint8_t space;      /* with space_slot -1: enum px_addr_space (an address operand's, or
	                     * the one a value or symbol operand holds an address in; PX_AS_NONE) */
	const int32_t *allowed; /* NULL, or the immediates allowed (`allowed:`): px_opnd_allowed */
	const struct px_imm_range *range; /* NULL, or what an integer literal here may be */
	uint8_t select;     /* 1 + the noprint slot whose token prints after the operand
	                     * (a video selector: %r1.b0); 0: none */
	uint8_t negate;     /* 1 + the noprint slot that, filled, prints '-' before it (vmad); 0: none */
	uint8_t align_by;   /* enum px_align_by: what the address here must be a multiple of */
	uint16_t align;     /* PX_ALIGN_BYTES: the bytes; PX_ALIGN_OPERAND: the immediate operand's index */
} px_opnd_def;

/* What an address operand's address must be a multiple of (data/ops: an op's
 * `aligns:`): nothing, a number of bytes, the bytes the op accesses there (its
 * type times its vector width) or the literal of an immediate operand. */
enum px_align_by { PX_ALIGN_NONE, PX_ALIGN_BYTES, PX_ALIGN_ACCESS, PX_ALIGN_OPERAND };

/* The state space an address operand works in (data/ops: an op's `spaces:`). */
enum px_addr_space {
	PX_AS_GENERIC, PX_AS_GLOBAL, PX_AS_SHARED /* shared::cta */, PX_AS_CLUSTER /* shared::cluster */,
	PX_AS_CONST, PX_AS_LOCAL, PX_AS_PARAM, PX_AS_TMEM /* tensor memory (tcgen05) */,
	PX_AS_NONE /* a value or symbol operand that holds no address */
};

typedef struct px_variant {
	/* allow[i]: the tokens slot i may hold in this variant (0-terminated), or NULL
	 * when the slot must be empty. A fixed slot is always allowed. */
	const uint16_t *allow[PX_MAX_SLOTS];
	uint32_t require;       /* bit i: slot i must be filled in this variant */
	uint16_t sm, ptx;       /* lowest SM of its targets (70..121) and PTX ISA version (major*10+minor) */
	uint64_t targets;       /* bit i: px_targets[i] runs the variant (sm, sm_max, arch, targets:) */
	const char *mc;         /* MC opcode stem; see px_mc_name() */
	int32_t iid;            /* NVVM intrinsic ID, or -1 */
	int32_t isd;            /* the NVPTXISD opcode NVVM selects (tcgen05), or 0 */
	const px_opnd_def *results;  /* NULL: the op's */
	const px_opnd_def *operands; /* NULL: the op's */
	uint8_t nresults, noperands;
} px_variant;

enum px_op_shape {
	PX_SHAPE_PLAIN,  /* mnemonic.suffixes results, operands; */
	PX_SHAPE_BRANCH, /* bra: label operand */
	PX_SHAPE_PSEUDO, /* selection-internal: param/call brackets, printed by print/ */
};
enum px_layer { PX_LAYER_CHAIN, PX_LAYER_VECTOR, PX_LAYER_MATCH };

typedef struct px_prop_def {
	const char *key;        /* "num" */
	int8_t slot;            /* slot it fills */
	const char *const *from; /* NULL or pairs {"1","x1", "2","x2", ..., NULL}: value spelling -> token */
} px_prop_def;

/* A legality check, run before any variant or ID is looked up: when
 * every named slot holds one of its tokens (an empty list: the slot is empty)
 * and the target is below sm_below / ptx_below, at or above sm_from, or lacks
 * the not_arch suffix, the node is rejected with diag, formatted with args. */
enum { PX_RARG_END = -1, PX_RARG_OP = -2, PX_RARG_TARGET = -3 };
typedef struct px_rule {
	const uint16_t *when[PX_MAX_SLOTS];
	uint16_t sm_below, ptx_below, sm_from;
	char not_arch;
	bool gpu;               /* ptxas assembles it; the GPU computes another value than PTX defines */
	uint16_t diag;          /* PX_D_* */
	int8_t args[4];         /* slot index (its token), PX_RARG_OP, PX_RARG_TARGET */
} px_rule;
extern const uint16_t px_rule_empty[]; /* {0}: "this slot must be empty" */

typedef struct px_op_def {
	const char *name;       /* MIR/PTX stem, possibly dotted: "bar.sync" */
	const px_slot_def *slots; /* in PTX print order */
	uint8_t nslots;
	const px_opnd_def *results;
	uint8_t nresults;
	const px_opnd_def *operands;
	uint8_t noperands;
	const px_variant *variants;
	uint16_t nvariants;
	uint8_t shape;          /* enum px_op_shape */
	uint8_t layer;          /* enum px_layer: which selector layer owns it */
	const px_prop_def *props; /* NULL-key terminated; slot names are always keys too */
	uint64_t flags;         /* PX_OPF_* */
	const px_rule *rules;   /* checked in order before a variant is chosen */
	uint8_t nrules;
	const px_rule *otherwise; /* the message when no variant admits the tokens (its when is empty) */
	uint8_t family;         /* PX_FAM_*: verifier and selector code of its own (0: the tables say all) */
	/* bit PX_SN_* set when a slot of the op has that name: most questions
	 * for a slot by name ask about one the op does not have (.aligned of
	 * every statement), answered here without a look at the slots */
	uint64_t snames[PX_SN_WORDS];
} px_op_def;

extern const px_op_def px_ops[]; /* indexed by PX_OP_*, sorted by name */
extern const unsigned px_nops;

/* ---- the texture geometries' coordinates (data/families.yaml) ---- */
typedef struct px_geometry {
	uint16_t tok;    /* PX_TOK_*: 1d, a2d, cube... */
	uint8_t ncoords; /* the elements of the address's coordinate group */
	uint8_t nindex;  /* how many of them lead as integer indexes (a layer, a sample) */
} px_geometry;
extern const px_geometry px_geometries[];
extern const unsigned px_ngeometries;

/* ---- the MMA descriptor's enums (data/mma_desc.yaml) ---- */
typedef struct px_mma_enum {
	uint16_t tok; /* PX_TOK_* spelling ("f16", "m16n8k16") */
	uint8_t id;   /* the descriptor's enum value */
} px_mma_enum;
extern const px_mma_enum px_mma_types[];  /* element types 1..11, then ptxemit's narrow formats */
extern const unsigned px_mma_types_n;
extern const px_mma_enum px_mma_shapes[]; /* shapes 0x01..0x19 */
extern const unsigned px_mma_shapes_n;

/* ---- the descriptors MIR builds from named fields (data/desc.yaml) ---- */
typedef struct px_desc_field {
	uint16_t op;        /* PX_OP_* of the builder */
	const char *name;   /* its property key */
	int8_t lo;          /* lowest bit; -1: packed nowhere (kind: picks the codes) */
	uint8_t bits, shift; /* width; a number is stored >> shift */
	bool required, coded; /* coded: a name packed as its code for the kind */
	int8_t fixed;       /* a constant always packed (no property), or -1 */
	bool address;       /* the builder's address operand (the tile's start), not a property */
	uint32_t kinds;     /* bit i: px_desc_kinds[i]'s layout has it; 0: every kind's */
} px_desc_field;
typedef struct px_desc_code {
	uint8_t field;      /* PX_DF_* */
	const char *kind, *value; /* kind "any": the descriptor has no kind */
	uint8_t code;
	uint16_t align;     /* a tile's start is a multiple of it (0: no rule) */
} px_desc_code;
typedef struct px_desc_shape {
	uint16_t op, m, n_lo, n_hi, n_step;
	uint8_t cta_groups; /* bit k: cta_group::k */
	uint32_t kinds;     /* bit i: px_desc_kinds[i]; 0: every kind */
	uint8_t sparse;     /* bit 0: dense, bit 1: sparse */
	bool ws;            /* the .ws form's shape */
} px_desc_shape;
/* field = value is valid only where needs' value is one of in; with a slot,
 * where the MMA reading the descriptor has one of in in that slot */
typedef struct px_desc_rule {
	uint8_t field, needs; /* PX_DF_* */
	uint16_t slot;        /* PX_SN_*, or PX_SN__NONE: needs is the field */
	const char *kind, *value;
	const char *const *in; /* NULL ends */
} px_desc_rule;
extern const char *const px_desc_kinds[];   /* NULL ends */
extern const px_desc_rule px_desc_rules[];  /* NULL kind ends */
extern const px_desc_field px_desc_fields[]; /* indexed by PX_DF_*, then a NULL name */
extern const px_desc_code px_desc_codes[];   /* NULL kind ends */
extern const px_desc_shape px_desc_shapes[]; /* m 0 ends */

/* ---- the pattern matcher's patterns (data/patterns.yaml) ---- */
/* One step of a pattern's pipeline-lattice row: the byte CheckPatternPredicate
 * reads on targets below sm_below (0: every target; the row's last step). */
typedef struct px_lattice_step {
	uint16_t sm_below;
	uint8_t byte; /* <= 1 accepts, 4 doubles the cost, anything else rejects */
} px_lattice_step;
typedef struct px_pat_tail {
	const px_lattice_step *lattice; /* steps by ascending sm_below, the catch-all last */
	uint8_t cost;                   /* the EmitNode charge */
} px_pat_tail;
/* A node a pattern matches: its op, and per slot NULL (any token),
 * px_rule_empty (the slot is empty) or the tokens it may hold. */
typedef struct px_pat_node {
	uint16_t op; /* PX_OP_* */
	const uint16_t *when[PX_MAX_SLOTS];
} px_pat_node;
/* Where a replacement operand comes from: operand index of the inner node or
 * of the root (in the root's written order; commutation swaps 0 and 1). */
typedef struct px_pat_ref {
	uint8_t inner, index;
} px_pat_ref;
/* root(inner(...), ...) -> emit(...): the inner node defines root operand at
 * and is absorbed, so its result must have that one read. */
typedef struct px_pattern {
	const char *name;
	px_pat_node root, inner;
	uint8_t at;                  /* the root operand the inner node defines */
	uint8_t commutative;         /* the inner node may define root operand 1 - at instead */
	uint8_t same[PX_MAX_SLOTS];  /* per root slot: 1 + the inner slot that must hold its token; 0: none */
	uint32_t flags;              /* PX_NF_*: both nodes need one of them; 0: none needed */
	uint16_t reach;              /* most statements from the inner node to the root */
	px_pat_tail tail;
	uint16_t emit;               /* PX_OP_* of the replacement */
	uint16_t set[PX_MAX_SLOTS];  /* per replacement slot: the token the pattern writes */
	uint8_t copy[PX_MAX_SLOTS];  /* per replacement slot: 1 + the root slot copied into it; 0: none */
	uint8_t nops;
	px_pat_ref ops[PX_MAX_PAT_OPNDS];
} px_pattern;
extern const px_pat_tail px_bare_tail;  /* every node's one-node pattern */
extern const px_pattern px_patterns[];  /* indexed by PX_PAT_* */
extern const unsigned px_npatterns;

/* ---- lookups (tables/lookup.c) ---- */
/* The immediates an operand allows given the node's slots (*n of them), or
 * NULL when the table restricts none. px_opnd_def.allowed is {slot or -1,
 * then per set: its token (0 with slot -1), the count, the values; -1 ends}. */
const int32_t *px_opnd_allowed(const px_opnd_def *def, const uint16_t *slot, unsigned *n);
const px_op_def *px_op_lookup(const char *s, size_t n);
const px_target *px_target_lookup(const char *s, size_t n);
/* A PTX ISA version written X.Y (a major of one or two digits, a dot, one
 * digit) as major*10+minor, or 0 when it is not written so; known: whether
 * ptxemit can print it (one of px_ptx_versions). The --ptx option and the
 * verifier read a version with these. */
uint16_t px_ptx_version_parse(const char *s, size_t n);
bool px_ptx_version_known(uint16_t v);
const px_sreg *px_sreg_lookup(const char *s, size_t n);
int px_type_lookup(const char *s, size_t n); /* PX_T_* or 0 */
/* The index of op's slot named sname (PX_SN_*), or -1. A family's code may
 * take a slot families.yaml lists for it as present: pxgen checks. */
int px_slot_find(const px_op_def *op, unsigned sname);
/* The token slot i prints: the node's, or a fixed slot's own when the node left
 * it out; 0: none. (The printer, the MC names and the MMA descriptor agree.) */
unsigned px_slot_tok(const px_op_def *op, const uint16_t *slot, unsigned i);
int px_slot_has(const px_slot_def *slot, unsigned tok);
int px_toks_have(const uint16_t *toks, unsigned tok); /* 0-terminated list */
const px_geometry *px_geometry_of(unsigned tok); /* NULL: no geometry */

#endif
