/* round.c: one whole round of a session, the one build driver over any
 * output target (target.h): the stages, then where it writes (open), the
 * pages rendered again (plan: rebuild.h), the static files, the pages and
 * the search index written (render), every link checked, and the output
 * in place (commit). */
#include "pipeline/driver.h"

#include "base/clock.h"
#include "base/pool.h"
#include "cache/mdcache.h"
#include "incremental/incr.h"
#include "incremental/rebuild.h"
#include "search/search.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* round_prepare: the stages' prepare_fn: the caches the Markdown and the
 * model use, and the target's read-ahead. */
static void round_prepare(void *ctx, struct stages *st, const char *site_dir)
{
	struct build_session *s = ctx;
	unsigned keeps = s->t->ops->keeps;
	incr_prepare(s->inc, &st->cfg, &st->opts, &st->content); /* the Markdown's salt */
	st->opts.md_cache = caches_md(&s->c, site_dir);
	/* the site model is made on this thread alone: what opening the
	 * output reads first is read meanwhile on another */
	if (s->t->ops->ahead)
		s->t->ops->ahead(s->t);
	if (keeps & TARGET_ONE_ROUND)
		caches_related(&s->c, site_dir);
	/* one round: one build, whose HTML the cache refers to until it is
	 * saved (caches_round_end) */
	st->opts.md_borrow = (keeps & TARGET_ONE_ROUND) != 0;
	st->opts.related_cache = s->c.related;
}

/* cancelled: a build asked to stop (pool_cancel) goes no further and
 * writes nothing, keep_going or not: 1 then. */
static int cancelled(struct round *r)
{
	if (!pool_cancelled())
		return 0;
	r->errors += !r->errors;
	r->stop = 1;
	return 1;
}

