/* A place in the MIR source: every stage reports diagnostics at one. It is
 * the byte offset plus one (0: no place), 4 bytes, since it sits in every
 * operand, node and value; the line and column (1-based, the column counting
 * bytes, as the scanner counts them) are computed from the text only where a
 * message, a dump or a .loc shows them (util/lines.h). */
#ifndef PX_LOC_H
#define PX_LOC_H
#include <stdbool.h>
#include <stdint.h>

typedef struct px_loc {
	uint32_t pos; /* offset + 1 of the first character in the source; 0: none */
} px_loc;

/* The place at byte offset off (the input is at most INT32_MAX - 2 bytes). */
static inline px_loc px_loc_at(uint32_t off) { return (px_loc){off + 1}; }
static inline bool px_loc_known(px_loc l) { return l.pos != 0; }
/* Its byte offset (0 for none). */
static inline uint32_t px_loc_off(px_loc l) { return l.pos ? l.pos - 1 : 0; }

#endif
