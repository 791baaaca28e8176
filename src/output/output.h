/* output.h: writing the site: a staging folder beside the output, swapped
 * in with one atomic rename when the build succeeds; a marker file that
 * says a folder is folio's, so folio never deletes anything else.
 *
 * Folder output/: the output folder: staging folder and swap, the spare,
 * the live folder of folio serve, the manifest, copies of static files.
 * uses: base, files, cache.
 */
#ifndef FOLIO_OUTPUT_H
#define FOLIO_OUTPUT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "base/buf.h"
#include "base/diag.h"
#include "cache/catalogue.h"
#include "files/reader.h"

struct output;

/* output_check: whether a build of site_dir may replace out_dir: it does
 * not exist, or is an empty folder, or carries the marker; and it is not
 * /, the site folder or one of its parents, inside the site's sources
 * (content/, templates/, static/, data/, also where a link among them
 * leads) or its .folio-cache/, a parent of one of those, or the home
 * folder or one of its parents. 0, or -1 after reporting why (as "OUT:
 * error: refusing to write the site here: WHY; HINT"). Nothing is changed. */
int output_check(struct diag *d, const char *out_dir, const char *site_dir);

/* output_begin: output_check, then: puts back the old site if a build was
 * killed in the middle of a swap done with two renames, removes staging
 * folders left by killed builds, and takes the spare (the site the last
 * build swapped out, .OUT.folio-spare: output/spare.c) as the staging
 * folder, or else makes a new one (with the marker); its marker is locked
 * while the build runs. NULL after reporting the reason to d. */
struct output *output_begin(struct diag *d, const char *out_dir, const char *site_dir);

/* output_ahead: what output_begin(out_dir, site_dir) reads first, read now
 * on a thread of its own while the build goes on: the output's manifest,
 * the spare's state and the stat of each of the spare's folders (nothing
 * is written, locked or reported). NULL if no thread starts.
 * output_begin_ahead: output_begin, taking of what was read ahead what is
 * still the same (each file the same, the spare's state checked after its
 * lock is taken); ah stays the caller's. output_ahead_join: waits for
 * the reading ahead to end (output_begin_ahead does). output_ahead_free:
 * waits, and frees ah (NULL: nothing).
 *
 * A change by hand inside the spare's folders after they were read ahead
 * is not seen, as one made while the pages are written is not: the spare
 * is folio's own hidden folder; what it guards against is a change made
 * in the output before the last build swapped it out. */
struct output_ahead;
struct output_ahead *output_ahead(const char *out_dir, const char *site_dir);
void output_ahead_join(struct output_ahead *ah);
struct output *output_begin_ahead(struct diag *d, const char *out_dir, const char *site_dir, struct output_ahead *ah);
void output_ahead_free(struct output_ahead *ah);

/* output_write: writes data as rel (e.g. "posts/x/index.html") in the
 * staging folder, making folders as needed. Thread-safe. 0, or -1 after
 * reporting to d. The first write that fails (a full disk) is reported as
 * "OUT/rel: error: cannot write: REASON; HINT"; after it, every write
 * fails at once without a message. */
int output_write(struct output *o, const char *rel, const void *data, size_t len);
/* output_write_parts: output_write of the parts' bytes, one after the
 * other (a page with its post's HTML left where it is). */
int output_write_parts(struct output *o, const char *rel, const struct str *parts, size_t nparts);

/* output_copy_tree: copies every file below src_dir to rel_dir ("" for the
 * top) in the staging folder, skipping hidden and editor files; with
 * skip_md, Markdown files are left out (a post bundle's index.md). Links
 * are followed, but not to a folder that holds them (struct held); such
 * a link, a link to nothing and what is neither a file nor a folder (a
 * named pipe) are skipped with a warning.
 * Returns the number of files copied, or -1 after reporting an error. */
long output_copy_tree(struct output *o, const char *src_dir, const char *rel_dir, int skip_md);

/* output_write_fn: how a file reaches an output (output_write, or a
 * folder kept up to date in place). 0, or -1 after reporting. */
typedef int (*output_write_fn)(void *ctx, const char *rel, const void *data, size_t len);

struct stat;
/* Where files go: write takes bytes; copy, if set, takes a file of the
 * site (path, and what stat(2) said of it) to be copied as rel, so that an
 * output can skip files it already has (NULL: the file is read and handed
 * to write). */
struct output_sink {
	output_write_fn write;
	/* the file path (whose stat is st) copied as rel: 0, -1 (an error,
	 * said), or 1 (not copied: its bytes are read and handed to write);
	 * NULL: always read */
	int (*copy)(void *ctx, const char *rel, const char *path, const struct stat *st);
	void *ctx;
};

