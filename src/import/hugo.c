/* hugo.c: folio import hugo: the config (hugo.yaml, config.yaml,
 * config/_default/), content/ with its sections and page bundles, and the
 * files of static/ and assets/ that pages refer to, into the import model
 * (import.h); old URLs (from the sections, slug, url and permalinks)
 * become aliases. Front matter in YAML is read; TOML (+++) and JSON
 * front matter and configs wait for folio's TOML and JSON readers and
 * are reported. */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "read/content.h"
#include "import/import.h"
#include "import/reader.h"
#include "formats/json.h"
#include "files/sitefile.h"
#include "base/slug.h"
#include "formats/toml.h"
#include "formats/yaml.h"

struct hg {
	struct imp_reader r;            /* the pages read, the keys not imported */
	const struct ynode *permalinks; /* section -> pattern */
	const char *base_path;          /* baseURL's path without the last '/': "/blog" or "" */
	const char *content_dir;        /* SRC-relative: "content", or the default language's contentDir */
	const struct ynode *languages;  /* the config's languages map, or NULL */
	const char *lang_file;          /* the file it is in */
	const char *default_lang;       /* defaultContentLanguage, or NULL */
	/* the shortcodes written as directive calls: each directive, the
	 * shortcode's name, the argument names its calls gave, its calls,
	 * where the first is */
	struct imp_dirs dirs; /* the shortcodes written as directives */
};

static int is_md(const char *name)
{
	const char *dot = strrchr(name, '.');
	return dot && (!strcasecmp(dot, ".md") || !strcasecmp(dot, ".markdown") || !strcasecmp(dot, ".mdown"));
}

/* walk: the regular files under SRC/dir (imp_walk). */
static void walk(struct hg *h, const char *dir, struct imp_list *out)
{
	imp_walk(h->r.s, dir, 0, NULL, NULL, out);
}

/* urlize: Hugo's urlize of a title for :title and a missing slug: lower
 * case, blanks to '-', punctuation but '-', '_' and '.' dropped. */
static const char *urlize(struct arena *a, const char *t)
{
	struct buf b;
	buf_init(&b);
	for (const unsigned char *p = (const unsigned char *)t; *p; p++) {
		if (*p == ' ' || *p == '\t')
			buf_putc(&b, '-');
		else if (isalnum(*p) || *p >= 0x80 || *p == '-' || *p == '_' || *p == '.')
			buf_putc(&b, tolower(*p));
	}
	return buf_to_arena(&b, a).p;
}

static void lower_path(char *p)
{
	for (; *p; p++)
		*p = (char)tolower((unsigned char)*p);
}

/* ---- config ---- */

/* dir_rel: a contentDir as an SRC-relative folder ("./content/en/" ->
 * "content/en"), or NULL when it is absolute or climbs out of SRC. */
static const char *dir_rel(struct arena *a, const char *d)
{
	char b[4096];
	if (!d || d[0] == '/' || strlen(d) >= sizeof b)
		return NULL;
	snprintf(b, sizeof b, "%s", d);
	if (imp_normalize(b) != 0 || !b[0])
		return NULL;
	size_t n = strlen(b);
	while (n && b[n - 1] == '/')
		b[--n] = '\0';
	return arena_strndup(a, b, n);
}

/* module_content: a module mount whose target is content ([[module.mounts]]
 * source = "content/en", as gohugoio/hugoDocs has): its source is where
 * the pages are. 1 when there is one. */
static int module_content(struct hg *h, const struct ynode *module)
{
	const struct ynode *mounts = yaml_map_get(module, "mounts");
	for (size_t i = 0; mounts && mounts->kind == YNODE_SEQ && i < mounts->len; i++) {
		const char *t = imp_scalar(yaml_map_get(mounts->items[i], "target"));
		const char *src = dir_rel(h->r.s->a, imp_scalar(yaml_map_get(mounts->items[i], "source")));
		if (t && src && !strcmp(t, "content")) {
			h->content_dir = src;
			return 1;
		}
	}
	return 0;
}

/* config_key: one key k (value v, at line of file) of Hugo's site
 * configuration into s; a key folio has no use for is reported. */
