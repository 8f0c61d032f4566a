/* What a function keeps for the races inside device functions (see
 * callee.h): a device function's summary, a kernel's calls. */
#include "verify/hazard/callee.h"

#include <string.h>

#include "diag/diag.h"
#include "tables/tables.h"
#include "util/arena.h"
#include "verify/state.h"

/* Whether every thread entering f runs each of its statements once. */
static bool straight(const px_func *f)
{
	for (const px_node *n = f->first; n; n = n->next) {
		if (n->has_guard || (n->kind != PX_N_INST && n->kind != PX_N_RET) || (n->kind == PX_N_INST && !n->op))
			return false;
		if (n->kind == PX_N_INST && (n->op->shape == PX_SHAPE_BRANCH ||
		                             (n->op->flags & (PX_OPF_TERMINATOR | PX_OPF_CTA_BARRIER | PX_OPF_ORDERS_THREADS))))
			return false;
	}
	return true;
}

static int param_index(const px_func *f, uint32_t id)
{
	for (uint32_t k = 0; k < f->nparams; k++)
		if (f->params[k].value == id)
			return (int)k;
	return -1;
}

/* The form with f's parameters as PX_CALLEE_PARAM + k; known false when it
 * names another atom, the block's sizes or a variable. */
static px_aff over_params(const px_func *f, const px_values *va, px_aff a)
{
	if (a.base)
		return (px_aff){0};
	for (unsigned i = a.nterms; a.known && i-- > 0;) {
		uint32_t v = a.var[i];
		if (v >= PX_VV_NTID_X && v < PX_VV_VALUE)
			return (px_aff){0};
		if (v < PX_VV_VALUE)
			continue;
		int k = param_index(f, v - PX_VV_VALUE);
		if (k < 0 || va->ndefs[v - PX_VV_VALUE])
			return (px_aff){0};
		a = px_aff_subst(a, v, (px_aff){.known = true, .nterms = 1, .var = {PX_CALLEE_PARAM + (uint32_t)k}, .coef = {1}});
	}
	return a;
}

/* Whether value id may depend on f's parameters (or is not known not to). */
static bool reads_params(const px_func *f, const px_values *va, uint32_t id, unsigned depth)
{
	const px_node *d = va->def[id];
	if (f->values[id].param || !d || depth > 16)
		return true;
	for (uint32_t k = 0; k < d->nops; k++) {
		const px_opnd *o = d->ops[k].kind == PX_O_ADDR ? d->ops[k].base : &d->ops[k];
		if (o && o->kind == PX_O_VALUE && reads_params(f, va, o->id, depth + 1))
			return true;
	}
	return false;
}

/* Whether st s stores a value every thread holds alike, whatever the
 * arguments (a benign race with itself). */
static bool same_store(const px_func *f, const px_values *va, const px_node *s)
{
	if (s->op != &px_ops[PX_OP_st] || s->nops != 2)
		return false;
	const px_opnd *o = &s->ops[1];
	if (o->kind == PX_O_FLOAT || o->kind == PX_O_FBITS || o->kind == PX_O_INT)
		return true;
	px_aff a = px_value_form(va, o);
	return o->kind == PX_O_VALUE && o->elem < 0 && px_aff_uniform(va, &a) && !reads_params(f, va, o->id, 0);
}

/* What a kept record would hold: a device function's accesses, a kernel's
 * calls of its first block. */
static uint32_t to_keep(const px_func *f, const px_cfg *g)
{
	uint32_t n = 0;
	unsigned space;
	if (!f->is_kernel) {
		for (const px_node *s = f->first; s; s = s->next)
			n += px_access_space(s, &space);
		return n;
	}
	for (uint32_t j = 0; g->nblocks && j < g->at[1]; j++)
		n += g->stmt[j]->kind == PX_N_CALL && !g->stmt[j]->icall && !g->stmt[j]->has_guard;
	return n;
}

static void summarize(px_verifier *v, const px_func *f, const px_values *va, px_race_record *r, uint32_t n)
{
	unsigned space;
	r->acc = px_arena_alloc(v->keep, n * sizeof *r->acc);
	for (const px_node *s = f->first; s; s = s->next) {
		if (!px_access_space(s, &space) || (space && space != PX_TOK_global) || !s->nops ||
		    s->ops[0].kind != PX_O_ADDR)
			continue;
		px_callee_access *a = &r->acc[r->nacc];
		a->form = over_params(f, va, px_value_addr(va, &s->ops[0]));
		a->bytes = px_access_bytes(s);
		if (!a->form.known || !a->bytes)
			continue;
		a->at = s->ops[0].loc;
		px_node_name(s, a->name, sizeof a->name);
		a->global = space == PX_TOK_global;
		a->atomic = s->op != &px_ops[PX_OP_ld] && s->op != &px_ops[PX_OP_st];
		a->writes = s->op != &px_ops[PX_OP_ld];
		a->same_store = same_store(f, va, s);
		r->nacc++;
	}
}

