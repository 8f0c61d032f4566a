#include "util/fp.h"

#include <fenv.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "tables/tables.h"

/* Literals as most are written (1.5, 0.0625, 3e4: at most 2^53 in their
 * digits, a power of ten up to 22) are one correctly rounded operation on
 * two doubles, as strtod would round them, and the operation's exact remainder
 * (fma) tells on which side the decimal lies: no strtod, no rounding-mode
 * switches. Returns false for any other literal, and under a rounding mode
 * other than to nearest (which rounds a negative decimal as its magnitude). */
static bool parse_short(const char *s, double *v, int8_t *dir)
{
	static const double pow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
	                               1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
	                               1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
	bool neg = *s == '-';
	s += neg;
	uint64_t m = 0;
	int e = 0;
	for (; *s >= '0' && *s <= '9'; s++)
		if ((m = m * 10 + (uint64_t)(*s - '0')) > (1ull << 53))
			return false;
	if (*s == '.')
		for (s++; *s >= '0' && *s <= '9'; s++, e--)
			if ((m = m * 10 + (uint64_t)(*s - '0')) > (1ull << 53))
				return false;
	if (*s == 'e' || *s == 'E') {
		bool eneg = *++s == '-';
		s += *s == '-' || *s == '+';
		int x = 0;
		for (; *s >= '0' && *s <= '9'; s++)
			if ((x = x * 10 + (*s - '0')) > 99)
				return false;
		e += eneg ? -x : x;
	}
	if (*s || e < -22 || e > 22 || fegetround() != FE_TONEAREST)
		return false;
	double d = (double)m, p = pow10[e < 0 ? -e : e];
	double r = e < 0 ? d / p : d * p;
	double rest = e < 0 ? fma(-r, p, d) : fma(d, p, -r); /* the decimal less r, scaled */
	*dir = rest > 0 ? (neg ? -1 : 1) : rest < 0 ? (neg ? 1 : -1) : 0;
	*v = neg ? -r : r;
	return true;
}

double px_fp_parse(const char *s, int8_t *dir)
{
	double v;
	if (parse_short(s, &v, dir))
		return v;
	v = strtod(s, NULL);
	*dir = 0;
	if (!isfinite(v))
		return v;
	/* strtod rounds in the current rounding mode: the two directed parses
	 * bracket the decimal, and they agree only when it is a double */
	int mode = fegetround();
	fesetround(FE_DOWNWARD);
	double lo = strtod(s, NULL);
	fesetround(FE_UPWARD);
	double hi = strtod(s, NULL);
	fesetround(mode);
	if (lo != hi)
		*dir = v == lo ? 1 : -1;
	return v;
}

double px_fp_from_int(int64_t i, int8_t *dir)
{
	double v = (double)i;
	*dir = 0;
	if (v >= 0x1p63) /* i is at most 2^63 - 1 */
		*dir = -1;
	else if ((int64_t)v != i)
		*dir = (int64_t)v < i ? 1 : -1;
	return v;
}

static const struct {
	const char *name;
	uint8_t ebits, mbits, shift; /* shift: where the pattern sits in its container */
	uint8_t largest;             /* with no infinity: the largest finite magnitude's pattern */
} fmts[] = {
	[PX_FP_F16] = {"f16", 5, 10, 0, 0},     [PX_FP_BF16] = {"bf16", 8, 7, 0, 0},
	[PX_FP_TF32] = {"tf32", 8, 10, 13, 0},  [PX_FP_F32] = {"f32", 8, 23, 0, 0},
	[PX_FP_F64] = {"f64", 11, 52, 0, 0},    [PX_FP_E5M2] = {"e5m2", 5, 2, 0, 0},
	[PX_FP_E4M3] = {"e4m3", 4, 3, 0, 0x7e}, [PX_FP_E3M2] = {"e3m2", 3, 2, 0, 0x1f},
	[PX_FP_E2M3] = {"e2m3", 2, 3, 0, 0x1f}, [PX_FP_E2M1] = {"e2m1", 2, 1, 0, 0x7},
	[PX_FP_UE8M0] = {"ue8m0", 8, 0, 0, 0xfe},
};

enum px_fp_fmt px_fp_fmt_named(const char *s, size_t n)
{
	for (unsigned i = 0; i < sizeof fmts / sizeof fmts[0]; i++)
		if (strlen(fmts[i].name) == n && !memcmp(fmts[i].name, s, n))
			return (enum px_fp_fmt)i;
	return PX_FP_NONE;
}

const char *px_fp_fmt_name(enum px_fp_fmt fmt) { return fmts[fmt].name; }

unsigned px_fp_width(enum px_fp_fmt fmt)
{
	switch (fmt) {
	case PX_FP_TF32:
		return 32;
	case PX_FP_E3M2: /* FP6 sits in a byte, its two high bits zero */
	case PX_FP_E2M3:
	case PX_FP_UE8M0:
		return 8;
	default:
		return 1u + fmts[fmt].ebits + fmts[fmt].mbits;
	}
}

