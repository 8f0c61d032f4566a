/* The scheduler: each function the parser hands on is a job, its unit of
 * work (px_unit) translated by a worker (px_pipeline_translate, the stages
 * as straight calls) and retired in text order on the parser's thread,
 * where its text and messages join the module's as they would have had the
 * functions been translated one after another. Without threads (one job) a
 * job runs and is retired as it is handed on; under -j it waits in a queue
 * that the threads, and the parser's thread when they fall behind, take
 * from.
 *
 * A function that calls one defined later cannot be selected until that
 * one's signature is known: it is held (its IR kept, in its job's arena),
 * and the functions after it, translated as usual, keep their text and
 * their selection's messages in their jobs (the chain) until the module is
 * read, when the held ones are selected and everything joins the module's
 * in text order (px_jobs_finish). The memory that costs is the held
 * functions' IR and the text after the first of them. Measured on make
 * bench's one-kernel module (1M statements, -j 1) with a call at its top to a
 * function defined after it: a peak of 457 MB, against 391 MB where the
 * function comes first (66 bytes a statement more), and 2.2 s; reading the
 * module a second time, as ptxemit did before, took 681 MB and 3.6 s. */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "pipeline.h"
#include "util/huge.h"

/* A function handed on by the parser. Queued, it owns the function's memory
 * until it is retired, in text order, by the parser's thread. */
typedef struct px_job {
	struct px_job *next;      /* in the open batch or the queue, or among the spare jobs */
	struct px_job *later;     /* the function after it in the text */
	px_unit u;                /* the function's translation */
	px_arena arena;           /* a queued function's memory (the parser's fn_arena) */
	px_value *values;         /* and its values (the parser's value_buf) */
	uint32_t value_cap;
	size_t diag_at;           /* the pipeline's own messages when it was handed on */
	unsigned errors_before;   /* and its errors then */
	bool direct;              /* run as it was handed on: its text goes straight into the body */
	px_buf out;               /* a queued (or chained) function's text */
	uint32_t nodes;           /* its statements, and 1: its weight in a batch */
	bool done;
	bool held;                /* in the chain: selected at the module's end */
	unsigned sel_errors;      /* in the chain: its selection's errors */
} px_job;

struct px_jobs {
	px_module *m;             /* the module being read */
	px_symtab syms;           /* its names' guard while threads read them */
	bool threads;             /* jobs are queued for threads */
	bool started;             /* the threads run */
	unsigned nthreads;        /* threads started besides the parser's */
	pthread_t *thread;        /* [i] runs p->workers[i] */
	px_job *open, *open_tail; /* the batch being filled (the parser's alone) */
	uint32_t open_nodes;
	uint32_t batch_limit;     /* the open batch is handed on from this many nodes */
	px_job *spare;            /* retired jobs, their memory kept for the next */
	uint32_t callseq;         /* call sequences numbered so far */
	unsigned errors;          /* errors of the retired jobs */
	px_diag_part *parts;      /* their messages */
	size_t nparts, cap_parts;
	/* from the first held function on, the retired jobs in text order
	 * (linked by next), and the errors their selections made */
	px_job *chain, *chain_tail;
	unsigned chain_errors;
	pthread_mutex_t syms_mu;  /* m->syms, while threads read it */
	pthread_mutex_t mu;       /* everything below, and the jobs' done */
	pthread_cond_t work, done;
	px_job *queue, *queue_tail; /* handed on, not started */
	uint64_t queued_nodes;    /* the queue's nodes */
	px_job *oldest, *newest;  /* handed on (the open batch too), not retired */
	unsigned unretired;       /* of them, jobs that left the open batch */
	uint64_t unretired_nodes; /* and their nodes */
	bool stop;
};

/* ---- the module's names while threads read them (m->symtab) ---- */

static uint32_t sym_get(void *ctx, const px_strmap *syms, px_str name)
{
	struct px_jobs *q = ((px_pipeline *)ctx)->jobs;
	pthread_mutex_lock(&q->syms_mu);
	uint32_t e = px_strmap_get(syms, name.s, name.n);
	pthread_mutex_unlock(&q->syms_mu);
	return e;
}

static void sym_put(void *ctx, px_strmap *syms, px_str name, uint32_t entry)
{
	struct px_jobs *q = ((px_pipeline *)ctx)->jobs;
	pthread_mutex_lock(&q->syms_mu);
	px_strmap_put(syms, name.s, name.n, entry);
	pthread_mutex_unlock(&q->syms_mu);
}

static void sym_remove(void *ctx, px_strmap *syms, px_str name)
{
	struct px_jobs *q = ((px_pipeline *)ctx)->jobs;
	pthread_mutex_lock(&q->syms_mu);
	px_strmap_remove(syms, name.s, name.n);
	pthread_mutex_unlock(&q->syms_mu);
}

