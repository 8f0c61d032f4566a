/* The target sweep: every MIR file the suite expects ptxemit to accept
 * (the list testsuite/swept.sh writes: cases with a .ptx or .isel
 * expectation with their first line's options, the examples and ISA probes,
 * the execution tests' kernels) is translated again for every target of the
 * tables (--max-errors=0, so that every line ptxemit refuses is named), and
 * ptxas judges every statement on its own:
 *   - where ptxemit accepts the file for target T, ptxas must assemble every
 *     line it prints for T (a line it refuses makes its statement "unsound");
 *   - where ptxemit refuses some lines for T, the PTX it prints for the
 *     case's own target, with `.target T` and a `.version` ptxemit could have
 *     chosen for T, is given to ptxas: every refused line's statement must be
 *     refused there too (otherwise it is a "false reject"), and every other
 *     statement accepted (otherwise "unsound"). The versions tried are the
 *     case's own raised to T's lowest and, unless the case fixes its version
 *     (a `ptx X.Y` on its target line, or --ptx), the highest ptxemit knows;
 *     a refused statement ptxas accepts at either is a false reject, an
 *     accepted one it refuses at both is unsound.
 * A case that fixes its version is translated for T with that version
 * raised to T's lowest; any other lets ptxemit choose. A text ptxas
 * assembles under -c that is a whole program is also asked finalized
 * (judge.c): a function it refuses so counts against its statements.
 *
 * The veredge proof asks one step below the version ptxemit chose, on each
 * case's own target: ptxemit refuses exactly the statements ptxas refuses
 * there, and what it accepts at that version assembles. */
#include "translate.h"
#include "refused.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tables/tables.h"

enum { ACC, REJ };

typedef struct job {
	int kind;
	size_t c;          /* the case */
	const char *target;
	char ver[8];       /* the version asked (veredge) */
	size_t text, top;  /* its texts; top SIZE_MAX: none */
	pv_refusals no;    /* what ptxemit refused (REJ) */
} job;

typedef struct run {
	pv_case *cases;
	size_t ncases;
	job *jobs;
	size_t njobs;
	pv_text *texts;
	size_t ntexts, cap;
	unsigned unsound, fr, acc, rej;
} run;

static size_t add_text(run *r, char *ptx, const char *arch)
{
	if (r->ntexts == r->cap)
		r->texts = realloc(r->texts, (r->cap = r->cap ? 2 * r->cap : 1024) * sizeof *r->texts);
	r->texts[r->ntexts] = (pv_text){.ptx = ptx, .len = strlen(ptx), .arch = arch};
	return r->ntexts++;
}

static job *add_job(run *r)
{
	/* room for 64, then doubled each time it is full */
	if (!r->njobs || (r->njobs >= 64 && (r->njobs & (r->njobs - 1)) == 0))
		r->jobs = realloc(r->jobs, (r->njobs ? 2 * r->njobs : 64) * sizeof *r->jobs);
	job *j = &r->jobs[r->njobs++];
	*j = (job){.top = SIZE_MAX};
	return j;
}

static unsigned vnum(const char *v) { return (unsigned)(atoi(v) * 100 + atoi(strchr(v, '.') ? strchr(v, '.') + 1 : "0")); }

static void vtext(uint16_t v, char out[8]) { snprintf(out, 8, "%u.%u", v / 10, v % 10); }

/* the text with its `.target NAME` and `.version X.Y` words replaced (NULL: kept) */
static char *retarget(const char *ptx, const char *target, const char *ver)
{
	size_t n = strlen(ptx);
	char *out = pv_alloc(n + 64), *o = out;
	for (const char *l = ptx; *l;) {
		const char *e = strchr(l, '\n');
		size_t len = e ? (size_t)(e - l + 1) : strlen(l);
		const char *word = NULL, *with = NULL;
		if (target && strncmp(l, ".target ", 8) == 0)
			word = l + 8, with = target;
		else if (ver && strncmp(l, ".version ", 9) == 0)
			word = l + 9, with = ver;
		if (word) {
			const char *w = word;
			while ((*w >= 'a' && *w <= 'z') || (*w >= '0' && *w <= '9') || *w == '_' || (with == ver && *w == '.'))
				w++;
			memcpy(o, l, (size_t)(word - l));
			o += word - l;
			o += sprintf(o, "%s", with);
			memcpy(o, w, len - (size_t)(w - l));
			o += len - (size_t)(w - l);
		} else {
			memcpy(o, l, len);
			o += len;
		}
		l += len;
	}
	*o = '\0';
	return out;
}

/* the X.Y of the text's .version line */
static bool text_version(const char *ptx, char v[8])
{
	const char *p = strstr(ptx, "\n.version ");
	if (!p)
		return false;
	p += 10;
	size_t n = strspn(p, "0123456789.");
	if (!n || n > 7)
		return false;
	memcpy(v, p, n);
	v[n] = '\0';
	return true;
}

