/* The generated tables (data/ via tools/pxgen): lookups and the invariants the
 * other stages rely on without checking (sorted names, variant tokens drawn
 * from their slots, targets' PTX versions among the printable ones). */
#include <stdlib.h>
#include <string.h>

#include "suites.h"
#include "family.h"
#include "tables/firstrow.h"
#include "tables/query.h"
#include "tables/tables.h"

#define SLICE(s) (s), strlen(s)

START_TEST(tokens_sorted_and_unique)
{
	ck_assert_str_eq(px_tok_names[0], "");
	for (unsigned i = 2; i < px_ntoks; i++)
		ck_assert_msg(strcmp(px_tok_names[i - 1], px_tok_names[i]) < 0, "tokens '%s' and '%s' out of order",
		              px_tok_names[i - 1], px_tok_names[i]);
}
END_TEST

START_TEST(token_lookup_finds_every_token)
{
	for (unsigned i = 1; i < px_ntoks; i++)
		ck_assert_uint_eq(px_tok_lookup(SLICE(px_tok_names[i])), i);
	ck_assert_uint_eq(px_tok_lookup(SLICE("")), 0);
	ck_assert_uint_eq(px_tok_lookup(SLICE("no.such.token")), 0);
	/* A slice is compared by length, not up to a NUL. */
	ck_assert_uint_eq(px_tok_lookup("u32x", 3), PX_TOK_u32);
	ck_assert_uint_eq(px_tok_lookup("u3", 2), 0);
}
END_TEST

/* px_tok_lanes: the n of a <lane>x<n> spelling, and 0 for every other
 * token, so that a token with 0 needs no look at its spelling. */
START_TEST(token_lanes_by_spelling)
{
	ck_assert_uint_eq(px_tok_lanes[0], 0);
	ck_assert_uint_eq(px_tok_lanes[PX_TOK_f16x2], 2);
	ck_assert_uint_eq(px_tok_lanes[PX_TOK_bf16x2], 2);
	ck_assert_uint_eq(px_tok_lanes[PX_TOK_f32x2], 2);
	ck_assert_uint_eq(px_tok_lanes[px_tok_lookup(SLICE("e2m1x4"))], 4);
	ck_assert_uint_eq(px_tok_lanes[px_tok_lookup(SLICE("s16x2"))], 2);
	ck_assert_uint_eq(px_tok_lanes[PX_TOK_u32], 0);
	ck_assert_uint_eq(px_tok_lanes[px_tok_lookup(SLICE("x4"))], 0);
	for (unsigned i = 1; i < px_ntoks; i++) {
		const char *x = strrchr(px_tok_names[i], 'x');
		if (px_tok_lanes[i])
			ck_assert_msg(x && x != px_tok_names[i] && (unsigned)atoi(x + 1) == px_tok_lanes[i],
			              "'%s' has %u lanes", px_tok_names[i], px_tok_lanes[i]);
		else
			ck_assert_msg(!x || x == px_tok_names[i] || !x[1] || strspn(x + 1, "0123456789") != strlen(x + 1),
			              "'%s' has no lanes", px_tok_names[i]);
	}
}
END_TEST

/* px_op_def.snames holds exactly the names of the op's slots, so that
 * px_slot_find's answer from it is the scan's. */
START_TEST(slot_names_by_op)
{
	for (unsigned o = 0; o < px_nops; o++) {
		const px_op_def *op = &px_ops[o];
		for (unsigned sn = 1; sn < PX_SN__COUNT; sn++) {
			int at = -1;
			for (unsigned i = 0; i < op->nslots && at < 0; i++)
				if (op->slots[i].sname == sn)
					at = (int)i;
			ck_assert_msg(px_slot_find(op, sn) == at, "%s: slot name %u", op->name, sn);
			ck_assert_int_eq((int)(op->snames[sn / 64] >> (sn % 64) & 1), at >= 0);
		}
		ck_assert_uint_eq(op->snames[0] & 1, 0); /* PX_SN__NONE names no slot */
	}
}
END_TEST

