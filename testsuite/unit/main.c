#include <stdlib.h>

#include "suites.h"

int main(void)
{
	SRunner *sr = srunner_create(scanner_suite());
	srunner_add_suite(sr, tables_suite());
	srunner_add_suite(sr, regs_suite());
	srunner_add_suite(sr, print_suite());
	srunner_add_suite(sr, pipeline_suite());
	srunner_add_suite(sr, matrix_suite());
	srunner_add_suite(sr, match_suite());
	srunner_add_suite(sr, diag_suite());
	srunner_add_suite(sr, mma_suite());
	srunner_add_suite(sr, fp_suite());
	srunner_add_suite(sr, threads_suite());
	srunner_add_suite(sr, pages_suite());
	srunner_add_suite(sr, valmap_suite());
	srunner_add_suite(sr, cfg_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
