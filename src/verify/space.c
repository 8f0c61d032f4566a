/* Address spaces: what each value's address points into, and whether every
 * memory operand gets an address of the space its instruction works in.
 *
 * Run once a function's nodes are resolved. Every value gets a tag
 * (px_value.aspace): no address known, or an address in one state space's own
 * window (a 32-bit shared offset from `mov @tile`), or the generic address of
 * a place in a known space (a ptr shared parameter). The tag is the join of
 * every definition of the value, whatever the path (MIR is not SSA), so a
 * value defined from two different spaces, or from a load, is unknown; an
 * unknown address is allowed everywhere a 64-bit address is, as PTX allows
 * it, unless some definition is a window address (mixed), which no generic
 * or global access may take: on that path it would reach the wrong memory.
 *
 * Addresses are formed by mov (of a value or a variable's name), add, sub
 * (address minus offset), mad (the addend), selp (both sides alike), and
 * (an alignment mask with a non-address), cvt between integer widths (a window
 * address of shared, const, local or param fits 32 bits; a global or generic
 * one does not survive truncation) and cvta (into or out of a space). Anything
 * else, including mul and a load, gives a value whose space is unknown. */
#include <stdio.h>
#include <string.h>

#include "verify/state.h"
#include "verify/verify.h"

static const char *const space_words[] = {
	[PX_AS_GENERIC] = "generic", [PX_AS_GLOBAL] = "global", [PX_AS_SHARED] = "shared",
	[PX_AS_CLUSTER] = "shared::cluster", [PX_AS_CONST] = "const", [PX_AS_LOCAL] = "local",
	[PX_AS_PARAM] = "param", [PX_AS_TMEM] = "tensor memory",
};

/* A parameter's tag: a kernel's ptr global is converted once at entry into a
 * global address (also a valid generic one); other pointers are generic
 * addresses into their space; an aggregate lives in the param space. */
static uint8_t param_tag(const px_func *f, const px_value *val)
{
	const px_param *p = &f->params[val->param_index];
	switch (val->param) {
	case PX_PARAM_PTR:
		if (f->is_kernel && p->space == PX_TOK_global)
			return PX_SP_IN(PX_AS_GLOBAL);
		return PX_SP_IN(px_space_of_tok(p->space)) | (p->space ? PX_SP_GEN : 0);
	case PX_PARAM_AGG:
		return PX_SP_IN(PX_AS_PARAM);
	default:
		return PX_SP_UNKNOWN;
	}
}

/* A pass of compute_tags: what it reads, and the values whose tags it has
 * read so far (a bit each): a tag that rises after the pass read it is what
 * makes one more pass needed. */
typedef struct tagging {
	const px_verifier *v;
	const px_func *f;
	uint64_t *read;
} tagging;

/* What one operand contributes: a known address's tag, else 0. */
static uint8_t opnd_tag(const tagging *g, const px_opnd *o)
{
	const px_func *f = g->f;
	uint8_t t = 0;
	if (o->kind == PX_O_VALUE && o->elem < 0 && !f->values[o->id].count) {
		t = f->values[o->id].aspace;
		g->read[o->id / 64] |= (uint64_t)1 << (o->id % 64);
	} else if (o->kind == PX_O_SYM) {
		t = px_sym_space(g->v->m, f, o->sym);
	}
	return t == PX_SP_UNKNOWN ? 0 : t; /* a mixed tag goes on through arithmetic */
}

/* The one known address among ops[first..first+n), when the others are none. */
static uint8_t only_address(const tagging *g, const px_node *n, unsigned first, unsigned count)
{
	uint8_t found = 0;
	for (unsigned i = first; i < first + count && i < n->nops; i++) {
		uint8_t t = opnd_tag(g, &n->ops[i]);
		if (t && found)
			return PX_SP_UNKNOWN; /* two addresses: a difference or nonsense */
		found = t ? t : found;
	}
	return found ? found : PX_SP_UNKNOWN;
}

static bool fits_32(uint8_t t)
{
	if (t & PX_SP_MIXED)
		return true;
	unsigned sp = PX_SP_SPACE(t);
	return !(t & PX_SP_GEN) && sp != PX_AS_GLOBAL && sp != PX_AS_GENERIC;
}

