/* One selected instruction as PTX text. The suffix order is the op's slot
 * order in the tables (PTX's grammar order), whatever order the MIR used; the
 * operand spellings follow NVPTX's register printer: class prefix plus the
 * register number, the same number under a float view (%f, %fd). */
#include "print/print.h"
#include "tables/query.h"

static void put_str(px_buf *out, px_str s) { px_buf_put(out, s.s, s.n); }

static void print_reg(px_buf *out, uint8_t rc, uint32_t reg)
{
	px_buf_putshort(out, px_regclasses[rc].prefix);
	px_buf_putu(out, reg);
}

/* PTX's exact float forms: 0f for 32-bit bits, 0d for 64-bit ones. */
static void print_fimm(px_buf *out, const px_mop *op)
{
	bool wide = px_types[op->type].width == 64;
	px_buf_puts(out, wide ? "0d" : "0f");
	px_buf_puthex(out, wide ? op->bits : (uint32_t)op->bits, wide ? 16 : 8);
}

static void print_list(px_buf *out, const px_mop *ops, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		if (i)
			px_buf_puts(out, ", ");
		px_print_mop(out, &ops[i]);
	}
}

/* [base], [base+off] (a negative offset prints as "+-16", as LLVM does and
 * ptxas reads), or [base, {a, b}] for tensor coordinates. */
static void print_addr(px_buf *out, const px_mop *op)
{
	px_buf_putc(out, '[');
	if (op->base)
		px_print_mop(out, op->base);
	if (op->off) {
		if (op->base)
			px_buf_putc(out, '+');
		px_buf_puti(out, op->off);
	}
	if (op->idx) {
		px_buf_puts(out, ", ");
		px_print_mop(out, op->idx);
	}
	px_buf_putc(out, ']');
}

void px_print_mop(px_buf *out, const px_mop *op)
{
	if (op->neg)
		px_buf_putc(out, '!');
	switch (op->kind) {
	case PX_M_REG:
		print_reg(out, op->rc, op->reg);
		break;
	case PX_M_IMM:
		px_buf_puti(out, op->imm);
		break;
	case PX_M_FIMM:
		print_fimm(out, op);
		break;
	case PX_M_SYM:
	case PX_M_SREG:
		put_str(out, op->name);
		break;
	case PX_M_LABEL:
		px_buf_putc(out, '$');
		put_str(out, op->name);
		break;
	case PX_M_ADDR:
		print_addr(out, op);
		break;
	case PX_M_GROUP:
		px_buf_putc(out, '{');
		print_list(out, op->elems, op->nelems);
		px_buf_putc(out, '}');
		break;
	case PX_M_SINK:
		px_buf_putc(out, '_');
		break;
	}
}

static void print_guard(px_buf *out, const px_minst *mi)
{
	if (!mi->has_guard)
		return;
	px_buf_puts(out, mi->guard_neg ? "@!" : "@");
	print_reg(out, PX_RC_p, mi->guard_reg);
	px_buf_putc(out, ' ');
}

/* Every printed slot in table order; a fixed slot prints its token even when
 * the MIR left it out. */
static void print_suffixes(px_buf *out, const px_minst *mi)
{
	const px_op_def *op = mi->op;
	for (unsigned i = 0; i < op->nslots; i++) {
		const px_slot_def *sd = &op->slots[i];
		if (sd->flags & PX_SLOT_NOPRINT)
			continue;
		unsigned tok = px_slot_tok(op, mi->slot, i);
		if (tok) {
			px_buf_putc(out, '.');
			px_buf_putshort(out, px_tok_names[tok]);
		}
	}
}

/* brx.idx's label list, which PTX takes only as the name of a .branchtargets
 * declaration. The declaration is printed just before the instruction and
 * named after the MIR statement's offset: "$$" starts no MIR label's name. */
static bool is_label_list(const px_mop *m)
{
	return m->kind == PX_M_GROUP && m->nelems && m->elems[0].kind == PX_M_LABEL;
}

static void print_list_name(px_buf *out, const px_minst *mi, uint32_t i)
{
	px_buf_puts(out, "$$bt");
	px_buf_putu(out, px_loc_off(mi->loc));
	px_buf_putc(out, '_');
	px_buf_putu(out, i);
}

static void print_branch_targets(px_buf *out, const px_minst *mi)
{
	for (uint32_t i = 0; i < mi->nops; i++) {
		if (!is_label_list(&mi->ops[i]))
			continue;
		px_buf_putc(out, '\t');
		print_list_name(out, mi, i);
		px_buf_puts(out, ": .branchtargets ");
		print_list(out, mi->ops[i].elems, mi->ops[i].nelems);
		px_buf_puts(out, ";\n");
	}
}

/* An operand with the slots its definition prints around it: '-' before it
 * (vmad's negate:) and a selector after it (the video instructions' select:,
 * %r1.b0). def is NULL past the definitions. */
static void print_decorated(px_buf *out, const px_minst *mi, const px_opnd_def *def, const px_mop *m)
{
	unsigned neg = def && def->negate ? mi->slot[def->negate - 1] : 0;
	unsigned sel = def && def->select ? mi->slot[def->select - 1] : 0;
	if (neg)
		px_buf_putc(out, '-');
	px_print_mop(out, m);
	if (sel) {
		px_buf_putc(out, '.');
		px_buf_putshort(out, px_tok_names[sel]);
	}
}

void px_print_results(px_buf *out, const px_minst *mi)
{
	unsigned ndr;
	const px_opnd_def *dr = px_var_results(mi->op, mi->var, &ndr);
	for (uint32_t i = 0; i < mi->nres; i++) {
		if (i)
			px_buf_puts(out, mi->res[i].pair ? "|" : ", ");
		print_decorated(out, mi, i < ndr ? &dr[i] : NULL, &mi->res[i]);
	}
}

