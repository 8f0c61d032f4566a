/* --emit=mir inside the printer: what print/mir.c (the module's items) and
 * print/mir_stmt.c (a function's statements) share. */
#ifndef PX_PRINT_MIR_H
#define PX_PRINT_MIR_H
#include "print/print.h"

/* One function being printed. */
typedef struct px_mir_printer {
	px_buf *out;
	const px_module *m;
	const px_func *f;
	bool *typed;      /* per value: its type was printed at an earlier definition (or it is a parameter) */
	uint32_t told[8]; /* the values this statement defines first, whose space is known */
	unsigned ntold;
} px_mir_printer;

/* A string literal with C's escapes, as the scanner reads them back. */
void px_mir_quoted(px_buf *out, const char *s, size_t n);
/* The number literal at loc in m's text, as it was written. */
void px_mir_number(px_buf *out, const px_module *m, px_loc loc);
/* %name */
void px_mir_value(px_mir_printer *p, uint32_t id);
/* A statement, after a loc statement where its place is not *cur (which it
 * becomes); *cur starts as no place at the top of a body. */
void px_mir_stmt(px_mir_printer *p, const px_node *n, px_dloc *cur);

#endif
