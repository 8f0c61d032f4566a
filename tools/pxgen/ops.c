/* pxgen: the operations of ops/NAME.yaml. */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "pxgen.h"

int slot_index(const op_row *op, const char *name)
{
	for (size_t i = 0; i < op->nslots; i++)
		if (!strcmp(op->slots[i].name, name))
			return (int)i;
	return -1;
}

int need_slot(const op_row *op, const ynode *n)
{
	const char *s = scalar(n, "a slot name");
	int i = slot_index(op, s);
	if (i < 0)
		fail(n, "unknown slot '%s' in op '%s'", s, op->name);
	return i;
}

/* Keys a variant understands besides slot names; a slot may not take one of these names. */
static const char *const variant_keys[] = {"require", "sm", "ptx", "sm_max", "arch", "targets", "mc",
                                           "iid", "isd", "results", "operands", "foreach", "let", NULL};

static void read_infer(slot_row *s, const ynode *list)
{
	expect(list, YAML_SEQUENCE_NODE, "infer");
	size_t n = 0;
	SEQ_EACH(it, list) {
		ynode *v = node(*it);
		const char *src = scalar(v, "an infer source");
		int base = !strncmp(src, "result", 6) ? SRC_RESULT : !strncmp(src, "operand", 7) ? SRC_OPERAND : -1;
		const char *num = src + (base == SRC_RESULT ? 6 : 7);
		if (base < 0 || !*num || strspn(num, "0123456789") != strlen(num) || atoi(num) >= 32)
			fail(v, "infer source '%s' must be resultN or operandN", src);
		if (n == MAX_INFER)
			fail(v, "at most %d infer sources", MAX_INFER);
		s->infer[n++] = base + atoi(num);
	}
	s->infer[n] = -1;
	s->infer_at = list;
}

/* windows: [{tokens: [...], sm: 80, ptx: 7.4, sm_max: 90, arch: a}, ...] or
 * [{tokens: [...], targets: [...], ptx: 8.6}, ...]: each token in one at most.
 * sm, sm_max, arch and targets mean what they mean for a variant. */
static void read_token_windows(slot_row *s, const ynode *list)
{
	static const char *const keys[] = {"tokens", "sm", "ptx", "sm_max", "arch", "targets", NULL};
	expect(list, YAML_SEQUENCE_NODE, "windows");
	SEQ_EACH(it, list) {
		ynode *e = node(*it), *v;
		check_keys(e, "a token window", keys);
		tokwin_row *w = PUSH(s->wins, s->nwins, s->cap_wins);
		*w = (tokwin_row){0};
		v = map_need(e, "tokens", "a token window");
		w->toks = token_list(v, "tokens");
		for (size_t i = 0; i < w->toks.n; i++) {
			if (strs_find(&s->toks, w->toks.v[i]) < 0)
				fail(v, "token '%s' of a window is not in slot '%s'", w->toks.v[i], s->name);
			for (size_t j = 0; j + 1 < s->nwins; j++)
				if (strs_find(&s->wins[j].toks, w->toks.v[i]) >= 0)
					fail(v, "token '%s' has two windows in slot '%s'", w->toks.v[i], s->name);
		}
		read_window(e, &w->sm, &w->ptx);
		if ((v = map_get(e, "targets"))) {
			if (map_get(e, "sm") || map_get(e, "arch") || map_get(e, "sm_max"))
				fail(v, "targets names the targets exactly: leave out sm, sm_max and arch");
			w->targets = read_target_list(v);
			w->sm = mask_sm(w->targets);
		} else {
			unsigned sm_max = (v = map_get(e, "sm_max")) ? to_uint(v, "sm_max", 1000) : 0;
			char arch = (v = map_get(e, "arch")) ? read_arch(v) : 0;
			w->targets = window_mask(e, w->sm, sm_max, arch, 0);
		}
	}
}

/* default: {SLOT: {TOKEN: DEFAULT, ...}}: an empty slot takes DEFAULT when the
 * earlier slot SLOT holds TOKEN. */
static void read_slot_default(const op_row *op, slot_row *s, const ynode *map)
{
	expect(map, YAML_MAPPING_NODE, "default");
	if (map->data.mapping.pairs.top - map->data.mapping.pairs.start != 1)
		fail(map, "default names one slot");
	const ynode *key = node(map->data.mapping.pairs.start->key), *by = node(map->data.mapping.pairs.start->value);
	s->dflt_from = need_slot(op, key);
	if (s->dflt_from == (int)(s - op->slots))
		fail(key, "slot '%s' cannot default by its own token", s->name);
	expect(by, YAML_MAPPING_NODE, "a default's tokens");
	MAP_EACH(p, by) {
		const char *when = key_of(p), *tok = scalar(node(p->value), "a default token");
		if (strs_find(&op->slots[s->dflt_from].toks, when) < 0)
			fail(node(p->key), "token '%s' is not in slot '%s'", when, op->slots[s->dflt_from].name);
		if (strs_find(&s->toks, tok) < 0)
			fail(node(p->value), "token '%s' is not in slot '%s'", tok, s->name);
		strs_push(&s->dflt, when);
		strs_push(&s->dflt, tok);
	}
}

