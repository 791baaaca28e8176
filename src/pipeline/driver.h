/* driver.h: what the files of the one build driver share, private to
 * pipeline/. They call one way only:
 *
 *   build.c    build_site: up to date, or a session of one round
 *   session.c  a session: the round loop over a target and an incremental
 *              state (a patch of the kept round, or a whole round)
 *   patch.c    folio serve's patch of the kept round, and what it leaves
 *              for after the reload (the search index)
 *   round.c    one whole round: stages, open, plan, render, link check,
 *              commit, end
 *   caches.c   the caches a session keeps between rounds and builds
 *   stages.c   the stages (stages.h); target.c the output targets
 *              (target.h)
 *
 * build.c -> session.c -> patch.c -> round.c -> caches.c, stages.c,
 * target.c. */
#ifndef FOLIO_DRIVER_H
#define FOLIO_DRIVER_H

#include "base/index.h"
#include "base/pool.h"
#include "check/links.h"
#include "pipeline/build.h"
#include "pipeline/stages.h"
#include "pipeline/target.h"
#include "render/render.h"

struct rebuild;
struct rebuild_page;
struct stamp_list;

/* ---- caches.c: the caches of a session ---- */

/* What a session keeps between its rounds (folio serve) or reads from and
 * stores into .folio-cache (folio build), besides the pages' records. */
struct session_caches {
	struct md_cache *md;         /* the rendered Markdown (markdown.pack) */
	struct pool_task md_opening; /* md opened beside the stages (caches_open) */
	const char *site_dir;        /* (for that task) */
	struct content_cache *content; /* the files read, between rounds (NULL: one round) */
	struct related_cache *related;
	int related_read;            /* the related posts of the cache read */
	struct fm_cache *fm;         /* the front matter of the cache */
	struct src_cache *records;   /* what the last build learnt of each content file */
	struct search_cache *search; /* the documents' counts (search.pack) */
};

/* caches_init: the caches of a session whose target keeps `keeps`
 * (TARGET_*); caches_fini frees them, the Markdown and search caches
 * stored first if committed (a build of the session was). */
void caches_init(struct session_caches *c, unsigned keeps);
void caches_fini(struct session_caches *c, const char *site_dir, int committed);
/* caches_open: before a whole round: the front matter (one round) and
 * the records (kept state) of the last build, and the Markdown cache
 * opened on a task of its own (caches_md joins it). */
void caches_open(struct session_caches *c, const char *site_dir, unsigned keeps);
/* caches_md: the Markdown cache, opened now if it was not (borrowed). */
struct md_cache *caches_md(struct session_caches *c, const char *site_dir);
/* caches_md_join: the task opening the Markdown cache, if any, is over. */
void caches_md_join(struct session_caches *c);
/* caches_related: the related posts of the last build read (once). */
void caches_related(struct session_caches *c, const char *site_dir);
/* caches_search: the documents' counts of earlier builds (opened at the
 * first index), or NULL when the site has no index (cfg->search 0). */
struct search_cache *caches_search(struct session_caches *c, const char *site_dir, int search);
/* caches_save: what a committed round leaves for the next build
 * (kept state): the related posts, front matter and records of ct. */
void caches_save(struct session_caches *c, const char *site_dir, const struct content *ct);
/* caches_round_end: a one-round session's Markdown cache stored (when
 * committed and it is due) and freed, and its search cache stored (when
 * committed and state is kept) and freed. */
void caches_round_end(struct session_caches *c, const char *site_dir, unsigned keeps, int committed);

/* ---- session ---- */

struct round;

struct build_session {
	struct build_request req; /* its strings: site_dir, out_dir, base_url, malloc'd */
	struct target *t;
	struct incr_state *inc;
	struct session_caches c;
	char *base_path;     /* of the last build committed: "/" or "/blog/" */
	int64_t next_future; /* of the last build's site */
	int committed;       /* a build of this session was committed */
	/* folio serve: the last round, kept whole after it went without error,
	 * so that an edit of posts' text is patched into it (patch.c) instead
	 * of a whole round; NULL: the next round is a whole one */
	struct round *kept;
	int patches;    /* rounds patched into it */
	int search_due; /* a patch left the search index to build_session_finish */
	/* the files changed since the last round (build_session_changed),
	 * site-relative; changed_all: others, or not known which */
	char **changed;
	size_t nchanged;
	int changed_all;
};

/* session_new: a session of builds over the target t (taken), under the
 * build key (copied); up (may be NULL), folio build's up-to-date check,
 * and known (may be NULL): the site's files unchanged since the last
 * build (see incr_new). */
struct build_key;
struct uptodate;
struct build_session *session_new(const struct build_request *req, struct target *t, const struct build_key *key,
				  struct uptodate *up, const struct stamp_list *known);
int64_t session_next_future(const struct build_session *s);

/* ---- round.c: one round of a session ---- */

/* One round: the stages' results, the plan, what is dirty and the records
 * of the pages rendered now. */
struct round {
	struct build_session *s;
	struct diag *d;
	struct build_result *res;
	struct stages st;
	int errors;
	int stop;    /* no going on (see round_run) */
	char *state; /* the file of what the last build into this output read (target's state_file) */
	struct render_plan plan;
	const char **outs;           /* by job: its path in the output */
	unsigned char *want;         /* by job: rendered now */
	struct rebuild_page **fresh; /* by job; NULL: not rendered in this round */
	uint64_t *vars_fp;           /* by job */
	uint64_t *fp;                /* of the inputs, by id */
	size_t nfp;
	int links;        /* record each page's links */
	int write_failed; /* a page could not be written (set by any thread) */
	/* the link check, and the texts where it looks for a link's place,
	 * kept with a kept round (to be run again on the pages a patch
	 * renders) */
	struct links_check *lc;
	struct links_text *texts;
	struct index job_index; /* a kept round's: job + 1 by output path (patch.c) */
	struct index post_index; /* and post + 1 by its file's path */
	/* a session's search index, patched after an edit (search.h) */
	struct search_live *search;
	double t_plan, t_render, t_links, t_commit;
};

/* round_run: a whole round of s, into res (zeroed first); the number of
 * errors. The round is freed, or kept by s when s's target keeps rounds
 * and it went without error (s->kept). */
int round_run(struct build_session *s, struct diag *d, struct build_result *res);
/* round_free: a round's memory, and its stages' (NULL: nothing). */
void round_free(struct round *r, struct diag *d);
/* round_sink: a render_sink: the page of job written to the target, and
 * the record of what it read made (ctx: the round). */
int round_sink(void *ctx, size_t job, const struct str *parts, size_t nparts, const struct tmpl_deps *read);

/* ---- patch.c: folio serve's patch of the kept round ---- */

/* patch_run: the kept round patched for an edit of posts' text: 1 when
 * done (res filled); 0 when a whole round must run. */
int patch_run(struct build_session *s, struct diag *d, struct build_result *res);
/* patch_finish: see build_session_finish. */
int patch_finish(struct build_session *s, struct diag *d, int *done);

#endif
