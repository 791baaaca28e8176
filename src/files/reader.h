/* reader.h: the one way a stage opens a file of the site: which names a
 * walk of the site passes over (one rule for every walker: the content,
 * the templates, the static files, the stamps, the server's watches), a
 * folder listed, and a file read whole after the check that it is inside
 * the site (sitefile.h), bounded, with the hash of its bytes. Later
 * stages get a file's text from what they are handed (read/content.h's
 * source_text), never by reading. */
#ifndef FOLIO_READER_H
#define FOLIO_READER_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "base/diag.h"

struct arena;

/* The file that says a folder is folio's output (folio never deletes a
 * folder without it; a walk of the site passes over a folder with it). */
#define OUTPUT_MARKER ".folio-output"

/* site_ignored: whether name, an entry met by a walk of the site, is not
 * the site's: hidden files (editors' .x.swp, .#x locks, folio's own
 * .folio-cache and marker), backups (x~, #x#), editors' and downloads'
 * temporary files (.swp, .swx, .swo, .tmp, .part) and vim's 4913 probe. */
int site_ignored(const char *name);

/* site_list: the names in the folder dir, sorted by strcmp, those
 * site_ignored passes over left out; NULL (*n 0) with errno when the
 * folder cannot be read. site_list_type gives the type readdir said of a
 * name (DT_REG, DT_DIR, DT_LNK; DT_UNKNOWN on file systems that do not
 * say). Free with site_list_free. */
char **site_list(const char *dir, size_t *n);
/* site_list_all: site_list of a folder that is not a folio site's (folio
 * import's SRC: its generator has rules of its own): every name but .
 * and .. */
char **site_list_all(const char *dir, size_t *n);
unsigned char site_list_type(const char *name);
void site_list_free(char **names, size_t n);

/* What site_read reads, and how. */
struct site_file {
	const char *path;  /* as opened (the site folder, a slash, its place in it) */
	const char *shown; /* as messages name it (site-relative) */
	size_t max;        /* the largest it may be: FOLIO_MAX_FILE for a file folio parses */
	const char *hint;  /* what to do about a file larger than max */
	unsigned flags;
};
enum {
	/* the caller checked the links of path (a walk's site_check_link, in
	 * a folder known to be inside the site): no realpath again */
	SITE_READ_CHECKED = 1,
	/* a file that cannot be opened is not reported: errno tells the
	 * caller, which words the message (folio.yml missing) */
	SITE_READ_QUIET = 2,
};

/* site_read: the file f->path of the site whose folder's realpath is root
 * (NULL: anywhere), read whole: its bytes and a NUL, in memory of the
 * arena a (NULL: malloc'd, the caller frees it), their number in *len and
 * their hash (hash_bytes, never 0) in *hash when hash is not NULL. NULL
 * after an error reported to d at f->shown: a link leading outside the
 * site, to nothing or round a circle (never read; errno EPERM), a file
 * that cannot be read ("cannot read: WHY", unless SITE_READ_QUIET) or
 * one larger than f->max (diag_too_big, with f->hint). d NULL: nothing
 * is reported, errno tells. */
char *site_read(struct diag *d, const char *root, const struct site_file *f, struct arena *a, size_t *len,
		uint64_t *hash);

/* site_read_head: the first cap bytes (at most) of the regular file path,
 * which the caller found inside the site (site_where), into buf: for what
 * a file's head says (an image's size), where reading it whole would cost.
 * Returns how many, or -1 with errno (FOLIO_ENOTREG: not a regular file)
 * when it cannot be opened. */
long site_read_head(const char *path, void *buf, size_t cap);

/* A folder being walked and the folders that hold it, on the disk and in
 * the walk, each linked to the one above: a link inside to one of them
 * (static/up -> ..) would be walked without end. Links to anything else
 * are followed. */
struct held {
	dev_t dev;
	ino_t ino;
	const char *path;
	const struct held *up;
	int pending; /* the walk's root, whose folders on the disk are not looked up yet */
};
/* held_root: the chain for a walk of dir, dir alone until held_find
 * needs the folders that hold it on the disk, up to "/". NULL if dir is
 * not a folder. Free with held_free. */
struct held *held_root(const char *dir);
/* held_find: the folder of the chain h that st is, or NULL. With link
 * (st is what a link, or an entry of unknown type, leads to), the
 * folders above the walk's root are looked at too: only a link can lead
 * there. */
const struct held *held_find(const struct held *h, const struct stat *st, int link);
void held_free(struct held *h);

#endif
