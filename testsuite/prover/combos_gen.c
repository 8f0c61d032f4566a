/* The combination proof's generator: one MIR statement per token combination
 * of every variant of every operation, read from the operation tables (the
 * rows `ptxemit --describe` prints), for the proof of combos.c.
 *
 * Every slot a variant lists is enumerated: each of its tokens, and empty too
 * where it is optional; a fixed slot takes each token it allows. A slot of
 * more than BIG tokens (the video byte selectors) takes each token once beside
 * the first choice of the other slots, and they take every combination beside
 * its first. A statement is written in PTX's spelling (the slots in print
 * order, the fixed ones too; a noprint slot as a property), with operands of
 * the kinds, types and group sizes the variant's lists give, for its
 * variant's lowest target and PTX ISA version, in the kernel of its cta_group
 * (ptxas refuses two cta_groups in one function). A variant with an optional
 * operand gives two statements per combination: with it and without it. A
 * texture's or surface's address takes the coordinates its geometry takes,
 * behind a u64 handle.
 *
 * Each statement is also written with its modifier tokens in another order:
 * the slots' classes (slots whose tokens overlap, such as mma's four types
 * or two layouts) in reverse, each class's tokens in PTX's order, the fixed
 * tokens left out; it must print the same PTX.
 *
 * Prints "S OPI TARGET PTX KERNEL COMBINATION<tab>TEXT<tab>TEXT IN THE OTHER
 * ORDER" per statement, "P OPI TARGET PTX KERNEL<tab>TEXT" per value a kernel
 * defines first, and per operation "count OP VARIANTS DESCRIBED BUILT
 * STATEMENTS LISTED RULED" (DESCRIBED: the combinations written for, BIG
 * slots counted once a token; LISTED: the full product of the variants'
 * lists; BUILT: those a statement was written for; RULED: those a rule of the
 * tables refuses on every target, written apart as "R" lines, emit_ruled's
 * comment below); "unbuilt OP variant N: WHY" for an operand it cannot write.
 * The counts are printed as awk printed them (six significant digits from
 * 2^31 on: LISTED), so that the sums the report gives stay those the shell
 * scripts this replaced gave. */
#include "combos.h"

#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tables/describe.h"
#include "tables/query.h"
#include "util/buf.h"

enum { BIG = 64 };

/* an operand or result as the describe text states it */
typedef struct opnd {
	const px_opnd_def *d;
	const char *kind;
	const char *type; /* a fixed type's name, or NULL */
	int tslot, cslot, sslot, crd, neg; /* slot indexes, -1: none */
	unsigned count;   /* a group of count (0: no fixed group) */
	bool group, geo, opt, sink, has_imm, has_lo;
	const char *space; /* the space named, or NULL */
	unsigned crdn;
	char lo[32];
} opnd;

typedef struct gen {
	FILE *out;
	const px_op_def *op;
	char opi[64];
	pv_map defined; /* "MODULE KERNEL NAME" of the values each kernel defines */
	pv_map unbuilt, unruled, gpuunruled;
	unsigned nfresh, nvariants, vno, built, statements, ruled;
	double described, listed;
	/* the op's slots */
	unsigned nslots, ngroups, group[PX_MAX_SLOTS], ntakes[PX_MAX_SLOTS];
	int geoslot, geotslot; /* the geometry slot and the coordinate type's (-1: s32) */
	const px_rule *rules[64];
	unsigned nrules;
	/* the variant */
	const px_variant *var;
	const char *target;
	char ptxv[8];
	const uint16_t *vt[PX_MAX_SLOTS]; /* its tokens, NULL: none */
	uint16_t fixed[PX_MAX_SLOTS][2];  /* a fixed slot's own token as a list */
	unsigned nvt[PX_MAX_SLOTS];
	bool vopt[PX_MAX_SLOTS], derives[PX_MAX_SLOTS];
	unsigned negpos[PX_MAX_SLOTS];
	opnd res[PX_MAX_OPNDS], ops[PX_MAX_OPNDS];
	unsigned nres, nops;
	/* the combination */
	uint16_t tok[PX_MAX_SLOTS];
	char kern[8];
	bool ruling;
	char *why;
	int rmatch;
} gen;

/* a number as awk prints it: an integer in int's range as one, else %.6g */
static void awknum(char *s, size_t n, double x)
{
	if (x >= -2147483647.0 && x <= 2147483647.0 && x == (double)(long long)x)
		snprintf(s, n, "%d", (int)x);
	else
		snprintf(s, n, "%.6g", x);
}

static const char *tokname(unsigned t) { return px_tok_names[t]; }

static void set_why(gen *g, char *why)
{
	free(g->why);
	g->why = why;
}

static int in_slots(const gen *g, int k) { return k >= 0 && (unsigned)k < g->nslots ? k : -1; }

