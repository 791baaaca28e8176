/* filters.c: the built-in filters. Each receives its input and its
 * arguments bound to the parameters it declares (missing optional ones are
 * TV_UNDEF) and stores its result; strings come from the render's arena. */
#include "internal.h"
#include "base/civil.h"
#include "base/slug.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <utf8proc.h>

#define ARENA(c) tmpl_call_arena(c)

static struct str keep(struct tmpl_call *c, struct buf *b)
{
	return buf_to_arena(b, ARENA(c));
}

static int given(const struct tval *v)
{
	return v->kind != TV_UNDEF;
}

static int need_str(struct tmpl_call *c, const struct tval *v, const char *what, struct str *out)
{
	if (v->kind == TV_STR) {
		*out = v->u.s;
		return 0;
	}
	if (v->kind == TV_INT || v->kind == TV_FLOAT || v->kind == TV_BOOL || v->kind == TV_NONE) {
		(void)tval_text(v, ARENA(c), SIZE_MAX, out); /* a scalar's text is short */
		return 0;
	}
	tmpl_call_error(c, "%s must be a string, not %s", what, tval_type_name(v));
	return -1;
}

static int need_int(struct tmpl_call *c, const struct tval *v, const char *what, int64_t *out)
{
	if (v->kind == TV_INT) {
		*out = v->u.i;
		return 0;
	}
	tmpl_call_error(c, "%s must be an integer, not %s", what, tval_type_name(v));
	return -1;
}

static int need_list(struct tmpl_call *c, const struct tval *v, struct tlist **out)
{
	if (v->kind == TV_LIST || (v->kind == TV_OBJ && v->u.obj.cls->at)) {
		tval_as_list(v, ARENA(c), out);
		return 0;
	}
	tmpl_call_error(c, "needs a list, not %s", tval_type_name(v));
	return -1;
}

int filter_input_str(struct tmpl_call *c, struct tval *in)
{
	struct str s;
	if (in->kind == TV_STR)
		return 0;
	if (need_str(c, in, "the input", &s))
		return -1;
	*in = tv_str(s);
	return 0;
}

/* text_of: v as text (tval_text), at most the output cap long. */
static int text_of(struct tmpl_call *c, const struct tval *v, struct str *out)
{
	size_t cap = tmpl_call_max_output(c);
	if (!tval_text(v, ARENA(c), cap, out))
		return 0;
	tmpl_call_error(c, "the %s as text is longer than %zu bytes (does it hold one list many times over?)",
			tval_type_name(v), cap);
	return -1;
}

/* too_long: 1, with the error, if a result of n bytes would pass the cap. */
static int too_long(struct tmpl_call *c, size_t n)
{
	if (n <= tmpl_call_max_output(c))
		return 0;
	tmpl_call_error(c, "the result is longer than %zu bytes (a runaway loop?)", tmpl_call_max_output(c));
	return 1;
}

/* steps_over: a comparison used up the render's steps (tval_equal). */
static int steps_over(struct tmpl_call *c)
{
	return tmpl_steps_over(c->r, c->t, c->e->line, c->e->col);
}

/* attr_path: item's field `path`, dotted ("series.title"); 0 if missing. */
static int attr_path(struct tmpl_call *c, const struct tval *item, struct str path, struct tval *out)
{
	struct tval cur = *item;
	while (path.len) {
		const char *dot = memchr(path.p, '.', path.len);
		struct str key = {path.p, dot ? (size_t)(dot - path.p) : path.len};
		struct tval next;
		int ok = 0;
		if (cur.kind == TV_LIST && key.len && key.p[0] >= '0' && key.p[0] <= '9') {
			size_t i = (size_t)strtoul(arena_strndup(ARENA(c), key.p, key.len), NULL, 10);
			ok = tval_item(&cur, i, &next, ARENA(c));
		} else {
			ok = tval_attr(&cur, key, &next, ARENA(c));
		}
		if (!ok)
			return 0;
		cur = next;
		if (!dot)
			break;
		path.p = dot + 1;
		path.len -= key.len + 1;
	}
	*out = cur;
	return 1;
}

/* ---- text ---- */

/* escape_all: the input's text HTML-escaped, as markup. */
static int escape_all(struct tmpl_call *c, const struct tval *in, struct tval *out)
{
	struct str s;
	if (text_of(c, in, &s))
		return -1;
	/* escaped, a string may grow six times: measured first, not made */
	size_t n = html_escaped_len(s.p, s.len);
	if (too_long(c, n))
		return -1;
	struct buf b;
	buf_init(&b);
	buf_reserve(&b, n);
	buf_put_html(&b, s.p, s.len);
	*out = tv_safe(keep(c, &b));
	return 0;
}

static int f_escape(struct tmpl_call *c, const struct tval *in, const struct tval *args, struct tval *out)
{
	(void)args;
	if (in->kind == TV_STR && in->safe) {
		*out = *in;
		return 0;
	}
	return escape_all(c, in, out);
}

/* forceescape: markup is escaped too (a post's HTML in a feed's
 * <content type="html">). */
static int f_forceescape(struct tmpl_call *c, const struct tval *in, const struct tval *args, struct tval *out)
{
	(void)args;
	return escape_all(c, in, out);
}

static int f_safe(struct tmpl_call *c, const struct tval *in, const struct tval *args, struct tval *out)
{
	(void)args;
	struct str s;
	if (text_of(c, in, &s))
		return -1;
	*out = tv_safe(s);
	return 0;
}

static int f_string(struct tmpl_call *c, const struct tval *in, const struct tval *args, struct tval *out)
{
	(void)args;
	struct str s;
	if (text_of(c, in, &s))
		return -1;
	*out = tv_str(s);
	out->safe = in->kind == TV_STR && in->safe;
	return 0;
}

/* The variants of case_map: upper, lower, capitalize (the first
 * character upper, the rest lower), title (each word's first letter
 * upper, the rest lower). */
enum { CASE_UPPER, CASE_LOWER, CASE_CAPITALIZE, CASE_TITLE };

/* case_map: upper, lower, capitalize, title (FILTER_VARIANT): maps every
 * character with utf8proc; invalid UTF-8 bytes become U+FFFD, so the
 * output is always valid UTF-8. */
static int f_case_map(struct tmpl_call *c, const struct tval *in, const struct tval *args, struct tval *out)
{
	int v = FILTER_VARIANT(c);
	int upper = v == CASE_UPPER, title = v == CASE_CAPITALIZE ? 1 : v == CASE_TITLE ? 2 : 0;
	struct str s = in->u.s; /* str_in */
	(void)args;
	struct buf b;
	buf_init(&b);
	int start = 1;
	int32_t cp;
	for (size_t i = 0; utf8_step(s, &i, &cp);) {
		if (cp < 0)
			cp = 0xFFFD;
		utf8proc_int32_t m;
		if (title == 1) /* capitalize: first upper, the rest lower */
			m = start ? utf8proc_toupper(cp) : utf8proc_tolower(cp);
		else if (title == 2) /* title: each word's first letter upper */
			m = start ? utf8proc_totitle(cp) : utf8proc_tolower(cp);
		else
			m = upper ? utf8proc_toupper(cp) : utf8proc_tolower(cp);
		if (title == 2) {
			const utf8proc_property_t *prop = utf8proc_get_property(cp);
			int letter = prop->category >= UTF8PROC_CATEGORY_LU && prop->category <= UTF8PROC_CATEGORY_LO;
			int digit = prop->category == UTF8PROC_CATEGORY_ND;
			start = !(letter || digit || cp == '\'');
		} else {
			start = 0;
		}
		utf8proc_uint8_t enc[4];
		utf8proc_ssize_t k = utf8proc_encode_char(m, enc);
		buf_append(&b, enc, (size_t)k);
	}
	*out = tv_str(keep(c, &b));
	out->safe = in->kind == TV_STR && in->safe;
	return 0;
}

