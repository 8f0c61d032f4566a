/* Concrete values (see concrete.h): a value's kind is found once, from its
 * definition's operands, and bounded in height so that an evaluation's
 * recursion is; the evaluation does what the machine does, in the width and
 * signedness the statement names. */
#include "verify/analysis/concrete.h"

#include "tables/tables.h"

/* HEIGHT: the longest chain of definitions a concrete value rests on. */
enum { HEIGHT = 48 };

static unsigned slot(const px_node *n, unsigned name)
{
	int i = px_slot_find(n->op, name);
	return i < 0 ? 0 : px_slot_tok(n->op, n->slot, (unsigned)i);
}

static bool is_op(const px_node *n, unsigned op) { return n->op == &px_ops[op]; }

static bool is_int(unsigned t)
{
	unsigned k = t ? px_types[t].kind : PX_KIND_NONE;
	return k == PX_KIND_BIT || k == PX_KIND_UINT || k == PX_KIND_SINT || k == PX_KIND_PTR;
}

/* A value a concrete one may be: an integer, or a predicate (a selp's). */
static bool is_scalar(unsigned t)
{
	return is_int(t) || (t && px_types[t].kind == PX_KIND_PRED);
}

/* The operations followed, each with the operands it reads. */
static bool followed(const px_node *n)
{
	static const unsigned ops[] = {PX_OP_mov, PX_OP_cvt, PX_OP_add, PX_OP_sub, PX_OP_neg, PX_OP_mul,
	                               PX_OP_mad, PX_OP_shl, PX_OP_shr, PX_OP_div, PX_OP_rem, PX_OP_and,
	                               PX_OP_or,  PX_OP_xor, PX_OP_not, PX_OP_min, PX_OP_max, PX_OP_selp,
	                               PX_OP_setp};
	for (unsigned i = 0; i < sizeof ops / sizeof *ops; i++)
		if (is_op(n, ops[i]))
			return (!is_op(n, PX_OP_mul) && !is_op(n, PX_OP_mad)) || slot(n, PX_SN_mode) != PX_TOK_hi;
	return false;
}

void px_concrete_init(px_concrete *c, const px_values *va, px_arena *a)
{
	uint32_t nv = va->f->nvalues + 1;
	*c = (px_concrete){.va = va};
	c->kind = px_arena_calloc(a, nv, 1);
	c->height = px_arena_calloc(a, nv, 1);
	c->ticket = px_arena_calloc(a, nv, sizeof *c->ticket);
}

/* An operand's kind and height: a literal and a thread index are pure, of
 * height 0; *ticket becomes the ticket a value rests on. */
static unsigned opnd_kind(px_concrete *c, const px_opnd *o, unsigned depth, unsigned *height, uint32_t *ticket);

static unsigned kind_at(px_concrete *c, uint32_t id, unsigned depth)
{
	if (c->kind[id])
		return c->kind[id];
	if (depth > HEIGHT)
		return PX_CONC_NONE;
	const px_values *va = c->va;
	const px_node *d = va->def[id];
	unsigned k = PX_CONC_NONE, h = 0;
	uint32_t ticket = 0;
	if (d && !d->has_guard && d->kind == PX_N_INST && d->op && is_scalar(va->f->values[id].type)) {
		if (is_op(d, PX_OP_atom) && slot(d, PX_SN_kind) == PX_TOK_add && d->nops == 2 && d->nres == 1) {
			unsigned hh = 0;
			uint32_t t = 0;
			if (opnd_kind(c, &d->ops[1], depth + 1, &hh, &t) == PX_CONC_PURE)
				k = PX_CONC_TICKET, h = hh + 1, ticket = id;
		} else if (followed(d)) {
			k = PX_CONC_PURE;
			for (uint32_t i = 0; i < d->nops && k != PX_CONC_NONE; i++) {
				unsigned hh = 0;
				uint32_t t = 0;
				unsigned ok = opnd_kind(c, &d->ops[i], depth + 1, &hh, &t);
				if (ok == PX_CONC_NONE || (t && ticket && t != ticket))
					k = PX_CONC_NONE;
				else if (t)
					k = PX_CONC_TICKET, ticket = t;
				h = hh + 1 > h ? hh + 1 : h;
			}
		}
	}
	if (h > HEIGHT)
		k = PX_CONC_NONE;
	c->kind[id] = (uint8_t)k;
	c->height[id] = (uint8_t)h;
	c->ticket[id] = k == PX_CONC_TICKET ? ticket : 0;
	return k;
}

