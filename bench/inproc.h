/* What the in-process benchmarks (latency.c, jobs.c, hazards.c, stages.c)
 * share: their first arguments, reading the module into memory once, a
 * translation with its output dropped, reading a clock in seconds, and the order qsort needs to take medians of their
 * rounds. */
#ifndef BENCH_INPROC_H
#define BENCH_INPROC_H
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "ptxemit.h"

/* The whole of F (closed here), or NULL when memory runs out. */
static char *read_all(FILE *f, size_t *len)
{
	size_t cap = 1 << 16, n;
	char *src = malloc(cap);
	*len = 0;
	while (src && (n = fread(src + *len, 1, cap - *len, f)) > 0) {
		*len += n;
		if (*len == cap)
			src = realloc(src, cap *= 2);
	}
	fclose(f);
	return src;
}

/* The arguments every one of them takes first, ROUNDS FILE.mir: the rounds,
 * and the module read whole (NULL when memory runs out). argv holds nargs
 * (more: or more), usage names them all. Exits 2 with a message on a usage
 * or I/O error. */
static char *read_args(int argc, int nargs, bool more, char **argv, const char *usage, int *rounds, size_t *len)
{
	if (argc < nargs || (!more && argc > nargs)) {
		fprintf(stderr, "usage: %s\n", usage);
		exit(2);
	}
	*rounds = atoi(argv[1]);
	FILE *f = fopen(argv[2], "rb");
	if (*rounds < 1 || !f) {
		perror(argv[2]);
		exit(2);
	}
	return read_all(f, len);
}

static inline void drop(void *ctx, const char *data, size_t len)
{
	(void)ctx;
	(void)data;
	(void)len;
}

/* One translation on jobs threads, its output handed to a sink that drops
 * it as the program's spool would take it: the errors it found. */
static inline int translate_dropped(const char *name, const char *src, size_t len, unsigned jobs)
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

static double clock_s(clockid_t id)
{
	struct timespec ts;
	clock_gettime(id, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}
#endif
