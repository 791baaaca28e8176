/* directive.c: block directives (:::name{attrs} ... :::): the line scan,
 * the attribute parser and the line-for-line rewrite into raw HTML. */
#include "md/directive.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define SNIP_MAX 24 /* bytes of the author's text quoted in a message */

static int is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static int is_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int is_name_char(char c)
{
	return is_alpha(c) || is_digit(c) || c == '-';
}

static int is_key_start(char c)
{
	return is_alpha(c) || c == '_';
}

static int is_key_char(char c)
{
	return is_alpha(c) || is_digit(c) || c == '_' || c == '-';
}

/* snip: s[0..n) cut for quoting in a message: at most SNIP_MAX bytes, not
 * in the middle of a UTF-8 sequence, "..." marking a cut. Appends to b. */
static void snip(struct buf *b, const char *s, size_t n)
{
	if (n <= SNIP_MAX) {
		buf_append(b, s, n);
		return;
	}
	size_t k = SNIP_MAX;
	while (k > 0 && ((unsigned char)s[k] & 0xc0) == 0x80)
		k--;
	buf_append(b, s, k);
	buf_puts(b, "...");
}

/* ---- attributes ---- */

static long attr_fail(size_t *err_at, size_t at, struct dattr *v)
{
	free(v);
	*err_at = at;
	return -1;
}

long dattr_parse(struct arena *a, const char *s, size_t len, int close, size_t *end,
                 struct dattr **out, struct buf *err, size_t *err_at)
{
	struct dattr *v = NULL; /* grows here, copied into the arena at the end */
	size_t n = 0, cap = 0, i = 0;
	*out = NULL;
	*end = len;
	for (;;) {
		while (i < len && is_blank(s[i]))
			i++;
		if (i == len) {
			if (close) {
				buf_printf(err,
				           "missing '%c' after the attributes (hint: close them on "
				           "the same line)",
				           close);
				return attr_fail(err_at, i, v);
			}
			break;
		}
		if (close && s[i] == close) {
			*end = i;
			break;
		}
		if (!is_key_start(s[i])) {
			buf_puts(err, "bad attribute syntax at '");
			snip(err, s + i, len - i);
			buf_puts(err, "' (hint: write key=\"value\", key=value or a flag)");
			return attr_fail(err_at, i, v);
		}
		struct dattr at;
		memset(&at, 0, sizeof at);
		size_t k = i;
		while (i < len && is_key_char(s[i]))
			i++;
		at.key = (struct str){s + k, i - k};
		at.col = (int)k + 1;
		at.flag = 1;
		at.value = (struct str){s + i, 0};
		if (i < len && s[i] == '=') {
			at.flag = 0;
			i++;
			if (i == len || is_blank(s[i]) || (close && s[i] == close)) {
				buf_printf(
				    err, "missing value after '%.*s=' (hint: write %.*s=\"value\")",
				    STR_FMT(at.key), STR_FMT(at.key));
				return attr_fail(err_at, i, v);
			}
			if (s[i] == '"' || s[i] == '\'') {
				char q = s[i];
				size_t start = ++i, escapes = 0;
				while (i < len && s[i] != q) {
					if (s[i] == '\\' && i + 1 < len &&
					    (s[i + 1] == q || s[i + 1] == '\\')) {
						escapes++;
						i++;
					}
					i++;
				}
				if (i == len) {
					buf_printf(
					    err,
					    "unclosed quote in the value of '%.*s' (hint: end it "
					    "with %c, and write \\%c for a %c inside)",
					    STR_FMT(at.key), q, q, q);
					return attr_fail(err_at, start - 1, v);
				}
				if (!escapes) {
					at.value = (struct str){s + start, i - start};
				} else {
					char *p = arena_alloc(a, i - start - escapes + 1);
					size_t m = 0;
					for (size_t j = start; j < i; j++) {
						if (s[j] == '\\' &&
						    (s[j + 1] == q || s[j + 1] == '\\'))
							j++;
						p[m++] = s[j];
					}
					at.value = (struct str){p, m};
				}
				i++; /* the closing quote */
			} else {
				size_t start = i;
				while (i < len && !is_blank(s[i]) && s[i] != '"' && s[i] != '\'' &&
				       !(close && s[i] == close))
					i++;
				at.value = (struct str){s + start, i - start};
			}
		}
		if (i < len && !is_blank(s[i]) && !(close && s[i] == close)) {
			buf_puts(err, "bad attribute syntax at '");
			snip(err, s + i, len - i);
			buf_puts(err, "' (hint: separate attributes with spaces)");
			return attr_fail(err_at, i, v);
		}
		for (size_t j = 0; j < n; j++) {
			if (str_eq(v[j].key, at.key)) {
				buf_printf(err, "duplicate attribute '%.*s'", STR_FMT(at.key));
				return attr_fail(err_at, k, v);
			}
		}
		/* The cap keeps the duplicate check above quadratic only in a
		 * small number. */
		if (n == DATTR_MAX) {
			buf_printf(err, "too many attributes (at most %d)", DATTR_MAX);
			return attr_fail(err_at, k, v);
		}
		if (n == cap) {
			cap = cap ? cap * 2 : 4;
			v = xrealloc(v, cap * sizeof *v);
		}
		v[n++] = at;
	}
	if (n) {
		*out = arena_alloc(a, n * sizeof **out);
		memcpy(*out, v, n * sizeof *v);
	}
	free(v);
	return (long)n;
}

