/* Shared-memory races (-Wshared-race): between two points where the CTA
 * synchronizes, a write by one thread and a read or write by another that
 * may touch the same bytes of a shared variable.
 *
 * The accesses are ld, st, atom and red whose address the value analysis
 * (verify/value.h) knows as a shared variable plus an affine offset, with a
 * size. A forward problem over the blocks gives each one the synchronization
 * points it may follow with no other between (a bit per CTA barrier and one
 * for the start of the function), the atoms of its address defined since such
 * a point, and the guards every path to it passed (verify/facts.h), which
 * bound the thread indices (the box of the threads that run it). Two accesses
 * that may follow the same point, one of which writes and not both atomic,
 * race when two different threads of their boxes make their bytes overlap:
 * the offsets are affine in the thread indices, so the question is solved
 * exactly, by walking all but one index and solving for the last.
 *
 * Silent where the analysis does not know: an address it cannot follow, an
 * atom that varies between threads, is defined since the barrier or is not
 * the same in both, a guard it cannot turn into a box, more than a bounded
 * amount of walking. Every barrier instruction (a named one with a count,
 * bar.arrive, bar.warp.sync, the cluster's), an mbarrier wait, a call and
 * inline asm count as synchronizing: a producer that arrives and a consumer
 * that waits are ordered, and what is unsure stays quiet. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verify/cfg.h"
#include "verify/facts.h"
#include "verify/value.h"
#include "verify/verify.h"

enum { WALK = 1 << 18, NVARS = PX_VV_NTHREAD - PX_VV_LANE };

typedef struct access {
	const px_node *n;
	const px_opnd *addr;
	px_aff form;
	unsigned bytes;
	bool writes, atomic, seen, known, exact;
	px_box box;      /* the threads that run it, or (exact false) the least box that holds them */
	uint64_t *facts; /* not exact: the state of the facts there, to test a thread against */
	uint64_t *open;  /* the synchronization points it may follow with none between */
	uint32_t aid;    /* 1 + its index among the accesses whose address names an atom, or 0 */
	uint64_t *stale; /* per such access: reached since one of those points, then an atom of its address defined */
} access;

typedef struct race {
	px_verifier *v;
	const px_func *f;
	const px_cfg *g;
	px_values va;
	px_facts facts;
	access *acc;
	uint32_t nacc;
	const px_node **sync;     /* per synchronization bit (0: the start) */
	uint32_t nsync;
	uint32_t *named_at;       /* per value: the accesses whose address names it, */
	uint32_t *named;          /* named[named_at[id] .. named_at[id + 1]) (their aid - 1) */
	uint32_t naid;
	size_t sync_base, reach_base, stale_base, w;
	uint32_t *slot;           /* a hash of the accesses by statement: 1 + the access, or 0 */
	uint32_t mask;
} race;

static bool is_access_op(const px_node *n)
{
	return n->kind == PX_N_INST && (n->op == &px_ops[PX_OP_ld] || n->op == &px_ops[PX_OP_st] ||
	                                n->op == &px_ops[PX_OP_atom] || n->op == &px_ops[PX_OP_red]);
}

static bool ends_threads(const px_node *n)
{
	return n->has_guard &&
	       (n->kind == PX_N_RET || (n->kind == PX_N_INST && n->op && (n->op->flags & PX_OPF_TERMINATOR)));
}

/* The statements whose guards the facts follow: the accesses, and a guarded
 * ret or exit, after which only the other threads go on. */
static bool cares(void *ctx, const px_node *n) { (void)ctx; return is_access_op(n) || ends_threads(n); }

static bool synchronizes(const px_node *n)
{
	if (n->kind == PX_N_CALL || n->kind == PX_N_ASM)
		return true;
	if (n->kind != PX_N_INST || !n->op)
		return false;
	const px_op_def *op = n->op;
	return (op->flags & PX_OPF_CTA_BARRIER) || op == &px_ops[PX_OP_bar_warp_sync] ||
	       op == &px_ops[PX_OP_barrier_cluster_arrive] || op == &px_ops[PX_OP_barrier_cluster_wait] ||
	       op == &px_ops[PX_OP_mbarrier_test_wait] || op == &px_ops[PX_OP_mbarrier_try_wait];
}

static unsigned slot_tok(const px_node *n, unsigned name)
{
	int i = px_slot_find(n->op, name);
	return i < 0 ? 0 : px_slot_tok(n->op, n->slot, (unsigned)i);
}

