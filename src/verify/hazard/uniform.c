/* Uniformity: which threads may see different values and take different
 * paths, and the statements that need whole groups of threads to arrive
 * together. A value is uniform across the CTA, across a warpgroup, across a
 * warp, or may differ from thread to thread (the levels below). It varies as
 * its sources do: special registers (data/sregs.yaml's varies:), results that
 * differ thread to thread whatever their operands (thread_result: atomics,
 * shfl.sync, activemask, elect.sync), its operands, its guard, and the
 * control it is defined under (a value defined on a path some threads of a
 * warp take differs from theirs at the join). %tid.x is x-linear: x-linear
 * plus a multiple of 32, compared (lt, ge; le, gt with 31 more) with a
 * multiple of 32, shifted right by 5 or more, divided by or masked with a
 * multiple of 32 is the same in a warp (128: in a warpgroup) when the block's
 * x size is a multiple of 32 (128): reqntid says it, and without reqntid it
 * is assumed.
 *
 * Control that a branch on a varying condition makes diverge stays so until
 * the branch's immediate post-dominator (where every path from it meets
 * again, or the function's exit). A CTA barrier without a thread count
 * excuses threads that leave: a branch one of whose ways reaches the exit
 * with no CTA barrier on any path (an early return) does not make it
 * diverge, since threads that exit release the barriers they hold up. An
 * aligned one does not (-Wbarrier-exit, its own option): the ISA leaves an
 * aligned barrier undefined in code not every thread of the CTA reaches,
 * and CUDA's __syncthreads is one. A barrier with a count is never excused:
 * exiting threads release only barriers that wait for all threads.
 *
 * The levels only rise, a block's control level is raised by a region walk
 * at most once per level per branch, and each round reads every statement
 * once: the cost is the statements times the rounds a loop needs, plus the
 * region walks. */
#include <stdlib.h>
#include <string.h>

#include "verify/hazard/frame.h"
#include "verify/hazard/once.h"

enum { CTA, WARPGROUP, WARP, THREAD };

/* What a warning says about its cause (verify/hazard/once.h keeps one per cause). */
typedef struct finding {
	const px_node *first, *from;
	const char *why;
	bool guarded; /* the cause is the statements' own guard */
} finding;

typedef struct uni {
	px_arena *a;
	px_verifier *v;
	px_func *f;
	const px_cfg *g;
	uint32_t nb;
	uint8_t *lvl;        /* per value */
	const char **why;    /* per value: the source of its level ("%tid.x", "atom") */
	uint8_t *xal;        /* per value: 0 not x-linear; else %tid.x plus a multiple of xal (32 or 128); 0xff unset */
	uint8_t *ctrl;       /* per block: the level of its control */
	uint8_t *ctrl_bar;   /* per block: the same, for CTA barriers (early exits excused) */
	const px_node **ctrl_from, **bar_from; /* per block: the branch that set it */
	const char **ctrl_why, **bar_why; /* per block: the source of the branch's condition */
	uint8_t *walked;     /* per block ending in a branch: the level its region was walked at */
	uint32_t *ipdom;     /* per block; nb: the exit; UINT32_MAX: none (a path that never ends) */
	uint8_t *tail;       /* per block: every path from it reaches the exit with no CTA barrier */
	uint32_t *stack;
	uint32_t *seen;      /* per block: the walk that last saw it */
	uint32_t walk;       /* the walk under way */
	px_once once;        /* the hazards, one per cause and message */
	finding *found;      /* per hazard */
	uint32_t cap_found;
	bool x32, x128;      /* the block's x size is a multiple of 32, of 128 */
	bool changed;
} uni;


static bool ends_path(const px_node *n)
{
	return n->kind == PX_N_RET || (n->kind == PX_N_INST && n->op && (n->op->flags & PX_OPF_TERMINATOR));
}

/* Whether the exit follows block b on some path (a ret, exit or trap, or the
 * end of the body). */
static bool reaches_exit(const px_cfg *g, uint32_t b)
{
	const px_node *last = px_cfg_last(g, b);
	return g->succ_at[b] == g->succ_at[b + 1] || ends_path(last) ||
	       (b + 1 == g->nblocks &&
	        !(last->kind == PX_N_INST && last->op && last->op->shape == PX_SHAPE_BRANCH && !last->has_guard));
}

