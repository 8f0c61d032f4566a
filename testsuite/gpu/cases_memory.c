/* Warp collectives, atomics and shared memory. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu.h"

enum { WA_BLOCKS = 4, WA_N = 256 * WA_BLOCKS, WA_OUT = 8, WA_HIST = 21 };

typedef struct { uint32_t old, x; } wa_add;

static int by_old(const void *a, const void *b)
{
	uint32_t x = ((const wa_add *)a)->old, y = ((const wa_add *)b)->old;
	return x < y ? -1 : x > y;
}

/* The values atom.global.add returned on one cell, in the order the adds
 * happened, must be the running sums of the added words from 0; the cell
 * ends at the total. Wrapping makes "the order they happened" the order of
 * the returned values only while no sum wraps, so the inputs keep the sum
 * of each cell below 2^32. */
static size_t check_adds(gpu *g, const uint32_t *in, const uint32_t *out, const uint32_t *hist)
{
	size_t bad = 0;
	static wa_add adds[WA_N];
	for (uint32_t cell = 0; cell < 4; cell++) {
		size_t n = 0;
		for (size_t i = 0; i < WA_N; i++)
			if ((in[i] & 3) == cell)
				adds[n++] = (wa_add){out[WA_OUT * i + 6], in[i]};
		qsort(adds, n, sizeof adds[0], by_old);
		uint64_t sum = 0;
		for (size_t k = 0; k < n; k++) {
			if (adds[k].old != sum && bad++ < 8)
				fprintf(stderr, "  %s: cell %u: the %zu-th add returned %u, expected %llu\n",
				        g->case_name, cell, k, adds[k].old, (unsigned long long)sum);
			sum += adds[k].x;
		}
		if (hist[17 + cell] != (uint32_t)sum && bad++ < 8)
			fprintf(stderr, "  %s: cell %u ends at %u, expected %llu\n", g->case_name, cell,
			        hist[17 + cell], (unsigned long long)sum);
	}
	return bad;
}

static gpu_verdict warp_atomics(gpu *g, const gpu_case *c)
{
	static uint32_t in[WA_N], got[WA_N * WA_OUT], want[WA_N * WA_OUT];
	uint32_t hist[WA_HIST], want_hist[WA_HIST] = {0};
	uint32_t seed = 21;
	for (size_t i = 0; i < WA_N; i++)
		in[i] = gpu_rand(&seed) >> 12; /* below 2^20: no cell's sum wraps */
	in[2 * 32 + 7] = 0;          /* one warp where not every word is nonzero */
	in[3 * 32 + 5] = 0x80000003u; /* one warp with a word above 2^31; cells still do not wrap */
	for (size_t w = 0; w < WA_N / 32; w++) {
		const uint32_t *x = in + 32 * w;
		uint32_t sum = 0, ballot = 0, any = 0, all = 1;
		for (int l = 0; l < 32; l++) {
			sum += x[l];
			ballot |= (x[l] & 1u) << l;
			any |= x[l] > 0x80000000u;
			all &= x[l] != 0;
		}
		for (int l = 0; l < 32; l++) {
			uint32_t *o = want + WA_OUT * (32 * w + l);
			o[0] = sum;
			o[1] = x[(l + 5) % 32];
			o[2] = l ? x[l - 1] : x[0];
			o[3] = ballot;
			o[4] = any;
			o[5] = all;
		}
	}
	for (size_t b = 0; b < WA_BLOCKS; b++) {
		uint32_t odd = 0;
		for (size_t t = 0; t < 256; t++)
			odd += in[256 * b + t] & 1;
		for (size_t t = 0; t < 256; t++)
			want[WA_OUT * (256 * b + t) + 7] = odd;
	}
	for (size_t i = 0; i < WA_N; i++) {
		want_hist[in[i] % 16]++;
		if (in[i] > want_hist[16])
			want_hist[16] = in[i];
	}
	gpu_buf bufs[] = {{in, sizeof in, GPU_IN}, {got, sizeof got, GPU_OUT}, {hist, sizeof hist, GPU_OUT}};
	if (gpu_run(g, c, &(gpu_call){"warp_atomics", bufs, GPU_COUNT(bufs), NULL, 0, {WA_BLOCKS, 1, 1},
	                              {256, 1, 1}}))
		return GPU_FAIL;
	size_t bad = check_adds(g, in, got, hist);
	for (size_t i = 0; i < WA_N; i++)
		got[WA_OUT * i + 6] = want[WA_OUT * i + 6] = 0; /* checked above */
	bad += gpu_cmp_u32(g, "out", got, want, WA_N * WA_OUT);
	bad += gpu_cmp_u32(g, "hist", hist, want_hist, 17);
	return bad ? GPU_FAIL : GPU_PASS;
}

