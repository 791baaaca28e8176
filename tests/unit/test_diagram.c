/* test_diagram.c: diagram.c and the ```pikchr blocks of blocks.c: the SVG
 * pikchr draws, recoloured and named; its errors with their places in the
 * diagram and in the file; empty, huge and NUL-holding sources; figures,
 * captions, counts and the page's budget through md_render. */
#include "harness.h"

#include "md/diagram.h"
#include "md/markdown.h"

#include <stdlib.h>
#include <string.h>

static struct arena *A;

/* draw: diagram_pikchr of src (a C string) titled title into out and err
 * (reset first); its return value, the place in *line, *col. */
static int draw(const char *src, const char *title, struct buf *out, struct buf *err, int *line,
                int *col)
{
	buf_reset(out);
	buf_reset(err);
	buf_puts(out, "");
	buf_puts(err, "");
	return diagram_pikchr(out, src, strlen(src), str_from(title), err, line, col);
}

static void test_drawing(void)
{
	struct buf out, err;
	buf_init(&out);
	buf_init(&err);
	int line = -1, col = -1;
	INT_EQ(draw("box \"parse\" fill white\narrow\ncircle \"done\" color red\n",
	            "The build's <stages>", &out, &err, &line, &col),
	       0);
	INT_EQ(line, 0);
	INT_EQ(col, 0);
	/* folio's start tag: the viewBox kept, pikchr's size as width and
	 * height, which a phone may shrink */
	static const char head[] =
	    "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 256.32 76.32\" width=\"256\" "
	    "height=\"76\" role=\"img\" aria-label=\"The build&#39;s &lt;stages&gt;\" "
	    "style=\"font-size:initial;max-width:100%;height:auto\"><title>The build&#39;s "
	    "&lt;stages&gt;</title>\n";
	OK(!strncmp(out.p, head, sizeof head - 1));
	OK(out.len > 6 && !strcmp(out.p + out.len - 6, "</svg>"));
	INT_EQ(t_count(out.p, "<svg"), 1);
	INT_EQ(t_count(out.p, "</svg>"), 1);
	/* black is the text's colour, white the page's background, red red */
	OK(!t_has(out.p, "rgb(0,0,0)"));
	OK(!t_has(out.p, "rgb(255,255,255)"));
	OK(t_has(out.p, "style=\"fill:var(--bg,#fff);stroke-width:2.16;stroke:currentColor;\""));
	OK(t_has(out.p, "<text x=\"56.16\" y=\"38.16\" text-anchor=\"middle\" fill=\"currentColor\" "
	              "dominant-baseline=\"central\">parse</text>"));
	OK(t_has(out.p, "style=\"fill:currentColor\"/>")); /* the arrowhead */
	OK(t_has(out.p, "stroke:rgb(255,0,0);"));
	OK(t_has(out.p, "fill=\"rgb(255,0,0)\""));
	/* no ids: any number of diagrams on a page */
	OK(!t_has(out.p, " id="));
	/* the same source, the same bytes */
	struct buf again;
	buf_init(&again);
	buf_puts(&again, out.p);
	draw("box \"parse\" fill white\narrow\ncircle \"done\" color red\n", "The build's <stages>",
	     &out, &err, &line, &col);
	STR_EQ(out.p, again.p);
	buf_fini(&again);

	/* without a title, "Diagram" */
	INT_EQ(draw("box", "", &out, &err, &line, &col), 0);
	OK(t_has(out.p, " aria-label=\"Diagram\" ") && t_has(out.p, "<title>Diagram</title>"));
	/* white text gets a style (a CSS variable does not work in SVG's
	 * fill attribute); a label that says rgb(0,0,0) is left alone (and
	 * pikchr writes its spaces as U+00A0) */
	INT_EQ(draw("box fill black; text \"rgb(0,0,0)&<b>\" color white at last box", "t", &out,
	            &err, &line, &col),
	       0);
	OK(t_has(out.p, "style=\"fill:var(--bg,#fff)\" "
	              "dominant-baseline=\"central\">rgb(0,0,0)&amp;&lt;b&gt;</text>"));
	OK(t_has(out.p, "style=\"fill:currentColor;stroke-width:2.16;stroke:currentColor;\""));
	/* scale: pikchr's own width and height are replaced by folio's, the
	 * scaled size */
	INT_EQ(draw("scale = 2\nbox", "t", &out, &err, &line, &col), 0);
	OK(t_has(out.p, "viewBox=\"0 0 112.32 76.32\" width=\"224\" height=\"152\" role"));
	INT_EQ(t_count(out.p, "width="), 1);
	buf_fini(&out);
	buf_fini(&err);
}

