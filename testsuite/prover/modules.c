/* The module proof: what surrounds the statements, judged two-sided on every
 * target. Every module is written from the tables:
 *   - kernel directives (data/directives.yaml): each alone with its value
 *     classes (every argument count, each argument at 1, at its highest, one
 *     past it, at 0, one argument too many), every ordered pair, each with the
 *     directives it needs, each given twice (the same values, then others),
 *     and each on a device function;
 *   - declarations: every state space with every value type (with and
 *     without an initializer), every alignment class, every linkage with and
 *     without an initializer, the shapes (scalar, array, unsized), textures
 *     and surfaces; function
 *     signatures: every type as a device function's parameter and result and
 *     a kernel's parameter, pointer parameters of every space, by-value
 *     aggregates at every alignment;
 *   - names: a variable, a device function, a label and a local array named
 *     by each name class: every name ptxemit generates (parameters, results,
 *     call sequences, printf's symbols), every name PTX keeps for itself
 *     (data/names.yaml), and
 *     every operation's, type's, directive's and special register's word.
 * Where ptxemit accepts a module for a target, ptxas assembles what it
 * prints (otherwise "unsound"); where ptxemit refuses it, ptxas refuses the
 * module as PTX would spell it: the PTX ptxemit prints for the module with the
 * construct left neutral, the construct written in, at the highest PTX
 * version (otherwise a "false reject"). A refusal that only the launch makes
 * (a block or cluster past CUDA's limits, a register budget ptxas ignores)
 * is counted apart: ptxas may assemble it. */
#include "translate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tables/tables.h"

enum group { DIRECTIVES, DECLARATIONS, NAMES, NGROUPS };
static const char *const group_name[NGROUPS] = {"directives", "declarations", "names"};

typedef struct item {
	enum group group;
	char *what;    /* for the report */
	char *mir;     /* the module, no target line */
	char *neutral; /* the module with the construct neutral */
	char *from, *to; /* the edit from the neutral's PTX to the construct's: every from becomes to */
	bool launch;   /* a refusal only the launch makes */
} item;

static item *items;
static size_t nitems, cap;

static void add(enum group g, char *what, char *mir, char *neutral, const char *from, char *to, bool launch)
{
	if (nitems == cap)
		items = realloc(items, (cap = cap ? 2 * cap : 256) * sizeof *items);
	items[nitems++] = (item){g, what, mir, neutral, pv_strdup(from), to, launch};
}

/* ---- directives */

static const char kernel_fmt[] = "kernel @k(%%p: ptr global)%s {\n  ret\n}\n";
static const char func_fmt[] = "func @f(%%a: u32)%s {\n  ret\n}\nkernel @k(%%p: ptr global) {\n  call @f(1)\n  ret\n}\n";

/* " reqntid(1, 2)" and ".reqntid 1, 2\n" */
static void spell(const px_directive *d, const uint32_t *v, unsigned n, char *mir, char *ptx)
{
	int m = sprintf(mir, " %s", d->name), p = sprintf(ptx, "%s", d->print);
	if (n)
		m += sprintf(mir + m, "(");
	for (unsigned i = 0; i < n; i++) {
		m += sprintf(mir + m, "%s%u", i ? ", " : "", v[i]);
		p += sprintf(ptx + p, "%s%u", i ? ", " : " ", v[i]);
	}
	if (n)
		sprintf(mir + m, ")");
	sprintf(ptx + p, "\n");
}

static void directive_item(const char *what, const char *mir_dirs, const char *ptx_dirs, bool func, bool launch)
{
	char *mir = pv_printf(func ? func_fmt : kernel_fmt, mir_dirs), *neutral = pv_printf(func ? func_fmt : kernel_fmt, "");
	/* the first body is the function's where there is one: it comes first */
	add(DIRECTIVES, pv_printf("%s%s", what, func ? " on a device function" : ""), mir, neutral, "\n)\n{",
	    pv_printf("\n)\n%s{", ptx_dirs), launch);
}

