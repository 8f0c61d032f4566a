/* Control flow at a function's end. ptxas accepts a body whose last statement
 * is not a ret and simply runs off its end; a func with results then returns
 * whatever its result parameter held, so a path that reaches the end of such a
 * function is an error here. A kernel or a func without results may reach its
 * end: the selector closes the body with a ret there, so that path returns as
 * written instead of relying on what ptxas makes of the fall.
 *
 * Reachability follows the statements from the first: a label and a call fall
 * through; bra goes to its label (brx.idx to each of its list), and also falls
 * through when guarded; ret, exit and trap end the path unless guarded. */
#include "util/huge.h"
#include "verify/state.h"
#include "verify/verify.h"

/* The body is followed a piece at a time: a piece runs from the start, or
 * from a label statement, to the next label statement, and each is walked at
 * most once, so the memory is a few words a label statement and nothing a
 * statement (a function of a million statements and no label needs none). */
typedef struct flow {
	const px_func *f;
	const px_node **lnode; /* the label statements, in text order */
	uint32_t *label_at;    /* label index -> the place in lnode of its (last) statement, or UINT32_MAX */
	uint8_t *seen;         /* per piece: 0 the start, k + 1 the one from lnode[k] */
	uint32_t *stack, top;
} flow;

static void reach(flow *fl, uint32_t piece)
{
	if (!fl->seen[piece]) {
		fl->seen[piece] = 1;
		fl->stack[fl->top++] = piece;
	}
}

static void reach_label(flow *fl, const px_opnd *o)
{
	if (o->kind == PX_O_LABEL && fl->label_at[o->id] != UINT32_MAX)
		reach(fl, fl->label_at[o->id] + 1);
	else if (o->kind == PX_O_GROUP) /* brx.idx's label list */
		for (uint32_t j = 0; j < o->nelems; j++)
			reach_label(fl, &o->elems[j]);
}

/* Follows a piece from its first statement, marking where control may go:
 * true when the path runs off the end of the body. */
static bool walk(flow *fl, uint32_t piece)
{
	for (const px_node *n = piece ? fl->lnode[piece - 1]->next : fl->f->first; n; n = n->next) {
		if (n->kind == PX_N_LABEL) {
			reach(fl, piece + 1); /* falls into the next piece */
			return false;
		}
		bool ends = false;
		if (n->kind == PX_N_RET) {
			ends = true;
		} else if (n->kind == PX_N_INST && n->op) {
			if (n->op->shape == PX_SHAPE_BRANCH) {
				for (uint32_t j = 0; j < n->nops; j++)
					reach_label(fl, &n->ops[j]);
				ends = true;
			} else if (n->op->flags & PX_OPF_TERMINATOR) {
				ends = true;
			}
		}
		if (ends && !n->has_guard)
			return false;
	}
	return true;
}

void px_check_flow(px_verifier *v, px_func *f)
{
	/* a label's node is made where it is first defined: as many as the
	 * labels defined, counted without a walk over the body */
	uint32_t nl = 0;
	for (uint32_t i = 0; i < f->nlabels; i++)
		nl += f->labels[i].defined;
	flow fl = {.f = f};
	fl.lnode = px_huge_alloc((nl + 1) * sizeof *fl.lnode);
	fl.label_at = px_huge_alloc((f->nlabels + 1) * sizeof *fl.label_at);
	fl.seen = px_huge_alloc(nl + 1);
	fl.stack = px_huge_alloc((nl + 1) * sizeof *fl.stack);
	for (uint32_t i = 0; i < f->nlabels; i++)
		fl.label_at[i] = UINT32_MAX;
	uint32_t k = 0;
	for (const px_node *n = f->first; n && k < nl; n = n->next)
		if (n->kind == PX_N_LABEL) {
			fl.label_at[n->label] = k;
			fl.lnode[k++] = n;
		}
	f->falls_off = false;
	reach(&fl, 0);
	while (fl.top)
		if (walk(&fl, fl.stack[--fl.top]))
			f->falls_off = true;
	if (f->falls_off && !f->is_kernel && f->nrets)
		px_error(v->d, f->loc, PX_D_falls_off_end, (int)f->name.n, f->name.s, f->nrets, f->nrets == 1 ? "" : "s");
	px_huge_free(fl.lnode, (nl + 1) * sizeof *fl.lnode);
	px_huge_free(fl.label_at, (f->nlabels + 1) * sizeof *fl.label_at);
	px_huge_free(fl.seen, nl + 1);
	px_huge_free(fl.stack, (nl + 1) * sizeof *fl.stack);
}
