/* test_links.c: the links of the built site: the tolerant HTML scanner,
 * character references, the base path of a URL, the rewriting of post
 * bodies' links, a page's record, and the check of every internal link. */
#include "harness.h"

#include <stdlib.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/diag.h"
#include "check/links.h"

static struct arena *arena;

/* ---- the scanner ---- */

/* scan: what links_scan reports of html[0..len), as "U:value@at" and
 * "I:value@at" joined by spaces (static buffer). */
static struct buf scanned;
static int stop_after; /* nonzero: fn returns 7 at that call */
static int calls;

static int collect(void *ctx, enum links_kind kind, const char *v, size_t n, size_t at)
{
	const char *base = ctx;
	if (scanned.len)
		buf_putc(&scanned, ' ');
	buf_printf(&scanned, "%c:%.*s@%zu", kind == LINKS_URL ? 'U' : 'I', (int)n, v, at);
	/* the value is where the offset says */
	if (v != base + at)
		buf_puts(&scanned, "(bad offset)");
	return ++calls == stop_after ? 7 : 0;
}

static const char *scan_n(const char *html, size_t len)
{
	buf_reset(&scanned);
	calls = 0;
	links_scan(html, len, collect, (void *)html);
	buf_putc(&scanned, '\0');
	scanned.len--;
	return scanned.p;
}

static const char *scan(const char *html)
{
	return scan_n(html, strlen(html));
}

static void test_scan(void)
{
	/* quoted, unquoted, single-quoted; offsets of the value */
	STR_EQ(scan("<a href=\"x.html\">x</a>"), "U:x.html@9");
	STR_EQ(scan("<a href=x.html>x</a>"), "U:x.html@8");
	STR_EQ(scan("<img src='a.png'>"), "U:a.png@10");
	STR_EQ(scan("<a href = \"z\">"), "U:z@11");
	STR_EQ(scan("<p>text <a class=\"c\" href=\"/x/\" title='t'>x</a> more</p>"), "U:/x/@27");
	/* entities stay as written */
	STR_EQ(scan("<a href=\"a?b=1&amp;c=2\">"), "U:a?b=1&amp;c=2@9");
	STR_EQ(scan("<a href=\"&#x2F;x\">"), "U:&#x2F;x@9");
	/* upper case tags and attributes */
	STR_EQ(scan("<A HREF=\"X\">"), "U:X@9");
	STR_EQ(scan("<IMG SRC=a.png SrcSet=\"b.png 2x\">"), "U:a.png@9 U:b.png@23");
	STR_EQ(scan("<A NAME=top>"), "I:top@8");
	/* poster, id, <a name>; name elsewhere is no id */
	STR_EQ(scan("<video poster=\"p.jpg\" src=\"v.mp4\"></video>"), "U:p.jpg@15 U:v.mp4@27");
	STR_EQ(scan("<h2 id=\"intro\">Intro</h2>"), "I:intro@8");
	STR_EQ(scan("<a name=\"n\" id=\"i\">"), "I:n@9 I:i@16");
	STR_EQ(scan("<input name=\"q\"><meta name=x>"), "");
	/* other attributes are not links */
	STR_EQ(scan("<a title=\"href=x\" data-src=\"y\" hreflang=en>"), "");
	/* attributes without a value, and '/' between them */
	STR_EQ(scan("<a download href=z>"), "U:z@17");
	STR_EQ(scan("<img/src=a.png/>"), "U:a.png/@9");
	/* comments */
	STR_EQ(scan("<!-- <a href=\"no\"> --><a href=\"y\">"), "U:y@31");
	STR_EQ(scan("<!----><a href=y>"), "U:y@15");
	STR_EQ(scan("<!-- <a href=\"no\">"), "");
	STR_EQ(scan("<!-- <a href=\"no\"> -"), "");
	/* <script> and <style> contents are skipped, their attributes not */
	STR_EQ(scan("<script>var s = '<a href=\"no\">';</script><a href=\"yes\">"), "U:yes@50");
	STR_EQ(scan("<SCRIPT src=\"s.js\">x('<img src=no>')</SCRIPT><img src=ok>"), "U:s.js@13 U:ok@54");
	STR_EQ(scan("<style>a{background:url(x)} <img src=no></style><img src=ok>"), "U:ok@57");
	STR_EQ(scan("<script><a href=never>"), "");
	STR_EQ(scan("<scripts href=x>"), "U:x@14");
	/* srcset: each URL, with its descriptors and commas */
	STR_EQ(scan("<img srcset=\"a.png 1x, b.png 2x\">"), "U:a.png@13 U:b.png@23");
	STR_EQ(scan("<img srcset=\"a.png 100w,b.png 200w\">"), "U:a.png@13 U:b.png@24");
	STR_EQ(scan("<img srcset=\"a.png, b.png\">"), "U:a.png@13 U:b.png@20");
	STR_EQ(scan("<img srcset=\" a.png\n2x ,\tb.png \">"), "U:a.png@14 U:b.png@25");
	STR_EQ(scan("<img srcset=\"a.png\">"), "U:a.png@13");
	STR_EQ(scan("<img srcset=\", , ,\">"), "");
	STR_EQ(scan("<img srcset=\"\">"), "");
	/* a URL's trailing commas are none of it */
	STR_EQ(scan("<img srcset=\"a.png,, b.png,,,\">"), "U:a.png@13 U:b.png@21");
	/* a URL with a comma inside is one URL */
	STR_EQ(scan("<img srcset=\"a,b.png 1x\">"), "U:a,b.png@13");
	/* a quoted value may hold what looks like a tag */
	STR_EQ(scan("<p title=\"<a href='no'>\"><a title='x\"y' href=\"z\">"), "U:z@46");
	/* end tags, declarations, lone '<' */
	STR_EQ(scan("</a href=\"x\"><!DOCTYPE html><?xml href=y?>"), "");
	STR_EQ(scan("a < b <3 <a href=x>"), "U:x@17");
	STR_EQ(scan("<"), "");
	STR_EQ(scan("<a"), "");
	/* unterminated */
	STR_EQ(scan("<a href=\"x"), "U:x@9");
	STR_EQ(scan("<a href='x y"), "U:x y@9");
	STR_EQ(scan("<a href="), "U:@8");
	STR_EQ(scan("<a href=   "), "U:@11");
	STR_EQ(scan("<a href=\"x\" id"), "U:x@9");
	STR_EQ(scan("<a href=x <b href=y>"), "U:x@8 U:y@18");
	/* never past len */
	STR_EQ(scan_n("<a href=\"xyz\">", 11), "U:xy@9");
	STR_EQ(scan_n("<!-- --><a href=y>", 7), "");
	STR_EQ(scan_n("<a href=y>", 0), "");
	/* a NUL byte is a byte like another */
	STR_EQ(scan_n("<a href=\"a\0b\"><a id=c>", 21), "U:a@9 I:c@20");
	/* the callback's nonzero value stops the scan */
	stop_after = 1;
	buf_reset(&scanned);
	calls = 0;
	const char *two = "<a href=x><a href=y>";
	INT_EQ(links_scan(two, strlen(two), collect, (void *)two), 7);
	INT_EQ(calls, 1);
	stop_after = 2;
	calls = 0;
	const char *ss = "<img srcset=\"a 1x, b 2x, c 3x\">";
	INT_EQ(links_scan(ss, strlen(ss), collect, (void *)ss), 7);
	INT_EQ(calls, 2);
	stop_after = 0;
	calls = 0;
	INT_EQ(links_scan(two, strlen(two), collect, (void *)two), 0);
	INT_EQ(calls, 2);
}

