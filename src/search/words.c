/* words.c: the words of text and of a body's HTML, normalised for the
 * search index (NFKC and case folding by utf8proc; ASCII on a quick path
 * that gives the same result). */
#include "search.h"

#include "words.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <utf8proc.h>
/* SSE2 on x86-64 (a word's halves are read from the register) */
#if defined(__SSE2__) && defined(__x86_64__)
#define WORDS_SSE2 1
#include <emmintrin.h>
#endif

/* is_cjk: scripts written without spaces (Han, kana, Hangul syllables
 * are not among them), where each character is a word of its own. */
static int is_cjk(int32_t c)
{
	return (c >= 0x3040 && c <= 0x30ff) || (c >= 0x3400 && c <= 0x4dbf) || (c >= 0x4e00 && c <= 0x9fff) ||
	       (c >= 0xf900 && c <= 0xfaff) || (c >= 0x20000 && c <= 0x2ffff);
}

static int is_word_cp(int32_t c)
{
	switch (utf8proc_category(c)) {
	case UTF8PROC_CATEGORY_LU:
	case UTF8PROC_CATEGORY_LL:
	case UTF8PROC_CATEGORY_LT:
	case UTF8PROC_CATEGORY_LM:
	case UTF8PROC_CATEGORY_LO:
	case UTF8PROC_CATEGORY_MN:
	case UTF8PROC_CATEGORY_MC:
	case UTF8PROC_CATEGORY_ME:
	case UTF8PROC_CATEGORY_ND:
	case UTF8PROC_CATEGORY_NL:
	case UTF8PROC_CATEGORY_NO:
		return 1;
	default:
		return 0;
	}
}

/* The ASCII bytes' classes: a letter or digit (a word's), '<' and '&'
 * (where the text of HTML stops), or another separator. */
enum { C_SEP = 0, C_WORD = 1, C_MARKUP = 2 };
static const unsigned char ascii_class[128] = {
	['0'] = 1, ['1'] = 1, ['2'] = 1, ['3'] = 1, ['4'] = 1, ['5'] = 1, ['6'] = 1, ['7'] = 1, ['8'] = 1, ['9'] = 1,
	['A'] = 1, ['B'] = 1, ['C'] = 1, ['D'] = 1, ['E'] = 1, ['F'] = 1, ['G'] = 1, ['H'] = 1, ['I'] = 1, ['J'] = 1,
	['K'] = 1, ['L'] = 1, ['M'] = 1, ['N'] = 1, ['O'] = 1, ['P'] = 1, ['Q'] = 1, ['R'] = 1, ['S'] = 1, ['T'] = 1,
	['U'] = 1, ['V'] = 1, ['W'] = 1, ['X'] = 1, ['Y'] = 1, ['Z'] = 1, ['a'] = 1, ['b'] = 1, ['c'] = 1, ['d'] = 1,
	['e'] = 1, ['f'] = 1, ['g'] = 1, ['h'] = 1, ['i'] = 1, ['j'] = 1, ['k'] = 1, ['l'] = 1, ['m'] = 1, ['n'] = 1,
	['o'] = 1, ['p'] = 1, ['q'] = 1, ['r'] = 1, ['s'] = 1, ['t'] = 1, ['u'] = 1, ['v'] = 1, ['w'] = 1, ['x'] = 1,
	['y'] = 1, ['z'] = 1, ['<'] = C_MARKUP, ['&'] = C_MARKUP,
};

#ifdef WORDS_SSE2
/* word_mask + 16 - n: n bytes of ones, then zeros (n at most 16) */
static const unsigned char word_mask[32] __attribute__((aligned(16))) = {
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
};
#endif

static int ascii_word(unsigned char c)
{
	return c < 0x80 && ascii_class[c] == C_WORD;
}

/* emit: w[0..n) normalised, to fn (a word of other characters than ASCII
 * letters and digits), each word copied with the zeros after it that fn
 * may read. */