static void read_opnd(const gen *g, const px_opnd_def *d, bool operand, opnd *o)
{
	*o = (opnd){.d = d, .tslot = in_slots(g, d->type_slot), .cslot = -1, .sslot = -1, .crd = -1, .neg = -1};
	o->kind = px_opnd_kind_name(d->kind) ? px_opnd_kind_name(d->kind) : "?";
	if (o->tslot < 0 && d->type)
		o->type = px_types[d->type].name;
	if (d->flags & PX_OPND_GROUP) {
		o->cslot = in_slots(g, d->count_slot);
		o->group = o->cslot < 0;
		o->count = o->cslot < 0 ? d->count : 0;
	}
	bool spaced = d->kind == PX_OK_ADDR ||
	              ((d->kind == PX_OK_VALUE || d->kind == PX_OK_SYM) && (d->space_slot >= 0 || d->space != PX_AS_NONE));
	if (operand && spaced) {
		o->sslot = in_slots(g, d->space_slot);
		if (d->space_slot < 0)
			o->space = px_space_name(d->space) ? px_space_name(d->space) : "?";
	}
	if (d->flags & PX_OPND_COORDS) {
		if (in_slots(g, d->count_slot) >= 0)
			o->crd = d->count_slot;
		else if (d->count)
			o->crdn = d->count;
		else
			o->geo = true;
	}
	o->has_imm = d->allowed && d->allowed[1] >= 0;
	if (d->range) {
		/* the range's low end, or 0 where the range holds it; a range
		 * that holds 0 where 0 is no value it takes: its least positive
		 * power of two or multiple */
		long long lo = d->range->lo <= 0 && d->range->hi >= 0 ? 0 : d->range->lo;
		if (d->range->pow2 && lo <= 0)
			lo = 1;
		if (d->range->nonzero && lo == 0)
			lo = d->range->multiple > 1 ? d->range->multiple : 1;
		snprintf(o->lo, sizeof o->lo, "%lld", lo);
		o->has_lo = true;
	}
	if (d->negate && d->negate <= g->nslots)
		o->neg = d->negate - 1;
	o->opt = d->flags & PX_OPND_OPTIONAL;
	o->sink = d->flags & PX_OPND_SINK_ONLY;
}

/* the MIR type of an operand for the combination, "" where it has none */
static void type_of(const gen *g, const opnd *o, char *t, size_t n)
{
	const char *s = o->tslot >= 0 ? tokname(g->tok[o->tslot]) : o->type ? o->type : "";
	if (!*s || o->tslot < 0 || o->d->derive == PX_DERIVE_NONE) {
		snprintf(t, n, "%s", s);
		return;
	}
	/* the width doubled or halved, as awk reads the digits after the first letter */
	double w = atof(s + 1) * (o->d->derive == PX_DERIVE_WIDE ? 2 : 0.5);
	char num[24];
	awknum(num, sizeof num, w);
	snprintf(t, n, "%c%s", s[0], num);
}

static unsigned count_of(const gen *g, const opnd *o)
{
	if (o->cslot < 0)
		return o->count;
	unsigned c = 0;
	for (const char *p = tokname(g->tok[o->cslot]); *p; p++)
		if (*p >= '0' && *p <= '9')
			c = c * 10 + (unsigned)(*p - '0');
	return c;
}

/* the width in bits of a type (f16x2: 32), 0 where it has none (pred) */
static unsigned width(const char *t)
{
	while (*t >= 'a' && *t <= 'z')
		t++;
	char *end;
	unsigned long n = strtoul(t, &end, 10);
	if (end == t || (*end && *end != 'x'))
		return 0;
	if (*end == 'x') {
		const char *x = strrchr(t, 'x') + 1;
		if (!*x || strspn(x, "0123456789") != strlen(x) || end != strchr(t, 'x'))
			return 0;
		n *= strtoul(x, NULL, 10);
	}
	return (unsigned)n;
}

/* whether a group of type t is the pieces of one register of the type the
 * statement's one type slot names (mov's packing and unpacking): pieces are
 * written as a list, (a, b) or several results, not as an array value. An
 * operation of several type slots (mma's) takes its groups as arrays. */
static bool pieces(const gen *g, const char *t)
{
	if (width(t) == 8) /* 8-bit values have no array: always a list */
		return true;
	unsigned n = 0;
	for (unsigned i = 0; i < g->nslots; i++)
		n += (g->op->slots[i].flags & PX_SLOT_TYPE) != 0;
	if (n != 1)
		return false;
	for (unsigned i = 0; i < g->nslots; i++)
		if ((g->op->slots[i].flags & PX_SLOT_TYPE) && g->tok[i]) {
			unsigned w = width(tokname(g->tok[i]));
			return w > 0 && width(t) > 0 && width(t) < w;
		}
	return false;
}

/* a line of the kernel's prelude */
static void prelude(gen *g, const char *line)
{
	fprintf(g->out, "%s %s %s %s %s\t  %s\n", g->ruling ? "Q" : "P", g->opi, g->target, g->ptxv, g->kern, line);
}

/* whether name is new in the kernel (and now defined) */
static bool fresh_name(gen *g, const char *name)
{
	char *key = pv_printf("%s %s %s %s", g->target, g->ptxv, g->kern, name);
	bool fresh;
	void **slot = pv_map_slot(&g->defined, key, &fresh);
	*slot = g;
	free(key);
	return fresh;
}

/* a line the kernel's prelude holds once: a label or a local array */
static const char *once(gen *g, const char *name, const char *line)
{
	if (fresh_name(g, name))
		prelude(g, line);
	return name;
}

/* a value of type t and count c (0: a scalar), defined once in the kernel's
 * prelude; its name in buf */
static const char *value(gen *g, const char *t, unsigned c, char *name, size_t n)
{
	if (c)
		snprintf(name, n, "%%v%s_%u", t, c);
	else
		snprintf(name, n, "%%v%s", t);
	if (!fresh_name(g, name))
		return name;
	char *line;
	char u32[16];
	if (strcmp(t, "pred") == 0) {
		value(g, "u32", 0, u32, sizeof u32);
		line = pv_printf("%s:pred = setp.ne %%vu32, 0", name);
	} else if (width(t) == 8) /* no mov writes an 8-bit value (ptxemit-mir(5)); a load does */
		line = pv_printf("%s:%s = ld.global [%%g]", name, t);
	else {
		bool fl = t[0] == 'f' && t[1] && strspn(t + 1, "0123456789") == strlen(t + 1);
		char cnt[16] = "";
		if (c)
			snprintf(cnt, sizeof cnt, "[%u]", c);
		line = pv_printf("%s:%s%s = mov %s", name, t, cnt, fl ? "0.0" : "0");
	}
	prelude(g, line);
	free(line);
	return name;
}

