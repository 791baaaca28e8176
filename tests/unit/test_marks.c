/* test_marks.c: md_marks, the one scan for the markers the Markdown passes
 * and the link hint ask about, against a memmem for each marker: on cases
 * written out (a marker at the start, the end, cut short at the end), on
 * random texts made of the markers' bytes, and on longer ones of words
 * with markers here and there. */
#include "harness.h"

#include "md/markdown.h"

#include <stdlib.h>
#include <string.h>

static const struct {
	const char *lit;
	uint32_t bit;
} marks[] = {
    {"@", MD_MARK_AT},          {"@/", MD_MARK_AT_SLASH},     {"&#", MD_MARK_AMP_HASH},
    {"&commat;", MD_MARK_COMMAT}, {"&period", MD_MARK_PERIOD},  {"{#", MD_MARK_BRACE_HASH},
    {"\\label{", MD_MARK_LABEL},  {"**", MD_MARK_STARS},        {"__", MD_MARK_UNDERS},
    {"![", MD_MARK_IMAGE},        {"$", MD_MARK_DOLLAR},        {"$$", MD_MARK_DOLLARS},
    {".md", MD_MARK_DOT_MD},      {"../", MD_MARK_DOTDOT},      {"/posts/", MD_MARK_POSTS},
    {"[", MD_MARK_BRACKET},       {":::", MD_MARK_FENCE},
};

/* slow: the marks by a memmem each */
static uint32_t slow(const char *s, size_t n)
{
	uint32_t m = 0;
	for (size_t i = 0; i < sizeof marks / sizeof *marks; i++)
		if (n && memmem(s, n, marks[i].lit, strlen(marks[i].lit)))
			m |= marks[i].bit;
	/* a leaf directive's line, "::name": at most three spaces, "::", a
	 * letter, at the start of a line */
	for (size_t at = 0; at < n; at++) {
		if (at && s[at - 1] != '\n')
			continue;
		size_t k = at;
		while (k < n && k - at < 3 && s[k] == ' ')
			k++;
		if (k + 2 < n && s[k] == ':' && s[k + 1] == ':' &&
		    ((s[k + 2] >= 'a' && s[k + 2] <= 'z') || (s[k + 2] >= 'A' && s[k + 2] <= 'Z')))
			m |= MD_MARK_FENCE;
	}
	return m;
}

void test_marks(void)
{
	INT_EQ(md_marks("", 0), 0);
	INT_EQ(md_marks("plain words, no marker at all", 29), 0);
	for (size_t i = 0; i < sizeof marks / sizeof *marks; i++) {
		const char *lit = marks[i].lit;
		size_t k = strlen(lit);
		char buf[64];
		/* alone, at the start, at the end */
		OK((md_marks(lit, k) & marks[i].bit) == marks[i].bit);
		snprintf(buf, sizeof buf, "%sxyz", lit);
		OK((md_marks(buf, strlen(buf)) & marks[i].bit) == marks[i].bit);
		snprintf(buf, sizeof buf, "xyz%s", lit);
		OK((md_marks(buf, strlen(buf)) & marks[i].bit) == marks[i].bit);
		/* cut short by the length (the byte after it is there, unread) */
		if (k > 1)
			INT_EQ(md_marks(buf, strlen(buf) - 1) & marks[i].bit, 0);
		INT_EQ(md_marks(buf, strlen(buf)), slow(buf, strlen(buf)));
	}
	/* random texts of the markers' bytes */
	static const char alphabet[] = "@/&#commat;period{\\label*_![$.md:postsx \n";
	unsigned seed = 40;
	char text[80];
	int bad = 0;
	for (int round = 0; round < 20000; round++) {
		size_t n = (size_t)(rand_r(&seed) % (int)sizeof text);
		for (size_t i = 0; i < n; i++)
			text[i] = alphabet[rand_r(&seed) % (int)(sizeof alphabet - 1)];
		if (md_marks(text, n) != slow(text, n) && bad++ < 3)
			t_fail(__FILE__, __LINE__, "md_marks(\"%.*s\") = %#x, want %#x", (int)n, text,
			       (unsigned)md_marks(text, n), (unsigned)slow(text, n));
	}
	/* longer texts, mostly words with a marker's byte here and there:
	 * the scan goes sixteen bytes at a time, and a marker may straddle
	 * two of them or end the text */
	static const char prose[] = "abcdefgh ijklmno pqrstu vwxyz. ,;-()\n";
	char longer[300];
	for (int round = 0; round < 20000; round++) {
		size_t n = (size_t)(rand_r(&seed) % (int)sizeof longer);
		for (size_t i = 0; i < n; i++)
			longer[i] = rand_r(&seed) % 12 ? prose[rand_r(&seed) % (int)(sizeof prose - 1)]
							: alphabet[rand_r(&seed) % (int)(sizeof alphabet - 1)];
		if (md_marks(longer, n) != slow(longer, n) && bad++ < 3)
			t_fail(__FILE__, __LINE__, "md_marks(\"%.*s\") = %#x, want %#x", (int)n, longer,
			       (unsigned)md_marks(longer, n), (unsigned)slow(longer, n));
	}
	OK(!bad);
}
