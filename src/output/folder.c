/* folder.c: what every output folder's code shares (internal.h): the
 * marker that says a folder is folio's and its lock, deleting such a
 * folder, making the folders of a path, the checks of a path, a file's
 * bytes in parts, messages, and the test hooks (kill and pause points).
 * The bottom of output/: it calls no other file of it. */
#include "internal.h"

#include "base/arena.h"
#include "base/buf.h"
#include "base/hash.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void out_report(struct diag *d, enum diag_level level, const char *path, const char *fmt, va_list ap)
	__attribute__((format(printf, 4, 0)));
static void out_report(struct diag *d, enum diag_level level, const char *path, const char *fmt, va_list ap)
{
	struct diag_loc loc = {path, NULL, 0, 0, 0};
	diag_vreport(d, level, &loc, NULL, 0, fmt, ap);
}

void output_error(struct diag *d, const char *path, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	out_report(d, DIAG_ERROR, path, fmt, ap);
	va_end(ap);
}

void output_warning(struct diag *d, const char *path, const char *fmt, ...)
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
 * saved); with a spare (spare.c): recycle (the spare's state read and
 * removed, the spare not yet renamed; then staging is the spare renamed to
 * the staging folder, marker the spare checked), tidy (a file of the spare
 * that the new site does not have deleted), spare (the old site renamed to
 * the spare, its state not yet saved). FOLIO_NO_EXCHANGE=1: swap as on a
 * file system without RENAME_EXCHANGE. FOLIO_NO_SPARE=1: no spare is used
 * or kept (each build makes its staging folder anew and deletes the old
 * site, as folio did before it kept one). */
static struct {
	char point[16];
	long n;
	atomic_long seen;
	int no_exchange, no_spare;
	char pause[16];        /* FOLIO_PAUSE_AT: the point where the build waits */
	const char *pause_file; /* FOLIO_PAUSE_FILE: while it is there */
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
	const char *ns = getenv("FOLIO_NO_SPARE");
	hook.no_spare = ns && *ns && strcmp(ns, "0");
	const char *pa = getenv("FOLIO_PAUSE_AT"), *pf = getenv("FOLIO_PAUSE_FILE");
	if (pa && *pa && strlen(pa) < sizeof hook.pause && pf && *pf) {
		memcpy(hook.pause, pa, strlen(pa) + 1);
		hook.pause_file = pf;
	}
}

/* pause_point: FOLIO_PAUSE_AT: at that point the build waits while the
 * file FOLIO_PAUSE_FILE is there (60 s at most), once, after making
 * FILE.reached; a test changes the site meanwhile. */
static void pause_point(const char *point)
{
	static atomic_int paused;
	if (!hook.pause[0] || strcmp(point, hook.pause) || atomic_exchange(&paused, 1))
		return;
	char reached[4096];
	snprintf(reached, sizeof reached, "%s.reached", hook.pause_file);
	int fd = open(reached, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd >= 0)
		close(fd);
	struct timespec tick = {0, 10 * 1000 * 1000};
	for (int i = 0; i < 6000 && access(hook.pause_file, F_OK) == 0; i++)
		nanosleep(&tick, NULL);
}

int output_no_spare(void)
{
	pthread_once(&hook_once, hook_init);
	return hook.no_spare;
}

int output_no_exchange(void)
{
	pthread_once(&hook_once, hook_init);
	return hook.no_exchange;
}

void kill_point(const char *point)
{
	pthread_once(&hook_once, hook_init);
	pause_point(point);
	if (hook.point[0] && !strcmp(point, hook.point) && atomic_fetch_add(&hook.seen, 1) + 1 == hook.n)
		raise(SIGKILL);
}

/* output_has_marker: whether dir holds folio's marker, a file it writes: a
 * folder, a link or a named pipe of that name is not one. */
