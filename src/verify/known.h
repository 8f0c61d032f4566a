/* What is known of each value of a function that holds an address or an
 * integer: the variable it points into and its exact offset there, its exact
 * value, and what it is modulo a power of two. The bounds check
 * (verify/bounds.c) asks for the variable and the offset, the alignment
 * check (verify/misalign.c) for the residue.
 *
 * A value is followed when one statement of the function defines it (a value
 * assigned on several paths, a loop's induction value, is not): a literal,
 * mov of a variable, mov, cvt and cvta of what is known, add, sub, shl, mul
 * and mad with a known operand, and with a literal mask. A parameter is a
 * multiple of its `align`, a statement with {align = N} of N. The
 * definitions are met in text order before their reads (the verifier refuses
 * a read before every definition in the text), so one walk finds them all. */
#ifndef PX_VERIFY_KNOWN_H
#define PX_VERIFY_KNOWN_H
#include <stdbool.h>
#include <stdint.h>

#include "diag/diag.h"
#include "front/ir.h"

/* The largest modulus followed: an exact integer is known modulo it too. */
#define PX_KNOWN_MOD (1u << 30)

/* With var, what is known is of the offset from var's address: the value
 * is var's address plus off, or plus something that is rem modulo mod;
 * px_known_residue adds what var's alignment says. */
typedef struct px_known {
	const px_opnd *var; /* the variable it points into (its name as first written), or NULL */
	bool exact;         /* it is var's address plus off (without var: the integer off) */
	int64_t off;
	uint32_t mod, rem;  /* it (its offset from var) is rem modulo mod, a power of two (1: nothing) */
} px_known;

typedef struct px_known_fn {
	const px_module *m;
	const px_func *f;
	uint32_t *ndefs;      /* per value: its definitions, up to 2 */
	const px_node **def; /* per value: its one definition */
	px_known *v;          /* per value */
} px_known_fn;

void px_known_build(px_known_fn *k, const px_module *m, const px_func *f);
void px_known_free(px_known_fn *k);
/* What is known of the address operand o ([base + off], no coordinates);
 * false: nothing. */
bool px_known_addr(const px_known_fn *k, const px_opnd *o, px_known *out);
/* What x's value itself is modulo a power of two: *rem modulo *mod (1:
 * nothing is known). */
void px_known_residue(const px_known_fn *k, const px_known *x, uint32_t *mod, uint32_t *rem);
/* The bytes a variable holds (0: unknown: an unsized array, a handle, a
 * function) and what its address is a multiple of (its align, else its
 * element's size; 0: no variable). */
uint64_t px_known_var_bytes(const px_known_fn *k, px_str name);
uint32_t px_known_var_align(const px_known_fn *k, px_str name);
/* Notes at the definitions of value id and of the values known exactly
 * that its statement reads, up to depth statements up: where what a check
 * used came from. */
void px_known_notes(const px_known_fn *k, px_diags *d, uint32_t id, unsigned depth);
/* The bytes n reads or writes at one address: its type times its vector
 * width (.v2, .v4, .v8); 0 when it has no type. */
uint64_t px_access_bytes(const px_node *n);

#endif
