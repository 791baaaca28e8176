/* test_where.c: where.c: the place in the file of a byte of a formula
 * that an error points at, on any line of the formula, inside quotes, list
 * items (bullet and ordered, any indentation, tabs), nested containers and
 * footnote definitions, for inline and display math in each of their
 * syntaxes. A typeset of its own fails on the word "BAD" and points at it;
 * each case's message is checked whole, then a randomised test puts BAD at
 * a random place of a random formula in random containers and checks that
 * the message points at it. */
#include "harness.h"

#include "base/arena.h"
#include "base/buf.h"
#include "md/markdown.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static struct arena *A;

/* bad_typeset: fails on a formula holding "BAD", at its first byte. */
static int bad_typeset(void *ctx, const char *tex, size_t len, int display, struct buf *out, struct buf *err,
                       int *pos)
{
	(void)ctx;
	(void)display;
	const char *b = memmem(tex, len, "BAD", 3);
	*pos = -1;
	if (b) {
		buf_puts(err, "bad token");
		*pos = (int)(b - tex);
		return -1;
	}
	buf_append(out, tex, len);
	return 0;
}

/* message: the diagnostics of md, the body of content/posts/p.md (its
 * first line the file's 5th), brackets as math.delimiters says. */
static const char *message(const char *md, int brackets)
{
	static struct buf errs;
	buf_reset(&errs);
	struct md_options o = {.math = 1, .brackets = brackets, .typeset = bad_typeset};
	struct md_doc doc;
	t_post(A, md, &o, &doc, &errs);
	return t_msgs(&errs);
}

static void test_cases(void)
{
	static const struct {
		const char *what, *md, *want;
		int brackets;
	} cases[] = {
	    {"at the top", "$$\nx = BAD\n$$\n", "6:5", 0},
	    {"a quote", "> $$\n> x = BAD\n> $$\n", "6:7", 0},
	    {"a quote, its formula's first line", "> a $x BAD$\n", "5:8", 0},
	    {"a bullet item, four spaces", "- item\n\n    $$\n    x = BAD\n    $$\n", "8:9", 0},
	    {"a bullet item, on its marker's line", "- $$x +\n  y BAD$$\n", "6:5", 0},
	    {"an ordered item", "1. item\n\n   $$\n   x +\n     BAD\n   $$\n", "9:6", 0},
	    {"an ordered item with ')'", "10) item\n\n    $$\n    BAD\n    $$\n", "8:5", 0},
	    {"tabs", "-\titem\n\n\t$$\n\tx = BAD\n\t$$\n", "8:6", 0},
	    {"a quote after a tab", ">\t$$\n>\tx BAD\n>\t$$\n", "6:5", 0},
	    {"nested", "> 1. a\n>\n>    > $$\n>    > x BAD\n>    > $$\n", "8:10", 0},
	    {"a list in a quote", "> - item\n>\n>   $$\n>   BAD\n>   $$\n", "8:5", 0},
	    {"a footnote's definition", "T[^1].\n\n[^1]: a\n\n    $$\n    BAD\n    $$\n", "10:5", 0},
	    {"a footnote's inline formula", "T[^1].\n\n[^1]: a $x +\n    y BAD$\n", "8:7", 0},
	    {"an inline formula over lines", "> a $x +\n>   y BAD$ b\n", "6:7", 0},
	    {"a math fence in a quote", "> ```math\n> BAD\n> ```\n", "6:3", 0},
	    {"a '>' of the formula's own", "> $$\n> a\n> > BAD\n> $$\n", "7:5", 0},
	    {"CRLF", "> $$\r\n> x BAD\r\n> $$\r\n", "6:5", 0},
	    {"\\[ in a quote", "> \\[\n> x BAD\n> \\]\n", "6:5", 1},
	    {"\\( on its first line", "- \\(x BAD\\)\n", "5:7", 1},
	    {"\\( over lines", "> a \\(x\n> BAD\\)\n", "6:3", 1},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char want[128];
		snprintf(want, sizeof want, "content/posts/p.md:%s: error: math: bad token", cases[i].want);
		t_current = cases[i].what;
		STR_EQ(message(cases[i].md, cases[i].brackets), want);
	}
	t_current = "where";
}

/* ---- the randomised test ---- */

static uint64_t rng = 0x9e3779b97f4a7c15u;

static unsigned pick(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % n);
}

/* a container: the line that opens it and the prefix of the lines after */
struct box {
	const char *open, *cont;
	int outer_only; /* a tab's width, or a footnote: outermost only */
};

static const struct box BOXES[] = {
    {"> ", "> ", 0},   {"- ", "  ", 0}, {"* ", "  ", 0},     {"1. ", "   ", 0},
    {"10) ", "    ", 0}, {"-\t", "\t", 1}, {"[^1]: ", "    ", 1},
};

/* the formula's lines: words, each line starting with a letter (not a
 * block's marker), BAD on one of them at a random place */
struct formula {
	char lines[4][64];
	int n, bad_line, bad_off;
};

