/* Instruction selection: each verified node becomes machine instructions in
 * NVPTX's layer order (intrinsic-with-chain, vector load/store, then the
 * pattern matcher), with the parameter ABI and call sequences around them and
 * registers numbered per class. */
#ifndef PX_ISEL_H
#define PX_ISEL_H
#include <stdbool.h>
#include <stdint.h>

#include "diag/diag.h"
#include "front/ir.h"
#include "isel/minst.h"
#include "tables/firstrow.h"
#include "tables/tables.h"
#include "verify/analysis/value.h"

typedef struct px_isel {
	px_module *m;
	px_diags *d;
	const px_target *target;
	uint16_t ptx;          /* PTX version to check windows against (0: any) */
	px_arena *a;           /* the function arena */
	px_arena ia;           /* the piece's instructions and their operands */
	px_func *f;
	px_mfunc mf;
	const px_node *pending; /* the first statement no piece has selected yet */
	bool ended;            /* the last piece is selected */
	bool handed;           /* a piece was handed out: the next call reuses its memory */
	uint32_t next[PX_NREGCLASS_IDS]; /* next number per numbering (a view shares its base's) */
	uint32_t *vreg;        /* per value: register of element 0, or UINT32_MAX */
	uint32_t vcap;
	uint32_t callseq;      /* numbers call sequences across the module */
	px_strmap early_calls; /* callees called before their definition: need a prototype */
	px_arena *keep;        /* what lives to the module's end (early_calls' names): m->arena */
	const px_module *sigs; /* a held function's: the whole module's signatures (NULL: as the text goes) */
	bool late;             /* the first pass met a call to a function not defined yet */
	bool remarks;          /* report selection remarks (--remarks) */
	bool mc_names;         /* name each instruction's MC opcode (--emit=isel prints them) */
	bool lineinfo;         /* --lineinfo / -g: the printer marks source places with .loc */
	bool ptxmap;           /* the printer marks each statement's first line for the assembler's messages */
	const px_node *cur;    /* the statement being selected (NULL: the entry sequence) */
	px_loc lc_loc;         /* the place last asked of px_module_linecol, and its answer */
	px_linecol lc;
	struct px_match_plan *match; /* match.c: per function, the nodes patterns absorb */
	uint32_t vskip;        /* vector.c: statements a merged vector access already covers */
	uint32_t vquiet;       /* vector.c: statements of a run already remarked on as not merged */
	const px_func *b8f;    /* regs.c: the function b8mark describes (NULL: none yet) */
	uint8_t *b8mark;       /* regs.c: per value, 1 when it needs a true .b8 register */
	const px_values *va;   /* vector.c: the value analysis of s->f, once a run asks (NULL: not yet) */
	const px_values *va_given; /* the verifier's analysis of s->f (px_select_begin), else NULL */
	px_values va_own;      /* the analysis made here when none was given */
	uint32_t b8cap;
	px_first_rows *first_rows; /* remembered first admitting rows (px_variant_find) */
} px_isel;

void px_isel_init(px_isel *s, px_module *m, px_diags *d);
void px_isel_free(px_isel *s);
/* Select f (verified, no errors) piece by piece: px_select_begin, then
 * px_select_more until it returns false. Each true leaves the next piece of
 * instructions in s->mf (mf.first on), alive until the next call, which
 * reuses its memory; the false leaves the register counts of the whole
 * function in s->mf. The caller prints a piece before it asks for the next,
 * so a big function's instructions never all exist at once: held whole,
 * the machine instructions of make bench's one-kernel module (1M
 * statements) took a peak of 924 MB, against 391 MB in pieces of 256 KiB
 * (533 bytes a statement). va: the verifier's value analysis of f, which
 * the selector reads where it asks one (vector.c) instead of making its own;
 * NULL: none to reuse. */
void px_select_begin(px_isel *s, px_func *f, const px_values *va);
bool px_select_more(px_isel *s);

/* a family's selector (src/family.c) runs first, in layer 1; true when it took the node */
bool px_select_tile_copy(px_isel *s, const px_node *n);   /* tilecopy.c */
bool px_select_collective(px_isel *s, const px_node *n);  /* collective.c: the full-mask form */
bool px_select_vector(px_isel *s, const px_node *n);      /* vector.c: layer 2 */

/* mma.c: tensor-core selectors */
bool px_select_mma(px_isel *s, const px_node *n);
bool px_select_wgmma(px_isel *s, const px_node *n);
bool px_select_tmem_fragment(px_isel *s, const px_node *n);
bool px_select_tcgen05_commit(px_isel *s, const px_node *n);
bool px_select_tcgen05_mma(px_isel *s, const px_node *n);
bool px_select_wmma(px_isel *s, const px_node *n);
/* desc.c: a descriptor built from named fields, moved as its packed constant */
bool px_select_desc(px_isel *s, const px_node *n);

