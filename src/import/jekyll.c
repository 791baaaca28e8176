/* jekyll.c: folio import jekyll: _config.yml, _posts/, _drafts/, pages,
 * collections and the files posts refer to, into the import model
 * (import.h); old URLs from the permalink pattern become aliases. */
#include <ctype.h>
#include <stdarg.h>
#include <strings.h>
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "read/content.h"
#include "import/import.h"
#include "import/reader.h"
#include "files/sitefile.h"
#include "base/slug.h"
#include "formats/yaml.h"

struct jk {
	struct imp_reader r; /* the documents read, the keys not imported */
	const struct ynode *cfg;
	const char *permalink; /* the site's pattern, expanded from its style */
	const char *baseurl;   /* "/blog" or "" */
	struct imp_list exclude;
	struct imp_dirs dirs; /* the includes written as directives */
};

/* ---- includes as directives ---- */

static void cb_directive(void *ctx, struct str orig, const char *name, const char *const *keys, size_t nkeys,
			 int inl, int line)
{
	struct jk *j = ctx;
	imp_dir_call(j->r.s->a, &j->dirs, orig, name, keys, nkeys, inl, j->r.cur ? j->r.cur->rel : NULL, line);
}

/* inc_name: p[0..n) is "include.NAME" (NAME a parameter's name, which
 * folio's arguments begin with a letter or '_': include.2 is Liquid's,
 * not one): its length, else 0 */
static size_t inc_name(const char *p, size_t n)
{
	if (n <= 8 || memcmp(p, "include.", 8) || (!isalpha((unsigned char)p[8]) && p[8] != '_'))
		return 0;
	for (size_t i = 8; i < n; i++)
		if (!isalnum((unsigned char)p[i]) && p[i] != '_' && p[i] != '-')
			return 0;
	return n - 8;
}

/* inc_output: one Liquid output's inside, p[0..n) trimmed, as folio's
 * into b: include.NAME with the filters default (a quoted text),
 * escape, xml_escape, relative_url and absolute_url (folio escapes, and
 * its links start from the site's root); 0 for anything else */
static int inc_output(struct arena *a, const char *p, size_t n, struct buf *b, struct imp_dir *d)
{
	const char *e = p + n, *bar = memchr(p, '|', n), *he = bar ? bar : e;
	while (he > p && isspace((unsigned char)he[-1]))
		he--;
	size_t k = inc_name(p, (size_t)(he - p));
	if (!k)
		return 0;
	imp_dir_key(a, d, p + 8, k);
	buf_printf(b, "{{ %.*s", (int)k, p + 8);
	for (const char *q = bar; q && q < e;) {
		q++;
		while (q < e && isspace((unsigned char)*q))
			q++;
		if (q >= e)
			return 0; /* "x |": no filter */
		const char *next = memchr(q, '|', (size_t)(e - q)), *fe = next ? next : e;
		while (fe > q && isspace((unsigned char)fe[-1]))
			fe--;
		struct str f = {q, (size_t)(fe - q)};
		if (f.len > 11 && !memcmp(f.p, "default:", 8)) {
			const char *v = f.p + 8;
			while (*v == ' ')
				v++;
			char qc = *v;
			if ((qc != '"' && qc != '\'') || fe[-1] != qc || fe - v < 2 || memchr(v + 1, '"', (size_t)(fe - v - 2)) ||
			    memchr(v + 1, '\\', (size_t)(fe - v - 2)) || memchr(v + 1, '\n', (size_t)(fe - v - 2)))
				return 0; /* (folio's texts are on one line) */
			buf_printf(b, " or \"%.*s\"", (int)(fe - v - 2), v + 1);
		} else if (!str_eq_cstr(f, "escape") && !str_eq_cstr(f, "xml_escape") && !str_eq_cstr(f, "relative_url") &&
			   !str_eq_cstr(f, "absolute_url")) {
			return 0;
		}
		q = next;
	}
	buf_puts(b, " }}");
	return 1;
}

/* The if and unless open in a template (depth), and of each level
 * whether its else was seen (bit depth - 1 of elsed): folio refuses a
 * second else, or an elif after the else, as Liquid ignores them. Deeper
 * than 64: not made folio's. */
struct inc_nest {
	int depth;
	uint64_t elsed;
};

/* inc_tag: one Liquid tag's inside, trimmed, as folio's into b: if,
 * elsif and unless on include.NAME (alone, or == or != a quoted text),
 * else, endif, endunless; 0 for anything else */
static int inc_tag(struct arena *a, const char *p, size_t n, struct buf *b, struct imp_dir *d, struct inc_nest *nest)
{
	struct str t = {p, n};
	int is_else = str_eq_cstr(t, "else");
	if (is_else || str_eq_cstr(t, "endif") || str_eq_cstr(t, "endunless")) {
		if (!nest->depth)
			return 0; /* no if open: Liquid's error too */
		uint64_t bit = (uint64_t)1 << (nest->depth - 1);
		if (is_else && (nest->elsed & bit))
			return 0; /* a second else */
		if (is_else)
			nest->elsed |= bit;
		else
			nest->elsed &= ~bit, nest->depth--;
		buf_printf(b, "{%% %s %%}", is_else ? "else" : "endif");
		return 1;
	}
	const char *word = n > 3 && !memcmp(p, "if ", 3)       ? "if"
	                   : n > 6 && !memcmp(p, "elsif ", 6)  ? "elif"
	                   : n > 7 && !memcmp(p, "unless ", 7) ? "if not"
	                                                       : NULL;
	if (!word || (word[1] == 'l' && (!nest->depth || (nest->elsed >> (nest->depth - 1) & 1))) ||
	    (word[1] != 'l' && nest->depth == 64))
		return 0;
	nest->depth += word[1] != 'l';
	const char *c = (const char *)memchr(p, ' ', n) + 1, *e = p + n;
	const char *ce = c;
	while (ce < e && !isspace((unsigned char)*ce))
		ce++;
	size_t k = inc_name(c, (size_t)(ce - c));
	if (!k)
		return 0;
	imp_dir_key(a, d, c + 8, k);
	while (ce < e && *ce == ' ')
		ce++;
	if (ce == e) {
		buf_printf(b, "{%% %s %.*s %%}", word, (int)k, c + 8);
		return 1;
	}
	if (e - ce < 5 || (memcmp(ce, "== ", 3) && memcmp(ce, "!= ", 3)))
		return 0;
	const char *v = ce + 3;
	while (v < e && *v == ' ')
		v++;
	if (e - v < 2 || (*v != '"' && *v != '\'') || e[-1] != *v || memchr(v + 1, '"', (size_t)(e - v - 2)) ||
	    memchr(v + 1, '\\', (size_t)(e - v - 2)) || memchr(v + 1, '\n', (size_t)(e - v - 2)))
		return 0; /* a text across lines: Liquid takes one, folio does not */
	buf_printf(b, "{%% %s %.*s %.2s \"%.*s\" %%}", word, (int)k, c + 8, ce, (int)(e - v - 2), v + 1);
	return 1;
}

