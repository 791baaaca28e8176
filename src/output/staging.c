/* staging.c: the staging folder, writes and links into it, the swap and
 * its commit or abort. The staging folder is made anew, or is the spare:
 * the site the last build but one swapped out, kept beside the output and
 * brought up to date (spare.c). The marker, the test hooks and deleting a
 * folder are folder.c's. */
#include "internal.h"

#include "base/arena.h"
#include "base/buf.h"
#include "cache/cache.h"
#include "base/pool.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <sys/file.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

/* replaceable: whether the folder at path may be swapped out and deleted:
 * it is a folder (not a link to one) that carries the marker or is empty. */
static int replaceable(const char *path)
{
	struct stat st;
	return lstat(path, &st) == 0 && S_ISDIR(st.st_mode) && (output_has_marker(path) || output_dir_is_empty(path));
}

static int is_prefix_dir(const char *parent, const char *child)
{
	size_t n = strlen(parent);
	return strncmp(parent, child, n) == 0 && (child[n] == '/' || child[n] == '\0' || (n == 1 && parent[0] == '/'));
}

/* restore_aside: out is missing, so a build that had to swap with two
 * renames was killed between them: the old site it moved aside goes back.
 * 1 if it did. */
static int restore_aside(const char *parent, const char *base, const char *out)
{
	DIR *dh = opendir(parent);
	if (!dh)
		return 0;
	char prefix[NAME_MAX + 32];
	snprintf(prefix, sizeof prefix, ".%s." ASIDE_TAG, base);
	struct dirent *de;
	int done = 0;
	while (!done && (de = readdir(dh))) {
		if (strncmp(de->d_name, prefix, strlen(prefix)))
			continue;
		char p[PATH_MAX * 2];
		snprintf(p, sizeof p, "%s/%s", parent, de->d_name);
		int fd = lock_marker(p);
		if (fd >= 0) {
			done = rename(p, out) == 0;
			close(fd);
		}
	}
	closedir(dh);
	return done;
}

/* clean_stale: removes the staging folders of builds that were killed,
 * and what is left of folders being deleted by one that was; never the
 * spare (spare.c decides on it). */
static void clean_stale(const char *parent, const char *base)
{
	DIR *dh = opendir(parent);
	if (!dh)
		return;
	char prefix[NAME_MAX + 32];
	snprintf(prefix, sizeof prefix, ".%s.folio-", base);
	struct dirent *de;
	while ((de = readdir(dh))) {
		if (strncmp(de->d_name, prefix, strlen(prefix)))
			continue;
		if (!strcmp(de->d_name + strlen(prefix) - strlen("folio-"), SPARE_TAG))
			continue; /* the spare: the next build's staging folder (spare.c) */
		char p[PATH_MAX * 2];
		snprintf(p, sizeof p, "%s/%s", parent, de->d_name);
		/* only our own (the marker is written first thing), and only if no
		 * build is writing it now: a running build holds a lock on its
		 * marker, which the kernel drops when that process ends, killed
		 * or not */
		int fd = lock_marker(p);
		if (fd >= 0) {
			remove_tree(p);
			close(fd);
			continue;
		}
		/* no marker: a build killed before it wrote one (an empty folder,
		 * or one holding only the marker's temporary file), or a removal
		 * killed after its last step but one (an empty folder); deleted
		 * once the process of its name is gone. Nothing else is touched:
		 * rmdir only removes an empty folder. */
		const char *tag = de->d_name + strlen(prefix) - strlen("folio-"), *num = NULL;
		if (!strncmp(tag, STAGING_TAG, strlen(STAGING_TAG)))
			num = tag + strlen(STAGING_TAG);
		else if (!strncmp(tag, ASIDE_TAG, strlen(ASIDE_TAG)))
			num = tag + strlen(ASIDE_TAG);
		else if (!strncmp(tag, GONE_TAG, strlen(GONE_TAG)))
			num = tag + strlen(GONE_TAG);
		long pid = num ? strtol(num, NULL, 10) : 0;
		if (pid > 0 && kill((pid_t)pid, 0) != 0 && errno == ESRCH) {
			char t[PATH_MAX * 2 + 40];
			snprintf(t, sizeof t, "%s/%s.new", p, OUTPUT_MARKER);
			unlink(t);
			rmdir(p);
		}
	}
	closedir(dh);
}

