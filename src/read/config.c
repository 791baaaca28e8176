/* config.c: folio.yml -> struct config. Unknown keys and wrong types are
 * errors with their position and a hint. */
#include "read/config.h"

#include "md/math.h"
#include "formats/schema.h"
#include "files/reader.h"
#include "files/sitefile.h"
#include "base/slug.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const top_keys[] = {"title", "tagline", "description", "base_url", "language", "timezone",
	"author", "posts_per_page", "archive_per_page", "reading_speed", "start_here", "best_of", "featured_series", "menu", "feeds",
	"math", "highlight", "smart_punctuation", "search", "links", "image", "logo", "paginate_path", "redirects", "images",
	"bibliography", "citation_style", "sidenotes", "deploy", NULL};

/* where the texts of folio.yml are repeated (see SCHEMA_TEXT_MAX) */
#define EVERY_PAGE "every page"
/* a menu is a few links; 10,000 of them made each page 450 KB */
#define MENU_MAX 32

/* read_links: links: {check: error|warn|off} (folio-site(5), LINKS). */
static void read_links(struct schema *s, const struct ynode *r, struct config *c)
{
	static const char *const keys[] = {"check", NULL};
	c->links_check = CONFIG_LINKS_ERROR;
	const struct ynode *l = schema_node(r, "links");
	if (!l || yaml_is_null(l))
		return;
	if (l->kind != YNODE_MAP) {
		schema_error(s, l, "'links' must be a map, e.g. {check: warn}, found %s", kind_a(l));
		return;
	}
	schema_check_keys(s, l, keys, "links");
	struct str v = STR_LIT("error");
	if (schema_str(s, l, "check", 0, &v) == 1) {
		if (str_eq_cstr(v, "error"))
			c->links_check = CONFIG_LINKS_ERROR;
		else if (str_eq_cstr(v, "warn"))
			c->links_check = CONFIG_LINKS_WARN;
		else if (str_eq_cstr(v, "off"))
			c->links_check = CONFIG_LINKS_OFF;
		else
			schema_error(s, schema_node(l, "check"), "links.check must be 'error', 'warn' or 'off', found '%.*s'",
				     STR_FMT(v));
	}
}

static void slug_ref_at(struct slug_ref *r, const struct ynode *n)
{
	r->slug = str_trim(n->str);
	r->line = n->line;
	r->col = n->col;
}

static void read_author(struct schema *s, const struct ynode *root, struct config *c)
{
	const struct ynode *n = schema_node(root, "author");
	if (!n || yaml_is_null(n))
		return;
	if (n->kind == YNODE_SCALAR) { /* author: Jae */
		c->author_name = n->str;
		schema_check_len(s, n, "'author'", SCHEMA_TEXT_MAX, EVERY_PAGE);
		return;
	}
	if (n->kind != YNODE_MAP) {
		schema_error(s, n, "'author' must be a name or a map {name, url, email}, found %s", kind_a(n));
		return;
	}
	static const char *const keys[] = {"name", "url", "email", NULL};
	schema_check_keys(s, n, keys, "author");
	int line = s->map_line, col = s->map_col;
	s->map_line = s->map_col = 0; /* a missing name points into the author map */
	schema_str(s, n, "name", 1, &c->author_name);
	s->map_line = line;
	s->map_col = col;
	schema_str(s, n, "url", 0, &c->author_url);
	schema_str(s, n, "email", 0, &c->author_email);
	static const char *const what[] = {"'author.name'", "'author.url'", "'author.email'"};
	for (int i = 0; i < 3; i++)
		schema_check_len(s, schema_node(n, keys[i]), what[i], SCHEMA_TEXT_MAX, EVERY_PAGE);
}

static void read_best_of(struct schema *s, const struct ynode *root, struct config *c)
{
	const struct ynode *n = schema_node(root, "best_of");
	if (!n || yaml_is_null(n))
		return;
	if (n->kind != YNODE_SEQ) {
		schema_error(s, n, "'best_of' must be a list of post slugs or {post, note} maps, found %s",
			     kind_a(n));
		return;
	}
	c->best_of = arena_alloc(s->a, (n->len + 1) * sizeof *c->best_of);
	for (size_t i = 0; i < n->len; i++) {
		const struct ynode *it = n->items[i];
		struct slug_ref *r = &c->best_of[c->nbest_of];
		if (it->kind == YNODE_SCALAR && !yaml_is_null(it)) {
			slug_ref_at(r, it);
			c->nbest_of++;
		} else if (it->kind == YNODE_MAP) {
			static const char *const keys[] = {"post", "note", NULL};
			schema_check_keys(s, it, keys, "best_of item");
			const struct ynode *p = schema_node(it, "post");
			if (!p || p->kind != YNODE_SCALAR || yaml_is_null(p)) {
				schema_error(s, p ? p : it, "a best_of item needs 'post: SLUG'");
				continue;
			}
			slug_ref_at(r, p);
			schema_str(s, it, "note", 0, &r->note);
			c->nbest_of++;
		} else {
			schema_error(s, it, "a best_of item must be a post slug or {post, note}, found %s",
				     kind_a(it));
		}
	}
}

