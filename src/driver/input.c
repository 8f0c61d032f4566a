/* The MIR's bytes in memory. A regular file is read into one buffer of its
 * size, so there is no doubling and copying; from 2 MiB on, the buffer is
 * mapped with transparent huge pages requested. On the benchmark machine a
 * page fault costs about 10 us: a 27 MB input read into 4 KiB pages took
 * 6,700 of them, more time than translating it. Pipes and terminals grow the
 * buffer as bytes arrive. */
#define _DEFAULT_SOURCE /* MADV_HUGEPAGE, MAP_ANONYMOUS */
#include "driver/input.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

enum { HUGE_FROM = 2 << 20, FIRST_CAP = 1 << 16 };

static void release(char *p, size_t cap)
{
	if (cap >= HUGE_FROM)
		munmap(p, cap);
	else
		free(p);
}

/* cap bytes, rounded up to whole huge pages when it is that large. */
static char *reserve(size_t *cap)
{
	if (*cap < HUGE_FROM)
		return malloc(*cap);
	size_t c = (*cap + HUGE_FROM - 1) & ~(size_t)(HUGE_FROM - 1);
	if (c < *cap)
		return NULL;
	void *p = mmap(NULL, c, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
#ifdef MADV_HUGEPAGE
	madvise(p, c, MADV_HUGEPAGE); /* a hint: without it the pages are small */
#endif
	*cap = c;
	return p;
}

static int grow(drv_input *in)
{
	if (in->cap > SIZE_MAX / 2)
		return ENOMEM;
	size_t cap = in->cap * 2;
	char *p = reserve(&cap);
	if (!p)
		return ENOMEM;
	memcpy(p, in->data, in->len);
	release(in->data, in->cap);
	in->data = p;
	in->cap = cap;
	return 0;
}

ssize_t drv_read_retry(int fd, void *buf, size_t n)
{
	ssize_t got;
	do
		got = read(fd, buf, n);
	while (got < 0 && errno == EINTR);
	return got;
}

static int read_fd(int fd, drv_input *in)
{
	struct stat st;
	size_t cap = FIRST_CAP;
	/* one byte past the size: reading it finds the end without a second buffer */
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 && (uintmax_t)st.st_size < SIZE_MAX)
		cap = (size_t)st.st_size + 1;
	in->data = reserve(&cap);
	if (!in->data)
		return ENOMEM;
	in->cap = cap;
	for (;;) {
		if (in->len == in->cap) {
			int err = grow(in);
			if (err)
				return err;
		}
		ssize_t n = drv_read_retry(fd, in->data + in->len, in->cap - in->len);
		if (n <= 0)
			return n ? errno : 0;
		in->len += (size_t)n;
	}
}

int drv_read_input(const char *path, drv_input *in)
{
	memset(in, 0, sizeof *in);
	int fd = path ? open(path, O_RDONLY) : 0;
	if (fd < 0)
		return errno;
	int err = read_fd(fd, in);
	if (path)
		close(fd);
	if (err)
		drv_input_free(in);
	return err;
}

void drv_input_free(drv_input *in)
{
	if (in->data)
		release(in->data, in->cap);
	memset(in, 0, sizeof *in);
}
