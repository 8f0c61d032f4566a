/* wgmma's protocol within a function: a wgmma.mma_async that some path from
 * the start reaches with no wgmma.fence on the way (-Wwgmma-fence), and the
 * registers an mma_async writes (its accumulators) read or written by any
 * other statement while it may still run: on a path from it with no
 * wgmma.wait_group between (-Wwgmma-wait). An mma_async may read the
 * accumulators of one before it (the chain of a K loop).
 *
 * A forward dataflow problem over the blocks, a bit vector a block: bit 0
 * "no fence yet on some path", then the values an mma_async writes, "may be
 * pending", by the groups committed since (verify/analysis/groups.h: wait_group N
 * covers all but the N most recent groups, and no mma_async not committed
 * yet); a join is a union. A guarded fence, commit or wait counts as done. */
#include <stdlib.h>
#include <string.h>

#include "verify/analysis/bits.h"
#include "verify/analysis/groups.h"
#include "verify/analysis/items.h"
#include "verify/hazard/frame.h"

typedef struct order {
	px_verifier *v;
	px_func *f;
	px_items acc;     /* the values an mma_async writes; each points at one */
	px_groups groups; /* the items' planes, from word 1 (word 0: the fence bit) */
	const px_node *fence; /* the function's first wgmma.fence, or NULL */
} order;

/* Whether n is an operation with one of flags (its role in the protocol). */
static bool has(const px_node *n, uint64_t flags)
{
	return n->kind == PX_N_INST && n->op && (n->op->flags & flags);
}

static bool is_mma(const px_node *n) { return has(n, PX_OPF_ASYNC_MMA); }


typedef struct touch {
	order *o;
	uint64_t *state;
	const px_node *n;
	bool write;
} touch;

static void on_touch(void *ctx, uint32_t id, px_loc loc)
{
	touch *t = ctx;
	order *o = t->o;
	uint32_t b;
	if (!px_items_find(&o->acc, id, &b) || !px_groups_pending(&o->groups, t->state, b) || !px_items_say(&o->acc, b))
		return;
	const px_value *val = &o->f->values[id];
	px_warn(o->v->d, loc, PX_D_wgmma_no_wait, (int)val->name.n, val->name.s, t->write ? "written" : "read");
	px_note(o->v->d, o->acc.first[b]->loc, PX_D_wgmma_writer, (int)val->name.n, val->name.s);
}

/* One statement's effect on the state (and, in the reporting pass, its warnings). */
static void step(void *ctx, uint64_t *s, const px_node *n, bool report)
{
	order *o = ctx;
	if (n->kind == PX_N_LABEL)
		return;
	if (has(n, PX_OPF_MMA_FENCE)) {
		px_bit_clear(s, 0);
		return;
	}
	if (has(n, PX_OPF_MMA_COMMIT)) {
		px_groups_commit(&o->groups, s);
		return;
	}
	if (has(n, PX_OPF_MMA_WAIT) && n->nops && n->ops[0].kind == PX_O_INT) {
		px_groups_wait(&o->groups, s, (uint64_t)n->ops[0].ival, false);
		return;
	}
	if (is_mma(n)) {
		if (report && px_bit(s, 0)) {
			px_warn(o->v->d, n->oploc, PX_D_wgmma_no_fence, n->op->name, (int)o->f->name.n, o->f->name.s);
			if (o->fence)
				px_note(o->v->d, o->fence->loc, PX_D_wgmma_fence_here, px_module_line(o->v->m, n->loc));
		}
		px_bit_clear(s, 0); /* said once a path */
		uint32_t b;
		for (uint32_t r = 0; r < n->nres; r++)
			if (n->res[r].kind == PX_O_VALUE && px_items_find(&o->acc, n->res[r].id, &b))
				px_groups_issue(&o->groups, s, b);
		return;
	}
	if (!report)
		return;
	touch t = {o, s, n, false};
	px_node_reads(n, on_touch, &t);
	t.write = true;
	px_node_writes(n, on_touch, &t);
}

void px_check_wgmma_order(px_frame *fr)
{
	px_verifier *v = fr->v;
	px_func *f = fr->f;
	const px_cfg *g = &fr->g;
	order o = {.v = v, .f = f};
	if (!px_cfg_has_flag(g, PX_OPF_ASYNC_MMA))
		return;
	px_items_init(&o.acc, fr->a, f->nvalues + 1);
	const uint64_t looked = PX_OPF_MMA_FENCE | PX_OPF_ASYNC_MMA;
	for (uint32_t k = px_cfg_next(g, 0, looked); k < g->nstmts; k = px_cfg_next(g, k + 1, looked)) {
		const px_node *n = g->stmt[k];
		if (!o.fence && has(n, PX_OPF_MMA_FENCE))
			o.fence = n;
		if (is_mma(n))
			for (uint32_t r = 0; r < n->nres; r++)
				if (n->res[r].kind == PX_O_VALUE)
					px_items_point(&o.acc, px_items_add(&o.acc, n->res[r].id), n);
	}
	px_groups_init(&o.groups, 1, o.acc.n, g, PX_OPF_MMA_WAIT);
	size_t w = 1 + px_groups_words(&o.groups);
	uint64_t *start = px_frame_alloc(fr, w, 8);
	px_bit_set(start, 0); /* no fence yet where the function starts */
	px_flow_check(g, w, start, step, &o);
}
