/* test_codeblock.c: code block options from info strings, their error
 * messages, and the per-line wrapping of highlighted HTML. */
#include "harness.h"

#include "base/arena.h"
#include "base/buf.h"
#include "md/codeblock.h"

static struct arena *arena;
static struct buf err, out;

static int parse(const char *info, struct code_opts *o)
{
	buf_reset(&err);
	return code_opts_parse(arena, str_from(info), o, &err);
}

/* fails: the message of parsing info, which must fail. */
static const char *fails(const char *info)
{
	struct code_opts o;
	INT_EQ(parse(info, &o), -1);
	return err.p ? err.p : "";
}

static const char *s(struct str x)
{
	return arena_strndup(arena, x.p ? x.p : "", x.len);
}

/* hl_list: the highlighted lines of o as "3,4,5,9". */
static const char *hl_list(const struct code_opts *o)
{
	static struct buf b;
	buf_reset(&b);
	buf_puts(&b, "");
	for (size_t i = 1; i <= o->nhl + 2; i++)
		if (code_opts_hl(o, i))
			buf_printf(&b, b.len ? ",%zu" : "%zu", i);
	const char *r = arena_strndup(arena, b.p, b.len);
	buf_fini(&b);
	return r;
}

static const char *wrap(const char *html, const struct code_opts *o)
{
	buf_reset(&out);
	buf_puts(&out, "");
	INT_EQ(code_wrap_lines(&out, html, strlen(html), o, (size_t)-1), 0);
	return out.p;
}

