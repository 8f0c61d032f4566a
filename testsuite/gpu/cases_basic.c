/* The shipped examples, run: each computes what its header comment says. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "gpu.h"

static void fill_f32(float *v, size_t n, uint32_t seed)
{
	for (size_t i = 0; i < n; i++)
		v[i] = (float)(gpu_rand(&seed) % 20001) / 1000.0f - 10.0f;
}

static gpu_verdict vadd(gpu *g, const gpu_case *c)
{
	enum { N = 1000 };
	static float a[N], b[N], got[N], want[N];
	fill_f32(a, N, 1);
	fill_f32(b, N, 2);
	for (size_t i = 0; i < N; i++)
		want[i] = a[i] + b[i];
	uint32_t n = N;
	gpu_buf bufs[] = {{a, sizeof a, GPU_IN}, {b, sizeof b, GPU_IN}, {got, sizeof got, GPU_OUT}};
	void *scalars[] = {&n};
	if (gpu_run(g, c, &(gpu_call){"vadd", bufs, GPU_COUNT(bufs), scalars, GPU_COUNT(scalars),
	                              {(N + 255) / 256, 1, 1}, {256, 1, 1}}))
		return GPU_FAIL;
	return gpu_cmp_f32(g, "c", got, want, N, 0, 0) ? GPU_FAIL : GPU_PASS;
}

static gpu_verdict reduce(gpu *g, const gpu_case *c)
{
	enum { BLOCKS = 8, N = 256 * BLOCKS };
	static float in[N], got[BLOCKS], want[BLOCKS];
	fill_f32(in, N, 3);
	for (size_t b = 0; b < BLOCKS; b++) {
		double s = 0;
		for (size_t i = 0; i < 256; i++)
			s += in[256 * b + i];
		want[b] = (float)s;
	}
	gpu_buf bufs[] = {{in, sizeof in, GPU_IN}, {got, sizeof got, GPU_OUT}};
	if (gpu_run(g, c, &(gpu_call){"reduce", bufs, GPU_COUNT(bufs), NULL, 0, {BLOCKS, 1, 1}, {256, 1, 1}}))
		return GPU_FAIL;
	/* The tree adds in another order than the host: 256 terms of at most 10
	 * in magnitude, so allow a few units in the last place of the largest. */
	return gpu_cmp_f32(g, "out", got, want, BLOCKS, 1e-3, 1e-5) ? GPU_FAIL : GPU_PASS;
}

static gpu_verdict transpose(gpu *g, const gpu_case *c)
{
	enum { W = 64, H = 48 };
	static float in[W * H], got[W * H], want[W * H];
	fill_f32(in, W * H, 4);
	for (size_t r = 0; r < H; r++)
		for (size_t col = 0; col < W; col++)
			want[col * H + r] = in[r * W + col];
	uint32_t w = W, h = H;
	gpu_buf bufs[] = {{in, sizeof in, GPU_IN}, {got, sizeof got, GPU_OUT}};
	void *scalars[] = {&w, &h};
	if (gpu_run(g, c, &(gpu_call){"transpose", bufs, GPU_COUNT(bufs), scalars, GPU_COUNT(scalars),
	                              {W / 16, H / 16, 1}, {16, 16, 1}}))
		return GPU_FAIL;
	return gpu_cmp_f32(g, "out", got, want, W * H, 0, 0) ? GPU_FAIL : GPU_PASS;
}

static gpu_verdict saxpy(gpu *g, const gpu_case *c)
{
	enum { N = 1000 };
	static float x[N], y[N], want[N];
	fill_f32(x, N, 5);
	fill_f32(y, N, 6);
	float a = 1.75f;
	/* fma.rn rounds once, as C's fmaf does. */
	for (size_t i = 0; i < N; i++)
		want[i] = fmaf(a, x[i], y[i]);
	uint32_t n = N;
	gpu_buf bufs[] = {{x, sizeof x, GPU_IN}, {y, sizeof y, GPU_INOUT}};
	void *scalars[] = {&a, &n};
	if (gpu_run(g, c, &(gpu_call){"saxpy", bufs, GPU_COUNT(bufs), scalars, GPU_COUNT(scalars),
	                              {(N + 127) / 128, 1, 1}, {128, 1, 1}}))
		return GPU_FAIL;
	return gpu_cmp_f32(g, "y", y, want, N, 0, 0) ? GPU_FAIL : GPU_PASS;
}

