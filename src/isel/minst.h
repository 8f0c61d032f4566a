/* Selected machine instructions: what the selector (src/isel) produces and the
 * printer (src/print) renders. Operands are registers with a class and number,
 * immediates with the type they print as, symbols, addresses and groups. */
#ifndef PX_MINST_H
#define PX_MINST_H
#include <stdbool.h>
#include <stdint.h>

#include "front/ir.h"
#include "tables/tables.h"

enum px_mkind {
	PX_M_NONE,
	PX_M_REG,   /* rc (PX_RC_*, a float view for float types) + reg number */
	PX_M_IMM,   /* integer immediate imm, printed for type */
	PX_M_FIMM,  /* float immediate: bits, printed 0fXXXXXXXX (f32) or 0dX..X (f64) by type */
	PX_M_SYM,   /* a global or function name, or a parameter symbol (name) */
	PX_M_SREG,  /* a special register: name */
	PX_M_LABEL, /* a label: name (printed with its "$" prefix by the printer) */
	PX_M_ADDR,  /* [base+off] or [base, {idx}] */
	PX_M_GROUP, /* {a, b, ...} */
	PX_M_SINK,  /* PTX's sink _: a discarded result where the instruction takes one */
};

typedef struct px_mop px_mop;
struct px_mop {
	uint8_t kind;   /* enum px_mkind */
	bool neg;       /* !%p */
	bool pair;      /* result joined to the previous one with '|' */
	uint8_t rc;     /* PX_M_REG: class id */
	uint32_t reg;   /* PX_M_REG: number (from 0) */
	uint16_t type;  /* PX_M_IMM / PX_M_FIMM: PX_T_* deciding the spelling */
	int64_t imm;
	uint64_t bits;
	px_str name;    /* PX_M_SYM, PX_M_SREG, PX_M_LABEL */
	px_mop *base;   /* PX_M_ADDR */
	int64_t off;
	px_mop *idx;    /* PX_M_ADDR: optional group after ',' */
	px_mop *elems;  /* PX_M_GROUP */
	uint32_t nelems;
};

/* Pointers first, then 32-bit fields, then the small ones, so nothing pads. */
typedef struct px_minst px_minst;
struct px_minst {
	px_minst *next;
	const px_op_def *op;     /* a pseudo instruction's too (data/ops/pseudo.yaml): px_pseudo_op */
	const px_variant *var;
	px_mop *res;
	px_mop *ops;
	const char *mc;          /* selected MC opcode name */
	px_mop *callee;          /* CALL through a register: the register (name: the prototype) */
	uint64_t mma_desc;       /* NVVM's packed MMA descriptor (isel/mma_desc.h), or 0 */
	/* pseudo payload */
	px_str name;             /* LABEL / DECLARE_PARAM / CALL callee */
	uint32_t nres, nops;
	uint32_t guard_reg;      /* a %p register number */
	int32_t iid;             /* NVVM intrinsic ID or -1 */
	uint32_t aux;            /* CALLSEQ: sequence number; DECLARE_PARAM: size in bytes (0: scalar) */
	uint32_t align;          /* DECLARE_PARAM */
	px_loc loc;              /* the MIR node it came from */
	px_linecol at;           /* loc's line and column: only for --emit=isel (mc_names) */
	px_dloc dloc;            /* its .loc: file 1 is the MIR, 2.. the loc statements' files; 0: none
	                          * (filled only for --lineinfo) */
	uint16_t slot[PX_MAX_SLOTS]; /* token per slot of op, 0 = empty */
	uint16_t type;           /* DECLARE_PARAM, CALLPROTOTYPE's result: scalar PX_T_* */
	bool has_guard, guard_neg;
	bool full_mask;          /* a warp collective with the all-lanes mask: the *_FULL opcode */
};

/* A selected function: the front end's function plus its instructions. */
typedef struct px_mfunc {
	const px_func *fn;
	bool lineinfo;           /* print .loc before each statement's first instruction */
	bool ptxmap;             /* and a PX_PTXMAP_MARK line naming its MIR place (cubin/ptxmap.c) */
	px_minst *first, *last;
	px_minst *before_last;   /* last's predecessor when last was appended to it */
	uint32_t nregs[PX_NREGCLASS_IDS]; /* per class id: registers to declare (highest number + 1) */
} px_mfunc;

/* The PX_OP_* of a pseudo instruction (an op of `shape: pseudo`), or -1:
 *   label            name: "$name:"
 *   callseq_begin    "{ // callseq N" (aux = N);  callseq_end  "} // callseq N"
 *   declare_param    ".param .align A .b8 name[size];" or ".param .bW name;"
 *   call             "call.uni (rets), callee, (args);" res = ret params, ops = args;
 *                    through a register: "call (rets), %rd1, (args), proto;" (callee: the
 *                    register, name: the prototype)
 *   callprototype    "name : .callprototype (.param .bW _) _ (.param .bW _, ...);" the
 *                    result, if nres, as declare_param's (type, aux, align); ops[i].type
 *                    is parameter i's type
 *   inline_asm       inline PTX: name = template, ops = outputs then inputs */
static inline int px_pseudo_op(const px_minst *mi)
{
	return mi->op && mi->op->shape == PX_SHAPE_PSEUDO ? (int)(mi->op - px_ops) : -1;
}

#endif