int imp_jekyll_template(struct arena *a, const char *t, size_t n, struct buf *b, struct imp_dir *d)
{
	if (utf8_valid_prefix(t, n) != n)
		return 0; /* folio's templates are UTF-8: written by hand */
	struct inc_nest nest = {0, 0}; /* the if and unless open */
	for (size_t i = 0; i < n;) {
		size_t o = i;
		while (o + 1 < n && !(t[o] == '{' && (t[o + 1] == '{' || t[o + 1] == '%' || t[o + 1] == '#')))
			o++;
		if (o + 1 >= n) {
			buf_append(b, t + i, n - i);
			break;
		}
		if (t[o + 1] == '#')
			return 0;
		buf_append(b, t + i, o - i);
		int tag = t[o + 1] == '%';
		const char *close = memmem(t + o + 2, n - o - 2, tag ? "%}" : "}}", 2);
		if (!close)
			return 0;
		const char *p = t + o + 2, *e = close;
		imp_action_trim(&p, &e);
		if (!(tag ? inc_tag(a, p, (size_t)(e - p), b, d, &nest) : inc_output(a, p, (size_t)(e - p), b, d)))
			return 0;
		i = (size_t)(close + 2 - t);
	}
	return nest.depth == 0; /* an if never closed: Liquid's error too */
}

/* include_templates: for each include written as directive calls, its
 * template: the site's _includes/FILE made folio's when it only reads its
 * parameters; else one that shows nothing of it, and IMPORT.md says
 * which template to write from */
static void include_templates(struct jk *j)
{
	struct imp_site *s = j->r.s;
	struct arena *a = s->a;
	for (size_t i = 0; i < j->dirs.n; i++) {
		struct imp_dir *d = &j->dirs.v[i];
		const char *rel = imp_fmt(a, "_includes/%s", d->orig);
		size_t len = 0;
		char *text = strstr(d->orig, "..") ? NULL : imp_read_src(s, rel, &len);
		imp_dir_write(s, d, "Liquid include", "Jekyll's include", rel, text, len, imp_jekyll_template,
			      "a theme's include (none in _includes/ here)");
	}
	free(j->dirs.v);
}

/* ---- small helpers ---- */

static const char *astr(struct arena *a, const char *p, size_t n)
{
	return arena_strndup(a, p, n);
}

static int has_ext(const char *name, const char *const *exts)
{
	const char *dot = strrchr(name, '.');
	if (!dot)
		return 0;
	for (; *exts; exts++)
		if (!strcasecmp(dot + 1, *exts))
			return 1;
	return 0;
}

static const char *const md_exts[] = {"md", "markdown", "mkd", "mkdn", "mdown", "mdwn", NULL};
static const char *const post_exts[] = {"md", "markdown", "mkd", "mkdn", "mdown", "mdwn", "html", NULL};

/* dated: whether name starts with YYYY-MM-DD- */
static int dated(const char *name)
{
	for (int i = 0; i < 10; i++)
		if (i == 4 || i == 7 ? name[i] != '-' : !isdigit((unsigned char)name[i]))
			return 0;
	return name[10] == '-' && name[11];
}

/* stem: the file name of rel without folders and extension. */
static const char *stem(struct arena *a, const char *rel)
{
	const char *b = strrchr(rel, '/');
	b = b ? b + 1 : rel;
	const char *dot = strrchr(b, '.');
	return astr(a, b, dot && dot > b ? (size_t)(dot - b) : strlen(b));
}

/* stem_path: rel without its extension. */
static const char *stem_path(struct arena *a, const char *rel)
{
	const char *b = strrchr(rel, '/');
	const char *dot = strrchr(b ? b : rel, '.');
	return astr(a, rel, dot && dot > (b ? b + 1 : rel) ? (size_t)(dot - rel) : strlen(rel));
}

/* ---- walking SRC ---- */

static int excluded(const struct jk *j, const char *rel, const char *name)
{
	for (size_t i = 0; i < j->exclude.n; i++) {
		const char *e = j->exclude.v[i];
		size_t el = strlen(e);
		while (el && e[el - 1] == '/')
			el--;
		if ((!strncmp(rel, e, el) && (rel[el] == '/' || !rel[el])) || !fnmatch(e, rel, 0) ||
		    !fnmatch(e, name, 0))
			return 1;
	}
	return 0;
}

/* skip: what a walk of SRC leaves out: what _config.yml excludes, and
 * at the top the _ folders (read where they are used), the Ruby
 * project's files and folders. */
static int skip(void *ctx, const char *rel, const char *nm, int top)
{
	const struct jk *j = ctx;
	return excluded(j, rel, nm) || (top && (nm[0] == '_' || !strcmp(nm, "node_modules") ||
						!strcmp(nm, "vendor") || !strncmp(nm, "Gemfile", 7)));
}

static void walk(struct jk *j, const char *dir, struct imp_list *out)
{
	imp_walk(j->r.s, dir, *dir ? 1 : 0, skip, j, out);
}

/* ---- permalinks ---- */

static const char *style_pattern(const char *p)
{
	if (!p || !strcmp(p, "date"))
		return "/:categories/:year/:month/:day/:title:output_ext";
	if (!strcmp(p, "pretty"))
		return "/:categories/:year/:month/:day/:title/";
	if (!strcmp(p, "ordinal"))
		return "/:categories/:year/:y_day/:title:output_ext";
	if (!strcmp(p, "weekdate"))
		return "/:categories/:year/W:week/:short_day/:title:output_ext";
	if (!strcmp(p, "none"))
		return "/:categories/:title:output_ext";
	return p;
}

