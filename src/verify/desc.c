/* tcgen05.idesc: each property is a field of data/desc.yaml; a number is
 * checked against the shapes the table lists, a name against the codes its
 * kind has, and every field is packed at its bits. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verify/align.h"
#include "verify/desc.h"
#include "verify/analysis/known.h"
#include "verify/analysis/value.h"
#include "verify/verify.h"

static bool str_is(px_str s, const char *z) { return strlen(z) == s.n && !memcmp(s.s, z, s.n); }

static int field_of(const px_node *n, px_str key)
{
	unsigned op = (unsigned)(n->op - px_ops);
	for (int i = 0; px_desc_fields[i].name; i++)
		if (px_desc_fields[i].op == op && !px_desc_fields[i].address && px_desc_fields[i].fixed < 0 &&
		    str_is(key, px_desc_fields[i].name))
			return i;
	return -1;
}

bool px_desc_is_field(const px_node *n, px_str key) { return field_of(n, key) >= 0; }

/* The code kind's row gives value in field, or -1; a NULL kind: any kind's. */
static int code_of(int field, const char *kind, px_str value)
{
	for (const px_desc_code *c = px_desc_codes; c->kind; c++)
		if (c->field == field && (!kind || !strcmp(c->kind, kind)) && str_is(value, c->value))
			return c->code;
	return -1;
}

/* "f16, bf16": the values field takes under kind (NULL: every kind's, once each). */
static void values_of(int field, const char *kind, char *buf, size_t size)
{
	size_t len = 0;
	buf[0] = 0;
	for (const px_desc_code *c = px_desc_codes; c->kind; c++) {
		if (c->field != field || (kind && strcmp(c->kind, kind)))
			continue;
		bool seen = false;
		for (const px_desc_code *e = px_desc_codes; e < c && !seen; e++)
			seen = e->field == field && (!kind || !strcmp(e->kind, kind)) && !strcmp(e->value, c->value);
		if (!seen && len + strlen(c->value) + 3 < size)
			len += (size_t)snprintf(buf + len, size - len, "%s%s", len ? ", " : "", c->value);
	}
}

/* A decimal number; one beyond 32 bits reads as UINT32_MAX, which every
 * field's range refuses in its own words. */
static bool decimal(px_str s, uint32_t *out)
{
	uint64_t x = 0;
	if (!s.n)
		return false;
	for (uint32_t i = 0; i < s.n; i++) {
		if (s.s[i] < '0' || s.s[i] > '9')
			return false;
		x = x > UINT32_MAX ? x : x * 10 + (uint64_t)(s.s[i] - '0');
	}
	*out = x > UINT32_MAX ? UINT32_MAX : (uint32_t)x;
	return true;
}

/* m and n of the instruction descriptor are checked against the shapes instead */
static bool shaped(int f) { return f == PX_DF_tcgen05_idesc_m || f == PX_DF_tcgen05_idesc_n; }

static const px_prop *prop_of(const px_node *n, int field)
{
	for (uint32_t i = 0; i < n->nprops; i++)
		if (str_is(n->props[i].key, px_desc_fields[field].name))
			return &n->props[i];
	return NULL;
}

/* The bit of kind in px_desc_kinds (0: not a kind the tables name). */
static uint32_t kind_bit(const char *kind)
{
	for (int i = 0; kind && px_desc_kinds[i]; i++)
		if (!strcmp(px_desc_kinds[i], kind))
			return 1u << i;
	return 0;
}

/* Does shape row s apply to kind bit k and the sparse code sp? */
static bool shape_for(const px_desc_shape *s, unsigned op, uint32_t k, uint32_t sp)
{
	return s->op == op && (!s->kinds || (s->kinds & k)) && (s->sparse >> sp & 1);
}

/* "multiples of 8 from 8 to 256" or "64": row s's N */
static void n_text(const px_desc_shape *s, char *buf, size_t size)
{
	if (s->n_lo == s->n_hi)
		snprintf(buf, size, "%u", s->n_lo);
	else
		snprintf(buf, size, "multiples of %u from %u to %u", s->n_step, s->n_lo, s->n_hi);
}

/* list += item, unless it holds it already */
static void add_once(char *list, size_t size, const char *item)
{
	size_t len = strlen(list), n = strlen(item);
	for (const char *p = list; (p = strstr(p, item)); p += n)
		if ((p == list || (p - list >= 2 && p[-2] == ',')) && (p[n] == ',' || !p[n]))
			return;
	if (len + n + 3 < size)
		snprintf(list + len, size - len, "%s%s", len ? ", " : "", item);
}