static void directives(void)
{
	uint32_t ones[4] = {1, 1, 1, 1};
	for (unsigned i = 0; i < px_ndirectives; i++) {
		const px_directive *d = &px_directives[i];
		char m[256], p[256], what[300];
		for (unsigned n = d->min_args; n <= d->max_args; n++) {
			spell(d, ones, n, m, p);
			snprintf(what, sizeof what, "directive%s", m);
			directive_item(what, m, p, false, false);
		}
		spell(d, ones, d->min_args, m, p);
		snprintf(what, sizeof what, "directive%s", m);
		directive_item(what, m, p, true, false);
		/* one argument too many */
		spell(d, ones, d->max_args + 1, m, p);
		snprintf(what, sizeof what, "directive%s", m);
		directive_item(what, m, p, false, false);
		if (!d->max_args)
			continue;
		/* each at its highest; one past; 0 */
		uint32_t v[3];
		uint64_t prod = 1;
		for (unsigned k = 0; k < d->max_args; k++)
			v[k] = d->hi[k] ? d->hi[k] : 1, prod *= v[k];
		spell(d, v, d->max_args, m, p);
		snprintf(what, sizeof what, "directive%s", m);
		directive_item(what, m, p, false, d->product && prod > d->product);
		if (d->hi[0] && d->hi[0] < UINT32_MAX) {
			v[0] = d->hi[0] + 1;
			spell(d, v, 1, m, p);
			snprintf(what, sizeof what, "directive%s", m);
			directive_item(what, m, p, false, true);
		}
		v[0] = 0;
		spell(d, v, 1, m, p);
		snprintf(what, sizeof what, "directive%s", m);
		directive_item(what, m, p, false, false);
	}
	/* every ordered pair, and each with what it needs; each given twice, with
	 * the same values and with others, after what it needs */
	for (unsigned i = 0; i < px_ndirectives; i++) {
		const px_directive *a = &px_directives[i];
		char ma[128], pa[128];
		spell(a, ones, a->min_args, ma, pa);
		char needs_m[512] = "", needs_p[512] = "";
		for (unsigned j = 0; j < px_ndirectives; j++)
			if (a->needs >> j & 1) {
				char mb[128], pb[128];
				spell(&px_directives[j], ones, px_directives[j].min_args, mb, pb);
				strcat(needs_m, mb), strcat(needs_p, pb);
			}
		uint32_t twos[3] = {2, 2, 2};
		char mt[128], pt[128];
		spell(a, a->max_args ? twos : ones, a->max_args, mt, pt);
		for (int other = 0; other <= (a->max_args > 0); other++) {
			char *m = pv_printf("%s%s%s", needs_m, ma, other ? mt : ma);
			char *p = pv_printf("%s%s%s", needs_p, pa, other ? pt : pa);
			char *what = pv_printf("directives%s", m);
			directive_item(what, m, p, false, false);
			free(m), free(p), free(what);
		}
		for (unsigned j = 0; j < px_ndirectives; j++) {
			if (i == j)
				continue;
			const px_directive *b = &px_directives[j];
			char mb[128], pb[128];
			spell(b, ones, b->min_args, mb, pb);
			char *m = pv_printf("%s%s", ma, mb), *p = pv_printf("%s%s", pa, pb);
			char *what = pv_printf("directives%s", m);
			directive_item(what, m, p, false, false);
			free(m), free(p), free(what);
		}
		if (!a->needs)
			continue;
		char *m = pv_printf("%s%s", needs_m, ma), *p = pv_printf("%s%s", needs_p, pa);
		char *what = pv_printf("directives%s", m);
		directive_item(what, m, p, false, false);
		free(m), free(p), free(what);
	}
}

/* ---- declarations */

static const char *const spaces[] = {"global", "const", "shared"};
static const char use_fmt[] = "%s\nkernel @k(%%p: ptr global) {\n  ret\n}\n";

