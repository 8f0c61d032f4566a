/* One Check suite per piece; main.c runs them all. */
#ifndef PX_UNIT_SUITES_H
#define PX_UNIT_SUITES_H
#include <check.h>
#include <string.h>

#include "tables/tables.h"

/* The index of op's slot spelled name, or -1: the tests name slots as the
 * YAML does, the library by PX_SN_* (px_slot_find). */
static inline int slot_index(const px_op_def *op, const char *name)
{
	for (unsigned i = 0; i < op->nslots; i++)
		if (!strcmp(op->slots[i].name, name))
			return (int)i;
	return -1;
}

Suite *scanner_suite(void);  /* grammar/lexer.l */
Suite *tables_suite(void);   /* data/ via px_tables */
Suite *regs_suite(void);     /* register model (NVPTX's register classes) */
Suite *print_suite(void);    /* printer pieces */
Suite *pipeline_suite(void); /* library API end to end */
Suite *matrix_suite(void);   /* matrix copies: NVVM's ID table */
Suite *match_suite(void);    /* the pattern matcher's costs */
Suite *diag_suite(void);     /* diagnostics only the library API raises */
Suite *mma_suite(void);      /* NVVM's packed MMA descriptor */
Suite *fp_suite(void);       /* literal rounding (util/fp.c) */
Suite *threads_suite(void);  /* translations on several threads at once */
Suite *pages_suite(void);    /* the page pool: arena blocks and tables reused */
Suite *valmap_suite(void);   /* a function's value names to ids */
Suite *cfg_suite(void);      /* a function's blocks and statements' table */

#endif