/* Is every N of row s also some other row's (a .ws singleton inside a range)? */
static bool covered(const px_desc_shape *s, unsigned op, uint32_t k, uint32_t sp)
{
	for (const px_desc_shape *o = px_desc_shapes; o->m; o++)
		if (o != s && shape_for(o, op, k, sp) && o->m == s->m && o->n_lo < o->n_hi && s->n_lo >= o->n_lo &&
		    s->n_hi <= o->n_hi && s->n_lo % o->n_step == 0 && s->n_step % o->n_step == 0)
			return true;
	return false;
}

/* m and n: a shape some row of the kind and sparsity lists (for any
 * cta_group and either form; the MMA checks its own). */
static bool check_shape(const px_node *n, px_diags *d, const px_desc_value *v, const px_prop *pm, const px_prop *pn)
{
	unsigned op = (unsigned)(n->op - px_ops);
	uint32_t m = v->num[PX_DF_tcgen05_idesc_m], nn = v->num[PX_DF_tcgen05_idesc_n];
	uint32_t k = kind_bit(v->kind), sp = v->num[PX_DF_tcgen05_idesc_sparse];
	char ms[64] = "", ns[256] = "", item[64];
	bool m_ok = false;
	unsigned lo = 0, next;
	for (const px_desc_shape *s = px_desc_shapes; s->m; s++) {
		if (!shape_for(s, op, k, sp) || s->m != m)
			continue;
		m_ok = true;
		if (nn >= s->n_lo && nn <= s->n_hi && nn % s->n_step == 0)
			return true;
		if (covered(s, op, k, sp))
			continue;
		n_text(s, item, sizeof item);
		add_once(ns, sizeof ns, item);
	}
	if (!d)
		return false;
	if (m_ok) {
		px_error(d, pn->val_loc, PX_D_desc_n, n->op->name, (int)pn->val.n, pn->val.s, m, v->kind, ns);
		return false;
	}
	do { /* the kind's Ms, smallest first */
		next = UINT32_MAX;
		for (const px_desc_shape *s = px_desc_shapes; s->m; s++)
			if (shape_for(s, op, k, sp) && s->m > lo && s->m < next)
				next = s->m;
		if (next != UINT32_MAX) {
			snprintf(item, sizeof item, "%u", next);
			add_once(ms, sizeof ms, item);
			lo = next;
		}
	} while (next != UINT32_MAX);
	px_error(d, pm->val_loc, PX_D_desc_m, n->op->name, (int)pm->val.n, pm->val.s, v->kind, ms);
	return false;
}

/* The value field has in n, given or (absent) the one code 0 names for
 * kind; "0" for a field with no codes. */
static void value_text(const px_node *n, int field, const char *kind, char *buf, size_t size)
{
	const px_prop *p = prop_of(n, field);
	if (p) {
		snprintf(buf, size, "%.*s", (int)p->val.n, p->val.s);
		return;
	}
	snprintf(buf, size, "0");
	for (const px_desc_code *c = px_desc_codes; c->kind; c++)
		if (c->field == field && !strcmp(c->kind, kind) && c->code == 0) {
			snprintf(buf, size, "%s", c->value);
			return;
		}
}

/* The rules between fields: field = value only where needs is one of in. */
static bool check_rules(const px_node *n, px_diags *d, const char *kind)
{
	unsigned op = (unsigned)(n->op - px_ops);
	bool ok = true;
	for (const px_desc_rule *r = px_desc_rules; r->kind; r++) {
		if (px_desc_fields[r->field].op != op || strcmp(r->kind, kind) || r->slot != PX_SN__NONE)
			continue;
		const px_prop *p = prop_of(n, r->field);
		if (!p || !str_is(p->val, r->value))
			continue;
		char have[32], want[96] = "";
		value_text(n, r->needs, kind, have, sizeof have);
		bool found = false;
		for (const char *const *w = r->in; *w; w++) {
			found |= !strcmp(*w, have);
			snprintf(want + strlen(want), sizeof want - strlen(want), "%s%s", w == r->in ? "" : " or ", *w);
		}
		if (found)
			continue;
		if (d)
			px_error(d, p->val_loc, PX_D_desc_rule, n->op->name, px_desc_fields[r->field].name, r->value,
			         px_desc_fields[r->needs].name, want, kind, have);
		ok = false;
	}
	return ok;
}

