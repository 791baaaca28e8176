/* xref.c: cross-references made final (xref.h): every document's
 * placeholders filled in from the labels of the post they name. Only the
 * documents that have labels or references are looked at: a site without
 * any pays a test of two counts per document. */
#include "model/xref.h"

#include "model/links.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void xref_number(struct buf *out, const struct post *p, const struct md_label *l)
{
	if (p && p->series && p->series->number_by_part && p->part >= 0)
		buf_printf(out, "%d.%d", p->part, l->number);
	else
		buf_printf(out, "%d", l->number);
}

/* One reference of the document being filled in, resolved. */
struct target {
	const struct post *post;   /* the post it names (NULL: the document itself) */
	const struct md_label *l;  /* NULL: unresolved (an error, said) */
};

struct resolver {
	struct arena *a;
	struct diag *d;
	const char *const *words;
	const struct map *by_slug;
	struct map by_path; /* posts by their file, made on first use */
	struct map labels;  /* (post, name) -> its label, for the posts in indexed */
	struct map indexed; /* the posts whose labels are in labels */
	int paths_made;
	int errors;
	/* the document being filled in */
	const struct md_doc *doc;
	const struct source *src;
	const struct post *post; /* NULL: a page or series guide */
	struct str url;          /* its page's */
	struct target *t;
	struct buf tmp;
};

static const char *word(const struct resolver *r, int k)
{
	static const char *const en[] = {"Eq.", "Figure", "Table", "Listing", "{ref} of {title}"};
	const char *w = r->words ? r->words[MD_LABEL_XREF_EQ + k] : NULL;
	return w ? w : en[k];
}

