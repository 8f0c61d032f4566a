/* Rules ptxas applies to the module as a whole (its const data) and to a
 * kernel or function together with every function it
 * calls: the static shared memory a kernel uses (every non-extern .shared
 * variable it or a callee names, laid out in declaration order at its
 * alignment) stays within the target's limit, and tcgen05's .cta_group::1 and
 * ::2 do not both appear ("uses single CTA and CTA pair granularity").
 * ptxas checks both when it finalizes a whole program (not under -c), over
 * its call graph: a function calls what it calls by name and what it names
 * (mov @f: ptxas counts the function as used there), and a function that
 * names any function or calls through a value may reach every function whose
 * address the module takes (named by any function or in a variable's
 * initializer), as ptxas 13.0 counts it.
 *
 * Functions are verified one at a time, and a callee may come later, so each
 * leaves a record of what it uses (px_record_uses) and the rules are checked
 * over the call graph when the module ends (px_check_kernels). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verify/hazard/callee.h"
#include "verify/state.h"
#include "verify/verify.h"

struct px_fn_uses {
	px_str name;
	bool is_kernel;
	uint32_t *shared;    /* the module's shared variables it names, by index */
	px_loc *shared_at;   /* where it names each first */
	uint32_t nshared;
	px_str *callees;     /* the functions it calls or names, in text order */
	px_loc *call_at;
	bool *named;         /* per callee: named (its address taken), not called */
	uint32_t ncalls;
	px_loc group_at[2];  /* where it first uses .cta_group::1, ::2 */
	px_loc reach_at;     /* where it first names a function or calls through a value */
	struct px_race_record *race; /* what the races inside device functions need of it (verify/hazard/callee.h) */
	px_fn_uses *next;
};

/* A shared variable a symbol operand names, as its global index, or -1. */
static int64_t shared_var(const px_verifier *v, const px_func *f, const px_opnd *o)
{
	if (o->kind != PX_O_SYM || px_func_local(f, o->sym))
		return -1;
	uint32_t e = px_module_sym(v->m, o->sym);
	if (e == PX_STRMAP_NONE || (e & 1))
		return -1;
	const px_global *g = &v->m->globals[e >> 1];
	return g->space == PX_SPACE_SHARED && g->linkage != PX_LINK_EXTERN ? (int64_t)(e >> 1) : -1;
}

typedef struct uses_builder {
	px_verifier *v;
	const px_func *f;
	px_fn_uses *u;
	uint32_t cap;
	uint32_t call_cap;
} uses_builder;

/* Is a symbol operand a function's name (its address taken)? */
static bool names_function(const px_verifier *v, const px_func *f, const px_opnd *o)
{
	if (o->kind != PX_O_SYM || px_func_local(f, o->sym))
		return false;
	uint32_t e = px_module_sym(v->m, o->sym);
	return e != PX_STRMAP_NONE && (e & 1);
}

static void add_callee(uses_builder *b, px_str name, px_loc at, bool named)
{
	px_fn_uses *u = b->u;
	if (u->ncalls == b->call_cap) {
		uint32_t cap = b->call_cap ? 2 * b->call_cap : 8;
		px_str *c = px_arena_alloc(b->v->keep, cap * sizeof *c);
		px_loc *l = px_arena_alloc(b->v->keep, cap * sizeof *l);
		bool *nm = px_arena_alloc(b->v->keep, cap * sizeof *nm);
		if (u->ncalls) {
			memcpy(c, u->callees, u->ncalls * sizeof *c);
			memcpy(l, u->call_at, u->ncalls * sizeof *l);
			memcpy(nm, u->named, u->ncalls * sizeof *nm);
		}
		u->callees = c;
		u->call_at = l;
		u->named = nm;
		b->call_cap = cap;
	}
	u->callees[u->ncalls] = name;
	u->named[u->ncalls] = named;
	u->call_at[u->ncalls++] = at;
}

/* A function named as an operand counts as called there. */
static void note_named(uses_builder *b, const px_opnd *o)
{
	if (!names_function(b->v, b->f, o))
		return;
	add_callee(b, o->sym, o->loc, true);
	if (!px_loc_known(b->u->reach_at) || o->loc.pos < b->u->reach_at.pos)
		b->u->reach_at = o->loc;
}

