/* mdcache.h: rendered Markdown kept between builds of one process (folio
 * serve), so that a rebuild renders only the documents that changed. An
 * entry is found by a 128-bit hash of everything its rendering depends on
 * (md_cache_key); documents that read files (images, videos, models) are
 * also tied to a stamp of those files. */
#ifndef FOLIO_MDCACHE_H
#define FOLIO_MDCACHE_H

#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "md/markdown.h"

struct md_key {
	uint64_t lo, hi;
};

struct md_cache;

/* md_cache_new: an empty cache. md_cache_free frees it and every entry. */
struct md_cache *md_cache_new(void);
void md_cache_free(struct md_cache *c);

/* md_cache_open: a cache kept in the file path (a pack of entries, mapped
 * into memory: entries are read only when used). A missing, truncated or
 * foreign file gives an empty cache. */
struct md_cache *md_cache_open(const char *path);

/* md_cache_save: writes the entries the cache holds (after a sweep: those
 * the last build used) back to its file, through a temporary file and a
 * rename, when they differ from what the file holds. 0 (also for a cache
 * without a file), or -1 with errno set. */
int md_cache_save(struct md_cache *c);

/* md_cache_store: md_cache_save into the site's cache folder (made if
 * missing, cache.h); a failure is a warning on stderr (the next build
 * renders the Markdown again). */
void md_cache_store(struct md_cache *c, const char *site_dir);

/* md_cache_store_begin: the Markdown stage is over (every document was
 * looked up or stored): the cache is swept and stored on a thread of its
 * own, beside the rest of the build (the pack holds the HTML of every
 * document, as much as the pages, and writing it after them made a build
 * that much longer). md_cache_store_end waits for it; when no thread could
 * be started, it stores the cache then if committed. Nothing may use the
 * cache in between. */
void md_cache_store_begin(struct md_cache *c, const char *site_dir);
void md_cache_store_end(struct md_cache *c, int committed);

/* md_cache_key: the key of a document: salt (what is the same for the
 * whole build: folio's version, the config, the options), its kind, path,
 * body (its length, and body_hash: md_cache_body_hash of it), first line
 * and asset folder (asset_dir may be NULL). */
struct md_key md_cache_key(uint64_t salt, int kind, const char *path, size_t len, uint64_t body_hash, int body_line,
                           const char *asset_dir);
/* md_cache_body_hash: a hash of a document's body (never 0). */
uint64_t md_cache_body_hash(const char *body, size_t len);

/* md_cache_html_hash: the hash of a document's HTML p[0..len) that an
 * entry keeps (md_doc.html_hash); the records of what pages read
 * fingerprint text with the same hash (rebuild_text_hash), so that a
 * document's HTML is not hashed again. */
uint64_t md_cache_html_hash(const char *p, size_t len);

/* md_cache_get: on a hit, fills *doc and returns 1. Its strings point into
 * the cache and stay valid until the second md_cache_sweep after this call
 * (the sweep that ends this build keeps what it used); the table of
 * contents is copied into a. An entry of a document that reads files
 * counts only while files_stamp is the one it was stored with. Thread-safe. */
int md_cache_get(struct md_cache *c, const struct md_key *k, uint64_t files_stamp, struct arena *a,
                 struct md_doc *doc);

/* md_cache_put: stores a copy of doc under k. An entry of the same key
 * stored with another files_stamp (one md_cache_get does not return) is
 * replaced; one it returns is kept (a build may point into it). With
 * borrow, doc's HTML is not copied: the entry refers to it, so it must
 * stay as it is until the cache is saved and freed (a build that saves
 * its cache before its arena goes: a big page's HTML is not copied, nor
 * its memory touched, a second time). Thread-safe. */
void md_cache_put(struct md_cache *c, const struct md_key *k, uint64_t files_stamp, const struct md_doc *doc,
                  int borrow);

/* md_cache_forget: the entry of k, which md_cache_get just returned,
 * found stale by the caller (a file its document included changed: its
 * deps): no more returned, replaced by the next md_cache_put of k, and
 * dropped by the next sweep if none comes. The caller must not use what
 * md_cache_get filled in. Thread-safe. */
void md_cache_forget(struct md_cache *c, const struct md_key *k);

/* md_cache_sweep: drops the entries that neither md_cache_get returned nor
 * md_cache_put stored since the last sweep. Call it after a build, once
 * nothing of the build before it is in use. */
void md_cache_sweep(struct md_cache *c);

/* md_cache_count, md_cache_bytes: entries, and the bytes they hold. */
size_t md_cache_count(const struct md_cache *c);
size_t md_cache_bytes(const struct md_cache *c);

#endif
