/* The verifier's walk over one function in text order: parameters and kernel
 * directives, then each node (operation, types, variant, operands), calls and
 * returns against the signatures, and labels when the function ends. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag/suggest.h"
#include "verify/state.h"
#include "verify/verify.h"
#include "family.h"

void px_verifier_init(px_verifier *v, px_module *m, px_diags *d, const char *opt_target,
                      const char *opt_ptx)
{
	memset(v, 0, sizeof *v);
	v->m = m;
	v->d = d;
	v->opt_target = opt_target;
	v->opt_ptx = opt_ptx;
	v->pending_tail = &v->pending;
	v->keep = &m->arena;
	px_slotsets_init(&v->slotsets);
}

void px_verifier_free(px_verifier *v)
{
	free(v->state);
	v->state = NULL;
	px_first_rows_free(&v->first_rows);
	px_slotsets_free(&v->slotsets);
}

void px_note_window(px_verifier *v, px_loc loc, const char *what, uint64_t targets, uint16_t ptx)
{
	if (!v->target)
		return;
	if (!px_target_in(targets, v->target)) {
		px_window_report(v, loc, what, targets);
	} else if (v->ptx_given && v->ptx_given < ptx) {
		px_error(v->d, loc, PX_D_needs_ptx, what, ptx / 10, ptx % 10, v->ptx_given / 10, v->ptx_given % 10);
	} else if (ptx > v->ptx_needed) {
		v->ptx_needed = ptx;
	}
}

static void check_params(px_verifier *v, px_func *f)
{
	for (uint32_t i = 0; i < f->nparams; i++)
		v->state[f->params[i].value] |= PX_VS_DEF | PX_VS_TYPED;
}

/* data/directives.yaml's range: and product: (a missing dimension is 1). */
static void check_directive_args(px_verifier *v, const px_directive *d, const px_dirval *dv)
{
	uint64_t product = 1;
	char list[40];
	int k = 0;
	bool each_ok = true;
	for (unsigned i = 0; i < dv->nargs; i++) {
		if (dv->args[i] < d->lo[i] || dv->args[i] > d->hi[i]) {
			px_error(v->d, dv->argloc[i], PX_D_directive_arg_range, i + 1, d->name, (unsigned)d->lo[i],
			         (unsigned)d->hi[i], (unsigned)dv->args[i]);
			each_ok = false;
		}
		product *= dv->args[i];
		k += snprintf(list + k, sizeof list - k, "%s%u", i ? ", " : "", (unsigned)dv->args[i]);
	}
	if (each_ok && d->product && product > d->product) /* one message for an argument out of range */
		px_error(v->d, dv->loc, d->product_diag, d->name, list, (unsigned long long)product, (unsigned)d->product);
}

static void check_directives(px_verifier *v, px_func *f)
{
	for (unsigned i = 0; i < px_ndirectives; i++) {
		const px_dirval *dv = &f->dirs[i];
		const px_directive *d = &px_directives[i];
		if (!dv->present)
			continue;
		if (!f->is_kernel && d->kernel_only) {
			px_error(v->d, dv->loc, PX_D_directive_on_func, d->name);
			continue;
		}
		px_note_window(v, dv->loc, d->print, d->targets, d->ptx);
		check_directive_args(v, d, dv);
	}
	uint32_t present = 0;
	for (unsigned i = 0; i < px_ndirectives; i++)
		present |= f->dirs[i].present ? 1u << i : 0;
	for (unsigned i = 0; i < px_ndirectives; i++) { /* data/directives.yaml's needs: and excludes: */
		const px_directive *d = &px_directives[i];
		if (!f->dirs[i].present)
			continue;
		if (present & d->excludes)
			px_error(v->d, f->dirs[i].loc, d->excludes_diag);
		if ((present & d->needs) != d->needs)
			px_error(v->d, f->dirs[i].loc, d->needs_diag);
	}
}

void px_undefined_value(px_verifier *v, px_func *f, px_loc loc, uint32_t id)
{
	const px_value *val = &f->values[id];
	px_suggest sg;
	px_suggest_init(&sg, val->name.s, val->name.n);
	for (uint32_t j = 0; j < f->nvalues; j++)
		if (f->values[j].has_def)
			px_suggest_offer(&sg, f->values[j].name.s, f->values[j].name.n);
	/* a special register without a dot ("%laneidd") reads as a value name */
	for (unsigned j = 0; j < px_nsregs; j++)
		if (px_sregs[j].name[0] == '%')
			px_suggest_offer_str(&sg, px_sregs[j].name + 1);
	if (sg.best)
		px_error(v->d, loc, PX_D_undefined_value_hint, (int)val->name.n, val->name.s, (int)sg.best_n,
		         sg.best);
	else
		px_error(v->d, loc, PX_D_undefined_value, (int)val->name.n, val->name.s);
}

