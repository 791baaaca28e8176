/* import.h: folio import: the model of an imported site (posts, pages,
 * series), the report of what was not converted, and the writing of the
 * new site folder. The readers of other generators (jekyll.c) fill the
 * model; import.c writes it and builds the result. Internal to src/import/
 * and main.c.
 *
 * Folder import/: folio import: another generator's site (Jekyll, Hugo)
 * read into a model and written as a folio site.
 * uses: base, formats, files, md, cache, read, model, output, pipeline.
 */
#ifndef FOLIO_IMPORT_H
#define FOLIO_IMPORT_H

#include <stddef.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/diag.h"

enum imp_kind { IMP_POST, IMP_PAGE, IMP_SERIES };

/* A list of strings, owned by the arena of the import. */
struct imp_list {
	const char **v;
	size_t n, cap;
};

/* One document of the new site. Every string is owned by the import's
 * arena; NULL (or an empty list) leaves the key out of the front matter. */
struct imp_doc {
	enum imp_kind kind;
	const char *src_path; /* SRC-relative, for the report ("_posts/2017-01-01-x.md") */
	const char *slug;     /* the file name in the new site, without .md */
	const char *title;
	const char *date;    /* folio's spelling: YYYY-MM-DD[ HH:MM:SS] or RFC 3339 */
	const char *updated; /* the same */
	const char *summary;
	const char *description;
	const char *category;
	const char *series; /* a series slug */
	const char *image;
	int series_order;   /* 0: none (the order comes from dates) */
	int draft;
	int toc;            /* -1 unset, 0, 1 */
	struct imp_list tags;
	struct imp_list aliases;
	struct imp_list ignore_links;
	struct buf body; /* the converted body (Markdown) */
	const char *bundle;           /* SRC-relative folder of a post's bundle, or NULL */
	const char *page_dir;         /* a page's bundle folder (its files go to static/SLUG/) */
	struct imp_list bundle_files; /* its files, relative to it, copied beside index.md */
	int weight;                   /* Hugo's weight (0: none) */
	int skip;        /* not written (could not be converted, or a collision lost) */
};

/* One construct that was not converted as is: where, and what was done. */
struct imp_finding {
	const char *kind; /* the group: "Liquid include", "kramdown attribute list", ... */
	const char *path; /* SRC-relative */
	int line;         /* 1-based; 0: the whole file */
	const char *what; /* what was found and what was done, one line */
};

/* The report: findings in the order they were made (sorted when written),
 * and the counts of the summary. */
struct imp_report {
	struct imp_finding *v;
	size_t n, cap;
	size_t posts, drafts, pages, series, files, aliases, failed;
	size_t carried; /* files no document names, carried over as they are */
};

/* The whole import: the source and target folders, the site's settings
 * and documents. */
struct imp_site {
	struct arena *a;
	struct diag *d;
	const char *src;      /* SRC as given */
	char *src_root;       /* realpath of SRC (malloc'd): nothing outside it is read */
	const char *dst;      /* DST as given */
	const char *generator; /* "jekyll" */
	/* folio.yml */
	const char *title, *description, *base_url, *timezone, *author;
	int posts_per_page;
	const char *paginate_path; /* folio.yml's paginate_path (NULL: the default) */
	/* folio.yml's math: delimiters with brackets (\( \[), and compat:
	 * mathjax (the templates load MathJax: imp_find_mathjax) */
	int math_brackets, math_mathjax;
	/* the MathJax configuration found names $ as an inline delimiter
	 * (inlineMath: [['$','$']]): $...$ was a formula in the old pages */
	int math_dollar;
	/* folio.yml's feeds.also_at: the old site's feed addresses */
	struct imp_list feeds_also;
	/* folio.yml's redirects: old addresses no document has (a tag's page
	 * of the old theme, a category made a tag) and where they go now */
	struct imp_list redirect_from, redirect_to;
	/* the categories made tags (a post's second and later ones) */
	struct imp_list cats_made_tags;
	/* files made by the import, not copied: static/-relative path, text */
	struct imp_list made_to, made_text;
	/* templates made by the import (a shortcode's directive): DST-relative path, text */
	struct imp_list tmpl_to, tmpl_text;
	struct imp_list config_extra; /* extra folio.yml lines, already YAML */
	struct imp_doc **docs;
	size_t ndocs, capdocs;
	/* static files to copy: SRC-relative path -> static/-relative path */
	struct imp_list copy_from, copy_to;
	struct imp_report rep;
};

