/* The races inside device functions, asked when the module ends (see
 * callee.h): each call a kernel keeps of a summed-up function, its pairs of
 * accesses with the caller's forms put in, decided by walking the threads of
 * the kernel's block. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag/diag.h"
#include "tables/tables.h"
#include "verify/hazard/callee.h"

/* THREADS: the most threads of a block walked; WORK: the pairs of threads a
 * module's walks may look at. */
enum { THREADS = 1024 };
static const uint64_t WORK = (uint64_t)1 << 27;

/* One access made at a call: its form in the kernel's terms and what it
 * touches. */
typedef struct made {
	const px_callee_access *c;
	px_aff form;
	uint32_t ptr;   /* the pointer parameter it goes through (a term) */
	int64_t *off;   /* per thread of the block: its offset, the pointer and alike atoms left out */
} made;

static const px_call_atom *atom(const px_call_site *s, uint32_t var)
{
	for (uint32_t e = 0; e < s->natoms; e++)
		if (s->atoms[e].var == var)
			return &s->atoms[e];
	return NULL;
}

/* c with the call's arguments for the callee's parameters, into m: false
 * when it does not go through one pointer parameter of global memory, or
 * names an atom the walk cannot take. */
static bool make(const px_call_site *s, const px_callee_access *c, made *m)
{
	m->c = c;
	m->form = c->form;
	while (m->form.known && m->form.nterms && m->form.var[m->form.nterms - 1] >= PX_CALLEE_PARAM) {
		uint32_t v = m->form.var[m->form.nterms - 1], k = v - PX_CALLEE_PARAM;
		if (k >= s->nargs)
			return false;
		m->form = px_aff_subst(m->form, v, s->args[k]);
	}
	m->ptr = 0;
	for (unsigned i = 0; m->form.known && i < m->form.nterms; i++) {
		const px_call_atom *a = m->form.var[i] >= PX_VV_VALUE ? atom(s, m->form.var[i]) : NULL;
		if (a && a->kind == PX_ARG_POINTER && m->form.coef[i] == 1) {
			if (m->ptr)
				return false;
			m->ptr = m->form.var[i];
		} else if (m->form.var[i] >= PX_VV_VALUE && (!a || a->kind == PX_ARG_OTHER)) {
			return false;
		}
	}
	return m->form.known && m->ptr;
}

static int64_t coef_of(const px_aff *a, uint32_t var)
{
	for (unsigned i = 0; i < a->nterms; i++)
		if (a->var[i] == var)
			return a->coef[i];
	return 0;
}

/* What a pair leaves to the threads: the terms other than the threads'
 * indices, the same in both (the pointer, a block index, an atom every
 * thread holds alike) or a free parameter's (*param, at most one, whose
 * coefficients may differ); *whole: nothing but the pointer left out. */
static bool rest_alike(const px_call_site *s, const made *a, const made *b, uint32_t *param, bool *whole)
{
	*param = 0;
	*whole = true;
	for (unsigned k = 0; k < 2; k++) {
		const px_aff *x = k ? &b->form : &a->form, *y = k ? &a->form : &b->form;
		for (unsigned i = 0; i < x->nterms; i++) {
			uint32_t v = x->var[i];
			if (v < PX_VV_NTHREAD)
				continue;
			const px_call_atom *c = v >= PX_VV_VALUE ? atom(s, v) : NULL;
			if (coef_of(y, v) == x->coef[i]) {
				*whole &= v == a->ptr;
				continue;
			}
			if (!c || c->kind != PX_ARG_FREE || (*param && *param != v))
				return false;
			*param = v;
		}
	}
	return true;
}

static void offsets(const px_box *b, uint64_t n, made *m)
{
	int64_t t[PX_VV_NTHREAD];
	m->off = malloc(n * sizeof *m->off);
	if (!m->off)
		abort();
	for (uint64_t k = 0; k < n; k++) {
		px_box_thread(b, k, t);
		m->off[k] = m->form.c;
		for (unsigned i = 0; i < m->form.nterms; i++)
			if (m->form.var[i] < PX_VV_NTHREAD)
				m->off[k] += m->form.coef[i] * t[m->form.var[i]];
	}
}

/* The value of the parameter (coefficient k in the difference) that makes
 * the difference d meet [lo, hi], in [plo, phi]: from 0 up where one is,
 * else the negative one nearest 0; false when none. */
static bool solve(int64_t d, int64_t k, int64_t lo, int64_t hi, int64_t plo, int64_t phi, int64_t *x)
{
	/* lo <= d + k x <= hi */
	int64_t a = lo - d, b = hi - d, xl, xh;
	if (k < 0)
		k = -k, a = d - hi, b = d - lo;
	xl = a >= 0 ? (a + k - 1) / k : -((-a) / k);
	xh = b >= 0 ? b / k : -((-b + k - 1) / k);
	if (xl < plo)
		xl = plo;
	if (xh > phi)
		xh = phi;
	if (xl > xh)
		return false;
	*x = xh < 0 ? xh : xl < 0 ? 0 : xl;
	return true;
}

static void thread_name(char *buf, size_t size, const px_box *b, uint64_t k)
{
	int64_t t[PX_VV_NTHREAD];
	px_box_thread(b, k, t);
	snprintf(buf, size, "(%lld, %lld, %lld)", (long long)(32 * t[PX_VV_WARP_X] + t[PX_VV_LANE]),
	         (long long)t[PX_VV_TID_Y], (long long)t[PX_VV_TID_Z]);
}

