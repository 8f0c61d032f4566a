/* The page pool (util/pages.c) and what draws on it: arena blocks and the
 * growing tables (util/huge.c). Memory a translation gives back is reused by
 * the next, on any thread, so each reuse must hand out what its contract
 * says (an arena's memory zeroed, a table's old bytes kept), never the same
 * memory twice, and the pool must stay within its bound. */
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "suites.h"
#include "util/arena.h"
#include "util/huge.h"
#include "util/pages.h"

static size_t page(void) { return (size_t)sysconf(_SC_PAGESIZE); }

static int all_bytes(const unsigned char *p, size_t n, unsigned char v)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != v)
			return 0;
	return 1;
}

/* A freed arena's blocks go to the pool; the next arena takes them and its
 * memory reads as zero although the first one wrote all over it. */
START_TEST(arena_blocks_reused_zeroed)
{
	enum { N = 300, SZ = 1000 };
	px_arena a;
	px_arena_init(&a);
	for (int i = 0; i < N; i++)
		memset(px_arena_alloc(&a, SZ), 0xa5, SZ);
	memset(px_arena_alloc(&a, 100000), 0xa5, 100000); /* a block of its own */
	size_t before = px_pages_pooled(NULL);
	px_arena_free(&a);
	size_t pooled = px_pages_pooled(NULL);
	ck_assert_uint_gt(pooled, before + N * SZ);
	px_arena b;
	px_arena_init(&b);
	for (int i = 0; i < N; i++)
		ck_assert(all_bytes(px_arena_alloc(&b, SZ), SZ, 0));
	ck_assert(all_bytes(px_arena_alloc(&b, 100000), 100000, 0));
	ck_assert_uint_lt(px_pages_pooled(NULL), pooled); /* taken, not mapped afresh */
	px_arena_free(&b);
}
END_TEST

/* A table handed out without zeroing (px_arena_array) is written all over;
 * once the arena is reset, the zeroed allocations that take its bytes read
 * zero: the block's clean mark counts what the table dirtied. */
START_TEST(arena_array_dirties)
{
	enum { N = 5000, SZ = 64 };
	px_arena a;
	px_arena_init(&a);
	uint32_t *t = px_arena_array(&a, N, sizeof *t);
	memset(t, 0xa5, N * sizeof *t);
	px_arena_reset(&a);
	for (int i = 0; i < N * (int)sizeof *t / SZ; i++)
		ck_assert(all_bytes(px_arena_alloc(&a, SZ), SZ, 0));
	px_arena_reset(&a);
	ck_assert(all_bytes(px_arena_calloc(&a, N, sizeof *t), N * sizeof *t, 0));
	px_arena_free(&a);
}
END_TEST

/* Releasing to a mark keeps what came before it (a small allocation in the
 * head block, and a large one that got a block of its own behind it) and
 * hands the rest out again, zeroed: the blocks after the mark are kept for
 * reuse. Marks nest. */
START_TEST(arena_mark_release)
{
	enum { SZ = 1000, BIG = 100000 };
	px_arena a;
	px_arena_init(&a);
	unsigned char *kept = px_arena_alloc(&a, SZ);
	memset(kept, 0x11, SZ);
	px_arena_mark outer = px_arena_mark_now(&a);
	for (int round = 0; round < 3; round++) {
		for (int i = 0; i < 200; i++)
			ck_assert(all_bytes(memset(px_arena_alloc(&a, SZ), 0x22, SZ), SZ, 0x22));
		unsigned char *big = px_arena_alloc(&a, BIG); /* behind the head block */
		ck_assert(all_bytes(big, BIG, 0));
		memset(big, 0x33, BIG);
		px_arena_mark inner = px_arena_mark_now(&a);
		memset(px_arena_alloc(&a, BIG), 0x44, BIG);
		px_arena_release(&a, inner);
		ck_assert(all_bytes(big, BIG, 0x33)); /* before the inner mark: kept */
		px_arena_release(&a, outer);
		ck_assert(all_bytes(kept, SZ, 0x11));
	}
	/* after the mark the arena hands out zeroed memory again */
	ck_assert(all_bytes(px_arena_alloc(&a, 3 * SZ), 3 * SZ, 0));
	ck_assert(all_bytes(kept, SZ, 0x11));
	px_arena_release(&a, (px_arena_mark){0}); /* the mark of an empty arena */
	ck_assert_ptr_null(a.head);
	ck_assert(all_bytes(px_arena_alloc(&a, SZ), SZ, 0));
	px_arena_free(&a);
}
END_TEST

/* A mapping comes back with the clean mark it was given back with, only to a
 * request it fits, and only once. */
START_TEST(pool_fits_and_marks)
{
	size_t pg = page(), n = 37 * pg, clean;
	unsigned char *p = px_pages_get(&n, 0, false, &clean);
	ck_assert_ptr_nonnull(p);
	ck_assert_uint_eq(n, 37 * pg);
	ck_assert_uint_eq(clean, 0);
	ck_assert(all_bytes(p, n, 0)); /* fresh */
	memset(p, 0xff, 5 * pg);
	px_pages_put(p, n, 5 * pg);
	size_t small = 36 * pg; /* at most 36 pages: not that one */
	unsigned char *q = px_pages_get(&small, 36 * pg, false, &clean);
	ck_assert_ptr_ne(q, p);
	px_pages_put(q, small, clean);
	size_t m = 37 * pg - 10; /* rounded up to the same pages */
	unsigned char *r = px_pages_get(&m, 0, false, &clean);
	ck_assert_ptr_eq(r, p);
	ck_assert_uint_eq(m, 37 * pg);
	ck_assert_uint_eq(clean, 5 * pg);
	size_t again = 37 * pg;
	unsigned char *s = px_pages_get(&again, 0, false, &clean);
	ck_assert_ptr_ne(s, p);
	px_pages_put(s, again, clean);
	px_pages_put(r, m, m);
}
END_TEST