static void emit(const char *w, size_t n, enum search_field f, search_hword_fn fn, void *ctx)
{
	char pad[SEARCH_WORD_MAX + 8] __attribute__((aligned(8)));
	if (n > 4 * SEARCH_WORD_MAX)
		return;
	utf8proc_uint8_t *out = NULL;
	utf8proc_ssize_t m = utf8proc_map((const utf8proc_uint8_t *)w, (utf8proc_ssize_t)n, &out,
					  UTF8PROC_STABLE | UTF8PROC_COMPAT | UTF8PROC_COMPOSE | UTF8PROC_CASEFOLD);
	/* NFKC may make what is no letter ("\u2460" is "(1)"): the word is
	 * split again where it does */
	utf8proc_ssize_t i = 0, start = 0;
	while (m > 0 && i <= m) {
		int32_t c = 0;
		utf8proc_ssize_t k = i < m ? utf8proc_iterate(out + i, m - i, &c) : 0;
		if (i == m || k <= 0 || !is_word_cp(c)) {
			if (i > start && (size_t)(i - start) <= SEARCH_WORD_MAX) {
				size_t wn = (size_t)(i - start);
				memcpy(pad, out + start, wn);
				memset(pad + wn, 0, 8);
				fn(ctx, pad, wn, search_word_hash_padded(pad, wn), f);
			}
			i += k > 0 ? k : 1;
			start = i;
		} else {
			i += k;
		}
	}
	free(out);
}

/* words: search_words of s[i..len); with markup, up to the first '<' or
 * '&' outside a word (either ends one), whose position it returns (len
 * when none). A run of ASCII letters and digits, the most of every text,
 * is lower-cased and hashed here, in one pass, into a buffer of its own. */
static size_t words(const unsigned char *s, size_t i, size_t len, int markup, enum search_field f,
		    search_hword_fn fn, void *ctx)
{
	/* the word and 8 bytes of zeros after it, for the hash's loads */
	char low[SEARCH_WORD_MAX + 8] __attribute__((aligned(8)));
	while (i < len) {
		/* the separators before a word: one ASCII byte at a time */
		unsigned char c = s[i];
		if (c < 0x80 && ascii_class[c] != C_WORD) {
			if (ascii_class[c] == C_MARKUP && markup)
				return i;
			i++;
			continue;
		}
		/* the quick path: a run of ASCII letters and digits */
		size_t start = i;
#ifdef WORDS_SSE2
		/* 16 bytes at once: most words end within them */
		if (len - i >= 16) {
			__m128i v = _mm_loadu_si128((const __m128i *)(s + i));
			__m128i x = _mm_or_si128(v, _mm_set1_epi8(0x20));
			/* x - 'a' < 26 and v - '0' < 10, as signed bytes from -128 */
			__m128i let = _mm_cmplt_epi8(_mm_add_epi8(x, _mm_set1_epi8(0x80 - 'a')), _mm_set1_epi8(-128 + 26));
			__m128i dig = _mm_cmplt_epi8(_mm_add_epi8(v, _mm_set1_epi8(0x80 - '0')), _mm_set1_epi8(-128 + 10));
			unsigned end = ~(unsigned)_mm_movemask_epi8(_mm_or_si128(let, dig)) & 0xffffu;
			if (end) {
				size_t n = (size_t)__builtin_ctz(end);
				i += n;
				if (s[i] < 0x80) {
					/* the word whole, its zeros after it, in one store;
					 * its hash from the register (a load of bytes just
					 * stored by two stores would wait for both) */
					x = _mm_and_si128(x, _mm_loadu_si128((const __m128i *)(const void *)(word_mask + 16 - n)));
					_mm_storeu_si128((__m128i *)(void *)low, x);
					uint64_t v0 = (uint64_t)_mm_cvtsi128_si64(x);
					uint64_t v1 = (uint64_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(x, x));
					fn(ctx, low, n, search_word_hash_2(v0, v1, n), f);
					goto separator;
				}
				/* (followed by other characters: below) */
			} else {
				i += 16;
			}
		}
#endif
		while (i < len && s[i] < 0x80 && ascii_class[s[i]] == C_WORD)
			i++;
		if (i < len && s[i] >= 0x80) {
			/* a word with other characters: decoded one at a time */
			int any = i > start;
			while (i < len) {
				if (s[i] < 0x80) {
					if (!ascii_word(s[i]))
						break;
					i++;
					continue;
				}
				int32_t cp;
				utf8proc_ssize_t k = utf8proc_iterate(s + i, (utf8proc_ssize_t)(len - i), &cp);
				if (k <= 0 || !is_word_cp(cp))
					break;
				if (is_cjk(cp)) {
					if (any)
						emit((const char *)s + start, i - start, f, fn, ctx);
					emit((const char *)s + i, (size_t)k, f, fn, ctx);
					i += (size_t)k;
					start = i;
					any = 0;
					continue;
				}
				any = 1;
				i += (size_t)k;
			}
			if (i > start)
				emit((const char *)s + start, i - start, f, fn, ctx);
		} else {
			size_t n = i - start;
			if (n <= SEARCH_WORD_MAX) {
				/* letters and digits: | 0x20 lower-cases a letter and
				 * leaves a digit as it is */
				for (size_t k = 0; k < n; k++)
					low[k] = (char)(s[start + k] | 0x20);
				memset(low + n, 0, 8);
				fn(ctx, low, n, search_word_hash_padded(low, n), f);
			}
		}
		/* the separator: one byte, or one whole character */
#ifdef WORDS_SSE2
	separator:
#endif
		if (i < len && i == start) {
			if (s[i] < 0x80) {
				if (ascii_class[s[i]] == C_MARKUP && markup)
					return i;
				i++;
			} else {
				int32_t cp;
				utf8proc_ssize_t k = utf8proc_iterate(s + i, (utf8proc_ssize_t)(len - i), &cp);
				i += k > 0 ? (size_t)k : 1;
			}
		}
	}
	return len;
}

