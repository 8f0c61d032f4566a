/* The value analysis (see value.h): one walk in text order gives every value
 * defined once its form (the verifier refuses a read before every definition
 * in the text, so the operands' forms are known by then); which values vary
 * between threads and what the atoms are multiples of are fixed points over
 * the statements, each round reading every statement once. */
#include "verify/analysis/value.h"

#include <stdlib.h>
#include <string.h>

#include "tables/tables.h"
#include "verify/align.h"
#include "verify/analysis/cfg.h"

enum { NO_VAR = 0xff, UNMAPPED = 0xfe, ROUNDS = 64, GUARD_WORK = 1 << 16 };
static const int64_t UNBOUNDED = INT64_MAX / 4;

static void settle(const px_values *va);
static void settle_multiples(const px_values *va);
static uint64_t multiple(const px_values *va, const px_aff *a);
static uint8_t sreg_var(const px_values *va, uint32_t s);
static const px_aff *form_at(const px_values *va, uint32_t id);

static px_aff unknown(void) { return (px_aff){0}; }
static px_aff constant(int64_t c) { return (px_aff){.known = true, .c = c}; }
static px_aff variable(uint32_t v) { return (px_aff){.known = true, .nterms = 1, .var = {v}, .coef = {1}}; }

/* a + k * b (k is 1 or -1, or any factor when b has no base). */
static px_aff combine(px_aff a, px_aff b, int64_t k)
{
	if (!a.known || !b.known)
		return unknown();
	int64_t kc;
	if (!b.base && !b.nterms) { /* a constant (an address's offset): a's terms stay */
		if (__builtin_mul_overflow(b.c, k, &kc) || __builtin_add_overflow(a.c, kc, &a.c))
			return unknown();
		return a;
	}
	px_aff r = {.known = true};
	if (b.base && k == 1 && !a.base)
		r.base = b.base;
	else if (b.base && k == -1 && a.base == b.base)
		r.base = 0;
	else if (b.base)
		return unknown();
	else
		r.base = a.base;
	if (__builtin_mul_overflow(b.c, k, &kc) || __builtin_add_overflow(a.c, kc, &r.c))
		return unknown();
	unsigned i = 0, j = 0;
	while (i < a.nterms || j < b.nterms) {
		uint32_t v;
		int64_t c = 0, t;
		if (j == b.nterms || (i < a.nterms && a.var[i] < b.var[j])) {
			v = a.var[i];
			c = a.coef[i++];
		} else {
			v = b.var[j];
			if (__builtin_mul_overflow(b.coef[j++], k, &t))
				return unknown();
			c = t;
			if (i < a.nterms && a.var[i] == v && __builtin_add_overflow(a.coef[i++], t, &c))
				return unknown();
		}
		if (!c)
			continue;
		if (r.nterms == PX_AFF_TERMS)
			return unknown();
		r.var[r.nterms] = v;
		r.coef[r.nterms++] = c;
	}
	return r;
}

static px_aff scale(px_aff a, int64_t k)
{
	if (!a.known || (a.base && k != 1))
		return unknown();
	return combine(constant(0), a, k);
}

static px_aff product(px_aff a, px_aff b)
{
	if (a.known && !a.nterms && !a.base)
		return scale(b, a.c);
	if (b.known && !b.nterms && !b.base)
		return scale(a, b.c);
	return unknown();
}

bool px_aff_range(const px_values *va, const px_aff *a, const px_box *box, int64_t *lo, int64_t *hi)
{
	if (!a->known)
		return false;
	if (!box)
		box = &va->launch;
	int64_t l = a->c, h = a->c;
	for (unsigned i = 0; i < a->nterms; i++) {
		uint32_t v = a->var[i];
		if (v >= PX_VV_VALUE || box->hi[v] >= UNBOUNDED)
			return false;
		int64_t x = a->coef[i] * box->lo[v], y = a->coef[i] * box->hi[v];
		l += x < y ? x : y;
		h += x < y ? y : x;
	}
	*lo = l;
	*hi = h;
	return true;
}

/* a = 2^k q + r with r in [0, 2^k) over the launch shape: q (or r when
 * want_rest), else unknown. */
static px_aff split(const px_values *va, px_aff a, unsigned k, bool want_rest)
{
	if (!a.known || a.base || k >= 62)
		return unknown();
	int64_t m = (int64_t)1 << k;
	px_aff q = {.known = true}, r = {.known = true};
	q.c = a.c >> k; /* floor */
	r.c = a.c & (m - 1);
	for (unsigned i = 0; i < a.nterms; i++) {
		px_aff *to = a.coef[i] % m == 0 ? &q : &r;
		to->var[to->nterms] = a.var[i];
		to->coef[to->nterms++] = to == &q ? a.coef[i] / m : a.coef[i];
	}
	int64_t lo, hi;
	if (!px_aff_range(va, &r, NULL, &lo, &hi) || lo < 0 || hi >= m)
		return unknown();
	return want_rest ? r : q;
}

static bool is_int_type(unsigned t)
{
	unsigned k = px_types[t].kind;
	return t && (k == PX_KIND_BIT || k == PX_KIND_UINT || k == PX_KIND_SINT || k == PX_KIND_PTR);
}

static unsigned slot(const px_node *n, unsigned name)
{
	int i = px_slot_find(n->op, name);
	return i < 0 ? 0 : px_slot_tok(n->op, n->slot, (unsigned)i);
}

/* The exponent of c when it is a positive power of two, else -1. */
static int log2_of(int64_t c)
{
	return c > 0 && !(c & (c - 1)) ? __builtin_ctzll((unsigned long long)c) : -1;
}

/* The base naming variable name: a module variable's index + 1, or past
 * the module's, a local array's index + 1; 0 when name is no variable. */
static uint32_t var_base(const px_values *va, px_str name)
{
	for (uint32_t i = 0; i < va->f->nlocals; i++)
		if (va->f->locals[i].name.n == name.n && !memcmp(va->f->locals[i].name.s, name.s, name.n))
			return va->m->nglobals + 1 + i;
	uint32_t e = px_module_sym(va->m, name);
	if (e == PX_STRMAP_NONE || (e & 1) || (e >> 1) >= va->m->nglobals)
		return 0;
	return (e >> 1) + 1;
}

