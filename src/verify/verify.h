/* The verifier: resolves every node to an operation and a variant of the tables,
 * infers the type slots, checks operands, names and target windows, and reports
 * every mistake at its line. After it, a node carries op, var and slot[]; the
 * selector trusts them. */
#ifndef PX_VERIFY_H
#define PX_VERIFY_H
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "diag/diag.h"
#include "front/ir.h"
#include "front/optype.h"
#include "tables/firstrow.h"
#include "tables/query.h"
#include "tables/tables.h"
#include "verify/analysis/value.h"
#include "verify/slotset.h"

/* A call to a function not yet seen: checked when the module ends. */
typedef struct px_pending_call {
	px_str callee;
	px_loc loc;
	uint16_t *args;    /* PX_T_* per argument (0: unknown) */
	uint32_t *arg_bytes; /* per argument: an aggregate's bytes (px_check_call_sig), else 0 */
	px_opnd *lits;     /* per argument: a copy of a literal, else kind PX_O_NONE */
	uint32_t nargs;
	uint16_t *rets;    /* PX_T_* per result (0: discarded) */
	uint32_t *ret_bytes;
	uint32_t nrets;
	struct px_pending_call *next;
	/* per argument, what keeps it from being a generic pointer (an address
	 * of a window cvta cannot convert), for a ptr parameter; NULL: nothing */
	const char **not_pointer;
	/* per argument, the space its address is known to be in (PX_AS_*), for a
	 * pointer parameter of a space, and the words that say so; -1: none known */
	int8_t *known_space;
	const char **known_as;
	px_loc *arg_locs;
} px_pending_call;

/* What a function uses that a rule over the call graph needs (verify/kernel.c). */
typedef struct px_fn_uses px_fn_uses;

typedef struct px_shapes px_shapes;

typedef struct px_verifier {
	px_module *m;
	px_diags *d;
	const px_target *target; /* NULL until resolved (or when unknown) */
	bool target_reported;    /* "no target" said once */
	uint16_t ptx_given;      /* 0: choose the lowest that fits */
	uint16_t ptx_needed;     /* the highest any node or directive needs so far */
	/* --driver / --max-ptx: no statement may need a newer version (0: no
	 * limit); ptx_max_by is the option as the message names it */
	uint16_t ptx_max;
	const char *ptx_max_by;
	const char *opt_target, *opt_ptx; /* from the command line */
	unsigned grid[3];        /* --assume-grid (px_options), 0: not given */
	px_pending_call *pending, **pending_tail; /* in text order */
	px_pending_call **fn_pending; /* where the function being verified adds its own */
	uint32_t widest_call; /* the most arguments a call of the module passes (names.c) */
	struct px_param_ref *param_refs; /* functions named paramN named so far (names.c) */
	px_fn_uses *uses, **uses_tail; /* one per function, in text order */
	px_fn_uses *cur_uses;    /* the function being verified's */
	px_arena *keep;          /* what lives to the module's end (pending calls): m->arena */
	/* what the analyses of the function being verified allocate (the hazard
	 * checks' frame, verify/hazard/frame.h): each takes it back when it is done */
	px_arena scratch;
	/* the value analysis the hazard checks made of the function verified
	 * last, kept in scratch until the next function (values_kept) */
	px_values values;
	bool values_kept;
	/* per function, reused */
	uint8_t *state;          /* per value: VS_* bits */
	uint32_t state_cap;
	px_first_rows *first_rows; /* remembered first admitting rows */
	px_shapes *shapes;         /* the row each statement shape takes (variant.c) */
	/* operation names resolved without an error (slots.c): the text of a
	 * statement's name alone decides its operation and the slots its dotted
	 * tokens fill, so each distinct name is resolved once a translation */
	px_strmap resolved;         /* the name's text -> its row below */
	struct px_resolved *resolved_rows;
	uint32_t nresolved, resolved_cap;
	/* the slots of the node being changed; the others' are shared copies */
	uint16_t work[PX_MAX_SLOTS];
	px_slotsets slotsets;
	bool desc_seen;          /* the function has a descriptor builder (px_check_desc_starts) */
} px_verifier;

/* n's slots, to change: the working copy, which n reads until px_slots_done. */
static inline uint16_t *px_slots_edit(px_verifier *v, px_node *n)
{
	if (n->slot != v->work) {
		memcpy(v->work, n->slot, sizeof v->work);
		n->slot = v->work;
	}
	return v->work;
}

/* n's slots as they now are, kept: n points at the shared copy of the set. */
static inline void px_slots_done(px_verifier *v, px_node *n)
{
	if (n->slot == v->work)
		n->slot = px_slotsets_keep(&v->slotsets, v->work);
}

void px_verifier_init(px_verifier *v, px_module *m, px_diags *d, const char *opt_target,
                      const char *opt_ptx);