/* Values of a permalink's placeholders. */
struct ph {
	const char *title, *slug, *categories, *path, *basename, *collection;
	int y, m, d, h, mi, s;
};

static int yday(int y, int m, int d)
{
	static const int cum[] = {0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334};
	int leap = (y % 4 == 0 && y % 100) || y % 400 == 0;
	return cum[m - 1] + d + (leap && m > 2);
}

/* put_ph: the value of Jekyll's placeholder key (v a struct ph), or 0
 * for a word that is none. */
static int put_ph(void *ctx, const char *key, struct buf *b)
{
	static const char *const months[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
					     "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
	const struct ph *v = ctx;
	/* the longest placeholder that the word starts with (":title:output_ext" has no separator) */
	if (!strcmp(key, "year"))
		buf_printf(b, "%04d", v->y);
	else if (!strcmp(key, "month"))
		buf_printf(b, "%02d", v->m);
	else if (!strcmp(key, "i_month"))
		buf_printf(b, "%d", v->m);
	else if (!strcmp(key, "short_month"))
		buf_puts(b, months[v->m - 1]);
	else if (!strcmp(key, "day"))
		buf_printf(b, "%02d", v->d);
	else if (!strcmp(key, "i_day"))
		buf_printf(b, "%d", v->d);
	else if (!strcmp(key, "y_day"))
		buf_printf(b, "%03d", yday(v->y, v->m, v->d));
	else if (!strcmp(key, "short_year"))
		buf_printf(b, "%02d", v->y % 100);
	else if (!strcmp(key, "hour"))
		buf_printf(b, "%02d", v->h);
	else if (!strcmp(key, "minute"))
		buf_printf(b, "%02d", v->mi);
	else if (!strcmp(key, "second"))
		buf_printf(b, "%02d", v->s);
	else if (!strcmp(key, "title") || !strcmp(key, "name"))
		buf_puts(b, v->title);
	else if (!strcmp(key, "slug"))
		buf_puts(b, v->slug);
	else if (!strcmp(key, "categories") || !strcmp(key, "slugified_categories"))
		buf_puts(b, v->categories);
	else if (!strcmp(key, "output_ext"))
		buf_puts(b, ".html");
	else if (!strcmp(key, "path"))
		buf_puts(b, v->path ? v->path : "");
	else if (!strcmp(key, "basename"))
		buf_puts(b, v->basename ? v->basename : "");
	else if (!strcmp(key, "collection"))
		buf_puts(b, v->collection ? v->collection : "");
	else
		return 0;
	return 1;
}

/* expand: a permalink pattern with its placeholders filled in; Jekyll
 * then turns runs of '/' into one. */
static const char *expand(struct arena *a, const char *pat, const struct ph *v)
{
	struct buf b;
	buf_init(&b);
	buf_putc(&b, '/');
	imp_expand(&b, pat, put_ph, (void *)v);
	/* runs of '/' -> one */
	size_t k = 0;
	for (size_t i = 0; i < b.len; i++)
		if (!(b.p[i] == '/' && k && b.p[k - 1] == '/'))
			b.p[k++] = b.p[i];
	const char *r = astr(a, b.p, k);
	buf_fini(&b);
	return r;
}

/* pretty_slug: Jekyll's slugify in "pretty" mode, case kept (:title):
 * each run of characters other than letters, digits and ._~!$&'()+,;=@
 * becomes one '-', with none at either end. Bytes of UTF-8 count as
 * letters. */
static const char *pretty_slug(struct arena *a, const char *s, int lower)
{
	struct buf b;
	buf_init(&b);
	int dash = 0;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (isalnum(*p) || *p >= 0x80 || (!lower && strchr("._~!$&'()+,;=@", *p))) {
			buf_sep(&b, &dash, '-');
			buf_putc(&b, lower ? tolower(*p) : *p);
		} else
			dash = 1;
	}
	return buf_to_arena(&b, a).p;
}

/* cats_path: categories as :categories writes them: lower case, joined by '/'. */
static const char *cats_path(struct arena *a, const struct imp_list *cats)
{
	struct buf b;
	buf_init(&b);
	struct imp_list seen = {0};
	for (size_t i = 0; i < cats->n; i++) {
		/* lower case, each once (Jekyll's uniq after downcase) */
		char *lc = (char *)arena_strndup(a, cats->v[i], strlen(cats->v[i]));
		for (char *p = lc; *p; p++)
			*p = (char)tolower((unsigned char)*p);
		if (imp_list_has(&seen, lc))
			continue;
		imp_list_add(a, &seen, lc);
		if (b.len)
			buf_putc(&b, '/');
		buf_puts(&b, lc);
	}
	return buf_to_arena(&b, a).p;
}

/* ---- reading documents ---- */

/* read_fm: reads rel, splits and parses its front matter. NULL when it
 * has none (skipped: Jekyll copies such files as they are) or when it
 * cannot be read (failed: reported). */
static const struct ynode *read_fm(struct jk *j, struct imp_src *x, const char *rel, int *failed)
{
	struct imp_site *s = j->r.s;
	*failed = 0;
	if (imp_src_read(&j->r, x, rel))
		return NULL;
	const char *fm = NULL;
	size_t fm_len = 0;
	struct source so;
	memset(&so, 0, sizeof so);
	int r = content_split(s->d, rel, x->text, x->len, &fm, &fm_len, &so);
	if (r <= 0) {
		*failed = r < 0;
		return NULL;
	}
	x->body = so.body;
	x->body_len = so.body_len;
	x->body_line = so.body_line;
	const struct ynode *m = yaml_parse(s->a, s->d, rel, x->text, x->len, fm, fm_len, 1);
	if (!m || m->kind != YNODE_MAP) {
		if (m)
			diag_error(s->d, &(struct diag_loc){rel, x->text, x->len, 2, 1},
				   "the front matter is not a map of keys");
		*failed = 1;
		return NULL;
	}
	return m;
}

