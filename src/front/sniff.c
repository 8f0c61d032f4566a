/* What the input looks like when it is not MIR. Binary data and bytes that are
 * not UTF-8 are described, never quoted: echoing them could drive a terminal.
 * PTX and C are recognized by their first line that is not blank or a
 * comment, so that a MIR file with a stray "//" still gets the parser's
 * precise errors. */
#include "front/sniff.h"

#include <stdint.h>
#include <string.h>

#include "tables/tables.h"
#include "util/utf8.h"

/* A byte that is text in itself and changes no state of px_sniff's walk:
 * printable ASCII but for '"', ';' and '\\', or a spacing control but the
 * line feed. */
static inline bool plain(unsigned char c)
{
	if (c >= 0x20)
		return c < 0x7f && c != '"' && c != ';' && c != '\\';
	return c >= '\t' && c <= '\r' && c != '\n';
}

/* Whether none of the eight bytes of w is other than plain printable ASCII
 * (0x20 to 0x7e but '"', ';' and '\\'): most of a module passes eight bytes
 * a step here, and the byte test finds where a run ends. Each test is exact
 * for whether some byte qualifies (not for which one). */
static inline bool word_plain(uint64_t w)
{
	const uint64_t ones = 0x0101010101010101u, high = ones * 0x80;
	uint64_t below = (w - ones * 0x20) & ~w;        /* a byte < 0x20 */
	uint64_t above = (w + ones * (0x7f - 0x7e)) | w; /* a byte > 0x7e */
	uint64_t q = w ^ ones * '"', c = w ^ ones * ';', b = w ^ ones * '\\';
	uint64_t special = ((q - ones) & ~q) | ((c - ones) & ~c) | ((b - ones) & ~b);
	return !((below | above | special) & high);
}

/* A control character that has no place in text (tab, line feed, vertical
 * tab, form feed and carriage return do). */
static bool control(unsigned char c)
{
	return (c < 0x20 && !(c >= '\t' && c <= '\r')) || c == 0x7f;
}

/* Whether a NUL or another control byte follows in [p, end) before the line
 * ends: a NUL with such company (UTF-16 text, a binary file) is binary data,
 * not a stray byte in text. */
static bool control_after(const unsigned char *p, const unsigned char *end)
{
	for (; p < end && *p != '\n'; p++)
		if (*p == 0 || control(*p))
			return true;
	return false;
}

static bool starts(const char *p, size_t n, const char *word)
{
	size_t k = strlen(word);
	return n >= k && memcmp(p, word, k) == 0 &&
	       (n == k || p[k] == ' ' || p[k] == '\t' || p[k] == '\r' || p[k] == '(' || p[k] == '<' ||
	        p[k] == '"' || p[k] == '{');
}

static const char *const ptx_words[] = {".version", ".target", ".address_size", ".entry",
                                        ".visible", ".func",   ".extern",        ".global",
                                        ".const",   ".shared", ".weak",          NULL};
static const char *const c_words[] = {"#include", "#define", "#pragma", "#if", "#ifdef", "#ifndef",
                                      "__global__", "__device__", "extern \"C\"", "typedef", "struct",
                                      "static", "void", "int", "template", "namespace", NULL};

/* Whether "* /" (without the space) closes a block comment in [p, end). */
static bool closes(const char *p, const char *end)
{
	for (; p + 1 < end; p++)
		if (p[0] == '*' && p[1] == '/')
			return true;
	return false;
}

static const char *first_word(const char *p, size_t n, const char *const *words)
{
	for (const char *const *w = words; *w; w++)
		if (starts(p, n, *w))
			return *w;
	return NULL;
}

