/* test_notebook.c: a Jupyter notebook read and converted (read/notebook.c):
 * the Markdown of each kind of cell and output, the line map back into
 * the JSON, the errors that name the cell; the ANSI SGR parser
 * (read/ansi.c) and the base64 decoder. */
#include "harness.h"

#include "base/arena.h"
#include "base/buf.h"
#include "base/diag.h"
#include "read/notebook.h"

#include <stdlib.h>
#include <string.h>

static const char *ansi(const char *s)
{
	static struct buf b;
	buf_reset(&b);
	ansi_to_html(&b, s, strlen(s));
	return b.p ? b.p : "";
}

static void test_ansi(void)
{
	STR_EQ(ansi("plain <b> & \"q\""), "plain &lt;b&gt; &amp; &quot;q&quot;");
	STR_EQ(ansi("\x1b[31mred\x1b[0m after"), "<span class=\"ansi-red\">red</span> after");
	STR_EQ(ansi("\x1b[1;32mbold green\x1b[39m bold\x1b[22m none"),
	       "<span class=\"ansi-green ansi-bold\">bold green</span><span class=\"ansi-bold\"> bold</span> none");
	STR_EQ(ansi("\x1b[94mbright\x1b[m"), "<span class=\"ansi-bright-blue\">bright</span>");
	/* 256 colours and true colour: their parameters are not codes */
	STR_EQ(ansi("\x1b[38;5;31mx\x1b[38;2;1;32;3my\x1b[0m"), "xy");
	STR_EQ(ansi("\x1b[38;5;241;01mkw\x1b[39;00m"), "<span class=\"ansi-bold\">kw</span>");
	/* never an empty span; never one left open */
	STR_EQ(ansi("\x1b[31m\x1b[32m\x1b[0m"), "");
	STR_EQ(ansi("\x1b[35mopen"), "<span class=\"ansi-magenta\">open</span>");
	/* other escapes dropped: cursor moves, OSC titles, two-byte, cut off */
	STR_EQ(ansi("a\x1b[2Kb\x1b]0;title\x07" "c\x1b]8;;u\x1b\\d\x1b" "7e\x1b["), "abcde");
	STR_EQ(ansi("tail\x1b"), "tail");
	/* control characters but newline and tab */
	STR_EQ(ansi("a\x07\x08\tb\nc\x7f"), "a\tb\nc");
	/* a huge parameter does not overflow */
	STR_EQ(ansi("\x1b[99999999999999999999;31mz"), "<span class=\"ansi-red\">z</span>");
}

static void test_base64(void)
{
	struct arena *a = arena_new();
	size_t len = 0, bad = 0;
	unsigned char *b = notebook_base64(a, "aGVs\nbG8=", 9, &len, &bad);
	OK(b && len == 5 && !memcmp(b, "hello", 5));
	b = notebook_base64(a, "aGk", 3, &len, &bad); /* no padding */
	OK(b && len == 2 && !memcmp(b, "hi", 2));
	OK(!notebook_base64(a, "aG!k", 4, &len, &bad) && bad == 2);
	OK(!notebook_base64(a, "aGk=x", 5, &len, &bad) && bad == 4);
	OK(!notebook_base64(a, "a", 1, &len, &bad));
	arena_free(a);
}

/* read: the notebook text as content/posts/nb.ipynb; its messages in errs. */
static const struct notebook *read(struct arena *a, const char *text, struct buf *errs)
{
	struct diag d;
	diag_init(&d, NULL);
	d.capture = errs;
	const struct notebook *nb = notebook_read(a, &d, "content/posts/nb.ipynb", text, strlen(text));
	diag_fini(&d);
	return nb;
}

#define NB_HEAD "{\"nbformat\": 4, \"nbformat_minor\": 2, \"metadata\": {\"kernelspec\": {\"language\": \"Python\"}},\n"

