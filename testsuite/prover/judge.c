/* ptxas's verdict on a PTX text, line by line, through src/cubin's runner.
 *
 * Under -c, ptxas reports every line its parser refuses, but the checks of
 * later phases run only on a text the parser accepted: so the statements of
 * the lines it named are blanked (a statement being a `.loc` line and the
 * lines up to the next; labels stay, so that no branch loses its target) and
 * ptxas is asked again, until it assembles what is left or names no new
 * line, at most 8 rounds. Line numbers do not move: a blanked line stays,
 * empty. A fatal error names one line and stops ptxas (a video selector it
 * cannot parse): such rounds do not count against the 8. -O0: the verdicts
 * are the parser's and the code generator's, the same at every level, and
 * -O0 spares the optimizer's time on big texts.
 *
 * Finalizing (no -c, as the driver loads a module) adds checks over the call
 * graph that ptxas 13.0 leaves out under -c: a kernel's static shared memory
 * and one tcgen05 CTA granularity a function. ptxas then names a function,
 * not a line: the verdict names the line of its .entry or .func header.
 *
 * A verdict reached by crashing (a signal; ptxas's own refusals exit 255) or
 * by running out of memory, file descriptors or disk says nothing lasting
 * about the text: it serves this run and is never cached. */
#include "prover.h"
#include "tables/tables.h"

#include <ctype.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cubin/cubin.h"

const char *pv_ptxas_arch(const char *target)
{
	/* data/targets.yaml's ptxas: column, for the suite's ptxas (CUDA 13) */
	const px_target *t = px_target_lookup(target, strlen(target));
	return t && t->ptxas_arch ? t->ptxas_arch : target;
}

/* the first 16 hex digits of the hash of ptxas's version and how it is asked */
static int options_key(const char *ptxas, const char *how, char key[17])
{
	char *argv[] = {(char *)ptxas, "--version", NULL};
	char *v = pv_capture(argv);
	if (!v)
		return -1;
	char *text = pv_printf("%s%s\n", v, how);
	char hex[65];
	pv_sha256(text, strlen(text), hex);
	memcpy(key, hex, 16);
	key[16] = '\0';
	free(v), free(text);
	return 0;
}

int pv_judge_init(pv_judge *j, const char *ptxas, const char *cache, unsigned jobs)
{
	*j = (pv_judge){.ptxas = ptxas, .cache = cache, .jobs = jobs ? jobs : 1};
	if (options_key(ptxas, "-O0 lines", j->lines_key) || options_key(ptxas, "-O0 whole", j->whole_key))
		return -1;
	return 0;
}

/* whether a failed run judged nothing about its text */
static bool gone(const px_ptxas_run *r)
{
	if (r->status > 128 && r->status != 255)
		return true;
	static const char *const words[] = {"internal error", "internal compiler", "out of memory",
	                                    "memory allocation", "bad_alloc", "cannot allocate",
	                                    "too many open files", "no space left"};
	const char *log = r->log ? r->log : "";
	for (size_t i = 0; i < sizeof words / sizeof *words; i++) {
		size_t n = strlen(words[i]);
		for (const char *p = log; *p; p++)
			if (strncasecmp(p, words[i], n) == 0)
				return true;
	}
	return false;
}

/* the lines of the text, in place: line[i] starts line i + 1 */
typedef struct lines {
	char **line;
	bool *isloc; /* as first read: blanking does not move a statement's start */
	size_t n;
} lines;

static void split(char *text, lines *ls)
{
	size_t n = 0;
	for (char *p = text; *p; p++)
		n += *p == '\n';
	ls->line = pv_alloc((n + 2) * sizeof *ls->line);
	ls->isloc = pv_alloc((n + 2) * sizeof *ls->isloc);
	ls->n = 0;
	for (char *p = text; *p;) {
		char *e = strchr(p, '\n');
		ls->line[ls->n++] = p;
		if (!e)
			break;
		*e = '\0';
		p = e + 1;
	}
	for (size_t i = 0; i < ls->n; i++) {
		const char *s = ls->line[i];
		while (*s == ' ' || *s == '\t')
			s++;
		ls->isloc[i] = strncmp(s, ".loc", 4) == 0 && (s[4] == ' ' || s[4] == '\t' || !s[4]);
	}
}

