/* test_deploy.c: folio deploy's pure parts: folio.yml's deploy: key (each
 * error's exact message), the record's format, the plan (two lists of
 * files into uploads and deletions, in their order), the record after a
 * deploy that failed midway, the Cache-Control rule, the report's
 * numbers and the scrubbing of secrets from a child's messages. */
#include "harness.h"

#include "base/arena.h"
#include "base/buf.h"
#include "base/diag.h"
#include "deploy/internal.h"
#include "read/config.h"

#include <stdlib.h>
#include <string.h>

static struct arena *arena;
static struct buf cap;
static char *dir;
static struct config cfg;

/* load: body after a title as folio.yml; the error count, the messages
 * in cap */
static int load(const char *body)
{
	struct buf y;
	buf_init(&y);
	buf_printf(&y, "title: T\n%s", body);
	t_write(dir, "folio.yml", y.p);
	buf_fini(&y);
	struct diag d;
	diag_init(&d, NULL);
	buf_reset(&cap);
	d.capture = &cap;
	int e = config_load(arena, &d, dir, NULL, &cfg);
	diag_fini(&d);
	return e;
}

static const char *sv(struct str s)
{
	return arena_strndup(arena, s.p ? s.p : "", s.len);
}

static void test_config_targets(void)
{
	INT_EQ(load(""), 0);
	INT_EQ(cfg.deploy_kind, CONFIG_DEPLOY_NONE);
	INT_EQ(load("deploy:\n  folder: /srv/www/blog\n"), 0);
	INT_EQ(cfg.deploy_kind, CONFIG_DEPLOY_FOLDER);
	STR_EQ(sv(cfg.deploy_dest), "/srv/www/blog");
	INT_EQ(load("deploy: {rsync: \"me@host:/srv/www\"}\n"), 0);
	INT_EQ(cfg.deploy_kind, CONFIG_DEPLOY_RSYNC);
	STR_EQ(sv(cfg.deploy_dest), "me@host:/srv/www");
	INT_EQ(load("deploy:\n  git: git@host:me/site.git\n"), 0);
	INT_EQ(cfg.deploy_kind, CONFIG_DEPLOY_GIT);
	STR_EQ(sv(cfg.deploy_branch), "gh-pages");
	INT_EQ(load("deploy:\n  git: {repo: ../site.git, branch: site/main}\n"), 0);
	STR_EQ(sv(cfg.deploy_dest), "../site.git");
	STR_EQ(sv(cfg.deploy_branch), "site/main");
	INT_EQ(load("deploy:\n  s3: {bucket: my.site-1}\n"), 0);
	INT_EQ(cfg.deploy_kind, CONFIG_DEPLOY_S3);
	STR_EQ(sv(cfg.deploy_dest), "my.site-1");
	STR_EQ(sv(cfg.deploy_region), "us-east-1");
	INT_EQ(cfg.deploy_endpoint.len, 0);
	INT_EQ(cfg.deploy_prefix.len, 0);
	INT_EQ(load("deploy:\n  s3: {bucket: b12, endpoint: \"http://127.0.0.1:9000\", region: eu-west-3, prefix: blog/}\n"), 0);
	STR_EQ(sv(cfg.deploy_endpoint), "http://127.0.0.1:9000");
	STR_EQ(sv(cfg.deploy_region), "eu-west-3");
	STR_EQ(sv(cfg.deploy_prefix), "blog/");
}

