/* session.c: a session of builds (build.h): folio build's one, into a
 * staging folder swapped in whole, and folio serve's, into its live folder,
 * where each round renders only the pages whose inputs changed (rebuild.h)
 * and an edit of posts' text is patched into the last round. */
#include "pipeline/build.h"
#include "cache/fmcache.h"
#include "cache/srccache.h"

#include "cache/cache.h"
#include "base/index.h"
#include "check/links.h"
#include "base/pool.h"
#include "cache/mdcache.h"
#include "incremental/rebuild.h"
#include "render/render.h"
#include "search/search.h"
#include "pipeline/stages.h"
#include "files/stamp.h"
#include "base/version.h"
#include "base/clock.h"
#include "base/hash.h"

#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>


/* md_prepare: the Markdown cache mc for this build: its salt (folio, the
 * config, the options) and the stamp of the files documents read. */
static void md_prepare(struct stages *st, struct md_cache *mc)
{
	struct hasher h;
	hasher_begin(&h, 0);
	static const char tag[] = "folio-md " FOLIO_VERSION;
	hasher_add(&h, tag, sizeof tag);
	hasher_add_u64(&h, stamp_binary());
	hasher_add(&h, st->cfg.src ? st->cfg.src : "", st->cfg.src_len);
	int flags[3] = {st->opts.highlight != NULL, st->opts.typeset != NULL, 0};
	hasher_add(&h, flags, sizeof flags);
	for (size_t i = 0; i < MD_LABELS; i++)
		hasher_add_cstr(&h, st->opts.md_labels[i]);
	st->opts.md_salt = hasher_digest(&h);
	hasher_begin(&h, 0);
	stamp_files(&h, st->opts.static_dir);
	for (size_t i = 0; i < st->content.nposts; i++)
		if (st->content.posts[i]->bundle_dir)
			stamp_files(&h, st->content.posts[i]->bundle_dir);
	st->opts.files_stamp = hasher_digest(&h);
	st->opts.md_cache = mc;
}

/* ---- a session: builds that redo only what changed ---- */

struct build_session {
	struct build_request req;
	char *site_dir, *out_dir, *base_url;
	char *base_path; /* of the last build committed: "/" or "/blog/" */
	struct md_cache *md;
	struct content_cache *content;
	struct related_cache *related;
	int64_t next_future; /* of the last build's site */
	struct live *live;
	int to_output;     /* folio build: a staging folder and the swap */
	struct output *o;  /* during such a build */
	int state_loaded;
	/* folio build: the state of the last build, read on a thread of its
	 * own while the stages run (state_start ... state_join) */
	pthread_t state_thread;
	int state_reading;
	char *state_path;
	struct rebuild *state_rb;
	/* and the Markdown cache opened (its pack's entries found) beside it */
	pthread_t md_thread;
	int md_opening;
	/* what is rendered again (rebuild.h) */
	struct rebuild *rb;
	/* folio build: the output's manifest and its spare's state and folders,
	 * read while the model is made (output_ahead), taken by round_open */
	struct output_ahead *ahead;
	int committed; /* a build of this session was committed */
	/* folio serve: the last round, kept whole after it went without error,
	 * so that an edit of posts' text is patched into it (round_patch)
	 * instead of a whole round; NULL: the next round is a whole one */
	struct round *kept;
	int patches; /* rounds patched into it */
	/* the files changed since the last round (build_session_changed),
	 * site-relative; changed_all: others, or not known which */
	char **changed;
	size_t nchanged;
	int changed_all;
	int search_due; /* a patch left the search index to build_session_finish */
	int related_read; /* the related posts of the cache read (folio build) */
	struct fm_cache *fm; /* the front matter of the cache (folio build) */
	struct src_cache *records; /* what the last build learnt of each content file (folio build) */
	struct search_cache *search; /* the documents' counts (search.pack) */
};

/* kept_read: the cache's file name, read whole (at most max bytes), or
 * NULL; kept_write: b made that file for the next build, or the file
 * removed when b is empty or cannot be written (the next build then
 * makes what it held anew). */
static char *kept_read(const struct build_session *s, const char *name, size_t max, size_t *len)
{
	char *path = cache_path(s->site_dir, name);
	char *text = read_file_max(path, max, len);
	free(path);
	if (text && *len > max) {
		free(text);
		text = NULL;
	}
	return text;
}

static void kept_write(const struct build_session *s, const char *name, const struct buf *b)
{
	char *path = cache_path(s->site_dir, name);
	if (!b->len || cache_open_dir(s->site_dir, NULL) != 0 || cache_write(path, b->p, b->len) != 0)
		cache_remove(path);
	free(path);
}

static void *md_open(void *arg)
{
	struct build_session *s = arg;
	char *path = cache_path(s->site_dir, "markdown.pack");
	s->md = md_cache_open(path);
	free(path);
	return NULL;
}

/* md_join: the Markdown cache opened by state_start's thread, if any */
static void md_join(struct build_session *s)
{
	if (s->md_opening)
		pthread_join(s->md_thread, NULL);
	s->md_opening = 0;
}

static void session_prepare(void *ctx, struct stages *st, const char *site_dir)
{
	struct build_session *s = ctx;
	md_join(s);
	if (!s->md) {
		char *path = cache_path(site_dir, "markdown.pack");
		s->md = md_cache_open(path);
		free(path);
	}
	md_prepare(st, s->md);
	/* the site model is made on this thread alone: what opening the
	 * output reads first is read meanwhile on another */
	if (s->to_output && !s->req.check && !s->ahead)
		s->ahead = output_ahead(s->out_dir, site_dir);
	if (s->to_output && !s->related_read) {
		/* the related posts of the last build, kept in the cache */
		s->related_read = 1;
		size_t len;
		char *text = kept_read(s, "related", FOLIO_MAX_FILE, &len);
		if (text)
			(void)related_cache_read(s->related, text, len); /* if not: made anew */
		free(text);
	}
	/* folio build: one build, whose HTML the cache refers to until it is
	 * saved (see below) */
	st->opts.md_borrow = s->to_output;
	st->opts.related_cache = s->related;
}

struct round;
static void round_free(struct round *r, struct diag *d);
static void changes_clear(struct build_session *s);
static struct rebuild *state_join(struct build_session *s, const char *path);

