/* directive.c: block directives (:::name{attrs} ... :::): the attribute
 * parser, and the pairing of the directive lines the parser found. */
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

/* ---- pairing the lines ---- */

struct scan {
	struct arena *a;
	struct diag *d;
	struct diag_src in; /* the file and where the Markdown is in it */
	int errors;
	struct directive *dirs; /* malloc'd while pairing */
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

/* push: a new open directive at line:col; returns its index. */
static size_t push(struct scan *s, int line, int col)
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
	s->stack[s->nstack++] = s->ndirs;
	return s->ndirs++;
}

/* opening_name: the name of the opening line b[0..e) whose ":::" is at
 * p, into dir; q, in *qp, past it. 0, or -1 after an error. */
static int opening_name(struct scan *s, int line, int col, struct directive *dir, const char *b, const char *p,
                        const char *e, const char **qp)
{
	int w = dir->leaf ? 2 : 3; /* "::name" or ":::name" */
	const char *q = p + w, *name = q;
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
			return -1;
		}
		q = p + w;
	}
	if (!(q < e && is_alpha(*q))) {
		buf_puts(&s->msg, "bad directive line '");
		snip(&s->msg, p, (size_t)(e - p));
		buf_puts(&s->msg, "' (hint: open a directive with ':::name' and close it with a line ':::')");
		scan_error(s, line, col, NULL);
		return -1;
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
		return -1;
	}
	*qp = q;
	return 0;
}

/* opening: the opening line b[0..e) whose ":::" is at p; col is the
 * directive's column (that of p, or of the first colon of too many).
 * Returns the directive's index. */
static size_t opening(struct scan *s, int line, int col, const char *b, const char *p, const char *e, int leaf)
{
	size_t at = push(s, line, col);
	struct directive *dir = &s->dirs[at];
	dir->leaf = leaf;
	if (leaf) { /* closed where it opens */
		s->nstack--;
		dir->close_line = dir->line;
	}
	const char *q;
	if (opening_name(s, line, col, dir, b, p, e, &q))
		return at;
	while (q < e && is_blank(*q))
		q++;
	if (q == e)
		return at;
	if (*q != '{') {
		buf_puts(&s->msg, "unexpected '");
		snip(&s->msg, q, (size_t)(e - q));
		buf_puts(&s->msg, "' after ':::");
		snip(&s->msg, dir->name.p, dir->name.len);
		buf_puts(&s->msg, "' (hint: attributes go in braces: ':::");
		snip(&s->msg, dir->name.p, dir->name.len);
		buf_puts(&s->msg, "{key=\"value\"}')");
		scan_error(s, line, (int)(q - b) + 1, NULL);
		return at;
	}
	q++;
	size_t end, err_at;
	long n = dattr_parse(s->a, q, (size_t)(e - q), '}', &end, &dir->attrs, &s->msg, &err_at);
	int base = (int)(q - b) + 1; /* the column of q */
	if (n < 0) {
		scan_error(s, line, base + (int)err_at, NULL);
		return at;
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
	return at;
}

/* closing: the closing line at line:col; quiet: an error was reported for
 * the line already. Returns the index of the directive it closes, or -1. */
static long closing(struct scan *s, int line, int col, int quiet)
{
	if (!s->nstack) {
		if (quiet)
			return -1;
		buf_puts(&s->msg, "':::' closes nothing (hint: delete it, or open a directive above it with ':::name')");
		scan_error(s, line, col, NULL);
		return -1;
	}
	size_t at = s->stack[--s->nstack];
	struct directive *dir = &s->dirs[at];
	dir->close_line = line + s->in.line_offset;
	if (dir->col != col) {
		buf_puts(&s->msg, "':::' is indented differently from the ':::");
		snip(&s->msg, dir->name.p, dir->name.len);
		buf_printf(&s->msg, "' it closes on line %d (hint: indent them alike)", dir->line);
		scan_error(s, line, col, NULL);
	}
	return (long)at;
}

/* one_line: pairs the directive line l. */
static void one_line(struct scan *s, struct dline *l)
{
	const char *b = l->text, *e = l->text + l->len, *p = b + l->col - 1, *q = p + 3;
	int quiet = 0;
	if (p + 2 < e && p[2] != ':') { /* a leaf: "::name{attrs}" */
		l->closing = 0;
		l->dir = (long)opening(s, l->line, l->col, b, p, e, 1);
		return;
	}
	if (q < e && *q == ':') {
		while (q < e && *q == ':')
			q++;
		buf_puts(&s->msg, "too many colons in '");
		snip(&s->msg, p, (size_t)(e - p));
		buf_puts(&s->msg, "' (hint: a directive line starts with three, nested or not)");
		scan_error(s, l->line, l->col, NULL);
		/* Read it as meant, so its partner is no error too. */
		p = q - 3;
		quiet = 1;
	}
	q = p + 3;
	while (q < e && is_blank(*q))
		q++;
	l->closing = q == e;
	l->dir = l->closing ? closing(s, l->line, l->col, quiet) : (long)opening(s, l->line, l->col, b, p, e, 0);
}

/* unclosed: the error for the directives left open at the end: one, at
 * the outermost, saying how many are inside it. */
static void unclosed(struct scan *s, const struct dblock *open)
{
	struct directive *outer = &s->dirs[s->stack[0]];
	size_t inside = s->nstack - 1;
	int line_offset = s->in.line_offset;
	buf_puts(&s->msg, "unclosed ':::");
	snip(&s->msg, outer->name.p, outer->name.len);
	if (inside)
		buf_printf(&s->msg, "' and %zu directive%s inside it (hint: end each with a line ':::')", inside,
		           inside == 1 ? "" : "s");
	else
		buf_puts(&s->msg, "' (hint: end it with a line ':::')");
	/* A fence or raw HTML block left open after the directive is the
	 * likely cause: its ':::' lines are not directive lines. */
	struct diag_note note = {{s->in.path, s->in.src, s->in.src_len, 0, 1}, NULL};
	int blocked = open && open->kind && open->line + line_offset > outer->line;
	if (blocked) {
		note.loc.line = open->line + line_offset;
		note.msg = open->kind == DBLOCK_CODE ? "this code block is never closed, so the lines after it are code"
		                                     : "this HTML block is never closed, so the lines after it are raw HTML";
	}
	scan_error(s, outer->line - line_offset, outer->col, blocked ? &note : NULL);
}

long directive_pair(struct arena *a, struct diag *d, const struct diag_src *in, struct dline *lines, size_t n,
                    const struct dblock *open, struct directive **out)
{
	struct scan s;
	memset(&s, 0, sizeof s);
	s.a = a;
	s.d = d;
	s.in = *in;
	buf_init(&s.msg);
	for (size_t i = 0; i < n; i++)
		one_line(&s, &lines[i]);
	if (s.nstack)
		unclosed(&s, open);
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

int directive_line_at(const char *line, size_t len, size_t at)
{
	if (at > 3 || len < at + 3 || memcmp(line + at, "::", 2) != 0)
		return 0;
	if (line[at + 2] != ':' && !is_alpha(line[at + 2]))
		return 0; /* ":::" or a leaf's "::name" */
	for (size_t i = 0; i < at; i++)
		if (line[i] != ' ')
			return 0;
	return 1;
}
