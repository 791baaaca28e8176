/* import.c: the shared layer of folio import: the model's lists, the
 * report, reading SRC without leaving it, writing DST (folio.yml,
 * content/, static/, IMPORT.md) and the build of the result. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pipeline/build.h"
#include "base/civil.h"
#include "base/file.h"
#include "files/reader.h"
#include "import/import.h"
#include "md/markdown.h"

#include "output/output.h"
#include "model/site.h"
#include "files/sitefile.h"
#include "base/slug.h"
#include "formats/yaml.h"
#include "cache/cache.h"

void imp_list_add(struct arena *a, struct imp_list *l, const char *s)
{
	if (l->n == l->cap) {
		size_t nc = l->cap ? l->cap * 2 : 8;
		l->v = arena_realloc(a, l->v, l->cap * sizeof *l->v, nc * sizeof *l->v);
		l->cap = nc;
	}
	l->v[l->n++] = s;
}

int imp_list_has(const struct imp_list *l, const char *s)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i], s))
			return 1;
	return 0;
}

/* vfmt: fmt and ap formatted into the arena. */
static char *vfmt(struct arena *a, size_t *len, const char *fmt, va_list ap) __attribute__((format(printf, 3, 0)));
static char *vfmt(struct arena *a, size_t *len, const char *fmt, va_list ap)
{
	char *t = buf_vformat(len, fmt, ap);
	char *r = arena_strndup(a, t, *len);
	free(t);
	return r;
}

void imp_note(struct arena *a, struct imp_report *r, const char *kind, const char *path, int line, const char *fmt,
	      ...)
{
	va_list ap;
	va_start(ap, fmt);
	size_t n;
	char *what = vfmt(a, &n, fmt, ap);
	va_end(ap);
	/* one line, whatever the text held */
	for (size_t i = 0; i < n; i++)
		if (what[i] == '\n' || what[i] == '\r' || what[i] == '\t')
			what[i] = ' ';
	if (r->n == r->cap) {
		size_t nc = r->cap ? r->cap * 2 : 32;
		r->v = arena_realloc(a, r->v, r->cap * sizeof *r->v, nc * sizeof *r->v);
		r->cap = nc;
	}
	r->v[r->n++] = (struct imp_finding){kind, path, line, what};
}

const char *imp_static_url(struct arena *a, const char *rel, const char *suffix)
{
	struct buf e;
	buf_init(&e);
	buf_putc(&e, '/');
	for (const char *q = rel; *q; q++)
		if (*q == ' ')
			buf_puts(&e, "%20");
		else
			buf_putc(&e, *q);
	buf_puts(&e, suffix);
	const char *res = arena_strndup(a, e.p, e.len);
	buf_fini(&e);
	return res;
}

void imp_missing_image(struct imp_site *s, struct imp_doc *doc, const char *by, int line, const char *url,
		       int markdown)
{
	if (markdown)
		imp_note(s->a, &s->rep, "image not found", by, line,
			 "image '%s' is not in SRC: written as <img> and listed in ignore_links", url);
	else
		imp_note(s->a, &s->rep, "file not found", by, line,
			 "'%s' (named by an HTML attribute) is not in SRC: left as it is and listed in ignore_links",
			 url);
	imp_list_add(s->a, &doc->ignore_links, arena_strndup(s->a, url, strlen(url)));
}

const char *imp_unbase(struct arena *a, const char *url, const char *base)
{
	size_t bl = strlen(base);
	if (bl && !strncmp(url, base, bl) && (url[bl] == '/' || !url[bl] || url[bl] == '#'))
		return imp_fmt(a, "/%s", url + bl + (url[bl] == '/'));
	return NULL;
}

void imp_site_fini(struct imp_site *s)
{
	for (size_t i = 0; i < s->ndocs; i++)
		buf_fini(&s->docs[i]->body);
	free(s->src_root);
	s->src_root = NULL;
	arena_free(s->a);
	s->a = NULL;
}

struct imp_doc *imp_doc_new(struct imp_site *s, enum imp_kind kind, const char *src_path)
{
	struct imp_doc *d = arena_alloc(s->a, sizeof *d);
	memset(d, 0, sizeof *d);
	d->kind = kind;
	d->src_path = src_path;
	d->toc = -1;
	buf_init(&d->body);
	if (s->ndocs == s->capdocs) {
		size_t nc = s->capdocs ? s->capdocs * 2 : 32;
		s->docs = arena_realloc(s->a, s->docs, s->capdocs * sizeof *s->docs, nc * sizeof *s->docs);
		s->capdocs = nc;
	}
	s->docs[s->ndocs++] = d;
	return d;
}

struct imp_doc *imp_doc_find(const struct imp_site *s, enum imp_kind kind, const char *slug)
{
	for (size_t i = 0; i < s->ndocs; i++)
		if (s->docs[i]->kind == kind && !s->docs[i]->skip && s->docs[i]->slug && !strcmp(s->docs[i]->slug, slug))
			return s->docs[i];
	return NULL;
}

/* src_path: SRC/rel into p (cap bytes); 0, or -1 when too long. */
static int src_path(const struct imp_site *s, const char *rel, char *p, size_t cap)
{
	return (size_t)snprintf(p, cap, "%s/%s", s->src, rel) < cap ? 0 : -1;
}

/* src_regular: whether SRC/rel is a regular file inside SRC; a link out
 * of SRC (or dangling, or a loop) is reported once as a finding. */
