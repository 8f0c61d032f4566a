/* jobs: what translating on several threads (px_options.jobs, ptxemit -j)
 * gains, measured in-process so that the calling thread's own CPU time can be
 * told from the others'.
 *
 *   jobs ROUNDS FILE.mir N...
 *
 * Reads FILE once and translates it once to warm the caches and the allocator;
 * then, for each N, ROUNDS translations with N threads (the output handed to a
 * sink that drops it, as the program's spool would take it), each timed
 * alone. Prints one line per N:
 *   N <median wall s> <median CPU s> <median CPU s of the calling thread>
 * wall time from CLOCK_MONOTONIC, CPU time from CLOCK_PROCESS_CPUTIME_ID and
 * CLOCK_THREAD_CPUTIME_ID. The calling thread reads and parses the module and
 * puts the output together: on a machine with at least N free cores the wall
 * time can come down to about the larger of its CPU time and the whole CPU
 * time over N. Exits 1 if a translation fails. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "ptxemit.h"
#include "inproc.h"

static void drop(void *ctx, const char *data, size_t len)
{
	(void)ctx;
	(void)data;
	(void)len;
}

static int translate(const char *name, const char *src, size_t len, unsigned jobs)
{
	px_options o;
	px_options_default(&o);
	o.jobs = jobs;
	o.sink = drop;
	char *out;
	size_t outlen;
	int errors = px_translate(name, src, len, &o, NULL, NULL, &out, &outlen);
	free(out);
	return errors;
}

int main(int argc, char **argv)
{
	if (argc < 4) {
		fputs("usage: jobs ROUNDS FILE.mir N...\n", stderr);
		return 2;
	}
	int rounds = atoi(argv[1]);
	FILE *f = fopen(argv[2], "rb");
	if (rounds < 1 || !f) {
		perror("jobs");
		return 2;
	}
	size_t len;
	char *src = read_all(f, &len);
	double *wall = malloc(sizeof *wall * (size_t)rounds), *cpu = malloc(sizeof *cpu * (size_t)rounds),
	       *own = malloc(sizeof *own * (size_t)rounds);
	if (!src || !wall || !cpu || !own || translate(argv[2], src, len, 1)) {
		fputs("jobs: the module does not translate\n", stderr);
		return 1;
	}
	for (int a = 3; a < argc; a++) {
		unsigned jobs = (unsigned)atoi(argv[a]);
		for (int r = 0; r < rounds; r++) {
			double w0 = clock_s(CLOCK_MONOTONIC), c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID),
			       t0 = clock_s(CLOCK_THREAD_CPUTIME_ID);
			if (translate(argv[2], src, len, jobs))
				return 1;
			own[r] = clock_s(CLOCK_THREAD_CPUTIME_ID) - t0;
			cpu[r] = clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0;
			wall[r] = clock_s(CLOCK_MONOTONIC) - w0;
		}
		qsort(wall, (size_t)rounds, sizeof *wall, cmp);
		qsort(cpu, (size_t)rounds, sizeof *cpu, cmp);
		qsort(own, (size_t)rounds, sizeof *own, cmp);
		printf("%u %.6f %.6f %.6f\n", jobs, wall[rounds / 2], cpu[rounds / 2], own[rounds / 2]);
		fflush(stdout);
	}
	free(src);
	free(wall);
	free(cpu);
	free(own);
	return 0;
}
