/* manifest.c: the manifest of an output, what the last build wrote where
 * (load, save, find, add), an output as the last build left it
 * (output_unchanged), the folders of a manifest's files, and what of an
 * output folio did not write (output_foreign). */
#include "internal.h"

#include "base/arena.h"
#include "base/buf.h"
#include "cache/cache.h"
#include "base/index.h"
#include "base/pool.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ---- the manifest: SITE/.folio-cache/output-HASH, HASH that of the
 * output folder's absolute path (kept with the site, not in the output,
 * whose bytes stay those of the pages); spare-HASH is the same of the
 * spare folder beside it (spare.c) ----
 * "folio-manifest 2", then "tree DEV INO DONE": the folder the files were
 * written into (device and inode of the staging folder that became the
 * output) and the file system's time (ns) when the build had finished
 * writing it, all 0 when not known; in a spare's, "where PATH": the spare
 * folder (absolute), for output_prune; "partial" when names with a line
 * break were left out; then a line per file: hash (16 hex
 * digits), size, modification time (ns), inode, path. Version 1, without
 * the tree line, is still read. */
#define MANIFEST_MAGIC "folio-manifest 2\n"
#define MANIFEST_MAGIC_1 "folio-manifest 1\n"

static const char *mfile_rel(const void *ctx, uint32_t v)
{
	return ((const struct manifest *)ctx)->v[v - 1].rel;
}

void manifest_reindex(struct manifest *m)
{
	index_rebuild_str(&m->index, m->n, 64, mfile_rel, m);
}

const struct mfile *manifest_find(const struct manifest *m, const char *rel)
{
	uint32_t v = index_get_str(&m->index, rel, mfile_rel, m);
	return v ? &m->v[v - 1] : NULL;
}

void manifest_add(struct manifest *m, const struct mfile *f)
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

/* manifest_cmp: by path, then in the order written */
int manifest_cmp(const void *x, const void *y)
{
	const struct mfile *a = x, *b = y;
	int c = strcmp(a->rel, b->rel);
	return c ? c : a->seq < b->seq ? -1 : a->seq > b->seq;
}

void manifest_fini(struct manifest *m)
{
	for (size_t i = 0; i < m->n; i++)
		if (!(m->block && m->v[i].rel >= m->block && m->v[i].rel < m->block + m->block_len))
			free(m->v[i].rel); /* added, not loaded */
	free(m->block);
	free(m->v);
	free(m->where);
	index_fini(&m->index);
	memset(m, 0, sizeof *m);
}

/* num: the decimal (or, with hex, 16-digit hexadecimal) number at *p,
 * then one space; 0 with *p past them, or -1. */
static int num(char **p, int hex, int neg_ok, unsigned long long *v)
{
	char *s = *p, *end;
	if (!(*s >= '0' && *s <= '9') && !(hex && *s >= 'a' && *s <= 'f') && !(neg_ok && *s == '-'))
		return -1;
	errno = 0;
	*v = neg_ok ? (unsigned long long)strtoll(s, &end, 10) : strtoull(s, &end, hex ? 16 : 10);
	if (errno || end == s || *end != ' ' || (hex && end - s != 16))
		return -1;
	*p = end + 1;
	return 0;
}

/* manifest_load: the manifest in file p; empty if there is none or a
 * damaged one. The first line says its version: 1 (no tree line) or 2. */
