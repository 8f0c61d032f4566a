/* A node's slot tokens as a shared, read-only set: a statement's 24 slots
 * were 48 bytes of every node, yet a function uses few distinct sets (one per
 * spelling of an operation). The verifier fills a node's slots in its own
 * working copy while it checks the node, then points the node at the one
 * stored copy of that set. */
#ifndef PX_SLOTSET_H
#define PX_SLOTSET_H
#include <stdint.h>

#include "px_tables.h" /* PX_MAX_SLOTS */
#include "util/arena.h"

typedef struct px_slotsets {
	const uint16_t **table; /* open addressing; NULL: empty */
	uint32_t cap, count;
	px_arena store;         /* the sets, as long as the verifier lives */
} px_slotsets;

void px_slotsets_init(px_slotsets *s);
void px_slotsets_free(px_slotsets *s);
/* The stored copy of the set slot holds (PX_MAX_SLOTS tokens). */
const uint16_t *px_slotsets_keep(px_slotsets *s, const uint16_t *slot);

#endif