/* the address of an operand in the space named, or NULL for a space it has
 * no address for. The module declares @sh (shared), @gl (global) and @cn
 * (const) and gives each kernel a by-value parameter %pa (param); a kernel
 * that needs one declares a local array @lo first. */
static const char *address(gen *g, const char *sp)
{
	static const struct { const char *space, *addr; } fixed[] = {
		{"generic", "[%p]"}, {"global", "[%g]"}, {"shared", "[@sh]"}, {"shared::cta", "[@sh]"},
		{"shared::cluster", "[@sh]"}, {"const", "[@cn]"}, {"param", "[%pa]"},
	};
	for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++)
		if (strcmp(sp, fixed[i].space) == 0)
			return fixed[i].addr;
	char v[32];
	if (strcmp(sp, "tmem") == 0)
		return value(g, "u32", 0, v, sizeof v), "[%vu32]";
	if (strcmp(sp, "local") == 0)
		return once(g, "@lo", "local @lo : b64[64] align 16"), "[@lo]";
	return NULL;
}

/* a symbol in the space named (a shared array where the space is generic) */
static const char *symbol(const char *sp)
{
	return strcmp(sp, "global") == 0 ? "@gl" : strcmp(sp, "const") == 0 ? "@cn" : "@sh";
}

/* the literal of an allowed set: the set of the slot's token in the
 * combination, else the first */
static int one_of(const gen *g, const opnd *o)
{
	const int32_t *a = o->d->allowed, by = a[0];
	if (by >= 0 && (unsigned)by < g->nslots)
		for (const int32_t *p = a + 1; p[0] >= 0; p += 2 + p[1])
			if (p[0] == g->tok[by] && p[1])
				return p[2];
	return a[3];
}

/* n copies of s, comma-separated, appended */
static void list_of(px_buf *b, const char *s, unsigned n)
{
	for (unsigned k = 0; k < n; k++)
		px_buf_printf(b, "%s%s", k ? ", " : "", s);
}

/* the space an operand's address or symbol is in */
static const char *space_of(const gen *g, const opnd *o, const char *dflt)
{
	if (o->sslot < 0)
		return o->space ? o->space : "";
	if (g->tok[o->sslot])
		return tokname(g->tok[o->sslot]);
	const px_slot_def *s = &g->op->slots[o->sslot];
	return s->flags & PX_SLOT_FIXED ? tokname(s->fixed_tok) : dflt;
}

/* a texture's or surface's address, [handle, (c0, ...)]: the coordinates its
 * geometry takes, the leading integer indexes s32, the others of the
 * coordinate type; the handle a u64 value (a texture or surface object) */
static void geo_address(gen *g, px_buf *b)
{
	unsigned gt = g->geoslot >= 0 ? g->tok[g->geoslot] : 0;
	const px_geometry *geo = gt ? px_geometry_of(gt) : NULL;
	if (!geo) {
		set_why(g, pv_printf("no coordinates for geometry %s", tokname(gt)));
		return;
	}
	const char *t = g->geotslot >= 0 ? tokname(g->tok[g->geotslot]) : "s32";
	px_buf r;
	px_buf_init(&r);
	char v[64];
	for (unsigned k = 1; k <= geo->ncoords; k++)
		px_buf_printf(&r, "%s%s", k > 1 ? ", " : "", value(g, k <= geo->nindex ? "s32" : t, 0, v, sizeof v));
	px_buf_printf(b, "[%s, (%s)]", value(g, "u64", 0, v, sizeof v), r.data ? r.data : "");
	px_buf_free(&r);
}

/* one operand of the statement appended to b, or why set where it cannot be written */
static void operand(gen *g, const opnd *o, px_buf *b)
{
	char t[32], v[64];
	type_of(g, o, t, sizeof t);
	unsigned c = count_of(g, o);
	switch (o->d->kind) {
	case PX_OK_IMM:
		if (o->has_imm)
			px_buf_printf(b, "%d", one_of(g, o));
		else
			px_buf_puts(b, o->has_lo ? o->lo : "0");
		return;
	case PX_OK_PRED:
		px_buf_puts(b, value(g, "pred", 0, v, sizeof v));
		return;
	case PX_OK_LABEL:
		/* a label the prelude defines (a branch back to it is never
		 * taken: the statements are judged, not run); a list of labels has two */
		once(g, "^l", "^l:");
		px_buf_puts(b, o->group || o->cslot >= 0 ? "(^l, ^l)" : "^l");
		return;
	case PX_OK_SYM:
		px_buf_puts(b, symbol(space_of(g, o, "")));
		return;
	case PX_OK_ADDR: {
		const char *sp = space_of(g, o, "generic"), *a = address(g, sp);
		if (!a) {
			set_why(g, pv_printf("an address in %s", sp));
			return;
		}
		/* a tensor map's coordinates, s32 values: one per dimension of
		 * the slot named (.dim: 3d, three), or the count given */
		unsigned n = o->crdn;
		if (o->crd >= 0) {
			n = 0;
			for (const char *p = tokname(g->tok[o->crd]); *p; p++)
				if (*p >= '0' && *p <= '9')
					n = n * 10 + (unsigned)(*p - '0');
		}
		if (n) {
			px_buf_put(b, a, strlen(a) - 1);
			px_buf_puts(b, ", (");
			list_of(b, value(g, "s32", 0, v, sizeof v), n);
			px_buf_puts(b, ")]");
		} else if (o->geo)
			geo_address(g, b);
		else
			px_buf_puts(b, a);
		return;
	}
	case PX_OK_VALUE:
	case PX_OK_REG:
		if (o->d->kind == PX_OK_VALUE && o->has_imm) {
			px_buf_printf(b, "%d", one_of(g, o));
			return;
		}
		if (o->d->kind == PX_OK_VALUE && o->has_lo) {
			px_buf_puts(b, o->lo);
			return;
		}
		if (!*t) {
			set_why(g, pv_printf("operand %s has no type", o->d->name));
			return;
		}
		if (c && pieces(g, t)) {
			px_buf_putc(b, '(');
			list_of(b, value(g, t, 0, v, sizeof v), c);
			px_buf_putc(b, ')');
		} else
			px_buf_puts(b, value(g, t, c, v, sizeof v));
		return;
	default:
		set_why(g, pv_printf("a %s operand", o->kind));
	}
}

