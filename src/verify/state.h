/* What the verifier knows of each value while it walks a function in text order. */
#ifndef PX_VERIFY_STATE_H
#define PX_VERIFY_STATE_H

#include "verify/verify.h"

enum { PX_VS_DEF = 1, PX_VS_TYPED = 2 };

void px_define_results(px_verifier *v, px_func *f, const px_node *n, const px_opnd_def *defs,
                       unsigned ndefs);


/* A call against the callee's signature: argument count and types (lits[i],
 * a literal argument or kind PX_O_NONE, against its parameter's type), results.
 * arg_bytes[i] / ret_bytes[i] is nonzero for a whole array value (args[i] its
 * element type) or an aggregate parameter (args[i] PX_T_none): the bytes it
 * carries to a b8[N] parameter or from a b8[N] result.
 * The messages name the callee with its sigil: "@" for a function, "%" for the
 * value an indirect call goes through (its signature written in the call). */
void px_check_call_sig(px_verifier *v, const px_funcsig *sig, const char *sigil, px_str callee, px_loc loc,
                       const uint16_t *args, const uint32_t *arg_bytes, const px_opnd *lits, uint32_t nargs,
                       const uint16_t *rets, const uint32_t *ret_bytes, uint32_t nrets);
/* Record what a function uses for the rules over the call graph, and check
 * them once the module has been read (verify/kernel.c). */
void px_record_uses(px_verifier *v, const px_func *f);
struct px_race_record;
/* Keep r (verify/hazard/callee.h) in the record of the function being verified. */
void px_uses_keep_race(px_verifier *v, struct px_race_record *r);
void px_check_kernels(px_verifier *v);
#endif
