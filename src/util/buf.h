/* A growable byte buffer: the printer writes PTX into one, the driver writes it
 * out in one go (and only when the whole translation succeeded). */
#ifndef PX_BUF_H
#define PX_BUF_H
#include <stdarg.h>
#include <stddef.h>

typedef struct px_buf {
	char *data;
	size_t len, cap;
} px_buf;

void px_buf_init(px_buf *b);
void px_buf_free(px_buf *b);
void px_buf_reserve(px_buf *b, size_t extra);
void px_buf_put(px_buf *b, const char *s, size_t n);
void px_buf_puts(px_buf *b, const char *s);
void px_buf_putc(px_buf *b, char c);
void px_buf_putu(px_buf *b, unsigned long long v);
void px_buf_puti(px_buf *b, long long v);
void px_buf_printf(px_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void px_buf_vprintf(px_buf *b, const char *fmt, va_list ap);
/* Take ownership of the bytes; the buffer is left empty. */
char *px_buf_take(px_buf *b, size_t *len);

#endif
