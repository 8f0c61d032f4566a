/* pxgen: mma_desc.yaml. */
#define _POSIX_C_SOURCE 200809L
#include <string.h>

#include "pxgen.h"

/* mma_desc.yaml: the element-type and shape enums of NVVM's packed MMA
 * descriptor, one row each: {type: f16, id: 6} or {shape: m16n8k16, id: 18}. */
static strs mma_names[2];
static unsigned *mma_ids[2];
static size_t mma_cap[2];

void read_mma(void)
{
	static const char *const keys[] = {"type", "shape", "id", NULL};
	ynode *root = root_list("mma_desc.yaml");
	if (!root)
		return;
	SEQ_EACH(it, root) {
		ynode *e = node(*it);
		check_keys(e, "an MMA enum row", keys);
		int k = map_get(e, "shape") != NULL;
		const char *name = scalar(map_need(e, k ? "shape" : "type", "an MMA enum row"), "name");
		if (strs_find(&mma_names[k], name) >= 0)
			fail(e, "duplicate MMA enum row '%s'", name);
		unsigned id = to_uint(map_need(e, "id", "an MMA enum row"), "id", 255);
		mma_ids[k] = grow(mma_ids[k], &mma_cap[k], mma_names[k].n, sizeof *mma_ids[k]);
		mma_ids[k][mma_names[k].n] = id;
		strs_push(&mma_names[k], name);
		add_token(name);
	}
}

void emit_mma(sbuf *c)
{
	static const char *const arrays[2] = {"px_mma_types", "px_mma_shapes"};
	for (int k = 0; k < 2; k++) {
		sb_printf(c, "\n/* the MMA descriptor's %s enum (data/mma_desc.yaml) */\nconst px_mma_enum %s[] = {\n",
		          k ? "shape" : "element-type", arrays[k]);
		for (size_t i = 0; i < mma_names[k].n; i++)
			sb_printf(c, "\t{%u, %u},\n", tok_id(mma_names[k].v[i]), mma_ids[k][i]);
		if (!mma_names[k].n)
			sb_printf(c, "\t{0, 0},\n");
		sb_printf(c, "};\nconst unsigned %s_n = %zu;\n", arrays[k], mma_names[k].n);
	}
}