struct build_session *build_session_new(const struct build_request *req)
{
	struct build_session *s = xcalloc(1, sizeof *s);
	s->req = *req;
	s->site_dir = xstrndup(req->site_dir, strlen(req->site_dir));
	s->out_dir = xstrndup(req->out_dir, strlen(req->out_dir));
	s->base_url = req->base_url ? xstrndup(req->base_url, strlen(req->base_url)) : NULL;
	s->req.site_dir = s->site_dir;
	s->req.out_dir = s->out_dir;
	s->req.base_url = s->base_url;
	s->content = content_cache_new();
	s->related = related_cache_new();
	s->rb = rebuild_new();
	return s;
}

const char *build_session_base_path(const struct build_session *s)
{
	return s->base_path ? s->base_path : "/";
}

void build_session_free(struct build_session *s)
{
	if (!s)
		return;
	md_join(s);
	free(s->base_path);
	struct diag d;
	diag_init(&d, stderr);
	round_free(s->kept, &d);
	diag_fini(&d);
	changes_clear(s);
	stages_thread_cleanup();
	if (s->md && s->committed)
		md_cache_store(s->md, s->site_dir); /* for the next build or server */
	md_cache_free(s->md);
	if (s->search && s->committed && !s->to_output)
		search_cache_store(s->search, s->site_dir);
	search_cache_free(s->search);
	content_cache_free(s->content);
	related_cache_free(s->related);
	fm_cache_free(s->fm);
	src_cache_free(s->records);
	live_close(s->live);
	rebuild_free(state_join(s, NULL));
	rebuild_free(s->rb);
	output_ahead_free(s->ahead);
	free(s->site_dir);
	free(s->out_dir);
	free(s->base_url);
	free(s);
}

/* One round of a session: the stages' results, the plan, what is dirty
 * and the records of the pages rendered now. */
struct round {
	struct build_session *s;
	struct diag *d;
	struct build_result *res;
	struct stages st;
	int errors;
	int stop; /* no going on (see build_session_run) */
	char *state; /* folio build: the file of what it read (session_save) */
	struct render_plan plan;
	const char **outs;           /* by job: its path in the output */
	unsigned char *want;         /* by job: rendered now */
	struct rebuild_page **fresh; /* by job; NULL: not rendered in this round */
	uint64_t *vars_fp;           /* by job */
	uint64_t *fp, cfg_fp;        /* of the inputs (inputs_fingerprint) */
	size_t nfp;
	int links;        /* record each page's links */
	int write_failed; /* a page could not be written (set by any thread) */
	/* the link check, and the texts where it looks for a link's place,
	 * kept with a kept round (to be run again on the pages a patch
	 * renders) */
	struct links_check *lc;
	struct links_text *texts;
	struct index job_index; /* a kept round's: job + 1 by output path (job_of) */
	double t_plan, t_render, t_links, t_commit;
};

static int session_sink(void *ctx, size_t job, const struct str *parts, size_t nparts,
			const struct tmpl_deps *read)
{
	struct round *r = ctx;
	const struct render_job *j = &r->plan.jobs[job];
	if (r->s->to_output ? output_write_parts(r->s->o, j->out, parts, nparts)
			    : live_write_parts(r->s->live, j->out, parts, nparts)) {
		__atomic_store_n(&r->write_failed, 1, __ATOMIC_RELAXED);
		return -1;
	}
	struct rebuild_page *rec = rebuild_record(j->out, r->vars_fp[job], read ? read->ids : NULL, read ? read->n : 0);
	size_t ol = strlen(j->out);
	if (r->links && ol >= 5 && !strcmp(j->out + ol - 5, ".html"))
		rec->links = links_record(parts, nparts, &rec->links_len);
	r->fresh[job] = rec; /* each job is rendered by one thread */
	return 0;
}

/* folio build's output: pages and files written into its staging folder;
 * a static file known unchanged since the last build (its stamp and the
 * hash of its bytes: build_request.known) is that build's file again,
 * without being read. */
struct copier {
	struct output *o;
	const struct stamp_list *known;
	const char *site_dir;
	struct index ix; /* entry + 1 by path, made at the first copy */
};

static int write_output(void *ctx, const char *rel, const void *data, size_t len)
{
	return output_write(((struct copier *)ctx)->o, rel, data, len);
}

static const char *known_path(const void *ctx, uint32_t v)
{
	return ((const struct stamp_list *)ctx)->e[v - 1].path;
}

static int copy_output(void *ctx, const char *rel, const char *path, const struct stat *st)
{
	struct copier *c = ctx;
	size_t n = strlen(c->site_dir);
	if (!c->known || strncmp(path, c->site_dir, n) || path[n] != '/')
		return 1;
	if (!c->ix.cap)
		index_rebuild_str(&c->ix, c->known->n, 64, known_path, c->known);
	uint32_t v = index_get_str(&c->ix, path + n + 1, known_path, c->known);
	const struct stamp_entry *e = v ? &c->known->e[v - 1] : NULL;
	int64_t sig[7];
	stamp_sig(st, sig);
	if (e && e->content && !memcmp(sig, e->sig, sizeof sig) &&
	    output_link_same(c->o, rel, e->content, (uint64_t)st->st_size) == 0)
		return 0;
	return 1; /* read, and written (or linked, if it is the same) */
}

/* ---- the links of every page, checked (links.h) ---- */

/* source_of: the text of the content file src (site-relative) that this
 * build did not read, for the place of a broken link in it (a
 * links_source_fn; ctx: the content); one that cannot be read: the link
 * is told on its page. */
static const char *source_of(void *ctx, const char *src, size_t *len)
{
	struct diag quiet;
	diag_init(&quiet, NULL);
	const char *text = content_text(ctx, &quiet, src, len);
	diag_fini(&quiet);
	return text;
}
/* A sink that notes each file it is handed, for the check. */
struct noting_sink {
	const struct output_sink *inner;
	struct links_check *lc; /* NULL: links are not checked */
	int failed;             /* a file could not be written */
};

static int noting_write(void *ctx, const char *rel, const void *data, size_t len)
{
	struct noting_sink *n = ctx;
	if (n->lc)
		links_check_file(n->lc, rel);
	int rc = n->inner->write(n->inner->ctx, rel, data, len);
	if (rc)
		n->failed = 1;
	return rc;
}

static int noting_copy(void *ctx, const char *rel, const char *path, const struct stat *st)
{
	struct noting_sink *n = ctx;
	if (n->lc)
		links_check_file(n->lc, rel);
	int rc = n->inner->copy(n->inner->ctx, rel, path, st);
	if (rc < 0)
		n->failed = 1;
	return rc; /* 1: read and handed to noting_write */
}

