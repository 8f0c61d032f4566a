/* One rounding for every literal (util/fp.c): round to nearest, ties to even,
 * from the decimal itself. Each case sits at or next to a tie of its format,
 * where rounding the double (or an f32) first would give the other neighbour. */
#include <fenv.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suites.h"
#include "util/fp.h"

static uint64_t dec(enum px_fp_fmt fmt, const char *s)
{
	int8_t dir;
	double v = px_fp_parse(s, &dir);
	return px_fp_bits(fmt, v, dir);
}

static uint64_t integer(enum px_fp_fmt fmt, int64_t i)
{
	int8_t dir;
	double v = px_fp_from_int(i, &dir);
	return px_fp_bits(fmt, v, dir);
}

START_TEST(parse_direction)
{
	int8_t dir;
	ck_assert(px_fp_parse("1.5", &dir) == 1.5);
	ck_assert_int_eq(dir, 0);
	px_fp_parse("0.1", &dir); /* 0.1000000000000000055511151231257827 */
	ck_assert_int_eq(dir, -1);
	px_fp_parse("-0.1", &dir);
	ck_assert_int_eq(dir, 1);
	px_fp_parse("1.00390625000000000001", &dir); /* reads as the tie 1 + 2^-8 */
	ck_assert_int_eq(dir, 1);
}
END_TEST

/* The value and side strtod gives, parsing three times (to nearest, down, up). */
static double strtod_side(const char *s, int8_t *dir)
{
	double v = strtod(s, NULL);
	int mode = fegetround();
	fesetround(FE_DOWNWARD);
	double lo = strtod(s, NULL);
	fesetround(FE_UPWARD);
	double hi = strtod(s, NULL);
	fesetround(mode);
	*dir = lo == hi ? 0 : v == lo ? 1 : -1;
	return v;
}

/* Short literals take a quicker way than strtod (util/fp.c); long ones, big
 * exponents and the limits between them must read the same either way. */
START_TEST(short_literals_agree)
{
	static const char *const fixed[] = {"0.0", "-0.0", "1.", "1.e5", "7e0", "9007199254740992.0",
	                                    "9007199254740993.0", "0.1", "-0.3", "1e22", "1e23", "1e-22",
	                                    "1e-23", "-1.5e-3", "2.5E+10", "123456789012345678.0",
	                                    "0.30000000000000004", "0.0000000000000000000001"};
	char buf[64];
	unsigned seed = 15;
	for (unsigned i = 0; i < sizeof fixed / sizeof *fixed + 200000; i++) {
		const char *s = buf;
		if (i < sizeof fixed / sizeof *fixed) {
			s = fixed[i];
		} else {
			char *p = buf;
			seed = seed * 1103515245u + 12345u;
			unsigned r = seed >> 8;
			if (r & 1)
				*p++ = '-';
			for (unsigned k = 0, n = 1 + (r >> 1) % 18; k < n; k++)
				*p++ = (char)('0' + (seed = seed * 1103515245u + 12345u) % 10);
			*p++ = '.';
			for (unsigned k = 0, n = (r >> 6) % 10; k < n; k++)
				*p++ = (char)('0' + (seed = seed * 1103515245u + 12345u) % 10);
			if ((r >> 12) % 3 == 0)
				p += sprintf(p, "e%d", (int)((r >> 14) % 61) - 30);
			*p = 0;
		}
		int8_t d1, d2;
		double a = px_fp_parse(s, &d1), b = strtod_side(s, &d2);
		ck_assert_msg(memcmp(&a, &b, sizeof a) == 0 && d1 == d2, "%s: %a %d, strtod %a %d", s, a, d1, b, d2);
	}
}
END_TEST