/* ---- character references ---- */

static struct buf unesc_b;

static const char *unesc(const char *v)
{
	buf_reset(&unesc_b);
	links_unescape(&unesc_b, v, strlen(v));
	buf_putc(&unesc_b, '\0');
	return unesc_b.p;
}

static void test_unescape(void)
{
	STR_EQ(unesc("a&amp;b"), "a&b");
	STR_EQ(unesc("&#x2F;x&#47;y&#X2f;"), "/x/y/");
	STR_EQ(unesc("&lt;&gt;&quot;&apos;&#39;"), "<>\"''");
	STR_EQ(unesc("plain"), "plain");
	STR_EQ(unesc(""), "");
	/* unknown or unfinished references stay as written */
	STR_EQ(unesc("&nbsp;&copy;"), "&nbsp;&copy;");
	STR_EQ(unesc("&AMP;&amp"), "&AMP;&amp");
	STR_EQ(unesc("a&"), "a&");
	STR_EQ(unesc("&#;&#x;&#65&#xZ;"), "&#;&#x;&#65&#xZ;");
	STR_EQ(unesc("&&amp;"), "&&");
	/* numbers: UTF-8, and U+FFFD for NUL, surrogates and past U+10FFFF */
	STR_EQ(unesc("&#65;&#xE9;&#x20AC;&#x1F600;"), "A\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80");
	STR_EQ(unesc("&#0;"), "\xEF\xBF\xBD");
	STR_EQ(unesc("&#xD800;"), "\xEF\xBF\xBD");
	STR_EQ(unesc("&#x110000;"), "\xEF\xBF\xBD");
	STR_EQ(unesc("&#x0010FFFF;"), "\xF4\x8F\xBF\xBF");
	/* at most 8 digits */
	STR_EQ(unesc("&#000000065;"), "&#000000065;");
	STR_EQ(unesc("&#00000065;"), "A");
	/* appended to what out holds; only len bytes read */
	struct buf b;
	buf_init(&b);
	buf_puts(&b, "x=");
	links_unescape(&b, "&amp;&amp;", 5);
	buf_putc(&b, '\0');
	STR_EQ(b.p, "x=&");
	buf_reset(&b);
	links_unescape(&b, "&#65;", 4);
	buf_putc(&b, '\0');
	STR_EQ(b.p, "&#65");
	buf_fini(&b);
}

/* ---- the base path ---- */

static const char *base(const char *u)
{
	return links_base_path(arena, u, strlen(u));
}

static void test_base_path(void)
{
	STR_EQ(base("https://x.org/blog/"), "/blog/");
	STR_EQ(base("https://x.org/blog"), "/blog/");
	STR_EQ(base("https://x.org/a/b"), "/a/b/");
	STR_EQ(base("https://x.org/"), "/");
	STR_EQ(base("https://x.org"), "/");
	STR_EQ(base("http://localhost:8080/docs/"), "/docs/");
	STR_EQ(base(""), "/");
	STR_EQ(base("/docs"), "/docs/");
	STR_EQ(base("/"), "/");
	STR_EQ(base("x.org/blog"), "/");
	STR_EQ(base("https://x.org/a/b/?q=1"), "/a/b/");
	STR_EQ(base("https://x.org/a#f"), "/a/");
	/* a '/' in the query or the fragment of a URL with no path */
	STR_EQ(base("https://x.org?q=/a"), "/");
	STR_EQ(base("https://x.org#/a/"), "/");
	STR_EQ(base("https://x.org/b?q=/a"), "/b/");
	STR_EQ(links_base_path(arena, "https://x.org/blog/zzz", 19), "/blog/");
	STR_EQ(links_base_path(arena, "https://x.org/blog/", 0), "/");
}

/* ---- rewriting ---- */

static struct buf asked; /* the paths the resolver was asked for */

static const char *resolve_md(void *ctx, const char *path, size_t len)
{
	(void)ctx;
	if (asked.len)
		buf_putc(&asked, ' ');
	buf_append(&asked, path, len);
	static const char *const map[][2] = {
		{"content/posts/x.md", "/posts/x/"},	 {"content/posts/b/index.md", "/posts/b/"},
		{"content/about.md", "/about/"},	 {"content/posts/a b.md", "/posts/a-b/"},
		{"content/series/s/index.md", "/series/s/"},
	};
	for (size_t i = 0; i < sizeof map / sizeof *map; i++)
		if (strlen(map[i][0]) == len && !memcmp(map[i][0], path, len))
			return map[i][1];
	return NULL;
}

static struct str rewritten;

static const char *rw(const char *html, const char *src, const char *bp)
{
	buf_reset(&asked);
	rewritten = links_rewrite(arena, str_from(html), src, bp, resolve_md, NULL);
	OK(rewritten.p[rewritten.len] == '\0');
	return rewritten.p;
}

