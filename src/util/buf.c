#include "util/buf.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void px_buf_init(px_buf *b) { b->data = NULL; b->len = b->cap = 0; }

void px_buf_free(px_buf *b)
{
	free(b->data);
	px_buf_init(b);
}

void px_buf_reserve(px_buf *b, size_t extra)
{
	if (b->cap - b->len > extra)
		return;
	size_t cap = b->cap ? b->cap : 4096;
	while (cap - b->len <= extra)
		cap *= 2;
	char *p = realloc(b->data, cap);
	if (!p)
		abort();
	b->data = p;
	b->cap = cap;
}

void px_buf_put(px_buf *b, const char *s, size_t n)
{
	px_buf_reserve(b, n);
	memcpy(b->data + b->len, s, n);
	b->len += n;
	b->data[b->len] = 0;
}

void px_buf_puts(px_buf *b, const char *s) { px_buf_put(b, s, strlen(s)); }

void px_buf_putc(px_buf *b, char c)
{
	px_buf_reserve(b, 1);
	b->data[b->len++] = c;
	b->data[b->len] = 0;
}

void px_buf_putu(px_buf *b, unsigned long long v)
{
	char tmp[24];
	int i = sizeof tmp;
	do {
		tmp[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	px_buf_put(b, tmp + i, sizeof tmp - (size_t)i);
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
	px_buf_init(b);
	return p;
}
