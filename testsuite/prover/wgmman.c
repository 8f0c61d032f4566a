/* The N ptxemit accepts in wgmma.mma_async and wgmma.mma_async.sp, for
 * every type combination, among N = 1 ... 320 (no ptxas: the combination
 * proof has ptxas assemble every N --describe lists).
 *
 * One sm_90a module holds one statement per operation, type combination
 * and N (m64nNkK with the K of the types, D of N/2 registers or, for f16,
 * N/4); ptxemit (every error reported) names every line it refuses. Prints,
 * per operation and types, the N it accepts, then how many lines it refused
 * with each message (the shape and types replaced by "..."). */
#include "translate.h"

#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* TYPES as D.A.B, K the dense or sparse K, DREG f (N/2 f32), h (N/4 b32:
 * f16 pairs) or s (N/2 s32), TAIL the operands after B */
static const struct form {
	const char *op, *types;
	unsigned k;
	char dreg;
	const char *tail;
} forms[] = {
	{"wgmma.mma_async", "f32.f16.f16", 16, 'f', "1, 1, 1, 0, 0"},
	{"wgmma.mma_async", "f32.bf16.bf16", 16, 'f', "1, 1, 1, 0, 0"},
	{"wgmma.mma_async", "f16.f16.f16", 16, 'h', "1, 1, 1, 0, 0"},
	{"wgmma.mma_async", "f32.tf32.tf32", 8, 'f', "1, 1, 1"},
	{"wgmma.mma_async", "f32.e4m3.e4m3", 32, 'f', "1, 1, 1"},
	{"wgmma.mma_async", "f32.e4m3.e5m2", 32, 'f', "1, 1, 1"},
	{"wgmma.mma_async", "f32.e5m2.e4m3", 32, 'f', "1, 1, 1"},
	{"wgmma.mma_async", "f32.e5m2.e5m2", 32, 'f', "1, 1, 1"},
	{"wgmma.mma_async", "f16.e4m3.e5m2", 32, 'h', "1, 1, 1"},
	{"wgmma.mma_async", "s32.s8.s8", 32, 's', "1"},
	{"wgmma.mma_async", "s32.u8.u8", 32, 's', "1"},
	{"wgmma.mma_async", "s32.s8.u8", 32, 's', "1"},
	{"wgmma.mma_async", "s32.u8.s8", 32, 's', "1"},
	{"wgmma.mma_async", "s32.b1.b1.and.popc", 256, 's', "1"},
	{"wgmma.mma_async.sp", "f32.f16.f16", 32, 'f', "%meta, 0, 1, 1, 1, 0, 0"},
	{"wgmma.mma_async.sp", "f32.bf16.bf16", 32, 'f', "%meta, 0, 1, 1, 1, 0, 0"},
	{"wgmma.mma_async.sp", "f16.f16.f16", 32, 'h', "%meta, 0, 1, 1, 1, 0, 0"},
	{"wgmma.mma_async.sp", "f32.tf32.tf32", 16, 'f', "%meta, 0, 1, 1, 1"},
	{"wgmma.mma_async.sp", "f32.e4m3.e5m2", 64, 'f', "%meta, 0, 1, 1, 1"},
	{"wgmma.mma_async.sp", "f16.e5m2.e4m3", 64, 'h', "%meta, 0, 1, 1, 1"},
	{"wgmma.mma_async.sp", "s32.s8.s8", 64, 's', "%meta, 0, 1"},
	{"wgmma.mma_async.sp", "s32.u8.u8", 64, 's', "%meta, 0, 1"},
	{"wgmma.mma_async.sp", "s32.s8.u8", 64, 's', "%meta, 0, 1"},
	{"wgmma.mma_async.sp", "s32.u8.s8", 64, 's', "%meta, 0, 1"},
};
enum { NFORMS = sizeof forms / sizeof *forms, TOP = 320 };

