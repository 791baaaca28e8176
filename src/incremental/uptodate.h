/* uptodate.h: a folio build with nothing to do. When none of the site's
 * files changed since the last build into the same folder (the build
 * key's inputs projection), or those whose stamps changed still hold the
 * same bytes (touched, saved unchanged, checked out again), with the same
 * clock (no post left out as future has come due), and its output is still
 * exactly as it wrote it (the target says so), the output is what a build
 * would write again: it is kept, and the warnings that build reported are
 * reported again. The state of that build is the cache's uptodate-HASH
 * file of the output (rebuild.h's struct rebuild_uptodate). */
#ifndef FOLIO_UPTODATE_H
#define FOLIO_UPTODATE_H

#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"

struct build_key;
struct stamp_list;
struct uptodate;

/* What a build made, as the next up-to-date check tells it again. */
struct uptodate_counts {
	int64_t next_future; /* the first post left out as future, 0: none */
	uint64_t pages, posts, files;
};

/* uptodate_begin: the check of a build of site_dir into out_dir (now: the
 * build's clock; future: --future): the stamps of the site now (k->inputs
 * set; 0 when they cannot be known) and the state of the last build into
 * out_dir read. k stays the caller's until uptodate_free. */
struct uptodate *uptodate_begin(struct build_key *k, const char *site_dir, const char *out_dir, int64_t now,
				int future);

/* uptodate_same: whether every input is as that build read it, with the
 * same clock (the caller then asks the output, and calls uptodate_keep
 * if it is as that build left it too). */
int uptodate_same(struct uptodate *u);

/* uptodate_keep: nothing is built: *c is what the last build made, its
 * warnings are reported to d again, and the new stamps kept (when files
 * were touched, not changed). */
void uptodate_keep(struct uptodate *u, struct diag *d, struct uptodate_counts *c);

/* uptodate_build: a build goes on (NULL u: nothing is checked): the state
 * goes (it describes the output only until the build swaps); what d said
 * so far is noted. The site's files unchanged since the last build, with
 * the hash of the bytes it knew (borrowed until uptodate_free), or NULL:
 * a file among them is not read again (content.h, a static file's
 * copy). */
const struct stamp_list *uptodate_build(struct uptodate *u, struct diag *d);

/* uptodate_inputs_read: the build has read every input (its output is in
 * place): the stamps of the site are taken again on a task of its own,
 * while the caches are saved (NULL u: nothing). */
void uptodate_inputs_read(struct uptodate *u);

/* uptodate_end: the build is over with errors; without any, and when no
 * input changed during it, its state is kept for the next check: c, and
 * the warnings d was told since uptodate_build, if d still holds them all
 * (NULL u: nothing). */
void uptodate_end(struct uptodate *u, int errors, const struct uptodate_counts *c, struct diag *d);

void uptodate_free(struct uptodate *u);

#endif
