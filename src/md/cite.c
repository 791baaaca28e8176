/* cite.c: the citations pass: [@key], [@a; @b, p. 4], [see @a, ch. 2],
 * [-@key] and @key in text made links to the document's list of the works
 * it cites (its References, before the footnotes), numeric ("[1, 3–5]")
 * or author-year ("(Vaswani et al., 2017)"), from the bibliographies the
 * document is handed (md_options.bibs; md/ reads no file). An id with a
 * cross-reference prefix (eq:, fig:, tbl:, lst:, sec:, or SLUG#...) is
 * xref.c's, which runs first: it is left alone here. The pass runs only
 * when the document has a bibliography and its text an '@'. */
#include "internal.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* The marker of a citation's link (its user data): the summary drops the
 * link and keeps its text (a list page has no References). */
static const char cite_marker;

int md_is_citation(cmark_node *n)
{
	return cmark_node_get_type(n) == CMARK_NODE_LINK && cmark_node_get_user_data(n) == &cite_marker;
}

/* One work the document cites: its entry, number (order of first
 * citation), and the words of a citation of it: authors' last names and
 * year (with a letter when two works share both, in author-year). */
struct cited {
	struct str key;
	const struct bib_entry *e;
	int num;
	struct str who, year; /* plain text, the arena's */
	char letter;
};

/* One key of a citation: where its '@' is in the body, the text
 * before it in its bracket item and the locator after, whether the
 * author is left out ([-@key]), and the work (an index of st->cited). */
struct cite_item {
	long src; /* where its '@' is in the body (-1: not found) */
	struct str prefix, locator;
	int suppress;
	size_t work;
};

/* One citation: the bytes [start, end) of its run's text, bracketed or
 * in the text (bare), and its items. */
struct cite_use {
	size_t start, end;
	int bare;
	size_t first, n; /* of st->items */
};

/* A run of text and soft break nodes with a citation: its first node
 * and how many, its text (soft breaks as '\n', the arena's), and its
 * citations (of st->uses). */
struct cite_run {
	cmark_node *first;
	size_t nnodes;
	struct str text;
	size_t first_use, nuses;
};

struct cite_state {
	struct md_ctx *c;
	struct cited *cited;
	size_t ncited, cap_cited;
	struct map by_key; /* key -> index + 1 in cited */
	struct cite_item *items;
	size_t nitems, cap_items;
	struct cite_use *uses;
	size_t nuses, cap_uses;
	struct cite_run *runs;
	size_t nruns, cap_runs;
	struct buf text;
	/* the block of the run being read, where its first line starts in
	 * the body, and where the next '@' is looked for in the body (see
	 * locate) */
	cmark_node *block;
	size_t block_at, cur;
	size_t line_at, line_no; /* a cursor over the body's lines */
};

#define GROW(arr, n, cap)                                                                          \
	do {                                                                                       \
		if ((n) == (cap)) {                                                                \
			(cap) = (cap) ? (cap) * 2 : 16;                                            \
			(arr) = xrealloc((arr), (cap) * sizeof *(arr));                            \
		}                                                                                  \
	} while (0)

static const char *label(const struct md_ctx *c, int which, const char *english)
{
	return c->o->labels[which] ? c->o->labels[which] : english;
}

/* ---- finding them ---- */

static int word_byte(unsigned char b)
{
	return isalnum(b) || b == '_' || b >= 0x80;
}

/* key_len: the citation key at s[0..n) (after its '@'): a letter, digit
 * or '_' first, then those and internal punctuation (pandoc's), the
 * punctuation a sentence puts after it left out; 0: none. */
static size_t key_len(const char *s, size_t n)
{
	if (!n || !word_byte((unsigned char)s[0]))
		return 0;
	size_t k = 1, last = 1;
	while (k < n && (word_byte((unsigned char)s[k]) || strchr(":.#$%&-+?<>~/", s[k]))) {
		if (word_byte((unsigned char)s[k]))
			last = k + 1;
		k++;
	}
	return last;
}

/* is_xref: the id is a cross-reference's (xref.c's): a prefix eq: fig:
 * tbl: lst: sec: (or capitalised), or SLUG#... */
static int is_xref(struct str id)
{
	static const char *const prefixes[] = {"eq:", "fig:", "tbl:", "lst:", "sec:"};
	if (memchr(id.p, '#', id.len))
		return 1;
	for (size_t i = 0; i < 5; i++) {
		size_t n = strlen(prefixes[i]);
		if (id.len > n && tolower((unsigned char)id.p[0]) == prefixes[i][0] && !memcmp(id.p + 1, prefixes[i] + 1, n - 1))
			return 1;
	}
	return 0;
}

static const struct bib_entry *find(const struct md_ctx *c, struct str key)
{
	for (size_t i = 0; i < c->o->nbibs; i++) {
		const struct bib_entry *e = bibtex_find(c->o->bibs[i], key);
		if (e)
			return e;
	}
	return NULL;
}

/* guess: the key of the bibliographies nearest key, if it is a likely
 * typo of it; NULL otherwise. */
