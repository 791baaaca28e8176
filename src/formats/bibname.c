/* bibname.c: what a BibTeX value says: its LaTeX made Unicode text or
 * HTML (accents, special letters, dashes, escaped specials, emphasis),
 * and a name list split into names, each into BibTeX's four parts. */
#include "formats/bibtex.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include <utf8proc.h>

/* The accents LaTeX writes before a letter, and the combining mark each
 * puts on it (the pair is then composed: \"o is U+00F6). */
static const struct {
	const char *name;
	unsigned mark;
} accents[] = {
	{"'", 0x301}, {"`", 0x300}, {"^", 0x302}, {"\"", 0x308}, {"~", 0x303}, {"=", 0x304}, {".", 0x307},
	{"u", 0x306}, {"v", 0x30C}, {"H", 0x30B}, {"c", 0x327}, {"d", 0x323}, {"b", 0x331}, {"k", 0x328},
	{"r", 0x30A},
};

/* Commands that are a character of their own. */
static const struct {
	const char *name, *text;
} letters[] = {
	{"aa", "å"}, {"AA", "Å"}, {"o", "ø"}, {"O", "Ø"}, {"ss", "ß"}, {"ae", "æ"}, {"AE", "Æ"}, {"oe", "œ"},
	{"OE", "Œ"}, {"l", "ł"}, {"L", "Ł"}, {"i", "ı"}, {"j", "ȷ"}, {"&", "&"}, {"%", "%"}, {"$", "$"},
	{"_", "_"}, {"#", "#"}, {"{", "{"}, {"}", "}"}, {" ", " "}, {"\\", " "}, {",", "\xE2\x80\x89"},
	{"ldots", "…"}, {"dots", "…"}, {"textendash", "–"}, {"textemdash", "—"}, {"LaTeX", "LaTeX"},
	{"TeX", "TeX"}, {"copyright", "©"}, {"textregistered", "®"}, {"S", "§"}, {"P", "¶"},
	{"textquoteleft", "‘"}, {"textquoteright", "’"}, {"textquotedblleft", "“"},
	{"textquotedblright", "”"}, {"guillemotleft", "«"}, {"guillemotright", "»"}, {"textasciitilde", "~"},
	{"textbackslash", "\\"}, {"euro", "€"}, {"pounds", "£"}, {"-", ""}, {"/", ""},
};

/* Commands whose argument is shown in a style: its HTML element. */
static const struct {
	const char *name, *tag;
} styles[] = {
	{"emph", "em"}, {"textit", "em"}, {"textsl", "em"}, {"textbf", "strong"}, {"texttt", "code"},
};

/* Braces are closed with what their command opened: an element's name,
 * or nothing. Deeper than this, a brace closes nothing (styles inside
 * 64 levels of braces are shown as text). */
#define LATEX_STACK 64

struct latex {
	struct buf *out;
	int html;
	const char *tags[LATEX_STACK];
	size_t depth;
	int space; /* a space is pending */
};

/* put: s[0..n) as text, its control characters left out (an accent's
 * letter may be one: no NUL may reach a caller's C string, no control
 * character its HTML). */
static void put(struct latex *l, const char *s, size_t n)
{
	if (l->space && l->out->len)
		buf_putc(l->out, ' ');
	l->space = 0;
	while (n) {
		size_t k = 0;
		while (k < n && (unsigned char)s[k] >= 0x20 && s[k] != 0x7F)
			k++;
		if (l->html)
			buf_put_html_text(l->out, s, k);
		else
			buf_append(l->out, s, k);
		if (k < n)
			k++; /* the control character */
		s += k;
		n -= k;
	}
}

static void put_raw(struct latex *l, const char *s)
{
	if (l->space && l->out->len)
		buf_putc(l->out, ' ');
	l->space = 0;
	buf_puts(l->out, s);
}

/* accent: mark put on the letter base (a UTF-8 sequence of n bytes; none:
 * the mark alone), composed when Unicode has the letter. */