/* why_refused: why the folder out (absolute) must not be replaced by a
 * build of site (absolute, or NULL when it does not exist), or NULL.
 * buf holds a reason that names a folder. */
static const char *why_refused(const char *out, const char *site, char *buf, size_t n)
{
	if (!strcmp(out, "/"))
		return "it is the root folder";
	if (site && is_prefix_dir(out, site))
		return "it is the site folder or contains it";
	const char *home = getenv("HOME");
	char *home_abs = home && *home ? realpath(home, NULL) : NULL;
	const char *why = NULL;
	if (home_abs && !strcmp(out, home_abs))
		why = "it is your home folder";
	else if (home_abs && is_prefix_dir(out, home_abs))
		why = "it contains your home folder";
	free(home_abs);
	if (why)
		return why;
	/* the folders a build reads, and its cache; each also where a link
	 * leads (content/ may be a link to a folder elsewhere) */
	static const char *const srcs[] = {"content", "templates", "static", "data", CACHE_DIR, NULL};
	for (int i = 0; site && srcs[i] && !why; i++) {
		char p[PATH_MAX + 32];
		snprintf(p, sizeof p, "%s/%s", site, srcs[i]);
		char *real = realpath(p, NULL);
		int cache = !strcmp(srcs[i], CACHE_DIR);
		if (is_prefix_dir(p, out) || (real && is_prefix_dir(real, out))) {
			snprintf(buf, n, cache ? "it is inside the site's cache folder %s/" : "it is inside the site's sources (%s/)",
				 srcs[i]);
			why = buf;
		} else if (real && is_prefix_dir(out, real)) {
			snprintf(buf, n, "it contains the site's %s/ folder (%s)", srcs[i], real);
			why = buf;
		}
		free(real);
	}
	if (why)
		return why;
	struct stat st;
	if (stat(out, &st) == 0) {
		if (!S_ISDIR(st.st_mode))
			return "it exists and is not a folder";
		if (!output_has_marker(out) && !output_dir_is_empty(out))
			return "it is not empty and was not made by folio (no " OUTPUT_MARKER " file in it); "
			       "choose another folder with -o, or empty it yourself";
	}
	return NULL;
}

/* check_out: 0 if out_dir may be replaced by a build of site_dir; else -1
 * after reporting why. *abs_out: out_dir made absolute (caller frees), if
 * abs_out is not NULL and the check passed. */
static int check_out(struct diag *d, const char *out_dir, const char *site_dir, char **abs_out)
{
	char *out = path_absolute(out_dir);
	if (!out) {
		output_error(d, out_dir, "the output folder's parent does not exist");
		return -1;
	}
	char *site = site_dir ? realpath(site_dir, NULL) : NULL, buf[PATH_MAX + 128];
	const char *why = why_refused(out, site, buf, sizeof buf);
	free(site);
	if (why) {
		/* a reason that does not say what to do gets the general advice */
		output_error(d, out_dir, "refusing to write the site here: %s%s", why,
			     strstr(why, "choose") ? "" : "; choose another folder with -o");
		free(out);
		return -1;
	}
	if (abs_out)
		*abs_out = out;
	else
		free(out);
	return 0;
}

/* FOREIGN_NAMED: how many of the files folio did not write a refusal names */
#define FOREIGN_NAMED 5

/* foreign_refused: whether dir (the output shown as shown, or the old
 * site just swapped out of it) holds what folio did not write, by m (the
 * last build's manifest, or the names a killed build left: spare.c) with
 * now_ns the file system's time now; if so, reports it (as "SHOWN: error:
 * refusing to write the site here: ...") and returns -1. Folio deletes or
 * moves only what it wrote (folio(1), THE OUTPUT FOLDER). */
