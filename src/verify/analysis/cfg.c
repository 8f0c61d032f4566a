/* Basic blocks of a function body (see cfg.h). Everything is in flat arrays
 * sized by the statements and labels, built in one walk over the body; and
 * the solver of the forward problems the checks pose over them. */
#include "verify/analysis/cfg.h"

#include <stdlib.h>
#include <string.h>

#include "tables/tables.h"
#include "util/arena.h"
#include "util/huge.h"

static bool is_branch(const px_node *n)
{
	return n->kind == PX_N_INST && n->op && n->op->shape == PX_SHAPE_BRANCH;
}

/* Whether control may leave n other than into the next statement. */
static bool ends_block(const px_node *n)
{
	return n->kind == PX_N_RET || is_branch(n) ||
	       (n->kind == PX_N_INST && n->op && (n->op->flags & PX_OPF_TERMINATOR));
}

/* Whether control may go on into the next statement after n. */
static bool falls_through(const px_node *n)
{
	return !ends_block(n) || n->has_guard;
}

_Static_assert(PX_CFG_KIND(PX_N_PRINTF) < PX_CFG_ADDRESS, "a statement's marks are a byte's bits");
_Static_assert(PX_OP__COUNT < PX_CFG_NO_OP, "an operation's index fits a statement's table");

/* A statement's bytes in the table: its pointer, operation and marks. */
#define STMT_BYTES (sizeof(px_node *) + sizeof(uint16_t) + sizeof(uint8_t))

typedef struct edges {
	px_arena *a;
	uint32_t *from, *to;
	uint32_t n, cap;
} edges;

static void add_edge(edges *e, uint32_t from, uint32_t to)
{
	if (e->n == e->cap) {
		uint32_t cap = e->cap ? e->cap * 2 : 64;
		e->from = px_arena_grow(e->a, e->from, e->n, cap, sizeof *e->from);
		e->to = px_arena_grow(e->a, e->to, e->n, cap, sizeof *e->to);
		e->cap = cap;
	}
	e->from[e->n] = from;
	e->to[e->n++] = to;
}

static void label_edges(edges *e, uint32_t from, const px_opnd *o, const uint32_t *label_block)
{
	if (o->kind == PX_O_LABEL && label_block[o->id] != UINT32_MAX)
		add_edge(e, from, label_block[o->id]);
	else if (o->kind == PX_O_GROUP)
		for (uint32_t j = 0; j < o->nelems; j++)
			label_edges(e, from, &o->elems[j], label_block);
}

/* CSR lists of e by key (from or to), the other end as the entry. */
static void csr(px_arena *a, uint32_t nblocks, const uint32_t *key, const uint32_t *val, uint32_t n,
                uint32_t **at_out, uint32_t **list_out)
{
	uint32_t *at = px_arena_calloc(a, nblocks + 2, sizeof *at);
	uint32_t *list = px_arena_calloc(a, n, sizeof *list);
	for (uint32_t i = 0; i < n; i++)
		at[key[i] + 2]++;
	for (uint32_t b = 0; b < nblocks; b++)
		at[b + 2] += at[b + 1];
	for (uint32_t i = 0; i < n; i++)
		list[at[key[i] + 1]++] = val[i];
	*at_out = at;
	*list_out = list;
}

