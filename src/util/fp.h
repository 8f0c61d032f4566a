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
/* The format of an f16/bf16/f32/f64 value type (PX_T_*) of the tables. */
enum px_fp_fmt px_fp_fmt_of_type(int type);
double px_f32_from_bits(uint32_t b);

#endif
