/* The texts ptxas is given on one target: one per PTX version and operation
 * family (the operation's name up to its first underscore), the functions
 * ptxemit printed for the target and, for the statements it refused there,
 * the functions it printed for the lowest target, renamed (o_) and
 * retargeted, with every other statement blanked. Each function's `.loc`
 * lines name a `.file` "MODULE KIND" (acc: printed for the target; own:
 * printed for the lowest), numbered within the text, so that a text changes
 * only with its own pieces and ptxas's cached verdicts stay. */
#include "combos_text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool starts(const char *l, size_t n, const char *w)
{
	size_t k = strlen(w);
	return n >= k && strncmp(l, w, k) == 0;
}

/* a line opening a function, or declaring a module variable: after an
 * optional .visible, .weak or .extern, one of the words */
static bool opens(const char *l, size_t n, const char *const *words)
{
	const char *p = l, *e = l + n;
	for (const char *const *q = (const char *const[]){".visible", ".weak", ".extern", NULL}; *q; q++)
		if (starts(p, (size_t)(e - p), *q) && p + strlen(*q) < e && p[strlen(*q)] == ' ') {
			p += strlen(*q);
			while (p < e && *p == ' ')
				p++;
			break;
		}
	for (; *words; words++)
		if (starts(p, (size_t)(e - p), *words))
			return true;
	return false;
}

static size_t text_of(cb_texts *x, const char *tid, const char *v)
{
	bool fresh;
	void **slot = pv_map_slot(&x->index, tid, &fresh);
	if (fresh) {
		x->t = realloc(x->t, (x->n + 1) * sizeof *x->t);
		x->t[x->n] = (cb_text){.tid = pv_strdup(tid), .v = v};
		px_buf_init(&x->t[x->n].files);
		px_buf_init(&x->t[x->n].body);
		*slot = (void *)(uintptr_t)(++x->n);
	}
	return (uintptr_t)*slot - 1;
}

/* a label line, which stays in a blanked statement (no branch loses its target) */
static bool label(const char *l, size_t n)
{
	if (!n || l[n - 1] != ':' || !(l[0] == '$' || l[0] == '_' || (l[0] >= 'A' && l[0] <= 'Z') || (l[0] >= 'a' && l[0] <= 'z')))
		return false;
	for (size_t i = 1; i + 1 < n; i++)
		if (!(l[i] == '$' || l[i] == '_' || (l[i] >= '0' && l[i] <= '9') || (l[i] >= 'A' && l[i] <= 'Z') ||
		      (l[i] >= 'a' && l[i] <= 'z')))
			return false;
	return true;
}

/* s with every name replaced by o_name, appended */
static void renamed(px_buf *b, const char *s, size_t n, const char *name)
{
	size_t k = strlen(name);
	for (size_t i = 0; i < n;)
		if (k && i + k <= n && strncmp(s + i, name, k) == 0) {
			px_buf_puts(b, "o_");
			px_buf_put(b, name, k);
			i += k;
		} else
			px_buf_putc(b, s[i++]);
}

