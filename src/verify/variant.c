/* Choosing the variant: the first table row that admits the node's tokens, its
 * operand shape and the target. When none does, say which: a token the row
 * cannot take, a modifier it needs, an operand count, or the lowest target that
 * runs it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verify/verify.h"

/* A label, or for a label list operand (count: list) a ( ) group of labels. */
static bool label_fits(const px_opnd_def *def, const px_opnd *o)
{
	if (!(def->flags & PX_OPND_GROUP))
		return o->kind == PX_O_LABEL;
	if (o->kind != PX_O_GROUP || !o->nelems)
		return false;
	for (uint32_t i = 0; i < o->nelems; i++)
		if (o->elems[i].kind != PX_O_LABEL)
			return false;
	return true;
}

/* Does item o fit a definition's kind? (types are checked later) */
static bool kind_fits(const px_opnd_def *def, const px_opnd *o)
{
	if ((def->flags & PX_OPND_SINK_ONLY) && o->kind != PX_O_DISCARD)
		return false; /* a row that writes no result is chosen only for a `_` */
	switch (def->kind) {
	case PX_OK_ADDR:
		return o->kind == PX_O_ADDR;
	case PX_OK_LABEL:
		return label_fits(def, o);
	case PX_OK_SYM:
		return o->kind == PX_O_SYM;
	default:
		return o->kind != PX_O_ADDR && o->kind != PX_O_LABEL && o->kind != PX_O_SYM;
	}
}

/* Map node items to definitions: a group definition of size N takes either one
 * item (an array value or a ( ) group) or, for results, N scalar results. */
static bool map_items(const px_func *f, const px_opnd_def *defs, unsigned ndefs,
                      const px_opnd *items, unsigned nitems, const uint16_t *slot, bool results)
{
	unsigned it = 0;
	for (unsigned d = 0; d < ndefs; d++) {
		if (it == nitems)
			return (defs[d].flags & PX_OPND_OPTIONAL) != 0;
		unsigned count = px_opnd_count(&defs[d], slot);
		const px_opnd *o = &items[it];
		bool whole = o->kind == PX_O_GROUP || (o->kind == PX_O_VALUE && o->elem < 0 &&
		             (results ? o->decl_count || f->values[o->id].count : f->values[o->id].count));
		unsigned take = results && count > 1 && !whole ? count : 1;
		if (it + take > nitems)
			return false;
		for (unsigned k = 0; k < take; k++)
			if (!kind_fits(&defs[d], &items[it + k]))
				return false;
		it += take;
	}
	return it == nitems;
}

/* A predicate where the definition takes one, and none where it takes a value
 * of a fixed other type: rows that differ only there (cp.async's u32 src_size
 * and pred ignore_src) are told apart by it. A value whose type is not known
 * yet, or a definition typed by a slot, matches either way. */
static bool pred_matches(const px_func *f, const px_opnd_def *def, const px_opnd *o)
{
	if (o->kind != PX_O_VALUE)
		return def->kind != PX_OK_PRED;
	unsigned t = f->values[o->id].type;
	if (!t && !o->neg)
		return true;
	bool pred = o->neg || px_types[t].kind == PX_KIND_PRED;
	if (def->kind == PX_OK_PRED)
		return pred;
	return !pred || def->type_slot >= 0 || def->type == PX_T_none || def->type == PX_T_pred;
}

/* Does every operand match its definition's grouping exactly: a ( ) group or an
 * array value of the definition's size where it takes a group, a plain value
 * where it does not? Rows that differ only there (mov and its pack form) are
 * told apart by it; a node no row matches exactly gets the looser match and
 * the operand check's own words. */
