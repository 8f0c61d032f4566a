/* What the stage order (pipeline.c) and the scheduler that runs it over the
 * module's functions (jobs.c) share; private to the library. */
#ifndef PX_PIPELINE_H
#define PX_PIPELINE_H
#include <stdbool.h>
#include <stdint.h>

#include "diag/diag.h"
#include "front/ir.h"
#include "isel/isel.h"
#include "ptxemit.h"
#include "util/arena.h"
#include "util/buf.h"
#include "util/strmap.h"
#include "verify/verify.h"

typedef struct px_pipeline px_pipeline;

/* One function's translation, a unit of the scheduler's work: the function
 * and what verifying, selecting and printing it read (a view of the module
 * as far as the text has gone, its own messages and arena), and what they
 * come to. The scheduler (jobs.c) hands units to the stages here and never
 * sees a verifier or a selector. */
typedef struct px_unit {
	px_func *f;
	px_module view;           /* what of the module it may see */
	px_arena *a;              /* where its selection allocates */
	px_diags d;               /* what translating it reported */
	uint32_t callseq;         /* the number of its first call sequence */
	bool select;              /* select it when it verifies (no error came before it) */
	px_buf *out;              /* where its text goes */
	/* what translating it came to */
	px_diag_mark select_mark; /* d's messages when selection began */
	unsigned verify_errors;
	bool selected;
	bool late;                /* selection met a call to a function not defined yet: no text */
	/* the calls and uses its verification left for the module's end */
	px_pending_call *pending, **pending_tail;
	px_fn_uses *uses, **uses_tail;
} px_unit;

/* What verifies, selects and prints one unit at a time: one a thread
 * ([0] the parser's), each with its own verifier and selector and what they
 * keep to the module's end (pending calls, early callees' names). */
typedef struct px_worker {
	px_pipeline *p;
	px_verifier v;
	px_isel s;
	px_arena keep;
	px_buf fbody;             /* a function's instructions, until its register declarations */
} px_worker;

/* A call to a function defined later is printed as its callee's parameter and
 * result types require (a literal argument, a discarded or left-out result):
 * a function that makes one is held, its IR kept, and selected when the
 * module's signatures are all known (jobs.c); the text after it waits. */
struct px_pipeline {
	const px_options *opt;
	px_diags diags;
	px_verifier v;            /* the module's: target, variables, the checks at its end */
	px_strmap early_calls;    /* callees called before their definition: prototyped */
	px_buf body;              /* the functions' text */
	px_worker *workers;
	unsigned nworkers;
	struct px_jobs *jobs;     /* the scheduler's (jobs.c) */
	bool target_done;
	uint32_t mir_globals;     /* --emit=mir: the variables printed so far */
	uint32_t mir_funcs;       /* and the functions declared or defined */
};

/* ---- pipeline.c, for the scheduler ---- */
/* Verify u's function; unless that found an error, or u->select is false,
 * select it and print it into u->out (none where it is late). */
void px_pipeline_translate(px_worker *w, px_unit *u);
/* A held unit, verified and late, selected and printed into u->out now that
 * sigs, the whole module, knows every signature. Returns its errors. */
unsigned px_pipeline_select_held(px_worker *w, px_unit *u, const px_module *sigs);
/* What u's verification left for the module's end joins the module's. */
void px_pipeline_join(px_pipeline *p, px_unit *u);
/* Text onto the module's body, handed to the sink in pieces when there is one. */
void px_pipeline_put(px_pipeline *p, const char *s, size_t n);
void px_pipeline_sink_full(px_pipeline *p);

/* ---- jobs.c: the scheduler ---- */
/* The module m is read. With threads the functions are translated on
 * p->nworkers threads (the parser's among them), else each as it is handed
 * on. */
void px_jobs_begin(px_pipeline *p, px_module *m, bool threads);
/* f, a definition, closed (from m's hook). */
void px_jobs_hand_on(px_pipeline *p, px_module *m, px_func *f);
/* The module is read: every function handed on is retired, the threads are
 * gone, and the functions' messages and errors are p->diags', but for what
 * the functions from the first held one on selected. */
void px_jobs_end(px_pipeline *p);
/* After the module's own checks: the held functions are selected with every
 * signature known, and the text and selection messages from the first held
 * function on join the module's, in text order, as if each function had been
 * selected in turn once the module was read: none where an error came before
 * (a selection error stops the selections after it). */
void px_jobs_finish(px_pipeline *p);
void px_jobs_free(px_pipeline *p);

#endif