/* "kind, sparse, a, b" : the properties kind k's layout has */
static void fields_of(unsigned op, uint32_t k, char *buf, size_t size)
{
	size_t len = 0;
	buf[0] = 0;
	for (int f = 0; px_desc_fields[f].name; f++)
		if (px_desc_fields[f].op == op && (!px_desc_fields[f].kinds || (px_desc_fields[f].kinds & k)) &&
		    !px_desc_fields[f].address && px_desc_fields[f].fixed < 0 && len + 16 < size)
			len += (size_t)snprintf(buf + len, size - len, "%s%s", len ? ", " : "", px_desc_fields[f].name);
}

bool px_desc_read(const px_node *n, px_diags *d, px_desc_value *out)
{
	memset(out, 0, sizeof *out);
	unsigned op = (unsigned)(n->op - px_ops);
	bool ok = true;
	for (uint32_t i = 0; i < n->nprops; i++)
		for (uint32_t j = 0; j < i; j++)
			if (n->props[i].key.n == n->props[j].key.n &&
			    !memcmp(n->props[i].key.s, n->props[j].key.s, n->props[i].key.n) && field_of(n, n->props[i].key) >= 0) {
				if (d)
					px_error(d, n->props[i].loc, PX_D_desc_twice, n->op->name, (int)n->props[i].key.n,
					         n->props[i].key.s);
				ok = false;
				break;
			}
	for (uint32_t i = 0; i < n->nprops; i++)
		if (!n->props[i].val.n && field_of(n, n->props[i].key) >= 0) {
			if (d)
				px_error(d, n->props[i].loc, PX_D_property_needs_value, (int)n->props[i].key.n,
				         n->props[i].key.s, n->op->name);
			ok = false;
		}
	/* kind first: it picks the codes of every other field */
	bool has_kind = px_desc_fields[PX_DF_tcgen05_idesc_kind].op == op;
	const px_prop *pk = has_kind ? prop_of(n, PX_DF_tcgen05_idesc_kind) : NULL;
	char list[256];
	if (!has_kind)
		out->kind = "any";
	else if (pk && code_of(PX_DF_tcgen05_idesc_kind, NULL, pk->val) >= 0) {
		for (const px_desc_code *c = px_desc_codes; c->kind; c++)
			if (c->field == PX_DF_tcgen05_idesc_kind && str_is(pk->val, c->value))
				out->kind = c->kind;
	} else if (pk && pk->val.n) {
		values_of(PX_DF_tcgen05_idesc_kind, NULL, list, sizeof list);
		if (d)
			px_error(d, pk->val_loc, PX_D_desc_value, n->op->name, "kind",
			         (int)pk->val.n, pk->val.s, n->op->name, list);
		ok = false;
	}
	for (int f = 0; px_desc_fields[f].name; f++) {
		const px_desc_field *fd = &px_desc_fields[f];
		if (fd->op != op)
			continue;
		if (fd->address || fd->fixed >= 0) {
			out->num[f] = fd->fixed >= 0 ? (uint32_t)fd->fixed : 0;
			continue;
		}
		const px_prop *p = prop_of(n, f);
		if (fd->kinds && !(fd->kinds & kind_bit(out->kind))) {
			/* not in this kind's layout (or the kind is wrong, reported above) */
			if (p && out->kind) {
				fields_of(op, kind_bit(out->kind), list, sizeof list);
				if (d)
					px_error(d, p->loc, PX_D_desc_no_field, n->op->name, out->kind, fd->name, list);
				ok = false;
			}
			continue;
		}
		if (!p) {
			if (fd->required) {
				if (d)
					px_error(d, n->oploc, PX_D_desc_missing, n->op->name, fd->name);
				ok = false;
			}
			continue;
		}
		if (f == PX_DF_tcgen05_idesc_kind || !p->val.n) /* a bare key was reported above */
			continue;
		if (fd->coded) {
			if (!out->kind) /* a wrong kind was reported; its codes are unknown */
				continue;
			int code = code_of(f, out->kind, p->val);
			if (code < 0) {
				char who[32];
				values_of(f, out->kind, list, sizeof list);
				snprintf(who, sizeof who, has_kind ? "kind::%s" : "it", out->kind);
				if (d)
					px_error(d, p->val_loc, PX_D_desc_value, n->op->name, fd->name,
					         (int)p->val.n, p->val.s, who, list);
				ok = false;
				continue;
			}
			out->num[f] = (uint32_t)code;
		} else if (!decimal(p->val, &out->num[f])) {
			if (d)
				px_error(d, p->val_loc, PX_D_desc_number, n->op->name, fd->name,
				         (int)p->val.n, p->val.s);
			ok = false;
			continue;
		} else if (!shaped(f) && (out->num[f] & ((1u << fd->shift) - 1) || out->num[f] >> fd->shift >> fd->bits)) {
			if (d)
				px_error(d, p->val_loc, PX_D_desc_range, n->op->name, fd->name, (int)p->val.n, p->val.s,
				         1u << fd->shift, ((1u << fd->bits) - 1) << fd->shift);
			ok = false;
		}
	}
	if (ok && has_kind)
		ok = check_rules(n, d, out->kind);
	const px_prop *pm = prop_of(n, PX_DF_tcgen05_idesc_m), *pn = prop_of(n, PX_DF_tcgen05_idesc_n);
	if (ok && has_kind && pm && pn)
		ok = check_shape(n, d, out, pm, pn);
	if (!ok)
		return false;
	for (int f = 0; px_desc_fields[f].name; f++) {
		const px_desc_field *fd = &px_desc_fields[f];
		if (fd->op == op && fd->lo >= 0 && (!fd->kinds || (fd->kinds & kind_bit(out->kind))))
			out->word |= (uint64_t)(out->num[f] >> fd->shift) << fd->lo;
	}
	return true;
}

