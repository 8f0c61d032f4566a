/* The module as the front end builds it: globals, functions, labels, typed
 * virtual values and nodes, exactly as written in MIR. Nothing here is checked
 * against the tables yet; the verifier (src/verify) resolves each node to an
 * operation and variant, and the selector (src/isel) consumes the result.
 *
 * Functions are handed to the pipeline one at a time as the parser closes them
 * (px_module.on_function), so memory follows the largest function, not the
 * module: a function lives in module->fn_arena, which is reset after each. */
#ifndef PX_IR_H
#define PX_IR_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "front/valmap.h"
#include "px_tables.h" /* PX_MAX_SLOTS */
#include "util/arena.h"
#include "util/dslmap.h"
#include "util/lines.h"
#include "util/loc.h"
#include "util/strmap.h"

/* A place in a generator's own source, from a loc statement: file is an
 * index (from 1) into the module's locfiles; 0 means none. */
typedef struct px_dloc {
	uint32_t file, line, col;
} px_dloc;

typedef struct px_str {
	const char *s; /* points into the source text or an arena; not NUL-terminated */
	uint32_t n;
} px_str;

/* ---- operands ---- */
enum px_okind {
	PX_O_NONE,
	PX_O_VALUE,   /* %name: id = value index; elem >= 0 for %name[i] */
	PX_O_INT,     /* integer literal: ival (a leading '-' folded in) */
	PX_O_FLOAT,   /* decimal float literal: fval, the nearest double; fdir */
	PX_O_FBITS,   /* 0fXXXXXXXX / 0dXXXXXXXXXXXXXXXX: bits, fwidth 32 or 64 */
	PX_O_SREG,    /* %tid.x: id = index into px_sregs */
	PX_O_SYM,     /* @name: sym = name (a global or a function) */
	PX_O_LABEL,   /* ^name: id = label index in the function */
	PX_O_ADDR,    /* [base + off] or [base, (group)]: base, off, idx */
	PX_O_GROUP,   /* ( a, b, ... ): elems */
	PX_O_DISCARD, /* _ (results only) */
};

/* An operand record: the fields every kind has, then one union member per
 * kind (only the member of o->kind may be read; a reader switches on kind).
 * A value's fields are a member too: id (also PX_O_SREG's and PX_O_LABEL's),
 * elem (-1 for every kind new_opnd makes that keeps this member: a value
 * without an index, an sreg, a label, `_`) and the result's declaration
 * (also a return type's, carried as a PX_O_NONE link). 24 bytes on a 64-bit
 * host: a big function holds several a statement. */
typedef struct px_opnd px_opnd;
struct px_opnd {
	uint8_t kind;   /* enum px_okind */
	uint8_t fwidth; /* PX_O_FBITS: 32 or 64 */
	int8_t fdir;    /* PX_O_FLOAT: the decimal lies below (-1), at (0) or above (1) fval */
	bool neg : 1;     /* !%p */
	bool pair : 1;    /* a result joined to the previous one with '|' */
	bool has_idx : 1; /* PX_O_ADDR: base[1] is the group after ',' (px_addr_idx) */
	px_loc loc;
	union {
		struct {        /* PX_O_VALUE (and id: PX_O_SREG, PX_O_LABEL) */
			uint32_t id;
			int32_t elem;        /* -1 unless %name[i] */
			uint32_t decl_count; /* results only: N of ':T[N]', 0 if scalar */
			uint16_t decl_type;  /* results only: the type written after ':' (PX_T_*), 0 if none */
		};
		int64_t ival;   /* PX_O_INT */
		double fval;    /* PX_O_FLOAT */
		uint64_t bits;  /* PX_O_FBITS */
		px_str sym;     /* PX_O_SYM */
		struct {        /* PX_O_ADDR */
			px_opnd *base;
			int64_t off;
		};
		struct {        /* PX_O_GROUP */
			px_opnd *elems;
			uint32_t nelems;
		};
	};
};

