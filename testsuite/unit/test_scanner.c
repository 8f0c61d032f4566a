/* The front end: the token stream of grammar/lexer.l and the IR px_parse builds. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suites.h"

#include "diag/diag.h"
#include "front/ir.h"
#include "front/parse.h"
#include "parser.h"
#include "tables/tables.h"

#define YYSTYPE PXYYSTYPE
#include "lexer.h"

/* ---- collecting diagnostics as "line:col: message" lines */

typedef struct sink {
	char text[8192];
	size_t len;
	unsigned n;
} sink;

static void collect(void *ctx, const px_diagnostic *d)
{
	sink *s = ctx;
	s->n++;
	int w = snprintf(s->text + s->len, sizeof s->text - s->len, "%u:%u: %s%s\n", d->line, d->col,
	                 d->severity == PX_SEV_NOTE ? "note: " : "", d->message);
	if (w > 0 && (size_t)w < sizeof s->text - s->len)
		s->len += (size_t)w;
}

/* ---- scanning */

enum { MAXTOK = 64 };
typedef struct lexed {
	int kind[MAXTOK];
	px_tok tok[MAXTOK];
	int n;
	sink diags;
	const char *src;
	size_t len;
} lexed;

/* A token's line and column, from the text it was scanned from. */
static px_linecol lex_at(const lexed *x, px_loc loc)
{
	px_lines l;
	px_lines_init(&l, x->src, x->len);
	px_linecol lc = px_lines_find(&l, loc);
	px_lines_free(&l);
	return lc;
}

static void lex(lexed *out, const char *src, size_t len)
{
	px_diags d;
	px_module m;
	memset(out, 0, sizeof *out);
	out->src = src;
	out->len = len;
	px_diags_init(&d, "t.mir", src, len, collect, &out->diags, 0);
	px_module_init(&m, "t.mir", src, len, &d);
	px_parser P = {.m = &m};
	yyscan_t sc;
	ck_assert_int_eq(pxyylex_init_extra(&P, &sc), 0);
	pxyy_scan_bytes(src, (int)len, sc);
	PXYYSTYPE v;
	int k;
	while ((k = pxyylex(&v, sc)) != 0 && out->n < MAXTOK) {
		out->kind[out->n] = k;
		out->tok[out->n] = v.tok;
		out->n++;
	}
	pxyylex_destroy(sc);
	px_diags_flush(&d);
	px_module_free(&m);
}

static void lex_str(lexed *out, const char *src)
{
	lex(out, src, strlen(src));
}

static int text_is(px_tok t, const char *s)
{
	return t.s.n == strlen(s) && memcmp(t.s.s, s, t.s.n) == 0;
}

START_TEST(keywords_and_punctuation)
{
	lexed x;
	lex_str(&x, "extern kernel @k(%a: ptr global, %s: b8[16] align 8) reqntid(128) -> {\n");
	static const int want[] = {PXT_K_EXTERN, PXT_K_KERNEL, PXT_SYM, '(', PXT_VALUE, ':', PXT_WORD,
	                           PXT_K_GLOBAL, ',', PXT_VALUE, ':', PXT_WORD, '[', PXT_INT, ']',
	                           PXT_K_ALIGN, PXT_INT, ')', PXT_WORD, '(', PXT_INT, ')', PXT_ARROW, '{',
	                           PXT_NL /* the end of the input ends the statement */};
	ck_assert_int_eq(x.n, (int)(sizeof want / sizeof want[0]));
	for (int i = 0; i < x.n; i++)
		ck_assert_int_eq(x.kind[i], want[i]);
	ck_assert(text_is(x.tok[2], "@k"));
	ck_assert_uint_eq(lex_at(&x, x.tok[2].loc).col, 15);
	ck_assert_uint_eq(x.diags.n, 0);
}
END_TEST