/* a module-scope variable: MIR and the PTX line written from its parts */
static void variable(const char *what, const char *link, const char *space, const char *type, const char *shape,
                     unsigned align, const char *init)
{
	char mal[24] = "", pal[24] = "";
	if (align)
		snprintf(mal, sizeof mal, " align %u", align), snprintf(pal, sizeof pal, " .align %u", align);
	char *decl = pv_printf("%s%s%s @pvv : %s%s%s%s%s", link, *link ? " " : "", space, type, shape, mal,
	                       *init ? " = " : "", init);
	char *mir = pv_printf(use_fmt, decl);
	char *neutral = pv_printf(use_fmt, "global @pvv : b32[4]");
	const char *plink = strcmp(link, "extern") == 0 ? ".extern " : strcmp(link, "weak") == 0 ? ".weak "
	                    : strcmp(link, "internal") == 0 ? ""
	                                                    : ".visible ";
	char *pinit = pv_strdup(init);
	for (char *c = pinit; *c; c++)
		*c = *c == '[' ? '{' : *c == ']' ? '}' : *c;
	char *ptx = pv_printf("%s.%s%s .%s pvv%s%s%s;", plink, space, pal, type, shape, *init ? " = " : "", pinit);
	add(DECLARATIONS, pv_printf("%s: %s", what, decl), mir, neutral, ".visible .global .align 4 .b32 pvv[4];", ptx,
	    false);
	free(decl), free(pinit);
}

/* a signature: a device function's (with a call) or a kernel's; ptxsig, its PTX, is the item's */
static void signature(const char *what, const char *params, const char *result, bool kernel, char *ptxsig)
{
	char *mir, *neutral;
	if (kernel) {
		mir = pv_printf("kernel @k(%s) {\n  ret\n}\n", params);
		neutral = pv_strdup("kernel @k(%p: u32) {\n  ret\n}\n");
		add(DECLARATIONS, pv_printf("%s: kernel @k(%s)", what, params), mir, neutral,
		    ".visible .entry k(\n\t.param .u32 k_param_0\n)", ptxsig, false);
		return;
	}
	/* a result is the parameter returned */
	mir = pv_printf("func @f(%s)%s%s {\n  ret%s\n}\nkernel @k(%%p: ptr global) {\n  ret\n}\n", params,
	                *result ? " -> " : "", result, *result ? " %a" : "");
	neutral = pv_printf("func @f(%%a: u32)%s {\n  ret%s\n}\nkernel @k(%%p: ptr global) {\n  ret\n}\n",
	                    *result ? " -> u32" : "", *result ? " %a" : "");
	add(DECLARATIONS, pv_printf("%s: func @f(%s)%s%s", what, params, *result ? " -> " : "", result), mir, neutral,
	    *result ? ".visible .func (.param .b32 func_retval0) f(\n\t.param .b32 f_param_0\n)"
	            : ".visible .func f(\n\t.param .b32 f_param_0\n)",
	    ptxsig, false);
}

