/* test_content.c: front matter splitting (BOM, CRLF, '...', unclosed), the
 * post, series, page and data readers, on a site folder made under /tmp, and
 * the session's cache of parsed files. */
#include "harness.h"

#include "base/arena.h"
#include "base/buf.h"
#include "cache/srccache.h"
#include "read/config.h"
#include "read/content.h"
#include "base/diag.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static struct arena *arena;
static struct buf cap;

/* ---- content_split ---- */

static const char *fm_text;
static size_t fm_len;
static struct source src;

static int split_n(const char *text, size_t n)
{
	struct diag d;
	diag_init(&d, NULL);
	buf_reset(&cap);
	d.capture = &cap;
	fm_text = NULL;
	fm_len = 0;
	memset(&src, 0, sizeof src);
	int r = content_split(&d, "content/posts/x.md", text, n, &fm_text, &fm_len, &src);
	diag_fini(&d);
	return r;
}

static int split(const char *text)
{
	return split_n(text, strlen(text));
}

static const char *fm(void)
{
	return fm_text ? arena_strndup(arena, fm_text, fm_len) : "(none)";
}

static const char *body(void)
{
	return src.body ? arena_strndup(arena, src.body, src.body_len) : "(none)";
}

static void test_split(void)
{
	INT_EQ(split("---\ntitle: T\ndate: 2026-01-01\n---\nHello\n"), 1);
	STR_EQ(fm(), "title: T\ndate: 2026-01-01\n");
	STR_EQ(body(), "Hello\n");
	INT_EQ(src.body_line, 4);
	STR_EQ(src.path, "content/posts/x.md");
	INT_EQ(src.len, 40);

	/* empty front matter */
	INT_EQ(split("---\n---\nbody"), 1);
	STR_EQ(fm(), "");
	STR_EQ(body(), "body");
	INT_EQ(src.body_line, 2);

	/* a byte order mark before the fence */
	INT_EQ(split("\xEF\xBB\xBF---\ntitle: T\n---\nB\n"), 1);
	STR_EQ(fm(), "title: T\n");
	STR_EQ(body(), "B\n");
	INT_EQ(src.body_line, 3);
	/* and without front matter: the mark is not part of the body */
	INT_EQ(split("\xEF\xBB\xBFJust text\n"), 0);
	STR_EQ(body(), "Just text\n");
	INT_EQ(src.body_line, 0);

	/* CRLF line ends */
	INT_EQ(split("---\r\ntitle: T\r\n---\r\nBody\r\n"), 1);
	STR_EQ(fm(), "title: T\r\n");
	STR_EQ(body(), "Body\r\n");
	INT_EQ(src.body_line, 3);

	/* '...' ends a YAML document too */
	INT_EQ(split("---\ntitle: T\n...\nBody\n"), 1);
	STR_EQ(fm(), "title: T\n");
	STR_EQ(body(), "Body\n");
	/* trailing blanks after a fence */
	INT_EQ(split("---  \ntitle: T\n--- \t\nBody\n"), 1);
	STR_EQ(fm(), "title: T\n");
	STR_EQ(body(), "Body\n");
	/* the closing fence is the last line, with no newline */
	INT_EQ(split("---\ntitle: T\n---"), 1);
	STR_EQ(fm(), "title: T\n");
	STR_EQ(body(), "");
	/* a later '---' (a thematic break) belongs to the body */
	INT_EQ(split("---\na: 1\n---\nx\n\n---\n\ny\n"), 1);
	STR_EQ(fm(), "a: 1\n");
	STR_EQ(body(), "x\n\n---\n\ny\n");

	/* not front matter */
	INT_EQ(split("Hello\n---\n"), 0);
	STR_EQ(body(), "Hello\n---\n");
	OK(fm_text == NULL);
	INT_EQ(split("----\ntitle: T\n----\n"), 0);
	INT_EQ(split("--- title: T\n---\n"), 0);
	INT_EQ(split("\n---\ntitle: T\n---\n"), 0);
	INT_EQ(split(" ---\ntitle: T\n---\n"), 0);
	INT_EQ(split(""), 0);
	STR_EQ(body(), "");
	STR_EQ(t_msgs(&cap), "");
	/* '...' does not open front matter */
	INT_EQ(split("...\ntitle: T\n...\n"), 0);

	/* never closed */
	INT_EQ(split("---\ntitle: T\n\nThe text, but no closing line.\n"), -1);
	STR_EQ(cap.p, "content/posts/x.md:1:1: error: front matter is never closed (hint: end it with a line '---' before "
		      "the text)\n"
		      " 1 | ---\n"
		      "   | ^\n");
	INT_EQ(split("---\n"), -1);
	INT_EQ(split("---"), -1);
	INT_EQ(split("---\ntitle: T\n---x\n"), -1);
	/* a NUL inside the text does not end it */
	INT_EQ(split_n("---\na: \"\0\"\n---\nB", 16), 1);
	INT_EQ(fm_len, 7);
}

/* ---- the readers, on a site folder ---- */

static char *site;
static struct config cfg;
static struct content c;

static void reset_site(void)
{
	if (site) {
		t_rmtree(site);
		free(site);
	}
	site = t_tmpdir();
}

static int load_tz(const char *tz)
{
	memset(&cfg, 0, sizeof cfg);
	cfg.timezone = str_from(tz);
	struct diag d;
	diag_init(&d, NULL);
	buf_reset(&cap);
	d.capture = &cap;
	int e = content_load(arena, &d, site, &cfg, &c);
	diag_fini(&d);
	return e;
}

static int load(void)
{
	return load_tz("UTC");
}

static const char *sv(struct str s)
{
	return arena_strndup(arena, s.p ? s.p : "", s.len);
}

