/* ansi.c: terminal text (a notebook's tracebacks and streams) to HTML: the
 * ANSI SGR colours and bold as <span class="ansi-..."> classes, every
 * other escape sequence dropped, the rest HTML-escaped. */
#include "read/notebook.h"

#include <string.h>

/* the classes of SGR 30-37 (and 90-97, "bright" before them) */
static const char *const colour[8] = {"black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"};

/* The look of the text at a point: fg is 0 (the default), 1-8 (30-37)
 * or 9-16 (90-97). */
struct sgr {
	int fg, bold;
};

/* open_span: the span of state st, if it is not the default's. */
static void open_span(struct buf *out, struct sgr st)
{
	if (!st.fg && !st.bold)
		return;
	buf_puts(out, "<span class=\"");
	if (st.fg)
		buf_printf(out, "ansi-%s%s", st.fg > 8 ? "bright-" : "", colour[(st.fg - 1) % 8]);
	if (st.bold)
		buf_puts(out, st.fg ? " ansi-bold" : "ansi-bold");
	buf_puts(out, "\">");
}

/* apply: the SGR parameters p[0..n) ("1;31", "" = 0) applied to *st.
 * 38 and 48 take their colour's own parameters (5;N or 2;R;G;B), which
 * are skipped, not read as codes of their own. */
static void apply(struct sgr *st, const char *p, size_t n)
{
	size_t i = 0;
	int skip = 0, extended = 0; /* parameters of a 38/48 still to skip */
	do {
		long v = 0;
		int digits = 0;
		while (i < n && p[i] >= '0' && p[i] <= '9') {
			if (v < 100000)
				v = v * 10 + (p[i] - '0');
			i++;
			digits++;
		}
		if (i < n && p[i] != ';' && p[i] != ':')
			return; /* not a plain list: left alone */
		i++;
		if (extended) { /* the 5 or 2 after 38/48 */
			skip = v == 5 ? 1 : v == 2 ? 3 : 0;
			extended = 0;
			continue;
		}
		if (skip) {
			skip--;
			continue;
		}
		if (!digits || v == 0)
			*st = (struct sgr){0, 0};
		else if (v == 1)
			st->bold = 1;
		else if (v == 22)
			st->bold = 0;
		else if (v >= 30 && v <= 37)
			st->fg = (int)v - 29;
		else if (v >= 90 && v <= 97)
			st->fg = (int)v - 81;
		else if (v == 39)
			st->fg = 0;
		else if (v == 38 || v == 48)
			extended = 1;
	} while (i < n);
}

/* escape_end: the length of the escape sequence at s[0] (an ESC) in
 * s[0..n): CSI (ESC [ params final), OSC, DCS, APC or PM (ESC ] ... BEL
 * or ESC \), or ESC and one byte; one cut off by the end is all of the
 * rest. For a CSI: where its parameters are (*par, *npar) and its final
 * byte (*final; 0: not a CSI, or one without a final byte). */
static size_t escape_end(const char *s, size_t n, size_t *par, size_t *npar, char *final)
{
	*final = 0;
	if (n < 2)
		return n;
	if (s[1] == '[') {
		size_t i = 2;
		while (i < n && (unsigned char)s[i] >= 0x20 && (unsigned char)s[i] <= 0x3F)
			i++; /* parameters and intermediates */
		if (i >= n)
			return n;
		*par = 2;
		*npar = i - 2;
		if ((unsigned char)s[i] >= 0x40 && (unsigned char)s[i] <= 0x7E)
			*final = s[i];
		return i + 1;
	}
	if (s[1] == ']' || s[1] == 'P' || s[1] == '_' || s[1] == '^') {
		for (size_t i = 2; i < n; i++) {
			if (s[i] == '\a')
				return i + 1;
			if (s[i] == 0x1B && i + 1 < n && s[i + 1] == '\\')
				return i + 2;
		}
		return n;
	}
	return 2;
}

void ansi_to_html(struct buf *out, const char *s, size_t n)
{
	struct sgr st = {0, 0};
	int open = 0; /* a span of st is open */
	size_t i = 0;
	while (i < n) {
		unsigned char c = (unsigned char)s[i];
		if (c == 0x1B) {
			size_t par = 0, npar = 0;
			char final;
			size_t len = escape_end(s + i, n - i, &par, &npar, &final);
			if (final == 'm') {
				struct sgr next = st;
				apply(&next, s + i + par, npar);
				if (next.fg != st.fg || next.bold != st.bold) {
					if (open)
						buf_puts(out, "</span>");
					open = 0;
					st = next;
				}
			}
			i += len;
			continue;
		}
		/* a run of text: opens its span first */
		size_t j = i;
		while (j < n && s[j] != 0x1B)
			j++;
		if (!open && (st.fg || st.bold)) {
			open_span(out, st);
			open = 1;
		}
		for (; i < j; i++) {
			c = (unsigned char)s[i];
			switch (c) {
			case '&': buf_puts(out, "&amp;"); break;
			case '<': buf_puts(out, "&lt;"); break;
			case '>': buf_puts(out, "&gt;"); break;
			case '"': buf_puts(out, "&quot;"); break;
			case '\n':
			case '\t': buf_putc(out, c); break;
			default:
				/* other control characters (a bell, a backspace)
				 * show nothing in a page */
				if (c >= 0x20 && c != 0x7F)
					buf_putc(out, c);
			}
		}
	}
	if (open)
		buf_puts(out, "</span>");
}
