/* px_assemble: find ptxas, run it on the PTX, bring its messages back to the
 * MIR, keep the cubin. */
#include "cubin/cubin.h"

#include <stdio.h>
#include <string.h>

#include "tables/tables.h"

/* The cache's bound when the caller names none: room for thousands of
 * kernels' cubins. */
#define DEFAULT_CACHE_MAX ((uint64_t)256 << 20)

/* The -arch the ptxas at path takes for target's code (data/targets.yaml's
 * ptxas: from a CUDA release on, another name, or none), or NULL when it
 * makes none, said in d. */
static const char *code_arch(const char *path, const char *target, px_diags *d)
{
	const px_target *t = px_target_lookup(target, strlen(target));
	if (!t || !t->ptxas_cuda)
		return target;
	unsigned v = px_ptxas_version(path);
	if (v < t->ptxas_cuda) /* an older ptxas, or one that does not say: the target's own name */
		return target;
	if (t->ptxas_code)
		return t->ptxas_arch;
	px_error_noloc(d, PX_D_cubin_no_code, v / 10, v % 10, target, t->ptxas_cuda / 10 - 1);
	return NULL;
}

int px_assemble(const px_options *o, const char *target, const px_module *m, const char *ptx, size_t len,
                const px_ptxmap *map, px_diags *d, px_ptxas_report *rep, char **cubin, size_t *cubinlen)
{
	unsigned before = d->nerrors;
	char path[4096];
	/* in process where the library opens; ptxas otherwise */
	const char *jitlink = o->in_process ? px_jitlink_path() : NULL;
	if (px_find_ptxas(o, path, sizeof path) != 0) {
		if (o->ptxas)
			px_error_noloc(d, PX_D_cubin_bad_ptxas, o->ptxas);
		else
			px_error_noloc(d, PX_D_cubin_no_ptxas, path);
		return (int)(d->nerrors - before);
	}
	if (!(target = code_arch(path, target, d)))
		return (int)(d->nerrors - before);
	px_ptxas_run r;
	char key[33];
	bool hit = false;
	if (o->cache_dir) {
		px_cache_key(path, o, target, o->resource_usage, ptx, len, key);
		hit = px_cache_get(o->cache_dir, key, &r);
	}
	if (!hit) {
		if (!jitlink || !px_jitlink_run_text(o, target, o->resource_usage, ptx, len, &r))
			px_ptxas_run_text(path, o, target, o->resource_usage, ptx, len, &r);
		if (o->cache_dir && r.status == 0)
			px_cache_put(o->cache_dir, key, &r, o->cache_max ? o->cache_max : DEFAULT_CACHE_MAX);
	}
	if (r.status < 0) {
		px_error_noloc(d, PX_D_cubin_run_failed, path, strerror(r.errno_));
		px_ptxas_run_free(&r);
		return (int)(d->nerrors - before);
	}
	px_ptxas_messages(r.log, r.loglen, map, m, o->resource_usage, d, rep);
	if (r.status != 0 && d->nerrors == before) {
		/* ptxas failed without a message this reader knows: its first line */
		const char *log = r.log ? r.log : "";
		px_error_noloc(d, PX_D_cubin_ptxas_failed, path, r.status, (int)strcspn(log, "\n"), log);
	}
	if (r.status == 0 && d->nerrors == before && o->cubin) {
		*cubin = r.cubin;
		*cubinlen = r.cubinlen;
		r.cubin = NULL;
	}
	px_ptxas_run_free(&r);
	return (int)(d->nerrors - before);
}
