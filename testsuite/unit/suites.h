/* One Check suite per piece; main.c runs them all. */
#ifndef PX_UNIT_SUITES_H
#define PX_UNIT_SUITES_H
#include <check.h>

Suite *scanner_suite(void);  /* grammar/lexer.l */
Suite *tables_suite(void);   /* data/ via px_tables */
Suite *regs_suite(void);     /* register model (seed 000) */
Suite *print_suite(void);    /* printer pieces */
Suite *pipeline_suite(void); /* library API end to end */

#endif
