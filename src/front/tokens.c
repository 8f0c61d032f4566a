/* What a token says where the grammar needs more than its text: a count in
 * range, a type, a string's bytes (a name without its sigil: front/build.h). */
#include <ctype.h>
#include <string.h>

#include "front/build.h"
#include "tables/tables.h"

/* An integer where the grammar needs a count, index or size in [lo, hi]. */
uint64_t px_small_uint(px_parser *P, px_tok t, uint64_t lo, uint64_t hi)
{
	uint64_t v = (uint64_t)t.i;
	if (t.neg || v < lo || v > hi) {
		PX_PERR(P, t.loc, PX_D_num_range, (int)t.s.n, t.s.s, (unsigned long long)lo,
		        (unsigned long long)hi);
		return lo;
	}
	return v;
}

uint16_t px_type_of(px_parser *P, px_tok t)
{
	int ty = px_type_lookup(t.s.s, t.s.n);
	if (!ty)
		PX_PERR(P, t.loc, PX_D_unknown_type, (int)t.s.n, t.s.s);
	return (uint16_t)ty;
}

/* A string's bytes with its escapes decoded (the scanner reported bad ones;
 * they stand for themselves here). The quotes are not part of it. */
px_str px_unescape(px_arena *a, px_tok t)
{
	const char *s = t.s.s + 1;
	size_t n = t.s.n >= 2 && t.s.s[t.s.n - 1] == '"' ? t.s.n - 2 : t.s.n - 1;
	char *out = px_arena_alloc(a, n + 1);
	size_t len = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] != '\\' || i + 1 == n) {
			out[len++] = s[i];
			continue;
		}
		char c = s[++i];
		const char *from = "ntrabfv", *to = "\n\t\r\a\b\f\v";
		const char *k = strchr(from, c);
		unsigned v = 0, d = 0;
		if (c && k) {
			out[len++] = to[k - from];
		} else if (c == 'x') {
			while (d < 2 && i + 1 < n && isxdigit((unsigned char)s[i + 1])) {
				c = s[++i];
				v = v * 16 + (unsigned)(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
				d++;
			}
			out[len++] = d ? (char)v : 'x';
		} else if (c >= '0' && c <= '7') {
			while (d < 3 && i < n && s[i] >= '0' && s[i] <= '7')
				v = v * 8 + (unsigned)(s[i++] - '0'), d++;
			i--;
			out[len++] = (char)(v & 0xff);
		} else {
			out[len++] = c;
		}
	}
	return (px_str){out, (uint32_t)len};
}