static void check_guard(px_verifier *v, px_func *f, px_node *n)
{
	if (!n->has_guard)
		return;
	px_value *g = &f->values[n->guard];
	if (!(v->state[n->guard] & PX_VS_DEF)) {
		if (g->has_def)
			px_error(v->d, n->loc, PX_D_use_before_def, (int)g->name.n, g->name.s);
		else
			px_undefined_value(v, f, n->loc, n->guard);
		v->state[n->guard] |= PX_VS_DEF;
	} else if (g->type && px_types[g->type].kind != PX_KIND_PRED) {
		px_error(v->d, n->loc, PX_D_guard_not_pred, (int)g->name.n, g->name.s, px_types[g->type].name);
	}
	if (n->op && (n->op->flags & PX_OPF_NOGUARD))
		px_error(v->d, n->loc, PX_D_noguard, n->op->name);
}

/* The family's own preparation, then the tables' defaults: an empty slot
 * whose default another slot's token picks (`default:` of data/ops). */
static bool prepare(px_verifier *v, px_func *f, px_node *n)
{
	bool (*own)(px_verifier *, px_func *, px_node *) = px_families[n->op->family].prepare;
	if (own && !own(v, f, n))
		return false;
	for (unsigned i = 0; i < n->op->nslots; i++) {
		const px_slot_def *s = &n->op->slots[i];
		if (!s->dflt || n->slot[i])
			continue;
		for (const uint16_t *p = s->dflt; p[0]; p += 2)
			if (n->slot[s->dflt_from] == p[0])
				px_slots_edit(v, n)[i] = p[1];
	}
	return true;
}

/* %x[i] on a value that is no array, reported before the operation's types
 * are inferred from it (they would be the scalar's, and the operation's
 * complaint about them would hide the mistake). False if there is one. */
static bool elems_ok(px_verifier *v, const px_func *f, const px_opnd *o)
{
	if (!o)
		return true;
	if (o->kind == PX_O_VALUE && o->elem >= 0) {
		const px_value *val = &f->values[o->id];
		if (val->has_def && !val->count) {
			px_error(v->d, o->loc, PX_D_not_array, (int)val->name.n, val->name.s);
			return false;
		}
	}
	if (o->kind == PX_O_ADDR)
		return elems_ok(v, f, o->base) && elems_ok(v, f, px_addr_idx(o));
	bool ok = true;
	for (uint32_t i = 0; o->kind == PX_O_GROUP && i < o->nelems; i++)
		ok = elems_ok(v, f, &o->elems[i]) && ok;
	return ok;
}

static bool operand_elems_ok(px_verifier *v, const px_func *f, const px_node *n)
{
	bool ok = true;
	for (uint32_t i = 0; i < n->nops; i++)
		ok = elems_ok(v, f, &n->ops[i]) && ok;
	return ok;
}

static void check_inst(px_verifier *v, px_func *f, px_node *n)
{
	if (px_resolve_op(v, n) && operand_elems_ok(v, f, n) && prepare(v, f, n) && px_infer_types(v, f, n) && px_check_rules(v, n) &&
	    px_select_variant(v, f, n)) {
		check_guard(v, f, n);
		px_check_operands(v, f, n);
		if (px_families[n->op->family].check)
			px_families[n->op->family].check(v, f, n);
		px_slots_done(v, n);
		return;
	}
	check_guard(v, f, n);
	n->var = NULL;
	/* keep going: the results still define their values, so one mistake is
	 * reported once and not again at every later use */
	px_define_results(v, f, n, NULL, 0);
	px_slots_done(v, n);
}

static bool is_literal(const px_opnd *o)
{
	return o->kind == PX_O_INT || o->kind == PX_O_FLOAT || o->kind == PX_O_FBITS;
}

