/* px_parse: the scanner and the parser over a module's text. Two parsers
 * are built from grammar/parser.y: the plain one parses until the first
 * syntax error; then the top-level item with the error, and the rest of the
 * file, are parsed again by the one with lookahead correction
 * (front/parse_lac.c), whose messages list exactly the tokens that could
 * follow, but which checks every reduction for them: an input without errors
 * does not pay that. */
#include "front/build.h"
#include "parser.h"

#define YYSTYPE PXYYSTYPE
#include "lexer.h"

int pxyyparse_lac(void *scanner, px_parser *P);

/* Between two top-level items: the parser's stack holds only the module, so
 * a parse that begins here goes on exactly as this one would. */
void px_parse_set_mark(px_parser *P)
{
	P->mark = (px_parse_mark){P->off, P->last_tok, P->last_text, P->last_loc,
	                          P->quiet, P->nerrors, P->m->target_written,
	                          px_diags_mark(P->m->diags)};
	P->reg_undo.what = PX_REG_NONE;
}

/* Take back all the top-level item at the mark did (its messages, its function,
 * its registration) and parse from there with lookahead correction. */
static void parse_again(px_parser *P, yyscan_t *sc)
{
	px_module *m = P->m;
	const px_parse_mark *k = &P->mark;
	if (P->reg_undo.what != PX_REG_NONE)
		px_module_quiesce(m);
	if (P->reg_undo.what == PX_REG_ADDED) {
		px_module_sym_remove(m, m->funcs[P->reg_undo.index].name);
		m->nfuncs = P->reg_undo.index; /* it was the last one added */
	} else if (P->reg_undo.what == PX_REG_REPLACED) {
		m->funcs[P->reg_undo.index] = P->reg_undo.old;
	}
	P->reg_undo.what = PX_REG_NONE;
	px_func_drop(P);
	px_diags_rewind(m->diags, k->diags);
	m->target_written = k->target_written;
	P->nerrors = k->nerrors;
	P->quiet = k->quiet;
	P->off = k->off;
	P->in_off = k->off;
	P->last_tok = k->last_tok;
	P->last_text = k->last_text;
	P->last_loc = k->last_loc;
	P->depth = 0;
	P->restart = false;
	pxyylex_destroy(*sc);
	if (pxyylex_init_extra(P, sc)) {
		*sc = NULL;
		px_error_noloc(m->diags, PX_D_internal, "cannot start the scanner");
		P->nerrors++;
		return;
	}
	pxyyparse_lac(*sc, P);
}

int px_parse(px_module *m)
{
	px_parser P = {.m = m};
	px_arena_init(&P.tmp);
	if (m->srclen > INT32_MAX - 2) {
		/* px_loc offsets are 32-bit. */
		px_error_noloc(m->diags, PX_D_input_too_large);
		return 1;
	}
	yyscan_t sc;
	if (pxyylex_init_extra(&P, &sc)) {
		px_error_noloc(m->diags, PX_D_internal, "cannot start the scanner");
		return 1;
	}
	px_parse_set_mark(&P);
	pxyyparse(sc, &P);
	if (P.restart)
		parse_again(&P, &sc);
	px_func_drop(&P); /* a body left open at the end of the file */
	if (sc)
		pxyylex_destroy(sc);
	px_arena_free(&P.tmp);
	return (int)P.nerrors;
}