static int src_regular(struct imp_site *s, const char *rel, const char *by, int line)
{
	char p[4096], to[4096];
	if (src_path(s, rel, p, sizeof p))
		return 0;
	enum site_where w = site_where(s->src_root, p, to, sizeof to);
	if (w == SITE_MISSING)
		return 0;
	if (w != SITE_INSIDE) {
		imp_note(s->a, &s->rep, "link out of SRC", by ? by : rel, by ? line : 0,
			 "'%s' is a symbolic link %s: not followed", rel,
			 w == SITE_OUTSIDE ? "out of SRC" : w == SITE_LOOP ? "in a loop" : "to nothing");
		return 0;
	}
	struct stat st;
	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* src_read: the file p of SRC, read whole (its place checked by the
 * caller): NULL with errno when it cannot be. */
static char *src_read(const char *p, size_t *len)
{
	struct site_file f = {p, p, (size_t)-2, "", SITE_READ_CHECKED | SITE_READ_QUIET};
	return site_read(NULL, NULL, &f, NULL, len, NULL);
}

char *imp_read_src(struct imp_site *s, const char *rel, size_t *len)
{
	char p[4096];
	if (src_path(s, rel, p, sizeof p) || !src_regular(s, rel, NULL, 0))
		return NULL;
	return src_read(p, len);
}

int imp_copy_dst(struct imp_site *s, const char *from, const char *to, const char *by, int line)
{
	if (imp_list_has(&s->copy_to, to))
		return 1;
	if (!src_regular(s, from, by, line))
		return 0;
	imp_list_add(s->a, &s->copy_from, arena_strndup(s->a, from, strlen(from)));
	imp_list_add(s->a, &s->copy_to, arena_strndup(s->a, to, strlen(to)));
	return 1;
}

int imp_copy(struct imp_site *s, const char *from, const char *to, const char *by, int line)
{
	return imp_copy_dst(s, from, imp_fmt(s->a, "static/%s", to), by, line);
}

int imp_dst_check(struct diag *d, const char *dst)
{
	int empty = file_dir_empty(dst);
	if (empty < 0) {
		struct stat st;
		if (errno == ENOENT)
			return 0;
		diag_error(d, &(struct diag_loc){dst, NULL, 0, 0, 0}, "%s",
			   stat(dst, &st) == 0 && !S_ISDIR(st.st_mode)
				   ? "exists and is not a folder (hint: name a new folder for the imported site)"
				   : "cannot open this folder");
		return -1;
	}
	if (!empty) {
		diag_error(d, &(struct diag_loc){dst, NULL, 0, 0, 0},
			   "the folder exists and is not empty (hint: name a new folder; folio import never "
			   "writes over files)");
		return -1;
	}
	return 0;
}

/* ---- shared helpers of the readers (contracts in import.h) ---- */

const char *imp_fmt(struct arena *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
const char *imp_fmt(struct arena *a, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	size_t n;
	const char *r = vfmt(a, &n, fmt, ap);
	va_end(ap);
	return r;
}

const char *imp_scalar(const struct ynode *n)
{
	return n && n->kind == YNODE_SCALAR && !yaml_is_null(n) ? n->str.p : NULL;
}

/* words: a list node's scalars, or a scalar's space-separated words
 * (Jekyll's tags: "a b c"), each added to l. */
void imp_words(struct arena *a, const struct ynode *n, struct imp_list *l, int split)
{
	if (!n)
		return;
	if (n->kind == YNODE_SEQ) {
		for (size_t i = 0; i < n->len; i++)
			if (imp_scalar(n->items[i]) && *imp_scalar(n->items[i]))
				imp_list_add(a, l, imp_scalar(n->items[i]));
		return;
	}
	const char *v = imp_scalar(n);
	if (!v)
		return;
	if (!split) {
		imp_list_add(a, l, v);
		return;
	}
	for (const char *p = v; *p;) {
		while (*p == ' ' || *p == ',')
			p++;
		const char *q = p;
		while (*q && *q != ' ' && *q != ',')
			q++;
		if (q > p)
			imp_list_add(a, l, arena_strndup(a, p, (size_t)(q - p)));
		p = q;
	}
}

/* add_term: adds t to l unless one of the same key is there. */
void imp_add_term(struct arena *a, struct imp_list *l, const char *t)
{
	struct str k = term_key(a, str_from(t));
	for (size_t i = 0; i < l->n; i++)
		if (str_eq(term_key(a, str_from(l->v[i])), k))
			return;
	imp_list_add(a, l, t);
}

/* title_from_slug: "my-first-post" -> "My first post". */
const char *imp_title_from_slug(struct arena *a, const char *slug)
{
	char *t = (char *)arena_strndup(a, slug, strlen(slug));
	for (char *p = t; *p; p++)
		if (*p == '-' || *p == '_')
			*p = ' ';
	t[0] = (char)toupper((unsigned char)t[0]);
	return t;
}

const char *imp_clean_slug(struct arena *a, const char *v)
{
	struct str sv = str_from(v);
	if (slug_valid(sv) && !strchr(v, '%') && !strchr(v, '?') && !strchr(v, '#'))
		return v;
	struct str sl = slugify(a, sv);
	return sl.len ? sl.p : "post";
}

const char *imp_alias_from(struct arena *a, const char *v)
{
	if (!v || !*v)
		return NULL;
	if (!strncmp(v, "http://", 7) || !strncmp(v, "https://", 8))
		return NULL;
	return v[0] == '/' ? v : imp_fmt(a, "/%s", v);
}

/* url_decode: %XX -> bytes (a file name with spaces is linked as %20). */
char *imp_url_decode(const char *u, size_t n)
{
	char *r = xmalloc(n + 1), *o = r;
	for (size_t i = 0; i < n; i++) {
		if (u[i] == '%' && i + 2 < n && isxdigit((unsigned char)u[i + 1]) && isxdigit((unsigned char)u[i + 2])) {
			char h[3] = {u[i + 1], u[i + 2], 0};
			*o++ = (char)strtol(h, NULL, 16);
			i += 2;
		} else
			*o++ = u[i];
	}
	*o = 0;
	return r;
}

/* normalize: a path with "." and ".." segments resolved, in place; -1
 * when it climbs above the root. */
int imp_normalize(char *p)
{
	char *segs[256];
	int n = 0;
	char *save = NULL;
	char tmp[4096];
	snprintf(tmp, sizeof tmp, "%s", p);
	for (char *t = strtok_r(tmp, "/", &save); t; t = strtok_r(NULL, "/", &save)) {
		if (!strcmp(t, "."))
			continue;
		if (!strcmp(t, "..")) {
			if (!n)
				return -1;
			n--;
			continue;
		}
		if (n == 256)
			return -1;
		segs[n++] = t;
	}
	char out[4096];
	size_t k = 0;
	out[0] = 0;
	for (int i = 0; i < n; i++)
		k += (size_t)snprintf(out + k, sizeof out - k, "%s%s", i ? "/" : "", segs[i]);
	snprintf(p, 4096, "%s", out);
	return 0;
}

char *imp_utf8(struct imp_site *s, char *text, size_t *len, const char *rel)
{
	size_t n = *len;
	if (utf8_valid_prefix(text, n) == n)
		return text;
	/* each byte that is not part of valid UTF-8 is read as Latin-1
	 * (ISO 8859-1), the usual encoding of such old posts */
	struct buf b;
	buf_init(&b);
	size_t i = 0, bad = 0;
	int first = 0;
	while (i < n) {
		size_t ok = utf8_valid_prefix(text + i, n - i);
		buf_append(&b, text + i, ok);
		i += ok;
		if (i >= n)
			break;
		if (!bad++) {
			size_t line = 0, ls;
			diag_line_col(text, i, &line, &ls);
			first = (int)line + 1;
		}
		unsigned char c = (unsigned char)text[i++];
		buf_putc(&b, 0xC0 | (c >> 6));
		buf_putc(&b, 0x80 | (c & 0x3F));
	}
	imp_note(s->a, &s->rep, "not UTF-8", rel, first,
		 "%zu byte%s that are not UTF-8 read as Latin-1 and written as UTF-8 (this is the first line)", bad,
		 bad == 1 ? "" : "s");
	free(text);
	buf_putc(&b, '\0');
	char *r = buf_detach(&b, len);
	(*len)--;
	return r;
}

/* ---- YAML ---- */

void imp_yaml_str(struct buf *b, const char *s)
{
	buf_putc(b, '"');
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\') {
			buf_putc(b, '\\');
			buf_putc(b, *p);
		} else if (*p == '\n')
			buf_puts(b, "\\n");
		else if (*p == '\t')
			buf_puts(b, "\\t");
		else if (*p < 0x20 || *p == 0x7f)
			buf_printf(b, "\\x%02x", *p);
		else
			buf_putc(b, *p);
	}
	buf_putc(b, '"');
}

static void yaml_key_str(struct buf *b, const char *key, const char *v)
{
	if (!v)
		return;
	buf_printf(b, "%s: ", key);
	imp_yaml_str(b, v);
	buf_putc(b, '\n');
}

static void yaml_key_list(struct buf *b, const char *key, const struct imp_list *l)
{
	if (!l->n)
		return;
	buf_printf(b, "%s:\n", key);
	for (size_t i = 0; i < l->n; i++) {
		buf_puts(b, "  - ");
		imp_yaml_str(b, l->v[i]);
		buf_putc(b, '\n');
	}
}

/* ---- dates ---- */

static int digits(const char *p, int n, int *v)
{
	int x = 0;
	for (int i = 0; i < n; i++) {
		if (!isdigit((unsigned char)p[i]))
			return 0;
		x = x * 10 + (p[i] - '0');
	}
	*v = x;
	return 1;
}

