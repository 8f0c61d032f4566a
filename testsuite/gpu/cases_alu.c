/* Integer and floating-point edge cases, conversions in every rounding mode.
 * The host reference states PTX's semantics directly: shifts clamp at the
 * width, division truncates, directed roundings are derived from the exact
 * error of the round-to-nearest result (so the host's own rounding mode is
 * never changed), conversions to integers saturate and send NaN to 0; the
 * video instructions follow the ISA's definitions (saturation at the
 * destination's width, byte and half selectors, the merge into d, SIMD lanes). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu.h"

/* ------------------------------------------------------------- integers */

enum { INT_RESULTS = 20 };

static uint32_t bfe_u32(uint32_t a, uint32_t pos, uint32_t len)
{
	uint32_t d = 0;
	for (uint32_t i = 0; i < 32; i++)
		if (i < len && pos + i <= 31)
			d |= ((a >> (pos + i)) & 1u) << i;
	return d;
}

static void int_reference(uint32_t a, uint32_t b, uint32_t *r)
{
	int32_t sa = (int32_t)a, sb = (int32_t)b;
	uint32_t sh = b & 63;
	r[0] = a + b;
	r[1] = a - b;
	r[2] = a * b;
	r[3] = (uint32_t)(((uint64_t)a * b) >> 32);
	r[4] = (uint32_t)(((int64_t)sa * sb) >> 32);
	r[5] = a / b;
	r[6] = a % b;
	r[7] = (uint32_t)(sa / sb);
	r[8] = (uint32_t)(sa % sb);
	r[9] = (uint32_t)(sa < sb ? sa : sb);
	r[10] = a > b ? a : b;
	r[11] = sh >= 32 ? 0 : a << sh;
	r[12] = sh >= 32 ? 0 : a >> sh;
	r[13] = sh >= 32 ? (sa < 0 ? 0xffffffffu : 0) : (uint32_t)(sa < 0 ? ~(~a >> sh) : a >> sh);
	r[14] = (uint32_t)__builtin_popcount(a);
	r[15] = a ? (uint32_t)__builtin_clz(a) : 32;
	uint32_t rev = 0;
	for (int i = 0; i < 32; i++)
		rev |= ((a >> i) & 1u) << (31 - i);
	r[16] = rev;
	r[17] = sa == INT32_MIN ? a : (uint32_t)(sa < 0 ? -sa : sa);
	r[18] = bfe_u32(a, b & 255, (b >> 8) & 255);
	r[19] = ~(a ^ b);
}

static gpu_verdict int_ops(gpu *g, const gpu_case *c)
{
	enum { N = 512 };
	static const uint32_t edges[] = {0, 1, 2, 31, 32, 33, 0x7fffffff, 0x80000000, 0xffffffff, 0x12345678};
	enum { NE = sizeof edges / sizeof edges[0] };
	static uint32_t a[N], b[N], got[N * INT_RESULTS], want[N * INT_RESULTS];
	uint32_t seed = 7;
	for (size_t i = 0; i < N; i++) {
		a[i] = i < NE * NE ? edges[i / NE] : gpu_rand(&seed);
		b[i] = i < NE * NE ? edges[i % NE] : gpu_rand(&seed);
		if (b[i] == 0)
			b[i] = 3; /* division by zero has no defined result */
		if (a[i] == 0x80000000u && b[i] == 0xffffffffu)
			b[i] = 2; /* nor has INT_MIN / -1 */
		int_reference(a[i], b[i], want + INT_RESULTS * i);
	}
	uint32_t n = N;
	gpu_buf bufs[] = {{a, sizeof a, GPU_IN}, {b, sizeof b, GPU_IN}, {got, sizeof got, GPU_OUT}};
	void *scalars[] = {&n};
	if (gpu_run(g, c, &(gpu_call){"int_ops", bufs, GPU_COUNT(bufs), scalars, GPU_COUNT(scalars),
	                              {N / 128, 1, 1}, {128, 1, 1}}))
		return GPU_FAIL;
	return gpu_cmp_u32(g, "out", got, want, N * INT_RESULTS) ? GPU_FAIL : GPU_PASS;
}

/* ------------------------------------------------- 128-bit carry chains */

