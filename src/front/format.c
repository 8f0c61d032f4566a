/* printf conversions: %[flags][width][.precision][length]conversion, C's
 * grammar, with the lengths and conversions CUDA's vprintf formats. Each
 * argument takes its promoted type's size in the buffer, at that size's
 * alignment, as the CUDA compiler lays the buffer out. */
#include <stdio.h>
#include <string.h>

#include "front/format.h"
#include "util/arena.h"

#define STR_PREFIX "$$str"

px_str px_printf_string_name(px_arena *a, uint32_t k)
{
	char *p = px_arena_alloc(a, sizeof STR_PREFIX + 12);
	int n = k ? snprintf(p, sizeof STR_PREFIX + 12, STR_PREFIX "$%u", k) : snprintf(p, sizeof STR_PREFIX, STR_PREFIX);
	return (px_str){p, (uint32_t)n};
}

bool px_printf_string_k(px_str name, uint32_t *k)
{
	const size_t pre = sizeof STR_PREFIX - 1;
	if (name.n < pre || memcmp(name.s, STR_PREFIX, pre))
		return false;
	uint32_t v = 0;
	if (name.n > pre) {
		if (name.s[pre] != '$' || name.n == pre + 1)
			return false;
		for (uint32_t i = pre + 1; i < name.n; i++) {
			if (name.s[i] < '0' || name.s[i] > '9')
				return false;
			v = v * 10 + (uint32_t)(name.s[i] - '0');
		}
	}
	if (k)
		*k = v;
	return true;
}

unsigned px_fmt_bytes(unsigned want) { return want == PX_FMT_INT ? 4 : 8; }

static void add(px_arena *a, px_fmt *f, uint32_t *cap, uint32_t at, uint32_t len, unsigned want, bool star)
{
	if (f->nitems == *cap) {
		uint32_t c = *cap ? *cap * 2 : 8;
		f->items = px_arena_grow(a, f->items, f->nitems, c, sizeof *f->items);
		*cap = c;
	}
	unsigned b = px_fmt_bytes(want);
	uint32_t off = (f->size + b - 1) / b * b;
	f->items[f->nitems++] = (px_fmt_item){at, len, off, (uint8_t)want, star};
	f->size = off + b;
	if (b > f->align)
		f->align = b;
}

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

/* A conversion character with its length modifier (l: 1, ll: 2, h/hh: -1,
 * z/j/t: 3): what it takes, or -1 for a length that does not apply. */
static int want_of(char c, int len)
{
	switch (c) {
	case 'd': case 'i': case 'u': case 'x': case 'X': case 'o':
		return len > 0 ? PX_FMT_LONG : PX_FMT_INT;
	case 'c':
		return len ? -1 : PX_FMT_INT;
	case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A':
		return len == 0 || len == 1 ? PX_FMT_DOUBLE : -1; /* %lf is %f */
	case 'p':
		return len ? -1 : PX_FMT_PTR;
	case 's':
		return len ? -1 : PX_FMT_STR;
	default:
		return -2;
	}
}

void px_fmt_scan(px_arena *a, px_str s, px_fmt *f)
{
	memset(f, 0, sizeof *f);
	f->align = 1;
	uint32_t cap = 0;
	for (uint32_t i = 0; i < s.n; i++) {
		if (s.s[i] != '%')
			continue;
		uint32_t at = i++;
		if (i < s.n && s.s[i] == '%')
			continue;
		while (i < s.n && strchr("-+ #0", s.s[i]))
			i++;
		unsigned nstars = 0; /* a '*' width or precision takes an int argument first */
		if (i < s.n && s.s[i] == '*') {
			nstars++;
			i++;
		}
		while (i < s.n && is_digit(s.s[i]))
			i++;
		if (i < s.n && s.s[i] == '.') {
			i++;
			if (i < s.n && s.s[i] == '*') {
				nstars++;
				i++;
			}
			while (i < s.n && is_digit(s.s[i]))
				i++;
		}
		int len = 0;
		if (i < s.n && (s.s[i] == 'h' || s.s[i] == 'l')) {
			char l = s.s[i++];
			bool twice = i < s.n && s.s[i] == l;
			if (twice)
				i++;
			len = l == 'h' ? -1 : twice ? 2 : 1;
		} else if (i < s.n && strchr("zjt", s.s[i])) {
			len = 3;
			i++;
		}
		if (i >= s.n) {
			f->error = PX_FMT_TRAILING;
			f->err_at = at;
			f->err_len = i - at;
			return;
		}
		int want = want_of(s.s[i], len);
		if (want < 0) {
			f->error = want == -1 ? PX_FMT_LENGTH : PX_FMT_UNKNOWN;
			f->err_at = at;
			f->err_len = i + 1 - at;
			return;
		}
		for (unsigned k = 0; k < nstars; k++)
			add(a, f, &cap, at, i + 1 - at, PX_FMT_INT, true);
		add(a, f, &cap, at, i + 1 - at, (unsigned)want, false);
	}
	if (!f->nitems)
		f->align = 0;
}
