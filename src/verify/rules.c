/* The tables' legality rules (px_rule): the checks NVVM runs before any ID
 * lookup, each with its own message, NVVM's own words where it has one. */
#include <string.h>

#include "verify/verify.h"

static bool slots_match(const px_rule *r, const px_node *n)
{
	for (unsigned i = 0; i < n->op->nslots; i++) {
		const uint16_t *want = r->when[i];
		if (!want)
			continue;
		if (!want[0] ? n->slot[i] != 0 : !px_toks_have(want, n->slot[i]))
			return false;
	}
	return true;
}

static bool has_target_test(const px_rule *r)
{
	return r->sm_below || r->ptx_below || r->sm_from || r->not_arch;
}

/* Does the rule fire on target t at PTX ISA version ptx (0: any version will
 * do, so ptx_below never fires)? */
static bool fires_on(const px_rule *r, const px_target *t, uint16_t ptx)
{
	if (r->sm_below && t->sm < r->sm_below)
		return true;
	if (r->sm_from && t->sm >= r->sm_from)
		return true;
	if (r->ptx_below && ptx && ptx < r->ptx_below)
		return true;
	if (r->not_arch == 'a' && t->suffix != 'a')
		return true;
	return r->not_arch == 'f' && t->suffix != 'a' && t->suffix != 'f';
}

static bool target_below(const px_verifier *v, const px_rule *r)
{
	if (!has_target_test(r))
		return true;
	return v->target && fires_on(r, v->target, px_verify_ptx_version(v));
}

/* A rule refused the node for its target in words that may not name one
 * (NVVM's "mma is not supported on this architecture"): a note names the
 * targets where the form is legal, those of the variants that take its tokens
 * where no rule refuses it. (No rule refuses by the PTX version alone: the
 * one with ptx_below has an sm_below whose targets all start above it.) */
static void target_note(px_verifier *v, const px_node *n)
{
	uint64_t rows = 0, targets = 0;
	for (unsigned vi = 0; vi < n->op->nvariants; vi++)
		if (px_variant_admits(n->op, &n->op->variants[vi], n->slot))
			rows |= n->op->variants[vi].targets;
	for (unsigned ti = 0; ti < px_ntargets; ti++) {
		bool ok = rows >> ti & 1;
		for (unsigned i = 0; ok && i < n->op->nrules; i++) {
			const px_rule *r = &n->op->rules[i];
			ok = !has_target_test(r) || !slots_match(r, n) || !fires_on(r, &px_targets[ti], 0);
		}
		targets |= (uint64_t)ok << ti;
	}
	char what[256];
	px_node_text(n, -1, what, sizeof what);
	px_window_note(v, n->oploc, what, targets);
}

static const char *arg_text(const px_verifier *v, const px_node *n, int arg)
{
	if (arg == PX_RARG_OP)
		return n->op->name;
	if (arg == PX_RARG_TARGET)
		return v->target ? v->target->name : "";
	/* an empty state space is the generic one (NVPTX's address space 0) */
	if (!n->slot[arg] && n->op->slots[arg].sname == PX_SN_space)
		return "generic";
	return px_tok_names[px_slot_tok(n->op, n->slot, (unsigned)arg)];
}

void px_rule_report(px_verifier *v, const px_node *n, const px_rule *r)
{
	const char *a[4];
	for (unsigned k = 0; k < 4; k++)
		a[k] = r->args[k] == PX_RARG_END ? "" : arg_text(v, n, r->args[k]);
	px_error(v->d, n->oploc, r->diag, a[0], a[1], a[2], a[3]);
}

bool px_check_rules(px_verifier *v, const px_node *n)
{
	for (unsigned i = 0; i < n->op->nrules; i++) {
		const px_rule *r = &n->op->rules[i];
		if (slots_match(r, n) && target_below(v, r)) {
			px_rule_report(v, n, r);
			if (has_target_test(r))
				target_note(v, n);
			return false;
		}
	}
	return true;
}
