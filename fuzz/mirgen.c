/* fuzz/mirgen SEED: print one random, well-typed MIR program.
 *
 * The value types and the target come from the compiled tables (the YAML in data/):
 * every 16- to 64-bit integer type and every 32- and 64-bit float type, and
 * every target from sm_70 to sm_90 without a suffix. The operations are the core ones
 * whose MIR spelling and typing rules ptxemit-mir(5) documents: arithmetic,
 * bits, setp/selp, cvt, ld/st in global and shared space, forward guarded
 * branches, bar.sync and calls of generated device functions. Every program
 * must translate and assemble; the same seed always gives the same program. */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tables/tables.h"

/* A function defines at most MAX_PARAMS + MAX_TYPES + MAX_STMTS values. */
enum { MAX_TYPES = 16, MAX_FUNCS = 3, MAX_PARAMS = 3, MAX_STMTS = 70, MAX_VALUES = 128 };

static uint64_t rng;

/* xorshift64*: small, and the same sequence on every machine */
static uint32_t rnd(uint32_t n)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return (uint32_t)((rng * 0x2545F4914F6CDD1DULL) >> 32) % n;
}

static unsigned types[MAX_TYPES], ntypes; /* PX_T_* of the value types in use */

/* The values defined so far in the current function, by type. */
static struct {
	unsigned type; /* PX_T_*; PX_T_pred for predicates */
} vals[MAX_VALUES];
static unsigned nvals, next_id;
static unsigned pending; /* the type of the value whose line is being printed */

static struct {
	unsigned params[MAX_PARAMS], nparams, ret;
} funcs[MAX_FUNCS];
static unsigned nfuncs;

static bool is_int(unsigned t) { return px_types[t].kind == PX_KIND_UINT || px_types[t].kind == PX_KIND_SINT; }
static bool is_float(unsigned t) { return px_types[t].kind == PX_KIND_FLOAT; }

static void def(unsigned t)
{
	pending = t;
	printf("  %%v%u:%s = ", next_id++, px_types[t].name);
}

/* The line is complete: only now may its value be an operand. */
static void endl(void)
{
	printf("\n");
	if (pending)
		vals[nvals++].type = pending;
	pending = 0;
}

/* Value ids are the order of definition within a function, so the index in
 * vals[] of a pick is its id. */
static int pick(unsigned t)
{
	unsigned have = 0;
	for (unsigned k = 0; k < nvals; k++)
		have += vals[k].type == t;
	if (!have)
		return -1;
	unsigned want = rnd(have);
	for (unsigned k = 0; k < nvals; k++)
		if (vals[k].type == t && want-- == 0)
			return (int)k;
	return -1;
}

/* An operand of type t: a value of that type, or an immediate that fits. */
static void operand(unsigned t, bool imm_ok)
{
	int v = imm_ok && rnd(4) == 0 ? -1 : pick(t);
	if (v >= 0)
		printf("%%v%d", v);
	else if (is_float(t))
		printf("%u.%u", rnd(100), 25 * rnd(4));
	else if (px_types[t].kind == PX_KIND_SINT)
		printf("%d", (int)rnd(2001) - 1000);
	else
		printf("%u", rnd(1000));
}

static void seed_value(unsigned t)
{
	def(t);
	printf("mov ");
	operand(t, true);
	endl();
}

static const char *const int_bin[] = {"add", "sub", "mul.lo", "min", "max", "and", "or", "xor"};
static const char *const float_bin[] = {"add", "sub", "mul", "min", "max", "div.rn"};
static const char *const cmps[] = {"lt", "le", "gt", "ge", "eq", "ne"};

static void arith(void)
{
	unsigned t = types[rnd(ntypes)];
	bool sint = px_types[t].kind == PX_KIND_SINT;
	unsigned what = rnd(6);
	if (is_float(t)) {
		const char *op = what < 3 ? float_bin[rnd(6)] : what == 3 ? "fma.rn" : what == 4 ? "neg" : "abs";
		def(t);
		printf("%s ", op);
		operand(t, false);
		unsigned more = what == 3 ? 2 : what < 3 ? 1 : 0;
		for (unsigned k = 0; k < more; k++)
			printf(", "), operand(t, true);
		endl();
		return;
	}
	switch (what) {
	case 0: case 1:
		def(t);
		printf("%s ", int_bin[rnd(8)]);
		operand(t, false), printf(", "), operand(t, true), endl();
		return;
	case 2:
		def(t);
		printf("mad.lo "), operand(t, false), printf(", "), operand(t, true);
		printf(", "), operand(t, true), endl();
		return;
	case 3:
		def(t);
		printf("%s ", rnd(2) ? "div" : "rem"), operand(t, false);
		printf(", %u", 1 + rnd(100)), endl();
		return;
	case 4:
		def(t);
		printf("%s ", rnd(2) ? "shl" : "shr"), operand(t, false);
		printf(", %u", rnd(px_types[t].width)), endl();
		return;
	default:
		def(t);
		printf("%s ", sint ? (rnd(2) ? "neg" : "abs") : "not"), operand(t, false), endl();
	}
}

static void compare(void)
{
	unsigned t = types[rnd(ntypes)];
	if (rnd(2) || pick(PX_T_pred) < 0) {
		def(PX_T_pred);
		printf("setp.%s ", cmps[rnd(6)]), operand(t, false), printf(", "), operand(t, true), endl();
		return;
	}
	int p = pick(PX_T_pred);
	def(t);
	printf("selp "), operand(t, false), printf(", "), operand(t, true), printf(", %%v%d", p), endl();
}

