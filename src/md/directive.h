/* directive.h: folio's block directives in Markdown, found by a line scan
 * and rewritten, line for line, into raw HTML that cmark-gfm passes
 * through while it still parses the body between them as Markdown:
 *
 *   :::note                          :::video{src="warp.mp4" caption="Warps"}
 *   Body in **Markdown**.            :::
 *   :::
 *
 * An opening line is ":::", a name (an ASCII letter, then letters, digits
 * and '-') and optionally, after optional spaces, attributes in braces:
 * key="value" (\" and \\ are escapes), key='value' (\' and \\), key=value
 * (bare: up to a space, a quote or '}'), or a bare flag, separated by
 * spaces. A closing line is ":::" alone. Either may have trailing spaces
 * and tabs and be indented by up to three spaces (like a code fence; the
 * closing line as its opening line). Directives nest.
 *
 * The scan is by lines and knows of the blocks that would hide a ":::"
 * line from cmark: fenced code (``` or ~~~, closed by a fence of the same
 * character at least as long, indented up to three spaces) and the HTML
 * blocks that end at an end marker rather than at a blank line (comments,
 * <pre>, <script>, <style>, <textarea>, <?...?>, <!DOCTYPE...>, CDATA).
 * It does not know of block quotes or list items: "> :::note" is text, and
 * a directive may sit in a list item only indented like it. */
#ifndef FOLIO_DIRECTIVE_H
#define FOLIO_DIRECTIVE_H

#include <stddef.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/diag.h"

/* One attribute. key points into the text scanned; value too, unless it had
 * escapes, in which case it is an unescaped copy in the arena. */
struct dattr {
	struct str key, value; /* value is empty for a flag */
	int flag;              /* a bare key, without '=' */
	int line, col;         /* of the key: 1-based, in the file */
};

/* One directive. Strings point into the text scanned or into the arena. */
struct directive {
	struct str name;
	struct dattr *attrs;
	size_t nattrs;
	int line, col;  /* of the opening ":::": 1-based, in the file */
	int close_line; /* of the closing ":::", in the file */
	long parent;    /* index of the directive directly holding this one, or -1 */
	int depth;      /* 0 at the top level, 1 inside one directive, ... */
	/* For directive_rewrite: byte offsets in the text scanned of the start
	 * of the opening and closing lines and of their ends (before "\r\n"
	 * or "\n"). */
	size_t open_at, open_end, close_at, close_end;
};

/* What directive_rewrite puts at the start of each directive line: an empty
 * HTML comment. A line that starts with "<!--" is a CommonMark HTML block
 * of type 2, which ends on the line holding "-->", so on this same line
 * (see directive_rewrite). */
#define DIRECTIVE_HTML_PREFIX "<!---->"

/* directive_scan: finds the directives of text[0..len), a Markdown
 * document whose first line is line line_offset + 1 of the file path
 * (src[0..src_len) is the whole file, for excerpts; both may be NULL).
 * Syntax errors go to d (may be NULL), each with its place:
 *   unclosed ':::note' (hint: end it with a line ':::')
 *   ':::' closes nothing (hint: delete it, or open a directive above it with ':::name')
 *   bad attribute syntax at '...' (hint: ...)
 * and the others in md/directive.c. At most DIRECTIVE_MAX_ERRORS are reported
 * for one text; only the outermost of several unclosed directives is (one
 * error says how many are inside it). A malformed opening line still opens
 * a directive, so that its closing line is not an error too.
 * Returns the number of directives and sets *out to them (in the arena, in
 * the order of their opening lines; NULL when there are none), or returns
 * -1 and sets *out to NULL if there was an error. Linear in len, whatever
 * the nesting. */
#define DIRECTIVE_MAX_ERRORS 20
long directive_scan(struct arena *a, struct diag *d, const char *path, const char *src,
                    size_t src_len, const char *text, size_t len, int line_offset,
                    struct directive **out);

/* directive_attr: the attribute named key of dir, or NULL. */
const struct dattr *directive_attr(const struct directive *dir, const char *key);

/* directive_rewrite: appends to out a copy of text[0..len), the text that
 * directive_scan found dirs[0..n) in, where each directive's opening and
 * closing lines are replaced by one line each, so that every other line
 * keeps its number (cmark's positions, and so folio's diagnostics, stay
 * right). The new line is the old one's indentation, DIRECTIVE_HTML_PREFIX,
 * then what emit appends to out for that directive (closing: 0 for the
 * opening line, 1 for the closing one), e.g. <aside class="callout"> and
 * </aside>; emit must append no line break. The line's end ("\n", "\r\n",
 * none at the end of text) is kept.
 *
 * Why this works (tests/unit/test_directive.c checks it on cmark-gfm):
 * the prefix makes the line an HTML block that ends on that line, so
 *  - the lines after an opening line start a new block, parsed as
 *    Markdown: a paragraph, a list, a fence, an indented code block;
 *  - a closing line interrupts a paragraph, a list (it is not indented as
 *    a list item's content), a block quote (an HTML block start is never a
 *    lazy continuation line) or a table, and the lines after it are
 *    Markdown again;
 *  - and, HTML being raw, the output holds the tags in the same order as
 *    the lines, so nested directives nest.
 * A tag name alone would not do: "<aside ...>" starts an HTML block of type
 * 6, which runs on to the next blank line, swallowing the body as raw HTML,
 * and line numbers forbid inserting that blank line. One case stays as in
 * plain CommonMark: a body that ends in a raw HTML block of type 6 or 7
 * (e.g. "<div>...</div>" just before the closing line) runs on over the
 * closing line to the next blank line, which is passed through raw; the
 * tags still balance. */
void directive_rewrite(
    struct buf *out, const char *text, size_t len, const struct directive *dirs, size_t n,
    void (*emit)(struct buf *out, const struct directive *dir, int closing, void *ctx), void *ctx);

/* dattr_parse: parses attributes (the syntax above) from s[0..len), one
 * line. If close is nonzero (e.g. '}'), the list ends at the first close
 * outside quotes, which must come, and *end is set to its offset; else it
 * runs to len (*end = len). At most DATTR_MAX attributes, no key twice.
 * Returns the count and sets *out (in the arena; NULL for none), with col
 * the 1-based offset of each key in s and line 0; or returns -1, appends a
 * message to err (no position, e.g. "duplicate attribute 'src'") and sets
 * *err_at to the offset in s it is about. */
#define DATTR_MAX 64
long dattr_parse(struct arena *a, const char *s, size_t len, int close, size_t *end,
                 struct dattr **out, struct buf *err, size_t *err_at);

#endif
