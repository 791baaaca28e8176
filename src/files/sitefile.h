/* sitefile.h: every file folio reads or copies is inside the site folder,
 * after links (folio-site(5), FILES FROM OUTSIDE THE SITE). A link to a
 * file or folder inside the site is followed; one that leads outside it,
 * to nothing, or round a circle of links is an error, never followed, so
 * that a site from someone else cannot publish /etc/passwd or print a
 * line of it in a message.
 *
 * Folder files/: the site's files: which belong to the site (one rule for
 * every walker), the check that a path stays inside the site, the one
 * reader, and their stamps.
 * uses: base.
 */
#ifndef FOLIO_SITEFILE_H
#define FOLIO_SITEFILE_H

#include <stddef.h>

#include "base/diag.h"

enum site_where {
	SITE_INSIDE,   /* the path leads inside the site (or root is NULL) */
	SITE_MISSING,  /* the path itself is not there, or cannot be looked at: the caller says so as before */
	SITE_OUTSIDE,  /* a link (here or above) leads outside; to: where (its realpath) */
	SITE_LOOP,     /* a circle of links */
	SITE_DANGLING, /* a link to nothing; to: what the link says */
};

/* site_root: realpath of site_dir (malloc'd), or NULL when it has none. */
char *site_root(const char *site_dir);

/* site_inside: whether real (a resolved path) is root or below it. */
int site_inside(const char *root, const char *real);

/* site_where: where path leads, for the site whose folder's realpath is
 * root (NULL: anywhere is inside). to (cap bytes) gets the target of
 * SITE_OUTSIDE and SITE_DANGLING, "" otherwise. */
enum site_where site_where(const char *root, const char *path, char *to, size_t cap);

/* site_check: site_where, and an error naming shown (the path as the user
 * should see it) and where the link leads, with a hint line, for
 * SITE_OUTSIDE, SITE_LOOP and SITE_DANGLING: -1; else 0. */
int site_check(struct diag *d, const char *root, const char *path, const char *shown);

/* site_check_link: site_check for an entry of a folder already known to be
 * inside the site: only a link (lstat) needs a look, so a walk of many
 * files costs one lstat each. */
int site_check_link(struct diag *d, const char *root, const char *path, const char *shown);

/* site_report: the error of site_check for w (not SITE_INSIDE or
 * SITE_MISSING) and its target to. */
void site_report(struct diag *d, const char *shown, enum site_where w, const char *to);

/* site_report_cycle: the error for a link to a folder that holds it
 * (held), which a walk would follow without end. */
void site_report_cycle(struct diag *d, const char *shown, const char *held);

#endif
