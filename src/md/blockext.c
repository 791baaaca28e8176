/* blockext.c: the block hooks of folio's cmark-gfm extension, which make
 * cmark the one block parser of folio's Markdown: it finds directive lines
 * (:::note ... :::, directive.h) and display math blocks ($$ ... $$, and
 * \[ ... \] with brackets) where a block may begin, after the prefixes of
 * the containers around them (block quotes, list items, footnotes), and
 * never inside fenced code or the HTML blocks that end at a marker.
 *
 * What cmark-gfm's extension API gives, and where this file goes around it
 * (each a comment below):
 *  - try_opening_block (md_block_open) is asked only where no block of
 *    CommonMark's begins, and last_block_matches (md_block_continues)
 *    decides whether an open block of the extension goes on with a line.
 *  - A block of an extension's own type is given no lines: cmark takes
 *    every line for a new block inside it. A display formula's lines are
 *    TeX, which must not open blocks ("+ b" is no list), so its block is
 *    a fenced code block handed to the extension: cmark opens nothing in
 *    a code block, and asks the extension whether it goes on. A directive
 *    line is a raw HTML block handed to the extension, for one line: that
 *    is what the line becomes, and an HTML block is no blank line for the
 *    tightness of a list.
 *  - An HTML block that ends at a blank line (CommonMark's kinds 6 and 7,
 *    such as <div>) hides the lines below it from try_opening_block, but a
 *    "$$" or ":::" line below it ends it (as the text rewrites folio made
 *    before parsing had it). The extension has no say in a block of
 *    cmark's own, so the whole document is parsed inside a block of the
 *    extension's (md_block_wrap), whose hook sees every line first: it
 *    hands such an HTML block to the extension when it is the open one, and
 *    md_block_continues ends it at a blank line, as cmark does, or at one
 *    of those lines. The block is dissolved after the parse. The lines
 *    after such a directive line or display block, up to the blank line,
 *    stay raw HTML (the directive line's block takes them, or the display
 *    block keeps them for mathblock.c), as they were when the text was
 *    rewritten: the HTML's tags balance as the author wrote them.
 *  - What a block turns out to be is known only at its end: display math
 *    whose closing "$$" never comes (its container, or the text, ends
 *    first), and directive lines that do not pair, are errors, and their
 *    lines stay the text they were: the parse is made again without them
 *    (parse.c; only a document with an error pays for it).
 *  - The text after a closing "$$" on its line is parsed on its own
 *    (mathblock.c), as it always was: parsed in place, its paragraph would
 *    take the lines below it as lazy continuation lines.
 *  - The inline parser reads a backslash before any extension is asked:
 *    \( \) \[ \] become sentinels in the text before parsing (mathblock.c),
 *    the one rewrite of the text left.
 * Positions are cmark's own: a line's number, and its first non-space
 * byte, from the start of the line, so that a formula or directive inside
 * a block quote or a list item has its true column. */
#include "internal.h"

#include <string.h>

/* Internal headers of cmark-gfm (see markdown.c): node.h, to set the kind
 * of a block handed to the extension; parser.h, the parser's open block
 * (md_block_wrap, and the block open at the end). */
#include <cmark-gfm/buffer.h>
#include <cmark-gfm/node.h>
#include <cmark-gfm/parser.h>

/* find_closer: the next unescaped closer c0 c1 ("$$", or MD_BSENT "]") in
 * s[i..e), or e. */
static int find_closer(const unsigned char *s, int i, int e, unsigned char c0, unsigned char c1)
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

/* opener_of: the closer's second byte ('$' or ']') if the line s[0..e)
 * opens display math at its first non-space byte j: "$$" (dollars on) or
 * \[ (its sentinel, with brackets), not "$$$$" (empty: text), on a line
 * display math may open on; else 0. */
static char opener_of(const struct md_ctx *c, cmark_parser *parser, const unsigned char *s, int j, int e)
{
	if (!c->math_on || j + 1 >= e || (c->math_stop && cmark_parser_get_line_number(parser) >= c->math_stop))
		return 0;
	char closer = 0;
	if (s[j] == '$' && s[j + 1] == '$' && !c->o->no_dollars)
		closer = '$';
	else if (s[j] == MD_BSENT && s[j + 1] == '[')
		closer = ']';
	if (!closer)
		return 0;
	int k = find_closer(s, j + 2, e, closer == '$' ? '$' : MD_BSENT, (unsigned char)closer);
	if (k < e) {
		int blank = 1;
		for (int i = j + 2; i < k && blank; i++)
			blank = s[i] == ' ' || s[i] == '\t';
		if (blank)
			return 0;
	}
	return closer;
}

