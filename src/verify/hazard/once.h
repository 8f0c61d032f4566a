/* One warning per hazard, not per statement: the statements one cause (a
 * divergent branch, a guard) makes wrong the same way are one warning, at
 * the first of them in the text, and a note at the last that counts the
 * others. (The checks that follow an item, a variable, a barrier or a value,
 * say each once already.) A check adds each
 * finding with its cause and kind, keeps what its warning needs in its own
 * array at the index it is given, and reports after its walk. */
#ifndef PX_VERIFY_ONCE_H
#define PX_VERIFY_ONCE_H
#include <stdbool.h>
#include <stdint.h>

#include "diag/diag.h"
#include "front/ir.h"
#include "util/arena.h"

typedef struct px_once_item {
	const void *cause;
	unsigned kind;
	px_loc first, last; /* the statements' places */
	uint32_t more;      /* statements after the first */
} px_once_item;

typedef struct px_once {
	px_arena *a; /* where the items are (the check's frame) */
	px_once_item *items;
	uint32_t n, cap;
} px_once;

/* Counts a finding of kind for cause in the statement at place at; returns
 * its item's index, with *fresh set when the caller is to (re)write its own
 * record there: a new cause, or a statement earlier than the first. A second
 * finding in the same statement is not counted. */
uint32_t px_once_add(px_once *o, const void *cause, unsigned kind, px_loc at, bool *fresh);
/* After item i's warning and its notes: the note that counts the rest. */
void px_once_note(const px_once *o, uint32_t i, px_diags *d, const px_module *m);
#endif