START_TEST(types_have_tokens_and_lookup)
{
	ck_assert_str_eq(px_types[PX_T_none].name, "none");
	ck_assert_int_eq(px_ntypes, PX_T__COUNT);
	for (unsigned t = 1; t < px_ntypes; t++) {
		ck_assert_int_eq(px_type_lookup(SLICE(px_types[t].name)), (int)t);
		if (px_types[t].kind == PX_KIND_PTR)
			ck_assert_uint_eq(px_types[t].token, 0);
		else
			ck_assert_str_eq(px_tok_names[px_types[t].token], px_types[t].name);
	}
	ck_assert_int_eq(px_type_lookup(SLICE("none")), 0);
	ck_assert_int_eq(px_type_lookup(SLICE("u33")), 0);
	ck_assert_int_eq(px_type_lookup("f32x2", 3), PX_T_f32);
	ck_assert_uint_eq(px_types[PX_T_bf16x2].width, 32);
	ck_assert_uint_eq(px_types[PX_T_pred].width, 1);
}
END_TEST

START_TEST(targets_sorted_with_known_ptx)
{
	ck_assert_uint_gt(px_ntargets, 0);
	for (unsigned i = 1; i < px_nptx_versions; i++)
		ck_assert_uint_lt(px_ptx_versions[i - 1], px_ptx_versions[i]);
	for (unsigned i = 0; i < px_ntargets; i++) {
		const px_target *t = &px_targets[i];
		if (i)
			ck_assert_uint_le(px_targets[i - 1].sm, t->sm);
		int known = 0;
		for (unsigned v = 0; v < px_nptx_versions; v++)
			known |= px_ptx_versions[v] == t->ptx;
		ck_assert_msg(known, "%s needs PTX %u, which is not a known version", t->name, t->ptx);
		ck_assert_ptr_eq(px_target_lookup(SLICE(t->name)), t);
	}
	ck_assert_ptr_null(px_target_lookup(SLICE("sm_73")));
	ck_assert_ptr_null(px_target_lookup("sm_90a", 4));
}
END_TEST

START_TEST(target_rows)
{
	const px_target *t = px_target_lookup(SLICE("sm_90a"));
	ck_assert_ptr_nonnull(t);
	ck_assert_uint_eq(t->sm, 90);
	ck_assert_uint_eq(t->ptx, 80);
	ck_assert_int_eq(t->suffix, 'a');
	t = px_target_lookup(SLICE("sm_100f"));
	ck_assert_ptr_nonnull(t);
	ck_assert_int_eq(t->suffix, 'f');
	t = px_target_lookup(SLICE("sm_70"));
	ck_assert_ptr_nonnull(t);
	ck_assert_uint_eq(t->ptx, 60);
	ck_assert_int_eq(t->suffix, 0);
	ck_assert_uint_eq(px_ptx_versions[0], 60);
	ck_assert_uint_eq(px_ptx_versions[px_nptx_versions - 1], 90);
}
END_TEST

START_TEST(sregs_sorted_and_found)
{
	for (unsigned i = 1; i < px_nsregs; i++)
		ck_assert_msg(strcmp(px_sregs[i - 1].name, px_sregs[i].name) < 0, "sregs '%s' and '%s' out of order",
		              px_sregs[i - 1].name, px_sregs[i].name);
	for (unsigned i = 0; i < px_nsregs; i++)
		ck_assert_ptr_eq(px_sreg_lookup(SLICE(px_sregs[i].name)), &px_sregs[i]);
	const px_sreg *s = px_sreg_lookup(SLICE("%tid.x"));
	ck_assert_ptr_nonnull(s);
	ck_assert_uint_eq(s->type, PX_T_u32);
	s = px_sreg_lookup(SLICE("%tid"));
	ck_assert_ptr_nonnull(s);
	ck_assert_uint_eq(s->type, PX_T_none);
	s = px_sreg_lookup(SLICE("%clusterid.x"));
	ck_assert_ptr_nonnull(s);
	ck_assert_uint_eq(s->sm, 90);
	ck_assert_uint_eq(s->ptx, 78);
	ck_assert_ptr_null(px_sreg_lookup(SLICE("%tid.q")));
}
END_TEST

