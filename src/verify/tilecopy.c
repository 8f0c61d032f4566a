/* The tile IR's copy between registers and shared memory, before selection: which way it copies (the
 * matrix-copy family: ld for shared -> registers, st for registers -> shared),
 * its two layouts read and checked, and the register tile's size per lane, so
 * the tables check the register operand's count like any vector's. Whether
 * the copy becomes ldmatrix/stmatrix is the selector's choice
 * (isel/tilecopy.c); every layout that passes here can be copied. */
#include <string.h>

#include "front/layout.h"
#include "verify/verify.h"

/* ld when a register tile is defined from an address, st when one is stored
 * to an address; anything else is no copy the tile IR has. */
static unsigned direction(const px_node *n)
{
	bool addr0 = n->nops >= 1 && n->ops[0].kind == PX_O_ADDR;
	if (n->nres == 1 && n->nops == 1 && addr0)
		return PX_TOK_ld;
	bool value1 = n->nops == 2 && (n->ops[1].kind == PX_O_VALUE || n->ops[1].kind == PX_O_GROUP);
	if (n->nres == 0 && addr0 && value1)
		return PX_TOK_st;
	return 0;
}

static bool read_layout(px_verifier *v, const px_node *n, const char *key, px_layout *l)
{
	const px_prop *p = px_node_prop(n, key);
	memset(l, 0, sizeof *l);
	if (!p || !p->val.n || p->val.s[0] != '(') {
		px_error(v->d, p ? p->loc : n->oploc, PX_D_tile_layout_missing, key, key);
		return false;
	}
	const char *why;
	if (px_layout_parse(p->val, l, &why))
		return true;
	px_error(v->d, p->val_loc, PX_D_tile_layout, key, why);
	return false;
}

/* The lanes a layout's @laneid modes reach: each lane once, 0 to 31. */
static bool covers_warp(const px_layout *l)
{
	bool seen[32] = {0};
	int64_t idx[PX_LAYOUT_MAX_MODES] = {0}, lanes = 1;
	for (unsigned i = 0; i < l->n; i++)
		if (l->m[i].iter == PX_ITER_LANE)
			lanes *= l->m[i].size;
	if (lanes != 32)
		return false;
	for (int64_t k = 0; k < 32; k++) {
		int64_t lane = 0, rest = k;
		for (unsigned i = l->n; i-- > 0;) {
			if (l->m[i].iter != PX_ITER_LANE)
				continue;
			idx[i] = rest % l->m[i].size;
			rest /= l->m[i].size;
			lane += idx[i] * l->m[i].stride;
		}
		if (lane < 0 || lane > 31 || seen[lane])
			return false;
		seen[lane] = true;
	}
	return true;
}

/* The lane's own elements (the modes without an iterator) number 0 to
 * elems - 1 once each: they are the register tile's b16 halves in order. */
static bool numbers_elements(const px_layout *l, int64_t elems)
{
	if (elems > 128)
		return true; /* too many for a register tile: tile_regs says so */
	bool seen[128] = {0};
	for (int64_t k = 0; k < elems; k++) {
		int64_t rest = k, e = 0;
		for (unsigned i = l->n; i-- > 0;) {
			if (l->m[i].iter != PX_ITER_NONE)
				continue;
			e += rest % l->m[i].size * l->m[i].stride;
			rest /= l->m[i].size;
		}
		if (e < 0 || e >= elems || seen[e])
			return false;
		seen[e] = true;
	}
	return true;
}

static unsigned regs_token(int64_t regs)
{
	static const uint16_t toks[] = {PX_TOK_x1, PX_TOK_x2, PX_TOK_x4, PX_TOK_x8, PX_TOK_x16, PX_TOK_x32, PX_TOK_x64};
	for (unsigned i = 0; i < sizeof toks / sizeof toks[0]; i++)
		if (regs == (int64_t)1 << i)
			return toks[i];
	return 0;
}

/* When the target has the instruction the copy may become, the printed
 * .version must have it too (unless the writer chose one: then the selector
 * falls back below it). */
static void need_version(px_verifier *v, const px_node *n, unsigned dir)
{
	uint16_t slot[PX_MAX_SLOTS];
	const px_op_def *op = px_tile_copy_matrix(dir == PX_TOK_ld, PX_TOK_x1, false,
	                                          n->slot[px_slot_find(n->op, PX_SN_space)] != 0, slot);
	const px_variant *var = v->target && !v->ptx_given ? px_variant_find(&v->first_rows, op, slot, v->target, 0) : NULL;
	if (var && px_ptx_over_max(v, var->ptx))
		px_ptx_refuse(v, n->oploc, op->name, var->ptx);
	else if (var && var->ptx > v->ptx_needed)
		v->ptx_needed = var->ptx;
}

bool px_tile_copy_prepare(px_verifier *v, px_func *f, px_node *n)
{
	unsigned dir = direction(n);
	if (!dir) {
		px_error(v->d, n->oploc, PX_D_matrix_copy_family);
		return false;
	}
	px_slots_edit(v, n)[px_slot_find(n->op, PX_SN_dir)] = (uint16_t)dir;
	px_layout r, s;
	bool ok = read_layout(v, n, "reg", &r) & read_layout(v, n, "smem", &s);
	if (!ok)
		return false;
	bool same = r.n == s.n;
	for (unsigned i = 0; same && i < r.n; i++)
		same = r.m[i].size == s.m[i].size && s.m[i].iter == PX_ITER_NONE;
	if (!same) {
		px_error(v->d, n->oploc, PX_D_tile_shapes);
		return false;
	}
	if (!covers_warp(&r)) {
		px_error(v->d, px_node_prop(n, "reg")->val_loc, PX_D_tile_lanes);
		return false;
	}
	int64_t elems = px_layout_local_size(&r);
	if (!numbers_elements(&r, elems)) {
		px_error(v->d, px_node_prop(n, "reg")->val_loc, PX_D_tile_local, (long long)elems - 1);
		return false;
	}
	unsigned tok = elems % 2 ? 0 : regs_token(elems / 2);
	if (!tok) {
		px_error(v->d, px_node_prop(n, "reg")->val_loc, PX_D_tile_regs, (long long)elems);
		return false;
	}
	px_slots_edit(v, n)[px_slot_find(n->op, PX_SN_regs)] = (uint16_t)tok;
	need_version(v, n, dir);
	return true;
}
