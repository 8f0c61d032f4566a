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

/* Marks a statement index reached and pushes it once. */
static void reach(uint32_t x, uint8_t *seen, uint32_t *stack, uint32_t *top)
{
	if (!seen[x]) {
		seen[x] = 1;
		stack[(*top)++] = x;
	}
}

static void reach_label(const px_opnd *o, const uint32_t *label_at, uint8_t *seen, uint32_t *stack,
                        uint32_t *top)
{
	if (o->kind == PX_O_LABEL && label_at[o->id] != UINT32_MAX)
		reach(label_at[o->id], seen, stack, top);
	else if (o->kind == PX_O_GROUP) /* brx.idx's label list */
		for (uint32_t j = 0; j < o->nelems; j++)
			reach_label(&o->elems[j], label_at, seen, stack, top);
}

/* Where control may go after n (at index i), nnodes standing for the end of
 * the body: each place is marked reached. */
static void successors(const px_node *n, uint32_t i, const uint32_t *label_at, uint8_t *seen,
                       uint32_t *stack, uint32_t *top)
{
	bool guarded = n->has_guard;
	bool ends = false;
	if (n->kind == PX_N_RET) {
		ends = true;
	} else if (n->kind == PX_N_INST && n->op) {
		if (n->op->shape == PX_SHAPE_BRANCH) {
			for (uint32_t j = 0; j < n->nops; j++)
				reach_label(&n->ops[j], label_at, seen, stack, top);
			ends = true;
		} else if (n->op->flags & PX_OPF_TERMINATOR) {
			ends = true;
		}
	}
	if (!ends || guarded)
		reach(i + 1, seen, stack, top);
}

void px_check_flow(px_verifier *v, px_func *f)
{
	uint32_t nn = 0;
	for (const px_node *n = f->first; n; n = n->next)
		nn++;
	/* a big function's tables in huge pages (util/huge.h) */
	const px_node **at = px_huge_alloc((nn + 1) * sizeof *at);
	uint32_t *label_at = px_huge_alloc((f->nlabels + 1) * sizeof *label_at);
	uint32_t *stack = px_huge_alloc((nn + 1) * sizeof *stack);
	uint8_t *seen = px_huge_alloc(nn + 1);
	for (uint32_t i = 0; i < f->nlabels; i++)
		label_at[i] = UINT32_MAX;
	uint32_t i = 0;
	for (const px_node *n = f->first; n; n = n->next, i++) {
		at[i] = n;
		if (n->kind == PX_N_LABEL)
			label_at[n->label] = i;
	}
	uint32_t top = 0;
	stack[top++] = 0;
	seen[0] = 1;
	while (top) {
		uint32_t x = stack[--top];
		if (x == nn)
			continue;
		successors(at[x], x, label_at, seen, stack, &top);
	}
	f->falls_off = seen[nn];
	if (f->falls_off && !f->is_kernel && f->nrets)
		px_error(v->d, f->loc, PX_D_falls_off_end, (int)f->name.n, f->name.s, f->nrets, f->nrets == 1 ? "" : "s");
	px_huge_free(at, (nn + 1) * sizeof *at);
	px_huge_free(label_at, (f->nlabels + 1) * sizeof *label_at);
	px_huge_free(stack, (nn + 1) * sizeof *stack);
	px_huge_free(seen, nn + 1);
}