static void test_convert(void)
{
	struct arena *a = arena_new();
	struct buf errs;
	buf_init(&errs);
	const struct notebook *nb = read(a,
		NB_HEAD "\"cells\": [\n"
		"{\"cell_type\": \"markdown\", \"metadata\": {}, \"source\": [\"# Title\\n\", \"text\"]},\n"
		"{\"cell_type\": \"code\", \"execution_count\": 3, \"metadata\": {}, \"source\": \"x = 1\\nprint(x)\",\n"
		" \"outputs\": [{\"output_type\": \"stream\", \"name\": \"stdout\", \"text\": [\"1\\n\"]},\n"
		"  {\"output_type\": \"stream\", \"name\": \"stdout\", \"text\": \"2\\r3\\n\"},\n"
		"  {\"output_type\": \"execute_result\", \"data\": {\"text/plain\": \"<b>\", \"text/html\": [\"<i>a</i>\\n\", \"\\n\", \"b\"]}},\n"
		"  {\"output_type\": \"display_data\", \"data\": {\"text/latex\": \"$$x^2$$\"}},\n"
		"  {\"output_type\": \"display_data\", \"data\": {\"image/png\": \"iVBORw0KGgo=\", \"text/plain\": \"a [plot]\"}},\n"
		"  {\"output_type\": \"error\", \"ename\": \"E\", \"evalue\": \"v\", \"traceback\": [\"\\u001b[31mE\\u001b[0m: v\"]}]}\n"
		"]}",
		&errs);
	STR_EQ(t_msgs(&errs), "");
	OK(nb != NULL);
	if (!nb) {
		arena_free(a);
		return;
	}
	STR_EQ(nb->md,
	       "# Title\ntext\n"
	       "\n<div class=\"nb-cell nb-code\">\n<div class=\"nb-prompt\">[3]:</div>\n\n"
	       "```python\nx = 1\nprint(x)\n```\n\n"
	       "<pre class=\"nb-output nb-stream nb-stdout\" tabindex=\"0\">1\n3</pre>\n\n"
	       "<div class=\"nb-output nb-html\">\n<i>a</i>\n<!-- -->\nb\n</div>\n\n"
	       "<div class=\"nb-output nb-latex\">\n\n$$\nx^2\n$$\n\n</div>\n\n"
	       "<div class=\"nb-output nb-image\">\n\n![a \\[plot\\]](cell2-5-73afb947.png)\n\n</div>\n\n"
	       "<pre class=\"nb-output nb-error\" tabindex=\"0\"><span class=\"ansi-red\">E</span>: v</pre>\n\n"
	       "</div>\n\n");
	INT_EQ(nb->nassets, 1);
	INT_EQ(nb->assets[0].len, 8);
	/* the line map: "text" is the markdown cell's second string, on
	 * line 3; "print(x)" in the code cell's one string, after "\n" */
	struct notebook_place pl = notebook_place(nb, 2, 3);
	INT_EQ(pl.line, 3);
	INT_EQ(pl.col, 70);
	INT_EQ(pl.cell, 1);
	STR_EQ(pl.kind, "markdown");
	pl = notebook_place(nb, 9, 1); /* print(x) */
	INT_EQ(pl.line, 4);
	INT_EQ(pl.col, 79);
	INT_EQ(pl.cell, 2);
	STR_EQ(pl.kind, "code");
	INT_EQ(pl.output, 0);
	pl = notebook_place(nb, 13, 1); /* the stream's <pre> */
	INT_EQ(pl.output, 1);
	INT_EQ(pl.line, 5);
	buf_fini(&errs);
	arena_free(a);
}

static void test_attachments(void)
{
	struct arena *a = arena_new();
	struct buf errs;
	buf_init(&errs);
	const struct notebook *nb = read(a,
		NB_HEAD "\"cells\": [{\"cell_type\": \"markdown\", \"metadata\": {}, "
		"\"attachments\": {\"p.png\": {\"image/png\": \"iVBORw0KGgo=\"}}, \"source\": \"![x](attachment:p.png)\"}]}",
		&errs);
	STR_EQ(t_msgs(&errs), "");
	STR_EQ(nb ? nb->md : NULL, "![x](cell1-attachment1-73afb947.png)\n");
	INT_EQ(nb ? nb->nassets : 0, 1);
	buf_fini(&errs);
	arena_free(a);
}

/* err: the messages of reading text. */
static const char *err(const char *text)
{
	struct arena *a = arena_new();
	struct buf errs;
	buf_init(&errs);
	const struct notebook *nb = read(a, text, &errs);
	static char out[2048];
	snprintf(out, sizeof out, "%s%s", nb ? "(read) " : "", t_msgs(&errs));
	buf_fini(&errs);
	arena_free(a);
	return out;
}

