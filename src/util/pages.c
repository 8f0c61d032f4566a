#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, MAP_POPULATE */
#include "util/pages.h"
#include <pthread.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

/* The pool: an array, not a list threaded through the mappings, so a pooled
 * mapping is not written to and its clean mark stays true. */
typedef struct pooled {
	void *p;
	size_t bytes, clean;
} pooled;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pooled pool[PX_PAGES_SLOTS];
static unsigned npool;
static size_t pool_bytes;

static size_t page;
static pthread_once_t page_once = PTHREAD_ONCE_INIT;

static void page_size(void)
{
	long sz = sysconf(_SC_PAGESIZE);
	page = sz > 0 ? (size_t)sz : 4096;
}

/* Several translations may ask for their first pages at once (-j, or the
 * library's own callers' threads). */
static size_t whole_pages(size_t n)
{
	pthread_once(&page_once, page_size);
	return n > SIZE_MAX - page ? 0 : (n + page - 1) / page * page;
}

/* No mapping asks for transparent huge pages: where the kernel compacts
 * memory for a huge page on the fault that wants one, a huge function's
 * tables and arena ran slower in huge pages than in small ones; the TLB
 * misses the huge pages saved cost less than their faults (make bench). */
void *px_pages_map(size_t bytes, bool lazy)
{
	int flags = MAP_PRIVATE | MAP_ANONYMOUS;
#ifdef MAP_POPULATE
	/* one system call instead of a page fault for each page as it is first
	 * touched: populating a page costs a fraction of a fault */
	if (!lazy)
		flags |= MAP_POPULATE;
#endif
	void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, flags, -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

void *px_pages_get(size_t *bytes, size_t max, bool lazy, size_t *clean)
{
	size_t want = whole_pages(*bytes);
	if (!want)
		return NULL;
	if (max < want)
		max = want;
	pthread_mutex_lock(&lock);
	unsigned best = npool;
	for (unsigned i = 0; i < npool; i++)
		if (pool[i].bytes >= want && pool[i].bytes <= max && (best == npool || pool[i].bytes < pool[best].bytes))
			best = i;
	if (best < npool) {
		pooled got = pool[best];
		pool[best] = pool[--npool];
		pool_bytes -= got.bytes;
		pthread_mutex_unlock(&lock);
		*bytes = got.bytes;
		*clean = got.clean;
		return got.p;
	}
	pthread_mutex_unlock(&lock);
	void *p = px_pages_map(want, lazy);
	if (!p)
		return NULL;
	*bytes = want;
	*clean = 0;
	return p;
}

void px_pages_put(void *p, size_t bytes, size_t clean)
{
	bytes = whole_pages(bytes);
	pthread_mutex_lock(&lock);
	bool kept = npool < PX_PAGES_SLOTS && bytes <= PX_PAGES_POOL - pool_bytes;
	if (kept) {
		pool[npool++] = (pooled){p, bytes, clean < bytes ? clean : bytes};
		pool_bytes += bytes;
	}
	pthread_mutex_unlock(&lock);
	if (!kept)
		munmap(p, bytes);
}

size_t px_pages_pooled(unsigned *n)
{
	pthread_mutex_lock(&lock);
	size_t bytes = pool_bytes;
	if (n)
		*n = npool;
	pthread_mutex_unlock(&lock);
	return bytes;
}
