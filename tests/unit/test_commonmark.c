/* test_commonmark.c: the CommonMark spec's examples (spec.txt of npm
 * commonmark-spec 0.31.2, which scripts/deps-commonmark.sh keeps in
 * deps/commonmark/) run through md_render, each a check. Options: smart
 * punctuation off, math off, raw HTML on (folio always allows it): the
 * closest folio comes to plain CommonMark. GFM's extensions stay on (folio
 * has no option to turn them off); heading ids and anchors are dropped
 * before the comparison. Both sides are normalized as the spec's own test
 * runner does with --normalize (test/normalize.py): whitespace and
 * attribute order do not count.
 *
 * The examples folio renders differently (its extensions, and two rules
 * newer than cmark-gfm 0.29.0.gfm.13) are listed in exceptions[] with
 * their reasons, as in folio-site(5), MARKDOWN,
 * "CommonMark conformance"; each of them is checked to still differ, so the
 * list cannot go stale. */
#include "harness.h"

#include "md/markdown.h"

#include <stdlib.h>
#include <string.h>

#define SPEC_PATH     "deps/commonmark/spec.txt"
#define SPEC_EXAMPLES 652

/* The examples folio renders differently, and why (the same list as
 * folio-site(5), MARKDOWN, "CommonMark conformance"). */
#define FIGURE                                                                                     \
	"an image alone in its paragraph with a title is a <figure>, the title its <figcaption>"
#define AUTOLINK "GFM autolinks: a bare https://, www. or e-mail address is a link, in <...> too"

static const struct {
	int number;
	const char *reason;
} exceptions[] = {
    {28, "cmark-gfm 0.29.0.gfm.13 decodes an 8-digit numeric reference (&#87654321;, as U+FFFD); "
         "the spec allows at most 7 digits, and more is text"},
    {354, "cmark-gfm 0.29.0.gfm.13 takes currency symbols (£, €) for letters next to * and _; "
          "spec 0.31 counts Unicode symbols as punctuation"},
    {572, FIGURE},
    {573, FIGURE},
    {576, FIGURE},
    {577, FIGURE},
    {584, FIGURE},
    {585, FIGURE},
    {586, FIGURE},
    {588, FIGURE},
    {589, FIGURE},
    {591, FIGURE},
    {602, AUTOLINK},
    {606, AUTOLINK},
    {608, AUTOLINK},
    {611, AUTOLINK},
    {612, AUTOLINK},
};

static const char *exception_reason(int number)
{
	for (size_t i = 0; i < sizeof exceptions / sizeof exceptions[0]; i++)
		if (exceptions[i].number == number)
			return exceptions[i].reason;
	return NULL;
}

/* ---- the normalizer (after the spec's test/normalize.py) ---- */

enum last { L_STARTTAG, L_ENDTAG, L_DATA, L_COMMENT, L_DECL, L_PI, L_REF };

struct norm {
	struct buf *out;
	enum last last;
	char last_tag[32];
	int in_pre;
};