const struct dattr *directive_attr(const struct directive *dir, const char *key)
{
	for (size_t i = 0; i < dir->nattrs; i++)
		if (str_eq_cstr(dir->attrs[i].key, key))
			return &dir->attrs[i];
	return NULL;
}

/* ---- the scan ---- */

/* The HTML blocks that end at a marker rather than at a blank line
 * (CommonMark types 1 to 5), as cmark-gfm 0.29.0.gfm.13 starts them. */
enum html_kind { HTML_NONE, HTML_RAW, HTML_COMMENT, HTML_PI, HTML_DECL, HTML_CDATA };

struct scan {
	struct arena *a;
	struct diag *d;
	struct diag_src in; /* the file and where the Markdown is in it */
	const char *text;
	int errors;
	struct directive *dirs; /* malloc'd while scanning */
	size_t ndirs, cap_dirs;
	size_t *stack; /* indices into dirs of the open directives */
	size_t nstack, cap_stack;
	struct buf msg;
};

static void scan_error(struct scan *s, int line, int col, const struct diag_note *note)
{
	s->errors++;
	if (s->d && s->errors <= DIRECTIVE_MAX_ERRORS) {
		struct diag_loc loc = diag_src_at(&s->in, line, col);
		diag_report(s->d, DIAG_ERROR, &loc, note, note ? 1 : 0, "%s", s->msg.p);
	}
	buf_reset(&s->msg);
}

static int ci_prefix(const char *p, size_t n, const char *lit)
{
	size_t k = strlen(lit);
	return n >= k && strncasecmp(p, lit, k) == 0;
}

static int ci_contains(const char *p, size_t n, const char *lit)
{
	size_t k = strlen(lit);
	for (size_t i = 0; i + k <= n; i++)
		if (strncasecmp(p + i, lit, k) == 0)
			return 1;
	return 0;
}

/* html_start: the kind of HTML block that p[0..n) (a line from its first
 * non-space) starts, among those that end at a marker. */
static enum html_kind html_start(const char *p, size_t n)
{
	static const char *const raw[] = {"script", "pre", "style", "textarea", NULL};
	if (n < 2 || p[0] != '<')
		return HTML_NONE;
	for (int i = 0; raw[i]; i++) {
		size_t k = strlen(raw[i]);
		if (n >= k + 1 && strncasecmp(p + 1, raw[i], k) == 0 &&
		    (n == k + 1 || is_blank(p[k + 1]) || p[k + 1] == '>'))
			return HTML_RAW;
	}
	if (ci_prefix(p, n, "<!--"))
		return HTML_COMMENT;
	if (p[1] == '?')
		return HTML_PI;
	if (ci_prefix(p, n, "<![CDATA["))
		return HTML_CDATA;
	if (n >= 3 && p[1] == '!' && p[2] >= 'A' && p[2] <= 'Z')
		return HTML_DECL;
	return HTML_NONE;
}

/* html_end: whether the line p[0..n) holds the end marker of kind (cmark
 * looks from the line's first non-space, the start included). */
