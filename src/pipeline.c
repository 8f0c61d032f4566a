/* libptxemit's one entry point: parse, and as each function closes verify it,
 * select it and print it; then the module header, globals and prototypes go in
 * front. Output exists only when the whole module translated without error. */
#include <pthread.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cubin/cubin.h"
#include "diag/diag.h"
#include "front/sniff.h"
#include "isel/isel.h"
#include "print/print.h"
#include "ptxemit.h"
#include "tables/tables.h"
#include "util/buf.h"
#include "util/huge.h"
#include "verify/verify.h"

void px_options_default(px_options *o)
{
	memset(o, 0, sizeof *o);
	o->emit = PX_EMIT_PTX;
	o->max_errors = 20;
	o->opt_level = -1;
}

typedef struct px_pipeline px_pipeline;

/* What verifies, selects and prints one function at a time. With one job (and
 * in the second pass) the pipeline's own verifier and selector, writing into
 * its body; under -j each thread (the parser's too, when the others fall
 * behind) has its own, and the function's text goes into its job. */
typedef struct px_worker {
	px_pipeline *p;
	px_verifier *v;
	px_isel *s;
	px_buf *out;          /* where the function's text goes */
	px_buf fbody;         /* its instructions, until the register declarations */
	px_diag_mark select_mark; /* s->d's messages when selection began */
	unsigned verify_errors;
	bool selected;
	bool late;            /* selection met a call to a function not defined yet */
	/* -j: its own verifier and selector, and what they keep to the module's
	 * end (pending calls, early callees' names) */
	px_verifier ov;
	px_isel os;
	px_arena keep;
	pthread_t thread;
} px_worker;

/* A function handed on by the parser under -j: it owns the function's
 * memory until it is retired, in text order, by the parser's thread. */
typedef struct px_job {
	struct px_job *next;      /* in the open batch or the queue, or among the spare jobs */
	struct px_job *later;     /* the function after it in the text */
	px_func *f;
	px_arena arena;           /* the function's memory (the parser's fn_arena) */
	px_value *values;         /* and its values (the parser's value_buf) */
	uint32_t value_cap;
	px_module view;           /* what of the module it may see */
	uint32_t ordinal;         /* definitions handed over before it */
	uint32_t callseq;         /* the number of its first call sequence */
	size_t diag_at;           /* the pipeline's own messages when it was handed on */
	unsigned errors_before;   /* and its errors then */
	px_diags d;               /* what translating it reported */
	px_diag_mark select_mark;
	unsigned verify_errors;
	bool selected;
	bool late;
	px_pending_call *pending, **pending_tail;
	px_fn_uses *uses, **uses_tail;
	px_buf out;               /* its text */
	uint32_t nodes;           /* its statements, and 1: its weight in a batch */
	bool done;
} px_job;

/* A call to a function defined later is printed as its callee's parameter and
 * result types require (a literal argument, a discarded or left-out result), so
 * the first pass prints only the functions before the first such call and
 * verifies the rest; the second reads the module again with every signature
 * known and prints from that function on, on the parser's thread. */
struct px_pipeline {
	const px_options *opt;
	px_diags diags;
	px_verifier v;
	px_isel s;
	px_worker serial;         /* v and s: one job, and the second pass */
	px_buf body;
	bool target_done;
	bool second;              /* the second pass is reading the module */
	bool late;                /* a function called a later one: printed by the second pass */
	uint32_t ordinal;         /* definitions handed over so far in this pass */
	uint32_t late_from;       /* the first function the second pass prints */
	uint32_t late_seq;        /* the call sequence number it starts with */
	uint32_t mir_globals;     /* --emit=mir: the variables printed so far */
	uint32_t mir_funcs;       /* and the functions declared or defined */
	px_worker *workers;       /* -j: [0] the parser's thread */
	unsigned nworkers;
	/* -j (nworkers > 1) */
	bool handing;             /* a function was handed on in this pass */
	bool started;             /* the threads run */
	unsigned nthreads;        /* threads started besides the parser's */
	px_job *open, *open_tail; /* the batch being filled (the parser's alone) */
	uint32_t open_nodes;
	uint32_t batch_limit;     /* the open batch is handed on from this many nodes */
	pthread_mutex_t mu;       /* everything below, and the jobs' done */
	pthread_cond_t work, done;
	pthread_mutex_t syms_lock; /* the module's syms (px_module.syms_lock) */
	px_job *queue, *queue_tail; /* handed on, not started */
	uint64_t queued_nodes;    /* the queue's nodes */
	px_job *oldest, *newest;  /* handed on (the open batch too), not retired */
	unsigned unretired;       /* of them, jobs that left the open batch */
	uint64_t unretired_nodes; /* and their nodes */
	bool stop;
	px_job *spare;            /* retired jobs, their memory kept for the next */
	uint32_t callseq;         /* call sequences numbered so far */
	unsigned job_errors;      /* errors of the retired jobs */
	px_diag_part *parts;      /* their messages */
	size_t nparts, cap_parts;
};

