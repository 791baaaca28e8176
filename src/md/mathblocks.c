/* mathblocks.c: display math blocks. A line that opens with "$$" (after its
 * containers' prefixes: "> ", a list item's indent, a footnote's) starts
 * display math that runs to the next "$$", across blank lines and whatever
 * Markdown would see in the TeX. Found here, before cmark parses the text:
 * each block becomes, line for line, a raw HTML block that names it
 * (<pre data-folio-math="K">, a line of filler per line of TeX, </pre>),
 * which nothing in Markdown reads into; markdown.c then puts the formula in
 * its place. Container prefixes are followed the way CommonMark opens them
 * (block quotes, list items, footnotes), and fenced code, HTML comments and
 * <pre>, <script>, <style>, <textarea> blocks are skipped, so a "$$" there
 * stays what it was. With math.delimiters: brackets, a line that opens
 * with \[ runs to the next \] the same way (the text has sentinels for
 * their backslashes by then: md_math_sentinels). */
#include "internal.h"

#include <string.h>
#include <strings.h>

#include <utf8proc.h>

#define MAX_DEPTH 64

struct ctr {
	int quote; /* a block quote; else a list item or a footnote */
	int width; /* a list item's: the columns its lines are indented by */
};

static int blank_from(const char *s, size_t i, size_t e)
{
	for (; i < e; i++)
		if (s[i] != ' ' && s[i] != '\t')
			return 0;
	return 1;
}

/* indent_of: skips spaces and tabs from i; their columns in *cols. */
static size_t indent_of(const char *s, size_t i, size_t e, int *cols)
{
	int c = 0;
	while (i < e && (s[i] == ' ' || s[i] == '\t')) {
		c += s[i] == '\t' ? 4 - c % 4 : 1;
		i++;
	}
	*cols = c;
	return i;
}

/* match_ctrs: the prefixes of the open containers on the line s[i..e):
 * where the line's text starts; how many matched in *m. */
static size_t match_ctrs(const char *s, size_t i, size_t e, const struct ctr *st, int depth, int *m)
{
	int k = 0;
	for (; k < depth; k++) {
		int cols;
		size_t j = indent_of(s, i, e, &cols);
		if (st[k].quote) {
			if (cols > 3 || j >= e || s[j] != '>')
				break;
			i = j + 1;
			if (i < e && (s[i] == ' ' || s[i] == '\t'))
				i++;
		} else if (j < e) {
			if (cols < st[k].width)
				break;
			int c = 0;
			while (c < st[k].width && i < e) {
				c += s[i] == '\t' ? 4 - c % 4 : 1;
				i++;
			}
		} /* a blank line keeps a list item open */
	}
	*m = k;
	return i;
}

/* list_marker: s[j..e) opens a list item: its marker's end in *k. */
static int list_marker(const char *s, size_t j, size_t e, int in_para, size_t *k)
{
	size_t i = j;
	if (s[i] == '-' || s[i] == '+' || s[i] == '*') {
		i++;
		if (s[j] != '+') { /* "- - -" and "***" are thematic breaks */
			int n = 0, other = 0;
			for (size_t x = j; x < e; x++) {
				if (s[x] == s[j])
					n++;
				else if (s[x] != ' ' && s[x] != '\t')
					other = 1;
			}
			if (n >= 3 && !other)
				return 0;
		}
	} else {
		while (i < e && i - j < 9 && s[i] >= '0' && s[i] <= '9')
			i++;
		if (i == j || i >= e || (s[i] != '.' && s[i] != ')'))
			return 0;
		if (in_para && !(i - j == 1 && s[j] == '1'))
			return 0;
		i++;
	}
	if (i < e && s[i] != ' ' && s[i] != '\t')
		return 0;
	if (in_para && blank_from(s, i, e))
		return 0;
	*k = i;
	return 1;
}

/* find_dd: the next unescaped closer c0 c1 ("$$", or MD_BSENT "]") in
 * s[i..e), or e. */
static size_t find_dd(const char *s, size_t i, size_t e, char c0, char c1)
{
	while (i + 1 < e) {
		if (s[i] == '\\')
			i += 2;
		else if (s[i] == c0 && s[i + 1] == c1)
			return i;
		else
			i++;
	}
	return e;
}

/* opener: s[j..e) opens display math: "$$" (unless dollars are off) or
 * \[ (MD_BSENT "[", with brackets). Returns the closer's second byte. */
