/* ext.c: folio's cmark-gfm extension, one per document, its private data
 * that document's struct md_ctx (so nothing of a document is kept in a
 * global or a thread's variable): formulas ($...$, $$...$$, and \(...\),
 * \[...\] with brackets) matched inline and rendered as <span class="math
 * inline|display">, headings rendered with their ids and anchors, and the
 * block hooks of blockext.c. Also cmark-gfm's own extensions, set up once
 * for the process so that documents parse on several threads at once. */
#include "internal.h"

#include <assert.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include <cmark-gfm-core-extensions.h>

/* Internal headers of cmark-gfm (see markdown.c): chunk.h, the text an
 * inline parser works on (the math scanner reads it); render.h, the HTML
 * renderer whose buffer a render function writes to (as cmark-gfm's own
 * extensions do); node.h and buffer.h, a formula's TeX set in its node;
 * syntax_extension.h and inlines.h, to pin the special characters of the
 * inline extensions once (see pin_special_chars). */
#include <cmark-gfm/buffer.h>
#include <cmark-gfm/chunk.h>
#include <cmark-gfm/inlines.h>
#include <cmark-gfm/node.h>
#include <cmark-gfm/render.h>
#include <cmark-gfm/syntax_extension.h>

/* Set once by md_init, read-only afterwards. */
cmark_syntax_extension *md_ext_table, *md_ext_strike;
static cmark_syntax_extension *ext_autolink, *ext_tasklist;
/* autolink without its walk of the tree (see autolink_inline) */
static cmark_syntax_extension ext_autolink_inline;

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
	if (i >= n || md_is_space(s[i]))
		return -1;
	while (i < n) {
		unsigned char c = s[i];
		if (c == '\\') {
			i += 2;
		} else if (c == '$') {
			if (i + 1 < n && s[i + 1] >= '0' && s[i + 1] <= '9')
				return -1;
			return i;
		} else if (md_is_space(c)) {
			int newlines = 0;
			while (i < n && md_is_space(s[i]))
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

/* math_match: a formula at the inline parser's '$' or sentinel c, as a
 * node; or "$$" and a lone sentinel as text; NULL when c opens nothing. */
static cmark_node *math_match(cmark_syntax_extension *self, cmark_parser *parser, cmark_node *parent,
                              unsigned char c, cmark_inline_parser *ip)
{
	(void)parser;
	if (c != '$' && c != MD_BSENT) /* asked of most runs of text: first */
		return NULL;
	struct md_ctx *ctx = cmark_syntax_extension_get_private(self);
	if (!ctx->o->math || (c == '$' && ctx->o->no_dollars))
		return NULL;
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
			cmark_node *text = cmark_node_new_with_mem(CMARK_NODE_TEXT, ctx->mem);
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
			cmark_node *text = cmark_node_new_with_mem(CMARK_NODE_TEXT, ctx->mem);
			cmark_node_set_literal(text, "$$");
			cmark_inline_parser_set_offset(ip, pos + 2);
			return text;
		}
	}
	int delim = display || c == MD_BSENT ? 2 : 1;
	/* The line: newlines before pos in the container's text. Counted on
	 * from the last formula of the same text, so a paragraph of many
	 * formulas costs one pass, not one per formula. */
	if (ctx->seen.data != s || ctx->seen.pos > pos) {
		ctx->seen.data = s;
		ctx->seen.pos = 0;
		ctx->seen.lines = 0;
		ctx->seen.last_nl = -1;
	}
	for (int i = ctx->seen.pos; i < pos; i++)
		if (s[i] == '\n') {
			ctx->seen.lines++;
			ctx->seen.last_nl = i;
		}
	ctx->seen.pos = pos;
	int line = cmark_node_get_start_line(parent) + ctx->seen.lines;
	/* an ATX heading's text starts after its "## " (internal_offset) */
	int col = ctx->seen.last_nl < 0 ? cmark_node_get_start_column(parent) + parent->internal_offset + pos
	                                : pos - ctx->seen.last_nl;
	cmark_node *node = md_math_new(ctx->mem, self, display, (const char *)s + pos + delim,
	                               (size_t)(end - pos - delim), line, col);
	if (c == MD_BSENT)
		sentinels_to_backslashes(&node->content);
	cmark_inline_parser_set_offset(ip, end + delim);
	return node;
}

