/* Shared-memory races (-Wshared-race): between two points where the CTA
 * synchronizes, a write by one thread and a read or write by another that
 * may touch the same bytes of a shared variable. Global-memory races
 * (-Wglobal-race): the same between two threads of a CTA for global memory,
 * which a CTA barrier orders too, and, in a kernel that reads its CTA's index
 * (so is launched as several CTAs), between threads of two CTAs anywhere in
 * the kernel, since nothing in a kernel orders CTAs.
 *
 * The accesses are ld, st, atom and red whose address the value analysis
 * (verify/value.h) knows as a shared or global variable, or a pointer
 * parameter of global memory (or one a by-value parameter holds), plus an
 * affine offset, with a size. Two pointer parameters are taken to point to
 * different memory, as GPUVerify takes them. A forward problem over the blocks gives each one the synchronization
 * points it may follow with no other between (a bit per CTA barrier and one
 * for the start of the function), the atoms of its address defined since such
 * a point, and the guards every path to it passed (verify/facts.h), which
 * bound the thread indices (the box of the threads that run it). Two accesses
 * that may follow the same point, one of which writes and not both atomic,
 * race when two different threads of their boxes make their bytes overlap:
 * the offsets are affine in the thread indices, so the question is solved
 * exactly, by walking all but one index and solving for the last.
 *
 * Where the forms cannot say, some pairs are still decided: an atom that
 * varies but is a concrete function of the thread indices (or a ticket of an
 * atom.add) by walking the threads of the block (verify/analysis/concrete.h); a
 * pointer chosen on a path through each pointer it may hold; a kernel
 * parameter whose coefficients differ at the value that makes two threads
 * meet, as GPUVerify takes a parameter as any value; a guard on what each
 * thread loads from constant memory as one any thread may pass. Races
 * inside device functions are asked at the module's end (verify/hazard/callee.h).
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

#include "diag/diag.h"
#include "verify/analysis/bits.h"
#include "verify/analysis/concrete.h"
#include "verify/analysis/facts.h"
#include "verify/hazard/frame.h"

/* WALK: the steps of one pair's walk; OPEN: the synchronization points an
 * access may follow that are kept (more leave it unjudged); AIDS: the
 * accesses whose addresses name an atom that are followed; PAIRS: the pairs
 * of a function looked at; ALTS: the pointers a pointer chosen on a path may
 * be that are followed. */
enum { WALK = 1 << 18, OPEN = 8, AIDS = 512, PAIRS = 1 << 22, NVARS = PX_VV_CTAID_Z + 1, ALTS = 4 };

/* What a walk over the threads says of a pair (concrete_conflict). */
enum { CONC_NONE, CONC_FOUND, CONC_UNKNOWN };

/* The memories an access may be of. */
enum { IN_SHARED = 1, IN_GLOBAL = 2 };

/* Synchronization points, by their index in text order (0: the start). */
typedef struct openset {
	bool many;
	uint8_t n;
	uint32_t k[OPEN]; /* ascending */
} openset;

typedef struct access {
	const px_node *n;
	const px_opnd *addr;
	px_aff form;
	unsigned bytes;
	bool writes, atomic, seen, known, exact;
	bool chosen;     /* its pointer is one a value chosen on a path may hold */
	uint32_t via;    /* chosen: that value */
	uint8_t nalt;    /* the accesses its statement makes, from this one on (0: not the first) */
	bool per_cta;    /* the threads that run it are alike in every CTA (its guards name no CTA index) */
	uint8_t mem;     /* IN_SHARED or IN_GLOBAL */
	uint32_t obj;    /* what it touches: a variable (its base), or past them a pointer (1 + nglobals + its value) */
	uint32_t ptr;    /* the pointer's PX_VV_VALUE term, or 0 */
	px_box box;      /* the threads that run it, or (exact false) the least box that holds them */
	uint64_t *facts; /* not exact: the state of the facts there, to test a thread against */
	openset open;    /* the synchronization points it may follow with none between */
	uint32_t aid;    /* 1 + its index among the accesses whose address names an atom, or 0 */
	uint32_t free;   /* 1 + the one predicate among its guards that any thread may pass (px_value_free_guard), or 0 */
	uint64_t *stale; /* per such access: reached since one of those points, then an atom of its address defined */
} access;

typedef struct race {
	px_arena *a;
	px_verifier *v;
	const px_func *f;
	const px_cfg *g;
	px_values *va;           /* the function's, which the other checks share */
	px_facts facts;
	access *acc;
	uint32_t nacc;
	const px_node **sync;     /* per synchronization bit (0: the start) */
	uint32_t nsync;
	uint32_t *named_at;       /* per value: the accesses whose address names it, */
	uint32_t *named;          /* named[named_at[id] .. named_at[id + 1]) (their aid - 1) */
	uint32_t naid;
	size_t reach_base, stale_base, w;
	uint32_t *slot;           /* a hash of the accesses by statement: 1 + the access, or 0 */
	bool rough;               /* every access taken as run by the whole launch, atoms as alike */
	uint32_t *first, *count;  /* per block: the index of its first synchronization point, and how many */
	uint8_t *has_acc;         /* per block: it holds an access */
	uint8_t *said;            /* per access: a race reported at it */
	uint32_t mask;
	unsigned mems;            /* the memories checked: shared, and global where -Wglobal-race is on */
	bool across;              /* the pair asked about is of two CTAs */
	unsigned grid;            /* the dimensions along which the kernel's CTAs differ (bit 0: x) */
	const px_node *grid_read; /* the first statement that reads a CTA's index or the grid's size */
	px_concrete *conc;        /* the concrete values, made at the first pair that needs them */
} race;

static bool is_access_op(const px_node *n)
{
	unsigned space;
	return px_access_space(n, &space);
}

static bool ends_threads(const px_node *n)
{
	return n->has_guard &&
	       (n->kind == PX_N_RET || (n->kind == PX_N_INST && n->op && (n->op->flags & PX_OPF_TERMINATOR)));
}

/* The memories an access may be of: the CTA's shared memory (the shared
 * space), global memory (the global space), either (generic). */
static unsigned memories(const px_node *n)
{
	unsigned space;
	if (!px_access_space(n, &space))
		return 0;
	return !space ? IN_SHARED | IN_GLOBAL
	       : space == PX_TOK_shared || space == PX_TOK_shared__cta ? IN_SHARED
	       : space == PX_TOK_global                               ? IN_GLOBAL
	                                                              : 0;
}

/* The statements whose guards the facts follow: the accesses, and a guarded
 * ret or exit, after which only the other threads go on. */
static bool cares(void *ctx, const px_node *n)
{
	const race *r = ctx;
	return ends_threads(n) || (memories(n) & r->mems);
}

/* A race check's points: the operations that order the threads' accesses,
 * and the nodes that may (a call, inline PTX); a block's flags and marks
 * say whether it holds one before it is walked, a statement's whether it is one. */
#define SYNC_FLAGS (PX_OPF_CTA_BARRIER | PX_OPF_ORDERS_THREADS)
#define SYNC_KINDS (PX_CFG_KIND(PX_N_CALL) | PX_CFG_KIND(PX_N_ASM))

static bool synchronizes(const px_node *n)
{
	if (SYNC_KINDS & PX_CFG_KIND(n->kind))
		return true;
	return n->kind == PX_N_INST && n->op && (n->op->flags & SYNC_FLAGS);
}

/* Whether statement k of g may be an access or synchronize: the others are
 * not read. */
static bool may_matter(const px_cfg *g, uint32_t k)
{
	return (px_cfg_flags(g, k) & (PX_OPF_MEMORY_ACCESS | SYNC_FLAGS)) || (g->stmt_marks[k] & SYNC_KINDS);
}

/* A value an address of global memory may be made from: a pointer
 * parameter, or what ld.param reads (a pointer a by-value parameter holds). */
static bool is_pointer(const race *r, uint32_t id)
{
	const px_func *f = r->f;
	for (uint32_t i = 0; i < f->nparams; i++)
		if (f->params[i].value == id)
			return f->params[i].type == PX_T_ptr && (!f->params[i].space || f->params[i].space == PX_TOK_global);
	const px_node *d = r->va->def[id];
	return d && r->va->ndefs[id] == 1 && d->kind == PX_N_INST && d->op == &px_ops[PX_OP_ld] &&
	       px_value_grid_const(r->va, id);
}

/* The pointer term of a global address: the one such value it adds whole
 * (coefficient 1); 0 when there is none or more than one. */
static uint32_t pointer_of(const race *r, const px_aff *f)
{
	uint32_t found = 0;
	for (unsigned i = 0; i < f->nterms; i++)
		if (f->var[i] >= PX_VV_VALUE && f->coef[i] == 1 && is_pointer(r, f->var[i] - PX_VV_VALUE)) {
			if (found)
				return 0;
			found = f->var[i];
		}
	return found;
}

