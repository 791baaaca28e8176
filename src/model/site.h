/* site.h: the model of the whole site, computed from config and content:
 * published posts in date order, series with their order and totals, tags,
 * categories, years, neighbours, related posts, and the home page's lists.
 *
 * Folder model/: the model of the site from config and content: Markdown
 * of every document, order, series, terms, years, related posts; the
 * bodies' links made final, and which posts link to which (backlinks).
 * uses: base, formats, files, md, cache, read.
 */
#ifndef FOLIO_SITE_H
#define FOLIO_SITE_H

#include "read/config.h"
#include "read/content.h"
#include "cache/mdcache.h"

/* A tag or a category: its name (the spelling most of its posts use; see
 * build_terms in site.c), its URL slug (term_slug), and its posts, newest
 * first. */
struct term {
	struct str name, slug;
	struct post **posts;
	size_t nposts, cap;
};

struct year {
	int year;
	struct post **posts;
	size_t nposts;
};

struct related {
	struct post *post;
	const char *reason; /* "previous in the series", "next in the series", "shared tags", "recent" */
};

struct best_pick {
	struct post *post;
	struct str note;
};

/* The terms of one published post, in the order of its front matter, each
 * once (a tag written twice, or in two spellings, is listed once). */
struct post_terms {
	struct term **tags;
	size_t ntags;
	struct term *category; /* NULL: none */
};

struct build_opts {
	int drafts;      /* build drafts */
	int future;      /* build posts dated in the future */
	int64_t now;     /* what "the future" is measured from (seconds since the epoch) */
	int jobs;        /* worker threads for Markdown */
	int max_related; /* related posts per post */
	const char *static_dir; /* the site's static/, for local images */
	md_highlight_fn highlight;
	md_typeset_fn typeset;
	void *typeset_ctx;
	double typeset_seconds; /* md_options' */
	const char *md_labels[MD_LABELS]; /* md_options' labels: the site's language */
	/* md_options' directives of the site and their renderer */
	const struct md_udir *udirs;
	size_t nudirs;
	md_udir_fn udir_render;
	void *udir_ctx;
	/* Rendered documents kept between builds (NULL: none); md_salt is
	 * what every key includes (config, options), files_stamp the state of
	 * the files documents may read (static/, bundles). */
	struct md_cache *md_cache;
	uint64_t md_salt, files_stamp;
	int md_borrow; /* the cache refers to the HTML in the build's arena
	                * (see md_cache_put), and is saved before it goes */
	/* Related posts kept between builds (NULL: none): reused while every
	 * published post keeps its place, date, tags and series neighbours. */
	struct related_cache *related_cache;
};

/* related_cache_new, related_cache_free: for build_opts.related_cache. */
struct related_cache *related_cache_new(void);
void related_cache_free(struct related_cache *rc);

/* Kept between processes (in .folio-cache): related_cache_write puts rc's
 * lists into b as bytes (none when it holds none); related_cache_read
 * makes rc what such bytes hold: 0, or -1 when they are not whole and
 * valid, leaving rc empty (the lists are then made anew). A build reuses
 * them only when everything they were made of is the same (their shape, a
 * 128-bit hash of it). related_cache_dirty: whether rc was made anew since
 * it was last read or written. */
void related_cache_write(struct related_cache *rc, struct buf *b);
int related_cache_read(struct related_cache *rc, const void *p, size_t len);
int related_cache_dirty(const struct related_cache *rc);