static int is_space(unsigned char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\f' || ch == '\v';
}

static int f_trim(struct tmpl_call *c, const struct tval *in, const struct tval *args, struct tval *out)
{
	struct str s = in->u.s; /* str_in */
	(void)c;
	(void)args;
	*out = tv_str(str_trim(s));
	out->safe = in->kind == TV_STR && in->safe;
	return 0;
}

/* truncate(length=255, end="…"): at most `length` characters of text; when
 * cut, the cut is at the last word boundary (if there is one in the second
 * half) and `end` is appended. Never cuts inside a UTF-8 character. */
static int f_truncate(struct tmpl_call *c, const struct tval *in, const struct tval *args, struct tval *out)
{
	struct str s = in->u.s, end = STR_LIT("\xE2\x80\xA6"); /* str_in */
	int64_t len = 255;
	if (given(&args[0]) && need_int(c, &args[0], "length", &len))
		return -1;
	if (given(&args[1]) && need_str(c, &args[1], "end", &end))
		return -1;
	if (len < 0) {
		tmpl_call_error(c, "length must not be negative");
		return -1;
	}
	if ((int64_t)utf8_count(s) <= len) {
		*out = tv_str(s);
		return 0;
	}
	size_t pos = 0;
	for (int64_t k = 0; k < len && pos < s.len; k++)
		pos += utf8_len(s.p + pos, s.len - pos);
	size_t cut = pos;
	/* a word boundary: the text after the cut must not continue the word */
	if (pos < s.len && !is_space((unsigned char)s.p[pos])) {
		size_t b = pos;
		while (b > 0 && !is_space((unsigned char)s.p[b - 1]))
			b--;
		if (b > pos / 2)
			cut = b;
	}
	while (cut > 0 && is_space((unsigned char)s.p[cut - 1]))
		cut--;
	struct buf b;
	buf_init(&b);
	buf_append(&b, s.p, cut);
	buf_put_str(&b, end);
	*out = tv_str(keep(c, &b));
	return 0;
}

static int decode_entity(const char *p, size_t n, struct buf *b)
{
	static const struct {
		const char *name;
		const char *text;
	} ents[] = {{"amp;", "&"}, {"lt;", "<"}, {"gt;", ">"}, {"quot;", "\""}, {"#39;", "'"}, {"apos;", "'"},
		    {"nbsp;", "\xC2\xA0"}, {NULL, NULL}};
	for (int i = 0; ents[i].name; i++) {
		size_t k = strlen(ents[i].name);
		if (n >= k && memcmp(p, ents[i].name, k) == 0) {
			buf_puts(b, ents[i].text);
			return (int)k;
		}
	}
	if (n > 2 && p[0] == '#') {
		size_t i = 1;
		int hex = p[1] == 'x' || p[1] == 'X';
		if (hex)
			i++;
		long cp = 0;
		size_t start = i;
		while (i < n && i < 10 && ((p[i] >= '0' && p[i] <= '9') || (hex && ((p[i] | 32) >= 'a' && (p[i] | 32) <= 'f')))) {
			cp = cp * (hex ? 16 : 10) + (p[i] <= '9' ? p[i] - '0' : (p[i] | 32) - 'a' + 10);
			i++;
		}
		if (i > start && i < n && p[i] == ';' && utf8proc_codepoint_valid((utf8proc_int32_t)cp) && cp != 0) {
			utf8proc_uint8_t enc[4];
			utf8proc_ssize_t k = utf8proc_encode_char((utf8proc_int32_t)cp, enc);
			buf_append(b, enc, (size_t)k);
			return (int)i + 1;
		}
	}
	return 0;
}

/* is_block_tag: whether the tag at p ("<p ...", "</li>") ends a run of
 * text, so that stripping it must leave a space: "<p>a</p><p>b</p>" is
 * "a b", while "<b>World</b>!" stays "World!". */
static int is_block_tag(const char *p, size_t n)
{
	static const char *const block[] = {"address", "article", "aside", "blockquote", "br", "dd", "details",
		"div", "dl", "dt", "figcaption", "figure", "footer", "h1", "h2", "h3", "h4", "h5", "h6", "header",
		"hr", "li", "main", "nav", "ol", "p", "pre", "section", "summary", "table", "td", "th", "tr", "ul",
		NULL};
	size_t i = 1;
	if (i < n && p[i] == '/')
		i++;
	size_t start = i;
	while (i < n && (((p[i] | 32) >= 'a' && (p[i] | 32) <= 'z') || (p[i] >= '0' && p[i] <= '9')))
		i++;
	size_t len = i - start;
	for (int k = 0; block[k]; k++) {
		if (strlen(block[k]) != len)
			continue;
		size_t j;
		for (j = 0; j < len && (p[start + j] | 32) == block[k][j]; j++)
			;
		if (j == len)
			return 1;
	}
	return 0;
}

/* striptags: removes tags and comments, decodes entities, folds white space.
 * Block-level tags count as white space, inline ones as nothing. */
static int f_striptags(struct tmpl_call *c, const struct tval *in, const struct tval *args, struct tval *out)
{
	struct str s = in->u.s; /* str_in */
	(void)args;
	struct buf b;
	buf_init(&b);
	int space = 0;
	for (size_t i = 0; i < s.len;) {
		char ch = s.p[i];
		if (ch == '<') {
			if (s.len - i >= 4 && memcmp(s.p + i, "<!--", 4) == 0) {
				const char *e = memmem(s.p + i + 4, s.len - i - 4, "-->", 3);
				i = e ? (size_t)(e - s.p) + 3 : s.len;
				continue;
			}
			/* a tag starts with a letter, '/' or '!' */
			if (i + 1 < s.len && (((s.p[i + 1] | 32) >= 'a' && (s.p[i + 1] | 32) <= 'z') || s.p[i + 1] == '/' ||
					      s.p[i + 1] == '!')) {
				const char *e = memchr(s.p + i, '>', s.len - i);
				if (is_block_tag(s.p + i, s.len - i))
					space = 1;
				i = e ? (size_t)(e - s.p) + 1 : s.len;
				continue;
			}
		}
		if (is_space((unsigned char)ch)) {
			space = 1;
			i++;
			continue;
		}
		buf_sep(&b, &space, ' ');
		if (ch == '&') {
			int k = decode_entity(s.p + i + 1, s.len - i - 1, &b);
			if (k) {
				i += (size_t)k + 1;
				continue;
			}
		}
		buf_putc(&b, ch);
		i++;
	}
	*out = tv_str(keep(c, &b));
	return 0;
}

/* put_encoded: s percent-encoded into b, but ASCII letters, digits and
 * the bytes of keep (never NUL: strchr would find the string's end) */