/* the case fixes its version: --ptx, or `ptx X.Y` on its target line */
static bool fixed_version(const pv_case *c)
{
	for (int i = 0; i < c->nopts; i++)
		if (strncmp(c->opts[i], "--ptx=", 6) == 0)
			return true;
	for (const char *l = c->src; *l;) {
		const char *e = strchr(l, '\n');
		const char *s = l;
		while (*s == ' ' || *s == '\t')
			s++;
		if (strncmp(s, "target", 6) == 0 && (s[6] == ' ' || s[6] == '\t')) {
			for (const char *p = s + 6; p < (e ? e : p + strlen(p)); p++)
				if ((p[-1] == ' ' || p[-1] == '\t') && strncmp(p, "ptx", 3) == 0 && (p[3] == ' ' || p[3] == '\t'))
					return true;
		}
		if (!e)
			break;
		l = e + 1;
	}
	return false;
}

static const char *refusal(const pv_refusals *no, unsigned line)
{
	for (size_t i = 0; i < no->n; i++)
		if (no->v[i].line == line)
			return no->v[i].msg;
	return no->first ? no->first : "";
}

/* the MIR lines ptxemit refused, sorted, once each (0: none had a line) */
static size_t refused_lines(const pv_refusals *no, unsigned **out)
{
	unsigned *v = pv_alloc((no->n + 1) * sizeof *v);
	size_t n = 0;
	for (size_t i = 0; i < no->n; i++)
		if (!pv_has(v, n, no->v[i].line)) {
			v[n++] = no->v[i].line;
			for (size_t k = n - 1; k > 0 && v[k - 1] > v[k]; k--) {
				unsigned x = v[k];
				v[k] = v[k - 1], v[k - 1] = x;
			}
		}
	if (!n)
		v[n++] = 0;
	*out = v;
	return n;
}

static void judge_sweep_job(run *r, const job *j)
{
	const char *mir = r->cases[j->c].mir;
	pv_back b, bt = {0};
	pv_read_back(&r->texts[j->text], &b);
	bool top = j->top != SIZE_MAX;
	if (top)
		pv_read_back(&r->texts[j->top], &bt);
	/* the header lines of the functions refused as a whole program */
	unsigned *wfs = pv_alloc((b.nwhole + 1) * sizeof *wfs);
	size_t nwfs = 0;
	for (size_t i = 0; i < b.nwhole; i++) {
		bool seen = false;
		for (size_t k = 0; k < nwfs; k++)
			seen |= wfs[k] == b.whole[i][1];
		if (!seen)
			wfs[nwfs++] = b.whole[i][1];
	}
	if (j->kind == ACC) {
		if (nwfs) {
			r->unsound++;
			printf("unsound: %s on %s: ptxemit accepts it, ptxas refuses the function at line", mir, j->target);
			for (size_t k = 0; k < nwfs; k++)
				printf(" %u", wfs[k]);
			printf(" as a whole program\n");
		}
		for (size_t i = 0; i < b.nstmt; i++) {
			if (pv_has(b.bad, b.nbad, b.stmt[i])) {
				r->unsound++;
				printf("unsound: %s:%u on %s: ptxemit accepts it, ptxas refuses it\n", mir, b.stmt[i], j->target);
			} else
				r->acc++;
		}
		if (pv_has(b.bad, b.nbad, 0)) {
			r->unsound++;
			printf("unsound: %s on %s: ptxemit accepts it, ptxas refuses a line outside the statements\n", mir,
			       j->target);
		}
	} else {
		unsigned *no;
		size_t nno = refused_lines(&j->no, &no);
		bool *hit = pv_alloc(nwfs + 1);
		for (size_t i = 0; i < nno; i++) {
			unsigned l = no[i], fn = pv_whole_fn(&b, l);
			bool by;
			if (fn) {
				for (size_t k = 0; k < nwfs; k++)
					hit[k] |= wfs[k] == fn;
				by = true;
			} else if (pv_has(b.stmt, b.nstmt, l))
				by = pv_has(b.bad, b.nbad, l) && (!top || pv_has(bt.bad, bt.nbad, l));
			else
				by = b.any && (!top || bt.any);
			if (by)
				r->rej++;
			else {
				r->fr++;
				bool in_top = pv_has(b.bad, b.nbad, l) || (!pv_has(b.stmt, b.nstmt, l) && b.any);
				printf("false reject: %s:%u on %s: ptxemit refuses it (%s), ptxas accepts it%s\n", mir, l,
				       j->target, refusal(&j->no, l), in_top ? " at the highest version" : "");
			}
		}
		/* an accepted statement is unsound where ptxas refuses it at every
		 * version tried: ptxemit picks the version for T itself, which the
		 * case's raised to T's lowest may be below */
		for (size_t i = 0; i < b.nstmt; i++) {
			unsigned l = b.stmt[i];
			if (pv_has(no, nno, l))
				continue;
			if (pv_has(b.bad, b.nbad, l) && (!top || pv_has(bt.bad, bt.nbad, l))) {
				r->unsound++;
				printf("unsound: %s:%u on %s: ptxemit accepts it, ptxas refuses it\n", mir, l, j->target);
			} else
				r->acc++;
		}
		for (size_t k = 0; k < nwfs; k++)
			if (!hit[k]) {
				r->unsound++;
				printf("unsound: %s on %s: ptxemit accepts every line of the function at PTX line %u, which "
				       "ptxas refuses as a whole program\n",
				       mir, j->target, wfs[k]);
			}
		free(hit), free(no);
	}
	free(wfs);
	pv_back_free(&b);
	pv_back_free(&bt);
}

