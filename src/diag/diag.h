/* Reporting: every stage reports through one px_diags, which counts errors,
 * formats the table text (data/diag/) and hands the result to the
 * library user's callback. */
#ifndef PX_DIAG_H
#define PX_DIAG_H
#include <stdbool.h>

#include "util/loc.h"
#include "ptxemit.h"

typedef struct px_diags {
	px_diag_fn fn;
	void *ctx;
	const char *file;
	const char *src;
	size_t len;
	unsigned nerrors;
	unsigned max_errors;   /* the callback hears at most this many errors (0: all) */
	struct px_diag_entry *kept; /* collected until px_diags_flush */
	size_t nkept, cap;
	/* the line index of src when a module of the same text has one
	 * (px_module_init lends it, so the last flush comes before that
	 * module's px_module_free); else px_diags_flush makes its own */
	struct px_lines *lines;
	/* where loc statements hold in src (the module lends it like lines):
	 * each message inside one names that DSL place too; NULL: none */
	const struct px_dslmap *dsl;
	/* the warning options in force (NULL: px_options_default's) */
	const px_options *warn;
	bool dropping;         /* the last warning was dropped: so are its notes */
} px_diags;

void px_diags_init(px_diags *d, const char *file, const char *src, size_t len, px_diag_fn fn,
                   void *ctx, unsigned max_errors);
/* id is a PX_D_* row; the row's text is the printf format for the arguments. */
void px_error(px_diags *d, px_loc loc, int id, ...);
void px_report(px_diags *d, px_severity sev, px_loc loc, int id, ...);
/* A message whose record carries more than its text: extra's code,
 * ptx_line, usage and DSL place (a DSL place here wins over loc's) are
 * copied; what they point to must live until the flush. loc may be unknown. */
void px_report_with(px_diags *d, px_severity sev, px_loc loc, const px_diagnostic *extra, int id, ...);
/* A warning: id is a row with a warning: name. d->warn decides whether it
 * is reported, and whether as an error. */
void px_warn(px_diags *d, px_loc loc, int id, ...);
/* A note that explains the error or warning just reported (dropped with a
 * dropped warning). */
void px_note(px_diags *d, px_loc loc, int id, ...);

/* What the options make of a warning (diag/warnings.c). */
typedef enum px_warning_fate { PX_WARN_REPORT, PX_WARN_ERROR, PX_WARN_DROP } px_warning_fate;
px_warning_fate px_warning_decide(const px_options *o, int id);
/* An error at loc whose source line is not shown (it holds raw bytes). */
void px_error_unquoted(px_diags *d, px_loc loc, int id, ...);
/* A location-less error (usage of the library, I/O) with the row's format. */
void px_error_noloc(px_diags *d, int id, ...);
/* Where the diagnostics stand, and a return there that forgets (and frees)
 * what came after: the parser takes back the messages of a top-level item
 * it parses a second time. */
typedef struct px_diag_mark {
	size_t nkept;
	unsigned nerrors;
} px_diag_mark;
px_diag_mark px_diags_mark(const px_diags *d);
void px_diags_rewind(px_diags *d, px_diag_mark m);
/* Messages collected apart (a function translated on a worker thread), to
 * go in where d had collected at messages of its own. */
typedef struct px_diag_part {
	size_t at;
	struct px_diag_entry *kept;
	size_t n;
} px_diag_part;
/* Take everything from collected (from is left empty). */
px_diag_part px_diags_take(px_diags *from, size_t at);
/* Take the first n messages collected (from keeps the rest, and counts the
 * errors it took still). */
px_diag_part px_diags_take_first(px_diags *from, size_t at, size_t n);
/* Put the parts (in order of at) among d's own messages, as though d had
 * collected them there. Error counts are the caller's to add. */
void px_diags_merge(px_diags *d, const px_diag_part *parts, size_t nparts);
/* Hand everything collected to the callback in source order (notes after their
 * error or warning), stopping after max_errors errors with a "too many errors" line. */
void px_diags_flush(px_diags *d);
/* "error", "warning", "note" or "remark" (diag/format.c; the JSON output says the same). */
const char *px_severity_name(px_severity sev);

#endif
