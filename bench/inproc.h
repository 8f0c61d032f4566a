/* What the in-process benchmarks (latency.c, jobs.c) share: reading the module
 * into memory once, reading a clock in seconds, and the order qsort needs to
 * take medians of their rounds. */
#ifndef BENCH_INPROC_H
#define BENCH_INPROC_H
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

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
