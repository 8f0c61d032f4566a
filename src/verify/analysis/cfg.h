/* A function's basic blocks and their edges, for the checks that follow
 * values along every path (verify/hazard/defined.c, verify/hazard/bounds.c). A block starts
 * at the body's start, at a label statement and after a branch, ret, exit or
 * trap; it ends before the next start. Edges follow verify/flow.c's rules:
 * bra to its label (brx.idx to each of its list), a guarded branch or end also
 * to the next block, every other statement into the next. */
#ifndef PX_VERIFY_CFG_H
#define PX_VERIFY_CFG_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "front/ir.h"
#include "tables/tables.h"
#include "util/arena.h"

typedef struct px_cfg {
	uint32_t nblocks;
	/* The body's statements in text order, and what the walk that made the
	 * blocks saw of each: its operation (PX_OP_*, or PX_CFG_NO_OP when it is
	 * no instruction), whose flags px_cfg_flags gives, and its marks
	 * (PX_CFG_KIND(kind), and PX_CFG_ADDRESS). A check that looks at few
	 * statements asks these and reads only the statements it looks at: a
	 * statement's record and operands take 120 bytes and more, so on a long
	 * body a walk over the statements costs its misses in memory, and every
	 * check that walked would pay them again. Three bytes a statement and its
	 * pointer: a million statements take 11 MB here, given back by
	 * px_cfg_free when the checks are done (util/huge.h's tables). */
	uint32_t nstmts, stmt_room;
	px_node **stmt;
	uint16_t *stmt_op;
	uint8_t *stmt_marks;
	uint32_t *at;       /* per block: its first statement's index; at[nblocks] is nstmts */
	uint32_t *succ_at;  /* successors of b: succ[succ_at[b] .. succ_at[b + 1]) */
	uint32_t *succ;
	uint32_t *pred_at;  /* predecessors, likewise */
	uint32_t *pred;
	uint32_t *rpo;      /* the blocks the start reaches, in reverse postorder */
	uint32_t nrpo;
	uint8_t *reached;   /* per block: 1 when the start reaches it */
	uint64_t flags_seen; /* the PX_OPF_* flags of its statements' operations together */
	/* per block, its statements' flags and marks together, so that a check
	 * asks a block before it walks it */
	uint64_t *block_flags;
	uint8_t *block_marks;
	/* where its tables are, and what the solvers below hand back: the
	 * function's checks' arena (verify/hazard/frame.h), which frees them */
	px_arena *arena;
} px_cfg;

/* A statement's marks: the bit of its kind (enum px_nkind), and for an
 * instruction with an address operand PX_CFG_ADDRESS. */
#define PX_CFG_KIND(kind) (1u << (kind))
#define PX_CFG_ADDRESS (1u << 7)
#define PX_CFG_ANY_KIND (PX_CFG_ADDRESS - 1)
#define PX_CFG_NO_OP UINT16_MAX

/* Statement k's operation's flags (PX_OPF_*); 0 when it is no instruction. */
static inline uint64_t px_cfg_flags(const px_cfg *g, uint32_t k)
{
	return g->stmt_op[k] == PX_CFG_NO_OP ? 0 : px_ops[g->stmt_op[k]].flags;
}

/* Block b's first and last statement (a block has one at least). */
static inline px_node *px_cfg_first(const px_cfg *g, uint32_t b) { return g->stmt[g->at[b]]; }
static inline px_node *px_cfg_last(const px_cfg *g, uint32_t b) { return g->stmt[g->at[b + 1] - 1]; }

/* The first statement at or after k whose operation has one of the flags
 * (PX_OPF_*), or nstmts: a walk over those statements alone. */
static inline uint32_t px_cfg_next(const px_cfg *g, uint32_t k, uint64_t flags)
{
	while (k < g->nstmts && !(px_cfg_flags(g, k) & flags))
		k++;
	return k;
}

/* Whether some statement of the function is an operation with one of the
 * flags (PX_OPF_*): the roles data/ops gives (a check with none to look at
 * stops). */
static inline bool px_cfg_has_flag(const px_cfg *g, uint64_t flags) { return g->flags_seen & flags; }

void px_cfg_build(px_cfg *g, const px_func *f, px_arena *a);
/* The statements' table goes back (the rest is the arena's). */
void px_cfg_free(px_cfg *g);

/* The forward "on some path" problems the checks pose over the blocks: a
 * state is a bit vector of w 64-bit words; a block's state on entry is the
 * union of its predecessors' at their ends, with start (NULL: nothing) joined
 * into block 0's, which the start reaches whatever jumps back to it. */
/* A block's effect: state holds its entry state and is left as its end. */
typedef void (*px_flow_block_fn)(void *ctx, uint64_t *state, uint32_t block);
/* The fixed point, sweeping the reached blocks in reverse postorder until no
 * block's end changes: per block, its state at its end (nblocks * w words,
 * zero for a block the start does not reach; in the cfg's arena). */
uint64_t *px_flow_solve(const px_cfg *g, size_t w, const uint64_t *start, px_flow_block_fn transfer, void *ctx);
/* A statement's effect, for a check that walks statements: report is false
 * while solving and true in the one pass after, which says the warnings. */
typedef void (*px_flow_step_fn)(void *ctx, uint64_t *state, const px_node *n, bool report);
/* Solves with step, then walks every reached block once more, in block order,
 * from its entry state at the fixed point, with report true. */
void px_flow_check(const px_cfg *g, size_t w, const uint64_t *start, px_flow_step_fn step, void *ctx);
/* An edge's effect, for a check whose facts depend on the way a branch went:
 * state holds the end state of block from, and is left as what reaches to. */
typedef void (*px_flow_edge_fn)(void *ctx, uint64_t *state, uint32_t from, uint32_t to);
/* px_flow_check with each edge's effect applied (ctx is passed to both).
 * Both leave their states in the cfg's arena, below what step allocated
 * there: the caller takes them back with its own. */
void px_flow_check_edges(const px_cfg *g, size_t w, const uint64_t *start, px_flow_step_fn step,
                         px_flow_edge_fn edge, void *ctx);

/* Visit the values a statement reads (guard, operands, address bases and
 * indices, call targets): fn(ctx, value id, place of the read). */
typedef void (*px_read_fn)(void *ctx, uint32_t id, px_loc loc);
void px_node_reads(const px_node *n, px_read_fn fn, void *ctx);
/* Visit the values a statement writes (its results). */
void px_node_writes(const px_node *n, px_read_fn fn, void *ctx);
/* Whether a statement writes value id. */
bool px_node_defines(const px_node *n, uint32_t id);

/* The block that holds statement n (UINT32_MAX: none of g's). */
uint32_t px_cfg_block_of(const px_cfg *g, const px_node *n);
/* Whether block to follows block from on a path whose edges all go forward in
 * reverse postorder (no loop's way back): the order a warp in lock step runs
 * them in. Its work is in the cfg's arena, taken back. */
bool px_cfg_forward_reaches(const px_cfg *g, uint32_t from, uint32_t to);

#endif
