/* The MIR grammar (see ptxemit-mir(5)).
 *
 * Only syntax is decided here. The actions hand what a rule matched to the
 * builders of src/front/ (front/build.h), which make the module IR of
 * front/ir.h, resolve names to table indices where the IR stores an index
 * (types, directives, special registers), and report what one item shows
 * wrong (a redefinition, a count out of range); whether values, operations
 * and operands make sense is the verifier's business.
 *
 * Every statement ends with NL (the scanner decides where lines may wrap).
 * After a syntax error the parser skips to the end of the line and goes on,
 * so every line with an error is reported once.
 *
 * Two parsers are built from this file: this one, and the same with
 * parse.lac=full (src/front/parse_lac.c), which px_parse (src/front/parse.c)
 * runs from the top-level item with the first syntax error on. */
%define api.pure full
%define api.prefix {pxyy}
%define api.token.prefix {PXT_}
%define parse.error custom
%define parse.lac none
%param {void *scanner}
%parse-param {px_parser *P}

%code requires {
#include "front/parse.h"
}

%code {
#include <string.h>

#include "front/build.h"

#define YYSTYPE PXYYSTYPE
#include "lexer.h"

#ifndef PX_PARSER_LAC
/* The parser without lookahead correction reads through next_token. */
static int next_token(YYSTYPE *lval, void *scanner, px_parser *P);
#define pxyylex(lval, scanner) next_token(lval, scanner, P)
#endif

static void pxyyerror(void *scanner, px_parser *P, const char *msg);
}

%union {
	px_tok tok;
	px_olink *ln;
	px_olist ol;
	px_plist pl;
	px_plink *pk;
	px_guard g;
	px_node *node;
	uint8_t u8;
	struct { px_tok count; bool present, unsized; } arr;
	struct { px_tok n; bool present; } opt;
	struct { px_olist l; bool list, string; } init;
	struct { px_olist l; bool present; px_loc loc; } rets;
}

%token <tok> VALUE "value" SREG "special register" SYM "symbol" LABEL "label"
%token <tok> WORD "name" DWORD "dotted name" INT "integer"
%token <tok> FLOAT "floating-point number" FBITS "floating-point bit pattern"
%token <tok> NL "end of line" ARROW "'->'" DISCARD "'_'" STRING "string"
%token <tok> K_ALIGN "'align'" K_ASM "'asm'" K_ATTRS "'attrs'" K_CALL "'call'" K_CONST "'const'"
%token <tok> K_EXTERN "'extern'" K_FUNC "'func'" K_GLOBAL "'global'" K_INTERNAL "'internal'"
%token <tok> K_KERNEL "'kernel'" K_LOC "'loc'" K_LOCAL "'local'" K_PTX "'ptx'" K_RET "'ret'"
%token <tok> K_PRINTF "'printf'"
%token <tok> K_SHARED "'shared'" K_TARGET "'target'" K_WEAK "'weak'"
%token <tok> K_INF "'inf'" K_NAN "'nan'"
%token <tok> '(' ')' '[' ']' '{' '}' ',' ':' '|' '=' '+' '-' '!' '@'

%type <u8> linkage gspace
%type <tok> opname dkey dval keyword pname layout pspace
%type <pk> ditem
%type <ln> operand plain_operand abase literal result
%type <ol> opnds opnds_opt results dargs literals rtypes stypes_opt srets
%type <pl> dict dict_opt ditems fattrs
%type <g> guard
%type <node> instr
%type <arr> garray
%type <opt> align
%type <init> ginit
%type <rets> frets

%%

module
	: %empty
	| module item
	;

item
	: K_TARGET WORD NL                  { px_target_line(P, $2, NULL); }
	| K_TARGET WORD K_PTX FLOAT NL      { px_target_line(P, $2, &$4); }
	| K_TARGET error NL                 { P->m->target_written = true; /* reported; no "no target" too */ }
	| linkage gspace SYM ':' WORD garray align ginit NL
		{ px_global_def(P, $1, $2, $3, $5, $6.present && !$6.unsized ? &$6.count : NULL, $6.unsized,
		                $7.present ? &$7.n : NULL, $8.l, $8.list, $8.string); px_stmt_reset(P); }
	| func_head NL                      { px_func_register(P, false); px_func_end(P); }
	| func_head body_open stmts '}' NL  { px_func_end(P); }
	| func_head NL body_open stmts '}' NL { px_func_end(P); }
	| error NL                          { yyerrok; px_func_drop(P); px_stmt_reset(P); }
	| error err_open stmts '}' NL       { yyerrok; px_func_drop(P); }
	;

