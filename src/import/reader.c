/* reader.c: what the readers of Jekyll and Hugo sites share (see
 * reader.h). */
#include "import/reader.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/slug.h"
#include "files/sitefile.h"
#include "formats/yaml.h"
#include "files/reader.h"

/* Deeper folders than this are not walked (a loop of links inside SRC
 * is also cut here). */
#define IMP_MAX_DEPTH 16

struct imp_src *imp_src_new(struct imp_reader *r)
{
	if (r->n == r->cap) {
		r->cap = r->cap ? r->cap * 2 : 32;
		r->v = xrealloc(r->v, r->cap * sizeof *r->v);
	}
	struct imp_src *x = &r->v[r->n++];
	memset(x, 0, sizeof *x);
	return x;
}

void imp_src_drop(struct imp_reader *r)
{
	free(r->v[r->n - 1].text);
	r->v[r->n - 1].text = NULL;
	r->n--;
}

int imp_src_read(struct imp_reader *r, struct imp_src *x, const char *rel)
{
	x->text = imp_read_src(r->s, rel, &x->len);
	if (!x->text)
		return -1;
	x->text = imp_utf8(r->s, x->text, &x->len, rel);
	/* CRLF -> LF: Windows line ends, the lines counted the same */
	size_t k = 0;
	for (size_t i = 0; i < x->len; i++)
		if (!(x->text[i] == '\r' && i + 1 < x->len && x->text[i + 1] == '\n'))
			x->text[k++] = x->text[i];
	x->text[k] = '\0';
	x->len = k;
	return 0;
}

void imp_fm_unused(struct imp_reader *r, const char *key, const char *path, int line)
{
	for (size_t i = 0; i < r->fm_keys.n; i++)
		if (!strcmp(r->fm_keys.v[i], key)) {
			r->fm_count[i]++;
			return;
		}
	struct arena *a = r->s->a;
	size_t n = r->fm_keys.n;
	imp_list_add(a, &r->fm_keys, arena_strndup(a, key, strlen(key)));
	imp_list_add(a, &r->fm_first, path);
	r->fm_count = arena_realloc(a, r->fm_count, n * sizeof *r->fm_count, (n + 1) * sizeof *r->fm_count);
	r->fm_line = arena_realloc(a, r->fm_line, n * sizeof *r->fm_line, (n + 1) * sizeof *r->fm_line);
	r->fm_count[n] = 1;
	r->fm_line[n] = line;
}

void imp_walk(struct imp_site *s, const char *dir, int depth,
	      int (*skip)(void *ctx, const char *rel, const char *name, int top), void *ctx, struct imp_list *out)
{
	char p[4096];
	if ((size_t)snprintf(p, sizeof p, "%s/%s", s->src, dir) >= sizeof p || depth > IMP_MAX_DEPTH)
		return;
	size_t n;
	char **names = site_list_all(p, &n);
	if (!names)
		return;
	for (size_t i = 0; i < n; i++) {
		const char *nm = names[i];
		char rel[4096];
		if (nm[0] == '.' || (size_t)snprintf(rel, sizeof rel, "%s%s%s", dir, *dir ? "/" : "", nm) >= sizeof rel ||
		    (skip && skip(ctx, rel, nm, !*dir)))
			continue;
		char full[4200], to[4096];
		snprintf(full, sizeof full, "%s/%s", s->src, rel);
		enum site_where w = site_where(s->src_root, full, to, sizeof to);
		struct stat st;
		if (w != SITE_INSIDE && w != SITE_MISSING)
			imp_note(s->a, &s->rep, "link out of SRC", arena_strndup(s->a, rel, strlen(rel)), 0,
				 "a symbolic link %s: not followed",
				 w == SITE_OUTSIDE ? "out of SRC" : w == SITE_LOOP ? "in a loop" : "to nothing");
		else if (w == SITE_INSIDE && stat(full, &st) == 0) {
			if (S_ISDIR(st.st_mode))
				imp_walk(s, rel, depth + 1, skip, ctx, out);
			else if (S_ISREG(st.st_mode))
				imp_list_add(s->a, out, arena_strndup(s->a, rel, strlen(rel)));
		}
	}
	site_list_free(names, n);
}

const char *imp_doc_url(struct arena *a, const struct imp_doc *d)
{
	return d->kind == IMP_POST ? imp_fmt(a, "/posts/%s/", d->slug) : imp_fmt(a, "/%s/", d->slug);
}

char *imp_url_path(const char *url, const char **suffix)
{
	const char *c = url;
	while (isalnum((unsigned char)*c) || *c == '+' || *c == '-' || *c == '.')
		c++;
	if ((*c == ':' && c > url) || (url[0] == '/' && url[1] == '/') || url[0] == '#' || url[0] == '?' || !url[0])
		return NULL;
	size_t ul = strcspn(url, "?#");
	*suffix = url + ul;
	return imp_url_decode(url, ul);
}