const char *imp_date(struct arena *a, const char *s)
{
	int y, mo, d, h = -1, mi = 0, se = 0;
	while (*s == ' ')
		s++;
	size_t n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\r'))
		n--;
	if (n < 10 || !digits(s, 4, &y) || s[4] != '-' || !digits(s + 5, 2, &mo) || s[7] != '-' ||
	    !digits(s + 8, 2, &d) || mo < 1 || mo > 12 || d < 1 ||
	    d > (int)(days_from_civil(y + (mo == 12), mo % 12 + 1, 1) - days_from_civil(y, mo, 1)))
		return NULL;
	const char *p = s + 10, *e = s + n;
	char zone[32] = "";
	if (p < e && (*p == 'T' || *p == ' ' || *p == 't')) {
		const char *q = p + 1;
		while (q < e && *q == ' ')
			q++;
		/* an hour of one digit, as Ruby reads "2019-04-25 9:00:00" */
		int hl = e - q >= 4 && isdigit((unsigned char)q[0]) && q[1] == ':' ? 1 : 2;
		if (e - q >= hl + 3 && digits(q, hl, &h) && q[hl] == ':' && digits(q + hl + 1, 2, &mi)) {
			q += hl + 3;
			if (e - q >= 3 && q[0] == ':' && digits(q + 1, 2, &se))
				q += 3;
			if (q < e && (*q == '.' || *q == ',')) {
				q++;
				while (q < e && isdigit((unsigned char)*q))
					q++;
			}
			while (q < e && *q == ' ')
				q++;
			if (q < e) {
				int zh, zm = 0;
				if ((*q == 'Z' || *q == 'z') && q + 1 == e)
					snprintf(zone, sizeof zone, "Z");
				else if ((e - q == 3 || e - q == 4) && !strncasecmp(q, "UTC", 3))
					snprintf(zone, sizeof zone, "Z");
				else if ((e - q == 3) && !strncasecmp(q, "GMT", 3))
					snprintf(zone, sizeof zone, "Z");
				else if ((*q == '+' || *q == '-') && e - q >= 3 && digits(q + 1, 2, &zh) &&
					 (e - q == 3 || (e - q == 5 && digits(q + 3, 2, &zm)) ||
					  (e - q == 6 && q[3] == ':' && digits(q + 4, 2, &zm))) &&
					 zh <= 23 && zm <= 59)
					snprintf(zone, sizeof zone, "%c%02d:%02d", *q, zh, zm);
				else
					return NULL;
			}
			p = e;
		} else
			return NULL;
	}
	if (p != e)
		return NULL;
	if (h > 23 || mi > 59 || se > 60)
		return NULL;
	char out[128];
	if (h < 0)
		snprintf(out, sizeof out, "%04d-%02d-%02d", y, mo, d);
	else if (!zone[0])
		snprintf(out, sizeof out, "%04d-%02d-%02d %02d:%02d:%02d", y, mo, d, h, mi, se > 59 ? 59 : se);
	else
		snprintf(out, sizeof out, "%04d-%02d-%02dT%02d:%02d:%02d%s", y, mo, d, h, mi, se > 59 ? 59 : se, zone);
	return arena_strndup(a, out, strlen(out));
}

/* ---- writing DST ---- */

/* write_new: DST/rel with data; never over an existing file (base/file.c). */
static int write_new(struct imp_site *s, const char *rel, const void *data, size_t len)
{
	char path[4096];
	if ((size_t)snprintf(path, sizeof path, "%s/%s", s->dst, rel) >= sizeof path) {
		diag_error(s->d, &(struct diag_loc){rel, NULL, 0, 0, 0}, "the path is too long");
		return -1;
	}
	int fail = file_create_new(path, data, len);
	if (fail)
		diag_error(s->d, &(struct diag_loc){path, NULL, 0, 0, 0}, "%s: %s", file_fail_what(fail),
			   strerror(errno));
	return fail ? -1 : 0;
}

int imp_write_report(struct imp_site *s, const struct buf *report)
{
	char path[4200];
	snprintf(path, sizeof path, "%s/IMPORT.md", s->dst);
	if (!file_create_new(path, report->p, report->len))
		return 0;
	diag_error(s->d, &(struct diag_loc){path, NULL, 0, 0, 0}, "cannot write: %s", strerror(errno));
	return -1;
}

static const char *kind_dir(enum imp_kind k)
{
	return k == IMP_POST ? "posts" : k == IMP_PAGE ? "pages" : "series";
}

/* paginate_path: the folder of the new site's later listing pages. */
static const char *paginate_path(const struct imp_site *s)
{
	return s->paginate_path ? s->paginate_path : "page";
}

/* uses_folder: whether an old URL or a page's slug of the site is the
 * root folder name (/name/...). */
static int uses_folder(const struct imp_site *s, const char *name)
{
	size_t n = strlen(name);
	for (size_t i = 0; i < s->ndocs; i++) {
		const struct imp_doc *d = s->docs[i];
		if (d->skip)
			continue;
		if (d->kind == IMP_PAGE && !strcmp(d->slug, name))
			return 1;
		for (size_t k = 0; k < d->aliases.n; k++) {
			const char *a = d->aliases.v[k];
			if (a[0] == '/' && !strncmp(a + 1, name, n) && (a[n + 1] == '/' || !a[n + 1]))
				return 1;
		}
	}
	return 0;
}

/* pick_paginate_path: "page", unless an old URL or a page lives under
 * /page/ (a Hugo site's page section): then the first of a few other
 * names that none uses, which folio.yml then says. */
static void pick_paginate_path(struct imp_site *s)
{
	static const char *const names[] = {"page", "pages", "p", "more", "listing"};
	if (s->paginate_path) /* picked by an earlier write */
		return;
	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		if (!uses_folder(s, names[i])) {
			s->paginate_path = i ? names[i] : NULL;
			if (i)
				imp_note(s->a, &s->rep, "pagination", "folio.yml", 0,
					 "old URLs live under /page/: the listings' later pages are under /%s/ "
					 "(paginate_path)",
					 names[i]);
			return;
		}
}

void imp_fix_slugs(struct imp_site *s)
{
	pick_paginate_path(s);
	for (size_t i = 0; i < s->ndocs; i++) {
		struct imp_doc *d = s->docs[i];
		if (d->skip)
			continue;
		int clash = 0;
		if (d->kind == IMP_PAGE)
			for (const char *const *r = site_reserved; *r; r++)
				if (!strcmp(strcmp(*r, "page") ? *r : paginate_path(s), d->slug))
					clash = 1;
		for (size_t j = 0; j < i && !clash; j++)
			if (!s->docs[j]->skip && s->docs[j]->kind == d->kind && !strcmp(s->docs[j]->slug, d->slug))
				clash = 1;
		if (!clash)
			continue;
		const char *old = d->slug;
		for (int k = 2;; k++) {
			char b[600];
			snprintf(b, sizeof b, "%.500s-%d", old, k);
			d->slug = "";
			if (!imp_doc_find(s, d->kind, b)) {
				d->slug = arena_strndup(s->a, b, strlen(b));
				break;
			}
			d->slug = old;
		}
		imp_note(s->a, &s->rep, "slug collision", d->src_path, 0,
			 "the slug '%s' is taken (by another %s or by folio): written as content/%s/%s.md", old,
			 d->kind == IMP_PAGE ? "page" : d->kind == IMP_POST ? "post" : "series", kind_dir(d->kind),
			 d->slug);
	}
}

/* doc_rel: where d is written in DST: content/KIND/SLUG.md, or
 * content/posts/SLUG/index.md for a bundle. */
static void doc_rel(const struct imp_doc *d, char *b, size_t cap)
{
	if (d->bundle)
		snprintf(b, cap, "content/%s/%s/index.md", kind_dir(d->kind), d->slug);
	else
		snprintf(b, cap, "content/%s/%s.md", kind_dir(d->kind), d->slug);
}

