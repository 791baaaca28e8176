/* catalogue.h: every file of the site's .folio-cache/, named once. Each
 * kind of cache file has an entry: its name (or the prefix of its names),
 * how many there are (one per site, one per output folder, one per key in
 * a folder of its own), the format of its bytes, the module that reads
 * and writes it, the fuzz target that reads such bytes, and the most a
 * reader takes of it. Every opener asks cache.h for a path by kind
 * (cache_path, cache_output_path, cache_key_path) and reads through
 * cache_read; cache_prune knows the per-output files from here. No cache
 * file's name is written anywhere else. */
#ifndef FOLIO_CATALOGUE_H
#define FOLIO_CATALOGUE_H

#include <stddef.h>

enum cache_kind {
	CACHE_ROOT,        /* the folder itself */
	CACHE_LAYOUT,      /* VERSION */
	CACHE_MARKDOWN,    /* markdown.pack */
	CACHE_SEARCH,      /* search.pack */
	CACHE_MATH,        /* math/KEY.cache */
	CACHE_RELATED,     /* related */
	CACHE_FRONTMATTER, /* frontmatter */
	CACHE_SOURCES,     /* sources */
	CACHE_EXTERNAL,    /* external-links */
	CACHE_MANIFEST,    /* output-HASH */
	CACHE_PAGES,       /* pages-HASH */
	CACHE_UPTODATE,    /* uptodate-HASH */
	CACHE_SPARE,       /* spare-HASH */
	CACHE_IMAGES,      /* images/KEY.img */
	CACHE_DEPLOY,      /* deploy/KEY.record */
	CACHE_DEPLOY_GIT,  /* deploy/KEY.git */
	CACHE_KINDS
};

/* How many files of a kind there are, and how they are named. */
enum cache_scope {
	CACHE_FOLDER, /* the cache's folder */
	CACHE_SITE,   /* one file, NAME */
	CACHE_OUTPUT, /* one per output folder, NAME-HASH (HASH: of its absolute path) */
	CACHE_KEYED,  /* files NAME/KEY.SUFFIX in a folder of their own (KEY: 16 hex digits) */
};

struct cache_entry {
	enum cache_kind kind;
	const char *name; /* its name, prefix or folder (NULL: the cache's folder) */
	enum cache_scope scope;
	const char *suffix; /* CACHE_KEYED: its files' */
	const char *format; /* what its bytes are */
	const char *owner;  /* the module that knows the format */
	const char *fuzz;   /* the fuzz target that reads such bytes (tests/fuzz/fuzz_NAME.c), or NULL */
	size_t max;         /* the most cache_read reads of it (0: never read whole: mapped) */
	/* for cache_store's warning when it cannot be saved: what it holds,
	 * and what that costs (NULL: not saved through cache_store) */
	const char *what, *then;
};

/* cache_entry: the entry of kind k. */
const struct cache_entry *cache_entry(enum cache_kind k);

#endif