linkage
	: %empty     { $$ = PX_LINK_VISIBLE; }
	| K_EXTERN   { $$ = PX_LINK_EXTERN; }
	| K_WEAK     { $$ = PX_LINK_WEAK; }
	| K_INTERNAL { $$ = PX_LINK_INTERNAL; }
	;

/* ---- globals */

gspace
	: K_GLOBAL { $$ = PX_SPACE_GLOBAL; }
	| K_CONST  { $$ = PX_SPACE_CONST; }
	| K_SHARED { $$ = PX_SPACE_SHARED; }
	;

garray
	: %empty          { $$.present = false; $$.unsized = false; }
	| '[' INT ']'     { $$.present = true; $$.unsized = false; $$.count = $2; }
	| '[' ']'         { $$.present = true; $$.unsized = true; }
	;

align
	: %empty          { $$.present = false; }
	| K_ALIGN INT     { $$.present = true; $$.n = $2; }
	;

ginit
	: %empty               { $$.l = (px_olist){0}; $$.list = false; $$.string = false; }
	| '=' literal          { $$.l = px_olist_one($2); $$.list = false; $$.string = false; }
	| '=' '[' literals ']' { $$.l = $3; $$.list = true; $$.string = false; }
	| '=' STRING           { $$.l = px_string_bytes(P, $2); $$.list = true; $$.string = true; }
	| '=' '{' literals '}' { PX_PERR(P, $2.loc, PX_D_brace_init); $$.l = $3; $$.list = true; $$.string = false; }
	;

literals
	: literal              { $$ = px_olist_one($1); }
	| literals ',' literal { $$ = px_olist_add($1, $3); }
	;

literal
	: INT   { $$ = px_literal_link(P, PX_O_INT, &$1); }
	| FLOAT { $$ = px_literal_link(P, PX_O_FLOAT, &$1); }
	| K_INF { $$ = px_literal_link(P, PX_O_FLOAT, &$1); }
	| K_NAN { $$ = px_literal_link(P, PX_O_FLOAT, &$1); }
	| FBITS { $$ = px_literal_link(P, PX_O_FBITS, &$1); }
	| SYM   { $$ = px_literal_link(P, PX_O_SYM, &$1); }
	| '(' literals ')' { $$ = px_init_lanes(P, $1.loc, $2); } /* a packed element's lanes */
	;

/* ---- functions */

func_head
	: linkage K_KERNEL SYM { px_func_begin(P, $1, true, $3); }
	  '(' params_opt ')' fdirs fattrs
		{ px_func_header(P, (px_olist){0}, $2.loc, $9); }
	| linkage K_FUNC SYM { px_func_begin(P, $1, false, $3); }
	  '(' params_opt ')' frets fdirs fattrs
		{ px_func_header(P, $8.l, $8.present ? $8.loc : $2.loc, $10); }
	;

params_opt
	: %empty
	| params
	;

params
	: param
	| params ',' param
	;

param
	: pname ':' WORD pspace align
		{ px_param_add(P, $1, $3, NULL, (uint16_t)$4.i, $5.present ? &$5.n : NULL, $4.loc); }
	| pname ':' WORD '[' INT ']' align
		{ px_param_add(P, $1, $3, &$5, 0, $7.present ? &$7.n : NULL, $3.loc); }
	;

pname
	: VALUE { $$ = $1; }
	| SREG  { $$ = $1; PX_PERR(P, $1.loc, PX_D_reserved_name, (int)$1.s.n, $1.s.s); }
	;

pspace
	: %empty   { $$ = (px_tok){0}; }
	| K_GLOBAL { $$ = $1; $$.i = PX_TOK_global; }
	| K_SHARED { $$ = $1; $$.i = PX_TOK_shared; }
	| K_CONST  { $$ = $1; $$.i = PX_TOK_const; }
	| K_LOCAL  { $$ = $1; $$.i = PX_TOK_local; }
	;