START_TEST(dotted_operation_names)
{
	lexed x;
	lex_str(&x, "cp.async.bulk.tensor.2d.shared::cluster.global.tile tcgen05.mma.cta_group::1.kind::f16\n"
	            "mma.sync.scale_vec::4X ldmatrix.m8n8.x2.trans.b16 x.warpx2::02_13 tcgen05.ld.16x64b\n"
	            "{shape = m8n8, space = shared::cta, num = 2, sz = 128x256b, trans}\n");
	static const char *const words[] = {
		"cp.async.bulk.tensor.2d.shared::cluster.global.tile", "tcgen05.mma.cta_group::1.kind::f16",
		NULL, "mma.sync.scale_vec::4X", "ldmatrix.m8n8.x2.trans.b16", "x.warpx2::02_13", "tcgen05.ld.16x64b",
	};
	for (int i = 0; i < 7; i++) {
		if (!words[i]) {
			ck_assert_int_eq(x.kind[i], PXT_NL);
			continue;
		}
		ck_assert_int_eq(x.kind[i], PXT_DWORD);
		ck_assert(text_is(x.tok[i], words[i]));
	}
	ck_assert_int_eq(x.kind[7], PXT_NL);
	ck_assert_int_eq(x.kind[8], '{');
	ck_assert_int_eq(x.kind[9], PXT_WORD);
	ck_assert_int_eq(x.kind[11], PXT_WORD);
	ck_assert_int_eq(x.kind[13], PXT_WORD);
	ck_assert_int_eq(x.kind[15], PXT_DWORD);
	ck_assert(text_is(x.tok[15], "shared::cta"));
	ck_assert_int_eq(x.kind[19], PXT_INT);
	ck_assert_int_eq(x.kind[23], PXT_WORD); /* 128x256b */
	ck_assert(text_is(x.tok[23], "128x256b"));
	ck_assert_uint_eq(x.diags.n, 0);
}
END_TEST

START_TEST(special_registers_and_values)
{
	lexed x;
	lex_str(&x, "%tid.x %tid %laneid %t %0 %a$b %clock64 %foo.x");
	ck_assert_int_eq(x.kind[0], PXT_SREG);
	ck_assert_str_eq(px_sregs[x.tok[0].i].name, "%tid.x");
	ck_assert_int_eq(x.kind[1], PXT_SREG);
	ck_assert_int_eq(x.kind[2], PXT_SREG);
	ck_assert_str_eq(px_sregs[x.tok[2].i].name, "%laneid");
	ck_assert_int_eq(x.kind[3], PXT_VALUE);
	ck_assert_int_eq(x.kind[4], PXT_VALUE);
	ck_assert_int_eq(x.kind[5], PXT_VALUE);
	ck_assert(text_is(x.tok[5], "%a$b"));
	ck_assert_int_eq(x.kind[6], PXT_SREG);
	/* not a register: reported, then scanned as the value %foo */
	ck_assert_int_eq(x.kind[7], PXT_VALUE);
	ck_assert(text_is(x.tok[7], "%foo"));
	ck_assert_uint_eq(x.diags.n, 1);
	ck_assert_str_eq(x.diags.text, "1:41: unknown special register '%foo.x'\n");
}
END_TEST

START_TEST(numbers)
{
	lexed x;
	lex_str(&x, "42 -7 0x1F -0x10 1.5 2e-3 -0.5 1. 0f3F800000 0d3FF0000000000000 "
	            "18446744073709551615 -9223372036854775808 010\n");
	ck_assert_int_eq(x.kind[0], PXT_INT);
	ck_assert_int_eq(x.tok[0].i, 42);
	ck_assert_int_eq(x.tok[1].i, -7);
	ck_assert(x.tok[1].neg);
	ck_assert_int_eq(x.tok[2].i, 31);
	ck_assert(!x.tok[2].neg);
	ck_assert_int_eq(x.tok[3].i, -16);
	ck_assert(x.tok[3].neg);
	for (int i = 4; i < 8; i++)
		ck_assert_int_eq(x.kind[i], PXT_FLOAT);
	ck_assert(x.tok[4].f == 1.5);
	ck_assert(x.tok[5].f == 2e-3);
	ck_assert(x.tok[6].f == -0.5);
	ck_assert(x.tok[7].f == 1.0);
	ck_assert_int_eq(x.kind[8], PXT_FBITS);
	ck_assert_uint_eq(x.tok[8].bits, 0x3F800000u);
	ck_assert_uint_eq(x.tok[8].fwidth, 32);
	ck_assert_uint_eq(x.tok[9].bits, 0x3FF0000000000000ull);
	ck_assert_uint_eq(x.tok[9].fwidth, 64);
	ck_assert_uint_eq((uint64_t)x.tok[10].i, UINT64_MAX);
	ck_assert(x.tok[11].i == INT64_MIN);
	ck_assert_int_eq(x.tok[12].i, 10); /* decimal: no octal */
	ck_assert_int_eq(x.kind[13], PXT_NL);
	ck_assert_uint_eq(x.diags.n, 0);

	lex_str(&x, "18446744073709551616 -9223372036854775809 0x10000000000000000 1e999");
	ck_assert_uint_eq(x.diags.n, 4);
	ck_assert(strstr(x.diags.text, "1:1: integer literal '18446744073709551616' does not fit in 64 bits"));
	ck_assert(strstr(x.diags.text, "1:22: integer literal '-9223372036854775809'"));
	ck_assert(strstr(x.diags.text, "1:63: floating-point literal '1e999' is out of range"));
}
END_TEST