enum { WIDE_RESULTS = 6 };

static gpu_verdict wide_int(gpu *g, const gpu_case *c)
{
	enum { N = 256 };
	/* halves that carry and borrow at every limb boundary */
	static const uint64_t edges[] = {0, 1, 0xffffffffu, 0x100000000u, 0x7fffffffffffffffu,
	                                 0x8000000000000000u, 0xffffffffffffffffu, 0xfffffffeffffffffu};
	enum { NE = sizeof edges / sizeof edges[0] };
	static uint64_t a[2 * N], b[2 * N], got[WIDE_RESULTS * N], want[WIDE_RESULTS * N];
	uint32_t seed = 11;
	for (size_t i = 0; i < N; i++) {
		for (size_t h = 0; h < 2; h++) {
			uint64_t ra = (uint64_t)gpu_rand(&seed) << 32 | gpu_rand(&seed);
			uint64_t rb = (uint64_t)gpu_rand(&seed) << 32 | gpu_rand(&seed);
			a[2 * i + h] = i < NE * NE ? edges[(i / NE + h) % NE] : ra;
			b[2 * i + h] = i < NE * NE ? edges[(i % NE + 3 * h) % NE] : rb;
		}
		unsigned __int128 x = (unsigned __int128)a[2 * i + 1] << 64 | a[2 * i];
		unsigned __int128 y = (unsigned __int128)b[2 * i + 1] << 64 | b[2 * i];
		unsigned __int128 s = x + y, d = x - y, p = (unsigned __int128)a[2 * i] * b[2 * i];
		uint64_t *w = want + WIDE_RESULTS * i;
		w[0] = (uint64_t)s, w[1] = (uint64_t)(s >> 64);
		w[2] = (uint64_t)d, w[3] = (uint64_t)(d >> 64);
		w[4] = (uint64_t)p, w[5] = (uint64_t)(p >> 64);
	}
	uint32_t n = N;
	gpu_buf bufs[] = {{a, sizeof a, GPU_IN}, {b, sizeof b, GPU_IN}, {got, sizeof got, GPU_OUT}};
	void *scalars[] = {&n};
	if (gpu_run(g, c, &(gpu_call){"wide_int", bufs, GPU_COUNT(bufs), scalars, GPU_COUNT(scalars),
	                              {N / 128, 1, 1}, {128, 1, 1}}))
		return GPU_FAIL;
	return gpu_cmp_u64(g, "out", got, want, WIDE_RESULTS * N) ? GPU_FAIL : GPU_PASS;
}

/* ---------------------------------------------------------------- floats */

enum { FLOAT_RESULTS = 24 };
typedef enum { RN, RZ, RM, RP } rounding;

/* err is the exact value minus the round-to-nearest result r; step r one
 * place in the direction the mode rounds to. */
static float directed(float r, double err, rounding m)
{
	if (err == 0 || !isfinite(r))
		return r;
	switch (m) {
	case RZ: return (err < 0) == (r > 0) ? nextafterf(r, 0.0f) : r;
	case RM: return err < 0 ? nextafterf(r, -INFINITY) : r;
	case RP: return err > 0 ? nextafterf(r, INFINITY) : r;
	default: return r;
	}
}

static float add_r(float a, float b, rounding m)
{
	float s = a + b;
	if (!isfinite(s))
		return s;
	if (s == 0) {
		/* An exact zero: -0 rounding down, +0 otherwise, unless both were -0. */
		if (a == 0 && b == 0 && signbit(a) == signbit(b))
			return a;
		return m == RM ? -0.0f : 0.0f;
	}
	float bb = s - a; /* TwoSum: the exact error of s */
	double err = (double)(a - (s - bb)) + (double)(b - bb);
	return directed(s, err, m);
}

static float mul_r(float a, float b, rounding m)
{
	float p = a * b;
	if (!isfinite(p) || p == 0)
		return p;
	return directed(p, (double)fmaf(a, b, -p), m);
}

static float from_int(int32_t k, rounding m)
{
	float f = (float)k;
	return directed(f, (double)k - (double)f, m);
}

