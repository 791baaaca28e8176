/* deploy.h: folio deploy: the site an earlier folio build wrote (the
 * output folder, as its manifest lists it) published to the one target
 * folio.yml's deploy: names (a folder, rsync, a git branch, an S3
 * bucket), uploading
 * only what changed since the last deploy to that target and deleting
 * there only what an earlier deploy put there and the site no longer has.
 *
 * Folder deploy/: publishing a built site: the plan (what to upload and
 * delete, from the output's manifest and the record of the last deploy),
 * the record kept in .folio-cache, the targets (folder, rsync, git, S3
 * through libcurl), the child processes they run (run.c, the one place
 * deploy/ starts one).
 * uses: base, formats, cache, read, output.
 */
#ifndef FOLIO_DEPLOY_H
#define FOLIO_DEPLOY_H

#include "base/diag.h"

struct deploy_options {
	const char *site_dir; /* the site's folder */
	const char *out_dir;  /* the output folder folio build wrote (default SITE/public) */
	int dry_run;          /* list the actions, do nothing */
	int all;              /* upload every file, whatever the record says */
};

/* deploy_run: publishes o->out_dir to folio.yml's deploy target: reports
 * each error to d (folio.yml's with their place, the target's as
 * "TARGET: error: ..." with a hint) and prints what it did to stdout
 * ("deploy: 3 uploaded, 1 deleted, 2,140 unchanged (folder /srv/www)"),
 * or with dry_run each action it would take. The record of the target
 * is updated for what succeeded, also when a later step failed. 0, or 1
 * after an error. */
int deploy_run(struct diag *d, const struct deploy_options *o);

#endif
