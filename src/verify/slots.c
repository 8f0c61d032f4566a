/* From a dotted name to an operation and its slots: the stem is the longest
 * dotted prefix naming an operation; every other token fills the first empty
 * slot that can hold it, so tokens may come in any order while tokens of one
 * class (cvt's two types) keep PTX's relative order. Property dictionaries fill
 * the same slots by name. */
#include <stdlib.h>
#include <string.h>

#include "diag/suggest.h"
#include "verify/desc.h"
#include "verify/verify.h"

static px_loc loc_at(px_loc base, uint32_t off)
{
	if (px_loc_known(base))
		base.pos += off;
	return base;
}

static bool slot_holds(const px_slot_def *s, unsigned tok)
{
	return px_slot_has(s, tok) || ((s->flags & PX_SLOT_FIXED) && s->fixed_tok == tok);
}

static bool op_holds(const px_op_def *op, unsigned tok)
{
	for (unsigned i = 0; i < op->nslots; i++)
		if (slot_holds(&op->slots[i], tok))
			return true;
	return false;
}

static const char *op_name(const px_node *n) { return n->op->name; }

/* Put tok into the first empty slot that holds it. */
static bool fill(px_verifier *v, px_node *n, unsigned tok, px_loc loc)
{
	const px_op_def *op = n->op;
	int first = -1, empty = -1;
	for (unsigned i = 0; i < op->nslots; i++) {
		if (!slot_holds(&op->slots[i], tok))
			continue;
		if (first < 0)
			first = (int)i;
		if (!n->slot[i] && empty < 0)
			empty = (int)i;
	}
	if (empty >= 0) {
		px_slots_edit(v, n)[empty] = (uint16_t)tok;
		return true;
	}
	if (n->slot[first] == tok)
		px_error(v->d, loc, PX_D_repeated_modifier, px_tok_names[tok]);
	else
		px_error(v->d, loc, PX_D_slot_conflict, px_tok_names[n->slot[first]], px_tok_names[tok],
		         op->slots[first].name, op_name(n));
	return false;
}

/* Split "ld.global.v4" after the stem into tokens; a token may span dots
 * (".and.popc", ".b8x16.b6x16_p32"), so the longest known join wins. */
static bool fill_dotted(px_verifier *v, px_node *n, uint32_t start)
{
	const char *s = n->opname.s;
	uint32_t len = n->opname.n, i = start;
	bool ok = true;
	while (i < len) {
		if (s[i] != '.') /* the scanner only makes dotted words; be defensive */
			return false;
		i++;
		uint32_t best = 0, j = i;
		unsigned best_tok = 0;
		while (j <= len) {
			while (j < len && s[j] != '.')
				j++;
			unsigned t = px_tok_lookup(s + i, j - i);
			if (t && op_holds(n->op, t)) {
				best = j;
				best_tok = t;
			}
			if (j == len)
				break;
			j++;
		}
		if (!best_tok) {
			uint32_t e = i;
			while (e < len && s[e] != '.')
				e++;
			px_suggest sg;
			px_suggest_init(&sg, s + i, e - i);
			for (unsigned t = 1; t < px_ntoks; t++)
				if (op_holds(n->op, t))
					px_suggest_offer_str(&sg, px_tok_names[t]);
			if (sg.best)
				px_error(v->d, loc_at(n->oploc, i - 1), PX_D_unknown_modifier_hint, (int)(e - i),
				         s + i, op_name(n), (int)sg.best_n, sg.best);
			else
				px_error(v->d, loc_at(n->oploc, i - 1), PX_D_unknown_modifier, (int)(e - i), s + i,
				         op_name(n));
			ok = false;
			i = e;
			continue;
		}
		if (!fill(v, n, best_tok, loc_at(n->oploc, i - 1)))
			ok = false;
		i = best;
	}
	return ok;
}

static const px_flag_def *node_flag(px_str key)
{
	for (unsigned i = 0; i < px_nnode_flags; i++)
		if (strlen(px_node_flags[i].name) == key.n && !memcmp(px_node_flags[i].name, key.s, key.n))
			return &px_node_flags[i];
	return NULL;
}

static bool str_is(px_str s, const char *z) { return strlen(z) == s.n && !memcmp(s.s, z, s.n); }

