#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, MAP_POPULATE */
#include "util/arena.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

struct px_arena_block {
	px_arena_block *next;
	size_t size, used;
	_Alignas(16) unsigned char data[];
};

enum { PX_ARENA_MIN = 64 * 1024 };

void px_arena_init(px_arena *a) { a->head = a->spare = NULL; a->used_total = 0; }

/* A standard block is mapped with its pages populated: one system call
 * instead of a page fault for each of its pages as the bump pointer reaches
 * it (on the benchmark machine a fault costs about 10 us, populating a page
 * under 2). Blocks are reused across functions, so this happens about as
 * often as the largest function needs another block. */
static void *block_memory(size_t bytes)
{
#ifdef MAP_POPULATE
	if (bytes == sizeof(px_arena_block) + PX_ARENA_MIN) {
		void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
		return p == MAP_FAILED ? NULL : p;
	}
#endif
	return malloc(bytes);
}

static void block_release(px_arena_block *b)
{
#ifdef MAP_POPULATE
	if (b->size == PX_ARENA_MIN) {
		munmap(b, sizeof *b + PX_ARENA_MIN);
		return;
	}
#endif
	free(b);
}

static px_arena_block *new_block(size_t need, px_arena_block *next)
{
	size_t size = need > PX_ARENA_MIN ? need : PX_ARENA_MIN;
	px_arena_block *b = block_memory(sizeof *b + size);
	if (!b)
		abort(); /* out of memory: nothing sensible is left to do */
	b->next = next;
	b->size = size;
	b->used = 0;
	return b;
}

/* A block kept by a reset when the request fits the standard size: reusing
 * them spares the allocator a free and a fresh, page-faulting malloc per
 * function. */
static px_arena_block *take_block(px_arena *a, size_t need, px_arena_block *next)
{
	px_arena_block *b = a->spare;
	if (!b || need > PX_ARENA_MIN)
		return new_block(need, next);
	a->spare = b->next;
	b->next = next;
	b->used = 0;
	return b;
}

void *px_arena_alloc(px_arena *a, size_t n)
{
	n = (n + 15) & ~(size_t)15;
	if (n == 0)
		n = 16;
	px_arena_block *b = a->head;
	if (!b || b->size - b->used < n) {
		if (n > PX_ARENA_MIN / 4 && b) {
			/* A large request gets its own block behind the current one so the
			 * current block's free space is not wasted. */
			px_arena_block *big = take_block(a, n, b->next);
			b->next = big;
			big->used = n;
			a->used_total += n;
			memset(big->data, 0, n);
			return big->data;
		}
		b = a->head = take_block(a, n, b);
	}
	void *p = b->data + b->used;
	b->used += n;
	a->used_total += n;
	memset(p, 0, n);
	return p;
}

void *px_arena_dup(px_arena *a, const void *p, size_t n)
{
	void *q = px_arena_alloc(a, n);
	if (n)
		memcpy(q, p, n);
	return q;
}

char *px_arena_strndup(px_arena *a, const char *s, size_t n)
{
	char *q = px_arena_alloc(a, n + 1);
	memcpy(q, s, n);
	q[n] = 0;
	return q;
}

void *px_arena_grow(px_arena *a, void *old, size_t n, size_t cap, size_t sz)
{
	void *p = px_arena_alloc(a, cap * sz);
	if (n)
		memcpy(p, old, n * sz);
	return p;
}

void px_arena_reset(px_arena *a)
{
	px_arena_block *b = a->head;
	if (!b)
		return;
	/* keep the most recent, and the standard-size rest as spares: the next
	 * function reuses them, so memory follows the largest function */
	px_arena_block *rest = b->next;
	while (rest) {
		px_arena_block *n = rest->next;
		if (rest->size == PX_ARENA_MIN) {
			rest->next = a->spare;
			a->spare = rest;
		} else {
			block_release(rest);
		}
		rest = n;
	}
	b->next = NULL;
	b->used = 0;
	a->used_total = 0;
}

static void free_blocks(px_arena_block *b)
{
	while (b) {
		px_arena_block *n = b->next;
		block_release(b);
		b = n;
	}
}

void px_arena_free(px_arena *a)
{
	free_blocks(a->head);
	free_blocks(a->spare);
	a->head = a->spare = NULL;
	a->used_total = 0;
}
