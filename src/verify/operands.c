/* Operand checks once the variant is known: every value defined before it is
 * read, the types the variant expects, immediates that fit their type, groups
 * of the right size, symbols and labels that exist. Results define values: the
 * first definition of a value in text order gives its type. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "front/optype.h"
#include "util/fp.h"
#include "verify/verify.h"
#include "verify/state.h"

static const char *tname(int t) { return t ? px_types[t].name : "any"; }

/* Is ival representable in type t? Unsigned and bit types also take the
 * negative values of their width (-1 for 0xffffffff), as PTX does. */
static bool int_fits(int64_t ival, int t)
{
	const px_type_info *ti = &px_types[t];
	if (ti->width >= 64)
		return true;
	int64_t lo = -((int64_t)1 << (ti->width - 1));
	int64_t hi = ti->kind == PX_KIND_SINT ? ((int64_t)1 << (ti->width - 1)) - 1
	                                      : ((int64_t)1 << ti->width) - 1;
	return ival >= lo && ival <= hi;
}

/* A literal as a float of type want rounds to a finite value; the message
 * quotes the literal as written. */
static void check_float_range(px_verifier *v, const px_opnd *o, int want)
{
	int8_t dir = o->fdir;
	double val = o->kind == PX_O_FLOAT ? o->fval : px_fp_from_int(o->ival, &dir);
	if (px_float_fits(val, dir, want))
		return;
	const char *s;
	int n = px_literal_text(v, o->loc, &s);
	px_error(v->d, o->loc, PX_D_float_type_range, n, s, tname(want));
}

void px_check_literal(px_verifier *v, const px_opnd *o, int want, unsigned pos, const char *what)
{
	switch (o->kind) {
	case PX_O_INT:
		if (want && px_types[want].kind == PX_KIND_PRED && (o->ival < 0 || o->ival > 1))
			px_error(v->d, o->loc, PX_D_expected_pred, pos, what);
		else if (want && px_types[want].kind != PX_KIND_FLOAT && !int_fits(o->ival, want))
			px_error(v->d, o->loc, PX_D_int_range, (long long)o->ival, tname(want));
		else if (want && px_types[want].kind == PX_KIND_FLOAT)
			check_float_range(v, o, want);
		break;
	case PX_O_FLOAT:
		if (want && px_types[want].kind != PX_KIND_FLOAT)
			px_error(v->d, o->loc, PX_D_float_literal_type, tname(want));
		else if (want)
			check_float_range(v, o, want);
		break;
	case PX_O_FBITS:
		if (want && (px_types[want].kind == PX_KIND_PRED || px_types[want].width != o->fwidth ||
		             (px_types[want].kind != PX_KIND_FLOAT && px_types[want].kind != PX_KIND_BIT)))
			px_error(v->d, o->loc, PX_D_fbits_type, o->fwidth == 32 ? "0f" : "0d", tname(want));
		break;
	default:
		break;
	}
}

static void check_value_use(px_verifier *v, px_func *f, const px_opnd *o)
{
	px_value *val = &f->values[o->id];
	if (!(v->state[o->id] & PX_VS_DEF)) {
		if (val->has_def)
			px_error(v->d, o->loc, PX_D_use_before_def, (int)val->name.n, val->name.s);
		else
			px_undefined_value(v, f, o->loc, o->id);
		v->state[o->id] |= PX_VS_DEF; /* report once */
	}
	if (o->elem >= 0) {
		if (!val->count)
			px_error(v->d, o->loc, PX_D_not_array, (int)val->name.n, val->name.s);
		else if ((uint32_t)o->elem >= val->count)
			px_error(v->d, o->loc, PX_D_index_range, o->elem, (int)val->name.n, val->name.s, val->count);
	}
}

static bool range_ok(const px_imm_range *r, int64_t x)
{
	return x >= r->lo && x <= r->hi && x % r->multiple == 0 && (!r->pow2 || (x > 0 && !(x & (x - 1)))) &&
	       (!r->nonzero || x != 0);
}

