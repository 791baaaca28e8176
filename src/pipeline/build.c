/* build.c: the pipeline: config -> content -> Markdown -> model ->
 * templates (stages_run, into one arena), then a session's round plans,
 * renders and writes the pages (session.c); build_site, one build into a
 * folder, or none when nothing it reads changed. */
#include "pipeline/build.h"

#include "base/clock.h"
#include "base/hash.h"

#include "cache/cache.h"
#include "base/index.h"
#include "incremental/rebuild.h"
#include "pipeline/stages.h"
#include "files/stamp.h"

#include "read/config.h"
#include "md/highlight.h"
#include "md/math.h"
#include "model/links.h"
#include "output/output.h"
#include "model/site.h"
#include "read/theme.h"
#include "tmpl/tmpl.h"


#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

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
void stages_run(struct stages *st, const struct build_request *req, struct diag *d, prepare_fn prep,
		       void *prep_ctx, struct content_cache *cc, struct fm_cache *fm, const struct src_cache *records)
{
	/* folio build: the files known unchanged are not read (content.h) */
	struct content_known known = {req->known, records};
	const struct content_known *kn = records ? &known : NULL;
	memset(st, 0, sizeof *st);
	st->t0 = clock_seconds();
	st->a = arena_new();
	struct arena *a = st->a;
	st->errors += config_load(a, d, req->site_dir, req->base_url, &st->cfg);
	st->cfg_errors = st->errors;
	st->t_cfg = clock_seconds();
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
	st->errors += content_load_cached(a, d, req->site_dir, &st->cfg, &st->content, cc, fm, kn, opts->jobs);
	/* an excerpt of a file not read: read when a message needs it */
	st->d = d;
	diag_set_texts(d, content_text, &st->content);
	st->t_content = clock_seconds();

	opts->drafts = req->drafts;
	opts->future = req->future;
	opts->now = req->now;
	opts->max_related = 5;
	char *static_dir = arena_alloc(a, 4096);
	snprintf(static_dir, 4096, "%s/static", req->site_dir);
	opts->static_dir = static_dir;
	if (st->cfg.highlight)
		opts->highlight = hl_render;
	st->mc = st->cfg.math ? open_math(a, &st->cfg, req->site_dir) : NULL;
	if (st->mc && req->check)
		math_cache_read_only(st->mc); /* folio check writes nothing into the site */
	if (st->mc) {
		opts->typeset = typeset;
		opts->typeset_ctx = st->mc;
		opts->typeset_seconds = math_doc_seconds();
	}
	opts->now = clock_build_now(opts->now);
	/* the language first: the Markdown's heading links and callouts say
	 * their words in it */
	st->env = tmpl_env_new();
	st->errors += theme_load_language(st->env, a, d, req->site_dir, &st->cfg);
	theme_md_labels(st->env, a, opts->md_labels);
	if (prep)
		prep(prep_ctx, st, req->site_dir);
	st->errors += site_build(a, d, &st->cfg, &st->content, opts, &st->site);
	st->have_site = 1;
	/* the names of the theme's assets: their bytes, the site's copy when
	 * it has one (read here, not by rendering) */
	static const char *const assets[] = THEME_ASSETS;
	size_t nassets = 0;
	while (assets[nassets])
		nassets++;
	const char **names = arena_alloc(a, (nassets + 1) * sizeof *names);
	for (size_t i = 0; i < nassets; i++) {
		char name[THEME_ASSET_NAME_MAX];
		theme_asset_name(req->site_dir, assets[i], name);
		names[i] = arena_strndup(a, name, strlen(name));
	}
	names[nassets] = NULL;
	st->site.asset_names = names;
	st->base_path = links_base_path(a, st->cfg.base_url.p ? st->cfg.base_url.p : "", st->cfg.base_url.len);
	if (!st->errors || req->keep_going)
		site_rewrite_links(a, &st->site, st->base_path);
	st->t_site = clock_seconds();

	char *base = arena_strndup(a, st->cfg.base_url.p ? st->cfg.base_url.p : "", st->cfg.base_url.len);
	tmpl_env_set_base_url(st->env, base);
	st->errors += theme_load_templates(st->env, d, req->site_dir);
	st->t_tmpl = clock_seconds();
}