static const char *guess(const struct md_ctx *c, struct str key, size_t *n)
{
	struct diag_guess g;
	diag_guess_init(&g, key.p, key.len);
	for (size_t i = 0; i < c->o->nbibs; i++)
		for (size_t k = 0; k < c->o->bibs[i]->n; k++)
			diag_guess_try(&g, c->o->bibs[i]->entries[k].key.p, c->o->bibs[i]->entries[k].key.len);
	return diag_guess_best(&g, n);
}

/* locate: where "@key" is in the body, looked for from st->cur on (the
 * citations of a block come in the order of its text, so the n-th one
 * found is the n-th written: cmark joins text nodes, and drops the
 * backslash of an escape, so the tree cannot tell); -1 if it is not
 * there (an entity spelt it). */
static long locate(struct cite_state *st, struct str key)
{
	const struct md_ctx *c = st->c;
	size_t from = st->cur;
	while (from < c->len) {
		const char *p = memmem(c->text + from, c->len - from, key.p, key.len);
		if (!p)
			return -1;
		size_t off = (size_t)(p - c->text);
		if (off > 0 && c->text[off - 1] == '@') {
			st->cur = off + key.len;
			return (long)off - 1;
		}
		from = off + 1;
	}
	return -1;
}

/* escaped: the '@' at body offset src was written \@. */
static int escaped(const struct cite_state *st, long src)
{
	return src > 0 && st->c->text[src - 1] == '\\';
}

