/* codeblock.h: the options of a fenced code block's info string, and the
 * wrapping of its highlighted HTML into one element per line (for line
 * numbers and highlighted lines). */
#ifndef FOLIO_CODEBLOCK_H
#define FOLIO_CODEBLOCK_H

#include <stddef.h>

#include "base/arena.h"
#include "base/buf.h"

/* Line numbers named in hl are at most this. */
#define CODE_HL_MAX 100000

/* Lines lo to hi (1-based, both included). */
struct code_range {
	size_t lo, hi;
};

struct code_opts {
	struct str lang;   /* the first word, e.g. "cuda"; empty if none */
	struct str title;  /* e.g. "kernel.cu"; empty if none */
	struct code_range *hl; /* the highlighted lines: sorted, merged; NULL if none */
	size_t nranges;
	size_t nhl;        /* the largest line number named in hl (0: none) */
	int linenos;       /* show line numbers */
	int start;         /* the first line's number; 1 unless start= says */
	struct str label;  /* {#lst:name}: a listing's label ("lst:name"); empty if none */
	/* code from a file (md/include.c): file= names it, lines= a range of
	 * it (lines_lo 0: none; lines_hi CODE_LINES_END: to its end),
	 * symbol= a definition in it (md/symbol.h), link: the title links to
	 * the published file; start_set: start= was given */
	struct str file;
	struct str symbol;
	size_t lines_lo, lines_hi;
	int link;
	int start_set;
};

/* lines="10-" runs to the file's end. */
#define CODE_LINES_END ((size_t)-1)

/* code_opts_parse: fills *o from a fenced code block's info string:
 *   cuda {title="kernel.cu" hl="3-5,9" linenos start=10}
 *   python title="x.py"
 *   {linenos}
 * The first word is the language unless it starts with '{' or holds '=';
 * the options follow, in braces or not, in the attribute syntax of
 * directives (directive.h):
 *   title="..."  a caption for the block
 *   hl="3-5,9"   lines to highlight, numbered from 1 in the block whatever
 *                start is: numbers and ranges, separated by commas (a line
 *                past the block's end is no error here)
 *   linenos      line numbers (also linenos=true, linenos=false)
 *   start=N      the first line's number (0 to 1000000000; default 1)
 *   #lst:NAME    first in the braces: the block is a numbered listing
 *                (md/xref.c), title= its caption; no other id is taken
 *   file="x.cu"  the code is the file's (md/include.c): relative to the
 *                post's bundle folder (or the site folder), /x from the
 *                site folder
 *   lines="10-42" with file=: lines 10 to 42 of it ("10": one line,
 *                "10-": to its end)
 *   symbol="f"   with file=: the definition of f in it (md/symbol.h);
 *                not with lines=
 *   link         with file=: the title links to the file as published
 * cmark-gfm hands over info with backslash escapes already resolved, so
 * \" is a plain " by then: a title holding double quotes is best written
 * title='say "hi"'.
 * Strings point into info or into the arena, hl is in the arena. Returns
 * 0; or, on an error, appends a message (no position: the caller knows the
 * block's) to err, e.g.
 *   unknown code block option 'titel' (did you mean 'title'?)
 *   bad range '5-3' in hl (hint: write the smaller number first: '3-5')
 *   'lines' needs file= (hint: ...)
 * and returns -1, *o then holding what was parsed before it. */
int code_opts_parse(struct arena *a, struct str info, struct code_opts *o, struct buf *err);

/* code_opts_hl: whether line (1-based) is highlighted; o may be NULL. */
int code_opts_hl(const struct code_opts *o, size_t line);

/* code_wrap_lines: appends html[0..len), highlighted code (text, HTML
 * entities, <span ...> and </span>, spans possibly crossing line breaks),
 * to out as one <span class="line"> (class="line hl" for a highlighted
 * line) per line, holding first, with o->linenos, the line's number as
 * <span class="ln" aria-hidden="true">N</span>. The spans open at a line
 * break are closed before it and opened again after the new line's
 * number, so every line is balanced. A final line break makes no empty
 * last line; empty html makes nothing. The line breaks ("\n"; "\r\n"
 * becomes "\n") stay between the line elements, for <pre>. Robust to any
 * input: a '<' that starts no complete tag on its line is escaped, a
 * </span> closing nothing is dropped. o may be NULL (no numbers, no
 * highlighted lines). Returns 0; or -1 as soon as out is longer than max
 * bytes (its end then cut anywhere): line numbers make some 80 bytes of
 * each line of code, 1 MB of empty lines 80 MB. */
int code_wrap_lines(struct buf *out, const char *html, size_t len, const struct code_opts *o, size_t max);

#endif