/* ptxemit's verdict on the job (n errors; out its PTX where none): true
 * where it accepted, the text then ptxas's to judge */
static bool accepted(run *r, job *j, int n, char *out, const char *arch)
{
	if (n) {
		j->kind = REJ;
		return false;
	}
	j->kind = ACC;
	j->text = add_text(r, out, arch);
	pv_refusals_free(&j->no);
	return true;
}

static void run_free(run *r)
{
	for (size_t i = 0; i < r->ncases; i++)
		pv_case_free(&r->cases[i]);
	for (size_t i = 0; i < r->njobs; i++)
		pv_refusals_free(&r->jobs[i].no);
	for (size_t i = 0; i < r->ntexts; i++)
		free(r->texts[i].ptx), free(r->texts[i].verdict);
	free(r->cases), free(r->jobs), free(r->texts);
}

/* common arguments: SRCDIR CASES PTXAS CACHE JOBS [SAMPLE] */
static int setup(int argc, char **argv, const char *what, run *r, pv_judge *jd, unsigned *sample)
{
	if (argc < 6) {
		fprintf(stderr, "usage: prover %s SRCDIR CASES PTXAS CACHE JOBS [SAMPLE]\n", what);
		return 2;
	}
	*sample = argc > 6 ? (unsigned)atoi(argv[6]) : 0;
	if (pv_read_cases(argv[1], argv[2], &r->cases, &r->ncases))
		return 1;
	if (pv_judge_init(jd, argv[3], argv[4], (unsigned)atoi(argv[5]))) {
		fprintf(stderr, "prover: %s does not run\n", argv[3]);
		return 77;
	}
	return 0;
}

/* SAMPLE n (0: all): case c is asked on target t only where (c + t) % n == 0,
 * so that every case and every target are judged, each pair once in n */
static bool sampled(unsigned sample, size_t c, unsigned t) { return !sample || (c + t) % sample == 0; }

int pv_sweep(int argc, char **argv)
{
	run r = {0};
	pv_judge jd;
	unsigned sample;
	int st = setup(argc, argv, "sweep", &r, &jd, &sample);
	if (st)
		return st;
	char top[8];
	vtext(px_ptx_versions[px_nptx_versions - 1], top);
	for (size_t c = 0; c < r.ncases; c++) {
		pv_case *k = &r.cases[c];
		char *own;
		pv_refusals ownno = {0};
		if (pv_translate(k, NULL, NULL, true, &own, &ownno) != 0) {
			fprintf(stderr, "sweep: %s: refused for its own target: %s\n", k->mir, ownno.first ? ownno.first : "");
			return 1;
		}
		char ownv[8];
		if (!text_version(own, ownv)) {
			fprintf(stderr, "sweep: %s: no .version printed\n", k->mir);
			return 1;
		}
		bool fixed = fixed_version(k);
		for (unsigned t = 0; t < px_ntargets; t++) {
			if (!sampled(sample, c, t))
				continue;
			const px_target *tg = &px_targets[t];
			char tmin[8], v[8];
			vtext(tg->ptx, tmin);
			snprintf(v, sizeof v, "%s", vnum(ownv) >= vnum(tmin) ? ownv : tmin);
			const char *arch = pv_ptxas_arch(tg->name);
			job *j = add_job(&r);
			j->c = c, j->target = tg->name;
			char *out;
			int n = pv_translate(k, tg->name, fixed ? v : NULL, false, &out, &j->no);
			if (n < 0)
				return 1;
			if (accepted(&r, j, n, out, arch))
				continue;
			char *base = retarget(own, tg->name, v);
			j->text = add_text(&r, base, arch);
			if (!fixed && strcmp(v, top) != 0)
				j->top = add_text(&r, retarget(base, NULL, top), arch);
		}
		free(own);
		pv_refusals_free(&ownno);
	}
	if (pv_judge_texts(&jd, r.texts, r.ntexts, true)) {
		run_free(&r);
		return 1;
	}
	for (size_t i = 0; i < r.njobs; i++)
		judge_sweep_job(&r, &r.jobs[i]);
	printf("sweep: %zu cases, %u targets%s, %u statement verdicts: %u accepted and assembled, %u refused by both, "
	       "%u unsound, %u false rejects (%zu texts, %zu given to ptxas, the rest cached)\n",
	       r.ncases, px_ntargets, sample ? " (sampled)" : "", r.acc + r.rej + r.unsound + r.fr, r.acc, r.rej,
	       r.unsound, r.fr, r.ntexts, jd.asked);
	run_free(&r);
	return r.unsound + r.fr > 0;
}