static void test_rewrite(void)
{
	const char *src = "content/posts/y.md";
	STR_EQ(rw("<a href=\"x.md\">x</a>", src, "/"), "<a href=\"/posts/x/\">x</a>");
	STR_EQ(asked.p, "content/posts/x.md");
	STR_EQ(rw("<a href=\"./x.md\">", src, "/"), "<a href=\"/posts/x/\">");
	STR_EQ(rw("<a href=\"../about.md\">", src, "/"), "<a href=\"/about/\">");
	STR_EQ(asked.p, "content/about.md");
	STR_EQ(rw("<a href=\"@/posts/x.md#frag\">", src, "/"), "<a href=\"/posts/x/#frag\">");
	STR_EQ(rw("<a href=\"@/series/s/index.md\">", src, "/"), "<a href=\"/series/s/\">");
	/* a bundle's index.md */
	STR_EQ(rw("<a href=\"b/index.md\">", src, "/"), "<a href=\"/posts/b/\">");
	STR_EQ(rw("<a href=\"../posts/b/index.md#s\">", "content/posts/x.md", "/"), "<a href=\"/posts/b/#s\">");
	/* from a bundle's index.md, a sibling */
	STR_EQ(rw("<a href=\"../x.md\">", "content/posts/b/index.md", "/"), "<a href=\"/posts/x/\">");
	/* query strings and fragments kept; entities decoded and written again */
	STR_EQ(rw("<a href=\"x.md?v=1#f\">", src, "/"), "<a href=\"/posts/x/?v=1#f\">");
	STR_EQ(rw("<a href=\"x.md?a=1&amp;b=2\">", src, "/"), "<a href=\"/posts/x/?a=1&amp;b=2\">");
	/* percent escapes of the path */
	STR_EQ(rw("<a href=\"a%20b.md\">", src, "/"), "<a href=\"/posts/a-b/\">");
	/* single-quoted and unquoted values */
	STR_EQ(rw("<a href='x.md'>", src, "/"), "<a href='/posts/x/'>");
	STR_EQ(rw("<a href=x.md>", src, "/"), "<a href=/posts/x/>");
	/* several links, in order */
	STR_EQ(rw("<a href=\"x.md\">1</a> <img src=\"i.png\"> <a href=\"@/about.md\">2</a>", src, "/"),
	       "<a href=\"/posts/x/\">1</a> <img src=\"i.png\"> <a href=\"/about/\">2</a>");
	/* a link that names no content file is left as it is */
	const char *nope = "<a href=\"nope.md\"><a href=\"@/nope.md\">";
	OK(rw(nope, src, "/") == nope);
	STR_EQ(asked.p, "content/posts/nope.md content/nope.md");
	/* climbing out of the site: not asked, left */
	const char *out = "<a href=\"../../../x.md\">";
	OK(rw(out, src, "/") == out);
	INT_EQ(asked.len, 0);
	/* what is no .md link is untouched with base "/" (the same text back) */
	const char *same = "<a href=\"https://e.org/x.md\"><a href=\"//h/x.md\"><a href=\"#x.md\">"
			   "<a href=\"mailto:a@b.md\"><a href=\"/x.md\"><a href=\"x.mdx\"><h2 id=\"x.md\">";
	OK(rw(same, src, "/") == same);
	INT_EQ(asked.len, 0);
	const char *plain = "<p>nothing here</p>";
	OK(rw(plain, src, "/") == plain);
	OK(rw(plain, src, NULL) == plain);
	struct str empty = links_rewrite(arena, (struct str){"", 0}, src, "/blog/", resolve_md, NULL);
	INT_EQ(empty.len, 0);
	/* under a base path: root-relative URLs get it in front */
	STR_EQ(rw("<img src=\"/img/a.png\"><a href=\"/\">", src, "/blog/"),
	       "<img src=\"/blog/img/a.png\"><a href=\"/blog/\">");
	STR_EQ(rw("<a href=\"x.md\"><a href=\"@/about.md#t\">", src, "/blog/"),
	       "<a href=\"/blog/posts/x/\"><a href=\"/blog/about/#t\">");
	STR_EQ(rw("<a href=\"/a?b=1&amp;c\">", src, "/blog/"), "<a href=\"/blog/a?b=1&amp;c\">");
	STR_EQ(rw("<img srcset=\"/a.png 1x, /b.png 2x\">", src, "/blog/"),
	       "<img srcset=\"/blog/a.png 1x, /blog/b.png 2x\">");
	STR_EQ(rw("<video poster=/p.jpg>", src, "/blog/"), "<video poster=/blog/p.jpg>");
	/* ... but not URLs with a scheme, of another host, relative ones,
	 * fragments, ids, or script contents */
	const char *kept = "<a href=\"https://e.org/a\"><img src=\"//cdn.e.org/a.js\"><a href=\"#top\">"
			   "<a href=\"mailto:me@e.org\"><a href=\"rel/x.png\"><a href=\"?q=1\"><h2 id=\"/x\">"
			   "<script>'<a href=\"/no\">'</script>";
	OK(rw(kept, src, "/blog/") == kept);
}

/* ---- a page's record ---- */

/* rec_text: a record with its NULs shown as '|'. */
static const char *rec_text(const char *rec, size_t len)
{
	static char out[4096];
	size_t n = len < sizeof out - 1 ? len : sizeof out - 1;
	for (size_t i = 0; i < n; i++)
		out[i] = rec[i] ? rec[i] : '|';
	out[n] = '\0';
	return out;
}

static void test_record(void)
{
	size_t len = 99;
	struct str one[] = {STR_LIT("<h2 id=\"a\">A</h2><a href=\"x&amp;y\">1</a><a href=\"x&amp;y\">2</a>"
				    "<a href=\"\">self</a><a href=\"a\"><img srcset=\"p.png 1x, q.png 2x\">")};
	char *r = links_record(one, 1, &len);
	STR_EQ(rec_text(r, len), "ia|lx&y|la|lp.png|lq.png|");
	INT_EQ(len, 25);
	free(r);
	/* several parts, one text: a tag cut between two parts */
	struct str parts[] = {STR_LIT("<p>x</p><a hr"), STR_LIT("ef=\"/z/\" id=b>"), STR_LIT("<a name=b>")};
	r = links_record(parts, 3, &len);
	STR_EQ(rec_text(r, len), "l/z/|ib|");
	free(r);
	/* nothing: NULL, 0 */
	struct str none[] = {STR_LIT("<p>no links</p>")};
	len = 99;
	OK(links_record(none, 1, &len) == NULL);
	INT_EQ(len, 0);
	len = 99;
	OK(links_record(NULL, 0, &len) == NULL);
	INT_EQ(len, 0);
	/* a value holding a NUL byte names nothing of the site */
	struct str nul[] = {{"<a href=\"a\0b\"><a href=c>", 24}};
	r = links_record(nul, 1, &len);
	STR_EQ(rec_text(r, len), "lc|");
	free(r);
	/* many distinct ones (the table grows), each once */
	struct buf big;
	buf_init(&big);
	for (int k = 0; k < 2; k++)
		for (int i = 0; i < 1000; i++)
			buf_printf(&big, "<h3 id=\"h%d\"><a href=\"#h%d\">", i, i);
	struct str bs[] = {buf_str(&big)};
	r = links_record(bs, 1, &len);
	size_t ids = 0, urls = 0;
	for (const char *p = r; p && p < r + len; p += strlen(p) + 1)
		*p == 'i' ? ids++ : urls++;
	INT_EQ(ids, 1000);
	INT_EQ(urls, 1000);
	free(r);
	buf_fini(&big);
}

