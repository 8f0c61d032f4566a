/* The marks are few (one per loc statement and one where each hold ends), so
 * a growing array and a binary search serve any text. */
#include "util/dslmap.h"

#include <stdlib.h>

void px_dslmap_free(px_dslmap *m)
{
	free(m->v);
	m->v = NULL;
	m->n = m->cap = 0;
}

void px_dslmap_mark(px_dslmap *m, px_loc loc, const char *file, uint32_t line, uint32_t col)
{
	while (m->n && m->v[m->n - 1].from >= loc.pos)
		m->n--;
	const px_dslpos *last = m->n ? &m->v[m->n - 1] : NULL;
	/* ending a hold where none is in force marks nothing */
	if (!file && (!last || !last->file))
		return;
	if (m->n == m->cap) {
		uint32_t cap = m->cap ? m->cap * 2 : 16;
		px_dslpos *v = realloc(m->v, cap * sizeof *v);
		if (!v)
			abort();
		m->v = v;
		m->cap = cap;
	}
	m->v[m->n++] = (px_dslpos){loc.pos, file, line, col};
}

const px_dslpos *px_dslmap_find(const px_dslmap *m, px_loc loc)
{
	if (!m || !m->n || !px_loc_known(loc))
		return NULL;
	/* the last mark before loc */
	uint32_t lo = 0, hi = m->n;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (m->v[mid].from < loc.pos)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || !m->v[lo - 1].file)
		return NULL;
	return &m->v[lo - 1];
}
