/* The PTX printer: module framing (module.c), one instruction (inst.c), the
 * --emit=isel dump (isel_dump.c) and --emit=mir (mir.c). Everything it prints
 * was decided before: the verifier checked legality (and, for --emit=mir,
 * filled every token), the selector chose opcodes, registers and the call
 * sequence; the printer only spells them, in the order the tables give.
 * Every function appends to a px_buf. */
#ifndef PX_PRINT_H
#define PX_PRINT_H
#include <stdbool.h>
#include <stdint.h>

#include "front/ir.h"
#include "isel/minst.h"
#include "tables/tables.h"
#include "util/buf.h"

/* ---- module.c ---- */

/* The banner comment, .version, .target (", debug" with -g), .address_size 64
 * and a blank line; with -g also the empty DWARF sections ptxas requires of a
 * debug target. ptx_version is major*10+minor. */
void px_print_header(px_buf *out, const px_target *t, unsigned ptx_version, bool debug);

/* One line per module-scope variable, then a blank line (nothing when there are none). */
void px_print_globals(px_buf *out, const px_module *m);

/* A prototype of a device function, for a call printed before the callee's body.
 * linkage_kw is ".visible", ".extern", ".weak", or "" / NULL for internal. */
void px_print_func_decl(px_buf *out, const px_funcsig *s, const char *linkage_kw);

/* ".file N \"path\"" for the MIR file (1) and each file loc statements name. */
void px_print_files(px_buf *out, const px_module *m);
/* What comes before the functions: the header, the .file lines (files), the
 * prototypes of the functions a variable's initializer names, the variables,
 * and the prototypes of the functions called before their body or only
 * declared (early: the callees called before their definition). */
void px_print_front(px_buf *out, const px_module *m, const px_target *t, unsigned ptx_version,
                    bool debug, bool files, const px_strmap *early);
/* A function in pieces, its instructions printed as they are selected: the
 * signature, directives and register declarations (once mf->nregs is final),
 * the instructions from first on, the closing brace and a blank line. */
void px_print_func_open(px_buf *out, const px_mfunc *mf);
/* mf->ptxmap: the line a statement's instructions follow, "<mark><px_loc.pos>",
 * taken out again before anyone sees the PTX (cubin/ptxmap.c). */
#define PX_PTXMAP_MARK "\t//@ptxemit "
/* mf->lineinfo: a .loc before each statement's first instruction (again
 * after a flush: harmless). */
void px_print_insts(px_buf *out, const px_mfunc *mf, const px_minst *first);
void px_print_func_close(px_buf *out);

/* The keyword of a linkage (enum px_linkage): ".visible", ".extern", ".weak" or "". */
const char *px_print_linkage(uint8_t linkage);

/* ---- inst.c ---- */

/* One instruction or pseudo instruction, with its indentation and newline. */
void px_print_inst(px_buf *out, const px_minst *mi);

/* A real instruction's results ("|" before a paired one, ", " between the
 * others) and its operands (", " between them), each with the negation and
 * selector its definition prints around it. */
void px_print_results(px_buf *out, const px_minst *mi);
void px_print_sources(px_buf *out, const px_minst *mi);

/* One operand as PTX spells it (%r3, 0f3F800000, [%rd1+8], {%r1, %r2}, $L1). */
void px_print_mop(px_buf *out, const px_mop *op);

/* ---- asm.c ---- */

/* Inline PTX in its own scope: "// begin inline asm", "{", the template's lines
 * with each $N replaced by operand N and $$ by '$', "}", "// end inline asm". */
void px_print_asm(px_buf *out, const px_minst *mi);

/* ---- isel_dump.c ---- */

/* --emit=isel, a function in pieces: "kernel @name" or "func @name", one
 * "L:C [@%pN ]RESULTS = MCNAME OPERANDS[ iid=N]" line per selected
 * instruction from first on ("L:C label ^name" for labels), a blank line. */
void px_print_isel_open(px_buf *out, const px_func *fn);
void px_print_isel_insts(px_buf *out, const px_minst *first);
void px_print_isel_close(px_buf *out);

/* ---- mir.c ---- */

/* --emit=mir, the module in pieces in the order the text had them: the
 * target line, a module-scope variable (nothing for a printf's format
 * string), a function declaration, a verified function. Each ends with a
 * blank line. */
void px_print_mir_target(px_buf *out, const px_module *m);
void px_print_mir_global(px_buf *out, const px_module *m, const px_global *g);
void px_print_mir_decl(px_buf *out, const px_funcsig *s);
void px_print_mir_func(px_buf *out, const px_module *m, const px_func *f);

#endif