px_str px_value_base_name(const px_values *va, uint32_t base)
{
	return base <= va->m->nglobals ? va->m->globals[base - 1].name : va->f->locals[base - 1 - va->m->nglobals].name;
}

uint64_t px_value_base_bytes(const px_values *va, uint32_t base)
{
	if (base > va->m->nglobals) {
		const px_local *l = &va->f->locals[base - 1 - va->m->nglobals];
		return l->count * ((px_types[l->type].width + 7u) / 8u);
	}
	const px_global *g = &va->m->globals[base - 1];
	if (g->unsized || g->handle)
		return 0;
	return (g->is_array ? g->count : 1) * ((px_types[g->type].width + 7u) / 8u);
}

uint32_t px_value_base_align(const px_values *va, uint32_t base)
{
	if (base <= va->m->nglobals)
		return px_symbol_align(&va->m->globals[base - 1]);
	const px_local *l = &va->f->locals[base - 1 - va->m->nglobals];
	unsigned size = (px_types[l->type].width + 7u) / 8u;
	return l->align ? l->align : size ? size : 1;
}

px_aff px_value_form(const px_values *va, const px_opnd *o)
{
	uint32_t g;
	switch (o->kind) {
	case PX_O_INT:
		return constant(o->ival);
	case PX_O_VALUE:
		return o->elem < 0 ? *form_at(va, o->id) : unknown();
	case PX_O_SYM:
		if (!(g = var_base(va, o->sym)))
			return unknown();
		return (px_aff){.known = true, .base = g};
	case PX_O_SREG: {
		uint8_t v = sreg_var(va, o->id);
		if (v == NO_VAR)
			return unknown();
		if (v == PX_VV_WARP_X) /* %tid.x */
			return combine(variable(PX_VV_LANE), variable(PX_VV_WARP_X), 32);
		/* a block size, grid size or CTA index the launch fixes */
		if (v >= PX_VV_NTHREAD && va->launch.lo[v] == va->launch.hi[v])
			return constant(va->launch.lo[v]);
		return variable(v);
	}
	default:
		return unknown();
	}
}

px_aff px_value_addr(const px_values *va, const px_opnd *o)
{
	if (o->kind != PX_O_ADDR || px_addr_idx(o))
		return unknown();
	return combine(px_value_form(va, o->base), constant(o->off), 1);
}

bool px_value_const(const px_values *va, const px_opnd *o, int64_t *c)
{
	px_aff a = px_value_form(va, o);
	if (!a.known || a.nterms || a.base)
		return false;
	*c = a.c;
	return true;
}

/* The form n gives its one result (which has integer type t). */
static px_aff form_of(const px_values *va, const px_node *n, unsigned t)
{
	const px_op_def *op = n->op;
	if (!op || !is_int_type(t))
		return unknown();
	px_aff a = n->nops > 0 ? px_value_form(va, &n->ops[0]) : unknown();
	px_aff b = n->nops > 1 ? px_value_form(va, &n->ops[1]) : unknown();
	int64_t c;
	if ((op == &px_ops[PX_OP_mov] || op == &px_ops[PX_OP_cvta]) && n->nops == 1)
		return a;
	if (op == &px_ops[PX_OP_cvt] && n->nops == 1)
		return n->ops[0].kind == PX_O_VALUE && is_int_type(va->f->values[n->ops[0].id].type) ? a : unknown();
	if (op == &px_ops[PX_OP_add] && n->nops == 2)
		return combine(a, b, 1);
	if (op == &px_ops[PX_OP_sub] && n->nops == 2)
		return combine(a, b, -1);
	if (op == &px_ops[PX_OP_neg] && n->nops == 1)
		return scale(a, -1);
	if (op == &px_ops[PX_OP_mul] && n->nops == 2 && slot(n, PX_SN_mode) != PX_TOK_hi)
		return product(a, b);
	if (op == &px_ops[PX_OP_mad] && n->nops == 3 && slot(n, PX_SN_mode) != PX_TOK_hi)
		return combine(product(a, b), px_value_form(va, &n->ops[2]), 1);
	if (n->nops != 2 || !px_value_const(va, &n->ops[1], &c))
		return unknown();
	unsigned ty = slot(n, PX_SN_type);
	bool is_signed = ty && px_tok_types[ty] && px_types[px_tok_types[ty]].kind == PX_KIND_SINT;
	if (op == &px_ops[PX_OP_shl])
		return c >= 0 && c < 62 ? scale(a, (int64_t)1 << c) : unknown();
	/* a signed shift or division of a negative number rounds differently */
	int64_t lo, hi;
	if (is_signed && !(px_aff_range(va, &a, NULL, &lo, &hi) && lo >= 0))
		return unknown();
	if (op == &px_ops[PX_OP_shr])
		return c >= 0 ? split(va, a, (unsigned)c, false) : unknown();
	int k = log2_of(c);
	if (op == &px_ops[PX_OP_div] && k >= 0)
		return split(va, a, (unsigned)k, false);
	if (op == &px_ops[PX_OP_rem] && k >= 0)
		return split(va, a, (unsigned)k, true);
	if (op == &px_ops[PX_OP_and] && (k = log2_of(c + 1)) >= 0)
		return split(va, a, (unsigned)k, true);
	if ((op == &px_ops[PX_OP_or] || op == &px_ops[PX_OP_xor]) && c >= 0) {
		/* bits below what the rest is a multiple of: an add */
		px_aff rest = a;
		rest.c = 0;
		uint64_t m = multiple(va, &rest);
		if (a.known && !a.base && (a.c & (int64_t)(m - 1)) == 0 && (uint64_t)c < m)
			return combine(a, constant(c), 1);
	}
	return unknown();
}

static void count_def(void *ctx, uint32_t id, px_loc loc)
{
	(void)loc;
	px_values *va = ctx;
	if (va->ndefs[id] < 2)
		va->ndefs[id]++;
}

/* The variable special register s is (PX_VV_*), or NO_VAR: by name, the
 * geometry of the launch, found at its first read. */
