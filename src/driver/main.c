/* ptxemit: the command line over libptxemit (see ptxemit(1)).
 *
 * It reads the MIR, hands it to px_translate, prints diagnostics on stderr and
 * writes the PTX. Exit status: 0 success, 1 errors in the input, 2 usage or
 * I/O errors. Its own messages are rows of data/diag/driver.yaml. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag/suggest.h"
#include "driver/input.h"
#include "driver/json.h"
#include "driver/output.h"
#include "ptxemit.h"
#include "tables/describe.h"
#include "tables/tables.h"

enum { EXIT_INPUT = 1, EXIT_USAGE = 2 };
/* -j's limit: far past any machine's cores, far below any thread limit */
enum { MAX_JOBS = 1024 };
/* Without -j, a smaller input is translated on one thread: starting threads
 * and waking one for every function cost more than they take off the calling
 * thread (make bench's jobs table shows where that turns). */
enum { JOBS_MIN_INPUT = 512 << 10 };

/* getopt_long values of the options that have no short form; above any char
 * so that a '?' with one of them in optopt means "unexpected argument". */
enum { OPT_TARGET = 256, OPT_PTX, OPT_EMIT, OPT_VERIFY_ONLY, OPT_REMARKS, OPT_MAX_ERRORS, OPT_HELP, OPT_VERSION,
       OPT_DIAG_FORMAT, OPT_LINEINFO, OPT_LIST_OPS, OPT_DESCRIBE, OPT_CUBIN, OPT_PTXAS, OPT_CUDA_HOME,
       OPT_PTXAS_OPTIONS, OPT_RESOURCE_USAGE, OPT_CACHE_DIR, OPT_CACHE_MAX, OPT_DRIVER, OPT_MAX_PTX,
       OPT_LIST_TARGETS, OPT_NVJITLINK, OPT_ASSUME_GRID };

