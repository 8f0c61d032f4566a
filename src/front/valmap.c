#include "front/valmap.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "front/ir.h"
#include "util/huge.h"

/* A map of this many slots and more has the recent table, of RECENT
 * entries (8 KiB: it stays in the first-level cache). */
enum { RECENT_FROM = 1 << 16, RECENT = 1 << 10 };

/* A counted name is a prefix (any text, empty too) and a counter: at most
 * COUNTED_DIGITS decimal digits at its end, with no leading zero (%r07 is
 * not %r7), below COUNTED_MAX. Whether a name is counted follows from its
 * text alone, so it is always looked for where it was entered. Each prefix
 * has a run, found by the prefix's hash: a generator's prefixes are few
 * (%r, %f), or many with a few counters each (%w31_7: a row and a column),
 * and either way far fewer than the names, so their table stays in the
 * caches where the names' would not.
 *
 * A run's ids are a directory of chunks of RUN_CHUNK ids, made as the
 * counter reaches them: a chunk costs 64 bytes however sparse the counter
 * is, and chunks made one after another lie side by side, in one table of
 * the map's chunks that grows as the value table does (util/huge.h). */
enum { COUNTED_DIGITS = 7, COUNTED_MAX = 1 << 22, RUN_CHUNK = 16 };

struct px_valmap_run {
	const char *prefix; /* in the text, as the values' names are; NULL: an empty entry */
	uint32_t len, hash;
	uint32_t ndir;
	uint32_t *dir;      /* per RUN_CHUNK numbers: 1 + its chunk's index, 0: none yet */
};

/* A chunk: RUN_CHUNK ids + 1 (0: none yet). */
struct px_valmap_chunk {
	uint32_t ids[RUN_CHUNK];
};

void px_valmap_init(px_valmap *m)
{
	memset(m, 0, sizeof *m);
}

void px_valmap_free(px_valmap *m)
{
	px_huge_free(m->slots, (size_t)m->cap * sizeof *m->slots);
	if (m->recent)
		px_huge_free(m->recent, RECENT * sizeof *m->recent);
	for (uint32_t i = 0; i < m->runs_cap; i++)
		free(m->runs[i].dir);
	free(m->runs);
	px_huge_free(m->chunks, (size_t)m->chunks_cap * sizeof *m->chunks);
	px_valmap_init(m);
}

static void *need(void *p)
{
	if (!p)
		abort(); /* out of memory */
	return p;
}