/* read_doc: the document rel of SRC and its front matter (*m), or NULL
 * when it has none: one that cannot be read is reported not converted,
 * a post without front matter skipped. */
static struct imp_src *read_doc(struct jk *j, const char *rel, int post, const struct ynode **m)
{
	struct imp_site *s = j->r.s;
	struct imp_src *x = imp_src_new(&j->r);
	x->rel = rel;
	x->name = stem(s->a, rel);
	int failed;
	*m = read_fm(j, x, rel, &failed);
	if (*m)
		return x;
	if (failed)
		imp_not_converted(s, rel, post ? "post not converted" : "page not converted");
	else if (post && x->text)
		imp_note(s->a, &s->rep, "file skipped", rel, 0, "no front matter: Jekyll does not treat it as a post");
	imp_src_drop(&j->r);
	return NULL;
}

/* common_key: a front matter key that posts and pages read alike (title,
 * published, redirect_from, toc) into d: 1 when k is one. */
static int common_key(struct arena *a, struct imp_doc *d, const char *k, const struct ynode *v)
{
	int b;
	if (!strcmp(k, "title"))
		d->title = imp_scalar(v);
	else if (!strcmp(k, "published")) {
		if (yaml_as_bool(v, &b) && !b)
			d->draft = 1;
	} else if (!strcmp(k, "redirect_from"))
		imp_add_aliases(a, v, &d->aliases, imp_alias_from);
	else if (!strcmp(k, "toc")) {
		if (yaml_as_bool(v, &b))
			d->toc = b;
	} else
		return 0;
	return 1;
}

/* mtime_date: a draft without a date is dated by its file. */
static const char *mtime_date(struct jk *j, const char *rel)
{
	char p[4200];
	struct stat st;
	snprintf(p, sizeof p, "%s/%s", j->r.s->src, rel);
	time_t t = stat(p, &st) == 0 ? st.st_mtime : 0;
	struct tm tm;
	gmtime_r(&t, &tm);
	return imp_fmt(j->r.s->a, "%04d-%02d-%02d", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday);
}

/* What a post's front matter gives besides its document's fields. */
struct post_fm {
	struct imp_list cats;
	const char *permalink, *slug;
	int image_line; /* the line of image: */
};

/* post_key: a key of a post's front matter (rel) that pages do not have,
 * into d or f: 1 when k is one. */
static int post_key(struct imp_site *s, struct imp_doc *d, struct post_fm *f, const char *rel, const char *k,
		    const struct ynode *v)
{
	struct arena *a = s->a;
	const char *sv = imp_scalar(v);
	if (!strcmp(k, "date")) {
		d->date = sv ? imp_date(a, sv) : NULL;
		if (sv && !d->date)
			imp_note(a, &s->rep, "date not understood", rel, v->line,
				 "date '%s' is not a date folio reads: the file name's date is used", sv);
	} else if (!strcmp(k, "last_modified_at") || !strcmp(k, "modified") || !strcmp(k, "updated")) {
		d->updated = sv ? imp_date(a, sv) : NULL;
		if (sv && !d->updated)
			imp_note(a, &s->rep, "date not understood", rel, v->line, "'%s: %s' dropped", k, sv);
	} else if (!strcmp(k, "categories") || !strcmp(k, "category"))
		imp_words(a, v, &f->cats, 1);
	else if (!strcmp(k, "tags") || !strcmp(k, "tag"))
		imp_words(a, v, &d->tags, 1);
	else if (!strcmp(k, "excerpt") || !strcmp(k, "summary"))
		d->summary = sv;
	else if (!strcmp(k, "description"))
		d->description = sv;
	else if (!strcmp(k, "series")) {
		const char *name = sv;
		if (v->kind == YNODE_MAP)
			name = imp_scalar(yaml_map_get(v, "name")) ? imp_scalar(yaml_map_get(v, "name"))
							      : imp_scalar(yaml_map_get(v, "title"));
		if (name && *name)
			imp_join_series(s, d, rel, name);
	} else if (!strcmp(k, "permalink"))
		f->permalink = sv;
	else if (!strcmp(k, "slug"))
		f->slug = sv;
	else if (!strcmp(k, "image") && (sv || imp_scalar(yaml_map_get(v, "path")))) {
		/* image: {path: x, alt: y}, as jekyll-seo-tag reads it too */
		d->image = sv ? sv : imp_scalar(yaml_map_get(v, "path"));
		f->image_line = v->line;
	} else
		return 0;
	return 1;
}

/* post_image: the image: of post x (its social card, at line), as the new
 * site's URL: an address with a scheme stays; a path names the file from
 * the site's root (under the base path) or beside the post; a bare file
 * name is looked for, as themes place it, at the root and in the usual
 * image folders. The file is carried over. NULL, reported, when it is
 * nowhere: a social card that leads nowhere is worse than none. */
static const char *post_image(struct jk *j, const struct imp_src *x, const char *img, int line)
{
	struct imp_site *s = j->r.s;
	struct arena *a = s->a;
	const char *suffix;
	char *dec = strstr(img, "//") ? NULL : imp_url_path(img, &suffix);
	if (!dec)
		return img;
	static const char *const dirs[] = {"", "assets/images/", "assets/img/", "assets/", "images/", "img/"};
	char rel[4096];
	int root;
	const char *res = NULL;
	if (imp_url_rel(dec, j->baseurl, NULL, rel, sizeof rel, &root) && imp_copy(s, rel, rel, x->rel, line))
		res = imp_static_url(a, rel, suffix);
	for (size_t i = 1; !res && !strchr(dec, '/') && i < sizeof dirs / sizeof *dirs; i++) {
		snprintf(rel, sizeof rel, "%s%s", dirs[i], dec);
		if (imp_copy(s, rel, rel, x->rel, line))
			res = imp_static_url(a, rel, suffix);
	}
	if (!res && dec[0] != '/') {
		const char *sl = strrchr(x->rel, '/');
		snprintf(rel, sizeof rel, "%.*s/%s", sl ? (int)(sl - x->rel) : 0, x->rel, dec);
		if (imp_normalize(rel) == 0 && imp_copy(s, rel, rel, x->rel, line))
			res = imp_static_url(a, rel, suffix);
	}
	free(dec);
	if (!res)
		imp_note(a, &s->rep, "image not found", x->rel, line,
			 "'image: %s' names no file of SRC: left out (no social card rather than one that leads "
			 "nowhere)",
			 img);
	return res;
}

