/* pxgen: the small tables: regclasses.yaml, types.yaml, targets.yaml,
 * sregs.yaml, directives.yaml, flags.yaml, names.yaml and diag/. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pxgen.h"

static uint32_t rc_mask(const ynode *list)
{
	uint32_t mask = 0;
	expect(list, YAML_SEQUENCE_NODE, "a class list");
	SEQ_EACH(it, list)
		mask |= 1u << rc_by_name(node(*it));
	return mask;
}

static const char *nullable(const ynode *map, const char *key, const char *what)
{
	const ynode *v = map_get(map, key);
	return !v || is_null(v) ? NULL : scalar(v, what);
}

void read_regclasses(void)
{
	static const char *const keys[] = {"name", "id", "width", "decl", "prefix", "view_of", "view_decl",
	                                   "subclasses", "superclasses", NULL};
	ynode *root = root_list("regclasses.yaml");
	if (!root)
		return;
	SEQ_EACH(it, root) {
		ynode *e = node(*it);
		check_keys(e, "a register class", keys);
		regclass_row *r = PUSH(M.rc, M.nrc, M.cap_rc);
		*r = (regclass_row){.at = e, .view_of = 0xff};
		r->name = scalar(map_need(e, "name", "a register class"), "name");
		r->id = to_uint(map_need(e, "id", "a register class"), "id", 31);
		r->width = to_uint(map_need(e, "width", "a register class"), "width", 1024);
		r->decl = nullable(e, "decl", "decl");
		r->prefix = nullable(e, "prefix", "prefix");
		r->view_decl = nullable(e, "view_decl", "view_decl");
		for (size_t j = 0; j + 1 < M.nrc; j++) {
			if (!strcmp(M.rc[j].name, r->name))
				fail(e, "duplicate register class '%s'", r->name);
			if (M.rc[j].id == r->id)
				fail(e, "duplicate register class id %u", r->id);
		}
	}
	/* Class lists may name classes further down, so they resolve once all are known. */
	for (size_t i = 0; i < M.nrc; i++) {
		regclass_row *r = &M.rc[i];
		const ynode *v;
		if ((v = map_get(r->at, "view_of")))
			r->view_of = rc_by_name(v);
		if ((v = map_get(r->at, "subclasses")))
			r->sub = rc_mask(v);
		if ((v = map_get(r->at, "superclasses")))
			r->super = rc_mask(v);
	}
	for (size_t i = 0; i < M.nrc; i++)
		for (size_t j = 0; j < M.nrc; j++)
			if (((M.rc[i].sub >> M.rc[j].id) & 1) != ((M.rc[j].super >> M.rc[i].id) & 1))
				fail(M.rc[i].at, "'%s' and '%s' disagree on their subclass relation", M.rc[i].name,
				     M.rc[j].name);
}

/* px_regclasses is indexed by class id, so the ids must be 0..n-1. */
void check_rc_ids(void)
{
	for (unsigned id = 0; id < M.nrc; id++) {
		bool found = false;
		for (size_t i = 0; i < M.nrc; i++)
			found |= M.rc[i].id == id;
		if (!found) {
			fprintf(stderr, "pxgen: error: register class ids must be 0..%zu; %u is missing\n", M.nrc - 1, id);
			exit(1);
		}
	}
}

/* ---------------------------------------------------------------- types.yaml */