static int foreign_refused(struct diag *d, const char *shown, const struct manifest *m, const char *dir,
			   int64_t now_ns)
{
	struct foreign fo;
	int rc = output_foreign(m, dir, now_ns, &fo);
	struct buf b;
	buf_init(&b);
	if (rc != 0) {
		buf_printf(&b, "%s%s cannot be read (%s), so folio cannot tell whether it holds files of yours; "
			       "make it readable, or build elsewhere with -o",
			   fo.unread && fo.unread[0] ? fo.unread : "it", fo.unread && fo.unread[0] ? "/ in it" : "",
			   strerror(fo.err));
	} else if (fo.n && !m->known) {
		buf_puts(&b, "folio has no record of the files it wrote there (another site was built there, or this "
			     "site's " CACHE_DIR "/ was deleted or keeps only the last 8 output folders), so it cannot "
			     "tell them from files of yours; "
			     "remove the folder yourself if nothing in it is yours, or build elsewhere with -o");
	} else if (fo.n) {
		buf_puts(&b, "it holds ");
		if (fo.files)
			buf_printf(&b, "%zu file%s%s", fo.files, fo.files == 1 ? "" : "s", fo.folders ? " and " : "");
		if (fo.folders)
			buf_printf(&b, "%zu folder%s", fo.folders, fo.folders == 1 ? "" : "s");
		buf_printf(&b, " that folio did not write (");
		for (size_t i = 0; i < fo.n && i < FOREIGN_NAMED; i++)
			buf_printf(&b, "%s%s", i ? ", " : "", fo.names[i]);
		if (fo.n > FOREIGN_NAMED)
			buf_printf(&b, " and %zu more", fo.n - FOREIGN_NAMED);
		const char *them = fo.n == 1 ? "it" : "them";
		buf_printf(&b, "); move %s to the site's static/ folder to publish %s with every build, "
			       "build elsewhere with -o, or remove %s",
			   them, them, them);
	}
	if (b.len)
		output_error(d, shown, "refusing to write the site here: %.*s", (int)b.len, b.p);
	rc = b.len ? -1 : 0;
	buf_fini(&b);
	foreign_fini(&fo);
	return rc;
}

int output_check(struct diag *d, const char *out_dir, const char *site_dir)
{
	char *out = NULL;
	if (check_out(d, out_dir, site_dir, &out))
		return -1;
	/* folio's folder: it must hold only what folio wrote there, by the
	 * record the last build left in the site's cache */
	char *mpath = site_dir && output_has_marker(out) ? cache_output_path(site_dir, out, CACHE_MANIFEST) : NULL;
	int rc = 0;
	if (mpath) {
		struct manifest m;
		memset(&m, 0, sizeof m);
		manifest_load(&m, mpath);
		rc = foreign_refused(d, out_dir, &m, out, output_now_ns());
		manifest_fini(&m);
	}
	free(mpath);
	free(out);
	return rc;
}

/* write_marker: the staging folder's marker, locked before it has its
 * name (made under another, then renamed), so that no other build's
 * clean_stale can take it for a killed build's. The locked descriptor, or
 * -1 with errno set. */