/* A window address: one of a space's own window that is no generic one. */
static bool is_window(uint8_t t)
{
	return t > PX_SP_UNKNOWN && !(t & (PX_SP_GEN | PX_SP_MIXED)) && PX_SP_SPACE(t) != PX_AS_GLOBAL &&
	       PX_SP_SPACE(t) != PX_AS_GENERIC;
}

/* Two tags a value takes on different paths: the same, else unknown, mixed
 * when either is (or holds) a window address. */
static uint8_t join_tags(uint8_t a, uint8_t b)
{
	if (!a || a == b)
		return b;
	if (!b)
		return a;
	return PX_SP_UNKNOWN | (is_window(a) || is_window(b) || ((a | b) & PX_SP_MIXED) ? PX_SP_MIXED : 0);
}

/* The tag a node gives its first result (none for a discarded `_`, which names no value). */
static uint8_t result_tag(const tagging *g, const px_node *n)
{
	const px_func *f = g->f;
	if (!n->var || n->kind != PX_N_INST || n->nres != 1 || n->res[0].kind != PX_O_VALUE)
		return PX_SP_UNKNOWN;
	unsigned op = (unsigned)(n->op - px_ops);
	int width = f->values[n->res[0].id].type ? px_types[f->values[n->res[0].id].type].width : 0;
	uint8_t t;
	switch (op) {
	case PX_OP_mov:
	case PX_OP_cvt:
		if (op == PX_OP_cvt && px_slot_find(n->op, PX_SN_rnd) >= 0 && n->slot[px_slot_find(n->op, PX_SN_rnd)])
			return PX_SP_UNKNOWN; /* a rounding conversion: a float */
		t = n->nops == 1 ? opnd_tag(g, &n->ops[0]) : 0;
		if (!t || (width < 64 && !fits_32(t)))
			return PX_SP_UNKNOWN;
		return t;
	case PX_OP_add:
	case PX_OP_and:
		return only_address(g, n, 0, 2);
	case PX_OP_sub:
		return n->nops == 2 && !opnd_tag(g, &n->ops[1]) ? only_address(g, n, 0, 1) : PX_SP_UNKNOWN;
	case PX_OP_mad: /* a * b + c: the addend c may be an address */
		if (n->nops != 3 || opnd_tag(g, &n->ops[0]) || opnd_tag(g, &n->ops[1]))
			return PX_SP_UNKNOWN;
		return only_address(g, n, 2, 1);
	case PX_OP_selp: /* either side, as two definitions would be */
		if (n->nops != 3)
			return PX_SP_UNKNOWN;
		t = opnd_tag(g, &n->ops[0]);
		return join_tags(t ? t : PX_SP_UNKNOWN, opnd_tag(g, &n->ops[1]) ? opnd_tag(g, &n->ops[1]) : PX_SP_UNKNOWN);
	case PX_OP_mapa: /* the same place in another CTA of the cluster */
		t = n->slot[px_slot_find(n->op, PX_SN_space)] ? PX_SP_IN(PX_AS_CLUSTER) : PX_SP_IN(PX_AS_CLUSTER) | PX_SP_GEN;
		return width < 64 && !fits_32(t) ? PX_SP_UNKNOWN : t;
	case PX_OP_cvta: {
		unsigned sp = px_space_of_tok(n->slot[px_slot_find(n->op, PX_SN_space)]);
		bool to = n->slot[px_slot_find(n->op, PX_SN_to)] != 0;
		return PX_SP_IN(sp) | (to || sp == PX_AS_GLOBAL ? 0 : PX_SP_GEN);
	}
	default:
		return PX_SP_UNKNOWN;
	}
}

/* A value defined several ways: the same tag, or unknown. */
static bool join(px_value *val, uint8_t t)
{
	uint8_t j = join_tags(val->aspace, t);
	if (j == val->aspace)
		return false;
	val->aspace = j;
	return true;
}