/* in[] through a shared tile, out[i] = in[255 - i]: the kernel names the
 * way the words get there (cp.async, or one bulk copy and an mbarrier). */
static gpu_verdict reversed_copy(gpu *g, const gpu_case *c, const char *kernel)
{
	enum { N = 256 };
	uint32_t in[N], got[N], want[N];
	uint32_t seed = 51;
	for (size_t i = 0; i < N; i++)
		in[i] = gpu_rand(&seed);
	for (size_t i = 0; i < N; i++)
		want[i] = in[N - 1 - i];
	gpu_buf bufs[] = {{in, sizeof in, GPU_IN}, {got, sizeof got, GPU_OUT}};
	if (gpu_run(g, c, &(gpu_call){kernel, bufs, GPU_COUNT(bufs), NULL, 0, {1, 1, 1}, {64, 1, 1}}))
		return GPU_FAIL;
	return gpu_cmp_u32(g, "out", got, want, N) ? GPU_FAIL : GPU_PASS;
}

static gpu_verdict cp_async(gpu *g, const gpu_case *c)
{
	return reversed_copy(g, c, "cp_async_rev");
}

static gpu_verdict bulk_copy(gpu *g, const gpu_case *c)
{
	return reversed_copy(g, c, "bulk_rev");
}

/* A tensor map over in[] (W x H f32), put in global memory; the kernel
 * copies the whole tensor to out[] one 16 x 8 box a block. */
static gpu_verdict tma_load(gpu *g, const gpu_case *c)
{
	enum { W = 64, H = 32 };
	static float in[W * H], got[W * H];
	if (!g->cu.TensorMapEncodeTiled)
		return GPU_SKIP; /* a driver older than CUDA 12 */
	uint32_t seed = 91;
	for (size_t i = 0; i < W * H; i++)
		in[i] = (float)(int)(gpu_rand(&seed) % 2001) - 1000.0f;
	gpu_kernel k = {0};
	CUdeviceptr din = gpu_alloc(g, sizeof in), dout = gpu_alloc(g, sizeof got),
	            dmap = gpu_alloc(g, sizeof(CUtensorMap));
	CUtensorMap map;
	uint64_t dims[2] = {W, H}, strides[1] = {W * sizeof(float)};
	uint32_t box[2] = {16, 8}, estrides[2] = {1, 1};
	uint32_t w = W;
	void *args[] = {&dmap, &dout, &w};
	gpu_verdict v = GPU_FAIL;
	if (din && dout && dmap &&
	    g->cu.TensorMapEncodeTiled(&map, CU_TMAP_FLOAT32, 2, (void *)(uintptr_t)din, dims, strides,
	                               box, estrides, 0, 0, 0, 0) == 0 &&
	    !gpu_put(g, dmap, &map, sizeof map) && !gpu_load(g, c, "tma_load", &k) &&
	    !gpu_put(g, din, in, sizeof in) && !gpu_zero(g, dout, sizeof got) &&
	    !gpu_launch(g, &k, (gpu_dim){W / 16, H / 8, 1}, (gpu_dim){128, 1, 1}, 0, args) &&
	    !gpu_get(g, got, dout, sizeof got))
		v = gpu_cmp_f32(g, "out", got, in, W * H, 0, 0) ? GPU_FAIL : GPU_PASS;
	gpu_unload(g, &k);
	gpu_free(g, din), gpu_free(g, dout), gpu_free(g, dmap);
	return v;
}

const gpu_case gpu_cases_memory[] = {
	{"warp_atomics", "testsuite/gpu/warp_atomics.mir", NULL, 80, 0, warp_atomics, NULL},
	{"cp_async", "testsuite/gpu/async_copy.mir", NULL, 80, 0, cp_async, NULL},
	{"bulk_copy_mbarrier", "testsuite/gpu/bulk_copy.mir", NULL, 90, 0, bulk_copy, NULL},
	{"tma_load", "testsuite/gpu/tma.mir", NULL, 90, 0, tma_load, NULL},
	{0},
};
