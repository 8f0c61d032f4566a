/* The output file is replaced atomically: the bytes go to a temporary file
 * beside it, which is renamed over the target only once everything has been
 * written. A failed or interrupted run therefore never leaves a truncated
 * .ptx behind for a build system to mistake for a good one. */
/* copy_file_range (Linux) is beyond the _POSIX_C_SOURCE the build asks for. */
#define _GNU_SOURCE
#include "driver/output.h"
#include "driver/input.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The temporary file an interrupt must remove, NULL while there is none. */
static char *volatile pending;

static void on_signal(int sig)
{
	char *tmp = pending;
	if (tmp)
		unlink(tmp);
	raise(sig); /* SA_RESETHAND restored the default action: die of sig */
}

int drv_write_fd(int fd, const char *data, size_t len)
{
	while (len > 0) {
		ssize_t n = write(fd, data, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return errno;
		}
		data += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Copy everything the spool holds to fd: inside the kernel where it can
 * (copy_file_range, which some file systems turn into shared extents), else
 * through a buffer. */
static int append_spool(int fd, int spool)
{
	if (spool < 0)
		return 0;
	if (lseek(spool, 0, SEEK_SET) < 0)
		return errno;
	for (;;) {
		ssize_t n = copy_file_range(spool, NULL, fd, NULL, (size_t)1 << 30, 0);
		if (n == 0)
			return 0;
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break; /* not between these files (a pipe, another file system): copy */
	}
	char chunk[1 << 16];
	for (;;) {
		ssize_t n = drv_read_retry(spool, chunk, sizeof chunk);
		if (n <= 0)
			return n ? errno : 0;
		int err = drv_write_fd(fd, chunk, (size_t)n);
		if (err)
			return err;
	}
}

/* Something other than a regular file (/dev/null, a FIFO, a terminal) cannot
 * be replaced by renaming, and must not be: write into it in place. */
int drv_write_all(int fd, const char *data, size_t len, int spool)
{
	int err = drv_write_fd(fd, data, len);
	return err ? err : append_spool(fd, spool);
}

static int write_in_place(const char *path, const char *data, size_t len, int spool)
{
	int fd = open(path, O_WRONLY | O_TRUNC);
	if (fd < 0)
		return errno;
	int err = drv_write_all(fd, data, len, spool);
	if (close(fd) != 0 && !err)
		err = errno;
	return err;
}

/* The permissions a new file would get (0666 less the umask), which mkstemp's
 * 0600 would otherwise replace. */
static mode_t new_file_mode(void)
{
	mode_t mask = umask(0);
	umask(mask);
	return 0666 & ~mask;
}

/* "dir/.name.XXXXXX" beside path, so that rename stays within one file system. */
static char *temp_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0;
	const char *base = path + dirlen;
	size_t n = dirlen + strlen(base) + sizeof "..XXXXXX";
	char *t = malloc(n);
	if (!t)
		return NULL;
	memcpy(t, path, dirlen);
	strcpy(t + dirlen, ".");
	strcat(t + dirlen, base);
	strcat(t + dirlen, ".XXXXXX");
	return t;
}

/* Create the temporary file with SIGINT and SIGTERM held back, so that an
 * interrupt cannot fall between its creation and its registration. */
static int create_temp(char *tmp)
{
	sigset_t block, old;
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigprocmask(SIG_BLOCK, &block, &old);
	int fd = mkstemp(tmp);
	int err = errno;
	if (fd >= 0)
		pending = tmp;
	sigprocmask(SIG_SETMASK, &old, NULL);
	errno = err;
	return fd;
}

static int replace(const char *target, mode_t mode, const char *data, size_t len, int spool)
{
	char *tmp = temp_name(target);
	if (!tmp)
		return ENOMEM;
	struct sigaction sa, old_int, old_term;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_RESETHAND;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);

	int err = 0;
	int fd = create_temp(tmp);
	if (fd < 0) {
		err = errno;
	} else {
		err = drv_write_all(fd, data, len, spool);
		if (!err && fchmod(fd, mode) != 0)
			err = errno;
		if (close(fd) != 0 && !err)
			err = errno;
		if (!err && rename(tmp, target) != 0)
			err = errno;
		if (err)
			unlink(tmp);
		pending = NULL;
	}

	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	free(tmp);
	return err;
}

/* The spool is unlinked as soon as it exists, with interrupts held back in
 * between: nothing of it can be left behind. */
void drv_spool_open(drv_spool *s, const char *path)
{
	s->fd = -1;
	s->err = 0;
	char *tmp;
	if (path) {
		struct stat st;
		if (stat(path, &st) == 0 ? !S_ISREG(st.st_mode) : errno != ENOENT)
			return;
		tmp = temp_name(path);
	} else {
		const char *dir = getenv("TMPDIR");
		if (!dir || !*dir)
			dir = "/tmp";
		size_t n = strlen(dir) + sizeof "/ptxemit";
		char *base = malloc(n);
		if (!base)
			return;
		snprintf(base, n, "%s/ptxemit", dir);
		tmp = temp_name(base);
		free(base);
	}
	if (!tmp)
		return;
	sigset_t block, old;
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigprocmask(SIG_BLOCK, &block, &old);
	s->fd = mkstemp(tmp);
	if (s->fd >= 0)
		unlink(tmp);
	sigprocmask(SIG_SETMASK, &old, NULL);
	free(tmp);
}

void drv_spool_write(void *ctx, const char *data, size_t len)
{
	drv_spool *s = ctx;
	if (!s->err)
		s->err = drv_write_fd(s->fd, data, len);
}

void drv_spool_close(drv_spool *s)
{
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
}

/* The path a chain of symbolic links ends at, the last one possibly naming
 * a file that does not exist yet (malloc'd; NULL with errno set). A relative
 * link is read from the directory of the link. */
static char *link_target(const char *path)
{
	char *cur = strdup(path);
	for (int hops = 0; cur; hops++) {
		struct stat st;
		if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode))
			return cur;
		if (hops == 40) {
			free(cur);
			errno = ELOOP;
			return NULL;
		}
		char to[4096];
		ssize_t n = readlink(cur, to, sizeof to - 1);
		if (n < 0) {
			free(cur);
			return NULL;
		}
		to[n] = '\0';
		const char *slash = strrchr(cur, '/');
		size_t dirlen = to[0] == '/' || !slash ? 0 : (size_t)(slash - cur) + 1;
		char *next = malloc(dirlen + (size_t)n + 1);
		if (next) {
			memcpy(next, cur, dirlen);
			memcpy(next + dirlen, to, (size_t)n + 1);
		}
		free(cur);
		cur = next;
	}
	errno = ENOMEM;
	return NULL;
}

int drv_same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}

int drv_write_file(const char *path, const char *data, size_t len, int spool)
{
	/* Through a symbolic link, write the file it names (creating it if the
	 * link dangles) and keep the link. */
	char *real = link_target(path);
	if (!real)
		return errno;
	struct stat st;
	int err;
	if (stat(real, &st) != 0)
		err = errno != ENOENT ? errno : replace(real, new_file_mode(), data, len, spool);
	else if (!S_ISREG(st.st_mode))
		err = write_in_place(real, data, len, spool);
	else
		err = replace(real, st.st_mode & 07777, data, len, spool);
	free(real);
	return err;
}
