/* markdown.c: Markdown to HTML on cmark-gfm: GFM extensions, the math
 * extension, heading ids and anchors, the table of contents, the summary,
 * word counts and reading time. */
#include "md/markdown.h"

#include "md/directive.h"
#include "internal.h"
#include "md/mdmem.h"
#include "base/hash.h"

#include <assert.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <utf8proc.h>

#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm-extension_api.h>
#include <cmark-gfm.h>
#include <cmark-gfm_version.h>

/* Internals. Besides its public API, this file uses headers of cmark-gfm's
 * that Debian's libcmark-gfm-dev installs under cmark-gfm/, so it is tied
 * to the version it was written against (checked below):
 *  - chunk.h: the layout of the text an inline parser works on, which
 *    cmark_inline_parser_get_chunk returns (the math scanner reads it);
 *  - render.h: struct cmark_html_renderer, whose `html` buffer an
 *    html_render_func writes to (the extensions in cmark-gfm do the same);
 *  - houdini.h: HTML entity decoding (plain text of raw HTML);
 *  - node.h and buffer.h: a formula's TeX is set straight into its node;
 *  - syntax_extension.h and inlines.h: to pin the special characters of the
 *    inline extensions once, at init (see pin_special_chars). */
#include <cmark-gfm/buffer.h>
#include <cmark-gfm/chunk.h>
#include <cmark-gfm/houdini.h>
#include <cmark-gfm/node.h>
#include <cmark-gfm/inlines.h>
#include <cmark-gfm/render.h>
#include <cmark-gfm/syntax_extension.h>

#if CMARK_GFM_VERSION != ((0 << 24) | (29 << 16) | (0 << 8) | 13)
#error                                                                                             \
    "markdown.c uses cmark-gfm 0.29.0.gfm.13 internals: check chunk.h, render.h and syntax_extension.h"
#endif

#define SUMMARY_MAX    300 /* code points of summary_text, the "…" included */
/* bytes of text in a first paragraph past which summary_html is the cut
 * summary_text, not the paragraph's HTML (see summary) */
#define SUMMARY_HTML_MAX (64 * 1024)
#define SUMMARY_BACKUP 30  /* a cut backs up to a space at most this many code points */

/* Set once by md_init_once, read-only afterwards (which is what makes
 * md_render thread-safe). */
static pthread_once_t md_once = PTHREAD_ONCE_INIT;
static cmark_syntax_extension *ext_table, *ext_strike, *ext_autolink, *ext_tasklist;
static cmark_syntax_extension *ext_math;    /* $...$ and $$...$$: parsed and rendered */
static cmark_syntax_extension *ext_heading; /* render-only: ids and anchors of headings */
static cmark_node_type node_math_inline, node_math_display;

/* ---- small helpers ---- */