/* copy_static: the theme's static files, the site's and the bundles' (see
 * output_static); model-viewer's script only for a site with a model. */
int stages_copy_static(struct diag *d, const struct site *s, const char *site_dir, const struct output_sink *sink)
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
void stages_thread_cleanup(void)
{
	math_thread_cleanup();
	hl_thread_cleanup();
}

/* stages_free: with keep_thread, this thread's KaTeX and highlighters stay
 * loaded for the next build (a session). */
void stages_free(struct stages *st, struct diag *d, int keep_thread)
{
	if (st->mc && math_cache_close(st->mc) != 0) {
		struct diag_loc loc = {CACHE_DIR, NULL, 0, 0, 0};
		diag_warning(d, &loc, "cannot save the formula cache (the next build typesets every formula again)");
	}
	if (st->d)
		diag_set_texts(st->d, NULL, NULL); /* the content goes */
	if (!keep_thread)
		stages_thread_cleanup();
	if (st->env)
		tmpl_env_free(st->env);
	if (st->have_site)
		site_free(&st->site);
	arena_free(st->a);
}

/* uptodate_key: what a build into out_dir depends on besides the clock:
 * folio itself, the options (alone in *opts) and the stamp of the site's
 * files in now (the output folder, when it is inside the site, left out).
 * 0 when it cannot be known. */
static uint64_t uptodate_key(const struct build_request *r, struct stamp_list *now, uint64_t *opts)
{
	if (stamp_site(now, r->site_dir, r->out_dir))
		return 0;
	struct hasher h;
	hasher_begin(&h, 0);
	int64_t head[5] = {(int64_t)stamp_binary(), r->drafts, r->future, r->base_url != NULL, 0};
	hasher_add(&h, head, sizeof head);
	if (r->base_url)
		hasher_add_cstr(&h, r->base_url);
	*opts = hasher_digest(&h);
	if (!*opts)
		*opts = 1;
	stamp_hash_list(&h, now);
	uint64_t k = hasher_digest(&h);
	return k ? k : 1;
}

/* uptodate_load: the state of out_dir's last build (in the cache beside its
 * manifest); 0, or -1 when there is none. */
static int uptodate_load(const char *path, struct rebuild_uptodate *u)
{
	size_t len;
	char *text = read_file(path, &len);
	int rc = text ? rebuild_uptodate_load(u, text, len) : -1;
	free(text);
	if (rc)
		memset(u, 0, sizeof *u);
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

/* same_bytes: whether the inputs whose stamps changed since last (the
 * key alone differs) still hold the bytes last knew; if so, now takes
 * last's hashes of its bytes, for the record of this build. */
static int same_bytes(const struct build_request *r, const struct rebuild_uptodate *last, uint64_t opts,
		      struct stamp_list *now)
{
	size_t *which;
	long n = rebuild_uptodate_touched(last, opts, now, &which);
	int same = n >= 0;
	for (long i = 0; same && i < n; i++) {
		struct stamp_entry *e = &now->e[which[i]];
		same = stamp_content(r->site_dir, e->path, e->sig) == last->inputs.e[which[i]].content;
	}
	free(which);
	for (size_t i = 0; same && i < now->n; i++)
		now->e[i].content = last->inputs.e[i].content;
	return same;
}

static const char *input_path(const void *ctx, uint32_t v)
{
	return ((const struct stamp_list *)ctx)->e[v - 1].path;
}

/* hash_inputs: the hash of each input file's bytes in now, last's where
 * its stamp is the same; with read, the others' read now (0 where not
 * known: that file is then read and the site built the next time its
 * stamp changes). */
static void hash_inputs(const struct build_request *r, const struct rebuild_uptodate *last, struct stamp_list *now,
			int read)
{
	const struct stamp_list *was = &last->inputs;
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
			e->content = stamp_content(r->site_dir, e->path, e->sig);
	}
	index_fini(&ix);
}

/* The stamps of the site once the output is swapped in, taken on a thread
 * while the caches are saved (restamp_start, restamp_join), to know
 * whether a file changed during the build. */