static void test_post_fields(void)
{
	reset_site();
	t_write(site, "content/posts/full-post.md",
		"---\n"
		"title: \"Full: a post\"\n"
		"date: 2026-03-04 05:06\n"
		"updated: 2026-04-01T10:00:00+02:00\n"
		"summary: Short.\n"
		"category: \"  ML Systems \"\n"
		"tags: [cuda, \"GPU Memory\"]\n"
		"series: gpu\n"
		"series_order: 3\n"
		"difficulty: Advanced\n"
		"draft: true\n"
		"slug: custom-slug\n"
		"aliases: [/old/url/, /older.html]\n"
		"toc: false\n"
		"reading_time: 12\n"
		"description: Meta text.\n"
		"image: /img/card.png\n"
		"---\n"
		"Body text.\n");
	t_write(site, "content/posts/minimal.md", "---\ntitle: Minimal\ndate: 2026-01-02\n---\n");
	INT_EQ(load_tz("Asia/Seoul"), 0);
	STR_EQ(t_msgs(&cap), "");
	INT_EQ(c.nposts, 2);
	if (c.nposts != 2)
		return;
	struct post *p = c.posts[0];
	STR_EQ(p->s.path, "content/posts/full-post.md");
	STR_EQ(sv(p->title), "Full: a post");
	STR_EQ(sv(p->date.iso), "2026-03-04T05:06:00+09:00");
	INT_EQ(p->has_updated, 1);
	STR_EQ(sv(p->updated.iso), "2026-04-01T10:00:00+02:00");
	STR_EQ(sv(p->summary), "Short.");
	STR_EQ(sv(p->category), "ML Systems");
	INT_EQ(p->ntags, 2);
	STR_EQ(sv(p->tags[1]), "GPU Memory");
	STR_EQ(sv(p->series_slug), "gpu");
	OK(p->series_node != NULL);
	INT_EQ(p->series_order, 3);
	INT_EQ(p->difficulty, DIFF_ADVANCED);
	INT_EQ(p->draft, 1);
	STR_EQ(sv(p->slug), "custom-slug");
	INT_EQ(p->naliases, 2);
	STR_EQ(sv(p->aliases[0]), "/old/url/");
	INT_EQ(p->toc, 0);
	INT_EQ(p->reading_time, 12);
	STR_EQ(sv(p->description), "Meta text.");
	STR_EQ(sv(p->image), "/img/card.png");
	OK(p->bundle_dir == NULL);
	STR_EQ(arena_strndup(arena, p->s.body, p->s.body_len), "Body text.\n");
	INT_EQ(p->s.body_line, 18);

	p = c.posts[1];
	STR_EQ(sv(p->slug), "minimal");
	INT_EQ(p->has_updated, 0);
	INT_EQ(p->draft, 0);
	INT_EQ(p->toc, -1);
	INT_EQ(p->reading_time, 0);
	INT_EQ(p->difficulty, DIFF_NONE);
	INT_EQ(p->ntags, 0);
	INT_EQ(p->series_slug.len, 0);
	INT_EQ(p->date.offset, 540); /* the site's zone */
	STR_EQ(difficulty_name(DIFF_BEGINNER), "beginner");
	STR_EQ(difficulty_name(DIFF_INTERMEDIATE), "intermediate");
	STR_EQ(difficulty_name(DIFF_ADVANCED), "advanced");
	STR_EQ(difficulty_name(DIFF_NONE), "");
}

static void test_walk(void)
{
	reset_site();
	/* files are read in path order, whatever order they were made in */
	t_write(site, "content/posts/b-post.md", "---\ntitle: B\ndate: 2026-01-01\n---\nB\n");
	t_write(site, "content/posts/a-post.md", "---\ntitle: A\ndate: 2026-01-02\n---\nA\n");
	t_write(site, "content/posts/bundle/index.md", "---\ntitle: Bundle\ndate: 2026-01-03\n---\n![x](fig.png)\n");
	t_write(site, "content/posts/bundle/fig.png", "PNG");
	t_write(site, "content/posts/no-index/fig.png", "PNG");
	t_write(site, "content/posts/notes.txt", "not a post");
	t_write(site, "content/posts/.hidden.md", "---\nnot: read\n");
	t_write(site, "content/posts/#autosave.md#", "x");
	t_write(site, "content/posts/backup.md~", "x");
	t_write(site, "content/posts/a-post.md.swp", "x");
	t_write(site, "content/posts/scratch.tmp", "x");
	t_write(site, "content/series/gpu.md", "---\ntitle: GPU\ndescription: All about GPUs\n---\nThe guide.\n");
	t_write(site, "content/pages/about.md", "---\ntitle: About\n---\nMe.\n");
	t_write(site, "data/home.yml", "hero: Hello\nlinks: [a, b]\n");
	t_write(site, "data/extra.yaml", "- 1\n- 2\n");
	t_write(site, "data/readme.txt", "skipped, with a warning");
	INT_EQ(load(), 0);
	STR_EQ(t_msgs(&cap), "data/readme.txt: warning: not used (data files are data/NAME.yml, in YAML: convert it, or "
			     "move it to static/ to publish it)\n"
			     "content/posts/no-index: warning: a folder in content/posts without index.md is skipped\n"
			     "content/posts/notes.txt: warning: not a Markdown file (.md); skipped");
	INT_EQ(c.nposts, 3);
	if (c.nposts == 3) {
		STR_EQ(c.posts[0]->s.path, "content/posts/a-post.md");
		STR_EQ(c.posts[1]->s.path, "content/posts/b-post.md");
		STR_EQ(c.posts[2]->s.path, "content/posts/bundle/index.md");
		STR_EQ(sv(c.posts[2]->slug), "bundle");
		OK(c.posts[2]->bundle_dir != NULL);
		if (c.posts[2]->bundle_dir) {
			const char *b = c.posts[2]->bundle_dir;
			size_t n = strlen(b);
			OK(b[0] == '/' || strncmp(b, site, strlen(site)) == 0);
			OK(n > 21 && strcmp(b + n - 21, "/content/posts/bundle") == 0);
		}
	}
	INT_EQ(c.nseries, 1);
	if (c.nseries == 1) {
		STR_EQ(sv(c.series[0]->slug), "gpu");
		STR_EQ(sv(c.series[0]->description), "All about GPUs");
	}
	INT_EQ(c.npages, 1);
	if (c.npages == 1) {
		STR_EQ(sv(c.pages[0]->slug), "about");
		INT_EQ(c.pages[0]->template_name.len, 0);
	}
	INT_EQ(c.ndata, 2);
	if (c.ndata == 2) {
		STR_EQ(sv(c.data[0].name), "extra");
		INT_EQ(c.data[0].root->kind, YNODE_SEQ);
		STR_EQ(sv(c.data[1].name), "home");
		OK(yaml_map_get(c.data[1].root, "hero") != NULL);
	}

	/* an empty site folder: no content is not an error */
	reset_site();
	INT_EQ(load(), 0);
	INT_EQ(c.nposts + c.nseries + c.npages + c.ndata, 0);
}

