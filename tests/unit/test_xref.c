/* test_xref.c: cross-references (md/xref.c, model/xref.c): labels found
 * and numbered per kind in document order, references parsed into
 * placeholders (bare, bracketed, capitalised, into another post, through
 * a .md link), what is left alone (citations, e-mail, \@, @word), the
 * errors with their exact messages, placeholders filled in
 * (md_xref_expand) and numbers by part (xref_number), and the Markdown
 * cache keeping labels and references. */
#include "harness.h"

#include "cache/mdcache.h"
#include "md/codeblock.h"
#include "md/markdown.h"
#include "model/xref.h"

#include <stdlib.h>
#include <string.h>

static struct arena *A;
static struct buf errs;

/* messages: the errors captured, their first lines only (no excerpts) */
static const char *messages(void)
{
	struct buf b;
	buf_init(&b);
	buf_puts(&b, "");
	for (const char *p = errs.p; p && *p;) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) + 1 : strlen(p);
		if (!strncmp(p, "content/", 8))
			buf_append(&b, p, n);
		p += n;
	}
	const char *r = arena_strndup(A, b.p, b.len);
	buf_fini(&b);
	return r;
}

static int render(const char *md, struct md_doc *doc)
{
	struct diag d;
	diag_init(&d, NULL);
	buf_reset(&errs);
	buf_puts(&errs, "");
	d.capture = &errs;
	struct md_options o = {.math = 1, .unsafe = 1};
	size_t n = strlen(md);
	int rc = md_render(A, &o, &d, "content/posts/p.md", md, n, md, n, 0, doc);
	diag_fini(&d);
	return rc;
}

/* The fill-in of a test: numbers as "#N", references as "[R name]" (text:
 * "name"). */
struct tfill {
	const struct md_doc *doc;
};

static void t_number(void *ctx, struct buf *out, size_t i)
{
	const struct tfill *f = ctx;
	buf_printf(out, "#%d", f->doc->labels[i].number);
}

static void t_ref(void *ctx, struct buf *out, size_t i, int text)
{
	const struct tfill *f = ctx;
	const struct md_xref *x = &f->doc->xrefs[i];
	if (text)
		buf_printf(out, "%.*s", STR_FMT(x->name));
	else
		buf_printf(out, "[R %.*s%s%.*s]", STR_FMT(x->target), x->target.len ? "#" : "", STR_FMT(x->name));
}

/* filled: doc's HTML with its placeholders filled in by the test's. */
static const char *filled(const struct md_doc *doc, struct str s, int text)
{
	struct tfill tf = {doc};
	struct md_xref_fill f = {t_number, t_ref, &tf, doc->nlabels, doc->nxrefs};
	struct buf out;
	buf_init(&out);
	md_xref_expand(&out, s, text, &f);
	const char *r = arena_strndup(A, out.p ? out.p : "", out.len);
	buf_fini(&out);
	return r;
}

static const char *html(const char *md)
{
	struct md_doc doc;
	render(md, &doc);
	return filled(&doc, doc.html, 0);
}

static void test_kinds(void)
{
	OK(md_xref_kind_of("eq:a", 4, NULL) == MD_XREF_EQ);
	int cap;
	OK(md_xref_kind_of("Fig:a", 5, &cap) == MD_XREF_FIG && cap == 1);
	OK(md_xref_kind_of("tbl:x", 5, &cap) == MD_XREF_TBL && cap == 0);
	OK(md_xref_kind_of("lst:x", 5, NULL) == MD_XREF_LST);
	OK(md_xref_kind_of("sec:x", 5, NULL) == MD_XREF_SEC);
	OK(md_xref_kind_of("eq:", 3, NULL) == -1);   /* a prefix and no name */
	OK(md_xref_kind_of("smith2020", 9, NULL) == -1);
	OK(md_xref_kind_of("EQ:a", 4, NULL) == -1);
}

