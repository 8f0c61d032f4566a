/* prover combos PTXAS CACHE JOBS: the combination proof.
 *
 * Every token combination of every variant of every operation the tables
 * hold (combos_gen.c; the tensor families mma, mma.sp, wmma, wgmma, tcgen05
 * and the matrix copies ldmatrix|stmatrix|movmatrix among them) is judged statement by statement on
 * every target of data/targets.yaml, two-sided:
 *   - on the variant's lowest target and PTX ISA version ptxemit accepts it;
 *   - on any target T where ptxemit accepts it, ptxas assembles what ptxemit
 *     prints for T (otherwise the verdict is "unsound");
 *   - on any target T where ptxemit refuses it, ptxas refuses the PTX ptxemit
 *     prints for the lowest target, retargeted to T with its `.version`
 *     raised to T's lowest (otherwise the verdict is a "false reject").
 * The PTX ISA version on T is the variant's raised to T's lowest.
 *
 * The statements are gathered into one module per lowest target and PTX
 * version (combos_mod.c). ptxemit translates each module for each target
 * (every line it refuses reported, each PTX line naming its MIR line, the
 * refused lines blanked until it accepts the rest); ptxas is given one text
 * per target, version and operation family (combos_text.c), and each line it
 * refuses is read back to its statement through the `.loc` before it. Each
 * statement is also written with its modifier tokens in another order
 * (ptxemit-mir(5): any order, PTX's relative order within a class of slots,
 * the fixed tokens left out), which must print the same PTX on the lowest
 * target. ptxas's verdicts are kept in CACHE, the target sweep's, so a
 * second run asks ptxas only about texts that changed; JOBS targets are
 * translated at once, each judged with JOBS ptxas at once.
 *
 * With PX_COMBOS_PTXAS=no (the sanitizer build) ptxas is not asked about
 * the statements: every module is translated for every target (and the
 * twins on the lowest), and only what ptxemit does is checked (it accepts
 * every statement on its lowest target, the twins print the same, no
 * translation fails without a message at a line). The number of
 * combinations written must equal the number listed: a variant whose
 * operands the generator cannot write fails the proof instead of being left
 * out. A combination a rule of the tables refuses on every target is counted
 * apart and judged apart (combos_ruled.c). PX_COMBOS_OPS, an extended
 * regular expression, limits the operations (default: every one);
 * PX_COMBOS_TARGETS=lowest judges each module on its own lowest target only,
 * where ptxemit must accept every statement.
 *
 * Prints the counts and every disagreement; exits 1 on any disagreement,
 * refusal on a lowest target or difference in the counts, 77 without ptxas. */
#include "combos.h"
#include "combos_text.h"
#include "refused.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { TRIES = 4 }; /* rounds of blanking a translation before it counts as failed */

enum { V_ACC, V_REJ, V_UNSOUND, V_FALSE, NV };

/* one target's verdicts */
typedef struct target_run {
	const px_target *t;
	size_t n[NV];
	px_buf report;  /* its disagreements */
	unsigned bad;   /* disagreements outside the statements */
	bool failed;
} target_run;

typedef struct proof {
	cb_modules mods;
	cb_tr *low;     /* each module on its lowest target */
	bool judge, lowest;
	const char *ptxas, *cache;
	unsigned jobs;
	target_run *runs;
	size_t nruns;
	atomic_size_t next;
} proof;

/* a refusal read back to no statement (what is taken, malloc'd) */
static void outside(target_run *r, char *what)
{
	px_buf_printf(&r->report, "tensorcombos: refused outside the statements (by ptxas, or ptxemit:): %s\n", what);
	r->bad++;
	free(what);
}

static int by_line(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
	return x < y ? -1 : x > y;
}

/* the lines a verdict names ("no:3,17"), sorted, count in *n */
unsigned *cb_verdict_lines(const char *v, size_t *n)
{
	*n = 0;
	unsigned *l = pv_alloc((strlen(v) + 1) * sizeof *l);
	for (const char *p = strncmp(v, "no:", 3) == 0 ? v + 3 : ""; *p;) {
		char *e;
		unsigned long x = strtoul(p, &e, 10);
		if (e == p)
			break;
		l[(*n)++] = (unsigned)x;
		p = *e == ',' ? e + 1 : e;
	}
	if (*n)
		qsort(l, *n, sizeof *l, by_line);
	return l;
}

