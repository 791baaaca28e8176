/* codeblock.c: code block options (the info string) and per-line wrapping
 * of highlighted code. */
#include "md/codeblock.h"

#include "base/diag.h"
#include "md/directive.h"

#include <stdlib.h>
#include <string.h>

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

/* ---- hl="3-5,9" ---- */

/* hl_num: the line number s[0..n) (digits, spaces around), or 0 if it is
 * not one, or CODE_HL_MAX + 1 if it is too large. */
static size_t hl_num(const char *s, size_t n)
{
	struct str t = str_trim((struct str){s, n});
	size_t v = 0;
	if (!t.len)
		return 0;
	for (size_t i = 0; i < t.len; i++) {
		if (t.p[i] < '0' || t.p[i] > '9')
			return 0;
		v = v * 10 + (size_t)(t.p[i] - '0');
		if (v > CODE_HL_MAX)
			return CODE_HL_MAX + 1;
	}
	return v ? v : (size_t)-1; /* -1: a zero, told apart from no number */
}

/* parse_hl: checks the list s[0..n), counts its items in *count and finds
 * its largest line (ranges NULL), or puts its items in ranges. Returns 0,
 * or -1 with a message in err. */
static int parse_hl(struct str v, size_t *max, size_t *count, struct code_range *ranges, struct buf *err)
{
	if (!str_trim(v).len) /* hl="": nothing highlighted */
		return 0;
	size_t i = 0;
	while (i <= v.len) {
		const char *comma = memchr(v.p + i, ',', v.len - i);
		size_t e = comma ? (size_t)(comma - v.p) : v.len;
		struct str item = str_trim((struct str){v.p + i, e - i});
		const char *dash = memchr(item.p, '-', item.len);
		size_t lo, hi;
		if (dash) {
			lo = hl_num(item.p, (size_t)(dash - item.p));
			hi = hl_num(dash + 1, item.len - (size_t)(dash - item.p) - 1);
		} else {
			lo = hi = hl_num(item.p, item.len);
		}
		if (!lo || !hi) {
			buf_printf(err, "bad line range '%.*s' in hl (hint: write hl=\"3-5,9\")",
			           STR_FMT(item));
			return -1;
		}
		if (lo == (size_t)-1 || hi == (size_t)-1) {
			buf_printf(err,
			           "bad line number '0' in hl (hint: lines are numbered from 1)");
			return -1;
		}
		if (lo > CODE_HL_MAX || hi > CODE_HL_MAX) {
			buf_printf(err, "line '%.*s' in hl is past the limit of %d lines",
			           STR_FMT(item), CODE_HL_MAX);
			return -1;
		}
		if (lo > hi) {
			struct str l = str_trim((struct str){item.p, (size_t)(dash - item.p)});
			struct str h = str_trim(
			    (struct str){dash + 1, (size_t)(item.p + item.len - dash - 1)});
			buf_printf(err,
			           "bad range '%.*s' in hl (hint: write the smaller number first: "
			           "'%.*s-%.*s')",
			           STR_FMT(item), STR_FMT(h), STR_FMT(l));
			return -1;
		}
		if (ranges)
			ranges[*count] = (struct code_range){lo, hi};
		++*count;
		if (hi > *max)
			*max = hi;
		i = e + 1;
	}
	return 0;
}

static int cmp_range(const void *x, const void *y)
{
	const struct code_range *a = x, *b = y;
	return a->lo < b->lo ? -1 : a->lo > b->lo;
}

/* ---- the options ---- */

static const char *const OPTIONS[] = {"title", "hl", "linenos", "start", "file", "lines", "symbol", "link", NULL};

/* Other generators' names for folio's options, for the hint. */
static const char *const ALIASES[][2] = {
    {"hl_lines", "hl"},
    {"highlight", "hl"},
    {"emphasize-lines", "hl"},
    {"linenostart", "start"},
    {"linenums", "linenos"},
    {"line-numbers", "linenos"},
    {"numberLines", "linenos"},
    {"filename", "title"},
    {"path", "file"},
    {"src", "file"},
    {"include", "file"},
    {"line", "lines"},
    {"range", "lines"},
    {"function", "symbol"},
    {"fn", "symbol"},
    {"name", "symbol"},
    {"caption", "title"},
    {NULL, NULL},
};

