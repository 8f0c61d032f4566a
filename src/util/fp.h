/* Floating-point literal encodings: PTX spells f32/f64 constants by their bits
 * (0f..., 0d...), and the narrow formats (f16, bf16, tf32, e5m2) only exist as
 * bit patterns. One routine rounds every literal into every format.
 *
 * A decimal literal is kept as the double nearest it plus the side on which the
 * exact decimal lies (dir: -1 below, 0 exactly, +1 above). Rounding the double
 * alone would round twice: a decimal just above a narrow format's tie reads as
 * the tie itself once it is a double (or an f32), and then goes to the even
 * neighbour instead of up. With dir, the rounding is the decimal's own. */
#ifndef PX_FP_H
#define PX_FP_H
#include <stddef.h>
#include <stdint.h>

/* The binary formats a literal can be rounded into. */
enum px_fp_fmt {
	PX_FP_F16,  /* IEEE binary16: 5 exponent, 10 fraction bits */
	PX_FP_BF16, /* bfloat16: 8, 7 */
	PX_FP_TF32, /* tf32: 8, 10, in the 32-bit f32 layout with the low 13 bits zero */
	PX_FP_F32,  /* IEEE binary32: 8, 23 */
	PX_FP_F64,  /* IEEE binary64 */
	PX_FP_E5M2, /* OCP FP8 e5m2: 5, 2 (IEEE-like, with infinities) */
	/* the formats below have no infinity: the all-ones exponent holds finite
	 * values, and a literal past the largest is out of range */
	PX_FP_E4M3, /* OCP FP8 e4m3: 4, 3; S.1111.111 is NaN, 448 the largest */
	PX_FP_E3M2, /* OCP FP6 e3m2: 3, 2; no NaN, 28 the largest */
	PX_FP_E2M3, /* OCP FP6 e2m3: 2, 3; no NaN, 7.5 the largest */
	PX_FP_E2M1, /* OCP FP4 e2m1: 2, 1; no NaN, 6 the largest */
	PX_FP_UE8M0, /* OCP scale ue8m0: 8 exponent bits, no sign, no fraction: 2^-127 .. 2^127 */
	PX_FP_NONE = -1,
};

/* The decimal literal s (NUL-terminated, strtod syntax): the double nearest
 * it, and in *dir where the exact value lies from that double. */
double px_fp_parse(const char *s, int8_t *dir);
/* The integer i as the double nearest it, and in *dir where i lies from it. */
double px_fp_from_int(int64_t i, int8_t *dir);
/* The value (v, dir) rounded to nearest, ties to even, into fmt: the format's
 * bits. A value past the largest finite one rounds to infinity as IEEE 754
 * says; a NaN gives the format's quiet NaN with v's sign. */
uint64_t px_fp_bits(enum px_fp_fmt fmt, double v, int dir);
/* Whether (v, dir) rounds to a finite value of fmt: a literal up to the
 * largest finite value plus less than half its last place does (3.4028235e38
 * is f32's FLT_MAX as printed with 8 digits). */
int px_fp_finite(enum px_fp_fmt fmt, double v, int dir);
/* The format a lane name spells (f16, bf16, f32, e4m3, e5m2, e3m2, e2m3,
 * e2m1, ue8m0; n characters of s), or PX_FP_NONE. */
enum px_fp_fmt px_fp_fmt_named(const char *s, size_t n);
const char *px_fp_fmt_name(enum px_fp_fmt fmt);
/* The width in bits of the place a value of fmt takes in a register (a
 * byte for the FP6 formats, whose two high bits are zero). */
unsigned px_fp_width(enum px_fp_fmt fmt);
/* Whether fmt has a pattern for the infinity or NaN v (a literal inf, -inf,
 * nan): the IEEE formats and e5m2 both, e4m3 and ue8m0 a NaN only, the FP6
 * and FP4 formats neither. */
int px_fp_holds(enum px_fp_fmt fmt, double v);
/* The largest finite magnitude of fmt, for messages. */
double px_fp_largest(enum px_fp_fmt fmt);
/* The format of an f16/bf16/f32/f64 value type (PX_T_*) of the tables. */
enum px_fp_fmt px_fp_fmt_of_type(int type);
double px_f32_from_bits(uint32_t b);

#endif
