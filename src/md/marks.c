/* marks.c: one scan of a document's text for the markers that the passes
 * and the source's link hint ask about (md_marks), in place of a memchr or
 * memmem each: a table of the bytes that can open one, and a look at what
 * follows only where such a byte is. */
#include "internal.h"

#include <string.h>

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

uint32_t md_marks(const char *s, size_t n)
{
	uint32_t m = 0;
	const unsigned char *u = (const unsigned char *)s;
	for (size_t i = 0; i < n; i++) {
		if (!opens[u[i]])
			continue;
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
	}
	return m;
}
