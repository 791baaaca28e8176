/* incr.c: the incremental state of a session of builds (see incr.h). */
#include "incremental/incr.h"

#include "base/buf.h"
#include "base/hash.h"
#include "base/index.h"
#include "base/pool.h"
#include "cache/cache.h"
#include "files/stamp.h"
#include "incremental/rebuild.h"
#include "incremental/uptodate.h"
#include "check/links.h"
#include "model/site.h"
#include "render/render.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct incr_state {
	struct build_key key;
	struct rebuild *rb; /* what each page read (rebuild.h) */
	int loaded;         /* the state of the last build was taken (or tried) */
	/* the state read ahead (incr_state_ahead ... incr_state_take) */
	struct pool_task reading;
	char *ahead_path;
	struct rebuild *ahead;
	/* folio build's */
	struct uptodate *up;
	const struct stamp_list *known;
};

struct incr_state *incr_new(const struct build_key *key, struct uptodate *up, const struct stamp_list *known)
{
	struct incr_state *inc = xcalloc(1, sizeof *inc);
	inc->key = *key;
	inc->rb = rebuild_new();
	inc->up = up;
	inc->known = known;
	return inc;
}

static void state_drop(struct incr_state *inc);

void incr_free(struct incr_state *inc)
{
	if (!inc)
		return;
	state_drop(inc);
	rebuild_free(inc->rb);
	free(inc);
}

struct rebuild *incr_records(const struct incr_state *inc)
{
	return inc->rb;
}

const struct build_key *incr_key(const struct incr_state *inc)
{
	return &inc->key;
}

const struct stamp_list *incr_known(const struct incr_state *inc)
{
	return inc->known;
}

/* state_load: the state in path, if it is whole and from this folio;
 * else every page is rendered. */
static void state_load(struct rebuild *rb, const char *path)
{
	size_t len;
	char *text = cache_map(path, &len); /* tens of MB: mapped, not copied */
	if (text)
		(void)rebuild_load_block(rb, stamp_binary(), text, len, cache_unmap); /* takes text */
}

static void *state_read(void *arg)
{
	struct incr_state *inc = arg;
	state_load(inc->ahead, inc->ahead_path);
	return NULL;
}

/* The last build's state is tens of MB at 10,000 posts: it is read while
 * the content and the Markdown are. */
void incr_state_ahead(struct incr_state *inc, const char *path)
{
	if (inc->loaded || inc->ahead || !path)
		return;
	inc->ahead_path = xstrndup(path, strlen(path));
	inc->ahead = rebuild_new();
	if (!pool_spawn(&inc->reading, state_read, inc)) /* read when it is needed instead */
		state_drop(inc);
}

/* state_join: the state read ahead, if it was the file path (else NULL:
 * the caller reads it); the task is over after. */
static struct rebuild *state_join(struct incr_state *inc, const char *path)
{
	if (!inc->ahead)
		return NULL;
	pool_join(&inc->reading);
	memset(&inc->reading, 0, sizeof inc->reading);
	struct rebuild *rb = inc->ahead;
	inc->ahead = NULL;
	if (!path || strcmp(path, inc->ahead_path)) {
		rebuild_free(rb);
		rb = NULL;
	}
	free(inc->ahead_path);
	inc->ahead_path = NULL;
	return rb;
}

void incr_state_take(struct incr_state *inc, const char *path)
{
	struct rebuild *rb = state_join(inc, path);
	if (rb) {
		rebuild_free(inc->rb);
		inc->rb = rb;
	} else if (!inc->loaded) {
		state_load(inc->rb, path);
	}
	inc->loaded = 1;
}

/* state_drop: what was read ahead and not taken goes */
static void state_drop(struct incr_state *inc)
{
	rebuild_free(state_join(inc, NULL));
}

void incr_state_remove(const char *path)
{
	cache_remove(path);
}

static int fill_state(void *ctx, struct buf *out, cache_flush_fn flush, void *fctx)
{
	const struct incr_state *inc = ctx;
	return rebuild_save(inc->rb, stamp_binary(), out, flush, fctx);
}

/* streamed into the cache file a MB at a time */
void incr_state_save(const struct incr_state *inc, const char *path)
{
	(void)cache_write_with(path, fill_state, (void *)inc); /* if not: the next build renders every page */
}

/* ---- a round ---- */

void incr_prepare(struct incr_state *inc, const struct config *cfg, struct build_opts *opts, const struct content *c)
{
	build_key_site(&inc->key, cfg, opts, c);
	opts->md_salt = inc->key.md_salt;
	opts->files_stamp = inc->key.files;
}

/* know_html: tells rebuild.c the hash of a document's HTML, kept in its
 * source from an earlier build of the session when it was rendered under
 * the same key (build_key_html) and not rewritten since (rewrite_doc),
 * else made now and kept: a rebuild does not hash every post's HTML (80
 * MB at 10,000 posts) to fingerprint the values. */