static void declarations(void)
{
	for (size_t s = 0; s < 3; s++) {
		for (unsigned t = 1; t < px_ntypes; t++) {
			const char *ty = px_types[t].name;
			variable("every type", "", spaces[s], ty, "[4]", 0, "");
			variable("every type, initialized", "", spaces[s], ty, "[4]", 0, "[1, 2, 3, 4]");
			variable("every type, initialized", "", spaces[s], ty, "", 0, "1");
		}
		static const unsigned aligns[] = {1, 2, 4, 8, 16, 32, 64, 128, 3, 6};
		for (size_t a = 0; a < sizeof aligns / sizeof *aligns; a++)
			variable("every alignment", "", spaces[s], "b32", "[4]", aligns[a], "");
		static const char *const links[] = {"", "extern", "weak", "internal"};
		static const char *const shapes[] = {"", "[4]", "[]"};
		for (size_t l = 0; l < 4; l++)
			for (size_t h = 0; h < 3; h++) {
				variable("every linkage and shape", links[l], spaces[s], "b32", shapes[h], 0, "");
				variable("every linkage and shape, initialized", links[l], spaces[s], "b32", shapes[h], 0,
				         *shapes[h] ? "[1, 2, 3, 4]" : "7");
			}
		static const char *const handles[] = {"texref", "surfref", "samplerref"};
		for (size_t h = 0; h < 3; h++)
			for (size_t l = 0; l < 4; l++)
				variable("textures and surfaces", links[l], spaces[s], handles[h], "", 0, "");
	}
	/* signatures: every type as a parameter and a result */
	for (unsigned t = 1; t < px_ntypes; t++) {
		const char *ty = px_types[t].name;
		char *p = pv_printf("%%a: %s", ty);
		signature("a device function's parameter of every type", p, "", false,
		          pv_printf(".visible .func f(\n\t.param .%s f_param_0\n)", ty));
		signature("a kernel's parameter of every type", p, "", true,
		          pv_printf(".visible .entry k(\n\t.param .%s k_param_0\n)", ty));
		signature("a device function's result of every type", p, ty, false,
		          pv_printf(".visible .func (.param .%s func_retval0) f(\n\t.param .%s f_param_0\n)", ty, ty));
		free(p);
	}
	static const char *const pspaces[] = {"global", "shared", "const", "local", "param", "generic"};
	for (size_t s = 0; s < sizeof pspaces / sizeof *pspaces; s++) {
		char *p = pv_printf("%%a: ptr %s", pspaces[s]);
		signature("pointer parameters of every space", p, "", false,
		          pv_printf(".visible .func f(\n\t.param .u64 .ptr .%s f_param_0\n)", pspaces[s]));
		signature("pointer parameters of every space", p, "", true,
		          pv_printf(".visible .entry k(\n\t.param .u64 .ptr .%s .align 1 k_param_0\n)", pspaces[s]));
		free(p);
	}
	static const unsigned aligns[] = {1, 4, 8, 16, 3};
	for (size_t a = 0; a < sizeof aligns / sizeof *aligns; a++) {
		char *p = pv_printf("%%a: b8[16] align %u", aligns[a]);
		signature("by-value aggregates at every alignment", p, "", false,
		          pv_printf(".visible .func f(\n\t.param .align %u .b8 f_param_0[16]\n)", aligns[a]));
		signature("by-value aggregates at every alignment", p, "", true,
		          pv_printf(".visible .entry k(\n\t.param .align %u .b8 k_param_0[16]\n)", aligns[a]));
		free(p);
	}
}

/* ---- names */

static void name_items(const char *name)
{
	/* a variable read in a function with a parameter and a result */
	static const char var_fmt[] = "global @%s : b32[4]\nfunc @f(%%a: u32) -> u32 {\n  %%v:u32 = ld.global [@%s]\n  "
	                              "%%w:u32 = add %%v, %%a\n  ret %%w\n}\nkernel @k(%%p: ptr global) {\n  %%r:u32 = call "
	                              "@f(1)\n  st.global [%%p], %%r\n  ret\n}\n";
	add(NAMES, pv_printf("a variable named %s", name), pv_printf(var_fmt, name, name),
	    pv_printf(var_fmt, "pvname", "pvname"), "pvname", pv_strdup(name), false);
	static const char fn_fmt[] = "func @%s(%%a: u32) -> u32 {\n  ret %%a\n}\nkernel @k(%%p: ptr global) {\n  %%r:u32 = "
	                             "call @%s(1)\n  st.global [%%p], %%r\n  ret\n}\n";
	add(NAMES, pv_printf("a device function named %s", name), pv_printf(fn_fmt, name, name),
	    pv_printf(fn_fmt, "pvname", "pvname"), "pvname", pv_strdup(name), false);
	static const char label_fmt[] = "kernel @k(%%p: ptr global, %%n: u32) {\n  %%c:pred = setp.eq %%n, 0\n  @%%c bra "
	                                "^%s\n  st.global [%%p], %%n\n^%s:\n  printf \"%%d\\n\", %%n\n  ret\n}\n";
	add(NAMES, pv_printf("a label named %s", name), pv_printf(label_fmt, name, name),
	    pv_printf(label_fmt, "pvname", "pvname"), "pvname", pv_strdup(name), false);
	static const char local_fmt[] = "kernel @k(%%p: ptr global) {\n  local @%s : b32[4]\n  %%v:u32 = ld.local "
	                                "[@%s]\n  st.global [%%p], %%v\n  ret\n}\n";
	add(NAMES, pv_printf("a local array named %s", name), pv_printf(local_fmt, name, name),
	    pv_printf(local_fmt, "pvname", "pvname"), "pvname", pv_strdup(name), false);
}