static void compute_tags(px_verifier *v, px_func *f)
{
	for (uint32_t i = 0; i < f->nvalues; i++) {
		px_value *val = &f->values[i];
		val->aspace = val->param ? param_tag(f, val) : val->count ? PX_SP_UNKNOWN : 0;
	}
	/* tags only rise (none, one space, unknown): passes in text order settle
	 * them, and the pass after the last change would change nothing. A
	 * pass in which no tag rose after a statement read it is that pass
	 * already: each statement would read what it read (on a body whose
	 * values are defined before they are used, the first pass). */
	px_arena_mark mark = px_arena_mark_now(&v->scratch);
	size_t words = f->nvalues / 64 + 1;
	tagging g = {v, f, px_arena_array(&v->scratch, words, sizeof *g.read)};
	for (bool again = true; again;) {
		again = false;
		memset(g.read, 0, words * sizeof *g.read);
		for (px_node *n = f->first; n; n = n->next) {
			if (n->kind != PX_N_INST && n->kind != PX_N_CALL)
				continue;
			uint8_t t = n->kind == PX_N_INST ? result_tag(&g, n) : PX_SP_UNKNOWN;
			for (uint32_t i = 0; i < n->nres; i++) {
				uint32_t id = n->res[i].id;
				if (n->res[i].kind == PX_O_VALUE && join(&f->values[id], i ? PX_SP_UNKNOWN : t))
					again |= (g.read[id / 64] >> (id % 64)) & 1;
			}
		}
	}
	px_arena_release(&v->scratch, mark);
}

/* "%a" or "@g", as written. */
static const char *base_text(char *buf, size_t size, const px_func *f, const px_opnd *b)
{
	if (b->kind == PX_O_SYM)
		snprintf(buf, size, "@%.*s", (int)b->sym.n, b->sym.s);
	else
		snprintf(buf, size, "%%%.*s", (int)f->values[b->id].name.n, f->values[b->id].name.s);
	return buf;
}

/* "a shared address", "a generic address into shared memory", "the address
 * of a global variable" */
static const char *tag_text(char *buf, size_t size, uint8_t t, bool sym)
{
	const char *w = space_words[PX_SP_SPACE(t)];
	if (sym)
		snprintf(buf, size, "the address of a %s variable", w);
	else if (t & PX_SP_GEN)
		snprintf(buf, size, "a generic address into %s memory", w);
	else
		snprintf(buf, size, "a %s address", w);
	return buf;
}

static const uint16_t need_diag[] = {
	[PX_AS_GENERIC] = PX_D_space_need_generic, [PX_AS_GLOBAL] = PX_D_space_need_global,
	[PX_AS_SHARED] = PX_D_space_need_shared,   [PX_AS_CLUSTER] = PX_D_space_need_cluster,
	[PX_AS_CONST] = PX_D_space_need_const,     [PX_AS_LOCAL] = PX_D_space_need_local,
	[PX_AS_PARAM] = PX_D_space_need_param,     [PX_AS_TMEM] = PX_D_space_need_tmem,
};

/* Does an address tagged t (from a variable's name when sym) suit space sp? */
static bool suits(unsigned sp, uint8_t t, bool sym)
{
	if (!t || t == PX_SP_UNKNOWN)
		return sp != PX_AS_TMEM || !sym;
	unsigned have = PX_SP_SPACE(t);
	switch (sp) {
	case PX_AS_TMEM:
		return false;
	case PX_AS_GENERIC:
		/* a variable's name and a parameter aggregate give their generic address */
		return sym || (t & PX_SP_GEN) || have == PX_AS_GLOBAL || have == PX_AS_GENERIC || have == PX_AS_PARAM;
	case PX_AS_CLUSTER:
		return have == PX_AS_CLUSTER || have == PX_AS_SHARED || have == PX_AS_GENERIC;
	default:
		return have == sp || have == PX_AS_GENERIC;
	}
}

/* An instruction whose space follows its address takes .shared for a shared one. */
static void follow_space(px_verifier *v, px_node *n, uint8_t t)
{
	int si = px_slot_find(n->op, PX_SN_space);
	if (!(n->op->flags & PX_OPF_SPACE_FROM_ADDRESS) || si < 0 || n->slot[si] || !t || t == PX_SP_UNKNOWN ||
	    PX_SP_SPACE(t) != PX_AS_SHARED)
		return;
	uint16_t *w = px_slots_edit(v, n);
	w[si] = PX_TOK_shared;
	const px_variant *var = px_variant_find(NULL, n->op, w, v->target, v->ptx_given);
	if (var)
		n->var = var;
	else
		w[si] = 0;
	px_slots_done(v, n);
}

