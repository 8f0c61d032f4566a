/* The cubin cache: a directory of files, one per assembly, named by a hash
 * of everything that decides what ptxas writes and says: the PTX text, the
 * assembler (its resolved path, size and modification time: another ptxas,
 * or the same path after an update, is another key) and its options as
 * they are passed (target, -O, -lineinfo/-g, -v, --ptxas-options).
 *
 * An entry holds what ptxas printed and the cubin, so a hit replays the
 * messages as the run did. It is written to a temporary file in the
 * directory and renamed into place, so that readers (other processes among
 * them) see a whole entry or none; two writers of one key write the same
 * bytes, and the last rename wins. Each entry ends in a checksum of what
 * comes before it, and repeats its key: an entry that is short, damaged or
 * of another key is rebuilt, never used. A hit touches its entry; when the
 * directory grows past its bound, the entries touched longest ago go first. */
/* realpath is X/Open, beyond the _POSIX_C_SOURCE the build asks for. */
#define _XOPEN_SOURCE 700
#include "cubin/cubin.h"

#include <dirent.h>
#include <stdatomic.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static const char magic[8] = {'P', 'X', 'C', 'U', 'B', 'I', 'N', '1'};

/* Two 64-bit FNV-1a hashes with different offsets: 128 bits of key. */
typedef struct hash2 {
	uint64_t a, b;
} hash2;

static void mix(hash2 *h, const void *data, size_t n)
{
	const unsigned char *p = data;
	for (size_t i = 0; i < n; i++) {
		h->a = (h->a ^ p[i]) * 0x100000001b3ULL;
		h->b = (h->b ^ p[i]) * 0x100000001b3ULL;
		h->b ^= h->b >> 29;
	}
}

static hash2 hash_init(void) { return (hash2){0xcbf29ce484222325ULL, 0x84222325cbf29ce4ULL}; }

/* Mixed with its length, so that neighbouring fields cannot trade bytes. */
static void mix_field(hash2 *h, const void *data, size_t n)
{
	uint64_t len = n;
	mix(h, &len, sizeof len);
	mix(h, data, n);
}

void px_cache_key(const char *ptxas, const px_options *o, const char *target, bool verbose, const char *ptx,
                  size_t len, char key[33])
{
	hash2 h = hash_init();
	char real[PATH_MAX];
	if (!realpath(ptxas, real))
		snprintf(real, sizeof real, "%s", ptxas);
	mix_field(&h, real, strlen(real));
	struct stat st;
	if (stat(real, &st) == 0) {
		uint64_t id[3] = {(uint64_t)st.st_size, (uint64_t)st.st_mtim.tv_sec, (uint64_t)st.st_mtim.tv_nsec};
		mix_field(&h, id, sizeof id);
	}
	char words[8192];
	const char *argv[256];
	size_t n = px_ptxas_args(o, target, verbose, words, sizeof words, argv, 256);
	for (size_t i = 0; i < n; i++)
		mix_field(&h, argv[i], strlen(argv[i]));
	mix_field(&h, ptx, len);
	snprintf(key, 33, "%016llx%016llx", (unsigned long long)h.a, (unsigned long long)h.b);
}

static char *entry_path(const char *dir, const char *key)
{
	size_t n = strlen(dir) + 64;
	char *p = malloc(n);
	if (!p)
		abort();
	snprintf(p, n, "%s/%s.cubin", dir, key);
	return p;
}

/* Entry: magic, key (32 bytes), log length, cubin length (8 bytes each,
 * little end first), the log, the cubin, the checksum of all before it. */
