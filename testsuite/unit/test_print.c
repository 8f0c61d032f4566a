/* The printer on hand-built selections: exact PTX text for operands, suffix
 * order, pairs, addresses, groups, pseudo instructions, signatures, register
 * declarations, directives, variables and the isel dump. The op rows are built
 * here rather than taken from data/ops, so the tests pin the printer's rules
 * whatever operations the tables hold; tokens come from the real token list. */
#include <string.h>

#include "isel/abi.h"
#include "print/print.h"
#include "ptxemit.h"
#include "suites.h"

#define S(lit) ((px_str){ lit, sizeof lit - 1 })

static px_buf out;

static void setup(void) { px_buf_init(&out); }
static void teardown(void) { px_buf_free(&out); }

static const char *text(void) { return out.data ? out.data : ""; }

/* A function as the pipeline prints it: opened, its instructions, closed. */
static void print_func(const px_mfunc *mf)
{
	px_print_func_open(&out, mf);
	px_print_insts(&out, mf, mf->first);
	px_print_func_close(&out);
}

static void print_isel(const px_mfunc *mf)
{
	px_print_isel_open(&out, mf->fn);
	px_print_isel_insts(&out, mf->first);
	px_print_isel_close(&out);
}

static unsigned tok(const char *s)
{
	unsigned t = px_tok_lookup(s, strlen(s));
	ck_assert_msg(t != 0, "token '%s' missing from the tables", s);
	return t;
}

static px_mop reg(uint8_t rc, uint32_t n) { return (px_mop){ .kind = PX_M_REG, .rc = rc, .reg = n }; }

static void check_mop(px_mop op, const char *want)
{
	px_buf_free(&out);
	px_print_mop(&out, &op);
	ck_assert_str_eq(text(), want);
}

/* ---------------------------------------------------------------- operands */

START_TEST(test_registers)
{
	check_mop(reg(PX_RC_p, 0), "%p0");
	check_mop(reg(PX_RC_rs, 1), "%rs1");
	check_mop(reg(PX_RC_r, 3), "%r3");
	check_mop(reg(PX_RC_f, 3), "%f3");
	check_mop(reg(PX_RC_rd, 4), "%rd4");
	check_mop(reg(7, 2), "%fd2"); /* ptxemit's %fd view of %rd */
	check_mop(reg(PX_RC_rq, 0), "%rq0");
	px_mop p = reg(PX_RC_p, 5);
	p.neg = true;
	check_mop(p, "!%p5");
}
END_TEST

START_TEST(test_immediates)
{
	check_mop((px_mop){ .kind = PX_M_IMM, .type = PX_T_s32, .imm = -7 }, "-7");
	check_mop((px_mop){ .kind = PX_M_IMM, .type = PX_T_u32, .imm = 4294967295 }, "4294967295");
	check_mop((px_mop){ .kind = PX_M_FIMM, .type = PX_T_f32, .bits = 0x3F800000 }, "0f3F800000");
	check_mop((px_mop){ .kind = PX_M_FIMM, .type = PX_T_f64, .bits = 0x3FF0000000000000ull },
	          "0d3FF0000000000000");
	check_mop((px_mop){ .kind = PX_M_FIMM, .type = PX_T_f32, .bits = 0x1 }, "0f00000001");
}
END_TEST

START_TEST(test_names)
{
	check_mop((px_mop){ .kind = PX_M_SYM, .name = S("k_param_0") }, "k_param_0");
	check_mop((px_mop){ .kind = PX_M_SREG, .name = S("%tid.x") }, "%tid.x");
	check_mop((px_mop){ .kind = PX_M_LABEL, .name = S("loop") }, "$loop");
}
END_TEST

START_TEST(test_addresses)
{
	px_mop base = reg(PX_RC_rd, 1);
	px_mop sym = { .kind = PX_M_SYM, .name = S("tile") };
	px_mop xy[2] = { reg(PX_RC_r, 1), reg(PX_RC_r, 2) };
	px_mop grp = { .kind = PX_M_GROUP, .elems = xy, .nelems = 2 };
	check_mop((px_mop){ .kind = PX_M_ADDR, .base = &base }, "[%rd1]");
	check_mop((px_mop){ .kind = PX_M_ADDR, .base = &base, .off = 8 }, "[%rd1+8]");
	check_mop((px_mop){ .kind = PX_M_ADDR, .base = &base, .off = -16 }, "[%rd1+-16]");
	check_mop((px_mop){ .kind = PX_M_ADDR, .base = &sym, .off = 4 }, "[tile+4]");
	check_mop((px_mop){ .kind = PX_M_ADDR, .base = &base, .idx = &grp }, "[%rd1, {%r1, %r2}]");
	check_mop(grp, "{%r1, %r2}");
}
END_TEST