bool px_sniff(px_diags *d, const char **srcp, size_t *lenp)
{
	const unsigned char *s = (const unsigned char *)*srcp;
	size_t n = *lenp;
	if (n >= 3 && s[0] == 0xef && s[1] == 0xbb && s[2] == 0xbf) {
		*srcp += 3;
		*lenp -= 3;
		s += 3;
		n -= 3;
		/* places count from the text after it, and a message shows that text's lines */
		d->src = *srcp;
		d->len = *lenp;
	}
	if (n >= 2 && ((s[0] == 0xff && s[1] == 0xfe) || (s[0] == 0xfe && s[1] == 0xff))) {
		px_error_noloc(d, PX_D_not_mir_utf16);
		return true;
	}
	if (n >= 4 && memcmp(s, "\x7f" "ELF", 4) == 0) {
		px_error_noloc(d, PX_D_not_mir_elf);
		return true;
	}
	/* A comment may hold any bytes (a Latin-1 name, a stray NUL): the
	 * lexer skips it unread. Outside comments, and strings, where ';' does not
	 * start one, every byte must be text. */
	uint32_t line = 1, col = 1;
	bool comment = false, string = false;
	for (size_t i = 0; i < n;) {
		/* most bytes are printable ASCII that changes no state: a run of
		 * them is counted in one pass (a comment's, up to the line end) */
		size_t run = i;
		if (comment) {
			const unsigned char *nl = memchr(s + i, '\n', n - i);
			i = nl ? (size_t)(nl - s) : n;
		} else {
			uint64_t w;
			while (i + 8 <= n && (memcpy(&w, s + i, 8), word_plain(w)))
				i += 8;
			while (i < n && plain(s[i]))
				i++;
		}
		col += (uint32_t)(i - run);
		if (i == n)
			break;
		if (s[i] == '\n') {
			comment = string = false;
		} else if (comment) {
			col++;
			i++;
			continue;
		} else if (string && s[i] == '\\' && i + 1 < n && s[i + 1] != '\n') {
			col++;
			i++; /* the escaped byte is checked below */
		} else if (s[i] == '"') {
			string = !string;
		} else if (!string && s[i] == ';') {
			comment = true;
			col++;
			i++;
			continue;
		}
		if (s[i] == 0 && !control_after(s + i + 1, s + n)) {
			/* a NUL alone among the text of its line is a stray byte in a
			 * text file: the lexer reports it at its place and reads on */
			col++;
			i++;
			continue;
		}
		if (s[i] == 0 || control(s[i])) {
			px_error_noloc(d, PX_D_not_mir_binary, s[i], line, col);
			return true;
		}
		size_t k = px_utf8_len(s + i, n - i);
		if (k == 0) {
			px_loc loc = px_loc_at((uint32_t)i);
			px_error_unquoted(d, loc, PX_D_not_utf8, s[i]);
			return true;
		}
		if (s[i] == '\n')
			line++, col = 1;
		else
			col += (uint32_t)k;
		i += k;
	}

	/* the first line that is neither blank nor a comment of MIR, PTX or C */
	const char *p = *srcp, *end = *srcp + n;
	bool in_block = false;
	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		if (!eol)
			eol = end;
		const char *q = p;
		while (q < eol && (*q == ' ' || *q == '\t' || *q == '\r'))
			q++;
		size_t rest = (size_t)(eol - q);
		if (in_block) {
			in_block = !closes(q, eol);
		} else if (rest == 0 || *q == ';' || (rest >= 2 && q[0] == '/' && q[1] == '/')) {
			/* blank or a comment */
		} else if (rest >= 2 && q[0] == '/' && q[1] == '*') {
			in_block = !closes(q + 2, eol);
		} else {
			px_loc loc = px_loc_at((uint32_t)(q - *srcp));
			const char *w;
			if ((w = first_word(q, rest, ptx_words))) {
				px_error(d, loc, PX_D_not_mir_ptx, w);
				return true;
			}
			if ((w = first_word(q, rest, c_words))) {
				px_error(d, loc, PX_D_not_mir_c, w);
				return true;
			}
			return false;
		}
		p = eol + 1;
	}
	return false;
}
