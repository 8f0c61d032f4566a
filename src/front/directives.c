/* Performance directives after a function's header (maxntid(256), ...):
 * the names, arities and repeats the table of directives allows. */
#include <string.h>

#include "front/build.h"
#include "tables/tables.h"

px_olink *px_dir_arg(px_parser *P, px_tok t)
{
	px_olink *l = px_opnd_link(P, PX_O_INT, t.loc);
	/* which directives take a 0 is data/directives.yaml's range: (the
	 * verifier's), not the grammar's */
	l->o.ival = (int64_t)px_small_uint(P, t, 0, UINT32_MAX);
	return l;
}

void px_directive_add(px_parser *P, px_tok name, const px_olist *args)
{
	unsigned i = 0;
	while (i < px_ndirectives && !(strlen(px_directives[i].name) == name.s.n &&
	                               memcmp(px_directives[i].name, name.s.s, name.s.n) == 0))
		i++;
	if (i == px_ndirectives) {
		PX_PERR(P, name.loc, PX_D_unknown_directive, (int)name.s.n, name.s.s);
		return;
	}
	const px_directive *d = &px_directives[i];
	px_dirval *dv = &P->f->dirs[i];
	/* given again: ptxas takes it and keeps the last values (as its cubin
	 * shows), so ptxemit prints the last; other values than before are
	 * most likely a mistake, said in a warning */
	px_dirval before = *dv;
	unsigned n = args ? args->n : 0;
	if (n < d->min_args || n > d->max_args) {
		if (d->max_args == 0)
			PX_PERR(P, name.loc, PX_D_directive_no_args, d->name);
		else if (d->min_args == d->max_args)
			PX_PERR(P, name.loc, PX_D_directive_args, d->name, (unsigned)d->max_args, n);
		else
			PX_PERR(P, name.loc, PX_D_directive_args_range, d->name, (unsigned)d->min_args,
			        (unsigned)d->max_args, n);
	}
	dv->present = true;
	dv->loc = name.loc;
	uint8_t k = 0;
	for (px_olink *x = args ? args->head : NULL; x && k < 3; x = x->next) {
		dv->argloc[k] = x->o.loc;
		dv->args[k++] = (uint32_t)x->o.ival;
	}
	dv->nargs = k;
	if (!before.present)
		return;
	bool same = true;
	for (unsigned j = 0; j < 3; j++) /* a missing dimension is 1 */
		same &= (j < before.nargs ? before.args[j] : 1) == (j < k ? dv->args[j] : 1);
	if (!same) {
		px_warn(P->m->diags, name.loc, PX_D_directive_repeated, d->name);
		px_note(P->m->diags, before.loc, PX_D_directive_repeated_first, d->name);
	}
}