static void error_at(struct cite_state *st, long src, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void error_at(struct cite_state *st, long src, const char *fmt, ...)
{
	struct md_ctx *c = st->c;
	size_t line0, start;
	diag_line_col(c->text, src >= 0 ? (size_t)src : st->block_at, &line0, &start);
	int col = src >= 0 ? (int)((size_t)src - start) + 1 : cmark_node_get_start_column(st->block);
	struct diag_loc loc = diag_src_at(&c->in, (int)line0 + 1, col);
	va_list ap;
	va_start(ap, fmt);
	diag_vreport(c->d, DIAG_ERROR, &loc, NULL, 0, fmt, ap);
	va_end(ap);
	c->errors++;
}

static void unknown_key(struct cite_state *st, long at, struct str key)
{
	size_t n;
	const char *best = guess(st->c, key, &n);
	if (best)
		error_at(st, at, "unknown citation key '%.*s' (did you mean '%.*s'?)", STR_FMT(key), (int)n, best);
	else
		error_at(st, at, "unknown citation key '%.*s' (no entry of the post's bibliography has it)", STR_FMT(key));
}

/* work: the index in st->cited of the work e, added at its first
 * citation. */
static size_t work(struct cite_state *st, const struct bib_entry *e)
{
	int added;
	struct map_entry *m = map_put(&st->by_key, e->key.p, e->key.len, &added);
	if (!added)
		return m->val.u - 1;
	GROW(st->cited, st->ncited, st->cap_cited);
	st->cited[st->ncited] = (struct cited){e->key, e, (int)st->ncited + 1, {"", 0}, {"", 0}, 0};
	m->val.u = ++st->ncited;
	return st->ncited - 1;
}

static struct str trim(struct str s)
{
	while (s.len && md_is_space((unsigned char)s.p[0]))
		s.p++, s.len--;
	while (s.len && md_is_space((unsigned char)s.p[s.len - 1]))
		s.len--;
	return s;
}

/* item: one ';'-separated item of a bracket at s[from, to) of t: a prefix,
 * -? @KEY, a locator. 0 and *it filled, or -1: no key there. */
static int item(const char *t, size_t from, size_t to, struct cite_item *it, struct str *key)
{
	for (size_t k = from; k < to; k++) {
		if (t[k] != '@' || (k > from && word_byte((unsigned char)t[k - 1])))
			continue;
		size_t n = key_len(t + k + 1, to - k - 1);
		if (!n)
			continue;
		*key = (struct str){t + k + 1, n};
		it->src = -1;
		it->suppress = k > from && t[k - 1] == '-' && (k - 1 == from || md_is_space((unsigned char)t[k - 2]));
		it->prefix = trim((struct str){t + from, k - from - (size_t)it->suppress});
		struct str rest = trim((struct str){t + k + 1 + n, to - k - 1 - n});
		if (rest.len && rest.p[0] == ',')
			rest = trim((struct str){rest.p + 1, rest.len - 1});
		it->locator = rest;
		return 0;
	}
	return -1;
}

/* bracket: the citation in t[open..close] ('[' ... ']'), when every item
 * of it has a key: 1 (a citation added, or an error reported: either way
 * the bracket is done with), or 0: not a citation (text, or xref.c's). */
static int bracket(struct cite_state *st, const char *t, size_t open, size_t close)
{
	size_t first = st->nitems, ncite = 0, nxref = 0;
	struct str keys[64];
	for (size_t from = open + 1; from <= close;) {
		const char *semi = memchr(t + from, ';', close - from);
		size_t to = semi ? (size_t)(semi - t) : close;
		struct cite_item it;
		struct str key;
		if (item(t, from, to, &it, &key) < 0 || st->nitems - first >= 64) {
			st->nitems = first;
			return 0;
		}
		it.src = locate(st, key);
		if (escaped(st, it.src)) {
			st->nitems = first;
			return 0;
		}
		if (is_xref(key))
			nxref++;
		else
			ncite++;
		GROW(st->items, st->nitems, st->cap_items);
		keys[st->nitems - first] = key;
		st->items[st->nitems++] = it;
		from = to + 1;
	}
	if (!ncite) {
		st->nitems = first;
		return nxref > 0;
	}
	if (nxref) {
		/* xref.c's message, at its place (the bracket's '['): when its
		 * pass ran first and said it, the collector does not say it
		 * twice */
		long at = st->items[first].src;
		size_t before = (size_t)(keys[0].p - 1 - (t + open));
		if (at >= 0 && (size_t)at >= before)
			at -= (long)before;
		size_t blen = close - open + 1;
		error_at(st, at, "'%.*s' mixes cross-references and citations (hint: give each its own brackets: [@eq:a] [@smith2020])",
			 (int)(blen > 200 ? 200 : blen), t + open);
		st->nitems = first;
		return 1;
	}
	int bad = 0;
	for (size_t i = first; i < st->nitems; i++) {
		const struct bib_entry *e = find(st->c, keys[i - first]);
		if (!e) {
			unknown_key(st, st->items[i].src, keys[i - first]);
			bad = 1;
		} else
			st->items[i].work = work(st, e);
	}
	if (bad) {
		st->nitems = first;
		return 1;
	}
	GROW(st->uses, st->nuses, st->cap_uses);
	st->uses[st->nuses++] = (struct cite_use){open, close + 1, 0, first, st->nitems - first};
	return 1;
}

/* bare: @key at t[at] in the text: a citation when key is one; an error
 * when it is a likely typo of one; else text (an @name). Returns the
 * offset after what it read. */
static size_t bare(struct cite_state *st, const char *t, size_t len, size_t at)
{
	size_t n = key_len(t + at + 1, len - at - 1);
	struct str key = {t + at + 1, n};
	if (!n || is_xref(key))
		return at + 1 + n;
	long src = locate(st, key);
	if (escaped(st, src))
		return at + 1 + n;
	const struct bib_entry *e = find(st->c, key);
	if (!e) {
		size_t gn;
		if (guess(st->c, key, &gn))
			unknown_key(st, src, key);
		return at + 1 + n;
	}
	GROW(st->items, st->nitems, st->cap_items);
	st->items[st->nitems] = (struct cite_item){src, {"", 0}, {"", 0}, 0, work(st, e)};
	GROW(st->uses, st->nuses, st->cap_uses);
	st->uses[st->nuses++] = (struct cite_use){at, at + 1 + n, 1, st->nitems++, 1};
	return at + 1 + n;
}

/* line_start: where line (1-based) of the body starts, by a cursor that
 * goes forward (from the top again for a footnote's, moved to the end). */
static size_t line_start(struct cite_state *st, size_t line)
{
	const struct md_ctx *c = st->c;
	if (line < st->line_no)
		st->line_at = 0, st->line_no = 1;
	while (st->line_no < line) {
		const char *nl = memchr(c->text + st->line_at, '\n', c->len - st->line_at);
		if (!nl)
			break;
		st->line_at = (size_t)(nl - c->text) + 1;
		st->line_no++;
	}
	return st->line_at;
}

/* enter_run: the block of the run at n: where its first line starts in
 * the body; and the search for the run's '@'s from where n is (past the
 * code and links before it, which may spell a key too), or the block's
 * start when a new one begins and n has no place (an extension made it). */
static void enter_run(struct cite_state *st, cmark_node *n)
{
	cmark_node *b = cmark_node_parent(n);
	while (b && !md_is_block(b))
		b = cmark_node_parent(b);
	if (b && b != st->block) {
		st->block = b;
		st->block_at = st->cur = line_start(st, (size_t)cmark_node_get_start_line(b));
	}
	int line = cmark_node_get_start_line(n), col = cmark_node_get_start_column(n);
	if (line > 0 && col > 0) {
		size_t at = line_start(st, (size_t)line) + (size_t)col - 1;
		if (at > st->cur && at <= st->c->len)
			st->cur = at;
	}
}

/* run: the text and soft break nodes from n on (n starts the run); a run
 * with a citation is kept in st->runs. Returns the run's last node. */
static cmark_node *run(struct cite_state *st, cmark_node *n)
{
	buf_reset(&st->text);
	cmark_node *last = n;
	size_t nnodes = 0;
	for (cmark_node *k = n; k; k = cmark_node_next(k)) {
		cmark_node_type ty = cmark_node_get_type(k);
		if (ty != CMARK_NODE_TEXT && ty != CMARK_NODE_SOFTBREAK)
			break;
		if (ty == CMARK_NODE_SOFTBREAK)
			buf_putc(&st->text, '\n');
		else
			buf_put_str(&st->text, md_literal(k));
		last = k;
		nnodes++;
	}
	const char *t = st->text.p ? st->text.p : "";
	size_t len = st->text.len;
	if (!memchr(t, '@', len))
		return last;
	enter_run(st, n);
	size_t first_use = st->nuses;
	for (size_t i = 0; i < len;) {
		if (t[i] == '[') {
			size_t q = i + 1;
			while (q < len && t[q] != ']' && t[q] != '[')
				q++;
			if (q < len && t[q] == ']' && memchr(t + i, '@', q - i) && bracket(st, t, i, q)) {
				i = q + 1;
				continue;
			}
		} else if (t[i] == '@' && (i == 0 || !word_byte((unsigned char)t[i - 1]))) {
			i = bare(st, t, len, i);
			continue;
		}
		i++;
	}
	if (st->nuses == first_use)
		return last;
	/* the items point into st->text, which the next run reuses: the
	 * run's text is kept in the arena, and they are moved onto it */
	char *kept = arena_strndup(st->c->a, t, len);
	for (size_t u = first_use; u < st->nuses; u++)
		for (size_t i = st->uses[u].first; i < st->uses[u].first + st->uses[u].n; i++) {
			struct cite_item *it = &st->items[i];
			if (it->prefix.len)
				it->prefix.p = kept + (it->prefix.p - t);
			if (it->locator.len)
				it->locator.p = kept + (it->locator.p - t);
		}
	GROW(st->runs, st->nruns, st->cap_runs);
	st->runs[st->nruns++] = (struct cite_run){n, nnodes, {kept, len}, first_use, st->nuses - first_use};
	return last;
}

/* find_runs: every run of text with a citation, in the order of the
 * document (not inside a link or image: a link holds no link). */
static void find_runs(struct cite_state *st)
{
	cmark_iter *it = cmark_iter_new(st->c->root);
	cmark_event_type ev;
	int in_link = 0;
	cmark_node *skip_to = NULL;
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *n = cmark_iter_get_node(it);
		cmark_node_type ty = cmark_node_get_type(n);
		if (ty == CMARK_NODE_LINK || ty == CMARK_NODE_IMAGE) {
			in_link += ev == CMARK_EVENT_ENTER ? 1 : -1;
			continue;
		}
		if (ev != CMARK_EVENT_ENTER || in_link || (ty != CMARK_NODE_TEXT && ty != CMARK_NODE_SOFTBREAK))
			continue;
		if (skip_to) { /* inside a run already read */
			if (n == skip_to)
				skip_to = NULL;
			continue;
		}
		cmark_node *last = run(st, n);
		if (last != n)
			skip_to = last;
	}
	cmark_iter_free(it);
}

