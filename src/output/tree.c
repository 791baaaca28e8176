/* tree.c: copying folders into an output (the static files of a site and
 * of its post bundles), never following a link out of the site or round a
 * circle (struct held). */
#include "internal.h"

#include "base/arena.h"
#include "base/buf.h"
#include "files/reader.h"
#include "files/sitefile.h"

#include <dirent.h>
#include <fcntl.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* skip_name: the names a walk of the site passes over; with skip_md,
 * Markdown files too (a post bundle's index.md is the post, not a file to
 * copy). */
static int skip_name(const char *name, int skip_md)
{
	size_t n = strlen(name);
	return site_ignored(name) || (skip_md && n > 3 && !strcmp(name + n - 3, ".md"));
}

struct copy {
	struct diag *d;
	const struct output_sink *sink;
	const char *root; /* the site folder's realpath: links outside it, to nothing, in a circle are errors */
	int *refused;     /* set when one was: the rest is still looked at, so that every one is told */
	const char *site; /* the site folder as given, or NULL: messages name paths below it from there */
};

/* below: the rest of path after dir and a '/', or NULL. */
static const char *below(const char *path, const char *dir)
{
	size_t n = dir ? strlen(dir) : 0;
	return n && !strncmp(path, dir, n) && path[n] == '/' && path[n + 1] ? path + n + 1 : NULL;
}

/* shown: path as messages show it: site-relative ("static/a.png") when it
 * is below the site's folder, as given or as its realpath. */
static const char *shown(const struct copy *c, const char *path)
{
	const char *r = below(path, c->site);
	if (!r)
		r = below(path, c->root);
	return r ? r : path;
}

/* not_there: the warning for an entry (path, shown as name) that stat
 * cannot follow: a link to nothing, or one of a circle of links. */
static void not_there(struct diag *d, const char *path, const char *name, int err)
{
	struct stat st;
	if (lstat(path, &st) != 0 || !S_ISLNK(st.st_mode))
		output_warning(d, name, "cannot read: %s; not copied", strerror(err));
	else if (err == ELOOP)
		output_warning(d, name, "a link in a circle of links, which leads to no file; not copied");
	else if (err == ENOENT || err == ENOTDIR)
		output_warning(d, name, "a link to nothing: what it points to does not exist; not copied");
	else
		output_warning(d, name, "a link that cannot be followed: %s; not copied", strerror(err));
}

