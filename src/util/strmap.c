#include "util/strmap.h"
#include "util/huge.h"
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static uint32_t hash_bytes(const char *s, size_t n)
{
	uint32_t h = 2166136261u; /* FNV-1a */
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

void px_strmap_init(px_strmap *m) { m->slots = NULL; m->cap = m->count = 0; }

void px_strmap_free(px_strmap *m)
{
	px_huge_free(m->slots, m->cap * sizeof *m->slots);
	px_strmap_init(m);
}

uint32_t px_strmap_get(const px_strmap *m, const char *key, size_t len)
{
	if (!m->cap)
		return PX_STRMAP_NONE;
	uint32_t h = hash_bytes(key, len);
	for (uint32_t i = h & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
		const px_strmap_slot *s = &m->slots[i];
		if (!s->key)
			return PX_STRMAP_NONE;
		if (s->hash == h && s->len == len && memcmp(s->key, key, len) == 0)
			return s->val;
	}
}

static void grow(px_strmap *m)
{
	uint32_t cap = m->cap ? m->cap * 2 : 64;
	px_strmap_slot *old = m->slots;
	uint32_t oldcap = m->cap;
	m->slots = px_huge_alloc(cap * sizeof *m->slots);
	m->cap = cap;
	for (uint32_t i = 0; i < oldcap; i++) {
		if (!old[i].key)
			continue;
		uint32_t j = old[i].hash & (cap - 1);
		while (m->slots[j].key)
			j = (j + 1) & (cap - 1);
		m->slots[j] = old[i];
	}
	px_huge_free(old, oldcap * sizeof *old);
}

uint32_t px_strmap_put(px_strmap *m, const char *key, size_t len, uint32_t val)
{
	if ((m->count + 1) * 4 >= m->cap * 3)
		grow(m);
	uint32_t h = hash_bytes(key, len);
	for (uint32_t i = h & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
		px_strmap_slot *s = &m->slots[i];
		if (!s->key) {
			s->key = key;
			s->len = (uint32_t)len;
			s->hash = h;
			s->val = val;
			m->count++;
			return val;
		}
		if (s->hash == h && s->len == len && memcmp(s->key, key, len) == 0)
			return s->val;
	}
}

void px_strmap_remove(px_strmap *m, const char *key, size_t len)
{
	if (!m->cap)
		return;
	uint32_t mask = m->cap - 1, h = hash_bytes(key, len), i = h & mask;
	for (;; i = (i + 1) & mask) {
		const px_strmap_slot *s = &m->slots[i];
		if (!s->key)
			return;
		if (s->hash == h && s->len == len && memcmp(s->key, key, len) == 0)
			break;
	}
	/* Close the hole: a later member of the run moves into it when its home
	 * slot does not lie cyclically between the hole and itself, so every key
	 * stays reachable from its home without a tombstone. */
	for (uint32_t j = i;;) {
		j = (j + 1) & mask;
		if (!m->slots[j].key)
			break;
		uint32_t home = m->slots[j].hash & mask;
		bool stays = i <= j ? (i < home && home <= j) : (i < home || home <= j);
		if (!stays) {
			m->slots[i] = m->slots[j];
			i = j;
		}
	}
	memset(&m->slots[i], 0, sizeof m->slots[i]);
	m->count--;
}
