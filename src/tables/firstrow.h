/* The first variant row that admits a node's slot tokens, remembered
 * (tables/firstrow.c). Which row that is depends on the operation and the
 * tokens alone, and a module repeats a few of those, so the verifier and the
 * selector each keep a small table of answers instead of scanning the rows for
 * every node. A table belongs to one thread. */
#ifndef PX_FIRSTROW_H
#define PX_FIRSTROW_H
#include <stdint.h>

#include "tables/tables.h"

typedef struct px_first_rows px_first_rows;

/* The index of op's first row that admits slot (px_variant_admits), or
 * op->nvariants when none does. *memo is made on first use. */
unsigned px_first_row(px_first_rows **memo, const px_op_def *op, const uint16_t *slot);
void px_first_rows_free(px_first_rows **memo);
/* The hash such a table files an operation and its slot tokens under (the
 * verifier's table of statement shapes goes on from it). */
uint32_t px_slots_hash(const px_op_def *op, const uint16_t *slot);
#endif