static void err_at(struct resolver *r, const struct md_xref *x, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void err_at(struct resolver *r, const struct md_xref *x, const char *fmt, ...)
{
	struct diag_src in = {r->src->path, r->src->src, r->src->len, r->src->body_line};
	struct diag_loc loc = diag_src_at(&in, x->line, x->col);
	va_list ap;
	va_start(ap, fmt);
	diag_vreport(r->d, DIAG_ERROR, &loc, NULL, 0, fmt, ap);
	va_end(ap);
	r->errors++;
}

/* find_label: post p's label name, or NULL. The labels of a post are
 * put in r->labels (keyed by the post's address and the name) when a
 * reference first names it: 10,000 references into a post of 10,000
 * labels are no walk each. */
static const struct md_label *find_label(struct resolver *r, const struct post *p, struct str name)
{
	int added;
	const struct post **key = arena_alloc(r->a, sizeof *key);
	*key = p;
	map_put(&r->indexed, (const char *)key, sizeof p, &added);
	buf_reset(&r->tmp);
	if (added) {
		for (size_t i = 0; i < p->doc.nlabels; i++) {
			const struct md_label *l = &p->doc.labels[i];
			char *k = arena_alloc(r->a, sizeof p + l->name.len);
			memcpy(k, &p, sizeof p);
			memcpy(k + sizeof p, l->name.p, l->name.len);
			map_put(&r->labels, k, sizeof p + l->name.len, NULL)->val.p = (void *)l;
		}
	}
	buf_append(&r->tmp, &p, sizeof p);
	buf_append(&r->tmp, name.p, name.len);
	return map_get(&r->labels, r->tmp.p, r->tmp.len);
}

/* post_of_path: the post whose file the link x.md (relative to the
 * document's file) names, or NULL. */
static const struct post *post_of_path(struct resolver *r, struct str link)
{
	if (!r->paths_made) {
		r->paths_made = 1;
		for (size_t i = 0; i < r->by_slug->n; i++) {
			const struct post *p = r->by_slug->e[i].val.p;
			map_put(&r->by_path, p->s.path, strlen(p->s.path), NULL)->val.p = (void *)p;
		}
	}
	buf_reset(&r->tmp);
	const char *slash = strrchr(r->src->path, '/');
	if (slash)
		buf_append(&r->tmp, r->src->path, (size_t)(slash - r->src->path) + 1);
	links_pct_decode(&r->tmp, link.p, link.len); /* NUL-terminated */
	if (links_normalize(r->tmp.p) < 0)
		return NULL;
	return map_get(&r->by_path, r->tmp.p, strlen(r->tmp.p));
}

/* resolve: reference x of the document: its post and label, or an error. */
static struct target resolve(struct resolver *r, const struct md_xref *x)
{
	struct target t = {NULL, NULL};
	if (!x->target.len) {
		t.l = x->label >= 0 && (size_t)x->label < r->doc->nlabels ? &r->doc->labels[x->label] : NULL;
		return t;
	}
	const struct post *p = x->flags & MD_XREF_BY_PATH ? post_of_path(r, x->target) : map_get(r->by_slug, x->target.p, x->target.len);
	if (!p && x->flags & MD_XREF_BY_PATH) {
		err_at(r, x, "cross-reference to '%.*s#%.*s': no post has that file", STR_FMT(x->target), STR_FMT(x->name));
		return t;
	}
	if (!p && diag_file_full(r->d, r->src->path)) {
		err_at(r, x, "cross-reference to an unknown post");
		return t;
	}
	if (!p) {
		struct diag_guess g;
		diag_guess_init(&g, x->target.p, x->target.len);
		for (size_t i = 0; i < r->by_slug->n && i < 4096; i++)
			diag_guess_try(&g, r->by_slug->e[i].key, r->by_slug->e[i].len);
		size_t n;
		const char *best = diag_guess_best(&g, &n);
		if (best)
			err_at(r, x, "cross-reference to an unknown post '%.*s' (did you mean '%.*s'?)", STR_FMT(x->target),
			       (int)n, best);
		else
			err_at(r, x, "cross-reference to an unknown post '%.*s' (hint: @SLUG#%.*s names a post by its slug)",
			       STR_FMT(x->target), STR_FMT(x->name));
		return t;
	}
	/* a post this build leaves out (a draft, a post of the future) is
	 * referred to where it will be: the link check warns that the link
	 * is dead until it is published, as for any link to it */
	t.post = p;
	t.l = find_label(r, p, x->name);
	if (!t.l && diag_file_full(r->d, r->src->path)) {
		err_at(r, x, "unknown label"); /* counted, not shown: no search */
	} else if (!t.l) {
		struct diag_guess g;
		diag_guess_init(&g, x->name.p, x->name.len);
		for (size_t i = 0; i < p->doc.nlabels; i++)
			diag_guess_try(&g, p->doc.labels[i].name.p, p->doc.labels[i].name.len);
		size_t n;
		const char *best = diag_guess_best(&g, &n);
		if (best)
			err_at(r, x, "unknown label '%.*s' in post '%.*s' (did you mean '%.*s'?)", STR_FMT(x->name),
			       STR_FMT(p->slug), (int)n, best);
		else
			err_at(r, x, "unknown label '%.*s' in post '%.*s' (hint: it has no label of that name)",
			       STR_FMT(x->name), STR_FMT(p->slug));
	}
	return t;
}

static void fill_number(void *ctx, struct buf *out, size_t i)
{
	struct resolver *r = ctx;
	xref_number(out, r->post, &r->doc->labels[i]);
}

/* put: s as HTML (or as it is, for text). */
static void put(struct buf *out, struct str s, int text)
{
	if (text)
		buf_append(out, s.p, s.len);
	else
		buf_put_html(out, s.p, s.len);
}

/* ref_words: what a reference to label l of post p says: "Eq. (3)",
 * "Figure 2", a heading's text; cap: the word's first letter made a
 * capital. */
static void ref_words(struct resolver *r, struct buf *out, const struct post *p, const struct md_label *l, int cap,
		      int text)
{
	if (l->kind == MD_XREF_SEC) {
		put(out, l->text, text);
		return;
	}
	size_t at = out->len;
	put(out, str_from(word(r, l->kind)), text);
	if (cap && out->len > at && out->p[at] >= 'a' && out->p[at] <= 'z')
		out->p[at] = (char)(out->p[at] - 'a' + 'A');
	buf_puts(out, l->kind == MD_XREF_EQ ? " (" : " ");
	xref_number(out, p, l);
	if (l->kind == MD_XREF_EQ)
		buf_putc(out, ')');
}

static void fill_ref(void *ctx, struct buf *out, size_t i, int mode)
{
	struct resolver *r = ctx;
	const struct md_xref *x = &r->doc->xrefs[i];
	const struct target *t = &r->t[i];
	int text = mode == 1;
	if (!t->l) { /* an error (said): the reference as written */
		buf_putc(out, '@');
		if (x->target.len) {
			put(out, x->target, text);
			buf_putc(out, '#');
		}
		put(out, x->name, text);
		return;
	}
	const struct post *p = t->post ? t->post : r->post;
	if (!text) {
		buf_puts(out, "<a href=\"");
		/* in the document's own page, a fragment; anywhere else (a
		 * summary in a list), its page's URL too */
		if (t->post && t->post->url.len)
			buf_put_html(out, t->post->url.p, t->post->url.len);
		else if (t->post) /* left out of this build: where it will be */
			buf_printf(out, "/posts/%.*s/", STR_FMT(t->post->slug));
		else if (mode == 2)
			buf_put_html(out, r->url.p, r->url.len);
		buf_putc(out, '#');
		buf_put_html(out, t->l->name.p, t->l->name.len);
		buf_puts(out, "\" class=\"xref\">");
	}
	if (!t->post) {
		ref_words(r, out, p, t->l, x->flags & MD_XREF_CAP, text);
	} else {
		/* "{ref} of {title}", in the site's language */
		const char *pat = word(r, 4), *q;
		while ((q = strchr(pat, '{')) != NULL) {
			buf_append(out, pat, (size_t)(q - pat));
			if (!strncmp(q, "{ref}", 5)) {
				ref_words(r, out, p, t->l, x->flags & MD_XREF_CAP, text);
				pat = q + 5;
			} else if (!strncmp(q, "{title}", 7)) {
				if (!text)
					buf_puts(out, "<em>");
				put(out, t->post->title, text);
				if (!text)
					buf_puts(out, "</em>");
				pat = q + 7;
			} else {
				buf_putc(out, '{');
				pat = q + 1;
			}
		}
		buf_puts(out, pat);
	}
	if (!text)
		buf_puts(out, "</a>");
}

/* expand: s with its placeholders filled in (mode: 0 the page's HTML, 1
 * text, 2 HTML shown on other pages), in the arena; s itself when it has
 * none. */
static struct str expand(struct resolver *r, struct str s, int mode)
{
	if (!md_xref_has(s))
		return s;
	struct buf out;
	buf_init(&out);
	struct md_xref_fill f = {fill_number, fill_ref, r, r->doc->nlabels, r->doc->nxrefs};
	md_xref_expand(&out, s, mode, &f);
	struct str res = {arena_strndup(r->a, out.p ? out.p : "", out.len), out.len};
	buf_fini(&out);
	return res;
}

static void expand_toc(struct resolver *r, struct md_toc *t, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		t[i].text = expand(r, t[i].text, 1);
		t[i].html = expand(r, t[i].html, 2);
		expand_toc(r, t[i].children, t[i].nchildren);
	}
}