static void read_slots(op_row *op, const ynode *list)
{
	static const char *const keys[] = {"name", "tokens", "type", "required", "fixed", "noprint", "infer",
	                                   "windows", "default", NULL};
	expect(list, YAML_SEQUENCE_NODE, "slots");
	SEQ_EACH(it, list) {
		ynode *e = node(*it), *v;
		check_keys(e, "a slot", keys);
		if (op->nslots == MAX_SLOTS)
			fail(e, "op '%s' has more than %d slots", op->name, MAX_SLOTS);
		slot_row *s = PUSH(op->slots, op->nslots, op->cap_slots);
		*s = (slot_row){.infer = {-1}};
		v = map_need(e, "name", "a slot");
		s->name = identifier(v, "slot name");
		if (slot_index(op, s->name) != (int)op->nslots - 1 || in_list(variant_keys, s->name))
			fail(v, "slot name '%s' is taken in op '%s'", s->name, op->name);
		if ((v = map_get(e, "tokens")))
			s->toks = token_list(v, "tokens");
		if ((v = map_get(e, "fixed"))) {
			s->fixed = scalar(v, "fixed");
			s->flags |= SLOT_FIXED;
			if (strs_find(&s->toks, s->fixed) < 0)
				strs_push(&s->toks, s->fixed);
		}
		if ((v = map_get(e, "type")) && to_bool(v, "type"))
			s->flags |= SLOT_TYPE;
		if ((v = map_get(e, "required")) && to_bool(v, "required"))
			s->flags |= SLOT_REQUIRED;
		if ((v = map_get(e, "noprint")) && to_bool(v, "noprint"))
			s->flags |= SLOT_NOPRINT;
		if ((v = map_get(e, "infer")))
			read_infer(s, v);
		if (!s->toks.n)
			fail(e, "slot '%s' has no tokens", s->name);
		/* the uniformity check looks for .aligned in the slot of that name */
		if (strs_find(&s->toks, "aligned") >= 0 && strcmp(s->name, "aligned") != 0)
			fail(e, "the token 'aligned' belongs in a slot named 'aligned', not '%s'", s->name);
		if ((v = map_get(e, "windows")))
			read_token_windows(s, v);
		if ((v = map_get(e, "default")))
			read_slot_default(op, s, v);
		if (strs_find(&M.snames, s->name) < 0)
			strs_push(&M.snames, s->name);
		for (size_t i = 0; i < s->toks.n; i++)
			add_token(s->toks.v[i]);
	}
}

static void read_opnd_type(const op_row *op, opnd_row *o, const ynode *v)
{
	const char *t = scalar(v, "type");
	o->type_slot = slot_index(op, t);
	if (o->type_slot >= 0 || !strcmp(t, "any"))
		return;
	if (!(o->type = type_index(t)))
		fail(v, "unknown type or slot '%s' in op '%s'", t, op->name);
}

static void read_opnd_count(const op_row *op, opnd_row *o, const ynode *v)
{
	const char *c = scalar(v, "count");
	o->flags |= OPND_GROUP;
	if (!strcmp(c, "list"))
		o->count = 0; /* a label list of any length (brx.idx) */
	else if (*c >= '0' && *c <= '9')
		o->count = to_uint(v, "count", 255);
	else
		o->count_slot = need_slot(op, v);
}

/* coords: SLOT (an address followed by a coordinate group, [tmap, (c0, ...)],
 * one coordinate per dimension that SLOT's token names: 1d ... 5d), N (that
 * many whatever the slots hold: the five of .tile::gather4) or family (the op's
 * family checks their number and types: textures). */
static void read_opnd_coords(const op_row *op, opnd_row *o, const ynode *v)
{
	if (strcmp(o->kind, "addr"))
		fail(v, "coords belongs to an address operand, not a %s", o->kind);
	o->flags |= OPND_COORDS;
	const char *c = scalar(v, "coords");
	if (!strcmp(c, "family"))
		return;
	if (*c >= '0' && *c <= '9') {
		o->count = to_uint(v, "coords", 255);
		if (!o->count)
			fail(v, "coords: 0 takes no coordinates; leave coords out");
		return;
	}
	o->count_slot = need_slot(op, v);
	const slot_row *s = &op->slots[o->count_slot];
	for (size_t i = 0; i < s->toks.n; i++)
		if (s->toks.v[i][0] < '1' || s->toks.v[i][0] > '9')
			fail(v, "coords: slot '%s' has token '%s', which names no number of dimensions", s->name,
			     s->toks.v[i]);
}

/* sink: true (PTX takes _ for this result) or only (it takes nothing else);
 * a result's property, so an operand list rejects it. The verifier points at a
 * value written for a sink-only result as the list's only result. */
static void read_opnd_sink(opnd_row *o, const ynode *v, size_t nlist, const char *what)
{
	if (strcmp(what, "results"))
		fail(v, "sink is a property of results, not %s", what);
	const char *s = scalar(v, "sink");
	if (!strcmp(s, "only") && nlist != 1)
		fail(v, "sink: only needs a list of one result");
	if (!strcmp(s, "only"))
		o->flags |= OPND_SINK | OPND_SINK_ONLY;
	else if (!strcmp(s, "true"))
		o->flags |= OPND_SINK;
	else if (strcmp(s, "false"))
		fail(v, "sink must be true, false or only, not '%s'", s);
}

