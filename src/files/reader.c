/* reader.c: the site's files: the names a walk passes over, folders
 * listed, files read after the check that they are inside the site, and
 * the chain of folders a walk is in (see reader.h). */
#include "files/reader.h"

#include "base/arena.h"
#include "base/buf.h"
#include "base/hash.h"
#include "files/sitefile.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int site_ignored(const char *name)
{
	size_t l = strlen(name);
	if (name[0] == '.' || name[0] == '#' || !strcmp(name, "4913"))
		return 1;
	if (l && name[l - 1] == '~')
		return 1;
	static const char *const ext[] = {".swp", ".swx", ".swo", ".tmp", ".part"};
	for (size_t i = 0; i < sizeof ext / sizeof ext[0]; i++) {
		size_t el = strlen(ext[i]);
		if (l > el && !strcmp(name + l - el, ext[i]))
			return 1;
	}
	return 0;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* list: the names of dir, sorted, those site_ignored passes over left
 * out with ignore (else . and .. alone). */
static char **list(const char *dir, size_t *n, int ignore)
{
	*n = 0;
	DIR *dh = opendir(dir);
	if (!dh)
		return NULL;
	size_t cap = 16;
	char **v = xmalloc(cap * sizeof *v);
	struct dirent *de;
	while ((de = readdir(dh))) {
		if (ignore ? site_ignored(de->d_name) : !strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue; /* (site_ignored: and . and ..) */
		if (*n == cap) {
			cap *= 2;
			v = xrealloc(v, cap * sizeof *v);
		}
		/* the type in the byte before the name (site_list_type) */
		size_t len = strlen(de->d_name);
		char *e = xmalloc(len + 2);
		e[0] = (char)de->d_type;
		memcpy(e + 1, de->d_name, len + 1);
		v[(*n)++] = e + 1;
	}
	closedir(dh);
	qsort(v, *n, sizeof *v, cmp_name);
	return v;
}

char **site_list(const char *dir, size_t *n)
{
	return list(dir, n, 1);
}

char **site_list_all(const char *dir, size_t *n)
{
	return list(dir, n, 0);
}

unsigned char site_list_type(const char *name)
{
	return (unsigned char)name[-1];
}

void site_list_free(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i] - 1);
	free(names);
}

char *site_read(struct diag *d, const char *root, const struct site_file *f, struct arena *a, size_t *len,
		uint64_t *hash)
{
	*len = 0;
	if (root && !(f->flags & SITE_READ_CHECKED)) {
		char to[PATH_MAX];
		enum site_where w = site_where(root, f->path, to, sizeof to);
		if (w != SITE_INSIDE && w != SITE_MISSING) {
			if (d)
				site_report(d, f->shown, w, to);
			errno = EPERM;
			return NULL; /* outside the site, to nothing, or in a circle: never read */
		}
	}
	char *text = a ? read_file_arena(a, f->path, f->max, len) : read_file_max(f->path, f->max, len);
	if (!text) {
		int err = errno;
		if (d && !(f->flags & SITE_READ_QUIET)) {
			struct diag_loc loc = {f->shown, NULL, 0, 0, 0};
			diag_error(d, &loc, "cannot read: %s", file_strerror(err));
		}
		errno = err;
		return NULL;
	}
	if (*len > f->max && (!d || diag_too_big(d, f->shown, text, *len, f->max, f->hint))) {
		if (!a)
			free(text);
		errno = EFBIG;
		return NULL;
	}
	if (hash) {
		uint64_t h = hash_bytes(text, *len);
		*hash = h ? h : 1;
	}
	return text;
}

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

long site_read_head(const char *path, void *buf, size_t cap)
{
	int fd = open_regular(path);
	if (fd < 0)
		return -1;
	size_t n = 0;
	while (n < cap) {
		ssize_t k = read(fd, (char *)buf + n, cap - n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		n += (size_t)k;
	}
	close(fd);
	return (long)n;
}
