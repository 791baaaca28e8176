/* slug.c: URL slugs. */
#include "slug.h"

#include <utf8proc.h>

struct str slugify(struct arena *a, struct str text)
{
	struct buf b;
	buf_init(&b);
	int dash = 0;
	for (size_t i = 0; i < text.len;) {
		utf8proc_int32_t cp;
		utf8proc_ssize_t n = utf8proc_iterate((const utf8proc_uint8_t *)text.p + i, (utf8proc_ssize_t)(text.len - i), &cp);
		if (n < 1) { /* invalid UTF-8: a separator */
			i++;
			dash = 1;
			continue;
		}
		i += (size_t)n;
		utf8proc_category_t cat = utf8proc_category(cp);
		int keep = (cat >= UTF8PROC_CATEGORY_LU && cat <= UTF8PROC_CATEGORY_LO) || cat == UTF8PROC_CATEGORY_ND ||
			   cat == UTF8PROC_CATEGORY_MN || cat == UTF8PROC_CATEGORY_MC;
		if (!keep) {
			dash = 1;
			continue;
		}
		if (dash && b.len)
			buf_putc(&b, '-');
		dash = 0;
		utf8proc_uint8_t enc[4];
		utf8proc_ssize_t k = utf8proc_encode_char(utf8proc_tolower(cp), enc);
		buf_append(&b, enc, (size_t)k);
	}
	struct str s = {arena_strndup(a, b.p ? b.p : "", b.len), b.len};
	buf_fini(&b);
	return s;
}

int slug_valid(struct str s)
{
	if (!s.len || str_eq_cstr(s, ".") || str_eq_cstr(s, ".."))
		return 0;
	for (size_t i = 0; i < s.len; i++) {
		unsigned char c = (unsigned char)s.p[i];
		if (c == '/' || c == '\\' || c <= ' ' || c == 0x7f || c == '?' || c == '#' || c == '%')
			return 0;
	}
	return 1;
}
