/* deploy.c: folio deploy's driver: folio.yml's target, the built site's
 * files (the output's manifest), the record of the last deploy to that
 * target, the plan, the target, the record saved, the report. */
#include "deploy/internal.h"

#include "base/arena.h"
#include "base/hash.h"
#include "cache/cache.h"
#include "read/config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void deploy_error(struct diag *d, const char *where, const char *fmt, ...)
{
	struct diag_loc loc = {where, NULL, 0, 0, 0};
	va_list ap;
	va_start(ap, fmt);
	diag_vreport(d, DIAG_ERROR, &loc, NULL, 0, fmt, ap);
	va_end(ap);
}

/* The target of folio.yml, as the driver sees it. */
struct target {
	int kind;
	char *dest;        /* folder: absolute; else as written */
	char *branch;      /* git */
	char *endpoint;    /* s3 (dest: the bucket) */
	struct deploy_s3_target s3;
	char *id;          /* "KIND DEST": the record's target line */
	const char *shown; /* "folder /srv/www", "rsync host:/srv/www", "git REPO, branch B" */
	char shown_buf[4400];
};

/* s3_target: the S3 target of c (t->dest its bucket): its endpoint (by
 * default the region's AWS one), region, prefix, record line and name */
static int s3_target(const struct config *c, struct target *t)
{
	struct buf b;
	buf_init(&b);
	if (c->deploy_endpoint.len)
		buf_put_str(&b, c->deploy_endpoint);
	else
		buf_printf(&b, "https://s3.%.*s.amazonaws.com", STR_FMT(c->deploy_region));
	t->endpoint = buf_detach(&b, NULL);
	t->branch = xstrndup(c->deploy_region.p, c->deploy_region.len); /* (the region, kept with the rest) */
	char *prefix = xstrndup(c->deploy_prefix.p, c->deploy_prefix.len);
	t->s3 = (struct deploy_s3_target){t->endpoint, t->dest, t->branch, prefix};
	size_t idn = strlen(t->endpoint) + strlen(t->dest) + strlen(prefix) + 16;
	t->id = xmalloc(idn);
	snprintf(t->id, idn, "s3 %s/%s/%s", t->endpoint, t->dest, prefix);
	snprintf(t->shown_buf, sizeof t->shown_buf, "s3 bucket %s%s%s at %s", t->dest, *prefix ? ", prefix " : "",
		 prefix, t->endpoint);
	t->shown = t->shown_buf;
	return 0;
}

/* site_path: *dest, when relative, made the site folder's, then absolute
 * where its folder exists (freed and replaced) */
static void site_path(char **dest, const char *site_dir)
{
	if ((*dest)[0] != '/') {
		char *rel = *dest;
		*dest = xmalloc(strlen(site_dir) + strlen(rel) + 2);
		sprintf(*dest, "%s/%s", site_dir, rel);
		free(rel);
	}
	char *abs = path_absolute(*dest);
	if (abs) {
		free(*dest);
		*dest = abs;
	}
}

/* target_of: c's deploy target; the folder's path made absolute (from the
 * site's folder) and checked against the output's. 0, or -1 after an
 * error. */