static void names(void)
{
	/* what ptxemit prints of its own, and PTX's own words */
	static const char *const own[] = {"k_param_0", "f_param_0", "func_retval0", "param0", "retval0", "str",
	                                  "printf_args", "vprintf", "__local_depot0", "SP", "SPL"};
	for (size_t i = 0; i < sizeof own / sizeof *own; i++)
		name_items(own[i]);
	/* every name PTX keeps for itself (data/names.yaml), and every
	 * operation's first word, type, directive and special register word */
	pv_map seen = {0};
	for (unsigned i = 0; i < px_nreserved_names; i++) {
		bool fresh;
		pv_map_slot(&seen, px_reserved_names[i].name, &fresh);
		if (fresh)
			name_items(px_reserved_names[i].name);
	}
	for (unsigned i = 0; i < px_nops; i++) {
		char w[64];
		snprintf(w, sizeof w, "%.*s", (int)strcspn(px_ops[i].name, "."), px_ops[i].name);
		bool fresh;
		pv_map_slot(&seen, w, &fresh);
		if (fresh)
			name_items(w);
	}
	for (unsigned i = 1; i < px_ntypes; i++) {
		bool fresh;
		pv_map_slot(&seen, px_types[i].name, &fresh);
		if (fresh)
			name_items(px_types[i].name);
	}
	for (unsigned i = 0; i < px_ndirectives; i++) {
		bool fresh;
		pv_map_slot(&seen, px_directives[i].name, &fresh);
		if (fresh)
			name_items(px_directives[i].name);
	}
	for (unsigned i = 0; i < px_nsregs; i++) {
		char w[64];
		const char *s = px_sregs[i].name + 1;
		snprintf(w, sizeof w, "%.*s", (int)strcspn(s, "."), s);
		bool fresh;
		pv_map_slot(&seen, w, &fresh);
		if (fresh)
			name_items(w);
	}
	pv_map_free(&seen);
}

/* ---- the proof */

/* every from in text replaced by to, and .version raised to v */
static char *edit(const char *text, const char *from, const char *to, const char *v)
{
	size_t nf = strlen(from), nt = strlen(to), n = 0;
	for (const char *p = strstr(text, from); p; p = strstr(p + nf, from))
		n++;
	char *out = pv_alloc(strlen(text) + n * nt + 64), *o = out;
	for (const char *p = text;;) {
		const char *q = strstr(p, from);
		if (!q) {
			strcpy(o, p);
			break;
		}
		memcpy(o, p, (size_t)(q - p));
		o += q - p;
		memcpy(o, to, nt);
		o += nt;
		p = q + nf;
	}
	char *ver = strstr(out, "\n.version ");
	if (ver) {
		ver += 10;
		size_t k = strspn(ver, "0123456789.");
		if (k == strlen(v))
			memcpy(ver, v, k);
	}
	return out;
}

typedef struct mjob {
	size_t item;
	unsigned target;
	bool accepted;
	size_t text;
	char *first; /* ptxemit's first message, where it refused */
} mjob;