int imp_url_rel(const char *dec, const char *base, const char *old_url, char *rel, size_t cap, int *root)
{
	*root = dec[0] == '/';
	if (*root) {
		const char *p = dec;
		size_t bl = strlen(base);
		if (bl && !strncmp(p, base, bl) && (p[bl] == '/' || !p[bl]))
			p += bl;
		snprintf(rel, cap, "%s", p + (*p == '/'));
	} else {
		/* relative to the page's old URL, as a browser reads it */
		const char *b = old_url ? old_url : "/";
		const char *ls = strrchr(b, '/');
		snprintf(rel, cap, "%.*s/%s", (int)(ls - b), b, dec);
	}
	return imp_normalize(rel) == 0 && rel[0];
}

const char *imp_url_file(struct imp_reader *r, int found, const char *rel, const char *suffix, const char *url,
			 int image, int line, int *missing)
{
	if (found)
		return imp_static_url(r->s->a, rel, suffix);
	if (image) {
		*missing = image == 1;
		imp_missing_image(r->s, r->cur->doc, r->cur->rel, line, url, image == 1);
	}
	return NULL;
}

const char *imp_url_end(struct arena *a, const char *res, int root, const char *url, const char *base, char *dec)
{
	/* the base path is folio's to add: /blog/x -> /x */
	if (!res && root && base[0])
		res = imp_unbase(a, url, base);
	free(dec);
	return res;
}

struct imp_src *imp_src_by_old_url(const struct imp_reader *r, const char *rel)
{
	char wl[4200];
	snprintf(wl, sizeof wl, "/%s", rel);
	size_t wll = strlen(wl);
	for (size_t i = 0; i < r->n; i++) {
		const char *o = r->v[i].old_url;
		size_t ol = o ? strlen(o) : 0;
		if (o && (!strcmp(o, wl) || (ol && o[ol - 1] == '/' && ol - 1 == wll && !strncmp(o, wl, wll))))
			return &r->v[i];
	}
	return NULL;
}

void imp_expand(struct buf *b, const char *pat, int (*put)(void *ctx, const char *key, struct buf *b), void *ctx)
{
	for (const char *p = pat; *p;) {
		if (*p != ':') {
			buf_putc(b, *p++);
			continue;
		}
		const char *q = p + 1;
		while (isalnum((unsigned char)*q) || *q == '_')
			q++;
		size_t n = (size_t)(q - p - 1);
		char key[40];
		snprintf(key, sizeof key, "%.*s", (int)(n < 39 ? n : 39), p + 1);
		if (!put(ctx, key, b))
			buf_append(b, p, (size_t)(q - p));
		p = q;
	}
}

void imp_add_aliases(struct arena *a, const struct ynode *v, struct imp_list *to,
		     const char *(*alias)(struct arena *a, const char *url))
{
	struct imp_list l = {0};
	imp_words(a, v, &l, 0);
	for (size_t q = 0; q < l.n; q++)
		if (alias(a, l.v[q]))
			imp_list_add(a, to, alias(a, l.v[q]));
}

void imp_join_series(struct imp_site *s, struct imp_doc *d, const char *rel, const char *name)
{
	struct arena *a = s->a;
	struct str sl = slugify(a, str_from(name));
	if (!sl.len)
		return;
	d->series = sl.p;
	if (imp_doc_find(s, IMP_SERIES, sl.p))
		return;
	struct imp_doc *sd = imp_doc_new(s, IMP_SERIES, rel);
	sd->slug = sl.p;
	sd->title = name;
	sd->description = imp_fmt(a, "The posts of the series %s.", name);
	s->rep.series++;
}

const char *imp_title_from_file(struct imp_site *s, const char *rel, const char *slug)
{
	const char *t = imp_title_from_slug(s->a, slug);
	imp_note(s->a, &s->rep, "title from the file name", rel, 0, "no title: '%s' from the file name", t);
	return t;
}

void imp_cap_tags(struct imp_site *s, struct imp_doc *d, const char *rel)
{
	if (d->tags.n > 32) {
		imp_note(s->a, &s->rep, "tags dropped", rel, 0, "%zu tags: folio keeps 32", d->tags.n);
		d->tags.n = 32;
	}
}

void imp_not_converted(struct imp_site *s, const char *rel, const char *kind)
{
	s->rep.failed++;
	imp_note(s->a, &s->rep, kind, rel, 0, "its front matter cannot be read (see the error)");
}

