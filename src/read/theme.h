/* theme.h: the embedded default theme and the templates a build uses. */
#ifndef FOLIO_THEME_H
#define FOLIO_THEME_H

#include <stddef.h>

#include "read/config.h"
#include "base/diag.h"
#include "md/markdown.h"
#include "tmpl/tmpl.h"

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

/* theme_directives: the site's own directives: each template
 * directives/NAME.html of env (NAME: a letter, then letters, digits and
 * '-'), with the arguments it declares in a comment at its very top:
 *
 *   {# args:
 *        id: {type: string, required: true}
 *        start: {type: int, default: 0}
 *        title: string
 *   #}
 *
 * (types string, int, number, bool; an argument is optional unless
 * required, and has no value unless a default). A template without such
 * a comment takes no argument. Its file is site_dir/templates/NAME's
 * path, its hash that of its bytes (a document that calls it notes both).
 * A name folio's directives have (note, tip, warning, video, animation,
 * model3d) is not one. Errors (a bad declaration, an unknown type or key,
 * a default of the wrong type, an argument named content, page, site or
 * media)
 * at their place in the template. Sets *out (in a, sorted by name) and *n;
 * returns the number of errors. */
int theme_directives(const struct tmpl_env *env, struct arena *a, struct diag *d, const char *site_dir,
		     struct md_udir **out, size_t *n);

/* theme_load_language: the strings and date names of the site's language
 * (cfg->language, "en" by default): the theme's i18n/en.yml, over which
 * the theme's i18n/LANG.yml and then the site's i18n/LANG.yml are laid. A
 * name English does not have is an error (with a suggestion); a string a
 * file leaves out is English's (a warning only for a language the theme
 * does not have). A language neither the theme nor the site has is an
 * error at folio.yml's language key. Sets env's locale (tmpl.h) and the
 * global `t`, a map of every string, in a (which must outlive env).
 * Returns the number of errors. */
int theme_load_language(struct tmpl_env *env, struct arena *a, struct diag *d, const char *site_dir,
			const struct config *cfg);

/* theme_md_labels: the words of the rendered Markdown in the language
 * theme_load_language set in env (md_options' labels), copied into a;
 * NULL for a word it has none of. */
void theme_md_labels(const struct tmpl_env *env, struct arena *a, const char *labels[MD_LABELS]);

/* The theme's files that pages link to (style.css, print.css, enhance.js:
 * THEME_ASSETS): each is the site's static/FILE when it has one (inside
 * the site), else the theme's, and is written a second time as
 * NAME.HASH.EXT (16 hex digits of XXH3 of its bytes), a name that changes
 * with its content, so that a server may let browsers keep it for long.
 * theme_asset sets name ("style.HASH.css", no slash), *data and *len;
 * *owned is what to free (malloc'd when the file came from the site, else
 * NULL). */
#define THEME_ASSETS {"style.css", "print.css", "enhance.js", "search.css", "extras.css", NULL}
#define THEME_ASSET_NAME_MAX 64
void theme_asset(const char *site_dir, const char *file, char name[THEME_ASSET_NAME_MAX], const char **data,
		 size_t *len, char **owned);
/* theme_asset_name: the name alone. */
void theme_asset_name(const char *site_dir, const char *file, char name[THEME_ASSET_NAME_MAX]);

#endif
