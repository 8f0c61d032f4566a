/* The hash of a name in the generated tables: tools/pxgen places each row of
 * a name index by it, and the lookups (tables/lookup.c) probe with it. */
#ifndef PX_NAMEHASH_H
#define PX_NAMEHASH_H
#include <stddef.h>
#include <stdint.h>

static inline uint32_t px_name_hash(const char *s, size_t n)
{
	uint32_t h = 2166136261u; /* FNV-1a */
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

#endif
