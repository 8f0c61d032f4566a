/* What the alignment and bounds checks read of the value analysis
 * (verify/analysis/known.h). */
#include "verify/analysis/known.h"

#include "tables/tables.h"

static bool of_form(const px_values *va, px_aff a, px_known *out)
{
	if (!a.known)
		return false;
	px_aff rest = a;
	rest.c = 0;
	rest.base = 0;
	uint64_t m = px_aff_multiple(va, &rest);
	*out = (px_known){.base = a.base, .exact = !a.nterms, .off = a.c};
	out->mod = m >= PX_KNOWN_MOD ? PX_KNOWN_MOD : m ? (uint32_t)m : 1;
	out->rem = (uint32_t)((uint64_t)a.c & (out->mod - 1));
	return a.base || out->exact || out->mod > 1;
}

bool px_known_addr(const px_values *va, const px_opnd *o, px_known *out)
{
	return of_form(va, px_value_addr(va, o), out);
}

void px_known_residue(const px_values *va, const px_known *x, uint32_t *mod, uint32_t *rem)
{
	uint32_t a = x->base ? px_value_base_align(va, x->base) : PX_KNOWN_MOD;
	*mod = a < x->mod ? a : x->mod;
	*rem = x->rem & (*mod - 1);
}

void px_known_notes(const px_values *va, px_diags *d, uint32_t id, unsigned depth)
{
	const px_value *val = &va->f->values[id];
	px_known x;
	if (!of_form(va, va->form[id], &x))
		return;
	int n = (int)val->name.n;
	const char *s = val->name.s;
	px_str v = x.base ? px_value_base_name(va, x.base) : (px_str){"", 0};
	if (x.base && x.exact)
		px_note(d, val->def_loc, PX_D_bounds_from, n, s, (int)v.n, v.s, (long long)x.off);
	else if (x.base && x.mod > 1 && x.rem)
		px_note(d, val->def_loc, PX_D_known_var_mod, n, s, (int)v.n, v.s, (unsigned)x.rem, (unsigned)x.mod);
	else if (x.base && x.mod > 1)
		px_note(d, val->def_loc, PX_D_known_var_multiple, n, s, (int)v.n, v.s, (unsigned)x.mod);
	else if (x.exact)
		px_note(d, val->def_loc, PX_D_known_int, n, s, (long long)x.off);
	else if (x.rem)
		px_note(d, val->def_loc, PX_D_known_mod, n, s, (unsigned)x.rem, (unsigned)x.mod);
	else
		px_note(d, val->def_loc, PX_D_known_multiple, n, s, (unsigned)x.mod);
	const px_node *def = va->ndefs[id] == 1 ? va->def[id] : NULL;
	if (!depth || !def || def->kind != PX_N_INST)
		return;
	for (uint32_t i = 0; i < def->nops; i++) {
		const px_opnd *o = &def->ops[i];
		const px_aff *f = o->kind == PX_O_VALUE && o->elem < 0 && o->id != id ? &va->form[o->id] : NULL;
		if (f && f->known && !f->nterms && !f->base)
			px_known_notes(va, d, o->id, depth - 1);
	}
}
