/* pxgen: families.yaml, the op families with C of their own and the slots
 * that code reads. An op naming `family: X` must have every slot X lists, so
 * the family's code may index them (PX_SN_*) without a check. A family may
 * give the coordinates each geometry token takes (geometries:, the
 * texture family's), which its check and --describe read. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "pxgen.h"

/* geometries: [{geom: TOKEN, coords: N, indexes: K}...]: N coordinates, the
 * first K of them integer indexes (0 when left out) */
static void read_geometries(const ynode *list)
{
	static const char *const keys[] = {"geom", "coords", "indexes", NULL};
	expect(list, YAML_SEQUENCE_NODE, "geometries");
	SEQ_EACH(it, list) {
		ynode *e = node(*it), *v;
		check_keys(e, "a geometry", keys);
		geom_row *g = PUSH(M.geoms, M.ngeoms, M.cap_geoms);
		g->at = e;
		g->file = cur;
		g->tok = scalar(map_need(e, "geom", "a geometry"), "geom");
		for (size_t i = 0; i + 1 < M.ngeoms; i++)
			if (!strcmp(M.geoms[i].tok, g->tok))
				fail(e, "duplicate geometry '%s'", g->tok);
		g->ncoords = to_uint(map_need(e, "coords", "a geometry"), "coords", 255);
		g->nindex = (v = map_get(e, "indexes")) ? to_uint(v, "indexes", 255) : 0;
		if (!g->ncoords || g->nindex > g->ncoords)
			fail(e, "geometry '%s': %u coordinates cannot lead with %u indexes", g->tok, g->ncoords, g->nindex);
	}
}

void read_families(void)
{
	static const char *const keys[] = {"family", "slots", "geometries", NULL};
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
		if ((v = map_get(e, "geometries")))
			read_geometries(v);
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

/* px_geometries[]: each geometry's coordinates, its token checked against
 * every slot's (a geometry no op takes is a mistake in the table) */
void emit_geometries(sbuf *c)
{
	sbuf rows = {0};
	for (size_t i = 0; i < M.ngeoms; i++) {
		const geom_row *g = &M.geoms[i];
		if (strs_find(&M.toks, g->tok) < 0) {
			cur = g->file;
			fail(g->at, "geometry '%s' is no slot's token", g->tok);
		}
		char *s = sanitize(g->tok);
		sb_printf(&rows, "\t{PX_TOK_%s, %u, %u},\n", s, g->ncoords, g->nindex);
		free(s);
	}
	emit_row_array(c, "px_geometry", "px_geometries", "px_ngeometries", &rows, M.ngeoms);
	free(rows.p);
}