static void accent(struct latex *l, const char *base, size_t n, unsigned mark)
{
	char seq[16];
	if (n > 8)
		n = 8;
	memcpy(seq, base, n);
	n += (size_t)utf8proc_encode_char((utf8proc_int32_t)mark, (utf8proc_uint8_t *)seq + n);
	utf8proc_uint8_t *out = NULL;
	utf8proc_ssize_t m = utf8proc_map((const utf8proc_uint8_t *)seq, (utf8proc_ssize_t)n, &out,
					  UTF8PROC_COMPOSE | UTF8PROC_STABLE);
	if (m > 0)
		put(l, (const char *)out, (size_t)m);
	else
		put(l, seq, n);
	free(out);
}

static void open_brace(struct latex *l, const char *tag)
{
	if (l->depth < LATEX_STACK) {
		l->tags[l->depth] = tag;
		if (tag && l->html) {
			put_raw(l, "<");
			buf_puts(l->out, tag);
			buf_putc(l->out, '>');
		}
	}
	l->depth++;
}

static void close_brace(struct latex *l)
{
	if (!l->depth)
		return; /* a '}' that closes nothing: dropped */
	l->depth--;
	if (l->depth < LATEX_STACK && l->tags[l->depth] && l->html) {
		buf_puts(l->out, "</");
		buf_puts(l->out, l->tags[l->depth]);
		buf_putc(l->out, '>');
	}
}

/* accent_arg: the letter an accent command at s[*i] is put on: {x},
 * {\i}, x, or \i; its UTF-8 in *base (n bytes); *i past it. */
static void accent_arg(const char *s, size_t len, size_t *i, const char **base, size_t *n)
{
	size_t k = *i;
	int braced = k < len && s[k] == '{';
	if (braced)
		k++;
	*base = "";
	*n = 0;
	if (k + 1 < len && s[k] == '\\' && (s[k + 1] == 'i' || s[k + 1] == 'j') &&
	    (k + 2 >= len || !isalpha((unsigned char)s[k + 2]))) {
		*base = s[k + 1] == 'i' ? "i" : "j";
		*n = 1;
		k += 2;
		while (braced && k < len && s[k] == ' ')
			k++;
	} else if (k < len && s[k] != '}' && s[k] != '\\' && s[k] != '{') {
		size_t m = 1;
		while (k + m < len && ((unsigned char)s[k + m] & 0xC0) == 0x80)
			m++;
		*base = s + k;
		*n = m;
		k += m;
	}
	if (braced && k < len && s[k] == '}')
		k++;
	*i = k;
}

/* command: the control sequence at s[*i] (its backslash), *i past it and
 * what it takes. */
static void command(struct latex *l, const char *s, size_t len, size_t *i)
{
	size_t k = *i + 1, start = k;
	if (k < len && isalpha((unsigned char)s[k]))
		while (k < len && isalpha((unsigned char)s[k]))
			k++;
	else if (k < len)
		k++;
	size_t n = k - start;
	int word = n && isalpha((unsigned char)s[start]);
	if (word) /* TeX drops the spacing after a control word */
		while (k < len && (s[k] == ' ' || s[k] == '\n' || s[k] == '\t'))
			k++;
	for (size_t a = 0; a < sizeof accents / sizeof *accents; a++)
		if (strlen(accents[a].name) == n && !memcmp(accents[a].name, s + start, n)) {
			/* \"o, \"{o}, {\"o}, \c{c} and \c c */
			const char *base;
			size_t bn;
			accent_arg(s, len, &k, &base, &bn);
			accent(l, base, bn, accents[a].mark);
			*i = k;
			return;
		}
	for (size_t a = 0; a < sizeof letters / sizeof *letters; a++)
		if (strlen(letters[a].name) == n && !memcmp(letters[a].name, s + start, n)) {
			if (word && k + 1 < len && s[k] == '{' && s[k + 1] == '}')
				k += 2; /* \ss{} */
			put(l, letters[a].text, strlen(letters[a].text));
			*i = k;
			return;
		}
	for (size_t a = 0; a < sizeof styles / sizeof *styles; a++)
		if (strlen(styles[a].name) == n && !memcmp(styles[a].name, s + start, n) && k < len && s[k] == '{') {
			open_brace(l, styles[a].tag);
			*i = k + 1;
			return;
		}
	/* unknown: the command goes, its argument (if any) stays as text */
	*i = k;
}