/* new_url: the URL folio gives d. */
static void new_url(const struct imp_doc *d, char *b, size_t cap)
{
	snprintf(b, cap, d->kind == IMP_POST ? "/posts/%s/" : d->kind == IMP_PAGE ? "/%s/" : "/series/%s/", d->slug);
}

/* alias_ok: whether a is an alias folio accepts (a path from /, no ..,
 * no backslash, no white space or control characters). */
static int alias_ok(const char *a)
{
	if (a[0] != '/' || strstr(a, "..") || strchr(a, '\\') || strstr(a, "//"))
		return 0;
	for (const unsigned char *p = (const unsigned char *)a; *p; p++)
		if (*p <= ' ' || *p == 0x7f || *p == '?' || *p == '#')
			return 0;
	return 1;
}

/* folio_own: whether the path a (from /) is an address folio's own pages
 * may take: the home page, or anything under a name of site_reserved but
 * posts/ and series/ (whose pages are the documents'), the series list
 * itself excepted. */
static int folio_own(const struct imp_site *s, const char *a)
{
	const char *seg = a + 1, *end = strchr(seg, '/');
	size_t n = end ? (size_t)(end - seg) : strlen(seg);
	if (!n || !strcmp(a, "/index.html"))
		return 1;
	if (n == 6 && !memcmp(seg, "series", 6))
		return !strcmp(a, "/series") || !strcmp(a, "/series/") || !strcmp(a, "/series/index.html");
	if (n == 5 && !memcmp(seg, "posts", 5))
		return 0;
	for (const char *const *r = site_reserved; *r; r++) {
		const char *name = strcmp(*r, "page") ? *r : paginate_path(s);
		if (strlen(name) == n && !memcmp(name, seg, n))
			return 1;
	}
	return 0;
}

void imp_redirect(struct imp_site *s, const char *from, const char *to, const char *by)
{
	if (!from || from[0] != '/' || !strcmp(from, to) || imp_list_has(&s->redirect_from, from))
		return;
	imp_list_add(s->a, &s->redirect_from, arena_strndup(s->a, from, strlen(from)));
	imp_list_add(s->a, &s->redirect_to, arena_strndup(s->a, to, strlen(to)));
	imp_note(s->a, &s->rep, "redirect", by, 0, "the old address %s goes to folio's %s (redirects)", from, to);
}

/* fill_liquid: line[0..n) with each {{ page.KEY }} and {{ site.KEY }}
 * replaced by the front matter's (m) or the config's (site) scalar, HTML
 * escaped ("" when there is none), appended to b. */
static void fill_liquid(struct buf *b, const char *line, size_t n, const struct ynode *m, const struct ynode *site)
{
	size_t i = 0;
	while (i < n) {
		const char *o = i + 1 < n ? memmem(line + i, n - i, "{{", 2) : NULL;
		const char *c = o ? memmem(o, (size_t)(line + n - o), "}}", 2) : NULL;
		if (!o || !c) {
			buf_append(b, line + i, n - i);
			return;
		}
		buf_append(b, line + i, (size_t)(o - line) - i);
		struct str v = {o + 2, (size_t)(c - o - 2)};
		while (v.len && v.p[0] == ' ')
			v.p++, v.len--;
		while (v.len && v.p[v.len - 1] == ' ')
			v.len--;
		/* a filter: remove: 'x' is done (a vanity path drops https://) */
		const char *bar = memchr(v.p, '|', v.len);
		struct str key = {v.p, bar ? (size_t)(bar - v.p) : v.len}, cut = {NULL, 0};
		while (key.len && key.p[key.len - 1] == ' ')
			key.len--;
		const char *rm = bar ? memmem(bar, (size_t)(v.p + v.len - bar), "remove:", 7) : NULL;
		if (rm) {
			const char *q = rm + 7;
			while (q < v.p + v.len && *q == ' ')
				q++;
			const char *qe = q < v.p + v.len ? memchr(q + 1, *q, (size_t)(v.p + v.len - q - 1)) : NULL;
			if (qe && (*q == '\'' || *q == '"'))
				cut = (struct str){q + 1, (size_t)(qe - q - 1)};
		}
		const struct ynode *from = str_starts_with(key, "page.") ? m : str_starts_with(key, "site.") ? site : NULL;
		if (from) {
			char name[128];
			snprintf(name, sizeof name, "%.*s", (int)(key.len - 5), key.p + 5);
			const char *val = imp_scalar(yaml_map_get(from, name));
			char cutz[128];
			snprintf(cutz, sizeof cutz, "%.*s", (int)cut.len, cut.p ? cut.p : "");
			for (const char *w = val; w && *w;) {
				const char *hit = cutz[0] ? strstr(w, cutz) : NULL;
				size_t run = hit ? (size_t)(hit - w) : strlen(w);
				buf_put_html(b, w, run);
				w += run + (hit ? cut.len : 0);
			}
		}
		i = (size_t)(c - line) + 2;
	}
}

int imp_head_page(struct imp_site *s, const char *rel, const struct ynode *m, const struct ynode *site,
		  const char *old_url)
{
	const char *layout = imp_scalar(yaml_map_get(m, "layout"));
	if (!layout || !old_url || old_url[0] != '/' || strchr(layout, '/') || strstr(layout, ".."))
		return 0;
	size_t len;
	char *text = imp_read_src(s, imp_fmt(s->a, "_layouts/%s.html", layout), &len);
	if (!text || !strstr(text, "go-import")) {
		free(text);
		return 0;
	}
	struct buf b;
	buf_init(&b);
	buf_puts(&b, "<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n");
	for (const char *p = text, *e; *p; p = *e ? e + 1 : e) {
		e = strchr(p, '\n');
		if (!e)
			e = p + strlen(p);
		const char *meta = memmem(p, (size_t)(e - p), "<meta name=\"go-", 15);
		if (meta) {
			fill_liquid(&b, meta, (size_t)(e - meta), m, site);
			buf_putc(&b, '\n');
		}
	}
	free(text);
	const char *title = imp_scalar(yaml_map_get(m, "title"));
	buf_puts(&b, "</head>\n<body>\n<p>");
	buf_put_html(&b, title ? title : old_url, strlen(title ? title : old_url));
	buf_puts(&b, "</p>\n</body>\n</html>\n");
	const char *to = old_url[strlen(old_url) - 1] == '/' ? imp_fmt(s->a, "%sindex.html", old_url + 1) : old_url + 1;
	imp_list_add(s->a, &s->made_to, to);
	imp_list_add(s->a, &s->made_text, arena_strndup(s->a, b.p, b.len));
	buf_fini(&b);
	imp_note(s->a, &s->rep, "page kept as raw HTML", rel, 0,
		 "its layout ('%s') holds Go's go-import in <head>: written as static/%s, which keeps it", layout, to);
	return 1;
}

int imp_layout_page(struct imp_site *s, const char *rel, const struct ynode *m, const char *old_url)
{
	const char *layout = imp_scalar(yaml_map_get(m, "layout"));
	const char *type = imp_scalar(yaml_map_get(m, "type"));
	const char *tag = imp_scalar(yaml_map_get(m, "tag"));
	const char *cat = imp_scalar(yaml_map_get(m, "category"));
	const char *l = layout ? layout : type ? type : "";
	const char *to = NULL;
	if (tag && (strstr(l, "tag") || !layout))
		to = imp_fmt(s->a, "/tags/%.*s/", STR_FMT(term_slug(s->a, str_from(tag))));
	else if (cat && strstr(l, "categor"))
		to = imp_fmt(s->a, "/categories/%.*s/", STR_FMT(term_slug(s->a, str_from(cat))));
	else if (!strcmp(l, "archive") || !strcmp(l, "archives"))
		to = "/archive/";
	else if (!strcmp(l, "search"))
		to = "/search/";
	else if (!strcmp(l, "tags") || !strcmp(l, "tag-index") || !strcmp(l, "tagpage-index"))
		to = "/tags/";
	else if (!strcmp(l, "categories"))
		to = "/categories/";
	if (!to)
		return 0;
	imp_note(s->a, &s->rep, "page made a redirect", rel, 0,
		 "its layout ('%s') made a listing that folio makes itself: its address goes to %s", l, to);
	imp_redirect(s, old_url, to, rel);
	return 1;
}

