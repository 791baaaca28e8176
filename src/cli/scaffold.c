/* scaffold.c: new sites and posts, written from templates kept here. */
#include "cli/scaffold.h"

#include "base/arena.h"
#include "base/buf.h"
#include "base/file.h"
#include "files/reader.h"
#include "read/content.h"
#include "base/slug.h"
#include "formats/yaml.h"
#include "cache/cache.h"
#include "base/version.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

struct file {
	const char *path;
	const char *text;
};

static const struct file site_files[] = {
	{"folio.yml",
	 "# The site's settings: see folio-site(5).\n"
	 "title: \"My Technical Notes\"\n"
	 "tagline: \"Long-form notes on systems, one series at a time\"\n"
	 "description: \"Writing for engineers who want the deeper model.\"\n"
	 "base_url: \"https://example.org/\"\n"
	 "language: en\n"
	 "timezone: UTC\n"
	 "author:\n"
	 "  name: \"Your Name\"\n"
	 "posts_per_page: 10\n"
	 "start_here: about\n"
	 "featured_series:\n"
	 "  - first-steps\n"
	 "best_of:\n"
	 "  - post: why-this-blog\n"
	 "    note: \"What this blog is about, in five minutes.\"\n"
	 "menu:\n"
	 "  - {label: Home, url: /}\n"
	 "  - {label: Series, url: /series/}\n"
	 "  - {label: Archive, url: /archive/}\n"
	 "  - {label: About, url: /about/}\n"},
	{".gitignore", "public/\n" CACHE_DIR "/\n"},
	{"content/series/first-steps.md",
	 "---\n"
	 "title: \"First Steps\"\n"
	 "description: \"A three-part walk from an empty folder to a published series\"\n"
	 "difficulty: beginner\n"
	 "best_for: \"Writers starting their first series\"\n"
	 "audience: \"Anyone with a text editor and something to explain.\"\n"
	 "recommended_start: first-steps-1-the-plan\n"
	 "featured: true\n"
	 "weight: 1\n"
	 "---\n"
	 "This series shows how a series is put together. Read it in order: each\n"
	 "part builds on the one before.\n"},
	{"content/posts/first-steps-1-the-plan.md",
	 "---\n"
	 "title: \"First Steps 1 - The Plan\"\n"
	 "date: 2026-01-05\n"
	 "summary: \"What the series covers and how to read it.\"\n"
	 "category: Guides\n"
	 "tags: [writing, series]\n"
	 "series: first-steps\n"
	 "series_order: 1\n"
	 "---\n"
	 "A series is an ordered path through a topic. This first part sets the plan.\n"
	 "\n"
	 "## What you will build\n"
	 "\n"
	 "Three short posts, each with a **summary**, tags, and a place in the series.\n"
	 "\n"
	 "## How to read it\n"
	 "\n"
	 "In order: the [next part](/posts/first-steps-2-the-details/) assumes this one.\n"
	 "\n"
	 "## What you need\n"
	 "\n"
	 "| Tool | Why |\n"
	 "|------|-----|\n"
	 "| folio | builds the site |\n"
	 "| an editor | writes the Markdown |\n"},
	{"content/posts/first-steps-2-the-details.md",
	 "---\n"
	 "title: \"First Steps 2 - The Details\"\n"
	 "date: 2026-01-12\n"
	 "category: Guides\n"
	 "tags: [writing, markdown]\n"
	 "series: first-steps\n"
	 "series_order: 2\n"
	 "---\n"
	 "Posts are Markdown with a YAML front matter. Code is fenced:\n"
	 "\n"
	 "```c\n"
	 "#include <stdio.h>\n"
	 "\n"
	 "int main(void)\n"
	 "{\n"
	 "\tputs(\"hello, series\");\n"
	 "\treturn 0;\n"
	 "}\n"
	 "```\n"
	 "\n"
	 "Math is written as TeX: the area of a circle is $A = \\pi r^2$.[^1]\n"
	 "\n"
	 "[^1]: Footnotes work too.\n"},
	{"content/posts/first-steps-3-publishing.md",
	 "---\n"
	 "title: \"First Steps 3 - Publishing\"\n"
	 "date: 2026-01-19\n"
	 "category: Guides\n"
	 "tags: [writing, publishing]\n"
	 "series: first-steps\n"
	 "series_order: 3\n"
	 "---\n"
	 "`folio build` writes the site into `public/`; copy that folder to any web\n"
	 "server or CDN.\n"
	 "\n"
	 "- [x] write the posts\n"
	 "- [ ] publish them\n"},
	{"content/posts/why-this-blog.md",
	 "---\n"
	 "title: \"Why This Blog\"\n"
	 "date: 2026-01-02\n"
	 "summary: \"What to expect here, and how the series fit together.\"\n"
	 "category: Notes\n"
	 "tags: [meta]\n"
	 "---\n"
	 "This blog collects long-form notes. Start with the [First Steps](/series/first-steps/) series.\n"},
	{"content/pages/about.md",
	 "---\n"
	 "title: \"About\"\n"
	 "description: \"Who writes here, and why.\"\n"
	 "---\n"
	 "Hello! This page is `content/pages/about.md`. Edit it to introduce yourself.\n"},
	{NULL, NULL},
};

