/* output.h: writing the site: a staging folder beside the output, swapped
 * in with one atomic rename when the build succeeds; a marker file that
 * says a folder is folio's, so folio never deletes anything else. */
#ifndef FOLIO_OUTPUT_H
#define FOLIO_OUTPUT_H

#include <stddef.h>

#include "diag.h"

#define OUTPUT_MARKER ".folio-output"

struct output;

/* output_begin: checks that out_dir may be replaced (it does not exist, is
 * empty, or carries the marker; and it is not the site folder, one of its
 * parents, a folder of the site's sources, the home folder or /), removes
 * staging folders left by killed builds, and makes a new staging folder.
 * NULL after reporting the reason to d. */
struct output *output_begin(struct diag *d, const char *out_dir, const char *site_dir);

/* output_write: writes data as rel (e.g. "posts/x/index.html") in the
 * staging folder, making folders as needed. Thread-safe. 0, or -1 after
 * reporting to d. */
int output_write(struct output *o, const char *rel, const void *data, size_t len);

/* output_copy_tree: copies every file below src_dir to rel_dir ("" for the
 * top) in the staging folder, skipping hidden and editor files; with
 * skip_md, Markdown files are left out (a post bundle's index.md).
 * Returns the number of files copied, or -1 after reporting an error. */
long output_copy_tree(struct output *o, const char *src_dir, const char *rel_dir, int skip_md);

/* output_exists: whether rel was already written (static files yield to
 * generated pages, or the other way round, as the caller decides). */
int output_exists(struct output *o, const char *rel);

/* output_commit: writes the marker and swaps the staging folder in with one
 * atomic rename (renameat2 RENAME_EXCHANGE; the old site is then deleted).
 * Frees o. 0, or -1 after reporting (the old output is then untouched). */
int output_commit(struct output *o);

/* output_abort: deletes the staging folder; the old output stays. Frees o. */
void output_abort(struct output *o);

/* output_count: files written so far. */
size_t output_count(const struct output *o);

/* remove_tree: deletes dir and everything in it, without following links.
 * Only for folders that carry the marker. */
int remove_tree(const char *dir);

#endif