static void note_shared(uses_builder *b, const px_opnd *o)
{
	if (o->kind == PX_O_ADDR) {
		note_shared(b, o->base);
		return;
	}
	if (o->kind == PX_O_GROUP) {
		for (uint32_t i = 0; i < o->nelems; i++)
			note_shared(b, &o->elems[i]);
		return;
	}
	int64_t g = shared_var(b->v, b->f, o);
	if (g < 0) {
		note_named(b, o);
		return;
	}
	px_fn_uses *u = b->u;
	for (uint32_t i = 0; i < u->nshared; i++)
		if (u->shared[i] == (uint32_t)g)
			return;
	if (u->nshared == b->cap) {
		uint32_t cap = b->cap ? 2 * b->cap : 8;
		uint32_t *s = px_arena_alloc(b->v->keep, cap * sizeof *s);
		px_loc *at = px_arena_alloc(b->v->keep, cap * sizeof *at);
		if (u->nshared) {
			memcpy(s, u->shared, u->nshared * sizeof *s);
			memcpy(at, u->shared_at, u->nshared * sizeof *at);
		}
		u->shared = s;
		u->shared_at = at;
		b->cap = cap;
	}
	u->shared[u->nshared] = (uint32_t)g;
	u->shared_at[u->nshared++] = o->loc;
}

void px_record_uses(px_verifier *v, const px_func *f)
{
	px_fn_uses *u = px_arena_alloc(v->keep, sizeof *u);
	memset(u, 0, sizeof *u);
	u->name = f->name;
	u->is_kernel = f->is_kernel;
	uses_builder b = {v, f, u, 0, 0};
	for (const px_node *n = f->first; n; n = n->next) {
		if (n->kind == PX_N_CALL && !n->icall)
			add_callee(&b, n->callee, n->callee_loc, false);
		if (n->kind == PX_N_CALL && n->icall && (!px_loc_known(u->reach_at) || n->callee_loc.pos < u->reach_at.pos))
			u->reach_at = n->callee_loc;
		if (n->kind != PX_N_INST && n->kind != PX_N_CALL)
			continue;
		for (uint32_t i = 0; i < n->nops; i++)
			note_shared(&b, &n->ops[i]);
		int si = n->kind == PX_N_INST && n->op && n->slot && (n->op->flags & PX_OPF_CTA_GRANULARITY)
		             ? px_slot_find(n->op, PX_SN_cta_group)
		             : -1;
		if (si < 0 || !n->slot[si])
			continue;
		unsigned k = n->slot[si] == PX_TOK_cta_group__2;
		if (!px_loc_known(u->group_at[k]))
			u->group_at[k] = n->loc;
	}
	*v->uses_tail = u;
	v->uses_tail = &u->next;
	v->cur_uses = u;
}

void px_uses_keep_race(px_verifier *v, struct px_race_record *r)
{
	v->cur_uses->race = r;
}

/* The races inside device functions, over the records in text order. */
static void check_call_races(px_verifier *v)
{
	uint32_t n = 0, k = 0;
	for (const px_fn_uses *u = v->uses; u; u = u->next)
		n++;
	struct px_race_record **recs = malloc((n ? n : 1) * sizeof *recs);
	if (!recs)
		abort();
	for (const px_fn_uses *u = v->uses; u; u = u->next)
		recs[k++] = u->race;
	px_check_call_races(v, recs, n);
	free(recs);
}

/* The record of each function of the module, by its index in m->funcs. */
static px_fn_uses **index_uses(px_verifier *v)
{
	px_fn_uses **by = calloc(v->m->nfuncs + 1, sizeof *by);
	if (!by)
		abort();
	for (px_fn_uses *u = v->uses; u; u = u->next) {
		uint32_t e = px_module_sym(v->m, u->name);
		if (e != PX_STRMAP_NONE && (e & 1))
			by[e >> 1] = u;
	}
	return by;
}

/* Which functions the module takes the address of: named by a function or
 * in a variable's initializer (a call through a value may reach each). */
