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
	v->uses_tail = &v->uses;
	v->keep = &m->arena;
	px_arena_init(&v->scratch);
	px_slotsets_init(&v->slotsets);
}

const px_values *px_verify_values(const px_verifier *v)
{
	if (!v->values_kept || v->grid[0] || v->grid[1] || v->grid[2])
		return NULL;
	return &v->values;
}

void px_verifier_free(px_verifier *v)
{
	free(v->state);
	v->state = NULL;
	px_first_rows_free(&v->first_rows);
	px_shapes_free(&v->shapes);
	px_strmap_free(&v->resolved);
	free(v->resolved_rows);
	px_slotsets_free(&v->slotsets);
	px_arena_free(&v->scratch);
}

bool px_ptx_over_max(const px_verifier *v, uint16_t ptx)
{
	return v->ptx_max && !v->ptx_given && ptx > v->ptx_max;
}

/* The oldest driver that loads PTX ptx (data/targets.yaml's drivers). */
static unsigned driver_for(uint16_t ptx)
{
	for (unsigned i = 0; i < px_nptx_versions; i++)
		if (px_ptx_versions[i] >= ptx)
			return px_ptx_driver[i];
	return 0;
}

void px_ptx_refuse(px_verifier *v, px_loc loc, const char *what, uint16_t ptx)
{
	px_error(v->d, loc, PX_D_ptx_over_max, what, ptx / 10, ptx % 10, driver_for(ptx), v->ptx_max_by,
	         v->ptx_max / 10, v->ptx_max % 10);
}

void px_note_window(px_verifier *v, px_loc loc, const char *what, uint64_t targets, uint16_t ptx)
{
	if (!v->target)
		return;
	if (!px_target_in(targets, v->target)) {
		px_window_report(v, loc, what, targets);
	} else if (v->ptx_given && v->ptx_given < ptx) {
		px_error(v->d, loc, PX_D_needs_ptx, what, ptx / 10, ptx % 10, v->ptx_given / 10, v->ptx_given % 10);
	} else if (px_ptx_over_max(v, ptx)) {
		px_ptx_refuse(v, loc, what, ptx);
	} else if (ptx > v->ptx_needed) {
		v->ptx_needed = ptx;
	}
}

/* A kernel's parameter space: its parameters in order, each at its
 * alignment, within what ptxas allows (data/targets.yaml kernel_params). The
 * parameter that crosses a limit is reported, or needs the PTX version that
 * allows the wider space. */
static void check_param_space(px_verifier *v, const px_func *f)
{
	const px_param_space *ps = &px_kernel_params;
	uint64_t end = 0;
	bool wide = false;
	for (uint32_t i = 0; i < f->nparams && ps->bytes; i++) {
		const px_param *p = &f->params[i];
		uint32_t bytes = p->kind == PX_PARAM_AGG ? p->size : px_types[p->type].width / 8;
		bytes = bytes ? bytes : 1;
		uint32_t align = p->kind == PX_PARAM_AGG ? (p->align ? p->align : 1) : bytes;
		end = (end + align - 1) / align * align + bytes;
		const px_str *name = &f->values[p->value].name;
		if (end > (ps->wide_bytes ? ps->wide_bytes : ps->bytes)) {
			uint32_t max = ps->wide_bytes ? ps->wide_bytes : ps->bytes;
			px_error(v->d, p->loc, PX_D_kernel_param_space, (int)name->n, name->s, (int)f->name.n, f->name.s,
			         (unsigned long long)end, (unsigned long long)end, max, max);
			return;
		}
		if (end > ps->bytes && !wide) {
			char what[160];
			snprintf(what, sizeof what, "a kernel parameter space over %u bytes (%%%.*s brings @%.*s's to %llu)",
			         ps->bytes, (int)name->n, name->s, (int)f->name.n, f->name.s, (unsigned long long)end);
			px_note_window(v, p->loc, what, ~0ull, ps->wide_ptx);
			wide = true;
		}
	}
}

/* Parameters are defined on entry; an `align` (a pointer's, an aggregate's,
 * an aggregate result's) is a power of two, as ptxas requires. */
/* A declaration or a value through parameter space of type t, a type PTX
 * took later (data/types.yaml decl_ptx): what names it, with %s for the
 * type ("a .%s parameter"). */
void px_note_decl_type(px_verifier *v, px_loc loc, unsigned t, const char *what)
{
	if (!t || t >= px_ntypes || !px_types[t].decl_ptx)
		return;
	char text[64];
	snprintf(text, sizeof text, what, px_types[t].name);
	px_note_window(v, loc, text, ~(uint64_t)0, px_types[t].decl_ptx);
}

