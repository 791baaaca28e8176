/* test_cite.c: the citations pass (md/cite.c) through md_render: both
 * styles, brackets, locators, prefixes, the author left out, keys in the
 * text, what stays text, the References before the footnotes, the
 * summary's text without links, and the errors at their places. */
#include "harness.h"

#include "base/arena.h"
#include "base/buf.h"
#include "formats/bibtex.h"
#include "md/markdown.h"

static const char bib[] =
	"@article{a2020, author = {Alpha, Ann and Beta, Bob and Gamma, Gil}, title = {First}, journal = {J}, year = 2020}\n"
	"@article{b2020, author = {Alpha, Ann and Beta, Bob and Delta, Dan}, title = {Second}, journal = {J}, year = 2020}\n"
	"@book{c1999, author = {Carl Cook}, title = {A Book}, publisher = {P}, year = 1999, doi = {https://doi.org/10.1/x}}\n"
	"@misc{d, title = {No Author}, url = {javascript:alert(1)}}\n"
	"@misc{e, title = {Escapes}, url = {https://x.org/a\\_b{}c\\%20}, doi = {10.1/a b}}\n";

static struct bibtex B;
static const struct bibtex *const bibs[] = {&B};

/* render: md's HTML under style (static buffer of t_post's), its
 * messages in *msgs. */
static const char *render(struct arena *a, const char *md, int style, struct md_doc *doc, const char **msgs)
{
	static struct buf errs;
	buf_reset(&errs);
	struct md_options o = {0};
	o.bibs = bibs;
	o.nbibs = 1;
	o.cite_style = style;
	const char *html = t_post(a, md, &o, doc, &errs);
	*msgs = t_msgs(&errs);
	return html;
}

