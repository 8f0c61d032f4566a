/* The register model: a value's type picks its class (seed 000); numbering is
 * per width, so the %f view shares %r's numbers and %fd shares %rd's; each
 * printed class declares as many registers as its highest number needs. */
#include <stdlib.h>
#include <string.h>

#include "isel/isel.h"

uint8_t px_rc_of_type(int type)
{
	const px_type_info *t = &px_types[type];
	if (!t->float_view)
		return t->regclass;
	for (unsigned c = 0; c < px_nregclasses; c++)
		if (px_regclasses[c].view_of == t->regclass)
			return (uint8_t)c;
	return t->regclass;
}

static uint8_t numbering_of(uint8_t rc)
{
	uint8_t base = px_regclasses[rc].view_of;
	return base == 0xff ? rc : base;
}

uint32_t px_new_reg(px_isel *s, int type, uint32_t count)
{
	uint8_t rc = px_rc_of_type(type);
	uint8_t base = numbering_of(rc);
	uint32_t r = s->next[base];
	s->next[base] += count ? count : 1;
	if (s->mf.nregs[rc] < s->next[base])
		s->mf.nregs[rc] = s->next[base];
	return r;
}

px_mop px_reg_mop(px_isel *s, int type, uint32_t reg)
{
	(void)s;
	px_mop m;
	memset(&m, 0, sizeof m);
	m.kind = PX_M_REG;
	m.rc = px_rc_of_type(type);
	m.reg = reg;
	return m;
}

uint32_t px_value_reg(px_isel *s, uint32_t value)
{
	if (s->vreg[value] == UINT32_MAX) {
		const px_value *v = &s->f->values[value];
		s->vreg[value] = px_new_reg(s, v->type, v->count);
	}
	return s->vreg[value];
}