/* imp_static_url: the site URL of static/-relative rel ("/" + rel, blanks
 * as %20) followed by suffix (a query or fragment), in the arena. */
const char *imp_static_url(struct arena *a, const char *rel, const char *suffix);

/* imp_missing_image: an image url of doc (source by, line) that is not in
 * SRC: reported, and listed in doc's ignore_links (it is written as it was:
 * a Markdown image (markdown set) as <img>, an HTML attribute unchanged). */
void imp_missing_image(struct imp_site *s, struct imp_doc *doc, const char *by, int line, const char *url,
		       int markdown);

/* imp_unbase: a root-relative url under the old site's base path ("/blog")
 * without it ("/blog/x" -> "/x"; folio adds its own), or NULL. */
const char *imp_unbase(struct arena *a, const char *url, const char *base);

/* imp_site_fini: frees what s holds: its documents' bodies, src_root and
 * the arena. */
void imp_site_fini(struct imp_site *s);

/* imp_list_add: appends s (not copied) to l, growing it in the arena. */
void imp_list_add(struct arena *a, struct imp_list *l, const char *s);
/* imp_list_has: whether l holds a string equal to s. */
int imp_list_has(const struct imp_list *l, const char *s);

/* A directive the import writes calls of: a Hugo shortcode or a Jekyll
 * include folio has no counterpart for, made a directive of the new
 * site's own (templates/directives/NAME.html). */
struct imp_dir {
	const char *name;   /* the directive's */
	const char *orig;   /* the shortcode's or the include's name */
	const char *path;   /* the first call's file (SRC-relative), and line */
	int line;
	const char *keys[32]; /* the arguments calls give and its template reads */
	size_t nkeys;
	int calls;
	int inl; /* called within a line: its template writes phrasing content */
};
struct imp_dirs {
	struct imp_dir *v;
	size_t n, cap;
};
/* imp_dir_call: a call of directive name (orig in the source) giving
 * keys, at path:line, counted in ds; its directive. */
struct imp_dir *imp_dir_call(struct arena *a, struct imp_dirs *ds, struct str orig, const char *name,
                             const char *const *keys, size_t nkeys, int inl, const char *path, int line);
/* imp_dir_key: key (copied) one of d's arguments. */
void imp_dir_key(struct arena *a, struct imp_dir *d, const char *key, size_t n);
/* imp_template_fn: the source's template t[0..n) as a folio directive's
 * body, in b, the parameters it reads noted in d; 0 when it does more than
 * read them (imp_hugo_template, imp_jekyll_template). */
typedef int (*imp_template_fn)(struct arena *a, const char *t, size_t n, struct buf *b, struct imp_dir *d);
/* imp_dir_write: d's template, templates/directives/NAME.html: its
 * arguments declared (as strings), then text (the source's template at
 * rel, len bytes, malloc'd: freed here; NULL: none found) made folio's by
 * conv, or, when conv refuses it, one that shows the content; noted in
 * IMPORT.md as made from rel, or to write from rel (or from missing).
 * kind names the source's ("Hugo shortcode"), from it in the template's
 * comment ("Hugo's shortcode"). */
void imp_dir_write(struct imp_site *s, struct imp_dir *d, const char *kind, const char *from, const char *rel,
                   char *text, size_t len, imp_template_fn conv, const char *missing);

/* imp_hugo_template: a Hugo shortcode's template t[0..n) as a folio
 * directive's body, in b, the parameters it reads noted in d; 0 when it
 * does more than read its parameters and its inner content (or holds what
 * folio's templates would read as their own syntax) (hugo.c).
 * imp_jekyll_template: the same of a Jekyll include's Liquid: include.NAME
 * with the filters default, escape, relative_url; if, elsif and unless on
 * a parameter (jekyll.c). */
