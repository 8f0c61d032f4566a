/* Mappings of populated pages, kept for reuse when they are given back.
 *
 * A library call translating a small kernel would otherwise map and unmap a
 * dozen arena blocks and grow and trim the heap for its text, and on a
 * virtual machine those system calls, the page faults and the unmaps' TLB
 * shootdowns cost more than the translation. Memory given back here goes to a
 * process-wide pool (any thread's next request may take it) of at most
 * PX_PAGES_POOL bytes in PX_PAGES_SLOTS mappings; past that it is unmapped. */
#ifndef PX_PAGES_H
#define PX_PAGES_H
#include <stdbool.h>
#include <stddef.h>

#define PX_PAGES_POOL ((size_t)16 << 20)
enum { PX_PAGES_SLOTS = 64 };

/* A mapping of at least *bytes and at most max bytes (max is taken to be at
 * least *bytes rounded up to whole pages): the smallest pooled one that fits,
 * else a fresh one of *bytes rounded up to pages, populated, or left to fault
 * page by page when lazy is set (what is never reached stays out of memory).
 * *bytes receives its size, *clean where its zero bytes begin (0 for a fresh
 * mapping). NULL when no memory is left. */
void *px_pages_get(size_t *bytes, size_t max, bool lazy, size_t *clean);
/* A fresh mapping of bytes (rounded up to pages), populated, or left to fault
 * when lazy is set; NULL when no memory is left. */
void *px_pages_map(size_t bytes, bool lazy);
/* Give back a mapping of bytes (rounded up to pages as px_pages_get did)
 * that is zero from clean on; it is pooled when the pool has room, else
 * unmapped. */
void px_pages_put(void *p, size_t bytes, size_t clean);
/* Bytes the pool holds now; *n (when not NULL): in how many mappings. */
size_t px_pages_pooled(unsigned *n);

#endif
