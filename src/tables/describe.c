/* --list-ops and --describe=OP: the operation tables as text, for a user who
 * has the binary and not the YAML under data/ops. Everything here is read from the
 * same rows the verifier and the selector use. */
#include "tables/describe.h"
#include "tables/query.h"

#include <stdbool.h>
#include <string.h>

/* The lowest target of a target mask, or -1 when it has none. */
static int lowest_target(uint64_t targets)
{
	for (unsigned i = 0; i < px_ntargets && i < 64; i++)
		if (targets >> i & 1)
			return (int)i;
	return -1;
}

/* A target mask as text: "sm_80 and later" when every later target is in it,
 * else the targets one by one ("sm_90a, sm_100f, ... only"). */
static void put_targets(px_buf *out, uint64_t targets)
{
	int low = lowest_target(targets);
	if (low < 0) {
		px_buf_puts(out, "no target");
		return;
	}
	bool all_later = true;
	for (unsigned i = (unsigned)low; i < px_ntargets && i < 64; i++)
		all_later = all_later && (targets >> i & 1);
	if (all_later) {
		px_buf_printf(out, "%s and later", px_targets[low].name);
		return;
	}
	for (unsigned i = (unsigned)low; i < px_ntargets && i < 64; i++)
		if (targets >> i & 1)
			px_buf_printf(out, "%s%s", i == (unsigned)low ? "" : ", ", px_targets[i].name);
	px_buf_puts(out, " only");
}

void px_list_ops(px_buf *out)
{
	for (unsigned i = 0; i < px_nops; i++) {
		const px_op_def *op = &px_ops[i];
		if (op->flags & PX_OPF_INTERNAL)
			continue;
		uint64_t targets = 0;
		for (unsigned k = 0; k < op->nvariants; k++)
			targets |= op->variants[k].targets;
		int low = lowest_target(targets);
		size_t start = out->len;
		px_buf_puts(out, op->name);
		size_t w = out->len - start;
		do
			px_buf_putc(out, ' ');
		while (++w < 28);
		if (low >= 0)
			px_buf_puts(out, px_targets[low].name);
		px_buf_putc(out, '\n');
	}
}

static const char *const kind_names[] = {
	[PX_OK_VALUE] = "value", [PX_OK_REG] = "register", [PX_OK_IMM] = "immediate",
	[PX_OK_ADDR] = "address", [PX_OK_LABEL] = "label", [PX_OK_PRED] = "predicate",
	[PX_OK_SYM] = "symbol",
};

static const char *const space_names[] = {
	[PX_AS_GENERIC] = "generic", [PX_AS_GLOBAL] = "global", [PX_AS_SHARED] = "shared::cta",
	[PX_AS_CLUSTER] = "shared::cluster", [PX_AS_CONST] = "const", [PX_AS_LOCAL] = "local",
	[PX_AS_PARAM] = "param", [PX_AS_TMEM] = "tmem",
};

const char *px_opnd_kind_name(unsigned kind)
{
	return kind < sizeof kind_names / sizeof *kind_names ? kind_names[kind] : NULL;
}

const char *px_space_name(unsigned space)
{
	return space < sizeof space_names / sizeof *space_names ? space_names[space] : NULL;
}

/* What an integer literal there may be: its allowed set (one per token of a
 * slot, when the set depends on one) and its range. */
static void put_imms(px_buf *out, const px_op_def *op, const px_opnd_def *d)
{
	if (d->allowed) {
		int32_t by = d->allowed[0];
		for (const int32_t *p = d->allowed + 1; p[0] >= 0; p += 2 + p[1]) {
			px_buf_puts(out, p == d->allowed + 1 ? ", one of" : "; one of");
			for (int32_t k = 0; k < p[1]; k++)
				px_buf_printf(out, " %d", (int)p[2 + k]);
			if (by >= 0 && by < op->nslots)
				px_buf_printf(out, " with .%s %s", op->slots[by].name, px_tok_names[p[0]]);
		}
	}
	if (d->range) {
		px_buf_printf(out, ", %lld to %lld", (long long)d->range->lo, (long long)d->range->hi);
		if (d->range->multiple > 1)
			px_buf_printf(out, ", a multiple of %d", (int)d->range->multiple);
		if (d->range->pow2)
			px_buf_puts(out, ", a power of two");
		if (d->range->nonzero)
			px_buf_puts(out, ", not 0");
	}
}

/* An operand's state space: an address's, or the one a value or symbol
 * operand holds an address in (src/verify/space.c reads them the same way). */
static void put_space(px_buf *out, const px_op_def *op, const px_opnd_def *d)
{
	if (d->kind != PX_OK_ADDR &&
	    ((d->kind != PX_OK_VALUE && d->kind != PX_OK_SYM) || (d->space_slot < 0 && d->space == PX_AS_NONE)))
		return;
	px_buf_puts(out, d->kind == PX_OK_ADDR ? ", space " : ", holds an address, space ");
	if (d->space_slot >= 0 && d->space_slot < op->nslots)
	{
		unsigned only = px_opnd_only_space(op, d);
		px_buf_printf(out, "from .%s%s", op->slots[d->space_slot].name,
		              op->slots[d->space_slot].flags & PX_SLOT_FIXED ? ""
		              : only == PX_AS_SHARED                      ? " (generic when empty, on shared memory only)"
		              : only == PX_AS_GLOBAL                      ? " (generic when empty, on global memory only)"
		                                                          : " (generic when empty)");
	}
	else if (px_space_name(d->space))
		px_buf_puts(out, px_space_name(d->space));
	else
		px_buf_puts(out, "?");
}