void search_words_h(const char *text, size_t len, enum search_field f, search_hword_fn fn, void *ctx)
{
	words((const unsigned char *)text, 0, len, 0, f, fn, ctx);
}

/* The plain callback behind a hashing one. */
struct plain {
	search_word_fn fn;
	void *ctx;
};

static void plain_word(void *ctx, const char *w, size_t n, uint64_t h, enum search_field f)
{
	(void)h;
	const struct plain *p = ctx;
	p->fn(p->ctx, w, n, f);
}

void search_words(const char *text, size_t len, enum search_field f, search_word_fn fn, void *ctx)
{
	struct plain p = {fn, ctx};
	search_words_h(text, len, f, plain_word, &p);
}

/* ---- HTML ---- */

static int lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c + 32 : c;
}

/* name_is: whether the tag name at p (n bytes left) is name, followed by
 * the end of the name. */
static int name_is(const char *p, size_t n, const char *name)
{
	size_t k = strlen(name);
	if (n < k)
		return 0;
	for (size_t i = 0; i < k; i++)
		if (lower((unsigned char)p[i]) != name[i])
			return 0;
	if (n == k)
		return 1;
	char c = p[k];
	return c == '>' || c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '/';
}

/* find_ci: the first place of needle (lower case) in s[0..n) ignoring
 * ASCII case, or n. */
static size_t find_ci(const char *s, size_t n, const char *needle)
{
	size_t k = strlen(needle);
	for (size_t i = 0; i + k <= n; i++) {
		size_t j = 0;
		while (j < k && lower((unsigned char)s[i + j]) == needle[j])
			j++;
		if (j == k)
			return i;
	}
	return n;
}

/* tag_end: the position after the '>' that ends the tag starting at i
 * (quoted attribute values may hold '>'), or n. */
static size_t tag_end(const char *s, size_t n, size_t i)
{
	char q = 0;
	for (; i < n; i++) {
		if (q) {
			if (s[i] == q)
				q = 0;
		} else if (s[i] == '"' || s[i] == '\'') {
			q = s[i];
		} else if (s[i] == '>') {
			return i + 1;
		}
	}
	return n;
}