/* Immediate post-dominators (Cooper, Harvey and Kennedy's iteration over the
 * reversed graph, the exit a node of its own). */
static void post_dominators(uni *u)
{
	const px_cfg *g = u->g;
	px_arena_mark mark = px_arena_mark_now(u->a);
	uint32_t nb = u->nb, *po = px_arena_calloc(u->a, nb + 1, sizeof *po);
	uint32_t *num = px_arena_calloc(u->a, nb + 1, sizeof *num);
	uint32_t *next = px_arena_calloc(u->a, nb + 1, sizeof *next), top = 0, npo = 0;
	uint8_t *on = px_arena_calloc(u->a, nb + 1, 1);
	uint32_t *exits = px_arena_calloc(u->a, nb, sizeof *exits), nexits = 0;
	for (uint32_t b = 0; b < nb; b++)
		if (reaches_exit(g, b))
			exits[nexits++] = b;
	/* depth-first over the reversed edges from the exit: postorder numbers */
	u->stack[top++] = nb;
	on[nb] = 1;
	while (top) {
		uint32_t b = u->stack[top - 1];
		uint32_t p = UINT32_MAX;
		if (b == nb) {
			if (next[b] < nexits)
				p = exits[next[b]++];
		} else if (next[b] < g->pred_at[b + 1] - g->pred_at[b]) {
			p = g->pred[g->pred_at[b] + next[b]++];
		}
		if (p == UINT32_MAX) {
			num[b] = npo;
			po[npo++] = b;
			top--;
		} else if (!on[p]) {
			on[p] = 1;
			u->stack[top++] = p;
		}
	}
	for (uint32_t b = 0; b < nb; b++)
		u->ipdom[b] = UINT32_MAX;
	u->ipdom[nb] = nb;
	bool changed = true;
	while (changed) {
		changed = false;
		for (uint32_t i = npo; i-- > 0;) {
			uint32_t b = po[i];
			if (b == nb)
				continue;
			uint32_t best = UINT32_MAX;
			uint32_t nsucc = g->succ_at[b + 1] - g->succ_at[b];
			for (uint32_t k = 0; k <= nsucc; k++) {
				uint32_t s = k < nsucc ? g->succ[g->succ_at[b] + k] : (reaches_exit(g, b) ? nb : UINT32_MAX);
				if (s == UINT32_MAX || !on[s] || u->ipdom[s] == UINT32_MAX)
					continue;
				if (best == UINT32_MAX) {
					best = s;
					continue;
				}
				uint32_t x = s, y = best;
				while (x != y) {
					while (num[x] < num[y])
						x = u->ipdom[x];
					while (num[y] < num[x])
						y = u->ipdom[y];
				}
				best = x;
			}
			if (best != UINT32_MAX && u->ipdom[b] != best) {
				u->ipdom[b] = best;
				changed = true;
			}
		}
	}
	px_arena_release(u->a, mark);
}

/* Blocks from which every path reaches the exit with no CTA barrier. */
static void exit_tails(uni *u)
{
	const px_cfg *g = u->g;
	for (uint32_t b = 0; b < u->nb; b++)
		u->tail[b] = !(g->block_flags[b] & PX_OPF_CTA_BARRIER) && !(g->block_marks[b] & PX_CFG_KIND(PX_N_CALL));
	bool changed = true;
	while (changed) {
		changed = false;
		for (uint32_t b = u->nb; b-- > 0;) {
			if (!u->tail[b])
				continue;
			bool ok = g->succ_at[b] < g->succ_at[b + 1] || reaches_exit(g, b);
			for (uint32_t e = g->succ_at[b]; e < g->succ_at[b + 1] && ok; e++)
				ok = u->tail[g->succ[e]];
			if (!ok) {
				u->tail[b] = 0;
				changed = true;
			}
		}
	}
}

static int x_size(const px_func *f)
{
	const px_dirval *d = &f->dirs[PX_DIR_reqntid];
	return d->present && d->nargs ? (int)d->args[0] : -1;
}

