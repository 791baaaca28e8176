/* internal.h: what staging.c, live.c, manifest.c and tree.c share: the
 * output being built, its manifests, and the helpers more than one of them
 * uses. Not for other modules: they use output.h. */
#ifndef FOLIO_OUTPUT_INTERNAL_H
#define FOLIO_OUTPUT_INTERNAL_H

#include "output.h"

#include "diag.h"
#include "index.h"

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

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

/* ---- staging.c ---- */

/* output_error, output_warning: a message about path (a file or folder). */
void output_error(struct diag *d, const char *path, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void output_warning(struct diag *d, const char *path, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* output_has_marker: whether dir holds folio's marker, a file it writes. */
int output_has_marker(const char *dir);
/* output_dir_is_empty: 1 only for a folder that can be read and holds
 * nothing. */
int output_dir_is_empty(const char *dir);
/* output_make_parents: makes the folders of path below staging, never
 * staging itself. */
int output_make_parents(const char *staging, const char *path);
/* output_safe_rel: whether rel stays inside the folder it is relative to. */
int output_safe_rel(const char *rel);
/* output_rel_fits: whether dir/rel, with room for a temporary name beside
 * it, fits a path. */
int output_rel_fits(const char *dir, const char *rel);
/* output_parts_hash, output_parts_write: the XXH3 of a file's bytes given
 * in parts, and writing them to fd (0, or -1 with errno set). */
uint64_t output_parts_hash(const struct str *v, size_t n);
int output_parts_write(int fd, const struct str *v, size_t n);

/* ---- manifest.c ---- */

const struct mfile *manifest_find(const struct manifest *m, const char *rel);
void manifest_add(struct manifest *m, const struct mfile *f);
/* manifest_cmp: for qsort, by path, then in the order written */
int manifest_cmp(const void *x, const void *y);
void manifest_fini(struct manifest *m);
void manifest_load(struct manifest *m, const char *p);
int manifest_save(const struct manifest *m, const char *p);
/* output_mtime_ns: st's modification time in nanoseconds, as a manifest
 * keeps it. */
int64_t output_mtime_ns(const struct stat *st);

#endif