/* ---- rendering ---- */

static void math_html(struct cmark_html_renderer *r, cmark_node *node, cmark_event_type ev)
{
	if (ev != CMARK_EVENT_ENTER)
		return;
	struct str tex = md_tex(node);
	cmark_strbuf_puts(r->html, cmark_node_get_type(node) == md_node_math_display ? "<span class=\"math display\">"
	                                                                             : "<span class=\"math inline\">");
	strbuf_put_html_text(r->html, tex.p, tex.len);
	cmark_strbuf_puts(r->html, "</span>");
}

/* How headings get their id and anchor: after parsing, each heading node is
 * handed to the document's extension (its id in the node's user data).
 * cmark's HTML renderer gives a node that has an extension to that
 * extension's html_render_func, which writes the opening tag with the id
 * and, on exit, the anchor and the closing tag; the content in between is
 * still rendered by cmark. So the body is rendered in one pass by cmark
 * itself (footnotes, tables and tasklists included), nothing is rendered
 * twice, and no HTML is patched after the fact. label: the anchor's words
 * in the site's language. */
static void heading_html(struct cmark_html_renderer *r, cmark_node *node, cmark_event_type ev, const char *label)
{
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
		static const char aria[] = "\" aria-label=\"";
		static const char close[] = "\">#</a></h";
		const char *words = label ? label : "Link to this section";
		cmark_strbuf_put(r->html, (const unsigned char *)anchor, sizeof anchor - 1);
		strbuf_put_html_text(r->html, id, strlen(id));
		cmark_strbuf_put(r->html, (const unsigned char *)aria, sizeof aria - 1);
		strbuf_put_html_text(r->html, words, strlen(words));
		cmark_strbuf_put(r->html, (const unsigned char *)close, sizeof close - 1);
		cmark_strbuf_putc(r->html, digit);
		cmark_strbuf_put(r->html, (const unsigned char *)">\n", 2);
	}
}

static void ext_html(cmark_syntax_extension *self, struct cmark_html_renderer *r, cmark_node *node,
                     cmark_event_type ev, int options)
{
	(void)options;
	if (node->type == CMARK_NODE_HEADING) {
		const struct md_ctx *c = cmark_syntax_extension_get_private(self);
		heading_html(r, node, ev, c->o->labels[MD_LABEL_HEADING_LINK]);
	} else if (md_math_kind(node)) {
		math_html(r, node, ev);
	}
}

static const char *ext_type_string(cmark_syntax_extension *self, cmark_node *node)
{
	(void)self;
	cmark_node_type t = cmark_node_get_type(node);
	return t == md_node_math_display ? "math_display"
	       : t == md_node_math_inline ? "math_inline"
	       : t == CMARK_NODE_HEADING  ? "heading"
	       : t == md_node_wrap        ? "folio_document"
	                                  : "folio_block";
}

/* ext_can_contain: a heading holds inlines, the block a document is
 * parsed in what a document holds; formulas, display math and directive
 * lines being parsed, and the HTML blocks handed to the extension, hold
 * nothing. */
static int ext_can_contain(cmark_syntax_extension *self, cmark_node *node, cmark_node_type child)
{
	(void)self;
	cmark_node_type t = cmark_node_get_type(node);
	if (t == CMARK_NODE_HEADING)
		return (child & CMARK_NODE_TYPE_MASK) == CMARK_NODE_TYPE_INLINE;
	if (t == md_node_wrap)
		return (child & CMARK_NODE_TYPE_MASK) == CMARK_NODE_TYPE_BLOCK && child != CMARK_NODE_ITEM;
	return 0;
}