static void test_config_errors(void)
{
	INT_EQ(load("deploy: /srv/www\n"), 1);
	STR_EQ(t_msgs(&cap), "folio.yml:2:9: error: 'deploy' must be a map with one target, as {folder: PATH}, "
			     "{rsync: HOST:PATH}, {git: REPO} or {s3: {bucket: NAME}}, found a string");
	INT_EQ(load("deploy:\n  foldr: /srv/www\n"), 1);
	STR_EQ(t_msgs(&cap), "folio.yml:3:3: error: unknown deploy key 'foldr' (did you mean 'folder'?)");
	INT_EQ(load("deploy:\n  folder: /a\n  rsync: h:/b\n"), 1);
	STR_EQ(t_msgs(&cap), "folio.yml:4:10: error: deploy has both 'folder' and 'rsync': a site deploys to one target");
	INT_EQ(load("deploy: {}\n"), 1);
	STR_EQ(t_msgs(&cap), "folio.yml:2:9: error: deploy names no target: give one of folder, rsync, git or s3");
	INT_EQ(load("deploy:\n  rsync: -e sh\n"), 1);
	STR_EQ(t_msgs(&cap), "folio.yml:3:10: error: deploy.rsync starts with '-', which rsync and git would read as "
			     "an option");
	INT_EQ(load("deploy:\n  git: https://me:s3cret@host/me/site.git\n"), 1);
	STR_EQ(t_msgs(&cap), "folio.yml:3:8: error: deploy.git's repository holds a password or token "
			     "(USER:SECRET@): keep credentials out of folio.yml, in git's credential helper or an SSH key");
	OK(!t_has(t_msgs(&cap), "s3cret"));
	INT_EQ(load("deploy:\n  git: {branch: main}\n"), 1);
	OK(t_has(t_msgs(&cap), "folio.yml:3:8: error: missing required key 'repo'"));
	INT_EQ(load("deploy:\n  git: {repo: r.git, branch: \"a..b\"}\n"), 1);
	STR_EQ(t_msgs(&cap), "folio.yml:3:30: error: deploy.git.branch 'a..b' is not a name git takes for a branch "
			     "(letters, digits, '-', '_', '.' and '/', as gh-pages or site/main)");
	INT_EQ(load("deploy:\n  git: [a]\n"), 1);
	STR_EQ(t_msgs(&cap), "folio.yml:3:8: error: deploy.git must be a repository or a map {repo, branch}, found a list");
	INT_EQ(load("deploy:\n  folder: [a]\n"), 1);
	STR_EQ(t_msgs(&cap), "folio.yml:3:11: error: 'folder' must be a string, found a list");
	INT_EQ(load("deploy:\n  folder:\n"), 1);
	STR_EQ(t_msgs(&cap), "folio.yml:3:10: error: 'folder' must not be empty");
	INT_EQ(load("deploy:\n  s3: {bucket: My_Site}\n"), 1);
	STR_EQ(t_msgs(&cap), "folio.yml:3:16: error: deploy.s3.bucket 'My_Site' is not a bucket name (3 to 63 "
			     "lower-case letters, digits, '-' and '.')");
	INT_EQ(load("deploy:\n  s3: {bucket: b12, endpoint: \"https://k:secret9@s3.example.org\"}\n"), 1);
	STR_EQ(t_msgs(&cap), "folio.yml:3:31: error: deploy.s3.endpoint holds a password or token (USER:SECRET@): keep "
			     "credentials out of folio.yml, in git's credential helper or an SSH key");
	OK(!t_has(t_msgs(&cap), "secret9"));
	INT_EQ(load("deploy:\n  s3: {bucket: b12, endpoint: s3.example.org}\n"), 1);
	STR_EQ(t_msgs(&cap), "folio.yml:3:31: error: deploy.s3.endpoint must be an address "
			     "http(s)://HOST[:PORT][/PATH], with no user, query or fragment");
	INT_EQ(load("deploy:\n  s3: {bucket: b12, prefix: /blog}\n"), 1);
	STR_EQ(t_msgs(&cap), "folio.yml:3:29: error: deploy.s3.prefix '/blog' must be a folder of the bucket ending "
			     "in '/', as blog/ (nothing for its top)");
	INT_EQ(load("deploy:\n  s3: {bucket: b12, regoin: x}\n"), 1);
	STR_EQ(t_msgs(&cap), "folio.yml:3:21: error: unknown deploy.s3 key 'regoin' (did you mean 'region'?)");
	INT_EQ(load("deploy:\n  s3: b12\n"), 1);
	STR_EQ(t_msgs(&cap), "folio.yml:3:7: error: deploy.s3 must be a map {bucket, endpoint, region, prefix}, found a "
			     "string");
	INT_EQ(load("deploy:\n  git: {repo: r.git, brnch: x}\n"), 1);
	STR_EQ(t_msgs(&cap), "folio.yml:3:22: error: unknown deploy.git key 'brnch' (did you mean 'branch'?)");
}

/* entries: a site's files as output_list gives them */
static const struct output_entry site[] = {
	{"a.css", 1, 10}, {"index.html", 2, 20}, {"new.png", 3, 30}, {"posts/x/index.html", 4, 40},
	{"style.0123456789abcdef.css", 5, 50},
};

