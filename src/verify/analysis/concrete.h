/* Values as one thread computes them, for what no affine form holds: an
 * index that wraps ((%tid.x + 1) rem 32), a min, a selp. A value is
 * concrete when its one definition reads only the thread's indices,
 * constants and other concrete values through the integer operations a
 * thread computes alike whatever the rest of the launch does (mov, cvt, add,
 * sub, neg, mul, mad, shl, shr, div, rem, and, or, xor, not, min, max, selp
 * of a setp); it is then evaluated exactly, in its type's width, so that a
 * check can decide a question over all the threads of a block of known shape
 * by walking them.
 *
 * One more kind of value is a ticket: the result of an atom.add whose addend
 * is concrete. The counter's value is not known, but when one thread adds 0
 * the thread that updates the counter just after it (or before, adding 0 in
 * turn) reads the same value: a ticket is evaluated as 0 in both threads of a
 * pair, which holds only where one of the two adds 0 (px_ticket_zero). */
#ifndef PX_VERIFY_CONCRETE_H
#define PX_VERIFY_CONCRETE_H
#include <stdbool.h>
#include <stdint.h>

#include "util/arena.h"
#include "verify/analysis/value.h"

enum { PX_CONC_NONE = 1, PX_CONC_PURE, PX_CONC_TICKET };

typedef struct px_concrete {
	const px_values *va;
	uint8_t *kind;    /* per value: 0 not asked yet, else PX_CONC_* */
	uint8_t *height;  /* per value asked: the longest chain of definitions it rests on */
	uint32_t *ticket; /* per ticket: the value its atom.add defines */
	uint64_t work, limit; /* the operations evaluated, and the most allowed */
} px_concrete;

/* Its per-value tables are in a (nothing to free). */
void px_concrete_init(px_concrete *c, const px_values *va, px_arena *a);
/* What value id is: PX_CONC_PURE, PX_CONC_TICKET or PX_CONC_NONE. */
unsigned px_concrete_kind(px_concrete *c, uint32_t id);
/* Value id (pure or a ticket) in the thread whose variables are thread
 * (indexed by PX_VV_*, below PX_VV_NTHREAD): false when it cannot be told
 * (a division by zero). */
bool px_concrete_at(px_concrete *c, uint32_t id, const int64_t *thread, int64_t *out);
/* Whether ticket id's atom.add adds 0 in that thread. */
bool px_ticket_zero(px_concrete *c, uint32_t id, const int64_t *thread);
/* The atom.add that defines ticket id. */
const px_node *px_ticket_def(const px_concrete *c, uint32_t id);

#endif
