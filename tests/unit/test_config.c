/* test_config.c: folio.yml -> struct config: defaults, every key's type
 * errors with their exact messages, switches, time zones and base_url. */
#include "harness.h"

#include "base/arena.h"
#include "base/buf.h"
#include "read/config.h"
#include "base/diag.h"

#include <stdlib.h>
#include <string.h>

static struct arena *arena;
static struct buf cap;
static char *dir;
static struct config cfg;

/* load: writes yml as the site's folio.yml and loads it; returns the error
 * count. The diagnostics are in cap. */
static int load_with(const char *yml, const char *base_url_override)
{
	t_write(dir, "folio.yml", yml);
	struct diag d;
	diag_init(&d, NULL);
	buf_reset(&cap);
	d.capture = &cap;
	int e = config_load(arena, &d, dir, base_url_override, &cfg);
	diag_fini(&d);
	return e;
}

static int load(const char *yml)
{
	return load_with(yml, NULL);
}

/* sv: a struct str as a C string (arena), for STR_EQ. */
static const char *sv(struct str s)
{
	return arena_strndup(arena, s.p ? s.p : "", s.len);
}

/* err1: loads yml, which must give exactly one error; returns its line. */
static const char *err1(const char *yml)
{
	INT_EQ(load(yml), 1);
	return t_msgs(&cap);
}

static void test_defaults(void)
{
	INT_EQ(load("title: My Blog\n"), 0);
	STR_EQ(t_msgs(&cap), "");
	STR_EQ(cfg.path, "folio.yml");
	STR_EQ(sv(cfg.title), "My Blog");
	INT_EQ(cfg.tagline.len, 0);
	INT_EQ(cfg.base_url.len, 0);
	STR_EQ(sv(cfg.language), "en");
	STR_EQ(sv(cfg.timezone), "UTC");
	INT_EQ(cfg.image.len, 0);
	INT_EQ(cfg.logo.len, 0);
	INT_EQ(cfg.author_name.len, 0);
	INT_EQ(cfg.posts_per_page, 10);
	INT_EQ(cfg.reading_speed, 230);
	INT_EQ(cfg.start_here.slug.len, 0);
	INT_EQ(cfg.nbest_of, 0);
	INT_EQ(cfg.nfeatured_series, 0);
	INT_EQ(cfg.nmenu, 0);
	INT_EQ(cfg.feeds, 1);
	INT_EQ(cfg.feeds_full, 0);
	INT_EQ(cfg.math, 1);
	OK(cfg.math_macros == NULL);
	INT_EQ(cfg.highlight, 1);
	STR_EQ(sv(cfg.highlight_theme), "default");
	INT_EQ(cfg.smart_punctuation, 1);
	INT_EQ(cfg.search, 1);
}

