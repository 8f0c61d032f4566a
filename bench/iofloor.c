/* iofloor: the I/O a translator cannot avoid, and nothing else.
 *
 *   iofloor IN OUT NBYTES
 *
 * Reads all of IN the way ptxemit reads its input, fills an NBYTES buffer
 * from those bytes (one copy), and writes it to OUT the way ptxemit writes
 * its output: one write to a temporary file beside OUT, renamed over OUT.
 * With NBYTES the size of the PTX ptxemit prints for IN, its time is the
 * floor under ptxemit's. */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc != 4) {
		fputs("usage: iofloor IN OUT NBYTES\n", stderr);
		return 2;
	}
	FILE *f = fopen(argv[1], "rb");
	if (!f)
		return 1;
	size_t cap = 1 << 16, n = 0;
	char *in = malloc(cap);
	while (in) {
		n += fread(in + n, 1, cap - n, f);
		if (ferror(f) || feof(f))
			break;
		if (n == cap)
			in = realloc(in, cap *= 2);
	}
	fclose(f);
	size_t want = strtoull(argv[3], NULL, 10);
	char *out = malloc(want ? want : 1);
	if (!in || !out || n == 0)
		return 1;
	for (size_t done = 0; done < want;) {
		size_t k = want - done < n ? want - done : n;
		memcpy(out + done, in, k);
		done += k;
	}
	size_t tlen = strlen(argv[2]) + sizeof ".XXXXXX";
	char *tmp = malloc(tlen);
	snprintf(tmp, tlen, "%s.XXXXXX", argv[2]);
	int fd = mkstemp(tmp);
	if (fd < 0)
		return 1;
	for (size_t done = 0; done < want;) {
		ssize_t w = write(fd, out + done, want - done);
		if (w <= 0)
			return 1;
		done += (size_t)w;
	}
	if (close(fd) != 0 || rename(tmp, argv[2]) != 0)
		return 1;
	return 0;
}
