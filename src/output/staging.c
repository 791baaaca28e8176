/* output.c: the staging folder, writes, copies, the marker and the swap. */
#include "output.h"

#include "cache.h"
#include "theme.h"

#include "arena.h"
#include "buf.h"
#include "index.h"
#include "sitefile.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <libgen.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

/* One file of a build's manifest: what was written where, so that the
 * next build can link a file whose bytes are the same instead of writing
 * it again. */
struct mfile {
	char *rel;
	uint64_t hash, size;
	int64_t mtime_ns, ino; /* as the output holds it */
	size_t seq;            /* the order of writes, for one written twice */
};

struct manifest {
	struct mfile *v;
	size_t n, cap;
	struct index index; /* position + 1, by path */
};

struct output {
	struct diag *d;
	char *out;     /* the output folder, absolute */
	char *shown;   /* the output folder as given, for messages */
	char *staging; /* the folder being written */
	size_t files;
	size_t linked; /* files taken from the last build's output */
	struct manifest old, now;
	char *manifest; /* its file, or NULL */
	char *site_dir; /* whose cache holds it */
	int lock_fd; /* holds a lock on the staging folder's marker while building */
	pthread_mutex_t lock;
	int failed;  /* errno of the first failed write: the build is lost, no file is tried after it */
};

static void out_report(struct diag *d, enum diag_level level, const char *path, const char *fmt, va_list ap)
	__attribute__((format(printf, 4, 0)));
static void out_report(struct diag *d, enum diag_level level, const char *path, const char *fmt, va_list ap)
{
	struct diag_loc loc = {path, NULL, 0, 0, 0};
	diag_vreport(d, level, &loc, NULL, 0, fmt, ap);
}