static void test_post_errors(void)
{
	reset_site();
	t_write(site, "content/posts/no-fm.md", "Just text.\n");
	t_write(site, "content/posts/list-fm.md", "---\n- a\n- b\n---\n");
	t_write(site, "content/posts/unclosed.md", "---\ntitle: T\n");
	t_write(site, "content/posts/has space.md", "---\ntitle: T\ndate: 2026-01-01\n---\n");
	t_write(site, "content/posts/typo.md", "---\ntitel: T\ndate: 2026-01-01\n---\n");
	t_write(site, "content/posts/types.md",
		"---\n"
		"title: T\n"
		"date: 2026-02-30\n"
		"tags: cuda\n"
		"difficulty: expert\n"
		"series_order: 2\n"
		"draft: yes\n"
		"slug: a/b\n"
		"aliases: [old/url, /a/../b]\n"
		"toc: [1]\n"
		"reading_time: 0\n"
		"category: [x]\n"
		"---\n");
	t_write(site, "content/posts/ok.md", "---\ntitle: OK\ndate: 2026-01-01\n---\n");
	INT_EQ(load(), 17);
	STR_EQ(t_msgs(&cap),
	       "content/posts/has space.md: error: file name 'has space.md' cannot be a URL (rename it without spaces, "
	       "'?', '#' or '%')\n"
	       "content/posts/list-fm.md:2:1: error: front matter must be a map of keys (key: value), found a list\n"
	       "content/posts/no-fm.md:1:1: error: no front matter (hint: start the file with '---', then 'title: ...' "
	       "and 'date: YYYY-MM-DD', then '---')\n"
	       "content/posts/types.md:3:7: error: malformed date '2026-02-30' in 'date': no such day in that month\n"
	       "content/posts/types.md:12:11: error: 'category' must be a string, found a list\n"
	       "content/posts/types.md:4:7: error: 'tags' must be a list, found a string (write tags: [a, b])\n"
	       "content/posts/types.md:6:15: error: 'series_order' without 'series' (hint: add 'series: SLUG')\n"
	       "content/posts/types.md:5:13: error: 'difficulty' must be beginner, intermediate or advanced, found "
	       "'expert'\n"
	       "content/posts/types.md:7:8: error: 'draft' must be true or false, found 'yes'\n"
	       "content/posts/types.md:8:7: error: 'slug' must be one URL path segment (no '/', spaces, '?', '#' or '%')\n"
	       "content/posts/types.md:9:11: error: an alias must be a site path starting with '/' (e.g. /old/url/), "
	       "without '..'\n"
	       "content/posts/types.md:9:20: error: an alias must be a site path starting with '/' (e.g. /old/url/), "
	       "without '..'\n"
	       "content/posts/types.md:10:6: error: 'toc' must be true or false, found a list\n"
	       "content/posts/types.md:11:15: error: 'reading_time' must be between 1 and 10000, found 0\n"
	       "content/posts/typo.md:2:1: error: unknown front matter key 'titel' (did you mean 'title'?)\n"
	       "content/posts/typo.md:1:1: error: missing required key 'title'\n"
	       "content/posts/unclosed.md:1:1: error: front matter is never closed (hint: end it with a line '---' "
	       "before the text)");
	/* only the valid post is kept */
	INT_EQ(c.nposts, 1);
	if (c.nposts == 1)
		STR_EQ(c.posts[0]->s.path, "content/posts/ok.md");

	/* YAML errors point into the file: line 1 is the fence */
	reset_site();
	t_write(site, "content/posts/yaml.md", "---\ntitle: T\ndate: 2026-01-01\ntags: [a, b\n---\nx\n");
	OK(load() >= 1);
	OK(strncmp(t_msgs(&cap), "content/posts/yaml.md:", 22) == 0);
	INT_EQ(c.nposts, 0);
	/* a missing date */
	reset_site();
	t_write(site, "content/posts/nodate.md", "---\ntitle: T\n---\n");
	INT_EQ(load(), 1);
	STR_EQ(t_msgs(&cap), "content/posts/nodate.md:1:1: error: missing required key 'date'");

	/* 32 tags are allowed; the 33rd is an error where it is written */
	reset_site();
	char fm[1024];
	int at = snprintf(fm, sizeof fm, "---\ntitle: T\ndate: 2026-01-01\ntags:\n");
	for (int i = 0; i < 32; i++)
		at += snprintf(fm + at, sizeof fm - (size_t)at, "  - t%d\n", i);
	snprintf(fm + at, sizeof fm - (size_t)at, "---\nx\n");
	t_write(site, "content/posts/many.md", fm);
	INT_EQ(load(), 0);
	INT_EQ(c.nposts, 1);
	if (c.nposts == 1)
		INT_EQ(c.posts[0]->ntags, 32);
	reset_site();
	snprintf(fm + at, sizeof fm - (size_t)at, "  - t32\n  - t33\n---\nx\n");
	t_write(site, "content/posts/many.md", fm);
	INT_EQ(load(), 1);
	STR_EQ(t_msgs(&cap), "content/posts/many.md:37:5: error: 'tags' lists 34 tags; a post may have at most 32 "
			     "(hint: keep the few readers browse by; see LIMITS in folio-site(5))");
	INT_EQ(c.nposts, 0);

	/* a series title is repeated on every post of the series */
	reset_site();
	char big[1100];
	memset(big, 'x', sizeof big - 1);
	big[sizeof big - 1] = 0;
	char text[1200];
	snprintf(text, sizeof text, "---\ntitle: %.1025s\ndescription: d\n---\n", big);
	t_write(site, "content/series/long.md", text);
	snprintf(text, sizeof text, "---\ntitle: %.1024s\ndescription: d\n---\n", big);
	t_write(site, "content/series/at-the-bound.md", text);
	INT_EQ(load(), 1);
	STR_EQ(t_msgs(&cap),
	       "content/series/long.md:2:8: error: a series' 'title' is 1025 bytes long, more than 1024: it is repeated "
	       "on every post of the series (see LIMITS in folio-site(5))");
	INT_EQ(c.nseries, 1);
	INT_EQ((int)c.nfailed_series, 1);
}