void bibtex_latex(struct buf *out, struct str raw, int html)
{
	struct latex l = {.out = out, .html = html};
	const char *s = raw.p ? raw.p : "";
	size_t len = raw.len, i = 0;
	while (i < len) {
		char c = s[i];
		switch (c) {
		case '{':
			open_brace(&l, NULL);
			i++;
			break;
		case '}':
			close_brace(&l);
			i++;
			break;
		case '\\':
			command(&l, s, len, &i);
			break;
		case '~':
			put(&l, "\xC2\xA0", 2);
			i++;
			break;
		case '$':
			i++; /* math: its text, without the dollars */
			break;
		case '-':
			if (i + 2 < len && s[i + 1] == '-' && s[i + 2] == '-') {
				put(&l, "—", strlen("—"));
				i += 3;
			} else if (i + 1 < len && s[i + 1] == '-') {
				put(&l, "–", strlen("–"));
				i += 2;
			} else {
				put(&l, "-", 1);
				i++;
			}
			break;
		case '`':
		case '\'': { /* `` '' are double quotes, ` ' single ones */
			int two = i + 1 < len && s[i + 1] == c;
			const char *q = c == '`' ? (two ? "“" : "‘") : (two ? "”" : "’");
			put(&l, q, strlen(q));
			i += 1 + (size_t)two;
			break;
		}
		case ' ': case '\t': case '\n': case '\r': case '\f': case '\v':
			l.space = 1;
			i++;
			break;
		default: {
			if ((unsigned char)c < 0x20 || c == 0x7F) {
				/* no control character in HTML (a NUL would also end
				 * the C string cmark is handed); a NUL is U+FFFD, as
				 * CommonMark makes it */
				if (!c)
					put(&l, "\xEF\xBF\xBD", 3);
				i++;
				break;
			}
			size_t k = i + 1;
			while (k < len && (unsigned char)s[k] >= 0x20 && s[k] != 0x7F && !strchr("{}\\~$-`' ", s[k]))
				k++;
			put(&l, s + i, k - i);
			i = k;
		}
		}
	}
	while (l.depth)
		close_brace(&l); /* a value's braces pair up; a caller's text may not */
}

/* ---- names ---- */

/* name_space: c parts the words of a name (a NUL does not) */
static int name_space(char c)
{
	return byte_in(" \t\n\r~", c);
}

/* is_and: s[k..) is " and " at brace depth 0 (k at the 'a', spacing
 * before it). */
static int is_and(const char *s, size_t len, size_t k)
{
	return k + 3 < len && k > 0 && name_space(s[k - 1]) && !strncasecmp(s + k, "and", 3) &&
	       name_space(s[k + 3]);
}

static struct str trim(struct str s)
{
	while (s.len && (s.p[0] == ',' || name_space(s.p[0])))
		s.p++, s.len--;
	while (s.len && (s.p[s.len - 1] == ',' || name_space(s.p[s.len - 1])))
		s.len--;
	return s;
}

/* lower_word: word w starts with a lower-case letter, the first letter
 * that is not a command's name (\"{o}sterreich: o), outside a group of
 * braces that is no special character ({van} is not lower case: BibTeX
 * keeps braced words as they are). */
static int lower_word(struct str w)
{
	size_t k = 0;
	if (w.len > 1 && w.p[0] == '{' && w.p[1] != '\\')
		return 0;
	while (k < w.len) {
		char c = w.p[k];
		if (c == '\\') {
			k++;
			if (k < w.len && isalpha((unsigned char)w.p[k])) {
				size_t st = k;
				while (k < w.len && isalpha((unsigned char)w.p[k]))
					k++;
				/* a letter command: \o, \aa, \l are letters */
				size_t n = k - st;
				if ((n == 1 && strchr("oliOLj", w.p[st])) || (n == 2 && (!memcmp(w.p + st, "aa", 2) ||
											  !memcmp(w.p + st, "ae", 2) || !memcmp(w.p + st, "oe", 2) ||
											  !memcmp(w.p + st, "ss", 2))))
					return islower((unsigned char)w.p[st]);
			} else
				k++;
			continue;
		}
		if (isalpha((unsigned char)c))
			return islower((unsigned char)c);
		if ((unsigned char)c >= 0x80)
			return 0;
		k++;
	}
	return 0;
}