/* The level of a value or special register read, and its source. */
static uint8_t read_level(const uni *u, const px_opnd *o, const char **why)
{
	if (o->kind == PX_O_VALUE) {
		*why = u->why[o->id];
		return u->lvl[o->id];
	}
	if (o->kind == PX_O_SREG) {
		const px_sreg *s = &px_sregs[o->id];
		*why = s->name;
		switch (s->varies) {
		case PX_VARIES_THREAD:
		case PX_VARIES_TID_X:
			return THREAD;
		case PX_VARIES_WARP:
			return WARP;
		case PX_VARIES_TID_YZ:
			return u->x128 ? WARPGROUP : u->x32 ? WARP : THREAD;
		default:
			return CTA;
		}
	}
	if (o->kind == PX_O_ADDR) {
		const char *w2 = NULL;
		uint8_t a = read_level(u, o->base, why);
		if (px_addr_idx(o)) {
			uint8_t b = read_level(u, px_addr_idx(o), &w2);
			if (b > a) {
				a = b;
				*why = w2;
			}
		}
		return a;
	}
	if (o->kind == PX_O_GROUP) {
		uint8_t a = CTA;
		for (uint32_t j = 0; j < o->nelems; j++) {
			const char *w = NULL;
			uint8_t b = read_level(u, &o->elems[j], &w);
			if (b > a) {
				a = b;
				*why = w;
			}
		}
		return a;
	}
	return CTA;
}

/* x-linear alignment of an operand: 128 or 32, else 0. */
static unsigned xal_of(const uni *u, const px_opnd *o)
{
	if (o->kind == PX_O_SREG && px_sregs[o->id].varies == PX_VARIES_TID_X)
		return 128;
	if (o->kind == PX_O_VALUE && o->elem < 0 && u->xal[o->id] != 0xff)
		return u->xal[o->id];
	return 0;
}

static unsigned multiple_of(uint64_t c)
{
	return c % 128 == 0 ? 128 : c % 32 == 0 ? 32 : 0;
}

/* The level an x-linear operand gives n's result (THREAD when no rule applies). */
static uint8_t x_rule(const uni *u, const px_node *n, unsigned *xal_out)
{
	*xal_out = 0;
	if (n->nops != 2 || n->ops[1].kind != PX_O_INT)
		return THREAD;
	unsigned al = xal_of(u, &n->ops[0]);
	if (!al)
		return THREAD;
	int64_t c = n->ops[1].ival;
	uint64_t uc = (uint64_t)c; /* the literal's bits: a multiple of 32 either way */
	const px_op_def *op = n->op;
	unsigned m = 0; /* the granule the result is the same over */
	if (op == &px_ops[PX_OP_add] || op == &px_ops[PX_OP_sub]) {
		unsigned k = multiple_of(uc);
		*xal_out = k < al ? k : al;
		return THREAD;
	}
	if (op == &px_ops[PX_OP_shr])
		m = c >= 7 ? 128 : c >= 5 ? 32 : 0;
	else if (op == &px_ops[PX_OP_div] || op == &px_ops[PX_OP_and])
		m = op == &px_ops[PX_OP_and] ? multiple_of(uc & 127 ? uc & 127 : 128) : (c > 0 ? multiple_of(uc) : 0);
	else if (op == &px_ops[PX_OP_setp]) {
		int ci = px_slot_find(op, PX_SN_cmp);
		unsigned cmp = ci < 0 ? 0 : n->slot[ci];
		if (cmp == PX_TOK_lt || cmp == PX_TOK_ge || cmp == PX_TOK_lo || cmp == PX_TOK_hs)
			m = multiple_of(uc);
		else if (cmp == PX_TOK_le || cmp == PX_TOK_gt || cmp == PX_TOK_ls || cmp == PX_TOK_hi)
			m = multiple_of(uc + 1);
	}
	if (m > al)
		m = al;
	if (m == 128 && u->x128)
		return WARPGROUP;
	if (m >= 32 && u->x32)
		return WARP;
	return THREAD;
}

static void define(uni *u, const px_opnd *o, uint8_t lvl, const char *why, unsigned xal)
{
	if (o->kind == PX_O_GROUP) {
		for (uint32_t j = 0; j < o->nelems; j++)
			define(u, &o->elems[j], lvl, why, 0);
		return;
	}
	if (o->kind != PX_O_VALUE)
		return;
	uint32_t id = o->id;
	if (lvl > u->lvl[id]) {
		u->lvl[id] = lvl;
		u->why[id] = why;
		u->changed = true;
	}
	unsigned x = o->elem < 0 ? xal : 0;
	if (u->xal[id] == 0xff || x < u->xal[id]) {
		u->xal[id] = (uint8_t)x;
		u->changed = true;
	}
}

