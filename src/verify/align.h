/* What an address is known to be a multiple of, from the statements that make
 * it: the one rule the descriptor checks (verify/desc.c) and the selector's
 * vector merger (isel/vector.c) both follow. */
#ifndef PX_VERIFY_ALIGN_H
#define PX_VERIFY_ALIGN_H
#include <stdint.h>

#include "front/ir.h"

/* How many statements define value id, and the one when there is one: the
 * caller's view of the function's definitions. */
typedef unsigned px_defs_fn(const void *ctx, uint32_t id, const px_node **only);

/* A variable's address: its align, else its element's size. */
uint32_t px_symbol_align(const px_global *g);
/* The variable name is, or NULL. */
const px_global *px_global_named(const px_module *m, px_str name);
/* What the address in value id of f is known to be a multiple of, in bytes;
 * 0: nothing is known. Known: a parameter's `align` (a parameter no statement
 * assigns), {align = N} on the one statement that defines it, a `mov` of a
 * variable's address, and an add of known values and constants (the smaller
 * alignment). depth bounds the walk up the adds. */
uint32_t px_value_align(const px_module *m, const px_func *f, uint32_t id, px_defs_fn *defs, const void *ctx,
                        unsigned depth);

#endif
