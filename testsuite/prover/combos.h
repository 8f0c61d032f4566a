/* The combination proof (combos.c): its modules, translations and texts. */
#ifndef PV_COMBOS_H
#define PV_COMBOS_H
#include "translate.h"
#include <stdio.h>
#include "tables/tables.h"
#include "util/buf.h"

/* a statement or value of a module, as the generator wrote it */
typedef struct cb_stmt {
	char *text;  /* its MIR line */
	char **f;    /* the generator line's further tab-separated fields */
	size_t nf;
	bool value;  /* a kernel's value (P or Q line), not a statement */
} cb_stmt;

/* a module: every statement whose lowest target and PTX version are its own */
typedef struct cb_module {
	char *key;        /* TARGET-PTX */
	char *target, *ptx;
	char *mir, *twin; /* its MIR, and the same with the tokens in another order (NULL: none) */
	size_t mirlen, twinlen;
	unsigned *line;   /* the statement (index + 1) at each MIR line, 0: none */
	unsigned nlines;
} cb_module;

typedef struct cb_modules {
	cb_stmt *s;
	size_t ns;
	cb_module *m; /* sorted by key */
	size_t nm;
} cb_modules;

/* the generator's lines of kinds stmt and value ('S' and 'P', or 'R' and 'Q')
 * as modules of at most `most` statements a kernel; comment heads each */
void cb_build(const char *gen, char stmt, char value, const char *comment, bool twins, cb_modules *out);
void cb_modules_free(cb_modules *m);

/* a translation: the PTX, or NULL; the lines refused (line 0: a failure at
 * no line, its message the first diagnostic) */
typedef struct cb_tr {
	char *ptx;
	pv_refusal *no;
	size_t nno;
	bool *at;         /* at[line]: a refusal at it, for lines up to maxline */
	unsigned maxline;
} cb_tr;
/* ptxemit on a module named name for target at ptx, the refused lines blanked
 * until it accepts the rest, at most tries times (0: the refusals of the first
 * translation only, and no PTX where there are any) */
void cb_translate(const char *name, const char *mir, size_t len, const char *target, const char *ptx, unsigned tries,
                  cb_tr *out);
void cb_tr_free(cb_tr *t);
bool cb_refused_at(const cb_tr *t, unsigned line);
/* src with the lines refused blanked (they stay, so that no line moves) */
char *cb_blank(const char *src, const pv_refusal *no, size_t nno, size_t *len);

/* the next line of a text at *p (without its newline) and its length; false at the end */
bool cb_next_line(const char **p, const char **line, size_t *len);

/* the lines a verdict names ("no:3,17"), sorted, their count in *n (malloc'd) */
unsigned *cb_verdict_lines(const char *v, size_t *n);

/* the later of two PTX versions "X.Y" */
const char *cb_later_ptx(const char *a, const char *b);

/* the ruled combinations (combos_ruled.c): their carriers judged by ptxas on
 * every target; prints the counts and returns 0 where all agree, 1 else */
int cb_ruled(const char *gen, const px_target **targets, size_t ntargets, const char *ptxas, const char *cache,
             unsigned jobs, unsigned tries);

/* the generator's lines (combos_gen.c) for the operations ops matches */
int cb_generate(FILE *out, const char *ops);


#endif