/* allowed: [1, -1] (the immediates the operand takes) or {SLOT: {TOKEN: [4, 8, 16], ...}}
 * (a set per token of SLOT; a token without one restricts nothing). */
static void read_allowed_set(opnd_row *o, const char *tok, const ynode *v)
{
	expect(v, YAML_SEQUENCE_NODE, "allowed values");
	o->allowed_n = xrealloc(o->allowed_n, (o->nallowed + 1) * sizeof *o->allowed_n);
	o->allowed_n[o->nallowed] = 0;
	strs_push(&o->allowed, tok);
	SEQ_EACH(it, v) {
		to_int(node(*it), "an allowed value");
		strs_push(&o->allowed, scalar(node(*it), "an allowed value"));
		o->allowed_n[o->nallowed]++;
	}
	if (!o->allowed_n[o->nallowed++])
		fail(v, "allowed values must not be empty");
}

static void read_allowed(const op_row *op, opnd_row *o, const ynode *v)
{
	if (v->type == YAML_SEQUENCE_NODE) {
		read_allowed_set(o, "", v);
		return;
	}
	expect(v, YAML_MAPPING_NODE, "allowed");
	if (v->data.mapping.pairs.top - v->data.mapping.pairs.start != 1)
		fail(v, "allowed names one slot");
	const ynode *by = node(v->data.mapping.pairs.start->value);
	o->allowed_slot = need_slot(op, node(v->data.mapping.pairs.start->key));
	expect(by, YAML_MAPPING_NODE, "allowed values by token");
	MAP_EACH(p, by) {
		if (strs_find(&op->slots[o->allowed_slot].toks, key_of(p)) < 0)
			fail(node(p->key), "token '%s' is not in slot '%s'", key_of(p), op->slots[o->allowed_slot].name);
		read_allowed_set(o, key_of(p), node(p->value));
	}
}

/* range: [lo, hi], multiple: N, power_of_two: true, nonzero: true: what an
 * immediate may be (checked wherever the operand is an integer literal). */
static void read_range(opnd_row *o, const ynode *e)
{
	const ynode *v;
	o->lo = INT32_MIN, o->hi = INT32_MAX, o->multiple = 1;
	if ((v = map_get(e, "range"))) {
		expect(v, YAML_SEQUENCE_NODE, "range");
		if (v->data.sequence.items.top - v->data.sequence.items.start != 2)
			fail(v, "range is [lowest, highest]");
		o->lo = to_int(node(v->data.sequence.items.start[0]), "the lowest value");
		o->hi = to_int(node(v->data.sequence.items.start[1]), "the highest value");
		if (o->lo > o->hi)
			fail(v, "range [%d, %d] is empty", (int)o->lo, (int)o->hi);
		o->ranged = true;
	}
	if ((v = map_get(e, "multiple"))) {
		o->multiple = to_int(v, "multiple");
		if (o->multiple < 2)
			fail(v, "multiple must be 2 or more");
		o->ranged = true;
	}
	if ((v = map_get(e, "power_of_two")))
		o->ranged |= o->pow2 = to_bool(v, "power_of_two");
	if ((v = map_get(e, "nonzero")))
		o->ranged |= o->nonzero = to_bool(v, "nonzero");
	bool some = false; /* the verifier's message names the nearest allowed value */
	for (int64_t x = o->lo + (((-(int64_t)o->lo) % o->multiple) + o->multiple) % o->multiple;
	     x <= o->hi && !some; x += o->multiple)
		some = (!o->pow2 || (x > 0 && !(x & (x - 1)))) && (!o->nonzero || x != 0);
	if (o->ranged && !some)
		fail(e, "range, multiple and power_of_two admit no value");
}

/* select: SLOT / negate: SLOT: a slot printed with the operand (".b1" after it,
 * '-' before it) instead of in the instruction's name, so it must be noprint;
 * only a register or value operand takes one. */
static int decoration_slot(const op_row *op, const opnd_row *o, const ynode *v, const char *key)
{
	int slot = need_slot(op, v);
	if (!(op->slots[slot].flags & SLOT_NOPRINT))
		fail(v, "%s: slot '%s' of op '%s' must be noprint: true (it prints with operand '%s')", key,
		     op->slots[slot].name, op->name, o->name);
	if (strcmp(o->kind, "value") && strcmp(o->kind, "reg"))
		fail(v, "%s: operand '%s' is of kind %s; only a value or reg operand takes one", key, o->name,
		     o->kind);
	return slot;
}

static const struct {
	const char *key;
	unsigned bit;
} opnd_flag_keys[] = {{"optional", OPND_OPTIONAL}, {"sreg", OPND_SREG}, {"pair", OPND_PAIR}, {"inout", OPND_INOUT}, {"b8reg", OPND_B8REG},
                    {"wider", OPND_WIDER}};