static void check_params(px_verifier *v, px_func *f)
{
	for (uint32_t i = 0; i < f->nparams; i++) {
		const px_param *p = &f->params[i];
		v->state[p->value] |= PX_VS_DEF | PX_VS_TYPED;
		if (p->align & (p->align - 1))
			px_error(v->d, p->loc, PX_D_bad_align, p->align);
		px_note_decl_type(v, p->loc, p->type, "a .%s parameter");
	}
	for (uint32_t i = 0; i < f->nrets; i++)
		px_note_decl_type(v, f->rets_loc, f->rets[i], "a .%s result");
	if (f->ret_align & (f->ret_align - 1))
		px_error(v->d, f->rets_loc, PX_D_bad_align, f->ret_align);
	if (f->is_kernel)
		check_param_space(v, f);
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
		for (unsigned j = 0; j < px_ndirectives; j++) /* at the second of the two, as ptxas reads them */
			if (present & d->excludes & 1u << j)
				px_error(v->d, f->dirs[j].loc.pos > f->dirs[i].loc.pos ? f->dirs[j].loc : f->dirs[i].loc,
				         d->excludes_diag);
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

/* A literal, or a lane literal ( , ), crossing a call or ret as a value of
 * type want: a packed type takes either, each lane rounded once (a scalar
 * literal is every lane); any other type a literal only. */
static void check_passed_literal(px_verifier *v, const px_opnd *o, int want, unsigned pos, const char *what,
                                 const char *place)
{
	px_lanes ln;
	if (px_type_lanes(want, &ln)) {
		px_check_lanes(v, o, &ln, place);
		return;
	}
	if (o->kind == PX_O_GROUP) {
		px_error(v->d, o->loc, PX_D_pass_lanes_type, place, px_types[want].name);
		return;
	}
	px_check_literal(v, o, want, pos, what);
}

/* A copy of a literal argument that outlives its function (a call checked
 * when the module ends): a lane literal's elements too. */
static px_opnd keep_literal(px_verifier *v, const px_opnd *o)
{
	px_opnd c = *o;
	if (o->kind == PX_O_GROUP) {
		c.elems = px_arena_alloc(v->keep, (o->nelems + 1) * sizeof *c.elems);
		memcpy(c.elems, o->elems, o->nelems * sizeof *c.elems);
	}
	return c;
}

/* The bytes a value carries through a call as an aggregate: a whole array's
 * elements (not pred: a predicate has no bytes), or an aggregate parameter's
 * own bytes; 0 for anything else. */
static uint32_t agg_bytes(const px_func *f, const px_opnd *o)
{
	if (o->kind != PX_O_VALUE)
		return 0;
	const px_value *val = &f->values[o->id];
	if (val->param == PX_PARAM_AGG)
		return f->params[val->param_index].size;
	if (!val->count || o->elem >= 0 || !val->type || val->type == PX_T_pred)
		return 0;
	return val->count * (px_types[val->type].width / 8);
}

/* A plain value operand of a call or ret: defined, and its type; with bytes,
 * a whole array or an aggregate parameter too (*bytes: agg_bytes; the type of
 * an aggregate parameter is PX_T_none). */
static int arg_type(px_verifier *v, px_func *f, const px_opnd *o, uint32_t *bytes)
{
	if (bytes)
		*bytes = agg_bytes(f, o);
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
		if (bytes && *bytes)
			return f->values[o->id].param == PX_PARAM_AGG ? PX_T_none : f->values[o->id].type;
		if (f->values[o->id].count && o->elem < 0) {
			px_error(v->d, o->loc, PX_D_array_as_scalar, (int)f->values[o->id].name.n, f->values[o->id].name.s);
			return 0;
		}
		return f->values[o->id].type;
	case PX_O_INT:
	case PX_O_FLOAT:
	case PX_O_FBITS:
	case PX_O_GROUP: /* a lane literal: checked against the packed type it passes */
		return 0;
	default:
		px_error(v->d, o->loc, PX_D_bad_argument);
		return 0;
	}
}

/* An operand crossing a call or ret as a b8[size] align `align` aggregate
 * (align 0: not written, 1): what says which ("argument 2 of '@f'"); type and
 * bytes as px_check_call_sig's; lit: it is a literal; taken: a call's result,
 * which only an array receives. */
static void check_agg_pass(px_verifier *v, px_loc loc, const char *what, uint32_t size, uint32_t align, int type,
                           uint32_t bytes, bool lit, bool taken)
{
	if (lit || !bytes) {
		px_error(v->d, loc, taken ? PX_D_agg_take_scalar : PX_D_agg_pass_scalar, what, size, size);
		return;
	}
	if (bytes != size) {
		px_error(v->d, loc, PX_D_agg_pass_size, what, size, bytes);
		return;
	}
	unsigned eb = type ? px_types[type].width / 8 : 0;
	if (eb > (align ? align : 1))
		px_error(v->d, loc, PX_D_agg_pass_align, what, px_types[type].name, eb, align ? align : 1);
}

