/* target.c: the three output targets of target.h over output/: staging
 * (folio build), scratch (folio check: staging without state) and live
 * (folio serve). */
#include "pipeline/target.h"

#include "base/arena.h"
#include "cache/cache.h"
#include "output/output.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static void target_init(struct target *t, const struct target_ops *ops, const char *site_dir, const char *out_dir)
{
	t->ops = ops;
	t->site_dir = xstrndup(site_dir, strlen(site_dir));
	t->out_dir = xstrndup(out_dir, strlen(out_dir));
}

void target_free(struct target *t)
{
	if (!t)
		return;
	char *site_dir = t->site_dir, *out_dir = t->out_dir;
	t->ops->close(t); /* frees t */
	free(site_dir);
	free(out_dir);
}

static int sink_write(void *ctx, const char *rel, const void *data, size_t len)
{
	struct target *t = ctx;
	return t->ops->write(t, rel, data, len);
}

static int sink_copy(void *ctx, const char *rel, const char *path, const struct stat *st)
{
	struct target *t = ctx;
	return t->ops->copy(t, rel, path, st, 0);
}

struct output_sink target_sink(struct target *t)
{
	return (struct output_sink){sink_write, sink_copy, t};
}

/* ---- staging and scratch: a folder swapped in whole (output.h) ---- */

struct staging {
	struct target t;
	struct output *o;          /* while a round writes */
	struct output_ahead *ahead; /* the output's state, read while the model is made */
	int scratch_dir;           /* scratch: out_dir is in a scratch folder of its own, deleted at close */
};

static void staging_ahead(struct target *t)
{
	struct staging *g = (struct staging *)t;
	if (!g->ahead)
		g->ahead = output_ahead(t->out_dir, t->site_dir);
}

static int staging_open(struct target *t, struct diag *d)
{
	struct staging *g = (struct staging *)t;
	g->o = output_begin_ahead(d, t->out_dir, t->site_dir, g->ahead);
	output_ahead_free(g->ahead);
	g->ahead = NULL;
	return g->o ? 0 : -1;
}

static int scratch_open(struct target *t, struct diag *d)
{
	struct staging *g = (struct staging *)t;
	if (staging_open(t, d))
		return -1;
	output_keep_no_state(g->o); /* a scratch folder: no state kept */
	return 0;
}

/* staging_state_file: the output's pages-HASH: once the output is open,
 * the file beside its manifest (which output_begin found), before it the
 * one its path names (to read it ahead; round.c takes what it read only
 * if the two are the same file) */
static char *staging_state_file(const struct target *t)
{
	const struct staging *g = (const struct staging *)t;
	if (g->o)
		return output_cache_file(g->o, CACHE_PAGES);
	return cache_output_path(t->site_dir, t->out_dir, CACHE_PAGES);
}

static int staging_write_parts(struct target *t, const char *rel, const struct str *parts, size_t n)
{
	return output_write_parts(((struct staging *)t)->o, rel, parts, n);
}

static int staging_write(struct target *t, const char *rel, const void *data, size_t len)
{
	return output_write(((struct staging *)t)->o, rel, data, len);
}

/* staging_copy: a static file known unchanged since the last build (its
 * stamp and the hash of its bytes) is that build's file again, without
 * being read; any other is read and written */
static int staging_copy(struct target *t, const char *rel, const char *path, const struct stat *st, uint64_t known)
{
	(void)path;
	if (known && output_link_same(((struct staging *)t)->o, rel, known, (uint64_t)st->st_size) == 0)
		return 0;
	return 1; /* read, and written (or linked, if it is the same) */
}

static int staging_reuse(void *t, const char *rel)
{
	return output_link(((struct staging *)t)->o, rel);
}

static void staging_keep_clean(struct target *t, const char *const *outs, unsigned char *want, size_t n, int jobs)
{
	unsigned char *keep = xcalloc(n + 1, 1);
	for (size_t i = 0; i < n; i++)
		keep[i] = !want[i];
	output_link_all(((struct staging *)t)->o, outs, keep, n, jobs);
	for (size_t i = 0; i < n; i++)
		want[i] = !keep[i];
	free(keep);
}

static int staging_commit(struct target *t, const char *const *outs, const unsigned char *want, size_t n, int errors,
			  struct build_result *res)
{
	struct staging *g = (struct staging *)t;
	(void)outs, (void)want, (void)n, (void)errors; /* the folder holds exactly what this round wrote */
	res->files = output_count(g->o);
	res->written = res->files - output_linked(g->o);
	int failed = output_commit(g->o);
	g->o = NULL;
	return failed ? -1 : 0;
}

static void staging_abort(struct target *t, int planned)
{
	struct staging *g = (struct staging *)t;
	(void)planned;
	output_ahead_free(g->ahead); /* the round may have stopped before its output */
	g->ahead = NULL;
	output_abort(g->o);
	g->o = NULL;
}

static int staging_unchanged(const struct target *t, int checked)
{
	return output_unchanged(t->site_dir, t->out_dir, checked);
}