static void test_errors(void)
{
	struct buf out, err;
	buf_init(&out);
	buf_init(&err);
	int line, col;
	/* a later line: the column of the token, in bytes from 1 */
	INT_EQ(draw("box \"a\"\narrow\n  circle radius foo\n", "", &out, &err, &line, &col), -1);
	STR_EQ(err.p, "no such variable");
	INT_EQ(line, 3);
	INT_EQ(col, 17);
	STR_EQ(out.p, "");
	/* the first line (which pikchr counts from 0) */
	INT_EQ(draw("circle radius foo", "", &out, &err, &line, &col), -1);
	INT_EQ(line, 1);
	INT_EQ(col, 15);
	INT_EQ(draw("box wid junk", "", &out, &err, &line, &col), -1);
	STR_EQ(err.p, "no such variable");
	INT_EQ(line, 1);
	INT_EQ(col, 9);
	/* a syntax error */
	INT_EQ(draw("box\nbox box box\n", "", &out, &err, &line, &col), -1);
	STR_EQ(err.p, "syntax error");
	INT_EQ(line, 2);
	INT_EQ(col, 5);
	/* in a macro: the place in its body, not where it was called */
	INT_EQ(draw("define m { box wid junk }\nm\n", "", &out, &err, &line, &col), -1);
	STR_EQ(err.p, "no such variable");
	INT_EQ(line, 1);
	INT_EQ(col, 20);
	/* pikchr names no place: the message alone */
	struct buf deep;
	buf_init(&deep);
	for (int i = 0; i < 2000; i++)
		buf_putc(&deep, '[');
	buf_puts(&deep, "box");
	for (int i = 0; i < 2000; i++)
		buf_putc(&deep, ']');
	INT_EQ(draw(deep.p, "", &out, &err, &line, &col), -1);
	STR_EQ(err.p, "parser stack overflow");
	INT_EQ(line, 0);
	INT_EQ(col, 0);
	buf_fini(&deep);
	/* one error only, the first */
	INT_EQ(draw("box wid a\nbox wid b\n", "", &out, &err, &line, &col), -1);
	STR_EQ(err.p, "no such variable");
	INT_EQ(line, 1);
	buf_fini(&out);
	buf_fini(&err);
}

static void test_limits(void)
{
	struct buf out, err;
	buf_init(&out);
	buf_init(&err);
	int line, col;
	/* nothing to draw */
	INT_EQ(draw("", "", &out, &err, &line, &col), 1);
	STR_EQ(out.p, "");
	INT_EQ(draw("# a comment\nmyvar = 1\n", "", &out, &err, &line, &col), 1);
	STR_EQ(out.p, "");
	/* too big: refused before pikchr reads it */
	size_t n = DIAGRAM_MAX_SOURCE + 1;
	char *big = malloc(n);
	memset(big, ' ', n);
	memcpy(big, "box", 3);
	buf_reset(&err);
	INT_EQ(diagram_pikchr(&out, big, n, str_from(""), &err, &line, &col), -1);
	STR_EQ(err.p, "the diagram is 65537 bytes, past the limit of 64 KiB (see LIMITS in "
	              "folio-site(5)); split it");
	INT_EQ(line, 0);
	/* 64 KiB exactly is drawn */
	buf_reset(&err);
	INT_EQ(diagram_pikchr(&out, big, n - 1, str_from(""), &err, &line, &col), 0);
	free(big);
	/* a NUL byte: pikchr would stop at it */
	buf_reset(&err);
	buf_reset(&out);
	INT_EQ(diagram_pikchr(&out, "box\nab\0c", 8, str_from(""), &err, &line, &col), -1);
	STR_EQ(err.p, "the diagram holds a NUL byte");
	INT_EQ(line, 2);
	INT_EQ(col, 3);
	/* a drawing past pikchr's token limit (10,000, macros included) */
	INT_EQ(draw("define ma {box;box;box;box;box;box;box;box;box;box}\n"
	            "define mb {ma;ma;ma;ma;ma;ma;ma;ma;ma;ma}\ndefine mc "
	            "{mb;mb;mb;mb;mb;mb;mb;mb;mb;mb}\n"
	            "mc\nmc\nmc\nmc\nmc\nmc\n",
	            "", &out, &err, &line, &col),
	       -1);
	STR_EQ(err.p, "script is too complex");
	INT_EQ(line, 1);
	INT_EQ(col, 31);
	buf_fini(&out);
	buf_fini(&err);
}

