/* rebuild.h: what a session of builds renders again, and why. The one
 * place that knows it: the ids of the inputs pages read (a post, a tag, a
 * global, a template), their fingerprints at the last committed build,
 * and what each page read then. A page is rendered again when it is new,
 * when its own variables changed, or when any input it read has another
 * fingerprint now; every other page is the last build's file. No file
 * system here: the state goes to and from bytes (rebuild_save,
 * rebuild_load), which the caller keeps in the cache (cache.h).
 *
 * A build with it:
 *   ids = rebuild_id(...)            while the template values are made
 *   fp[] = rebuild_fingerprint_*()   of every value with an id
 *   rebuild_dirty(rb, page, ...)     for each page: render it again?
 *   rebuild_record(...)              for each page rendered: what it read
 *   rebuild_commit(rb, ...)          once the build is in place
 *
 * Folder incremental/: what is built again and why: the build key,
 * fingerprints, what each page read, the dirty set, the up-to-date check.
 * uses: base, files, cache, tmpl, read, model, render, check.
 */
#ifndef FOLIO_REBUILD_H
#define FOLIO_REBUILD_H

#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "render/render.h"
#include "files/stamp.h"

/* What one page read when it was last rendered. */
struct rebuild_page {
	char *out;        /* its path in the output */
	uint64_t vars_fp; /* its variables and template name */
	uint32_t *deps;   /* the ids it read */
	size_t ndeps;
	char *links; /* its ids and links (links_record), or NULL */
	size_t links_len;
	int links_borrowed; /* links lie in the state read (not freed with it) */
	int kept; /* (while rebuild_commit swaps the records) */
};

struct rebuild;

struct rebuild *rebuild_new(void);
void rebuild_free(struct rebuild *rb);

/* rebuild_id: the first of n consecutive ids of key ("post:slug",
 * "tag:cuda", "global:site"; ids start at 1): the same block in every
 * build of the session when it is big enough, else a new one (old ids are
 * never given again). A struct render_deps' id function (ctx: rb). */
uint32_t rebuild_id(void *rb, const char *key, size_t len, size_t n);

/* rebuild_nids: one past the highest id given: the size of a build's
 * fingerprint array. */
size_t rebuild_nids(const struct rebuild *rb);

/* Fingerprints (never 0, which means "absent"): of a page's variables
 * (with its template's name as extra), and of each value with an id into
 * fp (a map: the whole and each of its first TMPL_DEP_FIELDS keys). */
uint64_t rebuild_fingerprint(const struct rebuild *rb, const struct tval *v, const char *extra);
void rebuild_fingerprint_dep(const struct rebuild *rb, uint64_t *fp, const struct render_dep_val *dv);
uint64_t rebuild_mix(uint64_t h, uint64_t x);

/* rebuild_inputs: the fingerprints of everything a page may read in this
 * build, by id (*nfp of them, malloc'd): the values of plan, and the
 * templates of env and their names (their ids are given to env, for the
 * records of what each page used); the values on up to jobs threads. */
struct tmpl_env;
uint64_t *rebuild_inputs(struct rebuild *rb, const struct render_plan *plan, struct tmpl_env *env, int jobs,
			 size_t *nfp);

/* rebuild_known: the fingerprint of the text p[0..len) (a document's HTML,
 * its pointer as the build holds it) is h, which the caller knew from an
 * earlier build (rebuild_text_hash of the same text): fingerprints use it
 * instead of hashing megabytes of HTML again. For this build only:
 * rebuild_known_clear forgets them. */
uint64_t rebuild_text_hash(const char *p, size_t len);
void rebuild_known(struct rebuild *rb, const char *p, size_t len, uint64_t h);
void rebuild_known_clear(struct rebuild *rb);

/* rebuild_dirty: whether the page out must be rendered again, given its
 * variables' fingerprint now, every input's fingerprint now (fp[0..nfp))
 * and the fingerprint of the config and options (a change: every page). */
int rebuild_dirty(const struct rebuild *rb, const char *out, uint64_t vars_fp, const uint64_t *fp, size_t nfp,
                  uint64_t cfg_fp);

/* rebuild_last: what page out read at the last committed build, or NULL. */
const struct rebuild_page *rebuild_last(const struct rebuild *rb, const char *out);

/* rebuild_record: a new record of what a page read (ids[0..n)); its links
 * are set by the caller (malloc'd). rebuild_page_free frees one that is
 * not committed. */
struct rebuild_page *rebuild_record(const char *out, uint64_t vars_fp, const uint32_t *ids, size_t n);
void rebuild_page_free(struct rebuild_page *p);

/* rebuild_commit: the build is in place. Its pages, outs[0..n): fresh[i]
 * the record of a page rendered now (taken), or NULL; then the last record
 * of that page is kept if the page was clean (want[i] 0), else it has
 * none and is rendered next time (it could not be made). fp[0..nfp) (taken)
 * and cfg_fp become the last build's fingerprints. */
void rebuild_commit(struct rebuild *rb, struct rebuild_page **fresh, const char *const *outs,
                    const unsigned char *want, size_t n, uint64_t *fp, size_t nfp, uint64_t cfg_fp);

/* rebuild_links_memo: what the link check of the output in place left
 * when it found nothing (links.h: links_check_memo; opaque here), kept
 * with the state; NULL (*len 0) when it found something or is not known.
 * rebuild_set_links_memo: this build's (copied), to be saved; NULL, 0:
 * none. */
const char *rebuild_links_memo(const struct rebuild *rb, size_t *len);
void rebuild_set_links_memo(struct rebuild *rb, const char *memo, size_t len);

/* rebuild_built: whether the records describe an output (a build was
 * committed, or a state loaded). */
int rebuild_built(const struct rebuild *rb);