static void staging_prune(const struct target *t)
{
	output_prune(t->site_dir); /* and the spares of the outputs pruned */
}

static void staging_close(struct target *t)
{
	staging_abort(t, 0);
	if (((struct staging *)t)->scratch_dir)
		output_scratch_remove(t->out_dir);
	free(t);
}

/* FOLDER_OPS: the ops of a folder swapped in whole, staging's and
 * scratch's alike */
#define FOLDER_OPS                                                                                               \
	.write_parts = staging_write_parts, .write = staging_write, .copy = staging_copy, .reuse = staging_reuse, \
	.keep_clean = staging_keep_clean, .commit = staging_commit, .abort = staging_abort, .close = staging_close

static const struct target_ops staging_ops = {
	.name = "staging",
	.keeps = TARGET_ONE_ROUND | TARGET_KEEPS_STATE | TARGET_WRITES_CACHE,
	.ahead = staging_ahead,
	.open = staging_open,
	.state_file = staging_state_file,
	.unchanged = staging_unchanged,
	.prune = staging_prune,
	FOLDER_OPS,
};

/* scratch: staging's folder, without its state, read-ahead or pruning
 * (and in a scratch folder of its own, unless it is given one) */
static const struct target_ops scratch_ops = {
	.name = "scratch",
	.keeps = TARGET_ONE_ROUND,
	.open = scratch_open,
	FOLDER_OPS,
};

static struct target *staging_new(const struct target_ops *ops, const char *site_dir, const char *out_dir)
{
	struct staging *g = xcalloc(1, sizeof *g);
	target_init(&g->t, ops, site_dir, out_dir);
	return &g->t;
}

struct target *target_staging(const char *site_dir, const char *out_dir)
{
	return staging_new(&staging_ops, site_dir, out_dir);
}

struct target *target_scratch(const char *site_dir, const char *out_dir, struct diag *d)
{
	char *own = out_dir ? NULL : output_scratch_new(d);
	if (!out_dir && !own)
		return NULL;
	struct target *t = staging_new(&scratch_ops, site_dir, out_dir ? out_dir : own);
	((struct staging *)t)->scratch_dir = own != NULL;
	free(own);
	return t;
}

/* ---- live: a folder kept up to date in place (output.h) ---- */

struct live_target {
	struct target t;
	struct live *live; /* opened by the first round, for the session */
};

static struct live *live_of(const void *t)
{
	return ((const struct live_target *)t)->live;
}

static int live_target_open(struct target *t, struct diag *d)
{
	struct live_target *l = (struct live_target *)t;
	if (!l->live)
		l->live = live_open(d, t->out_dir);
	return l->live ? 0 : -1;
}

static int live_target_write_parts(struct target *t, const char *rel, const struct str *parts, size_t n)
{
	return live_write_parts(live_of(t), rel, parts, n);
}

static int live_target_write(struct target *t, const char *rel, const void *data, size_t len)
{
	return live_write(live_of(t), rel, data, len);
}

/* live_target_copy: not read when it is the file copied last time (the
 * live folder knows its stamp) */
static int live_target_copy(struct target *t, const char *rel, const char *path, const struct stat *st, uint64_t known)
{
	(void)known;
	return live_copy(live_of(t), rel, path, st);
}

static int live_target_reuse(void *t, const char *rel)
{
	return live_keep_if(live_of(t), rel);
}

static void live_target_keep(struct target *t, const char *rel)
{
	live_keep(live_of(t), rel);
}

static void live_target_keep_all(struct target *t, const char *but)
{
	if (but)
		live_keep_all_but(live_of(t), but);
	else
		live_keep_all(live_of(t));
}

static int live_target_commit(struct target *t, const char *const *outs, const unsigned char *want, size_t n,
			      int errors, struct build_result *res)
{
	struct live *l = live_of(t);
	for (size_t i = 0; i < n; i++)
		if (!want[i])
			live_keep(l, outs[i]);
	/* with errors (keep_going), nothing is deleted: a page that could
	 * not be made this time (a post whose front matter is wrong) is
	 * still served as it was */
	if (errors)
		live_keep_all(l);
	size_t removed = 0;
	if (live_commit(l, &res->written, &removed))
		return -1;
	res->removed = removed;
	return 0;
}

static void live_target_abort(struct target *t, int planned)
{
	if (planned && live_of(t))
		live_abort(live_of(t));
}

static void live_target_close(struct target *t)
{
	live_close(live_of(t));
	free(t);
}

static const struct target_ops live_ops = {
	.name = "live",
	.keeps = TARGET_WRITES_CACHE,
	.open = live_target_open,
	.write_parts = live_target_write_parts,
	.write = live_target_write,
	.copy = live_target_copy,
	.reuse = live_target_reuse,
	.keep = live_target_keep,
	.keep_all = live_target_keep_all,
	.commit = live_target_commit,
	.abort = live_target_abort,
	.close = live_target_close,
};

struct target *target_live(const char *site_dir, const char *out_dir)
{
	struct live_target *l = xcalloc(1, sizeof *l);
	target_init(&l->t, &live_ops, site_dir, out_dir);
	return &l->t;
}