static void unknown_option(struct buf *err, struct str key)
{
	const char *guess = NULL;
	for (size_t i = 0; ALIASES[i][0]; i++)
		if (str_eq_cstr(key, ALIASES[i][0]))
			guess = ALIASES[i][1];
	if (!guess)
		guess = diag_suggest(key.p, key.len, OPTIONS);
	if (guess)
		buf_printf(err, "unknown code block option '%.*s' (did you mean '%s'?)",
		           STR_FMT(key), guess);
	else
		buf_printf(err,
		           "unknown code block option '%.*s' (hint: the options are title, hl, "
		           "linenos, start, file, lines, symbol and link)",
		           STR_FMT(key));
}

/* ---- code from a file: file=, lines=, symbol=, link ---- */

/* parse_lines: lines="10-42", "10" or "10-" into o. 0, or -1 with a
 * message in err. */
static int parse_lines(struct str v, struct code_opts *o, struct buf *err)
{
	struct str t = str_trim(v);
	const char *dash = t.len ? memchr(t.p, '-', t.len) : NULL;
	struct str l = t, h = t;
	if (dash) {
		l = str_trim((struct str){t.p, (size_t)(dash - t.p)});
		h = str_trim((struct str){dash + 1, (size_t)(t.p + t.len - dash - 1)});
	}
	size_t lo = hl_num(l.p, l.len), hi = dash && !h.len ? CODE_HL_MAX : hl_num(h.p, h.len);
	if (!lo || !hi) {
		buf_printf(err,
		           "bad range '%.*s' in lines (hint: write lines=\"10-42\", lines=\"10\", or "
		           "lines=\"10-\" for line 10 to the end)",
		           STR_FMT(t));
		return -1;
	}
	if (lo == (size_t)-1 || hi == (size_t)-1) {
		buf_printf(err, "bad line number '0' in lines (hint: lines are numbered from 1)");
		return -1;
	}
	if (lo > CODE_HL_MAX || hi > CODE_HL_MAX) {
		buf_printf(err, "line '%.*s' in lines is past the limit of %d lines", STR_FMT(t), CODE_HL_MAX);
		return -1;
	}
	if (lo > hi) {
		buf_printf(err, "bad range '%.*s' in lines (hint: write the smaller number first: '%.*s-%.*s')",
		           STR_FMT(t), STR_FMT(h), STR_FMT(l));
		return -1;
	}
	o->lines_lo = lo;
	o->lines_hi = dash && !h.len ? CODE_LINES_END : hi;
	return 0;
}

/* file_option: file=, lines=, symbol= or link (k) into o: 0; 1 when k is
 * none of them; -1 with a message in err. */
static int file_option(const struct dattr *at, struct code_opts *o, struct buf *err)
{
	struct str k = at->key, v = at->value;
	if (str_eq_cstr(k, "link")) {
		if (at->flag || str_eq_cstr(v, "true")) {
			o->link = 1;
		} else if (str_eq_cstr(v, "false")) {
			o->link = 0;
		} else {
			buf_printf(err, "bad value '%.*s' for link (hint: write link, or link=false)", STR_FMT(v));
			return -1;
		}
		return 0;
	}
	if (!str_eq_cstr(k, "file") && !str_eq_cstr(k, "lines") && !str_eq_cstr(k, "symbol"))
		return 1;
	if (at->flag || !str_trim(v).len) {
		const char *example = str_eq_cstr(k, "file")    ? "file=\"code/gemm.cu\""
		                      : str_eq_cstr(k, "lines") ? "lines=\"10-42\""
		                                                : "symbol=\"gemm_kernel\"";
		buf_printf(err, "'%.*s' needs a value (hint: %s)", STR_FMT(k), example);
		return -1;
	}
	if (str_eq_cstr(k, "file"))
		o->file = str_trim(v);
	else if (str_eq_cstr(k, "symbol"))
		o->symbol = str_trim(v);
	else
		return parse_lines(v, o, err);
	return 0;
}

/* file_check: the options that go with file= given together rightly: 0,
 * or -1 with a message in err. */
static int file_check(const struct code_opts *o, struct buf *err)
{
	const char *lone = o->lines_lo ? "lines" : o->symbol.len ? "symbol" : o->link ? "link" : NULL;
	if (lone && !o->file.len) {
		buf_printf(err, "'%s' needs file= (hint: file=\"code/gemm.cu\" names the file the code comes from)",
		           lone);
		return -1;
	}
	if (o->lines_lo && o->symbol.len) {
		buf_printf(err, "lines= and symbol= together (hint: symbol= includes the whole definition; keep one "
		                "of them)");
		return -1;
	}
	return 0;
}

