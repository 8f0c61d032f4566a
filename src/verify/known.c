/* What is known of each value of a function (verify/known.h). */
#include "verify/known.h"

#include <stdlib.h>

#include "tables/tables.h"
#include "verify/align.h"

static const px_known nothing = {.mod = 1};

/* The lowest set bit of c, the largest power of two it is a multiple of
 * (PX_KNOWN_MOD for 0, a multiple of anything). */
static uint32_t low_bit(uint64_t c)
{
	uint64_t b = c & -c;
	return !c || b >= PX_KNOWN_MOD ? PX_KNOWN_MOD : (uint32_t)b;
}

static px_known exact_int(int64_t c)
{
	return (px_known){.exact = true, .off = c, .mod = PX_KNOWN_MOD, .rem = (uint32_t)c & (PX_KNOWN_MOD - 1)};
}

uint64_t px_known_var_bytes(const px_known_fn *k, px_str name)
{
	const px_local *l = px_func_local(k->f, name);
	if (l)
		return l->count * ((px_types[l->type].width + 7u) / 8u);
	const px_global *g = px_global_named(k->m, name);
	if (!g || g->unsized || g->handle)
		return 0;
	return (g->is_array ? g->count : 1) * ((px_types[g->type].width + 7u) / 8u);
}

uint32_t px_known_var_align(const px_known_fn *k, px_str name)
{
	const px_local *l = px_func_local(k->f, name);
	if (l) {
		unsigned size = (px_types[l->type].width + 7u) / 8u;
		return l->align ? l->align : size ? size : 1;
	}
	const px_global *g = px_global_named(k->m, name);
	return g && !g->handle ? px_symbol_align(g) : 0;
}

static px_known of_var(const px_known_fn *k, const px_opnd *sym)
{
	return px_known_var_align(k, sym->sym) ? (px_known){.var = sym, .exact = true, .mod = PX_KNOWN_MOD} : nothing;
}

void px_known_residue(const px_known_fn *k, const px_known *x, uint32_t *mod, uint32_t *rem)
{
	uint32_t a = x->var ? px_known_var_align(k, x->var->sym) : PX_KNOWN_MOD;
	*mod = a < x->mod ? a : x->mod;
	*rem = x->rem & (*mod - 1);
}

static px_known of_opnd(const px_known_fn *k, const px_opnd *o)
{
	if (o->kind == PX_O_INT)
		return exact_int(o->ival);
	if (o->kind == PX_O_SYM)
		return of_var(k, o);
	if (o->kind == PX_O_VALUE && o->elem < 0)
		return k->v[o->id];
	return nothing;
}

/* The value kept in a register of width bits: an exact integer wraps (read
 * back signed, as a 32-bit address offset wraps), a residue modulo more
 * than the register holds is known modulo its width only. */
static px_known fit(px_known x, unsigned width)
{
	if (!width || width >= 64)
		return x;
	if (x.exact && !x.var) {
		uint64_t m = (1ull << width) - 1, u = (uint64_t)x.off & m;
		x.off = (int64_t)(u ^ (1ull << (width - 1))) - (int64_t)(1ull << (width - 1));
	}
	if (width < 31 && x.mod > (1u << width)) {
		x.mod = 1u << width;
		x.rem &= x.mod - 1;
	}
	return x;
}

static uint32_t min_mod(uint32_t a, uint32_t b) { return a < b ? a : b; }

static px_known add(px_known a, px_known b, bool negate_b)
{
	if ((a.var && b.var) || (negate_b && b.var))
		return nothing;
	px_known r = {.var = a.var ? a.var : b.var, .exact = a.exact && b.exact, .mod = min_mod(a.mod, b.mod)};
	r.off = (int64_t)(negate_b ? (uint64_t)a.off - (uint64_t)b.off : (uint64_t)a.off + (uint64_t)b.off);
	r.rem = (negate_b ? a.rem - b.rem : a.rem + b.rem) & (r.mod - 1);
	return r;
}

/* a * b for integers: exact when both are; else b exact (x = qM + r, so
 * x c = q M c + r c), known modulo M times c's lowest bit; else multiples of
 * M and N make a multiple of M N. */
