/* Remembered answers to "which row first admits these tokens": a table of 256
 * entries indexed by a hash of the operation and its slot tokens, a newer
 * answer taking the place of an older. Nodes repeat a few shapes, so most
 * lookups hit; a hit costs a hash and a compare of op->nslots tokens where the
 * scan asked every row before the answer about every slot. */
#include <stdlib.h>
#include <string.h>

#include "tables/firstrow.h"
#include "tables/query.h"

enum { BITS = 8 };

struct px_first_rows {
	struct entry {
		const px_op_def *op;          /* NULL: empty */
		uint16_t slot[PX_MAX_SLOTS];  /* its first op->nslots tokens */
		uint16_t row;
	} e[1u << BITS];
};

uint32_t px_slots_hash(const px_op_def *op, const uint16_t *slot)
{
	uint32_t h = (uint32_t)((uintptr_t)op >> 4) * 0x9e3779b1u;
	for (unsigned i = 0; i < op->nslots; i++)
		h = (h ^ slot[i]) * 0x01000193u;
	return h;
}

unsigned px_first_row(px_first_rows **memo, const px_op_def *op, const uint16_t *slot)
{
	if (!*memo) {
		*memo = calloc(1, sizeof **memo);
		if (!*memo)
			abort();
	}
	uint32_t h = px_slots_hash(op, slot);
	struct entry *e = &(*memo)->e[h >> (32 - BITS)];
	size_t size = op->nslots * sizeof *slot;
	if (e->op == op && memcmp(e->slot, slot, size) == 0)
		return e->row;
	unsigned row = 0;
	while (row < op->nvariants && !px_variant_admits(op, &op->variants[row], slot))
		row++;
	e->op = op;
	memcpy(e->slot, slot, size);
	e->row = (uint16_t)row;
	return row;
}

void px_first_rows_free(px_first_rows **memo)
{
	free(*memo);
	*memo = NULL;
}