static int target_of(struct diag *d, const struct config *c, const char *site_dir, const char *out_abs,
		     struct target *t)
{
	memset(t, 0, sizeof *t);
	t->kind = c->deploy_kind;
	t->dest = xstrndup(c->deploy_dest.p, c->deploy_dest.len);
	static const char *const kinds[] = {"", "folder", "rsync", "git", "s3"};
	/* a local path (no scheme, no HOST: before its first slash) is the
	 * site folder's, whichever folder folio runs in */
	const char *colon = strchr(t->dest, ':'), *slash = strchr(t->dest, '/');
	int local = t->kind != CONFIG_DEPLOY_S3 && (t->kind == CONFIG_DEPLOY_FOLDER || !colon || (slash && slash < colon));
	if (local && t->dest[0] != '/' && t->kind != CONFIG_DEPLOY_FOLDER)
		site_path(&t->dest, site_dir);
	if (t->kind == CONFIG_DEPLOY_FOLDER) {
		/* a folder whose parent is missing too: made as written */
		site_path(&t->dest, site_dir);
		size_t n = strlen(t->dest), o = strlen(out_abs);
		if (!strncmp(t->dest, out_abs, n < o ? n : o) &&
		    (n == o || (n < o && (out_abs[n] == '/' || n == 1)) || (n > o && t->dest[o] == '/'))) {
			struct diag_loc loc = {"folio.yml", c->src, c->src_len, c->deploy_at->line, c->deploy_at->col};
			diag_error(d, &loc, "deploy.folder '%s' is the output folder, or inside it, or holds it: deploy "
				   "to another folder", t->dest);
			return -1;
		}
	}
	if (t->kind == CONFIG_DEPLOY_GIT)
		t->branch = xstrndup(c->deploy_branch.p, c->deploy_branch.len);
	if (t->kind == CONFIG_DEPLOY_S3)
		return s3_target(c, t);
	size_t idn = strlen(t->dest) + (t->branch ? strlen(t->branch) : 0) + 16;
	t->id = xmalloc(idn);
	snprintf(t->id, idn, "%s %s%s%s", kinds[t->kind], t->dest, t->branch ? " " : "", t->branch ? t->branch : "");
	if (t->kind == CONFIG_DEPLOY_GIT)
		snprintf(t->shown_buf, sizeof t->shown_buf, "git %s, branch %s", t->dest, t->branch);
	else
		snprintf(t->shown_buf, sizeof t->shown_buf, "%s %s", kinds[t->kind], t->dest);
	t->shown = t->shown_buf;
	return 0;
}

static void target_fini(struct target *t)
{
	free(t->endpoint);
	free((char *)t->s3.prefix);
	free(t->dest);
	free(t->branch);
	free(t->id);
}

/* record_load: the record of the last deploy to t (empty if none, or a
 * damaged one, or another target's) */
static void record_load(const char *site_dir, uint64_t key, const struct target *t, struct deploy_record *r)
{
	char *path = cache_key_path(site_dir, CACHE_DEPLOY, key);
	size_t len;
	char *text = cache_read(path, CACHE_DEPLOY, &len);
	if (!text || deploy_record_parse(text, len, r) != 0 || !r->target || strcmp(r->target, t->id)) {
		deploy_record_fini(r);
		r->target = xstrndup(t->id, strlen(t->id));
	}
	free(text);
	free(path);
}

/* record_save: r as the record of its target; a warning when it cannot
 * be saved (the next deploy uploads again what this one did). */
static void record_save(struct diag *d, const char *site_dir, uint64_t key, const struct deploy_record *r)
{
	struct buf b;
	buf_init(&b);
	deploy_record_format(r, &b);
	char *path = NULL;
	int rc = cache_open_dir(site_dir, CACHE_DEPLOY);
	if (rc == 0) {
		path = cache_key_path(site_dir, CACHE_DEPLOY, key);
		rc = cache_write(path, b.p, b.len);
	}
	if (rc != 0) {
		struct diag_loc loc = {CACHE_DIR "/deploy", NULL, 0, 0, 0};
		diag_warning(d, &loc, "cannot save the record of this deploy (%s); the next deploy uploads its "
			     "files again", strerror(errno));
	}
	free(path);
	buf_fini(&b);
}

/* list_site: the output's files, or -1 after saying why there are none */
static int list_site(struct diag *d, const char *site_dir, const char *out_dir, struct output_listing *l)
{
	if (output_list(site_dir, out_dir, l) == 0)
		return 0;
	if (errno == ESTALE)
		deploy_error(d, out_dir, "the output folder is not as folio build left it (a file added, changed or "
			     "removed since; hint: run 'folio build' again, then deploy)");
	else
		deploy_error(d, out_dir, "no site built here (hint: run 'folio build' first; give -o if it builds "
			     "elsewhere)");
	return -1;
}