static uint32_t to_int(float f, rounding m)
{
	if (isnan(f))
		return 0;
	float r = m == RN ? rintf(f) : m == RZ ? truncf(f) : m == RM ? floorf(f) : ceilf(f);
	if (r >= 2147483648.0f)
		return 0x7fffffff;
	if (r < -2147483648.0f)
		return 0x80000000u;
	return (uint32_t)(int32_t)r;
}

static float f16_value(uint16_t h)
{
	uint32_t sign = (h & 0x8000u) << 16, e = (h >> 10) & 31, m = h & 0x3ff;
	if (e == 31)
		return gpu_bits_f32(sign | 0x7f800000 | (m << 13));
	float v = e ? ldexpf((float)(m | 0x400), (int)e - 25) : ldexpf((float)m, -24);
	return sign ? -v : v;
}

static void float_reference(float a, float b, int32_t k, uint32_t *r)
{
	float f[FLOAT_RESULTS];
	for (int m = 0; m < 4; m++) {
		f[m] = add_r(a, b, (rounding)m);
		f[4 + m] = mul_r(a, b, (rounding)m);
	}
	f[8] = fmaf(a, b, a);
	f[9] = a / b;
	f[10] = sqrtf(fabsf(a));
	f[11] = 1.0f / b;
	f[12] = fminf(a, b);
	f[13] = fmaxf(a, b);
	for (int m = 0; m < 4; m++) {
		r[14 + m] = to_int(a, (rounding)m);
		f[18 + m] = from_int(k, (rounding)m);
	}
	uint16_t h = gpu_f16_bits(a);
	r[22] = h;
	f[23] = f16_value(h);
	for (int j = 0; j < FLOAT_RESULTS; j++)
		if (j < 14 || j >= 18)
			if (j != 22)
				r[j] = gpu_f32_bits(f[j]);
}

/* Bit-exact, except that any NaN matches any NaN (PTX's canonical NaN is
 * not the host's) and an f16 NaN matches any f16 NaN. */
static size_t cmp_floats(gpu *g, const uint32_t *got, const uint32_t *want, size_t n)
{
	size_t bad = 0;
	for (size_t i = 0; i < n; i++) {
		size_t j = i % FLOAT_RESULTS;
		int nan;
		if (j == 22)
			nan = (got[i] & 0x7c00) == 0x7c00 && (got[i] & 0x3ff) && (want[i] & 0x7c00) == 0x7c00 &&
			      (want[i] & 0x3ff);
		else if (j >= 14 && j < 18)
			nan = 0;
		else
			nan = isnan(gpu_bits_f32(got[i])) && isnan(gpu_bits_f32(want[i]));
		if (got[i] != want[i] && !nan && bad++ < 8)
			fprintf(stderr, "  %s: out[%zu] (thread %zu, result %zu) = 0x%08x, expected 0x%08x\n",
			        g->case_name, i, i / FLOAT_RESULTS, j, got[i], want[i]);
	}
	return bad;
}

static gpu_verdict float_ops(gpu *g, const gpu_case *c)
{
	enum { N = 1024 };
	static const float edges[] = {0.0f, -0.0f, 1.0f, -1.0f, 0.5f, 1.5f, 2.5f, -2.5f, 3e9f, -3e9f,
	                              65504.0f, 65519.0f, 65520.0f, 1e-6f, 3.0e-8f, 16777217.0f,
	                              0.1f, NAN, INFINITY, -INFINITY};
	enum { NE = sizeof edges / sizeof edges[0] };
	static float a[N], b[N];
	static int32_t k[N];
	static uint32_t got[N * FLOAT_RESULTS], want[N * FLOAT_RESULTS];
	uint32_t seed = 11;
	for (size_t i = 0; i < N; i++) {
		if (i < NE * NE) {
			a[i] = edges[i / NE];
			b[i] = edges[i % NE];
		} else {
			/* random signs and mantissas, exponents within 2^-20..2^20 so that
			 * products neither overflow nor lose bits to underflow */
			uint32_t ra = gpu_rand(&seed), rb = gpu_rand(&seed);
			a[i] = gpu_bits_f32((ra & 0x807fffff) | ((107 + ra % 41) << 23));
			b[i] = gpu_bits_f32((rb & 0x807fffff) | ((107 + rb % 41) << 23));
		}
		if (a[i] == 0 && b[i] == 0)
			b[i] = 0.25f; /* min/max of +0 and -0 may return either */
		k[i] = (int32_t)gpu_rand(&seed);
		if (i < 8)
			k[i] = (int32_t)((0x01000001u << i) | 1); /* more than 24 bits: rounding shows */
		float_reference(a[i], b[i], k[i], want + FLOAT_RESULTS * i);
	}
	uint32_t n = N;
	gpu_buf bufs[] = {{a, sizeof a, GPU_IN}, {b, sizeof b, GPU_IN}, {k, sizeof k, GPU_IN},
	                  {got, sizeof got, GPU_OUT}};
	void *scalars[] = {&n};
	if (gpu_run(g, c, &(gpu_call){"float_ops", bufs, GPU_COUNT(bufs), scalars, GPU_COUNT(scalars),
	                              {N / 128, 1, 1}, {128, 1, 1}}))
		return GPU_FAIL;
	return cmp_floats(g, got, want, N * FLOAT_RESULTS) ? GPU_FAIL : GPU_PASS;
}

