/* video_forms: every video form ptxemit accepts computes on the GPU the value
 * PTX defines.
 *
 * The case writes its MIR itself: one statement for each operation (vadd,
 * vsub, vabsdiff, vmin, vmax, vshl, vshr, vset), type combination, .sat,
 * .clamp/.wrap, compare, secondary operation (.add, .min, .max), destination
 * selector (none, b0 ... b3, h0, h1) and five selector pairs (none, a byte,
 * b's half, both, the upper half and byte 3), and for the SIMD operations
 * (vadd2 ... vset2, vadd4 ... vset4) each type combination, .sat, .add,
 * compare, a choice of masks and two selector pairs, and for vmad each type
 * combination, .po, .sat, scale, negation and two selector pairs; it asks
 * libptxemit which it accepts and keeps those. ptxemit refuses the forms whose GPU result is not
 * PTX's (data/ops/video.yaml); a form accepted here and computed otherwise
 * fails the case. The reference is PTX's definition: the operands' selected
 * parts extended by their types, the first result in full width, saturated
 * to the byte, half or word of d it goes into, then combined with c (read by
 * dtype's sign, vset's as unsigned) or merged into c's other bits; a SIMD
 * form's lanes are each computed so and saturated to the lane, then written
 * into the lanes its mask names (the others c's) or summed into c. */
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "ptxemit.h"
#include "gpu.h"

enum { VADD, VSUB, VABSDIFF, VMIN, VMAX, VSHL, VSHR, VSET, VAVRG, VMAD, NOPS };
static const char *const op_names[NOPS] = {"vadd", "vsub",  "vabsdiff", "vmin",  "vmax",
                                           "vshl", "vshr",  "vset",     "vavrg", "vmad"};
/* vmad's negations (none, a, b, both, c) and scales */
static const char *const neg_names[] = {"", "nega", "negb", "nega, negb", "negc"};
static const char *const scale_names[] = {"", "shr7", "shr15"};
/* the SIMD operations: scalar ones but the shifts, and vavrg */
static const unsigned char simd_ops[] = {VADD, VSUB, VAVRG, VABSDIFF, VMIN, VMAX, VSET};
/* SIMD masks and selector pairs (the first pair PTX's defaults, left out) */
static const char *const masks2[] = {"h0", "h1", "h10"}, *const masks4[] = {"b0", "b31", "b3210"};
static const char *const sels2[][2] = {{"", ""}, {"h01", "h23"}}, *const sels4[][2] = {{"", ""}, {"b7531", "b2064"}};
static const char *const cmp_names[] = {"eq", "ne", "lt", "le", "gt", "ge"};
static const char *const op2_names[] = {"", "add", "min", "max"};
/* a selector: 0 none, 1 to 4 bytes 0 to 3, 5 and 6 halves 0 and 1 */
static const char *const sel_names[] = {"", "b0", "b1", "b2", "b3", "h0", "h1"};
static const unsigned char sel_pairs[][2] = {{0, 0}, {2, 0}, {0, 5}, {2, 5}, {6, 4}};

/* A form: lanes 0 for a scalar one (dsel, asel, bsel index sel_names), 2
 * or 4 for a SIMD one (mask indexes masks2/masks4, asel a selector pair of
 * sels2/sels4, op2 1 for .add). vmad's mode is its scale, cmp its
 * negation (neg_names), op2 1 for .po. */
typedef struct vform {
	unsigned char op, lanes, dsigned, asigned, bsigned, sat, mode, cmp, op2, dsel, asel, bsel, mask;
} vform;

enum { MAX_FORMS = 16384, N = 1024 };
static vform forms[MAX_FORMS];
static size_t nforms;

/* ---------------------------------------------------------------- the MIR */

typedef struct text { char *s; size_t n, cap; } text;