/* One statement's results, from its operands, its guard and its control. */
static void flow_node(uni *u, const px_node *n, uint32_t b)
{
	if (!n->nres || n->kind == PX_N_LABEL)
		return;
	if (u->ctrl[b] == THREAD) { /* nothing can make it vary more */
		for (uint32_t r = 0; r < n->nres; r++)
			define(u, &n->res[r], THREAD, u->ctrl_why[b], 0);
		return;
	}
	const char *why = NULL, *w = NULL;
	uint8_t lvl = CTA;
	unsigned xal = 0;
	bool x_ruled = false;
	if (n->kind == PX_N_INST && n->op && n->nops == 2 && xal_of(u, &n->ops[0])) {
		uint8_t r = x_rule(u, n, &xal);
		if (r < THREAD || xal) {
			x_ruled = true;
			lvl = xal ? THREAD : r;
			why = "%tid.x";
		}
	}
	if (n->kind == PX_N_INST && n->op && (n->op == &px_ops[PX_OP_mov] || n->op == &px_ops[PX_OP_cvt]) && n->nops == 1)
		xal = xal_of(u, &n->ops[0]);
	for (uint32_t i = 0; i < n->nops; i++) {
		if (x_ruled && i == 0)
			continue;
		uint8_t l = read_level(u, &n->ops[i], &w);
		if (l > lvl) {
			lvl = l;
			why = w;
		}
	}
	if (n->kind == PX_N_CALL && n->icall) {
		uint8_t l = read_level(u, &n->icall->target, &w);
		if (l > lvl) {
			lvl = l;
			why = w;
		}
	}
	if (n->has_guard && u->lvl[n->guard] > lvl) {
		lvl = u->lvl[n->guard];
		why = u->why[n->guard];
	}
	if (u->ctrl[b] > lvl) {
		lvl = u->ctrl[b];
		why = u->ctrl_why[b];
	}
	if (n->kind == PX_N_INST && n->op && (n->op->flags & PX_OPF_THREAD_RESULT)) {
		lvl = THREAD;
		why = n->op->name;
	}
	for (uint32_t r = 0; r < n->nres; r++)
		define(u, &n->res[r], lvl, why, xal);
}

/* The condition of the branch that ends block b, when it may differ between
 * threads: its level (CTA when none). */
static uint8_t branch_level(const uni *u, const px_node *n, const char **why)
{
	uint8_t lvl = CTA;
	*why = NULL;
	if (n->has_guard && (ends_path(n) || (n->kind == PX_N_INST && n->op && n->op->shape == PX_SHAPE_BRANCH))) {
		lvl = u->lvl[n->guard];
		*why = u->why[n->guard];
	}
	if (n->kind == PX_N_INST && n->op == &px_ops[PX_OP_brx_idx] && n->nops) {
		const char *w = NULL;
		uint8_t l = read_level(u, &n->ops[0], &w);
		if (l > lvl) {
			lvl = l;
			*why = w;
		}
	}
	return lvl;
}

/* Raise the control of the blocks between branch block b and its immediate
 * post-dominator to lvl. */
static void walk_region(uni *u, uint32_t b, const px_node *br, uint8_t lvl, const char *why)
{
	const px_cfg *g = u->g;
	bool excused = reaches_exit(g, b) && ends_path(br); /* a guarded ret or exit: those threads leave */
	for (uint32_t e = g->succ_at[b]; e < g->succ_at[b + 1]; e++)
		excused = excused || u->tail[g->succ[e]];
	uint32_t stop = u->ipdom[b], top = 0, walk = ++u->walk;
	for (uint32_t e = g->succ_at[b]; e < g->succ_at[b + 1]; e++) {
		uint32_t s = g->succ[e];
		if (s != stop && u->seen[s] != walk) {
			u->seen[s] = walk;
			u->stack[top++] = s;
		}
	}
	while (top) {
		uint32_t x = u->stack[--top];
		if (lvl > u->ctrl[x]) {
			u->ctrl[x] = lvl;
			u->ctrl_from[x] = br;
			u->ctrl_why[x] = why;
			u->changed = true;
		}
		if (!excused && lvl > u->ctrl_bar[x]) {
			u->ctrl_bar[x] = lvl;
			u->bar_from[x] = br;
			u->bar_why[x] = why;
		}
		for (uint32_t e = g->succ_at[x]; e < g->succ_at[x + 1]; e++) {
			uint32_t s = g->succ[e];
			if (s != stop && u->seen[s] != walk) {
				u->seen[s] = walk;
				u->stack[top++] = s;
			}
		}
	}
}