/* ---- the words of a citation ---- */

/* names_of: the author list of e, else its editors'. */
static size_t names_of(struct arena *a, const struct bib_entry *e, struct bib_name **names, int *others)
{
	struct str v = bibtex_field(e, "author");
	if (!v.p)
		v = bibtex_field(e, "editor");
	*names = NULL;
	*others = 0; /* none: not "et al." (read uninitialised until ASan's stack showed it) */
	return v.p ? bibtex_names(a, v, names, others) : 0;
}

static void put_last(struct buf *b, const struct bib_name *nm)
{
	if (nm->von.len) {
		bibtex_latex(b, nm->von, 0);
		buf_putc(b, ' ');
	}
	bibtex_latex(b, nm->last, 0);
}

/* who_year: the words of a citation of ct: "Vaswani et al.", "Kingma and
 * Ba", "Dao" (no author: the title, else the key), and the year (else the
 * label "n.d.") */
static void who_year(struct md_ctx *c, struct cited *ct, struct buf *b)
{
	struct bib_name *names;
	int others;
	size_t n = names_of(c->a, ct->e, &names, &others);
	buf_reset(b);
	if (n == 0) {
		struct str t = bibtex_field(ct->e, "organization");
		if (!t.p)
			t = bibtex_field(ct->e, "title");
		if (t.p)
			bibtex_latex(b, t, 0);
		else
			buf_put_str(b, ct->e->key);
	} else {
		put_last(b, &names[0]);
		if (n == 2 && !others) {
			buf_printf(b, " %s ", label(c, MD_LABEL_AND, "and"));
			put_last(b, &names[1]);
		} else if (n > 2 || others) {
			buf_printf(b, " %s", label(c, MD_LABEL_ET_AL, "et al."));
		}
	}
	ct->who = buf_to_arena(b, c->a);
	struct str y = bibtex_field(ct->e, "year");
	if (!y.p) {
		y = bibtex_field(ct->e, "date");
		if (y.len > 4)
			y.len = 4;
	}
	if (y.p)
		bibtex_latex(b, y, 0);
	else
		buf_puts(b, label(c, MD_LABEL_NO_DATE, "n.d."));
	ct->year = buf_to_arena(b, c->a);
}

/* by_author: author-year's order: names, year, then the order of first
 * citation (qsort over pointers: the works themselves hold the keys). */
