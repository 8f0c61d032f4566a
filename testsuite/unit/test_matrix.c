/* NVVM's matrix-copy table, row by row: each row's property blob, written
 * in MIR's property form, selects the row's intrinsic ID and prints the real PTX
 * spelling ptxemit-mir(5) maps the row to. The table is the reference, not
 * NVVM's ID formulas (they disagree with it for stmatrix). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "front/layout.h"
#include "ptxemit.h"
#include "suites.h"

typedef struct row {
	const char *op;    /* ldmatrix / stmatrix */
	int num, shape;    /* NVVM's enum values */
	const char *sz;    /* NVVM's width column as MIR spells it; NULL: implied */
	int trans, layout; /* -1: not a property of the op */
	int iid;
	const char *ptx;   /* the printed mnemonic */
	unsigned regs;     /* 32-bit registers per thread */
} row;

static const row rows[] = {
	{"ldmatrix", 1, 0, "b16", 0, 0, 9165, "ldmatrix.sync.aligned.m8n8.x1.shared.b16", 1},
	{"ldmatrix", 1, 0, "b16", 1, 0, 9166, "ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16", 1},
	{"ldmatrix", 2, 0, "b16", 0, 0, 9167, "ldmatrix.sync.aligned.m8n8.x2.shared.b16", 2},
	{"ldmatrix", 2, 0, "b16", 1, 0, 9168, "ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16", 2},
	{"ldmatrix", 4, 0, "b16", 0, 0, 9169, "ldmatrix.sync.aligned.m8n8.x4.shared.b16", 4},
	{"ldmatrix", 4, 0, "b16", 1, 0, 9170, "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16", 4},
	{"ldmatrix", 1, 1, "b8x16.b4x16_p64", 0, 0, 9160, "ldmatrix.sync.aligned.m8n16.x1.shared.b8x16.b4x16_p64", 1},
	{"ldmatrix", 1, 1, "b8x16.b6x16_p32", 0, 0, 9159, "ldmatrix.sync.aligned.m8n16.x1.shared.b8x16.b6x16_p32", 1},
	{"ldmatrix", 2, 1, "b8x16.b4x16_p64", 0, 0, 9162, "ldmatrix.sync.aligned.m8n16.x2.shared.b8x16.b4x16_p64", 2},
	{"ldmatrix", 2, 1, "b8x16.b6x16_p32", 0, 0, 9161, "ldmatrix.sync.aligned.m8n16.x2.shared.b8x16.b6x16_p32", 2},
	{"ldmatrix", 4, 1, "b8x16.b4x16_p64", 0, 0, 9164, "ldmatrix.sync.aligned.m8n16.x4.shared.b8x16.b4x16_p64", 4},
	{"ldmatrix", 4, 1, "b8x16.b6x16_p32", 0, 0, 9163, "ldmatrix.sync.aligned.m8n16.x4.shared.b8x16.b6x16_p32", 4},
	{"ldmatrix", 2, 3, "b8", 0, 1, 9155, "ldmatrix.sync.aligned.m16n16.x1.trans.shared.b8", 2},
	{"ldmatrix", 2, 3, "b8x16.b6x16_p32", 0, 1, 9154, "ldmatrix.sync.aligned.m16n16.x1.trans.shared.b8x16.b6x16_p32", 2},
	{"ldmatrix", 2, 3, "b8x16.b4x16_p64", 0, 1, 9153, "ldmatrix.sync.aligned.m16n16.x1.trans.shared.b8x16.b4x16_p64", 2},
	{"ldmatrix", 4, 3, "b8", 0, 1, 9158, "ldmatrix.sync.aligned.m16n16.x2.trans.shared.b8", 4},
	{"ldmatrix", 4, 3, "b8x16.b6x16_p32", 0, 1, 9157, "ldmatrix.sync.aligned.m16n16.x2.trans.shared.b8x16.b6x16_p32", 4},
	{"ldmatrix", 4, 3, "b8x16.b4x16_p64", 0, 1, 9156, "ldmatrix.sync.aligned.m16n16.x2.trans.shared.b8x16.b4x16_p64", 4},
	{"stmatrix", 1, 0, NULL, 0, -1, 9862, "stmatrix.sync.aligned.m8n8.x1.shared.b16", 1},
	{"stmatrix", 1, 0, NULL, 1, -1, 9861, "stmatrix.sync.aligned.m8n8.x1.trans.shared.b16", 1},
	{"stmatrix", 2, 0, NULL, 0, -1, 9864, "stmatrix.sync.aligned.m8n8.x2.shared.b16", 2},
	{"stmatrix", 2, 0, NULL, 1, -1, 9863, "stmatrix.sync.aligned.m8n8.x2.trans.shared.b16", 2},
	{"stmatrix", 4, 0, NULL, 0, -1, 9866, "stmatrix.sync.aligned.m8n8.x4.shared.b16", 4},
	{"stmatrix", 4, 0, NULL, 1, -1, 9865, "stmatrix.sync.aligned.m8n8.x4.trans.shared.b16", 4},
	{"stmatrix", 1, 2, NULL, 1, -1, 9858, "stmatrix.sync.aligned.m16n8.x1.trans.shared.b8", 1},
	{"stmatrix", 2, 2, NULL, 1, -1, 9859, "stmatrix.sync.aligned.m16n8.x2.trans.shared.b8", 2},
	{"stmatrix", 4, 2, NULL, 1, -1, 9860, "stmatrix.sync.aligned.m16n8.x4.trans.shared.b8", 4},
};

