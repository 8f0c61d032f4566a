/* jobs: what translating on several threads (px_options.jobs, ptxemit -j)
 * gains, measured in-process so that the calling thread's own CPU time can be
 * told from the others'.
 *
 *   jobs ROUNDS FILE.mir N...
 *
 * Reads FILE once and translates it once to warm the caches and the allocator;
 * then ROUNDS rounds of one translation with each N threads (the output
 * handed to a sink that drops it, as the program's spool would take it), each
 * timed alone: the thread counts alternate, so that a neighbour's burst on a
 * shared machine falls on all of them alike rather than on one count's
 * rounds. For each N above 1 a round also times N one-thread translations
 * of the module at once, each on a thread of its own: what this machine
 * gives N independent jobs at that moment, the most -j N could gain (on a
 * shared virtual machine two busy cores can be much slower than one).
 * Prints one line per N:
 *   N <median wall s> <median CPU s> <median CPU s of the calling thread>
 *     <median wall s of the N independent translations (N above 1; else 0)>
 * wall time from CLOCK_MONOTONIC, CPU time from CLOCK_PROCESS_CPUTIME_ID and
 * CLOCK_THREAD_CPUTIME_ID. The calling thread reads and parses the module and
 * puts the output together: on a machine with at least N free cores the wall
 * time can come down to about the larger of its CPU time and the whole CPU
 * time over N. Exits 1 if a translation fails. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "ptxemit.h"
#include "inproc.h"

typedef struct module {
	const char *name, *src;
	size_t len;
	int errors;
} module;

static void *translate_alone(void *arg)
{
	module *m = arg;
	m->errors = translate_dropped(m->name, m->src, m->len, 1);
	return NULL;
}

/* n one-thread translations of the module at once; their wall time, or a
 * negative time when one fails. */
static double independent(const char *name, const char *src, size_t len, unsigned n)
{
	pthread_t *t = malloc(n * sizeof *t);
	module *m = malloc(n * sizeof *m);
	if (!t || !m)
		return -1;
	double w0 = clock_s(CLOCK_MONOTONIC);
	unsigned started = 0;
	for (; started < n; started++) {
		m[started] = (module){name, src, len, 0};
		if (pthread_create(&t[started], NULL, translate_alone, &m[started]))
			break;
	}
	int errors = started < n;
	for (unsigned i = 0; i < started; i++) {
		pthread_join(t[i], NULL);
		errors |= m[i].errors;
	}
	double w = clock_s(CLOCK_MONOTONIC) - w0;
	free(t);
	free(m);
	return errors ? -1 : w;
}

int main(int argc, char **argv)
{
	int rounds;
	size_t len;
	char *src = read_args(argc, 4, true, argv, "jobs ROUNDS FILE.mir N...", &rounds, &len);
	size_t ncounts = (size_t)(argc - 3), cells = ncounts * (size_t)rounds;
	/* [count][round] */
	double *wall = malloc(sizeof *wall * cells), *cpu = malloc(sizeof *cpu * cells),
	       *own = malloc(sizeof *own * cells), *indep = calloc(cells, sizeof *indep);
	if (!src || !wall || !cpu || !own || !indep || translate_dropped(argv[2], src, len, 1)) {
		fputs("jobs: the module does not translate\n", stderr);
		return 1;
	}
	for (int r = 0; r < rounds; r++)
		for (size_t a = 0; a < ncounts; a++) {
			unsigned jobs = (unsigned)atoi(argv[3 + a]);
			size_t at = a * (size_t)rounds + (size_t)r;
			double w0 = clock_s(CLOCK_MONOTONIC), c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID),
			       t0 = clock_s(CLOCK_THREAD_CPUTIME_ID);
			if (translate_dropped(argv[2], src, len, jobs))
				return 1;
			own[at] = clock_s(CLOCK_THREAD_CPUTIME_ID) - t0;
			cpu[at] = clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0;
			wall[at] = clock_s(CLOCK_MONOTONIC) - w0;
			if (jobs > 1 && (indep[at] = independent(argv[2], src, len, jobs)) < 0)
				return 1;
		}
	for (size_t a = 0; a < ncounts; a++) {
		double *w = wall + a * (size_t)rounds, *c = cpu + a * (size_t)rounds, *o = own + a * (size_t)rounds,
		       *i = indep + a * (size_t)rounds;
		qsort(w, (size_t)rounds, sizeof *w, cmp);
		qsort(c, (size_t)rounds, sizeof *c, cmp);
		qsort(o, (size_t)rounds, sizeof *o, cmp);
		qsort(i, (size_t)rounds, sizeof *i, cmp);
		printf("%u %.6f %.6f %.6f %.6f\n", (unsigned)atoi(argv[3 + a]), w[rounds / 2], c[rounds / 2], o[rounds / 2],
		       i[rounds / 2]);
	}
	free(src);
	free(wall);
	free(cpu);
	free(own);
	free(indep);
	return 0;
}
