/* internal.h: what the files of output/ share: the output being built,
 * its manifests, and the helpers more than one of them uses. They call
 * one way: staging.c -> spare.c -> manifest.c -> folder.c, and live.c,
 * tree.c -> folder.c (tree.c writes through staging.c's output_write).
 * Not for other modules: they use output.h. */
#ifndef FOLIO_OUTPUT_INTERNAL_H
#define FOLIO_OUTPUT_INTERNAL_H

#include "output/output.h"

#include "base/diag.h"
#include "base/index.h"

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
	unsigned char trusted; /* a spare's file whose folder is as its build left it (spare.c) */
};

struct manifest {
	struct mfile *v;
	size_t n, cap;
	struct index index; /* position + 1, by path */
	/* the folder the files were written into (the staging folder that
	 * became the output) and the file system's time when its build had
	 * finished writing it; 0 when not known */
	uint64_t dev, ino;
	int64_t done_ns;
	char *where; /* a spare's: its folder (malloc'd), or NULL */
	/* loaded whole: every file the build wrote is listed (but, when
	 * partial, those whose names hold a line break) */
	unsigned char known, partial;
	char *block; /* a loaded one's text, where its files' paths lie (not copied) */
	size_t block_len;
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
	int out_fd;  /* the output folder, open (files of the last build are looked at from it), or -1 */
	pthread_mutex_t lock;
	int failed;  /* errno of the first failed write: the build is lost, no file is tried after it */
	/* the spare (spare.c): its folder's name beside the output, and,
	 * when it is the staging folder (recycled), what it held */
	char *spare_dir;
	int recycled;
	struct manifest spare;
	int named; /* the record of the output is the names of both sites' files (save_names) */
};

/* ---- folder.c (the bottom of output/: it calls no other file of it) ---- */

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

/* Names beside the output folder OUT: .OUT.folio-staging-PID (a build
 * writing, or killed), .OUT.folio-old-PID (the old site moved aside for a
 * moment where RENAME_EXCHANGE is missing), .OUT.folio-spare (the site the
 * last build swapped out, the next one's staging folder: spare.c),
 * .OUT.folio-gone-PID (a spare that could not be used, being deleted). */
#define STAGING_TAG "folio-staging-"
#define ASIDE_TAG "folio-old-"
#define SPARE_TAG "folio-spare"
#define GONE_TAG "folio-gone-"

/* OUTPUT_MARKER_TEXT: the bytes of the marker. */
#define OUTPUT_MARKER_TEXT "This folder was written by folio; each build replaces it whole.\n"

/* kill_point: the test hook FOLIO_KILL_AT (and FOLIO_PAUSE_AT). */
void kill_point(const char *point);
/* output_no_spare: the test hook FOLIO_NO_SPARE: no spare is used or kept. */
int output_no_spare(void);
/* output_no_exchange: the test hook FOLIO_NO_EXCHANGE: the swap is done
 * as where RENAME_EXCHANGE is missing. */
int output_no_exchange(void);
/* lock_marker: a descriptor holding an exclusive lock on dir's marker, or
 * -1 (no marker, or someone holds the lock: a build writing the folder,
 * or the process deleting it). */
int lock_marker(const char *dir);
/* output_remove_old: deletes dir (folio's, holding about files files), in
 * a process of its own when big. Only when no other thread runs. */
void output_remove_old(const char *dir, size_t files);

/* ---- spare.c ---- */

/* spare_take: the spare beside the output (parent/.base.folio-spare) as
 * o's staging folder, locked and checked: 0; -1 when there is none, or it
 * is in use, or in doubt (then it is deleted): the caller makes the
 * staging folder anew. Sets o->spare_dir in any case. */
int spare_take(struct output *o, const char *parent, const char *base, struct output_ahead *ah);
/* ahead_take_old: the output's manifest read ahead, into m (new), if mpath
 * is still that file: 1; else 0 (the caller reads it). */
int ahead_take_old(struct output_ahead *ah, const char *mpath, struct manifest *m);

/* spare_has: whether the recycled staging folder's rel is already the
 * file live (what lstat said of the output's rel, which the last build's
 * manifest has as it is); path: rel in the staging folder. Thread-safe. */
int spare_has(struct output *o, const char *rel, const struct stat *live, const char *path);
/* spare_untrust: rel in the staging folder is about to change: the spare's
 * file is no longer trusted to be there. Thread-safe. */
void spare_untrust(struct output *o, const char *rel);
/* spare_clear: what of the spare stands in the way of rel (a file where
 * one of its folders goes, a folder where it goes) deleted, unless this
 * build wrote it: 0 if something was, -1 if not. Thread-safe. */