static void put64(unsigned char *b, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		b[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t get64(const unsigned char *b)
{
	uint64_t v = 0;
	for (int i = 0; i < 8; i++)
		v |= (uint64_t)b[i] << (8 * i);
	return v;
}

enum { HEADER = 8 + 32 + 16, TRAILER = 16 };

bool px_cache_get(const char *dir, const char *key, px_ptxas_run *r)
{
	memset(r, 0, sizeof *r);
	char *path = entry_path(dir, key);
	int fd = open(path, O_RDONLY);
	if (fd < 0) {
		free(path);
		return false;
	}
	struct stat st;
	unsigned char *b = NULL;
	bool ok = fstat(fd, &st) == 0 && st.st_size >= HEADER + TRAILER && (uint64_t)st.st_size < ((uint64_t)1 << 32);
	size_t size = ok ? (size_t)st.st_size : 0;
	if (ok) {
		b = malloc(size + 1);
		if (!b)
			abort();
		size_t got = 0;
		while (got < size) {
			ssize_t k = read(fd, b + got, size - got);
			if (k < 0 && errno == EINTR)
				continue;
			if (k <= 0)
				break;
			got += (size_t)k;
		}
		ok = got == size;
	}
	close(fd);
	uint64_t loglen = 0, binlen = 0;
	if (ok) {
		loglen = get64(b + 40);
		binlen = get64(b + 48);
		ok = memcmp(b, magic, 8) == 0 && memcmp(b + 8, key, 32) == 0 && loglen <= size && binlen <= size &&
		     HEADER + loglen + binlen + TRAILER == size;
	}
	if (ok) {
		hash2 h = hash_init();
		mix(&h, b, size - TRAILER);
		ok = get64(b + size - 16) == h.a && get64(b + size - 8) == h.b;
	}
	if (ok) {
		r->status = 0;
		r->log = malloc(loglen + 1);
		r->cubin = malloc(binlen ? binlen : 1);
		if (!r->log || !r->cubin)
			abort();
		memcpy(r->log, b + HEADER, loglen);
		r->log[loglen] = '\0';
		r->loglen = loglen;
		memcpy(r->cubin, b + HEADER + loglen, binlen);
		r->cubinlen = binlen;
		/* touched: the entries used longest ago go first */
		utimensat(AT_FDCWD, path, NULL, 0);
	}
	free(b);
	free(path);
	return ok;
}

typedef struct entry {
	char *path;
	off_t size;
	struct timespec mtime;
} entry;

static int oldest_first(const void *x, const void *y)
{
	const entry *a = x, *b = y;
	if (a->mtime.tv_sec != b->mtime.tv_sec)
		return a->mtime.tv_sec < b->mtime.tv_sec ? -1 : 1;
	return (a->mtime.tv_nsec > b->mtime.tv_nsec) - (a->mtime.tv_nsec < b->mtime.tv_nsec);
}

/* Entries go, oldest first, until the directory holds at most max bytes. */
static void trim(const char *dir, uint64_t max)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	entry *v = NULL;
	size_t n = 0, cap = 0;
	uint64_t total = 0;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		size_t len = strlen(e->d_name);
		if (len != 32 + 6 || strcmp(e->d_name + 32, ".cubin") != 0)
			continue;
		size_t plen = strlen(dir) + len + 2;
		char *path = malloc(plen);
		if (!path)
			abort();
		snprintf(path, plen, "%s/%s", dir, e->d_name);
		struct stat st;
		if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) {
			free(path);
			continue;
		}
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			v = realloc(v, cap * sizeof *v);
			if (!v)
				abort();
		}
		v[n++] = (entry){path, st.st_size, st.st_mtim};
		total += (uint64_t)st.st_size;
	}
	closedir(d);
	if (total > max && n)
		qsort(v, n, sizeof *v, oldest_first);
	for (size_t i = 0; i < n; i++) {
		if (total > max && unlink(v[i].path) == 0)
			total -= (uint64_t)v[i].size;
		free(v[i].path);
	}
	free(v);
}

void px_cache_put(const char *dir, const char *key, const px_ptxas_run *r, uint64_t max)
{
	mkdir(dir, 0777); /* an existing one is the usual case */
	/* a name no other writer (thread or process) uses; created with 0666,
	 * which the umask trims as for any new file (umask() itself would
	 * change it for every thread of the process) */
	static _Atomic unsigned serial;
	struct timespec now;
	clock_gettime(CLOCK_REALTIME, &now);
	size_t plen = strlen(dir) + 96;
	char *tmp = malloc(plen);
	if (!tmp)
		abort();
	snprintf(tmp, plen, "%s/.tmp.%ld.%u.%ld", dir, (long)getpid(), serial++, (long)now.tv_nsec);
	int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL, 0666);
	if (fd < 0) {
		free(tmp);
		return; /* a cache that cannot be written is no cache: the cubin stands */
	}
	size_t size = HEADER + r->loglen + r->cubinlen + TRAILER;
	unsigned char *b = malloc(size);
	if (!b)
		abort();
	memcpy(b, magic, 8);
	memcpy(b + 8, key, 32);
	put64(b + 40, r->loglen);
	put64(b + 48, r->cubinlen);
	if (r->loglen)
		memcpy(b + HEADER, r->log, r->loglen);
	if (r->cubinlen)
		memcpy(b + HEADER + r->loglen, r->cubin, r->cubinlen);
	hash2 h = hash_init();
	mix(&h, b, size - TRAILER);
	put64(b + size - 16, h.a);
	put64(b + size - 8, h.b);
	bool ok = true;
	for (size_t at = 0; at < size && ok;) {
		ssize_t k = write(fd, b + at, size - at);
		if (k < 0 && errno == EINTR)
			continue;
		ok = k > 0;
		if (ok)
			at += (size_t)k;
	}
	free(b);
	ok = close(fd) == 0 && ok;
	char *path = entry_path(dir, key);
	if (!ok || rename(tmp, path) != 0)
		unlink(tmp);
	free(path);
	free(tmp);
	trim(dir, max);
}
