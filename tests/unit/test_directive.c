/* test_directive.c: block directives: the syntax, attributes, nesting,
 * fences and HTML blocks (as cmark-gfm with folio's block extension finds
 * the lines), every error message, pathological inputs, and the HTML each
 * line becomes, the body between them parsed as Markdown. */
#include "harness.h"

#include "base/arena.h"
#include "base/buf.h"
#include "base/diag.h"
#include "md/directive.h"
#include "md/markdown.h"

#include <stdlib.h>
#include <time.h>

static struct arena *arena;
static struct buf cap;

/* scan_at: directive_scan on text (as the whole file x.md, its body
 * starting after line_offset lines) with its messages in cap. */
static long scan_at(const char *text, int line_offset, struct directive **out)
{
	struct diag d;
	diag_init(&d, NULL);
	buf_reset(&cap);
	d.capture = &cap;
	size_t n = strlen(text);
	long r = directive_scan(arena, &d, "x.md", text, n, text, n, line_offset, out);
	INT_EQ(d.errors > 0, r < 0);
	diag_fini(&d);
	return r;
}

static long scan(const char *text, struct directive **out)
{
	return scan_at(text, 0, out);
}

/* errs: the messages (no excerpts) of scanning text, which must fail. */
static const char *errs(const char *text)
{
	static struct directive sentinel;
	struct directive *dirs = &sentinel; /* must become NULL */
	INT_EQ(scan(text, &dirs), -1);
	OK(dirs == NULL);
	return t_msgs(&cap);
}

static const char *s(struct str x)
{
	return arena_strndup(arena, x.p ? x.p : "", x.len);
}

/* count: the number of directives text has (no errors expected). */
static long count(const char *text)
{
	struct directive *dirs;
	long n = scan(text, &dirs);
	STR_EQ(cap.p ? cap.p : "", "");
	return n;
}

/* html: the body's HTML of text, as md_render makes it (raw HTML on). */
static struct buf html_out;

static const char *html(const char *text)
{
	struct md_options o = {.unsafe = 1};
	struct md_doc doc;
	size_t n = strlen(text);
	INT_EQ(md_render(arena, &o, NULL, "x.md", text, n, text, n, 0, &doc), 0);
	buf_reset(&html_out);
	buf_append(&html_out, doc.html.p, doc.html.len);
	buf_puts(&html_out, "");
	return html_out.p;
}

#define HTML_EQ(text, want) STR_EQ(html(text), want)

/* The HTML of a callout's opening line. */
#define NOTE "<!----><aside class=\"callout callout-note\" role=\"note\"><p class=\"callout-title\">Note</p>"

static int lines(const char *t)
{
	int n = 0;
	for (; *t; t++)
		n += *t == '\n';
	return n;
}