/* ---- the check ---- */

static struct buf cap;
static struct diag d;
static struct links_check *lc;
static char *recs[64];
static size_t nrecs;

static void check_begin(const char *bp, enum links_mode mode)
{
	diag_init(&d, NULL);
	buf_reset(&cap);
	d.capture = &cap;
	lc = links_check_new(bp, mode);
	nrecs = 0;
}

/* page: out made from html (its record kept until check_end). */
static void page(const char *out, const char *html, const char *src, const char *src_text,
		 const char *const *ignore, size_t nignore)
{
	size_t len = 0;
	struct str s = str_from(html);
	char *r = links_record(&s, 1, &len);
	recs[nrecs++] = r;
	links_check_page(lc, out, r, len, src, src_text, src_text ? strlen(src_text) : 0, ignore, nignore);
}

static size_t broken;

/* test_source: the text of src below the folder ctx, as the build's
 * reader gives it (links_check_sources); kept until the next call. */
static const char *test_source(void *ctx, const char *src, size_t *len)
{
	static char *text;
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", (const char *)ctx, src);
	free(text);
	text = read_file(path, len);
	return text;
}

/* run: the messages of the check (t_msgs); with site_dir, the sources
 * not given are read from there. */
static const char *run(const char *site_dir)
{
	if (site_dir)
		links_check_sources(lc, test_source, (void *)site_dir);
	broken = links_check_run(lc, &d);
	return t_msgs(&cap);
}

static void check_end(void)
{
	links_check_free(lc);
	lc = NULL;
	for (size_t i = 0; i < nrecs; i++)
		free(recs[i]);
	nrecs = 0;
	diag_fini(&d);
}

/* site: the pages most checks below look at. */
static void site(void)
{
	links_check_file(lc, "img/a.png");
	links_check_file(lc, "img/a.png");
	links_check_file(lc, "files/a b.pdf");
	page("about/index.html", "<h1 id=\"about\">About</h1>", "content/about.md", "# About\n", NULL, 0);
	page("posts/hello/index.html", "<h2 id=\"intro\">I</h2><h2 id=\"setup\">S</h2><h2 id=\"caf\xC3\xA9\">C</h2>",
	     "content/posts/hello.md", "## I\n## S\n", NULL, 0);
}

static void test_check_ok(void)
{
	t_current = "links check ok";
	check_begin("/", LINKS_ERROR);
	site();
	page("index.html",
	     "<a href=\"/about/\"><a href=\"/about\"><a href=\"about/\"><a href=\"./about/index.html\">"
	     "<a href=\"posts/../about/\"><a href=\"/posts/hello/#intro\"><a href=\"posts/hello/#setup\">"
	     "<img src=\"/img/a.png\"><img src=\"img/a.png?v=2\"><a href=\"/files/a%20b.pdf\">"
	     "<a href=\"/about/#top\"><a href=\"#top\"><a href=\"/\"><a href=\"/posts/hello/#caf%C3%A9\">"
	     "<a href=\"/posts/hello/#\"><a href=\"/img//a.png\">"
	     "<a href=\"https://e.org/x\"><a href=\"//cdn.e.org/x\"><a href=\"mailto:a@e.org\">"
	     "<a href=\"data:,x\"><a href=\"tel:+1\">",
	     NULL, NULL, NULL, 0);
	STR_EQ(run(NULL), "");
	INT_EQ(broken, 0);
	INT_EQ(d.errors, 0);
	INT_EQ(d.warnings, 0);
	/* the external ones are not counted */
	INT_EQ(links_check_count(lc), 16);
	check_end();

	/* a page with no record, and a check of no page */
	check_begin("/", LINKS_ERROR);
	links_check_page(lc, "index.html", NULL, 0, NULL, NULL, 0, NULL, 0);
	STR_EQ(run(NULL), "");
	INT_EQ(links_check_count(lc), 0);
	check_end();
	check_begin(NULL, LINKS_ERROR);
	STR_EQ(run(NULL), "");
	INT_EQ(broken, 0);
	check_end();
}