/* {align = 16}: a power of two from 1 to 2^(2^bits - 1), kept as its log2 in
 * the flag's field; it states a fact of the statement's one result. */
static bool valued_flag(px_verifier *v, px_node *n, const px_prop *p, const px_flag_def *fl)
{
	unsigned max = (1u << fl->bits) - 1;
	uint64_t x = 0;
	bool digits = p->val.n > 0 && p->val.n <= 19;
	for (uint32_t i = 0; digits && i < p->val.n; i++) {
		digits = p->val.s[i] >= '0' && p->val.s[i] <= '9';
		x = x * 10 + (uint64_t)(p->val.s[i] - '0');
	}
	unsigned lg = 0;
	while (lg < 63 && (1ull << lg) < x)
		lg++;
	if (!digits || !x || (1ull << lg) != x || lg > max) {
		px_error(v->d, p->val.n ? p->val_loc : p->loc, PX_D_flag_pow2, (int)p->key.n, p->key.s,
		         (unsigned long long)(1ull << max));
		return false;
	}
	if (n->nres != 1) {
		px_error(v->d, p->loc, PX_D_flag_one_result, (int)p->key.n, p->key.s, op_name(n));
		return false;
	}
	n->flags |= (uint32_t)lg << fl->shift;
	return true;
}

/* A property's slot and value mapping: the op's named properties first, then
 * the slot names themselves. */
static int prop_slot(const px_op_def *op, px_str key, const char *const **from)
{
	*from = NULL;
	for (const px_prop_def *p = op->props; p && p->key; p++)
		if (str_is(key, p->key)) {
			*from = p->from;
			return p->slot;
		}
	for (unsigned i = 0; i < op->nslots; i++)
		if (str_is(key, op->slots[i].name))
			return (int)i;
	return -1;
}

static unsigned prop_token(const px_slot_def *s, const char *const *from, px_str val)
{
	/* a bare key, or a layout literal (its family reads the text): the slot's only token */
	if (!val.n || val.s[0] == '(') {
		const uint16_t *t = s->toks;
		if (s->flags & PX_SLOT_FIXED)
			return s->fixed_tok;
		return t && t[0] && !t[1] ? t[0] : 0;
	}
	if (from) {
		for (; from[0]; from += 2)
			if (str_is(val, from[0]))
				return px_tok_lookup(from[1], strlen(from[1]));
	}
	unsigned tok = px_tok_lookup(val.s, val.n);
	return tok && slot_holds(s, tok) ? tok : 0;
}

/* A value the table maps to "" (NVVM's 0 for a flag it leaves off) fills nothing. */
static bool prop_leaves_empty(const char *const *from, px_str val)
{
	for (; from && val.n && from[0]; from += 2)
		if (str_is(val, from[0]))
			return !from[1][0];
	return false;
}