/* post_category: folio has one category; a post's others become tags. */
static void post_category(struct imp_site *s, struct imp_doc *d, const struct imp_list *cats, const char *rel)
{
	struct arena *a = s->a;
	if (!cats->n)
		return;
	d->category = cats->v[0];
	struct str first = term_key(a, str_from(cats->v[0]));
	for (size_t i = 1; i < cats->n; i++) {
		if (str_eq(term_key(a, str_from(cats->v[i])), first))
			continue;
		imp_add_term(a, &d->tags, cats->v[i]);
		if (!imp_list_has(&s->cats_made_tags, cats->v[i]))
			imp_list_add(a, &s->cats_made_tags, cats->v[i]);
		imp_note(a, &s->rep, "category made a tag", rel, 0,
			 "folio has one category per post: '%s' kept, '%s' made a tag", cats->v[0], cats->v[i]);
	}
}

/* post: one post or draft. cat: the category of its folder (a/_posts/). */
static void read_post(struct jk *j, const char *rel, int draft, const char *cat)
{
	struct imp_site *s = j->r.s;
	struct arena *a = s->a;
	const struct ynode *m;
	struct imp_src *x = read_doc(j, rel, 1, &m);
	if (!x)
		return;
	struct imp_doc *d = imp_doc_new(s, IMP_POST, rel);
	x->doc = d;
	d->draft = draft;
	const char *fslug = dated(x->name) ? x->name + 11 : x->name;
	const char *fdate = dated(x->name) ? imp_date(a, imp_fmt(a, "%.10s", x->name)) : NULL;
	if (dated(x->name) && !fdate)
		imp_note(a, &s->rep, "date not understood", rel, 0,
			 "the file name's date '%.10s' is no day of the calendar: the front matter's date, else the "
			 "file's time, is used",
			 x->name);
	struct post_fm f = {{0}, NULL, NULL, 0};
	if (cat)
		imp_list_add(a, &f.cats, cat);
	for (size_t i = 0; i < m->len; i++) {
		const char *k = m->keys[i]->str.p;
		if (!common_key(a, d, k, m->items[i]) && !post_key(s, d, &f, rel, k, m->items[i]))
			imp_fm_unused(&j->r, k, rel, m->keys[i]->line);
	}
	if (d->image)
		d->image = post_image(j, x, d->image, f.image_line);
	if (!d->date) {
		d->date = fdate;
		if (!d->date) {
			d->date = mtime_date(j, rel);
			imp_note(a, &s->rep, "date from the file", rel, 0,
				 "no date in the name or the front matter: dated %s, the file's time", d->date);
		}
	}
	/* Jekyll themes show the description as the excerpt */
	if (!d->summary && d->description)
		d->summary = d->description;
	const char *slug = f.slug ? f.slug : fslug;
	if (!d->title)
		d->title = imp_title_from_file(s, rel, slug);
	d->slug = imp_clean_slug(a, slug);
	post_category(s, d, &f.cats, rel);
	imp_cap_tags(s, d, rel);
	/* the old URL */
	struct ph ph;
	memset(&ph, 0, sizeof ph);
	sscanf(d->date, "%d-%d-%d", &ph.y, &ph.m, &ph.d);
	if (strlen(d->date) >= 16)
		sscanf(d->date + 11, "%d:%d:%d", &ph.h, &ph.mi, &ph.s);
	ph.title = pretty_slug(a, slug, 0);
	ph.slug = pretty_slug(a, slug, 1);
	ph.categories = cats_path(a, &f.cats);
	if (!draft) {
		x->old_url = expand(a, f.permalink ? f.permalink : j->permalink, &ph);
		if (!imp_list_has(&d->aliases, x->old_url))
			imp_list_add(a, &d->aliases, x->old_url);
	}
	s->rep.posts++;
	if (d->draft)
		s->rep.drafts++;
}

/* page_slug: the last segment of a page's permalink, when it has one
 * (without an extension, and not a placeholder), else base. */
static const char *page_slug(struct arena *a, const char *permalink, const char *base)
{
	size_t pl = strlen(permalink);
	while (pl && permalink[pl - 1] == '/')
		pl--;
	const char *ps = memrchr(permalink, '/', pl);
	ps = ps ? ps + 1 : permalink;
	size_t n = pl - (size_t)(ps - permalink);
	const char *dot = memchr(ps, '.', n);
	if (dot)
		n = (size_t)(dot - ps);
	return n && !memchr(ps, ':', n) ? astr(a, ps, n) : base;
}

/* read_page: a page (or a collection's document, coll its name). */
/* liquid_listing: a page whose Liquid lists the site's posts, tags or
 * categories (an archive, a blog index, a tag cloud written in the page
 * itself): folio makes that listing, so its old address goes there (a
 * redirect), and the report says so. Whether x was one. */
static int liquid_listing(struct imp_site *s, struct imp_src *x)
{
	static const struct {
		const char *what, *to;
	} lists[] = {{"site.posts", "/archive/"},    {"paginator.posts", "/archive/"}, {"site.tags", "/tags/"},
		     {"site.categories", "/tags/"}, {"site.category", "/tags/"}};
	const char *b = x->body;
	size_t n = x->body_len;
	for (const char *p = b; p && (p = memmem(p, n - (size_t)(p - b), "{%", 2)); p += 2) {
		const char *e = memmem(p, n - (size_t)(p - b), "%}", 2);
		if (!e)
			break;
		for (size_t k = 0; k < sizeof lists / sizeof *lists; k++)
			if (memmem(p, (size_t)(e - p), lists[k].what, strlen(lists[k].what)) &&
			    memmem(p, (size_t)(e - p), "for ", 4)) {
				imp_note(s->a, &s->rep, "page made a redirect", x->rel, 0,
					 "its Liquid lists %s, a listing folio makes itself: its address goes to %s",
					 lists[k].what, lists[k].to);
				imp_redirect(s, x->old_url, lists[k].to, x->rel);
				return 1;
			}
	}
	return 0;
}