_Static_assert(sizeof(void *) != 8 || sizeof(px_opnd) == 24, "an operand record stays 24 bytes");

/* An address's group after ',' in [%tmap, (%x, %y)], or NULL. It is kept
 * behind the base, not in a pointer of every operand's. */
static inline const px_opnd *px_addr_idx(const px_opnd *o) { return o->has_idx ? o->base + 1 : NULL; }

/* ---- values and labels (per function) ---- */
enum px_param_kind { PX_PARAM_NONE, PX_PARAM_SCALAR, PX_PARAM_PTR, PX_PARAM_AGG };

/* One per value of the function being translated, 32 bytes on a 64-bit host
 * (the selector keeps registers in its own per-value array, px_isel.vreg). */
typedef struct px_value {
	px_str name;        /* without '%' */
	px_loc def_loc;     /* first typed definition (or the parameter) */
	uint32_t count;     /* N for an array T[N]; 0 for a scalar */
	uint32_t param_index;
	uint16_t type;      /* PX_T_*, from the first typed definition; 0 until then */
	uint8_t aspace;     /* filled by the verifier: PX_SP_* below, what address it holds */
	uint8_t param : 2;  /* enum px_param_kind when it is a parameter */
	bool has_def : 1;   /* some statement or parameter defines it */
} px_value;
_Static_assert(sizeof(void *) != 8 || sizeof(px_value) == 32, "a value record stays 32 bytes");

/* A value's tag (px_value.aspace): none seen yet, unknown, or PX_SP_IN(space):
 * an address in that state space's own window (enum px_addr_space; generic:
 * a generic address into no known space), with PX_SP_GEN: the generic address
 * of a place in that space. */
enum { PX_SP_NONE = 0, PX_SP_UNKNOWN = 1, PX_SP_GEN = 0x80 };
/* PX_SP_MIXED (with PX_SP_UNKNOWN): unknown, but on some path a window
 * address of shared, const, local, param or tensor memory, which is no
 * generic address: it may not be used as one. */
enum { PX_SP_MIXED = 0x40 };
#define PX_SP_IN(space) ((uint8_t)(2 + (space)))
#define PX_SP_SPACE(tag) ((unsigned)(((tag) & 0x7f) - 2))

typedef struct px_label {
	px_str name;        /* without '^' */
	px_loc def_loc, first_use;
	bool defined, used;
} px_label;

/* ---- nodes ---- */
enum px_nkind { PX_N_INST, PX_N_LABEL, PX_N_CALL, PX_N_RET, PX_N_ASM, PX_N_PRINTF };

typedef struct px_prop {
	px_str key;
	px_str val;   /* n == 0 for a bare flag such as {trans} or {fast} */
	px_loc loc, val_loc;
} px_prop;

/* A call through a value: the value holding the function's address and the
 * signature written after ':'. Behind a pointer: few nodes are such calls. */
typedef struct px_icall {
	px_opnd target;
	struct px_funcsig *proto;
} px_icall;

/* A statement record: pointers first, then 32-bit fields, then the bits, so
 * nothing pads (120 bytes); the name a node carries depends on its kind (a
 * union), and so does the place of that name (another, 4 bytes). */