static void config_key(struct hg *h, const char *file, int line, const char *k, const struct ynode *v)
{
	struct imp_site *s = h->r.s;
	struct arena *a = s->a;
	const char *sv = imp_scalar(v);
	if (!strcasecmp(k, "title"))
		s->title = sv;
	else if (!strcasecmp(k, "baseURL")) {
		if (sv && (!strncmp(sv, "http://", 7) || !strncmp(sv, "https://", 8))) {
			size_t l = strlen(sv);
			s->base_url = imp_fmt(a, "%s%s", sv, l && sv[l - 1] == '/' ? "" : "/");
			const char *pp = strchr(strstr(s->base_url, "://") + 3, '/');
			size_t pl = strlen(pp);
			h->base_path = arena_strndup(a, pp, pl - 1);
		}
	} else if (!strcasecmp(k, "timeZone"))
		s->timezone = sv;
	else if (!strcasecmp(k, "paginate")) {
		int64_t x;
		if (yaml_as_int(v, &x) && x >= 1 && x <= 1000)
			s->posts_per_page = (int)x;
	} else if (!strcasecmp(k, "pagination")) {
		int64_t x;
		if (yaml_as_int(yaml_map_get(v, "pagerSize"), &x) && x >= 1 && x <= 1000)
			s->posts_per_page = (int)x;
	} else if (!strcasecmp(k, "params")) {
		const char *d = imp_scalar(yaml_map_get(v, "description"));
		if (d)
			s->description = d;
		const struct ynode *au = yaml_map_get(v, "author");
		if (au)
			s->author = imp_scalar(au) ? imp_scalar(au) : imp_scalar(yaml_map_get(au, "name"));
	} else if (!strcasecmp(k, "author")) {
		s->author = sv ? sv : imp_scalar(yaml_map_get(v, "name"));
	} else if (!strcasecmp(k, "permalinks")) {
		/* Hugo 0.120's form: permalinks.page.SECTION */
		const struct ynode *pg = yaml_map_get(v, "page");
		h->permalinks = pg && pg->kind == YNODE_MAP ? pg : v;
	} else if (!strcasecmp(k, "markup")) {
		/* Goldmark's passthrough with \[ \] and \( \) delimiters */
		const struct ynode *pt =
			yaml_map_get(yaml_map_get(yaml_map_get(v, "goldmark"), "extensions"), "passthrough");
		int on = 0;
		yaml_as_bool(yaml_map_get(pt, "enable"), &on);
		if (on)
			s->math_brackets = 1;
	} else if (!strcasecmp(k, "languages") && v->kind == YNODE_MAP) {
		h->languages = v;
		h->lang_file = file;
	} else if (!strcasecmp(k, "defaultContentLanguage") && sv)
		h->default_lang = sv;
	else if (!strcasecmp(k, "module") && module_content(h, v)) {
		/* the content came from a mount: read there */
	} else if (!strcasecmp(k, "contentDir") && sv) {
		h->content_dir = dir_rel(a, sv);
		if (!h->content_dir)
			imp_note(a, &s->rep, "config", file, line, "contentDir '%s' is not a folder of SRC: content/ is read",
				 sv);
	}
	else if (!strcasecmp(k, "languageCode") || !strcasecmp(k, "taxonomies") || !strcasecmp(k, "theme"))
		imp_note(a, &s->rep, "config key not used", file, line,
			 "'%s': folio's theme and taxonomies (tags, categories, series) are its own", k);
	else
		imp_note(a, &s->rep, "config key not used", file, line, "'%s' has no folio equivalent", k);
}

/* config_map: the configuration file rel (TOML, YAML or JSON by its
 * extension) as a map, or NULL (reported: Hugo's defaults are used). */
static const struct ynode *config_map(struct hg *h, const char *rel)
{
	struct imp_site *s = h->r.s;
	struct arena *a = s->a;
	size_t len;
	char *text = imp_read_src(s, rel, &len);
	if (!text)
		return NULL;
	arena_own(a, text);
	const char *ext = strrchr(rel, '.');
	const struct ynode *m = !strcmp(ext, ".toml")	? toml_parse(a, s->d, rel, text, len, text, len, 0)
				: !strcmp(ext, ".json") ? json_parse(a, s->d, rel, text, len, text, len, 0)
							: yaml_parse(a, s->d, rel, text, len, text, len, 0);
	if (!m || m->kind != YNODE_MAP) {
		imp_note(a, &s->rep, "config", rel, 0, "cannot be read: Hugo's defaults are used");
		return NULL;
	}
	return m;
}

static int config_ext(const char *e)
{
	return e && (!strcmp(e, ".toml") || !strcmp(e, ".yaml") || !strcmp(e, ".yml") || !strcmp(e, ".json"));
}

/* pick_language: of a site in several languages, the default one's
 * (defaultContentLanguage, else "en", else the lightest weight) title,
 * params and contentDir are the site's; the others' content folders are
 * reported (a folio site has one language). */
static void pick_language(struct hg *h)
{
	struct imp_site *s = h->r.s;
	struct arena *a = s->a;
	const struct ynode *L = h->languages;
	const char *cfg_file = h->lang_file;
	size_t pick = L->len;
	int64_t best = 0;
	for (size_t i = 0; i < L->len; i++) {
		const char *name = L->keys[i]->str.p;
		if (h->default_lang ? !strcasecmp(name, h->default_lang) : !strcasecmp(name, "en")) {
			pick = i;
			break;
		}
		int64_t w = 0;
		yaml_as_int(yaml_map_get(L->items[i], "weight"), &w);
		if (!h->default_lang && (pick == L->len || w < best)) {
			pick = i;
			best = w;
		}
	}
	if (pick == L->len)
		pick = 0;
	for (size_t i = 0; i < L->len; i++) {
		const struct ynode *l = L->items[i];
		const char *name = L->keys[i]->str.p;
		const char *cd = imp_scalar(yaml_map_get(l, "contentDir"));
		if (i != pick) {
			if (cd)
				imp_note(a, &s->rep, "translation not imported", cfg_file, L->keys[i]->line,
					 "language '%s' (its content in %s/): a folio site has one language, '%s' is "
					 "imported",
					 name, cd, L->keys[pick]->str.p);
			continue;
		}
		for (size_t k = 0; l->kind == YNODE_MAP && k < l->len; k++) {
			const char *lk = l->keys[k]->str.p;
			if (!strcasecmp(lk, "title") || !strcasecmp(lk, "params"))
				config_key(h, cfg_file, l->keys[k]->line, lk, l->items[k]);
		}
		if (cd) {
			const char *r = dir_rel(a, cd);
			if (r)
				h->content_dir = r;
			else
				imp_note(a, &s->rep, "config", cfg_file, L->keys[i]->line,
					 "contentDir '%s' is not a folder of SRC: content/ is read", cd);
		}
	}
}

/* read_config: Hugo's site configuration: the first of the root's files
 * in Hugo's order, then config/_default/, whose hugo.* or config.* holds
 * keys as the root's does and whose every other file NAME[.LANG].EXT is
 * the value of the key NAME (params.toml, markup.yaml, menus.en.toml);
 * a later value wins, as in Hugo. Other environments than _default and
 * subfolders are reported, not read. */
