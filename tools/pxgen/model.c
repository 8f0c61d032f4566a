/* pxgen: the model the readers fill, and the lookups they share. */
#define _POSIX_C_SOURCE 200809L
#include <string.h>

#include "pxgen.h"

const char *const type_kinds[] = {"none", "pred", "bit", "uint", "sint", "float", "ptr", NULL};
const char *const opnd_kinds[] = {"value", "reg", "imm", "addr", "label", "pred", "sym", NULL};
const char *const layer_names[] = {"chain", "vector", "match", NULL};
const char *const shape_names[] = {"plain", "branch", "pseudo", NULL};
/* A state space's spelling and, at the same index, its enum px_addr_space constant. */
const char *const space_names[] = {"generic", "global", "shared", "shared::cluster", "const", "local",
                                   "param", "tmem", NULL};
const char *const space_consts[] = {"GENERIC", "GLOBAL", "SHARED", "CLUSTER", "CONST", "LOCAL", "PARAM", "TMEM"};

struct model M;

unsigned default_ptx(void)
{
	return M.nptx ? M.ptx_versions[0] : 60;
}

unsigned type_index(const char *name)
{
	for (size_t i = 0; i < M.ntypes; i++)
		if (!strcmp(M.types[i].name, name))
			return (unsigned)i + 1;
	return 0;
}

unsigned rc_by_name(const ynode *n)
{
	const char *s = scalar(n, "a register class");
	for (size_t i = 0; i < M.nrc; i++)
		if (!strcmp(M.rc[i].name, s))
			return M.rc[i].id;
	fail(n, "unknown register class '%s'", s);
}

void add_token(const char *t)
{
	if (strs_find(&M.toks, t) < 0)
		strs_push(&M.toks, t);
}

void read_window(const ynode *map, unsigned *sm, unsigned *ptx)
{
	const ynode *v;
	*sm = (v = map_get(map, "sm")) ? to_uint(v, "sm", 1000) : DEFAULT_SM;
	*ptx = (v = map_get(map, "ptx")) ? to_ptx(v) : default_ptx();
	if ((v = map_get(map, "ptx")) && M.nptx) {
		bool known = false;
		for (size_t i = 0; i < M.nptx; i++)
			known |= M.ptx_versions[i] == *ptx;
		if (!known)
			fail(v, "PTX version %u.%u is not in targets.yaml's ptx_versions", *ptx / 10, *ptx % 10);
	}
}
