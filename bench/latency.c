/* latency: the in-process cost of one translation, as a program that links
 * libptxemit and calls it pays it: no process start, no file I/O.
 *
 *   latency ROUNDS FILE.mir
 *
 * Reads FILE once, translates it once to warm the caches and the allocator,
 * then ROUNDS times, each timed alone. Prints one line:
 *   <median seconds> <min seconds> <median CPU seconds> <min CPU seconds>
 * wall time from CLOCK_MONOTONIC, CPU time from CLOCK_PROCESS_CPUTIME_ID.
 * Exits 1 if a translation fails. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "ptxemit.h"
#include "inproc.h"

static int translate(const char *name, const char *src, size_t len)
{
	char *out;
	size_t outlen;
	int errors = px_translate(name, src, len, NULL, NULL, NULL, &out, &outlen);
	free(out);
	return errors;
}

int main(int argc, char **argv)
{
	int rounds;
	size_t len;
	char *src = read_args(argc, 3, false, argv, "latency ROUNDS FILE.mir", &rounds, &len);
	double *wall = malloc(sizeof *wall * (size_t)rounds), *cpu = malloc(sizeof *cpu * (size_t)rounds);
	if (!src || !wall || !cpu || translate(argv[2], src, len)) {
		fputs("latency: the module does not translate\n", stderr);
		return 1;
	}
	for (int r = 0; r < rounds; r++) {
		double w0 = clock_s(CLOCK_MONOTONIC), c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
		if (translate(argv[2], src, len))
			return 1;
		cpu[r] = clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0;
		wall[r] = clock_s(CLOCK_MONOTONIC) - w0;
	}
	qsort(wall, (size_t)rounds, sizeof *wall, cmp);
	qsort(cpu, (size_t)rounds, sizeof *cpu, cmp);
	printf("%.9f %.9f %.9f %.9f\n", wall[rounds / 2], wall[0], cpu[rounds / 2], cpu[0]);
	free(src);
	free(wall);
	free(cpu);
	return 0;
}
