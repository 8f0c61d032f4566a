/* NVPTX's register model as data/regclasses.yaml and data/types.yaml give
 * it: class IDs 0 to 6, widths, declaration types and prefixes, the %f view
 * over %r (and ptxemit's %fd view over %rd), the subclass relation closing
 * through %f, and the class each value type lives in. */
#include <string.h>

#include "suites.h"
#include "tables/tables.h"

#define BIT(id) (1u << (id))

static void check_class(unsigned id, const char *name, unsigned width, const char *decl, const char *prefix)
{
	const px_regclass *rc = &px_regclasses[id];
	ck_assert_uint_eq(rc->id, id);
	ck_assert_str_eq(rc->name, name);
	ck_assert_uint_eq(rc->width, width);
	if (decl)
		ck_assert_str_eq(rc->decl, decl);
	else
		ck_assert_ptr_null(rc->decl);
	if (prefix)
		ck_assert_str_eq(rc->prefix, prefix);
	else
		ck_assert_ptr_null(rc->prefix);
}

START_TEST(seed_classes)
{
	ck_assert_uint_eq(px_nregclasses, PX_NREGCLASS_IDS);
	ck_assert_uint_ge(px_nregclasses, 7);
	check_class(PX_RC_p, "%p", 1, ".pred", "%p");
	check_class(PX_RC_rs, "%rs", 16, ".b16", "%rs");
	check_class(PX_RC_Special, "Special", 32, NULL, NULL);
	check_class(PX_RC_r, "%r", 32, ".b32", "%r");
	check_class(PX_RC_f, "%f", 32, NULL, "%f");
	check_class(PX_RC_rd, "%rd", 64, ".b64", "%rd");
	check_class(PX_RC_rq, "%rq", 128, ".b128", "%rq");
}
END_TEST

START_TEST(seed_class_ids)
{
	ck_assert_int_eq(PX_RC_p, 0);
	ck_assert_int_eq(PX_RC_rs, 1);
	ck_assert_int_eq(PX_RC_Special, 2);
	ck_assert_int_eq(PX_RC_r, 3);
	ck_assert_int_eq(PX_RC_f, 4);
	ck_assert_int_eq(PX_RC_rd, 5);
	ck_assert_int_eq(PX_RC_rq, 6);
}
END_TEST

START_TEST(float_views)
{
	const px_regclass *f = &px_regclasses[PX_RC_f], *fd = &px_regclasses[PX_RC_fd];
	ck_assert_uint_eq(f->view_of, PX_RC_r);
	ck_assert_str_eq(f->view_decl, ".b32");
	check_class(PX_RC_fd, "%fd", 64, NULL, "%fd");
	ck_assert_uint_eq(fd->view_of, PX_RC_rd);
	ck_assert_str_eq(fd->view_decl, ".b64");
	for (unsigned id = 0; id < px_nregclasses; id++)
		if (id != PX_RC_f && id != PX_RC_fd) {
			ck_assert_uint_eq(px_regclasses[id].view_of, 0xff);
			ck_assert_ptr_null(px_regclasses[id].view_decl);
		}
}
END_TEST

START_TEST(subclassing_closes_through_f)
{
	ck_assert_uint_eq(px_regclasses[PX_RC_r].subclasses, BIT(PX_RC_f));
	ck_assert_uint_eq(px_regclasses[PX_RC_Special].subclasses, BIT(PX_RC_f));
	ck_assert_uint_eq(px_regclasses[PX_RC_f].superclasses, BIT(PX_RC_r) | BIT(PX_RC_Special));
	ck_assert_uint_eq(px_regclasses[PX_RC_f].subclasses, 0);
	for (unsigned a = 0; a < px_nregclasses; a++)
		for (unsigned b = 0; b < px_nregclasses; b++)
			ck_assert_uint_eq((px_regclasses[a].subclasses >> b) & 1, (px_regclasses[b].superclasses >> a) & 1);
	static const unsigned unrelated[] = {PX_RC_p, PX_RC_rs, PX_RC_rd, PX_RC_rq, PX_RC_fd, PX_RC_rb};
	for (unsigned i = 0; i < sizeof unrelated / sizeof unrelated[0]; i++) {
		ck_assert_uint_eq(px_regclasses[unrelated[i]].subclasses, 0);
		ck_assert_uint_eq(px_regclasses[unrelated[i]].superclasses, 0);
	}
}
END_TEST