/* words: the words of s at depth 0 (spacing and ~ between them), at most
 * max, in w; returns how many (the last holds the rest past max). */
static size_t words(struct str s, struct str *w, size_t max)
{
	size_t n = 0, k = 0, depth = 0;
	while (k < s.len && n < max) {
		while (k < s.len && name_space(s.p[k]))
			k++;
		if (k >= s.len)
			break;
		size_t st = k;
		for (; k < s.len; k++) {
			if (s.p[k] == '{')
				depth++;
			else if (s.p[k] == '}' && depth)
				depth--;
			else if (!depth && name_space(s.p[k]))
				break;
		}
		if (n == max - 1)
			k = s.len;
		w[n++] = trim((struct str){s.p + st, k - st});
	}
	return n;
}

static struct str span(struct str *w, size_t from, size_t to)
{
	if (from >= to)
		return (struct str){"", 0};
	return (struct str){w[from].p, (size_t)(w[to - 1].p + w[to - 1].len - w[from].p)};
}

/* von_last: "von Last" words w[0..n) into *nm: the von part the words
 * from the first lower-case one to the last lower-case one before the
 * last word. */
static void von_last(struct str *w, size_t n, struct bib_name *nm)
{
	size_t v0 = n, v1 = n;
	for (size_t k = 0; k + 1 < n; k++)
		if (lower_word(w[k])) {
			if (v0 == n)
				v0 = k;
			v1 = k + 1;
		}
	if (v0 == n) {
		nm->last = span(w, 0, n);
		return;
	}
	nm->von = span(w, v0, v1);
	nm->last = span(w, v1, n);
}

#define NAME_WORDS 64

/* one_name: s (trimmed, not empty) into *nm. */
static void one_name(struct str s, struct bib_name *nm)
{
	struct str commas[3];
	size_t nc = 0, depth = 0, st = 0;
	for (size_t k = 0; k < s.len; k++) {
		if (s.p[k] == '{')
			depth++;
		else if (s.p[k] == '}' && depth)
			depth--;
		else if (!depth && s.p[k] == ',' && nc < 2) {
			commas[nc++] = trim((struct str){s.p + st, k - st});
			st = k + 1;
		}
	}
	commas[nc++] = trim((struct str){s.p + st, s.len - st});
	struct str w[NAME_WORDS];
	*nm = (struct bib_name){{"", 0}, {"", 0}, {"", 0}, {"", 0}};
	if (nc == 1) {
		/* First von Last: First is the words before the first lower-case
		 * one (or all but the last) */
		size_t n = words(commas[0], w, NAME_WORDS);
		if (!n)
			return;
		size_t f = 0;
		while (f + 1 < n && !lower_word(w[f]))
			f++;
		nm->first = span(w, 0, f);
		von_last(w + f, n - f, nm);
		return;
	}
	size_t n = words(commas[0], w, NAME_WORDS);
	von_last(w, n, nm);
	if (nc == 3) {
		nm->jr = commas[1];
		nm->first = commas[2];
	} else {
		nm->first = commas[1];
	}
}

size_t bibtex_names(struct arena *a, struct str value, struct bib_name **out, int *others)
{
	*others = 0;
	*out = NULL;
	const char *s = value.p ? value.p : "";
	size_t len = value.len, n = 0, cap = 0, depth = 0, st = 0;
	struct bib_name *names = NULL;
	for (size_t k = 0; k <= len; k++) {
		int end = k == len;
		if (!end) {
			if (s[k] == '{')
				depth++;
			else if (s[k] == '}' && depth)
				depth--;
			if (depth || !is_and(s, len, k))
				continue;
		}
		struct str part = trim((struct str){s + st, k - st});
		st = k + 3;
		if (!part.len)
			continue;
		if (part.len == 6 && !strncasecmp(part.p, "others", 6)) {
			*others = 1;
			continue;
		}
		if (n == cap) {
			size_t ncap = cap ? cap * 2 : 8;
			struct bib_name *m = arena_alloc(a, ncap * sizeof *m);
			if (n)
				memcpy(m, names, n * sizeof *m);
			names = m;
			cap = ncap;
		}
		one_name(part, &names[n++]);
		if (end)
			break;
		k += 2;
	}
	*out = names;
	return n;
}
