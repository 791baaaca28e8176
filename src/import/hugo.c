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
#include "formats/json.h"
#include "files/sitefile.h"
#include "base/slug.h"
#include "formats/toml.h"
#include "formats/yaml.h"

#define PASSTHROUGH_MATH "math:\n  delimiters: [dollars, brackets]\n"
#define HG_MAX_DEPTH 16

struct hg_src {
	struct imp_doc *doc;
	const char *rel;     /* SRC-relative ("content/posts/x.md") */
	const char *crel;    /* below content/ ("posts/x.md") */
	const char *old_url; /* its URL in the Hugo site */
	char *text;
	size_t len;
	const char *body;
	size_t body_len;
	int body_line;
};

struct hg {
	struct imp_site *s;
	const struct ynode *permalinks; /* section -> pattern */
	const char *base_path;          /* baseURL's path without the last '/': "/blog" or "" */
	const char *content_dir;        /* SRC-relative: "content", or the default language's contentDir */
	const struct ynode *languages;  /* the config's languages map, or NULL */
	const char *lang_file;          /* the file it is in */
	const char *default_lang;       /* defaultContentLanguage, or NULL */
	struct hg_src *v;
	size_t n, cap;
	struct hg_src *cur;
	struct imp_list fm_keys, fm_first;
	size_t *fm_count;
	int *fm_line;
};

static int is_md(const char *name)
{
	const char *dot = strrchr(name, '.');
	return dot && (!strcasecmp(dot, ".md") || !strcasecmp(dot, ".markdown") || !strcasecmp(dot, ".mdown"));
}

/* walk: regular files under SRC/dir, sorted, SRC-relative; links that
 * leave SRC reported and not followed. */
static void walk(struct hg *h, const char *dir, int depth, struct imp_list *out)
{
	struct imp_site *s = h->s;
	char p[4096];
	if ((size_t)snprintf(p, sizeof p, "%s/%s", s->src, dir) >= sizeof p || depth > HG_MAX_DEPTH)
		return;
	struct dirent **names;
	int n = scandir(p, &names, NULL, alphasort);
	if (n < 0)
		return;
	for (int i = 0; i < n; i++) {
		const char *nm = names[i]->d_name;
		char rel[4096], full[4200], to[4096];
		if (nm[0] == '.' || (size_t)snprintf(rel, sizeof rel, "%s/%s", dir, nm) >= sizeof rel) {
			free(names[i]);
			continue;
		}
		snprintf(full, sizeof full, "%s/%s", s->src, rel);
		enum site_where w = site_where(s->src_root, full, to, sizeof to);
		struct stat st;
		if (w != SITE_INSIDE && w != SITE_MISSING)
			imp_note(s->a, &s->rep, "link out of SRC", arena_strndup(s->a, rel, strlen(rel)), 0,
				 "a symbolic link %s: not followed",
				 w == SITE_OUTSIDE ? "out of SRC" : w == SITE_LOOP ? "in a loop" : "to nothing");
		else if (w == SITE_INSIDE && stat(full, &st) == 0) {
			if (S_ISDIR(st.st_mode))
				walk(h, rel, depth + 1, out);
			else if (S_ISREG(st.st_mode))
				imp_list_add(s->a, out, arena_strndup(s->a, rel, strlen(rel)));
		}
		free(names[i]);
	}
	free(names);
}

