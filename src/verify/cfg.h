/* A function's basic blocks and their edges, for the checks that follow
 * values along every path (verify/defined.c, verify/bounds.c). A block starts
 * at the body's start, at a label statement and after a branch, ret, exit or
 * trap; it ends before the next start. Edges follow verify/flow.c's rules:
 * bra to its label (brx.idx to each of its list), a guarded branch or end also
 * to the next block, every other statement into the next. */
#ifndef PX_VERIFY_CFG_H
#define PX_VERIFY_CFG_H
#include <stdbool.h>
#include <stdint.h>

#include "front/ir.h"

typedef struct px_cfg {
	uint32_t nblocks;
	px_node **first;    /* per block: its first statement */
	uint32_t *len;      /* per block: how many statements it has */
	uint32_t *succ_at;  /* successors of b: succ[succ_at[b] .. succ_at[b + 1]) */
	uint32_t *succ;
	uint32_t *pred_at;  /* predecessors, likewise */
	uint32_t *pred;
	uint32_t *rpo;      /* the blocks the start reaches, in reverse postorder */
	uint32_t nrpo;
	uint8_t *reached;   /* per block: 1 when the start reaches it */
	uint64_t *ops_seen; /* bit PX_OP_*: some statement is that operation (a check with none to look at stops) */
} px_cfg;

/* Whether some statement of the function is operation op (PX_OP_*). */
static inline bool px_cfg_has(const px_cfg *g, unsigned op)
{
	return g->ops_seen[op >> 6] >> (op & 63) & 1;
}

void px_cfg_build(px_cfg *g, const px_func *f);
void px_cfg_free(px_cfg *g);
/* Visit the values a statement reads (guard, operands, address bases and
 * indices, call targets): fn(ctx, value id, place of the read). */
typedef void (*px_read_fn)(void *ctx, uint32_t id, px_loc loc);
void px_node_reads(const px_node *n, px_read_fn fn, void *ctx);
#endif
