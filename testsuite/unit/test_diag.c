/* Diagnostics only the library API can raise: the driver checks --target and
 * --ptx itself (driver.yaml), and no file on the test machine is 2 GiB. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, MAP_NORESERVE */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "diag/diag.h"
#include "ptxemit.h"
#include "suites.h"
#include "tables/tables.h"

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

/* Every message's text, in the order delivered. */
typedef struct texts {
	unsigned n;
	char msg[4][64];
} texts;

static void collect_all(void *ctx, const px_diagnostic *d)
{
	texts *t = ctx;
	if (t->n < 4)
		snprintf(t->msg[t->n++], sizeof t->msg[0], "%s", d->message);
}

/* A job's messages taken in two parts (what the verifier said now, what the
 * selection said later, as a held function's are): the part taken first
 * keeps its own, the rest stays with its count of errors, and both merged
 * give every message, in place. */
START_TEST(take_first_splits)
{
	static const char src[] = "kernel @a() {\n  ret\n}\n";
	texts got = {0};
	px_diags module, job;
	px_diags_init(&module, "t.mir", src, sizeof src - 1, collect_all, &got, 0);
	px_diags_init(&job, "t.mir", src, sizeof src - 1, collect_all, &got, 0);
	px_error(&job, px_loc_at(0), PX_D_undefined_value, 1, "x");
	px_error(&job, px_loc_at(16), PX_D_undefined_value, 1, "y");
	px_error(&job, px_loc_at(20), PX_D_undefined_value, 1, "z");
	px_diag_part first = px_diags_take_first(&job, 0, 2);
	ck_assert_uint_eq(first.n, 2);
	ck_assert_uint_eq(job.nkept, 1);
	ck_assert_uint_eq(job.nerrors, 3);
	px_diag_part rest = px_diags_take(&job, 0);
	ck_assert_uint_eq(rest.n, 1);
	px_diag_part parts[2] = {first, rest};
	px_diags_merge(&module, parts, 2);
	px_diags_flush(&module);
	free(job.kept);
	ck_assert_uint_eq(got.n, 3);
	ck_assert_str_eq(got.msg[0], "undefined value '%x'");
	ck_assert_str_eq(got.msg[1], "undefined value '%y'");
	ck_assert_str_eq(got.msg[2], "undefined value '%z'");
}
END_TEST

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

/* A successful translation hands its warnings (with their options and
 * notes) to the callback; the options as GCC spells them decide their fate. */
typedef struct heard {
	unsigned warnings, errors, notes;
	char option[64];
} heard;

static void listen(void *ctx, const px_diagnostic *d)
{
	heard *h = ctx;
	h->warnings += d->severity == PX_SEV_WARNING;
	h->errors += d->severity == PX_SEV_ERROR;
	h->notes += d->severity == PX_SEV_NOTE;
	if (d->option)
		snprintf(h->option, sizeof h->option, "%s", d->option);
}

static const char maybe[] = "target sm_80\n\nkernel @k(%o: ptr global, %c: u32) {\n"
                            "  %p:pred = setp.eq %c, 0\n  @%p bra ^skip\n  %v:u32 = add %c, 1\n"
                            "^skip:\n  st.global.u32 [%o], %v\n  ret\n}\n";

static int hear(const char *const *flags, unsigned nflags, heard *h)
{
	px_options o;
	px_options_default(&o);
	for (unsigned i = 0; i < nflags; i++)
		ck_assert_int_eq(px_options_warning(&o, flags[i]), 0);
	memset(h, 0, sizeof *h);
	char *out = NULL;
	size_t outlen;
	int n = px_translate("t.mir", maybe, strlen(maybe), &o, listen, h, &out, &outlen);
	ck_assert(n == 0 ? out != NULL : out == NULL);
	free(out);
	return n;
}

START_TEST(warnings_of_a_success)
{
	heard h;
	ck_assert_int_eq(hear(NULL, 0, &h), 0);
	ck_assert_uint_eq(h.warnings, 1);
	ck_assert_uint_eq(h.notes, 2);
	ck_assert_str_eq(h.option, "-Wmaybe-uninitialized");

	const char *off[] = {"-Wno-maybe-uninitialized"};
	ck_assert_int_eq(hear(off, 1, &h), 0);
	ck_assert_uint_eq(h.warnings + h.notes, 0);

	const char *on_again[] = {"-Wno-maybe-uninitialized", "-Wmaybe-uninitialized"};
	ck_assert_int_eq(hear(on_again, 2, &h), 0);
	ck_assert_uint_eq(h.warnings, 1);

	const char *werror[] = {"-Werror"};
	ck_assert_int_eq(hear(werror, 1, &h), 1);
	ck_assert_uint_eq(h.errors, 1);
	ck_assert_str_eq(h.option, "-Werror=maybe-uninitialized");

	const char *kept[] = {"-Wno-error=maybe-uninitialized", "-Werror"};
	ck_assert_int_eq(hear(kept, 2, &h), 0);
	ck_assert_uint_eq(h.warnings, 1);

	const char *one[] = {"-Werror=maybe-uninitialized"};
	ck_assert_int_eq(hear(one, 1, &h), 1);

	const char *undone[] = {"-Werror", "-Wno-error"};
	ck_assert_int_eq(hear(undone, 2, &h), 0);

	const char *quiet[] = {"-Werror=maybe-uninitialized", "-w"};
	ck_assert_int_eq(hear(quiet, 2, &h), 0);
	ck_assert_uint_eq(h.warnings + h.errors + h.notes, 0);
}
END_TEST

START_TEST(warning_option_spellings)
{
	px_options o;
	px_options_default(&o);
	static const char *const bad[] = {"-Wfrobnicate", "-Werror=frobnicate", "-Wno-error=", "Werror", "-W",
	                                  "-Wno-", "-werror", ""};
	for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++)
		ck_assert_int_eq(px_options_warning(&o, bad[i]), -1);
	/* the names in table order, each once, maybe-uninitialized among them */
	unsigned k = 0, found = 0;
	while (px_warning_name(k))
		found += strcmp(px_warning_name(k++), "maybe-uninitialized") == 0;
	ck_assert_uint_eq(found, 1);
	ck_assert_ptr_null(px_warning_name(k));
}
END_TEST

Suite *diag_suite(void)
{
	Suite *s = suite_create("diag");
	TCase *tc = tcase_create("library-only");
	tcase_add_test(tc, take_first_splits);
	tcase_add_test(tc, unknown_target_option);
	tcase_add_test(tc, unknown_ptx_option);
	tcase_add_test(tc, input_too_large);
	tcase_add_test(tc, warnings_of_a_success);
	tcase_add_test(tc, warning_option_spellings);
	suite_add_tcase(s, tc);
	return s;
}
