/* The MIR grammar (see ptxemit-mir(5)): builds the module IR of front/ir.h.
 *
 * Only syntax is checked here. Names are resolved to table indices where the
 * IR stores an index (types, directives, special registers); whether values,
 * operations and operands make sense is the verifier's business.
 *
 * Every statement ends with NL (the scanner decides where lines may wrap).
 * After a syntax error the parser skips to the end of the line and goes on,
 * so every line with an error is reported once.
 *
 * Two parsers are built from this file. This one, without lookahead
 * correction, parses until the first syntax error; the build runs bison on
 * it again with parse.lac=full (src/front/parse_lac.c: pxyyparse_lac), and
 * px_parse parses the top-level item with the error, and the rest of the
 * file, again with that one: its messages list exactly the tokens that could
 * follow, but checking every reduction for them costs a tenth of the parse,
 * so an input without errors does not pay it. */
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
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "front/format.h"
#include "tables/tables.h"

#define YYSTYPE PXYYSTYPE
#include "lexer.h"

#ifndef PX_PARSER_LAC
/* The parser without lookahead correction reads through next_token. */
static int next_token(YYSTYPE *lval, void *scanner, px_parser *P);
#define pxyylex(lval, scanner) next_token(lval, scanner, P)
#endif

static void pxyyerror(void *scanner, px_parser *P, const char *msg);

static px_str sans_sigil(px_tok t);
static px_olink *new_opnd(px_parser *P, uint8_t kind, px_loc loc);
static px_olist olist_one(px_olink *l);
static px_olist olist_add(px_olist l, px_olink *x);
static px_opnd *olist_array(px_arena *a, px_olist l);
static px_plink *prop(px_parser *P, px_tok key, const px_tok *val);
static px_plist plist_add(px_plist l, px_plink *x);
static px_prop *plist_array(px_arena *a, px_plist l);
static uint32_t value_of(px_parser *P, px_tok t);
static px_olink *value_opnd(px_parser *P, px_tok t, const px_tok *index);
static px_olink *result_opnd(px_parser *P, px_tok t, const px_tok *type, const px_tok *count);
static px_olink *literal(px_parser *P, uint8_t kind, px_tok t);
static px_olink *type_link(px_parser *P, px_tok t);
static px_olink *agg_ret(px_parser *P, px_tok type, px_tok count, const px_tok *align);
static px_olink *dir_arg(px_parser *P, px_tok t);
static px_olink *group(px_parser *P, px_loc loc, px_olist elems);
static px_olink *init_lanes(px_parser *P, px_loc loc, px_olist elems);
static px_olink *brace_group(px_parser *P, px_loc loc, px_olist elems);
static px_olink *address(px_parser *P, px_loc loc, px_opnd *base, int64_t off, px_olink *idx);
static px_opnd *addr_base(px_parser *P, px_olink *l);
static int64_t addr_offset(px_parser *P, px_tok t, bool minus);
static uint16_t type_of(px_parser *P, px_tok t);
static uint64_t small_uint(px_parser *P, px_tok t, uint64_t lo, uint64_t hi);
static px_node *new_node(px_parser *P, uint8_t kind, px_loc loc);
static void loc_set(px_parser *P, px_tok file, px_tok line, const px_tok *col);
static void loc_off(px_parser *P, px_tok word);
static px_node *inst_node(px_parser *P, const px_olist *res, px_tok op, px_olist ops, px_plist props);
static void stmt_done(px_parser *P, px_guard g, px_node *n);
static void label_def(px_parser *P, px_tok t);
static px_node *asm_node(px_parser *P, px_tok kw, px_tok text, const px_olist *outs, px_olist ins);
static px_node *printf_node(px_parser *P, px_tok kw, px_tok text, px_olist args);
static px_node *icall_node(px_parser *P, const px_olist *res, px_tok kw, px_tok target, px_olist args,
                           px_olist ptypes, px_olist rtypes);
static void local_def(px_parser *P, px_tok name, px_tok type, const px_tok *count, bool unsized,
                      const px_tok *align);
static void func_begin(px_parser *P, uint8_t linkage, bool kernel, px_tok name);
static px_loc sym_loc(const px_module *m, uint32_t sym);
static void param_add(px_parser *P, px_tok name, px_tok type, const px_tok *count, uint16_t space,
                      const px_tok *align, px_loc space_loc);
static void directive(px_parser *P, px_tok name, const px_olist *args);
static void func_header(px_parser *P, px_olist rets, px_loc rets_loc, px_plist attrs);
static void func_register(px_parser *P, bool defined);
static void func_end(px_parser *P);
static void func_drop(px_parser *P);
static void global_def(px_parser *P, uint8_t linkage, uint8_t space, px_tok name, px_tok type,
                       const px_tok *count, bool unsized, const px_tok *align, px_olist init,
                       bool init_list, bool init_string);
static px_str unescape(px_arena *a, px_tok t);
static px_olist string_bytes(px_parser *P, px_tok t);
static void target_line(px_parser *P, px_tok name, const px_tok *ptx);
static void stmt_reset(px_parser *P);
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
	uint16_t u16;
	struct {
		px_tok count;
		bool present, unsized;
	} arr;
	struct {
		px_tok n;
		bool present;
	} opt;
	struct {
		px_olist l;
		bool list, string;
	} init;
	struct {
		px_olist l;
		bool present;
		px_loc loc;
	} rets;
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
%token <tok> '(' ')' '[' ']' '{' '}' ',' ':' '|' '=' '+' '-' '!' '@'

%type <u8> linkage gspace
%type <tok> opname dkey dval keyword pname layout pspace
%type <pk> ditem
%type <ln> operand abase literal result
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
	: K_TARGET WORD NL                  { target_line(P, $2, NULL); }
	| K_TARGET WORD K_PTX FLOAT NL      { target_line(P, $2, &$4); }
	| K_TARGET error NL                 { P->m->target_written = true; /* reported; no "no target" too */ }
	| linkage gspace SYM ':' WORD garray align ginit NL
		{ global_def(P, $1, $2, $3, $5, $6.present && !$6.unsized ? &$6.count : NULL, $6.unsized,
		             $7.present ? &$7.n : NULL, $8.l, $8.list, $8.string); stmt_reset(P); }
	| func_head NL                      { func_register(P, false); func_end(P); }
	| func_head body_open stmts '}' NL  { func_end(P); }
	| func_head NL body_open stmts '}' NL { func_end(P); }
	| error NL                          { yyerrok; func_drop(P); stmt_reset(P); }
	| error err_open stmts '}' NL       { yyerrok; func_drop(P); }
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
	| '=' literal          { $$.l = olist_one($2); $$.list = false; $$.string = false; }
	| '=' '[' literals ']' { $$.l = $3; $$.list = true; $$.string = false; }
	| '=' STRING           { $$.l = string_bytes(P, $2); $$.list = true; $$.string = true; }
	| '=' '{' literals '}'
		{
			PX_PERR(P, $2.loc, PX_D_brace_init);
			$$.l = $3;
			$$.list = true;
			$$.string = false;
		}
	;

literals
	: literal              { $$ = olist_one($1); }
	| literals ',' literal { $$ = olist_add($1, $3); }
	;

literal
	: INT   { $$ = literal(P, PX_O_INT, $1); }
	| FLOAT { $$ = literal(P, PX_O_FLOAT, $1); }
	| FBITS { $$ = literal(P, PX_O_FBITS, $1); }
	| SYM   { $$ = literal(P, PX_O_SYM, $1); }
	| '(' literals ')' { $$ = init_lanes(P, $1.loc, $2); } /* a packed element's lanes */
	;

/* ---- functions */

