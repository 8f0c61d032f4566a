/* Memory for tables that grow with a function (its values, its value names,
 * its text) and can reach hundreds of MB in one big function. Below
 * POOLED_TABLE bytes a table is ordinary heap memory; from there it is a
 * mapping of the page pool (util/pages.h), which a later table of the same
 * size, in this translation or the next, reuses: the heap no longer grows
 * by a module's text and shrinks again (trimmed, its pages faulted back in
 * by the next translation) around every library call. From 2 MiB on a table
 * is a mapping of its own, left to fault page by page, grown in place or
 * moved by remapping: never copied, and never populated past what the
 * function reaches.
 * Which one a table is follows from its size, so the caller passes the size
 * back. */
#ifndef PX_HUGE_H
#define PX_HUGE_H
#include <stdbool.h>
#include <stddef.h>

/* bytes of zeroes */
void *px_huge_alloc(size_t bytes);
/* p (old bytes, from these functions, or NULL with old 0) grown to bytes: the
 * first old bytes kept, the rest undefined. */
void *px_huge_grow(void *p, size_t old, size_t bytes);
void px_huge_free(void *p, size_t bytes);
/* Whether memory of this size is a mapping (not for free()). */
bool px_huge_mapped(size_t bytes);

#endif