cmark_syntax_extension *md_ext_new(struct md_ctx *c)
{
	cmark_syntax_extension *ext = cmark_syntax_extension_new("folio");
	cmark_syntax_extension_set_match_inline_func(ext, math_match);
	if (c->blocks) { /* else cmark asks nothing of it at each line */
		cmark_syntax_extension_set_open_block_func(ext, md_block_open);
		cmark_syntax_extension_set_match_block_func(ext, md_block_continues);
	}
	cmark_syntax_extension_set_get_type_string_func(ext, ext_type_string);
	cmark_syntax_extension_set_can_contain_func(ext, ext_can_contain);
	cmark_syntax_extension_set_html_render_func(ext, ext_html);
	cmark_syntax_extension_set_private(ext, c, NULL);
	return ext;
}

void md_ext_free(cmark_syntax_extension *ext)
{
	cmark_syntax_extension_free(cmark_get_default_mem_allocator(), ext);
}

void md_ext_attach(struct md_ctx *c, cmark_parser *parser, int may_hold_at)
{
	/* with nothing to match (no formulas, no block hooks) it is left
	 * out: the inline parser would ask it about each run of text */
	if (c->o->math || c->blocks)
		cmark_parser_attach_syntax_extension(parser, c->ext);
	cmark_parser_attach_syntax_extension(parser, md_ext_table);
	cmark_parser_attach_syntax_extension(parser, md_ext_strike);
	cmark_parser_attach_syntax_extension(parser, may_hold_at ? ext_autolink : &ext_autolink_inline);
	cmark_parser_attach_syntax_extension(parser, ext_tasklist);
}

/* ---- once for the process ---- */

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
 *  - autolink and math find their characters with match_inline alone:
 *    autolink's list is emptied (pin_special_chars), and folio's extensions
 *    have none.
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
 * or the entity &commat;. A document with none of them is parsed with
 * autolink_inline, autolink without that walk, which would change nothing
 * (1 MiB of emphasis: 14% of its build): md_ext_attach chooses. */

/* pin_special_chars: marks ext's special characters for good and takes
 * them off ext (the list, which nothing reads again, is freed). */
static void pin_special_chars(cmark_syntax_extension *ext)
{
	for (cmark_llist *l = ext->special_inline_chars; l; l = l->next)
		cmark_inlines_add_special_character((unsigned char)(uintptr_t)l->data, ext->emphasis);
	cmark_llist_free(cmark_get_default_mem_allocator(), ext->special_inline_chars);
	ext->special_inline_chars = NULL;
}

/* md_init_once: everything md/ sets up once, read-only afterwards (which
 * is what makes md_render thread-safe). */
static void md_init_once(void)
{
	cmark_gfm_core_extensions_ensure_registered();
	md_ext_table = cmark_find_syntax_extension("table");
	md_ext_strike = cmark_find_syntax_extension("strikethrough");
	ext_autolink = cmark_find_syntax_extension("autolink");
	ext_tasklist = cmark_find_syntax_extension("tasklist");
	assert(md_ext_table && md_ext_strike && ext_autolink && ext_tasklist);
	md_nodes_init();

	/* folio's formulas open at '$' and at a bracket's sentinel; its
	 * extensions, made per document, have no list of their own */
	cmark_inlines_add_special_character('$', 0);
	cmark_inlines_add_special_character((unsigned char)MD_BSENT, 0);
	pin_special_chars(ext_autolink);
	pin_special_chars(md_ext_strike);
	cmark_syntax_extension_set_special_inline_chars(
	    md_ext_strike, cmark_llist_append(cmark_get_default_mem_allocator(), NULL, (void *)(uintptr_t)STRIKE_DELIM));
	cmark_syntax_extension_set_emphasis(md_ext_strike, 0);
	strike_match_orig = md_ext_strike->match_inline;
	cmark_syntax_extension_set_match_inline_func(md_ext_strike, strike_match);
	ext_autolink_inline = *ext_autolink;
	ext_autolink_inline.postprocess_func = NULL;
}

void md_init(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, md_init_once);
}