/* math_span: whether the tag s[0..n) (from '<' to '>') is a <span> whose
 * class begins with "math" (md_render's math spans) or "sidenote" (a
 * footnote's second copy, md/sidenote.c: its words are the footnote's,
 * indexed once, at the end). */
static int math_span(const char *s, size_t n)
{
	if (!name_is(s + 1, n - 1, "span"))
		return 0;
	size_t c = find_ci(s, n, "class=");
	if (c == n)
		return 0;
	c += 6;
	if (c < n && (s[c] == '"' || s[c] == '\''))
		c++;
	return (n - c >= 4 && !memcmp(s + c, "math", 4)) || (n - c >= 8 && !memcmp(s + c, "sidenote", 8));
}

/* skip_span: the position after the </span> that closes the span whose
 * opening tag ends at i, counting the spans inside, or n. */
static size_t skip_span(const char *s, size_t n, size_t i)
{
	int depth = 1;
	while (i < n) {
		const char *lt = memchr(s + i, '<', n - i);
		if (!lt)
			return n;
		i = (size_t)(lt - s);
		size_t e = tag_end(s, n, i);
		if (name_is(s + i + 1, n - i - 1, "span"))
			depth++;
		else if (i + 1 < n && s[i + 1] == '/' && name_is(s + i + 2, n - i - 2, "span") && --depth == 0)
			return e;
		i = e;
	}
	return n;
}

void search_html_words_h(const char *html, size_t len, search_hword_fn fn, void *ctx)
{
	static const char *const skipped[] = {"pre", "script", "style", "svg", "math", "textarea", NULL};
	enum search_field f = SEARCH_BODY;
	size_t i = 0;
	while (i < len) {
		/* the text up to the next tag or entity, its words on the way */
		size_t j = words((const unsigned char *)html, i, len, 1, f, fn, ctx);
		if (j >= len)
			break;
		if (html[j] == '&') {
			/* an entity separates words (md_render writes UTF-8 and
			 * escapes only & < > ") */
			size_t k = j + 1;
			while (k < len && k - j < 12 && html[k] != ';' && html[k] != '<' && html[k] != '&')
				k++;
			i = k < len && html[k] == ';' ? k + 1 : j + 1;
			continue;
		}
		if (len - j >= 4 && !memcmp(html + j, "<!--", 4)) {
			size_t e = find_ci(html + j + 4, len - j - 4, "-->");
			i = j + 4 + e + (j + 4 + e < len ? 3 : 0);
			continue;
		}
		size_t e = tag_end(html, len, j);
		const char *t = html + j + 1;
		size_t tn = e - j - 1;
		int closing = tn && t[0] == '/';
		if (closing) {
			t++;
			tn--;
		}
		i = e;
		/* the names looked for below begin with h, m, p, s or t: any
		 * other tag (a, em, code, li ...) is passed over at once */
		int c0 = tn ? lower((unsigned char)t[0]) : 0;
		if (c0 != 'h' && c0 != 'm' && c0 != 'p' && c0 != 's' && c0 != 't')
			continue;
		if (tn >= 2 && c0 == 'h' && t[1] >= '1' && t[1] <= '6' && (tn == 2 || t[2] == '>' || t[2] == ' ')) {
			f = closing ? SEARCH_BODY : SEARCH_HEADING;
			continue;
		}
		if (closing)
			continue;
		if (c0 == 's' && math_span(html + j, e - j)) {
			i = skip_span(html, len, e);
			continue;
		}
		for (const char *const *k = skipped; *k; k++) {
			if ((*k)[0] == c0 && name_is(t, tn, *k)) {
				if (e - j >= 2 && html[e - 2] == '/')
					break; /* <svg ... /> */
				char close[16];
				snprintf(close, sizeof close, "</%s", *k);
				size_t at = find_ci(html + e, len - e, close);
				i = e + at < len ? tag_end(html, len, e + at) : len;
				break;
			}
		}
	}
}

void search_html_words(const char *html, size_t len, search_word_fn fn, void *ctx)
{
	struct plain p = {fn, ctx};
	search_html_words_h(html, len, plain_word, &p);
}
