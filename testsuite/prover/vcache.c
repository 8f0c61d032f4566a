/* The verdict cache: one file of "KEY VERDICT" lines that any number of
 * proofs, in any number of build trees, read and append to at once (the
 * format the shell proofs kept, so that a cache they filled serves).
 *
 * A writer appends each verdict (or a batch of lines) in one write under an exclusive
 * flock on the file itself (the lock flock(1) takes, so a shell writer and
 * the prover exclude each other). A reader takes no lock: it believes only
 * well-formed lines whose key no other line contradicts, so a torn, merged
 * or duplicated line never decides a verdict; a key left without one is
 * asked of ptxas again. */
#define _DEFAULT_SOURCE /* flock */
#include "prover.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

/* the value of a key whose lines disagree */
static char disagree[] = "";

static bool hexes(const char *s, const char *e)
{
	if (s == e)
		return false;
	for (; s < e; s++)
		if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f')))
			return false;
	return true;
}

/* HEX:sm_[0-9a-z]+:HEX */
static bool key_wellformed(const char *s, const char *e)
{
	const char *c1 = memchr(s, ':', (size_t)(e - s));
	if (!c1 || !hexes(s, c1) || e - c1 < 4 || memcmp(c1 + 1, "sm_", 3) != 0)
		return false;
	const char *a = c1 + 4, *c2 = a;
	while (c2 < e && ((*c2 >= '0' && *c2 <= '9') || (*c2 >= 'a' && *c2 <= 'z')))
		c2++;
	return c2 > a && c2 < e && *c2 == ':' && hexes(c2 + 1, e);
}

static bool verdict_wellformed(const char *s, const char *e)
{
	size_t n = (size_t)(e - s);
	if ((n == 2 && memcmp(s, "ok", 2) == 0) || (n == 2 && memcmp(s, "no", 2) == 0))
		return true;
	if (n < 4 || memcmp(s, "no:", 3) != 0)
		return false;
	bool digit = false;
	for (s += 3; s < e; s++) {
		if (*s >= '0' && *s <= '9')
			digit = true;
		else if (*s == ',' && digit)
			digit = false;
		else
			return false;
	}
	return digit;
}

bool pv_verdict_wellformed(const char *v) { return verdict_wellformed(v, v + strlen(v)); }

static bool blank(char c) { return c == ' ' || c == '\t'; }

void pv_cache_load(const char *path, pv_map *verdicts)
{
	size_t len;
	char *text = pv_read_file(path, &len);
	if (!text)
		return;
	for (char *l = text; l < text + len;) {
		char *end = memchr(l, '\n', (size_t)(text + len - l));
		if (!end)
			end = text + len;
		/* two fields, blank-separated, as awk splits them */
		const char *f[3][2];
		int nf = 0;
		for (const char *p = l; p < end && nf < 3;) {
			while (p < end && blank(*p))
				p++;
			if (p == end)
				break;
			f[nf][0] = p;
			while (p < end && !blank(*p))
				p++;
			f[nf++][1] = p;
		}
		if (nf == 2 && key_wellformed(f[0][0], f[0][1]) && verdict_wellformed(f[1][0], f[1][1])) {
			*(char *)f[0][1] = '\0';
			size_t vn = (size_t)(f[1][1] - f[1][0]);
			bool fresh;
			void **slot = pv_map_slot(verdicts, f[0][0], &fresh);
			if (fresh) {
				char *v = pv_alloc(vn + 1);
				memcpy(v, f[1][0], vn);
				*slot = v;
			} else if (*slot != disagree && (strlen(*slot) != vn || memcmp(*slot, f[1][0], vn) != 0)) {
				free(*slot);
				*slot = disagree;
			}
		}
		l = end + 1;
	}
	free(text);
}

const char *pv_cache_get(const pv_map *verdicts, const char *key)
{
	const char *v = pv_map_get(verdicts, key);
	return v == disagree ? NULL : v;
}

void pv_cache_free(pv_map *verdicts)
{
	for (size_t i = 0; i < verdicts->cap; i++)
		if (verdicts->keys[i] && verdicts->vals[i] != disagree)
			free(verdicts->vals[i]);
	pv_map_free(verdicts);
}

int pv_cache_append(const char *path, const char *text, size_t len)
{
	int fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0644);
	if (fd < 0)
		return -1;
	int st = 0;
	while (flock(fd, LOCK_EX) != 0)
		if (errno != EINTR) {
			st = -1;
			break;
		}
	/* O_APPEND: every piece lands at the end, the lock keeps others out */
	while (st == 0 && len) {
		ssize_t w = write(fd, text, len);
		if (w < 0 && errno != EINTR)
			st = -1;
		else if (w > 0)
			text += w, len -= (size_t)w;
	}
	if (close(fd) != 0) /* closing releases the lock */
		st = -1;
	return st;
}
