/* MIR's own forms, run: packed literals in arithmetic, movs, calls and
 * returns; addresses and aggregates passed through calls; device printf.
 * The references compute each result from the PTX ISA's definition of the
 * operation and MIR's definition of the literal (rounded once, to nearest
 * even, from the decimal into the lane's format). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu.h"

/* ------------------------------------------------------- small formats */

/* A binary float format: exponent and mantissa widths, and the largest
 * unbiased exponent of a finite value (the IEEE-like formats' bias, one more
 * for e4m3, whose top exponent still holds finite values). */
typedef struct fmt { int ebits, mbits, emax; } fmt;

static const fmt F16 = {5, 10, 15}, BF16 = {8, 7, 127}, E4M3 = {4, 3, 8}, E5M2 = {5, 2, 15};

/* x rounded once to nearest even into f: its bits (infinity beyond the
 * largest finite value; no case here goes there). */
static uint32_t fmt_bits(fmt f, double x)
{
	uint32_t sign = signbit(x) ? 1u << (f.ebits + f.mbits) : 0;
	double ax = fabs(x);
	if (ax == 0)
		return sign;
	int bias = (1 << (f.ebits - 1)) - 1, emin = 1 - bias, e;
	frexp(ax, &e);
	e -= 1; /* ax = 1.m * 2^e */
	if (e < emin)
		e = emin; /* subnormal: the quantum stays emin's */
	double r = rint(ldexp(ax, f.mbits - e));
	if (r >= ldexp(1, f.mbits + 1)) { /* rounded up to the next binade */
		r /= 2;
		e++;
	}
	if (e > f.emax)
		return sign | ((uint32_t)((1 << f.ebits) - 1) << f.mbits);
	if (r < ldexp(1, f.mbits)) /* subnormal */
		return sign | (uint32_t)r;
	return sign | (uint32_t)(e + bias) << f.mbits | ((uint32_t)r - (1u << f.mbits));
}

/* The value of f's bits (finite values only). */
static double fmt_value(fmt f, uint32_t bits)
{
	int bias = (1 << (f.ebits - 1)) - 1;
	uint32_t m = bits & ((1u << f.mbits) - 1), e = (bits >> f.mbits) & ((1u << f.ebits) - 1);
	double v = e ? ldexp(1.0 + ldexp(m, -f.mbits), (int)e - bias) : ldexp(m, 1 - bias - f.mbits);
	return bits >> (f.ebits + f.mbits) & 1 ? -v : v;
}

/* A decimal literal as MIR reads it into a lane of format f: its value. */
static double lit(fmt f, const char *text)
{
	return fmt_value(f, fmt_bits(f, strtod(text, NULL)));
}

static uint32_t pack(uint32_t lo, uint32_t hi)
{
	return lo | hi << 16;
}

/* A random finite value of f with exponent in [elo, ehi] and either sign. */
static uint32_t fmt_random(fmt f, int elo, int ehi, uint32_t *seed)
{
	int bias = (1 << (f.ebits - 1)) - 1;
	uint32_t r = gpu_rand(seed), e = (uint32_t)(elo + (int)(r % (uint32_t)(ehi - elo + 1)) + bias);
	uint32_t m = (r >> 8) & ((1u << f.mbits) - 1), s = (r >> 30) & 1;
	return s << (f.ebits + f.mbits) | e << f.mbits | m;
}

/* ------------------------------------------------------- packed floats */

enum { PK_THREADS = 64, PK_OUT = 13 };

/* Two lanes of format f, lane 0 the low half of a word. */
typedef struct lanes { double v[2]; } lanes;

static lanes unpack(fmt f, uint32_t w)
{
	return (lanes){{fmt_value(f, w & 0xffff), fmt_value(f, w >> 16)}};
}

static lanes lits(fmt f, const char *lo, const char *hi)
{
	return (lanes){{lit(f, lo), lit(f, hi)}};
}

/* Each lane's exact result, rounded once into f. The inputs keep every
 * exact sum, product and fused product-sum within a double's 53 bits, so
 * the double arithmetic here is exact and the one rounding is fmt_bits's. */
typedef enum { ADD, SUB, MUL, FMA } lane_op;

static uint32_t lanes_op(fmt f, lane_op op, lanes a, lanes b, lanes c)
{
	uint32_t r[2];
	for (int k = 0; k < 2; k++) {
		double x = a.v[k], y = b.v[k];
		r[k] = fmt_bits(f, op == ADD ? x + y : op == SUB ? x - y : op == MUL ? x * y : fma(x, y, c.v[k]));
	}
	return pack(r[0], r[1]);
}