static void read_featured(struct schema *s, const struct ynode *root, struct config *c)
{
	const struct ynode *n = schema_node(root, "featured_series");
	if (!n || yaml_is_null(n))
		return;
	if (n->kind != YNODE_SEQ) {
		schema_error(s, n, "'featured_series' must be a list of series slugs, found %s", kind_a(n));
		return;
	}
	c->featured_series = arena_alloc(s->a, (n->len + 1) * sizeof *c->featured_series);
	for (size_t i = 0; i < n->len; i++) {
		const struct ynode *it = n->items[i];
		if (it->kind != YNODE_SCALAR || yaml_is_null(it)) {
			schema_error(s, it, "'featured_series' items must be series slugs, found %s", kind_a(it));
			continue;
		}
		slug_ref_at(&c->featured_series[c->nfeatured_series++], it);
	}
}

static void read_menu(struct schema *s, const struct ynode *root, struct config *c)
{
	const struct ynode *n = schema_node(root, "menu");
	if (!n || yaml_is_null(n))
		return;
	if (n->kind != YNODE_SEQ) {
		schema_error(s, n, "'menu' must be a list of {label, url}, found %s", kind_a(n));
		return;
	}
	if (n->len > MENU_MAX)
		schema_error(s, n->items[MENU_MAX],
			     "'menu' has %zu items, more than %d: the menu is on every page (see LIMITS in folio-site(5))",
			     n->len, MENU_MAX);
	c->menu = arena_alloc(s->a, (n->len + 1) * sizeof *c->menu);
	for (size_t i = 0; i < n->len; i++) {
		const struct ynode *it = n->items[i];
		if (it->kind != YNODE_MAP) {
			schema_error(s, it, "a menu item must be a map {label, url}, found %s", kind_a(it));
			continue;
		}
		static const char *const keys[] = {"label", "url", NULL};
		schema_check_keys(s, it, keys, "menu item");
		struct menu_item *m = &c->menu[c->nmenu];
		s->map_line = it->line;
		s->map_col = it->col;
		if (schema_str(s, it, "label", 1, &m->label) == 1 && schema_str(s, it, "url", 1, &m->url) == 1)
			c->nmenu++;
		schema_check_len(s, schema_node(it, "label"), "a menu item's 'label'", SCHEMA_TEXT_MAX, EVERY_PAGE);
		schema_check_len(s, schema_node(it, "url"), "a menu item's 'url'", SCHEMA_TEXT_MAX, EVERY_PAGE);
		s->map_line = s->map_col = 0;
	}
}

/* read_switch: `key: false`, `key: true` or `key: {map}`; returns the map
 * (or NULL) and sets *on. */
static const struct ynode *read_switch(struct schema *s, const struct ynode *root, const char *key, int *on,
				       const char *const *keys)
{
	const struct ynode *n = schema_node(root, key);
	int b;
	if (!n || yaml_is_null(n))
		return NULL;
	if (yaml_as_bool(n, &b)) {
		*on = b;
		return NULL;
	}
	if (n->kind != YNODE_MAP) {
		schema_error(s, n, "'%s' must be false, true or a map, found %s", key,
			     n->kind == YNODE_SCALAR ? "a string" : kind_a(n));
		return NULL;
	}
	*on = 1;
	schema_check_keys(s, n, keys, key);
	return n;
}

/* read_text: SITE/folio.yml read whole (*text, malloc'd, *len): a file
 * under another name of folio's, or another generator's config, is named
 * in the error when folio.yml is missing, and warned about beside it. 0,
 * or 1 after the error. */
static int read_text(struct diag *d, const char *site_dir, char **text, size_t *len)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/folio.yml", site_dir);
	char *root = site_root(site_dir);
	int bad = site_check(d, root, path, "folio.yml");
	free(root);
	if (bad)
		return 1; /* a link outside the site, to nothing, or in a circle: never read */
	/* read by the site's reader, which reports a file too large (EFBIG);
	 * one that cannot be read is said here, with what is there instead */
	struct site_file f = {path, "folio.yml", FOLIO_MAX_FILE, "keep long lists in data/ files", SITE_READ_QUIET};
	*text = site_read(d, NULL, &f, NULL, len, NULL);
	if (!*text && errno == EFBIG)
		return 1;
	if (!*text) {
		struct diag_loc loc = {"folio.yml", NULL, 0, 0, 0};
		/* a settings file under another name: said, not guessed at */
		static const char *const other[] = {"folio.yaml", "folio.toml", "folio.json", "config.toml",
						    "config.yaml", "config.yml", "hugo.toml", "hugo.yaml",
						    "_config.yml", NULL};
		const char *found = NULL;
		for (size_t i = 0; errno == ENOENT && other[i] && !found; i++) {
			char p2[4200];
			snprintf(p2, sizeof p2, "%s/%s", site_dir, other[i]);
			if (access(p2, F_OK) == 0)
				found = other[i];
		}
		if (found && !strncmp(found, "folio.", 6))
			diag_error(d, &loc, "no folio.yml in '%s', but a %s (did you mean folio.yml? folio reads its "
				   "settings from folio.yml only, in YAML: rename the file)", site_dir, found);
		else if (found)
			diag_error(d, &loc, "no folio.yml in '%s', but a %s: is this a %s site? (folio reads folio.yml; "
				   "'folio import %s' converts such a site)", site_dir, found,
				   found[0] == '_' ? "Jekyll" : "Hugo", found[0] == '_' ? "jekyll" : "hugo");
		else if (errno == ENOENT)
			diag_error(d, &loc, "no folio.yml in '%s' (is this a site folder? 'folio new site DIR' makes one)",
				   site_dir);
		else
			diag_error(d, &loc, "cannot read %s: %s", path, file_strerror(errno));
		return 1;
	}
	/* a settings file beside it under another name of folio's is never
	 * read: said, so that its edits are not lost in silence */
	static const char *const beside[] = {"folio.yaml", "folio.toml", "folio.json", NULL};
	for (size_t i = 0; beside[i]; i++) {
		char p2[4200];
		snprintf(p2, sizeof p2, "%s/%s", site_dir, beside[i]);
		if (access(p2, F_OK) == 0) {
			struct diag_loc loc = {beside[i], NULL, 0, 0, 0};
			diag_warning(d, &loc, "not used: folio reads its settings from folio.yml only (move what this "
				     "file sets into folio.yml, then remove it)");
		}
	}
	return 0;
}

