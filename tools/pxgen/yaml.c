/* pxgen: YAML access; every mistake stops the run with `file:line:col: error: ...`
 * naming the node at fault. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pxgen.h"

const yfile *cur;

_Noreturn void fail(const ynode *n, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "%s:%lu:%lu: error: ", cur->path, (unsigned long)n->start_mark.line + 1,
	        (unsigned long)n->start_mark.column + 1);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	foreach_context(stderr);
	fputc('\n', stderr);
	exit(1);
}

ynode *node(int id)
{
	return yaml_document_get_node((yaml_document_t *)&cur->doc, id);
}

const char *scalar(const ynode *n, const char *what)
{
	if (n->type != YAML_SCALAR_NODE)
		fail(n, "%s must be a scalar", what);
	return subst(n, (const char *)n->data.scalar.value);
}

bool is_null(const ynode *n)
{
	if (n->type != YAML_SCALAR_NODE || n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		return false;
	const char *s = (const char *)n->data.scalar.value;
	return !*s || !strcmp(s, "null") || !strcmp(s, "~") || !strcmp(s, "Null") || !strcmp(s, "NULL");
}

unsigned to_uint(const ynode *n, const char *what, unsigned max)
{
	const char *s = scalar(n, what);
	unsigned long v = 0;
	if (!*s)
		fail(n, "%s must be an integer", what);
	for (const char *c = s; *c; c++) {
		if (*c < '0' || *c > '9')
			fail(n, "%s must be an integer, not '%s'", what, s);
		v = v * 10 + (unsigned long)(*c - '0');
		if (v > max)
			fail(n, "%s %s is out of range (at most %u)", what, s, max);
	}
	return (unsigned)v;
}

/* A signed integer: an optional '-' and decimal digits. */
int32_t to_int(const ynode *n, const char *what)
{
	const char *s = scalar(n, what);
	bool neg = *s == '-';
	int64_t v = 0;
	if (!s[neg] || strspn(s + neg, "0123456789") != strlen(s + neg))
		fail(n, "%s must be an integer, not '%s'", what, s);
	for (const char *c = s + neg; *c; c++) {
		v = v * 10 + (*c - '0');
		if (v > INT32_MAX)
			fail(n, "%s %s is out of range", what, s);
	}
	return (int32_t)(neg ? -v : v);
}

bool to_bool(const ynode *n, const char *what)
{
	const char *s = scalar(n, what);
	if (!strcmp(s, "true"))
		return true;
	if (!strcmp(s, "false"))
		return false;
	fail(n, "%s must be true or false, not '%s'", what, s);
}

/* A PTX ISA version written as MAJOR.MINOR with one minor digit: "7.8" -> 78.
 * Read from the scalar text so no floating-point rounding is involved. */
unsigned to_ptx(const ynode *n)
{
	const char *s = scalar(n, "a PTX version");
	unsigned major = 0;
	const char *c = s;
	if (*c < '0' || *c > '9')
		fail(n, "PTX version '%s' must be written MAJOR.MINOR (e.g. 7.8)", s);
	while (*c >= '0' && *c <= '9')
		major = major * 10 + (unsigned)(*c++ - '0');
	if (c[0] != '.' || c[1] < '0' || c[1] > '9' || c[2] || major > 99)
		fail(n, "PTX version '%s' must be written MAJOR.MINOR (e.g. 7.8)", s);
	return major * 10 + (unsigned)(c[1] - '0');
}

void expect(const ynode *n, yaml_node_type_t type, const char *what)
{
	static const char *const names[] = {"", "a scalar", "a list", "a mapping"};
	if (n->type != type)
		fail(n, "%s must be %s", what, names[type]);
}

const char *key_of(const yaml_node_pair_t *p)
{
	return scalar(node(p->key), "a key");
}

ynode *map_get(const ynode *map, const char *key)
{
	MAP_EACH(p, map)
		if (!strcmp(key_of(p), key))
			return node(p->value);
	return NULL;
}

ynode *map_need(const ynode *map, const char *key, const char *what)
{
	ynode *v = map_get(map, key);
	if (!v)
		fail(map, "%s is missing required key '%s'", what, key);
	return v;
}

bool in_list(const char *const *list, const char *s)
{
	for (; *list; list++)
		if (!strcmp(*list, s))
			return true;
	return false;
}

/* Every key of map must be in allowed (NULL-terminated) and appear once.
 * `note` is accepted everywhere as a comment the generator drops. */
void check_keys(const ynode *map, const char *what, const char *const *allowed)
{
	expect(map, YAML_MAPPING_NODE, what);
	MAP_EACH(p, map) {
		const char *k = key_of(p);
		if (strcmp(k, "note") && !in_list(allowed, k))
			fail(node(p->key), "unknown key '%s' in %s", k, what);
		for (yaml_node_pair_t *q = map->data.mapping.pairs.start; q < p; q++)
			if (!strcmp(key_of(q), k))
				fail(node(p->key), "duplicate key '%s' in %s", k, what);
	}
}

/* The root list of a file; an empty file is an empty list. */
ynode *root_list(const char *what)
{
	ynode *r = yaml_document_get_root_node((yaml_document_t *)&cur->doc);
	if (r && !is_null(r))
		expect(r, YAML_SEQUENCE_NODE, what);
	return r && r->type == YAML_SEQUENCE_NODE ? r : NULL;
}

/* A list of scalars (a single scalar is a list of one). */
strs scalar_list(const ynode *n, const char *what)
{
	strs out = {0};
	if (n->type == YAML_SCALAR_NODE) {
		strs_push(&out, scalar(n, what));
		return out;
	}
	expect(n, YAML_SEQUENCE_NODE, what);
	SEQ_EACH(it, n)
		strs_push(&out, scalar(node(*it), what));
	return out;
}

static bool is_identifier(const char *s)
{
	if (!*s || (*s >= '0' && *s <= '9'))
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '_'))
			return false;
	return true;
}

const char *identifier(const ynode *n, const char *what)
{
	const char *s = scalar(n, what);
	if (!is_identifier(s))
		fail(n, "%s '%s' must be a C identifier", what, s);
	return s;
}
