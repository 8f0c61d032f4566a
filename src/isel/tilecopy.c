/* The tile IR's copy: ldmatrix/stmatrix where both layouts fit, else a copy
 * element by element through registers.
 *
 * Both layouts are regrouped into the m8n8 fragment geometry
 * [W, 8, 4, M/(2*num), num, 2] (warps, tile rows, lane column pairs, m_outer
 * tiles, the num tiles of one instruction, the b16 pair). The register side
 * must be the exact fragment (row stride 4 lanes, pair stride 1 lane, element
 * stride 1); the shared side decides trans and the row pitch p: row-major
 * (pair 2, element 1, rows a multiple of 8 elements) or column-major (rows 1,
 * elements a multiple of 8, pairs twice that), with every tile 16-byte
 * aligned. num 4, then 2, then 1; one ldmatrix or stmatrix per m_outer group,
 * each lane supplying the row address of tile (lane / 8) % num. When no num
 * fits, or the target lacks the instruction, every lane copies its own
 * elements with ld/st of b16, and --remarks says why. */
#include <string.h>

#include "front/layout.h"
#include "isel/isel.h"
#include "tables/query.h"

enum { G_WARP, G_ROW, G_PAIR, G_OUTER, G_NUM, G_ELEM, G_COUNT };

typedef struct group {
	int64_t size, stride;
	uint8_t iter;
} group;

typedef struct fit {
	int num;
	bool trans;
	int64_t p;                 /* shared row pitch, elements */
	group r[G_COUNT], s[G_COUNT];
} fit;

/* Regroup l's modes (outermost first) into groups of the sizes want[]: a mode
 * larger than a group splits (its outer part takes the larger stride), modes
 * smaller than a group merge when they are contiguous and run over the same
 * iterator. False when the layout does not regroup. */
static bool regroup(const px_layout *l, const int64_t *want, group *out)
{
	group q[PX_LAYOUT_MAX_MODES];
	unsigned nq = 0, qi = 0;
	for (unsigned i = 0; i < l->n; i++)
		if (l->m[i].size > 1)
			q[nq++] = (group){l->m[i].size, l->m[i].stride, l->m[i].iter};
	for (unsigned g = 0; g < G_COUNT; g++) {
		int64_t t = want[g];
		if (t == 1) {
			out[g] = (group){1, 0, PX_ITER_NONE};
			continue;
		}
		if (qi == nq)
			return false;
		group acc = q[qi];
		if (acc.size % t == 0) {
			out[g] = (group){t, acc.stride * (acc.size / t), acc.iter};
			if (acc.size == t)
				qi++;
			else
				q[qi].size = acc.size / t;
			continue;
		}
		if (t % acc.size)
			return false;
		qi++;
		while (acc.size < t) {
			if (qi == nq)
				return false;
			group nx = q[qi];
			int64_t need = t / acc.size;
			int64_t take = nx.size % need == 0 ? need : need % nx.size == 0 ? nx.size : 0;
			if (!take)
				return false;
			int64_t outer = nx.stride * (nx.size / take);
			if (nx.iter != acc.iter || acc.stride != outer * take)
				return false;
			acc.size *= take;
			acc.stride = outer;
			if (take == nx.size)
				qi++;
			else
				q[qi].size = nx.size / take;
		}
		out[g] = acc;
	}
	return qi == nq;
}

static int64_t warps_of(const px_layout *l)
{
	int64_t w = 1;
	for (unsigned i = 0; i < l->n; i++)
		if (l->m[i].iter == PX_ITER_WARP)
			w *= l->m[i].size;
	return w;
}

static int64_t total_of(const px_layout *l)
{
	int64_t t = 1;
	for (unsigned i = 0; i < l->n; i++)
		t *= l->m[i].size;
	return t;
}

static bool aligned16(const group *g) { return g->size == 1 || g->stride % 8 == 0; }