static void put_encoded(struct buf *b, struct str s, const char *keep)
{
	for (size_t j = 0; j < s.len; j++) {
		unsigned char ch = (unsigned char)s.p[j];
		if ((ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') ||
		    (ch && strchr(keep, ch)))
			buf_putc(b, ch);
		else
			buf_printf(b, "%%%02X", ch);
	}
}

static int f_urlencode(struct tmpl_call *c, const struct tval *in, const struct tval *args, struct tval *out)
{
	(void)args;
	struct buf b;
	buf_init(&b);
	struct str parts[2];
	if (in->kind == TV_MAP) { /* a query string: k=v&k2=v2 */
		tmap_touch(in->u.map);
		for (size_t i = 0; i < in->u.map->len; i++) {
			parts[0] = in->u.map->keys[i];
			if (text_of(c, &in->u.map->vals[i], &parts[1])) {
				buf_fini(&b);
				return -1;
			}
			if (i)
				buf_putc(&b, '&');
			for (int k = 0; k < 2; k++) {
				if (k)
					buf_putc(&b, '=');
				put_encoded(&b, parts[k], "-._~");
			}
		}
		*out = tv_str(keep(c, &b));
		return 0;
	}
	struct str s;
	if (need_str(c, in, "the input", &s)) {
		buf_fini(&b);
		return -1;
	}
	put_encoded(&b, s, "-._~/");
	*out = tv_str(keep(c, &b));
	return 0;
}

static int f_replace(struct tmpl_call *c, const struct tval *in, const struct tval *args, struct tval *out)
{
	struct str s = in->u.s, from, to; /* str_in */
	int64_t count = -1;
	if (need_str(c, &args[0], "old", &from) || need_str(c, &args[1], "new", &to))
		return -1;
	if (given(&args[2]) && need_int(c, &args[2], "count", &count))
		return -1;
	int safe = in->kind == TV_STR && in->safe;
	struct buf esc;
	buf_init(&esc);
	if (safe && !(args[1].kind == TV_STR && args[1].safe)) {
		/* text replacing inside markup is escaped */
		buf_put_html(&esc, to.p, to.len);
		to = buf_str(&esc);
	}
	struct buf b;
	buf_init(&b);
	size_t i = 0;
	if (from.len == 0) {
		buf_put_str(&b, s);
	} else {
		while (i < s.len && count != 0) {
			const char *hit = memmem(s.p + i, s.len - i, from.p, from.len);
			if (!hit)
				break;
			buf_append(&b, s.p + i, (size_t)(hit - (s.p + i)));
			/* a short text replaced by a long one, many times */
			if (b.len + to.len < b.len || too_long(c, b.len + to.len)) {
				buf_fini(&b);
				buf_fini(&esc);
				return -1;
			}
			buf_put_str(&b, to);
			i = (size_t)(hit - s.p) + from.len;
			if (count > 0)
				count--;
		}
		buf_append(&b, s.p + i, s.len - i);
	}
	buf_fini(&esc);
	*out = tv_str(keep(c, &b));
	out->safe = (unsigned char)safe;
	return 0;
}

static int f_wordcount(struct tmpl_call *c, const struct tval *in, const struct tval *args, struct tval *out)
{
	struct str s = in->u.s; /* str_in */
	(void)c;
	(void)args;
	int64_t n = 0;
	int inword = 0;
	for (size_t i = 0; i < s.len; i++) {
		int sp = is_space((unsigned char)s.p[i]);
		if (!sp && !inword)
			n++;
		inword = !sp;
	}
	*out = tv_int(n);
	return 0;
}

/* ---- URLs ---- */

static int is_absolute_url(struct str s)
{
	if (s.len >= 2 && s.p[0] == '/' && s.p[1] == '/')
		return 1;
	for (size_t i = 0; i < s.len; i++) {
		char ch = s.p[i];
		if (ch == ':')
			return i > 0;
		if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (i > 0 && ((ch >= '0' && ch <= '9') ||
										       ch == '+' || ch == '-' || ch == '.'))))
			return 0;
	}
	return 0;
}

/* site_url: the input joined to base_url (variant 1, abs_url: "posts/x/" ->
 * "https://example.org/blog/posts/x/") or to its path alone (0, rel_url:
 * "/blog/posts/x/"); an absolute URL or a #fragment is kept as it is. */
static int f_site_url(struct tmpl_call *c, const struct tval *in, const struct tval *args, struct tval *out)
{
	int abs = FILTER_VARIANT(c);
	(void)args;
	struct str s = in->u.s; /* str_in */
	if (is_absolute_url(s) || (s.len && s.p[0] == '#')) {
		*out = *in;
		return 0;
	}
	struct str base = abs ? str_from(tmpl_call_env(c)->base_url) : tmpl_call_env(c)->base_path;
	while (base.len && base.p[base.len - 1] == '/')
		base.len--;
	/* base, a slash unless the path has one, the path: made in the arena */
	int slash = !s.len || s.p[0] != '/';
	size_t n = base.len + (size_t)slash + s.len;
	char *p = arena_alloc(ARENA(c), n + 1);
	if (base.len)
		memcpy(p, base.p, base.len);
	if (slash)
		p[base.len] = '/';
	if (s.len)
		memcpy(p + base.len + slash, s.p, s.len);
	p[n] = '\0';
	*out = tv_str((struct str){p, n});
	return 0;
}

/* ---- lists ---- */

static int f_length(struct tmpl_call *c, const struct tval *in, const struct tval *args, struct tval *out)
{
	(void)args;
	int64_t n = tval_length(in);
	if (n < 0) {
		tmpl_call_error(c, "%s has no length", tval_type_name(in));
		return -1;
	}
	*out = tv_int(n);
	return 0;
}

/* first_last: the first item or character (variant 0: first), or the
 * last (1: last). */
static int f_first_last(struct tmpl_call *c, const struct tval *in, const struct tval *args, struct tval *out)
{
	int last = FILTER_VARIANT(c);
	(void)args;
	if (in->kind == TV_STR) {
		struct str s = in->u.s;
		if (!s.len) {
			*out = tv_undef();
			out->u.s = last ? STR_LIT("last: the string is empty") : STR_LIT("first: the string is empty");
			out->safe = 1;
			return 0;
		}
		size_t at = last ? utf8_offset(s, utf8_count(s) - 1) : 0;
		*out = tv_str((struct str){s.p + at, utf8_len(s.p + at, s.len - at)});
		return 0;
	}
	int64_t n = tval_length(in);
	if (n < 0 || in->kind == TV_MAP) {
		tmpl_call_error(c, "needs a list or string, not %s", tval_type_name(in));
		return -1;
	}
	if (n == 0 || !tval_item(in, last ? (size_t)n - 1 : 0, out, ARENA(c))) {
		*out = tv_undef();
		out->u.s = last ? STR_LIT("last: the list is empty") : STR_LIT("first: the list is empty");
		out->safe = 1;
	}
	return 0;
}

/* slice(start, end?): Python's s[start:end], for lists and strings. */
static int f_slice(struct tmpl_call *c, const struct tval *in, const struct tval *args, struct tval *out)
{
	int64_t start, end;
	if (need_int(c, &args[0], "start", &start))
		return -1;
	struct tlist *l = NULL;
	int64_t n;
	if (in->kind == TV_STR)
		n = (int64_t)utf8_count(in->u.s); /* characters, not a list of them */
	else if (need_list(c, in, &l))
		return -1;
	else
		n = (int64_t)l->len;
	end = n;
	if (given(&args[1]) && args[1].kind != TV_NONE && need_int(c, &args[1], "end", &end))
		return -1;
	if (start < 0)
		start = start + n < 0 ? 0 : start + n;
	if (end < 0)
		end = end + n < 0 ? 0 : end + n;
	if (start > n)
		start = n;
	if (end > n)
		end = n;
	if (in->kind == TV_STR) { /* the bytes from character start to character end */
		struct str s = in->u.s;
		size_t from = utf8_offset(s, (size_t)start);
		size_t to = end > start ? from + utf8_offset((struct str){s.p + from, s.len - from}, (size_t)(end - start))
					: from;
		*out = tv_str((struct str){arena_strndup(ARENA(c), s.p + from, to - from), to - from});
		out->safe = in->safe;
		return 0;
	}
	struct tlist *r = tlist_new(ARENA(c), end > start ? (size_t)(end - start) : 0);
	for (int64_t i = start; i < end; i++)
		tlist_push(ARENA(c), r, l->items[i]);
	*out = tv_list(r);
	return 0;
}