static void read_opnds(const op_row *op, opnd_list *out, const ynode *list, const char *what)
{
	static const char *const keys[] = {"name", "kind", "type", "derive", "count", "optional", "sreg", "pair",
	                                   "inout", "b8reg", "wider", "sink", "allowed", "range", "multiple",
	                                   "power_of_two", "nonzero", "select", "negate", "coords", NULL};
	static const char *const derives[] = {"wide", "half", NULL};
	expect(list, YAML_SEQUENCE_NODE, what);
	out->given = true;
	opnd_items items = operand_items(list);
	for (size_t k = 0; k < items.n; k++) {
		ynode *e = items.v[k], *v;
		check_keys(e, "an operand", keys);
		if (out->n == MAX_OPNDS)
			fail(e, "more than %d %s", MAX_OPNDS, what);
		opnd_row *o = PUSH(out->v, out->n, out->cap);
		*o = (opnd_row){.kind = "value", .type_slot = -1, .count_slot = -1, .space_slot = -1, .allowed_slot = -1,
		                .select_slot = -1, .negate_slot = -1};
		o->name = scalar(map_need(e, "name", "an operand"), "name");
		if ((v = map_get(e, "kind")) && !in_list(opnd_kinds, o->kind = scalar(v, "kind")))
			fail(v, "unknown operand kind '%s'", o->kind);
		if ((v = map_get(e, "type")))
			read_opnd_type(op, o, v);
		else if (!strcmp(o->kind, "pred"))
			o->type = type_index("pred");
		if ((v = map_get(e, "derive"))) {
			if (!in_list(derives, o->derive = scalar(v, "derive")))
				fail(v, "derive must be wide or half, not '%s'", o->derive);
			if (o->type_slot < 0)
				fail(v, "derive needs a type taken from a slot");
		}
		if ((v = map_get(e, "count")))
			read_opnd_count(op, o, v);
		if ((v = map_get(e, "sink")))
			read_opnd_sink(o, v, items.n, what);
		if ((v = map_get(e, "coords")))
			read_opnd_coords(op, o, v);
		if ((v = map_get(e, "allowed")))
			read_allowed(op, o, v);
		read_range(o, e);
		if ((v = map_get(e, "select")))
			o->select_slot = decoration_slot(op, o, v, "select");
		if ((v = map_get(e, "negate")))
			o->negate_slot = decoration_slot(op, o, v, "negate");
		for (size_t f = 0; f < sizeof opnd_flag_keys / sizeof opnd_flag_keys[0]; f++)
			if ((v = map_get(e, opnd_flag_keys[f].key)) && to_bool(v, opnd_flag_keys[f].key))
				o->flags |= opnd_flag_keys[f].bit;
	}
	free(items.v);
}

/* Expand one token pattern: each [x-y] stands for every character from x to y. */
enum { PATTERN_MAX = 4096 };
static void expand_pattern(strs *out, const ynode *at, const char *pat, const char *s, size_t done)
{
	const char *open = strchr(s + done, '[');
	if (!open) {
		strs_push(out, xstrdup(s));
		return;
	}
	size_t i = (size_t)(open - s);
	if (!s[i + 1] || s[i + 2] != '-' || !s[i + 3] || s[i + 4] != ']' || s[i + 1] > s[i + 3])
		fail(at, "token pattern '%s': write a class as [x-y] with x at most y", pat);
	for (char c = s[i + 1]; c <= s[i + 3]; c++) {
		sbuf b = {0};
		sb_printf(&b, "%.*s%c%s", (int)i, s, c, s + i + 5);
		expand_pattern(out, at, pat, b.p, i + 1);
		free(b.p);
	}
}

strs token_list(const ynode *v, const char *what)
{
	strs in = scalar_list(v, what), out = {0};
	for (size_t i = 0; i < in.n; i++) {
		if (strchr(in.v[i], ']') && !strchr(in.v[i], '['))
			fail(v, "token pattern '%s': ']' without '['", in.v[i]);
		size_t before = out.n;
		expand_pattern(&out, v, in.v[i], in.v[i], 0);
		if (out.n - before > PATTERN_MAX)
			fail(v, "token pattern '%s' makes %zu tokens, more than %d", in.v[i], out.n - before,
			     PATTERN_MAX);
	}
	free(in.v);
	return out;
}

strs *variant_tokens(const op_row *op, int slot, const ynode *v)
{
	strs *list = xrealloc(NULL, sizeof *list);
	*list = token_list(v, "a variant's tokens");
	const slot_row *s = &op->slots[slot];
	for (size_t i = 0; i < list->n; i++)
		if (strs_find(&s->toks, list->v[i]) < 0)
			fail(v, "token '%s' is not in slot '%s' of op '%s'", list->v[i], s->name, op->name);
	return list;
}