/* rebuild_last_inputs: a copy of the fingerprints of the last committed
 * build, by id (*nfp of them, malloc'd), to change those of a few values
 * and find the pages that read them (folio serve, after an edit of a
 * post's text). */
uint64_t *rebuild_last_inputs(const struct rebuild *rb, size_t *nfp);

/* rebuild_readers: the pages of the last committed build that read an id
 * whose fingerprint in fp[0..nfp) is not the last build's (or is new):
 * their paths (borrowed from the records, until the next commit) in
 * *outs (malloc'd, or NULL); returns how many. Without a look at each
 * page: an index of the readers of each id is made at the first call
 * after a commit (rebuild_commit_some keeps it, the records it replaced
 * looked at on their own), for patches that change a few values of a big
 * site. */
size_t rebuild_readers(struct rebuild *rb, const uint64_t *fp, size_t nfp, const char ***outs);
/* A patch of a few values: rebuild_patch_begin gives the fingerprints of
 * the last commit themselves (*nfp: as many as ids now; the ids made since
 * are 0), rebuild_patch_dep changes those of a value in place (their
 * values before are kept), rebuild_patch_readers says which pages read an
 * id whose fingerprint it changed, as rebuild_readers does (with nothing
 * to compare but the few values changed); then rebuild_commit_some(rb,
 * ..., the same fp, *nfp) keeps the changes, or rebuild_patch_undo puts
 * the fingerprints back as they were. */
uint64_t *rebuild_patch_begin(struct rebuild *rb, size_t *nfp);
void rebuild_patch_dep(struct rebuild *rb, const struct render_dep_val *dv);
size_t rebuild_patch_readers(struct rebuild *rb, const char ***outs);
void rebuild_patch_undo(struct rebuild *rb);

/* rebuild_readers_prepare: the readers' index made now, if it is not (a
 * session's idle time: the first patch then costs what the others do) */
void rebuild_readers_prepare(struct rebuild *rb);

/* rebuild_commit_some: a patch is in place: the records in fresh[0..n)
 * (NULL: that page was not rendered; taken, and set to NULL) replace those
 * of their pages, the others stay, and fp[0..nfp) (taken) become the last
 * build's fingerprints. */
void rebuild_commit_some(struct rebuild *rb, struct rebuild_page **fresh, size_t n, uint64_t *fp, size_t nfp);

/* rebuild_save: the state as bytes, appended to out, marked with stamp (the
 * executable's hash: another folio's state is not read); with flush, out
 * is handed to flush(ctx, out) (which empties it: 0, or -1 to stop) each
 * time it holds a MB, and what is left at the end is the caller's. 0, or
 * -1 when flush failed. rebuild_load: rb (new) from such bytes; 0, or -1
 * (damaged, cut, or another stamp) with rb left new, so that every page is
 * rendered. */
int rebuild_save(const struct rebuild *rb, uint64_t stamp, struct buf *out, int (*flush)(void *ctx, struct buf *out),
		 void *ctx);
int rebuild_load(struct rebuild *rb, uint64_t stamp, const char *p, size_t len);
/* rebuild_load_block: rebuild_load of p, which it takes (the records'
 * links are read where they lie in it, not copied) and gives back with
 * release(p, len) (NULL: p was malloc'd, and is freed). */
int rebuild_load_block(struct rebuild *rb, uint64_t stamp, char *p, size_t len, void (*release)(void *, size_t));

/* ---- a folio build with nothing to do ----
 *
 * When none of the site's files changed since the last build into the same
 * folder (key: folio, the options and the stamp of every input, stamp.h),
 * or those whose stamps changed still hold the same bytes (a file touched,
 * saved unchanged, checked out again), with the same clock (no post left
 * out as future has come due), and its output is still exactly as it wrote
 * it, the output is what a build would write again: it is kept as it is,
 * and the warnings that build reported are reported again. */
struct rebuild_uptodate {
	uint64_t key;        /* 0: not known */
	int64_t next_future; /* the first post left out as future, 0: none */
	uint64_t pages, posts, files;
	uint64_t opts;           /* folio and the options alone */
	char *said;              /* the text of the warnings it reported (malloc'd) */
	size_t said_len;
	unsigned said_warnings;  /* how many */
	struct stamp_list inputs; /* every input, with the hash of its bytes */
};

/* rebuild_uptodate: whether a build now (key, clock now, --future or not)
 * would write what the build that last describes wrote;
 * rebuild_uptodate_clock: the clock's part of it alone. */
int rebuild_uptodate(const struct rebuild_uptodate *last, uint64_t key, int64_t now, int future);
int rebuild_uptodate_clock(const struct rebuild_uptodate *last, int64_t now, int future);

/* rebuild_uptodate_touched: when opts are last's and now names the same inputs as last, in
 * the same order, and each whose stamp changed is a regular file whose
 * bytes last knew: their indexes in *which (malloc'd, or NULL), and how
 * many; the caller compares their bytes' hashes with last's. -1 when
 * anything else changed (a file added, removed, a folder or link changed). */
long rebuild_uptodate_touched(const struct rebuild_uptodate *last, uint64_t opts, const struct stamp_list *now,
			      size_t **which);

/* rebuild_uptodate_save appends u as text to out (its last line, "end",
 * tells a whole text from a cut one); rebuild_uptodate_load reads it back
 * from p[0..len): 0, or -1 (u then empty) when it is not such a text.
 * rebuild_uptodate_fini frees what load or the caller gave u. */
void rebuild_uptodate_save(const struct rebuild_uptodate *u, struct buf *out);
int rebuild_uptodate_load(struct rebuild_uptodate *u, const char *p, size_t len);
void rebuild_uptodate_fini(struct rebuild_uptodate *u);

#endif
