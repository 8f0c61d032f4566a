/* Bump allocation for everything that lives as long as a function or a module.
 * Nothing is freed piecemeal: a stage allocates freely and the owner resets or
 * frees the whole arena, so error paths never leak. */
#ifndef PX_ARENA_H
#define PX_ARENA_H
#include <stddef.h>

typedef struct px_arena_block px_arena_block;
typedef struct px_arena {
	px_arena_block *head;
	px_arena_block *spare; /* standard blocks a reset kept for the next function */
	size_t used_total; /* bytes handed out since the last reset (for limits) */
	size_t held;       /* bytes of all its blocks, spares included */
} px_arena;

void px_arena_init(px_arena *a);
void *px_arena_alloc(px_arena *a, size_t n);      /* zeroed, 16-byte aligned */
void *px_arena_dup(px_arena *a, const void *p, size_t n);
char *px_arena_strndup(px_arena *a, const char *s, size_t n);
/* Grow an arena array: returns a copy of old (n elements of size sz) with room for cap. */
void *px_arena_grow(px_arena *a, void *old, size_t n, size_t cap, size_t sz);
/* n zeroed elements of size bytes (room for one when n is 0); aborts when
 * n * size overflows, as when memory runs out. */
void *px_arena_calloc(px_arena *a, size_t n, size_t size);
/* The same, not zeroed: for a table every entry of which is written before
 * it is read, where zeroing a big function's table on every use of a reused
 * block cost more than the table's use (the value analysis's forms). */
void *px_arena_array(px_arena *a, size_t n, size_t size);
void px_arena_reset(px_arena *a);   /* keeps the blocks for reuse */
/* A point to take the arena back to: what was handed out after it goes back
 * (its blocks kept for reuse), what was before stays. Marks nest as a stack
 * does: release the latest first. */
typedef struct px_arena_mark {
	px_arena_block *head, *next;
	size_t used, used_total;
} px_arena_mark;
px_arena_mark px_arena_mark_now(const px_arena *a);
void px_arena_release(px_arena *a, px_arena_mark m);
void px_arena_free(px_arena *a);   /* its blocks go to the page pool */

#endif