/* The allowed value nearest x from below (dir -1) or above (dir 1), searching
 * from x itself; false when there is none. */
static bool range_near(const px_imm_range *r, int64_t x, int dir, int64_t *out)
{
	if (x < r->lo)
		x = r->lo;
	if (x > r->hi)
		x = r->hi;
	/* powers of two are few: stepping value by value from a negative x
	 * toward a range with no low end would never meet one */
	if (r->pow2) {
		bool found = false;
		for (int k = 0; k < 63; k++) {
			int64_t y = (int64_t)1 << k;
			if (!range_ok(r, y) || (dir < 0 ? y > x : y < x))
				continue;
			if (!found || (dir < 0 ? y > *out : y < *out))
				*out = y;
			found = true;
		}
		return found;
	}
	int64_t m = r->multiple;
	int64_t y = x - ((x % m) + m) % m; /* the multiple at or below x */
	if (dir > 0 && y < x)
		y += m;
	/* a nonzero operand's search from a value of one sign stops at 0: past
	 * it lies the other sign, no nearer a value the writer meant */
	for (; y >= r->lo && y <= r->hi && !(r->nonzero && y == 0 && x != 0); y += dir * m)
		if (range_ok(r, y)) {
			*out = y;
			return true;
		}
	return false;
}

/* An integer literal where the table gives a range (data/ops `range:`,
 * `multiple:`, `power_of_two:`): the message says what the operand may be and
 * names the nearest values it may take. */
static void check_range(px_verifier *v, const px_opnd *o, const px_opnd_def *def, unsigned pos, const char *what)
{
	const px_imm_range *r = def->range;
	if (!r || range_ok(r, o->ival))
		return;
	char rule[96], fix[64];
	int k = snprintf(rule, sizeof rule, "%s", r->pow2 ? "a power of two" : "");
	if (r->multiple > 1)
		k += snprintf(rule + k, sizeof rule - k, "%sa %smultiple of %d", k ? " and " : "",
		              r->nonzero ? "nonzero " : "", (int)r->multiple);
	else if (r->nonzero)
		k += snprintf(rule + k, sizeof rule - k, "%snot 0", k ? " and " : "");
	if (r->lo == r->hi)
		snprintf(rule + k, sizeof rule - k, "%lld", (long long)r->lo);
	else if (r->lo != INT64_MIN && r->hi != INT64_MAX)
		snprintf(rule + k, sizeof rule - k, "%sfrom %lld to %lld", k ? " " : "", (long long)r->lo, (long long)r->hi);
	/* pxgen makes sure that a range admits some value, so one of the two is found */
	int64_t below = 0, above = 0;
	bool b = o->ival > r->lo && range_near(r, o->ival, -1, &below);
	bool a = o->ival < r->hi && range_near(r, o->ival, 1, &above);
	if (b && a)
		snprintf(fix, sizeof fix, "%lld or %lld", (long long)below, (long long)above);
	else
		snprintf(fix, sizeof fix, "%lld", (long long)(b ? below : above));
	px_error(v->d, o->loc, PX_D_imm_range, pos, what, rule, (long long)o->ival, fix);
}