/* ---------------------------------------------------------------- instructions */

/* add with rnd, ftz, sat, type, a never-printed selection property and a
 * fixed token, in that print order. */
static px_slot_def slots[6];
static px_op_def add_op = { .name = "add", .slots = slots, .nslots = 6 };

static void build_op(void)
{
	slots[0] = (px_slot_def){ .name = "rnd" };
	slots[1] = (px_slot_def){ .name = "ftz" };
	slots[2] = (px_slot_def){ .name = "sat" };
	slots[3] = (px_slot_def){ .name = "type", .flags = PX_SLOT_TYPE };
	slots[4] = (px_slot_def){ .name = "num", .flags = PX_SLOT_NOPRINT };
	slots[5] = (px_slot_def){ .name = "aligned", .flags = PX_SLOT_FIXED, .fixed_tok = (uint16_t)tok("aligned") };
}

static void check_inst(const px_minst *mi, const char *want)
{
	px_buf_free(&out);
	px_print_inst(&out, mi);
	ck_assert_str_eq(text(), want);
}

START_TEST(test_suffix_order)
{
	build_op();
	px_mop res[1] = { reg(PX_RC_f, 3) };
	px_mop ops[2] = { reg(PX_RC_f, 1), { .kind = PX_M_FIMM, .type = PX_T_f32, .bits = 0x3F800000 } };
	px_minst mi = { .op = &add_op, .res = res, .nres = 1, .ops = ops, .nops = 2, .iid = -1 };
	mi.slot[3] = (uint16_t)tok("f32");
	mi.slot[0] = (uint16_t)tok("rn");
	mi.slot[4] = (uint16_t)tok("rn"); /* a property: never printed */
	check_inst(&mi, "\tadd.rn.f32.aligned %f3, %f1, 0f3F800000;\n");
	mi.slot[5] = (uint16_t)tok("aligned"); /* written in MIR: printed once */
	check_inst(&mi, "\tadd.rn.f32.aligned %f3, %f1, 0f3F800000;\n");
}
END_TEST

START_TEST(test_guard_and_pairs)
{
	build_op();
	px_mop res[2] = { reg(PX_RC_p, 1), reg(PX_RC_p, 2) };
	res[1].pair = true;
	px_mop ops[3] = { reg(PX_RC_r, 1), { .kind = PX_M_IMM, .type = PX_T_u32, .imm = 0 },
		          reg(PX_RC_p, 3) };
	ops[2].neg = true;
	px_minst mi = { .op = &add_op, .res = res, .nres = 2, .ops = ops, .nops = 3, .iid = -1 };
	mi.has_guard = true;
	mi.guard_reg = 3;
	check_inst(&mi, "\t@%p3 add.aligned %p1|%p2, %r1, 0, !%p3;\n");
	mi.guard_neg = true;
	res[1].pair = false;
	check_inst(&mi, "\t@!%p3 add.aligned %p1, %p2, %r1, 0, !%p3;\n");
}
END_TEST

START_TEST(test_no_operands)
{
	static px_op_def ret_op = { .name = "ret" };
	px_minst mi = { .op = &ret_op, .iid = -1 };
	check_inst(&mi, "\tret;\n");
	px_mop st_ops[2] = { { .kind = PX_M_ADDR }, reg(PX_RC_r, 0) };
	px_mop base = reg(PX_RC_rd, 2);
	st_ops[0].base = &base;
	static px_op_def st_op = { .name = "st.global" };
	px_minst st = { .op = &st_op, .ops = st_ops, .nops = 2, .iid = -1 };
	check_inst(&st, "\tst.global [%rd2], %r0;\n");
}
END_TEST

