/* loc statements: where in the generator's source the statements that
 * follow come from, for PTX's .loc and for messages about those lines. */
#include <string.h>

#include "front/build.h"

/* loc "file" LINE[:COL]: the statements that follow are attributed to that
 * place in the generator's source (PTX .loc) until the next loc or loc off.
 * The file table lives as long as the module; each name is kept once. */
void px_srcloc_set(px_parser *P, px_tok file, px_tok line, const px_tok *col)
{
	px_module *m = P->m;
	px_str name = px_unescape(&P->tmp, file); /* the printer escapes it again for PTX */
	if (line.neg || line.i < 1 || line.i > UINT32_MAX) {
		PX_PERR(P, line.loc, PX_D_loc_line, (int)line.s.n, line.s.s);
		return;
	}
	if (col && (col->neg || col->i > UINT32_MAX)) {
		PX_PERR(P, col->loc, PX_D_loc_column, (int)col->s.n, col->s.s);
		return;
	}
	uint32_t id = 0;
	for (uint32_t i = 0; i < m->nlocfiles; i++)
		if (m->locfiles[i].n == name.n && memcmp(m->locfiles[i].s, name.s, name.n) == 0)
			id = i + 1;
	if (!id) {
		if (m->nlocfiles == m->cap_locfiles) {
			uint32_t cap = m->cap_locfiles ? 2 * m->cap_locfiles : 8;
			px_str *grown = px_arena_alloc(&m->arena, cap * sizeof *grown);
			if (m->nlocfiles)
				memcpy(grown, m->locfiles, m->nlocfiles * sizeof *grown);
			m->locfiles = grown;
			m->cap_locfiles = cap;
		}
		char *copy = px_arena_alloc(&m->arena, name.n + 1);
		memcpy(copy, name.s, name.n);
		copy[name.n] = '\0';
		m->locfiles[m->nlocfiles++] = (px_str){copy, name.n};
		id = m->nlocfiles;
	}
	P->dloc = (px_dloc){id, (uint32_t)line.i, col ? (uint32_t)col->i : 0};
	P->dloc_id = 0;
	px_dslmap_mark(&m->dsl, file.loc, m->locfiles[id - 1].s, P->dloc.line, P->dloc.col);
}

void px_srcloc_off(px_parser *P, px_tok word)
{
	if (word.s.n != 3 || memcmp(word.s.s, "off", 3) != 0) {
		PX_PERR(P, word.loc, PX_D_loc_syntax, (int)word.s.n, word.s.s);
		return;
	}
	P->dloc = (px_dloc){0, 0, 0};
	P->dloc_id = 0;
	px_dslmap_mark(&P->m->dsl, word.loc, NULL, 0, 0);
}

/* The loc statement in force, entered in the function's table when the
 * first statement after it takes it: nodes keep its index. */
uint32_t px_srcloc_index(px_parser *P)
{
	px_func *f = P->f;
	if (!P->dloc.file)
		return 0;
	if (!P->dloc_id) {
		if (f->ndlocs == f->cap_dlocs) {
			uint32_t cap = f->cap_dlocs ? f->cap_dlocs * 2 : 8;
			f->dlocs = px_arena_grow(&P->m->fn_arena, f->dlocs, f->ndlocs, cap, sizeof *f->dlocs);
			f->cap_dlocs = cap;
		}
		f->dlocs[f->ndlocs++] = P->dloc;
		P->dloc_id = f->ndlocs;
	}
	return P->dloc_id;
}