/* read_texts: the site's texts (title, tagline, description, image, logo,
 * base_url, language), their lengths checked, and its time zone. */
static void read_texts(struct schema *s, const struct ynode *r, struct config *c)
{
	schema_str(s, r, "title", 1, &c->title);
	schema_str(s, r, "tagline", 0, &c->tagline);
	schema_str(s, r, "description", 0, &c->description);
	schema_str(s, r, "image", 0, &c->image);
	schema_str(s, r, "logo", 0, &c->logo);
	schema_str(s, r, "base_url", 0, &c->base_url);
	c->language = STR_LIT("en");
	schema_str(s, r, "language", 0, &c->language);
	static const char *const texts[] = {"title", "tagline", "language"};
	for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
		char what[32];
		snprintf(what, sizeof what, "'%s'", texts[i]);
		schema_check_len(s, schema_node(r, texts[i]), what, SCHEMA_TEXT_MAX, EVERY_PAGE);
	}
	schema_check_len(s, schema_node(r, "description"), "'description'", SCHEMA_DESCRIPTION_MAX, EVERY_PAGE);
	c->timezone = STR_LIT("UTC");
	if (schema_str(s, r, "timezone", 0, &c->timezone) == 1) {
		char *tz = arena_strndup(s->a, c->timezone.p, c->timezone.len);
		if (!tz_valid(tz))
			schema_error(s, schema_node(r, "timezone"),
				     "unknown time zone '%s' (use an IANA name such as 'Europe/Berlin' or 'UTC')", tz);
	}
}

/* feed_path_error: why p, a path of feeds.also_at, cannot be one (a
 * static message), or NULL. */
static const char *feed_path_error(struct str p)
{
	if (!p.len || p.p[0] != '/' || memmem(p.p, p.len, "..", 2) || memmem(p.p, p.len, "//", 2) ||
	    memchr(p.p, '?', p.len) || memchr(p.p, '#', p.len) || memchr(p.p, '\\', p.len))
		return "must be a path from the site's root, as '/feed/index.xml'";
	static const char *const ends[] = {"/", ".xml", ".rss", ".atom"};
	int ok = 0;
	for (size_t i = 0; i < 4; i++)
		ok |= p.len >= strlen(ends[i]) && !memcmp(p.p + p.len - strlen(ends[i]), ends[i], strlen(ends[i]));
	if (!ok)
		return "must end in .xml, .rss or .atom, or in / (then index.xml)";
	int holders = 0;
	for (const char *q = p.p; (q = memchr(q, '{', (size_t)(p.p + p.len - q))); q++) {
		struct str rest = {q, (size_t)(p.p + p.len - q)};
		if (!str_starts_with(rest, "{tag}") && !str_starts_with(rest, "{category}") &&
		    !str_starts_with(rest, "{series}"))
			return "has an unknown placeholder (known: {tag}, {category}, {series})";
		holders++;
	}
	if (holders > 1)
		return "has more than one placeholder";
	if (str_eq_cstr(p, "/feed.xml") || str_eq_cstr(p, "/feed.json") || str_eq_cstr(p, "/tags/{tag}/feed.xml") ||
	    str_eq_cstr(p, "/series/{series}/feed.xml"))
		return "is where folio writes that feed already";
	return NULL;
}

/* redirect_path_ok: whether p is an address of the site, from its root. */
static int redirect_path_ok(struct str p)
{
	if (!p.len || p.p[0] != '/' || (p.len > 1 && p.p[1] == '/') || memmem(p.p, p.len, "..", 2) ||
	    memmem(p.p, p.len, "//", 2))
		return 0;
	for (size_t i = 0; i < p.len; i++)
		if ((unsigned char)p.p[i] <= ' ' || p.p[i] == '?' || p.p[i] == '#' || p.p[i] == '\\' || p.p[i] == 0x7f)
			return 0;
	return 1;
}

/* read_redirects: redirects, a map of an old address to the new one
 * (each from the site's root), for addresses no document has (an old
 * tag page, a feed's folder). */
static void read_redirects(struct schema *s, const struct ynode *r, struct config *c)
{
	const struct ynode *m = schema_node(r, "redirects");
	if (!m || yaml_is_null(m))
		return;
	if (m->kind != YNODE_MAP) {
		schema_error(s, m, "redirects must be a map of old address: new address, found %s", kind_a(m));
		return;
	}
	c->redirect_from = arena_alloc(s->a, (m->len + 1) * sizeof *c->redirect_from);
	c->redirect_to = arena_alloc(s->a, (m->len + 1) * sizeof *c->redirect_to);
	c->redirect_at = arena_alloc(s->a, (m->len + 1) * sizeof *c->redirect_at);
	for (size_t i = 0; i < m->len; i++) {
		const struct ynode *k = m->keys[i], *v = m->items[i];
		if (v->kind != YNODE_SCALAR || !redirect_path_ok(v->str) || !redirect_path_ok(k->str) ||
		    (k->str.len == 1)) {
			schema_error(s, v->kind != YNODE_SCALAR || redirect_path_ok(k->str) ? v : k,
				     "redirects: '%.*s' to '%.*s': both must be addresses of the site from its root, "
				     "as '/old/' and '/tags/new/' (not the home page)",
				     STR_FMT(k->str), v->kind == YNODE_SCALAR ? (int)v->str.len : 0,
				     v->kind == YNODE_SCALAR ? v->str.p : "");
			continue;
		}
		c->redirect_from[c->nredirects] = k->str;
		c->redirect_to[c->nredirects] = v->str;
		c->redirect_at[c->nredirects++] = k;
	}
}

