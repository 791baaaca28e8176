/* text.c: the plain text of nodes and of raw HTML, as a reader sees it:
 * for the summary, the headings' ids and the counts. */
#include "internal.h"

#include <string.h>
#include <strings.h>

/* houdini.h (an internal header of cmark-gfm, see markdown.c): HTML entity decoding. */
#include <cmark-gfm/buffer.h>
#include <cmark-gfm/houdini.h>

static const char *const INLINE_TAGS[] = {"a",    "abbr", "b",    "bdi",  "bdo",   "cite", "code",
                                          "data", "del",  "dfn",  "em",   "i",     "ins",  "kbd",
                                          "mark", "q",    "s",    "samp", "small", "span", "strong",
                                          "sub",  "sup",  "time", "u",    "var",   NULL};

static int is_inline_tag(const char *name, size_t n)
{
	for (int i = 0; INLINE_TAGS[i]; i++)
		if (strlen(INLINE_TAGS[i]) == n && strncasecmp(INLINE_TAGS[i], name, n) == 0)
			return 1;
	return 0;
}


static int is_alpha(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* sink_decoded: gives s[0..n) to the sink with HTML entities decoded. */
static void sink_decoded(md_text_sink sink, void *ctx, const char *s, size_t n)
{
	if (!memchr(s, '&', n)) {
		sink(ctx, s, n);
		return;
	}
	cmark_strbuf b = CMARK_BUF_INIT(cmark_get_default_mem_allocator());
	if (houdini_unescape_html(&b, (const uint8_t *)s, (bufsize_t)n))
		sink(ctx, (const char *)b.ptr, (size_t)b.size);
	else
		sink(ctx, s, n);
	cmark_strbuf_free(&b);
}

/* md_html_text: the text of raw HTML s[0..n) to the sink: tags and comments
 * dropped (each tag but the inline ones is a word break), the content of
 * script and style dropped, entities decoded. Counts <img> tags in *images
 * (if not NULL). Linear: every search moves forward from where the last
 * ended. */
void md_html_text(const char *s, size_t n, md_text_sink sink, void *ctx, size_t *images)
{
	size_t i = 0;
	while (i < n) {
		if (s[i] != '<') {
			const char *lt = memchr(s + i, '<', n - i);
			size_t end = lt ? (size_t)(lt - s) : n;
			sink_decoded(sink, ctx, s + i, end - i);
			i = end;
			continue;
		}
		if (n - i >= 4 && memcmp(s + i, "<!--", 4) == 0) {
			const char *e = memmem(s + i + 4, n - i - 4, "-->", 3);
			i = e ? (size_t)(e - s) + 3 : n;
			continue;
		}
		size_t j = i + 1;
		int closing = j < n && s[j] == '/';
		j += closing;
		if (j >= n || !(is_alpha((unsigned char)s[j]) || s[j] == '!' || s[j] == '?')) {
			sink(ctx, "<", 1); /* a lone '<' is text */
			i++;
			continue;
		}
		size_t name = j;
		while (j < n && (is_alpha((unsigned char)s[j]) || (s[j] >= '0' && s[j] <= '9') ||
		                 s[j] == '-'))
			j++;
		size_t name_len = j - name;
		char quote = 0;
		while (j < n && (quote || s[j] != '>')) {
			if (quote && s[j] == quote)
				quote = 0;
			else if (!quote && (s[j] == '"' || s[j] == '\''))
				quote = s[j];
			j++;
		}
		i = j < n ? j + 1 : n;
		if (!closing && images && name_len == 3 && strncasecmp(s + name, "img", 3) == 0)
			(*images)++;
		if (!is_inline_tag(s + name, name_len))
			sink(ctx, NULL, 0);
		if (!closing && ((name_len == 6 && strncasecmp(s + name, "script", 6) == 0) ||
		                 (name_len == 5 && strncasecmp(s + name, "style", 5) == 0))) {
			/* skip to the closing tag */
			while (i < n) {
				const char *lt = memchr(s + i, '<', n - i);
				if (!lt) {
					i = n;
					break;
				}
				i = (size_t)(lt - s);
				if (n - i >= 2 + name_len && s[i + 1] == '/' &&
				    strncasecmp(s + i + 2, s + name, name_len) == 0)
					break;
				i++;
			}
		}
	}
}

static void sink_buf(void *ctx, const char *p, size_t n)
{
	struct buf *b = ctx;
	if (p)
		buf_append(b, p, n);
	else
		buf_putc(b, ' ');
}



void md_plain_text(cmark_node *root, struct buf *b)
{
	md_plain_text_max(root, b, SIZE_MAX);
}

/* md_plain_text_max: what needs only the text's start (is there any, the
 * summary) does not walk a paragraph of a megabyte to its end. */
void md_plain_text_max(cmark_node *root, struct buf *b, size_t max)
{
	cmark_iter *it = cmark_iter_new(root);
	cmark_event_type ev;
	while (b->len <= max && (ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *n = cmark_iter_get_node(it);
		cmark_node_type t = cmark_node_get_type(n);
		if (md_math_kind(n)) {
			if (ev == CMARK_EVENT_ENTER) {
				struct str tex = md_tex(n);
				buf_append(b, tex.p, tex.len);
			}
			continue;
		}
		struct str lit;
		switch (t) {
		case CMARK_NODE_TEXT:
		case CMARK_NODE_CODE:
			lit = md_literal(n);
			buf_append(b, lit.p, lit.len);
			break;
		case CMARK_NODE_CODE_BLOCK:
			lit = md_literal(n);
			buf_putc(b, ' ');
			buf_append(b, lit.p, lit.len);
			buf_putc(b, ' ');
			break;
		case CMARK_NODE_HTML_BLOCK:
			lit = md_literal(n);
			buf_putc(b, ' ');
			md_html_text(lit.p, lit.len, sink_buf, b, NULL);
			buf_putc(b, ' ');
			break;
		case CMARK_NODE_SOFTBREAK:
		case CMARK_NODE_LINEBREAK: buf_putc(b, ' '); break;
		case CMARK_NODE_IMAGE:
		case CMARK_NODE_FOOTNOTE_REFERENCE:
			if (ev == CMARK_EVENT_ENTER)
				cmark_iter_reset(it, n, CMARK_EVENT_EXIT); /* skip the children */
			break;
		default:
			if (n != root && md_is_block(n))
				buf_putc(b, ' ');
			break;
		}
	}
	cmark_iter_free(it);
}


void md_fold_space(struct buf *out, const char *s, size_t n)
{
	int pending = 0;
	buf_reset(out);
	for (size_t i = 0; i < n; i++) {
		if (md_is_space((unsigned char)s[i])) {
			pending = out->len > 0;
			continue;
		}
		if (pending)
			buf_putc(out, ' ');
		pending = 0;
		buf_putc(out, s[i]);
	}
}