static void test_check_broken(void)
{
	t_current = "links check broken";
	/* a missing page, found in the page's source, with a close name */
	check_begin("/", LINKS_ERROR);
	site();
	page("posts/new/index.html", "<a href=\"/posts/helo/\">it</a>", "content/posts/new.md",
	     "---\ntitle: New\n---\nSee [it](/posts/helo/).\n", NULL, 0);
	STR_EQ(run(NULL), "content/posts/new.md:4:10: error: broken link '/posts/helo/': the site has no page or "
			  "file /posts/helo/ (did you mean '/posts/hello/'?)");
	INT_EQ(broken, 1);
	INT_EQ(d.errors, 1);
	INT_EQ(links_check_count(lc), 1);
	check_end();

	/* a missing file with nothing close; no source: on the page */
	check_begin("/", LINKS_ERROR);
	site();
	page("index.html", "<img src=\"/img/zzzzzzzzzzzzzz.png\">", NULL, NULL, NULL, 0);
	STR_EQ(run(NULL), "index.html: error: broken link '/img/zzzzzzzzzzzzzz.png': the site has no page or file "
			  "/img/zzzzzzzzzzzzzz.png (on the page /)");
	check_end();

	/* a missing #id on the same page, and on another page */
	check_begin("/", LINKS_ERROR);
	site();
	page("posts/a/index.html", "<h2 id=\"setup\">S</h2><a href=\"#setpu\">x</a><a href=\"/posts/hello/#intr\">y</a>",
	     "content/posts/a.md", "## S\n[x](#setpu) and [y](/posts/hello/#intr)\n", NULL, 0);
	STR_EQ(run(NULL), "content/posts/a.md:2:5: error: broken link '#setpu': this page has no element with id "
			  "'setpu' (did you mean '#setup'?)\n"
			  "content/posts/a.md:2:21: error: broken link '/posts/hello/#intr': /posts/hello/ has no "
			  "element with id 'intr' (did you mean '#intro'?)");
	INT_EQ(broken, 2);
	check_end();

	/* a fragment with no close id; a fragment of a file that is no page
	 * is not checked */
	check_begin("/", LINKS_ERROR);
	site();
	page("index.html", "<a href=\"/about/#qqqqqqqqqqqq\"><a href=\"/img/a.png#x\">", NULL, NULL, NULL, 0);
	STR_EQ(run(NULL), "index.html: error: broken link '/about/#qqqqqqqqqqqq': /about/ has no element with id "
			  "'qqqqqqqqqqqq' (on the page /)");
	INT_EQ(broken, 1);
	INT_EQ(links_check_count(lc), 2);
	check_end();

	/* climbing out of the site */
	check_begin("/", LINKS_ERROR);
	site();
	page("index.html", "<a href=\"../x/\"><a href=\"/../x\"><a href=\"about/../../y\">", NULL, NULL, NULL, 0);
	STR_EQ(run(NULL), "index.html: error: broken link '../x/': it climbs out of the site (on the page /)\n"
			  "index.html: error: broken link '/../x': it climbs out of the site (on the page /)\n"
			  "index.html: error: broken link 'about/../../y': it climbs out of the site (on the page /)");
	INT_EQ(broken, 3);
	check_end();

	/* .md and @/ links folio could not rewrite: named by their content
	 * file */
	check_begin("/", LINKS_ERROR);
	site();
	page("posts/b/index.html", "<a href=\"../nope.md\"><a href=\"@/posts/gone.md\"><a href=\"../../../../x.md\">",
	     "content/posts/b.md", "[a](../nope.md) [b](@/posts/gone.md) [c](../../../../x.md)", NULL, 0);
	STR_EQ(run(NULL), "content/posts/b.md:1:5: error: broken link '../nope.md': no post, page or series "
			  "content/nope.md\n"
			  "content/posts/b.md:1:21: error: broken link '@/posts/gone.md': no post, page or series "
			  "content/posts/gone.md\n"
			  "content/posts/b.md:1:42: error: broken link '../../../../x.md': it climbs out of the site");
	INT_EQ(broken, 3);
	check_end();

	/* found in a template when the page's source does not have it; every
	 * place it is written */
	check_begin("/", LINKS_ERROR);
	site();
	static const struct links_text texts[] = {
		{"folio.yml", "title: x\n", 9},
		{"templates/base.html", "<a href=\"/nav/\">\n<a href=\"/nav/\">", 32},
	};
	links_check_texts(lc, texts, 2);
	page("index.html", "<a href=\"/nav/\">", "content/_index.md", "no link here", NULL, 0);
	STR_EQ(run(NULL), "templates/base.html:1:10: error: broken link '/nav/': the site has no page or file /nav/\n"
			  "templates/base.html:2:10: error: broken link '/nav/': the site has no page or file /nav/");
	INT_EQ(broken, 1);
	INT_EQ(d.errors, 2);
	check_end();

	/* a file whose name ends in index.html is not a folder's index */
	check_begin("/", LINKS_ERROR);
	site();
	page("index.html", "<a href=\"/myindex.html\"><a href=\"/docs/index.html\">", NULL, NULL, NULL, 0);
	STR_EQ(run(NULL), "index.html: error: broken link '/myindex.html': the site has no page or file /myindex.html "
			  "(on the page /)\n"
			  "index.html: error: broken link '/docs/index.html': the site has no page or file /docs/ (on the "
			  "page /)");
	check_end();

	/* a link written as a longer URL's start is not its place */
	check_begin("/", LINKS_ERROR);
	site();
	page("index.html", "<a href=\"/x\">", "content/_index.md", "see /x/y and /xz", NULL, 0);
	STR_EQ(run(NULL), "content/_index.md: error: broken link '/x': the site has no page or file /x (on the page /)");
	check_end();
}

static void test_check_base(void)
{
	t_current = "links check base";
	/* under /blog/: links must be under it; messages show them as written */
	check_begin("/blog/", LINKS_ERROR);
	site();
	static const struct links_text texts[] = {{"templates/nav.html", "<a href=\"/nav/\">", 16}};
	links_check_texts(lc, texts, 1);
	page("index.html",
	     "<a href=\"/blog/about/\"><a href=\"/blog\"><a href=\"/blog/\"><a href=\"/blog/img/a.png\">"
	     "<a href=\"about/\"><a href=\"/blog/posts/hello/#intro\">"
	     "<a href=\"/other/\"><a href=\"/blogx/\"><a href=\"/blog/nav/\"><a href=\"/blog/abut/\">",
	     "content/_index.md", "[o](/other/) [a](/abut/)", NULL, 0);
	STR_EQ(run(NULL),
	       "content/_index.md:1:5: error: broken link '/other/': the site is served under /blog/ (in a template, "
	       "write the URL with '| rel_url')\n"
	       "content/_index.md: error: broken link '/blogx/': the site is served under /blog/ (in a template, "
	       "write the URL with '| rel_url') (on the page /)\n"
	       "templates/nav.html:1:10: error: broken link '/nav/': the site has no page or file /nav/\n"
	       "content/_index.md:1:18: error: broken link '/abut/': the site has no page or file /abut/ (did you "
	       "mean '/blog/about/'?)");
	INT_EQ(broken, 4);
	INT_EQ(links_check_count(lc), 10);
	check_end();

	/* ignore_links patterns match a link as written, without the base
	 * path folio put in front, and with it */
	static const char *const ignore[] = {"/downloads/*", "/blog/old/*"};
	check_begin("/blog/", LINKS_ERROR);
	site();
	page("index.html", "<a href=\"/blog/downloads/a.tgz\"><a href=\"/blog/old/x/\"><a href=\"/blog/other/\">",
	     NULL, NULL, ignore, 2);
	STR_EQ(run(NULL), "index.html: error: broken link '/other/': the site has no page or file /other/ (on the page /)");
	INT_EQ(broken, 1);
	INT_EQ(links_check_count(lc), 3);
	check_end();
}