/* Given back past its bound, the pool unmaps instead of keeping. */
START_TEST(pool_bounded)
{
	enum { BIG = 1 << 20 };
	void *got[2 * PX_PAGES_SLOTS];
	size_t clean;
	unsigned count;
	/* more mappings than it has places for */
	for (unsigned i = 0; i < 2 * PX_PAGES_SLOTS; i++) {
		size_t n = page();
		got[i] = px_pages_get(&n, n, false, &clean);
		ck_assert_ptr_nonnull(got[i]);
	}
	for (unsigned i = 0; i < 2 * PX_PAGES_SLOTS; i++)
		px_pages_put(got[i], page(), 0);
	ck_assert_uint_le(px_pages_pooled(&count), PX_PAGES_POOL);
	ck_assert_uint_le(count, PX_PAGES_SLOTS);
	for (unsigned i = 0; i < 2 * PX_PAGES_SLOTS; i++) { /* emptied again */
		size_t n = page();
		munmap(px_pages_get(&n, n, false, &clean), n);
	}
	/* more bytes than the pool may hold, in mappings not populated */
	unsigned nbig = (unsigned)(PX_PAGES_POOL / BIG) + 8;
	for (unsigned i = 0; i < nbig; i++) {
		size_t n = BIG;
		got[i] = px_pages_get(&n, n, true, &clean);
		ck_assert_ptr_nonnull(got[i]);
	}
	for (unsigned i = 0; i < nbig; i++)
		px_pages_put(got[i], BIG, 0);
	ck_assert_uint_le(px_pages_pooled(NULL), PX_PAGES_POOL);
	ck_assert_uint_ge(px_pages_pooled(NULL), PX_PAGES_POOL - BIG);
}
END_TEST

/* Tables of every kind of memory: zeroed when asked, old bytes kept when
 * grown across the kinds, and a reused table zeroed again. */
START_TEST(tables_grow_and_zero)
{
	static const size_t sizes[] = {8 << 10, 48 << 10, 1 << 20, 3 << 20, 6 << 20};
	for (int round = 0; round < 2; round++) {
		unsigned char *t = px_huge_alloc(sizes[0]);
		ck_assert(all_bytes(t, sizes[0], 0));
		memset(t, 0x5a, sizes[0]);
		for (size_t i = 1; i < sizeof sizes / sizeof *sizes; i++) {
			t = px_huge_grow(t, sizes[i - 1], sizes[i]);
			ck_assert(all_bytes(t, sizes[i - 1], 0x5a));
			memset(t + sizes[i - 1], 0x5a, sizes[i] - sizes[i - 1]);
		}
		px_huge_free(t, sizes[4]);
		for (size_t i = 0; i < 3; i++) {
			unsigned char *u = px_huge_alloc(sizes[i]);
			ck_assert(all_bytes(u, sizes[i], 0));
			memset(u, 0x5a, sizes[i]);
			px_huge_free(u, sizes[i]);
		}
	}
}
END_TEST

/* Threads taking and giving back at once: no memory is handed to two of
 * them, and each finds its arena zeroed and its table kept. */
enum { THREADS = 4, ROUNDS = 60 };

static void *churn(void *arg)
{
	unsigned char tag = (unsigned char)(uintptr_t)arg;
	for (int r = 0; r < ROUNDS; r++) {
		px_arena a;
		px_arena_init(&a);
		unsigned char *blocks[8];
		size_t sizes[8];
		for (int i = 0; i < 8; i++) {
			sizes[i] = (size_t)(20000 + 9000 * i + 1000 * r % 7);
			blocks[i] = px_arena_alloc(&a, sizes[i]);
			if (!all_bytes(blocks[i], sizes[i], 0))
				return "arena memory not zeroed";
			memset(blocks[i], tag, sizes[i]);
		}
		size_t tn = (size_t)(40 << 10) << (r % 3);
		unsigned char *t = px_huge_alloc(tn);
		memset(t, tag, tn);
		sched_yield();
		for (int i = 0; i < 8; i++)
			if (!all_bytes(blocks[i], sizes[i], tag))
				return "arena memory shared with another thread";
		if (!all_bytes(t, tn, tag))
			return "table shared with another thread";
		px_huge_free(t, tn);
		px_arena_free(&a);
	}
	return NULL;
}

START_TEST(threads_share_the_pool)
{
	pthread_t th[THREADS];
	for (uintptr_t i = 0; i < THREADS; i++)
		ck_assert_int_eq(pthread_create(&th[i], NULL, churn, (void *)(i + 1)), 0);
	for (int i = 0; i < THREADS; i++) {
		void *res;
		pthread_join(th[i], &res);
		ck_assert_msg(res == NULL, "%s", (const char *)res);
	}
}
END_TEST

Suite *pages_suite(void)
{
	Suite *s = suite_create("pages");
	TCase *tc = tcase_create("pool");
	tcase_add_test(tc, arena_blocks_reused_zeroed);
	tcase_add_test(tc, arena_array_dirties);
	tcase_add_test(tc, arena_mark_release);
	tcase_add_test(tc, pool_fits_and_marks);
	tcase_add_test(tc, pool_bounded);
	tcase_add_test(tc, tables_grow_and_zero);
	tcase_add_test(tc, threads_share_the_pool);
	suite_add_tcase(s, tc);
	return s;
}