static long copy_rec(const struct copy *c, const char *src, const char *rel, int skip_md, const struct held *up)
{
	DIR *dh = opendir(src);
	if (!dh) {
		output_error(c->d, shown(c, src), "cannot read the folder: %s", strerror(errno));
		return -1;
	}
	long count = 0;
	struct dirent *de;
	while ((de = readdir(dh))) {
		if (skip_name(de->d_name, skip_md))
			continue;
		char s[PATH_MAX], r[PATH_MAX];
		if (snprintf(s, sizeof s, "%s/%s", src, de->d_name) >= (int)sizeof s ||
		    snprintf(r, sizeof r, "%s%s%s", rel, rel[0] ? "/" : "", de->d_name) >= (int)sizeof r) {
			output_warning(c->d, shown(c, src), "'%s' is not copied: its path would be longer than %d bytes", de->d_name,
				       PATH_MAX - 1);
			continue;
		}
		struct stat st;
		if (c->root && (de->d_type == DT_LNK || de->d_type == DT_UNKNOWN) &&
		    site_check_link(c->d, c->root, s, shown(c, s)) != 0) {
			*c->refused = 1; /* outside the site, to nothing, or in a circle: never followed */
			continue;
		}
		/* from the folder: its path is not walked again for each file */
		if (fstatat(dirfd(dh), de->d_name, &st, 0) != 0) {
			not_there(c->d, s, shown(c, s), errno);
			continue;
		}
		if (S_ISDIR(st.st_mode)) {
			const struct held *h = held_find(up, &st, de->d_type == DT_LNK || de->d_type == DT_UNKNOWN);
			if (h && c->root) {
				site_report_cycle(c->d, shown(c, s), shown(c, h->path));
				*c->refused = 1;
				continue;
			}
			if (h) {
				output_warning(c->d, shown(c, s),
						"a link to '%s', a folder that holds it: copying it would never end; not copied "
						"(link to a folder outside it)",
						h->path);
				continue;
			}
			struct held here = {st.st_dev, st.st_ino, s, up, 0};
			long k = copy_rec(c, s, r, 0, &here);
			if (k < 0) {
				closedir(dh);
				return -1;
			}
			count += k;
		} else if (S_ISREG(st.st_mode)) {
			/* the sink's copy, or (without one, or when it says 1) the
			 * bytes read and handed to its write */
			int rc = c->sink->copy ? c->sink->copy(c->sink->ctx, r, s, &st) : 1;
			if (rc == 1) {
				size_t len;
				char *data = read_file(s, &len);
				if (!data) {
					output_error(c->d, shown(c, s), "cannot read: %s", file_strerror(errno));
					closedir(dh);
					return -1;
				}
				rc = c->sink->write(c->sink->ctx, r, data, len);
				free(data);
			}
			if (rc) {
				closedir(dh);
				return -1;
			}
			count++;
		} else {
			output_warning(c->d, shown(c, s), "%s; not copied", file_strerror(FOLIO_ENOTREG));
		}
	}
	closedir(dh);
	return count;
}

long output_copy_tree_to(struct diag *d, const char *root, const char *site_dir, const char *src_dir,
			 const char *rel_dir, int skip_md, const struct output_sink *sink)
{
	enum site_where w = site_where(root, src_dir, NULL, 0);
	if (w != SITE_INSIDE)
		return w == SITE_MISSING ? 0 : -1; /* the site's check of its folders said why */
	struct held *top = held_root(src_dir);
	if (!top)
		return 0;
	int refused = 0;
	struct copy c = {d, sink, root, &refused, site_dir};
	long r = copy_rec(&c, src_dir, rel_dir, skip_md, top);
	held_free(top);
	return refused ? -1 : r;
}

static int write_to_output(void *ctx, const char *rel, const void *data, size_t len)
{
	return output_write(ctx, rel, data, len);
}

long output_copy_tree(struct output *o, const char *src_dir, const char *rel_dir, int skip_md)
{
	struct output_sink sink = {write_to_output, NULL, o};
	return output_copy_tree_to(o->d, NULL, NULL, src_dir, rel_dir, skip_md, &sink);
}
/* ---- the static files of a site ---- */

int output_static(struct diag *d, const char *site_dir, const struct output_files *theme, const struct output_bundle *b,
		  size_t nb, const struct output_sink *sink)
{
	int errors = 0;
	/* the theme's files first; the site's static/ replaces them */
	for (size_t i = 0; i < theme->nfirst; i++)
		if (sink->write(sink->ctx, theme->first[i].name, theme->first[i].data, theme->first[i].len))
			errors++;
	char dir[4096];
	snprintf(dir, sizeof dir, "%s/static", site_dir);
	char *root = site_root(site_dir);
	if (output_copy_tree_to(d, root, site_dir, dir, "", 0, sink) < 0)
		errors++;
	for (size_t i = 0; i < nb; i++) {
		char rel[1024];
		snprintf(rel, sizeof rel, "posts/%.*s", STR_FMT(b[i].slug));
		if (output_copy_tree_to(d, root, site_dir, b[i].dir, rel, 1, sink) < 0)
			errors++;
	}
	free(root);
	/* the files pages link to, again under names that change with them */
	for (size_t i = 0; i < theme->nlast; i++)
		if (sink->write(sink->ctx, theme->last[i].name, theme->last[i].data, theme->last[i].len))
			errors++;
	return errors;
}