START_TEST(test_pseudos)
{
	px_minst label = { .op = &px_ops[PX_OP_label], .name = S("loop") };
	check_inst(&label, "$loop:\n");
	px_minst begin = { .op = &px_ops[PX_OP_callseq_begin], .aux = 2 };
	check_inst(&begin, "\t{ // callseq 2\n");
	px_minst end = { .op = &px_ops[PX_OP_callseq_end], .aux = 2 };
	check_inst(&end, "\t} // callseq 2\n");
	px_minst scalar = { .op = &px_ops[PX_OP_declare_param], .name = S("param0"), .type = PX_T_f32 };
	check_inst(&scalar, "\t.param .b32 param0;\n");
	px_minst agg = { .op = &px_ops[PX_OP_declare_param], .name = S("param1"), .aux = 16, .align = 8 };
	check_inst(&agg, "\t.param .align 8 .b8 param1[16];\n");
}
END_TEST

START_TEST(test_call)
{
	px_mop rets[2] = { { .kind = PX_M_SYM, .name = S("retval0") }, { .kind = PX_M_SYM, .name = S("retval1") } };
	px_mop args[2] = { { .kind = PX_M_SYM, .name = S("param0") }, { .kind = PX_M_SYM, .name = S("param1") } };
	px_minst call = { .op = &px_ops[PX_OP_call], .name = S("helper"), .res = rets, .nres = 2,
		          .ops = args, .nops = 2 };
	check_inst(&call, "\tcall.uni (retval0, retval1), helper, (param0, param1);\n");
	call.nres = 0;
	check_inst(&call, "\tcall.uni helper, (param0, param1);\n");
	call.nops = 0;
	check_inst(&call, "\tcall.uni helper, ();\n");
}
END_TEST

/* ---------------------------------------------------------------- module framing */

START_TEST(test_header)
{
	px_target t = { .name = "sm_90a", .sm = 90, .ptx = 80, .suffix = 'a' };
	px_print_header(&out, &t, 80, false);
	ck_assert_str_eq(text(), "//\n// Generated by ptxemit " PTXEMIT_VERSION_STRING "\n//\n\n"
	                         ".version 8.0\n.target sm_90a\n.address_size 64\n\n");
	px_buf_free(&out);
	px_print_header(&out, &t, 87, true);
	ck_assert_str_eq(text(), "//\n// Generated by ptxemit " PTXEMIT_VERSION_STRING "\n//\n\n"
	                         ".version 8.7\n.target sm_90a, debug\n.address_size 64\n\n"
	                         "\t.section\t.debug_abbrev\n\t{\n\t}\n"
	                         "\t.section\t.debug_info\n\t{\n\t}\n\n");
}
END_TEST

START_TEST(test_kernel)
{
	px_param params[5] = {
		{ .kind = PX_PARAM_PTR, .type = PX_T_ptr, .space = (uint16_t)tok("global"), .align = 16 },
		{ .kind = PX_PARAM_PTR, .type = PX_T_ptr },
		{ .kind = PX_PARAM_SCALAR, .type = PX_T_u32 },
		{ .kind = PX_PARAM_AGG, .type = PX_T_b8, .align = 8, .size = 16 },
		{ .kind = PX_PARAM_SCALAR, .type = PX_T_f16 },
	};
	px_func fn = { .name = S("k"), .is_kernel = true, .params = params, .nparams = 5 };
	/* set in an order unlike the print order */
	fn.dirs[PX_DIR_explicitcluster] = (px_dirval){ .present = true };
	fn.dirs[PX_DIR_maxnreg] = (px_dirval){ .present = true, .nargs = 1, .args = { 64 } };
	fn.dirs[PX_DIR_reqntid] = (px_dirval){ .present = true, .nargs = 1, .args = { 128 } };
	fn.dirs[PX_DIR_maxntid] = (px_dirval){ .present = true, .nargs = 2, .args = { 32, 4 } };
	static px_op_def ret_op = { .name = "ret" };
	px_minst ret = { .op = &ret_op, .iid = -1 };
	px_mfunc mf = { .fn = &fn, .first = &ret, .last = &ret,
		        .nregs = { [PX_RC_p] = 2, [PX_RC_Special] = 3, [PX_RC_r] = 3, [PX_RC_f] = 4,
		                   [PX_RC_rd] = 5, [7] = 1 } };
	print_func(&mf);
	ck_assert_str_eq(text(),
	                 ".visible .entry k(\n"
	                 "\t.param .u64 .ptr .global .align 16 k_param_0,\n"
	                 "\t.param .u64 .ptr .align 1 k_param_1,\n"
	                 "\t.param .u32 k_param_2,\n"
	                 "\t.param .align 8 .b8 k_param_3[16],\n"
	                 "\t.param .b16 k_param_4\n"
	                 ")\n"
	                 ".reqntid 128, 1, 1\n"
	                 ".maxntid 32, 4, 1\n"
	                 ".maxnreg 64\n"
	                 ".explicitcluster\n"
	                 "{\n"
	                 "\t.reg .pred %p<2>;\n"
	                 "\t.reg .b32 %r<3>;\n"
	                 "\t.reg .b32 %f<4>;\n"
	                 "\t.reg .b64 %rd<5>;\n"
	                 "\t.reg .b64 %fd<1>;\n"
	                 "\n"
	                 "\tret;\n"
	                 "}\n\n");
}
END_TEST