/* read_paginate_path: paginate_path, the folder of a listing's later
 * pages (/page/2/), one path segment that no listing's first page has. */
static void read_paginate_path(struct schema *s, const struct ynode *r, struct config *c)
{
	c->paginate_path = STR_LIT("page");
	struct str p;
	if (schema_str(s, r, "paginate_path", 0, &p) != 1)
		return;
	static const char *const taken[] = {"posts", "series", "tags", "categories", "archive", "search", NULL};
	int ok = p.len > 0 && p.len <= 64;
	for (size_t i = 0; ok && i < p.len; i++)
		ok = (p.p[i] >= 'a' && p.p[i] <= 'z') || (p.p[i] >= '0' && p.p[i] <= '9') || p.p[i] == '-' ||
		     p.p[i] == '_';
	for (size_t i = 0; ok && taken[i]; i++)
		ok = !str_eq_cstr(p, taken[i]);
	if (!ok)
		schema_error(s, schema_node(r, "paginate_path"),
			     "paginate_path must be one path segment of lower-case letters, digits, '-' and '_', "
			     "not a folder of folio's own (posts, series, tags, categories, archive, search), found "
			     "'%.*s'",
			     STR_FMT(p));
	else
		c->paginate_path = p;
}

/* read_image_widths: images.widths, a list of 1 to CONFIG_MAX_WIDTHS
 * widths in pixels (16 to 8192), sorted and each once. */
static void read_image_widths(struct schema *s, const struct ynode *m, struct config *c)
{
	const struct ynode *l = schema_node(m, "widths");
	if (!l || yaml_is_null(l))
		return;
	if (l->kind != YNODE_SEQ || l->len < 1 || l->len > CONFIG_MAX_WIDTHS) {
		schema_error(s, l, "images.widths must be a list of 1 to %d widths in pixels, such as [480, 960, 1600]",
			     CONFIG_MAX_WIDTHS);
		return;
	}
	int n = 0, w[CONFIG_MAX_WIDTHS];
	for (size_t i = 0; i < l->len; i++) {
		int64_t v;
		if (!yaml_as_int(l->items[i], &v) || v < 16 || v > 8192) {
			schema_error(s, l->items[i], "images.widths: each width is a number of pixels from 16 to 8192");
			return;
		}
		int k = n;
		while (k > 0 && w[k - 1] > v) {
			w[k] = w[k - 1];
			k--;
		}
		if (k > 0 && w[k - 1] == v) {
			schema_error(s, l->items[i], "images.widths: %d is there twice", (int)v);
			return;
		}
		w[k] = (int)v;
		n++;
	}
	memcpy(c->image_widths, w, sizeof w);
	c->nimage_widths = n;
}

int config_read_citations(struct schema *s, const struct ynode *m, const struct ynode **bib, int *style)
{
	int errors = s->errors;
	const struct ynode *n = schema_node(m, "bibliography");
	if (n && n->kind == YNODE_SCALAR && n->str.len)
		*bib = n;
	else if (n && n->kind == YNODE_SEQ && n->len) {
		int ok = 1;
		for (size_t i = 0; i < n->len; i++)
			if (n->items[i]->kind != YNODE_SCALAR || !n->items[i]->str.len) {
				schema_error(s, n->items[i], "a bibliography item must be the path of a .bib file, found %s",
					     kind_a(n->items[i]));
				ok = 0;
			}
		if (ok)
			*bib = n;
	} else if (n)
		schema_error(s, n, "'bibliography' must be the path of a .bib file or a list of them (e.g. refs.bib), found %s",
			     kind_a(n));
	struct str v;
	if (schema_str(s, m, "citation_style", 0, &v) == 1) {
		if (str_eq_cstr(v, "numeric"))
			*style = 0;
		else if (str_eq_cstr(v, "author-year"))
			*style = 1;
		else
			schema_error(s, schema_node(m, "citation_style"),
				     "citation_style must be 'numeric' or 'author-year', found '%.*s'", STR_FMT(v));
	}
	return s->errors - errors;
}