static int f_join(struct tmpl_call *c, const struct tval *in, const struct tval *args, struct tval *out)
{
	struct str sep = {"", 0};
	if (given(&args[0]) && need_str(c, &args[0], "separator", &sep))
		return -1;
	struct tlist *l;
	if (need_list(c, in, &l))
		return -1;
	struct tlist *items = l;
	if (given(&args[1])) { /* join(", ", attribute="title") */
		struct str path;
		if (need_str(c, &args[1], "attribute", &path))
			return -1;
		items = tlist_new(ARENA(c), l->len);
		for (size_t i = 0; i < l->len; i++) {
			struct tval v;
			if (!attr_path(c, &l->items[i], path, &v)) {
				tmpl_call_error(c, "item %zu has no attribute '%.*s'", i + 1, STR_FMT(path));
				return -1;
			}
			tlist_push(ARENA(c), items, v);
		}
	}
	/* markup joined with text: the text is escaped and the result is markup */
	int safe = args[0].kind == TV_STR && args[0].safe;
	for (size_t i = 0; i < items->len; i++)
		if (items->items[i].kind == TV_STR && items->items[i].safe)
			safe = 1;
	struct buf b;
	buf_init(&b);
	for (size_t i = 0; i < items->len; i++) {
		if (i) {
			if (safe && !(args[0].kind == TV_STR && args[0].safe))
				buf_put_html(&b, sep.p, sep.len);
			else
				buf_put_str(&b, sep);
		}
		const struct tval *it = &items->items[i];
		if (it->kind == TV_UNDEF) {
			tmpl_call_error(c, "item %zu is undefined", i + 1);
			buf_fini(&b);
			return -1;
		}
		struct str t;
		if (text_of(c, it, &t)) {
			buf_fini(&b);
			return -1;
		}
		if (safe && !(it->kind == TV_STR && it->safe))
			buf_put_html(&b, t.p, t.len);
		else
			buf_put_str(&b, t);
		/* many items, or one long one many times over */
		if (too_long(c, b.len)) {
			buf_fini(&b);
			return -1;
		}
	}
	*out = tv_str(keep(c, &b));
	out->safe = (unsigned char)safe;
	return 0;
}

static int f_reverse(struct tmpl_call *c, const struct tval *in, const struct tval *args, struct tval *out)
{
	(void)args;
	struct tlist *l;
	if (in->kind == TV_STR) { /* the characters in reverse, each kept whole */
		struct str s = in->u.s;
		char *p = arena_alloc(ARENA(c), s.len + 1);
		for (size_t i = 0; i < s.len;) {
			size_t n = utf8_len(s.p + i, s.len - i);
			memcpy(p + s.len - i - n, s.p + i, n);
			i += n;
		}
		*out = tv_str((struct str){p, s.len});
		return 0;
	}
	if (need_list(c, in, &l))
		return -1;
	struct tlist *r = tlist_new(ARENA(c), l->len);
	for (size_t i = l->len; i-- > 0;)
		tlist_push(ARENA(c), r, l->items[i]);
	*out = tv_list(r);
	return 0;
}

static int f_default(struct tmpl_call *c, const struct tval *in, const struct tval *args, struct tval *out)
{
	int use_default = in->kind == TV_UNDEF;
	(void)c;
	if (given(&args[1]) && tval_truthy(&args[1]))
		use_default = !tval_truthy(in);
	if (use_default)
		*out = given(&args[0]) ? args[0] : tv_str((struct str){"", 0});
	else
		*out = *in;
	return 0;
}

/* sort keys: the item itself or its attribute; strings compare without case
 * unless case_sensitive. */
struct sort_item {
	struct tval key, item;
};

static int key_cmp(const struct tval *a, const struct tval *b, int fold, int *ok, long *steps)
{
	if (fold && a->kind == TV_STR && b->kind == TV_STR) {
		*ok = 1;
		size_t n = a->u.s.len < b->u.s.len ? a->u.s.len : b->u.s.len;
		for (size_t i = 0; i < n; i++) {
			int x = (unsigned char)a->u.s.p[i], y = (unsigned char)b->u.s.p[i];
			if (x >= 'A' && x <= 'Z')
				x += 32;
			if (y >= 'A' && y <= 'Z')
				y += 32;
			if (x != y)
				return x - y;
		}
		return (a->u.s.len > b->u.s.len) - (a->u.s.len < b->u.s.len);
	}
	if ((a->kind == TV_NONE || a->kind == TV_UNDEF) || (b->kind == TV_NONE || b->kind == TV_UNDEF)) {
		/* missing keys sort first, stably */
		*ok = 1;
		int ma = a->kind == TV_NONE || a->kind == TV_UNDEF, mb = b->kind == TV_NONE || b->kind == TV_UNDEF;
		return mb - ma;
	}
	return tval_compare(a, b, ok, steps);
}

/* merge_sort: stable, O(n log n), with a scratch array. On keys that
 * cannot be ordered returns -1 and points *bad at the two of them. */
static int merge_sort(struct sort_item *v, struct sort_item *tmp, size_t n, int fold, int rev, long *steps,
		      const struct tval *bad[2])
{
	if (n < 2)
		return 0;
	size_t h = n / 2;
	if (merge_sort(v, tmp, h, fold, rev, steps, bad) || merge_sort(v + h, tmp, n - h, fold, rev, steps, bad))
		return -1;
	size_t i = 0, j = h, k = 0;
	while (i < h && j < n) {
		int ok;
		int cmp = key_cmp(&v[j].key, &v[i].key, fold, &ok, steps);
		if (!ok) {
			bad[0] = &v[i].key;
			bad[1] = &v[j].key;
			return -1;
		}
		if (rev)
			cmp = -cmp;
		tmp[k++] = cmp < 0 ? v[j++] : v[i++];
	}
	while (i < h)
		tmp[k++] = v[i++];
	while (j < n)
		tmp[k++] = v[j++];
	memcpy(v, tmp, n * sizeof *v);
	return 0;
}

static int f_sort(struct tmpl_call *c, const struct tval *in, const struct tval *args, struct tval *out)
{
	struct tlist *l;
	if (need_list(c, in, &l))
		return -1;
	struct str path = {NULL, 0};
	if (given(&args[0]) && args[0].kind != TV_NONE && need_str(c, &args[0], "attribute", &path))
		return -1;
	int rev = given(&args[1]) && tval_truthy(&args[1]);
	int fold = !(given(&args[2]) && tval_truthy(&args[2]));
	struct sort_item *v = arena_alloc(ARENA(c), (l->len + 1) * sizeof *v);
	struct sort_item *tmp = arena_alloc(ARENA(c), (l->len + 1) * sizeof *tmp);
	for (size_t i = 0; i < l->len; i++) {
		v[i].item = l->items[i];
		if (!path.len)
			v[i].key = l->items[i];
		else if (!attr_path(c, &l->items[i], path, &v[i].key))
			v[i].key = tv_none();
	}
	const struct tval *bad[2];
	int unordered = merge_sort(v, tmp, l->len, fold, rev, &c->r->steps, bad);
	if (steps_over(c))
		return -1;
	if (unordered) {
		tmpl_call_error(c, "cannot compare %s with %s", tval_type_name(bad[0]), tval_type_name(bad[1]));
		return -1;
	}
	struct tlist *r = tlist_new(ARENA(c), l->len);
	for (size_t i = 0; i < l->len; i++)
		tlist_push(ARENA(c), r, v[i].item);
	*out = tv_list(r);
	return 0;
}

/* list_attr: the input list and the attribute path args[0] of a filter
 * over the items' attribute. 0, or -1 after the error. */
static int list_attr(struct tmpl_call *c, const struct tval *in, const struct tval *args, struct tlist **l,
		     struct str *path)
{
	return need_list(c, in, l) || need_str(c, &args[0], "attribute", path) ? -1 : 0;
}