static bool *taken_functions(px_verifier *v, px_fn_uses **by)
{
	bool *taken = calloc(v->m->nfuncs + 1, sizeof *taken);
	if (!taken)
		abort();
	for (uint32_t i = 0; i < v->m->nfuncs; i++)
		for (uint32_t c = 0; by[i] && c < by[i]->ncalls; c++) {
			uint32_t e = px_module_sym(v->m, by[i]->callees[c]);
			if (by[i]->named[c] && e != PX_STRMAP_NONE && (e & 1))
				taken[e >> 1] = true;
		}
	for (uint32_t g = 0; g < v->m->nglobals; g++)
		for (uint32_t k = 0; k < v->m->globals[g].ninit; k++) {
			const px_opnd *o = &v->m->globals[g].init[k];
			uint32_t e = o->kind == PX_O_SYM ? px_module_sym(v->m, o->sym) : PX_STRMAP_NONE;
			if (e != PX_STRMAP_NONE && (e & 1))
				taken[e >> 1] = true;
		}
	return taken;
}

/* The function a call edge of u leads to, by index, or -1: edge c below
 * u->ncalls is its call or name c; the rest, where u names a function or
 * calls through a value, one per function the module takes the address of
 * (at u->reach_at). */
static int64_t edge_target(px_verifier *v, const px_fn_uses *u, const bool *taken, uint32_t c, px_loc *at)
{
	if (c < u->ncalls) {
		uint32_t e = px_module_sym(v->m, u->callees[c]);
		*at = u->call_at[c];
		return e != PX_STRMAP_NONE && (e & 1) ? (int64_t)(e >> 1) : -1;
	}
	c -= u->ncalls;
	*at = u->reach_at;
	return px_loc_known(u->reach_at) && taken[c] ? (int64_t)c : -1;
}

static uint32_t edge_count(const px_verifier *v, const px_fn_uses *u)
{
	return u->ncalls + (px_loc_known(u->reach_at) ? v->m->nfuncs : 0);
}

/* Which of .cta_group::1 (bit 0) and ::2 (bit 1) each function reaches,
 * itself or through its callees: the sets only grow, so passes settle them. */
static uint8_t *group_closure(px_verifier *v, px_fn_uses **by, const bool *taken)
{
	uint8_t *mask = calloc(v->m->nfuncs + 1, 1);
	if (!mask)
		abort();
	for (bool changed = true; changed;) {
		changed = false;
		for (uint32_t i = 0; i < v->m->nfuncs; i++) {
			const px_fn_uses *u = by[i];
			if (!u)
				continue;
			uint8_t m = mask[i] | (px_loc_known(u->group_at[0]) ? 1 : 0) | (px_loc_known(u->group_at[1]) ? 2 : 0);
			for (uint32_t c = 0; c < edge_count(v, u); c++) {
				px_loc at;
				int64_t t = edge_target(v, u, taken, c, &at);
				if (t >= 0)
					m |= mask[t];
			}
			changed |= m != mask[i];
			mask[i] = m;
		}
	}
	return mask;
}

/* A function that reaches both granularities while none of its callees
 * does: reported at the later of the two places (its own use, or the call
 * that reaches the other), naming the line of the first. */
static void check_groups(px_verifier *v, px_fn_uses **by, const uint8_t *mask, const bool *taken)
{
	for (uint32_t i = 0; i < v->m->nfuncs; i++) {
		const px_fn_uses *u = by[i];
		if (!u || mask[i] != 3)
			continue;
		px_loc at[2] = {u->group_at[0], u->group_at[1]};
		bool inner = false;
		for (uint32_t c = 0; c < edge_count(v, u); c++) {
			px_loc via;
			int64_t t = edge_target(v, u, taken, c, &via);
			uint8_t m = t >= 0 && t != (int64_t)i ? mask[t] : 0; /* itself: no inner culprit */
			inner |= m == 3;
			for (unsigned k = 0; k < 2; k++)
				if ((m >> k & 1) && (!px_loc_known(at[k]) || via.pos < at[k].pos))
					at[k] = via;
		}
		if (inner)
			continue;
		unsigned later = at[1].pos > at[0].pos;
		px_error(v->d, at[later], PX_D_cta_group_mix, (int)u->name.n, u->name.s, later + 1, 2 - later,
		         px_module_line(v->m, at[!later]));
	}
}

