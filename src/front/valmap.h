/* A function's value names to value ids: open addressing over 8-byte slots
 * (the name's hash and the id), the names themselves read from the value
 * table. A generic string map keeps a pointer, a length, a hash and a value
 * per slot, three times as much.
 *
 * A big map's slots are far apart in memory, and a name's slot is where its
 * hash puts it, so nearly every lookup misses the caches; yet most names a
 * statement uses were defined or used a few statements before. So a big map keeps a small
 * direct-mapped table of the names last asked for in front of its slots.
 *
 * A new name still misses: its slot is anywhere. But a generator names its
 * values by a prefix and a counter (%r12, %f7, LLVM's %0), handing the
 * counter out in order; such a name takes a direct table instead, per
 * prefix the ids by number, so a new name's place is next to the last one's
 * (valmap.c says which names are counted). */
#ifndef PX_VALMAP_H
#define PX_VALMAP_H
#include <stdint.h>

struct px_value;
struct px_valmap_run;
struct px_valmap_chunk;

typedef struct px_valmap {
	uint64_t *slots;    /* hash << 32 | (id + 1); 0: empty */
	uint64_t *recent;   /* a big map's names last asked for, as slots, by hash; else NULL */
	uint32_t cap, count;
	/* the counted names: a run per prefix, found by its hash, the one asked
	 * last, and where their tables' chunks come from */
	struct px_valmap_run *runs;
	uint32_t runs_cap, nruns, last_run;
	struct px_valmap_chunk *chunks;
	uint32_t nchunks, chunks_cap;
} px_valmap;

void px_valmap_init(px_valmap *m);
void px_valmap_free(px_valmap *m);
/* The id of the value named s[0..n) in values, or next (entered as its id)
 * when there is none yet. */
uint32_t px_valmap_put(px_valmap *m, const struct px_value *values, const char *s, uint32_t n, uint32_t next);

#endif