START_TEST(lines_and_comments)
{
	lexed x;
	/* blank and comment lines give no NL; '(' and ',' let a statement wrap */
	lex_str(&x, "\n; header\na (b,\n   c) ; trailing\n\n  ; only a comment\nd [\n%e]\n{\nf\n");
	static const int want[] = {PXT_WORD, '(', PXT_WORD, ',', PXT_WORD, ')', PXT_NL,
	                           PXT_WORD, '[', PXT_VALUE, ']', PXT_NL, '{', PXT_WORD, PXT_NL};
	ck_assert_int_eq(x.n, (int)(sizeof want / sizeof want[0]));
	for (int i = 0; i < x.n; i++)
		ck_assert_int_eq(x.kind[i], want[i]);
	ck_assert_uint_eq(lex_at(&x, x.tok[4].loc).line, 4);
	ck_assert_uint_eq(lex_at(&x, x.tok[4].loc).col, 4);
	ck_assert_uint_eq(lex_at(&x, x.tok[6].loc).line, 4); /* NL sits at the end of its line */
	ck_assert_uint_eq(lex_at(&x, x.tok[13].loc).line, 10);
	ck_assert_uint_eq(px_loc_off(x.tok[13].loc), 63);
}
END_TEST

START_TEST(crlf_and_missing_newline)
{
	lexed x;
	lex_str(&x, "a b\r\n  c\r\n\r\nret");
	static const int want[] = {PXT_WORD, PXT_WORD, PXT_NL, PXT_WORD, PXT_NL, PXT_K_RET, PXT_NL};
	ck_assert_int_eq(x.n, 7);
	for (int i = 0; i < x.n; i++)
		ck_assert_int_eq(x.kind[i], want[i]);
	ck_assert_uint_eq(lex_at(&x, x.tok[3].loc).line, 2);
	ck_assert_uint_eq(lex_at(&x, x.tok[3].loc).col, 3);
	ck_assert_uint_eq(lex_at(&x, x.tok[5].loc).line, 4);
	ck_assert_uint_eq(lex_at(&x, x.tok[5].loc).col, 1);
	ck_assert_uint_eq(x.diags.n, 0);
}
END_TEST

/* A NUL is its own error, not an unexpected character; it separates tokens
 * as a space would, but in a string it ends the line's scan. */
START_TEST(stray_nul)
{
	lexed x;
	static const char src[] = "a b\0c d\n\0e\nf \"g\0h\" i\nj";
	lex(&x, src, sizeof src - 1);
	static const int want[] = {PXT_WORD, PXT_WORD, PXT_WORD, PXT_WORD, PXT_NL, PXT_WORD,
	                           PXT_NL,   PXT_WORD, PXT_NL,   PXT_WORD, PXT_NL};
	ck_assert_int_eq(x.n, 11);
	for (int i = 0; i < x.n; i++)
		ck_assert_int_eq(x.kind[i], want[i]);
	ck_assert_str_eq(x.diags.text, "1:4: byte 0x00 (NUL) is not text; MIR is UTF-8 text\n"
	                               "2:1: byte 0x00 (NUL) is not text; MIR is UTF-8 text\n"
	                               "3:5: byte 0x00 (NUL) is not text; MIR is UTF-8 text\n");
}
END_TEST