/* ------------------------------------------------------------------- FP8 */

typedef struct fp8_format {
	int mbits, bias;
	double max;       /* the largest finite value; .satfinite clamps to it */
} fp8_format;

static const fp8_format E4M3 = {3, 7, 448.0}, E5M2 = {2, 15, 57344.0};

static int fp8_is_nan(uint32_t code, const fp8_format *f)
{
	return f->mbits == 3 ? (code & 0x7f) == 0x7f : (code & 0x7c) == 0x7c && (code & 3);
}

/* Rounded to nearest even, then clamped to the largest finite value. */
static uint32_t fp8_bits(float x, const fp8_format *f)
{
	if (isnan(x))
		return 0x7f;
	uint32_t sign = signbit(x) ? 0x80 : 0;
	double a = fabs((double)x);
	if (a == 0)
		return sign;
	int e;
	frexp(a, &e); /* a = m * 2^e, m in [0.5, 1): the exponent of a is e - 1 */
	int emin = 1 - f->bias;
	double quantum = ldexp(1.0, (e - 1 < emin ? emin : e - 1) - f->mbits);
	double q = a > f->max ? f->max : rint(a / quantum) * quantum;
	if (q > f->max)
		q = f->max;
	if (q == 0)
		return sign;
	frexp(q, &e);
	if (e - 1 < emin)
		return sign | (uint32_t)(q / ldexp(1.0, emin - f->mbits));
	return sign | (uint32_t)((e - 1 + f->bias) << f->mbits) |
	       (uint32_t)(q / ldexp(1.0, e - 1 - f->mbits) - (1 << f->mbits));
}

static float fp8_value(uint32_t code, const fp8_format *f)
{
	if (fp8_is_nan(code, f))
		return NAN;
	int e = (int)((code & 0x7f) >> f->mbits), m = (int)(code & ((1u << f->mbits) - 1));
	if (f->mbits == 2 && e == 31)
		return code & 0x80 ? -INFINITY : INFINITY;
	double v = e ? ldexp(1.0 + m / (double)(1 << f->mbits), e - f->bias)
	             : ldexp(m / (double)(1 << f->mbits), 1 - f->bias);
	return (float)(code & 0x80 ? -v : v);
}

static uint32_t f16x2_of(uint32_t pair, const fp8_format *f)
{
	return (uint32_t)gpu_f16_bits(fp8_value(pair >> 8, f)) << 16 | gpu_f16_bits(fp8_value(pair & 0xff, f));
}

