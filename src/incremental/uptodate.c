/* uptodate.c: a folio build with nothing to do (see uptodate.h). */
#include "incremental/uptodate.h"

#include "base/buf.h"
#include "base/index.h"
#include "base/pool.h"
#include "cache/cache.h"
#include "files/stamp.h"
#include "incremental/key.h"
#include "incremental/rebuild.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct uptodate {
	struct build_key *k;
	const char *site_dir, *out_dir; /* borrowed */
	char *path;                     /* the state file (malloc'd) */
	int64_t now;
	int future;
	struct stamp_list stamps; /* of the site's files before the build */
	struct rebuild_uptodate last;
	int have; /* last was read */
	/* what the diagnostics held when the build began */
	int warnings;
	size_t said_from;
	/* the stamps again once the output is in place, taken on a task while
	 * the caches are saved (uptodate_inputs_read ... restamp_join), to
	 * know whether a file changed during the build */
	struct pool_task restamp;
	struct stamp_list after;
	uint64_t after_key;
};

/* load: the state of the output's last build; 0, or -1 when there is
 * none. */
static int load(const char *path, struct rebuild_uptodate *u)
{
	size_t len;
	char *text = cache_read(path, CACHE_UPTODATE, &len);
	int rc = text ? rebuild_uptodate_load(u, text, len) : -1;
	free(text);
	if (rc)
		memset(u, 0, sizeof *u);
	return rc;
}

static void save(const char *path, const struct rebuild_uptodate *u)
{
	struct buf b;
	buf_init(&b);
	rebuild_uptodate_save(u, &b);
	(void)cache_write(path, b.p, b.len); /* if not: the next build does the work */
	buf_fini(&b);
}

struct uptodate *uptodate_begin(struct build_key *k, const char *site_dir, const char *out_dir, int64_t now,
				int future)
{
	struct uptodate *u = xcalloc(1, sizeof *u);
	u->k = k;
	u->site_dir = site_dir;
	u->out_dir = out_dir;
	u->now = now;
	u->future = future;
	u->path = cache_output_path(site_dir, out_dir, CACHE_UPTODATE);
	k->inputs = u->path ? build_key_inputs(k, site_dir, out_dir, &u->stamps) : 0;
	u->have = k->inputs && load(u->path, &u->last) == 0;
	if (!u->have)
		memset(&u->last, 0, sizeof u->last);
	return u;
}

/* same_bytes: whether the inputs whose stamps changed since last (the
 * key alone differs) still hold the bytes it knew; if so, the stamps take
 * its hashes of their bytes, for the record of this build. */
static int same_bytes(struct uptodate *u)
{
	const struct rebuild_uptodate *last = &u->last;
	struct stamp_list *now = &u->stamps;
	size_t *which;
	long n = rebuild_uptodate_touched(last, u->k->options, now, &which);
	int same = n >= 0;
	for (long i = 0; same && i < n; i++) {
		struct stamp_entry *e = &now->e[which[i]];
		same = stamp_content(u->site_dir, e->path, e->sig) == last->inputs.e[which[i]].content;
	}
	free(which);
	for (size_t i = 0; same && i < now->n; i++)
		now->e[i].content = last->inputs.e[i].content;
	return same;
}

int uptodate_same(struct uptodate *u)
{
	return u->have && rebuild_uptodate_clock(&u->last, u->now, u->future) &&
	       (u->last.key == u->k->inputs || same_bytes(u));
}

void uptodate_keep(struct uptodate *u, struct diag *d, struct uptodate_counts *c)
{
	struct rebuild_uptodate *last = &u->last;
	if (last->key != u->k->inputs) { /* touched, not changed: the new stamps */
		last->key = u->k->inputs;
		stamp_list_free(&last->inputs);
		last->inputs = u->stamps;
		memset(&u->stamps, 0, sizeof u->stamps);
		save(u->path, last);
	}
	c->next_future = last->next_future;
	c->pages = last->pages;
	c->posts = last->posts;
	c->files = last->files;
	if (last->said_warnings)
		diag_replay(d, last->said, last->said_len, last->said_warnings);
}