static uint8_t sreg_var(const px_values *va, uint32_t s)
{
	static const struct {
		const char *name;
		uint8_t var;
	} geometry[] = {
		{"%tid.x", PX_VV_WARP_X},     {"%tid.y", PX_VV_TID_Y},      {"%tid.z", PX_VV_TID_Z},
		{"%laneid", PX_VV_LANE},      {"%ctaid.x", PX_VV_CTAID_X},  {"%ctaid.y", PX_VV_CTAID_Y},
		{"%ctaid.z", PX_VV_CTAID_Z},  {"%ntid.x", PX_VV_NTID_X},    {"%ntid.y", PX_VV_NTID_Y},
		{"%ntid.z", PX_VV_NTID_Z},    {"%nctaid.x", PX_VV_NCTAID_X}, {"%nctaid.y", PX_VV_NCTAID_Y},
		{"%nctaid.z", PX_VV_NCTAID_Z},
	};
	if (va->sreg[s] != UNMAPPED)
		return va->sreg[s];
	va->sreg[s] = NO_VAR;
	for (unsigned i = 0; i < sizeof geometry / sizeof *geometry; i++)
		if (!strcmp(px_sregs[s].name, geometry[i].name) && (geometry[i].var != PX_VV_LANE || va->lane_x))
			va->sreg[s] = geometry[i].var;
	return va->sreg[s];
}

/* The launch shape's box: reqntid, else maxntid (at most so many), else
 * assumed: up to 1024 threads along x, y and z with no better bound. */
static void launch_box(px_values *va, const unsigned *grid)
{
	const px_func *f = va->f;
	const px_dirval *d = f->dirs[PX_DIR_reqntid].present ? &f->dirs[PX_DIR_reqntid] : &f->dirs[PX_DIR_maxntid];
	int64_t n[3] = {1024, 1024, 64};
	va->launch_assumed = !d->present || !d->nargs;
	if (!va->launch_assumed)
		for (unsigned i = 0; i < 3; i++)
			n[i] = i < d->nargs ? d->args[i] : 1;
	px_box *b = &va->launch;
	for (unsigned v = 0; v < PX_VV_VALUE; v++) {
		b->lo[v] = 0;
		b->hi[v] = UNBOUNDED;
	}
	b->hi[PX_VV_LANE] = n[0] < 32 ? n[0] - 1 : 31;
	b->hi[PX_VV_WARP_X] = (n[0] - 1) / 32;
	b->hi[PX_VV_TID_Y] = n[1] - 1;
	b->hi[PX_VV_TID_Z] = n[2] - 1;
	for (unsigned i = 0; i < 3; i++) {
		b->lo[PX_VV_NTID_X + i] = va->launch_assumed ? 1 : n[i];
		b->hi[PX_VV_NTID_X + i] = n[i];
		b->lo[PX_VV_NCTAID_X + i] = 1;
		if (grid && grid[i]) {
			b->lo[PX_VV_NCTAID_X + i] = b->hi[PX_VV_NCTAID_X + i] = grid[i];
			b->hi[PX_VV_CTAID_X + i] = grid[i] - 1;
		}
	}
	/* %laneid is %tid.x mod 32 when warps are runs of 32 along x */
	va->lane_x = va->launch_assumed || (f->dirs[PX_DIR_reqntid].present && n[0] % 32 == 0) ||
	             (n[1] == 1 && n[2] == 1 && !va->launch_assumed);
}

bool px_aff_uniform(const px_values *va, const px_aff *a)
{
	settle(va);
	if (!a->known)
		return false;
	for (unsigned i = 0; i < a->nterms; i++)
		if (a->var[i] < PX_VV_NTHREAD || (a->var[i] >= PX_VV_VALUE && va->varies[a->var[i] - PX_VV_VALUE]))
			return false;
	return true;
}

static bool opnd_varies(const px_values *va, const px_opnd *o)
{
	switch (o->kind) {
	case PX_O_VALUE:
		return o->elem >= 0 ? va->varies[o->id] : !px_aff_uniform(va, form_at(va, o->id));
	case PX_O_SREG:
		return px_sregs[o->id].varies != PX_VARIES_CTA;
	case PX_O_ADDR:
		return opnd_varies(va, o->base) || (px_addr_idx(o) && opnd_varies(va, px_addr_idx(o)));
	case PX_O_GROUP:
		for (uint32_t j = 0; j < o->nelems; j++)
			if (opnd_varies(va, &o->elems[j]))
				return true;
		return false;
	default:
		return false;
	}
}

static bool is_bra(const px_node *n)
{
	return n->kind == PX_N_INST && n->op == &px_ops[PX_OP_bra] && n->nops == 1 && n->ops[0].kind == PX_O_LABEL;
}

/* A per-value flag raised on the values a statement writes when yes (and
 * changed said): the forward closures below (which values vary, which are
 * made from memory) raise it so. */
typedef struct raise {
	uint8_t *of;
	bool yes, changed;
} raise;

static void raise_one(void *ctx, uint32_t id, px_loc loc)
{
	(void)loc;
	raise *r = ctx;
	if (r->yes && !r->of[id]) {
		r->of[id] = 1;
		r->changed = true;
	}
}

/* yes when a value read has the flag */
static void raise_if_read(void *ctx, uint32_t id, px_loc loc)
{
	(void)loc;
	raise *r = ctx;
	r->yes |= r->of[id];
}

/* A load of the thread's own memory (the local space, or a local array
 * generically), which holds what that thread wrote. */
static bool loads_own(const px_values *va, const px_node *n)
{
	if (n->op != &px_ops[PX_OP_ld] || !n->nops || n->ops[0].kind != PX_O_ADDR)
		return false;
	unsigned space = slot(n, PX_SN_space);
	if (space == PX_TOK_local)
		return true;
	px_aff a = space ? unknown() : px_value_addr(va, &n->ops[0]);
	return a.known && a.base > va->m->nglobals;
}

/* Which values vary between threads: a result varies when the statement's
 * operands or guard do, when the operation's results differ whatever its
 * operands, or when a value defined more than once is defined between a
 * branch on a varying predicate and its target (the threads took different
 * ways there). Levels only rise. */