static void test_labels(void)
{
	struct md_doc doc;
	INT_EQ(render("$$ a $$ {#eq:one}\n\n$$\nb \\label{eq:two}\n$$\n\n![x](http://e.org/x.png \"Cap\"){#fig:f}\n\n"
		      "| a |\n|---|\n| 1 |\n\n: The table {#tbl:t}\n\n```c {#lst:l title=\"L\"}\nx\n```\n\n"
		      "## Method {#sec:m}\n\n$$ c $$\n{#eq:three}\n",
		      &doc),
	       0);
	STR_EQ(messages(), "");
	INT_EQ((int)doc.nlabels, 7);
	STR_EQ(doc.labels[0].name.p, "eq:one");
	INT_EQ(doc.labels[0].number, 1);
	STR_EQ(doc.labels[1].name.p, "eq:two");
	INT_EQ(doc.labels[1].number, 2);
	INT_EQ(doc.labels[1].line, 4); /* where its \label is */
	INT_EQ(doc.labels[1].col, 3);
	INT_EQ(doc.labels[2].kind, MD_XREF_FIG);
	INT_EQ(doc.labels[2].number, 1);
	INT_EQ(doc.labels[3].kind, MD_XREF_TBL);
	INT_EQ(doc.labels[4].kind, MD_XREF_LST);
	INT_EQ(doc.labels[5].kind, MD_XREF_SEC);
	OK(str_eq_cstr(doc.labels[5].text, "Method"));
	STR_EQ(doc.labels[6].name.p, "eq:three");
	INT_EQ(doc.labels[6].number, 3);
	const char *h = filled(&doc, doc.html, 0);
	OK(t_has(h, "<div class=\"equation\" id=\"eq:one\">"));
	OK(t_has(h, "<span class=\"equation-number\">(#1)</span></div>"));
	OK(t_has(h, "<span class=\"equation-number\">(#3)</span></div>"));
	OK(!t_has(h, "\\label")); /* KaTeX is not given it */
	OK(!t_has(h, "{#"));
	OK(t_has(h, "<figure id=\"fig:f\">"));
	OK(t_has(h, "<figcaption><span class=\"xref-label\">Figure #1:</span> Cap</figcaption>"));
	OK(t_has(h, "<figure class=\"table\" id=\"tbl:t\">\n<figcaption>\n<p><span class=\"xref-label\">Table #1:</span> "
		    "The table</p>\n</figcaption>\n<table>"));
	OK(t_has(h, "<figure class=\"code listing\" id=\"lst:l\"><figcaption class=\"code-title\"><span "
		    "class=\"xref-label\">Listing #1:</span> L</figcaption>"));
	OK(t_has(h, "<h2 id=\"sec:m\">"));
	/* a caption before its table; an equation in running text */
	h = html(": Before {#tbl:b}\n\n| a |\n|---|\n| 1 |\n");
	OK(t_has(h, "<figure class=\"table\" id=\"tbl:b\">\n<figcaption>\n<p><span class=\"xref-label\">Table #1:</span> "
		    "Before</p>\n</figcaption>\n<table>"));
	h = html("So $$ x $$ {#eq:in} holds.\n");
	OK(t_has(h, "So <span class=\"equation\" id=\"eq:in\"><span class=\"math display\">"));
	OK(t_has(h, "<span class=\"equation-number\">(#1)</span></span> holds."));
	/* not labels: another id on a figure stays text; no caption, no table figure */
	h = html("![x](http://e.org/x.png){#photo}\n");
	OK(t_has(h, "{#photo}"));
	h = html("| a |\n|---|\n| 1 |\n\n: Caption without a label\n");
	OK(!t_has(h, "<figure"));
	/* a labelled figure with no title: the number alone */
	h = html("![x](http://e.org/x.png){#fig:bare}\n");
	OK(t_has(h, "<figcaption><span class=\"xref-label\">Figure #1:</span></figcaption>"));
	/* a labelled figure first in the post: the summary is the paragraph after it */
	render("![x](http://e.org/x.png \"T\"){#fig:a}\n\nThe text.\n", &doc);
	STR_EQ(doc.summary_text.p, "The text.");
}