static void test_syntax(void)
{
	struct directive *d;

	/* the simplest */
	INT_EQ(scan(":::note\nBody in **Markdown**.\n:::\n", &d), 1);
	STR_EQ(s(d[0].name), "note");
	INT_EQ(d[0].nattrs, 0);
	INT_EQ(d[0].line, 1);
	INT_EQ(d[0].col, 1);
	INT_EQ(d[0].close_line, 3);
	INT_EQ(d[0].parent, -1);
	INT_EQ(d[0].depth, 0);

	/* names: letters, digits, '-' */
	INT_EQ(scan("text\n\n:::model3d\n:::\n:::side-note-2\n:::\n", &d), 2);
	STR_EQ(s(d[0].name), "model3d");
	INT_EQ(d[0].line, 3);
	STR_EQ(s(d[1].name), "side-note-2");

	/* an attribute */
	INT_EQ(scan(":::warning{title=\"Mind the bank conflicts\"}\n...\n:::\n", &d), 1);
	STR_EQ(s(d[0].name), "warning");
	INT_EQ(d[0].nattrs, 1);
	STR_EQ(s(d[0].attrs[0].key), "title");
	STR_EQ(s(d[0].attrs[0].value), "Mind the bank conflicts");
	INT_EQ(d[0].attrs[0].flag, 0);
	INT_EQ(d[0].attrs[0].line, 1);
	INT_EQ(d[0].attrs[0].col, 12);

	/* every form: double and single quotes with escapes, bare, flags */
	INT_EQ(scan(":::video{src=\"warp.mp4\" poster='warp.png' width=640 autoplay "
	            "caption=\"say \\\"hi\\\" \\\\ C:\\dir\" alt='it\\'s' data-x_y=a=b}\n:::\n",
	            &d),
	       1);
	INT_EQ(d[0].nattrs, 7);
	STR_EQ(s(d[0].attrs[0].key), "src");
	STR_EQ(s(d[0].attrs[0].value), "warp.mp4");
	INT_EQ(d[0].attrs[0].col, 10);
	STR_EQ(s(d[0].attrs[1].value), "warp.png");
	INT_EQ(d[0].attrs[1].col, 25);
	STR_EQ(s(d[0].attrs[2].key), "width");
	STR_EQ(s(d[0].attrs[2].value), "640");
	INT_EQ(d[0].attrs[2].flag, 0);
	STR_EQ(s(d[0].attrs[3].key), "autoplay");
	STR_EQ(s(d[0].attrs[3].value), "");
	INT_EQ(d[0].attrs[3].flag, 1);
	STR_EQ(s(d[0].attrs[4].value), "say \"hi\" \\ C:\\dir"); /* other \ stay */
	STR_EQ(s(d[0].attrs[5].value), "it's");
	STR_EQ(s(d[0].attrs[6].key), "data-x_y");
	STR_EQ(s(d[0].attrs[6].value), "a=b");
	STR_EQ(s(directive_attr(&d[0], "poster")->value), "warp.png");
	OK(directive_attr(&d[0], "autoplay")->flag);
	OK(directive_attr(&d[0], "missing") == NULL);
	OK(directive_attr(&d[0], "wid") == NULL);

	/* Unicode passes through; empty values; spaces inside braces and
	 * before them; trailing spaces and tabs */
	INT_EQ(scan(":::figure {  caption=\"Über ✓ 日本\" alt=''  }  \t\n:::\t \n", &d), 1);
	STR_EQ(s(d[0].attrs[0].value), "Über ✓ 日本");
	STR_EQ(s(d[0].attrs[1].value), "");
	INT_EQ(d[0].attrs[1].flag, 0);
	INT_EQ(scan(":::note{}\n:::\n", &d), 1);
	INT_EQ(d[0].nattrs, 0);

	/* indented up to three spaces, alike */
	INT_EQ(scan("   :::note\n   body\n   :::\n", &d), 1);
	INT_EQ(d[0].col, 4);
	INT_EQ(count("    :::note\n    :::\n"), 0); /* indented code */
	INT_EQ(count("\t:::note\n\t:::\n"), 0);

	/* in a list item, indented as its content: its column in the line */
	INT_EQ(scan("- item\n\n  :::note\n  body\n  :::\n", &d), 1);
	INT_EQ(d[0].line, 3);
	INT_EQ(d[0].col, 3);
	INT_EQ(d[0].close_line, 5);

	/* more of the file before the body: line_offset */
	INT_EQ(scan_at(":::note{a=1}\n:::\n", 4, &d), 1);
	INT_EQ(d[0].line, 5);
	INT_EQ(d[0].close_line, 6);
	INT_EQ(d[0].attrs[0].line, 5);

	/* CRLF; the last line without a line break */
	INT_EQ(scan(":::note{a=\"x\"}\r\nbody\r\n:::\r\n", &d), 1);
	STR_EQ(s(d[0].attrs[0].value), "x");
	INT_EQ(d[0].close_line, 3);
	INT_EQ(scan(":::note\nbody\n:::", &d), 1);
	INT_EQ(d[0].close_line, 3);
	INT_EQ(scan(":::note\r\n:::\r", &d), 1);
	INT_EQ(scan("", &d), 0);
	OK(d == NULL);
	INT_EQ(scan("no directives\n::\n:: :\n", &d), 0);

	/* ':::' in running text or after other markup is no directive */
	INT_EQ(count("a :::note\n> :::note\n- :::note\n`:::note`\n"), 0);
}