static void find_varying(px_values *va, uint32_t nstmts, const uint32_t *label_at)
{
	const px_func *f = va->f;
	px_arena_mark mark = px_arena_mark_now(va->arena);
	int32_t *span = px_arena_calloc(va->arena, nstmts + 1, sizeof *span);
	bool changed = true;
	for (unsigned round = 0; changed && round < ROUNDS; round++) {
		changed = false;
		memset(span, 0, (nstmts + 1) * sizeof *span);
		uint32_t i = 0;
		for (const px_node *n = f->first; n; n = n->next, i++)
			if (is_bra(n) && n->has_guard && va->varies[n->guard]) {
				uint32_t to = label_at[n->ops[0].id], a = to < i ? to : i, b = to < i ? i : to;
				span[a]++;
				span[b + 1]--;
			}
		int32_t inside = 0;
		i = 0;
		for (const px_node *n = f->first; n; n = n->next, i++) {
			inside += span[i];
			if (n->kind == PX_N_LABEL || !n->nres)
				continue;
			bool v = (n->has_guard && va->varies[n->guard]) || n->kind != PX_N_INST || !n->op ||
			         (n->op->flags & PX_OPF_THREAD_RESULT) || loads_own(va, n);
			for (uint32_t k = 0; !v && k < n->nops; k++)
				v = opnd_varies(va, &n->ops[k]);
			raise r = {va->varies, v, false};
			px_node_writes(n, raise_one, &r);
			if (inside > 0)
				for (uint32_t k = 0; k < n->nres; k++)
					if (n->res[k].kind == PX_O_VALUE && va->ndefs[n->res[k].id] > 1) {
						r.yes = true;
						raise_one(&r, n->res[k].id, n->loc);
					}
			changed |= r.changed;
		}
	}
	if (changed)
		memset(va->varies, 1, f->nvalues + 1);
	px_arena_release(va->arena, mark);
}

static unsigned low_log2(int64_t c) { return c ? (unsigned)__builtin_ctzll((unsigned long long)c) : 64; }

/* What a is a multiple of, with the atoms' multiples as they stand. */
static uint64_t multiple(const px_values *va, const px_aff *a)
{
	if (!a->known)
		return 0;
	unsigned lg = low_log2(a->c);
	for (unsigned i = 0; i < a->nterms; i++) {
		unsigned t = low_log2(a->coef[i]) + (a->var[i] >= PX_VV_VALUE ? va->mult[a->var[i] - PX_VV_VALUE] : 0);
		lg = t < lg ? t : lg;
	}
	if (a->base) {
		unsigned al = low_log2(px_value_base_align(va, a->base));
		lg = al < lg ? al : lg;
	}
	return lg >= 62 ? (uint64_t)1 << 62 : (uint64_t)1 << lg;
}

uint64_t px_aff_multiple(const px_values *va, const px_aff *a)
{
	for (unsigned i = 0; a->known && i < a->nterms; i++)
		if (a->var[i] >= PX_VV_VALUE) { /* an atom's multiple is asked */
			settle_multiples(va);
			break;
		}
	return multiple(va, a);
}

/* Lowers what a value defined more than once is known a multiple of to what
 * its definition n gives; whether it did. */
static bool lower_multiple(px_values *va, const px_node *n)
{
	uint32_t id = n->res[0].id;
	unsigned lg = (n->flags & PX_NF_align) >> PX_NF_align_SHIFT;
	px_aff a = form_of(va, n, va->f->values[id].type);
	uint64_t m = multiple(va, &a);
	unsigned now = m ? low_log2((int64_t)m) : 0;
	if (lg > now)
		now = lg;
	if (now >= va->mult[id])
		return false;
	va->mult[id] = (uint8_t)now;
	return true;
}

/* What each atom is a multiple of: a parameter's align; a value defined
 * more than once, the least over its definitions, from "anything" down to a
 * fixed point; {align = N} on a statement; nothing for the rest. The first
 * round walks the function, where one of those is there (mult_walk), and
 * lists the definitions of values defined more than once: the rounds after
 * it revisit only those. */
static void find_multiples(px_values *va)
{
	const px_func *f = va->f;
	for (uint32_t id = 0; id <= f->nvalues; id++)
		va->mult[id] = va->ndefs[id] > 1 ? 64 : 0;
	for (uint32_t k = 0; k < f->nparams; k++)
		if (!va->ndefs[f->params[k].value] && f->params[k].align)
			va->mult[f->params[k].value] = (uint8_t)low_log2(f->params[k].align);
	px_arena_mark mark = px_arena_mark_now(va->arena);
	const px_node **again = NULL;
	uint32_t nagain = 0, cap = 0;
	bool changed = false;
	for (const px_node *n = va->mult_walk ? f->first : NULL; n; n = n->next) {
		if (n->kind != PX_N_INST || n->nres != 1 || n->res[0].kind != PX_O_VALUE || n->res[0].elem >= 0)
			continue;
		uint32_t id = n->res[0].id;
		unsigned lg = (n->flags & PX_NF_align) >> PX_NF_align_SHIFT;
		if (va->ndefs[id] < 2) {
			if (lg && form_at(va, id)->nterms == 1 && form_at(va, id)->var[0] == PX_VV_VALUE + id)
				va->mult[id] = (uint8_t)lg;
			continue;
		}
		if (nagain == cap) {
			uint32_t grown = cap ? 2 * cap : 64;
			again = px_arena_grow(va->arena, again, nagain, grown, sizeof *again);
			cap = grown;
		}
		again[nagain++] = n;
		changed |= lower_multiple(va, n);
	}
	for (unsigned round = 1; changed && round < ROUNDS; round++) {
		changed = false;
		for (uint32_t i = 0; i < nagain; i++)
			changed |= lower_multiple(va, again[i]);
	}
	px_arena_release(va->arena, mark);
	if (changed)
		memset(va->mult, 0, f->nvalues + 1);
}

void px_values_init(px_values *va, const px_module *m, const px_func *f, const unsigned *grid, px_arena *a)
{
	memset(va, 0, sizeof *va);
	va->m = m;
	va->f = f;
	va->arena = a;
	uint32_t nv = f->nvalues + 1;
	/* read only where have says made, or pushed: not zeroed */
	va->form = px_arena_array(a, nv, sizeof *va->form);
	va->stack = px_arena_array(a, nv, sizeof *va->stack);
	va->have = px_arena_calloc(a, nv, 1);
	va->ndefs = px_arena_calloc(a, nv, 1);
	va->varies = px_arena_calloc(a, nv, 1);
	va->mult = px_arena_calloc(a, nv, 1);
	va->from_memory = px_arena_calloc(a, nv, 1);
	va->def = px_arena_calloc(a, nv, sizeof *va->def);
	va->sreg = px_arena_calloc(a, px_nsregs, 1);
	memset(va->sreg, UNMAPPED, px_nsregs);
	launch_box(va, grid);
	for (const px_node *n = f->first; n; n = n->next) {
		if (n->kind != PX_N_INST && n->kind != PX_N_CALL && n->kind != PX_N_ASM)
			continue;
		px_node_writes(n, count_def, va);
		if (n->kind == PX_N_INST && n->nres == 1 && n->res[0].kind == PX_O_VALUE && n->res[0].elem < 0)
			va->def[n->res[0].id] = n;
		va->mult_walk |= n->kind == PX_N_INST && (n->flags & PX_NF_align);
	}
	for (uint32_t id = 0; id < f->nvalues; id++) {
		if (f->values[id].param && va->ndefs[id])
			va->ndefs[id] = 2; /* a parameter assigned again: defined twice */
		va->mult_walk |= va->ndefs[id] > 1;
		if (va->ndefs[id] != 1 || f->values[id].param || f->values[id].count)
			va->def[id] = NULL;
	}
}

