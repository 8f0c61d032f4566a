/* printf's format string as CUDA's vprintf reads it: the conversions, what
 * each takes, and where its argument lies in the argument buffer. The parser
 * sizes a function's buffer with it, the verifier checks the arguments
 * against it and the selector stores them by it. */
#ifndef PX_FORMAT_H
#define PX_FORMAT_H
#include <stdbool.h>
#include <stdint.h>

#include "front/ir.h"

/* What a conversion takes, after C's promotions: int (%d, %c, '*'), a 64-bit
 * integer (%ld, %lld, %zu, ...), double (%f, %e, %g, %a: a float is
 * promoted), a pointer (%p) or a string's generic address (%s). */
enum px_fmt_want { PX_FMT_INT, PX_FMT_LONG, PX_FMT_DOUBLE, PX_FMT_PTR, PX_FMT_STR };

typedef struct px_fmt_item {
	uint32_t at, len;   /* the conversion's text in the format, from '%' */
	uint32_t off;       /* the argument's offset in the buffer */
	uint8_t want;       /* enum px_fmt_want */
	bool star;          /* the int of a '*' width or precision */
} px_fmt_item;

enum px_fmt_error { PX_FMT_OK, PX_FMT_UNKNOWN, PX_FMT_TRAILING, PX_FMT_LENGTH };

typedef struct px_fmt {
	px_fmt_item *items; /* one per argument, in order ('*' widths take their own) */
	uint32_t nitems;
	uint32_t size, align; /* the buffer: bytes, and its alignment (8 when any 64-bit slot) */
	uint8_t error;      /* enum px_fmt_error: the first mistake; items stop there */
	uint32_t err_at, err_len; /* the conversion it is in */
} px_fmt;

/* The local array a function's printf arguments go through. */
#define PX_PRINTF_BUFFER "$$printf_args"

/* The module string of the k-th distinct format: "$$str", "$$str$1", ... (no
 * MIR name, nor a label's PTX name, starts with "$$"), in a. */
px_str px_printf_string_name(px_arena *a, uint32_t k);
/* Whether name is such a string's; its k into *k (k may be NULL). */
bool px_printf_string_k(px_str name, uint32_t *k);

/* Scan the decoded format s. items come from a. */
void px_fmt_scan(px_arena *a, px_str s, px_fmt *out);

/* The bytes of an argument of kind want in the buffer: 4 for int, else 8. */
unsigned px_fmt_bytes(unsigned want);

#endif
