/* The types IR operands show, read through the tables (the verifier infers
 * empty type slots from them and the selector prints literals by them), and
 * the state space a variable's name addresses. */
#include <stdlib.h>
#include <string.h>

#include "front/optype.h"
#include "tables/query.h"
#include "util/fp.h"

int px_opnd_value_type(const px_func *f, const px_opnd *o, bool is_result)
{
	switch (o->kind) {
	case PX_O_VALUE:
		if (is_result && o->decl_type)
			return o->decl_type;
		return f->values[o->id].type;
	case PX_O_SREG:
		return px_sregs[o->id].type;
	case PX_O_GROUP:
		/* a group's type is its first typed element's: (0, %a, %b, %c)
		 * stores %a's type, the literal taking it too */
		for (uint32_t i = 0; i < o->nelems; i++) {
			int t = px_opnd_value_type(f, &o->elems[i], false);
			if (t)
				return t;
		}
		return 0;
	default:
		return 0;
	}
}

/* The type a source position shows for slot si, undoing a derived width
 * (mul.wide's result is twice its type). */
int px_source_type(const px_func *f, const px_node *n, int src, unsigned si, px_loc *loc)
{
	const px_op_def *op = n->op;
	const px_opnd_def *def;
	const px_opnd *o;
	if (src >= PX_SRC_OPERAND) {
		unsigned i = (unsigned)(src - PX_SRC_OPERAND);
		if (i >= n->nops || i >= op->noperands)
			return 0;
		o = &n->ops[i];
		def = &op->operands[i];
	} else {
		unsigned i = (unsigned)src;
		if (i >= n->nres || i >= op->nresults)
			return 0;
		o = &n->res[i];
		def = &op->results[i];
	}
	int t = px_opnd_value_type(f, o, src < PX_SRC_OPERAND);
	*loc = o->loc;
	if (!t || def->type_slot != (int)si || def->derive == PX_DERIVE_NONE)
		return t;
	unsigned want = def->derive == PX_DERIVE_WIDE ? px_types[t].width / 2 : px_types[t].width * 2;
	for (unsigned k = 1; k < px_ntypes; k++)
		if (px_types[k].kind == px_types[t].kind && px_types[k].width == want)
			return (int)k;
	return 0;
}

/* The type a decimal literal operand stands for. A type slot of an op moving
 * an f16 or bf16 value holds .b16 (mov, selp: PTX has no mov.f16 immediate),
 * inferred or written: the literal is that value's number, not an integer;
 * the same for a packed f16x2, bf16x2 or f32x2 value in a .b32 or .b64 slot. */
static inline bool tok_lanes(unsigned tok, px_lanes *out);

int px_literal_type(const px_func *f, const px_node *n, const px_opnd_def *def)
{
	int want = px_opnd_type(def, n->slot);
	px_lanes ln;
	/* mov packing lanes into a packed value (%h:f16x2 = mov (0.5, %x)): an
	 * element is one lane */
	if (n->op == &px_ops[PX_OP_mov] && (def->flags & PX_OPND_GROUP) && n->nres && want &&
	    tok_lanes(px_types[px_opnd_value_type(f, &n->res[0], true)].token, &ln) && ln.fmt != PX_FP_NONE &&
	    ln.width == px_types[want].width)
		return px_type_lookup(ln.name, ln.name_len);
	if (def->type_slot < 0 || def->derive != PX_DERIVE_NONE || !want || px_types[want].kind != PX_KIND_BIT)
		return want;
	const px_slot_def *s = &n->op->slots[def->type_slot];
	for (unsigned k = 0; k < 4 && s->infer[k] != PX_SRC_END; k++) {
		px_loc loc;
		int t = px_source_type(f, n, s->infer[k], (unsigned)def->type_slot, &loc);
		if (!t)
			continue;
		if (px_types[t].kind == PX_KIND_FLOAT && px_types[t].width == px_types[want].width)
			return t; /* f16, bf16, and the packed f16x2, bf16x2, f32x2 */
		break;
	}
	return want;
}

/* A token spelled <lane>x<n> (f16x2, s16x2, e4m3x2, e2m1x4) as lanes, where
 * the lane names a float format or an integer type. */
static bool lanes_named(unsigned tok, unsigned count, px_lanes *out)
{
	const char *name = px_tok_names[tok];
	size_t n = (size_t)(strrchr(name, 'x') - name);
	enum px_fp_fmt fmt = px_fp_fmt_named(name, n);
	int it = fmt == PX_FP_NONE ? px_type_lookup(name, n) : 0;
	if (fmt == PX_FP_NONE && (!it || (px_types[it].kind != PX_KIND_UINT && px_types[it].kind != PX_KIND_SINT)))
		return false;
	out->n = (uint8_t)count;
	out->fmt = (int8_t)fmt;
	out->int_type = (uint16_t)it;
	out->width = (uint8_t)(fmt != PX_FP_NONE ? px_fp_width(fmt) : px_types[it].width);
	out->name = name;
	out->name_len = (uint8_t)n;
	return true;
}