func_head
	: linkage K_KERNEL SYM { func_begin(P, $1, true, $3); }
	  '(' params_opt ')' fdirs fattrs
		{ func_header(P, (px_olist){0}, $2.loc, $9); }
	| linkage K_FUNC SYM { func_begin(P, $1, false, $3); }
	  '(' params_opt ')' frets fdirs fattrs
		{ func_header(P, $8.l, $8.present ? $8.loc : $2.loc, $10); }
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
		{ param_add(P, $1, $3, NULL, (uint16_t)$4.i, $5.present ? &$5.n : NULL, $4.loc); }
	| pname ':' WORD '[' INT ']' align
		{ param_add(P, $1, $3, &$5, 0, $7.present ? &$7.n : NULL, $3.loc); }
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
	| ARROW WORD             { $$.present = true; $$.loc = $1.loc; $$.l = olist_one(type_link(P, $2)); }
	| ARROW '(' rtypes ')'   { $$.present = true; $$.loc = $1.loc; $$.l = $3; }
	| ARROW '(' WORD '[' INT ']' align ')'
		{ $$.present = true; $$.loc = $1.loc; $$.l = olist_one(agg_ret(P, $3, $5, $7.present ? &$7.n : NULL)); }
	| ARROW '(' rtypes ',' WORD '[' INT ']' align ')'
		{ $$.present = true; $$.loc = $1.loc; $$.l = olist_add($3, agg_ret(P, $5, $7, $9.present ? &$9.n : NULL));
		  PX_PERR(P, $5.loc, PX_D_aggregate_result_alone); }
	;

rtypes
	: WORD            { $$ = olist_one(type_link(P, $1)); }
	| rtypes ',' WORD { $$ = olist_add($1, type_link(P, $3)); }
	;

/* An indirect call's signature: ': (T, ...) -> (T, ...)', either list empty,
 * the arrow left out for no results. */
stypes_opt
	: %empty { $$ = (px_olist){0}; }
	| rtypes
	;

srets
	: %empty                   { $$ = (px_olist){0}; }
	| ARROW WORD               { $$ = olist_one(type_link(P, $2)); }
	| ARROW '(' stypes_opt ')' { $$ = $3; }
	;

fdirs
	: %empty
	| fdirs fdir
	;

fdir
	: WORD               { directive(P, $1, NULL); }
	| WORD '(' ')'       { px_olist none = {0}; directive(P, $1, &none); }
	| WORD '(' dargs ')' { directive(P, $1, &$3); }
	;

dargs
	: INT           { $$ = olist_one(dir_arg(P, $1)); }
	| dargs ',' INT { $$ = olist_add($1, dir_arg(P, $3)); }
	;

fattrs
	: %empty       { $$ = (px_plist){0}; }
	| K_ATTRS dict { $$ = $2; }
	;

/* The body's '{' ends the header, so it does not count toward the nesting
 * of the first statement (the scanner ends no statement after '{'). */
body_open
	: '{' { func_register(P, true); P->in_body = true; P->depth = 0; P->dloc = (px_dloc){0, 0, 0}; P->dloc_id = 0; stmt_reset(P); }
	;

/* The body of a function whose header did not parse: parsed for its errors only. */
err_open
	: '{' {
		if (!P->f)
			func_begin(P, PX_LINK_VISIBLE, false, (px_tok){0});
		P->f_broken = true;
		P->in_body = true;
		P->depth = 0;
		stmt_reset(P);
	}
	;

/* ---- statements */

stmts
	: %empty
	| stmts stmt NL  { stmt_reset(P); }
	| stmts error NL { yyerrok; stmt_reset(P); }
	;

stmt
	: LABEL ':'   { label_def(P, $1); }
	| guard instr { stmt_done(P, $1, $2); }
	| K_LOCAL SYM ':' WORD garray align
		{ local_def(P, $2, $4, $5.present && !$5.unsized ? &$5.count : NULL, $5.unsized, $6.present ? &$6.n : NULL); }
	| K_LOC STRING INT            { loc_set(P, $2, $3, NULL); }
	| K_LOC STRING INT ':' INT    { loc_set(P, $2, $3, &$5); }
	| K_LOC WORD                  { loc_off(P, $2); }
	;

guard
	: %empty          { $$ = (px_guard){0}; }
	| '@' VALUE       { $$ = (px_guard){true, false, value_of(P, $2), $1.loc}; }
	| '@' '!' VALUE   { $$ = (px_guard){true, true, value_of(P, $3), $1.loc}; }
	;

instr
	: results '=' opname opnds_opt dict_opt { $$ = inst_node(P, &$1, $3, $4, $5); }
	| opname opnds_opt dict_opt             { $$ = inst_node(P, NULL, $1, $2, $3); }
	| results '=' K_CALL SYM '(' opnds_opt ')'
		{
			$$ = new_node(P, PX_N_CALL, $1.head->o.loc);
			$$->res = olist_array(&P->m->fn_arena, $1);
			$$->nres = $1.n;
			$$->callee = sans_sigil($4);
			$$->callee_loc = $4.loc;
			$$->ops = olist_array(&P->m->fn_arena, $6);
			$$->nops = $6.n;
		}
	| K_CALL SYM '(' opnds_opt ')'
		{
			$$ = new_node(P, PX_N_CALL, $1.loc);
			$$->callee = sans_sigil($2);
			$$->callee_loc = $2.loc;
			$$->ops = olist_array(&P->m->fn_arena, $4);
			$$->nops = $4.n;
		}
	| results '=' K_CALL VALUE '(' opnds_opt ')' ':' '(' stypes_opt ')' srets
		{ $$ = icall_node(P, &$1, $3, $4, $6, $10, $12); }
	| K_CALL VALUE '(' opnds_opt ')' ':' '(' stypes_opt ')' srets
		{ $$ = icall_node(P, NULL, $1, $2, $4, $8, $10); }
	| K_ASM STRING '(' ')' '(' opnds_opt ')'         { $$ = asm_node(P, $1, $2, NULL, $6); }
	| K_ASM STRING '(' results ')' '(' opnds_opt ')' { $$ = asm_node(P, $1, $2, &$4, $7); }
	| K_PRINTF STRING                                { $$ = printf_node(P, $1, $2, (px_olist){0}); }
	| K_PRINTF STRING ',' opnds                      { $$ = printf_node(P, $1, $2, $4); }
	| K_RET { $$ = new_node(P, PX_N_RET, $1.loc); }
	| K_RET operand
		{
			/* ret (%a, %b) returns the group's elements. */
			$$ = new_node(P, PX_N_RET, $1.loc);
			if ($2->o.kind == PX_O_GROUP) {
				$$->ops = $2->o.elems;
				$$->nops = $2->o.nelems;
			} else {
				$$->ops = olist_array(&P->m->fn_arena, olist_one($2));
				$$->nops = 1;
			}
		}
	;

opname
	: WORD
	| DWORD
	;

results
	: result             { $$ = olist_one($1); }
	| results ',' result { $$ = olist_add($1, $3); }
	| results '|' result { $3->o.pair = true; $$ = olist_add($1, $3); }
	;

result
	: pname                        { $$ = result_opnd(P, $1, NULL, NULL); }
	| pname ':' WORD               { $$ = result_opnd(P, $1, &$3, NULL); }
	| pname ':' WORD '[' INT ']'   { $$ = result_opnd(P, $1, &$3, &$5); }
	| pname '[' INT ']'            { $$ = value_opnd(P, $1, &$3); P->f->values[$$->o.id].has_def = true; }
	| DISCARD                      { $$ = new_opnd(P, PX_O_DISCARD, $1.loc); }
	;

opnds_opt
	: %empty { $$ = (px_olist){0}; }
	| opnds
	;

opnds
	: operand                        { $$ = olist_one($1); }
	| opnds ',' operand              { $$ = olist_add($1, $3); }
	| opnds ',' '{' opnds '}'        { $$ = olist_add($1, brace_group(P, $3.loc, $4)); }
	;