static void test_blocks(void)
{
	struct md_doc doc;
	struct buf errs;
	buf_init(&errs);
	/* two diagrams on a page, one with a caption */
	const char *h =
	    t_post(A, "Text.\n\n```pikchr {title=\"The stages\"}\nbox \"a\"\narrow\nbox \"b\"\n```\n\n"
	           "```pikchr\ncircle\n```\n",
	           NULL, &doc, &errs);
	STR_EQ(errs.p ? errs.p : "", "");
	INT_EQ(t_count(h, "<figure class=\"diagram\"><svg "), 2);
	INT_EQ(t_count(h, "</svg></figure>"), 1);
	INT_EQ(t_count(h, "</svg><figcaption>The stages</figcaption></figure>\n"), 1);
	OK(t_has(h, "role=\"img\" aria-label=\"The stages\""));
	OK(t_has(h, "<title>The stages</title>"));
	OK(t_has(h, "<title>Diagram</title>"));
	OK(!t_has(h, " id=\""));
	OK(!t_has(h, "<pre"));
	/* a diagram is a picture in the counts, not code */
	INT_EQ(doc.images, 2);
	INT_EQ(doc.code_words, 0);
	INT_EQ(doc.words, 1);

	/* the theme's word for an untitled diagram */
	struct md_options o = {.labels = {[MD_LABEL_DIAGRAM] = "Schéma"}};
	h = t_post(A, "```pikchr\nbox\n```\n", &o, &doc, &errs);
	OK(t_has(h, "aria-label=\"Schéma\"") && t_has(h, "<title>Schéma</title>"));

	/* an error at the diagram's own line and column in the file: the
	 * front matter's 4 lines, the fence's, the diagram's 3rd; in a list
	 * item, indented */
	buf_reset(&errs);
	h = t_post(A,
	    "Text.\n\n- item\n\n  ```pikchr\n  box \"a\"\n  arrow\n    circle radius foo\n  ```\n",
	    NULL, &doc, &errs);
	STR_EQ(t_msgs(&errs), "content/posts/p.md:12:19: error: pikchr: no such variable");
	OK(t_has(errs.p, "12 |     circle radius foo\n"));
	/* the page written all the same shows the source and the message */
	OK(t_has(h, "<pre class=\"diagram-error\" title=\"pikchr: no such variable\"><code>box "
	          "&quot;a&quot;\narrow\n"
	          "  circle radius foo\n</code></pre>"));
	/* in a block quote, on the first line */
	buf_reset(&errs);
	t_post(A, "> ```pikchr\n> box wid junk\n> ```\n", NULL, &doc, &errs);
	STR_EQ(t_msgs(&errs), "content/posts/p.md:6:11: error: pikchr: no such variable");
	/* no place: the fence */
	buf_reset(&errs);
	t_post(A, "\n```pikchr\n[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["
	       "[[[[[[[[[[[[[[[[[[[[[[[[[["
	       "[[[[[[[[[[[[[[box\n```\n",
	       NULL, &doc, &errs);
	STR_EQ(t_msgs(&errs), "content/posts/p.md:6:1: error: pikchr: parser stack overflow");
	/* an empty block draws nothing, with a warning */
	buf_reset(&errs);
	h = t_post(A, "a\n\n```pikchr\n```\n\nb\n", NULL, &doc, &errs);
	STR_EQ(t_msgs(&errs), "content/posts/p.md:7:1: warning: pikchr: the diagram draws nothing");
	STR_EQ(h, "<p>a</p>\n<p>b</p>\n");
	/* options a diagram does not take */
	buf_reset(&errs);
	t_post(A, "```pikchr {linenos}\nbox\n```\n", NULL, &doc, &errs);
	STR_EQ(
	    t_msgs(&errs),
	    "content/posts/p.md:5:1: error: code block: a pikchr diagram takes no hl, linenos or "
	    "start (hint: its one option is title=\"...\")");
	buf_reset(&errs);
	t_post(A, "```pikchr {caption=\"x\"}\nbox\n```\n", NULL, &doc, &errs);
	STR_EQ(t_msgs(&errs), "content/posts/p.md:5:1: error: code block: unknown code block "
	                      "option 'caption' (did you mean 'title'?)");
	/* too big */
	struct buf md;
	buf_init(&md);
	buf_puts(&md, "```pikchr\n");
	for (size_t i = 0; i <= DIAGRAM_MAX_SOURCE / 4; i++)
		buf_puts(&md, "box\n");
	buf_puts(&md, "```\n");
	buf_reset(&errs);
	t_post(A, md.p, NULL, &doc, &errs);
	STR_EQ(t_msgs(&errs), "content/posts/p.md:5:1: error: pikchr: the diagram is 65540 bytes, "
	                      "past the limit of 64 "
	                      "KiB (see LIMITS in folio-site(5)); split it");
	buf_fini(&md);
	/* the page's budget: past it, one error and the rest not drawn */
	struct md_options tight = {.diagram_seconds = 1e-9};
	buf_reset(&errs);
	h = t_post(A, "```pikchr\nbox\n```\n\n```pikchr\ncircle\n```\n\n```pikchr\nellipse\n```\n",
	           &tight, &doc, &errs);
	STR_EQ(t_msgs(&errs), "content/posts/p.md:9:1: error: pikchr: the page's diagrams take "
	                      "longer than 1e-09 s to "
	                      "draw; the rest are not (split the page)");
	INT_EQ(t_count(h, "<svg"), 1);
	buf_fini(&errs);
}

void test_diagram(void)
{
	A = arena_new();
	test_drawing();
	test_errors();
	test_limits();
	test_blocks();
	arena_free(A);
}