static const lanes NONE = {{0, 0}};

static gpu_verdict packed(gpu *g, const gpu_case *c)
{
	uint32_t h[PK_THREADS], b[PK_THREADS], got[PK_THREADS * PK_OUT], want[PK_THREADS * PK_OUT];
	uint32_t seed = 101;
	for (size_t t = 0; t < PK_THREADS; t++) {
		h[t] = pack(fmt_random(F16, -6, 6, &seed), fmt_random(F16, -6, 6, &seed));
		b[t] = pack(fmt_random(BF16, -10, 10, &seed), fmt_random(BF16, -10, 10, &seed));
	}
	h[0] = 0x80000000u; /* +0 and -0 */
	b[0] = 0x00008000u;
	for (size_t t = 0; t < PK_THREADS; t++) {
		lanes x = unpack(F16, h[t]), y = unpack(BF16, b[t]);
		uint32_t *o = want + PK_OUT * t;
		o[0] = lanes_op(F16, ADD, x, lits(F16, "0.1", "-1.5"), NONE);
		o[1] = lanes_op(F16, MUL, x, lits(F16, "0.333", "0.333"), NONE);
		o[2] = lanes_op(F16, FMA, x, lits(F16, "1.5", "-0.75"), lits(F16, "0.25", "-2.0"));
		o[3] = lanes_op(BF16, FMA, y, lits(BF16, "0.1", "3.0"), lits(BF16, "-1.0", "0.0078125"));
		o[4] = lanes_op(BF16, FMA, y, lits(BF16, "3.0", "-0.1"), y);
		o[5] = lanes_op(BF16, FMA, y, lits(BF16, "2.7", "2.7"), lits(BF16, "0.5", "-0.5"));
		o[6] = pack(fmt_bits(F16, strtod("65504.0", NULL)), fmt_bits(F16, strtod("-0.000061035156", NULL)));
		o[7] = pack(fmt_bits(BF16, strtod("1.1", NULL)), fmt_bits(BF16, strtod("1.1", NULL)));
		o[8] = lanes_op(F16, ADD, x, unpack(F16, 0x3C00BC00u), NONE);
		o[9] = lanes_op(F16, SUB, x, lits(F16, "1e-3", "1000.0"), NONE);
		o[10] = lanes_op(F16, ADD, x, lits(F16, "0.5", "-1.0"), NONE);
		o[11] = lanes_op(BF16, FMA, y, lits(BF16, "1.5", "1.5"), y);
		o[12] = lanes_op(F16, MUL, x, lits(F16, "0.75", "0.75"), NONE);
	}
	gpu_buf bufs[] = {{h, sizeof h, GPU_IN}, {b, sizeof b, GPU_IN}, {got, sizeof got, GPU_OUT}};
	if (gpu_run(g, c, &(gpu_call){"packed", bufs, GPU_COUNT(bufs), NULL, 0, {1, 1, 1}, {PK_THREADS, 1, 1}}))
		return GPU_FAIL;
	return gpu_cmp_u32(g, "out", got, want, PK_THREADS * PK_OUT) ? GPU_FAIL : GPU_PASS;
}

/* ------------------------------------------ packed integers and FP8 */

/* op on each 16-bit lane of x (its bits as an unsigned number) and the
 * lane's literal. */
static uint32_t lanewise(uint32_t x, int (*op)(int, int), int lo, int hi)
{
	return pack((uint32_t)op((int)(x & 0xffff), lo) & 0xffff, (uint32_t)op((int)(x >> 16), hi) & 0xffff);
}

static int s16(int v)
{
	return v >= 0x8000 ? v - 0x10000 : v;
}

static int max_s16(int x, int l)
{
	return s16(x) > l ? s16(x) : l;
}

static int min_u16(int x, int l)
{
	return x < l ? x : l;
}

/* max.relu: the maximum, 0 where it is negative */
static int max_relu_s16(int x, int l)
{
	int m = max_s16(x, l);
	return m < 0 ? 0 : m;
}

/* An FP8 lane (finite) widened to f16: exact. */
static uint32_t fp8_to_f16(fmt f, uint32_t byte)
{
	return fmt_bits(F16, fmt_value(f, byte));
}

static uint32_t fp8_lits(fmt f, const char *lo, const char *hi)
{
	return pack(fp8_to_f16(f, fmt_bits(f, strtod(lo, NULL))), fp8_to_f16(f, fmt_bits(f, strtod(hi, NULL))));
}

