/* Several translations at once on different threads: the library keeps no
 * state outside the px_translate call but the page pool (whose memory each
 * translation takes for its own), so each thread's output and diagnostics
 * must equal what the same translation gives on its own. */
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptxemit.h"
#include "suites.h"

static const char *const modules[] = {
	/* a kernel with a shared tile, a loop and barriers */
	"target sm_80\n"
	"shared @buf : f32[256] align 4\n"
	"kernel @reduce(%in: ptr global, %out: ptr global) reqntid(256) {\n"
	"  %t:u32 = mov %tid.x\n"
	"  %off:u64 = mul.wide %t, 4\n"
	"  %pin:u64 = add %in, %off\n"
	"  %x:f32 = ld.global [%pin]\n"
	"  %base:u32 = mov @buf\n"
	"  %toff:u32 = shl %t, 2\n"
	"  %mine:u32 = add %base, %toff\n"
	"  st.shared [%mine], %x\n"
	"  bar.sync 0\n"
	"  %s:u32 = mov 128\n"
	"^loop:\n"
	"  %act:pred = setp.lt %t, %s\n"
	"  @!%act bra ^next\n"
	"  %soff:u32 = shl %s, 2\n"
	"  %other:u32 = add %mine, %soff\n"
	"  %a:f32 = ld.shared [%mine]\n"
	"  %b:f32 = ld.shared [%other]\n"
	"  %sum:f32 = add %a, %b\n"
	"  st.shared [%mine], %sum\n"
	"^next:\n"
	"  bar.sync 0\n"
	"  %s = shr %s, 1\n"
	"  %more:pred = setp.ne %s, 0\n"
	"  @%more bra ^loop\n"
	"  %total:f32 = ld.shared [@buf]\n"
	"  st.global [%out], %total\n"
	"  ret\n"
	"}\n",
	/* a device function and its call */
	"target sm_90\n"
	"func @twice(%x: f32) -> f32 {\n"
	"  %y:f32 = add %x, %x\n"
	"  ret %y\n"
	"}\n"
	"kernel @k(%p: ptr global) {\n"
	"  %v:f32 = ld.global [%p]\n"
	"  %w:f32 = call @twice(%v)\n"
	"  st.global [%p], %w\n"
	"  ret\n"
	"}\n",
	/* errors: each thread must see exactly its own */
	"target sm_80\n"
	"kernel @bad(%p: ptr global) {\n"
	"  %x:f32 = ld.global [%p]\n"
	"  %y:f32 = ad %x, %x\n"
	"  %z:f32 = add %x, %q\n"
	"  st.global [%p], %y\n"
	"  ret\n"
	"}\n",
	/* a target window: sm_70 has no cluster registers */
	"target sm_70\n"
	"kernel @c(%p: ptr global) {\n"
	"  %x:u32 = mov %clusterid.x\n"
	"  st.global [%p], %x\n"
	"  ret\n"
	"}\n",
};
enum { NMODULES = sizeof modules / sizeof modules[0], NTHREADS = 8, ROUNDS = 12 };

/* Everything one translation produced: status, PTX and diagnostics as text. */
typedef struct result {
	int errors;
	char *out;
	char diags[2048];
	size_t dlen;
} result;

static void collect(void *ctx, const px_diagnostic *d)
{
	result *r = ctx;
	char line[1024];
	px_diagnostic_format(d, line, sizeof line);
	size_t n = strlen(line);
	if (r->dlen + n < sizeof r->diags) {
		memcpy(r->diags + r->dlen, line, n + 1);
		r->dlen += n;
	}
}

static void run(unsigned m, result *r)
{
	memset(r, 0, sizeof *r);
	size_t len;
	char name[16];
	snprintf(name, sizeof name, "m%u.mir", m);
	r->errors = px_translate(name, modules[m], strlen(modules[m]), NULL, collect, r, &r->out, &len);
}

static result expected[NMODULES];

typedef struct worker {
	unsigned id;
	unsigned mismatches;
} worker;

static void *work(void *arg)
{
	worker *w = arg;
	for (unsigned round = 0; round < ROUNDS; round++) {
		unsigned m = (w->id + round) % NMODULES;
		result r;
		run(m, &r);
		const result *e = &expected[m];
		if (r.errors != e->errors || strcmp(r.diags, e->diags) != 0 ||
		    (e->out ? !r.out || strcmp(r.out, e->out) != 0 : r.out != NULL))
			w->mismatches++;
		free(r.out);
	}
	return NULL;
}