static void read_config(struct hg *h)
{
	struct imp_site *s = h->r.s;
	struct arena *a = s->a;
	static const char *const names[] = {"hugo.toml",   "hugo.yaml",   "hugo.yml",	"hugo.json", "config.toml",
					    "config.yaml", "config.yml", "config.json", NULL};
	h->base_path = "";
	for (const char *const *n = names; *n; n++) {
		struct stat st;
		char p[4200];
		snprintf(p, sizeof p, "%s/%s", s->src, *n);
		if (lstat(p, &st) != 0)
			continue;
		const struct ynode *m = config_map(h, *n);
		for (size_t i = 0; m && i < m->len; i++)
			config_key(h, *n, m->keys[i]->line, m->keys[i]->str.p, m->items[i]);
		break;
	}
	struct imp_list files = {0}, whole = {0}, parts = {0};
	walk(h, "config", &files);
	for (size_t i = 0; i < files.n; i++) {
		const char *r = files.v[i];
		const char *nm = r + strlen("config/_default/");
		if (strncmp(r, "config/_default/", 16) || strchr(nm, '/') || !config_ext(strrchr(nm, '.'))) {
			imp_note(a, &s->rep, "config file not read", r, 0,
				 "folio reads config/_default/'s files only (no environments, no subfolders)");
			continue;
		}
		int root = !strncmp(nm, "hugo.", 5) || !strncmp(nm, "config.", 7);
		imp_list_add(a, root ? &whole : &parts, r);
	}
	for (size_t i = 0; i < whole.n; i++) {
		const struct ynode *m = config_map(h, whole.v[i]);
		for (size_t k = 0; m && k < m->len; k++)
			config_key(h, whole.v[i], m->keys[k]->line, m->keys[k]->str.p, m->items[k]);
	}
	for (size_t i = 0; i < parts.n; i++) {
		const struct ynode *m = config_map(h, parts.v[i]);
		const char *nm = parts.v[i] + 16;
		if (m)
			config_key(h, parts.v[i], 0, arena_strndup(a, nm, strcspn(nm, ".")), m);
	}
	if (h->languages)
		pick_language(h);
	if (!h->content_dir)
		h->content_dir = "content";
}

/* ---- pages ---- */

/* split_fm: front matter from text[start] to the line that is mark alone
 * (+++ for TOML, } for JSON): fm, its length, and the body after that
 * line in so. 1, or -1 when no such line comes. */
static int split_fm(const char *text, size_t len, size_t start, const char *mark, const char **fm, size_t *fm_len,
		    struct source *so)
{
	size_t ml = strlen(mark);
	int line = 1;
	for (size_t p = start; p <= len;) {
		const char *e = memchr(text + p, '\n', len - p);
		size_t le = e ? (size_t)(e - text) : len;
		line++;
		if (le - p == ml && !memcmp(text + p, mark, ml)) {
			*fm = text + start;
			*fm_len = p - start;
			size_t b = e ? le + 1 : len;
			so->body = text + b;
			so->body_len = len - b;
			so->body_line = line - (start == 0 || text[start] == '{' ? 1 : 0);
			return 1;
		}
		if (!e)
			break;
		p = le + 1;
	}
	return -1;
}

/* A page's values for the placeholders of a permalink pattern. */
struct hg_ph {
	struct arena *a;
	int y, m, d;
	const char *title, *slug, *filename, *section;
};

/* put_ph: the value of Hugo's placeholder key (ctx a struct hg_ph), or 0
 * for a word that is none. */
static int put_ph(void *ctx, const char *key, struct buf *b)
{
	static const char *const months[] = {"january", "february", "march", "april", "may", "june",
					     "july", "august", "september", "october", "november", "december"};
	const struct hg_ph *v = ctx;
	if (!strcmp(key, "year"))
		buf_printf(b, "%04d", v->y);
	else if (!strcmp(key, "month"))
		buf_printf(b, "%02d", v->m);
	else if (!strcmp(key, "monthname"))
		buf_puts(b, months[v->m >= 1 && v->m <= 12 ? v->m - 1 : 0]);
	else if (!strcmp(key, "day"))
		buf_printf(b, "%02d", v->d);
	else if (!strcmp(key, "title"))
		buf_puts(b, urlize(v->a, v->title));
	else if (!strcmp(key, "slug") || !strcmp(key, "slugorfilename") || !strcmp(key, "slugorcontentbasename"))
		buf_puts(b, v->slug);
	else if (!strcmp(key, "filename") || !strcmp(key, "contentbasename"))
		buf_puts(b, v->filename);
	else if (!strcmp(key, "section") || !strcmp(key, "sections"))
		buf_puts(b, v->section);
	else
		return 0;
	return 1;
}

/* expand: a Hugo permalink pattern for a page, in the arena. */
static const char *expand(const char *pat, struct hg_ph *v)
{
	struct buf b;
	buf_init(&b);
	imp_expand(&b, pat, put_ph, v);
	return buf_to_arena(&b, v->a).p;
}

/* hugo_alias: an alias or url of a Hugo page as folio's alias: a path
 * whose last part has no extension is a folder, as Hugo writes it
 * ("/functions/time" is /functions/time/index.html), so that it cannot
 * clash with the pages below it; NULL as imp_alias_from. */
static const char *hugo_alias(struct arena *a, const char *v)
{
	const char *r = imp_alias_from(a, v);
	if (!r)
		return NULL;
	const char *last = strrchr(r, '/') + 1;
	if (!*last || strchr(last, '.') || strchr(last, '?') || strchr(last, '#'))
		return r;
	return imp_fmt(a, "%s/", r);
}

/* read_fm: x's file rel read, its front matter (TOML between lines +++,
 * a JSON object, or YAML between lines ---) parsed into *m (NULL when
 * it has none) and its body set. 0, or -1 when the file cannot be read
 * (unreported) or its front matter (reported). */
