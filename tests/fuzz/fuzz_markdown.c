/* fuzz_markdown.c: libFuzzer target for a page's Markdown, as a build
 * renders it: md_render with cmark-gfm's extensions, the math extension,
 * heading ids and the TOC, directives (:::note, :::video, ...), code
 * blocks highlighted by tree-sitter (with their info-string options),
 * formulas typeset by KaTeX, and images sized and made figures.
 *
 * An input is a post's body. A first line "%% WORDS" sets options other
 * than the build's (smart punctuation, math, raw HTML, highlighting and
 * typesetting all on): nosmart, nomath, safe, nohl, notex, brackets
 * (math.delimiters with \\( \\[), nodollars, nocodeui (code blocks as
 * cmark writes them, without the theme's attributes), sidenotes
 * (footnotes written again as sidenotes: as many as doc.sidenotes says,
 * each closed), udirs (three directives of a site's own: box, a block
 * with a string, an int and a bool argument, the string required; k, with
 * none; fails, whose template always fails; rendered by a stand-in that
 * wraps the content, so that no call's marker may be left) and
 * line_offset=N (lines of front matter before the body).
 *
 * Images and directives' files are looked up in the media-figures test
 * site (its static/ and its bundle's folder), relative to the working
 * directory: `make fuzz` runs from the top of the repository. Elsewhere
 * every local image is a "not found" error, which is fine too.
 *
 * KaTeX takes 10-20 us a byte of TeX: only the first MAX_FORMULAS formulas
 * of an input are typeset, the others get an error as a wrong formula
 * does, so that an input full of $x$ stays fast. The formula cache is
 * opened and closed for every input (in memory), so that a formula seen
 * before is typeset again.
 *
 * Each rendered document is also stored in a pack file of the Markdown
 * cache and read back (what the next build would use), which must give the
 * same document.
 *
 * md_render parses a text without a '[' without cmark-gfm's footnotes (no
 * footnote can open without one). An input with no '[' is also parsed by
 * cmark-gfm alone, with footnotes and without, which must give the same
 * HTML.
 *
 * With FUZZ_SHOW set in the environment, the HTML and the diagnostics of
 * each input are printed (to look at what an input does). */
#include "fuzz.h"

#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm.h>

#include "md/highlight.h"
#include "md/markdown.h"
#include "md/math.h"
#include "cache/mdcache.h"

#define MAX_FORMULAS 8
#define ASSETS "tests/sites/media-figures/site"

static int formulas;
static const char *dir;
static char pack[4096];

static int typeset(void *ctx, const char *tex, size_t len, int display, struct buf *out, struct buf *err,
		   int *err_pos)
{
	if (++formulas > MAX_FORMULAS) {
		buf_reset(err);
		buf_puts(err, "fuzz: formula budget spent");
		*err_pos = -1;
		return -1;
	}
	return math_render(ctx, tex, len, display, out, err, err_pos);
}

static const struct math_macro macros[] = {
	{{"\\RR", 3}, {"\\mathbb{R}", 10}},
	{{"\\norm", 5}, {"\\left\\lVert #1 \\right\\rVert", 27}},
};

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	dir = fuzz_tmpdir();
	snprintf(pack, sizeof pack, "%s/markdown.pack", dir);
	/* Load KaTeX and every grammar once, so that the first inputs are not
	 * slow and what stays loaded is not taken for a leak. */
	struct math_cache *mc = math_cache_open(macros, sizeof macros / sizeof *macros);
	struct buf b, err;
	buf_init(&b);
	buf_init(&err);
	int pos;
	math_render(mc, "x^2", 3, 0, &b, &err, &pos);
	math_cache_close(mc);
	for (const char *const *l = hl_languages(); *l; l++)
		hl_render(&b, *l, strlen(*l), "x", 1);
	buf_fini(&b);
	buf_fini(&err);
	return 0;
}

/* has_word: whether the options line opts[0..len) holds word. */
static int has_word(const char *opts, size_t len, const char *word)
{
	size_t wl = strlen(word);
	for (size_t i = 0; i + wl <= len; i++)
		if ((i == 0 || opts[i - 1] == ' ') && !memcmp(opts + i, word, wl) &&
		    (i + wl == len || opts[i + wl] == ' '))
			return 1;
	return 0;
}

/* check_toc: the TOC's entries are headings of the document, deeper
 * under shallower. */
static void check_toc(const struct md_toc *t, size_t n, int parent_level, size_t *count)
{
	for (size_t i = 0; i < n; i++) {
		if (t[i].level < 1 || t[i].level > 6 || t[i].level <= parent_level || !t[i].id.len)
			abort();
		(*count)++;
		check_toc(t[i].children, t[i].nchildren, t[i].level, count);
	}
}

