/* rsync.c: the rsync target: one rsync run, no shell, handed the exact
 * list of the plan's files on its standard input (--files-from): the new
 * and changed ones, which it sends (--ignore-times: folio knows they
 * changed), and the deleted ones, which the site no longer has and which
 * it deletes on the other side (--delete-missing-args: a name that is
 * missing from the output is a deletion of that one file, never more).
 * Over SSH when the destination is HOST:PATH (rsync's rule; RSYNC_RSH and
 * ~/.ssh/config say how). Its log (--out-format) says which file it
 * sent or deleted: those are done, also when it fails later. */
#include "deploy/internal.h"

#include "base/arena.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* mark: the actions that rsync's log (lines "send\tPATH", "del.\tPATH")
 * says are done. */
static void mark(struct deploy_plan *p, const struct buf *log)
{
	for (size_t at = 0; at < log->len;) {
		const char *line = log->p + at;
		const char *nl = memchr(line, '\n', log->len - at);
		size_t len = nl ? (size_t)(nl - line) : log->len - at;
		at += len + 1;
		if (len < 6 || line[4] != '\t' || (memcmp(line, "send", 4) && memcmp(line, "recv", 4) &&
						    memcmp(line, "del.", 4)))
			continue;
		const char *rel = line + 5;
		size_t rl = len - 5;
		for (size_t i = 0; i < p->n; i++)
			if (strlen(p->v[i].rel) == rl && !memcmp(p->v[i].rel, rel, rl) &&
			    (p->v[i].op == DEPLOY_DELETE) == (line[0] == 'd')) {
				p->v[i].state = DEPLOY_DONE;
				break;
			}
	}
}

/* remote: whether dest is HOST:PATH (rsync's rule: a colon before any
 * slash), over SSH. */
static int remote(const char *dest)
{
	const char *colon = strchr(dest, ':'), *slash = strchr(dest, '/');
	return colon && (!slash || colon < slash);
}

/* rsync_hint: what to look at after rsync's exit status rc */
static const char *rsync_hint(int rc, int over_ssh)
{
	if (rc == 255 || (rc == 12 && over_ssh) || rc == 5 || rc == 10 || rc == 35)
		return over_ssh ? "check that 'ssh HOST' reaches the host without asking anything (a key, "
				  "~/.ssh/config or RSYNC_RSH give the port and the key)"
				: "check the destination";
	if (rc == 3 || rc == 11 || rc == 23)
		return "check that the destination folder is there and that you may write into it";
	return "see rsync's message above";
}

int deploy_rsync(struct deploy_ctx *c, const char *dest)
{
	struct buf list, log, err;
	buf_init(&list);
	buf_init(&log);
	buf_init(&err);
	for (size_t i = 0; i < c->plan->n; i++) {
		buf_puts(&list, c->plan->v[i].rel);
		buf_putc(&list, '\0');
	}
	size_t dl = strlen(dest);
	char *src = xmalloc(strlen(c->out_abs) + 2), *to = xmalloc(dl + 2);
	sprintf(src, "%s/", c->out_abs);
	/* into the folder dest (HOST: alone is the home folder) */
	sprintf(to, "%s%s", dest, dl && (dest[dl - 1] == '/' || dest[dl - 1] == ':') ? "" : "/");
	const char *argv[] = {"rsync", "--from0", "--files-from=-", "--delete-missing-args", "--ignore-times",
			      "--times", "--omit-dir-times", "--protect-args", "--chmod=D755,F644", "--perms",
			      "--out-format=%o\t%n", src, to, NULL};
	struct deploy_cmd cmd = {argv, (const char *const[]){"LC_ALL=C", NULL}, list.p, list.len, &log, &err};
	int rc = deploy_spawn(&cmd);
	int e = errno;
	/* 24, "some files vanished": the folders of the files deleted, which
	 * --files-from names as the files' parents and which the output no
	 * longer has; every file it sends is there (the output is as its
	 * build left it) */
	if (rc == 24)
		rc = 0;
	int over_ssh = remote(dest);
	if (rc < 0) {
		deploy_error(c->d, NULL, "cannot run rsync: %s (hint: %s)", strerror(e),
			     e == ENOENT ? "install rsync, on this machine and on the destination's" : "fix the cause");
	} else {
		mark(c->plan, &log);
		/* a failure before the first file (no connection) touched
		 * nothing; after it, a file not logged yet may be there */
		for (size_t i = 0; i < c->plan->n; i++)
			if (c->plan->v[i].state == DEPLOY_TODO && (rc == 0 || log.len))
				c->plan->v[i].state = rc == 0 ? DEPLOY_DONE : DEPLOY_TRIED;
		if (rc != 0)
			deploy_error(c->d, dest, "rsync failed (exit %d%s): %s (hint: %s)", rc,
				     over_ssh ? ", over SSH" : "", deploy_last_line(&err), rsync_hint(rc, over_ssh));
	}
	free(src);
	free(to);
	buf_fini(&list);
	buf_fini(&log);
	buf_fini(&err);
	return rc == 0 ? 0 : -1;
}