START_TEST(bad_bytes)
{
	lexed x;
	static const char src[] = "a # b c \xc3\xa9 d ; \xff\xfe in a comment is fine\ne $ . %";
	lex(&x, src, sizeof src - 1);
	static const int want[] = {PXT_WORD, PXT_WORD, PXT_WORD, PXT_WORD, PXT_NL, PXT_WORD, PXT_NL};
	ck_assert_int_eq(x.n, 7);
	for (int i = 0; i < x.n; i++)
		ck_assert_int_eq(x.kind[i], want[i]);
	ck_assert_str_eq(x.diags.text, "1:3: unexpected character '#'\n"
	                               "1:9: unexpected character '\\xc3'\n"
	                               "2:3: unexpected character '$'\n"
	                               "2:5: unexpected character '.'\n"
	                               "2:7: unexpected character '%'\n");
}
END_TEST

/* ---- parsing */

/* What the tests look at after a function has gone by (its memory is reused). */
typedef struct seen {
	int nfuncs;
	char name[8][32];
	uint32_t nnodes[8], nvalues[8], nlabels[8], nparams[8], nerrors[8];
	bool is_decl[8];
	void (*check)(px_module *m, px_func *f);
} seen;

static void hook(px_module *m, px_func *f, void *ctx)
{
	seen *s = ctx;
	int i = s->nfuncs++;
	ck_assert_int_lt(i, 8);
	snprintf(s->name[i], sizeof s->name[i], "%.*s", (int)f->name.n, f->name.s);
	s->nnodes[i] = f->nnodes;
	s->nvalues[i] = f->nvalues;
	s->nlabels[i] = f->nlabels;
	s->nparams[i] = f->nparams;
	s->nerrors[i] = f->nerrors;
	s->is_decl[i] = f->is_decl;
	if (s->check)
		s->check(m, f);
}

typedef struct parsed {
	px_diags d;
	px_module m;
	sink diags;
	seen fns;
	int errors;
} parsed;

static void parse(parsed *p, const char *src, size_t len, void (*check)(px_module *, px_func *))
{
	memset(p, 0, sizeof *p);
	p->fns.check = check;
	px_diags_init(&p->d, "t.mir", src, len, collect, &p->diags, 0);
	px_module_init(&p->m, "t.mir", src, len, &p->d);
	p->m.on_function = hook;
	p->m.hook_ctx = &p->fns;
	p->errors = px_parse(&p->m);
	px_diags_flush(&p->d);
}

static const char vadd[] =
	"; vadd.mir: c[i] = a[i] + b[i]\n"
	"target sm_80\n"
	"\n"
	"kernel @vadd(%a: ptr global, %b: ptr global, %c: ptr global, %n: u32) reqntid(256) {\n"
	"  %t:u32 = mov %tid.x\n"
	"  %cta:u32 = mov %ctaid.x\n"
	"  %nt:u32 = mov %ntid.x\n"
	"  %i:u32 = mad.lo %cta, %nt, %t\n"
	"  %oob:pred = setp.ge %i, %n\n"
	"  @%oob bra ^done\n"
	"  %off:u64 = mul.wide %i, 4\n"
	"  %pa:u64 = add %a, %off\n"
	"  %pb:u64 = add %b, %off\n"
	"  %pc:u64 = add %c, %off\n"
	"  %x:f32 = ld.global [%pa]\n"
	"  %y:f32 = ld.global [%pb]\n"
	"  %z:f32 = add %x, %y\n"
	"  st.global [%pc], %z\n"
	"^done:\n"
	"  ret\n"
	"}\n";