static void read_variant_window(variant_row *var, const ynode *map)
{
	const ynode *v;
	if (map_get(map, "sm") || map_get(map, "ptx")) {
		unsigned sm = var->sm, ptx = var->ptx;
		read_window(map, &sm, &ptx);
		var->sm = map_get(map, "sm") ? sm : var->sm;
		var->ptx = map_get(map, "ptx") ? ptx : var->ptx;
	}
	if ((v = map_get(map, "targets"))) {
		if (map_get(map, "sm") || map_get(map, "arch") || map_get(map, "sm_max"))
			fail(v, "targets names the targets exactly: leave out sm, sm_max and arch");
		var->list = read_target_list(v);
		var->sm = mask_sm(var->list);
		var->arch = 0;
		var->sm_max = 0;
	} else if (map_get(map, "sm") || map_get(map, "arch") || map_get(map, "sm_max")) {
		var->list = 0;
	}
	if ((v = map_get(map, "sm_max")))
		var->sm_max = to_uint(v, "sm_max", 1000);
	if ((v = map_get(map, "arch")))
		var->arch = read_arch(v);
	var->targets = window_mask(map, var->sm, var->sm_max, var->arch, var->list);
	if ((v = map_get(map, "mc")))
		var->mc = identifier(v, "mc");
	if ((v = map_get(map, "iid")) && v->type == YAML_MAPPING_NODE)
		var->iid_formula = v;
	else if (v)
		var->iid = to_int(v, "iid"), var->iid_formula = NULL;
	if ((v = map_get(map, "isd")))
		var->isd = to_int(v, "isd");
}

/* A variant: slot names map to the tokens allowed; a slot not named stays empty. */
void read_variant(op_row *op, variant_row *var, const ynode *e, const variant_row *dflt)
{
	const ynode *v;
	expect(e, YAML_MAPPING_NODE, "a variant");
	*var = *dflt;
	MAP_EACH(p, e) {
		const char *k = key_of(p);
		int slot = slot_index(op, k);
		for (yaml_node_pair_t *q = e->data.mapping.pairs.start; q < p; q++)
			if (!strcmp(key_of(q), k))
				fail(node(p->key), "duplicate key '%s' in a variant", k);
		if (slot >= 0)
			var->allow[slot] = variant_tokens(op, slot, node(p->value));
		else if (!in_list(variant_keys, k) && strcmp(k, "note"))
			fail(node(p->key), "unknown slot '%s' in a variant of op '%s'", k, op->name);
	}
	read_variant_window(var, e);
	if (var->iid_formula)
		var->iid = iid_formula(var->iid_formula);
	if ((v = map_get(e, "require"))) {
		expect(v, YAML_SEQUENCE_NODE, "require");
		SEQ_EACH(it, v)
			var->require |= 1u << need_slot(op, node(*it));
	}
	if ((v = map_get(e, "results")))
		read_opnds(op, &var->results, v, "results");
	if ((v = map_get(e, "operands")))
		read_opnds(op, &var->operands, v, "operands");
}

/* Without a variants list an op has one variant admitting every token of every slot. */
static void default_variant(op_row *op, const variant_row *dflt)
{
	variant_row *var = PUSH(op->variants, op->nvariants, op->cap_variants);
	*var = *dflt;
	for (size_t i = 0; i < op->nslots; i++)
		var->allow[i] = &op->slots[i].toks;
	if (var->iid_formula)
		var->iid = iid_formula(var->iid_formula);
}

static void read_props(op_row *op, const ynode *map)
{
	static const char *const keys[] = {"slot", "values", NULL};
	expect(map, YAML_MAPPING_NODE, "props");
	MAP_EACH(p, map) {
		ynode *e = node(p->value), *v;
		check_keys(e, "a property", keys);
		const char *key = identifier(node(p->key), "property key");
		for (size_t j = 0; j < op->nprops; j++)
			if (!strcmp(op->props[j].key, key))
				fail(node(p->key), "duplicate property '%s' in op '%s'", key, op->name);
		prop_row *pr = PUSH(op->props, op->nprops, op->cap_props);
		*pr = (prop_row){.key = key};
		pr->slot = need_slot(op, map_need(e, "slot", "a property"));
		if (!(v = map_get(e, "values")))
			continue;
		expect(v, YAML_MAPPING_NODE, "values");
		MAP_EACH(q, v) {
			const char *tok = scalar(node(q->value), "a property value's token");
			strs_push(&pr->from, key_of(q));
			strs_push(&pr->from, tok);
			if (*tok) /* "": the value leaves the slot empty (NVVM's 0 flag) */
				add_token(tok);
		}
	}
}

size_t diag_index(const ynode *n)
{
	const char *id = scalar(n, "diag");
	for (size_t i = 0; i < M.ndiags; i++)
		if (!strcmp(M.diags[i].id, id))
			return i;
	fail(n, "unknown diagnostic '%s'", id);
}