/* output_copy_tree_to: output_copy_tree into sink; with root (the site
 * folder's realpath, sitefile.h), only what is inside the site: a link
 * outside it, to nothing, in a circle or to a folder that holds it is an
 * error, never followed (the others are still copied, so that each is
 * told), and src_dir itself must lead inside it. NULL root: as
 * output_copy_tree. With site_dir (the site's folder as given, which
 * src_dir is below), messages name files site-relative ("static/a.png");
 * NULL: as src_dir names them. */
long output_copy_tree_to(struct diag *d, const char *root, const char *site_dir, const char *src_dir,
			 const char *rel_dir, int skip_md, const struct output_sink *sink);

/* A post bundle: its folder, copied to posts/SLUG/. */
struct output_bundle {
	const char *dir;
	struct str slug;
};

/* Files the caller has in memory (the theme's, embedded in folio), each
 * with its name in the output. */
struct output_file {
	const char *name;
	const void *data;
	size_t len;
};
struct output_files {
	const struct output_file *first; /* before the site's static/, which replaces them */
	size_t nfirst;
	const struct output_file *last; /* after every static file (the hashed assets) */
	size_t nlast;
};

/* output_static: theme's first files, the site's static/ folder (which
 * replaces them), each bundle's files (without its Markdown), then
 * theme's last files, handed to sink in that order. Returns the number
 * of errors. */
int output_static(struct diag *d, const char *site_dir, const struct output_files *theme, const struct output_bundle *b,
		  size_t nb, const struct output_sink *sink);

/* output_exists: whether rel was already written (static files yield to
 * generated pages, or the other way round, as the caller decides). */
int output_exists(struct output *o, const char *rel);

/* output_commit: swaps the staging folder in with one atomic rename
 * (renameat2 RENAME_EXCHANGE; the old site is then kept as the spare, or
 * deleted), or two where the file system lacks it. A recycled staging
 * folder first loses the spare's files that this build did not write. The output is checked again just before and
 * just after the swap: a folder that is no longer folio's is never
 * deleted. Frees o. 0, or -1 after reporting (the old output is then
 * untouched). */
int output_commit(struct output *o);

/* output_abort: deletes the staging folder; the old output stays. Frees o. */
void output_abort(struct output *o);

/* output_count: files written so far. */
size_t output_count(const struct output *o);

/* output_keep_no_state: o saves no manifest in the site's .folio-cache
 * (folio check's scratch folder, which is deleted: its state would only
 * push out that of real outputs), and output_cache_file gives NULL. */
void output_keep_no_state(struct output *o);

/* output_cache_file: the state file of kind k (one per output: the
 * cache's catalogue) of this output folder (malloc'd; NULL without a
 * site folder). */
char *output_cache_file(const struct output *o, enum cache_kind k);

/* output_unchanged: 0 when out_dir holds exactly the files the last
 * build's manifest lists, each as that build left it (size, time, inode),
 * and nothing else but folio's marker; else -1. checked: output_check
 * has just found nothing else there, so only the files are looked at. */
int output_unchanged(const char *site_dir, const char *out_dir, int checked);

/* One file of an output as its last build wrote it (output_list). */
struct manifest;
struct output_entry {
	const char *rel;
	uint64_t hash, size; /* XXH3 of its bytes, and their count */
};
struct output_listing {
	struct output_entry *v; /* sorted by rel, each once */
	size_t n;
	struct manifest *m; /* where the paths lie */
};

/* output_list: the files the last build wrote into out_dir (path, XXH3
 * and size, from its manifest: folio deploy's list of what to publish), if
 * out_dir holds exactly those, each as that build left it
 * (output_unchanged), and its marker: 0. -1 with errno ENOENT when no
 * build of site_dir wrote out_dir, ESTALE when the folder changed since;
 * nothing is reported. l is the caller's to output_listing_fini. */
int output_list(const char *site_dir, const char *out_dir, struct output_listing *l);
void output_listing_fini(struct output_listing *l);

/* output_open: the file rel of the output folder out_dir opened to read
 * (a link is not followed): a descriptor, or -1 with errno. */
int output_open(const char *out_dir, const char *rel);

/* output_link: rel as the last build left it (a hard link to its file),
 * if that build's manifest has it and the file is still the one it wrote;
 * else -1 and nothing is done (the caller writes it). Thread-safe. */
int output_link(struct output *o, const char *rel);
/* output_link_same: output_link of rel if the last build wrote it with
 * these bytes (their XXH3 and size, as the manifest has them): a file
 * copied again, known unchanged without being read. */