operand
	: VALUE                 { $$ = value_opnd(P, $1, NULL); }
	| VALUE '[' INT ']'     { $$ = value_opnd(P, $1, &$3); }
	| '!' VALUE             { $$ = value_opnd(P, $2, NULL); $$->o.neg = true; $$->o.loc = $1.loc; }
	| '-' VALUE
		{
			/* PTX has no negated operand: say what to write instead */
			PX_PERR(P, $1.loc, PX_D_neg_value, (int)$2.s.n - 1, $2.s.s + 1, (int)$2.s.n - 1, $2.s.s + 1);
			$$ = value_opnd(P, $2, NULL);
		}
	| INT                   { $$ = literal(P, PX_O_INT, $1); }
	| FLOAT                 { $$ = literal(P, PX_O_FLOAT, $1); }
	| FBITS                 { $$ = literal(P, PX_O_FBITS, $1); }
	| SYM                   { $$ = literal(P, PX_O_SYM, $1); }
	| SREG                  { $$ = new_opnd(P, PX_O_SREG, $1.loc); $$->o.id = (uint32_t)$1.i; }
	| LABEL
		{
			$$ = new_opnd(P, PX_O_LABEL, $1.loc);
			$$->o.id = px_func_label(P->m, P->f, sans_sigil($1));
			px_label *l = &P->f->labels[$$->o.id];
			if (!l->used) {
				l->used = true;
				l->first_use = $1.loc;
			}
		}
	| '(' opnds ')'                   { $$ = group(P, $1.loc, $2); }
	| '[' abase ']'                   { $$ = address(P, $1.loc, addr_base(P, $2), 0, NULL); }
	| '[' abase '+' INT ']'           { $$ = address(P, $1.loc, addr_base(P, $2), addr_offset(P, $4, false), NULL); }
	| '[' abase '-' INT ']'           { $$ = address(P, $1.loc, addr_base(P, $2), addr_offset(P, $4, true), NULL); }
	| '[' abase INT ']'
		{
			/* [%p -16]: the scanner folded the sign into the literal. */
			if (!$3.neg)
				PX_PERR(P, $3.loc, PX_D_syntax_expected, "integer", "'+', '-' or ']'");
			$$ = address(P, $1.loc, addr_base(P, $2), addr_offset(P, $3, false), NULL);
		}
	| '[' abase ',' '(' opnds ')' ']'
		{ $$ = address(P, $1.loc, addr_base(P, $2), 0, group(P, $4.loc, $5)); }
	;

abase
	: VALUE             { $$ = value_opnd(P, $1, NULL); }
	| VALUE '[' INT ']' { $$ = value_opnd(P, $1, &$3); }
	| SYM               { $$ = literal(P, PX_O_SYM, $1); }
	| INT               { $$ = literal(P, PX_O_INT, $1); }
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
	: ditem            { $$ = plist_add((px_plist){0}, $1); }
	| ditems ',' ditem { $$ = plist_add($1, $3); }
	;

ditem
	: dkey          { $$ = prop(P, $1, NULL); }
	| dkey '=' dval { $$ = prop(P, $1, &$3); }
	| operand
		{
			/* {%a, %b} where a vector operand was meant. */
			if (!P->brace_reported) {
				P->brace_reported = true;
				PX_PERR(P, $1->o.loc, PX_D_brace_group);
			}
			$$ = NULL;
		}
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
	| K_KERNEL | K_LOCAL | K_PTX | K_RET | K_SHARED | K_TARGET | K_WEAK | K_PRINTF
	;

%%
/* ---------------------------------------------------------------- syntax errors */

/* "name 'foo'" for a token with its own text, the token's name otherwise (and
 * always for an expected token, which has no text). */
static void describe(char *buf, size_t size, yysymbol_kind_t k, px_str text)
{
	if (k == YYSYMBOL_YYEOF) {
		snprintf(buf, size, "end of file");
		return;
	}
	const char *name = yysymbol_name(k);
	size_t n = strlen(name);
	if (n >= 2 && name[0] == '"')
		name++, n -= 2;
	switch (text.s ? k : YYSYMBOL_YYUNDEF) {
	case YYSYMBOL_VALUE: case YYSYMBOL_SREG: case YYSYMBOL_SYM: case YYSYMBOL_LABEL:
	case YYSYMBOL_WORD: case YYSYMBOL_DWORD: case YYSYMBOL_INT: case YYSYMBOL_FLOAT:
	case YYSYMBOL_FBITS: {
		/* A token may be megabytes long; the message shows its start. */
		int shown = text.n > 40 ? 40 : (int)text.n;
		snprintf(buf, size, "%.*s '%.*s%s'", (int)n, name, shown, text.s, text.n > 40 ? "..." : "");
		break;
	}
	default:
		snprintf(buf, size, "%.*s", (int)n, name);
	}
}

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
	px_loc loc = P->last_loc; /* the lookahead is the last token read */
	if (P->quiet && px_loc_known(loc) && px_line_key(P->m, loc) == P->quiet)
		return 0;
	yysymbol_kind_t tok = yypcontext_token(ctx);
	if (tok == YYSYMBOL_YYEOF && P->in_body && P->f && P->f->name.n) {
		PX_PERR(P, P->f->loc, PX_D_eof_in_body, (int)P->f->name.n, P->f->name.s);
		return 0;
	}
	char what[128];
	describe(what, sizeof what, tok, P->last_text);
	enum { MAX_EXPECTED = 5 };
	yysymbol_kind_t exp[MAX_EXPECTED];
	int n = yypcontext_expected_tokens(ctx, exp, MAX_EXPECTED);
	if (n <= 0) {
		PX_PERR(P, loc, PX_D_syntax_unexpected, what);
		return 0;
	}
	char list[256];
	size_t len = 0;
	for (int i = 0; i < n; i++) {
		char one[64];
		describe(one, sizeof one, exp[i], (px_str){0});
		const char *sep = i == 0 ? "" : i == n - 1 ? " or " : ", ";
		int w = snprintf(list + len, sizeof list - len, "%s%s", sep, one);
		if (w > 0 && (size_t)w < sizeof list - len)
			len += (size_t)w;
	}
	PX_PERR(P, loc, PX_D_syntax_expected, what, list);
	return 0;
#endif
}

/* Bison's only own message in custom mode: its stack ran out. */
static void pxyyerror(void *scanner, px_parser *P, const char *msg)
{
	(void)scanner;
	PX_PERR(P, P->last_loc, PX_D_internal, msg);
}

/* ---------------------------------------------------------------- operands */

static px_str sans_sigil(px_tok t)
{
	return t.s.n ? (px_str){t.s.s + 1, t.s.n - 1} : t.s;
}

static px_olink *new_opnd(px_parser *P, uint8_t kind, px_loc loc)
{
	px_olink *l = px_arena_alloc(&P->tmp, sizeof *l);
	l->o.kind = kind;
	l->o.loc = loc;
	l->o.elem = -1;
	return l;
}

static px_olist olist_one(px_olink *l)
{
	return (px_olist){l, l, 1};
}

static px_olist olist_add(px_olist l, px_olink *x)
{
	if (!l.head)
		return olist_one(x);
	l.tail->next = x;
	l.tail = x;
	l.n++;
	return l;
}

static px_opnd *olist_copy(px_opnd *v, px_olist l)
{
	if (!l.n)
		return NULL;
	uint32_t i = 0;
	for (px_olink *x = l.head; x; x = x->next)
		v[i++] = x->o;
	return v;
}

static px_opnd *olist_array(px_arena *a, px_olist l)
{
	return l.n ? olist_copy(px_arena_alloc(a, l.n * sizeof(px_opnd)), l) : NULL;
}