static int is_space(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

/* literal: the text of a text, code, raw HTML or code block node, as cmark
 * keeps it (cmark_node_get_literal would first copy a text that points into
 * its paragraph, as most do, into a C string of its own). */
static struct str literal(cmark_node *n)
{
	const cmark_chunk *c = n->type == CMARK_NODE_CODE_BLOCK ? &n->as.code.literal : &n->as.literal;
	return (struct str){c->len ? (const char *)c->data : "", (size_t)c->len};
}

static int is_math(cmark_node *n)
{
	cmark_node_type t = cmark_node_get_type(n);
	return t == node_math_inline || t == node_math_display;
}

/* strbuf_put_html_text: appends s[0..n) to a cmark buffer with & < > "
 * escaped, as cmark escapes text. */
static void strbuf_put_html_text(cmark_strbuf *b, const char *s, size_t n)
{
	for (;;) {
		const char *rep;
		size_t run = html_esc_run(s, n, 0, &rep);
		cmark_strbuf_put(b, (const unsigned char *)s, (bufsize_t)run);
		if (run == n)
			break;
		cmark_strbuf_puts(b, rep);
		s += run + 1;
		n -= run + 1;
	}
}


static struct str arena_str(struct arena *a, const char *p, size_t n)
{
	return (struct str){arena_strndup(a, p, n), n};
}

/* ---- the math extension ----
 *
 * $...$ (inline) and $$...$$ (display) follow pandoc's tex_math_dollars: an
 * opening $ must be followed by a non-space, a closing $ preceded by a
 * non-space and not followed by a digit (so "$5 and $10" is text); inside,
 * a backslash protects the next character from closing the span ($a\$b$ is
 * one span). $$ display math may contain spaces and newlines anywhere and
 * needs one character at least; unlike pandoc, a backslash protects the next
 * character there too, as TeX reads \$ as a dollar. An unclosed $$ is the
 * text "$$". Math text reaches the output byte for byte: the span is taken
 * before emphasis, escapes or entities are looked at. Code spans come first
 * only when their backtick comes first, as everything in CommonMark.
 *
 * Cost: a scan stops at the first unescaped $ (inline) or $$ (display),
 * where the next scan, if any, begins; an unclosed $$ scans to the end of
 * its paragraph once, and what follows it holds no unescaped $$. So the
 * scans of a paragraph are linear in its length. */

/* scan_inline: s[pos] is the opening '$' (not followed by '$'). Returns the
 * index of the closing '$', or -1. */
static int scan_inline(const unsigned char *s, int n, int pos)
{
	int i = pos + 1;
	if (i >= n || is_space(s[i]))
		return -1;
	while (i < n) {
		unsigned char c = s[i];
		if (c == '\\') {
			i += 2;
		} else if (c == '$') {
			if (i + 1 < n && s[i + 1] >= '0' && s[i + 1] <= '9')
				return -1;
			return i;
		} else if (is_space(c)) {
			int newlines = 0;
			while (i < n && is_space(s[i]))
				newlines += s[i++] == '\n';
			if (newlines > 1 || (i < n && s[i] == '$'))
				return -1; /* a blank line, or a space before the closer */
		} else {
			i++;
		}
	}
	return -1;
}

/* scan_display: s[pos], s[pos+1] are the opening "$$". Returns the index of
 * the closing "$$", or -1. */
static int scan_display(const unsigned char *s, int n, int pos)
{
	int i = pos + 2;
	if (i >= n)
		return -1;
	i += s[i] == '\\' ? 2 : 1; /* at least one character of content */
	while (i + 1 < n) {
		if (s[i] == '\\')
			i += 2;
		else if (s[i] == '$' && s[i + 1] == '$')
			return i;
		else
			i++;
	}
	return -1;
}

/* md_math_pack: where a formula starts, relative to the document body (1-based
 * line and column), packed into a node's user data for error messages. The
 * line is exact; the column is exact on the container's first line and
 * counts from the container's text (after list or quote markers) below it. */
uintptr_t md_math_pack(int line, int col)
{
	return ((uintptr_t)(line > 0 ? line : 0) << 20) | (uintptr_t)(col > 0 && col < (1 << 20) ? col : 0);
}

void md_math_where(cmark_node *n, int *line, int *col)
{
	uintptr_t v = (uintptr_t)cmark_node_get_user_data(n);
	*line = (int)(v >> 20);
	*col = (int)(v & ((1u << 20) - 1));
}

int md_math_kind(cmark_node *n)
{
	cmark_node_type t = cmark_node_get_type(n);
	return t == node_math_inline ? 1 : t == node_math_display ? 2 : 0;
}

/* scan_bracket: s[pos] is a sentinel (MD_BSENT) before '(' or '['. Returns
 * the index of the sentinel of its closer (")" or "]"), or -1. */
static int scan_bracket(const unsigned char *s, int n, int pos)
{
	unsigned char want = s[pos + 1] == '(' ? ')' : ']';
	for (int i = pos + 2; i + 1 < n; i++)
		if (s[i] == MD_BSENT && s[i + 1] == want)
			return i;
	return -1;
}

/* sentinels_to_backslashes: TeX keeps its backslashes (md_math_sentinels). */
static void sentinels_to_backslashes(cmark_strbuf *t)
{
	for (bufsize_t i = 0; i < t->size; i++)
		if (t->ptr[i] == MD_BSENT)
			t->ptr[i] = '\\';
}

/* Whether $ is plain text in the document this thread parses
 * (math.delimiters without dollars). */
static _Thread_local int doc_no_dollars;

static cmark_node *math_match(cmark_syntax_extension *self, cmark_parser *parser,
                              cmark_node *parent, unsigned char c, cmark_inline_parser *ip)
{
	(void)parser;
	if ((c != '$' || doc_no_dollars) && c != MD_BSENT)
		return NULL;
	/* new nodes use the allocator of the document's parser */
	cmark_mem *mem = mdmem_current();
	struct cmark_chunk *chunk = cmark_inline_parser_get_chunk(ip);
	const unsigned char *s = chunk->data;
	int n = chunk->len;
	int pos = cmark_inline_parser_get_offset(ip);
	int display, end;
	if (c == MD_BSENT) {
		unsigned char b = pos + 1 < n ? s[pos + 1] : 0;
		display = b == '[';
		end = b == '(' || b == '[' ? scan_bracket(s, n, pos) : -1;
		if (end < 0) {
			/* the sentinel and its bracket as text (not a bracket
			 * that opens a link): the escape it was */
			cmark_node *text = cmark_node_new_with_mem(CMARK_NODE_TEXT, mem);
			char lit[3] = {(char)MD_BSENT, (char)b, 0};
			cmark_node_set_literal(text, b ? lit : "\\");
			cmark_inline_parser_set_offset(ip, pos + (b ? 2 : 1));
			return text;
		}
	} else {
		display = pos + 1 < n && s[pos + 1] == '$';
		end = display ? scan_display(s, n, pos) : scan_inline(s, n, pos);
		if (end < 0) {
			if (!display)
				return NULL; /* cmark makes the '$' text */
			cmark_node *text = cmark_node_new_with_mem(CMARK_NODE_TEXT, mem);
			cmark_node_set_literal(text, "$$");
			cmark_inline_parser_set_offset(ip, pos + 2);
			return text;
		}
	}
	int delim = display || c == MD_BSENT ? 2 : 1;
	cmark_node *node = cmark_node_new_with_mem_and_ext(
	    display ? node_math_display : node_math_inline, mem, self);
	/* the TeX, copied once (cmark_node_set_string_content wants a C
	 * string, which would be a second copy) */
	cmark_strbuf_set(&node->content, s + pos + delim, end - pos - delim);
	if (c == MD_BSENT)
		sentinels_to_backslashes(&node->content);
	/* The line: newlines before pos in the container's text. Counted on
	 * from the last formula of the same text, so a paragraph of many
	 * formulas costs one pass, not one per formula. */
	static _Thread_local struct {
		const unsigned char *data;
		int pos, lines, last_nl;
	} seen;
	if (seen.data != s || seen.pos > pos) {
		seen.data = s;
		seen.pos = 0;
		seen.lines = 0;
		seen.last_nl = -1;
	}
	for (int i = seen.pos; i < pos; i++)
		if (s[i] == '\n') {
			seen.lines++;
			seen.last_nl = i;
		}
	seen.pos = pos;
	int line = cmark_node_get_start_line(parent) + seen.lines;
	/* an ATX heading's text starts after its "## " (internal_offset) */
	int col = seen.last_nl < 0 ? cmark_node_get_start_column(parent) + parent->internal_offset + pos
	                           : pos - seen.last_nl;
	cmark_node_set_user_data(node, (void *)md_math_pack(line, col));
	cmark_inline_parser_set_offset(ip, end + delim);
	return node;
}

static const char *math_type_string(cmark_syntax_extension *ext, cmark_node *node)
{
	(void)ext;
	return cmark_node_get_type(node) == node_math_display ? "math_display" : "math_inline";
}

static int math_can_contain(cmark_syntax_extension *ext, cmark_node *node, cmark_node_type child)
{
	(void)ext;
	(void)node;
	(void)child;
	return 0;
}

static void math_html(cmark_syntax_extension *ext, struct cmark_html_renderer *r, cmark_node *node,
                      cmark_event_type ev, int options)
{
	(void)ext;
	(void)options;
	if (ev != CMARK_EVENT_ENTER)
		return;
	const char *tex = cmark_node_get_string_content(node);
	cmark_strbuf_puts(r->html, cmark_node_get_type(node) == node_math_display
	                               ? "<span class=\"math display\">"
	                               : "<span class=\"math inline\">");
	strbuf_put_html_text(r->html, tex, strlen(tex));
	cmark_strbuf_puts(r->html, "</span>");
}

/* ---- headings ----
 *
 * How headings get their id and anchor: after parsing, each heading node is
 * handed to the render-only extension ext_heading (its id in the node's user
 * data). cmark's HTML renderer gives a node that has an extension to that
 * extension's html_render_func, which writes the opening tag with the id and,
 * on exit, the anchor and the closing tag; the content in between is still
 * rendered by cmark. So the body is rendered in one pass by cmark itself
 * (footnotes, tables and tasklists included), nothing is rendered twice, and
 * no HTML is patched after the fact. */

static const char *heading_type_string(cmark_syntax_extension *ext, cmark_node *node)
{
	(void)ext;
	(void)node;
	return "heading";
}

static int heading_can_contain(cmark_syntax_extension *ext, cmark_node *node, cmark_node_type child)
{
	(void)ext;
	(void)node;
	return (child & CMARK_NODE_TYPE_MASK) == CMARK_NODE_TYPE_INLINE;
}

/* The heading links' label in the document this thread renders (the
 * site's language; md_options' labels). */
static _Thread_local const char *doc_heading_label;

static void heading_html(cmark_syntax_extension *ext, struct cmark_html_renderer *r,
                         cmark_node *node, cmark_event_type ev, int options)
{
	(void)ext;
	(void)options;
	const char *id = cmark_node_get_user_data(node);
	/* cmark keeps a heading's level within 1..6 */
	char digit = (char)('0' + cmark_node_get_heading_level(node));
	if (ev == CMARK_EVENT_ENTER) {
		if (r->html->size && r->html->ptr[r->html->size - 1] != '\n')
			cmark_strbuf_putc(r->html, '\n');
		cmark_strbuf_put(r->html, (const unsigned char *)"<h", 2);
		cmark_strbuf_putc(r->html, digit);
		cmark_strbuf_put(r->html, (const unsigned char *)" id=\"", 5);
		strbuf_put_html_text(r->html, id, strlen(id));
		cmark_strbuf_put(r->html, (const unsigned char *)"\">", 2);
	} else {
		static const char anchor[] = " <a class=\"anchor\" href=\"#";
		static const char label[] = "\" aria-label=\"";
		static const char close[] = "\">#</a></h";
		const char *words = doc_heading_label ? doc_heading_label : "Link to this section";
		cmark_strbuf_put(r->html, (const unsigned char *)anchor, sizeof anchor - 1);
		strbuf_put_html_text(r->html, id, strlen(id));
		cmark_strbuf_put(r->html, (const unsigned char *)label, sizeof label - 1);
		strbuf_put_html_text(r->html, words, strlen(words));
		cmark_strbuf_put(r->html, (const unsigned char *)close, sizeof close - 1);
		cmark_strbuf_putc(r->html, digit);
		cmark_strbuf_put(r->html, (const unsigned char *)">\n", 2);
	}
}

/* ---- init ---- */

/* Special characters, and why they are set once here.
 *
 * cmark_parser_finish marks the special characters of each attached inline
 * extension ('~' of strikethrough, ':' and 'w' of autolink, '$' of math) in
 * a process-wide table before it parses inlines, and unmarks them after. Two
 * documents finishing at once race: one unmarks '~' or '$' while the other
 * is still parsing, which then misses a strikethrough or a formula (4 threads
 * rendering one document with stock cmark-gfm gave 62 wrong pages out of
 * 200). So md_init marks them once and for all, and leaves the extensions
 * nothing to mark or unmark:
 *  - autolink and math find their characters with match_inline alone: their
 *    lists are emptied (pin_special_chars).
 *  - strikethrough also needs its character in its list, where the inline
 *    parser looks up which extension closes a run of delimiters. Its list
 *    becomes the one byte STRIKE_DELIM, which cannot occur in a document
 *    (cmark replaces NUL bytes with U+FFFD), and strike_match gives the
 *    delimiters it pushes that byte instead of '~'. Its "emphasis" flag (a
 *    '~' is transparent when flanking '*' and '_' are looked at) is pinned
 *    the same way and cleared on the extension.
 * So finishing a parse changes no entry of the tables that a parse reads
 * (it still sets and clears the entry of STRIKE_DELIM, which no parse looks
 * at): md_render is thread-safe. Parsers with math off see '$' special too,
 * which only splits a text node that cmark merges back: the HTML is the
 * same. These changes to the strikethrough and autolink extensions hold for
 * the whole process. */
#define STRIKE_DELIM 0

static cmark_match_inline_func strike_match_orig;

static cmark_node *strike_match(cmark_syntax_extension *self, cmark_parser *parser,
                                cmark_node *parent, unsigned char c, cmark_inline_parser *ip)
{
	cmark_node *res = strike_match_orig(self, parser, parent, c, ip);
	delimiter *d = cmark_inline_parser_get_last_delimiter(ip);
	if (res && d && d->inl_text == res && d->delim_char == '~')
		d->delim_char = STRIKE_DELIM;
	return res;
}

/* Autolink's postprocessing walks the whole tree once more (after
 * consolidating its text again) to turn e-mail addresses in text into
 * links; URLs and www. are matched inline. Every address has an '@', which
 * the text of a document has as itself, or as a numeric reference (&#64;)
 * or the entity &commat;. A document with none of them is left as it is:
 * the walk would change nothing (1 MiB of emphasis: 14% of its build). */
static cmark_postprocess_func autolink_post_orig;
static _Thread_local int doc_may_hold_at;

static cmark_node *autolink_post(cmark_syntax_extension *ext, cmark_parser *parser, cmark_node *root)
{
	return doc_may_hold_at ? autolink_post_orig(ext, parser, root) : root;
}

static int may_hold_at(const char *text, size_t len)
{
	return memchr(text, '@', len) || memmem(text, len, "&#", 2) || memmem(text, len, "&commat;", 8);
}

/* pin_special_chars: marks ext's special characters for good and takes
 * them off ext (the list, which nothing reads again, is freed). */
static void pin_special_chars(cmark_syntax_extension *ext)
{
	for (cmark_llist *l = ext->special_inline_chars; l; l = l->next)
		cmark_inlines_add_special_character((unsigned char)(uintptr_t)l->data,
		                                    ext->emphasis);
	cmark_llist_free(cmark_get_default_mem_allocator(), ext->special_inline_chars);
	ext->special_inline_chars = NULL;
}

static void wc_init(void);

static void md_init_once(void)
{
	wc_init();
	cmark_gfm_core_extensions_ensure_registered();
	ext_table = cmark_find_syntax_extension("table");
	ext_strike = cmark_find_syntax_extension("strikethrough");
	ext_autolink = cmark_find_syntax_extension("autolink");
	ext_tasklist = cmark_find_syntax_extension("tasklist");
	assert(ext_table && ext_strike && ext_autolink && ext_tasklist);

	node_math_inline = cmark_syntax_extension_add_node(1);
	node_math_display = cmark_syntax_extension_add_node(1);
	ext_math = cmark_syntax_extension_new("folio-math");
	cmark_syntax_extension_set_match_inline_func(ext_math, math_match);
	cmark_syntax_extension_set_special_inline_chars(
	    ext_math, cmark_llist_append(cmark_get_default_mem_allocator(),
	                                 cmark_llist_append(cmark_get_default_mem_allocator(), NULL,
	                                                    (void *)(uintptr_t)'$'),
	                                 (void *)(uintptr_t)MD_BSENT));
	cmark_syntax_extension_set_get_type_string_func(ext_math, math_type_string);
	cmark_syntax_extension_set_can_contain_func(ext_math, math_can_contain);
	cmark_syntax_extension_set_html_render_func(ext_math, math_html);

	ext_heading = cmark_syntax_extension_new("folio-heading");
	cmark_syntax_extension_set_get_type_string_func(ext_heading, heading_type_string);
	cmark_syntax_extension_set_can_contain_func(ext_heading, heading_can_contain);
	cmark_syntax_extension_set_html_render_func(ext_heading, heading_html);

	pin_special_chars(ext_autolink);
	pin_special_chars(ext_math);
	pin_special_chars(ext_strike);
	cmark_syntax_extension_set_special_inline_chars(
	    ext_strike, cmark_llist_append(cmark_get_default_mem_allocator(), NULL,
	                                   (void *)(uintptr_t)STRIKE_DELIM));
	cmark_syntax_extension_set_emphasis(ext_strike, 0);
	strike_match_orig = ext_strike->match_inline;
	cmark_syntax_extension_set_match_inline_func(ext_strike, strike_match);
	autolink_post_orig = ext_autolink->postprocess_func;
	assert(autolink_post_orig);
	cmark_syntax_extension_set_postprocess_func(ext_autolink, autolink_post);
}

void md_init(void)
{
	pthread_once(&md_once, md_init_once);
}

/* ---- plain text ---- */

/* A sink for text: p[0..n), or a break between words when p is NULL. */
typedef void (*text_sink)(void *ctx, const char *p, size_t n);

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
static void sink_decoded(text_sink sink, void *ctx, const char *s, size_t n)
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

/* html_text: the text of raw HTML s[0..n) to the sink: tags and comments
 * dropped (each tag but the inline ones is a word break), the content of
 * script and style dropped, entities decoded. Counts <img> tags in *images
 * (if not NULL). Linear: every search moves forward from where the last
 * ended. */
static void html_text(const char *s, size_t n, text_sink sink, void *ctx, size_t *images)
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

static int is_block(cmark_node *n)
{
	return (cmark_node_get_type(n) & CMARK_NODE_TYPE_MASK) == CMARK_NODE_TYPE_BLOCK;
}

/* plain_text: appends the text of the tree under root to b: text, code
 * and math as written, a space for each line break and between blocks,
 * code blocks' text, raw HTML without its tags. Images (their alt text) and
 * footnote references are left out. Not folded: see fold_space. */
static void plain_text_max(cmark_node *root, struct buf *b, size_t max);

static void plain_text(cmark_node *root, struct buf *b)
{
	plain_text_max(root, b, SIZE_MAX);
}

/* plain_text_max: the same, stopping once b holds more than max bytes:
 * what needs only the text's start (is there any, the summary) does not
 * walk a paragraph of a megabyte to its end. */
static void plain_text_max(cmark_node *root, struct buf *b, size_t max)
{
	cmark_iter *it = cmark_iter_new(root);
	cmark_event_type ev;
	while (b->len <= max && (ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *n = cmark_iter_get_node(it);
		cmark_node_type t = cmark_node_get_type(n);
		if (is_math(n)) {
			if (ev == CMARK_EVENT_ENTER)
				buf_puts(b, cmark_node_get_string_content(n));
			continue;
		}
		struct str lit;
		switch (t) {
		case CMARK_NODE_TEXT:
		case CMARK_NODE_CODE:
			lit = literal(n);
			buf_append(b, lit.p, lit.len);
			break;
		case CMARK_NODE_CODE_BLOCK:
			lit = literal(n);
			buf_putc(b, ' ');
			buf_append(b, lit.p, lit.len);
			buf_putc(b, ' ');
			break;
		case CMARK_NODE_HTML_BLOCK:
			lit = literal(n);
			buf_putc(b, ' ');
			html_text(lit.p, lit.len, sink_buf, b, NULL);
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
			if (n != root && is_block(n))
				buf_putc(b, ' ');
			break;
		}
	}
	cmark_iter_free(it);
}

void md_plain_text(cmark_node *n, struct buf *b)
{
	plain_text(n, b);
}

/* fold_space: s[0..n) with runs of whitespace made one space, trimmed, in
 * out (which it resets). */
static void fold_space(struct buf *out, const char *s, size_t n)
{
	int pending = 0;
	buf_reset(out);
	for (size_t i = 0; i < n; i++) {
		if (is_space((unsigned char)s[i])) {
			pending = out->len > 0;
			continue;
		}
		if (pending)
			buf_putc(out, ' ');
		pending = 0;
		buf_putc(out, s[i]);
	}
}

/* code_points: how many UTF-8 sequences s[0..n) starts. */
static size_t code_points(const char *s, size_t n)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		k += ((unsigned char)s[i] & 0xC0) != 0x80;
	return k;
}

/* cut_summary: s (folded, valid UTF-8) cut to SUMMARY_MAX code points at
 * most: if longer, cut at the last space before the limit (unless that is
 * more than SUMMARY_BACKUP code points back, as in CJK text), never inside
 * a UTF-8 sequence, and "…" appended. Owned by the arena. */
static struct str cut_summary(struct arena *a, const char *s, size_t n)
{
	size_t cps = 0, i, lim = n;
	for (i = 0; i < n; i++) {
		if (((unsigned char)s[i] & 0xC0) == 0x80)
			continue;
		if (cps == SUMMARY_MAX - 1 && lim == n)
			lim = i; /* s[0..lim) holds SUMMARY_MAX - 1 code points */
		cps++;
	}
	if (cps <= SUMMARY_MAX)
		return arena_str(a, s, n);
	size_t cut = lim;
	if (s[lim] != ' ') {
		size_t j = lim, back = 0;
		while (j > 0 && s[j - 1] != ' ' && back <= SUMMARY_BACKUP) {
			j--;
			back += ((unsigned char)s[j] & 0xC0) != 0x80;
		}
		if (j > 0 && s[j - 1] == ' ')
			cut = j - 1;
	}
	while (cut > 0 &&
	       (s[cut - 1] == ' ' || s[cut - 1] == ',' || s[cut - 1] == ';' || s[cut - 1] == ':'))
		cut--;
	char *p = arena_alloc(a, cut + sizeof "…");
	memcpy(p, s, cut);
	memcpy(p + cut, "…", sizeof "…");
	return (struct str){p, cut + sizeof "…" - 1};
}

/* ---- word counts ---- */

/* byte_class: for wc_feed, 0 for a space, 3 for a letter or digit, 1 for
 * any other ASCII character, 4 for a byte of a multibyte character (md_init
 * fills it). */
static unsigned char byte_class[256];

static void wc_init(void)
{
	for (int c = 0; c < 256; c++) {
		unsigned char u = (unsigned char)c;
		byte_class[c] = c >= 0x80 ? 4 : is_space(u) ? 0 : (u >= '0' && u <= '9') || is_alpha(u) ? 3 : 1;
	}
}

struct wc {
	size_t words, cjk;
	int in_word, alnum;
	int prose; /* CJK characters are counted apart and break words */
};

static void wc_break(struct wc *w)
{
	if (w->in_word && w->alnum)
		w->words++;
	w->in_word = w->alnum = 0;
}

/* is_cjk: Han, Hiragana, Katakana and Hangul code points. */
static int is_cjk(int32_t c)
{
	return (c >= 0x1100 && c <= 0x11FF) || (c >= 0x2E80 && c <= 0x2FDF) || c == 0x3005 ||
	       c == 0x3007 || (c >= 0x3040 && c <= 0x30FF) || (c >= 0x3130 && c <= 0x318F) ||
	       (c >= 0x31F0 && c <= 0x31FF) || (c >= 0x3400 && c <= 0x4DBF) ||
	       (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0xA960 && c <= 0xA97F) ||
	       (c >= 0xAC00 && c <= 0xD7FF) || (c >= 0xF900 && c <= 0xFAFF) ||
	       (c >= 0xFF66 && c <= 0xFF9F) || (c >= 0x1B000 && c <= 0x1B16F) ||
	       (c >= 0x20000 && c <= 0x3FFFF);
}

/* wc_feed: a word is a run of non-space characters holding at least one
 * letter or digit (so "—" or "*" alone is not one). In prose, CJK
 * characters are counted one by one and end words, and CJK punctuation
 * ends words too. */
static void wc_feed(struct wc *w, const char *s, size_t n)
{
	const utf8proc_uint8_t *u = (const utf8proc_uint8_t *)s;
	size_t i = 0;
	while (i < n) {
		if (u[i] < 0x80) {
			/* a run of ASCII, the common case, by table */
			size_t words = w->words;
			int in = w->in_word, al = w->alnum;
			while (i < n) {
				unsigned k = byte_class[u[i]];
				if (k == 4)
					break;
				i++;
				if (!k) {
					words += (size_t)(in & al);
					in = al = 0;
					continue;
				}
				in = 1;
				al |= (int)(k >> 1);
				/* the rest of a word with a letter or digit tells
				 * nothing more: skip to its end */
				if (al)
					while (i < n && (byte_class[u[i]] & 1))
						i++;
			}
			w->words = words;
			w->in_word = in;
			w->alnum = al;
			continue;
		}
		utf8proc_int32_t cp;
		utf8proc_ssize_t k = utf8proc_iterate(u + i, (utf8proc_ssize_t)(n - i), &cp);
		if (k < 1) {
			w->in_word = 1;
			i++;
			continue;
		}
		i += (size_t)k;
		if (w->prose && is_cjk(cp)) {
			wc_break(w);
			w->cjk++;
			continue;
		}
		utf8proc_category_t cat = utf8proc_category(cp);
		if (cat == UTF8PROC_CATEGORY_ZS || cat == UTF8PROC_CATEGORY_ZL ||
		    cat == UTF8PROC_CATEGORY_ZP || (w->prose && cp >= 0x3000 && cp <= 0x303F)) {
			wc_break(w);
		} else {
			w->in_word = 1;
			if (cat >= UTF8PROC_CATEGORY_LU && cat <= UTF8PROC_CATEGORY_NO &&
			    !(cat >= UTF8PROC_CATEGORY_MN && cat <= UTF8PROC_CATEGORY_ME))
				w->alnum = 1;
		}
	}
}

static void sink_wc(void *ctx, const char *p, size_t n)
{
	if (p)
		wc_feed(ctx, p, n);
	else
		wc_break(ctx);
}

/* The counts of a document, made in md_blocks' walk (count_node), before
 * formulas become MathML: prose words (text, inline code and math, the
 * text of raw HTML; not image alt text), code words (code blocks), images
 * (Markdown images and <img> tags), CJK characters and math spans. */
struct counter {
	struct wc prose, code;
	struct md_doc *out;
	cmark_node *skip; /* nothing inside it counts, until its exit */
	int unnest;       /* also unnest_one each node (not on a thread of its own) */
};

static void unnest_one(cmark_node *n);

static void count_node(void *ctx, cmark_node *n, cmark_event_type ev)
{
	struct counter *k = ctx;
	struct md_doc *out = k->out;
	if (k->unnest && ev == CMARK_EVENT_ENTER)
		unnest_one(n);
	if (k->skip) {
		if (n == k->skip && ev == CMARK_EVENT_EXIT)
			k->skip = NULL;
		return;
	}
	if (is_math(n)) {
		if (ev == CMARK_EVENT_ENTER) {
			const char *tex = cmark_node_get_string_content(n);
			out->math_spans++;
			wc_feed(&k->prose, tex, strlen(tex));
		}
		return;
	}
	switch (cmark_node_get_type(n)) {
	case CMARK_NODE_TEXT:
	case CMARK_NODE_CODE: {
		struct str lit = literal(n);
		wc_feed(&k->prose, lit.p, lit.len);
		break;
	}
	case CMARK_NODE_CODE_BLOCK: {
		struct str lit = literal(n);
		wc_feed(&k->code, lit.p, lit.len);
		wc_break(&k->code);
		wc_break(&k->prose);
		break;
	}
	case CMARK_NODE_HTML_BLOCK: {
		struct str h = literal(n);
		wc_break(&k->prose);
		html_text(h.p, h.len, sink_wc, &k->prose, &out->images);
		wc_break(&k->prose);
		break;
	}
	case CMARK_NODE_HTML_INLINE: {
		/* one tag: <img> counts, <br> ends a word, <sub> does not
		 * (H<sub>2</sub>O is one word) */
		struct str h = literal(n);
		html_text(h.p, h.len, sink_wc, &k->prose, &out->images);
		break;
	}
	case CMARK_NODE_SOFTBREAK:
	case CMARK_NODE_LINEBREAK: wc_break(&k->prose); break;
	case CMARK_NODE_IMAGE:
		out->images++;
		wc_break(&k->prose);
		k->skip = n; /* alt text is not read */
		break;
	case CMARK_NODE_FOOTNOTE_REFERENCE:
		if (ev == CMARK_EVENT_ENTER)
			k->skip = n;
		break;
	default:
		if (is_block(n))
			wc_break(&k->prose);
		break;
	}
}

/* count_walk: the counts of a document (a struct count_job) on a thread
 * of its own; the iterator's memory is that thread's mdmem. */
struct count_job {
	cmark_node *root;
	struct counter *k;
};

static void *count_walk(void *arg)
{
	struct count_job *j = arg;
	mdmem_begin();
	cmark_iter *it = cmark_iter_new(j->root);
	cmark_event_type ev;
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE)
		count_node(j->k, cmark_iter_get_node(it), ev);
	cmark_iter_free(it);
	mdmem_end();
	return NULL;
}