int spare_clear(struct output *o, const char *rel);
/* spare_tidy: deletes the spare's files that the new site does not have,
 * and the folders that held only those. o->now sorted, without repeats. */
void spare_tidy(struct output *o);
/* spare_keep: old_site, the site just swapped out, as the spare with its
 * state (the last build's manifest), if it is the folder that manifest
 * describes and lock holds its marker: 0; else -1 and nothing is done
 * (the caller deletes it). */
int spare_keep(struct output *o, const char *old_site, int lock);

/* ---- manifest.c ---- */

const struct mfile *manifest_find(const struct manifest *m, const char *rel);
void manifest_add(struct manifest *m, const struct mfile *f);
/* manifest_reindex: the index made anew after manifest_add (which leaves
 * it as it was). */
void manifest_reindex(struct manifest *m);
/* manifest_cmp: for qsort, by path, then in the order written */
int manifest_cmp(const void *x, const void *y);
void manifest_fini(struct manifest *m);
void manifest_load(struct manifest *m, const char *p);
int manifest_save(const struct manifest *m, const char *p);
/* output_mtime_ns: st's modification time in nanoseconds, as a manifest
 * keeps it. */
int64_t output_mtime_ns(const struct stat *st);
/* output_ctime_ns: st's change time in nanoseconds. */
int64_t output_ctime_ns(const struct stat *st);
/* output_now_ns: the wall clock now, in nanoseconds (a clock gone back
 * behind a manifest's done_ns makes its folders' change times mean
 * nothing) */
int64_t output_now_ns(void);
/* manifest_save_names: the names of a's files and b's as a manifest that
 * says nothing else (no tree, no file trusted to be as written: sizes,
 * times and inodes 0), for a folder that is the one or the other. */
int manifest_save_names(const struct manifest *a, const struct manifest *b, const char *p);

/* The folders of a manifest's files (every folder that holds one of them),
 * by path, and what a walk found of each (state: its own). */
struct folders {
	char **v;
	unsigned char *state;
	size_t n, cap;
	struct index ix;
};
/* manifest_folders: the folders of m's files, added to f */
void manifest_folders(const struct manifest *m, struct folders *f);
/* folder_find: rel's position + 1 in f, or 0 */
size_t folder_find(const struct folders *f, const char *rel);
void folders_fini(struct folders *f);
/* folders_sorted: f's folders, each after the one that holds it (a path
 * sorts after its prefixes), so that a folder replaced by a link is dealt
 * with before anything below it is looked at (malloc'd). */
char **folders_sorted(const struct folders *f);
/* The folders' stats, made before they are walked, on threads: a site of
 * 10,000 posts has 15,000 folders, and a stat costs microseconds. */
struct folder_stat {
	struct stat st;
	int err; /* 0, or fstatat's errno */
};
/* stat_folders: the stat of each of rel[0..n) below root, on up to two
 * threads (malloc'd). */
struct folder_stat *stat_folders(int root, char **rel, size_t n);
/* folder_scan: hands fn each entry of the folder rel ("" the top) below
 * root that is not m's file, f's folder or (at the top) the marker: its
 * folder's descriptor, its name, its path and whether it is a folder (fn:
 * 0 to go on, else the walk stops with that). 0, or -1 when the folder
 * cannot be read. */
typedef int (*folder_entry_fn)(void *ctx, int dir, const char *name, const char *rel, int is_dir);
int folder_scan(const struct manifest *m, const struct folders *f, int root, const char *rel, folder_entry_fn fn,
		void *ctx);

/* What of an output folio did not write: each file, link or folder (a
 * folder's name ends in '/'; it counts once, whatever it holds), sorted. */
struct foreign {
	char **names;
	size_t n, cap;
	size_t files, folders;
	char *unread; /* the first folder that could not be read ("" the top), or NULL */
	int err;      /* and why (errno) */
};
/* output_foreign: what in dir (an output, or one just swapped out) m
 * does not account for: a file it does not list, a folder that holds
 * none of its files, anything but files and folders (a link), a folder
 * on another file system. A folder of m's that has not changed since
 * m's build wrote it (its change time before m's, now_ns not before it,
 * dir the folder m describes) is not read. 0, or -1 when a folder cannot
 * be read (fo->unread); fo is the caller's to foreign_fini. */
int output_foreign(const struct manifest *m, const char *dir, int64_t now_ns, struct foreign *fo);
void foreign_fini(struct foreign *fo);

#endif