START_TEST(bf16_ties)
{
	ck_assert_uint_eq(dec(PX_FP_BF16, "1.0039062509313226"), 0x3F81); /* above 1 + 2^-8 */
	ck_assert_uint_eq(dec(PX_FP_BF16, "1.00390625"), 0x3F80);         /* the tie: even */
	ck_assert_uint_eq(dec(PX_FP_BF16, "1.00390625000000000001"), 0x3F81);
	ck_assert_uint_eq(dec(PX_FP_BF16, "1.00390624999999999999"), 0x3F80);
	ck_assert_uint_eq(dec(PX_FP_BF16, "1.01171875"), 0x3F82);         /* odd below: up */
	ck_assert_uint_eq(dec(PX_FP_BF16, "-1.0039062509313226"), 0xBF81);
	ck_assert_uint_eq(dec(PX_FP_BF16, "-1.00390625"), 0xBF80);
	ck_assert_uint_eq(dec(PX_FP_BF16, "3.3895313892515355e38"), 0x7F7F); /* the largest */
	/* half an ulp past the largest: below, at (a tie, to infinity) and above */
	ck_assert_uint_eq(dec(PX_FP_BF16, "339617752923046005526922703901628039167"), 0x7F7F);
	ck_assert_uint_eq(dec(PX_FP_BF16, "339617752923046005526922703901628039168"), 0x7F80);
	ck_assert_uint_eq(dec(PX_FP_BF16, "3.4e38"), 0x7F80);
}
END_TEST

START_TEST(f16_ties)
{
	ck_assert_uint_eq(dec(PX_FP_F16, "1.00048828125"), 0x3C00);
	ck_assert_uint_eq(dec(PX_FP_F16, "1.00048828125000001"), 0x3C01);
	ck_assert_uint_eq(dec(PX_FP_F16, "1.00048828124999999"), 0x3C00);
	ck_assert_uint_eq(dec(PX_FP_F16, "1.00146484375"), 0x3C02);
	ck_assert_uint_eq(dec(PX_FP_F16, "65504"), 0x7BFF);
	ck_assert_uint_eq(dec(PX_FP_F16, "65519.999"), 0x7BFF);
	ck_assert_uint_eq(dec(PX_FP_F16, "65520"), 0x7C00); /* the tie past the largest: infinity */
	/* subnormals: 2^-25 is half the smallest, 3 * 2^-25 halfway from it to the next */
	ck_assert_uint_eq(dec(PX_FP_F16, "2.98023223876953125e-8"), 0x0000);
	ck_assert_uint_eq(dec(PX_FP_F16, "2.98023223876953126e-8"), 0x0001);
	ck_assert_uint_eq(dec(PX_FP_F16, "8.94069671630859375e-8"), 0x0002);
	ck_assert_uint_eq(dec(PX_FP_F16, "6.103515625e-5"), 0x0400); /* the smallest normal */
	ck_assert_uint_eq(dec(PX_FP_F16, "-0.0"), 0x8000);
}
END_TEST

START_TEST(f32_ties)
{
	ck_assert_uint_eq(dec(PX_FP_F32, "1.000000059604644775390625"), 0x3F800000);
	ck_assert_uint_eq(dec(PX_FP_F32, "1.0000000596046447754"), 0x3F800001);
	ck_assert_uint_eq(dec(PX_FP_F32, "1.0000000596046447753"), 0x3F800000);
	ck_assert_uint_eq(dec(PX_FP_F32, "1.000000178813934326171875"), 0x3F800002);
	ck_assert_uint_eq(dec(PX_FP_F32, "3.4028235e+38"), 0x7F7FFFFF); /* FLT_MAX as printed */
	ck_assert_uint_eq(dec(PX_FP_F32, "3.40282357e+38"), 0x7F800000);
	ck_assert_uint_eq(dec(PX_FP_F32, "0.1"), 0x3DCCCCCD);
}
END_TEST

START_TEST(narrow_formats)
{
	ck_assert_uint_eq(dec(PX_FP_TF32, "1.00048828125"), 0x3F800000);
	ck_assert_uint_eq(dec(PX_FP_TF32, "1.00048828125000001"), 0x3F802000);
	ck_assert_uint_eq(dec(PX_FP_TF32, "1.00146484375"), 0x3F804000);
	ck_assert_uint_eq(dec(PX_FP_E5M2, "1.125"), 0x3C);
	ck_assert_uint_eq(dec(PX_FP_E5M2, "1.1250000001"), 0x3D);
	ck_assert_uint_eq(dec(PX_FP_E5M2, "1.375"), 0x3E);
	ck_assert_uint_eq(dec(PX_FP_E5M2, "57344"), 0x7B);
	ck_assert_uint_eq(dec(PX_FP_E5M2, "61440"), 0x7C);
	ck_assert_uint_eq(dec(PX_FP_F64, "0.1"), 0x3FB999999999999Aull);
}
END_TEST