static void order(px_cfg *g)
{
	/* iterative depth-first search from block 0; postorder reversed */
	g->reached = px_arena_calloc(g->arena, g->nblocks, 1);
	g->rpo = px_arena_calloc(g->arena, g->nblocks, sizeof *g->rpo);
	px_arena_mark m = px_arena_mark_now(g->arena);
	uint32_t *stack = px_arena_calloc(g->arena, g->nblocks, sizeof *stack);
	uint32_t *next = px_arena_calloc(g->arena, g->nblocks, sizeof *next);
	uint32_t *post = px_arena_calloc(g->arena, g->nblocks, sizeof *post), npost = 0, top = 0;
	if (g->nblocks) {
		g->reached[0] = 1;
		stack[top++] = 0;
		next[0] = g->succ_at[0];
	}
	while (top) {
		uint32_t b = stack[top - 1];
		if (next[b] < g->succ_at[b + 1]) {
			uint32_t s = g->succ[next[b]++];
			if (!g->reached[s]) {
				g->reached[s] = 1;
				next[s] = g->succ_at[s];
				stack[top++] = s;
			}
		} else {
			post[npost++] = b;
			top--;
		}
	}
	for (uint32_t i = 0; i < npost; i++)
		g->rpo[i] = post[npost - 1 - i];
	g->nrpo = npost;
	px_arena_release(g->arena, m);
}

/* One walk over the body makes the blocks and the statements' table: on a
 * long body each walk costs its misses in memory, so the block arrays grow
 * as blocks start rather than after a walk that counts them (the function
 * counts its statements as the parser appends them). */
void px_cfg_build(px_cfg *g, const px_func *f, px_arena *a)
{
	memset(g, 0, sizeof *g);
	g->arena = a;
	uint32_t *label_block = px_arena_calloc(a, f->nlabels + 1, sizeof *label_block);
	for (uint32_t i = 0; i <= f->nlabels; i++)
		label_block[i] = UINT32_MAX;
	/* the three columns in one table: a big one is a mapping of its own,
	 * given back whole (util/huge.h) */
	g->stmt_room = f->nnodes + 1;
	g->stmt = px_huge_alloc(g->stmt_room * STMT_BYTES);
	g->stmt_op = (uint16_t *)(g->stmt + g->stmt_room);
	g->stmt_marks = (uint8_t *)(g->stmt_op + g->stmt_room);
	uint32_t b = UINT32_MAX, cap = 0, i = 0;
	bool start = true;
	for (px_node *n = f->first; n; n = n->next, i++) {
		if (start || n->kind == PX_N_LABEL) {
			/* one more than the blocks: at[nblocks] ends the last */
			if (++b + 1 >= cap) {
				uint32_t grown = cap ? 2 * cap : 64;
				g->at = px_arena_grow(a, g->at, cap, grown, sizeof *g->at);
				g->block_flags = px_arena_grow(a, g->block_flags, cap, grown, sizeof *g->block_flags);
				g->block_marks = px_arena_grow(a, g->block_marks, cap, grown, sizeof *g->block_marks);
				cap = grown;
			}
			g->at[b] = i;
			g->block_flags[b] = 0;
			g->block_marks[b] = 0;
		}
		bool op = n->kind == PX_N_INST && n->op;
		uint64_t flags = op ? n->op->flags : 0;
		uint8_t marks = (uint8_t)(PX_CFG_KIND(n->kind) | (n->has_addr && n->kind == PX_N_INST ? PX_CFG_ADDRESS : 0));
		g->stmt[i] = n;
		g->stmt_op[i] = op ? (uint16_t)(n->op - px_ops) : PX_CFG_NO_OP;
		g->stmt_marks[i] = marks;
		g->block_flags[b] |= flags;
		g->block_marks[b] |= marks;
		if (n->kind == PX_N_LABEL)
			label_block[n->label] = b;
		start = ends_block(n);
	}
	uint32_t nb = b + 1;
	g->nblocks = nb;
	g->nstmts = i;
	if (!nb) { /* never NULL, as the arena's tables */
		g->at = px_arena_calloc(a, 1, sizeof *g->at);
		g->block_flags = px_arena_calloc(a, 1, sizeof *g->block_flags);
		g->block_marks = px_arena_calloc(a, 1, sizeof *g->block_marks);
	}
	g->at[nb] = i;
	for (b = 0; b < nb; b++)
		g->flags_seen |= g->block_flags[b];
	edges e = {.a = a};
	for (b = 0; b < nb; b++) {
		const px_node *last = px_cfg_last(g, b);
		if (is_branch(last))
			for (uint32_t j = 0; j < last->nops; j++)
				label_edges(&e, b, &last->ops[j], label_block);
		if (falls_through(last) && b + 1 < nb)
			add_edge(&e, b, b + 1);
	}
	csr(a, nb, e.from, e.to, e.n, &g->succ_at, &g->succ);
	csr(a, nb, e.to, e.from, e.n, &g->pred_at, &g->pred);
	order(g);
}

