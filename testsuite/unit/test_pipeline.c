/* The library API end to end: what a DSL embedding libptxemit sees. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptxemit.h"
#include "suites.h"

typedef struct seen {
	unsigned n;
	px_diagnostic first;
	char first_msg[256];
} seen;

static void collect(void *ctx, const px_diagnostic *d)
{
	seen *s = ctx;
	if (s->n++ == 0) {
		s->first = *d;
		snprintf(s->first_msg, sizeof s->first_msg, "%s", d->message);
	}
}

static const char scale[] =
	"target sm_80\n"
	"kernel @scale(%p: ptr global, %k: f32, %n: u32) {\n"
	"  %t:u32 = mov %tid.x\n"
	"  %oob:pred = setp.ge %t, %n\n"
	"  @%oob bra ^done\n"
	"  %off:u64 = mul.wide %t, 4\n"
	"  %a:u64 = add %p, %off\n"
	"  %x:f32 = ld.global [%a]\n"
	"  %y:f32 = mul %x, %k\n"
	"  %z:f32 = add %y, 1.0\n"
	"  st.global [%a], %z\n"
	"^done:\n"
	"  ret\n"
	"}\n";

static int translate(const char *src, const px_options *o, seen *s, char **out)
{
	size_t len;
	return px_translate("t.mir", src, strlen(src), o, collect, s, out, &len);
}

START_TEST(scale_translates)
{
	seen s = {0};
	char *out;
	ck_assert_int_eq(translate(scale, NULL, &s, &out), 0);
	ck_assert_uint_eq(s.n, 0);
	ck_assert_ptr_nonnull(strstr(out, ".target sm_80\n"));
	ck_assert_ptr_nonnull(strstr(out, ".version 7.0\n"));
	ck_assert_ptr_nonnull(strstr(out, ".visible .entry scale("));
	ck_assert_ptr_nonnull(strstr(out, "mul.f32 %f"));
	ck_assert_ptr_nonnull(strstr(out, ", 0f3F800000;\n"));
	ck_assert_ptr_nonnull(strstr(out, "cvta.to.global.u64"));
	ck_assert_ptr_nonnull(strstr(out, "mul.wide.u32"));
	ck_assert_ptr_nonnull(strstr(out, "add.f32 %f"));
	ck_assert_ptr_nonnull(strstr(out, "$done:\n"));
	free(out);
}
END_TEST

START_TEST(errors_have_locations_and_no_output)
{
	seen s = {0};
	char *out = (char *)1;
	const char *bad = "target sm_80\nkernel @k() {\n  %x:u32 = ad 1, 2\n  ret\n}\n";
	ck_assert_int_eq(translate(bad, NULL, &s, &out), 1);
	ck_assert_ptr_null(out);
	ck_assert_uint_eq(s.first.line, 3);
	ck_assert_uint_eq(s.first.col, 12);
	ck_assert_str_eq(s.first_msg, "unknown operation 'ad'; did you mean 'add'?");
	ck_assert_ptr_nonnull(s.first.source_line);
}
END_TEST

START_TEST(every_error_is_reported)
{
	seen s = {0};
	char *out;
	const char *bad = "target sm_80\nkernel @k() {\n  %x:u32 = ad 1, 2\n  %y:u32 = sbu 1, 2\n"
	                  "  %z:u32 = add %w, 1\n  ret\n}\n";
	ck_assert_int_eq(translate(bad, NULL, &s, &out), 3);
	ck_assert_uint_eq(s.n, 3);
}
END_TEST

START_TEST(max_errors_stops_reporting)
{
	seen s = {0};
	char *out;
	px_options o;
	px_options_default(&o);
	o.max_errors = 1;
	const char *bad = "target sm_80\nkernel @k() {\n  %x:u32 = ad 1, 2\n  %y:u32 = sbu 1, 2\n  ret\n}\n";
	ck_assert_int_eq(translate(bad, &o, &s, &out), 2);
	ck_assert_uint_eq(s.n, 2); /* the first error and the "too many errors" line */
}
END_TEST

START_TEST(target_option_overrides_and_windows_apply)
{
	seen s = {0};
	char *out;
	px_options o;
	px_options_default(&o);
	o.target = "sm_70";
	const char *src = "target sm_90\nkernel @k() {\n  %c:u32 = mov %clusterid.x\n  ret\n}\n";
	ck_assert_int_eq(translate(src, &o, &s, &out), 1);
	ck_assert_str_eq(s.first_msg, "%clusterid.x requires sm_90 or later (target is sm_70)");
}
END_TEST

START_TEST(verify_only_and_isel)
{
	seen s = {0};
	char *out;
	px_options o;
	px_options_default(&o);
	o.verify_only = true;
	ck_assert_int_eq(translate(scale, &o, &s, &out), 0);
	ck_assert_str_eq(out, "");
	free(out);
	px_options_default(&o);
	o.emit = PX_EMIT_ISEL;
	ck_assert_int_eq(translate(scale, &o, &s, &out), 0);
	ck_assert_ptr_nonnull(strstr(out, "kernel @scale\n"));
	ck_assert_ptr_nonnull(strstr(out, "13:3 RET"));
	free(out);
}
END_TEST

START_TEST(bytes_are_never_fatal)
{
	/* binary garbage: errors, never a crash */
	char junk[512];
	for (unsigned i = 0; i < sizeof junk; i++)
		junk[i] = (char)(i * 131 + 7);
	seen s = {0};
	char *out;
	size_t len;
	int n = px_translate("junk", junk, sizeof junk, NULL, collect, &s, &out, &len);
	ck_assert_int_gt(n, 0);
	ck_assert_ptr_null(out);
}
END_TEST

Suite *pipeline_suite(void)
{
	Suite *s = suite_create("pipeline");
	TCase *tc = tcase_create("api");
	tcase_add_test(tc, scale_translates);
	tcase_add_test(tc, errors_have_locations_and_no_output);
	tcase_add_test(tc, every_error_is_reported);
	tcase_add_test(tc, max_errors_stops_reporting);
	tcase_add_test(tc, target_option_overrides_and_windows_apply);
	tcase_add_test(tc, verify_only_and_isel);
	tcase_add_test(tc, bytes_are_never_fatal);
	suite_add_tcase(s, tc);
	return s;
}
