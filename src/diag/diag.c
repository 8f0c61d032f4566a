#include "diag/diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "tables/tables.h"

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

static void emit(px_diags *d, px_severity sev, const px_loc *loc, int id, va_list ap)
{
	if (sev == PX_SEV_ERROR)
		d->nerrors++;
	if (d->silenced || !d->fn)
		return;
	if (sev == PX_SEV_ERROR && d->max_errors && d->nerrors > d->max_errors) {
		d->silenced = true;
		char msg[96];
		snprintf(msg, sizeof msg, px_diag_texts[PX_D_too_many_errors].text, d->max_errors);
		px_diagnostic t = {PX_SEV_ERROR, d->file, 0, 0, msg, NULL, 0};
		d->fn(d->ctx, &t);
		return;
	}
	char msg[1024];
	vsnprintf(msg, sizeof msg, px_diag_texts[id].text, ap);
	px_diagnostic t = {sev, d->file, 0, 0, msg, NULL, 0};
	if (loc && loc->line) {
		t.line = loc->line;
		t.col = loc->col;
		if (d->src && loc->off <= d->len) {
			size_t b = loc->off, e = loc->off;
			while (b > 0 && d->src[b - 1] != '\n')
				b--;
			while (e < d->len && d->src[e] != '\n' && d->src[e] != '\r')
				e++;
			t.source_line = d->src + b;
			t.source_len = e - b;
		}
	}
	d->fn(d->ctx, &t);
}

void px_error(px_diags *d, px_loc loc, int id, ...)
{
	va_list ap;
	va_start(ap, id);
	emit(d, PX_SEV_ERROR, &loc, id, ap);
	va_end(ap);
}

void px_report(px_diags *d, px_severity sev, px_loc loc, int id, ...)
{
	va_list ap;
	va_start(ap, id);
	emit(d, sev, &loc, id, ap);
	va_end(ap);
}

void px_error_noloc(px_diags *d, int id, ...)
{
	va_list ap;
	va_start(ap, id);
	emit(d, PX_SEV_ERROR, NULL, id, ap);
	va_end(ap);
}