/* check_left_out: the posts and pages left out of this build (drafts,
 * future posts): a link to one is a warning, not a broken link. */
static void check_left_out(struct links_check *lc, const struct content *c, int drafts)
{
	for (size_t i = 0; i < c->nposts; i++) {
		const struct post *p = c->posts[i];
		if (p->index >= 0)
			continue;
		char out[600], why[128];
		snprintf(out, sizeof out, "posts/%.*s/index.html", STR_FMT(p->slug));
		if (p->draft)
			snprintf(why, sizeof why, "a draft");
		else
			snprintf(why, sizeof why, "dated %.*s, in the future", (int)(p->date.iso.len < 10 ? p->date.iso.len : 10),
				 p->date.iso.p);
		links_check_later(lc, out, why);
	}
	for (size_t i = 0; i < c->npages; i++) {
		const struct page *pg = c->pages[i];
		char out[600];
		snprintf(out, sizeof out, "%.*s/index.html", STR_FMT(pg->slug));
		if (pg->draft && !drafts)
			links_check_later(lc, out, "a draft");
	}
}

/* check_only: after a check that found nothing (folio serve's last
 * round, or folio build's last build into the same folder, whose state
 * keeps its memo) with the same key, whose links all lead to files this
 * build has too: the pages whose links are checked again, those rendered
 * now, if none of them gained or lost an id (their links are the only
 * ones that can have broken); NULL: all of them (malloc'd). */
static unsigned char *check_only(const struct round *r, const struct links_check *lc, uint64_t key)
{
	const struct build_session *s = r->s;
	size_t len;
	const char *memo = rebuild_links_memo(s->rb, &len);
	if (!links_check_memo_holds(lc, key, memo, len))
		return NULL;
	unsigned char *only = xcalloc(r->plan.njobs + 1, 1);
	for (size_t i = 0; i < r->plan.njobs; i++) {
		const struct rebuild_page *was = rebuild_last(s->rb, r->outs[i]);
		const struct rebuild_page *now = r->fresh[i];
		if (!now)
			continue;
		if (!was || !links_record_same_ids(was->links, was->links_len, now->links, now->links_len)) {
			free(only);
			return NULL;
		}
		only[i] = 1;
	}
	return only;
}

/* memo_after: the memo of the check that has just run kept (none after
 * folio check, whose folder is scratch) */
static void memo_after(struct build_session *s, const struct links_check *lc, uint64_t key)
{
	size_t last_len, len = 0;
	const char *last = rebuild_links_memo(s->rb, &last_len);
	char *memo = s->req.check ? NULL : links_check_memo(lc, key, last, last_len, &len);
	rebuild_set_links_memo(s->rb, memo, len);
	free(memo);
}

/* check_links: every page's links (its record, fresh or kept from the
 * last build) against the files of this build; with --external, the
 * http(s) links too. Returns the number of errors. */
static int check_links(struct round *r, struct links_check *lc)
{
	struct build_session *s = r->s;
	const struct stages *st = &r->st;
	/* what a page's links are checked against besides the files: the
	 * patterns of links its source says to leave alone, which a page not
	 * rendered again may have changed */
	uint64_t ignores = 0;
	for (size_t i = 0; i < r->plan.njobs; i++) {
		const struct rebuild_page *rec = r->fresh[i] ? r->fresh[i] : rebuild_last(s->rb, r->outs[i]);
		const struct source *src = r->plan.jobs[i].src;
		for (size_t k = 0; src && k < src->nignore_links; k++)
			ignores += hash_seeded(src->ignore_links[k], strlen(src->ignore_links[k]), i * 64 + k);
		links_check_page(lc, r->outs[i], rec ? rec->links : NULL, rec ? rec->links_len : 0,
				 src ? src->path : NULL, src ? src->src : NULL, src ? src->len : 0,
				 src ? src->ignore_links : NULL, src ? src->nignore_links : 0);
	}
	check_left_out(lc, &st->content, s->req.drafts);
	/* where a link that is not in its page's source is looked for:
	 * folio.yml and the templates */
	size_t ntmpl = tmpl_env_count(st->env);
	struct links_text *t = xcalloc(ntmpl + 2, sizeof *t);
	t[0] = (struct links_text){st->cfg.path, st->cfg.src, st->cfg.src_len};
	for (size_t i = 0; i < ntmpl; i++) {
		struct str src = tmpl_env_source(st->env, i);
		const char *name = tmpl_env_name(st->env, i);
		size_t len = strlen(name) + 11;
		char *path = arena_alloc(st->a, len);
		snprintf(path, len, "templates/%s", name);
		t[i + 1] = (struct links_text){path, src.p, src.len};
	}
	links_check_texts(lc, t, ntmpl + 1); /* kept until the check has run (a kept round's, until it goes) */
	r->texts = t;
	uint64_t key = ignores * 0x9e3779b97f4a7c15ULL + (uint64_t)st->cfg.links_check;
	unsigned char *only = check_only(r, lc, key);
	links_check_only(lc, only);
	size_t broken = links_check_run(lc, r->d);
	memo_after(s, lc, key); /* kept with the state (folio build), or the session (folio serve) */
	free(only);
	r->res->links = links_check_count(lc);
	if (s->req.external) {
		char *self = st->cfg.base_url.len ? xstrndup(st->cfg.base_url.p, st->cfg.base_url.len) : NULL;
		links_check_external(lc, self, s->req.external, s->req.external_ctx);
		free(self);
	}
	return broken ? 1 : 0;
}

/* ---- the state of a folio build kept for the next one (rebuild.h's
 * bytes), in the cache's pages-HASH file of its output ---- */

/* session_save: the state of this build, for the next one, streamed into
 * the cache file a MB at a time */
static int flush_state(void *ctx, struct buf *b)
{
	return cache_pack_flush(*(int *)ctx, b);
}

static void session_save(struct build_session *s, const char *path)
{
	struct cache_file f;
	if (cache_file_open(&f, path) != 0)
		return; /* the next build renders every page */
	struct buf b;
	buf_init(&b);
	int rc = rebuild_save(s->rb, stamp_binary(), &b, flush_state, &f.fd);
	if (rc == 0 && b.len)
		rc = write_full(f.fd, b.p, b.len);
	buf_fini(&b);
	if (rc != 0)
		cache_file_abort(&f);
	else
		(void)cache_file_commit(&f);
}