static int html_end(enum html_kind kind, const char *p, size_t n)
{
	switch (kind) {
	case HTML_RAW:
		return ci_contains(p, n, "</script>") || ci_contains(p, n, "</pre>") ||
		       ci_contains(p, n, "</style>") || ci_contains(p, n, "</textarea>");
	case HTML_COMMENT: return ci_contains(p, n, "-->");
	case HTML_PI: return ci_contains(p, n, "?>");
	case HTML_DECL: return memchr(p, '>', n) != NULL;
	case HTML_CDATA: return ci_contains(p, n, "]]>");
	default: return 0;
	}
}

/* push: a new open directive at line:col; returns it. */
static struct directive *push(struct scan *s, int line, int col, size_t at, size_t end)
{
	if (s->ndirs == s->cap_dirs) {
		s->cap_dirs = s->cap_dirs ? s->cap_dirs * 2 : 16;
		s->dirs = xrealloc(s->dirs, s->cap_dirs * sizeof *s->dirs);
	}
	if (s->nstack == s->cap_stack) {
		s->cap_stack = s->cap_stack ? s->cap_stack * 2 : 16;
		s->stack = xrealloc(s->stack, s->cap_stack * sizeof *s->stack);
	}
	struct directive *dir = &s->dirs[s->ndirs];
	memset(dir, 0, sizeof *dir);
	dir->line = line + s->in.line_offset;
	dir->col = col;
	dir->parent = s->nstack ? (long)s->stack[s->nstack - 1] : -1;
	dir->depth = (int)s->nstack;
	dir->open_at = at;
	dir->open_end = end;
	s->stack[s->nstack++] = s->ndirs++;
	return dir;
}

/* opening: the opening line b[0..e) whose ":::" is at p; col is the
 * directive's column (that of p, or of the first colon of too many). */
static void opening(struct scan *s, int line, int col, const char *b, const char *p, const char *e)
{
	struct directive *dir = push(s, line, col, (size_t)(b - s->text), (size_t)(e - s->text));
	const char *q = p + 3, *name = q;
	if (q < e && is_blank(*q)) {
		while (q < e && is_blank(*q))
			q++;
		name = q;
		while (q < e && is_name_char(*q))
			q++;
		if (name < e && is_alpha(*name)) {
			dir->name = (struct str){name, (size_t)(q - name)};
			buf_puts(&s->msg, "space between ':::' and '");
			snip(&s->msg, name, (size_t)(q - name));
			buf_puts(&s->msg, "' (hint: write ':::");
			snip(&s->msg, name, (size_t)(q - name));
			buf_puts(&s->msg, "')");
			scan_error(s, line, col, NULL);
			return;
		}
		q = p + 3;
	}
	if (!(q < e && is_alpha(*q))) {
		buf_puts(&s->msg, "bad directive line '");
		snip(&s->msg, p, (size_t)(e - p));
		buf_puts(
		    &s->msg,
		    "' (hint: open a directive with ':::name' and close it with a line ':::')");
		scan_error(s, line, col, NULL);
		return;
	}
	while (q < e && is_name_char(*q))
		q++;
	dir->name = (struct str){name, (size_t)(q - name)};
	if (q < e && !is_blank(*q) && *q != '{') {
		const char *t = q;
		while (t < e && !is_blank(*t) && *t != '{')
			t++;
		buf_puts(&s->msg, "bad directive name '");
		snip(&s->msg, name, (size_t)(t - name));
		buf_puts(&s->msg, "' (hint: use letters, digits and '-')");
		scan_error(s, line, (int)(name - b) + 1, NULL);
		return;
	}
	while (q < e && is_blank(*q))
		q++;
	if (q == e)
		return;
	if (*q != '{') {
		buf_puts(&s->msg, "unexpected '");
		snip(&s->msg, q, (size_t)(e - q));
		buf_puts(&s->msg, "' after ':::");
		snip(&s->msg, dir->name.p, dir->name.len);
		buf_puts(&s->msg, "' (hint: attributes go in braces: ':::");
		snip(&s->msg, dir->name.p, dir->name.len);
		buf_puts(&s->msg, "{key=\"value\"}')");
		scan_error(s, line, (int)(q - b) + 1, NULL);
		return;
	}
	q++;
	size_t end, err_at;
	long n = dattr_parse(s->a, q, (size_t)(e - q), '}', &end, &dir->attrs, &s->msg, &err_at);
	int base = (int)(q - b) + 1; /* the column of q */
	if (n < 0) {
		scan_error(s, line, base + (int)err_at, NULL);
		return;
	}
	dir->nattrs = (size_t)n;
	for (size_t i = 0; i < dir->nattrs; i++) {
		dir->attrs[i].line = line + s->in.line_offset;
		dir->attrs[i].col += base - 1;
	}
	const char *t = q + end + 1;
	while (t < e && is_blank(*t))
		t++;
	if (t < e) {
		buf_puts(&s->msg, "unexpected '");
		snip(&s->msg, t, (size_t)(e - t));
		buf_puts(&s->msg, "' after the attributes of ':::");
		snip(&s->msg, dir->name.p, dir->name.len);
		buf_puts(&s->msg, "'");
		scan_error(s, line, (int)(t - b) + 1, NULL);
	}
}