static char opener(const struct md_ctx *c, const char *s, size_t j, size_t e)
{
	if (j + 1 >= e)
		return 0;
	if (s[j] == '$' && s[j + 1] == '$' && !c->o->no_dollars)
		return '$';
	if (s[j] == MD_BSENT && s[j + 1] == '[')
		return ']';
	return 0;
}

/* skip_ws: past spaces, tabs and at most one newline. */
static size_t skip_ws(const char *t, size_t j, size_t len)
{
	int nl = 0;
	while (j < len && (t[j] == ' ' || t[j] == '\t' || (t[j] == '\n' && !nl++)))
		j++;
	return j;
}

/* dest_end: t[i] is the '(' of "](": the end of the link destination and
 * title that may follow (their escapes are theirs, not math), or i. */
static size_t dest_end(const char *t, size_t i, size_t len)
{
	size_t j = skip_ws(t, i + 1, len);
	if (j < len && t[j] == '<') {
		const char *gt = memchr(t + j, '>', len - j);
		if (!gt)
			return i;
		j = (size_t)(gt - t) + 1;
	} else {
		int depth = 0;
		for (; j < len; j++) {
			char b = t[j];
			if (b == '\\')
				j++;
			else if (b == '(')
				depth++;
			else if (b == ')' && depth-- == 0)
				return j;
			else if ((unsigned char)b <= ' ')
				break;
		}
	}
	j = skip_ws(t, j, len);
	if (j < len && (t[j] == '"' || t[j] == '\'' || t[j] == '(')) {
		char close = t[j] == '(' ? ')' : t[j];
		for (j++; j < len && t[j] != close; j++)
			if (t[j] == '\\')
				j++;
	}
	return j < len ? j : len;
}

size_t md_math_sentinels(const char *t, size_t len, struct buf *out)
{
	size_t n = 0, copied = 0, dest = 0; /* t[..dest) may be a link destination */
	for (size_t i = 0; i < len; i++) {
		if (t[i] == ']' && i + 1 < len && t[i + 1] == '(') {
			size_t e = dest_end(t, i + 1, len);
			if (e > dest)
				dest = e;
		} else if (t[i] == MD_BSENT) {
			buf_append(out, t + copied, i - copied);
			buf_putc(out, 0x1a);
			copied = i + 1;
		} else if (t[i] == '\\' && i + 1 < len) {
			char b = t[i + 1];
			if (i >= dest && (b == '(' || b == ')' || b == '[' || b == ']')) {
				buf_append(out, t + copied, i - copied);
				buf_putc(out, MD_BSENT);
				copied = i + 1;
				n++;
			}
			i++; /* the escaped byte */
		}
	}
	if (!n) {
		buf_reset(out);
		return 0;
	}
	buf_append(out, t + copied, len - copied);
	return n;
}

void md_unsentinel(struct buf *out, const char *s, size_t n)
{
	size_t copied = 0;
	for (const char *p; (p = memchr(s + copied, MD_BSENT, n - copied)) != NULL;) {
		buf_append(out, s + copied, (size_t)(p - s) - copied);
		buf_putc(out, '\\');
		copied = (size_t)(p - s) + 1;
	}
	buf_append(out, s + copied, n - copied);
}

/* starts_block: the line's text s[j..e) (no containers) opens a block. */
static int starts_block(const struct md_ctx *c, const char *s, size_t i, size_t e)
{
	int cols;
	size_t j = indent_of(s, i, e, &cols), k;
	if (cols > 3 || j >= e)
		return 0;
	if (s[j] == '>' || s[j] == '#' || s[j] == '<' || list_marker(s, j, e, 1, &k))
		return 1;
	if (opener(c, s, j, e))
		return 1;
	return j + 2 < e && (s[j] == '`' || s[j] == '~') && s[j + 1] == s[j] && s[j + 2] == s[j];
}

static const char *const RAW_TAGS[] = {"pre", "script", "style", "textarea", NULL};

/* html_opens: s[j..e) opens an HTML block that ends at a marker of its own
 * (a comment, <pre>...): the closing marker, unless it ends on this line. */
static const char *html_opens(const char *s, size_t j, size_t e)
{
	if (e - j >= 4 && memcmp(s + j, "<!--", 4) == 0)
		return memmem(s + j + 4, e - j - 4, "-->", 3) ? NULL : "-->";
	for (int t = 0; RAW_TAGS[t]; t++) {
		size_t n = strlen(RAW_TAGS[t]);
		if (e - j < n + 1 || strncasecmp(s + j + 1, RAW_TAGS[t], n) != 0)
			continue;
		if (j + 1 + n < e && s[j + 1 + n] != ' ' && s[j + 1 + n] != '\t' && s[j + 1 + n] != '>')
			continue;
		static const char *const ends[] = {"</pre>", "</script>", "</style>", "</textarea>"};
		for (size_t x = j + 1; x + strlen(ends[t]) <= e; x++)
			if (strncasecmp(s + x, ends[t], strlen(ends[t])) == 0)
				return NULL;
		return ends[t];
	}
	return NULL;
}

