/* Line and column of a px_loc, from the source text: an index of the line
 * starts, built at the first question (one pass over the text), then a binary
 * search. Nothing is built for a translation that shows no place. */
#ifndef PX_LINES_H
#define PX_LINES_H
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "util/loc.h"

typedef struct px_linecol {
	uint32_t line, col; /* 1-based, col counting bytes; 0, 0 for no place */
} px_linecol;

struct px_line_starts;

/* May be asked from several threads at once (-j): the index is built by
 * whichever asks first, and published atomically. */
typedef struct px_lines {
	const char *src;
	size_t len;
	_Atomic(struct px_line_starts *) starts;
} px_lines;

void px_lines_init(px_lines *l, const char *src, size_t len);
void px_lines_free(px_lines *l);
px_linecol px_lines_find(px_lines *l, px_loc loc);

#endif