/* A plain value operand of a call or ret: defined, and its type. */
static int arg_type(px_verifier *v, px_func *f, const px_opnd *o)
{
	switch (o->kind) {
	case PX_O_VALUE:
		if (!(v->state[o->id] & PX_VS_DEF)) {
			const px_value *val = &f->values[o->id];
			if (val->has_def)
				px_error(v->d, o->loc, PX_D_use_before_def, (int)val->name.n, val->name.s);
			else
				px_undefined_value(v, f, o->loc, o->id);
			v->state[o->id] |= PX_VS_DEF;
		}
		if (f->values[o->id].count && o->elem < 0) {
			px_error(v->d, o->loc, PX_D_array_as_scalar, (int)f->values[o->id].name.n, f->values[o->id].name.s);
			return 0;
		}
		return f->values[o->id].type;
	case PX_O_INT:
	case PX_O_FLOAT:
	case PX_O_FBITS:
		return 0;
	default:
		px_error(v->d, o->loc, PX_D_bad_argument);
		return 0;
	}
}

/* Check a call against sig, or remember it for the end of the module. */
void px_check_call_sig(px_verifier *v, const px_funcsig *sig, const char *sigil, px_str callee, px_loc loc,
                       const uint16_t *args, const px_opnd *lits, uint32_t nargs, const uint16_t *rets,
                       uint32_t nrets)
{
	if (sig->is_kernel) {
		px_error(v->d, loc, PX_D_call_kernel, (int)callee.n, callee.s);
		return;
	}
	if (nargs != sig->nparams) {
		px_error(v->d, loc, PX_D_call_arg_count, sigil, (int)callee.n, callee.s, sig->nparams, nargs);
		return;
	}
	char *what = NULL;
	for (uint32_t i = 0; i < nargs; i++) {
		if (!sig->params[i]) {
			px_error(v->d, loc, PX_D_call_aggregate, i + 1, sigil, (int)callee.n, callee.s);
			continue;
		}
		if (lits[i].kind != PX_O_NONE) {
			if (!what) { /* "@name" or "%value", as the literal's messages name the callee */
				what = px_arena_alloc(v->keep, callee.n + 2);
				what[0] = sigil[0];
				memcpy(what + 1, callee.s, callee.n);
				what[callee.n + 1] = 0;
			}
			px_check_literal(v, &lits[i], sig->params[i] == PX_T_ptr ? PX_T_u64 : sig->params[i], i + 1,
			                 what);
		} else if (args[i] && !px_type_fits(args[i], sig->params[i])) {
			px_error(v->d, loc, PX_D_call_arg_type, i + 1, sigil, (int)callee.n, callee.s,
			         px_types[args[i]].name, px_types[sig->params[i]].name);
		}
	}
	if (nrets > sig->nrets) {
		px_error(v->d, loc, PX_D_call_ret_count, sigil, (int)callee.n, callee.s, sig->nrets, nrets);
		return;
	}
	for (uint32_t i = 0; i < nrets; i++)
		if (rets[i] && !px_type_fits(rets[i], sig->rets[i]))
			px_error(v->d, loc, PX_D_call_ret_type, i + 1, sigil, (int)callee.n, callee.s,
			         px_types[rets[i]].name, px_types[sig->rets[i]].name);
}

static const px_funcsig *find_sig(px_module *m, px_str name)
{
	uint32_t s = px_module_sym(m, name);
	if (s == PX_STRMAP_NONE || !(s & 1))
		return NULL;
	return &m->funcs[s >> 1];
}

