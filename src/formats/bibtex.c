/* bibtex.c: a BibTeX database read into entries: @TYPE{KEY, name =
 * value, ...}, values joined by # from braced and quoted text, numbers
 * and @string names; @string, @preamble and @comment; errors with their
 * place and a hint. One pass over the text, no recursion: braces may nest
 * to any depth. */
#include "formats/bibtex.h"

#include "base/diag.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The reader's state: the text, where it is, and a cursor over lines
 * that only moves forward (positions are asked in order but for errors,
 * which start again from the top). */
struct bt {
	struct arena *a;
	const char *s;
	size_t len, i;
	size_t at_off, at_line, at_start; /* the line cursor */
	struct bibtex *out;
	struct map strings; /* @string names (lower case) -> struct str * */
	size_t grown, grow_max; /* bytes of joined values so far, and the budget */
	struct bib_error *errs;
	size_t nerrs, cap_errs;
	struct bib_entry *ents;
	size_t nents, cap_ents;
	struct bib_field *fields; /* the entry being read */
	size_t nfields, cap_fields;
	struct buf join;
};

static const char *const months[12][2] = {
	{"jan", "January"}, {"feb", "February"}, {"mar", "March"},     {"apr", "April"},
	{"may", "May"},     {"jun", "June"},     {"jul", "July"},       {"aug", "August"},
	{"sep", "September"}, {"oct", "October"}, {"nov", "November"}, {"dec", "December"},
};

/* where: the 1-based line and byte column of offset off. */
static void where(struct bt *b, size_t off, int *line, int *col)
{
	if (off < b->at_off)
		b->at_off = b->at_line = b->at_start = 0;
	for (size_t k = b->at_off; k < off && k < b->len; k++)
		if (b->s[k] == '\n') {
			b->at_line++;
			b->at_start = k + 1;
		}
	b->at_off = off;
	*line = (int)b->at_line + 1;
	*col = (int)(off - b->at_start) + 1;
}

