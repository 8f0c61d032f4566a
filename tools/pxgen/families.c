/* pxgen: families.yaml, the op families with C of their own and the slots
 * that code reads. An op naming `family: X` must have every slot X lists, so
 * the family's code may index them (PX_SN_*) without a check. */
#define _POSIX_C_SOURCE 200809L
#include <string.h>

#include "pxgen.h"

void read_families(void)
{
	static const char *const keys[] = {"family", "slots", NULL};
	ynode *root = root_list("families.yaml");
	if (!root)
		return;
	SEQ_EACH(it, root) {
		ynode *e = node(*it), *v;
		check_keys(e, "a family", keys);
		v = map_need(e, "family", "a family");
		const char *name = identifier(v, "family");
		if (strs_find(&M.families, name) >= 0)
			fail(v, "duplicate family '%s'", name);
		strs *need = PUSH(M.fam_slots, M.nfam_slots, M.cap_fam_slots);
		*need = (v = map_get(e, "slots")) ? scalar_list(v, "slots") : (strs){0};
		strs_push(&M.families, name);
	}
}

void check_family(const op_row *op, const ynode *at)
{
	const strs *need = &M.fam_slots[op->family - 1];
	for (size_t i = 0; i < need->n; i++)
		if (slot_index(op, need->v[i]) < 0)
			fail(at, "op '%s' of family '%s' lacks slot '%s', which families.yaml says its code reads", op->name,
			     M.families.v[op->family - 1], need->v[i]);
}
