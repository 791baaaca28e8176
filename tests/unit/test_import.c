/* test_import.c: the Jekyll and Hugo body converters (jkbody.c) as functions of
 * text, the dates of imp_date and the YAML quoting of imp_yaml_str. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/sanitize.h"

#include "harness.h"

#include "base/arena.h"
#include "base/buf.h"
#include "import/import.h"

static struct arena *arena;
static struct imp_report rep;

/* conv: the converted text of in (owned by the arena); rep holds its
 * findings. */
static const char *conv(const char *in)
{
	memset(&rep, 0, sizeof rep);
	struct jk_body c = {arena, &rep, "_posts/x.md", 3, NULL, NULL, NULL, NULL, 0, NULL, 0, 0, NULL};
	struct buf out;
	buf_init(&out);
	jekyll_body(&c, in, strlen(in), &out);
	const char *r = arena_strndup(arena, out.p ? out.p : "", out.len);
	buf_fini(&out);
	return r;
}

/* finding: "kind@line: what" of the report's i-th finding. */
static const char *finding(size_t i)
{
	if (i >= rep.n)
		return "(none)";
	struct buf b;
	buf_init(&b);
	buf_printf(&b, "%s@%d: %s", rep.v[i].kind, rep.v[i].line, rep.v[i].what);
	const char *r = arena_strndup(arena, b.p, b.len);
	buf_fini(&b);
	return r;
}

/* hconv: conv for a Hugo body. */
static const char *hconv(const char *in)
{
	memset(&rep, 0, sizeof rep);
	struct jk_body c = {arena, &rep, "content/posts/x.md", 3, NULL, NULL, NULL, NULL, 1, NULL, 0, 0, NULL};
	struct buf out;
	buf_init(&out);
	hugo_body(&c, in, strlen(in), &out);
	const char *r = arena_strndup(arena, out.p ? out.p : "", out.len);
	buf_fini(&out);
	return r;
}

static const char *date(const char *s)
{
	const char *r = imp_date(arena, s);
	return r ? r : "(null)";
}

static const char *yq(const char *s)
{
	struct buf b;
	buf_init(&b);
	imp_yaml_str(&b, s);
	const char *r = arena_strndup(arena, b.p, b.len);
	buf_fini(&b);
	return r;
}

static void imp_test_liquid(void)
{
	STR_EQ(conv("{% highlight c linenos %}\nint x;\n{% endhighlight %}\n"), "```c {linenos}\nint x;\n```\n");
	STR_EQ(conv("{% highlight python hl_lines=\"1 3\" %}\na\n{% endhighlight %}\n"),
	       "```python {hl=\"1,3\"}\na\n```\n");
	/* a body holding a fence gets a longer one */
	STR_EQ(conv("{% highlight md %}\n```\nx\n```\n{% endhighlight %}\n"), "````md\n```\nx\n```\n````\n");
	STR_EQ(conv("{% highlight c %}\nx\n"), "```c\nx\n```");
	STR_EQ(finding(0), "Liquid highlight without endhighlight@4: '{% highlight c %}' has no {% endhighlight %}: the code "
			   "block runs to the end");
	STR_EQ(conv("a {% raw %}{{ x }}{% endraw %} b\n"), "a {{ x }} b\n");
	STR_EQ(conv("{% raw %}\n{% if %}\n{% endraw %}\nnext\n"), "{% if %}\nnext\n");
	INT_EQ(rep.n, 0);
	STR_EQ(conv("![a]({{ site.baseurl }}/img/a.png) {{site.url}}{{ site.baseurl }}/x"), "![a](/img/a.png) /x");
	STR_EQ(finding(0), "(none)");
	STR_EQ(conv("at {{ site.url }}.\n"), "at .\n");
	STR_EQ(finding(0), "Liquid output@4: '{{ site.url }}' not at the start of a URL: dropped");
	/* a blank before the path: still its start (lil-log writes "({{ site.baseurl }} {% post_url x %})") */
	STR_EQ(conv("[a]({{ site.baseurl }} /x)\n"), "[a]( /x)\n");
	STR_EQ(finding(0), "(none)");
	STR_EQ(conv("[s]({{ \"/f.pdf\" | relative_url }})"), "[s](/f.pdf)");
	STR_EQ(conv("[p]({% post_url 2017-01-01-hello %})"), "[p](/posts/hello/)");
	STR_EQ(conv("[p]({% post_url sub/2017-01-01-hello.md %})"), "[p](/posts/hello/)");
	STR_EQ(conv("[a]({% link about.md %})"), "[a](/about.md)");
	STR_EQ(conv("x {% include note.html a=1 %} y\n"), "x <!-- liquid: {% include note.html a=1 %} --> y\n");
	STR_EQ(finding(0), "Liquid include@4: '{% include note.html a=1 %}' kept as an HTML comment");
	STR_EQ(conv("{{ page.title }}"), "<!-- liquid: {{ page.title }} -->");
	STR_EQ(finding(0), "Liquid output@4: '{{ page.title }}' kept as an HTML comment");
	/* no "--" inside the comment */
	STR_EQ(conv("{% comment %}a -- b-{% endcomment %}"), "<!-- a - - b-  -->");
	/* in code, tags stay as text */
	STR_EQ(conv("```\n{% if x %}{{ y }}\n```\n"), "```\n{% if x %}{{ y }}\n```\n");
	INT_EQ(rep.n, 2);
	STR_EQ(finding(0), "Liquid tag in code@5: '{% if x %}' inside a code block: kept as text");
	/* unclosed: text, one finding */
	STR_EQ(conv("a {% b {% c"), "a {% b {% c");
	INT_EQ(rep.n, 1);
	STR_EQ(conv("a {{ b\n\nc }}"), "a {{ b\n\nc }}");
}

