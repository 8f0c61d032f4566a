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
#include "verify/analysis/items.h"
#include "verify/hazard/frame.h"

typedef struct tmem_wait {
	px_verifier *v;
	px_func *f;
	px_items loaded;        /* the values a load writes; each points at a load */
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
	uint32_t b;
	if (!px_items_find(&t->loaded, id, &b) || !px_bit(t->state, b) || !px_items_say(&t->loaded, b))
		return;
	const px_value *val = &t->f->values[id];
	const px_node *load = t->loaded.first[b];
	px_warn(t->v->d, loc, PX_D_tcgen05_no_wait, (int)val->name.n, val->name.s, t->write ? "written" : "read",
	        load->op->name);
	px_note(t->v->d, load->loc, PX_D_tcgen05_loader, load->op->name, (int)val->name.n, val->name.s);
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
	uint32_t b;
	for (uint32_t r = 0; is_load(n) && r < n->nres; r++)
		if (n->res[r].kind == PX_O_VALUE && px_items_find(&t->loaded, n->res[r].id, &b))
			px_bit_set(s, b);
}

void px_check_tmem_wait(px_frame *fr)
{
	px_func *f = fr->f;
	if (!px_cfg_has_flag(&fr->g, PX_OPF_TMEM_LOAD))
		return;
	tmem_wait t = {.v = fr->v, .f = f};
	px_items_init(&t.loaded, fr->a, f->nvalues + 1);
	const px_cfg *g = &fr->g;
	for (uint32_t k = px_cfg_next(g, 0, PX_OPF_TMEM_LOAD); k < g->nstmts; k = px_cfg_next(g, k + 1, PX_OPF_TMEM_LOAD))
		for (uint32_t r = 0; r < g->stmt[k]->nres; r++)
			if (g->stmt[k]->res[r].kind == PX_O_VALUE)
				px_items_point(&t.loaded, px_items_add(&t.loaded, g->stmt[k]->res[r].id), g->stmt[k]);
	t.w = px_bits_words(t.loaded.n);
	px_flow_check(&fr->g, t.w, NULL, step, &t);
}
