/* Static bounds: an address that is a variable (a module variable, or a
 * function's local array) plus an offset known exactly, and an access there
 * that lies outside the variable or runs past its end. Such an address is
 * the same on every execution, so the access is wrong wherever it runs: an
 * error.
 *
 * What an address is comes from the value analysis (verify/analysis/value.h, read
 * through verify/analysis/known.h): the offset may be written
 * in the address, added to the variable's address in steps, or held in
 * values computed from literals (mov, shl, mul, add ...); the notes say
 * where each came from. An offset that varies with the thread index is an
 * error when every thread of the launch shape lies outside the variable
 * (the range the analysis gives it); one that some threads keep inside is
 * not reported. The access's size is the operation's type times its
 * vector width (.v2, .v4, .v8) where it has a type and one address (an
 * operation with several, such as a copy and its mbarrier, types one of
 * them); otherwise its first byte alone is checked.
 *
 * A null pointer (-Wnull-access): an ld, st, atom or red of global memory,
 * or of generic memory, whose address register holds 0 on every path (or
 * whose address is the literal 0 plus an offset). No object of either
 * window lies at 0, so the access faults wherever it runs; it is a warning,
 * not an error, since a kernel may store through a null pointer on purpose
 * to stop with a fault, which ptxas accepts. The shared, local, const and
 * param windows start at 0 with objects there, so they are left out. */
#include "verify/hazard/frame.h"
#include "verify/analysis/known.h"

/* The notes' walk: the address's value and the values its statement reads,
 * two statements up. */
enum { NOTE_DEPTH = 2 };

/* An offset that varies with the thread: every thread of the launch shape
 * (reqntid, else maxntid, else up to 1024 along x) outside the variable. */
static bool check_range(const px_values *va, px_diags *d, const px_node *n, const px_opnd *o, uint32_t base)
{
	px_aff f = px_value_addr(va, o);
	int64_t lo, hi;
	uint64_t size = px_value_base_bytes(va, base);
	if (!size || !px_aff_range(va, &f, NULL, &lo, &hi) || !(hi < 0 || (lo >= 0 && (uint64_t)lo >= size)))
		return false;
	const px_str name = px_value_base_name(va, base);
	px_error(d, o->loc, PX_D_bounds_range, n->op->name, (long long)lo, (long long)hi, (int)name.n, name.s,
	         (unsigned long long)size);
	return true;
}

static void check_access(const px_values *va, px_diags *d, const px_node *n, const px_opnd *o)
{
	if (o->kind != PX_O_ADDR) /* most operands: no form to make or copy */
		return;
	/* the form alone: what the address is a multiple of is the alignment
	 * check's question, not this one's */
	px_aff a = px_value_addr(va, o);
	if (!a.known || !a.base)
		return;
	if (a.nterms) {
		if (check_range(va, d, n, o, a.base) && o->base->kind == PX_O_VALUE)
			px_known_notes(va, d, o->base->id, NOTE_DEPTH);
		return;
	}
	const px_str name = px_value_base_name(va, a.base);
	uint64_t size = px_value_base_bytes(va, a.base);
	if (!size)
		return;
	int64_t off = a.c;
	uint64_t bytes = px_access_bytes(n);
	if (!bytes)
		bytes = 1;
	if (off < 0 || (uint64_t)off >= size)
		px_error(d, o->loc, PX_D_bounds_outside, n->op->name, (long long)off, (int)name.n, name.s,
		         (unsigned long long)size);
	else if ((uint64_t)off + bytes > size)
		px_error(d, o->loc, PX_D_bounds_straddle, n->op->name, (unsigned long long)bytes, (long long)off,
		         (int)name.n, name.s, (unsigned long long)size, (unsigned long long)((uint64_t)off + bytes - size));
	else
		return;
	if (o->base->kind == PX_O_VALUE)
		px_known_notes(va, d, o->base->id, NOTE_DEPTH);
}

/* Whether n is an access of global or generic memory. */
static bool global_or_generic(const px_node *n)
{
	unsigned space;
	return px_access_space(n, &space) && (!space || space == PX_TOK_global);
}

static void check_null(const px_values *va, px_diags *d, const px_node *n)
{
	if (!n->nops)
		return;
	const px_opnd *o = &n->ops[0];
	int64_t p;
	if (o->kind != PX_O_ADDR || !o->base || !global_or_generic(n) || !px_value_const(va, o->base, &p) ||
	    p)
		return;
	px_aff a = px_value_addr(va, o);
	if (!a.known || a.base || a.nterms)
		return;
	px_warn(d, o->loc, PX_D_null_access, n->op->name, (long long)a.c);
	if (o->base->kind == PX_O_VALUE)
		px_known_notes(va, d, o->base->id, NOTE_DEPTH);
}

void px_check_bounds(px_frame *fr)
{
	const px_values *va = &fr->va;
	px_diags *d = fr->v->d;
	const px_cfg *g = &fr->g;
	/* both checks look at address operands only */
	for (uint32_t k = 0; k < g->nstmts; k++) {
		const px_node *n = g->stmt[k];
		if (!(g->stmt_marks[k] & PX_CFG_ADDRESS) || !n->op)
			continue;
		check_null(va, d, n);
		for (uint32_t i = 0; i < n->nops; i++)
			check_access(va, d, n, &n->ops[i]);
	}
}