static void test_refs(void)
{
	struct md_doc doc;
	INT_EQ(render("See @eq:adam, [@eq:adam; @fig:f], @Eq:adam. And @gpu-13#fig:tree, [](b.md#tbl:x), [@](../c.md#eq:y).\n\n"
		      "$$ a $$ {#eq:adam}\n\n![x](http://e.org/x.png \"C\"){#fig:f}\n",
		      &doc),
	       0);
	STR_EQ(messages(), "");
	INT_EQ((int)doc.nxrefs, 7);
	INT_EQ(doc.xrefs[0].label, 0);
	INT_EQ(doc.xrefs[0].line, 1);
	INT_EQ(doc.xrefs[0].col, 5);
	INT_EQ(doc.xrefs[2].label, 1);
	INT_EQ(doc.xrefs[3].flags, MD_XREF_CAP);
	STR_EQ(doc.xrefs[3].name.p, "eq:adam");
	STR_EQ(doc.xrefs[4].target.p, "gpu-13");
	STR_EQ(doc.xrefs[4].name.p, "fig:tree");
	INT_EQ(doc.xrefs[4].label, -1);
	STR_EQ(doc.xrefs[5].target.p, "b.md");
	INT_EQ(doc.xrefs[5].flags, MD_XREF_BY_PATH);
	STR_EQ(doc.xrefs[6].target.p, "../c.md");
	const char *h = filled(&doc, doc.html, 0);
	OK(t_has(h, "<p>See [R eq:adam], [R eq:adam], [R fig:f], [R eq:adam]. And [R gpu-13#fig:tree], [R b.md#tbl:x], "
		    "[R ../c.md#eq:y].</p>"));
	/* the summary's text keeps them */
	STR_EQ(filled(&doc, doc.summary_text, 1), "See eq:adam, eq:adam, fig:f, eq:adam. And fig:tree, tbl:x, eq:y.");
	/* left alone: citations, e-mail, \@, @word, a sentence's full stop */
	render("$$ a $$ {#eq:a}\n\nA [@smith2020] and [@a; @b, p. 4], me@example.com, \\@eq:a, @bob and @eq:a.\n", &doc);
	STR_EQ(messages(), "");
	h = filled(&doc, doc.html, 0);
	OK(t_has(h, "A [@smith2020] and [@a; @b, p. 4], <a href=\"mailto:me@example.com\">me@example.com</a>, @eq:a, @bob "
		    "and [R eq:a].</p>"));
	INT_EQ((int)doc.nxrefs, 1);
	/* in code, no reference */
	render("`@eq:a` and\n\n```\n@eq:a\n```\n", &doc);
	STR_EQ(messages(), "");
	INT_EQ((int)doc.nxrefs, 0);
}

static void test_errors(void)
{
	struct md_doc doc;
	INT_EQ(render("$$ a $$ {#eq:adam}\n\nSee @eq:adm and @fig:none.\n", &doc), -1);
	STR_EQ(messages(), "content/posts/p.md:3:5: error: unknown label 'eq:adm' (did you mean 'eq:adam'?)\n"
		       "content/posts/p.md:3:17: error: unknown label 'fig:none' (hint: no fig: label in this post; another "
		       "post's is @SLUG#fig:none)\n");
	INT_EQ(render("$$ a $$ {#eq:a}\n\n$$ b $$ {#eq:a}\n", &doc), -1);
	STR_EQ(messages(), "content/posts/p.md:3:1: error: duplicate label 'eq:a' (first defined on line 1)\n");
	INT_EQ(render("$$ a $$ {#fig:a}\n", &doc), -1);
	STR_EQ(messages(), "content/posts/p.md:1:9: error: label 'fig:a' on an equation (hint: its label starts with eq:)\n");
	INT_EQ(render("![x](http://e.org/x.png){#tbl:a}\n", &doc), -1);
	STR_EQ(messages(), "content/posts/p.md:1:25: error: label 'tbl:a' on a figure (hint: its label starts with fig:)\n");
	INT_EQ(render("$$ a $$ {#eq:a}\n\nSee [@eq:a; @smith2020].\n", &doc), -1);
	STR_EQ(messages(), "content/posts/p.md:3:5: error: '[@eq:a; @smith2020]' mixes cross-references and citations "
		       "(hint: give each its own brackets: [@eq:a] [@smith2020])\n");
	struct code_opts o;
	struct buf e;
	buf_init(&e);
	INT_EQ(code_opts_parse(A, str_from("c {#gemm title=\"x\"}"), &o, &e), -1);
	STR_EQ(e.p, "'#gemm' is no listing label (hint: a code block's label starts with lst:, as in {#lst:gemm})");
	buf_reset(&e);
	INT_EQ(code_opts_parse(A, str_from("c {#lst:gemm title=\"x\"}"), &o, &e), 0);
	OK(str_eq_cstr(o.label, "lst:gemm") && str_eq_cstr(o.title, "x"));
	buf_fini(&e);
}

