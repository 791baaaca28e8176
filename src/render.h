/* render.h: the model handed to templates, and every page of the site
 * rendered into the output. No file reading here except the site's own
 * templates/ folder; writing goes through output.h. */
#ifndef FOLIO_RENDER_H
#define FOLIO_RENDER_H

#include "output.h"
#include "site.h"
#include "tmpl.h"

/* One file of the embedded default theme ("templates/post.html",
 * "static/style.css"), made by the build from theme/. */
struct theme_file {
	const char *name;
	const char *data;
	size_t len;
};
extern const struct theme_file theme_files[];
extern const size_t theme_nfiles;

/* render_load_templates: adds the theme's templates to env, then the site's
 * templates/ files, which replace theme files of the same name. Reports
 * syntax errors and then links the set. Returns the number of errors. */
int render_load_templates(struct tmpl_env *env, struct diag *d, const char *site_dir);

/* render_site: renders every page of s into o on `jobs` threads, plus the
 * theme's static files, the site's static/ folder and post bundles' files.
 * Returns the number of errors; *pages counts the pages rendered. */
int render_site(struct arena *a, struct diag *d, const struct site *s, struct tmpl_env *env, struct output *o,
		const char *site_dir, int jobs, size_t *pages);

#endif
