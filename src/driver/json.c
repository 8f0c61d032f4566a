/* The diagnostics as one JSON array, for a DSL that maps them back onto its
 * own IR (the schema is in ptxemit(1)):
 *
 *   [{"file": "k.mir", "line": 7, "column": 12, "severity": "error",
 *     "message": "unknown operation 'ad'",
 *     "notes": [{"file": "k.mir", "line": 7, "column": 12, "message": "..."}]}]
 *
 * line and column are 0 where a diagnostic has no location. Strings are
 * valid UTF-8: a byte that is not part of a UTF-8 sequence becomes U+FFFD. */
#include "driver/json.h"

#include <stdint.h>

void drv_json_init(drv_json *j)
{
	px_buf_init(&j->text);
	j->nrecords = 0;
}

/* The length of the UTF-8 sequence at s (at most n bytes), 0 if invalid. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	unsigned c = s[0];
	size_t len;
	uint32_t cp;
	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		len = 2, cp = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		len = 3, cp = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4, cp = c & 0x07;
	else
		return 0;
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* overlong forms, surrogates and code points past U+10FFFF */
	if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

static void put_string(px_buf *b, const char *str)
{
	const unsigned char *s = (const unsigned char *)(str ? str : "");
	size_t n = strlen((const char *)s);
	px_buf_putc(b, '"');
	for (size_t i = 0; i < n;) {
		unsigned c = s[i];
		if (c == '"' || c == '\\') {
			px_buf_putc(b, '\\');
			px_buf_putc(b, (char)c);
			i++;
		} else if (c == '\n') {
			px_buf_puts(b, "\\n");
			i++;
		} else if (c == '\t') {
			px_buf_puts(b, "\\t");
			i++;
		} else if (c < 0x20 || c == 0x7f) {
			px_buf_printf(b, "\\u%04x", c);
			i++;
		} else {
			size_t k = utf8_len(s + i, n - i);
			if (k == 0) {
				px_buf_puts(b, "\\ufffd");
				i++;
			} else {
				px_buf_put(b, (const char *)s + i, k);
				i += k;
			}
		}
	}
	px_buf_putc(b, '"');
}

static const char *severity_name(px_severity s)
{
	switch (s) {
	case PX_SEV_ERROR:
		return "error";
	case PX_SEV_WARNING:
		return "warning";
	case PX_SEV_NOTE:
		return "note";
	case PX_SEV_REMARK:
		return "remark";
	}
	return "error";
}

static void put_place(px_buf *b, const px_diagnostic *d)
{
	px_buf_puts(b, "\"file\": ");
	put_string(b, d->file);
	px_buf_printf(b, ", \"line\": %u, \"column\": %u", d->line, d->col);
}

void drv_json_add(drv_json *j, const px_diagnostic *d)
{
	px_buf *b = &j->text;
	if (d->severity == PX_SEV_NOTE && j->nrecords) {
		/* reopen the last record's notes: drop its closing "]}" */
		b->len -= 2;
		px_buf_puts(b, b->data[b->len - 1] == '[' ? "{" : ", {");
		put_place(b, d);
		px_buf_puts(b, ", \"message\": ");
		put_string(b, d->message);
		px_buf_puts(b, "}]}");
		return;
	}
	px_buf_puts(b, j->nrecords++ ? ",\n {" : "{");
	put_place(b, d);
	px_buf_printf(b, ", \"severity\": \"%s\", \"message\": ", severity_name(d->severity));
	put_string(b, d->message);
	px_buf_puts(b, ", \"notes\": []}");
}

void drv_json_finish(drv_json *j, FILE *f)
{
	fputc('[', f);
	if (j->text.len)
		fwrite(j->text.data, 1, j->text.len, f);
	fputs("]\n", f);
	px_buf_free(&j->text);
}