static unsigned opnd_kind(px_concrete *c, const px_opnd *o, unsigned depth, unsigned *height, uint32_t *ticket)
{
	*height = 0;
	*ticket = 0;
	if (o->kind == PX_O_INT)
		return PX_CONC_PURE;
	if (o->kind == PX_O_SREG) {
		px_aff a = px_value_form(c->va, o);
		if (!a.known || a.base)
			return PX_CONC_NONE;
		for (unsigned i = 0; i < a.nterms; i++)
			if (a.var[i] >= PX_VV_NTHREAD)
				return PX_CONC_NONE;
		return PX_CONC_PURE;
	}
	if (o->kind != PX_O_VALUE || o->elem >= 0 || o->neg)
		return PX_CONC_NONE;
	unsigned k = kind_at(c, o->id, depth);
	*height = c->height[o->id];
	*ticket = c->ticket[o->id];
	return k;
}

unsigned px_concrete_kind(px_concrete *c, uint32_t id)
{
	return kind_at(c, id, 0);
}

const px_node *px_ticket_def(const px_concrete *c, uint32_t id)
{
	return c->va->def[c->ticket[id]];
}

/* v as a value of width bits, signed or not. */
static int64_t fit(int64_t v, unsigned width, bool is_signed)
{
	if (width >= 64 || !width)
		return v;
	uint64_t m = ((uint64_t)1 << width) - 1, u = (uint64_t)v & m;
	if (is_signed && (u >> (width - 1) & 1))
		u |= ~m;
	return (int64_t)u;
}

static bool eval(px_concrete *c, uint32_t id, const int64_t *t, int64_t *out);

static bool opnd_at(px_concrete *c, const px_opnd *o, const int64_t *t, int64_t *out)
{
	if (o->kind == PX_O_INT) {
		*out = o->ival;
		return true;
	}
	if (o->kind == PX_O_SREG) {
		px_aff a = px_value_form(c->va, o);
		*out = a.c;
		for (unsigned i = 0; i < a.nterms; i++)
			*out += a.coef[i] * t[a.var[i]];
		return true;
	}
	return eval(c, o->id, t, out);
}

/* The statement's type: its type slot, else its result's. */
static unsigned stmt_type(const px_values *va, const px_node *d)
{
	unsigned tok = slot(d, PX_SN_type);
	unsigned ty = tok ? px_tok_types[tok] : 0;
	return ty ? ty : va->f->values[d->res[0].id].type;
}