/* The form of value id, made at the first question: those of the values its
 * definition reads first (a walk with a stack, not a recursion a long chain
 * could overflow), then its own. A value defined once by an operation not
 * followed, or by a guarded statement, stays an atom; so does one whose
 * statement states {align = N}: what the writer knows of it (find_multiples). */
static const px_aff *form_at(const px_values *va, uint32_t id)
{
	enum { NONE, BUSY, DONE };
	if (va->have[id] == DONE)
		return &va->form[id];
	if (va->have[id] == BUSY)
		return &va->form[id]; /* read while being made: unknown */
	uint32_t top = 0;
	va->stack[top++] = id;
	va->have[id] = BUSY;
	va->form[id] = unknown();
	while (top) {
		uint32_t v = va->stack[top - 1];
		const px_node *d = va->def[v];
		if (d && (d->has_guard || (d->flags & PX_NF_align)))
			d = NULL;
		bool ready = true;
		/* one operand at a time: the values busy are then the chain above */
		for (uint32_t k = 0; ready && d && k < d->nops; k++) {
			const px_opnd *o = &d->ops[k];
			if (o->kind == PX_O_VALUE && o->elem < 0 && va->have[o->id] == NONE) {
				va->have[o->id] = BUSY;
				va->form[o->id] = unknown();
				va->stack[top++] = o->id;
				ready = false;
			}
		}
		if (!ready)
			continue;
		px_aff a = d ? form_of(va, d, va->f->values[v].type) : unknown();
		va->form[v] = a.known ? a : variable(PX_VV_VALUE + v);
		va->have[v] = DONE;
		top--;
	}
	return &va->form[id];
}

px_aff px_aff_subst(px_aff a, uint32_t var, px_aff by)
{
	int64_t k = 0;
	for (unsigned i = 0; i < a.nterms; i++)
		if (a.var[i] == var)
			k = a.coef[i];
	return k ? combine(combine(a, variable(var), -k), by, k) : a;
}

px_aff px_value_form_id(const px_values *va, uint32_t id)
{
	return *form_at(va, id);
}

/* Which values vary and what the atoms are multiples of, at the first
 * question that needs them: a check whose accesses name no atom and whose
 * guards are none never pays for them. The analysis is the caller's (not
 * const memory); only these fields change. */
static void settle_multiples(const px_values *cva)
{
	px_values *va = (px_values *)cva;
	if (va->mult_settled)
		return;
	va->mult_settled = true;
	find_multiples(va);
}

static void settle(const px_values *cva)
{
	px_values *va = (px_values *)cva;
	if (va->settled)
		return;
	va->settled = true;
	const px_func *f = va->f;
	px_arena_mark mark = px_arena_mark_now(va->arena);
	uint32_t *label_at = px_arena_calloc(va->arena, f->nlabels + 1, sizeof *label_at), nstmts = 0;
	for (const px_node *n = f->first; n; n = n->next, nstmts++)
		if (n->kind == PX_N_LABEL)
			label_at[n->label] = nstmts;
	find_varying(va, nstmts, label_at);
	px_arena_release(va->arena, mark);
	settle_multiples(va);
}

bool px_aff_equal(const px_aff *a, const px_aff *b)
{
	if (!a->known || !b->known || a->nterms != b->nterms || a->base != b->base || a->c != b->c)
		return false;
	for (unsigned i = 0; i < a->nterms; i++)
		if (a->var[i] != b->var[i] || a->coef[i] != b->coef[i])
			return false;
	return true;
}

bool px_box_empty(const px_box *box)
{
	for (unsigned v = 0; v < PX_VV_NTHREAD; v++)
		if (box->lo[v] > box->hi[v])
			return true;
	return false;
}

uint64_t px_box_threads(const px_box *b, uint64_t most)
{
	uint64_t n = 1;
	for (unsigned v = 0; v < PX_VV_NTHREAD; v++) {
		if (b->hi[v] < b->lo[v])
			return 0;
		n *= (uint64_t)(b->hi[v] - b->lo[v] + 1);
		if (n > most)
			return UINT64_MAX;
	}
	return n;
}

void px_box_thread(const px_box *b, uint64_t k, int64_t *t)
{
	for (unsigned v = 0; v < PX_VV_NTHREAD; v++) {
		int64_t n = b->hi[v] - b->lo[v] + 1;
		t[v] = b->lo[v] + (int64_t)(k % (uint64_t)n);
		k /= (uint64_t)n;
	}
}

static void make_empty(px_box *box) { box->hi[PX_VV_LANE] = box->lo[PX_VV_LANE] - 1; }

static bool compare(unsigned cmp, bool is_signed, unsigned width, int64_t a, int64_t b)
{
	if (!is_signed) {
		uint64_t mask = width >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << width) - 1;
		uint64_t x = (uint64_t)a & mask, y = (uint64_t)b & mask;
		switch (cmp) {
		case PX_TOK_eq: return x == y;
		case PX_TOK_ne: return x != y;
		case PX_TOK_lt: case PX_TOK_lo: return x < y;
		case PX_TOK_le: case PX_TOK_ls: return x <= y;
		case PX_TOK_gt: case PX_TOK_hi: return x > y;
		default: return x >= y;
		}
	}
	switch (cmp) {
	case PX_TOK_eq: return a == b;
	case PX_TOK_ne: return a != b;
	case PX_TOK_lt: return a < b;
	case PX_TOK_le: return a <= b;
	case PX_TOK_gt: return a > b;
	default: return a >= b;
	}
}

