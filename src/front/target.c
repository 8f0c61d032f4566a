/* The module's target line, which a module writes once. */
#include "front/build.h"

/* `target sm_80 ptx 7.4`: the version is major.minor with one minor digit. */
void px_target_line(px_parser *P, px_tok name, const px_tok *ptx)
{
	px_module *m = P->m;
	if (m->target.n) {
		PX_PERR(P, name.loc, PX_D_target_repeated, px_module_line(m, m->target_loc));
		return;
	}
	m->target = name.s;
	m->target_loc = name.loc;
	if (!ptx)
		return;
	const char *s = ptx->s.s;
	uint32_t n = ptx->s.n, major = 0, k = 0;
	while (k < n && k < 4 && s[k] >= '0' && s[k] <= '9')
		major = major * 10 + (uint32_t)(s[k++] - '0');
	if (k == 0 || k == 4 || n != k + 2 || s[k] != '.' || s[k + 1] < '0' || s[k + 1] > '9') {
		PX_PERR(P, ptx->loc, PX_D_ptx_version, (int)n, s);
		return;
	}
	m->ptx = (uint16_t)(major * 10 + (uint32_t)(s[k + 1] - '0'));
	m->ptx_loc = ptx->loc;
}
