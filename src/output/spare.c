/* spare.c: the spare, the site the last build swapped out, kept beside the
 * output as .OUT.folio-spare instead of being deleted, and taken by the
 * next build as its staging folder. Most of its files are the very files
 * of the output (hard links to the same inodes: a build links each page
 * that did not change from the last build's output), so that bringing it
 * up to date touches only what differs: a file the new site keeps costs a
 * look-up, not a link(2) and a mkdir(2); a changed one is unlinked and
 * written or linked anew; one the new site lacks is deleted (spare_tidy).
 * Nothing is ever written into a file in place: a spare's file may be the
 * output's.
 *
 * Its state is the manifest that described it when it was the output,
 * kept in .folio-cache as spare-HASH (HASH: the output's), with the folder
 * it describes (device, inode) and the time its build finished writing
 * it, by the file system's clock. A folder of the spare whose change time
 * is older than that has not changed since: its entries are the files the
 * manifest lists. One that changed (a file added, removed or replaced by
 * hand in the output before it was swapped out) is read, and whatever the
 * manifest does not list is deleted; its files are then looked at one by
 * one. Anything else in doubt (no state, another folder than the state's,
 * a folder that cannot be read, a clock gone back, a mount inside) and the
 * spare is deleted and the staging folder made anew.
 *
 * A build locks the spare's marker before it reads its state, and holds
 * the lock until it ends, so that two builds never take the same spare
 * (the second makes its staging folder anew); a build killed with the
 * spare taken leaves a staging folder that the next one deletes. */
#include "internal.h"

#include "base/arena.h"
#include "cache/cache.h"
#include "base/pool.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { F_MISSING, F_CLEAN, F_CHECKED };

/* check_dir_entry: a folder_scan hook: what the spare's manifest does not
 * account for is deleted. */
static int check_dir_entry(void *ctx, int dir, const char *name, const char *rel, int is_dir)
{
	struct output *o = ctx;
	if (!is_dir)
		return unlinkat(dir, name, 0);
	char abs[PATH_MAX * 2];
	snprintf(abs, sizeof abs, "%s/%s", o->staging, rel);
	return remove_tree(abs);
}

/* check_dir: the spare's folder rel ("" the top): what the spare's
 * manifest does not list there (a file or folder added by hand, a file
 * where a folder was, a link) is deleted. 0, or -1 if something could
 * not be read or deleted. */
static int check_dir(struct output *o, const struct folders *f, int root, const char *rel)
{
	return folder_scan(&o->spare, f, root, rel, check_dir_entry, o);
}

/* checked_above: whether a folder above rel was checked (check_dir, which
 * may have deleted what was there) in this walk: its stat is made again. */
static int checked_above(const struct folders *f, const char *rel)
{
	char tmp[PATH_MAX];
	snprintf(tmp, sizeof tmp, "%s", rel);
	for (char *sl = strrchr(tmp, '/'); sl; sl = strrchr(tmp, '/')) {
		*sl = '\0';
		size_t k = folder_find(f, tmp);
		if (k && f->state[k - 1] == F_CHECKED)
			return 1;
	}
	return 0;
}

/* ---- read ahead: what output_begin reads first, read on a thread of its
 * own while the build makes its model (output_ahead) ---- */

struct output_ahead {
	struct pool_task task;
	char *out_dir, *site_dir; /* as given */
	char *mpath;              /* the output's manifest file (cache_output_path) */
	struct stat mpath_st;     /* it, as read */
	struct manifest old;      /* read when the output has the marker */
	int have_old;
	struct stat state_st; /* the spare's state file, as read */
	struct manifest spare;
	int have_spare;
	/* the spare's folders, sorted (folders_sorted), and the stat of each
	 * (stat_folders), from the spare's folder as its state describes it */
	struct folders f;
	char **sorted;
	struct folder_stat *pre;
};

static int same_file_st(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino && a->st_size == b->st_size &&
	       output_mtime_ns(a) == output_mtime_ns(b) && output_ctime_ns(a) == output_ctime_ns(b);
}

