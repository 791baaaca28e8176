/* fmcache.h: parsed front matter kept between builds, so that a warm build
 * does not run every file's YAML through libyaml again. An entry is the
 * tree yaml_parse made of a front matter, found by a 128-bit hash of its
 * text and the line it starts on (the tree depends on nothing else); only
 * trees parsed without a diagnostic are kept, so a front matter with an
 * error is parsed, and reported, every time.
 *
 * Kept in .folio-cache/frontmatter (cache.h) as bytes that this module
 * makes (fm_cache_write) and reads (fm_cache_read); the reading stage
 * (content.c) asks it for trees, and session.c hands the bytes to the
 * cache. */
#ifndef FOLIO_FMCACHE_H
#define FOLIO_FMCACHE_H

#include "base/arena.h"
#include "base/buf.h"
#include "formats/yaml.h"

#include <stddef.h>
#include <stdint.h>

struct fm_key {
	uint64_t lo, hi;
};

struct fm_cache;

/* fm_cache_new: an empty cache of trees made by the folio whose stamp is
 * salt (stamp_binary: another folio may parse otherwise, and reads none
 * of them); fm_cache_free frees it. */
struct fm_cache *fm_cache_new(uint64_t salt);
void fm_cache_free(struct fm_cache *c);

/* fm_cache_read: the entries of bytes p[0..len) (fm_cache_write's) made
 * the cache's, replacing what it held: 0, or -1 when the bytes are not a
 * whole, unchanged file (the cache is then empty). p may go after. */
int fm_cache_read(struct fm_cache *c, const void *p, size_t len);

/* fm_cache_key: the key of the front matter text[0..len) whose first line
 * is line line_offset + 1 of its file. */
struct fm_key fm_cache_key(const char *text, size_t len, int line_offset);

/* fm_cache_get: the tree kept under k, made in a (scalars NUL-terminated,
 * as yaml_parse makes them), or NULL. Thread-safe with other gets and
 * puts. An entry that cannot be a tree yaml_parse makes of a text of
 * lines first..last and columns up to max_col is never returned. */
struct ynode *fm_cache_get(struct fm_cache *c, struct arena *a, struct fm_key k, int first, int last, int max_col);

/* fm_cache_put: keeps tree under k (a copy; thread-safe). */
void fm_cache_put(struct fm_cache *c, struct fm_key k, const struct ynode *tree);

/* fm_cache_dirty: whether the entries to write differ from those read:
 * one was added, or one read was not used since. */
int fm_cache_dirty(const struct fm_cache *c);

/* fm_cache_write: the entries used or added since the cache was read,
 * as bytes into b (replacing its contents). */
void fm_cache_write(struct fm_cache *c, struct buf *b);

#endif
