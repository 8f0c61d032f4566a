/* prover grid FILE...: --assume-grid never shapes the code.
 *
 * The option tells the hazard checks what a launch is; the PTX must hold for
 * every launch, so it cannot depend on it. Each MIR file that translates is
 * translated again, in-process, with the grid 4 by 2 by 1 assumed (powers of
 * two: what a CTA count taken as known could add to an address's alignment):
 * that must translate too, to the same PTX byte for byte (its messages may
 * differ: they are the race checks'). Prints each file that differs and the
 * counts; exits 1 on a difference. */
#include "prover.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptxemit.h"

static void quiet(void *ctx, const px_diagnostic *d)
{
	(void)ctx, (void)d;
}

/* The PTX of src with the grid assumed (NULL: none); NULL on an error. */
static char *translate(const char *name, const char *src, size_t len, const unsigned *grid, size_t *outlen)
{
	px_options o;
	px_options_default(&o);
	o.jobs = 1;
	if (grid)
		memcpy(o.assume_grid, grid, sizeof o.assume_grid);
	char *out = NULL;
	if (px_translate(name, src, len, &o, quiet, NULL, &out, outlen)) {
		free(out);
		return NULL;
	}
	return out;
}

int pv_grid(int argc, char **argv)
{
	static const unsigned grid[3] = {4, 2, 1};
	unsigned files = 0, translated = 0, differ = 0;
	for (int i = 1; i < argc; i++, files++) {
		size_t len, plain_len, grid_len;
		char *src = pv_read_file(argv[i], &len);
		if (!src) {
			perror(argv[i]);
			return 2;
		}
		char *plain = translate(argv[i], src, len, NULL, &plain_len);
		if (plain) {
			translated++;
			char *with = translate(argv[i], src, len, grid, &grid_len);
			if (!with || grid_len != plain_len || memcmp(with, plain, plain_len) != 0) {
				printf("%s: %s\n", argv[i], with ? "the PTX differs" : "refused with the grid assumed");
				differ++;
			}
			free(with);
		}
		free(plain);
		free(src);
	}
	printf("grid: %u files, %u translated, %u differ\n", files, translated, differ);
	return differ ? 1 : 0;
}
