/* manifest.c: the manifest of an output, what the last build wrote where
 * (load, save, find, add), and an output as the last build left it
 * (output_unchanged). */
#include "internal.h"

#include "base/arena.h"
#include "base/buf.h"
#include "cache/cache.h"
#include "base/index.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- the manifest: SITE/.folio-cache/output-HASH, HASH that of the
 * output folder's absolute path (kept with the site, not in the output,
 * whose bytes stay those of the pages); spare-HASH is the same of the
 * spare folder beside it (spare.c) ----
 * "folio-manifest 2", then "tree DEV INO DONE": the folder the files were
 * written into (device and inode of the staging folder that became the
 * output) and the file system's time (ns) when the build had finished
 * writing it, all 0 when not known; in a spare's, "where PATH": the spare
 * folder (absolute), for output_prune; then a line per file: hash (16 hex
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
	while (line && *line) {
		char *nl = strchr(line, '\n');
		if (!nl)
			break; /* a cut line: the rest is not trusted */
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
		}
		line = nl + 1;
	}
	manifest_reindex(m);
}

/* manifest_save: m as the cache's file p. A file whose name cannot be
 * saved (a line break in it) is left out, and then the tree line says no
 * tree: the folder holds a file the manifest does not list, so it is
 * never recycled (spare.c). */
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

int64_t output_mtime_ns(const struct stat *st)
{
	return (int64_t)st->st_mtim.tv_sec * 1000000000 + st->st_mtim.tv_nsec;
}

int64_t output_ctime_ns(const struct stat *st)
{
	return (int64_t)st->st_ctim.tv_sec * 1000000000 + st->st_ctim.tv_nsec;
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
			if (!f || f->size != (uint64_t)st.st_size || f->mtime_ns != output_mtime_ns(&st) ||
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
	char *mpath = cache_output_path(site_dir, out_dir, CACHE_MANIFEST);
	if (!mpath)
		return -1;
	struct manifest m;
	memset(&m, 0, sizeof m);
	int rc = -1;
	if (output_has_marker(out_dir)) {
		manifest_load(&m, mpath);
		size_t found = 0;
		if (m.n && same_walk(&m, out_dir, "", &found) == 0 && found == m.n)
			rc = 0;
	}
	manifest_fini(&m);
	free(mpath);
	return rc;
}