static px_plink *prop(px_parser *P, px_tok key, const px_tok *val)
{
	px_plink *l = px_arena_alloc(&P->tmp, sizeof *l);
	l->p.key = key.s;
	l->p.loc = key.loc;
	if (val) {
		l->p.val = val->s;
		l->p.val_loc = val->loc;
	}
	return l;
}

static px_plist plist_add(px_plist l, px_plink *x)
{
	if (!x)
		return l;
	if (!l.head)
		return (px_plist){x, x, 1};
	l.tail->next = x;
	l.tail = x;
	l.n++;
	return l;
}

static px_prop *plist_array(px_arena *a, px_plist l)
{
	if (!l.n)
		return NULL;
	px_prop *v = px_arena_alloc(a, l.n * sizeof *v);
	uint32_t i = 0;
	for (px_plink *x = l.head; x; x = x->next)
		v[i++] = x->p;
	return v;
}

/* An integer where the grammar needs a count, index or size in [lo, hi]. */
static uint64_t small_uint(px_parser *P, px_tok t, uint64_t lo, uint64_t hi)
{
	uint64_t v = (uint64_t)t.i;
	if (t.neg || v < lo || v > hi) {
		PX_PERR(P, t.loc, PX_D_num_range, (int)t.s.n, t.s.s, (unsigned long long)lo,
		        (unsigned long long)hi);
		return lo;
	}
	return v;
}

static uint16_t type_of(px_parser *P, px_tok t)
{
	int ty = px_type_lookup(t.s.s, t.s.n);
	if (!ty)
		PX_PERR(P, t.loc, PX_D_unknown_type, (int)t.s.n, t.s.s);
	return (uint16_t)ty;
}

static uint32_t value_of(px_parser *P, px_tok t)
{
	return px_func_value(P->m, P->f, sans_sigil(t));
}

static px_olink *value_opnd(px_parser *P, px_tok t, const px_tok *index)
{
	px_olink *l = new_opnd(P, PX_O_VALUE, t.loc);
	l->o.id = value_of(P, t);
	if (index)
		l->o.elem = (int32_t)small_uint(P, *index, 0, INT32_MAX);
	return l;
}

/* A result defines its value; the first typed definition gives the value its type. */
static px_olink *result_opnd(px_parser *P, px_tok t, const px_tok *type, const px_tok *count)
{
	px_olink *l = value_opnd(P, t, NULL);
	px_value *v = &P->f->values[l->o.id];
	v->has_def = true;
	if (!type)
		return l;
	l->o.decl_type = type_of(P, *type);
	if (count)
		l->o.decl_count = (uint32_t)small_uint(P, *count, 1, UINT32_MAX);
	if (!v->type && l->o.decl_type) {
		v->type = l->o.decl_type;
		v->count = l->o.decl_count;
		v->def_loc = t.loc;
	}
	return l;
}

static px_olink *literal(px_parser *P, uint8_t kind, px_tok t)
{
	px_olink *l = new_opnd(P, kind, t.loc);
	switch (kind) {
	case PX_O_INT:
		l->o.ival = t.i;
		l->o.is_hex = t.hex;
		break;
	case PX_O_FLOAT:
		l->o.fval = t.f;
		l->o.fdir = t.fdir;
		break;
	case PX_O_FBITS:
		l->o.bits = t.bits;
		l->o.fwidth = t.fwidth;
		break;
	case PX_O_SYM:
		l->o.sym = sans_sigil(t);
		break;
	}
	return l;
}

/* A return type, carried in a list link until the header is complete. */
static px_olink *type_link(px_parser *P, px_tok t)
{
	px_olink *l = new_opnd(P, PX_O_NONE, t.loc);
	l->o.decl_type = type_of(P, t);
	return l;
}

/* A device function's aggregate result, b8[N] align A: PTX returns one .param,
 * so it is the only result (the rule above reports the others). */
static px_olink *agg_ret(px_parser *P, px_tok type, px_tok count, const px_tok *align)
{
	px_olink *l = new_opnd(P, PX_O_NONE, type.loc);
	uint16_t t = type_of(P, type);
	if (t && t != PX_T_b8)
		PX_PERR(P, type.loc, PX_D_aggregate_type);
	l->o.decl_type = PX_T_none;
	P->f->ret_size = (uint32_t)small_uint(P, count, 1, UINT32_MAX);
	P->f->ret_align = align ? (uint32_t)small_uint(P, *align, 1, UINT32_MAX) : 0;
	return l;
}

static px_olink *dir_arg(px_parser *P, px_tok t)
{
	px_olink *l = new_opnd(P, PX_O_INT, t.loc);
	/* every directive counts threads, CTAs or registers: ptxas refuses 0 */
	l->o.ival = (int64_t)small_uint(P, t, 1, UINT32_MAX);
	return l;
}

static px_olink *group(px_parser *P, px_loc loc, px_olist elems)
{
	px_olink *l = new_opnd(P, PX_O_GROUP, loc);
	l->o.elems = olist_array(&P->m->fn_arena, elems);
	l->o.nelems = elems.n;
	return l;
}

/* An initializer's ( , ) lanes: kept with the module, as its globals are. */
static px_olink *init_lanes(px_parser *P, px_loc loc, px_olist elems)
{
	px_olink *l = new_opnd(P, PX_O_GROUP, loc);
	l->o.elems = olist_array(&P->m->arena, elems);
	l->o.nelems = elems.n;
	return l;
}

static px_olink *brace_group(px_parser *P, px_loc loc, px_olist elems)
{
	if (!P->brace_reported) {
		P->brace_reported = true;
		PX_PERR(P, loc, PX_D_brace_group);
	}
	return group(P, loc, elems);
}

static px_opnd *addr_base(px_parser *P, px_olink *l)
{
	return px_arena_dup(&P->m->fn_arena, &l->o, sizeof l->o);
}

/* [b + n] and [b - n]: the offset must fit in int64 after the sign is applied. */
static int64_t addr_offset(px_parser *P, px_tok t, bool minus)
{
	bool bad = minus ? (t.neg ? t.i == INT64_MIN : t.i < 0 && t.i != INT64_MIN) : !t.neg && t.i < 0;
	if (bad) {
		PX_PERR(P, t.loc, PX_D_offset_range, (int)t.s.n, t.s.s);
		return 0;
	}
	return minus ? (int64_t)(0 - (uint64_t)t.i) : t.i;
}

static px_olink *address(px_parser *P, px_loc loc, px_opnd *base, int64_t off, px_olink *idx)
{
	px_olink *l = new_opnd(P, PX_O_ADDR, loc);
	l->o.base = base;
	l->o.off = off;
	if (idx) {
		px_opnd *both = px_arena_alloc(&P->m->fn_arena, 2 * sizeof *both);
		both[0] = *base;
		both[1] = idx->o;
		l->o.base = both;
		l->o.has_idx = true;
	}
	return l;
}

/* ---------------------------------------------------------------- statements */

/* A node with room for extra bytes behind it. */
static px_node *node_with(px_parser *P, uint8_t kind, px_loc loc, size_t extra)
{
	px_node *n = px_arena_alloc(&P->m->fn_arena, sizeof *n + extra);
	n->kind = kind;
	n->loc = loc;
	n->slot = px_no_slots;
	return n;
}

static px_node *new_node(px_parser *P, uint8_t kind, px_loc loc)
{
	return node_with(P, kind, loc, 0);
}

static px_node *inst_node(px_parser *P, const px_olist *res, px_tok op, px_olist ops, px_plist props)
{
	/* the node, its results and its operands in one allocation: the arena
	 * rounds each to 16 bytes, so one rounding instead of three */
	uint32_t nres = res ? res->n : 0;
	px_node *n = node_with(P, PX_N_INST, res ? res->head->o.loc : op.loc, (nres + ops.n) * sizeof(px_opnd));
	n->opname = op.s;
	n->oploc = op.loc;
	px_opnd *v = (px_opnd *)(n + 1);
	if (res) {
		n->res = olist_copy(v, *res);
		n->nres = nres;
	}
	n->ops = olist_copy(v + nres, ops);
	n->nops = ops.n;
	n->props = plist_array(&P->m->fn_arena, props);
	n->nprops = props.n;
	return n;
}