static const char *skip_blank(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

static bool is_label(const char *s)
{
	if (!(isalpha((unsigned char)*s) || *s == '_' || *s == '$'))
		return false;
	for (s++; isalnum((unsigned char)*s) || *s == '_' || *s == '$'; s++)
		;
	return s[0] == ':' && !s[1];
}

/* blank the statement of each line in bad (1-based, ascending) */
static void blank_statements(lines *ls, const unsigned *bad, size_t nbad)
{
	static char empty[] = "";
	for (size_t b = 0; b < nbad; b++) {
		size_t l = bad[b] - 1;
		if (l >= ls->n)
			continue;
		const char *t = skip_blank(ls->line[l]);
		if (*t == '.' && !ls->isloc[l] && strncmp(t, ".loc", 4) != 0 && strncmp(t, ".pragma", 7) != 0) {
			ls->line[l] = empty;
			continue;
		}
		size_t s = l;
		while (s > 0 && !ls->isloc[s] && *skip_blank(ls->line[s]) != '{' && *skip_blank(ls->line[s]) != '}')
			s--;
		if (!ls->isloc[s]) {
			ls->line[l] = empty;
			continue;
		}
		for (size_t k = s; k < ls->n && (k == s || !ls->isloc[k]) && *skip_blank(ls->line[k]) != '}'; k++)
			if (!is_label(ls->line[k]))
				ls->line[k] = empty;
	}
}

static char *join(const lines *ls, size_t *len)
{
	size_t n = 0;
	for (size_t i = 0; i < ls->n; i++)
		n += strlen(ls->line[i]) + 1;
	char *t = pv_alloc(n + 1), *p = t;
	for (size_t i = 0; i < ls->n; i++) {
		size_t k = strlen(ls->line[i]);
		memcpy(p, ls->line[i], k);
		p += k;
		*p++ = '\n';
	}
	*len = n;
	return t;
}

static int cmp_unsigned(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
	return (x > y) - (x < y);
}

/* the lines ptxas's log names ("ptxas FILE, line N; error ..." or fatal),
 * sorted, each once; fatal: whether one is a fatal error's */
static size_t named_lines(const char *log, unsigned **out, bool *fatal)
{
	size_t n = 0, cap = 16;
	unsigned *v = pv_alloc(cap * sizeof *v);
	*fatal = false;
	for (const char *p = log; p && *p;) {
		const char *e = strchr(p, '\n');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		const char *comma = memchr(p, ',', len);
		unsigned line;
		int used = 0;
		if (strncmp(p, "ptxas ", 6) == 0 && comma && sscanf(comma, ", line %u;%n", &line, &used) == 1 && used &&
		    used < (int)(p + len - comma) && comma[used] == ' ') {
			const char *w = comma + used + 1;
			bool err = strncmp(w, "error", 5) == 0, fat = strncmp(w, "fatal", 5) == 0;
			/* "line" and the number: nothing but digits between */
			const char *d = comma + 7;
			while (*d >= '0' && *d <= '9')
				d++;
			if ((err || fat) && *d == ';' && d > comma + 7) {
				if (n == cap)
					v = realloc(v, (cap *= 2) * sizeof *v);
				v[n++] = line;
				*fatal |= fat;
			}
		}
		p = e ? e + 1 : NULL;
	}
	qsort(v, n, sizeof *v, cmp_unsigned);
	size_t u = 0;
	for (size_t i = 0; i < n; i++)
		if (!u || v[u - 1] != v[i])
			v[u++] = v[i];
	*out = v;
	return u;
}

static char *list(const char *head, const unsigned *a, size_t na, const unsigned *b, size_t nb)
{
	size_t cap = strlen(head) + 12 * (na + nb) + 1, n = 0;
	char *s = pv_alloc(cap);
	n += (size_t)snprintf(s, cap, "%s", head);
	for (size_t i = 0; i < na; i++)
		n += (size_t)snprintf(s + n, cap - n, "%s%u", n > strlen(head) ? "," : "", a[i]);
	for (size_t i = 0; i < nb; i++)
		n += (size_t)snprintf(s + n, cap - n, "%s%u", n > strlen(head) ? "," : "", b[i]);
	return s;
}

/* the line-by-line verdict; -1 where ptxas did not run */
static int judge_lines(const char *ptxas, const char *arch, const char *ptx, char **verdict, bool *transient)
{
	px_options o;
	px_options_default(&o);
	o.opt_level = 0;
	o.ptxas_options = "-c";
	char *text = pv_strdup(ptx);
	size_t len = strlen(text);
	lines ls = {0};
	unsigned *had = pv_alloc(sizeof *had);
	size_t nhad = 0;
	int round = 0;
	*transient = false;
	*verdict = NULL;
	char *work = NULL;
	for (;;) {
		px_ptxas_run r;
		px_ptxas_run_text(ptxas, &o, arch, false, work ? work : text, work ? strlen(work) : len, &r);
		if (r.status < 0) {
			fprintf(stderr, "prover: %s: %s\n", ptxas, strerror(r.errno_));
			px_ptxas_run_free(&r);
			break;
		}
		if (r.status == 0) {
			*verdict = nhad ? list("no:", had, nhad, NULL, 0) : pv_strdup("ok");
			px_ptxas_run_free(&r);
			break;
		}
		*transient |= gone(&r);
		unsigned *named;
		bool fatal;
		size_t nnamed = named_lines(r.log, &named, &fatal);
		px_ptxas_run_free(&r);
		if (!nnamed) {
			*verdict = nhad ? list("no:", had, nhad, NULL, 0) : pv_strdup("no");
			free(named);
			break;
		}
		/* the lines not named before */
		unsigned *fresh = pv_alloc(nnamed * sizeof *fresh);
		size_t nfresh = 0;
		for (size_t i = 0; i < nnamed; i++)
			if (!bsearch(&named[i], had, nhad, sizeof *had, cmp_unsigned))
				fresh[nfresh++] = named[i];
		free(named);
		if (!nfresh || round >= 8) {
			/* ptxas refuses something blanking cannot remove */
			*verdict = list("no:", had, nhad, fresh, nfresh);
			free(fresh);
			break;
		}
		had = realloc(had, (nhad + nfresh) * sizeof *had);
		memcpy(had + nhad, fresh, nfresh * sizeof *fresh);
		nhad += nfresh;
		qsort(had, nhad, sizeof *had, cmp_unsigned);
		if (fatal)
			round--;
		if (!ls.n)
			split(text, &ls);
		blank_statements(&ls, fresh, nfresh);
		free(fresh);
		free(work);
		size_t wl;
		work = join(&ls, &wl);
		round++;
	}
	free(work);
	free(ls.line), free(ls.isloc);
	free(had);
	free(text);
	return *verdict ? 0 : -1;
}

/* the name a header line declares: ".visible .entry k(" gives "k" */
static bool header_names(const char *l, const char *name)
{
	if (*l != '.')
		return false;
	const char *p = l + 1;
	if (strncmp(p, "visible", 7) == 0 || strncmp(p, "weak", 4) == 0) {
		p += *p == 'v' ? 7 : 4;
		if (*p != ' ')
			return false;
		while (*p == ' ')
			p++;
		if (*p++ != '.')
			return false;
	}
	if (strncmp(p, "entry", 5) != 0 && strncmp(p, "func", 4) != 0)
		return false;
	/* after the last "entry " or "func ", a result list, then the name */
	const char *s = NULL;
	for (const char *q = l; *q; q++) {
		if (strncmp(q, "entry ", 6) == 0)
			s = q + 6;
		else if (strncmp(q, "func ", 5) == 0)
			s = q + 5;
	}
	if (!s)
		return false;
	while (*s == ' ')
		s++;
	if (*s == '(') {
		const char *c = strchr(s, ')');
		if (c && c[1] == ' ') {
			s = c + 1;
			while (*s == ' ')
				s++;
		}
	}
	size_t n = strcspn(s, "( ");
	return n == strlen(name) && strncmp(s, name, n) == 0;
}

/* the whole program's verdict */
static int judge_whole(const char *ptxas, const char *arch, const char *ptx, char **verdict, bool *transient)
{
	px_options o;
	px_options_default(&o);
	o.opt_level = 0;
	px_ptxas_run r;
	px_ptxas_run_text(ptxas, &o, arch, false, ptx, strlen(ptx), &r);
	*verdict = NULL;
	*transient = false;
	if (r.status < 0) {
		fprintf(stderr, "prover: %s: %s\n", ptxas, strerror(r.errno_));
		return -1;
	}
	if (r.status == 0) {
		*verdict = pv_strdup("ok");
		px_ptxas_run_free(&r);
		return 0;
	}
	*transient = gone(&r);
	char *text = pv_strdup(ptx);
	lines ls = {0};
	split(text, &ls);
	bool *hit = pv_alloc(ls.n + 1);
	for (const char *p = r.log; p && *p;) {
		const char *e = strchr(p, '\n');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		if (strncmp(p, "ptxas error", 11) == 0) {
			const char *q = skip_blank(p + 11);
			if (*q == ':') {
				q = skip_blank(q + 1);
				if (strncmp(q, "Entry ", 6) == 0)
					q += 6;
				if ((*q == 'F' || *q == 'f') && strncmp(q + 1, "unction '", 9) == 0) {
					q += 10;
					const char *end = memchr(q, '\'', (size_t)(p + len - q));
					if (end) {
						char *name = pv_printf("%.*s", (int)(end - q), q);
						for (size_t i = 0; i < ls.n; i++)
							hit[i] |= header_names(ls.line[i], name);
						free(name);
					}
				}
			}
		}
		p = e ? e + 1 : NULL;
	}
	unsigned *v = pv_alloc((ls.n + 1) * sizeof *v);
	size_t nv = 0;
	for (size_t i = 0; i < ls.n; i++)
		if (hit[i])
			v[nv++] = (unsigned)i + 1;
	*verdict = nv ? list("no:", v, nv, NULL, 0) : pv_strdup("no");
	free(v), free(hit), free(ls.line), free(ls.isloc), free(text);
	px_ptxas_run_free(&r);
	return 0;
}

/* one question for ptxas */
typedef struct ask {
	const char *ptx;
	const char *arch;
	char *key;
	char *verdict;
	bool transient;
	int st;
} ask;

typedef struct pool {
	const char *ptxas;
	const char *cache;
	ask *asks;
	size_t n;
	bool whole;
	atomic_size_t next;
	atomic_int failed;
} pool;

/* Each verdict goes into the cache as soon as ptxas gives it, so that a run
 * stopped halfway keeps what it learnt, and runs at once share it. */
static void *worker(void *arg)
{
	pool *p = arg;
	for (size_t i; (i = atomic_fetch_add(&p->next, 1)) < p->n;) {
		ask *a = &p->asks[i];
		a->st = (p->whole ? judge_whole : judge_lines)(p->ptxas, a->arch, a->ptx, &a->verdict, &a->transient);
		if (a->st) {
			atomic_store(&p->failed, 1);
			continue;
		}
		if (a->transient)
			continue;
		char *line = pv_printf("%s %s\n", a->key, a->verdict);
		if (pv_cache_append(p->cache, line, strlen(line)) != 0) {
			perror(p->cache);
			atomic_store(&p->failed, 1);
		}
		free(line);
	}
	return NULL;
}

/* the verdicts of texts idx[0..n) under the way of asking `key`: the cache's,
 * or ptxas's (jobs at a time, then appended to the cache) */
static int ask_all(pv_judge *j, pv_text *t, const size_t *idx, size_t n, bool whole, char **verdicts)
{
	pv_map known = {0}, todo = {0};
	pv_cache_load(j->cache, &known);
	ask *asks = pv_alloc((n + 1) * sizeof *asks);
	size_t nask = 0;
	char **keys = pv_alloc((n + 1) * sizeof *keys);
	for (size_t i = 0; i < n; i++) {
		pv_text *x = &t[idx[i]];
		char hex[65];
		pv_sha256(x->ptx, x->len, hex);
		keys[i] = pv_printf("%s:%s:%s", whole ? j->whole_key : j->lines_key, x->arch, hex);
		bool fresh;
		void **slot = pv_map_slot(&todo, keys[i], &fresh);
		if (fresh && !pv_cache_get(&known, keys[i])) {
			asks[nask] = (ask){.ptx = x->ptx, .arch = x->arch, .key = keys[i]};
			*slot = &asks[nask++];
		} else if (fresh)
			*slot = NULL;
	}
	pool p = {.ptxas = j->ptxas, .cache = j->cache, .asks = asks, .n = nask, .whole = whole};
	unsigned nt = j->jobs < nask ? j->jobs : (unsigned)nask;
	pthread_t *th = pv_alloc((nt + 1) * sizeof *th);
	for (unsigned i = 0; i < nt; i++)
		pthread_create(&th[i], NULL, worker, &p);
	for (unsigned i = 0; i < nt; i++)
		pthread_join(th[i], NULL);
	free(th);
	j->asked += nask;
	int st = 0;
	if (atomic_load(&p.failed)) {
		fprintf(stderr, "prover: ptxas gave no verdict for some texts\n");
		st = -1;
	}
	/* this run's own answers first: another run may have written a
	 * disagreeing line for one of them meanwhile */
	for (size_t i = 0; i < n && st == 0; i++) {
		ask *a = pv_map_get(&todo, keys[i]);
		const char *v = a ? a->verdict : pv_cache_get(&known, keys[i]);
		verdicts[i] = pv_strdup(v ? v : "no");
	}
	for (size_t i = 0; i < nask; i++)
		free(asks[i].verdict);
	for (size_t i = 0; i < n; i++)
		free(keys[i]);
	free(keys), free(asks);
	pv_map_free(&todo);
	pv_cache_free(&known);
	return st;
}

/* a whole program (nothing extern but dynamic shared memory) that declares a
 * shared variable or names a CTA group: the only texts finalizing can judge
 * differently */
static bool finalizing_matters(const char *ptx)
{
	bool matters = false;
	for (const char *p = ptx; *p;) {
		const char *e = strchr(p, '\n');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		if (strncmp(p, ".extern", 7) == 0 &&
		    !((p[7] == ' ' || p[7] == '\t') && strncmp(skip_blank(p + 7), ".shared", 7) == 0))
			return false;
		if (strncmp(p, ".shared", 7) == 0)
			matters = true;
		for (size_t i = 0; i + 11 <= len && !matters; i++)
			matters = strncmp(p + i, "cta_group::", 11) == 0;
		p = e ? e + 1 : p + len;
	}
	return matters;
}

int pv_judge_texts(pv_judge *j, pv_text *t, size_t n, bool whole)
{
	size_t *idx = pv_alloc((n + 1) * sizeof *idx);
	char **v = pv_alloc((n + 1) * sizeof *v);
	for (size_t i = 0; i < n; i++)
		idx[i] = i;
	int st = ask_all(j, t, idx, n, false, v);
	for (size_t i = 0; i < n && st == 0; i++) {
		t[i].verdict = v[i];
		t[i].whole = false;
	}
	if (st == 0 && whole) {
		size_t nw = 0;
		for (size_t i = 0; i < n; i++)
			if (strcmp(t[i].verdict, "ok") == 0 && finalizing_matters(t[i].ptx))
				idx[nw++] = i;
		st = ask_all(j, t, idx, nw, true, v);
		for (size_t i = 0; i < nw && st == 0; i++) {
			if (strcmp(v[i], "ok") != 0) {
				free(t[idx[i]].verdict);
				t[idx[i]].verdict = v[i];
				t[idx[i]].whole = true;
			} else
				free(v[i]);
		}
	}
	free(idx), free(v);
	return st;
}