struct site {
	const struct config *cfg;
	struct content *content;
	struct post **posts; /* published, newest first */
	size_t nposts;
	int64_t next_future; /* the earliest date of a post left out as future; 0: none */
	struct series **series; /* by weight, then title */
	size_t nseries;
	struct series **featured; /* for the home page */
	size_t nfeatured;
	struct term *tags; /* by name */
	size_t ntags;
	struct term *categories;
	size_t ncategories;
	struct post_terms *post_terms; /* per post (by post->index) */
	struct year *years; /* newest first */
	size_t nyears;
	struct page **pages;
	size_t npages;
	struct page *start_here;
	struct best_pick *best_of;
	size_t nbest_of;
	struct related **related; /* per post (by post->index), max_related each */
	size_t *nrelated;
	/* per post (by post->index), set by site_rewrite_links: the published
	 * posts whose bodies link to it (newest first, each once, not itself),
	 * and those its own body links to (in the order of its links) */
	struct post ***backlinks;
	size_t *nbacklinks;
	struct post ***links_to;
	size_t *nlinks_to;
	/* site_rewrite_links's maps (a source's path to its page's URL, a
	 * post's URL to it), kept for site_patch_post (malloc'd: site_free) */
	struct map *link_maps;
	int total_minutes;
	struct arena **worker_arenas; /* Markdown results of each worker thread */
	int nworkers;
	/* the fingerprinted names of the theme's assets (THEME_ASSETS, in its
	 * order; theme.h), set by the reading stage; NULL: the theme's own */
	const char **asset_names;
	/* the .bib files the documents name, parsed (biblio.c) */
	struct bibtex **bibs;
	size_t nbibs, cap_bibs;
};

/* site_reserved: the names at the site's root that folio's own pages and
 * files take (folders such as "tags", files such as "feed.xml"): no page
 * may have one as its slug. NULL-terminated. Its "page" stands for
 * folio.yml's paginate_path ("page" unless it says another). */
extern const char *const site_reserved[];

/* site_build: renders every post's, series guide's and page's Markdown (on
 * opts->jobs threads) and computes the model. Reports every inconsistency
 * (unknown series, duplicate slugs, two posts at one series position, a
 * best_of or recommended_start naming a missing post, ...) to d. Returns
 * the number of errors. */
int site_build(struct arena *a, struct diag *d, const struct config *cfg, struct content *c,
	       const struct build_opts *opts, struct site *out);

/* site_bibliographies: reads and parses once each .bib file that
 * folio.yml's bibliography: or a post's or page's front matter names
 * (site-relative paths), reporting to d a file that is missing at the key
 * that names it and each error of a file at its own file:line:col; sets
 * every post's, page's and series guide's bibs, bib_hash and bib_style
 * (source.h). Returns the number of errors. The parsed files are s's
 * until site_bibliographies_free (site_free calls it). */
int site_bibliographies(struct arena *a, struct diag *d, struct site *s, struct content *c);
void site_bibliographies_free(struct site *s);

/* site_rewrite_links: the HTML of every post, series guide and page with
 * its links made final (links_rewrite): `.md` and `@/` links to the URL of
 * the document they name (a post left out of this build: where it will
 * be), root-relative URLs under base's path ("/blog/"); and, from the same
 * scan of the posts' bodies, which posts link to which (backlinks,
 * links_to): a link counts whatever its form (`x.md`, `@/posts/x.md`,
 * `/posts/x/`, `../x/`, the site's own absolute URL; a #fragment or
 * ?query ignored), in an href or not (a post's image under another's
 * folder is no link to that post: only the post's own URL counts). */
void site_rewrite_links(struct arena *a, struct site *s, const char *base);

/* site_free: frees the worker arenas (the rest lives in the build's arena). */
void site_free(struct site *s);

/* site_image_rule: o's resized-image settings (md_picture_widths) from
 * cfg's images: (none when images are off); o's other fields untouched. */
void site_image_rule(const struct config *cfg, struct md_options *o);

/* site_patch_post: folio serve, after the file of published post i was
 * saved again with text[0..len) (in a, the build's arena): when its front
 * matter is the same bytes, its document is rendered again into the model
 * (links under base as site_rewrite_links makes them) and 0 is returned.
 * 1, with the model as it was: the whole build must run (another front
 * matter, text that is not UTF-8, a message about the document, which the
 * build reports (none is reported here), another reading time or 3D
 * model, which other pages and files count, another set of posts it
 * links to, whose backlinks change, or a document with labels or
 * cross-references, before or after: other posts may show its labels,
 * and it theirs). */
int site_patch_post(struct arena *a, struct site *s, const struct build_opts *opts, size_t i, const char *text,
		    size_t len, const char *base);

#endif