static bool int_cmp(unsigned cmp)
{
	return cmp == PX_TOK_eq || cmp == PX_TOK_ne || cmp == PX_TOK_lt || cmp == PX_TOK_le || cmp == PX_TOK_gt ||
	       cmp == PX_TOK_ge || cmp == PX_TOK_lo || cmp == PX_TOK_ls || cmp == PX_TOK_hi || cmp == PX_TOK_hs;
}

int px_value_compare(unsigned cmp, bool is_signed, unsigned width, int64_t a, int64_t b)
{
	return int_cmp(cmp) ? compare(cmp, is_signed, width, a, b) : -1;
}

static bool cmp_setp(const px_node *d, unsigned *cmp, unsigned *t)
{
	unsigned ty = slot(d, PX_SN_type);
	*cmp = slot(d, PX_SN_cmp);
	*t = ty ? px_tok_types[ty] : 0;
	return d->nops == 2 && is_int_type(*t) && int_cmp(*cmp);
}

/* A form of thread variables and constants at thread t. */
static bool at_thread(const px_aff *a, const int64_t *t, int64_t *out)
{
	if (!a->known || a->base)
		return false;
	*out = a->c;
	for (unsigned i = 0; i < a->nterms; i++) {
		if (a->var[i] >= PX_VV_NTHREAD)
			return false;
		*out += a->coef[i] * t[a->var[i]];
	}
	return true;
}

/* setp d at thread t: 1 true, 0 false, -1 not known. */
static int setp_at(const px_values *va, const px_node *d, const int64_t *t)
{
	unsigned cmp, ty;
	int64_t x, y;
	if (!cmp_setp(d, &cmp, &ty))
		return -1;
	px_aff a = px_value_form(va, &d->ops[0]), b = px_value_form(va, &d->ops[1]);
	if (!at_thread(&a, t, &x) || !at_thread(&b, t, &y))
		return -1;
	return compare(cmp, px_types[ty].kind == PX_KIND_SINT, px_types[ty].width, x, y);
}

/* setp of thread variables and constants alone: the threads of box where it
 * is truth, a box of them exactly, or (*exact cleared) the least box that
 * holds them. */
static bool narrow(const px_values *va, const px_node *d, bool truth, px_box *box, bool *exact)
{
	unsigned cmp, ty;
	if (!cmp_setp(d, &cmp, &ty))
		return false;
	px_aff diff = combine(px_value_form(va, &d->ops[0]), px_value_form(va, &d->ops[1]), -1);
	if (!diff.known || diff.base || !diff.nterms)
		return false;
	/* the thread variables it names, each over its range in box */
	uint32_t vars[PX_VV_NTHREAD], nv = 0;
	uint64_t work = 1;
	for (unsigned i = 0; i < diff.nterms; i++) {
		if (diff.var[i] >= PX_VV_NTHREAD)
			return false;
		vars[nv++] = diff.var[i];
		work *= (uint64_t)(box->hi[diff.var[i]] - box->lo[diff.var[i]] + 1);
		if (work > GUARD_WORK)
			return false;
	}
	if (px_box_empty(box))
		return true;
	int64_t t[PX_VV_NTHREAD], lo[PX_VV_NTHREAD], hi[PX_VV_NTHREAD];
	for (unsigned v = 0; v < PX_VV_NTHREAD; v++)
		t[v] = box->lo[v];
	for (unsigned i = 0; i < nv; i++) {
		lo[i] = INT64_MAX;
		hi[i] = INT64_MIN;
	}
	uint64_t hits = 0;
	for (;;) {
		int r = setp_at(va, d, t);
		if (r < 0)
			return false;
		if (r == truth) {
			hits++;
			for (unsigned i = 0; i < nv; i++) {
				lo[i] = t[vars[i]] < lo[i] ? t[vars[i]] : lo[i];
				hi[i] = t[vars[i]] > hi[i] ? t[vars[i]] : hi[i];
			}
		}
		unsigned i = 0;
		while (i < nv && ++t[vars[i]] > box->hi[vars[i]])
			t[vars[i]] = box->lo[vars[i]], i++;
		if (i == nv)
			break;
	}
	if (!hits) {
		make_empty(box);
		return true;
	}
	uint64_t hull = 1;
	for (unsigned i = 0; i < nv; i++) {
		hull *= (uint64_t)(hi[i] - lo[i] + 1);
		box->lo[vars[i]] = lo[i];
		box->hi[vars[i]] = hi[i];
	}
	if (hull != hits)
		*exact = false;
	return true;
}

static bool guard(const px_values *va, uint32_t pred, bool truth, px_box *box, bool *exact)
{
	if (!va->varies[pred] && px_aff_uniform(va, form_at(va, pred)))
		return true;
	const px_node *d = va->def[pred];
	if (!d || d->has_guard || d->nres != 1)
		return false;
	if (d->op == &px_ops[PX_OP_setp])
		return narrow(va, d, truth, box, exact);
	if (d->op == &px_ops[PX_OP_not] && d->nops == 1 && d->ops[0].kind == PX_O_VALUE && !d->ops[0].neg)
		return guard(va, d->ops[0].id, !truth, box, exact);
	if (d->op == &px_ops[PX_OP_and] && truth && d->nops == 2 && d->ops[0].kind == PX_O_VALUE &&
	    d->ops[1].kind == PX_O_VALUE && !d->ops[0].neg && !d->ops[1].neg)
		return guard(va, d->ops[0].id, true, box, exact) && guard(va, d->ops[1].id, true, box, exact);
	if (d->op == &px_ops[PX_OP_mov] && d->nops == 1 && d->ops[0].kind == PX_O_VALUE)
		return guard(va, d->ops[0].id, truth != d->ops[0].neg, box, exact);
	return false;
}

bool px_value_guard(const px_values *va, uint32_t pred, bool truth, px_box *box)
{
	settle(va);
	bool exact = true;
	return guard(va, pred, truth, box, &exact) && exact;
}

bool px_value_guard_hull(const px_values *va, uint32_t pred, bool truth, px_box *box, bool *exact)
{
	settle(va);
	return guard(va, pred, truth, box, exact);
}