static void check_vadd(px_module *m, px_func *f)
{
	ck_assert(f->is_kernel);
	ck_assert_uint_eq(f->nparams, 4);
	ck_assert_uint_eq(f->params[0].kind, PX_PARAM_PTR);
	ck_assert_uint_eq(f->params[0].type, PX_T_ptr);
	ck_assert_uint_eq(f->params[0].space, PX_TOK_global);
	ck_assert_uint_eq(f->params[3].kind, PX_PARAM_SCALAR);
	ck_assert_uint_eq(f->params[3].type, PX_T_u32);
	ck_assert(f->dirs[PX_DIR_reqntid].present);
	ck_assert_uint_eq(f->dirs[PX_DIR_reqntid].nargs, 1);
	ck_assert_uint_eq(f->dirs[PX_DIR_reqntid].args[0], 256);
	ck_assert(!f->dirs[PX_DIR_maxnreg].present);
	/* %t is the first value after the parameters */
	const px_value *t = &f->values[4];
	ck_assert_uint_eq(t->type, PX_T_u32);
	ck_assert_uint_eq(px_module_linecol(m, t->def_loc).line, 5);
	ck_assert_uint_eq(px_module_linecol(m, t->def_loc).col, 3);
	ck_assert(t->has_def);
	const px_node *n = f->first;
	ck_assert_uint_eq(n->kind, PX_N_INST);
	ck_assert_uint_eq(n->nres, 1);
	ck_assert_uint_eq(n->res[0].decl_type, PX_T_u32);
	ck_assert_uint_eq(n->ops[0].kind, PX_O_SREG);
	ck_assert_str_eq(px_sregs[n->ops[0].id].name, "%tid.x");
	ck_assert_int_eq(strncmp(n->opname.s, "mov", n->opname.n), 0);
	for (int i = 0; i < 5; i++)
		n = n->next;
	ck_assert(n->has_guard && !n->guard_neg);
	ck_assert_uint_eq(px_module_linecol(m, n->loc).col, 3);
	ck_assert_uint_eq(px_module_linecol(m, n->oploc).col, 9);
	ck_assert_uint_eq(n->ops[0].kind, PX_O_LABEL);
	ck_assert(f->labels[0].used && f->labels[0].defined);
	ck_assert_uint_eq(px_module_linecol(m, f->labels[0].first_use).line, 10);
	ck_assert_uint_eq(px_module_linecol(m, f->labels[0].def_loc).line, 19);
	n = n->next->next->next->next->next;
	ck_assert_uint_eq(n->ops[0].kind, PX_O_ADDR);
	ck_assert_uint_eq(n->ops[0].base->kind, PX_O_VALUE);
	ck_assert_int_eq(n->ops[0].off, 0);
	ck_assert_uint_eq(f->last->kind, PX_N_RET);
	(void)m;
}

START_TEST(parse_vadd)
{
	parsed p;
	parse(&p, vadd, sizeof vadd - 1, check_vadd);
	ck_assert_int_eq(p.errors, 0);
	ck_assert_uint_eq(p.diags.n, 0);
	ck_assert_int_eq(p.fns.nfuncs, 1);
	ck_assert_str_eq(p.fns.name[0], "vadd");
	ck_assert_uint_eq(p.fns.nnodes[0], 16);
	ck_assert_uint_eq(p.fns.nvalues[0], 16);
	ck_assert_uint_eq(p.fns.nlabels[0], 1);
	ck_assert_int_eq(p.m.target.n, 5);
	ck_assert_uint_eq(px_module_linecol(&p.m, p.m.target_loc).line, 2);
	ck_assert_uint_eq(p.m.nfuncs, 1);
	ck_assert(p.m.funcs[0].defined && p.m.funcs[0].is_kernel);
	ck_assert_uint_eq(p.m.funcs[0].params[0], PX_T_ptr);
	px_module_free(&p.m);
}
END_TEST

static const char forms[] =
	"target sm_90a ptx 8.6\n"
	"global @lut : b32[4] align 4 = [1, 2,\n"
	"                                3, 0x4]\n"
	"const @coef : f32[2] = [1.0, 0f3F000000]\n"
	"internal shared @tile : f32[1024] align 16\n"
	"extern shared @dyn : b8[] align 16\n"
	"weak global @one : u64 = @lut\n"
	"extern func @ext(%x: f32) -> (f32, pred)\n"
	"func @helper(%x: f32, %p: ptr shared align 8, %s: b8[16] align 8) -> f32 attrs {unsafe_fp_math} {\n"
	"  %lo:pred|%hi:pred = setp.lt.and %x, %x, !%q\n"
	"  %acc:f32[4] = mov 0.0\n"
	"  %acc[1] = add %acc[0], -1.5\n"
	"  _, %r:b32 = foo.bar [%p + 16], [%s - 8], [@tile + -4], [%p -4], [%s, (%a, (%b, %c))]\n"
	"  %y:f32, %ok:pred = call @ext(%x)\n"
	"  call @helper(%x, %p, %s)\n"
	"  ldmatrix [@tile] {shape = m8n8, num = 2, trans, space = shared::cta}\n"
	"  @!%ok ret (%y, %ok)\n"
	"}\n"
	"kernel @k() maxntid(32, 4) explicitcluster reqnctapercluster(2, 1, 1) {}\n"
	"kernel @k2()  ; the body may open on the next line\n"
	"{\n"
	"  exit\n"
	"}";

