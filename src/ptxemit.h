/* libptxemit: MIR in, PTX out, diagnostics through a callback.
 * The command line (src/driver) is a thin main over this; a DSL can link the
 * library and translate kernels without a process per kernel. */
#ifndef PTXEMIT_H
#define PTXEMIT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PTXEMIT_VERSION_STRING "0.1.0"

/* What px_translate prints: PTX, the selected machine instructions, or the
 * module in canonical MIR as the verifier understood it (ptxemit(1), --emit). */
typedef enum px_emit { PX_EMIT_PTX, PX_EMIT_ISEL, PX_EMIT_MIR } px_emit;
typedef enum px_severity { PX_SEV_ERROR, PX_SEV_WARNING, PX_SEV_NOTE, PX_SEV_REMARK } px_severity;

/* What ptxas -v says one function uses (ptxemit(1), --resource-usage). */
typedef struct px_resource_usage {
	const char *function;   /* its PTX name (the MIR name without '@') */
	bool kernel;
	unsigned registers;     /* per thread; 0 for a function ptxas does not allocate alone */
	unsigned barriers;      /* named barriers */
	unsigned stack;         /* bytes of stack frame per thread */
	unsigned spill_stores, spill_loads; /* bytes spilled to, and reloaded from, local memory */
	unsigned shared;        /* bytes of static shared memory per block */
	unsigned local;         /* bytes of local memory per thread (lmem) */
	unsigned constant;      /* bytes of constant memory: all its banks (cmem[N]) summed */
} px_resource_usage;

typedef struct px_diagnostic {
	px_severity severity;
	const char *file;
	unsigned line, col;       /* 0 when the diagnostic has no location */
	const char *message;      /* the text, without "file:line:col: error: " */
	const char *source_line;  /* the offending line (not NUL-terminated), or NULL */
	size_t source_len;
	/* Where a loc statement in force at file:line:col says the MIR came from
	 * (the generator's own source); dsl_file NULL when none is. dsl_col 0:
	 * the loc named no column. */
	const char *dsl_file;
	unsigned dsl_line, dsl_col;
	/* The assembler's messages (px_options.cubin, resource_usage): its code
	 * ("C7515"; NULL: none), the line of the assembled PTX it named (0:
	 * none), and on the remark that reports a function's resources, the
	 * record (NULL otherwise). */
	const char *code;
	unsigned ptx_line;
	const px_resource_usage *usage;
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
	/* The newest PTX the loading driver takes: driver (a branch such as 535;
	 * 0: any) or max_ptx ("8.2"; NULL: any), the lower when both. A statement
	 * (or the target) that needs a newer version is an error there. */
	unsigned driver;
	const char *max_ptx;
	/* Assemble the PTX with ptxas: *out receives the cubin (sink is not
	 * used). Its messages become diagnostics at the MIR statements (and
	 * loc places) that printed the lines they name. */
	bool cubin;
	/* Report each function's resources (ptxas -v) as a remark carrying a
	 * px_resource_usage; without cubin the PTX is still the output. */
	bool resource_usage;
	/* Assemble in this process through NVIDIA's libnvJitLink, opened with
	 * dlopen ($PTXEMIT_NVJITLINK, else libnvJitLink.so.13, .so.12, .so);
	 * where it does not open, ptxas runs as without this. */
	bool in_process;
	const char *ptxas;         /* the assembler; NULL: px_find_ptxas's search */
	const char *cuda_home;     /* searched after PATH; NULL: $CUDA_HOME, then /usr/local/cuda */
	int opt_level;             /* ptxas -O0 .. -O3; -1 (the default): ptxas's own */
	const char *ptxas_options; /* more ptxas options, separated by blanks or commas */
	/* A directory of assembled cubins (created if missing), looked up by the
	 * PTX, the assembler and every option that decides the cubin: a hit
	 * runs no ptxas and replays its messages; NULL: none. */
	const char *cache_dir;
	/* Its bound in bytes: past it the entries used longest ago are removed;
	 * 0: 256 MiB. */
	unsigned long long cache_max;
	/* The warnings (ptxemit(1)'s -W options; px_options_warning sets them).
	 * Every warning is on by default but those ptxemit(1) says are off
	 * until -WNAME (px_options_default sets warn_off so). Bit k of a mask
	 * is the warning px_warning_name(k). */
	bool no_warnings;          /* -w: no warning is reported */
	bool warnings_are_errors;  /* -Werror: every warning is an error */
	uint64_t warn_off;         /* -Wno-NAME */
	uint64_t warn_error;       /* -Werror=NAME */
	uint64_t warn_not_error;   /* -Wno-error=NAME: a warning even under -Werror */
	/* --assume-grid: the CTAs along x, y and z every kernel is launched with, which
	 * the hazard checks assume (two CTAs race only where there are two);
	 * 0: not given (as many as the kernel's %nctaid allows). Nothing is
	 * printed of it: PTX has no directive for the grid. */
	unsigned assume_grid[3];
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

/* The assembler px_translate would use for o: with o->in_process the
 * libnvJitLink that opens; else the ptxas it would run (o->ptxas, else the
 * first on PATH, else in o->cuda_home or $CUDA_HOME, then /usr/local/cuda,
 * under bin/):
 * 0 and its path in path, or -1 when there is none (path then lists where
 * it was looked for). */
int px_find_ptxas(const px_options *o, char *path, size_t size);

/* Format a diagnostic as "file:line:col: error: message\n  line\n  ^\n"
 * (a warning's message is followed by " [-Wname]", its option).
 * One with a DSL place reads "dsl:line:col: error: message\n" followed by
 * "file:line:col: note: from this MIR statement\n  line\n  ^\n": the
 * generator's line first, for the author who wrote it, then the MIR. */
void px_diagnostic_format(const px_diagnostic *d, char *buf, size_t size);

#endif
