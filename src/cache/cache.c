/* cache.c: the site's .folio-cache/ folder (see cache.h). */
#include "cache/cache.h"

#include "base/arena.h"
#include "base/buf.h"
#include "base/diag.h"
#include "base/hash.h"

#include <assert.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>


/* ---- the paths of the catalogue's files ---- */

char *cache_path(const char *site_dir, enum cache_kind k)
{
	const struct cache_entry *e = cache_entry(k);
	assert(e->scope != CACHE_OUTPUT);
	struct buf b;
	buf_init(&b);
	buf_printf(&b, "%s/" CACHE_DIR "%s%s", site_dir, e->name ? "/" : "", e->name ? e->name : "");
	return buf_detach(&b, NULL);
}

char *cache_key_path(const char *site_dir, enum cache_kind k, uint64_t key)
{
	const struct cache_entry *e = cache_entry(k);
	assert(e->scope == CACHE_KEYED);
	struct buf b;
	buf_init(&b);
	buf_printf(&b, "%s/" CACHE_DIR "/%s/%016llx%s", site_dir, e->name, (unsigned long long)key, e->suffix);
	return buf_detach(&b, NULL);
}

char *cache_output_path(const char *site_dir, const char *out_dir, enum cache_kind k)
{
	const struct cache_entry *e = cache_entry(k);
	assert(e->scope == CACHE_OUTPUT);
	char *out = path_absolute(out_dir), *site = realpath(site_dir, NULL);
	char *p = NULL;
	if (out && site) {
		struct buf b;
		buf_init(&b);
		buf_printf(&b, "%s/" CACHE_DIR "/%s-%016llx", site, e->name,
		           (unsigned long long)hash_bytes(out, strlen(out)));
		p = buf_detach(&b, NULL);
	}
	free(out);
	free(site);
	return p;
}

char *cache_output_sibling(const char *path, enum cache_kind k)
{
	const struct cache_entry *e = cache_entry(k);
	assert(e->scope == CACHE_OUTPUT);
	const char *dash = strrchr(path, '-'), *slash = strrchr(path, '/');
	if (!dash || !slash || dash < slash)
		return NULL;
	struct buf b;
	buf_init(&b);
	buf_printf(&b, "%.*s/%s%s", (int)(slash - path), path, e->name, dash);
	return buf_detach(&b, NULL);
}

/* state_hash: the HASH of a state file's name NAME-HASH (of a kind with a
 * file per output), or NULL; *kind: its kind. */
static const char *state_hash(const char *name, enum cache_kind *kind)
{
	for (int k = 0; k < CACHE_KINDS; k++) {
		const struct cache_entry *e = cache_entry((enum cache_kind)k);
		size_t n = e->scope == CACHE_OUTPUT ? strlen(e->name) : 0;
		if (n && !strncmp(name, e->name, n) && name[n] == '-' && strlen(name + n + 1) == 16 &&
		    strspn(name + n + 1, "0123456789abcdef") == 16) {
			*kind = (enum cache_kind)k;
			return name + n + 1;
		}
	}
	return NULL;
}

enum cache_kind cache_output_kind(const char *path)
{
	const char *slash = strrchr(path, '/');
	enum cache_kind k = CACHE_KINDS;
	state_hash(slash ? slash + 1 : path, &k);
	return k;
}

char *cache_read(const char *path, enum cache_kind k, size_t *len)
{
	size_t max = cache_entry(k)->max;
	assert(max);
	char *text = read_file_max(path, max, len);
	if (text && *len > max) {
		free(text);
		text = NULL;
	}
	return text;
}

/* ---- writing ---- */

