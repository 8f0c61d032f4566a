/* Translating a case through the library as `ptxemit -j1 --lineinfo` does,
 * with the options of its first line, for a target and a PTX version. */
#include "translate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct collect {
	pv_refusal *v;
	size_t n, cap;
	char *first; /* the first diagnostic's first line, for one with no MIR line */
} collect;

static void on_diag(void *ctx, const px_diagnostic *d)
{
	collect *c = ctx;
	if (!c->first) {
		char buf[4096];
		px_diagnostic_format(d, buf, sizeof buf);
		buf[strcspn(buf, "\n")] = '\0';
		c->first = pv_strdup(buf);
	}
	/* an error at a MIR line (one placed at a DSL line names another file) */
	if (d->severity != PX_SEV_ERROR || !d->line || d->dsl_file)
		return;
	if (c->n == c->cap)
		c->v = realloc(c->v, (c->cap = c->cap ? 2 * c->cap : 8) * sizeof *c->v);
	char buf[4096];
	px_diagnostic_format(d, buf, sizeof buf);
	buf[strcspn(buf, "\n")] = '\0';
	/* the message as the formatted line gives it (a warning made an error keeps its option) */
	const char *m = strstr(buf, ": error: ");
	c->v[c->n++] = (pv_refusal){d->line, pv_strdup(m ? m + 9 : d->message)};
}

static int translate(const pv_case *c, const char *target, const char *ptx, bool own, bool all, char **out,
                     pv_refusals *no)
{
	px_options o;
	px_options_default(&o);
	o.jobs = 1;
	o.lineinfo = true;
	if (all)
		o.max_errors = 0;
	for (int i = 0; i < c->nopts; i++) {
		const char *a = c->opts[i];
		if (strcmp(a, "--lineinfo") == 0)
			o.lineinfo = true;
		else if (strcmp(a, "-g") == 0)
			o.debug = true;
		else if (strncmp(a, "--target=", 9) == 0) {
			if (own)
				o.target = a + 9;
		} else if (strncmp(a, "--ptx=", 6) == 0) {
			if (own)
				o.ptx = a + 6;
		} else if (strncmp(a, "--assume-grid=", 14) == 0) {
			/* X[,Y[,Z]], each a count of CTAs */
			char *end = (char *)a + 13;
			for (int k = 0; k < 3 && *end && (k == 0 || *end == ','); k++)
				o.assume_grid[k] = (unsigned)strtoul(end + 1, &end, 10);
			if (*end) {
				fprintf(stderr, "prover: %s: a grid the prover cannot read: %s\n", c->mir, a);
				return -1;
			}
		} else if (a[0] != '-' || (a[1] != 'W' && a[1] != 'w') || px_options_warning(&o, a) != 0) {
			fprintf(stderr, "prover: %s: an option the prover does not know: %s\n", c->mir, a);
			return -1;
		}
	}
	if (target)
		o.target = target;
	if (ptx)
		o.ptx = ptx;
	collect col = {0};
	size_t len;
	*out = NULL;
	int nerr = px_translate(c->name, c->src, c->len, &o, on_diag, &col, out, &len);
	if (no) {
		no->v = col.v;
		no->n = col.n;
		no->first = col.first;
	} else {
		for (size_t i = 0; i < col.n; i++)
			free(col.v[i].msg);
		free(col.v), free(col.first);
	}
	return nerr;
}

int pv_translate(const pv_case *c, const char *target, const char *ptx, bool own, char **out, pv_refusals *no)
{
	return translate(c, target, ptx, own, !own, out, no);
}

int pv_translate_at(const pv_case *c, const char *ptx, char **out, pv_refusals *no)
{
	return translate(c, NULL, ptx, true, true, out, no);
}

void pv_refusals_free(pv_refusals *no)
{
	for (size_t i = 0; i < no->n; i++)
		free(no->v[i].msg);
	free(no->v), free(no->first);
	*no = (pv_refusals){0};
}

void pv_case_free(pv_case *c)
{
	for (int i = 0; i < c->nopts; i++)
		free(c->opts[i]);
	free(c->mir), free(c->opts), free(c->name), free(c->src);
}

int pv_read_cases(const char *srcdir, const char *list, pv_case **cases, size_t *ncases)
{
	char *text = pv_read_file(list, NULL);
	if (!text) {
		perror(list);
		return -1;
	}
	size_t n = 0, cap = 64;
	pv_case *v = pv_alloc(cap * sizeof *v);
	for (char *l = strtok(text, "\n"); l; l = strtok(NULL, "\n")) {
		if (n == cap)
			v = realloc(v, (cap *= 2) * sizeof *v);
		pv_case *c = &v[n];
		*c = (pv_case){0};
		char *save, *w = strtok_r(l, " ", &save);
		if (!w)
			continue;
		c->mir = pv_strdup(w);
		c->opts = pv_alloc(16 * sizeof *c->opts);
		while ((w = strtok_r(NULL, " ", &save)) && c->nopts < 16)
			c->opts[c->nopts++] = pv_strdup(w);
		/* named by its path, so that the text (and ptxas's cached verdict)
		 * does not change when a case is added before it */
		char *name = pv_printf("in/%s", c->mir);
		for (char *p = name + 3; *p; p++)
			if (*p == '/')
				*p = '_';
		c->name = name;
		char *path = pv_printf("%s/%s", srcdir, c->mir);
		c->src = pv_read_file(path, &c->len);
		if (!c->src) {
			perror(path);
			return -1;
		}
		free(path);
		n++;
	}
	free(text);
	*cases = v;
	*ncases = n;
	return 0;
}