static bool compute(px_concrete *c, const px_node *d, const int64_t *t, int64_t *out)
{
	const px_values *va = c->va;
	int64_t v[3] = {0, 0, 0};
	unsigned ty = stmt_type(va, d);
	unsigned w = px_types[ty].width;
	bool sgn = px_types[ty].kind == PX_KIND_SINT;
	for (uint32_t i = 0; i < d->nops && i < 3; i++) {
		if (!opnd_at(c, &d->ops[i], t, &v[i]))
			return false;
		/* selp's predicate, a shift's amount and a wide mad's addend keep
		 * their own width */
		if (!(is_op(d, PX_OP_selp) && i == 2) && !((is_op(d, PX_OP_shl) || is_op(d, PX_OP_shr)) && i == 1) &&
		    !(is_op(d, PX_OP_mad) && i == 2 && slot(d, PX_SN_mode) == PX_TOK_wide))
			v[i] = fit(v[i], w, sgn);
	}
	uint64_t a = (uint64_t)v[0], b = (uint64_t)v[1];
	if (is_op(d, PX_OP_mov) || is_op(d, PX_OP_cvt))
		*out = v[0];
	else if (is_op(d, PX_OP_add))
		*out = (int64_t)(a + b);
	else if (is_op(d, PX_OP_sub))
		*out = (int64_t)(a - b);
	else if (is_op(d, PX_OP_neg))
		*out = (int64_t)(0 - a);
	else if (is_op(d, PX_OP_mul))
		*out = (int64_t)(a * b);
	else if (is_op(d, PX_OP_mad))
		*out = (int64_t)(a * b + (uint64_t)v[2]);
	else if (is_op(d, PX_OP_shl))
		*out = b >= w ? 0 : (int64_t)(a << b);
	else if (is_op(d, PX_OP_shr))
		*out = b >= w ? (sgn && v[0] < 0 ? -1 : 0)
		       : sgn  ? v[0] >> b
		              : (int64_t)(fit(v[0], w, false) >> b);
	else if (is_op(d, PX_OP_div) || is_op(d, PX_OP_rem)) {
		int64_t x = sgn ? v[0] : fit(v[0], w, false), y = sgn ? v[1] : fit(v[1], w, false);
		if (!y || (sgn && y == -1))
			return false;
		*out = is_op(d, PX_OP_div) ? x / y : x % y;
	} else if (is_op(d, PX_OP_and))
		*out = (int64_t)(a & b);
	else if (is_op(d, PX_OP_or))
		*out = (int64_t)(a | b);
	else if (is_op(d, PX_OP_xor))
		*out = (int64_t)(a ^ b);
	else if (is_op(d, PX_OP_not))
		*out = (int64_t)~a;
	else if (is_op(d, PX_OP_min) || is_op(d, PX_OP_max)) {
		bool less = sgn ? v[0] < v[1] : (uint64_t)fit(v[0], w, false) < (uint64_t)fit(v[1], w, false);
		*out = less == is_op(d, PX_OP_min) ? v[0] : v[1];
	} else if (is_op(d, PX_OP_selp))
		*out = v[2] ? v[0] : v[1];
	else if (is_op(d, PX_OP_setp)) {
		int r = is_int(ty) && d->nops == 2 ? px_value_compare(slot(d, PX_SN_cmp), sgn, w, v[0], v[1]) : -1;
		if (r < 0)
			return false;
		*out = r;
		return true;
	} else
		return false;
	/* a wide multiply's result is twice the operands' width */
	const px_opnd *r = &d->res[0];
	unsigned rt = va->f->values[r->id].type;
	*out = fit(*out, px_types[rt].width, px_types[rt].kind == PX_KIND_SINT);
	return true;
}

static bool eval(px_concrete *c, uint32_t id, const int64_t *t, int64_t *out)
{
	if (++c->work > c->limit)
		return false;
	const px_node *d = c->va->def[id];
	if (c->kind[id] == PX_CONC_TICKET && is_op(d, PX_OP_atom)) {
		*out = 0; /* the value both threads of a pair read */
		return true;
	}
	return compute(c, d, t, out);
}

bool px_concrete_at(px_concrete *c, uint32_t id, const int64_t *thread, int64_t *out)
{
	return px_concrete_kind(c, id) != PX_CONC_NONE && eval(c, id, thread, out);
}

bool px_ticket_zero(px_concrete *c, uint32_t id, const int64_t *thread)
{
	const px_node *d = c->va->def[c->ticket[id]];
	int64_t v;
	if (!opnd_at(c, &d->ops[1], thread, &v))
		return false;
	unsigned ty = stmt_type(c->va, d);
	return fit(v, px_types[ty].width, px_types[ty].kind == PX_KIND_SINT) == 0;
}
