/* The packed 64-bit MMA descriptor of NVVM's tensor-core selection: the
 * selector encodes a tensor-core node's shape, element types, layouts,
 * rounding, saturation and bit operation into one word, which --emit=isel
 * shows (the printer takes the suffixes from the slots, which hold the same
 * facts). The unit tests read each field back by NVVM's query keys.
 *
 * Two words share the layout: an instruction word (rnd [2:0],
 * opc [7:4], aty [15:8], bty [23:16], al [25:24], bl [27:26], satf [28],
 * shape [39:32]) and a fragment word (rowcol [0], mid [2:1], ety [27:24],
 * shape [39:32]). The key decides which bits are read. */
#ifndef PX_MMA_DESC_H
#define PX_MMA_DESC_H
#include <stdbool.h>
#include <stdint.h>

#include "tables/tables.h"

/* The descriptor's element-type and shape id of a token (data/mma_desc.yaml), or 0. */
unsigned px_mma_type_id(unsigned tok);
unsigned px_mma_shape_id(unsigned tok);

/* An instruction's properties as tokens (PX_TOK_*, 0 = absent). */
typedef struct px_mma_props {
	unsigned shape, aty, bty;
	bool acol, bcol;  /* column-major A / B */
	unsigned satf;    /* PX_TOK_satfinite or 0 */
	unsigned rnd;     /* PX_TOK_rn, _rm, _rp, _rz or 0 */
	unsigned opc;     /* PX_TOK_and_popc, PX_TOK_xor_popc or 0 */
} px_mma_props;

/* Encode p into *out. Returns 0, or the PX_D_* of the failure: a type outside
 * the enum is mma_wrong_type ("Wrong MMA element type"), a shape outside it
 * mma_unknown_shape. */
unsigned px_mma_encode(const px_mma_props *p, uint64_t *out);
/* A fragment word: mid 0..3 for a, b, c, d; ety the element type token. */
unsigned px_mma_encode_frag(unsigned shape, unsigned mid, bool col, unsigned ety, uint64_t *out);

#endif