/* related_save: the related posts made anew, into the cache's file
 * "related" for the next build. */
static void related_save(struct build_session *s)
{
	struct buf b;
	buf_init(&b);
	related_cache_write(s->related, &b);
	kept_write(s, "related", &b);
	buf_fini(&b);
}

/* fm_open: the front matter trees of the last build, from the cache's
 * file "frontmatter" (none if it is missing or not whole). */
static struct fm_cache *fm_open(struct build_session *s)
{
	struct fm_cache *fm = fm_cache_new(stamp_binary());
	size_t len;
	char *text = kept_read(s, "frontmatter", (size_t)1 << 30, &len);
	if (text)
		(void)fm_cache_read(fm, text, len);
	free(text);
	return fm;
}

/* fm_save: the trees this build read or parsed, for the next one. */
static void fm_save(struct build_session *s)
{
	struct buf b;
	buf_init(&b);
	fm_cache_write(s->fm, &b);
	kept_write(s, "frontmatter", &b);
	buf_fini(&b);
}

/* records_open: the last build's records of the content files, from the
 * cache's file "sources" (none if it is missing or not whole). */
static struct src_cache *records_open(struct build_session *s)
{
	struct src_cache *c = src_cache_new(stamp_binary());
	size_t len;
	char *text = kept_read(s, "sources", (size_t)1 << 30, &len);
	if (text)
		(void)src_cache_read(c, text, len);
	free(text);
	return c;
}

/* record_of: s's record for the next build into c, if it has one: read
 * (or not) without a message, its front matter and its body's hashes
 * known. */
static void record_of(struct src_cache *c, const struct source *s)
{
	if (!s->content || s->no_record || !s->body_hash || !s->link_hint || !(s->fm_key_lo | s->fm_key_hi))
		return;
	struct src_record r = {s->content,
			       s->len,
			       s->len - s->body_len,
			       s->body_hash,
			       {s->fm_key_lo, s->fm_key_hi},
			       s->fm_len,
			       s->body_line,
			       s->fm_lines,
			       s->link_hint};
	src_cache_put(c, s->path, &r);
}

/* records_save: the records of this build's content files, for the next
 * build, in the cache's file "sources". */
static void records_save(struct build_session *s, const struct content *ct)
{
	struct src_cache *c = src_cache_new(stamp_binary());
	for (size_t i = 0; i < ct->nposts; i++)
		record_of(c, &ct->posts[i]->s);
	for (size_t i = 0; i < ct->nseries; i++)
		record_of(c, &ct->series[i]->s);
	for (size_t i = 0; i < ct->npages; i++)
		record_of(c, &ct->pages[i]->s);
	struct buf b;
	buf_init(&b);
	if (src_cache_count(c))
		src_cache_write(c, &b);
	kept_write(s, "sources", &b);
	buf_fini(&b);
	src_cache_free(c);
}

/* session_load: the state in path, if it is whole and from this folio;
 * else every page is rendered. */
static void session_load(struct rebuild *rb, const char *path)
{
	size_t len;
	char *text = cache_map(path, &len); /* tens of MB: mapped, not copied */
	if (text)
		(void)rebuild_load_block(rb, stamp_binary(), text, len, cache_unmap); /* takes text */
}

static void *state_read(void *arg)
{
	struct build_session *s = arg;
	session_load(s->state_rb, s->state_path);
	return NULL;
}

/* state_start: folio build reads the last build's state (tens of MB at
 * 10,000 posts) on a thread while the content and the Markdown are read;
 * round_open takes it (state_join) if its output's file is the same. */
static void state_start(struct build_session *s)
{
	if (!s->to_output || s->req.check || s->state_loaded || s->state_reading)
		return;
	if (!s->md)
		s->md_opening = pthread_create(&s->md_thread, NULL, md_open, s) == 0;
	s->state_path = cache_output_path(s->site_dir, s->out_dir, "pages");
	if (!s->state_path)
		return;
	s->state_rb = rebuild_new();
	s->state_reading = pthread_create(&s->state_thread, NULL, state_read, s) == 0;
	if (!s->state_reading) { /* read when it is needed instead */
		rebuild_free(s->state_rb);
		s->state_rb = NULL;
	}
}

/* state_join: the state read by state_start, if it was the file path
 * (else NULL: the caller reads it); the thread is gone after. */
static struct rebuild *state_join(struct build_session *s, const char *path)
{
	if (!s->state_reading)
		return NULL;
	pthread_join(s->state_thread, NULL);
	s->state_reading = 0;
	struct rebuild *rb = s->state_rb;
	s->state_rb = NULL;
	if (!path || strcmp(path, s->state_path)) {
		rebuild_free(rb);
		rb = NULL;
	}
	free(s->state_path);
	s->state_path = NULL;
	return rb;
}

/* inputs_fingerprint: the fingerprints of everything a page may read in
 * this build, by id (*nfp_out of them: the values of plan, the templates
 * and their names), and in *cfg_fp that of the config and the options,
 * which every page reads. */
/* know_html: tells rebuild.c the hash of a document's HTML, kept in its
 * source from an earlier build of the session when it was rendered under
 * the same Markdown salt and file stamp and not rewritten since
 * (rewrite_doc), else made now and kept: a rebuild does not hash every
 * post's HTML (80 MB at 10,000 posts) to fingerprint the values. */
static void know_html(struct rebuild *rb, struct source *src, const struct md_doc *doc, uint64_t salt,
		      const char *base)
{
	if (src->link_hint != 2 || !doc->html.len || (base && strcmp(base, "/")))
		return;
	if (src->html_salt != salt || src->html_len != doc->html.len || !src->html_hash) {
		/* the Markdown cache's, else hashed now */
		src->html_hash = doc->html_hash ? doc->html_hash : rebuild_text_hash(doc->html.p, doc->html.len);
		src->html_salt = salt;
		src->html_len = doc->html.len;
	}
	rebuild_known(rb, doc->html.p, doc->html.len, src->html_hash);
}

