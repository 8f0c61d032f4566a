/* An mbarrier a kernel arrives on, waits on or changes where no
 * mbarrier.init of it reaches: on no path from the kernel's start to the
 * statement is the barrier initialized (-Wmbarrier-uninit). The barriers are
 * shared module variables (verify/analysis/points.h); shared memory starts anew in
 * every CTA, so the kernel itself must initialize them. One thread commonly
 * initializes for all, before a CTA barrier: an init on any path reaching
 * the use is enough, so the check is a union of "initialized on some path",
 * a bit per barrier. A call may initialize any of them (what a callee does
 * is not followed). Only kernels are checked: a func's barriers may be its
 * caller's to initialize. */
#include <stdlib.h>
#include <string.h>

#include "verify/analysis/bits.h"
#include "verify/analysis/items.h"
#include "verify/analysis/points.h"
#include "verify/hazard/frame.h"

typedef struct minit {
	px_verifier *v;
	px_points points;
	px_items bars;  /* the module variables used as barriers; each points at its first init */
	size_t w;
} minit;

bool px_uses_mbarrier(const px_node *n)
{
	return n->kind == PX_N_INST && n->op && (n->op->flags & PX_OPF_MBARRIER_USE) && n->nops;
}

bool px_is_mbarrier_init(const px_node *n)
{
	return n->kind == PX_N_INST && n->op && (n->op->flags & PX_OPF_MBARRIER_INIT) && n->nops;
}

static void step(void *ctx, uint64_t *s, const px_node *n, bool report)
{
	minit *m = ctx;
	if (n->kind == PX_N_CALL) {
		memset(s, 0xff, m->w * 8);
		return;
	}
	uint32_t t, b;
	if (px_is_mbarrier_init(n) && (t = px_points_target(&m->points, &n->ops[0])) &&
	    px_items_find(&m->bars, t - 1, &b)) {
		px_bit_set(s, b);
		return;
	}
	if (!report || !px_uses_mbarrier(n) || !(t = px_points_target(&m->points, &n->ops[0])) ||
	    !px_items_find(&m->bars, t - 1, &b) || px_bit(s, b) || !px_items_say(&m->bars, b))
		return;
	const px_str name = m->v->m->globals[t - 1].name;
	px_warn(m->v->d, n->ops[0].loc, PX_D_mbarrier_uninit, n->op->name, (int)name.n, name.s);
	if (m->bars.first[b])
		px_note(m->v->d, m->bars.first[b]->loc, PX_D_mbarrier_init_elsewhere, (int)name.n, name.s,
		        px_module_line(m->v->m, n->loc));
}

void px_check_mbarrier_init(px_frame *fr)
{
	px_verifier *v = fr->v;
	px_func *f = fr->f;
	const px_cfg *g = &fr->g;
	if (!px_cfg_has_flag(g, PX_OPF_MBARRIER_USE) || !f->is_kernel)
		return;
	minit m = {.v = v};
	px_points_init(&m.points, v, f, fr->a);
	px_items_init(&m.bars, fr->a, v->m->nglobals + 1);
	for (uint32_t k = px_cfg_next(g, 0, PX_MBARRIER_OPS); k < g->nstmts; k = px_cfg_next(g, k + 1, PX_MBARRIER_OPS)) {
		const px_node *n = g->stmt[k];
		uint32_t t, b;
		if ((px_uses_mbarrier(n) || px_is_mbarrier_init(n)) && (t = px_points_target(&m.points, &n->ops[0]))) {
			b = px_items_add(&m.bars, t - 1);
			if (px_is_mbarrier_init(n))
				px_items_point(&m.bars, b, n);
		}
	}
	if (m.bars.n) {
		m.w = px_bits_words(m.bars.n);
		px_flow_check(g, m.w, NULL, step, &m);
	}
}
