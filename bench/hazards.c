/* hazards: what the hazard checks (px_check_hazards, the verifier's one call
 * per function that follows its paths) cost a translation, measured in-process.
 *
 *   hazards ROUNDS FILE.mir
 *
 * Linked with -Wl,--wrap=px_check_hazards against the static library: the
 * verifier's call reaches __wrap_px_check_hazards below, which times the
 * real checks with the thread's CPU clock. The library is the one ptxemit
 * is built from, unchanged: no option, no hook, nothing on its normal path.
 * Timing the checks inside each translation, rather than a translation with
 * them against one without, keeps the two parts of a round at the same
 * moment: on a shared machine the speed of a core drifts by more than the
 * checks cost between rounds.
 *
 * Reads FILE once, translates it once to warm the caches and the allocator,
 * then ROUNDS times on the calling thread alone (px_options.jobs 1, the
 * output handed to a sink that drops it, as the program's spool would take
 * it). Prints one line:
 *   <median CPU s of a translation> <median CPU s in px_check_hazards>
 *     <median of the rounds' cost: checks / the rest, in percent>
 * Exits 1 if a translation fails or the checks were never reached (the wrap
 * did not take: the figures would be the rest's alone). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "ptxemit.h"
#include "inproc.h"

struct px_verifier;
struct px_func;
void __real_px_check_hazards(struct px_verifier *v, struct px_func *f);
void __wrap_px_check_hazards(struct px_verifier *v, struct px_func *f);

/* CPU time in the checks and calls made, over the current translation (one
 * thread: jobs is 1) */
static double in_checks;
static unsigned long calls;

void __wrap_px_check_hazards(struct px_verifier *v, struct px_func *f)
{
	double t0 = clock_s(CLOCK_THREAD_CPUTIME_ID);
	__real_px_check_hazards(v, f);
	in_checks += clock_s(CLOCK_THREAD_CPUTIME_ID) - t0;
	calls++;
}

static int translate(const char *name, const char *src, size_t len)
{
	in_checks = 0;
	calls = 0;
	return translate_dropped(name, src, len, 1) || !calls;
}

int main(int argc, char **argv)
{
	int rounds;
	size_t len;
	char *src = read_args(argc, 3, false, argv, "hazards ROUNDS FILE.mir", &rounds, &len);
	double *all = malloc(sizeof *all * (size_t)rounds), *checks = malloc(sizeof *checks * (size_t)rounds),
	       *cost = malloc(sizeof *cost * (size_t)rounds);
	if (!src || !all || !checks || !cost || translate(argv[2], src, len)) {
		fputs("hazards: the module does not translate, or px_check_hazards was not reached\n", stderr);
		return 1;
	}
	for (int r = 0; r < rounds; r++) {
		double c0 = clock_s(CLOCK_THREAD_CPUTIME_ID);
		if (translate(argv[2], src, len))
			return 1;
		all[r] = clock_s(CLOCK_THREAD_CPUTIME_ID) - c0;
		checks[r] = in_checks;
		cost[r] = 100 * in_checks / (all[r] - in_checks);
	}
	qsort(all, (size_t)rounds, sizeof *all, cmp);
	qsort(checks, (size_t)rounds, sizeof *checks, cmp);
	qsort(cost, (size_t)rounds, sizeof *cost, cmp);
	printf("%.9f %.9f %.3f\n", all[rounds / 2], checks[rounds / 2], cost[rounds / 2]);
	free(src);
	free(all);
	free(checks);
	free(cost);
	return 0;
}