static void check_forms(px_module *m, px_func *f)
{
	if (f->is_decl) {
		ck_assert_uint_eq(f->nrets, 2);
		ck_assert_uint_eq(f->rets[1], PX_T_pred);
		ck_assert_uint_eq(f->linkage, PX_LINK_EXTERN);
		return;
	}
	if (f->is_kernel && f->name.n == 2) {
		ck_assert_uint_eq(f->nnodes, 1);
		return;
	}
	if (f->is_kernel) {
		ck_assert_uint_eq(f->dirs[PX_DIR_maxntid].nargs, 2);
		ck_assert_uint_eq(f->dirs[PX_DIR_maxntid].args[1], 4);
		ck_assert(f->dirs[PX_DIR_explicitcluster].present);
		ck_assert_uint_eq(f->dirs[PX_DIR_reqnctapercluster].nargs, 3);
		ck_assert_uint_eq(f->nnodes, 0);
		return;
	}
	ck_assert_uint_eq(f->nrets, 1);
	ck_assert_uint_eq(f->rets[0], PX_T_f32);
	ck_assert_uint_eq(f->nattrs, 1);
	ck_assert_uint_eq(f->attrs[0].val.n, 0);
	ck_assert_uint_eq(f->params[1].space, PX_TOK_shared);
	ck_assert_uint_eq(f->params[1].align, 8);
	ck_assert_uint_eq(f->params[2].kind, PX_PARAM_AGG);
	ck_assert_uint_eq(f->params[2].type, PX_T_b8);
	ck_assert_uint_eq(f->params[2].size, 16);
	px_node *n = f->first;
	ck_assert_uint_eq(n->nres, 2);
	ck_assert(!n->res[0].pair && n->res[1].pair);
	ck_assert(n->ops[2].neg);
	n = n->next;
	ck_assert_uint_eq(n->res[0].decl_count, 4);
	ck_assert_uint_eq(f->values[n->res[0].id].count, 4);
	n = n->next;
	ck_assert_int_eq(n->res[0].elem, 1);
	ck_assert_int_eq(n->ops[0].elem, 0);
	ck_assert(n->ops[1].fval == -1.5);
	n = n->next;
	ck_assert_uint_eq(n->res[0].kind, PX_O_DISCARD);
	ck_assert_uint_eq(n->nops, 5);
	ck_assert_int_eq(n->ops[0].off, 16);
	ck_assert_int_eq(n->ops[1].off, -8);
	ck_assert_uint_eq(n->ops[2].base->kind, PX_O_SYM);
	ck_assert_int_eq(n->ops[2].off, -4);
	ck_assert_int_eq(n->ops[3].off, -4);
	ck_assert_uint_eq(px_addr_idx(&n->ops[4])->kind, PX_O_GROUP);
	ck_assert_uint_eq(px_addr_idx(&n->ops[4])->nelems, 2);
	ck_assert_uint_eq(px_addr_idx(&n->ops[4])->elems[1].nelems, 2);
	n = n->next;
	ck_assert_uint_eq(n->kind, PX_N_CALL);
	ck_assert_uint_eq(n->nres, 2);
	ck_assert_uint_eq(n->nops, 1);
	ck_assert_int_eq(strncmp(n->callee.s, "ext", 3), 0);
	n = n->next;
	ck_assert_uint_eq(n->kind, PX_N_CALL);
	ck_assert_uint_eq(n->nres, 0);
	ck_assert_uint_eq(n->nops, 3);
	n = n->next;
	ck_assert_uint_eq(n->nprops, 4);
	ck_assert_int_eq(strncmp(n->props[3].val.s, "shared::cta", n->props[3].val.n), 0);
	ck_assert_uint_eq(n->props[2].val.n, 0);
	n = n->next;
	ck_assert_uint_eq(n->kind, PX_N_RET);
	ck_assert(n->has_guard && n->guard_neg);
	ck_assert_uint_eq(n->nops, 2);
	(void)m;
}

