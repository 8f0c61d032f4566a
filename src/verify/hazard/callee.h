/* Races inside a device function, between the threads of a kernel that calls
 * it: the verifier sees one function at a time, and under -j several at
 * once, so what the race check needs of each is kept in its record of uses
 * (verify/kernel.c) and the question is asked when the module ends
 * (px_check_call_races), in text order.
 *
 * A device function that every thread entering it runs straight through (no
 * label, branch, guard, call, inline PTX or synchronizing statement) is
 * summed up: its accesses of global or generic memory through a pointer,
 * over the thread indices and its parameters. A kernel keeps each direct
 * call of its first block (which every thread of the CTA runs, unguarded)
 * with its arguments' forms and what their atoms are: a parameter the host
 * may set to any value, a pointer parameter of global memory, a value every
 * thread holds alike. At the module's end, each such call of a summed-up
 * function has its pairs of accesses decided by walking the threads of the
 * kernel's block (reqntid, at most 1024 threads), a parameter whose
 * coefficients differ taken at the value that makes two threads meet. */
#ifndef PX_VERIFY_CALLEE_H
#define PX_VERIFY_CALLEE_H
#include <stdbool.h>

#include "verify/analysis/value.h"
#include "verify/hazard/frame.h"
#include "verify/verify.h"

/* Parameter k of a summed-up function, in its accesses' forms: past every
 * value id, so that the caller's forms put in for them never meet them. */
#define PX_CALLEE_PARAM (PX_VV_VALUE + (1u << 30))

typedef struct px_callee_access {
	px_aff form;     /* over the thread and block indices and PX_CALLEE_PARAM + k */
	px_loc at;       /* where its address is written */
	char name[64];   /* the statement, as px_node_name spells it */
	unsigned bytes;
	bool global;     /* it names the global space, else generic */
	bool writes, atomic;
	bool same_store; /* a st of a value every thread holds alike, whatever the arguments */
} px_callee_access;

/* What an atom of an argument is. */
enum { PX_ARG_OTHER, PX_ARG_FREE, PX_ARG_POINTER, PX_ARG_ALIKE };

typedef struct px_call_atom {
	uint32_t var;    /* PX_VV_VALUE + value id in the kernel */
	uint8_t kind;    /* PX_ARG_* */
	int64_t lo, hi;  /* PX_ARG_FREE: its type's range */
	px_str name;
} px_call_atom;

typedef struct px_call_site {
	px_str callee;
	px_loc at;
	px_aff *args;
	uint32_t nargs;
	px_call_atom *atoms;
	uint32_t natoms;
} px_call_site;

typedef struct px_race_record {
	px_callee_access *acc; /* summed up (a device function), else NULL */
	uint32_t nacc;
	px_call_site *calls;   /* a kernel's calls */
	uint32_t ncalls;
	px_box launch;         /* a kernel's block */
	px_str name;
	px_loc loc;
} px_race_record;

/* Makes the record of the frame's function, in the verifier's arena of what
 * lives to the module's end, and keeps it in the function's record of uses
 * (none when it keeps nothing). */
void px_race_record_keep(px_frame *fr);
/* The question at the module's end, over every function's record (NULL:
 * none) in text order. */
void px_check_call_races(px_verifier *v, px_race_record *const *recs, uint32_t n);

#endif