/* Which tokens are spelled so the tables say (px_tok_lanes): nearly every
 * operand asks, and nearly every token is not. A type asks with its token. */
static inline bool tok_lanes(unsigned tok, px_lanes *out)
{
	return px_tok_lanes[tok] && lanes_named(tok, px_tok_lanes[tok], out);
}

/* A bit type of the given width: the type a packed operand's bits move as. */
static uint16_t bits_type(unsigned width)
{
	for (unsigned k = 1; k < px_ntypes; k++)
		if (px_types[k].kind == PX_KIND_BIT && px_types[k].width == width)
			return (uint16_t)k;
	return 0;
}

bool px_operand_lanes(const px_func *f, const px_node *n, const px_opnd_def *def, px_lanes *out)
{
	if (def->kind != PX_OK_VALUE && def->kind != PX_OK_REG)
		return false;
	int t = px_literal_type(f, n, def);
	if (!t)
		return false;
	bool found = tok_lanes(px_types[t].token, out);
	/* an operand of a bit type whose lanes the op's type token names (max.s16x2
	 * on b32, cvt's .e4m3x2 source in a b16): the token of its own slot, else
	 * the one type slot whose lanes fill exactly its width */
	if (def->type_slot >= 0 && !found)
		found = n->slot[def->type_slot] && tok_lanes(n->slot[def->type_slot], out);
	for (unsigned i = 0; !found && px_types[t].kind == PX_KIND_BIT && i < n->op->nslots; i++)
		found = (n->op->slots[i].flags & PX_SLOT_TYPE) && n->slot[i] &&
		        tok_lanes(n->slot[i], out) && out->n * out->width == px_types[t].width;
	if (!found || out->n < 2 || out->n * out->width != px_types[t].width)
		return false;
	out->whole = bits_type(px_types[t].width);
	return true;
}

bool px_type_lanes(int type, px_lanes *out)
{
	if (!tok_lanes(px_types[type].token, out))
		return false;
	out->whole = bits_type(px_types[type].width);
	return true;
}

/* One lane's bits: an integer as it is, a decimal rounded once into the
 * lane's format, a bit pattern as written. */
static uint64_t lane_bits(const px_opnd *o, const px_lanes *ln)
{
	if (o->kind == PX_O_FBITS)
		return o->bits;
	if (o->kind != PX_O_FLOAT && ln->int_type)
		return (uint64_t)o->ival;
	int8_t dir = o->fdir;
	double v = o->kind == PX_O_FLOAT ? o->fval : px_fp_from_int(o->kind == PX_O_INT ? o->ival : 0, &dir);
	return px_fp_bits((enum px_fp_fmt)ln->fmt, v, dir);
}

uint64_t px_lanes_bits(const px_opnd *o, const px_lanes *ln)
{
	unsigned all = (unsigned)ln->n * ln->width;
	if (o->kind == PX_O_FBITS && o->fwidth == all)
		return o->bits;
	uint64_t mask = ln->width == 64 ? ~0ull : (1ull << ln->width) - 1, bits = 0;
	for (unsigned i = 0; i < ln->n; i++) {
		const px_opnd *e = o->kind != PX_O_GROUP ? o : i < o->nelems ? &o->elems[i] : NULL;
		bits |= e ? (lane_bits(e, ln) & mask) << (i * ln->width) : 0;
	}
	return bits;
}

/* The tag of a variable's address (its own window): one of f's local arrays
 * (looked up first: the body's name hides a module's) or a module variable;
 * unknown for a function. */
uint8_t px_sym_space(const px_module *m, const px_func *f, px_str name)
{
	if (f && px_func_local(f, name))
		return PX_SP_IN(PX_AS_LOCAL);
	uint32_t e = px_module_sym(m, name);
	if (e == PX_STRMAP_NONE || (e & 1) || m->globals[e >> 1].handle)
		return PX_SP_UNKNOWN; /* a texref or surfref variable is a handle, not memory */
	static const uint8_t of[] = {[PX_SPACE_GLOBAL] = PX_AS_GLOBAL, [PX_SPACE_CONST] = PX_AS_CONST,
	                             [PX_SPACE_SHARED] = PX_AS_SHARED};
	return PX_SP_IN(of[m->globals[e >> 1].space]);
}

bool px_space_is_window(uint8_t t)
{
	if (t <= PX_SP_UNKNOWN || (t & (PX_SP_GEN | PX_SP_MIXED)))
		return false;
	unsigned sp = PX_SP_SPACE(t);
	return sp == PX_AS_SHARED || sp == PX_AS_CONST || sp == PX_AS_LOCAL;
}