int imp_hugo_template(struct arena *a, const char *t, size_t n, struct buf *b, struct imp_dir *d);
int imp_jekyll_template(struct arena *a, const char *t, size_t n, struct buf *b, struct imp_dir *d);

/* imp_note: adds a finding to the report; kind and path are kept as given
 * (arena or static strings), what is formatted into the arena. */
void imp_note(struct arena *a, struct imp_report *r, const char *kind, const char *path, int line, const char *fmt,
	      ...) __attribute__((format(printf, 6, 7)));

/* imp_doc_new: a new document of the site, added to its list; the caller
 * fills it in. */
struct imp_doc *imp_doc_new(struct imp_site *s, enum imp_kind kind, const char *src_path);

/* imp_doc_find: the document of that kind and slug, or NULL. */
struct imp_doc *imp_doc_find(const struct imp_site *s, enum imp_kind kind, const char *slug);

/* imp_copy: marks the SRC-relative file from to be copied to static/to,
 * once (a second call for the same target is a no-op). Returns 1 when the
 * file is a regular file inside SRC (links followed only while they stay
 * inside), 0 when it is missing or leads outside (reported as such by the
 * caller's finding when it matters; a link out of SRC is reported here). */
int imp_copy(struct imp_site *s, const char *from, const char *to, const char *by, int line);

/* imp_copy_dst: imp_copy to a DST-relative path (a bundle's file). */
int imp_copy_dst(struct imp_site *s, const char *from, const char *to, const char *by, int line);

/* imp_feed_at: path (from the site's root, a placeholder {tag},
 * {category} or {series} allowed) was a feed of the old site: folio.yml
 * says feeds.also_at it, and the report says so (by: the file or setting
 * that made it). Folio's own /feed.xml is noted only. */
void imp_feed_at(struct imp_site *s, const char *path, const char *by);

struct ynode;

/* imp_head_page: a page (rel, its front matter m, its old address
 * old_url) whose layout's value is in its <head> (Go's go-import and
 * go-source, which `go get` reads): written as a raw page at its old
 * address that keeps those lines, {{ page.x }} and {{ site.x }} filled in
 * (site: _config.yml, may be NULL): 1; else 0. */
int imp_head_page(struct imp_site *s, const char *rel, const struct ynode *m, const struct ynode *site,
		  const char *old_url);

/* imp_redirect: the old address from (a document's or a listing's of the
 * old site) now lives at to, one of folio's own pages (/tags/x/,
 * /archive/): folio.yml's redirects says so, unless from is to or a
 * redirect from it is there already. by: for the report. */
void imp_redirect(struct imp_site *s, const char *from, const char *to, const char *by);

/* imp_layout_page: a page (rel, its front matter m) whose old layout
 * made one of folio's own listings (a tag's, a category's, the archive,
 * the search page): 1, with its old address (old_url) redirected there;
 * else 0. */
int imp_layout_page(struct imp_site *s, const char *rel, const struct ynode *m, const char *old_url);

/* imp_carry: the SRC-relative file from, which no document names, carried
 * over as it is to static/to (the old site served it at /to): 1; 0 when
 * it cannot be read or /to is where folio writes its own (reported). */
int imp_carry(struct imp_site *s, const char *from, const char *to);

/* imp_read_src: the SRC-relative file rel, read whole (NUL-terminated,
 * malloc'd, *len set), or NULL when it is missing, not a regular file or
 * a link out of SRC (that case reported). */
char *imp_read_src(struct imp_site *s, const char *rel, size_t *len);

/* imp_utf8: text (malloc'd, len bytes) as UTF-8: itself when it is,
 * else a new copy (the old one freed) with each byte that is not UTF-8
 * read as Latin-1, reported once for rel. NUL-terminated. */
char *imp_utf8(struct imp_site *s, char *text, size_t *len, const char *rel);