/* loc "file" LINE[:COL]: the statements that follow are attributed to that
 * place in the generator's source (PTX .loc) until the next loc or loc off.
 * The file table lives as long as the module; each name is kept once. */
static void loc_set(px_parser *P, px_tok file, px_tok line, const px_tok *col)
{
	px_module *m = P->m;
	px_str name = unescape(&P->tmp, file); /* the printer escapes it again for PTX */
	if (line.neg || line.i < 1 || line.i > UINT32_MAX) {
		PX_PERR(P, line.loc, PX_D_loc_line, (int)line.s.n, line.s.s);
		return;
	}
	if (col && (col->neg || col->i > UINT32_MAX)) {
		PX_PERR(P, col->loc, PX_D_loc_column, (int)col->s.n, col->s.s);
		return;
	}
	uint32_t id = 0;
	for (uint32_t i = 0; i < m->nlocfiles; i++)
		if (m->locfiles[i].n == name.n && memcmp(m->locfiles[i].s, name.s, name.n) == 0)
			id = i + 1;
	if (!id) {
		if (m->nlocfiles == m->cap_locfiles) {
			uint32_t cap = m->cap_locfiles ? 2 * m->cap_locfiles : 8;
			px_str *grown = px_arena_alloc(&m->arena, cap * sizeof *grown);
			if (m->nlocfiles)
				memcpy(grown, m->locfiles, m->nlocfiles * sizeof *grown);
			m->locfiles = grown;
			m->cap_locfiles = cap;
		}
		char *copy = px_arena_alloc(&m->arena, name.n + 1);
		memcpy(copy, name.s, name.n);
		copy[name.n] = '\0';
		m->locfiles[m->nlocfiles++] = (px_str){copy, name.n};
		id = m->nlocfiles;
	}
	P->dloc = (px_dloc){id, (uint32_t)line.i, col ? (uint32_t)col->i : 0};
	P->dloc_id = 0;
	px_dslmap_mark(&m->dsl, file.loc, m->locfiles[id - 1].s, P->dloc.line, P->dloc.col);
}

static void loc_off(px_parser *P, px_tok word)
{
	if (word.s.n != 3 || memcmp(word.s.s, "off", 3) != 0) {
		PX_PERR(P, word.loc, PX_D_loc_syntax, (int)word.s.n, word.s.s);
		return;
	}
	P->dloc = (px_dloc){0, 0, 0};
	P->dloc_id = 0;
	px_dslmap_mark(&P->m->dsl, word.loc, NULL, 0, 0);
}

/* The loc statement in force, entered in the function's table when the
 * first statement after it takes it: nodes keep its index. */
static uint32_t dloc_index(px_parser *P)
{
	px_func *f = P->f;
	if (!P->dloc.file)
		return 0;
	if (!P->dloc_id) {
		if (f->ndlocs == f->cap_dlocs) {
			uint32_t cap = f->cap_dlocs ? f->cap_dlocs * 2 : 8;
			f->dlocs = px_arena_grow(&P->m->fn_arena, f->dlocs, f->ndlocs, cap, sizeof *f->dlocs);
			f->cap_dlocs = cap;
		}
		f->dlocs[f->ndlocs++] = P->dloc;
		P->dloc_id = f->ndlocs;
	}
	return P->dloc_id;
}

static void stmt_done(px_parser *P, px_guard g, px_node *n)
{
	n->dloc = dloc_index(P);
	if (g.has) {
		n->has_guard = true;
		n->guard_neg = g.neg;
		n->guard = g.value;
		n->loc = g.loc;
	}
	px_func_append(P->f, n);
}

static void label_def(px_parser *P, px_tok t)
{
	px_str name = sans_sigil(t);
	uint32_t id = px_func_label(P->m, P->f, name);
	px_label *l = &P->f->labels[id];
	if (l->defined) {
		PX_PERR(P, t.loc, PX_D_label_redefinition, (int)name.n, name.s);
		px_report(P->m->diags, PX_SEV_NOTE, l->def_loc, PX_D_label_previous, (int)name.n, name.s);
		return;
	}
	l->defined = true;
	l->def_loc = t.loc;
	px_node *n = new_node(P, PX_N_LABEL, t.loc);
	n->label = id;
	px_func_append(P->f, n);
}

/* asm "template" (outputs) (inputs): the template's escapes decoded. */
/* call %fp(args) : (types) -> (types): a call through a value, with the
 * signature it is made with (ptxemit checks the arguments and results against
 * it; the value's callee is not known). */
static px_node *icall_node(px_parser *P, const px_olist *res, px_tok kw, px_tok target, px_olist args,
                           px_olist ptypes, px_olist rtypes)
{
	px_arena *a = &P->m->fn_arena;
	px_node *n = new_node(P, PX_N_CALL, res ? res->head->o.loc : kw.loc);
	if (res) {
		n->res = olist_array(a, *res);
		n->nres = res->n;
	}
	n->ops = olist_array(a, args);
	n->nops = args.n;
	n->icall = px_arena_alloc(a, sizeof *n->icall);
	n->icall->target = value_opnd(P, target, NULL)->o; /* links are reused */
	n->callee_loc = target.loc;
	px_funcsig *sig = px_arena_alloc(a, sizeof *sig);
	sig->name = sans_sigil(target);
	sig->loc = target.loc;
	sig->params = px_arena_alloc(a, (ptypes.n + 1) * sizeof *sig->params);
	sig->param_sizes = px_arena_alloc(a, (ptypes.n + 1) * sizeof *sig->param_sizes);
	sig->param_aligns = px_arena_alloc(a, (ptypes.n + 1) * sizeof *sig->param_aligns);
	for (px_olink *x = ptypes.head; x; x = x->next)
		sig->params[sig->nparams++] = x->o.decl_type;
	sig->rets = px_arena_alloc(a, (rtypes.n + 1) * sizeof *sig->rets);
	for (px_olink *x = rtypes.head; x; x = x->next)
		sig->rets[sig->nrets++] = x->o.decl_type;
	n->icall->proto = sig;
	return n;
}

static px_node *asm_node(px_parser *P, px_tok kw, px_tok text, const px_olist *outs, px_olist ins)
{
	px_arena *a = &P->m->fn_arena;
	px_node *n = new_node(P, PX_N_ASM, kw.loc);
	n->text = unescape(a, text);
	n->text_loc = text.loc;
	if (outs) {
		n->res = olist_array(a, *outs);
		n->nres = outs->n;
	}
	n->ops = olist_array(a, ins);
	n->nops = ins.n;
	return n;
}

/* The format's module string: "$str", "$str$1", ... (no MIR name starts with
 * '$'), b8[N] with its NUL, in .global as the CUDA compiler puts it; a text
 * printed before shares its string. Returns its ordinal k. */