static void count_end(struct counter *k)
{
	wc_break(&k->prose);
	k->out->words = k->prose.words;
	k->out->cjk_chars = k->prose.cjk;
	k->out->code_words = k->code.words;
}

/* md_reading_minutes: the weights: prose at wpm words a minute, code at a
 * third of that (code is read token by token, and a whitespace-separated
 * token of code holds several of them), 12 seconds for each image, CJK text
 * at 500 characters a minute. Rounded to the nearest minute, at least 1. */
int md_reading_minutes(const struct md_doc *doc, int wpm)
{
	if (wpm <= 0)
		wpm = 230;
	double seconds = (double)doc->words * 60.0 / wpm +
	                 (double)doc->code_words * 60.0 * 3.0 / wpm + (double)doc->images * 12.0 +
	                 (double)doc->cjk_chars * 60.0 / 500.0;
	double minutes = seconds / 60.0 + 0.5;
	if (minutes < 1.0)
		return 1;
	if (minutes > 1e6)
		return 1000000;
	return (int)minutes;
}

/* ---- slugs and ids ---- */

void md_slugify(struct buf *b, struct str text)
{
	const utf8proc_uint8_t *u = (const utf8proc_uint8_t *)text.p;
	size_t start = b->len, i = 0;
	int word = 0; /* the slug has a letter, digit or '_' */
	while (i < text.len) {
		utf8proc_int32_t cp;
		utf8proc_ssize_t k = utf8proc_iterate(u + i, (utf8proc_ssize_t)(text.len - i), &cp);
		if (k < 1) {
			i++; /* not UTF-8: dropped */
			continue;
		}
		i += (size_t)k;
		if (cp == ' ' || cp == '-') {
			buf_putc(b, '-');
			continue;
		}
		utf8proc_category_t cat = utf8proc_category(cp);
		/* GitHub keeps letters, marks, numbers and connector punctuation
		 * ('_' and its kin) */
		if ((cat >= UTF8PROC_CATEGORY_LU && cat <= UTF8PROC_CATEGORY_NO) ||
		    cat == UTF8PROC_CATEGORY_PC) {
			utf8proc_uint8_t enc[4];
			utf8proc_ssize_t m = utf8proc_encode_char(utf8proc_tolower(cp), enc);
			buf_append(b, enc, (size_t)m);
			word = 1;
		}
	}
	if (!word) {
		b->len = start;
		buf_puts(b, "section");
	}
}

