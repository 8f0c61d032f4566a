/* gpurun: the execution tests (`make check-gpu`).
 *
 *   gpurun [--srcdir DIR] [CASE...]   run the cases (all, or those named) on the GPU
 *   gpurun --ptx OUTDIR [--srcdir DIR]  only translate: OUTDIR/CASE.ptx for each case,
 *                                       the text the GPU would be given (the suite
 *                                       assembles these with ptxas where no GPU is)
 *   gpurun --list                      the cases, one a line
 *
 * Exit status: 0 when every case that ran passed, 1 when one failed, 77 (the
 * test harness's "skipped") when there is no CUDA driver or no device. */
#include <dlfcn.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ptxemit.h"
#include "gpu.h"

static const gpu_case *const tables[] = {
	gpu_cases_basic, gpu_cases_alu, gpu_cases_memory, gpu_cases_tensor, gpu_cases_lang, gpu_cases_video,
};

#define NTABLES (sizeof tables / sizeof tables[0])

/* ------------------------------------------------------------------ driver */

static int check(gpu *g, CUresult r, const char *what)
{
	if (r == 0)
		return 0;
	const char *s = NULL;
	if (g->cu.GetErrorString)
		g->cu.GetErrorString(r, &s);
	fprintf(stderr, "  %s: %s failed: error %d (%s)\n", g->case_name ? g->case_name : "gpurun",
	        what, r, s ? s : "unknown");
	return 1;
}

/* Resolve each entry point by its exported name (the _v2 names are the
 * 64-bit ones every driver since CUDA 4 exports). */
static int load_driver(gpu_driver *cu, char *why, size_t whylen)
{
	void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!h)
		h = dlopen("libcuda.so", RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		snprintf(why, whylen, "no CUDA driver (%s)", dlerror());
		return 1;
	}
	static const struct { const char *name; size_t off; int optional; } syms[] = {
#define SYM(field, name, opt) { name, offsetof(gpu_driver, field), opt }
		SYM(Init, "cuInit", 0),
		SYM(DeviceGet, "cuDeviceGet", 0),
		SYM(DeviceGetAttribute, "cuDeviceGetAttribute", 0),
		SYM(DevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain", 0),
		SYM(CtxSetCurrent, "cuCtxSetCurrent", 0),
		SYM(CtxSynchronize, "cuCtxSynchronize", 0),
		SYM(ModuleLoadDataEx, "cuModuleLoadDataEx", 0),
		SYM(ModuleGetFunction, "cuModuleGetFunction", 0),
		SYM(ModuleUnload, "cuModuleUnload", 0),
		SYM(FuncSetAttribute, "cuFuncSetAttribute", 0),
		SYM(LaunchKernel, "cuLaunchKernel", 0),
		SYM(MemAlloc, "cuMemAlloc_v2", 0),
		SYM(MemFree, "cuMemFree_v2", 0),
		SYM(MemcpyHtoD, "cuMemcpyHtoD_v2", 0),
		SYM(MemcpyDtoH, "cuMemcpyDtoH_v2", 0),
		SYM(MemsetD8, "cuMemsetD8_v2", 0),
		SYM(GetErrorString, "cuGetErrorString", 0),
		SYM(TensorMapEncodeTiled, "cuTensorMapEncodeTiled", 1),
		SYM(LaunchKernelEx, "cuLaunchKernelEx", 1),
#undef SYM
	};
	for (size_t i = 0; i < sizeof syms / sizeof syms[0]; i++) {
		void *p = dlsym(h, syms[i].name);
		if (!p && !syms[i].optional) {
			snprintf(why, whylen, "the CUDA driver lacks %s", syms[i].name);
			return 1;
		}
		memcpy((char *)cu + syms[i].off, &p, sizeof p);
	}
	return 0;
}

static int open_device(gpu *g, char *why, size_t whylen)
{
	if (load_driver(&g->cu, why, whylen))
		return 1;
	CUdevice dev;
	CUcontext ctx;
	int major = 0, minor = 0;
	CUresult r = g->cu.Init(0);
	if (r == 0)
		r = g->cu.DeviceGet(&dev, 0);
	if (r != 0) {
		snprintf(why, whylen, "no CUDA device (driver error %d)", r);
		return 1;
	}
	if (check(g, g->cu.DeviceGetAttribute(&major, CU_ATTR_CC_MAJOR, dev), "cuDeviceGetAttribute") ||
	    check(g, g->cu.DeviceGetAttribute(&minor, CU_ATTR_CC_MINOR, dev), "cuDeviceGetAttribute") ||
	    check(g, g->cu.DevicePrimaryCtxRetain(&ctx, dev), "cuDevicePrimaryCtxRetain") ||
	    check(g, g->cu.CtxSetCurrent(ctx), "cuCtxSetCurrent")) {
		snprintf(why, whylen, "the CUDA device could not be opened");
		return 1;
	}
	g->cc = 10 * major + minor;
	return 0;
}