/* ptxemit's true .b8 class: declared .b8, no view, and no type lives in it by
 * default (a b8 value moves there only where an operand is marked b8reg). */
START_TEST(true_b8_class)
{
	check_class(PX_RC_rb, "%rb", 8, ".b8", "%rb");
	ck_assert_uint_gt(PX_RC_rb, PX_RC_rq);
	ck_assert_uint_eq(px_regclasses[PX_RC_rb].view_of, 0xff);
	for (unsigned t = 1; t < px_ntypes; t++)
		ck_assert_uint_ne(px_types[t].regclass, PX_RC_rb);
}
END_TEST

START_TEST(types_map_to_classes)
{
	/* print: the class a value's registers print as (f32 and f64 through
	 * the float views %f and %fd, the rest as their own class) */
	static const struct {
		int type;
		unsigned rc, print;
	} rows[] = {
		{PX_T_pred, PX_RC_p, PX_RC_p},     {PX_T_b8, PX_RC_rs, PX_RC_rs},     {PX_T_u8, PX_RC_rs, PX_RC_rs},
		{PX_T_s8, PX_RC_rs, PX_RC_rs},     {PX_T_b16, PX_RC_rs, PX_RC_rs},    {PX_T_u16, PX_RC_rs, PX_RC_rs},
		{PX_T_s16, PX_RC_rs, PX_RC_rs},    {PX_T_f16, PX_RC_rs, PX_RC_rs},    {PX_T_bf16, PX_RC_rs, PX_RC_rs},
		{PX_T_b32, PX_RC_r, PX_RC_r},      {PX_T_u32, PX_RC_r, PX_RC_r},      {PX_T_s32, PX_RC_r, PX_RC_r},
		{PX_T_f16x2, PX_RC_r, PX_RC_r},    {PX_T_bf16x2, PX_RC_r, PX_RC_r},   {PX_T_f32, PX_RC_r, PX_RC_f},
		{PX_T_b64, PX_RC_rd, PX_RC_rd},    {PX_T_u64, PX_RC_rd, PX_RC_rd},    {PX_T_s64, PX_RC_rd, PX_RC_rd},
		{PX_T_f64, PX_RC_rd, PX_RC_fd},    {PX_T_ptr, PX_RC_rd, PX_RC_rd},    {PX_T_f32x2, PX_RC_rd, PX_RC_rd},
		{PX_T_b128, PX_RC_rq, PX_RC_rq},
	};
	ck_assert_uint_eq(px_ntypes, sizeof rows / sizeof rows[0] + 1);
	for (unsigned i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		const px_type_info *t = &px_types[rows[i].type];
		ck_assert_msg(t->regclass == rows[i].rc, "%s lives in class %u, not %u", t->name, t->regclass,
		              rows[i].rc);
		ck_assert_msg(t->print_class == rows[i].print, "%s prints as class %u, not %u", t->name, t->print_class,
		              rows[i].print);
		ck_assert_uint_eq(px_regclasses[t->print_class].view_of,
		                  t->print_class == t->regclass ? 0xff : t->regclass);
		ck_assert_uint_eq(px_regclasses[t->regclass].width, t->width < 8 ? 1 : t->width < 16 ? 16 : t->width);
	}
}
END_TEST

Suite *regs_suite(void)
{
	Suite *s = suite_create("regs");
	TCase *tc = tcase_create("regclasses");
	tcase_add_test(tc, seed_classes);
	tcase_add_test(tc, seed_class_ids);
	tcase_add_test(tc, float_views);
	tcase_add_test(tc, true_b8_class);
	tcase_add_test(tc, subclassing_closes_through_f);
	tcase_add_test(tc, types_map_to_classes);
	suite_add_tcase(s, tc);
	return s;
}