int round_sink(void *ctx, size_t job, const struct str *parts, size_t nparts, const struct tmpl_deps *read)
{
	struct round *r = ctx;
	const struct render_job *j = &r->plan.jobs[job];
	struct target *t = r->s->t;
	if (t->ops->write_parts(t, j->out, parts, nparts)) {
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

/* ---- the sink of the static files and the search index: the target's,
 * noting each file for the link check ---- */

struct noting_sink {
	struct target *t;
	struct links_check *lc; /* NULL: links are not checked */
	int failed;             /* a file could not be written */
	/* a static file known unchanged since the last build is not read to
	 * be copied (incr_static_known) */
	const struct incr_state *inc;
	const char *site_dir;
	struct index ix; /* of the files known, made at the first copy */
};

static int noting_write(void *ctx, const char *rel, const void *data, size_t len)
{
	struct noting_sink *n = ctx;
	if (n->lc)
		links_check_file(n->lc, rel);
	int rc = n->t->ops->write(n->t, rel, data, len);
	if (rc)
		n->failed = 1;
	return rc;
}

static int noting_copy(void *ctx, const char *rel, const char *path, const struct stat *st)
{
	struct noting_sink *n = ctx;
	if (n->lc)
		links_check_file(n->lc, rel);
	int rc = n->t->ops->copy(n->t, rel, path, st, incr_static_known(n->inc, &n->ix, n->site_dir, path, st));
	if (rc < 0)
		n->failed = 1;
	return rc; /* 1: read and handed to noting_write */
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

/* check_texts: where a link that is not in its page's source is looked
 * for: folio.yml and the templates (kept until the check has run; a kept
 * round's, until it goes) */
static void check_texts(struct round *r, struct links_check *lc)
{
	const struct stages *st = &r->st;
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
	links_check_texts(lc, t, ntmpl + 1);
	r->texts = t;
}

/* check_links: every page's links (its record, fresh or kept from the
 * last build) against the files of this build; with --external, the
 * http(s) links too. Returns the number of errors. */
static int check_links(struct round *r, struct links_check *lc)
{
	struct build_session *s = r->s;
	const struct stages *st = &r->st;
	const struct rebuild *rb = incr_records(s->inc);
	size_t n = r->plan.njobs;
	for (size_t i = 0; i < n; i++) {
		const struct rebuild_page *rec = r->fresh[i] ? r->fresh[i] : rebuild_last(rb, r->outs[i]);
		const struct source *src = r->plan.jobs[i].src;
		links_check_page(lc, r->outs[i], rec ? rec->links : NULL, rec ? rec->links_len : 0,
				 src ? src->path : NULL, src ? src->src : NULL, src ? src->len : 0,
				 src ? src->ignore_links : NULL, src ? src->nignore_links : 0);
	}
	check_left_out(lc, &st->content, s->req.drafts);
	check_texts(r, lc);
	/* after a check, only the pages rendered now and those that reported
	 * something, if the memo holds (incr_links_only) */
	uint64_t key = incr_links_key(&r->plan, (int)st->cfg.links_check);
	unsigned char *only = incr_links_only(s->inc, lc, key, r->outs, r->fresh, n);
	links_check_only(lc, only);
	size_t broken = links_check_run(lc, r->d);
	/* the memo kept with the state (folio build), or the session (folio
	 * serve); none after folio check, whose folder is scratch */
	incr_links_memo(s->inc, lc, key, (s->t->ops->keeps & TARGET_WRITES_CACHE) != 0);
	free(only);
	r->res->links = links_check_count(lc);
	const struct content *c = &st->content;
	size_t ignored = 0;
	for (size_t i = 0; i < c->nposts; i++)
		ignored += c->posts[i]->s.nignore_links;
	for (size_t i = 0; i < c->npages; i++)
		ignored += c->pages[i]->s.nignore_links;
	for (size_t i = 0; i < c->nseries; i++)
		ignored += c->series[i]->s.nignore_links;
	r->res->ignored = ignored;
	if (s->req.external) {
		char *self = st->cfg.base_url.len ? xstrndup(st->cfg.base_url.p, st->cfg.base_url.len) : NULL;
		links_check_external(lc, self, s->req.external, s->req.external_ctx);
		free(self);
	}
	return broken ? 1 : 0;
}

/* ---- the round ---- */

/* round_open: where this round writes (the target opened), and the state
 * of what the last build into it read, if the target keeps one: the file
 * goes just before the swap and comes back only with this build's, so
 * that it never describes another build than the output's (a build that
 * stops before, on a broken link say, leaves the output and its state as
 * they were) */
static void round_open(struct round *r)
{
	struct target *t = r->s->t;
	if (t->ops->open(t, r->d)) {
		r->errors++;
		r->stop = 1;
		return;
	}
	if (t->ops->state_file && (r->state = t->ops->state_file(t)))
		incr_state_take(r->s->inc, r->state);
}

/* round_plan: the pages, their fingerprints, and which are rendered now
 * (want); a clean page is the last build's file, if it is still there as
 * that build wrote it (the target keeps it). */
static void round_plan(struct round *r)
{
	struct build_session *s = r->s;
	struct render_deps deps = {rebuild_id, incr_records(s->inc)};
	r->errors += render_plan(r->st.a, r->d, &r->st.site, r->st.env, &deps, r->st.opts.jobs, &r->plan);
	r->stop = r->errors && !s->req.keep_going;
	if (r->stop)
		return;
	size_t n = r->plan.njobs;
	r->fp = incr_fingerprints(s->inc, &r->st.site, r->st.base_path, &r->plan, r->st.env, r->st.opts.jobs, &r->nfp);
	r->outs = xcalloc(n + 1, sizeof *r->outs);
	r->want = xcalloc(n + 1, 1);
	r->fresh = xcalloc(n + 1, sizeof *r->fresh);
	r->vars_fp = xcalloc(n + 1, sizeof *r->vars_fp);
	r->links = r->st.cfg.links_check != CONFIG_LINKS_OFF;
	for (size_t i = 0; i < n; i++)
		r->outs[i] = r->plan.jobs[i].out;
	incr_dirty(s->inc, &r->plan, r->fp, r->nfp, r->st.opts.jobs, r->vars_fp, r->want);
	if (s->t->ops->keep_clean)
		s->t->ops->keep_clean(s->t, r->outs, r->want, n, r->st.opts.jobs);
}

/* round_render: the static files copied, the pages in want rendered and
 * written, and the links of all checked. */
static void round_render(struct round *r)
{
	struct build_session *s = r->s;
	struct stages *st = &r->st;
	struct target *t = s->t;
	int kg = s->req.keep_going;
	struct links_check *lc = r->links ? links_check_new(st->base_path, (enum links_mode)st->cfg.links_check) : NULL;
	if (lc) {
		links_check_sources(lc, source_of, &st->content);
		if (s->req.list_ignored)
			links_check_list_ignored(lc);
		links_check_site(lc, st->cfg.base_url.p, st->cfg.base_url.len);
	}
	struct noting_sink ns = {t, lc, 0, s->inc, s->req.site_dir, {0}};
	struct output_sink noting = {noting_write, noting_copy, &ns};
	r->errors += stages_copy_static(r->d, &st->site, s->req.site_dir, &noting, st->opts.jobs,
					!(t->ops->keeps & TARGET_WRITES_CACHE));
	r->stop = r->errors && !kg;
	if (!r->stop)
		r->errors += render_pages(&r->plan, st->env, r->d, r->want, st->opts.jobs, r->nfp, round_sink, r,
					  &r->res->rendered);
	r->stop = (r->errors && !kg) || cancelled(r);
	/* the search index: a file of the last build with the same name (its
	 * hash) is kept, not written again */
	struct search_cache *sc = r->stop ? NULL : caches_search(&s->c, s->req.site_dir, st->cfg.search);
	if (!r->stop)
		r->errors += search_output(st->a, &st->site, st->opts.jobs, sc, t->ops->reuse, t, &noting,
					   (t->ops->keeps & TARGET_ONE_ROUND) ? NULL : &r->search, NULL);
	if (!r->stop && !(t->ops->keeps & TARGET_ONE_ROUND) && s->c.search)
		search_cache_sweep(s->c.search); /* a session's: what this index used */
	r->stop = r->errors && !kg;
	double t_check = clock_seconds();
	/* (after errors in folio.yml, a wrong base_url would make every link
	 * look broken) */
	if (!r->stop && lc && !st->cfg_errors)
		r->errors += check_links(r, lc);
	else if (t->ops->keeps & TARGET_ONE_ROUND)
		incr_links_memo(s->inc, NULL, 0, 0); /* not checked: not known to be clean */
	r->stop = r->errors && !kg;
	r->lc = lc; /* freed with the round, or kept with it */
	r->t_render = clock_seconds();
	r->t_links = r->t_render - t_check;
	/* keep_going writes what could be made, never what could not be
	 * written: after a failed write (a full disk) the last good build
	 * stays */
	if (ns.failed || __atomic_load_n(&r->write_failed, __ATOMIC_RELAXED))
		r->stop = 1;
	index_fini(&ns.ix);
}

/* round_commit: the output in place (the staging folder swapped in, or
 * the live folder's changes made), then the records of what each page
 * read, and what the target keeps for the next build. */
static void round_commit(struct round *r)
{
	struct build_session *s = r->s;
	struct target *t = s->t;
	if (r->state)
		incr_state_remove(r->state);
	if (t->ops->commit(t, r->outs, r->want, r->plan.njobs, r->errors, r->res)) {
		r->errors++;
		r->stop = 1;
		return;
	}
	/* the records of what each page read now */
	incr_commit(s->inc, r->fresh, r->outs, r->want, r->plan.njobs, r->fp, r->nfp);
	r->fp = NULL; /* taken, as the records in fresh are */
	free(r->fresh);
	r->fresh = NULL;
	free(s->base_path);
	s->base_path = xstrndup(r->st.base_path, strlen(r->st.base_path));
	s->committed = 1;
	r->res->committed = 1;
	r->t_commit = clock_seconds();
	if (r->state)
		incr_state_save(s->inc, r->state);
	if (t->ops->keeps & TARGET_KEEPS_STATE)
		caches_save(&s->c, s->req.site_dir, &r->st.content);
}

void round_free(struct round *r, struct diag *d)
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
	search_live_free(r->search);
	free(r->texts);
	index_fini(&r->job_index);
	index_fini(&r->post_index);
	stages_free(&r->st, d, 1);
	free(r);
}

/* round_end: what a round leaves: an output not committed is thrown away,
 * a one-round session's caches stored; the round is freed, or kept when
 * the target keeps rounds and it went without error (patch.c). */
static void round_end(struct round *r)
{
	struct build_session *s = r->s;
	unsigned keeps = s->t->ops->keeps;
	stages_told(&r->st); /* the collector goes back to its caller (a kept round outlives it) */
	caches_md_join(&s->c); /* the round may have stopped before the Markdown */
	if (r->stop)
		s->t->ops->abort(s->t, r->want != NULL);
	r->res->pages = r->plan.njobs;
	r->res->posts = r->st.have_site ? r->st.site.nposts : 0;
	s->next_future = r->st.have_site ? r->st.site.next_future : 0;
	caches_round_end(&s->c, s->req.site_dir, keeps, s->committed);
	incr_round_end(s->inc);
	if (!(keeps & TARGET_ONE_ROUND) && r->res->committed && !r->errors && !r->stop) {
		free(r->fresh); /* taken by rebuild_commit */
		r->fresh = NULL;
		s->kept = r;
		s->patches = 0;
	} else {
		round_free(r, r->d);
	}
	if (s->c.md)
		md_cache_sweep(s->c.md);
}

/* The times of a round's steps, for FOLIO_TIMINGS (taken before the
 * round goes). */
struct round_times {
	double t0, cfg, content, site, tmpl, plan, render, links, commit;
};

static void round_timings(const struct round_times *t, size_t links)
{
	if (!getenv("FOLIO_TIMINGS") || t->tmpl <= 0 || t->render <= 0)
		return;
	fprintf(stderr,
		"folio: timings (ms): config %.1f, content %.1f, markdown+site %.1f, templates %.1f, "
		"plan %.1f, render+write %.1f (of which the link check %.1f, of %zu links), commit %.1f\n",
		(t->cfg - t->t0) * 1e3, (t->content - t->cfg) * 1e3, (t->site - t->content) * 1e3,
		(t->tmpl - t->site) * 1e3, (t->plan - t->tmpl) * 1e3, (t->render - t->plan) * 1e3, t->links * 1e3,
		links, (t->commit - t->render) * 1e3);
}

int round_run(struct build_session *s, struct diag *d, struct build_result *res)
{
	memset(res, 0, sizeof *res);
	struct round *r = xcalloc(1, sizeof *r);
	struct target *t = s->t;
	unsigned keeps = t->ops->keeps;
	r->s = s;
	r->d = d;
	r->res = res;
	caches_open(&s->c, s->req.site_dir, keeps);
	if ((keeps & TARGET_KEEPS_STATE) && t->ops->state_file) {
		char *ahead = t->ops->state_file(t);
		incr_state_ahead(s->inc, ahead);
		free(ahead);
	}
	struct stages_in in = {&s->req, !(keeps & TARGET_WRITES_CACHE), round_prepare, s, s->c.content, s->c.fm,
			       s->c.records, incr_known(s->inc)};
	stages_run(&r->st, &in, d);
	r->errors = r->st.errors;
	/* stop: no going on. Without keep_going, at the first stage with
	 * errors; with it, only when what the next stage needs is missing (no
	 * settings, no output folder): the pages that can be are written. */
	r->stop = r->errors && !(s->req.keep_going && r->st.have_site && r->st.env);
	cancelled(r);
	if (!r->errors && s->c.md && (keeps & TARGET_KEEPS_STATE))
		md_cache_store_begin(s->c.md, s->req.site_dir);
	if (!r->stop)
		round_open(r);
	if (!r->stop && !cancelled(r))
		round_plan(r);
	r->t_plan = clock_seconds();
	if (!r->stop && !cancelled(r))
		round_render(r);
	if (!r->stop && !cancelled(r))
		round_commit(r);
	int errors = r->errors;
	struct round_times times = {r->st.t0,   r->st.t_cfg,  r->st.t_content, r->st.t_site, r->st.t_tmpl,
				    r->t_plan, r->t_render, r->t_links,     r->t_commit};
	round_end(r); /* r is freed, or kept */
	res->seconds = clock_seconds() - times.t0;
	round_timings(&times, res->links);
	return errors;
}
