/* A module variable by name and what its address is a multiple of; what a
 * computed address is known to be is the value analysis's (verify/analysis/value.h). */
#ifndef PX_VERIFY_ALIGN_H
#define PX_VERIFY_ALIGN_H
#include <stdint.h>

#include "front/ir.h"

/* A variable's address: its align, else its element's size. */
uint32_t px_symbol_align(const px_global *g);
/* The variable name is, or NULL. */
const px_global *px_global_named(const px_module *m, px_str name);

#endif