START_TEST(parse_module_forms)
{
	parsed p;
	parse(&p, forms, sizeof forms - 1, check_forms);
	ck_assert_msg(p.errors == 0, "%s", p.diags.text);
	ck_assert_int_eq(p.fns.nfuncs, 4);
	ck_assert(p.fns.is_decl[0]);
	ck_assert_uint_eq(p.m.ptx, 86);
	ck_assert_uint_eq(p.m.nglobals, 5);
	const px_global *g = &p.m.globals[0];
	ck_assert(g->is_array && g->init_is_list);
	ck_assert_uint_eq(g->count, 4);
	ck_assert_uint_eq(g->ninit, 4);
	ck_assert_uint_eq(g->init[3].kind, PX_O_INT);
	ck_assert_int_eq(g->init[3].ival, 4);
	ck_assert_uint_eq(p.m.globals[1].init[1].kind, PX_O_FBITS);
	ck_assert_uint_eq(p.m.globals[2].linkage, PX_LINK_INTERNAL);
	ck_assert_uint_eq(p.m.globals[2].space, PX_SPACE_SHARED);
	ck_assert(p.m.globals[3].unsized);
	ck_assert_uint_eq(p.m.globals[4].init[0].kind, PX_O_SYM);
	ck_assert(!p.m.globals[4].init_is_list);
	ck_assert_uint_eq(p.m.nfuncs, 4);
	uint32_t sym = px_strmap_get(&p.m.syms, "helper", 6);
	ck_assert_uint_eq(sym, 1u << 1 | 1);
	ck_assert_uint_eq(p.m.funcs[1].param_sizes[2], 16);
	ck_assert_uint_eq(px_strmap_get(&p.m.syms, "dyn", 3), 3u << 1);
	px_module_free(&p.m);
}
END_TEST

static const char errs[] =
	"kernel @k(%n: u32) {\n"                      /* 1 */
	"  %x:u32 = add %n,, 1\n"                     /* 2: syntax */
	"^a:\n"                                       /* 3 */
	"^a:\n"                                       /* 4: label twice */
	"  %tid:u32 = mov 1\n"                        /* 5: reserved */
	"  st.shared.v2 [%n], {%x, %x}\n"             /* 6: braces */
	"  %y:q32 = mov 1 # 2\n"                      /* 7: unknown type, bad char */
	"}\n"
	"global @k : u32\n"                           /* 9: redefinition */
	"kernel @j() reqntid(1, 2, 3, 4) nosuch {\n"  /* 10: arity, unknown directive */
	"  ret\n"
	"}\n"
	"func @h(%a: u32 global) {\n"                 /* 13: space on a scalar */
	"  ret\n"
	"}\n";

START_TEST(parse_errors)
{
	parsed p;
	parse(&p, errs, sizeof errs - 1, NULL);
	ck_assert_str_eq(p.diags.text,
		"2:19: unexpected ','\n"
		"4:1: redefinition of label '^a'\n"
		"3:1: note: label '^a' was first defined here\n"
		"5:3: '%tid' is a special register; it cannot name a value\n"
		"6:22: braces hold a property dictionary at the end of a statement; vector operands use ( ), e.g. (%a, %b)\n"
		"7:6: unknown type 'q32'\n"
		"7:18: unexpected character '#'\n"
		"7:20: unexpected integer '2', expected end of line, '{' or ','\n"
		"9:8: redefinition of '@k'\n"
		"1:8: note: '@k' was first defined here\n"
		"10:13: directive 'reqntid' takes 1 to 3 arguments, not 4\n"
		"10:33: unknown directive 'nosuch'\n"
		"13:17: a state space may follow only a ptr parameter type\n");
	ck_assert_int_eq(p.errors, 11);
	ck_assert_int_eq(p.fns.nfuncs, 3);
	ck_assert_uint_eq(p.fns.nerrors[0], 7);
	ck_assert_uint_eq(p.fns.nnodes[0], 3); /* ^a, mov, st */
	px_module_free(&p.m);
}
END_TEST

