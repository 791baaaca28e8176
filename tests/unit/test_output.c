/* test_output.c: the output guard (what folio refuses to replace), the
 * staging folder, the atomic swap, stale staging folders and abort. */
#include "harness.h"

#include "base/arena.h"
#include "base/buf.h"
#include "cache/cache.h"
#include "base/diag.h"
#include "base/hash.h"
#include "output/output.h"
#include "files/sitefile.h"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static struct buf cap;
static struct diag d;
static char *root; /* a scratch folder holding site/ and the outputs */
static char site[512], out[512];

static void dbegin(void)
{
	diag_init(&d, NULL);
	buf_reset(&cap);
	d.capture = &cap;
}

static const char *dend(void)
{
	diag_fini(&d);
	return t_msgs(&cap);
}

/* count_entries: the names in dir (hidden ones included). */
static int count_entries(const char *path)
{
	DIR *dh = opendir(path);
	if (!dh)
		return -1;
	int n = 0;
	struct dirent *de;
	while ((de = readdir(dh)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			n++;
	closedir(dh);
	return n;
}

/* staging_count: the staging folders of out in root (the spare, the next
 * build's staging folder, aside). */
static int staging_count(void)
{
	DIR *dh = opendir(root);
	int n = 0;
	struct dirent *de;
	while ((de = readdir(dh)))
		if (!strncmp(de->d_name, ".out.folio-", 11) && strcmp(de->d_name, ".out.folio-spare"))
			n++;
	closedir(dh);
	return n;
}

/* refused: output_begin(dir) must fail with "DIR: error: refusing to write
 * the site here: WHY"; returns the message. */
static const char *refused(const char *dir, const char *site_dir)
{
	dbegin();
	struct output *o = output_begin(&d, dir, site_dir);
	OK(o == NULL);
	if (o)
		output_abort(o);
	return dend();
}

/* refusal: the message for dir refused for why; a reason without advice
 * of its own gets the general one */
static const char *refusal(const char *dir, const char *why)
{
	static char b[4096];
	snprintf(b, sizeof b, "%s: error: refusing to write the site here: %s%s", dir, why,
		 strstr(why, "choose") ? "" : "; choose another folder with -o");
	return b;
}

static void test_first_and_second_build(void)
{
	/* the first build: out does not exist yet */
	dbegin();
	struct output *o = output_begin(&d, out, site);
	OK(o != NULL);
	if (!o)
		return;
	INT_EQ(staging_count(), 1);
	OK(!t_exists(root, "out"));
	INT_EQ(output_write(o, "index.html", "home v1", 7), 0);
	INT_EQ(output_write(o, "posts/a/index.html", "post a", 6), 0);
	INT_EQ(output_write(o, "old-only.html", "gone later", 10), 0);
	OK(output_exists(o, "posts/a/index.html"));
	OK(!output_exists(o, "posts/b/index.html"));
	INT_EQ(output_count(o), 3);
	INT_EQ(output_commit(o), 0);
	STR_EQ(dend(), "");
	STR_EQ(t_read(out, "index.html"), "home v1");
	STR_EQ(t_read(out, "posts/a/index.html"), "post a");
	OK(t_exists(out, OUTPUT_MARKER));
	INT_EQ(staging_count(), 0);

	/* the second build replaces the whole folder */
	dbegin();
	o = output_begin(&d, out, site);
	OK(o != NULL);
	if (!o)
		return;
	INT_EQ(output_write(o, "index.html", "home v2", 7), 0);
	INT_EQ(output_write(o, "posts/b/index.html", "post b", 6), 0);
	/* until the commit, the old site is untouched */
	STR_EQ(t_read(out, "index.html"), "home v1");
	OK(t_exists(out, "old-only.html"));
	INT_EQ(output_commit(o), 0);
	STR_EQ(dend(), "");
	STR_EQ(t_read(out, "index.html"), "home v2");
	STR_EQ(t_read(out, "posts/b/index.html"), "post b");
	OK(!t_exists(out, "old-only.html"));
	OK(!t_exists(out, "posts/a/index.html"));
	OK(t_exists(out, OUTPUT_MARKER));
	INT_EQ(count_entries(out), 3); /* marker, index.html, posts */
	INT_EQ(staging_count(), 0);

	/* abort: the staging folder goes, the old site stays */
	dbegin();
	o = output_begin(&d, out, site);
	OK(o != NULL);
	if (!o)
		return;
	INT_EQ(output_write(o, "index.html", "home v3", 7), 0);
	output_abort(o);
	STR_EQ(dend(), "");
	STR_EQ(t_read(out, "index.html"), "home v2");
	STR_EQ(t_read(out, "posts/b/index.html"), "post b");
	INT_EQ(staging_count(), 0);
}

/* A file written twice in one build (a theme's file, then the site's own
 * of the same name): the manifest lists the last write, the one on disk,
 * so that the next build and folio deploy see the file as it is. */
static void test_written_twice(void)
{
	dbegin();
	struct output *o = output_begin(&d, out, site);
	OK(o != NULL);
	if (!o)
		return;
	static const char theme[] = "theme", own[] = "the site's own style";
	INT_EQ(output_write(o, "style.css", theme, sizeof theme - 1), 0);
	INT_EQ(output_write(o, "index.html", "home", 4), 0);
	INT_EQ(output_write(o, "style.css", own, sizeof own - 1), 0);
	INT_EQ(output_commit(o), 0);
	STR_EQ(dend(), "");
	STR_EQ(t_read(out, "style.css"), own);
	INT_EQ(output_unchanged(site, out, 0), 0);
	INT_EQ(output_unchanged(site, out, 1), 0);
	struct output_listing l;
	INT_EQ(output_list(site, out, &l), 0);
	size_t seen = 0;
	for (size_t i = 0; i < l.n; i++)
		if (!strcmp(l.v[i].rel, "style.css")) {
			seen++;
			INT_EQ(l.v[i].size, sizeof own - 1);
			OK(l.v[i].hash == hash_bytes(own, sizeof own - 1));
		}
	INT_EQ(seen, 1);
	output_listing_fini(&l);
	/* a page edited by hand in place: the same size and inode, a later
	 * time; the output is no longer the one the build left */
	char p[PATH_MAX + 16];
	snprintf(p, sizeof p, "%s/index.html", out);
	FILE *f = fopen(p, "r+");
	OK(f != NULL);
	if (f) {
		fputs("HOME", f);
		fclose(f);
	}
	struct timespec later[2] = {{0, UTIME_OMIT}, {time(NULL) + 5, 0}};
	INT_EQ(utimensat(AT_FDCWD, p, later, 0), 0);
	OK(output_unchanged(site, out, 0) != 0);
	OK(output_unchanged(site, out, 1) != 0); /* a file is always looked at */
}

/* The check that an output is as its build left it reads only the
 * folders whose change time is later than the build's end: a file or an
 * empty folder added deep down changes its folder's; a folder that went
 * or became a file is stat'ed. With checked (output_check has just looked
 * for what folio did not write), only the files are looked at. */
static void test_unchanged_deep(void)
{
	dbegin();
	struct output *o = output_begin(&d, out, site);
	OK(o != NULL);
	if (!o)
		return;
	INT_EQ(output_write(o, "index.html", "home", 4), 0);
	INT_EQ(output_write(o, "posts/a/index.html", "post a", 6), 0);
	INT_EQ(output_write(o, "posts/b/index.html", "post b", 6), 0);
	INT_EQ(output_write(o, "posts/b/img/x.png", "png", 3), 0);
	INT_EQ(output_commit(o), 0);
	STR_EQ(dend(), "");
	INT_EQ(output_unchanged(site, out, 0), 0);
	char p[PATH_MAX + 32];
	t_write(out, "posts/b/img/stray.txt", "stray");
	snprintf(p, sizeof p, "%s/posts/b/img/stray.txt", out);
	OK(output_unchanged(site, out, 0) != 0);
	INT_EQ(output_unchanged(site, out, 1), 0); /* trusted to have been seen by output_check */
	struct output_listing l;
	OK(output_list(site, out, &l) != 0);
	INT_EQ(errno, ESTALE);
	unlink(p);
	INT_EQ(output_unchanged(site, out, 0), 0);
	snprintf(p, sizeof p, "%s/posts/a/empty", out);
	INT_EQ(mkdir(p, 0755), 0);
	OK(output_unchanged(site, out, 0) != 0);
	rmdir(p);
	INT_EQ(output_unchanged(site, out, 0), 0);
	snprintf(p, sizeof p, "%s/posts/a/index.html", out);
	unlink(p);
	OK(output_unchanged(site, out, 1) != 0);
}

static void test_write_paths(void)
{
	dbegin();
	struct output *o = output_begin(&d, out, site);
	OK(o != NULL);
	if (!o)
		return;
	INT_EQ(output_write(o, "../escape.html", "x", 1), -1);
	INT_EQ(output_write(o, "/etc/escape", "x", 1), -1);
	INT_EQ(output_write(o, "a/../../escape.html", "x", 1), -1);
	INT_EQ(output_write(o, "a/..", "x", 1), -1);
	INT_EQ(output_write(o, "", "x", 1), -1);
	INT_EQ(output_write(o, "deep/er/and/deeper/file.txt", "", 0), 0);
	INT_EQ(output_write(o, "..dots-are-fine.txt", "y", 1), 0);
	INT_EQ(output_count(o), 2);
	output_abort(o);
	STR_EQ(dend(), "../escape.html: error: refusing to write outside the output folder\n"
		       "/etc/escape: error: refusing to write outside the output folder\n"
		       "a/../../escape.html: error: refusing to write outside the output folder\n"
		       "a/..: error: refusing to write outside the output folder\n"
		       ": error: refusing to write outside the output folder");
	OK(!t_exists(root, "escape.html"));
}

/* a path too long for the system is refused: cut short, it would name
 * another file */
static void test_long_path(void)
{
	char rel[4200];
	size_t n = 0;
	while (n < 4080)
		n += (size_t)snprintf(rel + n, sizeof rel - n, "a/");
	snprintf(rel + n, sizeof rel - n, "index.html");
	dbegin();
	struct output *o = output_begin(&d, out, site);
	OK(o != NULL);
	if (!o)
		return;
	INT_EQ(output_exists(o, rel), 0);
	INT_EQ(output_write(o, rel, "x", 1), -1);
	INT_EQ(output_count(o), 0);
	output_abort(o);
	const char *msg = dend();
	OK(strstr(msg, "index.html: error: cannot make its folder: File name too long") != NULL);
	OK(!t_exists(root, "a"));
}

static void test_copy_tree(void)
{
	char src[600];
	snprintf(src, sizeof src, "%s/static", site);
	t_write(site, "static/style.css", "css");
	t_write(site, "static/img/logo.svg", "<svg/>");
	t_write(site, "static/img/.DS_Store", "x");
	t_write(site, "static/notes.md", "md");
	t_write(site, "static/edit.css~", "x");
	t_write(site, "static/.hidden/x", "x");
	t_write(site, "static/x.swp", "x");
	dbegin();
	struct output *o = output_begin(&d, out, site);
	OK(o != NULL);
	if (!o)
		return;
	INT_EQ(output_copy_tree(o, src, "", 0), 3);
	INT_EQ(output_copy_tree(o, src, "posts/bundle", 1), 2); /* without the Markdown */
	char missing[700];
	snprintf(missing, sizeof missing, "%s/nope", site);
	INT_EQ(output_copy_tree(o, missing, "", 0), 0);
	INT_EQ(output_commit(o), 0);
	STR_EQ(dend(), "");
	STR_EQ(t_read(out, "style.css"), "css");
	STR_EQ(t_read(out, "img/logo.svg"), "<svg/>");
	OK(t_exists(out, "notes.md"));
	OK(!t_exists(out, "img/.DS_Store"));
	OK(!t_exists(out, "edit.css~"));
	OK(!t_exists(out, ".hidden"));
	OK(!t_exists(out, "x.swp"));
	OK(t_exists(out, "posts/bundle/img/logo.svg"));
	OK(!t_exists(out, "posts/bundle/notes.md"));
}

/* test_copy_links: links are followed, but not to a folder that holds
 * them (which would be copied without end); a link to nothing, a circle
 * of links and a named pipe are skipped with a warning. */
static void test_copy_links(void)
{
	char src[600], p[700], ext[600];
	snprintf(src, sizeof src, "%s/linked", site);
	snprintf(ext, sizeof ext, "%s/elsewhere", root);
	t_write(src, "a.txt", "a");
	t_write(ext, "e.txt", "e");
	t_write(src, "m/in-m.txt", "m");
	t_write(src, "n/in-n.txt", "n");
	struct {
		const char *name, *target;
	} links[] = {
		{"up", ".."}, {"top", root}, {"here", "."}, {"self", "self"}, {"nothing", "no-such-file"},
		{"m/to-n", "../n"}, {"n/to-m", "../m"}, {"ext", ext}, {"b.txt", "a.txt"},
	};
	for (size_t i = 0; i < sizeof links / sizeof *links; i++) {
		snprintf(p, sizeof p, "%s/%s", src, links[i].name);
		OK(symlink(links[i].target, p) == 0);
	}
	snprintf(p, sizeof p, "%s/pipe", src);
	OK(mkfifo(p, 0644) == 0);

	dbegin();
	struct output *o = output_begin(&d, out, site);
	OK(o != NULL);
	if (!o)
		return;
	/* a.txt, b.txt, ext/e.txt, m/in-m.txt, m/to-n/in-n.txt, n/in-n.txt,
	 * n/to-m/in-m.txt */
	INT_EQ(output_copy_tree(o, src, "", 0), 7);
	INT_EQ(output_commit(o), 0);
	const char *msgs = dend();
	char want[8192];
	snprintf(want, sizeof want,
		 "%s/here: warning: a link to '%s', a folder that holds it: copying it would never end; not copied "
		 "(link to a folder outside it)\n"
		 "%s/m/to-n/to-m: warning: a link to '%s/m', a folder that holds it: copying it would never end; not "
		 "copied (link to a folder outside it)\n"
		 "%s/n/to-m/to-n: warning: a link to '%s/n', a folder that holds it: copying it would never end; not "
		 "copied (link to a folder outside it)\n"
		 "%s/nothing: warning: a link to nothing: what it points to does not exist; not copied\n"
		 "%s/pipe: warning: not a regular file (a named pipe, a socket or a device: folio reads only "
		 "files); not copied\n"
		 "%s/self: warning: a link in a circle of links, which leads to no file; not copied\n"
		 "%s/top: warning: a link to '%s', a folder that holds it: copying it would never end; not copied "
		 "(link to a folder outside it)\n",
		 src, src, src, src, src, src, src, src, src, src, root);
	/* readdir's order is the file system's: compare sorted lines */
	char *got = xstrndup(msgs, strlen(msgs));
	size_t nl = 0;
	char *lines[64];
	for (char *t = strtok(got, "\n"); t && nl < 64; t = strtok(NULL, "\n"))
		lines[nl++] = t;
	for (size_t i = 1; i < nl; i++)
		for (size_t j = i; j > 0 && strcmp(lines[j - 1], lines[j]) > 0; j--) {
			char *x = lines[j];
			lines[j] = lines[j - 1];
			lines[j - 1] = x;
		}
	struct buf sorted;
	buf_init(&sorted);
	for (size_t i = 0; i < nl; i++) {
		buf_puts(&sorted, lines[i]);
		buf_putc(&sorted, '\n');
	}
	/* "up" leads to the site folder, which holds it on the disk */
	char up[1400];
	snprintf(up, sizeof up,
		 "%s/up: warning: a link to '%s', a folder that holds it: copying it would never end; not copied (link "
		 "to a folder outside it)\n",
		 src, site);
	OK(strstr(sorted.p ? sorted.p : "", up) != NULL);
	/* the rest, with "up" taken out */
	char *at = sorted.p ? strstr(sorted.p, up) : NULL;
	if (at)
		memmove(at, at + strlen(up), strlen(at + strlen(up)) + 1);
	STR_EQ(sorted.p ? sorted.p : "", want);
	buf_fini(&sorted);
	free(got);
	STR_EQ(t_read(out, "a.txt"), "a");
	STR_EQ(t_read(out, "b.txt"), "a");
	STR_EQ(t_read(out, "ext/e.txt"), "e");
	STR_EQ(t_read(out, "m/to-n/in-n.txt"), "n");
	STR_EQ(t_read(out, "n/to-m/in-m.txt"), "m");
	OK(!t_exists(out, "up"));
	OK(!t_exists(out, "top"));
	OK(!t_exists(out, "here"));
	OK(!t_exists(out, "m/to-n/to-m"));
	OK(!t_exists(out, "pipe"));

	/* the chain of a walk: the folder, then every folder above it, up to
	 * "/" (a link to /, not made here: a regression would copy the disk) */
	struct held *h = held_root(src);
	OK(h != NULL);
	struct stat st;
	OK(stat(src, &st) == 0 && held_find(h, &st, 0) == h);
	/* the folders above are looked up for a link only, and once */
	OK(stat(root, &st) == 0 && held_find(h, &st, 0) == NULL);
	OK(h && h->pending && !h->up);
	const struct held *top = held_find(h, &st, 1);
	OK(top && !strcmp(top->path, root));
	OK(h && !h->pending && h->up);
	OK(stat("/", &st) == 0 && held_find(h, &st, 0) != NULL);
	OK(stat(ext, &st) == 0 && held_find(h, &st, 1) == NULL);
	held_free(h);
	OK(held_root(p) == NULL); /* the pipe: not a folder */
	t_rmtree(src);
}

static void test_stale_staging(void)
{
	/* a killed build's staging folder carries the marker: removed */
	char stale[700], foreign[700];
	snprintf(stale, sizeof stale, "%s/.out.folio-staging-1", root);
	snprintf(foreign, sizeof foreign, "%s/.out.folio-staging-2", root);
	t_write(stale, OUTPUT_MARKER, "x");
	t_write(stale, "index.html", "half a site");
	/* a folder with a similar name but no marker is not folio's: kept */
	t_write(foreign, "keep.txt", "mine");
	INT_EQ(staging_count(), 2);
	dbegin();
	struct output *o = output_begin(&d, out, site);
	OK(o != NULL);
	OK(!t_exists(stale, ""));
	OK(t_exists(foreign, "keep.txt"));
	if (o)
		output_abort(o);
	STR_EQ(dend(), "");
	t_rmtree(foreign);
	INT_EQ(staging_count(), 0);
	STR_EQ(t_read(out, "style.css"), "css"); /* the site of the last commit */
}

static void test_refusals(void)
{
	char path[700];

	/* a non-empty folder without the marker is refused and left alone */
	snprintf(path, sizeof path, "%s/precious", root);
	t_write(path, "thesis.tex", "years of work");
	STR_EQ(refused(path, site),
	       refusal(path, "it is not empty and was not made by folio (no .folio-output file in it); choose another "
			     "folder with -o, or empty it yourself"));
	STR_EQ(t_read(path, "thesis.tex"), "years of work");
	INT_EQ(count_entries(path), 1);
	/* a hidden file is enough to make it not empty */
	snprintf(path, sizeof path, "%s/hidden-only", root);
	t_write(path, ".git", "x");
	STR_EQ(refused(path, site),
	       refusal(path, "it is not empty and was not made by folio (no .folio-output file in it); choose another "
			     "folder with -o, or empty it yourself"));

	/* an empty folder is fine */
	snprintf(path, sizeof path, "%s/empty", root);
	mkdir(path, 0755);
	dbegin();
	struct output *o = output_begin(&d, path, site);
	OK(o != NULL);
	if (o) {
		output_write(o, "index.html", "x", 1);
		INT_EQ(output_commit(o), 0);
	}
	STR_EQ(dend(), "");
	OK(t_exists(path, OUTPUT_MARKER));

	/* the site folder, its parents, /, and the site's sources */
	t_write(site, "content/posts/a.md", "x");
	t_write(site, "templates/post.html", "x");
	STR_EQ(refused(site, site), refusal(site, "it is the site folder or contains it"));
	STR_EQ(refused(root, site), refusal(root, "it is the site folder or contains it"));
	STR_EQ(refused("/tmp", site), refusal("/tmp", "it is the site folder or contains it"));
	STR_EQ(refused("/", site), refusal("/", "it is the root folder"));
	snprintf(path, sizeof path, "%s/.", site);
	STR_EQ(refused(path, site), refusal(path, "it is the site folder or contains it"));
	snprintf(path, sizeof path, "%s/content/../", site);
	STR_EQ(refused(path, site), refusal(path, "it is the site folder or contains it"));
	snprintf(path, sizeof path, "%s/static", site);
	STR_EQ(refused(path, site), refusal(path, "it is inside the site's sources (static/)"));
	snprintf(path, sizeof path, "%s/content/posts/out", site);
	STR_EQ(refused(path, site), refusal(path, "it is inside the site's sources (content/)"));
	snprintf(path, sizeof path, "%s/templates/public", site);
	STR_EQ(refused(path, site), refusal(path, "it is inside the site's sources (templates/)"));

	/* the same through a relative path */
	char cwd[4096];
	OK(getcwd(cwd, sizeof cwd) != NULL);
	OK(chdir(site) == 0);
	STR_EQ(refused(".", "."), refusal(".", "it is the site folder or contains it"));
	STR_EQ(refused("..", "."), refusal("..", "it is the site folder or contains it"));
	STR_EQ(refused("static", "."), refusal("static", "it is inside the site's sources (static/)"));
	OK(chdir(cwd) == 0);

	/* the home folder */
	const char *old_home = getenv("HOME");
	char *saved = old_home ? strdup(old_home) : NULL;
	snprintf(path, sizeof path, "%s/home", root);
	mkdir(path, 0755);
	setenv("HOME", path, 1);
	STR_EQ(refused(path, site), refusal(path, "it is your home folder"));
	/* and a parent of it */
	snprintf(path, sizeof path, "%s/home/user", root);
	mkdir(path, 0755);
	setenv("HOME", path, 1);
	snprintf(path, sizeof path, "%s/home", root);
	STR_EQ(refused(path, site), refusal(path, "it contains your home folder"));
	if (saved) {
		setenv("HOME", saved, 1);
		free(saved);
	} else {
		unsetenv("HOME");
	}

	/* the site's cache, and sources that are links to folders elsewhere:
	 * inside where they lead, and a parent of it */
	snprintf(path, sizeof path, "%s/.folio-cache", site);
	STR_EQ(refused(path, site), refusal(path, "it is inside the site's cache folder .folio-cache/"));
	char elsewhere[600], data_link[700];
	snprintf(elsewhere, sizeof elsewhere, "%s/shared/data", root);
	t_write(elsewhere, "authors.yml", "x");
	snprintf(data_link, sizeof data_link, "%s/data", site);
	OK(symlink(elsewhere, data_link) == 0);
	snprintf(path, sizeof path, "%s/out", elsewhere);
	STR_EQ(refused(path, site), refusal(path, "it is inside the site's sources (data/)"));
	snprintf(path, sizeof path, "%s/shared", root);
	char why[1600];
	snprintf(why, sizeof why, "it contains the site's data/ folder (%s)", elsewhere);
	STR_EQ(refused(path, site), refusal(path, why));
	STR_EQ(t_read(elsewhere, "authors.yml"), "x");
	unlink(data_link);

	/* a file, and a folder whose parent is missing */
	snprintf(path, sizeof path, "%s/a-file", root);
	t_write(root, "a-file", "x");
	STR_EQ(refused(path, site), refusal(path, "it exists and is not a folder"));
	snprintf(path, sizeof path, "%s/no/such/parent", root);
	dbegin();
	OK(output_begin(&d, path, site) == NULL);
	char want[800];
	snprintf(want, sizeof want, "%s: error: the output folder's parent does not exist", path);
	STR_EQ(dend(), want);

	/* the site's public/ is the default output and is fine */
	snprintf(path, sizeof path, "%s/public", site);
	dbegin();
	o = output_begin(&d, path, site);
	OK(o != NULL);
	if (o)
		output_abort(o);
	STR_EQ(dend(), "");
}

/* The output changes between output_begin and output_commit: another
 * folder is moved in its place, or a file. The commit must not swap it out
 * (and then delete it): the new site is dropped instead. */
static void test_replaced_during_build(void)
{
	char moved[700];
	snprintf(moved, sizeof moved, "%s/moved-away", root);
	for (int kind = 0; kind < 2; kind++) {
		dbegin();
		struct output *o = output_begin(&d, out, site);
		OK(o != NULL);
		if (!o)
			return;
		INT_EQ(output_write(o, "index.html", "new", 3), 0);
		/* meanwhile someone moves the site away and puts their own
		 * things there */
		OK(rename(out, moved) == 0);
		if (kind == 0)
			t_write(out, "thesis.tex", "years of work");
		else
			t_write(root, "out", "a file now");
		INT_EQ(output_commit(o), -1);
		char want[1200];
		snprintf(want, sizeof want,
			 "%s: error: refusing to replace it: during the build it became something that folio did not "
			 "make (it is not a folder, or it is not empty and has no .folio-output file); it is left as "
			 "it is and the new site is not written; choose another folder with -o",
			 out);
		STR_EQ(dend(), want);
		if (kind == 0) {
			STR_EQ(t_read(out, "thesis.tex"), "years of work");
			INT_EQ(count_entries(out), 1);
			t_rmtree(out);
		} else {
			STR_EQ(t_read(root, "out"), "a file now");
			unlink(out);
		}
		INT_EQ(staging_count(), 0);
		OK(rename(moved, out) == 0);
	}
}

/* A build killed between the two renames of a swap without
 * RENAME_EXCHANGE left no output, only the old site aside: the next build
 * puts it back first. */
static void test_aside_restored(void)
{
	char aside[700];
	snprintf(aside, sizeof aside, "%s/.out.folio-old-99999", root);
	OK(rename(out, aside) == 0);
	dbegin();
	struct output *o = output_begin(&d, out, site);
	OK(o != NULL);
	OK(t_exists(out, OUTPUT_MARKER));
	OK(!t_exists(aside, ""));
	if (o)
		output_abort(o);
	char want[900];
	snprintf(want, sizeof want,
		 "%s: warning: a build was killed while it swapped the site in; the site it replaced is back", out);
	STR_EQ(dend(), want);
	STR_EQ(t_read(out, "style.css"), "css");
	INT_EQ(staging_count(), 0);
}

/* A build killed before it wrote its marker leaves an empty staging
 * folder: removed once no process has its number. */
static void test_staging_without_marker(void)
{
	char dead[700], alive[700];
	/* no process has a number above the kernel's limit (4194304) */
	snprintf(dead, sizeof dead, "%s/.out.folio-staging-99999999", root);
	snprintf(alive, sizeof alive, "%s/.out.folio-staging-1", root); /* init */
	OK(mkdir(dead, 0755) == 0);
	OK(mkdir(alive, 0755) == 0);
	/* killed while it wrote its marker, under a temporary name: that
	 * file goes with the folder; anything else keeps the folder */
	char dead_tmp[700], dead_full[700];
	snprintf(dead_tmp, sizeof dead_tmp, "%s/.out.folio-staging-99999998", root);
	snprintf(dead_full, sizeof dead_full, "%s/.out.folio-staging-99999997", root);
	t_write(dead_tmp, OUTPUT_MARKER ".new", "This folder was written");
	t_write(dead_full, "keep.txt", "not folio's");
	/* an old site set aside, whose removal was killed before its last
	 * step: an empty folder, removed once its process is gone */
	char aside_dead[700], aside_alive[700];
	snprintf(aside_dead, sizeof aside_dead, "%s/.out.folio-old-99999999", root);
	snprintf(aside_alive, sizeof aside_alive, "%s/.out.folio-old-1", root);
	OK(mkdir(aside_dead, 0755) == 0);
	OK(mkdir(aside_alive, 0755) == 0);
	dbegin();
	struct output *o = output_begin(&d, out, site);
	OK(o != NULL);
	OK(!t_exists(dead, ""));
	OK(t_exists(alive, ""));
	OK(!t_exists(dead_tmp, ""));
	STR_EQ(t_read(dead_full, "keep.txt"), "not folio's");
	OK(!t_exists(aside_dead, ""));
	OK(t_exists(aside_alive, ""));
	if (o)
		output_abort(o);
	STR_EQ(dend(), "");
	rmdir(alive);
	rmdir(aside_alive);
	t_rmtree(dead_full);
	INT_EQ(staging_count(), 0);
}

/* The first failed write is reported, naming the file in the output;
 * later writes fail without a message (a full disk fails them all). */
static void test_write_failure(void)
{
	dbegin();
	struct output *o = output_begin(&d, out, site);
	OK(o != NULL);
	if (!o)
		return;
	INT_EQ(output_write(o, "a.html", "a", 1), 0);
	/* the staging folder goes: every write after fails */
	char staging[800];
	snprintf(staging, sizeof staging, "%s/.out.folio-staging-%ld", root, (long)getpid());
	t_rmtree(staging);
	INT_EQ(output_write(o, "posts/b/index.html", "b", 1), -1);
	INT_EQ(output_write(o, "c.html", "c", 1), -1);
	output_abort(o);
	char want[900];
	snprintf(want, sizeof want,
		 "%s/posts/b/index.html: error: cannot make its folder: No such file or directory (the site already "
		 "there is kept as it was)",
		 out);
	STR_EQ(dend(), want);
	STR_EQ(t_read(out, "style.css"), "css");
	INT_EQ(staging_count(), 0);
}

/* A file given in parts is their bytes one after the other; its hash is
 * that of the same bytes in one piece, so a later build that writes them
 * whole finds the file unchanged and links it. */
static void test_parts(void)
{
	dbegin();
	struct output *o = output_begin(&d, out, site);
	OK(o != NULL);
	if (!o)
		return;
	struct str parts[4] = {STR_LIT("<html>"), STR_LIT(""), STR_LIT("the post"), STR_LIT("</html>")};
	INT_EQ(output_write_parts(o, "p.html", parts, 4), 0);
	INT_EQ(output_write_parts(o, "one.html", parts + 2, 1), 0);
	INT_EQ(output_commit(o), 0);
	STR_EQ(dend(), "");
	STR_EQ(t_read(out, "p.html"), "<html>the post</html>");
	STR_EQ(t_read(out, "one.html"), "the post");
	char path[700];
	struct stat was, now;
	snprintf(path, sizeof path, "%s/p.html", out);
	OK(stat(path, &was) == 0);

	dbegin();
	o = output_begin(&d, out, site);
	OK(o != NULL);
	if (!o)
		return;
	INT_EQ(output_write(o, "p.html", "<html>the post</html>", 21), 0);
	INT_EQ(output_linked(o), 1);
	struct str other[2] = {STR_LIT("the "), STR_LIT("post!")};
	INT_EQ(output_write_parts(o, "one.html", other, 2), 0);
	INT_EQ(output_linked(o), 1);
	INT_EQ(output_commit(o), 0);
	STR_EQ(dend(), "");
	OK(stat(path, &now) == 0);
	OK(now.st_ino == was.st_ino);
	STR_EQ(t_read(out, "one.html"), "the post!");
}

static void test_remove_tree(void)
{
	char path[700];
	snprintf(path, sizeof path, "%s/tree", root);
	t_write(path, "a/b/c.txt", "x");
	t_write(path, "d.txt", "x");
	/* a link inside is removed, not followed */
	char target[700], link[760];
	snprintf(target, sizeof target, "%s/precious", root);
	snprintf(link, sizeof link, "%s/link", path);
	OK(symlink(target, link) == 0);
	INT_EQ(remove_tree(path), 0);
	OK(!t_exists(root, "tree"));
	OK(t_exists(target, "thesis.tex"));
	/* a folder with its marker, a subfolder beside it: all gone */
	t_write(path, OUTPUT_MARKER, "x");
	t_write(path, "z/y.html", "x");
	INT_EQ(remove_tree(path), 0);
	OK(!t_exists(root, "tree"));
	/* a folder that is gone already: an error, nothing else */
	OK(remove_tree(path) != 0);
}


/* site_where (sitefile.h): where a path of the site leads after links */
static void test_site_where(void)
{
	char sroot[700], p[800], to[4096], ext[700];
	snprintf(sroot, sizeof sroot, "%s/sw", root);
	snprintf(ext, sizeof ext, "%s/sw-out", root);
	t_write(sroot, "static/a.txt", "a");
	t_write(ext, "secret", "s");
	char *real = site_root(sroot), *real_ext = site_root(ext);
	OK(real && real_ext);
	if (!real || !real_ext)
		return;
	struct {
		const char *name, *target;
	} links[] = {
		{"static/in", "a.txt"}, {"static/out", ext}, {"static/loop-a", "loop-b"}, {"static/loop-b", "loop-a"},
		{"static/none", "nowhere"}, {"up", "static"},
	};
	for (size_t i = 0; i < sizeof links / sizeof *links; i++) {
		snprintf(p, sizeof p, "%s/%s", sroot, links[i].name);
		OK(symlink(links[i].target, p) == 0);
	}
	snprintf(p, sizeof p, "%s/static/a.txt", sroot);
	INT_EQ(site_where(real, p, to, sizeof to), SITE_INSIDE);
	snprintf(p, sizeof p, "%s/static/in", sroot);
	INT_EQ(site_where(real, p, to, sizeof to), SITE_INSIDE);
	snprintf(p, sizeof p, "%s/up/in", sroot);
	INT_EQ(site_where(real, p, to, sizeof to), SITE_INSIDE);
	snprintf(p, sizeof p, "%s/static/out", sroot);
	INT_EQ(site_where(real, p, to, sizeof to), SITE_OUTSIDE);
	STR_EQ(to, real_ext);
	snprintf(p, sizeof p, "%s/static/out/secret", sroot); /* a link above the file */
	INT_EQ(site_where(real, p, to, sizeof to), SITE_OUTSIDE);
	snprintf(p, sizeof p, "%s/static/loop-a", sroot);
	INT_EQ(site_where(real, p, to, sizeof to), SITE_LOOP);
	snprintf(p, sizeof p, "%s/static/none", sroot);
	INT_EQ(site_where(real, p, to, sizeof to), SITE_DANGLING);
	STR_EQ(to, "nowhere");
	snprintf(p, sizeof p, "%s/static/missing", sroot);
	INT_EQ(site_where(real, p, to, sizeof to), SITE_MISSING);
	snprintf(p, sizeof p, "%s/static/out", sroot);
	INT_EQ(site_where(NULL, p, to, sizeof to), SITE_INSIDE); /* no site: anywhere */
	/* a prefix of the name is not inside: /x/sw-out is not in /x/sw */
	OK(!site_inside(real, real_ext));
	OK(site_inside(real, real));
	OK(site_inside("/", real));
	free(real);
	free(real_ext);
}


/* tree_list: every file and folder below dir, sorted, one a line ("d "
 * for a folder, "f NAME BYTES" for a file); the marker left out. */
static void tree_walk(const char *dir, const char *rel, struct buf *b)
{
	char p[2048];
	snprintf(p, sizeof p, "%s%s%s", dir, rel[0] ? "/" : "", rel);
	DIR *dh = opendir(p);
	if (!dh)
		return;
	struct dirent *de;
	while ((de = readdir(dh))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") || (!rel[0] && !strcmp(de->d_name, OUTPUT_MARKER)))
			continue;
		char r[1024];
		snprintf(r, sizeof r, "%s%s%s", rel, rel[0] ? "/" : "", de->d_name);
		struct stat st;
		snprintf(p, sizeof p, "%s/%s", dir, r);
		if (lstat(p, &st) != 0)
			continue;
		if (S_ISDIR(st.st_mode)) {
			buf_printf(b, "d %s\n", r);
			tree_walk(dir, r, b);
		} else {
			buf_printf(b, "f %s %s\n", r, t_read(dir, r));
		}
	}
	closedir(dh);
}

static int cmp_line(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

static char *tree_list(const char *dir)
{
	struct buf b, s;
	buf_init(&b);
	buf_init(&s);
	tree_walk(dir, "", &b);
	char *text = buf_detach(&b, NULL);
	char *lines[256];
	size_t n = 0;
	for (char *l = strtok(text ? text : (char[]){""}, "\n"); l && n < 256; l = strtok(NULL, "\n"))
		lines[n++] = l;
	qsort(lines, n, sizeof *lines, cmp_line);
	for (size_t i = 0; i < n; i++)
		buf_printf(&s, "%s\n", lines[i]);
	free(text);
	char *r = buf_detach(&s, NULL);
	return r ? r : xstrndup("", 0);
}

/* spare_build_ahead: a build of files (rel, text; text NULL: linked from
 * the last build when it can be, else written "keep") into out, committed,
 * through what ah read ahead (NULL: nothing). */
static void spare_build_ahead(struct output_ahead *ah, const char *const files[][2], size_t n)
{
	dbegin();
	struct output *o = output_begin_ahead(&d, out, site, ah);
	OK(o != NULL);
	if (!o)
		return;
	for (size_t i = 0; i < n; i++) {
		const char *text = files[i][1];
		if (!text && output_link(o, files[i][0]) == 0)
			continue;
		text = text ? text : "keep";
		INT_EQ(output_write(o, files[i][0], text, strlen(text)), 0);
	}
	INT_EQ(output_commit(o), 0);
	STR_EQ(dend(), "");
}

/* spare_build: the same, nothing read ahead */
static void spare_build(const char *const files[][2], size_t n)
{
	spare_build_ahead(NULL, files, n);
}

static int spare_state_exists(void)
{
	char cache[700];
	snprintf(cache, sizeof cache, "%s/.folio-cache", site);
	DIR *dh = opendir(cache);
	int n = 0;
	struct dirent *de;
	while (dh && (de = readdir(dh)))
		n += !strncmp(de->d_name, "spare-", 6);
	if (dh)
		closedir(dh);
	return n;
}

static void test_spare(void)
{
	char spare[700];
	snprintf(spare, sizeof spare, "%s/.out.folio-spare", root);
	t_rmtree(out);
	t_rmtree(spare);
	/* the first build; the second swaps it out and keeps it as the spare */
	const char *const b1[][2] = {{"index.html", "v1"}, {"keep.html", "k"}, {"posts/a/index.html", "a"},
				     {"gone/deep/x.html", "x"}, {"moved", "a file"}};
	spare_build(b1, 5);
	OK(!t_exists(spare, ""));
	const char *const b2[][2] = {{"index.html", "v2"}, {"keep.html", NULL}, {"posts/a/index.html", NULL},
				     {"gone/deep/x.html", NULL}, {"moved", NULL}};
	spare_build(b2, 5);
	OK(t_exists(spare, OUTPUT_MARKER));
	INT_EQ(spare_state_exists(), 1);
	char *first = tree_list(spare);
	STR_EQ(first, "d gone\nd gone/deep\nd posts\nd posts/a\nf gone/deep/x.html x\nf index.html v1\nf keep.html k\n"
		      "f moved a file\nf posts/a/index.html a\n");
	free(first);
	/* the spare's unchanged files are the output's (hard links) */
	struct stat a, b;
	char pa[800], pb[800];
	snprintf(pa, sizeof pa, "%s/keep.html", out);
	snprintf(pb, sizeof pb, "%s/keep.html", spare);
	OK(stat(pa, &a) == 0 && stat(pb, &b) == 0 && a.st_ino == b.st_ino);

	/* the third build takes the spare: a file it lacks goes, with its
	 * folders; a file that becomes a folder, a changed one */
	const char *const b3[][2] = {{"index.html", "v3"}, {"keep.html", NULL}, {"posts/a/index.html", NULL},
				     {"moved/index.html", "now a folder"}};
	spare_build(b3, 4);
	char *got = tree_list(out);
	STR_EQ(got, "d moved\nd posts\nd posts/a\nf index.html v3\nf keep.html k\nf moved/index.html now a folder\n"
		    "f posts/a/index.html a\n");
	free(got);
	INT_EQ(staging_count(), 0);
	OK(t_exists(spare, "gone/deep/x.html")); /* the second build's site, now the spare */

	/* by hand in the output while a build runs: a file added, one in a
	 * folder of the site, one in a new folder, a link. The build swaps
	 * the output out, finds them, and puts it back as it was: folio
	 * never moves or deletes what it did not write */
	const char *const b4[][2] = {{"index.html", "v4"}, {"keep.html", NULL}, {"posts/a/index.html", NULL},
				     {"moved/index.html", NULL}};
	dbegin();
	struct output *o4 = output_begin(&d, out, site);
	OK(o4 != NULL);
	for (size_t i = 0; o4 && i < 4; i++)
		if (output_link(o4, b4[i][0]) != 0)
			INT_EQ(output_write(o4, b4[i][0], "v4", 2), 0);
	t_write(out, "extra.txt", "mine");
	t_write(out, "posts/a/extra.html", "mine too");
	t_write(out, "new/deep/file.txt", "and this");
	char pl[800];
	snprintf(pl, sizeof pl, "%s/link", out);
	OK(symlink("/", pl) == 0);
	if (o4)
		INT_EQ(output_commit(o4), -1);
	char want[2048];
	snprintf(want, sizeof want,
		 "%s: error: refusing to write the site here: it holds 3 files and 1 folder that folio did not write "
		 "(extra.txt, link, new/, posts/a/extra.html); move them to the site's static/ folder to publish them "
		 "with every build, build elsewhere with -o, or remove them",
		 out);
	STR_EQ(dend(), want);
	got = tree_list(out);
	STR_EQ(got, "d moved\nd new\nd new/deep\nd posts\nd posts/a\nf extra.txt mine\nf index.html v3\nf keep.html k\n"
		    "f link \nf moved/index.html now a folder\nf new/deep/file.txt and this\n"
		    "f posts/a/extra.html mine too\nf posts/a/index.html a\n");
	free(got);
	INT_EQ(staging_count(), 0);
	/* the next build begins with the same refusal */
	dbegin();
	OK(output_check(&d, out, site) == -1);
	STR_EQ(dend(), want);
	/* five are all named, six are five "and 1 more" */
	t_write(out, "zz5.txt", "5");
	dbegin();
	OK(output_check(&d, out, site) == -1);
	OK(t_has(dend(), "it holds 4 files and 1 folder that folio did not write (extra.txt, link, new/, "
			 "posts/a/extra.html, zz5.txt); move them"));
	t_write(out, "zz6.txt", "6");
	dbegin();
	OK(output_check(&d, out, site) == -1);
	OK(t_has(dend(), "it holds 5 files and 1 folder that folio did not write (extra.txt, link, new/, "
			 "posts/a/extra.html, zz5.txt and 1 more); move them"));
	snprintf(pl, sizeof pl, "%s/zz5.txt", out);
	OK(unlink(pl) == 0);
	snprintf(pl, sizeof pl, "%s/zz6.txt", out);
	OK(unlink(pl) == 0);
	/* by hand, what folio wrote: one edited in place (a link shared with
	 * the spare), one deleted; no longer what it did not write */
	snprintf(pl, sizeof pl, "%s/new", out);
	t_rmtree(pl);
	snprintf(pl, sizeof pl, "%s/link", out);
	OK(unlink(pl) == 0);
	snprintf(pl, sizeof pl, "%s/extra.txt", out);
	OK(unlink(pl) == 0);
	snprintf(pl, sizeof pl, "%s/posts/a/extra.html", out);
	OK(unlink(pl) == 0);
	FILE *f = fopen(pa, "a");
	OK(f != NULL);
	if (f) {
		fputs(" edited", f);
		fclose(f);
	}
	snprintf(pa, sizeof pa, "%s/posts/a/index.html", out);
	OK(unlink(pa) == 0);
	dbegin();
	OK(output_check(&d, out, site) == 0);
	STR_EQ(dend(), "");
	spare_build(b4, 4);
	got = tree_list(out);
	STR_EQ(got, "d moved\nd posts\nd posts/a\nf index.html v4\nf keep.html keep\nf moved/index.html now a folder\n"
		    "f posts/a/index.html keep\n");
	free(got);
	/* the fifth takes the third's site, edited by hand: none of it stays */
	const char *const b5[][2] = {{"index.html", "v5"}, {"keep.html", NULL}, {"posts/a/index.html", NULL},
				     {"moved/index.html", NULL}};
	spare_build(b5, 4);
	got = tree_list(out);
	STR_EQ(got, "d moved\nd posts\nd posts/a\nf index.html v5\nf keep.html keep\nf moved/index.html now a folder\n"
		    "f posts/a/index.html keep\n");
	free(got);
	INT_EQ(staging_count(), 0);
	OK(t_exists(spare, OUTPUT_MARKER));

	/* a spare whose state is gone is not used, and is deleted */
	char cache[700];
	snprintf(cache, sizeof cache, "%s/.folio-cache", site);
	DIR *dh = opendir(cache);
	struct dirent *de;
	while (dh && (de = readdir(dh)))
		if (!strncmp(de->d_name, "spare-", 6)) {
			char p[1400];
			snprintf(p, sizeof p, "%s/%s", cache, de->d_name);
			unlink(p);
		}
	if (dh)
		closedir(dh);
	t_write(spare, "index.html", "stale");
	const char *const b6[][2] = {{"index.html", "v6"}, {"keep.html", NULL}};
	spare_build(b6, 2);
	got = tree_list(out);
	STR_EQ(got, "f index.html v6\nf keep.html keep\n");
	free(got);
	INT_EQ(staging_count(), 0);
	got = tree_list(spare); /* the fifth build's site, kept */
	STR_EQ(got, "d moved\nd posts\nd posts/a\nf index.html v5\nf keep.html keep\nf moved/index.html now a folder\n"
		    "f posts/a/index.html keep\n");
	free(got);

	/* builds into CACHE_KEEP_OUTPUTS other folders push out's state out of
	 * the cache (output_prune), and its spare goes with it */
	for (int i = 0; i < CACHE_KEEP_OUTPUTS - 1; i++) {
		usleep(10000); /* state files of distinct times, on any file system */
		char other[700];
		snprintf(other, sizeof other, "%s/other-%d", root, i);
		dbegin();
		struct output *o = output_begin(&d, other, site);
		OK(o != NULL);
		if (!o)
			continue;
		INT_EQ(output_write(o, "index.html", "other", 5), 0);
		INT_EQ(output_commit(o), 0);
		STR_EQ(dend(), "");
		output_prune(site);
		OK(t_exists(spare, OUTPUT_MARKER)); /* out's state is still among the last ones */
		t_rmtree(other);
	}
	char other[400];
	snprintf(other, sizeof other, "%.300s/other-last", root);
	const char *const ob[][2] = {{"index.html", "other"}};
	snprintf(out, sizeof out, "%s", other);
	usleep(10000);
	spare_build(ob, 1);
	snprintf(out, sizeof out, "%s/out", root);
	output_prune(site);
	OK(!t_exists(spare, ""));
	INT_EQ(spare_state_exists(), 0);
	INT_EQ(staging_count(), 0);
	t_rmtree(other);

	INT_EQ(staging_count(), 0);
}

/* test_ahead: the output's manifest, the spare's state and its folders
 * read ahead give the same builds as read at output_begin; read ahead of a
 * state that another build then replaced, they are not used; read ahead
 * and never used, they are freed. */
static void test_ahead(void)
{
	t_current = "output read ahead";
	char spare[700];
	snprintf(spare, sizeof spare, "%s/.out.folio-spare", root);
	t_rmtree(out);
	t_rmtree(spare);
	/* no output yet: nothing to read ahead, and the build is made */
	struct output_ahead *ah = output_ahead(out, site);
	OK(ah != NULL);
	const char *const b1[][2] = {{"index.html", "v1"}, {"keep.html", "keep"}, {"posts/a/index.html", "a1"}};
	spare_build_ahead(ah, b1, 3);
	output_ahead_free(ah);
	const char *const b2[][2] = {{"index.html", "v2"}, {"keep.html", NULL}, {"posts/a/index.html", NULL}};
	spare_build(b2, 3);
	OK(t_exists(spare, OUTPUT_MARKER));

	/* the spare taken through what was read ahead: its unchanged files are
	 * the output's, a file it lacks goes */
	ah = output_ahead(out, site);
	const char *const b3[][2] = {{"index.html", "v3"}, {"keep.html", NULL}};
	spare_build_ahead(ah, b3, 2);
	output_ahead_free(ah);
	char *got = tree_list(out);
	STR_EQ(got, "f index.html v3\nf keep.html keep\n");
	free(got);
	INT_EQ(staging_count(), 0);
	char pa[800], pb[800];
	struct stat sa, sb;
	snprintf(pa, sizeof pa, "%s/keep.html", out);
	snprintf(pb, sizeof pb, "%s/keep.html", spare);
	OK(stat(pa, &sa) == 0 && stat(pb, &sb) == 0 && sa.st_ino == sb.st_ino);

	/* read ahead, then another build takes the spare and leaves another
	 * one, with another state: what was read ahead is not used */
	ah = output_ahead(out, site);
	output_ahead_join(ah);
	const char *const b4[][2] = {{"index.html", "v4"}, {"keep.html", NULL}, {"new/index.html", "n4"}};
	spare_build(b4, 3);
	const char *const b5[][2] = {{"index.html", "v5"}, {"keep.html", NULL}, {"new/index.html", NULL}};
	spare_build_ahead(ah, b5, 3);
	output_ahead_free(ah);
	got = tree_list(out);
	STR_EQ(got, "d new\nf index.html v5\nf keep.html keep\nf new/index.html n4\n");
	free(got);
	got = tree_list(spare); /* the fourth build's site */
	STR_EQ(got, "d new\nf index.html v4\nf keep.html keep\nf new/index.html n4\n");
	free(got);
	INT_EQ(staging_count(), 0);

	/* read ahead and not used (a build stopped before its output) */
	ah = output_ahead(out, site);
	output_ahead_free(ah);
	output_ahead_free(NULL);
	const char *const b6[][2] = {{"index.html", "v6"}};
	spare_build(b6, 1);
	got = tree_list(out);
	STR_EQ(got, "f index.html v6\n");
	free(got);
	INT_EQ(staging_count(), 0);
}

void test_output(void)
{
	t_current = "output";
	buf_init(&cap);
	root = t_tmpdir();
	snprintf(site, sizeof site, "%s/site", root);
	snprintf(out, sizeof out, "%s/out", root);
	t_write(site, "folio.yml", "title: T\n");
	test_first_and_second_build();
	test_written_twice();
	test_unchanged_deep();
	test_write_paths();
	test_long_path();
	test_copy_tree();
	test_stale_staging();
	test_refusals();
	test_replaced_during_build();
	test_aside_restored();
	test_staging_without_marker();
	test_write_failure();
	test_parts();
	test_remove_tree();
	test_copy_links();
	test_site_where();
	test_spare();
	test_ahead();
	t_rmtree(root);
	free(root);
	root = NULL;
	buf_fini(&cap);
}
