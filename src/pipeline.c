/* libptxemit's one entry point, the stages in the order they run: the input
 * is sniffed and parsed; as each function closes it is handed to the
 * scheduler (jobs.c), which has it verified, selected and printed here
 * (px_pipeline_translate); the module's variables and what only its end can
 * tell are checked; the functions held for a call to a later one are
 * selected (jobs.c); the module's front (header, variables, prototypes) goes
 * before the functions' text; ptxas assembles it when asked. Output exists
 * only when the whole module translated without error. */
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cubin/cubin.h"
#include "front/sniff.h"
#include "pipeline.h"
#include "print/print.h"
#include "tables/tables.h"

void px_options_default(px_options *o)
{
	memset(o, 0, sizeof *o);
	o->emit = PX_EMIT_PTX;
	o->max_errors = 20;
	o->opt_level = -1;
	o->warn_off = px_warnings_off;
}

/* ---- the target ---- */

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
	for (unsigned i = 0; i < p->nworkers; i++) {
		px_worker *w = &p->workers[i];
		w->v.target = p->v.target;
		w->v.ptx_given = p->v.ptx_given;
		/* the target's own PTX version, the floor every node's rules are
		 * judged against when the module names no version */
		w->v.ptx_needed = p->v.ptx_needed;
		w->v.target_reported = true; /* the pipeline's verifier says it */
		w->v.ptx_max = p->v.ptx_max;
		w->v.ptx_max_by = p->v.ptx_max_by;
		w->s.target = p->v.target;
		w->s.ptx = p->v.ptx_given;
	}
}

/* ---- each function: verify, select, print ---- */

/* With a sink, printed functions are handed over in pieces of about this size. */
enum { SINK_CHUNK = 1 << 18 };

void px_pipeline_put(px_pipeline *p, const char *s, size_t n)
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

void px_pipeline_sink_full(px_pipeline *p)
{
	if (p->opt->sink && p->body.len >= SINK_CHUNK) {
		p->opt->sink(p->opt->sink_ctx, p->body.data, p->body.len);
		p->body.len = 0;
	}
}

/* Each worker with its own verifier and selector (pipeline.h). */
static void workers_init(px_pipeline *p, px_module *m)
{
	const px_options *opt = p->opt;
	/* --emit=mir prints each function as it is verified, in the text's order
	 * among the variables and declarations: one job */
	p->nworkers = opt->jobs > 1 && opt->emit != PX_EMIT_MIR ? opt->jobs : 1;
	p->workers = calloc(p->nworkers, sizeof *p->workers);
	if (!p->workers)
		abort();
	for (unsigned i = 0; i < p->nworkers; i++) {
		px_worker *w = &p->workers[i];
		w->p = p;
		px_verifier_init(&w->v, m, NULL, opt->target, opt->ptx);
		memcpy(w->v.grid, opt->assume_grid, sizeof w->v.grid);
		px_isel_init(&w->s, m, NULL);
		px_arena_init(&w->keep);
		/* an arena is one thread's: one worker keeps in the module's */
		w->v.keep = w->s.keep = p->nworkers > 1 ? &w->keep : &m->arena;
		w->s.remarks = opt->remarks;
		w->s.mc_names = opt->emit == PX_EMIT_ISEL;
		w->s.lineinfo = opt->lineinfo || opt->debug;
		w->s.ptxmap = (opt->cubin || opt->resource_usage) && opt->emit == PX_EMIT_PTX;
		px_buf_init(&w->fbody);
	}
}

static void workers_free(px_pipeline *p)
{
	for (unsigned i = 0; i < p->nworkers; i++) {
		px_worker *w = &p->workers[i];
		px_buf_free(&w->fbody);
		px_isel_free(&w->s);
		px_verifier_free(&w->v);
		px_arena_free(&w->keep);
	}
	free(p->workers);
}

/* The worker's verifier and selector work on u: its view of the module,
 * its messages, its arena, its call sequences. */
static void bind(px_worker *w, px_unit *u)
{
	w->v.m = w->s.m = &u->view;
	w->v.d = w->s.d = &u->d;
	w->s.a = u->a;
	w->s.callseq = u->callseq;
}

static void select_unit(px_worker *w, px_unit *u, const px_values *va);

void px_pipeline_translate(px_worker *w, px_unit *u)
{
	px_verifier *v = &w->v;
	bind(w, u);
	v->pending = NULL;
	v->pending_tail = &v->pending;
	v->uses = NULL;
	v->uses_tail = &v->uses;
	px_diag_mark verified = px_diags_mark(&u->d);
	px_verify_func(v, u->f);
	u->verify_errors = u->d.nerrors - verified.nerrors;
	u->pending = v->pending;
	u->pending_tail = v->pending_tail;
	u->uses = v->uses;
	u->uses_tail = v->uses_tail;
	u->select_mark = px_diags_mark(&u->d);
	u->selected = u->select && !u->verify_errors && !w->p->opt->verify_only;
	u->late = false;
	if (u->selected)
		select_unit(w, u, px_verify_values(v));
}

unsigned px_pipeline_select_held(px_worker *w, px_unit *u, const px_module *sigs)
{
	bind(w, u);
	w->s.sigs = sigs;
	unsigned before = u->d.nerrors;
	select_unit(w, u, NULL); /* the verifier has gone on to other functions */
	w->s.sigs = NULL;
	return u->d.nerrors - before;
}