/* One scalar item against the type want (0: any). */
static void check_scalar(px_verifier *v, px_func *f, const px_opnd *o, const px_opnd_def *def,
                         int want, unsigned pos, const char *what)
{
	bool pred = def->kind == PX_OK_PRED;
	if (o->neg && !pred)
		px_error(v->d, o->loc, PX_D_neg_not_pred);
	if (def->kind == PX_OK_IMM && o->kind != PX_O_INT && o->kind != PX_O_FLOAT && o->kind != PX_O_FBITS) {
		px_error(v->d, o->loc, PX_D_expected_imm, pos, what);
		return;
	}
	switch (o->kind) {
	case PX_O_VALUE: {
		check_value_use(v, f, o);
		int t = f->values[o->id].type;
		if (t && want && !px_type_fits(t, want) && !((def->flags & PX_OPND_WIDER) && px_type_widens(t, want)))
			px_error(v->d, o->loc, PX_D_operand_type, pos, what, (int)f->values[o->id].name.n,
			         f->values[o->id].name.s, tname(t), tname(want));
		break;
	}
	case PX_O_INT:
		/* a predicate constant is 0 or 1: ptxas takes one in every predicate operand */
		if (pred) {
			if (o->ival != 0 && o->ival != 1)
				px_error(v->d, o->loc, PX_D_expected_pred, pos, what);
		} else {
			px_check_literal(v, o, want, pos, what);
			if (want && px_types[want].kind != PX_KIND_FLOAT && int_fits(o->ival, want))
				check_range(v, o, def, pos, what); /* a literal too wide for its type is reported once */
		}
		break;
	case PX_O_FLOAT:
	case PX_O_FBITS:
		px_check_literal(v, o, want, pos, what);
		break;
	case PX_O_SREG: {
		const px_sreg *s = &px_sregs[o->id];
		if (!s->type) {
			px_error(v->d, o->loc, PX_D_sreg_vector, s->name, s->name);
			break;
		}
		px_note_window(v, o->loc, s->name, s->targets, s->ptx);
		if (want && !px_type_fits(s->type, want))
			px_error(v->d, o->loc, PX_D_sreg_type, s->name, tname(s->type), tname(want));
		break;
	}
	case PX_O_GROUP:
		px_error(v->d, o->loc, PX_D_unexpected_group, pos, what);
		break;
	default:
		break;
	}
}

static void check_symbol(px_verifier *v, const px_func *f, const px_opnd *o)
{
	if (px_func_local(f, o->sym))
		return;
	uint32_t s = px_module_sym(v->m, o->sym);
	if (s == PX_STRMAP_NONE) {
		px_error(v->d, o->loc, PX_D_unknown_symbol, (int)o->sym.n, o->sym.s);
		return;
	}
	px_check_hidden_name(v, f, o->sym, o->loc);
	if (s & 1) /* a function */
		px_check_call_block_name(v, o->sym, 0, o->loc);
}

/* A kernel's ptr const parameter cannot reach the const space itself: ptxas
 * allows no cvta.const on entry parameters. */
static void check_const_param(px_verifier *v, px_func *f, const px_node *n, const px_value *val)
{
	int si = px_slot_find(n->op, PX_SN_space);
	if (!f->is_kernel || val->param != PX_PARAM_PTR || si < 0 || n->slot[si] != PX_TOK_const)
		return;
	if (f->params[val->param_index].space == PX_TOK_const)
		px_error(v->d, n->oploc, PX_D_kernel_const_ptr, (int)val->name.n, val->name.s);
}

/* A texref or surfref variable is a handle, not memory: it is the handle in
 * the address of the ops flagged for its kind, or mov's source (which gives
 * its u64 handle); those ops take no other variable there. */
static void check_handle(px_verifier *v, const px_func *f, const px_node *n, const px_opnd *b, bool in_address)
{
	uint32_t s = px_func_local(f, b->sym) ? PX_STRMAP_NONE : px_module_sym(v->m, b->sym);
	if (s == PX_STRMAP_NONE || (in_address && (s & 1)))
		return; /* a local array, an unknown name or a function in an address (reported as such) */
	unsigned have = s & 1 ? 0 : v->m->globals[s >> 1].handle;
	unsigned want = !in_address ? 0 : n->op->flags & PX_OPF_TEXREF ? PX_TOK_texref
	                                : n->op->flags & PX_OPF_SURFREF ? PX_TOK_surfref : 0;
	if (have == want || (!in_address && n->op == &px_ops[PX_OP_mov]))
		return;
	if (have)
		px_error(v->d, b->loc, PX_D_handle_use, (int)b->sym.n, b->sym.s, px_tok_names[have], n->op->name);
	else
		px_error(v->d, b->loc, PX_D_handle_need, n->op->name, px_tok_names[want], (int)b->sym.n, b->sym.s);
}