START_TEST(parse_recovery)
{
	/* A broken header: its body is still read (and checked) but not handed on. */
	static const char src[] =
		"kernel @k(%n: u32 {\n"
		"  %x = add %n, , 1\n"
		"}\n"
		"func @f() -> (u32) {\n"
		"  ret %y\n"
		"}\n"
		"func @g()\n"
		"extern func @f() -> (u32)\n"
		"extern func @f() -> (u64)\n"
		"func @f() -> (u32) {\n"
		"}\n"
		"kernel @open() {\n"
		"  exit\n";
	parsed p;
	parse(&p, src, sizeof src - 1, NULL);
	ck_assert_str_eq(p.diags.text,
		"1:19: unexpected '{'\n"
		"2:16: unexpected ','\n"
		"7:6: '@g' has no body; only an extern function may be declared without one\n"
		"9:13: '@f' does not match its earlier declaration\n"
		"4:6: note: '@f' was first defined here\n"
		"10:6: redefinition of '@f'\n"
		"4:6: note: '@f' was first defined here\n"
		"12:8: the body of '@open' is not closed with '}' before the end of the file\n");
	ck_assert_int_eq(p.fns.nfuncs, 5);
	ck_assert_str_eq(p.fns.name[0], "f");
	ck_assert(p.fns.is_decl[1] && p.fns.is_decl[2]);
	px_module_free(&p.m);
}
END_TEST

START_TEST(parse_limits)
{
	/* 200000 nested parentheses: one error, and the next line still parses */
	size_t depth = 200000;
	size_t len = depth + 200;
	char *src = malloc(len);
	size_t k = (size_t)sprintf(src, "kernel @k() {\n  foo ");
	memset(src + k, '(', depth);
	k += depth;
	k += (size_t)sprintf(src + k, "\n  %%a:u32 = mov 1\n}\n");
	parsed p;
	parse(&p, src, k, NULL);
	ck_assert_str_eq(p.diags.text, "2:71: brackets nested deeper than 64; the rest of the line is ignored\n");
	ck_assert_uint_eq(p.fns.nnodes[0], 1);
	px_module_free(&p.m);
	free(src);

	/* 100000 labels and a 10 MB operand list */
	enum { NLAB = 100000, NOPS = 1000000 };
	len = NLAB * 24 + NOPS * 10 + 200;
	src = malloc(len);
	k = (size_t)sprintf(src, "kernel @k() {\n");
	for (int i = 0; i < NLAB; i++)
		k += (size_t)sprintf(src + k, "^L%d:\n  bra ^L%d\n", i, NLAB - 1 - i);
	k += (size_t)sprintf(src + k, "  foo %%v0");
	for (int i = 1; i < NOPS; i++)
		k += (size_t)sprintf(src + k, ", %%v%d", i % 1000);
	k += (size_t)sprintf(src + k, "\n}\n");
	parse(&p, src, k, NULL);
	ck_assert_int_eq(p.errors, 0);
	ck_assert_uint_eq(p.fns.nlabels[0], NLAB);
	ck_assert_uint_eq(p.fns.nnodes[0], 2 * NLAB + 1);
	ck_assert_uint_eq(p.fns.nvalues[0], 1000);
	px_module_free(&p.m);
	free(src);
}
END_TEST

Suite *scanner_suite(void)
{
	Suite *s = suite_create("scanner");
	TCase *t = tcase_create("tokens");
	tcase_add_test(t, keywords_and_punctuation);
	tcase_add_test(t, dotted_operation_names);
	tcase_add_test(t, special_registers_and_values);
	tcase_add_test(t, numbers);
	tcase_add_test(t, lines_and_comments);
	tcase_add_test(t, crlf_and_missing_newline);
	tcase_add_test(t, bad_bytes);
	tcase_add_test(t, stray_nul);
	suite_add_tcase(s, t);
	t = tcase_create("parse");
	tcase_set_timeout(t, 30);
	tcase_add_test(t, parse_vadd);
	tcase_add_test(t, parse_module_forms);
	tcase_add_test(t, parse_errors);
	tcase_add_test(t, parse_recovery);
	tcase_add_test(t, parse_limits);
	suite_add_tcase(s, t);
	return s;
}
