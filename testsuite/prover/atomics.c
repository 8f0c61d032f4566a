/* The atomics proof: every atom and red combination, asked of ptxemit and of
 * ptxas on one target; each one they disagree on is printed.
 *
 * A combination is an operation (atom or red), its kind, a type, a vector
 * size (none, .v2, .v4, .v8), .noftz or not, .L2::cache_hint or not, and a
 * state space (global, shared, shared::cta, shared::cluster, generic). Each
 * is one line of one MIR module and one line of one PTX module (.version
 * 9.0); ptxemit (every error reported) and ptxas name every line they
 * refuse, so two texts judge all of them. The combinations ptxemit accepts
 * are then translated alone and the PTX it prints must assemble. */
#include "translate.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const kinds[] = {"and", "or", "xor", "exch", "cas", "add", "inc", "dec", "min", "max"};
static const char *const types[] = {"b16",  "b32",    "b64", "b128", "u32", "u64", "s32",
                                    "s64",  "f16",    "f16x2", "bf16", "bf16x2", "f32", "f64"};
static const char *const vecs[] = {NULL, "v2", "v4", "v8"};
static const char *const spaces[] = {"global", "shared", "shared::cta", "shared::cluster", NULL};
#define N(a) (sizeof a / sizeof *a)

typedef struct combo {
	bool red, noftz, hint;
	const char *kind, *type, *vec, *space;
} combo;

enum { MIR_FIRST = 19, PTX_FIRST = 8 }; /* the line of combination 1 in each text */

/* text grown by appending */
typedef struct buf {
	char *s;
	size_t n, cap;
} buf;

