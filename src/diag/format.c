/* px_diagnostic_format: the one place that decides how a diagnostic reads, so
 * the command line and every library user print the same text:
 *
 *   file:line:col: error: message
 *     the offending source line
 *         ^
 *
 * Parts that are missing are left out: no column gives "file:line: ", no line
 * gives "file: ", no file gives just "error: message". Like snprintf it never
 * writes more than size bytes and always terminates the text when size > 0;
 * a text that does not fit is cut short, never refused. */
#include <stdio.h>
#include <string.h>

#include "diag/diag.h"
#include "ptxemit.h"
#include "tables/tables.h"

enum { PX_ECHO_MAX = 1024 };

/* Where the next byte goes and how many bytes are left, the NUL included. */
typedef struct sink {
	char *p;
	size_t left;
} sink;

static void put(sink *s, const char *t, size_t n)
{
	if (s->left <= 1)
		return;
	size_t k = n < s->left - 1 ? n : s->left - 1;
	memcpy(s->p, t, k);
	s->p += k;
	s->left -= k;
	*s->p = '\0';
}

static void put_str(sink *s, const char *t)
{
	put(s, t, strlen(t));
}

const char *px_severity_name(px_severity sev)
{
	switch (sev) {
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

/* The caret sits under column col (1-based, counted in bytes). Tabs before it
 * are copied from the source line so that it lines up in any tab width. */
static void caret(sink *s, const char *line, size_t len, unsigned col)
{
	put_str(s, "  ");
	size_t upto = (size_t)col - 1;
	if (upto > len)
		upto = len; /* a column past the end points just after the line */
	for (size_t i = 0; i < upto; i++)
		put(s, line[i] == '\t' ? "\t" : " ", 1);
	put_str(s, "^\n");
}

/* "file:line:col: ", less what is missing. */
static void place(sink *s, const char *file, unsigned line, unsigned col)
{
	char num[32];
	if (!file)
		return;
	put_str(s, file);
	if (line) {
		snprintf(num, sizeof num, ":%u", line);
		put_str(s, num);
		if (col) {
			snprintf(num, sizeof num, ":%u", col);
			put_str(s, num);
		}
	}
	put_str(s, ": ");
}

/* The message, and after a warning's the option that controls it. */
static void put_message(sink *s, const px_diagnostic *d)
{
	put_str(s, d->message ? d->message : "");
	if (d->option) {
		put_str(s, " [");
		put_str(s, d->option);
		put_str(s, "]");
	}
	put_str(s, "\n");
}

void px_diagnostic_format(const px_diagnostic *d, char *buf, size_t size)
{
	if (size == 0)
		return;
	sink s = {buf, size};
	*buf = '\0';
	/* at a DSL place the generator's line leads, and the MIR follows as a
	 * note: the author reads (and an editor jumps to) the line they wrote */
	if (d->dsl_file) {
		place(&s, d->dsl_file, d->dsl_line, d->dsl_col);
		put_str(&s, px_severity_name(d->severity));
		put_str(&s, ": ");
		put_message(&s, d);
		place(&s, d->file, d->line, d->col);
		put_str(&s, px_severity_name(PX_SEV_NOTE));
		put_str(&s, ": ");
		put_str(&s, px_diag_texts[PX_D_dsl_mir_note].text);
		put_str(&s, "\n");
	} else {
		place(&s, d->file, d->line, d->col);
		put_str(&s, px_severity_name(d->severity));
		put_str(&s, ": ");
		put_message(&s, d);
	}
	if (d->line && d->source_line) {
		/* Of a line longer than PX_ECHO_MAX bytes only the PX_ECHO_MAX
		 * around the column are shown: a 10 MB line must not be copied
		 * once per error. The header keeps the true column. */
		const char *line = d->source_line;
		size_t len = d->source_len;
		unsigned col = d->col;
		if (len > PX_ECHO_MAX) {
			size_t at = col ? (size_t)col - 1 : 0, from = at > PX_ECHO_MAX / 2 ? at - PX_ECHO_MAX / 2 : 0;
			if (from > len - PX_ECHO_MAX)
				from = len - PX_ECHO_MAX;
			line += from;
			len = PX_ECHO_MAX;
			col = col ? (unsigned)(at - from + 1) : 0;
		}
		put_str(&s, "  ");
		/* A control byte is shown as '?': a NUL would end the text for
		 * every reader, and an escape sequence would drive the terminal.
		 * One byte for one keeps the caret in its column. */
		for (size_t i = 0; i < len; i++) {
			unsigned char c = (unsigned char)line[i];
			put(&s, (c < 0x20 && c != '\t') || c == 0x7f ? "?" : &line[i], 1);
		}
		put_str(&s, "\n");
		if (col)
			caret(&s, line, len, col);
	}
}