/* each line ptxas refuses in text, as "MODULE KIND MIRLINE" into bad (or outside) */
static void read_back(target_run *r, const char *name, const char *text, const char *verdict, pv_map *bad)
{
	size_t nl;
	unsigned *lines = cb_verdict_lines(verdict, &nl);
	if (!nl) {
		outside(r, pv_printf("%s %s ptxas refuses it without naming a line", r->t->name, name));
		free(lines);
		return;
	}
	pv_map files = {0};
	char *cur = NULL;
	const char *p = text, *l;
	size_t n;
	for (unsigned ln = 1; cb_next_line(&p, &l, &n); ln++) {
		char *line = strndup(l, n);
		unsigned no;
		char key[256], kind[16];
		if (strncmp(line, ".file ", 6) == 0 && sscanf(line, ".file %u \"%255s %15[^\"]\"", &no, key, kind) == 3) {
			char num[16];
			snprintf(num, sizeof num, "%u", no);
			bool fresh;
			void **f = pv_map_slot(&files, num, &fresh);
			if (!fresh)
				free(*f);
			*f = pv_printf("%s %s", key, kind);
		}
		const char *s = line + strspn(line, " \t");
		unsigned mline, col;
		if (strncmp(s, ".loc ", 5) == 0 && sscanf(s, ".loc %u %u %u", &no, &mline, &col) >= 2) {
			char num[16];
			snprintf(num, sizeof num, "%u", no);
			const char *f = pv_map_get(&files, num);
			free(cur);
			cur = pv_printf("%s %u", f ? f : "", mline);
			free(line);
			continue;
		}
		if (line[0] == '}' || strncmp(line, ".visible", 8) == 0 || strncmp(line, ".weak", 5) == 0 ||
		    strncmp(line, ".entry", 6) == 0 || strncmp(line, ".func", 5) == 0)
			free(cur), cur = NULL;
		if (pv_has(lines, nl, ln)) {
			if (cur) {
				bool fresh;
				*pv_map_slot(bad, cur, &fresh) = bad;
			} else
				outside(r, pv_printf("%s %s %u %s", r->t->name, name, ln, line));
		}
		free(line);
	}
	free(cur), free(lines);
	for (size_t i = 0; i < files.cap; i++)
		free(files.vals[i]);
	pv_map_free(&files);
}

static bool bad_at(const pv_map *bad, const char *key, const char *kind, unsigned line)
{
	char k[320];
	snprintf(k, sizeof k, "%s %s %u", key, kind, line);
	return pv_map_get(bad, k) != NULL;
}

/* the message ptxemit gave at a line (the last, where it gave several) */
static const char *message_at(const cb_tr *t, unsigned line)
{
	const char *m = "";
	for (size_t i = 0; i < t->nno; i++)
		if (t->no[i].line == line)
			m = t->no[i].msg;
	return m;
}