void px_verifier_free(px_verifier *v);
/* The value analysis of the function verified last, for the selector to
 * reuse instead of making its own; NULL where the hazard checks did not run,
 * or where --assume-grid shaped it: an assumed launch may sharpen what the
 * checks say, never the code (a vector access merged on a grid assumed). */
const px_values *px_verify_values(const px_verifier *v);
/* Resolve the target and the PTX version (command line over the module's line). */
void px_verify_target(px_verifier *v);
void px_verify_func(px_verifier *v, px_func *f);
/* "no target", once, at the first function (px_verify_func's first step). */
void px_verify_has_target(px_verifier *v, const px_func *f);
void px_verify_globals(px_verifier *v);
/* Checks what only the whole module can tell (calls to later functions). */
void px_verify_module_end(px_verifier *v);
/* The .version to print. */
uint16_t px_verify_ptx_version(const px_verifier *v);
/* The .version a module prints: the one given, else the highest its statements
 * need (needed) and never below the target's lowest. The selector keeps a
 * statement it rewrites inside it. */
static inline uint16_t px_ptx_settled(uint16_t given, const px_target *t, uint16_t needed)
{
	if (given)
		return given;
	return t && t->ptx > needed ? t->ptx : needed;
}

/* ---- the verifier's literal checks (verify/types.c) ---- */
/* Whether a floating-point literal v keeps a finite value as float type t. */
bool px_float_fits(double v, int dir, int t);
/* A literal's text as written at loc (for messages): its length. */
int px_literal_text(const px_verifier *v, px_loc loc, const char **s);

/* ---- address spaces (space.c) ---- */
/* Tag every value of f and check every memory operand's address against its space. */
void px_check_spaces(px_verifier *v, px_func *f);
/* What a known tag (px_value.aspace) says, as the messages say it: "a shared
 * address", "a generic address into shared memory"; NULL for no address, an
 * unknown one, or a generic address into no known space. */
const char *px_space_tag_text(char *buf, size_t size, uint8_t tag);
int px_known_arg_space(px_verifier *v, const px_func *f, const px_opnd *o, const char **why);
void px_check_arg_space(px_verifier *v, const px_funcsig *sig, uint32_t i, const char *sigil, px_str callee,
                        int have, const char *why, px_loc at);

/* flow.c: may a path reach the end of f's body (f->falls_off)? An error for a func with results. */
void px_check_flow(px_verifier *v, px_func *f);

/* carry.c: every addc, subc and madc reads the carry flag a .cc instruction of its own block set. */
void px_check_carry(px_verifier *v, px_func *f);

/* ---- hazards: what the statements do together along the paths (run on a
 * function the verifier found no error in) ---- */
/* hazards.c: the hazard checks (verify/hazard/frame.h), over one set of blocks. */
void px_check_hazards(px_verifier *v, px_func *f);
/* An mbarrier operation that uses its first operand as the barrier (arrive,
 * wait, expect_tx, ...), and mbarrier.init with its operand. */
bool px_uses_mbarrier(const px_node *n);
bool px_is_mbarrier_init(const px_node *n);
/* The flags of the operations those two can say yes to. */
#define PX_MBARRIER_OPS (PX_OPF_MBARRIER_INIT | PX_OPF_MBARRIER_USE)
/* The descriptors' tile starts (verify/desc.c), once f is verified. */
void px_check_desc_starts(px_verifier *v, px_func *f);

