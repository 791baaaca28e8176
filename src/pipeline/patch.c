/* patch.c: folio serve's patch: an edit of posts' text patched into the
 * round the session kept (only the pages that read what changed are
 * rendered again), and the search index made again after the reload. */
#include "pipeline/driver.h"

#include "base/clock.h"
#include "files/reader.h"
#include "files/sitefile.h"
#include "incremental/incr.h"
#include "incremental/rebuild.h"
#include "search/search.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* PATCH_MAX: rounds patched into one kept round; then a whole round runs
 * again (each patch leaves its text and HTML in the kept arena). */
#define PATCH_MAX 200

static const char *post_path(const void *ctx, uint32_t v)
{
	return ((const struct site *)ctx)->posts[v - 1]->s.path;
}

/* patch_post: the post whose file is rel, patched with the file as it is
 * now; 0, or 1 when the whole round must run (see site_patch_post). *post:
 * the post's index. */
static int patch_post(struct round *r, const char *rel, size_t *post)
{
	struct build_session *s = r->s;
	struct site *site = &r->st.site;
	if (!r->post_index.cap) /* (the posts stay where they are while the round is kept) */
		index_rebuild_str(&r->post_index, site->nposts, 1024, post_path, site);
	uint32_t v = index_get_str(&r->post_index, rel, post_path, site);
	if (!v)
		return 1; /* not a published post's file */
	size_t i = v - 1;
	char path[PATH_MAX];
	if (snprintf(path, sizeof path, "%s/%s", s->req.site_dir, rel) >= (int)sizeof path)
		return 1;
	/* read through the site's reader, into the kept round's arena; a file
	 * it refuses (a link out of the site, too big) is the whole round's to
	 * report */
	char *root = site_root(s->req.site_dir);
	struct site_file f = {path, rel, FOLIO_MAX_FILE, NULL, SITE_READ_QUIET};
	size_t len;
	char *kept = site_read(NULL, root, &f, r->st.a, &len, NULL);
	free(root);
	if (!kept)
		return 1;
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
	for (size_t i = 0; i < n; i++) {
		const struct rebuild_page *now = r->fresh[i];
		const struct source *src = r->plan.jobs[i].src;
		if (now)
			links_check_repage(r->lc, i, now->links, now->links_len, src ? src->src : NULL,
					   src ? src->len : 0);
	}
	/* the warnings of the other pages were told by an earlier round */
	int same = incr_links_same_ids(s->inc, r->outs, r->fresh, n);
	links_check_only(r->lc, same ? r->want : NULL);
	struct diag quiet;
	diag_init(&quiet, NULL);
	size_t broken = links_check_run(r->lc, &quiet);
	diag_fini(&quiet);
	if (!broken && links_check_reported(r->lc))
		(void)links_check_run(r->lc, d); /* the same again, told */
	/* the memo of the round's check, with the targets of the pages
	 * patched (their ignore_links, in their front matter, are the same) */
	incr_links_memo(s->inc, r->lc, incr_links_memo_key(s->inc), (s->t->ops->keeps & TARGET_WRITES_CACHE) != 0);
	links_check_only(r->lc, NULL);
	return broken;
}

/* patch_posts: the changed posts' documents rendered again into the
 * kept round's model: their indexes (malloc'd), or NULL when the whole
 * round must run. */
static size_t *patch_posts(struct round *r)
{
	struct build_session *s = r->s;
	size_t *posts = xcalloc(s->nchanged, sizeof *posts);
	for (size_t k = 0; k < s->nchanged; k++)
		if (patch_post(r, s->changed[k], &posts[k])) {
			free(posts);
			return NULL;
		}
	return posts;
}

/* patch_timings: FOLIO_TIMINGS's line of a patch */
static void patch_timings(const double t[5])
{
	if (getenv("FOLIO_TIMINGS"))
		fprintf(stderr,
			"folio: timings (ms): patch: markdown %.1f, plan %.1f, render+write %.1f, link check %.1f, "
			"commit %.1f\n",
			(t[1] - t[0]) * 1e3, (t[2] - t[1]) * 1e3, (t[3] - t[2]) * 1e3, (t[4] - t[3]) * 1e3,
			(clock_seconds() - t[4]) * 1e3);
}

