/* mov's pack and unpack forms (mov.b32 d, {a, b} and back): when no row of the
 * table takes the written number of pieces, say which splits PTX has. */
#include <stdio.h>
#include <string.h>

#include "verify/verify.h"

bool px_mov_is_split(const px_node *n)
{
	return n->op == &px_ops[PX_OP_mov] && (n->nres > 1 || (n->nops && n->ops[0].kind == PX_O_GROUP));
}

/* "2 x b16 or 4 x b8": the splits of wide, from mov's rows. */
static void splits(unsigned wide, bool pack, char *buf, size_t size)
{
	const px_op_def *op = &px_ops[PX_OP_mov];
	size_t len = 0;
	buf[0] = 0;
	for (unsigned vi = 0; vi < op->nvariants; vi++) {
		const px_variant *var = &op->variants[vi];
		const px_opnd_def *d = pack ? var->operands : var->results;
		if (!d || d->count < 2 || !var->allow[0] || !px_toks_have(var->allow[0], wide) || len >= size)
			continue;
		len += (size_t)snprintf(buf + len, size - len, "%s%u x %s", len ? " or " : "", d->count,
		                        px_types[d->type].name);
	}
}

void px_mov_split_report(px_verifier *v, const px_func *f, const px_node *n)
{
	unsigned wide = n->slot[0];
	const char *wname = px_tok_names[wide];
	if (wname[0] != 'b') {
		px_error(v->d, n->oploc, PX_D_mov_split_type, wname);
		return;
	}
	bool pack = n->nres <= 1;
	const px_opnd *first = pack ? &n->ops[0].elems[0] : &n->res[0];
	unsigned count = pack ? n->ops[0].nelems : n->nres;
	int t = first->kind == PX_O_VALUE ? (first->decl_type ? first->decl_type : f->values[first->id].type) : 0;
	char list[256];
	splits(wide, pack, list, sizeof list);
	px_error(v->d, pack ? n->ops[0].loc : n->res[0].loc, PX_D_mov_split, wname, pack ? "pack" : "unpack into",
	         count, t ? px_types[t].name : "?", wname, list[0] ? list : "nothing");
}