static const struct option long_options[] = {
	{"output", required_argument, NULL, 'o'},
	{"target", required_argument, NULL, OPT_TARGET},
	{"gpu-name", required_argument, NULL, OPT_TARGET}, /* ptxas's spelling */
	{"ptx", required_argument, NULL, OPT_PTX},
	{"emit", required_argument, NULL, OPT_EMIT},
	{"verify-only", no_argument, NULL, OPT_VERIFY_ONLY},
	{"remarks", no_argument, NULL, OPT_REMARKS},
	{"max-errors", required_argument, NULL, OPT_MAX_ERRORS},
	{"assume-grid", required_argument, NULL, OPT_ASSUME_GRID},
	{"jobs", required_argument, NULL, 'j'},
	{"diagnostics-format", required_argument, NULL, OPT_DIAG_FORMAT},
	{"lineinfo", no_argument, NULL, OPT_LINEINFO},
	{"list-ops", no_argument, NULL, OPT_LIST_OPS},
	{"list-targets", no_argument, NULL, OPT_LIST_TARGETS},
	{"driver", required_argument, NULL, OPT_DRIVER},
	{"max-ptx", required_argument, NULL, OPT_MAX_PTX},
	{"describe", required_argument, NULL, OPT_DESCRIBE},
	{"cubin", no_argument, NULL, OPT_CUBIN},
	{"ptxas", required_argument, NULL, OPT_PTXAS},
	{"nvjitlink", no_argument, NULL, OPT_NVJITLINK},
	{"cuda-home", required_argument, NULL, OPT_CUDA_HOME},
	{"ptxas-options", required_argument, NULL, OPT_PTXAS_OPTIONS},
	{"resource-usage", no_argument, NULL, OPT_RESOURCE_USAGE},
	{"cache-dir", required_argument, NULL, OPT_CACHE_DIR},
	{"cache-max", required_argument, NULL, OPT_CACHE_MAX},
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
	"                      (also --gpu-name=SM and -arch=SM, as ptxas spells it)\n"
	"      --ptx=X.Y       PTX ISA version to print (default: the lowest that fits)\n"
	"      --emit=KIND     ptx (default), isel (the selected machine instructions)\n"
	"                      or mir (the module as verified, in canonical MIR)\n"
	"      --verify-only   check the input and write nothing\n"
	"      --lineinfo      name the MIR lines (and loc statements' places) with .loc\n"
	"  -g                  --lineinfo, and mark the target for debugging (, debug)\n"
	"      --remarks       report instruction selection remarks\n"
	"      --max-errors=N  stop after N errors (default 20; 0: no limit)\n"
	"      --assume-grid=X[,Y[,Z]]\n"
	"                      assume every kernel is launched as X by Y by Z CTAs\n"
	"                      (the race checks; nothing is printed)\n"
	"  -WNAME              report warning NAME (most are on by default)\n"
	"  -Wno-NAME           do not report warning NAME\n"
	"  -Werror[=NAME]      make every warning (or warning NAME) an error\n"
	"  -Wno-error=NAME     keep warning NAME a warning under -Werror\n"
	"  -w                  report no warning\n"
	"  -j, --jobs=N        translate functions on N threads (default: one per CPU\n"
	"                      for an input of 512 KiB or more, else one)\n"
	"      --diagnostics-format=FORMAT\n"
	"                      text (default) or json: one JSON array on stderr\n"
	"      --cubin         assemble with ptxas and write the cubin (also -o FILE.cubin)\n"
	"      --resource-usage\n"
	"                      report each function's registers, spills, stack and memory\n"
	"  -O N                ptxas's optimization level, 0 to 3\n"
	"      --ptxas-options=OPTS\n"
	"                      more ptxas options, separated by blanks or commas\n"
	"      --ptxas=PATH    the ptxas to run (default: on PATH, in --cuda-home/bin,\n"
	"                      $CUDA_HOME/bin or /usr/local/cuda/bin)\n"
	"      --cuda-home=DIR the CUDA installation to look in after PATH\n"
	"      --nvjitlink     assemble in-process through libnvJitLink where it opens\n"
	"      --cache-dir=DIR keep cubins in DIR and reuse them (or PTXEMIT_CACHE_DIR)\n"
	"      --cache-max=SIZE\n"
	"                      the cache's bound in bytes, K, M or G (default 256M)\n"
	"      --driver=R      refuse what driver branch R (535) cannot load\n"
	"      --max-ptx=X.Y   refuse what needs a PTX ISA version above X.Y\n"
	"      --list-targets  list the targets with their lowest PTX, driver and ptxas -arch and exit\n"
	"  @FILE               read more arguments from FILE\n"
	"      --list-ops      list the operations with their lowest target and exit\n"
	"      --describe=OP   print every form of operation OP and exit\n"
	"  -h, --help          print this help and exit\n"
	"  -V, --version       print the version and exit\n"
	"\n"
	"Exit status: 0 success, 1 errors in the input, 2 usage or I/O errors.\n";

/* With --diagnostics-format=json every diagnostic, the command line's own
 * too, is collected here and written as one array when ptxemit ends. */
static drv_json *json;

static void print_diagnostic(void *ctx, const px_diagnostic *d);

/* A usage or I/O error: "ptxemit: error: <driver.yaml text>", no location. */
static void fail(int id, ...)
{
	char msg[1024];
	va_list ap;
	va_start(ap, id);
	vsnprintf(msg, sizeof msg, px_diag_texts[id].text, ap);
	va_end(ap);
	px_diagnostic d = {.severity = PX_SEV_ERROR, .file = "ptxemit", .message = msg};
	print_diagnostic(NULL, &d);
}

/* The library's diagnostics, in the one format px_diagnostic_format defines. */
static void print_diagnostic(void *ctx, const px_diagnostic *d)
{
	(void)ctx;
	if (json) {
		drv_json_add(json, d);
		return;
	}
	/* Header, source line and caret line; 64 covers the punctuation, the
	 * severity word, two line numbers and the indentation. */
	size_t size = (d->file ? strlen(d->file) : 0) + (d->message ? strlen(d->message) : 0) +
	              2 * d->source_len + 64;
	if (d->dsl_file) /* and the note's line: the MIR's place and a second severity */
		size += strlen(d->dsl_file) + (d->file ? strlen(d->file) : 0) + 96;
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

/* "X", "X,Y" or "X,Y,Z": CTAs along each dimension, each from 1 to what
 * %nctaid may be (2^31 - 1 along x, 65535 along y and z); the rest 1. */
static int parse_grid(const char *s, unsigned grid[3])
{
	static const unsigned long most[3] = {2147483647ul, 65535ul, 65535ul};
	for (unsigned i = 0; i < 3; i++) {
		size_t digits = strspn(s, "0123456789");
		if (!digits || digits > 10)
			return -1;
		unsigned long v = strtoul(s, NULL, 10);
		if (v < 1 || v > most[i])
			return -1;
		grid[i] = (unsigned)v;
		s += digits;
		if (!*s) {
			for (unsigned j = i + 1; j < 3; j++)
				grid[j] = 1;
			return 0;
		}
		if (*s++ != ',')
			return -1;
	}
	return -1;
}

/* "N", "NK", "NM" or "NG" (powers of 1024), at least 1 byte. */
static int parse_size(const char *s, unsigned long long *out)
{
	size_t digits = strspn(s, "0123456789");
	if (!digits || digits > 12)
		return -1;
	unsigned long long v = strtoull(s, NULL, 10);
	const char *unit = s + digits;
	int shift = !*unit ? 0 : strcmp(unit, "K") == 0 ? 10 : strcmp(unit, "M") == 0 ? 20 : strcmp(unit, "G") == 0 ? 30 : -1;
	if (shift < 0 || v == 0)
		return -1;
	*out = v << shift;
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

/* The long options that "--PREFIX" (no "=value") begins, as
 * "'--a', '--b'" in buf; returns how many there are with distinct meanings. */
static int prefix_matches(const char *arg, char *buf, size_t size)
{
	size_t n = strcspn(arg + 2, "=");
	int found = 0;
	const struct option *first = NULL;
	buf[0] = '\0';
	for (const struct option *lo = long_options; lo->name; lo++) {
		if (strncmp(lo->name, arg + 2, n) != 0)
			continue;
		if (strlen(lo->name) == n)
			return 1; /* an exact name is never ambiguous */
		if (first && first->val == lo->val && first->has_arg == lo->has_arg)
			continue; /* another spelling of the same option */
		if (!first)
			first = lo;
		size_t used = strlen(buf);
		snprintf(buf + used, size - used, "%s'--%s'", found ? ", " : "", lo->name);
		found++;
	}
	return found;
}

/* The argument vector getopt sees, and the strings made for it. */
typedef struct args {
	int argc; /* "-arch sm_90" is one argument less */
	char **argv;
	char **made;
	int nmade;
} args;

/* nvcc and ptxas write the target as "-arch=sm_90" or "-arch sm_90", a long
 * option with one dash that getopt cannot take: it becomes --target. Without
 * memory for the copy, argv stays as it is and -arch is an unknown option. */
static void arch_aliases(int argc, char **argv, args *a)
{
	a->argc = argc;
	a->argv = argv;
	a->nmade = 0;
	char **v = malloc(((size_t)argc + 1) * sizeof *v);
	a->made = malloc(((size_t)argc + 1) * sizeof *a->made);
	if (!v || !a->made) {
		free(v);
		free(a->made);
		a->made = NULL;
		return;
	}
	int n = 0;
	for (int i = 0; i < argc; i++) {
		const char *arg = argv[i];
		if (i > 0 && strcmp(arg, "--") == 0) {
			while (i < argc)
				v[n++] = argv[i++];
			break;
		}
		if (i > 0 && strncmp(arg, "-arch", 5) == 0 && (arg[5] == '=' || arg[5] == '\0')) {
			const char *val = arg[5] == '=' ? arg + 6 : (i + 1 < argc ? argv[++i] : NULL);
			char *t = malloc((val ? strlen(val) : 0) + sizeof "--target=");
			if (t) {
				strcpy(t, val ? "--target=" : "--target");
				strcat(t, val ? val : "");
				a->made[a->nmade++] = t;
				v[n++] = t;
				continue;
			}
		}
		v[n++] = argv[i];
	}
	v[n] = NULL;
	a->argc = n;
	a->argv = v;
}

static void free_aliases(args *a)
{
	if (!a->made)
		return;
	for (int i = 0; i < a->nmade; i++)
		free(a->made[i]);
	free(a->made);
	free(a->argv);
	a->made = NULL;
}

/* --list-ops (op NULL) or --describe=op on standard output. */
static int print_tables(const char *op)
{
	px_buf out;
	px_buf_init(&out);
	if (!op) {
		px_list_ops(&out);
	} else {
		const px_op_def *d = px_op_lookup(op, strlen(op));
		if (!d || (d->flags & PX_OPF_INTERNAL)) {
			px_suggest sg;
			px_suggest_init(&sg, op, strlen(op));
			for (unsigned i = 0; i < px_nops; i++)
				if (!(px_ops[i].flags & PX_OPF_INTERNAL))
					px_suggest_offer_str(&sg, px_ops[i].name);
			if (sg.best)
				fail(PX_D_drv_describe_unknown_hint, op, (int)sg.best_n, sg.best);
			else
				fail(PX_D_drv_describe_unknown, op);
			px_buf_free(&out);
			return EXIT_USAGE;
		}
		px_describe_op(&out, d);
	}
	int err = drv_write_fd(1, out.data ? out.data : "", out.len);
	px_buf_free(&out);
	if (err) {
		fail(PX_D_drv_write, "<stdout>", strerror(err));
		return EXIT_USAGE;
	}
	return EXIT_SUCCESS;
}

/* --list-targets: each target, its lowest PTX ISA version, what its code
 * runs on (an a target: that SM alone; an f target: its family), the
 * oldest driver that loads it, and where ptxas takes it under another -arch,
 * from which CUDA release on (data/targets.yaml; the test suite reads it). */
static int list_targets(void)
{
	px_buf out;
	px_buf_init(&out);
	px_buf_puts(&out, "target    PTX   a/f family              driver           ptxas\n");
	for (unsigned i = 0; i < px_ntargets; i++) {
		const px_target *t = &px_targets[i];
		unsigned k = 0;
		while (k + 1 < px_nptx_versions && px_ptx_versions[k] < t->ptx)
			k++;
		char runs[64];
		if (t->suffix == 'a')
			snprintf(runs, sizeof runs, "sm_%u only (a)", t->sm);
		else if (t->suffix == 'f')
			snprintf(runs, sizeof runs, "the sm_%u family (f)", t->family);
		else
			snprintf(runs, sizeof runs, "-");
		char driver[32];
		snprintf(driver, sizeof driver, "%u (CUDA %u.%u)", px_ptx_driver[k], px_ptx_cuda[k] / 10, px_ptx_cuda[k] % 10);
		if (t->ptxas_arch && t->ptxas_cuda)
			px_buf_printf(&out, "%-9s %u.%u   %-23s %-16s -arch=%s from CUDA %u.%u\n", t->name, t->ptx / 10,
			              t->ptx % 10, runs, driver, t->ptxas_arch, t->ptxas_cuda / 10, t->ptxas_cuda % 10);
		else
			px_buf_printf(&out, "%-9s %u.%u   %-23s %s\n", t->name, t->ptx / 10, t->ptx % 10, runs, driver);
	}
	int err = drv_write_fd(1, out.data, out.len);
	px_buf_free(&out);
	if (err) {
		fail(PX_D_drv_write, "<stdout>", strerror(err));
		return EXIT_USAGE;
	}
	return EXIT_SUCCESS;
}

/* The long option NAME (n bytes, without "--") names: the one spelled so, or
 * the only one it abbreviates, as getopt_long reads it; NULL if none or several. */
static const struct option *named_option(const char *name, size_t n)
{
	const struct option *hit = NULL;
	for (const struct option *o = long_options; o->name; o++) {
		if (strncmp(o->name, name, n) != 0)
			continue;
		if (o->name[n] == '\0')
			return o;
		if (hit)
			return NULL;
		hit = o;
	}
	return hit;
}

/* Whether the diagnostics are JSON: decided before the options are parsed,
 * so that a mistake in any of them is reported in the format asked for. The
 * last --diagnostics-format (or an abbreviation of it) wins, as options do;
 * "--" ends the options. */
static bool diagnostics_json(int argc, char **argv)
{
	bool j = false;
	for (int i = 1; i < argc; i++) {
		const char *v = NULL;
		if (strcmp(argv[i], "--") == 0)
			break;
		if (strncmp(argv[i], "--", 2) == 0) {
			const char *name = argv[i] + 2, *eq = strchr(name, '=');
			const struct option *o = named_option(name, eq ? (size_t)(eq - name) : strlen(name));
			if (o && o->val == OPT_DIAG_FORMAT)
				v = eq ? eq + 1 : i + 1 < argc ? argv[++i] : NULL;
			else if (o && o->has_arg == required_argument && !eq)
				i++; /* the option's argument, whatever it reads */
		} else if (strcmp(argv[i], "-o") == 0 || strcmp(argv[i], "-W") == 0) {
			i++; /* -o's argument is a file name, -W's a warning, whatever they read */
		}
		if (v && strcmp(v, "json") == 0)
			j = true;
		else if (v && strcmp(v, "text") == 0)
			j = false;
	}
	return j;
}

/* Parse the command line into *o, *input and *output. Returns -1 to go on,
 * or the exit status to stop with. */
/* -W<arg> (GCC's spellings, px_options_warning): false after reporting an
 * option that names no warning, with the nearest name when one is near. */
static bool warning_option(px_options *o, const char *arg)
{
	char flag[256];
	snprintf(flag, sizeof flag, "-W%s", arg);
	if (px_options_warning(o, flag) == 0)
		return true;
	/* the name after whichever prefix GCC's spellings put before it */
	static const char *const prefixes[] = {"no-error=", "error=", "no-", ""};
	const char *prefix = "", *name = arg;
	for (unsigned i = 0; i < sizeof prefixes / sizeof *prefixes; i++)
		if (strncmp(arg, prefixes[i], strlen(prefixes[i])) == 0) {
			prefix = prefixes[i];
			name = arg + strlen(prefix);
			break;
		}
	px_suggest sg;
	px_suggest_init(&sg, name, strlen(name));
	for (unsigned k = 0; px_warning_name(k); k++)
		px_suggest_offer_str(&sg, px_warning_name(k));
	char shown[256];
	snprintf(shown, sizeof shown, "-W%s", prefix);
	if (sg.best)
		fail(PX_D_drv_unknown_warning_hint, flag, shown, (int)sg.best_n, sg.best);
	else
		fail(PX_D_drv_unknown_warning, flag);
	return false;
}

static int parse_args(int argc, char **argv, px_options *o, const char **input, const char **output)
{
	char word[64], names[256];
	opterr = 0; /* getopt's own messages would bypass driver.yaml */
	int c;
	while ((c = getopt_long(argc, argv, ":o:j:O:ghVW:w", long_options, NULL)) != -1) {
		switch (c) {
		case 'W':
			if (!warning_option(o, optarg))
				return EXIT_USAGE;
			break;
		case 'w':
			o->no_warnings = true;
			break;
		case 'o':
			*output = optarg;
			break;
		case 'O':
			if (strlen(optarg) != 1 || optarg[0] < '0' || optarg[0] > '3') {
				fail(PX_D_drv_bad_opt_level, optarg);
				return EXIT_USAGE;
			}
			o->opt_level = optarg[0] - '0';
			break;
		case OPT_CUBIN:
			o->cubin = true;
			break;
		case OPT_RESOURCE_USAGE:
			o->resource_usage = true;
			break;
		case OPT_PTXAS:
			o->ptxas = optarg;
			break;
		case OPT_NVJITLINK:
			o->in_process = true;
			break;
		case OPT_CUDA_HOME:
			o->cuda_home = optarg;
			break;
		case OPT_PTXAS_OPTIONS:
			o->ptxas_options = optarg;
			break;
		case OPT_CACHE_DIR:
			o->cache_dir = *optarg ? optarg : NULL;
			break;
		case OPT_CACHE_MAX:
			if (parse_size(optarg, &o->cache_max) != 0) {
				fail(PX_D_drv_bad_cache_max, optarg);
				return EXIT_USAGE;
			}
			break;
		case 'g':
			o->debug = true;
			break;
		case OPT_TARGET:
			if (!px_target_lookup(optarg, strlen(optarg))) {
				const char *near = px_suggest_target(optarg, strlen(optarg));
				char nearest[128];
				px_suggest_target_numbers(optarg, strlen(optarg), nearest, sizeof nearest);
				if (near)
					fail(PX_D_drv_bad_target_hint, optarg, near);
				else if (nearest[0])
					fail(PX_D_drv_bad_target_hints, optarg, nearest);
				else
					fail(PX_D_drv_bad_target, optarg);
				return EXIT_USAGE;
			}
			o->target = optarg;
			break;
		case OPT_PTX:
			if (!px_ptx_version_known(px_ptx_version_parse(optarg, strlen(optarg)))) {
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
			} else if (strcmp(optarg, "mir") == 0) {
				o->emit = PX_EMIT_MIR;
			} else {
				fail(PX_D_drv_bad_emit, optarg);
				return EXIT_USAGE;
			}
			break;
		case OPT_VERIFY_ONLY:
			o->verify_only = true;
			break;
		case OPT_LINEINFO:
			o->lineinfo = true;
			break;
		case OPT_REMARKS:
			o->remarks = true;
			break;
		case OPT_DIAG_FORMAT:
			/* already applied by diagnostics_format(); only checked here */
			if (strcmp(optarg, "text") != 0 && strcmp(optarg, "json") != 0) {
				fail(PX_D_drv_bad_diag_format, optarg);
				return EXIT_USAGE;
			}
			break;
		case OPT_ASSUME_GRID:
			if (parse_grid(optarg, o->assume_grid) != 0) {
				fail(PX_D_drv_bad_grid, optarg);
				return EXIT_USAGE;
			}
			break;
		case OPT_MAX_ERRORS:
			if (parse_count(optarg, &o->max_errors) != 0) {
				fail(PX_D_drv_bad_max_errors, optarg);
				return EXIT_USAGE;
			}
			break;
		case 'j':
			if (parse_count(optarg, &o->jobs) != 0 || o->jobs < 1 || o->jobs > MAX_JOBS) {
				fail(PX_D_drv_bad_jobs, optarg, MAX_JOBS);
				return EXIT_USAGE;
			}
			break;
		case OPT_DRIVER:
			if (parse_count(optarg, &o->driver) != 0 || o->driver == 0 || o->driver > 9999) {
				fail(PX_D_drv_bad_driver, optarg);
				return EXIT_USAGE;
			}
			if (o->driver < px_ptx_driver[0]) {
				fail(PX_D_driver_too_old, o->driver, px_ptx_versions[0] / 10, px_ptx_versions[0] % 10,
				     px_ptx_driver[0]);
				return EXIT_USAGE;
			}
			break;
		case OPT_MAX_PTX:
			if (!px_ptx_version_known(px_ptx_version_parse(optarg, strlen(optarg)))) {
				fail(PX_D_drv_bad_ptx, optarg);
				return EXIT_USAGE;
			}
			o->max_ptx = optarg;
			break;
		case OPT_LIST_TARGETS:
			return list_targets();
		case OPT_LIST_OPS:
		case OPT_DESCRIBE:
			return print_tables(c == OPT_DESCRIBE ? optarg : NULL);
		case 'h':
		case OPT_HELP:
			fputs(usage_text, stdout);
			return EXIT_SUCCESS;
		case 'V':
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
			} else if (strncmp(argv[optind - 1], "--", 2) == 0 &&
			           prefix_matches(argv[optind - 1], names, sizeof names) > 1) {
				fail(PX_D_drv_ambiguous_option, option_word(argv[optind - 1], word, sizeof word), names);
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

static int run(int argc, char **argv);

/* A response file's words: blanks and newlines separate them; '...' keeps
 * everything inside, "..." everything but a backslash's escape, and a
 * backslash outside single quotes takes the next character as it is (as
 * GCC reads @file). Appends to *v; the words live in *text. */
static void split_words(char *text, char ***v, int *n, int *cap)
{
	char *in = text, *out = text;
	while (*in) {
		while (*in == ' ' || *in == '\t' || *in == '\n' || *in == '\r')
			in++;
		if (!*in)
			break;
		char *word = out;
		char quote = 0;
		for (; *in; in++) {
			if (quote == '\'' && *in != '\'') {
				*out++ = *in;
			} else if (*in == '\\' && in[1]) {
				*out++ = *++in;
			} else if (*in == quote) {
				quote = 0;
			} else if (!quote && (*in == '\'' || *in == '"')) {
				quote = *in;
			} else if (!quote && (*in == ' ' || *in == '\t' || *in == '\n' || *in == '\r')) {
				break;
			} else {
				*out++ = *in;
			}
		}
		if (*in)
			in++;
		*out++ = '\0';
		if (*n + 1 >= *cap) {
			*cap = *cap * 2 + 8;
			*v = realloc(*v, (size_t)*cap * sizeof **v);
			if (!*v)
				abort();
		}
		(*v)[(*n)++] = word;
	}
}

/* @file arguments (before "--") replaced by the words of the file, which may
 * name more files, up to RESPONSE_DEPTH deep. Returns 0, or the exit status
 * after an error. The vector and the texts are kept to the end. */
enum { RESPONSE_DEPTH = 16 };
/* The response files' texts, which the expanded arguments point into. */
static char **response_texts;
static size_t nresponse_texts;

static void keep_response_text(char *text)
{
	char **grown = realloc(response_texts, (nresponse_texts + 1) * sizeof *grown);
	if (!grown)
		abort();
	response_texts = grown;
	response_texts[nresponse_texts++] = text;
}

static void free_responses(char **argv)
{
	for (size_t i = 0; i < nresponse_texts; i++)
		free(response_texts[i]);
	free(response_texts);
	response_texts = NULL;
	nresponse_texts = 0;
	free(argv);
}

static int expand_responses(int argc, char **argv, int *nargc, char ***nargv, int depth)
{
	int n = 0, cap = argc + 8;
	char **v = malloc((size_t)cap * sizeof *v);
	if (!v)
		abort();
	bool options = true;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--") == 0 && i > 0)
			options = false;
		if (i == 0 || !options || a[0] != '@' || !a[1]) {
			if (n + 1 >= cap) {
				cap = cap * 2 + 8;
				v = realloc(v, (size_t)cap * sizeof *v);
				if (!v)
					abort();
			}
			v[n++] = (char *)a;
			continue;
		}
		if (depth == RESPONSE_DEPTH) {
			fail(PX_D_drv_response_depth, a + 1, RESPONSE_DEPTH);
			free(v);
			return EXIT_USAGE;
		}
		drv_input in;
		int err = drv_read_input(a + 1, &in);
		if (err) {
			fail(PX_D_drv_read, a + 1, strerror(err));
			free(v);
			return EXIT_USAGE;
		}
		char *text = malloc(in.len + 1);
		if (!text)
			abort();
		memcpy(text, in.data, in.len);
		text[in.len] = '\0';
		drv_input_free(&in);
		keep_response_text(text);
		int m = 0, mcap = 8;
		char **words = malloc((size_t)mcap * sizeof *words);
		if (!words)
			abort();
		words[m++] = argv[0];
		split_words(text, &words, &m, &mcap);
		int sub_n;
		char **sub;
		int st = expand_responses(m, words, &sub_n, &sub, depth + 1);
		free(words);
		if (st) {
			free(v);
			return st;
		}
		for (int k = 1; k < sub_n; k++) {
			if (n + 1 >= cap) {
				cap = cap * 2 + 8;
				v = realloc(v, (size_t)cap * sizeof *v);
				if (!v)
					abort();
			}
			v[n++] = sub[k];
		}
		free(sub);
	}
	v[n] = NULL;
	*nargc = n;
	*nargv = v;
	return 0;
}

int main(int argc, char **argv)
{
	drv_json collected;
	if (diagnostics_json(argc, argv)) {
		drv_json_init(&collected);
		json = &collected;
	}
	int nargc;
	char **nargv;
	int status = expand_responses(argc, argv, &nargc, &nargv, 0);
	if (!status) {
		if (diagnostics_json(nargc, nargv) && !json) {
			drv_json_init(&collected);
			json = &collected;
		}
		status = run(nargc, nargv);
		free_responses(nargv);
	} else {
		free_responses(NULL);
	}
	if (json)
		drv_json_finish(json, stderr);
	return status;
}

static int run(int argc, char **argv)
{
	px_options o;
	px_options_default(&o);
	/* the cache a DSL's environment names, unless --cache-dir says otherwise */
	const char *cache = getenv("PTXEMIT_CACHE_DIR");
	if (cache && *cache)
		o.cache_dir = cache;
	const char *input = NULL, *output = NULL;
	args a;
	arch_aliases(argc, argv, &a);
	int status = parse_args(a.argc, a.argv, &o, &input, &output);
	if (status < 0 && output && strcmp(output, "-") == 0)
		output = NULL;
	/* -o FILE.cubin asks for the cubin: PTX text there would be a trap */
	size_t olen = output ? strlen(output) : 0;
	bool by_suffix = status < 0 && !o.cubin && olen > 6 && strcmp(output + olen - 6, ".cubin") == 0;
	if (by_suffix)
		o.cubin = true;
	if (status < 0 && (o.cubin || o.resource_usage) && o.emit != PX_EMIT_PTX) {
		fail(PX_D_drv_assemble_no_ptx, by_suffix ? "-o FILE.cubin" : o.cubin ? "--cubin" : "--resource-usage",
		     o.emit == PX_EMIT_ISEL ? "isel" : "mir");
		status = EXIT_USAGE;
	}
	if (status < 0 && (o.cubin || o.resource_usage) && !o.verify_only && o.emit == PX_EMIT_PTX) {
		char where[4200];
		if (px_find_ptxas(&o, where, sizeof where) != 0) {
			if (o.ptxas)
				fail(PX_D_cubin_bad_ptxas, o.ptxas);
			else
				fail(PX_D_cubin_no_ptxas, where);
			status = EXIT_USAGE;
		}
	}
	if (status < 0 && input && output && drv_same_file(input, output)) {
		fail(PX_D_drv_output_is_input, output);
		status = EXIT_USAGE;
	}
	if (status >= 0) {
		free_aliases(&a);
		return status;
	}
	const char *name = input ? input : "<stdin>";

	drv_input in;
	int err = drv_read_input(input, &in);
	if (err) {
		fail(PX_D_drv_read, name, strerror(err));
		free_aliases(&a);
		return EXIT_USAGE;
	}
	if (!o.jobs) { /* no -j */
		long cpus = in.len < JOBS_MIN_INPUT ? 1 : sysconf(_SC_NPROCESSORS_ONLN);
		o.jobs = cpus < 1 ? 1 : cpus > MAX_JOBS ? MAX_JOBS : (unsigned)cpus;
	}

	/* The functions go to disk as they are printed (beside the output file,
	 * or in $TMPDIR for standard output): memory follows the largest
	 * function, not the module. */
	drv_spool spool = {-1, 0};
	if (!o.verify_only && !o.cubin && !o.resource_usage)
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
		free_aliases(&a);
		return nerrors ? EXIT_INPUT : EXIT_SUCCESS;
	}

	/* A closed pipe on an output file (a FIFO) is an error we report; on
	 * standard output (ptxemit ... | head -1) the reader has all it wanted,
	 * and SIGPIPE ends ptxemit quietly, as it ends cat. */
	if (output)
		signal(SIGPIPE, SIG_IGN);
	if (spool.err)
		err = spool.err;
	else if (output)
		err = drv_write_file(output, out, outlen, spool.fd);
	else
		err = drv_write_all(1, out, outlen, spool.fd);
	drv_spool_close(&spool);
	free(out);
	free_aliases(&a);
	if (err) {
		fail(PX_D_drv_write, output ? output : "<stdout>", strerror(err));
		return EXIT_USAGE;
	}
	return EXIT_SUCCESS;
}