/* ------------------------------------------------------------- translation */

static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap);
	size_t got;
	while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap) {
			char *nb = realloc(buf, cap *= 2);
			if (!nb) {
				free(buf);
				buf = NULL;
			}
			buf = nb;
		}
	}
	fclose(f);
	*len = n;
	return buf;
}

static void print_diag(void *ctx, const px_diagnostic *d)
{
	char buf[1024];
	px_diagnostic_format(d, buf, sizeof buf);
	fprintf(stderr, "  %s", buf);
}

/* The case's MIR as PTX for the target the case runs on; NULL after
 * reporting why not. */
static char *translate(const char *srcdir, const gpu_case *c)
{
	char path[4096];
	size_t len = 0;
	char *src;
	if (c->mir_text) {
		if (!(src = c->mir_text())) {
			fprintf(stderr, "  %s: could not write its MIR\n", c->name);
			return NULL;
		}
		len = strlen(src);
	} else {
		snprintf(path, sizeof path, "%s/%s", srcdir, c->mir);
		if (!(src = read_file(path, &len))) {
			fprintf(stderr, "  %s: cannot read %s: %s\n", c->name, path, strerror(errno));
			return NULL;
		}
	}
	px_options o;
	px_options_default(&o);
	o.target = c->target;
	char *out = NULL;
	size_t outlen;
	const char *base = strrchr(c->mir, '/');
	if (px_translate(base ? base + 1 : c->mir, src, len, &o, print_diag, NULL, &out, &outlen))
		out = NULL;
	free(src);
	return out;
}

/* ----------------------------------------------------------- case helpers */

int gpu_load(gpu *g, const gpu_case *c, const char *kernel, gpu_kernel *k)
{
	if (!g->last_ptx)
		g->last_ptx = translate(g->srcdir, c);
	if (!g->last_ptx)
		return 1;
	char log[8192] = "";
	int opts[] = {CU_JIT_ERROR_LOG, CU_JIT_ERROR_LOG_SIZE};
	void *vals[] = {log, (void *)(uintptr_t)sizeof log};
	CUresult r = g->cu.ModuleLoadDataEx(&k->mod, g->last_ptx, 2, opts, vals);
	if (r != 0) {
		check(g, r, "cuModuleLoadDataEx");
		fprintf(stderr, "  JIT log: %s\n", log);
		return 1;
	}
	if (check(g, g->cu.ModuleGetFunction(&k->fn, k->mod, kernel), kernel)) {
		g->cu.ModuleUnload(k->mod);
		return 1;
	}
	return 0;
}

void gpu_unload(gpu *g, gpu_kernel *k)
{
	if (k->mod)
		g->cu.ModuleUnload(k->mod);
	k->mod = NULL;
}

int gpu_launch(gpu *g, gpu_kernel *k, gpu_dim grid, gpu_dim block, unsigned smem, void **args)
{
	if (smem > 48 * 1024 &&
	    check(g, g->cu.FuncSetAttribute(k->fn, CU_FUNC_MAX_DYNAMIC_SMEM, (int)smem),
	          "cuFuncSetAttribute"))
		return 1;
	return check(g, g->cu.LaunchKernel(k->fn, grid.x, grid.y, grid.z, block.x, block.y, block.z,
	                                   smem, NULL, args, NULL), "cuLaunchKernel") ||
	       check(g, g->cu.CtxSynchronize(), "the kernel");
}

int gpu_launch_cluster(gpu *g, gpu_kernel *k, gpu_dim grid, gpu_dim block, gpu_dim cluster, unsigned smem,
                       void **args)
{
	if (smem > 48 * 1024 &&
	    check(g, g->cu.FuncSetAttribute(k->fn, CU_FUNC_MAX_DYNAMIC_SMEM, (int)smem),
	          "cuFuncSetAttribute"))
		return 1;
	CUlaunchAttribute attr = {.id = CU_LAUNCH_ATTR_CLUSTER_DIM};
	attr.value.clusterDim.x = cluster.x;
	attr.value.clusterDim.y = cluster.y;
	attr.value.clusterDim.z = cluster.z;
	CUlaunchConfig cfg = {grid.x, grid.y, grid.z, block.x, block.y, block.z, smem, NULL, &attr, 1};
	return check(g, g->cu.LaunchKernelEx(&cfg, k->fn, args, NULL), "cuLaunchKernelEx") ||
	       check(g, g->cu.CtxSynchronize(), "the kernel");
}

