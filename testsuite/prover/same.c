/* prover same OLD NEW JOBS FILE...: two builds of ptxemit say the same.
 *
 * For each MIR file, and for mutants of it (a line deleted, a line doubled,
 * two lines swapped, the text cut in half: inputs with errors a change may
 * report differently), OLD and NEW run with the file's own options (its
 * first line's "; ptxemit: ...") and with each way of printing: the PTX,
 * --emit=isel, --emit=mir, --remarks and --diagnostics-format=json. Each run's
 * standard output, standard error and exit status must be the same byte for
 * byte, and NEW's PTX the same again at -j 2 and -j 8 (the threads change
 * nothing). A restructuring of the pipeline is checked so against the build
 * before it; OLD and NEW the same build still checks the threads.
 *
 * Prints each difference ("FILE VARIANT: stdout differs") and the counts;
 * exits 1 on a difference. JOBS processes share the files. */
#include "prover.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

enum { MAX_ARGS = 32, MUTANTS = 4 };

typedef struct run {
	char *out, *err;
	size_t outlen, errlen;
	int status;
} run;

/* Runs argv with standard output and error to files in dir; stdin from
 * /dev/null. */
static int run_one(const char *dir, char *const argv[], run *r)
{
	char *o = pv_printf("%s/out", dir), *e = pv_printf("%s/err", dir);
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		int in = open("/dev/null", O_RDONLY), fo = open(o, O_WRONLY | O_CREAT | O_TRUNC, 0600),
		    fe = open(e, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (in < 0 || fo < 0 || fe < 0)
			_exit(126);
		dup2(in, 0), dup2(fo, 1), dup2(fe, 2);
		execv(argv[0], argv);
		_exit(127);
	}
	int st;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	r->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	r->out = pv_read_file(o, &r->outlen);
	r->err = pv_read_file(e, &r->errlen);
	free(o), free(e);
	return r->out && r->err ? 0 : -1;
}

static void run_free(run *r) { free(r->out), free(r->err); }

/* The options a case's first line gives: "; ptxemit: OPTS [; status: N]". */
static unsigned case_options(const char *text, char **opt, unsigned most)
{
	static const char lead[] = "; ptxemit:";
	if (strncmp(text, lead, sizeof lead - 1))
		return 0;
	const char *p = text + sizeof lead - 1, *end = strpbrk(p, ";\n");
	if (!end)
		end = p + strlen(p);
	unsigned n = 0;
	while (p < end && n < most) {
		while (p < end && *p == ' ')
			p++;
		const char *w = p;
		while (p < end && *p != ' ')
			p++;
		if (p > w)
			opt[n++] = pv_printf("%.*s", (int)(p - w), w);
	}
	return n;
}

/* Compares one way of running OLD and NEW on file; NEW also at -j 2 and 8
 * where threads says so. Returns the differences found. */
static unsigned compare(const char *dir, const char *old, const char *nu, const char *file, char **opt,
                        unsigned nopt, const char *way, bool threads)
{
	char *argv[MAX_ARGS + 8];
	unsigned n = 0;
	argv[n++] = NULL; /* the binary */
	for (unsigned i = 0; i < nopt; i++)
		argv[n++] = opt[i];
	if (*way)
		argv[n++] = (char *)way;
	unsigned jobs_at = n;
	argv[n++] = (char *)"-j1";
	argv[n++] = (char *)file;
	argv[n] = NULL;
	run a, b;
	argv[0] = (char *)old;
	if (run_one(dir, argv, &a))
		return 1;
	argv[0] = (char *)nu;
	unsigned diffs = 0;
	static const char *const js[] = {"-j1", "-j2", "-j8"};
	for (unsigned k = 0; k < (threads ? 3u : 1u); k++) {
		argv[jobs_at] = (char *)js[k];
		if (run_one(dir, argv, &b)) {
			diffs++;
			break;
		}
		const char *what = a.status != b.status                                                ? "exit status"
		                   : a.outlen != b.outlen || memcmp(a.out, b.out, a.outlen)          ? "stdout"
		                   : a.errlen != b.errlen || memcmp(a.err, b.err, a.errlen)          ? "stderr"
		                                                                                      : NULL;
		if (what) {
			printf("%s %s %s: %s differs\n", file, *way ? way : "(ptx)", js[k], what);
			diffs++;
		}
		run_free(&b);
	}
	run_free(&a);
	return diffs;
}

