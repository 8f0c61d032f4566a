/* Which way branches on a predicate went, for the checks that ask which
 * threads run a statement (verify/hazard/tmem_alloc.c, verify/hazard/mbarrier_fence.c): a
 * statement guarded by @%p, or under a branch on %p that every path to it
 * took the same way, runs in the threads where %p is so. Fact 2 k + 1 is
 * "followed predicate k is true", 2 k "it is false"; a state holds a bit per
 * fact, set when some path to the point has not established it (a union of
 * "not established" is an intersection of "established"). A branch's edges
 * establish its fact one way and its opposite the other; a statement that
 * redefines the predicate forgets both.
 *
 * The predicates followed are those that guard a statement the check cares
 * about, or that a forward branch jumping over such a statement (the shape
 * of an if) tests: the facts stay few.
 *
 * A predicate is steady when its one definition compares values a thread
 * always computes the same (literals, parameters, fixed special registers as
 * data/sregs.yaml marks them, and values defined once from such by an
 * operation that reads no memory and no other thread); computing it again
 * gives the value it had, so it forgets nothing, and two steady predicates
 * made by the same comparison of the same operands are one predicate (the
 * warp index tested at the top and again at the end of a kernel). */
#ifndef PX_VERIFY_FACTS_H
#define PX_VERIFY_FACTS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "verify/analysis/bits.h"
#include "verify/analysis/cfg.h"

typedef struct px_facts {
	const px_cfg *g;
	uint32_t *key;  /* per value: 1 + its predicate index, 0 not followed */
	uint32_t *pred; /* per predicate index: its value */
	uint8_t *steady; /* per predicate index: 1 when it is steady (see above) */
	uint32_t nfacts; /* 2 per followed predicate; nfacts itself names no fact */
	size_t base;    /* the first word of the facts' bits in a state */
	size_t words;
} px_facts;

/* cares(ctx, n): whether the check looks at statement n; it is asked only of
 * the statements whose operation has one of the flags (PX_OPF_*) or whose
 * marks (PX_CFG_KIND, PX_CFG_ADDRESS) have one of marks, the others are not
 * read. The tables are in g's arena (nothing to free). */
void px_facts_init(px_facts *x, const px_func *f, const px_cfg *g, size_t base, uint64_t flags, uint8_t marks,
                   bool (*cares)(void *ctx, const px_node *n), void *ctx);
/* The predicate (value) fact f is about, true or false as f & 1 says. */
static inline uint32_t px_facts_value(const px_facts *x, uint32_t f) { return x->pred[f / 2]; }
/* Where the function starts nothing is established. */
void px_facts_start(const px_facts *x, uint64_t *s);
/* The edge from block from to block to: its fact is established, the
 * opposite not; returns the opposite (the fact the threads on this edge do
 * not have), or nfacts when the edge decides nothing. */
uint32_t px_facts_edge(const px_facts *x, uint64_t *s, uint32_t from, uint32_t to);
/* A statement's effect: when it redefines a followed predicate, both of its
 * facts are forgotten and 1 + the predicate's index is returned, else 0. */
uint32_t px_facts_step(const px_facts *x, uint64_t *s, const px_node *n);
/* Whether every path to the point established fact f. */
static inline bool px_facts_holds(const px_facts *x, const uint64_t *s, uint32_t f)
{
	return !px_bit(s + x->base, f);
}
/* The fact n's guard says, else nfacts. */
uint32_t px_facts_guard(const px_facts *x, const px_node *n);
/* The fact under which n runs: its guard's, else the first fact every path
 * to it established, else nfacts (every thread that reaches it). */
uint32_t px_facts_of(const px_facts *x, const uint64_t *s, const px_node *n);
#endif