/* a result appended to b: a fresh name for a scalar (a result is never read
 * by a later statement, so no statement sees the space or value another one
 * left in a name), several for pieces; a group is the kernel's value of its
 * type and count (fresh groups would multiply the registers of the wgmma and
 * tcgen05 kernels) */
static void result(gen *g, const opnd *o, px_buf *b)
{
	if (o->sink) {
		px_buf_putc(b, '_');
		return;
	}
	char t[32], v[64];
	type_of(g, o, t, sizeof t);
	unsigned c = count_of(g, o);
	if (!*t) {
		set_why(g, pv_printf("result %s has no type", o->d->name));
		return;
	}
	if (c && pieces(g, t))
		for (unsigned k = 1; k <= c; k++)
			px_buf_printf(b, "%s%%d%u:%s", k > 1 ? ", " : "", ++g->nfresh, t);
	else if (c)
		px_buf_puts(b, value(g, t, c, v, sizeof v));
	else
		px_buf_printf(b, "%%d%u:%s", ++g->nfresh, t);
}

/* "R1, R2 = " of the results, "" without any */
static void results(gen *g, px_buf *b)
{
	for (unsigned i = 0; i < g->nres; i++) {
		if (i)
			px_buf_puts(b, ", ");
		result(g, &g->res[i], b);
	}
	if (g->nres)
		px_buf_puts(b, " = ");
}

/* the operands 0 ... n-1 as " A, B" */
static void operands(gen *g, unsigned n, px_buf *b)
{
	for (unsigned i = 0; i < n; i++) {
		px_buf_puts(b, i ? ", " : " ");
		operand(g, &g->ops[i], b);
	}
}

/* the PTX spelling of the combination (the slots in print order) in s, the
 * noprint slots' tokens as properties " {.k = t, ...}" in props */
static void spelling(const gen *g, px_buf *s, px_buf *props)
{
	px_buf_puts(s, g->op->name);
	for (unsigned i = 0; i < g->nslots; i++) {
		if (!g->tok[i])
			continue;
		if (g->op->slots[i].flags & PX_SLOT_NOPRINT)
			px_buf_printf(props, "%s%s = %s", props->len ? ", " : " {", g->op->slots[i].name, tokname(g->tok[i]));
		else
			px_buf_printf(s, ".%s", tokname(g->tok[i]));
	}
	if (props->len)
		px_buf_putc(props, '}');
}

static void kernel_of(gen *g, char k)
{
	unsigned cta = 0;
	int s = px_slot_find(g->op, PX_SN_cta_group);
	if (s >= 0)
		for (const char *p = tokname(g->tok[s]); *p; p++)
			if (*p >= '0' && *p <= '9')
				cta = cta * 10 + (unsigned)(*p - '0');
	snprintf(g->kern, sizeof g->kern, "%c%u", k, cta);
}

/* an operation that reads the carry flag follows a .cc instruction that
 * sets it in its basic block (ptxemit refuses it otherwise): one in the
 * kernel's prelude; every statement after it keeps its flag */
static void carry(gen *g)
{
	char v[16];
	if (g->op->flags & PX_OPF_CARRY_IN) {
		value(g, "u32", 0, v, sizeof v);
		once(g, "%vcc", "%vcc:u32 = add.cc.u32 %vu32, %vu32");
	}
}

static void note(pv_map *set, char *line)
{
	bool fresh;
	*pv_map_slot(set, line, &fresh) = set;
	free(line);
}

/* the statements of the current combination: "S OPI TARGET PTX KERNEL
 * COMBINATION<tab>TEXT<tab>TEXT IN THE OTHER ORDER" */