static bool apply_props(px_verifier *v, px_node *n)
{
	bool ok = true;
	for (uint32_t i = 0; i < n->nprops; i++) {
		const px_prop *p = &n->props[i];
		const px_flag_def *fl = node_flag(p->key);
		if (fl && fl->bits > 1) {
			ok = valued_flag(v, n, p, fl) && ok;
			continue;
		}
		if (fl) {
			if (p->val.n) {
				px_error(v->d, p->val_loc, PX_D_flag_value, (int)p->key.n, p->key.s);
				ok = false;
			}
			n->flags |= fl->bit;
			continue;
		}
		if (px_desc_is_field(n, p->key)) /* the family reads it (verify/desc.c) */
			continue;
		const char *const *from;
		int si = prop_slot(n->op, p->key, &from);
		if (si < 0) {
			px_suggest sg;
			px_suggest_init(&sg, p->key.s, p->key.n);
			for (const px_prop_def *pd = n->op->props; pd && pd->key; pd++)
				px_suggest_offer_str(&sg, pd->key);
			for (unsigned k = 0; k < n->op->nslots; k++)
				px_suggest_offer_str(&sg, n->op->slots[k].name);
			for (unsigned k = 0; k < px_nnode_flags; k++)
				px_suggest_offer_str(&sg, px_node_flags[k].name);
			if (sg.best)
				px_error(v->d, p->loc, PX_D_unknown_property_hint, (int)p->key.n, p->key.s,
				         op_name(n), (int)sg.best_n, sg.best);
			else
				px_error(v->d, p->loc, PX_D_unknown_property, (int)p->key.n, p->key.s, op_name(n));
			ok = false;
			continue;
		}
		if (prop_leaves_empty(from, p->val))
			continue;
		unsigned tok = prop_token(&n->op->slots[si], from, p->val);
		if (!tok) {
			px_suggest sg;
			px_suggest_init(&sg, p->val.s, p->val.n);
			for (const char *const *f = from; f && f[0]; f += 2)
				px_suggest_offer_str(&sg, f[0]);
			for (const uint16_t *t = n->op->slots[si].toks; !from && t && *t; t++)
				px_suggest_offer_str(&sg, px_tok_names[*t]);
			if (p->val.n && sg.best)
				px_error(v->d, p->val_loc, PX_D_property_value_hint, (int)p->val.n, p->val.s,
				         (int)p->key.n, p->key.s, op_name(n), (int)sg.best_n, sg.best);
			else if (p->val.n)
				px_error(v->d, p->val_loc, PX_D_property_value, (int)p->val.n, p->val.s,
				         (int)p->key.n, p->key.s, op_name(n));
			else
				px_error(v->d, p->loc, PX_D_property_needs_value, (int)p->key.n, p->key.s,
				         op_name(n));
			ok = false;
			continue;
		}
		if (n->slot[si] && n->slot[si] != tok) {
			px_error(v->d, p->loc, PX_D_slot_conflict, px_tok_names[n->slot[si]],
			         px_tok_names[tok], n->op->slots[si].name, op_name(n));
			ok = false;
			continue;
		}
		px_slots_edit(v, n)[si] = (uint16_t)tok;
	}
	return ok;
}

/* A name's operation and the slots its dotted tokens fill. */
struct px_resolved {
	const px_op_def *op;
	uint16_t slot[PX_MAX_SLOTS];
};

/* n's name resolved with no error: the next statement of that name copies it
 * (the text lives as long as the translation, so it is the key). */
static void remember(px_verifier *v, const px_node *n)
{
	if (v->nresolved == v->resolved_cap) {
		v->resolved_cap = v->resolved_cap ? 2 * v->resolved_cap : 64;
		v->resolved_rows = realloc(v->resolved_rows, v->resolved_cap * sizeof *v->resolved_rows);
		if (!v->resolved_rows)
			abort();
	}
	struct px_resolved *r = &v->resolved_rows[v->nresolved];
	r->op = n->op;
	memcpy(r->slot, n->slot, sizeof r->slot);
	px_strmap_put(&v->resolved, n->opname.s, n->opname.n, v->nresolved++);
}

bool px_resolve_op(px_verifier *v, px_node *n)
{
	const char *s = n->opname.s;
	uint32_t len = n->opname.n;
	uint32_t known = px_strmap_get(&v->resolved, s, len);
	if (known != PX_STRMAP_NONE) {
		n->op = v->resolved_rows[known].op;
		memcpy(px_slots_edit(v, n), v->resolved_rows[known].slot, sizeof v->work);
		return apply_props(v, n);
	}
	/* longest dotted prefix that names an operation MIR may write */
	for (uint32_t end = len;;) {
		const px_op_def *op = px_op_lookup(s, end);
		if (op && !(op->flags & PX_OPF_INTERNAL)) {
			n->op = op;
			memset(px_slots_edit(v, n), 0, sizeof v->work);
			bool ok = fill_dotted(v, n, end);
			if (ok)
				remember(v, n);
			return apply_props(v, n) && ok;
		}
		while (end > 0 && s[end - 1] != '.')
			end--;
		if (end == 0)
			break;
		end--;
	}
	uint32_t stem = 0;
	while (stem < len && s[stem] != '.')
		stem++;
	px_suggest sg;
	px_suggest_init(&sg, s, stem);
	for (unsigned i = 0; i < px_nops; i++)
		if (!(px_ops[i].flags & PX_OPF_INTERNAL))
			px_suggest_offer_str(&sg, px_ops[i].name);
	if (sg.best)
		px_error(v->d, n->oploc, PX_D_unknown_op_hint, (int)stem, s, (int)sg.best_n, sg.best);
	else
		px_error(v->d, n->oploc, PX_D_unknown_op, (int)stem, s);
	return false;
}
