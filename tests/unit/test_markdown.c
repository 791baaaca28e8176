/* test_markdown.c: markdown.c: slugs, reading time, CommonMark behaviour
 * kept, math, heading ids and the TOC, summary, counts, threads,
 * pathological inputs; and the spec cases of tests/markdown/ (*.txt).
 *
 * A case file holds cases like this (one trailing newline of each section is
 * dropped; lines before the first "===" are comments):
 *
 *   === what the case shows
 *   --- options        (optional, words: smart nomath safe normalize line_offset=N)
 *   --- markdown       (the body given to md_render)
 *   --- html           (the expected body; "normalize" drops heading ids and anchors first)
 *   --- error          (the expected diagnostics, exactly; none if absent)
 *   --- toc            (one line per entry: "h2 id | text | html", two spaces per depth)
 *   --- summary_html
 *   --- summary_text
 *   --- counts         (words=N code=N images=N cjk=N math=N headings=N more=N minutes=N)
 */
#include "harness.h"

#include "md/markdown.h"

#include <cmark-gfm.h>
#include <dirent.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static struct arena *A;

/* render: md_render of md with a diag capturing into errs (may be NULL). */
static int render(const char *md, int smart, int math, int line_offset, struct md_doc *doc,
                  struct buf *errs)
{
	struct diag d;
	diag_init(&d, NULL);
	d.capture = errs;
	struct md_options o = {.smart = smart, .math = math, .unsafe = 1};
	size_t n = strlen(md);
	int rc = md_render(A, &o, &d, "content/posts/p.md", md, n, md, n, line_offset, doc);
	diag_fini(&d);
	return rc;
}

static const char *html_of(const char *md)
{
	struct md_doc doc;
	render(md, 0, 1, 0, &doc, NULL);
	return doc.html.p;
}

/* normalize_headings: html with <hN id="..."> made <hN> and the anchors
 * dropped, as cmark renders headings. */
static void normalize_headings(const char *h, struct buf *out)
{
	static const char anchor[] = " <a class=\"anchor\" href=\"#";
	buf_reset(out);
	buf_puts(out, "");
	while (*h) {
		if (h[0] == '<' && h[1] == 'h' && h[2] >= '1' && h[2] <= '6' &&
		    strncmp(h + 3, " id=\"", 5) == 0) {
			const char *e = strstr(h + 8, "\">");
			if (e) {
				buf_append(out, h, 3);
				buf_putc(out, '>');
				h = e + 2;
				continue;
			}
		}
		if (strncmp(h, anchor, sizeof anchor - 1) == 0) {
			const char *e = strstr(h, "</a>");
			if (e) {
				h = e + 4;
				continue;
			}
		}
		buf_putc(out, *h++);
	}
}

/* ---- slugs and reading time ---- */

/* md_image_at: the first image of the page, never one commented out */
static void test_image_at(void)
{
	const char *h1 = "<p>a</p><!-- <img src=\"old.png\"> --><p><img src=\"new.png\" alt=\"\"></p>";
	size_t at = md_image_at((struct str){h1, strlen(h1)});
	OK(at > 2 && !strncmp(h1 + at - 2, "<img src=\"new.png", 17));
	const char *h2 = "<!-- <img src=\"old.png\"> -->";
	INT_EQ(md_image_at((struct str){h2, strlen(h2)}), 1);
	const char *h3 = "<!-- never closed <img src=\"x.png\">";
	INT_EQ(md_image_at((struct str){h3, strlen(h3)}), 1);
	const char *h4 = "<img src=\"first.png\"><!-- x -->";
	INT_EQ(md_image_at((struct str){h4, strlen(h4)}), 2);
	INT_EQ(md_image_at((struct str){"", 0}), 1);
}

static void test_slugs(void)
{
	struct {
		const char *text, *slug;
	} cases[] = {
	    {"Why cudaMemcpy is slow", "why-cudamemcpy-is-slow"},
	    {"Hello, World!", "hello-world"},
	    {"C++ & C#: a comparison", "c--c-a-comparison"},
	    {"snake_case and kebab-case", "snake_case-and-kebab-case"},
	    {"Ünïcödé ÉTÉ", "ünïcödé-été"},
	    {"ΑΒΓ Δέλτα", "αβγ-δέλτα"},
	    {"日本語の見出し", "日本語の見出し"},
	    {"2. Step two (optional)", "2-step-two-optional"},
	    {"!!!", "section"},
	    {"", "section"},
	    {"- - -", "section"},
	    {"emoji 🚀 launch", "emoji--launch"},
	    {"Tab\there", "tabhere"},
	};
	struct buf b;
	buf_init(&b);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		buf_reset(&b);
		md_slugify(&b, str_from(cases[i].text));
		STR_EQ(b.p, cases[i].slug);
	}
	/* appends: what is in the buffer stays */
	buf_reset(&b);
	buf_puts(&b, "#");
	md_slugify(&b, STR_LIT("A b"));
	STR_EQ(b.p, "#a-b");
	buf_fini(&b);
}

static void test_reading_minutes(void)
{
	struct md_doc d;
	memset(&d, 0, sizeof d);
	INT_EQ(md_reading_minutes(&d, 230), 1); /* at least 1 */
	d.words = 2300;
	INT_EQ(md_reading_minutes(&d, 230), 10);
	INT_EQ(md_reading_minutes(&d, 0), 10); /* 0: the default speed */
	d.words = 2300 + 114;                  /* 10.496 minutes: rounds down */
	INT_EQ(md_reading_minutes(&d, 230), 10);
	d.words = 2300 + 116; /* 10.504: rounds up */
	INT_EQ(md_reading_minutes(&d, 230), 11);
	memset(&d, 0, sizeof d);
	d.code_words = 230; /* code at a third of the speed: 3 minutes */
	INT_EQ(md_reading_minutes(&d, 230), 3);
	memset(&d, 0, sizeof d);
	d.images = 10; /* 12 s each */
	INT_EQ(md_reading_minutes(&d, 230), 2);
	memset(&d, 0, sizeof d);
	d.cjk_chars = 5000; /* 500 a minute */
	INT_EQ(md_reading_minutes(&d, 230), 10);
}

/* ---- CommonMark is unchanged ---- */

/* Documents without '$' and without GitHub's extensions: md_render, with
 * math on or off, must give what plain cmark_markdown_to_html gives (heading
 * ids and anchors aside). */
static const char *const PLAIN_DOCS[] = {
    "Hello *world*\n",
    "# One\n\n## Two ##\n\nSetext\n======\n\nAnother\n---\n",
    "***\n---\n___\n",
    "    indented code\n\n```c\nint x = *p;\n```\n\n~~~\nfenced with tildes\n~~~\n",
    "> quote *with* emphasis\n> > nested\n\nlazy\n> continuation\nline\n",
    "- a\n- b\n\n  - nested\n\n1. one\n2. two\n\n7) seven\n",
    "- tight\n- list\n\n* loose\n\n* list\n",
    "*em* _em_ **strong** __strong__ ***both*** snake_case_name a*b*c\n",
    "`code` ``co`de`` ` a `\n",
    "[link](/url \"title\") [ref][r] [r][] [r]\n\n[r]: /ref 'Ref title'\n",
    "![image](/i.png \"t\") ![ref img][r]\n\n[r]: /r.png\n",
    "<http://example.com> <mailto:a@b.c> <a@b.example>\n",
    "Inline <span class=\"x\">html</span> and <!-- comment --> here.\n",
    "<div>\n*block html*\n</div>\n\n<figure>\n<img src=\"x.png\">\n</figure>\n",
    "line one  \nline two\\\nline three\nline four\n",
    "\\*not em\\* \\# \\[not link\\] \\` \\\\ backslash\n",
    "&amp; &copy; &#35; &#x22; &nbsp;x &notanentity;\n",
    "\tTabbed code\n\n- \titem with tab\n",
    "Paragraph\n\n\n\nafter blank lines\n",
    "1. item\n\n   continuation paragraph\n\n       code in item\n",
    "> # Heading in quote\n> - list in quote\n",
    "Foo\nbar\n---\n\nbaz\n",
    "<!-- a comment block -->\n\ntext\n",
    "**unclosed *emphasis\n",
    "[unclosed link(\n",
    "Ünïcödé text 日本語 — with dashes -- and quotes \"x\" 'y'...\n",
    "Numbers 5 and 10 and 100% and a # sign\n",
    "# Heading with `code` and *em*\n\ntext after\n",
    "<pre>\npreformatted *not* parsed\n</pre>\n",
    "Text with a trailing backslash\\\n",
    "- [not a task] item\n",
    "Autolink-looking text: example dot com, not linked\n",
    "[nested [brackets]](/u) and [empty]()\n",
    "Two  spaces  inside  and trailing   \n",
    "",
};

static void test_plain_commonmark(void)
{
	struct buf norm;
	buf_init(&norm);
	int opts_base = CMARK_OPT_UNSAFE | CMARK_OPT_VALIDATE_UTF8 | CMARK_OPT_FOOTNOTES;
	for (size_t i = 0; i < sizeof PLAIN_DOCS / sizeof PLAIN_DOCS[0]; i++) {
		const char *md = PLAIN_DOCS[i];
		for (int variant = 0; variant < 3; variant++) {
			int smart = variant == 2, math = variant != 1;
			struct md_doc doc;
			render(md, smart, math, 0, &doc, NULL);
			char *want = cmark_markdown_to_html(
			    md, strlen(md), opts_base | (smart ? CMARK_OPT_SMART : 0));
			normalize_headings(doc.html.p, &norm);
			if (strcmp(norm.p, want) != 0)
				t_fail(__FILE__, __LINE__,
				       "plain doc %zu (smart %d, math %d):\n%s\n--- got\n%s--- "
				       "want\n%s",
				       i, smart, math, md, norm.p, want);
			else
				t_passed++;
			free(want);
		}
	}
	buf_fini(&norm);
}