int output_has_marker(const char *dir)
{
	char p[PATH_MAX * 2 + 32];
	snprintf(p, sizeof p, "%s/%s", dir, OUTPUT_MARKER);
	struct stat st;
	return lstat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* output_dir_is_empty: 1 only for a folder that can be read and holds
 * nothing; a folder that cannot be read counts as full. */
int output_dir_is_empty(const char *dir)
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

int lock_marker(const char *dir)
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

/* make_dir: makes the folder tmp[0..len) and those above it that are
 * missing, down to (not including) the first skip bytes; the deepest first,
 * so that a folder that is there costs one call (every page's folder's
 * parent is there but for the first page in it). */
static int make_dir(char *tmp, size_t len, size_t skip)
{
	if (len <= skip)
		return -1; /* the staging folder itself is gone */
	tmp[len] = '\0';
	int rc = mkdir(tmp, 0755);
	if (rc != 0 && errno == ENOENT) {
		char *up = strrchr(tmp, '/');
		if (!up || (size_t)(up - tmp) < skip || make_dir(tmp, (size_t)(up - tmp), skip)) {
			tmp[len] = '/';
			return -1;
		}
		tmp[up - tmp] = '/';
		tmp[len] = '\0';
		rc = mkdir(tmp, 0755);
	}
	tmp[len] = '/';
	return rc != 0 && errno != EEXIST ? -1 : 0;
}

/* output_make_parents: makes the folders of path below the staging folder,
 * never the staging folder itself: if it is gone, the build must fail
 * rather than write a partial site into a new one. */
int output_make_parents(const char *staging, const char *path)
{
	char tmp[PATH_MAX];
	snprintf(tmp, sizeof tmp, "%s", path);
	size_t skip = strlen(staging);
	char *last = strrchr(tmp, '/');
	if (strlen(tmp) <= skip || !last || (size_t)(last - tmp) <= skip)
		return 0; /* a file at the top */
	return make_dir(tmp, (size_t)(last - tmp), skip);
}

int output_safe_rel(const char *rel)
{
	return rel[0] && rel[0] != '/' && !strstr(rel, "../") && strcmp(rel, "..") &&
	       !(strlen(rel) >= 3 && !strcmp(rel + strlen(rel) - 3, "/.."));
}

/* output_rel_fits: whether dir/rel, with room for a temporary name beside
 * it, fits a path: one that does not is refused, never cut short (a path
 * cut short names another file). */
int output_rel_fits(const char *dir, const char *rel)
{
	return strlen(dir) + strlen(rel) + 48 < PATH_MAX;
}

/* output_parts_hash, output_parts_write: a file's bytes given in parts (a
 * page whose post HTML was not copied into it, see tmpl_render_pieces):
 * their XXH3 (the same as of the bytes in one piece), and writing them to
 * fd (0, or -1 with errno set). */
uint64_t output_parts_hash(const struct str *v, size_t n)
{
	if (n == 1)
		return hash_bytes(v[0].p, v[0].len);
	struct hasher h;
	hasher_begin(&h, 0);
	for (size_t i = 0; i < n; i++)
		hasher_add(&h, v[i].p, v[i].len);
	return hasher_digest(&h);
}

int output_parts_write(int fd, const struct str *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (write_full(fd, v[i].p, v[i].len) != 0)
			return -1;
	return 0;
}

char *output_scratch_new(struct diag *d)
{
	char tmp[4096];
	const char *td = getenv("TMPDIR");
	snprintf(tmp, sizeof tmp, "%s/folio-check-XXXXXX", td && *td ? td : "/tmp");
	if (!mkdtemp(tmp)) {
		output_error(d, tmp, "cannot make a scratch folder: %s", strerror(errno));
		return NULL;
	}
	size_t n = strlen(tmp) + 5;
	char *out = xmalloc(n);
	snprintf(out, n, "%s/out", tmp);
	return out;
}

void output_scratch_remove(const char *out)
{
	const char *slash = strrchr(out, '/');
	char *dir = xstrndup(out, slash ? (size_t)(slash - out) : strlen(out));
	remove_tree(dir);
	free(dir);
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
void output_remove_old(const char *dir, size_t files)
{
	if (!output_has_marker(dir)) {
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