static int option(struct arena *a, const struct dattr *at, struct code_opts *o, struct buf *err)
{
	struct str k = at->key, v = at->value;
	int rc = file_option(at, o, err);
	if (rc <= 0)
		return rc;
	if (str_eq_cstr(k, "linenos")) {
		if (at->flag || str_eq_cstr(v, "true")) {
			o->linenos = 1;
		} else if (str_eq_cstr(v, "false")) {
			o->linenos = 0;
		} else {
			buf_printf(err,
			           "bad value '%.*s' for linenos (hint: write linenos, or "
			           "linenos=false)",
			           STR_FMT(v));
			return -1;
		}
		return 0;
	}
	int known = str_eq_cstr(k, "title") || str_eq_cstr(k, "hl") || str_eq_cstr(k, "start");
	if (!known) {
		unknown_option(err, k);
		return -1;
	}
	if (at->flag) {
		const char *example = str_eq_cstr(k, "title") ? "title=\"kernel.cu\""
		                      : str_eq_cstr(k, "hl")  ? "hl=\"3-5,9\""
		                                              : "start=10";
		buf_printf(err, "'%.*s' needs a value (hint: %s)", STR_FMT(k), example);
		return -1;
	}
	if (str_eq_cstr(k, "title")) {
		o->title = v;
	} else if (str_eq_cstr(k, "hl")) {
		size_t max = 0, count = 0;
		if (parse_hl(v, &max, &count, NULL, err) < 0)
			return -1;
		/* ranges, not a bitmap of lines: hl=100000 on an empty block
		 * costs no 100 KB, and "1-100000" many times no memset each */
		o->hl = NULL;
		o->nranges = 0;
		o->nhl = max;
		if (count) {
			struct code_range *r = arena_alloc(a, count * sizeof *r);
			count = 0;
			parse_hl(v, &max, &count, r, err);
			qsort(r, count, sizeof *r, cmp_range);
			size_t kept = 0; /* merged: sorted, apart, not touching */
			for (size_t i = 0; i < count; i++) {
				if (kept && r[i].lo <= r[kept - 1].hi + 1) {
					if (r[i].hi > r[kept - 1].hi)
						r[kept - 1].hi = r[i].hi;
				} else {
					r[kept++] = r[i];
				}
			}
			o->hl = r;
			o->nranges = kept;
		}
	} else {
		long n = 0;
		size_t i = 0;
		for (; i < v.len && v.p[i] >= '0' && v.p[i] <= '9' && n <= 1000000000; i++)
			n = n * 10 + (v.p[i] - '0');
		if (!v.len || i < v.len || n > 1000000000) {
			buf_printf(err,
			           "bad start '%.*s' (hint: start=10 numbers the first line 10)",
			           STR_FMT(v));
			return -1;
		}
		o->start = (int)n;
		o->start_set = 1;
	}
	return 0;
}

int code_opts_parse(struct arena *a, struct str info, struct code_opts *o, struct buf *err)
{
	memset(o, 0, sizeof *o);
	o->start = 1;
	info = str_trim(info);
	if (!info.len) /* info.p may be NULL */
		return 0;
	const char *p = info.p, *e = info.p + info.len;
	const char *w = p;
	while (w < e && !is_space(*w) && *w != '{')
		w++;
	if (w > p && !memchr(p, '=', (size_t)(w - p))) {
		o->lang = (struct str){p, (size_t)(w - p)};
		p = w;
	}
	while (p < e && is_space(*p))
		p++;
	if (p == e)
		return 0;
	int braces = *p == '{';
	if (braces)
		p++;
	/* a listing's label, {#lst:name ...}: before the options */
	while (braces && p < e && is_space(*p))
		p++;
	if (braces && p < e && *p == '#') {
		const char *q = ++p;
		while (q < e && !is_space(*q) && *q != '}')
			q++;
		o->label = (struct str){p, (size_t)(q - p)};
		if (o->label.len <= 4 || memcmp(p, "lst:", 4) != 0) {
			buf_printf(err, "'#%.*s' is no listing label (hint: a code block's label starts with lst:, as in {#lst:gemm})",
			           STR_FMT(o->label));
			o->label = (struct str){NULL, 0};
			return -1;
		}
		p = q;
	}
	struct dattr *attrs;
	size_t end, err_at;
	long n = dattr_parse(a, p, (size_t)(e - p), braces ? '}' : 0, &end, &attrs, err, &err_at);
	if (n < 0)
		return -1;
	if (braces) {
		struct str rest = str_trim((struct str){p + end + 1, (size_t)(e - p) - end - 1});
		if (rest.len) {
			buf_printf(err, "unexpected '%.*s' after the options' '}'", STR_FMT(rest));
			return -1;
		}
	}
	for (long i = 0; i < n; i++)
		if (option(a, &attrs[i], o, err) < 0)
			return -1;
	return file_check(o, err);
}

