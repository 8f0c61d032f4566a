/* What ptxas prints, read back. Its messages have two shapes:
 *
 *   ptxas /tmp/ptxemit-x/k.ptx, line 28; error   : Arguments mismatch ...
 *   ptxas info    : (C7519) warpgroup.arrive is injected in around line 29 ... in function 'k'
 *
 * A message that names a line of the PTX goes to the MIR statement that
 * printed that line; one that names only a function goes to the function's
 * definition; the rest have no place. ptxas's words are kept after
 * "ptxas: ", its code ("C7519") in the record too. Its -v lines (the
 * function being compiled, its properties, the registers it uses, the time
 * taken) are not messages: they make the resource records. libnvJitLink's
 * logs hold the same lines, and lines of its own (without "ptxas"), which
 * repeat them. */
#include "cubin/cubin.h"

#include <stdlib.h>
#include <string.h>

#include "tables/tables.h"
#include "util/dslmap.h"

static char *keep(px_ptxas_report *rep, const char *s, size_t n)
{
	char *c = malloc(n + 1);
	char **v = realloc(rep->strings, (rep->nstrings + 1) * sizeof *v);
	if (!c || !v)
		abort();
	memcpy(c, s, n);
	c[n] = '\0';
	rep->strings = v;
	rep->strings[rep->nstrings++] = c;
	return c;
}

static bool starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* N of the first word "line" followed by a number N in s ("around line 29"),
 * or 0: a function named 'inline_x' is no line. */
static unsigned named_line(const char *s)
{
	for (const char *at = strstr(s, "line "); at; at = strstr(at + 1, "line ")) {
		if ((at == s || at[-1] == ' ') && at[5] >= '0' && at[5] <= '9')
			return (unsigned)strtoul(at + 5, NULL, 10);
	}
	return 0;
}

/* The name inside the quotes after "function '" (or else "for '"), in name
 * (NUL-terminated). */
static bool named_function(const char *s, char *name, size_t size)
{
	const char *at = strstr(s, "function '");
	if (at)
		at += strlen("function '");
	else if ((at = strstr(s, "for '")) != NULL)
		at += strlen("for '");
	else
		return false;
	size_t n = strcspn(at, "'");
	if (!at[n] || n >= size)
		return false;
	memcpy(name, at, n);
	name[n] = '\0';
	return true;
}

/* The function of that PTX name: its definition, else its declaration. */
static const px_funcsig *find_func(const px_module *m, const char *name)
{
	const px_funcsig *decl = NULL;
	for (uint32_t i = 0; i < m->nfuncs; i++)
		if (m->funcs[i].name.n == strlen(name) && memcmp(m->funcs[i].name.s, name, m->funcs[i].name.n) == 0) {
			if (m->funcs[i].defined)
				return &m->funcs[i];
			decl = &m->funcs[i];
		}
	return decl;
}

/* A function's definition names no DSL place (a loc holds inside a body),
 * so a message about the whole function takes the first loc statement of
 * its body: where the generator says the function came from. */
static void function_dsl(const px_module *m, const px_funcsig *f, px_diagnostic *x)
{
	uint32_t end = UINT32_MAX;
	for (uint32_t i = 0; i < m->nfuncs; i++)
		if (m->funcs[i].loc.pos > f->loc.pos && m->funcs[i].loc.pos < end)
			end = m->funcs[i].loc.pos;
	for (uint32_t i = 0; i < m->dsl.n; i++) {
		const px_dslpos *d = &m->dsl.v[i];
		if (d->from > f->loc.pos && d->from < end && d->file) {
			x->dsl_file = d->file;
			x->dsl_line = d->line;
			x->dsl_col = d->col;
			return;
		}
	}
}

