/* incr.h: the incremental state of a session of builds, the one home of
 * what is built again: the build key (key.h), the records of what each
 * page read (rebuild.h), the state a folio build left in the cache (read
 * ahead on a task of its own while the stages run), and the decisions the
 * driver asks for: which pages are rendered again (incr_dirty, and for an
 * edit patched into the last round, incr_patch), which static file is the
 * last build's again without being read (incr_static_known), which pages'
 * links are checked again (incr_links_only, incr_links_memo), and the
 * up-to-date check's state (uptodate.h) told when the output is in place.
 * No output here: the driver asks, then writes. */
#ifndef FOLIO_INCR_H
#define FOLIO_INCR_H

#include <stddef.h>
#include <stdint.h>

#include "incremental/key.h"

struct arena;
struct build_opts;
struct config;
struct content;
struct index;
struct links_check;
struct rebuild;
struct rebuild_page;
struct render_plan;
struct site;
struct stamp_list;
struct stat;
struct tmpl_env;
struct uptodate;
struct incr_state;

/* incr_new: the state of a new session (no page known yet) of builds
 * under key (copied; its base_url borrowed); up (may be NULL), the
 * up-to-date check of folio build, told when the output is in place, and
 * known (may be NULL, borrowed): the site's files unchanged since the last
 * build, with the hash of their bytes (uptodate_build). */
struct incr_state *incr_new(const struct build_key *key, struct uptodate *up, const struct stamp_list *known);
void incr_free(struct incr_state *inc);

/* incr_records: the records of what each page read (owned by inc; the
 * pointer changes when a state read is taken: ask again after
 * incr_state_take). incr_key: this round's key. incr_known: known. */
struct rebuild *incr_records(const struct incr_state *inc);
const struct build_key *incr_key(const struct incr_state *inc);
const struct stamp_list *incr_known(const struct incr_state *inc);

/* ---- the state of the last build (folio build) ---- */

/* incr_state_ahead: the state in path (the state file of the output the
 * session writes) read on a task of its own, once per session. */
void incr_state_ahead(struct incr_state *inc, const char *path);
/* incr_state_take: the state in path becomes the records: the one read
 * ahead if it was path, else read now (once per session). */
void incr_state_take(struct incr_state *inc, const char *path);
/* incr_state_save: the records, for the next build, into the cache's
 * file path (none when it cannot be written: the next build renders
 * every page). incr_state_remove: path goes (until the output it
 * describes is swapped in). */
void incr_state_save(const struct incr_state *inc, const char *path);
void incr_state_remove(const char *path);

/* ---- a round ---- */

/* incr_prepare: the round's key made whole (folio.yml, the options of
 * the Markdown, the content's bundles: build_key_site) and handed to the
 * Markdown stage (opts->md_salt, files_stamp). */
void incr_prepare(struct incr_state *inc, const struct config *cfg, struct build_opts *opts, const struct content *c);

/* incr_fingerprints: the fingerprints of everything a page of plan may
 * read, by id (*nfp of them, malloc'd): the values of plan, the templates
 * of env and their names (site's documents' HTML hashed once per session:
 * their hashes kept in their sources; base_path: of base_url); on up to
 * jobs threads. */
uint64_t *incr_fingerprints(struct incr_state *inc, const struct site *site, const char *base_path,
			    const struct render_plan *plan, struct tmpl_env *env, int jobs, size_t *nfp);

/* incr_dirty: each page's own fingerprint into vars_fp, and want[i] set
 * for the pages rendered again: a page is when it is new, when its own
 * variables changed, when any input it read has another fingerprint in
 * fp[0..nfp), or when the key's config did; on up to jobs threads. */
void incr_dirty(const struct incr_state *inc, const struct render_plan *plan, const uint64_t *fp, size_t nfp,
		int jobs, uint64_t *vars_fp, unsigned char *want);

