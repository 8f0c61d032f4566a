/* Where a generator's loc statements hold in the MIR text: from each mark's
 * offset on, until the next mark, statements come from that place in the
 * generator's own source (file NULL: from nowhere but the MIR). The parser
 * adds marks in text order; every diagnostic's place is looked up in it when
 * the messages are handed out, so that each names the DSL's line too. */
#ifndef PX_DSLMAP_H
#define PX_DSLMAP_H
#include <stdint.h>

#include "util/loc.h"

typedef struct px_dslpos {
	uint32_t from;     /* px_loc.pos of the loc statement (or of the end of its hold) */
	const char *file;  /* NUL-terminated, owned by the module; NULL: none */
	uint32_t line, col;
} px_dslpos;

typedef struct px_dslmap {
	px_dslpos *v;
	uint32_t n, cap;
} px_dslmap;

void px_dslmap_free(px_dslmap *m);
/* From loc on, p holds. A mark at or before the last one's place replaces
 * what follows it: the parser reads a top-level item a second time after a
 * syntax error, and its marks come again. */
void px_dslmap_mark(px_dslmap *m, px_loc loc, const char *file, uint32_t line, uint32_t col);
/* The place in force at loc, or NULL. */
const px_dslpos *px_dslmap_find(const px_dslmap *m, px_loc loc);

#endif