/* The one statement that defines value in f, or NULL (none, or several: a
 * value reassigned is not followed). */
static const px_node *only_def(const px_func *f, uint32_t value)
{
	const px_node *def = NULL;
	unsigned n = 0;
	for (const px_node *x = f->first; x; x = x->next)
		for (uint32_t r = 0; r < x->nres; r++)
			if (x->res[r].kind == PX_O_VALUE && x->res[r].id == value && n++ == 0)
				def = x;
	return n == 1 ? def : NULL;
}

/* The swizzle's alignment rule: with base_offset 0 the repeating pattern a
 * tile lies in starts at a multiple of its bytes (128B 1024, 64B 512, 32B
 * 256), and the tile starts in that pattern's first 128 bytes, where the
 * base offset, (start >> 7) & 7, is 0: a step along K inside a row, as
 * GEMM kernels advance a descriptor (run on sm_90: testsuite/gpu's
 * wgmma_kstep). base_offset given, or no swizzle, the start is a multiple
 * of 16. What is known of the start is the value analysis's (verify/analysis/value.h,
 * through verify/analysis/known.h): a shared variable's align (else its element's
 * size), a register's form (a mov of a variable, {align = N} where it is
 * computed, adds of constants and of values whose multiples are known),
 * plus the constant; a register nothing is known of is assumed aligned
 * (ptxemit-mir(5), "Descriptors"). */
static void check_start(px_verifier *v, const px_values *va, const px_node *n, const px_desc_value *dv)
{
	unsigned op = (unsigned)(n->op - px_ops);
	if (!n->nops || n->ops[0].kind != PX_O_ADDR || !n->ops[0].base || px_addr_idx(&n->ops[0]))
		return;
	uint32_t need = 16, base_offset = 0;
	const char *swz = "none";
	for (int f = 0; px_desc_fields[f].name; f++) {
		if (px_desc_fields[f].op != op)
			continue;
		if (!strcmp(px_desc_fields[f].name, "base_offset"))
			base_offset = dv->num[f];
		for (const px_desc_code *c = px_desc_codes; px_desc_fields[f].coded && c->kind; c++)
			if (c->field == f && c->code == dv->num[f] && c->align && prop_of(n, f)) {
				need = c->align;
				swz = c->value;
			}
	}
	if (base_offset)
		need = 16;
	const px_opnd *a = &n->ops[0];
	if (a->base->kind == PX_O_SYM) {
		const px_global *g = px_global_named(v->m, a->base->sym);
		if (!g || g->space != PX_SPACE_SHARED) /* the space check reports it */
			return;
	} else if (a->base->kind != PX_O_VALUE || a->base->elem >= 0)
		return;
	px_known k;
	uint32_t mod, rem;
	if (!px_known_addr(va, a, &k))
		return;
	px_known_residue(va, &k, &mod, &rem);
	if (mod == 1)
		return;
	/* what is known of the start, and of where its pattern starts */
	uint32_t known = rem ? rem & -rem : mod, pattern = mod;
	if (mod >= 128 && (rem & ~127u))
		pattern = (rem & ~127u) & -(rem & ~127u);
	if (known >= 16 && pattern >= need)
		return;
	bool swizzled = need > 16 && known >= 16;
	unsigned id = a->base->kind == PX_O_SYM ? (swizzled ? PX_D_desc_pattern : PX_D_desc_align)
	                                        : (swizzled ? PX_D_desc_pattern_reg : PX_D_desc_align_reg);
	uint32_t shown = swizzled ? pattern : known;
	if (!swizzled)
		need = 16;
	if (a->base->kind == PX_O_SYM)
		px_error(v->d, a->loc, id, n->op->name, swz, need, (int)a->base->sym.n, a->base->sym.s,
		         (long long)a->off, (unsigned)shown);
	else {
		px_str name = va->f->values[a->base->id].name;
		px_error(v->d, a->loc, id, n->op->name, swz, need, (int)name.n, name.s, (long long)a->off,
		         (unsigned)shown, need);
	}
}