static void drain(px_pipeline *p);

/* A signature is about to change in place: no job may be reading it. */
static void quiesce(void *ctx) { drain(ctx); }

/* ---- running and retiring ---- */

static void take_memory(px_job *j, px_module *m);
static void release(px_job *j);

static void add_part(struct px_jobs *q, px_diag_part part)
{
	if (!part.n) {
		free(part.kept);
		return;
	}
	if (q->nparts == q->cap_parts) {
		q->cap_parts = q->cap_parts ? q->cap_parts * 2 : 16;
		q->parts = realloc(q->parts, q->cap_parts * sizeof *q->parts);
		if (!q->parts)
			abort();
	}
	q->parts[q->nparts++] = part;
}

/* What the job collected joins the parts, placed at at. */
static void take_messages(struct px_jobs *q, px_job *j, size_t at)
{
	if (j->u.d.nkept) {
		add_part(q, px_diags_take(&j->u.d, at));
	} else {
		free(j->u.d.kept); /* room for messages taken back */
		j->u.d.kept = NULL;
	}
}

static void run_job(px_worker *w, px_job *j)
{
	j->out.len = 0;
	/* a direct job runs on the parser's thread, which alone changes the chain */
	j->u.out = j->direct && !w->p->jobs->chain ? &w->p->body : &j->out;
	px_pipeline_translate(w, &j->u);
	if (!j->direct && !j->u.late) /* a late function may be held (retire) */
		release(j);
}

/* A queued or held function's memory goes back. */
static void release(px_job *j)
{
	px_valmap_free(&j->u.f->value_ids);
	px_strmap_free(&j->u.f->label_ids);
	px_arena_reset(&j->arena);
}

/* The job joins the chain: a late one held, its function's memory its own;
 * the verifier's messages join the module's now, the selection's and the
 * text wait for px_jobs_finish. */
static void chain(px_pipeline *p, px_job *j, bool hold)
{
	struct px_jobs *q = p->jobs;
	j->held = hold;
	if (hold && j->direct)
		take_memory(j, q->m); /* the parser goes on in the job's arena */
	j->sel_errors = j->u.d.nerrors - j->u.select_mark.nerrors;
	q->chain_errors += j->sel_errors;
	add_part(q, px_diags_take_first(&j->u.d, j->diag_at, j->u.select_mark.nkept));
	j->next = NULL;
	if (q->chain)
		q->chain_tail->next = j;
	else
		q->chain = j;
	q->chain_tail = j;
}

/* On the parser's thread, in text order: the job's messages and text join the
 * module's. Selection counts only where no error came before it; a function
 * that calls a later one is held, and it and every function after it join
 * the chain. */
static void retire(px_pipeline *p, px_job *j)
{
	struct px_jobs *q = p->jobs;
	unsigned before = j->errors_before + q->errors + j->u.verify_errors;
	bool counts = j->u.selected && !before;
	if (j->u.selected && (!counts || j->u.late)) /* one job would not have selected it, or took it back */
		px_diags_rewind(&j->u.d, j->u.select_mark);
	bool hold = counts && j->u.late;
	if (j->u.late && !hold && !j->direct)
		release(j);
	q->errors += j->u.d.nerrors;
	if (hold || q->chain) {
		chain(p, j, hold);
		px_pipeline_join(p, &j->u);
		return;
	}
	if (counts && !j->u.late) {
		if (!j->direct)
			px_pipeline_put(p, j->out.data ? j->out.data : "", j->out.len);
		px_pipeline_sink_full(p);
	}
	take_messages(q, j, j->diag_at);
	px_pipeline_join(p, &j->u);
	j->next = q->spare;
	q->spare = j;
}

/* ---- -j: the queue and the threads ---- */

/* The queue's first job, taken out of it (under q->mu). */
static px_job *dequeue(struct px_jobs *q)
{
	px_job *j = q->queue;
	q->queue = j->next;
	q->queued_nodes -= j->nodes;
	return j;
}

static void *worker_main(void *arg)
{
	px_worker *w = arg;
	struct px_jobs *q = w->p->jobs;
	pthread_mutex_lock(&q->mu);
	for (;;) {
		while (!q->queue && !q->stop)
			pthread_cond_wait(&q->work, &q->mu);
		if (!q->queue)
			break;
		px_job *j = dequeue(q);
		pthread_mutex_unlock(&q->mu);
		run_job(w, j);
		pthread_mutex_lock(&q->mu);
		j->done = true;
		pthread_cond_signal(&q->done);
	}
	pthread_mutex_unlock(&q->mu);
	return NULL;
}