static void test_series_and_pages(void)
{
	reset_site();
	t_write(site, "content/series/cuda.md",
		"---\n"
		"title: CUDA from Scratch\n"
		"description: Kernels, step by step\n"
		"difficulty: BEGINNER\n"
		"best_for: Engineers\n"
		"audience: People who write C\n"
		"recommended_start: cuda-2\n"
		"posts: [cuda-1, cuda-2]\n"
		"featured: true\n"
		"weight: -3\n"
		"numbering: 0\n"
		"---\n"
		"The guide.\n");
	t_write(site, "content/series/bad.md",
		"---\n"
		"title: Bad\n"
		"posts: cuda-1\n"
		"featured: sometimes\n"
		"weight: heavy\n"
		"dificulty: beginner\n"
		"numbering: 2\n"
		"---\n");
	t_write(site, "content/pages/about.md", "---\ntitle: About\ndescription: Who\ntoc: true\naliases: [/me/]\n---\n");
	t_write(site, "content/pages/wide.md", "---\ntitle: Wide\ntemplate: wide.html\nslug: wide-page\ndraft: true\n---\n");
	t_write(site, "content/pages/bad-template.md", "---\ntitle: X\ntemplate: wide\n---\n");
	t_write(site, "content/pages/escape.md", "---\ntitle: X\ntemplate: ../post.html\n---\n");
	t_write(site, "content/pages/dated.md", "---\ntitle: X\ndate: 2026-01-01\n---\n");
	t_write(site, "content/pages/untitled.md", "---\ndescription: no title\n---\n");
	INT_EQ(load(), 10);
	STR_EQ(t_msgs(&cap),
	       "content/series/bad.md:6:1: error: unknown series key 'dificulty' (did you mean 'difficulty'?)\n"
	       "content/series/bad.md:1:1: error: missing required key 'description'\n"
	       "content/series/bad.md:3:8: error: 'posts' must be a list, found a string (write posts: [a, b])\n"
	       "content/series/bad.md:4:11: error: 'featured' must be true or false, found 'sometimes'\n"
	       "content/series/bad.md:5:9: error: 'weight' must be an integer, found 'heavy'\n"
	       "content/series/bad.md:7:12: error: 'numbering' must be between 0 and 1, found 2\n"
	       "content/pages/bad-template.md:3:11: error: 'template' must name a template file such as 'page.html'\n"
	       "content/pages/dated.md:3:1: error: unknown page key 'date' (see folio-site(5) for the keys)\n"
	       "content/pages/escape.md:3:11: error: 'template' must name a template file such as 'page.html'\n"
	       "content/pages/untitled.md:1:1: error: missing required key 'title'");
	INT_EQ(c.nseries, 1);
	if (c.nseries == 1) {
		struct series *se = c.series[0];
		STR_EQ(sv(se->slug), "cuda");
		STR_EQ(sv(se->title), "CUDA from Scratch");
		INT_EQ(se->difficulty, DIFF_BEGINNER);
		STR_EQ(sv(se->best_for), "Engineers");
		STR_EQ(sv(se->audience), "People who write C");
		STR_EQ(sv(se->recommended_start), "cuda-2");
		INT_EQ(se->npost_slugs, 2);
		STR_EQ(sv(se->post_slugs[1]), "cuda-2");
		INT_EQ(se->featured, 1);
		INT_EQ(se->weight, -3);
		INT_EQ(se->numbering, 0);
		STR_EQ(arena_strndup(arena, se->s.body, se->s.body_len), "The guide.\n");
	}
	INT_EQ(c.npages, 2);
	if (c.npages == 2) {
		struct page *pg = c.pages[0];
		STR_EQ(sv(pg->slug), "about");
		STR_EQ(sv(pg->description), "Who");
		INT_EQ(pg->toc, 1);
		INT_EQ(pg->naliases, 1);
		pg = c.pages[1];
		STR_EQ(sv(pg->slug), "wide-page");
		STR_EQ(sv(pg->template_name), "wide.html");
		INT_EQ(pg->draft, 1);
		INT_EQ(pg->toc, -1);
	}
}

static void test_data_errors(void)
{
	reset_site();
	t_write(site, "data/broken.yml", "a: [1, 2\n");
	t_write(site, "data/ok.yml", "a: 1\n");
	OK(load() >= 1);
	OK(strncmp(t_msgs(&cap), "data/broken.yml:", 16) == 0);
	INT_EQ(c.ndata, 1);
	if (c.ndata == 1)
		STR_EQ(sv(c.data[0].name), "ok");
}

/* test_folder_errors: a missing folder is an empty one; one that is there
 * but cannot be read (a link to nothing, a file of that name) is an
 * error, and the rest is still read */
static void test_folder_errors(void)
{
	reset_site();
	t_write(site, "content/posts/a.md", "---\ntitle: A\ndate: 2026-01-01\n---\nx\n");
	INT_EQ(load(), 0); /* no series, pages, data, static or templates */
	STR_EQ(t_msgs(&cap), "");
	char p[700];
	snprintf(p, sizeof p, "%s/static", site);
	OK(symlink("/nonexistent/folio/static", p) == 0);
	snprintf(p, sizeof p, "%s/data", site);
	FILE *f = fopen(p, "w");
	OK(f != NULL);
	if (f)
		fclose(f);
	snprintf(p, sizeof p, "%s/content/pages", site);
	OK(symlink("pages", p) == 0);
	INT_EQ(load(), 3);
	STR_EQ(t_msgs(&cap),
	       "content/pages: error: a link in a circle of links: the build would leave out the site's pages (make it "
	       "a link to a folder, or remove it)\n"
	       "data: error: not a folder: the build would leave out the site's data files (rename the file)\n"
	       "static: error: a link to '/nonexistent/folio/static', which does not exist: the build would leave out "
	       "the site's static files (restore or mount what it points to, or remove the link)");
	INT_EQ(c.nposts, 1); /* still read */
}

