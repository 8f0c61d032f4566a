/* Finding and running ptxas. It runs as a child process (posix_spawn, which
 * any thread may call) in a directory of its own under $TMPDIR: the PTX
 * goes in as a file, the cubin and everything ptxas prints come back as
 * files, and the directory is removed afterwards. */
#include "cubin/cubin.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* The CUDA installation searched when neither the caller nor $CUDA_HOME
 * names one. */
static const char default_cuda_home[] = "/usr/local/cuda";

static bool executable(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

/* dir/ptxas into path if it is there. */
static bool try_dir(const char *dir, size_t n, const char *sub, char *path, size_t size)
{
	if (n == 0)
		dir = ".", n = 1; /* an empty PATH entry is the current directory */
	int w = snprintf(path, size, "%.*s%s/ptxas", (int)n, dir, sub);
	return w > 0 && (size_t)w < size && executable(path);
}

int px_find_ptxas(const px_options *o, char *path, size_t size)
{
	if (size == 0)
		return -1;
	const char *jitlink = o && o->in_process ? px_jitlink_path() : NULL;
	if (jitlink) {
		snprintf(path, size, "%s", jitlink);
		return 0;
	}
	if (o && o->ptxas) {
		snprintf(path, size, "%s", o->ptxas);
		return executable(o->ptxas) ? 0 : -1;
	}
	const char *env = getenv("PATH");
	for (const char *p = env; p && *p;) {
		size_t n = strcspn(p, ":");
		if (try_dir(p, n, "", path, size))
			return 0;
		p += n;
		p += *p == ':';
	}
	const char *home = o && o->cuda_home ? o->cuda_home : getenv("CUDA_HOME");
	if (home && *home && try_dir(home, strlen(home), "/bin", path, size))
		return 0;
	bool other = home && *home && !(o && o->cuda_home) && strcmp(home, default_cuda_home) != 0;
	if (!(o && o->cuda_home) && try_dir(default_cuda_home, strlen(default_cuda_home), "/bin", path, size))
		return 0;
	/* where it was looked for, for the message */
	if (o && o->cuda_home)
		snprintf(path, size, "PATH or '%s/bin'", o->cuda_home);
	else if (other)
		snprintf(path, size, "PATH, '%s/bin' or '%s/bin'", home, default_cuda_home);
	else
		snprintf(path, size, "PATH or '%s/bin'", default_cuda_home);
	return -1;
}

size_t px_ptxas_args(const px_options *o, const char *target, bool verbose, char *buf, size_t size,
                     const char **argv, size_t max)
{
	size_t n = 0, used = 0;
	/* each word is copied into buf, NUL-terminated */
#define WORD(...)                                                                           \
	do {                                                                                    \
		int w_ = snprintf(buf + used, size - used, __VA_ARGS__);                            \
		if (w_ < 0 || (size_t)w_ >= size - used || n == max)                                 \
			return n;                                                                       \
		argv[n++] = buf + used;                                                             \
		used += (size_t)w_ + 1;                                                             \
	} while (0)
	WORD("-arch=%s", target);
	if (o->opt_level >= 0)
		WORD("-O%d", o->opt_level);
	if (o->debug)
		WORD("-g");
	else if (o->lineinfo)
		WORD("-lineinfo");
	if (verbose)
		WORD("-v");
	for (const char *p = o->ptxas_options; p && *p;) {
		p += strspn(p, " \t\n,");
		size_t k = strcspn(p, " \t\n,");
		if (k)
			WORD("%.*s", (int)k, p);
		p += k;
	}
#undef WORD
	return n;
}

static int read_all(const char *path, char **data, size_t *len)
{
	*data = NULL;
	*len = 0;
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return errno;
	size_t cap = 1 << 16, n = 0;
	char *b = malloc(cap + 1);
	if (!b)
		abort();
	for (;;) {
		if (n == cap) {
			cap *= 2;
			b = realloc(b, cap + 1);
			if (!b)
				abort();
		}
		ssize_t r = read(fd, b + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int err = errno;
			close(fd);
			free(b);
			return err;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	b[n] = '\0';
	*data = b;
	*len = n;
	return 0;
}

static int write_all(const char *path, const char *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_EXCL, 0600);
	if (fd < 0)
		return errno;
	int err = 0;
	while (len && !err) {
		ssize_t w = write(fd, data, len);
		if (w < 0 && errno != EINTR)
			err = errno;
		else if (w > 0)
			data += w, len -= (size_t)w;
	}
	if (close(fd) != 0 && !err)
		err = errno;
	return err;
}

enum { MAX_ARGS = 256 };

/* Runs argv[0] with standard output and error into the file log: its exit
 * status into *status, or an errno. */
static int spawn_logged(const char *const *argv, const char *log, int *status)
{
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	posix_spawn_file_actions_adddup2(&fa, 1, 2);
	pid_t pid;
	int err = posix_spawn(&pid, argv[0], &fa, NULL, (char *const *)argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (err)
		return err;
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return errno;
	*status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	return 0;
}

unsigned px_ptxas_version(const char *path)
{
	const char *tmp = getenv("TMPDIR");
	char dir[4096], log[4200];
	snprintf(dir, sizeof dir, "%s/ptxemit-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir))
		return 0;
	snprintf(log, sizeof log, "%s/log", dir);
	const char *argv[] = {path, "--version", NULL};
	int status = -1;
	char *text = NULL;
	size_t len = 0;
	unsigned major = 0, minor = 0;
	/* "Cuda compilation tools, release 13.0, V13.0.88" */
	if (!spawn_logged(argv, log, &status) && status == 0 && !read_all(log, &text, &len)) {
		const char *at = strstr(text, "release ");
		if (!at || sscanf(at, "release %u.%u", &major, &minor) != 2)
			major = minor = 0;
	}
	free(text);
	unlink(log);
	rmdir(dir);
	return major * 10 + minor;
}

void px_ptxas_run_text(const char *path, const px_options *o, const char *target, bool verbose,
                       const char *ptx, size_t len, px_ptxas_run *r)
{
	memset(r, 0, sizeof *r);
	r->status = -1;
	const char *tmp = getenv("TMPDIR");
	char dir[4096];
	snprintf(dir, sizeof dir, "%s/ptxemit-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		r->errno_ = errno;
		return;
	}
	char in[4200], out[4200], log[4200];
	snprintf(in, sizeof in, "%s/k.ptx", dir);
	snprintf(out, sizeof out, "%s/k.cubin", dir);
	snprintf(log, sizeof log, "%s/log", dir);
	char words[8192];
	const char *argv[MAX_ARGS + 8];
	size_t n = 0;
	argv[n++] = path;
	n += px_ptxas_args(o, target, verbose, words, sizeof words, argv + n, MAX_ARGS);
	argv[n++] = "-o";
	argv[n++] = out;
	argv[n++] = in;
	argv[n] = NULL;
	int err = write_all(in, ptx, len);
	if (!err)
		err = spawn_logged(argv, log, &r->status);
	r->errno_ = err;
	if (!err) {
		read_all(log, &r->log, &r->loglen);
		if (r->status == 0 && read_all(out, &r->cubin, &r->cubinlen) != 0)
			r->status = -1, r->errno_ = EIO;
	}
	unlink(in);
	unlink(out);
	unlink(log);
	rmdir(dir);
}

void px_ptxas_run_free(px_ptxas_run *r)
{
	free(r->log);
	free(r->cubin);
	r->log = r->cubin = NULL;
}