/* "argument 2 of '@f'" or "result 1 of '%fp'", for the aggregate messages. */
static const char *call_place(px_verifier *v, const char *kind, uint32_t i, const char *sigil, px_str callee)
{
	size_t n = strlen(kind) + callee.n + 32;
	char *s = px_arena_alloc(v->keep, n);
	snprintf(s, n, "%s %u of '%s%.*s'", kind, i, sigil, (int)callee.n, callee.s);
	return s;
}

/* Check a call against sig, or remember it for the end of the module. */
void px_check_call_sig(px_verifier *v, const px_funcsig *sig, const char *sigil, px_str callee, px_loc loc,
                       const uint16_t *args, const uint32_t *arg_bytes, const px_opnd *lits, uint32_t nargs,
                       const uint16_t *rets, const uint32_t *ret_bytes, uint32_t nrets)
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
			check_agg_pass(v, loc, call_place(v, "argument", i + 1, sigil, callee), sig->param_sizes[i],
			                  sig->param_aligns[i], args[i], arg_bytes[i], lits[i].kind != PX_O_NONE, false);
			continue;
		}
		if (arg_bytes[i]) {
			px_error(v->d, loc, PX_D_agg_to_scalar, call_place(v, "argument", i + 1, sigil, callee),
			         px_types[sig->params[i]].name);
			continue;
		}
		if (lits[i].kind != PX_O_NONE) {
			if (!what) { /* "@name" or "%value", as the literal's messages name the callee */
				what = px_arena_alloc(v->keep, callee.n + 2);
				what[0] = sigil[0];
				memcpy(what + 1, callee.s, callee.n);
				what[callee.n + 1] = 0;
			}
			check_passed_literal(v, &lits[i], sig->params[i] == PX_T_ptr ? PX_T_u64 : sig->params[i], i + 1,
			                     what, call_place(v, "argument", i + 1, sigil, callee));
		} else if (args[i] && !px_type_fits(args[i], sig->params[i])) {
			px_error(v->d, loc, PX_D_call_arg_type, i + 1, sigil, (int)callee.n, callee.s,
			         px_types[args[i]].name, px_types[sig->params[i]].name);
		}
	}
	if (nrets > sig->nrets) {
		px_error(v->d, loc, PX_D_call_ret_count, sigil, (int)callee.n, callee.s, sig->nrets, nrets);
		return;
	}
	for (uint32_t i = 0; i < nrets; i++) {
		if (!rets[i] && !ret_bytes[i])
			continue; /* discarded */
		if (sig->rets[i] == PX_T_none)
			check_agg_pass(v, loc, call_place(v, "result", i + 1, sigil, callee), sig->ret_size,
			                  sig->ret_align, rets[i], ret_bytes[i], false, true);
		else if (ret_bytes[i])
			px_error(v->d, loc, PX_D_agg_to_scalar, call_place(v, "result", i + 1, sigil, callee),
			         px_types[sig->rets[i]].name);
		else if (!px_type_fits(rets[i], sig->rets[i]))
			px_error(v->d, loc, PX_D_call_ret_type, i + 1, sigil, (int)callee.n, callee.s,
			         px_types[rets[i]].name, px_types[sig->rets[i]].name);
	}
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
	uint32_t *arg_bytes = px_arena_alloc(v->keep, (n->nops + 1) * sizeof *arg_bytes);
	uint16_t *rets = px_arena_alloc(v->keep, (n->nres + 1) * sizeof *rets);
	uint32_t *ret_bytes = px_arena_alloc(v->keep, (n->nres + 1) * sizeof *ret_bytes);
	px_opnd *lits = px_arena_alloc(v->keep, (n->nops + 1) * sizeof *lits);
	for (uint32_t i = 0; i < n->nops; i++) {
		args[i] = (uint16_t)arg_type(v, f, &n->ops[i], &arg_bytes[i]);
		memset(&lits[i], 0, sizeof lits[i]);
		if (is_literal(&n->ops[i]) || n->ops[i].kind == PX_O_GROUP)
			lits[i] = keep_literal(v, &n->ops[i]);
		px_note_decl_type(v, n->ops[i].loc, args[i], "passing a .%s value");
	}
	px_define_results(v, f, n, NULL, 0);
	for (uint32_t i = 0; i < n->nres; i++) {
		const px_opnd *o = &n->res[i];
		rets[i] = o->kind == PX_O_VALUE ? f->values[o->id].type : 0;
		px_note_decl_type(v, o->loc, rets[i], "receiving a .%s value");
		/* an aggregate parameter is read-only: results land in arrays */
		ret_bytes[i] = o->kind == PX_O_VALUE && f->values[o->id].param != PX_PARAM_AGG ? agg_bytes(f, o) : 0;
	}
	if (n->icall) { /* through a value: the signature written after ':' */
		const px_funcsig *proto = n->icall->proto;
		int t = arg_type(v, f, &n->icall->target, NULL);
		if (t && !px_type_fits(t, PX_T_u64))
			px_error(v->d, n->icall->target.loc, PX_D_call_target_type, (int)proto->name.n, proto->name.s,
			         px_types[t].name);
		px_check_call_sig(v, proto, "%", proto->name, n->callee_loc, args, arg_bytes, lits, n->nops, rets,
		                  ret_bytes, n->nres);
		return;
	}
	px_check_hidden_name(v, f, n->callee, n->callee_loc);
	px_check_call_block_name(v, n->callee, n->nres, n->callee_loc);
	const px_funcsig *sig = find_sig(v->m, n->callee);
	if (sig) {
		px_check_call_sig(v, sig, "@", n->callee, n->callee_loc, args, arg_bytes, lits, n->nops, rets,
		                  ret_bytes, n->nres);
		return;
	}
	px_pending_call *p = px_arena_alloc(v->keep, sizeof *p);
	p->callee.s = px_arena_strndup(v->keep, n->callee.s, n->callee.n);
	p->callee.n = n->callee.n;
	p->loc = n->callee_loc;
	p->args = args;
	p->arg_bytes = arg_bytes;
	p->ret_bytes = ret_bytes;
	p->lits = lits;
	p->nargs = n->nops;
	p->rets = rets;
	p->nrets = n->nres;
	p->not_pointer = px_arena_alloc(v->keep, (n->nops + 1) * sizeof *p->not_pointer);
	memset(p->not_pointer, 0, (n->nops + 1) * sizeof *p->not_pointer);
	p->known_space = px_arena_alloc(v->keep, (n->nops + 1) * sizeof *p->known_space);
	memset(p->known_space, -1, (n->nops + 1) * sizeof *p->known_space);
	p->known_as = px_arena_alloc(v->keep, (n->nops + 1) * sizeof *p->known_as);
	memset(p->known_as, 0, (n->nops + 1) * sizeof *p->known_as);
	p->arg_locs = px_arena_alloc(v->keep, (n->nops + 1) * sizeof *p->arg_locs);
	for (uint32_t i = 0; i < n->nops; i++)
		p->arg_locs[i] = n->ops[i].loc;
	p->next = NULL;
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
		uint32_t bytes;
		int t = arg_type(v, f, &n->ops[i], &bytes);
		px_note_decl_type(v, n->ops[i].loc, f->rets[i], "returning a .%s value");
		if (f->rets[i] == PX_T_none) {
			char what[32];
			snprintf(what, sizeof what, "returned value %u", i + 1);
			check_agg_pass(v, n->ops[i].loc, what, f->ret_size, f->ret_align, t, bytes,
			                  is_literal(&n->ops[i]), false);
		} else if (bytes) {
			char what[32];
			snprintf(what, sizeof what, "returned value %u", i + 1);
			px_error(v->d, n->ops[i].loc, PX_D_agg_to_scalar, what, px_types[f->rets[i]].name);
		} else if (is_literal(&n->ops[i]) || n->ops[i].kind == PX_O_GROUP) {
			char what[32];
			snprintf(what, sizeof what, "returned value %u", i + 1);
			check_passed_literal(v, &n->ops[i], f->rets[i] == PX_T_ptr ? PX_T_u64 : f->rets[i], i + 1, "ret",
			                     what);
		}
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
	/* the last function's analysis goes (px_verify_values) */
	px_arena_reset(&v->scratch);
	v->values_kept = false;
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
	v->fn_pending = v->pending_tail;
	uint64_t flags = 0; /* the checked instructions' PX_OPF_* flags together */
	for (px_node *n = f->first; n; n = n->next) {
		switch (n->kind) {
		case PX_N_INST:
			check_inst(v, f, n);
			if (n->op && n->var)
				flags |= n->op->flags;
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
		case PX_N_PRINTF:
			check_guard(v, f, n);
			px_verify_printf(v, f, n);
			break;
		default:
			break;
		}
	}
	check_labels(v, f);
	/* the call blocks' paramN the module declares */
	v->widest_call = f->widest_call > v->widest_call ? f->widest_call : v->widest_call;
	px_check_spaces(v, f);
	px_check_flow(v, f);
	if (flags & PX_OPF_CARRY_IN) /* no reader of the carry flag: no chain to check */
		px_check_carry(v, f);
	px_check_desc_starts(v, f);
	px_record_uses(v, f);
	/* the hazards follow what the statements mean: after an error in the
	 * function they would only guess at it */
	if (v->d->nerrors == errors_before && !f->nerrors)
		px_check_hazards(v, f);
}