/* group_by(attribute): [{grouper, list}], groups in order of first appearance. */
static int f_group_by(struct tmpl_call *c, const struct tval *in, const struct tval *args, struct tval *out)
{
	struct tlist *l;
	struct str path;
	if (list_attr(c, in, args, &l, &path))
		return -1;
	struct tlist *groups = tlist_new(ARENA(c), 8);
	struct tmap *by_text = tmap_new(ARENA(c), 8); /* key text -> group index */
	for (size_t i = 0; i < l->len; i++) {
		struct tval key;
		if (!attr_path(c, &l->items[i], path, &key))
			key = tv_none();
		struct str kt;
		if (text_of(c, &key, &kt))
			return -1;
		/* keys of different types with the same text stay apart */
		struct buf kb;
		buf_init(&kb);
		buf_printf(&kb, "%d:", key.kind);
		buf_put_str(&kb, kt);
		struct str k = keep(c, &kb);
		const struct tval *gi = tmap_get(by_text, k);
		struct tlist *members;
		if (!gi) {
			struct tmap *g = tmap_new(ARENA(c), 2);
			members = tlist_new(ARENA(c), 4);
			tmap_set_cstr(ARENA(c), g, "grouper", key);
			tmap_set_cstr(ARENA(c), g, "list", tv_list(members));
			tmap_set(ARENA(c), by_text, k, tv_int((int64_t)groups->len));
			tlist_push(ARENA(c), groups, tv_map(g));
		} else {
			const struct tval *lv = tmap_get(groups->items[gi->u.i].u.map, STR_LIT("list"));
			members = lv->u.list;
		}
		tlist_push(ARENA(c), members, l->items[i]);
	}
	*out = tv_list(groups);
	return 0;
}

/* where(attribute, value?) (variant 0): the items whose attribute equals
 * value (or, without a value, is true); map(attribute, default?) (1):
 * each item's attribute, or default for an item that has none. */
static int f_where_map(struct tmpl_call *c, const struct tval *in, const struct tval *args, struct tval *out)
{
	int map = FILTER_VARIANT(c);
	struct tlist *l;
	struct str path;
	if (list_attr(c, in, args, &l, &path))
		return -1;
	struct tlist *r = tlist_new(ARENA(c), l->len);
	for (size_t i = 0; i < l->len; i++) {
		struct tval v;
		int has = attr_path(c, &l->items[i], path, &v);
		if (map) {
			if (!has && !given(&args[1])) {
				tmpl_call_error(c, "item %zu has no attribute '%.*s' (give a default: map(\"%.*s\", default=...))",
						i + 1, STR_FMT(path), STR_FMT(path));
				return -1;
			}
			tlist_push(ARENA(c), r, has ? v : args[1]);
			continue;
		}
		int keep_it = has && (given(&args[1]) ? tval_equal(&v, &args[1], ARENA(c), &c->r->steps) : tval_truthy(&v));
		if (steps_over(c))
			return -1;
		if (keep_it)
			tlist_push(ARENA(c), r, l->items[i]);
	}
	*out = tv_list(r);
	return 0;
}

static int f_unique(struct tmpl_call *c, const struct tval *in, const struct tval *args, struct tval *out)
{
	struct tlist *l;
	(void)args;
	if (need_list(c, in, &l))
		return -1;
	struct tlist *r = tlist_new(ARENA(c), l->len);
	struct tmap *seen = tmap_new(ARENA(c), 8);
	for (size_t i = 0; i < l->len; i++) {
		const struct tval *it = &l->items[i];
		if (it->kind == TV_STR || it->kind == TV_INT || it->kind == TV_BOOL || it->kind == TV_NONE) {
			struct buf kb;
			buf_init(&kb);
			buf_printf(&kb, "%d:", it->kind);
			(void)tval_to_text(&kb, it, ARENA(c), SIZE_MAX); /* a scalar */
			struct str k = keep(c, &kb);
			if (tmap_get(seen, k))
				continue;
			tmap_set(ARENA(c), seen, k, tv_bool(1));
		} else {
			int dup = 0;
			for (size_t j = 0; j < r->len && !dup; j++)
				dup = tval_equal(it, &r->items[j], ARENA(c), &c->r->steps);
			if (steps_over(c))
				return -1;
			if (dup)
				continue;
		}
		tlist_push(ARENA(c), r, *it);
	}
	*out = tv_list(r);
	return 0;
}

static int f_sum(struct tmpl_call *c, const struct tval *in, const struct tval *args, struct tval *out)
{
	struct tlist *l;
	if (need_list(c, in, &l))
		return -1;
	struct str path = {NULL, 0};
	if (given(&args[0]) && need_str(c, &args[0], "attribute", &path))
		return -1;
	int64_t si = 0;
	double sf = 0;
	int is_float = 0;
	for (size_t i = 0; i < l->len; i++) {
		struct tval v = l->items[i];
		if (path.len && !attr_path(c, &l->items[i], path, &v)) {
			tmpl_call_error(c, "item %zu has no attribute '%.*s'", i + 1, STR_FMT(path));
			return -1;
		}
		if (v.kind == TV_INT) {
			if (__builtin_add_overflow(si, v.u.i, &si)) {
				tmpl_call_error(c, "integer overflow");
				return -1;
			}
		} else if (v.kind == TV_FLOAT) {
			sf += v.u.f;
			is_float = 1;
		} else {
			tmpl_call_error(c, "item %zu is %s, not a number", i + 1, tval_type_name(&v));
			return -1;
		}
	}
	*out = is_float ? tv_float(sf + (double)si) : tv_int(si);
	return 0;
}

static int f_items(struct tmpl_call *c, const struct tval *in, const struct tval *args, struct tval *out)
{
	(void)args;
	if (in->kind != TV_MAP) {
		tmpl_call_error(c, "needs a map, not %s", tval_type_name(in));
		return -1;
	}
	tmap_touch(in->u.map);
	struct tlist *r = tlist_new(ARENA(c), in->u.map->len);
	for (size_t i = 0; i < in->u.map->len; i++) {
		struct tlist *pair = tlist_new(ARENA(c), 2);
		tlist_push(ARENA(c), pair, tv_str(in->u.map->keys[i]));
		tlist_push(ARENA(c), pair, in->u.map->vals[i]);
		tlist_push(ARENA(c), r, tv_list(pair));
	}
	*out = tv_list(r);
	return 0;
}

/* ---- numbers ---- */

static int f_abs(struct tmpl_call *c, const struct tval *in, const struct tval *args, struct tval *out)
{
	(void)args;
	if (in->kind == TV_INT) {
		if (in->u.i == INT64_MIN) {
			tmpl_call_error(c, "integer overflow");
			return -1;
		}
		*out = tv_int(in->u.i < 0 ? -in->u.i : in->u.i);
		return 0;
	}
	if (in->kind == TV_FLOAT) {
		*out = tv_float(fabs(in->u.f));
		return 0;
	}
	tmpl_call_error(c, "needs a number, not %s", tval_type_name(in));
	return -1;
}

/* decimal_text: whether t is spelled like a decimal number ("12", "-3.5e2");
 * strtod alone would also read "0x1A", "inf" and "nan". */
static int decimal_text(struct str t)
{
	for (size_t i = 0; i < t.len; i++) {
		char ch = t.p[i];
		if (!((ch >= '0' && ch <= '9') || ch == '.' || ch == '-' || ch == '+' || ch == 'e' || ch == 'E'))
			return 0;
	}
	return 1;
}

static int f_int(struct tmpl_call *c, const struct tval *in, const struct tval *args, struct tval *out)
{
	int64_t def = 0;
	if (given(&args[0]) && need_int(c, &args[0], "default", &def))
		return -1;
	*out = tv_int(def);
	if (in->kind == TV_INT)
		*out = *in;
	else if (in->kind == TV_FLOAT && in->u.f > -9.2e18 && in->u.f < 9.2e18)
		*out = tv_int((int64_t)in->u.f);
	else if (in->kind == TV_BOOL)
		*out = tv_int(in->u.b);
	else if (in->kind == TV_STR) {
		struct str t = str_trim(in->u.s);
		if (t.len && decimal_text(t)) {
			char *s = arena_strndup(ARENA(c), t.p, t.len), *end;
			long long v = strtoll(s, &end, 10);
			if (*end == '\0')
				*out = tv_int(v);
			else {
				double d = strtod(s, &end);
				if (*end == '\0' && d > -9.2e18 && d < 9.2e18)
					*out = tv_int((int64_t)d);
			}
		}
	}
	return 0;
}

