/* ptxas's verdict on a text read back to MIR lines through the `.loc` line
 * before each PTX line (--lineinfo). */
#include "refused.h"

#include <stdlib.h>
#include <string.h>

static void add(unsigned **v, size_t *n, unsigned x)
{
	/* room for 4, then doubled each time it is full */
	if (!*n || (*n >= 4 && (*n & (*n - 1)) == 0))
		*v = realloc(*v, (*n ? 2 * *n : 4) * sizeof **v);
	(*v)[(*n)++] = x;
}

static int cmp(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
	return (x > y) - (x < y);
}

static void uniq(unsigned *v, size_t *n)
{
	if (*n < 2) /* v may be NULL, which qsort must not be given */
		return;
	qsort(v, *n, sizeof *v, cmp);
	size_t u = 0;
	for (size_t i = 0; i < *n; i++)
		if (!u || v[u - 1] != v[i])
			v[u++] = v[i];
	*n = u;
}

bool pv_has(const unsigned *v, size_t n, unsigned x) { return n && bsearch(&x, v, n, sizeof x, cmp) != NULL; }

/* "\t.loc 1 23 4": 23 */
static bool loc_line(const char *l, unsigned *line)
{
	while (*l == ' ' || *l == '\t')
		l++;
	if (strncmp(l, ".loc ", 5) != 0)
		return false;
	char *e;
	strtoul(l + 5, &e, 10);
	*line = (unsigned)strtoul(e, NULL, 10);
	return true;
}

/* ^\.((visible|weak) +\.)?(entry|func) */
static bool header(const char *l)
{
	if (*l++ != '.')
		return false;
	if (strncmp(l, "visible ", 8) == 0 || strncmp(l, "weak ", 5) == 0) {
		l += *l == 'v' ? 7 : 4;
		while (*l == ' ')
			l++;
		if (*l++ != '.')
			return false;
	}
	return strncmp(l, "entry", 5) == 0 || strncmp(l, "func", 4) == 0;
}

void pv_read_back(const pv_text *t, pv_back *b)
{
	*b = (pv_back){0};
	/* the refused PTX lines */
	unsigned *bad = NULL;
	size_t nbad = 0;
	bool verdict_ok = strcmp(t->verdict, "ok") == 0;
	if (!verdict_ok) {
		const char *p = strchr(t->verdict, ':');
		for (p = p ? p + 1 : NULL; p && *p; p += *p == ',') {
			char *e;
			add(&bad, &nbad, (unsigned)strtoul(p, &e, 10));
			p = e;
		}
		b->any = true;
		if (!nbad)
			add(&b->bad, &b->nbad, 0);
	}
	unsigned cur = 0, fn = 0, n = 0;
	for (const char *l = t->ptx; *l;) {
		const char *e = strchr(l, '\n');
		n++;
		unsigned ml;
		bool in_bad = nbad && pv_has(bad, nbad, n);
		if (t->whole && header(l)) {
			fn = in_bad ? n : 0;
			cur = 0;
		} else {
			if (*l == '}')
				fn = 0;
			if (loc_line(l, &ml)) {
				cur = ml;
				add(&b->stmt, &b->nstmt, ml);
				if (fn) {
					b->whole = realloc(b->whole, (b->nwhole + 1) * sizeof *b->whole);
					b->whole[b->nwhole][0] = cur;
					b->whole[b->nwhole++][1] = fn;
				}
			} else {
				if (*l == '}' || strncmp(l, ".visible", 8) == 0 || strncmp(l, ".weak", 5) == 0 ||
				    strncmp(l, ".entry", 6) == 0 || strncmp(l, ".func", 5) == 0)
					cur = 0;
				if (in_bad) {
					add(&b->bad, &b->nbad, cur);
					if (cur)
						add(&b->raw, &b->nraw, cur);
				}
			}
		}
		if (!e)
			break;
		l = e + 1;
	}
	uniq(b->stmt, &b->nstmt);
	uniq(b->bad, &b->nbad);
	free(bad);
}

unsigned pv_whole_fn(const pv_back *b, unsigned line)
{
	unsigned fn = 0;
	for (size_t i = 0; i < b->nwhole; i++)
		if (b->whole[i][0] == line)
			fn = b->whole[i][1];
	return fn;
}

void pv_back_free(pv_back *b)
{
	free(b->bad), free(b->stmt), free(b->whole), free(b->raw);
	*b = (pv_back){0};
}