/* What an operand of a kind that has no value is, for a message. */
static const char *kind_text(const px_opnd *o)
{
	switch (o->kind) {
	case PX_O_ADDR:
		return "an address [...]";
	case PX_O_SYM:
		return "a symbol @name";
	case PX_O_LABEL:
		return "a label";
	case PX_O_GROUP:
		return "a group ( ... )";
	case PX_O_FLOAT:
		return "a floating-point literal";
	case PX_O_FBITS:
		return "a bit-pattern literal";
	default:
		return "no value";
	}
}

/* The coordinates of [tmap, (c0, ...)]: one 32-bit integer value, special
 * register or literal per dimension of the count slot's token (cp.async.bulk.tensor.2d
 * takes two). A texture's family checks its own (count_slot -1). */
static void check_coords(px_verifier *v, px_func *f, const px_node *n, const px_opnd *o, const px_opnd_def *def,
                         unsigned pos, const char *what)
{
	const px_opnd *g = px_addr_idx(o);
	if (!(def->flags & PX_OPND_COORDS)) {
		if (g)
			px_error(v->d, g->loc, PX_D_coords_unexpected, pos, what);
		return;
	}
	if (def->count_slot < 0 && !def->count)
		return;
	unsigned want = px_opnd_count(def, n->slot), have = g ? g->nelems : 0;
	if (have != want && def->count_slot < 0)
		px_error(v->d, g ? g->loc : o->loc, PX_D_coords_count_fixed, pos, what, want, have);
	else if (have != want)
		px_error(v->d, g ? g->loc : o->loc, PX_D_coords_count, pos, what, want, want == 1 ? "" : "s",
		         px_tok_names[n->slot[def->count_slot]], have);
	for (uint32_t i = 0; i < have; i++) {
		const px_opnd *e = &g->elems[i];
		int t = 0;
		if (e->kind == PX_O_INT) {
			px_check_literal(v, e, PX_T_s32, pos, what);
			continue;
		}
		if (e->kind == PX_O_VALUE) {
			t = f->values[e->id].type;
			if (e->elem < 0 && f->values[e->id].count) {
				px_error(v->d, e->loc, PX_D_array_as_scalar, (int)f->values[e->id].name.n, f->values[e->id].name.s);
				continue;
			}
		} else if (e->kind == PX_O_SREG) {
			t = px_sregs[e->id].type;
			if (!t) {
				px_error(v->d, e->loc, PX_D_sreg_vector, px_sregs[e->id].name, px_sregs[e->id].name);
				continue;
			}
		} else {
			px_error(v->d, e->loc, PX_D_coord_kind, i, what, kind_text(e));
			continue;
		}
		if (t && px_types[t].width == 32 && px_types[t].kind != PX_KIND_FLOAT && px_types[t].kind != PX_KIND_PRED)
			continue;
		if (!t)
			continue; /* an undefined value: reported where it is read */
		if (e->kind == PX_O_SREG)
			px_error(v->d, e->loc, PX_D_sreg_type, px_sregs[e->id].name, tname(t), "s32");
		else
			px_error(v->d, e->loc, PX_D_coord_type, i, what, (int)f->values[e->id].name.n, f->values[e->id].name.s,
			         tname(t));
	}
}

static void check_address(px_verifier *v, px_func *f, const px_node *n, const px_opnd *o)
{
	const px_opnd *b = o->base;
	if (b->kind == PX_O_SYM) {
		check_symbol(v, f, b);
		uint32_t e = px_func_local(f, b->sym) ? PX_STRMAP_NONE : px_module_sym(v->m, b->sym);
		if (e != PX_STRMAP_NONE && (e & 1)) /* a function: its name is code, no memory to read or write */
			px_error(v->d, b->loc, PX_D_addr_function, (int)b->sym.n, b->sym.s);
		check_handle(v, f, n, b, true);
	} else if (b->kind == PX_O_VALUE) {
		check_value_use(v, f, b);
		const px_value *val = &f->values[b->id];
		int t = val->type;
		bool agg = val->param == PX_PARAM_AGG;
		check_const_param(v, f, n, val);
		if (!agg && t && (px_types[t].kind == PX_KIND_PRED || px_types[t].kind == PX_KIND_FLOAT ||
		                  (px_types[t].width != 32 && px_types[t].width != 64)))
			px_error(v->d, b->loc, PX_D_bad_addr_base, (int)val->name.n, val->name.s, tname(t));
	}
	const px_opnd *g = px_addr_idx(o);
	for (uint32_t i = 0; g && i < g->nelems; i++)
		if (g->elems[i].kind == PX_O_VALUE)
			check_value_use(v, f, &g->elems[i]);
}