/* ---- verifier internals (one file each) ---- */
bool px_resolve_op(px_verifier *v, px_node *n);          /* slots.c: op, tokens, properties */
bool px_infer_types(px_verifier *v, px_func *f, px_node *n); /* infer.c: empty type slots */
unsigned px_type_alternative(const px_slot_def *s, unsigned tok, unsigned k); /* infer.c */
bool px_check_rules(px_verifier *v, const px_node *n);   /* rules.c: the tables' legality rules */
/* variant.c: "add.rn.f32", the operation as the node spells it, without slot skip (-1: none) */
void px_node_text(const px_node *n, int skip, char *buf, size_t size);
void px_rule_report(px_verifier *v, const px_node *n, const px_rule *r); /* rules.c */
bool px_matrix_prepare(px_verifier *v, px_func *f, px_node *n); /* matrix.c */
bool px_tile_copy_prepare(px_verifier *v, px_func *f, px_node *n); /* tilecopy.c */
bool px_wgmma_prepare(px_verifier *v, px_func *f, px_node *n);   /* tensor.c */
void px_wgmma_check(px_verifier *v, px_func *f, px_node *n);     /* tensor.c */
bool px_tcgen05_commit_prepare(px_verifier *v, px_func *f, px_node *n); /* tensor.c */
bool px_tcgen05_mma_prepare(px_verifier *v, px_func *f, px_node *n);    /* tensor.c */
void px_tcgen05_mma_check(px_verifier *v, px_func *f, px_node *n);      /* tensor.c */
bool px_desc_prepare(px_verifier *v, px_func *f, px_node *n);           /* desc.c */
/* n (tcgen05.mma) against the tcgen05.idesc that alone defines its idesc operand */
void px_desc_check_mma(px_verifier *v, px_func *f, px_node *n, const px_opnd *idesc); /* desc.c */
/* n's u64 descriptor operands: one built by a matrix descriptor builder must be want_op's (PX_OP_*) layout */
void px_desc_check_operands(px_verifier *v, px_func *f, px_node *n, unsigned want_op); /* desc.c */
void px_cp_async_check(px_verifier *v, px_func *f, px_node *n);  /* cp_async.c */
void px_imm_range_check(px_verifier *v, px_func *f, px_node *n); /* immrange.c */
void px_texture_check(px_verifier *v, px_func *f, px_node *n);   /* texture.c */
bool px_select_variant(px_verifier *v, px_func *f, px_node *n); /* variant.c: variant + window */
void px_shapes_free(px_shapes **shapes);                         /* variant.c: its remembered answers */
void px_check_operands(px_verifier *v, px_func *f, px_node *n); /* operands.c */
bool px_int_allowed(const px_opnd *o, const int32_t *vals, unsigned n); /* operands.c */
const char *px_allowed_text(char *buf, size_t cap, bool pred, const int32_t *vals, unsigned n);
/* operands.c: a literal operand o (INT, FLOAT, FBITS) where type want is
 * expected; pos and what name it in the messages */
void px_check_literal(px_verifier *v, const px_opnd *o, int want, unsigned pos, const char *what);
/* A literal for a packed operand or element (place: "operand 2 of add"). */
bool px_check_lanes(px_verifier *v, const px_opnd *o, const px_lanes *ln, const char *place);
bool px_mov_is_split(const px_node *n);                        /* pack.c: mov d, (a, b) or a, b = mov s */
void px_mov_split_report(px_verifier *v, const px_func *f, const px_node *n); /* pack.c */
/* verify.c: "undefined value", with the nearest defined name if one is near */
void px_undefined_value(px_verifier *v, px_func *f, px_loc loc, uint32_t id);
void px_verify_locals(px_verifier *v, const px_func *f);        /* local.c */
/* names.c: a name PTX keeps for itself (data/names.yaml), at a declaration;
 * local: a function-local array's */
void px_check_reserved_name(px_verifier *v, px_str name, px_loc loc, bool local);
/* names.c: a name f's PTX declares in its body (FUNC_param_N, func_retval0),
 * given to a module name f uses or to one of f's local arrays */
void px_check_hidden_name(px_verifier *v, const px_func *f, px_str name, px_loc loc);
/* names.c: a function fn named (called, nres results kept, or its address
 * taken) spelt as call blocks name their arguments (paramN: judged by
 * px_check_param_refs) or the call's own result (retval0) */
void px_check_call_block_name(px_verifier *v, px_str fn, uint32_t nres, px_loc loc);
/* names.c, at the module's end: the functions named paramN against the
 * module's widest call */
void px_check_param_refs(px_verifier *v);
/* names.c: what a worker's verifier saw of the names, moved into v's */
void px_verify_names_join(px_verifier *v, px_verifier *w);
void px_verify_asm(px_verifier *v, px_func *f, px_node *n);     /* asm.c: inline PTX's binding */
void px_verify_printf(px_verifier *v, px_func *f, px_node *n);  /* printf.c: the format against its arguments */
/* Whether needing PTX ptx goes past --driver/--max-ptx's limit (never with
 * --ptx, which is judged once); and the refusal at loc, naming what. */
bool px_ptx_over_max(const px_verifier *v, uint16_t ptx);
void px_ptx_refuse(px_verifier *v, px_loc loc, const char *what, uint16_t ptx);
void px_note_window(px_verifier *v, px_loc loc, const char *what, uint64_t targets,
                    uint16_t ptx); /* verify.c: a window check for a directive or sreg */
/* verify.c: the window of a declaration, or of a value passed through
 * parameter space, of type t (data/types.yaml decl_ptx); what names it, %s
 * standing for the type */
void px_note_decl_type(px_verifier *v, px_loc loc, unsigned t, const char *what);
/* window.c: what lacks the target v->target: which targets have it. */
void px_window_report(px_verifier *v, px_loc loc, const char *what, uint64_t targets);
/* window.c: a note after a refusal in other words (a rule's): which targets have what. */
void px_window_note(px_verifier *v, px_loc loc, const char *what, uint64_t targets);
#endif