static void check_call(px_verifier *v, px_func *f, px_node *n)
{
	uint16_t *args = px_arena_alloc(v->keep, (n->nops + 1) * sizeof *args);
	uint16_t *rets = px_arena_alloc(v->keep, (n->nres + 1) * sizeof *rets);
	px_opnd *lits = px_arena_alloc(v->keep, (n->nops + 1) * sizeof *lits);
	for (uint32_t i = 0; i < n->nops; i++) {
		args[i] = (uint16_t)arg_type(v, f, &n->ops[i]);
		memset(&lits[i], 0, sizeof lits[i]);
		if (is_literal(&n->ops[i]))
			lits[i] = n->ops[i];
	}
	px_define_results(v, f, n, NULL, 0);
	for (uint32_t i = 0; i < n->nres; i++) {
		const px_opnd *o = &n->res[i];
		rets[i] = o->kind == PX_O_VALUE ? f->values[o->id].type : 0;
	}
	if (n->icall) { /* through a value: the signature written after ':' */
		const px_funcsig *proto = n->icall->proto;
		int t = arg_type(v, f, &n->icall->target);
		if (t && !px_type_fits(t, PX_T_u64))
			px_error(v->d, n->icall->target.loc, PX_D_call_target_type, (int)proto->name.n, proto->name.s,
			         px_types[t].name);
		px_check_call_sig(v, proto, "%", proto->name, n->callee_loc, args, lits, n->nops, rets, n->nres);
		return;
	}
	const px_funcsig *sig = find_sig(v->m, n->callee);
	if (sig) {
		px_check_call_sig(v, sig, "@", n->callee, n->callee_loc, args, lits, n->nops, rets, n->nres);
		return;
	}
	px_pending_call *p = px_arena_alloc(v->keep, sizeof *p);
	p->callee.s = px_arena_strndup(v->keep, n->callee.s, n->callee.n);
	p->callee.n = n->callee.n;
	p->loc = n->callee_loc;
	p->args = args;
	p->lits = lits;
	p->nargs = n->nops;
	p->rets = rets;
	p->nrets = n->nres;
	*v->pending_tail = p;
	v->pending_tail = &p->next;
}

static void check_ret(px_verifier *v, px_func *f, px_node *n)
{
	if (f->is_kernel && n->nops) {
		px_error(v->d, n->ops[0].loc, PX_D_kernel_ret_value);
		return;
	}
	if (!f->is_kernel && n->nops != f->nrets) {
		px_error(v->d, n->loc, PX_D_ret_count, f->nrets, n->nops);
		return;
	}
	for (uint32_t i = 0; i < n->nops; i++) {
		int t = arg_type(v, f, &n->ops[i]);
		if (is_literal(&n->ops[i]))
			px_check_literal(v, &n->ops[i], f->rets[i] == PX_T_ptr ? PX_T_u64 : f->rets[i], i + 1, "ret");
		else if (t && !px_type_fits(t, f->rets[i]))
			px_error(v->d, n->ops[i].loc, PX_D_ret_type, i + 1, px_types[t].name, px_types[f->rets[i]].name);
	}
	check_guard(v, f, n);
}

static void check_labels(px_verifier *v, px_func *f)
{
	for (uint32_t i = 0; i < f->nlabels; i++) {
		const px_label *l = &f->labels[i];
		if (!l->used || l->defined)
			continue;
		px_suggest sg;
		px_suggest_init(&sg, l->name.s, l->name.n);
		for (uint32_t j = 0; j < f->nlabels; j++)
			if (f->labels[j].defined)
				px_suggest_offer(&sg, f->labels[j].name.s, f->labels[j].name.n);
		if (sg.best)
			px_error(v->d, l->first_use, PX_D_undefined_label_hint, (int)l->name.n, l->name.s,
			         (int)sg.best_n, sg.best);
		else
			px_error(v->d, l->first_use, PX_D_undefined_label, (int)l->name.n, l->name.s);
	}
}

void px_verify_has_target(px_verifier *v, const px_func *f)
{
	if (!v->target && !v->target_reported) {
		px_error(v->d, f->loc, PX_D_no_target);
		v->target_reported = true;
	}
}

void px_verify_func(px_verifier *v, px_func *f)
{
	px_verify_has_target(v, f);
	unsigned errors_before = v->d->nerrors;
	if (v->state_cap < f->nvalues + 1) {
		free(v->state);
		v->state_cap = f->nvalues + 64;
		v->state = malloc(v->state_cap);
		if (!v->state)
			abort();
	}
	memset(v->state, 0, f->nvalues + 1);
	check_params(v, f);
	check_directives(v, f);
	px_verify_locals(v, f);
	for (px_node *n = f->first; n; n = n->next) {
		switch (n->kind) {
		case PX_N_INST:
			check_inst(v, f, n);
			break;
		case PX_N_CALL:
			check_guard(v, f, n);
			check_call(v, f, n);
			break;
		case PX_N_RET:
			check_ret(v, f, n);
			break;
		case PX_N_ASM:
			px_verify_asm(v, f, n);
			break;
		default:
			break;
		}
	}
	check_labels(v, f);
	px_check_spaces(v, f);
	px_check_flow(v, f);
	px_check_carry(v, f);
	/* the hazards follow what the statements mean: after an error in the
	 * function they would only guess at it */
	if (v->d->nerrors == errors_before && !f->nerrors)
		px_check_hazards(v, f);
}