static void group_size_error(px_verifier *v, const px_opnd *o, unsigned pos, const char *what,
                             unsigned count, unsigned given)
{
	if (count == 1) /* "needs 1 values" would misread */
		px_error(v->d, o->loc, PX_D_group_one, pos, what, given);
	else
		px_error(v->d, o->loc, PX_D_group_count, pos, what, count, given);
}

/* Element i of a ( ) group: a value, a literal or a special register, never
 * an address, a symbol or a label (PTX's { } vector holds registers and
 * immediates); the names inside such an element are still checked. */
static void check_element(px_verifier *v, px_func *f, const px_node *n, const px_opnd *e, unsigned i,
                          const px_opnd_def *def, int want, unsigned pos, const char *what)
{
	static const char *const fix[] = {
		[PX_O_ADDR] = "load the value with ld and write the loaded value",
		[PX_O_SYM] = "take its address with mov (%a:u64 = mov @name) and write that value",
		[PX_O_LABEL] = "write a value",
	};
	if (e->kind != PX_O_ADDR && e->kind != PX_O_SYM && e->kind != PX_O_LABEL) {
		check_scalar(v, f, e, def, want, pos, what);
		return;
	}
	px_error(v->d, e->loc, PX_D_group_elem_kind, i + 1, pos, what, kind_text(e), fix[e->kind]);
	if (e->kind == PX_O_ADDR)
		check_address(v, f, n, e);
	else if (e->kind == PX_O_SYM)
		check_symbol(v, f, e);
}

/* One literal for lanes of a packed operand: each lane takes its value,
 * rounded once into the lane's own format (or, an integer lane, as it is). A
 * bit-pattern literal is one lane's bits or the whole register's. */
static void check_lane_literal(px_verifier *v, const px_opnd *o, const px_lanes *ln, bool whole_ok)
{
	char lane[16], all[16];
	snprintf(lane, sizeof lane, "%.*s", (int)ln->name_len, ln->name);
	snprintf(all, sizeof all, "%.*sx%u", (int)ln->name_len, ln->name, ln->n);
	int8_t dir = o->fdir;
	double val = 0;
	switch (o->kind) {
	case PX_O_INT:
		if (ln->int_type) {
			if (!int_fits(o->ival, ln->int_type))
				px_error(v->d, o->loc, PX_D_int_range, (long long)o->ival, lane);
			return;
		}
		val = px_fp_from_int(o->ival, &dir);
		break;
	case PX_O_FLOAT:
		if (ln->int_type) {
			px_error(v->d, o->loc, PX_D_float_literal_type, lane);
			return;
		}
		val = o->fval;
		break;
	case PX_O_FBITS:
		if (o->fwidth != ln->width && (!whole_ok || o->fwidth != ln->n * ln->width))
			px_error(v->d, o->loc, PX_D_lane_fbits, o->fwidth == 32 ? "0f" : "0d", lane, all);
		return;
	default:
		return;
	}
	const char *s;
	int n;
	if (!isfinite(val)) { /* written inf or nan */
		if (!px_fp_holds((enum px_fp_fmt)ln->fmt, val)) {
			n = px_literal_text(v, o->loc, &s);
			px_error(v->d, o->loc, PX_D_lane_nonfinite, n, s, lane, isnan(val) ? "NaN" : "infinity");
		}
		return;
	}
	if (px_fp_finite((enum px_fp_fmt)ln->fmt, val, dir))
		return;
	n = px_literal_text(v, o->loc, &s);
	if (ln->fmt == PX_FP_UE8M0)
		px_error(v->d, o->loc, PX_D_lane_ue8m0, n, s);
	else if (ln->fmt >= PX_FP_E4M3) /* the formats with no infinity */
		px_error(v->d, o->loc, PX_D_lane_range, n, s, lane, px_fp_largest((enum px_fp_fmt)ln->fmt));
	else
		px_error(v->d, o->loc, PX_D_float_type_range, n, s, lane);
}