static gpu_verdict packed_int(gpu *g, const gpu_case *c)
{
	enum { T = 64, OUT = 3 };
	uint32_t x[T], got[T * OUT], want[T * OUT];
	uint32_t seed = 103;
	for (size_t t = 0; t < T; t++)
		x[t] = gpu_rand(&seed);
	/* each lane's edges, as (lane 0, lane 1): equal to the literal, one
	 * either side, the extremes: (-300, 7), (-301, 8), (-299, 6),
	 * (-32768, 32767), (40000, 9), (39999, 10), (65535, 0), (-5, -4) */
	static const uint32_t edge[] = {0x0007fed4, 0x0008fed3, 0x0006fed5, 0x7fff8000,
	                                0x00099c40, 0x000a9c3f, 0x0000ffff, 0xfffcfffb};
	memcpy(x, edge, sizeof edge);
	for (size_t t = 0; t < T; t++) {
		uint32_t *o = want + OUT * t;
		o[0] = lanewise(x[t], max_s16, -300, 7);
		o[1] = lanewise(x[t], min_u16, 40000, 9);
		o[2] = lanewise(x[t], max_relu_s16, -5, -5);
	}
	gpu_buf bufs[] = {{x, sizeof x, GPU_IN}, {got, sizeof got, GPU_OUT}};
	if (gpu_run(g, c, &(gpu_call){"packed_int", bufs, GPU_COUNT(bufs), NULL, 0, {1, 1, 1}, {T, 1, 1}}))
		return GPU_FAIL;
	return gpu_cmp_u32(g, "out", got, want, T * OUT) ? GPU_FAIL : GPU_PASS;
}

static gpu_verdict packed_fp8(gpu *g, const gpu_case *c)
{
	enum { T = 64, OUT = 3 };
	uint32_t got[T * OUT], want[T * OUT];
	uint16_t p[T];
	uint32_t seed = 109;
	for (size_t t = 0; t < T; t++) {
		p[t] = (uint16_t)gpu_rand(&seed);
		for (int k = 0; k < 2; k++) /* no e4m3 NaN (S.1111.111) */
			if ((p[t] >> (8 * k) & 0x7f) == 0x7f)
				p[t] ^= (uint16_t)(1u << (8 * k));
	}
	p[0] = 0x7e80; /* -0 and 448 */
	p[1] = 0x0701; /* the smallest and the largest subnormal */
	for (size_t t = 0; t < T; t++) {
		uint32_t *o = want + OUT * t;
		o[0] = fp8_lits(E4M3, "0.3", "-448.0");
		o[1] = fp8_lits(E5M2, "1000.0", "0.0001");
		o[2] = pack(fp8_to_f16(E4M3, p[t] & 0xff), fp8_to_f16(E4M3, p[t] >> 8));
	}
	gpu_buf bufs[] = {{p, sizeof p, GPU_IN}, {got, sizeof got, GPU_OUT}};
	if (gpu_run(g, c, &(gpu_call){"packed_fp8", bufs, GPU_COUNT(bufs), NULL, 0, {1, 1, 1}, {T, 1, 1}}))
		return GPU_FAIL;
	return gpu_cmp_u32(g, "out", got, want, T * OUT) ? GPU_FAIL : GPU_PASS;
}

/* ------------------------------------------------- addresses in calls */

