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

/* The bytes of w equal to '\n', as 0x80 in each such byte and 0 elsewhere:
 * exact (no carry crosses a byte), so each set bit is one newline. */
static uint64_t newlines_in(uint64_t w)
{
	const uint64_t low7 = 0x7f7f7f7f7f7f7f7fULL;
	uint64_t x = w ^ 0x0a0a0a0a0a0a0a0aULL;
	return ~(((x & low7) + low7) | x | low7);
}

/* s with room for at least need starts. */
static struct px_line_starts *room(struct px_line_starts *s, uint32_t *cap, uint32_t need)
{
	if (need <= *cap)
		return s;
	while (*cap < need)
		*cap *= 2;
	s = realloc(s, sizeof *s + (size_t)*cap * sizeof s->start[0]);
	if (!s)
		abort();
	return s;
}

/* One pass, eight bytes at a time, the count and the room kept in locals
 * (a word holds at most eight newlines): a text of short lines (a generated
 * module's) would spend most of a memchr per line in the call. */
static struct px_line_starts *build(const px_lines *l)
{
	uint32_t cap = (uint32_t)(l->len / 32) + 16, n = 1;
	struct px_line_starts *s = malloc(sizeof *s + cap * sizeof s->start[0]);
	if (!s)
		abort();
	s->start[0] = 0;
	const char *src = l->src;
	size_t i = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	for (; i + 8 <= l->len; i += 8) {
		uint64_t w;
		memcpy(&w, src + i, 8);
		uint64_t z = newlines_in(w);
		if (!z)
			continue;
		s = room(s, &cap, n + 8);
		for (; z; z &= z - 1)
			s->start[n++] = (uint32_t)(i + (unsigned)__builtin_ctzll(z) / 8 + 1);
	}
#endif
	for (; i < l->len; i++)
		if (src[i] == '\n') {
			s = room(s, &cap, n + 1);
			s->start[n++] = (uint32_t)(i + 1);
		}
	s->n = n;
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