void manifest_load(struct manifest *m, const char *p)
{
	size_t len;
	char *text = cache_read(p, CACHE_MANIFEST, &len);
	if (!text)
		return;
	char *line = NULL;
	if (strncmp(text, MANIFEST_MAGIC, strlen(MANIFEST_MAGIC)) == 0) {
		line = text + strlen(MANIFEST_MAGIC);
		unsigned long long dev, ino, done;
		char *t = line + strlen("tree ");
		char *nl = strchr(line, '\n');
		if (strncmp(line, "tree ", 5) || !nl)
			line = NULL; /* no tree line: damaged */
		else if (*nl = ' ', num(&t, 0, 0, &dev) == 0 && num(&t, 0, 0, &ino) == 0 && num(&t, 0, 1, &done) == 0 &&
			 t == nl + 1) {
			m->dev = dev;
			m->ino = ino;
			m->done_ns = (int64_t)done;
			line = nl + 1;
		} else {
			line = nl + 1; /* a tree not known: a manifest, never a spare's */
		}
		char *end = line ? strchr(line, '\n') : NULL;
		if (end && !strncmp(line, "where ", 6)) {
			m->where = xstrndup(line + 6, (size_t)(end - line - 6));
			line = end + 1;
		}
		if (line && !strncmp(line, "partial\n", 8)) {
			m->partial = 1;
			line += 8;
		}
	} else if (strncmp(text, MANIFEST_MAGIC_1, strlen(MANIFEST_MAGIC_1)) == 0) {
		line = text + strlen(MANIFEST_MAGIC_1);
	}
	/* its paths are read where they lie in the text, which it keeps; its
	 * entries' array sized once, by the lines */
	m->block = text;
	m->block_len = len;
	size_t lines = 0;
	for (const char *q = line; q && (q = memchr(q, '\n', len - (size_t)(q - text))); q++)
		lines++;
	if (lines > m->cap) {
		m->v = xrealloc(m->v, lines * sizeof *m->v);
		m->cap = lines;
	}
	m->known = line != NULL;
	while (line && *line) {
		char *nl = strchr(line, '\n');
		if (!nl) {
			m->known = 0;
			break; /* a cut line: the rest is not trusted */
		}
		*nl = '\0';
		unsigned long long h, size, mt, ino;
		char *at = line;
		if (num(&at, 1, 0, &h) == 0 && num(&at, 0, 0, &size) == 0 && num(&at, 0, 1, &mt) == 0 &&
		    num(&at, 0, 1, &ino) == 0 && *at) {
			if (m->n == m->cap) { /* (not after the count above) */
				m->cap = m->cap ? m->cap * 2 : 1024;
				m->v = xrealloc(m->v, m->cap * sizeof *m->v);
			}
			m->v[m->n] = (struct mfile){at, h, size, (int64_t)mt, (int64_t)ino, m->n, 0};
			m->n++;
		} else {
			m->known = 0; /* a damaged line: a file left out */
		}
		line = nl + 1;
	}
	manifest_reindex(m);
}

/* manifest_save: m as the cache's file p. A file whose name cannot be
 * saved (a line break in it) is left out, and then the tree line says no
 * tree (the folder holds a file the manifest does not list, so it is
 * never recycled: spare.c) and a line "partial" says that names with a
 * line break are the build's (output_foreign). */