/* A literal where a packed operand goes: one literal for every lane, or a
 * lane literal ( , ) with one literal per lane, lane 0 (the low bits) first.
 * place names the operand for messages. Returns false for anything else (a
 * value), which is checked as usual. */
bool px_check_lanes(px_verifier *v, const px_opnd *o, const px_lanes *ln, const char *place)
{
	if (o->kind == PX_O_INT || o->kind == PX_O_FLOAT || o->kind == PX_O_FBITS) {
		check_lane_literal(v, o, ln, true);
		return true;
	}
	if (o->kind != PX_O_GROUP)
		return false;
	if (o->nelems != ln->n) {
		char lane[16];
		snprintf(lane, sizeof lane, "%.*s", (int)ln->name_len, ln->name);
		px_error(v->d, o->loc, PX_D_lane_count, place, ln->n, lane, o->nelems);
	}
	for (uint32_t i = 0; i < o->nelems; i++) {
		const px_opnd *e = &o->elems[i];
		if (e->kind == PX_O_INT || e->kind == PX_O_FLOAT || e->kind == PX_O_FBITS)
			check_lane_literal(v, e, ln, false);
		else
			px_error(v->d, e->loc, PX_D_lane_elem, i, place,
			         e->kind == PX_O_VALUE || e->kind == PX_O_SREG ? "a value" : kind_text(e), px_types[ln->whole].name);
	}
	return true;
}

static bool check_packed(px_verifier *v, const px_opnd *o, const px_lanes *ln, unsigned pos, const char *what)
{
	char place[64];
	snprintf(place, sizeof place, "operand %u of %s", pos, what);
	return px_check_lanes(v, o, ln, place);
}

/* The elements of a vector are registers of one width (ptxas: "Incompatible
 * elements of vector expression"): a narrow load or store into or from wider
 * values (PX_OPND_WIDER) widens them all alike. A u8 and a u16 share the
 * 16-bit class. place names the items. */
static unsigned reg_width(int t) { return px_regclasses[px_types[t].regclass].width; }

static void one_width(px_verifier *v, const px_func *f, const px_opnd *e, unsigned n, const char *place)
{
	const px_opnd *first = NULL;
	int ft = 0;
	for (unsigned i = 0; i < n; i++) {
		int t = e[i].kind != PX_O_VALUE ? 0 : e[i].decl_type ? e[i].decl_type : f->values[e[i].id].type;
		if (t && !first) {
			first = &e[i];
			ft = t;
		} else if (t && reg_width(t) != reg_width(ft)) {
			const px_value *a = &f->values[first->id], *b = &f->values[e[i].id];
			px_error(v->d, e[i].loc, PX_D_vector_widths, place, (int)b->name.n, b->name.s, px_types[t].name,
			         (int)a->name.n, a->name.s, px_types[ft].name);
			return;
		}
	}
}

/* A group operand: a ( ) group or an array value of the group's size; a group
 * of one may also be written as its one value (stmatrix.x1 [p], %r). */