/* line_end: where the line's text ends (cmark ends every line with '\n'). */
static int line_end(const unsigned char *input, int len)
{
	return len > 0 && input[len - 1] == '\n' ? len - 1 : len;
}

/* to_end: the parser past the line's text, to its '\n': what the block
 * keeps is the extension's (its content gets the line end alone). */
static void to_end(cmark_parser *parser, unsigned char *input, int len)
{
	int left = line_end(input, len) - cmark_parser_get_offset(parser);
	if (left > 0)
		cmark_parser_advance_offset(parser, (const char *)input, left, 0);
}

/* ended_html: whether the block opening on this line ended an HTML block
 * of the extension's (html_line). */
static int ended_html(struct md_ctx *c, cmark_parser *parser)
{
	int ended = c->html_ended == cmark_parser_get_line_number(parser);
	c->html_ended = 0;
	return ended;
}

static int html_line(struct md_ctx *c, cmark_parser *parser, const unsigned char *input, int len);

/* gone: cmark frees the node of ref (its user data). */
static void gone(cmark_mem *mem, void *ref)
{
	(void)mem;
	((struct md_node_ref *)ref)->node = NULL;
}

/* node_ref: a reference to n that says when cmark frees it (struct
 * md_node_ref; in the arena, n's user data). */
static struct md_node_ref *node_ref(struct md_ctx *c, cmark_node *n)
{
	struct md_node_ref *ref = arena_alloc(c->a, sizeof *ref);
	ref->node = n;
	cmark_node_set_user_data(n, ref);
	cmark_node_set_user_data_free_func(n, gone);
	return ref;
}

/* ---- directive lines ---- */

static cmark_node *directive_open(struct md_ctx *c, cmark_parser *parser, cmark_node *parent,
                                  unsigned char *input, int len, int at)
{
	cmark_node *n = cmark_parser_add_child(parser, parent, CMARK_NODE_HTML_BLOCK, at + 1);
	/* kind 0: no end marker; cmark adds the line (from the containers'
	 * prefixes on), md_block_continues ends it after it; -1: it ended an
	 * HTML block, whose lines after it it takes (html_line) */
	n->as.html_block_type = ended_html(c, parser) ? -1 : 0;
	cmark_node_set_syntax_extension(n, c->ext);
	if (c->ndlines == c->cap_dlines) {
		c->cap_dlines = c->cap_dlines ? c->cap_dlines * 2 : 16;
		c->dlines = xrealloc(c->dlines, c->cap_dlines * sizeof *c->dlines);
		c->dnodes = xrealloc(c->dnodes, c->cap_dlines * sizeof *c->dnodes);
	}
	int e = line_end(input, len);
	c->dlines[c->ndlines] = (struct dline){arena_strndup(c->a, (const char *)input, (size_t)e), (size_t)e,
	                                      cmark_parser_get_line_number(parser), at + 1, -1, 0};
	c->dnodes[c->ndlines++] = node_ref(c, n);
	return n;
}

/* ---- display math ---- */


/* raw_flush: the raw HTML lines after block b, into b (the arena's). */
static void raw_flush(struct md_ctx *c, struct md_mblock *b)
{
	if (!c->raw.len)
		return;
	b->raw = arena_strndup(c->a, c->raw.p, c->raw.len);
	b->raw_len = c->raw.len;
	buf_reset(&c->raw);
}

/* raw_line: a line of raw HTML after the closed display block b, if the
 * HTML block it ended goes on with it (kept as cmark adds a line to an
 * HTML block: from the containers' prefixes on, a tab they took a part of
 * as spaces). */
static int raw_line(struct md_ctx *c, struct md_mblock *b, cmark_parser *parser, unsigned char *input, int len)
{
	if (!b->in_html || !html_line(c, parser, input, len)) {
		raw_flush(c, b);
		return 0;
	}
	int off = cmark_parser_get_offset(parser);
	if (cmark_parser_has_partially_consumed_tab(parser)) {
		for (int k = 4 - cmark_parser_get_column(parser) % 4; k > 0; k--)
			buf_putc(&c->raw, ' ');
		off++;
	}
	buf_append(&c->raw, input + off, (size_t)(len - off));
	to_end(parser, input, len);
	return 1;
}

/* flush_pending: the raw HTML lines after the last display block, at the
 * end of the text. */
static void flush_pending(struct md_ctx *c)
{
	if (c->nmblocks)
		raw_flush(c, &c->mblocks[c->nmblocks - 1]);
}