static void put_opnds(px_buf *out, const char *indent, bool operands, const px_op_def *op,
                      const px_opnd_def *d, unsigned n)
{
	const char *what = operands ? "operand" : "result";
	for (unsigned i = 0; i < n; i++) {
		px_buf_printf(out, "%s%s %s: %s", indent, what, d[i].name,
		              px_opnd_kind_name(d[i].kind) ? px_opnd_kind_name(d[i].kind) : "?");
		if (d[i].type_slot >= 0 && d[i].type_slot < op->nslots)
			px_buf_printf(out, ", type from .%s%s", op->slots[d[i].type_slot].name,
			              d[i].derive == PX_DERIVE_WIDE   ? " (doubled)"
			              : d[i].derive == PX_DERIVE_HALF ? " (halved)"
			                                              : "");
		else if (d[i].type)
			px_buf_printf(out, ", type %s", px_types[d[i].type].name);
		if (d[i].flags & PX_OPND_GROUP) {
			if (d[i].count_slot >= 0 && d[i].count_slot < op->nslots)
				px_buf_printf(out, ", a group sized by .%s", op->slots[d[i].count_slot].name);
			else
				px_buf_printf(out, ", a group of %u", d[i].count);
		}
		if (operands)
			put_space(out, op, &d[i]);
		if ((d[i].flags & PX_OPND_COORDS) && d[i].count_slot >= 0 && d[i].count_slot < op->nslots)
			px_buf_printf(out, ", coordinates [a, (c0 ...)], one per dimension of .%s", op->slots[d[i].count_slot].name);
		else if ((d[i].flags & PX_OPND_COORDS) && d[i].count)
			px_buf_printf(out, ", coordinates [a, (c0 ...)], %u of them", d[i].count);
		else if (d[i].flags & PX_OPND_COORDS)
			px_buf_puts(out, ", coordinates [a, (c0 ...)], as many as its geometry takes");
		put_imms(out, op, &d[i]);
		if (d[i].select && d[i].select <= op->nslots)
			px_buf_printf(out, ", selector .%s (printed after it)", op->slots[d[i].select - 1].name);
		if (d[i].negate && d[i].negate <= op->nslots)
			px_buf_printf(out, ", negated by .%s (printed '-' before it)", op->slots[d[i].negate - 1].name);
		if (d[i].flags & PX_OPND_WIDER)
			px_buf_puts(out, ", or a wider integer value (up to 64 bits)");
		if (d[i].flags & PX_OPND_OPTIONAL)
			px_buf_puts(out, ", optional");
		if (d[i].flags & PX_OPND_SREG)
			px_buf_puts(out, ", a special register allowed");
		if (d[i].flags & (PX_OPND_SINK | PX_OPND_SINK_ONLY))
			px_buf_puts(out, (d[i].flags & PX_OPND_SINK_ONLY) ? ", only _" : ", may be _");
		px_buf_putc(out, '\n');
	}
}

static void put_toks(px_buf *out, const uint16_t *t)
{
	for (unsigned k = 0; t && t[k]; k++)
		px_buf_printf(out, "%s%s", k ? " " : "", px_tok_names[t[k]]);
}

/* The coordinates "as many as its geometry takes" means, for each geometry
 * token of the op's slots (data/families.yaml): "a1d 2 (1 index)": two, the
 * first an integer index (s32), the other of the coordinate type (the
 * .ctype slot's, as src/verify/texture.c reads it). */
static void put_geometries(px_buf *out, const px_op_def *op)
{
	bool family = false;
	int ctype = px_slot_find(op, PX_SN_ctype); /* a surface has none: s32 */
	for (unsigned i = 0; i < op->noperands; i++)
		family |= (op->operands[i].flags & PX_OPND_COORDS) && op->operands[i].count_slot < 0 &&
		          !op->operands[i].count;
	for (unsigned k = 0; family && k < op->nslots; k++) {
		bool first = true;
		for (const uint16_t *t = op->slots[k].toks; t && *t; t++) {
			const px_geometry *g = px_geometry_of(*t);
			if (!g)
				continue;
			if (first && ctype >= 0)
				px_buf_printf(out, "  coordinates by .%s, type from .%s: ", op->slots[k].name,
				              op->slots[ctype].name);
			else if (first)
				px_buf_printf(out, "  coordinates by .%s, type s32: ", op->slots[k].name);
			px_buf_printf(out, "%s%s %u", first ? "" : ", ", px_tok_names[*t], g->ncoords);
			if (g->nindex)
				px_buf_printf(out, " (%u index%s)", g->nindex, g->nindex > 1 ? "es" : "");
			first = false;
		}
		if (!first)
			px_buf_putc(out, '\n');
	}
}