/* n as an access of a shared variable the analysis follows, into a. */
static bool as_access(const race *r, const px_node *n, access *a)
{
	if (!is_access_op(n) || !n->nops || n->ops[0].kind != PX_O_ADDR)
		return false;
	unsigned space = slot_tok(n, PX_SN_space);
	if (space && space != PX_TOK_shared && space != PX_TOK_shared__cta)
		return false;
	a->form = px_value_addr(&r->va, &n->ops[0]);
	a->bytes = px_access_bytes(n);
	if (!a->form.known || !a->form.base || !a->bytes ||
	    r->v->m->globals[a->form.base - 1].space != PX_SPACE_SHARED)
		return false;
	a->n = n;
	a->addr = &n->ops[0];
	a->atomic = n->op != &px_ops[PX_OP_ld] && n->op != &px_ops[PX_OP_st];
	a->writes = n->op != &px_ops[PX_OP_ld];
	return true;
}

static inline bool bit(const uint64_t *s, size_t i) { return s[i >> 6] >> (i & 63) & 1; }
static inline void set_bit(uint64_t *s, size_t i) { s[i >> 6] |= (uint64_t)1 << (i & 63); }

typedef struct dirtier {
	const race *r;
	uint64_t *s;
} dirtier;

/* A definition of an atom: the accesses reached since the last point that
 * name it now see another value than a thread that has not passed it. */
static void defines(void *ctx, uint32_t id, px_loc loc)
{
	(void)loc;
	dirtier *d = ctx;
	const race *r = d->r;
	for (uint32_t k = r->named_at[id]; k < r->named_at[id + 1]; k++)
		if (bit(d->s, r->reach_base * 64 + r->named[k]))
			set_bit(d->s, r->stale_base * 64 + r->named[k]);
}

/* The threads that run access a: the launch shape narrowed by its guard and
 * by every fact the paths to it established; false when one says nothing a
 * box can hold. */
static bool threads_of(const race *r, const uint64_t *s, access *a)
{
	const px_node *n = a->n;
	a->box = r->va.launch;
	a->exact = true;
	if (n->has_guard && !px_value_guard_hull(&r->va, n->guard, !n->guard_neg, &a->box, &a->exact))
		return false;
	for (uint32_t k = 0; k < r->facts.nfacts; k++)
		if (!bit(s, r->facts.base * 64 + k) &&
		    !px_value_guard_hull(&r->va, px_facts_value(&r->facts, k), k & 1, &a->box, &a->exact))
			return false;
	if (!a->exact) {
		a->facts = px_zalloc(r->facts.words ? r->facts.words : 1, 8);
		memcpy(a->facts, s + r->facts.base, r->facts.words * 8);
	}
	return true;
}

/* Whether thread t runs a, for an a whose box may hold others. */
static bool runs(const race *r, const access *a, const int64_t *t)
{
	if (a->exact)
		return true;
	const px_node *n = a->n;
	if (n->has_guard && px_value_guard_at(&r->va, n->guard, !n->guard_neg, t) != 1)
		return false;
	for (uint32_t k = 0; k < r->facts.nfacts; k++)
		if (!bit(a->facts, k) && px_value_guard_at(&r->va, px_facts_value(&r->facts, k), k & 1, t) != 1)
			return false;
	return true;
}

static uint32_t hash(const px_node *n, uint32_t mask)
{
	return (uint32_t)(((uintptr_t)n >> 3) * 0x9e3779b1u) & mask;
}

static access *find(const race *r, const px_node *n)
{
	for (uint32_t h = hash(n, r->mask); r->slot[h]; h = (h + 1) & r->mask)
		if (r->acc[r->slot[h] - 1].n == n)
			return &r->acc[r->slot[h] - 1];
	return NULL;
}