static void make_formula(struct formula *f)
{
	static const char *words[] = {"+", "y", "2", "\\alpha", "=", "(a)", "{b}", "x^2"};
	f->n = 1 + (int)pick(4);
	f->bad_line = (int)pick((unsigned)f->n);
	for (int l = 0; l < f->n; l++) {
		char *s = f->lines[l];
		strcpy(s, "xyz" + pick(3));
		s[1] = '\0';
		int k = 1 + (int)pick(4), bad_at = l == f->bad_line ? (int)pick((unsigned)k + 1) : -1;
		for (int w = 0; w <= k; w++) {
			if (w == bad_at) {
				strcat(s, " ");
				f->bad_off = (int)strlen(s);
				strcat(s, "BAD");
			}
			if (w < k) {
				strcat(s, " ");
				strcat(s, words[pick(sizeof words / sizeof *words)]);
			}
		}
	}
}

/* One random document: containers, then a formula in one of five forms
 * (a $$ or \\[ block, a math fence, $$ in a paragraph, an inline formula
 * after text or opening its paragraph); *line and *col where BAD is. */
static void make_doc(struct buf *md, int *brackets, int *line, int *col)
{
	const struct box *stack[3];
	int depth = (int)pick(4);
	for (int i = 0; i < depth; i++) {
		const struct box *b;
		do
			b = &BOXES[pick(sizeof BOXES / sizeof *BOXES)];
		while (b->outer_only && i > 0);
		stack[i] = b;
	}
	const char *eol = pick(8) ? "\n" : "\r\n";
	int ln = 1;
	buf_reset(md);
	if (depth && strncmp(stack[0]->open, "[^", 2) == 0) {
		buf_printf(md, "See[^1].%s%s", eol, eol);
		ln += 2;
	}
	struct buf pre; /* the continuation prefix */
	buf_init(&pre);
	if (depth) {
		for (int i = 0; i < depth; i++)
			buf_puts(md, stack[i]->open);
		buf_printf(md, "item%s", eol);
		for (int i = 0; i < depth; i++)
			buf_puts(&pre, stack[i]->cont);
		/* the blank line: the prefix without the white space it ends with */
		size_t k = pre.len;
		while (k && (pre.p[k - 1] == ' ' || pre.p[k - 1] == '\t'))
			k--;
		buf_append(md, pre.p, k);
		buf_puts(md, eol);
		ln += 2;
	}
	struct formula f;
	make_formula(&f);
	int form = (int)pick(5);
	*brackets = (form == 0 || form >= 3) && pick(2);
	const char *dopen = *brackets ? "\\[" : "$$", *dclose = *brackets ? "\\]" : "$$";
	const char *iopen = *brackets ? "\\(" : "$", *iclose = *brackets ? "\\)" : "$";
	int first = 1; /* the formula's first line has its opener before it */
	if (form == 0 || form == 1) { /* a block: $$ or \[, or ```math */
		buf_printf(md, "%s%s%s", pre.p ? pre.p : "", form == 0 ? dopen : "```math", eol);
		ln++;
		first = 0;
	}
	for (int l = 0; l < f.n; l++) {
		size_t at = md->len;
		buf_puts(md, pre.p ? pre.p : "");
		if (l == 0 && first)
			buf_puts(md, form == 2 ? "$$" : form == 3 ? "a " : "");
		if (l == 0 && form >= 3)
			buf_puts(md, iopen);
		if (l > 0 && form >= 2) /* a paragraph's line: cmark takes its indentation off */
			buf_puts(md, "   " + pick(4));
		if (l > 0 && form < 2) /* a block's: kept */
			buf_puts(md, "  " + pick(3));
		size_t text = md->len;
		buf_puts(md, f.lines[l]);
		if (l == f.bad_line) {
			*line = ln + 4;
			*col = (int)(text - at) + f.bad_off + 1;
		}
		if (l == f.n - 1 && form >= 2)
			buf_printf(md, "%s%s", form == 2 ? "$$" : iclose, form == 3 ? " b" : "");
		buf_puts(md, eol);
		ln++;
	}
	if (form < 2)
		buf_printf(md, "%s%s%s", pre.p ? pre.p : "", form == 0 ? dclose : "```", eol);
	buf_fini(&pre);
}

static void test_random(void)
{
	struct buf md;
	buf_init(&md);
	int wrong = 0;
	for (int i = 0; i < 2000; i++) {
		int brackets = 0, line = 0, col = 0;
		make_doc(&md, &brackets, &line, &col);
		char want[128];
		snprintf(want, sizeof want, "content/posts/p.md:%d:%d: error: math: bad token", line, col);
		const char *got = message(md.p, brackets);
		if (strcmp(got, want) != 0 && wrong++ < 5)
			t_fail(__FILE__, __LINE__, "document %d (brackets %d):\n%s\nwant %s\ngot  %s", i, brackets, md.p,
			       want, got);
	}
	INT_EQ(wrong, 0);
	buf_fini(&md);
}

void test_where(void)
{
	t_current = "where";
	A = arena_new();
	test_cases();
	test_random();
	arena_free(A);
}