static void fs_error(struct diag *d, const char *path, const char *what)
{
	struct diag_loc loc = {path, NULL, 0, 0, 0};
	diag_error(d, &loc, "%s: %s", what, strerror(errno));
}

/* write_new: creates path with text; never over an existing file
 * (base/file.c). */
static int write_new(struct diag *d, const char *path, const char *text)
{
	int fail = file_create_new(path, text, strlen(text));
	if (fail)
		fs_error(d, path, fail == FILE_FAIL_CREATE && errno == EEXIST ? "already exists; not overwritten"
									     : file_fail_what(fail));
	return fail ? -1 : 0;
}

int scaffold_site(struct diag *d, const char *dir)
{
	if (file_dir_empty(dir) == 0) {
		struct diag_loc loc = {dir, NULL, 0, 0, 0};
		diag_error(d, &loc, "the folder exists and is not empty (choose a new folder name)");
		return -1;
	}
	for (const struct file *f = site_files; f->path; f++) {
		char path[4096];
		snprintf(path, sizeof path, "%s/%s", dir, f->path);
		if (write_new(d, path, f->text))
			return -1;
	}
	return 0;
}

/* The CI workflows of folio new site --ci: where each goes, and its text
 * with @VERSION@ for the running folio's version (the release it fetches). */
