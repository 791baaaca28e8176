/* test_build.c: the build session of folio serve: a first build, a text
 * edit that renders one page, a build with nothing to do, an error that
 * leaves the folder alone and its fix, templates, new and removed posts,
 * static files, folio.yml; after each step the folder is what build_site
 * writes, file by file. */
#include "harness.h"

#include "base/arena.h"
#include "base/buf.h"
#include "pipeline/build.h"
#include "base/diag.h"
#include "output/output.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define NOW 1790000000 /* 2026-09-21, as the golden tests use */

static char *root;
static char site[600], live[600], full[600];
static struct buf cap;
static struct build_session *sess;
static struct build_result res;

/* run: one session build; the error count, the messages in cap. */
static int run(void)
{
	struct diag d;
	diag_init(&d, NULL);
	d.defer = 1;
	buf_reset(&cap);
	d.capture = &cap;
	memset(&res, 0xAA, sizeof res);
	int e = build_session_run(sess, &d, &res);
	diag_flush(&d);
	diag_fini(&d);
	return e;
}

/* ---- folders as text ---- */

struct names {
	char **v;
	size_t n, cap;
};

static void list_files(struct names *nm, const char *dir, const char *rel)
{
	char path[4096];
	snprintf(path, sizeof path, "%s%s%s", dir, *rel ? "/" : "", rel);
	DIR *dh = opendir(path);
	if (!dh)
		return;
	struct dirent *de;
	while ((de = readdir(dh))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		char r[4096], p[8192];
		snprintf(r, sizeof r, "%s%s%s", rel, *rel ? "/" : "", de->d_name);
		snprintf(p, sizeof p, "%s/%s", dir, r);
		struct stat st;
		if (lstat(p, &st) != 0)
			continue;
		if (S_ISDIR(st.st_mode)) {
			list_files(nm, dir, r);
			continue;
		}
		if (!strcmp(r, OUTPUT_MARKER))
			continue;
		if (nm->n == nm->cap) {
			nm->cap = nm->cap ? nm->cap * 2 : 64;
			nm->v = xrealloc(nm->v, nm->cap * sizeof *nm->v);
		}
		nm->v[nm->n++] = xstrndup(r, strlen(r));
	}
	closedir(dh);
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* tree: every file below dir but the marker, sorted, as "== path\n" and
 * its bytes; empty folders as "== path/\n". Caller frees. */
static char *tree(const char *dir)
{
	struct names nm = {0};
	list_files(&nm, dir, "");
	qsort(nm.v, nm.n, sizeof *nm.v, cmp_names);
	struct buf b;
	buf_init(&b);
	for (size_t i = 0; i < nm.n; i++) {
		buf_printf(&b, "== %s\n", nm.v[i]);
		buf_puts(&b, t_read(dir, nm.v[i]));
		buf_putc(&b, '\n');
		free(nm.v[i]);
	}
	free(nm.v);
	size_t len;
	char *r = buf_detach(&b, &len);
	return r ? r : xstrndup("", 0);
}

/* files: how many files tree(dir) holds. */
static size_t files(const char *dir)
{
	struct names nm = {0};
	list_files(&nm, dir, "");
	for (size_t i = 0; i < nm.n; i++)
		free(nm.v[i]);
	free(nm.v);
	return nm.n;
}

/* empty_dirs: folders below dir with nothing in them. */
static int empty_dirs(const char *dir)
{
	DIR *dh = opendir(dir);
	if (!dh)
		return 0;
	int n = 0, entries = 0;
	struct dirent *de;
	while ((de = readdir(dh))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		entries++;
		char p[4096];
		snprintf(p, sizeof p, "%s/%s", dir, de->d_name);
		struct stat st;
		if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
			n += empty_dirs(p);
	}
	closedir(dh);
	return n + (entries == 0);
}

/* first_diff: the first line where the two texts differ, for messages. */
static const char *first_diff(const char *a, const char *b)
{
	static char line[600];
	const char *la = a, *lb = b;
	while (*a && *a == *b) {
		if (*a == '\n') {
			la = a + 1;
			lb = b + 1;
		}
		a++;
		b++;
	}
	if (!*a && !*b)
		return "";
	const char *ea = strchr(la, '\n'), *eb = strchr(lb, '\n');
	snprintf(line, sizeof line, "session: %.*s | full: %.*s", (int)(ea ? ea - la : 200), la,
		 (int)(eb ? eb - lb : 200), lb);
	return line;
}

/* same_as_full: builds the site with build_site into full/ and compares
 * it with the session's folder, file by file, byte by byte. */
static void same_as_full(const char *step)
{
	t_rmtree(full);
	struct build_request req = {.site_dir = site, .out_dir = full, .jobs = 2, .now = NOW};
	struct diag d;
	diag_init(&d, NULL);
	struct buf fcap;
	buf_init(&fcap);
	d.capture = &fcap;
	struct build_result fres;
	INT_EQ(build_site(&req, &d, &fres), 0);
	diag_fini(&d);
	buf_fini(&fcap);
	char *a = tree(live), *b = tree(full);
	const char *diff = first_diff(a, b);
	if (*diff)
		t_fail(__FILE__, __LINE__, "%s: the session's folder is not a full build's: %s", step, diff);
	else
		t_passed++;
	INT_EQ(files(live), fres.files);
	INT_EQ(empty_dirs(live), 0);
	free(a);
	free(b);
}

static void post(const char *slug, const char *fm, const char *body)
{
	char rel[256], text[4096];
	snprintf(rel, sizeof rel, "content/posts/%s.md", slug);
	snprintf(text, sizeof text, "---\n%s---\n%s", fm, body);
	t_write(site, rel, text);
}

static void test_session(void)
{
	/* search: false: the counts below are of pages (an edit also writes
	 * the search index's shards it changes; tests/cli/test_search.sh) */
	t_write(site, "folio.yml", "title: Session\nbase_url: https://example.org/\nsearch: false\n");
	post("one", "title: One\ndate: 2026-01-01\nsummary: The first.\ntags: [gpu]\n",
	     "The first post's text.\n\n## A heading\n\nMore text.\n");
	post("two", "title: Two\ndate: 2026-02-01\nsummary: The second.\ntags: [gpu, ml]\n", "The second post's text.\n");
	t_write(site, "static/img/logo.svg", "<svg/>");
	struct build_request req = {.site_dir = site, .out_dir = live, .jobs = 2, .now = NOW};
	sess = build_session_new(&req);

	/* the first build: every page rendered and written */
	INT_EQ(run(), 0);
	STR_EQ(t_msgs(&cap), "");
	OK(res.pages >= 8); /* home, two posts, tags, archive, feeds, ... */
	INT_EQ(res.rendered, res.pages);
	OK(res.written > res.pages); /* static files too */
	INT_EQ(res.removed, 0);
	INT_EQ(res.posts, 2);
	INT_EQ(res.written, files(live));
	OK(t_exists(live, OUTPUT_MARKER));
	OK(strstr(t_read(live, "posts/one/index.html"), "The first post") != NULL);
	STR_EQ(t_read(live, "img/logo.svg"), "<svg/>");
	size_t pages = res.pages;
	same_as_full("first build");

	/* nothing changed: nothing rendered, nothing written */
	INT_EQ(run(), 0);
	STR_EQ(t_msgs(&cap), "");
	INT_EQ(res.pages, pages);
	INT_EQ(res.rendered, 0);
	INT_EQ(res.written, 0);
	INT_EQ(res.removed, 0);

	/* a body edit (the summary is the front matter's): that post alone */
	post("one", "title: One\ndate: 2026-01-01\nsummary: The first.\ntags: [gpu]\n",
	     "The first post's text, edited.\n\n## A heading\n\nMore text.\n");
	INT_EQ(run(), 0);
	STR_EQ(t_msgs(&cap), "");
	INT_EQ(res.pages, pages);
	INT_EQ(res.rendered, 1);
	INT_EQ(res.written, 1);
	INT_EQ(res.removed, 0);
	OK(strstr(t_read(live, "posts/one/index.html"), "text, edited.") != NULL);
	same_as_full("a body edit");
	INT_EQ(run(), 0);
	INT_EQ(res.rendered, 0);
	INT_EQ(res.written, 0);

	/* a front matter error: reported, and the folder stays as it was */
	char *before = tree(live);
	post("one", "title: One\ndate: 2026-01-01\nsummary: The first.\ntags: [gpu]\ntitel: typo\n",
	     "Text that must not be published.\n");
	OK(run() > 0);
	STR_EQ(t_msgs(&cap), "content/posts/one.md:6:1: error: unknown front matter key 'titel' (did you mean 'title'?)");
	INT_EQ(res.written, 0);
	INT_EQ(res.removed, 0);
	char *after = tree(live);
	STR_EQ(first_diff(after, before), "");
	free(after);
	/* still an error the next time (not cached away) */
	OK(run() > 0);
	STR_EQ(t_msgs(&cap), "content/posts/one.md:6:1: error: unknown front matter key 'titel' (did you mean 'title'?)");
	after = tree(live);
	STR_EQ(first_diff(after, before), "");
	free(after);
	free(before);
	/* fixed */
	post("one", "title: One\ndate: 2026-01-01\nsummary: The first.\ntags: [gpu]\n", "The fixed text.\n");
	INT_EQ(run(), 0);
	STR_EQ(t_msgs(&cap), "");
	OK(res.rendered >= 1);
	OK(strstr(t_read(live, "posts/one/index.html"), "The fixed text.") != NULL);
	same_as_full("an error fixed");
	INT_EQ(run(), 0);
	INT_EQ(res.rendered, 0);
	INT_EQ(res.written, 0);

	/* a title edit: the post and the pages that list it */
	post("two", "title: Two, renamed\ndate: 2026-02-01\nsummary: The second.\ntags: [gpu, ml]\n",
	     "The second post's text.\n");
	INT_EQ(run(), 0);
	OK(res.rendered > 1);
	OK(res.rendered < pages);
	same_as_full("a title edit");

	/* a new post with a new tag: its pages are new */
	post("three", "title: Three\ndate: 2026-03-01\nsummary: The third.\ntags: [new-tag]\n", "Third.\n");
	INT_EQ(run(), 0);
	STR_EQ(t_msgs(&cap), "");
	INT_EQ(res.posts, 3);
	OK(res.pages > pages);
	OK(t_exists(live, "posts/three/index.html"));
	OK(t_exists(live, "tags/new-tag/index.html"));
	same_as_full("a new post");
	size_t with_three = res.pages;

	/* removed: its pages are deleted, with their folders */
	char path[800];
	snprintf(path, sizeof path, "%s/content/posts/three.md", site);
	OK(unlink(path) == 0);
	INT_EQ(run(), 0);
	INT_EQ(res.posts, 2);
	INT_EQ(res.pages, pages);
	OK(res.removed >= with_three - pages);
	OK(!t_exists(live, "posts/three"));
	OK(!t_exists(live, "tags/new-tag"));
	same_as_full("a removed post");

	/* a static file: changed, added, removed */
	t_write(site, "static/img/logo.svg", "<svg>new</svg>");
	INT_EQ(run(), 0);
	INT_EQ(res.rendered, 0);
	INT_EQ(res.written, 1);
	STR_EQ(t_read(live, "img/logo.svg"), "<svg>new</svg>");
	t_write(site, "static/extra.txt", "extra");
	INT_EQ(run(), 0);
	INT_EQ(res.written, 1);
	STR_EQ(t_read(live, "extra.txt"), "extra");
	snprintf(path, sizeof path, "%s/static/extra.txt", site);
	OK(unlink(path) == 0);
	INT_EQ(run(), 0);
	INT_EQ(res.removed, 1);
	OK(!t_exists(live, "extra.txt"));
	same_as_full("static files");

	/* a site template overriding the theme's: the pages that use it */
	t_write(site, "templates/robots.txt", "User-agent: *\nDisallow: /drafts/\n");
	INT_EQ(run(), 0);
	STR_EQ(t_msgs(&cap), "");
	INT_EQ(res.rendered, 1);
	INT_EQ(res.written, 1);
	STR_EQ(t_read(live, "robots.txt"), "User-agent: *\nDisallow: /drafts/\n");
	same_as_full("a template");
	/* a template error: reported, nothing changes */
	before = tree(live);
	t_write(site, "templates/robots.txt", "User-agent: {{ site.no_such_field }}\n");
	OK(run() > 0);
	OK(strstr(t_msgs(&cap), "templates/robots.txt") != NULL);
	after = tree(live);
	STR_EQ(first_diff(after, before), "");
	INT_EQ(files(live), files(full));
	free(after);
	free(before);
	/* back to the theme's */
	snprintf(path, sizeof path, "%s/templates/robots.txt", site);
	OK(unlink(path) == 0);
	INT_EQ(run(), 0);
	STR_EQ(t_msgs(&cap), "");
	INT_EQ(res.rendered, 1);
	same_as_full("the theme's template again");

	/* folio.yml: every page again */
	t_write(site, "folio.yml", "title: Session, renamed\nbase_url: https://example.org/\nsearch: false\n");
	INT_EQ(run(), 0);
	INT_EQ(res.rendered, res.pages);
	same_as_full("folio.yml");
	/* a folio.yml error: reported, the folder stays */
	before = tree(live);
	t_write(site, "folio.yml", "title: [unclosed\n");
	OK(run() > 0);
	after = tree(live);
	STR_EQ(first_diff(after, before), "");
	free(after);
	free(before);
	t_write(site, "folio.yml", "title: Session, renamed\nbase_url: https://example.org/\nsearch: false\n");
	INT_EQ(run(), 0);
	same_as_full("folio.yml fixed");
	INT_EQ(run(), 0);
	INT_EQ(res.rendered, 0);
	INT_EQ(res.written, 0);
	INT_EQ(res.removed, 0);

	/* a date that changes the order of the posts */
	post("two", "title: Two, renamed\ndate: 2025-12-01\nsummary: The second.\ntags: [gpu, ml]\n",
	     "The second post's text.\n");
	INT_EQ(run(), 0);
	STR_EQ(t_msgs(&cap), "");
	same_as_full("a date");
	/* a draft, and back */
	post("two", "title: Two, renamed\ndate: 2025-12-01\nsummary: The second.\ntags: [gpu, ml]\ndraft: true\n",
	     "The second post's text.\n");
	INT_EQ(run(), 0);
	INT_EQ(res.posts, 1);
	OK(!t_exists(live, "posts/two/index.html"));
	OK(!t_exists(live, "tags/ml"));
	same_as_full("a draft");
	post("two", "title: Two, renamed\ndate: 2025-12-01\nsummary: The second.\ntags: [gpu, ml]\n",
	     "The second post's text.\n");
	INT_EQ(run(), 0);
	INT_EQ(res.posts, 2);
	same_as_full("a draft published");

	/* a series, its guide edited */
	t_write(site, "content/series/gpus.md", "---\ntitle: GPUs\ndescription: All about GPUs\n---\nThe guide.\n");
	post("one", "title: One\ndate: 2026-01-01\nsummary: The first.\ntags: [gpu]\nseries: gpus\n", "The fixed text.\n");
	post("two", "title: Two, renamed\ndate: 2025-12-01\nsummary: The second.\ntags: [gpu, ml]\nseries: gpus\n",
	     "The second post's text.\n");
	INT_EQ(run(), 0);
	STR_EQ(t_msgs(&cap), "");
	OK(t_exists(live, "series/gpus/index.html"));
	same_as_full("a series");
	t_write(site, "content/series/gpus.md",
		"---\ntitle: GPUs\ndescription: All about GPUs\n---\nThe guide, rewritten.\n");
	INT_EQ(run(), 0);
	OK(res.rendered >= 1);
	OK(res.rendered < res.pages);
	OK(strstr(t_read(live, "series/gpus/index.html"), "The guide, rewritten.") != NULL);
	same_as_full("a series guide");

	/* a page, its text edited */
	t_write(site, "content/pages/about.md", "---\ntitle: About\n---\nAbout me.\n");
	INT_EQ(run(), 0);
	STR_EQ(t_msgs(&cap), "");
	same_as_full("a page");
	t_write(site, "content/pages/about.md", "---\ntitle: About\n---\nAbout me, at more length.\n");
	INT_EQ(run(), 0);
	INT_EQ(res.rendered, 1);
	same_as_full("a page's text");

	/* a post with an image in its bundle: the image replaced */
	t_write(site, "content/posts/four/index.md",
		"---\ntitle: Four\ndate: 2026-04-01\nsummary: The fourth.\n---\n![A figure](fig.svg)\n");
	t_write(site, "content/posts/four/fig.svg", "<svg width=\"10\" height=\"20\"/>");
	INT_EQ(run(), 0);
	STR_EQ(t_msgs(&cap), "");
	same_as_full("a bundle");
	t_write(site, "content/posts/four/fig.svg", "<svg width=\"30\" height=\"40\" />");
	INT_EQ(run(), 0);
	same_as_full("a bundle's image");

	/* a template that includes one that does not exist yet: adding it
	 * renders the page again */
	t_write(site, "templates/robots.txt", "A{% include \"extra.txt\" ignore missing %}B\n");
	INT_EQ(run(), 0);
	STR_EQ(t_read(live, "robots.txt"), "AB\n");
	same_as_full("an include of a missing template");
	t_write(site, "templates/extra.txt", "-extra-");
	INT_EQ(run(), 0);
	STR_EQ(t_read(live, "robots.txt"), "A-extra-B\n");
	same_as_full("the missing template added");

	build_session_free(sess);
	sess = NULL;
	/* the folder stays after the session */
	OK(t_exists(live, "index.html"));
	build_session_free(NULL);
}

static void test_refused(void)
{
	/* a folder that is not folio's: refused, left alone */
	char other[700];
	snprintf(other, sizeof other, "%s/precious", root);
	t_write(other, "thesis.tex", "years of work");
	struct build_request req = {.site_dir = site, .out_dir = other, .jobs = 1, .now = NOW};
	sess = build_session_new(&req);
	OK(run() > 0);
	char want[900];
	snprintf(want, sizeof want,
		 "%s: error: refusing to write the site here: it is not empty and was not made by folio", other);
	STR_EQ(t_msgs(&cap), want);
	STR_EQ(t_read(other, "thesis.tex"), "years of work");
	INT_EQ(files(other), 1);
	build_session_free(sess);
	sess = NULL;
}

void test_build(void)
{
	t_current = "build";
	buf_init(&cap);
	root = t_tmpdir();
	snprintf(site, sizeof site, "%s/site", root);
	snprintf(live, sizeof live, "%s/live", root);
	snprintf(full, sizeof full, "%s/full", root);
	test_session();
	test_refused();
	t_rmtree(root);
	free(root);
	root = NULL;
	buf_fini(&cap);
}
