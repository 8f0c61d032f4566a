/* pxgen: turns the YAML files of data/ into the C tables of src/tables/tables.h.
 *
 *   pxgen -o OUTDIR file.yaml...
 *
 * Every file is loaded first; the kinds are then read in dependency order
 * (register classes before types, types before special registers and
 * operations), so the command line may name the files in any order. A file's
 * kind comes from its path: types.yaml, regclasses.yaml, targets.yaml,
 * sregs.yaml, directives.yaml, flags.yaml, names.yaml, mma_desc.yaml, patterns.yaml by
 * basename; anything under a diag/ directory is a diagnostics list and
 * anything under ops/ an operations list.
 *
 * The first mistake stops the run with `file:line:col: error: ...` naming the
 * YAML node at fault. OUTDIR/px_tables.h and OUTDIR/px_tables.c are written to
 * temporary files and renamed only when everything succeeded, so a failed run
 * never leaves half a table behind for make to trust. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pxgen.h"

/* Names that must stay distinct in C. */
static void check_unique_sanitized(const char *what, const char *const *names, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char *a = sanitize(names[i]);
		for (size_t j = 0; j < i; j++) {
			char *b = sanitize(names[j]);
			if (!strcmp(a, b)) {
				fprintf(stderr, "pxgen: error: %s '%s' and '%s' both become _%s\n", what, names[j], names[i], a);
				exit(1);
			}
			free(b);
		}
		free(a);
	}
}

static void check_op_names(void)
{
	const char **names = xrealloc(NULL, (M.nops + 1) * sizeof *names);
	for (size_t i = 0; i < M.nops; i++)
		names[i] = M.ops[i].name;
	check_unique_sanitized("ops", names, M.nops);
	free(names);
}

/* ---------------------------------------------------------------- files */

static enum file_kind kind_of(const char *path)
{
	static const char *const bases[] = {"regclasses.yaml", "types.yaml", "targets.yaml", "sregs.yaml",
	                                    "directives.yaml", "flags.yaml"};
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	for (int k = 0; k < 6; k++)
		if (!strcmp(base, bases[k]))
			return (enum file_kind)k;
	if (!strcmp(base, "mma_desc.yaml"))
		return K_MMA;
	if (!strcmp(base, "desc.yaml"))
		return K_DESC;
	if (!strcmp(base, "patterns.yaml"))
		return K_PATTERNS;
	if (!strcmp(base, "families.yaml"))
		return K_FAMILIES;
	if (!strcmp(base, "names.yaml"))
		return K_NAMES;
	if (strstr(path, "/diag/") || !strncmp(path, "diag/", 5))
		return K_DIAG;
	if (strstr(path, "/ops/") || !strncmp(path, "ops/", 4))
		return K_OPS;
	fprintf(stderr, "pxgen: error: %s: not a known table file (types.yaml, ..., diag/*.yaml, ops/*.yaml)\n", path);
	exit(1);
}

static void load(yfile *f)
{
	FILE *in = fopen(f->path, "rb");
	if (!in) {
		fprintf(stderr, "pxgen: error: %s: %s\n", f->path, strerror(errno));
		exit(1);
	}
	yaml_parser_t parser;
	yaml_parser_initialize(&parser);
	yaml_parser_set_input_file(&parser, in);
	if (!yaml_parser_load(&parser, &f->doc)) {
		fprintf(stderr, "%s:%lu:%lu: error: %s\n", f->path, (unsigned long)parser.problem_mark.line + 1,
		        (unsigned long)parser.problem_mark.column + 1, parser.problem ? parser.problem : "bad YAML");
		exit(1);
	}
	yaml_parser_delete(&parser);
	fclose(in);
}

static void (*const readers[K_NKINDS])(void) = {
	[K_REGCLASSES] = read_regclasses, [K_TYPES] = read_types, [K_TARGETS] = read_targets,
	[K_SREGS] = read_sregs, [K_DIRECTIVES] = read_directives, [K_FLAGS] = read_flags,
	[K_DIAG] = read_diags, [K_OPS] = read_ops, [K_MMA] = read_mma, [K_PATTERNS] = read_patterns,
	[K_FAMILIES] = read_families, [K_DESC] = read_desc, [K_NAMES] = read_names,
};