int px_value_guard_at(const px_values *va, uint32_t pred, bool truth, const int64_t *thread)
{
	settle(va);
	if (!va->varies[pred] && px_aff_uniform(va, form_at(va, pred)))
		return 1;
	const px_node *d = va->def[pred];
	if (!d || d->has_guard || d->nres != 1)
		return -1;
	if (d->op == &px_ops[PX_OP_setp]) {
		int r = setp_at(va, d, thread);
		return r < 0 ? -1 : r == truth;
	}
	if (d->op == &px_ops[PX_OP_not] && d->nops == 1 && d->ops[0].kind == PX_O_VALUE && !d->ops[0].neg)
		return px_value_guard_at(va, d->ops[0].id, !truth, thread);
	if (d->op == &px_ops[PX_OP_and] && truth && d->nops == 2 && d->ops[0].kind == PX_O_VALUE &&
	    d->ops[1].kind == PX_O_VALUE && !d->ops[0].neg && !d->ops[1].neg) {
		int x = px_value_guard_at(va, d->ops[0].id, true, thread);
		int y = px_value_guard_at(va, d->ops[1].id, true, thread);
		return x < 0 || y < 0 ? -1 : x && y;
	}
	if (d->op == &px_ops[PX_OP_mov] && d->nops == 1 && d->ops[0].kind == PX_O_VALUE)
		return px_value_guard_at(va, d->ops[0].id, truth != d->ops[0].neg, thread);
	return -1;
}

/* Whether address form a, of an access of bytes bytes, gives distinct
 * threads of the launch disjoint bytes: its terms are thread indices whose
 * coefficients, smallest first, each step past everything the smaller ones
 * span. */
static bool disjoint_per_thread(const px_values *va, const px_aff *a, unsigned bytes)
{
	static const unsigned vars[] = {PX_VV_LANE, PX_VV_WARP_X, PX_VV_TID_Y, PX_VV_TID_Z};
	int64_t c[4], span = bytes;
	for (unsigned i = 0; i < a->nterms; i++)
		if (a->var[i] >= PX_VV_NTHREAD)
			return false;
	for (unsigned i = 0; i < 4; i++) {
		int64_t k = 0;
		for (unsigned j = 0; j < a->nterms; j++)
			k = a->var[j] == vars[i] ? a->coef[j] : k;
		c[i] = k < 0 ? -k : k;
	}
	for (unsigned done = 0; done < 4; done++) {
		unsigned m = 4;
		for (unsigned i = 0; i < 4; i++)
			if (c[i] >= 0 && (m == 4 || c[i] < c[m]))
				m = i;
		int64_t range = va->launch.hi[vars[m]] - va->launch.lo[vars[m]];
		if (range > 0 && c[m] < span)
			return false;
		span += c[m] * range;
		c[m] = -1;
	}
	return true;
}

bool px_value_free_guard(const px_values *va, uint32_t pred)
{
	const px_node *d = va->def[pred];
	unsigned cmp, ty;
	if (!d || d->has_guard || d->op != &px_ops[PX_OP_setp] || !cmp_setp(d, &cmp, &ty) ||
	    (cmp != PX_TOK_eq && cmp != PX_TOK_ne))
		return false;
	for (unsigned k = 0; k < 2; k++) {
		const px_opnd *o = &d->ops[k];
		const px_node *l = o->kind == PX_O_VALUE && o->elem < 0 ? va->def[o->id] : NULL;
		if (!l || l->has_guard || l->op != &px_ops[PX_OP_ld] || slot(l, PX_SN_space) != PX_TOK_const ||
		    l->nops != 1 || px_access_bytes(l) == 0)
			continue;
		px_aff at = px_value_addr(va, &l->ops[0]);
		if (at.known && disjoint_per_thread(va, &at, px_access_bytes(l)))
			return true;
	}
	return false;
}

/* What writes the kernel's shared memory: per module variable, whether a
 * statement other than a load addresses it (a store, an atomic, a copy:
 * taken as writing it); or that one addresses shared memory the analysis
 * cannot place, calls a function or runs inline PTX (anything may be
 * written). */
typedef struct shared_writes {
	uint8_t *var; /* per module variable, by base - 1 */
	bool any, dynamic;
} shared_writes;

static void find_shared_writes(const px_values *va, shared_writes *w)
{
	const px_module *m = va->m;
	w->var = px_arena_calloc(va->arena, m->nglobals + 1, 1);
	w->any = !va->f->is_kernel;
	for (const px_node *n = va->f->first; n && !w->any; n = n->next) {
		if (n->kind == PX_N_CALL || n->kind == PX_N_ASM) {
			w->any = true;
			break;
		}
		if (n->kind != PX_N_INST || !n->op || n->op == &px_ops[PX_OP_ld])
			continue;
		for (uint32_t k = 0; k < n->nops; k++) {
			if (n->ops[k].kind != PX_O_ADDR)
				continue;
			px_aff a = px_value_addr(va, &n->ops[k]);
			if (!a.known || !a.base)
				w->any |= slot(n, PX_SN_space) != PX_TOK_global && slot(n, PX_SN_space) != PX_TOK_local;
			else if (a.base <= m->nglobals) {
				w->var[a.base - 1] = 1;
				w->dynamic |= m->globals[a.base - 1].unsized;
			}
		}
	}
}

/* Whether statement n reads memory that may change while the kernel runs:
 * global memory (other kernels and the host may write it, and nothing here
 * says they do not), shared memory some statement of the kernel writes, or
 * memory the analysis cannot place; not the parameter and constant spaces,
 * ld.global.nc (whose memory the program promises is read-only) or a shared
 * variable no statement writes. A call or inline PTX returns what it likes. */
static bool reads_changing(const px_values *va, const shared_writes *w, const px_node *n)
{
	if (n->kind == PX_N_CALL || n->kind == PX_N_ASM)
		return true;
	if (n->kind != PX_N_INST || !n->op)
		return false;
	unsigned space = slot(n, PX_SN_space);
	if (space == PX_TOK_param || space == PX_TOK_const || slot(n, PX_SN_nc))
		return false;
	for (uint32_t k = 0; k < n->nops; k++) {
		if (n->ops[k].kind != PX_O_ADDR)
			continue;
		if (n->op != &px_ops[PX_OP_ld] || w->any)
			return true;
		px_aff a = px_value_addr(va, &n->ops[k]);
		if (!a.known || !a.base)
			return true;
		if (a.base > va->m->nglobals)
			continue; /* the thread's own local array */
		const px_global *g = &va->m->globals[a.base - 1];
		if (g->space != PX_SPACE_SHARED || w->var[a.base - 1] || (g->unsized && w->dynamic))
			return true;
	}
	return false;
}