static int by_author(const void *x, const void *y)
{
	const struct cited *a = *(const struct cited *const *)x, *b = *(const struct cited *const *)y;
	int d = str_cmp(a->who, b->who);
	if (!d)
		d = str_cmp(a->year, b->year);
	return d ? d : a->num - b->num;
}

/* sorted: the works cited in author-year's order (malloc'd). */
static struct cited **sorted(struct cite_state *st)
{
	struct cited **v = xmalloc((st->ncited + 1) * sizeof *v);
	for (size_t i = 0; i < st->ncited; i++)
		v[i] = &st->cited[i];
	qsort(v, st->ncited, sizeof *v, by_author);
	return v;
}

/* letters: works of one author label and year get a, b, ... in the
 * order they are first cited (author-year only; past z, none). */
static void letters(struct cite_state *st)
{
	struct cited **v = sorted(st);
	for (size_t i = 0; i < st->ncited;) {
		size_t j = i + 1;
		while (j < st->ncited && str_eq(v[i]->who, v[j]->who) && str_eq(v[i]->year, v[j]->year))
			j++;
		for (size_t k = i; j - i > 1 && k < j && k - i < 26; k++)
			v[k]->letter = (char)('a' + (k - i));
		i = j;
	}
	free(v);
}

/* ---- making the nodes ---- */

static cmark_node *text_node(struct md_ctx *c, const char *p, size_t n)
{
	cmark_node *t = cmark_node_new_with_mem(CMARK_NODE_TEXT, c->mem);
	char *s = arena_strndup(c->a, p, n);
	cmark_node_set_literal(t, s);
	return t;
}

/* put_text: text p[0..n) before node at: text nodes and, for each '\n',
 * a soft break. */
static void put_text(struct md_ctx *c, cmark_node *at, const char *p, size_t n)
{
	while (n) {
		const char *nl = memchr(p, '\n', n);
		size_t k = nl ? (size_t)(nl - p) : n;
		if (k) {
			char *s = arena_strndup(c->a, p, k);
			cmark_node *t = cmark_node_new_with_mem(CMARK_NODE_TEXT, c->mem);
			cmark_node_set_literal(t, s);
			cmark_node_insert_before(at, t);
		}
		if (nl) {
			cmark_node_insert_before(at, cmark_node_new_with_mem(CMARK_NODE_SOFTBREAK, c->mem));
			k++;
		}
		p += k;
		n -= k;
	}
}

static void put_cstr(struct md_ctx *c, cmark_node *at, const char *s)
{
	put_text(c, at, s, strlen(s));
}

/* ref_id: the id of ct's entry in the References: "ref-" and the key,
 * each byte but letters, digits, '-', '_', '.' and ':' written _XX (so
 * that two keys never share one and the id needs no escaping). */
static void ref_id(struct buf *b, struct str key)
{
	buf_puts(b, "ref-");
	for (size_t i = 0; i < key.len; i++) {
		unsigned char ch = (unsigned char)key.p[i];
		if (isalnum(ch) || ch == '-' || ch == '.' || ch == ':')
			buf_putc(b, (char)ch);
		else
			buf_printf(b, "_%02X", ch);
	}
}

/* put_link: a link to ct's entry before at, its text p[0..n). */
static void put_link(struct cite_state *st, cmark_node *at, const struct cited *ct, const char *p, size_t n)
{
	struct md_ctx *c = st->c;
	struct buf href;
	buf_init(&href);
	buf_putc(&href, '#');
	ref_id(&href, ct->key);
	cmark_node *l = cmark_node_new_with_mem(CMARK_NODE_LINK, c->mem);
	cmark_node_set_url(l, href.p);
	cmark_node_set_user_data(l, (void *)&cite_marker);
	cmark_node_append_child(l, text_node(c, p, n));
	cmark_node_insert_before(at, l);
	buf_fini(&href);
}

/* year_of: ct's year and its letter into b (reset). */
static void year_of(struct buf *b, const struct cited *ct)
{
	buf_reset(b);
	buf_put_str(b, ct->year);
	if (ct->letter)
		buf_putc(b, ct->letter);
}

/* numbers_collapsed: the numbers of the items of u in order, runs of
 * three or more as a range: "1, 3–5"; only for items without prefix,
 * locator or suppressed author. */
static void numbers_collapsed(struct cite_state *st, cmark_node *at, const struct cite_use *u)
{
	struct md_ctx *c = st->c;
	size_t n = u->n;
	size_t *w = xmalloc(n * sizeof *w);
	for (size_t i = 0; i < n; i++)
		w[i] = st->items[u->first + i].work;
	for (size_t i = 1; i < n; i++) /* insertion sort: a bracket's few */
		for (size_t j = i; j > 0 && st->cited[w[j - 1]].num > st->cited[w[j]].num; j--) {
			size_t x = w[j];
			w[j] = w[j - 1];
			w[j - 1] = x;
		}
	char num[32];
	for (size_t i = 0; i < n;) {
		size_t j = i;
		while (j + 1 < n && st->cited[w[j + 1]].num <= st->cited[w[j]].num + 1)
			j++;
		if (i)
			put_cstr(c, at, ", ");
		snprintf(num, sizeof num, "%d", st->cited[w[i]].num);
		put_link(st, at, &st->cited[w[i]], num, strlen(num));
		if (j >= i + 2) {
			put_cstr(c, at, "–");
			snprintf(num, sizeof num, "%d", st->cited[w[j]].num);
			put_link(st, at, &st->cited[w[j]], num, strlen(num));
			i = j + 1;
		} else {
			i++;
		}
	}
	free(w);
}