/* random_doc: md made of min + r % span pieces of bits, chosen by a linear
 * congruential generator from *seed (the same documents on every run). */
static void random_doc(struct buf *md, unsigned *seed, int min, int span, const char *const *bits, size_t nbits)
{
	buf_reset(md);
	int n = min + (int)((*seed = *seed * 1103515245u + 12345u) >> 16) % span;
	for (int k = 0; k < n; k++) {
		*seed = *seed * 1103515245u + 12345u;
		buf_puts(md, bits[(*seed >> 16) % nbits]);
	}
}

/* Random documents without '$': the math extension must change nothing. */
static void test_math_is_neutral(void)
{
	static const char *const bits[] = {
	    "a",  "b",        " ",          "*",     "_",         "`",     "[",    "]",    "(",
	    ")",  "!",        "<",          ">",     "\\",        "\n",    "\n\n", "#",    "-",
	    "~~", "www.x.io", "http://a.b", "| a |", "|---|",     "1. ",   "> ",   "    ", "&amp;",
	    "\"", "'",        "x@y.z",      "[^1]",  "[^1]: n\n", "```\n", "é",    "日"};
	unsigned seed = 12345;
	struct buf md;
	buf_init(&md);
	int same = 1;
	for (int i = 0; i < 300; i++) {
		random_doc(&md, &seed, 5, 60, bits, sizeof bits / sizeof bits[0]);
		struct md_doc on, off;
		render(md.p, (i & 3) == 0, 1, 0, &on, NULL);
		render(md.p, (i & 3) == 0, 0, 0, &off, NULL);
		if (!str_eq(on.html, off.html)) {
			t_fail(__FILE__, __LINE__,
			       "math changed a document without '$':\n%s\n--- on\n%s--- off\n%s",
			       md.p, on.html.p, off.html.p);
			same = 0;
			break;
		}
	}
	OK(same);
	buf_fini(&md);
}

/* ---- math ---- */

static void test_md_math(void)
{
	struct md_doc doc;
	render("$a$ and $$b$$ and $c$", 0, 1, 0, &doc, NULL);
	INT_EQ(doc.math_spans, 3);
	STR_EQ(
	    doc.html.p,
	    "<p><span class=\"math inline\">a</span> and <span class=\"math display\">b</span> and "
	    "<span class=\"math inline\">c</span></p>\n");
	render("$a$ and $$b$$", 0, 0, 0, &doc, NULL);
	INT_EQ(doc.math_spans, 0);
	STR_EQ(doc.html.p, "<p>$a$ and $$b$$</p>\n");
	/* byte for byte: no emphasis, escapes, entities or smart quotes inside */
	render("$a_1 *b* \\{c\\} &amp; 'd' -- e...$", 1, 1, 0, &doc, NULL);
	STR_EQ(doc.html.p,
	       "<p><span class=\"math inline\">a_1 *b* \\{c\\} &amp;amp; 'd' -- e...</span></p>\n");
	STR_EQ(html_of("$5 and $10"), "<p>$5 and $10</p>\n");
	STR_EQ(html_of("$$ unclosed"), "<p>$$ unclosed</p>\n");
	render("text $$ unclosed", 0, 1, 0, &doc, NULL);
	INT_EQ(doc.math_spans, 0);
	STR_EQ(html_of("\\$x$ and \\$$"), "<p>$x$ and $$</p>\n");
	STR_EQ(html_of("`$x$` and\n\n    $y$\n"),
	       "<p><code>$x$</code> and</p>\n<pre><code>$y$\n</code></pre>\n");
	STR_EQ(html_of("$a<b>&\"c$"),
	       "<p><span class=\"math inline\">a&lt;b&gt;&amp;&quot;c</span></p>\n");
	/* no diagnostics for inline math; an unclosed $$ block is an error
	 * at its opening, in the file (after the front matter's lines) */
	struct buf errs;
	buf_init(&errs);
	INT_EQ(render("$x and $$ y\n\n$x", 0, 1, 0, &doc, &errs), 0);
	INT_EQ(errs.len, 0);
	INT_EQ(render("text\n\n> $$ never closed\n\n$x", 0, 1, 3, &doc, &errs), -1);
	OK(errs.p && strstr(errs.p, "content/posts/p.md:6:3: error: display math: no closing $$ below this one"));
	buf_fini(&errs);
}

/* math.delimiters: brackets (\( \) and \[ \]) and without dollars */
static const char *html_with(const char *md, int no_dollars, int brackets, struct md_doc *doc, struct buf *errs)
{
	struct diag d;
	diag_init(&d, NULL);
	d.capture = errs;
	struct md_options o = {.math = 1, .unsafe = 1, .no_dollars = no_dollars, .brackets = brackets};
	size_t n = strlen(md);
	md_render(A, &o, &d, "content/posts/p.md", md, n, md, n, 0, doc);
	diag_fini(&d);
	return doc->html.p;
}

static void test_md_brackets(void)
{
	struct md_doc doc;
	STR_EQ(html_with("\\(a_1\\) and \\[b\\] and $c$", 0, 1, &doc, NULL),
	       "<p><span class=\"math inline\">a_1</span> and <span class=\"math display\">b</span> and "
	       "<span class=\"math inline\">c</span></p>\n");
	INT_EQ(doc.math_spans, 3);
	/* off by default: \( is an escaped parenthesis */
	STR_EQ(html_with("\\(a\\) \\[b\\]", 0, 0, &doc, NULL), "<p>(a) [b]</p>\n");
	/* without dollars, $ is text */
	STR_EQ(html_with("$a$ \\(b\\)", 1, 1, &doc, NULL), "<p>$a$ <span class=\"math inline\">b</span></p>\n");
	STR_EQ(html_with("$$\nx_1\n$$\n", 1, 1, &doc, NULL), "<p>$$\nx_1\n$$</p>\n");
	/* code, raw HTML, fences and escapes keep their backslashes */
	STR_EQ(html_with("`\\(x\\)` \\\\(y\\\\) <b title=\"\\(z\\)\">w</b>", 0, 1, &doc, NULL),
	       "<p><code>\\(x\\)</code> \\(y\\) <b title=\"\\(z\\)\">w</b></p>\n");
	STR_EQ(html_with("```\n\\[x\\]\n```\n\n    \\(i\\)\n", 0, 1, &doc, NULL),
	       "<pre><code>\\[x\\]\n</code></pre>\n<pre><code>\\(i\\)\n</code></pre>\n");
	/* TeX byte for byte, backslashes inside included */
	STR_EQ(html_with("\\(\\{a\\} *b* \\\\ c\\)", 0, 1, &doc, NULL),
	       "<p><span class=\"math inline\">\\{a\\} *b* \\\\ c</span></p>\n");
	/* a lone opener or closer is the escape it was: no link opens */
	STR_EQ(html_with("a \\[x](y) and \\) b", 0, 1, &doc, NULL), "<p>a [x](y) and ) b</p>\n");
	STR_EQ(html_with("[t \\(x\\)](/u \"a\\(b\")", 0, 1, &doc, NULL),
	       "<p><a href=\"/u\" title=\"a(b\">t <span class=\"math inline\">x</span></a></p>\n");
	/* a display block: Markdown does not read its lines */
	STR_EQ(html_with("\\[\nC = A\n+ B\n\n- D_1 _e_\n\\]\n", 0, 1, &doc, NULL),
	       "<p><span class=\"math display\">\nC = A\n+ B\n\n- D_1 _e_\n</span></p>\n");
	STR_EQ(html_with("> \\[\n> x\n> \\] after\n", 0, 1, &doc, NULL),
	       "<blockquote>\n<p><span class=\"math display\">\nx\n</span></p>\n<p>after</p>\n</blockquote>\n");
	/* a byte that looks like the sentinel is not one */
	html_with("a\x02(b\x02) \\(c\\)", 0, 1, &doc, NULL);
	INT_EQ(doc.math_spans, 1);
	struct buf errs;
	buf_init(&errs);
	html_with("text\n\n\\[\nnever closed\n", 0, 1, &doc, &errs);
	OK(errs.p && strstr(errs.p, "content/posts/p.md:3:1: error: display math: no closing \\] below this one"));
	buf_fini(&errs);
}

/* Random documents with backslashes and brackets that give no formula: the
 * same HTML with brackets on as off (a sentinel left over is the escape). */
static void test_brackets_are_neutral(void)
{
	static const char *const bits[] = {"a", " ", "`", "[", "]", "[a](", "](", "\"", "(", ")", "\\", "\\(", "\\)",
	                                   "\\[", "\\]", "\n", "\n\n", "<b>", "> ", "    ", "x", "é"};
	unsigned seed = 777;
	struct buf md;
	buf_init(&md);
	int same = 1, compared = 0;
	for (int i = 0; i < 3000 && same; i++) {
		random_doc(&md, &seed, 3, 30, bits, sizeof bits / sizeof bits[0]);
		struct md_doc on, off;
		struct buf errs;
		buf_init(&errs);
		html_with(md.p, 0, 1, &on, &errs);
		size_t nerr = errs.len;
		buf_fini(&errs);
		if (on.math_spans || nerr) /* a formula, or an unclosed \[ */
			continue;
		html_with(md.p, 0, 0, &off, NULL);
		compared++;
		if (!str_eq(on.html, off.html)) {
			t_fail(__FILE__, __LINE__, "brackets changed a document without formulas:\n%s\n--- on\n%s--- off\n%s",
			       md.p, on.html.p, off.html.p);
			same = 0;
		}
	}
	OK(same);
	OK(compared > 100);
	buf_fini(&md);
}

/* ---- headings ---- */

/* labels: the words of the HTML that are not the author's come from the
 * options (the site's language), escaped; a callout's own title wins, and
 * without labels they are English. */
