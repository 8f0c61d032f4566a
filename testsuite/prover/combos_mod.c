/* The combination proof's modules: the generator's statements gathered into
 * one MIR module per lowest target and PTX version, a kernel per operation
 * and cta_group (ptxas refuses two in one function), at most MOST statements
 * a kernel (ptxas takes superlinear time over a long function, wgmma's most
 * of all), the values a kernel uses first; and their translation, the
 * refused lines blanked until ptxemit accepts the rest. */
#include "combos.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MOST = 200 };

bool cb_next_line(const char **p, const char **line, size_t *len)
{
	if (!**p)
		return false;
	const char *e = strchr(*p, '\n');
	*line = *p;
	*len = e ? (size_t)(e - *p) : strlen(*p);
	*p = e ? e + 1 : *p + *len;
	return true;
}

static unsigned ptx_num(const char *v)
{
	return (unsigned)atoi(v) * 100 + (unsigned)atoi(strchr(v, '.') ? strchr(v, '.') + 1 : "0");
}

const char *cb_later_ptx(const char *a, const char *b)
{
	return ptx_num(b) > ptx_num(a) ? b : a;
}

typedef struct kernel {
	char *name;
	size_t *pl, npl, *sl, nsl;
	bool pa;
} kernel;

typedef struct mkey {
	char *key, *target, *ptx;
	kernel *k;
	size_t nk;
	bool gl, cn;
} mkey;

