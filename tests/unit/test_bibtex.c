/* test_bibtex.c: the BibTeX reader (formats/bibtex.h): entries, values,
 * @string, skipped parts, errors with their places, LaTeX to text and
 * HTML, name lists. */
#include "harness.h"

#include "base/arena.h"
#include "base/buf.h"
#include "formats/bibtex.h"

#include <stdio.h>
#include <stdlib.h>

/* field: e's field name as a C string (static buffer), "(none)" if absent. */
static const char *field(const struct bibtex *b, const char *key, const char *name)
{
	static char out[4096];
	const struct bib_entry *e = bibtex_find(b, str_from(key));
	if (!e)
		return "(no entry)";
	struct str v = bibtex_field(e, name);
	if (!v.p)
		return "(none)";
	snprintf(out, sizeof out, "%.*s", STR_FMT(v));
	return out;
}

/* errs: the errors as "line:col: msg" lines (static buffer). */
static const char *errs(const struct bibtex *b)
{
	static struct buf out;
	buf_reset(&out);
	for (size_t i = 0; i < b->nerrors; i++)
		buf_printf(&out, "%d:%d: %s\n", b->errors[i].line, b->errors[i].col, b->errors[i].msg);
	return out.p ? out.p : "";
}

static const char *latex(const char *raw, int html)
{
	static struct buf out;
	buf_reset(&out);
	bibtex_latex(&out, str_from(raw), html);
	return out.p ? out.p : "";
}

static void test_entries(void)
{
	struct arena *a = arena_new();
	struct bibtex b;
	const char *src = "Some text BibTeX ignores, even a@b.com.\n"
			  "@String{nips = {Advances in Neural Information Processing Systems}}\n"
			  "@string(conf = \"Proc. \" # nips)\n"
			  "@preamble{ \"\\newcommand{\\noop}[1]{}\" }\n"
			  "@comment{ @article{ignored, title = {no}} }\n"
			  "@Article{vaswani2017,\n"
			  "  title = {Attention Is {All} You Need},\n"
			  "  Author = \"Ashish Vaswani and Noam Shazeer and others\",\n"
			  "  year = 2017, month = jun,\n"
			  "  booktitle = conf # { 30},\n"
			  "  note = {a {nested {deep}} brace},\n"
			  "  title = {second title ignored},\n"
			  "}\n"
			  "@misc(kingma2014, title={Adam}, )\n"
			  "@book{onlykey}\n";
	INT_EQ(bibtex_parse(a, src, strlen(src), &b), 0);
	STR_EQ(errs(&b), "");
	INT_EQ(b.n, 3);
	STR_EQ(field(&b, "vaswani2017", "title"), "Attention Is {All} You Need");
	STR_EQ(field(&b, "vaswani2017", "author"), "Ashish Vaswani and Noam Shazeer and others");
	STR_EQ(field(&b, "vaswani2017", "year"), "2017");
	STR_EQ(field(&b, "vaswani2017", "month"), "June");
	STR_EQ(field(&b, "vaswani2017", "booktitle"),
	       "Proc. Advances in Neural Information Processing Systems 30");
	STR_EQ(field(&b, "vaswani2017", "note"), "a {nested {deep}} brace");
	STR_EQ(field(&b, "vaswani2017", "pages"), "(none)");
	STR_EQ(field(&b, "kingma2014", "title"), "Adam");
	STR_EQ(field(&b, "ignored", "title"), "(no entry)");
	const struct bib_entry *e = bibtex_find(&b, STR_LIT("vaswani2017"));
	OK(e && str_eq_cstr(e->type, "article"));
	INT_EQ(e ? e->line : 0, 6);
	INT_EQ(e ? e->col : 0, 10);
	OK(bibtex_find(&b, STR_LIT("onlykey")) != NULL);
	OK(bibtex_find(&b, STR_LIT("Vaswani2017")) == NULL); /* keys are as written */
	bibtex_fini(&b);
	arena_free(a);
}