void imp_feed_at(struct imp_site *s, const char *path, const char *by)
{
	if (!strcmp(path, "/feed.xml") || !strcmp(path, "/tags/{tag}/feed.xml") ||
	    !strcmp(path, "/series/{series}/feed.xml")) {
		imp_note(s->a, &s->rep, "feed kept", by, 0, "the old feed %s is where folio writes its own", path);
		return;
	}
	if (imp_list_has(&s->feeds_also, path))
		return;
	imp_list_add(s->a, &s->feeds_also, arena_strndup(s->a, path, strlen(path)));
	imp_note(s->a, &s->rep, "feed kept", by, 0,
		 "the old feed %s is written there too (feeds.also_at), so that its subscribers keep it", path);
}

/* count_html: n[] for folio's HTML html[0..len): what the parity check
 * counts, as the converter counts it in the source (a link to a fragment
 * of the page itself is not counted; neither are a heading's own anchor or
 * a footnote's links, which the source's text does not hold as links). */
static void count_html(const char *h, size_t len, int *n)
{
	static const struct {
		const char *mark;
		enum imp_kind_count kind;
	} marks[] = {{"<img ", IMP_IMAGES},
		     {"<pre", IMP_CODE},
		     {"class=\"math display\"", IMP_DISPLAY},
		     {"class=\"math inline\"", IMP_INLINE},
		     {"<table", IMP_TABLES}};
	for (size_t m = 0; m < sizeof marks / sizeof *marks; m++) {
		size_t ml = strlen(marks[m].mark);
		for (const char *p = h; (p = memmem(p, len - (size_t)(p - h), marks[m].mark, ml)); p += ml)
			n[marks[m].kind]++;
	}
	/* a link: an <a> with an href anywhere in its tag (raw HTML may put
	 * it after a class or a style), not to a fragment of the page */
	for (const char *p = h; (p = memmem(p, len - (size_t)(p - h), "<a ", 3)); p += 3) {
		const char *gt = memchr(p, '>', len - (size_t)(p - h));
		if (!gt)
			break;
		const char *href = memmem(p, (size_t)(gt - p), " href=", 6);
		if (href && href + 7 < gt && href[6 + (href[6] == '"' || href[6] == '\'')] != '#')
			n[IMP_LINKS]++;
	}
	for (const char *p = h; (p = memmem(p, len - (size_t)(p - h), "<h", 2)); p += 2)
		if ((size_t)(p - h) + 3 < len && p[2] >= '1' && p[2] <= '6' && (p[3] == '>' || p[3] == ' '))
			n[IMP_HEADINGS]++;
}

void imp_parity(struct imp_site *s, struct imp_doc *doc, const char *by, const struct imp_counts *src, const char *gen)
{
	static const char *const names[IMP_NCOUNTS] = {"images", "code blocks", "display formulas", "inline formulas",
						       "tables", "headings", "links"};
	struct arena *a = arena_new();
	struct md_options o;
	memset(&o, 0, sizeof o);
	o.math = 1;
	o.brackets = s->math_brackets;
	o.unsafe = 1;
	struct md_doc md;
	memset(&md, 0, sizeof md);
	md_render(a, &o, NULL, by, doc->body.p ? doc->body.p : "", doc->body.len, doc->body.p ? doc->body.p : "",
		  doc->body.len, 0, &md);
	int n[IMP_NCOUNTS] = {0};
	/* what a <script>, a <style> or a comment holds is not shown ("<a
	 * href" in a script's string, images commented out): counted
	 * without it */
	static const char *const hidden[][2] = {{"<script", "</script>"}, {"<style", "</style>"}, {"<!--", "-->"}};
	struct buf shown;
	buf_init(&shown);
	const char *h = md.html.p ? md.html.p : "", *he = h + md.html.len;
	while (h < he) {
		const char *first = NULL;
		size_t which = 0;
		for (size_t k = 0; k < sizeof hidden / sizeof *hidden; k++) {
			const char *at = memmem(h, (size_t)(he - h), hidden[k][0], strlen(hidden[k][0]));
			if (at && (!first || at < first))
				first = at, which = k;
		}
		if (!first) {
			buf_append(&shown, h, (size_t)(he - h));
			break;
		}
		buf_append(&shown, h, (size_t)(first - h));
		const char *c = memmem(first, (size_t)(he - first), hidden[which][1], strlen(hidden[which][1]));
		h = c ? c + strlen(hidden[which][1]) : he;
	}
	count_html(shown.p ? shown.p : "", shown.len, n);
	buf_fini(&shown);
	arena_free(a);
	for (int k = 0; k < IMP_NCOUNTS; k++)
		if (n[k] != src->n[k] && !(k == IMP_LINKS && (src->ref_defs || n[k] == src->n[k] + src->bare)) &&
		    !(k == IMP_INLINE && n[k] == src->n[k] + src->pairs))
			imp_note(s->a, &s->rep, "parity", by, src->n[k] ? src->line[k] : 0,
				 "%d %s as %s reads the source, %d in folio's page%s", src->n[k], names[k], gen, n[k],
				 n[k] < src->n[k] ? " (some are lost: look here first)" : "");
}

int imp_carry(struct imp_site *s, const char *from, const char *to)
{
	char a[4200];
	snprintf(a, sizeof a, "/%s", to);
	if (folio_own(s, a)) {
		imp_note(s->a, &s->rep, "file not carried over", from, 0,
			 "'%s' is where folio writes its own (home, feeds, sitemap, styles...)", a);
		return 0;
	}
	if (imp_list_has(&s->copy_to, imp_fmt(s->a, "static/%s", to)))
		return 1;
	if (!imp_copy(s, from, to, from, 0))
		return 0;
	s->rep.carried++;
	return 1;
}

/* fix_aliases: an alias equal to the new URL goes silently; one that is
 * another document's URL, or another's alias too, or an address of
 * folio's own pages, or that folio would refuse, goes with a finding.
 * Counts the rest. */