static void test_parse(void)
{
	struct code_opts o;

	/* the full form */
	INT_EQ(parse("cuda {title=\"kernel.cu\" hl=\"3-5,9\" linenos start=10}", &o), 0);
	STR_EQ(s(o.lang), "cuda");
	STR_EQ(s(o.title), "kernel.cu");
	STR_EQ(hl_list(&o), "3,4,5,9");
	INT_EQ(o.nhl, 9);
	INT_EQ(o.linenos, 1);
	INT_EQ(o.start, 10);

	/* braces optional */
	INT_EQ(parse("python title=\"x.py\"", &o), 0);
	STR_EQ(s(o.lang), "python");
	STR_EQ(s(o.title), "x.py");
	INT_EQ(o.linenos, 0);
	INT_EQ(o.start, 1);
	INT_EQ(o.nhl, 0);
	OK(o.hl == NULL);
	INT_EQ(parse("python hl=2 linenos", &o), 0);
	STR_EQ(hl_list(&o), "2");
	INT_EQ(o.linenos, 1);

	/* the language alone, or none */
	INT_EQ(parse("  c++  ", &o), 0);
	STR_EQ(s(o.lang), "c++");
	STR_EQ(s(o.title), "");
	INT_EQ(parse("", &o), 0);
	STR_EQ(s(o.lang), "");
	INT_EQ(o.start, 1);
	INT_EQ(code_opts_parse(arena, (struct str){NULL, 0}, &o, &err), 0);
	INT_EQ(parse("cuda{linenos}", &o), 0);
	STR_EQ(s(o.lang), "cuda");
	INT_EQ(o.linenos, 1);
	INT_EQ(parse("{linenos start=0}", &o), 0);
	STR_EQ(s(o.lang), "");
	INT_EQ(o.start, 0);
	INT_EQ(parse("title='a \"quoted\" name' linenos", &o), 0);
	STR_EQ(s(o.lang), "");
	STR_EQ(s(o.title), "a \"quoted\" name");
	/* a first word is the language even if it looks like an option */
	INT_EQ(parse("linenos", &o), 0);
	STR_EQ(s(o.lang), "linenos");
	INT_EQ(o.linenos, 0);

	/* linenos=true and linenos=false */
	INT_EQ(parse("c {linenos=true}", &o), 0);
	INT_EQ(o.linenos, 1);
	INT_EQ(parse("c {linenos=false}", &o), 0);
	INT_EQ(o.linenos, 0);

	/* hl: spaces, overlaps, an empty list; lines past nhl are not */
	INT_EQ(parse("c {hl=\" 1 , 3 - 4 ,4, 2-3\"}", &o), 0);
	STR_EQ(hl_list(&o), "1,2,3,4");
	INT_EQ(parse("c {hl=\"\"}", &o), 0);
	INT_EQ(o.nhl, 0);
	STR_EQ(hl_list(&o), "");
	INT_EQ(parse("c {hl=\"100000\"}", &o), 0);
	INT_EQ(o.nhl, 100000);
	OK(code_opts_hl(&o, 100000));
	OK(!code_opts_hl(&o, 99999));
	OK(!code_opts_hl(&o, 100001));
	OK(!code_opts_hl(&o, 0));
	OK(!code_opts_hl(NULL, 1));
	/* kept as sorted, merged ranges */
	INT_EQ(parse("c {hl=\"9-10,5,1,3-4,11,20\"}", &o), 0);
	STR_EQ(hl_list(&o), "1,3,4,5,9,10,11,20");
	INT_EQ(o.nranges, 4);
	INT_EQ(parse("c {hl=\"1-100000,1-100000,50-60,100000\"}", &o), 0);
	INT_EQ(o.nranges, 1);
	OK(code_opts_hl(&o, 1) && code_opts_hl(&o, 77777) && code_opts_hl(&o, 100000));
	OK(!code_opts_hl(&o, 100001));
	INT_EQ(parse("c {start=1000000000}", &o), 0);
	INT_EQ(o.start, 1000000000);

	/* errors: unknown options, with a guess or the list */
	STR_EQ(fails("cuda {titel=\"x\"}"),
	       "unknown code block option 'titel' (did you mean 'title'?)");
	STR_EQ(fails("cuda {linenoss}"), "unknown code block option 'linenoss' (did you mean "
	                                 "'linenos'?)");
	STR_EQ(fails("cuda {hl_lines=\"1\"}"),
	       "unknown code block option 'hl_lines' (did you mean 'hl'?)");
	STR_EQ(fails("cuda {linenostart=5}"),
	       "unknown code block option 'linenostart' (did you mean 'start'?)");
	STR_EQ(fails("cuda {filename=\"a.cu\"}"),
	       "unknown code block option 'filename' (did you mean 'title'?)");
	STR_EQ(fails("cuda {wrap}"), "unknown code block option 'wrap' (hint: the options are "
	                             "title, hl, linenos, start, file, lines, symbol and link)");
	/* hl */
	STR_EQ(fails("c {hl=\"5-3\"}"),
	       "bad range '5-3' in hl (hint: write the smaller number first: '3-5')");
	STR_EQ(fails("c {hl=\"1, 10 - 2\"}"),
	       "bad range '10 - 2' in hl (hint: write the smaller number first: '2-10')");
	STR_EQ(fails("c {hl=\"0\"}"), "bad line number '0' in hl (hint: lines are numbered "
	                              "from 1)");
	STR_EQ(fails("c {hl=\"0-3\"}"), "bad line number '0' in hl (hint: lines are numbered "
	                                "from 1)");
	STR_EQ(fails("c {hl=\"a\"}"), "bad line range 'a' in hl (hint: write hl=\"3-5,9\")");
	STR_EQ(fails("c {hl=\"1,\"}"), "bad line range '' in hl (hint: write hl=\"3-5,9\")");
	STR_EQ(fails("c {hl=\"1-2-3\"}"), "bad line range '1-2-3' in hl (hint: write "
	                                  "hl=\"3-5,9\")");
	STR_EQ(fails("c {hl=\"-3\"}"), "bad line range '-3' in hl (hint: write hl=\"3-5,9\")");
	STR_EQ(fails("c {hl=\"3;4\"}"), "bad line range '3;4' in hl (hint: write hl=\"3-5,9\")");
	STR_EQ(fails("c {hl=\"100001\"}"), "line '100001' in hl is past the limit of 100000 "
	                                   "lines");
	STR_EQ(fails("c {hl=\"1-99999999999999999999999\"}"),
	       "line '1-99999999999999999999999' in hl is past the limit of 100000 lines");
	/* start, linenos, values */
	STR_EQ(fails("c {start=x}"), "bad start 'x' (hint: start=10 numbers the first line 10)");
	STR_EQ(fails("c {start=-1}"), "bad start '-1' (hint: start=10 numbers the first line "
	                              "10)");
	STR_EQ(fails("c {start=1000000001}"), "bad start '1000000001' (hint: start=10 numbers "
	                                      "the first line 10)");
	STR_EQ(fails("c {start=99999999999999999999}"),
	       "bad start '99999999999999999999' (hint: start=10 numbers the first line 10)");
	STR_EQ(fails("c {start=\"\"}"), "bad start '' (hint: start=10 numbers the first line "
	                                "10)");
	STR_EQ(fails("c {start}"), "'start' needs a value (hint: start=10)");
	STR_EQ(fails("c {title}"), "'title' needs a value (hint: title=\"kernel.cu\")");
	STR_EQ(fails("c {hl}"), "'hl' needs a value (hint: hl=\"3-5,9\")");
	STR_EQ(fails("c {linenos=yes}"),
	       "bad value 'yes' for linenos (hint: write linenos, or linenos=false)");
	/* the attribute syntax */
	STR_EQ(fails("c {title=\"x\""),
	       "missing '}' after the attributes (hint: close them on the same line)");
	STR_EQ(fails("c {title=\"x\"} more"), "unexpected 'more' after the options' '}'");
	STR_EQ(fails("c {title=\"a\" title=\"b\"}"), "duplicate attribute 'title'");
	STR_EQ(fails("c title=\"x\" }"),
	       "bad attribute syntax at '}' (hint: write key=\"value\", key=value or a flag)");
	STR_EQ(fails("c {.numberLines}"), "bad attribute syntax at '.numberLines}' (hint: write "
	                                  "key=\"value\", key=value or a flag)");
	STR_EQ(fails("c {title=\"x}"), "unclosed quote in the value of 'title' (hint: end it "
	                               "with \", and write \\\" for a \" inside)");
	STR_EQ(fails("c {hl=}"), "missing value after 'hl=' (hint: write hl=\"value\")");
}

