/* content.h: the site's sources: posts, series, pages and data files, read
 * from content/ and data/ with their front matter checked. The later stages
 * (markdown, site) fill in the computed fields of the same structures.
 *
 * Folder read/: the reading stages: folio.yml (config), content/ and data/
 * (content), the templates and the language's words (theme).
 * uses: base, formats, files, md, cache, tmpl.
 */
#ifndef FOLIO_CONTENT_H
#define FOLIO_CONTENT_H

#include "base/arena.h"
#include "base/buf.h"
#include "base/index.h"
#include "read/config.h"
#include "base/diag.h"
#include "md/markdown.h"
#include "formats/schema.h"
#include "formats/yaml.h"
#include "read/notebook.h"

enum difficulty { DIFF_NONE, DIFF_BEGINNER, DIFF_INTERMEDIATE, DIFF_ADVANCED };

/* One Markdown source file. */
struct source {
	const char *path;  /* site-relative: "content/posts/x.md" */
	const char *src;   /* the whole file (arena) */
	size_t len;
	const char *body;  /* after the front matter */
	size_t body_len;
	int body_line;     /* lines before the body */
	const struct ynode *fm; /* the front matter map */
	uint64_t body_hash; /* 0, or a hash of the body (set once, by site.c) */
	const char **ignore_links; /* front matter ignore_links: fnmatch patterns */
	size_t nignore_links;
	int math_off; /* front matter math: false (dollar signs are text here) */
	/* front matter bibliography (its node: a path or a list; NULL: none)
	 * and citation_style (MD_CITE_* + 1; 0: the site's) */
	const struct ynode *bib_node;
	int cite_style;
	const struct ynode *nocite_node; /* front matter nocite (NULL: none) */
	/* the document's bibliographies (the site's and its own, parsed once
	 * per build), a hash of them and of its citation style (in its
	 * Markdown cache key) and the style: set by model/ at each build
	 * (bibs NULL: none) */
	const struct bibtex *const *bibs;
	size_t nbibs;
	const struct str *nocite; /* the keys nocite lists, checked */
	size_t nnocite;
	uint64_t bib_hash;
	int bib_style;
	int sidenotes; /* front matter sidenotes: 0 not said (the site's), 1 true, -1 false */
	/* whether the body may hold a link that links_rewrite changes without
	 * a sub-path base (".md", "@/", or a character reference that may
	 * spell one), or else a link to a post ("/posts/", "../"), which
	 * backlinks look for: 0 not looked at yet, 1 the first, 3 the second
	 * only, 2 neither. Set once, by site.c, so that a session's rebuild
	 * does not scan every body again. */
	int link_hint;
	/* rebuild_text_hash of the body's HTML as last rendered, with the
	 * Markdown cache's salt and file stamp it was rendered under (set by
	 * build.c, kept while the content cache keeps the file) */
	uint64_t html_hash, html_salt;
	size_t html_len;
	/* folio build: what the next build keeps of the file (srccache.h):
	 * the XXH3 of its bytes (0: not known), its front matter's key and
	 * size; and lazy: the file was not read (src and body are NULL, len
	 * and body_len hold), its text is read when needed (source_text), from
	 * abs. no_record: its reading said something, so the next build reads
	 * it again (and says it again). */
	uint64_t content;
	uint64_t fm_key_lo, fm_key_hi;
	size_t fm_len;
	int fm_lines;
	int lazy, no_record;
	const char *abs;
	struct arena *arena; /* where it was loaded, and a lazy one's text goes */
	/* folio build: the slot of the malloc'd block holding src, which the
	 * arena frees (arena_own), or else NULL; source_drop frees it early */
	void **own;
	/* a notebook (read/notebook.h): src is its JSON, body the Markdown
	 * made of its cells (not inside src; body_line 0), rendered by
	 * notebook_render; never lazy, and read again by each build of a
	 * session (its front matter may be a file of its own). NULL: a
	 * Markdown file. */
	const struct notebook *nb;
};

/* source_text: s's text (s->src, with s->body), read now if s is lazy,
 * into a, or (NULL) the arena s was loaded in; a lock keeps two threads
 * from reading the same one, but a must be the calling thread's. NULL
 * after an error, reported to d: the file cannot be read, or it changed
 * since the build stamped it. */
const char *source_text(struct arena *a, struct diag *d, const struct source *s);

/* source_drop: s's text freed once its Markdown is rendered, s lazy again
 * (its text read again if a message needs it): a build of 10,000 posts
 * holds 80 MB of Markdown it no longer reads. Nothing is done to a source
 * whose text cannot be checked when it is read again (no hash, no
 * record) or that was not read into a block of its own (source.own).
 * Returns the bytes freed. */
size_t source_drop(struct source *s);

struct series;

struct post {
	struct source s;
	struct str slug, title, summary, category, description, image;
	struct fdate date, updated;
	int has_updated;
	struct str *tags;
	size_t ntags;
	/* slugify of each tag ("_" for one without letters), and of the
	 * category: not the URLs, which are term_slug's (site.h, post_terms) */
	struct str *tag_slugs;
	struct str category_slug;
	struct str series_slug;
	const struct ynode *series_node; /* for "unknown series" */
	int series_order;                /* 0: none given */
	const struct ynode *order_node;
	int fm_part;                     /* front matter part: its number; -1: none given */
	const struct ynode *part_node, *title_node;
	int difficulty;
	int draft;
	int toc;          /* -1: automatic (on with 3 or more headings) */
	int reading_time; /* 0: computed */
	struct str *aliases;
	size_t naliases;
	const char *bundle_dir; /* absolute path of a bundle's folder, or NULL */

