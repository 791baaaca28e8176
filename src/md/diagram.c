/* diagram.c: pikchr diagrams as inline SVG (diagram.h): pikchr's drawing
 * recoloured for the theme and given an accessible name, or its error read
 * back into a message and a place. */
#include "md/diagram.h"

#include "base/arena.h"

#include <stdlib.h>
#include <string.h>

/* pikchr.c (deps/pikchr/, compiled by mk/pikchr.mk): the Rust crate it
 * comes in ships no header. The returned text is malloc'd (NULL only when
 * out of memory); *w and *h are -1 after an error. */
char *pikchr(const char *zText, const char *zClass, unsigned int mFlags, int *pnWidth,
             int *pnHeight);
/* errors as plain text (not HTML) */
#define PIKCHR_PLAINTEXT_ERRORS 0x0001

/* ---- the drawing ---- */

/* recolour: appends s[0..n) (the elements inside pikchr's <svg>) to out
 * with black and white made the theme's. pikchr writes a colour in a tag
 * only, as fill="rgb(R,G,B)" (text) or "fill:rgb(...)", "stroke:rgb(...)"
 * in a style attribute (shapes, arrowheads); a text's words are escaped
 * ('<' and '>' never occur in them), so that what is between '<' and '>'
 * is a tag and "rgb(0,0,0)" written in a label is left alone. A white
 * text's fill becomes a style attribute (a text has none): CSS variables
 * do not work in SVG's presentation attributes. */
static void recolour(struct buf *out, const char *s, size_t n)
{
	static const char black[] = "rgb(0,0,0)", white[] = "rgb(255,255,255)",
	                  fill_attr[] = "fill=\"";
	size_t run = 0; /* where the bytes not yet copied start */
	int in_tag = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '<' || s[i] == '>') {
			in_tag = s[i] == '<';
			continue;
		}
		if (!in_tag || s[i] != 'r' || i == 0 || (s[i - 1] != ':' && s[i - 1] != '"'))
			continue;
		int attr =
		    s[i - 1] == '"' && i >= sizeof fill_attr - 1 &&
		    memcmp(s + i - (sizeof fill_attr - 1), fill_attr, sizeof fill_attr - 1) == 0;
		if (s[i - 1] == '"' && !attr)
			continue;
		if (n - i >= sizeof black - 1 && memcmp(s + i, black, sizeof black - 1) == 0) {
			buf_append(out, s + run, i - run);
			buf_puts(out, "currentColor");
			i += sizeof black - 2;
			run = i + 1;
		} else if (n - i >= sizeof white - 1 &&
		           memcmp(s + i, white, sizeof white - 1) == 0) {
			if (attr) {
				buf_append(out, s + run, i - (sizeof fill_attr - 1) - run);
				buf_puts(out, "style=\"fill:");
			} else {
				buf_append(out, s + run, i - run);
			}
			buf_puts(out, "var(--bg,#fff)");
			i += sizeof white - 2;
			run = i + 1;
		}
	}
	buf_append(out, s + run, n - run);
}

/* attr_value: the value of name="..." in the tag t[0..n), or an empty str. */
static struct str attr_value(const char *t, size_t n, const char *name)
{
	size_t k = strlen(name);
	for (size_t i = 0; i + k + 2 <= n; i++) {
		if ((i == 0 || t[i - 1] == ' ') && memcmp(t + i, name, k) == 0 && t[i + k] == '=' &&
		    t[i + k + 1] == '"') {
			const char *v = t + i + k + 2, *e = memchr(v, '"', n - (i + k + 2));
			if (e)
				return (struct str){v, (size_t)(e - v)};
		}
	}
	return (struct str){"", 0};
}

/* drawing: out gets pikchr's SVG svg[0..n), w x h pixels, with folio's
 * <svg> start tag and title. Returns 0, or -1 if it is not the SVG pikchr
 * writes (then out is untouched). */
static int drawing(struct buf *out, const char *svg, size_t n, int w, int h, struct str title)
{
	const char *gt = memchr(svg, '>', n);
	if (n < 5 || memcmp(svg, "<svg ", 5) != 0 || !gt)
		return -1;
	struct str view = attr_value(svg, (size_t)(gt - svg), "viewBox");
	const char *body = gt + 1, *end = svg + n;
	while (end > body && (end[-1] == '\n' || end[-1] == ' '))
		end--;
	if ((size_t)(end - body) < 6 || memcmp(end - 6, "</svg>", 6) != 0 || !view.len)
		return -1;
	end -= 6;
	if (body < end && *body == '\n')
		body++;
	if (!title.len)
		title = STR_LIT(DIAGRAM_UNTITLED);
	buf_puts(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"");
	buf_put_html(out, view.p, view.len);
	buf_putc(out, '"');
	if (w > 0 && h > 0) /* its size, which max-width lets a phone shrink */
		buf_printf(out, " width=\"%d\" height=\"%d\"", w, h);
	buf_puts(out, " role=\"img\" aria-label=\"");
	buf_put_html(out, title.p, title.len);
	buf_puts(out, "\" style=\"font-size:initial;max-width:100%;height:auto\"><title>");
	buf_put_html(out, title.p, title.len);
	buf_puts(out, "</title>\n");
	recolour(out, body, (size_t)(end - body));
	buf_puts(out, "</svg>");
	return 0;
}