static void know_html(struct rebuild *rb, struct source *src, const struct md_doc *doc, uint64_t salt,
		      const char *base)
{
	if (src->link_hint == 1 || !doc->html.len || (base && strcmp(base, "/")))
		return;
	salt ^= src->bib_hash; /* its .bib files too (0: none), as its cache key */
	if (src->html_salt != salt || src->html_len != doc->html.len || !src->html_hash) {
		/* the Markdown cache's, else hashed now */
		src->html_hash = doc->html_hash ? doc->html_hash : rebuild_text_hash(doc->html.p, doc->html.len);
		src->html_salt = salt;
		src->html_len = doc->html.len;
	}
	rebuild_known(rb, doc->html.p, doc->html.len, src->html_hash);
}

uint64_t *incr_fingerprints(struct incr_state *inc, const struct site *site, const char *base_path,
			    const struct render_plan *plan, struct tmpl_env *env, int jobs, size_t *nfp)
{
	uint64_t salt = build_key_html(&inc->key);
	for (size_t i = 0; i < site->nposts; i++)
		know_html(inc->rb, &site->posts[i]->s, &site->posts[i]->doc, salt, base_path);
	for (size_t i = 0; i < site->nseries; i++)
		know_html(inc->rb, &site->series[i]->s, &site->series[i]->doc, salt, base_path);
	for (size_t i = 0; i < site->npages; i++)
		know_html(inc->rb, &site->pages[i]->s, &site->pages[i]->doc, salt, base_path);
	return rebuild_inputs(inc->rb, plan, env, jobs, nfp);
}

/* Each page's own fingerprint, and whether it is rendered now, made on the
 * build's threads (rebuild.c reads the state and fingerprints only). */
struct dirtier {
	const struct incr_state *inc;
	const struct render_plan *plan;
	const uint64_t *fp;
	size_t nfp;
	uint64_t *vars_fp;
	unsigned char *want;
	struct pool_queue *q;
};

static void *dirty_some(void *arg)
{
	struct dirtier *k = arg;
	const struct rebuild *rb = k->inc->rb;
	uint64_t cfg = k->inc->key.config;
	size_t b, e;
	while (pool_take(k->q, &b, &e))
		for (size_t i = b; i < e; i++) {
			const struct render_job *j = &k->plan->jobs[i];
			k->vars_fp[i] = rebuild_fingerprint(rb, &j->vars, j->tmpl);
			k->want[i] = (unsigned char)rebuild_dirty(rb, j->out, k->vars_fp[i], k->fp, k->nfp, cfg);
		}
	return NULL;
}

void incr_dirty(const struct incr_state *inc, const struct render_plan *plan, const uint64_t *fp, size_t nfp,
		int jobs, uint64_t *vars_fp, unsigned char *want)
{
	size_t n = plan->njobs;
	int t = jobs > 1 && n >= 1024 ? jobs : 1;
	struct pool_queue q;
	pool_queue_init(&q, n, 256);
	struct dirtier *k = xcalloc((size_t)t, sizeof *k);
	for (int i = 0; i < t; i++)
		k[i] = (struct dirtier){inc, plan, fp, nfp, vars_fp, want, &q};
	pool_run(t, dirty_some, k, sizeof *k, 0);
	free(k);
	pool_queue_fini(&q);
}

static const char *known_path(const void *ctx, uint32_t v)
{
	return ((const struct stamp_list *)ctx)->e[v - 1].path;
}

uint64_t incr_static_known(const struct incr_state *inc, struct index *ix, const char *site_dir, const char *path,
			   const struct stat *st)
{
	const struct stamp_list *known = inc->known;
	size_t len = strlen(site_dir);
	if (!known || strncmp(path, site_dir, len) || path[len] != '/')
		return 0;
	if (!ix->cap)
		index_rebuild_str(ix, known->n, 64, known_path, known);
	uint32_t v = index_get_str(ix, path + len + 1, known_path, known);
	const struct stamp_entry *e = v ? &known->e[v - 1] : NULL;
	int64_t sig[7];
	stamp_sig(st, sig);
	return e && !memcmp(sig, e->sig, sizeof sig) ? e->content : 0;
}

/* ---- the link check ---- */

uint64_t incr_links_key(const struct render_plan *plan, int mode)
{
	uint64_t ignores = 0;
	for (size_t i = 0; i < plan->njobs; i++) {
		const struct source *src = plan->jobs[i].src;
		for (size_t k = 0; src && k < src->nignore_links; k++)
			ignores += hash_seeded(src->ignore_links[k], strlen(src->ignore_links[k]), i * 64 + k);
	}
	return ignores * 0x9e3779b97f4a7c15ULL + (uint64_t)mode;
}

