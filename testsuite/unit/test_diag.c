/* Diagnostics only the library API can raise: the driver checks --target and
 * --ptx itself (driver.yaml), and no file on the test machine is 2 GiB. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, MAP_NORESERVE */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "ptxemit.h"
#include "suites.h"

typedef struct seen {
	unsigned n;
	unsigned line;
	char msg[256];
} seen;

static void collect(void *ctx, const px_diagnostic *d)
{
	seen *s = ctx;
	if (s->n++ == 0) {
		s->line = d->line;
		snprintf(s->msg, sizeof s->msg, "%s", d->message);
	}
}

static const char kernel[] = "kernel @k() {\n  ret\n}\n";

static int translate(const char *src, size_t len, const px_options *o, seen *s)
{
	char *out;
	size_t outlen;
	int n = px_translate("t.mir", src, len, o, collect, s, &out, &outlen);
	ck_assert_ptr_null(out);
	return n;
}

START_TEST(unknown_target_option)
{
	seen s = {0};
	px_options o;
	px_options_default(&o);
	o.target = "sm_99";
	ck_assert_int_eq(translate(kernel, strlen(kernel), &o, &s), 1);
	ck_assert_str_eq(s.msg, "unknown target 'sm_99'; did you mean 'sm_100' or 'sm_100a' or 'sm_100f'?");
	ck_assert_uint_eq(s.line, 0);
}
END_TEST

START_TEST(unknown_ptx_option)
{
	static const char *const bad[] = {"9.9", "7.x", "78", ""};
	for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		seen s = {0};
		px_options o;
		px_options_default(&o);
		o.target = "sm_80";
		o.ptx = bad[i];
		char want[64];
		snprintf(want, sizeof want, "unknown PTX ISA version '%s'", bad[i]);
		ck_assert_int_eq(translate(kernel, strlen(kernel), &o, &s), 1);
		ck_assert_str_eq(s.msg, want);
		ck_assert_uint_eq(s.line, 0);
	}
}
END_TEST

START_TEST(input_too_large)
{
	/* 2 GiB of address space that may not be read at all: the size must be
	 * refused before any byte is touched, or the test dies of SIGSEGV. (A
	 * calloc of that size took seconds under AddressSanitizer.) */
	size_t len = (size_t)INT_MAX;
	char *big = mmap(NULL, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	ck_assert_ptr_ne(big, MAP_FAILED);
	seen s = {0};
	ck_assert_int_ge(translate(big, len, NULL, &s), 1);
	ck_assert_str_eq(s.msg, "the input is too large (2 GiB at most)");
	ck_assert_uint_eq(s.line, 0);
	munmap(big, len);
}
END_TEST

Suite *diag_suite(void)
{
	Suite *s = suite_create("diag");
	TCase *tc = tcase_create("library-only");
	tcase_add_test(tc, unknown_target_option);
	tcase_add_test(tc, unknown_ptx_option);
	tcase_add_test(tc, input_too_large);
	suite_add_tcase(s, tc);
	return s;
}
