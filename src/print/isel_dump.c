/* --emit=isel: what the selector chose, one line per machine instruction with
 * its registers and operands, as LLVM's -print-after-isel shows them, so tests
 * can pin selection and register assignment without depending on PTX's
 * suffix spelling:
 *
 *     kernel @vadd
 *     3:3 %r1 = MOV_U32_rx %tid.x
 *     5:1 label ^loop
 *     7:3 @!%p1 %r2 = INT_NVVM_FOO_r %r1 iid=4242
 *     9:3 ST_GLOBAL_F32_ar [%rd2], %f5
 *
 * L:C is the MIR node the instruction came from; results come before '=',
 * operands after the MC name, annotations last. A pseudo instruction shows
 * what it will print: callseq_begin/end their sequence number, declare_param
 * its declaration, call its return and argument lists, inline asm its
 * template (escaped, in double quotes) and its $0, $1, ... operands. */
#include "print/print.h"

static void put_str(px_buf *out, px_str s) { px_buf_put(out, s.s, s.n); }

static void put_list(px_buf *out, const px_mop *ops, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		if (i)
			px_buf_puts(out, ", ");
		px_print_mop(out, &ops[i]);
	}
}

/* The template as a C string literal: one line of the listing per instruction. */
static void put_quoted(px_buf *out, px_str s)
{
	px_buf_putc(out, '"');
	for (uint32_t i = 0; i < s.n; i++) {
		char c = s.s[i];
		if (c == '\n')
			px_buf_puts(out, "\\n");
		else if (c == '\t')
			px_buf_puts(out, "\\t");
		else if (c == '"' || c == '\\') {
			px_buf_putc(out, '\\');
			px_buf_putc(out, c);
		} else
			px_buf_putc(out, c);
	}
	px_buf_putc(out, '"');
}

static void print_declared(px_buf *out, const px_minst *mi)
{
	if (mi->aux) {
		px_buf_puts(out, " .align ");
		px_buf_putu(out, mi->align ? mi->align : 1);
		px_buf_puts(out, " .b8 ");
		put_str(out, mi->name);
		px_buf_putc(out, '[');
		px_buf_putu(out, mi->aux);
		px_buf_putc(out, ']');
	} else {
		px_buf_puts(out, " .b");
		px_buf_putu(out, px_types[mi->type].width);
		px_buf_putc(out, ' ');
		put_str(out, mi->name);
	}
}

/* A pseudo instruction's payload after its MC name. */
static void print_pseudo_operands(px_buf *out, const px_minst *mi)
{
	switch (px_pseudo_op(mi)) {
	case PX_OP_callseq_begin:
	case PX_OP_callseq_end:
		px_buf_putc(out, ' ');
		px_buf_putu(out, mi->aux);
		break;
	case PX_OP_declare_param:
		print_declared(out, mi);
		break;
	case PX_OP_call:
		px_buf_puts(out, " (");
		put_list(out, mi->res, mi->nres);
		px_buf_puts(out, "), ");
		if (mi->callee) {
			px_print_mop(out, mi->callee);
			px_buf_puts(out, ", (");
			put_list(out, mi->ops, mi->nops);
			px_buf_puts(out, "), ");
			put_str(out, mi->name);
		} else {
			put_str(out, mi->name);
			px_buf_puts(out, ", (");
			put_list(out, mi->ops, mi->nops);
			px_buf_putc(out, ')');
		}
		break;
	case PX_OP_callprototype:
		px_buf_putc(out, ' ');
		put_str(out, mi->name);
		break;
	case PX_OP_inline_asm:
		px_buf_putc(out, ' ');
		put_quoted(out, mi->name);
		if (mi->nops) {
			px_buf_putc(out, ' ');
			put_list(out, mi->ops, mi->nops);
		}
		break;
	}
}

static void print_isel_line(px_buf *out, const px_minst *mi)
{
	px_buf_printf(out, "%u:%u ", mi->at.line, mi->at.col);
	bool pseudo = px_pseudo_op(mi) >= 0;
	if (px_pseudo_op(mi) == PX_OP_label) {
		px_buf_puts(out, "label ^");
		put_str(out, mi->name);
		px_buf_putc(out, '\n');
		return;
	}
	if (mi->has_guard)
		px_buf_printf(out, "@%s%s%u ", mi->guard_neg ? "!" : "", px_regclasses[PX_RC_p].prefix,
		               mi->guard_reg);
	if (!pseudo && mi->nres) {
		px_print_results(out, mi);
		px_buf_puts(out, " = ");
	}
	px_buf_puts(out, mi->mc ? mi->mc : mi->op->name);
	if (pseudo) {
		print_pseudo_operands(out, mi);
	} else if (mi->nops) {
		px_buf_putc(out, ' ');
		px_print_sources(out, mi);
	}
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