void read_types(void)
{
	static const char *const keys[] = {"name", "width", "kind", "class", "float_view", "decl_ptx", NULL};
	ynode *root = root_list("types.yaml");
	if (!root)
		return;
	SEQ_EACH(it, root) {
		ynode *e = node(*it), *v;
		check_keys(e, "a type", keys);
		type_row *t = PUSH(M.types, M.ntypes, M.cap_types);
		*t = (type_row){0};
		t->name = identifier(map_need(e, "name", "a type"), "type name");
		if (type_index(t->name) != M.ntypes)
			fail(e, "duplicate type '%s'", t->name);
		if (!strcmp(t->name, "none") || !strcmp(t->name, "any"))
			fail(e, "'%s' is reserved", t->name);
		t->width = to_uint(map_need(e, "width", "a type"), "width", 1024);
		v = map_need(e, "kind", "a type");
		t->kind = scalar(v, "kind");
		if (!in_list(type_kinds + 1, t->kind))
			fail(v, "unknown type kind '%s'", t->kind);
		t->regclass = rc_by_name(map_need(e, "class", "a type"));
		t->float_view = (v = map_get(e, "float_view")) && to_bool(v, "float_view");
		t->decl_ptx = (v = map_get(e, "decl_ptx")) ? to_ptx(v) : 0;
		if (strcmp(t->kind, "ptr"))
			add_token(t->name);
	}
}

/* ---------------------------------------------------------------- targets.yaml */

/* `static_shared: {bytes: N, targets: [{targets: [names], bytes: M}, ...]}`:
 * the most static shared memory a kernel may have, N unless a row names the
 * target (each name that target alone); 0 where the file gives none. */
static void read_static_shared(const ynode *v)
{
	static const char *const keys[] = {"bytes", "targets", NULL};
	static const char *const row_keys[] = {"targets", "bytes", NULL};
	check_keys(v, "static_shared", keys);
	unsigned dflt = to_uint(map_need(v, "bytes", "static_shared"), "bytes", 1u << 30);
	for (size_t i = 0; i < M.ntargets; i++)
		M.targets[i].static_shared = dflt;
	const ynode *rows = map_get(v, "targets");
	if (!rows)
		return;
	expect(rows, YAML_SEQUENCE_NODE, "targets");
	SEQ_EACH(it, rows) {
		ynode *e = node(*it);
		check_keys(e, "a static_shared row", row_keys);
		unsigned bytes = to_uint(map_need(e, "bytes", "a static_shared row"), "bytes", 1u << 30);
		strs names = scalar_list(map_need(e, "targets", "a static_shared row"), "targets");
		for (size_t k = 0; k < names.n; k++) {
			size_t t = 0;
			while (t < M.ntargets && strcmp(M.targets[t].name, names.v[k]))
				t++;
			if (t == M.ntargets)
				fail(e, "unknown target '%s'", names.v[k]);
			M.targets[t].static_shared = bytes;
		}
		free(names.v);
	}
}