/* imp_dst_check: 0 when dst does not exist or is an empty folder, else -1
 * after an error. */
int imp_dst_check(struct diag *d, const char *dst);

struct ynode;

/* imp_fmt: printf into the arena. */
const char *imp_fmt(struct arena *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* imp_scalar: a scalar node's text, or NULL (not a scalar, or null). */
const char *imp_scalar(const struct ynode *n);
/* imp_words: a list's scalars, or a scalar (split: its words, split at
 * blanks and commas, as Jekyll's tags), added to l. */
void imp_words(struct arena *a, const struct ynode *n, struct imp_list *l, int split);
/* imp_add_term: adds t to l unless a spelling of the same term is there. */
void imp_add_term(struct arena *a, struct imp_list *l, const char *t);
/* imp_title_from_slug: "my-first-post" -> "My first post", in the arena. */
const char *imp_title_from_slug(struct arena *a, const char *slug);
/* imp_clean_slug: v when folio takes it as a slug, else slugify(v) ("post" when empty). */
const char *imp_clean_slug(struct arena *a, const char *v);
/* imp_alias_from: an old URL as an alias path from /, or NULL (empty, or on another host). */
const char *imp_alias_from(struct arena *a, const char *v);
/* imp_url_decode: %XX -> bytes; malloc'd. */
char *imp_url_decode(const char *u, size_t n);
/* imp_normalize: "." and ".." segments of a path (4096 bytes) resolved in
 * place, no leading '/'; -1 when it climbs above the root. */
int imp_normalize(char *p);

/* imp_fix_slugs: a document whose slug another of its kind took first
 * gets -2, -3, ... (reported); nothing is overwritten. Pages may not take
 * the names of folio's own pages. Run it before bodies link to slugs. */
void imp_fix_slugs(struct imp_site *s);

/* imp_write: resolves slug collisions (reported, the later document
 * renamed), alias clashes, then writes DST: folio.yml, content/, static/
 * and IMPORT.md. 0, or -1 after a file system error reported to s->d. */
int imp_write(struct imp_site *s);

/* imp_build: builds DST with folio's build (drafts and future posts
 * included, into a scratch folder that is removed: DST gets no public/).
 * Messages go to stderr. Returns the number of errors. */
int imp_build(struct imp_site *s);

/* imp_report_text: the report as Markdown (IMPORT.md), into b. built: the
 * result of imp_build (-1: not run). */
void imp_report_text(const struct imp_site *s, int build_errors, struct buf *b);

/* imp_write_report: report (imp_report_text's) written as DST/IMPORT.md,
 * never over a file there. 0, or -1 after "cannot write" reported to
 * s->d. */
int imp_write_report(struct imp_site *s, const struct buf *report);

/* yaml_put_str: s as a double-quoted YAML scalar (every character that
 * needs it escaped), appended to b. */
void imp_yaml_str(struct buf *b, const char *s);

/* imp_action_trim: [*p, *e), the inside of a template action ("{{- x -}}"
 * or "{% x %}" without its braces), narrowed past its '-' trim marks and
 * the blanks around it. */
void imp_action_trim(const char **p, const char **e);

/* imp_date: a date as Jekyll or Hugo write it ("2017-01-01 10:00:00
 * +0100", "2017-01-01T10:00:00Z", "2017-01-01") in folio's spelling, into
 * the arena; NULL when s is not a date. */
const char *imp_date(struct arena *a, const char *s);

/* Jekyll. */

/* The body converter's context: where the text is from (for findings) and
 * how links to posts and files are resolved (each callback may be NULL:
 * then post_url gives /posts/SLUG/ from the name and link gives /PATH). */
struct jk_body {
	struct arena *a;
	struct imp_report *r;
	const char *path; /* SRC-relative, for findings */
	int line_offset;  /* lines of the file before the body */
	void *ctx;
	/* post_url: the new URL of the post named (2017-01-01-x or a path), or
	 * NULL; line: the source line, for a finding */
	const char *(*post_url)(void *ctx, const char *name, int line);
	/* link: the new URL of a file of the site named by {% link %}, or NULL */
	const char *(*link)(void *ctx, const char *path, int line);
	/* url: a local URL of the converted text (line: the source line),
	 * image 0 a link, 1 a Markdown image, 2 a file an HTML attribute
	 * names (src, poster, srcset...): its replacement, or NULL to keep
	 * it. *missing set for a Markdown image whose file is nowhere: the
	 * converter then writes it as raw HTML <img>, which the caller lists
	 * in ignore_links (as it lists an attribute's missing file). */
	const char *(*url)(void *ctx, const char *url, int image, int line, int *missing);
	int hugo; /* the text is Hugo's (shortcodes, Goldmark): no Liquid, no kramdown */
	/* what the body holds as the source's Markdown reads it, counted as
	 * it is converted (NULL: not counted), for the parity check */
	struct imp_counts *counts;
	int mathjax; /* the site loads MathJax (kramdown's \\( \\) is math), or
		      * for Hugo, a renderer that typesets $$ in the browser */
	int dollar;  /* and its configuration makes $...$ inline math (counted so) */
	/* directive: a Hugo shortcode or a Jekyll include folio has no
	 * counterpart for, written as a call of a directive of the new site's
	 * own: its name as the source calls it (orig) and as the directive
	 * (name), the argument names the call gave (positional ones as arg0,
	 * arg1, ...), whether the call is within a line (inl); NULL: such a
	 * shortcode or include stays an HTML comment */
	void (*directive)(void *ctx, struct str orig, const char *name, const char *const *keys, size_t nkeys,
			  int inl, int line);
};

/* The parity check: what a document holds, as its old generator reads it
 * (counted by the converter) and as folio renders the converted text
 * (imp_parity); each kind that differs is listed in IMPORT.md. */
enum imp_kind_count {
	IMP_IMAGES,
	IMP_CODE,
	IMP_DISPLAY,
	IMP_INLINE,
	IMP_TABLES,
	IMP_HEADINGS,
	IMP_LINKS,
	IMP_NCOUNTS
};
struct imp_counts {
	int n[IMP_NCOUNTS];
	int line[IMP_NCOUNTS]; /* the source line of the first of each kind */
	int ref_defs; /* link reference definitions: its links are not compared
		       * (a definition is used any number of times) */
	int pairs;    /* $...$ that kramdown leaves as text and folio typesets
		       * (each said in the report): formulas only folio's page has */
	int bare;     /* bare addresses that folio's Markdown links and the old
		       * one (kramdown) does not: links only folio's page has */
};

/* imp_parity: counts what folio renders of doc's converted body and lists
 * each kind whose count differs from src (by the converter; gen names the
 * old Markdown, "kramdown") as a finding of doc's file (by). */
void imp_parity(struct imp_site *s, struct imp_doc *doc, const char *by, const struct imp_counts *src, const char *gen);

/* jekyll_body: converts a Jekyll post body (Liquid and kramdown) in[0..n)
 * to folio Markdown, appended to out; each construct not converted as is
 * becomes a finding. Pure: reads nothing but the text and the callbacks.
 * Linear in n. */
void jekyll_body(const struct jk_body *c, const char *in, size_t n, struct buf *out);

/* hugo_body: converts a Hugo page body (shortcodes; Goldmark Markdown
 * needs no change) in[0..n) to folio Markdown, appended to out, as
 * jekyll_body does; c->post_url resolves ref and relref (NULL: /PATH).
 * c->hugo must be set. */
void hugo_body(const struct jk_body *c, const char *in, size_t n, struct buf *out);

/* hugo_import: reads the Hugo site s->src into s (config, content/ with
 * its sections and page bundles, static/). 0, or -1 when SRC is not a
 * Hugo site (reported). */
int hugo_import(struct imp_site *s);

/* jekyll_import: reads the Jekyll site s->src into s (config, posts,
 * drafts, pages, collections, static files). 0, or -1 when SRC is not a
 * Jekyll site (reported). */
int jekyll_import(struct imp_site *s);

#endif