int cache_file_open(struct cache_file *f, const char *path)
{
	static unsigned counter;
	struct buf b;
	buf_init(&b);
	/* unique among threads and processes; ".tmp-" marks it for
	 * cache_sweep, should the process die before the rename */
	const char *slash = strrchr(path, '/');
	size_t dir = slash ? (size_t)(slash - path) + 1 : 0;
	buf_printf(&b, "%.*s.tmp-%ld-%u-%s", (int)dir, path, (long)getpid(),
	           __atomic_fetch_add(&counter, 1, __ATOMIC_RELAXED), path + dir);
	f->tmp = buf_detach(&b, NULL);
	f->path = path;
	f->fd = open(f->tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (f->fd < 0) {
		int e = errno;
		free(f->tmp);
		f->tmp = NULL;
		errno = e;
		return -1;
	}
	return 0;
}

int cache_file_commit(struct cache_file *f)
{
	int rc = close(f->fd) == 0 && rename(f->tmp, f->path) == 0 ? 0 : -1;
	int e = errno;
	if (rc != 0)
		unlink(f->tmp);
	free(f->tmp);
	f->tmp = NULL;
	f->fd = -1;
	errno = e;
	return rc;
}

int cache_file_extend(struct cache_file *f, const char *path, uint64_t dev, uint64_t ino, size_t len)
{
	f->tmp = NULL;
	f->path = path;
	/* O_NONBLOCK: a named pipe put in its place is not waited on */
	f->fd = open(path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (f->fd < 0)
		return -1;
	struct stat st;
	if (flock(f->fd, LOCK_EX) != 0 || fstat(f->fd, &st) != 0 || !S_ISREG(st.st_mode) ||
	    (uint64_t)st.st_dev != dev || (uint64_t)st.st_ino != ino || st.st_size < 0 || (size_t)st.st_size != len ||
	    lseek(f->fd, 0, SEEK_END) < 0) {
		close(f->fd);
		f->fd = -1;
		errno = ESTALE;
		return -1;
	}
	return 0;
}

int cache_file_extend_end(struct cache_file *f)
{
	int rc = close(f->fd); /* the lock goes with it */
	f->fd = -1;
	return rc;
}

void cache_file_abort(struct cache_file *f)
{
	if (f->fd >= 0)
		close(f->fd);
	if (f->tmp)
		unlink(f->tmp);
	free(f->tmp);
	f->tmp = NULL;
	f->fd = -1;
}

/* ---- packs ---- */

void *cache_pack_map(struct cache_pack *pk, size_t *len, uint64_t *count)
{
	pk->whole = 0;
	pk->count = 0;
	int fd = open_regular(pk->path); /* a named pipe would wait for a writer */
	if (fd < 0)
		return NULL;
	struct stat st;
	if (fstat(fd, &st) != 0 || st.st_size < CACHE_PACK_HEAD) {
		close(fd);
		return NULL;
	}
	*len = (size_t)st.st_size;
	void *map = mmap(NULL, *len, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return NULL;
	if (memcmp(map, pk->magic, strlen(pk->magic)) != 0) {
		munmap(map, *len);
		return NULL;
	}
	memcpy(count, (const char *)map + 16, sizeof *count);
	pk->dev = (uint64_t)st.st_dev;
	pk->ino = (uint64_t)st.st_ino;
	pk->len = *len;
	return map;
}

void *cache_map(const char *path, size_t *len)
{
	int fd = open_regular(path);
	if (fd < 0)
		return NULL;
	struct stat st;
	void *map = MAP_FAILED;
	if (fstat(fd, &st) == 0 && st.st_size > 0 && (uint64_t)st.st_size <= SIZE_MAX / 2)
		map = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_POPULATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return NULL;
	*len = (size_t)st.st_size;
	return map;
}

void cache_unmap(void *p, size_t len)
{
	if (p)
		munmap(p, len);
}

int cache_pack_flush(int fd, struct buf *b)
{
	if (b->len < (1u << 20))
		return 0;
	int rc = write_full(fd, b->p, b->len);
	buf_reset(b);
	return rc;
}

/* pack_extend: put's new entries added at the end of pk's file, then its
 * count; 0, or -1 (the file was not extended: it is written anew). */
static int pack_extend(struct cache_pack *pk, cache_pack_put_fn put, void *ctx)
{
	struct cache_file cf;
	if (!pk->whole || cache_file_extend(&cf, pk->path, pk->dev, pk->ino, pk->len) != 0)
		return -1;
	struct buf b;
	buf_init(&b);
	long added = put(ctx, cf.fd, &b, 0);
	int rc = added < 0 ? -1 : 0;
	if (rc == 0 && b.len)
		rc = write_full(cf.fd, b.p, b.len);
	buf_fini(&b);
	off_t end = rc == 0 ? lseek(cf.fd, 0, SEEK_END) : -1;
	uint64_t count = pk->count + (uint64_t)(added > 0 ? added : 0);
	/* the count last: a reader before it sees the entries it counted */
	if (end < 0 || (added > 0 && pwrite(cf.fd, &count, sizeof count, 16) != (ssize_t)sizeof count))
		rc = -1;
	if (cache_file_extend_end(&cf) != 0)
		rc = -1;
	if (rc != 0) {
		pk->whole = 0; /* its end is not known: written anew next time */
		return -1;
	}
	pk->len = (size_t)end;
	pk->count = (size_t)count;
	return 0;
}

int cache_pack_save(struct cache_pack *pk, int rewrite, cache_pack_put_fn put, void *ctx, int *anew)
{
	*anew = 0;
	if (!rewrite && pack_extend(pk, put, ctx) == 0)
		return 0;
	*anew = 1;
	struct cache_file cf;
	int rc = cache_file_open(&cf, pk->path), fd = rc == 0 ? cf.fd : -1;
	char head[CACHE_PACK_HEAD];
	memset(head, 0, sizeof head);
	memcpy(head, pk->magic, strlen(pk->magic));
	/* entries are gathered into large writes */
	struct buf b;
	buf_init(&b);
	buf_append(&b, head, sizeof head);
	long n = rc == 0 ? put(ctx, fd, &b, 1) : -1;
	uint64_t count = (uint64_t)(n > 0 ? n : 0);
	if (n < 0)
		rc = -1;
	if (rc == 0 && b.len)
		rc = write_full(fd, b.p, b.len);
	buf_fini(&b);
	if (rc == 0 && pwrite(fd, &count, sizeof count, 16) != (ssize_t)sizeof count)
		rc = -1;
	struct stat st;
	if (rc == 0 && fstat(fd, &st) != 0)
		rc = -1;
	int saved = errno;
	if (fd >= 0 && rc != 0)
		cache_file_abort(&cf);
	else if (fd >= 0 && (rc = cache_file_commit(&cf)) != 0)
		saved = errno;
	if (rc == 0) { /* a later save compares with what the file holds now */
		pk->dev = (uint64_t)st.st_dev;
		pk->ino = (uint64_t)st.st_ino;
		pk->len = (size_t)st.st_size;
		pk->count = (size_t)count;
		pk->whole = 1;
	}
	errno = saved;
	return rc;
}

int cache_write(const char *path, const void *p, size_t n)
{
	struct cache_file f;
	if (cache_file_open(&f, path) != 0)
		return -1;
	if (write_full(f.fd, p, n) != 0) {
		int e = errno;
		cache_file_abort(&f);
		errno = e;
		return -1;
	}
	return cache_file_commit(&f);
}

static int flush_fd(void *fctx, struct buf *out)
{
	return cache_pack_flush(*(int *)fctx, out);
}

int cache_write_with(const char *path, int (*fill)(void *ctx, struct buf *out, cache_flush_fn flush, void *fctx),
		     void *ctx)
{
	struct cache_file f;
	if (cache_file_open(&f, path) != 0)
		return -1;
	struct buf b;
	buf_init(&b);
	int rc = fill(ctx, &b, flush_fd, &f.fd);
	if (rc == 0 && b.len)
		rc = write_full(f.fd, b.p, b.len);
	buf_fini(&b);
	if (rc != 0) {
		cache_file_abort(&f);
		return -1;
	}
	return cache_file_commit(&f);
}

void cache_remove(const char *path)
{
	(void)unlink(path);
}

/* ---- the folder and its version ---- */

static int mkdir_one(const char *path)
{
	return mkdir(path, 0755) == 0 || errno == EEXIST ? 0 : -1;
}

/* empty_dir: removes what is below dir (files, and folders one level
 * down: the cache has no deeper ones), not dir. */
static void empty_dir(const char *dir)
{
	DIR *dh = opendir(dir);
	if (!dh)
		return;
	for (struct dirent *de; (de = readdir(dh));) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (unlinkat(dirfd(dh), de->d_name, 0) == 0 || errno != EISDIR)
			continue;
		int sub = openat(dirfd(dh), de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		DIR *sh = sub >= 0 ? fdopendir(sub) : NULL;
		for (struct dirent *se; sh && (se = readdir(sh));)
			if (strcmp(se->d_name, ".") && strcmp(se->d_name, ".."))
				(void)unlinkat(sub, se->d_name, 0);
		if (sh)
			closedir(sh);
		else if (sub >= 0)
			close(sub);
		(void)unlinkat(dirfd(dh), de->d_name, AT_REMOVEDIR);
	}
	closedir(dh);
}

void cache_remove_all(const char *site_dir)
{
	char *dir = cache_path(site_dir, CACHE_ROOT);
	empty_dir(dir);
	(void)rmdir(dir);
	free(dir);
}

int cache_open_dir(const char *site_dir, enum cache_kind k)
{
	char *dir = cache_path(site_dir, CACHE_ROOT), *vpath = cache_path(site_dir, CACHE_LAYOUT);
	char want[32], have[32] = "";
	int n = snprintf(want, sizeof want, "folio-cache %d\n", CACHE_VERSION);
	int rc = mkdir_one(dir);
	if (rc == 0) {
		int fd = open_regular(vpath); /* not a pipe that never ends */
		ssize_t got = fd >= 0 ? read(fd, have, sizeof have - 1) : -1;
		if (fd >= 0)
			close(fd);
		have[got > 0 ? got : 0] = '\0';
		if (strcmp(have, want) != 0) {
			/* another layout (or none yet): nothing in it is read */
			if (got > 0)
				empty_dir(dir);
			rc = cache_write(vpath, want, (size_t)n);
		}
	}
	if (rc == 0 && cache_entry(k)->scope == CACHE_KEYED) {
		char *s = cache_path(site_dir, k);
		rc = mkdir_one(s);
		free(s);
	}
	int e = errno;
	free(dir);
	free(vpath);
	errno = e;
	return rc;
}

/* ---- cleaning ---- */

/* stale_tmp: name (in the folder dh) is a temporary file an hour old or
 * more, left by a build that died. */
static int stale_tmp(DIR *dh, const char *name, time_t now)
{
	struct stat st;
	return strncmp(name, ".tmp-", 5) == 0 && fstatat(dirfd(dh), name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	       st.st_mtime < now - 3600;
}

void cache_sweep(const char *site_dir, enum cache_kind k, const char *keep)
{
	const struct cache_entry *e = cache_entry(k);
	assert(e->scope == CACHE_KEYED);
	char *dir = cache_path(site_dir, k);
	DIR *dh = opendir(dir);
	free(dir);
	if (!dh)
		return;
	const char *suffix = e->suffix, *slash = keep ? strrchr(keep, '/') : NULL;
	keep = slash ? slash + 1 : keep;
	size_t ls = strlen(suffix);
	time_t now = time(NULL);
	for (struct dirent *de; (de = readdir(dh));) {
		size_t l = strlen(de->d_name);
		int stale = l > ls && strcmp(de->d_name + l - ls, suffix) == 0 && (!keep || strcmp(de->d_name, keep) != 0);
		if (stale || stale_tmp(dh, de->d_name, now))
			(void)unlinkat(dirfd(dh), de->d_name, 0);
	}
	closedir(dh);
}

static int cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
	return a < b ? -1 : a > b;
}

void cache_sweep_keys(const char *site_dir, enum cache_kind k, uint64_t *keys, size_t n)
{
	const struct cache_entry *e = cache_entry(k);
	assert(e->scope == CACHE_KEYED);
	qsort(keys, n, sizeof *keys, cmp_u64);
	char *dir = cache_path(site_dir, k);
	DIR *dh = opendir(dir);
	free(dir);
	if (!dh)
		return;
	size_t ls = strlen(e->suffix);
	time_t now = time(NULL);
	for (struct dirent *de; (de = readdir(dh));) {
		size_t l = strlen(de->d_name);
		if (l == 16 + ls && !strcmp(de->d_name + 16, e->suffix)) {
			char *end;
			uint64_t key = strtoull(de->d_name, &end, 16);
			if (end == de->d_name + 16 && bsearch(&key, keys, n, sizeof *keys, cmp_u64))
				continue;
			(void)unlinkat(dirfd(dh), de->d_name, 0);
		} else if (stale_tmp(dh, de->d_name, now)) {
			(void)unlinkat(dirfd(dh), de->d_name, 0);
		}
	}
	closedir(dh);
}

struct state_group {
	char hash[17];
	int64_t mtime_ns; /* the newest of its files */
};

static int cmp_group(const void *x, const void *y)
{
	const struct state_group *a = x, *b = y;
	return a->mtime_ns > b->mtime_ns ? -1 : a->mtime_ns < b->mtime_ns ? 1 : strcmp(a->hash, b->hash);
}

void cache_prune(const char *site_dir)
{
	cache_prune_with(site_dir, NULL, NULL);
}

void cache_prune_with(const char *site_dir, void (*gone)(const char *path, void *ctx), void *ctx)
{
	char *dir = cache_path(site_dir, CACHE_ROOT);
	DIR *dh = opendir(dir);
	free(dir);
	if (!dh)
		return;
	struct state_group *g = NULL;
	size_t n = 0, cap = 0;
	time_t now = time(NULL);
	for (struct dirent *de; (de = readdir(dh));) {
		enum cache_kind kind;
		const char *h = state_hash(de->d_name, &kind);
		struct stat st;
		if (!h && stale_tmp(dh, de->d_name, now))
			(void)unlinkat(dirfd(dh), de->d_name, 0);
		if (!h || fstatat(dirfd(dh), de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
			continue;
		int64_t t = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
		size_t i = 0;
		while (i < n && strcmp(g[i].hash, h))
			i++;
		if (i == n) {
			if (n == cap) {
				cap = cap ? cap * 2 : 16;
				g = xrealloc(g, cap * sizeof *g);
			}
			memcpy(g[n].hash, h, 17);
			g[n++].mtime_ns = t;
		} else if (t > g[i].mtime_ns) {
			g[i].mtime_ns = t;
		}
	}
	if (n > CACHE_KEEP_OUTPUTS) {
		qsort(g, n, sizeof *g, cmp_group);
		char *dir_path = cache_path(site_dir, CACHE_ROOT);
		for (size_t i = CACHE_KEEP_OUTPUTS; i < n; i++)
			for (int k = 0; k < CACHE_KINDS; k++) {
				const struct cache_entry *e = cache_entry((enum cache_kind)k);
				if (e->scope != CACHE_OUTPUT)
					continue;
				char name[64];
				snprintf(name, sizeof name, "%s-%s", e->name, g[i].hash);
				if (gone) {
					char *path = xmalloc(strlen(dir_path) + sizeof name + 2);
					sprintf(path, "%s/%s", dir_path, name);
					gone(path, ctx);
					free(path);
				}
				(void)unlinkat(dirfd(dh), name, 0);
			}
		free(dir_path);
	}
	closedir(dh);
	free(g);
}

void cache_store(const char *site_dir, enum cache_kind k, int (*save)(void *), void *ctx)
{
	const struct cache_entry *entry = cache_entry(k);
	assert(entry->what && entry->then);
	if (cache_open_dir(site_dir, CACHE_ROOT) == 0 && save(ctx) == 0)
		return;
	int e = errno;
	char shown[256];
	snprintf(shown, sizeof shown, CACHE_DIR "/%s", entry->name);
	struct diag dg;
	diag_init(&dg, stderr);
	struct diag_loc loc = {shown, NULL, 0, 0, 0};
	diag_warning(&dg, &loc, "cannot save %s (%s); %s", entry->what, strerror(e), entry->then);
	diag_fini(&dg);
}