/* Does the copy fit num m8n8 matrices per instruction (x1, x2, x4)? */
static bool try_num(const px_layout *r, const px_layout *s, int num, fit *f)
{
	int64_t w = warps_of(r), all = total_of(r);
	if (all % (w * 64 * num))
		return false;
	int64_t want[G_COUNT] = {w, 8, 4, all / (w * 64 * num), num, 2};
	if (!regroup(r, want, f->r) || !regroup(s, want, f->s))
		return false;
	const group *rg = f->r, *sg = f->s;
	if (rg[G_ROW].iter != PX_ITER_LANE || rg[G_PAIR].iter != PX_ITER_LANE || rg[G_ELEM].iter != PX_ITER_NONE)
		return false;
	if (rg[G_ROW].stride != 4 || rg[G_PAIR].stride != 1 || rg[G_ELEM].stride != 1)
		return false; /* not the m8n8 fragment */
	for (unsigned g = G_OUTER; g <= G_NUM; g++)
		if (rg[g].size > 1 && (rg[g].iter != PX_ITER_NONE || rg[g].stride % 2))
			return false; /* a tile's pair must be one b32 register */
	if (rg[G_WARP].size > 1 && rg[G_WARP].iter != PX_ITER_WARP)
		return false;
	if (!aligned16(&sg[G_WARP]) || !aligned16(&sg[G_OUTER]) || !aligned16(&sg[G_NUM]))
		return false;
	int64_t s8 = sg[G_ROW].stride, s4 = sg[G_PAIR].stride, s2 = sg[G_ELEM].stride;
	f->num = num;
	if (s4 == 2 && s2 == 1 && s8 > 0 && s8 % 8 == 0) {
		f->trans = false;
		f->p = s8;
		return true;
	}
	if (s8 == 1 && s2 > 0 && s2 % 8 == 0 && s4 == 2 * s2) {
		f->trans = true;
		f->p = s2;
		return true;
	}
	return false;
}

/* ---- building instructions ---- */

/* px_ops[opi] with the given tokens (PX_TOK_*, 0 ends them), each in the
 * first empty slot that holds it, its results and operands */
static px_minst *inst(px_isel *s, unsigned opi, const uint16_t *toks, const px_mop *res, uint32_t nres,
                      const px_mop *ops, uint32_t nops, px_loc loc)
{
	const px_op_def *op = &px_ops[opi];
	uint16_t slot[PX_MAX_SLOTS] = {0};
	for (; *toks; toks++)
		for (unsigned i = 0; i < op->nslots; i++)
			if (!slot[i] && px_slot_has(&op->slots[i], *toks)) {
				slot[i] = *toks;
				break;
			}
	return px_build_inst(s, op, slot, res, nres, ops, nops, loc);
}

/* d = name.toks a [, b [, c]] */
static px_mop op3(px_isel *s, unsigned opi, const uint16_t *toks, px_mop d, const px_mop *a, unsigned na, px_loc loc)
{
	inst(s, opi, toks, &d, 1, a, na, loc);
	return d;
}

static px_mop sreg_u32(px_isel *s, const char *name, px_loc loc)
{
	px_mop m = px_mop_of(PX_M_SREG);
	m.name.s = name;
	m.name.n = (uint32_t)strlen(name);
	return op3(s, PX_OP_mov, (const uint16_t[]){PX_TOK_u32, 0}, px_fresh_reg(s, PX_T_u32), &m, 1, loc);
}

/* off += ((x / div) % size) * scale, all u32 */
static px_mop add_index(px_isel *s, px_mop off, px_mop x, int64_t div, int64_t size, int64_t scale, px_loc loc)
{
	px_mop t = x;
	if (div > 1)
		t = op3(s, PX_OP_div, (const uint16_t[]){PX_TOK_u32, 0}, px_fresh_reg(s, PX_T_u32), (px_mop[]){t, px_imm_mop(PX_T_u32, div)}, 2, loc);
	t = op3(s, PX_OP_rem, (const uint16_t[]){PX_TOK_u32, 0}, px_fresh_reg(s, PX_T_u32), (px_mop[]){t, px_imm_mop(PX_T_u32, size)}, 2, loc);
	if (off.kind == PX_M_NONE)
		return op3(s, PX_OP_mul, (const uint16_t[]){PX_TOK_lo, PX_TOK_u32, 0}, px_fresh_reg(s, PX_T_u32),
		           (px_mop[]){t, px_imm_mop(PX_T_u32, scale)}, 2, loc);
	return op3(s, PX_OP_mad, (const uint16_t[]){PX_TOK_lo, PX_TOK_u32, 0}, px_fresh_reg(s, PX_T_u32),
	           (px_mop[]){t, px_imm_mop(PX_T_u32, scale), off}, 3, loc);
}

/* The 64-bit base register of the copy's address and its constant offset. */
static px_mop base_reg(px_isel *s, const px_node *n, int64_t *off)
{
	px_opnd_def def;
	memset(&def, 0, sizeof def);
	def.kind = PX_OK_ADDR;
	def.type_slot = -1;
	def.count_slot = -1;
	def.space_slot = (int8_t)px_slot_find(n->op, PX_SN_space);
	px_mop a = px_lower_operand(s, n, &n->ops[0], &def, 0, n->loc);
	*off = a.off;
	px_mop b = *a.base;
	if (b.kind == PX_M_REG)
		return b;
	return op3(s, PX_OP_mov, (const uint16_t[]){PX_TOK_u64, 0}, px_fresh_reg(s, PX_T_u64), &b, 1, n->loc);
}