typedef struct px_node px_node;
struct px_node {
	px_node *next;
	/* filled by the verifier */
	const struct px_op_def *op;
	const struct px_variant *var;
	const uint16_t *slot; /* token per slot (PX_TOK_*), 0 = empty: a shared set (verify/slotset.h) */
	px_opnd *res;       /* results, in order; '|' pairs have pair set on the second */
	px_opnd *ops;       /* operands (PX_N_CALL: the arguments; PX_N_RET: the returned values) */
	px_prop *props;
	union {
		px_str opname;  /* PX_N_INST: the dotted name exactly as written, e.g. "ld.global.v4" */
		px_str text;    /* PX_N_ASM: the template, escapes decoded (res: outputs, ops: inputs);
		                 * PX_N_PRINTF: the format, decoded (ops: the arguments) */
		struct {        /* PX_N_CALL: function name without '@' (empty for a call through a value) */
			px_str callee;
			struct px_icall *icall; /* a call through a value, else NULL */
		};
	};
	union {
		px_loc oploc;      /* PX_N_INST: opname's */
		px_loc text_loc;   /* PX_N_ASM, PX_N_PRINTF: text's */
		px_loc callee_loc; /* PX_N_CALL: callee's */
	};
	uint32_t nres, nops, nprops;
	px_loc loc;         /* start of the statement: the guard's (if it has one), the first result's or the op's */
	uint32_t dloc;      /* the loc statement in force (--lineinfo): its place is the function's dlocs[dloc - 1]; 0: none */
	uint32_t guard;     /* guard @%p or @!%p: value index */
	uint32_t label;     /* PX_N_LABEL: label index; PX_N_PRINTF: its format's string (px_printf_string_name) */
	uint32_t flags;     /* PX_NF_* node flags from the dictionary (verifier) */
	uint32_t inferred : 24; /* bit i: slot i was filled by type inference, not written (verifier) */
	uint32_t kind : 3;      /* enum px_nkind */
	uint32_t has_guard : 1, guard_neg : 1;
	uint32_t has_addr : 1;  /* PX_N_INST: some operand is an address (parser) */
};
_Static_assert(PX_MAX_SLOTS <= 24, "px_node.inferred has a bit per slot");
_Static_assert(sizeof(void *) != 8 || sizeof(px_node) == 120, "a statement record stays 120 bytes");
_Static_assert(sizeof(px_node) % _Alignof(px_opnd) == 0, "an instruction's operands follow its node (parser)");

/* ---- functions ---- */
enum px_linkage { PX_LINK_VISIBLE, PX_LINK_EXTERN, PX_LINK_WEAK, PX_LINK_INTERNAL };

typedef struct px_param {
	uint32_t value;     /* value index of the parameter */
	uint8_t kind;       /* enum px_param_kind */
	uint16_t type;      /* PX_T_* for scalars; PX_T_ptr for pointers; PX_T_b8 for aggregates */
	uint16_t space;     /* PX_TOK_global/shared/const/local for a pointer, 0 for generic */
	uint32_t align;     /* 0 if not given */
	uint32_t size;      /* aggregate bytes */
	px_loc loc;
} px_param;

/* A function-local array: `local @scratch : f32[16] align 16` at the top of a body. */
typedef struct px_local {
	px_str name;        /* without '@' */
	px_loc loc;
	uint16_t type;      /* element type */
	bool is_array;
	uint64_t count;     /* elements (1 for a scalar) */
	uint32_t align;     /* 0 if not given */
} px_local;

typedef struct px_dirval {
	bool present;
	uint8_t nargs;
	uint32_t args[3];
	px_loc loc;
	px_loc argloc[3];
} px_dirval;

typedef struct px_func {
	px_str name;        /* without '@' */
	px_loc loc;
	bool is_kernel;
	bool is_decl;       /* no body: `extern func @f(...) -> (...)` */
	uint8_t linkage;    /* enum px_linkage */
	px_param *params;
	uint32_t nparams;
	uint16_t *rets;     /* return types (PX_T_*; PX_T_none: the aggregate result) */
	uint32_t nrets;
	uint32_t ret_size, ret_align; /* `-> (b8[N] align A)`: N and A (0: not written); else 0 */
	px_loc rets_loc;
	px_dirval dirs[PX_DIR__COUNT]; /* indexed by PX_DIR_* */
	px_prop *attrs;     /* function attributes: `attrs {unsafe_fp_math}` after the directives */
	uint32_t nattrs;
	px_value *values;   /* index = value id; the module's value_buf */
	uint32_t nvalues, cap_values;
	px_valmap value_ids;
	px_label *labels;
	uint32_t nlabels, cap_labels;
	px_strmap label_ids;
	px_node *first, *last;
	uint32_t nnodes;
	uint32_t ncalls;    /* its PX_N_CALL nodes: each is one call sequence */
	uint32_t widest_call; /* the most arguments one of them passes (printf: vprintf's two) */
	bool falls_off;     /* filled by the verifier: some path reaches the end of the body */
	px_dloc *dlocs;     /* the places of the loc statements its nodes name (px_node.dloc) */
	uint32_t ndlocs, cap_dlocs;
	px_local *locals;   /* growable; printed as .local after the registers */
	uint32_t nlocals, cap_locals;
	uint32_t nerrors;   /* syntax errors the parser reported inside it: its IR may miss
	                     * statements, so checking it further can only add noise */
} px_func;