static px_known mul(px_known a, px_known b)
{
	if (a.var || b.var)
		return nothing;
	if (a.exact && b.exact)
		return exact_int((int64_t)((uint64_t)a.off * (uint64_t)b.off));
	if (a.exact) {
		px_known t = a;
		a = b;
		b = t;
	}
	if (b.exact) {
		uint64_t mod = (uint64_t)a.mod * low_bit((uint64_t)b.off);
		px_known r = {.mod = mod >= PX_KNOWN_MOD ? PX_KNOWN_MOD : (uint32_t)mod};
		r.rem = (uint32_t)((uint64_t)a.rem * (uint64_t)b.off) & (r.mod - 1);
		return r;
	}
	if (a.rem || b.rem)
		return nothing;
	uint64_t mod = (uint64_t)a.mod * b.mod;
	return (px_known){.mod = mod >= PX_KNOWN_MOD ? PX_KNOWN_MOD : (uint32_t)mod};
}

static px_known shl(px_known a, px_known b)
{
	if (a.var || !b.exact || b.var || b.off < 0 || b.off > 30)
		return nothing;
	return mul(a, exact_int(1ll << b.off));
}

/* x & c: the bits below c's lowest set bit are 0, those below x's modulus
 * are rem's under c's. */
static px_known and_mask(px_known a, px_known b)
{
	if (a.exact && !a.var) {
		px_known t = a;
		a = b;
		b = t;
	}
	if (!b.exact || b.var || a.var)
		return nothing;
	if (a.exact)
		return exact_int(a.off & b.off);
	uint32_t low = low_bit((uint64_t)b.off);
	px_known r = {.mod = a.mod > low ? a.mod : low};
	r.rem = a.rem & (uint32_t)b.off & (r.mod - 1);
	return r;
}

/* What n's single result holds. */
static px_known of_node(const px_known_fn *k, const px_node *n)
{
	const px_op_def *op = n->op;
	px_known a = n->nops > 0 ? of_opnd(k, &n->ops[0]) : nothing;
	px_known b = n->nops > 1 ? of_opnd(k, &n->ops[1]) : nothing;
	int mi = px_slot_find(op, PX_SN_mode);
	unsigned mode = mi < 0 ? 0 : px_slot_tok(op, n->slot, (unsigned)mi);
	bool low = mode != PX_TOK_hi; /* mul.lo, mul.wide: the product's low bits */
	if ((op == &px_ops[PX_OP_mov] || op == &px_ops[PX_OP_cvta] || op == &px_ops[PX_OP_cvt]) && n->nops == 1)
		return a;
	if (op == &px_ops[PX_OP_add] && n->nops == 2)
		return add(a, b, false);
	if (op == &px_ops[PX_OP_sub] && n->nops == 2)
		return add(a, b, true);
	if (op == &px_ops[PX_OP_shl] && n->nops == 2)
		return shl(a, b);
	if (op == &px_ops[PX_OP_and] && n->nops == 2)
		return and_mask(a, b);
	if (op == &px_ops[PX_OP_mul] && n->nops == 2 && low)
		return mul(a, b);
	if (op == &px_ops[PX_OP_mad] && n->nops == 3 && low)
		return add(mul(a, b), of_opnd(k, &n->ops[2]), false);
	return nothing;
}

void px_known_build(px_known_fn *k, const px_module *m, const px_func *f)
{
	*k = (px_known_fn){.m = m, .f = f};
	k->ndefs = calloc(f->nvalues + 1, sizeof *k->ndefs);
	k->def = calloc(f->nvalues + 1, sizeof *k->def);
	k->v = malloc((f->nvalues + 1) * sizeof *k->v);
	if (!k->ndefs || !k->def || !k->v)
		abort();
	for (uint32_t i = 0; i <= f->nvalues; i++)
		k->v[i] = nothing;
	for (const px_node *n = f->first; n; n = n->next)
		for (uint32_t r = 0; r < n->nres; r++)
			if (n->res[r].kind == PX_O_VALUE && k->ndefs[n->res[r].id] < 2) {
				k->ndefs[n->res[r].id]++;
				k->def[n->res[r].id] = n;
			}
	for (uint32_t i = 0; i < f->nparams; i++) {
		uint32_t id = f->params[i].value;
		if (id < f->nvalues && !k->ndefs[id] && f->params[i].align)
			k->v[id] = (px_known){.mod = f->params[i].align};
	}
	for (const px_node *n = f->first; n; n = n->next) {
		if (n->kind != PX_N_INST || !n->op || n->nres != 1 || n->res[0].kind != PX_O_VALUE ||
		    n->res[0].elem >= 0)
			continue;
		uint32_t id = n->res[0].id;
		const px_value *val = &f->values[id];
		if (k->ndefs[id] != 1 || val->count)
			continue;
		px_known x = fit(of_node(k, n), px_types[val->type].width);
		unsigned lg = (n->flags & PX_NF_align) >> PX_NF_align_SHIFT;
		if (lg && !x.exact && (1u << lg) > x.mod) /* {align = N}: what the writer knows */
			x = (px_known){.mod = 1u << lg};
		k->v[id] = x;
	}
}

