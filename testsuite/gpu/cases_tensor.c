/* Tensor cores: mma.sync for f16, bf16 (fragments through ldmatrix), tf32
 * and s8; f16 accumulators through stmatrix; wgmma from shared-memory
 * descriptors, unswizzled and in each swizzle mode. The inputs are small multiples of 1/2 (or small integers), so
 * every product and every partial sum is exact and the comparison is exact. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu.h"

typedef enum { EL_F16, EL_BF16, EL_TF32, EL_S8 } element;

typedef struct mma_shape {
	const char *kernel;
	element el;
	unsigned k;      /* M = 16, N = 8 always */
	unsigned bytes;  /* size of one A or B element in memory */
} mma_shape;

static void put_element(uint8_t *buf, size_t i, element el, int v2)
{
	/* v2 is twice the value: the value is v2 / 2 (s8 takes v2 itself) */
	float f = (float)v2 / 2.0f;
	uint32_t bits = gpu_f32_bits(f);
	switch (el) {
	case EL_F16: {
		uint16_t h = gpu_f16_bits(f);
		memcpy(buf + 2 * i, &h, 2);
		break;
	}
	case EL_BF16: {
		uint16_t h = (uint16_t)(bits >> 16); /* exact: these values need 8 bits at most */
		memcpy(buf + 2 * i, &h, 2);
		break;
	}
	case EL_TF32:
		memcpy(buf + 4 * i, &bits, 4);
		break;
	case EL_S8:
		buf[i] = (uint8_t)(int8_t)v2;
		break;
	}
}

static gpu_verdict run_mma(gpu *g, const gpu_case *c, const mma_shape *s)
{
	enum { M = 16, N = 8 };
	unsigned K = s->k;
	uint8_t a[16 * 32 * 4], bt[8 * 32 * 4];
	int av[16][32], bv[32][8];
	uint32_t cin[M * N], got[M * N], want[M * N];
	uint32_t seed = 31 + s->el;
	for (unsigned r = 0; r < M; r++)
		for (unsigned k = 0; k < K; k++) {
			av[r][k] = (int)(gpu_rand(&seed) % (s->el == EL_S8 ? 255 : 9)) - (s->el == EL_S8 ? 127 : 4);
			put_element(a, r * K + k, s->el, av[r][k]);
		}
	for (unsigned n = 0; n < N; n++)
		for (unsigned k = 0; k < K; k++) {
			bv[k][n] = (int)(gpu_rand(&seed) % (s->el == EL_S8 ? 255 : 9)) - (s->el == EL_S8 ? 127 : 4);
			put_element(bt, n * K + k, s->el, bv[k][n]);
		}
	for (unsigned r = 0; r < M; r++)
		for (unsigned n = 0; n < N; n++) {
			int ci = (int)(gpu_rand(&seed) % 201) - 100;
			long sum = 0;
			for (unsigned k = 0; k < K; k++)
				sum += (long)av[r][k] * bv[k][n];
			if (s->el == EL_S8) {
				cin[r * N + n] = (uint32_t)ci;
				want[r * N + n] = (uint32_t)(int32_t)(sum + ci);
			} else {
				/* values are v2 / 2: a product is sum / 4; C is ci / 4 */
				cin[r * N + n] = gpu_f32_bits((float)ci / 4.0f);
				want[r * N + n] = gpu_f32_bits((float)(sum + ci) / 4.0f);
			}
		}
	gpu_buf bufs[] = {{a, (size_t)M * K * s->bytes, GPU_IN}, {bt, (size_t)N * K * s->bytes, GPU_IN},
	                  {cin, sizeof cin, GPU_IN}, {got, sizeof got, GPU_OUT}};
	if (gpu_run(g, c, &(gpu_call){s->kernel, bufs, GPU_COUNT(bufs), NULL, 0, {1, 1, 1}, {32, 1, 1}}))
		return GPU_FAIL;
	return gpu_cmp_u32(g, "D", got, want, M * N) ? GPU_FAIL : GPU_PASS;
}

static gpu_verdict mma_f16(gpu *g, const gpu_case *c)
{
	return run_mma(g, c, &(mma_shape){"mma_f16", EL_F16, 16, 2});
}

static gpu_verdict mma_bf16(gpu *g, const gpu_case *c)
{
	return run_mma(g, c, &(mma_shape){"mma_bf16", EL_BF16, 16, 2});
}

static gpu_verdict mma_tf32(gpu *g, const gpu_case *c)
{
	return run_mma(g, c, &(mma_shape){"mma_tf32", EL_TF32, 8, 4});
}

