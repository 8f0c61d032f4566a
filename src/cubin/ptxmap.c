/* The printer writes a mark before each statement's first instruction when
 * the text is to be assembled; here the marks come out again, so that the
 * assembled text is the PTX the user would have had, and the line numbers
 * ptxas names are the lines of that text. A line after a mark belongs to the
 * mark's statement until the next mark or the function's closing brace. */
#include "cubin/cubin.h"

#include <stdlib.h>
#include <string.h>

#include "print/print.h"

void px_ptxmap_strip(char *text, size_t *len, px_ptxmap *map)
{
	const size_t marklen = strlen(PX_PTXMAP_MARK);
	size_t cap = 256, n = 0, out = 0;
	uint32_t *pos = malloc(cap * sizeof *pos);
	if (!pos)
		abort();
	uint32_t cur = 0;
	for (size_t at = 0; at < *len;) {
		const char *nl = memchr(text + at, '\n', *len - at);
		size_t end = nl ? (size_t)(nl - text) + 1 : *len;
		if (end - at > marklen && memcmp(text + at, PX_PTXMAP_MARK, marklen) == 0) {
			cur = (uint32_t)strtoul(text + at + marklen, NULL, 10);
			at = end;
			continue;
		}
		if (text[at] == '}')
			cur = 0;
		if (n == cap) {
			cap *= 2;
			pos = realloc(pos, cap * sizeof *pos);
			if (!pos)
				abort();
		}
		pos[n++] = cur;
		memmove(text + out, text + at, end - at);
		out += end - at;
		at = end;
	}
	*len = out;
	if (out)
		text[out] = '\0';
	map->pos = pos;
	map->n = n;
}

void px_ptxmap_free(px_ptxmap *map)
{
	free(map->pos);
	map->pos = NULL;
	map->n = 0;
}
