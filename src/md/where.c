/* where.c: places in the file. cmark gives inline nodes no position, and
 * the text of a block's lines loses their containers' prefixes ("> ",
 * a list item's indentation): the places of what a pass reports are found
 * again in the file's own lines (c->in.src), indexed once per document. */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* src_lines: indexes where the lines of c->in.src start, once per document. */
static void src_lines(struct md_ctx *c)
{
	if (c->lines)
		return;
	size_t cap = 64;
	c->lines = xmalloc(cap * sizeof *c->lines);
	c->lines[c->nlines++] = 0;
	c->find_left = 4 * c->in.src_len + ((size_t)1 << 20);
	for (const char *p = c->in.src, *end = c->in.src + c->in.src_len; (p = memchr(p, '\n', (size_t)(end - p))); p++) {
		if (c->nlines == cap) {
			cap *= 2;
			c->lines = xrealloc(c->lines, cap * sizeof *c->lines);
		}
		c->lines[c->nlines++] = (size_t)(p - c->in.src) + 1;
	}
}

/* md_source_line: body line `line`'s text in the file, without its
 * "\n" (with the '\r' before it, if any); 0 if the file is not at hand or
 * has no such line. */
int md_source_line(struct md_ctx *c, int line, const char **p, size_t *n)
{
	if (!c->in.src || line <= 0)
		return 0;
	src_lines(c);
	size_t i = (size_t)(line + c->in.line_offset); /* 1-based, in src */
	if (i == 0 || i > c->nlines)
		return 0;
	size_t a = c->lines[i - 1], b = i < c->nlines ? c->lines[i] - 1 : c->in.src_len;
	*p = c->in.src + a;
	*n = b - a;
	return 1;
}

/* find_in_source: the place of needle in the file within 200 lines after
 * body line `line` (cmark gives no positions to inline nodes: an image's
 * place is found from its block's). The next search from the same block
 * starts after this hit, so that the images of one long paragraph are
 * found in one pass, not each from its top. Leaves line/col alone when
 * not found, or when the document's searches have read four times the
 * file: the images of a reference ("![a][r]", no "](" in the file)
 * would each search the whole long line again. */
void md_find_in_source(struct md_ctx *c, const char *needle, int *line, int *col)
{
	if (!c->in.src || !needle || !*needle || *line <= 0)
		return;
	src_lines(c);
	size_t first = (size_t)(*line + c->in.line_offset); /* 1-based, in src */
	if (first > c->nlines)
		return;
	size_t from = c->lines[first - 1];
	if (c->find_block == *line && c->find_next > from)
		from = c->find_next;
	size_t last = first + 200; /* the hit's line, at most */
	size_t to = last < c->nlines ? c->lines[last] : c->in.src_len;
	if (from >= to || to - from > c->find_left)
		return;
	size_t nlen = strlen(needle);
	const char *hit = memmem(c->in.src + from, to - from, needle, nlen);
	c->find_left -= hit ? (size_t)(hit - (c->in.src + from)) + nlen : to - from;
	if (!hit)
		return;
	size_t off = (size_t)(hit - c->in.src);
	c->find_block = *line;
	c->find_next = off + 1;
	size_t lo = first - 1, hi = last < c->nlines ? last : c->nlines; /* the line: lines[l] <= off */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (c->lines[mid] <= off)
			lo = mid;
		else
			hi = mid;
	}
	*line += (int)(lo - (first - 1));
	*col = (int)(off - c->lines[lo]) + 1;
}

/* is_prefix: a byte that may come before a line's text in a container:
 * a block quote's '>', the indentation of a list item or of a footnote's
 * definition, and the white space a paragraph's line starts with. */
static int is_prefix(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '>';
}

void md_math_place(struct md_ctx *c, cmark_node *n, int pos, int *line, int *col)
{
	md_math_where(n, line, col);
	if (*col <= 0)
		return;
	struct str t = md_tex(n);
	size_t at = pos < 0 ? 0 : (size_t)pos < t.len ? (size_t)pos : t.len;
	const char *nl = at ? memrchr(t.p, '\n', at) : NULL;
	if (!nl) { /* on the formula's first line: after its $, $$, \( or \[ */
		const char *src;
		size_t sn;
		int opener = md_math_kind(n) == 2 ? 2 : 1;
		if (opener == 1 && md_source_line(c, *line, &src, &sn) && (size_t)*col <= sn && src[*col - 1] == '\\')
			opener = 2;
		*col += opener + (int)at;
		return;
	}
	for (const char *p = t.p; (p = memchr(p, '\n', (size_t)(t.p + at - p))) != NULL; p++)
		(*line)++;
	size_t s = (size_t)(nl - t.p) + 1, e = s, w = s;
	while (e < t.len && t.p[e] != '\n')
		e++;
	if (e > s && t.p[e - 1] == '\r')
		e--;
	while (w < e && (t.p[w] == ' ' || t.p[w] == '\t'))
		w++;
	/* without the file's line, the offset in the formula's line */
	*col = (int)(at - s) + 1;
	const char *src;
	size_t sn;
	if (w == e || !md_source_line(c, *line, &src, &sn))
		return;
	/* the formula's line, from its first non-blank byte, in the file's
	 * line: after the prefix, the last place it starts (a '>' of its own
	 * is then not taken for the quote's) */
	size_t need = e - w, found = SIZE_MAX;
	for (size_t q = 0; q <= sn; q++) {
		if (sn - q >= need && memcmp(src + q, t.p + w, need) == 0)
			found = q;
		if (q == sn || !is_prefix(src[q]))
			break;
	}
	if (found != SIZE_MAX) /* in its leading blanks: at the first non-blank */
		*col = (int)(found + (at > w ? at - w : 0)) + 1;
}

void md_where_free(struct md_ctx *c)
{
	free(c->lines);
	c->lines = NULL;
	c->nlines = 0;
}