static void read_rule(op_row *op, rule_row *r, const ynode *e)
{
	static const char *const keys[] = {"when", "sm_below", "ptx_below", "sm_from", "not_arch", "gpu", "diag",
	                                   "args", NULL};
	const ynode *v;
	expect(e, YAML_MAPPING_NODE, "a rule");
	check_keys(e, "a rule", keys);
	{
		*r = (rule_row){.args = {RARG_END, RARG_END, RARG_END, RARG_END}};
		if ((v = map_get(e, "when"))) {
			expect(v, YAML_MAPPING_NODE, "when");
			MAP_EACH(p, v) {
				int slot = slot_index(op, key_of(p));
				if (slot < 0)
					fail(node(p->key), "unknown slot '%s' in a rule of op '%s'", key_of(p), op->name);
				r->when[slot] = variant_tokens(op, slot, node(p->value));
			}
		}
		if ((v = map_get(e, "sm_below")))
			r->sm_below = to_uint(v, "sm_below", 1000);
		if ((v = map_get(e, "sm_from")))
			r->sm_from = to_uint(v, "sm_from", 1000);
		if ((v = map_get(e, "ptx_below")))
			r->ptx_below = to_ptx(v);
		if ((v = map_get(e, "not_arch"))) {
			const char *a = scalar(v, "not_arch");
			if (strcmp(a, "a") && strcmp(a, "f"))
				fail(v, "not_arch must be a or f, not '%s'", a);
			r->not_arch = a[0];
		}
		if ((v = map_get(e, "gpu")))
			r->gpu = to_bool(v, "gpu");
		r->diag = diag_index(map_need(e, "diag", "a rule"));
		if ((v = map_get(e, "args"))) {
			expect(v, YAML_SEQUENCE_NODE, "args");
			size_t k = 0;
			SEQ_EACH(a, v) {
				const char *name = scalar(node(*a), "a rule argument");
				if (k == 4)
					fail(node(*a), "a rule takes at most 4 arguments");
				r->args[k] = !strcmp(name, "op") ? RARG_OP : !strcmp(name, "target") ? RARG_TARGET
				                                                                        : need_slot(op, node(*a));
				k++;
			}
		}
	}
}

static void read_rules(op_row *op, const ynode *list)
{
	expect(list, YAML_SEQUENCE_NODE, "rules");
	SEQ_EACH(it, list)
		read_rule(op, PUSH(op->rules, op->nrules, op->cap_rules), node(*it));
}

/* A flag's YAML spelling is its C name in lower case. */
static bool flag_spelled(const char *yaml, const char *name)
{
	for (; *name; yaml++, name++)
		if (*yaml != tolower((unsigned char)*name))
			return false;
	return !*yaml;
}

static uint64_t read_op_flags(const ynode *v)
{
	uint64_t flags = 0;
	expect(v, YAML_SEQUENCE_NODE, "flags");
	SEQ_EACH(it, v) {
		const char *f = scalar(node(*it), "a flag");
		unsigned bit = 0;
		while (bit < OPF_NFLAGS && !flag_spelled(f, op_flags[bit].name))
			bit++;
		if (bit == OPF_NFLAGS)
			fail(node(*it), "unknown op flag '%s'", f);
		flags |= (uint64_t)1 << bit;
	}
	return flags;
}

static const char *one_of(const ynode *map, const char *key, const char *const *allowed, const char *dflt)
{
	const ynode *v = map_get(map, key);
	if (!v)
		return dflt;
	const char *s = scalar(v, key);
	if (!in_list(allowed, s))
		fail(v, "unknown %s '%s'", key, s);
	return s;
}

/* The default MC stem: the op's stem upper-cased with '.' as '_'. */
static const char *default_mc(const char *stem)
{
	char *mc = sanitize(stem);
	for (char *c = mc; *c; c++)
		if (*c >= 'a' && *c <= 'z')
			*c = (char)(*c - 'a' + 'A');
	return mc;
}

/* Infer sources must name a result or operand that exists in some variant. */
static void check_infer(const op_row *op)
{
	size_t nres = op->results.n, nopd = op->operands.n;
	for (size_t i = 0; i < op->nvariants; i++) {
		nres = op->variants[i].results.n > nres ? op->variants[i].results.n : nres;
		nopd = op->variants[i].operands.n > nopd ? op->variants[i].operands.n : nopd;
	}
	for (size_t i = 0; i < op->nslots; i++)
		for (const int *src = op->slots[i].infer; *src >= 0; src++)
			if (*src >= SRC_OPERAND ? (size_t)(*src - SRC_OPERAND) >= nopd : (size_t)*src >= nres)
				fail(op->slots[i].infer_at, "infer source %s%d does not exist in op '%s'",
				     *src >= SRC_OPERAND ? "operand" : "result",
				     *src >= SRC_OPERAND ? *src - SRC_OPERAND : *src, op->name);
}

/* An address operand's state space: the `spaces:` entry naming it (a slot of
 * the op, whose token gives the space, or a space), else the op's `space`
 * slot, else generic. A value or symbol operand named there holds an address
 * in that space (mapa's source); any other such operand holds none. Every
 * entry must name an address, value or symbol operand. */
static void resolve_list(const op_row *op, opnd_list *l, bool *named)
{
	for (size_t i = 0; i < l->n; i++) {
		opnd_row *o = &l->v[i];
		bool addr = !strcmp(o->kind, "addr");
		if (!addr && strcmp(o->kind, "value") && strcmp(o->kind, "sym"))
			continue;
		const ynode *v = NULL;
		if (op->spaces)
			MAP_EACH(kv, op->spaces) {
				if (!strcmp(scalar(node(kv->key), "an operand name"), o->name)) {
					v = node(kv->value);
					named[kv - op->spaces->data.mapping.pairs.start] = true;
				}
			}
		if (!addr && !v) {
			o->space = space_none;
			continue;
		}
		const char *sp = v ? scalar(v, "a space") : slot_index(op, "space") >= 0 ? "space" : "generic";
		o->space_slot = slot_index(op, sp);
		if (o->space_slot >= 0)
			continue;
		if (!strcmp(sp, "shared::cta"))
			sp = "shared";
		unsigned k = 0;
		while (space_names[k] && strcmp(space_names[k], sp))
			k++;
		if (!space_names[k])
			fail(v, "'%s' is neither a slot of op '%s' nor a state space", sp, op->name);
		o->space = k;
	}
}