CUdeviceptr gpu_alloc(gpu *g, size_t bytes)
{
	CUdeviceptr p = 0;
	if (check(g, g->cu.MemAlloc(&p, bytes), "cuMemAlloc"))
		return 0;
	return p;
}

void gpu_free(gpu *g, CUdeviceptr p)
{
	if (p)
		g->cu.MemFree(p);
}

int gpu_put(gpu *g, CUdeviceptr dst, const void *src, size_t bytes)
{
	return check(g, g->cu.MemcpyHtoD(dst, src, bytes), "cuMemcpyHtoD");
}

int gpu_get(gpu *g, void *dst, CUdeviceptr src, size_t bytes)
{
	return check(g, g->cu.MemcpyDtoH(dst, src, bytes), "cuMemcpyDtoH");
}

int gpu_zero(gpu *g, CUdeviceptr dst, size_t bytes)
{
	return check(g, g->cu.MemsetD8(dst, 0, bytes), "cuMemsetD8");
}

/* gpu_run and gpu_run_clusters; a NULL cluster launches plainly. */
static int run_call(gpu *g, const gpu_case *c, const gpu_call *call, const gpu_dim *cluster)
{
	enum { MAX_PARAMS = 16 };
	CUdeviceptr dev[MAX_PARAMS] = {0};
	void *args[MAX_PARAMS];
	gpu_kernel k = {0};
	size_t nb = call->nbufs;
	if (nb + call->nscalars > MAX_PARAMS) {
		fprintf(stderr, "  %s: more than %d kernel parameters\n", g->case_name, MAX_PARAMS);
		return 1;
	}
	int bad = 0;
	for (size_t i = 0; i < nb && !bad; i++) {
		const gpu_buf *b = &call->bufs[i];
		dev[i] = gpu_alloc(g, b->bytes);
		args[i] = &dev[i];
		bad = !dev[i] || (b->dir & GPU_IN ? gpu_put(g, dev[i], b->host, b->bytes)
		                                  : gpu_zero(g, dev[i], b->bytes));
	}
	for (size_t i = 0; i < call->nscalars; i++)
		args[nb + i] = call->scalars[i];
	bad = bad || gpu_load(g, c, call->kernel, &k);
	if (!bad)
		bad = cluster ? gpu_launch_cluster(g, &k, call->grid, call->block, *cluster, 0, args)
		              : gpu_launch(g, &k, call->grid, call->block, 0, args);
	for (size_t i = 0; i < nb && !bad; i++)
		if (call->bufs[i].dir & GPU_OUT)
			bad = gpu_get(g, call->bufs[i].host, dev[i], call->bufs[i].bytes);
	gpu_unload(g, &k);
	for (size_t i = 0; i < nb; i++)
		gpu_free(g, dev[i]);
	return bad;
}

int gpu_run(gpu *g, const gpu_case *c, const gpu_call *call)
{
	return run_call(g, c, call, NULL);
}

int gpu_run_clusters(gpu *g, const gpu_case *c, const gpu_call *call, gpu_dim cluster)
{
	return run_call(g, c, call, &cluster);
}

uint32_t gpu_rand(uint32_t *state)
{
	/* xorshift32: the state must not be 0. */
	uint32_t x = *state ? *state : 0x9e3779b9u;
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return *state = x;
}

uint32_t gpu_f32_bits(float f)
{
	uint32_t u;
	memcpy(&u, &f, sizeof u);
	return u;
}

float gpu_bits_f32(uint32_t u)
{
	float f;
	memcpy(&f, &u, sizeof f);
	return f;
}

uint16_t gpu_f16_bits(float f)
{
	uint32_t x = gpu_f32_bits(f), sign = (x >> 16) & 0x8000, ax = x & 0x7fffffff;
	if (ax > 0x7f800000)
		return (uint16_t)(sign | 0x7fff);
	if (ax >= 0x477ff000) /* 65520 and above round to infinity */
		return (uint16_t)(sign | 0x7c00);
	int e = (int)(ax >> 23) - 127;
	if (e < -14) /* subnormal: a multiple of 2^-24, rounded to even */
		return (uint16_t)(sign | (uint32_t)rintf(fabsf(f) * 16777216.0f));
	uint32_t mant = ax & 0x7fffff, h = ((uint32_t)(e + 15) << 10) | (mant >> 13), rest = mant & 0x1fff;
	if (rest > 0x1000 || (rest == 0x1000 && (h & 1)))
		h++;
	return (uint16_t)(sign | h);
}