static int line_has(const char *s, size_t i, size_t e, const char *needle)
{
	size_t n = strlen(needle);
	for (; i + n <= e; i++)
		if (strncasecmp(s + i, needle, n) == 0)
			return 1;
	return 0;
}

static void add_block(struct md_ctx *c, struct md_mblock **bs, size_t *nb, size_t *cap,
                      const struct buf *tex, int line, int col, const char *after, size_t after_len,
                      int after_line)
{
	if (*nb == *cap) {
		*cap = *cap ? *cap * 2 : 8;
		*bs = xrealloc(*bs, *cap * sizeof **bs);
	}
	while (after_len && (after[0] == ' ' || after[0] == '\t')) {
		after++;
		after_len--;
	}
	/* as cmark reads text: a NUL or a byte that is not UTF-8 is U+FFFD */
	struct buf v;
	buf_init(&v);
	const unsigned char *u = (const unsigned char *)(tex->p ? tex->p : "");
	for (size_t i = 0; i < tex->len;) {
		utf8proc_int32_t cp;
		utf8proc_ssize_t k = u[i] && u[i] < 0x80 ? 1 : utf8proc_iterate(u + i, (utf8proc_ssize_t)(tex->len - i), &cp);
		if (u[i] == MD_BSENT) {
			buf_putc(&v, '\\');
			i++;
		} else if (k < 1 || !u[i]) {
			buf_puts(&v, "\xef\xbf\xbd");
			i++;
		} else {
			buf_append(&v, u + i, (size_t)k);
			i += (size_t)k;
		}
	}
	(*bs)[(*nb)++] = (struct md_mblock){arena_strndup(c->a, v.p ? v.p : "", v.len), v.len, line, col, after,
	                                    after_len, after_line};
	buf_fini(&v);
}

static void put_marker(struct buf *out, size_t k)
{
	buf_printf(out, "<pre data-folio-math=\"%zu\">", k);
}

/* put_cont: a line of the block after its first: the opening line's prefix
 * with its markers made spaces (the same containers go on), then s. */
static void put_cont(struct buf *out, const char *pre, size_t n, const char *s)
{
	buf_putc(out, '\n');
	for (size_t i = 0; i < n; i++)
		buf_putc(out, pre[i] == '>' || pre[i] == '\t' ? pre[i] : ' ');
	buf_puts(out, s);
}