START_TEST(concurrent_translations_agree)
{
	for (unsigned m = 0; m < NMODULES; m++)
		run(m, &expected[m]);
	/* the modules do what they are here for: two translate, two do not */
	ck_assert_int_eq(expected[0].errors, 0);
	ck_assert_int_eq(expected[1].errors, 0);
	ck_assert_int_eq(expected[2].errors, 2);
	ck_assert_int_ge(expected[3].errors, 1);
	ck_assert_ptr_nonnull(strstr(expected[1].out, "call.uni"));
	ck_assert_ptr_nonnull(strstr(expected[2].diags, "unknown operation 'ad'"));

	pthread_t tid[NTHREADS];
	worker w[NTHREADS];
	for (unsigned i = 0; i < NTHREADS; i++) {
		w[i] = (worker){i, 0};
		ck_assert_int_eq(pthread_create(&tid[i], NULL, work, &w[i]), 0);
	}
	unsigned bad = 0;
	for (unsigned i = 0; i < NTHREADS; i++) {
		ck_assert_int_eq(pthread_join(tid[i], NULL), 0);
		bad += w[i].mismatches;
	}
	ck_assert_uint_eq(bad, 0);
	for (unsigned m = 0; m < NMODULES; m++)
		free(expected[m].out);
}
END_TEST

/* px_options.jobs: functions translated on several threads give the same
 * bytes and messages as one thread, with and without a sink. */
typedef struct sunk {
	char *data;
	size_t len;
} sunk;

static void sink(void *ctx, const char *data, size_t len)
{
	sunk *k = ctx;
	k->data = realloc(k->data, k->len + len + 1);
	ck_assert_ptr_nonnull(k->data);
	memcpy(k->data + k->len, data, len);
	k->len += len;
	k->data[k->len] = 0;
}

static void run_jobs(const char *src, unsigned jobs, bool use_sink, result *r)
{
	memset(r, 0, sizeof *r);
	px_options o;
	px_options_default(&o);
	o.jobs = jobs;
	sunk k = {NULL, 0};
	if (use_sink) {
		o.sink = sink;
		o.sink_ctx = &k;
	}
	size_t len;
	r->errors = px_translate("j.mir", src, strlen(src), &o, collect, r, &r->out, &len);
	if (use_sink && r->out) {
		r->out = realloc(r->out, len + k.len + 1);
		ck_assert_ptr_nonnull(r->out);
		memcpy(r->out + len, k.data ? k.data : "", k.len + 1);
	}
	free(k.data);
}

/* Many functions, each calling the one before it and, from function later
 * on, the one after it (not seen yet: its prototype goes in front, and the
 * functions from there on wait for the module's end), and an error in a
 * chosen one. */
static char *many_functions(unsigned n, unsigned bad, unsigned later)
{
	size_t cap = 256 + (size_t)n * 256;
	char *s = malloc(cap);
	ck_assert_ptr_nonnull(s);
	size_t len = (size_t)snprintf(s, cap, "target sm_80\n");
	for (unsigned i = 0; i < n; i++) {
		len += (size_t)snprintf(s + len, cap - len,
		                        "func @f%u(%%x: u32) -> u32 {\n"
		                        "  %%y:u32 = add %%x, %u\n", i, i);
		if (i > 0)
			len += (size_t)snprintf(s + len, cap - len, "  %%a:u32 = call @f%u(%%y)\n", i - 1);
		if (i + 1 < n && i >= later)
			len += (size_t)snprintf(s + len, cap - len, "  %%b:u32 = call @f%u(%%y)\n", i + 1);
		len += (size_t)snprintf(s + len, cap - len, "  %%z:u32 = %s %%y, %%y\n  ret %%z\n}\n",
		                        i == bad ? "mull" : "mul.lo");
	}
	return s;
}