/* A parameter aggregate where a generic address is wanted prints its generic
 * address (cvta.param): that instruction's window applies. */
static void need_cvta_param(px_verifier *v, px_loc loc)
{
	const px_op_def *cvta = &px_ops[PX_OP_cvta];
	uint16_t slot[PX_MAX_SLOTS] = {0};
	slot[px_slot_find(cvta, PX_SN_space)] = PX_TOK_param;
	slot[px_slot_find(cvta, PX_SN_type)] = PX_TOK_u64;
	for (unsigned i = 0; i < cvta->nvariants; i++)
		if (px_variant_admits(cvta, &cvta->variants[i], slot)) {
			const px_variant *var = &cvta->variants[i];
			px_note_window(v, loc, "cvta.param", var->targets, var->ptx);
			return;
		}
}

/* A value that is a window address on some path and another kind on
 * another: no generic or global access may take it; an access in a space's
 * own window takes it as it takes an unknown address. */
static void mixed_address(px_verifier *v, const px_func *f, const px_node *n, const px_opnd *b, unsigned sp)
{
	if (sp != PX_AS_GENERIC && sp != PX_AS_GLOBAL)
		return;
	char bt[160];
	base_text(bt, sizeof bt, f, b);
	px_error(v->d, b->loc, PX_D_addr_mixed, n->op->name, space_words[sp], bt, space_words[sp]);
}

/* A value or variable name that an instruction reads as an address (mapa's
 * source): in a space's own window (space sp) it must be a window address of
 * that space, not a generic one, since nothing converts a value operand;
 * generic, it must not be a window address. */
static void check_value(px_verifier *v, const px_func *f, const px_node *n, const px_opnd *b, unsigned sp)
{
	bool sym = b->kind == PX_O_SYM;
	uint8_t t = sym ? px_sym_space(v->m, f, b->sym) : f->values[b->id].aspace;
	if (t & PX_SP_MIXED)
		mixed_address(v, f, n, b, sp);
	if (!t || t == PX_SP_UNKNOWN || (t & PX_SP_MIXED))
		return;
	unsigned have = PX_SP_SPACE(t);
	bool ok = suits(sp, t, sym);
	if (sp != PX_AS_GENERIC && (t & PX_SP_GEN))
		ok = false;
	if (ok)
		return;
	char bt[160], tt[80];
	base_text(bt, sizeof bt, f, b);
	tag_text(tt, sizeof tt, t, sym);
	if (sp == PX_AS_GENERIC) {
		/* the form of the op that takes this window, when it has one */
		const char *w = space_words[have], *form = w;
		int si = px_slot_find(n->op, PX_SN_space);
		for (const uint16_t *k = si >= 0 ? n->op->slots[si].toks : NULL; k && *k; k++)
			if (px_space_of_tok(*k) == have || (have == PX_AS_SHARED && px_space_of_tok(*k) == PX_AS_CLUSTER))
				form = px_tok_names[*k];
		px_error(v->d, b->loc, PX_D_space_need_generic, n->op->name, bt, tt, n->op->name, form, w);
	} else {
		px_error(v->d, b->loc, need_diag[sp], n->op->name, bt, tt);
	}
}

/* A 32-bit value of no known space as the base of a generic or global
 * address: PTX zero-extends it (ptxas only warns, "32-bit address ...
 * conflicting with .address_size 64"), so the access reaches the wrong
 * memory. A 32-bit value holds a window address of shared, const, local or
 * param memory at most, and those tags are known; this one could be anything. */