/* ---- rendering one document ---- */

struct heading {
	cmark_node *node;
	int level;
	struct str custom; /* the {#id} given, or {NULL, 0} */
	struct str base;   /* else the slug of its text, before unique_id */
	struct str id, text, html;
};

/* The ids of one document's headings, as github-slugger keeps them, with
 * its counters: a slot per id taken as it is (a custom id, or the first
 * heading of a slug) and per slug asked for again, which counts how often
 * (see unique_id). The numbered ids unique_id makes ("intro-1") get no
 * slot: "B-N" is taken once B's counter reaches N. So 262,144 headings "# a"
 * make one slot, not a table of 262,144 ids that each new one is looked
 * up in (a cache miss each: a tenth of such a build). */
struct idslot {
	const char *key; /* NULL: a free slot */
	size_t len;
	uint32_t hash;
	uint32_t first;   /* 1 + the index of the heading that took it as it is; 0: none */
	uint32_t count;   /* times asked for as a slug again */
	uint32_t numbered; /* an id "KEY-N" (N a number) was taken as it is */
};

struct idmap {
	struct idslot *slots;
	size_t cap, n;
};

static struct idslot *idmap_find(const struct idmap *m, const char *key, size_t len, uint32_t h)
{
	size_t j = h & (m->cap - 1);
	while (m->slots[j].key &&
	       !(m->slots[j].hash == h && m->slots[j].len == len && memcmp(m->slots[j].key, key, len) == 0))
		j = (j + 1) & (m->cap - 1);
	return &m->slots[j];
}

/* idmap_get: the slot of key, or NULL. */
static struct idslot *idmap_get(const struct idmap *m, const char *key, size_t len)
{
	struct idslot *s = idmap_find(m, key, len, (uint32_t)hash_keyed(key, len));
	return s->key ? s : NULL;
}

/* idmap_add: the slot of key, made if need be (key must outlive the map);
 * a later add may move it. */
static struct idslot *idmap_add(struct idmap *m, const char *key, size_t len)
{
	if ((m->n + 1) * 2 > m->cap) {
		struct idmap g = {xcalloc(m->cap * 2, sizeof *g.slots), m->cap * 2, m->n};
		for (size_t i = 0; i < m->cap; i++)
			if (m->slots[i].key)
				*idmap_find(&g, m->slots[i].key, m->slots[i].len, m->slots[i].hash) = m->slots[i];
		free(m->slots);
		*m = g;
	}
	uint32_t h = (uint32_t)hash_keyed(key, len);
	struct idslot *s = idmap_find(m, key, len, h);
	if (!s->key) {
		*s = (struct idslot){key, len, h, 0, 0, 0};
		m->n++;
	}
	return s;
}

/* numbered: key is "B-N", N a number as unique_id writes them (no leading
 * zero, 1 to 2^32-1): B's length in *blen, N in *num. */
static int numbered(const char *key, size_t len, size_t *blen, uint32_t *num)
{
	size_t d = len;
	while (d > 0 && key[d - 1] >= '0' && key[d - 1] <= '9')
		d--;
	if (d == len || d < 1 || key[d - 1] != '-' || key[d] == '0' || len - d > 10)
		return 0;
	uint64_t v = 0;
	for (size_t i = d; i < len; i++)
		v = v * 10 + (uint64_t)(key[i] - '0');
	if (v > UINT32_MAX)
		return 0;
	*blen = d - 1;
	*num = (uint32_t)v;
	return 1;
}

/* id_taken: key is an id of the document already. */
static int id_taken(const struct idmap *m, const char *key, size_t len)
{
	const struct idslot *s = idmap_get(m, key, len);
	if (s && s->first)
		return 1;
	size_t blen;
	uint32_t num;
	if (!numbered(key, len, &blen, &num))
		return 0;
	s = idmap_get(m, key, blen);
	return s && s->count >= num;
}

