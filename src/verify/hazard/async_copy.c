/* Asynchronous copies into shared memory, within a function: the
 * destination of a cp.async touched (read or written, by any statement but
 * another copy) on a path from the copy with no cp.async.wait_group or
 * cp.async.wait_all between (-Wcp-async-wait), and the destination of a bulk
 * or TMA copy (cp.async.bulk, cp.async.bulk.tensor) touched on a path from it
 * with no wait on an mbarrier between (-Wtma-wait).
 *
 * A destination is a shared module variable an address points into
 * (verify/analysis/points.h). A forward dataflow problem over the blocks, a join a
 * union: the cp.async destinations that may be pending, by the groups
 * committed since (verify/analysis/groups.h: wait_group N covers all but the N most
 * recent groups and no cp.async not committed yet, wait_all covers every
 * one), then a bit per destination "a bulk copy into it may run". Any
 * mbarrier test_wait or try_wait clears both (a cp.async may complete on an
 * mbarrier too): which mbarrier is not followed. */
#include <stdlib.h>
#include <string.h>

#include "verify/analysis/bits.h"
#include "verify/analysis/groups.h"
#include "verify/analysis/items.h"
#include "verify/analysis/points.h"
#include "verify/hazard/frame.h"

typedef struct acopy {
	px_verifier *v;
	px_func *f;
	px_points points;
	/* the module variables the copies write, by kind (0 cp.async, 1 bulk):
	 * each points at a copy of its kind into it */
	px_items dst[2];
	px_groups groups;    /* the cp.async destinations, from word 0 */
	size_t bulk;         /* the first word of the bulk destinations' bits */
	size_t w;
} acopy;


static uint32_t target(const acopy *a, const px_opnd *o)
{
	return px_points_target(&a->points, o);
}

#define COPIES (PX_OPF_BULK_COPY | PX_OPF_ASYNC_COPY)

static bool is_copy(const px_node *n, bool *bulk)
{
	if (n->kind != PX_N_INST || !n->op)
		return false;
	*bulk = n->op->flags & PX_OPF_BULK_COPY;
	return n->op->flags & COPIES;
}

static bool is_mbarrier_wait(const px_node *n)
{
	return n->kind == PX_N_INST && n->op && (n->op->flags & PX_OPF_MBARRIER_WAIT);
}

static void step(void *ctx, uint64_t *s, const px_node *n, bool report)
{
	acopy *a = ctx;
	if (n->kind != PX_N_INST || !n->op)
		return;
	bool bulk, copy = is_copy(n, &bulk);
	if (n->op->flags & PX_OPF_COPY_COMMIT) {
		px_groups_commit(&a->groups, s);
		return;
	}
	if ((n->op->flags & PX_OPF_COPY_WAIT) && n->nops && n->ops[0].kind == PX_O_INT) {
		px_groups_wait(&a->groups, s, (uint64_t)n->ops[0].ival, false);
		return;
	}
	if ((n->op->flags & PX_OPF_COPY_WAIT_ALL) || is_mbarrier_wait(n)) {
		px_groups_wait(&a->groups, s, 0, true);
		if (is_mbarrier_wait(n))
			memset(s + a->bulk, 0, (a->w - a->bulk) * 8);
		return;
	}
	/* a copy's sources are touched before its destination becomes pending */
	for (uint32_t i = copy ? 1 : 0; report && i < n->nops; i++) {
		uint32_t g = target(a, &n->ops[i]), k;
		for (unsigned kind = 0; g && kind < 2; kind++) {
			px_items *dst = &a->dst[kind];
			if (!px_items_find(dst, g - 1, &k))
				continue;
			bool pending = kind ? px_bit(s + a->bulk, k) : px_groups_pending(&a->groups, s, k);
			if (!pending || !px_items_say(dst, k))
				continue;
			const px_str name = a->v->m->globals[g - 1].name;
			px_warn(a->v->d, n->ops[i].loc, kind ? PX_D_tma_no_wait : PX_D_cp_async_no_wait, n->op->name,
			        (int)name.n, name.s);
			px_note(a->v->d, dst->first[k]->loc, PX_D_async_copy_here, dst->first[k]->op->name, (int)name.n,
			        name.s);
		}
	}
	uint32_t g, k;
	if (copy && n->nops && (g = target(a, &n->ops[0])) && px_items_find(&a->dst[bulk], g - 1, &k)) {
		if (bulk)
			px_bit_set(s + a->bulk, k);
		else
			px_groups_issue(&a->groups, s, k);
	}
}

void px_check_async_copies(px_frame *fr)
{
	px_verifier *v = fr->v;
	px_func *f = fr->f;
	if (!px_cfg_has_flag(&fr->g, COPIES))
		return;
	acopy a = {.v = v, .f = f};
	px_points_init(&a.points, v, f, fr->a);
	px_items_init(&a.dst[0], fr->a, v->m->nglobals + 1);
	px_items_init(&a.dst[1], fr->a, v->m->nglobals + 1);
	const px_cfg *g = &fr->g;
	for (uint32_t k = px_cfg_next(g, 0, COPIES); k < g->nstmts; k = px_cfg_next(g, k + 1, COPIES)) {
		const px_node *n = g->stmt[k];
		uint32_t t;
		bool bulk;
		if (is_copy(n, &bulk) && n->nops && (t = target(&a, &n->ops[0])))
			px_items_point(&a.dst[bulk], px_items_add(&a.dst[bulk], t - 1), n);
	}
	px_groups_init(&a.groups, 0, a.dst[0].n, g, PX_OPF_COPY_WAIT);
	a.bulk = px_groups_words(&a.groups);
	a.w = a.bulk + px_bits_words(a.dst[1].n);
	if (a.dst[0].n || a.dst[1].n)
		px_flow_check(&fr->g, a.w, NULL, step, &a);
}
