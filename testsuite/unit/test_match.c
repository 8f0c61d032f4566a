/* The pattern matcher: saturating int64 sums and products at their
 * overflow edges, the depth amplifier, the predicate tail, and the pattern
 * table generated from data/patterns.yaml. */
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
	ck_assert_int_eq(px_cost_mul(2, 52), 104); /* NVVM's Volta double */
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
	const px_lattice_step *fma = px_patterns[PX_PAT_fma_fold].tail.lattice;
	ck_assert_uint_eq(px_lattice_byte(fma, 70), 4);
	ck_assert_uint_eq(px_lattice_byte(fma, 72), 4);
	ck_assert_uint_eq(px_lattice_byte(fma, 75), 1);
	ck_assert_uint_eq(px_lattice_byte(fma, 90), 1);
	ck_assert_uint_eq(px_lattice_byte(px_bare_tail.lattice, 70), 1);
	ck_assert_int_eq(px_check_predicate(52, fma, 70), 104);
	ck_assert_int_eq(px_check_predicate(52, fma, 90), 52);
	ck_assert_int_eq(px_check_predicate(INT64_MAX / 2 + 1, fma, 72), INT64_MAX);
	ck_assert_int_eq(px_check_predicate(PX_COST_REJECT, fma, 70), PX_COST_REJECT);
}
END_TEST

/* A lattice byte other than 0, 1 and 4 rejects the pattern outright. */
START_TEST(predicate_reject)
{
	static const px_lattice_step row[] = {{80, 2}, {0, 0}};
	ck_assert_int_eq(px_check_predicate(52, row, 75), PX_COST_REJECT);
	ck_assert_int_eq(px_check_predicate(52, row, 80), 52);
}
END_TEST

/* data/patterns.yaml as generated: ops, slot constraints, commutation, flags
 * and the operand map of both patterns. */
static int slot(unsigned op, const char *name) { return slot_index(&px_ops[op], name); }

START_TEST(pattern_table)
{
	ck_assert_uint_eq(px_npatterns, PX_PAT__COUNT);
	const px_pattern *f = &px_patterns[PX_PAT_fma_fold];
	ck_assert_str_eq(f->name, "fma_fold");
	ck_assert_uint_eq(f->root.op, PX_OP_add);
	ck_assert_uint_eq(f->inner.op, PX_OP_mul);
	ck_assert_uint_eq(f->emit, PX_OP_fma);
	ck_assert_uint_eq(f->at, 0);
	ck_assert(f->commutative);
	ck_assert_uint_eq(f->flags, PX_NF_fast | PX_NF_contract);
	ck_assert_uint_eq(f->reach, 256);
	ck_assert(px_toks_have(f->root.when[slot(PX_OP_add, "type")], PX_TOK_f64));
	ck_assert(!px_toks_have(f->root.when[slot(PX_OP_add, "type")], PX_TOK_f16));
	ck_assert_ptr_eq(f->root.when[slot(PX_OP_add, "rnd")], px_rule_empty);
	ck_assert_ptr_null(f->root.when[slot(PX_OP_add, "ftz")]);
	ck_assert_int_eq(f->same[slot(PX_OP_add, "ftz")], slot(PX_OP_mul, "ftz") + 1);
	ck_assert_uint_eq(f->set[slot(PX_OP_fma, "rnd")], PX_TOK_rn);
	ck_assert_int_eq(f->copy[slot(PX_OP_fma, "type")], slot(PX_OP_add, "type") + 1);
	ck_assert_uint_eq(f->nops, 3);
	ck_assert(f->ops[0].inner && f->ops[0].index == 0);
	ck_assert(f->ops[1].inner && f->ops[1].index == 1);
	ck_assert(!f->ops[2].inner && f->ops[2].index == 1);

	const px_pattern *m = &px_patterns[PX_PAT_mad_lo];
	ck_assert_uint_eq(m->emit, PX_OP_mad);
	ck_assert_uint_eq(m->flags, 0);
	ck_assert(px_toks_have(m->inner.when[slot(PX_OP_mul, "mode")], PX_TOK_lo));
	ck_assert(!px_toks_have(m->inner.when[slot(PX_OP_mul, "mode")], PX_TOK_wide));
	ck_assert_uint_eq(m->set[slot(PX_OP_mad, "mode")], PX_TOK_lo);
	ck_assert_uint_eq(px_lattice_byte(m->tail.lattice, 70), 1);
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
	tcase_add_test(tc, predicate_reject);
	tcase_add_test(tc, pattern_table);
	suite_add_tcase(s, tc);
	return s;
}