static px_str keep_str(px_verifier *v, px_str s)
{
	return (px_str){px_arena_strndup(v->keep, s.s, s.n), s.n};
}

/* What atom v of a kernel's argument is. */
static px_call_atom atom_of(px_verifier *v, const px_func *f, const px_values *va, uint32_t var)
{
	uint32_t id = var - PX_VV_VALUE;
	px_call_atom c = {.var = var, .kind = PX_ARG_OTHER, .name = keep_str(v, f->values[id].name)};
	int k = param_index(f, id);
	const px_type_info *t = &px_types[f->values[id].type];
	px_aff self = px_value_form_id(va, id);
	if (k >= 0 && !va->ndefs[id] && f->params[k].type == PX_T_ptr && f->params[k].space == PX_TOK_global) {
		c.kind = PX_ARG_POINTER;
	} else if (k >= 0 && !va->ndefs[id] && (t->kind == PX_KIND_UINT || t->kind == PX_KIND_SINT || t->kind == PX_KIND_BIT)) {
		unsigned w = t->width < 40 ? t->width : 40;
		c.kind = PX_ARG_FREE;
		c.lo = t->kind == PX_KIND_SINT ? -((int64_t)1 << (w - 1)) : 0;
		c.hi = t->kind == PX_KIND_SINT ? ((int64_t)1 << (w - 1)) - 1 : ((int64_t)1 << w) - 1;
	} else if (px_aff_uniform(va, &self)) {
		c.kind = PX_ARG_ALIKE;
	}
	return c;
}

/* The direct calls of a kernel's first block, which every thread runs. */
static void calls(px_verifier *v, const px_func *f, const px_cfg *g, const px_values *va, px_race_record *r,
                  uint32_t n)
{
	r->calls = px_arena_alloc(v->keep, n * sizeof *r->calls);
	for (uint32_t j = 0; j < g->at[1]; j++) {
		const px_node *n = g->stmt[j];
		if (n->kind != PX_N_CALL || n->icall || n->has_guard)
			continue;
		px_call_site *c = &r->calls[r->ncalls++];
		c->callee = keep_str(v, n->callee);
		c->at = n->loc;
		c->nargs = n->nops;
		c->args = px_arena_alloc(v->keep, (n->nops ? n->nops : 1) * sizeof *c->args);
		c->atoms = px_arena_alloc(v->keep, (n->nops ? n->nops : 1) * PX_AFF_TERMS * sizeof *c->atoms);
		for (uint32_t k = 0; k < n->nops; k++) {
			px_aff a = px_value_form(va, &n->ops[k]);
			c->args[k] = a.base ? (px_aff){0} : a;
			for (unsigned i = 0; c->args[k].known && i < a.nterms; i++) {
				bool seen = a.var[i] < PX_VV_VALUE;
				for (uint32_t e = 0; !seen && e < c->natoms; e++)
					seen = c->atoms[e].var == a.var[i];
				if (!seen)
					c->atoms[c->natoms++] = atom_of(v, f, va, a.var[i]);
			}
		}
	}
}

/* The record of function f, or NULL when it keeps nothing. */
static px_race_record *record(px_verifier *v, const px_func *f, const px_cfg *g, const px_values *va)
{
	uint32_t n;
	if (px_warning_decide(v->d->warn, PX_D_global_race) == PX_WARN_DROP || f->is_decl ||
	    (!f->is_kernel && !straight(f)) || (f->is_kernel && (va->launch_assumed || !f->ncalls)) ||
	    !(n = to_keep(f, g)))
		return NULL;
	px_race_record *r = px_arena_alloc(v->keep, sizeof *r);
	r->name = keep_str(v, f->name);
	r->loc = f->loc;
	r->launch = va->launch;
	if (f->is_kernel)
		calls(v, f, g, va, r, n);
	else
		summarize(v, f, va, r, n);
	return r->nacc || r->ncalls ? r : NULL;
}

void px_race_record_keep(px_frame *fr)
{
	px_uses_keep_race(fr->v, record(fr->v, fr->f, &fr->g, &fr->va));
}