static int read_fm(struct hg *h, struct imp_src *x, const char *rel, const struct ynode **m)
{
	struct imp_site *s = h->r.s;
	struct arena *a = s->a;
	*m = NULL;
	if (imp_src_read(&h->r, x, rel))
		return -1;
	size_t off = x->len >= 3 && (unsigned char)x->text[0] == 0xEF ? 3 : 0;
	const char *fm = NULL;
	size_t fm_len = 0;
	struct source so;
	memset(&so, 0, sizeof so);
	int r;
	if (x->len >= off + 4 && !memcmp(x->text + off, "+++\n", 4)) {
		/* TOML between two lines +++ */
		r = split_fm(x->text, x->len, off + 4, "+++", &fm, &fm_len, &so);
		if (r > 0)
			*m = toml_parse(a, s->d, rel, x->text, x->len, fm, fm_len, 1);
		else
			diag_error(s->d, &(struct diag_loc){rel, x->text, x->len, 1, 1},
				   "front matter is never closed (hint: end it with a line '+++')");
	} else if (x->len > off && x->text[off] == '{') {
		/* JSON: an object whose closing brace is alone on its line */
		r = split_fm(x->text, x->len, off, "}", &fm, &fm_len, &so);
		if (r > 0) {
			fm_len += 1; /* the brace is the object's */
			*m = json_parse(a, s->d, rel, x->text, x->len, fm, fm_len, 0);
		} else
			diag_error(s->d, &(struct diag_loc){rel, x->text, x->len, 1, 1},
				   "JSON front matter is never closed (hint: end it with a line '}')");
	} else {
		r = content_split(s->d, rel, x->text, x->len, &fm, &fm_len, &so);
		if (r > 0)
			*m = yaml_parse(a, s->d, rel, x->text, x->len, fm, fm_len, 1);
	}
	if (r < 0 || (r > 0 && (!*m || (*m)->kind != YNODE_MAP))) {
		imp_not_converted(s, rel, "post not converted");
		return -1;
	}
	x->body = so.body;
	x->body_len = so.body_len;
	x->body_line = so.body_line;
	return 0;
}

/* What a page's front matter gives: its document's fields (doc), and
 * what decides its kind, title, slug and old URL. */
struct hg_fm {
	struct imp_doc doc;
	const char *title, *date, *slug, *url;
	struct imp_list cats, series;
};

/* fm_key: key (value v) of the front matter of rel into f: 1 when folio
 * has a use for it. */
static int fm_key(struct imp_site *s, struct hg_fm *f, const char *rel, const char *key, const struct ynode *v)
{
	struct arena *a = s->a;
	const char *sv = imp_scalar(v);
	int b;
	int64_t w;
	if (!strcmp(key, "title"))
		f->title = sv;
	else if (!strcmp(key, "date") || (!strcmp(key, "publishDate") && !f->date)) {
		f->date = sv ? imp_date(a, sv) : NULL;
		if (sv && !f->date)
			imp_note(a, &s->rep, "date not understood", rel, v->line, "date '%s' is not a date folio reads", sv);
	} else if (!strcmp(key, "lastmod")) {
		f->doc.updated = sv ? imp_date(a, sv) : NULL;
	} else if (!strcmp(key, "draft")) {
		if (yaml_as_bool(v, &b))
			f->doc.draft = b;
	} else if (!strcmp(key, "tags"))
		imp_words(a, v, &f->doc.tags, 0);
	else if (!strcmp(key, "categories"))
		imp_words(a, v, &f->cats, 0);
	else if (!strcmp(key, "series"))
		imp_words(a, v, &f->series, 0);
	else if (!strcmp(key, "weight")) {
		if (yaml_as_int(v, &w) && w > 0 && w <= 100000)
			f->doc.weight = (int)w;
	} else if (!strcmp(key, "summary"))
		f->doc.summary = sv;
	else if (!strcmp(key, "description"))
		f->doc.description = sv;
	else if (!strcmp(key, "aliases"))
		imp_add_aliases(a, v, &f->doc.aliases, hugo_alias);
	else if (!strcmp(key, "slug"))
		f->slug = sv;
	else if (!strcmp(key, "url"))
		f->url = sv;
	else if (!strcmp(key, "expiryDate")) {
		imp_note(a, &s->rep, "expiryDate not imported", rel, v->line,
			 "'expiryDate: %s': folio does not hide posts after a date", sv ? sv : "");
	} else if (!strcmp(key, "toc")) {
		if (yaml_as_bool(v, &b))
			f->doc.toc = b;
	} else if (!strcmp(key, "image") && sv)
		f->doc.image = sv;
	else
		return 0;
	return 1;
}

/* page_terms: a post's categories (the first its category, the others
 * tags; a page has neither, nor tags) and its series. */
static void page_terms(struct imp_site *s, struct imp_doc *d, const struct hg_fm *f, int post, const char *rel)
{
	struct arena *a = s->a;
	const struct imp_list *cats = &f->cats, *series = &f->series;
	if (cats->n) {
		d->category = post ? cats->v[0] : NULL;
		for (size_t i = post ? 1 : 0; i < cats->n; i++) {
			imp_add_term(a, &d->tags, cats->v[i]);
			if (post && !imp_list_has(&s->cats_made_tags, cats->v[i]))
				imp_list_add(a, &s->cats_made_tags, cats->v[i]);
		}
		if (cats->n > 1 && post)
			imp_note(a, &s->rep, "category made a tag", rel, 0,
				 "folio has one category per post: '%s' kept, the other %zu made tags", cats->v[0],
				 cats->n - 1);
	}
	if (!post)
		d->tags.n = 0;
	imp_cap_tags(s, d, rel);
	if (series->n && post) {
		imp_join_series(s, d, rel, series->v[0]);
		if (series->n > 1)
			imp_note(a, &s->rep, "series dropped", rel, 0,
				 "folio puts a post in one series: '%s' kept, %zu others dropped", series->v[0],
				 series->n - 1);
	}
}

