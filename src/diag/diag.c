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
#include "util/dslmap.h"
#include "util/lines.h"

/* Enough for any real file; past it errors are still counted. */
enum { PX_DIAG_KEEP = 100000 };

struct px_diag_entry {
	px_diagnostic d;
	uint32_t pos;      /* its px_loc: line and column are filled in by px_diags_flush */
	/* the sort key, given by px_diags_flush: the place of the error a note
	 * belongs to (in one text, offsets order as lines and columns do), then
	 * arrival order */
	uint32_t at, seq;
	uint32_t own;
	uint8_t warning;   /* px_diag_def.warning of a warning's row, else 0 */
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

static void keep(px_diags *d, px_severity sev, const px_loc *loc, const char *msg, bool echo, uint8_t warning)
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
	e->warning = warning;
	e->d.file = d->file;
	e->d.message = strdup(msg);
	if (!e->d.message)
		abort();
	if (loc && px_loc_known(*loc)) {
		e->pos = loc->pos;
		uint32_t off = px_loc_off(*loc);
		if (echo && d->src && off <= d->len) {
			size_t b = off, end = off;
			while (b > 0 && d->src[b - 1] != '\n')
				b--;
			while (end < d->len && d->src[end] != '\n' && d->src[end] != '\r')
				end++;
			e->d.source_line = d->src + b;
			e->d.source_len = end - b;
		}
	}
	d->nkept++;
}