static void put(buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(buf *b, const char *fmt, ...)
{
	va_list ap;
	for (;;) {
		va_start(ap, fmt);
		int k = vsnprintf(b->s + b->n, b->cap - b->n, fmt, ap);
		va_end(ap);
		if ((size_t)k < b->cap - b->n) {
			b->n += (size_t)k;
			return;
		}
		b->s = realloc(b->s, b->cap = 2 * b->cap + (size_t)k + 64);
	}
}

static unsigned width(const combo *c)
{
	return c->vec ? (unsigned)atoi(c->vec + 1) : 1;
}

static void mir_line(buf *b, const combo *c, size_t i)
{
	unsigned n = width(c);
	put(b, "  ");
	if (!c->red)
		put(b, n > 1 ? "%%d%zu:%s[%u] = " : "%%d%zu:%s = ", i + 1, c->type, n);
	put(b, "%s.%s%s%s%s%s.%s%s%s ", c->red ? "red" : "atom", c->kind, c->noftz ? ".noftz" : "",
	    c->hint ? ".L2::cache_hint" : "", c->vec ? "." : "", c->vec ? c->vec : "", c->type, c->space ? "." : "",
	    c->space ? c->space : "");
	put(b, "%s, ", !c->space ? "[%p]" : strcmp(c->space, "global") == 0 ? "[%g]" : "[%s]");
	for (int twice = 0; twice < (strcmp(c->kind, "cas") == 0 ? 2 : 1); twice++) {
		put(b, "%s%s%%v_%s", twice ? ", " : "", n > 1 ? "(" : "", c->type);
		for (unsigned j = 1; j < n; j++)
			put(b, ", %%v_%s", c->type);
		put(b, "%s", n > 1 ? ")" : "");
	}
	put(b, "%s\n", c->hint ? ", %pol" : "");
}

static void ptx_line(buf *b, const combo *c)
{
	unsigned n = width(c);
	const char *t = c->type;
	const char *r = strcmp(t, "b16") == 0 || strcmp(t, "f16") == 0 || strcmp(t, "bf16") == 0 ? "%h1"
	                : strcmp(t, "b64") == 0 || strcmp(t, "u64") == 0 || strcmp(t, "s64") == 0 ||
	                          strcmp(t, "f64") == 0
	                      ? "%rd3"
	                  : strcmp(t, "b128") == 0 ? "%q1"
	                                           : "%r1";
	char val[64];
	size_t k = (size_t)snprintf(val, sizeof val, "%s%s", n > 1 ? "{" : "", r);
	for (unsigned j = 1; j < n; j++)
		k += (size_t)snprintf(val + k, sizeof val - k, ", %s", r);
	snprintf(val + k, sizeof val - k, "%s", n > 1 ? "}" : "");
	put(b, "%s%s%s.%s%s%s%s%s.%s ", c->red ? "red" : "atom", c->space ? "." : "", c->space ? c->space : "",
	    c->kind, c->noftz ? ".noftz" : "", c->hint ? ".L2::cache_hint" : "", c->vec ? "." : "",
	    c->vec ? c->vec : "", t);
	if (!c->red)
		put(b, "%s, ", val);
	put(b, "%s, %s", !c->space || strcmp(c->space, "global") == 0 ? "[%rd1]" : "[%rd2]", val);
	if (strcmp(c->kind, "cas") == 0)
		put(b, ", %s", val);
	put(b, "%s;\n", c->hint ? ", %rd1" : "");
}

static void mir_head(buf *b, const char *target)
{
	put(b, "target %s\nshared @sh : b8[256] align 16\nkernel @k(%%g: ptr global, %%p: ptr, %%pol: b64) {\n"
	       "  %%s:u32 = mov @sh\n",
	    target);
	for (size_t t = 0; t < N(types); t++)
		put(b, "  %%v_%s:%s = ld.global [%%g]\n", types[t], types[t]);
}

/* the combinations ptxas refused: the lines of the verdict, as combination numbers from 0 */
static bool *ptxas_refused(const char *verdict, size_t n, bool *outside)
{
	bool *no = pv_alloc(n * sizeof *no);
	memset(no, 0, n * sizeof *no);
	if (strncmp(verdict, "no", 2) != 0)
		return no;
	if (strncmp(verdict, "no:", 3) != 0) {
		*outside = true;
		return no;
	}
	for (const char *p = verdict + 3; *p;) {
		char *e;
		long l = strtol(p, &e, 10);
		if (e == p)
			break;
		if (l < PTX_FIRST || (size_t)(l - PTX_FIRST) >= n)
			*outside = true;
		else
			no[l - PTX_FIRST] = true;
		p = *e == ',' ? e + 1 : e;
	}
	return no;
}

static bool ask(pv_judge *j, char *ptx, const char *arch, char **verdict)
{
	pv_text t = {.ptx = ptx, .len = strlen(ptx), .arch = arch};
	if (pv_judge_texts(j, &t, 1, false))
		return false;
	*verdict = t.verdict;
	return true;
}

/* prover atomics PTXAS CACHE TARGET */
int pv_atomics(int argc, char **argv)
{
	if (argc < 4) {
		fprintf(stderr, "usage: prover atomics PTXAS CACHE TARGET\n");
		return 2;
	}
	const char *target = argv[3], *arch = pv_ptxas_arch(target);
	pv_judge j;
	if (pv_judge_init(&j, argv[1], argv[2], 1))
		return 77;

	size_t n = 0;
	combo *cs = pv_alloc(2 * N(kinds) * N(types) * N(vecs) * 4 * N(spaces) * sizeof *cs);
	for (int o = 0; o < 2; o++)
		for (size_t k = 0; k < N(kinds); k++) {
			if (o && (strcmp(kinds[k], "exch") == 0 || strcmp(kinds[k], "cas") == 0))
				continue;
			for (size_t t = 0; t < N(types); t++)
				for (size_t v = 0; v < N(vecs); v++)
					for (int z = 0; z < 2; z++)
						for (int h = 0; h < 2; h++)
							for (size_t s = 0; s < N(spaces); s++)
								cs[n++] = (combo){o, z, h, kinds[k], types[t], vecs[v], spaces[s]};
		}

	buf mir = {0}, ptx = {0};
	mir_head(&mir, target);
	for (size_t i = 0; i < n; i++)
		mir_line(&mir, &cs[i], i);
	put(&mir, "  ret\n}\n");
	put(&ptx, ".version 9.0\n.target %s\n.address_size 64\n.shared .align 16 .b8 sh[256];\n"
	          ".visible .entry k(.param .u64 p) {\n"
	          ".reg .b16 %%h<4>; .reg .b32 %%r<4>; .reg .b64 %%rd<4>; .reg .b128 %%q<4>;\n"
	          "ld.param.u64 %%rd1, [p]; mov.u64 %%rd2, sh; mov.b128 %%q1, {%%rd1, %%rd1};\n",
	    target);
	for (size_t i = 0; i < n; i++)
		ptx_line(&ptx, &cs[i]);
	put(&ptx, "ret; }\n");

	/* ptxemit's refusals */
	pv_case c = {.mir = "all.mir", .name = "all.mir", .src = mir.s, .len = mir.n};
	pv_refusals no = {0};
	char *out = NULL;
	pv_translate(&c, target, NULL, false, &out, &no);
	free(out);
	bool *emit_no = pv_alloc(n * sizeof *emit_no), outside = false;
	memset(emit_no, 0, n * sizeof *emit_no);
	for (size_t i = 0; i < no.n; i++)
		if (no.v[i].line < MIR_FIRST || no.v[i].line - MIR_FIRST >= n)
			outside = true, fprintf(stderr, "all.mir:%u: error: %s\n", no.v[i].line, no.v[i].msg);
		else
			emit_no[no.v[i].line - MIR_FIRST] = true;
	if (!no.n && no.first)
		outside = true, fprintf(stderr, "%s\n", no.first);

	char *verdict;
	if (!ask(&j, ptx.s, arch, &verdict))
		return 1;
	bool *ptxas_no = ptxas_refused(verdict, n, &outside);
	if (outside) {
		/* a defect of this proof's texts, not a verdict */
		printf("atomics: a refusal outside the combinations (ptxas: %s)\n", verdict);
		return 1;
	}

	unsigned ok = 0, bad = 0;
	for (size_t i = 0; i < n; i++) {
		const combo *k = &cs[i];
		if (emit_no[i] != ptxas_no[i]) {
			bad++;
			printf("ptxemit %s, ptxas %s: %s %s %s %s %s %s %s\n", emit_no[i] ? "refuses" : "accepts",
			       ptxas_no[i] ? "refuses" : "accepts", k->red ? "red" : "atom", k->kind, k->type,
			       k->vec ? k->vec : "-", k->noftz ? "noftz" : "-", k->hint ? "hint" : "-",
			       k->space ? k->space : "-");
		} else if (!emit_no[i])
			ok++;
	}
	printf("atomics on %s: %zu combinations, %u accepted by both, %zu refused by both, %u disagreements\n", target,
	       n, ok, n - ok - bad, bad);
	if (bad)
		return 1;

	/* the combinations ptxemit accepts, translated, assemble */
	buf okm = {0};
	mir_head(&okm, target);
	for (size_t i = 0; i < n; i++)
		if (!emit_no[i])
			mir_line(&okm, &cs[i], i);
	put(&okm, "  ret\n}\n");
	pv_case c2 = {.mir = "ok.mir", .name = "ok.mir", .src = okm.s, .len = okm.n};
	pv_refusals no2 = {0};
	if (pv_translate(&c2, target, NULL, false, &out, &no2) != 0 || !out) {
		printf("atomics: what ptxemit accepted it refuses alone: %s\n", no2.first ? no2.first : "");
		return 1;
	}
	char *v2;
	if (!ask(&j, out, arch, &v2))
		return 1;
	if (strcmp(v2, "ok") != 0) {
		printf("atomics: ptxas refuses what ptxemit printed for the accepted combinations (%s)\n", v2);
		return 1;
	}
	printf("asked %zu\n", j.asked);
	pv_refusals_free(&no), pv_refusals_free(&no2);
	free(cs), free(mir.s), free(ptx.s), free(okm.s), free(out), free(verdict), free(v2), free(emit_no), free(ptxas_no);
	return 0;
}