static void check_group(px_verifier *v, px_func *f, const px_node *n, const px_opnd *o, const px_opnd_def *def, int want,
                        unsigned count, unsigned pos, const char *what, const px_lanes *ln)
{
	if (o->kind == PX_O_GROUP) {
		if (o->nelems != count)
			group_size_error(v, o, pos, what, count, o->nelems);
		if (def->flags & PX_OPND_WIDER) {
			char place[64];
			snprintf(place, sizeof place, "operand %u of %s", pos, what);
			one_width(v, f, o->elems, o->nelems, place);
		}
		/* a decimal element is the number of the value the group moves
		 * (st.v2.b16 of (1.0, %h) with %h an f16) */
		int lit = px_literal_type(f, n, def);
		for (uint32_t i = 0; i < o->nelems; i++)
			if (!ln || !check_packed(v, &o->elems[i], ln, pos, what))
				check_element(v, f, n, &o->elems[i], i, def, o->elems[i].kind == PX_O_FLOAT ? lit : want,
				              pos, what);
		return;
	}
	if (o->kind == PX_O_VALUE && o->elem < 0 && f->values[o->id].count) {
		check_scalar(v, f, o, def, want, pos, what);
		if (f->values[o->id].count != count)
			group_size_error(v, o, pos, what, count, f->values[o->id].count);
		return;
	}
	if (count == 1 && !(ln && check_packed(v, o, ln, pos, what)))
		check_scalar(v, f, o, def, want, pos, what);
	else if (count != 1)
		group_size_error(v, o, pos, what, count, 1u);
}

/* An operand item against its definition: groups, addresses, labels, symbols. */
static void check_use(px_verifier *v, px_func *f, const px_node *n, const px_opnd *o,
                      const px_opnd_def *def, unsigned pos, const char *what)
{
	/* a decimal's number (and mov's lanes: %h:f16x2 = mov (0.5, %x)) */
	bool lanes = o->kind == PX_O_GROUP && n->op == &px_ops[PX_OP_mov];
	int want = o->kind == PX_O_FLOAT || lanes ? px_literal_type(f, n, def) : px_opnd_type(def, n->slot);
	if (o->kind == PX_O_SYM)
		check_handle(v, f, n, o, false);
	switch (def->kind) {
	case PX_OK_ADDR: {
		check_address(v, f, n, o);
		check_coords(v, f, n, o, def, pos, what);
		int si = px_slot_find(n->op, PX_SN_space); /* ptxas: immediate addresses only for .local */
		if (o->base->kind == PX_O_INT && si >= 0 && n->slot[si] != PX_TOK_local)
			px_error(v->d, o->base->loc, PX_D_imm_addr_space);
		return;
	}
	case PX_OK_LABEL:
		return; /* labels are checked when the function ends */
	case PX_OK_SYM:
		check_symbol(v, f, o);
		return;
	default:
		break;
	}
	px_lanes ln;
	bool packed = px_operand_lanes(f, n, def, &ln);
	if (px_opnd_is_group(def, n->slot)) {
		check_group(v, f, n, o, def, want, px_opnd_count(def, n->slot), pos, what, packed ? &ln : NULL);
		return;
	}
	if (packed && check_packed(v, o, &ln, pos, what))
		return;
	if (o->kind == PX_O_VALUE && o->elem < 0 && f->values[o->id].count)
		px_error(v->d, o->loc, PX_D_array_as_scalar, (int)f->values[o->id].name.n, f->values[o->id].name.s);
	check_scalar(v, f, o, def, want, pos, what);
}

/* A result item defines a value; count: the size of the group a whole array
 * fills (0: the item is one register). */
static void define(px_verifier *v, px_func *f, const px_opnd *o, int want, unsigned count, bool wider)
{
	if (o->kind == PX_O_DISCARD || o->kind != PX_O_VALUE)
		return;
	px_value *val = &f->values[o->id];
	uint8_t *st = &v->state[o->id];
	if (o->decl_type) {
		if (*st & PX_VS_TYPED)
			px_error(v->d, o->loc, PX_D_duplicate_def, (int)val->name.n, val->name.s,
			         px_module_line(v->m, val->def_loc));
		*st |= PX_VS_TYPED;
	} else if (o->elem >= 0) {
		check_value_use(v, f, o); /* writing one element needs the array first */
	} else if (!(*st & PX_VS_TYPED)) {
		px_error(v->d, o->loc, PX_D_untyped_def, (int)val->name.n, val->name.s);
		*st |= PX_VS_TYPED;
	}
	*st |= PX_VS_DEF;
	int t = o->decl_type ? o->decl_type : val->type;
	if (t && want && !px_type_fits(t, want) && !(wider && px_type_widens(t, want)))
		px_error(v->d, o->loc, PX_D_result_type, (int)val->name.n, val->name.s, tname(t), tname(want));
	uint32_t vcount = o->elem >= 0 ? 0 : (o->decl_type ? o->decl_count : val->count);
	if (count && vcount && vcount != count)
		px_error(v->d, o->loc, PX_D_result_count_mismatch, (int)val->name.n, val->name.s, vcount, count);
}

