/* marks.c: one scan of a document's text for the markers that the passes
 * and the source's link hint ask about (md_marks), in place of a memchr or
 * memmem each: a table of the bytes that can open one, and a look at what
 * follows only where such a byte is. */
#include "internal.h"

#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* opens[b]: b can open a marker */
static const unsigned char opens[256] = {
	['@'] = 1, ['&'] = 1, ['{'] = 1, ['\\'] = 1, ['*'] = 1, ['_'] = 1,
	['!'] = 1, ['$'] = 1, ['.'] = 1, ['/'] = 1, ['['] = 1, [':'] = 1,
};

static int at(const char *s, size_t n, size_t i, const char *lit, size_t k)
{
	return n - i >= k && !memcmp(s + i, lit, k);
}

/* leaf_at: whether s[i] starts "::" and a letter with at most three
 * spaces before it on its line (a leaf directive's line) */
static int leaf_at(const char *s, size_t i)
{
	char c = s[i + 2];
	if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')))
		return 0;
	size_t k = i;
	while (k > 0 && s[k - 1] == ' ' && i - k < 3)
		k--;
	return k == 0 || s[k - 1] == '\n';
}

/* mark_at: the markers a byte of opens[] at s[i] opens */
static uint32_t mark_at(const char *s, size_t n, size_t i)
{
	uint32_t m = 0;
	char c = s[i], next = i + 1 < n ? s[i + 1] : 0;
	switch (c) {
	case '@':
		m |= MD_MARK_AT;
		if (next == '/')
			m |= MD_MARK_AT_SLASH;
		break;
	case '&':
		if (next == '#')
			m |= MD_MARK_AMP_HASH;
		else if (at(s, n, i, "&commat;", 8))
			m |= MD_MARK_COMMAT;
		else if (at(s, n, i, "&period", 7))
			m |= MD_MARK_PERIOD;
		break;
	case '{':
		if (next == '#')
			m |= MD_MARK_BRACE_HASH;
		break;
	case '\\':
		if (at(s, n, i, "\\label{", 7))
			m |= MD_MARK_LABEL;
		break;
	case '*':
		if (next == '*')
			m |= MD_MARK_STARS;
		break;
	case '_':
		if (next == '_')
			m |= MD_MARK_UNDERS;
		break;
	case '!':
		if (next == '[')
			m |= MD_MARK_IMAGE;
		break;
	case '$':
		m |= MD_MARK_DOLLAR;
		if (next == '$')
			m |= MD_MARK_DOLLARS;
		break;
	case '.':
		if (next == 'm' && i + 2 < n && s[i + 2] == 'd')
			m |= MD_MARK_DOT_MD;
		else if (next == '.' && i + 2 < n && s[i + 2] == '/')
			m |= MD_MARK_DOTDOT;
		break;
	case '/':
		if (next == 'p' && at(s, n, i, "/posts/", 7))
			m |= MD_MARK_POSTS;
		break;
	case '[':
		m |= MD_MARK_BRACKET;
		break;
	case ':':
		if (next == ':' && i + 2 < n && s[i + 2] == ':')
			m |= MD_MARK_FENCE;
		else if (next == ':' && i + 2 < n && leaf_at(s, i))
			m |= MD_MARK_FENCE; /* a leaf directive, "::name" */
		break;
	}
	return m;
}

uint32_t md_marks(const char *s, size_t n)
{
	uint32_t m = 0;
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0;
#if defined(__SSE2__)
	/* sixteen bytes at a time: a mask of those that can open a marker
	 * (prose has one in a dozen bytes or so, a full stop mostly) */
	static const char openers[] = "@&{\\*_!$./[:";
	__m128i want[sizeof openers - 1];
	for (size_t k = 0; k < sizeof openers - 1; k++)
		want[k] = _mm_set1_epi8(openers[k]);
	for (; n - i >= 16; i += 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(u + i));
		__m128i hit = _mm_cmpeq_epi8(v, want[0]);
		for (size_t k = 1; k < sizeof openers - 1; k++)
			hit = _mm_or_si128(hit, _mm_cmpeq_epi8(v, want[k]));
		for (unsigned bits = (unsigned)_mm_movemask_epi8(hit); bits; bits &= bits - 1)
			m |= mark_at(s, n, i + (size_t)__builtin_ctz(bits));
	}
#endif
	for (; i < n; i++)
		if (opens[u[i]])
			m |= mark_at(s, n, i);
	return m;
}