static const struct file ci_files[] = {
	{".github/workflows/folio.yml",
	"# Builds this site with folio's release binary and publishes it on GitHub\n"
	"# Pages. Written by `folio new site --ci github` (folio @VERSION@).\n"
	"#\n"
	"# Once: Settings > Pages > Source: \"GitHub Actions\"; and Settings > Secrets\n"
	"# and variables > Actions > Variables: FOLIO_RELEASE_URL, the address of the\n"
	"# folder that holds folio-@VERSION@-linux-x86_64.tar.gz and its .sha256 (as\n"
	"# `make dist` writes them; a release of your own repository will do).\n"
	"name: folio\n"
	"on:\n"
	"  push:\n"
	"    branches: [main]\n"
	"  workflow_dispatch:\n"
	"permissions:\n"
	"  contents: read\n"
	"  pages: write\n"
	"  id-token: write\n"
	"concurrency:\n"
	"  group: pages\n"
	"  cancel-in-progress: false\n"
	"env:\n"
	"  FOLIO_VERSION: \"@VERSION@\"\n"
	"  FOLIO_RELEASE_URL: ${{ vars.FOLIO_RELEASE_URL }}\n"
	"jobs:\n"
	"  build:\n"
	"    runs-on: ubuntu-24.04\n"
	"    steps:\n"
	"      - uses: actions/checkout@v4\n"
	"      - name: Install folio\n"
	"        run: |\n"
	"          set -eu\n"
	"          name=folio-$FOLIO_VERSION-linux-x86_64\n"
	"          curl -fsSL -o \"$name.tar.gz\" \"$FOLIO_RELEASE_URL/$name.tar.gz\"\n"
	"          curl -fsSL -o \"$name.tar.gz.sha256\" \"$FOLIO_RELEASE_URL/$name.tar.gz.sha256\"\n"
	"          sha256sum -c \"$name.tar.gz.sha256\"\n"
	"          tar -xzf \"$name.tar.gz\" -C \"$RUNNER_TEMP\"\n"
	"          sudo apt-get install -y -qq libcjson1 >/dev/null\n"
	"          echo \"$RUNNER_TEMP/$name\" >>\"$GITHUB_PATH\"\n"
	"      - id: pages\n"
	"        uses: actions/configure-pages@v5\n"
	"      - name: Build\n"
	"        run: folio build --base-url \"${{ steps.pages.outputs.base_url }}/\"\n"
	"      - uses: actions/upload-pages-artifact@v3\n"
	"        with:\n"
	"          path: public\n"
	"  deploy:\n"
	"    needs: build\n"
	"    runs-on: ubuntu-24.04\n"
	"    environment:\n"
	"      name: github-pages\n"
	"      url: ${{ steps.deployment.outputs.page_url }}\n"
	"    steps:\n"
	"      - id: deployment\n"
	"        uses: actions/deploy-pages@v4\n"},
	{".gitlab-ci.yml",
	"# Builds this site with folio's release binary and publishes it on GitLab\n"
	"# Pages. Written by `folio new site --ci gitlab` (folio @VERSION@).\n"
	"#\n"
	"# Once: Settings > CI/CD > Variables: FOLIO_RELEASE_URL, the address of the\n"
	"# folder that holds folio-@VERSION@-linux-x86_64.tar.gz and its .sha256 (as\n"
	"# `make dist` writes them; a release of your own project will do).\n"
	"variables:\n"
	"  FOLIO_VERSION: \"@VERSION@\"\n"
	"pages:\n"
	"  image: debian:12-slim\n"
	"  script:\n"
	"    - apt-get update -qq && apt-get install -y -qq curl ca-certificates libcurl4 libcjson1 >/dev/null\n"
	"    - name=folio-$FOLIO_VERSION-linux-x86_64\n"
	"    - curl -fsSL -o \"$name.tar.gz\" \"$FOLIO_RELEASE_URL/$name.tar.gz\"\n"
	"    - curl -fsSL -o \"$name.tar.gz.sha256\" \"$FOLIO_RELEASE_URL/$name.tar.gz.sha256\"\n"
	"    - sha256sum -c \"$name.tar.gz.sha256\"\n"
	"    - tar -xzf \"$name.tar.gz\" -C /tmp\n"
	"    - /tmp/$name/folio build --base-url \"$CI_PAGES_URL/\"\n"
	"  artifacts:\n"
	"    paths:\n"
	"      - public\n"
	"  rules:\n"
	"    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH\n"},
	{NULL, NULL},
};

int scaffold_ci(struct diag *d, const char *dir, const char *kind, char *path_out, size_t size)
{
	const struct file *f = !strcmp(kind, "github") ? &ci_files[0] : !strcmp(kind, "gitlab") ? &ci_files[1] : NULL;
	if (!f) {
		struct diag_loc loc = {"--ci", NULL, 0, 0, 0};
		diag_error(d, &loc, "unknown CI '%s' (use 'github' or 'gitlab')", kind);
		return -1;
	}
	struct buf b;
	buf_init(&b);
	for (const char *p = f->text, *at; *p; p = at + 9) {
		at = strstr(p, "@VERSION@");
		if (!at) {
			buf_puts(&b, p);
			break;
		}
		buf_append(&b, p, (size_t)(at - p));
		buf_puts(&b, FOLIO_VERSION);
	}
	snprintf(path_out, size, "%s/%s", dir, f->path);
	int rc = write_new(d, path_out, b.p);
	buf_fini(&b);
	return rc;
}

/* yaml_quote: title as a double-quoted YAML string. */
static void yaml_quote(struct buf *b, const char *s)
{
	buf_putc(b, '"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			buf_putc(b, '\\');
		if (*s == '\n')
			buf_puts(b, "\\n");
		else
			buf_putc(b, *s);
	}
	buf_putc(b, '"');
}