/* read_images: images: false, true or {widths, formats, quality}. */
static void read_images(struct schema *s, const struct ynode *r, struct config *c)
{
	static const char *const image_keys[] = {"widths", "formats", "quality", "keep_metadata", NULL};
	static const int widths[] = {480, 960, 1600};
	c->images = 1;
	memcpy(c->image_widths, widths, sizeof widths);
	c->nimage_widths = 3;
	c->images_webp = 1;
	c->quality_webp = 80;
	c->quality_jpeg = 82;
	c->quality_avif = 60;
	const struct ynode *m = read_switch(s, r, "images", &c->images, image_keys);
	if (!m)
		return;
	read_image_widths(s, m, c);
	schema_bool(s, m, "keep_metadata", &c->images_metadata);
	struct str *fv = NULL;
	size_t nf = 0;
	if (schema_str_list(s, m, "formats", &fv, &nf) == 1) {
		const struct ynode *fn = schema_node(m, "formats");
		c->images_webp = 0;
		for (size_t i = 0; i < nf; i++) {
			const struct ynode *at = fn->kind == YNODE_SEQ ? fn->items[i] : fn;
			if (str_eq_cstr(fv[i], "webp")) {
				c->images_webp = 1;
			} else if (str_eq_cstr(fv[i], "avif")) {
				c->images_avif = 1;
				c->avif_line = at->line;
				c->avif_col = at->col;
			} else if (!str_eq_cstr(fv[i], "original")) {
				schema_error(s, at,
					     "images.formats: unknown format '%.*s' (known: webp, avif, and original, "
					     "the image's own format, which is always written)",
					     STR_FMT(fv[i]));
			}
		}
	}
	const struct ynode *q = schema_node(m, "quality");
	if (!q || yaml_is_null(q))
		return;
	static const char *const q_keys[] = {"webp", "jpeg", "avif", NULL};
	if (q->kind != YNODE_MAP) {
		schema_error(s, q, "images.quality must be a map such as {webp: 80, jpeg: 82}");
		return;
	}
	schema_check_keys(s, q, q_keys, "images.quality");
	int64_t v;
	if (schema_int(s, q, "webp", 1, 100, &v) == 1)
		c->quality_webp = (int)v;
	if (schema_int(s, q, "jpeg", 1, 100, &v) == 1)
		c->quality_jpeg = (int)v;
	if (schema_int(s, q, "avif", 1, 100, &v) == 1)
		c->quality_avif = (int)v;
}

/* read_feeds: feeds: false, true or {content: summary|full, also_at}. */
static void read_feeds(struct schema *s, const struct ynode *r, struct config *c)
{
	static const char *const feed_keys[] = {"content", "also_at", NULL};
	c->feeds = 1;
	const struct ynode *f = read_switch(s, r, "feeds", &c->feeds, feed_keys);
	if (f && schema_str_list(s, f, "also_at", &c->feeds_also, &c->nfeeds_also) == 1) {
		const struct ynode *l = schema_node(f, "also_at");
		for (size_t i = 0; i < c->nfeeds_also; i++) {
			const char *why = feed_path_error(c->feeds_also[i]);
			if (why)
				schema_error(s, l->kind == YNODE_SEQ ? l->items[i] : l, "feeds.also_at: '%.*s' %s",
					     STR_FMT(c->feeds_also[i]), why);
		}
	}
	struct str content = STR_LIT("summary");
	if (!f || schema_str(s, f, "content", 0, &content) != 1)
		return;
	if (str_eq_cstr(content, "full"))
		c->feeds_full = 1;
	else if (!str_eq_cstr(content, "summary"))
		schema_error(s, schema_node(f, "content"), "feeds.content must be 'full' or 'summary', found '%.*s'",
			     STR_FMT(content));
}

/* read_math_delimiters: math.delimiters (m's): a name or a list of them,
 * dollars and brackets. */
static void read_math_delimiters(struct schema *s, const struct ynode *m, struct config *c)
{
	const struct ynode *dn = schema_node(m, "delimiters");
	struct str *dv = NULL;
	size_t nd = 0;
	int got = 0;
	if (dn && dn->kind == YNODE_SCALAR && !yaml_is_null(dn)) {
		dv = (struct str *)&dn->str; /* one name alone */
		nd = 1;
		got = 1;
	} else {
		got = schema_str_list(s, m, "delimiters", &dv, &nd) == 1;
	}
	if (!got)
		return;
	c->math_dollars = 0;
	for (size_t i = 0; i < nd; i++) {
		if (str_eq_cstr(dv[i], "dollars"))
			c->math_dollars = 1;
		else if (str_eq_cstr(dv[i], "brackets"))
			c->math_brackets = 1;
		else
			schema_error(s, dn->kind == YNODE_SEQ ? dn->items[i] : dn,
				     "math.delimiters: unknown delimiters '%.*s' (known: dollars for $...$ "
				     "and $$...$$, brackets for \\(...\\) and \\[...\\])",
				     STR_FMT(dv[i]));
	}
	if (!nd)
		schema_error(s, dn, "math.delimiters is empty (to turn math off, write math: false)");
}

/* read_math: math: false, true or {delimiters, macros}. */
static void read_math(struct schema *s, const struct ynode *r, struct config *c)
{
	static const char *const math_keys[] = {"macros", "delimiters", "compat", NULL};
	c->math = 1;
	c->math_dollars = 1;
	const struct ynode *m = read_switch(s, r, "math", &c->math, math_keys);
	if (!m)
		return;
	read_math_delimiters(s, m, c);
	struct str compat = {0};
	if (schema_str(s, m, "compat", 0, &compat) == 1) {
		if (str_eq_cstr(compat, "mathjax"))
			c->math_mathjax = 1;
		else if (!str_eq_cstr(compat, "katex"))
			schema_error(s, schema_node(m, "compat"),
				     "math.compat: unknown dialect '%.*s' (known: mathjax, which rewrites what "
				     "MathJax accepts and KaTeX refuses; katex, the default)",
				     STR_FMT(compat));
	}
	const struct ynode *mac = schema_node(m, "macros");
	if (!mac || yaml_is_null(mac))
		return;
	if (mac->kind != YNODE_MAP) {
		schema_error(s, mac, "math.macros must be a map of macro: expansion, found %s", kind_a(mac));
		return;
	}
	for (size_t i = 0; i < mac->len; i++) {
		const char *why = math_macro_check(mac->keys[i]->str);
		if (why)
			schema_error(s, mac->keys[i], "math macro '%.*s': %s", STR_FMT(mac->keys[i]->str), why);
		if (mac->items[i]->kind != YNODE_SCALAR)
			schema_error(s, mac->items[i], "the expansion of macro '%.*s' must be a string",
				     STR_FMT(mac->keys[i]->str));
	}
	c->math_macros = mac;
}