/* Where a page is in content/: crel, below it; its section (first
 * folder, "" at the top); whether it is a bundle (an index.* in a
 * section's folder), the folder it is in (SRC-relative) and its file's
 * name (a bundle's: its folder's) without the extension. */
struct hg_place {
	const char *crel, *sl, *section, *dirp, *fname;
	int bundle;
};

/* old_url: the page's URL in the Hugo site: its url, else its section's
 * permalink pattern (posts), else its folder below content/ and its slug
 * or file name, in lower case. */
static const char *old_url(struct hg *h, const struct hg_fm *f, const struct hg_place *pl, int post)
{
	struct arena *a = h->r.s->a;
	if (f->url)
		return hugo_alias(a, f->url);
	const char *pat = h->permalinks ? imp_scalar(yaml_map_get(h->permalinks, pl->section)) : NULL;
	struct hg_ph ph = {a, 0, 0, 0, f->title, f->slug ? f->slug : pl->fname, pl->fname, pl->section};
	if (f->date)
		sscanf(f->date, "%d-%d-%d", &ph.y, &ph.m, &ph.d);
	if (pat && post)
		return expand(pat, &ph);
	/* the folder of the file below content/, and the slug or the file's name */
	const char *crel = pl->crel;
	const char *dir = pl->bundle ? arena_strndup(a, crel, (size_t)(strrchr(crel, '/') - crel)) : crel;
	const char *ds = strrchr(dir, '/');
	struct buf b;
	buf_init(&b);
	buf_putc(&b, '/');
	if (pl->bundle) {
		if (ds)
			buf_append(&b, dir, (size_t)(ds - dir + 1));
	} else if (pl->sl) {
		const char *ls = strrchr(crel, '/');
		buf_append(&b, crel, (size_t)(ls - crel + 1));
	}
	buf_puts(&b, ph.slug);
	buf_putc(&b, '/');
	char *u = (char *)arena_strndup(a, b.p, b.len);
	buf_fini(&b);
	lower_path(u);
	return u;
}

/* bundle_files: a post bundle's files, everything in its folder dirp but
 * the Markdown at its top (all: every file of content/). */
static void bundle_files(struct arena *a, struct imp_doc *d, const char *dirp, const struct imp_list *all)
{
	d->bundle = dirp;
	size_t dl = strlen(dirp);
	for (size_t i = 0; i < all->n; i++) {
		const char *f = all->v[i];
		if (strncmp(f, dirp, dl) || f[dl] != '/')
			continue;
		const char *in = f + dl + 1;
		if (!strchr(in, '/') && is_md(in))
			continue;
		imp_list_add(a, &d->bundle_files, in);
	}
}

/* read_page: the page rel of content/ (all: every file of it): a post
 * when it has a date and a section, else a page. */
static void read_page(struct hg *h, const char *rel, struct imp_list *all)
{
	struct imp_site *s = h->r.s;
	struct arena *a = s->a;
	struct hg_place pl;
	pl.crel = rel + strlen(h->content_dir) + 1; /* below content/ */
	const char *base = strrchr(rel, '/') + 1;
	if (!strncmp(base, "_index.", 7)) {
		imp_note(a, &s->rep, "section page not imported", rel, 0,
			 "a list page's text: folio makes its own lists (tags, series, archive)");
		return;
	}
	struct imp_src *x = imp_src_new(&h->r);
	x->rel = rel;
	x->crel = pl.crel;
	const struct ynode *m;
	if (read_fm(h, x, rel, &m)) {
		imp_src_drop(&h->r);
		return;
	}
	/* the section, the bundle, the file's name */
	pl.sl = strchr(pl.crel, '/');
	pl.section = pl.sl ? arena_strndup(a, pl.crel, (size_t)(pl.sl - pl.crel)) : "";
	pl.bundle = !strncmp(base, "index.", 6) && pl.sl;
	pl.dirp = arena_strndup(a, rel, (size_t)(base - 1 - rel));
	pl.fname = pl.bundle ? strrchr(pl.dirp, '/') + 1 : arena_strndup(a, base, (size_t)(strrchr(base, '.') - base));
	struct hg_fm f;
	memset(&f, 0, sizeof f);
	f.doc.toc = -1;
	for (size_t i = 0; m && i < m->len; i++)
		if (!fm_key(s, &f, rel, m->keys[i]->str.p, m->items[i]))
			imp_fm_unused(&h->r, m->keys[i]->str.p, rel, m->keys[i]->line);
	/* a section named page holds the site's pages (about, archives...),
	 * dated or not, as Hugo themes use it */
	int post = f.date != NULL && pl.sl && strcmp(pl.section, "page") && strcmp(pl.section, "pages");
	struct imp_doc *d = imp_doc_new(s, post ? IMP_POST : IMP_PAGE, rel);
	*d = f.doc;
	d->kind = post ? IMP_POST : IMP_PAGE;
	d->src_path = rel;
	buf_init(&d->body);
	x->doc = d;
	d->date = f.date;
	if (!f.title)
		f.title = imp_title_from_file(s, rel, f.slug ? f.slug : pl.fname);
	d->title = f.title;
	d->slug = imp_clean_slug(a, f.slug ? f.slug : pl.fname);
	page_terms(s, d, &f, post, rel);
	x->old_url = old_url(h, &f, &pl, post);
	if (!post && imp_layout_page(s, rel, m, x->old_url)) {
		d->skip = 1;
		return;
	}
	if (x->old_url && !imp_list_has(&d->aliases, x->old_url))
		imp_list_add(a, &d->aliases, x->old_url);
	/* a bundle's files: everything in its folder but the Markdown at its top */
	if (pl.bundle && !post)
		d->page_dir = pl.dirp;
	else if (pl.bundle)
		bundle_files(a, d, pl.dirp, all);
	if (post) {
		s->rep.posts++;
		if (d->draft)
			s->rep.drafts++;
	} else
		s->rep.pages++;
}