/* series_keys: what a series file holds, for an error about a missing one. */
static const char series_keys[] =
	"a series is content/series/SLUG.md with front matter: title and description (required), "
	"difficulty, best_for, audience, recommended_start, posts, featured, weight; "
	"'folio new series SLUG --title \"...\"' writes one";

/* next_part: one more than the highest series_order that a post of
 * site_dir gives in series. */
static int next_part(struct arena *a, const char *site_dir, const char *series)
{
	int order = 0;
	char pdir[4096];
	snprintf(pdir, sizeof pdir, "%s/content/posts", site_dir);
	/* the posts as the site's reader lists them (hidden files and an
	 * editor's backups are none) */
	size_t nnames;
	char **names = site_list(pdir, &nnames);
	for (size_t i = 0; i < nnames; i++) {
		const char *name = names[i];
		size_t n = strlen(name);
		char fp[8192];
		if (n >= 4 && !strcmp(name + n - 3, ".md"))
			snprintf(fp, sizeof fp, "%s/%s", pdir, name);
		else
			snprintf(fp, sizeof fp, "%s/%s/index.md", pdir, name); /* a bundle */
		size_t len;
		struct site_file f = {fp, fp, (size_t)-2, "", SITE_READ_QUIET};
		char *text = site_read(NULL, NULL, &f, NULL, &len, NULL);
		if (!text)
			continue;
		struct source s;
		const char *fm;
		size_t fm_len;
		struct diag quiet;
		diag_init(&quiet, NULL);
		if (content_split(&quiet, fp, text, len, &fm, &fm_len, &s) == 1) {
			struct ynode *root = yaml_parse(a, &quiet, fp, text, len, fm, fm_len, 1);
			struct ynode *sn = yaml_map_get(root, "series"), *on = yaml_map_get(root, "series_order");
			int64_t v;
			if (sn && str_eq_cstr(sn->str, series) && yaml_as_int(on, &v) && v >= order && v < 100000)
				order = (int)v;
		}
		diag_fini(&quiet);
		free(text);
	}
	site_list_free(names, nnames);
	return order + 1;
}

/* The series file's posts: list, where a new slug goes. */
struct series_list {
	char *text; /* the series file (malloc'd) */
	size_t len;
	int has_list;     /* it has a posts: key */
	size_t insert_at; /* block list: the offset after its last item's line */
	char indent[64];  /* and that line's indentation before its '-' */
	int block;        /* a block list with at least one item */
};

/* series_read: the series file at path, and where its posts: list ends. 0,
 * or -1 after reporting to d. */
static int series_read(struct diag *d, struct arena *a, const char *path, const char *slug, struct series_list *sl)
{
	memset(sl, 0, sizeof *sl);
	struct site_file f = {path, path, (size_t)-2, "", SITE_READ_QUIET};
	sl->text = site_read(NULL, NULL, &f, NULL, &sl->len, NULL);
	if (!sl->text) {
		struct diag_loc loc = {"--series", NULL, 0, 0, 0};
		diag_error(d, &loc, "no series '%s' (content/series/%s.md does not exist); %s", slug, slug, series_keys);
		return -1;
	}
	struct source s;
	const char *fm;
	size_t fm_len;
	if (content_split(d, path, sl->text, sl->len, &fm, &fm_len, &s) != 1) {
		struct diag_loc loc = {path, NULL, 0, 0, 0};
		diag_error(d, &loc, "the series file has no front matter; %s", series_keys);
		return -1;
	}
	int before = d->errors;
	struct ynode *root = yaml_parse(a, d, path, sl->text, sl->len, fm, fm_len, 1);
	if (!root || d->errors > before)
		return -1;
	struct ynode *posts = yaml_map_get(root, "posts");
	if (!posts)
		return 0;
	sl->has_list = 1;
	if (posts->kind != YNODE_SEQ || !posts->len)
		return 0;
	/* the line of the last item: the new one goes after it, indented
	 * the same */
	const struct ynode *last = posts->items[posts->len - 1];
	size_t off = 0;
	for (int line = 1; line < last->line && off < sl->len; off++)
		if (sl->text[off] == '\n')
			line++;
	size_t k = off;
	while (k < sl->len && (sl->text[k] == ' ' || sl->text[k] == '\t'))
		k++;
	if (k >= sl->len || sl->text[k] != '-' || k - off >= sizeof sl->indent)
		return 0; /* a flow list [a, b]: not edited */
	memcpy(sl->indent, sl->text + off, k - off);
	sl->indent[k - off] = '\0';
	while (off < sl->len && sl->text[off] != '\n')
		off++;
	if (off < sl->len)
		off++;
	sl->insert_at = off;
	sl->block = 1;
	return 0;
}

