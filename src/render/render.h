/* render.h: the model handed to templates, and every page of the site
 * rendered and handed to a sink. No I/O here: templates are read by
 * theme.c, pages written and static files copied by the caller's sink
 * (output.h).
 *
 * Folder render/: the template values of the model and the list of pages,
 * each rendered and handed to a sink (no I/O).
 * uses: base, formats, md, tmpl, read, model.
 */
#ifndef FOLIO_RENDER_H
#define FOLIO_RENDER_H

#include "model/site.h"
#include "tmpl/tmpl.h"

/* One page of the site: its template, its path in the output
 * ("posts/x/index.html"), the variables it is rendered with and the file
 * it is made from. */
struct render_job {
	const char *tmpl;
	const char *out;
	struct tval vars;
	const struct source *src; /* the post, page or series it shows, or NULL */
};

/* Ids for incremental rebuilds: id returns the first of n consecutive
 * nonzero ids for key ("post:slug", "tag:cuda", "global:site"), the same
 * in every build of a session. A map gets TMPL_DEP_FIELDS + 1 ids (see
 * tmpl.h), a global one. */
struct render_deps {
	uint32_t (*id)(void *ctx, const char *key, size_t len, size_t n);
	void *ctx;
};

/* A value that has an id: a map with that `dep` (is_map; the map's keys
 * have the ids after it), or a global. */
struct render_dep_val {
	uint32_t id;
	int is_map;
	struct tval v;
};

/* Every page of a build, and (with deps) the values behind the ids. All of
 * it lives in the build's arena. */
struct render_plan {
	struct render_job *jobs;
	size_t njobs;
	struct render_dep_val *vals;
	size_t nvals, cap_vals;
	struct tval *post_vals; /* each published post's map, by post->index */
	/* each tag's and category's short map (name, slug, url), by its place
	 * in site->tags and site->categories: one per term, which the posts'
	 * maps share */
	struct tval *tag_refs, *category_refs;
	/* the keys every post's map, every heading's, every related post's,
	 * every page's "page" and its variables take (render.c's post_keys,
	 * toc_keys, related_keys, page_keys, vars_keys) */
	const struct tmap *post_shape, *toc_shape, *related_shape, *page_shape, *vars_shape;
};

/* render_plan: makes the template values of the model (in a) and sets the
 * templates' globals in env, then lists every page. With deps, the maps of
 * posts, series, tags, categories, years and pages and every global get
 * ids, which renders record when they read them (tmpl_deps_record).
 * Returns the number of errors (an alias taking another page's address, a
 * page naming a template that does not exist). The posts' maps are made
 * on up to jobs threads (the values do not depend on how many). */
int render_plan(struct arena *a, struct diag *d, const struct site *s, struct tmpl_env *env,
		const struct render_deps *deps, int jobs, struct render_plan *plan);

/* render_refresh_post: after site_patch_post, the fields of post i's map
 * made again from the post (in a), in place; returns the value behind its
 * id (to fingerprint again), or NULL without ids. */
const struct render_dep_val *render_refresh_post(struct arena *a, const struct render_plan *plan, const struct site *s,
						 size_t i);

/* render_page_fn: receives one rendered page (job: its index in the plan;
 * its bytes: the nparts parts, one after the other, see
 * tmpl_render_pieces; read: what it read, or NULL when nothing is
 * recorded). Called on worker threads. 0, or -1 after reporting an error. */
typedef int (*render_page_fn)(void *ctx, size_t job, const struct str *parts, size_t nparts,
			      const struct tmpl_deps *read);

/* render_pages: renders the pages of plan with want[i] set (want NULL:
 * all) on `jobs` threads, each handed to sink. With dep_bits (the number of
 * ids in use + 1), each page records what it read. Returns the number of
 * errors; *rendered (may be NULL) counts the pages rendered. */
int render_pages(const struct render_plan *plan, const struct tmpl_env *env, struct diag *d,
		 const unsigned char *want, int jobs, size_t dep_bits, render_page_fn sink, void *ctx,
		 size_t *rendered);

#endif
