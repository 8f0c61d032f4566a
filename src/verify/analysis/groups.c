/* Operations committed in groups and waited for by count (see groups.h). */
#include "verify/analysis/groups.h"

#include <string.h>

/* A wait's count is at most this deep a plane: a larger one (past any the
 * ISA allows) leaves the deepest plane pending, which only says more. */
enum { DEEPEST = 63 };

void px_groups_init(px_groups *q, size_t base, uint32_t nitems, const px_cfg *g, uint64_t wait)
{
	uint64_t most = 0;
	for (uint32_t k = px_cfg_next(g, 0, wait); k < g->nstmts; k = px_cfg_next(g, k + 1, wait)) {
		const px_node *n = g->stmt[k];
		if (n->nops && n->ops[0].kind == PX_O_INT && (uint64_t)n->ops[0].ival > most)
			most = (uint64_t)n->ops[0].ival;
	}
	q->base = base;
	q->pw = px_bits_words(nitems);
	q->deep = most + 1 < DEEPEST ? (unsigned)most + 1 : DEEPEST;
}

void px_groups_issue(const px_groups *q, uint64_t *s, uint32_t i)
{
	s[q->base + (i >> 6)] |= (uint64_t)1 << (i & 63);
}

void px_groups_commit(const px_groups *q, uint64_t *s)
{
	uint64_t *p = s + q->base;
	for (size_t k = 0; k < q->pw; k++)
		p[q->deep * q->pw + k] |= p[(q->deep - 1) * q->pw + k];
	memmove(p + q->pw, p, (q->deep - 1) * q->pw * 8);
	memset(p, 0, q->pw * 8);
}

void px_groups_wait(const px_groups *q, uint64_t *s, uint64_t n, bool all)
{
	uint64_t from = all ? 0 : n + 1;
	if (from <= q->deep)
		memset(s + q->base + from * q->pw, 0, (q->deep + 1 - from) * q->pw * 8);
}

bool px_groups_pending(const px_groups *q, const uint64_t *s, uint32_t i)
{
	for (unsigned d = 0; d <= q->deep; d++)
		if (s[q->base + d * q->pw + (i >> 6)] >> (i & 63) & 1)
			return true;
	return false;
}