static void test_plan(void)
{
	struct deploy_record r;
	const char *text = "folio-deploy 1\ntarget folder /srv/www\n"
			   "0000000000000001 10 a.css\n"
			   "0000000000000009 20 index.html\n"
			   "0000000000000007 70 old/index.html\n"
			   "0000000000000004 40 posts/x/index.html\n"
			   "0000000000000000 0 style.0123456789abcdef.css\n";
	INT_EQ(deploy_record_parse(text, strlen(text), &r), 0);
	INT_EQ(r.n, 5);
	STR_EQ(r.target, "folder /srv/www");
	struct deploy_plan p;
	deploy_plan_make(site, 5, &r, 0, &p);
	/* uploads: the changed page, the new image, the file tried before
	 * (hash 0); the image and the stylesheet before the page; then the
	 * deletion */
	INT_EQ(p.n, 4);
	INT_EQ(p.uploads, 3);
	INT_EQ(p.deletes, 1);
	INT_EQ(p.unchanged, 2);
	STR_EQ(p.v[0].rel, "new.png");
	STR_EQ(p.v[1].rel, "style.0123456789abcdef.css");
	STR_EQ(p.v[2].rel, "index.html");
	STR_EQ(p.v[3].rel, "old/index.html");
	INT_EQ(p.v[3].op, DEPLOY_DELETE);
	/* a deploy that stopped at the page: the image done, the stylesheet
	 * tried, the page and the deletion never reached */
	p.v[0].state = DEPLOY_DONE;
	p.v[1].state = DEPLOY_TRIED;
	size_t up, del;
	deploy_plan_counts(&p, &up, &del);
	INT_EQ(up, 1);
	INT_EQ(del, 0);
	deploy_record_update(&r, &p);
	struct buf b;
	buf_init(&b);
	deploy_record_format(&r, &b);
	STR_EQ(b.p, "folio-deploy 1\ntarget folder /srv/www\n"
		    "0000000000000001 10 a.css\n"
		    "0000000000000009 20 index.html\n"
		    "0000000000000003 30 new.png\n"
		    "0000000000000007 70 old/index.html\n"
		    "0000000000000004 40 posts/x/index.html\n"
		    "0000000000000000 0 style.0123456789abcdef.css\n");
	deploy_plan_fini(&p);
	/* the next deploy: the rest, and the deletion */
	deploy_plan_make(site, 5, &r, 0, &p);
	INT_EQ(p.uploads, 2);
	INT_EQ(p.deletes, 1);
	/* the uploads done, the deletion failed: the record keeps the file,
	 * so that the deploy after it deletes it again */
	for (size_t i = 0; i < p.n; i++)
		p.v[i].state = p.v[i].op == DEPLOY_DELETE ? DEPLOY_TRIED : DEPLOY_DONE;
	deploy_record_update(&r, &p);
	buf_reset(&b);
	deploy_record_format(&r, &b);
	OK(strstr(b.p, " 70 old/index.html\n") != NULL);
	deploy_plan_fini(&p);
	deploy_plan_make(site, 5, &r, 0, &p);
	INT_EQ(p.uploads, 0);
	INT_EQ(p.deletes, 1);
	for (size_t i = 0; i < p.n; i++)
		p.v[i].state = DEPLOY_DONE;
	deploy_record_update(&r, &p);
	buf_reset(&b);
	deploy_record_format(&r, &b);
	STR_EQ(b.p, "folio-deploy 1\ntarget folder /srv/www\n"
		    "0000000000000001 10 a.css\n"
		    "0000000000000002 20 index.html\n"
		    "0000000000000003 30 new.png\n"
		    "0000000000000004 40 posts/x/index.html\n"
		    "0000000000000005 50 style.0123456789abcdef.css\n");
	deploy_plan_fini(&p);
	/* --all: every file again, nothing deleted */
	deploy_plan_make(site, 5, &r, 1, &p);
	INT_EQ(p.uploads, 5);
	INT_EQ(p.deletes, 0);
	INT_EQ(p.unchanged, 0);
	deploy_plan_fini(&p);
	/* a first deploy: no record */
	struct deploy_record none;
	memset(&none, 0, sizeof none);
	deploy_plan_make(site, 5, &none, 0, &p);
	INT_EQ(p.uploads, 5);
	STR_EQ(p.v[4].rel, "posts/x/index.html");
	deploy_plan_fini(&p);
	buf_fini(&b);
	deploy_record_fini(&r);
}