void imp_reader_finish(struct imp_reader *r, void (*convert)(const struct jk_body *c, const char *in, size_t n,
							     struct buf *out),
		       struct jk_body c)
{
	struct imp_site *s = r->s;
	/* the slugs are final before the bodies link to them */
	for (size_t i = 0; i < s->ndocs; i++)
		if (!s->docs[i]->slug)
			s->docs[i]->skip = 1;
	imp_fix_slugs(s);
	for (size_t i = 0; i < r->n; i++) {
		struct imp_src *x = &r->v[i];
		if (x->doc->skip && x->doc->kind == IMP_PAGE) {
			/* a page made a redirect or raw HTML: its body is not written */
			free(x->text);
			x->text = NULL;
			continue;
		}
		r->cur = x;
		c.path = x->rel;
		c.line_offset = x->body_line;
		struct imp_counts counts;
		memset(&counts, 0, sizeof counts);
		c.counts = &counts;
		c.mathjax = s->math_mathjax || (c.hugo && s->math_brackets);
		c.dollar = s->math_dollar;
		convert(&c, x->body, x->body_len, &x->doc->body);
		if (!x->doc->skip)
			imp_parity(s, x->doc, x->rel, &counts, c.hugo ? "Goldmark" : "kramdown");
		free(x->text);
		x->text = NULL;
	}
	/* the front matter keys folio has no use for, one line each */
	for (size_t i = 0; i < r->fm_keys.n; i++)
		imp_note(s->a, &s->rep, "front matter key not imported", r->fm_first.v[i], r->fm_line[i],
			 "'%s' (in %zu file%s) has no folio equivalent", r->fm_keys.v[i], r->fm_count[i],
			 r->fm_count[i] == 1 ? "" : "s");
	free(r->v);
	r->v = NULL;
	r->n = r->cap = 0;
}

/* script_names: whether text holds a <script> tag that names what (in
 * any case: MathJax in its src or its type="text/x-mathjax-config",
 * KaTeX's renderMathInElement in its onload) */
static int script_names(const char *text, const char *what)
{
	size_t wl = strlen(what);
	for (const char *p = strcasestr(text, "<script"); p; p = strcasestr(p + 7, "<script")) {
		const char *gt = strchr(p, '>');
		if (!gt)
			return 0;
		for (const char *q = p; q + wl <= gt; q++)
			if (!strncasecmp(q, what, wl))
				return 1;
	}
	return 0;
}

void imp_find_mathjax(struct imp_site *s, const char *const *dirs, const char *const *content)
{
	struct imp_list files = {0}, docs = {0};
	for (size_t i = 0; dirs[i]; i++)
		imp_walk(s, dirs[i], 1, NULL, NULL, &files);
	for (size_t i = 0; content[i]; i++)
		imp_walk(s, content[i], 1, NULL, NULL, &docs);
	int autorender = 0;
	for (size_t i = 0; i < files.n + docs.n && !(s->math_mathjax && autorender); i++) {
		int body = i >= files.n;
		const char *f = body ? docs.v[i - files.n] : files.v[i];
		const char *dot = strrchr(f, '.');
		if (!dot || (strcmp(dot, ".html") && strcmp(dot, ".htm") && strcmp(dot, ".liquid") &&
			     (!body || (strcmp(dot, ".md") && strcmp(dot, ".markdown")))))
			continue; /* templates and documents only (a theme's folder may hold much else) */
		size_t len;
		char *text = imp_read_src(s, f, &len);
		/* KaTeX's auto-render typesets \( \) and \[ \] too (its default
		 * delimiters): so does folio with brackets */
		if (text && !autorender &&
		    (body ? script_names(text, "renderMathInElement") : strstr(text, "renderMathInElement") != NULL)) {
			autorender = 1;
			if (!s->math_brackets)
				imp_note(s->a, &s->rep, "math", f, 0,
					 "loads KaTeX's auto-render, which typesets \\( \\) and \\[ \\] too: folio.yml "
					 "says math: {delimiters: [dollars, brackets]}");
			s->math_brackets = 1;
		}
		/* a template that names MathJax loads it; a post, when a <script> does */
		if (text && !s->math_mathjax && (body ? script_names(text, "mathjax") : strcasestr(text, "mathjax") != NULL)) {
			s->math_mathjax = 1;
			/* its configuration, when beside it: $ as an inline delimiter */
			const char *im = strstr(text, "inlineMath");
			if (im && (memmem(im, strnlen(im, 200), "'$'", 3) || memmem(im, strnlen(im, 200), "\"$\"", 3)))
				s->math_dollar = 1;
			imp_note(s->a, &s->rep, "math", f, 0,
				 "loads MathJax: folio.yml says math: {compat: mathjax}, which rewrites what MathJax "
				 "takes and KaTeX refuses");
		}
		free(text);
	}
}