static void test_errors(void)
{
	struct arena *a = arena_new();
	struct bibtex b;
	struct {
		const char *src, *want;
	} cases[] = {
		{"@article{a,\n  title = {Open\n}\n", "1:9: unclosed '{': the entry 'a' never ends (add '}' after its last field)\n"},
		{"@article{a, title = {Open}\n@book{b, title={x}}\n",
		 "1:27: expected ',' or '}' after the field 'title' in the entry 'a' (a missing comma?)\n"},
		{"@article{a, title = {x{y}\n", "1:21: unclosed '{' in the value of 'title' (close it with '}'; braces must pair up)\n"},
		{"@article{a, title = \"x\n", "1:21: unclosed '\"' in the value of 'title' (close it with '\"'; braces must pair up)\n"},
		{"@article{title = {x}}\n", "1:10: the @article entry has no key (write @article{KEY, ...}: the key is what posts cite)\n"},
		{"@article{, title = {x}}\n", "1:10: the @article entry has no key (write @article{KEY, ...}: the key is what posts cite)\n"},
		{"@book{k, title={x}}\n\n@book{k, title={y}}\n", "3:7: duplicate key 'k' (the first is at line 1; keys must be unique)\n"},
		{"@book{k, title {x}}\n", "1:16: expected '=' after the field name 'title' in the entry 'k'\n"},
		{"@book{k, = {x}}\n", "1:10: expected a field name in the entry 'k', found '=' (fields are name = value, separated by ',')\n"},
		{"@book{k, title = }\n",
		 "1:18: expected a value for 'title': {text}, \"text\", a number or a @string name (write title = {...})\n"},
		{"@book{k, month = juen}\n", "1:18: unknown @string 'juen' (did you mean 'jun'?)\n"},
		{"@book{k, journal = icml2023}\n",
		 "1:20: unknown @string 'icml2023' (define it with @string{icml2023 = {...}} before this entry, or write the text in braces)\n"},
		{"@preamble{ {x }\n", "1:10: unclosed '{' of this @preamble (braces must pair up)\n"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		bibtex_parse(a, cases[i].src, strlen(cases[i].src), &b);
		STR_EQ(errs(&b), cases[i].want);
		bibtex_fini(&b);
	}
	/* an error loses its entry, and reading goes on at the next line that
	 * starts with '@' */
	const char *src = "@book{a, title = {x} year = 1}\n@book{b, title = {fine}}\n";
	INT_EQ(bibtex_parse(a, src, strlen(src), &b), 1);
	OK(bibtex_find(&b, STR_LIT("a")) == NULL);
	STR_EQ(field(&b, "b", "title"), "fine");
	bibtex_fini(&b);
	arena_free(a);
}

/* pathological: a chain of @string definitions that doubles, deep braces,
 * a long value: each ends quickly, with an error where it must */
static void test_pathological(void)
{
	struct arena *a = arena_new();
	struct bibtex b;
	struct buf src;
	buf_init(&src);
	buf_puts(&src, "@string{s0 = \"xxxxxxxxxxxxxxxx\"}\n");
	for (int i = 1; i < 60; i++)
		buf_printf(&src, "@string{s%d = s%d # s%d}\n", i, i - 1, i - 1);
	buf_puts(&src, "@book{k, title = s59}\n");
	OK(bibtex_parse(a, src.p, src.len, &b) >= 1);
	OK(t_has(errs(&b), "MiB once joined") || t_has(errs(&b), "grow past"));
	bibtex_fini(&b);

	buf_reset(&src);
	buf_puts(&src, "@book{k, title = ");
	for (int i = 0; i < 200000; i++)
		buf_putc(&src, '{');
	buf_puts(&src, "x");
	for (int i = 0; i < 200000; i++)
		buf_putc(&src, '}');
	buf_puts(&src, "}\n");
	INT_EQ(bibtex_parse(a, src.p, src.len, &b), 0);
	struct buf t;
	buf_init(&t);
	bibtex_latex(&t, bibtex_field(&b.entries[0], "title"), 1);
	STR_EQ(t.p, "x");
	buf_fini(&t);
	bibtex_fini(&b);

	buf_reset(&src);
	buf_puts(&src, "@book{k, title = {");
	for (int i = 0; i < (1 << 20); i++)
		buf_putc(&src, 'a' + i % 26);
	buf_puts(&src, "}}\n");
	INT_EQ(bibtex_parse(a, src.p, src.len, &b), 0);
	INT_EQ(bibtex_field(&b.entries[0], "title").len, 1 << 20);
	bibtex_fini(&b);
	buf_fini(&src);
	arena_free(a);
}

static void test_latex(void)
{
	STR_EQ(latex("G{\\\"o}del and Schr\\\"odinger", 0), "Gödel and Schrödinger");
	STR_EQ(latex("\\'{e}t\\'e \\`a \\^o \\~n \\c{c} \\v{s} \\u{g} \\H{o} \\=a \\.z \\c c", 0),
	       "été à ô ñ ç š ğ ő ā ż ç");
	STR_EQ(latex("\\aa\\ \\AA{} \\o \\O \\ss{} \\ae \\AE \\oe \\l \\L \\i", 0), "å Å øØß æÆœłŁı"); /* TeX drops the space after \o */
	STR_EQ(latex("Erd\\H{o}s--R\\'enyi---and~more", 0), "Erdős–Rényi—and\xC2\xA0more");
	STR_EQ(latex("\\'{\\i}", 0), "í");
	STR_EQ(latex("{BERT}: Pre-training of {Deep}   Bidirectional\n Transformers", 0),
	       "BERT: Pre-training of Deep Bidirectional Transformers");
	STR_EQ(latex("R\\&D 50\\% \\$5 a\\_b \\#1", 0), "R&D 50% $5 a_b #1");
	STR_EQ(latex("R\\&D <x>", 1), "R&amp;D &lt;x&gt;");
	STR_EQ(latex("The \\emph{best} and \\textbf{bold {\\em x}} \\texttt{f()}", 1),
	       "The <em>best</em> and <strong>bold x</strong> <code>f()</code>");
	STR_EQ(latex("The \\emph{best}", 0), "The best");
	STR_EQ(latex("``quoted'' $O(n)$ \\unknown{kept}", 0), "“quoted” O(n) kept");
	STR_EQ(latex("}} stray {", 1), "stray");
	struct buf nul;
	buf_init(&nul);
	bibtex_latex(&nul, (struct str){"a\0b\001c\177", 6}, 1);
	INT_EQ(nul.len, 6);
	STR_EQ(nul.p, "a\xEF\xBF\xBD" "bc"); /* no control character, no NUL to cut a C string */
	buf_reset(&nul);
	bibtex_latex(&nul, (struct str){"\\\"\0x\\'{\001}y", 8}, 0); /* accents on a NUL and on ^A */
	INT_EQ(strlen(nul.p), nul.len);
	buf_fini(&nul);
}

static const char *names(const char *value)
{
	static struct buf out;
	buf_reset(&out);
	struct arena *a = arena_new();
	struct bib_name *n;
	int others;
	size_t k = bibtex_names(a, str_from(value), &n, &others);
	for (size_t i = 0; i < k; i++)
		buf_printf(&out, "[%.*s|%.*s|%.*s|%.*s]", STR_FMT(n[i].first), STR_FMT(n[i].von), STR_FMT(n[i].last),
			   STR_FMT(n[i].jr));
	if (others)
		buf_puts(&out, "+others");
	arena_free(a);
	return out.p ? out.p : "";
}

static void test_names(void)
{
	STR_EQ(names("Ashish Vaswani and Noam Shazeer"), "[Ashish||Vaswani|][Noam||Shazeer|]");
	STR_EQ(names("Vaswani, Ashish and Shazeer, Noam and others"), "[Ashish||Vaswani|][Noam||Shazeer|]+others");
	STR_EQ(names("Ludwig van Beethoven"), "[Ludwig|van|Beethoven|]");
	STR_EQ(names("van Beethoven, Ludwig"), "[Ludwig|van|Beethoven|]");
	STR_EQ(names("Ford, Jr., Henry"), "[Henry||Ford|Jr.]");
	STR_EQ(names("{Barnes and Noble}"), "[||{Barnes and Noble}|]");
	STR_EQ(names("Diederik P. Kingma AND Jimmy Ba"), "[Diederik P.||Kingma|][Jimmy||Ba|]");
	STR_EQ(names("Tri Dao and Daniel Y. Fu and Stefano Ermon and Atri Rudra and Christopher R{\\'e}"),
	       "[Tri||Dao|][Daniel Y.||Fu|][Stefano||Ermon|][Atri||Rudra|][Christopher||R{\\'e}|]");
	STR_EQ(names("Plato"), "[||Plato|]");
	STR_EQ(names("Charles Louis Xavier Joseph de la Vall{\\'e}e Poussin"),
	       "[Charles Louis Xavier Joseph|de la|Vall{\\'e}e Poussin|]");
	STR_EQ(names("  and  and "), "");
	/* a NUL is no space between words (strchr found it: the string's end) */
	struct arena *a = arena_new();
	struct bib_name *n;
	int others;
	static const char nul[] = "Ann\0Bee and Cy";
	INT_EQ(bibtex_names(a, (struct str){nul, sizeof nul - 1}, &n, &others), 2);
	OK(n[0].first.len == 0 && n[0].last.len == 7 && !memcmp(n[0].last.p, "Ann\0Bee", 7));
	arena_free(a);
}

void test_bibtex(void)
{
	test_entries();
	test_errors();
	test_pathological();
	test_latex();
	test_names();
}
