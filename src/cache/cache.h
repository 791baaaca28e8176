/* cache.h: the site's .folio-cache/ folder, which only this module lays
 * out, versions, writes into and cleans. Other modules ask it for the path
 * of a kind of file of its catalogue (catalogue.h: cache_path,
 * cache_output_path, cache_key_path), read it (cache_read, cache_map,
 * cache_pack_map) and hand it bytes (cache_write) or an open file to fill
 * (cache_file_open ... cache_file_commit).
 *
 * Layout, below SITE/.folio-cache/ (catalogue.c has each file's format,
 * owner and fuzz target):
 *   VERSION                 "folio-cache N": the layout; another N (an older
 *                           or newer folio) and the folder is emptied first
 *   markdown.pack           rendered Markdown (mdcache.c's format)
 *   search.pack             each document's counts for the search index
 *                           (search/pack.c's format)
 *   math/KEY.cache          typeset formulas, one file per KaTeX and macros
 *   related                 the related posts of every post (site.c's format)
 *   frontmatter             parsed front matter trees (fmcache.c's format)
 *   sources                 what the last build learnt of each content file
 *                           (srccache.c's format)
 *   external-links          the last answers of `folio check --external`
 *   output-HASH, pages-HASH, uptodate-HASH, spare-HASH
 *                           the state of the output folder whose absolute
 *                           path hashes to HASH (its manifest, what each page
 *                           read, the up-to-date check with every input's
 *                           stamp and the hash of its bytes, and the manifest
 *                           of its spare: the site the last build swapped
 *                           out, kept beside it as .OUT.folio-spare to be the
 *                           next build's staging folder, see output/spare.c),
 *                           for the CACHE_KEEP_OUTPUTS folders built into
 *                           last; a spare whose state is pruned is deleted
 *                           with it (output_prune)
 *   deploy/KEY.record       what folio deploy put on the target whose
 *                           identity hashes to KEY (deploy/plan.c's format)
 *   deploy/KEY.git          a bare git repository of a git target's branch
 *                           tip (deploy/git.c: git writes and reads it)
 * Every file is written whole to a temporary name beside it and renamed
 * over the old one: a reader sees the old file or the new, never a part;
 * but markdown.pack, whose new entries are added at its end
 * and search.pack, whose new entries are added at their end
 * (cache_file_extend, cache_pack_save), the count last, so that a reader
 * sees the entries counted and tells a cut end.
 * Losing any of them is never wrong, only slower: the next build redoes
 * the work.
 *
 * Folder cache/: .folio-cache: its layout, the catalogue of its files,
 * atomic writes, and the formats of what is kept between builds (front
 * matter, sources' records, rendered Markdown).
 * uses: base, formats, files, md.
 */
#ifndef FOLIO_CACHE_H
#define FOLIO_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "cache/catalogue.h"

#define CACHE_DIR ".folio-cache"
#define CACHE_VERSION 1

/* CACHE_KEEP_OUTPUTS: how many output folders keep their state files;
 * those of the folders built into least recently go (cache_prune), so that
 * building into many folders (tests, previews) does not grow the cache
 * without end. */
#define CACHE_KEEP_OUTPUTS 8

/* cache_path: the file of kind k (one per site: SITE/.folio-cache/NAME),
 * or the folder of its files (CACHE_ROOT: SITE/.folio-cache; a keyed
 * kind's: SITE/.folio-cache/NAME); malloc'd. Not for a kind with a file
 * per output (cache_output_path). */
char *cache_path(const char *site_dir, enum cache_kind k);

/* cache_key_path: the file of the keyed kind k for key,
 * SITE/.folio-cache/NAME/KEY.SUFFIX (KEY: 16 hex digits); malloc'd. */
char *cache_key_path(const char *site_dir, enum cache_kind k, uint64_t key);

/* cache_output_path: the state file NAME-HASH of kind k (one per output)
 * of the output folder out_dir (HASH: of its absolute path); malloc'd, or
 * NULL when the site or the output's parent cannot be resolved. */
char *cache_output_path(const char *site_dir, const char *out_dir, enum cache_kind k);

/* cache_output_sibling: the state file of kind k of the same output
 * folder as the state file path (any kind); malloc'd, or NULL. */
char *cache_output_sibling(const char *path, enum cache_kind k);

/* cache_output_kind: the kind of the state file path (by its name), or
 * CACHE_KINDS when it is not one. */
enum cache_kind cache_output_kind(const char *path);

/* cache_open_dir: makes SITE/.folio-cache (and the folder of the keyed
 * kind k below it; CACHE_ROOT: none) if need be, first emptying a folder
 * of another layout version. 0, or -1 with errno. */
int cache_open_dir(const char *site_dir, enum cache_kind k);

/* cache_read: the cache's file path, of kind k, read whole (malloc'd,
 * NUL-terminated, *len bytes), or NULL when it is missing, cannot be
 * read, or is bigger than the catalogue's bound for k (the caller then
 * makes what it held anew). */
char *cache_read(const char *path, enum cache_kind k, size_t *len);

/* A file being written: cache_file_open creates a temporary file beside
 * path; cache_file_commit closes it and renames it to path (0), or removes
 * it (-1, errno set); cache_file_abort removes it. */