static int write_marker(const char *staging)
{
	static const char text[] = OUTPUT_MARKER_TEXT;
	char tmp[PATH_MAX + 64], m[PATH_MAX + 32];
	snprintf(tmp, sizeof tmp, "%s/%s.new", staging, OUTPUT_MARKER);
	snprintf(m, sizeof m, "%s/%s", staging, OUTPUT_MARKER);
	int fd = open(tmp, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	if (flock(fd, LOCK_EX) != 0 || write_full(fd, text, sizeof text - 1) != 0 || rename(tmp, m) != 0) {
		int e = errno;
		close(fd);
		unlink(tmp);
		errno = e;
		return -1;
	}
	return fd;
}

/* disk_hint: what to add to a failed write's message. */
static const char *disk_hint(int e)
{
	if (e == ENOSPC || e == EDQUOT)
		return "; the disk is full: free some space and build again (the site already there is kept as it was)";
	return " (the site already there is kept as it was)";
}

struct output *output_begin(struct diag *d, const char *out_dir, const char *site_dir)
{
	return output_begin_ahead(d, out_dir, site_dir, NULL);
}

struct output *output_begin_ahead(struct diag *d, const char *out_dir, const char *site_dir, struct output_ahead *ah)
{
	output_ahead_join(ah);
	char *out;
	if (check_out(d, out_dir, site_dir, &out))
		return NULL;
	/* the manifest of this output, kept with the site */
	char *mpath = cache_output_path(site_dir, out, CACHE_MANIFEST);
	char *copy1 = xstrndup(out, strlen(out)), *copy2 = xstrndup(out, strlen(out));
	const char *parent = dirname(copy1), *base = basename(copy2);
	struct stat st;
	if (lstat(out, &st) != 0 && errno == ENOENT && restore_aside(parent, base, out)) {
		struct diag_loc loc = {out_dir, NULL, 0, 0, 0};
		diag_warning(d, &loc, "a build was killed while it swapped the site in; the site it replaced is back");
	}
	clean_stale(parent, base);
	struct output *o = xcalloc(1, sizeof *o);
	o->d = d;
	o->out = out;
	o->shown = xstrndup(out_dir, strlen(out_dir));
	o->manifest = mpath;
	o->site_dir = xstrndup(site_dir, strlen(site_dir));
	o->lock_fd = -1;
	/* a path below the output is looked up from here, not from / */
	o->out_fd = open(out, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	size_t n = strlen(parent) + strlen(base) + 64;
	o->staging = xmalloc(n);
	snprintf(o->staging, n, "%s/.%s." STAGING_TAG "%ld", strcmp(parent, "/") ? parent : "", base, (long)getpid());
	pthread_mutex_init(&o->lock, NULL);
	if (o->manifest && output_has_marker(o->out) && !ahead_take_old(ah, o->manifest, &o->old))
		manifest_load(&o->old, o->manifest);
	if (spare_take(o, parent, base, ah) == 0) {
		free(copy1);
		free(copy2);
		return o; /* the spare, brought up to date as the build goes */
	}
	free(copy1);
	free(copy2);
	if (mkdir(o->staging, 0755) != 0 && errno != EEXIST) {
		int e = errno;
		output_error(d, out_dir, "cannot make the staging folder %s beside it: %s%s", o->staging, strerror(e),
			     disk_hint(e));
		o->staging[0] = '\0';
		output_abort(o);
		return NULL;
	}
	kill_point("staging");
	/* the marker first: a killed build's staging folder is recognisably ours */
	o->lock_fd = write_marker(o->staging);
	if (o->lock_fd < 0) {
		int e = errno;
		output_error(d, out_dir, "cannot write the marker of the staging folder %s: %s%s", o->staging, strerror(e),
			     disk_hint(e));
		output_abort(o);
		return NULL;
	}
	kill_point("marker");
	return o;
}

/* write_failed: rel could not be written (errno e). The first failure is
 * reported, naming the file as it would be in the output; later ones are
 * not (a full disk fails every file after the first, and the build is lost
 * anyway), and later writes are not tried. Always -1. */
static int write_failed(struct output *o, const char *rel, const char *what, int e)
{
	pthread_mutex_lock(&o->lock);
	int first = !o->failed;
	if (first)
		o->failed = e ? e : EIO;
	pthread_mutex_unlock(&o->lock);
	if (first) {
		char path[PATH_MAX * 2];
		snprintf(path, sizeof path, "%s%s%s", o->shown,
			 o->shown[0] && o->shown[strlen(o->shown) - 1] == '/' ? "" : "/", rel);
		output_error(o->d, path, "%s: %s%s", what, strerror(e), disk_hint(e));
	}
	return -1;
}

static int lost(struct output *o)
{
	pthread_mutex_lock(&o->lock);
	int f = o->failed;
	pthread_mutex_unlock(&o->lock);
	return f;
}

/* parts_len: the length of a file's bytes given in parts */
static size_t parts_len(const struct str *v, size_t n)
{
	size_t len = 0;
	for (size_t i = 0; i < n; i++)
		len += v[i].len;
	return len;
}

int output_write(struct output *o, const char *rel, const void *data, size_t len)
{
	struct str s = {data, len};
	return output_write_parts(o, rel, &s, 1);
}

int output_write_parts(struct output *o, const char *rel, const struct str *parts, size_t nparts)
{
	size_t len = parts_len(parts, nparts);
	if (!output_safe_rel(rel)) {
		output_error(o->d, rel, "refusing to write outside the output folder");
		return -1;
	}
	if (lost(o))
		return -1;
	if (!output_rel_fits(o->staging, rel))
		return write_failed(o, rel, "cannot make its folder", ENAMETOOLONG);
	char path[PATH_MAX];
	snprintf(path, sizeof path, "%s/%s", o->staging, rel);
	if (output_make_parents(o->staging, path) && !(o->recycled && spare_clear(o, rel) == 0 &&
						      output_make_parents(o->staging, path) == 0))
		return write_failed(o, rel, "cannot make its folder", errno);
	struct mfile mf = {(char *)rel, output_parts_hash(parts, nparts), len, 0, 0, 0, 0};
	/* the same bytes as the last build's file, which is still as that
	 * build left it: a second name for it instead of a new file */
	const struct mfile *was = manifest_find(&o->old, rel);
	if (was && was->hash == mf.hash && was->size == len) {
		if (!o->recycled)
			unlink(path); /* written once already in this build */
		if (output_link(o, rel) == 0) {
			kill_point("write");
			return 0;
		}
	}
	spare_untrust(o, rel); /* the spare's file, if any, is no longer there */
	/* a new file, never one opened over an earlier name: one written
	 * twice in a build, or the spare's file, may be a link to the last
	 * build's file, which must not change */
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0 && errno == EEXIST && unlink(path) == 0)
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0 && o->recycled && (errno == EEXIST || errno == EISDIR || errno == ENOTDIR) && spare_clear(o, rel) == 0 &&
	    output_make_parents(o->staging, path) == 0)
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		return write_failed(o, rel, "cannot write", errno);
	if (output_parts_write(fd, parts, nparts) != 0) {
		int e = errno;
		close(fd);
		return write_failed(o, rel, "cannot write", e);
	}
	struct stat st;
	if (fstat(fd, &st) == 0) {
		mf.ino = (int64_t)st.st_ino;
		mf.mtime_ns = output_mtime_ns(&st);
	}
	if (close(fd) != 0)
		return write_failed(o, rel, "cannot write", errno);
	pthread_mutex_lock(&o->lock);
	o->files++;
	manifest_add(&o->now, &mf);
	pthread_mutex_unlock(&o->lock);
	kill_point("write");
	return 0;
}