static void retire_done(px_pipeline *p)
{
	struct px_jobs *q = p->jobs;
	for (;;) {
		pthread_mutex_lock(&q->mu);
		px_job *j = q->oldest;
		if (!j || !j->done) {
			pthread_mutex_unlock(&q->mu);
			return;
		}
		q->oldest = j->later;
		q->unretired--;
		q->unretired_nodes -= j->nodes;
		pthread_mutex_unlock(&q->mu);
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
 * in flight holds its own memory until it is retired, so larger batches cost
 * memory and buy no wall time (make bench measures both). */
enum { BATCH_NODES = 1024 };

/* Work in flight stays bounded: when the threads fall behind by more than a
 * batch each, the parser's thread translates queued functions itself; when
 * the functions handed on and not retired pass a batch a thread, it
 * waits for the oldest. all: until everything is retired. Nothing is in the
 * open batch. */
static void settle(px_pipeline *p, bool all)
{
	struct px_jobs *q = p->jobs;
	uint64_t limit = (uint64_t)(p->nworkers + 1) * BATCH_NODES;
	uint64_t behind = (uint64_t)(q->nthreads + 1) * q->batch_limit;
	for (;;) {
		retire_done(p);
		pthread_mutex_lock(&q->mu);
		bool over = all ? q->unretired > 0 : q->queued_nodes > behind || q->unretired_nodes >= limit;
		if (!over) {
			pthread_mutex_unlock(&q->mu);
			return;
		}
		if (q->queue) {
			px_job *j = dequeue(q);
			pthread_mutex_unlock(&q->mu);
			run_job(&p->workers[0], j);
			pthread_mutex_lock(&q->mu);
			j->done = true;
		} else if (!q->oldest->done) {
			pthread_cond_wait(&q->done, &q->mu);
		}
		pthread_mutex_unlock(&q->mu);
	}
}

/* The open batch joins the queue, and a thread sleeping on it wakes. */
static void publish(struct px_jobs *q)
{
	px_job *first = q->open;
	if (!first)
		return;
	uint64_t nodes = q->open_nodes;
	unsigned jobs = 0;
	for (px_job *j = first; j; j = j->next)
		jobs++;
	pthread_mutex_lock(&q->mu);
	if (q->queue)
		q->queue_tail->next = first;
	else
		q->queue = first;
	q->queue_tail = q->open_tail;
	q->queued_nodes += nodes;
	q->unretired += jobs;
	q->unretired_nodes += nodes;
	pthread_cond_signal(&q->work);
	pthread_mutex_unlock(&q->mu);
	q->open = q->open_tail = NULL;
	q->open_nodes = 0;
	if (q->batch_limit < BATCH_NODES)
		q->batch_limit *= 2;
}

/* Everything handed on is translated and retired. */
static void drain(px_pipeline *p)
{
	publish(p->jobs);
	settle(p, true);
}

static void start_threads(px_pipeline *p)
{
	struct px_jobs *q = p->jobs;
	q->started = true;
	for (unsigned i = 1; i < p->nworkers; i++) {
		if (pthread_create(&q->thread[i], NULL, worker_main, &p->workers[i]))
			break; /* the threads there are (the parser's at least) do the work */
		q->nthreads++;
	}
}

/* The job takes the function's memory; the parser goes on in the job's. */
static void take_memory(px_job *j, px_module *m)
{
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
	j->u.a = &j->arena;
}

/* The job joins the open batch, which is handed on once large enough. */
static void queue(px_pipeline *p, px_job *j)
{
	struct px_jobs *q = p->jobs;
	if (q->open)
		q->open_tail->next = j;
	else
		q->open = j;
	q->open_tail = j;
	q->open_nodes += j->nodes;
	/* in the text order chain from now on; retire_done stops at the first
	 * job not done, and nothing in the open batch is */
	pthread_mutex_lock(&q->mu);
	if (q->oldest)
		q->newest->later = j;
	else
		q->oldest = j;
	q->newest = j;
	pthread_mutex_unlock(&q->mu);
	if (q->open_nodes < q->batch_limit)
		return;
	publish(q);
	if (!q->started) {
		/* the threads start with a second function: a module of one
		 * function has it translated at its end on the parser's thread */
		if (q->unretired < 2)
			return;
		start_threads(p);
	}
	settle(p, false);
}

/* ---- the pipeline's side ---- */

void px_jobs_begin(px_pipeline *p, px_module *m, bool threads)
{
	struct px_jobs *q = p->jobs;
	if (!q) {
		q = p->jobs = calloc(1, sizeof *q);
		if (!q)
			abort();
		q->thread = calloc(p->nworkers, sizeof *q->thread);
		if (!q->thread)
			abort();
		pthread_mutex_init(&q->syms_mu, NULL);
		pthread_mutex_init(&q->mu, NULL);
		pthread_cond_init(&q->work, NULL);
		pthread_cond_init(&q->done, NULL);
	}
	q->m = m;
	q->threads = threads;
	q->callseq = 0;
	q->batch_limit = 1;
	if (threads) {
		q->syms = (px_symtab){sym_get, sym_put, sym_remove, quiesce, p};
		m->symtab = &q->syms;
	}
}

void px_jobs_hand_on(px_pipeline *p, px_module *m, px_func *f)
{
	struct px_jobs *q = p->jobs;
	px_job *j = q->spare;
	if (j) {
		q->spare = j->next;
	} else {
		j = calloc(1, sizeof *j);
		if (!j)
			abort();
		px_arena_init(&j->arena);
		px_buf_init(&j->out);
	}
	j->u.f = f;
	px_module_view(&j->u.view, m);
	j->u.callseq = q->callseq;
	q->callseq += f->ncalls;
	j->diag_at = p->diags.nkept;
	j->errors_before = p->diags.nerrors;
	/* a selection that could not count is not made */
	j->u.select = !j->errors_before && !q->errors;
	px_diags_init(&j->u.d, p->diags.file, p->diags.src, p->diags.len, p->diags.fn, p->diags.ctx, 0);
	j->u.d.warn = p->diags.warn;
	j->next = j->later = NULL;
	j->nodes = f->nnodes + 1;
	j->done = false;
	j->direct = !q->threads;
	if (j->direct) {
		/* everything before it is retired: the function's memory stays the
		 * parser's and its text goes straight into the module's */
		j->u.a = &m->fn_arena;
		run_job(&p->workers[0], j);
		retire(p, j);
		return;
	}
	take_memory(j, m);
	queue(p, j);
}

void px_jobs_end(px_pipeline *p)
{
	struct px_jobs *q = p->jobs;
	drain(p);
	if (q->started) {
		pthread_mutex_lock(&q->mu);
		q->stop = true;
		pthread_cond_broadcast(&q->work);
		pthread_mutex_unlock(&q->mu);
		for (unsigned i = 1; i <= q->nthreads; i++)
			pthread_join(q->thread[i], NULL);
		q->started = q->stop = false;
		q->nthreads = 0;
	}
	if (q->threads)
		q->m->symtab = NULL;
	if (q->nparts)
		px_diags_merge(&p->diags, q->parts, q->nparts);
	q->nparts = 0;
	p->diags.nerrors += q->errors;
	q->errors = 0;
}

void px_jobs_finish(px_pipeline *p)
{
	struct px_jobs *q = p->jobs;
	/* an error outside the chain's selections (the verifier's, the module's
	 * own checks') stops every selection of it, as a selection's own error
	 * stops those after it */
	bool stop = p->diags.nerrors > q->chain_errors;
	for (px_job *j = q->chain, *next; j; j = next) {
		next = j->next;
		if (stop) {
			p->diags.nerrors -= j->sel_errors;
			px_diags_rewind(&j->u.d, (px_diag_mark){0, j->u.d.nerrors - j->sel_errors});
		} else {
			if (j->held) {
				j->out.len = 0;
				j->u.out = &j->out;
				j->sel_errors = px_pipeline_select_held(&p->workers[0], &j->u, q->m);
				p->diags.nerrors += j->sel_errors;
			}
			px_pipeline_put(p, j->out.data ? j->out.data : "", j->out.len);
			px_pipeline_sink_full(p);
			stop = j->sel_errors > 0;
		}
		take_messages(q, j, p->diags.nkept);
		if (j->held)
			release(j);
		j->next = q->spare;
		q->spare = j;
	}
	q->chain = q->chain_tail = NULL;
	q->chain_errors = 0;
	if (q->nparts)
		px_diags_merge(&p->diags, q->parts, q->nparts);
	q->nparts = 0;
}

void px_jobs_free(px_pipeline *p)
{
	struct px_jobs *q = p->jobs;
	if (!q)
		return;
	while (q->spare) {
		px_job *j = q->spare;
		q->spare = j->next;
		px_arena_free(&j->arena);
		px_huge_free(j->values, (size_t)j->value_cap * sizeof *j->values);
		px_buf_free(&j->out);
		free(j);
	}
	free(q->parts);
	free(q->thread);
	pthread_mutex_destroy(&q->syms_mu);
	pthread_mutex_destroy(&q->mu);
	pthread_cond_destroy(&q->work);
	pthread_cond_destroy(&q->done);
	free(q);
	p->jobs = NULL;
}