static void test_check_modes(void)
{
	t_current = "links check modes";
	static const char *const ignore[] = {"/drafts/*", "*.zip", "https://*"};
	/* ignore patterns: not reported, still counted */
	check_begin("/", LINKS_ERROR);
	site();
	page("index.html", "<a href=\"/drafts/x/\"><a href=\"/f/a.zip\"><a href=\"/drafts\"><a href=\"/nope/\">", NULL,
	     NULL, ignore, 3);
	STR_EQ(run(NULL), "index.html: error: broken link '/drafts': the site has no page or file /drafts (on the page /)\n"
			  "index.html: error: broken link '/nope/': the site has no page or file /nope/ (on the page /)");
	INT_EQ(broken, 2);
	INT_EQ(links_check_count(lc), 4);
	check_end();

	/* LINKS_WARN: warnings, no error, 0 broken */
	check_begin("/", LINKS_WARN);
	site();
	page("index.html", "<a href=\"/nope/\"><a href=\"#nid\"><a href=\"../up\">", NULL, NULL, NULL, 0);
	STR_EQ(run(NULL), "index.html: warning: broken link '/nope/': the site has no page or file /nope/ (on the page /)\n"
			  "index.html: warning: broken link '#nid': this page has no element with id 'nid' (on the page /)\n"
			  "index.html: warning: broken link '../up': it climbs out of the site (on the page /)");
	INT_EQ(broken, 0);
	INT_EQ(d.errors, 0);
	INT_EQ(d.warnings, 3);
	INT_EQ(links_check_count(lc), 3);
	check_end();

	/* LINKS_OFF: nothing checked */
	check_begin("/", LINKS_OFF);
	site();
	page("index.html", "<a href=\"/nope/\">", NULL, NULL, NULL, 0);
	STR_EQ(run(NULL), "");
	INT_EQ(broken, 0);
	INT_EQ(links_check_count(lc), 0);
	check_end();

	/* a page left out of this build: a warning, even in LINKS_ERROR */
	check_begin("/", LINKS_ERROR);
	site();
	links_check_later(lc, "posts/draft/index.html", "a draft");
	links_check_later(lc, "posts/draft/index.html", "said twice");
	links_check_later(lc, "posts/soon/index.html", "dated 2099-01-01, in the future");
	page("index.html", "<a href=\"/posts/draft/\"><a href=\"/posts/soon/#x\">", "content/_index.md",
	     "[d](/posts/draft/)", NULL, 0);
	STR_EQ(run(NULL), "content/_index.md:1:5: warning: link '/posts/draft/' leads to /posts/draft/, which this build "
			  "leaves out (a draft): the link is dead until it is published\n"
			  "content/_index.md: warning: link '/posts/soon/#x' leads to /posts/soon/, which this build "
			  "leaves out (dated 2099-01-01, in the future): the link is dead until it is published (on the "
			  "page /)");
	INT_EQ(broken, 0);
	INT_EQ(d.errors, 0);
	INT_EQ(d.warnings, 2);
	check_end();

	/* ... written as its folder without the last '/' too */
	check_begin("/blog/", LINKS_ERROR);
	site();
	links_check_later(lc, "posts/draft/index.html", "a draft");
	page("index.html", "<a href=\"/blog/posts/draft\"><a href=\"/blog/posts/draft#x\">", NULL, NULL, NULL, 0);
	STR_EQ(run(NULL), "index.html: warning: link '/posts/draft' leads to /posts/draft/, which this build leaves out "
			  "(a draft): the link is dead until it is published (on the page /)\n"
			  "index.html: warning: link '/posts/draft#x' leads to /posts/draft/, which this build leaves out "
			  "(a draft): the link is dead until it is published (on the page /)");
	INT_EQ(broken, 0);
	INT_EQ(d.errors, 0);
	check_end();
}

static void test_check_cap(void)
{
	t_current = "links check cap";
	/* at most 50 problems told of a page, then a note with the rest */
	check_begin("/", LINKS_ERROR);
	site();
	struct buf h;
	buf_init(&h);
	for (int i = 0; i < 60; i++)
		buf_printf(&h, "<a href=\"/missing-%d/\">", i);
	buf_puts(&h, "<a href=\"/about/\">");
	buf_putc(&h, '\0');
	page("posts/many/index.html", h.p, NULL, NULL, NULL, 0);
	page("index.html", "<a href=\"/nope/\">", NULL, NULL, NULL, 0);
	const char *m = run(NULL);
	size_t lines = 1;
	for (const char *p = m; *p; p++)
		lines += *p == '\n';
	INT_EQ(lines, 52);
	OK(strstr(m, "broken link '/missing-49/'") != NULL);
	OK(strstr(m, "broken link '/missing-50/'") == NULL);
	OK(strstr(m, "posts/many/index.html: note: 10 more link problems on the page /posts/many/ were not shown") !=
	   NULL);
	/* the next page has its own 50 */
	OK(strstr(m, "index.html: error: broken link '/nope/'") != NULL);
	INT_EQ(broken, 61);
	INT_EQ(d.errors, 51);
	INT_EQ(links_check_count(lc), 62);
	buf_fini(&h);
	check_end();

	/* a long URL is cut in its message */
	check_begin("/", LINKS_ERROR);
	site();
	buf_init(&h);
	buf_puts(&h, "<a href=\"/");
	for (int i = 0; i < 300; i++)
		buf_putc(&h, 'a' + i % 26);
	buf_puts(&h, "\">");
	page("index.html", h.p, NULL, NULL, NULL, 0);
	m = run(NULL);
	OK(strstr(m, "broken link '/abc") != NULL);
	OK(strstr(m, "\xE2\x80\xA6': the site has no page") != NULL);
	OK(strlen(m) < 600);
	buf_fini(&h);
	check_end();
}