static void test_labels(void)
{
	struct diag d;
	diag_init(&d, NULL);
	struct md_options o = {.unsafe = 1};
	o.labels[MD_LABEL_HEADING_LINK] = "Lien \"ici\" & là";
	o.labels[MD_LABEL_NOTE] = "Remarque <1>";
	o.labels[MD_LABEL_TIP] = "Astuce";
	o.labels[MD_LABEL_WARNING] = "Attention";
	static const char md[] = "## Un titre\n\n:::note\nA.\n:::\n\n:::tip\nB.\n:::\n\n:::warning\nC.\n:::\n\n"
				 ":::note{title=\"Mine\"}\nD.\n:::\n";
	struct md_doc doc;
	INT_EQ(md_render(A, &o, &d, "content/posts/p.md", md, sizeof md - 1, md, sizeof md - 1, 0, &doc), 0);
	OK(strstr(doc.html.p, "aria-label=\"Lien &quot;ici&quot; &amp; là\">#</a></h2>") != NULL);
	OK(strstr(doc.html.p, "<p class=\"callout-title\">Remarque &lt;1&gt;</p>") != NULL);
	OK(strstr(doc.html.p, "<p class=\"callout-title\">Astuce</p>") != NULL);
	OK(strstr(doc.html.p, "<p class=\"callout-title\">Attention</p>") != NULL);
	OK(strstr(doc.html.p, "<p class=\"callout-title\">Mine</p>") != NULL);
	/* none given: English */
	struct md_options en = {.unsafe = 1};
	INT_EQ(md_render(A, &en, &d, "content/posts/p.md", md, sizeof md - 1, md, sizeof md - 1, 0, &doc), 0);
	OK(strstr(doc.html.p, "aria-label=\"Link to this section\">#</a></h2>") != NULL);
	OK(strstr(doc.html.p, "<p class=\"callout-title\">Note</p>") != NULL);
	OK(strstr(doc.html.p, "<p class=\"callout-title\">Tip</p>") != NULL);
	OK(strstr(doc.html.p, "<p class=\"callout-title\">Warning</p>") != NULL);
	diag_fini(&d);
}

static void test_headings(void)
{
	struct md_doc doc;
	render("## Why `cudaMemcpy` is slow\n", 0, 1, 0, &doc, NULL);
	STR_EQ(doc.html.p,
	       "<h2 id=\"why-cudamemcpy-is-slow\">Why <code>cudaMemcpy</code> is slow <a "
	       "class=\"anchor\" "
	       "href=\"#why-cudamemcpy-is-slow\" aria-label=\"Link to this section\">#</a></h2>\n");
	INT_EQ(doc.ntoc, 1);
	STR_EQ(doc.toc[0].id.p, "why-cudamemcpy-is-slow");
	STR_EQ(doc.toc[0].text.p, "Why cudaMemcpy is slow");
	STR_EQ(doc.toc[0].html.p, "Why <code>cudaMemcpy</code> is slow");

	/* GitHub's de-duplication */
	render("# Intro\n## Intro\n### Intro\n## Intro-1\n", 0, 1, 0, &doc, NULL);
	INT_EQ(doc.nheadings, 4);
	INT_EQ(doc.ntoc, 1);
	STR_EQ(doc.toc[0].id.p, "intro");
	INT_EQ(doc.toc[0].nchildren, 2);
	STR_EQ(doc.toc[0].children[0].id.p, "intro-1");
	STR_EQ(doc.toc[0].children[0].children[0].id.p, "intro-2");
	STR_EQ(doc.toc[0].children[1].id.p, "intro-1-1");

	/* levels that skip still nest; a higher level starts a new entry */
	render("### Deep first\n## A\n#### A.a\n### A.b\n##### A.b.x\n# B\n## B.1\n", 0, 1, 0, &doc,
	       NULL);
	INT_EQ(doc.ntoc, 3);
	STR_EQ(doc.toc[0].id.p, "deep-first");
	INT_EQ(doc.toc[0].nchildren, 0);
	STR_EQ(doc.toc[1].id.p, "a");
	INT_EQ(doc.toc[1].nchildren, 2);
	STR_EQ(doc.toc[1].children[0].id.p, "aa");
	INT_EQ(doc.toc[1].children[0].level, 4);
	STR_EQ(doc.toc[1].children[1].id.p, "ab");
	INT_EQ(doc.toc[1].children[1].nchildren, 1);
	STR_EQ(doc.toc[1].children[1].children[0].id.p, "abx");
	STR_EQ(doc.toc[2].id.p, "b");
	INT_EQ(doc.toc[2].nchildren, 1);

	/* custom ids; a slug that collides with one gets a suffix */
	render("## Setup\n\n## Other {#setup}\n\n## Third {#my.id}\n", 0, 1, 0, &doc, NULL);
	STR_EQ(doc.toc[0].id.p, "setup-1");
	STR_EQ(doc.toc[1].id.p, "setup");
	STR_EQ(doc.toc[1].text.p, "Other");
	STR_EQ(doc.toc[2].id.p, "my.id");

	/* a duplicate custom id is an error, at the brace, in the file */
	struct buf errs;
	buf_init(&errs);
	static const char file[] =
	    "---\ntitle: T\n---\n\nIntro.\n\n## First {#dup}\n\nText.\n\n> ## Second   {#dup}\n";
	const char *body = file + 18; /* after the front matter: 4 lines */
	struct diag d;
	diag_init(&d, NULL);
	d.capture = &errs;
	struct md_options o = {.smart = 0, .math = 1, .unsafe = 1};
	int rc = md_render(A, &o, &d, "content/posts/p.md", file, sizeof file - 1, body,
	                   strlen(body), 4, &doc);
	diag_fini(&d);
	INT_EQ(rc, -1);
	STR_EQ(
	    errs.p,
	    "content/posts/p.md:11:15: error: duplicate heading id 'dup' (first used on line 7)\n"
	    " 11 | > ## Second   {#dup}\n"
	    "    |               ^\n");
	STR_EQ(doc.toc[1].text.p, "Second");
	buf_fini(&errs);
}

/* ---- summary and counts ---- */

static size_t code_points(struct str s)
{
	size_t n = 0;
	for (size_t i = 0; i < s.len; i++)
		n += ((unsigned char)s.p[i] & 0xC0) != 0x80;
	return n;
}

static int valid_utf8(struct str s)
{
	for (size_t i = 0; i < s.len;) {
		unsigned char c = (unsigned char)s.p[i];
		size_t k = c < 0x80         ? 1
		           : (c >> 5) == 6  ? 2
		           : (c >> 4) == 14 ? 3
		           : (c >> 3) == 30 ? 4
		                            : 0;
		if (!k || i + k > s.len)
			return 0;
		for (size_t j = 1; j < k; j++)
			if (((unsigned char)s.p[i + j] & 0xC0) != 0x80)
				return 0;
		i += k;
	}
	return 1;
}

static int ends_with(struct str s, const char *suffix)
{
	size_t n = strlen(suffix);
	return s.len >= n && memcmp(s.p + s.len - n, suffix, n) == 0;
}

/* render_after_spaces: a first paragraph of n spaces (written as
 * entities, which cmark keeps) followed by tail, through render. */
static void render_after_spaces(struct buf *md, int n, const char *tail, struct md_doc *doc)
{
	buf_reset(md);
	for (int i = 0; i < n; i++)
		buf_puts(md, "&#32;");
	buf_puts(md, tail);
	render(md->p, 0, 1, 0, doc, NULL);
}

