/* Lookups over the generated tables. Names are compared as (pointer, length)
 * because the front end hands out slices of the source text. */
#include <string.h>

#include "tables/namehash.h"
#include "tables/tables.h"

/* strcmp's sign for the slice s[0..n) against the NUL-terminated name; a
 * slice holding a NUL byte never equals a name. */
static int cmp_slice(const char *s, size_t n, const char *name)
{
	size_t i = 0;
	for (; i < n && name[i]; i++)
		if (s[i] != name[i])
			return (unsigned char)s[i] < (unsigned char)name[i] ? -1 : 1;
	if (i < n)
		return 1; /* name is a proper prefix of the slice */
	return name[i] ? -1 : 0;
}

/* Index of the row named s, or -1, through the table's generated hash index.
 * The name is the first member of every row type searched here. */
static long find_sorted(const char *s, size_t n, const void *rows, const px_name_index *ix, size_t size)
{
	for (uint32_t i = px_name_hash(s, n) & ix->mask;; i = (i + 1) & ix->mask) {
		unsigned r = ix->slot[i];
		if (!r)
			return -1;
		const char *name = *(const char *const *)((const char *)rows + (r - 1) * size);
		if (!cmp_slice(s, n, name))
			return (long)r - 1;
	}
}

unsigned px_tok_lookup(const char *s, size_t n)
{
	if (!n)
		return 0; /* row 0 is the empty token, which no text names */
	long i = find_sorted(s, n, px_tok_names, &px_tok_index, sizeof px_tok_names[0]);
	return i < 0 ? 0 : (unsigned)i;
}

const px_op_def *px_op_lookup(const char *s, size_t n)
{
	long i = find_sorted(s, n, px_ops, &px_op_index, sizeof px_ops[0]);
	return i < 0 ? NULL : &px_ops[i];
}

const px_sreg *px_sreg_lookup(const char *s, size_t n)
{
	if (n < 2 || n >= 64 || (unsigned char)s[1] >= 128 || !(px_sreg_shapes[(unsigned char)s[1]] >> n & 1))
		return NULL;
	long i = find_sorted(s, n, px_sregs, &px_sreg_index, sizeof px_sregs[0]);
	return i < 0 ? NULL : &px_sregs[i];
}

/* Targets are ordered by SM, not by name, and there are few: a linear scan. */
const px_target *px_target_lookup(const char *s, size_t n)
{
	for (unsigned i = 0; i < px_ntargets; i++)
		if (!cmp_slice(s, n, px_targets[i].name))
			return &px_targets[i];
	return NULL;
}

uint16_t px_ptx_version_parse(const char *s, size_t n)
{
	size_t i = 0;
	unsigned major = 0;
	while (i < n && i < 3 && s[i] >= '0' && s[i] <= '9')
		major = major * 10 + (unsigned)(s[i++] - '0');
	if (i == 0 || i == 3 || i + 2 != n || s[i] != '.' || s[i + 1] < '0' || s[i + 1] > '9')
		return 0;
	return (uint16_t)(major * 10 + (unsigned)(s[i + 1] - '0'));
}

bool px_ptx_version_known(uint16_t v)
{
	for (unsigned k = 0; k < px_nptx_versions; k++)
		if (v && px_ptx_versions[k] == v)
			return true;
	return false;
}

/* Types are few and in declaration order; "none" (row 0) is not a MIR type.
 * Most are spelled like a modifier token (f32, u64): the token index finds
 * those; the rest (ptr, pred) take the scan. */
int px_type_lookup(const char *s, size_t n)
{
	unsigned tok = px_tok_lookup(s, n);
	if (px_tok_types[tok])
		return px_tok_types[tok];
	for (unsigned i = 1; i < px_ntypes; i++)
		if (!cmp_slice(s, n, px_types[i].name))
			return (int)i;
	return 0;
}

int px_slot_find(const px_op_def *op, unsigned sname)
{
	if (!(op->snames[sname / 64] >> (sname % 64) & 1))
		return -1;
	for (unsigned i = 0; i < op->nslots; i++)
		if (op->slots[i].sname == sname)
			return (int)i;
	return -1;
}

unsigned px_slot_tok(const px_op_def *op, const uint16_t *slot, unsigned i)
{
	const px_slot_def *s = &op->slots[i];
	return slot[i] ? slot[i] : (s->flags & PX_SLOT_FIXED) ? s->fixed_tok : 0;
}

int px_toks_have(const uint16_t *toks, unsigned tok)
{
	if (!toks || !tok)
		return 0;
	for (; *toks; toks++)
		if (*toks == tok)
			return 1;
	return 0;
}

int px_slot_has(const px_slot_def *slot, unsigned tok)
{
	return px_toks_have(slot->toks, tok);
}

const int32_t *px_opnd_allowed(const px_opnd_def *def, const uint16_t *slot, unsigned *n)
{
	if (!def->allowed)
		return NULL;
	int32_t by = def->allowed[0];
	for (const int32_t *p = def->allowed + 1; p[0] >= 0; p += 2 + p[1])
		if (by < 0 || slot[by] == p[0]) {
			*n = (unsigned)p[1];
			return p + 2;
		}
	return NULL;
}

const px_geometry *px_geometry_of(unsigned tok)
{
	for (unsigned i = 0; i < px_ngeometries; i++)
		if (px_geometries[i].tok == tok)
			return &px_geometries[i];
	return NULL;
}