static void imp_test_kramdown(void)
{
	STR_EQ(conv("Para.\n{: .notice}\nNext.\n"), "Para.\nNext.\n");
	STR_EQ(finding(0), "kramdown attribute list@5: '{: .notice}' dropped");
	STR_EQ(conv("[x](http://a.b){:target=\"_blank\"} y\n"), "[x](http://a.b) y\n");
	STR_EQ(conv("* TOC\n{:toc}\n\n## A\n"), "\n## A\n");
	STR_EQ(finding(0), "kramdown table of contents@5: '{:toc}' dropped: folio makes a table of contents itself");
	STR_EQ(conv("{::comment}\nsecret -- x\n{:/comment}\n"), "<!--\nsecret - - x\n-->\n");
	STR_EQ(conv("{::nomarkdown}\n<b>x</b>\n{:/nomarkdown}\n"), "<b>x</b>\n");
	/* math */
	STR_EQ(conv("The $$E = mc^2$$ law.\n"), "The $E = mc^2$ law.\n");
	STR_EQ(finding(0), "kramdown inline math@4: 1 formula $$...$$ inside paragraphs written $...$ (this is the first)");
	/* on one line: "+ y$" at a line's start would be a list item */
	STR_EQ(conv("a $$x\n+ y$$ b\n"), "a $x + y$ b\n");
	STR_EQ(conv("$$\nx\n$$\n"), "$$\nx\n$$\n");
	STR_EQ(conv("text\n\n$$x = 1$$\n"), "text\n\n$$x = 1$$\n");
	STR_EQ(conv("- $$\\begin{aligned}a\\end{aligned}$$\n"), "- $$\\begin{aligned}a\\end{aligned}$$\n");
	STR_EQ(conv("`$$x$$` and ```$$y$$```"), "`$$x$$` and ```$$y$$```");
	STR_EQ(conv("~~~\n$$x$$ {: .a}\n~~~\n"), "~~~\n$$x$$ {: .a}\n~~~\n");
	STR_EQ(conv("p\n\n    code $$x$$\n"), "p\n\n    code $$x$$\n");
	STR_EQ(conv("a <script type=\"math/tex\">x^2</script> b"), "a $x^2$ b");
	STR_EQ(conv("<script type=\"math/tex; mode=display\">\nx\n</script>\n"), "\n$$\nx\n$$\n\n");
	/* an HTML comment is left as it is */
	STR_EQ(conv("<!-- $$x$$ {: .a} -->"), "<!-- $$x$$ {: .a} -->");
}