void cb_piece(cb_texts *x, const char *ptx, const char *key, const char *kind, const char *v, const cb_tr *own)
{
	static const char *const fn[] = {".entry", ".func", NULL}, *const var[] = {".shared", ".global", ".const", NULL};
	pv_map used = {0}; /* the file number of this piece in each text */
	px_buf fnb;        /* the function's lines, a .loc's file number left as @F */
	px_buf_init(&fnb);
	char name[256] = "", tid[300] = "";
	bool instmt = false, keep = false, any = false;
	const char *p = ptx, *l;
	size_t n;
	while (cb_next_line(&p, &l, &n)) {
		if (!*name) {
			if (opens(l, n, fn)) {
				/* the function's name: the word after entry or func */
				const char *s = l, *q;
				for (q = l; q + 5 <= l + n; q++)
					if ((strncmp(q, "entry ", 6) == 0 && q + 6 <= l + n) || strncmp(q, "func ", 5) == 0)
						s = q + (q[0] == 'e' ? 5 : 4);
				while (s < l + n && *s == ' ')
					s++;
				size_t k = strcspn(s, "( \n");
				snprintf(name, sizeof name, "%.*s", (int)(k < sizeof name ? k : sizeof name - 1), s);
				snprintf(tid, sizeof tid, "%s.%.*s", v, (int)strcspn(name, "_"), name);
				instmt = any = false;
				fnb.len = 0;
			} else if (opens(l, n, var)) {
				char *d = pv_printf("%s\n%.*s", v, (int)n, l);
				bool fresh;
				*pv_map_slot(&x->decl, d, &fresh) = x;
				if (fresh) {
					void **b = pv_map_slot(&x->decls, v, &fresh);
					if (fresh) {
						*b = pv_alloc(sizeof(px_buf));
						px_buf_init(*b);
					}
					px_buf_printf(*b, "%.*s\n", (int)n, l);
				}
				free(d);
			}
			if (!*name)
				continue;
		}
		size_t ws = strspn(l, " \t");
		if (ws < n && starts(l + ws, n - ws, ".loc ")) {
			unsigned file, line, col;
			instmt = true;
			if (sscanf(l + ws, ".loc %u %u %u", &file, &line, &col) != 3)
				line = col = 0;
			keep = !own || cb_refused_at(own, line);
			any = any || keep;
			px_buf_printf(&fnb, "\t.loc @F %u %u\n", line, col);
			continue;
		}
		if (starts(l, n, "}"))
			instmt = false;
		else if (instmt && !keep && !label(l, n))
			n = 0;
		if (own)
			renamed(&fnb, l, n, name);
		else
			px_buf_put(&fnb, l, n);
		px_buf_putc(&fnb, '\n');
		if (!starts(l, n, "}"))
			continue;
		if (any || !own) {
			size_t t = text_of(x, tid, v);
			bool fresh;
			void **f = pv_map_slot(&used, tid, &fresh);
			if (fresh) {
				*f = (void *)(uintptr_t)++x->t[t].nfile;
				px_buf_printf(&x->t[t].files, ".file %u \"%s %s\"\n", x->t[t].nfile, key, kind);
			}
			unsigned no = (unsigned)(uintptr_t)*f;
			const char *q = fnb.data, *fl;
			size_t fn_;
			while (cb_next_line(&q, &fl, &fn_))
				if (starts(fl, fn_, "\t.loc @F "))
					px_buf_printf(&x->t[t].body, "\t.loc %u %.*s\n", no, (int)(fn_ - 9), fl + 9);
				else
					px_buf_printf(&x->t[t].body, "%.*s\n", (int)fn_, fl);
		}
		*name = '\0';
		fnb.len = 0;
		if (fnb.data)
			fnb.data[0] = '\0';
	}
	px_buf_free(&fnb);
	pv_map_free(&used);
}

char *cb_text_of(const cb_texts *x, size_t i, const char *target, size_t *len)
{
	const cb_text *t = &x->t[i];
	const px_buf *d = pv_map_get(&x->decls, t->v);
	px_buf b;
	px_buf_init(&b);
	px_buf_printf(&b, ".version %s\n.target %s\n.address_size 64\n%s%s%s", t->v, target, t->files.data ? t->files.data : "",
	              d && d->data ? d->data : "", t->body.data ? t->body.data : "");
	return px_buf_take(&b, len);
}

void cb_texts_free(cb_texts *x)
{
	for (size_t i = 0; i < x->n; i++)
		free(x->t[i].tid), px_buf_free(&x->t[i].files), px_buf_free(&x->t[i].body);
	for (size_t i = 0; i < x->decls.cap; i++)
		if (x->decls.keys[i]) {
			px_buf_free(x->decls.vals[i]);
			free(x->decls.vals[i]);
		}
	free(x->t);
	pv_map_free(&x->index), pv_map_free(&x->decl), pv_map_free(&x->decls);
	*x = (cb_texts){0};
}