/* put_use: citation u in place, before at. */
static void put_use(struct cite_state *st, cmark_node *at, const struct cite_use *u)
{
	struct md_ctx *c = st->c;
	int numeric = c->o->cite_style == MD_CITE_NUMERIC;
	struct buf b;
	buf_init(&b);
	if (u->bare) {
		const struct cited *ct = &st->cited[st->items[u->first].work];
		buf_put_str(&b, ct->who);
		if (numeric)
			buf_printf(&b, " [%d]", ct->num);
		else {
			buf_puts(&b, " (");
			buf_put_str(&b, ct->year);
			if (ct->letter)
				buf_putc(&b, ct->letter);
			buf_putc(&b, ')');
		}
		put_link(st, at, ct, b.p, b.len);
		buf_fini(&b);
		return;
	}
	int plain = 1;
	for (size_t i = u->first; i < u->first + u->n; i++)
		if (st->items[i].prefix.len || st->items[i].locator.len || st->items[i].suppress)
			plain = 0;
	put_cstr(c, at, numeric ? "[" : "(");
	if (numeric && plain) {
		numbers_collapsed(st, at, u);
	} else {
		for (size_t i = u->first; i < u->first + u->n; i++) {
			const struct cite_item *it = &st->items[i];
			const struct cited *ct = &st->cited[it->work];
			if (i > u->first)
				put_cstr(c, at, "; ");
			if (it->prefix.len) {
				put_text(c, at, it->prefix.p, it->prefix.len);
				put_cstr(c, at, " ");
			}
			if (numeric)
				buf_printf(&b, "%d", ct->num);
			else if (it->suppress)
				year_of(&b, ct);
			else {
				buf_put_str(&b, ct->who);
				buf_puts(&b, ", ");
				buf_put_str(&b, ct->year);
				if (ct->letter)
					buf_putc(&b, ct->letter);
			}
			put_link(st, at, ct, b.p, b.len);
			buf_reset(&b);
			if (it->locator.len) {
				put_cstr(c, at, ", ");
				put_text(c, at, it->locator.p, it->locator.len);
			}
		}
	}
	put_cstr(c, at, numeric ? "]" : ")");
	buf_fini(&b);
}

/* replace_run: the run's nodes made anew: its text between citations,
 * and each citation's; the old nodes freed. */
static void replace_run(struct cite_state *st, const struct cite_run *r)
{
	struct md_ctx *c = st->c;
	cmark_node *at = r->first;
	size_t pos = 0;
	for (size_t u = r->first_use; u < r->first_use + r->nuses; u++) {
		const struct cite_use *use = &st->uses[u];
		put_text(c, at, r->text.p + pos, use->start - pos);
		put_use(st, at, use);
		pos = use->end;
	}
	put_text(c, at, r->text.p + pos, r->text.len - pos);
	for (size_t i = 0; i < r->nnodes; i++) {
		cmark_node *next = cmark_node_next(at);
		cmark_node_free(at);
		at = next;
	}
}

/* ---- the References ---- */

/* no_nul: each NUL byte of b made U+FFFD, as cmark does in the text it
 * parses: a node's literal is a C string, and a NUL that reached the
 * References (a URL's "\\" then a NUL, taken for an escape) ended them
 * there, and the page's links to the entries after it led nowhere
 * (fuzz_bibtex). */
static void no_nul(struct buf *b)
{
	if (!b->len || !memchr(b->p, '\0', b->len))
		return;
	struct buf t;
	buf_init(&t);
	for (size_t i = 0; i < b->len;) {
		const char *z = memchr(b->p + i, '\0', b->len - i);
		size_t k = z ? (size_t)(z - b->p) : b->len;
		buf_append(&t, b->p + i, k - i);
		if (z)
			buf_append(&t, "\xEF\xBF\xBD", 3);
		i = k + (z != NULL);
	}
	buf_fini(b);
	*b = t;
}

static void put_field(struct buf *b, const struct bib_entry *e, const char *name, const char *before,
		      const char *after)
{
	struct str v = bibtex_field(e, name);
	if (!v.p || !v.len)
		return;
	buf_puts(b, before);
	bibtex_latex(b, v, 1);
	buf_puts(b, after);
}

/* put_url: a link to url (http and https only: a .bib is no place for
 * javascript:) with its text shown. */
static void put_url(struct buf *b, struct str url, const char *shown_prefix, struct str shown)
{
	if (b->len && b->p[b->len - 1] != ' ')
		buf_putc(b, ' ');
	buf_puts(b, "<a href=\"");
	buf_put_html(b, url.p, url.len);
	buf_puts(b, "\">");
	buf_puts(b, shown_prefix);
	buf_put_html(b, shown.p, shown.len);
	buf_puts(b, "</a>");
}

