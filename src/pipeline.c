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

/* A call to a function defined later is printed as its callee's parameter and
 * result types require (a literal argument, a discarded or left-out result), so
 * the first pass prints only the functions before the first such call and
 * verifies the rest; the second reads the module again with every signature
 * known and prints from that function on. */
typedef struct px_pipeline {
	const px_options *opt;
	px_diags diags;
	px_verifier v;
	px_isel s;
	px_buf body;
	px_buf fbody;       /* the instructions of the function being selected */
	bool target_done;
	bool second;        /* the second pass is reading the module */
	bool late;          /* a function called a later one: printed by the second pass */
	uint32_t ordinal;   /* definitions handed over so far in this pass */
	uint32_t late_from; /* the first function the second pass prints */
	uint32_t late_seq;  /* the call sequence number it starts with */
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
	px_verify_func(&p->v, f);
	if (p->diags.nerrors || p->opt->verify_only || p->late)
		return;
	/* what selecting a function that calls a later one did is taken back */
	uint32_t seq = p->s.callseq;
	size_t body_len = p->body.len;
	px_diag_mark mark = px_diags_mark(&p->diags);
	if (p->opt->emit == PX_EMIT_ISEL) {
		px_print_isel_open(&p->body, f);
		const px_mfunc *mf = px_select_func(&p->s, f);
		px_print_isel_insts(&p->body, mf->first);
		px_print_isel_close(&p->body);
	} else {
		p->fbody.len = 0;
		const px_mfunc *mf = px_select_func(&p->s, f);
		if (!p->s.late) {
			px_print_insts(&p->fbody, mf, mf->first);
			px_print_func_open(&p->body, mf);
			put_out(p, p->fbody.data ? p->fbody.data : "", p->fbody.len);
			px_print_func_close(&p->body);
		}
	}
	if (p->s.late) {
		p->late = true;
		p->late_from = ordinal;
		p->late_seq = seq;
		p->body.len = body_len;
		px_diags_rewind(&p->diags, mark);
		return;
	}
	if (p->opt->sink && p->body.len >= SINK_CHUNK) {
		p->opt->sink(p->opt->sink_ctx, p->body.data, p->body.len);
		p->body.len = 0;
	}
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
	p->s.late = false;
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
	px_module m2;
	bool two = p.late && !p.diags.nerrors;
	if (two)
		second_pass(&p, &m, &m2);

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
	if (two)
		px_module_free(&m2);
	px_module_free(&m);
	return errors;
}