static void emit(gen *g, unsigned combo)
{
	px_buf s, props, s2, r, tail;
	px_buf_init(&s), px_buf_init(&props), px_buf_init(&s2), px_buf_init(&r), px_buf_init(&tail);
	spelling(g, &s, &props);
	/* the other order: classes last to first, each in PTX's order, without
	 * the fixed tokens the operation always has (a fixed slot that takes no other) */
	px_buf_puts(&s2, g->op->name);
	for (unsigned c = g->ngroups; c >= 1; c--)
		for (unsigned i = 0; i < g->nslots; i++) {
			const px_slot_def *sl = &g->op->slots[i];
			if (g->group[i] == c && !(sl->flags & PX_SLOT_NOPRINT) && g->tok[i] &&
			    !((sl->flags & PX_SLOT_FIXED) && g->ntakes[i] == 1))
				px_buf_printf(&s2, ".%s", tokname(g->tok[i]));
		}
	kernel_of(g, 'k');
	carry(g);
	set_why(g, NULL);
	results(g, &r);
	unsigned lastopt = 0;
	for (unsigned i = 0; i < g->nops && !lastopt; i++)
		if (g->ops[i].opt)
			lastopt = i + 1;
	/* every operand first, for the values they define */
	operands(g, g->nops, &tail);
	if (g->why) {
		note(&g->unbuilt, pv_printf("unbuilt %s variant %u: %s", g->op->name, g->vno, g->why));
		goto done;
	}
	/* with every optional operand, then (where there is one) without */
	for (unsigned dropped = 0; dropped <= (lastopt > 0); dropped++) {
		if (dropped) {
			px_buf_free(&r), px_buf_free(&tail);
			results(g, &r);
			operands(g, lastopt - 1, &tail);
		}
		const char *pr = props.data ? props.data : "", *rr = r.data ? r.data : "", *tt = tail.data ? tail.data : "";
		fprintf(g->out, "S %s %s %s %s %u\t  %s%s%s%s\t  %s%s%s%s\n", g->opi, g->target, g->ptxv, g->kern, combo,
		        rr, s.data, tt, pr, rr, s2.data, tt, pr);
		g->statements++;
	}
	g->built++;
done:
	px_buf_free(&s), px_buf_free(&props), px_buf_free(&s2), px_buf_free(&r), px_buf_free(&tail);
}

/* whether a rule of the tables refuses the combination on every target (each
 * slot it names holds one of its tokens, or is empty where it says so); the
 * first such rule in rmatch */
static bool refused(gen *g)
{
	for (unsigned r = 0; r < g->nrules; r++) {
		bool all = true;
		for (unsigned k = 0; k < g->nslots && all; k++) {
			const uint16_t *w = g->rules[r]->when[k];
			if (!w)
				continue;
			if (!w[0])
				all = !g->tok[k];
			else {
				all = false;
				for (; *w && !all; w++)
					all = *w == g->tok[k];
			}
		}
		if (all) {
			g->rmatch = (int)r;
			return true;
		}
	}
	return false;
}

/* whether the first rule that refuses the combination refuses it for the
 * GPU's result alone (ptxas assembles it) */
static bool gpu_only(gen *g)
{
	return !refused(g) || g->rules[g->rmatch]->gpu;
}

static char *buf_take(px_buf *b)
{
	char *s = pv_strdup(b->data ? b->data : "");
	px_buf_free(b);
	return s;
}

/* whether an operand is a symbol's address, [@sh] or [%pa] */
static bool symbol_address(const char *o)
{
	size_t n = strlen(o);
	if (strcmp(o, "[%pa]") == 0)
		return true;
	if (n < 4 || o[0] != '[' || o[1] != '@' || o[n - 1] != ']')
		return false;
	for (size_t i = 2; i < n - 1; i++)
		if (o[i] < 'a' || o[i] > 'z')
			return false;
	return true;
}

/* The combination a rule refuses, written for ptxas: ptxemit prints no PTX
 * for it, so beside it goes a carrier, the same statement (the same operands)
 * with one slot the rule names holding another token the variant allows that
 * no rule refuses, a slot no operand's type, space, count or coordinates come
 * from first (each rule that refuses the carrier in turn, at most 4).
 * combos_ruled.c translates the carrier and writes the refused
 * combination's PTX spelling in place of the carrier's (and its properties'
 * spellings on the operands). Prints "R OPI TARGET PTX KERNEL
 * COMBINATION<tab>CARRIER<tab>STATEMENT<tab>CARRIER'S SPELLING<tab>SPELLING
 * <tab>PROPERTIES<tab>GPU" (GPU: "gpu" where only rules for the GPU's result
 * refuse it, which ptxas must assemble; PROPERTIES: "CARRIER'S TOKEN TOKEN"
 * for each property changed, a token printed on an operand as .TOKEN, "- N"
 * for a negation turned on or off, the '-' before the Nth operand, the
 * results counted, or "@ SYMBOL" for the address the refused statement
 * names, [@sh] or [%pa], where the carrier's is of another space) and the
 * values the kernel (r0, r1... by cta_group) defines first as "Q" lines;
 * "unruled OP variant N: WHY" where no carrier is found. */