static void resolve_spaces(op_row *op)
{
	bool named[64] = {0};
	if (op->spaces) {
		expect(op->spaces, YAML_MAPPING_NODE, "spaces");
		if (op->spaces->data.mapping.pairs.top - op->spaces->data.mapping.pairs.start > 64)
			fail(op->spaces, "more than 64 spaces");
	}
	resolve_list(op, &op->operands, named);
	for (size_t j = 0; j < op->nvariants; j++)
		resolve_list(op, &op->variants[j].operands, named);
	if (op->spaces)
		MAP_EACH(kv, op->spaces) {
			if (!named[kv - op->spaces->data.mapping.pairs.start])
				fail(node(kv->key), "'%s' is no address, value or symbol operand of op '%s'",
				     scalar(node(kv->key), "an operand name"), op->name);
		}
}

/* What an address operand's address must be a multiple of (`aligns:`): a
 * power of two of bytes, `access` (the bytes the op reads or writes there:
 * its type times its vector width, so the op needs a type slot) or the name
 * of an immediate operand of the same list, whose literal gives the bytes
 * (cp.async's copy size). Every entry must name an address operand. */
static void align_list(const op_row *op, opnd_list *l, bool *named)
{
	for (size_t i = 0; i < l->n; i++) {
		opnd_row *o = &l->v[i];
		MAP_EACH(kv, op->aligns) {
			if (strcmp(scalar(node(kv->key), "an operand name"), o->name))
				continue;
			if (strcmp(o->kind, "addr"))
				fail(node(kv->key), "'%s' of op '%s' is no address operand", o->name, op->name);
			named[kv - op->aligns->data.mapping.pairs.start] = true;
			const ynode *v = node(kv->value);
			const char *by = scalar(v, "an alignment");
			if (!strcmp(by, "access")) {
				if (slot_index(op, "type") < 0)
					fail(v, "op '%s' has no type slot to size its access", op->name);
				o->align_by = "access";
			} else if (*by >= '0' && *by <= '9') {
				o->align = to_uint(v, "an alignment", 32768);
				if (!o->align || (o->align & (o->align - 1)))
					fail(v, "an alignment is a power of two, not %u", o->align);
				o->align_by = "bytes";
			} else {
				size_t j = 0;
				while (j < l->n && strcmp(l->v[j].name, by))
					j++;
				if (j == l->n || strcmp(l->v[j].kind, "imm"))
					fail(v, "'%s' is neither access, a number nor an immediate operand beside '%s' in op '%s'",
					     by, o->name, op->name);
				o->align_by = "operand";
				o->align = (unsigned)j;
			}
		}
	}
}

static void resolve_aligns(op_row *op)
{
	bool named[64] = {0};
	if (!op->aligns)
		return;
	expect(op->aligns, YAML_MAPPING_NODE, "aligns");
	if (op->aligns->data.mapping.pairs.top - op->aligns->data.mapping.pairs.start > 64)
		fail(op->aligns, "more than 64 alignments");
	align_list(op, &op->operands, named);
	for (size_t j = 0; j < op->nvariants; j++)
		align_list(op, &op->variants[j].operands, named);
	MAP_EACH(kv, op->aligns) {
		if (!named[kv - op->aligns->data.mapping.pairs.start])
			fail(node(kv->key), "'%s' is no operand of op '%s'", scalar(node(kv->key), "an operand name"),
			     op->name);
	}
}

/* The tokens of list that lie in window w (w NULL: in none of the slot's). */
static strs *window_part(const slot_row *s, const strs *list, const tokwin_row *w)
{
	strs *part = xrealloc(NULL, sizeof *part);
	*part = (strs){0};
	for (size_t i = 0; i < list->n; i++) {
		int in = -1;
		for (size_t j = 0; j < s->nwins && in < 0; j++)
			if (strs_find(&s->wins[j].toks, list->v[i]) >= 0)
				in = (int)j;
		if (w ? in == (int)(w - s->wins) : in < 0)
			strs_push(part, list->v[i]);
	}
	return part;
}

/* Split every variant that admits tokens with windows of their own: one row for
 * the slot empty or holding unwindowed tokens, with the variant's window, then
 * one row per token window, the slot required there, with the later PTX version
 * of the two and the targets both have. The rows admit disjoint token sets, so
 * their order does not change which one a node selects. */