START_TEST(jobs_agree)
{
	char *big = many_functions(60, UINT32_MAX, 30), *bad = many_functions(60, 41, 30);
	char *flat = many_functions(60, UINT32_MAX, UINT32_MAX), *first = many_functions(60, UINT32_MAX, 0);
	const char *srcs[NMODULES + 4];
	for (unsigned m = 0; m < NMODULES; m++)
		srcs[m] = modules[m];
	srcs[NMODULES] = big;
	srcs[NMODULES + 1] = bad;
	srcs[NMODULES + 2] = flat;
	srcs[NMODULES + 3] = first;
	for (unsigned m = 0; m < NMODULES + 4; m++) {
		for (int use_sink = 0; use_sink < 2; use_sink++) {
			result one;
			run_jobs(srcs[m], 1, use_sink, &one);
			for (unsigned jobs = 2; jobs <= 8; jobs *= 2) {
				result r;
				run_jobs(srcs[m], jobs, use_sink, &r);
				ck_assert_int_eq(r.errors, one.errors);
				ck_assert_str_eq(r.diags, one.diags);
				if (one.out)
					ck_assert_str_eq(r.out, one.out);
				else
					ck_assert_ptr_null(r.out);
				free(r.out);
			}
			free(one.out);
		}
	}
	result r;
	run_jobs(bad, 4, false, &r);
	ck_assert_int_eq(r.errors, 1);
	ck_assert_ptr_nonnull(strstr(r.diags, "j.mir:262:"));
	/* 59 calls of the function before, 29 of the one after */
	run_jobs(big, 4, false, &r);
	ck_assert_int_eq(r.errors, 0);
	ck_assert_ptr_nonnull(strstr(r.out, "// callseq 87"));
	ck_assert_ptr_null(strstr(r.out, "// callseq 88"));
	free(r.out);
	run_jobs(flat, 4, false, &r);
	ck_assert_int_eq(r.errors, 0);
	ck_assert_ptr_nonnull(strstr(r.out, "// callseq 58"));
	ck_assert_ptr_null(strstr(r.out, "// callseq 59"));
	free(r.out);
	run_jobs(first, 4, false, &r);
	ck_assert_int_eq(r.errors, 0);
	ck_assert_ptr_nonnull(strstr(r.out, "// callseq 117"));
	free(r.out);
	free(big);
	free(bad);
	free(flat);
	free(first);
}
END_TEST

/* Assemblies at once: ptxas run from several threads, and one cubin cache
 * filled and read by all of them, give each the cubin a lone run gives.
 * Without a ptxas there is nothing to run, and nothing is checked. */
typedef struct assembly {
	const char *cache;
	size_t len[2];
	char *cubin[2];
	unsigned mismatches;
} assembly;

static int assemble(unsigned m, const char *cache, char **out, size_t *len)
{
	px_options o;
	px_options_default(&o);
	o.cubin = true;
	o.cache_dir = cache;
	return px_translate("a.mir", modules[m], strlen(modules[m]), &o, NULL, NULL, out, len);
}

static void *assemble_work(void *arg)
{
	assembly *a = arg;
	for (unsigned round = 0; round < 3; round++)
		for (unsigned m = 0; m < 2; m++) {
			char *out = NULL;
			size_t len = 0;
			if (assemble(m, round % 2 ? a->cache : NULL, &out, &len) != 0 || len != a->len[m] ||
			    memcmp(out, a->cubin[m], len) != 0)
				a->mismatches++;
			free(out);
		}
	return NULL;
}

START_TEST(concurrent_assemblies_agree)
{
	char path[4096];
	px_options o;
	px_options_default(&o);
	if (px_find_ptxas(&o, path, sizeof path) != 0)
		return;
	char dir[] = "/tmp/ptxemit-unit-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	char cache[sizeof dir + 8];
	snprintf(cache, sizeof cache, "%s/cache", dir);
	assembly a[4] = {{0}};
	for (unsigned m = 0; m < 2; m++) {
		ck_assert_int_eq(assemble(m, NULL, &a[0].cubin[m], &a[0].len[m]), 0);
		ck_assert_uint_gt(a[0].len[m], 52);
		ck_assert_int_eq(memcmp(a[0].cubin[m], "\177ELF", 4), 0);
	}
	pthread_t t[4];
	for (unsigned i = 0; i < 4; i++) {
		a[i].cache = cache;
		for (unsigned m = 0; m < 2; m++) {
			a[i].cubin[m] = a[0].cubin[m];
			a[i].len[m] = a[0].len[m];
		}
		ck_assert_int_eq(pthread_create(&t[i], NULL, assemble_work, &a[i]), 0);
	}
	for (unsigned i = 0; i < 4; i++) {
		pthread_join(t[i], NULL);
		ck_assert_uint_eq(a[i].mismatches, 0);
	}
	free(a[0].cubin[0]);
	free(a[0].cubin[1]);
	char cmd[sizeof dir + 16];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

Suite *threads_suite(void)
{
	Suite *s = suite_create("threads");
	TCase *tc = tcase_create("concurrent");
	tcase_add_test(tc, concurrent_translations_agree);
	tcase_add_test(tc, jobs_agree);
	tcase_add_test(tc, concurrent_assemblies_agree);
	suite_add_tcase(s, tc);
	return s;
}