frets
	: %empty                 { $$.present = false; $$.l = (px_olist){0}; }
	| ARROW WORD             { $$.present = true; $$.loc = $1.loc; $$.l = px_olist_one(px_type_link(P, $2)); }
	| ARROW '(' rtypes ')'   { $$.present = true; $$.loc = $1.loc; $$.l = $3; }
	| ARROW '(' WORD '[' INT ']' align ')'
		{ $$.present = true; $$.loc = $1.loc; $$.l = px_olist_one(px_agg_ret(P, $3, $5, $7.present ? &$7.n : NULL)); }
	| ARROW '(' rtypes ',' WORD '[' INT ']' align ')'
		{ $$.present = true; $$.loc = $1.loc; $$.l = px_olist_add($3, px_agg_ret(P, $5, $7, $9.present ? &$9.n : NULL));
		  PX_PERR(P, $5.loc, PX_D_aggregate_result_alone); }
	;

rtypes
	: WORD            { $$ = px_olist_one(px_type_link(P, $1)); }
	| rtypes ',' WORD { $$ = px_olist_add($1, px_type_link(P, $3)); }
	;

/* An indirect call's signature: ': (T, ...) -> (T, ...)', either list empty,
 * the arrow left out for no results. */
stypes_opt
	: %empty { $$ = (px_olist){0}; }
	| rtypes
	;

srets
	: %empty                   { $$ = (px_olist){0}; }
	| ARROW WORD               { $$ = px_olist_one(px_type_link(P, $2)); }
	| ARROW '(' stypes_opt ')' { $$ = $3; }
	;

fdirs
	: %empty
	| fdirs fdir
	;

fdir
	: WORD               { px_directive_add(P, $1, NULL); }
	| WORD '(' ')'       { px_olist none = {0}; px_directive_add(P, $1, &none); }
	| WORD '(' dargs ')' { px_directive_add(P, $1, &$3); }
	;

dargs
	: INT           { $$ = px_olist_one(px_dir_arg(P, $1)); }
	| dargs ',' INT { $$ = px_olist_add($1, px_dir_arg(P, $3)); }
	;

fattrs
	: %empty       { $$ = (px_plist){0}; }
	| K_ATTRS dict { $$ = $2; }
	;

body_open
	: '{' { px_body_open(P); }
	;

/* A body after a header that did not parse is parsed for its errors only. */
err_open
	: '{' { px_broken_body_open(P); }
	;

/* ---- statements */

stmts
	: %empty
	| stmts stmt NL  { px_stmt_reset(P); }
	| stmts error NL { yyerrok; px_stmt_reset(P); }
	;

stmt
	: LABEL ':'   { px_label_def(P, $1); }
	| guard instr { px_stmt_done(P, $1, $2); }
	| K_LOCAL SYM ':' WORD garray align
		{ px_local_def(P, $2, $4, $5.present && !$5.unsized ? &$5.count : NULL, $5.unsized, $6.present ? &$6.n : NULL); }
	| K_LOC STRING INT            { px_srcloc_set(P, $2, $3, NULL); }
	| K_LOC STRING INT ':' INT    { px_srcloc_set(P, $2, $3, &$5); }
	| K_LOC WORD                  { px_srcloc_off(P, $2); }
	;

guard
	: %empty          { $$ = (px_guard){0}; }
	| '@' VALUE       { $$ = (px_guard){true, false, px_value_of(P, $2), $1.loc}; }
	| '@' '!' VALUE   { $$ = (px_guard){true, true, px_value_of(P, $3), $1.loc}; }
	;

instr
	: results '=' opname opnds_opt dict_opt          { $$ = px_inst_node(P, &$1, &$3, &$4, &$5); }
	| opname opnds_opt dict_opt                      { $$ = px_inst_node(P, NULL, &$1, &$2, &$3); }
	| results '=' K_CALL SYM '(' opnds_opt ')'       { $$ = px_call_node(P, &$1, $3, $4, $6); }
	| K_CALL SYM '(' opnds_opt ')'                   { $$ = px_call_node(P, NULL, $1, $2, $4); }
	| results '=' K_CALL VALUE '(' opnds_opt ')' ':' '(' stypes_opt ')' srets
		{ $$ = px_icall_node(P, &$1, $3, $4, $6, $10, $12); }
	| K_CALL VALUE '(' opnds_opt ')' ':' '(' stypes_opt ')' srets
		{ $$ = px_icall_node(P, NULL, $1, $2, $4, $8, $10); }
	| K_ASM STRING '(' ')' '(' opnds_opt ')'         { $$ = px_asm_node(P, $1, $2, NULL, $6); }
	| K_ASM STRING '(' results ')' '(' opnds_opt ')' { $$ = px_asm_node(P, $1, $2, &$4, $7); }
	| K_PRINTF STRING                                { $$ = px_printf_node(P, $1, $2, (px_olist){0}); }
	| K_PRINTF STRING ',' opnds                      { $$ = px_printf_node(P, $1, $2, $4); }
	| K_RET                                          { $$ = px_ret_node(P, $1, NULL); }
	| K_RET operand                                  { $$ = px_ret_node(P, $1, $2); }
	;