/* id_take: heading index takes key as it is. */
static void id_take(struct idmap *m, const char *key, size_t len, size_t index)
{
	size_t blen;
	uint32_t num;
	if (numbered(key, len, &blen, &num))
		idmap_add(m, key, blen)->numbered = 1;
	idmap_add(m, key, len)->first = (uint32_t)index + 1;
}

struct mdr {
	struct arena *a;
	struct diag *d;
	struct diag_src in; /* the file and where the Markdown is in it */
	const char *text;
	size_t len;
	size_t *lines; /* start of each line of text, built on first use */
	size_t nlines;
	int errors;
	size_t summary_len; /* bytes of plain text in the summary's blocks, uncut */
};

/* line_starts: indexes the lines of the text as cmark counts them (\n,
 * \r\n or \r end a line). Once per document, and only for an error. */
static void line_starts(struct mdr *r)
{
	if (r->lines)
		return;
	size_t cap = 64;
	r->lines = xmalloc(cap * sizeof *r->lines);
	r->lines[r->nlines++] = 0;
	for (size_t i = 0; i < r->len; i++) {
		if (r->text[i] == '\r' && i + 1 < r->len && r->text[i + 1] == '\n')
			continue;
		if (r->text[i] != '\n' && r->text[i] != '\r')
			continue;
		if (r->nlines == cap) {
			cap *= 2;
			r->lines = xrealloc(r->lines, cap * sizeof *r->lines);
		}
		r->lines[r->nlines++] = i + 1;
	}
}

/* locate_custom_id: the position (in text) of "{#id}" in heading h's lines,
 * the last one: it is the trailing one. Falls back on the heading's start. */
static void locate_custom_id(struct mdr *r, cmark_node *h, struct str id, int *line, int *col)
{
	int first = cmark_node_get_start_line(h), last = cmark_node_get_end_line(h);
	*line = first;
	*col = cmark_node_get_start_column(h);
	line_starts(r);
	for (int l = last; l >= first && l >= 1; l--) {
		if ((size_t)l > r->nlines)
			continue;
		size_t s = r->lines[l - 1];
		size_t e = (size_t)l < r->nlines ? r->lines[l] : r->len;
		for (size_t k = e; k-- > s;) {
			if (r->text[k] == '{' && k + 3 + id.len <= e && r->text[k + 1] == '#' &&
			    memcmp(r->text + k + 2, id.p, id.len) == 0 &&
			    r->text[k + 2 + id.len] == '}') {
				*line = l;
				*col = (int)(k - s) + 1;
				return;
			}
		}
	}
}

/* take_custom_id: if heading h ends with "{#id}" (id: no space, no brace),
 * removes it (and the space before) from the heading and returns the id,
 * owned by the arena; else {NULL, 0}. */
static struct str take_custom_id(struct arena *a, cmark_node *h)
{
	struct str none = {NULL, 0};
	cmark_node *last = cmark_node_last_child(h);
	if (!last || cmark_node_get_type(last) != CMARK_NODE_TEXT)
		return none;
	struct str text = literal(last);
	const char *lit = text.p;
	size_t n = text.len;
	while (n && is_space((unsigned char)lit[n - 1]))
		n--;
	if (n < 4 || lit[n - 1] != '}')
		return none;
	size_t k = n - 1;
	while (k > 0 && lit[k - 1] != '{' && lit[k - 1] != '}' &&
	       !is_space((unsigned char)lit[k - 1]))
		k--;
	/* lit[k..n-1) is the candidate "#id" */
	if (k == 0 || lit[k - 1] != '{' || lit[k] != '#' || n - 1 - k < 2)
		return none;
	struct str id = arena_str(a, lit + k + 1, n - 2 - k);
	size_t keep = k - 1;
	while (keep && is_space((unsigned char)lit[keep - 1]))
		keep--;
	if (keep) {
		char *rest = xstrndup(lit, keep);
		cmark_node_set_literal(last, rest);
		free(rest);
	} else {
		cmark_node_free(last); /* unlinks it */
		/* a line break left at the end of a setext heading goes too */
		while ((last = cmark_node_last_child(h)) &&
		       (cmark_node_get_type(last) == CMARK_NODE_SOFTBREAK ||
		        cmark_node_get_type(last) == CMARK_NODE_LINEBREAK))
			cmark_node_free(last);
	}
	return id;
}

/* toc_html: the inline HTML of heading h's content for the table of
 * contents: like the body's, but links give only their text (a TOC entry is
 * a link itself, and links do not nest), and images and footnote references
 * are left out. Formulas are typeset as in the body (MathML), or their TeX
 * if they cannot be. */
static void toc_html(const struct md_options *o, cmark_node *h, struct buf *b)
{
	struct buf ms, merr;
	buf_init(&ms);
	buf_init(&merr);
	cmark_iter *it = cmark_iter_new(h);
	cmark_event_type ev;
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *n = cmark_iter_get_node(it);
		int enter = ev == CMARK_EVENT_ENTER;
		if (n == h)
			continue;
		if (is_math(n)) {
			if (enter) {
				const char *tex = cmark_node_get_string_content(n);
				int display = cmark_node_get_type(n) == node_math_display, pos = -1;
				buf_puts(b, display ? "<span class=\"math display\">" : "<span class=\"math inline\">");
				/* typeset as in the body (where an error is reported) */
				buf_reset(&ms);
				if (o->typeset && o->typeset(o->typeset_ctx, tex, strlen(tex), display, &ms, &merr, &pos) == 0)
					buf_append(b, ms.p ? ms.p : "", ms.len);
				else
					buf_put_html_text(b, tex, strlen(tex));
				buf_puts(b, "</span>");
			}
			continue;
		}
		if (cmark_node_get_syntax_extension(n) == ext_strike) {
			buf_puts(b, enter ? "<del>" : "</del>");
			continue;
		}
		struct str lit;
		switch (cmark_node_get_type(n)) {
		case CMARK_NODE_TEXT:
			lit = literal(n);
			buf_put_html_text(b, lit.p, lit.len);
			break;
		case CMARK_NODE_CODE:
			lit = literal(n);
			buf_puts(b, "<code>");
			buf_put_html_text(b, lit.p, lit.len);
			buf_puts(b, "</code>");
			break;
		case CMARK_NODE_HTML_INLINE:
			lit = literal(n);
			buf_append(b, lit.p, lit.len);
			break;
		case CMARK_NODE_SOFTBREAK:
		case CMARK_NODE_LINEBREAK: buf_putc(b, ' '); break;
		case CMARK_NODE_EMPH: buf_puts(b, enter ? "<em>" : "</em>"); break;
		case CMARK_NODE_STRONG: buf_puts(b, enter ? "<strong>" : "</strong>"); break;
		case CMARK_NODE_IMAGE:
		case CMARK_NODE_FOOTNOTE_REFERENCE:
			if (enter)
				cmark_iter_reset(it, n, CMARK_EVENT_EXIT);
			break;
		default: break;
		}
	}
	cmark_iter_free(it);
	buf_fini(&ms);
	buf_fini(&merr);
}

/* unique_id: GitHub's de-duplication (github-slugger): the first "intro"
 * stays, the next ones become "intro-1", "intro-2"..., skipping any id
 * already given. The base's counter makes it linear overall, and a
 * numbered id is looked up only if some heading took one of the base's
 * numbered ids as it is. */
static void unique_id(struct mdr *r, struct idmap *ids, struct buf *tmp, struct str base,
                      struct heading *hs, size_t index)
{
	if (!id_taken(ids, base.p, base.len)) {
		hs[index].id = base;
		id_take(ids, base.p, base.len, index);
		return;
	}
	struct idslot *s = idmap_add(ids, base.p, base.len);
	char num[24];
	for (;;) {
		s->count++;
		int k = (int)sizeof num;
		for (uint32_t c = s->count; c; c /= 10)
			num[--k] = (char)('0' + c % 10);
		buf_reset(tmp);
		buf_append(tmp, base.p, base.len);
		buf_putc(tmp, '-');
		buf_append(tmp, num + k, sizeof num - (size_t)k);
		/* below the counter it was not taken as a number; as it is only
		 * if the base says some numbered id was */
		const struct idslot *t = s->numbered ? idmap_get(ids, tmp->p, tmp->len) : NULL;
		if (!t || !t->first)
			break;
	}
	hs[index].id = arena_str(r->a, tmp->p, tmp->len);
}

/* assign_ids: the ids of all headings. Custom ids first, so that they are
 * stable: a heading whose slug collides with a custom id given later still
 * gets a suffix, not the custom one. A custom id given twice is an error. */
static void assign_ids(struct mdr *r, struct heading *hs, size_t n)
{
	struct idmap ids = {xcalloc(64, sizeof *ids.slots), 64, 0};
	struct buf tmp;
	buf_init(&tmp);
	for (size_t i = 0; i < n; i++) {
		if (!hs[i].custom.p)
			continue;
		hs[i].id = hs[i].custom;
		const struct idslot *s = idmap_get(&ids, hs[i].custom.p, hs[i].custom.len);
		if (s && s->first) {
			int line, col, first_line, first_col;
			if (r->d && diag_file_full(r->d, r->in.path)) {
				/* counted, not shown: no search of the lines for
				 * the place (100,000 duplicates of one long heading) */
				line = cmark_node_get_start_line(hs[i].node);
				col = cmark_node_get_start_column(hs[i].node);
				first_line = cmark_node_get_start_line(hs[s->first - 1].node);
			} else {
				locate_custom_id(r, hs[i].node, hs[i].custom, &line, &col);
				locate_custom_id(r, hs[s->first - 1].node, hs[i].custom, &first_line,
				                 &first_col);
			}
			struct diag_loc loc = diag_src_at(&r->in, line, col);
			if (r->d)
				diag_error(r->d, &loc,
				           "duplicate heading id '%.*s' (first used on line %d)",
				           STR_FMT(hs[i].custom), first_line + r->in.line_offset);
			r->errors++;
		} else {
			id_take(&ids, hs[i].custom.p, hs[i].custom.len, i);
		}
	}
	for (size_t i = 0; i < n; i++) {
		if (hs[i].custom.p)
			continue;
		unique_id(r, &ids, &tmp, hs[i].base, hs, i);
	}
	free(ids.slots);
	buf_fini(&tmp);
}