struct cache_file {
	int fd;
	char *tmp;
	const char *path;
};
int cache_file_open(struct cache_file *f, const char *path);
int cache_file_commit(struct cache_file *f);
void cache_file_abort(struct cache_file *f);

/* cache_file_extend: the file path opened to add bytes to its end (fd at
 * its end, locked against another folio doing the same), if it is still
 * the file dev, ino of len bytes that the caller read: 0, or -1 (then it
 * is written anew). cache_file_extend_end closes it (and unlocks). A file
 * extended in place is not whole until the caller says so in it (a count
 * in its head, written last): its readers must tell a cut end. */
int cache_file_extend(struct cache_file *f, const char *path, uint64_t dev, uint64_t ino, size_t len);
int cache_file_extend_end(struct cache_file *f);

/* A pack: a file of entries that a build adds to at its end (markdown.pack,
 * search.pack): a head of CACHE_PACK_HEAD bytes (the format's magic line,
 * at most 16 bytes with its newline, padded with NULs, then the number of
 * entries, a u64) and the entries, which only the caller reads. A pack
 * remembers the file as it was last read or written, so that a save adds
 * to that file, or writes it anew. */
#define CACHE_PACK_HEAD 24
struct buf;
struct cache_pack {
	const char *path;
	const char *magic;
	uint64_t dev, ino;
	size_t len, count; /* the file's bytes and entries (read or written) */
	int whole;         /* read to its end: entries may be added to it */
};

/* cache_pack_map: pk's file mapped read-only (*len bytes), if it is a
 * regular file of at least a head that begins with pk's magic; its
 * identity noted in pk (whole is 0 until the caller has read it all);
 * NULL else. *count: the entries its head counts. */
void *cache_pack_map(struct cache_pack *pk, size_t *len, uint64_t *count);

/* cache_pack_put_fn: writes entries into fd (gathered in b, which the
 * pack writes out at the end): all of them (all), or only those the file
 * has not (added at its end). Returns the number written, or -1. */
typedef long (*cache_pack_put_fn)(void *ctx, int fd, struct buf *b, int all);

/* cache_pack_flush: b written to fd and emptied once it holds a MB (for
 * put functions); 0, or -1. */
int cache_pack_flush(int fd, struct buf *b);

/* cache_pack_save: the entries put writes added at the end of pk's file
 * (unless rewrite, or the file is not whole or not the one read), its
 * count last; else the file written anew, whole, through a temporary
 * file. 0 (with *anew: written anew), or -1 with errno. */
int cache_pack_save(struct cache_pack *pk, int rewrite, cache_pack_put_fn put, void *ctx, int *anew);

/* cache_write: the file path made p[0..n), whole or not at all. 0, or -1
 * with errno. */
int cache_write(const char *path, const void *p, size_t n);

/* cache_write_with: the file path made whole (or not at all) of what
 * fill(ctx, out, flush, fctx) puts into out: fill may call flush(fctx,
 * out) as it goes (out's bytes are written once it holds a MB, and out
 * emptied: 0, or -1 to stop), and what is left in out when it returns
 * (0, or -1: nothing is written) is written last. For a big file made a
 * piece at a time. 0, or -1. */
typedef int (*cache_flush_fn)(void *fctx, struct buf *out);
int cache_write_with(const char *path, int (*fill)(void *ctx, struct buf *out, cache_flush_fn flush, void *fctx),
		     void *ctx);

/* cache_store: save(ctx) (0, or -1 with errno) once the site's cache
 * folder is there (made if missing); a failure is a warning on stderr,
 * "CACHE_DIR/NAME: warning: cannot save WHAT (why); THEN", NAME, WHAT and
 * THEN those of kind k in the catalogue. */
void cache_store(const char *site_dir, enum cache_kind k, int (*save)(void *), void *ctx);

/* cache_remove_all: the site's cache folder removed, with everything in
 * it (folio import: a build's cache is not part of the new site). */
void cache_remove_all(const char *site_dir);

/* cache_remove: removes the cache's file path, if it is there. */
void cache_remove(const char *path);

/* cache_map: the cache's file path, mapped whole (private: what is
 * written into it stays in memory; the cache's files are replaced by
 * rename, never rewritten in place, so the mapping stays what was read),
 * its size in *len; NULL when it is missing, empty or not a regular file.
 * cache_unmap gives it back. */
void *cache_map(const char *path, size_t *len);
void cache_unmap(void *p, size_t len);

/* cache_sweep: in the folder of the keyed kind k, removes its files but
 * the one at keep (a path, or NULL), and temporary files older than an
 * hour (left by a build that died). */
void cache_sweep(const char *site_dir, enum cache_kind k, const char *keep);

/* cache_sweep_keys: in the folder of the keyed kind k, removes its files
 * but those of keys[0..n) (sorted here), and temporary files older than
 * an hour. */
void cache_sweep_keys(const char *site_dir, enum cache_kind k, uint64_t *keys, size_t n);

/* cache_prune: removes the state files of all but the CACHE_KEEP_OUTPUTS
 * output folders built into last. */
void cache_prune(const char *site_dir);
/* cache_prune_with: cache_prune, calling gone(path, ctx) first with the
 * path of each state file it removes (whether there or not), so that
 * what the file describes can go too (output_prune: a spare). */
void cache_prune_with(const char *site_dir, void (*gone)(const char *path, void *ctx), void *ctx);

#endif
