/* The MIR's bytes in memory. A regular file is read into one buffer of its
 * size, so there is no doubling and copying; from 64 KiB on the buffer is a
 * mapping with its pages populated (one system call, where reading into
 * fresh heap memory faults once a page, and for a large input those faults
 * take longer than translating it). Pipes and terminals grow the buffer as
 * bytes arrive. */
#include "driver/input.h"
#include "util/pages.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

enum { MAPPED_FROM = 1 << 16, FIRST_CAP = 1 << 16 };

static void release(char *p, size_t cap)
{
	if (cap >= MAPPED_FROM)
		munmap(p, cap);
	else
		free(p);
}

/* cap bytes: heap memory, or from MAPPED_FROM on a populated mapping. */
static char *reserve(size_t *cap)
{
	if (*cap < MAPPED_FROM)
		return malloc(*cap);
	return px_pages_map(*cap, false);
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
