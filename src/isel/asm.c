/* Inline PTX: one pseudo instruction carrying the template and its operands,
 * outputs first, in the registers their values have everywhere else. */
#include <string.h>

#include "isel/isel.h"

void px_select_asm(px_isel *s, const px_node *n)
{
	px_minst *mi = px_emit_inst(s, &px_ops[PX_OP_inline_asm], NULL, n->loc);
	mi->name = n->text;
	mi->nops = n->nres + n->nops;
	mi->ops = px_mops(s, mi->nops);
	for (uint32_t i = 0; i < mi->nops; i++) {
		const px_opnd *o = i < n->nres ? &n->res[i] : &n->ops[i - n->nres];
		px_mop *m = &mi->ops[i];
		memset(m, 0, sizeof *m);
		if (o->kind == PX_O_INT) {
			m->kind = PX_M_IMM;
			m->imm = o->ival;
			m->type = PX_T_s64;
		} else if (o->kind == PX_O_FBITS) {
			m->kind = PX_M_FIMM;
			m->bits = o->bits;
			m->type = o->fwidth == 64 ? PX_T_f64 : PX_T_f32;
		} else {
			*m = px_lower_value_as(s, o, s->f->values[o->id].type, n->loc);
		}
	}
	px_finish(s, mi);
}
