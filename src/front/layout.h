/* Tile layouts written as shape:stride, "(8,4,2,2):(4@laneid,1@laneid,2,1)":
 * modes from outermost to innermost, each stride in elements, or in lanes or
 * warps when it names the @laneid or @warpid iterator (the tile IR's TileLayout).
 * The parser keeps the literal's text as a property value; this reads it. */
#ifndef PX_LAYOUT_H
#define PX_LAYOUT_H
#include <stdbool.h>
#include <stdint.h>

#include "front/ir.h"
#include "tables/tables.h"

enum { PX_LAYOUT_MAX_MODES = 12 };
enum px_iter { PX_ITER_NONE, PX_ITER_LANE, PX_ITER_WARP };

typedef struct px_layout_mode {
	int64_t size, stride;
	uint8_t iter; /* enum px_iter */
} px_layout_mode;

typedef struct px_layout {
	px_layout_mode m[PX_LAYOUT_MAX_MODES];
	unsigned n;
} px_layout;

/* Read text into l. False (with *why set) when it is not a layout. */
bool px_layout_parse(px_str text, px_layout *l, const char **why);
/* The number of elements the non-iterator modes hold (per lane). */
int64_t px_layout_local_size(const px_layout *l);
/* The instruction a tile copy becomes where its layouts fit one: ldmatrix
 * (ld) or stmatrix, m8n8 .b16, num (PX_TOK_x1, x2 or x4) registers, .trans,
 * .shared when the copy's address is; slot gets its tokens. The verifier asks
 * for the one-register form to know the version the copy may need, the
 * selector for the form its layouts fit. */
const px_op_def *px_tile_copy_matrix(bool ld, unsigned num, bool trans, bool shared, uint16_t slot[PX_MAX_SLOTS]);
#endif