/* ue8m0 holds powers of two only, with no rounding mode of its own a literal
 * could follow (cvt offers it .rz and .rp): a literal is exact or refused. */
static int ue8m0_exact(double v, int dir, int *code)
{
	int e;
	if (!(v > 0) || dir || !isfinite(v) || frexp(v, &e) != 0.5 || e - 1 < -127 || e - 1 > 127)
		return 0;
	*code = e - 1 + 127;
	return 1;
}

/* px_fp_bits, and in *over whether the value rounded past the largest finite one */
static uint64_t round_to(enum px_fp_fmt fmt, double v, int dir, int *over)
{
	uint64_t d;
	memcpy(&d, &v, sizeof d);
	*over = 0;
	if (fmt == PX_FP_F64)
		return d; /* the double is the decimal rounded once */
	if (fmt == PX_FP_UE8M0) {
		int code = 0xff; /* the NaN, for what the verifier refuses */
		ue8m0_exact(v, dir, &code);
		return (uint64_t)code;
	}
	int ebits = fmts[fmt].ebits, mbits = fmts[fmt].mbits;
	uint64_t sign = (d >> 63) << (ebits + mbits);
	int e = (int)((d >> 52) & 0x7ff);
	uint64_t m = d & ((1ull << 52) - 1);
	/* past the largest finite pattern: infinity, or where there is none the
	 * all-ones pattern (e4m3's NaN; the others' largest, never printed: the
	 * verifier refuses such a literal) */
	uint64_t inf = fmts[fmt].largest ? (1ull << (ebits + mbits)) - 1 : ((1ull << ebits) - 1) << mbits;
	uint64_t past = fmts[fmt].largest ? (uint64_t)fmts[fmt].largest + 1 : inf;
	*over = e == 0x7ff;
	if (e == 0x7ff)
		return (sign | (fmts[fmt].largest ? inf : inf | (m ? 1ull << (mbits - 1) : 0))) << fmts[fmt].shift;
	if (e == 0) /* zero, or a double subnormal: far below every format's range */
		return sign << fmts[fmt].shift;
	/* where the exact magnitude lies from |v| */
	int mdir = d >> 63 ? -dir : dir;
	int exp = e - 1023 + (1 << (ebits - 1)) - 1; /* the biased target exponent */
	int shift = 52 - mbits;
	uint64_t base = 0;
	m |= 1ull << 52;
	if (exp > 0)
		base = (uint64_t)(exp - 1) << mbits; /* the implicit bit adds the last 1 */
	else
		shift += 1 - exp; /* a subnormal result */
	if (shift > 54) /* below half the smallest subnormal */
		return sign << fmts[fmt].shift;
	uint64_t r = m >> shift, rem = m & ((1ull << shift) - 1), half = 1ull << (shift - 1);
	if (rem > half || (rem == half && (mdir > 0 || (mdir == 0 && (r & 1)))))
		r++;
	uint64_t bits = base + r; /* a fraction carry moves into the exponent */
	*over = bits >= past;
	return (sign | (bits >= past ? inf : bits)) << fmts[fmt].shift;
}

uint64_t px_fp_bits(enum px_fp_fmt fmt, double v, int dir)
{
	int over;
	return round_to(fmt, v, dir, &over);
}

int px_fp_finite(enum px_fp_fmt fmt, double v, int dir)
{
	if (!isfinite(v))
		return 0;
	if (fmt == PX_FP_F64)
		return 1;
	int code;
	if (fmt == PX_FP_UE8M0)
		return ue8m0_exact(v, dir, &code);
	int over;
	round_to(fmt, v, dir, &over);
	return !over;
}

int px_fp_holds(enum px_fp_fmt fmt, double v)
{
	if (isnan(v)) /* e4m3's S.1111.111, ue8m0's 0xff */
		return fmt != PX_FP_E3M2 && fmt != PX_FP_E2M3 && fmt != PX_FP_E2M1;
	return !fmts[fmt].largest && fmt != PX_FP_UE8M0;
}

double px_fp_largest(enum px_fp_fmt fmt)
{
	if (fmt == PX_FP_UE8M0)
		return ldexp(1, 127);
	int ebits = fmts[fmt].ebits, mbits = fmts[fmt].mbits;
	int bias = (1 << (ebits - 1)) - 1;
	int top = fmts[fmt].largest ? (int)(fmts[fmt].largest >> mbits) : (1 << ebits) - 2;
	unsigned frac = fmts[fmt].largest ? fmts[fmt].largest & ((1u << mbits) - 1) : (1u << mbits) - 1;
	return ldexp(1 + ldexp(frac, -mbits), top - bias);
}

enum px_fp_fmt px_fp_fmt_of_type(int type)
{
	switch (type) {
	case PX_T_f16:
		return PX_FP_F16;
	case PX_T_bf16:
		return PX_FP_BF16;
	case PX_T_f64:
		return PX_FP_F64;
	default:
		return PX_FP_F32;
	}
}

double px_f32_from_bits(uint32_t b)
{
	float f;
	memcpy(&f, &b, sizeof f);
	return f;
}
