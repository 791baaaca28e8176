/* srccache.h: what the reading stage learnt of each content file, kept
 * between builds, so that a warm folio build does not read again the files
 * whose bytes did not change. A record is found by the file's
 * site-relative path and holds the hash of its bytes (XXH3, the hash the
 * up-to-date check keeps of every input: stamp_content), where its body
 * starts, its front matter's key in the front matter cache (fmcache.h) and
 * the hashes site.c makes of its body. The file's text is read only when
 * something needs it (source_text): a Markdown cache miss, or a message
 * that shows an excerpt.
 *
 * Kept in .folio-cache/sources (cache.h) as bytes that this module makes
 * (src_cache_write) and reads (src_cache_read); session.c hands them to the
 * cache and content.c asks for records. */
#ifndef FOLIO_SRCCACHE_H
#define FOLIO_SRCCACHE_H

#include "base/buf.h"
#include "cache/fmcache.h"

#include <stddef.h>
#include <stdint.h>

struct src_record {
	uint64_t content;   /* XXH3 of the file's bytes (never 0) */
	uint64_t len;       /* its length */
	uint64_t body_off;  /* where the body starts */
	uint64_t body_hash; /* source.body_hash (never 0) */
	struct fm_key fm;   /* the front matter's key (fm_cache_key) */
	uint64_t fm_len;    /* its length, up to the closing fence */
	int32_t body_line;  /* lines before the body */
	int32_t fm_lines;   /* lines of the front matter's text */
	int32_t link_hint;  /* source.link_hint: 1, 2 or 3 */
};

struct src_cache;

/* src_cache_new: an empty cache of records made by the folio whose stamp
 * is salt (stamp_binary); src_cache_free frees it. */
struct src_cache *src_cache_new(uint64_t salt);
void src_cache_free(struct src_cache *c);

/* src_cache_read: the records of bytes p[0..len) (src_cache_write's) made
 * the cache's, replacing what it held: 0, or -1 when the bytes are not a
 * whole, unchanged file of this salt, or a record in it is not one a
 * build could make (the cache is then empty). p may go after. */
int src_cache_read(struct src_cache *c, const void *p, size_t len);

/* src_cache_get: the record of path, or NULL. Thread-safe with other gets
 * (not with puts). */
const struct src_record *src_cache_get(const struct src_cache *c, const char *path);

/* src_cache_put: r as path's record (replacing one put before); not
 * thread-safe. A record that src_cache_read would refuse is not kept. */
void src_cache_put(struct src_cache *c, const char *path, const struct src_record *r);

size_t src_cache_count(const struct src_cache *c);

/* src_cache_write: every record, as bytes into b (replacing its
 * contents), in the order they were read or put. */
void src_cache_write(const struct src_cache *c, struct buf *b);

#endif