START_TEST(directives_in_seed_order)
{
	static const char *const order[] = {"reqntid", "maxntid", "minnctapersm", "maxnreg", "maxclusterrank",
	                                    "reqnctapercluster", "explicitcluster", "blocksareclusters"};
	ck_assert_uint_eq(px_ndirectives, PX_DIR__COUNT);
	ck_assert_uint_eq(px_ndirectives, sizeof order / sizeof order[0]);
	for (unsigned i = 0; i < px_ndirectives; i++) {
		ck_assert_str_eq(px_directives[i].name, order[i]);
		ck_assert_int_eq(px_directives[i].print[0], '.');
		ck_assert_str_eq(px_directives[i].print + 1, order[i]);
		ck_assert_uint_le(px_directives[i].min_args, px_directives[i].max_args);
	}
	ck_assert_uint_eq(px_directives[PX_DIR_reqntid].max_args, 3);
	ck_assert_uint_eq(px_directives[PX_DIR_explicitcluster].max_args, 0);
	ck_assert_uint_eq(px_directives[PX_DIR_maxclusterrank].sm, 90);
	ck_assert_uint_eq(px_directives[PX_DIR_blocksareclusters].ptx, 90);
}
END_TEST

START_TEST(flags_and_diags)
{
	ck_assert_uint_eq(px_nnode_flags, 4);
	ck_assert_str_eq(px_node_flags[0].name, "fast");
	ck_assert_uint_eq(px_node_flags[0].bit, PX_NF_fast);
	ck_assert_uint_eq(px_node_flags[1].bit, PX_NF_contract);
	ck_assert_uint_eq(px_node_flags[2].bit, PX_NF_ftz_ok);
	ck_assert_uint_ne(PX_NF_fast, PX_NF_contract);
	/* a valued flag: a field of log2 bits above the bare ones, overlapping none */
	ck_assert_str_eq(px_node_flags[3].name, "align");
	ck_assert_uint_eq(px_node_flags[3].bits, 5);
	ck_assert_uint_eq(px_node_flags[3].bit, PX_NF_align);
	ck_assert_uint_eq(px_node_flags[3].shift, PX_NF_align_SHIFT);
	ck_assert_uint_eq(PX_NF_align >> PX_NF_align_SHIFT, 31);
	ck_assert_uint_eq(PX_NF_align & (PX_NF_fast | PX_NF_contract | PX_NF_ftz_ok), 0);
	ck_assert_uint_eq(px_ndiags, PX_D__COUNT);
	ck_assert_str_eq(px_diag_texts[PX_D_internal].id, "internal");
	for (unsigned i = 0; i < px_ndiags; i++)
		for (unsigned j = 0; j < i; j++)
			ck_assert_str_ne(px_diag_texts[i].id, px_diag_texts[j].id);
}
END_TEST

START_TEST(ops_sorted_and_found)
{
	ck_assert_uint_eq(px_nops, PX_OP__COUNT);
	for (unsigned i = 1; i < px_nops; i++)
		ck_assert_msg(strcmp(px_ops[i - 1].name, px_ops[i].name) < 0, "ops '%s' and '%s' out of order",
		              px_ops[i - 1].name, px_ops[i].name);
	for (unsigned i = 0; i < px_nops; i++)
		ck_assert_ptr_eq(px_op_lookup(SLICE(px_ops[i].name)), &px_ops[i]);
	ck_assert_ptr_null(px_op_lookup(SLICE("no.such.op")));
}
END_TEST

static void check_opnds(const px_op_def *op, const px_opnd_def *o, unsigned n)
{
	ck_assert_uint_le(n, PX_MAX_OPNDS);
	for (unsigned i = 0; i < n; i++) {
		ck_assert_int_lt(o[i].type_slot, (int)op->nslots);
		ck_assert_int_lt(o[i].count_slot, (int)op->nslots);
		ck_assert_uint_lt(o[i].type, PX_T__COUNT);
		if (o[i].derive != PX_DERIVE_NONE)
			ck_assert_int_ge(o[i].type_slot, 0);
	}
}

