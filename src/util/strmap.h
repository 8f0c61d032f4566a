/* Open-addressing map from byte strings to 32-bit ids. Keys are not copied: they
 * must outlive the map (they point into the source text or an arena). */
#ifndef PX_STRMAP_H
#define PX_STRMAP_H
#include <stddef.h>
#include <stdint.h>

typedef struct px_strmap_slot {
	const char *key;
	uint32_t len, hash, val;
} px_strmap_slot;

typedef struct px_strmap {
	px_strmap_slot *slots;
	uint32_t cap, count;
} px_strmap;

#define PX_STRMAP_NONE UINT32_MAX

void px_strmap_init(px_strmap *m);
void px_strmap_free(px_strmap *m);
uint32_t px_strmap_get(const px_strmap *m, const char *key, size_t len);
/* Inserts key -> val unless present; returns the value now stored. */
uint32_t px_strmap_put(px_strmap *m, const char *key, size_t len, uint32_t val);
/* Removes key if present. */
void px_strmap_remove(px_strmap *m, const char *key, size_t len);

#endif
