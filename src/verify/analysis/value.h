/* The value analysis every check asks: each integer value of a function as an
 * affine form over the thread and block indices, the kernel's parameters, the
 * values it cannot see through (a loop's induction value, a load) and a
 * constant, plus the module variable an address points into. It answers what
 * a value or an address is (its form), its constant when it has one, what it
 * is known to be a multiple of, its range over the launch shape, whether every
 * thread of the CTA holds the same, and what a branch on a comparison says
 * about the thread indices (a branch on %tid.x < 16 bounds %tid.x below it).
 *
 * A value defined by one statement has the form of that statement: mov, add,
 * sub, neg, shl, mul (.lo, .wide), mad (.lo, .wide), cvt and cvta of integers
 * are followed; so are shr, div and rem by a power of two and an `and` with
 * one less than one, and or and xor of a constant below what the rest is a
 * multiple of, where the split is exact (%tid.x >> 5 is the warp's index). A
 * value defined by several statements (a loop's induction value), a parameter
 * and any other result is a variable of its own (an atom).
 *
 * The arithmetic is on integers: a form assumes the computation does not wrap
 * (an address or an index into a variable does not). %tid.x is 32 * warp +
 * lane, two variables, so that a shift of %tid.x by 5 is a form too; %laneid
 * is the lane when warps are runs of 32 along x (reqntid's x size is a
 * multiple of 32, the block has one dimension, or no reqntid is written: then
 * it is assumed, as the uniformity check does). */
#ifndef PX_VERIFY_VALUE_H
#define PX_VERIFY_VALUE_H
#include <stdbool.h>
#include <stdint.h>

#include "front/ir.h"
#include "util/arena.h"

/* The variables of a form. Those below PX_VV_NTHREAD differ from thread to
 * thread of a CTA; the others up to PX_VV_VALUE are the same in a CTA. */
enum {
	PX_VV_LANE,    /* %tid.x mod 32 (%laneid too when warps are runs of 32 along x) */
	PX_VV_WARP_X,  /* %tid.x / 32: %tid.x is 32 * PX_VV_WARP_X + PX_VV_LANE */
	PX_VV_TID_Y,
	PX_VV_TID_Z,
	PX_VV_NTHREAD,
	PX_VV_CTAID_X = PX_VV_NTHREAD,
	PX_VV_CTAID_Y,
	PX_VV_CTAID_Z,
	PX_VV_NTID_X,  /* the block's sizes, when no reqntid gives them */
	PX_VV_NTID_Y,
	PX_VV_NTID_Z,
	PX_VV_NCTAID_X,
	PX_VV_NCTAID_Y,
	PX_VV_NCTAID_Z,
	PX_VV_VALUE,   /* PX_VV_VALUE + id: value id as an atom */
};

enum { PX_AFF_TERMS = 6 };

/* c + sum coef[i] * var[i], plus the address of variable base when base is
 * not 0 (px_value_base_name: a module variable, or a local array). known false: the analysis cannot say (the rest is
 * meaningless). Terms are sorted by var, none with a zero coefficient. */
typedef struct px_aff {
	bool known;
	uint8_t nterms;
	uint32_t base;
	int64_t c;
	uint32_t var[PX_AFF_TERMS];
	int64_t coef[PX_AFF_TERMS];
} px_aff;

/* What the thread (and block) variables may be: lo[v] .. hi[v] inclusive; a
 * box with some thread variable's lo above its hi holds no thread. */
typedef struct px_box {
	int64_t lo[PX_VV_VALUE], hi[PX_VV_VALUE];
} px_box;

typedef struct px_values {
	const px_module *m;
	const px_func *f;
	px_arena *arena;   /* its tables (they live as long as it), and its work while it answers */
	px_aff *form;      /* per value, made at the first question (read through px_value_form) */
	uint8_t *have;     /* per value: whether its form is made yet */
	uint32_t *stack;   /* the values whose forms are being made */
	uint8_t *ndefs;    /* per value: the statements that define it, up to 2 */
	const px_node **def; /* per value: the one statement that defines it, or NULL */
	uint8_t *varies;   /* per value: 1 when threads of a CTA may hold different ones (read through px_aff_uniform) */
	uint8_t *from_memory; /* per value: made from a load of memory that may change (px_value_from_memory) */
	uint8_t *mult;     /* per value: log2 of the power of two it is known a multiple of (64: it is 0) */
	uint8_t *sreg;     /* per special register: its PX_VV_* variable, 0xff none, 0xfe not looked up yet */
	px_box launch;     /* the launch shape: reqntid, else maxntid, else assumed (launch_assumed) */
	bool split_x;      /* %tid.x is 32 * PX_VV_WARP_X + PX_VV_LANE */
	bool launch_assumed; /* neither reqntid nor maxntid: up to 1024 threads along x, y and z unknown */
	bool lane_x;       /* %laneid is PX_VV_LANE: warps are runs of 32 along x */
	bool settled;      /* varies and mult are computed (at the first question that needs them) */
	bool mult_settled; /* mult is computed (what a multiple asks; varies can wait) */
	/* some statement states {align = N}, or some value is defined more than
	 * once: else no statement changes what an atom is a multiple of, and
	 * find_multiples need not walk them */
	bool mult_walk;
	bool from_memory_made; /* from_memory is computed (at the first question: the tables are the
	                        * arena's from the start, since a check takes back what it allocates) */
} px_values;