/* Every token a variant allows belongs to its slot; every slot's tokens are real tokens. */
static void check_op(const px_op_def *op)
{
	ck_assert_uint_le(op->nslots, PX_MAX_SLOTS);
	ck_assert_uint_gt(op->nvariants, 0);
	for (unsigned s = 0; s < op->nslots; s++) {
		const px_slot_def *slot = &op->slots[s];
		ck_assert_int_eq(slot_index(op, slot->name), (int)s);
		for (const uint16_t *t = slot->toks; *t; t++)
			ck_assert_uint_lt(*t, px_ntoks);
		if (slot->flags & PX_SLOT_FIXED)
			ck_assert(px_slot_has(slot, slot->fixed_tok));
	}
	ck_assert_int_eq(slot_index(op, "no-such-slot"), -1);
	check_opnds(op, op->results, op->nresults);
	check_opnds(op, op->operands, op->noperands);
	for (unsigned v = 0; v < op->nvariants; v++) {
		const px_variant *var = &op->variants[v];
		for (unsigned s = 0; s < PX_MAX_SLOTS; s++) {
			if (!var->allow[s])
				continue;
			ck_assert_uint_lt(s, op->nslots);
			for (const uint16_t *t = var->allow[s]; *t; t++)
				ck_assert_msg(px_slot_has(&op->slots[s], *t), "%s: variant %u allows '%s' outside slot %s",
				              op->name, v, px_tok_names[*t], op->slots[s].name);
		}
		ck_assert_uint_eq(var->require >> op->nslots, 0);
		ck_assert_ptr_nonnull(var->mc);
		if (var->results)
			check_opnds(op, var->results, var->nresults);
		if (var->operands)
			check_opnds(op, var->operands, var->noperands);
	}
	for (const px_prop_def *p = op->props; p && p->key; p++)
		ck_assert_int_lt(p->slot, (int)op->nslots);
}

START_TEST(ops_variants_within_slots)
{
	for (unsigned i = 0; i < px_nops; i++)
		check_op(&px_ops[i]);
}
END_TEST

START_TEST(toks_have_handles_edges)
{
	static const uint16_t list[] = {PX_TOK_u32, PX_TOK_s32, 0};
	ck_assert(px_toks_have(list, PX_TOK_s32));
	ck_assert(!px_toks_have(list, PX_TOK_f32));
	ck_assert(!px_toks_have(list, 0));
	ck_assert(!px_toks_have(NULL, PX_TOK_u32));
}
END_TEST

static unsigned scan_first_row(const px_op_def *op, const uint16_t *slot)
{
	unsigned row = 0;
	while (row < op->nvariants && !px_variant_admits(op, &op->variants[row], slot))
		row++;
	return row;
}

/* The remembered first row is the scan's, for every variant's own tokens (the
 * first each slot allows), the same with one slot emptied, and no tokens at
 * all, asked twice over every operation: entries are replaced many times. */
START_TEST(first_row_remembered)
{
	px_first_rows *memo = NULL;
	unsigned asked = 0;
	for (int round = 0; round < 2; round++)
		for (unsigned i = 0; i < px_nops; i++) {
			const px_op_def *op = &px_ops[i];
			uint16_t slot[PX_MAX_SLOTS] = {0};
			ck_assert_uint_eq(px_first_row(&memo, op, slot), scan_first_row(op, slot));
			for (unsigned v = 0; v < op->nvariants; v++) {
				for (unsigned k = 0; k < op->nslots; k++)
					slot[k] = op->variants[v].allow[k] ? op->variants[v].allow[k][0] : 0;
				for (unsigned k = 0; k <= op->nslots; k++) {
					uint16_t keep = k < op->nslots ? slot[k] : 0;
					if (k < op->nslots)
						slot[k] = 0;
					ck_assert_uint_eq(px_first_row(&memo, op, slot), scan_first_row(op, slot));
					ck_assert_uint_eq(px_first_row(&memo, op, slot), scan_first_row(op, slot));
					if (k < op->nslots)
						slot[k] = keep;
					asked += 2;
				}
			}
		}
	ck_assert_uint_gt(asked, 1000);
	px_first_rows_free(&memo);
	ck_assert_ptr_null(memo);
}
END_TEST