/* A forward closure: a value is made from memory when a statement that
 * defines it reads memory that may change or reads a value made so. */
static void find_from_memory(px_values *va)
{
	const px_func *f = va->f;
	px_arena_mark mark = px_arena_mark_now(va->arena);
	shared_writes w = {0};
	find_shared_writes(va, &w);
	raise t = {va->from_memory, false, true};
	for (unsigned round = 0; t.changed && round < ROUNDS; round++) {
		t.changed = false;
		for (const px_node *n = f->first; n; n = n->next) {
			t.yes = reads_changing(va, &w, n);
			px_node_reads(n, raise_if_read, &t);
			px_node_writes(n, raise_one, &t);
		}
	}
	if (t.changed)
		memset(va->from_memory, 1, f->nvalues + 1);
	px_arena_release(va->arena, mark);
	va->from_memory_made = true;
}

bool px_value_from_memory(const px_values *va, uint32_t id)
{
	if (!va->from_memory_made)
		find_from_memory((px_values *)va);
	return va->from_memory[id];
}

bool px_value_grid_const(const px_values *va, uint32_t id)
{
	const px_func *f = va->f;
	if (!f->is_kernel)
		return false;
	for (uint32_t i = 0; i < f->nparams; i++)
		if (f->params[i].value == id)
			return true;
	const px_node *d = va->ndefs[id] == 1 ? va->def[id] : NULL;
	if (!d || d->has_guard || d->kind != PX_N_INST || d->op != &px_ops[PX_OP_ld] || d->nops != 1 ||
	    d->ops[0].kind != PX_O_ADDR || slot(d, PX_SN_space) != PX_TOK_param)
		return false;
	const px_opnd *b = d->ops[0].base;
	return !px_addr_idx(&d->ops[0]) && b->kind == PX_O_VALUE && b->elem < 0 && px_value_grid_const(va, b->id);
}

/* a form that is the same function of the thread's indices in every CTA:
 * no CTA index, no atom but those the whole launch holds alike */
static bool per_cta_form(const px_values *va, const px_aff *a)
{
	if (!a->known || a->base)
		return false;
	for (unsigned i = 0; i < a->nterms; i++) {
		uint32_t v = a->var[i];
		if ((v >= PX_VV_CTAID_X && v <= PX_VV_CTAID_Z) ||
		    (v >= PX_VV_VALUE && !px_value_grid_const(va, v - PX_VV_VALUE)))
			return false;
	}
	return true;
}

bool px_value_guard_per_cta(const px_values *va, uint32_t pred)
{
	const px_node *d = va->ndefs[pred] == 1 ? va->def[pred] : NULL;
	unsigned cmp, ty;
	if (!d || d->has_guard || d->nres != 1 || d->kind != PX_N_INST)
		return false;
	if (d->op == &px_ops[PX_OP_setp]) {
		if (!cmp_setp(d, &cmp, &ty))
			return false;
		px_aff a = px_value_form(va, &d->ops[0]), b = px_value_form(va, &d->ops[1]);
		return per_cta_form(va, &a) && per_cta_form(va, &b);
	}
	if ((d->op == &px_ops[PX_OP_not] || d->op == &px_ops[PX_OP_mov]) && d->nops == 1 && d->ops[0].kind == PX_O_VALUE)
		return px_value_guard_per_cta(va, d->ops[0].id);
	if (d->op == &px_ops[PX_OP_and] || d->op == &px_ops[PX_OP_or])
		return d->nops == 2 && d->ops[0].kind == PX_O_VALUE && d->ops[1].kind == PX_O_VALUE &&
		       px_value_guard_per_cta(va, d->ops[0].id) && px_value_guard_per_cta(va, d->ops[1].id);
	return false;
}

static unsigned grid_dims_of(const px_values *va, const px_opnd *o)
{
	switch (o->kind) {
	case PX_O_SREG: {
		uint8_t v = sreg_var(va, o->id);
		unsigned dim = v >= PX_VV_CTAID_X && v <= PX_VV_CTAID_Z     ? v - PX_VV_CTAID_X
		               : v >= PX_VV_NCTAID_X && v <= PX_VV_NCTAID_Z ? v - PX_VV_NCTAID_X
		                                                            : 3;
		/* a dimension --assume-grid gives one CTA is no dimension CTAs differ along */
		return dim < 3 && va->launch.hi[PX_VV_CTAID_X + dim] ? 1u << dim : 0;
	}
	case PX_O_ADDR:
		return grid_dims_of(va, o->base) | (px_addr_idx(o) ? grid_dims_of(va, px_addr_idx(o)) : 0);
	case PX_O_GROUP: {
		unsigned d = 0;
		for (uint32_t j = 0; j < o->nelems; j++)
			d |= grid_dims_of(va, &o->elems[j]);
		return d;
	}
	default:
		return 0;
	}
}

unsigned px_value_grid_dims(const px_values *va, const px_node **first)
{
	unsigned d = 0;
	*first = NULL;
	for (const px_node *n = va->f->first; n; n = n->next) {
		for (uint32_t k = 0; k < n->nops; k++)
			d |= grid_dims_of(va, &n->ops[k]);
		if (d && !*first)
			*first = n;
	}
	return d;
}

bool px_access_space(const px_node *n, unsigned *space)
{
	if (n->kind != PX_N_INST || !n->op || !(n->op->flags & PX_OPF_MEMORY_ACCESS))
		return false;
	*space = slot(n, PX_SN_space);
	return true;
}

unsigned px_access_bytes(const px_node *n)
{
	unsigned naddr = 0;
	for (uint32_t i = 0; i < n->nops; i++)
		naddr += n->ops[i].kind == PX_O_ADDR;
	if (naddr != 1 || !n->op)
		return 0;
	unsigned tok = slot(n, PX_SN_type), vec = slot(n, PX_SN_vec);
	if (!tok || !px_tok_types[tok])
		return 0;
	unsigned bytes = (px_types[px_tok_types[tok]].width + 7u) / 8u;
	return bytes * (vec == PX_TOK_v2 ? 2 : vec == PX_TOK_v4 ? 4 : vec == PX_TOK_v8 ? 8 : 1);
}
