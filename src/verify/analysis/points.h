/* Which values point into which shared module variable, for the checks of
 * asynchronous protocols (verify/hazard/async_copy.c, verify/hazard/mbarrier_init.c): an
 * address whose base is the variable, or a value every definition of which is
 * mov, cvt or cvta of the variable or of such a value, or add or sub of such a
 * value and anything that points nowhere (a loop's stepped pointer counts). */
#ifndef PX_VERIFY_POINTS_H
#define PX_VERIFY_POINTS_H
#include <stdint.h>

#include "util/arena.h"
#include "verify/verify.h"

typedef struct px_points {
	px_verifier *v;
	const px_func *f;
	uint32_t *pt; /* per value: 1 + the global it points into, 0 none yet, UINT32_MAX several or none */
} px_points;

/* Its table is in a (nothing to free). */
void px_points_init(px_points *p, px_verifier *v, const px_func *f, px_arena *a);
/* The shared global the address operand o points into: 1 + its index in
 * the module's globals, or 0. */
uint32_t px_points_target(const px_points *p, const px_opnd *o);
/* The shared global the value or symbol operand o points into, or 0. */
uint32_t px_points_of(const px_points *p, const px_opnd *o);
#endif