static gpu_verdict mma_s8(gpu *g, const gpu_case *c)
{
	return run_mma(g, c, &(mma_shape){"mma_s8", EL_S8, 32, 1});
}

/* f16 accumulators, D stored through stmatrix: every value is a multiple of
 * 1/4 below 2^8 in magnitude, exact in f16. */
static gpu_verdict mma_stmatrix(gpu *g, const gpu_case *c)
{
	enum { M = 16, N = 8, K = 16 };
	uint16_t a[M * K], bt[N * K], cin[M * N], got[M * N], want[M * N];
	long prod[M * N];
	gpu_exact_product(61, M, N, K, a, bt, prod);
	uint32_t seed = 62;
	for (unsigned i = 0; i < M * N; i++) {
		int ci = (int)(gpu_rand(&seed) % 201) - 100;
		cin[i] = gpu_f16_bits((float)ci / 4.0f);
		want[i] = gpu_f16_bits((float)(prod[i] + ci) / 4.0f);
	}
	gpu_buf bufs[] = {{a, sizeof a, GPU_IN}, {bt, sizeof bt, GPU_IN}, {cin, sizeof cin, GPU_IN},
	                  {got, sizeof got, GPU_OUT}};
	if (gpu_run(g, c, &(gpu_call){"mma_stmatrix", bufs, GPU_COUNT(bufs), NULL, 0, {1, 1, 1}, {32, 1, 1}}))
		return GPU_FAIL;
	uint32_t g32[M * N], w32[M * N];
	for (size_t i = 0; i < M * N; i++)
		g32[i] = got[i], w32[i] = want[i];
	return gpu_cmp_u32(g, "D", g32, w32, M * N) ? GPU_FAIL : GPU_PASS;
}

/* The byte at which element (row, k) of a K-major 16-bit operand sits in
 * the descriptor layout the kernel names: 8 x 8 core matrices of eight
 * 16-byte rows, 128 bytes apart along K and 256 bytes apart per 8 rows. */
static size_t core_offset(unsigned row, unsigned k)
{
	return (row / 8) * 256 + (k / 8) * 128 + (row % 8) * 16 + (k % 8) * 2;
}

static gpu_verdict wgmma_f16(gpu *g, const gpu_case *c)
{
	enum { M = 64, N = 8, K = 16 };
	uint16_t ra[M * K], rbt[N * K];
	uint8_t a[M * K * 2], bt[N * K * 2];
	long prod[M * N];
	uint32_t cin[M * N], got[M * N], want[M * N];
	gpu_exact_product(71, M, N, K, ra, rbt, prod);
	for (unsigned r = 0; r < M; r++)
		for (unsigned k = 0; k < K; k++)
			memcpy(a + core_offset(r, k), &ra[r * K + k], 2);
	for (unsigned n = 0; n < N; n++)
		for (unsigned k = 0; k < K; k++)
			memcpy(bt + core_offset(n, k), &rbt[n * K + k], 2);
	uint32_t seed = 72;
	for (unsigned i = 0; i < M * N; i++) {
		int ci = (int)(gpu_rand(&seed) % 201) - 100;
		cin[i] = gpu_f32_bits((float)ci / 4.0f);
		want[i] = gpu_f32_bits((float)(prod[i] + ci) / 4.0f);
	}
	gpu_buf bufs[] = {{a, sizeof a, GPU_IN}, {bt, sizeof bt, GPU_IN}, {cin, sizeof cin, GPU_IN},
	                  {got, sizeof got, GPU_OUT}};
	if (gpu_run(g, c, &(gpu_call){"wgmma_f16", bufs, GPU_COUNT(bufs), NULL, 0, {1, 1, 1}, {128, 1, 1}}))
		return GPU_FAIL;
	return gpu_cmp_u32(g, "D", got, want, M * N) ? GPU_FAIL : GPU_PASS;
}

/* The byte at which element (row, k) of a K-major 16-bit tile sits in the
 * swizzled layout of width w bytes (128, 64, 32): rows w bytes apart, groups
 * of eight rows 8 * w apart, and in each the 16-byte chunk (offset bits 4
 * and up) xored with the row's bits (offset bits 7 and up), as many bits
 * as the pattern has chunks across a row: 3, 2 or 1. The tile starts at a
 * multiple of 8 * w, so offset bits are address bits. */
static size_t swizzled_offset(unsigned w, unsigned row, unsigned k)
{
	size_t o = (size_t)(row / 8) * 8 * w + (row % 8) * w + k * 2;
	size_t chunks = w / 16 - 1;
	return o ^ (((o >> 7) & chunks) << 4);
}

/* One operand pair of a swizzled wgmma case: its swizzle width and where
 * A and B sit in the image the kernel copies to shared memory as it is. */
