/* A function's value names (front/valmap.c): every name gets one id, the
 * first time it is asked for, and the same id every time after, in a small
 * map and in a big one, where a table of recent names stands in front of the
 * slots and many names share an entry of it; and so for counted names (a
 * prefix and a counter), which take a table per prefix instead of the slots:
 * one prefix, many prefixes, and counted names among names that only look
 * counted (a leading zero, a counter too long or too big). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "front/ir.h"
#include "front/valmap.h"
#include "suites.h"

typedef struct names {
	px_valmap map;
	px_value *values;
	char *text; /* the names, 12 bytes apart */
	uint32_t n, count;
} names;

/* How the i-th name is spelled. */
enum spelling { COUNTED, UNCOUNTED, ROWS, MIXED };

static void spell(char *buf, enum spelling how, uint32_t i)
{
	switch (how) {
	case COUNTED: /* one prefix */
		snprintf(buf, 12, "v%u", i);
		break;
	case UNCOUNTED: /* no digits at the end */
		snprintf(buf, 12, "v%ux", i);
		break;
	case ROWS: /* a prefix per row */
		snprintf(buf, 12, "w%u_%u", i / 32, i % 32);
		break;
	case MIXED: /* r4 and r04 are two names; 4194303 is counted, 4194304 and 4294967296 are not */
		if (i % 4 == 0)
			snprintf(buf, 12, "r%u", i);
		else if (i % 4 == 1)
			snprintf(buf, 12, "r0%u", i - 1);
		else if (i % 4 == 2)
			snprintf(buf, 12, "%u", i);
		else if (i % 8 == 3)
			snprintf(buf, 12, "%u", i + 4194300);
		else /* ten digits: their value would wrap to i - 5, another name's */
			snprintf(buf, 12, "%llu", (unsigned long long)i + 4294967291ull);
		break;
	}
}

static void names_init(names *t, uint32_t n, enum spelling how)
{
	px_valmap_init(&t->map);
	t->values = calloc(n, sizeof *t->values);
	t->text = malloc((size_t)n * 12);
	ck_assert(t->values && t->text);
	for (uint32_t i = 0; i < n; i++)
		spell(t->text + (size_t)i * 12, how, i);
	t->n = n;
	t->count = 0;
}

static void names_free(names *t)
{
	px_valmap_free(&t->map);
	free(t->values);
	free(t->text);
}

/* The id of name i, entered the way the parser enters a new value. */
static uint32_t id_of(names *t, uint32_t i)
{
	const char *s = t->text + (size_t)i * 12;
	uint32_t len = (uint32_t)strlen(s);
	uint32_t id = px_valmap_put(&t->map, t->values, s, len, t->count);
	if (id == t->count) {
		t->values[id].name = (px_str){s, len};
		t->count++;
	}
	return id;
}

static void check_map(uint32_t n, enum spelling how)
{
	names t;
	names_init(&t, n, how);
	/* first asked in an order of their own: ids are handed out in that order */
	uint32_t step = 7919; /* prime, so i * step covers 0 .. n-1 once when n is not a multiple */
	ck_assert_uint_ne(n % step, 0);
	uint32_t *id = malloc(n * sizeof *id);
	ck_assert_ptr_nonnull(id);
	for (uint32_t k = 0; k < n; k++) {
		uint32_t i = (uint32_t)((uint64_t)k * step % n);
		ck_assert_uint_eq(id_of(&t, i), k);
		id[i] = k;
		/* a use of a name defined just before, and of one long before */
		ck_assert_uint_eq(id_of(&t, i), k);
		uint32_t old = (uint32_t)((uint64_t)(k / 2) * step % n);
		ck_assert_uint_eq(id_of(&t, old), id[old]);
	}
	ck_assert_uint_eq(t.count, n);
	/* every name again, in text order and backwards: no new ids */
	for (uint32_t i = 0; i < n; i++)
		ck_assert_uint_eq(id_of(&t, i), id[i]);
	for (uint32_t i = n; i-- > 0;)
		ck_assert_uint_eq(id_of(&t, i), id[i]);
	ck_assert_uint_eq(t.count, n);
	free(id);
	names_free(&t);
}

START_TEST(small_map) { check_map(1000, UNCOUNTED); }
END_TEST

/* Past the size at which the recent table is made (64 Ki slots). */
START_TEST(big_map) { check_map(200003, UNCOUNTED); }
END_TEST

START_TEST(counted_names) { check_map(200003, COUNTED); }
END_TEST

START_TEST(row_names) { check_map(200003, ROWS); }
END_TEST

/* Past COUNTED_MAX (1 << 22) and into ten digits. */
START_TEST(mixed_names) { check_map(200003, MIXED); }
END_TEST

Suite *valmap_suite(void)
{
	Suite *s = suite_create("valmap");
	TCase *tc = tcase_create("names");
	tcase_add_test(tc, small_map);
	tcase_add_test(tc, big_map);
	tcase_add_test(tc, counted_names);
	tcase_add_test(tc, row_names);
	tcase_add_test(tc, mixed_names);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);
	return s;
}