/* fill: one document's placeholders filled in. */
static void fill(struct resolver *r, struct md_doc *doc, const struct source *src, const struct post *post,
		 struct str url)
{
	if (!doc->nlabels && !doc->nxrefs)
		return;
	r->doc = doc;
	r->src = src;
	r->post = post;
	r->url = url;
	r->t = arena_alloc(r->a, (doc->nxrefs + 1) * sizeof *r->t);
	for (size_t i = 0; i < doc->nxrefs; i++)
		r->t[i] = resolve(r, &doc->xrefs[i]);
	struct str was = doc->html;
	doc->html = expand(r, doc->html, 0);
	if (doc->html.p != was.p) {
		doc->html_hash = 0;
		doc->img_at = 0;
	}
	doc->summary_html = expand(r, doc->summary_html, 2);
	doc->summary_text = expand(r, doc->summary_text, 1);
	expand_toc(r, doc->toc, doc->ntoc);
}

int xref_resolve(struct arena *a, struct diag *d, struct site *s, const struct map *by_slug,
		 const char *const words[MD_LABELS])
{
	struct resolver r = {.a = a, .d = d, .words = words, .by_slug = by_slug};
	buf_init(&r.tmp);
	for (size_t i = 0; i < s->nposts; i++)
		fill(&r, &s->posts[i]->doc, &s->posts[i]->s, s->posts[i], s->posts[i]->url);
	for (size_t i = 0; i < s->nseries; i++)
		fill(&r, &s->series[i]->doc, &s->series[i]->s, NULL, s->series[i]->url);
	for (size_t i = 0; i < s->npages; i++)
		fill(&r, &s->pages[i]->doc, &s->pages[i]->s, NULL, s->pages[i]->url);
	map_fini(&r.by_path);
	map_fini(&r.labels);
	map_fini(&r.indexed);
	buf_fini(&r.tmp);
	return r.errors;
}