static void imp_test_hugo(void)
{
	STR_EQ(hconv("{{< highlight go \"linenos=table,hl_lines=2 3-4\" >}}\nx\n{{< /highlight >}}\n"),
	       "```go {linenos hl=\"2,3-4\"}\nx\n```\n");
	STR_EQ(hconv("{{< figure src=\"/a.png\" title=\"A \\\"b\\\"\" alt=\"alt\" >}}"), "![alt](/a.png \"A \\'b\\'\")");
	STR_EQ(hconv("{{< figure src=\"/a.png\" caption=\"Cap\" >}}"), "![Cap](/a.png \"Cap\")");
	/* both: the title, then the caption, as Hugo's figcaption shows them */
	STR_EQ(hconv("{{< figure src=\"/a.png\" title=\"Fig 1\" caption=`A \"cap\"` >}}"),
	       "![Fig 1](/a.png \"Fig 1. A 'cap'\")");
	STR_EQ(hconv("{{< figure src=\"/a.png\" title=\"Fig 1:\" caption=\"cap\" >}}"), "![Fig 1:](/a.png \"Fig 1: cap\")");
	STR_EQ(hconv("[x]({{< ref \"posts/a.md\" >}})"), "[x](/posts/a.md)");
	STR_EQ(hconv("{{< youtube abc >}}"), "[Video on YouTube](https://www.youtube.com/watch?v=abc)");
	STR_EQ(hconv("{{< vimeo id=\"42\" >}}"), "[Video on Vimeo](https://vimeo.com/42)");
	STR_EQ(hconv("{{< gist u 1 >}}"), "[Gist](https://gist.github.com/u/1)");
	STR_EQ(hconv("{{< tweet user=\"a\" id=\"9\" >}}"), "[Post on X](https://x.com/a/status/9)");
	STR_EQ(hconv("{{< instagram BWNjjyYFxVx >}}"), "[Post on Instagram](https://www.instagram.com/p/BWNjjyYFxVx/)");
	STR_EQ(hconv("{{< instagram id=\"Q1\" hidecaption >}}"), "[Post on Instagram](https://www.instagram.com/p/Q1/)");
	STR_EQ(hconv("{{< katex >}}a+b{{< /katex >}}"), "$a+b$");
	STR_EQ(hconv("{{< math >}}\n\\int x\n{{< /math >}}\n"), "\n$$\n\\int x\n$$\n\n");
	STR_EQ(hconv("{{< notice tip >}}\nHi\n{{< /notice >}}\n"),
	       "<!-- hugo: {{< notice tip >}} -->\nHi\n<!-- hugo: {{< /notice >}} -->\n");
	STR_EQ(finding(0), "Hugo shortcode@4: '{{< notice tip >}}' kept as an HTML comment");
	STR_EQ(hconv("{{%/* x */%}} and {{</* y a=1 */>}}"), "{{% x %}} and {{< y a=1 >}}");
	STR_EQ(hconv("```\n{{< foo >}}\n```\n"), "```\n{{< foo >}}\n```\n");
	STR_EQ(hconv("```go {linenos=true,hl_lines=[2,\"4-5\"],linenostart=10,style=x}\na\n```\n"),
	       "```go {linenos hl=\"2,4-5\" start=10}\na\n```\n");
	STR_EQ(finding(0), "Hugo code block option@4: 'style' dropped");
	STR_EQ(hconv("> ```sh {file=\"a.sh\"}\n> x\n> ```\n"), "> ```sh {title=\"a.sh\"}\n> x\n> ```\n");
	/* no kramdown in Hugo: $$ and {: stay */
	STR_EQ(hconv("a $$x$$ b {: .c}\n"), "a $$x$$ b {: .c}\n");
	STR_EQ(hconv("{{< unclosed"), "{{< unclosed");
}

static void imp_test_dates(void)
{
	STR_EQ(date("2017-01-01"), "2017-01-01");
	STR_EQ(date("2017-01-01 10:30:00 +0100"), "2017-01-01T10:30:00+01:00");
	STR_EQ(date("2017-01-01 10:30 -05:00"), "2017-01-01T10:30:00-05:00");
	STR_EQ(date("2017-01-01T10:30:00Z"), "2017-01-01T10:30:00Z");
	STR_EQ(date("2017-01-01T10:30:00.123+02:00"), "2017-01-01T10:30:00+02:00");
	STR_EQ(date("2019-04-25 9:00:00"), "2019-04-25 09:00:00");
	STR_EQ(date("2019-04-25 09:00 UTC"), "2019-04-25T09:00:00Z");
	STR_EQ(date("2017-13-01"), "(null)");
	STR_EQ(date("2020-02-30"), "(null)");
	STR_EQ(date("2021-02-29"), "(null)");
	STR_EQ(date("2020-02-29"), "2020-02-29");
	STR_EQ(date("2020-04-31 10:00"), "(null)");
	STR_EQ(date("2020-12-31"), "2020-12-31");
	STR_EQ(date("yesterday"), "(null)");
	STR_EQ(date("2017-01-01 25:00"), "(null)");
	STR_EQ(date("2017-01-01 10:00 +9999"), "(null)");
}

