/* sitefile.c: files of the site only: links leading outside it, to
 * nothing or round a circle are refused. */
#include "files/sitefile.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

char *site_root(const char *site_dir)
{
	return site_dir ? realpath(site_dir, NULL) : NULL;
}

int site_inside(const char *root, const char *real)
{
	if (!root)
		return 1;
	size_t n = strlen(root);
	while (n > 0 && root[n - 1] == '/')
		n--; /* "/" is "" here: everything is below it */
	return !strncmp(real, root, n) && (real[n] == '/' || real[n] == '\0');
}

static void put(char *to, size_t cap, const char *s)
{
	if (!cap)
		return;
	size_t n = strlen(s);
	if (n >= cap)
		n = cap - 1;
	memcpy(to, s, n);
	to[n] = '\0';
}

enum site_where site_where(const char *root, const char *path, char *to, size_t cap)
{
	put(to, cap, "");
	struct stat ls;
	if (lstat(path, &ls) != 0)
		return errno == ELOOP ? SITE_LOOP : SITE_MISSING;
	if (!root)
		return SITE_INSIDE;
	char real[PATH_MAX];
	if (!realpath(path, real)) {
		int e = errno;
		if (e == ELOOP)
			return SITE_LOOP;
		if (e == ENOENT || e == ENOTDIR) {
			char link[PATH_MAX];
			ssize_t k = S_ISLNK(ls.st_mode) ? readlink(path, link, sizeof link - 1) : -1;
			link[k > 0 ? k : 0] = '\0';
			put(to, cap, link);
			return SITE_DANGLING;
		}
		return SITE_MISSING; /* EACCES and the like: reading it says why */
	}
	if (site_inside(root, real))
		return SITE_INSIDE;
	put(to, cap, real);
	return SITE_OUTSIDE;
}

void site_report(struct diag *d, const char *shown, enum site_where w, const char *to)
{
	struct diag_loc loc = {shown, NULL, 0, 0, 0};
	struct diag_note note = {loc, NULL};
	switch (w) {
	case SITE_OUTSIDE:
		note.msg = "hint: folio reads only files inside the site folder: copy what it points to into the "
			   "site, or remove the link";
		diag_report(d, DIAG_ERROR, &loc, &note, 1, "symlink points outside the site (to %s)", to);
		break;
	case SITE_LOOP:
		note.msg = "hint: remove the link, or point it to a file";
		diag_report(d, DIAG_ERROR, &loc, &note, 1, "symlink in a circle of links, which leads to no file");
		break;
	case SITE_DANGLING:
		note.msg = "hint: restore what it points to, or remove the link";
		diag_report(d, DIAG_ERROR, &loc, &note, 1, "symlink to '%s', which does not exist", to);
		break;
	default:
		break;
	}
}

void site_report_cycle(struct diag *d, const char *shown, const char *held)
{
	struct diag_loc loc = {shown, NULL, 0, 0, 0};
	struct diag_note note = {loc, "hint: remove the link, or point it to a folder that does not hold it"};
	diag_report(d, DIAG_ERROR, &loc, &note, 1,
		    "symlink to '%s', a folder that holds it: following it would never end", held);
}

int site_check(struct diag *d, const char *root, const char *path, const char *shown)
{
	char to[PATH_MAX];
	enum site_where w = site_where(root, path, to, sizeof to);
	if (w == SITE_INSIDE || w == SITE_MISSING)
		return 0;
	site_report(d, shown, w, to);
	return -1;
}

int site_check_link(struct diag *d, const char *root, const char *path, const char *shown)
{
	struct stat ls;
	if (lstat(path, &ls) == 0 && !S_ISLNK(ls.st_mode))
		return 0;
	return site_check(d, root, path, shown);
}