static void test_record_damaged(void)
{
	static const char *const bad[] = {
		"",
		"folio-deploy 2\ntarget folder /a\n",
		"folio-deploy 1\n0000000000000001 1 a\n",
		"folio-deploy 1\ntarget folder /a\n000000000000001 1 a\n",
		"folio-deploy 1\ntarget folder /a\n0000000000000001 x a\n",
		"folio-deploy 1\ntarget folder /a\n0000000000000001 1 \n",
		"folio-deploy 1\ntarget folder /a\n0000000000000001 1 a",
		"folio-deploy 1\ntarget folder /a\n0000000000000001 1 a\n0000000000000002 1 a\n",
		"folio-deploy 1\ntarget folder /a\n000000000000000G 1 a\n",
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		struct deploy_record r;
		INT_EQ(deploy_record_parse(bad[i], strlen(bad[i]), &r), -1);
		INT_EQ(r.n, 0);
	}
	struct deploy_record r;
	const char *ok = "folio-deploy 1\ntarget folder /a\n0000000000000001 1 a b/c d.html\n";
	INT_EQ(deploy_record_parse(ok, strlen(ok), &r), 0);
	STR_EQ(r.v[0].rel, "a b/c d.html");
	OK(deploy_record_find(&r, "a b/c d.html") != NULL);
	OK(deploy_record_find(&r, "a") == NULL);
	deploy_record_fini(&r);
}

static void test_cache_control(void)
{
	STR_EQ(deploy_cache_control("style.0123456789abcdef.css"), DEPLOY_CACHE_LONG);
	STR_EQ(deploy_cache_control("assets/enhance.19dd5995ceceb25d.js"), DEPLOY_CACHE_LONG);
	STR_EQ(DEPLOY_CACHE_LONG, "public, max-age=31536000, immutable");
	STR_EQ(deploy_cache_control("index.html"), DEPLOY_CACHE_SHORT);
	STR_EQ(deploy_cache_control("posts/x/index.html"), DEPLOY_CACHE_SHORT);
	STR_EQ(deploy_cache_control("style.css"), DEPLOY_CACHE_SHORT);
	STR_EQ(deploy_cache_control("feed.xml"), DEPLOY_CACHE_SHORT);
	/* not quite a fingerprint: 15 digits, capitals, no name, no extension */
	OK(!deploy_fingerprinted("style.0123456789abcde.css"));
	OK(!deploy_fingerprinted("style.0123456789ABCDEF.css"));
	OK(!deploy_fingerprinted(".0123456789abcdef.css"));
	OK(!deploy_fingerprinted("style.0123456789abcdef"));
	OK(!deploy_fingerprinted("style.0123456789abcdef."));
	OK(!deploy_fingerprinted("a.0123456789abcdef.css/index.html"));
	OK(deploy_fingerprinted("a.0123456789abcdef.css"));
}

static void test_words(void)
{
	char n[32];
	deploy_count(n, sizeof n, 0);
	STR_EQ(n, "0");
	deploy_count(n, sizeof n, 999);
	STR_EQ(n, "999");
	deploy_count(n, sizeof n, 2140);
	STR_EQ(n, "2,140");
	deploy_count(n, sizeof n, 1234567);
	STR_EQ(n, "1,234,567");
	char s[] = "fatal: could not read from https://me:tok3n-xyz@host/r.git and https://a:b@c/ or ssh://u@h/";
	deploy_scrub(s);
	STR_EQ(s, "fatal: could not read from https://me:***@host/r.git and https://a:*@c/ or ssh://u@h/");
	struct buf b;
	buf_init(&b);
	buf_puts(&b, "first\nfatal: https://x:secret1@h/ refused\n\n");
	STR_EQ(deploy_last_line(&b), "fatal: https://x:***@h/ refused");
	buf_fini(&b);
}

void test_deploy(void)
{
	arena = arena_new();
	buf_init(&cap);
	dir = t_tmpdir();
	test_config_targets();
	test_config_errors();
	test_plan();
	test_record_damaged();
	test_cache_control();
	test_words();
	t_rmtree(dir);
	free(dir);
	buf_fini(&cap);
	arena_free(arena);
	arena = NULL;
}
