/* test_slug.c: URL slugs for tags, categories and titles, and slug_valid. */
#include "harness.h"

#include "base/arena.h"
#include "base/buf.h"
#include "base/slug.h"

static struct arena *arena;

static const char *slug(const char *text)
{
	struct str s = slugify(arena, str_from(text));
	OK(s.p != NULL && s.p[s.len] == '\0');
	return s.p ? s.p : "(null)";
}

static const char *slug_n(const char *text, size_t n)
{
	struct str s = slugify(arena, (struct str){text, n});
	return s.p ? s.p : "(null)";
}

static const char *tslug(const char *text)
{
	struct str s = term_slug(arena, str_from(text));
	OK(s.p != NULL && s.len > 0);
	return s.p ? arena_strndup(arena, s.p, s.len) : "(null)";
}

static const char *tkey(const char *text)
{
	struct str s = term_key(arena, str_from(text));
	OK(s.p != NULL && s.p[s.len] == '\0');
	return s.p ? s.p : "(null)";
}

static int valid(const char *s)
{
	return slug_valid(str_from(s));
}

void test_slug(void)
{
	t_current = "slug";
	arena = arena_new();

	/* ASCII */
	STR_EQ(slug("ML Systems"), "ml-systems");
	STR_EQ(slug("cuda"), "cuda");
	STR_EQ(slug("CUDA"), "cuda");
	STR_EQ(slug("Linux Kernel Internals"), "linux-kernel-internals");
	STR_EQ(slug("distributed-systems"), "distributed-systems");
	STR_EQ(slug("snake_case_tag"), "snake-case-tag");
	STR_EQ(slug("GPT-4o"), "gpt-4o");
	STR_EQ(slug("x86_64"), "x86-64");
	STR_EQ(slug("2026"), "2026");
	/* punctuation runs become one '-', none at the ends */
	STR_EQ(slug("C++"), "c");
	STR_EQ(slug("C#"), "c");
	STR_EQ(slug("  Hello,   World!  "), "hello-world");
	STR_EQ(slug("a -- b"), "a-b");
	STR_EQ(slug("--leading and trailing--"), "leading-and-trailing");
	STR_EQ(slug("what's new?"), "what-s-new");
	STR_EQ(slug("a/b\\c"), "a-b-c");
	STR_EQ(slug("tab\tand\nnewline"), "tab-and-newline");
	STR_EQ(slug("1.5 release"), "1-5-release");
	/* Unicode: lower-cased, letters and digits kept */
	STR_EQ(slug("Über GPU"), "über-gpu");
	STR_EQ(slug("ÉCOLE"), "école");
	STR_EQ(slug("ΑΘΗΝΑ"), "αθηνα");
	STR_EQ(slug("Größe"), "größe");
	STR_EQ(slug("Привет Мир"), "привет-мир");
	STR_EQ(slug("컴파일러 입문"), "컴파일러-입문");
	STR_EQ(slug("日本語"), "日本語");
	STR_EQ(slug("naïve café"), "naïve-café");
	STR_EQ(slug("→ arrows ←"), "arrows");
	STR_EQ(slug("emoji 🚀 launch"), "emoji-launch");
	STR_EQ(slug("em—dash"), "em-dash");
	/* combining marks stay with their letter */
	STR_EQ(slug("e\xcc\x81t\xc3\xa9"), "e\xcc\x81t\xc3\xa9");
	/* invalid UTF-8 is a separator, never copied */
	STR_EQ(slug("ab\xff\xfe" "cd"), "ab-cd");
	STR_EQ(slug("\xc3"), "");
	/* nothing to keep */
	STR_EQ(slug(""), "");
	STR_EQ(slug("   "), "");
	STR_EQ(slug("+++"), "");
	STR_EQ(slug("!?#%"), "");
	INT_EQ(slugify(arena, str_from("")).len, 0);
	INT_EQ(slugify(arena, str_from("...")).len, 0);
	/* a length, not a NUL, ends the text */
	STR_EQ(slug_n("abc def", 3), "abc");
	STR_EQ(slug_n("a\0b", 3), "a-b");

	/* term_slug: the signs that tell names of languages apart are words */
	STR_EQ(tslug("C"), "c");
	STR_EQ(tslug("C++"), "c-plus-plus");
	STR_EQ(tslug("C#"), "c-sharp");
	STR_EQ(tslug("F#"), "f-sharp");
	STR_EQ(tslug(".NET"), "dotnet");
	STR_EQ(tslug("R&D"), "r-and-d");
	STR_EQ(tslug("Q&A"), "q-and-a");
	STR_EQ(tslug("Notepad++"), "notepad-plus-plus");
	STR_EQ(tslug("A+B"), "a-plus-b");
	STR_EQ(tslug("+1"), "plus-1");
	STR_EQ(tslug("+++"), "plus-plus-plus");
	STR_EQ(tslug("C# 12"), "c-sharp-12");
	STR_EQ(tslug("  .NET Core"), "dotnet-core");
	/* '#' away from a letter or digit, and a '.' not at the start, are
	 * separators as in slugify */
	STR_EQ(tslug("#rust"), "rust");
	STR_EQ(tslug("a # b"), "a-b");
	STR_EQ(tslug("ASP.NET"), "asp-net");
	STR_EQ(tslug("Node.js"), "node-js");
	STR_EQ(tslug("..."), "_");
	STR_EQ(tslug(". NET"), "net");
	/* otherwise slugify's rules: case and spacing do not matter */
	STR_EQ(tslug("CUDA"), "cuda");
	STR_EQ(tslug("Deep  Learning"), "deep-learning");
	STR_EQ(tslug("deep learning"), "deep-learning");
	STR_EQ(tslug("a/b"), "a-b");
	STR_EQ(tslug("C--"), "c");
	STR_EQ(tslug("Über GPU"), "über-gpu");
	STR_EQ(tslug("컴파일러"), "컴파일러");
	/* nothing left: "_", still a URL */
	STR_EQ(tslug("!!!"), "_");
	STR_EQ(tslug(""), "_");
	/* the title slug is not changed by these rules */
	STR_EQ(slug("C++ & C#"), "c-c");

	/* term_key: case and runs of white space, hyphens and underscores do
	 * not matter, the rest does */
	STR_EQ(tkey("CUDA"), "cuda");
	STR_EQ(tkey("Cuda"), "cuda");
	STR_EQ(tkey("  Deep \t Learning "), "deep learning");
	STR_EQ(tkey("deep-learning"), "deep learning");
	STR_EQ(tkey("deep_learning"), "deep learning");
	STR_EQ(tkey("C--"), "c--");
	STR_EQ(tkey("-x"), "-x");
	STR_EQ(tkey("ÉCOLE"), "école");
	STR_EQ(tkey("C++"), "c++");
	STR_EQ(tkey("C#"), "c#");
	STR_EQ(tkey(""), "");

	/* slug_valid: one URL path segment */
	OK(valid("hello"));
	OK(valid("hello-world"));
	OK(valid("über"));
	OK(valid("v1.2"));
	OK(valid("a_b"));
	OK(valid("..."));
	OK(!valid(""));
	OK(!valid("ab\xff"));
	OK(!valid("\xc3"));
	OK(!valid("."));
	OK(!valid(".."));
	OK(!valid("a/b"));
	OK(!valid("a\\b"));
	OK(!valid("a b"));
	OK(!valid("a\tb"));
	OK(!valid("a?b"));
	OK(!valid("a#b"));
	OK(!valid("100%"));
	OK(!valid("a\x7f"));
	OK(!slug_valid((struct str){"a\0b", 3}));

	arena_free(arena);
	arena = NULL;

	/* utf8_valid_prefix: strict UTF-8 (RFC 3629) */
	static const struct {
		const char *s;
		size_t n, ok;
	} u8[] = {
	    {"abc", 3, 3},
	    {"\xc3\xa9t\xc3\xa9", 5, 5},         /* été */
	    {"\xe2\x86\x92", 3, 3},               /* U+2192 */
	    {"\xf0\x9f\x9a\x80", 4, 4},          /* U+1F680 */
	    {"\xf4\x8f\xbf\xbf", 4, 4},          /* U+10FFFF */
	    {"a\xff", 2, 1},                       /* never in UTF-8 */
	    {"a\x80", 2, 1},                       /* a lone continuation byte */
	    {"\xc0\xaf", 2, 0},                   /* overlong '/' */
	    {"\xe0\x80\xaf", 3, 0},              /* overlong, three bytes */
	    {"\xf0\x80\x80\xaf", 4, 0},         /* overlong, four bytes */
	    {"\xed\xa0\x80", 3, 0},              /* a surrogate */
	    {"\xf4\x90\x80\x80", 4, 0},         /* past U+10FFFF */
	    {"\xf5\x80\x80\x80", 4, 0},
	    {"ab\xe2\x82", 4, 2},                 /* cut short */
	    {"\xe2\x82x", 3, 0},                  /* a continuation missing */
	    {"a\0b", 3, 3},                        /* NUL is UTF-8 */
	};
	for (size_t i = 0; i < sizeof u8 / sizeof *u8; i++)
		INT_EQ(utf8_valid_prefix(u8[i].s, u8[i].n), u8[i].ok);

	/* utf8_show: bytes that are not UTF-8 as \xHH */
	struct buf b;
	buf_init(&b);
	utf8_show(&b, str_from("bad\xff\xfe-\xc3\xa9.md"));
	STR_EQ(b.p, "bad\\xFF\\xFE-\xc3\xa9.md");
	buf_fini(&b);
}