static void step(void *ctx, uint64_t *s, const px_node *n, bool report)
{
	race *r = ctx;
	access *a = is_access_op(n) ? find(r, n) : NULL;
	if (report && a && !a->seen) {
				a->seen = true;
				a->known = threads_of(r, s, a);
				a->open = px_zalloc((r->nsync + 63) / 64, 8);
				a->stale = px_zalloc((r->naid + 63) / 64, 8);
				for (uint32_t k = 0; k < r->nsync; k++)
					if (bit(s, r->sync_base * 64 + k))
						set_bit(a->open, k);
				for (uint32_t k = 0; k < r->naid; k++)
					if (bit(s, r->stale_base * 64 + k))
						set_bit(a->stale, k);
	}
	if (a && a->aid)
		set_bit(s, r->reach_base * 64 + a->aid - 1);
	px_facts_step(&r->facts, s, n);
	if (synchronizes(n)) {
		memset(s + r->sync_base, 0, (r->w - r->sync_base) * 8);
		for (uint32_t k = 1; k < r->nsync; k++)
			if (r->sync[k] == n)
				set_bit(s, r->sync_base * 64 + k);
	}
	dirtier d = {r, s};
	if (n->kind != PX_N_LABEL)
		px_node_writes(n, defines, &d);
}

static const px_node *last_of(const px_cfg *g, uint32_t b)
{
	const px_node *n = g->first[b];
	for (uint32_t i = 1; i < g->len[b]; i++)
		n = n->next;
	return n;
}

static void edge(void *ctx, uint64_t *s, uint32_t from, uint32_t to)
{
	race *r = ctx;
	px_facts_edge(&r->facts, s, from, to);
	const px_node *n = last_of(r->g, from);
	uint32_t key = n->has_guard ? r->facts.key[n->guard] : 0;
	if (ends_threads(n) && key && to == from + 1) {
		/* the threads that go on are those the guard did not end */
		size_t holds = r->facts.base * 64 + 2 * (key - 1) + n->guard_neg;
		s[holds >> 6] &= ~((uint64_t)1 << (holds & 63));
		set_bit(s, holds ^ 1);
	}
}

/* ---- the question for two accesses ---- */

typedef struct dim {
	int64_t coef, lo, hi;
	unsigned var;  /* the thread variable */
	bool second;   /* of the second thread */
} dim;

typedef struct solver {
	dim d[2 * NVARS];
	unsigned nd;
	int64_t fixed[2][NVARS]; /* a thread variable no dim walks: its one value */
	bool free_diff;          /* some variable lets the two threads differ whatever the rest */
	int64_t lo, hi;          /* the second's offset minus the first's must lie here */
	int64_t x[2 * NVARS];
	uint64_t work;
} solver;

/* Whether the walked values so far leave the two threads different, given
 * the last dim's value v. */
static bool differ(const solver *q, int64_t v)
{
	int64_t t[2][NVARS];
	memcpy(t, q->fixed, sizeof t);
	for (unsigned i = 0; i < q->nd; i++)
		t[q->d[i].second][q->d[i].var] = i + 1 == q->nd ? v : q->x[i];
	return memcmp(t[0], t[1], sizeof t[0]) != 0;
}

static int64_t floor_div(int64_t a, int64_t b)
{
	int64_t d = a / b;
	return (a % b != 0 && (a < 0) != (b < 0)) ? d - 1 : d;
}

/* Walk dims 0 .. nd - 2, solve the last; true when a pair is found (left in
 * x), false when none or the walk is too long (*gave_up). */
static bool search(solver *q, unsigned i, int64_t sum, bool *gave_up)
{
	if (i + 1 == q->nd) {
		const dim *d = &q->d[i];
		/* lo <= sum + coef * v <= hi */
		int64_t a = q->lo - sum, b = q->hi - sum, vlo, vhi;
		if (d->coef > 0) {
			vlo = -floor_div(-a, d->coef);
			vhi = floor_div(b, d->coef);
		} else {
			vlo = -floor_div(-b, d->coef);
			vhi = floor_div(a, d->coef);
		}
		if (vlo < d->lo)
			vlo = d->lo;
		if (vhi > d->hi)
			vhi = d->hi;
		for (int64_t v = vlo; v <= vhi && v <= vlo + 1; v++)
			if (q->free_diff || differ(q, v)) {
				q->x[i] = v;
				return true;
			}
		return false;
	}
	const dim *d = &q->d[i];
	for (int64_t v = d->lo; v <= d->hi; v++) {
		if (++q->work > WALK) {
			*gave_up = true;
			return false;
		}
		q->x[i] = v;
		if (search(q, i + 1, sum + d->coef * v, gave_up))
			return true;
		if (*gave_up)
			return false;
	}
	return false;
}

static int64_t coef_of(const px_aff *a, uint32_t var)
{
	for (unsigned i = 0; i < a->nterms; i++)
		if (a->var[i] == var)
			return a->coef[i];
	return 0;
}