/* NaN codes compare by class: any NaN of the format matches any other. */
static size_t cmp_fp8(gpu *g, const uint32_t *got, const uint32_t *want, size_t n)
{
	size_t bad = 0;
	for (size_t i = 0; i < n; i++) {
		const fp8_format *f = i % 4 == 0 || i % 4 == 2 ? &E4M3 : &E5M2;
		int same = got[i] == want[i];
		if (!same && i % 4 < 2)
			same = ((got[i] >> 8) == (want[i] >> 8) || (fp8_is_nan(got[i] >> 8, f) && fp8_is_nan(want[i] >> 8, f))) &&
			       ((got[i] & 0xff) == (want[i] & 0xff) || (fp8_is_nan(got[i] & 0xff, f) && fp8_is_nan(want[i] & 0xff, f)));
		else if (!same)
			for (int h = 0; h < 2; h++) {
				uint32_t x = got[i] >> (16 * h) & 0xffff, y = want[i] >> (16 * h) & 0xffff;
				same = x == y || ((x & 0x7c00) == 0x7c00 && (x & 0x3ff) && (y & 0x7c00) == 0x7c00 && (y & 0x3ff));
				if (!same)
					break;
			}
		if (!same && bad++ < 8)
			fprintf(stderr, "  %s: out[%zu] = 0x%08x, expected 0x%08x\n", g->case_name, i, got[i], want[i]);
	}
	return bad;
}

static gpu_verdict fp8(gpu *g, const gpu_case *c)
{
	enum { N = 1024 };
	static const float edges[] = {0.0f, -0.0f, 1.0f, -1.5f, 448.0f, 449.0f, 464.0f, 480.0f, 1e6f, -1e6f,
	                              57344.0f, 61440.0f, 0x1p-9f, 0x1p-10f, 0x3p-11f, 0x1p-16f, 0x1p-17f,
	                              0x3p-18f, INFINITY, -INFINITY, NAN, 0.3f, -7.0625f, 240.0f};
	enum { NE = sizeof edges / sizeof edges[0] };
	static float a[N], b[N];
	static uint32_t got[4 * N], want[4 * N];
	uint32_t seed = 41;
	for (size_t i = 0; i < N; i++) {
		if (i < NE * NE) {
			a[i] = edges[i / NE];
			b[i] = edges[i % NE];
		} else {
			uint32_t ra = gpu_rand(&seed), rb = gpu_rand(&seed);
			a[i] = gpu_bits_f32((ra & 0x807fffff) | ((100 + ra % 50) << 23));
			b[i] = gpu_bits_f32((rb & 0x807fffff) | ((100 + rb % 50) << 23));
		}
		uint32_t *w = want + 4 * i;
		w[0] = fp8_bits(a[i], &E4M3) << 8 | fp8_bits(b[i], &E4M3);
		w[1] = fp8_bits(a[i], &E5M2) << 8 | fp8_bits(b[i], &E5M2);
		w[2] = f16x2_of(w[0], &E4M3);
		w[3] = f16x2_of(w[1], &E5M2);
	}
	uint32_t n = N;
	gpu_buf bufs[] = {{a, sizeof a, GPU_IN}, {b, sizeof b, GPU_IN}, {got, sizeof got, GPU_OUT}};
	void *scalars[] = {&n};
	if (gpu_run(g, c, &(gpu_call){"fp8", bufs, GPU_COUNT(bufs), scalars, GPU_COUNT(scalars),
	                              {N / 128, 1, 1}, {128, 1, 1}}))
		return GPU_FAIL;
	return cmp_fp8(g, got, want, 4 * N) ? GPU_FAIL : GPU_PASS;
}

/* ------------------------------------------------------ video instructions */

enum { VIDEO_RESULTS = 12 };

static uint32_t byte_of(uint32_t x, int i) { return (x >> (8 * i)) & 0xffu; }

