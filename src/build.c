/* build.c: one build from start to end, with one arena. */
#include "build.h"

#include "cache.h"
#include "rebuild.h"
#include "stamp.h"

#include "config.h"
#include "highlight.h"
#include "math.h"

/* Highlighting is in the binary when its grammars are (mk/highlight.mk
 * wires them in): until then these are weak and NULL, and code blocks are
 * plain escaped text. */
#pragma weak hl_render
#pragma weak hl_thread_cleanup
#include "content.h"
#include "links.h"
#include "output.h"
#include "pool.h"
#include "render.h"
#include "search/search.h"
#include "site.h"
#include "theme.h"
#include "tmpl.h"
#include "version.h"

#include <pthread.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <xxhash.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int typeset(void *ctx, const char *tex, size_t len, int display, struct buf *out, struct buf *err,
		   int *err_pos)
{
	return math_render(ctx, tex, len, display, out, err, err_pos);
}

/* open_math: the formula cache of the site, with folio.yml's macros. */
static struct math_cache *open_math(struct arena *a, const struct config *cfg, const char *site_dir)
{
	const struct ynode *m = cfg->math_macros;
	size_t n = m ? m->len : 0;
	struct math_macro *mac = arena_alloc(a, (n + 1) * sizeof *mac);
	for (size_t i = 0; i < n; i++) {
		mac[i].name = m->keys[i]->str;
		mac[i].expansion = m->items[i]->str;
	}
	return math_cache_open(site_dir, mac, n);
}

/* ---- the stages every build runs: config, content, Markdown, model,
 * templates ---- */

struct stages {
	struct arena *a;
	struct config cfg;
	struct content content;
	struct build_opts opts;
	struct math_cache *mc;
	struct site site;
	int have_site; /* site_build ran (site_free is due) */
	const char *base_path; /* of base_url: "/" or "/blog/" */
	struct tmpl_env *env;
	int errors;
	int cfg_errors; /* of folio.yml: its settings (base_url) may be wrong */
	double t0, t_cfg, t_content, t_site, t_tmpl;
};

/* prepare_md: set by the session, called once the content is loaded (the
 * Markdown cache's salt and file stamp depend on it). */
typedef void (*prepare_fn)(void *ctx, struct stages *st, const char *site_dir);

static void stages_run(struct stages *st, const struct build_request *req, struct diag *d, prepare_fn prep,
		       void *prep_ctx, struct content_cache *cc)
{
	memset(st, 0, sizeof *st);
	st->t0 = now_seconds();
	st->a = arena_new();
	struct arena *a = st->a;
	st->errors += config_load(a, d, req->site_dir, req->base_url, &st->cfg);
	st->cfg_errors = st->errors;
	st->t_cfg = now_seconds();
	if (!st->cfg.root || st->cfg.root->kind != YNODE_MAP) {
		/* no settings to go on; with some wrong ones, the content is
		 * still checked so that every error is reported at once */
		if (!st->errors)
			st->errors = 1;
		return;
	}
	struct build_opts *opts = &st->opts;
	opts->jobs = req->jobs;
	if (opts->jobs <= 0) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);
		opts->jobs = n > 0 ? (int)n : 1;
	}
	st->errors += content_load_cached(a, d, req->site_dir, &st->cfg, &st->content, cc, opts->jobs);
	st->t_content = now_seconds();

	opts->drafts = req->drafts;
	opts->future = req->future;
	opts->now = req->now;
	opts->max_related = 5;
	char *static_dir = arena_alloc(a, 4096);
	snprintf(static_dir, 4096, "%s/static", req->site_dir);
	opts->static_dir = static_dir;
	if (st->cfg.highlight && hl_render)
		opts->highlight = hl_render;
	st->mc = st->cfg.math ? open_math(a, &st->cfg, req->site_dir) : NULL;
	if (st->mc) {
		opts->typeset = typeset;
		opts->typeset_ctx = st->mc;
		opts->typeset_seconds = math_doc_seconds();
	}
	if (!opts->now) {
		const char *sde = getenv("SOURCE_DATE_EPOCH");
		opts->now = sde && *sde ? strtoll(sde, NULL, 10) : (int64_t)time(NULL);
	}
	if (prep)
		prep(prep_ctx, st, req->site_dir);
	st->errors += site_build(a, d, &st->cfg, &st->content, opts, &st->site);
	st->have_site = 1;
	st->base_path = links_base_path(a, st->cfg.base_url.p ? st->cfg.base_url.p : "", st->cfg.base_url.len);
	if (!st->errors || req->keep_going)
		site_rewrite_links(a, &st->site, st->base_path);
	st->t_site = now_seconds();

	st->env = tmpl_env_new();
	char *base = arena_strndup(a, st->cfg.base_url.p ? st->cfg.base_url.p : "", st->cfg.base_url.len);
	tmpl_env_set_base_url(st->env, base);
	st->errors += theme_load_templates(st->env, d, req->site_dir);
	st->errors += theme_load_language(st->env, a, d, req->site_dir, &st->cfg);
	st->t_tmpl = now_seconds();
}