static void test_summary(void)
{
	struct md_doc doc;
	struct buf md;
	buf_init(&md);
	/* a long first paragraph: cut at a word boundary, with "…" */
	for (int i = 0; i < 200; i++)
		buf_printf(&md, "word%d ", i);
	buf_puts(&md, "\n\nSecond paragraph.\n");
	render(md.p, 0, 1, 0, &doc, NULL);
	OK(code_points(doc.summary_text) <= 300);
	OK(code_points(doc.summary_text) > 250);
	OK(ends_with(doc.summary_text, "…"));
	/* the cut is at a space: what precedes "…" is a whole word */
	{
		struct str s = doc.summary_text;
		size_t k = s.len - strlen("…");
		size_t j = k;
		while (j > 0 && s.p[j - 1] != ' ')
			j--;
		char word[32];
		snprintf(word, sizeof word, "%.*s", (int)(k - j), s.p + j);
		char expect[32];
		int num = atoi(word + 4);
		snprintf(expect, sizeof expect, "word%d", num);
		STR_EQ(word, expect);
		OK(strstr(md.p, word) != NULL);
	}
	INT_EQ(doc.has_more, 0);

	/* CJK: no spaces to cut at, the cut falls between characters */
	buf_reset(&md);
	for (int i = 0; i < 400; i++)
		buf_puts(&md, i % 2 ? "語" : "日");
	render(md.p, 0, 1, 0, &doc, NULL);
	INT_EQ(code_points(doc.summary_text), 300);
	OK(valid_utf8(doc.summary_text));
	OK(ends_with(doc.summary_text, "…"));
	INT_EQ(doc.cjk_chars, 400);
	INT_EQ(doc.words, 0);

	/* one word longer than the limit, of 2-byte characters */
	buf_reset(&md);
	for (int i = 0; i < 400; i++)
		buf_puts(&md, "é");
	render(md.p, 0, 1, 0, &doc, NULL);
	INT_EQ(code_points(doc.summary_text), 300);
	OK(valid_utf8(doc.summary_text));

	/* a first paragraph longer than 64 KiB: its summary is taken from
	 * its start, the same as from a shorter one; its HTML is the text */
	buf_reset(&md);
	for (int i = 0; i < 20000; i++)
		buf_printf(&md, "word%d ", i);
	render(md.p, 0, 1, 0, &doc, NULL);
	OK(code_points(doc.summary_text) <= 300 && code_points(doc.summary_text) > 250);
	OK(ends_with(doc.summary_text, "…"));
	OK(!strncmp(doc.summary_text.p, "word0 word1 word2 ", 18));
	OK(!strncmp(doc.summary_html.p, "<p>word0 word1 ", 15));
	OK(ends_with(doc.summary_html, "…</p>\n"));
	/* ... even when its first 64 KiB are spaces: the whole text then */
	render_after_spaces(&md, 70000, "late words\n", &doc);
	STR_EQ(doc.summary_text.p, "late words");
	/* a first paragraph whose first 4 KiB of text are spaces still has
	 * text: it is the summary, not the paragraph after it */
	render_after_spaces(&md, 5000, "x\n\nSecond.\n", &doc);
	STR_EQ(doc.summary_text.p, "x");

	/* a table first: the summary is the paragraph after it, and a
	 * heading after the table is still found */
	render("| a | b |\n|---|---|\n| c | d |\n\nAfter *it*.\n\n## Then\n", 0, 1, 0, &doc, NULL);
	STR_EQ(doc.summary_text.p, "After it.");
	INT_EQ(doc.nheadings, 1);

	/* short: as is */
	render("Short *one*.\n\nTwo.\n", 0, 1, 0, &doc, NULL);
	STR_EQ(doc.summary_text.p, "Short one.");
	STR_EQ(doc.summary_html.p, "<p>Short <em>one</em>.</p>\n");
	INT_EQ(doc.has_more, 0);

	/* <!--more--> */
	render("# T\n\nIntro one.\n\nIntro two[^1].\n<!--more-->\nRest.\n\n[^1]: n\n", 0, 1, 0,
	       &doc, NULL);
	INT_EQ(doc.has_more, 1);
	STR_EQ(doc.summary_html.p, "<h1>T</h1>\n<p>Intro one.</p>\n<p>Intro two.</p>\n");
	STR_EQ(doc.summary_text.p, "T Intro one. Intro two.");
	OK(strstr(doc.html.p, "<h1 id=\"t\">") != NULL); /* the body keeps its ids */
	OK(strstr(doc.html.p, "fnref") != NULL);

	/* a first paragraph of more than 64 KiB of text: its HTML summary is
	 * the cut text, not a second copy of the page */
	buf_reset(&md);
	for (int i = 0; i < 20000; i++)
		buf_puts(&md, "*a* <b ");
	buf_puts(&md, "\n");
	render(md.p, 0, 1, 0, &doc, NULL);
	OK(ends_with(doc.summary_text, "…"));
	OK(strncmp(doc.summary_html.p, "<p>a &lt;b a &lt;b", 18) == 0);
	OK(ends_with(doc.summary_html, "…</p>\n"));
	OK(strstr(doc.summary_html.p, "<em>") == NULL);
	OK(doc.summary_html.len < 2000);
	buf_fini(&md);
}

/* render_site: md_render as in a site build: images are checked against
 * static_dir. */
static int render_site(const char *md, const char *static_dir, struct md_doc *doc, struct buf *errs)
{
	struct diag d;
	diag_init(&d, NULL);
	d.capture = errs;
	struct md_options o = {.math = 1, .unsafe = 1, .static_dir = static_dir};
	size_t n = strlen(md);
	int rc = md_render(A, &o, &d, "content/posts/p.md", md, n, md, n, 0, doc);
	diag_fini(&d);
	return rc;
}

/* Images inside an image's alt text are its text, not images of their own
 * (replacing the outer one frees them: the pass once read them freed and
 * never ended). */
static void test_nested_images(void)
{
	struct md_doc doc;
	struct buf errs;
	buf_init(&errs);
	render_site("![![![a $x$](/in.png)](/mid.png)](/out.png)\n", "/nonexistent", &doc, &errs);
	/* a missing image: its alt text in a box with the error */
	STR_EQ(doc.html.p, "<p><span class=\"image-error\" title=\"image &#39;/out.png&#39; not found (looked in "
			   "static/)\">a x</span></p>\n");
	STR_EQ(errs.p, "content/posts/p.md:1:35: error: image '/out.png' not found (looked in static/)\n"
		       " 1 | ![![![a $x$](/in.png)](/mid.png)](/out.png)\n"
		       "   |                                   ^\n");
	/* two images with one address: each error at its own place */
	buf_reset(&errs);
	render_site("![a](/m.png) and ![b](/m.png)\n", "/nonexistent", &doc, &errs);
	OK(errs.p && strstr(errs.p, "p.md:1:6: error: image '/m.png' not found") != NULL);
	OK(errs.p && strstr(errs.p, "p.md:1:23: error: image '/m.png' not found") != NULL);
	buf_fini(&errs);
}

/* write_png_head: a PNG's signature and header chunk (w x h, RGBA), all an
 * image's size and kind are read from. */
static void write_png_head(const char *dir, const char *name, unsigned w, unsigned h)
{
	unsigned char b[33] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13, 'I', 'H', 'D', 'R'};
	for (int i = 0; i < 4; i++) {
		b[16 + i] = (unsigned char)(w >> (24 - 8 * i));
		b[20 + i] = (unsigned char)(h >> (24 - 8 * i));
	}
	b[24] = 8, b[25] = 6;
	char path[512];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *f = fopen(path, "wb");
	OK(f != NULL);
	if (f) {
		fwrite(b, 1, sizeof b, f);
		fclose(f);
	}
}

/* render_raw: md_render with resized copies at 480 px and in WebP. */
static const char *render_raw(const char *md, const char *static_dir, struct md_doc *doc)
{
	static const int widths[] = {480};
	struct md_options o = {.unsafe = 1, .static_dir = static_dir, .image_widths = widths, .nimage_widths = 1,
			       .image_webp = 1};
	size_t n = strlen(md);
	INT_EQ(md_render(A, &o, NULL, "content/posts/p.md", md, n, md, n, 0, doc), 0);
	return doc->html.p;
}

/* The <img> tags of raw HTML get what a Markdown image gets, and those
 * that are the author's business are left as written. */
static void test_raw_images(void)
{
	char *dir = t_tmpdir();
	write_png_head(dir, "a.png", 1000, 500);
	t_write(dir, "s.svg", "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"320\" height=\"200\"></svg>");
	struct md_doc doc;
	const char *webp = "<picture><source type=\"image/webp\" srcset=\"/a-480w.webp 480w, /a-1000w.webp 1000w\" "
			   "sizes=\"(min-width: 49rem) 46rem, calc(100vw - 2.5rem)\">";
	const char *html = render_raw("<img src=/a.png alt=x />\n", dir, &doc);
	OK(!strncmp(html, webp, strlen(webp)));
	OK(strstr(html, "<img src=\"/a.png\" alt=x srcset=\"/a-480w.png 480w, /a.png 1000w\" sizes=\"(min-width: 49rem) "
			"46rem, calc(100vw - 2.5rem)\" width=\"1000\" height=\"500\" fetchpriority=\"high\" "
			"decoding=\"async\"></picture>") != NULL);
	/* an SVG: only its size */
	STR_EQ(render_raw("<p><img src='/s.svg'></p>\n", dir, &doc),
	       "<p><img src=\"/s.svg\" width=\"320\" height=\"200\" fetchpriority=\"high\" decoding=\"async\"></p>\n");
	/* the second image is lazy, even when the first was not local */
	html = render_raw("<img src=\"https://x.org/b.png\"> <img src=\"/s.svg\">\n", dir, &doc);
	OK(strstr(html, "<img src=\"https://x.org/b.png\"> <img src=\"/s.svg\" width=\"320\" height=\"200\" "
			"loading=\"lazy\"") != NULL);
	/* left as written: a missing file, a character reference, an
	 * unended tag, too many attributes, a comment, a script */
	const char *same[] = {
	    "<img src=\"/gone.png\">\n",
	    "<img src=\"/a.png?v=1&amp;w=2\">\n",
	    "<div><img src=\"/a.png\"\n",
	    "<img src=\"/a.png\" a b c d e f g h i j k l m n o p q r s t u v w x y z aa bb cc dd ee ff>\n",
	    "<!-- <img src=\"/a.png\"> -->\n",
	    "<script>var s = '<img src=\"/a.png\">';</script>\n",
	    "<p><picture><img src=\"/a.png\"></picture></p>\n",
	    "<img src=\"/a.png\" srcset=\"/a.png 1000w\">\n",
	};
	for (size_t i = 0; i < sizeof same / sizeof *same; i++)
		STR_EQ(render_raw(same[i], dir, &doc), same[i]);
	/* an author's inline <picture>: its nodes one by one */
	STR_EQ(render_raw("A <picture><img src=\"/a.png\"></picture> and <img src=\"/s.svg\">.\n", dir, &doc),
	       "<p>A <picture><img src=\"/a.png\"></picture> and <img src=\"/s.svg\" width=\"320\" height=\"200\" "
	       "fetchpriority=\"high\" decoding=\"async\">.</p>\n");
	/* a width alone: the height that keeps the shape, sizes no wider */
	html = render_raw("<IMG WIDTH=\"250\" SRC=\"/a.png\">\n", dir, &doc);
	OK(strstr(html, "sizes=\"(min-width: 49rem) min(250px, 46rem), min(250px, calc(100vw - 2.5rem))\" "
			"height=\"125\"") != NULL);
	OK(strstr(html, "<img src=\"/a.png\" WIDTH=\"250\" srcset=") != NULL);
	/* the page's card image is found where it was */
	OK(doc.img_at >= 2 && !strncmp(doc.html.p + doc.img_at - 2, "<img src=\"/a.png\"", 17));
	free(dir);
}

/* The theme's markup (md_options.code_ui): a code block is focusable and
 * names its language; without it, cmark's <pre>. A model needs its still,
 * which is written inside it, sized; an animated image without a size
 * takes its file's. */