static void *ahead_run(void *arg)
{
	struct output_ahead *ah = arg;
	char *out = path_absolute(ah->out_dir);
	if (!out)
		return NULL;
	ah->mpath = cache_output_path(ah->site_dir, out, CACHE_MANIFEST);
	if (ah->mpath && output_has_marker(out) && stat(ah->mpath, &ah->mpath_st) == 0) {
		manifest_load(&ah->old, ah->mpath);
		struct stat again;
		ah->have_old = stat(ah->mpath, &again) == 0 && same_file_st(&again, &ah->mpath_st);
	}
	char *state = ah->mpath && !output_no_spare() ? cache_output_sibling(ah->mpath, CACHE_SPARE) : NULL;
	if (state && stat(state, &ah->state_st) == 0) {
		manifest_load(&ah->spare, state);
		struct stat again;
		ah->have_spare = stat(state, &again) == 0 && same_file_st(&again, &ah->state_st);
	}
	free(state);
	/* the spare's folder, if it is the one its state describes */
	char *copy1 = xstrndup(out, strlen(out)), *copy2 = xstrndup(out, strlen(out));
	const char *parent = dirname(copy1), *base = basename(copy2);
	char dir[PATH_MAX + 64];
	snprintf(dir, sizeof dir, "%s/.%s." SPARE_TAG, strcmp(parent, "/") ? parent : "", base);
	free(copy1);
	free(copy2);
	free(out);
	int root = ah->have_spare && ah->spare.n ? open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) : -1;
	struct stat top;
	if (root >= 0 && fstat(root, &top) == 0 && (uint64_t)top.st_dev == ah->spare.dev &&
	    (uint64_t)top.st_ino == ah->spare.ino) {
		manifest_folders(&ah->spare, &ah->f);
		ah->sorted = folders_sorted(&ah->f);
		ah->pre = stat_folders(root, ah->sorted, ah->f.n);
	}
	if (root >= 0)
		close(root);
	return NULL;
}

struct output_ahead *output_ahead(const char *out_dir, const char *site_dir)
{
	struct output_ahead *ah = xcalloc(1, sizeof *ah);
	ah->out_dir = xstrndup(out_dir, strlen(out_dir));
	ah->site_dir = xstrndup(site_dir, strlen(site_dir));
	if (!pool_spawn(&ah->task, ahead_run, ah)) {
		output_ahead_free(ah);
		return NULL;
	}
	return ah;
}

void output_ahead_join(struct output_ahead *ah)
{
	if (ah)
		pool_join(&ah->task);
}

void output_ahead_free(struct output_ahead *ah)
{
	if (!ah)
		return;
	output_ahead_join(ah);
	free(ah->out_dir);
	free(ah->site_dir);
	free(ah->mpath);
	manifest_fini(&ah->old);
	manifest_fini(&ah->spare);
	folders_fini(&ah->f);
	free(ah->sorted);
	free(ah->pre);
	free(ah);
}

int ahead_take_old(struct output_ahead *ah, const char *mpath, struct manifest *m)
{
	struct stat now;
	if (!ah || !ah->have_old || !ah->mpath || strcmp(ah->mpath, mpath) || stat(mpath, &now) != 0 ||
	    !same_file_st(&now, &ah->mpath_st))
		return 0;
	*m = ah->old;
	memset(&ah->old, 0, sizeof ah->old);
	ah->have_old = 0;
	return 1;
}

/* ahead_take_spare: the spare's state read ahead, into m, if state is still
 * that file (taken after the spare's lock: no other build changes it
 * since); then its folders' stats go with it to spare_check. */
static int ahead_take_spare(struct output_ahead *ah, const char *state, struct manifest *m)
{
	struct stat now;
	if (!ah || !ah->have_spare || stat(state, &now) != 0 || !same_file_st(&now, &ah->state_st)) {
		if (ah) { /* its folders' stats are not those of this state */
			free(ah->pre);
			ah->pre = NULL;
		}
		return 0;
	}
	*m = ah->spare;
	memset(&ah->spare, 0, sizeof ah->spare);
	ah->have_spare = 0;
	return 1;
}