static void emit(px_diags *d, px_severity sev, const px_loc *loc, int id, va_list ap, bool echo)
{
	if (sev == PX_SEV_NOTE && d->dropping)
		return;
	if (sev != PX_SEV_NOTE)
		d->dropping = false;
	uint8_t warning = 0;
	if (px_diag_texts[id].warning) {
		px_warning_fate fate = px_warning_decide(d->warn, id);
		if (fate == PX_WARN_DROP) {
			d->dropping = true;
			return;
		}
		warning = px_diag_texts[id].warning;
		sev = fate == PX_WARN_ERROR ? PX_SEV_ERROR : PX_SEV_WARNING;
	}
	if (sev == PX_SEV_ERROR)
		d->nerrors++;
	char msg[1024];
	vsnprintf(msg, sizeof msg, px_diag_texts[id].text, ap);
	keep(d, sev, loc, msg, echo, warning);
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

void px_report_with(px_diags *d, px_severity sev, px_loc loc, const px_diagnostic *extra, int id, ...)
{
	size_t before = d->nkept;
	va_list ap;
	va_start(ap, id);
	emit(d, sev, &loc, id, ap, true);
	va_end(ap);
	if (d->nkept == before)
		return;
	px_diagnostic *e = &d->kept[d->nkept - 1].d;
	e->code = extra->code;
	e->ptx_line = extra->ptx_line;
	e->usage = extra->usage;
	e->dsl_file = extra->dsl_file;
	e->dsl_line = extra->dsl_line;
	e->dsl_col = extra->dsl_col;
}

void px_warn(px_diags *d, px_loc loc, int id, ...)
{
	va_list ap;
	va_start(ap, id);
	emit(d, PX_SEV_WARNING, &loc, id, ap, true);
	va_end(ap);
}

void px_note(px_diags *d, px_loc loc, int id, ...)
{
	va_list ap;
	va_start(ap, id);
	emit(d, PX_SEV_NOTE, &loc, id, ap, true);
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
	return (px_diag_mark){d->nkept, d->nerrors};
}

void px_diags_rewind(px_diags *d, px_diag_mark m)
{
	for (size_t i = m.nkept; i < d->nkept; i++)
		free((char *)d->kept[i].d.message);
	d->nkept = m.nkept;
	d->nerrors = m.nerrors;
}

px_diag_part px_diags_take(px_diags *from, size_t at)
{
	/* a part waits for the module's end: it keeps what it holds, not the
	 * room its collection grew (a function's three messages in room for 64,
	 * a module of thousands of such functions 20 MB) */
	if (from->nkept && from->nkept < from->cap) {
		struct px_diag_entry *fit = realloc(from->kept, from->nkept * sizeof *fit);
		if (fit)
			from->kept = fit;
	}
	px_diag_part part = {at, from->kept, from->nkept};
	from->kept = NULL;
	from->nkept = from->cap = 0;
	return part;
}

px_diag_part px_diags_take_first(px_diags *from, size_t at, size_t n)
{
	if (n > from->nkept)
		n = from->nkept;
	struct px_diag_entry *first = malloc((n ? n : 1) * sizeof *first);
	if (!first)
		abort();
	if (n) {
		memcpy(first, from->kept, n * sizeof *first);
		memmove(from->kept, from->kept + n, (from->nkept - n) * sizeof *from->kept);
	}
	from->nkept -= n;
	return (px_diag_part){at, first, n};
}

void px_diags_merge(px_diags *d, const px_diag_part *parts, size_t nparts)
{
	size_t total = d->nkept;
	for (size_t i = 0; i < nparts; i++)
		total += parts[i].n;
	/* every part keeps at most PX_DIAG_KEEP, so the first PX_DIAG_KEEP of
	 * the merged sequence are all here: what a single px_diags would keep */
	size_t cap = total < PX_DIAG_KEEP ? total : PX_DIAG_KEEP;
	struct px_diag_entry *out = malloc((cap ? cap : 1) * sizeof *out);
	if (!out)
		abort();
	size_t n = 0, own = 0;
	for (size_t i = 0; i <= nparts; i++) {
		size_t upto = i < nparts ? parts[i].at : d->nkept;
		for (; own < upto; own++) {
			if (n < cap)
				out[n++] = d->kept[own];
			else
				free((char *)d->kept[own].d.message);
		}
		for (size_t k = 0; i < nparts && k < parts[i].n; k++) {
			if (n < cap)
				out[n++] = parts[i].kept[k];
			else
				free((char *)parts[i].kept[k].d.message);
		}
		if (i < nparts)
			free(parts[i].kept);
	}
	free(d->kept);
	d->kept = out;
	d->nkept = n;
	d->cap = cap;
}

static int by_place(const void *a, const void *b)
{
	const struct px_diag_entry *x = a, *y = b;
	if (x->at != y->at)
		return x->at < y->at ? -1 : 1;
	if (x->seq != y->seq)
		return x->seq < y->seq ? -1 : 1;
	return x->own < y->own ? -1 : x->own > y->own;
}

void px_diags_flush(px_diags *d)
{
	/* a note sorts with the last error or warning before it (with the
	 * first message when none came before), everything else by its own
	 * place; the places
	 * get their lines and columns here, once, from one index of the text */
	px_lines own, *lines = d->lines;
	if (!lines) {
		px_lines_init(&own, d->src, d->src ? d->len : 0);
		lines = &own;
	}
	size_t last_error = 0;
	for (size_t i = 0; i < d->nkept; i++) {
		struct px_diag_entry *e = &d->kept[i];
		if (e->pos) {
			px_linecol lc = px_lines_find(lines, (px_loc){e->pos});
			e->d.line = lc.line;
			e->d.col = lc.col;
			const px_dslpos *at = px_dslmap_find(d->dsl, (px_loc){e->pos});
			if (at && !e->d.dsl_file) {
				e->d.dsl_file = at->file;
				e->d.dsl_line = at->line;
				e->d.dsl_col = at->col;
			}
		}
		if (e->d.severity == PX_SEV_NOTE && i) {
			const struct px_diag_entry *owner = &d->kept[last_error];
			e->at = owner->at;
			e->seq = owner->seq;
		} else {
			e->at = e->pos;
			e->seq = (uint32_t)i;
			if (e->d.severity == PX_SEV_ERROR || e->d.severity == PX_SEV_WARNING)
				last_error = i;
		}
		e->own = (uint32_t)i;
	}
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
			px_diagnostic t = {.severity = PX_SEV_ERROR, .file = d->file, .message = msg};
			d->fn(d->ctx, &t);
			stopped = true;
		}
		if (!stopped) {
			char option[96];
			if (e->warning) {
				snprintf(option, sizeof option, e->d.severity == PX_SEV_ERROR ? "-Werror=%s" : "-W%s",
				         px_warning_names[e->warning - 1]);
				e->d.option = option;
			}
			d->fn(d->ctx, &e->d);
		}
		free((char *)e->d.message);
	}
	free(d->kept);
	d->kept = NULL;
	d->nkept = d->cap = 0;
	if (lines == &own)
		px_lines_free(&own);
}