void read_targets(void)
{
	static const char *const top_keys[] = {"ptx_versions", "drivers", "targets", "static_shared", "kernel_params", "const_data", NULL};
	static const char *const keys[] = {"name", "sm", "ptx", "suffix", "family", "ptxas", NULL};
	ynode *root = yaml_document_get_root_node((yaml_document_t *)&cur->doc), *v;
	if (!root)
		return;
	check_keys(root, "targets.yaml", top_keys);
	v = map_need(root, "ptx_versions", "targets.yaml");
	expect(v, YAML_SEQUENCE_NODE, "ptx_versions");
	SEQ_EACH(it, v) {
		unsigned ptx = to_ptx(node(*it));
		if (M.nptx && ptx <= M.ptx_versions[M.nptx - 1])
			fail(node(*it), "ptx_versions must be ascending and unique");
		*PUSH(M.ptx_versions, M.nptx, M.cap_ptx) = ptx;
	}
	/* one row per PTX version, in the same order */
	static const char *const dkeys[] = {"ptx", "cuda", "driver", NULL};
	v = map_need(root, "drivers", "targets.yaml");
	expect(v, YAML_SEQUENCE_NODE, "drivers");
	size_t nd = 0;
	SEQ_EACH(it, v) {
		ynode *e = node(*it);
		check_keys(e, "a driver row", dkeys);
		unsigned ptx = to_ptx(map_need(e, "ptx", "a driver row"));
		if (nd >= M.nptx || M.ptx_versions[nd] != ptx)
			fail(e, "drivers must have one row per ptx_versions entry, in order");
		*PUSH(M.ptx_cuda, M.nptx_cuda, M.cap_ptx_cuda) = to_ptx(map_need(e, "cuda", "a driver row"));
		*PUSH(M.ptx_driver, M.nptx_driver, M.cap_ptx_driver) =
			to_uint(map_need(e, "driver", "a driver row"), "driver", 10000);
		if (nd && M.ptx_driver[nd] < M.ptx_driver[nd - 1])
			fail(e, "a later PTX version cannot need an older driver");
		nd++;
	}
	if (nd != M.nptx)
		fail(v, "drivers must have one row per ptx_versions entry, in order");
	v = map_need(root, "targets", "targets.yaml");
	expect(v, YAML_SEQUENCE_NODE, "targets");
	SEQ_EACH(it, v) {
		ynode *e = node(*it), *s;
		check_keys(e, "a target", keys);
		target_row *t = PUSH(M.targets, M.ntargets, M.cap_targets);
		*t = (target_row){.line = M.ntargets};
		t->name = scalar(map_need(e, "name", "a target"), "name");
		for (size_t j = 0; j + 1 < M.ntargets; j++)
			if (!strcmp(M.targets[j].name, t->name))
				fail(e, "duplicate target '%s'", t->name);
		map_need(e, "sm", "a target");
		map_need(e, "ptx", "a target");
		read_window(e, &t->sm, &t->ptx);
		if ((s = map_get(e, "suffix"))) {
			const char *sfx = scalar(s, "suffix");
			if (strcmp(sfx, "a") && strcmp(sfx, "f"))
				fail(s, "suffix must be a or f, not '%s'", sfx);
			t->suffix = sfx[0];
		}
		t->family = (s = map_get(e, "family")) ? to_uint(s, "family", 1000) : t->sm;
		if (t->family > t->sm)
			fail(s, "family %u is above the target's SM %u", t->family, t->sm);
		if ((s = map_get(e, "ptxas"))) {
			static const char *const pkeys[] = {"cuda", "arch", "code", NULL};
			check_keys(s, "a target's ptxas", pkeys);
			t->ptxas_cuda = to_ptx(map_need(s, "cuda", "a target's ptxas"));
			t->ptxas_arch = scalar(map_need(s, "arch", "a target's ptxas"), "arch");
			const ynode *c = map_get(s, "code");
			t->ptxas_code = c ? to_bool(c, "code") : true;
		}
	}
	if (M.ntargets > 64)
		fail(v, "more than 64 targets: a window is a 64-bit mask");
	if ((v = map_get(root, "static_shared"))) /* without it no limit is checked */
		read_static_shared(v);
	if ((v = map_get(root, "const_data"))) { /* {bytes: N} */
		static const char *const ckeys[] = {"bytes", NULL};
		check_keys(v, "const_data", ckeys);
		M.const_bytes = to_uint(map_need(v, "bytes", "const_data"), "bytes", 1u << 30);
	}
	if ((v = map_get(root, "kernel_params"))) { /* {bytes: N, wide: {bytes: M, ptx: X.Y}} */
		static const char *const kkeys[] = {"bytes", "wide", NULL}, *const wkeys[] = {"bytes", "ptx", NULL};
		check_keys(v, "kernel_params", kkeys);
		M.kparam_bytes = to_uint(map_need(v, "bytes", "kernel_params"), "bytes", 1u << 30);
		const ynode *w = map_get(v, "wide");
		if (w) {
			check_keys(w, "wide", wkeys);
			M.kparam_wide_bytes = to_uint(map_need(w, "bytes", "wide"), "bytes", 1u << 30);
			M.kparam_wide_ptx = to_ptx(map_need(w, "ptx", "wide"));
		}
	}
}

