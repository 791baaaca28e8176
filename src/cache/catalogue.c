/* catalogue.c: the catalogue of .folio-cache's files (see catalogue.h). */
#include "cache/catalogue.h"

#include "base/buf.h"

#include <assert.h>

#define GB ((size_t)1 << 30)

static const struct cache_entry catalogue[CACHE_KINDS] = {
	{CACHE_ROOT, NULL, CACHE_FOLDER, NULL, "the cache's folder", "cache/cache.c", NULL, 0, NULL, NULL},
	{CACHE_LAYOUT, "VERSION", CACHE_SITE, NULL, "\"folio-cache N\": the layout; another N and the folder is emptied",
	 "cache/cache.c", NULL, 32, NULL, NULL},
	{CACHE_MARKDOWN, "markdown.pack", CACHE_SITE, NULL, "a pack (cache.h) of rendered Markdown documents",
	 "cache/mdcache.c", "mdcache", 0, "the rendered Markdown", "the next build renders it again"},
	{CACHE_SEARCH, "search.pack", CACHE_SITE, NULL, "a pack (cache.h) of each document's counts for the search index",
	 "search/pack.c", "searchpack", 0, "the search index's counts", "the next build counts every document again"},
	{CACHE_MATH, "math", CACHE_KEYED, ".cache", "typeset formulas, one file per KaTeX, glue and macros (its key)",
	 "md/math.c", "mathcache", GB, NULL, NULL},
	{CACHE_RELATED, "related", CACHE_SITE, NULL, "the related posts of every post", "model/site.c", "related",
	 FOLIO_MAX_FILE, NULL, NULL},
	{CACHE_FRONTMATTER, "frontmatter", CACHE_SITE, NULL, "parsed front matter trees", "cache/fmcache.c", "fmcache",
	 GB, NULL, NULL},
	{CACHE_SOURCES, "sources", CACHE_SITE, NULL, "what the last build learnt of each content file",
	 "cache/srccache.c", "srccache", GB, NULL, NULL},
	{CACHE_EXTERNAL, "external-links", CACHE_SITE, NULL, "the last answers of folio check --external",
	 "check/extcheck.c", "extcache", (size_t)64 << 20, NULL, NULL},
	{CACHE_MANIFEST, "output", CACHE_OUTPUT, NULL, "the output's manifest: each file's hash, size, time and inode",
	 "output/manifest.c", "manifest", GB, NULL, NULL},
	{CACHE_PAGES, "pages", CACHE_OUTPUT, NULL, "what each page of the output read (rebuild_save)",
	 "incremental/rebuild.c", "pages", 0, NULL, NULL},
	{CACHE_UPTODATE, "uptodate", CACHE_OUTPUT, NULL,
	 "the up-to-date check: every input's stamp and the hash of its bytes, the warnings said",
	 "incremental/rebuild.c", "uptodate", GB, NULL, NULL},
	{CACHE_SPARE, "spare", CACHE_OUTPUT, NULL,
	 "the manifest of the output's spare (the site the last build swapped out, its next staging folder)",
	 "output/spare.c", "manifest", GB, NULL, NULL},
	{CACHE_IMAGES, "images", CACHE_KEYED, ".img",
	 "a resized copy of an image, as written to the output (WebP, JPEG or PNG; its key: the image's bytes, "
	 "the width, the format and its settings)",
	 "variants/variants.c", "image", (size_t)256 << 20, NULL, NULL},
	{CACHE_DEPLOY, "deploy", CACHE_KEYED, ".record",
	 "what folio deploy put on one target (its key: the target), each file's hash and size",
	 "deploy/plan.c", "deployrecord", GB, NULL, NULL},
	{CACHE_DEPLOY_GIT, "deploy", CACHE_KEYED, ".git",
	 "a bare git repository holding the tip of a git target's branch (its key: the target), made and read by "
	 "git, never by folio", "deploy/git.c", NULL, 0, NULL, NULL},
};

const struct cache_entry *cache_entry(enum cache_kind k)
{
	assert(k >= 0 && k < CACHE_KINDS && catalogue[k].kind == k);
	return &catalogue[k];
}
