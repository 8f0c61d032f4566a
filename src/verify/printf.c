/* printf's arguments against its format, as GCC's -Wformat checks them, in
 * MIR's types: an int conversion takes an integer of 32 bits or fewer (C
 * promotes it to int), an l, ll, z, j or t one a 64-bit integer, a floating
 * conversion f32 (promoted to double) or f64, %p and %s a 64-bit address.
 * Signedness is not checked (GCC's -Wformat leaves that to
 * -Wformat-signedness). */
#include "front/format.h"
#include "verify/state.h"
#include "verify/verify.h"

static bool is_int(int t)
{
	unsigned k = px_types[t].kind;
	return k == PX_KIND_BIT || k == PX_KIND_UINT || k == PX_KIND_SINT || k == PX_KIND_PTR;
}

static bool takes(unsigned want, int t)
{
	unsigned w = px_types[t].width;
	switch (want) {
	case PX_FMT_INT:
		return is_int(t) && w >= 8 && w <= 32;
	case PX_FMT_DOUBLE:
		return t == PX_T_f32 || t == PX_T_f64;
	default: /* 64-bit integers, pointers, a string's address */
		return is_int(t) && w == 64;
	}
}

static const char *expects(const px_fmt_item *it)
{
	if (it->star)
		return "an integer of 32 bits or fewer for its '*'";
	switch (it->want) {
	case PX_FMT_INT:
		return "an integer of 32 bits or fewer";
	case PX_FMT_LONG:
		return "a 64-bit integer";
	case PX_FMT_DOUBLE:
		return "f32 or f64";
	case PX_FMT_PTR:
		return "a 64-bit address";
	default:
		return "the 64-bit generic address of a string";
	}
}

static void mismatch(px_verifier *v, const px_node *n, const px_fmt_item *it, const px_opnd *o, unsigned pos,
                     const char *is)
{
	px_error(v->d, o->loc, PX_D_printf_arg_type, (int)it->len, n->text.s + it->at, expects(it), pos, is);
}

static void check_arg(px_verifier *v, px_func *f, const px_node *n, const px_fmt_item *it, const px_opnd *o,
                      unsigned pos)
{
	bool fp = it->want == PX_FMT_DOUBLE;
	switch (o->kind) {
	case PX_O_VALUE: {
		const px_value *val = &f->values[o->id];
		if (!(v->state[o->id] & PX_VS_DEF)) {
			if (val->has_def)
				px_error(v->d, o->loc, PX_D_use_before_def, (int)val->name.n, val->name.s);
			else
				px_undefined_value(v, f, o->loc, o->id);
			v->state[o->id] |= PX_VS_DEF;
			return;
		}
		if (val->count && o->elem < 0)
			px_error(v->d, o->loc, PX_D_array_as_scalar, (int)val->name.n, val->name.s);
		else if (val->type && !takes(it->want, val->type))
			mismatch(v, n, it, o, pos, px_types[val->type].name);
		return;
	}
	case PX_O_SREG: {
		int t = px_sregs[o->id].type;
		if (!t)
			px_error(v->d, o->loc, PX_D_printf_arg_kind, pos);
		else if (!takes(it->want, t))
			mismatch(v, n, it, o, pos, px_types[t].name);
		return;
	}
	case PX_O_INT:
		if (fp)
			mismatch(v, n, it, o, pos, "an integer literal");
		else
			px_check_literal(v, o, it->want == PX_FMT_INT ? PX_T_b32 : PX_T_b64, pos, "printf");
		return;
	case PX_O_FLOAT:
	case PX_O_FBITS:
		if (!fp)
			mismatch(v, n, it, o, pos, "a floating-point literal");
		else if (o->kind == PX_O_FLOAT) /* a 0f pattern is promoted as an f32 is */
			px_check_literal(v, o, PX_T_f64, pos, "printf");
		return;
	default:
		px_error(v->d, o->loc, PX_D_printf_arg_kind, pos);
		return;
	}
}

void px_verify_printf(px_verifier *v, px_func *f, px_node *n)
{
	px_arena a;
	px_arena_init(&a);
	px_fmt fmt;
	px_fmt_scan(&a, n->text, &fmt);
	const char *c = n->text.s + fmt.err_at;
	switch (fmt.error) {
	case PX_FMT_UNKNOWN:
		px_error(v->d, n->text_loc, PX_D_printf_conversion, c[fmt.err_len - 1], (int)fmt.err_len, c);
		break;
	case PX_FMT_TRAILING:
		px_error(v->d, n->text_loc, PX_D_printf_trailing, (int)fmt.err_len, c);
		break;
	case PX_FMT_LENGTH:
		px_error(v->d, n->text_loc, PX_D_printf_length, (int)fmt.err_len, c, c[fmt.err_len - 1]);
		break;
	}
	uint32_t k = fmt.nitems < n->nops ? fmt.nitems : n->nops;
	for (uint32_t i = 0; i < k; i++)
		check_arg(v, f, n, &fmt.items[i], &n->ops[i], i + 1);
	if (!fmt.error && n->nops > fmt.nitems) {
		px_error(v->d, n->ops[fmt.nitems].loc, PX_D_printf_extra, fmt.nitems, n->nops);
	} else if (!fmt.error && n->nops < fmt.nitems) {
		const px_fmt_item *it = &fmt.items[n->nops];
		px_error(v->d, n->text_loc, PX_D_printf_missing, (int)it->len, n->text.s + it->at, expects(it));
	}
	px_arena_free(&a);
}