/* whether s names sym as a whole word */
static bool names(const char *s, const char *sym)
{
	size_t n = strlen(sym);
	for (const char *p = strstr(s, sym); p; p = strstr(p + 1, sym)) {
		char c = p[n];
		if (!(c == '_' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')))
			return true;
	}
	return false;
}

static void push(size_t **v, size_t *n, size_t x)
{
	if ((*n & (*n - 1)) == 0 || !*n)
		*v = realloc(*v, (*n ? 2 * *n : 1) * sizeof **v);
	(*v)[(*n)++] = x;
}

/* one module's text; its statement at each line where map is given */
static char *module_text(const mkey *mk, const cb_stmt *s, const char *comment, bool twin, bool main_,
                         size_t *len, unsigned **map, unsigned *nlines)
{
	px_buf b;
	px_buf_init(&b);
	px_buf_printf(&b, "; %s %s\ntarget %s ptx %s\nshared @sh : b64[64] align 128\n", comment, mk->target,
	              mk->target, mk->ptx);
	unsigned ln = 3, cap = 64;
	if (map)
		*map = calloc(cap, sizeof **map);
	if (mk->gl)
		px_buf_puts(&b, "global @gl : b64[64] align 16\n"), ln++;
	if (mk->cn)
		px_buf_puts(&b, "const @cn : b64[64] align 16\n"), ln++;
#define LINE(text, idx)                                                                                              \
	do {                                                                                                         \
		px_buf_printf(&b, "%s\n", text);                                                                     \
		ln++;                                                                                                \
		if (map) {                                                                                           \
			if (ln >= cap) {                                                                             \
				*map = realloc(*map, 2 * cap * sizeof **map);                                        \
				memset(*map + cap, 0, cap * sizeof **map);                                           \
				cap *= 2;                                                                            \
			}                                                                                            \
			(*map)[ln] = (unsigned)(idx) + 1;                                                            \
		}                                                                                                    \
	} while (0)
	for (size_t j = 0; j < mk->nk; j++) {
		const kernel *k = &mk->k[j];
		for (size_t p = 0; p * MOST < k->nsl || (main_ && p == 0); p++) {
			px_buf_printf(&b, "kernel @%s_%zu(%%p: ptr, %%g: ptr global%s) {\n", k->name, p,
			              k->pa ? ", %pa: b8[64] align 16" : "");
			ln++;
			/* a local array before the values: MIR declares it before
			 * any statement of the body */
			for (int pass = 0; pass <= 1; pass++)
				for (size_t l = 0; l < k->npl; l++)
					if ((strncmp(s[k->pl[l]].text, "  local ", 8) == 0) == !pass)
						LINE(s[k->pl[l]].text, k->pl[l]);
			for (size_t l = p * MOST; l < k->nsl && l < (p + 1) * MOST; l++)
				LINE(twin ? s[k->sl[l]].f[0] : s[k->sl[l]].text, k->sl[l]);
			px_buf_puts(&b, "  ret\n}\n");
			ln += 2;
		}
	}
#undef LINE
	if (map && ln >= cap) {
		*map = realloc(*map, (ln + 1) * sizeof **map);
		memset(*map + cap, 0, (ln + 1 - cap) * sizeof **map);
	}
	if (nlines)
		*nlines = ln;
	return px_buf_take(&b, len);
}

static int by_key(const void *a, const void *b)
{
	return strcmp(((const cb_module *)a)->key, ((const cb_module *)b)->key);
}

void cb_build(const char *gen, char stmt, char value, const char *comment, bool twins, cb_modules *out)
{
	*out = (cb_modules){0};
	mkey *keys = NULL;
	size_t nkeys = 0, cap = 0;
	pv_map kindex = {0}, kernindex = {0};
	const char *p = gen, *line;
	size_t len;
	while (cb_next_line(&p, &line, &len)) {
		if (len < 2 || (line[0] != stmt && line[0] != value) || line[1] != ' ')
			continue;
		char *l = strndup(line, len), *save = NULL;
		char *head = strtok_r(l, "\t", &save), *w[6] = {0};
		char *rest = strtok_r(NULL, "", &save), *hsave = NULL;
		size_t nw = 0;
		for (char *t = strtok_r(head, " ", &hsave); t && nw < 6; t = strtok_r(NULL, " ", &hsave))
			w[nw++] = t;
		if (nw < 5 || !rest) {
			free(l);
			continue;
		}
		/* the statement: its text, then its further fields */
		cb_stmt st = {.value = line[0] == value};
		st.f = pv_alloc(8 * sizeof *st.f);
		for (const char *f = rest;; f += strcspn(f, "\t") + 1) {
			char *v = strndup(f, strcspn(f, "\t"));
			if (!st.text)
				st.text = v;
			else if (st.nf < 8)
				st.f[st.nf++] = v;
			else
				free(v);
			if (!f[strcspn(f, "\t")])
				break;
		}
		if (out->ns == cap)
			out->s = realloc(out->s, (cap = cap ? 2 * cap : 1024) * sizeof *out->s);
		size_t idx = out->ns++;
		out->s[idx] = st;
		char *key = pv_printf("%s-%s", w[2], w[3]);
		char *kname = pv_printf("%s_%s_%s_%s", w[1], w[2], w[3], w[4]);
		for (char *c = kname; *c; c++)
			if (*c == '.')
				*c = '_';
		bool fresh;
		void **ks = pv_map_slot(&kindex, key, &fresh);
		if (fresh) {
			keys = realloc(keys, (nkeys + 1) * sizeof *keys);
			keys[nkeys] = (mkey){.key = pv_strdup(key), .target = pv_strdup(w[2]), .ptx = pv_strdup(w[3])};
			*ks = (void *)(uintptr_t)(nkeys++ + 1);
		}
		mkey *mk = &keys[(uintptr_t)*ks - 1];
		char *kk = pv_printf("%s %s", key, kname);
		void **kslot = pv_map_slot(&kernindex, kk, &fresh);
		if (fresh) {
			mk->k = realloc(mk->k, (mk->nk + 1) * sizeof *mk->k);
			mk->k[mk->nk] = (kernel){.name = pv_strdup(kname)};
			*kslot = (void *)(uintptr_t)(mk->nk++ + 1);
		}
		kernel *k = &mk->k[(uintptr_t)*kslot - 1];
		if (st.value)
			push(&k->pl, &k->npl, idx);
		else
			push(&k->sl, &k->nsl, idx);
		/* the global and const arrays and the by-value parameter, only
		 * where used (a ruled statement's too, put back in its PTX) */
		const char *texts[] = {st.text, stmt == 'R' && st.nf ? st.f[0] : ""};
		for (size_t i = 0; i < 2; i++) {
			mk->gl |= names(texts[i], "@gl");
			mk->cn |= names(texts[i], "@cn");
			k->pa |= names(texts[i], "%pa");
		}
		free(key), free(kname), free(kk), free(l);
	}
	out->m = pv_alloc((nkeys + 1) * sizeof *out->m);
	for (size_t i = 0; i < nkeys; i++) {
		cb_module *m = &out->m[out->nm++];
		*m = (cb_module){.key = keys[i].key, .target = keys[i].target, .ptx = keys[i].ptx};
		m->mir = module_text(&keys[i], out->s, comment, false, twins, &m->mirlen, &m->line, &m->nlines);
		if (twins)
			m->twin = module_text(&keys[i], out->s, comment, true, twins, &m->twinlen, NULL, NULL);
		for (size_t j = 0; j < keys[i].nk; j++)
			free(keys[i].k[j].name), free(keys[i].k[j].pl), free(keys[i].k[j].sl);
		free(keys[i].k);
	}
	if (out->nm)
		qsort(out->m, out->nm, sizeof *out->m, by_key);
	free(keys);
	pv_map_free(&kindex), pv_map_free(&kernindex);
}

void cb_modules_free(cb_modules *m)
{
	for (size_t i = 0; i < m->ns; i++) {
		for (size_t k = 0; k < m->s[i].nf; k++)
			free(m->s[i].f[k]);
		free(m->s[i].f), free(m->s[i].text);
	}
	for (size_t i = 0; i < m->nm; i++)
		free(m->m[i].key), free(m->m[i].target), free(m->m[i].ptx), free(m->m[i].mir), free(m->m[i].twin),
		    free(m->m[i].line);
	free(m->s), free(m->m);
	*m = (cb_modules){0};
}

void cb_tr_free(cb_tr *t)
{
	for (size_t i = 0; i < t->nno; i++)
		free(t->no[i].msg);
	free(t->no), free(t->ptx), free(t->at);
	*t = (cb_tr){0};
}

bool cb_refused_at(const cb_tr *t, unsigned line)
{
	return line <= t->maxline && t->at && t->at[line];
}

/* the lines refused, as a table by line (a module has thousands) */
static bool *lines_of(const pv_refusal *no, size_t n, unsigned *maxline)
{
	*maxline = 0;
	for (size_t i = 0; i < n; i++)
		if (no[i].line > *maxline)
			*maxline = no[i].line;
	bool *at = calloc(*maxline + 1, sizeof *at);
	for (size_t i = 0; i < n; i++)
		at[no[i].line] = true;
	return at;
}

static void add_no(cb_tr *t, unsigned line, const char *msg)
{
	if ((t->nno & (t->nno - 1)) == 0)
		t->no = realloc(t->no, (t->nno ? 2 * t->nno : 1) * sizeof *t->no);
	t->no[t->nno++] = (pv_refusal){line, pv_strdup(msg ? msg : "")};
}

char *cb_blank(const char *src, const pv_refusal *no, size_t nno, size_t *len)
{
	unsigned maxline;
	bool *at = lines_of(no, nno, &maxline);
	px_buf b;
	px_buf_init(&b);
	const char *p = src, *line;
	size_t n;
	for (unsigned ln = 1; cb_next_line(&p, &line, &n); ln++) {
		if (ln > maxline || !at[ln])
			px_buf_put(&b, line, n);
		px_buf_putc(&b, '\n');
	}
	free(at);
	return px_buf_take(&b, len);
}

void cb_translate(const char *name, const char *mir, size_t len, const char *target, const char *ptx, unsigned tries,
                  cb_tr *out)
{
	*out = (cb_tr){0};
	pv_case c = {.mir = (char *)name, .name = (char *)name, .src = pv_strdup(mir), .len = len};
	for (unsigned n = 0;; n++) {
		pv_refusals no = {0};
		char *ptxout = NULL;
		int nerr = pv_translate(&c, target, ptx, false, &ptxout, &no);
		if (nerr == 0 && ptxout) {
			out->ptx = ptxout;
			pv_refusals_free(&no);
			break;
		}
		free(ptxout);
		/* a failure that is no refusal at a line; or the refusals of
		 * every round but the last, which fails */
		bool last = tries && n >= tries;
		if (!no.n || last)
			add_no(out, 0, no.first);
		else
			for (size_t i = 0; i < no.n; i++)
				add_no(out, no.v[i].line, no.v[i].msg);
		if (!no.n || n >= tries) {
			pv_refusals_free(&no);
			break;
		}
		char *b = cb_blank(c.src, no.v, no.n, &c.len);
		free(c.src);
		c.src = b;
		pv_refusals_free(&no);
	}
	free(c.src);
	out->at = lines_of(out->no, out->nno, &out->maxline);
}