static void test_theme_markup(void)
{
	struct md_doc doc;
	struct buf errs;
	buf_init(&errs);
	struct diag d;
	diag_init(&d, NULL);
	d.capture = &errs;
	const char *code = "```c\nint x;\n```\n\n    plain\n";
	struct md_options o = {.unsafe = 1, .code_ui = 1};
	INT_EQ(md_render(A, &o, &d, "p.md", code, strlen(code), code, strlen(code), 0, &doc), 0);
	STR_EQ(doc.html.p, "<pre tabindex=\"0\" data-lang=\"c\"><code class=\"language-c\">int x;\n</code></pre>\n"
			   "<pre tabindex=\"0\"><code>plain\n</code></pre>\n");
	o.code_ui = 0;
	INT_EQ(md_render(A, &o, &d, "p.md", code, strlen(code), code, strlen(code), 0, &doc), 0);
	STR_EQ(doc.html.p, "<pre><code class=\"language-c\">int x;\n</code></pre>\n<pre><code>plain\n</code></pre>\n");
	diag_fini(&d);

	char *dir = t_tmpdir();
	t_write(dir, "still.svg", "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"320\" height=\"200\"></svg>");
	t_write(dir, "anim.svg", "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"640\" height=\"360\"></svg>");
	t_write(dir, "m.glb", "glTF");
	buf_reset(&errs);
	INT_EQ(render_site(":::model3d{src=\"/m.glb\" alt=\"A slab\"}\n:::\n", dir, &doc, &errs), -1);
	OK(errs.p && strstr(errs.p, "content/posts/p.md:1:1: error: :::model3d needs poster=\"FILE\" (an image of the "
				    "model, shown until the model loads and without JavaScript)") != NULL);
	buf_reset(&errs);
	INT_EQ(render_site(":::model3d{src=\"/m.glb\" poster=\"/still.svg\" alt=\"A slab\"}\n:::\n", dir, &doc, &errs), 0);
	OK(strstr(doc.html.p, "reveal=\"auto\"><img slot=\"poster\" src=\"/still.svg\" alt=\"A slab\" width=\"320\" "
			      "height=\"200\" decoding=\"async\"></model-viewer>") != NULL);
	INT_EQ(render_site(":::animation{src=\"/anim.svg\" poster=\"/still.svg\"}\n:::\n", dir, &doc, &errs), 0);
	OK(strstr(doc.html.p, "<img src=\"/anim.svg\" alt=\"\" width=\"640\" height=\"360\" loading") != NULL);
	/* the author's size wins */
	INT_EQ(render_site(":::animation{src=\"/anim.svg\" width=\"64\" height=\"36\"}\n:::\n", dir, &doc, &errs), 0);
	OK(strstr(doc.html.p, "width=\"64\" height=\"36\" loading") != NULL);
	/* a video is as tall as its poster */
	t_write(dir, "v.mp4", "video");
	INT_EQ(render_site(":::video{src=\"/v.mp4\" poster=\"/still.svg\"}\n:::\n", dir, &doc, &errs), 0);
	OK(strstr(doc.html.p, "poster=\"/still.svg\" width=\"320\" height=\"200\"") != NULL);
	t_rmtree(dir);
	free(dir);
	buf_fini(&errs);
}

/* The highlight budget (MD_HL_BUDGET): a page's code blocks are given to
 * the highlighter until they add up to 128 KiB; the block past it and the
 * ones after it are plain, with one warning at the first. */
static int hl_calls;
static int count_hl(struct buf *out, const char *lang, size_t lang_len, const char *code, size_t len)
{
	(void)lang;
	(void)lang_len;
	hl_calls++;
	buf_puts(out, "<b>");
	buf_put_html_text(out, code, len);
	buf_puts(out, "</b>");
	return 0;
}

/* hl_budget_render: a document of code blocks of these sizes (odd: no
 * language) through md_render with count_hl; returns how many blocks the
 * highlighter was given; errs gets the diagnostics. */
static int hl_budget_render(const size_t *sizes, size_t n, struct md_doc *doc, struct buf *errs)
{
	struct buf md;
	buf_init(&md);
	for (size_t i = 0; i < n; i++) {
		buf_puts(&md, sizes[i] & 1 ? "```\n" : "```c\n");
		for (size_t k = 0; k + 1 < sizes[i]; k++)
			buf_putc(&md, 'x');
		buf_puts(&md, "\n```\n\n");
	}
	struct md_options o = {.unsafe = 1, .highlight = count_hl};
	struct diag d;
	diag_init(&d, NULL);
	buf_reset(errs);
	d.capture = errs;
	hl_calls = 0;
	md_render(A, &o, &d, "content/posts/p.md", md.p, md.len, md.p, md.len, 0, doc);
	diag_fini(&d);
	buf_fini(&md);
	return hl_calls;
}

static void test_hl_budget(void)
{
	struct buf errs;
	buf_init(&errs);
	struct md_doc doc;
	/* the first block takes 100000 + 64 of 131072; the second (31000 + 64)
	 * does not fit in the 31008 left; the third is small but after it */
	const size_t over[] = {100000, 31000, 10};
	INT_EQ(hl_budget_render(over, 3, &doc, &errs), 1);
	OK(errs.p && strstr(errs.p, "p.md:5:1: warning: code block: not highlighted, nor are the ones "
	                            "after it: a page's code is highlighted up to 128 KiB") != NULL);
	OK(errs.p && strstr(strstr(errs.p, ": warning:") + 1, ": warning:") == NULL); /* one */
	OK(doc.html.p && strstr(doc.html.p, "<b>") != NULL);
	OK(doc.html.p && strstr(strstr(doc.html.p, "</b>"), "<b>") == NULL);
	/* exactly the budget, and a block without a language between (not
	 * counted): every block highlighted, no warning */
	const size_t fits[] = {100000, 5001, 31008 - 64};
	INT_EQ(hl_budget_render(fits, 3, &doc, &errs), 2);
	OK(errs.len == 0);
	buf_fini(&errs);
}

/* toc_entries: the entries of a TOC tree, at every level. */
static size_t toc_entries(const struct md_toc *t, size_t n)
{
	size_t k = n;
	for (size_t i = 0; i < n; i++)
		k += toc_entries(t[i].children, t[i].nchildren);
	return k;
}

/* toc_cap_render: n headings (levels 2 and 3 in turn) through md_render;
 * errs gets the diagnostics. */
static void toc_cap_render(size_t n, int hidden, struct md_doc *doc, struct buf *errs)
{
	struct buf md;
	buf_init(&md);
	for (size_t i = 0; i < n; i++)
		buf_printf(&md, "%s Part %zu\n\n", i % 2 ? "###" : "##", i + 1);
	struct md_options o = {.unsafe = 1, .toc_hidden = hidden};
	struct diag d;
	diag_init(&d, NULL);
	buf_reset(errs);
	d.capture = errs;
	md_render(A, &o, &d, "content/posts/p.md", md.p, md.len, md.p, md.len, 0, doc);
	diag_fini(&d);
	buf_fini(&md);
}

static void test_toc_cap(void)
{
	struct buf errs;
	buf_init(&errs);
	struct md_doc doc;
	/* exactly the limit: all of them, no warning */
	toc_cap_render(MD_TOC_MAX, 0, &doc, &errs);
	INT_EQ(toc_entries(doc.toc, doc.ntoc), MD_TOC_MAX);
	INT_EQ(errs.len, 0);
	/* one more: the first MD_TOC_MAX, a warning at the first left out
	 * (two lines a heading), and the page still has every heading */
	toc_cap_render(MD_TOC_MAX + 1, 0, &doc, &errs);
	INT_EQ(doc.nheadings, MD_TOC_MAX + 1);
	INT_EQ(toc_entries(doc.toc, doc.ntoc), MD_TOC_MAX);
	OK(doc.ntoc && !strcmp(doc.toc[doc.ntoc - 1].children[0].text.p, "Part 1000"));
	char want[160];
	snprintf(want, sizeof want, "p.md:%d:1: warning: table of contents: lists the page's first %d headings, not all %d",
		 2 * MD_TOC_MAX + 1, MD_TOC_MAX, MD_TOC_MAX + 1);
	OK(errs.p && strstr(errs.p, want) != NULL);
	OK(doc.html.p && strstr(doc.html.p, "<h2 id=\"part-1001\">") != NULL);
	/* a page that hides its TOC: cut the same, no warning */
	toc_cap_render(MD_TOC_MAX + 1, 1, &doc, &errs);
	INT_EQ(toc_entries(doc.toc, doc.ntoc), MD_TOC_MAX);
	INT_EQ(errs.len, 0);
	buf_fini(&errs);
}

static void test_counts(void)
{
	struct md_doc doc;
	render("# Title here\n\nSome `inline code` words, *em*phasis and un**bro**ken.\n\n"
	       "```c\nint main(void) { return 0; }\n```\n\n"
	       "![alt words not read](a.png) <img src=\"b.png\">\n\n"
	       "<figure><img src=\"c.png\"><figcaption>Caption &amp; text</figcaption></figure>\n\n"
	       "日本語です。 — - *\n",
	       0, 1, 0, &doc, NULL);
	/* Title here (2) Some inline code words, emphasis and unbroken. (7)
	 * Caption text (2; "&" is no word) */
	INT_EQ(doc.words, 11);
	INT_EQ(doc.code_words, 4); /* int main(void) return 0; ("{" and "}" are no words) */
	INT_EQ(doc.images, 3);
	INT_EQ(doc.cjk_chars, 5);
	INT_EQ(doc.nheadings, 1);
	INT_EQ(doc.math_spans, 0);
}

/* The counts are made in the walk that finds figures and images, which
 * skips what they hold: the counts still see everything they read. */
