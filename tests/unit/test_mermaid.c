/* test_mermaid.c: mermaid.c and the ```mermaid blocks of blocks.c: each
 * kind of diagram drawn, with folio's start tag, the page's colours, ids
 * of its own and nothing a page must not hold; errors, blank, huge and
 * NUL-holding sources, a drawing past its time; figures, captions, the
 * places of errors and the page's budget through md_render. */
#include "harness.h"

#include "md/diagram.h"
#include "md/markdown.h"
#include "md/mermaid.h"

#include <stdlib.h>
#include <string.h>

static struct arena *A;

/* draw: mermaid_render of src (a C string) titled title, with a second
 * to draw it, into out and err (reset first); its return value. */
static int draw(const char *src, const char *title, struct buf *out, struct buf *err)
{
	buf_reset(out);
	buf_reset(err);
	buf_puts(out, "");
	buf_puts(err, "");
	return mermaid_render(out, src, strlen(src), str_from(title), 1.0, err);
}

/* ids_prefixed: every id="..." in svg (past the root's) and every url(#
 * and href="# starts with the root's id and '-'. */
static int ids_prefixed(const char *svg)
{
	const char *root = strstr(svg, " id=\"");
	if (!root)
		return 0;
	char want[40];
	size_t n = strcspn(root + 5, "\"");
	if (n + 2 >= sizeof want)
		return 0;
	memcpy(want, root + 5, n);
	want[n] = '-';
	want[n + 1] = '\0';
	static const char *const refs[] = {" id=\"", "url(#", "href=\"#"};
	for (size_t r = 0; r < 3; r++)
		for (const char *p = strstr(root + 5, refs[r]); p; p = strstr(p + 1, refs[r]))
			if (strncmp(p + strlen(refs[r]), want, n + 1) != 0)
				return 0;
	return 1;
}

static const char flow[] =
    "graph TD\n  A[Start] --> B{Is it?}\n  B -->|Yes| C[OK]\n  B -->|No| D[End]\n";

