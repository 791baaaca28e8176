/* theme.c: the templates a build renders with: the embedded default
 * theme's, then the site's templates/ folder (read here, in the reading
 * stage: rendering reads no file), which replaces theme files of the same
 * name. */
#include "theme.h"

#include "output.h"
#include "sitefile.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && !strcmp(s + a - b, suffix);
}

/* add_site_templates: the templates below dir; links are followed inside
 * the site (root) only, and not to a folder that holds them (up). */
static void add_site_templates(struct tmpl_env *env, struct diag *d, const char *dir, const char *rel, int *errors,
			       const char *root, const struct held *up)
{
	DIR *dh = opendir(dir);
	if (!dh)
		return;
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, cap = 0;
	while ((de = readdir(dh))) {
		if (de->d_name[0] == '.' || ends_with(de->d_name, "~") || ends_with(de->d_name, ".swp"))
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 16;
			names = xrealloc(names, cap * sizeof *names);
		}
		names[n++] = xstrndup(de->d_name, strlen(de->d_name));
	}
	closedir(dh);
	for (size_t i = 0; i < n; i++) {
		char path[4096], name[2048];
		snprintf(path, sizeof path, "%s/%s", dir, names[i]);
		snprintf(name, sizeof name, "%s%s%s", rel, rel[0] ? "/" : "", names[i]);
		char shown[2100];
		snprintf(shown, sizeof shown, "templates/%s", name);
		struct stat st;
		const struct held *h;
		int have = stat(path, &st) == 0;
		if (site_check_link(d, root, path, shown) != 0) {
			(*errors)++; /* outside the site, to nothing, or in a circle: never read */
		} else if (have && S_ISDIR(st.st_mode) && (h = held_find(up, &st, 1))) {
			site_report_cycle(d, shown, h->path);
			(*errors)++;
		} else if (have && S_ISDIR(st.st_mode)) {
			struct held here = {st.st_dev, st.st_ino, path, up, 0};
			add_site_templates(env, d, path, name, errors, root, &here);
		} else if (have) { /* a named pipe or a device: an error of read_file */
			size_t len;
			char *src = read_file_max(path, FOLIO_MAX_FILE, &len);
			if (!src) {
				struct diag_loc loc = {shown, NULL, 0, 0, 0};
				diag_error(d, &loc, "cannot read: %s", file_strerror(errno));
				(*errors)++;
			} else if (diag_too_big(d, shown, src, len, FOLIO_MAX_FILE,
						"split it into templates joined with include")) {
				(*errors)++;
				free(src);
			} else {
				*errors += tmpl_env_add(env, name, shown, src, len, d);
				free(src);
			}
		}
		free(names[i]);
	}
	free(names);
}

int theme_load_templates(struct tmpl_env *env, struct diag *d, const char *site_dir)
{
	int errors = 0;
	for (size_t i = 0; i < theme_nfiles; i++) {
		const struct theme_file *f = &theme_files[i];
		if (strncmp(f->name, "templates/", 10))
			continue;
		char shown[512];
		snprintf(shown, sizeof shown, "(theme) %s", f->name);
		errors += tmpl_env_add(env, f->name + 10, shown, f->data, f->len, d);
	}
	char dir[4096];
	snprintf(dir, sizeof dir, "%s/templates", site_dir);
	char *root = site_root(site_dir);
	enum site_where w = site_where(root, dir, NULL, 0);
	struct held *top = w == SITE_INSIDE ? held_root(dir) : NULL;
	if (top)
		add_site_templates(env, d, dir, "", &errors, root, top);
	else if (w != SITE_MISSING)
		errors++; /* outside the site, or a link to nothing: content_load said why */
	held_free(top);
	free(root);
	if (!errors)
		errors += tmpl_env_check(env, d);
	return errors;
}

