/* libptxemit: MIR in, PTX out, diagnostics through a callback.
 * The command line (src/driver) is a thin main over this; a DSL can link the
 * library and translate kernels without a process per kernel. */
#ifndef PTXEMIT_H
#define PTXEMIT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PTXEMIT_VERSION_STRING "0.1.0"

typedef enum px_emit { PX_EMIT_PTX, PX_EMIT_ISEL } px_emit;
typedef enum px_severity { PX_SEV_ERROR, PX_SEV_WARNING, PX_SEV_NOTE, PX_SEV_REMARK } px_severity;

typedef struct px_diagnostic {
	px_severity severity;
	const char *file;
	unsigned line, col;       /* 0 when the diagnostic has no location */
	const char *message;      /* the text, without "file:line:col: error: " */
	const char *source_line;  /* the offending line (not NUL-terminated), or NULL */
	size_t source_len;
	/* A warning's option as GCC spells it: "-Wmaybe-uninitialized", or
	 * "-Werror=maybe-uninitialized" for one that -Werror made an error
	 * (severity PX_SEV_ERROR then); NULL for every other diagnostic. */
	const char *option;
} px_diagnostic;

typedef void (*px_diag_fn)(void *ctx, const px_diagnostic *d);

/* Receives the printed functions, in order, while the module is translated. */
typedef void (*px_sink_fn)(void *ctx, const char *data, size_t len);

typedef struct px_options {
	const char *target;   /* "sm_90a" overrides the module's target line; NULL: the module's */
	const char *ptx;      /* "8.0": the PTX ISA version to print; NULL: the lowest that fits */
	px_emit emit;
	bool verify_only;     /* stop after the verifier; no output */
	bool debug;           /* -g: ", debug" on the .target line, and lineinfo */
	bool lineinfo;        /* --lineinfo: .file and .loc lines name the MIR (and loc) places */
	bool remarks;         /* report selection remarks */
	unsigned max_errors;  /* stop reporting after this many errors; 0: no limit */
	/* Threads that verify, select and print functions while the parser
	 * reads on (the calling thread is one of them); 0 or 1: the calling
	 * thread alone. The output and the diagnostics are the same for any
	 * number. */
	unsigned jobs;
	/* NULL: all of the output goes to *out. Otherwise the functions' text goes
	 * to sink in pieces as they are printed, so that memory follows the
	 * largest function rather than the module, and *out receives only what
	 * goes in front of it (header, globals, prototypes): the output is *out
	 * followed by everything sink received. On failure, discard what sink
	 * received. */
	px_sink_fn sink;
	void *sink_ctx;
	/* The warnings (ptxemit(1)'s -W options; px_options_warning sets them).
	 * Every warning is on by default. Bit k of a mask is the warning
	 * px_warning_name(k). */
	bool no_warnings;          /* -w: no warning is reported */
	bool warnings_are_errors;  /* -Werror: every warning is an error */
	uint64_t warn_off;         /* -Wno-NAME */
	uint64_t warn_error;       /* -Werror=NAME */
	uint64_t warn_not_error;   /* -Wno-error=NAME: a warning even under -Werror */
} px_options;

void px_options_default(px_options *o);

/* Apply one warning option to o as GCC spells it: "-WNAME", "-Wno-NAME",
 * "-Werror", "-Wno-error", "-Werror=NAME", "-Wno-error=NAME" or "-w"; a
 * later option overrides an earlier one. Returns 0, or -1 (o unchanged)
 * when flag is none of these or NAME is no warning of ptxemit's. */
int px_options_warning(px_options *o, const char *flag);

/* The name of warning k (0, 1, ...) as -W spells it without "-W"
 * ("maybe-uninitialized"), or NULL past the last. */
const char *px_warning_name(unsigned k);

/* Translate the MIR text src (len bytes; need not be NUL-terminated) named
 * filename. On success returns 0 and stores a malloc'd output in *out / *outlen
 * (NUL-terminated; for verify_only an empty string). On failure returns the
 * number of errors (>= 1) and *out is NULL. Never aborts on bad input. Every
 * diagnostic goes to diag, in source order, a successful translation's
 * warnings (and remarks) too; a note follows the error or warning it explains. */
int px_translate(const char *filename, const char *src, size_t len, const px_options *opt,
                 px_diag_fn diag, void *diag_ctx, char **out, size_t *outlen);

/* Format a diagnostic as "file:line:col: error: message\n  line\n  ^\n"
 * (a warning's message is followed by " [-Wname]", its option). */
void px_diagnostic_format(const px_diagnostic *d, char *buf, size_t size);

#endif
