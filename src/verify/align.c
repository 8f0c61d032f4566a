/* A variable's alignment (verify/align.h). */
#include "verify/align.h"

#include "tables/tables.h"

uint32_t px_symbol_align(const px_global *g)
{
	unsigned size = px_types[g->type].width / 8;
	return g->align ? g->align : size ? size : 1;
}

const px_global *px_global_named(const px_module *m, px_str name)
{
	uint32_t e = px_module_sym(m, name);
	return e == PX_STRMAP_NONE || (e & 1) ? NULL : &m->globals[e >> 1];
}