void px_define_results(px_verifier *v, px_func *f, const px_node *n, const px_opnd_def *defs, unsigned ndefs)
{
	unsigned it = 0;
	for (unsigned d = 0; d < ndefs && it < n->nres; d++) {
		unsigned count = defs ? px_opnd_count(&defs[d], n->slot) : 1;
		bool group = defs && px_opnd_is_group(&defs[d], n->slot);
		int want = defs ? px_opnd_type(&defs[d], n->slot) : 0;
		const px_opnd *o = &n->res[it];
		bool whole = o->kind == PX_O_VALUE && o->elem < 0 && (o->decl_count || f->values[o->id].count);
		unsigned take = count > 1 && !whole ? count : 1;
		bool wider = defs[d].flags & PX_OPND_WIDER;
		if (wider && take > 1) {
			char place[64];
			snprintf(place, sizeof place, "the results of %s", n->op->name);
			one_width(v, f, &n->res[it], take < n->nres - it ? take : n->nres - it, place);
		}
		for (unsigned k = 0; k < take && it < n->nres; k++)
			define(v, f, &n->res[it++], want, group && whole ? count : 0, wider);
	}
	for (; it < n->nres; it++) /* unmatched results still define their values */
		define(v, f, &n->res[it], 0, 0, false);
}

/* brx.idx with a literal index: PTX leaves a jump past the list undefined,
 * so the index must name an entry of the list written with it. */
static void check_brx_index(px_verifier *v, const px_node *n)
{
	if (n->op != &px_ops[PX_OP_brx_idx] || n->nops < 2 || n->ops[0].kind != PX_O_INT || n->ops[1].kind != PX_O_GROUP)
		return;
	const px_opnd *i = &n->ops[0];
	uint32_t count = n->ops[1].nelems;
	if (i->ival >= 0 && (uint64_t)i->ival < count)
		return;
	px_error(v->d, i->loc, PX_D_brx_index_range, (long long)i->ival, count, count);
}

void px_check_operands(px_verifier *v, px_func *f, px_node *n)
{
	check_brx_index(v, n);
	unsigned nr, no;
	const px_opnd_def *r = px_var_results(n->op, n->var, &nr);
	const px_opnd_def *o = px_var_operands(n->op, n->var, &no);
	const char *what = n->op->name;
	for (unsigned i = 0; i < n->nops && i < no; i++)
		check_use(v, f, n, &n->ops[i], &o[i], i + 1, what);
	px_define_results(v, f, n, r, nr);
}

/* Whether an operand is an integer of the table's allowed set (`allowed:`). */
bool px_int_allowed(const px_opnd *o, const int32_t *vals, unsigned n)
{
	for (unsigned i = 0; o->kind == PX_O_INT && i < n; i++)
		if (o->ival == vals[i])
			return true;
	return false;
}

/* The allowed set as a message reads it: "1 or -1", "4, 8 or 16" (after
 * "a predicate, " when a predicate register is allowed too). */
const char *px_allowed_text(char *buf, size_t cap, bool pred, const int32_t *vals, unsigned n)
{
	size_t at = (size_t)snprintf(buf, cap, "%s", pred ? "a predicate, " : "");
	for (unsigned i = 0; i < n && at < cap; i++)
		at += (size_t)snprintf(buf + at, cap - at, "%s%d", !i ? "" : i + 1 == n ? " or " : ", ", (int)vals[i]);
	return buf;
}