/* Whether the atoms and block indices of two forms are the same in both
 * threads: the same coefficients, uniform, and no definition of an atom on a
 * path from one access to the other with no synchronization between. */
static bool same_rest(const race *r, const access *a, const access *b)
{
	if ((a->aid && bit(b->stale, a->aid - 1)) || (b->aid && bit(a->stale, b->aid - 1)))
		return false;
	for (unsigned k = 0; k < 2; k++) {
		const px_aff *x = k ? &b->form : &a->form, *y = k ? &a->form : &b->form;
		for (unsigned i = 0; i < x->nterms; i++) {
			uint32_t v = x->var[i];
			if (v < PX_VV_NTHREAD)
				continue;
			if (coef_of(y, v) != x->coef[i])
				return false;
			if (v < PX_VV_VALUE)
				continue;
			if (r->va.varies[v - PX_VV_VALUE])
				return false;
		}
	}
	return true;
}

/* Two different threads of the boxes whose bytes of a and b overlap: into
 * t (thread 0 runs a, thread 1 runs b); false when none, or not known. */
static bool conflict(const race *r, const access *a, const access *b, int64_t t[2][NVARS])
{
	if (!same_rest(r, a, b))
		return false;
	if (r->va.launch_assumed)
		for (unsigned k = 0; k < 2; k++) {
			const px_aff *x = k ? &b->form : &a->form;
			if (coef_of(x, PX_VV_TID_Y) || coef_of(x, PX_VV_TID_Z))
				return false;
		}
	solver q = {0};
	/* b's offset minus a's in [-(b's bytes - 1), a's bytes - 1] */
	q.lo = -(int64_t)(b->bytes - 1) - (b->form.c - a->form.c);
	q.hi = (int64_t)(a->bytes - 1) - (b->form.c - a->form.c);
	for (unsigned v = 0; v < NVARS; v++) {
		const px_box *box[2] = {&a->box, &b->box};
		int64_t c[2] = {-coef_of(&a->form, v), coef_of(&b->form, v)};
		for (unsigned k = 0; k < 2; k++) {
			if (c[k])
				q.d[q.nd++] = (dim){c[k], box[k]->lo[v], box[k]->hi[v], v, k};
			else
				q.fixed[k][v] = box[k]->lo[v];
		}
		if (!c[0] && !c[1] && (a->box.lo[v] != a->box.hi[v] || b->box.lo[v] != b->box.hi[v] ||
		                       a->box.lo[v] != b->box.lo[v]))
			q.free_diff = true;
	}
	bool gave_up = false, found;
	if (!q.nd) {
		found = q.lo <= 0 && 0 <= q.hi && q.free_diff;
	} else {
		/* the widest dim is solved, not walked */
		unsigned wide = 0;
		for (unsigned i = 1; i < q.nd; i++)
			if (q.d[i].hi - q.d[i].lo > q.d[wide].hi - q.d[wide].lo)
				wide = i;
		dim last = q.d[wide];
		q.d[wide] = q.d[q.nd - 1];
		q.d[q.nd - 1] = last;
		found = search(&q, 0, 0, &gave_up);
	}
	if (!found)
		return false;
	/* the witness: a variable no form names tells the threads apart */
	memcpy(t, q.fixed, sizeof q.fixed);
	for (unsigned i = 0; i < q.nd; i++)
		t[q.d[i].second][q.d[i].var] = q.x[i];
	for (unsigned v = 0; v < NVARS && !memcmp(t[0], t[1], sizeof t[0]); v++)
		if (!coef_of(&a->form, v) && !coef_of(&b->form, v)) {
			if (b->box.lo[v] < b->box.hi[v])
				t[1][v] = t[0][v] == b->box.lo[v] ? b->box.lo[v] + 1 : b->box.lo[v];
			else if (a->box.lo[v] < a->box.hi[v])
				t[0][v] = t[1][v] == a->box.lo[v] ? a->box.lo[v] + 1 : a->box.lo[v];
		}
	return true;
}

static void thread_name(char *buf, size_t size, const int64_t *t)
{
	snprintf(buf, size, "(%lld, %lld, %lld)", (long long)(32 * t[PX_VV_WARP_X] + t[PX_VV_LANE]),
	         (long long)t[PX_VV_TID_Y], (long long)t[PX_VV_TID_Z]);
}

static const char *verb(const access *a)
{
	return a->atomic ? "updates" : a->writes ? "writes" : "reads";
}