/* copy_static: the theme's static files, the site's and the bundles' (see
 * output_static); model-viewer's script only for a site with a model. */
static int copy_static(struct diag *d, const struct site *s, const char *site_dir, const struct output_sink *sink)
{
	int models = 0;
	for (size_t i = 0; i < s->nposts && !models; i++)
		models = s->posts[i]->doc.has_model3d;
	for (size_t i = 0; i < s->npages && !models; i++)
		models = s->pages[i]->doc.has_model3d;
	struct output_bundle *b = xcalloc(s->nposts + 1, sizeof *b);
	size_t nb = 0;
	for (size_t i = 0; i < s->nposts; i++)
		if (s->posts[i]->bundle_dir)
			b[nb++] = (struct output_bundle){s->posts[i]->bundle_dir, s->posts[i]->slug};
	int errors = output_static(d, site_dir, models, b, nb, sink);
	free(b);
	return errors;
}

/* thread_cleanup: frees this thread's KaTeX and highlighters. */
static void thread_cleanup(void)
{
	math_thread_cleanup();
	if (hl_thread_cleanup)
		hl_thread_cleanup();
}

/* stages_free: with keep_thread, this thread's KaTeX and highlighters stay
 * loaded for the next build (a session). */
static void stages_free(struct stages *st, struct diag *d, int keep_thread)
{
	if (st->mc && math_cache_close(st->mc) != 0) {
		struct diag_loc loc = {CACHE_DIR, NULL, 0, 0, 0};
		diag_warning(d, &loc, "cannot save the formula cache (the next build typesets every formula again)");
	}
	if (!keep_thread)
		thread_cleanup();
	if (st->env)
		tmpl_env_free(st->env);
	if (st->have_site)
		site_free(&st->site);
	arena_free(st->a);
}

/* md_prepare: the Markdown cache mc for this build: its salt (folio, the
 * config, the options) and the stamp of the files documents read. */
static void md_prepare(struct stages *st, struct md_cache *mc)
{
	XXH3_state_t *h = XXH3_createState();
	if (!h) {
		fputs("folio: out of memory\n", stderr);
		exit(1);
	}
	XXH3_64bits_reset(h);
	static const char tag[] = "folio-md " FOLIO_VERSION;
	XXH3_64bits_update(h, tag, sizeof tag);
	uint64_t bin = stamp_binary();
	XXH3_64bits_update(h, &bin, sizeof bin);
	XXH3_64bits_update(h, st->cfg.src ? st->cfg.src : "", st->cfg.src_len);
	int flags[3] = {st->opts.highlight != NULL, st->opts.typeset != NULL, 0};
	XXH3_64bits_update(h, flags, sizeof flags);
	st->opts.md_salt = XXH3_64bits_digest(h);
	XXH3_64bits_reset(h);
	stamp_files(h, st->opts.static_dir);
	for (size_t i = 0; i < st->content.nposts; i++)
		if (st->content.posts[i]->bundle_dir)
			stamp_files(h, st->content.posts[i]->bundle_dir);
	st->opts.files_stamp = XXH3_64bits_digest(h);
	XXH3_freeState(h);
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
	/* what is rendered again (rebuild.h) */
	struct rebuild *rb;
	/* the last link check of folio serve found nothing, in this set of
	 * files (links_check_files); 0: check every page */
	uint64_t links_clean;
	int committed; /* a build of this session was committed */
};

static void session_prepare(void *ctx, struct stages *st, const char *site_dir)
{
	struct build_session *s = ctx;
	if (!s->md) {
		char *path = cache_path(site_dir, "markdown.pack");
		s->md = md_cache_open(path);
		free(path);
	}
	md_prepare(st, s->md);
	/* folio build: one build, whose HTML the cache refers to until it is
	 * saved (see below) */
	st->opts.md_borrow = s->to_output;
	st->opts.related_cache = s->related;
}

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
	free(s->base_path);
	thread_cleanup();
	if (s->md && s->committed)
		md_cache_store(s->md, s->site_dir); /* for the next build or server */
	md_cache_free(s->md);
	content_cache_free(s->content);
	related_cache_free(s->related);
	live_close(s->live);
	rebuild_free(s->rb);
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

