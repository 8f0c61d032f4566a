/* tcgen05.alloc takes tensor memory columns that stay taken until
 * tcgen05.dealloc gives them back; a warp that exits holding them leaves
 * them taken for the kernels after it. A kernel's path from an alloc to its
 * end (ret, exit) in the allocating warp with no dealloc on the way
 * (-Wtcgen05-dealloc) is that leak.
 *
 * "The allocating warp" is what verify/analysis/facts.h follows: an alloc guarded by
 * @%p, or under a branch on %p every path to it took one way, runs in the
 * warps where %p is so, and an edge where %p goes the other way is not
 * theirs. So the warp-index pattern (allocate when %warp0, free when %warp0,
 * by guards or branches on the same predicate) is quiet, while a branch on
 * anything else that leaves for the end is not. A forward dataflow problem,
 * a bit per fact ("an alloc made under it may not be freed") and one for an
 * alloc every thread reaching it makes; a join is a union. A dealloc frees
 * what its own fact's alloc took, and everything when every path to it
 * established its guard or it has none; a call may free anything (what a
 * callee does is not followed). Only kernels are checked: a func's columns
 * may be its caller's to free. */
#include <stdlib.h>
#include <string.h>

#include "verify/analysis/bits.h"
#include "verify/analysis/facts.h"
#include "verify/hazard/frame.h"

typedef struct tmem_alloc {
	px_verifier *v;
	px_facts facts;
	size_t tags;           /* the first word of the allocation bits */
	size_t w;
	const px_node **alloc; /* per fact (and nfacts: none): an alloc made under it */
	uint8_t *said;         /* likewise */
} tmem_alloc;

static bool is_alloc(const px_node *n)
{
	return n->kind == PX_N_INST && n->op && (n->op->flags & PX_OPF_TMEM_ALLOC);
}

static bool is_dealloc(const px_node *n)
{
	return n->kind == PX_N_INST && n->op && (n->op->flags & PX_OPF_TMEM_DEALLOC);
}

static bool cares(void *ctx, const px_node *n)
{
	(void)ctx;
	return is_alloc(n) || is_dealloc(n);
}

static bool is_exit(const px_node *n)
{
	return n->kind == PX_N_RET || (n->kind == PX_N_INST && n->op && (n->op->flags & PX_OPF_ENDS_THREAD));
}

static void edge(void *ctx, uint64_t *s, uint32_t from, uint32_t to)
{
	tmem_alloc *t = ctx;
	uint32_t not_here = px_facts_edge(&t->facts, s, from, to);
	if (not_here < t->facts.nfacts)
		px_bit_put(s + t->tags, not_here, false);
}

static void step(void *ctx, uint64_t *s, const px_node *n, bool report)
{
	tmem_alloc *t = ctx;
	const uint32_t none = t->facts.nfacts;
	uint32_t k = px_facts_step(&t->facts, s, n);
	if (k) { /* the predicate is redefined: its allocations are no one's in particular */
		for (uint32_t f = 2 * (k - 1); f < 2 * k; f++)
			if (px_bit(s + t->tags, f)) {
				px_bit_put(s + t->tags, f, false);
				px_bit_put(s + t->tags, none, true);
				if (!t->alloc[none])
					t->alloc[none] = t->alloc[f];
			}
	}
	if (n->kind == PX_N_CALL) {
		memset(s + t->tags, 0, (t->w - t->tags) * 8);
		return;
	}
	if (is_alloc(n)) {
		uint32_t f = px_facts_of(&t->facts, s, n);
		px_bit_put(s + t->tags, f, true);
		if (!t->alloc[f])
			t->alloc[f] = n; /* the warning's place */
		return;
	}
	if (is_dealloc(n)) {
		uint32_t f = px_facts_of(&t->facts, s, n);
		if (!n->has_guard || (f < none && !px_bit(s + t->facts.base, f)))
			memset(s + t->tags, 0, (t->w - t->tags) * 8);
		else
			px_bit_put(s + t->tags, f, false);
		return;
	}
	if (!report || !is_exit(n))
		return;
	/* a guarded exit is the end for the threads its guard holds in */
	uint32_t other = n->has_guard ? px_facts_of(&t->facts, s, n) ^ 1 : UINT32_MAX;
	for (uint32_t f = 0; f <= none; f++) {
		if (f == other || !px_bit(s + t->tags, f) || t->said[f])
			continue;
		t->said[f] = 1;
		px_warn(t->v->d, t->alloc[f]->oploc, PX_D_tcgen05_no_dealloc);
		px_note(t->v->d, n->loc, PX_D_tcgen05_exit_here, n->kind == PX_N_RET ? "ret" : n->op->name,
		        px_module_line(t->v->m, t->alloc[f]->loc));
	}
}

void px_check_tmem_alloc(px_frame *fr)
{
	px_verifier *v = fr->v;
	px_func *f = fr->f;
	const px_cfg *g = &fr->g;
	if (!px_cfg_has_flag(g, PX_OPF_TMEM_ALLOC) || !f->is_kernel)
		return;
	tmem_alloc t = {.v = v};
	px_facts_init(&t.facts, f, g, 0, PX_OPF_TMEM_ALLOC | PX_OPF_TMEM_DEALLOC, 0, cares, NULL);
	t.tags = t.facts.words;
	t.w = t.tags + px_bits_words(t.facts.nfacts + 1);
	t.alloc = px_frame_alloc(fr, t.facts.nfacts + 1, sizeof *t.alloc);
	t.said = px_frame_alloc(fr, t.facts.nfacts + 1, 1);
	uint64_t *start = px_frame_alloc(fr, t.w, 8);
	px_facts_start(&t.facts, start);
	px_flow_check_edges(g, t.w, start, step, edge, &t);
}