static int str_same(struct str a, struct str b)
{
	return a.len == b.len && (!a.len || !memcmp(a.p, b.p, a.len));
}

static int toc_same(const struct md_toc *a, const struct md_toc *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (a[i].level != b[i].level || a[i].nchildren != b[i].nchildren || !str_same(a[i].id, b[i].id) ||
		    !str_same(a[i].text, b[i].text) || !str_same(a[i].html, b[i].html) ||
		    !toc_same(a[i].children, b[i].children, a[i].nchildren))
			return 0;
	return 1;
}

/* cache_round_trip: doc stored in the pack file and read back by a new
 * cache, as a build and the next one do, is the same document. */
static void cache_round_trip(const struct md_doc *doc, const char *body, size_t len, int line_offset)
{
	fuzz_unlink(dir, "markdown.pack");
	struct md_key k = md_cache_key(1, 0, "content/posts/fuzz.md", len, md_cache_body_hash(body, len), line_offset,
				       NULL);
	struct md_cache *c = md_cache_open(pack);
	md_cache_put(c, &k, 7, doc, 0);
	if (md_cache_save(c) != 0)
		fuzz_die(pack);
	md_cache_free(c);
	c = md_cache_open(pack);
	struct arena *a = arena_new();
	struct md_doc got;
	if (!md_cache_get(c, &k, 7, a, &got) || !str_same(got.html, doc->html) ||
	    !str_same(got.summary_html, doc->summary_html) || !str_same(got.summary_text, doc->summary_text) ||
	    got.ntoc != doc->ntoc || !toc_same(got.toc, doc->toc, got.ntoc) || got.nheadings != doc->nheadings ||
	    got.words != doc->words || got.code_words != doc->code_words || got.images != doc->images ||
	    got.cjk_chars != doc->cjk_chars || got.math_spans != doc->math_spans || got.has_more != doc->has_more || got.sidenotes != doc->sidenotes ||
	    got.has_model3d != doc->has_model3d || got.has_video != doc->has_video) {
		fprintf(stderr, "the Markdown cache gives another document than was stored\n");
		abort();
	}
	arena_free(a);
	md_cache_free(c);
}

/* stock_html: text parsed and rendered by cmark-gfm with GitHub's
 * extensions and parse_options, rendered with md_render's options. */
static char *stock_html(const char *text, size_t len, int parse_options)
{
	const int render = CMARK_OPT_FOOTNOTES | CMARK_OPT_UNSAFE | CMARK_OPT_TABLE_PREFER_STYLE_ATTRIBUTES;
	cmark_parser *p = cmark_parser_new(parse_options | CMARK_OPT_UNSAFE | CMARK_OPT_VALIDATE_UTF8 |
					   CMARK_OPT_TABLE_PREFER_STYLE_ATTRIBUTES);
	static const char *const exts[] = {"table", "strikethrough", "autolink", "tasklist"};
	for (size_t i = 0; i < sizeof exts / sizeof *exts; i++)
		cmark_parser_attach_syntax_extension(p, cmark_find_syntax_extension(exts[i]));
	cmark_parser_feed(p, text, len);
	cmark_node *doc = cmark_parser_finish(p);
	char *html = cmark_render_html(doc, render, cmark_parser_get_syntax_extensions(p));
	cmark_node_free(doc);
	cmark_parser_free(p);
	return html;
}

static void footnotes_need_a_bracket(const char *text, size_t len)
{
	if (memchr(text, '[', len))
		return;
	char *with = stock_html(text, len, CMARK_OPT_FOOTNOTES), *without = stock_html(text, len, 0);
	if (strcmp(with, without)) {
		fprintf(stderr, "a text with no '[' is not the same without footnotes:\n%s\n---\n%s\n", with,
			without);
		abort();
	}
	free(with);
	free(without);
}

/* A site's own directives (udirs), and their stand-in template */
static const struct md_uarg box_args[] = {
	{"kind", MD_UARG_STRING, 1, NULL},
	{"n", MD_UARG_INT, 0, "3"},
	{"on", MD_UARG_BOOL, 0, NULL},
};
static const struct md_udir udirs[] = {
	{"box", box_args, 3, "templates/directives/box.html", "templates/directives/box.html", 1, 0},
	{"fails", NULL, 0, "templates/directives/fails.html", "templates/directives/fails.html", 2, 0},
	{"k", NULL, 0, "templates/directives/k.html", "templates/directives/k.html", 3, 0},
};

