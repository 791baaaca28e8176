/* slug.c: URL slugs. */
#include "base/slug.h"

#include <ctype.h>
#include <stdint.h>
#include <string.h>

#include <utf8proc.h>

int utf8_step(struct str s, size_t *i, int32_t *cp)
{
	if (*i >= s.len)
		return 0;
	utf8proc_int32_t c;
	utf8proc_ssize_t k = utf8proc_iterate((const utf8proc_uint8_t *)s.p + *i, (utf8proc_ssize_t)(s.len - *i), &c);
	*cp = k < 1 ? -1 : c;
	*i += k < 1 ? 1 : (size_t)k;
	return 1;
}

/* put_lower: the lower case of code point cp, in UTF-8. */
static void put_lower(struct buf *b, utf8proc_int32_t cp)
{
	utf8proc_uint8_t enc[4];
	utf8proc_ssize_t k = utf8proc_encode_char(utf8proc_tolower(cp), enc);
	buf_append(b, enc, (size_t)k);
}

struct str slugify(struct arena *a, struct str text)
{
	struct buf b;
	buf_init(&b);
	int dash = 0;
	int32_t cp;
	for (size_t i = 0; utf8_step(text, &i, &cp);) {
		/* invalid UTF-8 (cp -1) is a separator, as what is no letter or digit */
		utf8proc_category_t cat = cp < 0 ? UTF8PROC_CATEGORY_CN : utf8proc_category(cp);
		int keep = (cat >= UTF8PROC_CATEGORY_LU && cat <= UTF8PROC_CATEGORY_LO) || cat == UTF8PROC_CATEGORY_ND ||
			   cat == UTF8PROC_CATEGORY_MN || cat == UTF8PROC_CATEGORY_MC;
		if (!keep) {
			dash = 1;
			continue;
		}
		buf_sep(&b, &dash, '-');
		put_lower(&b, cp);
	}
	return buf_to_arena(&b, a);
}

size_t utf8_valid_prefix(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0;
	while (i < n) {
		unsigned c = u[i];
		if (c < 0x80) {
			i++;
			/* ASCII, eight bytes at a time */
			uint64_t w;
			while (n - i >= 8 && (memcpy(&w, u + i, 8), !(w & 0x8080808080808080ull)))
				i += 8;
			continue;
		}
		size_t k;
		unsigned lo = 0x80, hi = 0xBF; /* the range of the second byte */
		if (c >= 0xC2 && c <= 0xDF)
			k = 2;
		else if (c >= 0xE0 && c <= 0xEF) {
			k = 3;
			if (c == 0xE0)
				lo = 0xA0; /* overlong */
			else if (c == 0xED)
				hi = 0x9F; /* surrogates */
		} else if (c >= 0xF0 && c <= 0xF4) {
			k = 4;
			if (c == 0xF0)
				lo = 0x90; /* overlong */
			else if (c == 0xF4)
				hi = 0x8F; /* past U+10FFFF */
		} else
			return i;
		if (n - i < k || u[i + 1] < lo || u[i + 1] > hi)
			return i;
		for (size_t j = 2; j < k; j++)
			if ((u[i + j] & 0xC0) != 0x80)
				return i;
		i += k;
	}
	return n;
}

void utf8_show(struct buf *b, struct str s)
{
	size_t i = 0;
	while (i < s.len) {
		size_t ok = utf8_valid_prefix(s.p + i, s.len - i);
		buf_append(b, s.p + i, ok);
		i += ok;
		if (i < s.len)
			buf_printf(b, "\\x%02X", (unsigned char)s.p[i++]);
	}
}

int slug_valid(struct str s)
{
	if (!s.len || str_eq_cstr(s, ".") || str_eq_cstr(s, "..") || utf8_valid_prefix(s.p, s.len) != s.len)
		return 0;
	for (size_t i = 0; i < s.len; i++) {
		unsigned char c = (unsigned char)s.p[i];
		if (c == '/' || c == '\\' || c <= ' ' || c == 0x7f || c == '?' || c == '#' || c == '%')
			return 0;
	}
	return 1;
}

/* word_byte: c starts a letter, a digit or a non-ASCII
 * character: what a leading '.' or a '#' must be next to. */
static int word_byte(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80;
}

struct str term_slug(struct arena *a, struct str name)
{
	struct buf b;
	buf_init(&b);
	size_t i = 0;
	while (i < name.len && (name.p[i] == ' ' || name.p[i] == '\t'))
		i++;
	if (i + 1 < name.len && name.p[i] == '.' && word_byte((unsigned char)name.p[i + 1])) {
		buf_puts(&b, "dot");
		i++;
	}
	for (; i < name.len; i++) {
		char c = name.p[i];
		if (c == '+')
			buf_puts(&b, " plus ");
		else if (c == '&')
			buf_puts(&b, " and ");
		else if (c == '#' && i > 0 && word_byte((unsigned char)name.p[i - 1]))
			buf_puts(&b, " sharp ");
		else
			buf_putc(&b, c);
	}
	struct str s = slugify(a, (struct str){b.p ? b.p : "", b.len});
	buf_fini(&b);
	if (!s.len)
		s = STR_LIT("_");
	return s;
}

struct str term_key(struct arena *a, struct str name)
{
	struct buf b;
	buf_init(&b);
	int space = 0;
	for (size_t i = 0; i < name.len;) {
		unsigned char c = (unsigned char)name.p[i];
		/* a hyphen or an underscore between two letters or digits is
		 * spacing too: "deep-learning", "deep_learning" and "Deep
		 * Learning" are one name; "C--" stays itself */
		int joins = (c == '-' || c == '_') && i > 0 && i + 1 < name.len &&
			    (isalnum((unsigned char)name.p[i - 1]) || (unsigned char)name.p[i - 1] >= 0x80) &&
			    (isalnum((unsigned char)name.p[i + 1]) || (unsigned char)name.p[i + 1] >= 0x80);
		if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || joins) {
			space = 1;
			i++;
			continue;
		}
		buf_sep(&b, &space, ' ');
		int32_t cp;
		utf8_step(name, &i, &cp);
		if (cp < 0) /* invalid UTF-8: kept as it is */
			buf_putc(&b, (char)c);
		else
			put_lower(&b, cp);
	}
	return buf_to_arena(&b, a);
}