/* replace_file: path's text made text[0..len), through a temporary file
 * and a rename (base/file.c). 0, or -1 after reporting to d. */
static int replace_file(struct diag *d, const char *path, const char *text, size_t len)
{
	int fail = file_replace(path, text, len);
	if (fail == FILE_FAIL_CREATE) {
		char tmp[4200];
		snprintf(tmp, sizeof tmp, "%s" FILE_TEMP_SUFFIX, path);
		fs_error(d, tmp, "cannot create");
	} else if (fail)
		fs_error(d, path, "cannot write");
	return fail ? -1 : 0;
}

int scaffold_post(struct diag *d, const struct scaffold_post_opts *o, struct scaffold_result *r)
{
	memset(r, 0, sizeof *r);
	const char *site_dir = o->site_dir;
	char cfg[4096];
	snprintf(cfg, sizeof cfg, "%s/folio.yml", site_dir);
	if (access(cfg, F_OK) != 0) {
		struct diag_loc loc = {site_dir, NULL, 0, 0, 0};
		diag_error(d, &loc, "not a site folder (no folio.yml); run this in the site, or pass --dir SITE");
		return -1;
	}
	struct arena *a = arena_new();
	struct str slug = slugify(a, str_from(o->title));
	if (!slug.len || slug.len >= sizeof r->slug) {
		struct diag_loc loc = {"title", NULL, 0, 0, 0};
		diag_error(d, &loc, slug.len ? "the title '%s' is too long to make a file name from"
					     : "the title '%s' has no letter or digit to make a file name from",
			   o->title);
		arena_free(a);
		return -1;
	}
	snprintf(r->slug, sizeof r->slug, "%.*s", STR_FMT(slug));
	/* a post of that slug in either form is never overwritten */
	char flat[4096], bundle[4096];
	snprintf(flat, sizeof flat, "%s/content/posts/%s.md", site_dir, r->slug);
	snprintf(bundle, sizeof bundle, "%s/content/posts/%s/index.md", site_dir, r->slug);
	const char *clash = access(flat, F_OK) == 0 ? flat : access(bundle, F_OK) == 0 ? bundle : NULL;
	if (clash) {
		struct diag_loc loc = {clash, NULL, 0, 0, 0};
		diag_error(d, &loc, "a post with the slug '%s' exists already; not overwritten (choose another title)",
			   r->slug);
		arena_free(a);
		return -1;
	}
	snprintf(r->path, sizeof r->path, "%s", o->bundle ? bundle : flat);
	struct series_list sl;
	memset(&sl, 0, sizeof sl);
	int order = 0;
	if (o->series) {
		snprintf(r->series_path, sizeof r->series_path, "%s/content/series/%s.md", site_dir, o->series);
		if (series_read(d, a, r->series_path, o->series, &sl)) {
			free(sl.text);
			arena_free(a);
			return -1;
		}
		if (sl.has_list && !sl.block) {
			struct diag_loc loc = {r->series_path, NULL, 0, 0, 0};
			diag_error(d, &loc,
				   "its posts: list is not a list of lines ('  - slug'), so the new post cannot be added "
				   "to it (hint: write it as one slug per line, or add '%s' to it yourself)",
				   r->slug);
			free(sl.text);
			arena_free(a);
			return -1;
		}
		if (!sl.has_list)
			order = next_part(a, site_dir, o->series);
	}
	time_t now = time(NULL);
	struct tm tm;
	gmtime_r(&now, &tm);
	struct buf b;
	buf_init(&b);
	buf_puts(&b, "---\ntitle: ");
	yaml_quote(&b, o->title);
	buf_printf(&b, "\ndate: %04d-%02d-%02dT%02d:%02d:%02dZ\n", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
		   tm.tm_hour, tm.tm_min, tm.tm_sec);
	buf_puts(&b, "summary: \"\"\ntags: []\n");
	if (o->draft)
		buf_puts(&b, "draft: true\n");
	if (o->series) {
		buf_printf(&b, "series: %s\n", o->series);
		if (order)
			buf_printf(&b, "series_order: %d\n", order);
	}
	buf_puts(&b, "---\n");
	buf_puts(&b, o->draft ? "Write the post here. Remove `draft: true` to publish it.\n"
			      : "Write the post here.\n");
	if (o->bundle)
		buf_puts(&b, "\nImages and other files of this post go beside this file, in its folder:\n"
			     "`![a figure](figure.png)` shows `figure.png` from here.\n");
	int rc = write_new(d, r->path, b.p);
	buf_fini(&b);
	if (!rc && sl.block) {
		/* the slug after the last item of the series' posts: list */
		struct buf t;
		buf_init(&t);
		buf_append(&t, sl.text, sl.insert_at);
		if (sl.insert_at && sl.text[sl.insert_at - 1] != '\n')
			buf_putc(&t, '\n');
		buf_printf(&t, "%s- %s\n", sl.indent, r->slug);
		buf_append(&t, sl.text + sl.insert_at, sl.len - sl.insert_at);
		rc = replace_file(d, r->series_path, t.p, t.len);
		buf_fini(&t);
		r->series_listed = !rc;
	}
	free(sl.text);
	arena_free(a);
	return rc;
}