static gpu_verdict cluster(gpu *g, const gpu_case *c)
{
	enum { BLOCKS = 8 };
	uint32_t got[2 * BLOCKS], want[2 * BLOCKS];
	for (uint32_t b = 0; b < BLOCKS; b++) {
		want[2 * b] = b / 2;     /* the cluster's x index */
		want[2 * b + 1] = b % 2; /* the block's rank in its two-block cluster */
	}
	gpu_buf bufs[] = {{got, sizeof got, GPU_OUT}};
	if (gpu_run(g, c, &(gpu_call){"where", bufs, GPU_COUNT(bufs), NULL, 0, {BLOCKS, 1, 1}, {128, 1, 1}}))
		return GPU_FAIL;
	return gpu_cmp_u32(g, "out", got, want, 2 * BLOCKS) ? GPU_FAIL : GPU_PASS;
}

/* examples/dsmem.mir in clusters of two blocks: each block's outputs come from
 * the other block of its cluster (host reference below). */
static gpu_verdict dsmem(gpu *g, const gpu_case *c)
{
	enum { BLOCKS = 8, T = 128, N = BLOCKS * T };
	static uint32_t in[N], got[N + 2 * BLOCKS], want[N + 2 * BLOCKS];
	uint32_t seed = 0xd5e3;
	for (size_t i = 0; i < N; i++)
		in[i] = gpu_rand(&seed) >> 12; /* small enough that no sum of 128 wraps */
	for (uint32_t b = 0; b < BLOCKS; b++) {
		uint32_t peer = b ^ 1, sum = 0;
		for (uint32_t t = 0; t < T; t++) {
			want[b * T + t] = in[peer * T + t];
			sum += in[peer * T + t];
		}
		want[N + 2 * b] = sum;
		want[N + 2 * b + 1] = (b % 2) ^ 1; /* the other block's rank in the cluster */
	}
	if (!g->cu.LaunchKernelEx)
		return GPU_SKIP; /* a driver older than CUDA 11.8 */
	gpu_buf bufs[] = {{in, sizeof in, GPU_IN}, {got, sizeof got, GPU_OUT}};
	if (gpu_run_clusters(g, c, &(gpu_call){"exchange", bufs, GPU_COUNT(bufs), NULL, 0, {BLOCKS, 1, 1}, {T, 1, 1}},
	                     (gpu_dim){2, 1, 1}))
		return GPU_FAIL;
	return gpu_cmp_u32(g, "out", got, want, N + 2 * BLOCKS) ? GPU_FAIL : GPU_PASS;
}

static gpu_verdict gemm(gpu *g, const gpu_case *c)
{
	enum { M = 64, N = 96, K = 64 };
	static uint16_t a[M * K], bt[N * K];
	static long prod[M * N];
	static float got[M * N], want[M * N];
	gpu_exact_product(81, M, N, K, a, bt, prod);
	for (size_t i = 0; i < M * N; i++)
		want[i] = (float)prod[i] / 4.0f;
	uint32_t m = M, n = N, kk = K;
	gpu_buf bufs[] = {{a, sizeof a, GPU_IN}, {bt, sizeof bt, GPU_IN}, {got, sizeof got, GPU_OUT}};
	void *scalars[] = {&m, &n, &kk};
	if (gpu_run(g, c, &(gpu_call){"gemm", bufs, GPU_COUNT(bufs), scalars, GPU_COUNT(scalars),
	                              {N / 32, M / 32, 1}, {128, 1, 1}}))
		return GPU_FAIL;
	return gpu_cmp_f32(g, "C", got, want, M * N, 0, 0) ? GPU_FAIL : GPU_PASS;
}

/* A K-major f16 operand (rows x K, row-major) seen by TMA as 8 halves x
 * rows x K / 8 chunks, boxes of 8 x box_rows x 2, as hopper_gemm.mir says. */
static int operand_map(gpu *g, CUtensorMap *map, CUdeviceptr p, uint64_t rows, uint64_t k,
                       uint32_t box_rows)
{
	uint64_t dims[3] = {8, rows, k / 8}, strides[2] = {k * 2, 16};
	uint32_t box[3] = {8, box_rows, 2}, es[3] = {1, 1, 1};
	CUresult r = g->cu.TensorMapEncodeTiled(map, CU_TMAP_FLOAT16, 3, (void *)(uintptr_t)p, dims,
	                                        strides, box, es, 0, 0, 0, 0);
	if (r)
		fprintf(stderr, "  %s: cuTensorMapEncodeTiled failed: error %d\n", g->case_name, r);
	return r != 0;
}