/* The tile starts of a function's descriptors, once its statements are all
 * verified (the analysis reads the whole function): each builder the
 * verifier accepted, whatever else in the function it refused. */
void px_check_desc_starts(px_verifier *v, px_func *f)
{
	if (!v->desc_seen)
		return;
	v->desc_seen = false;
	px_arena_mark mark = px_arena_mark_now(&v->scratch);
	px_values va;
	px_values_init(&va, v->m, f, v->grid, &v->scratch);
	for (const px_node *n = f->first; n; n = n->next) {
		px_desc_value dv;
		if (n->kind == PX_N_INST && n->op && n->var && n->op->family == PX_FAM_desc && px_desc_read(n, NULL, &dv))
			check_start(v, &va, n, &dv);
	}
	px_arena_release(&v->scratch, mark);
}

/* The result is one integer or bit value of the descriptor's width: the
 * selector writes one register with integer instructions. */
static bool check_result(px_verifier *v, const px_func *f, const px_node *n)
{
	if (n->nres != 1 || n->res[0].kind != PX_O_VALUE)
		return true; /* the count is the tables' to report; `_` discards it */
	const px_opnd_def *rd = &n->op->results[0];
	const px_value *val = &f->values[n->res[0].id];
	unsigned k = px_types[val->type].kind;
	bool scalar = !val->count || n->res[0].elem >= 0;
	if (!val->type || (scalar && px_types[val->type].width == px_types[rd->type].width &&
	                   (k == PX_KIND_BIT || k == PX_KIND_UINT || k == PX_KIND_SINT)))
		return true;
	char t[40];
	snprintf(t, sizeof t, scalar ? "%s" : "%s[%u]", px_types[val->type].name, (unsigned)val->count);
	px_error(v->d, n->res[0].loc, PX_D_desc_result, n->op->name, px_types[rd->type].name, (int)val->name.n,
	         val->name.s, t);
	return false;
}

bool px_desc_prepare(px_verifier *v, px_func *f, px_node *n)
{
	px_desc_value dv;
	v->desc_seen = true;
	bool ok = check_result(v, f, n);
	return px_desc_read(n, v->d, &dv) && ok;
}

void px_desc_check_operands(px_verifier *v, px_func *f, px_node *n, unsigned want_op)
{
	unsigned no;
	const px_opnd_def *defs = px_var_operands(n->op, n->var, &no);
	for (unsigned i = 0; i < n->nops && i < no; i++) {
		const px_opnd *o = &n->ops[i];
		if (defs[i].kind != PX_OK_REG || defs[i].type != PX_T_u64 || o->kind != PX_O_VALUE || o->elem >= 0)
			continue;
		const px_node *def = only_def(f, o->id);
		if (!def || def->kind != PX_N_INST || !def->op || def->op->family != PX_FAM_desc ||
		    def->op == &px_ops[want_op])
			continue;
		px_str name = f->values[o->id].name;
		px_error(v->d, o->loc, PX_D_desc_layout, n->op->name, (int)name.n, name.s,
		         px_module_line(v->m, def->loc), def->op->name, px_ops[want_op].name);
	}
}

/* The rules between a field and the MMA's slots (the scale factors' type
 * and the MMA's scale vector). */