void gpu_exact_product(uint32_t seed, unsigned m, unsigned n, unsigned k, uint16_t *a, uint16_t *bt,
                       long *prod)
{
	int *av = malloc(sizeof *av * m * k), *bv = malloc(sizeof *bv * n * k);
	if (!av || !bv)
		abort();
	for (unsigned i = 0; i < m * k; i++) {
		av[i] = (int)(gpu_rand(&seed) % 9) - 4;
		a[i] = gpu_f16_bits((float)av[i] / 2.0f);
	}
	for (unsigned i = 0; i < n * k; i++) {
		bv[i] = (int)(gpu_rand(&seed) % 9) - 4;
		bt[i] = gpu_f16_bits((float)bv[i] / 2.0f);
	}
	for (unsigned r = 0; r < m; r++)
		for (unsigned c = 0; c < n; c++) {
			long sum = 0;
			for (unsigned j = 0; j < k; j++)
				sum += (long)av[r * k + j] * bv[c * k + j];
			prod[r * n + c] = sum;
		}
	free(av);
	free(bv);
}

enum { SHOW_MISMATCHES = 8 };

size_t gpu_cmp_u32(gpu *g, const char *what, const uint32_t *got, const uint32_t *want, size_t n)
{
	size_t bad = 0;
	for (size_t i = 0; i < n; i++)
		if (got[i] != want[i] && bad++ < SHOW_MISMATCHES)
			fprintf(stderr, "  %s: %s[%zu] = 0x%08x, expected 0x%08x\n", g->case_name, what, i,
			        got[i], want[i]);
	return bad;
}

size_t gpu_cmp_u64(gpu *g, const char *what, const uint64_t *got, const uint64_t *want, size_t n)
{
	size_t bad = 0;
	for (size_t i = 0; i < n; i++)
		if (got[i] != want[i] && bad++ < SHOW_MISMATCHES)
			fprintf(stderr, "  %s: %s[%zu] = 0x%016llx, expected 0x%016llx\n", g->case_name,
			        what, i, (unsigned long long)got[i], (unsigned long long)want[i]);
	return bad;
}

size_t gpu_cmp_f32(gpu *g, const char *what, const float *got, const float *want, size_t n,
                   double abs_tol, double rel_tol)
{
	size_t bad = 0;
	for (size_t i = 0; i < n; i++) {
		double d = fabs((double)got[i] - (double)want[i]);
		int ok = (isnan(got[i]) && isnan(want[i])) || got[i] == want[i] ||
		         d <= abs_tol + rel_tol * fabs((double)want[i]);
		if (!ok && bad++ < SHOW_MISMATCHES)
			fprintf(stderr, "  %s: %s[%zu] = %.9g, expected %.9g\n", g->case_name, what, i,
			        (double)got[i], (double)want[i]);
	}
	return bad;
}

/* One line of text at *p (without its newline), advancing *p past it. */
static int next_line(const char **p, const char **line, size_t *len)
{
	if (!**p)
		return 0;
	const char *nl = strchr(*p, '\n');
	*line = *p;
	*len = nl ? (size_t)(nl - *p) : strlen(*p);
	*p += *len + (nl != NULL);
	return 1;
}

size_t gpu_cmp_text(gpu *g, const char *what, const char *got, const char *want)
{
	size_t bad = 0, n = 0;
	const char *gl, *wl;
	size_t glen, wlen;
	for (;;) {
		int hg = next_line(&got, &gl, &glen), hw = next_line(&want, &wl, &wlen);
		if (!hg && !hw)
			break;
		n++;
		if (hg && hw && glen == wlen && memcmp(gl, wl, glen) == 0)
			continue;
		if (bad++ < SHOW_MISMATCHES)
			fprintf(stderr, "  %s: %s line %zu is \"%.*s\", expected \"%.*s\"\n", g->case_name, what, n,
			        hg ? (int)glen : 6, hg ? gl : "(none)", hw ? (int)wlen : 6, hw ? wl : "(none)");
	}
	return bad;
}