void test_cite(void)
{
	struct arena *a = arena_new();
	INT_EQ(bibtex_parse(a, bib, sizeof bib - 1, &B), 0);
	struct md_doc doc;
	const char *msgs;
	const char *h = render(a, "One [@c1999] and [@a2020; @b2020, p. 2] and @c1999 and [-@c1999].\n", MD_CITE_NUMERIC,
			       &doc, &msgs);
	STR_EQ(msgs, "");
	OK(t_has(h, "One [<a href=\"#ref-c1999\">1</a>] and [<a href=\"#ref-a2020\">2</a>; <a href=\"#ref-b2020\">3</a>, p. 2]"));
	OK(t_has(h, "and <a href=\"#ref-c1999\">Cook [1]</a> and [<a href=\"#ref-c1999\">1</a>]."));
	OK(t_has(h, "<ol>\n<li id=\"ref-c1999\">Carl Cook. 1999. <em>A Book</em>. P. <a href=\"https://doi.org/10.1/x\">doi:10.1/x</a></li>"));
	STR_EQ(doc.summary_text.p, "One [1] and [2; 3, p. 2] and Cook [1] and [1].");
	OK(!t_has(doc.summary_html.p, "href"));

	/* numbers in order: two in a row are a list, three a range */
	h = render(a, "One [@c1999], [@a2020; @b2020], [@b2020; @c1999; @a2020].\n", MD_CITE_NUMERIC, &doc, &msgs);
	STR_EQ(msgs, "");
	STR_EQ(doc.summary_text.p, "One [1], [2, 3], [1–3].");

	/* author-year: two works of the same authors and year get letters */
	h = render(a, "See [@a2020; @b2020] and @a2020, [see -@b2020, ch. 1].\n", MD_CITE_AUTHOR_YEAR, &doc, &msgs);
	STR_EQ(msgs, "");
	OK(t_has(h, "See (<a href=\"#ref-a2020\">Alpha et al., 2020a</a>; <a href=\"#ref-b2020\">Alpha et al., 2020b</a>)"));
	OK(t_has(h, "and <a href=\"#ref-a2020\">Alpha et al. (2020a)</a>, (see <a href=\"#ref-b2020\">2020b</a>, ch. 1)."));
	OK(t_has(h, "<ul>\n<li id=\"ref-a2020\">Ann Alpha, Bob Beta and Gil Gamma. 2020a. First. <em>J</em>.</li>"));

	/* no author: the title; a URL that is no web address is left out;
	 * the References come before the footnotes */
	h = render(a, "Cited @d.[^1]\n\n[^1]: A note [@a2020].\n", MD_CITE_AUTHOR_YEAR, &doc, &msgs);
	STR_EQ(msgs, "");
	OK(t_has(h, "Cited <a href=\"#ref-d\">No Author (n.d.)</a>."));
	OK(!t_has(h, "javascript"));
	OK(t_has(h, "</section>\n<section class=\"footnotes\""));

	/* a URL's escapes and braces undone; a DOI with a space is no link */
	h = render(a, "See [@e].\n", MD_CITE_NUMERIC, &doc, &msgs);
	OK(t_has(h, "<li id=\"ref-e\">n.d. Escapes. <a href=\"https://x.org/a_bc%20\">https://x.org/a_bc%20</a></li>"));

	/* text: in code, in a link, an escaped @, an e-mail, an @name; a
	 * cross-reference is xref.c's (which runs first: these labels are
	 * unknown there), never a citation */
	h = render(a, "`[@c1999]` [x @c1999](/u) \\@c1999 me@c1999.org @nobody [@eq:one] [@fig:a; @tbl:b]\n",
		   MD_CITE_NUMERIC, &doc, &msgs);
	STR_EQ(msgs, "content/posts/p.md:5:57: error: unknown label 'eq:one' (hint: no eq: label in this post; another "
		     "post's is @SLUG#eq:one)\n"
		     "content/posts/p.md:5:67: error: unknown label 'fig:a' (hint: no fig: label in this post; another "
		     "post's is @SLUG#fig:a)");
	OK(!t_has(h, "ref-c1999"));
	OK(!t_has(h, "references"));
	OK(!t_has(h, "ref-eq"));
	OK(!t_has(h, "ref-fig"));
	OK(t_has(h, "@c1999 "));

	/* errors, at their places (the body's first line is the file's 5th) */
	render(a, "Text\nsee [@c199] and\n[@zzz; @a2020] @a2002 [@eq:x; @a2020].\n", MD_CITE_NUMERIC, &doc, &msgs);
	STR_EQ(msgs, "content/posts/p.md:7:23: error: '[@eq:x; @a2020]' mixes cross-references and citations (hint: give each its own brackets: [@eq:a] [@smith2020])\n"
		     "content/posts/p.md:6:6: error: unknown citation key 'c199' (did you mean 'c1999'?)\n"
		     "content/posts/p.md:7:2: error: unknown citation key 'zzz' (no entry of the post's bibliography has it)\n"
		     "content/posts/p.md:7:16: error: unknown citation key 'a2002' (did you mean 'a2020'?)");

	/* no bibliography: nothing changes */
	struct buf errs;
	buf_init(&errs);
	struct md_options o = {0};
	h = t_post(a, "[@c1999] @c1999\n", &o, &doc, &errs);
	OK(t_has(h, "<p>[@c1999] @c1999</p>"));
	buf_fini(&errs);
	bibtex_fini(&B);

	/* a URL's backslash before a NUL is no escape of the NUL: the URL
	 * is not one (a control character), and the References go on to
	 * the entries after it (fuzz_bibtex: the NUL ended them) */
	static const char nul_bib[] = "@misc{u1, title = {One}, url = {https://x.org/a\\\0b}}\n"
				      "@misc{u2, title = {Two}, url = {https://y.org/}}\n";
	INT_EQ(bibtex_parse(a, nul_bib, sizeof nul_bib - 1, &B), 0);
	h = render(a, "See [@u1; @u2].\n", MD_CITE_NUMERIC, &doc, &msgs);
	OK(t_has(h, "<li id=\"ref-u1\">n.d. One.</li>"));
	OK(t_has(h, "<li id=\"ref-u2\">n.d. Two. <a href=\"https://y.org/\">"));
	OK(t_has(h, "</ol>\n</section>"));
	bibtex_fini(&B);
	arena_free(a);
}