static void test_full(void)
{
	INT_EQ(load("title: \"Deep Notes\"\n"
		    "tagline: Kernels, compilers\n"
		    "description: A blog.\n"
		    "base_url: https://example.org/\n"
		    "language: ko\n"
		    "timezone: Asia/Seoul\n"
		    "author:\n"
		    "  name: Jae\n"
		    "  url: https://jae.example/\n"
		    "  email: jae@example.org\n"
		    "posts_per_page: 5\n"
		    "reading_speed: 300\n"
		    "start_here: start-here\n"
		    "featured_series: [cuda, compilers]\n"
		    "menu:\n"
		    "  - {label: Home, url: /}\n"
		    "  - {label: About, url: /about/}\n"
		    "feeds: {content: full}\n"
		    "math: false\n"
		    "highlight: {theme: dracula}\n"
		    "smart_punctuation: false\n"
		    "search: no_such_bool_is_fine_here_not\n"),
	       1); /* the last line is wrong, on purpose: the rest is read */
	STR_EQ(t_msgs(&cap), "folio.yml:22:9: error: 'search' must be false, true or a map, found a string");
	STR_EQ(sv(cfg.title), "Deep Notes");
	STR_EQ(sv(cfg.tagline), "Kernels, compilers");
	STR_EQ(sv(cfg.description), "A blog.");
	STR_EQ(sv(cfg.base_url), "https://example.org/");
	STR_EQ(sv(cfg.language), "ko");
	STR_EQ(sv(cfg.timezone), "Asia/Seoul");
	STR_EQ(sv(cfg.author_name), "Jae");
	STR_EQ(sv(cfg.author_url), "https://jae.example/");
	STR_EQ(sv(cfg.author_email), "jae@example.org");
	INT_EQ(cfg.posts_per_page, 5);
	INT_EQ(cfg.reading_speed, 300);
	STR_EQ(sv(cfg.start_here.slug), "start-here");
	INT_EQ(cfg.start_here.line, 13);
	INT_EQ(cfg.start_here.col, 13);
	INT_EQ(cfg.nfeatured_series, 2);
	STR_EQ(sv(cfg.featured_series[0].slug), "cuda");
	STR_EQ(sv(cfg.featured_series[1].slug), "compilers");
	INT_EQ(cfg.featured_series[1].line, 14);
	INT_EQ(cfg.featured_series[1].col, 25);
	INT_EQ(cfg.nmenu, 2);
	STR_EQ(sv(cfg.menu[1].label), "About");
	STR_EQ(sv(cfg.menu[1].url), "/about/");
	INT_EQ(cfg.feeds, 1);
	INT_EQ(cfg.feeds_full, 1);
	INT_EQ(cfg.math, 0);
	INT_EQ(cfg.highlight, 1);
	STR_EQ(sv(cfg.highlight_theme), "dracula");
	INT_EQ(cfg.smart_punctuation, 0);
	INT_EQ(cfg.search, 1);

	INT_EQ(load("title: T\nauthor: Jae Kim\nsearch: false\n"), 0);
	STR_EQ(sv(cfg.author_name), "Jae Kim");
	INT_EQ(cfg.search, 0);
	INT_EQ(load("title: T\nsearch: {body: false, stem: false}\n"), 0);
	OK(cfg.search && !cfg.search_body && cfg.search_pages && !cfg.search_stem);
	INT_EQ(load("title: T\n"), 0);
	OK(cfg.search && cfg.search_body && cfg.search_pages && cfg.search_stem);
}

static void test_missing_and_shape(void)
{
	STR_EQ(err1("tagline: x\n"), "folio.yml:1:1: error: missing required key 'title'");
	STR_EQ(err1(""), "folio.yml:1:1: error: missing required key 'title'");
	STR_EQ(err1("title:\n"), "folio.yml:1:7: error: 'title' must not be empty");
	STR_EQ(err1("title: \"  \"\n"), "folio.yml:1:8: error: 'title' must not be empty");
	STR_EQ(err1("- a\n- b\n"), "folio.yml:1:1: error: folio.yml must be a map of settings (key: value), found a list");
	STR_EQ(err1("just text\n"),
	       "folio.yml:1:1: error: folio.yml must be a map of settings (key: value), found a string");
	/* a YAML syntax error: reported by the YAML layer, counted here */
	OK(load("title: [unclosed\n") >= 1);
	OK(strncmp(t_msgs(&cap), "folio.yml:", 10) == 0);

	/* no folio.yml at all */
	char *empty = t_tmpdir();
	struct diag d;
	diag_init(&d, NULL);
	buf_reset(&cap);
	d.capture = &cap;
	INT_EQ(config_load(arena, &d, empty, NULL, &cfg), 1);
	diag_fini(&d);
	struct buf want;
	buf_init(&want);
	buf_printf(&want,
		   "folio.yml: error: no folio.yml in '%s' (is this a site folder? 'folio new site DIR' makes one)", empty);
	STR_EQ(t_msgs(&cap), want.p);
	buf_fini(&want);
	t_rmtree(empty);
	free(empty);
}