static void imp_test_utf8(void)
{
	struct imp_site s;
	memset(&s, 0, sizeof s);
	s.a = arena;
	size_t n = 8;
	char *t = xmalloc(n + 1);
	memcpy(t, "ok\ncaf\xe9!", n + 1);
	t = imp_utf8(&s, t, &n, "x.md");
	STR_EQ(t, "ok\ncaf\xc3\xa9!");
	INT_EQ((int)n, 9);
	INT_EQ((int)s.rep.n, 1);
	OK(s.rep.n == 1 && s.rep.v[0].line == 2);
	free(t);
	/* UTF-8 already: the same text, no finding */
	n = 5;
	t = xmalloc(n + 1);
	memcpy(t, "\xc3\xa9t\xc3\xa9", n + 1);
	char *u = imp_utf8(&s, t, &n, "y.md");
	OK(u == t && n == 5 && s.rep.n == 1);
	free(u);
}

static void imp_test_yaml(void)
{
	STR_EQ(yq("plain"), "\"plain\"");
	STR_EQ(yq("a \"q\" \\ b"), "\"a \\\"q\\\" \\\\ b\"");
	STR_EQ(yq("line\nnext\tx\x01"), "\"line\\nnext\\tx\\x01\"");
	STR_EQ(yq("- [x]: {y} # z"), "\"- [x]: {y} # z\"");
}

/* Pathological inputs finish fast: every search either consumes what it
 * scanned or is remembered as failed. The bound is far above the release
 * build's time (a fraction of a second) and far below a quadratic's
 * (minutes at 100,000 units), scaled for ASan and valgrind. */
#ifdef FOLIO_ASAN
#define IMP_SLOW_SCALE 4
#else
#define IMP_SLOW_SCALE 1
#endif
#define IMP_BOUND (3.0 * IMP_SLOW_SCALE * (RUNNING_ON_VALGRIND ? 30 : 1))
static void imp_test_linear(void)
{
	static const char *const units[] = {"{%", "{{", "{% raw %}", "{% highlight c %}", "$$", "<!--",
					    "<script type=\"math/tex\">", "](", "{:", "`", "{% comment %}x",
					    "{{< highlight c >}}\n", "{{< x", "{{< katex >}}", "{{</* ", "```go {a=1}\n",
					    "> ```go {a=1}\n", " src=\"", "](x", "<a href=\""};
	for (size_t u = 0; u < sizeof units / sizeof *units; u++) {
		struct buf in;
		buf_init(&in);
		for (int i = 0; i < 100000; i++)
			buf_puts(&in, units[u]);
		clock_t t0 = clock();
		memset(&rep, 0, sizeof rep);
		struct jk_body c = {arena, &rep, "_posts/x.md", 0, NULL, NULL, NULL, NULL, 0, NULL, 0, 0, NULL};
		struct buf out;
		buf_init(&out);
		jekyll_body(&c, in.p, in.len, &out);
		OK(rep.n <= 64);
		memset(&rep, 0, sizeof rep);
		c.hugo = 1;
		hugo_body(&c, in.p, in.len, &out);
		double s = (double)(clock() - t0) / CLOCKS_PER_SEC;
		if (s > IMP_BOUND)
			t_fail(__FILE__, __LINE__, "100000 x '%s' took %.2f s (bound %.0f s)", units[u], s, IMP_BOUND);
		OK(rep.n <= 64);
		buf_fini(&out);
		buf_fini(&in);
	}
}

void test_import(void)
{
	arena = arena_new();
	imp_test_liquid();
	imp_test_kramdown();
	imp_test_hugo();
	imp_test_dates();
	imp_test_yaml();
	imp_test_utf8();
	imp_test_linear();
	arena_free(arena);
}
