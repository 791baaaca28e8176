/* scaffold.h: `folio new site`, `folio new post` and `folio new series`.
 *
 * Folder cli/: the command line: argv, the commands, their options and
 * exit status; folio new, folio theme export.
 * uses: base, formats, files, images, md, cache, tmpl, read, model, render, output, search, check, incremental, pipeline, serve, import, deploy.
 */
#ifndef FOLIO_SCAFFOLD_H
#define FOLIO_SCAFFOLD_H

#include <stddef.h>

#include "base/diag.h"

/* scaffold_site: creates dir (which must not exist, or be empty) with a
 * working example site. 0, or -1 after reporting to d. */
int scaffold_site(struct diag *d, const char *dir);

/* scaffold_ci: the CI workflow that builds the site in dir with folio's
 * release binary and publishes it: kind "github" (.github/workflows/
 * folio.yml, GitHub Pages) or "gitlab" (.gitlab-ci.yml, GitLab Pages);
 * its path goes to path_out. 0, or -1 after reporting (an unknown kind,
 * a file that exists). */
int scaffold_ci(struct diag *d, const char *dir, const char *kind, char *path_out, size_t size);

/* What folio new post makes. */
struct scaffold_post_opts {
	const char *site_dir, *title;
	const char *series; /* NULL: none */
	int draft;          /* marked draft: true */
	int bundle;         /* content/posts/SLUG/index.md */
};

struct scaffold_result {
	char path[4096];        /* the file written */
	char slug[1024];
	char series_path[4096]; /* the series file, with series */
	int series_listed;      /* the slug was added to its posts: list */
};

/* scaffold_post: creates the post of o in its site, dated now; with a
 * series, as its next part: added to the series file's posts: list when it
 * has one, else with the next series_order. A post of the same slug (file
 * or bundle) is never overwritten. 0, or -1 after reporting to d. */
int scaffold_post(struct diag *d, const struct scaffold_post_opts *o, struct scaffold_result *r);

/* What folio new series makes. */
struct scaffold_series_opts {
	const char *site_dir, *slug, *title;
	const char *description, *difficulty; /* NULL: a placeholder */
};

/* scaffold_series: creates content/series/SLUG.md with every key of a
 * series, the optional ones commented; the path goes to path_out. 0, or -1
 * after reporting to d. */
int scaffold_series(struct diag *d, const struct scaffold_series_opts *o, char *path_out, size_t size);

#endif