START_TEST(test_device_func)
{
	px_param params[3] = {
		{ .kind = PX_PARAM_PTR, .type = PX_T_ptr, .space = (uint16_t)tok("shared"), .align = 4 },
		{ .kind = PX_PARAM_SCALAR, .type = PX_T_f32 },
		{ .kind = PX_PARAM_AGG, .type = PX_T_b8, .size = 12 },
	};
	uint16_t rets[1] = { PX_T_f32 };
	px_func fn = { .name = S("f"), .linkage = PX_LINK_INTERNAL, .params = params, .nparams = 3,
		       .rets = rets, .nrets = 1 };
	fn.dirs[PX_DIR_reqntid] = (px_dirval){ .present = true, .nargs = 1, .args = { 1 } };
	px_mfunc mf = { .fn = &fn };
	print_func(&mf);
	ck_assert_str_eq(text(),
	                 ".func (.param .b32 func_retval0) f(\n"
	                 "\t.param .b64 f_param_0,\n"
	                 "\t.param .b32 f_param_1,\n"
	                 "\t.param .align 1 .b8 f_param_2[12]\n"
	                 ")\n{\n}\n\n");
}
END_TEST

START_TEST(test_multiple_returns)
{
	uint16_t rets[3] = { PX_T_u8, PX_T_f64, PX_T_b32 };
	uint32_t offs[3], size, align;
	px_ret_layout(rets, 3, offs, &size, &align);
	ck_assert_uint_eq(offs[0], 0);
	ck_assert_uint_eq(offs[1], 8);
	ck_assert_uint_eq(offs[2], 16);
	ck_assert_uint_eq(size, 24);
	ck_assert_uint_eq(align, 8);
	px_funcsig sig = { .name = S("g"), .rets = rets, .nrets = 3 };
	px_print_func_decl(&out, &sig, px_print_linkage(PX_LINK_WEAK));
	ck_assert_str_eq(text(), ".weak .func (.param .align 8 .b8 func_retval0[24]) g();\n\n");
}
END_TEST

START_TEST(test_func_decl)
{
	uint16_t params[3] = { PX_T_u32, PX_T_ptr, PX_T_none };
	uint32_t sizes[3] = { 0, 0, 8 };
	uint32_t aligns[3] = { 0, 0, 0 };
	uint16_t rets[1] = { PX_T_f64 };
	px_funcsig s = { .name = S("h"), .params = params, .param_sizes = sizes, .param_aligns = aligns, .nparams = 3,
		         .rets = rets, .nrets = 1 };
	px_print_func_decl(&out, &s, px_print_linkage(PX_LINK_EXTERN));
	ck_assert_str_eq(text(),
	                 ".extern .func (.param .b64 func_retval0) h(\n"
	                 "\t.param .b32 h_param_0,\n"
	                 "\t.param .b64 h_param_1,\n"
	                 "\t.param .align 1 .b8 h_param_2[8]\n"
	                 ");\n\n");
	px_buf_free(&out);
	s.nparams = 0;
	s.nrets = 0;
	px_print_func_decl(&out, &s, NULL);
	ck_assert_str_eq(text(), ".func h();\n\n");
}
END_TEST

/* ---------------------------------------------------------------- variables */

