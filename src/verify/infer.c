/* Type inference: an empty type slot takes its type from the results or the
 * operands its table entry names (ptxemit-mir(5): the first result for most operations,
 * the compared operands for setp, the stored value for st, cvt's source from
 * its operand). The value type becomes a slot token: the exact spelling, else
 * the bit type of that width (and.b32 on u32 values), else the unsigned one. */
#include <string.h>

#include "util/buf.h"
#include "verify/verify.h"

static unsigned width_token(const px_slot_def *s, char kind, unsigned width)
{
	char name[24] = {kind};
	unsigned t = px_tok_lookup(name, 1 + px_utoa(name + 1, width));
	return t && px_slot_has(s, t) ? t : 0;
}

/* The other spellings an inferred type may take when the variants want them:
 * a u32 value fits atom.and's .b32 as well as add's .u32. */
unsigned px_type_alternative(const px_slot_def *s, unsigned tok, unsigned k)
{
	int t = px_tok_type(tok);
	if (!t || px_types[t].kind == PX_KIND_PRED || px_types[t].kind == PX_KIND_FLOAT)
		return 0;
	/* a signed or unsigned value may be spelled as bits, never as the other
	 * signedness (that would change what .sat, min or shr mean); bits may be
	 * spelled either way */
	const char *kinds = px_types[t].kind == PX_KIND_BIT ? "us" : "b";
	if (k >= strlen(kinds))
		return 0;
	unsigned alt = width_token(s, kinds[k], px_types[t].width);
	return alt != tok ? alt : 0;
}

/* The slot token standing for a value type, or 0. */
static unsigned type_token(const px_slot_def *s, int t)
{
	const px_type_info *ti = &px_types[t];
	if (ti->token && px_slot_has(s, ti->token))
		return ti->token;
	if (ti->kind == PX_KIND_PRED)
		return 0;
	unsigned tok = width_token(s, 'b', ti->width);
	if (!tok && (ti->kind == PX_KIND_BIT || ti->kind == PX_KIND_PTR))
		tok = width_token(s, 'u', ti->width);
	return tok;
}

bool px_infer_types(px_verifier *v, px_func *f, px_node *n)
{
	const px_op_def *op = n->op;
	bool ok = true;
	for (unsigned si = 0; si < op->nslots; si++) {
		const px_slot_def *s = &op->slots[si];
		if (!(s->flags & PX_SLOT_TYPE) || n->slot[si])
			continue;
		/* a mov with several results unpacks its operand, one with a ( ) group
		 * packs into its result: PTX spells both with the wide side's .bN */
		if (px_mov_is_split(n)) {
			px_loc loc;
			int t = px_source_type(f, n, n->nres > 1 ? PX_SRC_OPERAND : 0, si, &loc);
			unsigned tok = t ? width_token(s, 'b', px_types[t].width) : 0;
			if (tok) {
				px_slots_edit(v, n)[si] = (uint16_t)tok;
				n->inferred |= 1u << si;
			} else {
				px_error(v->d, n->oploc, PX_D_cannot_infer, s->name, op->name);
				ok = false;
			}
			continue;
		}
		for (unsigned k = 0; k < 4 && s->infer[k] != PX_SRC_END && !n->slot[si]; k++) {
			px_loc loc;
			int t = px_source_type(f, n, s->infer[k], si, &loc);
			if (!t)
				continue;
			unsigned tok = type_token(s, t);
			if (!tok) {
				px_error(v->d, loc, PX_D_type_not_valid, px_types[t].name, op->name);
				return false;
			}
			px_slots_edit(v, n)[si] = (uint16_t)tok;
			n->inferred |= 1u << si;
		}
		/* mov between values of one width reinterprets the bits (ptxemit-mir(5)): mov.bN */
		if (op == &px_ops[PX_OP_mov] && n->slot[si]) {
			px_loc loc;
			int rt = px_source_type(f, n, 0, si, &loc), ot = px_source_type(f, n, PX_SRC_OPERAND, si, &loc);
			if (rt && ot && rt != ot && px_types[rt].kind != PX_KIND_PRED &&
			    px_types[ot].kind != PX_KIND_PRED && px_types[rt].width == px_types[ot].width) {
				unsigned tok = width_token(s, 'b', px_types[rt].width);
				if (tok)
					px_slots_edit(v, n)[si] = (uint16_t)tok;
			}
		}
		if (!n->slot[si] && (s->flags & PX_SLOT_REQUIRED)) {
			px_error(v->d, n->oploc, PX_D_cannot_infer, s->name, op->name);
			ok = false;
		}
	}
	return ok;
}