int pv_modules(int argc, char **argv)
{
	if (argc < 4) {
		fprintf(stderr, "usage: prover modules PTXAS CACHE JOBS [SAMPLE]\n");
		return 2;
	}
	unsigned sample = argc > 4 ? (unsigned)atoi(argv[4]) : 0;
	pv_judge jd;
	if (pv_judge_init(&jd, argv[1], argv[2], (unsigned)atoi(argv[3]))) {
		fprintf(stderr, "prover: %s does not run\n", argv[1]);
		return 77;
	}
	directives();
	declarations();
	names();
	char top[8];
	snprintf(top, sizeof top, "%u.%u", px_ptx_versions[px_nptx_versions - 1] / 10,
	         px_ptx_versions[px_nptx_versions - 1] % 10);
	size_t njobs = 0, ntexts = 0, unjudged = 0;
	mjob *jobs = pv_alloc((nitems * px_ntargets + 1) * sizeof *jobs);
	pv_text *texts = pv_alloc((nitems * px_ntargets + 1) * sizeof *texts);
	for (size_t i = 0; i < nitems; i++) {
		item *it = &items[i];
		pv_case c = {.mir = it->what, .name = "module.mir", .src = it->mir, .len = strlen(it->mir)};
		pv_case n = {.mir = it->what, .name = "module.mir", .src = it->neutral, .len = strlen(it->neutral)};
		for (unsigned t = 0; t < px_ntargets; t++) {
			if (sample && (i + t) % sample != 0)
				continue;
			const char *tg = px_targets[t].name;
			char *out = NULL;
			pv_refusals no = {0};
			int e = pv_translate(&c, tg, NULL, false, &out, &no);
			mjob *j = &jobs[njobs];
			*j = (mjob){.item = i, .target = t, .accepted = e == 0};
			if (e != 0) {
				j->first = no.first ? pv_strdup(no.first) : pv_strdup("");
				char *nout = NULL;
				if (pv_translate(&n, tg, NULL, false, &nout, NULL) != 0) {
					unjudged++;
					printf("unjudged: %s on %s: the neutral module is refused\n", it->what, tg);
					pv_refusals_free(&no);
					free(j->first);
					continue;
				}
				out = edit(nout, it->from, it->to, top);
				free(nout);
			}
			pv_refusals_free(&no);
			texts[ntexts] = (pv_text){.ptx = out, .len = strlen(out), .arch = pv_ptxas_arch(tg)};
			j->text = ntexts++;
			njobs++;
		}
	}
	if (pv_judge_texts(&jd, texts, ntexts, true))
		return 1;
	unsigned acc[NGROUPS] = {0}, rej[NGROUPS] = {0}, uns[NGROUPS] = {0}, fr[NGROUPS] = {0}, launch[NGROUPS] = {0};
	for (size_t k = 0; k < njobs; k++) {
		mjob *j = &jobs[k];
		item *it = &items[j->item];
		bool ok = strcmp(texts[j->text].verdict, "ok") == 0;
		const char *tg = px_targets[j->target].name;
		if (j->accepted && ok)
			acc[it->group]++;
		else if (j->accepted) {
			uns[it->group]++;
			printf("unsound: %s on %s: ptxemit accepts it, ptxas refuses it (%s)\n", it->what, tg,
			       texts[j->text].verdict);
		} else if (!ok)
			rej[it->group]++;
		else if (it->launch)
			launch[it->group]++;
		else {
			fr[it->group]++;
			printf("false reject: %s on %s: ptxemit refuses it (%s), ptxas accepts it\n", it->what, tg, j->first);
		}
	}
	unsigned tu = 0, tf = 0;
	for (int g = 0; g < NGROUPS; g++) {
		printf("modules: %s: %u module verdicts: %u accepted and assembled, %u refused by both, %u refused for the "
		       "launch alone, %u unsound, %u false rejects\n",
		       group_name[g], acc[g] + rej[g] + uns[g] + fr[g] + launch[g], acc[g], rej[g], launch[g], uns[g], fr[g]);
		tu += uns[g], tf += fr[g];
	}
	printf("modules: %zu constructs, %u targets%s, %zu module verdicts, %zu unjudged, %u unsound, %u false rejects "
	       "(%zu texts given to ptxas, the rest cached)\n",
	       nitems, px_ntargets, sample ? " (sampled)" : "", njobs, unjudged, tu, tf, jd.asked);
	for (size_t k = 0; k < njobs; k++)
		free(jobs[k].first);
	for (size_t k = 0; k < ntexts; k++)
		free(texts[k].ptx), free(texts[k].verdict);
	for (size_t i = 0; i < nitems; i++)
		free(items[i].what), free(items[i].mir), free(items[i].neutral), free(items[i].from), free(items[i].to);
	free(jobs), free(texts), free(items);
	return tu + tf + unjudged > 0;
}
