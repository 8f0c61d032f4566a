/* The types IR operands show, read through the tables (front/optype.c). */
#ifndef PX_OPTYPE_H
#define PX_OPTYPE_H
#include <stdbool.h>
#include <stdint.h>

#include "front/ir.h"
#include "tables/tables.h"

/* An operand's value type: a result's declared type, else its value's; a
 * special register's; a group's first element's; 0 for anything else. */
int px_opnd_value_type(const px_func *f, const px_opnd *o, bool is_result);
/* The type the source position src (a PX_SRC_* of a slot's `infer`) shows for
 * type slot si of n, with its place in *loc; 0: none. */
int px_source_type(const px_func *f, const px_node *n, int src, unsigned si, px_loc *loc);
/* The type a decimal literal operand stands for under def and n's slots. */
int px_literal_type(const px_func *f, const px_node *n, const px_opnd_def *def);
/* A packed operand: n lanes of one format in one register, lane 0 in the
 * low bits (f16x2, bf16x2, f32x2, u16x2, s16x2, e4m3x2, e2m1x2, ue8m0x2 ...). */
typedef struct px_lanes {
	uint8_t n;          /* the number of lanes */
	uint8_t width;      /* one lane's width in bits */
	int8_t fmt;         /* a float lane's enum px_fp_fmt, else PX_FP_NONE */
	uint8_t name_len;
	uint16_t int_type;  /* an integer lane's PX_T_* (u16, s16), else 0 */
	uint16_t whole;     /* the bit type of the whole register (b32 for f16x2) */
	const char *name;   /* the lane's name: name_len characters */
} px_lanes;
/* Whether the value operand def of n is packed, and its lanes in *out. */
bool px_operand_lanes(const px_func *f, const px_node *n, const px_opnd_def *def, px_lanes *out);
/* Whether a value type is packed (f16x2, bf16x2, f32x2), and its lanes. */
bool px_type_lanes(int type, px_lanes *out);
/* A packed literal's bits: one literal in every lane, a lane literal ( , )
 * lane by lane (lane 0 low), or a bit pattern of the whole register. */
uint64_t px_lanes_bits(const px_opnd *o, const px_lanes *ln);
/* The PX_SP_* tag of a variable's address (its own window), f's local arrays
 * first; unknown for a function. */
uint8_t px_sym_space(const px_module *m, const px_func *f, px_str name);
/* Whether a tag is a window address that cvta.space.u64 makes generic:
 * shared, const or local (what a ptr argument or result converts). */
bool px_space_is_window(uint8_t t);
#endif
