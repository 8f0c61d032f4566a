/* Matrix copies (ldmatrix, stmatrix) in the intrinsic-with-chain layer: the
 * node lowers from its tables; what is left is PTX's rule that the register
 * side is always a vector, even of one (ldmatrix.x1 {%r0}, [p]): ptxas rejects
 * a bare register there. */
#include "isel/isel.h"

static void as_vector(px_isel *s, px_mop *m)
{
	if (m->kind == PX_M_GROUP)
		return;
	px_mop *one = px_mops(s, 1);
	*one = *m;
	m->kind = PX_M_GROUP;
	m->elems = one;
	m->nelems = 1;
}

bool px_select_matrix_copy(px_isel *s, const px_node *n)
{
	px_lower_node(s, n);
	px_minst *mi = s->mf.last;
	if (mi->nres) /* ldmatrix d, [p] */
		as_vector(s, &mi->res[0]);
	else if (mi->nops > 1) /* stmatrix [p], r */
		as_vector(s, &mi->ops[1]);
	px_finish(s, mi);
	return true;
}
