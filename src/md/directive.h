/* directive.h: folio's block directives in Markdown:
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
 * and tabs and be indented by up to three spaces from the start of its
 * line (like a code fence; the closing line as its opening line), so
 * "> :::note" is text, and a directive may sit in a list item only
 * indented like it. Directives nest.
 *
 * cmark-gfm finds the lines: folio's block extension (md/blockext.c) takes
 * each such line that begins a block for a block of one line, as it would
 * a raw HTML block of one line, so fenced code and the HTML blocks that
 * end at a marker (comments, <pre>, <script>, ...) hide ":::" lines, and a
 * directive line ends a paragraph, a list, a table, or an HTML block that
 * would run on to a blank line. This file is their syntax: the attributes,
 * and the pairing of the lines found into directives, with every error;
 * md/dirblock.c makes each line its directive's raw HTML, so that the
 * body between them is Markdown that cmark parses like any other, and the
 * tags nest as the lines do. */
#ifndef FOLIO_DIRECTIVE_H
#define FOLIO_DIRECTIVE_H

#include <stddef.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/diag.h"

/* One attribute. key points into the line parsed; value too, unless it had
 * escapes, in which case it is an unescaped copy in the arena. */
struct dattr {
	struct str key, value; /* value is empty for a flag */
	int flag;              /* a bare key, without '=' */
	int line, col;         /* of the key: 1-based, in the file */
};

/* One directive. Strings point into its line or into the arena. */
struct directive {
	struct str name;
	struct dattr *attrs;
	size_t nattrs;
	int line, col;  /* of the opening ":::": 1-based, in the file */
	int close_line; /* of the closing ":::", in the file */
	long parent;    /* index of the directive directly holding this one, or -1 */
	int depth;      /* 0 at the top level, 1 inside one directive, ... */
	int leaf;       /* "::name{attrs}": one line, no body (close_line is line) */
	int inl;        /* ":name[content]{attrs}" in a paragraph (a site's directive) */
};

/* What each directive line becomes: its indentation, an empty HTML
 * comment, then its directive's HTML (md/dirblock.c). The comment keeps
 * pages byte for byte as folio wrote them when it rewrote the text, a
 * line for a line, before cmark parsed it. */
#define DIRECTIVE_HTML_PREFIX "<!---->"

/* A line that may be a directive line, as the parser found it: text[0..
 * len) the line without its end (owned by the caller), its ":::" at byte
 * col - 1, after spaces alone; line is its line in the body (1-based).
 * directive_pair sets dir, the index of the directive it opens or closes
 * (-1: none), and closing. */
struct dline {
	const char *text;
	size_t len;
	int line, col;
	long dir;
	int closing;
};

/* The block the parser had open at the end of the text, if it is one that
 * hides directive lines (an unclosed directive's likely cause): its kind
 * and its first line in the body. */
enum { DBLOCK_NONE, DBLOCK_CODE, DBLOCK_HTML };
struct dblock {
	int kind;
	int line;
};

/* directive_line_at: whether line[0..len) is a directive line with its
 * ":::" at byte at: at most three spaces, and nothing else, before it. */
int directive_line_at(const char *line, size_t len, size_t at);

/* directive_pair: pairs the directive lines lines[0..n) (in the order of
 * the text, in) into directives, each with its name and attributes.
 * Syntax errors go to d (may be NULL), each with its place:
 *   unclosed ':::note' (hint: end it with a line ':::')
 *   ':::' closes nothing (hint: delete it, or open a directive above it with ':::name')
 *   bad attribute syntax at '...' (hint: ...)
 * and the others in md/directive.c. At most DIRECTIVE_MAX_ERRORS are
 * reported; only the outermost of several unclosed directives is (one
 * error says how many are inside it, and a note points at open, the block
 * left open at the end, when it began below it; open may be NULL). A
 * malformed opening line still opens a directive, so that its closing
 * line is not an error too. Returns the number of directives and sets
 * *out to them (in the arena, in the order of their opening lines; NULL
 * when there are none), or returns -1 and sets *out to NULL if there was
 * an error. Linear in n, whatever the nesting. */
#define DIRECTIVE_MAX_ERRORS 20
long directive_pair(struct arena *a, struct diag *d, const struct diag_src *in, struct dline *lines, size_t n,
                    const struct dblock *open, struct directive **out);

/* directive_scan: the directives of text[0..len), a Markdown document
 * whose first line is line line_offset + 1 of the file path (src[0..
 * src_len) is the whole file, for excerpts; both may be NULL), as
 * md_render finds them: cmark-gfm with folio's block extension finds the
 * lines (md/parse.c), directive_pair pairs them, its errors to d. Returns
 * as directive_pair does. */
long directive_scan(struct arena *a, struct diag *d, const char *path, const char *src,
                    size_t src_len, const char *text, size_t len, int line_offset,
                    struct directive **out);

/* directive_attr: the attribute named key of dir, or NULL. */
const struct dattr *directive_attr(const struct directive *dir, const char *key);

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