/* report: the actions (dry run) or the summary line */
static void report(const struct deploy_plan *p, const struct target *t, int dry, size_t up, size_t del)
{
	char a[32], b[32], u[32];
	if (dry) {
		for (size_t i = 0; i < p->n; i++)
			printf("%s %s\n", p->v[i].op == DEPLOY_UPLOAD ? "upload" : "delete", p->v[i].rel);
		up = p->uploads;
		del = p->deletes;
	}
	deploy_count(a, sizeof a, up);
	deploy_count(b, sizeof b, del);
	deploy_count(u, sizeof u, p->unchanged);
	printf("deploy%s: %s %s, %s %s, %s unchanged (%s)\n", dry ? " (dry run, nothing done)" : "", a,
	       dry ? "to upload" : "uploaded", b, dry ? "to delete" : "deleted", u, t->shown);
}

/* publish: the plan carried out on t, the record updated for what was
 * done and saved; 0, or -1 after an error */
static int publish(struct deploy_ctx *x, const struct target *t, struct deploy_record *r)
{
	int rc = 0;
	if (x->plan->n) {
		if (t->kind == CONFIG_DEPLOY_FOLDER)
			rc = deploy_folder(x, t->dest);
		else if (t->kind == CONFIG_DEPLOY_RSYNC)
			rc = deploy_rsync(x, t->dest);
		else if (t->kind == CONFIG_DEPLOY_GIT)
			rc = deploy_git(x, t->dest, t->branch);
		else
			rc = deploy_s3(x, &t->s3);
	}
	deploy_record_update(r, x->plan);
	record_save(x->d, x->site_dir, x->key, r);
	return rc;
}

int deploy_run(struct diag *d, const struct deploy_options *o)
{
	struct arena *a = arena_new();
	struct config cfg;
	int errors = config_load(a, d, o->site_dir, NULL, &cfg);
	if (!errors && cfg.deploy_kind == CONFIG_DEPLOY_NONE) {
		deploy_error(d, "folio.yml", "no deploy target (hint: add one, as deploy: {folder: /srv/www/blog}, "
			     "deploy: {rsync: \"user@host:/srv/www/blog\"}, deploy: {git: {repo: URL, branch: "
			     "gh-pages}} or deploy: {s3: {bucket: NAME}}; see deploy under FOLIO.YML in folio-site(5))");
		errors = 1;
	}
	char *out_abs = errors ? NULL : path_absolute(o->out_dir);
	struct output_listing l;
	memset(&l, 0, sizeof l);
	struct target t;
	memset(&t, 0, sizeof t);
	if (!errors && (!out_abs || list_site(d, o->site_dir, o->out_dir, &l) != 0))
		errors = 1;
	if (!errors && target_of(d, &cfg, o->site_dir, out_abs, &t) != 0)
		errors = 1;
	if (!errors) {
		uint64_t key = hash_bytes(t.id, strlen(t.id));
		struct deploy_record r;
		memset(&r, 0, sizeof r);
		record_load(o->site_dir, key, &t, &r);
		struct deploy_plan p;
		deploy_plan_make(l.v, l.n, &r, o->all, &p);
		struct deploy_ctx x = {d, o->site_dir, out_abs, &p, key};
		size_t up, del;
		if (o->dry_run) {
			report(&p, &t, 1, 0, 0);
		} else {
			errors = publish(&x, &t, &r) != 0;
			deploy_plan_counts(&p, &up, &del);
			if (!errors)
				report(&p, &t, 0, up, del);
			else
				fprintf(stderr, "folio: deploy stopped after %zu of %zu uploads and %zu of %zu deletions; "
					"what was there before stays, and the next deploy does the rest\n", up,
					p.uploads, del, p.deletes);
		}
		deploy_plan_fini(&p);
		deploy_record_fini(&r);
	}
	target_fini(&t);
	output_listing_fini(&l);
	free(out_abs);
	arena_free(a);
	return errors ? 1 : 0;
}
