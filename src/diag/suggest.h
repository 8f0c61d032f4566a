/* "Did you mean": the nearest of a set of names to a misspelt one. */
#ifndef PX_SUGGEST_H
#define PX_SUGGEST_H
#include <stddef.h>

typedef struct px_suggest {
	const char *word;
	size_t n;
	const char *best; /* the nearest candidate so far, NULL if none is near */
	size_t best_n;
	unsigned dist;
} px_suggest;

void px_suggest_init(px_suggest *s, const char *word, size_t n);
/* Consider a candidate (n bytes). The word itself is never suggested. */
void px_suggest_offer(px_suggest *s, const char *cand, size_t n);
static inline void px_suggest_offer_str(px_suggest *s, const char *cand)
{
	px_suggest_offer(s, cand, __builtin_strlen(cand));
}

/* The nearest target ("sm_90a") or special register ("%tid.x") to a
 * misspelt one, or NULL. */
const char *px_suggest_target(const char *word, size_t n);
const char *px_suggest_sreg(const char *word, size_t n);

/* For a well-formed target of an SM that does not exist (sm_91): the
 * targets of the nearest SM, "'sm_90' or 'sm_90a'" (of its a or f kind
 * alone when the word has one), in buf; empty when the word is not of the
 * form sm_N[a|f] or no SM is within 9 of it. */
void px_suggest_target_numbers(const char *word, size_t n, char *buf, size_t size);

#endif