/* one target: ptxemit's verdicts, then ptxas's on the texts */
static void judge_target(proof *pf, target_run *r)
{
	const px_target *t = r->t;
	char tmin[8];
	snprintf(tmin, sizeof tmin, "%u.%u", t->ptx / 10, t->ptx % 10);
	const cb_modules *ms = &pf->mods;
	cb_tr *tr = pv_alloc((ms->nm + 1) * sizeof *tr);
	bool *planned = pv_alloc((ms->nm + 1) * sizeof *planned);
	for (size_t i = 0; i < ms->nm; i++) {
		const cb_module *m = &ms->m[i];
		tr[i] = (cb_tr){0};
		planned[i] = !pf->lowest || strcmp(t->name, m->target) == 0;
		if (!planned[i] || strcmp(t->name, m->target) == 0)
			continue;
		char *name = pv_printf("t/%s.%s.ptx.mir", m->key, t->name);
		cb_translate(name, m->mir, m->mirlen, t->name, cb_later_ptx(m->ptx, tmin), pf->judge ? TRIES : 0, &tr[i]);
		free(name);
	}
#define TR(i) (strcmp(t->name, ms->m[i].target) == 0 ? &pf->low[i] : &tr[i])
	if (!pf->judge) {
		/* without ptxas: what ptxemit could not judge */
		for (size_t i = 0; i < ms->nm; i++)
			for (size_t k = 0; planned[i] && k < TR(i)->nno; k++)
				if (!TR(i)->no[k].line)
					outside(r, pv_printf("%s %s ptxemit: 0 %s", t->name, ms->m[i].key, TR(i)->no[k].msg));
		goto done;
	}
	cb_texts x = {0};
	for (size_t i = 0; i < ms->nm; i++) {
		if (!planned[i])
			continue;
		const char *v = cb_later_ptx(ms->m[i].ptx, tmin);
		if (TR(i)->ptx)
			cb_piece(&x, TR(i)->ptx, ms->m[i].key, "acc", v, NULL);
		if (TR(i)->nno && pf->low[i].ptx)
			cb_piece(&x, pf->low[i].ptx, ms->m[i].key, "own", v, TR(i));
	}
	pv_text *texts = pv_alloc((x.n + 1) * sizeof *texts);
	for (size_t i = 0; i < x.n; i++) {
		texts[i] = (pv_text){.arch = pv_ptxas_arch(t->name)};
		texts[i].ptx = cb_text_of(&x, i, t->name, &texts[i].len);
	}
	pv_judge j;
	pv_map bad = {0};
	if (pv_judge_init(&j, pf->ptxas, pf->cache, pf->jobs) || pv_judge_texts(&j, texts, x.n, false)) {
		r->failed = true;
		px_buf_printf(&r->report, "%s: the texts could not be judged\n", t->name);
	} else
		for (size_t i = 0; i < x.n; i++)
			if (strcmp(texts[i].verdict, "ok") != 0) {
				char *name = pv_printf("x/%s.%s.ptx", t->name, x.t[i].tid);
				read_back(r, name, texts[i].ptx, texts[i].verdict, &bad);
				free(name);
			}
	for (size_t i = 0; i < x.n; i++)
		free(texts[i].ptx), free(texts[i].verdict);
	free(texts);
	cb_texts_free(&x);
	/* the verdicts: each statement and value of every module */
	for (size_t i = 0; i < ms->nm && !r->failed; i++) {
		const cb_module *m = &ms->m[i];
		const cb_tr *no = planned[i] ? TR(i) : NULL;
		for (unsigned l = 1; l <= m->nlines; l++) {
			if (!m->line[l])
				continue;
			const cb_stmt *s = &ms->s[m->line[l] - 1];
			bool refused = no && cb_refused_at(no, l);
			int v = !refused ? (bad_at(&bad, m->key, "acc", l) ? V_UNSOUND : V_ACC)
			                 : (bad_at(&bad, m->key, "own", l) ? V_REJ : V_FALSE);
			r->n[v]++;
			if (v == V_UNSOUND)
				px_buf_printf(&r->report, "unsound on %s: %s\n", t->name, s->text);
			else if (v == V_FALSE)
				px_buf_printf(&r->report, "false reject on %s: %s\n  ptxemit: %s\n", t->name, s->text,
				              message_at(no, l));
		}
		/* a refused line that is no statement's */
		for (unsigned l = 0; no && l <= no->maxline; l++)
			if (no->at[l] && (l > m->nlines || !m->line[l]))
				outside(r, pv_printf("%s %s ptxemit: %u %s", t->name, m->key, l, message_at(no, l)));
	}
	pv_map_free(&bad);
done:
#undef TR
	for (size_t i = 0; i < ms->nm; i++)
		cb_tr_free(&tr[i]);
	free(tr), free(planned);
}

static void *worker(void *arg)
{
	proof *pf = arg;
	for (size_t i; (i = atomic_fetch_add(&pf->next, 1)) < pf->nruns;)
		judge_target(pf, &pf->runs[i]);
	return NULL;
}

