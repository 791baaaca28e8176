/* target.h: where a session's rounds write: the output target, chosen once
 * when the session is made. The one build driver (round.c) runs the same
 * round over any of three:
 *
 *   staging  folio build: a staging folder (the spare, recycled, or a new
 *            one) swapped in with one rename; what the build read is kept
 *            in .folio-cache for the next build into the same folder
 *   live     folio serve: its live folder, each round's changes made in
 *            place; the session keeps its last round to patch it
 *   scratch  folio check: a folder thrown away; no state is kept and
 *            nothing is written into .folio-cache
 *
 * The driver never asks which one a target is: it asks the target (its
 * ops) or what it keeps (its TARGET_* flags). An op that a target has no
 * use for is NULL. Private to pipeline/. */
#ifndef FOLIO_TARGET_H
#define FOLIO_TARGET_H

#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "base/diag.h"
#include "pipeline/build.h"

struct stat;

/* What a target keeps. */
enum {
	/* a session of one round: each file is read once (no content cache),
	 * the Markdown cache refers to the round's HTML until it is stored,
	 * the caches the last build left are read from .folio-cache, and
	 * stored (or not) and freed when the round ends */
	TARGET_ONE_ROUND = 1,
	/* what the build read is kept for the next process: the state of
	 * each page, the up-to-date check, the related posts, the front
	 * matter and the records of the sources; the cache's old states
	 * pruned (and their spares) */
	TARGET_KEEPS_STATE = 2,
	/* writes into .folio-cache at all (the Markdown, search and formula
	 * caches; the link check's memo is worth making) */
	TARGET_WRITES_CACHE = 4,
};

struct target {
	const struct target_ops *ops;
	char *site_dir, *out_dir; /* malloc'd */
};

struct target_ops {
	const char *name; /* "staging", "live", "scratch" */
	unsigned keeps;   /* TARGET_* */
	/* ahead: the model is being made on this thread alone: what open
	 * reads first may be read meanwhile on another */
	void (*ahead)(struct target *t);
	/* open: the round begins writing: 0, or -1 after reporting to d */
	int (*open)(struct target *t, struct diag *d);
	/* state_file: the cache's file of what the last build into this
	 * output read (malloc'd; the output's once it is open), or NULL */
	char *(*state_file)(const struct target *t);
	/* write_parts, write: a file's bytes (in parts), as rel; thread-safe;
	 * 0, or -1 after reporting */
	int (*write_parts)(struct target *t, const char *rel, const struct str *parts, size_t n);
	int (*write)(struct target *t, const char *rel, const void *data, size_t len);
	/* copy: the site's file path (what stat said of it: st) as rel; known:
	 * the hash of its bytes when they are known unchanged since the last
	 * build (0: not known). 0, -1 (said), or 1: not copied, its bytes are
	 * read and handed to write (an output_sink's copy) */
	int (*copy)(struct target *t, const char *rel, const char *path, const struct stat *st, uint64_t known);
	/* reuse: rel as the last round left it, if it is still there: 0; else
	 * -1 and the caller writes it (a search_reuse_fn, ctx the target) */
	int (*reuse)(void *t, const char *rel);
	/* keep_clean: the pages outs[i] not in want are the last build's
	 * files again; want[i] set again for each that cannot be */
	void (*keep_clean)(struct target *t, const char *const *outs, unsigned char *want, size_t n, int jobs);
	/* keep, keep_all (targets that keep rounds): rel, or every file in
	 * place (but those whose path starts with but, if not NULL), stays in
	 * this round */
	void (*keep)(struct target *t, const char *rel);
	void (*keep_all)(struct target *t, const char *but);
	/* commit: the round's output in place (the pages of outs[0..n) not in
	 * want stay as they are; with errors, every file in place stays);
	 * res->files, written and removed counted. 0, or -1 after reporting
	 * (the last good output stays) */
	int (*commit)(struct target *t, const char *const *outs, const unsigned char *want, size_t n, int errors,
		      struct build_result *res);
	/* abort: the round stops without committing: what it wrote goes
	 * (planned: it got as far as its plan) */
	void (*abort)(struct target *t, int planned);
	/* unchanged: whether the output is exactly as the last build left it
	 * (0), else -1; checked: nothing foreign was found in it just before
	 * (output_check), so its folders are not read again */
	int (*unchanged)(const struct target *t, int checked);
	/* prune: the cache's states of outputs built into long ago go */
	void (*prune)(const struct target *t);
	/* close: frees what the target holds (the output folder stays) */
	void (*close)(struct target *t);
};

/* target_staging, target_live, target_scratch: a new target of the kind
 * for site_dir, writing out_dir (both copied). Free with target_free.
 * target_scratch without out_dir: into a scratch folder of its own,
 * deleted with the target; NULL after reporting to d that it cannot be
 * made. */
struct target *target_staging(const char *site_dir, const char *out_dir);
struct target *target_live(const char *site_dir, const char *out_dir);
struct target *target_scratch(const char *site_dir, const char *out_dir, struct diag *d);
void target_free(struct target *t);

/* target_sink: an output_sink into t (its write, and its copy with no
 * hash known). */
struct output_sink;
struct output_sink target_sink(struct target *t);

#endif