static void test_counts_beside_figures(void)
{
	struct md_doc doc;
	render("![alt $x$ words](a.png \"Caption\")\n\n"
	       "One two[^1] $y$ ![in $z$ line](b.png) three.\n\n"
	       "[^1]: Note four.\n\n"
	       "> ![quoted](c.png \"T\")\n",
	       0, 1, 0, &doc, NULL);
	/* One two y three (the footnote reference is no word), Note four;
	 * three images, none of their alt text, and only the formula outside
	 * them */
	INT_EQ(doc.words, 6);
	INT_EQ(doc.images, 3);
	INT_EQ(doc.math_spans, 1);
	OK(doc.html.p && strstr(doc.html.p, "<figcaption>Caption</figcaption>") != NULL);
}

/* fake_typeset: "<T kind>tex</T>" for any formula but "bad", which fails;
 * counts its calls. */
static int ts_calls;

static int fake_typeset(void *ctx, const char *tex, size_t len, int display, struct buf *out,
                        struct buf *err, int *pos)
{
	(void)ctx;
	ts_calls++;
	*pos = -1;
	if (len == 3 && memcmp(tex, "bad", 3) == 0) {
		buf_puts(err, "bad formula");
		*pos = 0;
		return -1;
	}
	buf_puts(out, display ? "<T d>" : "<T i>");
	buf_append(out, tex, len);
	buf_puts(out, "</T>");
	return 0;
}

/* count_of: how many times needle is in h. */
static int count_of(const char *h, const char *needle)
{
	return (int)t_count(h, needle);
}

/* A large document with nothing for md_blocks to change is counted on a
 * thread of its own while it renders: its counts are still those of its
 * parts. One with a code block, a figure or formulas to typeset is not:
 * its code (lines marked), figure and formulas are still folio's. */
static void test_counts_large(void)
{
	const char *unit = "Some words *em* and `code`, <img src=\"b.png\"> \xe6\x97\xa5\xe6\x9c\xac $x$ here.\n\n";
	enum { N = 6000 };
	struct md_doc one, big;
	render(unit, 0, 1, 0, &one, NULL);
	OK(one.words > 0 && one.images == 1 && one.cjk_chars == 2 && one.math_spans == 1);
	struct buf md;
	buf_init(&md);
	for (int i = 0; i < N; i++)
		buf_puts(&md, unit);
	render(md.p, 0, 1, 0, &big, NULL);
	INT_EQ(big.words, N * one.words);
	INT_EQ(big.images, N * one.images);
	INT_EQ(big.cjk_chars, N * one.cjk_chars);
	INT_EQ(big.math_spans, N * one.math_spans);
	INT_EQ(big.code_words, 0);
	const char *tails[] = {"```c {hl=\"1\"}\nint x = 1;\n```\n", "![alt](x.png \"Caption\")\n"};
	for (size_t t = 0; t < sizeof tails / sizeof *tails; t++) {
		struct md_doc alone;
		render(tails[t], 0, 1, 0, &alone, NULL);
		size_t base = md.len;
		buf_puts(&md, tails[t]);
		render(md.p, 0, 1, 0, &big, NULL);
		OK(big.html.len >= alone.html.len &&
		   !memcmp(big.html.p + big.html.len - alone.html.len, alone.html.p, alone.html.len));
		INT_EQ(big.words, N * one.words + alone.words);
		INT_EQ(big.code_words, alone.code_words);
		md.len = base;
		md.p[base] = '\0';
	}
	/* formulas to typeset: md_blocks typesets them */
	struct diag d;
	diag_init(&d, NULL);
	struct md_options o = {.math = 1, .unsafe = 1, .typeset = fake_typeset};
	ts_calls = 0;
	md_render(A, &o, &d, "content/posts/p.md", md.p, md.len, md.p, md.len, 0, &big);
	diag_fini(&d);
	INT_EQ(count_of(big.html.p, "<T i>x</T>"), N);
	INT_EQ(big.math_spans, N);
	buf_fini(&md);
}

/* A formula given again in a document is typeset once (inline and display
 * apart), and every copy of it comes out the same, in the summary too; one
 * that fails is tried once, and reported each time (a formula that takes
 * KaTeX its whole second is not tried a hundred times). */
static void test_formula_repeated(void)
{
	static const char md[] = "$a$ and $a$, $$a$$ then $b$ and $a$.\n\n"
	                         "$bad$ $bad$ $a$\n\n$$a$$\n";
	struct md_options o = {.math = 1, .unsafe = 1, .typeset = fake_typeset};
	struct diag d;
	diag_init(&d, NULL);
	struct buf errs;
	buf_init(&errs);
	d.capture = &errs;
	ts_calls = 0;
	struct md_doc doc;
	size_t n = strlen(md);
	INT_EQ(md_render(A, &o, &d, "content/posts/p.md", md, n, md, n, 0, &doc), -1);
	diag_fini(&d);
	INT_EQ(ts_calls, 4); /* a, a display, b, bad */
	INT_EQ(count_of(errs.p, ": error: math: bad formula"), 2);
	OK(errs.p && strstr(errs.p, "p.md:3:2: error") && strstr(errs.p, "p.md:3:8: error"));
	OK(doc.html.p != NULL);
	INT_EQ(count_of(doc.html.p, "<span class=\"math inline\"><T i>a</T></span>"), 4);
	INT_EQ(count_of(doc.html.p, "<span class=\"math display\"><T d>a</T></span>"), 2);
	INT_EQ(count_of(doc.html.p, "<T i>b</T>"), 1);
	INT_EQ(count_of(doc.summary_html.p, "<span class=\"math inline\"><T i>a</T></span>"), 3);
	INT_EQ(count_of(doc.summary_html.p, "<T d>a</T>"), 1);
	buf_fini(&errs);
}

/* Display math blocks are typeset like $$...$$ in a paragraph, and a
 * wrong one is reported where its TeX is; a heading's formula is typeset
 * in the table of contents too, and its plain text is the TeX. */
static void test_math_blocks_typeset(void)
{
	static const char md[] = "## Loss $L_t$ and $bad$\n\n$$\nx\n+ y\n$$\n\n- item\n  $$bad$$\n\n```math\nz\n```\n";
	struct md_options o = {.math = 1, .unsafe = 1, .typeset = fake_typeset};
	struct diag d;
	diag_init(&d, NULL);
	struct buf errs;
	buf_init(&errs);
	d.capture = &errs;
	struct md_doc doc;
	size_t n = strlen(md);
	INT_EQ(md_render(A, &o, &d, "content/posts/p.md", md, n, md, n, 2, &doc), -1);
	diag_fini(&d);
	OK(errs.p && strstr(errs.p, "p.md:3:20: error: math: bad formula"));
	OK(errs.p && strstr(errs.p, "p.md:11:5: error: math: bad formula"));
	INT_EQ(count_of(errs.p, "error:"), 2);
	OK(strstr(doc.html.p, "<p><span class=\"math display\"><T d>\nx\n+ y\n</T></span></p>") != NULL);
	OK(strstr(doc.html.p, "<T d>\nz\n</T>") != NULL);
	INT_EQ(doc.math_spans, 5);
	INT_EQ(doc.ntoc, 1);
	STR_EQ(doc.toc[0].text.p, "Loss L_t and bad");
	STR_EQ(doc.toc[0].html.p, "Loss <span class=\"math inline\"><T i>L_t</T></span> and "
	                          "<span class=\"math inline\">bad</span>");
	buf_fini(&errs);
}

/* A typeset that makes 8 MiB for "big" and spends 20 ms of CPU on "slow". */
static int costly_typeset(void *ctx, const char *tex, size_t len, int display, struct buf *out,
                          struct buf *err, int *pos)
{
	if (len == 3 && memcmp(tex, "big", 3) == 0) {
		ts_calls++;
		*pos = -1;
		buf_reserve(out, 8u << 20);
		memset(out->p + out->len, 'x', 8u << 20);
		out->len += 8u << 20;
		out->p[out->len] = '\0';
		return 0;
	}
	if (len > 4 && memcmp(tex, "slow", 4) == 0) {
		struct timespec t0, t;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
		do
			clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
		while ((double)(t.tv_sec - t0.tv_sec) + (double)(t.tv_nsec - t0.tv_nsec) / 1e9 < 0.02);
	}
	return fake_typeset(ctx, tex, len, display, out, err, pos);
}

/* The block passes' limits on one document: the HTML they put in (each
 * copy of a formula counts) and the CPU time of its formulas. */
/* failing_render: the diagnostics of md, whose render must fail (in the arena). */
static const char *failing_render(const struct md_options *o, const struct buf *md)
{
	struct diag d;
	struct buf errs;
	struct md_doc doc;
	diag_init(&d, NULL);
	buf_init(&errs);
	d.capture = &errs;
	INT_EQ(md_render(A, o, &d, "content/posts/p.md", md->p, md->len, md->p, md->len, 0, &doc), -1);
	diag_fini(&d);
	const char *r = arena_strndup(A, errs.p ? errs.p : "", errs.len);
	buf_fini(&errs);
	return r;
}

static void test_block_budgets(void)
{
	struct md_options o = {.math = 1, .unsafe = 1, .typeset = costly_typeset};
	struct buf md;
	buf_init(&md);
	for (int i = 0; i < 8; i++) /* 7 copies (and their spans) fit in 64 MiB, the 8th does not */
		buf_puts(&md, "$big$\n\n");
	ts_calls = 0;
	const char *errs = failing_render(&o, &md);
	INT_EQ(ts_calls, 1);
	OK(strstr(errs, "p.md:15:1: error: math: the page's HTML would be larger than 64 MiB"));
	INT_EQ(count_of(errs, "error:"), 1);

	/* a code block's line numbers, past the budget: one error */
	buf_reset(&md);
	buf_puts(&md, "```{linenos}\n");
	for (int i = 0; i < 900000; i++)
		buf_putc(&md, '\n');
	buf_puts(&md, "```\n");
	errs = failing_render(&o, &md);
	OK(strstr(errs, "p.md:1:1: error: code block: the page's HTML would be larger than 64 MiB"));
	INT_EQ(count_of(errs, "error:"), 1);

	/* formulas that take longer than typeset_seconds: the rest are not typeset */
	buf_reset(&md);
	for (int i = 0; i < 50; i++)
		buf_printf(&md, "$slow%d$\n\n", i);
	o.typeset_seconds = 0.1;
	errs = failing_render(&o, &md);
	OK(strstr(errs, "error: math: the page's formulas take longer than 0.1 s to typeset"));
	INT_EQ(count_of(errs, "error:"), 1);
	buf_fini(&md);
}