static int udir_render(void *ctx, const struct md_udir_call *call, struct buf *out, struct buf *err)
{
	(void)ctx;
	if (!strcmp(call->dir->name, "fails")) {
		buf_puts(err, "templates/directives/fails.html:1:1: it fails");
		return -1;
	}
	buf_printf(out, "<x-%s", call->dir->name);
	for (size_t i = 0; i < call->dir->nargs; i++)
		if (call->values[i]) {
			buf_printf(out, " %s=\"", call->dir->args[i].name);
			buf_put_html(out, call->values[i], strlen(call->values[i]));
			buf_putc(out, '"');
		}
	buf_putc(out, '>');
	buf_append(out, call->content.p, call->content.len);
	buf_printf(out, "</x-%s>", call->dir->name);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	size_t len = size;
	struct md_options o = {.smart = 1, .math = 1, .unsafe = 1, .highlight = hl_render, .typeset = typeset,
			       .static_dir = ASSETS "/static", .asset_dir = ASSETS "/content/posts/figures",
			       .code_ui = 1};
	int line_offset = 0;
	if (len >= 3 && !memcmp(text, "%% ", 3)) {
		const char *nl = memchr(text, '\n', len);
		size_t ol = nl ? (size_t)(nl - text) : len;
		const char *opts = text + 3;
		size_t n = ol - 3;
		o.smart = !has_word(opts, n, "nosmart");
		o.math = !has_word(opts, n, "nomath");
		o.unsafe = !has_word(opts, n, "safe");
		if (has_word(opts, n, "nohl"))
			o.highlight = NULL;
		if (has_word(opts, n, "notex"))
			o.typeset = NULL;
		o.brackets = has_word(opts, n, "brackets");
		o.code_ui = !has_word(opts, n, "nocodeui");
		o.no_dollars = has_word(opts, n, "nodollars");
		o.sidenotes = has_word(opts, n, "sidenotes");
		if (has_word(opts, n, "udirs")) {
			o.udirs = udirs;
			o.nudirs = sizeof udirs / sizeof *udirs;
			o.udir_render = udir_render;
		}
		const char *lo = memmem(opts, n, "line_offset=", 12);
		/* digits within the option line: the input has no NUL after it */
		for (const char *q = lo ? lo + 12 : NULL; q && q < opts + n && *q >= '0' && *q <= '9'; q++)
			line_offset = (line_offset * 10 + (*q - '0')) % 100000;
		text += nl ? ol + 1 : ol;
		len -= nl ? ol + 1 : ol;
	}
	/* md_render reads text[0..len): a copy of just that, so that ASan sees
	 * a read past it */
	char *body = malloc(len ? len : 1);
	memcpy(body, text, len);

	struct math_cache *mc = math_cache_open(macros, sizeof macros / sizeof *macros);
	o.typeset_ctx = mc;
	formulas = 0;
	struct arena *a = arena_new();
	struct diag d;
	struct buf cap;
	buf_init(&cap);
	diag_init(&d, NULL);
	d.capture = &cap;

	struct md_doc doc;
	md_render(a, &o, &d, "content/posts/fuzz.md", body, len, body, len, line_offset, &doc);
	if (getenv("FUZZ_SHOW"))
		fprintf(stderr, "%.*s\n--- diagnostics\n%s\n", STR_FMT(doc.html), cap.p ? cap.p : "");
	/* every call of a site's directive filled (unless the text itself
	 * holds what looks like a marker) */
	if (o.udirs && !memmem(body, len, "folio-udir", 10) &&
	    (memmem(doc.html.p, doc.html.len, "folio-udir", 10) ||
	     (doc.summary_html.len && memmem(doc.summary_html.p, doc.summary_html.len, "folio-udir", 10))))
		abort();
	/* each sidenote counted, and the HTML has no more of them */
	size_t sn = 0;
	static const char sn_tag[] = "<span class=\"sidenote\">";
	for (const char *p = doc.html.p, *e = doc.html.p + doc.html.len;
	     (p = memmem(p, (size_t)(e - p), sn_tag, sizeof sn_tag - 1)); p++)
		sn++;
	if (!o.sidenotes && doc.sidenotes)
		abort();
	if (sn < doc.sidenotes)
		abort();
	size_t entries = 0;
	check_toc(doc.toc, doc.ntoc, 0, &entries);
	if (entries > doc.nheadings)
		abort();
	(void)md_reading_minutes(&doc, 230);
	for (size_t i = 0; i < doc.ntoc; i++) {
		struct buf slug;
		buf_init(&slug);
		md_slugify(&slug, doc.toc[i].text);
		buf_fini(&slug);
	}

	cache_round_trip(&doc, body, len, line_offset);
	footnotes_need_a_bracket(body, len);

	diag_fini(&d);
	buf_fini(&cap);
	arena_free(a);
	math_cache_close(mc);
	free(body);
	return 0;
}