struct restamp {
	const struct build_request *r;
	struct stamp_list after;
	uint64_t key, opts;
	pthread_t thread;
	int started, done;
};

static void *restamp_run(void *arg)
{
	struct restamp *t = arg;
	t->key = uptodate_key(t->r, &t->after, &t->opts);
	return NULL;
}

static void restamp_start(void *ctx)
{
	struct restamp *t = ctx;
	if (!t->started && !t->done)
		t->started = pthread_create(&t->thread, NULL, restamp_run, t) == 0;
}

/* restamp_join: the stamps after the build (taken now if they were not) */
static void restamp_join(struct restamp *t)
{
	if (t->started)
		pthread_join(t->thread, NULL);
	else if (!t->done)
		restamp_run(t);
	t->started = 0;
	t->done = 1;
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
	double t0 = clock_seconds();
	char *up = r.check ? NULL : cache_output_path(r.site_dir, r.out_dir, "uptodate");
	struct stamp_list now = {0};
	uint64_t opts = 0, key = up ? uptodate_key(&r, &now, &opts) : 0;
	struct rebuild_uptodate u;
	int have = key && uptodate_load(up, &u) == 0;
	if (have && rebuild_uptodate_clock(&u, clock_build_now(r.now), r.future) &&
	    (u.key == key || same_bytes(&r, &u, opts, &now)) && output_unchanged(r.site_dir, r.out_dir) == 0) {
		if (u.key != key) { /* touched, not changed: the new stamps */
			u.key = key;
			stamp_list_free(&u.inputs);
			u.inputs = now;
			memset(&now, 0, sizeof now);
			uptodate_save(up, &u);
		}
		memset(res, 0, sizeof *res);
		res->pages = u.pages;
		res->posts = u.posts;
		res->files = u.files;
		res->unchanged = 1;
		if (u.said_warnings)
			diag_replay(d, u.said, u.said_len, u.said_warnings);
		res->seconds = clock_seconds() - t0;
		rebuild_uptodate_fini(&u);
		stamp_list_free(&now);
		free(up);
		return 0;
	}
	if (!have)
		memset(&u, 0, sizeof u);
	if (up)
		cache_remove(up); /* it describes the output only until this build swaps */
	if (have && key) {
		/* the files unchanged since the last build, whose bytes it knew:
		 * a static file among them is not read again to be copied */
		hash_inputs(&r, &u, &now, 0);
		r.known = &now;
	}
	struct restamp rs = {&r, {0}, 0, 0, 0, 0, 0};
	if (up && key) {
		r.inputs_read = restamp_start;
		r.inputs_ctx = &rs;
	}
	struct build_session *s = session_new_output(&r);
	int warnings = d->warnings;
	size_t said_from = diag_pending_count(d);
	int errors = build_session_run(s, d, res);
	if (up && key && (rs.started || !errors))
		restamp_join(&rs);
	if (!errors && up && key) {
		/* the key again: a file changed during the build is not known to
		 * be in it */
		struct stamp_list after = rs.after;
		memset(&rs.after, 0, sizeof rs.after);
		if (rs.key == key) {
			hash_inputs(&r, &u, &after, 1);
			struct rebuild_uptodate next = {key, session_next_future(s), res->pages, res->posts, res->files,
							opts, NULL, 0, (unsigned)(d->warnings - warnings), after};
			memset(&after, 0, sizeof after);
			struct buf said;
			buf_init(&said);
			/* the warnings are kept to be said again, if they are all
			 * still held (a collector that prints at once: not kept) */
			if (!next.said_warnings || diag_pending_plain(d, said_from, &said) == 0) {
				next.said = said.p;
				next.said_len = said.len;
				uptodate_save(up, &next);
			}
			buf_fini(&said);
			stamp_list_free(&next.inputs);
		}
		stamp_list_free(&after);
	}
	stamp_list_free(&rs.after);
	rebuild_uptodate_fini(&u);
	if (!errors && !r.check)
		output_prune(r.site_dir); /* and the spares of the outputs pruned */
	build_session_free(s);
	stamp_list_free(&now); /* after the session, which read it (known) */
	free(up);
	return errors;
}