/* ---- reading on several threads ---- */

/* threads_load: the site read on `jobs` threads, into a new arena (*a);
 * the posts' slugs, titles and dates, the failed slugs and the messages
 * (sorted by place, as folio build prints them) joined into one text. */
static char *threads_load(int jobs, const char *tz, struct arena **a)
{
	*a = arena_new();
	memset(&cfg, 0, sizeof cfg);
	cfg.timezone = str_from(tz);
	struct diag d;
	diag_init(&d, NULL);
	d.defer = 1;
	buf_reset(&cap);
	d.capture = &cap;
	struct content cc_out;
	int e = content_load_cached(*a, &d, site, &cfg, &cc_out, NULL, NULL, NULL, jobs);
	diag_flush(&d);
	diag_fini(&d);
	struct buf b;
	buf_init(&b);
	buf_printf(&b, "errors %d posts %zu series %zu pages %zu\n", e, cc_out.nposts, cc_out.nseries,
		   cc_out.npages);
	for (size_t i = 0; i < cc_out.nposts; i++) {
		const struct post *p = cc_out.posts[i];
		buf_printf(&b, "%.*s|%.*s|%lld|%zu\n", (int)p->slug.len, p->slug.p, (int)p->title.len, p->title.p,
			   (long long)p->date.utc, p->ntags);
	}
	for (size_t i = 0; i < cc_out.nfailed; i++)
		buf_printf(&b, "failed %.*s\n", (int)cc_out.failed[i]->len, cc_out.failed[i]->p);
	buf_append(&b, cap.p ? cap.p : "", cap.len);
	char *r = xstrndup(b.p ? b.p : "", b.len);
	buf_fini(&b);
	return r;
}

static void test_threads(void)
{
	reset_site();
	char rel[64], text[256];
	for (int i = 0; i < 300; i++) {
		snprintf(rel, sizeof rel, "content/posts/p%03d.md", i);
		if (i % 37 == 5) /* a broken one now and then */
			snprintf(text, sizeof text, "---\ntitle: [unclosed\ndate: 2026-01-01\n---\nBody\n");
		else if (i % 41 == 7)
			snprintf(text, sizeof text, "---\ntitle: T%d\ndate: 2026-13-01\n---\n", i);
		else
			snprintf(text, sizeof text, "---\ntitle: Post %d\ndate: 2025-%02d-%02d 10:%02d\ntags: [a, b%d]\n---\nText %d\n",
				 i, i % 12 + 1, i % 28 + 1, i % 60, i % 5, i);
		t_write(site, rel, text);
	}
	t_write(site, "content/posts/bundle/index.md", "---\ntitle: Bundle\ndate: 2025-02-02\n---\n");
	/* a series without its keys: one more error */
	t_write(site, "content/series/s.md", "---\ntitle: S\n---\n");
	t_write(site, "content/pages/about.md", "---\ntitle: About\n---\n");
	const char *zones[] = {"UTC", "Europe/Paris"};
	for (int z = 0; z < 2; z++) {
		struct arena *a1, *a4, *a3;
		char *one = threads_load(1, zones[z], &a1);
		char *four = threads_load(4, zones[z], &a4);
		char *three = threads_load(3, zones[z], &a3);
		STR_EQ(four, one);
		STR_EQ(three, one);
		OK(strstr(one, "errors 17 posts 285 series 0 pages 1\n") != NULL);
		OK(strstr(one, "failed p005\n") != NULL);
		OK(strstr(one, "content/posts/p007.md:") != NULL);
		free(one);
		free(four);
		free(three);
		/* the threads' arenas go with the build's */
		arena_free(a1);
		arena_free(a4);
		arena_free(a3);
	}
}

/* ---- the cache of a session ---- */

static struct content_cache *cc;
static struct arena *build_arena; /* the arena of the last cached load */
static unsigned loads;            /* on 1, 2 or 3 threads in turn */

/* load_with: the site's settings and content read into a (with the
 * content cache and what is known, each may be NULL) on jobs threads,
 * the messages captured in cap by d (initialised here, finished by the
 * caller); the error count. */
static int load_with(struct arena *a, struct diag *d, struct content_cache *cache, const struct content_known *kn,
		     int jobs)
{
	diag_init(d, NULL);
	buf_reset(&cap);
	d->capture = &cap;
	struct config cf;
	int e = config_load(a, d, site, NULL, &cf);
	if (!e)
		e = content_load_cached(a, d, site, &cf, &c, cache, NULL, kn, jobs);
	return e;
}

/* load_cached: a session's load: folio.yml read with config_load, into a
 * new build arena (the last one freed first, as a session does between
 * builds); the error count, the messages in cap. */
static int load_cached(void)
{
	if (build_arena)
		arena_free(build_arena);
	build_arena = arena_new();
	struct diag d;
	int e = load_with(build_arena, &d, cc, NULL, 1 + (int)(loads++ % 3));
	diag_fini(&d);
	return e;
}

static struct post *find_post(const char *slug)
{
	for (size_t i = 0; i < c.nposts; i++)
		if (str_eq_cstr(c.posts[i]->slug, slug))
			return c.posts[i];
	return NULL;
}