START_TEST(integers)
{
	int8_t dir;
	ck_assert(px_fp_from_int(INT64_MAX, &dir) == 0x1p63);
	ck_assert_int_eq(dir, -1);
	ck_assert(px_fp_from_int(INT64_MIN, &dir) == -0x1p63);
	ck_assert_int_eq(dir, 0);
	ck_assert_uint_eq(integer(PX_FP_F32, 16777217), 0x4B800000); /* 2^24 + 1: a tie, even */
	ck_assert_uint_eq(integer(PX_FP_F32, 16777219), 0x4B800002);
	/* 2^54 + 2^30 + 1 is a double tie read down to the f32 tie 2^54 + 2^30 */
	ck_assert_uint_eq(integer(PX_FP_F32, (INT64_C(1) << 54) + (INT64_C(1) << 30) + 1), 0x5A800001);
	ck_assert_uint_eq(integer(PX_FP_F32, -((INT64_C(1) << 54) + (INT64_C(1) << 30) + 1)), 0xDA800001);
	ck_assert_uint_eq(integer(PX_FP_BF16, 257), 0x4380);
	ck_assert_uint_eq(integer(PX_FP_BF16, 259), 0x4382);
}
END_TEST

START_TEST(specials)
{
	ck_assert_uint_eq(px_fp_bits(PX_FP_F16, __builtin_inf(), 0), 0x7C00);
	ck_assert_uint_eq(px_fp_bits(PX_FP_BF16, -__builtin_inf(), 0), 0xFF80);
	ck_assert_uint_eq(px_fp_bits(PX_FP_F16, __builtin_nan(""), 0), 0x7E00);
	ck_assert_uint_eq(px_fp_bits(PX_FP_F32, __builtin_nan(""), 0), 0x7FC00000);
	ck_assert_uint_eq(px_fp_bits(PX_FP_F32, 0x1p-1074, 0), 0);
}
END_TEST

/* A literal is in range when it rounds to a finite value: FLT_MAX as printed
 * with 8 digits (3.4028235e38, above FLT_MAX itself) is; the halfway point to
 * 2^128 and beyond are not. */
static int finite(enum px_fp_fmt fmt, const char *s)
{
	int8_t dir;
	double v = px_fp_parse(s, &dir);
	return px_fp_finite(fmt, v, dir);
}

START_TEST(finite_range)
{
	ck_assert(finite(PX_FP_F32, "3.4028235e+38"));
	ck_assert(finite(PX_FP_F32, "-3.4028235e38"));
	ck_assert(finite(PX_FP_F32, "340282356779733661637539395458142568447"));
	ck_assert(!finite(PX_FP_F32, "340282356779733661637539395458142568448")); /* the tie: to even, 2^128 */
	ck_assert(!finite(PX_FP_F32, "3.4028236e38"));
	ck_assert(!finite(PX_FP_F32, "1e39"));
	ck_assert(finite(PX_FP_F16, "65519.99"));
	ck_assert(!finite(PX_FP_F16, "65520"));
	ck_assert(finite(PX_FP_BF16, "339617752923046005526922703901628039167"));
	ck_assert(!finite(PX_FP_BF16, "339617752923046005526922703901628039168"));
	ck_assert(finite(PX_FP_F64, "1.7976931348623157e308"));
	ck_assert(!finite(PX_FP_F64, "1.8e308"));
}
END_TEST

/* The formats with no infinity (OCP FP8 e4m3, FP6, FP4): the all-ones
 * exponent holds finite values, and a tie past the largest that rounds to
 * even onto the largest stays in range. ue8m0 takes powers of two only. */