void px_pipeline_join(px_pipeline *p, px_unit *u)
{
	if (u->pending) {
		*p->v.pending_tail = u->pending;
		p->v.pending_tail = u->pending_tail;
	}
	if (u->uses) {
		*p->v.uses_tail = u->uses;
		p->v.uses_tail = u->uses_tail;
	}
}

static void select_unit(px_worker *w, px_unit *u, const px_values *va)
{
	px_pipeline *p = w->p;
	px_buf *out = u->out;
	if (p->opt->emit == PX_EMIT_MIR) {
		px_print_mir_func(out, w->v.m, u->f);
		return;
	}
	px_isel *s = &w->s;
	px_select_begin(s, u->f, va);
	if (p->opt->emit == PX_EMIT_ISEL) {
		size_t at = out->len;
		px_print_isel_open(out, u->f);
		while (px_select_more(s))
			px_print_isel_insts(out, s->mf.first);
		px_print_isel_close(out);
		if (s->late)
			out->len = at;
	} else {
		/* the register declarations come first and need the whole function */
		w->fbody.len = 0;
		while (px_select_more(s))
			if (!s->late)
				px_print_insts(&w->fbody, &s->mf, s->mf.first);
		if (!s->late) {
			px_print_func_open(out, &s->mf);
			const char *text = w->fbody.data ? w->fbody.data : "";
			if (out == &p->body)
				px_pipeline_put(p, text, w->fbody.len);
			else
				px_buf_put(out, text, w->fbody.len);
			px_print_func_close(out);
		}
	}
	u->late = s->late;
}

/* ---- reading the module ---- */

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

/* Called by the parser as each function closes; the function arena is reset
 * after it returns, unless the scheduler took the function. */
static void on_function(px_module *m, px_func *f, void *ctx)
{
	px_pipeline *p = ctx;
	/* a declaration changes nothing here: the parser may still take it back
	 * (px_parse parses an item again after a syntax error) */
	if (f->is_decl)
		return;
	resolve_target(p);
	/* a body with syntax errors lost statements: checking it would only add
	 * follow-on errors to the ones already reported */
	if (f->nerrors)
		return;
	px_verify_has_target(&p->v, f);
	if (p->opt->emit == PX_EMIT_MIR) {
		mir_items(p, m, f->loc, &p->body);
		if (p->mir_funcs < m->nfuncs && m->funcs[p->mir_funcs].loc.pos == f->loc.pos)
			p->mir_funcs++; /* its own signature */
	}
	px_jobs_hand_on(p, m, f);
}

/* The module read: parsed, every function handed on retired, and what the
 * workers' verifiers keep to the module's end made the pipeline's. */
static void read_module(px_pipeline *p, px_module *m, bool threads)
{
	m->on_function = on_function;
	m->hook_ctx = p;
	px_jobs_begin(p, m, threads);
	px_parse(m);
	px_jobs_end(p);
	for (unsigned i = 0; i < p->nworkers; i++) {
		const px_worker *w = &p->workers[i];
		if (w->v.ptx_needed > p->v.ptx_needed)
			p->v.ptx_needed = w->v.ptx_needed;
		px_verify_names_join(&p->v, &p->workers[i].v);
	}
}

/* The callees the workers' selections met before their definitions (held
 * functions selected too): each gets a prototype. */
static void early_calls(px_pipeline *p)
{
	for (unsigned i = 0; i < p->nworkers; i++) {
		const px_strmap *calls = &p->workers[i].s.early_calls;
		for (uint32_t k = 0; k < calls->cap; k++)
			if (calls->slots[k].key)
				px_strmap_put(&p->early_calls, calls->slots[k].key, calls->slots[k].len, 1);
	}
}

/* ---- assembling ---- */

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

/* ---- the module ---- */

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
	px_verifier_init(&p.v, &m, &p.diags, opt->target, opt->ptx);
	memcpy(p.v.grid, opt->assume_grid, sizeof p.v.grid);
	char limit_by[64];
	p.v.ptx_max = ptx_limit(&p.diags, opt, limit_by, sizeof limit_by);
	p.v.ptx_max_by = limit_by;
	px_strmap_init(&p.early_calls);
	px_buf_init(&p.body);
	workers_init(&p, &m);

	read_module(&p, &m, p.nworkers > 1);
	resolve_target(&p);
	px_verify_globals(&p.v);
	px_verify_module_end(&p.v);
	px_jobs_finish(&p);
	early_calls(&p);

	int errors = (int)p.diags.nerrors;
	px_diags_flush(&p.diags);
	if (!errors) {
		px_buf result;
		px_buf_init(&result);
		if (opt->emit == PX_EMIT_MIR && !opt->verify_only) {
			mir_items(&p, &m, (px_loc){0}, &p.body);
			px_print_mir_target(&result, &m);
		}
		if (!opt->verify_only && opt->emit == PX_EMIT_PTX)
			px_print_front(&result, &m, p.v.target, px_verify_ptx_version(&p.v), opt->debug,
			               opt->lineinfo || opt->debug, &p.early_calls);
		if (!opt->verify_only && opt->sink) {
			if (p.body.len)
				opt->sink(opt->sink_ctx, p.body.data, p.body.len);
		} else if (!opt->verify_only) {
			px_buf_put(&result, p.body.data ? p.body.data : "", p.body.len);
		}
		*out = px_buf_take(&result, outlen);
		if (assemble)
			errors += assemble_out(&p, &m, diag, diag_ctx, out, outlen);
	}
	px_buf_free(&p.body);
	px_jobs_free(&p);
	workers_free(&p);
	px_strmap_free(&p.early_calls);
	px_verifier_free(&p.v);
	px_module_free(&m);
	return errors;
}