static void emit_ruled(gen *g, unsigned combo)
{
	const char *gpu = gpu_only(g) ? "gpu" : "";
	kernel_of(g, 'r');
	g->ruling = true;
	set_why(g, NULL);
	carry(g);
	px_buf r, tail, sp, props0, sp2, props2, tail2, pairs;
	px_buf_init(&r), px_buf_init(&tail), px_buf_init(&sp), px_buf_init(&props0);
	px_buf_init(&sp2), px_buf_init(&props2), px_buf_init(&tail2), px_buf_init(&pairs);
	char *o[PX_MAX_OPNDS];
	results(g, &r);
	for (unsigned i = 0; i < g->nops; i++) {
		px_buf b;
		px_buf_init(&b);
		operand(g, &g->ops[i], &b);
		o[i] = buf_take(&b);
		px_buf_printf(&tail, "%s%s", i ? ", " : " ", o[i]);
	}
	g->ruling = false;
	if (g->why) {
		note(&g->unruled, pv_printf("unruled %s variant %u: %s", g->op->name, g->vno, g->why));
		goto done;
	}
	spelling(g, &sp, &props0);
	uint16_t saved[PX_MAX_SLOTS];
	bool has_saved[PX_MAX_SLOTS] = {0};
	bool found = false;
	for (unsigned round = 1; round <= 4 && refused(g); round++) {
		int rm = g->rmatch;
		const px_rule *rule = g->rules[rm];
		unsigned cand[PX_MAX_SLOTS], ncand = 0;
		for (unsigned pass = 0; pass <= 1; pass++)
			for (unsigned k = 0; k < g->nslots; k++)
				if (rule->when[k] && g->derives[k] == pass)
					cand[ncand++] = k;
		found = false;
		for (unsigned c = 0; c < ncand && !found; c++) {
			unsigned k = cand[c];
			uint16_t save = g->tok[k];
			bool noprint = g->op->slots[k].flags & PX_SLOT_NOPRINT;
			/* the slot's other choices: a token first, then empty where
			 * optional (a property's token is printed on an operand: only
			 * a token stands for a token there; a negation is printed '-'
			 * before its operand, so empty and filled stand for each other) */
			uint16_t ch[1024];
			unsigned nch = 0;
			for (; nch < g->nvt[k] && nch < 1023; nch++)
				ch[nch] = g->vt[k][nch];
			if (g->vopt[k] && (!noprint || g->negpos[k]))
				ch[nch++] = 0;
			for (unsigned j = 0; j < nch && !found; j++) {
				if (ch[j] == save || (noprint && !save && !g->negpos[k]))
					continue;
				g->tok[k] = ch[j];
				if (!refused(g) || g->rmatch != rm) {
					found = true;
					if (!has_saved[k])
						saved[k] = save, has_saved[k] = true;
					if (g->negpos[k])
						px_buf_printf(&pairs, "%s- %u", pairs.len ? " " : "", g->negpos[k]);
					else if (noprint)
						px_buf_printf(&pairs, "%s%s %s", pairs.len ? " " : "", tokname(ch[j]), tokname(save));
				}
			}
			if (!found)
				g->tok[k] = save;
		}
		if (!found)
			break;
	}
	found = !refused(g);
	spelling(g, &sp2, &props2);
	/* a slot an operand's space came from changed (st's .param): the carrier
	 * takes the operands of its own space, and where the refused statement's
	 * address is a symbol, "@ SYMBOL" puts it back in the PTX */
	bool derived = false;
	for (unsigned k = 0; k < g->nslots; k++)
		derived |= has_saved[k] && g->derives[k];
	if (derived) {
		g->ruling = true;
		set_why(g, NULL);
		for (unsigned i = 0; i < g->nops; i++) {
			px_buf b;
			px_buf_init(&b);
			operand(g, &g->ops[i], &b);
			char *o2 = buf_take(&b);
			px_buf_printf(&tail2, "%s%s", i ? ", " : " ", o2);
			if (strcmp(o2, o[i]) != 0 && symbol_address(o[i]))
				px_buf_printf(&pairs, "%s@ %.*s", pairs.len ? " " : "", (int)strlen(o[i]) - 2, o[i] + 1);
			else if (strcmp(o2, o[i]) != 0)
				set_why(g, pv_printf("operand %u of another space: %s", i + 1, o[i]));
			free(o2);
		}
		g->ruling = false;
		if (g->why)
			found = false;
	} else
		px_buf_puts(&tail2, tail.data ? tail.data : "");
	for (unsigned k = 0; k < g->nslots; k++)
		if (has_saved[k])
			g->tok[k] = saved[k];
	const char *P0 = props0.data ? props0.data : "";
	/* a combination only rules for the GPU's result refuse, each token the
	 * rules name refused too (vadd's .min and .max): counted, not judged */
	if (!found && *gpu)
		note(&g->gpuunruled, pv_printf("gpuunruled %s variant %u: %s%s", g->op->name, g->vno, sp.data, P0));
	else if (!found)
		note(&g->unruled, pv_printf("unruled %s variant %u: no carrier for %s%s%s%s%s", g->op->name, g->vno, sp.data,
		                            P0, g->why ? " (" : "", g->why ? g->why : "", g->why ? ")" : ""));
	else
		fprintf(g->out, "R %s %s %s %s %u\t  %s%s%s%s\t  %s%s%s%s\t%s\t%s\t%s\t%s\n", g->opi, g->target, g->ptxv,
		        g->kern, combo, r.data ? r.data : "", sp2.data, tail2.data ? tail2.data : "",
		        props2.data ? props2.data : "", r.data ? r.data : "", sp.data, tail.data ? tail.data : "", P0,
		        sp2.data, sp.data, pairs.data ? pairs.data : "", gpu);
done:
	for (unsigned i = 0; i < g->nops; i++)
		free(o[i]);
	px_buf_free(&r), px_buf_free(&tail), px_buf_free(&sp), px_buf_free(&props0);
	px_buf_free(&sp2), px_buf_free(&props2), px_buf_free(&tail2), px_buf_free(&pairs);
}

/* the combination idx names (z: the zipped slots' choice), emitted */
static void combination(gen *g, const unsigned *idx, unsigned z, const bool *zipped, unsigned *ncombos)
{
	for (unsigned k = 0; k < g->nslots; k++) {
		const px_slot_def *s = &g->op->slots[k];
		if (!g->nvt[k]) {
			g->tok[k] = s->flags & PX_SLOT_FIXED ? s->fixed_tok : 0;
			continue;
		}
		unsigned n = g->nvt[k] + g->vopt[k];
		unsigned c = !zipped[k] ? idx[k] : z < n ? z : n - 1;
		/* the empty choice first, then each token */
		g->tok[k] = g->vopt[k] ? (c ? g->vt[k][c - 1] : 0) : g->vt[k][c];
	}
	if (refused(g)) {
		g->described--, g->ruled++;
		emit_ruled(g, *ncombos + 1);
	} else
		emit(g, *ncombos + 1);
	++*ncombos;
}