/* read_switches: highlight, smart_punctuation, sidenotes and search, each on or off
 * and the options of the first and the last. */
static void read_switches(struct schema *s, const struct ynode *r, struct config *c)
{
	static const char *const hl_keys[] = {"theme", "warn_unknown", NULL};
	c->highlight = 1;
	c->highlight_theme = STR_LIT("default");
	c->highlight_warn_unknown = 1;
	const struct ynode *h = read_switch(s, r, "highlight", &c->highlight, hl_keys);
	if (h) {
		schema_str(s, h, "theme", 0, &c->highlight_theme);
		schema_bool(s, h, "warn_unknown", &c->highlight_warn_unknown);
	}
	c->smart_punctuation = 1;
	schema_bool(s, r, "smart_punctuation", &c->smart_punctuation);
	c->sidenotes = 0; /* footnotes at the end only, unless asked */
	schema_bool(s, r, "sidenotes", &c->sidenotes);
	static const char *const search_keys[] = {"body", "pages", "stem", NULL};
	c->search = c->search_body = c->search_pages = c->search_stem = 1;
	const struct ynode *sr = read_switch(s, r, "search", &c->search, search_keys);
	if (sr) {
		schema_bool(s, sr, "body", &c->search_body);
		schema_bool(s, sr, "pages", &c->search_pages);
		schema_bool(s, sr, "stem", &c->search_stem);
	}
}