static void fix_aliases(struct imp_site *s)
{
	struct imp_list seen = {0};
	char u[700], v[700];
	for (size_t i = 0; i < s->ndocs; i++) {
		struct imp_doc *d = s->docs[i];
		if (d->skip)
			continue;
		new_url(d, u, sizeof u);
		imp_list_add(s->a, &seen, arena_strndup(s->a, u, strlen(u)));
	}
	struct imp_list taken = {0};
	for (size_t i = 0; i < s->ndocs; i++) {
		struct imp_doc *d = s->docs[i];
		if (d->skip)
			continue;
		new_url(d, u, sizeof u);
		size_t k = 0;
		for (size_t j = 0; j < d->aliases.n; j++) {
			const char *a = d->aliases.v[j];
			/* /x/ and /x/index.html are one page */
			size_t al = strlen(a);
			snprintf(v, sizeof v, "%s", a);
			if (al > 10 && !strcmp(a + al - 10, "index.html"))
				v[al - 10] = '\0';
			if (!strcmp(v, u))
				continue;
			if (!alias_ok(a)) {
				imp_note(s->a, &s->rep, "alias dropped", d->src_path, 0,
					 "old URL '%s' cannot be an alias (a path from / without .., spaces or '?')", a);
				continue;
			}
			if (folio_own(s, v)) {
				imp_note(s->a, &s->rep, "alias dropped", d->src_path, 0,
					 "old URL '%s' is where folio puts its own pages (home, tags, search, feeds, ...)", a);
				continue;
			}
			if (imp_list_has(&seen, v) || imp_list_has(&taken, v)) {
				imp_note(s->a, &s->rep, "alias dropped", d->src_path, 0,
					 "old URL '%s' is already another page's URL or alias", a);
				continue;
			}
			imp_list_add(s->a, &taken, arena_strndup(s->a, v, strlen(v)));
			d->aliases.v[k++] = a;
			s->rep.aliases++;
		}
		d->aliases.n = k;
	}
	/* an alias written as a file ("/old") where another URL needs the
	 * folder ("/old/x/") is written as that folder, as Hugo writes every
	 * alias and as servers answer "/old" */
	for (size_t i = 0; i < s->ndocs; i++) {
		struct imp_doc *d = s->docs[i];
		for (size_t j = 0; !d->skip && j < d->aliases.n; j++) {
			const char *a = d->aliases.v[j];
			size_t al = strlen(a);
			if (!al || a[al - 1] == '/' || strchr(strrchr(a, '/'), '.'))
				continue;
			int under = 0;
			for (size_t q = 0; q < taken.n && !under; q++)
				under = !strncmp(taken.v[q], a, al) && taken.v[q][al] == '/';
			for (size_t q = 0; q < seen.n && !under; q++)
				under = !strncmp(seen.v[q], a, al) && seen.v[q][al] == '/';
			const char *f = imp_fmt(s->a, "%s/", a);
			if (under && (imp_list_has(&taken, f) || imp_list_has(&seen, f))) {
				imp_note(s->a, &s->rep, "alias dropped", d->src_path, 0,
					 "old URL '%s' is a file where other pages are below it, and '%s' is taken", a, f);
				memmove(&d->aliases.v[j], &d->aliases.v[j + 1], (d->aliases.n - j - 1) * sizeof *d->aliases.v);
				d->aliases.n--;
				s->rep.aliases--;
				j--;
			} else if (under) {
				d->aliases.v[j] = f;
				imp_list_add(s->a, &taken, f);
			}
		}
	}
}

static void doc_text(const struct imp_site *s, const struct imp_doc *d, struct buf *b)
{
	buf_puts(b, "---\n");
	yaml_key_str(b, "title", d->title ? d->title : d->slug);
	if (d->kind == IMP_SERIES) {
		yaml_key_str(b, "description", d->description ? d->description : d->title);
	} else {
		if (d->kind == IMP_POST && d->date)
			buf_printf(b, "date: %s\n", d->date);
		if (d->kind == IMP_POST && d->updated)
			buf_printf(b, "updated: %s\n", d->updated);
		if (d->kind == IMP_POST)
			yaml_key_str(b, "summary", d->summary);
		yaml_key_str(b, "description", d->description);
		if (d->kind == IMP_POST) {
			yaml_key_str(b, "category", d->category);
			yaml_key_list(b, "tags", &d->tags);
			yaml_key_str(b, "series", d->series);
			if (d->series_order)
				buf_printf(b, "series_order: %d\n", d->series_order);
			yaml_key_str(b, "image", d->image);
		}
		if (d->draft)
			buf_puts(b, "draft: true\n");
		if (d->toc >= 0)
			buf_printf(b, "toc: %s\n", d->toc ? "true" : "false");
		yaml_key_list(b, "aliases", &d->aliases);
		if (d->ignore_links.n) {
			/* links are checked as the page has them: under a base
			 * path, with it in front */
			const char *bp = "";
			size_t bl = 0;
			if (s->base_url) {
				const char *h = strstr(s->base_url, "://");
				bp = h ? strchr(h + 3, '/') : s->base_url;
				bp = bp ? bp : "";
				bl = strlen(bp);
				while (bl && bp[bl - 1] == '/')
					bl--;
			}
			buf_puts(b, "ignore_links:\n");
			for (size_t i = 0; i < d->ignore_links.n; i++) {
				const char *u = d->ignore_links.v[i];
				struct buf t;
				buf_init(&t);
				if (u[0] == '/' && u[1] != '/')
					buf_append(&t, bp, bl);
				/* a blank in a link is checked encoded (%20) or
				 * trimmed: a pattern's '*' matches either */
				for (const char *q = u; *q; q++)
					buf_putc(&t, *q == ' ' || *q == '\n' || *q == '\t' || *q == '\r' ? '*' : *q);
				buf_puts(b, "  - ");
				imp_yaml_str(b, t.p);
				buf_putc(b, '\n');
				buf_fini(&t);
			}
		}
	}
	buf_puts(b, "---\n");
	buf_append(b, d->body.p, d->body.len);
	if (d->body.len && d->body.p[d->body.len - 1] != '\n')
		buf_putc(b, '\n');
}

/* copy_file: SRC/from -> DST/static/to, read through a descriptor
 * opened without following a last link (the file was checked to be
 * inside SRC). */
static int copy_file(struct imp_site *s, const char *from, const char *to)
{
	char p[4096], rel[4200];
	size_t len;
	if (src_path(s, from, p, sizeof p))
		return -1;
	char *data = src_read(p, &len);
	if (!data) {
		imp_note(s->a, &s->rep, "file not copied", from, 0, "cannot be read: %s", strerror(errno));
		return 0;
	}
	snprintf(rel, sizeof rel, "%s", to);
	int rc = write_new(s, rel, data, len);
	free(data);
	if (!rc)
		s->rep.files++;
	return rc;
}

/* has_term: whether a document of the site has the tag (tags 1) or the
 * category (0) whose slug is slug. */
static int has_term(struct imp_site *s, struct str slug, int tags)
{
	for (size_t i = 0; i < s->ndocs; i++) {
		const struct imp_doc *d = s->docs[i];
		if (d->skip)
			continue;
		if (!tags && d->category && str_eq(term_slug(s->a, str_from(d->category)), slug))
			return 1;
		for (size_t k = 0; tags && k < d->tags.n; k++)
			if (str_eq(term_slug(s->a, str_from(d->tags.v[k])), slug))
				return 1;
	}
	return 0;
}

/* terms_redirected: a redirect to a tag's or a category's page that the
 * new site does not have (no post has it) goes to the list of them. */
static void terms_redirected(struct imp_site *s)
{
	for (size_t i = 0; i < s->redirect_to.n; i++) {
		const char *to = s->redirect_to.v[i];
		int tags = !strncmp(to, "/tags/", 6);
		if (!tags && strncmp(to, "/categories/", 12))
			continue;
		const char *sl = to + (tags ? 6 : 12);
		struct str slug = {sl, strlen(sl)};
		if (!slug.len || slug.p[slug.len - 1] != '/')
			continue;
		slug.len--;
		if (slug.len && !has_term(s, slug, tags)) {
			s->redirect_to.v[i] = tags ? "/tags/" : "/categories/";
			imp_note(s->a, &s->rep, "redirect", "folio.yml", 0,
				 "no post has the %s of %s: its old address %s goes to %s instead", tags ? "tag" : "category",
				 to, s->redirect_from.v[i], s->redirect_to.v[i]);
		}
	}
}

/* cats_redirects: a category made a tag that no post has as its own
 * has no page of its own in folio: its old /categories/x/ goes to its
 * tag's page. */