/* math_close: the open block b's closing "$$" is at k on the line s[0..e):
 * its TeX is complete, and the text after it (spaces skipped) is kept for
 * mathblock.c to parse on its own, as the text it was on its own line. */
static void math_close(struct md_ctx *c, struct md_mblock *b, const unsigned char *s, int k, int e, int line)
{
	struct buf *t = &c->tex;
	for (size_t i = 0; i < t->len; i++)
		if (t->p[i] == MD_BSENT)
			t->p[i] = '\\';
	b->tex = arena_strndup(c->a, t->p ? t->p : "", t->len);
	b->tex_len = t->len;
	int a = k + 2;
	while (a < e && (s[a] == ' ' || s[a] == '\t'))
		a++;
	b->after = arena_strndup(c->a, (const char *)s + a, (size_t)(e - a));
	b->after_len = (size_t)(e - a);
	b->after_line = line;
	b->closed = 1;
}

static cmark_node *math_open(struct md_ctx *c, cmark_parser *parser, cmark_node *parent, unsigned char *input,
                             int len, int at, char closer)
{
	flush_pending(c); /* the raw HTML after the block before */
	/* a fenced code block: cmark opens no block inside it, and asks the
	 * extension about each line (see the top of this file) */
	cmark_node *n = cmark_parser_add_child(parser, parent, CMARK_NODE_CODE_BLOCK, at + 1);
	n->as.code.fenced = 1;
	n->as.code.fence_char = (unsigned char)closer;
	n->as.code.fence_length = 2;
	cmark_node_set_syntax_extension(n, c->ext);
	if (c->nmblocks == c->cap_mblocks) {
		c->cap_mblocks = c->cap_mblocks ? c->cap_mblocks * 2 : 8;
		c->mblocks = xrealloc(c->mblocks, c->cap_mblocks * sizeof *c->mblocks);
	}
	struct md_mblock *b = &c->mblocks[c->nmblocks++];
	int line = cmark_parser_get_line_number(parser);
	*b = (struct md_mblock){.ref = node_ref(c, n), .line = line, .col = at + 1, .closer = closer,
	                        .in_html = ended_html(c, parser)};
	int e = line_end(input, len);
	int k = find_closer(input, at + 2, e, closer == '$' ? '$' : MD_BSENT, (unsigned char)closer);
	buf_reset(&c->tex);
	buf_append(&c->tex, input + at + 2, (size_t)(k - at - 2));
	if (k < e)
		math_close(c, b, input, k, e, line);
	to_end(parser, input, len);
	return n;
}

/* math_line: a line of the open display block n: its TeX (after the
 * containers' prefixes), up to the closer if it has it; once closed, the
 * raw HTML lines after it (raw_line). */
static int math_line(struct md_ctx *c, cmark_parser *parser, unsigned char *input, int len, cmark_node *n)
{
	struct md_mblock *b = c->nmblocks ? &c->mblocks[c->nmblocks - 1] : NULL;
	if (!b || b->ref->node != n)
		return 0;
	if (b->closed)
		return raw_line(c, b, parser, input, len);
	int off = cmark_parser_get_offset(parser), e = line_end(input, len);
	/* a tab its container took a part of is the container's */
	if (cmark_parser_has_partially_consumed_tab(parser) && off < e)
		off++;
	int k = find_closer(input, off, e, b->closer == '$' ? '$' : MD_BSENT, (unsigned char)b->closer);
	buf_putc(&c->tex, '\n');
	buf_append(&c->tex, input + off, (size_t)(k - off));
	if (k < e)
		math_close(c, b, input, k, e, cmark_parser_get_line_number(parser));
	to_end(parser, input, len);
	return 1;
}

/* ---- the hooks ---- */

cmark_node *md_block_open(cmark_syntax_extension *self, int indented, cmark_parser *parser, cmark_node *parent,
                          unsigned char *input, int len)
{
	struct md_ctx *c = cmark_syntax_extension_get_private(self);
	if (!c->blocks || indented)
		return NULL;
	int j = cmark_parser_get_first_nonspace(parser);
	if (c->dirs_on && directive_line_at((const char *)input, (size_t)line_end(input, len), (size_t)j))
		return directive_open(c, parser, parent, input, len, j);
	char closer = opener_of(c, parser, input, j, line_end(input, len));
	return closer ? math_open(c, parser, parent, input, len, j, closer) : NULL;
}