static void test_type_errors(void)
{
	STR_EQ(err1("title: [a, b]\n"), "folio.yml:1:8: error: 'title' must be a string, found a list");
	STR_EQ(err1("title: T\ntagline: {a: 1}\n"), "folio.yml:2:10: error: 'tagline' must be a string, found a map");
	STR_EQ(err1("title: T\ndescription: [x]\n"), "folio.yml:2:14: error: 'description' must be a string, found a list");
	STR_EQ(err1("title: T\nbase_url: [x]\n"), "folio.yml:2:11: error: 'base_url' must be a string, found a list");
	STR_EQ(err1("title: T\nlanguage: {en: 1}\n"), "folio.yml:2:11: error: 'language' must be a string, found a map");
	STR_EQ(err1("title: T\ntimezone: [UTC]\n"), "folio.yml:2:11: error: 'timezone' must be a string, found a list");
	STR_EQ(err1("title: T\nposts_per_page: ten\n"),
	       "folio.yml:2:17: error: 'posts_per_page' must be an integer, found 'ten'");
	STR_EQ(err1("title: T\nposts_per_page: 2.5\n"),
	       "folio.yml:2:17: error: 'posts_per_page' must be an integer, found '2.5'");
	STR_EQ(err1("title: T\nposts_per_page: [1]\n"),
	       "folio.yml:2:17: error: 'posts_per_page' must be an integer, found a list");
	STR_EQ(err1("title: T\nposts_per_page: 0\n"),
	       "folio.yml:2:17: error: 'posts_per_page' must be between 1 and 1000, found 0");
	STR_EQ(err1("title: T\nposts_per_page: 1001\n"),
	       "folio.yml:2:17: error: 'posts_per_page' must be between 1 and 1000, found 1001");
	INT_EQ(load("title: T\nposts_per_page: 1000\n"), 0);
	INT_EQ(cfg.posts_per_page, 1000);
	STR_EQ(err1("title: T\nreading_speed: 10\n"),
	       "folio.yml:2:16: error: 'reading_speed' must be between 50 and 2000, found 10");
	STR_EQ(err1("title: T\nreading_speed: fast\n"),
	       "folio.yml:2:16: error: 'reading_speed' must be an integer, found 'fast'");
	STR_EQ(err1("title: T\nsmart_punctuation: maybe\n"),
	       "folio.yml:2:20: error: 'smart_punctuation' must be true or false, found 'maybe'");
	STR_EQ(err1("title: T\nsearch: [true]\n"), "folio.yml:2:9: error: 'search' must be false, true or a map, found a list");
	/* a quoted "true" is a string, not a boolean */
	STR_EQ(err1("title: T\nsearch: \"true\"\n"), "folio.yml:2:9: error: 'search' must be false, true or a map, found a string");
	STR_EQ(err1("title: T\nsearch: {body: maybe}\n"), "folio.yml:2:16: error: 'body' must be true or false, found 'maybe'");
	STR_EQ(err1("title: T\nsearch: {bodies: false}\n"), "folio.yml:2:10: error: unknown search key 'bodies' (see folio-site(5) for the keys)");
	STR_EQ(err1("title: T\nstart_here: [a]\n"), "folio.yml:2:13: error: 'start_here' must be a page slug, found a list");
	STR_EQ(err1("title: T\nauthor: [a]\n"),
	       "folio.yml:2:9: error: 'author' must be a name or a map {name, url, email}, found a list");
	STR_EQ(err1("title: T\nauthor:\n  name: [x]\n"), "folio.yml:3:9: error: 'name' must be a string, found a list");
	/* a missing key of a nested map points into that map, as for menu
	 * items, not at the top of the file */
	STR_EQ(err1("title: T\nposts_per_page: 3\nauthor:\n  url: https://x.example/\n"),
	       "folio.yml:4:3: error: missing required key 'name'");
	STR_EQ(err1("title: T\nauthor:\n  nme: Jae\n  name: Jae\n"),
	       "folio.yml:3:3: error: unknown author key 'nme' (did you mean 'name'?)");
	STR_EQ(err1("title: T\nfeatured_series: cuda\n"),
	       "folio.yml:2:18: error: 'featured_series' must be a list of series slugs, found a string");
	STR_EQ(err1("title: T\nfeatured_series: [[a]]\n"),
	       "folio.yml:2:19: error: 'featured_series' items must be series slugs, found a list");
	STR_EQ(err1("title: T\nmenu: {label: x}\n"), "folio.yml:2:7: error: 'menu' must be a list of {label, url}, found a map");
	STR_EQ(err1("title: T\nmenu: [Home]\n"), "folio.yml:2:8: error: a menu item must be a map {label, url}, found a string");
	INT_EQ(load("title: T\nmenu:\n  - {label: Home, link: /}\n"), 2);
	STR_EQ(t_msgs(&cap),
	       "folio.yml:3:19: error: unknown menu item key 'link' (see folio-site(5) for the keys)\n"
	       "folio.yml:3:5: error: missing required key 'url'");
}