/* Heading ids against github-slugger's rule, written the plain way: every
 * id given is kept in a list, and a slug's counter counts on until its
 * numbered id is not in it. Random documents of headings whose slugs are
 * their text (numbered ones, ones that only look numbered, custom ids). */
#define SLUG_MAX 64

struct slug_ref {
	char ids[80][SLUG_MAX];
	int count[80];
	int n;
};

static int ref_find(const struct slug_ref *s, const char *id)
{
	for (int i = 0; i < s->n; i++)
		if (strcmp(s->ids[i], id) == 0)
			return i;
	return -1;
}

static void ref_add(struct slug_ref *s, const char *id)
{
	snprintf(s->ids[s->n], SLUG_MAX, "%s", id);
	s->count[s->n++] = 0;
}

static void test_heading_ids_random(void)
{
	static const char *const pool[] = {"a", "a-1", "a-2", "a-10", "a-01", "a-1-1", "b", "b-1",
	                                   "a-0", "a--1", "-1", "a-4294967296"};
	const int npool = (int)(sizeof pool / sizeof *pool);
	uint64_t seed = 42;
	int bad = 0;
	for (int round = 0; round < 300 && !bad; round++) {
		struct buf md;
		buf_init(&md);
		struct slug_ref ref = {.n = 0};
		const char *texts[60];
		int custom[60];
		int nh = 10 + (int)(seed % 50);
		for (int i = 0; i < nh; i++) {
			seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
			texts[i] = pool[(seed >> 33) % (uint64_t)npool];
			/* one heading in eight takes its text as a custom id, if no
			 * other did */
			custom[i] = (seed >> 20) % 8 == 0 && ref_find(&ref, texts[i]) < 0;
			if (custom[i])
				ref_add(&ref, texts[i]);
			buf_printf(&md, custom[i] ? "## x {#%s}\n" : "## %s\n", texts[i]);
		}
		char want[60][SLUG_MAX];
		for (int i = 0; i < nh; i++) {
			if (custom[i]) {
				snprintf(want[i], SLUG_MAX, "%s", texts[i]);
				continue;
			}
			char id[SLUG_MAX];
			snprintf(id, sizeof id, "%s", texts[i]);
			int b = ref_find(&ref, texts[i]);
			while (ref_find(&ref, id) >= 0) {
				ref.count[b]++;
				snprintf(id, sizeof id, "%s-%d", texts[i], ref.count[b]);
			}
			ref_add(&ref, id);
			snprintf(want[i], SLUG_MAX, "%s", id);
		}
		struct md_doc doc;
		struct md_options o = {.unsafe = 1};
		INT_EQ(md_render(A, &o, NULL, "p.md", md.p, md.len, md.p, md.len, 0, &doc), 0);
		if (doc.ntoc != (size_t)nh) {
			t_fail(__FILE__, __LINE__, "%zu TOC entries, not %d", doc.ntoc, nh);
			bad = 1;
		}
		for (int i = 0; !bad && i < nh; i++)
			if (!str_eq_cstr(doc.toc[i].id, want[i])) {
				t_fail(__FILE__, __LINE__, "round %d, heading %d (%s): id %.*s, not %s\n%s", round, i,
				       texts[i], STR_FMT(doc.toc[i].id), want[i], md.p);
				bad = 1;
			}
		if (!bad)
			t_passed++;
		buf_fini(&md);
	}
}

/* Random bytes (NULs, invalid UTF-8, markup): no crash, and everything
 * that comes out is valid UTF-8 (invalid input is replaced, never passed). */
static void test_random_bytes(void)
{
	static const char *const bits[] = {"$",
	                                   "$$",
	                                   "{#",
	                                   "}",
	                                   "#",
	                                   "## ",
	                                   "\n",
	                                   "\\",
	                                   "*",
	                                   "`",
	                                   "~~",
	                                   "<",
	                                   "<!--more-->\n",
	                                   "\xff",
	                                   "\xc3",
	                                   "\xe6\x97",
	                                   "\xa9",
	                                   "\0",
	                                   "a",
	                                   " ",
	                                   "[^1]",
	                                   "\xf0\x9f\x98",
	                                   "|",
	                                   "|-|\n",
	                                   "&#0;",
	                                   "&#xD800;"};
	unsigned seed = 777;
	char doc_bytes[200];
	int valid = 1;
	for (int i = 0; i < 400; i++) {
		size_t n = 0;
		while (n < sizeof doc_bytes - 16) {
			seed = seed * 1103515245u + 12345u;
			const char *b = bits[(seed >> 16) % (sizeof bits / sizeof bits[0])];
			size_t k = b[0] ? strlen(b) : 1; /* the "\0" bit is one NUL byte */
			memcpy(doc_bytes + n, b, k);
			n += k;
			if (((seed >> 8) & 31) == 0)
				break;
		}
		struct md_doc doc;
		struct md_options o = {.smart = (int)(seed & 1), .math = 1, .unsafe = 1};
		md_render(A, &o, NULL, "r.md", doc_bytes, n, doc_bytes, n, 0, &doc);
		if (!valid_utf8(doc.html) || !valid_utf8(doc.summary_text) ||
		    !valid_utf8(doc.summary_html) ||
		    (doc.ntoc && (!valid_utf8(doc.toc[0].text) || !valid_utf8(doc.toc[0].id)))) {
			t_fail(__FILE__, __LINE__, "invalid UTF-8 out of random document %d", i);
			valid = 0;
			break;
		}
	}
	OK(valid);
	STR_EQ(html_of("a\xff b $\xfe$"),
	       "<p>a\xef\xbf\xbd b <span class=\"math inline\">\xef\xbf\xbd</span></p>\n");
	struct buf b;
	buf_init(&b);
	md_slugify(&b, STR_LIT("a\xff"
	                       "b \xc3"));
	STR_EQ(b.p, "ab-");
	buf_fini(&b);
}

/* ---- threads ---- */

static const char THREAD_DOC[] =
    "# Title {#top}\n\nText with ~~struck~~ words, www.example.com, *em*, $x^2$ and $$\\sum_i "
    "i$$.[^n]\n\n"
    "## Table\n\n| a | b |\n|---|:-:|\n| ~~x~~ | $y$ |\n\n- [x] done ~~old~~\n- [ ] todo at "
    "https://a.b/c\n\n"
    "## Table\n\n> quote with $z$ and ~one~ tilde\n\n[^n]: A ~~note~~.\n";

struct thread_arg {
	const char *want;
	int mismatches;
};

static void *thread_main(void *p)
{
	struct thread_arg *t = p;
	struct arena *a = arena_new();
	struct md_options o = {.smart = 1, .math = 1, .unsafe = 1};
	for (int i = 0; i < 40; i++) {
		struct md_doc doc;
		md_render(a, &o, NULL, "t.md", THREAD_DOC, sizeof THREAD_DOC - 1, THREAD_DOC,
		          sizeof THREAD_DOC - 1, 0, &doc);
		if (strcmp(doc.html.p, t->want) != 0)
			t->mismatches++;
	}
	arena_free(a);
	return NULL;
}

static void test_threads(void)
{
	struct md_doc doc;
	struct md_options o = {.smart = 1, .math = 1, .unsafe = 1};
	md_render(A, &o, NULL, "t.md", THREAD_DOC, sizeof THREAD_DOC - 1, THREAD_DOC,
	          sizeof THREAD_DOC - 1, 0, &doc);
	OK(strstr(doc.html.p, "<del>struck</del>") != NULL);
	OK(strstr(doc.html.p, "<a href=\"http://www.example.com\">") != NULL);
	OK(strstr(doc.html.p, "<span class=\"math inline\">x^2</span>") != NULL);
	struct thread_arg args[4];
	pthread_t th[4];
	for (int i = 0; i < 4; i++) {
		args[i].want = doc.html.p;
		args[i].mismatches = 0;
		OK(pthread_create(&th[i], NULL, thread_main, &args[i]) == 0);
	}
	for (int i = 0; i < 4; i++) {
		pthread_join(th[i], NULL);
		INT_EQ(args[i].mismatches, 0);
	}
}

/* ---- pathological inputs ---- */

static double seconds_since(clock_t t0)
{
	return (double)(clock() - t0) / CLOCKS_PER_SEC;
}

static void timed(const char *name, const char *md, double limit)
{
	struct md_doc doc;
	struct arena *a = arena_new();
	struct md_options o = {.smart = 1, .math = 1, .unsafe = 1};
	clock_t t0 = clock();
	md_render(a, &o, NULL, "p.md", md, strlen(md), md, strlen(md), 0, &doc);
	double s = seconds_since(t0);
	printf("markdown: %-28s %7zu bytes in %.3f s\n", name, strlen(md), s);
	if (s < limit)
		t_passed++;
	else
		t_fail(__FILE__, __LINE__, "%s took %.3f s (limit %.1f)", name, s, limit);
	arena_free(a);
}

static void repeat(struct buf *b, const char *s, int n)
{
	buf_reset(b);
	for (int i = 0; i < n; i++)
		buf_puts(b, s);
}

