#include "front/valmap.h"

#include <stdbool.h>
#include <string.h>

#include "front/ir.h"
#include "util/huge.h"

/* A map of this many slots and more has the recent table, of RECENT
 * entries (8 KiB: it stays in the first-level cache). */
enum { RECENT_FROM = 1 << 16, RECENT = 1 << 10 };

void px_valmap_init(px_valmap *m)
{
	m->slots = m->recent = NULL;
	m->cap = m->count = 0;
}

void px_valmap_free(px_valmap *m)
{
	px_huge_free(m->slots, (size_t)m->cap * sizeof *m->slots);
	if (m->recent)
		px_huge_free(m->recent, RECENT * sizeof *m->recent);
	px_valmap_init(m);
}

static uint32_t hash_name(const char *s, uint32_t n)
{
	uint32_t h = 2166136261u; /* FNV-1a */
	for (uint32_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
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
