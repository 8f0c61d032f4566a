/* --emit=isel: what the selector chose, one line per machine instruction, so
 * tests can pin selection without depending on PTX spelling:
 *
 *     kernel @vadd
 *     3:3 MOV_U32_r
 *     5:1 label ^loop
 *     7:3 INT_NVVM_FOO_r iid=4242
 *
 * L:C is the MIR node the instruction came from. A pseudo instruction without
 * an MC name prints its pseudo name in lower case. */
#include "print/print.h"

static const char *const pseudo_names[] = {
	[PX_PSEUDO_CALLSEQ_BEGIN] = "callseq_begin",
	[PX_PSEUDO_CALLSEQ_END] = "callseq_end",
	[PX_PSEUDO_DECLARE_PARAM] = "declare_param",
	[PX_PSEUDO_CALL] = "call",
	[PX_PSEUDO_ASM] = "inline_asm",
};

static void print_isel_line(px_buf *out, const px_minst *mi)
{
	px_buf_printf(out, "%u:%u ", mi->loc.line, mi->loc.col);
	if (mi->pseudo == PX_PSEUDO_LABEL) {
		px_buf_puts(out, "label ^");
		px_buf_put(out, mi->name.s, mi->name.n);
		px_buf_putc(out, '\n');
		return;
	}
	px_buf_puts(out, mi->mc ? mi->mc : pseudo_names[mi->pseudo]);
	if (mi->iid >= 0)
		px_buf_printf(out, " iid=%d", (int)mi->iid);
	if (mi->var && mi->var->isd)
		px_buf_printf(out, " isd=%d", (int)mi->var->isd);
	if (mi->mma_desc)
		px_buf_printf(out, " desc=0x%010llx", (unsigned long long)mi->mma_desc);
	px_buf_putc(out, '\n');
}

void px_print_isel_open(px_buf *out, const px_func *fn)
{
	px_buf_puts(out, fn->is_kernel ? "kernel @" : "func @");
	px_buf_put(out, fn->name.s, fn->name.n);
	px_buf_putc(out, '\n');
}

void px_print_isel_insts(px_buf *out, const px_minst *first)
{
	for (const px_minst *mi = first; mi; mi = mi->next)
		print_isel_line(out, mi);
}

void px_print_isel_close(px_buf *out) { px_buf_putc(out, '\n'); }

void px_print_isel(px_buf *out, const px_mfunc *mf)
{
	px_print_isel_open(out, mf->fn);
	px_print_isel_insts(out, mf->first);
	px_print_isel_close(out);
}