/* the slots an operand's type, space, count or coordinates come from */
static void derive_of(gen *g, const opnd *o)
{
	int s[] = {o->tslot, o->sslot, o->cslot, o->crd, o->geo ? g->geoslot : -1,
	           o->has_imm ? in_slots(g, o->d->allowed[0]) : -1};
	for (size_t i = 0; i < sizeof s / sizeof *s; i++)
		if (s[i] >= 0)
			g->derives[s[i]] = true;
}

static unsigned ntoks(const uint16_t *t)
{
	unsigned n = 0;
	while (t && t[n])
		n++;
	return n;
}

/* the tokens a variant lists for slot k (a fixed one's own where it lists
 * no other), NULL where it lists none */
static const uint16_t *variant_toks(gen *g, const px_variant *v, unsigned k, bool *opt)
{
	const px_slot_def *s = &g->op->slots[k];
	*opt = false;
	if (s->flags & PX_SLOT_FIXED) {
		g->fixed[k][0] = s->fixed_tok;
		return !v->allow[k] || (v->allow[k][0] == s->fixed_tok && !v->allow[k][1]) ? g->fixed[k] : v->allow[k];
	}
	*opt = v->allow[k] && !((v->require >> k) & 1);
	return v->allow[k];
}

/* every combination of variant vi */
static void variant(gen *g, unsigned vi, unsigned *ncombos)
{
	const px_op_def *op = g->op;
	const px_variant *v = &op->variants[vi];
	g->var = v, g->vno = vi + 1, g->nvariants++;
	g->target = "no";
	for (unsigned i = 0; i < px_ntargets && i < 64; i++)
		if (v->targets >> i & 1) {
			g->target = px_targets[i].name;
			break;
		}
	/* the target's own lowest PTX ISA version, where it is higher */
	const px_target *t = px_target_lookup(g->target, strlen(g->target));
	unsigned ptx = t && t->ptx > v->ptx ? t->ptx : v->ptx;
	snprintf(g->ptxv, sizeof g->ptxv, "%u.%u", ptx / 10, ptx % 10);
	for (unsigned k = 0; k < g->nslots; k++) {
		g->vt[k] = variant_toks(g, v, k, &g->vopt[k]);
		g->nvt[k] = ntoks(g->vt[k]);
		g->derives[k] = false, g->negpos[k] = 0;
	}
	unsigned n;
	const px_opnd_def *d = px_var_results(op, v, &n);
	g->nres = n;
	for (unsigned i = 0; i < n; i++)
		read_opnd(g, &d[i], false, &g->res[i]);
	d = px_var_operands(op, v, &n);
	g->nops = n;
	for (unsigned i = 0; i < n; i++)
		read_opnd(g, &d[i], true, &g->ops[i]);
	for (unsigned i = 0; i < g->nops; i++)
		if (g->ops[i].neg >= 0)
			g->negpos[g->ops[i].neg] = g->nres + i + 1;
	for (unsigned i = 0; i < g->nres; i++)
		derive_of(g, &g->res[i]);
	for (unsigned i = 0; i < g->nops; i++)
		derive_of(g, &g->ops[i]);
	/* a slot of more than BIG tokens (the video byte selectors: 4,096
	 * each) takes each token once, beside the first choice of every other
	 * slot; the others take every combination beside its first */
	unsigned nchoice[PX_MAX_SLOTS], idx[PX_MAX_SLOTS] = {0}, big = 0;
	bool zipped[PX_MAX_SLOTS];
	double total = 1, rest = 1;
	for (unsigned k = 0; k < g->nslots; k++) {
		nchoice[k] = g->nvt[k] + g->vopt[k];
		if (!nchoice[k])
			nchoice[k] = 1;
		total *= nchoice[k];
		zipped[k] = nchoice[k] > BIG || ((op->slots[k].flags & PX_SLOT_NOPRINT) && nchoice[k] > 2);
		if (zipped[k] && nchoice[k] > big)
			big = nchoice[k];
		if (!zipped[k])
			rest *= nchoice[k];
	}
	g->listed += total;
	g->described += big ? rest + big - 1 : total;
	bool more;
	do {
		combination(g, idx, 0, zipped, ncombos);
		more = false;
		for (unsigned k = g->nslots; k-- > 0;) {
			if (zipped[k])
				continue;
			if (++idx[k] < nchoice[k]) {
				more = true;
				break;
			}
			idx[k] = 0;
		}
	} while (more);
	for (unsigned z = 1; z < big; z++)
		combination(g, idx, z, zipped, ncombos);
}

/* the classes of slots whose token sets overlap (transitively), numbered in
 * PTX's order; each slot's count of tokens it takes in any variant */