/* The term of a global address that is a pointer chosen on a path: a value
 * defined more than once, added whole, that every thread of the CTA holds
 * alike (two threads running an access through it hold the same); 0 when
 * there is none. Which pointers it may be is choices()'s. */
static uint32_t chosen_term(const race *r, const px_aff *f)
{
	for (unsigned i = 0; i < f->nterms; i++) {
		uint32_t v = f->var[i];
		if (v < PX_VV_VALUE || f->coef[i] != 1)
			continue;
		uint32_t id = v - PX_VV_VALUE;
		px_aff self = px_value_form_id(r->va, id);
		if (r->va->ndefs[id] > 1 && !r->f->values[id].param && px_aff_uniform(r->va, &self))
			return v;
	}
	return 0;
}

/* n as an access of memory the analysis follows, into a. */
static bool as_access(const race *r, const px_node *n, access *a)
{
	unsigned mem = memories(n) & r->mems;
	if (!mem || !n->nops || n->ops[0].kind != PX_O_ADDR)
		return false;
	a->form = px_value_addr(r->va, &n->ops[0]);
	a->bytes = px_access_bytes(n);
	if (!a->form.known || !a->bytes)
		return false;
	if (a->form.base) {
		if (a->form.base > r->v->m->nglobals) /* a local array: the thread's own */
			return false;
		unsigned space = r->v->m->globals[a->form.base - 1].space;
		a->mem = space == PX_SPACE_SHARED ? IN_SHARED : space == PX_SPACE_GLOBAL ? IN_GLOBAL : 0;
		a->obj = a->form.base;
	} else if (mem == IN_GLOBAL && (a->ptr = pointer_of(r, &a->form))) {
		a->mem = IN_GLOBAL;
		a->obj = r->v->m->nglobals + 1 + (a->ptr - PX_VV_VALUE);
	} else if (mem == IN_GLOBAL && (a->ptr = chosen_term(r, &a->form))) {
		a->mem = IN_GLOBAL;
		a->chosen = true; /* its pointers are found with the others' (choices) */
	}
	if (!(a->mem & mem))
		return false;
	a->n = n;
	a->addr = &n->ops[0];
	a->atomic = n->op != &px_ops[PX_OP_ld] && n->op != &px_ops[PX_OP_st];
	a->writes = n->op != &px_ops[PX_OP_ld];
	return true;
}


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
		if (px_bit(d->s, r->reach_base * 64 + r->named[k]))
			px_bit_set(d->s, r->stale_base * 64 + r->named[k]);
}

/* A guard no box holds that any set of threads may pass (a comparison with
 * what each thread loads from constant memory, which the host may have set
 * to anything): the box stays, and a thread is taken to pass it. One such
 * guard an access, since two on one loaded value may contradict. */
static bool free_guard(const race *r, access *a, uint32_t p)
{
	if (a->free || !px_value_free_guard(r->va, p))
		return false;
	a->free = 1 + p;
	a->exact = false;
	return true;
}

/* The threads that run access a: the launch shape narrowed by its guard and
 * by every fact the paths to it established; false when one says nothing a
 * box can hold. */
