/* Inline PTX: asm "template" (outputs) (inputs). ptxemit does not read the
 * template's PTX; it checks the binding: outputs are values the statement
 * defines, inputs are defined values or integer and bit-pattern immediates,
 * and every $N placeholder names one of them ($$ is a '$'). */
#include "verify/state.h"
#include "verify/verify.h"

static void check_input(px_verifier *v, px_func *f, const px_opnd *o, unsigned pos)
{
	switch (o->kind) {
	case PX_O_VALUE: {
		const px_value *val = &f->values[o->id];
		if (!(v->state[o->id] & PX_VS_DEF)) {
			px_error(v->d, o->loc, val->has_def ? PX_D_use_before_def : PX_D_undefined_value, (int)val->name.n,
			         val->name.s);
			v->state[o->id] |= PX_VS_DEF;
		} else if (o->neg) {
			px_error(v->d, o->loc, PX_D_asm_operand, pos);
		} else if (val->count && o->elem < 0) {
			px_error(v->d, o->loc, PX_D_array_as_scalar, (int)val->name.n, val->name.s);
		}
		break;
	}
	case PX_O_INT:
	case PX_O_FBITS:
		break;
	case PX_O_FLOAT:
		px_error(v->d, o->loc, PX_D_asm_float, pos);
		break;
	default:
		px_error(v->d, o->loc, PX_D_asm_operand, pos);
		break;
	}
}

static void check_output(px_verifier *v, px_func *f, const px_opnd *o, unsigned pos)
{
	if (o->kind == PX_O_DISCARD) {
		px_error(v->d, o->loc, PX_D_asm_discard, pos);
		return;
	}
	const px_value *val = &f->values[o->id];
	if (o->elem < 0 && (o->decl_count || (!o->decl_type && val->count)))
		px_error(v->d, o->loc, PX_D_array_as_scalar, (int)val->name.n, val->name.s);
}

/* The placeholders: $N with N below the operand count, or $$. */
static void check_template(px_verifier *v, const px_node *n)
{
	unsigned nbound = n->nres + n->nops;
	const char *s = n->text.s;
	for (uint32_t i = 0; i < n->text.n; i++) {
		if (s[i] != '$')
			continue;
		if (i + 1 < n->text.n && s[i + 1] == '$') {
			i++;
			continue;
		}
		if (i + 1 == n->text.n || s[i + 1] < '0' || s[i + 1] > '9') {
			px_error(v->d, n->text_loc, PX_D_asm_dollar);
			continue;
		}
		uint64_t k = 0;
		while (i + 1 < n->text.n && s[i + 1] >= '0' && s[i + 1] <= '9' && k <= UINT32_MAX)
			k = k * 10 + (unsigned)(s[++i] - '0');
		if (k >= nbound)
			px_error(v->d, n->text_loc, PX_D_asm_placeholder, (unsigned long long)k, nbound,
			         nbound == 1 ? "" : "s");
	}
}

void px_verify_asm(px_verifier *v, px_func *f, px_node *n)
{
	if (n->has_guard) /* a { } block takes no guard in PTX */
		px_error(v->d, n->loc, PX_D_asm_guard);
	for (uint32_t i = 0; i < n->nops; i++)
		check_input(v, f, &n->ops[i], n->nres + i);
	for (uint32_t i = 0; i < n->nres; i++)
		check_output(v, f, &n->res[i], i);
	px_define_results(v, f, n, NULL, 0);
	check_template(v, n);
}