int gpu_capture_begin(gpu *g, gpu_capture *cap)
{
	fflush(stdout);
	cap->file = tmpfile();
	cap->saved_fd = dup(STDOUT_FILENO);
	if (!cap->file || cap->saved_fd < 0 || dup2(fileno(cap->file), STDOUT_FILENO) < 0) {
		fprintf(stderr, "  %s: cannot redirect standard output: %s\n", g->case_name, strerror(errno));
		if (cap->saved_fd >= 0)
			close(cap->saved_fd);
		if (cap->file)
			fclose(cap->file);
		return 1;
	}
	return 0;
}

char *gpu_capture_end(gpu *g, gpu_capture *cap)
{
	fflush(stdout);
	dup2(cap->saved_fd, STDOUT_FILENO);
	close(cap->saved_fd);
	char *text = NULL;
	long n = fseek(cap->file, 0, SEEK_END) == 0 ? ftell(cap->file) : -1;
	if (n >= 0 && fseek(cap->file, 0, SEEK_SET) == 0 && (text = malloc((size_t)n + 1)) &&
	    fread(text, 1, (size_t)n, cap->file) == (size_t)n)
		text[n] = 0;
	else {
		fprintf(stderr, "  %s: cannot read the captured output back\n", g->case_name);
		free(text);
		text = NULL;
	}
	fclose(cap->file);
	return text;
}

/* ------------------------------------------------------------------- main */

static int wanted(const gpu_case *c, int argc, char **argv, int first)
{
	if (first >= argc)
		return 1;
	for (int i = first; i < argc; i++)
		if (strcmp(argv[i], c->name) == 0)
			return 1;
	return 0;
}

static int write_ptx(const char *srcdir, const char *outdir)
{
	int bad = 0;
	for (size_t t = 0; t < NTABLES; t++)
		for (const gpu_case *c = tables[t]; c->name; c++) {
			char *ptx = translate(srcdir, c);
			if (!ptx) {
				fprintf(stderr, "%s: does not translate\n", c->name);
				bad = 1;
				continue;
			}
			char path[4096];
			snprintf(path, sizeof path, "%s/%s.ptx", outdir, c->name);
			FILE *f = fopen(path, "w");
			if (!f || fputs(ptx, f) == EOF || fclose(f) == EOF) {
				fprintf(stderr, "%s: cannot write %s\n", c->name, path);
				bad = 1;
			}
			free(ptx);
		}
	return bad;
}

int main(int argc, char **argv)
{
	const char *srcdir = ".", *ptxdir = NULL;
	int first = 1;
	while (first < argc && argv[first][0] == '-') {
		if (strcmp(argv[first], "--srcdir") == 0 && first + 1 < argc) {
			srcdir = argv[first + 1];
			first += 2;
		} else if (strcmp(argv[first], "--ptx") == 0 && first + 1 < argc) {
			ptxdir = argv[first + 1];
			first += 2;
		} else if (strcmp(argv[first], "--list") == 0) {
			for (size_t t = 0; t < NTABLES; t++)
				for (const gpu_case *c = tables[t]; c->name; c++)
					printf("%s\n", c->name);
			return 0;
		} else {
			fprintf(stderr, "usage: gpurun [--srcdir DIR] [--ptx OUTDIR | --list] [CASE...]\n");
			return 2;
		}
	}
	if (ptxdir)
		return write_ptx(srcdir, ptxdir);

	gpu g = {.srcdir = srcdir};
	char why[512];
	if (open_device(&g, why, sizeof why)) {
		printf("gpurun: %s: every case skipped\n", why);
		return 77;
	}
	printf("gpurun: device of compute capability %d.%d\n", g.cc / 10, g.cc % 10);
	unsigned pass = 0, fail = 0, skip = 0;
	for (size_t t = 0; t < NTABLES; t++)
		for (const gpu_case *c = tables[t]; c->name; c++) {
			if (!wanted(c, argc, argv, first))
				continue;
			gpu_verdict v;
			g.case_name = c->name;
			if (g.cc < c->min_cc || (c->only_cc && g.cc != c->only_cc))
				v = GPU_SKIP;
			else
				v = c->run(&g, c);
			free(g.last_ptx);
			g.last_ptx = NULL;
			printf("%-28s %s\n", c->name, v == GPU_PASS ? "ok" : v == GPU_FAIL ? "FAILED" : "skipped");
			fflush(stdout);
			pass += v == GPU_PASS;
			fail += v == GPU_FAIL;
			skip += v == GPU_SKIP;
		}
	printf("gpu: %u passed, %u failed, %u skipped\n", pass, fail, skip);
	return fail ? 1 : 0;
}