/* The shared variables a kernel reaches, each with the place to report it:
 * the kernel's own use, or its call that reaches the callee using it. */
static void reach_shared(px_verifier *v, px_fn_uses **by, const bool *taken, const px_fn_uses *u, px_loc via,
                         bool *seen_fn, px_loc *at)
{
	uint32_t e = px_module_sym(v->m, u->name);
	if (e == PX_STRMAP_NONE || !(e & 1) || seen_fn[e >> 1])
		return;
	seen_fn[e >> 1] = true;
	for (uint32_t i = 0; i < u->nshared; i++)
		if (!px_loc_known(at[u->shared[i]]))
			at[u->shared[i]] = px_loc_known(via) ? via : u->shared_at[i];
	for (uint32_t c = 0; c < edge_count(v, u); c++) {
		px_loc edge;
		int64_t t = edge_target(v, u, taken, c, &edge);
		if (t >= 0 && by[t])
			reach_shared(v, by, taken, by[t], px_loc_known(via) ? via : edge, seen_fn, at);
	}
}

static void check_shared(px_verifier *v, px_fn_uses **by, const bool *taken)
{
	uint32_t max = v->target ? v->target->static_shared : 0;
	if (!max)
		return;
	bool *seen_fn = malloc((v->m->nfuncs + 1) * sizeof *seen_fn);
	px_loc *at = malloc((v->m->nglobals + 1) * sizeof *at);
	if (!seen_fn || !at)
		abort();
	for (uint32_t i = 0; i < v->m->nfuncs; i++) {
		const px_fn_uses *u = by[i];
		if (!u || !u->is_kernel)
			continue;
		memset(seen_fn, 0, (v->m->nfuncs + 1) * sizeof *seen_fn);
		memset(at, 0, (v->m->nglobals + 1) * sizeof *at);
		px_loc none = {0};
		reach_shared(v, by, taken, u, none, seen_fn, at);
		uint64_t end = 0;
		for (uint32_t g = 0; g < v->m->nglobals; g++) {
			if (!px_loc_known(at[g]))
				continue;
			const px_global *gl = &v->m->globals[g];
			uint64_t bytes = px_types[gl->type].width / 8 ? px_types[gl->type].width / 8 : 1;
			uint64_t align = gl->align ? gl->align : bytes;
			end = (end + align - 1) / align * align + bytes * (gl->is_array ? gl->count : 1);
			if (end <= max)
				continue;
			px_error(v->d, at[g], PX_D_static_shared_max, (int)gl->name.n, gl->name.s, (int)u->name.n, u->name.s,
			         (unsigned long long)end, (unsigned long long)end, max, max, v->target->name);
			break;
		}
	}
	free(seen_fn);
	free(at);
}

/* A module's const data: every non-extern const variable, used or not, in
 * declaration order at its alignment; the variable that crosses the limit
 * is reported at its declaration. */
static void check_const_data(px_verifier *v)
{
	uint64_t end = 0;
	for (uint32_t g = 0; g < v->m->nglobals && px_const_data_bytes; g++) {
		const px_global *gl = &v->m->globals[g];
		if (gl->space != PX_SPACE_CONST || gl->linkage == PX_LINK_EXTERN || gl->handle)
			continue;
		uint64_t bytes = px_types[gl->type].width / 8 ? px_types[gl->type].width / 8 : 1;
		uint64_t align = gl->align ? gl->align : bytes;
		end = (end + align - 1) / align * align + bytes * (gl->is_array ? gl->count : 1);
		if (end > px_const_data_bytes) {
			px_error(v->d, gl->loc, PX_D_const_data_max, (int)gl->name.n, gl->name.s, (unsigned long long)end,
			         (unsigned long long)end, px_const_data_bytes, px_const_data_bytes);
			return;
		}
	}
}

void px_check_kernels(px_verifier *v)
{
	check_const_data(v);
	if (!v->uses)
		return;
	px_fn_uses **by = index_uses(v);
	bool *taken = taken_functions(v, by);
	uint8_t *mask = group_closure(v, by, taken);
	check_groups(v, by, mask, taken);
	check_shared(v, by, taken);
	check_call_races(v);
	free(mask);
	free(taken);
	free(by);
}
