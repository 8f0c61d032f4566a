/* tcgen05.ld and tcgen05.ld.red are asynchronous: their result registers
 * hold the tensor memory's values only once tcgen05.wait::ld has waited for
 * every load the thread issued before it. A result read or written on a path
 * from its load with no tcgen05.wait::ld between (-Wtcgen05-wait) sees, or
 * is overwritten by, a value still on its way.
 *
 * A forward dataflow problem over the blocks, a bit per value a load writes
 * ("may be pending"), a join a union; tcgen05.wait::ld clears them all (a
 * guarded one counts as done). A call waits for nothing. */
#include <stdlib.h>

#include "verify/analysis/bits.h"
#include "verify/hazard/frame.h"

typedef struct tmem_wait {
	px_verifier *v;
	px_func *f;
	uint32_t *bit;          /* per value: 1 + its bit, 0 when no load writes it */
	const px_node **loader; /* per bit (from 1): a load that writes it */
	uint8_t *said;          /* per bit */
	size_t w;
	uint64_t *state;        /* while a statement is looked at */
	bool write;
} tmem_wait;

static bool is_load(const px_node *n)
{
	return n->kind == PX_N_INST && n->op && (n->op->flags & PX_OPF_TMEM_LOAD);
}

static void on_touch(void *ctx, uint32_t id, px_loc loc)
{
	tmem_wait *t = ctx;
	uint32_t b = t->bit[id];
	if (!b || !px_bit(t->state, b) || t->said[b])
		return;
	t->said[b] = 1;
	const px_value *val = &t->f->values[id];
	px_warn(t->v->d, loc, PX_D_tcgen05_no_wait, (int)val->name.n, val->name.s, t->write ? "written" : "read",
	        t->loader[b]->op->name);
	px_note(t->v->d, t->loader[b]->loc, PX_D_tcgen05_loader, t->loader[b]->op->name, (int)val->name.n, val->name.s);
}

static void step(void *ctx, uint64_t *s, const px_node *n, bool report)
{
	tmem_wait *t = ctx;
	if (n->kind == PX_N_INST && n->op && (n->op->flags & PX_OPF_TMEM_WAIT_LD)) {
		for (size_t k = 0; k < t->w; k++)
			s[k] = 0;
		return;
	}
	t->state = s;
	if (report) {
		t->write = false;
		px_node_reads(n, on_touch, t);
		if (!is_load(n)) {
			t->write = true;
			px_node_writes(n, on_touch, t);
		}
	}
	for (uint32_t r = 0; is_load(n) && r < n->nres; r++)
		if (n->res[r].kind == PX_O_VALUE && t->bit[n->res[r].id]) {
			uint32_t b = t->bit[n->res[r].id];
			px_bit_set(s, b);
		}
}

void px_check_tmem_wait(px_frame *fr)
{
	px_verifier *v = fr->v;
	px_func *f = fr->f;
	const px_cfg *g = &fr->g;
	if (!px_cfg_has_flag(g, PX_OPF_TMEM_LOAD))
		return;
	tmem_wait t = {.v = v, .f = f};
	uint32_t nbits = 0;
	t.bit = px_frame_alloc(fr, f->nvalues + 1, sizeof *t.bit);
	for (const px_node *n = f->first; n; n = n->next)
		for (uint32_t r = 0; is_load(n) && r < n->nres; r++)
			if (n->res[r].kind == PX_O_VALUE && !t.bit[n->res[r].id])
				t.bit[n->res[r].id] = ++nbits;
	t.loader = px_frame_alloc(fr, nbits + 1, sizeof *t.loader);
	for (const px_node *n = f->first; n; n = n->next)
		for (uint32_t r = 0; is_load(n) && r < n->nres; r++)
			if (n->res[r].kind == PX_O_VALUE && !t.loader[t.bit[n->res[r].id]])
				t.loader[t.bit[n->res[r].id]] = n;
	t.said = px_frame_alloc(fr, nbits + 1, 1);
	t.w = px_bits_words(nbits + 1);
	px_flow_check(g, t.w, NULL, step, &t);
}