static void cats_redirects(struct imp_site *s)
{
	for (size_t i = 0; i < s->cats_made_tags.n; i++) {
		struct str k = term_key(s->a, str_from(s->cats_made_tags.v[i]));
		int own = 0;
		for (size_t d = 0; d < s->ndocs && !own; d++)
			own = !s->docs[d]->skip && s->docs[d]->category &&
			      str_eq(term_key(s->a, str_from(s->docs[d]->category)), k);
		if (own)
			continue;
		struct str slug = term_slug(s->a, str_from(s->cats_made_tags.v[i]));
		imp_redirect(s, imp_fmt(s->a, "/categories/%.*s/", STR_FMT(slug)),
			     imp_fmt(s->a, "/tags/%.*s/", STR_FMT(slug)), "categories");
	}
}

int imp_write(struct imp_site *s)
{
	imp_fix_slugs(s);
	fix_aliases(s);
	struct buf b;
	buf_init(&b);
	yaml_key_str(&b, "title", s->title ? s->title : "My blog");
	yaml_key_str(&b, "description", s->description);
	yaml_key_str(&b, "base_url", s->base_url);
	yaml_key_str(&b, "timezone", s->timezone);
	if (s->author)
		yaml_key_str(&b, "author", s->author);
	if (s->posts_per_page > 0)
		buf_printf(&b, "posts_per_page: %d\n", s->posts_per_page);
	if (s->paginate_path)
		buf_printf(&b, "paginate_path: %s\n", s->paginate_path);
	if (s->math_brackets || s->math_mathjax)
		buf_printf(&b, "math:\n%s%s", s->math_brackets ? "  delimiters: [dollars, brackets]\n" : "",
			   s->math_mathjax ? "  compat: mathjax\n" : "");
	if (s->feeds_also.n) {
		buf_puts(&b, "feeds:\n  also_at:\n");
		for (size_t i = 0; i < s->feeds_also.n; i++) {
			buf_puts(&b, "    - ");
			buf_put_json(&b, s->feeds_also.v[i], strlen(s->feeds_also.v[i]), 0);
			buf_putc(&b, '\n');
		}
	}
	cats_redirects(s);
	terms_redirected(s);
	if (s->redirect_from.n) {
		buf_puts(&b, "redirects:\n");
		for (size_t i = 0; i < s->redirect_from.n; i++) {
			buf_puts(&b, "  ");
			buf_put_json(&b, s->redirect_from.v[i], strlen(s->redirect_from.v[i]), 0);
			buf_puts(&b, ": ");
			buf_put_json(&b, s->redirect_to.v[i], strlen(s->redirect_to.v[i]), 0);
			buf_putc(&b, '\n');
		}
	}
	for (size_t i = 0; i < s->config_extra.n; i++)
		buf_puts(&b, s->config_extra.v[i]);
	int rc = write_new(s, "folio.yml", b.p, b.len);
	for (size_t i = 0; i < s->ndocs && !rc; i++) {
		struct imp_doc *d = s->docs[i];
		if (d->skip)
			continue;
		char rel[700];
		doc_rel(d, rel, sizeof rel);
		buf_reset(&b);
		doc_text(s, d, &b);
		rc = write_new(s, rel, b.p, b.len);
	}
	for (size_t i = 0; i < s->ndocs && !rc; i++) {
		struct imp_doc *d = s->docs[i];
		if (d->skip || !d->bundle)
			continue;
		/* a bundle's files beside its index.md */
		for (size_t k = 0; k < d->bundle_files.n; k++) {
			const char *f = d->bundle_files.v[k];
			imp_copy_dst(s, imp_fmt(s->a, "%s/%s", d->bundle, f),
				     imp_fmt(s->a, "content/%s/%s/%s", kind_dir(d->kind), d->slug, f), d->src_path, 0);
		}
	}
	for (size_t i = 0; i < s->copy_from.n && !rc; i++)
		rc = copy_file(s, s->copy_from.v[i], s->copy_to.v[i]);
	for (size_t i = 0; i < s->made_to.n && !rc; i++)
		rc = write_new(s, imp_fmt(s->a, "static/%s", s->made_to.v[i]), s->made_text.v[i],
			       strlen(s->made_text.v[i]));
	for (size_t i = 0; i < s->tmpl_to.n && !rc; i++)
		rc = write_new(s, s->tmpl_to.v[i], s->tmpl_text.v[i], strlen(s->tmpl_text.v[i]));
	buf_fini(&b);
	return rc;
}

/* ---- the report ---- */

static int finding_cmp(const void *x, const void *y)
{
	const struct imp_finding *a = x, *b = y;
	int c = strcmp(a->kind, b->kind);
	if (c)
		return c;
	if ((c = strcmp(a->path, b->path)))
		return c;
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	return strcmp(a->what, b->what);
}

void imp_report_text(const struct imp_site *s, int build_errors, struct buf *b)
{
	const struct imp_report *r = &s->rep;
	buf_printf(b, "# Imported from %s\n\n", s->generator);
	buf_printf(b, "- posts: %zu (drafts among them: %zu)\n", r->posts, r->drafts);
	buf_printf(b, "- pages: %zu\n", r->pages);
	buf_printf(b, "- series: %zu\n", r->series);
	buf_printf(b, "- files copied (to static/ or beside a bundle): %zu\n", r->files);
	buf_printf(b, "- of them, carried over although no page names them: %zu\n", r->carried);
	buf_printf(b, "- aliases (old URLs that redirect): %zu\n", r->aliases);
	buf_printf(b, "- not converted as written: %zu\n", r->n);
	if (r->failed)
		buf_printf(b, "- documents that could not be converted: %zu\n", r->failed);
	if (build_errors >= 0)
		buf_printf(b, "- folio build: %s\n",
			   build_errors ? "failed (see the errors folio printed)" : "passed, no error");
	struct imp_finding *v = xmalloc((r->n ? r->n : 1) * sizeof *v);
	if (r->n) {
		memcpy(v, r->v, r->n * sizeof *v);
		qsort(v, r->n, sizeof *v, finding_cmp);
	}
	for (size_t i = 0; i < r->n;) {
		size_t j = i;
		while (j < r->n && !strcmp(v[j].kind, v[i].kind))
			j++;
		buf_printf(b, "\n## %s (%zu)\n\n", v[i].kind, j - i);
		for (size_t k = i; k < j; k++) {
			if (v[k].line)
				buf_printf(b, "- %s:%d: %s\n", v[k].path, v[k].line, v[k].what);
			else
				buf_printf(b, "- %s: %s\n", v[k].path, v[k].what);
		}
		i = j;
	}
	free(v);
}

/* ---- the build of DST ---- */

/* build_once: a build of DST (drafts and future posts too) into a scratch
 * folder that is removed (folio check's); messages into cap (and to stderr when show).
 * Returns the number of errors. */
static int build_once(struct imp_site *s, struct buf *cap, int show)
{
	struct build_request req;
	memset(&req, 0, sizeof req);
	req.site_dir = s->dst;
	req.check = 1; /* into a scratch folder of its own, removed after */
	req.drafts = 1;
	req.future = 1;
	/* every stage runs, so that a formula's error does not hide the
	 * broken links of the link check (the output is thrown away) */
	req.keep_going = 1;
	struct build_result res;
	memset(&res, 0, sizeof res);
	struct diag d;
	diag_init(&d, show ? stderr : NULL);
	d.defer = 1;
	d.capture = cap;
	int errors = build_site(&req, &d, &res);
	diag_flush(&d);
	diag_fini(&d);
	cache_remove_all(s->dst); /* the build's cache (typeset formulas) is not part of the import */
	return errors;
}

/* doc_at: the document written as rel ("content/posts/x.md"). */
static struct imp_doc *doc_at(struct imp_site *s, const char *rel, size_t n)
{
	char u[700];
	for (size_t i = 0; i < s->ndocs; i++) {
		struct imp_doc *d = s->docs[i];
		if (d->skip)
			continue;
		doc_rel(d, u, sizeof u);
		if (strlen(u) == n && !memcmp(u, rel, n))
			return d;
	}
	return NULL;
}