static uint64_t *inputs_fingerprint(struct build_session *s, const struct stages *st, const struct render_plan *plan,
				    size_t *nfp_out, uint64_t *cfg_fp)
{
	uint64_t salt = rebuild_mix(st->opts.md_salt, st->opts.files_stamp);
	const struct site *site = &st->site;
	for (size_t i = 0; i < site->nposts; i++)
		know_html(s->rb, &site->posts[i]->s, &site->posts[i]->doc, salt, st->base_path);
	for (size_t i = 0; i < site->nseries; i++)
		know_html(s->rb, &site->series[i]->s, &site->series[i]->doc, salt, st->base_path);
	for (size_t i = 0; i < site->npages; i++)
		know_html(s->rb, &site->pages[i]->s, &site->pages[i]->doc, salt, st->base_path);
	/* the config (and the options, --base-url included) touch every page */
	struct hasher h;
	hasher_begin(&h, 0);
	hasher_add(&h, st->cfg.src ? st->cfg.src : "", st->cfg.src_len);
	int64_t flags[4] = {s->req.drafts, s->req.future, st->opts.highlight != NULL, st->opts.typeset != NULL};
	hasher_add(&h, flags, sizeof flags);
	hasher_add(&h, st->cfg.base_url.p ? st->cfg.base_url.p : "", st->cfg.base_url.len);
	*cfg_fp = hasher_digest(&h);
	return rebuild_inputs(s->rb, plan, st->env, st->opts.jobs, nfp_out);
}

/* round_open: where this round writes: folio build, a staging folder (and
 * the state of what the last build into it read); folio serve, the live
 * folder. */
static void round_open(struct round *r)
{
	struct build_session *s = r->s;
	if (s->to_output) {
		s->o = output_begin_ahead(r->d, s->out_dir, s->site_dir, s->ahead);
		output_ahead_free(s->ahead);
		s->ahead = NULL;
		if (s->o && s->req.check)
			output_keep_no_state(s->o); /* folio check: a scratch folder, no state kept */
		if (!s->o) {
			r->errors++;
			r->stop = 1;
		} else if (!s->req.check && (r->state = output_cache_file(s->o, "pages"))) {
			/* what the last build into this folder read; the file goes
			 * just before the swap and comes back only with this build's,
			 * so that it never describes another build than the output's
			 * (a build that stops before, on a broken link say, leaves the
			 * output and its state as they were) */
			struct rebuild *rb = state_join(s, r->state);
			if (rb) {
				rebuild_free(s->rb);
				s->rb = rb;
			} else if (!s->state_loaded) {
				session_load(s->rb, r->state);
			}
			s->state_loaded = 1;
		}
	} else if (!s->live) {
		s->live = live_open(r->d, s->out_dir);
		if (!s->live) {
			r->errors++;
			r->stop = 1;
		}
	}
}

/* Each page's own fingerprint, and whether it is rendered now, made on the
 * build's threads (rebuild.c reads the state and fingerprints only). */
struct dirtier {
	struct round *r;
	struct pool_queue *q;
};

static void *dirty_some(void *arg)
{
	struct dirtier *k = arg;
	struct round *r = k->r;
	const struct rebuild *rb = r->s->rb;
	size_t b, e;
	while (pool_take(k->q, &b, &e))
		for (size_t i = b; i < e; i++) {
			const struct render_job *j = &r->plan.jobs[i];
			r->vars_fp[i] = rebuild_fingerprint(rb, &j->vars, j->tmpl);
			r->want[i] = (unsigned char)rebuild_dirty(rb, j->out, r->vars_fp[i], r->fp, r->nfp, r->cfg_fp);
		}
	return NULL;
}

/* round_plan: the pages, their fingerprints, and which are rendered now
 * (want); into a new folder, a clean page is the last build's file, if it
 * is still there as that build wrote it. */
static void round_plan(struct round *r)
{
	struct build_session *s = r->s;
	struct render_deps deps = {rebuild_id, s->rb};
	r->errors += render_plan(r->st.a, r->d, &r->st.site, r->st.env, &deps, r->st.opts.jobs, &r->plan);
	r->stop = r->errors && !s->req.keep_going;
	if (r->stop)
		return;
	size_t n = r->plan.njobs;
	r->fp = inputs_fingerprint(s, &r->st, &r->plan, &r->nfp, &r->cfg_fp);
	r->outs = xcalloc(n + 1, sizeof *r->outs);
	r->want = xcalloc(n + 1, 1);
	r->fresh = xcalloc(n + 1, sizeof *r->fresh);
	r->vars_fp = xcalloc(n + 1, sizeof *r->vars_fp);
	r->links = r->st.cfg.links_check != CONFIG_LINKS_OFF;
	for (size_t i = 0; i < n; i++)
		r->outs[i] = r->plan.jobs[i].out;
	int t = r->st.opts.jobs > 1 && n >= 1024 ? r->st.opts.jobs : 1;
	struct pool_queue q;
	pool_queue_init(&q, n, 256);
	struct dirtier *k = xcalloc((size_t)t, sizeof *k);
	for (int i = 0; i < t; i++)
		k[i] = (struct dirtier){r, &q};
	pool_run(t, dirty_some, k, sizeof *k, 0);
	free(k);
	pool_queue_fini(&q);
	if (s->to_output) {
		unsigned char *keep = xcalloc(n + 1, 1);
		for (size_t i = 0; i < n; i++)
			keep[i] = !r->want[i];
		output_link_all(s->o, r->outs, keep, n, r->st.opts.jobs);
		for (size_t i = 0; i < n; i++)
			r->want[i] = !keep[i];
		free(keep);
	}
}

/* search_cache_of: the documents' counts of earlier builds (opened at the
 * first index), or NULL when the site has no index. */
static struct search_cache *search_cache_of(struct build_session *s, const struct config *cfg)
{
	if (!cfg->search)
		return NULL;
	if (!s->search) {
		char *path = cache_path(s->site_dir, "search.pack");
		s->search = search_cache_open(path, stamp_binary());
		free(path);
	}
	return s->search;
}

static int reuse_output(void *ctx, const char *rel)
{
	return output_link(ctx, rel);
}

/* round_render: the static files copied, the pages in want rendered and
 * written, and the links of all checked. */