void output_keep_no_state(struct output *o)
{
	free(o->manifest);
	o->manifest = NULL;
}

char *output_cache_file(const struct output *o, enum cache_kind k)
{
	return o->manifest ? cache_output_sibling(o->manifest, k) : NULL;
}

int output_link(struct output *o, const char *rel)
{
	const struct mfile *was = manifest_find(&o->old, rel);
	if (!was || !output_safe_rel(rel) || !output_rel_fits(o->out, rel) || !output_rel_fits(o->staging, rel))
		return -1;
	char old[PATH_MAX], path[PATH_MAX];
	struct stat st;
	snprintf(old, sizeof old, "%s/%s", o->out, rel);
	snprintf(path, sizeof path, "%s/%s", o->staging, rel);
	int looked = o->out_fd >= 0 ? fstatat(o->out_fd, rel, &st, AT_SYMLINK_NOFOLLOW) : lstat(old, &st);
	if (looked != 0 || !S_ISREG(st.st_mode) || (uint64_t)st.st_size != was->size ||
	    output_mtime_ns(&st) != was->mtime_ns || (int64_t)st.st_ino != was->ino)
		return -1;
	int kept = o->recycled && spare_has(o, rel, &st, path);
	if (!kept) {
		if (o->recycled) {
			spare_untrust(o, rel);
			unlink(path); /* the spare's file: another one, or a link to be made again */
		}
		if (output_make_parents(o->staging, path) || link(old, path) != 0) {
			if (!o->recycled || spare_clear(o, rel) != 0 || output_make_parents(o->staging, path) ||
			    link(old, path) != 0)
				return -1;
		}
	}
	struct mfile mf = *was;
	mf.rel = (char *)rel;
	pthread_mutex_lock(&o->lock);
	o->files++;
	o->linked++;
	manifest_add(&o->now, &mf);
	pthread_mutex_unlock(&o->lock);
	kill_point("link");
	return 0;
}