/* ---- links ---- */

/* cb_ref: {{< ref "posts/x.md#frag" >}}: the page's new URL. */
static const char *cb_ref(void *ctx, const char *name, int line)
{
	struct hg *h = ctx;
	struct arena *a = h->r.s->a;
	const char *hash = strchr(name, '#');
	size_t nl = hash ? (size_t)(hash - name) : strlen(name);
	const char *frag = hash ? hash : "";
	while (nl && name[0] == '/')
		name++, nl--;
	while (nl && name[nl - 1] == '/')
		nl--;
	if (!nl)
		return imp_fmt(a, "/%s", frag);
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < h->r.n; i++) {
			const char *c = h->r.v[i].crel;
			size_t cl = strlen(c);
			/* posts/x.md, posts/x (a bundle: posts/x/index.md), or the file's name alone */
			int hit = (cl == nl && !memcmp(c, name, nl)) ||
				  (cl > nl && !memcmp(c, name, nl) && c[nl] == '/' && !strncmp(c + nl + 1, "index.", 6));
			if (pass && !hit) {
				const char *b = strrchr(c, '/');
				b = b ? b + 1 : c;
				hit = !strncmp(b, name, nl) && (b[nl] == '.' || !b[nl]);
				if (!hit && !strncmp(b, "index.", 6) && b > c) {
					/* a bundle is named by its folder */
					const char *db = b - 1;
					while (db > c && db[-1] != '/')
						db--;
					hit = (size_t)(b - 1 - db) == nl && !memcmp(db, name, nl);
				}
			}
			if (hit)
				return imp_fmt(a, "%s%s", imp_doc_url(a, h->r.v[i].doc), frag);
		}
	const char *url = imp_fmt(a, "/%.*s/", (int)nl, name);
	imp_note(a, &h->r.s->rep, "Hugo ref to no page", h->r.cur->rel, line,
		 "'%s' names no page of the site: linked as %s, in ignore_links", name, url);
	imp_list_add(a, &h->r.cur->doc->ignore_links, url);
	return url;
}

/* bundle_url: a relative link dec of the current page to a file of its
 * bundle: a page bundle's resource goes to static/SLUG/ (folio pages
 * are files), *res its new URL; a post bundle's is copied beside it,
 * *res NULL (the link kept). 1 when it is one, else 0. */
static int bundle_url(struct hg *h, const char *dec, const char *suffix, int line, const char **res)
{
	struct imp_site *s = h->r.s;
	struct arena *a = s->a;
	const struct imp_src *cur = h->r.cur;
	char rel[4096];
	const char *pd = cur->doc->page_dir;
	if (pd) {
		snprintf(rel, sizeof rel, "%s/%s", pd, dec);
		if (imp_normalize(rel) == 0 && !strncmp(rel, pd, strlen(pd)) &&
		    imp_copy(s, rel, imp_fmt(a, "%s/%s", cur->doc->slug, rel + strlen(pd) + 1), cur->rel, line)) {
			*res = imp_fmt(a, "/%s/%s%s", cur->doc->slug, rel + strlen(pd) + 1, suffix);
			return 1;
		}
	}
	const char *bd = cur->doc->bundle;
	if (bd) {
		snprintf(rel, sizeof rel, "%s/%s", bd, dec);
		if (imp_normalize(rel) == 0 && !strncmp(rel, bd, strlen(bd))) {
			char full[4200];
			struct stat st;
			snprintf(full, sizeof full, "%s/%s", s->src, rel);
			if (stat(full, &st) == 0) {
				*res = NULL;
				return 1;
			}
		}
	}
	return 0;
}

static void cb_directive(void *ctx, struct str orig, const char *name, const char *const *keys, size_t nkeys,
			 int inl, int line)
{
	struct hg *h = ctx;
	imp_dir_call(h->r.s->a, &h->dirs, orig, name, keys, nkeys, inl, h->r.cur ? h->r.cur->rel : NULL, line);
}

/* sc_action: one Hugo template action, inner (between "{{" and "}}",
 * trimmed of its '-' and blanks), as a folio expression into b; 0 when
 * it does more than read a parameter or the inner content */
