/* git.c: the git target: the site's changed files committed onto a
 * branch of a repository, then pushed, with git's plumbing and a
 * temporary index: no work tree, no checkout of the site. The objects
 * live in a bare repository kept in the cache (.folio-cache/deploy/
 * KEY.git, cache/'s catalogue), which fetches only the branch's tip
 * (--depth=1): a deploy fetches what changed since the last one, not the
 * branch's history. The new tree is the branch's tip with the plan
 * applied, so that a file on the branch that folio did not put there
 * (CNAME, .nojekyll added by hand) stays; a push that is refused (the
 * branch moved, a hook said no) changes nothing, and the record stays. */
#include "deploy/internal.h"

#include "base/arena.h"
#include "base/clock.h"
#include "base/version.h"
#include "cache/cache.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

/* The bare repository and how git is run in it. */
struct gitrun {
	struct diag *d;
	const char *repo_url;
	char *dir;
	char git_dir[4200], index[4200], adate[64], cdate[64];
	const char *env[12];
	struct buf out, err;
};

/* git: git --git-dir=DIR ARGS... with in as its input; its output in
 * g->out and its errors in g->err (both emptied first). Its exit status,
 * or -1 when git cannot be run (reported). */
static int git(struct gitrun *g, const char *in, size_t in_len, const char *const *args)
{
	const char *argv[24];
	size_t n = 0;
	argv[n++] = "git";
	argv[n++] = g->git_dir;
	for (size_t i = 0; args[i] && n < 23; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	buf_reset(&g->out);
	buf_reset(&g->err);
	struct deploy_cmd c = {argv, g->env, in, in_len, &g->out, &g->err};
	int rc = deploy_spawn(&c);
	if (rc < 0)
		deploy_error(g->d, NULL, "cannot run git: %s (hint: %s)", strerror(errno),
			     errno == ENOENT ? "install git" : "fix the cause");
	return rc;
}

/* reason: git's message that says most: the last line the other side
 * wrote ("remote: ...": a hook's reason), else the line of a rejected
 * ref ("! [rejected] ... (fetch first)"), else its last line; scrubbed */
static const char *reason(const struct buf *err)
{
	static char line[1024];
	const char *best = NULL, *rejected = NULL;
	size_t best_len = 0, rej_len = 0;
	for (size_t at = 0; at < err->len;) {
		const char *l = err->p + at, *nl = memchr(l, '\n', err->len - at);
		size_t len = nl ? (size_t)(nl - l) : err->len - at;
		at += len + 1;
		while (len && (l[len - 1] == '\r' || l[len - 1] == ' '))
			len--;
		if (len > 8 && !memcmp(l, "remote: ", 8)) {
			best = l;
			best_len = len;
		} else if (len > 4 && memmem(l, len, "! [", 3)) {
			rejected = l;
			rej_len = len;
		}
	}
	if (!best) {
		best = rejected;
		best_len = rej_len;
	}
	if (!best)
		return deploy_last_line(err);
	while (best_len && (*best == ' ' || *best == '!')) {
		best++;
		best_len--;
	}
	snprintf(line, sizeof line, "%.*s", (int)best_len, best);
	deploy_scrub(line);
	return line;
}

/* fail: an error about the repository, with git's reason and a hint */
static int fail(struct gitrun *g, const char *what, const char *hint)
{
	deploy_error(g->d, g->repo_url, "%s: %s (hint: %s)", what, reason(&g->err), hint);
	return -1;
}

/* out_line: g->out's first line, without its break (in g->out) */
static const char *out_line(struct gitrun *g)
{
	buf_putc(&g->out, '\0');
	g->out.p[strcspn(g->out.p, "\n")] = '\0';
	return g->out.p;
}

/* git_open: the bare repository made if need be, the environment set. */
static int git_open(struct gitrun *g, struct deploy_ctx *c)
{
	int made = cache_open_dir(c->site_dir, CACHE_DEPLOY_GIT);
	if (made != 0) {
		deploy_error(c->d, NULL, "cannot make the cache folder: %s", strerror(errno));
		return -1;
	}
	g->dir = cache_key_path(c->site_dir, CACHE_DEPLOY_GIT, c->key);
	snprintf(g->git_dir, sizeof g->git_dir, "--git-dir=%s", g->dir);
	snprintf(g->index, sizeof g->index, "GIT_INDEX_FILE=%s/folio-index", g->dir);
	/* the commit's date is the build's clock (SOURCE_DATE_EPOCH) */
	long long now = (long long)clock_build_now(0);
	snprintf(g->adate, sizeof g->adate, "GIT_AUTHOR_DATE=@%lld +0000", now);
	snprintf(g->cdate, sizeof g->cdate, "GIT_COMMITTER_DATE=@%lld +0000", now);
	size_t n = 0;
	g->env[n++] = g->index;
	g->env[n++] = g->adate;
	g->env[n++] = g->cdate;
	g->env[n++] = "GIT_TERMINAL_PROMPT=0"; /* no password asked: the credential helper or a key */
	g->env[n++] = "LC_ALL=C";
	g->env[n] = NULL;
	char head[4300];
	snprintf(head, sizeof head, "%s/HEAD", g->dir);
	struct stat st;
	if (stat(head, &st) != 0 && git(g, NULL, 0, (const char *const[]){"init", "-q", "--bare", g->dir, NULL}) != 0)
		return g->out.len || g->err.len ? fail(g, "cannot make the cache's repository", "fix the cause") : -1;
	/* who commits: the user's identity, else folio's */
	if (git(g, NULL, 0, (const char *const[]){"var", "GIT_AUTHOR_IDENT", NULL}) != 0) {
		g->env[n++] = "GIT_AUTHOR_NAME=folio";
		g->env[n++] = "GIT_AUTHOR_EMAIL=folio@localhost";
		g->env[n++] = "GIT_COMMITTER_NAME=folio";
		g->env[n++] = "GIT_COMMITTER_EMAIL=folio@localhost";
		g->env[n] = NULL;
	}
	return 0;
}

/* git_base: the index made the branch's tip (fetched), or empty when the
 * branch is new; *parent its commit ("" when new). */
static int git_base(struct gitrun *g, const char *branch, char parent[72])
{
	char ref[512];
	snprintf(ref, sizeof ref, "refs/heads/%s", branch);
	parent[0] = '\0';
	int rc = git(g, NULL, 0, (const char *const[]){"ls-remote", "--heads", g->repo_url, ref, NULL});
	if (rc != 0)
		return rc < 0 ? -1
			      : fail(g, "cannot reach the repository",
				     "check deploy.git.repo in folio.yml, and that 'git ls-remote REPO' works here");
	if (!g->out.len)
		return git(g, NULL, 0, (const char *const[]){"read-tree", "--empty", NULL}) == 0
			       ? 0
			       : fail(g, "cannot start the commit", "fix the cause");
	char spec[600];
	snprintf(spec, sizeof spec, "+%s:refs/folio/tip", ref);
	if (git(g, NULL, 0, (const char *const[]){"fetch", "-q", "--depth=1", "--no-tags", g->repo_url, spec, NULL}) != 0)
		return fail(g, "cannot fetch the branch", "check that 'git fetch REPO' works here");
	if (git(g, NULL, 0, (const char *const[]){"rev-parse", "--verify", "refs/folio/tip^{commit}", NULL}) != 0)
		return fail(g, "cannot read the branch's tip", "fix the cause");
	snprintf(parent, 72, "%s", out_line(g));
	if (git(g, NULL, 0, (const char *const[]){"read-tree", parent, NULL}) != 0)
		return fail(g, "cannot read the branch's tree", "fix the cause");
	return 0;
}

/* git_stage: the plan's uploads hashed into the repository and, with its
 * deletions, put into the index. */
static int git_stage(struct gitrun *g, struct deploy_ctx *c)
{
	struct deploy_plan *p = c->plan;
	struct buf paths, info;
	buf_init(&paths);
	buf_init(&info);
	for (size_t i = 0; i < p->uploads; i++)
		buf_printf(&paths, "%s/%s\n", c->out_abs, p->v[i].rel);
	int rc = 0;
	if (p->uploads &&
	    git(g, paths.p, paths.len, (const char *const[]){"hash-object", "-w", "--no-filters", "--stdin-paths", NULL}) != 0)
		rc = fail(g, "cannot store the site's files", "fix the cause");
	const char *sha = g->out.p;
	for (size_t i = 0; rc == 0 && i < p->n; i++) {
		if (p->v[i].op == DEPLOY_UPLOAD) {
			const char *nl = memchr(sha, '\n', (size_t)(g->out.p + g->out.len - sha));
			if (!nl) {
				rc = fail(g, "git hashed fewer files than it was given", "fix the cause");
				break;
			}
			buf_printf(&info, "100644 %.*s\t%s", (int)(nl - sha), sha, p->v[i].rel);
			sha = nl + 1;
		} else {
			buf_printf(&info, "0 0000000000000000000000000000000000000000\t%s", p->v[i].rel);
		}
		buf_putc(&info, '\0');
	}
	if (rc == 0 && git(g, info.p, info.len, (const char *const[]){"update-index", "-z", "--index-info", NULL}) != 0)
		rc = fail(g, "cannot put the site's files in the commit",
			  "a file or folder on the branch that folio did not put there stands in the way: remove it "
			  "from the branch");
	buf_fini(&paths);
	buf_fini(&info);
	return rc;
}

/* git_commit: the index committed onto parent ("": a new branch) into
 * commit; 1 when the tree is the parent's (nothing to push). */
static int git_commit(struct gitrun *g, struct deploy_ctx *c, const char *parent, char commit[72])
{
	if (git(g, NULL, 0, (const char *const[]){"write-tree", NULL}) != 0)
		return fail(g, "cannot write the commit's tree", "fix the cause");
	char tree[72];
	snprintf(tree, sizeof tree, "%s", out_line(g));
	if (parent[0]) {
		char spec[96];
		snprintf(spec, sizeof spec, "%s^{tree}", parent);
		if (git(g, NULL, 0, (const char *const[]){"rev-parse", spec, NULL}) == 0 && !strcmp(out_line(g), tree))
			return 1;
	}
	time_t now = (time_t)clock_build_now(0);
	struct tm tm;
	gmtime_r(&now, &tm);
	char when[32], msg[512], ups[32], dels[32], same[32];
	strftime(when, sizeof when, "%Y-%m-%d %H:%M UTC", &tm);
	deploy_count(ups, sizeof ups, c->plan->uploads);
	deploy_count(dels, sizeof dels, c->plan->deletes);
	deploy_count(same, sizeof same, c->plan->unchanged);
	snprintf(msg, sizeof msg, "folio %s deploy, %s\n\n%s uploaded, %s deleted, %s unchanged.\n", FOLIO_VERSION, when,
		 ups, dels, same);
	int rc = parent[0] ? git(g, NULL, 0, (const char *const[]){"commit-tree", tree, "-p", parent, "-m", msg, NULL})
			   : git(g, NULL, 0, (const char *const[]){"commit-tree", tree, "-m", msg, NULL});
	if (rc != 0)
		return fail(g, "cannot make the commit", "fix the cause");
	snprintf(commit, 72, "%s", out_line(g));
	return 0;
}

int deploy_git(struct deploy_ctx *c, const char *repo, const char *branch)
{
	struct gitrun g;
	memset(&g, 0, sizeof g);
	g.d = c->d;
	g.repo_url = repo;
	buf_init(&g.out);
	buf_init(&g.err);
	char parent[72], commit[72];
	int rc = git_open(&g, c);
	if (rc == 0)
		rc = git_base(&g, branch, parent);
	if (rc == 0)
		rc = git_stage(&g, c);
	if (rc == 0)
		rc = git_commit(&g, c, parent, commit);
	if (rc == 0) {
		char spec[600];
		snprintf(spec, sizeof spec, "%s:refs/heads/%s", commit, branch);
		if (git(&g, NULL, 0, (const char *const[]){"push", "-q", repo, spec, NULL}) != 0)
			rc = fail(&g, "the repository refused the push",
				  "nothing was changed there; once the repository takes it (if the branch moved "
				  "meanwhile, at once), deploy again");
		else
			git(&g, NULL, 0, (const char *const[]){"update-ref", "refs/folio/tip", commit, NULL});
	}
	/* the push is the one step that changes the target: all or nothing */
	for (size_t i = 0; i < c->plan->n; i++)
		c->plan->v[i].state = rc >= 0 ? DEPLOY_DONE : DEPLOY_TODO;
	free(g.dir);
	buf_fini(&g.out);
	buf_fini(&g.err);
	return rc >= 0 ? 0 : -1;
}
