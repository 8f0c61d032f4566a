/* Asynchronous copies into shared memory, within a function: the
 * destination of a cp.async touched (read or written, by any statement but
 * another copy) on a path from the copy with no cp.async.wait_group or
 * cp.async.wait_all between (-Wcp-async-wait), and the destination of a bulk
 * or TMA copy (cp.async.bulk, cp.async.bulk.tensor) touched on a path from it
 * with no wait on an mbarrier between (-Wtma-wait).
 *
 * A destination is a shared module variable an address points into
 * (verify/points.h). A forward dataflow problem over the
 * blocks, two bits per such variable ("a cp.async into it may run", "a bulk
 * copy into it may run"), a join a union. Any cp.async wait clears the first
 * bits and any mbarrier test_wait or try_wait both (a cp.async may complete
 * on an mbarrier too): which group or which mbarrier is not followed. */
#include <stdlib.h>
#include <string.h>

#include "verify/cfg.h"
#include "verify/points.h"
#include "verify/verify.h"

typedef struct acopy {
	px_verifier *v;
	px_func *f;
	px_points points;
	uint32_t *bit;       /* per global: 1 + its variable index among the destinations, or 0 */
	uint32_t nvars;
	const px_node **copy; /* per bit: a copy that sets it */
	uint8_t *said;       /* per bit */
} acopy;

static inline bool get(const uint64_t *s, uint32_t i) { return s[i >> 6] >> (i & 63) & 1; }
static inline void set(uint64_t *s, uint32_t i) { s[i >> 6] |= (uint64_t)1 << (i & 63); }

static uint32_t target(const acopy *a, const px_opnd *o)
{
	return px_points_target(&a->points, o);
}

static bool is_copy(const px_node *n, bool *bulk)
{
	if (n->kind != PX_N_INST || !n->op)
		return false;
	*bulk = n->op == &px_ops[PX_OP_cp_async_bulk] || n->op == &px_ops[PX_OP_cp_async_bulk_tensor];
	return *bulk || n->op == &px_ops[PX_OP_cp_async];
}

static bool is_mbarrier_wait(const px_node *n)
{
	return n->kind == PX_N_INST && (n->op == &px_ops[PX_OP_mbarrier_test_wait] || n->op == &px_ops[PX_OP_mbarrier_try_wait]);
}

static bool is_cp_async_wait(const px_node *n)
{
	return n->kind == PX_N_INST && (n->op == &px_ops[PX_OP_cp_async_wait_all] || n->op == &px_ops[PX_OP_cp_async_wait_group]);
}

static void step(void *ctx, uint64_t *s, const px_node *n, bool report)
{
	acopy *a = ctx;
	if (n->kind != PX_N_INST || !n->op)
		return;
	bool bulk, copy = is_copy(n, &bulk);
	if (is_cp_async_wait(n) || is_mbarrier_wait(n)) {
		for (uint32_t k = 0; k < a->nvars; k++) {
			s[(2 * k) >> 6] &= ~((uint64_t)1 << ((2 * k) & 63));
			if (is_mbarrier_wait(n))
				s[(2 * k + 1) >> 6] &= ~((uint64_t)1 << ((2 * k + 1) & 63));
		}
		return;
	}
	/* a copy's sources are touched before its destination becomes pending */
	for (uint32_t i = copy ? 1 : 0; report && i < n->nops; i++) {
		uint32_t g = target(a, &n->ops[i]);
		if (!g || !a->bit[g - 1])
			continue;
		for (unsigned kind = 0; kind < 2; kind++) {
			uint32_t b = 2 * (a->bit[g - 1] - 1) + kind;
			if (!get(s, b) || a->said[b])
				continue;
			a->said[b] = 1;
			const px_str name = a->v->m->globals[g - 1].name;
			px_warn(a->v->d, n->ops[i].loc, kind ? PX_D_tma_no_wait : PX_D_cp_async_no_wait, n->op->name,
			        (int)name.n, name.s);
			px_note(a->v->d, a->copy[b]->loc, PX_D_async_copy_here, a->copy[b]->op->name, (int)name.n, name.s);
		}
	}
	if (copy) {
		uint32_t g = n->nops ? target(a, &n->ops[0]) : 0;
		if (g && a->bit[g - 1])
			set(s, 2 * (a->bit[g - 1] - 1) + bulk);
	}
}

void px_check_async_copies(px_verifier *v, px_func *f, const px_cfg *g)
{
	bool bulk;
	if (!px_cfg_has(g, PX_OP_cp_async) && !px_cfg_has(g, PX_OP_cp_async_bulk) &&
	    !px_cfg_has(g, PX_OP_cp_async_bulk_tensor))
		return;
	acopy a = {.v = v, .f = f};
	px_points_init(&a.points, v, f);
	a.bit = px_zalloc(v->m->nglobals + 1, sizeof *a.bit);
	for (const px_node *n = f->first; n; n = n->next) {
		uint32_t t;
		if (is_copy(n, &bulk) && n->nops && (t = target(&a, &n->ops[0])) && !a.bit[t - 1])
			a.bit[t - 1] = ++a.nvars;
	}
	a.copy = px_zalloc(2 * a.nvars + 1, sizeof *a.copy);
	for (const px_node *n = f->first; n; n = n->next) {
		uint32_t t;
		if (is_copy(n, &bulk) && n->nops && (t = target(&a, &n->ops[0]))) {
			uint32_t b = 2 * (a.bit[t - 1] - 1) + bulk;
			if (!a.copy[b])
				a.copy[b] = n;
		}
	}
	a.said = px_zalloc(2 * a.nvars + 1, 1);
	if (a.nvars)
		px_flow_check(g, (2 * a.nvars + 63) / 64, NULL, step, &a);
	free(a.said);
	free(a.copy);
	free(a.bit);
	px_points_free(&a.points);
}
