/* The pattern matcher's cost arithmetic (seed 003): saturating int64 sums and
 * products at their overflow edges, the depth amplifier and the predicate tail. */
#include <stdint.h>

#include "isel/match.h"
#include "suites.h"

START_TEST(sat_add_edges)
{
	ck_assert_int_eq(px_cost_add(1, 2), 3);
	ck_assert_int_eq(px_cost_add(INT64_MAX - 1, 1), INT64_MAX);
	ck_assert_int_eq(px_cost_add(INT64_MAX, 1), INT64_MAX);
	ck_assert_int_eq(px_cost_add(INT64_MAX, INT64_MAX), INT64_MAX);
	ck_assert_int_eq(px_cost_add(INT64_MIN + 1, -1), INT64_MIN);
	ck_assert_int_eq(px_cost_add(INT64_MIN, -1), INT64_MIN);
	ck_assert_int_eq(px_cost_add(INT64_MIN, INT64_MAX), -1);
	ck_assert_int_eq(px_cost_add(INT64_MAX, INT64_MIN), -1);
}
END_TEST

START_TEST(sat_mul_edges)
{
	ck_assert_int_eq(px_cost_mul(2, 52), 104); /* the seed's Volta double */
	ck_assert_int_eq(px_cost_mul(0, INT64_MAX), 0);
	ck_assert_int_eq(px_cost_mul(INT64_MIN, 0), 0);
	ck_assert_int_eq(px_cost_mul(INT64_MAX / 2, 2), INT64_MAX - 1);
	ck_assert_int_eq(px_cost_mul(INT64_MAX / 2 + 1, 2), INT64_MAX);
	ck_assert_int_eq(px_cost_mul(INT64_MAX, INT64_MAX), INT64_MAX);
	ck_assert_int_eq(px_cost_mul(INT64_MIN / 2, 2), INT64_MIN);
	ck_assert_int_eq(px_cost_mul(INT64_MIN / 2 - 1, 2), INT64_MIN);
	ck_assert_int_eq(px_cost_mul(INT64_MAX, -1), -INT64_MAX);
	ck_assert_int_eq(px_cost_mul(INT64_MIN, -1), INT64_MAX);
	ck_assert_int_eq(px_cost_mul(-1, INT64_MIN), INT64_MAX);
	ck_assert_int_eq(px_cost_mul(INT64_MIN, INT64_MIN), INT64_MAX);
	ck_assert_int_eq(px_cost_mul(INT64_MIN, 2), INT64_MIN);
	ck_assert_int_eq(px_cost_mul(-3, 4), -12);
}
END_TEST

START_TEST(depth_amplifier)
{
	/* 9 * (depth != 2) + 1 exactly, not "depth == 0 ? 1 : 10" */
	ck_assert_int_eq(px_cost_depth(0), 10);
	ck_assert_int_eq(px_cost_depth(1), 10);
	ck_assert_int_eq(px_cost_depth(2), 1);
	ck_assert_int_eq(px_cost_depth(3), 10);
	ck_assert_int_eq(px_cost_depth(100), 10);
}
END_TEST

START_TEST(predicate_tail)
{
	ck_assert_uint_eq(px_lattice_byte(PX_ROW_FMA_FOLD, 70), 4);
	ck_assert_uint_eq(px_lattice_byte(PX_ROW_FMA_FOLD, 90), 1);
	ck_assert_uint_eq(px_lattice_byte(PX_ROW_BARE, 70), 1);
	ck_assert_int_eq(px_check_predicate(52, PX_ROW_FMA_FOLD, 70), 104);
	ck_assert_int_eq(px_check_predicate(52, PX_ROW_FMA_FOLD, 90), 52);
	ck_assert_int_eq(px_check_predicate(INT64_MAX / 2 + 1, PX_ROW_FMA_FOLD, 72), INT64_MAX);
	ck_assert_int_eq(px_check_predicate(PX_COST_REJECT, PX_ROW_FMA_FOLD, 70), PX_COST_REJECT);
}
END_TEST

Suite *match_suite(void)
{
	Suite *s = suite_create("match");
	TCase *tc = tcase_create("costs");
	tcase_add_test(tc, sat_add_edges);
	tcase_add_test(tc, sat_mul_edges);
	tcase_add_test(tc, depth_amplifier);
	tcase_add_test(tc, predicate_tail);
	suite_add_tcase(s, tc);
	return s;
}