/* --driver / --max-ptx: the newest PTX version allowed, and the option
 * that set it as messages name it; 0 for none. An unknown version or a
 * driver older than every version is an error here. */
static uint16_t ptx_limit(px_diags *d, const px_options *o, char *by, size_t size)
{
	uint16_t max = 0;
	if (o->driver) {
		for (unsigned i = 0; i < px_nptx_versions; i++)
			if (px_ptx_driver[i] <= o->driver)
				max = px_ptx_versions[i];
		if (!max)
			px_error_noloc(d, PX_D_driver_too_old, o->driver, px_ptx_versions[0] / 10, px_ptx_versions[0] % 10, px_ptx_driver[0]);
		snprintf(by, size, "--driver=%u", o->driver);
	}
	if (o->max_ptx) {
		uint16_t v = px_ptx_version_parse(o->max_ptx, strlen(o->max_ptx));
		if (!px_ptx_version_known(v))
			px_error_noloc(d, PX_D_unknown_ptx, o->max_ptx);
		else if (!max || v < max) {
			max = v;
			snprintf(by, size, "--max-ptx=%s", o->max_ptx);
		}
	}
	return max;
}

static void resolve_target(px_pipeline *p)
{
	if (p->target_done)
		return;
	p->target_done = true;
	px_verify_target(&p->v);
	p->s.target = p->v.target;
	p->s.ptx = p->v.ptx_given;
	for (unsigned i = 0; p->nworkers > 1 && i < p->nworkers; i++) {
		px_worker *w = &p->workers[i];
		w->ov.target = p->v.target;
		w->ov.ptx_given = p->v.ptx_given;
		/* the target's own PTX version, the floor every node's rules are
		 * judged against when the module names no version */
		w->ov.ptx_needed = p->v.ptx_needed;
		w->ov.target_reported = true; /* the pipeline's verifier says it */
		w->ov.ptx_max = p->v.ptx_max;
		w->ov.ptx_max_by = p->v.ptx_max_by;
		w->os.target = p->s.target;
		w->os.ptx = p->s.ptx;
	}
}

/* With a sink, printed functions are handed over in pieces of about this size. */
enum { SINK_CHUNK = 1 << 18 };

static void put_out(px_pipeline *p, const char *s, size_t n)
{
	if (p->opt->sink && p->body.len + n >= SINK_CHUNK) {
		if (p->body.len)
			p->opt->sink(p->opt->sink_ctx, p->body.data, p->body.len);
		p->body.len = 0;
		p->opt->sink(p->opt->sink_ctx, s, n);
	} else {
		px_buf_put(&p->body, s, n);
	}
}

static void sink_full(px_pipeline *p)
{
	if (p->opt->sink && p->body.len >= SINK_CHUNK) {
		p->opt->sink(p->opt->sink_ctx, p->body.data, p->body.len);
		p->body.len = 0;
	}
}

/* The selector hands on instructions as it goes: --emit=isel prints them in
 * place, PTX behind the register declarations, which need the function's end. */
static void flush_insts(void *ctx, const px_mfunc *mf)
{
	px_worker *w = ctx;
	if (w->p->opt->emit == PX_EMIT_ISEL)
		px_print_isel_insts(w->out, mf->first);
	else
		px_print_insts(&w->fbody, mf, mf->first);
}

