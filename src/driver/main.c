/* ptxemit: the command line over libptxemit (see ptxemit(1)).
 *
 * It reads the MIR, hands it to px_translate, prints diagnostics on stderr and
 * writes the PTX. Exit status: 0 success, 1 errors in the input, 2 usage or
 * I/O errors. Its own messages are rows of data/diag/driver.yaml. */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver/input.h"
#include "driver/output.h"
#include "ptxemit.h"
#include "tables/tables.h"

enum { EXIT_INPUT = 1, EXIT_USAGE = 2 };

/* getopt_long values of the options that have no short form; above any char
 * so that a '?' with one of them in optopt means "unexpected argument". */
enum { OPT_TARGET = 256, OPT_PTX, OPT_EMIT, OPT_VERIFY_ONLY, OPT_REMARKS, OPT_MAX_ERRORS, OPT_HELP, OPT_VERSION };

static const struct option long_options[] = {
	{"output", required_argument, NULL, 'o'},
	{"target", required_argument, NULL, OPT_TARGET},
	{"ptx", required_argument, NULL, OPT_PTX},
	{"emit", required_argument, NULL, OPT_EMIT},
	{"verify-only", no_argument, NULL, OPT_VERIFY_ONLY},
	{"remarks", no_argument, NULL, OPT_REMARKS},
	{"max-errors", required_argument, NULL, OPT_MAX_ERRORS},
	{"help", no_argument, NULL, OPT_HELP},
	{"version", no_argument, NULL, OPT_VERSION},
	{NULL, 0, NULL, 0},
};

static const char usage_text[] =
	"Usage: ptxemit [OPTIONS] [FILE|-]\n"
	"Translate MIR (see ptxemit-mir(5)) read from FILE or standard input into PTX.\n"
	"\n"
	"  -o, --output=FILE   write to FILE instead of standard output\n"
	"      --target=SM     target sm_XX, sm_XXa or sm_XXf; overrides the module's\n"
	"      --ptx=X.Y       PTX ISA version to print (default: the lowest that fits)\n"
	"      --emit=KIND     ptx (default) or isel (the selected machine instructions)\n"
	"      --verify-only   check the input and write nothing\n"
	"  -g                  mark the target for debugging (.target sm_XX, debug)\n"
	"      --remarks       report instruction selection remarks\n"
	"      --max-errors=N  stop after N errors (default 20; 0: no limit)\n"
	"      --help          print this help and exit\n"
	"      --version       print the version and exit\n"
	"\n"
	"Exit status: 0 success, 1 errors in the input, 2 usage or I/O errors.\n";

/* A usage or I/O error: "ptxemit: error: <driver.yaml text>", no location. */
static void fail(int id, ...)
{
	char msg[1024];
	va_list ap;
	va_start(ap, id);
	vsnprintf(msg, sizeof msg, px_diag_texts[id].text, ap);
	va_end(ap);
	px_diagnostic d = {PX_SEV_ERROR, "ptxemit", 0, 0, msg, NULL, 0};
	char out[sizeof msg + 64];
	px_diagnostic_format(&d, out, sizeof out);
	fputs(out, stderr);
}

/* The library's diagnostics, in the one format px_diagnostic_format defines. */
static void print_diagnostic(void *ctx, const px_diagnostic *d)
{
	(void)ctx;
	/* Header, source line and caret line; 64 covers the punctuation, the
	 * severity word, two line numbers and the indentation. */
	size_t size = (d->file ? strlen(d->file) : 0) + (d->message ? strlen(d->message) : 0) +
	              2 * d->source_len + 64;
	char *buf = malloc(size);
	if (!buf) {
		fprintf(stderr, "%s\n", d->message ? d->message : "");
		return;
	}
	px_diagnostic_format(d, buf, size);
	fputs(buf, stderr);
	free(buf);
}

/* "0" .. "4294967295" and nothing else: no sign, no spaces, no suffix. */
static int parse_count(const char *s, unsigned *out)
{
	if (!*s || strspn(s, "0123456789") != strlen(s))
		return -1;
	errno = 0;
	unsigned long v = strtoul(s, NULL, 10);
	if (errno || v > UINT_MAX)
		return -1;
	*out = (unsigned)v;
	return 0;
}

/* A PTX ISA version "X.Y" that ptxemit can print. */
static int known_ptx(const char *s)
{
	size_t major = strspn(s, "0123456789");
	if (major == 0 || major > 2 || s[major] != '.' || !isdigit((unsigned char)s[major + 1]) ||
	    s[major + 2] != '\0')
		return 0;
	unsigned v = (unsigned)atoi(s) * 10 + (unsigned)(s[major + 1] - '0');
	for (unsigned i = 0; i < px_nptx_versions; i++)
		if (px_ptx_versions[i] == v)
			return 1;
	return 0;
}