static bool narrow_address(const px_func *f, const px_opnd *b, px_verifier *v, const px_node *n,
                           const px_opnd_def *def, unsigned sp)
{
	const px_value *val = &f->values[b->id];
	unsigned kind = px_types[val->type].kind; /* another kind of base is reported as such */
	if (!val->type || val->param == PX_PARAM_AGG || px_types[val->type].width != 32 ||
	    (kind != PX_KIND_UINT && kind != PX_KIND_SINT && kind != PX_KIND_BIT))
		return false;
	char bt[160];
	base_text(bt, sizeof bt, f, b);
	int si = def->space_slot;
	const char *form = NULL;
	for (const uint16_t *k = sp == PX_AS_GENERIC && si >= 0 ? n->op->slots[si].toks : NULL; k && *k && !form; k++)
		if (px_space_of_tok(*k) == PX_AS_SHARED)
			form = px_tok_names[*k];
	if (form)
		px_error(v->d, b->loc, PX_D_addr32_shared_form, n->op->name, bt, n->op->name, form);
	else
		px_error(v->d, b->loc, PX_D_addr32_wide, n->op->name, space_words[sp], bt);
	return true;
}

/* cvta.to.space takes a generic address of a place in that space (a global
 * address is one, of global memory); cvta.space takes that space's own
 * window address. Anything known to be otherwise is refused: ptxas takes it,
 * and the result reaches the wrong memory. */
static void check_cvta(px_verifier *v, const px_func *f, const px_node *n)
{
	const px_opnd *b = &n->ops[0];
	if (n->nops < 1 || b->kind != PX_O_VALUE || b->elem >= 0)
		return;
	unsigned sp = px_space_of_tok(n->slot[px_slot_find(n->op, PX_SN_space)]);
	bool to = n->slot[px_slot_find(n->op, PX_SN_to)] != 0;
	uint8_t t = f->values[b->id].aspace;
	if (!t || t == PX_SP_UNKNOWN || ((t & PX_SP_MIXED) && !to))
		return;
	if (t & PX_SP_MIXED) {
		mixed_address(v, f, n, b, PX_AS_GENERIC);
		return;
	}
	unsigned have = PX_SP_SPACE(t);
	bool generic = (t & PX_SP_GEN) || have == PX_AS_GLOBAL || have == PX_AS_GENERIC;
	bool ok = to ? generic && (have == sp || have == PX_AS_GENERIC || (sp == PX_AS_CLUSTER && have == PX_AS_SHARED))
	             : !generic && have == sp;
	if (!to && sp == PX_AS_GLOBAL)
		ok = !(t & PX_SP_GEN) && (have == PX_AS_GLOBAL || have == PX_AS_GENERIC);
	if (ok)
		return;
	char bt[160], tt[80];
	base_text(bt, sizeof bt, f, b);
	tag_text(tt, sizeof tt, t, false);
	const char *w = space_words[sp], *tok = px_tok_names[n->slot[px_slot_find(n->op, PX_SN_space)]];
	if (to)
		px_error(v->d, b->loc, PX_D_cvta_to_space, tok, w, bt, tt);
	else
		px_error(v->d, b->loc, PX_D_cvta_from_space, tok, w, bt, tt);
}

