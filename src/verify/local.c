/* Function-local arrays (`local @scratch : f32[16] align 16`): their element
 * type and alignment. Their names are symbols of the function's own. */
#include "verify/verify.h"

void px_verify_locals(px_verifier *v, const px_func *f)
{
	for (uint32_t i = 0; i < f->nlocals; i++) {
		const px_local *l = &f->locals[i];
		px_check_reserved_name(v, l->name, l->loc, true);
		px_check_hidden_name(v, f, l->name, l->loc);
		unsigned k = px_types[l->type].kind;
		if (l->type && (k == PX_KIND_PRED || k == PX_KIND_PTR))
			px_error(v->d, l->loc, PX_D_local_type, (int)l->name.n, l->name.s, px_types[l->type].name);
		if (l->align & (l->align - 1))
			px_error(v->d, l->loc, PX_D_bad_align, l->align);
	}
}