/* base + off32, as the 64-bit address register every lane uses */
static px_mop lane_address(px_isel *s, px_mop base, px_mop off32, px_loc loc)
{
	if (off32.kind == PX_M_NONE)
		return base;
	px_mop w = op3(s, PX_OP_cvt, (const uint16_t[]){PX_TOK_u64, PX_TOK_u32, 0}, px_fresh_reg(s, PX_T_u64), &off32, 1, loc);
	return op3(s, PX_OP_add, (const uint16_t[]){PX_TOK_s64, 0}, px_fresh_reg(s, PX_T_u64), (px_mop[]){base, w}, 2, loc);
}

static px_mop at(px_isel *s, px_mop base, int64_t off)
{
	px_mop m = px_mop_of(PX_M_ADDR);
	m.base = px_mops(s, 1);
	*m.base = base;
	m.off = off;
	return m;
}

/* The j-th b32 register of the register tile (the result for ld, operand 2 for st). */
static px_mop tile_reg(px_isel *s, const px_node *n, unsigned j)
{
	const px_opnd *o = n->nres ? &n->res[0] : &n->ops[1];
	if (o->kind == PX_O_GROUP)
		return px_lower_value_as(s, &o->elems[j], PX_T_b32, n->loc);
	if (o->kind == PX_O_VALUE && o->elem < 0 && s->f->values[o->id].count)
		return px_reg_mop(s, PX_T_b32, px_value_reg(s, o->id) + j);
	return px_lower_value_as(s, o, PX_T_b32, n->loc);
}

static bool slot_is(const px_node *n, unsigned sname, unsigned tok)
{
	return n->slot[px_slot_find(n->op, sname)] == tok;
}

static px_mop warp_index(px_isel *s, px_loc loc)
{
	px_mop tid = sreg_u32(s, "%tid.x", loc);
	return op3(s, PX_OP_shr, (const uint16_t[]){PX_TOK_u32, 0}, px_fresh_reg(s, PX_T_u32), (px_mop[]){tid, px_imm_mop(PX_T_u32, 5)}, 2, loc);
}

/* ---- ldmatrix / stmatrix ---- */

static void emit_matrix(px_isel *s, const px_node *n, const fit *f, const px_op_def *op, const uint16_t *slot)
{
	bool ld = slot_is(n, PX_SN_dir, PX_TOK_ld);
	int64_t off0;
	px_mop base = base_reg(s, n, &off0);
	px_mop lane = sreg_u32(s, "%laneid", n->loc);
	px_mop off = {0};
	off = add_index(s, off, lane, 1, 8, 2 * f->p, n->loc);
	if (f->num > 1)
		off = add_index(s, off, lane, 8, f->num, 2 * f->s[G_NUM].stride, n->loc);
	if (f->s[G_WARP].size > 1)
		off = add_index(s, off, warp_index(s, n->loc), 1, f->s[G_WARP].size, 2 * f->s[G_WARP].stride, n->loc);
	px_mop addr = lane_address(s, base, off, n->loc);
	for (int64_t mm = 0; mm < f->r[G_OUTER].size; mm++) {
		px_mop g = px_mop_of(PX_M_GROUP);
		g.elems = px_mops(s, (uint32_t)f->num);
		g.nelems = (uint32_t)f->num;
		for (int i = 0; i < f->num; i++)
			g.elems[i] = tile_reg(s, n, (unsigned)((mm * f->r[G_OUTER].stride + i * f->r[G_NUM].stride) / 2));
		px_mop a = at(s, addr, off0 + 2 * mm * f->s[G_OUTER].stride);
		if (ld)
			px_build_inst(s, op, slot, &g, 1, &a, 1, n->loc);
		else
			px_build_inst(s, op, slot, NULL, 0, (px_mop[]){a, g}, 2, n->loc);
	}
}

/* Two 16-bit registers as the {lo, hi} group a mov.b32 packs or unpacks. */
static px_mop half_pair(px_mop *half, int64_t j)
{
	px_mop pair = px_mop_of(PX_M_GROUP);
	pair.elems = &half[2 * j];
	pair.nelems = 2;
	return pair;
}

/* ---- copy -> reg: every lane its own elements ---- */