static int sc_action(struct arena *a, const char *p, size_t n, struct buf *b, struct imp_dir *d)
{
	if (n >= 4 && !memcmp(p, "/*", 2) && !memcmp(p + n - 2, "*/", 2))
		return 1; /* a comment */
	const char *e = p + n;
	const char *bar = memchr(p, '|', n);
	const char *head_end = bar ? bar : e;
	while (head_end > p && isspace((unsigned char)head_end[-1]))
		head_end--;
	struct str head = {p, (size_t)(head_end - p)};
	char arg[64] = "";
	if (str_eq_cstr(head, ".Inner")) {
		snprintf(arg, sizeof arg, "content");
	} else if (head.len > 5 && !memcmp(head.p, ".Get ", 5)) {
		const char *q = head.p + 5;
		while (q < head_end && *q == ' ')
			q++;
		if (q < head_end && *q == '"' && head_end[-1] == '"' && head_end - q >= 3) {
			struct str k = {q + 1, (size_t)(head_end - q - 2)};
			if (!isalpha((unsigned char)k.p[0]) && k.p[0] != '_')
				return 0; /* folio's arguments are named so */
			for (size_t i = 0; i < k.len; i++)
				if (!isalnum((unsigned char)k.p[i]) && k.p[i] != '_' && k.p[i] != '-')
					return 0;
			snprintf(arg, sizeof arg, "%.*s", (int)k.len, k.p);
		} else if (q < head_end && head_end - q <= 2 && isdigit((unsigned char)*q) &&
			   (head_end - q == 1 || isdigit((unsigned char)q[1]))) {
			snprintf(arg, sizeof arg, "arg%.*s", (int)(head_end - q), q);
		} else {
			return 0;
		}
		if (strcmp(arg, "content"))
			imp_dir_key(a, d, arg, strlen(arg));
	} else {
		return 0;
	}
	/* pipes: safeHTML and markdownify (the content is HTML already),
	 * default "x" */
	const char *def = NULL;
	size_t defn = 0;
	int safe = !strcmp(arg, "content");
	for (const char *q = bar; q && q < e;) {
		q++;
		while (q < e && isspace((unsigned char)*q))
			q++;
		const char *f = q;
		const char *next = memchr(q, '|', (size_t)(e - q));
		const char *fe = next ? next : e;
		while (fe > f && isspace((unsigned char)fe[-1]))
			fe--;
		struct str fn = {f, (size_t)(fe - f)};
		if (str_eq_cstr(fn, "safeHTML") || str_eq_cstr(fn, "markdownify") || str_eq_cstr(fn, ".Page.RenderString"))
			safe = 1;
		else if (fn.len > 10 && !memcmp(fn.p, "default \"", 9) && fn.p[fn.len - 1] == '"' &&
			 !memchr(fn.p + 9, '\\', fn.len - 10) && !memchr(fn.p + 9, '"', fn.len - 10) &&
			 !memchr(fn.p + 9, '\n', fn.len - 10)) /* one string, on one line */
			def = fn.p + 9, defn = fn.len - 10;
		else
			return 0;
		q = next;
	}
	buf_puts(b, "{{ ");
	buf_puts(b, arg);
	if (def)
		buf_printf(b, " or \"%.*s\"", (int)defn, def);
	if (safe && strcmp(arg, "content"))
		buf_puts(b, " | safe");
	buf_puts(b, " }}");
	return 1;
}

int imp_hugo_template(struct arena *a, const char *t, size_t n, struct buf *b, struct imp_dir *d)
{
	if (utf8_valid_prefix(t, n) != n)
		return 0; /* folio's templates are UTF-8: written by hand */
	for (size_t i = 0; i < n;) {
		const char *open = memmem(t + i, n - i, "{{", 2);
		size_t lit_end = open ? (size_t)(open - t) : n;
		for (size_t k = i; k + 1 < lit_end; k++)
			if (t[k] == '{' && (t[k + 1] == '%' || t[k + 1] == '#'))
				return 0;
		buf_append(b, t + i, lit_end - i);
		if (!open)
			break;
		const char *close = memmem(open + 2, n - (size_t)(open + 2 - t), "}}", 2);
		if (!close)
			return 0;
		const char *p = open + 2, *e = close;
		imp_action_trim(&p, &e);
		if (!sc_action(a, p, (size_t)(e - p), b, d))
			return 0;
		i = (size_t)(close + 2 - t);
	}
	return 1;
}

/* directive_templates: for each shortcode written as directive calls, its
 * template: the shortcode's own (layouts/shortcodes/NAME.html, the site's
 * or a theme's) made folio's when it only reads its parameters and inner
 * content; else one that shows the content, and IMPORT.md says which
 * template to write from */
static void directive_templates(struct hg *h)
{
	struct imp_site *s = h->r.s;
	struct arena *a = s->a;
	struct imp_list themes = {0};
	imp_walk(s, "themes", 0, NULL, NULL, &themes);
	for (size_t i = 0; i < h->dirs.n; i++) {
		struct imp_dir *d = &h->dirs.v[i];
		/* layouts/_shortcodes/ since Hugo 0.146, layouts/shortcodes/
		 * before; the site's, then a theme's */
		const char *rel = imp_fmt(a, "layouts/_shortcodes/%s.html", d->orig);
		size_t len = 0;
		char *text = imp_read_src(s, rel, &len);
		if (!text)
			text = imp_read_src(s, rel = imp_fmt(a, "layouts/shortcodes/%s.html", d->orig), &len);
		for (int under = 0; under < 2 && !text; under++) {
			const char *suffix = imp_fmt(a, "/layouts/%sshortcodes/%s.html", under ? "" : "_", d->orig);
			for (size_t k = 0; !text && k < themes.n; k++) {
				size_t tl = strlen(themes.v[k]), sl = strlen(suffix);
				if (tl > sl && !strcmp(themes.v[k] + tl - sl, suffix))
					text = imp_read_src(s, rel = themes.v[k], &len);
			}
		}
		imp_dir_write(s, d, "Hugo shortcode", "Hugo's shortcode", rel, text, len, imp_hugo_template,
			      "Hugo's own shortcode or a theme's (none in layouts/ or themes/ here)");
	}
	free(h->dirs.v);
}

static const char *cb_url(void *ctx, const char *url, int image, int line, int *missing)
{
	struct hg *h = ctx;
	struct imp_site *s = h->r.s;
	struct arena *a = s->a;
	const struct imp_src *cur = h->r.cur;
	const char *suffix;
	char *dec = imp_url_path(url, &suffix);
	if (!dec)
		return NULL;
	const char *res = NULL;
	char rel[4096];
	if (dec[0] != '/' && bundle_url(h, dec, suffix, line, &res)) {
		free(dec);
		return res;
	}
	int root;
	if (imp_url_rel(dec, h->base_path, cur->old_url, rel, sizeof rel, &root)) {
		const struct imp_src *to = imp_src_by_old_url(&h->r, rel);
		if (to)
			res = imp_fmt(a, "%s%s", imp_doc_url(a, to->doc), suffix);
		else {
			/* static/ is the site's root; assets/ holds images pages use */
			const char *dirs[] = {"static", "assets"};
			int found = 0;
			for (int k = 0; k < 2 && !found; k++) {
				char from[4300];
				snprintf(from, sizeof from, "%s/%s", dirs[k], rel);
				if (imp_copy(s, from, rel, cur->rel, line))
					found = 1;
			}
			res = imp_url_file(&h->r, found, rel, suffix, url, image, line, missing);
		}
	}
	return imp_url_end(a, res, root, url, h->base_path, dec);
}