static void test_several_errors(void)
{
	/* every error is reported, not only the first */
	INT_EQ(load("titel: T\n"
		    "posts_per_page: x\n"
		    "feeds: maybe\n"
		    "timezone: Mars/Olympus\n"),
	       5);
	STR_EQ(t_msgs(&cap),
	       "folio.yml:1:1: error: unknown folio.yml key 'titel' (did you mean 'title'?)\n"
	       "folio.yml:1:1: error: missing required key 'title'\n"
	       "folio.yml:4:11: error: unknown time zone 'Mars/Olympus' (use an IANA name such as 'Europe/Berlin' or 'UTC')\n"
	       "folio.yml:2:17: error: 'posts_per_page' must be an integer, found 'x'\n"
	       "folio.yml:3:8: error: 'feeds' must be false, true or a map, found a string");
}

static void test_unknown_keys(void)
{
	STR_EQ(err1("title: T\ntagine: x\n"), "folio.yml:2:1: error: unknown folio.yml key 'tagine' (did you mean 'tagline'?)");
	STR_EQ(err1("title: T\nposts_per_pag: 3\n"),
	       "folio.yml:2:1: error: unknown folio.yml key 'posts_per_pag' (did you mean 'posts_per_page'?)");
	STR_EQ(err1("title: T\nfeatured_seires: [a]\n"),
	       "folio.yml:2:1: error: unknown folio.yml key 'featured_seires' (did you mean 'featured_series'?)");
	STR_EQ(err1("title: T\nlogoo: /logo.png\n"),
	       "folio.yml:2:1: error: unknown folio.yml key 'logoo' (did you mean 'logo'?)");
	STR_EQ(err1("title: T\nlogo: [a]\n"), "folio.yml:2:7: error: 'logo' must be a string, found a list");
	INT_EQ(load("title: T\nimage: /card.png\nlogo: https://cdn.example/logo.png\n"), 0);
	STR_EQ(sv(cfg.image), "/card.png");
	STR_EQ(sv(cfg.logo), "https://cdn.example/logo.png");
	STR_EQ(err1("title: T\nbaseurl: https://x/\n"),
	       "folio.yml:2:1: error: unknown folio.yml key 'baseurl' (did you mean 'base_url'?)");
	STR_EQ(err1("title: T\nzzzzzzzz: 1\n"),
	       "folio.yml:2:1: error: unknown folio.yml key 'zzzzzzzz' (see folio-site(5) for the keys)");
}

static void test_best_of(void)
{
	INT_EQ(load("title: T\n"
		    "best_of:\n"
		    "  - first-post\n"
		    "  - post: second-post\n"
		    "    note: \"Start here.\"\n"
		    "  - {post: third}\n"),
	       0);
	INT_EQ(cfg.nbest_of, 3);
	STR_EQ(sv(cfg.best_of[0].slug), "first-post");
	INT_EQ(cfg.best_of[0].note.len, 0);
	INT_EQ(cfg.best_of[0].line, 3);
	INT_EQ(cfg.best_of[0].col, 5);
	STR_EQ(sv(cfg.best_of[1].slug), "second-post");
	STR_EQ(sv(cfg.best_of[1].note), "Start here.");
	INT_EQ(cfg.best_of[1].line, 4);
	INT_EQ(cfg.best_of[1].col, 11);
	STR_EQ(sv(cfg.best_of[2].slug), "third");

	INT_EQ(load("title: T\nbest_of:\n"), 0);
	INT_EQ(cfg.nbest_of, 0);
	STR_EQ(err1("title: T\nbest_of: one\n"),
	       "folio.yml:2:10: error: 'best_of' must be a list of post slugs or {post, note} maps, found a string");
	STR_EQ(err1("title: T\nbest_of:\n  - [a]\n"),
	       "folio.yml:3:5: error: a best_of item must be a post slug or {post, note}, found a list");
	STR_EQ(err1("title: T\nbest_of:\n  - {note: x}\n"), "folio.yml:3:5: error: a best_of item needs 'post: SLUG'");
	STR_EQ(err1("title: T\nbest_of:\n  - {post: [a]}\n"), "folio.yml:3:12: error: a best_of item needs 'post: SLUG'");
	STR_EQ(err1("title: T\nbest_of:\n  - {post: a, notes: x}\n"),
	       "folio.yml:3:15: error: unknown best_of item key 'notes' (did you mean 'note'?)");
	STR_EQ(err1("title: T\nbest_of:\n  - {post: a, note: [x]}\n"),
	       "folio.yml:3:21: error: 'note' must be a string, found a list");
}