static void test_pathological(void)
{
	/* generous limits: sanitizers make everything several times slower */
	const double limit = 5.0;
	struct buf b;
	buf_init(&b);
	repeat(&b, ">", 50000);
	buf_puts(&b, " a\n");
	timed("50000 nested >", b.p, limit);
	repeat(&b, "[", 100000);
	timed("100000 [", b.p, limit);
	repeat(&b, "*a **a ", 30000);
	timed("*a **a repeated", b.p, limit);
	repeat(&b, "$a ", 100000);
	timed("100000 unclosed $", b.p, limit);
	repeat(&b, "$x", 100000);
	timed("$x repeated (50000 spans)", b.p, limit);
	repeat(&b, "$$a\\$", 50000);
	timed("unclosed $$ with \\$", b.p, limit);
	repeat(&b, "$", 200000);
	timed("200000 $", b.p, limit);
	repeat(&b, "~~a ", 100000);
	timed("~~a repeated", b.p, limit);
	repeat(&b, "## intro\n", 30000);
	timed("30000 equal headings", b.p, limit);
	repeat(&b, "[a](", 50000);
	timed("[a]( repeated", b.p, limit);
	repeat(&b, "a_", 100000);
	timed("a_ repeated", b.p, limit);

	/* a 1 MB document of ordinary prose */
	static const char *const words[] = {"the",       "kernel", "reads", "memory",
	                                    "bandwidth", "of",     "a",     "GPU"};
	buf_reset(&b);
	for (int i = 0; b.len < (1u << 20); i++) {
		buf_printf(&b, "## Section %d\n\n", i % 40);
		for (int k = 0; k < 120; k++)
			buf_printf(&b, "%s ", words[(i * 7 + k * 3) % 8]);
		buf_printf(&b, "with $x_%d$, **bold** and `code`.\n\n```c\nint x = %d;\n```\n\n", i,
		           i);
	}
	timed("1 MB document", b.p, limit);
	buf_fini(&b);
}

/* ---- spec cases ---- */

struct section {
	char kind[32];
	struct str text;
};

struct spec_case {
	const char *file;
	int line;
	struct str title;
	struct section sec[12];
	int nsec;
};

static const struct section *find_sec(const struct spec_case *c, const char *kind)
{
	for (int i = 0; i < c->nsec; i++)
		if (!strcmp(c->sec[i].kind, kind))
			return &c->sec[i];
	return NULL;
}

static int has_word(const struct section *opts, const char *w)
{
	if (!opts)
		return 0;
	size_t n = strlen(w);
	const char *p = opts->text.p, *end = p + opts->text.len;
	while (p < end) {
		while (p < end && (*p == ' ' || *p == '\n'))
			p++;
		const char *s = p;
		while (p < end && *p != ' ' && *p != '\n')
			p++;
		if ((size_t)(p - s) >= n && memcmp(s, w, n) == 0 &&
		    ((size_t)(p - s) == n || w[n - 1] == '='))
			return 1;
	}
	return 0;
}

static int option_int(const struct section *opts, const char *key)
{
	if (!opts)
		return 0;
	char tmp[256];
	snprintf(tmp, sizeof tmp, "%.*s", STR_FMT(opts->text));
	const char *p = strstr(tmp, key);
	return p ? atoi(p + strlen(key)) : 0;
}

static void toc_lines(struct buf *b, const struct md_toc *t, size_t n, int depth)
{
	for (size_t i = 0; i < n; i++) {
		buf_printf(b, "%*sh%d %.*s | %.*s | %.*s\n", depth * 2, "", t[i].level,
		           STR_FMT(t[i].id), STR_FMT(t[i].text), STR_FMT(t[i].html));
		toc_lines(b, t[i].children, t[i].nchildren, depth + 1);
	}
}

/* chomp: s without one trailing newline. */
static struct str chomp(struct str s)
{
	if (s.len && s.p[s.len - 1] == '\n')
		s.len--;
	return s;
}

/* check: want and got equal, a trailing newline aside. */
static int check(const struct spec_case *c, const char *what, struct str want, struct str got)
{
	want = chomp(want);
	got = chomp(got);
	if (str_eq(want, got))
		return 1;
	fprintf(stderr, "FAIL %s:%d: %.*s: %s\n--- want\n%.*s\n--- got\n%.*s\n", c->file, c->line,
	        STR_FMT(c->title), what, STR_FMT(want), STR_FMT(got));
	return 0;
}

static void run_case(const struct spec_case *c)
{
	const struct section *opts = find_sec(c, "options"), *md = find_sec(c, "markdown");
	if (!md) {
		t_fail(c->file, c->line, "case without markdown");
		return;
	}
	struct diag d;
	struct buf errs, got;
	buf_init(&errs);
	buf_init(&got);
	diag_init(&d, NULL);
	d.capture = &errs;
	struct md_options o = {.smart = has_word(opts, "smart"), .math = !has_word(opts, "nomath"),
	                       .unsafe = !has_word(opts, "safe")};
	struct md_doc doc;
	md_render(A, &o, &d, "content/posts/case.md", md->text.p, md->text.len, md->text.p,
	          md->text.len, option_int(opts, "line_offset="), &doc);
	diag_fini(&d);
	int ok = 1;
	const struct section *s;
	if ((s = find_sec(c, "html"))) {
		struct str h = doc.html;
		if (has_word(opts, "normalize")) {
			normalize_headings(doc.html.p, &got);
			h = buf_str(&got);
		}
		ok &= check(c, "html", s->text, chomp(h));
	}
	s = find_sec(c, "error");
	ok &= check(c, "error", s ? s->text : STR_LIT(""), chomp(buf_str(&errs)));
	if ((s = find_sec(c, "toc"))) {
		buf_reset(&got);
		toc_lines(&got, doc.toc, doc.ntoc, 0);
		ok &= check(c, "toc", s->text, chomp(buf_str(&got)));
	}
	if ((s = find_sec(c, "summary_html")))
		ok &= check(c, "summary_html", s->text, chomp(doc.summary_html));
	if ((s = find_sec(c, "summary_text")))
		ok &= check(c, "summary_text", s->text, doc.summary_text);
	if ((s = find_sec(c, "counts"))) {
		buf_reset(&got);
		buf_printf(&got,
		           "words=%zu code=%zu images=%zu cjk=%zu math=%zu headings=%zu more=%d "
		           "minutes=%d",
		           doc.words, doc.code_words, doc.images, doc.cjk_chars, doc.math_spans,
		           doc.nheadings, doc.has_more, md_reading_minutes(&doc, 230));
		ok &= check(c, "counts", s->text, buf_str(&got));
	}
	if (ok)
		t_passed++;
	else
		t_failed++;
	buf_fini(&errs);
	buf_fini(&got);
}

static void finish_section(struct spec_case *c, const char *start, const char *end)
{
	if (c->nsec == 0 || !start)
		return;
	struct section *s = &c->sec[c->nsec - 1];
	if (end > start && end[-1] == '\n')
		end--;
	s->text.p = start;
	s->text.len = (size_t)(end - start);
}

/* run_file: runs every case of one file; returns how many. */
static int run_file(const char *file, const char *text, size_t len)
{
	struct spec_case c;
	int in_case = 0, count = 0, line = 1;
	const char *p = text, *end = text + len, *sec_start = NULL;
	memset(&c, 0, sizeof c);
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *next = nl ? nl + 1 : end;
		size_t n = (size_t)((nl ? nl : end) - p);
		if (n >= 4 && memcmp(p, "=== ", 4) == 0) {
			if (in_case) {
				finish_section(&c, sec_start, p);
				run_case(&c);
				count++;
			}
			memset(&c, 0, sizeof c);
			c.file = file;
			c.line = line;
			c.title = (struct str){p + 4, n - 4};
			in_case = 1;
			sec_start = NULL;
		} else if (in_case && n >= 4 && memcmp(p, "--- ", 4) == 0 && c.nsec < 12) {
			finish_section(&c, sec_start, p);
			struct section *s = &c.sec[c.nsec++];
			snprintf(s->kind, sizeof s->kind, "%.*s", (int)(n - 4), p + 4);
			s->text = (struct str){next, 0};
			sec_start = next;
		}
		p = next;
		line++;
	}
	if (in_case) {
		finish_section(&c, sec_start, end);
		run_case(&c);
		count++;
	}
	return count;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void test_spec(const char *dir)
{
	DIR *dp = opendir(dir);
	if (!dp) {
		t_fail(__FILE__, __LINE__, "cannot open %s", dir);
		return;
	}
	char *names[256];
	size_t n = 0;
	struct dirent *e;
	while ((e = readdir(dp)) && n < 256) {
		size_t len = strlen(e->d_name);
		if (len > 4 && strcmp(e->d_name + len - 4, ".txt") == 0)
			names[n++] = xstrndup(e->d_name, len);
	}
	closedir(dp);
	qsort(names, n, sizeof *names, cmp_names);
	int total = 0;
	for (size_t i = 0; i < n; i++) {
		char path[512];
		snprintf(path, sizeof path, "%s/%s", dir, names[i]);
		size_t len;
		char *text = read_file(path, &len);
		if (!text) {
			t_fail(__FILE__, __LINE__, "cannot read %s", path);
		} else {
			total += run_file(path, text, len);
			free(text);
		}
		free(names[i]);
	}
	printf("markdown spec: %d cases in %zu files\n", total, n);
	OK(total > 0);
}

void test_markdown(void); /* also in harness.h */

void test_markdown(void)
{
	t_current = "markdown";
	A = arena_new();
	test_slugs();
	test_image_at();
	test_reading_minutes();
	test_plain_commonmark();
	test_math_is_neutral();
	test_md_math();
	test_md_brackets();
	test_brackets_are_neutral();
	test_headings();
	test_labels();
	test_summary();
	test_counts();
	test_nested_images();
	test_raw_images();
	test_theme_markup();
	test_hl_budget();
	test_toc_cap();
	test_counts_beside_figures();
	test_counts_large();
	test_formula_repeated();
	test_math_blocks_typeset();
	test_block_budgets();
	test_heading_ids_random();
	test_random_bytes();
	test_threads();
	test_pathological();
	test_spec("tests/markdown");
	arena_free(A);
	A = NULL;
}
