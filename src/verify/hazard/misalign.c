/* Alignment: an address the operation needs at a multiple of some bytes
 * (data/ops: an op's `aligns:`, the access's size for ld, st and atom, 16
 * for a bulk copy and a matrix row, 128 for a tensor copy's shared memory, 8
 * for an mbarrier object) that is known not to be one. Two ways to know:
 * what the value analysis (verify/analysis/value.h, read through verify/analysis/known.h)
 * knows of the address modulo a power of two says it is
 * not a multiple (@buf + 8 with @buf align 16, for 16 bytes: 8 past one);
 * or, for a fixed number of bytes (not an access's size), the address is
 * a variable plus a multiple of them (known exactly or not), but the
 * variable is declared aligned
 * to fewer (a tensor copy into `align 4`): the module promises no more, and
 * where the variable lies is ptxas's choice. A word read from a byte array
 * declared without align is not held against it: a generator that reads a
 * buffer by words is trusted to have placed it. An address nothing is known
 * of is assumed aligned. Each is wrong on every execution: an error. */
#include <stdlib.h>
#include <string.h>

#include "verify/hazard/frame.h"
#include "verify/analysis/known.h"

enum { NOTE_DEPTH = 2 };

/* The variables found short of an alignment, each reported once with that
 * alignment: its declaration is what to change. */
typedef struct reported {
	px_arena *a;
	uint32_t *base;
	uint32_t *need;
	size_t n, cap;
} reported;

static bool first_report(reported *r, uint32_t base, uint32_t need)
{
	for (size_t i = 0; i < r->n; i++)
		if (r->need[i] == need && r->base[i] == base)
			return false;
	if (r->n == r->cap) {
		size_t cap = r->cap ? 2 * r->cap : 8;
		r->base = px_arena_grow(r->a, r->base, r->n, cap, sizeof *r->base);
		r->need = px_arena_grow(r->a, r->need, r->n, cap, sizeof *r->need);
		r->cap = cap;
	}
	r->base[r->n] = base;
	r->need[r->n++] = need;
	return true;
}

static bool pow2(uint64_t x) { return x && !(x & (x - 1)); }

/* The bytes operand def of n must be a multiple of, or 0 when nothing is
 * asked or the size is not known here. */
static uint32_t need_of(const px_node *n, const px_opnd_def *def)
{
	uint64_t need = 0;
	if (def->align_by == PX_ALIGN_BYTES)
		need = def->align;
	else if (def->align_by == PX_ALIGN_ACCESS)
		need = px_access_bytes(n);
	else if (def->align_by == PX_ALIGN_OPERAND && def->align < n->nops && n->ops[def->align].kind == PX_O_INT &&
	         n->ops[def->align].ival > 0)
		need = (uint64_t)n->ops[def->align].ival;
	return need > 1 && pow2(need) && need <= PX_KNOWN_MOD ? (uint32_t)need : 0;
}

static void check_operand(const px_values *va, px_diags *d, reported *r, const px_node *n, const px_opnd *o,
                          uint32_t need, bool declared)
{
	px_known a;
	if (!px_known_addr(va, o, &a))
		return;
	uint32_t mod, rem;
	px_known_residue(va, &a, &mod, &rem);
	uint32_t m = mod < need ? mod : need, past = rem & (m - 1);
	bool by_value = o->base->kind == PX_O_VALUE;
	if (past) {
		if (by_value) {
			px_str name = va->f->values[o->base->id].name;
			px_error(d, o->loc, PX_D_align_past_reg, n->op->name, (unsigned)need, (int)name.n, name.s,
			         (long long)o->off, (unsigned)past, (unsigned)m);
		} else
			px_error(d, o->loc, PX_D_align_past, n->op->name, (unsigned)need, (int)o->base->sym.n,
			         o->base->sym.s, (long long)o->off, (unsigned)past, (unsigned)m);
	} else if (declared && a.base && a.mod >= need && !(a.rem & (need - 1)) && mod < need) {
		/* the offset is a multiple of need: the variable's alignment falls short */
		if (!first_report(r, a.base, need))
			return;
		px_str name = px_value_base_name(va, a.base);
		px_error(d, o->loc, PX_D_align_declared, n->op->name, (unsigned)need, (int)name.n, name.s,
		         (unsigned)mod, (unsigned)need);
	} else
		return;
	if (by_value)
		px_known_notes(va, d, o->base->id, NOTE_DEPTH);
}

void px_check_align(px_frame *fr)
{
	const px_values *va = &fr->va;
	reported r = {.a = fr->a};
	const px_cfg *g = &fr->g;
	for (uint32_t k = 0; k < g->nstmts; k++) {
		const px_node *n = g->stmt[k];
		if (!(g->stmt_marks[k] & PX_CFG_ADDRESS) || !n->op || !n->var) /* it checks address operands only */
			continue;
		unsigned no;
		const px_opnd_def *defs = px_var_operands(n->op, n->var, &no);
		for (uint32_t i = 0; i < n->nops && i < no; i++) {
			uint32_t need = defs[i].align_by ? need_of(n, &defs[i]) : 0;
			if (need && n->ops[i].kind == PX_O_ADDR)
				check_operand(va, fr->v->d, &r, n, &n->ops[i], need, defs[i].align_by != PX_ALIGN_ACCESS);
		}
	}
}