static void emit_elements(px_isel *s, const px_node *n, const px_layout *r, const px_layout *sl)
{
	bool ld = slot_is(n, PX_SN_dir, PX_TOK_ld), shared = slot_is(n, PX_SN_space, PX_TOK_shared);
	int64_t off0;
	px_mop base = base_reg(s, n, &off0);
	px_mop off = {0}, lane = {0}, warp = {0};
	for (unsigned i = 0; i < r->n; i++) {
		const px_layout_mode *m = &r->m[i];
		if (m->iter == PX_ITER_NONE || m->size == 1)
			continue;
		px_mop *x = m->iter == PX_ITER_LANE ? &lane : &warp;
		if (x->kind == PX_M_NONE)
			*x = m->iter == PX_ITER_LANE ? sreg_u32(s, "%laneid", n->loc) : warp_index(s, n->loc);
		off = add_index(s, off, *x, m->stride, m->size, 2 * sl->m[i].stride, n->loc);
	}
	px_mop addr = lane_address(s, base, off, n->loc);
	int64_t elems = px_layout_local_size(r);
	px_mop *half = px_mops(s, (uint32_t)elems);
	for (int64_t e = 0; e < elems; e++)
		half[e] = px_fresh_reg(s, PX_T_b16);
	static const uint16_t shared_b16[] = {PX_TOK_shared, PX_TOK_b16, 0}, generic_b16[] = {PX_TOK_b16, 0};
	const uint16_t *memtoks = shared ? shared_b16 : generic_b16;
	if (!ld)
		for (int64_t j = 0; j < elems / 2; j++) {
			px_mop src = tile_reg(s, n, (unsigned)j);
			op3(s, PX_OP_mov, (const uint16_t[]){PX_TOK_b32, 0}, half_pair(half, j), &src, 1, n->loc);
		}
	/* the lane's elements in register order: mixed radix over the local modes */
	for (int64_t k = 0; k < elems; k++) {
		int64_t rest = k, re = 0, se = 0;
		for (unsigned i = r->n; i-- > 0;) {
			if (r->m[i].iter != PX_ITER_NONE)
				continue;
			int64_t idx = rest % r->m[i].size;
			rest /= r->m[i].size;
			re += idx * r->m[i].stride;
			se += idx * sl->m[i].stride;
		}
		px_mop a = at(s, addr, off0 + 2 * se);
		if (ld) {
			op3(s, PX_OP_ld, memtoks, half[re], &a, 1, n->loc);
		} else {
			inst(s, PX_OP_st, memtoks, NULL, 0, (px_mop[]){a, half[re]}, 2, n->loc);
		}
	}
	if (ld)
		for (int64_t j = 0; j < elems / 2; j++) {
			px_mop pair = half_pair(half, j);
			op3(s, PX_OP_mov, (const uint16_t[]){PX_TOK_b32, 0}, tile_reg(s, n, (unsigned)j), &pair, 1, n->loc);
		}
}

/* The instruction exists, but not on this target or PTX ISA version. */
static void decline_target(px_isel *s, const px_node *n, const px_op_def *op, const uint16_t *slot)
{
	const px_variant *v = NULL;
	for (unsigned i = 0; i < op->nvariants && !v; i++)
		if (px_variant_admits(op, &op->variants[i], slot))
			v = &op->variants[i];
	if (v && !px_window_ok(v, s->target, 0))
		px_report(s->d, PX_SEV_REMARK, n->oploc, PX_D_tile_decline_sm, op->name, (unsigned)v->sm, s->target->name);
	else if (v)
		px_report(s->d, PX_SEV_REMARK, n->oploc, PX_D_tile_decline_ptx, op->name, v->ptx / 10u, v->ptx % 10u,
		          s->ptx / 10u, s->ptx % 10u);
}

bool px_select_tile_copy(px_isel *s, const px_node *n)
{
	px_layout r, sl;
	const char *why;
	px_layout_parse(px_node_prop(n, "reg")->val, &r, &why); /* the verifier read both */
	px_layout_parse(px_node_prop(n, "smem")->val, &sl, &why);
	bool ld = slot_is(n, PX_SN_dir, PX_TOK_ld);
	fit f;
	bool fits = false;
	for (int num = 4; num >= 1 && !fits; num /= 2)
		fits = try_num(&r, &sl, num, &f);
	if (!fits) {
		if (s->remarks)
			px_report(s->d, PX_SEV_REMARK, n->oploc, PX_D_tile_fallback, px_diag_texts[PX_D_tile_decline_fit].text);
		emit_elements(s, n, &r, &sl);
		return true;
	}
	static const uint16_t xs[] = {0, PX_TOK_x1, PX_TOK_x2, 0, PX_TOK_x4};
	uint16_t slot[PX_MAX_SLOTS];
	const px_op_def *op = px_tile_copy_matrix(ld, xs[f.num], f.trans, slot_is(n, PX_SN_space, PX_TOK_shared), slot);
	if (!px_variant_find(&s->first_rows, op, slot, s->target, s->ptx)) {
		if (s->remarks)
			decline_target(s, n, op, slot);
		emit_elements(s, n, &r, &sl);
		return true;
	}
	if (s->remarks)
		px_report(s->d, PX_SEV_REMARK, n->oploc, PX_D_tile_selected, op->name, (unsigned)f.r[G_OUTER].size,
		          f.r[G_OUTER].size == 1 ? "" : "s", f.num, f.trans ? "True" : "False", (long long)f.p);
	emit_matrix(s, n, &f, op, slot);
	return true;
}