static void test_nesting(void)
{
	struct directive *d;
	INT_EQ(scan(":::note\nA callout holding a video:\n\n:::video{src=\"v.mp4\"}\n:::\n\n"
	            "and an aside:\n:::aside\n:::details\n:::\n:::\n:::\n:::tip\n:::\n",
	            &d),
	       5);
	STR_EQ(s(d[0].name), "note");
	INT_EQ(d[0].close_line, 12);
	STR_EQ(s(d[1].name), "video");
	INT_EQ(d[1].line, 4);
	INT_EQ(d[1].close_line, 5);
	INT_EQ(d[1].parent, 0);
	INT_EQ(d[1].depth, 1);
	STR_EQ(s(d[2].name), "aside");
	INT_EQ(d[2].parent, 0);
	INT_EQ(d[2].close_line, 11);
	STR_EQ(s(d[3].name), "details");
	INT_EQ(d[3].parent, 2);
	INT_EQ(d[3].depth, 2);
	INT_EQ(d[3].close_line, 10);
	STR_EQ(s(d[4].name), "tip");
	INT_EQ(d[4].parent, -1);
	INT_EQ(d[4].line, 13);
}

static void test_fences(void)
{
	struct directive *d;
	/* lines in fenced code are never directives */
	INT_EQ(count("```markdown\n:::note\n:::\n```\n"), 0);
	INT_EQ(count("~~~\n:::note\n~~~\n"), 0);
	/* closed only by the same character, at least as long */
	INT_EQ(count("````\n```\n:::note\n````\n"), 0);
	INT_EQ(count("~~~~\n~~~\n:::\n````\n:::\n"), 0); /* never closed: all code */
	INT_EQ(count("```\n~~~\n:::note\n```\n:::note\n:::\n"), 1);
	/* a closing fence may have trailing spaces, not text */
	INT_EQ(count("```\n``` x\n:::note\n```  \n:::note\n:::\n"), 1);
	/* indented up to three spaces, opening or closing */
	INT_EQ(count("   ```\n:::note\n  ```\n:::note\n:::\n"), 1);
	/* four spaces: indented code, not a fence */
	INT_EQ(count("    ```\n:::note\n:::\n"), 1);
	INT_EQ(count("```\n:::note\n    ```\n:::\n```\n"), 0);
	/* a backtick "fence" with a backtick in its info string is inline code */
	INT_EQ(count("``` a`b\n:::note\n:::\n"), 1);
	INT_EQ(count("~~~ a`b\n:::note\n:::\n~~~\n"), 0);
	/* a directive holding code that holds directive lines */
	INT_EQ(scan(":::note\n```md\n:::warning\n:::\n```\n:::\n", &d), 1);
	INT_EQ(d[0].close_line, 6);
	/* ``` in the middle of a line opens nothing */
	INT_EQ(count("x ```\n:::note\n:::\n"), 1);

	/* HTML blocks that end at a marker: comments (commented-out
	 * directives), <pre>, <script>, <style>, <textarea>, <?..?>,
	 * <!DOCTYPE ..>, CDATA */
	INT_EQ(count("<!--\n:::note\nold\n:::\n-->\n"), 0);
	INT_EQ(count("<!-- one line -->\n:::note\n:::\n"), 1);
	INT_EQ(count("<!-->\n:::note\n:::\n"), 1); /* cmark ends it at once */
	INT_EQ(count("  <PRE class=x>\n:::note\n</pre>\n"), 0);
	INT_EQ(count("<script>\n:::\n</SCRIPT> x\n:::note\n:::\n"), 1);
	INT_EQ(count("<style\n:::\n</style>\n"), 0);
	INT_EQ(count("<textarea>\n:::\n</textarea>\n"), 0);
	INT_EQ(count("<prefix>\n:::note\n:::\n"), 1); /* not <pre> */
	INT_EQ(count("<?php\n:::\n?>\n"), 0);
	INT_EQ(count("<!DOCTYPE x\n:::\n>\n"), 0);
	INT_EQ(count("<!doctype x\n:::note\n:::\n"), 1); /* lower case: no block in cmark */
	INT_EQ(count("<![CDATA[\n:::\n]]>\n"), 0);
	/* blocks that end at a blank line hide nothing: a directive line ends
	 * them (the HTML stays balanced, see test_html) */
	INT_EQ(count("<div>\n:::note\n:::\n</div>\n"), 1);
	/* the fences and HTML blocks of containers are cmark's: a fence in a
	 * list item hides its item's lines; a fence in a block quote ends with
	 * the quote; a directive line ends an HTML block running to a blank line
	 * wherever it is */
	INT_EQ(count("- ```\n  :::note\n  ```\n"), 0);
	INT_EQ(count("- item\n\n  ```\n  :::note\n  ```\n"), 0);
	INT_EQ(count("> ```\n:::note\n:::\n"), 1);
	INT_EQ(count("> :::note\n> :::\n"), 0);
	INT_EQ(count("- <div>\n  :::note\n  :::\n"), 1);
	INT_EQ(count("</section>\n```\n:::note\n:::\n"), 1);
	/* a fence inside an HTML comment is no fence */
	INT_EQ(count("<!--\n```\n-->\n:::note\n:::\n"), 1);
}