static void judge_edge_job(run *r, const job *j)
{
	const char *mir = r->cases[j->c].mir;
	pv_back b;
	pv_read_back(&r->texts[j->text], &b);
	if (j->kind == ACC) {
		if (b.any) {
			r->unsound++;
			printf("unsound: %s on %s at PTX %s: ptxemit accepts it, ptxas refuses what it prints\n", mir, j->target,
			       j->ver);
		} else
			r->acc++;
		pv_back_free(&b);
		return;
	}
	unsigned *no;
	size_t nno = refused_lines(&j->no, &no);
	for (size_t i = 0; i < nno; i++) {
		unsigned l = no[i];
		/* a refused line that is no statement (a directive, a parameter) is
		 * ptxas's outside them */
		if (pv_has(b.bad, b.nbad, l) || (!pv_has(b.stmt, b.nstmt, l) && pv_has(b.bad, b.nbad, 0)))
			r->rej++;
		else {
			r->fr++;
			printf("false reject: %s:%u on %s at PTX %s: ptxemit refuses it (%s), ptxas accepts it\n", mir, l,
			       j->target, j->ver, refusal(&j->no, l));
		}
	}
	/* each refused PTX line of a statement ptxemit accepts */
	for (size_t i = 0; i < b.nraw; i++)
		if (!pv_has(no, nno, b.raw[i])) {
			r->unsound++;
			printf("unsound: %s:%u on %s at PTX %s: ptxemit accepts it, ptxas refuses it\n", mir, b.raw[i],
			       j->target, j->ver);
		}
	free(no);
	pv_back_free(&b);
}

int pv_veredge(int argc, char **argv)
{
	run r = {0};
	pv_judge jd;
	unsigned sample;
	int st = setup(argc, argv, "veredge", &r, &jd, &sample);
	if (st)
		return st;
	for (size_t c = 0; c < r.ncases; c++) {
		pv_case *k = &r.cases[c];
		if (fixed_version(k) || !sampled(sample, c, 0))
			continue;
		char *own;
		if (pv_translate(k, NULL, NULL, true, &own, NULL) != 0)
			continue;
		char v[8];
		const char *tl = strstr(own, "\n.target ");
		if (!text_version(own, v) || !tl)
			continue;
		tl += 9;
		char *tname = pv_printf("%.*s", (int)strspn(tl, "abcdefghijklmnopqrstuvwxyz0123456789_"), tl);
		const px_target *tg = px_target_lookup(tname, strlen(tname));
		free(tname);
		/* the version before v, no lower than the target's lowest */
		uint16_t have = px_ptx_version_parse(v, strlen(v));
		unsigned i = 0;
		while (i < px_nptx_versions && px_ptx_versions[i] != have)
			i++;
		if (!tg || i == 0 || i == px_nptx_versions || px_ptx_versions[i - 1] < tg->ptx) {
			free(own);
			continue;
		}
		job *j = add_job(&r);
		j->c = c, j->target = tg->name;
		vtext(px_ptx_versions[i - 1], j->ver);
		const char *arch = pv_ptxas_arch(tg->name);
		char *out;
		int n = pv_translate_at(k, j->ver, &out, &j->no);
		if (n < 0)
			return 1;
		if (!accepted(&r, j, n, out, arch))
			j->text = add_text(&r, retarget(own, NULL, j->ver), arch);
		free(own);
	}
	if (pv_judge_texts(&jd, r.texts, r.ntexts, false)) {
		run_free(&r);
		return 1;
	}
	for (size_t i = 0; i < r.njobs; i++)
		judge_edge_job(&r, &r.jobs[i]);
	printf("veredge: %zu cases one PTX version below ptxemit's%s: %u accepted and assembled, %u lines refused by "
	       "both, %u unsound, %u false rejects (%zu texts, %zu given to ptxas, the rest cached)\n",
	       r.njobs, sample ? " (sampled)" : "", r.acc, r.rej, r.unsound, r.fr, r.ntexts, jd.asked);
	run_free(&r);
	return r.unsound + r.fr > 0;
}
