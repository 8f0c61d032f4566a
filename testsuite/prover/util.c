/* Memory, files, a child's output and a string-keyed table: what the proofs
 * share. Allocation failure ends the run: a proof cannot go on without it. */
#include "prover.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

void *pv_alloc(size_t n)
{
	void *p = calloc(1, n ? n : 1);
	if (!p) {
		fprintf(stderr, "prover: out of memory\n");
		exit(99);
	}
	return p;
}

char *pv_strdup(const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(pv_alloc(n), s, n);
}

char *pv_printf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	char *s = pv_alloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return s;
}

static char *read_fd(int fd, size_t *len)
{
	size_t cap = 1 << 16, n = 0;
	char *b = pv_alloc(cap + 1);
	for (;;) {
		if (n == cap) {
			char *nb = realloc(b, 2 * cap + 1);
			if (!nb) {
				fprintf(stderr, "prover: out of memory\n");
				exit(99);
			}
			b = nb, cap *= 2;
		}
		ssize_t r = read(fd, b + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			free(b);
			return NULL;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	b[n] = '\0';
	if (len)
		*len = n;
	return b;
}

char *pv_read_file(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return NULL;
	char *b = read_fd(fd, len);
	close(fd);
	return b;
}

char *pv_capture(char *const argv[])
{
	int p[2];
	if (pipe(p) != 0)
		return NULL;
	pid_t pid = fork();
	if (pid < 0) {
		close(p[0]), close(p[1]);
		return NULL;
	}
	if (pid == 0) {
		dup2(p[1], 1);
		dup2(p[1], 2);
		close(p[0]), close(p[1]);
		execv(argv[0], argv);
		_exit(127);
	}
	close(p[1]);
	char *out = read_fd(p[0], NULL);
	close(p[0]);
	int st;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	return out;
}

static uint64_t hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return h;
}

static size_t find(const pv_map *m, const char *key)
{
	size_t i = hash(key) & (m->cap - 1);
	while (m->keys[i] && strcmp(m->keys[i], key) != 0)
		i = (i + 1) & (m->cap - 1);
	return i;
}

void **pv_map_slot(pv_map *m, const char *key, bool *fresh)
{
	if (2 * (m->n + 1) > m->cap) {
		pv_map old = *m;
		m->cap = old.cap ? 2 * old.cap : 1024;
		m->keys = pv_alloc(m->cap * sizeof *m->keys);
		m->vals = pv_alloc(m->cap * sizeof *m->vals);
		for (size_t i = 0; i < old.cap; i++)
			if (old.keys[i]) {
				size_t j = find(m, old.keys[i]);
				m->keys[j] = old.keys[i], m->vals[j] = old.vals[i];
			}
		free(old.keys), free(old.vals);
	}
	size_t i = find(m, key);
	if (fresh)
		*fresh = !m->keys[i];
	if (!m->keys[i]) {
		m->keys[i] = pv_strdup(key);
		m->n++;
	}
	return &m->vals[i];
}

void *pv_map_get(const pv_map *m, const char *key)
{
	if (!m->cap)
		return NULL;
	size_t i = find(m, key);
	return m->keys[i] ? m->vals[i] : NULL;
}

void pv_map_free(pv_map *m)
{
	for (size_t i = 0; i < m->cap; i++)
		free(m->keys[i]);
	free(m->keys), free(m->vals);
	*m = (pv_map){0};
}
