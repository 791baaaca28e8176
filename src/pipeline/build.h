/* build.h: the whole build, config -> content -> site -> render -> output,
 * as `folio build` runs it. serve and check reuse it.
 *
 * Folder pipeline/: the one build driver: the stages in order into one
 * arena, a session's rounds over an output target.
 * uses: base, formats, files, images, md, cache, tmpl, read, model, render, output, variants, search, check, incremental.
 */
#ifndef FOLIO_BUILD_H
#define FOLIO_BUILD_H

#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"

struct build_request {
	const char *site_dir;
	const char *out_dir;  /* NULL: SITE/public */
	const char *base_url; /* NULL: folio.yml's */
	int drafts, future;
	int jobs;    /* 0: the number of processors */
	int64_t now; /* 0: the clock (or SOURCE_DATE_EPOCH) */
	/* folio check: the output is thrown away, no state or cache is kept;
	 * without out_dir, it goes into a scratch folder of its own */
	int check;
	/* folio check --ignored: the links ignore_links leaves unchecked that
	 * would be broken are said, as notes */
	int list_ignored;
	/* keep_going (folio build --keep-going, folio serve): errors do not
	 * stop the output: every page that can be rendered is written and the
	 * output is swapped in all the same (for previewing); the errors are
	 * still reported and counted */
	int keep_going;
	/* with it, each http(s) link of the site and its place (folio check
	 * --external) */
	void (*external)(void *ctx, const char *url, const char *path, int line, int col);
	void *external_ctx;
	/* output_check found nothing in out_dir that folio did not write,
	 * just before the build: the check that nothing changed does not read
	 * its folders again (at 100,000 pages, 150,000 stats) */
	int out_checked;
};

struct build_result {
	size_t pages;    /* pages of the site */
	size_t files;    /* files of the site, static ones included */
	size_t posts;
	size_t rendered; /* pages rendered by this build */
	size_t written;  /* files written by this build (a session leaves unchanged ones alone) */
	size_t removed;  /* files a session deleted (pages that are gone) */
	int unchanged;   /* nothing changed since the last build: its output was kept */
	int committed;   /* the output was swapped in (with errors: keep_going) */
	size_t links;    /* internal links checked */
	size_t ignored;  /* ignore_links patterns of the documents (links left unchecked) */
	double seconds;
};

/* build_site: builds the site. Nothing is written when any error is found,
 * unless req->keep_going (then res->committed says whether the output was
 * written). Returns the number of errors (all reported to d). */
int build_site(const struct build_request *req, struct diag *d, struct build_result *res);

/* A session: the builds of one `folio serve`, each into the same folder
 * (req->out_dir, kept up to date in place), redoing only what changed.
 * Documents whose source did not change are not rendered again (their
 * Markdown is kept in memory), and a page is rendered again only when
 * something it read when it was last rendered has changed (a post, series,
 * tag, year, page or global of the model, or a template), when its own
 * variables changed, or when folio.yml did. Files whose bytes did not
 * change are not written again. After a build with errors the folder stays
 * as the last good build left it, unless req->keep_going: then the pages
 * that could be rendered are written (a page that could not be is left
 * as it was, and rendered again by the next build). */
struct build_session;

/* build_session_new: copies what req points to; req->out_dir is required. */
struct build_session *build_session_new(const struct build_request *req);
void build_session_free(struct build_session *s);

/* build_session_run: one build. Returns the number of errors (all
 * reported to d); res->pages counts the site's pages, res->rendered those
 * rendered now. */
int build_session_run(struct build_session *s, struct diag *d, struct build_result *res);

/* build_session_changed: the file rel (site-relative) was written since
 * the last build of the session (NULL: files changed that are not known,
 * or were created, deleted or renamed). When only the text of published
 * posts changed, the next build patches the last one (its pages that read
 * what changed) instead of reading and rendering the whole site again;
 * the output is the same. */
void build_session_changed(struct build_session *s, const char *rel);

/* build_session_finish: what the last build left for after its reload
 * (a patched build: the search index, made again from the patched
 * model; *done is then 1, else 0), and what the next patch needs made
 * ahead (the index of which pages read what); 0, or the number of errors
 * (the next build is then a whole one). folio serve calls it once the
 * tab has been told to reload. */
int build_session_finish(struct build_session *s, struct diag *d, int *done);

/* build_session_base_path: the path of base_url ("/" or "/blog/") of the
 * last build committed (without errors, or with keep_going; "/" before
 * one), where the site is served;
 * valid until the next run. */
const char *build_session_base_path(const struct build_session *s);

#endif