/* ignore_broken: for each "broken link 'URL'" error of a build, the URL
 * goes into its document's ignore_links (the link was broken in the old
 * site too: folio keeps it and says so). Returns how many documents
 * changed (each written again). */
static int ignore_broken(struct imp_site *s, const struct buf *cap)
{
	static const char mark[] = ": error: broken link '";
	int changed = 0;
	struct imp_list docs = {0};
	const char *p = cap->p, *e = cap->p + cap->len;
	while (p && p < e) {
		const char *nl = memchr(p, '\n', (size_t)(e - p));
		const char *le = nl ? nl : e;
		const char *m = memmem(p, (size_t)(le - p), mark, sizeof mark - 1);
		if (m) {
			/* path:line:col, or path alone (a page's whole link, its card) */
			const char *c1 = memchr(p, ':', (size_t)(m - p) + 1);
			const char *u = m + sizeof mark - 1;
			/* the URL may hold a line break: its end is looked for past the line */
			size_t room = (size_t)(e - u) < 8192 ? (size_t)(e - u) : 8192;
			const char *ue = memmem(u, room, "':", 2);
			if (ue && ue > le)
				nl = memchr(ue, '\n', (size_t)(e - ue));
			struct imp_doc *d = c1 && ue ? doc_at(s, p, (size_t)(c1 - p)) : NULL;
			if (d) {
				struct buf g;
				buf_init(&g);
				for (const char *q = u; q < ue; q++) {
					if (*q == '*' || *q == '?' || *q == '[' || *q == '\\')
						buf_putc(&g, '\\');
					buf_putc(&g, *q);
				}
				const char *pat = arena_strndup(s->a, g.p ? g.p : "", g.len);
				buf_fini(&g);
				if (!imp_list_has(&d->ignore_links, pat)) {
					imp_list_add(s->a, &d->ignore_links, pat);
					imp_note(s->a, &s->rep, "broken link", d->src_path, 0,
						 "'%.*s' leads to no page of the new site: kept, in ignore_links", (int)(ue - u), u);
					int had = 0;
					for (size_t k = 0; k < docs.n; k++)
						had |= docs.v[k] == (const char *)d;
					if (!had) {
						imp_list_add(s->a, &docs, (const char *)d);
						changed++;
					}
				}
			}
		}
		p = nl ? nl + 1 : NULL;
	}
	struct buf b;
	buf_init(&b);
	for (size_t i = 0; i < docs.n; i++) {
		struct imp_doc *d = (struct imp_doc *)docs.v[i];
		char rel[700], path[4800];
		doc_rel(d, rel, sizeof rel);
		snprintf(path, sizeof path, "%s/%s", s->dst, rel);
		buf_reset(&b);
		doc_text(s, d, &b);
		int fail = file_replace(path, b.p, b.len); /* the document imp_write wrote, its new text at once */
		if (fail)
			diag_error(s->d, &(struct diag_loc){path, NULL, 0, 0, 0}, "%s: %s", file_fail_what(fail),
				   strerror(errno));
	}
	buf_fini(&b);
	return changed;
}

int imp_build(struct imp_site *s)
{
	struct buf cap;
	buf_init(&cap);
	int errors = build_once(s, &cap, 0);
	/* a page tells at most 50 broken links: a few rounds may be needed */
	for (int round = 0; errors && round < 8 && ignore_broken(s, &cap); round++) {
		buf_reset(&cap);
		errors = build_once(s, &cap, 0);
	}
	if (cap.len)
		fwrite(cap.p, 1, cap.len, stderr);
	buf_fini(&cap);
	return errors;
}

void imp_action_trim(const char **p, const char **e)
{
	if (*p < *e && **p == '-')
		(*p)++;
	if (*e > *p && (*e)[-1] == '-')
		(*e)--;
	while (*p < *e && isspace((unsigned char)**p))
		(*p)++;
	while (*e > *p && isspace((unsigned char)(*e)[-1]))
		(*e)--;
}

/* ---- directives the import writes calls of ---- */

void imp_dir_key(struct arena *a, struct imp_dir *d, const char *key, size_t n)
{
	for (size_t j = 0; j < d->nkeys; j++)
		if (strlen(d->keys[j]) == n && !memcmp(d->keys[j], key, n))
			return;
	if (d->nkeys < sizeof d->keys / sizeof *d->keys)
		d->keys[d->nkeys++] = arena_strndup(a, key, n);
}

struct imp_dir *imp_dir_call(struct arena *a, struct imp_dirs *ds, struct str orig, const char *name,
                             const char *const *keys, size_t nkeys, int inl, const char *path, int line)
{
	struct imp_dir *d = NULL;
	for (size_t i = 0; i < ds->n && !d; i++)
		if (!strcmp(ds->v[i].name, name))
			d = &ds->v[i];
	if (!d) {
		if (ds->n == ds->cap) {
			ds->cap = ds->cap ? ds->cap * 2 : 8;
			ds->v = xrealloc(ds->v, ds->cap * sizeof *ds->v);
		}
		d = &ds->v[ds->n++];
		memset(d, 0, sizeof *d);
		d->name = name;
		d->orig = arena_strndup(a, orig.p, orig.len);
		d->path = path;
		d->line = line;
	}
	d->calls++;
	d->inl |= inl;
	for (size_t k = 0; k < nkeys; k++)
		imp_dir_key(a, d, keys[k], strlen(keys[k]));
	return d;
}

void imp_dir_write(struct imp_site *s, struct imp_dir *d, const char *kind, const char *from, const char *rel,
                   char *text, size_t len, imp_template_fn conv, const char *missing)
{
	struct arena *a = s->a;
	struct buf made;
	buf_init(&made);
	if (!text)
		rel = NULL; /* no template found */
	const struct buf *body = text && conv(a, text, len, &made, d) ? &made : NULL;
	free(text);
	struct buf t;
	buf_init(&t);
	buf_puts(&t, "{# args:\n");
	for (size_t k = 0; k < d->nkeys; k++)
		buf_printf(&t, "     %s: string\n", d->keys[k]);
	buf_printf(&t, "#}\n{#- imported from %s %s%s -#}\n", from, d->orig,
		   body  ? ""
		   : rel ? ": it did more than read its parameters and its content, and shows the content only "
			   "here; see IMPORT.md"
			 : ": its template is not in the source, and this one shows the content only; see IMPORT.md");
	if (body)
		buf_append(&t, body->p ? body->p : "", body->len);
	else
		buf_printf(&t, "<%s class=\"shortcode shortcode-%s\">{{ content }}</%s>\n", d->inl ? "span" : "div",
			   d->name, d->inl ? "span" : "div");
	imp_list_add(a, &s->tmpl_to, imp_fmt(a, "templates/directives/%s.html", d->name));
	imp_list_add(a, &s->tmpl_text, arena_strndup(a, t.p, t.len));
	buf_fini(&t);
	if (body)
		imp_note(a, &s->rep, imp_fmt(a, "%s made a directive", kind), d->path, d->line,
			 "'%s': %d call%s written as the directive '%s', its template %s made "
			 "templates/directives/%s.html",
			 d->orig, d->calls, d->calls == 1 ? "" : "s", d->name, rel, d->name);
	else
		imp_note(a, &s->rep, imp_fmt(a, "%s to write as a template", kind), d->path, d->line,
			 "'%s': %d call%s written as the directive '%s'; templates/directives/%s.html shows their "
			 "content only: write it from %s", d->orig, d->calls, d->calls == 1 ? "" : "s", d->name,
			 d->name, rel ? rel : missing);
	buf_fini(&made);
}