/* html_line: whether the HTML block handed to the extension goes on with
 * the line: as cmark's kinds 6 and 7 do, up to a blank line; but a line
 * that opens display math or is a directive line ends it too (and the
 * block it opens takes the HTML's lines after it: ended_html). */
static int html_line(struct md_ctx *c, cmark_parser *parser, const unsigned char *input, int len)
{
	if (cmark_parser_is_blank(parser))
		return 0;
	if (cmark_parser_get_indent(parser) >= 4)
		return 1;
	int j = cmark_parser_get_first_nonspace(parser), e = line_end(input, len);
	if ((c->dirs_on && directive_line_at((const char *)input, (size_t)e, (size_t)j)) ||
	    opener_of(c, parser, input, j, e)) {
		c->html_ended = cmark_parser_get_line_number(parser);
		return 0;
	}
	return 1;
}

/* tag: the parser's open block, if it is an HTML block that ends at a
 * blank line, handed to the extension (see the top of this file). */
static void tag(struct md_ctx *c, cmark_parser *parser)
{
	cmark_node *cur = parser->current;
	if (cmark_node_get_type(cur) != CMARK_NODE_HTML_BLOCK || cur->as.html_block_type < 6 || cur->extension)
		return;
	cmark_node_set_syntax_extension(cur, c->ext);
	if (c->ntagged == c->cap_tagged) {
		c->cap_tagged = c->cap_tagged ? c->cap_tagged * 2 : 8;
		c->tagged = xrealloc(c->tagged, c->cap_tagged * sizeof *c->tagged);
	}
	c->tagged[c->ntagged++] = node_ref(c, cur);
}

int md_block_continues(cmark_syntax_extension *self, cmark_parser *parser, unsigned char *input, int len,
                       cmark_node *node)
{
	struct md_ctx *c = cmark_syntax_extension_get_private(self);
	if (node == c->wrap) {
		tag(c, parser);
		return 1;
	}
	switch (cmark_node_get_type(node)) {
	case CMARK_NODE_CODE_BLOCK: return math_line(c, parser, input, len, node);
	case CMARK_NODE_HTML_BLOCK: return node->as.html_block_type && html_line(c, parser, input, len);
	default: return 0;
	}
}

void md_block_wrap(struct md_ctx *c)
{
	cmark_parser *p = c->parser;
	c->wrap = cmark_parser_add_child(p, p->root, md_node_wrap, 1);
	cmark_node_set_syntax_extension(c->wrap, c->ext);
	p->current = c->wrap;
}

/* md_block_at_end: the block open at the end of the text (all of it fed),
 * if it is fenced code or an HTML block that ends at a marker: what hides
 * directive lines (directive_pair's note). */
void md_block_at_end(struct md_ctx *c)
{
	cmark_node *cur = c->parser->current;
	cmark_node_type t = cmark_node_get_type(cur);
	c->open_at_end.kind = DBLOCK_NONE;
	if (t == CMARK_NODE_CODE_BLOCK && cur->as.code.fenced && !cur->extension)
		c->open_at_end.kind = DBLOCK_CODE;
	else if (t == CMARK_NODE_HTML_BLOCK && cur->as.html_block_type >= 1 && cur->as.html_block_type <= 5)
		c->open_at_end.kind = DBLOCK_HTML;
	c->open_at_end.line = cmark_node_get_start_line(cur);
}

void md_fence_at_end(struct md_ctx *c)
{
	cmark_node *cur = c->parser->current;
	c->fence_line = 0;
	if (cmark_node_get_type(cur) == CMARK_NODE_CODE_BLOCK && cur->as.code.fenced && !cur->extension) {
		c->fence_line = cmark_node_get_start_line(cur);
		c->fence_col = cmark_node_get_start_column(cur);
		c->fence_char = (char)cur->as.code.fence_char;
		c->fence_len = cur->as.code.fence_length;
	}
}

void md_block_unwrap(struct md_ctx *c)
{
	flush_pending(c);
	for (size_t i = 0; i < c->ntagged; i++) {
		cmark_node *n = c->tagged[i]->node;
		if (n) { /* not freed with a footnote no one refers to */
			cmark_node_set_syntax_extension(n, NULL);
			cmark_node_set_user_data_free_func(n, NULL);
			cmark_node_set_user_data(n, NULL);
		}
	}
	c->ntagged = 0;
	if (!c->wrap)
		return;
	for (cmark_node *k; (k = cmark_node_first_child(c->wrap)) != NULL;)
		cmark_node_insert_before(c->wrap, k);
	cmark_node_free(c->wrap);
	c->wrap = NULL;
}