static void round_render(struct round *r)
{
	struct build_session *s = r->s;
	struct stages *st = &r->st;
	int kg = s->req.keep_going;
	struct output_sink live_sink = {live_write, live_copy, s->live};
	struct copier cp = {s->o, s->req.known, s->site_dir, {0}};
	struct output_sink out_sink = {write_output, copy_output, &cp};
	struct links_check *lc = r->links ? links_check_new(st->base_path, (enum links_mode)st->cfg.links_check) : NULL;
	if (lc)
		links_check_sources(lc, source_of, &st->content);
	struct noting_sink ns = {s->to_output ? &out_sink : &live_sink, lc, 0};
	struct output_sink noting = {noting_write, noting_copy, &ns};
	r->errors += stages_copy_static(r->d, &st->site, s->site_dir, &noting);
	r->stop = r->errors && !kg;
	if (!r->stop)
		r->errors += render_pages(&r->plan, st->env, r->d, r->want, st->opts.jobs, r->nfp, session_sink, r,
					  &r->res->rendered);
	r->stop = r->errors && !kg;
	/* the search index: a file of the last build with the same name (its
	 * hash) is kept, not written again */
	if (!r->stop)
		r->errors += search_output(st->a, &st->site, st->opts.jobs, search_cache_of(s, &st->cfg),
					   s->to_output ? reuse_output : live_keep_if,
					   s->to_output ? (void *)s->o : (void *)s->live, &noting);
	if (!r->stop && !s->to_output && s->search)
		search_cache_sweep(s->search); /* folio serve: what this index used */
	r->stop = r->errors && !kg;
	double t_check = clock_seconds();
	/* (after errors in folio.yml, a wrong base_url would make every link
	 * look broken) */
	if (!r->stop && lc && !st->cfg_errors)
		r->errors += check_links(r, lc);
	else if (s->to_output)
		rebuild_set_links_memo(s->rb, NULL, 0); /* not checked: not known to be clean */
	r->stop = r->errors && !kg;
	r->lc = lc; /* freed with the round, or kept with it */
	r->t_render = clock_seconds();
	r->t_links = r->t_render - t_check;
	/* keep_going writes what could be made, never what could not be
	 * written: after a failed write (a full disk) the last good build
	 * stays */
	if (ns.failed || __atomic_load_n(&r->write_failed, __ATOMIC_RELAXED))
		r->stop = 1;
	index_fini(&cp.ix);
}

/* round_commit: the output in place (the staging folder swapped in, or
 * the live folder's changes made), then the records of what each page
 * read. */
static void round_commit(struct round *r)
{
	struct build_session *s = r->s;
	size_t removed = 0;
	if (s->to_output) {
		r->res->files = output_count(s->o);
		r->res->written = r->res->files - output_linked(s->o);
		if (r->state)
			cache_remove(r->state);
		int failed = output_commit(s->o);
		s->o = NULL;
		if (failed) {
			r->errors++;
			r->stop = 1;
			return;
		}
		if (s->req.inputs_read)
			s->req.inputs_read(s->req.inputs_ctx);
	} else {
		for (size_t i = 0; i < r->plan.njobs; i++)
			if (!r->want[i])
				live_keep(s->live, r->outs[i]);
		/* with errors (keep_going), nothing is deleted: a page that could
		 * not be made this time (a post whose front matter is wrong) is
		 * still served as it was */
		if (r->errors)
			live_keep_all(s->live);
		if (live_commit(s->live, &r->res->written, &removed)) {
			r->errors++;
			r->stop = 1;
			return;
		}
	}
	/* the records now: fresh ones, or the old ones of clean pages; a page
	 * that could not be rendered (keep_going) has none, so that the next
	 * build renders it again */
	rebuild_commit(s->rb, r->fresh, r->outs, r->want, r->plan.njobs, r->fp, r->nfp, r->cfg_fp);
	r->fp = NULL; /* taken, as the records in fresh are */
	free(r->fresh);
	r->fresh = NULL;
	free(s->base_path);
	s->base_path = xstrndup(r->st.base_path, strlen(r->st.base_path));
	s->committed = 1;
	r->res->committed = 1;
	r->res->removed = removed;
	r->t_commit = clock_seconds();
	if (r->state)
		session_save(s, r->state);
	if (s->to_output && !s->req.check && related_cache_dirty(s->related))
		related_save(s);
	if (s->fm && !s->req.check && fm_cache_dirty(s->fm))
		fm_save(s);
	if (s->records && !s->req.check)
		records_save(s, &r->st.content);
}

/* round_free: the round's memory, and its stages'. */
static void round_free(struct round *r, struct diag *d)
{
	if (!r)
		return;
	if (r->fresh)
		for (size_t i = 0; i < r->plan.njobs; i++)
			rebuild_page_free(r->fresh[i]);
	free(r->fresh);
	free(r->outs);
	free(r->want);
	free(r->vars_fp);
	free(r->fp);
	free(r->state);
	links_check_free(r->lc);
	free(r->texts);
	index_fini(&r->job_index);
	stages_free(&r->st, d, 1);
	free(r);
}

/* round_end: what a round leaves: an output not committed is thrown away,
 * the Markdown cache stored (folio build); the round is freed, or kept by
 * folio serve when it went without error (round_patch). */
static void round_end(struct round *r)
{
	struct build_session *s = r->s;
	md_join(s); /* the round may have stopped before the Markdown */
	output_ahead_free(s->ahead); /* the round may have stopped before its output */
	s->ahead = NULL;
	if (s->o) {
		output_abort(s->o);
		s->o = NULL;
	} else if (r->stop && !s->to_output && s->live && r->want) {
		live_abort(s->live);
	}
	r->res->pages = r->plan.njobs;
	r->res->posts = r->st.have_site ? r->st.site.nposts : 0;
	s->next_future = r->st.have_site ? r->st.site.next_future : 0;
	if (s->md && s->to_output) {
		/* The cache refers to this build's HTML (md_borrow): it is stored
		 * (when the Markdown stage went without error), and freed, before
		 * the arena goes. */
		md_cache_store_end(s->md, s->committed);
		md_cache_free(s->md);
		s->md = NULL;
	}
	if (s->search && s->to_output) { /* folio check writes nothing there */
		if (s->committed && !s->req.check) {
			search_cache_sweep(s->search); /* what this build did not use goes */
			search_cache_store(s->search, s->site_dir);
		}
		search_cache_free(s->search);
		s->search = NULL;
	}
	rebuild_free(state_join(s, NULL)); /* not taken: the round stopped before its output */
	rebuild_known_clear(s->rb); /* its texts go with the build's arena */
	if (!s->to_output && r->res->committed && !r->errors && !r->stop) {
		free(r->fresh); /* taken by rebuild_commit */
		r->fresh = NULL;
		s->kept = r;
		s->patches = 0;
	} else {
		round_free(r, r->d);
	}
	if (s->md)
		md_cache_sweep(s->md);
}

