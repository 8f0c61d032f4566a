/* What the alignment and bounds checks read of the value analysis
 * (verify/analysis/value.h): an address's variable, its offset there when exact, and
 * what the address is modulo a power of two; and the notes that say where a
 * value's form came from. */
#ifndef PX_VERIFY_KNOWN_H
#define PX_VERIFY_KNOWN_H
#include <stdbool.h>
#include <stdint.h>

#include "diag/diag.h"
#include "verify/analysis/value.h"

/* The largest modulus followed. */
#define PX_KNOWN_MOD (1u << 30)

/* A form as the checks read it: with base, what is known is of the offset
 * from the variable's address: it is off exactly, or rem modulo mod (a power
 * of two; 1: nothing); px_known_residue adds what the variable's alignment
 * says. */
typedef struct px_known {
	uint32_t base;      /* the variable it points into (px_value_base_name), or 0 */
	bool exact;         /* it is the variable's address plus off (without base: the integer off) */
	int64_t off;
	uint32_t mod, rem;
} px_known;

/* What is known of the address operand o ([base + off], no coordinates);
 * false: nothing. */
bool px_known_addr(const px_values *va, const px_opnd *o, px_known *out);
/* What x itself is modulo a power of two: *rem modulo *mod. */
void px_known_residue(const px_values *va, const px_known *x, uint32_t *mod, uint32_t *rem);
/* Notes at the definitions of value id and of the values known exactly
 * that its statement reads, up to depth statements up: where what a check
 * used came from. */
void px_known_notes(const px_values *va, px_diags *d, uint32_t id, unsigned depth);

#endif
