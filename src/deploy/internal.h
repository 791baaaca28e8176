/* internal.h: what the files of deploy/ share: the plan, the record of
 * the last deploy, the targets and the child processes they run. They
 * call one way: deploy.c -> folder.c, rsync.c, git.c, s3.c -> run.c,
 * plan.c.
 * Not for other modules: they use deploy.h. */
#ifndef FOLIO_DEPLOY_INTERNAL_H
#define FOLIO_DEPLOY_INTERNAL_H

#include "deploy/deploy.h"

#include "base/buf.h"
#include "output/output.h"

#include <stddef.h>
#include <stdint.h>

/* ---- plan.c: pure functions, no I/O ---- */

/* One file the last deploy put on the target: its path, and the XXH3 and
 * size of the bytes uploaded; hash 0: tried, not known to be there (the
 * next deploy uploads it again, and may delete it). */
struct deploy_file {
	char *rel;
	uint64_t hash, size;
};

/* The record of the last deploy to one target: its files, sorted by path,
 * and the target it describes ("KIND DEST"). */
struct deploy_record {
	struct deploy_file *v;
	size_t n, cap;
	char *target;
};

/* deploy_record_parse: text (len bytes; the record file's format:
 * "folio-deploy 1", "target KIND DEST", then "HASH SIZE PATH" lines, HASH
 * 16 hex digits) into r (empty before). 0; -1 when it is damaged (r is
 * then empty: the next deploy uploads everything and deletes nothing). */
int deploy_record_parse(const char *text, size_t len, struct deploy_record *r);
/* deploy_record_format: r in that format, appended to b. A path with a
 * line break is left out (no output keeps one). */
void deploy_record_format(const struct deploy_record *r, struct buf *b);
/* deploy_record_find: rel's entry in r, or NULL. */
struct deploy_file *deploy_record_find(const struct deploy_record *r, const char *rel);
void deploy_record_fini(struct deploy_record *r);

enum deploy_op { DEPLOY_UPLOAD, DEPLOY_DELETE };
/* What became of an action: not tried; done (confirmed); tried and failed
 * or not confirmed (the target may hold the old bytes, the new or none). */
enum deploy_state { DEPLOY_TODO, DEPLOY_DONE, DEPLOY_TRIED };

struct deploy_action {
	enum deploy_op op;
	const char *rel; /* the site's (upload) or the record's (delete) */
	uint64_t hash, size;
	enum deploy_state state;
};

/* A deploy's actions: the uploads (the site's new and changed files),
 * every file but the HTML pages first, so that a page goes up after what
 * it links to; then the deletions (files of the last deploy that the site
 * no longer has). */
struct deploy_plan {
	struct deploy_action *v;
	size_t n;
	size_t uploads, deletes, unchanged;
};

/* deploy_plan_make: the plan from the site's files (site[0..n), sorted by
 * path, each once) and the record of the last deploy (sorted); with all,
 * every file of the site is uploaded. The actions point into both. */
void deploy_plan_make(const struct output_entry *site, size_t n, const struct deploy_record *last, int all,
		      struct deploy_plan *p);
void deploy_plan_fini(struct deploy_plan *p);
/* deploy_plan_counts: how many uploads and deletions were done. */
void deploy_plan_counts(const struct deploy_plan *p, size_t *uploaded, size_t *deleted);

/* deploy_record_update: r made what the target holds after p: a file
 * uploaded has its new hash, one deleted is gone, one tried and not
 * confirmed is kept with hash 0 (folio may have put it there). */
void deploy_record_update(struct deploy_record *r, const struct deploy_plan *p);

/* deploy_fingerprinted: whether the last segment of rel is a fingerprinted
 * name, NAME.HHHHHHHHHHHHHHHH.EXT (16 lower-case hex digits, as the
 * theme names its assets: their bytes never change under that name). */
int deploy_fingerprinted(const char *rel);
/* deploy_cache_control: the Cache-Control header for rel: a year and
 * immutable for a fingerprinted file, else revalidated at every visit
 * (HTML pages, feeds, images under their own names). A literal. */
const char *deploy_cache_control(const char *rel);
#define DEPLOY_CACHE_LONG "public, max-age=31536000, immutable"
#define DEPLOY_CACHE_SHORT "public, max-age=0, must-revalidate"

/* deploy_count: n with thousands separated by commas ("2,140"), in out. */
void deploy_count(char *out, size_t size, size_t n);

/* deploy_scrub: text with what looks like a secret in an address
 * (scheme://USER:SECRET@) replaced by "***", in place: a child's message
 * is shown after it. */
void deploy_scrub(char *text);

/* ---- run.c: child processes ---- */

/* A command to run: argv (argv[0] looked up in PATH), environment
 * variables added to folio's ("NAME=VALUE", NULL-ended, or NULL), the
 * bytes for its standard input, and bufs for its standard output and
 * error (NULL: thrown away). */
struct deploy_cmd {
	const char *const *argv;
	const char *const *env;
	const char *in;
	size_t in_len;
	struct buf *out, *err;
};

/* deploy_spawn: runs c and waits for it, no shell in between: its exit
 * status (0..255; 128 + N when killed by signal N), or -1 with errno when
 * it could not be started (ENOENT: no such program). */
int deploy_spawn(const struct deploy_cmd *c);

/* deploy_last_line: the last line of b's text that is not empty, without
 * its line break, scrubbed (a static buffer), or "" */
const char *deploy_last_line(const struct buf *b);

/* ---- the targets ---- */

/* What a target is handed: where the site is, the plan (each action's
 * state set by the target), where messages go. */
struct deploy_ctx {
	struct diag *d;
	const char *site_dir;
	const char *out_abs; /* the output folder, absolute */
	struct deploy_plan *plan;
	uint64_t key; /* the target's key in the cache */
};

/* Each target: the plan's actions carried out in its order, stopping at
 * the first that fails (reported, with a hint). 0, or -1. */
int deploy_folder(struct deploy_ctx *c, const char *dest);
int deploy_rsync(struct deploy_ctx *c, const char *dest);
int deploy_git(struct deploy_ctx *c, const char *repo, const char *branch);
/* An S3 target: its service's address, bucket, region and key prefix. */
struct deploy_s3_target {
	const char *endpoint, *bucket, *region, *prefix;
};
int deploy_s3(struct deploy_ctx *c, const struct deploy_s3_target *t);

/* deploy_error: an error of the target where (a folder, an address;
 * NULL: "folio"), counted in d. */
void deploy_error(struct diag *d, const char *where, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