/* ---- folio serve: an edit of posts' text, patched into the last round ---- */

/* PATCH_MAX: rounds patched into one kept round; then a whole round runs
 * again (each patch leaves its text and HTML in the kept arena). */
#define PATCH_MAX 200

void build_session_changed(struct build_session *s, const char *rel)
{
	if (!rel) {
		s->changed_all = 1;
		return;
	}
	for (size_t i = 0; i < s->nchanged; i++)
		if (!strcmp(s->changed[i], rel))
			return;
	if (s->nchanged >= 64) { /* more than an edit: the whole round */
		s->changed_all = 1;
		return;
	}
	s->changed = xrealloc(s->changed, (s->nchanged + 1) * sizeof *s->changed);
	s->changed[s->nchanged++] = xstrndup(rel, strlen(rel));
}

static void changes_clear(struct build_session *s)
{
	for (size_t i = 0; i < s->nchanged; i++)
		free(s->changed[i]);
	free(s->changed);
	s->changed = NULL;
	s->nchanged = 0;
	s->changed_all = 0;
}

static const char *job_out(const void *ctx, uint32_t v)
{
	return ((const struct round *)ctx)->outs[v - 1];
}

/* job_of: the job of the page out in a kept round, or -1. */
static long job_of(struct round *r, const char *out)
{
	if (!r->job_index.cap)
		index_rebuild_str(&r->job_index, r->plan.njobs, 1024, job_out, r);
	uint32_t v = index_get_str(&r->job_index, out, job_out, r);
	return v ? (long)v - 1 : -1;
}

/* patch_post: the post whose file is rel, patched with the file as it is
 * now; 0, or 1 when the whole round must run (see site_patch_post). *job:
 * the post's index. */
static int patch_post(struct round *r, const char *rel, size_t *post)
{
	struct build_session *s = r->s;
	struct site *site = &r->st.site;
	size_t i = 0;
	while (i < site->nposts && strcmp(site->posts[i]->s.path, rel))
		i++;
	if (i == site->nposts)
		return 1; /* not a published post's file */
	char path[PATH_MAX];
	if (snprintf(path, sizeof path, "%s/%s", s->site_dir, rel) >= (int)sizeof path)
		return 1;
	size_t len;
	char *text = read_file_max(path, FOLIO_MAX_FILE, &len);
	if (!text || len > FOLIO_MAX_FILE) {
		free(text);
		return 1;
	}
	char *kept = arena_strndup(r->st.a, text, len);
	free(text);
	*post = i;
	return site_patch_post(r->st.a, site, &r->st.opts, i, kept, len, r->st.base_path);
}

/* patch_links: the links of the pages rendered by a patch checked again,
 * on the kept check (every page's, when one of them gained or lost an id:
 * a link to it from elsewhere may have broken). The number of broken
 * links; then nothing is reported (the whole round reports them, and a
 * collector does not say a thing twice), else the warnings are. */
static size_t patch_links(struct round *r, struct diag *d)
{
	struct build_session *s = r->s;
	size_t n = r->plan.njobs;
	/* the warnings of the other pages were told by an earlier round */
	int same = 1;
	for (size_t i = 0; i < n; i++) {
		const struct rebuild_page *now = r->fresh[i];
		if (!now)
			continue;
		const struct rebuild_page *was = rebuild_last(s->rb, r->outs[i]);
		if (!was || !links_record_same_ids(was->links, was->links_len, now->links, now->links_len))
			same = 0;
		const struct source *src = r->plan.jobs[i].src;
		links_check_repage(r->lc, i, now->links, now->links_len, src ? src->src : NULL, src ? src->len : 0);
	}
	links_check_only(r->lc, same ? r->want : NULL);
	struct diag quiet;
	diag_init(&quiet, NULL);
	size_t broken = links_check_run(r->lc, &quiet);
	diag_fini(&quiet);
	if (!broken && links_check_reported(r->lc))
		(void)links_check_run(r->lc, d); /* the same again, told */
	/* the memo of the round's check, with the targets of the pages
	 * patched (their ignore_links, in their front matter, are the same) */
	size_t len;
	const char *memo = rebuild_links_memo(s->rb, &len);
	memo_after(s, r->lc, links_memo_key(memo, len));
	links_check_only(r->lc, NULL);
	return broken;
}

/* round_patch: folio serve, when only the text of published posts changed
 * since the kept round (their front matter is the same bytes): their
 * documents rendered again into its model, the fingerprints of their
 * values made again, and only the pages that read what changed rendered,
 * checked and committed; what a session's edit costs then grows with the
 * pages the edit touches, not with the site. 1 when done; 0 when the
 * whole round must run (the kept round is then of no more use). */