static const char *input_path(const void *ctx, uint32_t v)
{
	return ((const struct stamp_list *)ctx)->e[v - 1].path;
}

/* hash_inputs: the hash of each input file's bytes in now, the last
 * build's where its stamp is the same; with read, the others' read now (0
 * where not known: that file is then read and the site built the next
 * time its stamp changes). */
static void hash_inputs(const struct uptodate *u, struct stamp_list *now, int read)
{
	const struct stamp_list *was = &u->last.inputs;
	struct index ix = {0};
	for (size_t i = 0; i < now->n; i++) {
		struct stamp_entry *e = &now->e[i];
		const struct stamp_entry *w = i < was->n && !strcmp(was->e[i].path, e->path) ? &was->e[i] : NULL;
		if (!w && was->n) { /* files added or removed before this one */
			if (!ix.cap)
				index_rebuild_str(&ix, was->n, 64, input_path, was);
			uint32_t v = index_get_str(&ix, e->path, input_path, was);
			w = v ? &was->e[v - 1] : NULL;
		}
		if (w && !memcmp(w->sig, e->sig, sizeof e->sig))
			e->content = w->content;
		else if (read && S_ISREG((mode_t)e->sig[0]) && !e->sig[6])
			e->content = stamp_content(u->site_dir, e->path, e->sig);
	}
	index_fini(&ix);
}

const struct stamp_list *uptodate_build(struct uptodate *u, struct diag *d)
{
	if (!u)
		return NULL;
	if (u->path)
		cache_remove(u->path); /* it describes the output only until this build swaps */
	u->warnings = d->warnings;
	u->said_from = diag_pending_count(d);
	if (!u->have || !u->k->inputs)
		return NULL;
	/* the files unchanged since the last build, whose bytes it knew: a
	 * static file among them is not read again to be copied */
	hash_inputs(u, &u->stamps, 0);
	return &u->stamps;
}

static void *restamp_run(void *arg)
{
	struct uptodate *u = arg;
	u->after_key = build_key_inputs(u->k, u->site_dir, u->out_dir, &u->after);
	return NULL;
}

void uptodate_inputs_read(struct uptodate *u)
{
	if (u && u->k->inputs && !u->restamp.state)
		(void)pool_spawn(&u->restamp, restamp_run, u); /* if not: taken by uptodate_end */
}

/* restamp_join: the stamps after the build (taken now if they were not) */
static void restamp_join(struct uptodate *u)
{
	if (!u->restamp.state)
		restamp_run(u);
	pool_finish(&u->restamp);
}

void uptodate_end(struct uptodate *u, int errors, const struct uptodate_counts *c, struct diag *d)
{
	uint64_t key = u ? u->k->inputs : 0;
	if (!key)
		return;
	if (pool_running(&u->restamp) || !errors)
		restamp_join(u);
	/* the key again: a file changed during the build is not known to be
	 * in it */
	if (errors || u->after_key != key)
		return;
	hash_inputs(u, &u->after, 1);
	struct rebuild_uptodate next = {key,  c->next_future, c->pages, c->posts, c->files, u->k->options,
					NULL, 0,	      (unsigned)(d->warnings - u->warnings), u->after};
	memset(&u->after, 0, sizeof u->after);
	struct buf said;
	buf_init(&said);
	/* the warnings are kept to be said again, if they are all still held
	 * (a collector that prints at once: not kept) */
	if (!next.said_warnings || diag_pending_plain(d, u->said_from, &said) == 0) {
		next.said = said.p;
		next.said_len = said.len;
		save(u->path, &next);
	}
	buf_fini(&said);
	stamp_list_free(&next.inputs);
}

void uptodate_free(struct uptodate *u)
{
	if (!u)
		return;
	pool_join(&u->restamp);
	stamp_list_free(&u->after);
	stamp_list_free(&u->stamps);
	rebuild_uptodate_fini(&u->last);
	free(u->path);
	free(u);
}
