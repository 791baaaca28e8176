/* theme.h: the embedded default theme and the templates a build uses. */
#ifndef FOLIO_THEME_H
#define FOLIO_THEME_H

#include <stddef.h>

#include "diag.h"
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

/* theme_load_templates: adds the theme's templates to env, then the site's
 * templates/ files, which replace theme files of the same name. Reports
 * syntax errors and then links the set. Returns the number of errors. */
int theme_load_templates(struct tmpl_env *env, struct diag *d, const char *site_dir);

#endif
