/* The register model: a value's type picks its NVPTX class; numbering is
 * per width, so the %f view shares %r's numbers and %fd shares %rd's; each
 * printed class declares as many registers as its highest number needs. */
#include <stdlib.h>
#include <string.h>

#include "isel/isel.h"
#include "tables/query.h"

static uint8_t numbering_of(uint8_t rc)
{
	uint8_t base = px_regclasses[rc].view_of;
	return base == 0xff ? rc : base;
}

static void mark_b8_value(px_isel *s, const px_opnd *o)
{
	if (o->kind == PX_O_VALUE && o->id <= s->f->nvalues && s->f->values[o->id].type == PX_T_b8)
		s->b8mark[o->id] = 1;
}

/* Items map to definitions as the verifier maps them: a group definition takes
 * a ( ) group or, among results, one scalar result per element. */
static void mark_b8(px_isel *s, const px_node *n, const px_opnd *o, unsigned nitems, const px_opnd_def *defs,
                    unsigned ndefs, bool results)
{
	unsigned it = 0;
	for (unsigned d = 0; d < ndefs && it < nitems; d++) {
		unsigned count = px_opnd_count(&defs[d], n->slot);
		bool whole = o[it].kind == PX_O_GROUP || (o[it].kind == PX_O_VALUE && s->f->values[o[it].id].count);
		unsigned take = results && count > 1 && !whole ? count : 1;
		for (unsigned k = 0; k < take && it < nitems; k++, it++) {
			if (!(defs[d].flags & PX_OPND_B8REG))
				continue;
			mark_b8_value(s, &o[it]);
			if (o[it].kind == PX_O_GROUP)
				for (unsigned e = 0; e < o[it].nelems; e++)
					mark_b8_value(s, &o[it].elems[e]);
		}
	}
}

static bool needs_b8(px_isel *s, uint32_t value)
{
	if (s->b8f != s->f) {
		if (s->b8cap < s->f->nvalues + 1) {
			free(s->b8mark);
			s->b8cap = s->f->nvalues + 64;
			s->b8mark = malloc(s->b8cap);
			if (!s->b8mark)
				abort();
		}
		memset(s->b8mark, 0, s->f->nvalues + 1);
		for (const px_node *n = s->f->first; n; n = n->next) {
			if (n->kind != PX_N_INST || !n->var)
				continue;
			const px_variant *v = n->var;
			mark_b8(s, n, n->res, n->nres, v->results ? v->results : n->op->results,
			        v->results ? v->nresults : n->op->nresults, true);
			mark_b8(s, n, n->ops, n->nops, v->operands ? v->operands : n->op->operands,
			        v->operands ? v->noperands : n->op->noperands, false);
		}
		s->b8f = s->f;
	}
	return value <= s->f->nvalues && s->b8mark[value];
}

bool px_value_true_b8(px_isel *s, uint32_t value)
{
	return s->f->values[value].type == PX_T_b8 && needs_b8(s, value);
}

uint32_t px_new_reg(px_isel *s, int type, uint32_t count)
{
	uint8_t rc = px_rc_of_type(type);
	uint8_t base = numbering_of(rc);
	uint32_t r = s->next[base];
	s->next[base] += count ? count : 1;
	if (s->mf.nregs[rc] < s->next[base])
		s->mf.nregs[rc] = s->next[base];
	return r;
}

static uint32_t new_rb(px_isel *s, uint32_t count)
{
	uint32_t r = s->next[PX_RC_rb];
	s->next[PX_RC_rb] += count;
	if (s->mf.nregs[PX_RC_rb] < s->next[PX_RC_rb])
		s->mf.nregs[PX_RC_rb] = s->next[PX_RC_rb];
	return r | PX_RB_TAG;
}

uint32_t px_new_true_b8(px_isel *s) { return new_rb(s, 1); }

uint32_t px_value_reg(px_isel *s, uint32_t value)
{
	if (s->vreg[value] == UINT32_MAX) {
		const px_value *v = &s->f->values[value];
		if (px_value_true_b8(s, value)) {
			/* an array's elements (a .v4 of FP8 bytes) take consecutive numbers */
			s->vreg[value] = new_rb(s, v->count ? v->count : 1);
		} else {
			s->vreg[value] = px_new_reg(s, v->type, v->count);
		}
	}
	return s->vreg[value];
}
