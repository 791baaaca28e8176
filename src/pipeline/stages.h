/* stages.h: the stages every build runs, config -> content -> Markdown ->
 * model -> templates, into one arena (stages.c); a round (round.c) plans,
 * renders and writes what they give. Private to pipeline/. */
#ifndef FOLIO_STAGES_H
#define FOLIO_STAGES_H

#include "pipeline/build.h"
#include "read/content.h"
#include "md/math.h"
#include "output/output.h"
#include "model/site.h"
#include "tmpl/tmpl.h"

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
	struct diag *d; /* the collector told of the content's texts (diag_set_texts) */
	/* what renders the site's directives (udir_render's context) */
	struct udir_ctx {
		const struct tmpl_env *env;
		const struct config *cfg;
	} udir;
	int errors;
	int cfg_errors; /* of folio.yml: its settings (base_url) may be wrong */
	double t0, t_cfg, t_content, t_site, t_tmpl;
};

/* prepare_fn: called once the content is loaded and the language read,
 * before the Markdown (the Markdown cache's salt and file stamp depend on
 * them). */
typedef void (*prepare_fn)(void *ctx, struct stages *st, const char *site_dir);

/* What stages_run is given, all borrowed: the request; read_only: nothing
 * is written into the site's cache (folio check: the formula cache is
 * read only); prep (may be NULL) and its ctx; cc (may be NULL) keeps files
 * between builds, fm (may be NULL) their front matter between processes,
 * records (folio build; may be NULL) what the last build learnt of each
 * content file, so that those unchanged since (known: the site's files
 * as stamped before the build, stamp.h) are not read (srccache.h). */
struct stages_in {
	const struct build_request *req;
	int read_only;
	prepare_fn prep;
	void *prep_ctx;
	struct content_cache *cc;
	struct fm_cache *fm;
	const struct src_cache *records;
	const struct stamp_list *known;
};

/* stages_run: every stage, in order, into st (a new arena); st->errors
 * counts what they reported. */
void stages_run(struct stages *st, const struct stages_in *in, struct diag *d);
/* stages_free: st's memory; with keep_thread, this thread's KaTeX and
 * highlighters stay loaded for the next build (a session). */
void stages_free(struct stages *st, struct diag *d, int keep_thread);
/* stages_told: the collector the stages told of the content's texts
 * (diag_set_texts) is told no more: at the end of the run whose collector
 * it is (a kept round outlives it), or when the content goes. */
void stages_told(struct stages *st);

/* stages_thread_cleanup: frees this thread's KaTeX and highlighters. */
void stages_thread_cleanup(void);
/* stages_copy_static: the theme's static files, the site's and the
 * bundles' to sink (see output_static), and the files of the site that
 * code blocks link to (file= with link; md_doc.deps' "HASH+PATH" lines)
 * at their place in the site; model-viewer's script only for a site with
 * a model. */
int stages_copy_static(struct diag *d, const struct site *s, const char *site_dir, const struct output_sink *sink,
		       int jobs, int read_only);

#endif
