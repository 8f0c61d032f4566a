/* --list-ops and --describe=OP: the operation tables as text, for a user who
 * has the binary and not the YAML under data/ops. Everything here is read from the
 * same rows the verifier and the selector use. */
#include "tables/describe.h"

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

static void put_opnds(px_buf *out, const char *what, const px_op_def *op, const px_opnd_def *d,
                      unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		px_buf_printf(out, "  %s %s: %s", what, d[i].name,
		              d[i].kind < sizeof kind_names / sizeof *kind_names ? kind_names[d[i].kind] : "?");
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
	put_opnds(out, "result", op, op->results, op->nresults);
	put_opnds(out, "operand", op, op->operands, op->noperands);
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
			if (s->flags & PX_SLOT_FIXED)
				continue;
			if (!v->allow[k]) {
				if (s->toks && s->toks[0])
					px_buf_printf(out, "    .%s: (empty)\n", s->name);
				continue;
			}
			px_buf_printf(out, "    .%s%s: ", s->name, (v->require >> k) & 1 ? "" : " (optional)");
			put_toks(out, v->allow[k]);
			px_buf_putc(out, '\n');
		}
	}
}