/* the shape and types of a message, each replaced by "..." (the first match of each) */
static const char *const shapes[] = {
	"wgmma[.a-z_]*\\.m64n[0-9]*k[0-9]* with D [^ ]*, A [^ ]* and B [^ ]*",
	"'\\.m64n[0-9]*k[0-9]*' for wgmma[.a-z_]*; did you mean '[^']*'\\?",
	"'\\.m64n[0-9]*k[0-9]*' for wgmma[.a-z_]*",
};

static char *generalize(const char *msg)
{
	char *s = pv_strdup(msg);
	for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++) {
		regex_t re;
		regmatch_t m;
		if (regcomp(&re, shapes[i], REG_EXTENDED) != 0)
			abort();
		if (regexec(&re, s, 1, &m, 0) == 0) {
			char *t = pv_printf("%.*s...%s", (int)m.rm_so, s, s + m.rm_eo);
			free(s);
			s = t;
		}
		regfree(&re);
	}
	return s;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* prover wgmman */
int pv_wgmman(int argc, char **argv)
{
	(void)argc, (void)argv;
	size_t cap = 1 << 20, n = 0;
	char *src = pv_alloc(cap);
	n += (size_t)snprintf(src + n, cap - n, "target sm_90a\nkernel @k(%%da: u64, %%db: u64, %%meta: b32) {\n");
	for (unsigned c = 1; c <= TOP / 2; c++)
		n += (size_t)snprintf(src + n, cap - n,
		                      "  %%f%u:f32[%u] = mov 0.0\n  %%s%u:s32[%u] = mov 0\n  %%h%u:b32[%u] = mov 0\n", c, c,
		                      c, c, c, c);
	unsigned first = 3 + 3 * TOP / 2; /* the line of the first statement */
	for (size_t i = 0; i < NFORMS; i++)
		for (unsigned nn = 1; nn <= TOP; nn++) {
			unsigned c = forms[i].dreg == 'h' ? nn / 4 : nn / 2;
			if (c < 1)
				c = 1;
			if (cap - n < 256)
				src = realloc(src, cap *= 2);
			n += (size_t)snprintf(src + n, cap - n, "  %%%c%u = %s.m64n%uk%u.%s %%%c%u, %%da, %%db, %s\n",
			                      forms[i].dreg, c, forms[i].op, nn, forms[i].k, forms[i].types, forms[i].dreg,
			                      c, forms[i].tail);
		}
	n += (size_t)snprintf(src + n, cap - n, "  ret\n}\n");

	pv_case c = {.mir = "n.mir", .name = "n.mir", .src = src, .len = n};
	pv_refusals no = {0};
	char *out = NULL;
	pv_translate(&c, NULL, NULL, false, &out, &no);
	free(out);
	bool *refused = pv_alloc(NFORMS * TOP * sizeof *refused);
	memset(refused, 0, NFORMS * TOP * sizeof *refused);
	char **msgs = pv_alloc((no.n + 1) * sizeof *msgs);
	for (size_t i = 0; i < no.n; i++) {
		if (no.v[i].line < first || no.v[i].line - first >= NFORMS * TOP) {
			printf("wgmman: a refusal outside the statements: n.mir:%u: %s\n", no.v[i].line, no.v[i].msg);
			return 1;
		}
		refused[no.v[i].line - first] = true;
		msgs[i] = generalize(no.v[i].msg);
	}
	for (size_t i = 0; i < NFORMS; i++) {
		printf("%s %s:", forms[i].op, forms[i].types);
		for (unsigned nn = 1; nn <= TOP; nn++)
			if (!refused[i * TOP + nn - 1])
				printf(" %u", nn);
		printf("\n");
	}
	qsort(msgs, no.n, sizeof *msgs, cmp_str);
	for (size_t i = 0, j; i < no.n; i = j) {
		for (j = i; j < no.n && strcmp(msgs[i], msgs[j]) == 0; j++)
			;
		printf("refused %zu %s\n", j - i, msgs[i]);
	}
	for (size_t i = 0; i < no.n; i++)
		free(msgs[i]);
	free(msgs), free(refused), free(src);
	pv_refusals_free(&no);
	return 0;
}
