/* The call ABI's facts that the selector (params.c) and the printer
 * (print/module.c) share: the symbols parameters and returns are spelled with,
 * and the layout of several returns. */
#ifndef PX_ABI_H
#define PX_ABI_H
#include <stdint.h>

/* Parameter I of function NAME is the .param symbol NAME_param_I. */
#define PX_PARAM_INFIX "_param_"
/* A device function returns through .param func_retval0; a caller declares
 * the returned value's space as .param retval0. */
#define PX_RETVAL_CALLEE "func_retval"
#define PX_RETVAL_CALLER "retval"
/* A call's argument I is the .param PX_PARAM_CALLER I of its { } block. */
#define PX_PARAM_CALLER "param"

/* The type a value of type t is passed as between functions: a pred as a
 * b32 holding 0 or 1 (LLVM's i1), a ptr as a u64, anything else as itself. */
int px_abi_type(int t);

/* PTX allows one .param return value only, so a device function with several
 * returns returns one byte aggregate func_retval0 in which return i lies at
 * offs[i], each at its natural alignment. The selector lays out its st.param /
 * ld.param accesses and the caller's retval0 declaration with this, the
 * printer the callee's signature. offs may be NULL; n must be >= 1. */
void px_ret_layout(const uint16_t *rets, uint32_t n, uint32_t *offs, uint32_t *size, uint32_t *align);

#endif