/* compute: what the later stages fill in, set to something */
static void compute(void)
{
	static char dummy_html[] = "<p>rendered</p>";
	for (size_t i = 0; i < c.nposts; i++) {
		struct post *p = c.posts[i];
		p->doc.html = (struct str){dummy_html, strlen(dummy_html)};
		p->doc.words = 10;
		p->doc.ntoc = 1;
		p->minutes = 4;
		p->url = STR_LIT("/posts/x/");
		p->series = c.nseries ? c.series[0] : NULL;
		p->part = 2;
		p->series_prev = p->series_next = p;
		p->newer = p->older = p;
		p->index = 7;
		p->listed_in = p->series;
	}
	for (size_t i = 0; i < c.nseries; i++) {
		struct series *se = c.series[i];
		se->doc.html = (struct str){dummy_html, strlen(dummy_html)};
		se->posts = c.posts;
		se->nposts = c.nposts;
		se->minutes = 9;
		se->start = c.nposts ? c.posts[0] : NULL;
		se->url = STR_LIT("/series/s/");
	}
	for (size_t i = 0; i < c.npages; i++) {
		c.pages[i]->doc.html = (struct str){dummy_html, strlen(dummy_html)};
		c.pages[i]->url = STR_LIT("/about/");
	}
}

/* mark: tags every item of the last load in a field that a cached item
 * keeps (site.c sets body_hash once); a file read again has 0 there. The
 * tag tells a kept item from a new one even when the new one lands at the
 * freed old one's address. */
#define MARK 0xfeedULL
static void mark(void)
{
	for (size_t i = 0; i < c.nposts; i++)
		c.posts[i]->s.body_hash = MARK;
	for (size_t i = 0; i < c.nseries; i++)
		c.series[i]->s.body_hash = MARK;
	for (size_t i = 0; i < c.npages; i++)
		c.pages[i]->s.body_hash = MARK;
}

/* marked: how many items of the last load are kept ones. */
static size_t marked(void)
{
	size_t n = 0;
	for (size_t i = 0; i < c.nposts; i++)
		n += c.posts[i]->s.body_hash == MARK;
	for (size_t i = 0; i < c.nseries; i++)
		n += c.series[i]->s.body_hash == MARK;
	for (size_t i = 0; i < c.npages; i++)
		n += c.pages[i]->s.body_hash == MARK;
	return n;
}

static int post_cleared(const struct post *p)
{
	return p->doc.html.len == 0 && p->doc.html.p == NULL && p->doc.words == 0 && p->doc.ntoc == 0 &&
	       p->minutes == 0 && p->url.len == 0 && p->series == NULL && p->part == 0 && p->series_prev == NULL &&
	       p->series_next == NULL && p->newer == NULL && p->older == NULL && p->index == 0 && p->listed_in == NULL;
}

