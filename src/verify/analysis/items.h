/* What a gen/kill check follows, numbered: the values an operation writes,
 * or the module variables it addresses (the keys), each an item the first
 * time the check adds it, in the order it adds them (its bit in the check's
 * states), with a statement to point a note at and whether its warning has
 * been said: one warning per item. Everything is in the check's arena. */
#ifndef PX_VERIFY_ITEMS_H
#define PX_VERIFY_ITEMS_H
#include <stdbool.h>
#include <stdint.h>

#include "front/ir.h"
#include "util/arena.h"

typedef struct px_items {
	px_arena *a;
	uint32_t *of;          /* per key: 1 + its item, 0 when it is none */
	const px_node **first; /* per item: the first statement px_items_point gave it, or NULL */
	uint8_t *said;         /* per item: its warning is said */
	uint32_t n, cap;
} px_items;

void px_items_init(px_items *t, px_arena *a, uint32_t nkeys);
/* key's item, made when it is new. */
uint32_t px_items_add(px_items *t, uint32_t key);
/* Whether key is an item, and which (*i). */
static inline bool px_items_find(const px_items *t, uint32_t key, uint32_t *i)
{
	if (!t->of[key])
		return false;
	*i = t->of[key] - 1;
	return true;
}
/* Gives item i statement n to point at, unless it has one. */
static inline void px_items_point(px_items *t, uint32_t i, const px_node *n)
{
	if (!t->first[i])
		t->first[i] = n;
}
/* Whether item i's warning is to be said now: true once. */
static inline bool px_items_say(px_items *t, uint32_t i)
{
	if (t->said[i])
		return false;
	t->said[i] = 1;
	return true;
}

#endif
