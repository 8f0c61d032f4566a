/* Calls through a value (-Wcall-target) that may jump where no function
 * starts: on some path the value holds a function's address moved by a
 * constant (into the function's code), a module variable's address, or an
 * integer (0 among them). PTX calls a function pointer at the address
 * mov @f gave it; anything else jumps into the middle of code or into data,
 * and ptxas cannot tell, since the value is a register.
 *
 * What the value may hold is found by walking back from the call along every
 * path to the definitions of the value that reach it, and through those
 * (mov of a function, a variable, an integer or another value; add or sub of
 * an integer), up to DEPTH definitions deep and ALTS different holdings. A
 * definition it cannot follow (a parameter, a load, any other operation)
 * holds what the analysis does not know, and is silent: the warning names
 * only what a path certainly gives. A path's guards are not asked, so a
 * holding whose path no thread takes is reported too; it is a warning, not
 * an error, for that. */
#include <string.h>

#include "verify/hazard/frame.h"

enum { DEPTH = 8, ALTS = 8 };

enum holding_kind { HOLDS_FUNC, HOLDS_VAR, HOLDS_INT };

typedef struct holding {
	uint8_t kind;          /* enum holding_kind */
	uint32_t index;        /* the function's or the variable's, in the module */
	int64_t off;           /* bytes past it (HOLDS_INT: the integer) */
	const px_node *moved;  /* the last add or sub that moved it, or NULL */
} holding;

typedef struct walk {
	const px_frame *fr;
	const px_module *m;
	holding alt[ALTS];
	unsigned nalt;
	bool full;             /* more holdings than ALTS: the rest are not looked at */
} walk;

static void add_holding(walk *w, holding h)
{
	for (unsigned i = 0; i < w->nalt; i++)
		if (w->alt[i].kind == h.kind && w->alt[i].index == h.index && w->alt[i].off == h.off)
			return;
	if (w->nalt == ALTS)
		w->full = true;
	else
		w->alt[w->nalt++] = h;
}

static void reach(walk *w, uint32_t b, const px_node *stop, uint32_t id, unsigned depth, int64_t shift,
                  const px_node *moved);

/* What definition d of a value (in block b) holds, shifted by shift bytes. */
static void holds(walk *w, uint32_t b, const px_node *d, unsigned depth, int64_t shift, const px_node *moved)
{
	if (d->kind != PX_N_INST || !d->op || depth > DEPTH)
		return;
	const px_opnd *o = d->ops;
	if (d->op == &px_ops[PX_OP_mov] && d->nops == 1) {
		if (o->kind == PX_O_SYM) {
			uint32_t e = px_module_sym(w->m, o->sym);
			if (e != PX_STRMAP_NONE)
				add_holding(w, (holding){(e & 1) ? HOLDS_FUNC : HOLDS_VAR, e >> 1, shift, moved});
		} else if (o->kind == PX_O_INT) {
			add_holding(w, (holding){HOLDS_INT, 0, (int64_t)((uint64_t)o->ival + (uint64_t)shift), moved});
		} else if (o->kind == PX_O_VALUE && o->elem < 0 && !o->neg) {
			reach(w, b, d, o->id, depth + 1, shift, moved);
		}
		return;
	}
	bool add = d->op == &px_ops[PX_OP_add], sub = d->op == &px_ops[PX_OP_sub];
	if (!(add || sub) || d->nops != 2)
		return;
	/* the value and the integer: add of either order, sub of the value first */
	unsigned v = o[0].kind == PX_O_VALUE ? 0 : 1;
	const px_opnd *val = &o[v], *k = &o[!v];
	if (val->kind != PX_O_VALUE || val->elem >= 0 || val->neg || k->kind != PX_O_INT || (sub && v))
		return;
	int64_t by = sub ? -k->ival : k->ival;
	reach(w, b, d, val->id, depth + 1, (int64_t)((uint64_t)shift + (uint64_t)by), moved ? moved : d);
}

/* The last definition of id in block b before stop (NULL: in the whole
 * block), or NULL. */
static const px_node *last_def(const px_cfg *g, uint32_t b, const px_node *stop, uint32_t id)
{
	const px_node *found = NULL;
	for (uint32_t k = g->at[b]; k < g->at[b + 1] && g->stmt[k] != stop; k++)
		if (px_node_defines(g->stmt[k], id))
			found = g->stmt[k];
	return found;
}

