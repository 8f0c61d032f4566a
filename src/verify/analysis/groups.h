/* Asynchronous operations that a thread commits in groups and waits for by
 * count (cp.async, wgmma.mma_async): wait_group N waits for every committed
 * group but the N most recent, and for none of the operations not committed
 * yet. A check's items (destinations, accumulators) are followed by depth:
 * the commit_groups since the item's operation was issued, 0 while its group
 * is open. A state holds planes of pw words, plane d the items that may be
 * pending at depth d; the deepest plane holds every depth past the largest N
 * the function waits with, which any wait covers, so coverage is exact. */
#ifndef PX_VERIFY_GROUPS_H
#define PX_VERIFY_GROUPS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "front/ir.h"
#include "tables/tables.h"
#include "verify/analysis/bits.h"
#include "verify/analysis/cfg.h"

typedef struct px_groups {
	size_t base;    /* the first word of plane 0 in a state */
	size_t pw;      /* words a plane */
	unsigned deep;  /* the deepest plane */
} px_groups;

/* Planes for nitems from word base, deep enough for every `wait` statement
 * (an operation whose first operand is its count) of g's function. */
void px_groups_init(px_groups *q, size_t base, uint32_t nitems, const px_cfg *g, uint64_t wait);
/* The words the planes take. */
static inline size_t px_groups_words(const px_groups *q) { return q->pw * (q->deep + 1); }
/* The operation that writes item i is issued: pending in the open group. */
void px_groups_issue(const px_groups *q, uint64_t *s, uint32_t i);
/* commit_group: every pending item one group deeper. */
void px_groups_commit(const px_groups *q, uint64_t *s);
/* wait_group n (wait_all: the commit and wait 0 it is, all): what it covers is done. */
void px_groups_wait(const px_groups *q, uint64_t *s, uint64_t n, bool all);
/* Whether item i may still be pending. */
bool px_groups_pending(const px_groups *q, const uint64_t *s, uint32_t i);
#endif