/* Mutant k of text (len bytes) in *out: deterministic in the text. */
static char *mutant(const char *text, size_t len, unsigned k, size_t *outlen)
{
	size_t nl = 0;
	for (size_t i = 0; i < len; i++)
		nl += text[i] == '\n';
	uint64_t h = 1469598103934665603ULL;
	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)text[i]) * 1099511628211ULL;
	size_t line = nl > 2 ? 1 + (size_t)((h >> (8 * k)) % (nl - 2)) : 0;
	/* where line starts and where the next starts */
	size_t at = 0, cur = 0;
	while (cur < line && at < len)
		cur += text[at++] == '\n';
	size_t next = at;
	while (next < len && text[next] != '\n')
		next++;
	if (next < len)
		next++;
	size_t after = next;
	while (after < len && text[after] != '\n')
		after++;
	if (after < len)
		after++;
	char *m = pv_alloc(2 * len + 2);
	size_t n = 0;
	switch (k) {
	case 0: /* delete the line */
		memcpy(m, text, at), n = at;
		memcpy(m + n, text + next, len - next), n += len - next;
		break;
	case 1: /* double it */
		memcpy(m, text, next), n = next;
		memcpy(m + n, text + at, next - at), n += next - at;
		memcpy(m + n, text + next, len - next), n += len - next;
		break;
	case 2: /* swap it with the next */
		memcpy(m, text, at), n = at;
		memcpy(m + n, text + next, after - next), n += after - next;
		memcpy(m + n, text + at, next - at), n += next - at;
		memcpy(m + n, text + after, len - after), n += len - after;
		break;
	default: /* cut in half */
		memcpy(m, text, len / 2), n = len / 2;
		break;
	}
	*outlen = n;
	return m;
}

static const char *const ways[] = {"", "--emit=isel", "--emit=mir", "--remarks", "--diagnostics-format=json"};

/* Every way for one file (and, with mutate, its mutants, written in dir). */
static unsigned one_file(const char *dir, const char *old, const char *nu, const char *file, bool mutate,
                         unsigned *runs)
{
	size_t len;
	char *text = pv_read_file(file, &len);
	if (!text) {
		printf("%s: cannot read\n", file);
		return 1;
	}
	char *opt[MAX_ARGS];
	unsigned nopt = case_options(text, opt, MAX_ARGS), diffs = 0;
	for (size_t w = 0; w < sizeof ways / sizeof ways[0]; w++, (*runs)++)
		diffs += compare(dir, old, nu, file, opt, nopt, ways[w], w == 0);
	for (unsigned k = 0; mutate && k < MUTANTS; k++, (*runs)++) {
		size_t mlen;
		char *m = mutant(text, len, k, &mlen);
		char *path = pv_printf("%s/mutant%u.mir", dir, k);
		FILE *f = fopen(path, "wb");
		if (!f || fwrite(m, 1, mlen, f) != mlen || fclose(f)) {
			printf("%s: cannot write\n", path);
			diffs++;
		} else {
			unsigned d = compare(dir, old, nu, path, opt, nopt, "", true);
			if (d)
				printf("  (mutant %u of %s)\n", k, file);
			diffs += d;
		}
		free(m), free(path);
	}
	for (unsigned i = 0; i < nopt; i++)
		free(opt[i]);
	free(text);
	return diffs;
}

int pv_same(int argc, char **argv)
{
	if (argc < 5) {
		fprintf(stderr, "usage: prover same OLD NEW JOBS FILE...\n");
		return 2;
	}
	const char *old = argv[1], *nu = argv[2];
	unsigned jobs = (unsigned)atoi(argv[3]);
	if (!jobs)
		jobs = 1;
	fflush(stdout);
	pid_t *kids = pv_alloc(jobs * sizeof *kids);
	for (unsigned j = 0; j < jobs; j++) {
		if ((kids[j] = fork()) != 0)
			continue;
		char tmpl[] = "/tmp/prover-same.XXXXXX";
		char *dir = mkdtemp(tmpl);
		if (!dir)
			_exit(2);
		unsigned diffs = 0, runs = 0, files = 0;
		for (int i = 4 + (int)j; i < argc; i += (int)jobs, files++)
			diffs += one_file(dir, old, nu, argv[i], true, &runs);
		char *rm = pv_printf("rm -rf '%s'", dir);
		if (system(rm) != 0)
			diffs++;
		free(rm);
		printf("same: part %u: %u files, %u runs compared, %u differences\n", j, files, runs, diffs);
		fflush(stdout);
		_exit(diffs ? 1 : 0);
	}
	int bad = 0;
	for (unsigned j = 0; j < jobs; j++) {
		int st;
		while (waitpid(kids[j], &st, 0) < 0 && errno == EINTR)
			;
		bad |= !WIFEXITED(st) || WEXITSTATUS(st) != 0;
	}
	free(kids);
	return bad;
}