static void test_switches(void)
{
	INT_EQ(load("title: T\nfeeds: false\nmath: false\nhighlight: false\n"), 0);
	INT_EQ(cfg.feeds, 0);
	INT_EQ(cfg.math, 0);
	INT_EQ(cfg.highlight, 0);
	INT_EQ(load("title: T\nfeeds: true\nmath: true\nhighlight: true\n"), 0);
	INT_EQ(cfg.feeds, 1);
	INT_EQ(cfg.math, 1);
	INT_EQ(cfg.highlight, 1);
	INT_EQ(load("title: T\nfeeds: {content: summary}\n"), 0);
	INT_EQ(cfg.feeds, 1);
	INT_EQ(cfg.feeds_full, 0);
	INT_EQ(load("title: T\nfeeds:\n  content: full\n"), 0);
	INT_EQ(cfg.feeds_full, 1);
	STR_EQ(err1("title: T\nfeeds: {content: all}\n"),
	       "folio.yml:2:18: error: feeds.content must be 'full' or 'summary', found 'all'");
	STR_EQ(err1("title: T\nfeeds: {contents: full}\n"),
	       "folio.yml:2:9: error: unknown feeds key 'contents' (did you mean 'content'?)");
	STR_EQ(err1("title: T\nfeeds: yes\n"), "folio.yml:2:8: error: 'feeds' must be false, true or a map, found a string");
	STR_EQ(err1("title: T\nfeeds: [atom]\n"), "folio.yml:2:8: error: 'feeds' must be false, true or a map, found a list");
	STR_EQ(err1("title: T\nmath: 1\n"), "folio.yml:2:7: error: 'math' must be false, true or a map, found a string");

	INT_EQ(load("title: T\nmath:\n  macros:\n    \"\\\\R\": \"\\\\mathbb{R}\"\n"), 0);
	INT_EQ(cfg.math, 1);
	OK(cfg.math_macros != NULL);
	if (cfg.math_macros) {
		INT_EQ(cfg.math_macros->len, 1);
		STR_EQ(cfg.math_macros->keys[0]->str.p, "\\R");
		STR_EQ(cfg.math_macros->items[0]->str.p, "\\mathbb{R}");
	}
	STR_EQ(err1("title: T\nmath: {macros: [a]}\n"),
	       "folio.yml:2:16: error: math.macros must be a map of macro: expansion, found a list");
	STR_EQ(err1("title: T\nmath: {macros: {\"\\\\a\": [b]}}\n"),
	       "folio.yml:2:24: error: the expansion of macro '\\a' must be a string");
	STR_EQ(err1("title: T\nmath: {macro: {}}\n"), "folio.yml:2:8: error: unknown math key 'macro' (did you mean 'macros'?)");
	/* math.delimiters: each name turns its delimiters on, the others off */
	INT_EQ(load("title: T\n"), 0);
	OK(cfg.math_dollars == 1 && cfg.math_brackets == 0);
	INT_EQ(load("title: T\nmath: {delimiters: brackets}\n"), 0);
	OK(cfg.math_dollars == 0 && cfg.math_brackets == 1);
	INT_EQ(load("title: T\nmath: {delimiters: [dollars]}\n"), 0);
	OK(cfg.math_dollars == 1 && cfg.math_brackets == 0);
	INT_EQ(load("title: T\nmath: {delimiters: [dollars, brackets]}\n"), 0);
	OK(cfg.math_dollars == 1 && cfg.math_brackets == 1);
	STR_EQ(err1("title: T\nmath: {delimiters: [dollar]}\n"),
	       "folio.yml:2:21: error: math.delimiters: unknown delimiters 'dollar' (known: dollars for $...$ and $$...$$, "
	       "brackets for \\(...\\) and \\[...\\])");
	STR_EQ(err1("title: T\nmath: {delimiters: []}\n"),
	       "folio.yml:2:20: error: math.delimiters is empty (to turn math off, write math: false)");

	INT_EQ(load("title: T\nhighlight: {theme: monokai}\n"), 0);
	INT_EQ(cfg.highlight, 1);
	STR_EQ(sv(cfg.highlight_theme), "monokai");
	INT_EQ(load("title: T\nhighlight: {}\n"), 0);
	INT_EQ(cfg.highlight, 1);
	STR_EQ(sv(cfg.highlight_theme), "default");
	STR_EQ(err1("title: T\nhighlight: {theme: [a]}\n"), "folio.yml:2:20: error: 'theme' must be a string, found a list");
	STR_EQ(err1("title: T\nhighlight: {style: x}\n"),
	       "folio.yml:2:13: error: unknown highlight key 'style' (see folio-site(5) for the keys)");
}

