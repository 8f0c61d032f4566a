/* --emit=isel: what the selector chose, one line per machine instruction, so
 * tests can pin selection without depending on PTX spelling:
 *
 *     kernel @vadd
 *     3:3 MOV_U32_r
 *     5:1 label ^loop
 *     7:3 INT_NVVM_FOO_r iid=4242
 *
 * L:C is the MIR node the instruction came from. A pseudo instruction without
 * an MC name prints its op name (data/ops/pseudo.yaml). */
#include "print/print.h"

static void print_isel_line(px_buf *out, const px_minst *mi)
{
	px_buf_printf(out, "%u:%u ", mi->at.line, mi->at.col);
	if (px_pseudo_op(mi) == PX_OP_label) {
		px_buf_puts(out, "label ^");
		px_buf_put(out, mi->name.s, mi->name.n);
		px_buf_putc(out, '\n');
		return;
	}
	px_buf_puts(out, mi->mc ? mi->mc : mi->op->name);
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
