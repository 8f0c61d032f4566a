/* Generic-proxy writes to shared memory that the async proxy then reads: a
 * st, stmatrix, atom or red into a shared variable, then a bulk or TMA copy
 * (or reduction) that reads it as its source, on a path with no
 * fence.proxy.async between (-Wproxy-fence). The async proxy does not see
 * generic writes until such a fence orders them.
 *
 * The variables are those addresses point into (verify/points.h); a forward
 * dataflow problem over the blocks, a bit per variable ("written by the
 * generic proxy, not fenced yet"), a join a union. fence.proxy.async without
 * a space or with a shared one clears every bit. */
#include <stdlib.h>
#include <string.h>

#include "verify/cfg.h"
#include "verify/points.h"
#include "verify/verify.h"

typedef struct pfence {
	px_verifier *v;
	px_points points;
	uint32_t *bit;        /* per global: 1 + its bit, or 0 */
	uint32_t nbits;
	const px_node **write; /* per bit: a generic write of it */
	uint8_t *said;
	size_t w;
} pfence;

static bool generic_write(const px_node *n)
{
	return n->kind == PX_N_INST && (n->op == &px_ops[PX_OP_st] || n->op == &px_ops[PX_OP_stmatrix] ||
	                                n->op == &px_ops[PX_OP_atom] || n->op == &px_ops[PX_OP_red]);
}

/* A bulk or TMA copy or reduction: its operands after the first are its sources. */
static bool async_reader(const px_node *n)
{
	return n->kind == PX_N_INST &&
	       (n->op == &px_ops[PX_OP_cp_async_bulk] || n->op == &px_ops[PX_OP_cp_async_bulk_tensor] ||
	        n->op == &px_ops[PX_OP_cp_reduce_async_bulk] || n->op == &px_ops[PX_OP_cp_reduce_async_bulk_tensor]);
}

static bool is_fence(const px_node *n)
{
	if (n->kind != PX_N_INST || n->op != &px_ops[PX_OP_fence_proxy])
		return false;
	int k = px_slot_find(n->op, PX_SN_kind), s = px_slot_find(n->op, PX_SN_space);
	unsigned kind = k < 0 ? 0 : px_slot_tok(n->op, n->slot, (unsigned)k);
	unsigned space = s < 0 ? 0 : px_slot_tok(n->op, n->slot, (unsigned)s);
	return kind == PX_TOK_async && space != PX_TOK_global;
}

/* The first operand of n that points into a tracked variable: its bit + 1. */
static uint32_t bit_of(const pfence *p, const px_opnd *o)
{
	uint32_t t = px_points_target(&p->points, o);
	return t ? p->bit[t - 1] : 0;
}

static void step(void *ctx, uint64_t *s, const px_node *n, bool report)
{
	pfence *p = ctx;
	if (is_fence(n)) {
		memset(s, 0, p->w * 8);
		return;
	}
	if (generic_write(n)) {
		for (uint32_t i = 0; i < n->nops; i++) {
			uint32_t b = bit_of(p, &n->ops[i]);
			if (b)
				s[(b - 1) >> 6] |= (uint64_t)1 << ((b - 1) & 63);
		}
		return;
	}
	if (!report || !async_reader(n))
		return;
	for (uint32_t i = 1; i < n->nops; i++) {
		uint32_t b = bit_of(p, &n->ops[i]);
		if (!b || !(s[(b - 1) >> 6] >> ((b - 1) & 63) & 1) || p->said[b - 1])
			continue;
		p->said[b - 1] = 1;
		uint32_t t = px_points_target(&p->points, &n->ops[i]);
		const px_str name = p->v->m->globals[t - 1].name;
		px_warn(p->v->d, n->ops[i].loc, PX_D_proxy_no_fence, n->op->name, (int)name.n, name.s);
		px_note(p->v->d, p->write[b - 1]->loc, PX_D_proxy_write_here, p->write[b - 1]->op->name, (int)name.n,
		        name.s);
	}
}

void px_check_proxy_fence(px_verifier *v, px_func *f, const px_cfg *g)
{
	if (!px_cfg_has(g, PX_OP_cp_async_bulk) && !px_cfg_has(g, PX_OP_cp_async_bulk_tensor) &&
	    !px_cfg_has(g, PX_OP_cp_reduce_async_bulk) && !px_cfg_has(g, PX_OP_cp_reduce_async_bulk_tensor))
		return;
	pfence p = {.v = v};
	px_points_init(&p.points, v, f);
	p.bit = px_zalloc(v->m->nglobals + 1, sizeof *p.bit);
	for (const px_node *n = f->first; n; n = n->next)
		for (uint32_t i = 0; generic_write(n) && i < n->nops; i++) {
			uint32_t t = px_points_target(&p.points, &n->ops[i]);
			if (t && !p.bit[t - 1])
				p.bit[t - 1] = ++p.nbits;
		}
	p.write = px_zalloc(p.nbits + 1, sizeof *p.write);
	for (const px_node *n = f->first; n; n = n->next)
		for (uint32_t i = 0; generic_write(n) && i < n->nops; i++) {
			uint32_t b = bit_of(&p, &n->ops[i]);
			if (b && !p.write[b - 1])
				p.write[b - 1] = n;
		}
	if (p.nbits) {
		p.w = (p.nbits + 63) / 64;
		p.said = px_zalloc(p.nbits, 1);
		px_flow_check(g, p.w, NULL, step, &p);
		free(p.said);
	}
	free(p.write);
	free(p.bit);
	px_points_free(&p.points);
}
