#define _GNU_SOURCE /* mremap */
#include "util/huge.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "util/pages.h"

/* From this size on a table is a pooled mapping. */
#define POOLED_TABLE ((size_t)32 << 10)
/* Tables from this size on get mappings of their own. */
#define HUGE_TABLE ((size_t)2 << 20)

/* A mapping of its own, left to fault: one area that mremap can move. */
static void *map(size_t bytes)
{
	void *p = px_pages_map(bytes, true);
	if (!p)
		abort(); /* out of memory */
	return p;
}

/* A pooled mapping of exactly bytes (rounded up to pages), so that the size
 * the caller passes back names it; clean: where its zeroes begin. */
static void *pooled(size_t bytes, size_t *clean)
{
	void *p = px_pages_get(&bytes, 0, false, clean);
	if (!p)
		abort(); /* out of memory */
	return p;
}

bool px_huge_mapped(size_t bytes) { return bytes >= POOLED_TABLE; }

void *px_huge_alloc(size_t bytes)
{
	if (bytes >= HUGE_TABLE)
		return map(bytes); /* fresh mappings are zero */
	if (bytes >= POOLED_TABLE) {
		size_t clean;
		void *p = pooled(bytes, &clean);
		memset(p, 0, clean < bytes ? clean : bytes);
		return p;
	}
	void *p = calloc(1, bytes ? bytes : 1);
	if (!p)
		abort();
	return p;
}

void *px_huge_grow(void *p, size_t old, size_t bytes)
{
	if (bytes < POOLED_TABLE) {
		void *q = realloc(p, bytes);
		if (!q)
			abort();
		return q;
	}
	if (bytes >= HUGE_TABLE && old >= HUGE_TABLE) {
		void *q = mremap(p, old, bytes, MREMAP_MAYMOVE);
		if (q == MAP_FAILED)
			abort();
		return q;
	}
	size_t clean;
	void *q = bytes >= HUGE_TABLE ? map(bytes) : pooled(bytes, &clean);
	if (old)
		memcpy(q, p, old < bytes ? old : bytes);
	px_huge_free(p, old);
	return q;
}

void px_huge_free(void *p, size_t bytes)
{
	if (bytes >= HUGE_TABLE)
		munmap(p, bytes);
	else if (bytes >= POOLED_TABLE)
		px_pages_put(p, bytes, SIZE_MAX); /* nothing known to be zero */
	else
		free(p);
}
