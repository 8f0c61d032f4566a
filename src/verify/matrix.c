/* Matrix copies (seed 000): the property blob {num, shape, sz, trans, layout}
 * read into the PTX slots before the tables' rules run, and the state space
 * chosen from the address.
 *
 * The tables hold the PTX spelling; what this file adds is what a value map
 * cannot say: a seed num for the m16n16 shape counts 32-bit registers (num 2
 * is .x1), layout col is the transposed load, the m8n8 and stmatrix.m16n8
 * element formats follow from the shape, and an address known to be in
 * shared memory takes the .shared form (generic addressing otherwise). */
#include <string.h>

#include "verify/verify.h"

static int slot(const px_node *n, unsigned sname) { return px_slot_find(n->op, sname); }

/* The property named key in n's dictionary, or NULL. */
const px_prop *px_node_prop(const px_node *n, const char *key)
{
	for (uint32_t i = 0; i < n->nprops; i++)
		if (n->props[i].key.n == strlen(key) && !memcmp(n->props[i].key.s, key, n->props[i].key.n))
			return &n->props[i];
	return NULL;
}

/* Is the address operand's base known to point into shared memory? */
bool px_matrix_shared_address(const px_verifier *v, const px_func *f, const px_node *n)
{
	if (!n->nops || n->ops[0].kind != PX_O_ADDR)
		return false;
	const px_opnd *b = n->ops[0].base;
	if (b->kind == PX_O_SYM) {
		uint32_t e = px_strmap_get(&v->m->syms, b->sym.s, b->sym.n);
		return e != PX_STRMAP_NONE && !(e & 1) && v->m->globals[e >> 1].space == PX_SPACE_SHARED;
	}
	if (b->kind != PX_O_VALUE)
		return false;
	const px_value *val = &f->values[b->id];
	return val->param == PX_PARAM_PTR && f->params[val->param_index].space == PX_TOK_shared;
}

/* The seed's num for m16n16 counts registers: 2 and 4 are PTX's .x1 and .x2. */
static bool m16n16_num(px_verifier *v, px_node *n, int num)
{
	const px_prop *p = px_node_prop(n, "num");
	if (!p || n->slot[num] == 0)
		return true;
	if (n->slot[num] == PX_TOK_x1) {
		px_error(v->d, p->loc, PX_D_ldsm_m16n16_num);
		return false;
	}
	n->slot[num] = n->slot[num] == PX_TOK_x2 ? PX_TOK_x1 : PX_TOK_x2;
	return true;
}

bool px_matrix_prepare(px_verifier *v, px_func *f, px_node *n)
{
	int shape = slot(n, PX_SN_shape), num = slot(n, PX_SN_num), trans = slot(n, PX_SN_trans);
	int sz = slot(n, PX_SN_sz), space = slot(n, PX_SN_space), layout = slot(n, PX_SN_layout);
	unsigned sh = n->slot[shape];
	if (layout >= 0) {
		if (n->slot[layout] == PX_TOK_col)
			n->slot[trans] = PX_TOK_trans;
		n->slot[layout] = 0; /* no PTX token: read, then let go */
	}
	if (sh == PX_TOK_m16n16 && !m16n16_num(v, n, num))
		return false;
	if (!n->slot[sz] && sh == PX_TOK_m8n8)
		n->slot[sz] = PX_TOK_b16;
	if (!n->slot[sz] && sh == PX_TOK_m16n8)
		n->slot[sz] = PX_TOK_b8;
	if (!n->slot[space] && px_matrix_shared_address(v, f, n))
		n->slot[space] = PX_TOK_shared;
	return true;
}
