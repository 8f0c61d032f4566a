/* The bulk tensor copies (cp.async.bulk.tensor, cp.reduce.async.bulk.tensor,
 * cp.async.bulk.prefetch.tensor) name the tensor map and the coordinates in one
 * address, [%tmap, (c0, ...)], where the tables do not reach: one coordinate
 * per dimension of the .Nd token, or five for .tile::gather4 and
 * .tile::scatter4 (a column and four rows of a 2d tensor); ptxas refuses any
 * other count ("Argument vector size mismatch"). */
#include "verify/verify.h"

static unsigned rank_of(unsigned dim)
{
	switch (dim) {
	case PX_TOK_1d: return 1;
	case PX_TOK_2d: return 2;
	case PX_TOK_3d: return 3;
	case PX_TOK_4d: return 4;
	default: return 5;
	}
}

void px_tma_check(px_verifier *v, px_func *f, px_node *n)
{
	(void)f;
	unsigned dim = n->slot[px_slot_find(n->op, PX_SN_dim)];
	unsigned mode = n->slot[px_slot_find(n->op, PX_SN_mode)];
	bool four_rows = mode == PX_TOK_tile__gather4 || mode == PX_TOK_tile__scatter4;
	unsigned want = four_rows ? 5 : rank_of(dim);
	const char *form = px_tok_names[four_rows ? mode : dim];
	bool seen = false;
	for (unsigned i = 0; i < n->nops; i++) {
		const px_opnd *a = &n->ops[i];
		if (a->kind != PX_O_ADDR || !a->idx)
			continue;
		seen = true;
		if (a->idx->nelems != want)
			px_error(v->d, a->loc, PX_D_tma_coord_count, n->op->name, form, want, a->idx->nelems);
	}
	if (!seen)
		px_error(v->d, n->oploc, PX_D_tma_coord_count, n->op->name, form, want, 0u);
}