static int f_float(struct tmpl_call *c, const struct tval *in, const struct tval *args, struct tval *out)
{
	double def = 0;
	if (given(&args[0])) {
		if (!tval_is_number(&args[0])) {
			tmpl_call_error(c, "default must be a number");
			return -1;
		}
		def = tval_as_double(&args[0]);
	}
	*out = tv_float(def);
	if (tval_is_number(in))
		*out = tv_float(tval_as_double(in));
	else if (in->kind == TV_BOOL)
		*out = tv_float(in->u.b);
	else if (in->kind == TV_STR) {
		struct str t = str_trim(in->u.s);
		if (t.len && decimal_text(t)) {
			char *s = arena_strndup(ARENA(c), t.p, t.len), *end;
			double d = strtod(s, &end);
			if (*end == '\0')
				*out = tv_float(d);
		}
	}
	return 0;
}

static int f_round(struct tmpl_call *c, const struct tval *in, const struct tval *args, struct tval *out)
{
	int64_t prec = 0;
	if (!tval_is_number(in)) {
		tmpl_call_error(c, "needs a number, not %s", tval_type_name(in));
		return -1;
	}
	if (given(&args[0]) && need_int(c, &args[0], "precision", &prec))
		return -1;
	struct str method = STR_LIT("common");
	if (given(&args[1]) && need_str(c, &args[1], "method", &method))
		return -1;
	if (prec < 0 || prec > 15) {
		tmpl_call_error(c, "precision must be 0 to 15");
		return -1;
	}
	double x = tval_as_double(in), m = pow(10, (double)prec);
	double y;
	if (str_eq_cstr(method, "common"))
		y = round(x * m) / m;
	else if (str_eq_cstr(method, "floor"))
		y = floor(x * m) / m;
	else if (str_eq_cstr(method, "ceil"))
		y = ceil(x * m) / m;
	else {
		tmpl_call_error(c, "method must be \"common\", \"floor\" or \"ceil\"");
		return -1;
	}
	*out = tv_float(y);
	return 0;
}

/* ---- data ---- */

static int f_json(struct tmpl_call *c, const struct tval *in, const struct tval *args, struct tval *out)
{
	(void)args;
	struct buf b;
	buf_init(&b);
	if (tval_to_json(&b, in, ARENA(c), 1, tmpl_call_max_output(c))) {
		buf_fini(&b);
		tmpl_call_error(c, "the JSON is longer than %zu bytes (does it hold one list many times over?)",
				tmpl_call_max_output(c));
		return -1;
	}
	*out = tv_safe(keep(c, &b));
	return 0;
}

/* ---- dates ---- */

struct datetime {
	int64_t year;
	int month, day, hour, min, sec;
	int has_time;
	int has_offset;
	int offset_min; /* east of UTC */
};

static int digits(const char *p, size_t n, size_t at, int count, int *out)
{
	if (at + (size_t)count > n)
		return 0;
	int v = 0;
	for (int i = 0; i < count; i++) {
		char ch = p[at + (size_t)i];
		if (ch < '0' || ch > '9')
			return 0;
		v = v * 10 + (ch - '0');
	}
	*out = v;
	return 1;
}

