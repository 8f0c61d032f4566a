/* Diagnostics are collected while the stages run and handed to the user's
 * callback in source order when the translation ends: the stages find mistakes
 * in their own order (syntax as it is read, a function's semantics when it
 * closes, globals and late calls when the module ends), but a reader wants
 * them by line. A note stays behind the error it explains. */
#include "diag/diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tables/tables.h"

/* Enough for any real file; past it errors are still counted. */
enum { PX_DIAG_KEEP = 100000 };

struct px_diag_entry {
	px_diagnostic d;
	uint32_t line, col, seq; /* the sort key: the error a note belongs to */
	uint32_t own;            /* arrival order within the key */
};

void px_diags_init(px_diags *d, const char *file, const char *src, size_t len, px_diag_fn fn,
                   void *ctx, unsigned max_errors)
{
	memset(d, 0, sizeof *d);
	d->file = file;
	d->src = src;
	d->len = len;
	d->fn = fn;
	d->ctx = ctx;
	d->max_errors = max_errors;
}

static void keep(px_diags *d, px_severity sev, const px_loc *loc, const char *msg, bool echo)
{
	if (!d->fn || d->nkept == PX_DIAG_KEEP)
		return;
	if (d->nkept == d->cap) {
		d->cap = d->cap ? d->cap * 2 : 64;
		d->kept = realloc(d->kept, d->cap * sizeof *d->kept);
		if (!d->kept)
			abort();
	}
	struct px_diag_entry *e = &d->kept[d->nkept];
	memset(e, 0, sizeof *e);
	e->d.severity = sev;
	e->d.file = d->file;
	e->d.message = strdup(msg);
	if (!e->d.message)
		abort();
	if (loc && loc->line) {
		e->d.line = loc->line;
		e->d.col = loc->col;
		if (echo && d->src && loc->off <= d->len) {
			size_t b = loc->off, end = loc->off;
			while (b > 0 && d->src[b - 1] != '\n')
				b--;
			while (end < d->len && d->src[end] != '\n' && d->src[end] != '\r')
				end++;
			e->d.source_line = d->src + b;
			e->d.source_len = end - b;
		}
	}
	if (sev == PX_SEV_NOTE && d->nkept) {
		const struct px_diag_entry *owner = &d->kept[d->last_error];
		e->line = owner->line;
		e->col = owner->col;
		e->seq = owner->seq;
	} else {
		e->line = e->d.line;
		e->col = e->d.col;
		e->seq = d->nkept;
		if (sev == PX_SEV_ERROR)
			d->last_error = d->nkept;
	}
	e->own = d->nkept++;
}

static void emit(px_diags *d, px_severity sev, const px_loc *loc, int id, va_list ap, bool echo)
{
	if (sev == PX_SEV_ERROR)
		d->nerrors++;
	char msg[1024];
	vsnprintf(msg, sizeof msg, px_diag_texts[id].text, ap);
	keep(d, sev, loc, msg, echo);
}

void px_error(px_diags *d, px_loc loc, int id, ...)
{
	va_list ap;
	va_start(ap, id);
	emit(d, PX_SEV_ERROR, &loc, id, ap, true);
	va_end(ap);
}

void px_report(px_diags *d, px_severity sev, px_loc loc, int id, ...)
{
	va_list ap;
	va_start(ap, id);
	emit(d, sev, &loc, id, ap, true);
	va_end(ap);
}

void px_error_unquoted(px_diags *d, px_loc loc, int id, ...)
{
	va_list ap;
	va_start(ap, id);
	emit(d, PX_SEV_ERROR, &loc, id, ap, false);
	va_end(ap);
}

void px_error_noloc(px_diags *d, int id, ...)
{
	va_list ap;
	va_start(ap, id);
	emit(d, PX_SEV_ERROR, NULL, id, ap, false);
	va_end(ap);
}

px_diag_mark px_diags_mark(const px_diags *d)
{
	return (px_diag_mark){d->nkept, d->last_error, d->nerrors};
}

void px_diags_rewind(px_diags *d, px_diag_mark m)
{
	for (size_t i = m.nkept; i < d->nkept; i++)
		free((char *)d->kept[i].d.message);
	d->nkept = m.nkept;
	d->last_error = m.last_error;
	d->nerrors = m.nerrors;
}

static int by_place(const void *a, const void *b)
{
	const struct px_diag_entry *x = a, *y = b;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	if (x->col != y->col)
		return x->col < y->col ? -1 : 1;
	if (x->seq != y->seq)
		return x->seq < y->seq ? -1 : 1;
	return x->own < y->own ? -1 : x->own > y->own;
}

void px_diags_flush(px_diags *d)
{
	/* qsort's array must not be NULL, even for none (C11 7.22.5) */
	if (d->nkept)
		qsort(d->kept, d->nkept, sizeof *d->kept, by_place);
	unsigned errors = 0;
	bool stopped = false;
	for (size_t i = 0; i < d->nkept; i++) {
		struct px_diag_entry *e = &d->kept[i];
		if (!stopped && e->d.severity == PX_SEV_ERROR && d->max_errors && ++errors > d->max_errors) {
			char msg[128];
			snprintf(msg, sizeof msg, px_diag_texts[PX_D_too_many_errors].text, d->max_errors);
			px_diagnostic t = {PX_SEV_ERROR, d->file, 0, 0, msg, NULL, 0};
			d->fn(d->ctx, &t);
			stopped = true;
		}
		if (!stopped)
			d->fn(d->ctx, &e->d);
		free((char *)e->d.message);
	}
	free(d->kept);
	d->kept = NULL;
	d->nkept = d->cap = 0;
}
