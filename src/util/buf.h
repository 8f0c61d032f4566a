/* A growable byte buffer: the printer writes PTX into one, the driver writes it
 * out in one go (and only when the whole translation succeeded). */
#ifndef PX_BUF_H
#define PX_BUF_H
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

typedef struct px_buf {
	char *data;
	size_t len, cap;
} px_buf;

void px_buf_init(px_buf *b);
void px_buf_free(px_buf *b);
/* Room for extra more bytes and the NUL kept after them. */
void px_buf_grow(px_buf *b, size_t extra);
static inline void px_buf_reserve(px_buf *b, size_t extra)
{
	if (b->cap - b->len <= extra)
		px_buf_grow(b, extra);
}

/* Inline: the printer calls these for every token it writes, and a constant
 * string's strlen then folds away. */
static inline void px_buf_put(px_buf *b, const char *s, size_t n)
{
	px_buf_reserve(b, n);
	memcpy(b->data + b->len, s, n);
	b->len += n;
	b->data[b->len] = 0;
}

static inline void px_buf_puts(px_buf *b, const char *s) { px_buf_put(b, s, strlen(s)); }

static inline void px_buf_putc(px_buf *b, char c)
{
	px_buf_reserve(b, 1);
	b->data[b->len++] = c;
	b->data[b->len] = 0;
}

/* A string of a few bytes (a token, an operation's name, a register's
 * prefix), copied a byte at a time: for such strings a call to strlen and
 * one to memcpy cost more than the copy, and the printer writes one for
 * nearly every operand. A longer one is finished by px_buf_puts. */
enum { PX_BUF_SHORT = 32 };
static inline void px_buf_putshort(px_buf *b, const char *s)
{
	px_buf_reserve(b, PX_BUF_SHORT);
	char *p = b->data + b->len, *end = p + PX_BUF_SHORT;
	while (*s && p < end)
		*p++ = *s++;
	b->len = (size_t)(p - b->data);
	b->data[b->len] = 0;
	if (*s)
		px_buf_puts(b, s);
}

/* v in decimal at dst (room for 20 digits), not terminated; returns the length.
 * The hot paths print numbers often enough that printf's parsing showed. */
size_t px_utoa(char *dst, unsigned long long v);
static inline void px_buf_putu(px_buf *b, unsigned long long v)
{
	px_buf_reserve(b, 20);
	b->len += px_utoa(b->data + b->len, v);
	b->data[b->len] = 0;
}
/* v in upper-case hex, zero-padded to digits (PTX's 0f/0d float forms) */
void px_buf_puthex(px_buf *b, unsigned long long v, unsigned digits);
void px_buf_puti(px_buf *b, long long v);
void px_buf_printf(px_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void px_buf_vprintf(px_buf *b, const char *fmt, va_list ap);
/* Take ownership of the bytes; the buffer is left empty. */
char *px_buf_take(px_buf *b, size_t *len);

#endif