/* The record of function name, made on first mention. */
static px_resource_usage *record(px_ptxas_report *rep, const char *name, size_t n)
{
	for (size_t i = 0; i < rep->nusage; i++)
		if (strlen(rep->usage[i].function) == n && memcmp(rep->usage[i].function, name, n) == 0)
			return &rep->usage[i];
	px_resource_usage *v = realloc(rep->usage, (rep->nusage + 1) * sizeof *v);
	if (!v)
		abort();
	rep->usage = v;
	px_resource_usage *r = &rep->usage[rep->nusage++];
	memset(r, 0, sizeof *r);
	r->function = keep(rep, name, n);
	return r;
}

/* "N word" at s (after blanks): N if the word follows. */
static bool number_of(const char *s, const char *word, unsigned *out)
{
	char *end;
	unsigned long v = strtoul(s, &end, 10);
	if (end == s)
		return false;
	while (*end == ' ')
		end++;
	if (!starts(end, word))
		return false;
	*out = (unsigned)v;
	return true;
}

/* "Used 30 registers, used 1 barriers, 8 bytes lmem, 1024 bytes smem, 364 bytes cmem[0]" */
static void used_line(px_resource_usage *r, const char *s)
{
	for (const char *p = s; p && *p;) {
		while (*p == ' ' || *p == ',')
			p++;
		if (starts(p, "Used ") || starts(p, "used "))
			p += 5;
		unsigned v;
		if (number_of(p, "registers", &v))
			r->registers = v;
		else if (number_of(p, "barriers", &v))
			r->barriers = v;
		else if (number_of(p, "bytes smem", &v))
			r->shared = v;
		else if (number_of(p, "bytes lmem", &v))
			r->local = v;
		else if (number_of(p, "bytes cmem", &v))
			r->constant += v;
		p = strchr(p, ',');
	}
}

/* "0 bytes stack frame, 8 bytes spill stores, 8 bytes spill loads" */
static void properties_line(px_resource_usage *r, const char *s)
{
	for (const char *p = s; p && *p;) {
		while (*p == ' ' || *p == ',')
			p++;
		unsigned v;
		if (number_of(p, "bytes stack frame", &v))
			r->stack = v;
		else if (number_of(p, "bytes spill stores", &v))
			r->spill_stores = v;
		else if (number_of(p, "bytes spill loads", &v))
			r->spill_loads = v;
		p = strchr(p, ',');
	}
}

/* A -v line (info): the resource records take it. Returns whether it was one. */
static bool verbose_line(const char *text, px_ptxas_report *rep, size_t *cur, const px_module *m)
{
	const char *q;
	if ((starts(text, "Compiling entry function '") || starts(text, "Compiling function '")) &&
	    (q = strchr(text, '\'')) != NULL) {
		size_t n = strcspn(q + 1, "'");
		px_resource_usage *r = record(rep, q + 1, n);
		r->kernel = starts(text, "Compiling entry");
		*cur = (size_t)(r - rep->usage);
		return true;
	}
	if (starts(text, "Function properties for ")) {
		const char *name = text + strlen("Function properties for ");
		px_resource_usage *r = record(rep, name, strcspn(name, " \n"));
		const px_funcsig *f = find_func(m, r->function);
		if (f && f->is_kernel)
			r->kernel = true;
		*cur = (size_t)(r - rep->usage);
		return true;
	}
	if (starts(text, "Used ")) {
		if (*cur < rep->nusage)
			used_line(&rep->usage[*cur], text);
		return true;
	}
	return starts(text, "Compile time") || strstr(text, "bytes gmem") != NULL;
}

static px_severity severity_of(const char *word, size_t n, bool *known)
{
	*known = true;
	if (n == 7 && memcmp(word, "warning", 7) == 0)
		return PX_SEV_WARNING;
	if (n == 4 && memcmp(word, "info", 4) == 0)
		return PX_SEV_REMARK;
	if ((n == 5 && memcmp(word, "error", 5) == 0) || (n == 5 && memcmp(word, "fatal", 5) == 0))
		return PX_SEV_ERROR;
	*known = false;
	return PX_SEV_ERROR;
}