/* Targets ascend by SM; within one SM the file's order (plain, a, f) stays. */
int cmp_target(const void *a, const void *b)
{
	const target_row *x = a, *y = b;
	if (x->sm != y->sm)
		return x->sm < y->sm ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

static int target_index(const char *name)
{
	for (size_t i = 0; i < M.ntargets; i++)
		if (!strcmp(M.targets[i].name, name))
			return (int)i;
	return -1;
}

/* The targets that run sm_XXf code: the a and f targets of its family from SM XX on. */
static uint64_t family_mask(unsigned sm, unsigned family)
{
	uint64_t m = 0;
	for (size_t i = 0; i < M.ntargets; i++)
		if (M.targets[i].suffix && M.targets[i].family == family && M.targets[i].sm >= sm)
			m |= 1ull << i;
	return m;
}

/* `targets: [...]`: an a or plain name is that target alone, an f name its family
 * from it on (the targets that run sm_XXf code). */
uint64_t read_target_list(const ynode *v)
{
	strs names = scalar_list(v, "targets");
	uint64_t m = 0;
	if (!names.n)
		fail(v, "targets must name at least one target");
	for (size_t i = 0; i < names.n; i++) {
		int t = target_index(names.v[i]);
		if (t < 0)
			fail(v, "unknown target '%s' (targets.yaml)", names.v[i]);
		const target_row *r = &M.targets[t];
		m |= r->suffix == 'f' ? family_mask(r->sm, r->family) : 1ull << t;
	}
	free(names.v);
	return m;
}

/* The targets of a window: `targets:` exactly; else every target from SM `sm` up to
 * `sm_max`, narrowed by `arch`: a, the sm_XXa targets alone; f, the family of sm_XXf. */
uint64_t window_mask(const ynode *at, unsigned sm, unsigned sm_max, char arch, uint64_t list)
{
	uint64_t m = 0;
	if (list)
		return list;
	for (size_t i = 0; i < M.ntargets; i++) {
		const target_row *t = &M.targets[i];
		if (t->sm < sm || (sm_max && t->sm > sm_max))
			continue;
		if (arch == 'a' && (t->suffix != 'a' || t->sm > (sm_max ? sm_max : sm)))
			continue;
		if (arch == 'f') {
			unsigned fam = 0;
			for (size_t j = 0; j < M.ntargets; j++)
				if (M.targets[j].sm == sm)
					fam = M.targets[j].family;
			if (!t->suffix || t->family != fam)
				continue;
		}
		m |= 1ull << i;
	}
	if (!m && M.ntargets)
		fail(at, "the window names no target of targets.yaml");
	return m;
}

unsigned mask_sm(uint64_t m)
{
	for (size_t i = 0; i < M.ntargets; i++)
		if (m >> i & 1)
			return M.targets[i].sm;
	return DEFAULT_SM;
}

char read_arch(const ynode *v)
{
	const char *a = scalar(v, "arch");
	if (strcmp(a, "a") && strcmp(a, "f"))
		fail(v, "arch must be a or f, not '%s'", a);
	return a[0];
}

/* The target mask of a special register or directive: sm, sm_max, arch, targets. */
static uint64_t entry_targets(const ynode *e, unsigned *sm)
{
	const ynode *v;
	if ((v = map_get(e, "targets"))) {
		if (map_get(e, "sm") || map_get(e, "arch") || map_get(e, "sm_max"))
			fail(v, "targets names the targets exactly: leave out sm, sm_max and arch");
		uint64_t m = read_target_list(v);
		*sm = mask_sm(m);
		return m;
	}
	unsigned sm_max = (v = map_get(e, "sm_max")) ? to_uint(v, "sm_max", 1000) : 0;
	char arch = (v = map_get(e, "arch")) ? read_arch(v) : 0;
	return window_mask(e, *sm, sm_max, arch, 0);
}

/* ---------------------------------------------------------------- sregs.yaml */

void read_sregs(void)
{
	static const char *const keys[] = {"name", "type", "sm", "ptx", "sm_max", "arch", "targets", "varies", "fixed", NULL};
	/* PX_VARIES_* of tables.h, in order */
	static const char *const varies[] = {"cta", "thread", "warp", "tid_x", "tid_yz", NULL};
	ynode *root = root_list("sregs.yaml");
	if (!root)
		return;
	SEQ_EACH(it, root) {
		ynode *e = node(*it), *v;
		check_keys(e, "a special register", keys);
		sreg_row *s = PUSH(M.sregs, M.nsregs, M.cap_sregs);
		*s = (sreg_row){0};
		s->name = scalar(map_need(e, "name", "a special register"), "name");
		if (s->name[0] != '%')
			fail(e, "special register '%s' must start with '%%'", s->name);
		/* the shapes filter (emit_sregs) has a bit a length and a row an
		 * ASCII character */
		if (strlen(s->name) >= 64 || (unsigned char)s->name[1] >= 128)
			fail(e, "special register '%s' must be shorter than 64 bytes, an ASCII character after '%%'", s->name);
		for (size_t j = 0; j + 1 < M.nsregs; j++)
			if (!strcmp(M.sregs[j].name, s->name))
				fail(e, "duplicate special register '%s'", s->name);
		v = map_need(e, "type", "a special register");
		const char *tn = scalar(v, "type");
		if (strcmp(tn, "none") && !(s->type = type_index(tn)))
			fail(v, "unknown type '%s'", tn);
		read_window(e, &s->sm, &s->ptx);
		s->targets = entry_targets(e, &s->sm);
		if ((v = map_get(e, "varies"))) {
			const char *w = scalar(v, "varies");
			while (varies[s->varies] && strcmp(varies[s->varies], w))
				s->varies++;
			if (!varies[s->varies])
				fail(v, "varies is cta, thread, warp, tid_x or tid_yz, not '%s'", w);
		}
		if ((v = map_get(e, "fixed")))
			s->fixed = to_bool(v, "fixed");
	}
}

int cmp_sreg(const void *a, const void *b)
{
	return strcmp(((const sreg_row *)a)->name, ((const sreg_row *)b)->name);
}

/* ---------------------------------------------------------------- directives.yaml */

/* needs: / excludes: {directives: [NAME, ...], diag: ID}: the directives as
 * PX_DIR_* bits, the message in *diag. */
static uint32_t dir_constraint(const ynode *map, size_t *diag)
{
	static const char *const keys[] = {"directives", "diag", NULL};
	check_keys(map, "a directive constraint", keys);
	const ynode *list = map_need(map, "directives", "a directive constraint");
	uint32_t bits = 0;
	expect(list, YAML_SEQUENCE_NODE, "directives");
	SEQ_EACH(it, list) {
		const char *name = scalar(node(*it), "a directive");
		size_t k = 0;
		while (k < M.ndirs && strcmp(M.dirs[k].name, name))
			k++;
		if (k == M.ndirs)
			fail(node(*it), "unknown directive '%s'", name);
		bits |= 1u << k;
	}
	*diag = diag_index(map_need(map, "diag", "a directive constraint"));
	return bits;
}

static void dir_pair(const ynode *v, unsigned *lo, unsigned *hi)
{
	expect(v, YAML_SEQUENCE_NODE, "a range");
	if (v->data.sequence.items.top - v->data.sequence.items.start != 2)
		fail(v, "a range is [lowest, highest]");
	*lo = to_uint(node(v->data.sequence.items.start[0]), "the lowest value", UINT32_MAX);
	*hi = to_uint(node(v->data.sequence.items.start[1]), "the highest value", UINT32_MAX);
	if (*lo > *hi)
		fail(v, "range [%u, %u] is empty", *lo, *hi);
}

/* range: [[lo, hi], ...] (one per argument; a single [lo, hi] for all of them);
 * product: {max: N, diag: ID} (the arguments' product, missing ones being 1). */
static void dir_ranges(dir_row *d, const ynode *e)
{
	const ynode *v;
	for (unsigned k = 0; k < 3; k++) /* ptxas refuses a 0 unless range: says */
		d->lo[k] = 1, d->hi[k] = UINT32_MAX;
	if ((v = map_get(e, "range"))) {
		expect(v, YAML_SEQUENCE_NODE, "range");
		size_t n = v->data.sequence.items.top - v->data.sequence.items.start;
		if (n && node(v->data.sequence.items.start[0])->type != YAML_SEQUENCE_NODE) {
			dir_pair(v, &d->lo[0], &d->hi[0]);
			for (unsigned k = 1; k < 3; k++)
				d->lo[k] = d->lo[0], d->hi[k] = d->hi[0];
		} else {
			if (n != d->max_args)
				fail(v, "range gives %zu ranges for %u arguments", n, d->max_args);
			for (size_t k = 0; k < n; k++)
				dir_pair(node(v->data.sequence.items.start[k]), &d->lo[k], &d->hi[k]);
		}
	}
	if ((v = map_get(e, "product"))) {
		static const char *const keys[] = {"max", "diag", NULL};
		check_keys(v, "a product limit", keys);
		d->product = to_uint(map_need(v, "max", "a product limit"), "max", UINT32_MAX);
		d->product_diag = diag_index(map_need(v, "diag", "a product limit"));
		if (d->max_args < 2)
			fail(v, "product needs a directive of several arguments");
	}
}

void read_directives(void)
{
	static const char *const keys[] = {"name", "print", "args", "sm", "ptx", "sm_max", "arch", "targets",
	                                   "kernel_only", "needs", "excludes", "range", "product", NULL};
	ynode *root = root_list("directives.yaml");
	if (!root)
		return;
	SEQ_EACH(it, root) {
		ynode *e = node(*it), *v;
		check_keys(e, "a directive", keys);
		dir_row *d = PUSH(M.dirs, M.ndirs, M.cap_dirs);
		*d = (dir_row){.kernel_only = true};
		d->name = identifier(map_need(e, "name", "a directive"), "directive name");
		for (size_t j = 0; j + 1 < M.ndirs; j++)
			if (!strcmp(M.dirs[j].name, d->name))
				fail(e, "duplicate directive '%s'", d->name);
		d->print = scalar(map_need(e, "print", "a directive"), "print");
		v = map_need(e, "args", "a directive");
		expect(v, YAML_SEQUENCE_NODE, "args");
		if (v->data.sequence.items.top - v->data.sequence.items.start != 2)
			fail(v, "args must be [min, max]");
		d->min_args = to_uint(node(v->data.sequence.items.start[0]), "args", 255);
		d->max_args = to_uint(node(v->data.sequence.items.start[1]), "args", 255);
		if (d->min_args > d->max_args)
			fail(v, "args [min, max] has min > max");
		read_window(e, &d->sm, &d->ptx);
		d->targets = entry_targets(e, &d->sm);
		if ((v = map_get(e, "kernel_only")))
			d->kernel_only = to_bool(v, "kernel_only");
		dir_ranges(d, e);
		d->needs_at = map_get(e, "needs");
		d->excludes_at = map_get(e, "excludes");
	}
	if (M.ndirs > 32)
		fail(root, "more than 32 directives");
	for (size_t i = 0; i < M.ndirs; i++) {
		if (M.dirs[i].needs_at)
			M.dirs[i].needs = dir_constraint(M.dirs[i].needs_at, &M.dirs[i].needs_diag);
		if (M.dirs[i].excludes_at)
			M.dirs[i].excludes = dir_constraint(M.dirs[i].excludes_at, &M.dirs[i].excludes_diag);
	}
}

/* ---------------------------------------------------------------- flags.yaml, diag/ */

void read_flags(void)
{
	static const char *const keys[] = {"name", "bits", NULL};
	ynode *root = root_list("flags.yaml");
	if (!root)
		return;
	unsigned used = 0;
	SEQ_EACH(it, root) {
		ynode *e = node(*it);
		check_keys(e, "a flag", keys);
		const char *name = identifier(map_need(e, "name", "a flag"), "flag name");
		if (strs_find(&M.flags, name) >= 0)
			fail(e, "duplicate flag '%s'", name);
		ynode *b = map_get(e, "bits");
		unsigned bits = b ? to_uint(b, "a valued flag's bits", 6) : 1;
		if (!bits)
			fail(e, "a flag's bits are 1 or more");
		if (used + bits > 32)
			fail(e, "node flags need more than 32 bits");
		M.flag_bits[M.flags.n] = bits;
		used += bits;
		strs_push(&M.flags, name);
	}
}

/* names.yaml: {name: WARP_SZ, why: "...", scope: module}; scope module: a
 * function-local array may take the name, a module variable or function not. */
void read_names(void)
{
	static const char *const keys[] = {"name", "why", "scope", NULL};
	ynode *root = root_list("names.yaml");
	if (!root)
		return;
	SEQ_EACH(it, root) {
		ynode *e = node(*it), *v;
		check_keys(e, "a reserved name", keys);
		const char *name = scalar(map_need(e, "name", "a reserved name"), "name");
		if (!*name || strspn(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_$") != strlen(name) ||
		    (name[0] >= '0' && name[0] <= '9') || name[0] == '$')
			fail(e, "'%s' is no name MIR can spell", name);
		if (strs_find(&M.reserved, name) >= 0)
			fail(e, "duplicate reserved name '%s'", name);
		unsigned char module = 0;
		if ((v = map_get(e, "scope"))) {
			if (strcmp(scalar(v, "scope"), "module"))
				fail(v, "scope is module (left out: every name)");
			module = 1;
		}
		size_t n = M.reserved.n; /* strs_push counts the row */
		*PUSH(M.reserved_module, n, M.cap_reserved_module) = module;
		strs_push(&M.reserved, name);
		strs_push(&M.reserved_why, scalar(map_need(e, "why", "a reserved name"), "why"));
	}
}

void read_diags(void)
{
	static const char *const keys[] = {"id", "text", "seed", "warning", "off", NULL};
	ynode *root = root_list("a diagnostics file");
	if (!root)
		return;
	SEQ_EACH(it, root) {
		ynode *e = node(*it);
		check_keys(e, "a diagnostic", keys);
		diag_row *d = PUSH(M.diags, M.ndiags, M.cap_diags);
		d->id = identifier(map_need(e, "id", "a diagnostic"), "diagnostic id");
		d->text = scalar(map_need(e, "text", "a diagnostic"), "text");
		d->warning = -1;
		ynode *w = map_get(e, "warning");
		if (w) { /* the option's name as -W spells it: lower case words joined by '-' */
			const char *name = scalar(w, "warning");
			if (!*name || strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789-") != strlen(name) ||
			    name[0] == '-' || !strncmp(name, "no-", 3) || !strcmp(name, "error") ||
			    !strncmp(name, "error=", 6))
				fail(w, "a warning name is lower-case words joined by '-' (not 'no-...' or 'error'): '%s'", name);
			d->warning = strs_find(&M.warnings, name);
			bool first = d->warning < 0;
			if (first) {
				if (M.warnings.n == 64)
					fail(w, "more than 64 warning names");
				strs_push(&M.warnings, name);
				d->warning = (int)M.warnings.n - 1;
			}
			/* off: true, a warning reported only under -WNAME, said by every row of it */
			ynode *o = map_get(e, "off");
			bool off = o && to_bool(o, "off");
			uint64_t bit = (uint64_t)1 << d->warning;
			if (first)
				M.warnings_off |= off ? bit : 0;
			else if (off != !!(M.warnings_off & bit))
				fail(o ? o : w, "every row of warning '%s' says off: true, or none does", name);
		} else if (map_get(e, "off")) {
			fail(map_get(e, "off"), "off: belongs to a warning's row");
		}
		for (size_t j = 0; j + 1 < M.ndiags; j++)
			if (!strcmp(M.diags[j].id, d->id))
				fail(e, "duplicate diagnostic id '%s'", d->id);
	}
}
