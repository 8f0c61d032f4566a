/* libptxemit's one entry point: parse, and as each function closes verify it,
 * select it and print it; then the module header, globals and prototypes go in
 * front. Output exists only when the whole module translated without error. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "diag/diag.h"
#include "front/sniff.h"
#include "isel/isel.h"
#include "print/print.h"
#include "ptxemit.h"
#include "util/buf.h"
#include "verify/verify.h"

void px_options_default(px_options *o)
{
	memset(o, 0, sizeof *o);
	o->emit = PX_EMIT_PTX;
	o->max_errors = 20;
}

typedef struct px_pipeline {
	const px_options *opt;
	px_diags diags;
	px_verifier v;
	px_isel s;
	px_buf body;
	px_buf fbody;       /* the instructions of the function being selected */
	bool target_done;
} px_pipeline;

static void resolve_target(px_pipeline *p)
{
	if (p->target_done)
		return;
	p->target_done = true;
	px_verify_target(&p->v);
	p->s.target = p->v.target;
	p->s.ptx = p->v.ptx_given;
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

/* The selector hands on instructions as it goes: --emit=isel prints them in
 * place, PTX behind the register declarations, which need the function's end. */
static void flush_insts(void *ctx, const px_mfunc *mf)
{
	px_pipeline *p = ctx;
	if (p->opt->emit == PX_EMIT_ISEL)
		px_print_isel_insts(&p->body, mf->first);
	else
		px_print_insts(&p->fbody, mf, mf->first);
}

/* Called by the parser as each function closes; the function arena is reset
 * after it returns, so whatever is printed must be printed now. */
static void on_function(px_module *m, px_func *f, void *ctx)
{
	px_pipeline *p = ctx;
	(void)m;
	/* a declaration changes nothing here: the parser may still take it back
	 * (px_parse parses an item again after a syntax error) */
	if (f->is_decl)
		return;
	resolve_target(p);
	/* a body with syntax errors lost statements: checking it would only add
	 * follow-on errors to the ones already reported */
	if (f->nerrors)
		return;
	px_verify_func(&p->v, f);
	if (p->diags.nerrors || p->opt->verify_only)
		return;
	if (p->opt->emit == PX_EMIT_ISEL) {
		px_print_isel_open(&p->body, f);
		const px_mfunc *mf = px_select_func(&p->s, f);
		px_print_isel_insts(&p->body, mf->first);
		px_print_isel_close(&p->body);
	} else {
		p->fbody.len = 0;
		const px_mfunc *mf = px_select_func(&p->s, f);
		px_print_insts(&p->fbody, mf, mf->first);
		px_print_func_open(&p->body, mf);
		put_out(p, p->fbody.data ? p->fbody.data : "", p->fbody.len);
		px_print_func_close(&p->body);
	}
	if (p->opt->sink && p->body.len >= SINK_CHUNK) {
		p->opt->sink(p->opt->sink_ctx, p->body.data, p->body.len);
		p->body.len = 0;
	}
}

/* Header, globals and the prototypes a call needs before its callee. */
static void print_front(px_pipeline *p, px_module *m, px_buf *out)
{
	px_print_header(out, p->v.target, px_verify_ptx_version(&p->v), p->opt->debug);
	if (p->opt->lineinfo || p->opt->debug)
		px_print_files(out, m);
	px_print_globals(out, m);
	bool any = false;
	for (uint32_t i = 0; i < m->nfuncs; i++) {
		const px_funcsig *sig = &m->funcs[i];
		bool early = px_strmap_get(&p->s.early_calls, sig->name.s, sig->name.n) != PX_STRMAP_NONE;
		if (sig->is_kernel || (sig->defined && !early))
			continue;
		px_print_func_decl(out, sig, px_print_linkage(sig->defined ? sig->linkage : PX_LINK_EXTERN));
		any = true;
	}
	if (any)
		px_buf_putc(out, '\n');
}

int px_translate(const char *filename, const char *src, size_t len, const px_options *opt,
                 px_diag_fn diag, void *diag_ctx, char **out, size_t *outlen)
{
	px_options defaults;
	if (!opt) {
		px_options_default(&defaults);
		opt = &defaults;
	}
	*out = NULL;
	if (outlen)
		*outlen = 0;
	px_pipeline p;
	memset(&p, 0, sizeof p);
	p.opt = opt;
	px_diags_init(&p.diags, filename, src, len, diag, diag_ctx, opt->max_errors);
	/* input past px_loc's 32-bit offsets is refused by the parser, unread */
	if (len <= INT32_MAX - 2 && px_sniff(&p.diags, &src, &len)) {
		int errors = (int)p.diags.nerrors;
		px_diags_flush(&p.diags);
		return errors;
	}
	/* the byte-order mark skipped, columns count from the text */
	p.diags.src = src;
	p.diags.len = len;
	px_module m;
	px_module_init(&m, filename, src, len, &p.diags);
	m.on_function = on_function;
	m.hook_ctx = &p;
	px_verifier_init(&p.v, &m, &p.diags, opt->target, opt->ptx);
	px_isel_init(&p.s, &m, &p.diags);
	p.s.remarks = opt->remarks;
	p.s.mc_names = opt->emit == PX_EMIT_ISEL;
	p.s.lineinfo = opt->lineinfo || opt->debug;
	px_buf_init(&p.body);
	px_buf_init(&p.fbody);
	p.s.flush = flush_insts;
	p.s.flush_ctx = &p;

	px_parse(&m);
	resolve_target(&p);
	px_verify_globals(&p.v);
	px_verify_module_end(&p.v);

	int errors = (int)p.diags.nerrors;
	px_diags_flush(&p.diags);
	if (!errors) {
		px_buf result;
		px_buf_init(&result);
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
	}
	px_buf_free(&p.body);
	px_buf_free(&p.fbody);
	px_isel_free(&p.s);
	px_verifier_free(&p.v);
	px_module_free(&m);
	return errors;
}