static int starts(struct str s, const char *p)
{
	size_t n = strlen(p);
	return s.len >= n && !strncasecmp(s.p, p, n);
}

/* link_field: the value of e's field name as a URL or id (the arena's):
 * braces dropped, \_ \% \& \# \~ \$ their characters; empty when it
 * has none, or spacing or a control character (no link is made of it). */
static struct str link_field(struct arena *a, const struct bib_entry *e, const char *name)
{
	struct str v = trim(bibtex_field(e, name));
	char *out = arena_alloc_raw(a, v.len + 1);
	size_t n = 0;
	for (size_t i = 0; i < v.len; i++) {
		unsigned char ch = (unsigned char)v.p[i];
		if (ch <= 0x20 || ch == 0x7F)
			return (struct str){NULL, 0};
		if (ch == '{' || ch == '}')
			continue;
		if (ch == '\\' && i + 1 < v.len && byte_in("_%&#~$", v.p[i + 1]))
			ch = (unsigned char)v.p[++i];
		out[n++] = (char)ch;
	}
	out[n] = 0;
	return (struct str){n ? out : NULL, n};
}

/* put_links: the DOI, arXiv and URL links of e (a DOI or arXiv id
 * written as a URL is shown as its id), to b. */
static void put_links(struct arena *a, struct buf *b, const struct bib_entry *e)
{
	struct buf u;
	buf_init(&u);
	struct str doi = link_field(a, e, "doi");
	struct str url = link_field(a, e, "url");
	struct str eprint = link_field(a, e, "eprint");
	struct str arch = bibtex_field(e, "archiveprefix");
	if (!arch.p)
		arch = bibtex_field(e, "eprinttype");
	struct str arxiv = {NULL, 0};
	static const char *const arxiv_urls[] = {"https://arxiv.org/abs/", "http://arxiv.org/abs/"};
	static const char *const doi_urls[] = {"https://doi.org/", "http://doi.org/", "https://dx.doi.org/",
					       "http://dx.doi.org/", "doi:"};
	if (eprint.len && arch.p && starts(arch, "arxiv"))
		arxiv = eprint;
	for (size_t i = 0; i < 2; i++)
		if (starts(url, arxiv_urls[i])) {
			if (!arxiv.len)
				arxiv = (struct str){url.p + strlen(arxiv_urls[i]), url.len - strlen(arxiv_urls[i])};
			url = (struct str){NULL, 0};
			break;
		}
	for (size_t i = 0; i < 5; i++)
		if (starts(doi, doi_urls[i])) {
			doi = (struct str){doi.p + strlen(doi_urls[i]), doi.len - strlen(doi_urls[i])};
			break;
		}
	if (doi.len && starts(url, "https://doi.org/"))
		url = (struct str){NULL, 0}; /* the same link twice */
	if (doi.len) {
		buf_puts(&u, "https://doi.org/");
		buf_put_str(&u, doi);
		put_url(b, buf_str(&u), "doi:", doi);
	}
	if (arxiv.len) {
		buf_reset(&u);
		buf_puts(&u, "https://arxiv.org/abs/");
		buf_put_str(&u, arxiv);
		put_url(b, buf_str(&u), "arXiv:", arxiv);
	}
	if (url.len && (starts(url, "https://") || starts(url, "http://")))
		put_url(b, url, "", url);
	buf_fini(&u);
}

/* put_authors: "Ashish Vaswani, Noam Shazeer and Niki Parmar" (the
 * label's "and"; "et al." for "and others"). */
static void put_authors(struct md_ctx *c, struct buf *b, const struct bib_entry *e)
{
	struct bib_name *names;
	int others;
	size_t n = names_of(c->a, e, &names, &others);
	for (size_t i = 0; i < n; i++) {
		if (i && (i + 1 < n || others))
			buf_puts(b, ", ");
		else if (i) {
			buf_putc(b, ' ');
			buf_put_html(b, label(c, MD_LABEL_AND, "and"), strlen(label(c, MD_LABEL_AND, "and")));
			buf_putc(b, ' ');
		}
		const struct bib_name *nm = &names[i];
		struct str parts[3] = {nm->first, nm->von, nm->last};
		int sp = 0;
		for (size_t k = 0; k < 3; k++)
			if (parts[k].len) {
				if (sp)
					buf_putc(b, ' ');
				bibtex_latex(b, parts[k], 1);
				sp = 1;
			}
		if (nm->jr.len) {
			buf_puts(b, ", ");
			bibtex_latex(b, nm->jr, 1);
		}
	}
	if (others) {
		buf_putc(b, ' ');
		buf_put_html(b, label(c, MD_LABEL_ET_AL, "et al."), strlen(label(c, MD_LABEL_ET_AL, "et al.")));
	}
	if (n) /* "et al." has its period */
		buf_puts(b, b->p[b->len - 1] == '.' ? " " : ". ");
}

/* put_entry: one <li> of the References: authors, year, title, where it
 * appeared, links. */