int output_link_same(struct output *o, const char *rel, uint64_t hash, uint64_t size)
{
	const struct mfile *was = manifest_find(&o->old, rel);
	if (!was || was->hash != hash || was->size != size)
		return -1;
	return output_link(o, rel);
}

struct linker {
	struct output *o;
	const char *const *rels;
	unsigned char *keep;
	size_t n, step, first;
};

static void *link_some(void *arg)
{
	struct linker *k = arg;
	for (size_t i = k->first; i < k->n; i += k->step)
		if (k->keep[i] && output_link(k->o, k->rels[i]) != 0)
			k->keep[i] = 0; /* gone or changed since */
	return NULL;
}

void output_link_all(struct output *o, const char *const *rels, unsigned char *keep, size_t n, int jobs)
{
	size_t t = jobs > 1 && n > 256 ? (size_t)jobs : 1;
	struct linker *k = xcalloc(t, sizeof *k);
	for (size_t i = 0; i < t; i++)
		k[i] = (struct linker){o, rels, keep, n, t, i};
	pool_run((int)t, link_some, k, sizeof *k, 0);
	free(k);
}

int output_exists(struct output *o, const char *rel)
{
	if (!output_rel_fits(o->staging, rel))
		return 0; /* and writing it fails */
	if (o->recycled) { /* the spare's files are there too: what this build wrote */
		pthread_mutex_lock(&o->lock);
		int found = 0;
		for (size_t i = 0; i < o->now.n && !found; i++)
			found = !strcmp(o->now.v[i].rel, rel);
		pthread_mutex_unlock(&o->lock);
		return found;
	}
	char path[PATH_MAX];
	snprintf(path, sizeof path, "%s/%s", o->staging, rel);
	return access(path, F_OK) == 0;
}

size_t output_count(const struct output *o)
{
	return o->files;
}

size_t output_linked(const struct output *o)
{
	return o->linked;
}

static void output_free(struct output *o)
{
	manifest_fini(&o->old);
	manifest_fini(&o->now);
	manifest_fini(&o->spare);
	free(o->manifest);
	free(o->site_dir);
	if (o->lock_fd >= 0)
		close(o->lock_fd); /* releases the lock */
	if (o->out_fd >= 0)
		close(o->out_fd);
	pthread_mutex_destroy(&o->lock);
	free(o->staging);
	free(o->spare_dir);
	free(o->shown);
	free(o->out);
	free(o);
}

void output_abort(struct output *o)
{
	if (!o)
		return;
	if (o->recycled && o->lock_fd >= 0) {
		/* a whole site: deleted as an old one is (its lock goes first,
		 * for the process that deletes it) */
		close(o->lock_fd);
		o->lock_fd = -1;
		output_remove_old(o->staging, o->spare.n);
	} else if (o->staging[0] && output_has_marker(o->staging))
		remove_tree(o->staging);
	else if (o->staging[0])
		rmdir(o->staging);
	output_free(o);
}

/* finish_tree: the new site is written: the manifest records which
 * folder holds it and the file system's time now (the marker's change
 * time, touched), after every change folio made in it; a folder of it that
 * changes later has a later change time (spare.c). */
static void finish_tree(struct output *o)
{
	struct stat st, top;
	if (o->lock_fd >= 0 && futimens(o->lock_fd, NULL) == 0 && fstat(o->lock_fd, &st) == 0 &&
	    lstat(o->staging, &top) == 0) {
		o->now.dev = (uint64_t)top.st_dev;
		o->now.ino = (uint64_t)top.st_ino;
		o->now.done_ns = output_ctime_ns(&st);
	}
}

/* save_names: before the swap, the record of the output becomes the names
 * of the old site's files and the new one's, trusted for nothing else
 * (until the new manifest is saved, a build must not trust what the old
 * one says of the folder), so that a build killed at any point leaves a
 * record of what folio wrote in the output, whichever site it holds.
 * Without it (the cache cannot be written), no record. */