/* build_toc: nests the headings: each is a child of the nearest heading
 * before it with a lower level, so levels that skip (## then ####) still
 * nest, and a heading above all earlier levels starts a new top entry. */
static struct md_toc *build_toc(struct arena *a, const struct heading *hs, size_t n, size_t *ntop)
{
	*ntop = 0;
	if (!n)
		return NULL;
	struct md_toc *flat = xcalloc(n, sizeof *flat);
	size_t *parent = xmalloc(n * sizeof *parent), *stack = xmalloc(n * sizeof *stack);
	size_t *fill = xcalloc(n, sizeof *fill);
	size_t sp = 0, top = 0, filled = 0;
	for (size_t i = 0; i < n; i++) {
		flat[i].level = hs[i].level;
		flat[i].id = hs[i].id;
		flat[i].text = hs[i].text;
		flat[i].html = hs[i].html;
		while (sp && flat[stack[sp - 1]].level >= hs[i].level)
			sp--;
		parent[i] = sp ? stack[sp - 1] : SIZE_MAX;
		if (sp)
			flat[stack[sp - 1]].nchildren++;
		else
			top++;
		stack[sp++] = i;
	}
	for (size_t i = 0; i < n; i++)
		if (flat[i].nchildren)
			flat[i].children =
			    arena_alloc(a, flat[i].nchildren * sizeof *flat[i].children);
	/* copies share the children arrays, filled as later entries arrive */
	struct md_toc *tops = arena_alloc(a, top * sizeof *tops);
	for (size_t i = 0; i < n; i++) {
		if (parent[i] == SIZE_MAX)
			tops[filled++] = flat[i];
		else
			flat[parent[i]].children[fill[parent[i]]++] = flat[i];
	}
	free(flat);
	free(parent);
	free(stack);
	free(fill);
	*ntop = top;
	return tops;
}

/* is_more: the HTML block is a <!--more--> marker (spaces and case aside). */
static int is_more(cmark_node *n)
{
	const char *h = cmark_node_get_literal(n);
	struct str s = str_trim(str_from(h));
	if (s.len < 7 || memcmp(s.p, "<!--", 4) != 0 || memcmp(s.p + s.len - 3, "-->", 3) != 0)
		return 0;
	struct str inner = str_trim((struct str){s.p + 4, s.len - 7});
	return inner.len == 4 && strncasecmp(inner.p, "more", 4) == 0;
}

/* unnest_strong: cmark-gfm's HTML renderer writes no tags for a strong
 * emphasis directly inside another ("****foo****" gives one <strong>, as
 * GitHub shows it), where CommonMark nests them. Each such inner strong
 * becomes a custom inline that writes its tags itself (the tree's other
 * readers take it as a plain inline container). A strong opens with "**"
 * or "__": without either in the text, there is nothing to walk. */
static void unnest_one(cmark_node *n)
{
	if (cmark_node_get_type(n) != CMARK_NODE_STRONG || cmark_node_get_type(cmark_node_parent(n)) != CMARK_NODE_STRONG)
		return;
	/* entered before its children: a strong inside it has a custom
	 * parent, and keeps its own tags */
	cmark_node_set_type(n, CMARK_NODE_CUSTOM_INLINE);
	cmark_node_set_on_enter(n, "<strong>");
	cmark_node_set_on_exit(n, "</strong>");
}

/* unnest_strong: unnest_one over the tree, in a walk of its own (the
 * count walk does it, unless it runs beside the rendering). */
static void unnest_strong(cmark_node *root, const char *text, size_t len)
{
	if (!memmem(text, len, "**", 2) && !memmem(text, len, "__", 2))
		return;
	cmark_iter *it = cmark_iter_new(root);
	cmark_event_type ev;
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE)
		if (ev == CMARK_EVENT_ENTER)
			unnest_one(cmark_iter_get_node(it));
	cmark_iter_free(it);
}

static char *render_html(cmark_node *n, int options, cmark_llist *exts, size_t *len)
{
	char *html = cmark_render_html(n, options, exts);
	*len = strlen(html);
	return html;
}

/* summary: summary_html and summary_text from the top-level blocks before
 * the <!--more--> marker, else from the first paragraph that has text. Runs
 * after the body is rendered: it changes the tree, dropping footnote
 * references (they point into the post's page) and the ids of headings
 * (a list page shows several summaries). */
static void summary(struct mdr *r, cmark_node *root, cmark_node *more, cmark_node *first_para,
                    int options, struct md_doc *out)
{
	cmark_node *from, *to; /* blocks [from, to) */
	if (more) {
		from = cmark_node_first_child(root);
		to = more;
	} else if (first_para && r->summary_len > SUMMARY_HTML_MAX) {
		/* A first paragraph of a whole book is no summary: its HTML is
		 * the cut text, not a second copy of the page (rendered again,
		 * and kept twice in the cache). */
		struct buf html;
		buf_init(&html);
		buf_puts(&html, "<p>");
		buf_put_html_text(&html, out->summary_text.p, out->summary_text.len);
		buf_puts(&html, "</p>\n");
		out->summary_html = arena_str(r->a, html.p, html.len);
		buf_fini(&html);
		return;
	} else if (first_para) {
		from = first_para;
		to = cmark_node_next(first_para);
	} else {
		out->summary_html = out->summary_text = (struct str){"", 0};
		return;
	}
	cmark_node **drop = NULL;
	size_t ndrop = 0, cap = 0;
	for (cmark_node *b = from; b != to; b = cmark_node_next(b)) {
		cmark_iter *it = cmark_iter_new(b);
		cmark_event_type ev;
		while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
			cmark_node *n = cmark_iter_get_node(it);
			if (ev != CMARK_EVENT_ENTER)
				continue;
			if (cmark_node_get_type(n) == CMARK_NODE_HEADING)
				cmark_node_set_syntax_extension(n, NULL);
			if (cmark_node_get_type(n) == CMARK_NODE_FOOTNOTE_REFERENCE) {
				if (ndrop == cap) {
					cap = cap ? cap * 2 : 8;
					drop = xrealloc(drop, cap * sizeof *drop);
				}
				drop[ndrop++] = n;
			}
		}
		cmark_iter_free(it);
	}
	for (size_t i = 0; i < ndrop; i++)
		cmark_node_free(drop[i]);
	free(drop);

	struct buf html;
	buf_init(&html);
	for (cmark_node *b = from; b != to; b = cmark_node_next(b)) {
		size_t n;
		char *h = render_html(b, options, NULL, &n);
		buf_append(&html, h, n);
		mdmem_current()->free(h);
	}
	out->summary_html = arena_str(r->a, html.p ? html.p : "", html.len);
	buf_fini(&html);
}

/* summary_text: the plain text of the summary's blocks, taken before the
 * block passes turn formulas into MathML (as text, a formula is its TeX). */
static void summary_text(struct mdr *r, cmark_node *root, cmark_node *more, cmark_node *first_para,
                         struct md_doc *out)
{
	cmark_node *from = more ? cmark_node_first_child(root) : first_para;
	cmark_node *to = more ? more : first_para ? cmark_node_next(first_para) : NULL;
	struct buf text, folded;
	buf_init(&text);
	buf_init(&folded);
	/* the text's start is enough: whether it is longer than
	 * SUMMARY_HTML_MAX, and its first SUMMARY_MAX code points, unless
	 * folding spaces left fewer of them (then the whole text) */
	for (size_t max = SUMMARY_HTML_MAX;; max = SIZE_MAX) {
		buf_reset(&text);
		for (cmark_node *b = from; b && b != to && text.len <= max; b = cmark_node_next(b)) {
			plain_text_max(b, &text, max);
			buf_putc(&text, ' ');
		}
		fold_space(&folded, text.p ? text.p : "", text.len);
		if (text.len <= max || max == SIZE_MAX || code_points(folded.p, folded.len) > SUMMARY_MAX)
			break;
	}
	r->summary_len = text.len;
	out->summary_text = cut_summary(r->a, folded.p ? folded.p : "", folded.len);
	buf_fini(&text);
	buf_fini(&folded);
}

/* ---- display math blocks ----
 *
 * mathblocks.c finds the $$ blocks before parsing and leaves a raw HTML
 * block <pre data-folio-math="K"> for each; here each becomes a paragraph
 * that holds one display formula, as "$$...$$" alone in a paragraph always
 * was, so that the counts, the summary and typesetting treat it the same.
 * A raw HTML line just above a block (which an HTML block would run on
 * from) is split off. A fenced code block whose info string is "math" is
 * display math too. */

static const char MATH_MARK[] = "<pre data-folio-math=\"";

static cmark_node *math_para(cmark_mem *mem, const char *tex, size_t n, int line, int col)
{
	cmark_node *p = cmark_node_new_with_mem(CMARK_NODE_PARAGRAPH, mem);
	cmark_node *m = cmark_node_new_with_mem_and_ext(node_math_display, mem, ext_math);
	cmark_strbuf_set(&m->content, (const unsigned char *)tex, (bufsize_t)n);
	cmark_node_set_user_data(m, (void *)md_math_pack(line, col));
	cmark_node_append_child(p, m);
	p->start_line = p->end_line = line;
	p->start_column = col;
	return p;
}

static void html_block_before(cmark_mem *mem, cmark_node *n, const char *s, size_t len)
{
	size_t i = 0;
	while (i < len && is_space((unsigned char)s[i]))
		i++;
	if (i == len)
		return;
	cmark_node *h = cmark_node_new_with_mem(CMARK_NODE_HTML_BLOCK, mem);
	char *lit = xstrndup(s, len);
	cmark_node_set_literal(h, lit);
	free(lit);
	cmark_node_insert_before(n, h);
}

