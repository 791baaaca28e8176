/* test_sidenote.c: md/sidenote.c: a footnote of one paragraph written
 * again after its first reference in a paragraph (exact HTML), the
 * footnotes' items marked, the notes that stay at the end only (blocks,
 * raw HTML, a note in a note, a reference in a heading, a table or a
 * link), the switch off, and a document of many notes in linear time. */
#include "harness.h"

#include "md/markdown.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

static struct arena *A;

static struct md_doc render(const char *md, int sidenotes)
{
	struct md_options o = {.unsafe = 1, .math = 1, .sidenotes = sidenotes};
	struct md_doc doc;
	size_t n = strlen(md);
	md_render(A, &o, NULL, "content/posts/p.md", md, n, md, n, 0, &doc);
	return doc;
}

/* count: how many times needle is in h */
static int count(const char *h, const char *needle)
{
	int n = 0;
	for (const char *p = strstr(h, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

/* the exact HTML of a simple note, and the same text without the switch */
static void test_simple(void)
{
	const char *md = "Text[^1] here.\n\n[^1]: A *short* note.\n";
	struct md_doc on = render(md, 1);
	STR_EQ(on.html.p,
	       "<p>Text<sup class=\"footnote-ref\"><a href=\"#fn-1\" id=\"fnref-1\" data-footnote-ref>1</a></sup>"
	       "<span class=\"sidenote\"><span class=\"sidenote-number\" aria-hidden=\"true\">1</span> A "
	       "<em>short</em> note.</span> here.</p>\n"
	       "<section class=\"footnotes sidenoted\" data-footnotes>\n<ol>\n"
	       "<li class=\"sidenoted\" id=\"fn-1\">\n<p>A <em>short</em> note. <a href=\"#fnref-1\" "
	       "class=\"footnote-backref\" data-footnote-backref data-footnote-backref-idx=\"1\" "
	       "aria-label=\"Back to reference 1\">↩</a></p>\n</li>\n</ol>\n</section>\n");
	INT_EQ(on.sidenotes, 1);
	struct md_doc off = render(md, 0);
	OK(!strstr(off.html.p, "sidenote"));
	INT_EQ(off.sidenotes, 0);
	/* no footnotes at all: the HTML is the same with the switch on */
	const char *plain = "No [note] here, [^x] neither.\n";
	STR_EQ(render(plain, 1).html.p, render(plain, 0).html.p);
	/* the summary is the body's first paragraph without the sidenote */
	OK(!strstr(on.summary_html.p, "sidenote"));
}

/* a note of blocks stays at the end only, and the list counts on */
static void test_fallback(void)
{
	const char *md = "A[^a], B[^b], C[^c], D[^d] and E[^e].\n\n"
	                 "# Heading[^f]\n\n[link[^g]](https://x.org/)\n\n"
	                 "[^a]: One paragraph with `code`, [a link](https://x.org/) and $x^2$.\n"
	                 "[^b]: Two paragraphs.\n\n    The second.\n"
	                 "[^c]: A list:\n\n    - one\n    - two\n"
	                 "[^d]: Raw <b id=\"x\">HTML</b>.\n"
	                 "[^e]: A note with a note[^a].\n"
	                 "[^f]: In a heading.\n"
	                 "[^g]: In a link.\n";
	struct md_doc doc = render(md, 1);
	const char *h = doc.html.p;
	INT_EQ(doc.sidenotes, 1);
	INT_EQ(count(h, "<span class=\"sidenote\">"), 1);
	OK(strstr(h, "<li class=\"sidenoted\" id=\"fn-a\">") != NULL);
	/* the items after a hidden one say their number */
	OK(strstr(h, "<li value=\"2\" id=\"fn-b\">") != NULL);
	OK(strstr(h, "<li value=\"7\" id=\"fn-g\">") != NULL);
	OK(strstr(h, "<section class=\"footnotes\" data-footnotes>") != NULL);
	/* the formula and the link are in the sidenote */
	const char *sn = strstr(h, "<span class=\"sidenote\">");
	const char *end = sn ? strstr(sn, "</p>") : NULL;
	OK(sn && end && strstr(sn, "class=\"math inline") && strstr(sn, "class=\"math inline") < end && strstr(sn, "href=\"https://x.org/\"") < end);
}

/* a note referred to twice: its sidenote after the first reference only;
 * a first reference in a heading: after the next in a paragraph */
static void test_refs(void)
{
	struct md_doc doc = render("## Title[^n]\n\nOnce[^n] and twice[^n].\n\n[^n]: The note.\n", 1);
	const char *h = doc.html.p;
	INT_EQ(count(h, "<span class=\"sidenote\">"), 1);
	const char *sn = strstr(h, "<span class=\"sidenote\">"), *once = strstr(h, "Once"), *twice = strstr(h, "twice");
	OK(sn && once && twice && once < sn && sn < twice);
}

/* 20,000 notes: linear (each reference is looked for after the last) */
static void test_many(void)
{
	struct buf md;
	buf_init(&md);
	enum { N = 20000 };
	for (int i = 0; i < N; i++)
		buf_printf(&md, "P%d[^%d].\n\n", i, i);
	for (int i = 0; i < N; i++)
		buf_printf(&md, "[^%d]: Note %d.\n", i, i);
	clock_t t = clock();
	struct md_doc doc = render(md.p, 1);
	double s = (double)(clock() - t) / CLOCKS_PER_SEC;
	INT_EQ(doc.sidenotes, N);
	OK(strstr(doc.html.p, "<section class=\"footnotes sidenoted\"") != NULL);
	OK(s < 5);
	buf_fini(&md);
}

void test_sidenote(void)
{
	A = arena_new();
	test_simple();
	test_fallback();
	test_refs();
	test_many();
	arena_free(A);
}
