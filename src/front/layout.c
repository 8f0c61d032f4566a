/* Reading a layout literal (front/layout.h). The grammar has already checked
 * its shape, "(" ints ")" ":" "(" strides ")", so this only has to count and
 * judge the values. */
#include <string.h>

#include "front/layout.h"

static void skip_space(const char **p, const char *end)
{
	while (*p < end && (**p == ' ' || **p == '\t' || **p == '\n' || **p == '\r'))
		(*p)++;
}

static bool read_int(const char **p, const char *end, int64_t *v)
{
	skip_space(p, end);
	bool neg = *p < end && **p == '-';
	if (neg)
		(*p)++;
	if (*p >= end || **p < '0' || **p > '9')
		return false;
	int64_t x = 0;
	while (*p < end && **p >= '0' && **p <= '9' && x < (INT64_C(1) << 40))
		x = x * 10 + (*(*p)++ - '0');
	*v = neg ? -x : x;
	return true;
}

static bool read_iter(const char **p, const char *end, uint8_t *iter)
{
	skip_space(p, end);
	*iter = PX_ITER_NONE;
	if (*p >= end || **p != '@')
		return true;
	static const struct {
		const char *name;
		uint8_t iter;
	} names[] = {{"@laneid", PX_ITER_LANE}, {"@warpid", PX_ITER_WARP}};
	for (unsigned i = 0; i < 2; i++) {
		size_t k = strlen(names[i].name);
		if ((size_t)(end - *p) >= k && !memcmp(*p, names[i].name, k) &&
		    ((size_t)(end - *p) == k || (*p)[k] == ',' || (*p)[k] == ')' || (*p)[k] == ' ')) {
			*p += k;
			*iter = names[i].iter;
			return true;
		}
	}
	return false;
}

bool px_layout_parse(px_str text, px_layout *l, const char **why)
{
	const char *p = text.s, *end = text.s + text.n;
	memset(l, 0, sizeof *l);
	*why = "a layout is (sizes):(strides), e.g. (8,4,2,2):(4@laneid,1@laneid,2,1)";
	skip_space(&p, end);
	if (p >= end || *p++ != '(')
		return false;
	do {
		if (l->n == PX_LAYOUT_MAX_MODES) {
			*why = "a layout has at most 12 modes";
			return false;
		}
		if (!read_int(&p, end, &l->m[l->n].size))
			return false;
		if (l->m[l->n].size < 1) {
			*why = "a layout's sizes are positive";
			return false;
		}
		l->n++;
		skip_space(&p, end);
	} while (p < end && *p == ',' && p++);
	if (p + 2 >= end || p[0] != ')' || p[1] != ':' || p[2] != '(')
		return false;
	p += 3;
	for (unsigned i = 0; i < l->n; i++) {
		if (i) {
			skip_space(&p, end);
			if (p >= end || *p++ != ',') {
				*why = "a layout needs one stride per size";
				return false;
			}
		}
		if (!read_int(&p, end, &l->m[i].stride))
			return false;
		if (l->m[i].stride < 0) {
			*why = "a layout's strides are not negative";
			return false;
		}
		if (!read_iter(&p, end, &l->m[i].iter)) {
			*why = "a stride's iterator is @laneid or @warpid";
			return false;
		}
	}
	skip_space(&p, end);
	if (p >= end || *p != ')') {
		*why = "a layout needs one stride per size";
		return false;
	}
	return true;
}

const px_op_def *px_tile_copy_matrix(bool ld, unsigned num, bool trans, bool shared, uint16_t slot[PX_MAX_SLOTS])
{
	const px_op_def *op = &px_ops[ld ? PX_OP_ldmatrix : PX_OP_stmatrix];
	memset(slot, 0, PX_MAX_SLOTS * sizeof *slot);
	const struct {
		unsigned sname, tok;
	} set[] = {{PX_SN_shape, PX_TOK_m8n8}, {PX_SN_num, num}, {PX_SN_sz, PX_TOK_b16},
	           {PX_SN_trans, trans ? PX_TOK_trans : 0}, {PX_SN_space, shared ? PX_TOK_shared : 0}};
	for (unsigned i = 0; i < sizeof set / sizeof set[0]; i++) {
		int k = px_slot_find(op, set[i].sname);
		if (k >= 0 && set[i].tok)
			slot[k] = (uint16_t)set[i].tok;
	}
	return op;
}

int64_t px_layout_local_size(const px_layout *l)
{
	int64_t n = 1;
	for (unsigned i = 0; i < l->n; i++)
		if (l->m[i].iter == PX_ITER_NONE)
			n *= l->m[i].size;
	return n;
}