static const char *verb(const px_callee_access *c)
{
	return c->atomic ? "updates" : c->writes ? "writes" : "reads";
}

static void report(px_verifier *v, const px_race_record *r, const px_call_site *s, const made *a, const made *b,
                   uint64_t ta, uint64_t tb, uint32_t param, int64_t x, bool whole)
{
	px_diags *d = v->d;
	const px_call_atom *p = atom(s, a->ptr);
	const px_call_atom *q = param ? atom(s, param) : NULL;
	char obj[160], na[64], nb[64];
	snprintf(obj, sizeof obj, "what '%%%.*s' points to", (int)p->name.n, p->name.s);
	thread_name(na, sizeof na, &r->launch, ta);
	thread_name(nb, sizeof nb, &r->launch, tb);
	int64_t oa = a->off[ta] + (q ? coef_of(&a->form, param) * x : 0);
	int64_t ob = b->off[tb] + (q ? coef_of(&b->form, param) * x : 0);
	long long at = oa > ob ? oa : ob;
	unsigned line_a = px_module_line(v->m, a->c->at), line_b = px_module_line(v->m, b->c->at);
	if (q)
		px_warn(d, b->c->at, whole ? PX_D_global_race_param : PX_D_global_race_param_same, b->c->name, verb(b->c),
		        obj, a->c->name, line_a, verb(a->c), (int)q->name.n, q->name.s, (long long)x, nb, na, at);
	else if (a == b)
		px_warn(d, b->c->at, whole ? PX_D_global_race_self : PX_D_global_race_self_same, b->c->name, verb(b->c),
		        obj, na, nb, at);
	else
		px_warn(d, b->c->at, whole ? PX_D_global_race : PX_D_global_race_same, b->c->name, verb(b->c), obj,
		        a->c->name, line_a, verb(a->c), nb, na, at);
	if (a != b)
		px_note(d, a->c->at, PX_D_global_race_first, a->c->name, verb(a->c), obj);
	for (const made *e = a; e; e = e == a && b != a ? b : NULL)
		px_note(d, s->at, PX_D_race_call, (int)s->callee.n, s->callee.s, e->c->name, px_module_line(v->m, e->c->at));
	px_note(d, r->loc, PX_D_shared_race_start, (int)r->name.n, r->name.s, line_a, line_b);
}

/* Whether a and b, made at call s, race between two threads of the block;
 * reported when so. */
static bool pair(px_verifier *v, const px_race_record *r, const px_call_site *s, const made *a, const made *b,
                 uint64_t n, uint64_t *work)
{
	uint32_t param;
	bool whole;
	if (!(a->c->writes || b->c->writes) || (a->c->atomic && b->c->atomic) || a->ptr != b->ptr ||
	    (a == b && a->c->same_store) || !rest_alike(s, a, b, &param, &whole))
		return false;
	const px_call_atom *q = param ? atom(s, param) : NULL;
	int64_t k = q ? coef_of(&b->form, param) - coef_of(&a->form, param) : 0;
	int64_t lo = -(int64_t)(b->c->bytes - 1), hi = (int64_t)a->c->bytes - 1, x = 0;
	for (uint64_t i = 0; i < n; i++)
		for (uint64_t j = 0; j < n; j++) {
			if (i == j)
				continue;
			if (++*work > WORK)
				return false;
			int64_t dd = b->off[j] - a->off[i];
			if (k ? solve(dd, k, lo, hi, q->lo, q->hi, &x) : (dd >= lo && dd <= hi)) {
				report(v, r, s, a, b, i, j, q ? param : 0, x, whole);
				return true;
			}
		}
	return false;
}

void px_check_call_races(px_verifier *v, px_race_record *const *recs, uint32_t nrecs)
{
	uint64_t work = 0;
	for (uint32_t i = 0; i < nrecs; i++) {
		const px_race_record *r = recs[i];
		uint64_t n = r ? px_box_threads(&r->launch, THREADS) : 0;
		if (n == UINT64_MAX)
			n = 0; /* a block past what is walked */
		for (uint32_t c = 0; n && c < r->ncalls; c++) {
			const px_call_site *s = &r->calls[c];
			const px_race_record *callee = NULL;
			for (uint32_t e = 0; !callee && e < nrecs; e++)
				if (recs[e] && recs[e]->acc && recs[e]->name.n == s->callee.n &&
				    !memcmp(recs[e]->name.s, s->callee.s, s->callee.n))
					callee = recs[e];
			if (!callee)
				continue;
			made *m = calloc(callee->nacc + 1, sizeof *m);
			if (!m)
				abort();
			uint32_t nm = 0;
			for (uint32_t k = 0; k < callee->nacc; k++)
				if (make(s, &callee->acc[k], &m[nm]))
					offsets(&r->launch, n, &m[nm++]);
			/* the first race of each access, reported at the later of two */
			for (uint32_t y = 0; y < nm; y++)
				for (uint32_t x = 0; x <= y && !pair(v, r, s, &m[x], &m[y], n, &work); x++)
					;
			for (uint32_t k = 0; k < nm; k++)
				free(m[k].off);
			free(m);
		}
	}
}
