/* From the printed PTX to a cubin: ptxas is run on the text, and what it says
 * about the text's lines comes back as diagnostics at the MIR statements that
 * printed them. */
#ifndef PX_CUBIN_H
#define PX_CUBIN_H
#include <stddef.h>
#include <stdint.h>

#include "diag/diag.h"
#include "front/ir.h"
#include "ptxemit.h"

/* The MIR place (px_loc.pos, 0: none) of each line of the PTX: line n's is
 * pos[n - 1]. */
typedef struct px_ptxmap {
	uint32_t *pos;
	size_t n;
} px_ptxmap;

/* Take the printer's marks (PX_PTXMAP_MARK lines) out of text, in place,
 * and record what they said in map. */
void px_ptxmap_strip(char *text, size_t *len, px_ptxmap *map);
void px_ptxmap_free(px_ptxmap *map);

/* One run of ptxas: its exit status (-1: it did not run; errno_ then says
 * why), everything it printed, and the cubin it wrote. */
typedef struct px_ptxas_run {
	int status;
	int errno_;
	char *log;
	size_t loglen;
	char *cubin;
	size_t cubinlen;
} px_ptxas_run;

/* Run the ptxas at path on the PTX for target with o's options (-v when
 * verbose). */
void px_ptxas_run_text(const char *path, const px_options *o, const char *target, bool verbose,
                       const char *ptx, size_t len, px_ptxas_run *r);
void px_ptxas_run_free(px_ptxas_run *r);
/* The CUDA release of the ptxas at path, major*10+minor ("release 13.0"):
 * 0 when it does not say. */
unsigned px_ptxas_version(const char *path);
/* The ptxas command's words after the program (options, not the files):
 * the same words run it and key the cache. Returns how many, at most max;
 * they point into buf. */
size_t px_ptxas_args(const px_options *o, const char *target, bool verbose, char *buf, size_t size,
                     const char **argv, size_t max);

/* libnvJitLink (jitlink.c): the path of the library opened on first use, or
 * NULL when none opens; and one assembly through it, as px_ptxas_run_text
 * (false: no library, nothing done). */
const char *px_jitlink_path(void);
bool px_jitlink_run_text(const px_options *o, const char *target, bool verbose, const char *ptx, size_t len,
                         px_ptxas_run *r);

/* The cache (cache.c): the key of an assembly in key (32 hex digits); an
 * entry read back whole into r (status 0), or false; an entry written,
 * the directory then trimmed to max bytes. */
void px_cache_key(const char *ptxas, const px_options *o, const char *target, bool verbose, const char *ptx,
                  size_t len, char key[33]);
bool px_cache_get(const char *dir, const char *key, px_ptxas_run *r);
void px_cache_put(const char *dir, const char *key, const px_ptxas_run *r, uint64_t max);

/* What ptxas printed, as diagnostics in d (at map's and m's places) and,
 * with usage, one resource remark per function. Records live in *records
 * (malloc'd, with their names) until the caller frees them after the flush. */
typedef struct px_ptxas_report {
	px_resource_usage *usage;
	size_t nusage;
	char **strings; /* names and codes the diagnostics point at */
	size_t nstrings;
} px_ptxas_report;
void px_ptxas_messages(const char *log, size_t len, const px_ptxmap *map, const px_module *m, bool usage,
                       px_diags *d, px_ptxas_report *rep);
void px_ptxas_report_free(px_ptxas_report *rep);

/* Assemble ptx (len bytes, marks taken out, map from px_ptxmap_strip) for
 * target: the cubin in *cubin (with o->cubin), the messages in d. Returns
 * the errors it reported. rep holds what d's messages point at. */
int px_assemble(const px_options *o, const char *target, const px_module *m, const char *ptx, size_t len,
                const px_ptxmap *map, px_diags *d, px_ptxas_report *rep, char **cubin, size_t *cubinlen);

#endif
