/* Before parsing: input that is not MIR text at all gets one error that says
 * what it looks like, instead of a screenful of syntax errors. */
#ifndef PX_SNIFF_H
#define PX_SNIFF_H
#include <stdbool.h>
#include <stddef.h>

#include "diag/diag.h"

/* Skip a UTF-8 byte-order mark at *src. Returns true, after reporting one
 * error, when the text is binary data, not UTF-8, PTX or C. */
bool px_sniff(px_diags *d, const char **src, size_t *len);

#endif