void px_known_free(px_known_fn *k)
{
	free(k->ndefs);
	free(k->def);
	free(k->v);
}

bool px_known_addr(const px_known_fn *k, const px_opnd *o, px_known *out)
{
	if (o->kind != PX_O_ADDR || px_addr_idx(o) || !o->base)
		return false;
	px_known b = of_opnd(k, o->base);
	if (b.mod == 1 && !b.exact && !b.var)
		return false;
	*out = add(b, exact_int(o->off), false);
	return true;
}

uint64_t px_access_bytes(const px_node *n)
{
	int ti = px_slot_find(n->op, PX_SN_type), vi = px_slot_find(n->op, PX_SN_vec);
	unsigned tok = ti < 0 ? 0 : px_slot_tok(n->op, n->slot, (unsigned)ti);
	if (!tok || !px_tok_types[tok])
		return 0;
	uint64_t bytes = (px_types[px_tok_types[tok]].width + 7u) / 8u;
	unsigned vec = vi < 0 ? 0 : px_slot_tok(n->op, n->slot, (unsigned)vi);
	return bytes * (vec == PX_TOK_v2 ? 2 : vec == PX_TOK_v4 ? 4 : vec == PX_TOK_v8 ? 8 : 1);
}

/* Notes on value id and, below it, the values known exactly that its
 * statement reads, each at its definition: where what the check used came
 * from. depth bounds the walk up the statements. */
void px_known_notes(const px_known_fn *k, px_diags *d, uint32_t id, unsigned depth)
{
	const px_value *val = &k->f->values[id];
	const px_known *x = &k->v[id];
	if (x->exact && x->var)
		px_note(d, val->def_loc, PX_D_bounds_from, (int)val->name.n, val->name.s, (int)x->var->sym.n,
		        x->var->sym.s, (long long)x->off);
	else if (x->var && x->mod > 1 && x->rem)
		px_note(d, val->def_loc, PX_D_known_var_mod, (int)val->name.n, val->name.s, (int)x->var->sym.n,
		        x->var->sym.s, (unsigned)x->rem, (unsigned)x->mod);
	else if (x->var && x->mod > 1)
		px_note(d, val->def_loc, PX_D_known_var_multiple, (int)val->name.n, val->name.s, (int)x->var->sym.n,
		        x->var->sym.s, (unsigned)x->mod);
	else if (x->exact)
		px_note(d, val->def_loc, PX_D_known_int, (int)val->name.n, val->name.s, (long long)x->off);
	else if (x->mod > 1 && x->rem)
		px_note(d, val->def_loc, PX_D_known_mod, (int)val->name.n, val->name.s, (unsigned)x->rem,
		        (unsigned)x->mod);
	else if (x->mod > 1)
		px_note(d, val->def_loc, PX_D_known_multiple, (int)val->name.n, val->name.s, (unsigned)x->mod);
	const px_node *n = k->ndefs[id] == 1 ? k->def[id] : NULL;
	if (!depth || !n || n->kind != PX_N_INST)
		return;
	for (uint32_t i = 0; i < n->nops; i++) {
		const px_opnd *o = &n->ops[i];
		if (o->kind == PX_O_VALUE && o->elem < 0 && o->id != id && k->v[o->id].exact && !k->v[o->id].var)
			px_known_notes(k, d, o->id, depth - 1);
	}
}
