/* The names the MIR gives against the names the PTX prints beside them. Names
 * ptxemit makes up for itself (printf's $$str and $$printf_args, brx.idx's
 * $$bt tables) begin with "$$", which no MIR name prints as (a label prints
 * as $ and its name, and a name begins with a letter or '_'). The rest follow
 * the call ABI that CUDA's compiler prints too (isel/abi.h): FUNC_param_N
 * and func_retval0 in a function, paramN and retval0 in a call's { } block,
 * where they hide a module name of the same spelling (ptxas: "State space
 * mismatch", "Label expected", "Duplicate definition"; a function paramN
 * named anywhere in a module whose calls declare paramN crashes ptxas -c,
 * 13.0, in some orders and call graphs); those, and the names
 * PTX keeps for itself (data/names.yaml), are refused where the MIR meets
 * them. */
#include <stdio.h>

#include "isel/abi.h"
#include "verify/verify.h"

static bool is(px_str s, const char *z, size_t n) { return s.n == n && !memcmp(s.s, z, n); }

void px_check_reserved_name(px_verifier *v, px_str name, px_loc loc, bool local)
{
	for (unsigned i = 0; i < px_nreserved_names; i++) {
		const px_reserved_name *r = &px_reserved_names[i];
		if (!(local && r->module_only) && is(name, r->name, strlen(r->name)))
			px_error(v->d, loc, PX_D_reserved_ptx_name, r->name, r->why, (int)name.n, name.s);
	}
}

/* An unsigned decimal without leading zeros after prefix in s: its value. */
static bool numbered(px_str s, const char *prefix, size_t n, uint32_t *k)
{
	if (s.n <= n || s.n > n + 9 || memcmp(s.s, prefix, n) || (s.s[n] == '0' && s.n > n + 1))
		return false;
	*k = 0;
	for (size_t i = n; i < s.n; i++) {
		if (s.s[i] < '0' || s.s[i] > '9')
			return false;
		*k = *k * 10 + (uint32_t)(s.s[i] - '0');
	}
	return true;
}

/* What the PTX of f's body means by name when ptxemit declares it there
 * (into what, "" when nothing). */
static void function_name_is(const px_func *f, px_str name, char *what, size_t cap)
{
	static const char infix[] = PX_PARAM_INFIX, ret[] = PX_RETVAL_CALLEE "0";
	uint32_t k;
	what[0] = 0;
	if (!f->is_kernel && f->nrets && is(name, ret, sizeof ret - 1))
		snprintf(what, cap, "its result");
	else if (name.n > f->name.n && !memcmp(name.s, f->name.s, f->name.n) &&
	         numbered((px_str){name.s + f->name.n, name.n - f->name.n}, infix, sizeof infix - 1, &k) &&
	         k < f->nparams)
		snprintf(what, cap, "its parameter %%%.*s", (int)f->values[f->params[k].value].name.n,
		         f->values[f->params[k].value].name.s);
}

void px_check_hidden_name(px_verifier *v, const px_func *f, px_str name, px_loc loc)
{
	char what[128];
	function_name_is(f, name, what, sizeof what);
	if (what[0])
		px_error(v->d, loc, PX_D_hidden_name, (int)f->name.n, f->name.s, (int)name.n, name.s, what,
		         (int)name.n, name.s);
}

/* A function named paramN, named at loc: judged when every call is seen. */
struct px_param_ref {
	px_str name;
	uint32_t n;
	px_loc loc;
	struct px_param_ref *next;
};

void px_check_call_block_name(px_verifier *v, px_str fn, uint32_t nres, px_loc loc)
{
	static const char ret[] = PX_RETVAL_CALLER "0";
	uint32_t k;
	if (nres && is(fn, ret, sizeof ret - 1))
		px_error(v->d, loc, PX_D_call_block_result, (int)fn.n, fn.s, (int)fn.n, fn.s);
	if (!numbered(fn, PX_PARAM_CALLER, sizeof PX_PARAM_CALLER - 1, &k))
		return;
	struct px_param_ref *r = px_arena_alloc(v->keep, sizeof *r);
	*r = (struct px_param_ref){{px_arena_strndup(v->keep, fn.s, fn.n), fn.n}, k, loc, v->param_refs};
	v->param_refs = r;
}

void px_check_param_refs(px_verifier *v)
{
	for (const struct px_param_ref *r = v->param_refs; r; r = r->next)
		if (r->n < v->widest_call)
			px_error(v->d, r->loc, PX_D_call_block_name, (int)r->name.n, r->name.s, r->n + 1,
			         (int)r->name.n, r->name.s);
}

void px_verify_names_join(px_verifier *v, px_verifier *w)
{
	if (w->widest_call > v->widest_call)
		v->widest_call = w->widest_call;
	while (w->param_refs) {
		struct px_param_ref *r = w->param_refs;
		w->param_refs = r->next;
		r->next = v->param_refs;
		v->param_refs = r;
	}
}