/* after_blocks: the text after a block's closing $$, parsed on its own
 * (on its line of the body, for positions), its blocks put before n. */
static void after_blocks(cmark_parser *like, int options, const struct md_mblock *b, cmark_node *n)
{
	cmark_mem *mem = mdmem_current();
	cmark_parser *p = cmark_parser_new_with_mem(options, mem);
	for (cmark_llist *l = cmark_parser_get_syntax_extensions(like); l; l = l->next)
		cmark_parser_attach_syntax_extension(p, l->data);
	cmark_parser_feed(p, b->after, b->after_len);
	cmark_node *root = cmark_parser_finish(p), *c;
	/* its lines count from the block's closing line (not by feeding as
	 * many newlines first: a line of a thousand "$$a $$" would be
	 * quadratic) */
	cmark_iter *it = cmark_iter_new(root);
	cmark_event_type ev;
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE)
		if (ev == CMARK_EVENT_ENTER) {
			cmark_node *x = cmark_iter_get_node(it);
			x->start_line += b->after_line - 1;
			x->end_line += b->after_line - 1;
		}
	cmark_iter_free(it);
	while ((c = cmark_node_first_child(root)) != NULL)
		cmark_node_insert_before(n, c);
	cmark_parser_free(p);
}

static int is_math_fence(cmark_node *n)
{
	const char *info = cmark_node_get_fence_info(n);
	int flen, foff;
	char fch;
	if (!info || !cmark_node_get_fenced(n, &flen, &foff, &fch))
		return 0;
	while (*info == ' ' || *info == '\t')
		info++;
	return strncmp(info, "math", 4) == 0 && (!info[4] || info[4] == ' ' || info[4] == '\t');
}

static void math_blocks_apply(cmark_parser *parser, int options, cmark_node *root, const struct md_mblock *bs,
                              size_t nb, int fences)
{
	cmark_mem *mem = mdmem_current();
	cmark_node **v = NULL;
	size_t n = 0, cap = 0;
	cmark_iter *it = cmark_iter_new(root);
	cmark_event_type ev;
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *x = cmark_iter_get_node(it);
		if (ev != CMARK_EVENT_ENTER)
			continue;
		cmark_node_type t = cmark_node_get_type(x);
		int take = 0;
		if (t == CMARK_NODE_PARAGRAPH || t == CMARK_NODE_HEADING ||
		    cmark_node_get_syntax_extension(x) == ext_table)
			cmark_iter_reset(it, x, CMARK_EVENT_EXIT);
		else if (t == CMARK_NODE_HTML_BLOCK)
			take = nb && memmem(literal(x).p, literal(x).len, MATH_MARK, sizeof MATH_MARK - 1);
		else if (t == CMARK_NODE_CODE_BLOCK)
			take = fences && is_math_fence(x);
		if (take) {
			if (n == cap) {
				cap = cap ? cap * 2 : 8;
				v = xrealloc(v, cap * sizeof *v);
			}
			v[n++] = x;
		}
	}
	cmark_iter_free(it);
	for (size_t i = 0; i < n; i++) {
		cmark_node *x = v[i];
		struct str lit = literal(x);
		if (cmark_node_get_type(x) == CMARK_NODE_CODE_BLOCK) {
			char *tex = xmalloc(lit.len + 1);
			tex[0] = '\n';
			memcpy(tex + 1, lit.p, lit.len);
			cmark_node_insert_before(x, math_para(mem, tex, lit.len + 1, cmark_node_get_start_line(x),
			                                      cmark_node_get_start_column(x)));
			free(tex);
			cmark_node_free(x);
			continue;
		}
		size_t pos = 0;
		const char *m;
		while ((m = memmem(lit.p + pos, lit.len - pos, MATH_MARK, sizeof MATH_MARK - 1)) != NULL) {
			size_t at = (size_t)(m - lit.p), ls = at;
			while (ls > pos && lit.p[ls - 1] != '\n')
				ls--;
			size_t k = 0, d = at + sizeof MATH_MARK - 1;
			while (d < lit.len && lit.p[d] >= '0' && lit.p[d] <= '9')
				k = k * 10 + (size_t)(lit.p[d++] - '0');
			const char *end = memmem(lit.p + at, lit.len - at, "</pre>", 6);
			if (k >= nb || !end) { /* not one of ours: left as HTML */
				pos = at + 1;
				continue;
			}
			html_block_before(mem, x, lit.p + pos, ls - pos);
			const struct md_mblock *b = &bs[k];
			cmark_node_insert_before(x, math_para(mem, b->tex, b->tex_len, b->line, b->col));
			if (b->after_len)
				after_blocks(parser, options, b, x);
			const char *nl = memchr(end, '\n', (size_t)(lit.p + lit.len - end));
			pos = nl ? (size_t)(nl - lit.p) + 1 : lit.len;
		}
		html_block_before(mem, x, lit.p + pos, lit.len - pos);
		cmark_node_free(x);
	}
	free(v);
}

/* unsentinel_tree: gives back what md_math_sentinels took: in code, raw
 * HTML and TeX a sentinel is the backslash it was; in text, info strings,
 * a link's URL and title, the escape it was (nothing). */
/* without_sentinels: s[0..n) without its sentinels, NUL-terminated in b
 * (the escapes they were); 0 when s has none (b untouched). */
static int without_sentinels(struct buf *b, const char *s, size_t n)
{
	if (!n || !memchr(s, MD_BSENT, n))
		return 0;
	buf_reset(b);
	for (size_t i = 0; i < n; i++)
		if (s[i] != MD_BSENT)
			buf_putc(b, s[i]);
	buf_putc(b, 0);
	return 1;
}

static void unsentinel_tree(cmark_node *root)
{
	struct buf b;
	buf_init(&b);
	cmark_iter *it = cmark_iter_new(root);
	cmark_event_type ev;
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		if (ev != CMARK_EVENT_ENTER)
			continue;
		cmark_node *x = cmark_iter_get_node(it);
		cmark_node_type t = cmark_node_get_type(x);
		if (md_math_kind(x)) {
			sentinels_to_backslashes(&x->content);
			continue;
		}
		const char *v;
		struct str l;
		if (t == CMARK_NODE_TEXT) {
			l = literal(x);
			if (without_sentinels(&b, l.p, l.len))
				cmark_node_set_literal(x, b.p);
		} else if (t == CMARK_NODE_CODE || t == CMARK_NODE_CODE_BLOCK || t == CMARK_NODE_HTML_BLOCK ||
		           t == CMARK_NODE_HTML_INLINE) {
			l = literal(x);
			if (!memchr(l.p, MD_BSENT, l.len))
				continue;
			buf_reset(&b);
			md_unsentinel(&b, l.p, l.len);
			buf_putc(&b, 0);
			cmark_node_set_literal(x, b.p);
			/* escapes count in an info string */
			if (t == CMARK_NODE_CODE_BLOCK && (v = cmark_node_get_fence_info(x)) &&
			    without_sentinels(&b, v, strlen(v)))
				cmark_node_set_fence_info(x, b.p);
		} else if (t == CMARK_NODE_LINK || t == CMARK_NODE_IMAGE) {
			if ((v = cmark_node_get_url(x)) && without_sentinels(&b, v, strlen(v)))
				cmark_node_set_url(x, b.p);
			if ((v = cmark_node_get_title(x)) && without_sentinels(&b, v, strlen(v)))
				cmark_node_set_title(x, b.p);
		}
	}
	cmark_iter_free(it);
	buf_fini(&b);
}

/* has_math_fence: whether text may hold a fence "```math" or "~~~ math":
 * one search for "math", then a look behind each (four searches for the
 * four forms cost 1% of a 10,000-post build). */
static int has_math_fence(const char *text, size_t len)
{
	const char *p = text, *end = text + len;
	while ((p = memmem(p, (size_t)(end - p), "math", 4)) != NULL) {
		const char *q = p;
		if (q > text && q[-1] == ' ')
			q--;
		if (q - text >= 3 && (q[-1] == '`' || q[-1] == '~') && q[-2] == q[-1] && q[-3] == q[-1])
			return 1;
		p += 4;
	}
	return 0;
}

/* has_fence: whether text holds ":::" anywhere (a directive may open
 * there): memchr for each ':' beats memmem's general search. */
static int has_fence(const char *text, size_t len)
{
	const char *p = text, *end = text + len;
	while (end - p >= 3 && (p = memchr(p, ':', (size_t)(end - p - 2)))) {
		if (p[1] == ':' && p[2] == ':')
			return 1;
		p++;
	}
	return 0;
}

size_t md_image_at(struct str html)
{
	static const char tag[] = "<img src=\"";
	const char *at = html.len ? memmem(html.p, html.len, tag, sizeof tag - 1) : NULL;
	return at ? 2 + (size_t)(at - html.p) : 1;
}

int md_render(struct arena *a, const struct md_options *o, struct diag *d, const char *path,
              const char *src, size_t src_len, const char *text, size_t len, int line_offset,
              struct md_doc *out)
{
	assert(a && o && out && (text || !len));
	md_init();
	memset(out, 0, sizeof *out);
	struct mdr r = {a, d, {path, src, src_len, line_offset}, text, len, NULL, 0, 0, 0};
	int options =
	    CMARK_OPT_FOOTNOTES | CMARK_OPT_VALIDATE_UTF8 | CMARK_OPT_TABLE_PREFER_STYLE_ATTRIBUTES;
	if (o->unsafe)
		options |= CMARK_OPT_UNSAFE;
	if (o->smart)
		options |= CMARK_OPT_SMART;

