/* The distance is Damerau-Levenshtein's in its restricted form (insert,
 * delete, replace, swap two neighbours; each costs 1), with letters compared
 * without case. A candidate is near enough when at most a third of the
 * word's letters (at least one) change and the candidate is not all new; on
 * a tie the first candidate offered stays. */
#include "diag/suggest.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tables/tables.h"

enum { SUGGEST_MAX = 64 };

void px_suggest_init(px_suggest *s, const char *word, size_t n)
{
	s->word = word;
	s->n = n;
	s->best = NULL;
	s->best_n = 0;
	s->dist = 0;
}

static int same(char a, char b)
{
	return tolower((unsigned char)a) == tolower((unsigned char)b);
}

static unsigned distance(const char *a, size_t n, const char *b, size_t m)
{
	/* three rows of the table: i-2, i-1 and i */
	unsigned rows[3][SUGGEST_MAX + 1];
	for (size_t j = 0; j <= m; j++)
		rows[0][j] = rows[1][j] = (unsigned)j;
	for (size_t i = 1; i <= n; i++) {
		unsigned *cur = rows[i % 3], *prev = rows[(i + 2) % 3], *prev2 = rows[(i + 1) % 3];
		cur[0] = (unsigned)i;
		for (size_t j = 1; j <= m; j++) {
			unsigned cost = !same(a[i - 1], b[j - 1]);
			unsigned d = prev[j] + 1;
			if (cur[j - 1] + 1 < d)
				d = cur[j - 1] + 1;
			if (prev[j - 1] + cost < d)
				d = prev[j - 1] + cost;
			if (i > 1 && j > 1 && same(a[i - 1], b[j - 2]) && same(a[i - 2], b[j - 1]) &&
			    prev2[j - 2] + 1 < d)
				d = prev2[j - 2] + 1;
			cur[j] = d;
		}
	}
	return rows[n % 3][m];
}

void px_suggest_offer(px_suggest *s, const char *cand, size_t n)
{
	if (n == 0 || n > SUGGEST_MAX || s->n == 0 || s->n > SUGGEST_MAX)
		return;
	if (n == s->n && memcmp(cand, s->word, n) == 0)
		return;
	size_t gap = n > s->n ? n - s->n : s->n - n;
	unsigned limit = s->n / 3 ? (unsigned)(s->n / 3) : 1;
	if (gap > limit || (s->best && gap >= s->dist))
		return;
	unsigned d = distance(s->word, s->n, cand, n);
	if (d > limit || d >= n || (s->best && d >= s->dist))
		return;
	s->best = cand;
	s->best_n = n;
	s->dist = d;
}

/* Whether a and b hold the same digits in the same order. */
static bool same_digits(const char *a, size_t n, const char *b)
{
	size_t i = 0;
	for (; *b; b++) {
		if (!isdigit((unsigned char)*b))
			continue;
		while (i < n && !isdigit((unsigned char)a[i]))
			i++;
		if (i == n || a[i++] != *b)
			return false;
	}
	while (i < n && !isdigit((unsigned char)a[i]))
		i++;
	return i == n;
}

/* Only a target of the same number: "sm80" is sm_80 misspelt, but sm_99 is
 * no typo of sm_89, a different GPU. */
const char *px_suggest_target(const char *word, size_t n)
{
	px_suggest s;
	px_suggest_init(&s, word, n);
	for (unsigned i = 0; i < px_ntargets; i++)
		if (same_digits(word, n, px_targets[i].name))
			px_suggest_offer_str(&s, px_targets[i].name);
	return s.best;
}

void px_suggest_target_numbers(const char *word, size_t n, char *buf, size_t size)
{
	buf[0] = '\0';
	if (n < 4 || strncmp(word, "sm_", 3) != 0)
		return;
	size_t digits = 0;
	while (3 + digits < n && isdigit((unsigned char)word[3 + digits]))
		digits++;
	char suffix = 3 + digits < n ? word[3 + digits] : 0;
	if (!digits || digits > 4 || 3 + digits + (suffix ? 1 : 0) != n)
		return;
	if (suffix && suffix != 'a' && suffix != 'f')
		return;
	unsigned sm = (unsigned)strtoul(word + 3, NULL, 10), best = 0, gap = ~0u;
	/* the nearest SM; of two as near, the lower */
	for (unsigned i = 0; i < px_ntargets; i++) {
		unsigned t = px_targets[i].sm, d = t > sm ? t - sm : sm - t;
		if (d < gap || (d == gap && t < best))
			best = t, gap = d;
	}
	/* an SM further off is another generation (sm_50, sm_200): no neighbour */
	if (gap >= 10)
		return;
	size_t used = 0, count = 0;
	for (unsigned i = 0; i < px_ntargets; i++) {
		const px_target *t = &px_targets[i];
		if (t->sm != best || (suffix && t->suffix != suffix))
			continue;
		int w = snprintf(buf + used, size - used, "%s'%s'", count ? " or " : "", t->name);
		if (w < 0 || (size_t)w >= size - used)
			break;
		used += (size_t)w;
		count++;
	}
}

const char *px_suggest_sreg(const char *word, size_t n)
{
	px_suggest s;
	px_suggest_init(&s, word, n);
	for (unsigned i = 0; i < px_nsregs; i++)
		px_suggest_offer_str(&s, px_sregs[i].name);
	return s.best;
}