/* Writes path through a temporary file: returns the temporary's name. */
static char *write_temp(const char *dir, const char *name, const sbuf *b)
{
	sbuf path = {0};
	sb_printf(&path, "%s/%s.tmp", dir, name);
	FILE *out = fopen(path.p, "wb");
	if (!out || fwrite(b->p, 1, b->n, out) != b->n || fclose(out)) {
		fprintf(stderr, "pxgen: error: %s: %s\n", path.p, strerror(errno));
		remove(path.p);
		exit(1);
	}
	return path.p;
}

/* Whether the file at path holds exactly b's bytes. */
static bool same_content(const char *path, const sbuf *b)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return false;
	char chunk[1 << 16];
	size_t at = 0, n;
	bool same = true;
	while (same && (n = fread(chunk, 1, sizeof chunk, f)) > 0) {
		same = at + n <= b->n && memcmp(chunk, b->p + at, n) == 0;
		at += n;
	}
	same = same && !ferror(f) && at == b->n;
	fclose(f);
	return same;
}

/* The temporary replaces the file only where their bytes differ: a file
 * left as it was keeps its time, so that make recompiles only what includes
 * a file that changed (the header holds no diagnostic's text, so editing
 * one rewrites px_tables.c alone). */
static void install(const char *dir, const char *name, char *tmp, const sbuf *b)
{
	sbuf path = {0};
	sb_printf(&path, "%s/%s", dir, name);
	if (same_content(path.p, b)) {
		remove(tmp);
		free(path.p);
		free(tmp);
		return;
	}
	if (rename(tmp, path.p)) {
		fprintf(stderr, "pxgen: error: %s: %s\n", path.p, strerror(errno));
		exit(1);
	}
	free(path.p);
	free(tmp);
}

int main(int argc, char **argv)
{
	if (argc < 3 || strcmp(argv[1], "-o")) {
		fprintf(stderr, "usage: pxgen -o OUTDIR file.yaml...\n");
		return 1;
	}
	const char *outdir = argv[2];
	size_t nfiles = (size_t)argc - 3;
	yfile *files = xrealloc(NULL, (nfiles + 1) * sizeof *files);
	for (size_t i = 0; i < nfiles; i++) {
		files[i] = (yfile){.path = argv[i + 3], .kind = kind_of(argv[i + 3])};
		load(&files[i]);
	}
	/* Targets come before the windows that are checked against its PTX versions. */
	/* Diagnostics come before the directives and ops that name them. */
	static const enum file_kind order[] = {K_REGCLASSES, K_TARGETS, K_TYPES, K_SREGS,     K_DIAG,
	                                       K_DIRECTIVES, K_FLAGS,   K_FAMILIES, K_OPS, K_PATTERNS, K_MMA, K_DESC, K_NAMES};
	for (size_t k = 0; k < K_NKINDS; k++) {
		for (size_t i = 0; i < nfiles; i++)
			if (files[i].kind == order[k]) {
				cur = &files[i];
				readers[order[k]]();
			}
		if (order[k] == K_REGCLASSES)
			check_rc_ids();
		if (order[k] == K_TARGETS && M.ntargets) /* sorted before any window names a target */
			qsort(M.targets, M.ntargets, sizeof *M.targets, cmp_target);
	}
	check_op_names();
	/* a table a module lacks is NULL, which qsort may not be given */
	if (M.nsregs)
		qsort(M.sregs, M.nsregs, sizeof *M.sregs, cmp_sreg);
	if (M.nops)
		qsort(M.ops, M.nops, sizeof *M.ops, cmp_op);
	if (M.snames.n)
		qsort(M.snames.v, M.snames.n, sizeof *M.snames.v, cmp_str);
	if (M.snames.n > MAX_SNAMES) {
		fprintf(stderr, "pxgen: error: more than %d slot names\n", MAX_SNAMES);
		exit(1);
	}
	sort_tokens();

	sbuf h = {0}, c = {0};
	emit_header(&h);
	emit_source(&c);
	char *htmp = write_temp(outdir, "px_tables.h", &h), *ctmp = write_temp(outdir, "px_tables.c", &c);
	install(outdir, "px_tables.h", htmp, &h);
	install(outdir, "px_tables.c", ctmp, &c);
	/* freed, so that LeakSanitizer passes the sanitizer build's pxgen */
	free(h.p);
	free(c.p);
	return 0;
}