static int round_patch(struct build_session *s, struct diag *d, struct build_result *res)
{
	struct round *r = s->kept;
	if (!r || s->changed_all || !s->nchanged || s->patches >= PATCH_MAX)
		return 0;
	double t0 = clock_seconds();
	struct stages *st = &r->st;
	if (st->site.next_future && !s->req.future) {
		if (clock_build_now(s->req.now) >= st->site.next_future)
			return 0; /* a post left out as future is due */
	}
	size_t *posts = xcalloc(s->nchanged, sizeof *posts);
	for (size_t k = 0; k < s->nchanged; k++)
		if (patch_post(r, s->changed[k], &posts[k])) {
			free(posts);
			return 0;
		}
	double t_md = clock_seconds();
	size_t n = r->plan.njobs, nfp;
	uint64_t *fp = rebuild_last_inputs(s->rb, &nfp);
	memset(r->want, 0, n);
	for (size_t k = 0; k < s->nchanged; k++) {
		const struct render_dep_val *dv = render_refresh_post(st->a, &r->plan, &st->site, posts[k]);
		if (dv)
			rebuild_fingerprint_dep(s->rb, fp, dv);
		const struct source *src = &st->site.posts[posts[k]]->s;
		for (size_t i = 0; i < n; i++) {
			if (r->plan.jobs[i].src != src)
				continue;
			uint64_t v = rebuild_fingerprint(s->rb, &r->plan.jobs[i].vars, r->plan.jobs[i].tmpl);
			if (v != r->vars_fp[i])
				r->want[i] = 1;
			r->vars_fp[i] = v;
		}
	}
	free(posts);
	/* the pages that read a value that changed (the vars of the posts'
	 * own pages were looked at above) */
	const char **readers;
	size_t nreaders = rebuild_readers(s->rb, fp, nfp, &readers);
	for (size_t k = 0; k < nreaders; k++) {
		long j = job_of(r, readers[k]);
		if (j >= 0)
			r->want[j] = 1;
	}
	free(readers);
	double t_plan = clock_seconds();
	memset(res, 0, sizeof *res);
	r->res = res;
	r->d = d;
	r->write_failed = 0;
	r->fresh = xcalloc(n + 1, sizeof *r->fresh);
	struct diag quiet; /* a template's error: the whole round says it */
	diag_init(&quiet, NULL);
	int errors = render_pages(&r->plan, st->env, &quiet, r->want, st->opts.jobs, nfp, session_sink, r, &res->rendered);
	errors += quiet.errors + quiet.warnings;
	diag_fini(&quiet);
	double t_render = clock_seconds();
	if (!errors && r->lc && !st->cfg_errors)
		errors += patch_links(r, d) ? 1 : 0;
	double t_links = clock_seconds();
	size_t removed = 0;
	if (errors || __atomic_load_n(&r->write_failed, __ATOMIC_RELAXED)) {
		/* the whole round says it again, with everything else it finds */
		live_abort(s->live);
		free(fp);
		return 0;
	}
	live_keep_all(s->live);
	if (live_commit(s->live, &res->written, &removed)) {
		free(fp);
		return 0;
	}
	rebuild_commit_some(s->rb, r->fresh, n, fp, nfp);
	free(r->fresh);
	r->fresh = NULL;
	s->patches++;
	/* the index reads every document (0.75 s of CPU at 10,000 posts): it
	 * is made again after the tab has reloaded */
	s->search_due = st->cfg.search;
	res->committed = 1;
	res->pages = n;
	res->posts = st->site.nposts;
	res->seconds = clock_seconds() - t0;
	if (getenv("FOLIO_TIMINGS"))
		fprintf(stderr,
			"folio: timings (ms): patch: markdown %.1f, plan %.1f, render+write %.1f, link check %.1f, "
			"commit %.1f\n",
			(t_md - t0) * 1e3, (t_plan - t_md) * 1e3, (t_render - t_plan) * 1e3, (t_links - t_render) * 1e3,
			(clock_seconds() - t_links) * 1e3);
	return 1;
}

int build_session_finish(struct build_session *s, struct diag *d, int *done)
{
	struct round *r = s->kept;
	*done = 0;
	if (!s->search_due || !r || !s->live)
		return 0;
	s->search_due = 0;
	*done = 1;
	/* every file stays but the index's, which are kept when their name
	 * (their hash) is made again, else written */
	live_keep_all_but(s->live, "search/");
	for (size_t i = 0; i < r->plan.njobs; i++)
		if (!strncmp(r->outs[i], "search/", 7))
			live_keep(s->live, r->outs[i]);
	struct output_sink sink = {live_write, live_copy, s->live};
	(void)d; /* search_output reports a file it cannot write by its count */
	int errors = search_output(r->st.a, &r->st.site, r->st.opts.jobs, search_cache_of(s, &r->st.cfg), live_keep_if,
				   s->live, &sink);
	search_cache_sweep(s->search);
	if (errors)
		live_abort(s->live);
	else if (live_commit(s->live, NULL, NULL))
		errors = 1;
	if (errors) { /* the next round is a whole one, which says what is wrong */
		round_free(s->kept, d);
		s->kept = NULL;
	}
	return errors;
}

int build_session_run(struct build_session *s, struct diag *d, struct build_result *res)
{
	int patched = round_patch(s, d, res);
	changes_clear(s);
	if (patched)
		return 0;
	round_free(s->kept, d);
	s->kept = NULL;
	memset(res, 0, sizeof *res);
	struct round *r = xcalloc(1, sizeof *r);
	r->s = s;
	r->d = d;
	r->res = res;
	if (s->to_output && !s->fm)
		s->fm = fm_open(s);
	if (s->to_output && !s->req.check && !s->records)
		s->records = records_open(s);
	state_start(s);
	stages_run(&r->st, &s->req, d, session_prepare, s, s->content, s->fm, s->records);
	r->errors = r->st.errors;
	/* stop: no going on. Without keep_going, at the first stage with
	 * errors; with it, only when what the next stage needs is missing (no
	 * settings, no output folder): the pages that can be are written. */
	r->stop = r->errors && !(s->req.keep_going && r->st.have_site && r->st.env);
	if (!r->errors && s->md && s->to_output && !s->req.check)
		md_cache_store_begin(s->md, s->site_dir);
	if (!r->stop)
		round_open(r);
	if (!r->stop)
		round_plan(r);
	r->t_plan = clock_seconds();
	if (!r->stop)
		round_render(r);
	if (!r->stop)
		round_commit(r);
	double t0 = r->st.t0, t_tmpl = r->st.t_tmpl;
	double t_cfg = r->st.t_cfg, t_content = r->st.t_content, t_site = r->st.t_site;
	double t_plan = r->t_plan, t_render = r->t_render, t_links = r->t_links, t_commit = r->t_commit;
	int errors = r->errors;
	round_end(r); /* r is freed, or kept */
	res->seconds = clock_seconds() - t0;
	if (getenv("FOLIO_TIMINGS") && t_tmpl > 0 && t_render > 0)
		fprintf(stderr,
			"folio: timings (ms): config %.1f, content %.1f, markdown+site %.1f, templates %.1f, "
			"plan %.1f, render+write %.1f (of which the link check %.1f, of %zu links), commit %.1f\n",
			(t_cfg - t0) * 1e3, (t_content - t_cfg) * 1e3, (t_site - t_content) * 1e3, (t_tmpl - t_site) * 1e3,
			(t_plan - t_tmpl) * 1e3, (t_render - t_plan) * 1e3, t_links * 1e3, res->links,
			(t_commit - t_render) * 1e3);
	return errors;
}

struct build_session *session_new_output(const struct build_request *req)
{
	struct build_session *s = build_session_new(req);
	content_cache_free(s->content);
	s->content = NULL; /* one build reads each file once */
	s->to_output = 1; /* its related posts are the cache's (session_prepare) */
	return s;
}

int64_t session_next_future(const struct build_session *s)
{
	return s->next_future;
}
