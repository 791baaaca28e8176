/* scaffold.c: new sites and posts, written from templates kept here. */
#include "scaffold.h"

#include "arena.h"
#include "buf.h"
#include "content.h"
#include "slug.h"
#include "yaml.h"

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
	{".gitignore", "public/\n.folio-cache/\n"},
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

static int make_parents(const char *path)
{
	char tmp[4096];
	snprintf(tmp, sizeof tmp, "%s", path);
	for (char *p = strchr(tmp + 1, '/'); p; p = strchr(p + 1, '/')) {
		*p = '\0';
		if (mkdir(tmp, 0755) != 0 && errno != EEXIST)
			return -1;
		*p = '/';
	}
	return 0;
}

/* write_new: creates path with text; fails if it exists (O_EXCL). */
static int write_new(struct diag *d, const char *path, const char *text)
{
	if (make_parents(path)) {
		fs_error(d, path, "cannot make its folder");
		return -1;
	}
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0) {
		fs_error(d, path, errno == EEXIST ? "already exists; not overwritten" : "cannot create");
		return -1;
	}
	size_t n = strlen(text);
	ssize_t w = write(fd, text, n);
	if (w < 0 || (size_t)w != n || close(fd) != 0) {
		fs_error(d, path, "cannot write");
		return -1;
	}
	return 0;
}

int scaffold_site(struct diag *d, const char *dir)
{
	DIR *dh = opendir(dir);
	if (dh) {
		struct dirent *de;
		while ((de = readdir(dh)))
			if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")) {
				closedir(dh);
				struct diag_loc loc = {dir, NULL, 0, 0, 0};
				diag_error(d, &loc, "the folder exists and is not empty (choose a new folder name)");
				return -1;
			}
		closedir(dh);
	}
	for (const struct file *f = site_files; f->path; f++) {
		char path[4096];
		snprintf(path, sizeof path, "%s/%s", dir, f->path);
		if (write_new(d, path, f->text))
			return -1;
	}
	return 0;
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

int scaffold_post(struct diag *d, const char *site_dir, const char *title, const char *series, char *path_out,
		  size_t path_size)
{
	char cfg[4096];
	snprintf(cfg, sizeof cfg, "%s/folio.yml", site_dir);
	if (access(cfg, F_OK) != 0) {
		struct diag_loc loc = {site_dir, NULL, 0, 0, 0};
		diag_error(d, &loc, "not a site folder (no folio.yml); run this in the site, or pass --dir SITE");
		return -1;
	}
	struct arena *a = arena_new();
	struct str slug = slugify(a, str_from(title));
	if (!slug.len) {
		struct diag_loc loc = {"title", NULL, 0, 0, 0};
		diag_error(d, &loc, "the title '%s' has no letter or digit to make a file name from", title);
		arena_free(a);
		return -1;
	}
	int order = 0;
	if (series) {
		char spath[4096];
		snprintf(spath, sizeof spath, "%s/content/series/%s.md", site_dir, series);
		if (access(spath, F_OK) != 0) {
			struct diag_loc loc = {"--series", NULL, 0, 0, 0};
			diag_error(d, &loc, "no series '%s' (content/series/%s.md does not exist)", series, series);
			arena_free(a);
			return -1;
		}
		/* the next part: one more than the highest series_order in use */
		char pdir[4096];
		snprintf(pdir, sizeof pdir, "%s/content/posts", site_dir);
		DIR *dh = opendir(pdir);
		struct dirent *de;
		while (dh && (de = readdir(dh))) {
			size_t n = strlen(de->d_name);
			if (n < 4 || strcmp(de->d_name + n - 3, ".md"))
				continue;
			char fp[8192];
			snprintf(fp, sizeof fp, "%s/%s", pdir, de->d_name);
			size_t len;
			char *text = read_file(fp, &len);
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
				if (sn && str_eq_cstr(sn->str, series) && yaml_as_int(on, &v) && v >= order)
					order = (int)v;
			}
			diag_fini(&quiet);
			free(text);
		}
		if (dh)
			closedir(dh);
		order++;
	}
	snprintf(path_out, path_size, "%s/content/posts/%.*s.md", site_dir, STR_FMT(slug));
	time_t now = time(NULL);
	struct tm tm;
	gmtime_r(&now, &tm);
	struct buf b;
	buf_init(&b);
	buf_puts(&b, "---\ntitle: ");
	yaml_quote(&b, title);
	buf_printf(&b, "\ndate: %04d-%02d-%02dT%02d:%02d:%02dZ\n", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
		   tm.tm_hour, tm.tm_min, tm.tm_sec);
	buf_puts(&b, "summary: \"\"\ntags: []\ndraft: true\n");
	if (series)
		buf_printf(&b, "series: %s\nseries_order: %d\n", series, order);
	buf_puts(&b, "---\nWrite the post here. Remove `draft: true` to publish it.\n");
	int rc = write_new(d, path_out, b.p);
	buf_fini(&b);
	arena_free(a);
	return rc;
}
