#include "util/arena.h"
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/pages.h"

struct px_arena_block {
	px_arena_block *next;
	size_t size, used;
	size_t clean; /* from here on the block has never been handed out: still zero */
	bool mapped;  /* from the page pool (given back to it), else malloc'd */
	_Alignas(16) unsigned char data[];
};

/* The first block's size. Each new block is at least half the size of all the
 * arena holds, up to PX_ARENA_MAX, so a function of n statements takes
 * O(log n) blocks, not n / 64 KiB of them: every block is a mapping to make
 * and, at the end, to unmap, and on a virtual machine an unmap (a TLB
 * shootdown) costs hundreds of microseconds. */
enum { PX_ARENA_MIN = 64 * 1024 };
#define PX_ARENA_MAX ((size_t)16 << 20)
/* From this size on a block is left to fault (block_memory). */
#define LAZY_BLOCK ((size_t)2 << 20)

void px_arena_init(px_arena *a)
{
	a->head = a->spare = NULL;
	a->used_total = 0;
	a->held = 0;
}

/* A block is a mapping from the page pool (util/pages.h): populated, one
 * system call instead of a page fault for each of its pages as the bump
 * pointer reaches it, and reused by the next arena once this one is freed.
 * What was never handed out is still zero (a fresh mapping is, and the pool
 * keeps where a block's zeroes begin), so nothing is cleared until the
 * memory is reused. A block of LAZY_BLOCK bytes and more is not populated:
 * it is one of the last blocks of a big function, and the tail that the
 * function never reaches (up to a third of the arena) stays out of memory. */
static px_arena_block *block_memory(size_t size)
{
	size_t bytes = sizeof(px_arena_block) + size, clean;
	px_arena_block *b = px_pages_get(&bytes, SIZE_MAX, bytes >= LAZY_BLOCK, &clean);
	if (b) {
		b->mapped = true;
		b->size = bytes - sizeof *b;
		b->clean = clean > sizeof *b ? clean - sizeof *b : 0;
		return b;
	}
	b = malloc(sizeof *b + size);
	if (b) {
		b->mapped = false;
		b->size = size;
		b->clean = size;
	}
	return b;
}

static void block_release(px_arena_block *b)
{
	if (b->mapped)
		px_pages_put(b, sizeof *b + b->size, sizeof *b + b->clean);
	else
		free(b);
}

static px_arena_block *new_block(px_arena *a, size_t need, px_arena_block *next)
{
	size_t size = a->held / 2;
	if (size > PX_ARENA_MAX)
		size = PX_ARENA_MAX;
	if (size < PX_ARENA_MIN)
		size = PX_ARENA_MIN;
	/* whole 64 KiB steps: a mapping is made of pages anyway */
	size = (size + PX_ARENA_MIN - 1) & ~(size_t)(PX_ARENA_MIN - 1);
	if (size < need)
		size = need;
	px_arena_block *b = block_memory(size);
	if (!b)
		abort(); /* out of memory: nothing sensible is left to do */
	a->held += b->size;
	b->next = next;
	b->used = 0;
	return b;
}

/* A block a reset kept, when one is big enough: reusing them spares the
 * allocator a fresh, page-faulting mapping per function. */
static px_arena_block *take_block(px_arena *a, size_t need, px_arena_block *next)
{
	for (px_arena_block **pb = &a->spare; *pb; pb = &(*pb)->next) {
		px_arena_block *b = *pb;
		if (b->size >= need) {
			*pb = b->next;
			b->next = next;
			b->used = 0;
			return b;
		}
	}
	return new_block(a, need, next);
}

/* Hand out n bytes at b->used, zeroed where zero says so (only the part an
 * earlier use dirtied needs it). */
static void *carve(px_arena *a, px_arena_block *b, size_t n, bool zero)
{
	void *p = b->data + b->used;
	if (zero && b->used < b->clean)
		memset(p, 0, b->clean - b->used < n ? b->clean - b->used : n);
	b->used += n;
	if (b->clean < b->used) /* what a table not zeroed holds is dirty too */
		b->clean = b->used;
	a->used_total += n;
	return p;
}

static void *alloc(px_arena *a, size_t n, bool zero)
{
	n = (n + 15) & ~(size_t)15;
	if (n == 0)
		n = 16;
	px_arena_block *b = a->head;
	if (!b || b->size - b->used < n) {
		if (n > PX_ARENA_MIN / 4 && b && b->size - b->used >= PX_ARENA_MIN / 4) {
			/* A large request gets its own block behind the current one so the
			 * current block's free space is not wasted. */
			px_arena_block *big = take_block(a, n, b->next);
			b->next = big;
			return carve(a, big, n, zero);
		}
		b = a->head = take_block(a, n, b);
	}
	return carve(a, b, n, zero);
}

void *px_arena_alloc(px_arena *a, size_t n) { return alloc(a, n, true); }

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

void *px_arena_calloc(px_arena *a, size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size)
		abort();
	return alloc(a, n ? n * size : size, true);
}

void *px_arena_array(px_arena *a, size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size)
		abort();
	return alloc(a, n ? n * size : size, false);
}

px_arena_mark px_arena_mark_now(const px_arena *a)
{
	return (px_arena_mark){a->head, a->head ? a->head->next : NULL, a->head ? a->head->used : 0, a->used_total};
}

static void to_spare(px_arena *a, px_arena_block *b)
{
	b->next = a->spare;
	a->spare = b;
}

/* Blocks come into the list at its head, or (a large request) right behind
 * the head of the moment: the ones after the mark are those before m.head,
 * and those between m.head and the block that followed it then. */
void px_arena_release(px_arena *a, px_arena_mark m)
{
	px_arena_block *b = a->head;
	while (b != m.head) {
		px_arena_block *n = b->next;
		to_spare(a, b);
		b = n;
	}
	a->head = m.head;
	if (m.head) {
		for (b = m.head->next; b != m.next;) {
			px_arena_block *n = b->next;
			to_spare(a, b);
			b = n;
		}
		m.head->next = m.next;
		m.head->used = m.used;
	}
	a->used_total = m.used_total;
}

void px_arena_reset(px_arena *a)
{
	/* every block becomes a spare: the next function reuses them, so memory
	 * follows the largest function */
	px_arena_block *b = a->head;
	while (b) {
		px_arena_block *n = b->next;
		b->next = a->spare;
		a->spare = b;
		b = n;
	}
	a->head = NULL;
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
	px_arena_init(a);
}