START_TEST(finite_only_formats)
{
	ck_assert_uint_eq(dec(PX_FP_E4M3, "1.0"), 0x38);
	ck_assert_uint_eq(dec(PX_FP_E4M3, "1.0625"), 0x38); /* the tie: even */
	ck_assert_uint_eq(dec(PX_FP_E4M3, "1.0625000001"), 0x39);
	ck_assert_uint_eq(dec(PX_FP_E4M3, "-2"), 0xC0);
	ck_assert_uint_eq(dec(PX_FP_E4M3, "448"), 0x7E);
	ck_assert_uint_eq(dec(PX_FP_E4M3, "0.001953125"), 0x01); /* 2^-9, the smallest */
	ck_assert_uint_eq(dec(PX_FP_E4M3, "0.0009765625"), 0x00);
	ck_assert_uint_eq(dec(PX_FP_E4M3, "0.0009765625001"), 0x01);
	ck_assert(finite(PX_FP_E4M3, "464")); /* the tie above 448 rounds to 448 (even) */
	ck_assert(!finite(PX_FP_E4M3, "464.0001"));
	ck_assert_uint_eq(dec(PX_FP_E3M2, "1.0"), 0x0C);
	ck_assert_uint_eq(dec(PX_FP_E3M2, "28"), 0x1F);
	ck_assert(finite(PX_FP_E3M2, "29.99"));
	ck_assert(!finite(PX_FP_E3M2, "30")); /* the tie above 28 (odd) rounds up: out */
	ck_assert_uint_eq(dec(PX_FP_E2M3, "1.0"), 0x08);
	ck_assert_uint_eq(dec(PX_FP_E2M3, "7.5"), 0x1F);
	ck_assert(finite(PX_FP_E2M3, "7.7"));
	ck_assert(!finite(PX_FP_E2M3, "7.75"));
	ck_assert_uint_eq(dec(PX_FP_E2M1, "1.0"), 0x2);
	ck_assert_uint_eq(dec(PX_FP_E2M1, "5"), 0x6); /* the tie between 4 and 6: even */
	ck_assert_uint_eq(dec(PX_FP_E2M1, "5.0001"), 0x7);
	ck_assert_uint_eq(dec(PX_FP_E2M1, "-0.5"), 0x9);
	ck_assert(finite(PX_FP_E2M1, "6.99"));
	ck_assert(!finite(PX_FP_E2M1, "7"));
	ck_assert_uint_eq(dec(PX_FP_UE8M0, "1.0"), 0x7F);
	ck_assert_uint_eq(dec(PX_FP_UE8M0, "0.5"), 0x7E);
	ck_assert(px_fp_finite(PX_FP_UE8M0, 0x1p127, 0) && !px_fp_finite(PX_FP_UE8M0, 0x1p128, 0));
	ck_assert_uint_eq(px_fp_bits(PX_FP_UE8M0, 0x1p-127, 0), 0x00);
	ck_assert(!finite(PX_FP_UE8M0, "3.0"));
	ck_assert(!finite(PX_FP_UE8M0, "0.0"));
	ck_assert(!finite(PX_FP_UE8M0, "-1.0"));
	ck_assert_int_eq(px_fp_fmt_named("e4m3", 4), PX_FP_E4M3);
	ck_assert_int_eq(px_fp_fmt_named("e4m", 3), PX_FP_NONE);
	ck_assert(px_fp_largest(PX_FP_E4M3) == 448 && px_fp_largest(PX_FP_E2M3) == 7.5 &&
	          px_fp_largest(PX_FP_E5M2) == 57344 && px_fp_largest(PX_FP_F16) == 65504);
}
END_TEST

Suite *fp_suite(void)
{
	Suite *s = suite_create("fp");
	TCase *tc = tcase_create("literals");
	tcase_add_test(tc, parse_direction);
	tcase_add_test(tc, short_literals_agree);
	tcase_add_test(tc, bf16_ties);
	tcase_add_test(tc, f16_ties);
	tcase_add_test(tc, f32_ties);
	tcase_add_test(tc, narrow_formats);
	tcase_add_test(tc, integers);
	tcase_add_test(tc, specials);
	tcase_add_test(tc, finite_range);
	tcase_add_test(tc, finite_only_formats);
	suite_add_tcase(s, tc);
	return s;
}