static bool threads_of(const race *r, const uint64_t *s, access *a)
{
	const px_node *n = a->n;
	a->box = r->va->launch;
	a->exact = true;
	a->per_cta = !n->has_guard || px_value_guard_per_cta(r->va, n->guard);
	a->free = 0;
	if (n->has_guard && !px_value_guard_hull(r->va, n->guard, !n->guard_neg, &a->box, &a->exact) &&
	    !free_guard(r, a, n->guard))
		return false;
	for (uint32_t k = 0; k < r->facts.nfacts; k++)
		if (!px_bit(s, r->facts.base * 64 + k)) {
			uint32_t p = px_facts_value(&r->facts, k);
			a->per_cta &= px_value_guard_per_cta(r->va, p);
			if (!px_value_guard_hull(r->va, p, k & 1, &a->box, &a->exact) && !free_guard(r, a, p))
				return false;
		}
	if (!a->exact) {
		a->facts = px_arena_calloc(r->a, r->facts.words, 8);
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
	if (n->has_guard && n->guard + 1 != a->free && px_value_guard_at(r->va, n->guard, !n->guard_neg, t) != 1)
		return false;
	for (uint32_t k = 0; k < r->facts.nfacts; k++) {
		uint32_t p = px_facts_value(&r->facts, k);
		if (!px_bit(a->facts, k) && p + 1 != a->free && px_value_guard_at(r->va, p, k & 1, t) != 1)
			return false;
	}
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
	access *first = is_access_op(n) ? find(r, n) : NULL;
	for (access *a = first; a && a < first + first->nalt; a++) {
		if (report && !a->stale) {
			a->known = threads_of(r, s, a);
			a->stale = px_arena_calloc(r->a, px_bits_words(r->naid), 8);
			memcpy(a->stale, s + r->stale_base, px_bits_words(r->naid) * 8);
		}
		if (a->aid)
			px_bit_set(s, r->reach_base * 64 + a->aid - 1);
	}
	px_facts_step(&r->facts, s, n);
	if (synchronizes(n))
		memset(s + r->reach_base, 0, (r->w - r->reach_base) * 8);
	dirtier d = {r, s};
	if (n->kind != PX_N_LABEL)
		px_node_writes(n, defines, &d);
}


static void edge(void *ctx, uint64_t *s, uint32_t from, uint32_t to)
{
	race *r = ctx;
	px_facts_edge(&r->facts, s, from, to);
	const px_node *n = px_cfg_last(r->g, from);
	uint32_t key = n->has_guard ? r->facts.key[n->guard] : 0;
	if (ends_threads(n) && key && to == from + 1) {
		/* the threads that go on are those the guard did not end */
		size_t holds = r->facts.base * 64 + 2 * (key - 1) + n->guard_neg;
		s[holds >> 6] &= ~((uint64_t)1 << (holds & 63));
		px_bit_set(s, holds ^ 1);
	}
}

/* ---- the question for two accesses ---- */

/* The solver's variables: %tid.x whole (X) where both forms use it whole
 * (the warp's coefficient 32 times the lane's, and every lane or one warp
 * in the box), else its lane and warp; then %tid.y and %tid.z; then the
 * CTA's index, which two threads of one CTA share. The threads of a pair
 * must differ in the thread's variables, or in the CTA's for two CTAs. */
enum { SV_X = 0, SV_WARP = 1, SV_Y = 2, SV_Z = 3, SV_CTA = 4, NSV = 7 };

/* The most CTAs along x, and along y or z, that a grid holds. */
static const int64_t GRID_X = ((int64_t)1 << 31) - 1, GRID_YZ = 65535;
enum { FIRST, SECOND, DIFF, PARAM };

typedef struct dim {
	int64_t coef, lo, hi;
	unsigned sv;
	unsigned kind; /* FIRST or SECOND: that thread's variable; DIFF: the second's minus the first's;
	                * PARAM: a parameter's value, the same in both */
} dim;

typedef struct solver {
	int64_t c[2][NSV], lo[2][NSV], hi[2][NSV];
	dim d[2 * NSV + 1];
	unsigned nd;
	unsigned from, to;       /* the variables that tell the two threads apart */
	bool free_diff;          /* some variable lets the two threads differ whatever the rest */
	int64_t lo_d, hi_d;      /* the second's offset minus the first's must lie here */
	int64_t x[2 * NSV];
	uint64_t work;
} solver;

/* The two threads' solver variables for the dims' values x (the last one
 * v): for a DIFF dim, the first thread at its least. */
static void threads_at(const solver *q, int64_t v, int64_t t[2][NSV])
{
	for (unsigned k = 0; k < NSV; k++)
		t[0][k] = q->lo[0][k], t[1][k] = q->lo[1][k];
	for (unsigned i = 0; i < q->nd; i++) {
		const dim *d = &q->d[i];
		int64_t x = i + 1 == q->nd ? v : q->x[i];
		if (d->kind == PARAM)
			continue;
		if (d->kind == DIFF) {
			int64_t u = q->lo[1][d->sv] - x > q->lo[0][d->sv] ? q->lo[1][d->sv] - x : q->lo[0][d->sv];
			t[0][d->sv] = u;
			t[1][d->sv] = u + x;
		} else {
			t[d->kind][d->sv] = x;
		}
	}
}

static bool differ(const solver *q, int64_t v)
{
	int64_t t[2][NSV];
	threads_at(q, v, t);
	return memcmp(t[0] + q->from, t[1] + q->from, (q->to - q->from) * sizeof t[0][0]) != 0;
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
	const dim *d = &q->d[i];
	if (i + 1 == q->nd) {
		/* lo <= sum + coef * v <= hi */
		int64_t a = q->lo_d - sum, b = q->hi_d - sum, vlo, vhi;
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
		/* the threads are alike for one value of v at most */
		for (int64_t v = vlo; v <= vhi && v <= vlo + 1; v++)
			if (q->free_diff || differ(q, v)) {
				q->x[i] = v;
				return true;
			}
		return false;
	}
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

/* Whether atom v is a parameter the host may set to any value: a kernel's
 * integer parameter never assigned, or what one ld.param reads of one. */
static bool free_param(const race *r, uint32_t v)
{
	uint32_t id = v - PX_VV_VALUE;
	unsigned t = r->f->values[id].type, k = px_types[t].kind;
	return px_value_grid_const(r->va, id) && (!r->f->values[id].param || !r->va->ndefs[id]) &&
	       (k == PX_KIND_BIT || k == PX_KIND_UINT || k == PX_KIND_SINT);
}

/* Whether the atoms and block indices of two forms are the same in both
 * threads: the same coefficients, uniform, and no definition of an atom on a
 * path from one access to the other with no synchronization point between. For two
 * CTAs the CTA's index is the solver's, and an atom must be one the whole
 * launch holds alike. Within a CTA, for global memory, one parameter may
 * have different coefficients (*param): the pair is asked about for each
 * value it may hold, as GPUVerify takes a parameter. */
static bool same_rest(const race *r, const access *a, const access *b, uint32_t *param)
{
	*param = 0;
	/* one statement run by two threads in the same iteration of a loop sees
	 * the same value of an atom every thread holds alike, whatever the
	 * definitions of it between its runs */
	if (!r->rough && !r->across && a != b &&
	    ((a->aid && px_bit(b->stale, a->aid - 1)) || (b->aid && px_bit(a->stale, b->aid - 1))))
		return false;
	for (unsigned k = 0; k < 2; k++) {
		const px_aff *x = k ? &b->form : &a->form, *y = k ? &a->form : &b->form;
		for (unsigned i = 0; i < x->nterms; i++) {
			uint32_t v = x->var[i];
			if (v < PX_VV_NTHREAD || (r->across && v <= PX_VV_CTAID_Z))
				continue;
			if (coef_of(y, v) != x->coef[i]) {
				/* the rough pass takes atoms as alike, but for such a
				 * parameter, whose values it asks about too */
				bool free = !r->across && a->mem == IN_GLOBAL && v >= PX_VV_VALUE && (!*param || *param == v) &&
				            free_param(r, v);
				if (free)
					*param = v;
				else if (!r->rough)
					return false;
				continue;
			}
			if (r->rough)
				continue;
			if (v < PX_VV_VALUE)
				continue;
			px_aff atom = px_value_form_id(r->va, v - PX_VV_VALUE);
			if (r->across ? !px_value_grid_const(r->va, v - PX_VV_VALUE) : !px_aff_uniform(r->va, &atom))
				return false;
		}
	}
	return true;
}

/* One thread's side of the solver from its form and box; grid: the
 * dimensions along which its CTA's index ranges (none: one CTA). */
static void side(solver *q, unsigned k, const px_aff *f, const px_box *box, bool whole_x, unsigned grid)
{
	static const unsigned var[NSV] = {PX_VV_LANE,    PX_VV_WARP_X,  PX_VV_TID_Y,  PX_VV_TID_Z,
	                                  PX_VV_CTAID_X, PX_VV_CTAID_Y, PX_VV_CTAID_Z};
	for (unsigned v = 0; v < NSV; v++) {
		if (v >= SV_CTA) {
			bool ranges = grid >> (v - SV_CTA) & 1;
			q->c[k][v] = ranges ? coef_of(f, var[v]) : 0;
			q->lo[k][v] = 0;
			q->hi[k][v] = !ranges ? 0 : v == SV_CTA ? GRID_X - 1 : GRID_YZ - 1;
			continue;
		}
		q->c[k][v] = coef_of(f, var[v]);
		q->lo[k][v] = box->lo[var[v]];
		q->hi[k][v] = box->hi[var[v]];
	}
	if (whole_x) {
		q->lo[k][SV_X] += 32 * box->lo[PX_VV_WARP_X];
		q->hi[k][SV_X] += 32 * box->hi[PX_VV_WARP_X];
		q->c[k][SV_WARP] = q->lo[k][SV_WARP] = q->hi[k][SV_WARP] = 0;
	}
}

static bool x_whole(const px_aff *f, const px_box *box)
{
	return coef_of(f, PX_VV_WARP_X) == 32 * coef_of(f, PX_VV_LANE) &&
	       ((box->lo[PX_VV_LANE] == 0 && box->hi[PX_VV_LANE] == 31) || box->lo[PX_VV_WARP_X] == box->hi[PX_VV_WARP_X]);
}

/* Two different threads of the boxes whose bytes of a and b overlap: into
 * t (thread 0 runs a, thread 1 runs b); false when none, or not known. */
/* A parameter's range, as its type gives it (bounded, so that the
 * solver's sums do not overflow). */
static void param_range(const race *r, uint32_t v, int64_t *lo, int64_t *hi)
{
	const px_type_info *t = &px_types[r->f->values[v - PX_VV_VALUE].type];
	unsigned w = t->width < 40 ? t->width : 40;
	*lo = t->kind == PX_KIND_SINT ? -((int64_t)1 << (w - 1)) : 0;
	*hi = t->kind == PX_KIND_SINT ? ((int64_t)1 << (w - 1)) - 1 : ((int64_t)1 << w) - 1;
}

static bool conflict(const race *r, const access *a, const access *b, int64_t t[2][NVARS], uint32_t *param,
                     int64_t *pval)
{
	if (!same_rest(r, a, b, param))
		return false;
	if (r->va->launch_assumed)
		for (unsigned k = 0; k < 2; k++) {
			const px_aff *x = k ? &b->form : &a->form;
			if (coef_of(x, PX_VV_TID_Y) || coef_of(x, PX_VV_TID_Z))
				return false;
		}
	solver q = {.from = r->across ? SV_CTA : 0, .to = r->across ? NSV : SV_CTA};
	bool whole = x_whole(&a->form, &a->box) && x_whole(&b->form, &b->box);
	unsigned grid = r->across ? r->grid : 0;
	side(&q, 0, &a->form, &a->box, whole, grid);
	side(&q, 1, &b->form, &b->box, whole, grid);
	/* b's offset minus a's in [-(b's bytes - 1), a's bytes - 1] */
	q.lo_d = -(int64_t)(b->bytes - 1) - (b->form.c - a->form.c);
	q.hi_d = (int64_t)(a->bytes - 1) - (b->form.c - a->form.c);
	for (unsigned v = 0; v < NSV; v++) {
		int64_t c0 = q.c[0][v], c1 = q.c[1][v];
		if (c0 && c0 == c1)
			q.d[q.nd++] = (dim){c1, q.lo[1][v] - q.hi[0][v], q.hi[1][v] - q.lo[0][v], v, DIFF};
		else {
			if (c0)
				q.d[q.nd++] = (dim){-c0, q.lo[0][v], q.hi[0][v], v, FIRST};
			if (c1)
				q.d[q.nd++] = (dim){c1, q.lo[1][v], q.hi[1][v], v, SECOND};
		}
		/* a thread whose form leaves v out may take any value of it */
		if (v >= q.from && v < q.to &&
		    ((!c0 && q.lo[0][v] < q.hi[0][v]) || (!c1 && q.lo[1][v] < q.hi[1][v]) ||
		     (!c0 && !c1 && q.lo[0][v] != q.lo[1][v])))
			q.free_diff = true;
	}
	int64_t plo = 0, phi = 0;
	if (*param) {
		param_range(r, *param, &plo, &phi);
		q.d[q.nd++] = (dim){coef_of(&b->form, *param) - coef_of(&a->form, *param), plo, phi, 0, PARAM};
	}
	bool gave_up = false, found;
	unsigned pd = q.nd;
	if (!q.nd) {
		found = q.lo_d <= 0 && 0 <= q.hi_d && q.free_diff;
	} else {
		/* the widest dim is solved, not walked */
		unsigned wide = 0;
		for (unsigned i = 1; i < q.nd; i++)
			if (q.d[i].hi - q.d[i].lo > q.d[wide].hi - q.d[wide].lo)
				wide = i;
		dim last = q.d[wide];
		q.d[wide] = q.d[q.nd - 1];
		q.d[q.nd - 1] = last;
		for (unsigned i = 0; i < q.nd; i++)
			pd = q.d[i].kind == PARAM ? i : pd;
		/* a parameter's values from 0 up first, then the negative ones */
		if (pd < q.nd && plo < 0)
			q.d[pd].lo = 0;
		found = search(&q, 0, 0, &gave_up);
		if (!found && !gave_up && pd < q.nd && plo < 0) {
			q.d[pd].lo = plo;
			q.d[pd].hi = -1;
			found = search(&q, 0, 0, &gave_up);
		}
	}
	if (!found)
		return false;
	if (pd < q.nd)
		*pval = q.x[pd];
	/* the witness; a variable a thread's form leaves out tells them apart */
	int64_t u[2][NSV];
	threads_at(&q, q.nd ? q.x[q.nd - 1] : 0, u);
	for (unsigned v = q.from; v < q.to && !memcmp(u[0] + q.from, u[1] + q.from, (q.to - q.from) * sizeof u[0][0]);
	     v++)
		for (unsigned k = 2; k-- > 0;)
			if (!q.c[k][v] && q.lo[k][v] < q.hi[k][v] && u[k][v] == u[!k][v]) {
				u[k][v] = u[k][v] == q.lo[k][v] ? q.lo[k][v] + 1 : q.lo[k][v];
				break;
			}
	for (unsigned k = 0; k < 2; k++) {
		memset(t[k], 0, sizeof t[k]);
		t[k][PX_VV_LANE] = whole ? u[k][SV_X] % 32 : u[k][SV_X];
		t[k][PX_VV_WARP_X] = whole ? u[k][SV_X] / 32 : u[k][SV_WARP];
		t[k][PX_VV_TID_Y] = u[k][SV_Y];
		t[k][PX_VV_TID_Z] = u[k][SV_Z];
		for (unsigned d = 0; d < 3; d++)
			t[k][PX_VV_CTAID_X + d] = u[k][SV_CTA + d];
	}
	return true;
}

static void thread_name(char *buf, size_t size, const int64_t *t)
{
	snprintf(buf, size, "(%lld, %lld, %lld)", (long long)(32 * t[PX_VV_WARP_X] + t[PX_VV_LANE]),
	         (long long)t[PX_VV_TID_Y], (long long)t[PX_VV_TID_Z]);
}

static void cta_name(char *buf, size_t size, const int64_t *t)
{
	snprintf(buf, size, "(%lld, %lld, %lld)", (long long)t[PX_VV_CTAID_X], (long long)t[PX_VV_CTAID_Y],
	         (long long)t[PX_VV_CTAID_Z]);
}

/* What a global access touches, for a message: '@name', or what a pointer
 * points to. */
static void object_name(const race *r, const access *a, char *buf, size_t size)
{
	px_str name = a->ptr ? r->f->values[a->ptr - PX_VV_VALUE].name : r->v->m->globals[a->obj - 1].name;
	if (a->ptr)
		snprintf(buf, size, "what '%%%.*s' points to", (int)name.n, name.s);
	else
		snprintf(buf, size, "'@%.*s'", (int)name.n, name.s);
}

static const char *verb(const access *a)
{
	return a->atomic ? "updates" : a->writes ? "writes" : "reads";
}

/* The offset in its object of a's thread t (its pointer left out, its CTA's
 * index t's where two CTAs are asked about, parameter param taken as pval);
 * whether nothing else is left out (an atom, a block index). */
static bool offset_of(const race *r, const access *a, const int64_t *t, uint32_t param, int64_t pval, int64_t *off)
{
	bool whole = true;
	int64_t x;
	*off = a->form.c;
	for (unsigned i = 0; i < a->form.nterms; i++) {
		uint32_t v = a->form.var[i];
		if (v < PX_VV_NTHREAD || (r->across && v <= PX_VV_CTAID_Z))
			*off += a->form.coef[i] * t[v];
		else if (param && v == param)
			*off += a->form.coef[i] * pval;
		else if (v >= PX_VV_VALUE && v != a->ptr && r->conc &&
		         px_concrete_kind(r->conc, v - PX_VV_VALUE) == PX_CONC_PURE &&
		         px_concrete_at(r->conc, v - PX_VV_VALUE, t, &x))
			*off += a->form.coef[i] * x;
		else if (v != a->ptr)
			whole = false;
	}
	return whole;
}

/* The first (or the last) point both sets hold, or UINT32_MAX. */
static uint32_t common(const openset *x, const openset *y, bool last)
{
	uint32_t found = UINT32_MAX;
	for (unsigned i = 0, j = 0; i < x->n && j < y->n;)
		if (x->k[i] < y->k[j]) {
			i++;
		} else if (y->k[j] < x->k[i]) {
			j++;
		} else {
			found = x->k[i];
			if (!last)
				return found;
			i++, j++;
		}
	return found;
}

/* The note at the point both accesses may follow, for two threads of a CTA:
 * the last such point in text order. */
static void since_note(const race *r, const access *a, const access *b, unsigned line_a, unsigned line_b)
{
	px_diags *d = r->v->d;
	uint32_t k = common(&a->open, &b->open, true);
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

/* Why a thread passes a guard no box holds: what it compares is loaded
 * from memory the host may have set to anything. */
static void free_notes(const race *r, const access *a, const access *b, int64_t t[2][NVARS])
{
	for (unsigned k = 0; k < 2; k++) {
		const access *e = k ? b : a;
		if (!e->free || (k && a->free == b->free))
			continue;
		const px_node *d = r->va->def[e->free - 1];
		char ta[64], tb[64];
		thread_name(ta, sizeof ta, t[0]);
		thread_name(tb, sizeof tb, t[1]);
		px_note(r->v->d, d->loc, PX_D_race_free_guard, px_module_line(r->v->m, e->addr->loc), ta, tb);
	}
}

static void report_shared(const race *r, const access *a, const access *b, int64_t t[2][NVARS])
{
	px_diags *d = r->v->d;
	const px_str name = r->v->m->globals[b->form.base - 1].name;
	char ta[64], tb[64];
	thread_name(ta, sizeof ta, t[0]);
	thread_name(tb, sizeof tb, t[1]);
	int64_t off_a, off_b;
	bool whole = offset_of(r, a, t[0], 0, 0, &off_a) & offset_of(r, b, t[1], 0, 0, &off_b);
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
		        tb, ta, at);
	else
		px_warn(d, b->addr->loc, PX_D_shared_race_same, op, verb(b), (int)name.n, name.s, op_a, line_a,
		        verb(a), tb, ta);
	if (a != b)
		px_note(d, a->addr->loc, PX_D_shared_race_first, op_a, verb(a), (int)name.n, name.s);
	free_notes(r, a, b, t);
	since_note(r, a, b, line_a, line_b);
}

/* Two threads of a CTA, or (r->across) of two CTAs: the message's words by
 * what the pair is, [self][whole]. */
static const unsigned global_msg[2][2][2] = {
	{{PX_D_global_race_same, PX_D_global_race}, {PX_D_global_race_self_same, PX_D_global_race_self}},
	{{PX_D_global_race_grid_same, PX_D_global_race_grid}, {PX_D_global_race_grid_self_same, PX_D_global_race_grid_self}},
};

static void report_global(const race *r, const access *a, const access *b, int64_t t[2][NVARS], uint32_t param,
                          int64_t pval)
{
	px_diags *d = r->v->d;
	char obj[160], ta[64], tb[64], ca[64], cb[64], op[64], op_a[64];
	object_name(r, b, obj, sizeof obj);
	thread_name(ta, sizeof ta, t[0]);
	thread_name(tb, sizeof tb, t[1]);
	cta_name(ca, sizeof ca, t[0]);
	cta_name(cb, sizeof cb, t[1]);
	int64_t off_a, off_b;
	bool whole = offset_of(r, a, t[0], param, pval, &off_a) & offset_of(r, b, t[1], param, pval, &off_b);
	long long at = off_a > off_b ? off_a : off_b;
	unsigned line_a = px_module_line(r->v->m, a->addr->loc), line_b = px_module_line(r->v->m, b->addr->loc);
	px_node_name(b->n, op, sizeof op);
	px_node_name(a->n, op_a, sizeof op_a);
	unsigned id = global_msg[r->across][a == b][whole];
	px_str pn = param ? r->f->values[param - PX_VV_VALUE].name : (px_str){0};
	/* the arguments each text takes, in its order (a parameter's pair is of
	 * two statements of one CTA: the same forms leave it out) */
	if (param)
		px_warn(d, b->addr->loc, whole ? PX_D_global_race_param : PX_D_global_race_param_same, op, verb(b), obj,
		        op_a, line_a, verb(a), (int)pn.n, pn.s, (long long)pval, tb, ta, at);
	else if (r->across && a == b)
		px_warn(d, b->addr->loc, id, op, verb(b), obj, tb, cb, ta, ca, at);
	else if (r->across)
		px_warn(d, b->addr->loc, id, op, verb(b), obj, op_a, line_a, verb(a), tb, cb, ta, ca, at);
	else if (a == b)
		px_warn(d, b->addr->loc, id, op, verb(b), obj, ta, tb, at);
	else
		px_warn(d, b->addr->loc, id, op, verb(b), obj, op_a, line_a, verb(a), tb, ta, at);
	if (a != b)
		px_note(d, a->addr->loc, r->across ? PX_D_global_race_grid_first : PX_D_global_race_first, op_a, verb(a),
		        obj);
	for (const access *e = a; e; e = e == a && b != a ? b : NULL)
		if (e->chosen) {
			px_str via = r->f->values[e->via].name, p = r->f->values[e->ptr - PX_VV_VALUE].name;
			px_note(d, e->addr->loc, PX_D_global_race_chosen, (int)via.n, via.s, (int)p.n, p.s);
		}
	free_notes(r, a, b, t);
	if (!r->across) {
		since_note(r, a, b, line_a, line_b);
		return;
	}
	/* why two CTAs are asked about */
	px_note(d, r->grid_read->loc, PX_D_global_race_grid_why, (int)r->f->name.n, r->f->name.s);
}

static int concrete_conflict(const race *r, const access *a, const access *b, int64_t t[2][NVARS], uint32_t *tk,
                             bool apart);

/* The values a warp-splitting walk tries at most (see warp_only). */
enum { WARP_SPLITS = 256 };

/* Whether two threads of different warps can make a and b meet: for each
 * variable that tells warps apart, a's threads held at one value of it and
 * b's at the others, below and above. */
static bool meet_across_warps(const race *r, const access *a, const access *b)
{
	static const unsigned apart[] = {PX_VV_WARP_X, PX_VV_TID_Y, PX_VV_TID_Z};
	int64_t t[2][NVARS], pval;
	unsigned tried = 0;
	for (unsigned i = 0; i < sizeof apart / sizeof apart[0]; i++) {
		unsigned v = apart[i];
		for (int64_t w = a->box.lo[v]; w <= a->box.hi[v]; w++) {
			access a1 = *a, b1 = *b;
			a1.box.lo[v] = a1.box.hi[v] = w;
			for (unsigned side = 0; side < 2; side++) {
				b1.box = b->box;
				if (side ? (b1.box.lo[v] = w + 1) > b1.box.hi[v] : (b1.box.hi[v] = w - 1) < b1.box.lo[v])
					continue;
				uint32_t param = 0;
				if (++tried > WARP_SPLITS || conflict(r, &a1, &b1, t, &param, &pval))
					return true;
			}
		}
	}
	return false;
}

/* Whether a warp in lock step runs a and b one after the other: in one
 * block, or one after the other on a path with no way back. Two arms of a
 * branch the warp's threads take apart are run in no order known. */
static bool in_step(const race *r, const access *a, const access *b)
{
	const px_cfg *g = r->g;
	uint32_t x = px_cfg_block_of(g, a->n), y = px_cfg_block_of(g, b->n);
	return x != UINT32_MAX && y != UINT32_MAX &&
	       (x == y || px_cfg_forward_reaches(g, x, y) || px_cfg_forward_reaches(g, y, x));
}

/* Whether a and b are two statements every two threads of which that meet
 * are of one warp: the block is one warp, or warps are runs of 32 along x
 * (verify/analysis/value.h) and no two threads of different warps meet. Such
 * a race is ordered by bar.warp.sync, not only a CTA barrier, and code that
 * takes a warp to run in lock step (as GPUVerify's --warp-sync=32 does) has
 * the earlier statement run in every thread of the warp before the later:
 * its own warning, so that a user can choose. One statement's threads race
 * even in lock step, and so do two arms of a branch (in_step). */
static bool warp_only(const race *r, const access *a, const access *b)
{
	const px_values *va = r->va;
	if (a->n == b->n || r->across || va->launch_assumed || !in_step(r, a, b))
		return false;
	const px_box *l = &va->launch;
	int64_t threads = (l->hi[PX_VV_WARP_X] * 32 + l->hi[PX_VV_LANE] + 1) * (l->hi[PX_VV_TID_Y] + 1) *
	                  (l->hi[PX_VV_TID_Z] + 1);
	if (threads <= 32)
		return true;
	if (!va->lane_x)
		return false;
	/* the race the affine forms find, split by warps; else the one the
	 * walk over the threads found, walked again for two warps */
	int64_t t[2][NVARS], pval;
	uint32_t param = 0, ticket;
	if (conflict(r, a, b, t, &param, &pval))
		return !param && !meet_across_warps(r, a, b);
	return concrete_conflict(r, a, b, t, &ticket, true) == CONC_NONE;
}

static void report_warp(const race *r, const access *a, const access *b, int64_t t[2][NVARS])
{
	px_diags *d = r->v->d;
	char obj[160], ta[64], tb[64], op[64], op_a[64];
	object_name(r, b, obj, sizeof obj);
	thread_name(ta, sizeof ta, t[0]);
	thread_name(tb, sizeof tb, t[1]);
	px_node_name(b->n, op, sizeof op);
	px_node_name(a->n, op_a, sizeof op_a);
	unsigned line_a = px_module_line(r->v->m, a->addr->loc), line_b = px_module_line(r->v->m, b->addr->loc);
	int64_t off_a, off_b;
	if (offset_of(r, a, t[0], 0, 0, &off_a) & offset_of(r, b, t[1], 0, 0, &off_b))
		px_warn(d, b->addr->loc, PX_D_warp_race, op, verb(b), obj, op_a, line_a, verb(a), tb, ta,
		        (long long)(off_a > off_b ? off_a : off_b));
	else
		px_warn(d, b->addr->loc, PX_D_warp_race_same, op, verb(b), obj, op_a, line_a, verb(a), tb, ta);
	px_note(d, a->addr->loc, PX_D_global_race_first, op_a, verb(a), obj);
	since_note(r, a, b, line_a, line_b);
}

static void report(const race *r, const access *a, const access *b, int64_t t[2][NVARS], uint32_t param,
                   int64_t pval)
{
	if (!param && warp_only(r, a, b))
		report_warp(r, a, b, t);
	else if (b->mem == IN_SHARED)
		report_shared(r, a, b, t);
	else
		report_global(r, a, b, t, param, pval);
}

/* Whether every thread of the launch holds the same form: no thread or CTA
 * index, no atom but those the launch holds alike. */
static bool launch_uniform(const race *r, const px_aff *a)
{
	if (!a->known)
		return false;
	for (unsigned i = 0; i < a->nterms; i++)
		if (a->var[i] < PX_VV_NTID_X || (a->var[i] >= PX_VV_VALUE && !px_value_grid_const(r->va, a->var[i] - PX_VV_VALUE)))
			return false;
	return true;
}

/* Whether x and y hold the same form, one every thread holds alike. */
static bool same_form(const race *r, const px_opnd *x, const px_opnd *y)
{
	if (x->kind == PX_O_GROUP || y->kind == PX_O_GROUP) {
		if (x->kind != y->kind || x->nelems != y->nelems)
			return false;
		for (uint32_t i = 0; i < x->nelems; i++)
			if (!same_form(r, &x->elems[i], &y->elems[i]))
				return false;
		return true;
	}
	if (x->kind == PX_O_FLOAT || x->kind == PX_O_FBITS)
		return x->kind == y->kind && x->bits == y->bits;
	px_aff a = px_value_form(r->va, x), b = px_value_form(r->va, y);
	return (r->across ? launch_uniform(r, &a) : px_aff_uniform(r->va, &a)) && px_aff_equal(&a, &b);
}

/* Whether x is made from what a load of memory that may change read: two
 * threads' loads of one word need not read one value (px_value_from_memory). */
static bool loaded(const race *r, const px_opnd *x)
{
	if (x->kind == PX_O_GROUP) {
		for (uint32_t i = 0; i < x->nelems; i++)
			if (loaded(r, &x->elems[i]))
				return true;
		return false;
	}
	if (x->kind == PX_O_FLOAT || x->kind == PX_O_FBITS)
		return false;
	px_aff a = px_value_form(r->va, x);
	for (unsigned i = 0; i < a.nterms; i++)
		if (a.var[i] >= PX_VV_VALUE && px_value_from_memory(r->va, a.var[i] - PX_VV_VALUE))
			return true;
	return false;
}

static bool same_value(const race *r, const px_opnd *x, const px_opnd *y)
{
	return same_form(r, x, y) && !loaded(r, x);
}

static bool stores_alike(const access *a, const access *b)
{
	return a->n->op == &px_ops[PX_OP_st] && b->n->op == &px_ops[PX_OP_st] && a->n->nops == 2 && b->n->nops == 2 &&
	       a->bytes == b->bytes;
}

/* Two stores of one value every thread holds the same: whichever lands
 * last, the bytes hold it (a benign race, as GPUVerify tolerates it). A value
 * loaded from memory that may change is not one value in two threads,
 * however alike their addresses. */
static bool same_stores(const race *r, const access *a, const access *b)
{
	return stores_alike(a, b) && same_value(r, &a->n->ops[1], &b->n->ops[1]);
}

static bool benign_writes(const race *r, const access *a, const access *b)
{
	return px_aff_equal(&a->form, &b->form) && same_stores(r, a, b);
}

/* Two stores that would be benign but for the value coming from memory say
 * so: the text shows one value stored by every thread. */
static void loaded_note(const race *r, const access *a, const access *b)
{
	const px_opnd *v = &b->n->ops[1];
	if (stores_alike(a, b) && px_aff_equal(&a->form, &b->form) && same_form(r, &a->n->ops[1], v) && loaded(r, v))
		px_note(r->v->d, v->loc, PX_D_race_loaded_value);
}

/* Whether every thread that runs b ran a just before, with nothing between
 * that could branch or synchronize. */
static bool runs_before(const px_node *a, const px_node *b)
{
	if (a->has_guard)
		return false;
	for (const px_node *n = a->next; n != b; n = n->next)
		if (!n || n->kind == PX_N_LABEL || n->kind == PX_N_RET || synchronizes(n) ||
		    (n->kind == PX_N_INST && n->op && (n->op->shape == PX_SHAPE_BRANCH || (n->op->flags & PX_OPF_TERMINATOR))))
			return false;
	return true;
}

/* Benign: two stores of one value that every thread holds alike to the same
 * place (whichever lands last, the bytes hold it), and a load of the place
 * such a store of the reading thread's own just wrote (whichever store it
 * sees, it reads that value), as GPUVerify tolerates them. */
static bool benign(const race *r, const access *a, const access *b)
{
	if (benign_writes(r, a, b))
		return true;
	return a->n->op == &px_ops[PX_OP_st] && b->n->op == &px_ops[PX_OP_ld] && a->n->nops == 2 &&
	       a->bytes == b->bytes && px_aff_equal(&a->form, &b->form) && same_value(r, &a->n->ops[1], &a->n->ops[1]) &&
	       runs_before(a->n, b->n);
}

/* ---- the question by walking the threads ----
 *
 * Where an address names an atom that varies between threads but is a
 * concrete value (verify/analysis/concrete.h: a function of the thread's indices the
 * affine forms cannot hold, as (%tid.x + 1) rem 32, or a ticket of an
 * atom.add), the solver cannot answer; when both boxes are blocks of at most
 * CONC_THREADS threads, the pair is decided exactly by evaluating the
 * offsets of one access in every thread that runs it and looking up those
 * of the other's. CONC_WORK bounds the operations a function spends so. */
enum { CONC_THREADS = 1024, CONC_WORK = 1 << 24 };

typedef struct point {
	int64_t off;
	uint64_t who;  /* the thread, as one number */
	bool zero;     /* it adds 0 at the ticket's atom.add */
} point;

/* Whether a's form can be evaluated at a thread: every atom but its pointer
 * concrete, at most one ticket (*ticket) over both accesses, block indices
 * with the coefficients the other's form has (two threads of a CTA share
 * them); *varies is set by an atom that varies between threads. */
static bool concrete_form(const race *r, const access *a, const access *other, uint32_t *ticket, bool *varies,
                          bool *has_ticket)
{
	*has_ticket = false;
	for (unsigned i = 0; i < a->form.nterms; i++) {
		uint32_t v = a->form.var[i];
		if (v < PX_VV_NTHREAD || v == a->ptr)
			continue;
		if (v < PX_VV_VALUE) {
			if (coef_of(&other->form, v) != a->form.coef[i])
				return false;
			continue;
		}
		uint32_t id = v - PX_VV_VALUE;
		unsigned k = px_concrete_kind(r->conc, id);
		if (k == PX_CONC_NONE)
			return false;
		*varies |= r->va->varies[id] != 0;
		if (k == PX_CONC_TICKET) {
			if (*ticket && *ticket != r->conc->ticket[id])
				return false;
			*ticket = r->conc->ticket[id];
			*has_ticket = true;
		}
	}
	return true;
}

/* Thread k of box b, into t, its block variables 0. */
static void box_thread(const px_box *b, uint64_t k, int64_t *t)
{
	memset(t, 0, NVARS * sizeof *t);
	px_box_thread(b, k, t);
}

static uint64_t who(const int64_t *t)
{
	return (uint64_t)(32 * t[PX_VV_WARP_X] + t[PX_VV_LANE]) | (uint64_t)t[PX_VV_TID_Y] << 20 |
	       (uint64_t)t[PX_VV_TID_Z] << 40;
}

/* a's offset in thread t, its pointer and block indices left out. */
static bool concrete_offset(const race *r, const access *a, const int64_t *t, int64_t *off)
{
	int64_t x;
	*off = a->form.c;
	for (unsigned i = 0; i < a->form.nterms; i++) {
		uint32_t v = a->form.var[i];
		if (v < PX_VV_NTHREAD)
			*off += a->form.coef[i] * t[v];
		else if (v >= PX_VV_VALUE && v != a->ptr) {
			if (!px_concrete_at(r->conc, v - PX_VV_VALUE, t, &x))
				return false;
			*off += a->form.coef[i] * x;
		}
	}
	return true;
}

static int by_off(const void *x, const void *y)
{
	const point *p = x, *q = y;
	return (p->off > q->off) - (p->off < q->off);
}

/* Whether threads t and u are of different warps (warps runs of 32 along x). */
static bool other_warp(uint64_t t, uint64_t u)
{
	return (t & 0xfffff) / 32 != (u & 0xfffff) / 32 || t >> 20 != u >> 20;
}

/* Two different threads (of different warps where apart) that run a and b
 * and touch a common byte, found by walking them (t as conflict() leaves
 * it): CONC_FOUND, CONC_NONE, or CONC_UNKNOWN where the walk cannot say. */
static int concrete_conflict(const race *r, const access *a, const access *b, int64_t t[2][NVARS], uint32_t *tk,
                             bool apart)
{
	uint32_t ticket = 0;
	bool varies = false, ta, tb;
	if (r->across || r->rough || !r->conc || r->conc->work > CONC_WORK ||
	    !concrete_form(r, a, b, &ticket, &varies, &ta) || !concrete_form(r, b, a, &ticket, &varies, &tb) ||
	    !varies || ta != tb)
		return CONC_UNKNOWN;
	uint64_t na = px_box_threads(&a->box, CONC_THREADS), nb = px_box_threads(&b->box, CONC_THREADS);
	if (!na || !nb || na == UINT64_MAX || nb == UINT64_MAX)
		return CONC_UNKNOWN;
	r->conc->limit = CONC_WORK;
	px_arena_mark mark = px_arena_mark_now(r->a);
	point *p = px_arena_calloc(r->a, na, sizeof *p);
	uint64_t np = 0;
	int64_t u[NVARS];
	bool found = false, known = true;
	for (uint64_t k = 0; k < na && known; k++) {
		box_thread(&a->box, k, u);
		if (!runs(r, a, u))
			continue;
		known = concrete_offset(r, a, u, &p[np].off);
		p[np].who = who(u);
		p[np++].zero = ticket && px_ticket_zero(r->conc, ticket, u);
	}
	qsort(p, np, sizeof *p, by_off);
	for (uint64_t k = 0; k < nb && known && !found; k++) {
		int64_t off;
		box_thread(&b->box, k, u);
		if (!runs(r, b, u) || !(known = concrete_offset(r, b, u, &off)))
			continue;
		bool zero = ticket && px_ticket_zero(r->conc, ticket, u);
		/* the first of a's offsets above off - a's bytes */
		uint64_t lo = 0, hi = np;
		while (lo < hi) {
			uint64_t mid = (lo + hi) / 2;
			if (p[mid].off <= off - (int64_t)a->bytes)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (uint64_t i = lo; i < np && p[i].off < off + (int64_t)b->bytes; i++)
			if (p[i].who != who(u) && (!apart || other_warp(p[i].who, who(u))) && (!ticket || zero || p[i].zero)) {
				memcpy(t[1], u, sizeof u);
				box_thread(&a->box, 0, t[0]);
				t[0][PX_VV_LANE] = (int64_t)(p[i].who & 0xfffff) % 32;
				t[0][PX_VV_WARP_X] = (int64_t)(p[i].who & 0xfffff) / 32;
				t[0][PX_VV_TID_Y] = (int64_t)(p[i].who >> 20 & 0xfffff);
				t[0][PX_VV_TID_Z] = (int64_t)(p[i].who >> 40);
				found = true;
				break;
			}
	}
	px_arena_release(r->a, mark);
	*tk = ticket;
	return !known ? CONC_UNKNOWN : found ? CONC_FOUND : CONC_NONE;
}

/* Why a ticket is the same in both threads: the one that adds 0. */
static void ticket_note(const race *r, uint32_t ticket, int64_t t[2][NVARS])
{
	char op[64], th[64];
	const px_node *d = r->va->def[ticket];
	px_node_name(d, op, sizeof op);
	thread_name(th, sizeof th, t[!px_ticket_zero(r->conc, ticket, t[0])]);
	px_note(r->v->d, d->loc, PX_D_race_ticket, op, th);
}

/* Whether a and b (b the later) race: one of them writes, not both are
 * atomic, and two threads that run them touch a common byte, unless the race
 * is benign; reported at b unless the pass is rough. */
static bool race_found(const race *r, const access *a, const access *b)
{
	int64_t t[2][NVARS];
	if (!a->known || px_box_empty(&a->box) || a->mem != b->mem || a->obj != b->obj || !(a->writes || b->writes) ||
	    (a->atomic && b->atomic) || (!r->rough && benign(r, a, b)))
		return false;
	uint32_t ticket = 0, param = 0;
	int64_t pval = 0;
	if (!(conflict(r, a, b, t, &param, &pval) && runs(r, a, t[0]) && runs(r, b, t[1]))) {
		param = 0;
		if (concrete_conflict(r, a, b, t, &ticket, false) != CONC_FOUND)
			return false;
	}
	int64_t off_a, off_b;
	/* the value of a parameter that makes two stores of one value meet
	 * whole is benign as benign_writes() is; other values are not asked */
	if (param && !r->rough && same_stores(r, a, b) && (offset_of(r, a, t[0], param, pval, &off_a),
	                                                   offset_of(r, b, t[1], param, pval, &off_b), off_a == off_b))
		return false;
	if (!r->rough) {
		report(r, a, b, t, param, pval);
		loaded_note(r, a, b);
	}
	if (!r->rough && ticket)
		ticket_note(r, ticket, t);
	return true;
}

/* A race is reported once a statement: every access it makes is said. */
static void say(const race *r, uint32_t j)
{
	const access *first = find(r, r->acc[j].n);
	for (uint32_t i = (uint32_t)(first - r->acc); i < (uint32_t)(first - r->acc) + first->nalt; i++)
		r->said[i] = 1;
}

/* A conflict found at access j: a rough pass stops there (nothing more to
 * learn), the real one reports j once. */
static void found_at(race *r, uint32_t j, uint64_t *budget)
{
	if (r->rough)
		*budget = 0;
	else
		say(r, j);
}

/* The pairs of accesses that may follow one synchronization point, each
 * pair once (at the first point both follow), the later in text order as
 * the one reported; the first conflict of each is reported. Rough: whether
 * some pair may conflict, reporting nothing. */
static bool pairs(race *r)
{
	bool any = false;
	uint32_t *at = px_arena_calloc(r->a, r->nsync + 2, sizeof *at), *list;
	uint8_t *said = r->said;
	for (uint32_t i = 0; i < r->nacc; i++)
		for (unsigned k = 0; r->acc[i].seen && !r->acc[i].open.many && k < r->acc[i].open.n; k++)
			at[r->acc[i].open.k[k] + 2]++;
	for (uint32_t k = 0; k < r->nsync; k++)
		at[k + 2] += at[k + 1];
	list = px_arena_calloc(r->a, at[r->nsync + 1], sizeof *list);
	for (uint32_t i = 0; i < r->nacc; i++)
		for (unsigned k = 0; r->acc[i].seen && !r->acc[i].open.many && k < r->acc[i].open.n; k++)
			list[at[r->acc[i].open.k[k] + 1]++] = i;
	uint64_t budget = PAIRS;
	for (uint32_t k = 0; k < r->nsync && budget; k++)
		for (uint32_t y = at[k]; y < at[k + 1] && budget; y++) {
			uint32_t j = list[y];
			access *b = &r->acc[j];
			if (said[j] || !b->known || px_box_empty(&b->box))
				continue;
			for (uint32_t x = at[k]; x <= y && budget; x++, budget--) {
				access *a = &r->acc[list[x]];
				if (common(&a->open, &b->open, false) != k || !race_found(r, a, b))
					continue;
				any = true;
				found_at(r, j, &budget);
				break;
			}
		}
	return any;
}

/* The pairs of global accesses of two CTAs: any two of a kernel, since no
 * barrier orders CTAs; reported as pairs() does. */
static bool pairs_across(race *r)
{
	bool any = false;
	uint64_t budget = PAIRS;
	r->across = true;
	for (uint32_t j = 0; j < r->nacc && budget; j++) {
		access *b = &r->acc[j];
		if (b->mem != IN_GLOBAL || b->chosen || r->said[j] || !b->seen || !b->known || !b->per_cta ||
		    px_box_empty(&b->box))
			continue;
		for (uint32_t i = 0; i <= j && budget; i++, budget--) {
			access *a = &r->acc[i];
			if (!a->seen || !a->per_cta || a->chosen || !race_found(r, a, b))
				continue;
			any = true;
			found_at(r, j, &budget);
			break;
		}
	}
	r->across = false;
	return any;
}

/* x and y joined into x (many: more than OPEN points). */
static void join(openset *x, const openset *y)
{
	if (x->many || y->many) {
		x->many = true;
		return;
	}
	openset z = {0};
	unsigned i = 0, j = 0;
	while (i < x->n || j < y->n) {
		uint32_t v = j == y->n || (i < x->n && x->k[i] <= y->k[j]) ? x->k[i++] : y->k[j++];
		if (z.n && z.k[z.n - 1] == v)
			continue;
		if (z.n == OPEN) {
			x->many = true;
			return;
		}
		z.k[z.n++] = v;
	}
	*x = z;
}

/* Block b's entry: its predecessors' ends joined (the start's point 0 for
 * block 0). */
static openset entry(const px_cfg *g, const openset *out, uint32_t b)
{
	openset in = {.n = b == 0};
	for (uint32_t e = g->pred_at[b]; e < g->pred_at[b + 1]; e++)
		join(&in, &out[g->pred[e]]);
	return in;
}

/* The synchronization points each access may follow with none between: a
 * forward problem over the blocks whose states are small sets. */
static void open_sets(race *r)
{
	const px_cfg *g = r->g;
	const uint32_t *first = r->first, *count = r->count;
	px_arena_mark mark = px_arena_mark_now(r->a);
	openset *out = px_arena_calloc(r->a, g->nblocks, sizeof *out);
	bool changed = true;
	while (changed) {
		changed = false;
		for (uint32_t i = 0; i < g->nrpo; i++) {
			uint32_t b = g->rpo[i];
			openset end = count[b] ? (openset){.n = 1, .k = {first[b] + count[b] - 1}} : entry(g, out, b);
			if (memcmp(&end, &out[b], sizeof end)) {
				out[b] = end;
				changed = true;
			}
		}
	}
	for (uint32_t i = 0; i < g->nrpo; i++) {
		uint32_t b = g->rpo[i], k = first[b];
		if (!r->has_acc[b])
			continue;
		openset cur = entry(g, out, b);
		for (uint32_t j = g->at[b]; j < g->at[b + 1]; j++) {
			if (!may_matter(g, j))
				continue;
			const px_node *n = g->stmt[j];
			access *a = is_access_op(n) ? find(r, n) : NULL;
			for (access *e = a; e && e < a + a->nalt; e++) {
				e->open = cur;
				e->seen = true;
			}
			if (synchronizes(n))
				cur = (openset){.n = 1, .k = {k++}};
		}
	}
	px_arena_release(r->a, mark);
}

typedef struct chooser {
	const race *r;
	const px_node *n;
	uint8_t *want;      /* per value: a chosen pointer some access names */
	uint32_t (*alt)[ALTS];
	uint8_t *nalt;      /* per value: its pointers so far; ALTS + 1: one definition is no pointer */
} chooser;

static void chosen_def(void *ctx, uint32_t id, px_loc loc)
{
	(void)loc;
	chooser *c = ctx;
	if (!c->want[id] || c->nalt[id] > ALTS)
		return;
	const px_node *n = c->n;
	bool ok = n->kind == PX_N_INST && !n->has_guard && n->op == &px_ops[PX_OP_mov] && n->nops == 1 &&
	          n->ops[0].kind == PX_O_VALUE && n->ops[0].elem < 0 && !n->ops[0].neg && is_pointer(c->r, n->ops[0].id);
	for (unsigned k = 0; ok && k < c->nalt[id]; k++)
		if (c->alt[id][k] == n->ops[0].id)
			return;
	if (!ok || c->nalt[id] == ALTS)
		c->nalt[id] = ALTS + 1;
	else
		c->alt[id][c->nalt[id]++] = n->ops[0].id;
}

/* The pointers each chosen pointer the accesses name may hold: every
 * definition of it a mov of a pointer, at most ALTS of them (else none: the
 * accesses through it are left unjudged); one pass over the statements,
 * made only where some address names such a value. */
static void choices(const race *r, const access *acc, uint32_t nacc, uint32_t (**alt)[ALTS], uint8_t **nalt)
{
	uint32_t nv = r->f->nvalues + 1;
	chooser c = {r, NULL, px_arena_calloc(r->a, nv, 1), px_arena_calloc(r->a, nv, sizeof *c.alt),
	             px_arena_calloc(r->a, nv, 1)};
	for (uint32_t i = 0; i < nacc; i++)
		if (acc[i].chosen)
			c.want[acc[i].ptr - PX_VV_VALUE] = 1;
	for (const px_node *n = r->f->first; n; n = n->next)
		if (n->kind == PX_N_INST || n->kind == PX_N_CALL || n->kind == PX_N_ASM) {
			c.n = n;
			px_node_writes(n, chosen_def, &c);
		}
	for (uint32_t id = 0; id < nv; id++)
		if (c.nalt[id] > ALTS)
			c.nalt[id] = 0;
	*alt = c.alt;
	*nalt = c.nalt;
}

void px_check_shared_race(px_frame *fr)
{
	px_verifier *v = fr->v;
	px_func *f = fr->f;
	const px_cfg *g = &fr->g;
	px_values *va = &fr->va;
	if (!px_cfg_has_flag(g, PX_OPF_GENERIC_WRITE)) /* no st, atom or red: nothing writes */
		return;
	race r = {.a = fr->a, .v = v, .f = f, .g = g, .va = va, .mems = IN_SHARED};
	if (px_warning_decide(v->d->warn, PX_D_global_race) != PX_WARN_DROP)
		r.mems |= IN_GLOBAL;
	/* one blockwise pass in text order (the points' indices are their
	 * blocks'): the synchronization points and the accesses that may be of
	 * shared memory, whose addresses are asked for only when one writes */
	uint32_t ncand = 0, cap = 0;
	const px_node **cand = NULL;
	bool writer = false;
	r.first = px_frame_alloc(fr, g->nblocks, sizeof *r.first);
	r.count = px_frame_alloc(fr, g->nblocks, sizeof *r.count);
	r.has_acc = px_frame_alloc(fr, g->nblocks, 1);
	r.nsync = 1;
	for (uint32_t b = 0; b < g->nblocks; b++) {
		r.first[b] = r.nsync;
		/* a block with no access and nothing that synchronizes is not walked */
		bool look = (g->block_flags[b] & (PX_OPF_MEMORY_ACCESS | SYNC_FLAGS)) || (g->block_marks[b] & SYNC_KINDS);
		for (uint32_t j = g->at[b]; look && j < g->at[b + 1]; j++) {
			if (!may_matter(g, j))
				continue;
			const px_node *n = g->stmt[j];
			if (synchronizes(n)) {
				r.nsync++;
				r.count[b]++;
			}
			if (!(memories(n) & r.mems))
				continue;
			if (ncand == cap) {
				uint32_t grown = cap ? 2 * cap : 16;
				cand = px_arena_grow(fr->a, cand, ncand, grown, sizeof *cand);
				cap = grown;
			}
			cand[ncand++] = n;
			writer |= n->op != &px_ops[PX_OP_ld];
			r.has_acc[b] = 1;
		}
	}
	if (!writer)
		return;
	bool writes = false;
	{
		r.sync = px_frame_alloc(fr, r.nsync, sizeof *r.sync);
		r.named_at = px_frame_alloc(fr, f->nvalues + 3, sizeof *r.named_at);
		for (uint32_t b = 0, k = 1; b < g->nblocks; b++) {
			for (uint32_t j = g->at[b]; r.count[b] && j < g->at[b + 1]; j++)
				if (may_matter(g, j) && synchronizes(g->stmt[j]))
					r.sync[k++] = g->stmt[j];
		}
	}
	access *found = px_frame_alloc(fr, ncand ? ncand : 1, sizeof *found);
	uint32_t nfound = 0;
	bool choose = false;
	for (uint32_t c = 0; c < ncand; c++)
		if (as_access(&r, cand[c], &found[nfound])) {
			choose |= found[nfound].chosen;
			nfound++;
		} else {
			memset(&found[nfound], 0, sizeof *found);
		}
	uint32_t (*alt)[ALTS] = NULL;
	uint8_t *nalt = NULL;
	if (choose)
		choices(&r, found, nfound, &alt, &nalt);
	uint32_t total = 0;
	for (uint32_t c = 0; c < nfound; c++)
		total += found[c].chosen ? nalt[found[c].ptr - PX_VV_VALUE] : 1;
	/* without chosen pointers each access is made in place */
	r.acc = choose ? px_frame_alloc(fr, total ? total : 1, sizeof *r.acc) : found;
	for (uint32_t c = 0; c < nfound; c++) {
		access a = found[c];
		unsigned n = a.chosen ? nalt[a.ptr - PX_VV_VALUE] : 1;
		uint32_t first = r.nacc;
		for (unsigned k = 0; k < n; k++) {
			access b = a;
			if (a.chosen) {
				/* one access a definition: through the pointer it moves there */
				uint32_t p = alt[a.ptr - PX_VV_VALUE][k];
				b.form = px_aff_subst(a.form, a.ptr, px_value_form_id(r.va, p));
				b.via = a.ptr - PX_VV_VALUE;
				b.ptr = PX_VV_VALUE + p;
				b.obj = r.v->m->nglobals + 1 + p;
			}
			writes |= b.writes;
			bool atoms = false;
			for (unsigned i = 0; i < b.form.nterms; i++)
				atoms |= b.form.var[i] >= PX_VV_VALUE;
			if (!b.form.known || (atoms && r.naid == AIDS))
				continue; /* past what is followed: unjudged */
			for (unsigned i = 0; atoms && i < b.form.nterms; i++)
				if (b.form.var[i] >= PX_VV_VALUE)
					r.named_at[b.form.var[i] - PX_VV_VALUE + 2]++;
			b.aid = atoms ? ++r.naid : 0;
			r.acc[r.nacc++] = b;
		}
		if (r.nacc > first)
			r.acc[first].nalt = (uint8_t)(r.nacc - first);
	}
	/* the lists of the accesses naming each atom */
	for (uint32_t id = 0; id <= f->nvalues; id++)
		r.named_at[id + 2] += r.named_at[id + 1];
	r.named = px_frame_alloc(fr, r.named_at[f->nvalues + 1], sizeof *r.named);
	for (uint32_t i = 0; i < r.nacc; i++)
		for (unsigned k = 0; k < r.acc[i].form.nterms; k++)
			if (r.acc[i].form.var[k] >= PX_VV_VALUE)
				r.named[r.named_at[r.acc[i].form.var[k] - PX_VV_VALUE + 1]++] = r.acc[i].aid - 1;
	if (writes) {
		for (r.mask = 1; r.mask < 2 * r.nacc; r.mask <<= 1)
			;
		r.slot = px_frame_alloc(fr, r.mask, sizeof *r.slot);
		r.said = px_frame_alloc(fr, r.nacc ? r.nacc : 1, 1);
		r.mask--;
		for (uint32_t i = 0; i < r.nacc; i++) {
			if (!r.acc[i].nalt)
				continue;
			uint32_t h = hash(r.acc[i].n, r.mask);
			while (r.slot[h])
				h = (h + 1) & r.mask;
			r.slot[h] = i + 1;
		}
		/* first with every access run by the whole launch: a function no
		 * pair of whose accesses can conflict so needs nothing more */
		open_sets(&r);
		r.rough = true;
		for (uint32_t i = 0; i < r.nacc; i++)
			r.acc[i].box = r.va->launch, r.acc[i].known = r.acc[i].exact = r.acc[i].per_cta = true;
		if (f->is_kernel && (r.mems & IN_GLOBAL))
			r.grid = px_value_grid_dims(r.va, &r.grid_read);
		writes = pairs(&r) || (r.grid && pairs_across(&r));
		r.rough = false;
	}
	px_concrete conc;
	if (writes) {
		px_concrete_init(&conc, va, fr->a);
		r.conc = &conc;
		px_facts_init(&r.facts, f, g, 0, PX_OPF_MEMORY_ACCESS | PX_OPF_TERMINATOR, PX_CFG_KIND(PX_N_RET), cares, &r);
		r.reach_base = r.facts.words;
		r.stale_base = r.reach_base + px_bits_words(r.naid);
		r.w = r.stale_base + px_bits_words(r.naid);
		uint64_t *start = px_frame_alloc(fr, r.w, 8);
		px_facts_start(&r.facts, start);
		px_flow_check_edges(g, r.w, start, step, edge, &r);
		pairs(&r);
		if (r.grid)
			pairs_across(&r);
	}
}