/* closing: the closing line at line:col; quiet: an error was reported for
 * the line already. */
static void closing(struct scan *s, int line, int col, size_t at, size_t end, int quiet)
{
	if (!s->nstack) {
		if (quiet)
			return;
		buf_puts(&s->msg,
		         "':::' closes nothing (hint: delete it, or open a directive above it with "
		         "':::name')");
		scan_error(s, line, col, NULL);
		return;
	}
	struct directive *dir = &s->dirs[s->stack[--s->nstack]];
	dir->close_line = line + s->in.line_offset;
	dir->close_at = at;
	dir->close_end = end;
	if (dir->col != col) {
		buf_puts(&s->msg, "':::' is indented differently from the ':::");
		snip(&s->msg, dir->name.p, dir->name.len);
		buf_printf(&s->msg, "' it closes on line %d (hint: indent them alike)", dir->line);
		scan_error(s, line, col, NULL);
	}
}

/* fence_open: the length of the code fence that p[0..n) opens (3 or more
 * backticks or tildes; a backtick fence's info string has no backtick),
 * or 0. */
static size_t fence_open(const char *p, size_t n)
{
	if (n < 3 || (p[0] != '`' && p[0] != '~'))
		return 0;
	size_t k = 0;
	while (k < n && p[k] == p[0])
		k++;
	if (k < 3 || (p[0] == '`' && memchr(p + k, '`', n - k)))
		return 0;
	return k;
}

/* fence_close: whether p[0..n) closes a fence of flen characters c. */
static int fence_close(const char *p, size_t n, char c, size_t flen)
{
	size_t k = 0;
	while (k < n && p[k] == c)
		k++;
	if (k < flen)
		return 0;
	while (k < n && is_blank(p[k]))
		k++;
	return k == n;
}

long directive_scan(struct arena *a, struct diag *d, const char *path, const char *src,
                    size_t src_len, const char *text, size_t len, int line_offset,
                    struct directive **out)
{
	assert(a && out && (text || !len));
	struct scan s;
	memset(&s, 0, sizeof s);
	s.a = a;
	s.d = d;
	s.in = (struct diag_src){path, src, src_len, line_offset};
	s.text = text;
	buf_init(&s.msg);

	char fence = 0; /* in fenced code: its character, length and line */
	size_t fence_len = 0;
	int block_line = 0; /* where the fence or HTML block began */
	enum html_kind html = HTML_NONE;
	int line = 0;
	for (size_t at = 0; at < len;) {
		/* a line ends at \n, \r\n or a lone \r, as in CommonMark: a
		 * directive's line must be the line cmark sees (its attributes
		 * become one line of HTML) */
		const char *b = text + at, *nl = memchr(b, '\n', len - at);
		const char *e = nl ? nl : text + len;
		const char *cr = memchr(b, '\r', (size_t)(e - b));
		size_t next = nl ? (size_t)(nl - text) + 1 : len;
		if (cr) {
			next = (size_t)(cr - text) + (cr + 1 == nl ? 2 : 1);
			e = cr;
		}
		line++;
		const char *p = b;
		while (p < e && p - b < 4 && *p == ' ')
			p++;
		size_t n = (size_t)(e - p);
		int indented = p - b > 3; /* code, or a paragraph's continuation */
		if (fence) {
			if (!indented && fence_close(p, n, fence, fence_len))
				fence = 0;
		} else if (html) {
			if (html_end(html, p, n))
				html = HTML_NONE;
		} else if (!indented) {
			size_t k;
			enum html_kind h;
			if ((k = fence_open(p, n))) {
				fence = *p;
				fence_len = k;
				block_line = line;
			} else if ((h = html_start(p, n))) {
				if (!html_end(h, p, n)) {
					html = h;
					block_line = line;
				}
			} else if (n >= 3 && memcmp(p, ":::", 3) == 0) {
				int col = (int)(p - b) + 1, quiet = 0;
				const char *q = p + 3;
				if (q < e && *q == ':') {
					while (q < e && *q == ':')
						q++;
					buf_puts(&s.msg, "too many colons in '");
					snip(&s.msg, p, n);
					buf_puts(
					    &s.msg,
					    "' (hint: a directive line starts with three, nested "
					    "or not)");
					scan_error(&s, line, col, NULL);
					/* Read it as meant, so its partner is no error too. */
					p = q - 3;
					quiet = 1;
				}
				q = p + 3;
				while (q < e && is_blank(*q))
					q++;
				if (q == e)
					closing(&s, line, col, at, (size_t)(e - text), quiet);
				else
					opening(&s, line, col, b, p, e);
			}
		}
		at = next;
	}

