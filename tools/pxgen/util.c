/* pxgen: memory, growable arrays and string buffers. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pxgen.h"

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p) {
		perror("pxgen");
		exit(1);
	}
	return p;
}

char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(xrealloc(NULL, n), s, n);
}
/* Room for one more element in a growable array of elsize-byte elements. */
/* The room beyond n is zeroed: a row PUSH hands out starts with every field
 * empty, as the readers that set some fields and or into others expect. */
void *grow(void *v, size_t *cap, size_t n, size_t elsize)
{
	if (n < *cap)
		return v;
	size_t old = *cap;
	*cap = *cap ? *cap * 2 : 16;
	char *p = xrealloc(v, *cap * elsize);
	memset(p + old * elsize, 0, (*cap - old) * elsize);
	return p;
}

void strs_push(strs *s, const char *str)
{
	*PUSH(s->v, s->n, s->cap) = str;
}

void strs_free(strs *s)
{
	free(s->v);
	free(s);
}

int strs_find(const strs *s, const char *str)
{
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->v[i], str) == 0)
			return (int)i;
	return -1;
}

void sb_printf(sbuf *b, const char *fmt, ...)
{
	for (;;) {
		va_list ap;
		va_start(ap, fmt);
		int need = vsnprintf(b->p ? b->p + b->n : NULL, b->cap - b->n, fmt, ap);
		va_end(ap);
		if ((size_t)need < b->cap - b->n) {
			b->n += (size_t)need;
			return;
		}
		b->cap = (b->cap + (size_t)need + 1) * 2;
		b->p = xrealloc(b->p, b->cap);
	}
}

/* A C string literal for s: quotes, backslashes and bytes outside printable
 * ASCII escaped (octal, so a following digit cannot extend the escape). */
void sb_cstr(sbuf *b, const char *s)
{
	if (!s) {
		sb_printf(b, "NULL");
		return;
	}
	sb_printf(b, "\"");
	for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
		if (*c == '"' || *c == '\\')
			sb_printf(b, "\\%c", *c);
		else if (*c < 0x20 || *c >= 0x7f)
			sb_printf(b, "\\%03o", *c);
		else
			sb_printf(b, "%c", *c);
	}
	sb_printf(b, "\"");
}

/* The C identifier suffix of a spelling: every character outside [A-Za-z0-9] becomes '_'. */
char *sanitize(const char *s)
{
	char *out = xstrdup(s);
	for (char *c = out; *c; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9')))
			*c = '_';
	return out;
}

int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}