static void fm_unused(struct hg *h, const char *key, const char *path, int line)
{
	for (size_t i = 0; i < h->fm_keys.n; i++)
		if (!strcmp(h->fm_keys.v[i], key)) {
			h->fm_count[i]++;
			return;
		}
	struct arena *a = h->s->a;
	size_t n = h->fm_keys.n;
	imp_list_add(a, &h->fm_keys, arena_strndup(a, key, strlen(key)));
	imp_list_add(a, &h->fm_first, path);
	h->fm_count = arena_realloc(a, h->fm_count, n * sizeof *h->fm_count, (n + 1) * sizeof *h->fm_count);
	h->fm_line = arena_realloc(a, h->fm_line, n * sizeof *h->fm_line, (n + 1) * sizeof *h->fm_line);
	h->fm_count[n] = 1;
	h->fm_line[n] = line;
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
	const char *r = arena_strndup(a, b.p ? b.p : "", b.len);
	buf_fini(&b);
	return r;
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
		const char *src = dir_rel(h->s->a, imp_scalar(yaml_map_get(mounts->items[i], "source")));
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
	struct imp_site *s = h->s;
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
		if (on && !imp_list_has(&s->config_extra, PASSTHROUGH_MATH))
			imp_list_add(a, &s->config_extra, PASSTHROUGH_MATH);
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
	struct imp_site *s = h->s;
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
	struct imp_site *s = h->s;
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
	struct imp_site *s = h->s;
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
	walk(h, "config", 0, &files);
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

static struct hg_src *src_new(struct hg *h)
{
	if (h->n == h->cap) {
		h->cap = h->cap ? h->cap * 2 : 32;
		h->v = xrealloc(h->v, h->cap * sizeof *h->v);
	}
	struct hg_src *x = &h->v[h->n++];
	memset(x, 0, sizeof *x);
	return x;
}

/* expand: a Hugo permalink pattern for x. */
static const char *expand(struct arena *a, const char *pat, int y, int m, int d, const char *title,
			  const char *slug, const char *filename, const char *section)
{
	static const char *const months[] = {"january", "february", "march", "april", "may", "june",
					     "july", "august", "september", "october", "november", "december"};
	struct buf b;
	buf_init(&b);
	for (const char *p = pat; *p;) {
		if (*p != ':') {
			buf_putc(&b, *p++);
			continue;
		}
		const char *q = p + 1;
		while (isalnum((unsigned char)*q) || *q == '_')
			q++;
		char key[40];
		snprintf(key, sizeof key, "%.*s", (int)(q - p - 1 < 39 ? q - p - 1 : 39), p + 1);
		if (!strcmp(key, "year"))
			buf_printf(&b, "%04d", y);
		else if (!strcmp(key, "month"))
			buf_printf(&b, "%02d", m);
		else if (!strcmp(key, "monthname"))
			buf_puts(&b, months[m >= 1 && m <= 12 ? m - 1 : 0]);
		else if (!strcmp(key, "day"))
			buf_printf(&b, "%02d", d);
		else if (!strcmp(key, "title"))
			buf_puts(&b, urlize(a, title));
		else if (!strcmp(key, "slug") || !strcmp(key, "slugorfilename") || !strcmp(key, "slugorcontentbasename"))
			buf_puts(&b, slug);
		else if (!strcmp(key, "filename") || !strcmp(key, "contentbasename"))
			buf_puts(&b, filename);
		else if (!strcmp(key, "section") || !strcmp(key, "sections"))
			buf_puts(&b, section);
		else
			buf_append(&b, p, (size_t)(q - p));
		p = q;
	}
	const char *r = arena_strndup(a, b.p ? b.p : "", b.len);
	buf_fini(&b);
	return r;
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

static void read_page(struct hg *h, const char *rel, struct imp_list *all)
{
	struct imp_site *s = h->s;
	struct arena *a = s->a;
	const char *crel = rel + strlen(h->content_dir) + 1; /* below content/ */
	const char *base = strrchr(rel, '/') + 1;
	if (!strncmp(base, "_index.", 7)) {
		imp_note(a, &s->rep, "section page not imported", rel, 0,
			 "a list page's text: folio makes its own lists (tags, series, archive)");
		return;
	}
	struct hg_src *x = src_new(h);
	x->rel = rel;
	x->crel = crel;
	x->text = imp_read_src(s, rel, &x->len);
	if (!x->text) {
		h->n--;
		return;
	}
	x->text = imp_utf8(s, x->text, &x->len, rel);
	size_t k = 0;
	for (size_t i = 0; i < x->len; i++)
		if (!(x->text[i] == '\r' && i + 1 < x->len && x->text[i + 1] == '\n'))
			x->text[k++] = x->text[i];
	x->text[k] = '\0';
	x->len = k;
	size_t off = x->len >= 3 && (unsigned char)x->text[0] == 0xEF ? 3 : 0;
	const char *fm = NULL;
	size_t fm_len = 0;
	struct source so;
	memset(&so, 0, sizeof so);
	int r;
	const struct ynode *m = NULL;
	if (x->len >= off + 4 && !memcmp(x->text + off, "+++\n", 4)) {
		/* TOML between two lines +++ */
		r = split_fm(x->text, x->len, off + 4, "+++", &fm, &fm_len, &so);
		if (r > 0)
			m = toml_parse(a, s->d, rel, x->text, x->len, fm, fm_len, 1);
		else
			diag_error(s->d, &(struct diag_loc){rel, x->text, x->len, 1, 1},
				   "front matter is never closed (hint: end it with a line '+++')");
	} else if (x->len > off && x->text[off] == '{') {
		/* JSON: an object whose closing brace is alone on its line */
		r = split_fm(x->text, x->len, off, "}", &fm, &fm_len, &so);
		if (r > 0) {
			fm_len += 1; /* the brace is the object's */
			m = json_parse(a, s->d, rel, x->text, x->len, fm, fm_len, 0);
		} else
			diag_error(s->d, &(struct diag_loc){rel, x->text, x->len, 1, 1},
				   "JSON front matter is never closed (hint: end it with a line '}')");
	} else {
		r = content_split(s->d, rel, x->text, x->len, &fm, &fm_len, &so);
		if (r > 0)
			m = yaml_parse(a, s->d, rel, x->text, x->len, fm, fm_len, 1);
	}
	if (r < 0 || (r > 0 && (!m || m->kind != YNODE_MAP))) {
		s->rep.failed++;
		imp_note(a, &s->rep, "post not converted", rel, 0, "its front matter cannot be read (see the error)");
		free(x->text);
		h->n--;
		return;
	}
	x->body = so.body;
	x->body_len = so.body_len;
	x->body_line = so.body_line;
	/* the section, the bundle, the file's name */
	const char *sl = strchr(crel, '/');
	const char *section = sl ? arena_strndup(a, crel, (size_t)(sl - crel)) : "";
	int bundle = !strncmp(base, "index.", 6) && sl;
	const char *dirp = arena_strndup(a, rel, (size_t)(base - 1 - rel));
	const char *fname = bundle ? strrchr(dirp, '/') + 1 : arena_strndup(a, base, (size_t)(strrchr(base, '.') - base));
	const char *title = NULL, *date = NULL, *slug = NULL, *url = NULL;
	struct imp_list cats = {0}, series = {0};
	struct imp_doc tmp;
	memset(&tmp, 0, sizeof tmp);
	tmp.toc = -1;
	for (size_t i = 0; m && i < m->len; i++) {
		const char *key = m->keys[i]->str.p;
		const struct ynode *v = m->items[i];
		const char *sv = imp_scalar(v);
		if (!strcmp(key, "title"))
			title = sv;
		else if (!strcmp(key, "date") || (!strcmp(key, "publishDate") && !date)) {
			date = sv ? imp_date(a, sv) : NULL;
			if (sv && !date)
				imp_note(a, &s->rep, "date not understood", rel, v->line, "date '%s' is not a date folio reads", sv);
		} else if (!strcmp(key, "lastmod")) {
			tmp.updated = sv ? imp_date(a, sv) : NULL;
		} else if (!strcmp(key, "draft")) {
			int b;
			if (yaml_as_bool(v, &b))
				tmp.draft = b;
		} else if (!strcmp(key, "tags"))
			imp_words(a, v, &tmp.tags, 0);
		else if (!strcmp(key, "categories"))
			imp_words(a, v, &cats, 0);
		else if (!strcmp(key, "series"))
			imp_words(a, v, &series, 0);
		else if (!strcmp(key, "weight")) {
			int64_t w;
			if (yaml_as_int(v, &w) && w > 0 && w <= 100000)
				tmp.weight = (int)w;
		} else if (!strcmp(key, "summary"))
			tmp.summary = sv;
		else if (!strcmp(key, "description"))
			tmp.description = sv;
		else if (!strcmp(key, "aliases")) {
			struct imp_list l = {0};
			imp_words(a, v, &l, 0);
			for (size_t q = 0; q < l.n; q++)
				if (hugo_alias(a, l.v[q]))
					imp_list_add(a, &tmp.aliases, hugo_alias(a, l.v[q]));
		} else if (!strcmp(key, "slug"))
			slug = sv;
		else if (!strcmp(key, "url"))
			url = sv;
		else if (!strcmp(key, "expiryDate")) {
			imp_note(a, &s->rep, "expiryDate not imported", rel, v->line,
				 "'expiryDate: %s': folio does not hide posts after a date", sv ? sv : "");
		} else if (!strcmp(key, "toc")) {
			int b;
			if (yaml_as_bool(v, &b))
				tmp.toc = b;
		} else if (!strcmp(key, "image") && sv)
			tmp.image = sv;
		else
			fm_unused(h, key, rel, m->keys[i]->line);
	}
	int post = date != NULL && sl;
	struct imp_doc *d = imp_doc_new(s, post ? IMP_POST : IMP_PAGE, rel);
	*d = tmp;
	d->kind = post ? IMP_POST : IMP_PAGE;
	d->src_path = rel;
	buf_init(&d->body);
	x->doc = d;
	d->date = date;
	if (!title) {
		title = imp_title_from_slug(a, slug ? slug : fname);
		imp_note(a, &s->rep, "title from the file name", rel, 0, "no title: '%s' from the file name", title);
	}
	d->title = title;
	d->slug = imp_clean_slug(a, slug ? slug : fname);
	if (cats.n) {
		d->category = post ? cats.v[0] : NULL;
		for (size_t i = post ? 1 : 0; i < cats.n; i++)
			imp_add_term(a, &d->tags, cats.v[i]);
		if (cats.n > 1 && post)
			imp_note(a, &s->rep, "category made a tag", rel, 0,
				 "folio has one category per post: '%s' kept, the other %zu made tags", cats.v[0], cats.n - 1);
	}
	if (!post)
		d->tags.n = 0;
	if (d->tags.n > 32) {
		imp_note(a, &s->rep, "tags dropped", rel, 0, "%zu tags: folio keeps 32", d->tags.n);
		d->tags.n = 32;
	}
	if (series.n && post) {
		struct str ss = slugify(a, str_from(series.v[0]));
		if (ss.len) {
			d->series = ss.p;
			if (!imp_doc_find(s, IMP_SERIES, ss.p)) {
				struct imp_doc *sd = imp_doc_new(s, IMP_SERIES, rel);
				sd->slug = ss.p;
				sd->title = series.v[0];
				sd->description = imp_fmt(a, "The posts of the series %s.", series.v[0]);
				s->rep.series++;
			}
		}
		if (series.n > 1)
			imp_note(a, &s->rep, "series dropped", rel, 0,
				 "folio puts a post in one series: '%s' kept, %zu others dropped", series.v[0], series.n - 1);
	}
	/* the old URL */
	if (url)
		x->old_url = hugo_alias(a, url);
	else {
		const char *pat = h->permalinks ? imp_scalar(yaml_map_get(h->permalinks, section)) : NULL;
		int y = 0, mo = 0, dd = 0;
		if (date)
			sscanf(date, "%d-%d-%d", &y, &mo, &dd);
		const char *sg = slug ? slug : fname;
		if (pat && post)
			x->old_url = expand(a, pat, y, mo, dd, title, sg, fname, section);
		else {
			/* the folder of the file below content/, and the slug or the file's name */
			const char *dir = bundle ? arena_strndup(a, crel, (size_t)(strrchr(crel, '/') - crel)) : crel;
			const char *ds = strrchr(dir, '/');
			struct buf b;
			buf_init(&b);
			buf_putc(&b, '/');
			if (bundle) {
				if (ds)
					buf_append(&b, dir, (size_t)(ds - dir + 1));
			} else if (sl) {
				const char *ls = strrchr(crel, '/');
				buf_append(&b, crel, (size_t)(ls - crel + 1));
			}
			buf_puts(&b, sg);
			buf_putc(&b, '/');
			char *u = (char *)arena_strndup(a, b.p, b.len);
			buf_fini(&b);
			lower_path(u);
			x->old_url = u;
		}
	}
	if (x->old_url && !imp_list_has(&d->aliases, x->old_url))
		imp_list_add(a, &d->aliases, x->old_url);
	/* a bundle's files: everything in its folder but the Markdown at its top */
	if (bundle && !post) {
		d->page_dir = dirp;
	} else if (bundle) {
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
	if (post) {
		s->rep.posts++;
		if (d->draft)
			s->rep.drafts++;
	} else
		s->rep.pages++;
}

/* ---- links ---- */

static const char *doc_url(struct arena *a, const struct imp_doc *d)
{
	return d->kind == IMP_POST ? imp_fmt(a, "/posts/%s/", d->slug) : imp_fmt(a, "/%s/", d->slug);
}

/* cb_ref: {{< ref "posts/x.md#frag" >}}: the page's new URL. */
static const char *cb_ref(void *ctx, const char *name, int line)
{
	struct hg *h = ctx;
	struct arena *a = h->s->a;
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
		for (size_t i = 0; i < h->n; i++) {
			const char *c = h->v[i].crel;
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
				return imp_fmt(a, "%s%s", doc_url(a, h->v[i].doc), frag);
		}
	const char *url = imp_fmt(a, "/%.*s/", (int)nl, name);
	imp_note(a, &h->s->rep, "Hugo ref to no page", h->cur->rel, line,
		 "'%s' names no page of the site: linked as %s, in ignore_links", name, url);
	imp_list_add(a, &h->cur->doc->ignore_links, url);
	return url;
}

static const char *cb_url(void *ctx, const char *url, int image, int line, int *missing)
{
	struct hg *h = ctx;
	struct imp_site *s = h->s;
	struct arena *a = s->a;
	const char *c = url;
	while (isalnum((unsigned char)*c) || *c == '+' || *c == '-' || *c == '.')
		c++;
	if ((*c == ':' && c > url) || (url[0] == '/' && url[1] == '/') || url[0] == '#' || url[0] == '?' || !url[0])
		return NULL;
	size_t ul = strcspn(url, "?#");
	const char *suffix = url + ul;
	char *dec = imp_url_decode(url, ul);
	const char *res = NULL;
	char rel[4096];
	int root = dec[0] == '/';
	if (!root && h->cur->doc->page_dir) {
		/* a page bundle's resource: folio pages are files, so it goes
		 * to static/SLUG/ */
		snprintf(rel, sizeof rel, "%s/%s", h->cur->doc->page_dir, dec);
		if (imp_normalize(rel) == 0 && !strncmp(rel, h->cur->doc->page_dir, strlen(h->cur->doc->page_dir)) &&
		    imp_copy(s, rel, imp_fmt(a, "%s/%s", h->cur->doc->slug, rel + strlen(h->cur->doc->page_dir) + 1),
			     h->cur->rel, line)) {
			res = imp_fmt(a, "/%s/%s%s", h->cur->doc->slug, rel + strlen(h->cur->doc->page_dir) + 1, suffix);
			free(dec);
			return res;
		}
	}
	if (!root && h->cur->doc->bundle) {
		/* a resource of the bundle: copied beside it */
		snprintf(rel, sizeof rel, "%s/%s", h->cur->doc->bundle, dec);
		if (imp_normalize(rel) == 0 && !strncmp(rel, h->cur->doc->bundle, strlen(h->cur->doc->bundle))) {
			char full[4200];
			struct stat st;
			snprintf(full, sizeof full, "%s/%s", s->src, rel);
			if (stat(full, &st) == 0) {
				free(dec);
				return NULL;
			}
		}
	}
	if (root) {
		const char *p = dec;
		size_t bl = strlen(h->base_path);
		if (bl && !strncmp(p, h->base_path, bl) && (p[bl] == '/' || !p[bl]))
			p += bl;
		snprintf(rel, sizeof rel, "%s", p + (*p == '/'));
	} else {
		const char *base = h->cur->old_url ? h->cur->old_url : "/";
		const char *ls = strrchr(base, '/');
		snprintf(rel, sizeof rel, "%.*s/%s", (int)(ls - base), base, dec);
	}
	int found = 0;
	if (imp_normalize(rel) == 0 && rel[0]) {
		char wl[4200];
		snprintf(wl, sizeof wl, "/%s", rel);
		size_t wll = strlen(wl);
		for (size_t i = 0; i < h->n && !res; i++) {
			const char *o = h->v[i].old_url;
			size_t ol = o ? strlen(o) : 0;
			if (o && (!strcmp(o, wl) || (ol && o[ol - 1] == '/' && ol - 1 == wll && !strncmp(o, wl, wll))))
				res = imp_fmt(a, "%s%s", doc_url(a, h->v[i].doc), suffix);
		}
		if (!res) {
			/* static/ is the site's root; assets/ holds images pages use */
			const char *dirs[] = {"static", "assets"};
			for (int k = 0; k < 2 && !found; k++) {
				char from[4300];
				snprintf(from, sizeof from, "%s/%s", dirs[k], rel);
				if (imp_copy(s, from, rel, h->cur->rel, line))
					found = 1;
			}
			if (found)
				res = imp_static_url(a, rel, suffix);
			else if (image) {
				*missing = 1;
				imp_missing_image(s, h->cur->doc, h->cur->rel, line, url);
			}
		}
	}
	if (!res && root && h->base_path[0])
		res = imp_unbase(a, url, h->base_path);
	free(dec);
	return res;
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
	h.s = s;
	struct arena *a = s->a;
	s->generator = "Hugo";
	char p[4200];
	struct stat st;
	read_config(&h);
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
	walk(&h, h.content_dir, 0, &all);
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
	for (size_t i = 0; i < s->ndocs; i++)
		if (!s->docs[i]->slug)
			s->docs[i]->skip = 1;
	imp_fix_slugs(s);
	for (size_t i = 0; i < h.n; i++) {
		struct hg_src *x = &h.v[i];
		h.cur = x;
		struct jk_body c = {a, &s->rep, x->rel, x->body_line, &h, cb_ref, NULL, cb_url, 1};
		hugo_body(&c, x->body, x->body_len, &x->doc->body);
		free(x->text);
		x->text = NULL;
	}
	for (size_t i = 0; i < h.fm_keys.n; i++)
		imp_note(a, &s->rep, "front matter key not imported", h.fm_first.v[i], h.fm_line[i],
			 "'%s' (in %zu file%s) has no folio equivalent", h.fm_keys.v[i], h.fm_count[i],
			 h.fm_count[i] == 1 ? "" : "s");
	free(h.v);
	return 0;
}
