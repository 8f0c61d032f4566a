/* stages: where a translation's time goes, stage by stage, measured
 * in-process.
 *
 *   stages ROUNDS FILE.mir
 *
 * Linked with -Wl,--wrap for each stage's entry point the pipeline calls
 * from another object of the archive (the verifier's px_verify_func, its
 * px_check_hazards, the selector's px_select_begin and px_select_more,
 * the printer's px_print_func_open, px_print_insts and px_print_func_close),
 * so the library is the one ptxemit is built from, unchanged. Each wrapper
 * times its call with the thread's CPU clock and keeps the time less what
 * the wrapped calls inside it took: the verifier calls the hazard checks,
 * so each stage's figure is its own. The front end (scanner, parser, IR building)
 * and the pipeline's glue are the rest of the translation.
 *
 * Reads FILE once, translates it once to warm up, then ROUNDS times on the
 * calling thread alone (jobs 1, the output dropped by a sink). Prints one
 * line of medians over the rounds, CPU seconds:
 *   <translation> <front end and the rest> <verify> <hazards> <isel> <print>
 * Exits 1 if a translation fails or a stage was never reached. */
#define _POSIX_C_SOURCE 200809L
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "ptxemit.h"
#include "inproc.h"

enum { VERIFY, HAZARDS, ISEL, PRINT, NSTAGES };

/* CPU time of each stage in the current translation, each call's own. */
static double own[NSTAGES];
static unsigned long reached[NSTAGES];
/* what the wrapped calls inside the running one took */
static double inside;

struct px_verifier;
struct px_func;
struct px_isel;
struct px_mfunc;
struct px_minst;
struct px_buf;

/* Times call as stage s, its nested wrapped calls left out. */
#define TIMED(s, call)                                                                                          \
	do {                                                                                                    \
		double outer = inside, t0 = clock_s(CLOCK_THREAD_CPUTIME_ID);                                    \
		inside = 0;                                                                                     \
		call;                                                                                           \
		double dt = clock_s(CLOCK_THREAD_CPUTIME_ID) - t0;                                               \
		own[s] += dt - inside;                                                                          \
		reached[s]++;                                                                                   \
		inside = outer + dt;                                                                            \
	} while (0)

void __real_px_verify_func(struct px_verifier *v, struct px_func *f);
void __wrap_px_verify_func(struct px_verifier *v, struct px_func *f);
void __wrap_px_verify_func(struct px_verifier *v, struct px_func *f) { TIMED(VERIFY, __real_px_verify_func(v, f)); }

void __real_px_check_hazards(struct px_verifier *v, struct px_func *f);
void __wrap_px_check_hazards(struct px_verifier *v, struct px_func *f);
void __wrap_px_check_hazards(struct px_verifier *v, struct px_func *f)
{
	TIMED(HAZARDS, __real_px_check_hazards(v, f));
}

void __real_px_select_begin(struct px_isel *s, struct px_func *f);
void __wrap_px_select_begin(struct px_isel *s, struct px_func *f);
void __wrap_px_select_begin(struct px_isel *s, struct px_func *f) { TIMED(ISEL, __real_px_select_begin(s, f)); }

bool __real_px_select_more(struct px_isel *s);
bool __wrap_px_select_more(struct px_isel *s);
bool __wrap_px_select_more(struct px_isel *s)
{
	bool more;
	TIMED(ISEL, more = __real_px_select_more(s));
	return more;
}

void __real_px_print_func_open(struct px_buf *out, const struct px_mfunc *mf);
void __wrap_px_print_func_open(struct px_buf *out, const struct px_mfunc *mf);
void __wrap_px_print_func_open(struct px_buf *out, const struct px_mfunc *mf)
{
	TIMED(PRINT, __real_px_print_func_open(out, mf));
}

void __real_px_print_insts(struct px_buf *out, const struct px_mfunc *mf, const struct px_minst *first);
void __wrap_px_print_insts(struct px_buf *out, const struct px_mfunc *mf, const struct px_minst *first);
void __wrap_px_print_insts(struct px_buf *out, const struct px_mfunc *mf, const struct px_minst *first)
{
	TIMED(PRINT, __real_px_print_insts(out, mf, first));
}

void __real_px_print_func_close(struct px_buf *out);
void __wrap_px_print_func_close(struct px_buf *out);
void __wrap_px_print_func_close(struct px_buf *out) { TIMED(PRINT, __real_px_print_func_close(out)); }

/* One translation: its CPU time, the stages' own in own[]. */
static int translate(const char *name, const char *src, size_t len, double *all)
{
	for (int s = 0; s < NSTAGES; s++)
		own[s] = 0, reached[s] = 0;
	inside = 0;
	double t0 = clock_s(CLOCK_THREAD_CPUTIME_ID);
	int errors = translate_dropped(name, src, len, 1);
	*all = clock_s(CLOCK_THREAD_CPUTIME_ID) - t0;
	for (int s = 0; s < NSTAGES; s++)
		if (!reached[s])
			return 1;
	return errors;
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, cmp);
	return v[n / 2];
}

int main(int argc, char **argv)
{
	int rounds;
	size_t len;
	char *src = read_args(argc, 3, false, argv, "stages ROUNDS FILE.mir", &rounds, &len);
	/* per round: the translation, the rest, then each stage */
	double *t = malloc(sizeof *t * (size_t)rounds * (NSTAGES + 2)), all;
	if (!src || !t || translate(argv[2], src, len, &all)) {
		fputs("stages: the module does not translate, or a stage was not reached\n", stderr);
		return 1;
	}
	for (int r = 0; r < rounds; r++) {
		if (translate(argv[2], src, len, &all))
			return 1;
		double rest = all;
		for (int s = 0; s < NSTAGES; s++)
			rest -= own[s], t[(size_t)(2 + s) * rounds + r] = own[s];
		t[r] = all;
		t[(size_t)rounds + r] = rest;
	}
	for (int k = 0; k < NSTAGES + 2; k++)
		printf("%s%.9f", k ? " " : "", median(t + (size_t)k * rounds, rounds));
	printf("\n");
	free(src);
	free(t);
	return 0;
}