static void read_page(struct jk *j, const char *rel, const char *coll, const char *coll_permalink)
{
	struct imp_site *s = j->r.s;
	struct arena *a = s->a;
	const struct ynode *m;
	struct imp_src *x = read_doc(j, rel, 0, &m);
	if (!x)
		return;
	struct imp_doc *d = imp_doc_new(s, IMP_PAGE, rel);
	x->doc = d;
	const char *permalink = imp_scalar(yaml_map_get(m, "permalink"));
	/* the slug: the file's name, or its folder's for an index */
	const char *base = x->name;
	const char *dir = coll ? rel + strlen(coll) + 2 : rel; /* below _coll/ */
	const char *sl = strrchr(dir, '/');
	struct str path = {dir, sl ? (size_t)(sl - dir) : 0};
	if (!strcmp(base, "index") && path.len) {
		const char *pb = memrchr(path.p, '/', path.len);
		base = astr(a, pb ? pb + 1 : path.p, pb ? (size_t)(path.p + path.len - pb - 1) : path.len);
	}
	for (size_t i = 0; i < m->len; i++) {
		const char *k = m->keys[i]->str.p;
		const struct ynode *v = m->items[i];
		if (common_key(a, d, k, v))
			continue;
		if (!strcmp(k, "description") || !strcmp(k, "excerpt"))
			d->description = imp_scalar(v);
		else if (strcmp(k, "permalink"))
			imp_fm_unused(&j->r, k, rel, m->keys[i]->line);
	}
	if (permalink)
		base = page_slug(a, permalink, base);
	d->slug = imp_clean_slug(a, base);
	if (!d->title)
		d->title = imp_title_from_file(s, rel, d->slug);
	struct ph ph;
	memset(&ph, 0, sizeof ph);
	ph.y = 1970, ph.m = 1, ph.d = 1;
	/* :path: the folder of a page; of a collection's document, its path
	 * in the collection without the extension */
	ph.path = coll ? stem_path(a, dir) : astr(a, path.p, path.len);
	ph.basename = x->name;
	ph.title = ph.slug = x->name;
	ph.categories = "";
	ph.collection = coll;
	const char *pat = permalink;
	if (!pat && coll)
		pat = coll_permalink ? coll_permalink : "/:collection/:path:output_ext";
	if (!pat) {
		int pretty = j->permalink[strlen(j->permalink) - 1] == '/';
		pat = !strcmp(x->name, "index") ? "/:path/" : pretty ? "/:path/:basename/" : "/:path/:basename:output_ext";
	}
	x->old_url = expand(a, pat, &ph);
	if (imp_head_page(s, rel, m, j->cfg, x->old_url) || imp_layout_page(s, rel, m, x->old_url) ||
	    liquid_listing(s, x)) {
		d->skip = 1;
		return;
	}
	imp_list_add(a, &d->aliases, x->old_url);
	s->rep.pages++;
}

/* ---- the body: links to posts, pages and files ---- */

static struct imp_src *by_name(struct jk *j, const char *name)
{
	const char *b = strrchr(name, '/');
	b = b ? b + 1 : name;
	size_t bl = strlen(b);
	const char *dot = strrchr(b, '.');
	if (dot && has_ext(b, post_exts))
		bl = (size_t)(dot - b);
	for (size_t i = 0; i < j->r.n; i++)
		if (j->r.v[i].doc->kind == IMP_POST && strlen(j->r.v[i].name) == bl && !memcmp(j->r.v[i].name, b, bl))
			return &j->r.v[i];
	return NULL;
}

/* unresolved: a link to nothing of the site: kept (it was broken in the
 * old site too), listed in the post's ignore_links and reported. */
static const char *unresolved(struct jk *j, const char *kind, int line, const char *what, const char *url)
{
	struct arena *a = j->r.s->a;
	imp_note(a, &j->r.s->rep, kind, j->r.cur->rel, line, "'%s' names nothing of the site: linked as %s, in ignore_links",
		 what, url);
	if (!imp_list_has(&j->r.cur->doc->ignore_links, url))
		imp_list_add(a, &j->r.cur->doc->ignore_links, url);
	return url;
}

static const char *cb_post_url(void *ctx, const char *name, int line)
{
	struct jk *j = ctx;
	struct imp_src *x = by_name(j, name);
	if (x)
		return imp_doc_url(j->r.s->a, x->doc);
	const char *b = strrchr(name, '/');
	b = b ? b + 1 : name;
	return unresolved(j, "Liquid post_url to no post", line, name,
			  imp_fmt(j->r.s->a, "/posts/%s/", imp_clean_slug(j->r.s->a, dated(b) ? b + 11 : b)));
}

static const char *cb_link(void *ctx, const char *path, int line)
{
	struct jk *j = ctx;
	const char *p = path[0] == '/' ? path + 1 : path;
	for (size_t i = 0; i < j->r.n; i++)
		if (!strcmp(j->r.v[i].rel, p))
			return imp_doc_url(j->r.s->a, j->r.v[i].doc);
	if (imp_copy(j->r.s, p, p, j->r.cur->rel, line))
		return imp_fmt(j->r.s->a, "/%s", p);
	return unresolved(j, "Liquid link to no file", line, path, imp_fmt(j->r.s->a, "/%s", p));
}

static const char *cb_url(void *ctx, const char *url, int image, int line, int *missing)
{
	struct jk *j = ctx;
	struct imp_site *s = j->r.s;
	struct arena *a = s->a;
	const struct imp_src *cur = j->r.cur;
	const char *suffix;
	char *dec = imp_url_path(url, &suffix);
	if (!dec)
		return NULL;
	char rel[4096];
	const char *res = NULL;
	int root;
	int ok = imp_url_rel(dec, j->baseurl, cur->old_url, rel, sizeof rel, &root);
	/* a link to a post's old URL goes to its new one */
	const struct imp_src *to = ok ? imp_src_by_old_url(&j->r, rel) : NULL;
	if (to)
		res = imp_fmt(a, "%s%s", imp_doc_url(a, to->doc), suffix);
	else if (ok && !has_ext(rel, md_exts)) {
		int found = imp_copy(s, rel, rel, cur->rel, line);
		if (!found && !root) {
			/* relative to the source file instead (images beside the post) */
			char alt[4096];
			const char *sl = strrchr(cur->rel, '/');
			snprintf(alt, sizeof alt, "%.*s/%s", sl ? (int)(sl - cur->rel) : 0, cur->rel, dec);
			if (imp_normalize(alt) == 0 && imp_copy(s, alt, alt, cur->rel, line)) {
				snprintf(rel, sizeof rel, "%s", alt);
				found = 1;
			}
		}
		res = imp_url_file(&j->r, found, rel, suffix, url, image, line, missing);
	}
	return imp_url_end(a, res, root, url, j->baseurl, dec);
}