static void test_errors(void)
{
	/* unclosed; several unclosed: one error, at the outermost */
	STR_EQ(errs("text\n:::note\nbody\n"),
	       "x.md:2:1: error: unclosed ':::note' (hint: end it with a line ':::')");
	STR_EQ(errs(":::a\n:::b\n:::c\n:::\n:::d\n"),
	       "x.md:1:1: error: unclosed ':::a' and 2 directives inside it (hint: end each "
	       "with a line ':::')");
	STR_EQ(errs(":::a\n:::b\n"), "x.md:1:1: error: unclosed ':::a' and 1 directive inside "
	                             "it (hint: end each with a line ':::')");
	/* a fence left open inside it is pointed at */
	STR_EQ(errs(":::note\n```c\nint x;\n:::\n"),
	       "x.md:1:1: error: unclosed ':::note' (hint: end it with a line ':::')\n"
	       "x.md:2:1: note: this code block is never closed, so the lines after it are "
	       "code");
	STR_EQ(errs(":::note\n<!-- TODO\n:::\n"),
	       "x.md:1:1: error: unclosed ':::note' (hint: end it with a line ':::')\n"
	       "x.md:2:1: note: this HTML block is never closed, so the lines after it are "
	       "raw HTML");
	/* positions count the lines before the body */
	scan_at("\n\n:::note\n", 10, &(struct directive *){NULL});
	STR_EQ(t_msgs(&cap),
	       "x.md:13:1: error: unclosed ':::note' (hint: end it with a line ':::')");

	STR_EQ(errs("text\n\n  :::\n"), "x.md:3:3: error: ':::' closes nothing (hint: delete "
	                                "it, or open a directive above it with ':::name')");
	STR_EQ(errs(":::note\n:::\n:::\n"),
	       "x.md:3:1: error: ':::' closes nothing (hint: delete it, or open a directive "
	       "above it with ':::name')");
	STR_EQ(errs(" :::note\n:::\n"),
	       "x.md:2:1: error: ':::' is indented differently from the ':::note' it closes on "
	       "line 1 (hint: indent them alike)");

	/* the opening line */
	STR_EQ(errs("::: note\n:::\n"),
	       "x.md:1:1: error: space between ':::' and 'note' (hint: write ':::note')");
	STR_EQ(errs(":::{.note}\n:::\n"),
	       "x.md:1:1: error: bad directive line ':::{.note}' (hint: open a directive with "
	       "':::name' and close it with a line ':::')");
	STR_EQ(errs("::: {.note}\n:::\n"),
	       "x.md:1:1: error: bad directive line '::: {.note}' (hint: open a directive "
	       "with ':::name' and close it with a line ':::')");
	STR_EQ(errs(":::3d\n:::\n"), "x.md:1:1: error: bad directive line ':::3d' (hint: open a "
	                             "directive with ':::name' and close it with a line ':::')");
	STR_EQ(errs(":::my_note{a=1}\n:::\n"),
	       "x.md:1:4: error: bad directive name 'my_note' (hint: use letters, digits and "
	       "'-')");
	STR_EQ(errs(":::note extra words\n:::\n"),
	       "x.md:1:9: error: unexpected 'extra words' after ':::note' (hint: attributes go "
	       "in braces: ':::note{key=\"value\"}')");
	STR_EQ(errs("::::note\n::::\n"),
	       "x.md:1:1: error: too many colons in '::::note' (hint: a directive line starts "
	       "with three, nested or not)\n"
	       "x.md:2:1: error: too many colons in '::::' (hint: a directive line starts with "
	       "three, nested or not)");
	STR_EQ(errs("::::::::::\n"), "x.md:1:1: error: too many colons in '::::::::::' (hint: a "
	                             "directive line starts with three, nested or not)");
	STR_EQ(errs(":::note{a=1} trailing\n:::\n"),
	       "x.md:1:14: error: unexpected 'trailing' after the attributes of ':::note'");
	/* long text is cut in messages, on a character boundary */
	STR_EQ(errs(":::note éééééééééééééééééé\n:::\n"),
	       "x.md:1:9: error: unexpected 'éééééééééééé...' after ':::note' (hint: attributes "
	       "go in braces: ':::note{key=\"value\"}')");

	/* attributes */
	STR_EQ(errs(":::note{title=\"x\"\n:::\n"),
	       "x.md:1:18: error: missing '}' after the attributes (hint: close them on the "
	       "same line)");
	STR_EQ(errs(":::note{title=\"x}\n:::\n"),
	       "x.md:1:15: error: unclosed quote in the value of 'title' (hint: end it with \", "
	       "and write \\\" for a \" inside)");
	STR_EQ(errs(":::note{title='it\\'s}\n:::\n"),
	       "x.md:1:15: error: unclosed quote in the value of 'title' (hint: end it with ', "
	       "and write \\' for a ' inside)");
	STR_EQ(errs(":::video{src=}\n:::\n"),
	       "x.md:1:14: error: missing value after 'src=' (hint: write src=\"value\")");
	STR_EQ(errs(":::video{src= \"a\"}\n:::\n"),
	       "x.md:1:14: error: missing value after 'src=' (hint: write src=\"value\")");
	STR_EQ(errs(":::note{.wide}\n:::\n"),
	       "x.md:1:9: error: bad attribute syntax at '.wide}' (hint: write key=\"value\", "
	       "key=value or a flag)");
	STR_EQ(errs(":::note{title = \"x\"}\n:::\n"),
	       "x.md:1:15: error: bad attribute syntax at '= \"x\"}' (hint: write key=\"value\", "
	       "key=value or a flag)");
	STR_EQ(errs(":::note{a=\"x\"b=\"y\"}\n:::\n"),
	       "x.md:1:14: error: bad attribute syntax at 'b=\"y\"}' (hint: separate attributes "
	       "with spaces)");
	STR_EQ(errs(":::note{a=x\"y\"}\n:::\n"),
	       "x.md:1:12: error: bad attribute syntax at '\"y\"}' (hint: separate attributes "
	       "with spaces)");
	STR_EQ(errs(":::video{src=\"a\" poster=\"p\" src=\"b\"}\n:::\n"),
	       "x.md:1:29: error: duplicate attribute 'src'");
	{
		struct buf t;
		buf_init(&t);
		buf_puts(&t, ":::x{");
		for (int i = 0; i < DATTR_MAX + 1; i++)
			buf_printf(&t, "k%d ", i);
		buf_puts(&t, "}\n:::\n");
		STR_EQ(errs(t.p), "x.md:1:252: error: too many attributes (at most 64)");
		buf_fini(&t);
	}

	/* every error is reported; the line with an error still opens, so its
	 * closing line is fine */
	STR_EQ(errs(":::a{x\n:::\n:::b{y=}\n:::\n:::\n"),
	       "x.md:1:7: error: missing '}' after the attributes (hint: close them on the same "
	       "line)\n"
	       "x.md:3:8: error: missing value after 'y=' (hint: write y=\"value\")\n"
	       "x.md:5:1: error: ':::' closes nothing (hint: delete it, or open a directive "
	       "above it with ':::name')");

	/* at most DIRECTIVE_MAX_ERRORS reported, all counted */
	{
		struct buf t;
		buf_init(&t);
		for (int i = 0; i < 30; i++)
			buf_puts(&t, ":::\n");
		struct diag d;
		diag_init(&d, NULL);
		struct directive *dirs;
		INT_EQ(directive_scan(arena, &d, "x.md", NULL, 0, t.p, t.len, 0, &dirs), -1);
		INT_EQ(d.errors, DIRECTIVE_MAX_ERRORS);
		diag_fini(&d);
		/* no diag at all */
		INT_EQ(directive_scan(arena, NULL, NULL, NULL, 0, t.p, t.len, 0, &dirs), -1);
		buf_fini(&t);
	}
}