static void check_node(px_verifier *v, px_func *f, px_node *n)
{
	if (n->op == &px_ops[PX_OP_cvta])
		check_cvta(v, f, n);
	unsigned no;
	const px_opnd_def *defs = px_var_operands(n->op, n->var, &no);
	for (unsigned i = 0; i < n->nops && i < no; i++) {
		const px_opnd *o = &n->ops[i];
		if (defs[i].kind != PX_OK_ADDR && (defs[i].space_slot >= 0 || defs[i].space != PX_AS_NONE) &&
		    ((o->kind == PX_O_VALUE && o->elem < 0) || o->kind == PX_O_SYM))
			check_value(v, f, n, o, px_opnd_space(&defs[i], n->slot));
		if (defs[i].kind != PX_OK_ADDR || o->kind != PX_O_ADDR)
			continue;
		const px_opnd *b = o->base;
		if (b->kind != PX_O_SYM && b->kind != PX_O_VALUE)
			continue;
		bool sym = b->kind == PX_O_SYM;
		uint8_t t = sym ? px_sym_space(v->m, f, b->sym) : f->values[b->id].aspace;
		follow_space(v, n, t);
		unsigned sp = px_opnd_space(&defs[i], n->slot);
		if (!sym && (!t || t == PX_SP_UNKNOWN) && (sp == PX_AS_GENERIC || sp == PX_AS_GLOBAL) &&
		    narrow_address(f, b, v, n, &defs[i], sp))
			continue;
		if (t & PX_SP_MIXED) {
			mixed_address(v, f, n, b, sp);
			continue;
		}
		bool ok = suits(sp, t, sym);
		unsigned only = sp == PX_AS_GENERIC ? px_opnd_only_space(n->op, &defs[i]) : PX_AS_GENERIC;
		if (ok && only != PX_AS_GENERIC && t && t != PX_SP_UNKNOWN) {
			unsigned have = PX_SP_SPACE(t);
			ok = have == only || have == PX_AS_GENERIC || (only == PX_AS_SHARED && have == PX_AS_CLUSTER);
			sp = ok ? sp : only;
		}
		if (ok && sp == PX_AS_GENERIC && !sym && f->values[b->id].param == PX_PARAM_AGG)
			need_cvta_param(v, b->loc);
		/* an address of no known space (an undefined name: reported as such) */
		if (ok || !t || t == PX_SP_UNKNOWN)
			continue;
		char bt[160], tt[80];
		base_text(bt, sizeof bt, f, b);
		tag_text(tt, sizeof tt, t, sym);
		if (sp == PX_AS_GENERIC) {
			/* the operand's own form for that space, when the op has one */
			unsigned have = PX_SP_SPACE(t);
			const char *w = space_words[have], *form = NULL;
			int si = defs[i].space_slot;
			for (const uint16_t *k = si >= 0 ? n->op->slots[si].toks : NULL; k && *k && !form; k++)
				if (px_space_of_tok(*k) == have)
					form = px_tok_names[*k];
			if (form)
				px_error(v->d, b->loc, PX_D_space_need_generic, n->op->name, bt, tt, n->op->name, form, w);
			else
				px_error(v->d, b->loc, PX_D_space_need_convert, n->op->name, bt, tt, w);
		} else {
			px_error(v->d, b->loc, need_diag[sp], n->op->name, bt, tt);
		}
	}
}

/* What keeps an operand from being passed or returned as a ptr (a generic
 * address): "%x is a shared::cluster address", or NULL when it is a generic
 * address, converts to one (a shared, const or local window address: the
 * selector converts it), or is of no known kind. */
static const char *not_pointer(px_verifier *v, const px_func *f, const px_opnd *o)
{
	if (o->kind != PX_O_VALUE || o->elem >= 0)
		return NULL;
	uint8_t t = f->values[o->id].aspace;
	if (!t || t == PX_SP_UNKNOWN || px_space_is_window(t) ||
	    (!(t & PX_SP_MIXED) && ((t & PX_SP_GEN) || PX_SP_SPACE(t) == PX_AS_GLOBAL || PX_SP_SPACE(t) == PX_AS_GENERIC)))
		return NULL;
	char bt[160], tt[80];
	base_text(bt, sizeof bt, f, o);
	if (t & PX_SP_MIXED)
		snprintf(tt, sizeof tt, "a window address on one path or selp operand and not on another");
	else
		tag_text(tt, sizeof tt, t, false);
	size_t n = strlen(bt) + strlen(tt) + 5;
	char *s = px_arena_alloc(v->keep, n);
	snprintf(s, n, "%s is %s", bt, tt);
	return s;
}

/* The space an argument's address is known to be in (PX_AS_*), with the
 * words "%g is a global address" in *why; -1 where it is of no known space
 * (unknown, a generic address into no known space, or mixed by path). */
int px_known_arg_space(px_verifier *v, const px_func *f, const px_opnd *o, const char **why)
{
	*why = NULL;
	if (o->kind != PX_O_VALUE || o->elem >= 0)
		return -1;
	uint8_t t = f->values[o->id].aspace;
	if (!t || t == PX_SP_UNKNOWN || (t & PX_SP_MIXED) || PX_SP_SPACE(t) == PX_AS_GENERIC)
		return -1;
	char bt[160], tt[80];
	base_text(bt, sizeof bt, f, o);
	tag_text(tt, sizeof tt, t, false);
	size_t n = strlen(bt) + strlen(tt) + 5;
	char *w = px_arena_alloc(v->keep, n);
	snprintf(w, n, "%s is %s", bt, tt);
	*why = w;
	return (int)PX_SP_SPACE(t);
}