static void test_cache(void)
{
	reset_site();
	cc = content_cache_new();
	t_write(site, "folio.yml", "title: Cached\nbase_url: https://example.org/\n");
	t_write(site, "content/posts/a.md", "---\ntitle: A\ndate: 2026-01-01 10:00\ntags: [x]\n---\nA's text.\n");
	t_write(site, "content/posts/b.md", "---\ntitle: B\ndate: 2026-01-02\nseries: s\n---\nB's text.\n");
	t_write(site, "content/posts/bundle/index.md", "---\ntitle: Bundle\ndate: 2026-01-03\n---\n![x](f.png)\n");
	t_write(site, "content/posts/bundle/f.png", "PNG");
	t_write(site, "content/series/s.md", "---\ntitle: S\ndescription: About S\n---\nThe guide.\n");
	t_write(site, "content/pages/about.md", "---\ntitle: About\n---\nMe.\n");
	t_write(site, "data/home.yml", "hero: Hello\n");
	INT_EQ(load_cached(), 0);
	STR_EQ(t_msgs(&cap), "");
	INT_EQ(c.nposts, 3);
	INT_EQ(c.nseries, 1);
	INT_EQ(c.npages, 1);
	INT_EQ(c.ndata, 1);
	if (c.nposts != 3 || c.nseries != 1 || c.npages != 1) {
		content_cache_free(cc);
		cc = NULL;
		return;
	}
	struct post *a = find_post("a"), *b = find_post("b"), *bundle = find_post("bundle");
	struct series *se = c.series[0];
	struct page *pg = c.pages[0];
	OK(a && b && bundle);
	if (!a || !b || !bundle) {
		content_cache_free(cc);
		cc = NULL;
		return;
	}
	STR_EQ(sv(a->date.iso), "2026-01-01T10:00:00+00:00");
	compute();

	/* nothing changed: the same structures, what later stages computed
	 * cleared, what the file says kept */
	INT_EQ(load_cached(), 0);
	STR_EQ(t_msgs(&cap), "");
	INT_EQ(c.nposts, 3);
	OK(find_post("a") == a);
	OK(find_post("b") == b);
	OK(find_post("bundle") == bundle);
	INT_EQ(c.nseries, 1);
	INT_EQ(c.npages, 1);
	OK(c.nseries == 1 && c.series[0] == se);
	OK(c.npages == 1 && c.pages[0] == pg);
	INT_EQ(c.ndata, 1); /* data files are read every time */
	OK(post_cleared(a));
	OK(post_cleared(b));
	OK(post_cleared(bundle));
	OK(se->doc.html.len == 0 && se->posts == NULL && se->nposts == 0 && se->minutes == 0 && se->start == NULL &&
	   se->url.len == 0);
	OK(pg->doc.html.len == 0 && pg->url.len == 0);
	/* the file's own fields survive the build arena they were first
	 * handed to */
	STR_EQ(sv(a->title), "A");
	STR_EQ(sv(a->tags[0]), "x");
	STR_EQ(sv(b->series_slug), "s");
	STR_EQ(sv(se->title), "S");
	STR_EQ(sv(se->description), "About S");
	STR_EQ(sv(pg->title), "About");
	STR_EQ(a->s.path, "content/posts/a.md");
	STR_EQ(arena_strndup(arena, a->s.body, a->s.body_len), "A's text.\n");
	OK(bundle->bundle_dir != NULL);
	/* the order stays the path order */
	STR_EQ(c.posts[0]->s.path, "content/posts/a.md");
	STR_EQ(c.posts[2]->s.path, "content/posts/bundle/index.md");
	compute();

	/* a changed file (new text, another size): read again */
	mark();
	t_write(site, "content/posts/a.md", "---\ntitle: A, renamed\ndate: 2026-01-01 10:00\ntags: [x]\n---\nA's text.\n");
	INT_EQ(load_cached(), 0);
	STR_EQ(t_msgs(&cap), "");
	INT_EQ(c.nposts, 3);
	INT_EQ(marked(), 4); /* all but a */
	struct post *a2 = find_post("a");
	OK(a2 != NULL);
	OK(a2 != a);
	if (a2)
		STR_EQ(sv(a2->title), "A, renamed");
	OK(find_post("b") == b);
	OK(post_cleared(b));
	OK(c.nseries == 1 && c.series[0] == se);
	/* and the new version is the one kept */
	compute();
	INT_EQ(load_cached(), 0);
	OK(find_post("a") == a2);
	OK(a2 && post_cleared(a2));
	a = a2;

	/* a removed file is gone, the others stay */
	char path[700];
	snprintf(path, sizeof path, "%s/content/posts/b.md", site);
	OK(unlink(path) == 0);
	INT_EQ(load_cached(), 0);
	INT_EQ(c.nposts, 2);
	OK(find_post("b") == NULL);
	OK(find_post("a") == a);
	OK(find_post("bundle") == bundle);
	/* back again: a new read */
	t_write(site, "content/posts/b.md", "---\ntitle: B again\ndate: 2026-01-02\n---\nB's text.\n");
	INT_EQ(load_cached(), 0);
	INT_EQ(c.nposts, 3);
	OK(find_post("b") != NULL);
	if (find_post("b"))
		STR_EQ(sv(find_post("b")->title), "B again");
	b = find_post("b");

	/* a file with an error is reported by every load, not cached away */
	t_write(site, "content/posts/broken.md", "---\ntitle: Broken\n---\nNo date.\n");
	INT_EQ(load_cached(), 1);
	STR_EQ(t_msgs(&cap), "content/posts/broken.md:1:1: error: missing required key 'date'");
	INT_EQ(c.nposts, 3);
	INT_EQ(load_cached(), 1);
	STR_EQ(t_msgs(&cap), "content/posts/broken.md:1:1: error: missing required key 'date'");
	INT_EQ(c.nposts, 3);
	OK(find_post("a") == a);
	/* a warning too: a file that says something is read again each time */
	t_write(site, "content/posts/broken.md", "---\ntitle: Broken\ndate: 2026-01-05\ntitel: typo\n---\n");
	INT_EQ(load_cached(), 1);
	STR_EQ(t_msgs(&cap), "content/posts/broken.md:4:1: error: unknown front matter key 'titel' (did you mean "
			     "'title'?)");
	INT_EQ(load_cached(), 1);
	STR_EQ(t_msgs(&cap), "content/posts/broken.md:4:1: error: unknown front matter key 'titel' (did you mean "
			     "'title'?)");
	/* fixed: no error, and then kept like the others */
	t_write(site, "content/posts/broken.md", "---\ntitle: Fixed\ndate: 2026-01-05\n---\nNow dated.\n");
	INT_EQ(load_cached(), 0);
	STR_EQ(t_msgs(&cap), "");
	INT_EQ(c.nposts, 4);
	struct post *fixed = find_post("broken");
	OK(fixed != NULL);
	if (fixed)
		STR_EQ(sv(fixed->title), "Fixed");
	INT_EQ(load_cached(), 0);
	OK(find_post("broken") == fixed);
	/* the same error in a series and a page: reported again too */
	t_write(site, "content/series/bad.md", "---\ntitle: Bad\n---\n");
	t_write(site, "content/pages/bad.md", "---\ndescription: no title\n---\n");
	INT_EQ(load_cached(), 2);
	const char *want = "content/series/bad.md:1:1: error: missing required key 'description'\n"
			   "content/pages/bad.md:1:1: error: missing required key 'title'";
	STR_EQ(t_msgs(&cap), want);
	INT_EQ(load_cached(), 2);
	STR_EQ(t_msgs(&cap), want);
	INT_EQ(c.nseries, 1);
	INT_EQ(c.npages, 1);
	OK(c.nseries == 1 && c.series[0] == se);
	OK(c.npages == 1 && c.pages[0] == pg);
	snprintf(path, sizeof path, "%s/content/series/bad.md", site);
	unlink(path);
	snprintf(path, sizeof path, "%s/content/pages/bad.md", site);
	unlink(path);

	/* folio.yml rewritten with the same text: files stay */
	INT_EQ(load_cached(), 0);
	mark();
	INT_EQ(marked(), 6); /* 4 posts, a series, a page */
	t_write(site, "folio.yml", "title: Cached\nbase_url: https://example.org/\n");
	INT_EQ(load_cached(), 0);
	INT_EQ(marked(), 6);
	OK(find_post("a") == a);
	OK(find_post("b") == b);
	/* another time zone: every file is read again, with it */
	t_write(site, "folio.yml", "title: Cached\nbase_url: https://example.org/\ntimezone: Asia/Seoul\n");
	INT_EQ(load_cached(), 0);
	STR_EQ(t_msgs(&cap), "");
	INT_EQ(c.nposts, 4);
	INT_EQ(c.nseries, 1);
	INT_EQ(c.npages, 1);
	INT_EQ(marked(), 0);
	a = find_post("a");
	OK(a != NULL);
	if (a) {
		STR_EQ(sv(a->date.iso), "2026-01-01T10:00:00+09:00");
		INT_EQ(a->date.offset, 540);
		STR_EQ(sv(a->title), "A, renamed");
	}
	/* and kept from then on */
	mark();
	INT_EQ(load_cached(), 0);
	INT_EQ(marked(), 6);
	OK(find_post("a") == a);
	/* any other change of folio.yml counts too (it is its text that is
	 * compared) */
	t_write(site, "folio.yml", "title: Cached, renamed\nbase_url: https://example.org/\ntimezone: Asia/Seoul\n");
	INT_EQ(load_cached(), 0);
	INT_EQ(marked(), 0);
	mark();
	INT_EQ(load_cached(), 0);
	INT_EQ(marked(), 6);

	/* two caches do not share: a new one reads every file */
	struct content_cache *other = content_cache_new();
	struct content_cache *saved = cc;
	cc = other;
	INT_EQ(load_cached(), 0);
	INT_EQ(c.nposts, 4);
	INT_EQ(marked(), 0);
	cc = saved;
	content_cache_free(other);
	INT_EQ(load_cached(), 0);
	INT_EQ(marked(), 6);
	content_cache_free(cc);
	cc = NULL;
	content_cache_free(NULL);
	arena_free(build_arena);
	build_arena = NULL;
}