/* m's twin, its lowest refusals blanked in it too, must print the same PTX */
static unsigned twin_check(const cb_module *m, const cb_tr *low, px_buf *report)
{
	size_t len, tlen, n, tn;
	char *plain = NULL, *any = NULL;
	char *src = cb_blank(m->mir, low->no, low->nno, &len), *tsrc = cb_blank(m->twin, low->no, low->nno, &tlen);
	const char *l, *tl;
	char *name = pv_printf("m/%s.b.mir", m->key);
	pv_case c = {.mir = name, .name = name, .src = src, .len = len};
	pv_case tc = {.mir = name, .name = name, .src = tsrc, .len = tlen};
	pv_refusals tno = {0};
	unsigned bad = 0;
	if (pv_translate(&tc, NULL, NULL, false, &any, &tno) != 0) {
		for (size_t i = 0; i < tno.n; i++, bad++)
			px_buf_printf(report, "tensorcombos: the tokens in another order: %s %u %s\n", m->key, tno.v[i].line,
			              tno.v[i].msg);
	} else {
		pv_translate(&c, NULL, NULL, true, &plain, NULL);
		if (!plain || strcmp(plain, any) != 0) {
			/* the first lines printed otherwise */
			const char *a = plain ? plain : "", *z = any;
			for (unsigned shown = 0; shown < 3 && cb_next_line(&z, &tl, &tn);) {
				bool same = cb_next_line(&a, &l, &n) && n == tn && strncmp(l, tl, n) == 0;
				if (!same) {
					px_buf_printf(report, "tensorcombos: the tokens in another order: %s 0 prints %.*s\n", m->key,
					              (int)tn, tl);
					shown++, bad++;
				}
			}
		}
	}
	pv_refusals_free(&tno);
	free(plain), free(any), free(src), free(tsrc), free(name);
	return bad;
}

/* the counts the generator gives, "count OP VARIANTS DESCRIBED BUILT
 * STATEMENTS LISTED RULED" lines, and what it could not write */
static unsigned counts(const char *gen, px_buf *report)
{
	unsigned bad = 0, nops = 0;
	double nvar = 0, desc = 0, built = 0, stmts = 0, listed = 0, ruled = 0;
	const char *p = gen, *l;
	size_t n;
	while (cb_next_line(&p, &l, &n)) {
		char op[128];
		double c[6];
		if (n > 6 && strncmp(l, "count ", 6) == 0 &&
		    sscanf(l, "count %127s %lf %lf %lf %lf %lf %lf", op, &c[0], &c[1], &c[2], &c[3], &c[4], &c[5]) == 7) {
			nops++, nvar += c[0], desc += c[1], built += c[2], stmts += c[3], listed += c[4], ruled += c[5];
			if (c[1] != c[2]) {
				bad++;
				px_buf_printf(report, "tensorcombos: %s lists %.0f combinations, %.0f written\n", op, c[1], c[2]);
			}
		} else if (n > 8 && strncmp(l, "unbuilt ", 8) == 0) {
			bad++;
			px_buf_printf(report, "tensorcombos: cannot write %.*s\n", (int)n - 8, l + 8);
		}
	}
	px_buf_printf(report,
	              "tensorcombos: %u operations, %.0f variants, %.0f combinations listed (%.0f in full), %.0f written as %.0f statements\n",
	              nops, nvar, desc, listed, built, stmts);
	if (ruled)
		px_buf_printf(report,
		              "tensorcombos: %.0f combinations listed that a rule of the tables refuses on every target, not written\n",
		              ruled);
	return bad;
}