void px_ptxas_messages(const char *log, size_t len, const px_ptxmap *map, const px_module *m, bool usage,
                       px_diags *d, px_ptxas_report *rep)
{
	size_t cur = SIZE_MAX; /* the record -v lines are about */
	char line[4096];
	for (size_t at = 0; log && at < len;) {
		const char *nl = memchr(log + at, '\n', len - at);
		size_t end = nl ? (size_t)(nl - log) : len;
		size_t n = end - at < sizeof line - 1 ? end - at : sizeof line - 1;
		memcpy(line, log + at, n);
		line[n] = '\0';
		at = nl ? end + 1 : len;
		if (n && line[n - 1] == '\r')
			line[--n] = '\0';
		if (line[0] == ' ' || line[0] == '\t') { /* a -v line's continuation */
			if (cur < rep->nusage)
				properties_line(&rep->usage[cur], line);
			continue;
		}
		if (!starts(line, "ptxas "))
			continue;
		const char *s = line + 6;
		/* nvJitLink's logs give a -v continuation as "ptxas         .     0 bytes ..." */
		if (*s == ' ') {
			s += strspn(s, " ");
			if (*s == '.' && cur < rep->nusage)
				properties_line(&rep->usage[cur], s + 1);
			continue;
		}
		unsigned ptx_line = 0;
		/* "FILE, line N; " before the severity */
		const char *semi = strstr(s, "; ");
		const char *colon = strstr(s, " : ");
		if (semi && (!colon || semi < colon) && strstr(s, ", line ") && strstr(s, ", line ") < semi) {
			ptx_line = (unsigned)strtoul(strstr(s, ", line ") + 7, NULL, 10);
			s = semi + 2;
		}
		size_t sevlen = strcspn(s, " :");
		bool known;
		px_severity sev = severity_of(s, sevlen, &known);
		const char *text = strchr(s, ':');
		if (!known || !text)
			continue;
		text++;
		while (*text == ' ')
			text++;
		if (sev == PX_SEV_REMARK && verbose_line(text, rep, &cur, m))
			continue;
		px_diagnostic x = {0};
		if (text[0] == '(' && text[1] == 'C') {
			size_t k = strcspn(text + 1, ")");
			if (text[1 + k] == ')')
				x.code = keep(rep, text + 1, k);
		}
		if (!ptx_line)
			ptx_line = named_line(text);
		x.ptx_line = ptx_line;
		px_loc loc = {0};
		if (ptx_line && ptx_line <= map->n)
			loc.pos = map->pos[ptx_line - 1];
		char fname[512];
		if (!loc.pos && named_function(text, fname, sizeof fname)) {
			const px_funcsig *f = find_func(m, fname);
			if (f) {
				loc = f->loc;
				function_dsl(m, f, &x);
			}
		}
		px_report_with(d, sev, loc, &x, PX_D_ptxas_message, text);
	}
	if (!usage)
		return;
	for (size_t i = 0; i < rep->nusage; i++) {
		const px_resource_usage *r = &rep->usage[i];
		px_diagnostic x = {0};
		x.usage = r;
		const px_funcsig *f = find_func(m, r->function);
		px_loc loc = {0};
		if (f) {
			loc = f->loc;
			function_dsl(m, f, &x);
		}
		px_report_with(d, PX_SEV_REMARK, loc, &x, PX_D_ptxas_resources, r->kernel ? "kernel" : "function",
		               r->function, r->registers, r->barriers, r->stack, r->spill_stores, r->spill_loads,
		               r->shared, r->local, r->constant);
	}
}

void px_ptxas_report_free(px_ptxas_report *rep)
{
	for (size_t i = 0; i < rep->nstrings; i++)
		free(rep->strings[i]);
	free(rep->strings);
	free(rep->usage);
	memset(rep, 0, sizeof *rep);
}
