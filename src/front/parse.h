/* What grammar/lexer.l, grammar/parser.y and the builders its actions call
 * (front/build.h) share: the token value, the temporary lists the grammar
 * builds before it knows their length, and the parser state they all reach
 * (the scanner through yyextra). Nothing here is seen outside the front end. */
#ifndef PX_PARSE_H
#define PX_PARSE_H
#include <stdbool.h>
#include <stdint.h>

#include "diag/diag.h"
#include "front/ir.h"
#include "util/arena.h"

/* Brackets may nest this deep on one statement; deeper is an error. It keeps
 * the parser stack far below bison's limit whatever the input. */
enum { PX_MAX_NESTING = 64 };
/* A name, literal or other token is at most this many bytes (ptxemit(1), LIMITS). */
enum { PX_MAX_TOKEN = 1024 };

/* A token: its text (in m->src) and, for literals, the scanned value. */
/* Small on purpose: bison copies a semantic value (a union with this as its
 * largest member) on every shift and reduction. */
typedef struct px_tok {
	px_str s;
	union {
		int64_t i;     /* INT: the 64-bit pattern; a leading '-' is folded in; SREG: its row */
		double f;      /* FLOAT */
		uint64_t bits; /* FBITS */
	};
	px_loc loc;
	uint8_t fwidth; /* FBITS: 32 or 64 */
	int8_t fdir;    /* FLOAT: where the decimal lies from f (util/fp.h) */
	bool neg;       /* INT written with a minus sign */
} px_tok;

/* Lists built left-recursively in the scratch arena and copied into an array of
 * the right arena once complete, so every list costs linear time. */
typedef struct px_olink {
	px_opnd o;
	struct px_olink *next;
} px_olink;
typedef struct px_olist {
	px_olink *head, *tail;
	uint32_t n;
} px_olist;

typedef struct px_plink {
	px_prop p;
	struct px_plink *next;
} px_plink;
typedef struct px_plist {
	px_plink *head, *tail;
	uint32_t n;
} px_plist;

typedef struct px_guard {
	bool has, neg;
	uint32_t value;
	px_loc loc;
} px_guard;

/* A place between two top-level items where a second parse can begin, and
 * what the parse had done by then (see px_parse). */
typedef struct px_parse_mark {
	uint32_t off;
	int last_tok;
	px_str last_text;
	px_loc last_loc;
	uint32_t quiet;
	unsigned nerrors;
	bool target_written;
	px_diag_mark diags;
} px_parse_mark;

/* What registering the function being parsed changed in the module, to be
 * undone when its item is parsed again. */
typedef struct px_reg_undo {
	enum { PX_REG_NONE, PX_REG_ADDED, PX_REG_REPLACED } what;
	uint32_t index;   /* in m->funcs */
	px_funcsig old;   /* PX_REG_REPLACED: the signature before */
} px_reg_undo;

typedef struct px_parser {
	px_module *m;
	px_arena tmp;           /* lists of the statement being parsed; reset per line */
	px_func *f;             /* the function being built, or NULL */
	bool f_broken;          /* its header did not parse: never registered or handed on */
	bool in_body;
	px_param *params;       /* parameters as the header lists them (in tmp) */
	uint32_t nparams, cap_params;
	unsigned nerrors;       /* errors this parse reported */
	unsigned f_errors;      /* nerrors when the current function began */
	bool brace_reported;    /* one "use ( )" error per statement */
	/* scanner state */
	uint32_t off;            /* where the next token starts */
	size_t in_off;           /* how much of m->src the scanner has read */
	px_loc tok_loc;          /* the token being scanned */
	int last_tok;            /* last token returned (0 at the start) */
	px_str last_text;        /* its text, for syntax errors */
	px_loc last_loc;         /* and where it starts: a syntax error's place */
	unsigned depth;          /* open brackets on this statement */
	uint32_t quiet;          /* a line already reported whole (px_line_key); no syntax error there */
	px_dloc dloc;            /* the last loc statement's place; file 0: none (loc off) */
	uint32_t dloc_id;        /* its entry in the function's dlocs once a statement took it; 0: none yet */
	/* the parse without lookahead correction */
	bool restart;            /* it met a syntax error: parse again from mark */
	px_parse_mark mark;      /* the start of the top-level item being parsed */
	px_reg_undo reg_undo;    /* what that item registered */
} px_parser;

/* The line a place is on, as the offset + 1 of its first byte: an error
 * there compares it with px_parser.quiet (0: none). */
static inline uint32_t px_line_key(const px_module *m, px_loc loc)
{
	uint32_t b = px_loc_off(loc);
	while (b > 0 && m->src[b - 1] != '\n')
		b--;
	return b + 1;
}

/* Report an error at loc (a PX_D_* id and its arguments) and count it for
 * px_parse's result. */
#define PX_PERR(P, loc, ...) ((P)->nerrors++, px_error((P)->m->diags, (loc), __VA_ARGS__))

#endif