opname
	: WORD
	| DWORD
	;

results
	: result             { $$ = px_olist_one($1); }
	| results ',' result { $$ = px_olist_add($1, $3); }
	| results '|' result { $3->o.pair = true; $$ = px_olist_add($1, $3); }
	;

result
	: pname                        { $$ = px_result_link(P, &$1, NULL, NULL); }
	| pname ':' WORD               { $$ = px_result_link(P, &$1, &$3, NULL); }
	| pname ':' WORD '[' INT ']'   { $$ = px_result_link(P, &$1, &$3, &$5); }
	| pname '[' INT ']'            { $$ = px_result_elem_link(P, $1, $3); }
	| DISCARD                      { $$ = px_opnd_link(P, PX_O_DISCARD, $1.loc); }
	;

opnds_opt
	: %empty { $$ = (px_olist){0}; }
	| opnds
	;

opnds
	: operand                        { $$ = px_olist_one($1); }
	| opnds ',' operand              { $$ = px_olist_add($1, $3); }
	| opnds ',' '{' opnds '}'        { $$ = px_olist_add($1, px_brace_group(P, $3.loc, $4)); }
	;

/* inf and nan are dictionary keys too ({nan}: redux.sync's slot), so a
 * dictionary's stray operand (below) is never one */
operand
	: plain_operand
	| K_INF                           { $$ = px_literal_link(P, PX_O_FLOAT, &$1); }
	| K_NAN                           { $$ = px_literal_link(P, PX_O_FLOAT, &$1); }
	;

plain_operand
	: VALUE                           { $$ = px_value_link(P, &$1, NULL); }
	| VALUE '[' INT ']'               { $$ = px_value_link(P, &$1, &$3); }
	| '!' VALUE                       { $$ = px_not_value_link(P, $1, $2); }
	| '-' VALUE                       { $$ = px_neg_value_link(P, $1, $2); }
	| INT                             { $$ = px_literal_link(P, PX_O_INT, &$1); }
	| FLOAT                           { $$ = px_literal_link(P, PX_O_FLOAT, &$1); }
	| FBITS                           { $$ = px_literal_link(P, PX_O_FBITS, &$1); }
	| SYM                             { $$ = px_literal_link(P, PX_O_SYM, &$1); }
	| SREG                            { $$ = px_sreg_link(P, $1); }
	| LABEL                           { $$ = px_label_link(P, $1); }
	| '(' opnds ')'                   { $$ = px_group_link(P, $1.loc, $2); }
	| '[' abase ']'                   { $$ = px_addr_link(P, $1.loc, $2, 0, NULL); }
	| '[' abase '+' INT ']'           { $$ = px_addr_link(P, $1.loc, $2, px_addr_offset(P, $4, false), NULL); }
	| '[' abase '-' INT ']'           { $$ = px_addr_link(P, $1.loc, $2, px_addr_offset(P, $4, true), NULL); }
	| '[' abase INT ']'               { $$ = px_addr_folded(P, $1.loc, $2, $3); } /* [%p -16] */
	| '[' abase ',' '(' opnds ')' ']' { $$ = px_addr_link(P, $1.loc, $2, 0, px_group_link(P, $4.loc, $5)); }
	;

abase
	: VALUE             { $$ = px_value_link(P, &$1, NULL); }
	| VALUE '[' INT ']' { $$ = px_value_link(P, &$1, &$3); }
	| SYM               { $$ = px_literal_link(P, PX_O_SYM, &$1); }
	| INT               { $$ = px_literal_link(P, PX_O_INT, &$1); }
	;

/* ---- property dictionaries */

dict_opt
	: %empty { $$ = (px_plist){0}; }
	| dict
	;

dict
	: '{' '}'            { $$ = (px_plist){0}; }
	| '{' ditems '}'     { $$ = $2; }
	| '{' ditems ',' '}' { $$ = $2; }
	;