static void worker_init(px_pipeline *p, px_worker *w, px_verifier *v, px_isel *s)
{
	w->p = p;
	w->v = v;
	w->s = s;
	s->remarks = p->opt->remarks;
	s->mc_names = p->opt->emit == PX_EMIT_ISEL;
	s->lineinfo = p->opt->lineinfo || p->opt->debug;
	s->ptxmap = (p->opt->cubin || p->opt->resource_usage) && p->opt->emit == PX_EMIT_PTX;
	s->flush = flush_insts;
	s->flush_ctx = w;
	px_buf_init(&w->fbody);
}

/* Verify f; unless that (or, with one job, anything before it) found an
 * error, or select is false, select it and print it into w->out. A function
 * that calls one not defined yet (late) leaves no text. */
static void translate(px_worker *w, px_func *f, bool select)
{
	px_pipeline *p = w->p;
	px_verify_func(w->v, f);
	w->verify_errors = w->v->d->nerrors;
	w->select_mark = px_diags_mark(w->s->d);
	w->selected = select && !w->v->d->nerrors && !p->opt->verify_only;
	w->late = false;
	if (!w->selected)
		return;
	if (p->opt->emit == PX_EMIT_MIR) {
		px_print_mir_func(w->out, w->v->m, f);
		return;
	}
	w->s->late = false;
	if (p->opt->emit == PX_EMIT_ISEL) {
		size_t at = w->out->len;
		px_print_isel_open(w->out, f);
		const px_mfunc *mf = px_select_func(w->s, f);
		px_print_isel_insts(w->out, mf->first);
		px_print_isel_close(w->out);
		if (w->s->late)
			w->out->len = at;
	} else {
		w->fbody.len = 0;
		const px_mfunc *mf = px_select_func(w->s, f);
		if (!w->s->late) {
			px_print_insts(&w->fbody, mf, mf->first);
			px_print_func_open(w->out, mf);
			const char *text = w->fbody.data ? w->fbody.data : "";
			if (w->out == &p->body)
				put_out(p, text, w->fbody.len);
			else
				px_buf_put(w->out, text, w->fbody.len);
			px_print_func_close(w->out);
		}
	}
	w->late = w->s->late;
}

/* ---- -j: functions translated on worker threads ---- */

static void run_job(px_worker *w, px_job *j)
{
	px_verifier *v = w->v;
	px_isel *s = w->s;
	v->m = s->m = &j->view;
	v->d = s->d = &j->d;
	v->pending = NULL;
	v->pending_tail = &v->pending;
	v->uses = NULL;
	v->uses_tail = &v->uses;
	s->a = &j->arena;
	s->callseq = j->callseq;
	j->out.len = 0;
	w->out = &j->out;
	translate(w, j->f, true);
	j->select_mark = w->select_mark;
	j->verify_errors = w->verify_errors;
	j->selected = w->selected;
	j->late = w->late;
	j->pending = v->pending;
	j->pending_tail = v->pending_tail;
	j->uses = v->uses;
	j->uses_tail = v->uses_tail;
	px_valmap_free(&j->f->value_ids);
	px_strmap_free(&j->f->label_ids);
	px_arena_reset(&j->arena);
}

/* The queue's first job, taken out of it (under p->mu). */
static px_job *dequeue(px_pipeline *p)
{
	px_job *j = p->queue;
	p->queue = j->next;
	p->queued_nodes -= j->nodes;
	return j;
}

