/* The verifier's literal checks: whether a floating-point literal stays finite
 * in its type, and a literal's text as written (for messages). The type rules
 * the selector shares are in tables/query.c. */
#include <ctype.h>
#include <math.h>
#include <string.h>

#include "util/fp.h"
#include "verify/verify.h"

/* A literal fits when it rounds (to nearest, from its decimal) to a finite
 * value: past that it would become infinity. */
bool px_float_fits(double v, int dir, int t)
{
	if (t != PX_T_f16 && t != PX_T_bf16 && t != PX_T_f32 && t != PX_T_f64)
		return true;
	/* a double that is not finite was written inf or nan (a decimal past
	 * the double's range is refused when it is read) */
	return !isfinite(v) || px_fp_finite(px_fp_fmt_of_type(t), v, dir);
}

int px_literal_text(const px_verifier *v, px_loc loc, const char **s)
{
	const char *src = v->d->src;
	size_t n = 0;
	*s = "";
	uint32_t off = px_loc_off(loc);
	if (!src || off >= v->d->len)
		return 0;
	*s = src + off;
	while (off + n < v->d->len && src[off + n] && (isalnum((unsigned char)src[off + n]) || strchr("+-.", src[off + n])))
		n++;
	return (int)n;
}