int scaffold_series(struct diag *d, const struct scaffold_series_opts *o, char *path_out, size_t size)
{
	char cfg[4096];
	snprintf(cfg, sizeof cfg, "%s/folio.yml", o->site_dir);
	if (access(cfg, F_OK) != 0) {
		struct diag_loc loc = {o->site_dir, NULL, 0, 0, 0};
		diag_error(d, &loc, "not a site folder (no folio.yml); run this in the site, or pass --dir SITE");
		return -1;
	}
	struct arena *a = arena_new();
	struct str slug = slugify(a, str_from(o->slug));
	if (!slug.len || !str_eq_cstr(slug, o->slug)) {
		struct diag_loc loc = {"slug", NULL, 0, 0, 0};
		diag_error(d, &loc, "'%s' is not a slug (lower-case letters, digits and '-'%s%.*s)", o->slug,
			   slug.len ? "; did you mean " : "", (int)slug.len, slug.p ? slug.p : "");
		arena_free(a);
		return -1;
	}
	snprintf(path_out, size, "%s/content/series/%s.md", o->site_dir, o->slug);
	struct buf b;
	buf_init(&b);
	buf_puts(&b, "---\ntitle: ");
	yaml_quote(&b, o->title);
	buf_puts(&b, "\ndescription: ");
	yaml_quote(&b, o->description ? o->description : "One or two sentences on what this series covers.");
	buf_printf(&b,
		   "\n%sdifficulty: %s        # beginner, intermediate or advanced\n"
		   "# best_for: \"Who should read it\"\n"
		   "# audience: \"A longer line about the readers it is written for.\"\n"
		   "# recommended_start: a-post-slug   # default: the first post\n"
		   "# posts:                           # the order; default: series_order, then date\n"
		   "#   - first-post-slug\n"
		   "#   - second-post-slug\n"
		   "# featured: true                   # on the home page\n"
		   "# weight: 0                        # lower comes first in lists\n"
		   "---\n"
		   "The series guide: what the series covers, who it is for, and how to\n"
		   "read it. Add parts with: folio new post \"TITLE\" --series %s\n",
		   o->difficulty ? "" : "# ", o->difficulty ? o->difficulty : "beginner", o->slug);
	int rc = write_new(d, path_out, b.p);
	buf_fini(&b);
	arena_free(a);
	return rc;
}