int manifest_save(const struct manifest *m, const char *p)
{
	struct buf b;
	buf_init(&b);
	buf_puts(&b, MANIFEST_MAGIC);
	int whole = 1;
	for (size_t i = 0; i < m->n; i++)
		if (strchr(m->v[i].rel, '\n'))
			whole = 0;
	buf_printf(&b, "tree %llu %llu %lld\n", whole ? (unsigned long long)m->dev : 0ULL,
		   whole ? (unsigned long long)m->ino : 0ULL, whole ? (long long)m->done_ns : 0LL);
	if (m->where && !strchr(m->where, '\n'))
		buf_printf(&b, "where %s\n", m->where);
	if (!whole)
		buf_puts(&b, "partial\n");
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

int manifest_save_names(const struct manifest *a, const struct manifest *b, const char *p)
{
	const struct manifest *both[2] = {a, b};
	int partial = 0;
	for (int k = 0; k < 2; k++)
		for (size_t i = 0; i < both[k]->n; i++)
			partial |= strchr(both[k]->v[i].rel, '\n') != NULL;
	struct buf out;
	buf_init(&out);
	buf_puts(&out, MANIFEST_MAGIC "tree 0 0 0\n");
	if (partial)
		buf_puts(&out, "partial\n");
	for (int k = 0; k < 2; k++)
		for (size_t i = 0; i < both[k]->n; i++)
			if (!strchr(both[k]->v[i].rel, '\n'))
				buf_printf(&out, "0000000000000000 0 0 0 %s\n", both[k]->v[i].rel);
	int rc = cache_write(p, out.p, out.len);
	buf_fini(&out);
	return rc;
}

int64_t output_mtime_ns(const struct stat *st)
{
	return (int64_t)st->st_mtim.tv_sec * 1000000000 + st->st_mtim.tv_nsec;
}

int64_t output_ctime_ns(const struct stat *st)
{
	return (int64_t)st->st_ctim.tv_sec * 1000000000 + st->st_ctim.tv_nsec;
}

int64_t output_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* ---- an output as the last build left it ---- */

/* clean_before_of: the change time before which a folder of the output
 * whose top is top is as m's build left it (m's done_ns); INT64_MIN when
 * the times say nothing: another folder than the one the build wrote (a
 * copy of it), or a clock gone back (now is before done_ns) */
static int64_t clean_before_of(const struct manifest *m, const struct stat *top, int64_t now)
{
	return m->done_ns && now >= m->done_ns && (uint64_t)top->st_dev == m->dev && (uint64_t)top->st_ino == m->ino
		       ? m->done_ns
		       : INT64_MIN;
}

/* reject_entry: a folder_scan hook for output_same: anything there that
 * the manifest does not list means the output is not as it was left */
static int reject_entry(void *ctx, int dir, const char *name, const char *rel, int is_dir)
{
	(void)ctx;
	(void)dir;
	(void)name;
	(void)rel;
	(void)is_dir;
	return -1;
}

/* output_same: 0 when the folder out_dir holds exactly m's files, each as
 * m has it (size, modification time, inode), and nothing else; -1 if not,
 * or if that cannot be told. It reads no folder whose change time says it
 * is as the build left it (m's done_ns, as output_foreign): the top, which
 * the swap changed, is read, and every folder and file is stat'ed (on two
 * threads), so that at 100,000 pages a build with nothing to do costs a
 * stat per file, not a readdir and a stat per entry of every folder.
 * checked: output_foreign has just found nothing else: only the files. */
static int output_same(const struct manifest *m, const char *out_dir, int checked)
{
	if (!m->known || m->partial || !m->n)
		return -1;
	int root = open(out_dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	struct stat top;
	if (root < 0 || fstat(root, &top) != 0) {
		if (root >= 0)
			close(root);
		return -1;
	}
	int64_t clean_before = clean_before_of(m, &top, output_now_ns());
	struct folders f;
	memset(&f, 0, sizeof f);
	if (!checked)
		manifest_folders(m, &f);
	char **rels = xmalloc((f.n + m->n + 1) * sizeof *rels);
	if (f.n)
		memcpy(rels, f.v, f.n * sizeof *rels);
	for (size_t i = 0; i < m->n; i++)
		rels[f.n + i] = m->v[i].rel;
	struct folder_stat *st = stat_folders(root, rels, f.n + m->n);
	int rc = checked ? 0 : folder_scan(m, &f, root, "", reject_entry, NULL);
	for (size_t i = 0; rc == 0 && i < f.n; i++) {
		const struct stat *d = &st[i].st;
		if (st[i].err || !S_ISDIR(d->st_mode) || d->st_dev != top.st_dev)
			rc = -1;
		else if (output_ctime_ns(d) >= clean_before)
			rc = folder_scan(m, &f, root, rels[i], reject_entry, NULL);
	}
	for (size_t i = 0; rc == 0 && i < m->n; i++) {
		const struct stat *fs = &st[f.n + i].st;
		const struct mfile *mf = &m->v[i];
		if (st[f.n + i].err || !S_ISREG(fs->st_mode) || mf->size != (uint64_t)fs->st_size ||
		    mf->mtime_ns != output_mtime_ns(fs) || mf->ino != (int64_t)fs->st_ino)
			rc = -1;
	}
	free(st);
	free(rels);
	folders_fini(&f);
	close(root);
	return rc;
}

int output_unchanged(const char *site_dir, const char *out_dir, int checked)
{
	char *mpath = cache_output_path(site_dir, out_dir, CACHE_MANIFEST);
	if (!mpath)
		return -1;
	struct manifest m;
	memset(&m, 0, sizeof m);
	int rc = -1;
	if (output_has_marker(out_dir)) {
		manifest_load(&m, mpath);
		rc = output_same(&m, out_dir, checked);
	}
	manifest_fini(&m);
	free(mpath);
	return rc;
}

/* list_cmp: output entries by path */
static int list_cmp(const void *x, const void *y)
{
	return strcmp(((const struct output_entry *)x)->rel, ((const struct output_entry *)y)->rel);
}

int output_list(const char *site_dir, const char *out_dir, struct output_listing *l)
{
	memset(l, 0, sizeof *l);
	char *mpath = cache_output_path(site_dir, out_dir, CACHE_MANIFEST);
	if (!mpath || !output_has_marker(out_dir)) {
		free(mpath);
		errno = ENOENT;
		return -1;
	}
	struct manifest *m = xcalloc(1, sizeof *m);
	manifest_load(m, mpath);
	free(mpath);
	if (!m->known || !m->n) {
		manifest_fini(m);
		free(m);
		errno = ENOENT;
		return -1;
	}
	if (output_same(m, out_dir, 0) != 0) {
		manifest_fini(m);
		free(m);
		errno = ESTALE;
		return -1;
	}
	/* a file written twice is listed twice: its last write is the file */
	qsort(m->v, m->n, sizeof *m->v, manifest_cmp);
	l->v = xmalloc(m->n * sizeof *l->v);
	for (size_t i = 0; i < m->n; i++) {
		if (l->n && !strcmp(l->v[l->n - 1].rel, m->v[i].rel))
			l->n--;
		l->v[l->n++] = (struct output_entry){m->v[i].rel, m->v[i].hash, m->v[i].size};
	}
	qsort(l->v, l->n, sizeof *l->v, list_cmp);
	l->m = m;
	return 0;
}

void output_listing_fini(struct output_listing *l)
{
	if (l->m) {
		manifest_fini(l->m);
		free(l->m);
	}
	free(l->v);
	memset(l, 0, sizeof *l);
}

int output_open(const char *out_dir, const char *rel)
{
	char p[PATH_MAX];
	if (!output_safe_rel(rel) || snprintf(p, sizeof p, "%s/%s", out_dir, rel) >= (int)sizeof p) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return open(p, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
}

/* ---- the folders of a manifest's files ---- */

static const char *folder_key(const void *ctx, uint32_t v)
{
	return ((const struct folders *)ctx)->v[v - 1];
}

size_t folder_find(const struct folders *f, const char *rel)
{
	return index_get_str(&f->ix, rel, folder_key, f);
}

/* folders_add_of: the folders that hold rel, added to f */
static void folders_add_of(struct folders *f, const char *rel)
{
	char tmp[PATH_MAX];
	size_t len = strlen(rel);
	if (len >= sizeof tmp)
		return;
	memcpy(tmp, rel, len + 1);
	/* the deepest first: once one is there, so are those above it */
	for (char *slash = strrchr(tmp, '/'); slash; slash = strrchr(tmp, '/')) {
		*slash = '\0';
		if (folder_find(f, tmp))
			return;
		if (f->n == f->cap) {
			f->cap = f->cap ? f->cap * 2 : 1024;
			f->v = xrealloc(f->v, f->cap * sizeof *f->v);
		}
		f->v[f->n] = xstrndup(tmp, strlen(tmp));
		f->n++;
		index_add_str(&f->ix, f->v[f->n - 1], (uint32_t)f->n, 1024, folder_key, f);
	}
}

void manifest_folders(const struct manifest *m, struct folders *f)
{
	for (size_t i = 0; i < m->n; i++)
		folders_add_of(f, m->v[i].rel);
}

void folders_fini(struct folders *f)
{
	for (size_t i = 0; i < f->n; i++)
		free(f->v[i]);
	free(f->v);
	free(f->state);
	index_fini(&f->ix);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

char **folders_sorted(const struct folders *f)
{
	char **sorted = xmalloc((f->n + 1) * sizeof *sorted);
	if (f->n) /* f->v is NULL for a manifest of no files */
		memcpy(sorted, f->v, f->n * sizeof *sorted);
	qsort(sorted, f->n, sizeof *sorted, cmp_str);
	return sorted;
}

struct stat_share {
	int root;
	char **rel;
	struct folder_stat *out;
	size_t from, to;
};

static void *stat_share(void *arg)
{
	struct stat_share *t = arg;
	for (size_t i = t->from; i < t->to; i++)
		t->out[i].err = fstatat(t->root, t->rel[i], &t->out[i].st, AT_SYMLINK_NOFOLLOW) != 0 ? errno : 0;
	return NULL;
}

struct folder_stat *stat_folders(int root, char **rel, size_t n)
{
	struct folder_stat *out = xcalloc(n + 1, sizeof *out);
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	int t = n >= 2048 && cores > 1 ? 2 : 1;
	struct stat_share sh[2];
	for (int i = 0; i < t; i++)
		sh[i] = (struct stat_share){root, rel, out, n * (size_t)i / (size_t)t, n * (size_t)(i + 1) / (size_t)t};
	pool_run(t, stat_share, sh, sizeof *sh, 0);
	return out;
}

int folder_scan(const struct manifest *m, const struct folders *f, int root, const char *rel, folder_entry_fn fn,
		void *ctx)
{
	int fd = openat(root, rel[0] ? rel : ".", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	DIR *dh = fd >= 0 ? fdopendir(fd) : NULL;
	if (!dh) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	int rc = 0;
	for (struct dirent *de; rc == 0 && (de = readdir(dh));) {
		const char *name = de->d_name;
		if (!strcmp(name, ".") || !strcmp(name, "..") || (!rel[0] && !strcmp(name, OUTPUT_MARKER)))
			continue;
		char full[PATH_MAX];
		if (snprintf(full, sizeof full, "%s%s%s", rel, rel[0] ? "/" : "", name) >= (int)sizeof full) {
			rc = -1;
			break;
		}
		unsigned char type = de->d_type;
		struct stat st;
		if (type == DT_UNKNOWN) {
			if (fstatat(dirfd(dh), name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
				rc = -1;
				break;
			}
			type = S_ISDIR(st.st_mode) ? DT_DIR : S_ISREG(st.st_mode) ? DT_REG : DT_LNK;
		}
		if (type == DT_REG && (manifest_find(m, full) || (m->partial && strchr(name, '\n'))))
			continue; /* (a name the manifest could not keep: taken as one of its files) */
		if (type == DT_DIR && folder_find(f, full))
			continue;
		rc = fn(ctx, dirfd(dh), name, full, type == DT_DIR);
	}
	closedir(dh);
	return rc;
}

/* ---- what of an output folio did not write ---- */

static int foreign_add(void *ctx, int dir, const char *name, const char *rel, int is_dir)
{
	(void)dir;
	(void)name;
	struct foreign *fo = ctx;
	if (fo->n == fo->cap) {
		fo->cap = fo->cap ? fo->cap * 2 : 16;
		fo->names = xrealloc(fo->names, fo->cap * sizeof *fo->names);
	}
	size_t len = strlen(rel);
	char *s = xmalloc(len + 2);
	memcpy(s, rel, len);
	memcpy(s + len, is_dir ? "/" : "", is_dir ? 2 : 1);
	fo->names[fo->n++] = s;
	return 0;
}

/* foreign_done: fo's names sorted, each once (a folder replaced by a file
 * may be found from its parent and from its own path); its counts. */
static void foreign_done(struct foreign *fo)
{
	if (fo->n)
		qsort(fo->names, fo->n, sizeof *fo->names, cmp_str);
	size_t keep = 0;
	for (size_t i = 0; i < fo->n; i++) {
		if (keep && !strcmp(fo->names[keep - 1], fo->names[i])) {
			free(fo->names[i]);
			continue;
		}
		fo->names[keep++] = fo->names[i];
	}
	fo->n = keep;
	fo->files = fo->folders = 0;
	for (size_t i = 0; i < fo->n; i++) {
		size_t len = strlen(fo->names[i]);
		if (fo->names[i][len - 1] == '/')
			fo->folders++;
		else
			fo->files++;
	}
}

void foreign_fini(struct foreign *fo)
{
	for (size_t i = 0; i < fo->n; i++)
		free(fo->names[i]);
	free(fo->names);
	free(fo->unread);
	memset(fo, 0, sizeof *fo);
}

/* output_foreign's walk of the folders of m's files below root (sorted,
 * each after the one that holds it, their stats in pre): a folder that is
 * gone, or below one that is gone or is no folder, is passed over; one
 * replaced by a file, or on another file system (a mount), is foreign; one
 * whose change time is older than clean_before is as the build left it
 * and is not read; the others are read. */
static int foreign_walk(const struct manifest *m, struct folders *f, int root, char **sorted,
			const struct folder_stat *pre, const struct stat *top, int64_t clean_before, struct foreign *fo)
{
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < f->n; i++) {
		const char *rel = sorted[i];
		size_t k = folder_find(f, rel) - 1;
		const char *slash = strrchr(rel, '/');
		if (slash) {
			char up[PATH_MAX];
			snprintf(up, sizeof up, "%.*s", (int)(slash - rel), rel);
			size_t u = folder_find(f, up);
			if (u && f->state[u - 1]) {
				f->state[k] = 1;
				continue;
			}
		}
		if (pre[i].err) {
			f->state[k] = 1;
			if (pre[i].err != ENOENT) {
				fo->unread = xstrndup(rel, strlen(rel));
				fo->err = pre[i].err;
				rc = -1;
			}
		} else if (!S_ISDIR(pre[i].st.st_mode) || pre[i].st.st_dev != top->st_dev) {
			f->state[k] = 1;
			foreign_add(fo, -1, NULL, rel, S_ISDIR(pre[i].st.st_mode));
		} else if (output_ctime_ns(&pre[i].st) >= clean_before &&
			   folder_scan(m, f, root, rel, foreign_add, fo) != 0) {
			fo->err = errno;
			fo->unread = xstrndup(rel, strlen(rel));
			rc = -1;
		}
	}
	return rc;
}

int output_foreign(const struct manifest *m, const char *dir, int64_t now_ns, struct foreign *fo)
{
	memset(fo, 0, sizeof *fo);
	int root = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	struct stat top;
	if (root < 0 || fstat(root, &top) != 0) {
		fo->err = errno;
		if (root >= 0)
			close(root);
		fo->unread = xstrndup("", 0);
		return -1;
	}
	int64_t clean_before = clean_before_of(m, &top, now_ns);
	struct folders f;
	memset(&f, 0, sizeof f);
	manifest_folders(m, &f);
	char **sorted = folders_sorted(&f);
	struct folder_stat *pre = stat_folders(root, sorted, f.n);
	f.state = xcalloc(f.n + 1, 1);
	int rc = folder_scan(m, &f, root, "", foreign_add, fo); /* the top: always read (the swap changed it) */
	if (rc != 0) {
		fo->err = errno;
		fo->unread = xstrndup("", 0);
	}
	else
		rc = foreign_walk(m, &f, root, sorted, pre, &top, clean_before, fo);
	free(pre);
	free(sorted);
	folders_fini(&f);
	close(root);
	foreign_done(fo);
	return rc;
}
