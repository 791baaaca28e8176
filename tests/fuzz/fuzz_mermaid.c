/* fuzz_mermaid.c: libFuzzer target for mermaid_render (md/mermaid.c), which
 * draws every ```mermaid block of a site with beautiful-mermaid and dagre
 * in QuickJS and checks what they write. An input is a diagram's source.
 *
 * Besides crashes, the target checks the promises of mermaid.h: what is
 * appended to out is nothing (an error, a blank source) or one <svg>
 * element, balanced, with folio's start tag and its title, no NUL byte, no
 * <script> or <foreignObject>, no on* attribute, no "javascript:" in
 * a value but a data-* attribute's (a label's text), every id and reference
 * to one starting with the drawing's own prefix, and a style sheet (an XY
 * chart's) only with rules for the drawing (#PREFIX first); an error has
 * a message without a NUL. Each input has 0.2 s of CPU (scaled for the
 * sanitizers): past it, an error. */
#include "fuzz.h"

#include "md/mermaid.h"
#include "md/qjs.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

/* unsafe_attr: whether a tag of svg[0..n) has an on* attribute, or a
 * value with "javascript:" in an attribute that is not data-* (a label
 * kept as data-label="..." is text, whatever it says). Text is escaped
 * ('<' and '>' never occur in it, nor '"' in a value), so that what is
 * between '<' and '>' is a tag, and a value ends at its quote. */
static int unsafe_attr(const char *svg, size_t n)
{
	size_t i = 0;
	while (i < n) {
		if (svg[i++] != '<')
			continue;
		while (i < n && svg[i] != '>' && svg[i] != ' ')
			i++; /* the element's name */
		while (i < n && svg[i] != '>') {
			while (i < n && (svg[i] == ' ' || svg[i] == '\n' || svg[i] == '/'))
				i++;
			size_t name = i;
			while (i < n && svg[i] != '=' && svg[i] != ' ' && svg[i] != '>')
				i++;
			if (i - name >= 2 && (svg[name] | 32) == 'o' && (svg[name + 1] | 32) == 'n')
				return 1;
			int data = i - name > 5 && !memcmp(svg + name, "data-", 5);
			if (i >= n || svg[i] != '=')
				continue;
			char q = ++i < n ? svg[i] : 0;
			size_t v = q == '"' || q == '\'' ? ++i : i;
			while (i < n && (q == '"' || q == '\'' ? svg[i] != q : svg[i] != ' ' && svg[i] != '>'))
				i++;
			if (!data && fuzz_count(svg + v, i - v, "javascript:"))
				return 1;
			if (i < n && svg[i] == q)
				i++;
		}
	}
	return 0;
}

/* scoped: whether everything of svg (from folio's start tag, whose id is
 * the drawing's) names that id first: each id="..", url(#.. and href="#..
 * after it starts with the id and '-', and each <style> with a rule for
 * "#ID" (check_style in mermaid.c checks the rest of a sheet). */
static int scoped(const char *svg)
{
	const char *root = strstr(svg, " id=\"");
	if (!root)
		return 0;
	const char *id = root + 5;
	size_t n = strcspn(id, "\"");
	static const char *const refs[] = {" id=\"", "url(#", "href=\"#"};
	for (size_t r = 0; r < 3; r++)
		for (const char *p = strstr(id, refs[r]); p; p = strstr(p + 1, refs[r])) {
			const char *v = p + strlen(refs[r]);
			if (strncmp(v, id, n) != 0 || v[n] != '-')
				return 0;
		}
	for (const char *p = strstr(svg, "<style"); p; p = strstr(p + 1, "<style"))
		if (strncmp(p, "<style>#", 8) != 0 || strncmp(p + 8, id, n) != 0)
			return 0;
	return 1;
}

static void fail(const char *what, const struct buf *b)
{
	fuzz_fail("fuzz_mermaid", what, b->p, b->len);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char before[] = "<p>before</p>";
	static const char head[] = "<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"mm";
	struct buf out, err;
	buf_init(&out);
	buf_init(&err);
	buf_puts(&out, before); /* appended to, never overwritten */
	int rc = mermaid_render(&out, (const char *)data, size, STR_LIT("A <title> & \"more\""),
	                        0.2 * qjs_time_scale(), &err);
	if (out.len < sizeof before - 1 || memcmp(out.p, before, sizeof before - 1) != 0)
		fail("what out held was changed", &out);
	const char *svg = out.p + sizeof before - 1;
	size_t n = out.len - (sizeof before - 1);
	if (rc == 0) {
		if (strlen(svg) != n)
			fail("a NUL in the SVG", &out);
		if (n < sizeof head - 1 || memcmp(svg, head, sizeof head - 1) != 0)
			fail("not folio's <svg> start tag", &out);
		if (fuzz_count(svg, n, "<svg") != 1 || fuzz_count(svg, n, "</svg>") != 1 || n < 6 ||
		    memcmp(svg + n - 6, "</svg>", 6) != 0)
			fail("not one balanced <svg> element", &out);
		if (!strstr(svg, "<title>A &lt;title&gt; &amp; &quot;more&quot;</title>"))
			fail("no title", &out);
		if (fuzz_count(svg, n, "<script") || fuzz_count(svg, n, "<foreignObject") || unsafe_attr(svg, n))
			fail("what a page must not hold", &out);
		if (!scoped(svg))
			fail("an id, a reference or a style sheet not the drawing's own", &out);
		if (err.len)
			fail("a drawing and a message", &err);
	} else if (rc == 1) {
		if (n)
			fail("a blank source wrote something", &out);
	} else if (rc == -1) {
		if (n)
			fail("an error wrote SVG", &out);
		if (!err.len || strlen(err.p) != err.len)
			fail("an error without a message, or with a NUL", &err);
	} else {
		fail("an unknown return value", &out);
	}
	buf_fini(&out);
	buf_fini(&err);
	return 0;
}