static void out_error(struct diag *d, const char *path, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void out_error(struct diag *d, const char *path, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	out_report(d, DIAG_ERROR, path, fmt, ap);
	va_end(ap);
}

static void out_warning(struct diag *d, const char *path, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void out_warning(struct diag *d, const char *path, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	out_report(d, DIAG_WARNING, path, fmt, ap);
	va_end(ap);
}

/* ---- test hooks (folio(1), ENVIRONMENT) ----
 * FOLIO_KILL_AT=POINT:N: the build kills itself with SIGKILL, as `kill -9`
 * would, the Nth time (default 1) it passes POINT, so that a test can stop
 * it exactly there: staging (the staging folder made, no marker yet),
 * marker (the marker written), write (a file written), link (a file linked
 * from the last build), commit (about to swap), swap (swapped, the old site
 * not yet deleted), aside (no RENAME_EXCHANGE: the old site moved aside,
 * the new one not yet in), remove (a file of the old site deleted), removed
 * (the old site gone, the manifest not yet saved), done (the manifest
 * saved). FOLIO_NO_EXCHANGE=1: swap as on a file system without
 * RENAME_EXCHANGE. */
static struct {
	char point[16];
	long n;
	atomic_long seen;
	int no_exchange;
} hook;
static pthread_once_t hook_once = PTHREAD_ONCE_INIT;

static void hook_init(void)
{
	const char *v = getenv("FOLIO_KILL_AT");
	if (v && *v) {
		const char *colon = strchr(v, ':');
		size_t n = colon ? (size_t)(colon - v) : strlen(v);
		if (n < sizeof hook.point) {
			memcpy(hook.point, v, n);
			hook.n = colon ? strtol(colon + 1, NULL, 10) : 1;
			if (hook.n < 1)
				hook.n = 1;
		}
	}
	const char *x = getenv("FOLIO_NO_EXCHANGE");
	hook.no_exchange = x && *x && strcmp(x, "0");
}

static void kill_point(const char *point)
{
	pthread_once(&hook_once, hook_init);
	if (hook.point[0] && !strcmp(point, hook.point) && atomic_fetch_add(&hook.seen, 1) + 1 == hook.n)
		raise(SIGKILL);
}

/* has_marker: whether dir holds folio's marker, a file it writes: a
 * folder, a link or a named pipe of that name is not one. */
static int has_marker(const char *dir)
{
	char p[PATH_MAX * 2 + 32];
	snprintf(p, sizeof p, "%s/%s", dir, OUTPUT_MARKER);
	struct stat st;
	return lstat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* dir_is_empty: 1 only for a folder that can be read and holds nothing;
 * a folder that cannot be read counts as full. */
static int dir_is_empty(const char *dir)
{
	DIR *dh = opendir(dir);
	if (!dh)
		return 0;
	struct dirent *de;
	int empty = 1;
	while ((de = readdir(dh)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")) {
			empty = 0;
			break;
		}
	closedir(dh);
	return empty;
}

/* replaceable: whether the folder at path may be swapped out and deleted:
 * it is a folder (not a link to one) that carries the marker or is empty. */
static int replaceable(const char *path)
{
	struct stat st;
	return lstat(path, &st) == 0 && S_ISDIR(st.st_mode) && (has_marker(path) || dir_is_empty(path));
}

/* rm_entry: one entry of remove_tree's walk; the folder itself and its
 * marker are left for remove_tree to delete last. */
static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	if (ftw->level == 0 || (ftw->level == 1 && !strcmp(path + ftw->base, OUTPUT_MARKER)))
		return 0;
	kill_point("remove");
	return flag == FTW_DP ? rmdir(path) : unlink(path);
}

int remove_tree(const char *dir)
{
	/* FTW_PHYS: links are deleted, never followed; FTW_MOUNT: nothing on
	 * another file system mounted inside is touched */
	if (nftw(dir, rm_entry, 32, FTW_DEPTH | FTW_PHYS | FTW_MOUNT) != 0)
		return -1;
	/* the marker goes last, once nothing else is left: a removal that is
	 * killed halfway leaves a folder that still says it is folio's, which
	 * the next build deletes (clean_stale) */
	char m[PATH_MAX * 2 + 32];
	snprintf(m, sizeof m, "%s/%s", dir, OUTPUT_MARKER);
	kill_point("remove");
	if (unlink(m) != 0 && errno != ENOENT)
		return -1;
	kill_point("remove");
	return rmdir(dir);
}

static int is_prefix_dir(const char *parent, const char *child)
{
	size_t n = strlen(parent);
	return strncmp(parent, child, n) == 0 && (child[n] == '/' || child[n] == '\0' || (n == 1 && parent[0] == '/'));
}

/* Names beside the output folder OUT: .OUT.folio-staging-PID (a build
 * writing, or killed), .OUT.folio-old-PID (the old site moved aside for a
 * moment where RENAME_EXCHANGE is missing). */
#define STAGING_TAG "folio-staging-"
#define ASIDE_TAG "folio-old-"

/* lock_marker: a descriptor holding an exclusive lock on dir's marker, or
 * -1 (no marker, or someone holds the lock: a build writing the folder,
 * or the process deleting it). */
static int lock_marker(const char *dir)
{
	char m[PATH_MAX * 2 + 32];
	snprintf(m, sizeof m, "%s/%s", dir, OUTPUT_MARKER);
	int fd = open(m, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW);
	if (fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) != 0) {
		close(fd);
		fd = -1;
	}
	return fd;
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

/* clean_stale: removes the staging folders of builds that were killed. */
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

/* ---- the manifest: SITE/.folio-cache/output-HASH, HASH that of the
 * output folder's absolute path (kept with the site, not in the output,
 * whose bytes stay those of the pages) ----
 * "folio-manifest 1", then a line per file: hash (16 hex digits), size,
 * modification time (ns), inode, path. */
#define MANIFEST_MAGIC "folio-manifest 1\n"

static const char *mfile_rel(const void *ctx, uint32_t v)
{
	return ((const struct manifest *)ctx)->v[v - 1].rel;
}

static void manifest_reindex(struct manifest *m)
{
	index_rebuild_str(&m->index, m->n, 64, mfile_rel, m);
}

static const struct mfile *manifest_find(const struct manifest *m, const char *rel)
{
	uint32_t v = index_get_str(&m->index, rel, mfile_rel, m);
	return v ? &m->v[v - 1] : NULL;
}

static void manifest_add(struct manifest *m, const struct mfile *f)
{
	if (m->n == m->cap) {
		m->cap = m->cap ? m->cap * 2 : 1024;
		m->v = xrealloc(m->v, m->cap * sizeof *m->v);
	}
	m->v[m->n] = *f;
	m->v[m->n].rel = xstrndup(f->rel, strlen(f->rel));
	m->v[m->n].seq = m->n;
	m->n++;
}

/* cmp_mfile: by path, then in the order written */
static int cmp_mfile(const void *x, const void *y)
{
	const struct mfile *a = x, *b = y;
	int c = strcmp(a->rel, b->rel);
	return c ? c : a->seq < b->seq ? -1 : a->seq > b->seq;
}

static void manifest_fini(struct manifest *m)
{
	for (size_t i = 0; i < m->n; i++)
		free(m->v[i].rel);
	free(m->v);
	index_fini(&m->index);
	memset(m, 0, sizeof *m);
}

/* manifest_load: the manifest in file p; empty if there is none or a
 * damaged one. */
static void manifest_load(struct manifest *m, const char *p)
{
	size_t len;
	char *text = read_file(p, &len);
	if (!text)
		return;
	if (strncmp(text, MANIFEST_MAGIC, strlen(MANIFEST_MAGIC)) == 0) {
		char *line = text + strlen(MANIFEST_MAGIC);
		while (*line) {
			char *nl = strchr(line, '\n');
			if (!nl)
				break; /* a cut line: the rest is not trusted */
			*nl = '\0';
			unsigned long long h, size;
			long long mt, ino;
			int at = 0;
			if (sscanf(line, "%16llx %llu %lld %lld %n", &h, &size, &mt, &ino, &at) == 4 && at > 0 && line[at]) {
				struct mfile f = {line + at, h, size, mt, ino, 0};
				manifest_add(m, &f);
			}
			line = nl + 1;
		}
	}
	free(text);
	manifest_reindex(m);
}

/* manifest_save: m as the cache's file p. */
static int manifest_save(const struct manifest *m, const char *p)
{
	struct buf b;
	buf_init(&b);
	buf_puts(&b, MANIFEST_MAGIC);
	for (size_t i = 0; i < m->n; i++) {
		const struct mfile *f = &m->v[i];
		if (strchr(f->rel, '\n'))
			continue;
		buf_printf(&b, "%016llx %llu %lld %lld %s\n", (unsigned long long)f->hash, (unsigned long long)f->size,
			   (long long)f->mtime_ns, (long long)f->ino, f->rel);
	}
	int rc = cache_write(p, b.p, b.len);
	buf_fini(&b);
	return rc;
}

static int64_t mtime_ns(const struct stat *st)
{
	return (int64_t)st->st_mtim.tv_sec * 1000000000 + st->st_mtim.tv_nsec;
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
	static const char *const srcs[] = {"content", "templates", "static", "data", ".folio-cache", NULL};
	for (int i = 0; site && srcs[i] && !why; i++) {
		char p[PATH_MAX + 32];
		snprintf(p, sizeof p, "%s/%s", site, srcs[i]);
		char *real = realpath(p, NULL);
		int cache = !strcmp(srcs[i], ".folio-cache");
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
		if (!has_marker(out) && !dir_is_empty(out))
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
		out_error(d, out_dir, "the output folder's parent does not exist");
		return -1;
	}
	char *site = site_dir ? realpath(site_dir, NULL) : NULL, buf[PATH_MAX + 128];
	const char *why = why_refused(out, site, buf, sizeof buf);
	free(site);
	if (why) {
		/* a reason that does not say what to do gets the general advice */
		out_error(d, out_dir, "refusing to write the site here: %s%s", why,
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

int output_check(struct diag *d, const char *out_dir, const char *site_dir)
{
	return check_out(d, out_dir, site_dir, NULL);
}

/* write_marker: the staging folder's marker, locked before it has its
 * name (made under another, then renamed), so that no other build's
 * clean_stale can take it for a killed build's. The locked descriptor, or
 * -1 with errno set. */
static int write_marker(const char *staging)
{
	static const char text[] = "This folder was written by folio; each build replaces it whole.\n";
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
	char *out;
	if (check_out(d, out_dir, site_dir, &out))
		return NULL;
	/* the manifest of this output, kept with the site */
	char *mpath = cache_output_path(site_dir, out, "output");
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
	size_t n = strlen(parent) + strlen(base) + 64;
	o->staging = xmalloc(n);
	snprintf(o->staging, n, "%s/.%s." STAGING_TAG "%ld", strcmp(parent, "/") ? parent : "", base, (long)getpid());
	free(copy1);
	free(copy2);
	pthread_mutex_init(&o->lock, NULL);
	if (mkdir(o->staging, 0755) != 0 && errno != EEXIST) {
		int e = errno;
		out_error(d, out_dir, "cannot make the staging folder %s beside it: %s%s", o->staging, strerror(e),
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
		out_error(d, out_dir, "cannot write the marker of the staging folder %s: %s%s", o->staging, strerror(e),
			  disk_hint(e));
		output_abort(o);
		return NULL;
	}
	if (o->manifest && has_marker(o->out))
		manifest_load(&o->old, o->manifest);
	kill_point("marker");
	return o;
}

/* make_parents: makes the folders of path below the staging folder, never
 * the staging folder itself: if it is gone, the build must fail rather than
 * write a partial site into a new one. */
static int make_parents(const char *staging, const char *path)
{
	char tmp[PATH_MAX];
	snprintf(tmp, sizeof tmp, "%s", path);
	size_t skip = strlen(staging);
	if (strlen(tmp) <= skip)
		return 0;
	for (char *p = strchr(tmp + skip + 1, '/'); p; p = strchr(p + 1, '/')) {
		*p = '\0';
		if (mkdir(tmp, 0755) != 0 && errno != EEXIST)
			return -1;
		*p = '/';
	}
	return 0;
}

static int safe_rel(const char *rel)
{
	return rel[0] && rel[0] != '/' && !strstr(rel, "../") && strcmp(rel, "..") &&
	       !(strlen(rel) >= 3 && !strcmp(rel + strlen(rel) - 3, "/.."));
}

/* rel_fits: whether dir/rel, with room for a temporary name beside it,
 * fits a path: one that does not is refused, never cut short (a path cut
 * short names another file). */
static int rel_fits(const char *dir, const char *rel)
{
	return strlen(dir) + strlen(rel) + 48 < PATH_MAX;
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
		out_error(o->d, path, "%s: %s%s", what, strerror(e), disk_hint(e));
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

/* parts_len, parts_hash, write_parts: a file's bytes given in parts (a
 * page whose post HTML was not copied into it, see tmpl_render_pieces):
 * their length, their XXH3 (the same as of the bytes in one piece), and
 * writing them to fd (0, or -1 with errno set). */
static size_t parts_len(const struct str *v, size_t n)
{
	size_t len = 0;
	for (size_t i = 0; i < n; i++)
		len += v[i].len;
	return len;
}

static uint64_t parts_hash(const struct str *v, size_t n)
{
	if (n == 1)
		return XXH3_64bits(v[0].p, v[0].len);
	XXH3_state_t *h = XXH3_createState();
	if (!h) {
		fputs("folio: out of memory\n", stderr);
		exit(1);
	}
	XXH3_64bits_reset(h);
	for (size_t i = 0; i < n; i++)
		XXH3_64bits_update(h, v[i].p, v[i].len);
	uint64_t r = XXH3_64bits_digest(h);
	XXH3_freeState(h);
	return r;
}

static int write_parts(int fd, const struct str *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (write_full(fd, v[i].p, v[i].len) != 0)
			return -1;
	return 0;
}

int output_write(struct output *o, const char *rel, const void *data, size_t len)
{
	struct str s = {data, len};
	return output_write_parts(o, rel, &s, 1);
}

int output_write_parts(struct output *o, const char *rel, const struct str *parts, size_t nparts)
{
	size_t len = parts_len(parts, nparts);
	if (!safe_rel(rel)) {
		out_error(o->d, rel, "refusing to write outside the output folder");
		return -1;
	}
	if (lost(o))
		return -1;
	if (!rel_fits(o->staging, rel))
		return write_failed(o, rel, "cannot make its folder", ENAMETOOLONG);
	char path[PATH_MAX];
	snprintf(path, sizeof path, "%s/%s", o->staging, rel);
	if (make_parents(o->staging, path))
		return write_failed(o, rel, "cannot make its folder", errno);
	struct mfile mf = {(char *)rel, parts_hash(parts, nparts), len, 0, 0, 0};
	/* the same bytes as the last build's file, which is still as that
	 * build left it: a second name for it instead of a new file */
	const struct mfile *was = manifest_find(&o->old, rel);
	if (was && was->hash == mf.hash && was->size == len) {
		unlink(path); /* written once already in this build */
		if (output_link(o, rel) == 0) {
			kill_point("write");
			return 0;
		}
	}
	/* a new file, never one opened over an earlier name: one written
	 * twice in a build may be a link to the last build's file, which must
	 * not change */
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0 && errno == EEXIST && unlink(path) == 0)
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		return write_failed(o, rel, "cannot write", errno);
	if (write_parts(fd, parts, nparts) != 0) {
		int e = errno;
		close(fd);
		return write_failed(o, rel, "cannot write", e);
	}
	struct stat st;
	if (fstat(fd, &st) == 0) {
		mf.ino = (int64_t)st.st_ino;
		mf.mtime_ns = mtime_ns(&st);
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

char *output_cache_file(const struct output *o, const char *name)
{
	return o->manifest ? cache_output_sibling(o->manifest, name) : NULL;
}

int output_link(struct output *o, const char *rel)
{
	const struct mfile *was = manifest_find(&o->old, rel);
	if (!was || !safe_rel(rel) || !rel_fits(o->out, rel) || !rel_fits(o->staging, rel))
		return -1;
	char old[PATH_MAX], path[PATH_MAX];
	struct stat st;
	snprintf(old, sizeof old, "%s/%s", o->out, rel);
	snprintf(path, sizeof path, "%s/%s", o->staging, rel);
	if (lstat(old, &st) != 0 || !S_ISREG(st.st_mode) || (uint64_t)st.st_size != was->size ||
	    mtime_ns(&st) != was->mtime_ns || (int64_t)st.st_ino != was->ino)
		return -1;
	if (make_parents(o->staging, path) || link(old, path) != 0)
		return -1;
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

int output_exists(struct output *o, const char *rel)
{
	if (!rel_fits(o->staging, rel))
		return 0; /* and writing it fails */
	char path[PATH_MAX];
	snprintf(path, sizeof path, "%s/%s", o->staging, rel);
	return access(path, F_OK) == 0;
}

static int skip_name(const char *name, int skip_md)
{
	size_t n = strlen(name);
	if (name[0] == '.' || name[0] == '#' || (n && name[n - 1] == '~'))
		return 1;
	if (n > 4 && (!strcmp(name + n - 4, ".swp") || !strcmp(name + n - 4, ".tmp")))
		return 1;
	return skip_md && n > 3 && !strcmp(name + n - 3, ".md");
}

struct copy {
	struct diag *d;
	const struct output_sink *sink;
	const char *root; /* the site folder's realpath: links outside it, to nothing, in a circle are errors */
	int *refused;     /* set when one was: the rest is still looked at, so that every one is told */
};

struct held *held_root(const char *dir)
{
	struct stat st;
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
		return NULL;
	struct held *h = xmalloc(sizeof *h);
	*h = (struct held){st.st_dev, st.st_ino, xstrndup(dir, strlen(dir)), NULL, 1};
	return h;
}

/* held_expand: the folders that hold the walk's root h on the disk, "/"
 * last, linked above it: a realpath and a stat for each, so only once a
 * link to a folder shows up, which most trees never have. */
static void held_expand(struct held *h)
{
	h->pending = 0;
	char *real = realpath(h->path, NULL);
	if (!real)
		return;
	size_t len = strlen(real);
	struct held *up = NULL;
	for (size_t end = 0; end < len; end++) { /* "/", then each folder down to the root's parent */
		if (end && real[end] != '/')
			continue;
		char *prefix = xstrndup(real, end ? end : 1);
		struct stat a;
		if (stat(prefix, &a) != 0) {
			free(prefix);
			continue;
		}
		struct held *n = xmalloc(sizeof *n);
		*n = (struct held){a.st_dev, a.st_ino, prefix, up, 0};
		up = n;
	}
	h->up = up;
	free(real);
}

const struct held *held_find(const struct held *h, const struct stat *st, int link)
{
	for (; h; h = h->up) {
		if (h->dev == st->st_dev && h->ino == st->st_ino)
			return h;
		if (h->pending && link)
			held_expand((struct held *)h); /* the root, which held_root allocated */
	}
	return NULL;
}

void held_free(struct held *h)
{
	if (!h)
		return;
	const struct held *p = h->up;
	while (p) {
		const struct held *next = p->up;
		free((char *)p->path);
		free((struct held *)p);
		p = next;
	}
	free((char *)h->path);
	free(h);
}

/* not_there: the warning for an entry that stat cannot follow: a link to
 * nothing, or one of a circle of links. */
static void not_there(struct diag *d, const char *path, int err)
{
	struct stat st;
	if (lstat(path, &st) != 0 || !S_ISLNK(st.st_mode))
		out_warning(d, path, "cannot read: %s; not copied", strerror(err));
	else if (err == ELOOP)
		out_warning(d, path, "a link in a circle of links, which leads to no file; not copied");
	else if (err == ENOENT || err == ENOTDIR)
		out_warning(d, path, "a link to nothing: what it points to does not exist; not copied");
	else
		out_warning(d, path, "a link that cannot be followed: %s; not copied", strerror(err));
}

static long copy_rec(const struct copy *c, const char *src, const char *rel, int skip_md, const struct held *up)
{
	DIR *dh = opendir(src);
	if (!dh) {
		out_error(c->d, src, "cannot read the folder: %s", strerror(errno));
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
			out_warning(c->d, src, "'%s' is not copied: its path would be longer than %d bytes", de->d_name,
				    PATH_MAX - 1);
			continue;
		}
		struct stat st;
		if (c->root && (de->d_type == DT_LNK || de->d_type == DT_UNKNOWN) &&
		    site_check_link(c->d, c->root, s, s) != 0) {
			*c->refused = 1; /* outside the site, to nothing, or in a circle: never followed */
			continue;
		}
		if (stat(s, &st) != 0) {
			not_there(c->d, s, errno);
			continue;
		}
		if (S_ISDIR(st.st_mode)) {
			const struct held *h = held_find(up, &st, de->d_type == DT_LNK || de->d_type == DT_UNKNOWN);
			if (h && c->root) {
				site_report_cycle(c->d, s, h->path);
				*c->refused = 1;
				continue;
			}
			if (h) {
				out_warning(c->d, s,
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
			int rc;
			if (c->sink->copy) {
				rc = c->sink->copy(c->sink->ctx, r, s, &st);
			} else {
				size_t len;
				char *data = read_file(s, &len);
				if (!data) {
					out_error(c->d, s, "cannot read: %s", file_strerror(errno));
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
			out_warning(c->d, s, "%s; not copied", file_strerror(FOLIO_ENOTREG));
		}
	}
	closedir(dh);
	return count;
}

long output_copy_tree_to(struct diag *d, const char *root, const char *src_dir, const char *rel_dir, int skip_md,
			 const struct output_sink *sink)
{
	enum site_where w = site_where(root, src_dir, NULL, 0);
	if (w != SITE_INSIDE)
		return w == SITE_MISSING ? 0 : -1; /* the site's check of its folders said why */
	struct held *top = held_root(src_dir);
	if (!top)
		return 0;
	int refused = 0;
	struct copy c = {d, sink, root, &refused};
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
	return output_copy_tree_to(o->d, NULL, src_dir, rel_dir, skip_md, &sink);
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
	free(o->manifest);
	free(o->site_dir);
	if (o->lock_fd >= 0)
		close(o->lock_fd); /* releases the lock */
	pthread_mutex_destroy(&o->lock);
	free(o->staging);
	free(o->shown);
	free(o->out);
	free(o);
}

void output_abort(struct output *o)
{
	if (!o)
		return;
	if (o->staging[0] && has_marker(o->staging))
		remove_tree(o->staging);
	else if (o->staging[0])
		rmdir(o->staging);
	output_free(o);
}

/* remove_old: deletes the old site (dir, its marker in it) once the new
 * one is in place. A big one is deleted by a process of its own, in the
 * background: deleting tens of thousands of files can take longer than
 * the build, and nothing waits for it. That process holds the lock on the
 * marker, so a build started meanwhile leaves the folder to it (and
 * deletes it, should it be killed: clean_stale). A folder without the
 * marker (an empty one that the first build replaced) is only rmdir'd.
 * Only called when no other thread runs. */
#define BACKGROUND_REMOVE_FILES 10000
static void remove_old(const char *dir, size_t files)
{
	if (!has_marker(dir)) {
		rmdir(dir);
		return;
	}
	if (files < BACKGROUND_REMOVE_FILES) {
		remove_tree(dir);
		return;
	}
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		/* a grandchild, in a session of its own, so that nothing waits
		 * for it and a terminal's Ctrl-C does not reach it */
		setsid();
		if (fork() != 0)
			_exit(0);
		char m[PATH_MAX + 32];
		snprintf(m, sizeof m, "%s/%s", dir, OUTPUT_MARKER);
		int fd = open(m, O_RDONLY | O_CLOEXEC);
		if (fd >= 0)
			flock(fd, LOCK_EX);
		remove_tree(dir);
		_exit(0);
	}
	if (pid < 0) {
		remove_tree(dir);
		return;
	}
	waitpid(pid, NULL, 0);
}

/* committed: the new site is in place: its manifest is saved (a failure
 * only costs the next build its links), and o freed. */
static void committed(struct output *o)
{
	kill_point("removed");
	if (o->manifest && (cache_open_dir(o->site_dir, NULL) != 0 || manifest_save(&o->now, o->manifest) != 0))
		cache_remove(o->manifest);
	kill_point("done");
	output_free(o);
}

/* not_ours: reports that OUT, which was folio's when the build began, was
 * replaced meanwhile by something else, which is left alone. -1. */
static int not_ours(struct output *o)
{
	out_error(o->d, o->shown,
		  "refusing to replace it: during the build it became something that folio did not make "
		  "(it is not a folder, or it is not empty and has no " OUTPUT_MARKER " file); it is left as it is "
		  "and the new site is not written; choose another folder with -o");
	output_abort(o);
	return -1;
}

/* swap_with_renames: the swap where RENAME_EXCHANGE is missing: the old
 * site moved aside (its marker locked meanwhile, so that no other build
 * takes it), the new one moved in, the old one deleted. A build killed
 * between the two renames leaves no site at out, only the old one aside:
 * the next build puts it back (restore_aside) before anything else. */
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
		out_error(o->d, o->shown, "cannot move the old site aside: %s (the site already there is kept as it was)",
			  strerror(errno));
		if (lock >= 0)
			close(lock);
		output_abort(o);
		return -1;
	}
	kill_point("aside");
	if (rename(o->staging, o->out) != 0) {
		int e = errno;
		rename(old, o->out);
		if (lock >= 0)
			close(lock);
		out_error(o->d, o->shown, "cannot move the new site into place: %s (the site already there is kept as it was)",
			  strerror(e));
		output_abort(o);
		return -1;
	}
	if (lock >= 0)
		close(lock);
	remove_old(old, o->files);
	committed(o);
	return 0;
}

int output_commit(struct output *o)
{
	struct stat st;
	/* a file written twice (a theme file, then the site's own) is listed
	 * twice: the last one counts, as manifest_load keeps the first */
	qsort(o->now.v, o->now.n, sizeof *o->now.v, cmp_mfile);
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
	/* the old manifest goes first: until the new one is saved, a build
	 * must not trust what it says of the folder */
	if (o->manifest)
		cache_remove(o->manifest);
	kill_point("commit");
	if (!has_marker(o->staging)) {
		out_error(o->d, o->shown, "the staging folder %s disappeared during the build (another folio removed it?); "
					 "the old site is kept", o->staging);
		output_free(o);
		return -1;
	}
	if (lstat(o->out, &st) != 0) {
		/* the first build: rename(2) puts the whole folder in at once,
		 * and fails rather than replace anything but an empty folder */
		if (rename(o->staging, o->out) != 0) {
			out_error(o->d, o->shown, "cannot move the new site into place: %s", strerror(errno));
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
	pthread_once(&hook_once, hook_init);
	if (hook.no_exchange)
		return swap_with_renames(o);
	/* the one atomic step: the new site and the old trade places; a
	 * reader sees the whole old site or the whole new one, never neither */
	if (renameat2(AT_FDCWD, o->staging, AT_FDCWD, o->out, RENAME_EXCHANGE) != 0) {
		if (errno == EINVAL || errno == ENOSYS || errno == ENOTSUP)
			return swap_with_renames(o);
		int e = errno;
		out_error(o->d, o->shown, "cannot swap the new site in: %s (the site already there is kept as it was)%s",
			  strerror(e),
			  e == EBUSY || e == EXDEV ? "; folio swaps the whole folder, so it must not be a mount point" : "");
		output_abort(o);
		return -1;
	}
	kill_point("swap");
	/* the same check on what was actually swapped out, for a folder that
	 * changed between the check and the swap: it goes back */
	if (!replaceable(o->staging)) {
		if (renameat2(AT_FDCWD, o->staging, AT_FDCWD, o->out, RENAME_EXCHANGE) == 0)
			return not_ours(o);
		out_error(o->d, o->shown, "it was replaced during the build by a folder that folio did not make, which is "
					 "now at %s: move it back yourself", o->staging);
		output_free(o);
		return -1;
	}
	remove_old(o->staging, o->files); /* now the old site, with its marker */
	committed(o);
	return 0;
}

/* ---- a folder kept up to date in place ---- */

struct live_file {
	char *rel;
	uint64_t hash;    /* of the bytes in place */
	uint64_t pending; /* of the bytes in the temporary file */
	unsigned long round; /* the last round that wrote or kept it */
	int exists;       /* in place */
	int staged;       /* a temporary file waits for the commit */
	/* for a copied file: what stat(2) said of its source (in place, and
	 * for the staged copy) */
	struct stat src, pending_src;
	int has_src, pending_has_src;
};

struct live {
	struct diag *d;
	char *dir;
	pthread_mutex_t lock;
	struct live_file *files;
	size_t n, cap;
	struct index index; /* position + 1, by path */
	unsigned long round;
	int failed; /* a write of this round failed (reported once) */
};

static const char *live_rel(const void *ctx, uint32_t v)
{
	return ((const struct live *)ctx)->files[v - 1].rel;
}

static void live_reindex(struct live *l)
{
	index_rebuild_str(&l->index, l->n, 64, live_rel, l);
}

/* live_find: rel's entry, made if add. Locked. */
static struct live_file *live_find(struct live *l, const char *rel, int add)
{
	uint32_t v = index_get_str(&l->index, rel, live_rel, l);
	if (v)
		return &l->files[v - 1];
	if (!add)
		return NULL;
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 256;
		l->files = xrealloc(l->files, l->cap * sizeof *l->files);
	}
	struct live_file *f = &l->files[l->n++];
	memset(f, 0, sizeof *f);
	f->rel = xstrndup(rel, strlen(rel));
	index_add_str(&l->index, f->rel, (uint32_t)l->n, 64, live_rel, l);
	return f;
}

struct live *live_open(struct diag *d, const char *dir)
{
	struct stat st;
	if (stat(dir, &st) == 0 && (!S_ISDIR(st.st_mode) || (!dir_is_empty(dir) && !has_marker(dir)))) {
		out_error(d, dir, "refusing to write the site here: it is not empty and was not made by folio");
		return NULL;
	}
	if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
		out_error(d, dir, "cannot make the folder: %s", strerror(errno));
		return NULL;
	}
	char m[PATH_MAX + 32];
	snprintf(m, sizeof m, "%s/%s", dir, OUTPUT_MARKER);
	FILE *f = fopen(m, "w");
	if (!f || fputs("This folder was written by folio serve; it is deleted when the server stops.\n", f) < 0 ||
	    fclose(f) != 0) {
		out_error(d, m, "cannot write: %s", strerror(errno));
		return NULL;
	}
	struct live *l = xcalloc(1, sizeof *l);
	l->d = d;
	l->dir = xstrndup(dir, strlen(dir));
	pthread_mutex_init(&l->lock, NULL);
	live_reindex(l);
	l->round = 1;
	return l;
}

static void live_temp_path(const struct live *l, const char *rel, char *out, size_t n)
{
	const char *slash = strrchr(rel, '/');
	if (slash)
		snprintf(out, n, "%s/%.*s/.%s.folio-new", l->dir, (int)(slash - rel), rel, slash + 1);
	else
		snprintf(out, n, "%s/.%s.folio-new", l->dir, rel);
}

/* write_new: path made (or emptied) with the parts' bytes. 0, or -1 with
 * errno set. */
static int write_new(const char *path, const struct str *parts, size_t nparts)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	if (write_parts(fd, parts, nparts) != 0) {
		int e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return close(fd);
}

int live_write(void *ctx, const char *rel, const void *data, size_t len)
{
	struct str s = {data, len};
	return live_write_parts(ctx, rel, &s, 1);
}

int live_write_parts(struct live *l, const char *rel, const struct str *parts, size_t nparts)
{
	if (!safe_rel(rel)) {
		out_error(l->d, rel, "refusing to write outside the output folder");
		return -1;
	}
	uint64_t h = parts_hash(parts, nparts);
	char path[PATH_MAX], tmp[PATH_MAX + 32];
	int fits = rel_fits(l->dir, rel);
	snprintf(path, sizeof path, "%s/%s", l->dir, fits ? rel : "");
	live_temp_path(l, fits ? rel : "-", tmp, sizeof tmp);
	pthread_mutex_lock(&l->lock);
	struct live_file *f = live_find(l, rel, 1);
	f->round = l->round;
	if (f->exists && f->hash == h) {
		/* the bytes in place (a file written twice in a round, a theme
		 * file and then the site's own, may end as it was) */
		if (f->staged)
			unlink(tmp);
		f->staged = 0;
		pthread_mutex_unlock(&l->lock);
		return 0;
	}
	int lost = l->failed;
	pthread_mutex_unlock(&l->lock);
	if (lost)
		return -1; /* the round is lost: the files in place stay */
	if (!fits || make_parents(l->dir, path) || write_new(tmp, parts, nparts)) {
		int e = fits ? errno : ENAMETOOLONG;
		unlink(tmp);
		pthread_mutex_lock(&l->lock);
		int first = !l->failed;
		l->failed = 1;
		pthread_mutex_unlock(&l->lock);
		if (first)
			out_error(l->d, rel, "cannot write: %s%s", strerror(e),
				  e == ENOSPC || e == EDQUOT
					  ? "; the disk is full: free some space (the last good build is still served)"
					  : " (the last good build is still served)");
		return -1;
	}
	pthread_mutex_lock(&l->lock);
	f = live_find(l, rel, 0); /* the table may have moved */
	f->staged = 1;
	f->pending = h;
	f->pending_has_src = 0;
	pthread_mutex_unlock(&l->lock);
	return 0;
}

static int same_source(const struct stat *a, const struct stat *b)
{
	return a->st_ino == b->st_ino && a->st_dev == b->st_dev && a->st_size == b->st_size &&
	       a->st_mtim.tv_sec == b->st_mtim.tv_sec && a->st_mtim.tv_nsec == b->st_mtim.tv_nsec &&
	       a->st_ctim.tv_sec == b->st_ctim.tv_sec && a->st_ctim.tv_nsec == b->st_ctim.tv_nsec;
}

int live_copy(void *ctx, const char *rel, const char *path, const struct stat *st)
{
	struct live *l = ctx;
	pthread_mutex_lock(&l->lock);
	struct live_file *f = live_find(l, rel, 0);
	if (f && f->exists && !f->staged && f->has_src && same_source(&f->src, st)) {
		f->round = l->round;
		pthread_mutex_unlock(&l->lock);
		return 0;
	}
	pthread_mutex_unlock(&l->lock);
	size_t len;
	char *data = read_file(path, &len);
	if (!data) {
		out_error(l->d, path, "cannot read: %s", file_strerror(errno));
		return -1;
	}
	int rc = live_write(l, rel, data, len);
	free(data);
	if (rc)
		return rc;
	pthread_mutex_lock(&l->lock);
	f = live_find(l, rel, 0);
	if (f->staged) {
		f->pending_src = *st;
		f->pending_has_src = 1;
	} else { /* the bytes were already in place */
		f->src = *st;
		f->has_src = 1;
	}
	pthread_mutex_unlock(&l->lock);
	return 0;
}

void live_keep(struct live *l, const char *rel)
{
	pthread_mutex_lock(&l->lock);
	struct live_file *f = live_find(l, rel, 0);
	if (f)
		f->round = l->round;
	pthread_mutex_unlock(&l->lock);
}

void live_keep_all(struct live *l)
{
	pthread_mutex_lock(&l->lock);
	for (size_t i = 0; i < l->n; i++)
		if (l->files[i].exists && !l->files[i].staged)
			l->files[i].round = l->round;
	pthread_mutex_unlock(&l->lock);
}

/* remove_empty_parents: rmdir's rel's folders, deepest first, while empty. */
static void remove_empty_parents(const struct live *l, const char *rel)
{
	char p[PATH_MAX];
	snprintf(p, sizeof p, "%s/%s", l->dir, rel);
	size_t root = strlen(l->dir);
	for (char *s = strrchr(p, '/'); s && (size_t)(s - p) > root; s = strrchr(p, '/')) {
		*s = '\0';
		if (rmdir(p) != 0)
			break;
	}
}

int live_commit(struct live *l, size_t *written, size_t *removed)
{
	int rc = 0;
	size_t w = 0, r = 0, keep = 0;
	pthread_mutex_lock(&l->lock);
	for (size_t i = 0; i < l->n; i++) {
		struct live_file *f = &l->files[i];
		char path[PATH_MAX];
		if (f->round == l->round && !f->staged) {
			l->files[keep++] = *f; /* kept as it is: most files, most rounds */
			continue;
		}
		snprintf(path, sizeof path, "%s/%s", l->dir, f->rel);
		if (f->round == l->round && f->staged) {
			char tmp[PATH_MAX + 32];
			live_temp_path(l, f->rel, tmp, sizeof tmp);
			f->staged = 0;
			if (rename(tmp, path) != 0) {
				out_error(l->d, f->rel, "cannot move the new file into place: %s", strerror(errno));
				unlink(tmp);
				rc = -1;
			} else {
				f->exists = 1;
				f->hash = f->pending;
				f->src = f->pending_src;
				f->has_src = f->pending_has_src;
				w++;
			}
		} else if (f->round != l->round) {
			if (f->exists && unlink(path) == 0)
				r++;
			remove_empty_parents(l, f->rel);
			free(f->rel);
			continue;
		}
		l->files[keep++] = *f;
	}
	if (keep != l->n) {
		l->n = keep;
		live_reindex(l);
	}
	l->round++;
	l->failed = 0;
	pthread_mutex_unlock(&l->lock);
	if (written)
		*written = w;
	if (removed)
		*removed = r;
	return rc;
}

void live_abort(struct live *l)
{
	pthread_mutex_lock(&l->lock);
	size_t keep = 0;
	for (size_t i = 0; i < l->n; i++) {
		struct live_file *f = &l->files[i];
		if (f->staged) {
			char tmp[PATH_MAX + 32];
			live_temp_path(l, f->rel, tmp, sizeof tmp);
			unlink(tmp);
			f->staged = 0;
		}
		if (!f->exists) {
			remove_empty_parents(l, f->rel); /* made for its temporary file */
			free(f->rel);
			continue;
		}
		l->files[keep++] = *f;
	}
	l->n = keep;
	live_reindex(l);
	l->round++;
	l->failed = 0;
	pthread_mutex_unlock(&l->lock);
}

void live_close(struct live *l)
{
	if (!l)
		return;
	for (size_t i = 0; i < l->n; i++)
		free(l->files[i].rel);
	free(l->files);
	index_fini(&l->index);
	free(l->dir);
	pthread_mutex_destroy(&l->lock);
	free(l);
}

/* ---- an output as the last build left it ---- */


/* same_walk: counts in *found the files below dir (rel its path in the
 * output) that m has as they are; -1 at the first that it does not have,
 * or has otherwise, and at anything but files and folders. */
static int same_walk(const struct manifest *m, const char *dir, const char *rel, size_t *found)
{
	DIR *dh = opendir(dir);
	if (!dh)
		return -1;
	int rc = 0;
	for (struct dirent *de; rc == 0 && (de = readdir(dh));) {
		const char *name = de->d_name;
		if (!strcmp(name, ".") || !strcmp(name, ".."))
			continue;
		if (!rel[0] && !strcmp(name, OUTPUT_MARKER))
			continue; /* written before the manifest's files, not in it */
		char path[PATH_MAX], r[PATH_MAX];
		if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path ||
		    snprintf(r, sizeof r, "%s%s%s", rel, rel[0] ? "/" : "", name) >= (int)sizeof r) {
			rc = -1;
			break;
		}
		struct stat st;
		if (lstat(path, &st) != 0) {
			rc = -1;
		} else if (S_ISDIR(st.st_mode)) {
			rc = same_walk(m, path, r, found);
		} else if (S_ISREG(st.st_mode)) {
			const struct mfile *f = manifest_find(m, r);
			if (!f || f->size != (uint64_t)st.st_size || f->mtime_ns != mtime_ns(&st) ||
			    f->ino != (int64_t)st.st_ino)
				rc = -1;
			else
				(*found)++;
		} else {
			rc = -1;
		}
	}
	closedir(dh);
	return rc;
}

int output_unchanged(const char *site_dir, const char *out_dir)
{
	char *mpath = cache_output_path(site_dir, out_dir, "output");
	if (!mpath)
		return -1;
	struct manifest m;
	memset(&m, 0, sizeof m);
	int rc = -1;
	if (has_marker(out_dir)) {
		manifest_load(&m, mpath);
		size_t found = 0;
		if (m.n && same_walk(&m, out_dir, "", &found) == 0 && found == m.n)
			rc = 0;
	}
	manifest_fini(&m);
	free(mpath);
	return rc;
}

/* ---- the static files of a site ---- */

int output_static(struct diag *d, const char *site_dir, int models, const struct output_bundle *b, size_t nb,
		  const struct output_sink *sink)
{
	int errors = 0;
	/* the theme's files first; the site's static/ replaces them */
	for (size_t i = 0; i < theme_nfiles; i++) {
		const struct theme_file *f = &theme_files[i];
		if (!strncmp(f->name, "static/", 7) && sink->write(sink->ctx, f->name + 7, f->data, f->len))
			errors++;
	}
	for (size_t i = 0; models && i < theme_nfiles; i++) {
		const struct theme_file *f = &theme_files[i];
		if (!strncmp(f->name, "assets/", 7) && sink->write(sink->ctx, f->name, f->data, f->len))
			errors++;
	}
	char dir[4096];
	snprintf(dir, sizeof dir, "%s/static", site_dir);
	char *root = site_root(site_dir);
	if (output_copy_tree_to(d, root, dir, "", 0, sink) < 0)
		errors++;
	for (size_t i = 0; i < nb; i++) {
		char rel[1024];
		snprintf(rel, sizeof rel, "posts/%.*s", STR_FMT(b[i].slug));
		if (output_copy_tree_to(d, root, b[i].dir, rel, 1, sink) < 0)
			errors++;
	}
	free(root);
	return errors;
}