static void solve(uni *u)
{
	const px_cfg *g = u->g;
	do {
		u->changed = false;
		for (uint32_t i = 0; i < g->nrpo; i++) {
			uint32_t b = g->rpo[i];
			for (uint32_t k = g->at[b]; k < g->at[b + 1]; k++)
				flow_node(u, g->stmt[k], b);
			const px_node *last = px_cfg_last(g, b);
			const char *why;
			uint8_t lvl = branch_level(u, last, &why);
			if (lvl > u->walked[b]) {
				u->walked[b] = lvl;
				walk_region(u, b, last, lvl, why);
			}
		}
	} while (u->changed);
}

static void found(uni *u, unsigned diag, const px_node *n, const px_node *from, const char *why)
{
	const void *cause = from == n ? (const void *)&u->f->values[n->guard] : (const void *)from;
	bool fresh;
	uint32_t i = px_once_add(&u->once, cause, diag, n->oploc, &fresh);
	if (i == u->cap_found) {
		uint32_t cap = u->cap_found ? 2 * u->cap_found : 16;
		u->found = px_arena_grow(u->a, u->found, u->cap_found, cap, sizeof *u->found);
		u->cap_found = cap;
	}
	if (fresh)
		u->found[i] = (finding){n, from, why, from == n};
}

/* The note that says why control differs at a statement: the branch that
 * made it differ, or the statement's own guard. */
static void why_note(uni *u, const px_node *branch, const char *why, const px_node *n)
{
	if (!branch)
		return;
	if (branch == n) {
		const px_value *g = &u->f->values[n->guard];
		px_note(u->v->d, n->loc, PX_D_divergent_guard, (int)g->name.n, g->name.s,
		        why ? why : "a value that differs between threads");
		return;
	}
	px_linecol lc = px_module_linecol(u->v->m, branch->loc);
	px_note(u->v->d, branch->loc, PX_D_divergent_branch, lc.line, lc.col, why ? why : "a value that differs between threads");
}

static void report(uni *u)
{
	for (uint32_t i = 0; i < u->once.n; i++) {
		const finding *x = &u->found[i];
		px_warn(u->v->d, x->first->oploc, u->once.items[i].kind, x->first->op->name);
		why_note(u, x->guarded ? x->first : x->from, x->why, x->first);
		px_once_note(&u->once, i, u->v->d, u->v->m);
	}
}

static bool full_mask(const px_node *n)
{
	if (!n->nops)
		return false;
	const px_opnd *m = &n->ops[n->nops - 1];
	return m->kind == PX_O_INT && (uint32_t)m->ival == 0xffffffffu;
}

static bool is_aligned(const px_node *n)
{
	if (n->op->flags & PX_OPF_ALIGNED)
		return true;
	int i = px_slot_find(n->op, PX_SN_aligned); /* the slot every .aligned token is in */
	return i >= 0 && px_slot_tok(n->op, n->slot, (unsigned)i) == PX_TOK_aligned;
}