typedef struct swizzled_tiles {
	const char *what;   /* D's name in messages */
	unsigned width;
	size_t a, b;
} swizzled_tiles;

/* D = A * B + C (64 x 8, K = k) for each pair of tiles, D after D in out[]. */
static gpu_verdict run_swizzled(gpu *g, const gpu_case *c, const char *kernel, const swizzled_tiles *tile,
                                unsigned ntiles, unsigned k, size_t image_bytes, uint32_t seed)
{
	enum { M = 64, N = 8, KMAX = 32, TILES = 3, IMAGE = 16384 };
	static uint8_t image[IMAGE];
	uint16_t ra[M * KMAX], rbt[N * KMAX];
	long prod[TILES][M * N];
	uint32_t cin[M * N], got[TILES * M * N], want[TILES * M * N];
	if (ntiles > TILES || k > KMAX || image_bytes > IMAGE)
		abort();
	memset(image, 0, sizeof image);
	for (unsigned s = 0; s < ntiles; s++) {
		gpu_exact_product(seed + s, M, N, k, ra, rbt, prod[s]);
		for (unsigned r = 0; r < M; r++)
			for (unsigned j = 0; j < k; j++)
				memcpy(image + tile[s].a + swizzled_offset(tile[s].width, r, j), &ra[r * k + j], 2);
		for (unsigned n = 0; n < N; n++)
			for (unsigned j = 0; j < k; j++)
				memcpy(image + tile[s].b + swizzled_offset(tile[s].width, n, j), &rbt[n * k + j], 2);
	}
	seed += TILES;
	for (unsigned i = 0; i < M * N; i++) {
		int ci = (int)(gpu_rand(&seed) % 201) - 100;
		cin[i] = gpu_f32_bits((float)ci / 4.0f);
		for (unsigned s = 0; s < ntiles; s++)
			want[s * M * N + i] = gpu_f32_bits((float)(prod[s][i] + ci) / 4.0f);
	}
	gpu_buf bufs[] = {{image, image_bytes, GPU_IN}, {cin, sizeof cin, GPU_IN},
	                  {got, (size_t)ntiles * M * N * 4, GPU_OUT}};
	if (gpu_run(g, c, &(gpu_call){kernel, bufs, GPU_COUNT(bufs), NULL, 0, {1, 1, 1}, {128, 1, 1}}))
		return GPU_FAIL;
	size_t bad = 0;
	for (unsigned s = 0; s < ntiles; s++)
		bad += gpu_cmp_u32(g, tile[s].what, got + s * M * N, want + s * M * N, M * N);
	return bad ? GPU_FAIL : GPU_PASS;
}

/* The tiles where wgmma_swizzle.mir and wgmma_kstep.mir read them. */
static gpu_verdict wgmma_swizzle(gpu *g, const gpu_case *c)
{
	static const swizzled_tiles tile[] = {
		{"D128", 128, 0, 14336}, {"D64", 64, 8192, 15360}, {"D32", 32, 12288, 15872},
	};
	return run_swizzled(g, c, "wgmma_swizzle", tile, 3, 16, 16384, 81);
}

static gpu_verdict wgmma_kstep(gpu *g, const gpu_case *c)
{
	static const swizzled_tiles tile[] = {{"D128", 128, 0, 12288}, {"D64", 64, 8192, 13312}};
	return run_swizzled(g, c, "wgmma_kstep", tile, 2, 32, 14336, 91);
}

const gpu_case gpu_cases_tensor[] = {
	{"mma_f16", "testsuite/gpu/mma_sync.mir", NULL, 80, 0, mma_f16, NULL},
	{"mma_bf16", "testsuite/gpu/mma_sync.mir", NULL, 80, 0, mma_bf16, NULL},
	{"mma_tf32", "testsuite/gpu/mma_sync.mir", NULL, 80, 0, mma_tf32, NULL},
	{"mma_s8", "testsuite/gpu/mma_sync.mir", NULL, 80, 0, mma_s8, NULL},
	{"mma_stmatrix", "testsuite/gpu/stmatrix.mir", NULL, 90, 0, mma_stmatrix, NULL},
	{"wgmma_f16", "testsuite/gpu/wgmma.mir", NULL, 90, 90, wgmma_f16, NULL},
	{"wgmma_swizzle", "testsuite/gpu/wgmma_swizzle.mir", NULL, 90, 90, wgmma_swizzle, NULL},
	{"wgmma_kstep", "testsuite/gpu/wgmma_kstep.mir", NULL, 90, 90, wgmma_kstep, NULL},
	{0},
};