static px_opnd int_lit(int64_t v) { return (px_opnd){ .kind = PX_O_INT, .ival = v }; }
static px_opnd float_lit(double v) { return (px_opnd){ .kind = PX_O_FLOAT, .fval = v }; }

START_TEST(test_globals)
{
	px_opnd lut_init[4] = { int_lit(1), int_lit(2), int_lit(3), int_lit(4) };
	px_opnd coef_init[2] = { float_lit(1.0), float_lit(0.5) };
	px_opnd w_init[1] = { int_lit(-5) };
	px_opnd d_init[1] = { { .kind = PX_O_FBITS, .bits = 0x3FF0000000000000ull, .fwidth = 64 } };
	px_opnd tab_init[3] = { { .kind = PX_O_SYM, .sym = S("lut") }, { .kind = PX_O_SYM, .sym = S("fn") },
		                int_lit(0) };
	px_global gs[] = {
		{ .name = S("lut"), .space = PX_SPACE_GLOBAL, .type = PX_T_b32, .is_array = true, .count = 4,
		  .align = 4, .init = lut_init, .ninit = 4, .init_is_list = true },
		{ .name = S("coef"), .space = PX_SPACE_CONST, .type = PX_T_f32, .is_array = true, .count = 2,
		  .init = coef_init, .ninit = 2, .init_is_list = true },
		{ .name = S("tile"), .space = PX_SPACE_SHARED, .type = PX_T_f32, .is_array = true,
		  .count = 1024, .align = 16 },
		{ .name = S("dyn"), .space = PX_SPACE_SHARED, .linkage = PX_LINK_EXTERN, .type = PX_T_b8,
		  .is_array = true, .unsized = true, .align = 16 },
		{ .name = S("w"), .space = PX_SPACE_GLOBAL, .linkage = PX_LINK_WEAK, .type = PX_T_s32,
		  .init = w_init, .ninit = 1 },
		{ .name = S("d"), .space = PX_SPACE_GLOBAL, .linkage = PX_LINK_INTERNAL, .type = PX_T_f64,
		  .init = d_init, .ninit = 1 },
		{ .name = S("tab"), .space = PX_SPACE_GLOBAL, .type = PX_T_ptr, .is_array = true, .count = 3,
		  .init = tab_init, .ninit = 3, .init_is_list = true },
	};
	px_module m = { .globals = gs, .nglobals = sizeof gs / sizeof gs[0] };
	px_strmap_init(&m.syms);
	px_strmap_put(&m.syms, "lut", 3, 0 << 1);
	px_strmap_put(&m.syms, "fn", 2, 0 << 1 | 1);
	px_print_globals(&out, &m);
	px_strmap_free(&m.syms);
	ck_assert_str_eq(text(),
	                 ".visible .global .align 4 .b32 lut[4] = {1, 2, 3, 4};\n"
	                 ".visible .const .align 4 .f32 coef[2] = {0f3F800000, 0f3F000000};\n"
	                 ".shared .align 16 .f32 tile[1024];\n"
	                 ".extern .shared .align 16 .b8 dyn[];\n"
	                 ".weak .global .align 4 .s32 w = -5;\n"
	                 ".global .align 8 .f64 d = 0d3FF0000000000000;\n"
	                 ".visible .global .align 8 .u64 tab[3] = {generic(lut), fn, 0};\n"
	                 "\n");
}
END_TEST

/* f16/bf16 variables print as bits (ptxas: "No initial value is allowed for
 * .f16 type"), rounded to nearest even. */
START_TEST(test_narrow_float_globals)
{
	px_opnd h_init[6] = { float_lit(1.0), float_lit(1.0 / 3), float_lit(65520.0),
		              float_lit(0x1p-24), float_lit(-2.0), int_lit(2) };
	px_opnd b_init[2] = { float_lit(1.0), { .kind = PX_O_FBITS, .bits = 0x3F808000, .fwidth = 32 } };
	px_global gs[] = {
		{ .name = S("h"), .space = PX_SPACE_GLOBAL, .type = PX_T_f16, .is_array = true, .count = 6,
		  .init = h_init, .ninit = 6, .init_is_list = true },
		{ .name = S("b"), .space = PX_SPACE_CONST, .type = PX_T_bf16, .is_array = true, .count = 2,
		  .init = b_init, .ninit = 2, .init_is_list = true },
	};
	px_module m = { .globals = gs, .nglobals = 2 };
	px_print_globals(&out, &m);
	ck_assert_str_eq(text(),
	                 ".visible .global .align 2 .b16 h[6] = {0x3C00, 0x3555, 0x7C00, 0x0001, 0xC000, 0x4000};\n"
	                 ".visible .const .align 2 .b16 b[2] = {0x3F80, 0x3F80};\n"
	                 "\n");
}
END_TEST

