#include "util/buf.h"
#include "util/huge.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void px_buf_init(px_buf *b) { b->data = NULL; b->len = b->cap = 0; }

void px_buf_free(px_buf *b)
{
	px_huge_free(b->data, b->cap);
	px_buf_init(b);
}

/* A big function's text is held until its end (the register declarations
 * go in front of it): in a mapping of its own, as the function's other
 * tables (util/huge.h). */
void px_buf_grow(px_buf *b, size_t extra)
{
	size_t cap = b->cap ? b->cap : 4096;
	while (cap - b->len <= extra)
		cap *= 2;
	b->data = px_huge_grow(b->data, b->cap, cap);
	b->cap = cap;
}


size_t px_utoa(char *dst, unsigned long long v)
{
	size_t n = 1;
	for (unsigned long long t = v; t >= 10; t /= 10)
		n++;
	for (size_t i = n; i-- > 0; v /= 10)
		dst[i] = (char)('0' + v % 10);
	return n;
}

void px_buf_puthex(px_buf *b, unsigned long long v, unsigned digits)
{
	char tmp[16];
	if (digits > sizeof tmp)
		digits = sizeof tmp;
	for (unsigned i = digits; i-- > 0; v >>= 4)
		tmp[i] = "0123456789ABCDEF"[v & 15];
	px_buf_put(b, tmp, digits);
}

void px_buf_puti(px_buf *b, long long v)
{
	if (v < 0) {
		px_buf_putc(b, '-');
		px_buf_putu(b, 0ull - (unsigned long long)v);
	} else {
		px_buf_putu(b, (unsigned long long)v);
	}
}

/* One formatting pass into the spare room, a second only when it did not fit. */
void px_buf_vprintf(px_buf *b, const char *fmt, va_list ap)
{
	px_buf_reserve(b, 63);
	size_t room = b->cap - b->len;
	va_list ap2;
	va_copy(ap2, ap);
	int n = vsnprintf(b->data + b->len, room, fmt, ap2);
	va_end(ap2);
	if (n < 0) {
		b->data[b->len] = 0;
		return;
	}
	if ((size_t)n >= room) {
		px_buf_reserve(b, (size_t)n);
		vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	}
	b->len += (size_t)n;
}

void px_buf_printf(px_buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	px_buf_vprintf(b, fmt, ap);
	va_end(ap);
}

char *px_buf_take(px_buf *b, size_t *len)
{
	if (!b->data)
		px_buf_reserve(b, 1), b->data[0] = 0;
	char *p = b->data;
	if (len)
		*len = b->len;
	/* the caller frees it with free(): a mapping of its own is copied */
	if (px_huge_mapped(b->cap)) {
		p = malloc(b->len + 1);
		if (!p)
			abort();
		memcpy(p, b->data, b->len + 1);
		px_huge_free(b->data, b->cap);
	}
	px_buf_init(b);
	return p;
}