/* cvt's rounding: none between integers or from f32 to f64; .rzi to an
 * integer; .rn to a float from an integer or a wider float. */
static void convert(void)
{
	unsigned to = types[rnd(ntypes)], from = types[rnd(ntypes)];
	const char *rnd_mod = "";
	if (is_float(from) && is_int(to))
		rnd_mod = ".rzi";
	else if (is_float(to) && (is_int(from) || px_types[from].width > px_types[to].width))
		rnd_mod = ".rn";
	if (to == from)
		return;
	def(to);
	printf("cvt%s ", rnd_mod), operand(from, false), endl();
}

static void memory(void)
{
	unsigned t = types[rnd(ntypes)];
	unsigned off = 8 * rnd(16);
	switch (rnd(4)) {
	case 0:
		def(t);
		printf("ld.global [%%pin + %u]", off), endl();
		return;
	case 1:
		printf("  st.global [%%pout + %u], ", off), operand(t, false), endl();
		return;
	case 2:
		printf("  st.shared [@buf + %u], ", off), operand(PX_T_u32, false), endl();
		return;
	case 3:
		def(PX_T_u32);
		printf("ld.shared [@buf + %u]", off), endl();
		return;
	}
}

static void call(void)
{
	if (!nfuncs) {
		arith();
		return;
	}
	unsigned f = rnd(nfuncs);
	def(funcs[f].ret);
	printf("call @f%u(", f);
	for (unsigned k = 0; k < funcs[f].nparams; k++)
		printf("%s", k ? ", " : ""), operand(funcs[f].params[k], true);
	printf(")"), endl();
}

/* A body of n statements; a kernel's also loads, stores, synchronizes, calls
 * and branches forward to labels placed later in the body. */
static void body(unsigned n, bool kernel)
{
	unsigned open = 0, label = 0;
	for (unsigned k = 0; k < n; k++) {
		switch (rnd(kernel ? 8 : 4)) {
		case 0: case 1: arith(); break;
		case 2: compare(); break;
		case 3: convert(); break;
		case 4: memory(); break;
		case 5: call(); break;
		case 6:
			if (pick(PX_T_pred) >= 0) {
				printf("  @%s%%v%d bra ^L%u\n", rnd(2) ? "!" : "", pick(PX_T_pred), label + open);
				open++;
			}
			break;
		default:
			if (open) {
				printf("^L%u:\n", label++);
				open--;
			} else if (rnd(4) == 0) {
				printf("  bar.sync 0\n");
			}
		}
	}
	while (open--)
		printf("^L%u:\n", label++);
}

static void func(unsigned f)
{
	nvals = next_id = 0;
	funcs[f].nparams = 1 + rnd(MAX_PARAMS);
	funcs[f].ret = types[rnd(ntypes)];
	printf("func @f%u(", f);
	for (unsigned k = 0; k < funcs[f].nparams; k++) {
		unsigned t = types[rnd(ntypes)];
		funcs[f].params[k] = t;
		vals[nvals++].type = t;
		printf("%s%%v%u: %s", k ? ", " : "", next_id++, px_types[t].name);
	}
	printf(") -> (%s) {\n", px_types[funcs[f].ret].name);
	for (unsigned k = 0; k < ntypes; k++)
		seed_value(types[k]);
	body(4 + rnd(12), false);
	if (pick(funcs[f].ret) < 0)
		seed_value(funcs[f].ret);
	printf("  ret %%v%d\n}\n\n", pick(funcs[f].ret));
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: mirgen SEED\n");
		return 2;
	}
	uint64_t seed = strtoull(argv[1], NULL, 10);
	rng = seed * 0x9E3779B97F4A7C15ULL + 1;
	for (unsigned t = 1; t < px_ntypes && ntypes < MAX_TYPES; t++) {
		unsigned w = px_types[t].width;
		/* f16x2 and bf16x2 are 32-bit too, but packed pairs, not numbers */
		bool packed = strchr(px_types[t].name, 'x') != NULL;
		if ((is_int(t) && w >= 16 && w <= 64) || (is_float(t) && w >= 32 && !packed))
			types[ntypes++] = t;
	}
	unsigned targets[64], ntargets = 0;
	for (unsigned k = 0; k < px_ntargets && ntargets < 64; k++)
		/* sm_100 and up are renamed or dropped between CUDA releases */
		if (px_targets[k].sm >= 70 && px_targets[k].sm <= 90 && !px_targets[k].suffix)
			targets[ntargets++] = k;
	printf("; mirgen %" PRIu64 "\ntarget %s\n\nshared @buf : u32[64] align 4\n\n", seed,
	       px_targets[targets[rnd(ntargets)]].name);
	nfuncs = rnd(MAX_FUNCS + 1);
	for (unsigned f = 0; f < nfuncs; f++)
		func(f);
	nvals = next_id = 0;
	printf("kernel @k(%%pin: ptr global, %%pout: ptr global) reqntid(%u) {\n", 32 << rnd(4));
	next_id = 0;
	for (unsigned k = 0; k < ntypes; k++)
		seed_value(types[k]);
	body(10 + rnd(MAX_STMTS - 10), true);
	printf("  ret\n}\n");
	return 0;
}
