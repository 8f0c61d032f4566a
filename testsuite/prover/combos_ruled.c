/* The combinations a rule of the tables refuses on every target, judged by
 * ptxas on every target. ptxemit prints no PTX for them, so the generator
 * writes beside each a carrier ("R" lines, their values as "Q" lines): the
 * same statement with a slot the rule names holding a token no rule refuses.
 * The carriers are translated on their lowest target, and in each carrier's
 * instruction the refused combination's spelling replaces the carrier's (the
 * whole mnemonic where ptxemit prints the spelling as written, else the
 * tokens that differ; a property's token or '-' on its operand). That text,
 * retargeted to each target with its `.version` raised to the target's
 * lowest, must be refused by ptxas at the statement's line on every target:
 * where ptxas assembles one, the rule refuses what ptxas accepts. A
 * combination only rules for the GPU's result refuse (`gpu: true`: the GPU
 * computes another value than PTX defines; testsuite/gpu's video_forms runs
 * them) must instead be assembled on its lowest target. */
#include "combos.h"
#include "refused.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the fields of an R line after its carrier */
enum { F_STMT, F_CSP, F_RSP, F_PAIRS, F_GPU };

typedef struct ruled {
	cb_modules mods;
	char **text;        /* each module's PTX, the refused spellings written in (NULL: none) */
	unsigned **written; /* each module's statement (index + 1) at each MIR line, where written */
	pv_map unwritten;   /* "MODULE STATEMENT" of the combinations not written */
	px_buf report;
	unsigned nunw;
} ruled;

static const char *field(const cb_stmt *s, unsigned f)
{
	return f < s->nf ? s->f[f] : "";
}

static void unwritten(ruled *r, const char *key, const char *stmt, char *msg)
{
	char *k = pv_printf("%s %s", key, stmt);
	bool fresh;
	*pv_map_slot(&r->unwritten, k, &fresh) = r;
	if (fresh && ++r->nunw <= 20)
		px_buf_printf(&r->report, "tensorcombos: a refused combination not written: %s\n", msg);
	free(k), free(msg);
}