/* expand: placeholders cut short are dropped, other bytes kept */
static void test_expand(void)
{
	struct md_label l[2] = {{{"eq:a", 4}, MD_XREF_EQ, 7, {NULL, 0}, 1, 1}, {{"fig:b", 5}, MD_XREF_FIG, 2, {NULL, 0}, 1, 1}};
	struct md_xref x[1] = {{{"", 0}, {"eq:a", 4}, 0, 0, 1, 1}};
	struct md_doc doc;
	memset(&doc, 0, sizeof doc);
	doc.labels = l;
	doc.nlabels = 2;
	doc.xrefs = x;
	doc.nxrefs = 1;
	STR_EQ(filled(&doc, str_from("a \x01N1\x01 b \x01R0\x01 c"), 0), "a #2 b [R eq:a] c");
	STR_EQ(filled(&doc, str_from("cut \x01R"), 1), "cut ");
	/* no placeholder: as it is (a mark alone at the end is a cut one) */
	STR_EQ(filled(&doc, str_from("x \x01N9\x01 \x01Q\x01."), 1), "x \x01N9\x01 \x01Q\x01.");
	/* numbers by part */
	struct series se;
	memset(&se, 0, sizeof se);
	struct post p;
	memset(&p, 0, sizeof p);
	p.part = 3;
	struct buf b;
	buf_init(&b);
	xref_number(&b, &p, &l[0]);
	STR_EQ(b.p, "7");
	p.series = &se;
	buf_reset(&b);
	xref_number(&b, &p, &l[0]);
	STR_EQ(b.p, "7");
	se.number_by_part = 1;
	buf_reset(&b);
	xref_number(&b, &p, &l[0]);
	STR_EQ(b.p, "3.7");
	buf_fini(&b);
}

/* the Markdown cache keeps labels and references */
static void test_cache(void)
{
	struct md_doc doc, back;
	render("## Intro {#sec:i}\n\n$$ a $$ {#eq:a}\n\nSee @eq:a and @b#fig:x.\n", &doc);
	struct md_cache *c = md_cache_new();
	struct md_key k = {1, 2};
	md_cache_put(c, &k, 0, &doc, 0);
	OK(md_cache_get(c, &k, 0, A, &back));
	INT_EQ((int)back.nlabels, 2);
	INT_EQ((int)back.nxrefs, 2);
	STR_EQ(back.labels[1].name.p, "eq:a");
	OK(str_eq_cstr(back.labels[0].text, "Intro"));
	INT_EQ(back.xrefs[0].label, 1);
	OK(str_eq_cstr(back.xrefs[1].target, "b"));
	OK(str_eq_cstr(back.xrefs[1].name, "fig:x"));
	INT_EQ(back.xrefs[1].line, doc.xrefs[1].line);
	INT_EQ(back.xrefs[1].col, doc.xrefs[1].col);
	STR_EQ(filled(&back, back.html, 0), filled(&doc, doc.html, 0));
	md_cache_free(c);
}

void test_xref(void)
{
	t_current = "xref";
	A = arena_new();
	buf_init(&errs);
	test_kinds();
	test_labels();
	test_refs();
	test_errors();
	test_expand();
	test_cache();
	buf_fini(&errs);
	arena_free(A);
}