static gpu_verdict hopper_gemm(gpu *g, const gpu_case *c)
{
	enum { M = 128, N = 64, K = 64 };
	static uint16_t a[M * K], bt[N * K];
	static long prod[M * N];
	static float got[M * N], want[M * N];
	if (!g->cu.TensorMapEncodeTiled)
		return GPU_SKIP;
	gpu_exact_product(83, M, N, K, a, bt, prod);
	for (size_t i = 0; i < M * N; i++)
		want[i] = (float)prod[i] / 4.0f;
	gpu_kernel k = {0};
	CUdeviceptr da = gpu_alloc(g, sizeof a), db = gpu_alloc(g, sizeof bt), dc = gpu_alloc(g, sizeof got),
	            dmaps = gpu_alloc(g, 2 * sizeof(CUtensorMap));
	CUtensorMap maps[2];
	CUdeviceptr dta = dmaps, dtb = dmaps + sizeof(CUtensorMap);
	uint32_t n = N, kk = K;
	void *args[] = {&dta, &dtb, &dc, &n, &kk};
	gpu_verdict v = GPU_FAIL;
	if (da && db && dc && dmaps && !operand_map(g, &maps[0], da, M, K, 64) &&
	    !operand_map(g, &maps[1], db, N, K, 32) && !gpu_put(g, dmaps, maps, sizeof maps) &&
	    !gpu_load(g, c, "hopper_gemm", &k) && !gpu_put(g, da, a, sizeof a) &&
	    !gpu_put(g, db, bt, sizeof bt) &&
	    !gpu_launch(g, &k, (gpu_dim){N / 32, M / 64, 1}, (gpu_dim){256, 1, 1}, 0, args) &&
	    !gpu_get(g, got, dc, sizeof got))
		v = gpu_cmp_f32(g, "C", got, want, M * N, 0, 0) ? GPU_FAIL : GPU_PASS;
	gpu_unload(g, &k);
	gpu_free(g, da), gpu_free(g, db), gpu_free(g, dc), gpu_free(g, dmaps);
	return v;
}

/* examples/devlib.mir: out[i] = clamp(op[sel[i]](x[i]), -100, 100) for a
 * finite x[i], else 0; the ops square, negate and halve, each rounded once. */
static gpu_verdict devlib(gpu *g, const gpu_case *c)
{
	enum { N = 1000 };
	static float x[N], got[N], want[N];
	static uint32_t sel[N];
	uint32_t seed = 11;
	fill_f32(x, N, 10);
	for (size_t i = 0; i < N; i++) {
		x[i] *= 2.0f;
		sel[i] = gpu_rand(&seed) % 3;
	}
	x[7] = INFINITY;
	x[8] = -INFINITY;
	x[9] = NAN;
	for (size_t i = 0; i < N; i++) {
		float r = sel[i] == 0 ? x[i] * x[i] : sel[i] == 1 ? -x[i] : x[i] * 0.5f;
		r = r < -100.0f ? -100.0f : r > 100.0f ? 100.0f : r;
		want[i] = isfinite(x[i]) ? r : 0.0f;
	}
	uint32_t n = N;
	gpu_buf bufs[] = {{x, sizeof x, GPU_IN}, {sel, sizeof sel, GPU_IN}, {got, sizeof got, GPU_OUT}};
	void *scalars[] = {&n};
	if (gpu_run(g, c, &(gpu_call){"devlib", bufs, GPU_COUNT(bufs), scalars, GPU_COUNT(scalars),
	                              {(N + 127) / 128, 1, 1}, {128, 1, 1}}))
		return GPU_FAIL;
	return gpu_cmp_f32(g, "out", got, want, N, 0, 0) ? GPU_FAIL : GPU_PASS;
}

const gpu_case gpu_cases_basic[] = {
	{"example_vadd", "examples/vadd.mir", NULL, 80, 0, vadd, NULL},
	{"example_reduce", "examples/reduce.mir", NULL, 80, 0, reduce, NULL},
	{"example_transpose", "examples/transpose.mir", NULL, 80, 0, transpose, NULL},
	{"example_call", "examples/call.mir", NULL, 80, 0, saxpy, NULL},
	{"example_devlib", "examples/devlib.mir", NULL, 75, 0, devlib, NULL},
	{"example_cluster", "examples/cluster.mir", NULL, 90, 0, cluster, NULL},
	{"example_dsmem", "examples/dsmem.mir", NULL, 90, 0, dsmem, NULL},
	{"example_gemm", "examples/gemm.mir", NULL, 80, 0, gemm, NULL},
	{"example_hopper_gemm", "examples/hopper_gemm.mir", NULL, 90, 90, hopper_gemm, NULL},
	{0},
};