static void test_check_located(void)
{
	t_current = "links check located";
	/* a link folio rewrote (@/x.md#part) is found in the source by its
	 * #part */
	check_begin("/", LINKS_ERROR);
	site();
	page("posts/c/index.html", "<a href=\"/posts/hello/#intor\">", "content/posts/c.md",
	     "text\nsee [h](@/posts/hello.md#intor) and #intor alone\n", NULL, 0);
	STR_EQ(run(NULL), "content/posts/c.md:2:9: error: broken link '/posts/hello/#intor': /posts/hello/ has no "
			  "element with id 'intor' (did you mean '#intro'?)");
	check_end();

	/* the same URL written as a .md link and as itself: every place told,
	 * in order; a .md link to another post with the same #part is not one
	 * of them */
	check_begin("/", LINKS_ERROR);
	site();
	page("posts/c/index.html", "<a href=\"/posts/hello/#intor\"><a href=\"/about/#intor\">", "content/posts/c.md",
	     "[a](/posts/hello/#intor)\n[b](hello.md#intor) [c](../pages/about.md#intor)\n"
	     "[d](../hello/index.md#intor) [e](/posts/hello/#intor)\n",
	     NULL, 0);
	STR_EQ(run(NULL), "content/posts/c.md:1:5: error: broken link '/posts/hello/#intor': /posts/hello/ has no "
			  "element with id 'intor' (did you mean '#intro'?)\n"
			  "content/posts/c.md:2:5: error: broken link '/posts/hello/#intor': /posts/hello/ has no "
			  "element with id 'intor' (did you mean '#intro'?)\n"
			  "content/posts/c.md:3:5: error: broken link '/posts/hello/#intor': /posts/hello/ has no "
			  "element with id 'intor' (did you mean '#intro'?)\n"
			  "content/posts/c.md:3:34: error: broken link '/posts/hello/#intor': /posts/hello/ has no "
			  "element with id 'intor' (did you mean '#intro'?)\n"
			  "content/posts/c.md:2:25: error: broken link '/about/#intor': /about/ has no element with id "
			  "'intor'");
	INT_EQ(broken, 2);
	check_end();
	/* a .md link whose post has a slug of its own (no name matches): all
	 * the .md links with that #part */
	check_begin("/", LINKS_ERROR);
	site();
	page("posts/c/index.html", "<a href=\"/posts/hello/#intor\">", "content/posts/c.md",
	     "[a](greeting.md#intor) [b](@/posts/greeting.md#intor)\n", NULL, 0);
	STR_EQ(run(NULL), "content/posts/c.md:1:5: error: broken link '/posts/hello/#intor': /posts/hello/ has no "
			  "element with id 'intor' (did you mean '#intro'?)\n"
			  "content/posts/c.md:1:28: error: broken link '/posts/hello/#intor': /posts/hello/ has no "
			  "element with id 'intor' (did you mean '#intro'?)");
	check_end();

	/* a link a template puts together: at the string it starts with,
	 * when that string is joined to more; "/tags/" | rel_url makes only
	 * itself, so a broken /tags/x/ found nowhere stays on its page */
	check_begin("/", LINKS_ERROR);
	site();
	static const char tp[] = "<a href=\"{{ \"/tags/\" | rel_url }}\">\n"
				 "<a href=\"{{ \"/topics/\" ~ post.slug ~ \"/\" | rel_url }}\">\n"
				 "<img src=\"/figs/{{ post.slug }}.png\">\n";
	static const struct links_text tt[] = {{"folio.yml", "title: x\n", 9}, {"templates/post.html", tp, sizeof tp - 1}};
	links_check_texts(lc, tt, 2);
	page("posts/c/index.html", "<a href=\"/topics/c/\"><img src=\"/figs/c.png\"><a href=\"/tags/x/\">",
	     "content/posts/c.md", "text\n", NULL, 0);
	STR_EQ(run(NULL), "templates/post.html:2:14: error: broken link '/topics/c/': the site has no page or file "
			  "/topics/c/\n"
			  "templates/post.html:3:11: error: broken link '/figs/c.png': the site has no page or file "
			  "/figs/c.png\n"
			  "content/posts/c.md: error: broken link '/tags/x/': the site has no page or file /tags/x/ (on "
			  "the page /posts/c/)");
	check_end();

	/* a source not given is asked of the caller (the build's reader) */
	char *dir = t_tmpdir();
	t_write(dir, "content/posts/d.md", "---\ntitle: D\n---\n\n[x](/nope/)\n");
	check_begin("/", LINKS_ERROR);
	site();
	page("posts/d/index.html", "<a href=\"/nope/\">", "content/posts/d.md", NULL, NULL, 0);
	STR_EQ(run(dir), "content/posts/d.md:5:5: error: broken link '/nope/': the site has no page or file /nope/");
	check_end();
	/* and a source that cannot be read: on the page */
	check_begin("/", LINKS_ERROR);
	site();
	page("posts/e/index.html", "<a href=\"/nope/\">", "content/posts/missing.md", NULL, NULL, 0);
	STR_EQ(run(dir), "content/posts/missing.md: error: broken link '/nope/': the site has no page or file /nope/ "
			 "(on the page /posts/e/)");
	check_end();
	t_rmtree(dir);
	free(dir);
}

/* ---- external links ---- */

static struct buf ext;

static void on_external(void *ctx, const char *url, const char *path, int line, int col)
{
	(void)ctx;
	buf_printf(&ext, "%s %s:%d:%d\n", url, path, line, col);
}

/* ---- the memo of a clean check ---- */

/* memo_site: files a, b, c (b linked from the page, and the page itself
 * through its fragment link); with drop, b is not a file of this build;
 * with extra, d is. */
static void memo_site(int drop, int extra, const char *html)
{
	check_begin("/", LINKS_ERROR);
	links_check_file(lc, "a.png");
	if (!drop)
		links_check_file(lc, "b.pdf");
	links_check_file(lc, "c.css");
	if (extra)
		links_check_file(lc, "d.gif");
	page("index.html", html, NULL, NULL, NULL, 0);
	page("other/index.html", "<a href=\"/c.css\">", NULL, NULL, NULL, 0);
}

