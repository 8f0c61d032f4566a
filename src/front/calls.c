/* Calls: to a function by name (looked up once the module is read, as the
 * callee may come later in it) and through a value, with the signature the
 * call is made with. */
#include "front/build.h"

/* call @f(args), with or without results. */
px_node *px_call_node(px_parser *P, const px_olist *res, px_tok kw, px_tok callee, px_olist args)
{
	px_arena *a = &P->m->fn_arena;
	px_node *n = px_node_new(P, PX_N_CALL, res ? res->head->o.loc : kw.loc);
	if (res) {
		n->res = px_olist_array(a, *res);
		n->nres = res->n;
	}
	n->callee = px_sans_sigil(callee);
	n->callee_loc = callee.loc;
	n->ops = px_olist_array(a, args);
	n->nops = args.n;
	return n;
}

/* call %fp(args) : (types) -> (types): a call through a value, with the
 * signature it is made with (ptxemit checks the arguments and results against
 * it; the value's callee is not known). */
px_node *px_icall_node(px_parser *P, const px_olist *res, px_tok kw, px_tok target, px_olist args,
                       px_olist ptypes, px_olist rtypes)
{
	px_arena *a = &P->m->fn_arena;
	px_node *n = px_node_new(P, PX_N_CALL, res ? res->head->o.loc : kw.loc);
	if (res) {
		n->res = px_olist_array(a, *res);
		n->nres = res->n;
	}
	n->ops = px_olist_array(a, args);
	n->nops = args.n;
	n->icall = px_arena_alloc(a, sizeof *n->icall);
	n->icall->target = px_value_link(P, &target, NULL)->o; /* links are reused */
	n->callee_loc = target.loc;
	px_funcsig *sig = px_arena_alloc(a, sizeof *sig);
	sig->name = px_sans_sigil(target);
	sig->loc = target.loc;
	sig->params = px_arena_alloc(a, (ptypes.n + 1) * sizeof *sig->params);
	sig->param_sizes = px_arena_alloc(a, (ptypes.n + 1) * sizeof *sig->param_sizes);
	sig->param_aligns = px_arena_alloc(a, (ptypes.n + 1) * sizeof *sig->param_aligns);
	for (px_olink *x = ptypes.head; x; x = x->next)
		sig->params[sig->nparams++] = x->o.decl_type;
	sig->rets = px_arena_alloc(a, (rtypes.n + 1) * sizeof *sig->rets);
	for (px_olink *x = rtypes.head; x; x = x->next)
		sig->rets[sig->nrets++] = x->o.decl_type;
	n->icall->proto = sig;
	return n;
}
