/* iofloor: the I/O a translator cannot avoid, and nothing else.
 *
 *   iofloor IN OUT NBYTES
 *
 * Reads all of IN with ptxemit's own reader (src/driver/input.c, linked in),
 * then writes NBYTES to OUT the way ptxemit writes its output: into a
 * temporary file beside OUT, renamed over it. The bytes come from a 256 KiB
 * buffer filled from the input, written again and again: ptxemit hands its
 * text on in pieces of that size and never holds all of it. With NBYTES the
 * size of the PTX ptxemit prints for IN, its time is the floor under
 * ptxemit's. */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "driver/input.h"

enum { PIECE = 1 << 18 };

int main(int argc, char **argv)
{
	if (argc != 4) {
		fputs("usage: iofloor IN OUT NBYTES\n", stderr);
		return 2;
	}
	drv_input in;
	if (drv_read_input(argv[1], &in) != 0 || in.len == 0)
		return 1;
	static char piece[PIECE];
	for (size_t done = 0; done < PIECE;) {
		size_t k = PIECE - done < in.len ? PIECE - done : in.len;
		memcpy(piece + done, in.data, k);
		done += k;
	}
	size_t want = strtoull(argv[3], NULL, 10);
	size_t tlen = strlen(argv[2]) + sizeof ".XXXXXX";
	char *tmp = malloc(tlen);
	if (!tmp)
		return 1;
	snprintf(tmp, tlen, "%s.XXXXXX", argv[2]);
	int fd = mkstemp(tmp);
	if (fd < 0)
		return 1;
	for (size_t done = 0; done < want;) {
		size_t k = want - done < PIECE ? want - done : PIECE;
		ssize_t w = write(fd, piece, k);
		if (w <= 0)
			return 1;
		done += (size_t)w;
	}
	if (close(fd) != 0 || rename(tmp, argv[2]) != 0)
		return 1;
	drv_input_free(&in);
	free(tmp);
	return 0;
}