	cmark_mem *mem = mdmem_begin();
	/* Directives (:::note ... :::) become raw HTML lines, line for line,
	 * before cmark sees the text: positions stay right. */
	struct md_ctx mc = {.a = a, .d = d, .in = {path, src, src_len, line_offset},
	                    .o = o, .out = out, .hl_left = MD_HL_BUDGET, .raw_left = MD_RAW_BUDGET};
	struct directive *dirs = NULL;
	struct buf rewritten;
	buf_init(&rewritten);
	long nd = has_fence(text, len) ? directive_scan(a, d, path, src, src_len, text, len, line_offset, &dirs)
						      : 0;
	if (nd < 0)
		r.errors++;
	if (nd > 0) {
		md_directives_check(&mc, dirs, (size_t)nd);
		directive_rewrite(&rewritten, text, len, dirs, (size_t)nd, md_directive_emit, &mc);
		text = rewritten.p;
		len = rewritten.len;
	}
	/* Display math blocks become raw HTML blocks, line for line: what is
	 * inside them is TeX, which Markdown must not read. */
	struct md_mblock *mbs = NULL;
	size_t nmb = 0, nsent = 0;
	struct buf mathtext, senttext;
	buf_init(&mathtext);
	buf_init(&senttext);
	if (o->math && o->brackets && len && (nsent = md_math_sentinels(text, len, &senttext)) > 0) {
		text = senttext.p;
		len = senttext.len;
	}
	if (o->math && len &&
	    ((!o->no_dollars && memmem(text, len, "$$", 2)) || (nsent && memmem(text, len, "\x02[", 2))) &&
	    md_math_blocks(&mc, text, len, &mathtext, &mbs, &nmb)) {
		text = mathtext.p;
		len = mathtext.len;
	}
	r.errors += mc.errors;
	/* Every footnote, its definition as its references, opens with a
	 * '[' that the text has as itself (a bracket made by an escape or an
	 * entity opens nothing). Without one, the parse is made without
	 * footnotes: the tree is the same, less cmark_parser_finish's two
	 * walks of it that number the references (1 MiB of emphasis: 8% of
	 * its build). The HTML is rendered with the options as they are. */
	int parse_options = options;
	if (!len || !memchr(text, '[', len))
		parse_options &= ~CMARK_OPT_FOOTNOTES;
	/* A parser of its own per document: nothing is shared but the
	 * extensions, which are read-only after md_init. Not tagfilter: raw
	 * HTML passes through. */
	cmark_parser *parser = cmark_parser_new_with_mem(parse_options, mem);
	cmark_parser_attach_syntax_extension(parser, ext_table);
	cmark_parser_attach_syntax_extension(parser, ext_strike);
	cmark_parser_attach_syntax_extension(parser, ext_autolink);
	cmark_parser_attach_syntax_extension(parser, ext_tasklist);
	if (o->math)
		cmark_parser_attach_syntax_extension(parser, ext_math);
	if (len)
		cmark_parser_feed(parser, text, len);
	doc_may_hold_at = len && may_hold_at(text, len);
	doc_no_dollars = o->no_dollars;
	doc_heading_label = o->labels[MD_LABEL_HEADING_LINK];
	cmark_node *root = cmark_parser_finish(parser);
	int math_fences = o->math && len && has_math_fence(text, len);
	if (nmb || math_fences)
		math_blocks_apply(parser, parse_options, root, mbs, nmb, math_fences);
	if (nsent)
		unsentinel_tree(root);

	/* Pass 1: the headings, the <!--more--> marker, the first paragraph.
	 * Paragraphs, headings and tables are not entered: their inlines do
	 * not matter here. */
	struct heading *hs = NULL;
	size_t nh = 0, caph = 0;
	cmark_node *more = NULL, *first_para = NULL;
	int has_code = 0;
	struct buf tmp;
	buf_init(&tmp);
	cmark_iter *it = cmark_iter_new(root);
	cmark_event_type ev;
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *n = cmark_iter_get_node(it);
		if (ev != CMARK_EVENT_ENTER)
			continue;
		int top = cmark_node_parent(n) == root;
		switch (cmark_node_get_type(n)) {
		case CMARK_NODE_HEADING:
			if (nh == caph) {
				caph = caph ? caph * 2 : 16;
				hs = xrealloc(hs, caph * sizeof *hs);
			}
			memset(&hs[nh], 0, sizeof hs[nh]);
			hs[nh].node = n;
			hs[nh].level = cmark_node_get_heading_level(n);
			nh++;
			cmark_iter_reset(it, n, CMARK_EVENT_EXIT);
			break;
		case CMARK_NODE_PARAGRAPH:
			if (top && !first_para && !more) {
				/* any text at all: its start says, unless that is
				 * all spaces */
				buf_reset(&tmp);
				plain_text_max(n, &tmp, 4096);
				if (!str_trim(buf_str(&tmp)).len && tmp.len > 4096) {
					buf_reset(&tmp);
					plain_text(n, &tmp);
				}
				if (str_trim(buf_str(&tmp)).len)
					first_para = n;
			}
			cmark_iter_reset(it, n, CMARK_EVENT_EXIT);
			break;
		case CMARK_NODE_HTML_BLOCK:
			if (top && !more && is_more(n))
				more = n;
			break;
		case CMARK_NODE_CODE_BLOCK: has_code = 1; break;
		default:
			/* a table holds no heading and no paragraph */
			if (cmark_node_get_syntax_extension(n) == ext_table)
				cmark_iter_reset(it, n, CMARK_EVENT_EXIT);
			break;
		}
	}
	cmark_iter_free(it);
	out->has_more = more != NULL;

	/* The headings: {#id}, the slug, the TOC's text and HTML, then ids.
	 * A heading of one text node (most are) needs no walk for them. */
	struct buf folded, slug;
	buf_init(&folded);
	buf_init(&slug);
	for (size_t i = 0; i < nh; i++) {
		cmark_node *h = hs[i].node, *only = cmark_node_first_child(h);
		int plain = only == cmark_node_last_child(h) &&
		            (!only || cmark_node_get_type(only) == CMARK_NODE_TEXT);
		if (!plain)
			cmark_consolidate_text_nodes(h);
		hs[i].custom = take_custom_id(a, h);
		buf_reset(&tmp);
		if (!plain)
			plain_text(h, &tmp);
		else if ((only = cmark_node_first_child(h)) != NULL)
			buf_append(&tmp, literal(only).p, literal(only).len);
		if (!hs[i].custom.p) {
			buf_reset(&slug);
			md_slugify(&slug, str_trim(buf_str(&tmp)));
			hs[i].base = arena_str(a, slug.p, slug.len);
		}
		if (i < MD_TOC_MAX) { /* only the TOC's entries need these */
			fold_space(&folded, tmp.p ? tmp.p : "", tmp.len);
			hs[i].text = arena_str(a, folded.p ? folded.p : "", folded.len);
			buf_reset(&folded);
			toc_html(o, h, &folded);
			hs[i].html = arena_str(a, folded.p ? folded.p : "", folded.len);
		}
	}
	buf_fini(&folded);
	buf_fini(&slug);
	assign_ids(&r, hs, nh);
	for (size_t i = 0; i < nh; i++) {
		cmark_node_set_user_data(hs[i].node, (void *)hs[i].id.p);
		cmark_node_set_syntax_extension(hs[i].node, ext_heading);
	}
	out->nheadings = nh;


	summary_text(&r, root, more, first_para, out);

	/* Pass 2: the counts (once the {#id}s are out of the text) in the
	 * walk that collects them; then code, math, images and figures
	 * become folio's HTML. */
	struct counter k = {{0, 0, 0, 0, 1}, {0, 0, 0, 0, 0}, out, NULL, 1};
	/* A large document (one past mdmem's reserve threshold) that holds
	 * nothing md_blocks would change (no code block, no formula to
	 * typeset, no image: every image opens with "![" in the text) is
	 * counted on a thread of its own while it renders: both only read
	 * the tree, and each of these walks takes a tenth of such a build. */
	pthread_t counting;
	struct count_job job = {root, &k};
	int beside = mdmem_large() && !has_code && !(o->math && o->typeset && memchr(text, '$', len)) &&
	             !memmem(text, len, "![", 2);
	if (beside) {
		unnest_strong(root, text, len); /* before the tree is shared */
		k.unnest = 0;
		beside = pthread_create(&counting, NULL, count_walk, &job) == 0;
		k.unnest = !beside;
	}
	if (!beside)
		r.errors += md_blocks(&mc, root, count_node, &k);

	size_t hlen;
	char *html = render_html(root, options, cmark_parser_get_syntax_extensions(parser), &hlen);
	if (beside)
		pthread_join(counting, NULL);
	count_end(&k);
	/* the HTML of a big page is kept where cmark wrote it, not copied */
	void *block = mdmem_take(html);
	if (block) {
		arena_own(a, block);
		out->html = (struct str){html, hlen};
	} else {
		out->html = arena_str(a, html, hlen);
		mem->free(html);
	}

	out->img_at = md_image_at(out->html);
	summary(&r, root, more, first_para, options, out);
	out->toc = build_toc(a, hs, nh < MD_TOC_MAX ? nh : MD_TOC_MAX, &out->ntoc);
	if (nh > MD_TOC_MAX && !o->toc_hidden && d) {
		struct diag_loc loc = {path, src, src_len, cmark_node_get_start_line(hs[MD_TOC_MAX].node) + line_offset,
				       1};
		diag_warning(d, &loc,
			     "table of contents: lists the page's first %d headings, not all %zu (see LIMITS in "
			     "folio-site(5)); split the page, or hide its contents with toc: false",
			     MD_TOC_MAX, nh);
	}

	buf_fini(&tmp);
	buf_fini(&rewritten);
	buf_fini(&mathtext);
	buf_fini(&senttext);
	free(mbs);
	free(hs);
	free(r.lines);
	free(mc.lines);
	md_images_free(&mc);
	/* the tree is not freed node by node: every node and buffer of it
	 * came from this document's mdmem, which mdmem_end releases at once
	 * (a walk of the whole tree, 50 ms for 1 MiB of table rows) */
	(void)root;
	cmark_parser_free(parser);
	mdmem_end();
	return r.errors ? -1 : 0;
}