/* A definition found: what it holds, and, when a guard may skip it, what
 * reaches it. */
static bool found_def(walk *w, uint32_t b, const px_node *d, uint32_t id, unsigned depth, int64_t shift,
                      const px_node *moved)
{
	if (!d)
		return false;
	holds(w, b, d, depth, shift, moved);
	if (d->has_guard)
		reach(w, b, d, id, depth, shift, moved);
	return true;
}

/* The definitions of id that reach statement stop of block b, and what they
 * hold. */
static void reach(walk *w, uint32_t b, const px_node *stop, uint32_t id, unsigned depth, int64_t shift,
                  const px_node *moved)
{
	const px_cfg *g = &w->fr->g;
	if (w->full || depth > DEPTH || found_def(w, b, last_def(g, b, stop, id), id, depth, shift, moved))
		return;
	px_arena_mark mark = px_arena_mark_now(w->fr->a);
	uint8_t *seen = px_frame_alloc(w->fr, g->nblocks, 1);
	uint32_t *stack = px_frame_alloc(w->fr, g->nblocks, sizeof *stack), top = 0;
	for (uint32_t i = g->pred_at[b]; i < g->pred_at[b + 1]; i++)
		if (!seen[g->pred[i]]++)
			stack[top++] = g->pred[i];
	while (top && !w->full) {
		uint32_t p = stack[--top];
		if (found_def(w, p, last_def(g, p, NULL, id), id, depth, shift, moved))
			continue;
		for (uint32_t i = g->pred_at[p]; i < g->pred_at[p + 1]; i++)
			if (!seen[g->pred[i]]++)
				stack[top++] = g->pred[i];
	}
	px_arena_release(w->fr->a, mark);
}

static void report(const walk *w, const px_node *call, const holding *h)
{
	px_diags *d = w->fr->v->d;
	const px_opnd *t = &call->icall->target;
	const px_str name = w->fr->f->values[t->id].name;
	if (h->kind == HOLDS_FUNC) {
		const px_str fn = w->m->funcs[h->index].name;
		px_warn(d, t->loc, PX_D_call_target_inside, (int)name.n, name.s, (long long)h->off, (int)fn.n, fn.s);
	} else if (h->kind == HOLDS_VAR) {
		const px_str var = w->m->globals[h->index].name;
		px_warn(d, t->loc, PX_D_call_target_data, (int)name.n, name.s, (int)var.n, var.s, (long long)h->off);
	} else {
		px_warn(d, t->loc, PX_D_call_target_int, (int)name.n, name.s, (long long)h->off);
	}
	if (h->moved) {
		const px_str by = w->fr->f->values[h->moved->res[0].id].name;
		px_note(d, h->moved->loc, PX_D_call_target_moved, (int)by.n, by.s);
	}
}

/* The first holding that is no function's start, of a call through value id. */
static const holding *bad_holding(const walk *w)
{
	for (unsigned i = 0; i < w->nalt; i++)
		if (w->alt[i].kind != HOLDS_FUNC || w->alt[i].off)
			return &w->alt[i];
	return NULL;
}

void px_check_call_targets(px_frame *fr)
{
	const px_cfg *g = &fr->g;
	walk w = {.fr = fr, .m = fr->v->m};
	for (uint32_t b = 0; b < g->nblocks; b++) {
		if (!g->reached[b] || !(g->block_marks[b] & PX_CFG_KIND(PX_N_CALL)))
			continue;
		for (uint32_t k = g->at[b]; k < g->at[b + 1]; k++) {
			if (!(g->stmt_marks[k] & PX_CFG_KIND(PX_N_CALL)))
				continue;
			const px_node *n = g->stmt[k];
			const px_opnd *t = n->icall ? &n->icall->target : NULL;
			if (t && t->kind == PX_O_VALUE && t->elem < 0) {
				w.nalt = 0;
				w.full = false;
				reach(&w, b, n, t->id, 0, 0, NULL);
				const holding *h = bad_holding(&w);
				if (h)
					report(&w, n, h);
			}
		}
	}
}