static uint32_t printf_string(px_parser *P, px_str text, px_loc loc)
{
	px_module *m = P->m;
	uint32_t k = 0;
	for (uint32_t i = 0; i < m->nglobals; i++) {
		const px_global *g = &m->globals[i];
		if (!px_printf_string_k(g->name, NULL))
			continue;
		bool same = g->ninit == text.n + 1;
		for (uint32_t b = 0; same && b < text.n; b++)
			same = g->init[b].ival == (unsigned char)text.s[b];
		if (same)
			return k;
		k++;
	}
	px_global g = {.name = px_printf_string_name(&m->arena, k), .loc = loc, .space = PX_SPACE_GLOBAL,
	               .linkage = PX_LINK_INTERNAL, .type = PX_T_b8, .is_array = true, .count = text.n + 1,
	               .align = 1, .init_is_list = true};
	g.init = px_arena_alloc(&m->arena, (text.n + 1) * sizeof *g.init);
	for (uint32_t b = 0; b <= text.n; b++) {
		g.init[b].kind = PX_O_INT;
		g.init[b].loc = loc;
		g.init[b].ival = b < text.n ? (unsigned char)text.s[b] : 0;
	}
	g.ninit = text.n + 1;
	if (m->nglobals == m->cap_globals) {
		uint32_t cap = m->cap_globals ? m->cap_globals * 2 : 16;
		m->globals = px_arena_grow(&m->arena, m->globals, m->nglobals, cap, sizeof *m->globals);
		m->cap_globals = cap;
	}
	m->globals[m->nglobals] = g;
	px_module_sym_put(m, g.name, m->nglobals << 1);
	m->nglobals++;
	return k;
}

/* Whether a 64-bit integer or ptr type t passes as printf's u64 or ptr. */
static bool is_address_type(unsigned t)
{
	return t == PX_T_ptr || ((px_types[t].kind == PX_KIND_BIT || px_types[t].kind == PX_KIND_UINT ||
	                          px_types[t].kind == PX_KIND_SINT) && px_types[t].width == 64);
}

/* vprintf(format, buffer) -> int, declared once for the module at the first
 * printf as `extern func @vprintf(%f: ptr, %a: ptr) -> (s32)`; a @vprintf the
 * module declared before must take two 64-bit addresses and return 32 bits. */
static void printf_decl(px_parser *P, px_loc loc)
{
	px_module *m = P->m;
	static const uint16_t params[2] = {PX_T_ptr, PX_T_ptr}, rets[1] = {PX_T_s32};
	static const uint32_t zeros[2] = {0, 0};
	px_funcsig sig = {(px_str){"vprintf", 7}, loc, false, false, PX_LINK_EXTERN, (uint16_t *)params,
	                  (uint32_t *)zeros, (uint32_t *)zeros, NULL, 2, (uint16_t *)rets, 1, 0, 0};
	uint32_t prev = px_strmap_get(&m->syms, sig.name.s, sig.name.n);
	if (prev != PX_STRMAP_NONE) {
		const px_funcsig *old = prev & 1 ? &m->funcs[prev >> 1] : NULL;
		if (!old || old->is_kernel || old->nparams != 2 || !is_address_type(old->params[0]) ||
		    !is_address_type(old->params[1]) || old->nrets != 1 || px_types[old->rets[0]].width != 32 ||
		    px_types[old->rets[0]].kind == PX_KIND_FLOAT) {
			px_error(m->diags, loc, PX_D_printf_vprintf);
			px_report(m->diags, PX_SEV_NOTE, sym_loc(m, prev), PX_D_previous, (int)sig.name.n, sig.name.s);
		}
		return;
	}
	if (m->nfuncs == m->cap_funcs) {
		uint32_t cap = m->cap_funcs ? m->cap_funcs * 2 : 16;
		m->funcs = px_arena_grow(&m->arena, m->funcs, m->nfuncs, cap, sizeof *m->funcs);
		m->cap_funcs = cap;
	}
	m->funcs[m->nfuncs] = sig;
	px_module_sym_put(m, sig.name, m->nfuncs << 1 | 1);
	m->nfuncs++;
}

/* `printf "format", args`: the arguments go through a buffer in local memory,
 * the function's $printf_args, as large as its largest printf needs. */
static px_node *printf_node(px_parser *P, px_tok kw, px_tok text, px_olist args)
{
	px_arena *a = &P->m->fn_arena;
	px_func *f = P->f;
	px_node *n = new_node(P, PX_N_PRINTF, kw.loc);
	n->text = unescape(a, text);
	n->text_loc = text.loc;
	n->ops = olist_array(a, args);
	n->nops = args.n;
	n->label = printf_string(P, n->text, text.loc);
	printf_decl(P, kw.loc);
	px_fmt fmt;
	px_fmt_scan(&P->tmp, n->text, &fmt);
	if (!fmt.size)
		return n;
	px_str name = {PX_PRINTF_BUFFER, sizeof PX_PRINTF_BUFFER - 1};
	for (uint32_t i = 0; i < f->nlocals; i++) {
		px_local *l = &f->locals[i];
		if (l->name.n == name.n && !memcmp(l->name.s, name.s, name.n)) {
			if (fmt.size > l->count)
				l->count = fmt.size;
			if (fmt.align > l->align)
				l->align = fmt.align;
			return n;
		}
	}
	if (f->nlocals == f->cap_locals) {
		uint32_t cap = f->cap_locals ? f->cap_locals * 2 : 4;
		f->locals = px_arena_grow(a, f->locals, f->nlocals, cap, sizeof *f->locals);
		f->cap_locals = cap;
	}
	f->locals[f->nlocals++] = (px_local){.name = name, .loc = kw.loc, .type = PX_T_b8, .is_array = true,
	                                     .count = fmt.size, .align = fmt.align};
	return n;
}

/* `local @name : T[N] align A`: a function-local array, declared before the
 * body's first statement. Its name may not repeat a local or a module symbol
 * defined so far. These mistakes lose no statement, so they are reported
 * without counting as syntax errors: the body is still checked. */
static void local_def(px_parser *P, px_tok name, px_tok type, const px_tok *count, bool unsized,
                      const px_tok *align)
{
	px_module *m = P->m;
	px_func *f = P->f;
	px_local l = {.name = sans_sigil(name), .loc = name.loc, .type = type_of(P, type), .count = 1};
	if (f->first)
		px_error(m->diags, name.loc, PX_D_local_not_first, (int)l.name.n, l.name.s);
	if (unsized)
		px_error(m->diags, name.loc, PX_D_local_unsized, (int)l.name.n, l.name.s);
	if (count) {
		l.is_array = true;
		l.count = small_uint(P, *count, 1, UINT32_MAX);
	}
	if (align)
		l.align = (uint32_t)small_uint(P, *align, 1, UINT32_MAX);
	const px_local *old = px_func_local(f, l.name);
	uint32_t sym = px_strmap_get(&m->syms, l.name.s, l.name.n);
	if (old || sym != PX_STRMAP_NONE) {
		px_error(m->diags, name.loc, PX_D_redefinition, (int)l.name.n, l.name.s);
		px_report(m->diags, PX_SEV_NOTE, old ? old->loc : sym_loc(m, sym), PX_D_previous, (int)l.name.n,
		          l.name.s);
		return;
	}
	if (f->nlocals == f->cap_locals) {
		uint32_t cap = f->cap_locals ? f->cap_locals * 2 : 4;
		f->locals = px_arena_grow(&m->fn_arena, f->locals, f->nlocals, cap, sizeof *f->locals);
		f->cap_locals = cap;
	}
	f->locals[f->nlocals++] = l;
}

/* Lists of the statement just finished are dead: their arena starts over. */
static void stmt_reset(px_parser *P)
{
	px_arena_reset(&P->tmp);
	P->brace_reported = false;
}

/* ---------------------------------------------------------------- functions */

static void func_begin(px_parser *P, uint8_t linkage, bool kernel, px_tok name)
{
	px_func *f = px_arena_alloc(&P->m->fn_arena, sizeof *f);
	f->name = sans_sigil(name);
	f->loc = name.loc;
	f->is_kernel = kernel;
	f->linkage = linkage;
	px_valmap_init(&f->value_ids);
	px_strmap_init(&f->label_ids);
	P->f = f;
	P->f_broken = false;
	P->in_body = false;
	P->dloc = (px_dloc){0, 0, 0}; /* a loc statement holds to its function's end */
	P->dloc_id = 0;
	P->params = NULL;
	P->nparams = P->cap_params = 0;
	P->f_errors = P->nerrors;
}