static void test_check_memo(void)
{
	t_current = "links check memo";
	size_t len = 0, len2 = 0;
	memo_site(0, 0, "<a href=\"/b.pdf\"><a id=\"x\" href=\"#x\"><a href=\"other/\">");
	STR_EQ(run(NULL), "");
	char *memo = links_check_memo(lc, 7, NULL, 0, &len);
	OK(memo != NULL && len > 0);
	INT_EQ(links_memo_key(memo, len), 7);
	/* this build: it holds for the same key only */
	OK(links_check_memo_holds(lc, 7, memo, len));
	OK(!links_check_memo_holds(lc, 8, memo, len));
	check_end();

	/* a file added: it holds; a file no link led to gone (a.png): too */
	memo_site(0, 1, "");
	OK(links_check_memo_holds(lc, 7, memo, len));
	check_end();
	check_begin("/", LINKS_ERROR);
	links_check_file(lc, "b.pdf");
	links_check_file(lc, "c.css");
	page("index.html", "", NULL, NULL, NULL, 0);
	page("other/index.html", "", NULL, NULL, NULL, 0);
	OK(links_check_memo_holds(lc, 7, memo, len));
	check_end();
	/* a file a link led to gone (b.pdf), or a page (other/): it does not */
	memo_site(1, 1, "");
	OK(!links_check_memo_holds(lc, 7, memo, len));
	check_end();
	check_begin("/", LINKS_ERROR);
	links_check_file(lc, "b.pdf");
	links_check_file(lc, "c.css");
	page("index.html", "", NULL, NULL, NULL, 0);
	OK(!links_check_memo_holds(lc, 7, memo, len));
	check_end();

	/* a run on some pages: the last memo's targets carried over, so that
	 * b.pdf, linked from the page not checked, still counts */
	memo_site(0, 1, "<a href=\"/b.pdf\">");
	unsigned char only[] = {0, 1};
	links_check_only(lc, only);
	STR_EQ(run(NULL), "");
	INT_EQ(links_check_count(lc), 1);
	char *carried = links_check_memo(lc, 7, memo, len, &len2);
	OK(carried != NULL && len2 == len);
	OK(!memcmp(carried, memo, len));
	/* ... but not without a memo of the same key, or from bytes that are
	 * not one */
	OK(links_check_memo(lc, 8, memo, len, &len2) == NULL && len2 == 0);
	OK(links_check_memo(lc, 7, NULL, 0, &len2) == NULL);
	OK(links_check_memo(lc, 7, "folio-links 2", 13, &len2) == NULL);
	check_end();
	memo_site(1, 1, "");
	OK(!links_check_memo_holds(lc, 7, carried, len2 ? len2 : len));
	check_end();
	free(carried);

	/* every cut and every wrong count is not a memo */
	memo_site(0, 0, "");
	for (size_t n = 0; n < len; n++) {
		OK(!links_check_memo_holds(lc, 7, memo, n));
		INT_EQ(links_memo_key(memo, n), 0);
	}
	char *bad = malloc(len);
	memcpy(bad, memo, len);
	bad[24] ^= 1;
	OK(!links_check_memo_holds(lc, 7, bad, len));
	memcpy(bad, memo, len);
	bad[0] = 'x';
	INT_EQ(links_memo_key(bad, len), 0);
	free(bad);
	check_end();

	/* a check that reported something names the pages that did, so that
	 * the next checks them again (and says their warnings again) */
	memo_site(0, 0, "<a href=\"/nothere\">");
	OK(strstr(run(NULL), "nothere") != NULL);
	char *told = links_check_memo(lc, 7, NULL, 0, &len2);
	OK(told != NULL && len2 == 40 + 2 * 8); /* c.css, and the page */
	const char *outs[] = {"index.html", "other/index.html", "third/index.html"};
	unsigned char which[3] = {0, 0, 0};
	INT_EQ(links_memo_told(told, len2, outs, 3, which), 1);
	OK(which[0] == 1 && which[1] == 0 && which[2] == 0);
	INT_EQ(links_memo_told(told, len2, outs, 3, which), 0); /* marked already */
	INT_EQ(links_memo_told(memo, len, outs, 3, which), 0);   /* a clean check's */
	check_end();
	/* a run on the other page only: the page that reported is carried */
	memo_site(0, 0, "<a href=\"/nothere\">");
	unsigned char other[] = {0, 1};
	links_check_only(lc, other);
	STR_EQ(run(NULL), "");
	size_t len3 = 0;
	char *carried2 = links_check_memo(lc, 7, told, len2, &len3);
	OK(carried2 != NULL && len3 == len2);
	memset(which, 0, sizeof which);
	INT_EQ(links_memo_told(carried2, len3, outs, 3, which), 1);
	OK(which[0] == 1);
	free(carried2);
	/* checked again, clean now: it is no longer named */
	check_end();
	memo_site(0, 0, "<a href=\"/b.pdf\">");
	unsigned char first[] = {1, 0};
	links_check_only(lc, first);
	STR_EQ(run(NULL), "");
	carried2 = links_check_memo(lc, 7, told, len2, &len3);
	OK(carried2 != NULL && len3 == 40 + 2 * 8); /* b.pdf, c.css carried, no page */
	memset(which, 0, sizeof which);
	INT_EQ(links_memo_told(carried2, len3, outs, 3, which), 0);
	free(carried2);
	check_end();
	/* a wrong count of pages is not a memo */
	char *bad2 = malloc(len2);
	memcpy(bad2, told, len2);
	bad2[32] ^= 1;
	INT_EQ(links_memo_key(bad2, len2), 0);
	free(bad2);
	free(told);
	check_begin("/", LINKS_WARN);
	page("index.html", "<a href=\"/nothere\">", NULL, NULL, NULL, 0);
	run(NULL);
	told = links_check_memo(lc, 7, NULL, 0, &len2);
	OK(told != NULL);
	memset(which, 0, sizeof which);
	INT_EQ(links_memo_told(told, len2, outs, 1, which), 1);
	free(told);
	check_end();
	free(memo);
}

static void test_external(void)
{
	t_current = "links external";
	check_begin("/", LINKS_ERROR);
	page("posts/x/index.html", "<a href=\"https://e.org/\"><a href=\"http://f.org/a\"><a href=\"ftp://g.org/\">"
				   "<a href=\"/local/\">",
	     "content/posts/x.md", "[a](https://e.org/)\n[b](https://e.org/) [c](http://f.org/a)", NULL, 0);
	page("index.html", "<a href=\"https://e.org/\">", NULL, NULL, NULL, 0);
	buf_reset(&ext);
	links_check_external(lc, NULL, on_external, NULL);
	buf_putc(&ext, '\0');
	STR_EQ(ext.p, "https://e.org/ content/posts/x.md:1:5\n"
		      "https://e.org/ content/posts/x.md:2:5\n"
		      "http://f.org/a content/posts/x.md:2:25\n"
		      "https://e.org/ index.html:0:0\n");
	/* links into the site's own base_url are the site, not external */
	buf_reset(&ext);
	links_check_external(lc, "https://E.org", on_external, NULL);
	buf_putc(&ext, '\0');
	STR_EQ(ext.p, "http://f.org/a content/posts/x.md:2:25\n");
	buf_reset(&ext);
	links_check_external(lc, "https://e.org/blog/", on_external, NULL);
	buf_putc(&ext, '\0');
	OK(strstr(ext.p, "https://e.org/ content/posts/x.md:1:5") != NULL);
	check_end();
	buf_fini(&ext);
}

/* links_rewrite_seen: every URL handed on as it is once final (one line
 * each), also from a body in which nothing changes */
static void seen_url(void *ctx, const char *u, size_t n)
{
	buf_append(ctx, u, n);
	buf_putc(ctx, '\n');
}

static void test_rewrite_seen(void)
{
	struct buf seen;
	buf_init(&seen);
	const char *src = "content/posts/y.md";
	const char *h = "<a href=\"x.md#f\">x</a> <a href=\"/posts/z/\">z</a> <img src=\"i.png\"> "
			"<a href=\"a&amp;b\">e</a> <h2 id=\"t\">";
	struct str r = links_rewrite_seen(arena, str_from(h), src, "/blog/", resolve_md, NULL, seen_url, &seen);
	STR_EQ(seen.p, "/blog/posts/x/#f\n/blog/posts/z/\ni.png\na&b\n");
	OK(strstr(r.p, "href=\"/blog/posts/x/#f\"") != NULL);
	buf_reset(&seen);
	const char *plain = "<p><a href=\"../z/\">z</a></p>";
	r = links_rewrite_seen(arena, str_from(plain), src, "/", resolve_md, NULL, seen_url, &seen);
	OK(r.p == plain);
	STR_EQ(seen.p, "../z/\n");
	buf_fini(&seen);
}

void test_links(void)
{
	t_current = "links";
	arena = arena_new();
	buf_init(&scanned);
	buf_init(&asked);
	buf_init(&cap);
	test_scan();
	test_unescape();
	test_base_path();
	test_rewrite();
	test_rewrite_seen();
	test_record();
	test_check_ok();
	test_check_broken();
	test_check_base();
	test_check_modes();
	test_check_cap();
	test_check_located();
	test_check_memo();
	test_external();
	buf_fini(&scanned);
	buf_fini(&unesc_b);
	buf_fini(&asked);
	buf_fini(&cap);
	arena_free(arena);
}
