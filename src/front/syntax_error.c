/* The message of a syntax error, given by the parser with lookahead
 * correction: the token met, and the tokens that could have come instead
 * (grammar/parser.y names both). */
#include <stdio.h>

#include "front/build.h"

/* Whether a syntax error gets its message: a line already reported whole
 * gets none, and the end of the file inside a body names the open function. */
bool px_syntax_error_due(px_parser *P, bool at_eof)
{
	px_loc loc = P->last_loc; /* the lookahead is the last token read */
	if (P->quiet && px_loc_known(loc) && px_line_key(P->m, loc) == P->quiet)
		return false;
	if (at_eof && P->in_body && P->f && P->f->name.n) {
		PX_PERR(P, P->f->loc, PX_D_eof_in_body, (int)P->f->name.n, P->f->name.s);
		return false;
	}
	return true;
}

/* "name 'foo'" for a token shown with its own text, the token's name otherwise. */
static void describe(char *buf, size_t size, px_str name, px_str text)
{
	if (!text.s) {
		snprintf(buf, size, "%.*s", (int)name.n, name.s);
		return;
	}
	/* A token may be megabytes long; the message shows its start. */
	int shown = text.n > 40 ? 40 : (int)text.n;
	snprintf(buf, size, "%.*s '%.*s%s'", (int)name.n, name.s, shown, text.s, text.n > 40 ? "..." : "");
}

/* The lookahead (the last token read) and, when there are any, the expected
 * tokens: at most a handful, or the list would say nothing. */
void px_syntax_error(px_parser *P, px_str tok_name, bool tok_shown, const px_str *expected, int nexpected)
{
	px_loc loc = P->last_loc;
	char what[128];
	describe(what, sizeof what, tok_name, tok_shown ? P->last_text : (px_str){0});
	if (nexpected <= 0) {
		PX_PERR(P, loc, PX_D_syntax_unexpected, what);
		return;
	}
	char list[256];
	size_t len = 0;
	for (int i = 0; i < nexpected; i++) {
		char one[64];
		describe(one, sizeof one, expected[i], (px_str){0});
		const char *sep = i == 0 ? "" : i == nexpected - 1 ? " or " : ", ";
		int w = snprintf(list + len, sizeof list - len, "%s%s", sep, one);
		if (w > 0 && (size_t)w < sizeof list - len)
			len += (size_t)w;
	}
	PX_PERR(P, loc, PX_D_syntax_expected, what, list);
}
