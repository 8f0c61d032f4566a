/* The diagnostics as one JSON array, for a DSL that maps them back onto its
 * own IR (the schema is in ptxemit(1)):
 *
 *   [{"file": "k.mir", "line": 7, "column": 12, "severity": "error",
 *     "message": "unknown operation 'ad'",
 *     "notes": [{"file": "k.mir", "line": 7, "column": 12, "message": "..."}]}]
 *
 * Under a loc statement a record (and a note) also has "dsl": {"file":
 * "model.py", "line": 42, "column": 9}, the generator's place; file, line
 * and column stay the MIR's.
 * A warning (and an error a warning option made) also has "option":
 * "-Wmaybe-uninitialized" (or "-Werror=maybe-uninitialized") after "message".
 *
 * line and column are 0 where a diagnostic has no location. Strings are
 * valid UTF-8: a byte that is not part of a UTF-8 sequence becomes U+FFFD. */
#include "driver/json.h"

#include "diag/diag.h"
#include "util/utf8.h"

void drv_json_init(drv_json *j)
{
	px_buf_init(&j->text);
	j->nrecords = 0;
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
			size_t k = px_utf8_len(s + i, n - i);
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

static void put_place(px_buf *b, const px_diagnostic *d)
{
	px_buf_puts(b, "\"file\": ");
	put_string(b, d->file);
	px_buf_printf(b, ", \"line\": %u, \"column\": %u", d->line, d->col);
	if (d->dsl_file) {
		px_buf_puts(b, ", \"dsl\": {\"file\": ");
		put_string(b, d->dsl_file);
		px_buf_printf(b, ", \"line\": %u, \"column\": %u}", d->dsl_line, d->dsl_col);
	}
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
	px_buf_printf(b, ", \"severity\": \"%s\", \"message\": ", px_severity_name(d->severity));
	put_string(b, d->message);
	if (d->option) {
		px_buf_puts(b, ", \"option\": ");
		put_string(b, d->option);
	}
	if (d->code) {
		px_buf_puts(b, ", \"code\": ");
		put_string(b, d->code);
	}
	if (d->ptx_line)
		px_buf_printf(b, ", \"ptx_line\": %u", d->ptx_line);
	const px_resource_usage *u = d->usage;
	if (u) {
		px_buf_puts(b, ", \"resource_usage\": {\"function\": ");
		put_string(b, u->function);
		px_buf_printf(b,
		              ", \"kernel\": %s, \"registers\": %u, \"barriers\": %u, \"stack\": %u, "
		              "\"spill_stores\": %u, \"spill_loads\": %u, \"shared\": %u, \"local\": %u, "
		              "\"constant\": %u}",
		              u->kernel ? "true" : "false", u->registers, u->barriers, u->stack, u->spill_stores,
		              u->spill_loads, u->shared, u->local, u->constant);
	}
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
