/* An mbarrier that some threads initialize and other threads then use with
 * nothing between that makes the init visible to them (-Wmbarrier-fence).
 * The PTX ISA orders mbarrier.init before other threads' operations on the
 * barrier through fence.mbarrier_init (then a barrier over the cluster) or
 * a CTA barrier (bar.sync and its kin, which order the shared memory writes
 * before them); CUTLASS's pipelines initialize from one elected thread, fence
 * and synchronize the CTA or cluster before any other thread arrives.
 *
 * Who initializes is what verify/analysis/facts.h follows: an init guarded by @%p, or
 * under a branch on %p every path to it took one way, is the threads where
 * %p is so; an init every thread that reaches it runs is each thread's own
 * and is not followed. A use under the same fact is the initializing threads'
 * own; a use under any other (or none) may be another thread's. A forward
 * dataflow problem over the blocks, a bit per barrier and fact ("initialized
 * under it, not yet made visible"), a join a union; fence.mbarrier_init, a
 * CTA barrier, barrier.cluster.wait and a call clear them all. The barriers
 * are shared module variables (verify/analysis/points.h); only kernels are checked,
 * as -Wmbarrier-uninit checks them. */
#include <stdlib.h>
#include <string.h>

#include "verify/analysis/bits.h"
#include "verify/analysis/facts.h"
#include "verify/analysis/points.h"
#include "verify/hazard/frame.h"

typedef struct mfence {
	px_verifier *v;
	const px_func *f;
	px_points points;
	px_facts facts;
	uint32_t *bar;        /* per global: 1 + its barrier index, or 0 */
	uint32_t nbars;
	size_t base, w;       /* the init bits: base + barrier * nfacts + fact */
	const px_node **init; /* per barrier and fact: an init under it */
	uint8_t *said;        /* per barrier */
} mfence;

static bool cares(void *ctx, const px_node *n)
{
	(void)ctx;
	return px_is_mbarrier_init(n) || px_uses_mbarrier(n);
}

static bool publishes(const px_node *n)
{
	return n->kind == PX_N_CALL ||
	       (n->kind == PX_N_INST && n->op &&
	        (n->op->flags & (PX_OPF_CTA_BARRIER | PX_OPF_INIT_FENCE)));
}

static void edge(void *ctx, uint64_t *s, uint32_t from, uint32_t to)
{
	mfence *m = ctx;
	px_facts_edge(&m->facts, s, from, to);
}

/* 1 + the barrier n's first operand points into, or 0. */
static uint32_t barrier_of(const mfence *m, const px_node *n)
{
	uint32_t t = px_points_target(&m->points, &n->ops[0]);
	return t ? m->bar[t - 1] : 0;
}

static void warn(mfence *m, const px_node *use, uint32_t b, uint32_t fact)
{
	if (m->said[b])
		return;
	m->said[b] = 1;
	const px_node *init = m->init[(size_t)b * m->facts.nfacts + fact];
	uint32_t t = px_points_target(&m->points, &use->ops[0]);
	const px_str name = m->v->m->globals[t - 1].name;
	px_warn(m->v->d, use->ops[0].loc, PX_D_mbarrier_no_fence, use->op->name, (int)name.n, name.s);
	const px_value *p = &m->f->values[px_facts_value(&m->facts, fact)];
	px_note(m->v->d, init->loc, PX_D_mbarrier_init_by, (int)p->name.n, p->name.s, fact & 1 ? "true" : "false");
}

static void step(void *ctx, uint64_t *s, const px_node *n, bool report)
{
	mfence *m = ctx;
	const uint32_t nf = m->facts.nfacts;
	px_facts_step(&m->facts, s, n);
	if (publishes(n)) {
		memset(s + m->base, 0, (m->w - m->base) * 8);
		return;
	}
	if (!cares(NULL, n) || !n->nops)
		return;
	uint32_t b = barrier_of(m, n);
	if (!b--)
		return;
	uint32_t fact = px_facts_of(&m->facts, s, n);
	size_t at = m->base * 64 + (size_t)b * nf;
	if (px_is_mbarrier_init(n)) {
		if (fact < nf) {
			px_bit_set(s, at + fact);
			if (!m->init[(size_t)b * nf + fact])
				m->init[(size_t)b * nf + fact] = n;
		}
		return;
	}
	for (uint32_t k = 0; report && k < nf; k++)
		if (k != fact && px_bit(s, at + k))
			warn(m, n, b, k);
}

void px_check_mbarrier_fence(px_frame *fr)
{
	px_verifier *v = fr->v;
	px_func *f = fr->f;
	const px_cfg *g = &fr->g;
	if (!f->is_kernel || !px_cfg_has_flag(g, PX_OPF_MBARRIER_INIT))
		return;
	mfence m = {.v = v, .f = f};
	px_points_init(&m.points, v, f, fr->a);
	m.bar = px_frame_alloc(fr, v->m->nglobals + 1, sizeof *m.bar);
	for (uint32_t k = px_cfg_next(g, 0, PX_MBARRIER_OPS); k < g->nstmts; k = px_cfg_next(g, k + 1, PX_MBARRIER_OPS)) {
		const px_node *n = g->stmt[k];
		uint32_t t;
		if (cares(NULL, n) && n->nops && (t = px_points_target(&m.points, &n->ops[0])) && !m.bar[t - 1])
			m.bar[t - 1] = ++m.nbars;
	}
	px_facts_init(&m.facts, f, g, 0, PX_MBARRIER_OPS, 0, cares, NULL);
	if (m.nbars && m.facts.nfacts) {
		m.base = m.facts.words;
		m.w = m.base + px_bits_words((size_t)m.nbars * m.facts.nfacts);
		m.init = px_frame_alloc(fr, (size_t)m.nbars * m.facts.nfacts, sizeof *m.init);
		m.said = px_frame_alloc(fr, m.nbars, 1);
		uint64_t *start = px_frame_alloc(fr, m.w, 8);
		px_facts_start(&m.facts, start);
		px_flow_check_edges(g, m.w, start, step, edge, &m);
	}
}
