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
/* The PX_SP_* tag of a variable's address (its own window); unknown for a function. */
uint8_t px_sym_space(const px_module *m, px_str name);
#endif
