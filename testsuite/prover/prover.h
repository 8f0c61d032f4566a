/* The prover: ptxemit's verdicts against ptxas's, statement by statement.
 * It walks the compiled tables (targets, PTX versions), translates through
 * the library, asks ptxas through src/cubin's runner, and keeps ptxas's
 * verdicts in a cache shared by every proof and every build tree. */
#ifndef PV_PROVER_H
#define PV_PROVER_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* sha256.c: the hex digest of len bytes */
void pv_sha256(const void *data, size_t len, char hex[65]);

/* util.c */
void *pv_alloc(size_t n);
char *pv_strdup(const char *s);
char *pv_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* the whole file at path (NUL-terminated), or NULL with errno set */
char *pv_read_file(const char *path, size_t *len);
/* what argv[0] prints on stdout and stderr together, or NULL where it does not run */
char *pv_capture(char *const argv[]);

/* A string-keyed table (util.c): keys are copied; values are the caller's. */
typedef struct pv_map {
	char **keys;
	void **vals;
	size_t cap, n;
} pv_map;
void **pv_map_slot(pv_map *m, const char *key, bool *fresh); /* the value's slot, made where missing */
void *pv_map_get(const pv_map *m, const char *key);
void pv_map_free(pv_map *m);

/* vcache.c: the verdict cache, one "KEY VERDICT" line each. KEY is
 * OPTIONS:ARCH:TEXT, OPTIONS the first 16 hex digits of a hash of ptxas's
 * version and the way it was asked, TEXT the hash of the PTX; VERDICT is
 * "ok", "no", or "no:L,L,..." naming the lines ptxas refused. */
bool pv_verdict_wellformed(const char *v);
/* the verdicts in the cache file: one per key from well-formed lines, none
 * for a key whose lines disagree (a torn or merged line never decides) */
void pv_cache_load(const char *path, pv_map *verdicts);
const char *pv_cache_get(const pv_map *verdicts, const char *key); /* NULL: none */
void pv_cache_free(pv_map *verdicts);
/* append text (whole lines) to the cache under its lock, in one write */
int pv_cache_append(const char *path, const char *text, size_t len);

/* judge.c: ptxas's verdict on texts. */
typedef struct pv_text {
	char *ptx;      /* the text, NUL-terminated */
	size_t len;
	const char *arch; /* ptxas's -arch */
	char *verdict;  /* "ok", "no", "no:L,..." (malloc'd), set by pv_judge */
	bool whole;     /* the verdict is a whole program's (ptxas named functions) */
} pv_text;
typedef struct pv_judge {
	const char *ptxas;
	const char *cache; /* the cache file */
	unsigned jobs;
	char lines_key[17], whole_key[17]; /* OPTIONS of the two ways of asking */
	size_t asked;   /* texts given to ptxas, summed over the calls */
} pv_judge;
/* 0, or -1 where ptxas's version cannot be read */
int pv_judge_init(pv_judge *j, const char *ptxas, const char *cache, unsigned jobs);
/* every text's verdict: each line ptxas refuses under -c (the statements
 * it names blanked and asked again, for the checks of later phases); with
 * whole, a text that assembles and is a whole program declaring shared
 * memory or a CTA group is asked again finalized. Returns 0, -1 on failure. */
int pv_judge_texts(pv_judge *j, pv_text *t, size_t n, bool whole);
/* the -arch ptxas is given for a target: data/targets.yaml's ptxas: column
 * (ptxas 13 applies sm_70's and sm_72's rules under sm_75, and knows sm_101
 * as sm_110) */
const char *pv_ptxas_arch(const char *target);

/* the proofs (sweep.c) */
int pv_sweep(int argc, char **argv);
int pv_veredge(int argc, char **argv);
int pv_modules(int argc, char **argv); /* modules.c */
int pv_atomics(int argc, char **argv); /* atomics.c */
int pv_wgmman(int argc, char **argv);  /* wgmman.c */
int pv_combos(int argc, char **argv);     /* combos.c */
int pv_combos_gen(int argc, char **argv); /* combos_gen.c */
int pv_same(int argc, char **argv);       /* same.c */
int pv_grid(int argc, char **argv);       /* grid.c */
#endif
