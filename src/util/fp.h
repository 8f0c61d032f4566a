/* Floating-point literal encodings: PTX spells f32/f64 constants by their bits
 * (0f..., 0d...), and f16/bf16 constants only exist as 16-bit patterns. */
#ifndef PX_FP_H
#define PX_FP_H
#include <stdint.h>

uint32_t px_f32_bits(double v);
uint64_t px_f64_bits(double v);
uint16_t px_f16_bits(double v);  /* IEEE binary16, round to nearest even */
uint16_t px_bf16_bits(double v); /* bfloat16, round to nearest even */
double px_f32_from_bits(uint32_t b);

#endif