int code_opts_hl(const struct code_opts *o, size_t line)
{
	if (!o || !o->nranges || line < o->hl[0].lo)
		return 0;
	size_t lo = 0, hi = o->nranges; /* the last range starting at or before line */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (o->hl[mid].lo <= line)
			lo = mid;
		else
			hi = mid;
	}
	return line <= o->hl[lo].hi;
}

/* ---- wrapping ---- */

/* line_open: starts line number line (1-based) and reopens the spans. */
static void line_open(struct buf *out, const struct code_opts *o, size_t line,
                      const struct str *open, size_t nopen)
{
	buf_puts(out, code_opts_hl(o, line) ? "<span class=\"line hl\">" : "<span class=\"line\">");
	if (o && o->linenos)
		buf_printf(out, "<span class=\"ln\" aria-hidden=\"true\">%lld</span>",
		           (long long)o->start + (long long)line - 1);
	for (size_t i = 0; i < nopen; i++)
		buf_put_str(out, open[i]);
}

static void line_close(struct buf *out, size_t nopen)
{
	for (size_t i = 0; i < nopen; i++)
		buf_puts(out, "</span>");
	buf_puts(out, "</span>");
}

/* tag_is: whether the tag t[0..n) (from '<' to '>') is one of name as a
 * browser reads it: <name>, <name ...>, <name/...>. */
static int tag_is(const char *t, size_t n, const char *name)
{
	size_t k = strlen(name);
	return n >= k + 2 && memcmp(t + 1, name, k) == 0 &&
	       (t[k + 1] == '>' || t[k + 1] == '/' || t[k + 1] == ' ' || t[k + 1] == '\t' ||
	        t[k + 1] == '\f' || t[k + 1] == '\r');
}

int code_wrap_lines(struct buf *out, const char *html, size_t len, const struct code_opts *o, size_t max)
{
	struct str *open = NULL; /* the open spans' start tags, outermost first */
	size_t nopen = 0, cap = 0, line = 0;
	int in_line = 0;
	for (size_t i = 0; i < len;) {
		if (!in_line) {
			if (out->len > max) {
				free(open);
				return -1;
			}
			line_open(out, o, ++line, open, nopen);
			in_line = 1;
		}
		char c = html[i];
		if (c == '\n' || (c == '\r' && i + 1 < len && html[i + 1] == '\n')) {
			line_close(out, nopen);
			buf_putc(out, '\n');
			in_line = 0;
			i += c == '\r' ? 2 : 1;
			continue;
		}
		if (c != '<') {
			size_t j = i + 1;
			while (j < len && html[j] != '<' && html[j] != '\n' && html[j] != '\r')
				j++;
			buf_append(out, html + i, j - i);
			i = j;
			continue;
		}
		size_t j = i + 1;
		while (j < len && html[j] != '>' && html[j] != '\n' && html[j] != '<')
			j++;
		if (j == len || html[j] != '>') {
			buf_puts(out, "&lt;");
			i++;
			continue;
		}
		const char *t = html + i;
		size_t n = j + 1 - i;
		if (tag_is(t, n, "span")) {
			if (nopen == cap) {
				cap = cap ? cap * 2 : 8;
				open = xrealloc(open, cap * sizeof *open);
			}
			open[nopen++] = (struct str){t, n};
			buf_append(out, t, n);
		} else if (tag_is(t, n, "/span")) {
			if (nopen) { /* as the browser reads it, whatever follows the name */
				nopen--;
				buf_puts(out, "</span>");
			}
		} else {
			buf_append(out, t, n);
		}
		i = j + 1;
	}
	if (in_line)
		line_close(out, nopen);
	free(open);
	return out->len > max ? -1 : 0;
}