static void param_add(px_parser *P, px_tok name, px_tok type, const px_tok *count, uint16_t space,
                      const px_tok *align, px_loc space_loc)
{
	px_func *f = P->f;
	px_param p = {.loc = name.loc, .type = type_of(P, type)};
	if (count) {
		if (p.type && p.type != PX_T_b8)
			PX_PERR(P, type.loc, PX_D_aggregate_type);
		p.kind = PX_PARAM_AGG;
		p.type = PX_T_b8;
		p.size = (uint32_t)small_uint(P, *count, 1, UINT32_MAX);
	} else if (p.type == PX_T_ptr) {
		p.kind = PX_PARAM_PTR;
		p.space = space;
	} else {
		p.kind = PX_PARAM_SCALAR;
		if (space)
			PX_PERR(P, space_loc, PX_D_space_not_ptr);
		if (align)
			PX_PERR(P, align->loc, PX_D_align_scalar);
	}
	if (align)
		p.align = (uint32_t)small_uint(P, *align, 1, UINT32_MAX);
	p.value = value_of(P, name);
	px_value *v = &f->values[p.value];
	if (v->param) {
		PX_PERR(P, name.loc, PX_D_duplicate_param, (int)v->name.n, v->name.s);
		return;
	}
	v->type = p.type;
	v->def_loc = name.loc;
	v->has_def = true;
	v->param = p.kind;
	v->param_index = P->nparams;
	if (P->nparams == P->cap_params) {
		uint32_t cap = P->cap_params ? P->cap_params * 2 : 8;
		P->params = px_arena_grow(&P->m->fn_arena, P->params, P->nparams, cap, sizeof *P->params);
		P->cap_params = cap;
	}
	P->params[P->nparams++] = p;
}

static void directive(px_parser *P, px_tok name, const px_olist *args)
{
	unsigned i = 0;
	while (i < px_ndirectives && !(strlen(px_directives[i].name) == name.s.n &&
	                               memcmp(px_directives[i].name, name.s.s, name.s.n) == 0))
		i++;
	if (i == px_ndirectives) {
		PX_PERR(P, name.loc, PX_D_unknown_directive, (int)name.s.n, name.s.s);
		return;
	}
	const px_directive *d = &px_directives[i];
	px_dirval *dv = &P->f->dirs[i];
	if (dv->present) {
		PX_PERR(P, name.loc, PX_D_directive_repeated, d->name);
		return;
	}
	unsigned n = args ? args->n : 0;
	if (n < d->min_args || n > d->max_args) {
		if (d->max_args == 0)
			PX_PERR(P, name.loc, PX_D_directive_no_args, d->name);
		else if (d->min_args == d->max_args)
			PX_PERR(P, name.loc, PX_D_directive_args, d->name, (unsigned)d->max_args, n);
		else
			PX_PERR(P, name.loc, PX_D_directive_args_range, d->name, (unsigned)d->min_args,
			        (unsigned)d->max_args, n);
	}
	dv->present = true;
	dv->loc = name.loc;
	uint8_t k = 0;
	for (px_olink *x = args ? args->head : NULL; x && k < 3; x = x->next) {
		dv->argloc[k] = x->o.loc;
		dv->args[k++] = (uint32_t)x->o.ival;
	}
	dv->nargs = k;
}

static void func_header(px_parser *P, px_olist rets, px_loc rets_loc, px_plist attrs)
{
	px_func *f = P->f;
	px_arena *a = &P->m->fn_arena;
	f->params = P->params;
	f->nparams = P->nparams;
	if (rets.n) {
		f->rets = px_arena_alloc(a, rets.n * sizeof *f->rets);
		uint32_t i = 0;
		for (px_olink *x = rets.head; x; x = x->next)
			f->rets[i++] = x->o.decl_type;
		f->nrets = rets.n;
	}
	f->rets_loc = rets_loc;
	f->attrs = plist_array(a, attrs);
	f->nattrs = attrs.n;
}

static bool sig_equal(const px_funcsig *a, const px_funcsig *b)
{
	if (a->is_kernel != b->is_kernel || a->nparams != b->nparams || a->nrets != b->nrets)
		return false;
	for (uint32_t i = 0; i < a->nparams; i++)
		if (a->params[i] != b->params[i] || a->param_sizes[i] != b->param_sizes[i] ||
		    a->param_aligns[i] != b->param_aligns[i])
			return false;
	for (uint32_t i = 0; i < a->nrets; i++)
		if (a->rets[i] != b->rets[i])
			return false;
	return a->ret_size == b->ret_size && a->ret_align == b->ret_align;
}

static px_loc sym_loc(const px_module *m, uint32_t sym)
{
	return sym & 1 ? m->funcs[sym >> 1].loc : m->globals[sym >> 1].loc;
}

/* Record the signature for calls. A declaration and a definition of the same
 * function agree or are an error; two definitions are a redefinition. */
static void func_register(px_parser *P, bool defined)
{
	px_module *m = P->m;
	px_func *f = P->f;
	f->is_decl = !defined;
	if (!defined && f->linkage != PX_LINK_EXTERN)
		PX_PERR(P, f->loc, PX_D_no_body, (int)f->name.n, f->name.s);
	px_funcsig sig = {f->name, f->loc, f->is_kernel, defined, f->linkage, NULL, NULL, NULL, NULL, f->nparams, NULL,
	                  f->nrets, f->ret_size, f->ret_align};
	sig.params = px_arena_alloc(&m->arena, (f->nparams + 1) * sizeof *sig.params);
	sig.param_sizes = px_arena_alloc(&m->arena, (f->nparams + 1) * sizeof *sig.param_sizes);
	sig.param_aligns = px_arena_alloc(&m->arena, (f->nparams + 1) * sizeof *sig.param_aligns);
	sig.param_spaces = px_arena_alloc(&m->arena, (f->nparams + 1) * sizeof *sig.param_spaces);
	for (uint32_t i = 0; i < f->nparams; i++) {
		const px_param *p = &f->params[i];
		sig.param_spaces[i] = p->kind == PX_PARAM_PTR ? p->space : 0;
		sig.params[i] = p->kind == PX_PARAM_AGG ? 0 : p->type;
		sig.param_sizes[i] = p->kind == PX_PARAM_AGG ? p->size : 0;
		sig.param_aligns[i] = p->kind == PX_PARAM_AGG ? p->align : 0;
	}
	sig.rets = px_arena_dup(&m->arena, f->rets, f->nrets * sizeof *f->rets);
	sig.ret_size = f->ret_size;
	sig.ret_align = f->ret_align;

	uint32_t prev = px_strmap_get(&m->syms, f->name.s, f->name.n);
	if (prev != PX_STRMAP_NONE) {
		px_funcsig *old = prev & 1 ? &m->funcs[prev >> 1] : NULL;
		if (!old || (old->defined && defined)) {
			PX_PERR(P, f->loc, PX_D_redefinition, (int)f->name.n, f->name.s);
			px_report(m->diags, PX_SEV_NOTE, sym_loc(m, prev), PX_D_previous, (int)f->name.n, f->name.s);
		} else if (!sig_equal(old, &sig)) {
			PX_PERR(P, f->loc, PX_D_declaration_mismatch, (int)f->name.n, f->name.s);
			px_report(m->diags, PX_SEV_NOTE, old->loc, PX_D_previous, (int)f->name.n, f->name.s);
		} else if (defined) {
			P->reg_undo = (px_reg_undo){PX_REG_REPLACED, prev >> 1, *old};
			px_module_quiesce(m);
			*old = sig;
		}
		return;
	}
	if (m->nfuncs == m->cap_funcs) {
		uint32_t cap = m->cap_funcs ? m->cap_funcs * 2 : 16;
		m->funcs = px_arena_grow(&m->arena, m->funcs, m->nfuncs, cap, sizeof *m->funcs);
		m->cap_funcs = cap;
	}
	m->funcs[m->nfuncs] = sig;
	px_module_sym_put(m, f->name, m->nfuncs << 1 | 1);
	P->reg_undo = (px_reg_undo){.what = PX_REG_ADDED, .index = m->nfuncs};
	m->nfuncs++;
}

