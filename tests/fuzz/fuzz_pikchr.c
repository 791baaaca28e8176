/* fuzz_pikchr.c: libFuzzer target for diagram_pikchr (md/diagram.c), which
 * draws every ```pikchr block of a site with pikchr (its C, from deps/,
 * instrumented in this build) and reads its errors back. An input is a
 * diagram's source.
 *
 * Besides crashes, the target checks the promises of diagram.h: what is
 * appended to out is nothing (an error, an empty drawing) or one <svg>
 * element, balanced (one "<svg", one "</svg>" at its end), with folio's
 * start tag, its title, no NUL byte and no id; an error has a message
 * without a NUL, and a place that is in the source (a line that exists, a
 * column at most one past its end), or none at all. */
#include "fuzz.h"

#include "md/diagram.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

/* line_len: the length of line (1-based) of src[0..n), or -1 if there is
 * no such line. */
static long line_len(const char *src, size_t n, int line)
{
	size_t i = 0;
	for (int l = 1; l < line; l++) {
		const char *nl = memchr(src + i, '\n', n - i);
		if (!nl)
			return -1;
		i = (size_t)(nl - src) + 1;
	}
	const char *nl = memchr(src + i, '\n', n - i);
	return (long)((nl ? (size_t)(nl - src) : n) - i);
}

/* id_attr: whether a tag of svg[0..n) has an id attribute. A text's words
 * are escaped ('<' and '>' never occur in them), so that what is between
 * '<' and '>' is a tag: "id=" written in a label is no attribute. */
static int id_attr(const char *svg, size_t n)
{
	int in_tag = 0;
	for (size_t i = 0; i < n; i++) {
		if (svg[i] == '<' || svg[i] == '>')
			in_tag = svg[i] == '<';
		else if (in_tag && i + 3 < n && (svg[i] == ' ' || svg[i] == '\t' || svg[i] == '\n') &&
			 !memcmp(svg + i + 1, "id=", 3))
			return 1;
	}
	return 0;
}

static void fail(const char *what, const struct buf *b)
{
	fuzz_fail("fuzz_pikchr", what, b->p, b->len);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char before[] = "<p>before</p>";
	static const char head[] = "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"";
	const char *src = (const char *)data;
	struct buf out, err;
	buf_init(&out);
	buf_init(&err);
	buf_puts(&out, before); /* appended to, never overwritten */
	int line = -7, col = -7;
	int rc = diagram_pikchr(&out, src, size, STR_LIT("A <title> & \"more\""), &err, &line, &col);
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
		if (id_attr(svg, n))
			fail("an id in the SVG", &out);
		if (err.len)
			fail("a drawing and a message", &err);
	} else if (rc == 1) {
		if (n)
			fail("an empty drawing wrote something", &out);
	} else if (rc == -1) {
		if (n)
			fail("an error wrote SVG", &out);
		if (!err.len || strlen(err.p) != err.len)
			fail("an error without a message, or with a NUL", &err);
		if (line != 0 || col != 0) {
			long len = line > 0 ? line_len(src, size, line) : -1;
			if (len < 0 || col < 1 || col > len + 1)
				fail("an error's place is not in the source", &err);
		}
	} else {
		fail("an unknown return value", &out);
	}
	buf_fini(&out);
	buf_fini(&err);
	return 0;
}
