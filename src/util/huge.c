#define _GNU_SOURCE /* mremap */
#include "util/huge.h"
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* A huge page: tables from this size on get mappings of their own. */
#define HUGE_TABLE ((size_t)2 << 20)

static void *map(size_t bytes)
{
	void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		abort(); /* out of memory */
#ifdef MADV_HUGEPAGE
	/* the whole mapping, so it stays one area that mremap can move */
	madvise(p, bytes, MADV_HUGEPAGE);
#endif
	return p;
}

bool px_huge_mapped(size_t bytes) { return bytes >= HUGE_TABLE; }

void *px_huge_alloc(size_t bytes)
{
	if (px_huge_mapped(bytes))
		return map(bytes); /* fresh mappings are zero */
	void *p = calloc(1, bytes ? bytes : 1);
	if (!p)
		abort();
	return p;
}

void *px_huge_grow(void *p, size_t old, size_t bytes)
{
	if (!px_huge_mapped(bytes)) {
		void *q = realloc(p, bytes);
		if (!q)
			abort();
		return q;
	}
	if (px_huge_mapped(old)) {
		void *q = mremap(p, old, bytes, MREMAP_MAYMOVE);
		if (q == MAP_FAILED)
			abort();
		return q;
	}
	void *q = map(bytes);
	if (old)
		memcpy(q, p, old);
	free(p);
	return q;
}

void px_huge_free(void *p, size_t bytes)
{
	if (px_huge_mapped(bytes))
		munmap(p, bytes);
	else
		free(p);
}