static void test_drawing(void)
{
	struct buf out, err;
	buf_init(&out);
	buf_init(&err);
	INT_EQ(draw(flow, "The <flow> & \"more\"", &out, &err), 0);
	STR_EQ(err.p, "");
	OK(!strncmp(out.p, "<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"mm", 46));
	OK(t_has(out.p, " role=\"img\" aria-label=\"The &lt;flow&gt; &amp; &quot;more&quot;\" "
	                "style=\"max-width:100%;"
	                "height:auto;"));
	OK(t_has(out.p, "<title>The &lt;flow&gt; &amp; &quot;more&quot;</title>"));
	OK(out.len > 6 && !strcmp(out.p + out.len - 6, "</svg>"));
	INT_EQ(t_count(out.p, "<svg"), 1);
	/* the nodes and the labelled edges are there */
	OK(t_has(out.p, ">Start</text>") && t_has(out.p, ">Is it?</text>") &&
	   t_has(out.p, ">Yes</text>"));
	INT_EQ(t_count(out.p, "class=\"edge\""), 3);
	/* the page's colours, its fonts, no request anywhere */
	OK(t_has(out.p, "var(--bg,#fff)") && t_has(out.p, "var(--fg,currentColor)"));
	OK(!t_has(out.p, "var(--bg)") && !t_has(out.p, "var(--fg)"));
	OK(!t_has(out.p, "<style") && !t_has(out.p, "@import") && !t_has(out.p, "googleapis") &&
	   !t_has(out.p, "Inter"));
	OK(!t_has(out.p, "#FFFFFF") && !t_has(out.p, "#27272A"));
	/* ids of its own */
	OK(t_has(out.p, "-arrowhead\"") && ids_prefixed(out.p));
	/* the same source, the same bytes; another source, other ids */
	char *first = xstrndup(out.p, out.len);
	INT_EQ(draw(flow, "The <flow> & \"more\"", &out, &err), 0);
	STR_EQ(out.p, first);
	INT_EQ(draw("graph TD\n  A[Start] --> B[Stop]\n", "", &out, &err), 0);
	OK(strncmp(out.p, first, 60) != 0);
	OK(t_has(out.p, "aria-label=\"" DIAGRAM_UNTITLED "\""));
	free(first);
	buf_fini(&out);
	buf_fini(&err);
}

/* Every kind beautiful-mermaid draws, each through its own layout. */
static void test_kinds(void)
{
	static const struct {
		const char *src, *text;
	} kinds[] = {
	    {"sequenceDiagram\n  Alice->>Bob: Hello Bob\n  Bob-->>Alice: Hi Alice\n",
	     ">Hello Bob</text>"},
	    {"classDiagram\n  Animal <|-- Duck\n  Animal : +int age\n  class Duck{\n    +swim()\n  "
	     "}\n",
	     "swim()"},
	    {"stateDiagram-v2\n  [*] --> Still\n  Still --> Moving\n  Moving --> [*]\n",
	     ">Moving</text>"},
	    {"erDiagram\n  CUSTOMER ||--o{ ORDER : places\n  CUSTOMER {\n    string name\n  }\n",
	     ">places</text>"},
	    {"flowchart LR\n  subgraph api [API]\n    B[Gateway] --> C[Auth]\n  end\n  A[Client] "
	     "--> B\n",
	     ">API</text>"},
	    /* what dagre has no place for: a node's edge to itself, an empty
	     * subgraph, an edge from a subgraph */
	    {"flowchart TD\n  A --> A\n  A --> B\n", "data-from=\"A\" data-to=\"A\""},
	    {"flowchart TD\n  subgraph e [Empty]\n  end\n  A --> B\n", ">Empty</text>"},
	    {"flowchart TD\n  subgraph s [S]\n    B --> C\n  end\n  s --> D\n", "data-to=\"D\""},
	};
	struct buf out, err;
	buf_init(&out);
	buf_init(&err);
	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
		INT_EQ(draw(kinds[i].src, "K", &out, &err), 0);
		STR_EQ(err.p, "");
		OK(t_has(out.p, kinds[i].text));
		OK(ids_prefixed(out.p));
		OK(!t_has(out.p, "<style") && !t_has(out.p, "var(--bg)"));
		OK(!t_has(out.p, " width=\"0\"") && !t_has(out.p, "NaN"));
	}
	/* an XY chart's own style sheet: its rules for this drawing only */
	INT_EQ(
	    draw("xychart-beta\n  title \"Sales\"\n  x-axis [jan, feb, mar]\n  bar [20, 45, 60]\n",
	         "K", &out, &err),
	    0);
	STR_EQ(err.p, "");
	OK(t_has(out.p, "<style>#mm") && t_has(out.p, " .xychart-bar{"));
	OK(!t_has(out.p, "svg {") && !t_has(out.p, "@import") && !t_has(out.p, "}.xychart") &&
	   ids_prefixed(out.p));
	/* the monospaced members take the page's monospace */
	INT_EQ(draw(kinds[1].src, "K", &out, &err), 0);
	OK(t_has(out.p, "class=\"mono\" style=\"font-family:var(--fm,ui-monospace,monospace)\""));
	buf_fini(&out);
	buf_fini(&err);
}

static void test_errors(void)
{
	struct buf out, err;
	buf_init(&out);
	buf_init(&err);
	INT_EQ(draw("nonsense here\n", "", &out, &err), -1);
	OK(err.len > 0);
	STR_EQ(out.p, "");
	/* blank: nothing drawn */
	INT_EQ(draw(" \n\t\n", "", &out, &err), 1);
	STR_EQ(out.p, "");
	/* a NUL byte */
	buf_reset(&err);
	INT_EQ(mermaid_render(&out, "graph TD\n A\0B", 13, str_from(""), 1.0, &err), -1);
	STR_EQ(err.p, "the diagram holds a NUL byte");
	/* too big */
	size_t big = DIAGRAM_MAX_SOURCE + 1;
	char *s = xmalloc(big);
	memset(s, '\n', big);
	buf_reset(&err);
	INT_EQ(mermaid_render(&out, s, big, str_from(""), 1.0, &err), -1);
	OK(t_has(err.p, "past the limit of 64 KiB"));
	free(s);
	/* what an author writes in a label stays text */
	INT_EQ(draw("graph TD\n  A[\"<script>alert(1)</script>\"] --> B[\"x onload=y\"]\n", "",
	            &out, &err),
	       0);
	OK(!t_has(out.p, "<script") && !t_has(out.p, " onload=\""));
	buf_fini(&out);
	buf_fini(&err);
}

/* A 1,000-node flowchart stops at its deadline with an error, and the next
 * diagram draws (in a fresh interpreter). */
static void test_deadline(void)
{
	struct buf src, out, err;
	buf_init(&src);
	buf_init(&out);
	buf_init(&err);
	buf_puts(&src, "flowchart TD\n");
	for (int i = 1; i < 1000; i++)
		buf_printf(&src, "  n%d --> n%d\n", (i * 7) % i + i / 3, i);
	INT_EQ(mermaid_render(&out, src.p, src.len, str_from(""), 0.02, &err), -1);
	OK(t_has(err.p, "takes longer than the 0.02 s left"));
	STR_EQ(out.p ? out.p : "", "");
	INT_EQ(draw(flow, "", &out, &err), 0);
	mermaid_thread_cleanup();
	buf_fini(&src);
	buf_fini(&out);
	buf_fini(&err);
}

static void test_blocks(void)
{
	struct md_doc doc;
	struct buf errs;
	buf_init(&errs);
	/* two diagrams on a page, one with a caption: ids of their own */
	const char *h =
	    t_post(A,
	           "Text.\n\n```mermaid {title=\"The flow\"}\ngraph LR\n  A --> B\n```\n\n"
	           "```mermaid\ngraph LR\n  C --> D\n```\n",
	           NULL, &doc, &errs);
	STR_EQ(errs.p ? errs.p : "", "");
	INT_EQ(t_count(h, "<figure class=\"diagram\"><svg "), 2);
	OK(t_has(h, "aria-label=\"The flow\"") &&
	   t_has(h, "<figcaption>The flow</figcaption></figure>"));
	const char *a = strstr(h, "-arrowhead\""), *b = a ? strstr(a + 1, "-arrowhead\"") : NULL;
	OK(a && b && strncmp(a - 14, b - 14, 14) != 0);
	/* an error: at the opening fence, the source shown in a box */
	buf_reset(&errs);
	h = t_post(A, "Para.\n\n```mermaid\nnot a diagram\n```\n", NULL, &doc, &errs);
	OK(!strncmp(t_msgs(&errs), "content/posts/p.md:7:1: error: mermaid: ", 40));
	OK(t_has(h, "<pre class=\"diagram-error\" title=\"mermaid: ") &&
	   t_has(h, "<code>not a diagram\n</code>"));
	/* blank: a warning, nothing drawn */
	buf_reset(&errs);
	h = t_post(A, "a\n\n```mermaid\n```\n\nb\n", NULL, &doc, &errs);
	STR_EQ(t_msgs(&errs),
	       "content/posts/p.md:7:1: warning: mermaid: the diagram draws nothing");
	OK(!t_has(h, "<svg"));
	buf_reset(&errs);
	t_post(A, "```mermaid {linenos}\ngraph TD\n  A\n```\n", NULL, &doc, &errs);
	STR_EQ(
	    t_msgs(&errs),
	    "content/posts/p.md:5:1: error: code block: a mermaid diagram takes no hl, linenos or "
	    "start (hint: its one option is title=\"...\")");
	/* the page's budget: past it, one error and the rest not drawn */
	struct md_options tight = {.diagram_seconds = 1e-9};
	buf_reset(&errs);
	h = t_post(A,
	           "```pikchr\nbox\n```\n\n```mermaid\ngraph TD\n  A --> "
	           "B\n```\n\n```mermaid\ngraph TD\n  C\n```\n",
	           &tight, &doc, &errs);
	STR_EQ(
	    t_msgs(&errs),
	    "content/posts/p.md:9:1: error: mermaid: the page's diagrams take longer than 1e-09 s "
	    "to draw; the rest are not (split the page)");
	INT_EQ(t_count(h, "<svg"), 1);
	buf_fini(&errs);
}

void test_mermaid(void)
{
	A = arena_new();
	test_drawing();
	test_kinds();
	test_errors();
	test_deadline();
	test_blocks();
	arena_free(A);
}