/* Every family families.yaml declares has code: a record with a hook. */
START_TEST(families_have_hooks)
{
	for (unsigned f = 1; f < PX_FAM__COUNT; f++)
		ck_assert_msg(px_families[f].prepare || px_families[f].check || px_families[f].select,
		              "family %u has no hook in src/family.c", f);
}
END_TEST

/* Slot names as constants name the same slot as their spelling. */
START_TEST(slot_names_match_constants)
{
	for (unsigned i = 0; i < px_nops; i++)
		for (unsigned k = 0; k < px_ops[i].nslots; k++) {
			const px_slot_def *sd = &px_ops[i].slots[k];
			ck_assert_uint_ne(sd->sname, PX_SN__NONE);
			ck_assert_int_eq(px_slot_find(&px_ops[i], sd->sname), slot_index(&px_ops[i], sd->name));
		}
	ck_assert_int_eq(px_slot_find(&px_ops[PX_OP_mov], PX_SN_space), -1);
}
END_TEST

/* Each kind of each descriptor: its fields lie within the result's width
 * and no two of them share a bit (fields of disjoint kinds may), and every
 * code a row gives fits its field. */
START_TEST(desc_fields_disjoint_per_kind)
{
	for (int k = 0; px_desc_kinds[k]; k++)
		for (unsigned op = 0; op < px_nops; op++) {
			uint64_t used = 0;
			for (int f = 0; px_desc_fields[f].name; f++) {
				const px_desc_field *fd = &px_desc_fields[f];
				if (fd->op != op || fd->lo < 0 || (fd->kinds && !(fd->kinds >> k & 1)))
					continue;
				unsigned width = px_types[px_ops[op].results[0].type].width;
				ck_assert_uint_le((unsigned)fd->lo + fd->bits, width);
				uint64_t mask = ((1ull << fd->bits) - 1) << fd->lo;
				ck_assert_msg(!(used & mask), "%s.%s overlaps under %s", px_ops[op].name, fd->name,
				              px_desc_kinds[k]);
				used |= mask;
			}
		}
	for (const px_desc_code *c = px_desc_codes; c->kind; c++)
		ck_assert_uint_lt(c->code, 1u << (px_desc_fields[c->field].bits ? px_desc_fields[c->field].bits : 1));
}
END_TEST

Suite *tables_suite(void)
{
	Suite *s = suite_create("tables");
	TCase *tc = tcase_create("tables");
	tcase_add_test(tc, tokens_sorted_and_unique);
	tcase_add_test(tc, token_lookup_finds_every_token);
	tcase_add_test(tc, token_lanes_by_spelling);
	tcase_add_test(tc, slot_names_by_op);
	tcase_add_test(tc, types_have_tokens_and_lookup);
	tcase_add_test(tc, targets_sorted_with_known_ptx);
	tcase_add_test(tc, target_rows);
	tcase_add_test(tc, sregs_sorted_and_found);
	tcase_add_test(tc, directives_in_seed_order);
	tcase_add_test(tc, flags_and_diags);
	tcase_add_test(tc, ops_sorted_and_found);
	tcase_add_test(tc, ops_variants_within_slots);
	tcase_add_test(tc, toks_have_handles_edges);
	tcase_add_test(tc, first_row_remembered);
	tcase_add_test(tc, families_have_hooks);
	tcase_add_test(tc, slot_names_match_constants);
	tcase_add_test(tc, desc_fields_disjoint_per_kind);
	suite_add_tcase(s, tc);
	return s;
}
