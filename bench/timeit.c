/* timeit: runs several commands in turn, round after round, and prints for
 * each the median and the minimum wall-clock time, the largest peak resident
 * set over the rounds and the median and the minimum CPU time (user + system).
 *
 *   timeit ROUNDS CMD1 [ARG...] [-- CMD2 [ARG...]]...
 *
 * Running the commands alternately, rather than each ROUNDS times in a row,
 * spreads the machine's background noise over all of them alike. Each
 * command's standard output goes to /dev/null. Output, one line a command:
 *   <median seconds> <min seconds> <peak RSS KiB> <median CPU seconds> <min CPU seconds>
 * The minimum is the run the machine disturbed least: noise only adds time.
 * The exit status is 1 if any run of any command failed. */
#define _DEFAULT_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* One run of argv: its wall time, or a negative number if it failed; its
 * CPU time goes to *cpu. */
static double run(char **argv, long *maxrss, double *cpu)
{
	double t0 = now();
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);
		if (null >= 0)
			dup2(null, STDOUT_FILENO);
		execvp(argv[0], argv);
		_exit(127);
	}
	int status;
	struct rusage ru;
	if (wait4(pid, &status, 0, &ru) < 0)
		return -1;
	double t = now() - t0;
	*cpu = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
	       (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
	if (ru.ru_maxrss > *maxrss)
		*maxrss = ru.ru_maxrss;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? t : -1;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(const double *sorted, int n)
{
	return n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fputs("usage: timeit ROUNDS CMD [ARG...] [-- CMD [ARG...]]...\n", stderr);
		return 2;
	}
	int rounds = atoi(argv[1]);
	if (rounds < 1)
		rounds = 1;
	char ***cmds = malloc(sizeof *cmds * (size_t)argc);
	int ncmds = 0;
	cmds[ncmds++] = argv + 2;
	for (int i = 2; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0) {
			argv[i] = NULL;
			cmds[ncmds++] = argv + i + 1;
		}
	}
	double *times = malloc(sizeof *times * (size_t)(ncmds * rounds));
	double *cpus = malloc(sizeof *cpus * (size_t)(ncmds * rounds));
	long *rss = calloc((size_t)ncmds, sizeof *rss);
	int failed = 0;
	for (int r = 0; r < rounds; r++) {
		for (int c = 0; c < ncmds; c++) {
			double t = run(cmds[c], &rss[c], &cpus[c * rounds + r]);
			if (t < 0) {
				fprintf(stderr, "timeit: %s failed\n", cmds[c][0]);
				failed = 1;
			}
			times[c * rounds + r] = t;
		}
	}
	for (int c = 0; c < ncmds; c++) {
		double *t = times + c * rounds, *u = cpus + c * rounds;
		qsort(t, (size_t)rounds, sizeof *t, cmp_double);
		qsort(u, (size_t)rounds, sizeof *u, cmp_double);
		printf("%.6f %.6f %ld %.6f %.6f\n", median(t, rounds), t[0], rss[c], median(u, rounds), u[0]);
	}
	return failed;
}