int pv_combos(int argc, char **argv)
{
	if (argc < 4) {
		fprintf(stderr, "usage: prover combos PTXAS CACHE JOBS\n");
		return 2;
	}
	const char *judge = getenv("PX_COMBOS_PTXAS"), *targets = getenv("PX_COMBOS_TARGETS"),
	           *ops = getenv("PX_COMBOS_OPS");
	proof pf = {.judge = !judge || strcmp(judge, "no") != 0, .lowest = targets && strcmp(targets, "lowest") == 0,
	            .ptxas = argv[1], .cache = argv[2], .jobs = (unsigned)atoi(argv[3])};
	if (pf.judge && access(pf.ptxas, X_OK) != 0)
		return 77;
	if (!pf.jobs)
		pf.jobs = 1;
	char *gen = NULL;
	size_t genlen = 0;
	FILE *g = open_memstream(&gen, &genlen);
	if (cb_generate(g, ops && *ops ? ops : ".") != 0) {
		fclose(g), free(gen);
		return 2;
	}
	fclose(g);
	px_buf report;
	px_buf_init(&report);
	unsigned bad = counts(gen, &report);
	cb_build(gen, 'S', 'P', "every token combination ptxemit --describe lists whose lowest target is", true, &pf.mods);
	if (!pf.mods.nm) {
		printf("tensorcombos: no operations or targets read\n");
		free(gen), px_buf_free(&report), cb_modules_free(&pf.mods);
		return 1;
	}
	/* the lowest targets: every statement accepted, the twin the same PTX */
	unsigned nord = 0;
	pf.low = pv_alloc(pf.mods.nm * sizeof *pf.low);
	for (size_t i = 0; i < pf.mods.nm; i++) {
		const cb_module *m = &pf.mods.m[i];
		char *name = pv_printf("m/%s.ptx.mir", m->key);
		cb_translate(name, m->mir, m->mirlen, m->target, m->ptx, pf.judge ? TRIES : 0, &pf.low[i]);
		free(name);
		for (size_t k = 0; k < pf.low[i].nno; k++, bad++)
			px_buf_printf(&report, "tensorcombos: refused on its lowest target: %s %u %s\n", m->key,
			              pf.low[i].no[k].line, pf.low[i].no[k].msg);
		nord += twin_check(m, &pf.low[i], &report);
	}
	bad += nord;
	/* the targets: every one, or (PX_COMBOS_TARGETS=lowest) each module's lowest */
	const px_target **tl = pv_alloc((px_ntargets + 1) * sizeof *tl);
	size_t nt = 0;
	for (unsigned i = 0; i < px_ntargets; i++) {
		bool lowest = false;
		for (size_t k = 0; k < pf.mods.nm && !lowest; k++)
			lowest = strcmp(pf.mods.m[k].target, px_targets[i].name) == 0;
		if (!pf.lowest || lowest)
			tl[nt++] = &px_targets[i];
	}
	pf.runs = pv_alloc((nt + 1) * sizeof *pf.runs);
	for (size_t i = 0; i < nt; i++) {
		pf.runs[i] = (target_run){.t = tl[i]};
		px_buf_init(&pf.runs[i].report);
	}
	pf.nruns = nt;
	/* JOBS targets at once (each judged with JOBS ptxas): ptxemit's
	 * translations, not ptxas, are most of a warm run */
	pthread_t *th = pv_alloc((pf.jobs + 1) * sizeof *th);
	for (unsigned i = 0; i < pf.jobs; i++)
		pthread_create(&th[i], NULL, worker, &pf);
	for (unsigned i = 0; i < pf.jobs; i++)
		pthread_join(th[i], NULL);
	free(th);
	size_t n[NV] = {0}, tot = 0;
	for (size_t i = 0; i < nt; i++) {
		target_run *r = &pf.runs[i];
		for (int v = 0; v < NV; v++)
			n[v] += r->n[v], tot += r->n[v];
		bad += r->bad + r->failed;
		if (r->report.data)
			fputs(r->report.data, stdout);
		px_buf_free(&r->report);
	}
	if (report.data)
		fputs(report.data, stdout);
	if (!pf.judge)
		printf("tensorcombos: translated for %zu targets; ptxas not asked (PX_COMBOS_PTXAS=no)\n", nt);
	else
		printf("tensorcombos: %zu statement and value verdicts on %zu targets: %zu accepted and assembled, %zu refused by both, %zu unsound, %zu false rejects\n",
		       tot, nt, n[V_ACC], n[V_REJ], n[V_UNSOUND], n[V_FALSE]);
	printf("tensorcombos: the same statements with their tokens in another order: %u refused or printed otherwise\n",
	       nord);
	fflush(stdout);
	bool ruled_ok = cb_ruled(gen, tl, nt, pf.ptxas, pf.cache, pf.jobs, pf.judge ? TRIES : 0) == 0;
	for (size_t i = 0; i < pf.mods.nm; i++)
		cb_tr_free(&pf.low[i]);
	free(pf.low), free(pf.runs), free(tl), free(gen);
	px_buf_free(&report);
	cb_modules_free(&pf.mods);
	return bad || n[V_UNSOUND] || n[V_FALSE] || !ruled_ok;
}