static void test_pathological(void)
{
	struct buf t;
	buf_init(&t);
	struct diag d;
	struct directive *dirs;

	/* 100,000 unclosed openings: one error, fast */
	for (int i = 0; i < 100000; i++)
		buf_puts(&t, ":::x\n");
	diag_init(&d, NULL);
	d.capture = &cap;
	buf_reset(&cap);
	clock_t t0 = clock();
	INT_EQ(directive_scan(arena, &d, "x.md", NULL, 0, t.p, t.len, 0, &dirs), -1);
	double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
	OK(secs < 2.0);
	INT_EQ(d.errors, 1);
	STR_EQ(t_msgs(&cap), "x.md:1:1: error: unclosed ':::x' and 99999 directives inside it "
	                     "(hint: end each with a line ':::')");
	diag_fini(&d);

	/* 10,000 nested, then closed */
	buf_reset(&t);
	for (int i = 0; i < 10000; i++)
		buf_puts(&t, ":::n{a=1}\n");
	buf_puts(&t, "deep\n");
	for (int i = 0; i < 10000; i++)
		buf_puts(&t, ":::\n");
	INT_EQ(directive_scan(arena, NULL, "x.md", NULL, 0, t.p, t.len, 0, &dirs), 10000);
	INT_EQ(dirs[9999].depth, 9999);
	INT_EQ(dirs[9999].parent, 9998);
	INT_EQ(dirs[9999].close_line, 10002);
	INT_EQ(dirs[0].close_line, 20001);
	/* and as HTML: a line for a line, the tags nested */
	buf_reset(&t);
	for (int i = 0; i < 10000; i++)
		buf_puts(&t, ":::note\n");
	buf_puts(&t, "deep\n");
	for (int i = 0; i < 10000; i++)
		buf_puts(&t, ":::\n");
	const char *h = html(t.p);
	INT_EQ(lines(h), lines(t.p));
	OK(strstr(h, "<p>deep</p>\n<!----></aside>\n<!----></aside>\n") != NULL);

	/* a very long name, value and line */
	buf_reset(&t);
	buf_puts(&t, ":::");
	for (int i = 0; i < 200000; i++)
		buf_putc(&t, 'a');
	buf_puts(&t, "{v=\"");
	for (int i = 0; i < 200000; i++)
		buf_puts(&t, "\\\"");
	buf_puts(&t, "\"}\n:::\n");
	INT_EQ(directive_scan(arena, NULL, "x.md", NULL, 0, t.p, t.len, 0, &dirs), 1);
	INT_EQ(dirs[0].name.len, 200000);
	INT_EQ(dirs[0].attrs[0].value.len, 200000);

	/* a line of many attributes: stops at the cap, no quadratic work */
	buf_reset(&t);
	buf_puts(&t, ":::x{");
	for (int i = 0; i < 100000; i++)
		buf_puts(&t, "a ");
	buf_puts(&t, "}\n:::\n");
	INT_EQ(directive_scan(arena, NULL, "x.md", NULL, 0, t.p, t.len, 0, &dirs), -1);

	/* 100,000 fences and HTML comments opening and closing */
	buf_reset(&t);
	for (int i = 0; i < 50000; i++)
		buf_puts(&t, "```\n:::\n```\n<!--\n:::\n-->\n");
	INT_EQ(directive_scan(arena, NULL, "x.md", NULL, 0, t.p, t.len, 0, &dirs), 0);
	buf_fini(&t);
}