void px_describe_op(px_buf *out, const px_op_def *op)
{
	px_buf_printf(out, "%s\n  form: %s", op->name, op->name);
	for (unsigned i = 0; i < op->nslots; i++) {
		const px_slot_def *s = &op->slots[i];
		if (s->flags & PX_SLOT_NOPRINT)
			continue;
		bool req = (s->flags & (PX_SLOT_REQUIRED | PX_SLOT_FIXED)) != 0;
		px_buf_printf(out, "%s.%s%s", req ? "" : "{", s->name, req ? "" : "}");
	}
	for (unsigned i = 0; i < op->nresults; i++)
		px_buf_printf(out, "%s%s", i ? ", " : " ", op->results[i].name);
	for (unsigned i = 0; i < op->noperands; i++)
		px_buf_printf(out, "%s%s", i || op->nresults ? ", " : " ", op->operands[i].name);
	px_buf_putc(out, '\n');
	if (op->flags & PX_OPF_CARRY_IN)
		px_buf_puts(out, "  reads the carry flag: a .cc instruction before it in its basic block sets it\n");
	for (unsigned i = 0; i < op->nslots; i++) {
		const px_slot_def *s = &op->slots[i];
		px_buf_printf(out, "  slot .%s:", s->name);
		if (s->flags & PX_SLOT_FIXED)
			px_buf_printf(out, " %s (always)", px_tok_names[s->fixed_tok]);
		else if (s->toks && s->toks[0]) {
			px_buf_putc(out, ' ');
			put_toks(out, s->toks);
		}
		if (s->flags & PX_SLOT_TYPE)
			px_buf_puts(out, " (inferred when left out)");
		if (s->flags & PX_SLOT_NOPRINT)
			px_buf_puts(out, " (a property; not printed)");
		px_buf_putc(out, '\n');
	}
	put_opnds(out, "  ", false, op, op->results, op->nresults);
	put_opnds(out, "  ", true, op, op->operands, op->noperands);
	put_geometries(out, op);
	/* the token combinations a rule refuses on every target, which the
	 * variants below may list; those ptxas assembles and the GPU computes
	 * otherwise said apart */
	for (unsigned i = 0; i < op->nrules; i++) {
		const px_rule *r = &op->rules[i];
		if (r->sm_below || r->ptx_below || r->sm_from || r->not_arch)
			continue;
		px_buf_puts(out, r->gpu ? "  refused for the GPU's result with" : "  refused with");
		bool first = true;
		for (unsigned k = 0; k < op->nslots; k++) {
			if (!r->when[k])
				continue;
			px_buf_printf(out, "%s .%s ", first ? "" : ",", op->slots[k].name);
			if (r->when[k][0])
				put_toks(out, r->when[k]);
			else
				px_buf_puts(out, "(empty)");
			first = false;
		}
		px_buf_putc(out, '\n');
	}
	for (const px_prop_def *p = op->props; p && p->key; p++) {
		px_buf_printf(out, "  property %s: fills .%s", p->key,
		              p->slot >= 0 && p->slot < op->nslots ? op->slots[p->slot].name : "?");
		for (const char *const *f = p->from; f && f[0]; f += 2)
			px_buf_printf(out, "%s%s=%s", f == p->from ? " (" : ", ", f[0], f[1][0] ? f[1] : "none");
		px_buf_puts(out, p->from && p->from[0] ? ")\n" : "\n");
	}
	for (unsigned i = 0; i < op->nvariants; i++) {
		const px_variant *v = &op->variants[i];
		px_buf_printf(out, "  variant %u: ", i + 1);
		put_targets(out, v->targets);
		px_buf_printf(out, ", PTX ISA %u.%u", v->ptx / 10, v->ptx % 10);
		if (v->mc)
			px_buf_printf(out, ", MC %s", v->mc);
		if (v->iid >= 0)
			px_buf_printf(out, ", intrinsic %d", (int)v->iid);
		px_buf_putc(out, '\n');
		for (unsigned k = 0; k < op->nslots; k++) {
			const px_slot_def *s = &op->slots[k];
			/* a fixed slot shows only where the variant allows more than its token */
			if ((s->flags & PX_SLOT_FIXED) &&
			    (!v->allow[k] || (v->allow[k][0] == s->fixed_tok && !v->allow[k][1])))
				continue;
			if (!v->allow[k]) {
				if (s->toks && s->toks[0])
					px_buf_printf(out, "    .%s: (empty)\n", s->name);
				continue;
			}
			px_buf_printf(out, "    .%s%s: ", s->name, ((v->require >> k) & 1) || (s->flags & PX_SLOT_FIXED) ? "" : " (optional)");
			put_toks(out, v->allow[k]);
			px_buf_putc(out, '\n');
		}
		/* the operands of a variant that has its own */
		if (v->results)
			put_opnds(out, "    ", false, op, v->results, v->nresults);
		if (v->operands)
			put_opnds(out, "    ", true, op, v->operands, v->noperands);
	}
}
