/* The in-process assembler: NVIDIA's libnvJitLink, opened with dlopen when
 * the caller asks for it (px_options.in_process, ptxemit --nvjitlink), never linked at build time
 * and never shipped. It runs ptxas's own code on the text, without a process,
 * a temporary file or a search of PATH. Its logs are ptxas's lines, so the
 * same reader (messages.c) brings them back to the MIR. Where the library
 * cannot be opened, or lacks an entry point, the caller runs ptxas instead.
 *
 * The entry points are declared here from the library's documented
 * interface (nvJitLink.h): a handle, options as "-arch=sm_90" strings, PTX
 * added as data, then the linked cubin and the two logs. */
/* dlinfo is a GNU extension. */
#define _GNU_SOURCE
#include "cubin/cubin.h"

#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct nvjl *nvjl_handle;
enum { NVJITLINK_SUCCESS = 0, NVJITLINK_INPUT_PTX = 2 };

static struct {
	int (*create)(nvjl_handle *, uint32_t, const char **);
	int (*add_data)(nvjl_handle, int, const void *, size_t, const char *);
	int (*complete)(nvjl_handle);
	int (*cubin_size)(nvjl_handle, size_t *);
	int (*cubin)(nvjl_handle, void *);
	int (*error_log_size)(nvjl_handle, size_t *);
	int (*error_log)(nvjl_handle, char *);
	int (*info_log_size)(nvjl_handle, size_t *);
	int (*info_log)(nvjl_handle, char *);
	int (*destroy)(nvjl_handle *);
	char path[4096]; /* the file opened, for the cache's key */
	bool ok;
} jl;

static pthread_once_t once = PTHREAD_ONCE_INIT;

/* $PTXEMIT_NVJITLINK alone when it is set, else the names CUDA installs
 * the library under. */
static void open_library(void)
{
	const char *env = getenv("PTXEMIT_NVJITLINK");
	const char *names[] = {"libnvJitLink.so.13", "libnvJitLink.so.12", "libnvJitLink.so"};
	void *h = env ? dlopen(env, RTLD_NOW | RTLD_LOCAL) : NULL;
	for (size_t i = 0; !env && !h && i < sizeof names / sizeof *names; i++)
		h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
	if (!h)
		return;
	struct link_map *lm = NULL;
	if (dlinfo(h, RTLD_DI_LINKMAP, &lm) == 0 && lm && lm->l_name)
		snprintf(jl.path, sizeof jl.path, "%s", lm->l_name);
#define SYM(field, name) (*(void **)&jl.field = dlsym(h, name)) != NULL
	jl.ok = SYM(create, "nvJitLinkCreate") && SYM(add_data, "nvJitLinkAddData") &&
	        SYM(complete, "nvJitLinkComplete") && SYM(cubin_size, "nvJitLinkGetLinkedCubinSize") &&
	        SYM(cubin, "nvJitLinkGetLinkedCubin") && SYM(error_log_size, "nvJitLinkGetErrorLogSize") &&
	        SYM(error_log, "nvJitLinkGetErrorLog") && SYM(info_log_size, "nvJitLinkGetInfoLogSize") &&
	        SYM(info_log, "nvJitLinkGetInfoLog") && SYM(destroy, "nvJitLinkDestroy");
#undef SYM
}

const char *px_jitlink_path(void)
{
	pthread_once(&once, open_library);
	return jl.ok ? jl.path : NULL;
}

/* Append one of the handle's logs to r->log. */
static void append_log(px_ptxas_run *r, nvjl_handle h, bool error)
{
	size_t n = 0;
	if ((error ? jl.error_log_size(h, &n) : jl.info_log_size(h, &n)) != NVJITLINK_SUCCESS || n <= 1)
		return;
	char *grown = realloc(r->log, r->loglen + n + 1);
	if (!grown)
		abort();
	r->log = grown;
	if ((error ? jl.error_log(h, r->log + r->loglen) : jl.info_log(h, r->log + r->loglen)) != NVJITLINK_SUCCESS)
		return;
	r->loglen += strlen(r->log + r->loglen);
	if (r->loglen && r->log[r->loglen - 1] != '\n')
		r->log[r->loglen++] = '\n';
	r->log[r->loglen] = '\0';
}

bool px_jitlink_run_text(const px_options *o, const char *target, bool verbose, const char *ptx, size_t len,
                         px_ptxas_run *r)
{
	if (!px_jitlink_path())
		return false;
	memset(r, 0, sizeof *r);
	/* ptxas's words, as nvJitLink takes them: its own options as they are,
	 * -v as -verbose, the rest through -Xptxas */
	char words[8192], opts[8192];
	const char *argv[256], *jargv[256];
	size_t n = px_ptxas_args(o, target, verbose, words, sizeof words, argv, 256), used = 0;
	for (size_t i = 0; i < n; i++) {
		const char *a = argv[i];
		bool own = strncmp(a, "-arch=", 6) == 0 || (a[0] == '-' && a[1] == 'O') || strcmp(a, "-g") == 0 ||
		           strcmp(a, "-lineinfo") == 0;
		int w = snprintf(opts + used, sizeof opts - used, "%s%s", own ? "" : strcmp(a, "-v") == 0 ? "" : "-Xptxas=",
		                 strcmp(a, "-v") == 0 ? "-verbose" : a);
		if (w < 0 || (size_t)w >= sizeof opts - used)
			break;
		jargv[i] = opts + used;
		used += (size_t)w + 1;
	}
	nvjl_handle h = NULL;
	if (jl.create(&h, (uint32_t)n, jargv) != NVJITLINK_SUCCESS) {
		r->status = 1;
		if (h) {
			append_log(r, h, true);
			jl.destroy(&h);
		}
		return true;
	}
	int st = jl.add_data(h, NVJITLINK_INPUT_PTX, ptx, len, "ptxemit");
	if (st == NVJITLINK_SUCCESS)
		st = jl.complete(h);
	append_log(r, h, true);
	append_log(r, h, false);
	size_t size = 0;
	if (st == NVJITLINK_SUCCESS && jl.cubin_size(h, &size) == NVJITLINK_SUCCESS && size) {
		r->cubin = malloc(size);
		if (!r->cubin)
			abort();
		if (jl.cubin(h, r->cubin) == NVJITLINK_SUCCESS)
			r->cubinlen = size;
		else
			st = -1;
	}
	r->status = st == NVJITLINK_SUCCESS && r->cubinlen ? 0 : 1;
	jl.destroy(&h);
	return true;
}