static void test_timezone(void)
{
	INT_EQ(load("title: T\ntimezone: Europe/Berlin\n"), 0);
	STR_EQ(sv(cfg.timezone), "Europe/Berlin");
	INT_EQ(load("title: T\ntimezone: America/New_York\n"), 0);
	INT_EQ(load("title: T\ntimezone: Etc/UTC\n"), 0);
	STR_EQ(err1("title: T\ntimezone: Asia/Atlantis\n"),
	       "folio.yml:2:11: error: unknown time zone 'Asia/Atlantis' (use an IANA name such as 'Europe/Berlin' or 'UTC')");
	STR_EQ(err1("title: T\ntimezone: ../../etc/passwd\n"),
	       "folio.yml:2:11: error: unknown time zone '../../etc/passwd' (use an IANA name such as 'Europe/Berlin' or 'UTC')");
	STR_EQ(err1("title: T\ntimezone: /etc/passwd\n"),
	       "folio.yml:2:11: error: unknown time zone '/etc/passwd' (use an IANA name such as 'Europe/Berlin' or 'UTC')");
	/* a folder of the zone database is not a zone */
	STR_EQ(err1("title: T\ntimezone: Asia\n"),
	       "folio.yml:2:11: error: unknown time zone 'Asia' (use an IANA name such as 'Europe/Berlin' or 'UTC')");
}

static void test_base_url(void)
{
	INT_EQ(load("title: T\nbase_url: http://localhost:8080/\n"), 0);
	INT_EQ(load("title: T\nbase_url: /blog/\n"), 0);
	STR_EQ(sv(cfg.base_url), "/blog/");
	STR_EQ(err1("title: T\nbase_url: example.org\n"),
	       "folio.yml:2:11: error: 'base_url' must start with http://, https:// or / (e.g. https://example.org/)");
	STR_EQ(err1("title: T\nbase_url: ftp://example.org/\n"),
	       "folio.yml:2:11: error: 'base_url' must start with http://, https:// or / (e.g. https://example.org/)");

	/* --base-url replaces folio.yml's, and is checked itself */
	INT_EQ(load_with("title: T\nbase_url: https://example.org/\n", "http://127.0.0.1:8080/"), 0);
	STR_EQ(sv(cfg.base_url), "http://127.0.0.1:8080/");
	INT_EQ(load_with("title: T\n", "https://override.example/"), 0);
	STR_EQ(sv(cfg.base_url), "https://override.example/");
	/* a bad base_url in folio.yml does not matter when it is overridden */
	INT_EQ(load_with("title: T\nbase_url: nonsense\n", "https://ok.example/"), 0);
	INT_EQ(load_with("title: T\nbase_url: https://example.org/\n", "example.org"), 1);
	STR_EQ(t_msgs(&cap), "--base-url: error: base URL 'example.org' must start with http://, https:// or /");
	/* it goes into every page: it must be UTF-8 (folio.yml's is, as YAML) */
	INT_EQ(load_with("title: T\n", "https://ex.org/\xff/"), 1);
	STR_EQ(t_msgs(&cap), "--base-url: error: base URL 'https://ex.org/\\xFF/' is not UTF-8");
}

/* yml_text: "KEY: \"x...x\"\n" with n x's (arena) */
static const char *yml_text(const char *key, size_t n)
{
	size_t kl = strlen(key);
	char *s = arena_alloc(arena, kl + n + 8);
	memcpy(s, key, kl);
	memcpy(s + kl, ": \"", 3);
	memset(s + kl + 3, 'x', n);
	memcpy(s + kl + 3 + n, "\"\n", 3);
	return s;
}

