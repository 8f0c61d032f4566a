/* The cases a proof translates, and their translation through the library. */
#ifndef PV_TRANSLATE_H
#define PV_TRANSLATE_H
#include "prover.h"
#include "ptxemit.h"

typedef struct pv_case {
	char *mir;    /* its path under the source tree */
	char **opts;  /* the options of its first line */
	int nopts;
	char *name;   /* the name it is translated under: in/PATH with / as _ */
	char *src;
	size_t len;
} pv_case;

/* "MIR-PATH [OPTIONS...]" lines of the file list, read with their text */
int pv_read_cases(const char *srcdir, const char *list, pv_case **cases, size_t *ncases);
void pv_case_free(pv_case *c);

/* an error at a MIR line */
typedef struct pv_refusal {
	unsigned line;
	char *msg;
} pv_refusal;
typedef struct pv_refusals {
	pv_refusal *v;
	size_t n;
	char *first; /* the first diagnostic's first line */
} pv_refusals;
void pv_refusals_free(pv_refusals *no);

/* Translate c: own, with its own options (its --target and --ptx among
 * them); otherwise for target at ptx (NULL: ptxemit's choice) with its
 * other options, every error reported (--max-errors=0). Returns the errors;
 * *out the PTX where there are none, no (if given) the errors. */
int pv_translate(const pv_case *c, const char *target, const char *ptx, bool own, char **out, pv_refusals *no);
/* own options, at the PTX version ptx, every error reported */
int pv_translate_at(const pv_case *c, const char *ptx, char **out, pv_refusals *no);
#endif