static void test_html(void)
{
	/* each directive line becomes one line of HTML, and cmark-gfm parses
	 * the bodies as Markdown: a paragraph right after the opening line,
	 * even with text just before it */
	HTML_EQ("Intro\n:::note\nBody in **Markdown**.\n:::\nAfter *this*.\n",
	        "<p>Intro</p>\n" NOTE "\n<p>Body in <strong>Markdown</strong>.</p>\n<!----></aside>\n"
	        "<p>After <em>this</em>.</p>\n");
	/* a list, ended by the closing line */
	HTML_EQ(":::note\n- a\n- b\n:::\n- c\n",
	        NOTE "\n<ul>\n<li>a</li>\n<li>b</li>\n</ul>\n<!----></aside>\n<ul>\n<li>c</li>\n</ul>\n");
	/* fenced code holding a directive line, and indented code */
	HTML_EQ(":::note\n```md\n:::tip\n```\n    indented\n:::\n",
	        NOTE "\n<pre><code class=\"language-md\">:::tip\n</code></pre>\n<pre><code>indented\n</code></pre>\n"
	        "<!----></aside>\n");
	/* a block quote with a lazy line: the closing line is no lazy line */
	HTML_EQ(":::note\n> quoted\nlazy\n:::\nafter\n",
	        NOTE "\n<blockquote>\n<p>quoted\nlazy</p>\n</blockquote>\n<!----></aside>\n<p>after</p>\n");
	/* a table: the closing line ends it */
	HTML_EQ(":::note\n| a |\n|---|\n| 1 |\n:::\nafter\n",
	        NOTE "\n<table>\n<thead>\n<tr>\n<th>a</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td>1</td>\n</tr>\n"
	        "</tbody>\n</table>\n<!----></aside>\n<p>after</p>\n");
	/* a thematic break */
	HTML_EQ(":::note\n***\n:::\n", NOTE "\n<hr />\n<!----></aside>\n");
	/* nested, with a video holding nothing */
	HTML_EQ(":::note\nText.\n:::video{src=\"v.mp4\"}\n:::\nMore.\n:::\n",
	        NOTE "\n<p>Text.</p>\n<!----><figure class=\"media\"><video controls preload=\"metadata\" playsinline "
	        "src=\"v.mp4\"></video></figure>\n<!---->\n<p>More.</p>\n<!----></aside>\n");
	/* inside a list item, indented as its content */
	HTML_EQ("- item\n\n  :::note\n  body\n  :::\n- next\n",
	        "<ul>\n<li>\n<p>item</p>\n" NOTE "\n<p>body</p>\n<!----></aside>\n</li>\n<li>\n<p>next</p>\n</li>\n</ul>\n");
	/* indented: the line keeps its indentation */
	HTML_EQ("   :::note\n   body\n   :::\n", "   " NOTE "\n<p>body</p>\n   <!----></aside>\n");
	/* CRLF, a lone CR, the last line without its end */
	HTML_EQ(":::note\r\n*x*\r\n:::\r\n", NOTE "\n<p><em>x</em></p>\n<!----></aside>\n");
	HTML_EQ(":::note\rx\r:::\r", NOTE "\n<p>x</p>\n<!----></aside>\n");
	HTML_EQ(":::note\n:::", NOTE "\n<!----></aside>\n");
	/* a directive line ends an HTML block that would run on to a blank
	 * line; the lines after it up to that blank line stay raw HTML (as
	 * they were when folio rewrote the text before parsing it), and the
	 * tags balance */
	HTML_EQ(":::note\n<div>raw</div>\n:::\n*text*\n\n*md*\n",
	        NOTE "\n<div>raw</div>\n<!----></aside>\n*text*\n<p><em>md</em></p>\n");
	HTML_EQ("<div>\n:::note\n:::\n</div>\n", "<div>\n" NOTE "\n<!----></aside>\n</div>\n");
}

void test_directive(void)
{
	t_current = "directive";
	arena = arena_new();
	buf_init(&cap);
	test_syntax();
	test_nesting();
	test_fences();
	test_errors();
	test_pathological();
	test_html();
	buf_fini(&cap);
	buf_fini(&html_out);
	arena_free(arena);
}
