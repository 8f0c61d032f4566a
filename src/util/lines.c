#include "util/lines.h"

#include <stdlib.h>
#include <string.h>

struct px_line_starts {
	uint32_t n;        /* lines */
	uint32_t start[];  /* offset of each line's first byte */
};

void px_lines_init(px_lines *l, const char *src, size_t len)
{
	l->src = src;
	l->len = len;
	atomic_init(&l->starts, NULL);
}

void px_lines_free(px_lines *l)
{
	free(atomic_load_explicit(&l->starts, memory_order_acquire));
	atomic_store_explicit(&l->starts, NULL, memory_order_relaxed);
}

static struct px_line_starts *build(const px_lines *l)
{
	uint32_t n = 1;
	const char *p = l->src, *end = l->src + l->len;
	while (p < end && (p = memchr(p, '\n', (size_t)(end - p))))
		p++, n++;
	struct px_line_starts *s = malloc(sizeof *s + n * sizeof s->start[0]);
	if (!s)
		abort();
	s->n = n;
	s->start[0] = 0;
	n = 1;
	p = l->src;
	while (p < end && (p = memchr(p, '\n', (size_t)(end - p))))
		s->start[n++] = (uint32_t)(++p - l->src);
	return s;
}

px_linecol px_lines_find(px_lines *l, px_loc loc)
{
	if (!px_loc_known(loc))
		return (px_linecol){0, 0};
	struct px_line_starts *s = atomic_load_explicit(&l->starts, memory_order_acquire);
	if (!s) {
		struct px_line_starts *mine = build(l), *none = NULL;
		if (atomic_compare_exchange_strong_explicit(&l->starts, &none, mine, memory_order_acq_rel,
		                                            memory_order_acquire)) {
			s = mine;
		} else {
			free(mine); /* another thread built it first */
			s = none;
		}
	}
	uint32_t off = px_loc_off(loc), lo = 0, hi = s->n; /* the last start <= off is in [lo, hi) */
	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (s->start[mid] <= off)
			lo = mid;
		else
			hi = mid;
	}
	return (px_linecol){lo + 1, off - s->start[lo] + 1};
}