static void test_errors(void)
{
	STR_EQ(err("{\"cells\": [}"), "content/posts/nb.ipynb:1:12: error: JSON: syntax error at '}' (hint: the '[' on "
	       "line 1 is not closed)");
	STR_EQ(err("{\"nbformat\": 3, \"cells\": []}"),
	       "content/posts/nb.ipynb:1:14: error: nbformat 3 is not read: folio reads nbformat 4 (hint: convert it "
	       "with 'jupyter nbconvert --to notebook --nbformat 4 --inplace nb.ipynb')");
	STR_EQ(err("{\"cells\": []}"), "content/posts/nb.ipynb:1:1: error: not a Jupyter notebook: no 'nbformat' "
	       "(hint: folio reads notebooks of nbformat 4, as Jupyter saves them)");
	STR_EQ(err("{\"nbformat\": 4}"), "content/posts/nb.ipynb:1:1: error: no 'cells' list (hint: a notebook of "
	       "nbformat 4 has its cells in a list 'cells')");
	STR_EQ(err(NB_HEAD "\"cells\": [{\"cell_type\": \"markdown\", \"source\": \"\"},\n {\"source\": \"x\"}]}"),
	       "content/posts/nb.ipynb:3:2: error: cell 2: no 'cell_type' (hint: markdown, code or raw)");
	STR_EQ(err(NB_HEAD "\"cells\": [\n{\"cell_type\": \"code\"}]}"),
	       "content/posts/nb.ipynb:3:1: error: cell 1 (code): no 'source' (hint: the cell's text, a string or a "
	       "list of strings)");
	STR_EQ(err(NB_HEAD "\"cells\": [{\"cell_type\": \"heading\", \"source\": \"\"}]}"),
	       "content/posts/nb.ipynb:2:25: error: cell 1: unknown cell_type 'heading' (hint: markdown, code or raw)");
	STR_EQ(err(NB_HEAD "\"cells\": [{\"cell_type\": \"markdown\", \"source\": [1]}]}"),
	       "content/posts/nb.ipynb:2:48: error: cell 1 (markdown): 'source' must be a string or a list of "
	       "strings, found an integer in the list");
	STR_EQ(err(NB_HEAD "\"cells\": [{\"cell_type\": \"code\", \"source\": \"\", \"outputs\": [\n"
		   "{\"output_type\": \"display_data\", \"data\": {\"image/png\": \"iVBO*\"}}]}]}"),
	       "content/posts/nb.ipynb:3:55: error: cell 1 (code): output 1: 'image/png' is not base64: byte 0x2A "
	       "at offset 4");
	STR_EQ(err(NB_HEAD "\"cells\": [{\"cell_type\": \"code\", \"source\": \"\", \"outputs\": [\n"
		   "{\"output_type\": \"display_data\", \"data\": {\"image/png\": \"aGVsbG8=\"}}]}]}"),
	       "content/posts/nb.ipynb:3:55: error: cell 1 (code): output 1: 'image/png' is base64 of something "
	       "that is not a PNG image");
	STR_EQ(err(NB_HEAD "\"cells\": [{\"cell_type\": \"code\", \"source\": \"\", \"outputs\": [\n"
		   "{\"output_type\": \"pager\"}]}]}"),
	       "content/posts/nb.ipynb:3:17: error: cell 1 (code): output 1: unknown output_type 'pager' (hint: "
	       "stream, display_data, execute_result or error)");
	STR_EQ(err("{\"nbformat\": 4, \"metadata\": {\"folio\": []}, \"cells\": []}"),
	       "content/posts/nb.ipynb:1:39: error: the metadata's 'folio' must be a map of front matter keys, found "
	       "a list");
	/* nbformat 4 of any minor version */
	STR_EQ(err("{\"nbformat\": 4, \"nbformat_minor\": 99, \"cells\": []}"), "(read) ");
}

/* A Markdown error inside a cell points into the cell's string. */
static void test_render_errors(void)
{
	struct arena *a = arena_new();
	struct buf errs;
	buf_init(&errs);
	const struct notebook *nb = read(a,
		NB_HEAD "\"cells\": [{\"cell_type\": \"markdown\", \"source\": [\"ok\\n\"]},\n"
		"{\"cell_type\": \"markdown\", \"source\": [\"para\\n\", \"\\n\", \"$$\\n\", \"x^2\\n\"]}]}",
		&errs);
	OK(nb != NULL);
	struct diag d;
	diag_init(&d, NULL);
	d.capture = &errs;
	struct md_options o = {0};
	o.unsafe = 1;
	o.math = 1;
	struct md_doc doc;
	memset(&doc, 0, sizeof doc);
	if (nb)
		notebook_render(a, &o, &d, nb, &doc);
	diag_fini(&d);
	STR_EQ(t_msgs(&errs), "content/posts/nb.ipynb:3:55: error: cell 2 (markdown): display math: no closing $$ "
	       "below this one");
	buf_fini(&errs);
	arena_free(a);
}

void test_notebook(void)
{
	test_ansi();
	test_base64();
	test_convert();
	test_attachments();
	test_errors();
	test_render_errors();
}
