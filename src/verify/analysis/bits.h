/* The states of the forward problems over a function's blocks
 * (verify/analysis/cfg.h): bit vectors of 64-bit words, each check laying
 * out its items' bits from a base word of its own. */
#ifndef PX_VERIFY_BITS_H
#define PX_VERIFY_BITS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The words n bits take. */
static inline size_t px_bits_words(size_t n) { return (n + 63) / 64; }
static inline bool px_bit(const uint64_t *s, size_t i) { return s[i >> 6] >> (i & 63) & 1; }
static inline void px_bit_set(uint64_t *s, size_t i) { s[i >> 6] |= (uint64_t)1 << (i & 63); }
static inline void px_bit_clear(uint64_t *s, size_t i) { s[i >> 6] &= ~((uint64_t)1 << (i & 63)); }
static inline void px_bit_put(uint64_t *s, size_t i, bool on)
{
	if (on)
		px_bit_set(s, i);
	else
		px_bit_clear(s, i);
}

#endif