static uint32_t hash_name(const char *s, uint32_t n)
{
	uint32_t h = 2166136261u; /* FNV-1a */
	for (uint32_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

/* Whether s[0..n) is counted: its digits start at *at, and count *num. */
static bool counted(const char *s, uint32_t n, uint32_t *at, uint32_t *num)
{
	uint32_t i = n;
	while (i > 0 && s[i - 1] >= '0' && s[i - 1] <= '9')
		i--;
	uint32_t digits = n - i, v = 0;
	if (!digits || digits > COUNTED_DIGITS || (digits > 1 && s[i] == '0'))
		return false;
	for (uint32_t j = i; j < n; j++)
		v = v * 10 + (uint32_t)(s[j] - '0');
	*at = i;
	*num = v;
	return v < COUNTED_MAX;
}

/* The entry of the prefix s[0..n) (hash h) in runs, or the empty one where it goes. */
static struct px_valmap_run *run_slot(struct px_valmap_run *runs, uint32_t cap, const char *s, uint32_t n,
                                      uint32_t h)
{
	for (uint32_t i = h & (cap - 1);; i = (i + 1) & (cap - 1)) {
		struct px_valmap_run *r = &runs[i];
		if (!r->prefix || (r->hash == h && r->len == n && memcmp(r->prefix, s, n) == 0))
			return r;
	}
}

/* The run of the prefix s[0..n), made when it has none. */
static struct px_valmap_run *run_of(px_valmap *m, const char *s, uint32_t n)
{
	struct px_valmap_run *last = m->runs ? &m->runs[m->last_run] : NULL;
	if (last && last->prefix && last->len == n && memcmp(last->prefix, s, n) == 0)
		return last; /* the same prefix again */
	if ((m->nruns + 1) * 4 >= m->runs_cap * 3) {
		uint32_t cap = m->runs_cap ? 2 * m->runs_cap : 16;
		struct px_valmap_run *runs = need(calloc(cap, sizeof *runs));
		for (uint32_t i = 0; i < m->runs_cap; i++)
			if (m->runs[i].prefix)
				*run_slot(runs, cap, m->runs[i].prefix, m->runs[i].len, m->runs[i].hash) = m->runs[i];
		free(m->runs);
		m->runs = runs;
		m->runs_cap = cap;
	}
	uint32_t h = hash_name(s, n);
	struct px_valmap_run *r = run_slot(m->runs, m->runs_cap, s, n, h);
	if (!r->prefix) {
		*r = (struct px_valmap_run){s, n, h, 0, NULL};
		m->nruns++;
	}
	m->last_run = (uint32_t)(r - m->runs);
	return r;
}

/* 1 + the index of a new chunk. */
static uint32_t new_chunk(px_valmap *m)
{
	if (m->nchunks == m->chunks_cap) {
		uint32_t cap = m->chunks_cap ? 2 * m->chunks_cap : 16;
		m->chunks = px_huge_grow(m->chunks, (size_t)m->chunks_cap * sizeof *m->chunks, (size_t)cap * sizeof *m->chunks);
		m->chunks_cap = cap;
	}
	memset(&m->chunks[m->nchunks], 0, sizeof *m->chunks);
	return ++m->nchunks;
}

/* The id of counter num in run r, or next when it has none. */
static uint32_t run_put(px_valmap *m, struct px_valmap_run *r, uint32_t num, uint32_t next)
{
	uint32_t c = num / RUN_CHUNK;
	if (c >= r->ndir) {
		uint32_t ndir = r->ndir ? 2 * r->ndir : 1;
		if (ndir <= c)
			ndir = c + 1;
		r->dir = need(realloc(r->dir, ndir * sizeof *r->dir));
		memset(r->dir + r->ndir, 0, (ndir - r->ndir) * sizeof *r->dir);
		r->ndir = ndir;
	}
	if (!r->dir[c])
		r->dir[c] = new_chunk(m);
	uint32_t *e = &m->chunks[r->dir[c] - 1].ids[num % RUN_CHUNK];
	if (!*e)
		*e = next + 1;
	return *e - 1;
}

/* Twice the room, every slot moved by its kept hash: no name is read again. */
static void grow(px_valmap *m)
{
	uint32_t cap = m->cap ? m->cap * 2 : 64, mask = cap - 1;
	uint64_t *slots = px_huge_alloc((size_t)cap * sizeof *slots);
	for (uint32_t i = 0; i < m->cap; i++) {
		uint64_t e = m->slots[i];
		if (!e)
			continue;
		uint32_t j = (uint32_t)(e >> 32) & mask;
		while (slots[j])
			j = (j + 1) & mask;
		slots[j] = e;
	}
	px_huge_free(m->slots, (size_t)m->cap * sizeof *m->slots);
	m->slots = slots;
	m->cap = cap;
	if (cap >= RECENT_FROM && !m->recent)
		m->recent = px_huge_alloc(RECENT * sizeof *m->recent);
}

/* Whether slot e names s[0..n) (hash h). */
static bool names(uint64_t e, const px_value *values, uint32_t h, const char *s, uint32_t n)
{
	const px_value *v = &values[(uint32_t)e - 1];
	return (uint32_t)(e >> 32) == h && v->name.n == n && memcmp(v->name.s, s, n) == 0;
}

uint32_t px_valmap_put(px_valmap *m, const px_value *values, const char *s, uint32_t n, uint32_t next)
{
	uint32_t at, num;
	struct px_valmap_run *r;
	if (counted(s, n, &at, &num) && (r = run_of(m, s, at)))
		return run_put(m, r, num, next);
	if ((m->count + 1) * 4 >= m->cap * 3)
		grow(m);
	uint32_t h = hash_name(s, n), mask = m->cap - 1;
	uint64_t *recent = m->recent ? &m->recent[h & (RECENT - 1)] : NULL;
	if (recent && *recent && names(*recent, values, h, s, n))
		return (uint32_t)*recent - 1;
	for (uint32_t i = h & mask;; i = (i + 1) & mask) {
		uint64_t e = m->slots[i];
		if (!e) {
			e = m->slots[i] = (uint64_t)h << 32 | (next + 1);
			m->count++;
		} else if (!names(e, values, h, s, n)) {
			continue;
		}
		if (recent)
			*recent = e;
		return (uint32_t)e - 1;
	}
}