/* patch_run: folio serve, when only the text of published posts changed
 * since the kept round (their front matter is the same bytes): only the
 * pages that read what changed rendered, checked and committed; what a
 * session's edit costs then grows with the pages the edit touches, not
 * with the site. The kept round is of no more use when it returns 0. */
int patch_run(struct build_session *s, struct diag *d, struct build_result *res)
{
	struct round *r = s->kept;
	struct target *t = s->t;
	if (!r || s->changed_all || !s->nchanged || s->patches >= PATCH_MAX)
		return 0;
	double tm[5] = {clock_seconds()}; /* begin, markdown, plan, render, links */
	struct stages *st = &r->st;
	if (st->site.next_future && !s->req.future) {
		if (clock_build_now(s->req.now) >= st->site.next_future)
			return 0; /* a post left out as future is due */
	}
	size_t *posts = patch_posts(r);
	if (!posts)
		return 0;
	tm[1] = clock_seconds();
	size_t n = r->plan.njobs, nfp;
	uint64_t *fp = incr_patch(s->inc, st->a, &r->plan, &st->site, posts, s->nchanged, r->vars_fp, r->want,
				  &r->job_index, &nfp);
	free(posts);
	tm[2] = clock_seconds();
	memset(res, 0, sizeof *res);
	r->res = res;
	r->d = d;
	r->write_failed = 0;
	r->fresh = xcalloc(n + 1, sizeof *r->fresh);
	struct diag quiet; /* a template's error: the whole round says it */
	diag_init(&quiet, NULL);
	int errors = render_pages(&r->plan, st->env, &quiet, r->want, st->opts.jobs, nfp, round_sink, r, &res->rendered);
	errors += quiet.errors + quiet.warnings;
	diag_fini(&quiet);
	tm[3] = clock_seconds();
	if (!errors && r->lc && !st->cfg_errors)
		errors += patch_links(r, d) ? 1 : 0;
	tm[4] = clock_seconds();
	if (errors || __atomic_load_n(&r->write_failed, __ATOMIC_RELAXED)) {
		/* the whole round says it again, with everything else it finds */
		t->ops->abort(t, 1);
		incr_patch_undo(s->inc);
		return 0;
	}
	t->ops->keep_all(t, NULL);
	if (t->ops->commit(t, NULL, NULL, 0, 0, res)) {
		incr_patch_undo(s->inc);
		return 0;
	}
	incr_commit_some(s->inc, r->fresh, n, fp, nfp);
	free(r->fresh);
	r->fresh = NULL;
	s->patches++;
	/* the index reads every document (0.75 s of CPU at 10,000 posts): it
	 * is made again after the tab has reloaded */
	s->search_due = st->cfg.search;
	res->committed = 1;
	res->pages = n;
	res->posts = st->site.nposts;
	res->seconds = clock_seconds() - tm[0];
	patch_timings(tm);
	return 1;
}

int patch_finish(struct build_session *s, struct diag *d, int *done)
{
	struct round *r = s->kept;
	struct target *t = s->t;
	*done = 0;
	if (!s->search_due || !r)
		return 0;
	s->search_due = 0;
	*done = 1;
	/* every file stays but the index's, which are kept when their name
	 * (their hash) is made again, else written */
	t->ops->keep_all(t, "search/");
	for (size_t i = 0; i < r->plan.njobs; i++)
		if (r->outs[i][0] == 's' && !strncmp(r->outs[i], "search/", 7))
			t->ops->keep(t, r->outs[i]);
	struct output_sink sink = target_sink(t);
	(void)d; /* search_output reports a file it cannot write by its count */
	int patched;
	int errors = search_output(r->st.a, &r->st.site, r->st.opts.jobs,
				   caches_search(&s->c, s->req.site_dir, r->st.cfg.search), t->ops->reuse, t, &sink,
				   &r->search, &patched);
	if (!patched) /* (a patch asks the cache nothing: a sweep would empty it) */
		search_cache_sweep(s->c.search);
	if (errors)
		t->ops->abort(t, 1);
	else if (t->ops->commit(t, NULL, NULL, 0, 0, &(struct build_result){0}))
		errors = 1;
	if (errors) { /* the next round is a whole one, which says what is wrong */
		round_free(s->kept, d);
		s->kept = NULL;
	}
	return errors;
}