static void classes(gen *g)
{
	const px_op_def *op = g->op;
	unsigned n = g->nslots, cls[PX_MAX_SLOTS];
	bool *takes = pv_alloc((size_t)n * px_ntoks * sizeof *takes);
	memset(takes, 0, (size_t)n * px_ntoks * sizeof *takes);
	for (unsigned k = 0; k < n; k++) {
		const px_slot_def *s = &op->slots[k];
		if (s->flags & PX_SLOT_FIXED)
			takes[k * px_ntoks + s->fixed_tok] = true;
		for (const uint16_t *t = s->toks; !(s->flags & PX_SLOT_FIXED) && t && *t; t++)
			takes[k * px_ntoks + *t] = true;
		for (unsigned i = 0; i < op->nvariants; i++) {
			bool opt;
			const uint16_t *t = variant_toks(g, &op->variants[i], k, &opt);
			for (; t && *t; t++)
				takes[k * px_ntoks + *t] = true;
		}
		g->ntakes[k] = 0;
		for (unsigned t = 0; t < px_ntoks; t++)
			g->ntakes[k] += takes[k * px_ntoks + t];
		cls[k] = k;
	}
	for (bool changed = true; changed;) {
		changed = false;
		for (unsigned i = 0; i < n; i++)
			for (unsigned j = i + 1; j < n; j++) {
				if (cls[i] == cls[j])
					continue;
				bool meet = false;
				for (unsigned t = 1; t < px_ntoks && !meet; t++)
					meet = takes[i * px_ntoks + t] && takes[j * px_ntoks + t];
				if (!meet)
					continue;
				unsigned lo = cls[i] < cls[j] ? cls[i] : cls[j], hi = cls[i] + cls[j] - lo;
				for (unsigned m = 0; m < n; m++)
					if (cls[m] == hi)
						cls[m] = lo;
				changed = true;
			}
	}
	g->ngroups = 0;
	unsigned gno[PX_MAX_SLOTS] = {0};
	for (unsigned k = 0; k < n; k++) {
		if (!gno[cls[k]])
			gno[cls[k]] = ++g->ngroups;
		g->group[k] = gno[cls[k]];
	}
	free(takes);
}

/* the slot a texture's geometry is in, and the coordinate type's */
static void geometry(gen *g)
{
	const px_op_def *op = g->op;
	bool family = false;
	for (unsigned i = 0; i < op->noperands; i++)
		family |= (op->operands[i].flags & PX_OPND_COORDS) && op->operands[i].count_slot < 0 &&
		          !op->operands[i].count;
	g->geoslot = -1;
	g->geotslot = -1;
	for (unsigned k = 0; family && k < g->nslots; k++)
		for (const uint16_t *t = op->slots[k].toks; t && *t; t++)
			if (px_geometry_of(*t)) {
				g->geoslot = (int)k;
				g->geotslot = px_slot_find(op, PX_SN_ctype);
			}
}

static int by_string(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* a set's lines, sorted, then the set freed */
static void put_set(FILE *out, pv_map *set)
{
	char **lines = pv_alloc((set->n + 1) * sizeof *lines);
	size_t n = 0;
	for (size_t i = 0; i < set->cap; i++)
		if (set->keys[i])
			lines[n++] = set->keys[i];
	if (n)
		qsort(lines, n, sizeof *lines, by_string);
	for (size_t i = 0; i < n; i++)
		fprintf(out, "%s\n", lines[i]);
	free(lines);
	pv_map_free(set);
}

static void one_op(FILE *out, const px_op_def *op)
{
	gen g = {.out = out, .op = op, .nslots = op->nslots};
	snprintf(g.opi, sizeof g.opi, "%s", op->name);
	for (char *p = g.opi; *p; p++)
		if (!(*p == '_' || (*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')))
			*p = '_';
	/* the rules that refuse on every target */
	for (unsigned i = 0; i < op->nrules && g.nrules < sizeof g.rules / sizeof *g.rules; i++) {
		const px_rule *r = &op->rules[i];
		bool named = false;
		for (unsigned k = 0; k < op->nslots; k++)
			named |= r->when[k] != NULL;
		if (named && !r->sm_below && !r->ptx_below && !r->sm_from && !r->not_arch)
			g.rules[g.nrules++] = r;
	}
	classes(&g);
	geometry(&g);
	unsigned ncombos = 0;
	for (unsigned i = 0; i < op->nvariants; i++)
		variant(&g, i, &ncombos);
	put_set(out, &g.unbuilt);
	put_set(out, &g.unruled);
	put_set(out, &g.gpuunruled);
	char described[32], listed[32];
	awknum(described, sizeof described, g.described);
	awknum(listed, sizeof listed, g.listed);
	fprintf(out, "count %s %u %s %u %u %s %u\n", op->name, g.nvariants, described, g.built, g.statements, listed,
	        g.ruled);
	pv_map_free(&g.defined);
	set_why(&g, NULL);
}

/* The statements of every operation whose name ops (an extended regular
 * expression) matches. The descriptor builders and copy are no instructions:
 * their fields and layouts are properties the generator does not enumerate
 * (tensor/idesc*, *_desc* and the tile-copy cases test them). */
int cb_generate(FILE *out, const char *ops)
{
	regex_t re;
	if (regcomp(&re, ops, REG_EXTENDED | REG_NOSUB)) {
		fprintf(stderr, "prover: not a regular expression: %s\n", ops);
		return -1;
	}
	for (unsigned i = 0; i < px_nops; i++) {
		const px_op_def *op = &px_ops[i];
		/* the descriptor builders and the tile copy: by family */
		bool skipped = (op->flags & PX_OPF_INTERNAL) || op->family == PX_FAM_desc ||
		               op->family == PX_FAM_tile_copy || regexec(&re, op->name, 0, NULL, 0) != 0;
		if (!skipped)
			one_op(out, op);
	}
	regfree(&re);
	return 0;
}

/* prover combos-gen [OPS]: the generator's lines */
int pv_combos_gen(int argc, char **argv)
{
	return cb_generate(stdout, argc > 1 ? argv[1] : ".") ? 2 : 0;
}