int output_link_same(struct output *o, const char *rel, uint64_t hash, uint64_t size);

/* output_link_all: output_link of each rels[i] whose keep[i] is set, on
 * `jobs` threads; keep[i] is cleared for each that cannot be (the caller
 * writes it after all). */
void output_link_all(struct output *o, const char *const *rels, unsigned char *keep, size_t n, int jobs);

/* output_linked: of those, the files whose bytes were those of the last
 * build's file, which the new site shares (a hard link) instead of a new
 * copy. The last build's output keeps a manifest (.folio-manifest: hash,
 * size, time and inode of each file) for this; a file changed since, or a
 * damaged manifest, is written anew. */
size_t output_linked(const struct output *o);

/* ---- A folder kept up to date in place (folio serve) ----
 *
 * Each round writes some files and keeps others; live_commit then moves
 * every new file into place with its own rename (a reader sees the old
 * file or the new one, never a part) and deletes the files that the round
 * neither wrote nor kept. A file written with the bytes it already has is
 * left alone (its modification time and ETag stay). */
struct live;

/* live_open: dir must not exist, or be empty, or carry the marker; it is
 * made, with the marker. NULL after reporting to d. */
struct live *live_open(struct diag *d, const char *dir);

/* live_write: rel's new bytes in this round (an output_write_fn: ctx is the
 * struct live). Written beside the old file as a hidden temporary one.
 * Thread-safe. */
int live_write(void *ctx, const char *rel, const void *data, size_t len);
/* live_write_parts: live_write of the parts' bytes, one after the other. */
int live_write_parts(struct live *l, const char *rel, const struct str *parts, size_t nparts);

/* live_copy: the site's file path as rel (an output_sink copy): not read
 * at all when it is the file (same inode, size and times) copied last time.
 * Not thread-safe with live_write of the same rel. */
int live_copy(void *ctx, const char *rel, const char *path, const struct stat *st);

/* live_keep: rel, already in place, stays in this round. Thread-safe. */
void live_keep(struct live *l, const char *rel);
/* live_keep_if: live_keep of rel when it is in place (0), else -1 and
 * nothing is done (the caller writes it). Thread-safe. */
int live_keep_if(void *ctx, const char *rel);
/* live_keep_all: every file in place stays in this round (none is
 * deleted): a round with errors that is committed all the same leaves the
 * pages it could not make as they were. Thread-safe. */
void live_keep_all(struct live *l);

/* live_keep_all_but: live_keep_all, but for the files whose path starts
 * with prefix ("search/"): they go unless kept or written again. */
void live_keep_all_but(struct live *l, const char *prefix);

/* live_commit: ends the round: renames the new files into place and
 * deletes the ones the round left out. *written and *removed count them.
 * 0, or -1 after reporting a failed rename (the round's other files are
 * still moved). */
int live_commit(struct live *l, size_t *written, size_t *removed);

/* live_abort: ends the round without changing anything in place (the
 * temporary files are deleted). */
void live_abort(struct live *l);

/* live_close: frees l; the folder stays. */
void live_close(struct live *l);

/* live_folder_new: a private folder for a live site (folio serve's, never
 * the site's public/), TMPDIR/folio-serve-XXXXXX, made into base (n
 * bytes), and root (rn bytes) its base/site, which live_open makes. 0;
 * -1 with errno when it cannot be made; -2 when root's path does not fit
 * (base is removed again). */
int live_folder_new(char *base, size_t n, char *root, size_t rn);
/* live_folder_ensure: root made, empty, if it is not there (a first build
 * that failed: an empty site is served). */
void live_folder_ensure(const char *root);
/* live_folder_remove: root (folio's: it carries the marker) and base
 * deleted. */
void live_folder_remove(const char *base, const char *root);

/* output_prune: cache_prune, and the spare of each output folder whose
 * state it removes is deleted (the state names its folder, which must be
 * the one it describes, and not in use). */
void output_prune(const char *site_dir);

/* remove_tree: deletes dir and everything in it, without following links.
 * Only for folders that carry the marker. */
int remove_tree(const char *dir);

/* output_scratch_new: a scratch folder for an output that is thrown away
 * (folio check), TMPDIR/folio-check-XXXXXX: the path of the output in it
 * (malloc'd), or NULL after reporting why it cannot be made.
 * output_scratch_remove: deletes the scratch folder of that output, and
 * everything in it. */
char *output_scratch_new(struct diag *d);
void output_scratch_remove(const char *out);

#endif