static bool groups_match(const px_func *f, const px_node *n, const px_variant *var)
{
	unsigned no;
	const px_opnd_def *defs = px_var_operands(n->op, var, &no);
	for (unsigned i = 0; i < n->nops && i < no; i++) {
		const px_opnd *o = &n->ops[i];
		unsigned size = o->kind == PX_O_GROUP ? o->nelems
		              : o->kind == PX_O_VALUE && o->elem < 0 ? f->values[o->id].count : 0;
		if (px_opnd_is_group(&defs[i], n->slot) ? size != px_opnd_count(&defs[i], n->slot) : size != 0)
			return false;
		if (!pred_matches(f, &defs[i], o))
			return false;
	}
	return true;
}

static bool shape_fits(const px_func *f, const px_node *n, const px_variant *var)
{
	unsigned nr, no;
	const px_opnd_def *r = px_var_results(n->op, var, &nr);
	const px_opnd_def *o = px_var_operands(n->op, var, &no);
	return map_items(f, r, nr, n->res, n->nres, n->slot, true) &&
	       map_items(f, o, no, n->ops, n->nops, n->slot, false);
}

/* In print order. */
void px_node_text(const px_node *n, int skip, char *buf, size_t size)
{
	size_t len = (size_t)snprintf(buf, size, "%s", n->op->name);
	for (unsigned i = 0; i < n->op->nslots && len < size; i++) {
		if ((int)i == skip || !n->slot[i] || (n->op->slots[i].flags & PX_SLOT_NOPRINT))
			continue;
		len += (size_t)snprintf(buf + len, size - len, ".%s", px_tok_names[n->slot[i]]);
	}
}