/* The offset of a's thread t, its atoms and block indices left out; whether
 * it has none. */
static bool offset_of(const access *a, const int64_t *t, int64_t *off)
{
	bool whole = true;
	*off = a->form.c;
	for (unsigned i = 0; i < a->form.nterms; i++)
		if (a->form.var[i] < PX_VV_NTHREAD)
			*off += a->form.coef[i] * t[a->form.var[i]];
		else
			whole = false;
	return whole;
}

static void report(const race *r, const access *a, const access *b, int64_t t[2][NVARS])
{
	px_diags *d = r->v->d;
	const px_str name = r->v->m->globals[b->form.base - 1].name;
	char ta[64], tb[64];
	thread_name(ta, sizeof ta, t[0]);
	thread_name(tb, sizeof tb, t[1]);
	int64_t off_a, off_b;
	bool whole = offset_of(a, t[0], &off_a) & offset_of(b, t[1], &off_b);
	long long at = off_a > off_b ? off_a : off_b; /* the first byte both touch */
	unsigned line_a = px_module_line(r->v->m, a->addr->loc), line_b = px_module_line(r->v->m, b->addr->loc);
	char op[64], op_a[64];
	px_node_name(b->n, op, sizeof op);
	px_node_name(a->n, op_a, sizeof op_a);
	if (a == b && whole)
		px_warn(d, b->addr->loc, PX_D_shared_race_self, op, verb(b), (int)name.n, name.s, ta, tb, at);
	else if (a == b)
		px_warn(d, b->addr->loc, PX_D_shared_race_self_same, op, verb(b), (int)name.n, name.s, ta, tb);
	else if (whole)
		px_warn(d, b->addr->loc, PX_D_shared_race, op, verb(b), (int)name.n, name.s, op_a, line_a, verb(a),
		        ta, tb, at);
	else
		px_warn(d, b->addr->loc, PX_D_shared_race_same, op, verb(b), (int)name.n, name.s, op_a, line_a,
		        verb(a), ta, tb);
	if (a != b)
		px_note(d, a->addr->loc, PX_D_shared_race_first, op_a, verb(a), (int)name.n, name.s);
	/* the last point both may follow, in text order */
	uint32_t k = 0;
	for (size_t i = (r->nsync + 63) / 64; i-- > 0;)
		if (a->open[i] & b->open[i]) {
			k = (uint32_t)(i * 64 + 63 - (unsigned)__builtin_clzll(a->open[i] & b->open[i]));
			break;
		}
	if (k && r->sync[k]->kind == PX_N_INST) {
		char what[64];
		px_node_name(r->sync[k], what, sizeof what);
		px_note(d, r->sync[k]->loc, PX_D_shared_race_since, what, line_a, line_b);
	} else if (k) {
		px_note(d, r->sync[k]->loc, PX_D_shared_race_since_call, line_a, line_b);
	} else {
		px_note(d, r->f->loc, PX_D_shared_race_start, (int)r->f->name.n, r->f->name.s, line_a, line_b);
	}
}

static bool same_value(const race *r, const px_opnd *x, const px_opnd *y)
{
	if (x->kind == PX_O_GROUP || y->kind == PX_O_GROUP) {
		if (x->kind != y->kind || x->nelems != y->nelems)
			return false;
		for (uint32_t i = 0; i < x->nelems; i++)
			if (!same_value(r, &x->elems[i], &y->elems[i]))
				return false;
		return true;
	}
	if (x->kind == PX_O_FLOAT || x->kind == PX_O_FBITS)
		return x->kind == y->kind && x->bits == y->bits;
	px_aff a = px_value_form(&r->va, x), b = px_value_form(&r->va, y);
	return px_aff_uniform(&r->va, &a) && px_aff_equal(&a, &b);
}

/* Two stores of one value every thread holds the same: whichever lands
 * last, the bytes hold it (a benign race, as GPUVerify tolerates it). */
static bool benign(const race *r, const access *a, const access *b)
{
	return a->n->op == &px_ops[PX_OP_st] && b->n->op == &px_ops[PX_OP_st] && a->n->nops == 2 &&
	       b->n->nops == 2 && a->bytes == b->bytes && px_aff_equal(&a->form, &b->form) &&
	       same_value(r, &a->n->ops[1], &b->n->ops[1]);
}