static void video_reference(uint32_t a, uint32_t b, uint32_t c, uint32_t *r)
{
	int32_t sa = (int32_t)a, sb = (int32_t)b, sc = (int32_t)c;
	int64_t sum = (int64_t)sa + sb;                                     /* vadd.sat: clamped to s32 */
	r[0] = (uint32_t)(int32_t)(sum > INT32_MAX ? INT32_MAX : sum < INT32_MIN ? INT32_MIN : sum);
	int64_t diff = (int64_t)sa - sb;
	r[1] = (uint32_t)(int32_t)(diff > INT32_MAX ? INT32_MAX : diff < INT32_MIN ? INT32_MIN : diff);
	uint32_t part = byte_of(a, 1) + byte_of(b, 0);                       /* a.b1 + b.b0 into d.b2 */
	r[2] = (part & 0xffu) << 16 | (c & 0xff00ffffu);
	uint32_t sad = c;                                                    /* vabsdiff4.add */
	for (int i = 0; i < 4; i++)
		sad += byte_of(a, i) > byte_of(b, i) ? byte_of(a, i) - byte_of(b, i) : byte_of(b, i) - byte_of(a, i);
	r[3] = sad;
	uint32_t mx = 0;                                                     /* vmax2.s32: signed halves */
	for (int h = 0; h < 2; h++) {
		int16_t x = (int16_t)(a >> (16 * h)), y = (int16_t)(b >> (16 * h));
		mx |= (uint32_t)(uint16_t)(x > y ? x : y) << (16 * h);
	}
	r[4] = mx;
	uint32_t ne = 0;                                                     /* vset4.ne: 1 or 0 per byte */
	for (int i = 0; i < 4; i++)
		ne |= (uint32_t)(byte_of(a, i) != byte_of(b, i)) << (8 * i);
	r[5] = ne;
	r[6] = (a & 0xffffu) * (b >> 16) + c;                                /* vmad a.h0 * b.h1 + c */
	r[7] = b >= 32 ? 0 : a << b;                                         /* vshl.clamp: at most 32 */
	uint32_t avg = 0;                                                    /* vavrg4: rounded up */
	for (int i = 0; i < 4; i++)
		avg |= ((byte_of(a, i) + byte_of(b, i) + 1) >> 1) << (8 * i);
	r[8] = avg;
	int32_t lo = sa < sb ? sa : sb;                                      /* vmin, then .max with c */
	r[9] = (uint32_t)(lo > sc ? lo : sc);
	/* vmad with a and b both negated: the product keeps its sign */
	r[10] = (a & 0xffffu) * (b >> 16) + c + 1;                           /* .po: plus one */
	r[11] = (uint32_t)((int64_t)(int16_t)(a & 0xffffu) * (int16_t)(b >> 16) - sc); /* s32 halves, - c */
}

static gpu_verdict video(gpu *g, const gpu_case *c)
{
	enum { N = 512 };
	static const uint32_t edges[] = {0, 1, 31, 32, 0x7fffffff, 0x80000000, 0xffffffff, 0x80ff7f01};
	enum { NE = sizeof edges / sizeof edges[0] };
	static uint32_t a[N], b[N], cc[N], got[N * VIDEO_RESULTS], want[N * VIDEO_RESULTS];
	uint32_t seed = 13;
	for (size_t i = 0; i < N; i++) {
		a[i] = i < NE * NE ? edges[i / NE] : gpu_rand(&seed);
		b[i] = i < NE * NE ? edges[i % NE] : gpu_rand(&seed);
		cc[i] = i < NE * NE ? edges[(i + i / NE) % NE] : gpu_rand(&seed);
		video_reference(a[i], b[i], cc[i], want + VIDEO_RESULTS * i);
	}
	uint32_t n = N;
	gpu_buf bufs[] = {{a, sizeof a, GPU_IN}, {b, sizeof b, GPU_IN}, {cc, sizeof cc, GPU_IN},
	                  {got, sizeof got, GPU_OUT}};
	void *scalars[] = {&n};
	if (gpu_run(g, c, &(gpu_call){"video", bufs, GPU_COUNT(bufs), scalars, GPU_COUNT(scalars),
	                              {N / 128, 1, 1}, {128, 1, 1}}))
		return GPU_FAIL;
	return gpu_cmp_u32(g, "out", got, want, N * VIDEO_RESULTS) ? GPU_FAIL : GPU_PASS;
}

const gpu_case gpu_cases_alu[] = {
	{"int_ops", "testsuite/gpu/int_ops.mir", NULL, 80, 0, int_ops, NULL},
	{"wide_int", "testsuite/gpu/wide_int.mir", NULL, 80, 0, wide_int, NULL},
	{"video", "testsuite/gpu/video.mir", NULL, 80, 0, video, NULL},
	{"float_ops", "testsuite/gpu/float_ops.mir", NULL, 80, 0, float_ops, NULL},
	{"fp8", "testsuite/gpu/fp8.mir", NULL, 90, 0, fp8, NULL},
	{0},
};