static int days_in_month(int64_t y, int m)
{
	static const int d[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
	if (m == 2 && ((y % 4 == 0 && y % 100 != 0) || y % 400 == 0))
		return 29;
	return d[m - 1];
}

/* parse_date: YYYY-MM-DD, optionally followed by [T ]HH:MM[:SS[.frac]] and
 * Z or ±HH:MM. */
static int parse_date(struct str s, struct datetime *dt)
{
	memset(dt, 0, sizeof *dt);
	int y;
	size_t n = s.len;
	const char *p = s.p;
	if (!digits(p, n, 0, 4, &y) || n < 10 || p[4] != '-' || p[7] != '-' || !digits(p, n, 5, 2, &dt->month) ||
	    !digits(p, n, 8, 2, &dt->day))
		return 0;
	dt->year = y;
	if (dt->month < 1 || dt->month > 12 || dt->day < 1 || dt->day > days_in_month(y, dt->month))
		return 0;
	size_t i = 10;
	if (i == n)
		return 1;
	if (p[i] != 'T' && p[i] != 't' && p[i] != ' ')
		return 0;
	i++;
	if (!digits(p, n, i, 2, &dt->hour) || i + 2 >= n || p[i + 2] != ':' || !digits(p, n, i + 3, 2, &dt->min))
		return 0;
	i += 5;
	if (i < n && p[i] == ':') {
		if (!digits(p, n, i + 1, 2, &dt->sec))
			return 0;
		i += 3;
		if (i < n && p[i] == '.') {
			i++;
			while (i < n && p[i] >= '0' && p[i] <= '9')
				i++;
		}
	}
	if (dt->hour > 23 || dt->min > 59 || dt->sec > 60)
		return 0;
	dt->has_time = 1;
	if (i == n)
		return 1;
	if (p[i] == 'Z' || p[i] == 'z') {
		dt->has_offset = 1;
		return i + 1 == n;
	}
	if (p[i] == '+' || p[i] == '-') {
		int oh, om;
		if (!digits(p, n, i + 1, 2, &oh) || i + 3 >= n || p[i + 3] != ':' || !digits(p, n, i + 4, 2, &om) ||
		    i + 6 != n || oh > 23 || om > 59)
			return 0;
		dt->has_offset = 1;
		dt->offset_min = (oh * 60 + om) * (p[i] == '-' ? -1 : 1);
		return 1;
	}
	return 0;
}


static void civil_from_days(int64_t z, struct datetime *dt)
{
	z += 719468;
	int64_t era = (z >= 0 ? z : z - 146096) / 146097;
	int64_t doe = z - era * 146097;
	int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	int64_t y = yoe + era * 400;
	int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	int64_t mp = (5 * doy + 2) / 153;
	dt->day = (int)(doy - (153 * mp + 2) / 5 + 1);
	dt->month = (int)(mp < 10 ? mp + 3 : mp - 9);
	dt->year = y + (dt->month <= 2);
}

static const char *const month_names[] = {"January", "February", "March", "April", "May", "June", "July",
	"August", "September", "October", "November", "December"};
static const char *const day_names[] = {"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday",
	"Saturday"};

/* put_num: v in decimal, zero-padded to width unless nopad (%-d). */
static void put_num(struct buf *b, long long v, int width, int nopad)
{
	buf_put_int(b, v, nopad ? 1 : width);
}

/* name: the locale's name (loc NULL, or a name it leaves NULL: the English
 * one; its first three letters for a short one). */
static void put_name(struct buf *b, const char *const *names, const char *const *english, int i, int shrt)
{
	if (names && names[i])
		buf_puts(b, names[i]);
	else if (shrt)
		buf_append(b, english[i], strnlen(english[i], 3));
	else
		buf_puts(b, english[i]);
}

/* put_three: x, y and z with sep between them, x of width wx at least,
 * y and z of two digits (2024-03-05, 09:30:00) */
static void put_three(struct buf *b, long long x, int wx, char sep, int y, int z)
{
	put_num(b, x, wx, 0);
	buf_putc(b, sep);
	put_num(b, y, 2, 0);
	buf_putc(b, sep);
	put_num(b, z, 2, 0);
}

/* put_offset: an offset from UTC as +0100, or +01:00 with colon */
static void put_offset(struct buf *b, int offset_min, int colon)
{
	int o = offset_min < 0 ? -offset_min : offset_min;
	buf_putc(b, offset_min < 0 ? '-' : '+');
	put_num(b, o / 60, 2, 0);
	if (colon)
		buf_putc(b, ':');
	put_num(b, o % 60, 2, 0);
}

/* format_date: dt as fmt says, strftime's conversions; names of months
 * and days from loc (NULL: English). */
static void format_date(struct buf *b, const struct datetime *dt, struct str fmt, const struct tmpl_locale *loc)
{
	int64_t days = days_from_civil(dt->year, dt->month, dt->day);
	int wday = (int)(((days % 7) + 11) % 7); /* 1970-01-01 was a Thursday */
	int yday = (int)(days - days_from_civil(dt->year, 1, 1)) + 1;
	for (size_t i = 0; i < fmt.len; i++) {
		char ch = fmt.p[i];
		if (ch != '%' || i + 1 >= fmt.len) {
			buf_putc(b, ch);
			continue;
		}
		ch = fmt.p[++i];
		int nopad = 0;
		if (ch == '-' && i + 1 < fmt.len) {
			nopad = 1;
			ch = fmt.p[++i];
		}
		switch (ch) {
		case 'Y': put_num(b, dt->year, 4, 0); break;
		case 'y': put_num(b, dt->year % 100, 2, 0); break;
		case 'm': put_num(b, dt->month, 2, nopad); break;
		case 'd': put_num(b, dt->day, 2, nopad); break;
		case 'e':
			if (!nopad && dt->day >= 0 && dt->day < 10)
				buf_putc(b, ' ');
			put_num(b, dt->day, 1, 1);
			break;
		case 'H': put_num(b, dt->hour, 2, nopad); break;
		case 'I': put_num(b, dt->hour % 12 ? dt->hour % 12 : 12, 2, nopad); break;
		case 'M': put_num(b, dt->min, 2, nopad); break;
		case 'S': put_num(b, dt->sec, 2, nopad); break;
		case 'p': buf_puts(b, dt->hour < 12 ? "AM" : "PM"); break;
		case 'B': put_name(b, loc ? loc->months : NULL, month_names, dt->month - 1, 0); break;
		case 'b': put_name(b, loc ? loc->months_short : NULL, month_names, dt->month - 1, 1); break;
		case 'A': put_name(b, loc ? loc->days : NULL, day_names, wday, 0); break;
		case 'a': put_name(b, loc ? loc->days_short : NULL, day_names, wday, 1); break;
		case 'j': put_num(b, yday, 3, nopad); break;
		case 'F': put_three(b, dt->year, 4, '-', dt->month, dt->day); break;
		case 'T': put_three(b, dt->hour, 2, ':', dt->min, dt->sec); break;
		case 'z': put_offset(b, dt->offset_min, 0); break;
		case ':': /* %:z, +01:00 */
			if (i + 1 < fmt.len && fmt.p[i + 1] == 'z') {
				i++;
				put_offset(b, dt->offset_min, 1);
			} else {
				buf_puts(b, "%:");
			}
			break;
		case 's': {
			int64_t t = days * 86400 + dt->hour * 3600 + dt->min * 60 + dt->sec - dt->offset_min * 60;
			put_num(b, t, 1, 1);
			break;
		}
		case '%': buf_putc(b, '%'); break;
		default:
			buf_putc(b, '%');
			if (nopad)
				buf_putc(b, '-');
			buf_putc(b, ch);
		}
	}
}

/* date(format="%Y-%m-%d"): formats a date string (YYYY-MM-DD, with an
 * optional time and offset) or a Unix time. Names of months and days in
 * the set's language (tmpl_env_set_locale), never the C library's locale.
 * "rfc3339" and "rfc822" name the feed formats (rfc822: English names, as
 * the RFC says). */
static int f_date(struct tmpl_call *c, const struct tval *in, const struct tval *args, struct tval *out)
{
	struct datetime dt;
	struct str fmt = STR_LIT("%Y-%m-%d");
	if (given(&args[0]) && need_str(c, &args[0], "format", &fmt))
		return -1;
	if (in->kind == TV_INT) {
		int64_t t = in->u.i;
		int64_t days = t >= 0 ? t / 86400 : -((-t + 86399) / 86400);
		int64_t secs = t - days * 86400;
		memset(&dt, 0, sizeof dt);
		civil_from_days(days, &dt);
		dt.hour = (int)(secs / 3600);
		dt.min = (int)(secs / 60 % 60);
		dt.sec = (int)(secs % 60);
		dt.has_time = dt.has_offset = 1;
	} else if (in->kind == TV_STR) {
		if (!parse_date(in->u.s, &dt)) {
			tmpl_call_error(c, "cannot read '%.*s' as a date (expected YYYY-MM-DD, optionally with a time "
					   "HH:MM[:SS] and an offset)",
					(int)(in->u.s.len > 60 ? 60 : in->u.s.len), in->u.s.p);
			return -1;
		}
	} else {
		tmpl_call_error(c, "needs a date string or a Unix time, not %s", tval_type_name(in));
		return -1;
	}
	if (str_eq_cstr(fmt, "rfc3339"))
		fmt = dt.offset_min ? STR_LIT("%Y-%m-%dT%H:%M:%S%:z") : STR_LIT("%Y-%m-%dT%H:%M:%SZ");
	const struct tmpl_env *env = tmpl_call_env(c);
	const struct tmpl_locale *loc = &env->locale;
	if (str_eq_cstr(fmt, "rfc822")) {
		fmt = STR_LIT("%a, %d %b %Y %H:%M:%S %z");
		loc = NULL;
	} else if (env->locale_dep) {
		tmpl_deps_touch(env->locale_dep);
	}
	struct buf b;
	buf_init(&b);
	format_date(&b, &dt, fmt, loc);
	*out = tv_str(keep(c, &b));
	return 0;
}

/* ---- messages ---- */

static void put_char(struct buf *b, char ch, int html)
{
	if (html)
		buf_put_html(b, &ch, 1);
	else
		buf_putc(b, ch);
}

/* plural_one: whether count n takes the `one` form in the set's language. */
static int plural_one(const struct tmpl_env *env, int64_t n)
{
	switch (env->locale.plural) {
	case TMPL_PLURAL_ZERO_ONE: return n == 0 || n == 1;
	case TMPL_PLURAL_NONE: return 0;
	default: return n == 1;
	}
}

/* fill(values?): a message with its {name} placeholders replaced by the
 * values of the map `values` (a number instead of a map: {n}). A message
 * is a string, or a map of forms `one` and `other` (and optionally `zero`)
 * chosen by the value n as the language counts (tmpl_env_set_locale); a
 * language without `one` forms gives only `other`. {{ and }} write braces.
 * The result is text, or HTML when a value is HTML (safe): then the
 * message and the other values are escaped. */
static int f_fill(struct tmpl_call *c, const struct tval *in, const struct tval *args, struct tval *out)
{
	const struct tmap *vals = NULL;
	struct tval nval = tv_undef();
	if (given(&args[0])) {
		if (args[0].kind == TV_MAP)
			vals = args[0].u.map;
		else if (args[0].kind == TV_INT || args[0].kind == TV_FLOAT)
			nval = args[0];
		else {
			tmpl_call_error(c, "values must be a map or a number, not %s", tval_type_name(&args[0]));
			return -1;
		}
	}
	if (vals) {
		const struct tval *v = tmap_get(vals, STR_LIT("n"));
		if (v)
			nval = *v;
	}
	const struct tval *msg = in;
	if (in->kind == TV_MAP) {
		if (nval.kind != TV_INT) {
			tmpl_call_error(c, "a message with plural forms needs an integer n (fill(n) or fill({\"n\": ...}))");
			return -1;
		}
		const struct tmpl_env *env = tmpl_call_env(c);
		if (env->locale_dep)
			tmpl_deps_touch(env->locale_dep);
		const struct tval *form = NULL;
		if (nval.u.i == 0)
			form = tmap_get(in->u.map, STR_LIT("zero"));
		if (!form && plural_one(env, nval.u.i))
			form = tmap_get(in->u.map, STR_LIT("one"));
		if (!form)
			form = tmap_get(in->u.map, STR_LIT("other"));
		if (!form) {
			tmpl_call_error(c, "a message with plural forms needs an 'other' form");
			return -1;
		}
		msg = form;
	}
	struct str s;
	if (need_str(c, msg, "the message", &s))
		return -1;
	/* a safe value (HTML, such as a link made with {% set %}) makes the
	 * result HTML: the message's text and the other values are escaped */
	int html = 0;
	for (size_t k = 0; vals && k < vals->len; k++)
		html |= vals->vals[k].kind == TV_STR && vals->vals[k].safe;
	struct buf b;
	buf_init(&b);
	for (size_t i = 0; i < s.len; i++) {
		char ch = s.p[i];
		if ((ch == '{' || ch == '}') && i + 1 < s.len && s.p[i + 1] == ch) {
			buf_putc(&b, ch);
			i++;
			continue;
		}
		const char *end = ch == '{' ? memchr(s.p + i + 1, '}', s.len - i - 1) : NULL;
		if (!end) {
			put_char(&b, ch, html);
			continue;
		}
		struct str name = {s.p + i + 1, (size_t)(end - s.p - i - 1)};
		int word = name.len > 0;
		for (size_t k = 0; k < name.len && word; k++)
			word = name.p[k] == '_' || (name.p[k] >= 'a' && name.p[k] <= 'z') ||
			       (name.p[k] >= 'A' && name.p[k] <= 'Z') || (name.p[k] >= '0' && name.p[k] <= '9');
		if (!word) { /* not a placeholder: "{ }" is text */
			put_char(&b, ch, html);
			continue;
		}
		const struct tval *v = vals ? tmap_get(vals, name) : NULL;
		if (!v && str_eq_cstr(name, "n") && nval.kind != TV_UNDEF)
			v = &nval;
		if (!v) {
			tmpl_call_error(c, "no value for {%.*s} in the message '%.*s'", (int)(name.len > 40 ? 40 : name.len),
					name.p, (int)(s.len > 60 ? 60 : s.len), s.p);
			buf_fini(&b);
			return -1;
		}
		struct str text;
		(void)tval_text(v, ARENA(c), tmpl_call_max_output(c), &text);
		if (html && !(v->kind == TV_STR && v->safe))
			buf_put_html(&b, text.p, text.len);
		else
			buf_append(&b, text.p, text.len);
		i = (size_t)(end - s.p);
	}
	*out = html ? tv_safe(keep(c, &b)) : tv_str(keep(c, &b));
	return 0;
}

void filter_parse_params(struct filter_def *def, const char *spec)
{
	def->nparams = def->nrequired = 0;
	const char *p = spec;
	while (p && *p && def->nparams < FILTER_MAX_PARAMS) {
		const char *comma = strchr(p, ',');
		size_t n = comma ? (size_t)(comma - p) : strlen(p);
		int optional = n && p[n - 1] == '?';
		char *name = (char *)p;
		if (optional)
			n--;
		def->params[def->nparams] = name;
		/* terminate in place: spec was copied by the caller */
		name[n] = '\0';
		if (!optional && def->nrequired == def->nparams)
			def->nrequired++;
		def->nparams++;
		p = comma ? comma + 1 : NULL;
	}
}


/* Each entry: name, function, parameter names, how many, how many are
 * required, whether an undefined input is passed in (default), the
 * variant of a function that serves several filters, and whether the
 * input is taken as a string (str_in); none is the host's. */
const struct filter_def tmpl_builtin_filters[] = {
	{"abs", f_abs, {NULL}, 0, 0, 0, 0, 0, 0},
	{"abs_url", f_site_url, {NULL}, 0, 0, 0, 1, 1, 0},
	{"capitalize", f_case_map, {NULL}, 0, 0, 0, CASE_CAPITALIZE, 1, 0},
	{"count", f_length, {NULL}, 0, 0, 0, 0, 0, 0},
	{"date", f_date, {"format"}, 1, 0, 0, 0, 0, 0},
	{"default", f_default, {"value", "boolean"}, 2, 0, 1, 0, 0, 0},
	{"e", f_escape, {NULL}, 0, 0, 0, 0, 0, 0},
	{"escape", f_escape, {NULL}, 0, 0, 0, 0, 0, 0},
	{"fill", f_fill, {"values"}, 1, 0, 0, 0, 0, 0},
	{"first", f_first_last, {NULL}, 0, 0, 0, 0, 0, 0},
	{"forceescape", f_forceescape, {NULL}, 0, 0, 0, 0, 0, 0},
	{"float", f_float, {"default"}, 1, 0, 0, 0, 0, 0},
	{"group_by", f_group_by, {"attribute"}, 1, 1, 0, 0, 0, 0},
	{"int", f_int, {"default"}, 1, 0, 0, 0, 0, 0},
	{"items", f_items, {NULL}, 0, 0, 0, 0, 0, 0},
	{"join", f_join, {"separator", "attribute"}, 2, 0, 0, 0, 0, 0},
	{"json", f_json, {NULL}, 0, 0, 0, 0, 0, 0},
	{"last", f_first_last, {NULL}, 0, 0, 0, 1, 0, 0},
	{"length", f_length, {NULL}, 0, 0, 0, 0, 0, 0},
	{"lower", f_case_map, {NULL}, 0, 0, 0, CASE_LOWER, 1, 0},
	{"map", f_where_map, {"attribute", "default"}, 2, 1, 0, 1, 0, 0},
	{"rel_url", f_site_url, {NULL}, 0, 0, 0, 0, 1, 0},
	{"replace", f_replace, {"old", "new", "count"}, 3, 2, 0, 0, 1, 0},
	{"reverse", f_reverse, {NULL}, 0, 0, 0, 0, 0, 0},
	{"round", f_round, {"precision", "method"}, 2, 0, 0, 0, 0, 0},
	{"safe", f_safe, {NULL}, 0, 0, 0, 0, 0, 0},
	{"slice", f_slice, {"start", "end"}, 2, 1, 0, 0, 0, 0},
	{"sort", f_sort, {"attribute", "reverse", "case_sensitive"}, 3, 0, 0, 0, 0, 0},
	{"string", f_string, {NULL}, 0, 0, 0, 0, 0, 0},
	{"striptags", f_striptags, {NULL}, 0, 0, 0, 0, 1, 0},
	{"sum", f_sum, {"attribute"}, 1, 0, 0, 0, 0, 0},
	{"title", f_case_map, {NULL}, 0, 0, 0, CASE_TITLE, 1, 0},
	{"trim", f_trim, {NULL}, 0, 0, 0, 0, 1, 0},
	{"truncate", f_truncate, {"length", "end"}, 2, 0, 0, 0, 1, 0},
	{"unique", f_unique, {NULL}, 0, 0, 0, 0, 0, 0},
	{"upper", f_case_map, {NULL}, 0, 0, 0, CASE_UPPER, 1, 0},
	{"urlencode", f_urlencode, {NULL}, 0, 0, 0, 0, 0, 0},
	{"where", f_where_map, {"attribute", "value"}, 2, 1, 0, 0, 0, 0},
	{"wordcount", f_wordcount, {NULL}, 0, 0, 0, 0, 1, 0},
	{NULL, NULL, {NULL}, 0, 0, 0, 0, 0, 0},
};