static void check_node(uni *u, const px_node *n, uint32_t b)
{
	if (n->kind != PX_N_INST || !n->op)
		return;
	uint64_t fl = n->op->flags;
	uint8_t guard = n->has_guard ? u->lvl[n->guard] : CTA;
	const char *gwhy = n->has_guard ? u->why[n->guard] : NULL;
	uint8_t c = u->ctrl[b] > guard ? u->ctrl[b] : guard;
	const px_node *from = u->ctrl[b] >= guard ? u->ctrl_from[b] : n;
	const char *why = u->ctrl[b] >= guard ? u->ctrl_why[b] : gwhy;
	if (fl & PX_OPF_CTA_BARRIER) {
		if (n->nops < n->op->noperands) { /* no thread count: the whole CTA */
			uint8_t cb = u->ctrl_bar[b] > guard ? u->ctrl_bar[b] : guard;
			if (cb > CTA)
				found(u, PX_D_divergent_barrier, n, u->ctrl_bar[b] >= guard ? u->bar_from[b] : n,
				      u->ctrl_bar[b] >= guard ? u->bar_why[b] : gwhy);
			else if (c > CTA && is_aligned(n)) /* only threads that exit skip it */
				found(u, PX_D_barrier_exit, n, from, why);
		} else if (c > WARP) {
			found(u, PX_D_divergent_barrier_count, n, from, why);
		}
		return;
	}
	if (fl & PX_OPF_WARPGROUP) {
		if (c > WARPGROUP)
			found(u, PX_D_divergent_warpgroup, n, from, why);
		return;
	}
	if (c > WARP && (((fl & PX_OPF_WARP_COLLECTIVE) && full_mask(n)) || is_aligned(n)))
		found(u, (fl & PX_OPF_WARP_COLLECTIVE) ? PX_D_divergent_warp_mask : PX_D_divergent_aligned, n, from, why);
}

/* The operations that may need threads to arrive together: a block with
 * none of their flags holds no statement needs_company looks for. */
#define COMPANY (PX_OPF_CTA_BARRIER | PX_OPF_WARPGROUP | PX_OPF_WARP_COLLECTIVE | PX_OPF_ALIGNED | PX_OPF_ALIGNED_SLOT)

/* Whether n needs threads to arrive together (what check_node looks at). */
static bool needs_company(const px_node *n)
{
	return n->kind == PX_N_INST && n->op &&
	       ((n->op->flags & (PX_OPF_CTA_BARRIER | PX_OPF_WARPGROUP)) ||
	        ((n->op->flags & PX_OPF_WARP_COLLECTIVE) && full_mask(n)) || is_aligned(n));
}

void px_check_uniform(px_frame *fr)
{
	px_func *f = fr->f;
	const px_cfg *g = &fr->g;
	bool any = false;
	for (uint32_t b = 0; b < g->nblocks && !any; b++) {
		for (uint32_t k = g->at[b]; (g->block_flags[b] & COMPANY) && k < g->at[b + 1] && !any; k++)
			any = (px_cfg_flags(g, k) & COMPANY) && needs_company(g->stmt[k]);
	}
	if (!any)
		return;
	uni u = {.a = fr->a, .v = fr->v, .f = f, .g = g, .nb = g->nblocks, .once = {.a = fr->a}};
	int x = x_size(f);
	u.x32 = x < 0 || x % 32 == 0;
	u.x128 = x < 0 || x % 128 == 0;
	u.lvl = px_frame_alloc(fr, f->nvalues + 1, 1);
	u.why = px_frame_alloc(fr, f->nvalues + 1, sizeof *u.why);
	u.xal = px_frame_alloc(fr, f->nvalues + 1, 1);
	memset(u.xal, 0xff, f->nvalues + 1);
	u.ctrl = px_frame_alloc(fr, u.nb + 1, 1);
	u.ctrl_bar = px_frame_alloc(fr, u.nb + 1, 1);
	u.ctrl_from = px_frame_alloc(fr, u.nb + 1, sizeof *u.ctrl_from);
	u.bar_from = px_frame_alloc(fr, u.nb + 1, sizeof *u.bar_from);
	u.ctrl_why = px_frame_alloc(fr, u.nb + 1, sizeof *u.ctrl_why);
	u.bar_why = px_frame_alloc(fr, u.nb + 1, sizeof *u.bar_why);
	u.walked = px_frame_alloc(fr, u.nb + 1, 1);
	u.ipdom = px_frame_alloc(fr, u.nb + 1, sizeof *u.ipdom);
	u.tail = px_frame_alloc(fr, u.nb + 1, 1);
	u.stack = px_frame_alloc(fr, u.nb + 1, sizeof *u.stack);
	u.seen = px_frame_alloc(fr, u.nb + 1, sizeof *u.seen);
	post_dominators(&u);
	exit_tails(&u);
	solve(&u);
	for (uint32_t i = 0; i < g->nrpo; i++) {
		uint32_t b = g->rpo[i];
		for (uint32_t k = g->at[b]; k < g->at[b + 1]; k++)
			if (px_cfg_flags(g, k) & COMPANY)
				check_node(&u, g->stmt[k], b);
	}
	report(&u);
}