/* ---- config ---- */

static void read_config(struct jk *j)
{
	struct imp_site *s = j->r.s;
	struct arena *a = s->a;
	static const char *const unused_ok[] = {NULL};
	(void)unused_ok;
	const char *cfgname = "_config.yml";
	size_t len;
	char *text = imp_read_src(s, cfgname, &len);
	if (!text) {
		cfgname = "_config.yaml";
		text = imp_read_src(s, cfgname, &len);
	}
	j->permalink = style_pattern(NULL);
	j->baseurl = "";
	if (!text) {
		imp_note(a, &s->rep, "config", "_config.yml", 0, "no _config.yml: Jekyll's defaults are used");
		return;
	}
	arena_own(a, text);
	const struct ynode *m = yaml_parse(a, s->d, cfgname, text, len, text, len, 0);
	if (!m || m->kind != YNODE_MAP) {
		imp_note(a, &s->rep, "config", cfgname, 0, "cannot be read: Jekyll's defaults are used");
		return;
	}
	j->cfg = m;
	const char *url = NULL;
	for (size_t i = 0; i < m->len; i++) {
		const char *k = m->keys[i]->str.p;
		const struct ynode *v = m->items[i];
		const char *sv = imp_scalar(v);
		if (!strcmp(k, "title"))
			s->title = sv;
		else if (!strcmp(k, "description"))
			s->description = sv;
		else if (!strcmp(k, "url"))
			url = sv;
		else if (!strcmp(k, "baseurl")) {
			if (sv && *sv && strcmp(sv, "/")) {
				size_t n = strlen(sv);
				while (n && sv[n - 1] == '/')
					n--;
				j->baseurl = imp_fmt(a, "%s%.*s", sv[0] == '/' ? "" : "/", (int)n, sv);
			}
		} else if (!strcmp(k, "author")) {
			s->author = sv ? sv : imp_scalar(yaml_map_get(v, "name"));
		} else if (!strcmp(k, "timezone"))
			s->timezone = sv;
		else if (!strcmp(k, "permalink"))
			j->permalink = style_pattern(sv);
		else if (!strcmp(k, "paginate")) {
			int64_t n;
			if (yaml_as_int(v, &n) && n >= 1 && n <= 1000)
				s->posts_per_page = (int)n;
		} else if (!strcmp(k, "feed") && v->kind == YNODE_MAP) {
			/* jekyll-feed: feed: {path, tags, categories} */
			const char *fp = imp_scalar(yaml_map_get(v, "path"));
			if (fp)
				imp_feed_at(s, imp_fmt(a, "%s%s", fp[0] == '/' ? "" : "/", fp), cfgname);
			int on = 0;
			const struct ynode *tg = yaml_map_get(v, "tags");
			if (tg && (tg->kind == YNODE_MAP || (yaml_as_bool(tg, &on) && on))) {
				const char *tp = imp_scalar(yaml_map_get(tg, "path"));
				imp_feed_at(s, imp_fmt(a, "/%s{tag}.xml", tp ? tp + (tp[0] == '/') : "feed/by_tag/"), cfgname);
			}
			if (yaml_map_get(v, "categories"))
				imp_feed_at(s, "/feed/{category}.xml", cfgname);
		} else if (!strcmp(k, "exclude")) {
			imp_words(a, v, &j->exclude, 0);
		} else if (!strcmp(k, "collections") || !strcmp(k, "include") || !strcmp(k, "markdown") ||
			   !strcmp(k, "kramdown"))
			; /* read where they are used */
		else
			imp_note(a, &s->rep, "config key not used", cfgname, m->keys[i]->line, "'%s' has no folio equivalent",
				 k);
	}
	/* jekyll-feed without feed: {path}: its feed is /feed.xml */
	const struct ynode *feed = yaml_map_get(m, "feed");
	const char *const plug[] = {"plugins", "gems"};
	for (size_t p = 0; p < 2 && !(feed && imp_scalar(yaml_map_get(feed, "path"))); p++) {
		const struct ynode *l = yaml_map_get(m, plug[p]);
		for (size_t i = 0; l && l->kind == YNODE_SEQ && i < l->len; i++) {
			const char *g = imp_scalar(l->items[i]);
			if (g && !strcmp(g, "jekyll-feed")) {
				imp_feed_at(s, "/feed.xml", cfgname);
				p = 2;
				break;
			}
		}
	}
	if (url && (!strncmp(url, "http://", 7) || !strncmp(url, "https://", 8))) {
		size_t n = strlen(url);
		while (n && url[n - 1] == '/')
			n--;
		s->base_url = imp_fmt(a, "%.*s%s/", (int)n, url, j->baseurl);
	} else if (j->baseurl[0])
		s->base_url = imp_fmt(a, "%s/", j->baseurl);
}

/* ---- the whole site ---- */

static int is_post_dir(const char *rel, const char **cat)
{
	/* _posts/..., or CAT/_posts/... (the category of the folder) */
	*cat = NULL;
	if (!strncmp(rel, "_posts/", 7))
		return 1;
	const char *p = strstr(rel, "/_posts/");
	if (p && !memchr(rel, '/', (size_t)(p - rel)) && rel[0] != '_')
		return 2;
	return 0;
}

/* read_collections: the documents of the collections the configuration
 * names with output: true, as pages; the others reported */