/* ---- module ---- */
enum px_space { PX_SPACE_GLOBAL, PX_SPACE_CONST, PX_SPACE_SHARED };

typedef struct px_global {
	px_str name;
	px_loc loc;
	uint8_t space;      /* enum px_space */
	uint8_t linkage;    /* enum px_linkage */
	uint16_t type;      /* element type */
	bool is_array, unsized; /* T[N] / T[] */
	uint16_t handle;    /* PX_TOK_texref, _surfref or _samplerref for `global @t : texref`, else 0 */
	uint64_t count;
	uint32_t align;     /* 0 if not given */
	px_opnd *init;      /* initializer literals (PX_O_INT/FLOAT/FBITS/SYM), or NULL */
	uint32_t ninit;
	bool init_is_list;  /* written as [ ... ] or as a string */
	bool init_is_string; /* written as "...": one INT per byte, then a NUL */
} px_global;

/* What a later call needs to know of a function: kept for the whole module. */
typedef struct px_funcsig {
	px_str name;
	px_loc loc;
	bool is_kernel, defined;
	uint8_t linkage;
	uint16_t *params;   /* PX_T_* per parameter (PX_T_ptr for pointers, 0 for aggregates) */
	uint32_t *param_sizes; /* aggregate bytes, else 0 */
	uint32_t *param_aligns; /* aggregate alignment as written (0: none), else 0 */
	uint16_t *param_spaces; /* a pointer's space (PX_TOK_global...), 0: generic; NULL: none written (a prototype) */
	uint32_t nparams;
	uint16_t *rets;     /* PX_T_* per result; PX_T_none for an aggregate result */
	uint32_t nrets;
	uint32_t ret_size, ret_align; /* the aggregate result's bytes and alignment as written */
} px_funcsig;

typedef struct px_module px_module;
typedef void (*px_func_hook)(px_module *m, px_func *f, void *ctx);

/* The module's names as another owner keeps them: every lookup, entry and
 * removal of syms goes through get, put and remove, and quiesce comes before
 * a registered signature changes in place or a name is taken back. */
typedef struct px_symtab {
	uint32_t (*get)(void *ctx, const px_strmap *syms, px_str name);
	void (*put)(void *ctx, px_strmap *syms, px_str name, uint32_t entry);
	void (*remove)(void *ctx, px_strmap *syms, px_str name);
	void (*quiesce)(void *ctx);
	void *ctx;
} px_symtab;