void px_print_sources(px_buf *out, const px_minst *mi)
{
	unsigned ndo;
	const px_opnd_def *dop = px_var_operands(mi->op, mi->var, &ndo);
	for (uint32_t i = 0; i < mi->nops; i++) {
		if (i)
			px_buf_puts(out, ", ");
		if (is_label_list(&mi->ops[i]))
			print_list_name(out, mi, i);
		else
			print_decorated(out, mi, i < ndo ? &dop[i] : NULL, &mi->ops[i]);
	}
}

/* Results then operands, ", " between them, except "|" before a paired result
 * (setp's %p1|%p2, shfl's %r1|%p1). */
static void print_operands(px_buf *out, const px_minst *mi)
{
	if (!mi->nres && !mi->nops)
		return;
	px_buf_putc(out, ' ');
	px_print_results(out, mi);
	if (mi->nres && mi->nops)
		px_buf_puts(out, ", ");
	px_print_sources(out, mi);
}

static void print_declare_param(px_buf *out, const px_minst *mi)
{
	if (mi->aux) {
		px_buf_puts(out, "\t.param .align ");
		px_buf_putu(out, mi->align ? mi->align : 1);
		px_buf_puts(out, " .b8 ");
		put_str(out, mi->name);
		px_buf_putc(out, '[');
		px_buf_putu(out, mi->aux);
		px_buf_puts(out, "];\n");
	} else {
		px_buf_puts(out, "\t.param .b");
		px_buf_putu(out, px_types[mi->type].width);
		px_buf_putc(out, ' ');
		put_str(out, mi->name);
		px_buf_puts(out, ";\n");
	}
}

/* call.uni (retval0, ...), callee, (param0, ...); the return list is left out
 * for a callee without results, the argument list is always written. A guarded
 * call may diverge, so it is a plain call; so is a call through a register,
 * "call (retval0), %rd1, (param0), prototype_0;", as LLVM's NVPTX writes it. */
static void print_call(px_buf *out, const px_minst *mi)
{
	px_buf_putc(out, '\t');
	print_guard(out, mi);
	px_buf_puts(out, mi->has_guard || mi->callee ? "call " : "call.uni ");
	if (mi->nres) {
		px_buf_putc(out, '(');
		print_list(out, mi->res, mi->nres);
		px_buf_puts(out, "), ");
	}
	if (mi->callee) {
		px_print_mop(out, mi->callee);
		px_buf_puts(out, ", (");
		print_list(out, mi->ops, mi->nops);
		px_buf_puts(out, "), ");
		put_str(out, mi->name);
		px_buf_puts(out, ";\n");
		return;
	}
	put_str(out, mi->name);
	px_buf_puts(out, ", (");
	print_list(out, mi->ops, mi->nops);
	px_buf_puts(out, ");\n");
}

/* ".param .bW _" or ".param .align A .b8 _[size]": a prototype's parameter or
 * result, declared as declare_param declares it. */
static void print_proto_param(px_buf *out, int type, uint32_t size, uint32_t align)
{
	if (size) {
		px_buf_puts(out, ".param .align ");
		px_buf_putu(out, align ? align : 1);
		px_buf_puts(out, " .b8 _[");
		px_buf_putu(out, size);
		px_buf_putc(out, ']');
	} else {
		px_buf_puts(out, ".param .b");
		px_buf_putu(out, px_types[type].width);
		px_buf_puts(out, " _");
	}
}

/* prototype_0 : .callprototype (.param .b32 _) _ (.param .b32 _); with "()"
 * for no result, as LLVM's NVPTX writes it */
static void print_callprototype(px_buf *out, const px_minst *mi)
{
	px_buf_putc(out, '\t');
	put_str(out, mi->name);
	px_buf_puts(out, " : .callprototype (");
	if (mi->nres)
		print_proto_param(out, mi->type, mi->aux, mi->align);
	px_buf_puts(out, mi->nres ? ") _ (" : ")_ (");
	for (uint32_t i = 0; i < mi->nops; i++) {
		if (i)
			px_buf_puts(out, ", ");
		print_proto_param(out, mi->ops[i].type, 0, 0);
	}
	px_buf_puts(out, ");\n");
}

static void print_pseudo(px_buf *out, const px_minst *mi)
{
	switch (px_pseudo_op(mi)) {
	case PX_OP_label:
		px_buf_putc(out, '$');
		put_str(out, mi->name);
		px_buf_puts(out, ":\n");
		break;
	case PX_OP_callseq_begin:
	case PX_OP_callseq_end:
		px_buf_puts(out, px_pseudo_op(mi) == PX_OP_callseq_begin ? "\t{ // callseq " : "\t} // callseq ");
		px_buf_putu(out, mi->aux);
		px_buf_putc(out, '\n');
		break;
	case PX_OP_declare_param:
		print_declare_param(out, mi);
		break;
	case PX_OP_call:
		print_call(out, mi);
		break;
	case PX_OP_callprototype:
		print_callprototype(out, mi);
		break;
	case PX_OP_inline_asm:
		px_print_asm(out, mi);
		break;
	}
}

void px_print_inst(px_buf *out, const px_minst *mi)
{
	if (px_pseudo_op(mi) >= 0) {
		print_pseudo(out, mi);
		return;
	}
	print_branch_targets(out, mi);
	px_buf_putc(out, '\t');
	print_guard(out, mi);
	px_buf_putshort(out, mi->op->name);
	print_suffixes(out, mi);
	print_operands(out, mi);
	px_buf_puts(out, ";\n");
}