static void read_collections(struct jk *j)
{
	struct imp_site *s = j->r.s;
	struct arena *a = s->a;
	const struct ynode *colls = j->cfg ? yaml_map_get(j->cfg, "collections") : NULL;
	for (size_t i = 0; colls && i < colls->len; i++) {
		const char *name = colls->kind == YNODE_MAP ? colls->keys[i]->str.p : imp_scalar(colls->items[i]);
		const struct ynode *cv = colls->kind == YNODE_MAP ? colls->items[i] : NULL;
		if (!name || !strcmp(name, "posts") || !strcmp(name, "drafts") || !strcmp(name, "pages"))
			continue;
		int out = 0;
		if (cv)
			yaml_as_bool(yaml_map_get(cv, "output"), &out);
		const char *perm = cv ? imp_scalar(yaml_map_get(cv, "permalink")) : NULL;
		struct imp_list docs = {0};
		const char *dir = imp_fmt(a, "_%s", name);
		walk(j, dir, &docs);
		if (!out) {
			if (docs.n)
				imp_note(a, &s->rep, "collection not imported", dir, 0,
					 "the collection '%s' has no output: true (its %zu files are data for layouts)", name,
					 docs.n);
			continue;
		}
		for (size_t k = 0; k < docs.n; k++)
			if (has_ext(docs.v[k], md_exts))
				read_page(j, docs.v[k], name, perm);
	}
}

int jekyll_import(struct imp_site *s)
{
	struct jk j;
	memset(&j, 0, sizeof j);
	j.r.s = s;
	struct arena *a = s->a;
	s->generator = "Jekyll";
	char p[4200];
	struct stat st;
	int has_cfg = 0, has_posts = 0;
	snprintf(p, sizeof p, "%s/_config.yml", s->src);
	has_cfg = stat(p, &st) == 0;
	snprintf(p, sizeof p, "%s/_config.yaml", s->src);
	has_cfg |= stat(p, &st) == 0;
	snprintf(p, sizeof p, "%s/_posts", s->src);
	has_posts = stat(p, &st) == 0 && S_ISDIR(st.st_mode);
	if (!has_cfg && !has_posts) {
		diag_error(s->d, &(struct diag_loc){s->src, NULL, 0, 0, 0},
			   "not a Jekyll site: no _config.yml and no _posts/ (hint: give the folder that holds them)");
		return -1;
	}
	read_config(&j);
	imp_find_mathjax(s, (const char *const[]){"_includes", "_layouts", NULL},
			 (const char *const[]){"_posts", "_drafts", "_pages", NULL});
	/* every file, once */
	struct imp_list all = {0};
	walk(&j, "", &all);
	struct imp_list posts = {0}, drafts = {0}, pages = {0}, carry = {0};
	walk(&j, "_posts", &posts);
	walk(&j, "_drafts", &drafts);
	walk(&j, "_pages", &pages);
	for (size_t i = 0; i < posts.n; i++)
		if (has_ext(posts.v[i], post_exts))
			read_post(&j, posts.v[i], 0, NULL);
	for (size_t i = 0; i < all.n; i++) {
		const char *cat;
		const char *r = all.v[i];
		if (is_post_dir(r, &cat) == 2 && has_ext(r, post_exts)) {
			const char *sl = strchr(r, '/');
			read_post(&j, r, 0, astr(a, r, (size_t)(sl - r)));
		}
	}
	for (size_t i = 0; i < drafts.n; i++)
		if (has_ext(drafts.v[i], post_exts))
			read_post(&j, drafts.v[i], 1, NULL);
	/* pages: Markdown files with front matter outside the _ folders */
	for (size_t i = 0; i < pages.n; i++)
		if (has_ext(pages.v[i], md_exts))
			read_page(&j, pages.v[i], NULL, NULL);
	for (size_t i = 0; i < all.n; i++) {
		const char *r = all.v[i], *cat;
		if (is_post_dir(r, &cat))
			continue;
		const char *b = strrchr(r, '/');
		b = b ? b + 1 : r;
		int top = !strchr(r, '/');
		if (has_ext(r, md_exts)) {
			if (top && (!strncmp(b, "index.", 6) || !strncmp(b, "404.", 4))) {
				imp_note(a, &s->rep, "page skipped", r, 0, "the home and 404 pages are folio's own");
				continue;
			}
			if (top && (!strncasecmp(b, "README", 6) || !strncasecmp(b, "LICENSE", 7) ||
				    !strncasecmp(b, "CHANGELOG", 9)))
				continue;
			read_page(&j, r, NULL, NULL);
		} else {
			/* a file Jekyll renders (front matter), or one it copies */
			size_t len;
			char *t = imp_read_src(s, r, &len);
			int fm = t && len >= 4 && !memcmp(t, "---", 3) && (t[3] == '\n' || t[3] == '\r');
			free(t);
			if (fm && has_ext(r, (const char *const[]){"html", NULL}) && top &&
			    (!strcmp(b, "index.html") || !strcmp(b, "404.html")))
				imp_note(a, &s->rep, "page skipped", r, 0, "the home and 404 pages are folio's own");
			else if (fm && has_ext(r, (const char *const[]){"html", NULL}))
				read_page(&j, r, NULL, NULL); /* its HTML kept (a listing made a redirect) */
			else if (fm && has_ext(r, (const char *const[]){"xml", "rss", "atom", NULL}) &&
				 !strstr(r, "sitemap"))
				imp_feed_at(s, imp_fmt(a, "/%s", r), r);
			else if (fm)
				imp_note(a, &s->rep, "file not carried over", r, 0,
					 "Jekyll renders it with Liquid (it has front matter): folio makes its own feeds, "
					 "sitemap and styles");
			else if (t)
				imp_list_add(a, &carry, r);
		}
	}
	read_collections(&j);
	struct jk_body c = {a, &s->rep, NULL, 0, &j, cb_post_url, cb_link, cb_url, 0, NULL, 0, 0, cb_directive};
	imp_reader_finish(&j.r, jekyll_body, c);
	include_templates(&j);
	/* the files Jekyll copies as they are and no post named: carried
	 * over too (a favicon, CNAME, a download) */
	for (size_t i = 0; i < carry.n; i++)
		imp_carry(s, carry.v[i], carry.v[i]);
	return 0;
}
