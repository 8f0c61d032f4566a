/* The blocks and the statements' table the hazard checks read
 * (verify/analysis/cfg.h): which statements each block holds, and the flags
 * and marks that let a check pass a statement by without reading it. A
 * kernel is parsed and verified as the pipeline does, then its blocks are
 * made again here and compared with the body. */
#include <stdio.h>
#include <string.h>

#include "suites.h"

#include "diag/diag.h"
#include "front/ir.h"
#include "util/arena.h"
#include "verify/analysis/cfg.h"
#include "verify/verify.h"

static const char body[] =
	"target sm_80\n"
	"shared @buf : f32[64] align 4\n"
	"kernel @k(%a: ptr global) reqntid(64) {\n"
	"  %t:u32 = mov %tid.x\n"           /* 0: block 0 */
	"  %p:pred = setp.ge %t, 32\n"      /* 1 */
	"  @%p bra ^skip\n"                 /* 2: a branch ends its block */
	"  %x:f32 = ld.global [%a]\n"       /* 3: block 1, an address */
	"  %y:f32 = ld.shared [@buf+4]\n"   /* 4: an address */
	"^skip:\n"                          /* 5: block 2, a label starts it */
	"  bar.sync 0\n"                    /* 6: a CTA barrier */
	"  ret\n"                           /* 7 */
	"}\n";

typedef struct made {
	px_verifier v;
	bool target;
	int checked;
} made;

static void no_diag(void *ctx, const px_diagnostic *d)
{
	(void)ctx;
	ck_abort_msg("unexpected diagnostic: %u:%u: %s", d->line, d->col, d->message);
}

static void check_blocks(px_module *m, px_func *f, void *ctx)
{
	made *k = ctx;
	(void)m;
	if (!k->target) {
		px_verify_target(&k->v);
		k->target = true;
	}
	px_verify_has_target(&k->v, f);
	px_verify_func(&k->v, f);

	px_arena a;
	px_arena_init(&a);
	px_cfg g;
	px_cfg_build(&g, f, &a);
	ck_assert_uint_eq(g.nstmts, 8);
	ck_assert_uint_eq(g.nstmts, f->nnodes);
	ck_assert_uint_eq(g.nblocks, 3);
	static const uint32_t at[] = {0, 3, 5, 8};
	for (uint32_t b = 0; b <= g.nblocks; b++)
		ck_assert_uint_eq(g.at[b], at[b]);
	/* the table is the body, in text order */
	uint32_t i = 0;
	for (px_node *n = f->first; n; n = n->next, i++) {
		ck_assert_ptr_eq(g.stmt[i], n);
		ck_assert_uint_eq(g.stmt_marks[i] & PX_CFG_ANY_KIND, PX_CFG_KIND(n->kind));
		ck_assert_uint_eq(px_cfg_flags(&g, i), n->kind == PX_N_INST && n->op ? n->op->flags : 0);
		ck_assert_int_eq(!!(g.stmt_marks[i] & PX_CFG_ADDRESS), i == 3 || i == 4);
	}
	ck_assert_ptr_eq(px_cfg_first(&g, 1), g.stmt[3]);
	ck_assert_ptr_eq(px_cfg_last(&g, 0), g.stmt[2]);
	ck_assert_ptr_eq(px_cfg_last(&g, 2), f->last);
	ck_assert(px_cfg_flags(&g, 3) & PX_OPF_MEMORY_ACCESS);
	ck_assert(px_cfg_flags(&g, 6) & PX_OPF_CTA_BARRIER);
	ck_assert(!(px_cfg_flags(&g, 0) & (PX_OPF_MEMORY_ACCESS | PX_OPF_CTA_BARRIER)));
	/* a block's flags and marks are its statements' together */
	for (uint32_t b = 0; b < g.nblocks; b++) {
		uint64_t flags = 0;
		uint8_t marks = 0;
		for (uint32_t s = g.at[b]; s < g.at[b + 1]; s++) {
			flags |= px_cfg_flags(&g, s);
			marks |= g.stmt_marks[s];
			ck_assert_uint_eq(px_cfg_block_of(&g, g.stmt[s]), b);
		}
		ck_assert_uint_eq(g.block_flags[b], flags);
		ck_assert_uint_eq(g.block_marks[b], marks);
	}
	ck_assert(!(g.block_marks[0] & PX_CFG_ADDRESS));
	ck_assert(g.block_marks[1] & PX_CFG_ADDRESS);
	ck_assert(g.block_marks[2] & PX_CFG_KIND(PX_N_LABEL));
	ck_assert(!(g.block_flags[1] & PX_OPF_CTA_BARRIER));
	ck_assert(g.flags_seen & PX_OPF_CTA_BARRIER);
	/* the guarded branch: to the label's block and on into the next */
	ck_assert_uint_eq(g.succ_at[1] - g.succ_at[0], 2);
	px_cfg_free(&g);
	ck_assert_ptr_null(g.stmt);
	px_arena_free(&a);
	k->checked++;
}

START_TEST(statements_table)
{
	px_diags d;
	px_module m;
	made k = {0};
	px_diags_init(&d, "t.mir", body, sizeof body - 1, no_diag, NULL, 0);
	px_module_init(&m, "t.mir", body, sizeof body - 1, &d);
	px_verifier_init(&k.v, &m, &d, NULL, NULL);
	m.on_function = check_blocks;
	m.hook_ctx = &k;
	ck_assert_int_eq(px_parse(&m), 0);
	ck_assert_int_eq(k.checked, 1);
	ck_assert_uint_eq(d.nerrors, 0);
	px_verifier_free(&k.v);
	px_diags_flush(&d);
	px_module_free(&m);
}
END_TEST

Suite *cfg_suite(void)
{
	Suite *s = suite_create("cfg");
	TCase *t = tcase_create("statements");
	tcase_add_test(t, statements_table);
	suite_add_tcase(s, t);
	return s;
}