ditems
	: ditem            { $$ = px_plist_add((px_plist){0}, $1); }
	| ditems ',' ditem { $$ = px_plist_add($1, $3); }
	;

ditem
	: dkey          { $$ = px_prop_link(P, $1, NULL); }
	| dkey '=' dval { $$ = px_prop_link(P, $1, &$3); }
	| plain_operand { $$ = px_brace_item(P, $1); } /* {%a, %b} where a vector operand was meant */
	;

dkey
	: WORD
	| DWORD
	| keyword
	;

dval
	: WORD
	| DWORD
	| INT
	| FLOAT
	| keyword
	| layout
	;

/* A tile layout, shape:stride ("(8,4,2,2):(4@laneid,1@laneid,2,1)"): the value
 * is its source text, read by the op family that takes it (front/layout.h). */
layout
	: '(' lsizes ')' ':' '(' lstrides ')'
		{ $$ = $1; $$.s.n = (uint32_t)($7.s.s + $7.s.n - $1.s.s); }
	;

lsizes
	: INT
	| lsizes ',' INT
	;

lstrides
	: lstride
	| lstrides ',' lstride
	;

lstride
	: INT
	| INT SYM
	;

keyword
	: K_ALIGN | K_ASM | K_ATTRS | K_CALL | K_CONST | K_EXTERN | K_FUNC | K_GLOBAL | K_INTERNAL
	| K_KERNEL | K_LOCAL | K_PTX | K_RET | K_SHARED | K_TARGET | K_WEAK | K_PRINTF | K_INF | K_NAN
	;

%%
/* ---------------------------------------------------------------- syntax errors */

#ifdef PX_PARSER_LAC
/* A token's name as messages spell it. */
static px_str token_name(yysymbol_kind_t k)
{
	if (k == YYSYMBOL_YYEOF)
		return (px_str){"end of file", 11};
	const char *name = yysymbol_name(k);
	size_t n = strlen(name);
	if (n >= 2 && name[0] == '"')
		name++, n -= 2;
	return (px_str){name, (uint32_t)n};
}

/* Whether a message shows the token's own text, as it does for names and numbers. */
static bool token_shown(yysymbol_kind_t k)
{
	switch (k) {
	case YYSYMBOL_VALUE: case YYSYMBOL_SREG: case YYSYMBOL_SYM: case YYSYMBOL_LABEL:
	case YYSYMBOL_WORD: case YYSYMBOL_DWORD: case YYSYMBOL_INT: case YYSYMBOL_FLOAT:
	case YYSYMBOL_FBITS:
		return true;
	default:
		return false;
	}
}
#endif

static int yyreport_syntax_error(const yypcontext_t *ctx, void *scanner, px_parser *P)
{
	(void)scanner;
#ifndef PX_PARSER_LAC
	/* Nothing is reported here: px_parse parses this item again with
	 * lookahead correction, which reports it. */
	(void)ctx;
	P->restart = true;
	return 0;
#else
	yysymbol_kind_t tok = yypcontext_token(ctx);
	if (!px_syntax_error_due(P, tok == YYSYMBOL_YYEOF))
		return 0;
	enum { MAX_EXPECTED = 5 };
	yysymbol_kind_t exp[MAX_EXPECTED];
	px_str names[MAX_EXPECTED];
	int n = yypcontext_expected_tokens(ctx, exp, MAX_EXPECTED);
	for (int i = 0; i < n; i++)
		names[i] = token_name(exp[i]);
	px_syntax_error(P, token_name(tok), token_shown(tok), names, n);
	return 0;
#endif
}

/* Bison's only own message in custom mode: its stack ran out. */
static void pxyyerror(void *scanner, px_parser *P, const char *msg)
{
	(void)scanner;
	PX_PERR(P, P->last_loc, PX_D_internal, msg);
}

#ifndef PX_PARSER_LAC
static int next_token(YYSTYPE *lval, void *scanner, px_parser *P)
{
	/* after the first syntax error: end the input, so the parse stops */
	if (P->restart)
		return PXT_YYEOF;
	/* the parser asks for the token after an item's NL once the item is
	 * reduced (that state has a default reduction); a function whose
	 * header line ended with NL is still open (P->f) */
	if (!P->f && (P->last_tok == PXT_NL || P->last_tok == 0))
		px_parse_set_mark(P);
	return (pxyylex)(lval, scanner);
}
#endif