START_TEST(test_no_globals)
{
	px_module m = { 0 };
	px_print_globals(&out, &m);
	ck_assert_str_eq(text(), "");
}
END_TEST

/* ---------------------------------------------------------------- isel dump */

START_TEST(test_isel_dump)
{
	static px_op_def mov_op = { .name = "mov" };
	static px_op_def bar_op = { .name = "barrier" };
	px_func fn = { .name = S("vadd"), .is_kernel = true };
	px_mop args[1] = { { .kind = PX_M_SYM, .name = S("param0") } };
	px_mop rets[1] = { { .kind = PX_M_SYM, .name = S("retval0") } };
	px_minst call = { .op = &px_ops[PX_OP_call], .name = S("helper"), .res = rets, .nres = 1,
		          .ops = args, .nops = 1, .iid = -1, .at = { 11, 3 } };
	px_minst decl = { .op = &px_ops[PX_OP_declare_param], .name = S("param0"), .aux = 16,
		          .align = 8, .iid = -1, .at = { 10, 3 }, .next = &call };
	px_minst c = { .op = &px_ops[PX_OP_callseq_begin], .aux = 1, .iid = -1, .at = { 9, 3 },
		       .next = &decl };
	px_mop id = reg(PX_RC_r, 4);
	px_minst b = { .op = &bar_op, .mc = "INT_NVVM_BAR_SYNC", .ops = &id, .nops = 1, .iid = 4242,
		       .has_guard = true, .guard_neg = true, .guard_reg = 2, .at = { 7, 3 }, .next = &c };
	px_minst l = { .op = &px_ops[PX_OP_label], .name = S("loop"), .at = { 5, 1 }, .next = &b };
	px_mop dst = reg(PX_RC_r, 1), src = { .kind = PX_M_IMM, .type = PX_T_u32, .imm = 7 };
	px_minst a = { .op = &mov_op, .mc = "MOV_U32_ri", .res = &dst, .nres = 1, .ops = &src,
		       .nops = 1, .iid = -1, .at = { 3, 3 }, .next = &l };
	px_mfunc mf = { .fn = &fn, .first = &a, .last = &call };
	print_isel(&mf);
	fn.is_kernel = false;
	mf.first = mf.last = NULL;
	print_isel(&mf);
	ck_assert_str_eq(text(),
	                 "kernel @vadd\n"
	                 "3:3 %r1 = MOV_U32_ri 7\n"
	                 "5:1 label ^loop\n"
	                 "7:3 @!%p2 INT_NVVM_BAR_SYNC %r4 iid=4242\n"
	                 "9:3 callseq_begin 1\n"
	                 "10:3 declare_param .align 8 .b8 param0[16]\n"
	                 "11:3 call (retval0), helper, (param0)\n"
	                 "\n"
	                 "func @vadd\n"
	                 "\n");
}
END_TEST

Suite *print_suite(void)
{
	Suite *s = suite_create("print");
	TCase *tc = tcase_create("print");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_registers);
	tcase_add_test(tc, test_immediates);
	tcase_add_test(tc, test_names);
	tcase_add_test(tc, test_addresses);
	tcase_add_test(tc, test_suffix_order);
	tcase_add_test(tc, test_guard_and_pairs);
	tcase_add_test(tc, test_no_operands);
	tcase_add_test(tc, test_pseudos);
	tcase_add_test(tc, test_call);
	tcase_add_test(tc, test_header);
	tcase_add_test(tc, test_kernel);
	tcase_add_test(tc, test_device_func);
	tcase_add_test(tc, test_multiple_returns);
	tcase_add_test(tc, test_func_decl);
	tcase_add_test(tc, test_globals);
	tcase_add_test(tc, test_narrow_float_globals);
	tcase_add_test(tc, test_no_globals);
	tcase_add_test(tc, test_isel_dump);
	suite_add_tcase(s, tc);
	return s;
}