/* override_error: an error about --base-url, counted in s. */
static void override_error(struct schema *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void override_error(struct schema *s, const char *fmt, ...)
{
	struct diag_loc loc = {"--base-url", NULL, 0, 0, 0};
	va_list ap;
	va_start(ap, fmt);
	diag_vreport(s->d, DIAG_ERROR, &loc, NULL, 0, fmt, ap);
	va_end(ap);
	s->errors++;
}

/* check_base_url: the base URL (folio.yml's, or override, --base-url's):
 * not too long, UTF-8, starting with http://, https:// or /. */
static void check_base_url(struct schema *s, const struct ynode *r, struct config *c, const char *override)
{
	if (override)
		c->base_url = str_from(arena_strndup(s->a, override, strlen(override)));
	if (override && strlen(override) > SCHEMA_TEXT_MAX) {
		override_error(s, "base URL is %zu bytes long, more than %d: it is repeated on every page",
			       strlen(override), SCHEMA_TEXT_MAX);
	} else if (override && utf8_valid_prefix(override, strlen(override)) != strlen(override)) {
		/* it goes into every page */
		struct buf shown;
		buf_init(&shown);
		utf8_show(&shown, str_from(override));
		override_error(s, "base URL '%s' is not UTF-8", shown.p);
		buf_fini(&shown);
	} else if (c->base_url.len) {
		struct str b = c->base_url;
		if (!override)
			schema_check_len(s, schema_node(r, "base_url"), "'base_url'", SCHEMA_TEXT_MAX, EVERY_PAGE);
		if (str_starts_with(b, "http://") || str_starts_with(b, "https://") || str_starts_with(b, "/"))
			return;
		if (override)
			override_error(s, "base URL '%.*s' must start with http://, https:// or /", STR_FMT(b));
		else
			schema_error(s, schema_node(r, "base_url"),
				     "'base_url' must start with http://, https:// or / (e.g. https://example.org/)");
	}
}

/* deploy_dest_error: why v, a deploy destination (a folder, rsync's
 * [[USER@]HOST:]PATH, a git repository), cannot be one (a static
 * message), or NULL. A password or token in it is refused: folio.yml is
 * part of the site, often public; credentials go where ssh and git keep
 * them. */
static const char *deploy_dest_error(struct str v)
{
	if (!v.len)
		return "is empty";
	if (v.p[0] == '-')
		return "starts with '-', which rsync and git would read as an option";
	for (size_t i = 0; i < v.len; i++)
		if ((unsigned char)v.p[i] < ' ' || v.p[i] == 0x7f)
			return "holds a control character";
	const char *sch = memmem(v.p, v.len, "://", 3);
	if (sch) {
		const char *host = sch + 3, *end = v.p + v.len;
		const char *slash = memchr(host, '/', (size_t)(end - host));
		const char *at = memchr(host, '@', (size_t)((slash ? slash : end) - host));
		if (at && memchr(host, ':', (size_t)(at - host)))
			return "holds a password or token (USER:SECRET@): keep credentials out of folio.yml, in git's "
			       "credential helper or an SSH key";
	}
	return NULL;
}

/* deploy_dest_report: the error why about the destination at n (what
 * names it), at its place but without the excerpt of its line, which may
 * hold a secret. */
static void deploy_dest_report(struct schema *s, const struct ynode *n, const char *what, const char *why)
{
	struct diag_loc loc = {s->path, NULL, 0, n->line, n->col};
	diag_error(s->d, &loc, "%s %s", what, why);
	s->errors++;
}

/* branch_ok: whether b is a branch name git takes (git-check-ref-format,
 * the rules that matter for one name). */
static int branch_ok(struct str b)
{
	if (!b.len || b.p[0] == '-' || b.p[0] == '/' || b.p[0] == '.' || b.p[b.len - 1] == '/' ||
	    b.p[b.len - 1] == '.' || memmem(b.p, b.len, "..", 2) || memmem(b.p, b.len, "//", 2) ||
	    memmem(b.p, b.len, "@{", 2) || memmem(b.p, b.len, "/.", 2) ||
	    (b.len >= 5 && !memcmp(b.p + b.len - 5, ".lock", 5)))
		return 0;
	for (size_t i = 0; i < b.len; i++)
		if ((unsigned char)b.p[i] <= ' ' || b.p[i] == 0x7f || strchr("~^:?*[\\", b.p[i]))
			return 0;
	return 1;
}

/* read_deploy_git: deploy's git: REPO, or {repo: REPO, branch: BRANCH}
 * (default gh-pages). */
static void read_deploy_git(struct schema *s, const struct ynode *dep, struct config *c)
{
	const struct ynode *g = schema_node(dep, "git");
	c->deploy_branch = STR_LIT("gh-pages");
	const struct ynode *repo = g;
	if (g->kind == YNODE_MAP) {
		static const char *const keys[] = {"repo", "branch", NULL};
		schema_check_keys(s, g, keys, "deploy.git");
		int line = s->map_line, col = s->map_col;
		s->map_line = g->line;
		s->map_col = g->col;
		int got = schema_str(s, g, "repo", 1, &c->deploy_dest);
		s->map_line = line;
		s->map_col = col;
		if (got != 1)
			return;
		repo = schema_node(g, "repo");
		if (schema_str(s, g, "branch", 0, &c->deploy_branch) == 1 && !branch_ok(c->deploy_branch)) {
			schema_error(s, schema_node(g, "branch"),
				     "deploy.git.branch '%.*s' is not a name git takes for a branch (letters, digits, "
				     "'-', '_', '.' and '/', as gh-pages or site/main)",
				     STR_FMT(c->deploy_branch));
			return;
		}
	} else if (g->kind == YNODE_SCALAR && !yaml_is_null(g)) {
		c->deploy_dest = g->str;
	} else {
		schema_error(s, g, "deploy.git must be a repository or a map {repo, branch}, found %s", kind_a(g));
		return;
	}
	const char *why = deploy_dest_error(c->deploy_dest);
	if (why) {
		deploy_dest_report(s, repo, "deploy.git's repository", why);
		return;
	}
	c->deploy_kind = CONFIG_DEPLOY_GIT;
}

/* s3_name_ok: whether v is made of lower-case letters, digits, '-' and
 * (with dots) '.', between min and max bytes (a bucket's name, a region) */
static int s3_name_ok(struct str v, size_t min, size_t max, int dots)
{
	if (v.len < min || v.len > max)
		return 0;
	for (size_t i = 0; i < v.len; i++)
		if (!((v.p[i] >= 'a' && v.p[i] <= 'z') || (v.p[i] >= '0' && v.p[i] <= '9') || v.p[i] == '-' ||
		      (dots && v.p[i] == '.')))
			return 0;
	return 1;
}

/* read_deploy_s3: deploy's s3: {bucket, endpoint, region, prefix}. */
static void read_deploy_s3(struct schema *s, const struct ynode *dep, struct config *c)
{
	const struct ynode *m = schema_node(dep, "s3");
	if (m->kind != YNODE_MAP) {
		schema_error(s, m, "deploy.s3 must be a map {bucket, endpoint, region, prefix}, found %s", kind_a(m));
		return;
	}
	static const char *const keys[] = {"bucket", "endpoint", "region", "prefix", NULL};
	if (schema_check_keys(s, m, keys, "deploy.s3"))
		return;
	int line = s->map_line, col = s->map_col, bad = s->errors;
	s->map_line = m->line;
	s->map_col = m->col;
	int got = schema_str(s, m, "bucket", 1, &c->deploy_dest);
	s->map_line = line;
	s->map_col = col;
	if (got != 1)
		return;
	if (!s3_name_ok(c->deploy_dest, 3, 63, 1))
		schema_error(s, schema_node(m, "bucket"), "deploy.s3.bucket '%.*s' is not a bucket name (3 to 63 "
			     "lower-case letters, digits, '-' and '.')", STR_FMT(c->deploy_dest));
	c->deploy_region = STR_LIT("us-east-1");
	if (schema_str(s, m, "region", 0, &c->deploy_region) == 1 && !s3_name_ok(c->deploy_region, 1, 64, 0))
		schema_error(s, schema_node(m, "region"), "deploy.s3.region '%.*s' is not a region name (as "
			     "us-east-1)", STR_FMT(c->deploy_region));
	if (schema_str(s, m, "endpoint", 0, &c->deploy_endpoint) == 1) {
		struct str e = c->deploy_endpoint;
		const char *why = deploy_dest_error(e);
		if (why)
			deploy_dest_report(s, schema_node(m, "endpoint"), "deploy.s3.endpoint", why);
		else if ((!str_starts_with(e, "https://") && !str_starts_with(e, "http://")) || memchr(e.p, '@', e.len) ||
			 memchr(e.p, '?', e.len) || memchr(e.p, '#', e.len))
			deploy_dest_report(s, schema_node(m, "endpoint"), "deploy.s3.endpoint",
					   "must be an address http(s)://HOST[:PORT][/PATH], with no user, query or fragment");
	}
	if (schema_str(s, m, "prefix", 0, &c->deploy_prefix) == 1) {
		struct str p = c->deploy_prefix;
		if (p.p[0] == '/' || memmem(p.p, p.len, "..", 2) || memmem(p.p, p.len, "//", 2) || p.p[p.len - 1] != '/' ||
		    deploy_dest_error(p))
			schema_error(s, schema_node(m, "prefix"), "deploy.s3.prefix '%.*s' must be a folder of the bucket "
				     "ending in '/', as blog/ (nothing for its top)", STR_FMT(p));
	}
	if (s->errors == bad)
		c->deploy_kind = CONFIG_DEPLOY_S3;
}

/* read_deploy: deploy, the one target of folio deploy: {folder: PATH},
 * {rsync: [[USER@]HOST:]PATH} or {git: ...} (folio-site(5), FOLIO.YML). */
static void read_deploy(struct schema *s, const struct ynode *r, struct config *c)
{
	static const char *const keys[] = {"folder", "rsync", "git", "s3", NULL};
	const struct ynode *n = schema_node(r, "deploy");
	if (!n || yaml_is_null(n))
		return;
	c->deploy_at = n;
	if (n->kind != YNODE_MAP) {
		schema_error(s, n, "'deploy' must be a map with one target, as {folder: PATH}, {rsync: HOST:PATH}, "
			     "{git: REPO} or {s3: {bucket: NAME}}, found %s", kind_a(n));
		return;
	}
	if (schema_check_keys(s, n, keys, "deploy"))
		return;
	int kind = 0;
	for (int k = 0; k < 4; k++) {
		const struct ynode *v = schema_node(n, keys[k]);
		if (v && kind) {
			schema_error(s, v, "deploy has both '%s' and '%s': a site deploys to one target", keys[kind - 1],
				     keys[k]);
			return;
		}
		if (v)
			kind = k + 1;
	}
	if (!kind) {
		schema_error(s, n, "deploy names no target: give one of folder, rsync, git or s3");
		return;
	}
	if (kind == 3) {
		read_deploy_git(s, n, c);
		return;
	}
	if (kind == 4) {
		read_deploy_s3(s, n, c);
		return;
	}
	if (schema_str(s, n, keys[kind - 1], 1, &c->deploy_dest) != 1)
		return;
	const char *why = deploy_dest_error(c->deploy_dest);
	if (why) {
		char what[32];
		snprintf(what, sizeof what, "deploy.%s", keys[kind - 1]);
		deploy_dest_report(s, schema_node(n, keys[kind - 1]), what, why);
		return;
	}
	c->deploy_kind = kind == 1 ? CONFIG_DEPLOY_FOLDER : CONFIG_DEPLOY_RSYNC;
}

int config_load(struct arena *a, struct diag *d, const char *site_dir, const char *base_url_override,
		struct config *c)
{
	memset(c, 0, sizeof *c);
	c->path = "folio.yml";
	c->site_dir = arena_strndup(a, site_dir, strlen(site_dir));
	char *text;
	size_t len;
	if (read_text(d, site_dir, &text, &len))
		return 1;
	c->src = arena_strndup(a, text, len);
	c->src_len = len;
	free(text);
	struct schema s = {a, d, c->path, c->src, c->src_len, 0, 1, 1};
	int before = d->errors;
	c->root = yaml_parse(a, d, c->path, c->src, c->src_len, c->src, c->src_len, 0);
	if (!c->root)
		return d->errors - before ? d->errors - before : 1;
	if (c->root->kind != YNODE_MAP) {
		schema_error(&s, c->root, "folio.yml must be a map of settings (key: value), found %s",
			     kind_a(c->root));
		return s.errors;
	}
	const struct ynode *r = c->root;
	schema_check_keys(&s, r, top_keys, "folio.yml");
	read_texts(&s, r, c);
	read_author(&s, r, c);
	int64_t v;
	c->posts_per_page = 10;
	if (schema_int(&s, r, "posts_per_page", 1, 1000, &v) == 1)
		c->posts_per_page = (int)v;
	c->archive_per_page = 100;
	if (schema_int(&s, r, "archive_per_page", 1, 1000, &v) == 1)
		c->archive_per_page = (int)v;
	read_paginate_path(&s, r, c);
	read_images(&s, r, c);
	read_redirects(&s, r, c);
	c->reading_speed = 230;
	if (schema_int(&s, r, "reading_speed", 50, 2000, &v) == 1)
		c->reading_speed = (int)v;
	const struct ynode *sh = schema_node(r, "start_here");
	if (sh && !yaml_is_null(sh)) {
		if (sh->kind != YNODE_SCALAR)
			schema_error(&s, sh, "'start_here' must be a page slug, found %s", kind_a(sh));
		else
			slug_ref_at(&c->start_here, sh);
	}
	read_best_of(&s, r, c);
	read_featured(&s, r, c);
	read_menu(&s, r, c);
	read_feeds(&s, r, c);
	read_math(&s, r, c);
	read_switches(&s, r, c);
	read_links(&s, r, c);
	c->cite_style = 0;
	config_read_citations(&s, r, &c->bibliography, &c->cite_style);
	check_base_url(&s, r, c, base_url_override);
	read_deploy(&s, r, c);
	return s.errors;
}