static bool check_mma_slots(px_verifier *v, const px_func *f, const px_node *n, const px_node *def,
                            const px_desc_value *dv, const px_opnd *idesc, unsigned line)
{
	for (const px_desc_rule *r = px_desc_rules; r->kind; r++) {
		if (r->slot == PX_SN__NONE || px_desc_fields[r->field].op != (unsigned)(def->op - px_ops) ||
		    strcmp(r->kind, dv->kind))
			continue;
		char have[32], want[96] = "";
		value_text(def, r->field, dv->kind, have, sizeof have);
		if (strcmp(have, r->value))
			continue;
		int si = px_slot_find(n->op, r->slot);
		if (si < 0)
			continue;
		const char *tok = n->slot[si] ? px_tok_names[n->slot[si]] : NULL;
		bool found = false;
		for (const char *const *w = r->in; *w; w++) {
			found |= tok && !strcmp(*w, tok);
			snprintf(want + strlen(want), sizeof want - strlen(want), "%s.%s", w == r->in ? "" : " or ", *w);
		}
		if (found)
			continue;
		char has[48];
		snprintf(has, sizeof has, tok ? "has .%s" : "has no .%s", tok ? tok : n->op->slots[si].name);
		px_str name = f->values[idesc->id].name;
		px_error(v->d, idesc->loc, PX_D_desc_mma_slot, n->op->name, has, (int)name.n, name.s, line,
		         px_desc_fields[r->field].name, r->value, want);
		return false;
	}
	return true;
}

void px_desc_check_mma(px_verifier *v, px_func *f, px_node *n, const px_opnd *idesc)
{
	if (!idesc || idesc->kind != PX_O_VALUE || idesc->elem >= 0)
		return;
	const px_node *def = only_def(f, idesc->id);
	if (!def || def->kind != PX_N_INST || !def->op || def->op != &px_ops[PX_OP_tcgen05_idesc])
		return;
	px_desc_value dv;
	if (!px_desc_read(def, NULL, &dv))
		return; /* its own errors were reported at it */
	int ks = px_slot_find(n->op, PX_SN_kind), gs = px_slot_find(n->op, PX_SN_cta_group);
	const char *kind = ks >= 0 && n->slot[ks] ? px_tok_names[n->slot[ks]] + strlen("kind::") : NULL;
	px_str name = f->values[idesc->id].name;
	unsigned line = px_module_line(v->m, def->loc);
	if (kind && strcmp(kind, dv.kind)) {
		px_error(v->d, idesc->loc, PX_D_desc_mma_kind, n->op->name, kind, (int)name.n, name.s, line, dv.kind);
		return;
	}
	if (!check_mma_slots(v, f, n, def, &dv, idesc, line))
		return;
	int ws = px_slot_find(n->op, PX_SN_ws), sps = px_slot_find(n->op, PX_SN_sp);
	bool is_ws = ws >= 0 && n->slot[ws], is_sp = sps >= 0 && n->slot[sps];
	if (dv.num[PX_DF_tcgen05_idesc_max_shift] && !is_ws) {
		px_error(v->d, idesc->loc, PX_D_desc_mma_ws, n->op->name, (int)name.n, name.s, line);
		return;
	}
	uint32_t sp = dv.num[PX_DF_tcgen05_idesc_sparse];
	if (sp != is_sp) {
		px_error(v->d, idesc->loc, is_sp ? PX_D_desc_mma_dense : PX_D_desc_mma_sparse, n->op->name, (int)name.n,
		         name.s, line);
		return;
	}
	unsigned group = gs >= 0 && n->slot[gs] == PX_TOK_cta_group__2 ? 2 : 1;
	uint32_t m = dv.num[PX_DF_tcgen05_idesc_m], nn = dv.num[PX_DF_tcgen05_idesc_n], k = kind_bit(dv.kind);
	/* found[ws][group]: which form takes the shape, to say the fix */
	bool found[2][3] = {{false}};
	for (const px_desc_shape *s = px_desc_shapes; s->m; s++)
		if (shape_for(s, PX_OP_tcgen05_idesc, k, sp) && s->m == m && nn >= s->n_lo && nn <= s->n_hi &&
		    nn % s->n_step == 0)
			for (unsigned g = 1; g <= 2; g++)
				found[s->ws][g] |= s->cta_groups >> g & 1;
	if (found[is_ws][group])
		return;
	char form[48], fix[64] = "";
	snprintf(form, sizeof form, "%s%scta_group::%u", is_ws ? ".ws " : "", is_sp ? ".sp " : "", group);
	if (found[!is_ws][group])
		snprintf(fix, sizeof fix, " (the %s form takes them)", is_ws ? "non-.ws" : ".ws");
	else if (found[is_ws][3 - group])
		snprintf(fix, sizeof fix, " (cta_group::%u takes them)", 3 - group);
	px_error(v->d, idesc->loc, PX_D_desc_mma_shape, n->op->name, form, m, nn, (int)name.n, name.s, line, fix);
}