static const char *cat(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	char *s = arena_alloc(arena, la + lb + 1);
	memcpy(s, a, la);
	memcpy(s + la, b, lb + 1);
	return s;
}

/* texts repeated on every page have a bound; at the bound they load */
static void test_text_limits(void)
{
	/* base_url: "https://xxx...", 1024 bytes in all */
	const char *url = yml_text("base_url", 1024);
	char *u = arena_strndup(arena, url, strlen(url));
	memcpy(u + strlen("base_url: \""), "https://", 8);
	const char *ok = cat(cat(cat(yml_text("title", 1024), yml_text("tagline", 1024)),
				 cat(yml_text("description", 4096), u)),
			     cat(yml_text("language", 1024), "author:\n  name: A\n  "));
	ok = cat(cat(ok, yml_text("email", 1024)), "menu:\n  - {url: /a/, label: L}\n");
	INT_EQ(load(ok), 0);
	INT_EQ((int)cfg.title.len, 1024);
	INT_EQ((int)cfg.base_url.len, 1024);
	INT_EQ((int)cfg.description.len, 4096);
	INT_EQ((int)cfg.author_email.len, 1024);

	STR_EQ(err1(yml_text("title", 1025)), "folio.yml:1:8: error: 'title' is 1025 bytes long, more than 1024: it is "
					       "repeated on every page (see LIMITS in folio-site(5))");
	STR_EQ(err1(cat("title: T\n", yml_text("description", 4097))),
	       "folio.yml:2:14: error: 'description' is 4097 bytes long, more than 4096: it is repeated on every page "
	       "(see LIMITS in folio-site(5))");
	STR_EQ(err1(cat("title: T\n", yml_text("author", 2000))),
	       "folio.yml:2:9: error: 'author' is 2000 bytes long, more than 1024: it is repeated on every page (see "
	       "LIMITS in folio-site(5))");
	STR_EQ(err1(cat("title: T\nauthor:\n  name: A\n  ", yml_text("email", 1025))),
	       "folio.yml:4:10: error: 'author.email' is 1025 bytes long, more than 1024: it is repeated on every page "
	       "(see LIMITS in folio-site(5))");
	STR_EQ(err1(cat("title: T\nmenu:\n  - {url: /a/, ", cat(yml_text("label", 1500), "}\n"))),
	       "folio.yml:3:23: error: a menu item's 'label' is 1500 bytes long, more than 1024: it is repeated on every "
	       "page (see LIMITS in folio-site(5))");
	/* a base_url that is overridden is not used, nor checked */
	INT_EQ(load_with(cat("title: T\n", yml_text("base_url", 5000)), "https://ok.example/"), 0);
	char big[1100];
	memset(big, 'a', sizeof big - 1);
	big[sizeof big - 1] = 0;
	memcpy(big, "https://", 8);
	INT_EQ(load_with("title: T\n", big), 1);
	STR_EQ(t_msgs(&cap), "--base-url: error: base URL is 1099 bytes long, more than 1024: it is repeated on every "
			     "page");

	/* 32 menu items load; the 33rd is an error where it is written */
	const char *menu = "title: T\nmenu:\n";
	for (int i = 0; i < 32; i++)
		menu = cat(menu, "  - {label: L, url: /u/}\n");
	INT_EQ(load(menu), 0);
	INT_EQ((int)cfg.nmenu, 32);
	STR_EQ(err1(cat(menu, "  - {label: L, url: /u/}\n")),
	       "folio.yml:35:5: error: 'menu' has 33 items, more than 32: the menu is on every page (see LIMITS in "
	       "folio-site(5))");
}

void test_config(void)
{
	t_current = "config";
	arena = arena_new();
	buf_init(&cap);
	dir = t_tmpdir();
	test_defaults();
	test_full();
	test_missing_and_shape();
	test_type_errors();
	test_several_errors();
	test_unknown_keys();
	test_best_of();
	test_switches();
	test_timezone();
	test_base_url();
	test_text_limits();
	t_rmtree(dir);
	free(dir);
	buf_fini(&cap);
	arena_free(arena);
	arena = NULL;
}