static void ignore(void *ctx, const px_diagnostic *d)
{
	(void)ctx;
	fprintf(stderr, "%s:%u:%u: %s\n", d->file, d->line, d->col, d->message);
}

/* The row as MIR: its property blob by name on a shared tile. */
static void row_mir(const row *r, char *buf, size_t size)
{
	char props[160];
	int k = snprintf(props, sizeof props, "num = %d, shape = %d", r->num, r->shape);
	if (r->sz)
		k += snprintf(props + k, sizeof props - (size_t)k, ", sz = %s", r->sz);
	k += snprintf(props + k, sizeof props - (size_t)k, ", trans = %d", r->trans);
	if (r->layout >= 0)
		snprintf(props + k, sizeof props - (size_t)k, ", layout = %d", r->layout);
	const char *ld = "  %%d:b32[%u] = ldmatrix [@tile] {%s}\n";
	const char *st = "  %%d:b32[%u] = mov 0\n  stmatrix [@tile], %%d {%s}\n";
	const char *st1 = "  %%d:b32 = mov 0\n  stmatrix [@tile], %%d {%s}\n";
	char body[320];
	if (r->regs == 1 && strcmp(r->op, "ldmatrix"))
		snprintf(body, sizeof body, st1, props);
	else
		snprintf(body, sizeof body, strcmp(r->op, "ldmatrix") ? st : ld, r->regs, props);
	snprintf(buf, size,
	         "target sm_100a\nshared @tile : b16[1024] align 16\nkernel @k() {\n%s  ret\n}\n", body);
}

static char *run(const char *src, px_emit emit)
{
	px_options o;
	px_options_default(&o);
	o.emit = emit;
	char *out = NULL;
	size_t len;
	int errs = px_translate("row.mir", src, strlen(src), &o, ignore, NULL, &out, &len);
	ck_assert_int_eq(errs, 0);
	return out;
}

START_TEST(seed_row_selects_its_id)
{
	const row *r = &rows[_i];
	char src[640], want[64];
	row_mir(r, src, sizeof src);
	char *isel = run(src, PX_EMIT_ISEL);
	snprintf(want, sizeof want, " iid=%d", r->iid);
	ck_assert_msg(strstr(isel, want) != NULL, "%s row %d: no%s in\n%s", r->op, _i, want, isel);
	free(isel);
	char *ptx = run(src, PX_EMIT_PTX);
	ck_assert_msg(strstr(ptx, r->ptx) != NULL, "row %d: no %s in\n%s", _i, r->ptx, ptx);
	free(ptx);
}
END_TEST

