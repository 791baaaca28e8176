/* config.h: folio.yml -> struct config, schema-checked. */
#ifndef FOLIO_CONFIG_H
#define FOLIO_CONFIG_H

#include "base/arena.h"
#include "base/buf.h"
#include "base/diag.h"
#include "formats/yaml.h"

struct menu_item {
	struct str label, url;
};

/* A reference to a post or series by slug, with where it was written, so a
 * later stage can report "no such post" at the right place. */
struct slug_ref {
	struct str slug;
	struct str note; /* best_of: the optional one-line note */
	int line, col;
};

enum { CONFIG_MAX_WIDTHS = 8 }; /* images.widths holds at most this many */

struct config {
	const char *path; /* "folio.yml" */
	const char *src;
	size_t src_len;
	struct ynode *root;

	const char *site_dir; /* the folder folio.yml was read from (the stylesheet's fingerprint reads it) */
	struct str title, tagline, description, base_url, language, timezone;
	struct str image; /* the site's picture for link previews (og:image); empty: none */
	struct str logo;  /* the site's square logo (JSON-LD publisher, the feeds' icon); empty: none */
	struct str author_name, author_url, author_email;
	int posts_per_page;
	int archive_per_page; /* the archive's and the year pages' cards per page */
	struct str paginate_path; /* a listing's later pages: /PATH/2/ (default "page") */
	int reading_speed;
	struct slug_ref start_here; /* slug.len == 0: none */
	struct slug_ref *best_of;
	size_t nbest_of;
	struct slug_ref *featured_series;
	size_t nfeatured_series;
	struct menu_item *menu;
	size_t nmenu;
	int feeds;      /* feeds are written */
	int feeds_full; /* feed entries carry the full content, not the summary */
	/* feeds.also_at: more paths of the feeds ("/feed/index.xml", "/tags/{tag}/index.xml"),
	 * checked (see folio-site(5)) */
	struct str *feeds_also;
	size_t nfeeds_also;
	/* redirects: old address -> new (each from "/", checked), their nodes
	 * in folio.yml (for a message at their place) */
	struct str *redirect_from, *redirect_to;
	const struct ynode **redirect_at;
	size_t nredirects;
	int math;
	const struct ynode *math_macros; /* a map, or NULL */
	int math_dollars;  /* math.delimiters has dollars: $...$, $$...$$ (default) */
	int math_brackets; /* ... has brackets: \(...\), \[...\] (off by default) */
	int math_mathjax;  /* math.compat: mathjax (MathJax's TeX rewritten for KaTeX) */
	int highlight;
	struct str highlight_theme;
	int highlight_warn_unknown; /* highlight.warn_unknown: warn for a code block's unknown language */
	int smart_punctuation;
	int sidenotes;    /* footnotes also in the margin (a post's front matter may say otherwise) */
	int search;       /* the search index and page are written */
	int search_body;  /* search.body: the body's text is indexed (else its headings) */
	int search_pages; /* search.pages: pages are indexed beside posts and series */
	int search_stem;  /* search.stem: words are stemmed in the site's language */
	int links_check; /* CONFIG_LINKS_*: what a broken internal link is */
	/* images: resized copies of the site's JPEG and PNG images (off:
	 * images are copied as they are): the widths (ascending, never above
	 * an image's own), WebP and AVIF beside the image's own format, and each
	 * format's quality (1..100) */
	int images;
	int image_widths[CONFIG_MAX_WIDTHS];
	int nimage_widths;
	int images_webp, images_avif;
	int quality_webp, quality_jpeg, quality_avif;
	int avif_line, avif_col; /* where formats names avif, in folio.yml */
	int images_metadata;     /* the copies keep the image's EXIF (camera, place) */
	/* citations: bibliography: (a scalar or a list of scalars, the .bib
	 * files' paths in the site; NULL: none) and citation_style (MD_CITE_*:
	 * 0 numeric, 1 author-year) */
	const struct ynode *bibliography;
	int cite_style;
	/* deploy: the target's kind (CONFIG_DEPLOY_*), its destination (a
	 * folder, relative to the site folder or absolute; rsync's
	 * [[USER@]HOST:]PATH; git's repository) and git's branch (default
	 * gh-pages; s3's bucket); s3's endpoint (default the region's AWS
	 * one), region (default us-east-1) and key prefix ("" or ending in
	 * '/'); deploy_at: the deploy key's value, for messages */
	int deploy_kind;
	struct str deploy_dest, deploy_branch;
	struct str deploy_endpoint, deploy_region, deploy_prefix;
	const struct ynode *deploy_at;
};

enum { CONFIG_LINKS_OFF, CONFIG_LINKS_WARN, CONFIG_LINKS_ERROR };

/* deploy: where folio deploy publishes the built site (folio-site(5),
 * FOLIO.YML): one target, checked here so that folio build reports a wrong
 * one too. */
enum config_deploy_kind { CONFIG_DEPLOY_NONE, CONFIG_DEPLOY_FOLDER, CONFIG_DEPLOY_RSYNC, CONFIG_DEPLOY_GIT, CONFIG_DEPLOY_S3 };

/* config_load: reads DIR/folio.yml into cfg (strings in the arena). Every
 * problem is reported to d; returns the number of errors (0: cfg is valid).
 * base_url_override (or NULL) replaces base_url (folio build --base-url). */
int config_load(struct arena *a, struct diag *d, const char *site_dir, const char *base_url_override,
		struct config *cfg);

/* config_read_citations: bibliography (a path or a list of paths, set
 * in *bib as its node) and citation_style ("numeric" 0, "author-year" 1,
 * in *style) of the map m, folio.yml's or a front matter's, each left
 * alone when absent; returns the number of errors reported to s. */
struct schema;
int config_read_citations(struct schema *s, const struct ynode *m, const struct ynode **bib, int *style);

#endif
