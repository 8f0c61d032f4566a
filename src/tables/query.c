/* Queries over the tables given a node's filled slots: what type and count an
 * operand definition stands for, which state space an address operand works
 * in, which variant a node's tokens and target select. The verifier decides
 * with them and the selector reads the same answers, so both see one table. */
#include <stdbool.h>

#include "tables/query.h"

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

bool px_opnd_is_group(const px_opnd_def *def, const uint16_t *slot)
{
	if (!(def->flags & PX_OPND_GROUP))
		return false;
	return def->count_slot < 0 || slot[def->count_slot];
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
	/* ptr values are u64 (ptxemit-mir(5)): they fit any 64-bit integer slot */
	return (h->kind == PX_KIND_PTR && is_intlike(want)) || (w->kind == PX_KIND_PTR && is_intlike(have));
}

bool px_type_widens(int have, int want)
{
	/* not into a b128 register: only a .b128 instruction raises the .version
	 * to one that declares it */
	return have && want && is_intlike(have) && is_intlike(want) && px_types[want].kind != PX_KIND_PTR &&
	       px_types[have].width > px_types[want].width && px_types[have].width <= 64;
}

unsigned px_space_of_tok(unsigned tok)
{
	switch (tok) {
	case PX_TOK_global:
		return PX_AS_GLOBAL;
	case PX_TOK_shared:
	case PX_TOK_shared__cta:
		return PX_AS_SHARED;
	case PX_TOK_shared__cluster:
		return PX_AS_CLUSTER;
	case PX_TOK_const:
		return PX_AS_CONST;
	case PX_TOK_local:
		return PX_AS_LOCAL;
	case PX_TOK_param:
		return PX_AS_PARAM;
	default:
		return PX_AS_GENERIC;
	}
}

unsigned px_opnd_space(const px_opnd_def *def, const uint16_t *slot)
{
	return def->space_slot >= 0 ? px_space_of_tok(slot[def->space_slot]) : def->space;
}

/* The one kind of memory every space the operand's slot can name lies in:
 * shared (shared::cta or shared::cluster) or global; else PX_AS_GENERIC. Its
 * generic form (the slot left empty) then still works only there: ldmatrix,
 * mbarrier and st.bulk on shared memory, multimem, ldu and discard on global. */
unsigned px_opnd_only_space(const px_op_def *op, const px_opnd_def *def)
{
	if (def->space_slot < 0)
		return PX_AS_GENERIC;
	unsigned kind = PX_AS_GENERIC;
	for (const uint16_t *t = op->slots[def->space_slot].toks; *t; t++) {
		unsigned sp = px_space_of_tok(*t);
		sp = sp == PX_AS_CLUSTER ? PX_AS_SHARED : sp;
		if ((sp != PX_AS_SHARED && sp != PX_AS_GLOBAL) || (kind != PX_AS_GENERIC && kind != sp))
			return PX_AS_GENERIC;
		kind = sp;
	}
	return kind;
}

const px_opnd_def *px_var_results(const px_op_def *op, const px_variant *var, unsigned *n)
{
	if (var && var->results) {
		*n = var->nresults;
		return var->results;
	}
	*n = op->nresults;
	return op->results;
}

const px_opnd_def *px_var_operands(const px_op_def *op, const px_variant *var, unsigned *n)
{
	if (var && var->operands) {
		*n = var->noperands;
		return var->operands;
	}
	*n = op->noperands;
	return op->operands;
}

bool px_variant_admits(const px_op_def *op, const px_variant *var, const uint16_t *slot)
{
	for (unsigned i = 0; i < op->nslots; i++) {
		const px_slot_def *s = &op->slots[i];
		unsigned tok = slot[i];
		if (!tok) {
			if ((var->require >> i) & 1)
				return false;
			if ((s->flags & PX_SLOT_REQUIRED) && !(s->flags & PX_SLOT_FIXED))
				return false;
			continue;
		}
		if ((s->flags & PX_SLOT_FIXED) && tok == s->fixed_tok)
			continue;
		if (!var->allow[i] || !px_toks_have(var->allow[i], tok))
			return false;
	}
	return true;
}

const px_variant *px_variant_find(px_first_rows **memo, const px_op_def *op, const uint16_t *slot,
                                  const px_target *t, uint16_t ptx)
{
	unsigned first = memo ? px_first_row(memo, op, slot) : 0;
	for (unsigned i = first; i < op->nvariants; i++) {
		const px_variant *var = &op->variants[i];
		if (((memo && i == first) || px_variant_admits(op, var, slot)) && px_window_ok(var, t, ptx))
			return var;
	}
	return NULL;
}

bool px_target_in(uint64_t targets, const px_target *t)
{
	return !t || (t->index < 64 && (targets >> t->index & 1));
}

bool px_window_ok(const px_variant *var, const px_target *t, uint16_t ptx)
{
	if (!t)
		return true; /* no target known: the missing target was reported already */
	return px_target_in(var->targets, t) && (!ptx || ptx >= var->ptx);
}