/* A pointer parameter of a space (ptr shared, ptr global...) takes a generic
 * address into that space: the callee converts it with cvta.to.SPACE, which
 * turns an address of any other memory into the wrong place. */
void px_check_arg_space(px_verifier *v, const px_funcsig *sig, uint32_t i, const char *sigil, px_str callee,
                        int have, const char *why, px_loc at)
{
	if (!sig->param_spaces || !sig->param_spaces[i] || have < 0)
		return;
	unsigned want = px_space_of_tok(sig->param_spaces[i]);
	if ((unsigned)have == want)
		return;
	const char *w = space_words[want];
	px_error(v->d, at, PX_D_ptr_arg_param_space, i + 1, sigil, (int)callee.n, callee.s, w, w, why, w, w);
}

/* Pointer arguments and results: each is a generic address, converted from a
 * window address where cvta can; the rest is refused here, or for a callee
 * not seen yet, when the module ends (verify/module.c). */
static void check_pointers(px_verifier *v, const px_func *f)
{
	if (!f->ncalls && (f->is_kernel || !f->nrets))
		return; /* no call, and nothing returned: no pointer crosses (a pass less over a big kernel) */
	px_pending_call *p = *v->fn_pending;
	for (px_node *n = f->first; n; n = n->next) {
		if (n->kind == PX_N_RET) {
			for (uint32_t i = 0; i < n->nops && i < f->nrets && !f->is_kernel; i++) {
				const char *why = f->rets[i] == PX_T_ptr ? not_pointer(v, f, &n->ops[i]) : NULL;
				if (why)
					px_error(v->d, n->ops[i].loc, PX_D_ptr_ret_space, i + 1, (int)f->name.n, f->name.s, why);
			}
			continue;
		}
		if (n->kind != PX_N_CALL)
			continue;
		const px_funcsig *sig = n->icall ? n->icall->proto : NULL;
		if (!n->icall) {
			uint32_t e = px_module_sym(v->m, n->callee);
			sig = e != PX_STRMAP_NONE && (e & 1) ? &v->m->funcs[e >> 1] : NULL;
		}
		if (!sig) { /* the next pending call is this one's: record for the module's end */
			for (uint32_t i = 0; p && i < n->nops; i++) {
				p->not_pointer[i] = not_pointer(v, f, &n->ops[i]);
				p->known_space[i] = (int8_t)px_known_arg_space(v, f, &n->ops[i], &p->known_as[i]);
			}
			p = p ? p->next : NULL;
			continue;
		}
		px_str name = n->icall ? sig->name : n->callee;
		const char *sigil = n->icall ? "%" : "@";
		for (uint32_t i = 0; i < n->nops && i < sig->nparams && !sig->is_kernel; i++) {
			if (sig->params[i] != PX_T_ptr)
				continue;
			const char *why = not_pointer(v, f, &n->ops[i]);
			if (why) {
				px_error(v->d, n->ops[i].loc, PX_D_ptr_arg_space, i + 1, sigil, (int)name.n, name.s, why);
				continue;
			}
			int have = px_known_arg_space(v, f, &n->ops[i], &why);
			px_check_arg_space(v, sig, i, sigil, name, have, why, n->ops[i].loc);
		}
	}
}

const char *px_space_tag_text(char *buf, size_t size, uint8_t tag)
{
	if (tag <= PX_SP_UNKNOWN || (tag & PX_SP_MIXED) || tag == PX_SP_IN(PX_AS_GENERIC))
		return NULL;
	return tag_text(buf, size, tag, false);
}

void px_check_spaces(px_verifier *v, px_func *f)
{
	compute_tags(v, f);
	check_pointers(v, f);
	for (px_node *n = f->first; n; n = n->next)
		if (n->kind == PX_N_INST && n->var)
			check_node(v, f, n);
}