static int write_output(void *ctx, const char *rel, const void *data, size_t len)
{
	return output_write(ctx, rel, data, len);
}

/* ---- the links of every page, checked (links.h) ---- */

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
	if (rc)
		n->failed = 1;
	return rc;
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

/* check_only: folio serve, after a check that found nothing, in the same
 * set of files (files): the pages whose links are checked again, those
 * rendered now, if none of them gained or lost an id (their links are the
 * only ones that can have broken); NULL: all of them (malloc'd). */
static unsigned char *check_only(const struct round *r, uint64_t files)
{
	const struct build_session *s = r->s;
	if (s->to_output || !s->links_clean || s->links_clean != files)
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

/* check_links: every page's links (its record, fresh or kept from the
 * last build) against the files of this build; with --external, the
 * http(s) links too. Returns the number of errors. */
static int check_links(struct round *r, struct links_check *lc)
{
	struct build_session *s = r->s;
	const struct stages *st = &r->st;
	for (size_t i = 0; i < r->plan.njobs; i++) {
		const struct rebuild_page *rec = r->fresh[i] ? r->fresh[i] : rebuild_last(s->rb, r->outs[i]);
		const struct source *src = r->plan.jobs[i].src;
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
	links_check_texts(lc, t, ntmpl + 1); /* kept until the check has run */
	uint64_t files = s->to_output ? 0 : links_check_files(lc); /* folio serve only */
	unsigned char *only = check_only(r, files);
	links_check_only(lc, only);
	size_t broken = links_check_run(lc, r->d, s->site_dir);
	s->links_clean = !s->to_output && !links_check_reported(lc) ? files : 0;
	free(only);
	r->res->links = links_check_count(lc);
	if (s->req.external) {
		char *self = st->cfg.base_url.len ? xstrndup(st->cfg.base_url.p, st->cfg.base_url.len) : NULL;
		links_check_external(lc, s->site_dir, self, s->req.external, s->req.external_ctx);
		free(self);
	}
	free(t);
	return broken ? 1 : 0;
}

/* ---- the state of a folio build kept for the next one (rebuild.h's
 * bytes), in the cache's pages-HASH file of its output ---- */

static void session_save(struct build_session *s, const char *path)
{
	struct buf b;
	buf_init(&b);
	rebuild_save(s->rb, stamp_binary(), &b);
	(void)cache_write(path, b.p, b.len); /* if not: the next build renders every page */
	buf_fini(&b);
}

/* session_load: the state in path, if it is whole and from this folio;
 * else every page is rendered. */
static void session_load(struct build_session *s, const char *path)
{
	size_t len;
	char *text = read_file(path, &len);
	if (text)
		(void)rebuild_load(s->rb, stamp_binary(), text, len);
	free(text);
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
		src->html_hash = rebuild_text_hash(doc->html.p, doc->html.len);
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
	XXH3_state_t *h = XXH3_createState();
	if (!h) {
		fputs("folio: out of memory\n", stderr);
		exit(1);
	}
	XXH3_64bits_reset(h);
	XXH3_64bits_update(h, st->cfg.src ? st->cfg.src : "", st->cfg.src_len);
	int64_t flags[4] = {s->req.drafts, s->req.future, st->opts.highlight != NULL, st->opts.typeset != NULL};
	XXH3_64bits_update(h, flags, sizeof flags);
	XXH3_64bits_update(h, st->cfg.base_url.p ? st->cfg.base_url.p : "", st->cfg.base_url.len);
	*cfg_fp = XXH3_64bits_digest(h);
	XXH3_freeState(h);
	return rebuild_inputs(s->rb, plan, st->env, nfp_out);
}

/* round_open: where this round writes: folio build, a staging folder (and
 * the state of what the last build into it read); folio serve, the live
 * folder. */
static void round_open(struct round *r)
{
	struct build_session *s = r->s;
	if (s->to_output) {
		s->o = output_begin(r->d, s->out_dir, s->site_dir);
		if (!s->o) {
			r->errors++;
			r->stop = 1;
		} else if (!s->req.check && (r->state = output_cache_file(s->o, "pages"))) {
			/* what the last build into this folder read; the file goes
			 * now and comes back only with this build's, so that it never
			 * describes another build than the output's */
			if (!s->state_loaded)
				session_load(s, r->state);
			s->state_loaded = 1;
			cache_remove(r->state);
		}
	} else if (!s->live) {
		s->live = live_open(r->d, s->out_dir);
		if (!s->live) {
			r->errors++;
			r->stop = 1;
		}
	}
}

/* round_plan: the pages, their fingerprints, and which are rendered now
 * (want); into a new folder, a clean page is the last build's file, if it
 * is still there as that build wrote it. */
static void round_plan(struct round *r)
{
	struct build_session *s = r->s;
	struct render_deps deps = {rebuild_id, s->rb};
	r->errors += render_plan(r->st.a, r->d, &r->st.site, r->st.env, &deps, &r->plan);
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
	for (size_t i = 0; i < n; i++) {
		const struct render_job *j = &r->plan.jobs[i];
		r->outs[i] = j->out;
		r->vars_fp[i] = rebuild_fingerprint(s->rb, &j->vars, j->tmpl);
		r->want[i] = (unsigned char)rebuild_dirty(s->rb, j->out, r->vars_fp[i], r->fp, r->nfp, r->cfg_fp);
	}
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
	struct output_sink out_sink = {write_output, NULL, s->o};
	struct links_check *lc = r->links ? links_check_new(st->base_path, (enum links_mode)st->cfg.links_check) : NULL;
	struct noting_sink ns = {s->to_output ? &out_sink : &live_sink, lc, 0};
	struct output_sink noting = {noting_write, s->to_output ? NULL : noting_copy, &ns};
	r->errors += copy_static(r->d, &st->site, s->site_dir, &noting);
	r->stop = r->errors && !kg;
	if (!r->stop)
		r->errors += render_pages(&r->plan, st->env, r->d, r->want, st->opts.jobs, r->nfp, session_sink, r,
					  &r->res->rendered);
	r->stop = r->errors && !kg;
	/* the search index: a file of the last build with the same name (its
	 * hash) is kept, not written again */
	if (!r->stop)
		r->errors += search_output(st->a, &st->site, s->to_output ? reuse_output : live_keep_if,
					   s->to_output ? (void *)s->o : (void *)s->live, &noting);
	r->stop = r->errors && !kg;
	double t_check = now_seconds();
	/* (after errors in folio.yml, a wrong base_url would make every link
	 * look broken) */
	if (!r->stop && lc && !st->cfg_errors)
		r->errors += check_links(r, lc);
	r->stop = r->errors && !kg;
	links_check_free(lc);
	r->t_render = now_seconds();
	r->t_links = r->t_render - t_check;
	/* keep_going writes what could be made, never what could not be
	 * written: after a failed write (a full disk) the last good build
	 * stays */
	if (ns.failed || __atomic_load_n(&r->write_failed, __ATOMIC_RELAXED))
		r->stop = 1;
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
		int failed = output_commit(s->o);
		s->o = NULL;
		if (failed) {
			r->errors++;
			r->stop = 1;
			return;
		}
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
	r->t_commit = now_seconds();
	if (r->state)
		session_save(s, r->state);
}

/* round_end: what a round leaves: an output not committed is thrown away,
 * the Markdown cache stored (folio build), the arena freed. */
static void round_end(struct round *r)
{
	struct build_session *s = r->s;
	if (s->o) {
		output_abort(s->o);
		s->o = NULL;
	} else if (r->stop && !s->to_output && s->live && r->want) {
		live_abort(s->live);
	}
	if (r->fresh)
		for (size_t i = 0; i < r->plan.njobs; i++)
			rebuild_page_free(r->fresh[i]);
	free(r->fresh);
	free(r->outs);
	free(r->want);
	free(r->vars_fp);
	free(r->fp);
	free(r->state);
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
	rebuild_known_clear(s->rb); /* its texts go with the build's arena */
	stages_free(&r->st, r->d, 1);
	if (s->md)
		md_cache_sweep(s->md);
}

int build_session_run(struct build_session *s, struct diag *d, struct build_result *res)
{
	memset(res, 0, sizeof *res);
	struct round *r = xcalloc(1, sizeof *r);
	r->s = s;
	r->d = d;
	r->res = res;
	stages_run(&r->st, &s->req, d, session_prepare, s, s->content);
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
	r->t_plan = now_seconds();
	if (!r->stop)
		round_render(r);
	if (!r->stop)
		round_commit(r);
	double t0 = r->st.t0, t_tmpl = r->st.t_tmpl;
	double t_cfg = r->st.t_cfg, t_content = r->st.t_content, t_site = r->st.t_site;
	round_end(r);
	res->seconds = now_seconds() - t0;
	if (getenv("FOLIO_TIMINGS") && t_tmpl > 0 && r->t_render > 0)
		fprintf(stderr,
			"folio: timings (ms): config %.1f, content %.1f, markdown+site %.1f, templates %.1f, "
			"plan %.1f, render+write %.1f (of which the link check %.1f), commit %.1f\n",
			(t_cfg - t0) * 1e3, (t_content - t_cfg) * 1e3, (t_site - t_content) * 1e3, (t_tmpl - t_site) * 1e3,
			(r->t_plan - t_tmpl) * 1e3, (r->t_render - r->t_plan) * 1e3, r->t_links * 1e3,
			(r->t_commit - r->t_render) * 1e3);
	int errors = r->errors;
	free(r);
	return errors;
}

/* uptodate_key: what a build into out_dir depends on besides the clock:
 * folio itself, the options and the stamp of the site's files (the output
 * folder, when it is inside the site, left out). 0 when it cannot be
 * known. */
static uint64_t uptodate_key(const struct build_request *r)
{
	XXH3_state_t *h = XXH3_createState();
	if (!h)
		return 0;
	XXH3_64bits_reset(h);
	int64_t head[5] = {(int64_t)stamp_binary(), r->drafts, r->future, r->base_url != NULL, 0};
	XXH3_64bits_update(h, head, sizeof head);
	if (r->base_url)
		XXH3_64bits_update(h, r->base_url, strlen(r->base_url) + 1);
	int rc = stamp_site(h, r->site_dir, r->out_dir);
	uint64_t k = XXH3_64bits_digest(h);
	XXH3_freeState(h);
	return rc || !k ? 0 : k;
}

/* uptodate_load: the state of out_dir's last build (in the cache beside its
 * manifest); 0, or -1 when there is none. */
static int uptodate_load(const char *path, struct rebuild_uptodate *u)
{
	size_t len;
	char *text = read_file(path, &len);
	int rc = text ? rebuild_uptodate_load(u, text, len) : -1;
	free(text);
	return rc;
}

static void uptodate_save(const char *path, const struct rebuild_uptodate *u)
{
	struct buf b;
	buf_init(&b);
	rebuild_uptodate_save(u, &b);
	(void)cache_write(path, b.p, b.len); /* if not: the next build does the work */
	buf_fini(&b);
}

/* build_now: the clock a build goes by (as stages_run reads it). */
static int64_t build_now(const struct build_request *r)
{
	if (r->now)
		return r->now;
	const char *sde = getenv("SOURCE_DATE_EPOCH");
	return sde && *sde ? strtoll(sde, NULL, 10) : (int64_t)time(NULL);
}

int build_site(const struct build_request *req, struct diag *d, struct build_result *res)
{
	/* a session of one build, into a staging folder swapped in whole; what
	 * the last build into the same folder read is kept in .folio-cache, so
	 * that pages whose inputs did not change are its files again */
	char out_default[4096];
	struct build_request r = *req;
	if (!r.out_dir) {
		snprintf(out_default, sizeof out_default, "%s/public", req->site_dir);
		r.out_dir = out_default;
	}
	double t0 = now_seconds();
	char *up = r.check ? NULL : cache_output_path(r.site_dir, r.out_dir, "uptodate");
	uint64_t key = up ? uptodate_key(&r) : 0;
	struct rebuild_uptodate u;
	if (key && uptodate_load(up, &u) == 0 && rebuild_uptodate(&u, key, build_now(&r), r.future) &&
	    output_unchanged(r.site_dir, r.out_dir) == 0) {
		memset(res, 0, sizeof *res);
		res->pages = u.pages;
		res->posts = u.posts;
		res->files = u.files;
		res->unchanged = 1;
		res->seconds = now_seconds() - t0;
		free(up);
		return 0;
	}
	if (up)
		cache_remove(up); /* it describes the output only until this build swaps */
	struct build_session *s = build_session_new(&r);
	content_cache_free(s->content);
	s->content = NULL; /* one build reads each file once */
	related_cache_free(s->related);
	s->related = NULL;
	s->to_output = 1;
	int warnings = d->warnings;
	int errors = build_session_run(s, d, res);
	if (!errors && up && key && d->warnings == warnings) {
		/* the key again: a file changed during the build is not known to
		 * be in it */
		u = (struct rebuild_uptodate){key, s->next_future, res->pages, res->posts, res->files};
		if (uptodate_key(&r) == key)
			uptodate_save(up, &u);
	}
	if (!errors && !r.check)
		cache_prune(r.site_dir);
	build_session_free(s);
	free(up);
	return errors;
}