static void split_token_windows(op_row *op, const ynode *at)
{
	for (size_t si = 0; si < op->nslots; si++) {
		const slot_row *s = &op->slots[si];
		if (!s->nwins)
			continue;
		variant_row *out = NULL;
		size_t nout = 0, cap = 0;
		for (size_t vi = 0; vi < op->nvariants; vi++) {
			const variant_row *var = &op->variants[vi];
			if (!var->allow[si]) {
				*PUSH(out, nout, cap) = *var;
				continue;
			}
			strs *plain = window_part(s, var->allow[si], NULL);
			if (plain->n || !((var->require >> si) & 1)) {
				variant_row *r = PUSH(out, nout, cap);
				*r = *var;
				r->allow[si] = plain->n ? plain : NULL;
			}
			if (!plain->n)
				strs_free(plain);
			for (size_t wi = 0; wi < s->nwins; wi++) {
				const tokwin_row *w = &s->wins[wi];
				strs *part = window_part(s, var->allow[si], w);
				if (!part->n) {
					strs_free(part);
					continue;
				}
				variant_row *r = PUSH(out, nout, cap);
				*r = *var;
				r->allow[si] = part;
				r->require |= 1u << si;
				r->ptx = w->ptx > r->ptx ? w->ptx : r->ptx;
				r->targets &= w->targets;
				if (!r->targets)
					fail(at, "op '%s': a token window of slot '%s' shares no target with a variant",
					     op->name, s->name);
				r->sm = mask_sm(r->targets);
			}
		}
		if (nout > 65535)
			fail(at, "op '%s' has more than 65535 variants after its token windows", op->name);
		/* The split rows hold copies of everything but this slot's lists, which
		 * an earlier split may have left shared between rows: free each once. */
		for (size_t vi = 0; vi < op->nvariants; vi++) {
			strs *l = op->variants[vi].allow[si];
			size_t seen = 0;
			while (seen < vi && op->variants[seen].allow[si] != l)
				seen++;
			if (l && l != &op->slots[si].toks && seen == vi)
				strs_free(l);
		}
		free(op->variants);
		op->variants = out;
		op->nvariants = nout;
		op->cap_variants = cap;
	}
}

static void read_op(const ynode *e)
{
	static const char *const keys[] = {"op", "layer", "shape", "flags", "slots", "props", "results", "operands",
	                                   "mc", "variants", "rules", "otherwise", "family", "sm", "ptx", "sm_max",
	                                   "arch", "targets", "iid", "isd", "spaces", "aligns", "lists", "operand_sets", NULL};
	const ynode *v;
	check_keys(e, "an op", keys);
	foreach_begin_op(e);
	op_row *op = PUSH(M.ops, M.nops, M.cap_ops);
	*op = (op_row){0};
	v = map_need(e, "op", "an op");
	op->name = scalar(v, "op");
	for (size_t j = 0; j + 1 < M.nops; j++)
		if (!strcmp(M.ops[j].name, op->name))
			fail(v, "duplicate op '%s'", op->name);
	op->layer = one_of(e, "layer", layer_names, "match");
	op->shape = one_of(e, "shape", shape_names, "plain");
	op->flags = (v = map_get(e, "flags")) ? read_op_flags(v) : 0;
	op->mc = (v = map_get(e, "mc")) ? identifier(v, "mc") : default_mc(op->name);
	if (op->flags & ((uint64_t)1 << OPF_I_ALIGNED_SLOT))
		fail(map_get(e, "flags"), "op flag 'aligned_slot' is pxgen's, from the slots");
	if ((v = map_get(e, "slots")))
		read_slots(op, v);
	for (size_t i = 0; i < op->nslots; i++)
		if (!strcmp(op->slots[i].name, "aligned"))
			op->flags |= (uint64_t)1 << OPF_I_ALIGNED_SLOT;
	if ((v = map_get(e, "results")))
		read_opnds(op, &op->results, v, "results");
	if ((v = map_get(e, "operands")))
		read_opnds(op, &op->operands, v, "operands");
	if ((v = map_get(e, "props")))
		read_props(op, v);
	if ((v = map_get(e, "rules")))
		read_rules(op, v);
	if ((v = map_get(e, "otherwise"))) {
		op->otherwise = xrealloc(NULL, sizeof *op->otherwise);
		read_rule(op, op->otherwise, v);
	}
	if ((v = map_get(e, "family"))) {
		const char *fam = identifier(v, "family");
		int at = strs_find(&M.families, fam);
		if (at < 0)
			fail(v, "unknown family '%s' (families.yaml declares each)", fam);
		op->family = (size_t)at + 1;
	}

	variant_row dflt = {.sm = DEFAULT_SM, .ptx = default_ptx(), .mc = op->mc, .iid = -1};
	read_variant_window(&dflt, e);
	if (!(v = map_get(e, "variants"))) {
		default_variant(op, &dflt);
	} else {
		read_variants(op, v, &dflt);
		if (!op->nvariants)
			fail(v, "op '%s' has an empty variants list", op->name);
	}
	split_token_windows(op, e);
	/* A required slot is required in every variant; folding it into each
	 * variant's mask gives the verifier one place to look. */
	for (size_t i = 0; i < op->nslots; i++)
		if (op->slots[i].flags & SLOT_REQUIRED)
			for (size_t j = 0; j < op->nvariants; j++)
				op->variants[j].require |= 1u << i;
	check_infer(op);
	if (op->family)
		check_family(op, map_get(e, "family"));
	op->spaces = map_get(e, "spaces");
	resolve_spaces(op);
	op->aligns = map_get(e, "aligns");
	resolve_aligns(op);
}

void read_ops(void)
{
	ynode *root = root_list("an operations file");
	if (!root)
		return;
	SEQ_EACH(it, root)
		read_op(node(*it));
}