static bool word_char(char c)
{
	return c == '_' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* s with the first tok (a whole token: no word character after it) replaced
 * by rep, or NULL where none */
static char *swap(const char *s, const char *tok, const char *rep)
{
	size_t n = strlen(tok);
	for (const char *p = strstr(s, tok); p && n; p = strstr(p + n, tok))
		if (!word_char(p[n]))
			return pv_printf("%.*s%s%s", (int)(p - s), s, rep, p + n);
	return NULL;
}

/* the changed tokens of two spellings: each less their common leading and
 * trailing dotted tokens, and the last common leading token */
static void middle(const char *c, const char *r, char **cmid, char **rmid, char **before)
{
	char *cs = pv_strdup(c), *rs = pv_strdup(r), *cf[64], *rf[64], *save;
	size_t nc = 0, nr = 0;
	for (char *t = strtok_r(cs, ".", &save); t && nc < 64; t = strtok_r(NULL, ".", &save))
		cf[nc++] = t;
	for (char *t = strtok_r(rs, ".", &save); t && nr < 64; t = strtok_r(NULL, ".", &save))
		rf[nr++] = t;
	size_t p = 0, q = 0;
	while (p < nc && p < nr && strcmp(cf[p], rf[p]) == 0)
		p++;
	while (q < nc - p && q < nr - p && strcmp(cf[nc - 1 - q], rf[nr - 1 - q]) == 0)
		q++;
	px_buf a, b;
	px_buf_init(&a), px_buf_init(&b);
	for (size_t i = p; i < nc - q; i++)
		px_buf_printf(&a, ".%s", cf[i]);
	for (size_t i = p; i < nr - q; i++)
		px_buf_printf(&b, ".%s", rf[i]);
	*cmid = px_buf_take(&a, NULL);
	*rmid = px_buf_take(&b, NULL);
	*before = p ? pv_printf(".%s", cf[p - 1]) : pv_strdup("");
	free(cs), free(rs);
}

/* the operands with the nth one's leading '-' turned on or off, NULL where
 * there are fewer */
static char *negate(const char *ops, unsigned n)
{
	px_buf b;
	px_buf_init(&b);
	unsigned k = 1;
	const char *p = ops;
	for (; k < n; k++) {
		const char *c = strstr(p, ", ");
		if (!c) {
			px_buf_free(&b);
			return NULL;
		}
		px_buf_put(&b, p, (size_t)(c - p + 2));
		p = c + 2;
	}
	size_t ws = strspn(p, " \t");
	px_buf_put(&b, p, ws);
	if (p[ws] == '-')
		px_buf_puts(&b, p + ws + 1);
	else {
		px_buf_putc(&b, '-');
		px_buf_puts(&b, p + ws);
	}
	return px_buf_take(&b, NULL);
}

/* the operands with the first address naming the symbol the MIR names (@sh:
 * sh; %pa: the kernel's third parameter, as the modules declare it), NULL
 * where there is none */
static char *symbol(const char *ops, const char *sym, const char *entry)
{
	const char *i = strchr(ops, '['), *j = strchr(ops, ']');
	if (!i || !j || j < i)
		return NULL;
	if (strcmp(sym, "%pa") == 0)
		return pv_printf("%.*s%s_param_2%s", (int)(i - ops + 1), ops, entry, j);
	return pv_printf("%.*s%s%s", (int)(i - ops + 1), ops, sym + 1, j);
}

/* the refused combination's spelling and properties written into the
 * carrier's instruction line, or NULL (why in *why) */
static char *rewrite(const cb_stmt *s, const char *line, const char *entry, char **why, bool *mine)
{
	const char *csp = field(s, F_CSP), *rsp = field(s, F_RSP);
	/* the instruction's word, after its blanks and predicate */
	const char *w = line + strspn(line, " \t");
	if (*w == '@') {
		const char *q = w + 1 + (w[1] == '!');
		size_t k = strspn(q, "%ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_");
		if (k && (q[k] == ' ' || q[k] == '\t'))
			w = q + k + strspn(q + k, " \t");
	}
	char *word = strndup(w, strcspn(w, " \t"));
	const char *at = strstr(line, word);
	char *lead = strndup(line, (size_t)(at - line)), *ops = pv_strdup(at + strlen(word)), *nw = NULL;
	*mine = true;
	if (strcmp(word, csp) == 0)
		nw = pv_strdup(rsp);
	else if (strncmp(word, csp, strcspn(csp, ".")) != 0)
		*mine = false; /* another instruction of the statement */
	else {
		char *cmid, *rmid, *before;
		middle(csp, rsp, &cmid, &rmid, &before);
		if (*cmid)
			nw = swap(word, cmid, rmid);
		else if (*before) {
			char *br = pv_printf("%s%s", before, rmid);
			nw = swap(word, before, br);
			free(br);
		}
		free(cmid), free(rmid), free(before);
		if (!nw)
			*why = pv_printf("prints %s for %s", word, csp);
	}
	/* the properties: "FROM TO" tokens, "- N" negations, "@ SYMBOL" */
	char *pairs = pv_strdup(field(s, F_PAIRS)), *pp[64], *save;
	size_t n = 0;
	for (char *t = strtok_r(pairs, " ", &save); t && n < 64; t = strtok_r(NULL, " ", &save))
		pp[n++] = t;
	for (size_t i = 0; nw && i + 1 < n; i += 2) {
		char *x;
		if (strcmp(pp[i], "-") == 0)
			x = negate(ops, (unsigned)atoi(pp[i + 1]));
		else if (strcmp(pp[i], "@") == 0)
			x = symbol(ops, pp[i + 1], entry);
		else {
			char *from = pv_printf(".%s", pp[i]), *to = pv_printf(".%s", pp[i + 1]);
			x = swap(ops, from, to);
			free(from), free(to);
		}
		if (!x) {
			*why = pv_printf("no .%s on the operands of %s", pp[i], word);
			free(nw);
			nw = NULL;
		} else
			free(ops), ops = x;
	}
	char *out = nw ? pv_printf("%s%s%s", lead, nw, ops) : NULL;
	free(word), free(lead), free(ops), free(nw), free(pairs);
	return out;
}

/* module i's carriers on its lowest target, then the refused combinations'
 * spellings written in */
static void write_module(ruled *r, size_t i, unsigned tries)
{
	const cb_module *m = &r->mods.m[i];
	char *name = pv_printf("r/%s.carrier.ptx.mir", m->key);
	cb_tr tr;
	cb_translate(name, m->mir, m->mirlen, m->target, m->ptx, tries, &tr);
	free(name);
	r->written[i] = calloc(m->nlines + 1, sizeof **r->written);
	for (size_t k = 0; k < tr.nno; k++) {
		unsigned l = tr.no[k].line, s = l <= m->nlines ? m->line[l] : 0;
		char *id = s && !r->mods.s[s - 1].value ? pv_printf("R%u", s) : pv_strdup(m->key);
		unwritten(r, m->key, id, pv_printf("%s %u ptxemit refuses the carrier: %s", m->key, l, tr.no[k].msg));
		free(id);
	}
	if (!tr.ptx) {
		cb_tr_free(&tr);
		return;
	}
	bool *done = calloc(r->mods.ns + 1, sizeof *done);
	px_buf out;
	px_buf_init(&out);
	char entry[256] = "";
	unsigned cur = 0, cl = 0;
	const char *p = tr.ptx, *l;
	size_t n;
	while (cb_next_line(&p, &l, &n)) {
		char *line = strndup(l, n), *nl = NULL;
		const char *e = strncmp(line, ".visible ", 9) == 0 ? line + 9 : line;
		if (strncmp(e, ".entry ", 7) == 0) {
			e += 7 + strspn(e + 7, " ");
			snprintf(entry, sizeof entry, "%.*s", (int)strcspn(e, "( "), e);
		}
		const char *s = line + strspn(line, " \t");
		unsigned f, ml;
		if (strncmp(s, ".loc ", 5) == 0 && sscanf(s, ".loc %u %u", &f, &ml) == 2) {
			cur = ml <= m->nlines && m->line[ml] && !r->mods.s[m->line[ml] - 1].value ? m->line[ml] : 0;
			cl = ml;
		} else if (line[0] == '}')
			cur = 0;
		else if (cur && !done[cur - 1]) {
			char *why = NULL;
			bool mine;
			nl = rewrite(&r->mods.s[cur - 1], line, entry, &why, &mine);
			if (mine) {
				done[cur - 1] = true;
				if (nl && cl <= m->nlines)
					r->written[i][cl] = cur;
				else {
					char *id = pv_printf("R%u", cur);
					unwritten(r, m->key, id, pv_printf("%s %s %s", m->key, id, why));
					free(id);
				}
			}
			free(why);
		}
		px_buf_printf(&out, "%s\n", nl ? nl : line);
		free(line), free(nl);
	}
	for (unsigned k = 1; k <= m->nlines; k++) {
		unsigned s = m->line[k];
		if (s && !r->mods.s[s - 1].value && !done[s - 1]) {
			char *id = pv_printf("R%u", s);
			unwritten(r, m->key, id, pv_printf("%s %s no instruction printed for the carrier", m->key, id));
			free(id);
		}
	}
	r->text[i] = px_buf_take(&out, NULL);
	free(done);
	cb_tr_free(&tr);
}

/* text retargeted: its .version and .target lines */
static char *retarget(const char *text, const char *target, const char *v, size_t *len)
{
	px_buf b;
	px_buf_init(&b);
	const char *p = text, *l;
	size_t n;
	while (cb_next_line(&p, &l, &n)) {
		if (n >= 9 && strncmp(l, ".version ", 9) == 0)
			px_buf_printf(&b, ".version %s\n", v);
		else if (n >= 8 && strncmp(l, ".target ", 8) == 0) {
			size_t k = 8 + strcspn(l + 8, " ,\n");
			px_buf_printf(&b, ".target %s%.*s\n", target, (int)(n - k), l + k);
		} else
			px_buf_printf(&b, "%.*s\n", (int)n, l);
	}
	return px_buf_take(&b, len);
}

int cb_ruled(const char *gen, const px_target **targets, size_t ntargets, const char *ptxas, const char *cache,
             unsigned jobs, unsigned tries)
{
	ruled r = {0};
	px_buf_init(&r.report);
	cb_build(gen, 'R', 'Q', "carriers of the combinations a rule refuses, lowest target", false, &r.mods);
	r.text = pv_alloc((r.mods.nm + 1) * sizeof *r.text);
	r.written = pv_alloc((r.mods.nm + 1) * sizeof *r.written);
	for (size_t i = 0; i < r.mods.nm; i++) {
		r.text[i] = NULL, r.written[i] = NULL;
		write_module(&r, i, tries);
	}
	/* the combinations with no carrier */
	unsigned gun = 0;
	const char *p = gen, *l;
	size_t n;
	while (cb_next_line(&p, &l, &n))
		if (n > 8 && strncmp(l, "unruled ", 8) == 0) {
			r.nunw++;
			px_buf_printf(&r.report, "tensorcombos: cannot write the carrier of %.*s\n", (int)n - 8, l + 8);
		} else if (n > 11 && strncmp(l, "gpuunruled ", 11) == 0)
			gun++;
	/* every target: ptxas's verdicts */
	size_t ns = r.mods.ns, nrej = 0, nacc = 0, tot = 0, outs = 0, ng = 0, ngr = 0;
	bool *judged = calloc(ns + 1, sizeof *judged), *accepted = calloc(ns + 1, sizeof *accepted);
	px_buf *accs = calloc(ns + 1, sizeof *accs);
	pv_judge j;
	int st = pv_judge_init(&j, ptxas, cache, jobs);
	for (size_t t = 0; t < ntargets && st == 0; t++) {
		char tmin[8];
		snprintf(tmin, sizeof tmin, "%u.%u", targets[t]->ptx / 10, targets[t]->ptx % 10);
		pv_text *texts = pv_alloc((r.mods.nm + 1) * sizeof *texts);
		size_t *mod = pv_alloc((r.mods.nm + 1) * sizeof *mod), nt = 0;
		for (size_t i = 0; i < r.mods.nm; i++)
			if (r.text[i]) {
				const char *v = cb_later_ptx(r.mods.m[i].ptx, tmin);
				texts[nt] = (pv_text){.arch = pv_ptxas_arch(targets[t]->name)};
				texts[nt].ptx = retarget(r.text[i], targets[t]->name, v, &texts[nt].len);
				mod[nt++] = i;
			}
		if (pv_judge_texts(&j, texts, nt, false)) {
			px_buf_printf(&r.report, "%s: the texts could not be judged\n", targets[t]->name);
			st = -1;
		}
		for (size_t x = 0; x < nt && st == 0; x++) {
			const cb_module *m = &r.mods.m[mod[x]];
			const unsigned *w = r.written[mod[x]];
			if (strcmp(texts[x].verdict, "no") == 0) {
				outs++;
				px_buf_printf(&r.report, "tensorcombos: ptxas refuses outside the refused combinations: %s %s ptxas refuses it without naming a line\n",
				              targets[t]->name, m->key);
			}
			size_t nl;
			unsigned *bad = cb_verdict_lines(texts[x].verdict, &nl);
			bool *no = calloc(ns + 1, sizeof *no);
			unsigned cur = 0, ln = 0;
			const char *q = texts[x].ptx, *tl;
			size_t tn;
			while (cb_next_line(&q, &tl, &tn)) {
				ln++;
				size_t ws = strspn(tl, " \t");
				unsigned f, ml;
				if (tn > ws + 5 && strncmp(tl + ws, ".loc ", 5) == 0 && sscanf(tl + ws, ".loc %u %u", &f, &ml) == 2) {
					cur = ml <= m->nlines ? w[ml] : 0;
					continue;
				}
				if (tn && tl[0] == '}')
					cur = 0;
				if (pv_has(bad, nl, ln)) {
					if (cur)
						no[cur - 1] = true;
					else {
						outs++;
						px_buf_printf(&r.report, "tensorcombos: ptxas refuses outside the refused combinations: %s r/%s.%s.ptx %u %.*s\n",
						              targets[t]->name, m->key, targets[t]->name, ln, (int)tn, tl);
					}
				}
			}
			for (unsigned k = 1; k <= m->nlines; k++) {
				if (!w[k])
					continue;
				size_t s = w[k] - 1;
				judged[s] = true;
				if (strcmp(field(&r.mods.s[s], F_GPU), "gpu") == 0) {
					/* refused for the GPU's result alone: assembled on its lowest target */
					if (strcmp(targets[t]->name, m->target) == 0 && (ng++, no[s]) && ++ngr <= 40)
						px_buf_printf(&r.report, "ptxas refuses on %s a combination refused for the GPU's result alone:%s\n",
						              targets[t]->name, r.mods.s[s].text);
					continue;
				}
				tot++;
				if (no[s])
					nrej++;
				else {
					nacc++;
					accepted[s] = true;
					px_buf_printf(&accs[s], " %s", targets[t]->name);
				}
			}
			free(no), free(bad);
		}
		for (size_t x = 0; x < nt; x++)
			free(texts[x].ptx), free(texts[x].verdict);
		free(texts), free(mod);
	}
	size_t na = 0, nst = 0;
	for (size_t s = 0; s < ns; s++) {
		if (accepted[s] && ++na <= 40)
			px_buf_printf(&r.report, "ptxas assembles a combination a rule refuses, on%s:%s\n", accs[s].data,
			              field(&r.mods.s[s], F_STMT));
		nst += judged[s] && strcmp(field(&r.mods.s[s], F_GPU), "gpu") != 0;
		px_buf_free(&accs[s]);
	}
	if (na > 40)
		px_buf_printf(&r.report, "... and %zu more\n", na - 40);
	if (r.report.data)
		fputs(r.report.data, stdout);
	printf("tensorcombos: %zu combinations a rule refuses on every target written for ptxas (%u not written); %zu verdicts on %zu targets: %zu refused by ptxas, %zu assembled (%zu combinations); %zu refused for the GPU's result alone, %zu of them assembled by ptxas on their lowest target (%u more with no carrier: testsuite/gpu runs them)\n",
	       nst, r.nunw, tot, ntargets, nrej, nacc, na, ng, ng - ngr, gun);
	for (size_t i = 0; i < r.mods.nm; i++)
		free(r.text[i]), free(r.written[i]);
	free(r.text), free(r.written), free(judged), free(accepted), free(accs);
	px_buf_free(&r.report);
	pv_map_free(&r.unwritten);
	cb_modules_free(&r.mods);
	return st || r.nunw || outs || na || ngr;
}