static int is_ws(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

/* ws_len: the length of the whitespace character at s (Python's \s: ASCII
 * whitespace and U+00A0 are all that occur here), else 0. */
static size_t ws_len(const char *s, size_t n)
{
	if (n && is_ws((unsigned char)s[0]))
		return 1;
	if (n >= 2 && (unsigned char)s[0] == 0xc2 && (unsigned char)s[1] == 0xa0)
		return 2;
	return 0;
}

static int is_block_tag(const char *t)
{
	static const char *const tags[] = {
	    "article",  "header",   "aside",    "hgroup", "blockquote", "hr",     "iframe",
	    "body",     "li",       "map",      "button", "object",     "canvas", "ol",
	    "caption",  "output",   "col",      "p",      "colgroup",   "pre",    "dd",
	    "progress", "section",  "dl",       "table",  "td",         "dt",     "tbody",
	    "embed",    "textarea", "fieldset", "tfoot",  "figcaption", "th",     "figure",
	    "thead",    "footer",   "tr",       "form",   "ul",         "h1",     "h2",
	    "h3",       "h4",       "h5",       "h6",     "video",      "script", "style"};
	for (size_t i = 0; i < sizeof tags / sizeof tags[0]; i++)
		if (strcmp(t, tags[i]) == 0)
			return 1;
	return 0;
}

static void rstrip(struct buf *b)
{
	while (b->len) {
		if (is_ws((unsigned char)b->p[b->len - 1]))
			b->len--;
		else if (b->len >= 2 && (unsigned char)b->p[b->len - 2] == 0xc2 &&
		         (unsigned char)b->p[b->len - 1] == 0xa0)
			b->len -= 2;
		else
			break;
	}
	if (b->p)
		b->p[b->len] = '\0';
}

static void put_utf8(struct buf *b, unsigned long c)
{
	if (c < 0x80) {
		buf_putc(b, (int)c);
	} else if (c < 0x800) {
		buf_putc(b, (int)(0xc0 | (c >> 6)));
		buf_putc(b, (int)(0x80 | (c & 0x3f)));
	} else if (c < 0x10000) {
		buf_putc(b, (int)(0xe0 | (c >> 12)));
		buf_putc(b, (int)(0x80 | ((c >> 6) & 0x3f)));
		buf_putc(b, (int)(0x80 | (c & 0x3f)));
	} else {
		buf_putc(b, (int)(0xf0 | (c >> 18)));
		buf_putc(b, (int)(0x80 | ((c >> 12) & 0x3f)));
		buf_putc(b, (int)(0x80 | ((c >> 6) & 0x3f)));
		buf_putc(b, (int)(0x80 | (c & 0x3f)));
	}
}

/* charref: the code point of "&#...;" at s (n bytes there), its length in
 * *len; -1 if s holds none. */
static long charref(const char *s, size_t n, size_t *len)
{
	size_t i = 2;
	int hex = 0;
	if (n < 4 || s[0] != '&' || s[1] != '#')
		return -1;
	if (s[2] == 'x' || s[2] == 'X') {
		hex = 1;
		i++;
	}
	unsigned long v = 0;
	size_t start = i;
	while (i < n && i - start < 8 &&
	       ((s[i] >= '0' && s[i] <= '9') || (hex && strchr("abcdefABCDEF", s[i]) && s[i]))) {
		int d = s[i] <= '9' ? s[i] - '0' : (s[i] | 0x20) - 'a' + 10;
		v = v * (hex ? 16 : 10) + (unsigned long)d;
		i++;
	}
	if (i == start || i >= n || s[i] != ';')
		return -1;
	*len = i + 1;
	return (long)v;
}

/* put_char: the decoded character as output_char writes it. */
static void put_char(struct buf *b, long c, const char *raw, size_t rawlen)
{
	if (c == '<')
		buf_puts(b, "&lt;");
	else if (c == '>')
		buf_puts(b, "&gt;");
	else if (c == '&')
		buf_puts(b, "&amp;");
	else if (c == '"')
		buf_puts(b, "&quot;");
	else if (c <= 0 || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		buf_append(b, raw, rawlen);
	else
		put_utf8(b, (unsigned long)c);
}

static void handle_data(struct norm *z, const char *s, size_t n)
{
	int after_tag = z->last == L_ENDTAG || z->last == L_STARTTAG;
	int after_block = after_tag && is_block_tag(z->last_tag);
	if (after_tag && strcmp(z->last_tag, "br") == 0)
		while (n && *s == '\n')
			s++, n--;
	struct buf d;
	buf_init(&d);
	buf_puts(&d, "");
	if (z->in_pre) {
		buf_append(&d, s, n);
	} else {
		for (size_t i = 0; i < n;) {
			size_t w = ws_len(s + i, n - i);
			if (!w) {
				buf_putc(&d, s[i++]);
				continue;
			}
			while (i < n && (w = ws_len(s + i, n - i)) != 0)
				i += w;
			buf_putc(&d, ' ');
		}
	}
	const char *p = d.p;
	size_t len = d.len;
	if (after_block && !z->in_pre) {
		while (len && *p == ' ')
			p++, len--;
		if (z->last == L_ENDTAG)
			while (len && p[len - 1] == ' ')
				len--;
	}
	buf_append(z->out, p, len);
	buf_fini(&d);
	z->last = L_DATA;
}

struct attr {
	char key[64];
	struct buf val;
	int has_val;
};

static int attr_cmp(const void *a, const void *b)
{
	const struct attr *x = a, *y = b;
	int c = strcmp(x->key, y->key);
	if (c)
		return c;
	if (x->has_val != y->has_val)
		return x->has_val - y->has_val;
	return strcmp(x->val.p ? x->val.p : "", y->val.p ? y->val.p : "");
}

/* unescape_attr: an attribute's value with references decoded (the basic
 * named ones and numeric ones; others stay), as html.unescape does. */
static void unescape_attr(struct buf *b, const char *s, size_t n)
{
	static const struct {
		const char *name;
		char c;
	} named[] = {
	    {"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}, {"&apos;", '\''}};
	buf_puts(b, "");
	for (size_t i = 0; i < n;) {
		size_t len;
		long c;
		if (s[i] == '&' && (c = charref(s + i, n - i, &len)) >= 0) {
			if (c > 0 && c <= 0x10ffff)
				put_utf8(b, (unsigned long)c);
			i += len;
			continue;
		}
		int done = 0;
		for (size_t k = 0; k < sizeof named / sizeof named[0] && s[i] == '&'; k++) {
			size_t nl = strlen(named[k].name);
			if (n - i >= nl && memcmp(s + i, named[k].name, nl) == 0) {
				buf_putc(b, named[k].c);
				i += nl;
				done = 1;
				break;
			}
		}
		if (!done)
			buf_putc(b, s[i++]);
	}
}

/* start_tag: a start tag at s ('<' and a letter); its length, or 0 if it
 * does not close (then the '<' is data). */
static size_t start_tag(struct norm *z, const char *s, size_t n)
{
	size_t i = 1;
	char name[32];
	size_t nl = 0;
	while (i < n && !is_ws((unsigned char)s[i]) && s[i] != '/' && s[i] != '>' && s[i]) {
		if (nl < sizeof name - 1)
			name[nl++] = (char)(s[i] >= 'A' && s[i] <= 'Z' ? s[i] | 0x20 : s[i]);
		i++;
	}
	name[nl] = '\0';
	struct attr attrs[32];
	size_t na = 0;
	int selfclose = 0, closed = 0;
	while (i < n) {
		while (i < n && (is_ws((unsigned char)s[i]) ||
		                 (s[i] == '/' && !(i + 1 < n && s[i + 1] == '>'))))
			i++;
		if (i >= n)
			break;
		if (s[i] == '>') {
			closed = 1;
			i++;
			break;
		}
		if (s[i] == '/' && i + 1 < n && s[i + 1] == '>') {
			closed = selfclose = 1;
			i += 2;
			break;
		}
		size_t ks = i;
		i++;
		while (i < n && !is_ws((unsigned char)s[i]) && s[i] != '/' && s[i] != '=' &&
		       s[i] != '>')
			i++;
		struct attr *a = na < sizeof attrs / sizeof attrs[0] ? &attrs[na++] : NULL;
		if (a) {
			size_t kl = i - ks < sizeof a->key - 1 ? i - ks : sizeof a->key - 1;
			for (size_t k = 0; k < kl; k++)
				a->key[k] =
				    (char)(s[ks + k] >= 'A' && s[ks + k] <= 'Z' ? s[ks + k] | 0x20
				                                                : s[ks + k]);
			a->key[kl] = '\0';
			buf_init(&a->val);
			a->has_val = 0;
		}
		size_t j = i;
		while (j < n && is_ws((unsigned char)s[j]))
			j++;
		if (j < n && s[j] == '=') {
			while (j < n && s[j] == '=')
				j++;
			while (j < n && is_ws((unsigned char)s[j]))
				j++;
			size_t vs = j, ve;
			if (j < n && (s[j] == '"' || s[j] == '\'')) {
				const char *q = memchr(s + j + 1, s[j], n - j - 1);
				if (!q)
					break;
				vs = j + 1;
				ve = (size_t)(q - s);
				j = ve + 1;
			} else {
				while (j < n && !is_ws((unsigned char)s[j]) && s[j] != '>')
					j++;
				ve = j;
			}
			if (a) {
				unescape_attr(&a->val, s + vs, ve - vs);
				a->has_val = 1;
			}
			i = j;
		}
	}
	if (!closed) {
		for (size_t k = 0; k < na; k++)
			buf_fini(&attrs[k].val);
		return 0;
	}
	if (strcmp(name, "pre") == 0)
		z->in_pre = 1;
	if (is_block_tag(name))
		rstrip(z->out);
	buf_putc(z->out, '<');
	buf_puts(z->out, name);
	qsort(attrs, na, sizeof attrs[0], attr_cmp);
	for (size_t k = 0; k < na; k++) {
		buf_putc(z->out, ' ');
		buf_puts(z->out, attrs[k].key);
		if (attrs[k].has_val) {
			buf_puts(z->out, "=\"");
			buf_put_html(z->out, attrs[k].val.p, attrs[k].val.len);
			buf_putc(z->out, '"');
		}
		buf_fini(&attrs[k].val);
	}
	buf_putc(z->out, '>');
	snprintf(z->last_tag, sizeof z->last_tag, "%s", name);
	z->last = selfclose ? L_ENDTAG : L_STARTTAG;
	return i;
}

/* normalize: html as normalize_html of the spec's test/normalize.py
 * writes it, into out. */
static void normalize(const char *s, struct buf *out)
{
	size_t n = strlen(s);
	struct norm z = {out, L_STARTTAG, "", 0};
	buf_reset(out);
	buf_puts(out, "");
	size_t i = 0;
	while (i < n) {
		size_t j = i;
		while (j < n && s[j] != '<' && s[j] != '&')
			j++;
		if (j > i) {
			handle_data(&z, s + i, j - i);
			i = j;
			continue;
		}
		const char *p = s + i;
		size_t left = n - i;
		if (p[0] == '&') {
			size_t len;
			long c = charref(p, left, &len);
			if (c >= 0) {
				put_char(out, c, p, len);
				z.last = L_REF;
				i += len;
				continue;
			}
			size_t k = 1;
			while (k < left && (((p[k] | 0x20) >= 'a' && (p[k] | 0x20) <= 'z') ||
			                    (k > 1 && p[k] >= '0' && p[k] <= '9')))
				k++;
			if (k > 1 && k < left && p[k] == ';') {
				buf_append(out, p, k + 1); /* kept as written */
				z.last = L_REF;
				i += k + 1;
				continue;
			}
			handle_data(&z, p, 1);
			i++;
			continue;
		}
		/* '<' */
		if (left >= 4 && strncmp(p, "<!--", 4) == 0) {
			const char *e = strstr(p + 4, "-->");
			if (e) {
				buf_append(out, p, (size_t)(e + 3 - p));
				z.last = L_COMMENT;
				i += (size_t)(e + 3 - p);
				continue;
			}
		} else if (left >= 2 && (p[1] == '!' || p[1] == '?')) {
			const char *e =
			    strncmp(p, "<![CDATA[", 9) == 0 ? strstr(p, "]]>") : strchr(p, '>');
			if (e) {
				size_t len = (size_t)(strchr(e, '>') + 1 - p);
				buf_append(out, p, len);
				z.last = p[1] == '!' ? L_DECL : L_PI;
				i += len;
				continue;
			}
		} else if (left >= 3 && p[1] == '/' &&
		           ((p[2] | 0x20) >= 'a' && (p[2] | 0x20) <= 'z')) {
			const char *e = memchr(p, '>', left);
			if (e) {
				char name[32];
				size_t nl = 0;
				for (const char *q = p + 2;
				     q < e && !is_ws((unsigned char)*q) && *q != '/'; q++)
					if (nl < sizeof name - 1)
						name[nl++] =
						    (char)(*q >= 'A' && *q <= 'Z' ? *q | 0x20 : *q);
				name[nl] = '\0';
				if (strcmp(name, "pre") == 0)
					z.in_pre = 0;
				else if (is_block_tag(name))
					rstrip(out);
				buf_puts(out, "</");
				buf_puts(out, name);
				buf_putc(out, '>');
				snprintf(z.last_tag, sizeof z.last_tag, "%s", name);
				z.last = L_ENDTAG;
				i += (size_t)(e + 1 - p);
				continue;
			}
		} else if (left >= 2 && ((p[1] | 0x20) >= 'a' && (p[1] | 0x20) <= 'z')) {
			size_t len = start_tag(&z, p, left);
			if (len) {
				i += len;
				continue;
			}
		}
		handle_data(&z, p, 1);
		i++;
	}
}

/* drop_heading_ids: html with <hN id="..."> made <hN> and folio's anchors
 * dropped, as cmark renders headings. */
static void drop_heading_ids(const char *h, struct buf *out)
{
	static const char anchor[] = " <a class=\"anchor\" href=\"#";
	buf_reset(out);
	buf_puts(out, "");
	while (*h) {
		if (h[0] == '<' && h[1] == 'h' && h[2] >= '1' && h[2] <= '6' &&
		    strncmp(h + 3, " id=\"", 5) == 0) {
			const char *e = strstr(h + 8, "\">");
			if (e) {
				buf_append(out, h, 3);
				buf_putc(out, '>');
				h = e + 2;
				continue;
			}
		}
		if (strncmp(h, anchor, sizeof anchor - 1) == 0) {
			const char *e = strstr(h, "</a>");
			if (e) {
				h = e + 4;
				continue;
			}
		}
		buf_putc(out, *h++);
	}
}

/* ---- the examples ---- */

/* untab: s with each "→" (how spec.txt shows a tab) made a tab. */
static void untab(struct buf *b, const char *s, size_t n)
{
	buf_reset(b);
	buf_puts(b, "");
	for (size_t i = 0; i < n; i++) {
		if (i + 2 < n && memcmp(s + i, "\xe2\x86\x92", 3) == 0) {
			buf_putc(b, '\t');
			i += 2;
		} else {
			buf_putc(b, s[i]);
		}
	}
}

static const char fence[] = "````````````````````````````````";

static void test_normalizer(void)
{
	struct buf a;
	buf_init(&a);
	normalize("<p>a  \n b</p>\n<ul>\n<li>x</li>\n</ul>\n", &a);
	STR_EQ(a.p, "<p>a b</p><ul><li>x</li></ul>");
	normalize("<a title=\"t\" HREF='u&amp;v'>x</a><br />\nz", &a);
	STR_EQ(a.p, "<a href=\"u&amp;v\" title=\"t\">x</a><br>z");
	normalize("<pre><code>a  \n  b\n</code></pre>\n", &a);
	STR_EQ(a.p, "<pre><code>a  \n  b\n</code></pre>");
	normalize("<p>&#35; &#x22; &ouml; a < b</p>", &a);
	STR_EQ(a.p, "<p># &quot; &ouml; a < b</p>");
	buf_fini(&a);
}

void test_commonmark(void); /* also in harness.h */

void test_commonmark(void)
{
	t_current = "commonmark";
	test_normalizer();
	size_t len;
	char *spec = read_file(SPEC_PATH, &len);
	if (!spec) {
		t_fail(__FILE__, __LINE__,
		       "%s is missing: make deps (scripts/deps-commonmark.sh) fetches it",
		       SPEC_PATH);
		return;
	}
	const char *end = strstr(spec, "\n<!-- END TESTS -->");
	if (!end)
		end = spec + len;
	struct arena *a = arena_new();
	struct buf md, want, got, nwant, ngot;
	buf_init(&md);
	buf_init(&want);
	buf_init(&got);
	buf_init(&nwant);
	buf_init(&ngot);
	struct md_options o = {.smart = 0, .math = 0, .unsafe = 1};
	int number = 0, passed = 0, excepted = 0;
	const char *p = spec;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;
		const char *next = nl ? nl + 1 : end;
		if ((size_t)(eol - p) != sizeof fence - 1 + 8 ||
		    strncmp(p, fence, sizeof fence - 1) != 0 ||
		    strncmp(p + sizeof fence - 1, " example", 8) != 0) {
			p = next;
			continue;
		}
		/* the markdown up to a line ".", the HTML up to the closing fence */
		const char *m = next, *dot = m;
		while (dot < end && !(dot[0] == '.' && dot[1] == '\n'))
			dot = strchr(dot, '\n') + 1;
		const char *h = dot + 2, *close = h;
		while (close < end && strncmp(close, fence, sizeof fence - 1) != 0)
			close = strchr(close, '\n') + 1;
		number++;
		untab(&md, m, (size_t)(dot - m));
		untab(&want, h, (size_t)(close - h));
		struct md_doc doc;
		md_render(a, &o, NULL, "spec.md", md.p, md.len, md.p, md.len, 0, &doc);
		drop_heading_ids(doc.html.p ? doc.html.p : "", &got);
		normalize(got.p, &ngot);
		normalize(want.p, &nwant);
		int same = strcmp(ngot.p, nwant.p) == 0;
		const char *reason = exception_reason(number);
		if (reason) {
			excepted++;
			if (!same)
				t_passed++;
			else
				t_fail(__FILE__, __LINE__,
				       "example %d passes, but is listed as an exception (%s)",
				       number, reason);
		} else if (same) {
			passed++;
			t_passed++;
		} else {
			t_fail(__FILE__, __LINE__,
			       "example %d:\n--- markdown\n%s--- got\n%s--- want\n%s", number, md.p,
			       got.p, want.p);
		}
		p = strchr(close, '\n') ? strchr(close, '\n') + 1 : end;
	}
	INT_EQ(number, SPEC_EXAMPLES);
	printf("commonmark: %d of %d examples pass; %d documented exceptions\n", passed, number,
	       excepted);
	buf_fini(&md);
	buf_fini(&want);
	buf_fini(&got);
	buf_fini(&nwant);
	buf_fini(&ngot);
	arena_free(a);
	free(spec);
}