int incr_links_same_ids(const struct incr_state *inc, const char *const *outs, struct rebuild_page *const *fresh,
			size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct rebuild_page *now = fresh[i];
		if (!now)
			continue;
		const struct rebuild_page *was = rebuild_last(inc->rb, outs[i]);
		if (!was || !links_record_same_ids(was->links, was->links_len, now->links, now->links_len))
			return 0;
	}
	return 1;
}

unsigned char *incr_links_only(const struct incr_state *inc, const struct links_check *lc, uint64_t key,
			       const char *const *outs, struct rebuild_page *const *fresh, size_t n)
{
	size_t len;
	const char *memo = rebuild_links_memo(inc->rb, &len);
	if (!links_check_memo_holds(lc, key, memo, len) || !incr_links_same_ids(inc, outs, fresh, n))
		return NULL;
	unsigned char *only = xcalloc(n + 1, 1);
	for (size_t i = 0; i < n; i++)
		only[i] = fresh[i] != NULL;
	(void)links_memo_told(memo, len, outs, n, only); /* their warnings said again */
	return only;
}

void incr_links_memo(struct incr_state *inc, const struct links_check *lc, uint64_t key, int keep)
{
	size_t last_len, len = 0;
	const char *last = rebuild_links_memo(inc->rb, &last_len);
	char *memo = lc && keep ? links_check_memo(lc, key, last, last_len, &len) : NULL;
	rebuild_set_links_memo(inc->rb, memo, len);
	free(memo);
}

uint64_t incr_links_memo_key(const struct incr_state *inc)
{
	size_t len;
	const char *memo = rebuild_links_memo(inc->rb, &len);
	return links_memo_key(memo, len);
}

/* ---- the output in place ---- */

void incr_commit(struct incr_state *inc, struct rebuild_page **fresh, const char *const *outs,
		 const unsigned char *want, size_t n, uint64_t *fp, size_t nfp)
{
	uptodate_inputs_read(inc->up); /* every input has been read */
	/* fresh records, or the old ones of clean pages; a page that could
	 * not be rendered (keep_going) has none, so that the next build
	 * renders it again */
	rebuild_commit(inc->rb, fresh, outs, want, n, fp, nfp, inc->key.config);
}

void incr_round_end(struct incr_state *inc)
{
	state_drop(inc); /* not taken: the round stopped before its output */
	rebuild_known_clear(inc->rb); /* its texts go with the build's arena */
}

/* ---- folio serve: a patch ---- */

static const char *job_out(const void *ctx, uint32_t v)
{
	return ((const struct render_plan *)ctx)->jobs[v - 1].out;
}

/* job_of: the job of the page out, or -1. */
static long job_of(const struct render_plan *plan, struct index *ix, const char *out)
{
	if (!ix->cap)
		index_rebuild_str(ix, plan->njobs, 1024, job_out, plan);
	uint32_t v = index_get_str(ix, out, job_out, plan);
	return v ? (long)v - 1 : -1;
}

uint64_t *incr_patch(struct incr_state *inc, struct arena *a, struct render_plan *plan, struct site *site,
		     const size_t *posts, size_t nposts, uint64_t *vars_fp, unsigned char *want, struct index *ix,
		     size_t *nfp)
{
	struct rebuild *rb = inc->rb;
	size_t n = plan->njobs;
	/* the last commit's fingerprints, changed in place (a copy of every
	 * one is 50 MB at 100,000 posts) */
	uint64_t *fp = rebuild_patch_begin(rb, nfp);
	memset(want, 0, n);
	for (size_t k = 0; k < nposts; k++) {
		const struct render_dep_val *dv = render_refresh_post(a, plan, site, posts[k]);
		if (dv)
			rebuild_patch_dep(rb, dv);
		const struct source *src = &site->posts[posts[k]]->s;
		for (size_t i = 0; i < n; i++) {
			if (plan->jobs[i].src != src)
				continue;
			uint64_t v = rebuild_fingerprint(rb, &plan->jobs[i].vars, plan->jobs[i].tmpl);
			if (v != vars_fp[i])
				want[i] = 1;
			vars_fp[i] = v;
		}
	}
	/* the pages that read a value that changed (the vars of the posts'
	 * own pages were looked at above) */
	const char **readers;
	size_t nreaders = rebuild_patch_readers(rb, &readers);
	for (size_t k = 0; k < nreaders; k++) {
		long j = job_of(plan, ix, readers[k]);
		if (j >= 0)
			want[j] = 1;
	}
	free(readers);
	return fp;
}

void incr_patch_undo(struct incr_state *inc)
{
	rebuild_patch_undo(inc->rb);
}

void incr_prepare_patch(struct incr_state *inc)
{
	rebuild_readers_prepare(inc->rb);
}

void incr_commit_some(struct incr_state *inc, struct rebuild_page **fresh, size_t n, uint64_t *fp, size_t nfp)
{
	rebuild_commit_some(inc->rb, fresh, n, fp, nfp);
}