/* The option as the user wrote it, without any "=value". */
static const char *option_word(const char *arg, char *buf, size_t size)
{
	size_t n = strcspn(arg, "=");
	if (n >= size)
		n = size - 1;
	memcpy(buf, arg, n);
	buf[n] = '\0';
	return buf;
}

/* Parse the command line into *o, *input and *output. Returns -1 to go on,
 * or the exit status to stop with. */
static int parse_args(int argc, char **argv, px_options *o, const char **input, const char **output)
{
	char word[64];
	opterr = 0; /* getopt's own messages would bypass driver.yaml */
	int c;
	while ((c = getopt_long(argc, argv, ":o:g", long_options, NULL)) != -1) {
		switch (c) {
		case 'o':
			*output = optarg;
			break;
		case 'g':
			o->debug = true;
			break;
		case OPT_TARGET:
			if (!px_target_lookup(optarg, strlen(optarg))) {
				fail(PX_D_drv_bad_target, optarg);
				return EXIT_USAGE;
			}
			o->target = optarg;
			break;
		case OPT_PTX:
			if (!known_ptx(optarg)) {
				fail(PX_D_drv_bad_ptx, optarg);
				return EXIT_USAGE;
			}
			o->ptx = optarg;
			break;
		case OPT_EMIT:
			if (strcmp(optarg, "ptx") == 0) {
				o->emit = PX_EMIT_PTX;
			} else if (strcmp(optarg, "isel") == 0) {
				o->emit = PX_EMIT_ISEL;
			} else {
				fail(PX_D_drv_bad_emit, optarg);
				return EXIT_USAGE;
			}
			break;
		case OPT_VERIFY_ONLY:
			o->verify_only = true;
			break;
		case OPT_REMARKS:
			o->remarks = true;
			break;
		case OPT_MAX_ERRORS:
			if (parse_count(optarg, &o->max_errors) != 0) {
				fail(PX_D_drv_bad_max_errors, optarg);
				return EXIT_USAGE;
			}
			break;
		case OPT_HELP:
			fputs(usage_text, stdout);
			return EXIT_SUCCESS;
		case OPT_VERSION:
			puts("ptxemit " PTXEMIT_VERSION_STRING);
			return EXIT_SUCCESS;
		case ':':
			fail(PX_D_drv_missing_argument, option_word(argv[optind - 1], word, sizeof word));
			return EXIT_USAGE;
		default:
			if (optopt >= OPT_TARGET) {
				fail(PX_D_drv_unexpected_argument, option_word(argv[optind - 1], word, sizeof word));
			} else if (optopt) {
				snprintf(word, sizeof word, "-%c", optopt);
				fail(PX_D_drv_unknown_option, word);
			} else {
				fail(PX_D_drv_unknown_option, option_word(argv[optind - 1], word, sizeof word));
			}
			return EXIT_USAGE;
		}
	}
	if (argc - optind > 1) {
		fail(PX_D_drv_extra_input, argv[optind], argv[optind + 1]);
		return EXIT_USAGE;
	}
	if (optind < argc && strcmp(argv[optind], "-") != 0)
		*input = argv[optind];
	return -1;
}

int main(int argc, char **argv)
{
	px_options o;
	px_options_default(&o);
	const char *input = NULL, *output = NULL;
	int status = parse_args(argc, argv, &o, &input, &output);
	if (status >= 0)
		return status;
	if (output && strcmp(output, "-") == 0)
		output = NULL;
	const char *name = input ? input : "<stdin>";

	drv_input in;
	int err = drv_read_input(input, &in);
	if (err) {
		fail(PX_D_drv_read, name, strerror(err));
		return EXIT_USAGE;
	}

	/* The functions go to disk as they are printed (beside the output file,
	 * or in $TMPDIR for standard output): memory follows the largest
	 * function, not the module. */
	drv_spool spool = {-1, 0};
	if (!o.verify_only)
		drv_spool_open(&spool, output);
	if (spool.fd >= 0) {
		o.sink = drv_spool_write;
		o.sink_ctx = &spool;
	}
	char *out = NULL;
	size_t outlen = 0;
	int nerrors = px_translate(name, in.data, in.len, &o, print_diagnostic, NULL, &out, &outlen);
	drv_input_free(&in);
	if (nerrors || o.verify_only) {
		drv_spool_close(&spool);
		free(out);
		return nerrors ? EXIT_INPUT : EXIT_SUCCESS;
	}

	/* A closed pipe must be an error we report, not a silent death by SIGPIPE. */
	signal(SIGPIPE, SIG_IGN);
	if (spool.err)
		err = spool.err;
	else if (output)
		err = drv_write_file(output, out, outlen, spool.fd);
	else
		err = drv_write_all(1, out, outlen, spool.fd);
	drv_spool_close(&spool);
	free(out);
	if (err) {
		fail(PX_D_drv_write, output ? output : "<stdout>", strerror(err));
		return EXIT_USAGE;
	}
	return EXIT_SUCCESS;
}
