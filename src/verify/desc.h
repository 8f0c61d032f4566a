/* Descriptors built from named fields (data/desc.yaml): tcgen05.idesc's
 * properties read, checked and packed. The verifier reports what is wrong;
 * the selector packs the same fields again into the constant it moves. */
#ifndef PX_VERIFY_DESC_H
#define PX_VERIFY_DESC_H
#include <stdbool.h>
#include <stdint.h>

#include "diag/diag.h"
#include "front/ir.h"

typedef struct px_desc_value {
	uint64_t word;               /* the packed descriptor */
	uint32_t num[PX_DF__COUNT];  /* per field: the number written (a coded field: its code) */
	const char *kind;            /* the kind the codes were read for (NULL: none valid) */
} px_desc_value;

/* Is key a field of n's descriptor (read here, not a slot)? */
bool px_desc_is_field(const px_node *n, px_str key);
/* Read n's fields into *out; with d, report each field that is wrong.
 * Returns true when every field is valid. */
bool px_desc_read(const px_node *n, px_diags *d, px_desc_value *out);

#endif
