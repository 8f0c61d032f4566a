/* NVVM's packed MMA descriptor (see mma_desc.h). The enums are data
 * (data/mma_desc.yaml); this file only packs the bits. */
#include <string.h>

#include "isel/mma_desc.h"
#include "tables/tables.h"

enum {
	RND_SHIFT = 0, OPC_SHIFT = 4, ATY_SHIFT = 8, BTY_SHIFT = 16, AL_SHIFT = 24, BL_SHIFT = 26,
	SATF_SHIFT = 28, SHAPE_SHIFT = 32, ROWCOL_SHIFT = 0, MID_SHIFT = 1, ETY_SHIFT = 24,
};

/* The descriptor's rounding values 1..4 and bit operations 1..2, in order. */
static const char *const rnd_names[] = {"", "rn", "rm", "rp", "rz"};
static const char *const opc_names[] = {"", "and.popc", "xor.popc"};

static unsigned enum_id(const px_mma_enum *e, unsigned n, unsigned tok)
{
	for (unsigned i = 0; i < n && tok; i++)
		if (e[i].tok == tok)
			return e[i].id;
	return 0;
}

unsigned px_mma_type_id(unsigned tok) { return enum_id(px_mma_types, px_mma_types_n, tok); }
unsigned px_mma_shape_id(unsigned tok) { return enum_id(px_mma_shapes, px_mma_shapes_n, tok); }

static unsigned name_index(const char *const *names, unsigned n, unsigned tok)
{
	for (unsigned i = 1; i < n && tok; i++)
		if (!strcmp(names[i], px_tok_names[tok]))
			return i;
	return 0;
}

unsigned px_mma_encode(const px_mma_props *p, uint64_t *out)
{
	unsigned shape = px_mma_shape_id(p->shape), aty = px_mma_type_id(p->aty), bty = px_mma_type_id(p->bty);
	if (!aty || !bty)
		return PX_D_mma_wrong_type;
	if (!shape)
		return PX_D_mma_unknown_shape;
	*out = (uint64_t)name_index(rnd_names, 5, p->rnd) << RND_SHIFT |
	       (uint64_t)name_index(opc_names, 3, p->opc) << OPC_SHIFT | (uint64_t)aty << ATY_SHIFT |
	       (uint64_t)bty << BTY_SHIFT | (uint64_t)p->acol << AL_SHIFT | (uint64_t)p->bcol << BL_SHIFT |
	       (uint64_t)(p->satf != 0) << SATF_SHIFT | (uint64_t)shape << SHAPE_SHIFT;
	return 0;
}

unsigned px_mma_encode_frag(unsigned shape_tok, unsigned mid, bool col, unsigned ety_tok, uint64_t *out)
{
	unsigned shape = px_mma_shape_id(shape_tok), ety = px_mma_type_id(ety_tok);
	if (!ety || ety > 15) /* ety has four bits */
		return PX_D_mma_wrong_type;
	if (!shape)
		return PX_D_mma_unknown_shape;
	*out = (uint64_t)col << ROWCOL_SHIFT | (uint64_t)(mid & 3) << MID_SHIFT | (uint64_t)ety << ETY_SHIFT |
	       (uint64_t)shape << SHAPE_SHIFT;
	return 0;
}