static void save_names(struct output *o)
{
	if (!o->manifest)
		return;
	o->named = cache_open_dir(o->site_dir, CACHE_ROOT) == 0 &&
		   manifest_save_names(&o->old, &o->now, o->manifest) == 0;
	if (!o->named)
		cache_remove(o->manifest);
}

/* committed: the new site is in place: its manifest is saved (a failure
 * costs the next build its links; and, when not even the names could be
 * saved, the record of what folio wrote: said), and o freed. */
static void committed(struct output *o)
{
	kill_point("removed");
	if (o->manifest && (cache_open_dir(o->site_dir, CACHE_ROOT) != 0 || manifest_save(&o->now, o->manifest) != 0)) {
		int e = errno;
		if (!o->named) {
			cache_remove(o->manifest);
			output_warning(o->d, o->shown,
				       "cannot keep the record of the files folio wrote here in the site's " CACHE_DIR "/ "
				       "(%s), so the next build will refuse to replace them; remove the folder before "
				       "building again",
				       strerror(e));
		}
	}
	kill_point("done");
	output_free(o);
}

/* old_foreign: whether the old site, swapped out to dir, holds what folio
 * did not write, put there while the build ran (said); then it goes back,
 * and its manifest with it (when it had one). */
static int old_foreign(struct output *o, const char *dir)
{
	if (!o->manifest)
		return 0; /* folio check's scratch folder: made by this build */
	if (!foreign_refused(o->d, o->shown, &o->old, dir, o->now.done_ns ? o->now.done_ns : output_now_ns()))
		return 0;
	if (o->old.known && o->named)
		manifest_save(&o->old, o->manifest); /* else the names stay, which say as much */
	return 1;
}

/* not_ours: reports that OUT, which was folio's when the build began, was
 * replaced meanwhile by something else, which is left alone. -1. */
static int not_ours(struct output *o)
{
	output_error(o->d, o->shown,
		     "refusing to replace it: during the build it became something that folio did not make "
		     "(it is not a folder, or it is not empty and has no " OUTPUT_MARKER " file); it is left as it is "
		     "and the new site is not written; choose another folder with -o");
	output_abort(o);
	return -1;
}

/* old_site_done: the old site, at dir once swapped out (its marker locked
 * by lock, or -1), kept as the spare, or else deleted. */
static void old_site_done(struct output *o, const char *dir, int lock)
{
	int kept = spare_keep(o, dir, lock) == 0;
	if (lock >= 0)
		close(lock);
	if (!kept)
		output_remove_old(dir, o->files);
}

/* swap_with_renames: the swap where RENAME_EXCHANGE is missing: the old
 * site moved aside (its marker locked meanwhile, so that no other build
 * takes it), the new one moved in, the old one kept as the spare or
 * deleted. A build killed between the two renames leaves no site at out,
 * only the old one aside: the next build puts it back (restore_aside)
 * before anything else. */
static int swap_with_renames(struct output *o)
{
	char *copy1 = xstrndup(o->out, strlen(o->out)), *copy2 = xstrndup(o->out, strlen(o->out));
	const char *parent = dirname(copy1), *base = basename(copy2);
	char old[PATH_MAX + 64];
	snprintf(old, sizeof old, "%s/.%s." ASIDE_TAG "%ld", strcmp(parent, "/") ? parent : "", base, (long)getpid());
	free(copy1);
	free(copy2);
	int lock = lock_marker(o->out);
	if (rename(o->out, old) != 0) {
		output_error(o->d, o->shown, "cannot move the old site aside: %s (the site already there is kept as it was)",
			     strerror(errno));
		if (lock >= 0)
			close(lock);
		output_abort(o);
		return -1;
	}
	kill_point("aside");
	if (old_foreign(o, old)) {
		if (rename(old, o->out) != 0)
			output_error(o->d, o->shown, "cannot put it back: it is now at %s: move it back yourself", old);
		if (lock >= 0)
			close(lock);
		output_abort(o);
		return -1;
	}
	if (rename(o->staging, o->out) != 0) {
		int e = errno;
		rename(old, o->out);
		if (lock >= 0)
			close(lock);
		output_error(o->d, o->shown, "cannot move the new site into place: %s (the site already there is kept as it was)",
			     strerror(e));
		output_abort(o);
		return -1;
	}
	old_site_done(o, old, lock);
	committed(o);
	return 0;
}