static void add(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(text *t, const char *fmt, ...)
{
	va_list ap;
	for (;;) {
		va_start(ap, fmt);
		int k = vsnprintf(t->s ? t->s + t->n : NULL, t->s ? t->cap - t->n : 0, fmt, ap);
		va_end(ap);
		if (k < 0)
			abort();
		if (t->s && t->n + (size_t)k < t->cap) {
			t->n += (size_t)k;
			return;
		}
		t->cap = 2 * (t->cap + (size_t)k + 4096);
		if (!(t->s = realloc(t->s, t->cap)))
			abort();
	}
}

static const char *ty(int s) { return s ? "s32" : "u32"; }

static void simd_statement(text *t, const vform *f, size_t j)
{
	bool set = f->op == VSET;
	add(t, "  %%d%zu:%s = %s%u", j, set ? "u32" : ty(f->dsigned), op_names[f->op], f->lanes);
	if (set)
		add(t, ".%s.%s.%s", ty(f->asigned), ty(f->bsigned), cmp_names[f->cmp]);
	else
		add(t, ".%s.%s.%s%s", ty(f->dsigned), ty(f->asigned), ty(f->bsigned), f->sat ? ".sat" : "");
	const char *const(*sels)[2] = f->lanes == 2 ? sels2 : sels4;
	add(t, "%s %%%ca, %%%cb, %%%cc {mask = %s", f->op2 ? ".add" : "", f->asigned ? 's' : 'u',
	    f->bsigned ? 's' : 'u', !set && f->dsigned ? 's' : 'u', (f->lanes == 2 ? masks2 : masks4)[f->mask]);
	if (f->asel)
		add(t, ", asel = %s, bsel = %s", sels[f->asel][0], sels[f->asel][1]);
	add(t, "}\n  st.global [%%o + %zu], %%d%zu\n", 4 * j, j);
}

static void vmad_statement(text *t, const vform *f, size_t j)
{
	add(t, "  %%d%zu:%s = vmad.%s.%s.%s%s%s%s%s %%%ca, %%%cb, %%%cc", j, ty(f->dsigned), ty(f->dsigned),
	    ty(f->asigned), ty(f->bsigned), f->op2 ? ".po" : "", f->sat ? ".sat" : "", f->mode ? "." : "",
	    scale_names[f->mode], f->asigned ? 's' : 'u', f->bsigned ? 's' : 'u', f->dsigned ? 's' : 'u');
	if (f->cmp || f->asel)
		add(t, " {%s%s%s}", neg_names[f->cmp], f->cmp && f->asel ? ", " : "", f->asel ? "asel = b1, bsel = h0" : "");
	add(t, "\n  st.global [%%o + %zu], %%d%zu\n", 4 * j, j);
}

/* One statement, %dJ, its result stored at out[J] of the thread's row. */
static void statement(text *t, const vform *f, size_t j)
{
	if (f->lanes) {
		simd_statement(t, f, j);
		return;
	}
	if (f->op == VMAD) {
		vmad_statement(t, f, j);
		return;
	}
	bool shift = f->op == VSHL || f->op == VSHR, set = f->op == VSET;
	add(t, "  %%d%zu:%s = %s", j, set ? "u32" : ty(f->dsigned), op_names[f->op]);
	if (set)
		add(t, ".%s.%s.%s", ty(f->asigned), ty(f->bsigned), cmp_names[f->cmp]);
	else if (shift)
		add(t, ".%s.%s%s.%s", ty(f->dsigned), ty(f->asigned), f->sat ? ".sat" : "", f->mode == 1 ? "clamp" : "wrap");
	else
		add(t, ".%s.%s.%s%s", ty(f->dsigned), ty(f->asigned), ty(f->bsigned), f->sat ? ".sat" : "");
	if (f->op2)
		add(t, ".%s", op2_names[f->op2]);
	add(t, " %%%ca, %%%cb", f->asigned ? 's' : 'u', f->bsigned && !shift ? 's' : 'u');
	if (f->op2 || f->dsel)
		add(t, ", %%%cc", !set && f->dsigned ? 's' : 'u');
	if (f->dsel || f->asel || f->bsel) {
		const char *sep = " {";
		if (f->dsel)
			add(t, "%sdsel = %s", sep, sel_names[f->dsel]), sep = ", ";
		if (f->asel)
			add(t, "%sasel = %s", sep, sel_names[f->asel]), sep = ", ";
		if (f->bsel)
			add(t, "%sbsel = %s", sep, sel_names[f->bsel]);
		add(t, "}");
	}
	add(t, "\n  st.global [%%o + %zu], %%d%zu\n", 4 * j, j);
}

/* The line of the module's first statement (each takes two). */
static unsigned first_line;

static char *module(const vform *fs, size_t n)
{
	text t = {0};
	add(&t, "; the scalar video forms, one a statement (testsuite/gpu/cases_video.c)\n"
	        "target sm_80\n\n"
	        "kernel @video_forms(%%pin: ptr global, %%pout: ptr global, %%n: u32) reqntid(128) {\n"
	        "  %%t:u32 = mov %%tid.x\n  %%cta:u32 = mov %%ctaid.x\n  %%i:u32 = mad.lo %%cta, 128, %%t\n"
	        "  %%oob:pred = setp.ge %%i, %%n\n  @%%oob bra ^done\n"
	        "  %%io:u64 = mul.wide %%i, 12\n  %%e:u64 = add %%pin, %%io\n"
	        "  %%ua:u32 = ld.global [%%e]\n  %%ub:u32 = ld.global [%%e + 4]\n  %%uc:u32 = ld.global [%%e + 8]\n"
	        "  %%sa:s32 = mov %%ua\n  %%sb:s32 = mov %%ub\n  %%sc:s32 = mov %%uc\n"
	        "  %%oi:u32 = mul.lo %%i, %zu\n  %%oo:u64 = mul.wide %%oi, 4\n  %%o:u64 = add %%pout, %%oo\n",
	    n);
	first_line = 1;
	for (size_t i = 0; i < t.n; i++)
		first_line += t.s[i] == '\n';
	for (size_t j = 0; j < n; j++)
		statement(&t, &fs[j], j);
	add(&t, "^done:\n  ret\n}\n");
	return t.s;
}

/* Every form, in a fixed order. */
static size_t all_forms(vform *out)
{
	size_t n = 0;
	for (unsigned op = VADD; op <= VSET; op++) { /* the scalar operations */
		bool shift = op == VSHL || op == VSHR, set = op == VSET;
		for (unsigned types = 0; types < 8; types++) {
			unsigned ds = types >> 2 & 1, as = types >> 1 & 1, bs = types & 1;
			if ((shift && bs) || (set && ds))
				continue; /* b is u32 in a shift; vset has no dtype */
			for (unsigned sat = 0; sat <= !set; sat++)
				for (unsigned mode = shift ? 1 : 0; mode <= (shift ? 2u : 0u); mode++)
					for (unsigned cmp = 0; cmp < (set ? 6u : 1u); cmp++)
						for (unsigned form = 0; form < 10; form++) /* plain, 3 op2, 6 dsel */
							for (size_t p = 0; p < GPU_COUNT(sel_pairs); p++)
								out[n++] = (vform){op, 0, (unsigned char)ds, (unsigned char)as,
								                   (unsigned char)bs, (unsigned char)sat,
								                   (unsigned char)mode, (unsigned char)cmp,
								                   (unsigned char)(form >= 1 && form <= 3 ? form : 0),
								                   (unsigned char)(form >= 4 ? form - 3 : 0),
								                   sel_pairs[p][0], sel_pairs[p][1], 0};
		}
	}
	for (unsigned types = 0; types < 8; types++)
		for (unsigned po = 0; po < 2; po++)
			for (unsigned sat = 0; sat < 2; sat++)
				for (unsigned char scale = 0; scale < 3; scale++)
					for (unsigned char neg = 0; neg < GPU_COUNT(neg_names); neg++)
						for (unsigned char p = 0; p < 2; p++)
							out[n++] = (vform){VMAD, 0, types >> 2 & 1, types >> 1 & 1, types & 1,
							                   (unsigned char)sat, scale, neg, (unsigned char)po, 0, p, 0, 0};
	for (unsigned lanes = 2; lanes <= 4; lanes += 2)
		for (size_t o = 0; o < sizeof simd_ops; o++) {
			unsigned char op = simd_ops[o];
			bool set = op == VSET;
			for (unsigned types = 0; types < 8; types++) {
				unsigned char ds = types >> 2 & 1, as = types >> 1 & 1, bs = types & 1;
				if (set && ds)
					continue;
				for (unsigned cmp = 0; cmp < (set ? 6u : 1u); cmp++)
					/* .sat (not vset's), .add, neither: every mask, both selector pairs */
					for (unsigned kind = 0; kind < 3; kind++)
						for (unsigned char m = 0; m < 3 && !(kind == 1 && set); m++)
							for (unsigned char p = 0; p < 2; p++)
								out[n++] = (vform){op, (unsigned char)lanes, ds, as, bs, kind == 1, 0,
								                   (unsigned char)cmp, kind == 2, 0, p, 0, m};
			}
		}
	return n;
}

typedef struct refused { bool *line; size_t n; } refused;

static void note_refused(void *ctx, const px_diagnostic *d)
{
	refused *r = ctx;
	if (d->severity == PX_SEV_ERROR && d->line >= first_line && (d->line - first_line) / 2 < r->n)
		r->line[(d->line - first_line) / 2] = true;
}

/* The module of every form ptxemit accepts; forms[] and nforms say which. */
static char *video_forms_mir(void)
{
	static vform every[MAX_FORMS];
	size_t n = all_forms(every);
	char *src = module(every, n);
	refused r = {calloc(n, sizeof(bool)), n};
	px_options o;
	px_options_default(&o);
	o.max_errors = 0;
	char *out = NULL;
	size_t outlen;
	px_translate("video_forms.mir", src, strlen(src), &o, note_refused, &r, &out, &outlen);
	free(out);
	free(src);
	nforms = 0;
	for (size_t j = 0; j < n; j++)
		if (!r.line[j])
			forms[nforms++] = every[j];
	free(r.line);
	return module(forms, nforms);
}

/* ------------------------------------------------------------ PTX's value */

typedef __int128 wide;

static wide part(uint32_t x, unsigned sel, bool sign)
{
	if (!sel)
		return sign ? (wide)(int32_t)x : (wide)x;
	if (sel <= 4) {
		uint32_t v = x >> (8 * (sel - 1)) & 0xffu;
		return sign ? (wide)(int8_t)v : (wide)v;
	}
	uint32_t v = x >> (16 * (sel - 5)) & 0xffffu;
	return sign ? (wide)(int16_t)v : (wide)v;
}

static wide clamp(wide t, wide lo, wide hi) { return t < lo ? lo : t > hi ? hi : t; }

/* A SIMD form: lane i takes the part of {b, a} its selector's digit i (from
 * the right) names, PTX's default selectors a's lanes and b's. */
static uint32_t simd_reference(const vform *f, uint32_t a, uint32_t b, uint32_t c)
{
	unsigned n = f->lanes, w = 32 / n;
	uint32_t lane_mask = (uint32_t)((1ull << w) - 1);
	const char *asel = f->asel ? (n == 2 ? sels2 : sels4)[f->asel][0] : n == 2 ? "h10" : "b3210";
	const char *bsel = f->asel ? (n == 2 ? sels2 : sels4)[f->asel][1] : n == 2 ? "h32" : "b7654";
	const char *mask = (n == 2 ? masks2 : masks4)[f->mask];
	bool set = f->op == VSET, dsign = !set && f->dsigned;
	uint64_t pair = (uint64_t)b << 32 | a;
	wide sum = dsign ? (wide)(int32_t)c : (wide)c;
	uint32_t d = 0;
	for (unsigned i = 0; i < n; i++) {
		unsigned pa = (unsigned)(asel[strlen(asel) - 1 - i] - '0'), pb = (unsigned)(bsel[strlen(bsel) - 1 - i] - '0');
		uint32_t ra = (uint32_t)(pair >> (w * pa)) & lane_mask, rb = (uint32_t)(pair >> (w * pb)) & lane_mask;
		wide x = f->asigned && ra >> (w - 1) ? (wide)ra - ((wide)1 << w) : (wide)ra;
		wide y = f->bsigned && rb >> (w - 1) ? (wide)rb - ((wide)1 << w) : (wide)rb;
		wide t;
		switch (f->op) {
		case VADD: t = x + y; break;
		case VSUB: t = x - y; break;
		case VAVRG: t = x + y >= 0 ? (x + y + 1) / 2 : -((-(x + y)) / 2) - ((x + y) & 1); break;
		case VABSDIFF: t = x > y ? x - y : y - x; break;
		case VMIN: t = x < y ? x : y; break;
		case VMAX: t = x > y ? x : y; break;
		default: {
			const bool r[] = {x == y, x != y, x < y, x <= y, x > y, x >= y};
			t = r[f->cmp];
		}
		}
		if (f->sat)
			t = dsign ? clamp(t, -((wide)1 << (w - 1)), ((wide)1 << (w - 1)) - 1) : clamp(t, 0, lane_mask);
		bool in = strchr(mask + 1, (char)('0' + i)) != NULL;
		if (f->op2)
			sum += in ? t : 0;
		else
			d |= ((uint32_t)(in ? (uint32_t)t : c >> (w * i)) & lane_mask) << (w * i);
	}
	return f->op2 ? (uint32_t)sum : d;
}

/* vmad: the product in full, negated (as its ones' complement plus one)
 * where exactly a or b is, c's ones' complement plus one where c is (not
 * with .po, which adds 1 instead), scaled, then saturated by the sign the
 * operand types and negations give it. */
static uint32_t vmad_reference(const vform *f, uint32_t a, uint32_t b, uint32_t c)
{
	bool na = f->cmp == 1 || f->cmp == 3, nb = f->cmp == 2 || f->cmp == 3, nc = f->cmp == 4;
	wide ta = part(a, f->asel ? 2 : 0, f->asigned), tb = part(b, f->asel ? 5 : 0, f->bsigned);
	bool sign = f->asigned || f->bsigned || (na != nb) || nc;
	wide tmp = ta * tb, lsb = 0;
	uint32_t cc = c;
	if (f->op2)
		lsb = 1;
	else if (na != nb)
		tmp = ~tmp, lsb = 1;
	else if (nc)
		cc = ~c, lsb = 1;
	tmp += (sign ? (wide)(int32_t)cc : (wide)cc) + lsb;
	if (f->mode)
		tmp >>= f->mode == 1 ? 7 : 15;
	if (f->sat)
		tmp = sign ? clamp(tmp, INT32_MIN, INT32_MAX) : clamp(tmp, 0, UINT32_MAX);
	return (uint32_t)tmp;
}

static uint32_t reference(const vform *f, uint32_t a, uint32_t b, uint32_t c)
{
	if (f->lanes)
		return simd_reference(f, a, b, c);
	if (f->op == VMAD)
		return vmad_reference(f, a, b, c);
	bool shift = f->op == VSHL || f->op == VSHR, set = f->op == VSET;
	wide ta = part(a, f->asel, f->asigned), tb = part(b, f->bsel, f->bsigned && !shift), t = 0;
	switch (f->op) {
	case VADD: t = ta + tb; break;
	case VSUB: t = ta - tb; break;
	case VABSDIFF: t = ta > tb ? ta - tb : tb - ta; break;
	case VMIN: t = ta < tb ? ta : tb; break;
	case VMAX: t = ta > tb ? ta : tb; break;
	case VSET: {
		const bool r[] = {ta == tb, ta != tb, ta < tb, ta <= tb, ta > tb, ta >= tb};
		t = r[f->cmp];
		break;
	}
	default: {
		if (f->mode == 1 && tb > 32)
			tb = 32;
		if (f->mode == 2)
			tb &= 31;
		if (f->op == VSHL)
			t = ta * ((wide)1 << (int)tb);
		else
			t = ta < 0 ? ~(~ta >> (int)tb) : ta >> (int)tb;
	}
	}
	bool dsign = !set && f->dsigned;
	if (f->sat && !set) {
		unsigned bits = f->dsel == 0 ? 32 : f->dsel <= 4 ? 8 : 16;
		wide one = 1;
		t = dsign ? clamp(t, -(one << (bits - 1)), (one << (bits - 1)) - 1) : clamp(t, 0, (one << bits) - 1);
	}
	wide cv = dsign ? (wide)(int32_t)c : (wide)c;
	if (f->op2 == 1)
		t += cv;
	else if (f->op2 == 2)
		t = t < cv ? t : cv;
	else if (f->op2 == 3)
		t = t > cv ? t : cv;
	if (!f->dsel)
		return (uint32_t)t;
	uint32_t mask = f->dsel <= 4 ? 0xffu : 0xffffu;
	unsigned sh = f->dsel <= 4 ? 8 * (f->dsel - 1u) : 16 * (f->dsel - 5u);
	return ((uint32_t)t & mask) << sh | (c & ~(mask << sh));
}

/* --------------------------------------------------------------- the run */

static gpu_verdict video_forms(gpu *g, const gpu_case *c)
{
	static uint32_t in[3 * N];
	static const uint32_t edges[] = {0, 1, 2, 0x7f, 0x80, 0xff, 0x100, 0x7fff, 0x8000, 0xffff,
	                                 0x10000, 0x7fffffff, 0x80000000u, 0xffffffffu, 0x80ff7f01u,
	                                 0x12345678, 31, 32, 33};
	static const uint32_t bytes[] = {0, 1, 0x7f, 0x80, 0xfe, 0xff};
	enum { NE = GPU_COUNT(edges) };
	uint32_t seed = 17;
	for (size_t i = 0; i < N; i++)
		for (size_t k = 0; k < 3; k++) {
			uint32_t v = 0;
			if (i < NE * NE) /* every pair of edges for a and b, c among them */
				v = edges[k == 0 ? i / NE : k == 1 ? i % NE : i * 7 % NE];
			else if (i < 700) /* each byte an edge */
				for (unsigned byte = 0; byte < 4; byte++)
					v |= bytes[gpu_rand(&seed) % GPU_COUNT(bytes)] << (8 * byte);
			else
				v = gpu_rand(&seed);
			in[3 * i + k] = v;
		}
	gpu_kernel k = {0};
	if (gpu_load(g, c, "video_forms", &k))
		return GPU_FAIL;
	fprintf(stderr, "  video_forms: %zu forms ptxemit accepts\n", nforms);
	size_t nout = nforms * N;
	uint32_t *got = malloc(4 * nout), *want = malloc(4 * nout);
	CUdeviceptr din = gpu_alloc(g, sizeof in), dout = gpu_alloc(g, 4 * nout);
	uint32_t n = N;
	void *args[] = {&din, &dout, &n};
	int bad = !got || !want || !din || !dout || gpu_put(g, din, in, sizeof in) ||
	          gpu_launch(g, &k, (gpu_dim){N / 128, 1, 1}, (gpu_dim){128, 1, 1}, 0, args) ||
	          gpu_get(g, got, dout, 4 * nout);
	gpu_free(g, din);
	gpu_free(g, dout);
	gpu_unload(g, &k);
	if (!bad) {
		for (size_t i = 0; i < N; i++)
			for (size_t j = 0; j < nforms; j++)
				want[i * nforms + j] = reference(&forms[j], in[3 * i], in[3 * i + 1], in[3 * i + 2]);
		/* each form that differs, by its statement, with its first operands that do */
		size_t nbad = 0;
		for (size_t j = 0; j < nforms; j++)
			for (size_t i = 0, shown = 0; i < N && shown < 3; i++)
				if (got[i * nforms + j] != want[i * nforms + j]) {
					if (!shown++ && nbad++ < 20) {
						text t = {0};
						statement(&t, &forms[j], j);
						fprintf(stderr, "  video_forms: %.*s", (int)(strchr(t.s, '\n') - t.s + 1), t.s);
						free(t.s);
					}
					if (nbad <= 20)
						fprintf(stderr, "    a 0x%08x, b 0x%08x, c 0x%08x: 0x%08x, expected 0x%08x\n", in[3 * i],
						        in[3 * i + 1], in[3 * i + 2], got[i * nforms + j], want[i * nforms + j]);
				}
		if (nbad)
			fprintf(stderr, "  video_forms: %zu forms differ\n", nbad);
		bad = nbad > 0;
		if (nforms < 1000) /* a refusal of nearly every form would leave little to run */
			fprintf(stderr, "  video_forms: only %zu forms accepted\n", nforms);
		bad = bad || nforms < 1000 || gpu_cmp_u32(g, "out", got, want, nout);
	}
	free(got);
	free(want);
	return bad ? GPU_FAIL : GPU_PASS;
}

const gpu_case gpu_cases_video[] = {
	{"video_forms", "video_forms.mir", NULL, 80, 0, video_forms, video_forms_mir},
	{0},
};
