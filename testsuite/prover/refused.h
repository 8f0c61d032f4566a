/* ptxas's verdict on a text as MIR lines. */
#ifndef PV_REFUSED_H
#define PV_REFUSED_H
#include "prover.h"

typedef struct pv_back {
	unsigned *bad;  /* the MIR lines of the refused PTX lines, sorted, once each (0: outside the statements) */
	size_t nbad;
	unsigned *raw;  /* the MIR line of each refused PTX line inside the statements, in order */
	size_t nraw;
	bool any;       /* ptxas refused something */
	unsigned *stmt; /* the statements of the text: the MIR lines its .loc lines name, sorted, once each */
	size_t nstmt;
	unsigned (*whole)[2]; /* a statement of a function refused as a whole program, and its header's PTX line */
	size_t nwhole;
} pv_back;
void pv_read_back(const pv_text *t, pv_back *b);
void pv_back_free(pv_back *b);
/* the header's PTX line of the refused function MIR line is in (the last
 * one read), 0: none */
unsigned pv_whole_fn(const pv_back *b, unsigned line);
bool pv_has(const unsigned *v, size_t n, unsigned x);
#endif