static bool share_point(const race *r, const access *a, const access *b)
{
	for (size_t i = 0; i < (r->nsync + 63) / 64; i++)
		if (a->open[i] & b->open[i])
			return true;
	return false;
}

static void pairs(race *r)
{
	for (uint32_t j = 0; j < r->nacc; j++) {
		access *b = &r->acc[j];
		if (!b->seen || !b->known || px_box_empty(&b->box))
			continue;
		for (uint32_t i = 0; i <= j; i++) {
			access *a = &r->acc[i];
			int64_t t[2][NVARS];
			if (!a->seen || !a->known || px_box_empty(&a->box) || a->form.base != b->form.base ||
			    !(a->writes || b->writes) || (a->atomic && b->atomic) || !share_point(r, a, b) || benign(r, a, b) ||
			    !conflict(r, a, b, t) || !runs(r, a, t[0]) || !runs(r, b, t[1]))
				continue;
			report(r, a, b, t);
			break;
		}
	}
}

void px_check_shared_race(px_verifier *v, px_func *f, const px_cfg *g)
{
	if (!px_cfg_has(g, PX_OP_st) && !px_cfg_has(g, PX_OP_atom) && !px_cfg_has(g, PX_OP_red))
		return;
	race r = {.v = v, .f = f, .g = g};
	px_values_init(&r.va, v->m, f);
	uint32_t nst = 0;
	for (const px_node *n = f->first; n; n = n->next) {
		nst++;
		r.nsync += synchronizes(n);
	}
	r.acc = px_zalloc(nst, sizeof *r.acc);
	r.sync = px_zalloc(r.nsync + 1, sizeof *r.sync);
	r.named_at = px_zalloc(f->nvalues + 3, sizeof *r.named_at);
	r.nsync = 1;
	bool writes = false;
	for (const px_node *n = f->first; n; n = n->next) {
		if (synchronizes(n))
			r.sync[r.nsync++] = n;
		access a = {0};
		if (!as_access(&r, n, &a))
			continue;
		writes |= a.writes;
		for (unsigned i = 0; i < a.form.nterms; i++)
			if (a.form.var[i] >= PX_VV_VALUE) {
				r.named_at[a.form.var[i] - PX_VV_VALUE + 2]++;
				a.aid = r.naid + 1;
			}
		r.naid += a.aid != 0;
		r.acc[r.nacc++] = a;
	}
	/* the lists of the accesses naming each atom */
	for (uint32_t id = 0; id <= f->nvalues; id++)
		r.named_at[id + 2] += r.named_at[id + 1];
	r.named = px_zalloc(r.named_at[f->nvalues + 1], sizeof *r.named);
	for (uint32_t i = 0; i < r.nacc; i++)
		for (unsigned k = 0; k < r.acc[i].form.nterms; k++)
			if (r.acc[i].form.var[k] >= PX_VV_VALUE)
				r.named[r.named_at[r.acc[i].form.var[k] - PX_VV_VALUE + 1]++] = r.acc[i].aid - 1;
	if (writes) {
		for (r.mask = 1; r.mask < 2 * r.nacc; r.mask <<= 1)
			;
		r.slot = px_zalloc(r.mask, sizeof *r.slot);
		r.mask--;
		for (uint32_t i = 0; i < r.nacc; i++) {
			uint32_t h = hash(r.acc[i].n, r.mask);
			while (r.slot[h])
				h = (h + 1) & r.mask;
			r.slot[h] = i + 1;
		}
		px_facts_init(&r.facts, f, g, 0, cares, NULL);
		r.sync_base = r.facts.words;
		r.reach_base = r.sync_base + (r.nsync + 63) / 64;
		r.stale_base = r.reach_base + (r.naid + 63) / 64;
		r.w = r.stale_base + (r.naid + 63) / 64;
		uint64_t *start = px_zalloc(r.w, 8);
		px_facts_start(&r.facts, start);
		set_bit(start, r.sync_base * 64);
		px_flow_check_edges(g, r.w, start, step, edge, &r);
		free(start);
		pairs(&r);
		px_facts_free(&r.facts);
	}
	for (uint32_t i = 0; i < r.nacc; i++) {
		free(r.acc[i].open);
		free(r.acc[i].stale);
		free(r.acc[i].facts);
	}
	free(r.acc);
	free(r.slot);
	free(r.sync);
	free(r.named_at);
	free(r.named);
	px_values_free(&r.va);
}
