#include "util/fp.h"

#include <math.h>
#include <string.h>

uint32_t px_f32_bits(double v)
{
	float f = (float)v;
	uint32_t b;
	memcpy(&b, &f, sizeof b);
	return b;
}

uint64_t px_f64_bits(double v)
{
	uint64_t b;
	memcpy(&b, &v, sizeof b);
	return b;
}

double px_f32_from_bits(uint32_t b)
{
	float f;
	memcpy(&f, &b, sizeof f);
	return f;
}

uint16_t px_bf16_bits(double v)
{
	uint32_t b = px_f32_bits(v);
	if ((b & 0x7fffffffu) > 0x7f800000u) /* NaN stays a quiet NaN */
		return (uint16_t)((b >> 16) | 0x40);
	/* round to nearest even on the 16 dropped bits */
	b += 0x7fffu + ((b >> 16) & 1);
	return (uint16_t)(b >> 16);
}

uint16_t px_f16_bits(double v)
{
	uint16_t sign = signbit(v) ? 0x8000 : 0;
	double a = fabs(v);
	if (isnan(v))
		return 0x7e00;
	if (a >= 65520.0) /* rounds to infinity */
		return sign | 0x7c00;
	if (a < 0x1p-25)
		return sign;
	int e;
	double m = frexp(a, &e); /* a = m * 2^e, m in [0.5, 1) */
	int exp = e - 1 + 15;   /* biased exponent of 1.xxx form */
	double scaled;
	uint32_t bits;
	if (exp <= 0) {
		/* subnormal: units of 2^-24 */
		scaled = ldexp(a, 24);
		bits = 0;
	} else {
		scaled = ldexp(m * 2.0 - 1.0, 10);
		bits = (uint32_t)exp << 10;
	}
	double fl = floor(scaled);
	double frac = scaled - fl;
	uint32_t q = (uint32_t)fl;
	if (frac > 0.5 || (frac == 0.5 && (q & 1)))
		q++;
	return (uint16_t)(sign | (bits + q)); /* a mantissa carry moves into the exponent */
}
