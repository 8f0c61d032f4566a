/* prover: ptxemit's verdicts against ptxas's (prover.h).
 *
 *   prover sweep SRCDIR CASES PTXAS CACHE JOBS [SAMPLE]     the target sweep
 *   prover veredge SRCDIR CASES PTXAS CACHE JOBS [SAMPLE]   one PTX version lower
 *   prover modules PTXAS CACHE JOBS [SAMPLE]                 the module proof
 *   prover atomics PTXAS CACHE TARGET                        atom and red combinations
 *   prover wgmman                     the N ptxemit accepts in wgmma (no ptxas)
 *   prover combos PTXAS CACHE JOBS                           the combination proof
 *   prover combos-gen [OPS]           the combination proof's statements (no ptxas)
 *   prover same OLD NEW JOBS FILE...  two builds of ptxemit print the same (no ptxas)
 *   prover grid FILE...               --assume-grid leaves the PTX as it is (no ptxas)
 *   prover judge PTXAS CACHE JOBS [whole] < "FILE ARCH" lines: "FILE VERDICT" lines
 *   prover cache-verdicts CACHE      the verdicts a cache gives, "KEY VERDICT"
 *   prover cache-append CACHE FILE   FILE's lines appended under the cache's lock
 *
 * A proof prints its counts and every disagreement, and exits 0 when there
 * is none, 1 when there is, 77 when ptxas does not run. */
#include "prover.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int judge(int argc, char **argv)
{
	if (argc < 4) {
		fprintf(stderr, "usage: prover judge PTXAS CACHE JOBS [whole]\n");
		return 2;
	}
	pv_judge j;
	if (pv_judge_init(&j, argv[1], argv[2], (unsigned)atoi(argv[3])))
		return 77;
	size_t n = 0, cap = 16;
	pv_text *t = pv_alloc(cap * sizeof *t);
	char **names = pv_alloc(cap * sizeof *names);
	char line[8192];
	while (fgets(line, sizeof line, stdin)) {
		char file[4096], arch[64];
		if (sscanf(line, "%4095s %63s", file, arch) != 2)
			continue;
		if (n == cap) {
			t = realloc(t, (cap *= 2) * sizeof *t);
			names = realloc(names, cap * sizeof *names);
		}
		size_t len = 0;
		char *ptx = pv_read_file(file, &len);
		t[n] = (pv_text){.ptx = ptx, .len = len, .arch = pv_strdup(arch)};
		if (!ptx) {
			perror(file);
			return 1;
		}
		names[n++] = pv_strdup(file);
	}
	if (pv_judge_texts(&j, t, n, argc > 4 && strcmp(argv[4], "whole") == 0))
		return 1;
	for (size_t i = 0; i < n; i++) {
		printf("%s %s%s\n", names[i], t[i].verdict, t[i].whole ? " whole" : "");
		free(names[i]), free(t[i].ptx), free((char *)t[i].arch), free(t[i].verdict);
	}
	printf("asked %zu\n", j.asked);
	free(names), free(t);
	return 0;
}

static int cache_verdicts(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	pv_map m = {0};
	pv_cache_load(argv[1], &m);
	for (size_t i = 0; i < m.cap; i++)
		if (m.keys[i] && pv_cache_get(&m, m.keys[i]))
			printf("%s %s\n", m.keys[i], pv_cache_get(&m, m.keys[i]));
	pv_cache_free(&m);
	return 0;
}

static int cache_append(int argc, char **argv)
{
	if (argc < 3)
		return 2;
	size_t len;
	char *text = pv_read_file(argv[2], &len);
	if (!text || pv_cache_append(argv[1], text, len) != 0) {
		perror(argv[1]);
		return 1;
	}
	free(text);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*run)(int, char **);
	} cmds[] = {{"sweep", pv_sweep},
	            {"veredge", pv_veredge},
	            {"modules", pv_modules},
	            {"atomics", pv_atomics},
	            {"wgmman", pv_wgmman},
	            {"combos", pv_combos},
	            {"combos-gen", pv_combos_gen},
	            {"same", pv_same},
	            {"grid", pv_grid},
	            {"judge", judge},
	            {"cache-verdicts", cache_verdicts},
	            {"cache-append", cache_append}};
	for (size_t i = 0; argc > 1 && i < sizeof cmds / sizeof *cmds; i++)
		if (strcmp(argv[1], cmds[i].name) == 0)
			return cmds[i].run(argc - 1, argv + 1);
	fprintf(stderr, "usage: prover sweep|veredge|modules|atomics|wgmman|combos|combos-gen|same|grid|judge|cache-verdicts|cache-append ...\n");
	return 2;
}