/* ---- shared between the selector's files ---- */
/* registers (regs.c) */
/* printed class: %f for f32, %fd for f64 */
static inline uint8_t px_rc_of_type(int type) { return px_types[type].print_class; }
uint32_t px_new_reg(px_isel *s, int type, uint32_t count);
/* A fresh true .b8 register (%rb), for a b8reg operand's constant. */
uint32_t px_new_true_b8(px_isel *s);
uint32_t px_value_reg(px_isel *s, uint32_t value);
/* Does the b8 value need a true .b8 register (%rb, an operand marked b8reg)? */
bool px_value_true_b8(px_isel *s, uint32_t value);
/* building instructions (isel.c) */
px_minst *px_emit_inst(px_isel *s, const px_op_def *op, const uint16_t *slot, px_loc loc);
px_mop *px_mops(px_isel *s, uint32_t n);
void px_set_slot(const px_op_def *op, uint16_t *slot, unsigned sname, unsigned tok); /* sname: PX_SN_* */
unsigned px_type_tok(const px_op_def *op, unsigned sname, int type);
void px_finish(px_isel *s, px_minst *mi);        /* MC name */
void px_set_guard(px_isel *s, px_minst *mi, const px_node *n); /* n's guard, if it has one */
/* An instruction the selector makes itself (no node wrote it): op with slot,
 * the results res[0..nres) and operands ops[0..nops) copied, its MC name
 * settled; a guard set on it afterwards does not change that name. */
px_minst *px_build_inst(px_isel *s, const px_op_def *op, const uint16_t *slot, const px_mop *res, uint32_t nres,
                        const px_mop *ops, uint32_t nops, px_loc loc);
/* The operands such an instruction takes: an empty one of a kind, an integer
 * immediate printed as type, a symbol, a fresh register of type. */
/* Inline: every operand of every instruction is made from one, and a call
 * that zeroes the 80-byte record in place cost 3% of a translation. */
static inline px_mop px_mop_of(uint8_t kind) { return (px_mop){.kind = kind}; }
/* The b8 values an operation needs in a true .b8 register (an operand or
 * result its variant marks b8reg, such as cvt's e2m1x2 pairs) live in
 * ptxemit's %rb class; every other 8-bit value stays in %rs, as in NVPTX. The
 * register number px_value_reg hands out for one carries PX_RB_TAG, so that
 * px_reg_mop prints it as %rb whatever type the caller passes. */
#define PX_RB_TAG 0x40000000u
/* Register reg of type as an operand. Inline for the same reason as
 * px_mop_of: returned from a call, the record was read back from the stack
 * before its bytes had landed, a stall at nearly every operand. */
static inline px_mop px_reg_mop(px_isel *s, int type, uint32_t reg)
{
	(void)s;
	px_mop m = px_mop_of(PX_M_REG);
	m.rc = px_rc_of_type(type);
	m.reg = reg;
	if (reg != UINT32_MAX && (reg & PX_RB_TAG)) {
		m.rc = PX_RC_rb;
		m.reg = reg & ~PX_RB_TAG;
	}
	return m;
}
px_mop px_imm_mop(int type, int64_t v);
px_mop px_sym_mop(px_str name);
px_mop px_fresh_reg(px_isel *s, int type);
/* dst = op src (one result, one operand); returns dst */
px_mop px_emit_unary(px_isel *s, const px_op_def *op, const uint16_t *slot, px_mop dst, px_mop src, px_loc loc);
/* dst = cvta.to.space.u64 src: a generic address into the space's own */
px_mop px_emit_cvta_to(px_isel *s, unsigned space, px_mop dst, px_mop src, px_loc loc);
void px_lower_node(px_isel *s, const px_node *n); /* from the tables: operands, results, guard */
/* operands (operands.c) */
px_mop px_lower_operand(px_isel *s, const px_node *n, const px_opnd *o, const px_opnd_def *def,
                        int want, px_loc loc);
px_mop px_lower_value_as(px_isel *s, const px_opnd *o, int want, px_loc loc);
px_mop px_materialize(px_isel *s, int type, px_mop imm, px_loc loc);
px_mop px_generic_pointer(px_isel *s, const px_opnd *o, px_mop src, px_loc loc);
px_mop px_materialize_to(px_isel *s, int type, px_mop dst, px_mop imm, px_loc loc);
/* the param ABI (params.c) */
px_str px_param_sym(px_isel *s, uint32_t index);
void px_select_entry(px_isel *s);
void px_select_call(px_isel *s, const px_node *n);
void px_select_ret(px_isel *s, const px_node *n);
/* the call block of printf's vprintf(fmt, buf), guarded as n is (params.c) */
void px_select_vprintf(px_isel *s, const px_node *n, px_mop fmt, px_mop buf);
/* inline PTX (asm.c) */
void px_select_asm(px_isel *s, const px_node *n);
/* printf: its buffer, its string and the call (printf.c) */
void px_select_printf(px_isel *s, const px_node *n);
/* MC names (mcname.c) */
const char *px_mc_name(px_arena *a, const px_minst *mi);

#endif
