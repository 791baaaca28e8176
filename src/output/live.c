/* live.c: a folder kept up to date in place, the live server's copy of the
 * site (folio serve): each round's files are staged beside the ones they
 * replace and moved in at its commit. */
#include "internal.h"

#include "base/arena.h"
#include "base/buf.h"
#include "base/index.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
	/* gone from the folder: the entry stays (its path in the index) until
	 * a quarter of them are (live_compact) */
	int dead;
};

struct live {
	struct diag *d;
	char *dir;
	pthread_mutex_t lock;
	struct live_file *files;
	size_t n, cap;
	struct index index; /* position + 1, by path */
	size_t ndead;
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
	if (v && !l->files[v - 1].dead)
		return &l->files[v - 1];
	if (!add)
		return NULL;
	if (v) { /* made again */
		struct live_file *f = &l->files[v - 1];
		char *r = f->rel;
		memset(f, 0, sizeof *f);
		f->rel = r;
		l->ndead--;
		return f;
	}
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
	if (stat(dir, &st) == 0 && (!S_ISDIR(st.st_mode) || (!output_dir_is_empty(dir) && !output_has_marker(dir)))) {
		output_error(d, dir, "refusing to write the site here: it is not empty and was not made by folio");
		return NULL;
	}
	if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
		output_error(d, dir, "cannot make the folder: %s", strerror(errno));
		return NULL;
	}
	char m[PATH_MAX + 32];
	snprintf(m, sizeof m, "%s/%s", dir, OUTPUT_MARKER);
	FILE *f = fopen(m, "w");
	if (!f || fputs("This folder was written by folio serve; it is deleted when the server stops.\n", f) < 0 ||
	    fclose(f) != 0) {
		output_error(d, m, "cannot write: %s", strerror(errno));
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
	if (output_parts_write(fd, parts, nparts) != 0) {
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
	if (!output_safe_rel(rel)) {
		output_error(l->d, rel, "refusing to write outside the output folder");
		return -1;
	}
	uint64_t h = output_parts_hash(parts, nparts);
	char path[PATH_MAX], tmp[PATH_MAX + 32];
	int fits = output_rel_fits(l->dir, rel);
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
	if (!fits || output_make_parents(l->dir, path) || write_new(tmp, parts, nparts)) {
		int e = fits ? errno : ENAMETOOLONG;
		unlink(tmp);
		pthread_mutex_lock(&l->lock);
		int first = !l->failed;
		l->failed = 1;
		pthread_mutex_unlock(&l->lock);
		if (first)
			output_error(l->d, rel, "cannot write: %s%s", strerror(e),
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
		output_error(l->d, path, "cannot read: %s", file_strerror(errno));
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

int live_keep_if(void *ctx, const char *rel)
{
	struct live *l = ctx;
	pthread_mutex_lock(&l->lock);
	struct live_file *f = live_find(l, rel, 0);
	int kept = f && f->exists && !f->staged;
	if (kept)
		f->round = l->round;
	pthread_mutex_unlock(&l->lock);
	return kept ? 0 : -1;
}

void live_keep_all(struct live *l)
{
	pthread_mutex_lock(&l->lock);
	for (size_t i = 0; i < l->n; i++)
		if (l->files[i].exists && !l->files[i].staged)
			l->files[i].round = l->round;
	pthread_mutex_unlock(&l->lock);
}

void live_keep_all_but(struct live *l, const char *prefix)
{
	size_t pl = strlen(prefix);
	pthread_mutex_lock(&l->lock);
	for (size_t i = 0; i < l->n; i++)
		if (l->files[i].exists && !l->files[i].staged &&
		    ((pl && l->files[i].rel[0] != prefix[0]) || strncmp(l->files[i].rel, prefix, pl)))
			l->files[i].round = l->round;
	pthread_mutex_unlock(&l->lock);
}

/* live_bury: f gone from the folder (its entry kept: live_compact) */
static void live_bury(struct live *l, struct live_file *f)
{
	f->dead = 1;
	f->exists = 0;
	f->staged = 0;
	l->ndead++;
}

/* live_compact: the entries of files gone dropped, once they are a quarter
 * of all (the index made again: a walk of every path) */
static void live_compact(struct live *l)
{
	if (l->ndead <= l->n / 4 + 64)
		return;
	size_t keep = 0;
	for (size_t i = 0; i < l->n; i++) {
		if (l->files[i].dead) {
			free(l->files[i].rel);
			continue;
		}
		if (keep != i)
			l->files[keep] = l->files[i];
		keep++;
	}
	l->n = keep;
	l->ndead = 0;
	live_reindex(l);
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
	size_t w = 0, r = 0;
	pthread_mutex_lock(&l->lock);
	for (size_t i = 0; i < l->n; i++) {
		struct live_file *f = &l->files[i];
		char path[PATH_MAX];
		if (f->dead || (f->round == l->round && !f->staged))
			continue; /* kept as it is: most files, most rounds */
		snprintf(path, sizeof path, "%s/%s", l->dir, f->rel);
		if (f->round == l->round && f->staged) {
			char tmp[PATH_MAX + 32];
			live_temp_path(l, f->rel, tmp, sizeof tmp);
			f->staged = 0;
			if (rename(tmp, path) != 0) {
				output_error(l->d, f->rel, "cannot move the new file into place: %s", strerror(errno));
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
			live_bury(l, f);
		}
	}
	live_compact(l);
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
	for (size_t i = 0; i < l->n; i++) {
		struct live_file *f = &l->files[i];
		if (f->dead)
			continue;
		if (f->staged) {
			char tmp[PATH_MAX + 32];
			live_temp_path(l, f->rel, tmp, sizeof tmp);
			unlink(tmp);
			f->staged = 0;
		}
		if (!f->exists) {
			remove_empty_parents(l, f->rel); /* made for its temporary file */
			live_bury(l, f);
		}
	}
	live_compact(l);
	l->round++;
	l->failed = 0;
	pthread_mutex_unlock(&l->lock);
}

int live_folder_new(char *base, size_t n, char *root, size_t rn)
{
	const char *tmp = getenv("TMPDIR");
	snprintf(base, n, "%s/folio-serve-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(base))
		return -1;
	if (snprintf(root, rn, "%s/site", base) >= (int)rn) {
		rmdir(base);
		return -2;
	}
	return 0;
}

void live_folder_ensure(const char *root)
{
	struct stat st;
	if (stat(root, &st) != 0)
		mkdir(root, 0755);
}

void live_folder_remove(const char *base, const char *root)
{
	remove_tree(root); /* made by folio: it carries the marker */
	rmdir(root);
	rmdir(base);
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