void px_cfg_free(px_cfg *g)
{
	px_huge_free(g->stmt, g->stmt_room * STMT_BYTES);
	g->stmt = NULL;
	g->stmt_op = NULL;
	g->stmt_marks = NULL;
	g->nstmts = g->stmt_room = 0;
}

typedef struct flow {
	const px_cfg *g;
	size_t w;
	const uint64_t *start;
	px_flow_edge_fn edge; /* NULL: every edge passes the state on as it is */
	void *edge_ctx;
	uint64_t *tmp;        /* w words, for an edge's copy */
} flow;

/* Block b's entry state into in. */
static void flow_in(const flow *fl, const uint64_t *out, uint32_t b, uint64_t *in)
{
	const px_cfg *g = fl->g;
	size_t w = fl->w;
	if (b == 0 && fl->start)
		memcpy(in, fl->start, w * 8);
	else
		memset(in, 0, w * 8);
	for (uint32_t e = g->pred_at[b]; e < g->pred_at[b + 1]; e++) {
		const uint64_t *p = out + (size_t)g->pred[e] * w;
		if (fl->edge) {
			memcpy(fl->tmp, p, w * 8);
			fl->edge(fl->edge_ctx, fl->tmp, g->pred[e], b);
			p = fl->tmp;
		}
		for (size_t k = 0; k < w; k++)
			in[k] |= p[k];
	}
}

static uint64_t *solve(const flow *fl, px_flow_block_fn transfer, void *ctx)
{
	const px_cfg *g = fl->g;
	size_t w = fl->w;
	uint64_t *out = px_arena_calloc(g->arena, (size_t)g->nblocks * w, 8);
	uint64_t *s = px_arena_calloc(g->arena, w, 8);
	bool changed = true;
	while (changed) {
		changed = false;
		for (uint32_t i = 0; i < g->nrpo; i++) {
			uint32_t b = g->rpo[i];
			flow_in(fl, out, b, s);
			transfer(ctx, s, b);
			uint64_t *end = out + (size_t)b * w;
			if (memcmp(end, s, w * 8)) {
				memcpy(end, s, w * 8);
				changed = true;
			}
		}
	}
	return out;
}

uint64_t *px_flow_solve(const px_cfg *g, size_t w, const uint64_t *start, px_flow_block_fn transfer, void *ctx)
{
	flow fl = {g, w, start, NULL, NULL, NULL};
	return solve(&fl, transfer, ctx);
}

typedef struct stepper {
	const px_cfg *g;
	px_flow_step_fn step;
	void *ctx;
	bool report;
} stepper;

static void step_block(void *ctx, uint64_t *state, uint32_t b)
{
	const stepper *t = ctx;
	for (uint32_t k = t->g->at[b]; k < t->g->at[b + 1]; k++)
		t->step(t->ctx, state, t->g->stmt[k], t->report);
}

void px_flow_check_edges(const px_cfg *g, size_t w, const uint64_t *start, px_flow_step_fn step,
                         px_flow_edge_fn edge, void *ctx)
{
	stepper t = {g, step, ctx, false};
	flow fl = {g, w, start, edge, ctx, px_arena_calloc(g->arena, w, 8)};
	uint64_t *out = solve(&fl, step_block, &t), *s = px_arena_calloc(g->arena, w, 8);
	t.report = true;
	for (uint32_t b = 0; b < g->nblocks; b++) {
		if (!g->reached[b])
			continue;
		flow_in(&fl, out, b, s);
		step_block(&t, s, b);
	}
}

