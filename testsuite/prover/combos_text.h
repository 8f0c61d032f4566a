/* The texts the combination proof gives ptxas on one target (combos_text.c). */
#ifndef PV_COMBOS_TEXT_H
#define PV_COMBOS_TEXT_H
#include "combos.h"

typedef struct cb_text {
	char *tid;      /* VERSION.FAMILY */
	const char *v;  /* its PTX version */
	px_buf files, body;
	unsigned nfile;
} cb_text;

typedef struct cb_texts {
	cb_text *t;
	size_t n;
	pv_map index;  /* tid: its index + 1 */
	pv_map decl;   /* "VERSION\nLINE": the module variables declared */
	pv_map decls;  /* version: a px_buf of its declarations, in order */
} cb_texts;

/* the functions of one translation into the texts: acc (own NULL) every
 * function as printed; own (the refusals on the target given) each
 * function holding a refused statement, renamed, the others blanked */
void cb_piece(cb_texts *x, const char *ptx, const char *key, const char *kind, const char *v, const cb_tr *own);
/* text i for target, malloc'd */
char *cb_text_of(const cb_texts *x, size_t i, const char *target, size_t *len);
void cb_texts_free(cb_texts *x);
#endif
