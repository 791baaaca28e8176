/* themeexport.c: `folio theme export [DIR] [TEMPLATE...]`: writes the
 * embedded theme's templates (DIR/templates/), static files (DIR/static/)
 * and language files (DIR/i18n/) into a site, where they override the
 * theme file by file. Like scaffold.c it writes into the site folder
 * itself, never over a file: every target is checked before the first
 * is written, so a refusal leaves the site as it was. */
#include "cli/themeexport.h"

#include "base/buf.h"
#include "base/diag.h"
#include "base/file.h"
#include "read/theme.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char theme_export_help[] =
	"usage: folio theme export [DIR] [TEMPLATE...]\n"
	"\n"
	"Writes the default theme, which is built into folio, into the site in\n"
	"DIR (default: the current folder; it must hold folio.yml), to be edited\n"
	"there: its templates into DIR/templates/, its static files into\n"
	"DIR/static/ and its language files into DIR/i18n/. A site's file\n"
	"replaces the theme's of the same name, so the site builds as before\n"
	"until one is changed. With TEMPLATE names (post.html, base.html, ...),\n"
	"only those templates are written.\n"
	"\n"
	"No file is ever overwritten: if one exists, folio names it and writes\n"
	"nothing at all. Each file written is printed.\n"
	"\n"
	"Exit status: 0 written, 1 a file exists or cannot be written, or DIR is\n"
	"not a site, 2 usage errors.\n";

enum { EXIT_OK = 0, EXIT_SITE = 1, EXIT_USAGE = 2 };

/* exported: whether theme file f is one export writes: templates,
 * static files and language files (not the assets folio adds to a site
 * that needs them, such as model-viewer's script). */
static int exported(const struct theme_file *f)
{
	return !strncmp(f->name, "templates/", 10) || !strncmp(f->name, "static/", 7) || !strncmp(f->name, "i18n/", 5);
}