static void test_wrap(void)
{
	struct code_opts o;

	/* plain lines; a final line break makes no empty line */
	STR_EQ(wrap("int x;\nint y;\n", NULL),
	       "<span class=\"line\">int x;</span>\n<span class=\"line\">int y;</span>\n");
	STR_EQ(wrap("int x;\nint y;", NULL),
	       "<span class=\"line\">int x;</span>\n<span class=\"line\">int y;</span>");
	/* empty code; empty lines */
	STR_EQ(wrap("", NULL), "");
	buf_reset(&out);
	code_wrap_lines(&out, NULL, 0, NULL, (size_t)-1);
	INT_EQ(out.len, 0);
	STR_EQ(wrap("\n", NULL), "<span class=\"line\"></span>\n");
	STR_EQ(wrap("a\n\nb\n", NULL), "<span class=\"line\">a</span>\n<span class=\"line\">"
	                               "</span>\n<span class=\"line\">b</span>\n");
	/* entities pass through */
	STR_EQ(wrap("a &lt; b &amp;&amp; c &gt; &quot;d&quot;\n", NULL),
	       "<span class=\"line\">a &lt; b &amp;&amp; c &gt; &quot;d&quot;</span>\n");
	/* a span crossing a line break is closed and opened again */
	STR_EQ(wrap("<span class=\"hl-comment\">/* a\nb */</span> x\n", NULL),
	       "<span class=\"line\"><span class=\"hl-comment\">/* a</span></span>\n"
	       "<span class=\"line\"><span class=\"hl-comment\">b */</span> x</span>\n");
	/* nested spans crossing several lines, an empty line among them */
	STR_EQ(wrap("<span class=\"a\"><span class=\"b\">1\n\n2</span>3\n4</span>5", NULL),
	       "<span class=\"line\"><span class=\"a\"><span class=\"b\">1</span></span></span>\n"
	       "<span class=\"line\"><span class=\"a\"><span class=\"b\"></span></span></span>\n"
	       "<span class=\"line\"><span class=\"a\"><span class=\"b\">2</span>3</span></span>\n"
	       "<span class=\"line\"><span class=\"a\">4</span>5</span>");
	/* line numbers, from start */
	INT_EQ(parse("c {linenos start=10 hl=\"2\"}", &o), 0);
	STR_EQ(wrap("a\n<span class=\"k\">b\nc</span>\n", &o),
	       "<span class=\"line\"><span class=\"ln\" aria-hidden=\"true\">10</span>a</span>\n"
	       "<span class=\"line hl\"><span class=\"ln\" aria-hidden=\"true\">11</span>"
	       "<span class=\"k\">b</span></span>\n"
	       "<span class=\"line\"><span class=\"ln\" aria-hidden=\"true\">12</span>"
	       "<span class=\"k\">c</span></span>\n");
	/* highlighted lines without numbers; hl past the end is harmless */
	INT_EQ(parse("c {hl=\"1,3-4,40\"}", &o), 0);
	STR_EQ(wrap("a\nb\nc\n", &o), "<span class=\"line hl\">a</span>\n<span class=\"line\">b"
	                              "</span>\n<span class=\"line hl\">c</span>\n");
	/* large numbers do not overflow */
	INT_EQ(parse("c {linenos start=1000000000}", &o), 0);
	STR_EQ(wrap("a\nb", &o),
	       "<span class=\"line\"><span class=\"ln\" aria-hidden=\"true\">1000000000</span>a"
	       "</span>\n<span class=\"line\"><span class=\"ln\" aria-hidden=\"true\">1000000001"
	       "</span>b</span>");
	/* CRLF becomes LF */
	STR_EQ(wrap("a\r\nb\r\n", NULL),
	       "<span class=\"line\">a</span>\n<span class=\"line\">b</span>\n");
	STR_EQ(wrap("a\rb", NULL), "<span class=\"line\">a\rb</span>");

	/* hostile input stays balanced: a stray </span> is dropped, an open
	 * span closed, a '<' that starts no tag on its line escaped */
	STR_EQ(wrap("a</span>b\n", NULL), "<span class=\"line\">ab</span>\n");
	STR_EQ(wrap("<span class=\"x\">open", NULL),
	       "<span class=\"line\"><span class=\"x\">open</span></span>");
	STR_EQ(wrap("<span class=\"x\"\n>", NULL),
	       "<span class=\"line\">&lt;span class=\"x\"</span>\n<span class=\"line\">></span>");
	STR_EQ(wrap("a < b <", NULL), "<span class=\"line\">a &lt; b &lt;</span>");
	STR_EQ(wrap("<<span>x</span>", NULL), "<span class=\"line\">&lt;<span>x</span></span>");
	STR_EQ(wrap("<spanx>y</spanx>", NULL), "<span class=\"line\"><spanx>y</spanx></span>");

	/* max: stops once out is longer */
	buf_reset(&out);
	INT_EQ(code_wrap_lines(&out, "a\nb\nc\n", 6, NULL, 25), -1);
	OK(out.len > 25 && out.len < 60);
	buf_reset(&out);
	INT_EQ(code_wrap_lines(&out, "a\nb\nc\n", 6, NULL, 84), 0);
	INT_EQ(out.len, 84);
	buf_reset(&out);
	INT_EQ(code_wrap_lines(&out, "a\nb\nc\n", 6, NULL, 83), -1);
	/* a deep stack of spans, each crossing many lines */
	{
		struct buf in;
		buf_init(&in);
		for (int i = 0; i < 1000; i++)
			buf_puts(&in, "<span class=\"a\">");
		for (int i = 0; i < 100; i++)
			buf_puts(&in, "x\n");
		buf_reset(&out);
		code_wrap_lines(&out, in.p, in.len, NULL, (size_t)-1);
		/* per line: the line's span, 1000 reopened, 1000 closed */
		size_t opens = t_count(out.p, "<span"), closes = t_count(out.p, "</span>");
		INT_EQ(opens, 100 * 1001);
		INT_EQ(closes, opens);
		buf_fini(&in);
	}
}

void test_codeblock(void)
{
	t_current = "codeblock";
	arena = arena_new();
	buf_init(&err);
	buf_init(&out);
	test_parse();
	test_wrap();
	buf_fini(&err);
	buf_fini(&out);
	arena_free(arena);
}