	/* computed by the later stages */
	struct md_doc doc;
	int minutes;
	struct str url; /* "/posts/slug/" */
	struct series *series;
	/* its number in the series, as readers see it (site.c, series_number):
	 * its place among all the series' parts, drafts and future posts
	 * included, counted from the series' numbering, unless its front
	 * matter's part gives it; those after it count on from it */
	int part;
	int place;                   /* 1-based position among the series' published posts */
	struct post *series_prev, *series_next;
	struct post *newer, *older;  /* in time, among all published posts */
	int index;                   /* position in the site's date-sorted list */
	struct series *listed_in;    /* the series whose `posts` list names it */
};

struct series {
	struct source s;
	struct str slug, title, description, best_for, audience;
	int difficulty;
	struct str recommended_start;
	const struct ynode *recommended_node;
	struct str *post_slugs; /* the `posts` list, or NULL */
	const struct ynode *posts_node;
	size_t npost_slugs;
	int featured;
	int weight;
	int numbering; /* the number of its first post: 1 (default) or 0 */
	int number_by_part; /* its posts' equations, figures, tables and listings
	                     * numbered "PART.N" (model/xref.c) */

	struct md_doc doc; /* the guide */
	struct post **posts; /* published members in series order */
	size_t nposts;
	int last_part; /* the number of its last part, drafts and future posts included */
	int minutes;
	struct post *start; /* recommended start */
	struct str url;
};

struct page {
	struct source s;
	struct str slug, title, description, template_name;
	struct fdate updated; /* front matter updated (has_updated) */
	int has_updated;
	int draft;
	int toc;
	struct str *aliases;
	size_t naliases;
	struct md_doc doc;
	struct str url;
};

struct data_file {
	struct str name; /* "home" for data/home.yml */
	const struct ynode *root;
};

struct content {
	struct post **posts;
	size_t nposts;
	struct series **series;
	size_t nseries;
	struct page **pages;
	size_t npages;
	struct data_file *data;
	size_t ndata;
	/* the slugs (from the file names) of post files that could not be
	 * read, whose errors are reported: a series or a list naming one says
	 * nothing more about it */
	struct str **failed;
	size_t nfailed;
	/* the same for series files: their posts do not each report the
	 * series unknown */
	struct str **failed_series;
	size_t nfailed_series;
	/* every source by its path, for content_source (made in the arena
	 * once the files are read: a message about one of 100,000 posts, a
	 * broken link's place, must not scan them all) */
	const struct source **srcs;
	size_t nsrcs;
	struct index by_path;
};

/* content_failed: whether slug is that of a post file that failed;
 * content_series_failed: of a series file. */
int content_failed(const struct content *c, struct str slug);
int content_series_failed(const struct content *c, struct str slug);

/* content_load: reads every post, series, page and data file of the site
 * in a deterministic order (by path). Each front matter problem is reported
 * to d; returns the number of errors. */
int content_load(struct arena *a, struct diag *d, const char *site_dir, const struct config *cfg,
		 struct content *out);

/* A session's cache of parsed files (folio serve): a file whose size,
 * times and inode are as they were, read with the same folio.yml, is not
 * read again. Its post, series or page is handed to the next build again,
 * with the fields that later stages compute cleared. */
struct content_cache;
struct content_cache *content_cache_new(void);
void content_cache_free(struct content_cache *cc);

/* content_load_cached: content_load through cc (NULL: none), reading the
 * files on up to `jobs` threads (the content does not depend on how many).
 * What a build gets from the cache stays valid until the next call with
 * cc. fm (NULL: none) gives the front matter trees of an earlier build
 * (fmcache.h) and keeps those parsed now. */
struct fm_cache;
/* kn (folio build; NULL: none): the stamps of the site's files, with the
 * hash of the bytes of those unchanged since the last build (stamp.h),
 * and the last build's records of its content files (srccache.h): a file
 * whose bytes are those of its record is not read (source.lazy), when its
 * front matter tree is in fm and reading it said nothing. */
struct stamp_list;
struct src_cache;
struct content_known {
	const struct stamp_list *stamps;
	const struct src_cache *records;
};
int content_load_cached(struct arena *a, struct diag *d, const char *site_dir, const struct config *cfg,
			struct content *out, struct content_cache *cc, struct fm_cache *fm,
			const struct content_known *kn, int jobs);

/* content_check_text: 0 if src[0..len) (the file rel, site-relative) is
 * UTF-8 text; else -1 after an error at the first byte that is not, or
 * naming the encoding it is in (UTF-16, UTF-32). */
int content_check_text(struct diag *d, const char *rel, const char *src, size_t len);

/* content_split: splits a file into front matter and body. Returns 1 with
 * fm and fm_len (the YAML text) and the body set, 0 when the file has no front
 * matter (body = everything), -1 after reporting an unclosed one. */
int content_split(struct diag *d, const char *path, const char *src, size_t len, const char **fm,
		  size_t *fm_len, struct source *s);

const char *difficulty_name(int d);

/* content_source: the post, series or page whose file is path
 * (site-relative), or NULL. A walk of every source: for a message's
 * excerpt, not for every page. */
const struct source *content_source(const struct content *c, const char *path);

/* content_text: the text of the content file path (source_text of
 * content_source), for a message's excerpt: a collector's texts
 * (diag_set_texts; ctx: the struct content). */
const char *content_text(void *ctx, struct diag *d, const char *path, size_t *len);

#endif