	if (s.nstack) {
		struct directive *outer = &s.dirs[s.stack[0]];
		size_t inside = s.nstack - 1;
		buf_puts(&s.msg, "unclosed ':::");
		snip(&s.msg, outer->name.p, outer->name.len);
		if (inside)
			buf_printf(&s.msg,
			           "' and %zu directive%s inside it (hint: end each with a line "
			           "':::')",
			           inside, inside == 1 ? "" : "s");
		else
			buf_puts(&s.msg, "' (hint: end it with a line ':::')");
		/* A fence or raw HTML block left open after the directive is
		 * the likely cause: its ':::' lines are not directive lines. */
		struct diag_note note = {{path, src, src_len, block_line + line_offset, 1}, NULL};
		int blocked = (fence || html) && block_line + line_offset > outer->line;
		if (blocked)
			note.msg = fence ? "this code block is never closed, so the lines after it "
			                   "are code"
			                 : "this HTML block is never closed, so the lines after it "
			                   "are raw HTML";
		scan_error(&s, outer->line - line_offset, outer->col, blocked ? &note : NULL);
	}

	long ret = -1;
	*out = NULL;
	if (!s.errors) {
		ret = (long)s.ndirs;
		if (s.ndirs) {
			*out = arena_alloc(a, s.ndirs * sizeof **out);
			memcpy(*out, s.dirs, s.ndirs * sizeof *s.dirs);
		}
	}
	free(s.dirs);
	free(s.stack);
	buf_fini(&s.msg);
	return ret;
}

/* ---- the rewrite ---- */

struct event {
	size_t at, end;
	const struct directive *dir;
	int closing;
};

static int cmp_event(const void *x, const void *y)
{
	const struct event *a = x, *b = y;
	return a->at < b->at ? -1 : a->at > b->at;
}

void directive_rewrite(
    struct buf *out, const char *text, size_t len, const struct directive *dirs, size_t n,
    void (*emit)(struct buf *out, const struct directive *dir, int closing, void *ctx), void *ctx)
{
	if (!len) /* text may be NULL then */
		return;
	struct event *ev = xmalloc((2 * n + 1) * sizeof *ev);
	size_t nev = 0;
	for (size_t i = 0; i < n; i++) {
		ev[nev++] = (struct event){dirs[i].open_at, dirs[i].open_end, &dirs[i], 0};
		if (dirs[i].close_line)
			ev[nev++] =
			    (struct event){dirs[i].close_at, dirs[i].close_end, &dirs[i], 1};
	}
	/* Opening lines come in order, closing lines not (nesting). */
	if (nev)
		qsort(ev, nev, sizeof *ev, cmp_event);
	size_t pos = 0;
	for (size_t i = 0; i < nev; i++) {
		assert(ev[i].at >= pos && ev[i].at <= ev[i].end && ev[i].end <= len);
		buf_append(out, text + pos, ev[i].at - pos);
		size_t indent = 0;
		while (ev[i].at + indent < ev[i].end && text[ev[i].at + indent] == ' ')
			indent++;
		buf_append(out, text + ev[i].at, indent);
		buf_puts(out, DIRECTIVE_HTML_PREFIX);
		size_t mark = out->len;
		emit(out, ev[i].dir, ev[i].closing, ctx);
		assert(!memchr(out->p + mark, '\n', out->len - mark) &&
		       !memchr(out->p + mark, '\r', out->len - mark));
		(void)mark;
		pos = ev[i].end;
	}
	buf_append(out, text + pos, len - pos);
	free(ev);
}