/* series_order: Hugo orders a series by weight: a series whose posts all
 * give distinct weights keeps them as series_order; else the dates. */
static void series_order(struct imp_site *s)
{
	for (size_t i = 0; i < s->ndocs; i++) {
		struct imp_doc *sd = s->docs[i];
		if (sd->kind != IMP_SERIES)
			continue;
		int ok = 1, any = 0;
		for (size_t j = 0; j < s->ndocs && ok; j++) {
			struct imp_doc *d = s->docs[j];
			if (d->kind != IMP_POST || !d->series || strcmp(d->series, sd->slug))
				continue;
			if (!d->weight)
				ok = 0;
			any = 1;
			for (size_t k = 0; k < j && ok; k++) {
				struct imp_doc *e = s->docs[k];
				if (e->kind == IMP_POST && e->series && !strcmp(e->series, sd->slug) && e->weight == d->weight)
					ok = 0;
			}
		}
		if (!any)
			continue;
		if (!ok) {
			imp_note(s->a, &s->rep, "series ordered by date", sd->src_path, 0,
				 "not every post of '%s' has a weight of its own: the series is in the order of dates",
				 sd->title);
			continue;
		}
		for (size_t j = 0; j < s->ndocs; j++) {
			struct imp_doc *d = s->docs[j];
			if (d->kind == IMP_POST && d->series && !strcmp(d->series, sd->slug))
				d->series_order = d->weight;
		}
	}
}

int hugo_import(struct imp_site *s)
{
	struct hg h;
	memset(&h, 0, sizeof h);
	h.r.s = s;
	struct arena *a = s->a;
	s->generator = "Hugo";
	char p[4200];
	struct stat st;
	read_config(&h);
	imp_find_mathjax(s, (const char *const[]){"layouts", "themes", NULL},
			 (const char *const[]){h.content_dir ? h.content_dir : "content", NULL});
	snprintf(p, sizeof p, "%s/%s", s->src, h.content_dir);
	char to[4096];
	enum site_where w = site_where(s->src_root, p, to, sizeof to);
	if (w != SITE_INSIDE && w != SITE_MISSING && strcmp(h.content_dir, "content")) {
		imp_note(a, &s->rep, "link out of SRC", h.content_dir, 0,
			 "the content folder is a symbolic link out of SRC: not followed, content/ is read");
		h.content_dir = "content";
		snprintf(p, sizeof p, "%s/content", s->src);
		w = site_where(s->src_root, p, to, sizeof to);
	}
	if (w != SITE_INSIDE || stat(p, &st) != 0 || !S_ISDIR(st.st_mode)) {
		diag_error(s->d, &(struct diag_loc){s->src, NULL, 0, 0, 0},
			   "not a Hugo site: no %s/ folder inside it (hint: give the folder that holds hugo.toml or "
			   "config.yaml and content/)",
			   h.content_dir);
		return -1;
	}
	struct imp_list all = {0};
	walk(&h, h.content_dir, &all);
	for (size_t i = 0; i < all.n; i++) {
		const char *r = all.v[i];
		if (!is_md(r))
			continue;
		/* a Markdown file inside a bundle's folder is a resource, not a page */
		int inner = 0;
		for (size_t k = 0; k < all.n && !inner; k++) {
			const char *o = all.v[k];
			const char *ob = strrchr(o, '/');
			if (o == r || strncmp(ob + 1, "index.", 6) || !is_md(o))
				continue;
			size_t dl = (size_t)(ob - o);
			inner = !strncmp(r, o, dl) && r[dl] == '/';
		}
		/* name.fr.md: a translation (folio sites have one language) */
		const char *b = strrchr(r, '/') + 1;
		const char *d1 = strchr(b, '.'), *d2 = strrchr(b, '.');
		if (!inner && d1 && d1 != d2 && (d2 - d1 == 3 || d2 - d1 == 6) && isalpha((unsigned char)d1[1]) &&
		    isalpha((unsigned char)d1[2])) {
			imp_note(a, &s->rep, "translation not imported", r, 0,
				 "a translation ('%.*s'): a folio site has one language", (int)(d2 - d1 - 1), d1 + 1);
			continue;
		}
		if (!inner)
			read_page(&h, r, &all);
	}
	series_order(s);
	struct jk_body c = {a, &s->rep, NULL, 0, &h, cb_ref, NULL, cb_url, 1, NULL, 0, 0, cb_directive};
	imp_reader_finish(&h.r, hugo_body, c);
	directive_templates(&h);
	/* Hugo's RSS feeds: the site's, the posts section's and each term's */
	imp_feed_at(s, "/index.xml", "Hugo's RSS output");
	for (size_t i = 0; i < s->ndocs; i++)
		if (s->docs[i]->kind == IMP_POST) {
			imp_feed_at(s, "/posts/index.xml", "Hugo's RSS output");
			break;
		}
	imp_feed_at(s, "/tags/{tag}/index.xml", "Hugo's RSS output");
	imp_feed_at(s, "/categories/{category}/index.xml", "Hugo's RSS output");
	if (s->rep.series)
		imp_feed_at(s, "/series/{series}/index.xml", "Hugo's RSS output");
	/* static/ is served as it is, at the site's root: what no page named
	 * is carried over too */
	struct imp_list st_files = {0};
	walk(&h, "static", &st_files);
	for (size_t i = 0; i < st_files.n; i++)
		imp_carry(s, st_files.v[i], st_files.v[i] + 7);
	return 0;
}
