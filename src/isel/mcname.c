/* MC opcode names (data/README.md): the variant's stem, the printed tokens in
 * print order, "_FULL" for a warp collective with the all-lanes mask, and one
 * letter per operand kind, e.g. FADD_RN_F32_rri. */
#include <ctype.h>
#include <string.h>

#include "isel/isel.h"

static char kind_letter(const px_mop *m)
{
	switch (m->kind) {
	case PX_M_REG: return 'r';
	case PX_M_IMM:
	case PX_M_FIMM: return 'i';
	case PX_M_ADDR: return 'a';
	case PX_M_LABEL: return 'l';
	case PX_M_SYM: return 's';
	case PX_M_SREG: return 'x';
	case PX_M_GROUP: return 'g';
	case PX_M_SINK: return '_'; /* PTX's own spelling of a discarded result */
	default: return '_';
	}
}

const char *px_mc_name(px_arena *a, const px_minst *mi)
{
	char buf[256];
	size_t n = 0;
	const char *stem = mi->var && mi->var->mc ? mi->var->mc : mi->op->name;
	for (const char *p = stem; *p && n < sizeof buf - 1; p++)
		buf[n++] = *p;
	if (px_pseudo_op(mi) >= 0)
		return px_arena_strndup(a, buf, n);
	for (unsigned i = 0; i < mi->op->nslots; i++) {
		const px_slot_def *s = &mi->op->slots[i];
		unsigned tok = mi->slot[i] ? mi->slot[i] : ((s->flags & PX_SLOT_FIXED) ? s->fixed_tok : 0);
		if (!tok || (s->flags & PX_SLOT_NOPRINT))
			continue;
		if (n < sizeof buf - 1)
			buf[n++] = '_';
		for (const char *p = px_tok_names[tok]; *p && n < sizeof buf - 1; p++) {
			if (*p == ':' && p[1] == ':')
				p++;
			buf[n++] = isalnum((unsigned char)*p) ? (char)toupper((unsigned char)*p) : '_';
		}
	}
	for (const char *p = mi->full_mask ? "_FULL" : ""; *p && n < sizeof buf - 1; p++)
		buf[n++] = *p;
	if (mi->nres + mi->nops && n < sizeof buf - 1)
		buf[n++] = '_';
	for (uint32_t i = 0; i < mi->nres && n < sizeof buf - 1; i++)
		buf[n++] = kind_letter(&mi->res[i]);
	for (uint32_t i = 0; i < mi->nops && n < sizeof buf - 1; i++)
		buf[n++] = kind_letter(&mi->ops[i]);
	return px_arena_strndup(a, buf, n);
}