int output_commit(struct output *o)
{
	struct stat st;
	/* a file written twice (a theme file, then the site's own) is listed
	 * twice: the last one counts, as manifest_load keeps the first */
	qsort(o->now.v, o->now.n, sizeof *o->now.v, manifest_cmp);
	size_t keep = 0;
	for (size_t i = 0; i < o->now.n; i++) {
		if (keep && !strcmp(o->now.v[keep - 1].rel, o->now.v[i].rel)) {
			free(o->now.v[keep - 1].rel); /* an earlier write of the same file */
			o->now.v[keep - 1] = o->now.v[i];
			continue;
		}
		o->now.v[keep++] = o->now.v[i];
	}
	o->now.n = keep;
	if (o->recycled)
		spare_tidy(o);
	finish_tree(o);
	save_names(o);
	kill_point("commit");
	if (!output_has_marker(o->staging)) {
		output_error(o->d, o->shown, "the staging folder %s disappeared during the build (another folio removed it?); "
					    "the old site is kept", o->staging);
		output_free(o);
		return -1;
	}
	if (lstat(o->out, &st) != 0) {
		/* the first build: rename(2) puts the whole folder in at once,
		 * and fails rather than replace anything but an empty folder */
		if (rename(o->staging, o->out) != 0) {
			output_error(o->d, o->shown, "cannot move the new site into place: %s", strerror(errno));
			output_abort(o);
			return -1;
		}
		committed(o);
		return 0;
	}
	/* what was checked when the build began may have changed since:
	 * only a folder of folio's, or an empty one, is ever swapped out */
	if (!replaceable(o->out))
		return not_ours(o);
	if (output_no_exchange())
		return swap_with_renames(o);
	/* the old site's marker locked, so that no other build deletes it
	 * before it is the spare */
	int lock = lock_marker(o->out);
	/* the one atomic step: the new site and the old trade places; a
	 * reader sees the whole old site or the whole new one, never neither */
	if (renameat2(AT_FDCWD, o->staging, AT_FDCWD, o->out, RENAME_EXCHANGE) != 0) {
		int e = errno;
		if (lock >= 0)
			close(lock);
		if (e == EINVAL || e == ENOSYS || e == ENOTSUP)
			return swap_with_renames(o);
		output_error(o->d, o->shown, "cannot swap the new site in: %s (the site already there is kept as it was)%s",
			     strerror(e),
			     e == EBUSY || e == EXDEV ? "; folio swaps the whole folder, so it must not be a mount point" : "");
		output_abort(o);
		return -1;
	}
	kill_point("swap");
	/* the same check on what was actually swapped out, for a folder that
	 * changed between the check and the swap: it goes back */
	if (!replaceable(o->staging)) {
		if (lock >= 0)
			close(lock);
		if (renameat2(AT_FDCWD, o->staging, AT_FDCWD, o->out, RENAME_EXCHANGE) == 0)
			return not_ours(o);
		output_error(o->d, o->shown, "it was replaced during the build by a folder that folio did not make, which is "
					    "now at %s: move it back yourself", o->staging);
		output_free(o);
		return -1;
	}
	/* and what folio did not write, added there during the build: it goes
	 * back too */
	if (old_foreign(o, o->staging)) {
		if (lock >= 0)
			close(lock);
		if (renameat2(AT_FDCWD, o->staging, AT_FDCWD, o->out, RENAME_EXCHANGE) == 0) {
			output_abort(o);
			return -1;
		}
		output_error(o->d, o->shown, "cannot put it back: it is now at %s: move it back yourself", o->staging);
		output_free(o);
		return -1;
	}
	old_site_done(o, o->staging, lock); /* now the old site, with its marker */
	committed(o);
	return 0;
}