/* ---- a source's text freed once rendered (source_drop) ---- */

/* content_source finds each source by its path (through the index made
 * once the files are read), a post's, a series's and a page's, and
 * nothing for a path that is none; so does it when the arrays changed
 * since (the scan then) */
static void test_source_by_path(void)
{
	reset_site();
	t_write(site, "folio.yml", "title: Many\nbase_url: https://example.org/\n");
	char rel[64], text[128];
	for (int i = 0; i < 300; i++) {
		snprintf(rel, sizeof rel, "content/posts/p%03d.md", i);
		snprintf(text, sizeof text, "---\ntitle: P%d\ndate: 2026-01-01\n---\nText %d.\n", i, i);
		t_write(site, rel, text);
	}
	t_write(site, "content/series/s.md", "---\ntitle: S\ndescription: A series.\nposts:\n  - p000\n---\nA series.\n");
	t_write(site, "content/pages/about.md", "---\ntitle: About\n---\nMe.\n");
	struct arena *a = arena_new();
	struct diag d;
	INT_EQ(load_with(a, &d, NULL, NULL, 2), 0);
	INT_EQ(c.nposts, 300);
	int right = 0;
	for (size_t i = 0; i < c.nposts; i++)
		right += content_source(&c, c.posts[i]->s.path) == &c.posts[i]->s;
	INT_EQ(right, 300);
	OK(c.nseries == 1 && content_source(&c, "content/series/s.md") == &c.series[0]->s);
	OK(c.npages == 1 && content_source(&c, "content/pages/about.md") == &c.pages[0]->s);
	OK(content_source(&c, "content/posts/p300.md") == NULL);
	OK(content_source(&c, "content/posts") == NULL);
	size_t len = 0;
	const char *t = content_text(&c, &d, "content/posts/p007.md", &len);
	OK(t && len == strlen("---\ntitle: P7\ndate: 2026-01-01\n---\nText 7.\n"));
	c.npages = 0; /* the arrays changed: found by the scan */
	OK(content_source(&c, "content/pages/about.md") == NULL);
	OK(content_source(&c, "content/posts/p123.md") != NULL);
	diag_fini(&d);
	arena_free(a);
}

static void test_drop(void)
{
	reset_site();
	t_write(site, "folio.yml", "title: Dropped\nbase_url: https://example.org/\n");
	const char *text = "---\ntitle: A\ndate: 2026-01-01\n---\nA's text, long enough.\n";
	t_write(site, "content/posts/a.md", text);
	t_write(site, "content/posts/nofm.md", "no front matter\n");
	t_write(site, "content/pages/about.md", "---\ntitle: About\n---\nMe.\n");
	struct src_cache *records = src_cache_new(1);
	struct content_known kn = {NULL, records};
	for (int pass = 0; pass < 3; pass++) {
		struct arena *a = arena_new();
		struct diag d;
		/* the third pass: read without records (folio check, serve):
		 * the text is the arena's, and stays */
		int e = load_with(a, &d, NULL, pass < 2 ? &kn : NULL, 1 + pass % 2);
		INT_EQ(e, 1); /* nofm.md: a post without front matter */
		struct post *p = NULL;
		for (size_t i = 0; i < c.nposts; i++)
			if (!strcmp(c.posts[i]->s.path, "content/posts/a.md"))
				p = c.posts[i];
		OK(p != NULL);
		if (!p) {
			diag_fini(&d);
			arena_free(a);
			break;
		}
		struct source *s = &p->s;
		size_t len = strlen(text);
		OK(s->src && s->len == len && !memcmp(s->src, text, len));
		if (pass == 2) {
			INT_EQ(source_drop(s), 0);
			OK(s->src == p->s.src && !s->lazy);
			INT_EQ(source_drop(&c.pages[0]->s), 0);
			diag_fini(&d);
			arena_free(a);
			break;
		}
		OK(s->own != NULL);
		const char *body = s->body;
		size_t body_len = s->body_len;
		OK(body && !memcmp(body, "A's text", 8));
		INT_EQ(source_drop(s), len + 1);
		OK(s->lazy && !s->src && !s->body && s->len == len && s->body_len == body_len);
		INT_EQ(source_drop(s), 0); /* once */
		INT_EQ(source_drop(&c.pages[0]->s), strlen("---\ntitle: About\n---\nMe.\n") + 1);
		buf_reset(&cap);
		if (pass == 1) /* changed since it was read: said, not read */
			t_write(site, "content/posts/a.md", "---\ntitle: B\ndate: 2026-01-01\n---\nB's text, long enough.\n");
		const char *again = source_text(pass ? a : NULL, &d, s);
		if (pass == 0) {
			OK(again && !memcmp(again, text, len) && !s->lazy);
			OK(s->body && s->body_len == body_len && !memcmp(s->body, "A's text", 8));
			STR_EQ(t_msgs(&cap), "");
			INT_EQ(source_drop(s), 0); /* read again into the arena: not its own block */
		} else {
			OK(again == NULL && s->lazy);
			OK(strstr(t_msgs(&cap), "content/posts/a.md: error: changed while the site was being built") != NULL);
			t_write(site, "content/posts/a.md", text);
		}
		diag_fini(&d);
		arena_free(a);
	}
	src_cache_free(records);
}

void test_content(void)
{
	t_current = "content";
	arena = arena_new();
	buf_init(&cap);
	test_split();
	test_post_fields();
	test_walk();
	test_post_errors();
	test_series_and_pages();
	test_data_errors();
	test_folder_errors();
	test_threads();
	test_cache();
	test_drop();
	test_source_by_path();
	t_rmtree(site);
	free(site);
	site = NULL;
	buf_fini(&cap);
	arena_free(arena);
	arena = NULL;
}