/* spare_check: the spare, renamed to o->staging, checked folder by folder
 * (see the top); its files in folders that did not change are trusted.
 * 0, or -1 when in doubt. */
static int spare_check(struct output *o, int lock, struct output_ahead *ah)
{
	/* the file system's time now, by the same clock as the spare's: a
	 * clock gone back makes change times say nothing */
	struct stat st;
	if (futimens(lock, NULL) != 0 || fstat(lock, &st) != 0 || output_ctime_ns(&st) < o->spare.done_ns)
		return -1;
	/* the marker stays: it must be folio's, byte for byte (a folder made
	 * by hand may have the inode number of the spare it replaced) */
	char text[sizeof OUTPUT_MARKER_TEXT + 1];
	if (pread(lock, text, sizeof text, 0) != (ssize_t)sizeof OUTPUT_MARKER_TEXT - 1 ||
	    memcmp(text, OUTPUT_MARKER_TEXT, sizeof OUTPUT_MARKER_TEXT - 1))
		return -1;
	int root = open(o->staging, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (root < 0)
		return -1;
	struct stat top;
	struct folders f;
	memset(&f, 0, sizeof f);
	char **sorted = NULL;
	struct folder_stat *pre = NULL;
	if (ah && ah->pre) { /* the folders and their stats, read ahead */
		f = ah->f;
		sorted = ah->sorted;
		pre = ah->pre;
		memset(&ah->f, 0, sizeof ah->f);
		ah->sorted = NULL;
		ah->pre = NULL;
	} else {
		manifest_folders(&o->spare, &f);
		sorted = folders_sorted(&f);
	}
	int rc = fstat(root, &top) != 0 || (uint64_t)top.st_dev != o->spare.dev || (uint64_t)top.st_ino != o->spare.ino ||
		 check_dir(o, &f, root, "") != 0 ? -1 : 0;
	f.state = xcalloc(f.n + 1, 1);
	if (rc == 0 && !pre)
		pre = stat_folders(root, sorted, f.n);
	int checked = 0; /* a folder was checked: those below it are stat'ed again */
	for (size_t i = 0; rc == 0 && i < f.n; i++) {
		size_t k = folder_find(&f, sorted[i]) - 1;
		int err = pre[i].err;
		st = pre[i].st;
		if (checked && checked_above(&f, sorted[i])) /* as it is now */
			err = fstatat(root, sorted[i], &st, AT_SYMLINK_NOFOLLOW) != 0 ? errno : 0;
		if (err) {
			if (err != ENOENT)
				rc = -1;
			f.state[k] = F_MISSING; /* deleted by hand, or with a folder above it */
		} else if (!S_ISDIR(st.st_mode) || st.st_dev != top.st_dev) {
			rc = -1; /* a mount, or a change that the check above missed */
		} else if (output_ctime_ns(&st) < o->spare.done_ns) {
			f.state[k] = F_CLEAN;
		} else {
			f.state[k] = F_CHECKED;
			checked = 1;
			rc = check_dir(o, &f, root, sorted[i]);
		}
	}
	free(pre);
	free(sorted);
	close(root);
	/* a file is trusted to be in place when its folder is as it was */
	for (size_t i = 0; rc == 0 && i < o->spare.n; i++) {
		struct mfile *m = &o->spare.v[i];
		const char *slash = strrchr(m->rel, '/');
		size_t k = 0;
		if (slash) {
			char dir[PATH_MAX];
			snprintf(dir, sizeof dir, "%.*s", (int)(slash - m->rel), m->rel);
			k = folder_find(&f, dir);
		}
		m->trusted = k && f.state[k - 1] == F_CLEAN;
	}
	folders_fini(&f);
	return rc;
}

/* drop: the folder dir (the spare, or the staging folder it became) is
 * not to be used: renamed out of the way and deleted (in the background,
 * when big: output_remove_old). */
static void drop(struct output *o, const char *dir, const char *parent, const char *base, int lock)
{
	char gone[PATH_MAX + 64];
	snprintf(gone, sizeof gone, "%s/.%s." GONE_TAG "%ld", strcmp(parent, "/") ? parent : "", base, (long)getpid());
	int moved = rename(dir, gone) == 0;
	close(lock); /* the removal takes the lock again */
	if (moved) /* (without its state, about as big as the output) */
		output_remove_old(gone, o->spare.n ? o->spare.n : o->old.n);
	manifest_fini(&o->spare);
}

int spare_take(struct output *o, const char *parent, const char *base, struct output_ahead *ah)
{
	size_t n = strlen(parent) + strlen(base) + 64;
	o->spare_dir = xmalloc(n);
	snprintf(o->spare_dir, n, "%s/.%s." SPARE_TAG, strcmp(parent, "/") ? parent : "", base);
	struct stat st;
	if (!o->manifest || output_no_spare() || lstat(o->spare_dir, &st) != 0)
		return -1;
	int lock = lock_marker(o->spare_dir);
	if (lock < 0)
		return -1; /* taken by another build, or not folio's */
	char *state = cache_output_sibling(o->manifest, CACHE_SPARE);
	if (state) {
		if (!ahead_take_spare(ah, state, &o->spare))
			manifest_load(&o->spare, state);
		cache_remove(state); /* it describes the spare no more once it changes */
		free(state);
	}
	kill_point("recycle");
	/* the spare of the output as the manifest describes it, and the
	 * folder its state describes */
	if (!o->old.n || !o->spare.n || !o->spare.ino || !S_ISDIR(st.st_mode) || (uint64_t)st.st_dev != o->spare.dev ||
	    (uint64_t)st.st_ino != o->spare.ino || rename(o->spare_dir, o->staging) != 0) {
		drop(o, o->spare_dir, parent, base, lock);
		return -1;
	}
	kill_point("staging");
	o->recycled = 1;
	if (spare_check(o, lock, ah) != 0) {
		o->recycled = 0;
		drop(o, o->staging, parent, base, lock);
		return -1;
	}
	o->lock_fd = lock;
	kill_point("marker");
	return 0;
}

void spare_untrust(struct output *o, const char *rel)
{
	const struct mfile *m = o->recycled ? manifest_find(&o->spare, rel) : NULL;
	if (m)
		__atomic_store_n(&((struct mfile *)m)->trusted, 0, __ATOMIC_RELAXED);
}

int spare_has(struct output *o, const char *rel, const struct stat *live, const char *path)
{
	const struct mfile *m = manifest_find(&o->spare, rel);
	if (!m || m->ino != (int64_t)live->st_ino || m->size != (uint64_t)live->st_size ||
	    m->mtime_ns != output_mtime_ns(live))
		return 0;
	if (__atomic_load_n(&m->trusted, __ATOMIC_RELAXED))
		return 1;
	struct stat st;
	return lstat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_ino == live->st_ino && st.st_dev == live->st_dev;
}

/* in_now: whether this build wrote rel, or something below it (below). */
static int in_now(const struct output *o, const char *rel, int below)
{
	size_t len = strlen(rel);
	for (size_t i = 0; i < o->now.n; i++) {
		const char *r = o->now.v[i].rel;
		if (below ? !strncmp(r, rel, len) && r[len] == '/' : !strcmp(r, rel))
			return 1;
	}
	return 0;
}

int spare_clear(struct output *o, const char *rel)
{
	if (!o->recycled || !output_rel_fits(o->staging, rel))
		return -1;
	char path[PATH_MAX];
	snprintf(path, sizeof path, "%s/%s", o->staging, rel);
	size_t top = strlen(o->staging) + 1;
	int removed = 0, rc = 0;
	struct stat st;
	pthread_mutex_lock(&o->lock);
	/* a file of the spare where a folder of rel's path goes */
	for (char *p = strchr(path + top, '/'); p; p = strchr(p + 1, '/')) {
		*p = '\0';
		int there = lstat(path, &st) == 0, file = there && !S_ISDIR(st.st_mode);
		if (file) {
			rc = in_now(o, path + top, 0) || unlink(path) != 0 ? -1 : 0;
			removed = rc == 0;
		}
		*p = '/';
		if (!there || file)
			break;
	}
	/* a folder of the spare where rel goes */
	if (!removed && rc == 0 && lstat(path, &st) == 0 && S_ISDIR(st.st_mode))
		rc = in_now(o, rel, 1) || remove_tree(path) != 0 ? -1 : (removed = 1);
	/* the spare's files that went with it are no longer there */
	for (size_t i = 0; removed && i < o->spare.n; i++)
		if (!strncmp(o->spare.v[i].rel, rel, strlen(o->spare.v[i].rel)) ||
		    !strncmp(o->spare.v[i].rel, rel, strlen(rel)))
			__atomic_store_n(&o->spare.v[i].trusted, 0, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&o->lock);
	return removed && rc == 0 ? 0 : -1;
}

void spare_tidy(struct output *o)
{
	manifest_reindex(&o->now);
	for (size_t i = 0; i < o->spare.n; i++) {
		const char *rel = o->spare.v[i].rel;
		if (manifest_find(&o->now, rel) || !output_rel_fits(o->staging, rel))
			continue;
		char path[PATH_MAX];
		snprintf(path, sizeof path, "%s/%s", o->staging, rel);
		if (unlink(path) == 0)
			kill_point("tidy");
		/* then its folders, as long as they are empty: a folder is only
		 * there for the files in it, as in a staging folder made anew */
		size_t top = strlen(o->staging);
		for (char *slash = strrchr(path, '/'); slash && (size_t)(slash - path) > top; slash = strrchr(path, '/')) {
			*slash = '\0';
			if (rmdir(path) != 0 && errno != ENOENT)
				break;
		}
	}
}

int spare_keep(struct output *o, const char *old_site, int lock)
{
	struct stat st;
	if (!o->manifest || !o->spare_dir || output_no_spare() || lock < 0 || !o->old.n || !o->old.ino ||
	    lstat(old_site, &st) != 0 || (uint64_t)st.st_dev != o->old.dev || (uint64_t)st.st_ino != o->old.ino)
		return -1; /* not the folder the manifest describes */
	/* rename(2) does not replace a spare that is there (another build's,
	 * kept meanwhile): this one is then deleted */
	if (rename(old_site, o->spare_dir) != 0)
		return -1;
	kill_point("spare");
	char *state = cache_output_sibling(o->manifest, CACHE_SPARE);
	o->old.where = xstrndup(o->spare_dir, strlen(o->spare_dir));
	if (state && (cache_open_dir(o->site_dir, CACHE_ROOT) != 0 || manifest_save(&o->old, state) != 0))
		cache_remove(state); /* a spare without state: the next build deletes it */
	free(state);
	return 0;
}

/* prune_spare: a cache_prune_with hook: the state file path is about to
 * be removed; if it is a spare's, the spare goes too, when it is still the
 * folder the state describes and no build holds it. */
static void prune_spare(const char *path, void *ctx)
{
	(void)ctx;
	if (cache_output_kind(path) != CACHE_SPARE)
		return;
	struct manifest m;
	memset(&m, 0, sizeof m);
	manifest_load(&m, path);
	/* only a folder named as a spare, and the one the state describes */
	size_t len = m.where ? strlen(m.where) : 0, tag = strlen("." SPARE_TAG);
	struct stat st;
	int lock = len > tag && !strcmp(m.where + len - tag, "." SPARE_TAG) && m.ino && lstat(m.where, &st) == 0 &&
			   S_ISDIR(st.st_mode) && (uint64_t)st.st_dev == m.dev && (uint64_t)st.st_ino == m.ino
		   ? lock_marker(m.where)
		   : -1;
	if (lock >= 0) {
		/* .OUT.folio-gone-PID, which clean_stale finishes if this is killed */
		char gone[PATH_MAX + 64];
		snprintf(gone, sizeof gone, "%.*s." GONE_TAG "%ld", (int)(len - tag), m.where, (long)getpid());
		int moved = rename(m.where, gone) == 0;
		close(lock);
		if (moved)
			output_remove_old(gone, m.n);
	}
	manifest_fini(&m);
}

void output_prune(const char *site_dir)
{
	cache_prune_with(site_dir, prune_spare, NULL);
}
