#include "verify/slotset.h"

#include <stdlib.h>
#include <string.h>

enum { SET_BYTES = PX_MAX_SLOTS * sizeof(uint16_t) };

void px_slotsets_init(px_slotsets *s)
{
	s->table = NULL;
	s->cap = s->count = 0;
	px_arena_init(&s->store);
}

void px_slotsets_free(px_slotsets *s)
{
	free(s->table);
	px_arena_free(&s->store);
	s->table = NULL;
	s->cap = s->count = 0;
}

/* Every node looks its set up here, so the hash reads the set a machine word
 * at a time, not a byte. */
static uint32_t hash_set(const uint16_t *slot)
{
	const unsigned char *p = (const unsigned char *)slot;
	uint64_t h = 0;
	size_t i = 0;
	for (; i + sizeof h <= SET_BYTES; i += sizeof h) {
		uint64_t w;
		memcpy(&w, p + i, sizeof w);
		h = (h ^ w) * 0x9e3779b97f4a7c15u;
		h ^= h >> 29;
	}
	for (; i < SET_BYTES; i += sizeof *slot) {
		uint16_t t;
		memcpy(&t, p + i, sizeof t);
		h = (h ^ t) * 0x9e3779b97f4a7c15u;
	}
	return (uint32_t)(h ^ h >> 32);
}

static void put(const uint16_t **table, uint32_t cap, const uint16_t *set)
{
	uint32_t i = hash_set(set) & (cap - 1);
	while (table[i])
		i = (i + 1) & (cap - 1);
	table[i] = set;
}

static void grow(px_slotsets *s)
{
	uint32_t cap = s->cap ? s->cap * 2 : 64;
	const uint16_t **table = calloc(cap, sizeof *table);
	if (!table)
		abort(); /* out of memory */
	for (uint32_t i = 0; i < s->cap; i++)
		if (s->table[i])
			put(table, cap, s->table[i]);
	free(s->table);
	s->table = table;
	s->cap = cap;
}

const uint16_t *px_slotsets_keep(px_slotsets *s, const uint16_t *slot)
{
	if ((s->count + 1) * 2 > s->cap)
		grow(s);
	uint32_t i = hash_set(slot) & (s->cap - 1);
	for (; s->table[i]; i = (i + 1) & (s->cap - 1))
		if (memcmp(s->table[i], slot, SET_BYTES) == 0)
			return s->table[i];
	uint16_t *set = px_arena_dup(&s->store, slot, SET_BYTES);
	s->table[i] = set;
	s->count++;
	return set;
}