static void error_at(struct bt *b, size_t off, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void error_at(struct bt *b, size_t off, const char *fmt, ...)
{
	if (b->nerrs == b->cap_errs) {
		b->cap_errs = b->cap_errs ? b->cap_errs * 2 : 4;
		b->errs = xrealloc(b->errs, b->cap_errs * sizeof *b->errs);
	}
	struct bib_error *e = &b->errs[b->nerrs++];
	where(b, off, &e->line, &e->col);
	va_list ap;
	va_start(ap, fmt);
	size_t n;
	char *m = buf_vformat(&n, fmt, ap);
	va_end(ap);
	e->msg = arena_strndup(b->a, m, n);
	free(m);
}

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

/* is_name: a byte of an entry type, field name or @string name (BibTeX
 * allows more; these are what real files use). */
static int is_name(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '-' || c == ':' || c == '.' || c == '+' || c == '/' ||
	       c == '\'' || c == '!' || c == '?' || c == '*' || c == '&' || c == '$' || c == '<' || c == '>' ||
	       c == '[' || c == ']' || c == ';' || c == '@' || c == '|' || c == '^' || c == '`' || c == '~' ||
	       (unsigned char)c >= 0x80;
}

/* is_key: a byte of an entry's key: anything but spacing and the
 * delimiters around it. */
static int is_key(char c)
{
	return !is_space(c) && c != ',' && c != '{' && c != '}' && c != '(' && c != ')' && c != '=' && c != '"' &&
	       c != '#' && c != '%' && c;
}

static void skip_space(struct bt *b)
{
	while (b->i < b->len && is_space(b->s[b->i]))
		b->i++;
}

static struct str lower(struct bt *b, const char *p, size_t n)
{
	char *q = arena_strndup(b->a, p, n);
	for (size_t k = 0; k < n; k++)
		q[k] = (char)tolower((unsigned char)q[k]);
	return (struct str){q, n};
}

/* read_name: a name at b->i (is_name bytes), or an empty str. */
static struct str read_name(struct bt *b)
{
	size_t start = b->i;
	while (b->i < b->len && is_name(b->s[b->i]))
		b->i++;
	return (struct str){b->s + start, b->i - start};
}

/* balanced: from the '{' at b->i, past its '}'; 0, or -1 (b->i at the
 * end) when it is never closed. */
static int balanced(struct bt *b)
{
	size_t depth = 0;
	for (; b->i < b->len; b->i++) {
		char c = b->s[b->i];
		if (c == '{')
			depth++;
		else if (c == '}' && --depth == 0) {
			b->i++;
			return 0;
		}
	}
	return -1;
}

/* quoted: from the '"' at b->i, past the '"' that closes it (one outside
 * braces); 0, or -1 when it is never closed. */
static int quoted(struct bt *b)
{
	size_t depth = 0;
	for (b->i++; b->i < b->len; b->i++) {
		char c = b->s[b->i];
		if (c == '{')
			depth++;
		else if (c == '}' && depth)
			depth--;
		else if (c == '"' && !depth) {
			b->i++;
			return 0;
		}
	}
	return -1;
}

/* value_part: one part of a value at b->i into *part; 0, or -1 after an
 * error (field names the field for the message). */
static int value_part(struct bt *b, struct str field, struct str *part)
{
	size_t start = b->i;
	char c = b->i < b->len ? b->s[b->i] : 0;
	if (c == '{' || c == '"') {
		if ((c == '{' ? balanced(b) : quoted(b)) < 0) {
			error_at(b, start, "unclosed '%c' in the value of '%.*s' (close it with '%c'; braces must pair up)",
				 c, STR_FMT(field), c == '{' ? '}' : '"');
			return -1;
		}
		*part = (struct str){b->s + start + 1, b->i - start - 2};
		return 0;
	}
	if (isdigit((unsigned char)c)) {
		while (b->i < b->len && isdigit((unsigned char)b->s[b->i]))
			b->i++;
		*part = (struct str){b->s + start, b->i - start};
		return 0;
	}
	struct str name = read_name(b);
	if (!name.len) {
		error_at(b, start,
			 "expected a value for '%.*s': {text}, \"text\", a number or a @string name (write %.*s = {...})",
			 STR_FMT(field), STR_FMT(field));
		return -1;
	}
	struct str low = lower(b, name.p, name.len);
	const struct str *v = map_get(&b->strings, low.p, low.len);
	if (!v) {
		struct diag_guess g;
		diag_guess_init(&g, low.p, low.len);
		for (size_t k = 0; k < b->strings.n; k++)
			diag_guess_try(&g, b->strings.e[k].key, b->strings.e[k].len);
		size_t n;
		const char *best = diag_guess_best(&g, &n);
		if (best)
			error_at(b, start, "unknown @string '%.*s' (did you mean '%.*s'?)", STR_FMT(name), (int)n, best);
		else
			error_at(b, start,
				 "unknown @string '%.*s' (define it with @string{%.*s = {...}} before this entry, or write the text in braces)",
				 STR_FMT(name), STR_FMT(name));
		return -1;
	}
	*part = *v;
	return 0;
}

/* value: parts joined by '#' at b->i into *out (pointing into the text
 * or a @string's value when it is one part; else the arena's); 0, or -1
 * after an error. */
static int value(struct bt *b, struct str field, struct str *out)
{
	struct str part;
	size_t start = b->i;
	if (value_part(b, field, &part) < 0)
		return -1;
	size_t end = b->i; /* b->i is left here, after the last part */
	skip_space(b);
	if (b->i >= b->len || b->s[b->i] != '#') {
		b->i = end;
		*out = part;
		return 0;
	}
	buf_reset(&b->join);
	buf_put_str(&b->join, part);
	while (b->i < b->len && b->s[b->i] == '#') {
		b->i++;
		skip_space(b);
		if (value_part(b, field, &part) < 0)
			return -1;
		if (b->join.len + part.len > BIBTEX_VALUE_MAX) {
			error_at(b, start, "the value of '%.*s' is longer than %zu MiB once joined (shorten it)",
				 STR_FMT(field), BIBTEX_VALUE_MAX >> 20);
			return -1;
		}
		buf_put_str(&b->join, part);
		end = b->i;
		skip_space(b);
	}
	b->i = end;
	if (b->grown + b->join.len > b->grow_max) {
		error_at(b, start, "the @string names joined here grow past %zu bytes in all (a chain of strings that doubles?)",
			 b->grow_max);
		return -1;
	}
	b->grown += b->join.len;
	*out = (struct str){arena_strndup(b->a, b->join.p ? b->join.p : "", b->join.len), b->join.len};
	return 0;
}

/* recover: after an error in an entry, on to the next line that starts
 * with '@' (spacing before it allowed): what follows an unclosed brace or
 * a bad field cannot be read as the entry meant it. */
static void recover(struct bt *b)
{
	for (; b->i < b->len; b->i++) {
		if (b->s[b->i] != '\n')
			continue;
		size_t k = b->i + 1;
		while (k < b->len && (b->s[k] == ' ' || b->s[k] == '\t'))
			k++;
		if (k < b->len && b->s[k] == '@') {
			b->i = k;
			return;
		}
	}
}

/* assigned: the value after the '=' at b->i (of field or @string name)
 * into *v, *end just after it, b->i past the spacing after it; 0, or -1
 * after an error. */
static int assigned(struct bt *b, struct str name, struct str *v, size_t *end)
{
	b->i++;
	skip_space(b);
	if (value(b, name, v) < 0)
		return -1;
	*end = b->i;
	skip_space(b);
	return 0;
}

/* string_def: @string{name = value} from after its opening delimiter. */
static int string_def(struct bt *b, char close)
{
	skip_space(b);
	size_t at = b->i;
	struct str name = read_name(b);
	skip_space(b);
	if (!name.len || b->i >= b->len || b->s[b->i] != '=') {
		error_at(b, at, "a @string needs name = value (e.g. @string{nips = {Advances in Neural Information Processing Systems}})");
		return -1;
	}
	struct str v;
	size_t end;
	if (assigned(b, name, &v, &end) < 0)
		return -1;
	if (b->i >= b->len || b->s[b->i] != close) {
		error_at(b, b->i, "expected '%c' to end the @string '%.*s'", close, STR_FMT(name));
		return -1;
	}
	b->i++;
	struct str low = lower(b, name.p, name.len);
	struct str *keep = arena_alloc(b->a, sizeof *keep);
	*keep = v;
	map_put(&b->strings, low.p, low.len, NULL)->val.p = keep; /* a later one replaces it */
	return 0;
}

static void add_field(struct bt *b, struct str name, struct str v)
{
	for (size_t k = 0; k < b->nfields; k++)
		if (str_eq(b->fields[k].name, name))
			return; /* given twice: the first, as BibTeX */
	if (b->nfields == b->cap_fields) {
		b->cap_fields = b->cap_fields ? b->cap_fields * 2 : 16;
		b->fields = xrealloc(b->fields, b->cap_fields * sizeof *b->fields);
	}
	b->fields[b->nfields++] = (struct bib_field){name, v};
}

/* fields: `name = value` pairs separated by ',' up to close; 0, or -1
 * after an error. */
static int fields(struct bt *b, char close, struct str key)
{
	for (;;) {
		skip_space(b);
		if (b->i >= b->len) {
			return 1; /* the caller says the entry is unclosed */
		}
		if (b->s[b->i] == close) {
			b->i++;
			return 0;
		}
		size_t at = b->i;
		struct str name = read_name(b);
		if (!name.len) {
			error_at(b, at, "expected a field name in the entry '%.*s', found '%c' (fields are name = value, separated by ',')",
				 STR_FMT(key), b->s[at]);
			return -1;
		}
		skip_space(b);
		if (b->i >= b->len || b->s[b->i] != '=') {
			error_at(b, b->i < b->len ? b->i : at, "expected '=' after the field name '%.*s' in the entry '%.*s'",
				 STR_FMT(name), STR_FMT(key));
			return -1;
		}
		struct str v;
		size_t vend;
		if (assigned(b, name, &v, &vend) < 0)
			return -1;
		add_field(b, lower(b, name.p, name.len), v);
		if (b->i < b->len && b->s[b->i] == ',') {
			b->i++;
			continue;
		}
		if (b->i < b->len && b->s[b->i] != close) {
			error_at(b, vend, "expected ',' or '%c' after the field '%.*s' in the entry '%.*s' (a missing comma?)",
				 close, STR_FMT(name), STR_FMT(key));
			return -1;
		}
	}
}

/* entry: an entry from after its opening delimiter at open; 0, or -1
 * after an error. */
static int entry(struct bt *b, struct str type, size_t open, char close)
{
	skip_space(b);
	size_t at = b->i;
	while (b->i < b->len && is_key(b->s[b->i]))
		b->i++;
	struct str key = {b->s + at, b->i - at};
	skip_space(b);
	if (!key.len || b->i >= b->len || b->s[b->i] == '=') {
		error_at(b, at, "the @%.*s entry has no key (write @%.*s{KEY, ...}: the key is what posts cite)",
			 STR_FMT(type), STR_FMT(type));
		return -1;
	}
	if (b->s[b->i] != ',' && b->s[b->i] != close) {
		error_at(b, b->i, "expected ',' after the key '%.*s'", STR_FMT(key));
		return -1;
	}
	if (b->s[b->i] == ',')
		b->i++; /* else an entry of a key alone: fields() sees close */
	b->nfields = 0;
	int r = fields(b, close, key);
	if (r > 0) {
		error_at(b, open, "unclosed '%c': the entry '%.*s' never ends (add '%c' after its last field)",
			 b->s[open], STR_FMT(key), close);
		return -1;
	}
	if (r < 0)
		return -1;
	int added;
	struct map_entry *me = map_put(&b->out->keys, key.p, key.len, &added);
	int line, col;
	where(b, at, &line, &col);
	if (!added) {
		const struct bib_entry *first = &b->ents[me->val.u];
		error_at(b, at, "duplicate key '%.*s' (the first is at line %d; keys must be unique)", STR_FMT(key),
			 first->line);
		return 0;
	}
	if (b->nents == b->cap_ents) {
		b->cap_ents = b->cap_ents ? b->cap_ents * 2 : 16;
		b->ents = xrealloc(b->ents, b->cap_ents * sizeof *b->ents);
	}
	me->val.u = b->nents;
	struct bib_entry *e = &b->ents[b->nents++];
	*e = (struct bib_entry){lower(b, type.p, type.len), key, line, col, NULL, b->nfields};
	if (b->nfields) {
		e->fields = arena_alloc(b->a, b->nfields * sizeof *e->fields);
		memcpy(e->fields, b->fields, b->nfields * sizeof *e->fields);
	}
	return 0;
}

/* at_sign: what follows an '@' at b->i: an entry, a @string, or a
 * @preamble or @comment skipped; an '@' not followed by a name and an
 * opening delimiter is text, as outside entries everything is. */
static void at_sign(struct bt *b)
{
	b->i++;
	skip_space(b);
	struct str type = read_name(b);
	skip_space(b);
	if (!type.len)
		return;
	int comment = type.len == 7 && !strncasecmp(type.p, "comment", 7);
	if (b->i >= b->len || (b->s[b->i] != '{' && b->s[b->i] != '(')) {
		if (comment) /* @comment without braces: the rest of its line */
			while (b->i < b->len && b->s[b->i] != '\n')
				b->i++;
		return;
	}
	size_t open = b->i;
	char close = b->s[open] == '{' ? '}' : ')';
	if (comment || (type.len == 8 && !strncasecmp(type.p, "preamble", 8))) {
		if (b->s[open] == '(') {
			const char *e = memchr(b->s + open, ')', b->len - open);
			b->i = e ? (size_t)(e - b->s) + 1 : b->len;
		} else if (balanced(b) < 0) {
			error_at(b, open, "unclosed '{' of this @%.*s (braces must pair up)", STR_FMT(type));
		}
		return;
	}
	b->i++;
	int r = type.len == 6 && !strncasecmp(type.p, "string", 6) ? string_def(b, close) : entry(b, type, open, close);
	if (r < 0)
		recover(b);
}

size_t bibtex_parse(struct arena *a, const char *src, size_t len, struct bibtex *out)
{
	memset(out, 0, sizeof *out);
	struct bt b = {.a = a, .s = src, .len = len, .out = out};
	b.grow_max = BIBTEX_GROWTH * len + ((size_t)1 << 20);
	buf_init(&b.join);
	for (size_t m = 0; m < 12; m++) {
		struct str *v = arena_alloc(a, sizeof *v);
		*v = str_from(months[m][1]);
		map_put(&b.strings, months[m][0], 3, NULL)->val.p = v;
	}
	while (b.i < len && b.nerrs < BIBTEX_MAX_ERRORS) {
		const char *at = memchr(src + b.i, '@', len - b.i);
		if (!at)
			break;
		b.i = (size_t)(at - src);
		at_sign(&b);
	}
	out->n = b.nents;
	if (b.nents) {
		out->entries = arena_alloc(a, b.nents * sizeof *out->entries);
		memcpy(out->entries, b.ents, b.nents * sizeof *b.ents);
	}
	out->nerrors = b.nerrs;
	if (b.nerrs) {
		out->errors = arena_alloc(a, b.nerrs * sizeof *out->errors);
		memcpy(out->errors, b.errs, b.nerrs * sizeof *b.errs);
	}
	free(b.ents);
	free(b.errs);
	free(b.fields);
	buf_fini(&b.join);
	map_fini(&b.strings);
	return out->nerrors;
}

void bibtex_fini(struct bibtex *b)
{
	map_fini(&b->keys);
}

const struct bib_entry *bibtex_find(const struct bibtex *b, struct str key)
{
	struct map_entry *e = map_find(&b->keys, key.p, key.len);
	return e ? &b->entries[e->val.u] : NULL;
}

struct str bibtex_field(const struct bib_entry *e, const char *name)
{
	for (size_t k = 0; k < e->nfields; k++)
		if (str_eq_cstr(e->fields[k].name, name))
			return e->fields[k].value;
	return (struct str){NULL, 0};
}