int md_math_blocks(struct md_ctx *c, const char *t, size_t len, struct buf *out, struct md_mblock **bs,
                   size_t *nb)
{
	struct ctr st[MAX_DEPTH];
	int depth = 0, in_para = 0, fence_depth = -1, flen = 0, line = 0;
	char fch = 0;
	const char *html_end = NULL;
	size_t copied = 0, cap = 0, ls = 0;
	struct buf tex;
	buf_init(&tex);
	*bs = NULL;
	*nb = 0;
	while (ls < len) {
		const char *nl = memchr(t + ls, '\n', len - ls);
		size_t le = nl ? (size_t)(nl - t) : len, next = nl ? le + 1 : len, e = le;
		if (e > ls && t[e - 1] == '\r')
			e--;
		line++;
		int m, cols;
		size_t i = match_ctrs(t, ls, e, st, depth, &m), j, k;
		int blank = blank_from(t, i, e);
		if (html_end) {
			if (line_has(t, ls, e, html_end))
				html_end = NULL;
			goto next;
		}
		if (fence_depth >= 0) {
			if (m >= fence_depth) {
				j = indent_of(t, i, e, &cols);
				size_t r = j;
				while (r < e && t[r] == fch)
					r++;
				if (cols <= 3 && (int)(r - j) >= flen && blank_from(t, r, e))
					fence_depth = -1;
				goto next;
			}
			fence_depth = -1; /* its container ended */
		}
		if (m < depth) {
			if (!(in_para && !blank && !starts_block(c, t, i, e)))
				depth = m; /* else a lazy continuation line */
		}
		if (blank) {
			in_para = 0;
			goto next;
		}
		/* new containers */
		while (depth < MAX_DEPTH) {
			j = indent_of(t, i, e, &cols);
			if (cols > 3 || j >= e)
				break;
			if (t[j] == '>') {
				st[depth++] = (struct ctr){1, 0};
				i = j + 1;
				if (i < e && (t[i] == ' ' || t[i] == '\t'))
					i++;
				in_para = 0;
				continue;
			}
			if (list_marker(t, j, e, in_para, &k)) {
				int w = cols + (int)(k - j), sp;
				size_t a = indent_of(t, k, e, &sp);
				if (a >= e || sp > 4) {
					w += 1;
					i = k < e ? k + 1 : k;
				} else {
					w += sp;
					i = a;
				}
				st[depth++] = (struct ctr){0, w};
				in_para = 0;
				continue;
			}
			if (!in_para && t[j] == '[' && j + 1 < e && t[j + 1] == '^') {
				const char *rb = memchr(t + j, ']', e - j);
				if (rb && (size_t)(rb - t) + 1 < e && rb[1] == ':') {
					st[depth++] = (struct ctr){0, 4};
					i = indent_of(t, (size_t)(rb - t) + 2, e, &cols);
					continue;
				}
			}
			break;
		}
		j = indent_of(t, i, e, &cols);
		if (j >= e) {
			in_para = 0;
			goto next;
		}
		if (cols > 3)
			goto next; /* indented code, or a paragraph's line */
		if ((t[j] == '`' || t[j] == '~') && j + 2 < e && t[j + 1] == t[j] && t[j + 2] == t[j]) {
			size_t r = j;
			while (r < e && t[r] == t[j])
				r++;
			if (t[j] == '~' || !memchr(t + r, '`', e - r)) {
				fence_depth = depth;
				fch = t[j];
				flen = (int)(r - j);
				in_para = 0;
				goto next;
			}
		}
		if (t[j] == '<' && (html_end = html_opens(t, j, e)) != NULL) {
			in_para = 0;
			goto next;
		}
		char c1 = opener(c, t, j, e);
		if (c1) {
			char c0 = c1 == '$' ? '$' : MD_BSENT;
			size_t q = j, close = find_dd(t, q + 2, e, c0, c1);
			int col = (int)(q - ls) + 1;
			buf_reset(&tex);
			if (close < e) {
				if (blank_from(t, q + 2, close)) { /* "$$$$": text */
					in_para = 1;
					goto next;
				}
				buf_append(&tex, t + q + 2, close - q - 2);
				add_block(c, bs, nb, &cap, &tex, line, col, t + close + 2, e - close - 2, line);
				buf_append(out, t + copied, q - copied);
				put_marker(out, *nb - 1);
				buf_puts(out, "</pre>");
				copied = e;
				in_para = 0;
				goto next;
			}
			/* on the lines below, to the next $$ */
			buf_append(&tex, t + q + 2, e - q - 2);
			size_t l2 = next, e2 = e, n2 = next;
			int line2 = line, found = 0;
			while (l2 < len) {
				const char *nl2 = memchr(t + l2, '\n', len - l2);
				e2 = nl2 ? (size_t)(nl2 - t) : len;
				n2 = nl2 ? e2 + 1 : len;
				if (e2 > l2 && t[e2 - 1] == '\r')
					e2--;
				line2++;
				int m2;
				size_t i2 = match_ctrs(t, l2, e2, st, depth, &m2);
				size_t cl = find_dd(t, i2, e2, c0, c1);
				buf_putc(&tex, '\n');
				buf_append(&tex, t + i2, cl - i2);
				if (cl < e2) {
					add_block(c, bs, nb, &cap, &tex, line, col, t + cl + 2, e2 - cl - 2, line2);
					found = 1;
					break;
				}
				l2 = n2;
			}
			if (!found) {
				struct diag_loc loc = diag_src_at(&c->in, line, col);
				if (c->d)
					diag_error(c->d, &loc, c1 == '$' ? "display math: no closing $$ below this one"
					                                 : "display math: no closing \\] below this one");
				c->errors++;
				break; /* no "$$" below: nothing more to find */
			}
			buf_append(out, t + copied, q - copied);
			put_marker(out, *nb - 1);
			for (int l = line + 1; l < line2; l++)
				put_cont(out, t + ls, q - ls, ".");
			put_cont(out, t + ls, q - ls, "</pre>");
			copied = e2;
			line = line2;
			in_para = 0;
			ls = n2;
			continue;
		}
		in_para = t[j] != '#';
	next:
		ls = next;
	}
	buf_fini(&tex);
	if (!*nb)
		return 0;
	buf_append(out, t + copied, len - copied);
	return 1;
}