/* incr_static_known: the hash of the bytes of the site's file path (stat
 * st; site_dir/REL), when it is known unchanged since the last build (its
 * stamp and the hash of its bytes: known); else 0. The first call makes
 * an index of known in ix (the caller's, freed with index_fini). */
uint64_t incr_static_known(const struct incr_state *inc, struct index *ix, const char *site_dir, const char *path,
			   const struct stat *st);

/* incr_links_key: the key of a link check of plan's pages in mode: the
 * patterns of links their sources say to leave alone (which a page not
 * rendered again may have changed). */
uint64_t incr_links_key(const struct render_plan *plan, int mode);
/* incr_links_only: after a check (folio serve's last round, or folio
 * build's last build into the same folder, whose state keeps its memo)
 * with the same key, whose links all lead to files this build has too:
 * the pages whose links are checked again, those rendered now (fresh[i],
 * by job of outs[0..n)) and those that reported something then (their
 * warnings are said again), if none of those rendered gained or lost an
 * id (their links are the only ones that can have broken); NULL: all of
 * them (malloc'd). */
unsigned char *incr_links_only(const struct incr_state *inc, const struct links_check *lc, uint64_t key,
			       const char *const *outs, struct rebuild_page *const *fresh, size_t n);
/* incr_links_same_ids: whether none of the pages rendered now (fresh)
 * gained or lost an id since the last build. */
int incr_links_same_ids(const struct incr_state *inc, const char *const *outs, struct rebuild_page *const *fresh,
			size_t n);
/* incr_links_memo: the memo of the check lc that has just run with key
 * kept for the next one (when keep; else none, and no memo is made);
 * NULL lc: not checked, not known to be clean. incr_links_memo_key: the
 * key of the memo kept. */
void incr_links_memo(struct incr_state *inc, const struct links_check *lc, uint64_t key, int keep);
uint64_t incr_links_memo_key(const struct incr_state *inc);

/* incr_commit: the round's output is in place: the records of its pages,
 * outs[0..n): fresh[i] that of a page rendered now (taken), else the last
 * one of a clean page (want[i] 0); fp[0..nfp) (taken) and the key's
 * config become the last build's fingerprints (rebuild_commit). The
 * up-to-date check is told that every input has been read. */
void incr_commit(struct incr_state *inc, struct rebuild_page **fresh, const char *const *outs,
		 const unsigned char *want, size_t n, uint64_t *fp, size_t nfp);

/* incr_round_end: what the round read ahead and did not take goes, and
 * the texts it knew the hashes of (they go with the round's arena). */
void incr_round_end(struct incr_state *inc);

/* ---- folio serve: an edit of posts' text patched into the last round ---- */

/* incr_patch: the posts[0..nposts) of site, whose documents were rendered
 * again into plan's round (its arena a), given new fingerprints: want[i]
 * set (and vars_fp[i] made again) for the pages of plan that read what
 * changed, by their own variables or an input; jobs finds a page by its
 * output path (ix: an index of job + 1 by path, made at the first use,
 * the caller's). The fingerprints of every input (*nfp of them: the
 * state's own, changed in place), for incr_commit_some, or put back by
 * incr_patch_undo when the patch is not committed. */
uint64_t *incr_patch(struct incr_state *inc, struct arena *a, struct render_plan *plan, struct site *site,
		     const size_t *posts, size_t nposts, uint64_t *vars_fp, unsigned char *want, struct index *ix,
		     size_t *nfp);
/* incr_commit_some: a patch is in place: the records in fresh[0..n)
 * replace those of their pages (taken, each set to NULL), fp (incr_patch's)
 * the last build's fingerprints (rebuild_commit_some). */
void incr_commit_some(struct incr_state *inc, struct rebuild_page **fresh, size_t n, uint64_t *fp, size_t nfp);
/* incr_patch_undo: the fingerprints as they were before incr_patch */
void incr_patch_undo(struct incr_state *inc);
/* incr_prepare_patch: what incr_patch needs made now, while the session
 * waits (rebuild_readers_prepare) */
void incr_prepare_patch(struct incr_state *inc);

#endif