struct px_module {
	const char *filename;   /* for diagnostics */
	const char *src;        /* the whole input */
	size_t srclen;
	px_arena arena;         /* lives as long as the module */
	px_arena fn_arena;      /* the function being built; reset after the hook */
	px_value *value_buf;    /* the values of the function being built (malloc'd) */
	uint32_t value_cap;
	/* target line */
	px_str target;          /* "sm_90a", n == 0 if none */
	bool target_written;    /* a target line was written, even a malformed one */
	px_loc target_loc;
	uint16_t ptx;           /* major*10+minor from `target sm_80 ptx 7.4`, 0 if none */
	px_loc ptx_loc;
	px_global *globals;
	uint32_t nglobals, cap_globals;
	px_funcsig *funcs;
	uint32_t nfuncs, cap_funcs;
	px_strmap syms;         /* name -> (index << 1) | is_func; read through px_module_sym (a view's is empty) */
	px_func_hook on_function;
	void *hook_ctx;
	/* The hook took the function (its memory is m->fn_arena's blocks and
	 * value_buf as they were, both replaced by empty ones): the parser drops
	 * it without touching it. Set by the hook, cleared by the parser. */
	bool fn_taken;
	/* Set while others read syms as the parser goes on (the pipeline's
	 * scheduler, under -j): px_module_sym, px_module_sym_put,
	 * px_module_sym_remove and px_module_quiesce go through it. NULL: syms
	 * is a plain map, read and changed directly. */
	const px_symtab *symtab;
	/* A view (px_module_view): the module whose syms it reads, seeing only
	 * the first nfuncs functions and nglobals globals. NULL: this one. */
	const struct px_module *live;
	struct px_diags *diags;
	px_str *locfiles;       /* the files loc statements name, in order of first use */
	uint32_t nlocfiles, cap_locfiles;
	px_dslmap dsl;          /* where each loc statement holds (lent to the diagnostics) */
	/* the line starts of src (px_module_linecol), built at the first question;
	 * a view's points at its module's */
	px_lines *lines;
	px_lines line_index;
};

/* The slots of a node the verifier has not filled: all empty. */
extern const uint16_t px_no_slots[PX_MAX_SLOTS];

/* Parse src into m, calling m->on_function for each function as it closes.
 * Returns the number of syntax errors reported (they go to m->diags). */
int px_parse(px_module *m);

/* ---- building helpers the parser uses (front/ir.c) ---- */
/* d hears the module's messages; when d is of the same text it also reads
 * lines from the module's index, so d's last flush comes before
 * px_module_free(m). */
void px_module_init(px_module *m, const char *filename, const char *src, size_t len, struct px_diags *d);
void px_module_free(px_module *m);
uint32_t px_func_value(px_module *m, px_func *f, px_str name);  /* find or add */
uint32_t px_func_label(px_module *m, px_func *f, px_str name);  /* find or add */
void px_func_append(px_func *f, px_node *n);
/* The entry syms holds for name ((index << 1) | is_func), as m sees it, or
 * PX_STRMAP_NONE. */
uint32_t px_module_sym(const px_module *m, px_str name);
/* Enter, or take back, a name in syms (through m->symtab when there is one). */
void px_module_sym_put(px_module *m, px_str name, uint32_t entry);
void px_module_sym_remove(px_module *m, px_str name);
/* Append a function's signature, or a variable, to m and enter its name;
 * returns its index. */
uint32_t px_module_add_func(px_module *m, const px_funcsig *sig);
uint32_t px_module_add_global(px_module *m, const px_global *g);
/* Before a registered signature changes in place. */
void px_module_quiesce(px_module *m);
/* Make view what a function closing now may see of m: the functions and
 * globals registered so far, read through px_module_sym from another thread
 * while m goes on. No arenas, no hook. */
void px_module_view(px_module *view, const px_module *m);
/* The line and column of a place in m's source (0, 0 for none). */
px_linecol px_module_linecol(const px_module *m, px_loc loc);
/* Its line alone: the messages that name another statement's line. */
unsigned px_module_line(const px_module *m, px_loc loc);
/* The function-local array named name, or NULL. */
const px_local *px_func_local(const px_func *f, px_str name);
/* The property named key in n's dictionary, or NULL. */
const px_prop *px_node_prop(const px_node *n, const char *key);
/* n's operation with its printed tokens ("ld.global.f32"), for messages and
 * remarks: truncated to size. */
void px_node_name(const px_node *n, char *buf, size_t size);

#endif