static void *worker_main(void *arg)
{
	px_worker *w = arg;
	px_pipeline *p = w->p;
	pthread_mutex_lock(&p->mu);
	for (;;) {
		while (!p->queue && !p->stop)
			pthread_cond_wait(&p->work, &p->mu);
		if (!p->queue)
			break;
		px_job *j = dequeue(p);
		pthread_mutex_unlock(&p->mu);
		run_job(w, j);
		pthread_mutex_lock(&p->mu);
		j->done = true;
		pthread_cond_signal(&p->done);
	}
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

/* On the parser's thread, in text order: the job's messages and text join the
 * module's as they would have with one job. Selection counts only where no
 * error and no function calling a later one came before it; the first such
 * function is where the second pass starts, and its selection is taken back. */
static void retire(px_pipeline *p, px_job *j)
{
	unsigned before = j->errors_before + p->job_errors + j->verify_errors;
	bool counts = j->selected && !before && !p->late;
	if (j->selected && (!counts || j->late)) /* one job would not have selected it, or took it back */
		px_diags_rewind(&j->d, j->select_mark);
	if (counts && j->late) {
		p->late = true;
		p->late_from = j->ordinal;
		p->late_seq = j->callseq;
	}
	p->job_errors += j->d.nerrors;
	if (counts && !j->late) {
		put_out(p, j->out.data ? j->out.data : "", j->out.len);
		sink_full(p);
	}
	if (j->d.nkept) {
		if (p->nparts == p->cap_parts) {
			p->cap_parts = p->cap_parts ? p->cap_parts * 2 : 16;
			p->parts = realloc(p->parts, p->cap_parts * sizeof *p->parts);
			if (!p->parts)
				abort();
		}
		p->parts[p->nparts++] = px_diags_take(&j->d, j->diag_at);
	} else {
		free(j->d.kept); /* room for messages taken back */
		j->d.kept = NULL;
	}
	if (j->pending) {
		*p->v.pending_tail = j->pending;
		p->v.pending_tail = j->pending_tail;
	}
	if (j->uses) {
		*p->v.uses_tail = j->uses;
		p->v.uses_tail = j->uses_tail;
	}
	j->next = p->spare;
	p->spare = j;
}

static void retire_done(px_pipeline *p)
{
	for (;;) {
		pthread_mutex_lock(&p->mu);
		px_job *j = p->oldest;
		if (!j || !j->done) {
			pthread_mutex_unlock(&p->mu);
			return;
		}
		p->oldest = j->later;
		p->unretired--;
		p->unretired_nodes -= j->nodes;
		pthread_mutex_unlock(&p->mu);
		retire(p, j);
	}
}

/* Functions join the queue in batches: waking a sleeping thread costs about
 * as much as translating a small function (on a virtual machine), so a thread
 * woken for each function spent its time waking, and the parser's thread,
 * finding the queue still full, translated half of them itself. The threads
 * take the queued functions one at a time, so that the parser's thread can
 * still take some when they fall behind. The first batch is the first
 * function alone, and each batch may be twice the last, up to BATCH_NODES
 * statements: a small module still spreads over the threads, and a large
 * one wakes a thread at most once per BATCH_NODES statements. Each function
 * in flight holds its own memory until it is retired, so batches four times
 * as large used 63 MiB at -j 2 on a module of 1M statements (47 MiB at this
 * size, 42 MiB at -j 1) for the same wall time. */
enum { BATCH_NODES = 1024 };

/* Work in flight stays bounded: when the threads fall behind by more than a
 * batch each, the parser's thread translates queued functions itself; when
 * the functions handed on and not retired pass a batch a thread, it
 * waits for the oldest. all: until everything is retired. Nothing is in the
 * open batch. */
static void settle(px_pipeline *p, bool all)
{
	uint64_t limit = (uint64_t)(p->nworkers + 1) * BATCH_NODES;
	uint64_t behind = (uint64_t)(p->nthreads + 1) * p->batch_limit;
	for (;;) {
		retire_done(p);
		pthread_mutex_lock(&p->mu);
		bool over = all ? p->unretired > 0 : p->queued_nodes > behind || p->unretired_nodes >= limit;
		if (!over) {
			pthread_mutex_unlock(&p->mu);
			return;
		}
		if (p->queue) {
			px_job *j = dequeue(p);
			pthread_mutex_unlock(&p->mu);
			run_job(&p->workers[0], j);
			pthread_mutex_lock(&p->mu);
			j->done = true;
		} else if (!p->oldest->done) {
			pthread_cond_wait(&p->done, &p->mu);
		}
		pthread_mutex_unlock(&p->mu);
	}
}

/* The open batch joins the queue, and a thread sleeping on it wakes. */
static void publish(px_pipeline *p)
{
	px_job *first = p->open;
	if (!first)
		return;
	uint64_t nodes = p->open_nodes;
	unsigned jobs = 0;
	for (px_job *j = first; j; j = j->next)
		jobs++;
	pthread_mutex_lock(&p->mu);
	if (p->queue)
		p->queue_tail->next = first;
	else
		p->queue = first;
	p->queue_tail = p->open_tail;
	p->queued_nodes += nodes;
	p->unretired += jobs;
	p->unretired_nodes += nodes;
	pthread_cond_signal(&p->work);
	pthread_mutex_unlock(&p->mu);
	p->open = p->open_tail = NULL;
	p->open_nodes = 0;
	if (p->batch_limit < BATCH_NODES)
		p->batch_limit *= 2;
}

/* Everything handed on is translated and retired. */
static void drain(px_pipeline *p)
{
	publish(p);
	settle(p, true);
}

static void quiesce(void *ctx)
{
	px_pipeline *p = ctx;
	if (p->handing)
		drain(p);
}

static void start_threads(px_pipeline *p)
{
	p->started = true;
	for (unsigned i = 1; i < p->nworkers; i++) {
		if (pthread_create(&p->workers[i].thread, NULL, worker_main, &p->workers[i]))
			break; /* the threads there are (the parser's at least) do the work */
		p->nthreads++;
	}
}

static void hand_on(px_pipeline *p, px_module *m, px_func *f, uint32_t ordinal)
{
	p->handing = true;
	px_job *j = p->spare;
	if (j) {
		p->spare = j->next;
	} else {
		j = calloc(1, sizeof *j);
		if (!j)
			abort();
		px_arena_init(&j->arena);
		px_buf_init(&j->out);
	}
	/* the job takes the function's memory; the parser goes on in the job's */
	px_arena a = m->fn_arena;
	m->fn_arena = j->arena;
	j->arena = a;
	px_value *values = m->value_buf;
	uint32_t value_cap = m->value_cap;
	m->value_buf = j->values;
	m->value_cap = j->value_cap;
	j->values = values;
	j->value_cap = value_cap;
	m->fn_taken = true;
	j->f = f;
	j->ordinal = ordinal;
	px_module_view(&j->view, m);
	j->callseq = p->callseq;
	p->callseq += f->ncalls;
	j->diag_at = p->diags.nkept;
	j->errors_before = p->diags.nerrors;
	px_diags_init(&j->d, p->diags.file, p->diags.src, p->diags.len, p->diags.fn, p->diags.ctx, 0);
	j->d.warn = p->diags.warn;
	j->next = j->later = NULL;
	j->nodes = f->nnodes + 1;
	j->done = false;
	if (p->open)
		p->open_tail->next = j;
	else
		p->open = j;
	p->open_tail = j;
	p->open_nodes += j->nodes;
	/* in the text order chain from now on; retire_done stops at the first
	 * job not done, and nothing in the open batch is */
	pthread_mutex_lock(&p->mu);
	if (p->oldest)
		p->newest->later = j;
	else
		p->oldest = j;
	p->newest = j;
	pthread_mutex_unlock(&p->mu);
	if (p->open_nodes < p->batch_limit)
		return;
	publish(p);
	if (!p->started) {
		/* the threads start with a second function: a module of one
		 * function has it translated at its end on the parser's thread */
		if (p->unretired < 2)
			return;
		start_threads(p);
	}
	settle(p, false);
}

/* Every function handed on is retired; the threads end; what they found
 * joins the module's. */
static void finish_jobs(px_pipeline *p, px_module *m)
{
	if (!p->handing)
		return;
	drain(p);
	if (p->started) {
		pthread_mutex_lock(&p->mu);
		p->stop = true;
		pthread_cond_broadcast(&p->work);
		pthread_mutex_unlock(&p->mu);
		for (unsigned i = 1; i <= p->nthreads; i++)
			pthread_join(p->workers[i].thread, NULL);
	}
	p->handing = p->started = false;
	m->syms_lock = NULL;
	px_diags_merge(&p->diags, p->parts, p->nparts);
	p->nparts = 0;
	p->diags.nerrors += p->job_errors;
	for (unsigned i = 0; i < p->nworkers; i++) {
		const px_worker *w = &p->workers[i];
		if (w->ov.ptx_needed > p->v.ptx_needed)
			p->v.ptx_needed = w->ov.ptx_needed;
		const px_strmap *calls = &w->os.early_calls;
		for (uint32_t k = 0; k < calls->cap; k++)
			if (calls->slots[k].key)
				px_strmap_put(&p->s.early_calls, calls->slots[k].key, calls->slots[k].len, 1);
	}
}

/* Called by the parser as each function closes; the function arena is reset
 * after it returns, so whatever is printed must be printed now (or the
 * function taken, under -j). */
/* --emit=mir: what the text has before place (every item left when place is
 * unknown), in its order: the variables, and the functions only declared;
 * a function defined is printed where its body closes. */
static void mir_items(px_pipeline *p, const px_module *m, px_loc place, px_buf *out)
{
	for (; p->mir_globals < m->nglobals; p->mir_globals++)
		px_print_mir_global(out, m, &m->globals[p->mir_globals]);
	for (; p->mir_funcs < m->nfuncs; p->mir_funcs++) {
		const px_funcsig *sig = &m->funcs[p->mir_funcs];
		if (px_loc_known(place) && sig->loc.pos >= place.pos)
			break;
		if (!sig->defined)
			px_print_mir_decl(out, sig);
	}
}

static void on_function(px_module *m, px_func *f, void *ctx)
{
	px_pipeline *p = ctx;
	/* a declaration changes nothing here: the parser may still take it back
	 * (px_parse parses an item again after a syntax error) */
	if (f->is_decl)
		return;
	uint32_t ordinal = p->ordinal++;
	if (p->second && ordinal < p->late_from)
		return; /* printed by the first pass */
	if (p->second && ordinal == p->late_from)
		p->s.callseq = p->late_seq;
	resolve_target(p);
	/* a body with syntax errors lost statements: checking it would only add
	 * follow-on errors to the ones already reported */
	if (f->nerrors)
		return;
	if (p->nworkers > 1 && !p->second) {
		px_verify_has_target(&p->v, f);
		hand_on(p, m, f, ordinal);
		return;
	}
	px_worker *w = &p->serial;
	w->out = &p->body;
	if (p->opt->emit == PX_EMIT_MIR) {
		mir_items(p, m, f->loc, &p->body);
		if (p->mir_funcs < m->nfuncs && m->funcs[p->mir_funcs].loc.pos == f->loc.pos)
			p->mir_funcs++; /* its own signature */
	}
	uint32_t seq = p->s.callseq;
	translate(w, f, !p->late);
	if (w->late) { /* what selecting it did is taken back */
		p->late = true;
		p->late_from = ordinal;
		p->late_seq = seq;
		px_diags_rewind(&p->diags, w->select_mark);
		return;
	}
	sink_full(p);
}

static void drop_diag(void *ctx, const px_diagnostic *d)
{
	(void)ctx;
	(void)d;
}

/* The second pass over the text of m1, which translated without error: the
 * verifier reads every signature in m1 and reports to no one (it found
 * nothing the first time); the selector reports its remarks as the first pass
 * would have. m2 is kept until the output is complete (the prototypes' names). */
static void second_pass(px_pipeline *p, px_module *m1, px_module *m2)
{
	px_diags quiet;
	px_diags_init(&quiet, m1->filename, m1->src, m1->srclen, drop_diag, NULL, 0);
	px_module_init(m2, m1->filename, m1->src, m1->srclen, &quiet);
	m2->on_function = on_function;
	m2->hook_ctx = p;
	p->v.d = &quiet;
	p->s.m = m2;
	p->s.a = &m2->fn_arena;
	p->s.sigs = m1;
	p->second = true;
	p->late = false;
	p->ordinal = 0;
	px_parse(m2);
	p->v.d = &p->diags;
	p->s.sigs = NULL;
	px_diags_flush(&quiet);
}

/* Header, globals and the prototypes a call needs before its callee. */
static void print_front(px_pipeline *p, px_module *m, px_buf *out)
{
	px_print_header(out, p->v.target, px_verify_ptx_version(&p->v), p->opt->debug);
	if (p->opt->lineinfo || p->opt->debug)
		px_print_files(out, m);
	/* a function whose address initializes a variable is declared before it */
	px_strmap inits;
	px_strmap_init(&inits);
	for (uint32_t i = 0; i < m->nglobals; i++)
		for (uint32_t k = 0; k < m->globals[i].ninit; k++) {
			const px_opnd *o = &m->globals[i].init[k];
			uint32_t s = o->kind == PX_O_SYM ? px_strmap_get(&m->syms, o->sym.s, o->sym.n) : PX_STRMAP_NONE;
			if (s != PX_STRMAP_NONE && (s & 1))
				px_strmap_put(&inits, o->sym.s, o->sym.n, 1);
		}
	for (int pass = 0; pass < 2; pass++) {
		if (pass)
			px_print_globals(out, m);
		bool any = false;
		for (uint32_t i = 0; i < m->nfuncs; i++) {
			const px_funcsig *sig = &m->funcs[i];
			bool early = px_strmap_get(&p->s.early_calls, sig->name.s, sig->name.n) != PX_STRMAP_NONE;
			bool init = px_strmap_get(&inits, sig->name.s, sig->name.n) != PX_STRMAP_NONE;
			if (sig->is_kernel || init != !pass || (!init && sig->defined && !early))
				continue;
			px_print_func_decl(out, sig, px_print_linkage(sig->defined ? sig->linkage : PX_LINK_EXTERN));
			any = true;
		}
		if (any && pass)
			px_buf_putc(out, '\n');
	}
	px_strmap_free(&inits);
}

/* Assemble the translated text (*out, with the printer's marks): the marks
 * come out, ptxas's messages go to diag, and with opt->cubin the cubin
 * replaces the text. Returns the errors; on any, *out is NULL. */
static int assemble_out(px_pipeline *p, px_module *m, px_diag_fn diag, void *diag_ctx, char **out,
                        size_t *outlen)
{
	const px_options *opt = p->opt;
	size_t len = *outlen ? *outlen : strlen(*out);
	px_ptxmap map;
	px_ptxmap_strip(*out, &len, &map);
	px_diags d;
	px_diags_init(&d, m->filename, m->src, m->srclen, diag, diag_ctx, opt->max_errors);
	d.lines = m->lines;
	d.dsl = &m->dsl;
	px_ptxas_report rep = {0};
	char *cubin = NULL;
	size_t cubinlen = 0;
	int errors = px_assemble(opt, p->v.target->name, m, *out, len, &map, &d, &rep, &cubin, &cubinlen);
	px_diags_flush(&d);
	px_ptxas_report_free(&rep);
	px_ptxmap_free(&map);
	if (errors || opt->cubin) {
		free(*out);
		*out = errors ? NULL : cubin;
		len = errors ? 0 : cubinlen;
	}
	if (outlen)
		*outlen = len;
	return errors;
}

int px_translate(const char *filename, const char *src, size_t len, const px_options *opt,
                 px_diag_fn diag, void *diag_ctx, char **out, size_t *outlen)
{
	px_options defaults;
	if (!opt) {
		px_options_default(&defaults);
		opt = &defaults;
	}
	/* the text to assemble is kept whole, with the printer's marks */
	bool assemble = (opt->cubin || opt->resource_usage) && !opt->verify_only && opt->emit == PX_EMIT_PTX;
	px_options whole;
	if (assemble && opt->sink) {
		whole = *opt;
		whole.sink = NULL;
		opt = &whole;
	}
	*out = NULL;
	if (outlen)
		*outlen = 0;
	px_pipeline p;
	memset(&p, 0, sizeof p);
	p.opt = opt;
	px_diags_init(&p.diags, filename, src, len, diag, diag_ctx, opt->max_errors);
	p.diags.warn = opt;
	/* input past px_loc's 32-bit offsets is refused by the parser, unread */
	if (len <= INT32_MAX - 2 && px_sniff(&p.diags, &src, &len)) {
		int errors = (int)p.diags.nerrors;
		px_diags_flush(&p.diags);
		return errors;
	}
	px_module m;
	px_module_init(&m, filename, src, len, &p.diags);
	m.on_function = on_function;
	m.hook_ctx = &p;
	px_verifier_init(&p.v, &m, &p.diags, opt->target, opt->ptx);
	char limit_by[64];
	p.v.ptx_max = ptx_limit(&p.diags, opt, limit_by, sizeof limit_by);
	p.v.ptx_max_by = limit_by;
	px_isel_init(&p.s, &m, &p.diags);
	px_buf_init(&p.body);
	worker_init(&p, &p.serial, &p.v, &p.s);
	/* --emit=mir prints each function as it is verified, in the text's order
	 * among the variables and declarations: one job */
	p.nworkers = opt->jobs > 1 && opt->emit != PX_EMIT_MIR ? opt->jobs : 1;
	p.batch_limit = 1;
	if (p.nworkers > 1) {
		p.workers = calloc(p.nworkers, sizeof *p.workers);
		if (!p.workers)
			abort();
		for (unsigned i = 0; i < p.nworkers; i++) {
			px_worker *w = &p.workers[i];
			px_verifier_init(&w->ov, &m, NULL, opt->target, opt->ptx);
			px_isel_init(&w->os, &m, NULL);
			px_arena_init(&w->keep);
			w->ov.keep = w->os.keep = &w->keep;
			worker_init(&p, w, &w->ov, &w->os);
		}
		pthread_mutex_init(&p.mu, NULL);
		pthread_mutex_init(&p.syms_lock, NULL);
		pthread_cond_init(&p.work, NULL);
		pthread_cond_init(&p.done, NULL);
		m.syms_lock = &p.syms_lock;
		m.quiesce = quiesce;
	}

	px_parse(&m);
	finish_jobs(&p, &m);
	resolve_target(&p);
	px_verify_globals(&p.v);
	px_verify_module_end(&p.v);
	px_module m2;
	bool two = p.late && !p.diags.nerrors;
	if (two)
		second_pass(&p, &m, &m2);

	int errors = (int)p.diags.nerrors;
	px_diags_flush(&p.diags);
	if (!errors) {
		px_buf result;
		px_buf_init(&result);
		if (opt->emit == PX_EMIT_MIR && !opt->verify_only) {
			mir_items(&p, &m, (px_loc){0}, &p.body);
			px_print_mir_target(&result, &m);
		}
		if (!opt->verify_only && opt->sink) {
			if (opt->emit == PX_EMIT_PTX)
				print_front(&p, &m, &result);
			if (p.body.len)
				opt->sink(opt->sink_ctx, p.body.data, p.body.len);
		} else if (!opt->verify_only && opt->emit == PX_EMIT_PTX) {
			print_front(&p, &m, &result);
			px_buf_put(&result, p.body.data ? p.body.data : "", p.body.len);
		} else if (!opt->verify_only) {
			px_buf_put(&result, p.body.data ? p.body.data : "", p.body.len);
		}
		*out = px_buf_take(&result, outlen);
		if (assemble)
			errors += assemble_out(&p, &m, diag, diag_ctx, out, outlen);
	}
	px_buf_free(&p.body);
	px_buf_free(&p.serial.fbody);
	for (unsigned i = 0; p.nworkers > 1 && i < p.nworkers; i++) {
		px_worker *w = &p.workers[i];
		px_buf_free(&w->fbody);
		px_isel_free(&w->os);
		px_verifier_free(&w->ov);
		px_arena_free(&w->keep);
	}
	free(p.workers);
	while (p.spare) {
		px_job *j = p.spare;
		p.spare = j->next;
		px_arena_free(&j->arena);
		px_huge_free(j->values, (size_t)j->value_cap * sizeof *j->values);
		px_buf_free(&j->out);
		free(j);
	}
	free(p.parts);
	if (p.nworkers > 1) {
		pthread_mutex_destroy(&p.mu);
		pthread_mutex_destroy(&p.syms_lock);
		pthread_cond_destroy(&p.work);
		pthread_cond_destroy(&p.done);
	}
	px_isel_free(&p.s);
	px_verifier_free(&p.v);
	if (two)
		px_module_free(&m2);
	px_module_free(&m);
	return errors;
}