static void put_entry(struct cite_state *st, struct buf *b, const struct cited *ct)
{
	struct md_ctx *c = st->c;
	const struct bib_entry *e = ct->e;
	buf_puts(b, "<li id=\"");
	ref_id(b, ct->key);
	buf_puts(b, "\">");
	put_authors(c, b, e);
	buf_put_html(b, ct->year.p, ct->year.len);
	if (ct->letter)
		buf_putc(b, ct->letter);
	buf_puts(b, b->p[b->len - 1] == '.' ? " " : ". "); /* "n.d." has its period */
	int book = str_eq_cstr(e->type, "book") || str_eq_cstr(e->type, "phdthesis") ||
		   str_eq_cstr(e->type, "mastersthesis") || str_eq_cstr(e->type, "manual");
	struct str title = bibtex_field(e, "title");
	if (title.len) {
		size_t at = b->len;
		put_field(b, e, "title", book ? "<em>" : "", book ? "</em>" : "");
		char last = b->len > at ? b->p[b->len - 1] : 0;
		if (book && b->len > at + 5)
			last = b->p[b->len - 6];
		buf_puts(b, last == '?' || last == '!' || last == '.' ? " " : ". ");
	}
	size_t at = b->len;
	if (!book) {
		struct str venue = bibtex_field(e, "journal");
		if (!venue.p)
			venue = bibtex_field(e, "booktitle");
		if (venue.p && venue.len) {
			buf_puts(b, "<em>");
			bibtex_latex(b, venue, 1);
			buf_puts(b, "</em>");
		}
		put_field(b, e, "volume", b->len > at ? ", " : "", "");
		put_field(b, e, "number", "(", ")");
		put_field(b, e, "pages", b->len > at ? ", " : "", "");
	}
	static const char *const who[] = {"publisher", "school", "institution", "organization", "howpublished"};
	for (size_t i = 0; i < 5; i++)
		if (bibtex_field(e, who[i]).len) {
			put_field(b, e, who[i], b->len > at ? ", " : "", "");
			break;
		}
	if (b->len > at)
		buf_putc(b, '.');
	put_links(c->a, b, e);
	while (b->len && b->p[b->len - 1] == ' ')
		b->len--, b->p[b->len] = 0;
	buf_puts(b, "</li>\n");
}

/* references: the list of the works cited, before the footnotes: an
 * <ol> in the order of their numbers (numeric), or a <ul> by authors and
 * year (author-year). */
static void references(struct cite_state *st)
{
	struct md_ctx *c = st->c;
	int numeric = c->o->cite_style == MD_CITE_NUMERIC;
	struct cited **order = numeric ? xmalloc((st->ncited + 1) * sizeof *order) : sorted(st);
	if (numeric) /* in the order of their numbers */
		for (size_t i = 0; i < st->ncited; i++)
			order[i] = &st->cited[i];
	struct buf b;
	buf_init(&b);
	const char *heading = label(c, MD_LABEL_REFERENCES, "References");
	buf_puts(&b, "<section class=\"references\">\n<h2>");
	buf_put_html(&b, heading, strlen(heading));
	buf_puts(&b, numeric ? "</h2>\n<ol>\n" : "</h2>\n<ul>\n");
	for (size_t i = 0; i < st->ncited; i++)
		put_entry(st, &b, order[i]);
	buf_puts(&b, numeric ? "</ol>\n</section>\n" : "</ul>\n</section>\n");
	free(order);
	no_nul(&b);
	cmark_node *h = cmark_node_new_with_mem(CMARK_NODE_HTML_BLOCK, c->mem);
	cmark_node_set_literal(h, b.p);
	buf_fini(&b);
	cmark_node *n = cmark_node_first_child(c->root);
	while (n && cmark_node_get_type(n) != CMARK_NODE_FOOTNOTE_DEFINITION)
		n = cmark_node_next(n);
	if (n)
		cmark_node_insert_before(n, h);
	else
		cmark_node_append_child(c->root, h);
}

void md_pass_citations(struct md_ctx *c)
{
	if (!c->o->bibs || !c->root || (!c->o->nnocite && !memchr(c->text, '@', c->len)))
		return;
	struct cite_state st = {.c = c, .line_no = 1};
	buf_init(&st.text);
	find_runs(&st);
	for (size_t i = 0; i < c->o->nnocite; i++) {
		const struct bib_entry *e = find(c, c->o->nocite[i]);
		if (e) /* model/ checked them */
			work(&st, e);
	}
	if (st.ncited) {
		struct buf b;
		buf_init(&b);
		for (size_t i = 0; i < st.ncited; i++)
			who_year(c, &st.cited[i], &b);
		buf_fini(&b);
		if (c->o->cite_style == MD_CITE_AUTHOR_YEAR)
			letters(&st);
		/* a document with nocite and no '@' has no runs */
		for (size_t i = 0; i < st.nruns; i++)
			replace_run(&st, &st.runs[i]);
		references(&st);
	}
	buf_fini(&st.text);
	free(st.cited);
	free(st.items);
	free(st.uses);
	free(st.runs);
	map_fini(&st.by_key);
}
