/* embed.c: translate a MIR module held in memory with libptxemit, as a DSL
 * does, and print its PTX on standard output. Diagnostics arrive through a
 * callback; this one prints them as ptxemit(1) does.
 *
 *   cc embed.c $(pkg-config --cflags --libs ptxemit) -o embed && ./embed sm_90
 *
 * The optional argument overrides the module's target. Exit status: 0 when the
 * module translated, 1 when it did not. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ptxemit.h>

/* What a generator would build in a buffer: y[i] = a * x[i] + y[i]. */
static const char saxpy[] =
	"target sm_80\n"
	"kernel @saxpy(%a: f32, %x: ptr global, %y: ptr global, %n: u32) {\n"
	"  %t:u32 = mov %tid.x\n"
	"  %c:u32 = mov %ctaid.x\n"
	"  %nt:u32 = mov %ntid.x\n"
	"  %i:u32 = mad.lo %c, %nt, %t\n"
	"  %oob:pred = setp.ge %i, %n\n"
	"  @%oob bra ^done\n"
	"  %off:u64 = mul.wide %i, 4\n"
	"  %px:u64 = add %x, %off\n"
	"  %py:u64 = add %y, %off\n"
	"  %vx:f32 = ld.global [%px]\n"
	"  %vy:f32 = ld.global [%py]\n"
	"  %r:f32 = fma.rn %a, %vx, %vy\n"
	"  st.global [%py], %r\n"
	"^done:\n"
	"  ret\n"
	"}\n";

static void print_diagnostic(void *ctx, const px_diagnostic *d)
{
	char buf[4096];
	(void)ctx;
	px_diagnostic_format(d, buf, sizeof buf);
	fputs(buf, stderr);
}

int main(int argc, char **argv)
{
	px_options opt;
	px_options_default(&opt);
	if (argc > 1)
		opt.target = argv[1];
	char *ptx;
	size_t len;
	int errors = px_translate("saxpy.mir", saxpy, strlen(saxpy), &opt, print_diagnostic, NULL,
	                          &ptx, &len);
	if (errors) {
		fprintf(stderr, "embed: %d error%s\n", errors, errors == 1 ? "" : "s");
		return 1;
	}
	fwrite(ptx, 1, len, stdout);
	free(ptx);
	return 0;
}
