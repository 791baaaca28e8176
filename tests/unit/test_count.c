/* test_count.c: the word count of the counting pass (md/count.c): on
 * texts written out, and on random texts of words, spaces, punctuation
 * and a few multibyte characters, fed whole and in pieces, against a
 * count made here character by character and against the byte loop
 * alone (the count goes sixteen ASCII bytes at a time where it can). */
#include "harness.h"

#include "md/internal.h"

#include <stdlib.h>
#include <string.h>

/* The random texts' pieces: what each is (0 a space, 1 neither, 3 a
 * letter or digit), and its bytes. */
static const struct {
	const char *s;
	int kind;
} pieces[] = {
    {" ", 0},         {"\n", 0},        {"\t", 0},        {"\r", 0},       {"\v", 0},       {"\f", 0},
    {"a", 3},         {"Z", 3},         {"7", 3},         {"q", 3},        {"x", 3},        {"m", 3},
    {"-", 1},         {".", 1},         {"*", 1},         {"`", 1},        {"@", 1},        {"[", 1},
    {"\x7f", 1},      {"\x01", 1},      {"\xc3\xa9", 3}, /* é */
    {"\xe2\x80\x94", 1},                                   /* an em dash, punctuation */
    {"\xc2\xa0", 0},                                       /* a no-break space */
    {"\xe4\xb8\xad", 3},                                   /* 中: a letter outside prose */
};

/* words: runs of characters that are not spaces, holding a letter or a
 * digit */
static size_t words(const int *kinds, size_t n)
{
	size_t w = 0;
	int in = 0, al = 0;
	for (size_t i = 0; i < n; i++) {
		if (kinds[i] == 0) {
			w += in && al;
			in = al = 0;
		} else {
			in = 1;
			al |= kinds[i] == 3;
		}
	}
	return w + (in && al);
}

void test_count(void)
{
	static const struct {
		const char *text;
		size_t words;
	} cases[] = {
	    {"", 0},
	    {"one", 1},
	    {"one two  three", 3},
	    {" - * --- ", 0},
	    {"a-b c.d (e) -- f", 4},
	    {"sixteen bytes ok and more words after the first block of sixteen", 12},
	    {"x                                                               y", 2},
	    {"------------------------------------------------------------a", 1},
	    {"caf\xc3\xa9 na\xc3\xafve \xe2\x80\x94 r\xc3\xa9sum\xc3\xa9", 3},
	    {"aaaaaaaaaaaaaaa\xc2\xa0" "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb", 2},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		size_t n = strlen(cases[i].text);
		INT_EQ(md_count_words(cases[i].text, n, 0, 0), cases[i].words);
		INT_EQ(md_count_words(cases[i].text, n, 0, 1), cases[i].words);
		INT_EQ(md_count_words(cases[i].text, n, 5, 0), cases[i].words);
	}

	unsigned seed = 44;
	int bad = 0;
	char text[1200];
	int kinds[400];
	for (int round = 0; round < 20000 && bad < 3; round++) {
		/* mostly letters and spaces, as prose; some rounds mostly
		 * punctuation, some with multibyte characters */
		int style = round % 4;
		size_t n = 0, nk = 0, want_len = (size_t)(rand_r(&seed) % 400);
		while (nk < want_len) {
			size_t k;
			int r = rand_r(&seed) % 100;
			if (style == 0)
				k = r < 80 ? 6 + (size_t)(r % 6) : r < 95 ? 0 : 12 + (size_t)(r % 6);
			else if (style == 1)
				k = r < 60 ? 12 + (size_t)(r % 8) : r < 80 ? (size_t)(r % 6) : 6 + (size_t)(r % 6);
			else
				k = (size_t)rand_r(&seed) % (sizeof pieces / sizeof *pieces);
			size_t len = strlen(pieces[k].s);
			memcpy(text + n, pieces[k].s, len);
			n += len;
			kinds[nk++] = pieces[k].kind;
		}
		size_t want = words(kinds, nk);
		size_t piece = (size_t)(rand_r(&seed) % 40);
		size_t got = md_count_words(text, n, 0, 0), bytewise = md_count_words(text, n, 0, 1),
		       pieced = md_count_words(text, n, piece, 0);
		if (got != want || bytewise != want || pieced != want) {
			bad++;
			t_fail(__FILE__, __LINE__, "words of \"%.*s\": %zu, bytewise %zu, in pieces of %zu %zu; want %zu",
			       (int)n, text, got, bytewise, piece, pieced, want);
		}
	}
	OK(!bad);
}