/* The dotted PTX spelling of a row selects the same ID as its blob. */
START_TEST(dotted_spelling_selects_the_same_id)
{
	const row *r = &rows[_i];
	const char *dotted = strchr(strchr(r->ptx, '.') + 1, '.') + 1; /* after .sync */
	dotted = strchr(dotted, '.');
	char name[96], body[200], src[480], want[64];
	snprintf(name, sizeof name, "%s%s", r->op, dotted);
	if (!strcmp(r->op, "ldmatrix"))
		snprintf(body, sizeof body, "  %%d:b32[%u] = %s [@tile]\n", r->regs, name);
	else if (r->regs == 1)
		snprintf(body, sizeof body, "  %%d:b32 = mov 0\n  %s [@tile], %%d\n", name);
	else
		snprintf(body, sizeof body, "  %%d:b32[%u] = mov 0\n  %s [@tile], %%d\n", r->regs, name);
	snprintf(src, sizeof src,
	         "target sm_100a\nshared @tile : b16[1024] align 16\nkernel @k() {\n%s  ret\n}\n", body);
	char *isel = run(src, PX_EMIT_ISEL);
	snprintf(want, sizeof want, " iid=%d", r->iid);
	ck_assert_msg(strstr(isel, want) != NULL, "%s: no%s in\n%s", name, want, isel);
	free(isel);
}
END_TEST

static px_str str(const char *z) { return (px_str){z, (uint32_t)strlen(z)}; }

/* The tile IR's register fragment: two lane modes, two element modes. */
START_TEST(layout_reads_the_fragment)
{
	px_layout l;
	const char *why;
	ck_assert(px_layout_parse(str("(8,4,2,2):(4@laneid,1@laneid,2,1)"), &l, &why));
	ck_assert_uint_eq(l.n, 4);
	ck_assert_int_eq(l.m[0].size, 8);
	ck_assert_int_eq(l.m[0].stride, 4);
	ck_assert_int_eq(l.m[0].iter, PX_ITER_LANE);
	ck_assert_int_eq(l.m[1].iter, PX_ITER_LANE);
	ck_assert_int_eq(l.m[2].iter, PX_ITER_NONE);
	ck_assert_int_eq(l.m[3].stride, 1);
	ck_assert_int_eq(px_layout_local_size(&l), 4);
	ck_assert(px_layout_parse(str("( 4, 8 ):( 1@warpid , 16 )"), &l, &why));
	ck_assert_int_eq(l.m[0].iter, PX_ITER_WARP);
	ck_assert_int_eq(px_layout_local_size(&l), 8);
}
END_TEST

START_TEST(layout_rejects_what_is_not_one)
{
	px_layout l;
	const char *why;
	ck_assert(!px_layout_parse(str("(8,4):(4@laneid)"), &l, &why));
	ck_assert_str_eq(why, "a layout needs one stride per size");
	ck_assert(!px_layout_parse(str("(8,4):(4@lane,1)"), &l, &why));
	ck_assert_str_eq(why, "a stride's iterator is @laneid or @warpid");
	ck_assert(!px_layout_parse(str("(8,0):(4,1)"), &l, &why));
	ck_assert_str_eq(why, "a layout's sizes are positive");
	ck_assert(!px_layout_parse(str("(8,4):(4,-1)"), &l, &why));
	ck_assert_str_eq(why, "a layout's strides are not negative");
}
END_TEST

Suite *matrix_suite(void)
{
	Suite *s = suite_create("matrix");
	TCase *tc = tcase_create("NVVM matrix-copy table");
	int n = (int)(sizeof rows / sizeof rows[0]);
	tcase_add_loop_test(tc, seed_row_selects_its_id, 0, n);
	tcase_add_loop_test(tc, dotted_spelling_selects_the_same_id, 0, n);
	suite_add_tcase(s, tc);
	TCase *lt = tcase_create("layout literals");
	tcase_add_test(lt, layout_reads_the_fragment);
	tcase_add_test(lt, layout_rejects_what_is_not_one);
	suite_add_tcase(s, lt);
	return s;
}