/* Its tables are in a (nothing to free: they go with the arena). grid: the
 * CTAs along x, y and z the kernel is launched with (--assume-grid; 0 or NULL: not
 * known). */
void px_values_init(px_values *va, const px_module *m, const px_func *f, const unsigned *grid, px_arena *a);

/* The form of an operand: a value, an integer literal, a special register, a
 * variable's address (@name, a module variable). */
px_aff px_value_form(const px_values *va, const px_opnd *o);
/* The form of value id. */
px_aff px_value_form_id(const px_values *va, uint32_t id);
/* The form of an address operand [base + off] (known false for an indexed
 * one, [%tmap, (...)]). */
px_aff px_value_addr(const px_values *va, const px_opnd *o);
/* The constant an operand holds (a form with no terms and no base). */
bool px_value_const(const px_values *va, const px_opnd *o, int64_t *c);
/* What a form is known to be a multiple of, in bytes (a power of two; the
 * variable's alignment counts for an address), 0 when nothing is known. */
uint64_t px_aff_multiple(const px_values *va, const px_aff *a);
/* The range of a form (its base left out) with its thread and block
 * variables in box (NULL: the launch shape): false when some term is an atom
 * or a block variable with no bound. */
bool px_aff_range(const px_values *va, const px_aff *a, const px_box *box, int64_t *lo, int64_t *hi);
/* Whether every thread of the CTA holds the same form (no thread variable,
 * no atom that varies). */
bool px_aff_uniform(const px_values *va, const px_aff *a);
/* Form a with the variable var replaced by the form by (which has no
 * base). */
px_aff px_aff_subst(px_aff a, uint32_t var, px_aff by);
/* Whether two forms are the same (both known). */
bool px_aff_equal(const px_aff *a, const px_aff *b);
/* Whether box holds no thread. */
bool px_box_empty(const px_box *box);
/* The threads box holds: 0 none, UINT64_MAX more than most. */
uint64_t px_box_threads(const px_box *b, uint64_t most);
/* Thread k (0 .. px_box_threads - 1) of box b: its thread variables (the
 * first PX_VV_NTHREAD of t), the lane counted fastest. */
void px_box_thread(const px_box *b, uint64_t k, int64_t *t);
/* Narrow box to the threads where predicate pred is truth: true when box says
 * it exactly (or pred is the same in every thread, which narrows nothing);
 * false when pred varies from thread to thread in a way a box cannot hold. */
bool px_value_guard(const px_values *va, uint32_t pred, bool truth, px_box *box);
/* The same, where the threads need not make a box: box becomes the least
 * box that holds them, and *exact is cleared when it holds others too. */
bool px_value_guard_hull(const px_values *va, uint32_t pred, bool truth, px_box *box, bool *exact);
/* Whether predicate pred is truth in the thread whose variables are thread
 * (indexed by PX_VV_*, below PX_VV_NTHREAD): 1 yes, 0 no, -1 not known. */
int px_value_guard_at(const px_values *va, uint32_t pred, bool truth, const int64_t *thread);
/* An integer comparison (a setp's cmp token) of a and b as width-bit
 * values: 1 or 0, -1 for a token that is no integer comparison. */
int px_value_compare(unsigned cmp, bool is_signed, unsigned width, int64_t a, int64_t b);
/* Whether predicate pred compares (eq, ne) a value loaded from constant
 * memory, which the host may set to anything before the launch, at an
 * address whose bytes differ from thread to thread: each thread then takes
 * either way whatever the others take (a guard no box holds, but which any
 * set of threads may pass). */
bool px_value_free_guard(const px_values *va, uint32_t pred);
/* Whether value id may be made from what a load of memory that can change
 * while the kernel runs read: global memory (the host and other kernels may
 * write it), or shared memory a statement of the kernel writes; or from what
 * a call or inline PTX returned. Two threads that load one such word need not
 * read one value, so the value is not known to be the same in both even where
 * the address is. */
bool px_value_from_memory(const px_values *va, uint32_t id);
/* Whether value id is the same in every thread of the launch, whichever CTA:
 * a kernel's parameter, or what one ld.param reads of one. */
bool px_value_grid_const(const px_values *va, uint32_t id);
/* Whether predicate pred is the same function of a thread's indices in every
 * CTA: it compares thread indices, constants and values px_value_grid_const
 * holds, so that the threads it selects are alike in each CTA. */
bool px_value_guard_per_cta(const px_values *va, uint32_t pred);
/* The dimensions (bit 0 x, 1 y, 2 z) along which the function reads its
 * CTA's index or the grid's size (a kernel that tells its CTAs apart), and
 * the first statement that reads one. */
unsigned px_value_grid_dims(const px_values *va, const px_node **first);
/* The variable a form's base names: its name, the bytes it holds (0: not
 * known: an unsized array, a handle) and what its address is a multiple of
 * (its align, else its element's size). */
px_str px_value_base_name(const px_values *va, uint32_t base);
uint64_t px_value_base_bytes(const px_values *va, uint32_t base);
uint32_t px_value_base_align(const px_values *va, uint32_t base);
/* The number of bytes an access n reads or writes at its one address (its
 * type times its vector width), or 0 when it has no such size. */
unsigned px_access_bytes(const px_node *n);
/* Whether n is a memory access the race and null checks read (ld, st, atom,
 * red), and the state space it names: its PX_TOK_* token, 0 for generic. */
bool px_access_space(const px_node *n, unsigned *space);

#endif
