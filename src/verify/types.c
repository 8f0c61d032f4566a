/* Type rules shared by the verifier and the selector: what a slot token means
 * as a value type, what an operand definition expects, and mir.md's rule that a
 * bit type stands for any type of its width. */
#include <string.h>

#include "util/fp.h"
#include "verify/verify.h"

int px_tok_type(unsigned tok)
{
	return tok < px_ntoks ? px_tok_types[tok] : 0;
}

static int derive_type(int t, unsigned derive)
{
	if (!t || derive == PX_DERIVE_NONE)
		return t;
	unsigned want = derive == PX_DERIVE_WIDE ? px_types[t].width * 2 : px_types[t].width / 2;
	for (unsigned i = 1; i < px_ntypes; i++)
		if (px_types[i].kind == px_types[t].kind && px_types[i].width == want)
			return (int)i;
	return 0;
}

int px_opnd_type(const px_opnd_def *def, const uint16_t *slot)
{
	if (def->type_slot < 0)
		return def->type;
	return derive_type(px_tok_type(slot[def->type_slot]), def->derive);
}

unsigned px_opnd_count(const px_opnd_def *def, const uint16_t *slot)
{
	if (def->count_slot >= 0) {
		unsigned tok = slot[def->count_slot];
		if (!tok)
			return 1;
		/* v2, v4, x2, x4: the digits after the letter are the size */
		const char *s = px_tok_names[tok];
		while (*s && (*s < '0' || *s > '9'))
			s++;
		unsigned n = 0;
		while (*s >= '0' && *s <= '9')
			n = n * 10 + (unsigned)(*s++ - '0');
		return n ? n : 1;
	}
	return def->count ? def->count : 1;
}

static bool is_intlike(int t)
{
	unsigned k = px_types[t].kind;
	return k == PX_KIND_BIT || k == PX_KIND_UINT || k == PX_KIND_SINT || k == PX_KIND_PTR;
}

bool px_type_fits(int have, int want)
{
	if (!want || have == want)
		return true;
	if (!have)
		return false;
	const px_type_info *h = &px_types[have], *w = &px_types[want];
	if (h->kind == PX_KIND_PRED || w->kind == PX_KIND_PRED)
		return false;
	if (h->width != w->width)
		return false;
	if (h->kind == PX_KIND_BIT || w->kind == PX_KIND_BIT)
		return true;
	/* ptr values are u64 (mir.md): they fit any 64-bit integer slot */
	return (h->kind == PX_KIND_PTR && is_intlike(want)) || (w->kind == PX_KIND_PTR && is_intlike(have));
}

/* A literal fits when it rounds (to nearest, from its decimal) to a finite
 * value: past that it would become infinity. */
bool px_float_fits(double v, int dir, int t)
{
	if (t != PX_T_f16 && t != PX_T_bf16 && t != PX_T_f32 && t != PX_T_f64)
		return true;
	return px_fp_finite(px_fp_fmt_of_type(t), v, dir);
}

int px_literal_text(const px_verifier *v, px_loc loc, const char **s)
{
	const char *src = v->d->src;
	size_t n = 0;
	*s = "";
	if (!src || loc.off >= v->d->len)
		return 0;
	*s = src + loc.off;
	while (loc.off + n < v->d->len && src[loc.off + n] && strchr("0123456789+-.eE", src[loc.off + n]))
		n++;
	return (int)n;
}