void px_flow_check(const px_cfg *g, size_t w, const uint64_t *start, px_flow_step_fn step, void *ctx)
{
	px_flow_check_edges(g, w, start, step, NULL, ctx);
}

static void opnd_reads(const px_opnd *o, px_read_fn fn, void *ctx)
{
	switch (o->kind) {
	case PX_O_VALUE:
		fn(ctx, o->id, o->loc);
		break;
	case PX_O_ADDR:
		opnd_reads(o->base, fn, ctx);
		if (px_addr_idx(o))
			opnd_reads(px_addr_idx(o), fn, ctx);
		break;
	case PX_O_GROUP:
		for (uint32_t j = 0; j < o->nelems; j++)
			opnd_reads(&o->elems[j], fn, ctx);
		break;
	default:
		break;
	}
}

void px_node_reads(const px_node *n, px_read_fn fn, void *ctx)
{
	if (n->kind == PX_N_LABEL)
		return;
	if (n->has_guard)
		fn(ctx, n->guard, n->loc);
	for (uint32_t i = 0; i < n->nops; i++)
		opnd_reads(&n->ops[i], fn, ctx);
	if (n->kind == PX_N_CALL && n->icall)
		opnd_reads(&n->icall->target, fn, ctx);
}

static void opnd_writes(const px_opnd *o, px_read_fn fn, void *ctx)
{
	if (o->kind == PX_O_GROUP)
		for (uint32_t j = 0; j < o->nelems; j++)
			opnd_writes(&o->elems[j], fn, ctx);
	else if (o->kind == PX_O_VALUE)
		fn(ctx, o->id, o->loc);
}

void px_node_writes(const px_node *n, px_read_fn fn, void *ctx)
{
	for (uint32_t r = 0; n->kind != PX_N_LABEL && r < n->nres; r++)
		opnd_writes(&n->res[r], fn, ctx);
}

typedef struct defines {
	uint32_t id;
	bool yes;
} defines;

static void is_def(void *ctx, uint32_t id, px_loc loc)
{
	(void)loc;
	defines *d = ctx;
	d->yes |= d->id == id;
}

bool px_node_defines(const px_node *n, uint32_t id)
{
	defines d = {id, false};
	if (n->kind == PX_N_INST || n->kind == PX_N_CALL || n->kind == PX_N_ASM)
		px_node_writes(n, is_def, &d);
	return d.yes;
}

uint32_t px_cfg_block_of(const px_cfg *g, const px_node *n)
{
	for (uint32_t b = 0; b < g->nblocks; b++)
		for (uint32_t k = g->at[b]; k < g->at[b + 1]; k++)
			if (g->stmt[k] == n)
				return b;
	return UINT32_MAX;
}

bool px_cfg_forward_reaches(const px_cfg *g, uint32_t from, uint32_t to)
{
	px_arena_mark mark = px_arena_mark_now(g->arena);
	uint32_t *pos = px_arena_calloc(g->arena, g->nblocks, sizeof *pos);
	uint32_t *stack = px_arena_calloc(g->arena, g->nblocks, sizeof *stack);
	uint8_t *seen = px_arena_calloc(g->arena, g->nblocks, 1);
	for (uint32_t i = 0; i < g->nrpo; i++)
		pos[g->rpo[i]] = i + 1;
	uint32_t top = 0;
	bool found = false;
	stack[top++] = from;
	seen[from] = 1;
	while (top && !found) {
		uint32_t b = stack[--top];
		for (uint32_t i = g->succ_at[b]; i < g->succ_at[b + 1]; i++) {
			uint32_t s = g->succ[i];
			if (pos[s] > pos[b] && !seen[s]++) {
				found |= s == to;
				stack[top++] = s;
			}
		}
	}
	px_arena_release(g->arena, mark);
	return found;
}