static int usage(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int usage(const char *fmt, ...)
{
	va_list ap;
	fputs("folio theme: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nRun 'folio help theme' for its usage.\n", stderr);
	return EXIT_USAGE;
}

/* write_new: path with data; never over an existing file (base/file.c).
 * 0, or -1 after reporting at shown. */
static int write_new(struct diag *d, const char *path, const char *shown, const char *data, size_t len)
{
	struct diag_loc loc = {shown, NULL, 0, 0, 0};
	int fail = file_create_new(path, data, len);
	if (fail == FILE_FAIL_CREATE)
		diag_error(d, &loc, "%s", errno == EEXIST ? "already exists; not overwritten" : strerror(errno));
	else if (fail)
		diag_error(d, &loc, "%s: %s", file_fail_what(fail), strerror(errno));
	return fail ? -1 : 0;
}

static int export_files(const char *dir, char **names, int nnames)
{
	struct diag d;
	diag_init(&d, stderr);
	char path[4096];
	struct stat st;
	int missing = stat(dir, &st) != 0;
	if (missing || !S_ISDIR(st.st_mode)) {
		struct diag_loc loc = {dir, NULL, 0, 0, 0};
		diag_error(&d, &loc, "%s", missing ? "no such folder" : "not a folder");
		diag_fini(&d);
		return EXIT_SITE;
	}
	snprintf(path, sizeof path, "%s/folio.yml", dir);
	if (stat(path, &st) != 0) {
		struct diag_loc loc = {dir, NULL, 0, 0, 0};
		diag_error(&d, &loc, "not a folio site: it has no folio.yml (hint: 'folio new site DIR' makes one)");
		diag_fini(&d);
		return EXIT_SITE;
	}
	/* the templates named: each must be one of the theme's */
	const char **cands = xcalloc(theme_nfiles + 1, sizeof *cands);
	size_t ncands = 0;
	for (size_t i = 0; i < theme_nfiles; i++)
		if (!strncmp(theme_files[i].name, "templates/", 10))
			cands[ncands++] = theme_files[i].name + 10;
	int bad = 0;
	for (int k = 0; k < nnames; k++) {
		const char *n = !strncmp(names[k], "templates/", 10) ? names[k] + 10 : names[k];
		size_t i = 0;
		while (i < ncands && strcmp(cands[i], n))
			i++;
		if (i < ncands)
			continue;
		const char *near = diag_suggest(n, strlen(n), cands);
		struct diag_loc loc = {names[k], NULL, 0, 0, 0};
		if (near)
			diag_error(&d, &loc, "not a template of the theme (did you mean '%s'?)", near);
		else
			diag_error(&d, &loc, "not a template of the theme (folio help theme lists where they go; "
					     "the theme's are in templates/ after a full export)");
		bad++;
	}
	/* the files, and a look at each target before anything is written */
	const struct theme_file **todo = xcalloc(theme_nfiles + 1, sizeof *todo);
	size_t ntodo = 0;
	int bad_names = bad;
	for (size_t i = 0; i < theme_nfiles && !bad_names; i++) {
		const struct theme_file *f = &theme_files[i];
		if (!exported(f))
			continue;
		if (nnames) {
			int want = 0;
			for (int k = 0; k < nnames && !want; k++) {
				const char *n = !strncmp(names[k], "templates/", 10) ? names[k] + 10 : names[k];
				want = !strncmp(f->name, "templates/", 10) && !strcmp(f->name + 10, n);
			}
			if (!want)
				continue;
		}
		snprintf(path, sizeof path, "%s/%s", dir, f->name);
		if (lstat(path, &st) == 0) {
			struct diag_loc loc = {f->name, NULL, 0, 0, 0};
			diag_error(&d, &loc, "already exists; not overwritten (move it away to export the theme's)");
			bad++;
			continue;
		}
		todo[ntodo++] = f;
	}
	if (bad) {
		fprintf(stderr, "folio: %d error%s; nothing was written\n", d.errors, d.errors == 1 ? "" : "s");
		free(cands);
		free(todo);
		diag_fini(&d);
		return EXIT_SITE;
	}
	int rc = EXIT_OK;
	for (size_t i = 0; i < ntodo; i++) {
		snprintf(path, sizeof path, "%s/%s", dir, todo[i]->name);
		if (write_new(&d, path, todo[i]->name, todo[i]->data, todo[i]->len)) {
			rc = EXIT_SITE;
			break;
		}
		printf("wrote %s\n", todo[i]->name);
	}
	if (rc == EXIT_OK)
		printf("folio: exported %zu file%s of the default theme; edit %s, %s the theme's\n", ntodo,
		       ntodo == 1 ? "" : "s", ntodo == 1 ? "it" : "them", ntodo == 1 ? "it replaces" : "they replace");
	free(cands);
	free(todo);
	diag_fini(&d);
	return rc;
}

int theme_command(int argc, char **argv)
{
	for (int i = 0; i < argc; i++)
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs(theme_export_help, stdout);
			return EXIT_OK;
		}
	if (argc < 1)
		return usage("%s", "what to do: 'export'");
	if (strcmp(argv[0], "export"))
		return usage("unknown subcommand '%s' (the one there is: export)", argv[0]);
	const char *dir = NULL;
	char **names = xcalloc((size_t)argc + 1, sizeof *names);
	int nnames = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--")) {
			for (i++; i < argc; i++)
				names[nnames++] = argv[i];
			break;
		}
		if (a[0] == '-' && a[1]) {
			free(names);
			return usage("unknown option '%s'", a);
		}
		/* the first argument is DIR when it is a folder, or has no
		 * dot in its last part as no template name does (a folder
		 * mistyped is then said to be missing); the rest are
		 * template names */
		struct stat st;
		const char *last = strrchr(a, '/');
		last = last ? last + 1 : a;
		if (!dir && !nnames && ((stat(a, &st) == 0 && S_ISDIR(st.st_mode)) || !strchr(last, '.')))
			dir = a;
		else
			names[nnames++] = argv[i];
	}
	int rc = export_files(dir ? dir : ".", names, nnames);
	free(names);
	return rc;
}