/* ---- errors ---- */

/* line_start: where the line holding s[i] starts, in s[0..]. */
static size_t line_start(const char *s, size_t i)
{
	while (i > 0 && s[i - 1] != '\n')
		i--;
	return i;
}

/* error_place: the place pikchr's error shows, from the two lines above
 * its "ERROR: " line at e in o: the last line of context (the source's line
 * number N in a C comment, then that line), then a line of spaces and
 * carets under the token.
 * pikchr prints the source's line N (1-based) after a 12-byte prefix, and
 * the carets under byte column C (1-based) after 11 + C spaces, or 10 + C
 * on the first line (it counts that line's columns from 0); when the token
 * is at the end of a line or of the source, one space more: just after the
 * line's last byte. */
static void error_place(const char *o, size_t e, int *line, int *col)
{
	if (e < 2)
		return;
	size_t caret = line_start(o, e - 1), k = caret;
	while (k < e && o[k] == ' ')
		k++;
	if (caret < 2 || k >= e || o[k] != '^')
		return;
	size_t ctx = line_start(o, caret - 1), d = ctx + 2;
	if (caret - ctx < 12 || memcmp(o + ctx, "/*", 2) != 0)
		return;
	while (o[d] == ' ')
		d++;
	long n = 0;
	for (; o[d] >= '0' && o[d] <= '9' && n < 100000000; d++)
		n = n * 10 + (o[d] - '0');
	long c = (long)(k - caret) - (n == 1 ? 10 : 11);
	if (n < 1 || o[d] != ' ')
		return;
	*line = (int)n;
	*col = c < 1 ? 1 : c > 100000000 ? 100000000 : (int)c;
}

/* read_error: pikchr's error output o[0..n) (plain text) as a message in
 * err and a place. The message is on the first line that starts with
 * "ERROR: " (the lines of context before it start with a C comment, those
 * after it are the macros it was called from); an error with no place is
 * its message alone, on a line of its own. */
static void read_error(const char *o, size_t n, struct buf *err, int *line, int *col)
{
	size_t e = 0;
	int found = 0;
	for (const char *p = o; (p = memmem(p, n - (size_t)(p - o), "ERROR: ", 7)) != NULL; p++) {
		if (p == o || p[-1] == '\n') {
			e = (size_t)(p - o);
			found = 1;
			break;
		}
	}
	struct str msg;
	if (found) {
		const char *m = o + e + 7, *nl = memchr(m, '\n', n - e - 7);
		msg = (struct str){m, nl ? (size_t)(nl - m) : n - e - 7};
		error_place(o, e, line, col);
	} else {
		msg = str_trim((struct str){o, n});
		const char *nl = memchr(msg.p, '\n', msg.len);
		if (nl)
			msg.len = (size_t)(nl - msg.p);
	}
	msg = str_trim(msg);
	if (msg.len)
		buf_put_str(err, msg);
	else
		buf_puts(err, "cannot draw this diagram");
}

/* ---- the API ---- */

int diagram_refuse(const char *src, size_t len, struct buf *err, int *line, int *col)
{
	*line = *col = 0;
	if (len > DIAGRAM_MAX_SOURCE) {
		buf_printf(err,
		           "the diagram is %zu bytes, past the limit of %zu KiB (see LIMITS in "
		           "folio-site(5)); split it",
		           len, DIAGRAM_MAX_SOURCE >> 10);
		return -1;
	}
	const char *nul = memchr(src, '\0', len);
	if (nul) {
		size_t at = (size_t)(nul - src), ls = line_start(src, at);
		buf_puts(err, "the diagram holds a NUL byte");
		*line = 1;
		for (size_t i = 0; i < ls; i++)
			*line += src[i] == '\n';
		*col = (int)(at - ls) + 1;
		return -1;
	}
	return 0;
}

int diagram_pikchr(struct buf *out, const char *src, size_t len, struct str title, struct buf *err,
                   int *line, int *col)
{
	if (diagram_refuse(src, len, err, line, col) < 0)
		return -1;
	char *text = xmalloc(len + 1); /* pikchr reads a C string */
	memcpy(text, src, len);
	text[len] = '\0';
	int w = -1, h = -1;
	char *o = pikchr(text, NULL, PIKCHR_PLAINTEXT_ERRORS, &w, &h);
	free(text);
	if (!o)
		xoom();
	size_t n = strlen(o);
	int rc = 0;
	if (w < 0) {
		read_error(o, n, err, line, col);
		rc = -1;
	} else if (n < 5 || memcmp(o, "<svg ", 5) != 0) {
		rc = 1; /* "<!-- empty pikchr diagram -->" */
	} else if (drawing(out, o, n, w, h, title) < 0) {
		buf_puts(err, "pikchr wrote no SVG folio can read");
		rc = -1;
	}
	free(o);
	return rc;
}

#ifndef FOLIO_PIKCHR_VERSION
#define FOLIO_PIKCHR_VERSION "(version not known)"
#endif

const char *diagram_version(void)
{
	return "pikchr " FOLIO_PIKCHR_VERSION;
}