static gpu_verdict call_addr(gpu *g, const gpu_case *c)
{
	enum { T = 128, OUT = 11, BINS = 16 };
	uint32_t in[T], io[T], io0[T], got[T * OUT], want[T * OUT], hist[BINS], want_hist[BINS] = {0};
	uint32_t seed = 107;
	for (size_t t = 0; t < T; t++) {
		in[t] = gpu_rand(&seed);
		io[t] = io0[t] = gpu_rand(&seed);
	}
	for (size_t t = 0; t < T; t++) {
		uint32_t *o = want + OUT * t;
		size_t lo = t % 64;
		o[0] = in[lo] + in[lo + 32] + in[lo + 64];
		o[1] = in[lo] ^ in[lo + 32] ^ in[lo + 64];
		o[2] = 0; /* the tally's old count: checked below */
		o[3] = io0[t];
		o[4] = (in[t] ^ 0x5a5a5a5au) + in[t];
		o[5] = in[t] * 3;
		o[6] = (uint32_t)t;
		o[7] = o[0] + 1;
		o[8] = o[1] + 2;
		o[9] = in[t] + 3;
		o[10] = in[lo + 2] - in[(t + 1) % T];
		want_hist[in[t] % BINS]++;
	}
	gpu_buf bufs[] = {{in, sizeof in, GPU_IN}, {io, sizeof io, GPU_INOUT}, {got, sizeof got, GPU_OUT},
	                  {hist, sizeof hist, GPU_OUT}};
	if (gpu_run(g, c, &(gpu_call){"call_addr", bufs, GPU_COUNT(bufs), NULL, 0, {1, 1, 1}, {T, 1, 1}}))
		return GPU_FAIL;
	/* The atomic adds to one bin happened in some order: the counts they
	 * returned must be 0, 1, ... each exactly once. */
	size_t bad = 0;
	for (uint32_t bin = 0; bin < BINS; bin++) {
		uint32_t seen[T] = {0};
		for (size_t t = 0; t < T; t++)
			if (in[t] % BINS == bin) {
				uint32_t old = got[OUT * t + 2];
				if ((old >= want_hist[bin] || seen[old]++) && bad++ < 8)
					fprintf(stderr, "  %s: out[%zu] = %u, expected one of 0..%u that no other add to bin %u "
					        "returned\n", g->case_name, OUT * t + 2, old, want_hist[bin] - 1, bin);
			}
	}
	for (size_t t = 0; t < T; t++)
		got[OUT * t + 2] = 0;
	bad += gpu_cmp_u32(g, "out", got, want, T * OUT);
	bad += gpu_cmp_u32(g, "io", io, in, T);
	bad += gpu_cmp_u32(g, "hist", hist, want_hist, BINS);
	return bad ? GPU_FAIL : GPU_PASS;
}

/* ------------------------------------------------------------- printf */

/* The arguments as printf.mir loads them: i at 0, u at 4, l at 8, x at 16,
 * d at 24, c at 32, h at 34. */
typedef struct say_args {
	int32_t i;
	uint32_t u;
	int64_t l;
	float x;
	uint32_t pad;
	double d;
	uint8_t c;
	uint8_t pad2;
	int16_t h;
} say_args;

static gpu_verdict say(gpu *g, const gpu_case *c)
{
	say_args a = {.i = -123456, .u = 3000000001u, .l = -81985529216486895LL, .x = 1.1f,
	              .d = 2.718281828459045, .c = 'Q', .h = -32000};
	char want[1024];
	int n = 0;
	/* the same formats and arguments as printf.mir's, after C's promotions */
	n += snprintf(want + n, sizeof want - n, "d=%d u=%u x=%x X=%08X\n", a.i, a.u, a.u, (unsigned)a.i);
	n += snprintf(want + n, sizeof want - n, "lld=%lld llx=%llx llu=%llu\n", (long long)a.l,
	              (unsigned long long)a.l, (unsigned long long)a.l);
	n += snprintf(want + n, sizeof want - n, "f=%f e=%.3e g=%g lf=%.12f\n", (double)a.x, (double)a.x, a.d, a.d);
	n += snprintf(want + n, sizeof want - n, "c=%c hd=%hd s=%s [%-6d] [%*u] %%\n", a.c, a.h, "ptxemit", a.i,
	              12, a.u);
	n += snprintf(want + n, sizeof want - n, "literals %d %u %.2f %lld\n", -12, 4000000000u, 2.5,
	              0x123456789LL);
	gpu_capture cap;
	if (gpu_capture_begin(g, &cap))
		return GPU_FAIL;
	gpu_buf bufs[] = {{&a, sizeof a, GPU_IN}};
	int failed = gpu_run(g, c, &(gpu_call){"say", bufs, GPU_COUNT(bufs), NULL, 0, {1, 1, 1}, {1, 1, 1}});
	char *got = gpu_capture_end(g, &cap);
	if (failed || !got) {
		free(got);
		return GPU_FAIL;
	}
	size_t bad = gpu_cmp_text(g, "standard output", got, want);
	free(got);
	return bad ? GPU_FAIL : GPU_PASS;
}

const gpu_case gpu_cases_lang[] = {
	{"packed_literals", "testsuite/gpu/packed.mir", NULL, 80, 0, packed, NULL},
	{"packed_int", "testsuite/gpu/packed_int.mir", NULL, 90, 0, packed_int, NULL},
	{"packed_fp8", "testsuite/gpu/packed_fp8.mir", NULL, 89, 0, packed_fp8, NULL},
	{"call_addresses", "testsuite/gpu/call_addr.mir", NULL, 80, 0, call_addr, NULL},
	{"device_printf", "testsuite/gpu/printf.mir", NULL, 80, 0, say, NULL},
	{0},
};
