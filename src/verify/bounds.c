/* Static bounds: an address that is a variable (a module variable, or a
 * function's local array) plus constant offsets, and an access there that
 * lies outside the variable or runs past its end. Such an address is the same
 * on every execution, so the access is wrong wherever it runs: an error.
 *
 * A value holds a constant address when its only definition in the function
 * is mov of the variable, or mov, cvt or cvta of a value that holds one, or
 * add or sub of such a value and an integer literal; the definitions are met
 * in text order before their reads (the verifier refuses a read before every
 * definition in the text), so one walk finds every such value. The access's
 * size is the operation's type times its vector width (.v2, .v4, .v8) where
 * it has a type and one address (an operation with several, such as a copy
 * and its mbarrier, types one of them); otherwise its first byte alone is
 * checked. */
#include <stdlib.h>
#include <string.h>

#include "verify/verify.h"

typedef struct const_addr {
	const px_opnd *var;  /* the variable's name as first written (a PX_O_SYM), or NULL */
	int64_t off;
} const_addr;

typedef struct bounds {
	px_verifier *v;
	px_func *f;
	uint32_t *ndefs;     /* per value: its definitions, up to 2 */
	const_addr *addr;    /* per value */
} bounds;

/* The bytes the variable the symbol names holds, or 0 when unknown (an
 * unsized array, a texture handle, a function). */
static uint64_t var_bytes(const bounds *b, px_str name)
{
	const px_local *l = px_func_local(b->f, name);
	if (l)
		return l->count * ((px_types[l->type].width + 7u) / 8u);
	uint32_t e = px_module_sym(b->v->m, name);
	if (e == PX_STRMAP_NONE || (e & 1) || (e >> 1) >= b->v->m->nglobals)
		return 0;
	const px_global *g = &b->v->m->globals[e >> 1];
	if (g->unsized || g->handle)
		return 0;
	return (g->is_array ? g->count : 1) * ((px_types[g->type].width + 7u) / 8u);
}

static bool known(const bounds *b, const px_opnd *o, const_addr *out)
{
	if (o->kind == PX_O_SYM) {
		*out = (const_addr){o, 0};
		return true;
	}
	if (o->kind == PX_O_VALUE && o->elem < 0 && b->addr[o->id].var) {
		*out = b->addr[o->id];
		return true;
	}
	return false;
}

/* What n's single result holds, when a constant address. */
static void follow(bounds *b, const px_node *n)
{
	if (n->kind != PX_N_INST || !n->op || n->nres != 1 || n->res[0].kind != PX_O_VALUE || n->res[0].elem >= 0)
		return;
	uint32_t id = n->res[0].id;
	if (b->ndefs[id] != 1 || b->f->values[id].count)
		return;
	const px_op_def *op = n->op;
	const_addr a;
	if ((op == &px_ops[PX_OP_mov] || op == &px_ops[PX_OP_cvta] || op == &px_ops[PX_OP_cvt]) && n->nops == 1 &&
	    known(b, &n->ops[0], &a)) {
		b->addr[id] = a;
	} else if (op == &px_ops[PX_OP_add] && n->nops == 2) {
		for (unsigned i = 0; i < 2; i++)
			if (n->ops[1 - i].kind == PX_O_INT && known(b, &n->ops[i], &a)) {
				a.off = (int64_t)((uint64_t)a.off + (uint64_t)n->ops[1 - i].ival); /* wraps as the address would */
				b->addr[id] = a;
				break;
			}
	} else if (op == &px_ops[PX_OP_sub] && n->nops == 2 && n->ops[1].kind == PX_O_INT &&
	           known(b, &n->ops[0], &a)) {
		a.off = (int64_t)((uint64_t)a.off - (uint64_t)n->ops[1].ival);
		b->addr[id] = a;
	}
}

/* The bytes n reads or writes at its address: its type times its vector
 * width, when it has one address. */
static uint64_t access_bytes(const px_node *n)
{
	unsigned naddr = 0;
	for (uint32_t i = 0; i < n->nops; i++)
		naddr += n->ops[i].kind == PX_O_ADDR;
	if (naddr != 1)
		return 1;
	int ti = px_slot_find(n->op, PX_SN_type), vi = px_slot_find(n->op, PX_SN_vec);
	unsigned tok = ti < 0 ? 0 : px_slot_tok(n->op, n->slot, (unsigned)ti);
	if (!tok || !px_tok_types[tok])
		return 1;
	uint64_t bytes = (px_types[px_tok_types[tok]].width + 7u) / 8u;
	unsigned vec = vi < 0 ? 0 : px_slot_tok(n->op, n->slot, (unsigned)vi);
	return bytes * (vec == PX_TOK_v2 ? 2 : vec == PX_TOK_v4 ? 4 : vec == PX_TOK_v8 ? 8 : 1);
}

static void check_access(bounds *b, const px_node *n, const px_opnd *o)
{
	const_addr a;
	if (o->kind != PX_O_ADDR || px_addr_idx(o) || !known(b, o->base, &a))
		return;
	uint64_t size = var_bytes(b, a.var->sym);
	if (!size)
		return;
	int64_t off = (int64_t)((uint64_t)a.off + (uint64_t)o->off);
	uint64_t bytes = access_bytes(n);
	px_diags *d = b->v->d;
	const px_str name = a.var->sym;
	if (off < 0 || (uint64_t)off >= size)
		px_error(d, o->loc, PX_D_bounds_outside, n->op->name, (long long)off, (int)name.n, name.s,
		         (unsigned long long)size);
	else if ((uint64_t)off + bytes > size)
		px_error(d, o->loc, PX_D_bounds_straddle, n->op->name, (unsigned long long)bytes, (long long)off,
		         (int)name.n, name.s, (unsigned long long)size, (unsigned long long)((uint64_t)off + bytes - size));
	else
		return;
	if (o->base->kind == PX_O_VALUE) {
		const px_value *val = &b->f->values[o->base->id];
		px_note(d, val->def_loc, PX_D_bounds_from, (int)val->name.n, val->name.s, (int)name.n, name.s,
		        (long long)a.off);
	}
}

void px_check_bounds(px_verifier *v, px_func *f)
{
	bounds b = {.v = v, .f = f};
	b.ndefs = calloc(f->nvalues + 1, sizeof *b.ndefs);
	b.addr = calloc(f->nvalues + 1, sizeof *b.addr);
	if (!b.ndefs || !b.addr)
		abort();
	for (const px_node *n = f->first; n; n = n->next)
		for (uint32_t r = 0; r < n->nres; r++)
			if (n->res[r].kind == PX_O_VALUE && b.ndefs[n->res[r].id] < 2)
				b.ndefs[n->res[r].id]++;
	for (const px_node *n = f->first; n; n = n->next) {
		if (n->kind != PX_N_INST || !n->op)
			continue;
		for (uint32_t i = 0; i < n->nops; i++)
			check_access(&b, n, &n->ops[i]);
		follow(&b, n);
	}
	free(b.ndefs);
	free(b.addr);
}