static void token_list(const uint16_t *toks, char *buf, size_t size)
{
	size_t len = 0;
	buf[0] = 0;
	for (unsigned i = 0; toks && toks[i] && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s.%s", i ? ", " : "", px_tok_names[toks[i]]);
}

/* Whether token tok may fill slot i of var. */
static bool slot_takes(const px_op_def *op, const px_variant *var, unsigned i, unsigned tok)
{
	const px_slot_def *s = &op->slots[i];
	return ((s->flags & PX_SLOT_FIXED) && tok == s->fixed_tok) ||
	       (var->allow[i] && px_toks_have(var->allow[i], tok));
}

/* The slots a rule's message names, one bit each. */
static uint32_t rule_named_slots(const px_rule *r)
{
	uint32_t named = 0;
	for (unsigned k = 0; k < 4; k++)
		if (r->args[k] >= 0)
			named |= UINT32_C(1) << r->args[k];
	return named;
}

/* The family's message for an illegal combination names some slots (mma's
 * shape and types). When a variant has exactly those tokens and only a slot
 * the message does not name is wrong (mma's layouts), that slot is the
 * mistake: name it instead of calling the combination illegal. */
static bool report_unnamed_slot(px_verifier *v, const px_node *n, const px_rule *r)
{
	const px_op_def *op = n->op;
	uint32_t named = rule_named_slots(r);
	if (!named) /* the message names no slot: it speaks of the whole combination */
		return false;
	for (unsigned vi = 0; vi < op->nvariants; vi++) {
		const px_variant *var = &op->variants[vi];
		int bad = -1;
		bool fits = true;
		for (unsigned i = 0; i < op->nslots && fits; i++) {
			unsigned tok = n->slot[i];
			if (!tok || slot_takes(op, var, i, tok))
				continue;
			if ((named >> i) & 1)
				fits = false;
			else if (bad < 0)
				bad = (int)i;
		}
		/* a slot this variant leaves empty is no layout to name */
		if (!fits || bad < 0 || (!var->allow[bad] && !(op->slots[bad].flags & PX_SLOT_FIXED)))
			continue;
		char what[256], list[512];
		px_node_text(n, -1, what, sizeof what);
		const px_slot_def *s = &op->slots[bad];
		if (var->allow[bad])
			token_list(var->allow[bad], list, sizeof list);
		else
			snprintf(list, sizeof list, ".%s", px_tok_names[s->fixed_tok]);
		px_error(v->d, n->oploc, PX_D_slot_token_here, px_tok_names[n->slot[bad]], s->name, what, list);
		return true;
	}
	return false;
}

/* The family's message names a slot left empty, which a variant taking every
 * token written requires (wmma.mma with .bf16 for A and nothing for B): name
 * that slot instead of printing its empty token. */
static bool report_required_slot(px_verifier *v, const px_node *n, const px_rule *r)
{
	const px_op_def *op = n->op;
	uint32_t named = rule_named_slots(r);
	for (unsigned vi = 0; vi < op->nvariants; vi++) {
		const px_variant *var = &op->variants[vi];
		int missing = -1;
		bool fits = true;
		for (unsigned i = 0; i < op->nslots && fits; i++) {
			unsigned tok = n->slot[i];
			if (tok)
				fits = slot_takes(op, var, i, tok);
			else if (missing < 0 && var->allow[i] && ((var->require >> i) & 1) && ((named >> i) & 1))
				missing = (int)i;
		}
		if (!fits || missing < 0)
			continue;
		char what[256], list[512];
		px_node_text(n, -1, what, sizeof what);
		token_list(var->allow[missing], list, sizeof list);
		px_error(v->d, n->oploc, PX_D_modifier_missing, what, op->slots[missing].name, list);
		return true;
	}
	return false;
}

static void report_tokens(px_verifier *v, const px_node *n)
{
	const px_op_def *op = n->op;
	if (op->otherwise) { /* the family's own words for an illegal combination */
		if (!report_unnamed_slot(v, n, op->otherwise) && !report_required_slot(v, n, op->otherwise))
			px_rule_report(v, n, op->otherwise);
		return;
	}
	int best_score = -1, best_bad = -1, best_missing = -1;
	const px_variant *best = NULL;
	for (unsigned vi = 0; vi < op->nvariants; vi++) {
		const px_variant *var = &op->variants[vi];
		int score = 0, bad = -1, missing = -1;
		for (unsigned i = 0; i < op->nslots; i++) {
			const px_slot_def *s = &op->slots[i];
			unsigned tok = n->slot[i];
			bool fixed = (s->flags & PX_SLOT_FIXED) != 0;
			if (!tok) {
				if (missing < 0 && !fixed && (((var->require >> i) & 1) || (s->flags & PX_SLOT_REQUIRED)))
					missing = (int)i;
			} else if ((fixed && tok == s->fixed_tok) || (var->allow[i] && px_toks_have(var->allow[i], tok))) {
				score += (s->flags & PX_SLOT_TYPE) ? 4 : 1; /* the type decides the family */
			} else if (bad < 0) {
				bad = (int)i;
			}
		}
		if (score > best_score) {
			best_score = score;
			best_bad = bad;
			best_missing = missing;
			best = var;
		}
	}
	char what[256], list[512];
	if (best_bad >= 0) {
		px_node_text(n, best_bad, what, sizeof what);
		px_error(v->d, n->oploc, PX_D_modifier_not_valid, px_tok_names[n->slot[best_bad]], what);
	} else {
		/* no variant admitted the node, so the best one lacks a slot it requires */
		px_node_text(n, -1, what, sizeof what);
		token_list(best->allow[best_missing] ? best->allow[best_missing] : op->slots[best_missing].toks,
		           list, sizeof list);
		px_error(v->d, n->oploc, PX_D_modifier_missing, what, op->slots[best_missing].name, list);
	}
}

/* The value written where the row takes only PTX's sink _, or NULL. Such rows
 * have one result (tools/pxgen checks), so result d is item d. */
static const px_opnd *sink_miss(const px_opnd_def *defs, unsigned ndefs, const px_opnd *items, unsigned nitems)
{
	for (unsigned d = 0; d < ndefs && d < nitems; d++)
		if ((defs[d].flags & PX_OPND_SINK_ONLY) && items[d].kind != PX_O_DISCARD)
			return &items[d];
	return NULL;
}

static void report_shape(px_verifier *v, const px_func *f, const px_node *n, const px_variant *var)
{
	char what[256];
	px_node_text(n, -1, what, sizeof what);
	unsigned nr, no;
	const px_opnd_def *r = px_var_results(n->op, var, &nr);
	const px_opnd_def *o = px_var_operands(n->op, var, &no);
	if (!map_items(f, r, nr, n->res, n->nres, n->slot, true)) {
		const px_opnd *sink = sink_miss(r, nr, n->res, n->nres);
		if (sink) {
			px_error(v->d, sink->loc, PX_D_sink_only, what);
			return;
		}
		/* a vector result (ld.v2) is written as one item per element */
		unsigned want = 0;
		for (unsigned k = 0; k < nr; k++)
			want += px_opnd_count(&r[k], n->slot);
		px_error(v->d, n->nres ? n->res[0].loc : n->oploc, PX_D_result_shape, what, want,
		         want == 1 ? "" : "s", n->nres);
		return;
	}
	unsigned need = 0;
	while (need < no && !(o[need].flags & PX_OPND_OPTIONAL))
		need++;
	/* the count is right but an operand has the wrong kind: point at it */
	if (n->nops >= need && n->nops <= no) {
		for (unsigned i = 0; i < n->nops; i++) {
			static const char *const kinds[] = {"a value", "a register", "an immediate",
			                                    "an address [...]", "a label", "a predicate", "a symbol @name"};
			const px_opnd_def *d = &o[i];
			const px_opnd *it = &n->ops[i];
			bool fits = d->kind == PX_OK_ADDR ? it->kind == PX_O_ADDR
			          : d->kind == PX_OK_LABEL ? label_fits(d, it)
			          : d->kind == PX_OK_SYM ? it->kind == PX_O_SYM
			          : it->kind != PX_O_ADDR && it->kind != PX_O_LABEL && it->kind != PX_O_SYM;
			if (!fits) {
				bool list = d->kind == PX_OK_LABEL && (d->flags & PX_OPND_GROUP);
				px_error(v->d, it->loc, PX_D_operand_kind, i + 1, what,
				         list ? "a list of labels (^a, ^b, ...)" : kinds[d->kind]);
				return;
			}
		}
	}
	if (need == no)
		px_error(v->d, n->oploc, PX_D_operand_count, what, no, no == 1 ? "" : "s", n->nops);
	else
		px_error(v->d, n->oploc, PX_D_operand_count_range, what, need, no, n->nops);
}

/* exact: only the rows whose operands match exactly (groups_match) are asked. */
/* The variant chosen for n needs PTX ptx: past --driver/--max-ptx that is
 * refused at n, else it raises the module's version. */
static void need_ptx(px_verifier *v, const px_node *n, uint16_t ptx)
{
	if (px_ptx_over_max(v, ptx)) {
		char what[256];
		px_node_text(n, -1, what, sizeof what);
		px_ptx_refuse(v, n->oploc, what, ptx);
	} else if (ptx > v->ptx_needed) {
		v->ptx_needed = ptx;
	}
}

static void report_window(px_verifier *v, const px_func *f, const px_node *n, bool exact)
{
	uint64_t targets = 0;
	bool sm_ok_somewhere = false;
	for (unsigned vi = 0; vi < n->op->nvariants; vi++) {
		const px_variant *var = &n->op->variants[vi];
		if (!px_variant_admits(n->op, var, n->slot) || !shape_fits(f, n, var) ||
		    (exact && !groups_match(f, n, var)))
			continue;
		if (px_window_ok(var, v->target, 0))
			sm_ok_somewhere = true;
		targets |= var->targets;
	}
	char what[256];
	px_node_text(n, -1, what, sizeof what);
	if (sm_ok_somewhere) {
		/* the SM can run it; the given PTX version is too low */
		uint16_t need = 0xffff;
		for (unsigned vi = 0; vi < n->op->nvariants; vi++) {
			const px_variant *var = &n->op->variants[vi];
			if (px_variant_admits(n->op, var, n->slot) && shape_fits(f, n, var) &&
			    (!exact || groups_match(f, n, var)) && px_window_ok(var, v->target, 0) && var->ptx < need)
				need = var->ptx;
		}
		px_error(v->d, n->oploc, PX_D_needs_ptx, what, need / 10, need % 10, v->ptx_given / 10,
		         v->ptx_given % 10);
	} else {
		px_window_report(v, n->oploc, what, targets);
	}
}

/* An inferred type token no variant admits may have another spelling of the
 * same width that one does (ptxemit-mir(5): a bit type stands for its width). */
static bool respell_inferred(px_verifier *v, px_node *n)
{
	const px_op_def *op = n->op;
	uint16_t slot[PX_MAX_SLOTS];
	for (unsigned i = 0; i < op->nslots; i++) {
		if (!((n->inferred >> i) & 1))
			continue;
		memcpy(slot, n->slot, sizeof slot);
		for (unsigned k = 0; k < 3; k++) {
			unsigned alt = px_type_alternative(&op->slots[i], n->slot[i], k);
			if (!alt)
				continue;
			slot[i] = (uint16_t)alt;
			for (unsigned vi = 0; vi < op->nvariants; vi++)
				if (px_variant_admits(op, &op->variants[vi], slot)) {
					px_slots_edit(v, n)[i] = (uint16_t)alt;
					return true;
				}
		}
	}
	return false;
}

/* The row n takes, or NULL once the mistake is reported; *admitted: the
 * tokens were taken as written (no inferred type respelled). */
static const px_variant *choose(px_verifier *v, px_func *f, px_node *n, bool *admitted_out)
{
	/* the rows before the first that admits the tokens need no second look */
	unsigned start = px_first_row(&v->first_rows, n->op, n->slot);
	bool admitted = start < n->op->nvariants; /* row start admits them */
	*admitted_out = admitted;
	if (!admitted) {
		respell_inferred(v, n);
		start = 0;
	}

	const px_op_def *op = n->op;
	bool exact_elsewhere = false; /* a row matches exactly, but not on this target */
	for (unsigned vi = start; vi < op->nvariants; vi++) {
		const px_variant *var = &op->variants[vi];
		if (((admitted && vi == start) || px_variant_admits(op, var, n->slot)) && shape_fits(f, n, var) &&
		    groups_match(f, n, var)) {
			if (!px_window_ok(var, v->target, v->ptx_given)) {
				exact_elsewhere = true;
				continue;
			}
			return var;
		}
	}
	if (px_mov_is_split(n)) {
		bool any = false;
		for (unsigned vi = 0; vi < op->nvariants && !any; vi++)
			any = px_variant_admits(op, &op->variants[vi], n->slot) && shape_fits(f, n, &op->variants[vi]) &&
			      groups_match(f, n, &op->variants[vi]);
		if (!any) {
			px_mov_split_report(v, f, n);
			return NULL;
		}
	}
	const px_variant *shape_miss = NULL;
	bool any_tokens = false, any_shape = false;
	for (unsigned vi = start; vi < op->nvariants; vi++) {
		const px_variant *var = &op->variants[vi];
		if (!px_variant_admits(op, var, n->slot))
			continue;
		any_tokens = true;
		if (!shape_fits(f, n, var)) {
			if (!shape_miss)
				shape_miss = var;
			continue;
		}
		any_shape = true;
		if (exact_elsewhere)
			break; /* the operands are that row's: its window is the mistake */
		if (px_window_ok(var, v->target, v->ptx_given))
			return var;
	}
	if (any_shape)
		report_window(v, f, n, exact_elsewhere);
	else if (any_tokens)
		report_shape(v, f, n, shape_miss);
	else
		report_tokens(v, n);
	return NULL;
}

/* ---- one answer a shape ----
 * The row a node takes depends on its operation, its tokens, the shape of
 * its items and the target alone: which kind each item is, for a value
 * whether it is indexed, its element count, whether it was declared an
 * array, whether its type is known and a predicate, whether it is negated;
 * for a ( ) group its size and whether it lists labels. A module repeats a
 * few shapes, so each answer is kept (the newest in its entry's place) and
 * a statement of a known shape takes it without asking the rows. Kept are
 * only answers reached with the tokens as written: a respelled inferred type
 * depends on more than the shape. A table belongs to one verifier, whose
 * target and PTX version do not change. */
enum { SHAPE_BITS = 8, SHAPE_ITEMS = 8, SHAPE_COUNT_MAX = 1023 };

struct px_shapes {
	struct shape {
		const px_op_def *op;  /* NULL: empty */
		const px_variant *var;
		uint32_t nres, nops;
		uint16_t slot[PX_MAX_SLOTS];
		uint32_t item[SHAPE_ITEMS];
	} e[1u << SHAPE_BITS];
};

/* An item's shape, or UINT32_MAX where a count does not fit its bits. */
static uint32_t item_shape(const px_func *f, const px_opnd *o)
{
	uint32_t c = o->kind, count = 0;
	if (o->kind == PX_O_VALUE) {
		const px_value *val = &f->values[o->id];
		count = val->count;
		c |= (uint32_t)(o->elem < 0) << 4 | (uint32_t)(o->decl_count != 0) << 5 | (uint32_t)(val->type == 0) << 6 |
		     (uint32_t)(px_types[val->type].kind == PX_KIND_PRED) << 7 | (uint32_t)o->neg << 8;
	} else if (o->kind == PX_O_GROUP) {
		count = o->nelems;
		bool labels = true;
		for (uint32_t i = 0; i < o->nelems && labels; i++)
			labels = o->elems[i].kind == PX_O_LABEL;
		c |= (uint32_t)labels << 9;
	}
	return count > SHAPE_COUNT_MAX ? UINT32_MAX : c | count << 10;
}

/* n's shape in *key and the entry it belongs in; NULL for a shape with too
 * many items to keep. */
static struct shape *shape_of(px_verifier *v, const px_func *f, const px_node *n, struct shape *key)
{
	const px_op_def *op = n->op;
	if (n->nres + n->nops > SHAPE_ITEMS)
		return NULL;
	if (!v->shapes) {
		v->shapes = calloc(1, sizeof *v->shapes);
		if (!v->shapes)
			abort();
	}
	key->op = op;
	key->nres = n->nres;
	key->nops = n->nops;
	memcpy(key->slot, n->slot, op->nslots * sizeof *n->slot);
	uint32_t h = (px_slots_hash(op, n->slot) ^ (n->nres << 4 | n->nops)) * 0x01000193u;
	for (uint32_t i = 0; i < n->nres + n->nops; i++) {
		uint32_t c = item_shape(f, i < n->nres ? &n->res[i] : &n->ops[i - n->nres]);
		if (c == UINT32_MAX)
			return NULL;
		h = (h ^ (key->item[i] = c)) * 0x01000193u;
	}
	return &v->shapes->e[h >> (32 - SHAPE_BITS)];
}

static bool same_shape(const struct shape *e, const struct shape *key)
{
	return e->op == key->op && e->nres == key->nres && e->nops == key->nops &&
	       !memcmp(e->slot, key->slot, key->op->nslots * sizeof *key->slot) &&
	       !memcmp(e->item, key->item, (key->nres + key->nops) * sizeof *key->item);
}

bool px_select_variant(px_verifier *v, px_func *f, px_node *n)
{
	struct shape key;
	struct shape *e = shape_of(v, f, n, &key);
	const px_variant *var;
	if (e && same_shape(e, &key)) {
		var = e->var;
	} else {
		bool admitted;
		var = choose(v, f, n, &admitted);
		if (!var)
			return false;
		if (e && admitted) {
			*e = key;
			e->var = var;
		}
	}
	n->var = var;
	need_ptx(v, n, var->ptx);
	return true;
}

void px_shapes_free(px_shapes **shapes)
{
	free(*shapes);
	*shapes = NULL;
}