/* A function is complete: hand it on, then forget it. */
static void func_end(px_parser *P)
{
	px_module *m = P->m;
	px_func *f = P->f;
	f->nerrors = P->nerrors - P->f_errors;
	if (!P->f_broken && m->on_function)
		m->on_function(m, f, m->hook_ctx);
	func_drop(P);
}

static void func_drop(px_parser *P)
{
	px_dslmap_mark(&P->m->dsl, P->last_loc, NULL, 0, 0); /* a loc holds to its function's end */
	if (P->f) {
		if (!P->m->fn_taken) {
			px_valmap_free(&P->f->value_ids);
			px_strmap_free(&P->f->label_ids);
		}
		P->m->fn_taken = false;
		px_arena_reset(&P->m->fn_arena);
		P->f = NULL;
	}
	P->params = NULL;
	P->in_body = false;
	stmt_reset(P);
}

/* ---------------------------------------------------------------- module lines */

/* A string's bytes with its escapes decoded (the scanner reported bad ones;
 * they stand for themselves here). The quotes are not part of it. */
static px_str unescape(px_arena *a, px_tok t)
{
	const char *s = t.s.s + 1;
	size_t n = t.s.n >= 2 && t.s.s[t.s.n - 1] == '"' ? t.s.n - 2 : t.s.n - 1;
	char *out = px_arena_alloc(a, n + 1);
	size_t len = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] != '\\' || i + 1 == n) {
			out[len++] = s[i];
			continue;
		}
		char c = s[++i];
		const char *from = "ntrabfv", *to = "\n\t\r\a\b\f\v";
		const char *k = strchr(from, c);
		unsigned v = 0, d = 0;
		if (c && k) {
			out[len++] = to[k - from];
		} else if (c == 'x') {
			while (d < 2 && i + 1 < n && isxdigit((unsigned char)s[i + 1])) {
				c = s[++i];
				v = v * 16 + (unsigned)(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
				d++;
			}
			out[len++] = d ? (char)v : 'x';
		} else if (c >= '0' && c <= '7') {
			while (d < 3 && i < n && s[i] >= '0' && s[i] <= '7')
				v = v * 8 + (unsigned)(s[i++] - '0'), d++;
			i--;
			out[len++] = (char)(v & 0xff);
		} else {
			out[len++] = c;
		}
	}
	return (px_str){out, (uint32_t)len};
}

/* "x=%d\n" as the initializer of a byte array: one integer per byte and the NUL. */
static px_olist string_bytes(px_parser *P, px_tok t)
{
	px_str b = unescape(&P->tmp, t);
	px_olist l = {0};
	for (uint32_t i = 0; i <= b.n; i++) {
		px_olink *x = new_opnd(P, PX_O_INT, t.loc);
		x->o.ival = i < b.n ? (unsigned char)b.s[i] : 0;
		l = olist_add(l, x);
	}
	return l;
}

static void global_def(px_parser *P, uint8_t linkage, uint8_t space, px_tok name, px_tok type,
                       const px_tok *count, bool unsized, const px_tok *align, px_olist init,
                       bool init_list, bool init_string)
{
	px_module *m = P->m;
	px_global g = {.name = sans_sigil(name), .loc = name.loc, .space = space, .linkage = linkage};
	/* texref, surfref, samplerref: PTX's opaque handle types, istypep's tokens */
	unsigned h = px_tok_lookup(type.s.s, type.s.n);
	if (h == PX_TOK_texref || h == PX_TOK_surfref || h == PX_TOK_samplerref)
		g.handle = (uint16_t)h;
	else
		g.type = type_of(P, type);
	g.is_array = count || unsized;
	g.unsized = unsized;
	if (count)
		g.count = small_uint(P, *count, 1, UINT64_MAX);
	if (align)
		g.align = (uint32_t)small_uint(P, *align, 1, UINT32_MAX);
	g.init = olist_array(&m->arena, init);
	g.ninit = init.n;
	g.init_is_list = init_list;
	g.init_is_string = init_string;
	if (init_string && unsized) { /* the size is the string's, NUL included */
		g.unsized = false;
		g.count = init.n;
	}
	uint32_t prev = px_strmap_get(&m->syms, g.name.s, g.name.n);
	if (prev != PX_STRMAP_NONE) {
		PX_PERR(P, g.loc, PX_D_redefinition, (int)g.name.n, g.name.s);
		px_report(m->diags, PX_SEV_NOTE, sym_loc(m, prev), PX_D_previous, (int)g.name.n, g.name.s);
		return;
	}
	if (m->nglobals == m->cap_globals) {
		uint32_t cap = m->cap_globals ? m->cap_globals * 2 : 16;
		m->globals = px_arena_grow(&m->arena, m->globals, m->nglobals, cap, sizeof *m->globals);
		m->cap_globals = cap;
	}
	m->globals[m->nglobals] = g;
	px_module_sym_put(m, g.name, m->nglobals << 1);
	m->nglobals++;
}

/* `target sm_80 ptx 7.4`: the version is major.minor with one minor digit. */
static void target_line(px_parser *P, px_tok name, const px_tok *ptx)
{
	px_module *m = P->m;
	if (m->target.n) {
		PX_PERR(P, name.loc, PX_D_target_repeated, px_module_line(m, m->target_loc));
		return;
	}
	m->target = name.s;
	m->target_loc = name.loc;
	if (!ptx)
		return;
	const char *s = ptx->s.s;
	uint32_t n = ptx->s.n, major = 0, k = 0;
	while (k < n && k < 4 && s[k] >= '0' && s[k] <= '9')
		major = major * 10 + (uint32_t)(s[k++] - '0');
	if (k == 0 || k == 4 || n != k + 2 || s[k] != '.' || s[k + 1] < '0' || s[k + 1] > '9') {
		PX_PERR(P, ptx->loc, PX_D_ptx_version, (int)n, s);
		return;
	}
	m->ptx = (uint16_t)(major * 10 + (uint32_t)(s[k + 1] - '0'));
	m->ptx_loc = ptx->loc;
}

/* ---------------------------------------------------------------- entry */

#ifndef PX_PARSER_LAC
int pxyyparse_lac(void *scanner, px_parser *P);

/* Between two top-level items: the parser's stack holds only the module, so
 * a parse that begins here goes on exactly as this one would. */
static void mark(px_parser *P)
{
	P->mark = (px_parse_mark){P->off, P->last_tok, P->last_text, P->last_loc,
	                          P->quiet, P->nerrors, P->m->target_written,
	                          px_diags_mark(P->m->diags)};
	P->reg_undo.what = PX_REG_NONE;
}

static int next_token(YYSTYPE *lval, void *scanner, px_parser *P)
{
	/* after the first syntax error: end the input, so the parse stops */
	if (P->restart)
		return PXT_YYEOF;
	/* the parser asks for the token after an item's NL once the item is
	 * reduced (that state has a default reduction); a function whose
	 * header line ended with NL is still open (P->f) */
	if (!P->f && (P->last_tok == PXT_NL || P->last_tok == 0))
		mark(P);
	return (pxyylex)(lval, scanner);
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
	func_drop(P);
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
	mark(&P);
	pxyyparse(sc, &P);
	if (P.restart)
		parse_again(&P, &sc);
	func_drop(&P); /* a body left open at the end of the file */
	if (sc)
		pxyylex_destroy(sc);
	px_arena_free(&P.tmp);
	return (int)P.nerrors;
}
#endif
