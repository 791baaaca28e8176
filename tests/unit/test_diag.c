/* test_diag.c: the format of diagnostics, excerpts, de-duplication, counts
 * and suggestions. */
#include "harness.h"

#include "base/diag.h"

/* caret_at: how many spaces a caret line "   | ...^\n" has before its
 * caret, or -1 if it is not one. */
static int caret_at(const char *l)
{
	if (strncmp(l, "   | ", 5) != 0)
		return -1;
	int n = 0;
	for (l += 5; *l == ' '; l++)
		n++;
	return strcmp(l, "^\n") == 0 ? n : -1;
}

/* a relay's map for the test: every place moved ten lines down, into
 * the text ctx, with "moved: " before the message */
static void shift_ten(void *ctx, struct diag_loc *loc, struct buf *prefix)
{
	loc->line += 10;
	loc->src = ctx;
	loc->src_len = strlen(ctx);
	buf_puts(prefix, "moved: ");
}

/* A relay hands each message on, its place and its notes' moved, counted
 * and printed by the collector it relays to. */
static void test_relay(void)
{
	struct buf cap;
	struct diag d, relay;
	buf_init(&cap);
	diag_init(&d, NULL);
	d.capture = &cap;
	diag_init(&relay, NULL);
	const char *file = "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\nthe eleventh line\n";
	diag_relay(&relay, &d, shift_ten, (void *)file);
	struct diag_loc at = {"nb.ipynb", "made", 4, 2, 5};
	struct diag_note note = {{"nb.ipynb", "made", 4, 1, 1}, "opened here"};
	diag_report(&relay, DIAG_ERROR, &at, &note, 1, "bad %s", "thing");
	STR_EQ(cap.p, "nb.ipynb:12:5: error: moved: bad thing\n"
		      " 12 | the eleventh line\n"
		      "    |     ^\n"
		      "nb.ipynb:11:1: note: opened here\n"
		      " 11 | 11\n"
		      "    | ^\n");
	INT_EQ(d.errors, 1);
	INT_EQ(relay.errors, 0);
	diag_fini(&relay);
	diag_fini(&d);
	buf_fini(&cap);
}

/* texts_of: diag_set_texts' function for the test: the text of two
 * files, counting the calls in *ctx */
static const char *texts_of(void *ctx, struct diag *d, const char *path, size_t *len)
{
	(void)d;
	(*(int *)ctx)++;
	const char *t = !strcmp(path, "a.md") ? "one\ntwo\n" : !strcmp(path, "b.md") ? "uno\ndos\n" : NULL;
	*len = t ? strlen(t) : 0;
	return t;
}

/* A place with a line and no text (a file the build did not read, or no
 * longer holds) gets its excerpt from the texts' function: the message's
 * and each note's. */
static void test_texts(void)
{
	struct buf cap;
	struct diag d;
	buf_init(&cap);
	diag_init(&d, NULL);
	d.capture = &cap;
	int calls = 0;
	diag_set_texts(&d, texts_of, &calls);
	struct diag_loc at = {"a.md", NULL, 0, 2, 2};
	struct diag_note notes[3] = {{{"b.md", NULL, 0, 1, 3}, "first here"},
				     {{"c.md", NULL, 0, 1, 1}, "not found"},
				     {{"b.md", "given\n", 6, 1, 1}, "its own text"}};
	diag_report(&d, DIAG_ERROR, &at, notes, 3, "clash");
	STR_EQ(cap.p, "a.md:2:2: error: clash\n"
		      " 2 | two\n"
		      "   |  ^\n"
		      "b.md:1:3: note: first here\n"
		      " 1 | uno\n"
		      "   |   ^\n"
		      "c.md:1:1: note: not found\n"
		      "b.md:1:1: note: its own text\n"
		      " 1 | given\n"
		      "   | ^\n");
	INT_EQ(calls, 3); /* the note with a text asks for none */
	OK(notes[0].loc.src == NULL); /* the caller's notes are not changed */
	diag_fini(&d);
	buf_fini(&cap);
}

void test_diag(void)
{
	t_current = "diag";
	test_relay();
	test_texts();
	struct buf cap;
	struct diag d;
	buf_init(&cap);
	diag_init(&d, NULL);
	d.capture = &cap;

	const char *src = "title: x\n\tdate: 2024-13-01\nlast line";
	struct diag_loc loc = {"content/posts/x.md", src, strlen(src), 2, 8};
	diag_error(&d, &loc, "bad month %d", 13);
	STR_EQ(cap.p, "content/posts/x.md:2:8: error: bad month 13\n"
		      " 2 | \tdate: 2024-13-01\n"
		      "   | \t      ^\n");
	INT_EQ(d.errors, 1);

	/* the same message at the same place is reported once */
	diag_error(&d, &loc, "bad month %d", 13);
	INT_EQ(d.errors, 1);

	/* warnings count apart; no column: no caret */
	buf_reset(&cap);
	struct diag_loc l2 = {"folio.yml", src, strlen(src), 3, 0};
	diag_warning(&d, &l2, "something odd");
	STR_EQ(cap.p, "folio.yml:3: warning: something odd\n 3 | last line\n");
	INT_EQ(d.warnings, 1);

	/* no source: the location alone; no line: the path alone */
	buf_reset(&cap);
	struct diag_loc l3 = {"templates/a.html", NULL, 0, 4, 2};
	diag_error(&d, &l3, "x");
	struct diag_loc l4 = {"static", NULL, 0, 0, 0};
	diag_error(&d, &l4, "y");
	STR_EQ(cap.p, "templates/a.html:4:2: error: x\nstatic: error: y\n");

	/* notes follow their error */
	buf_reset(&cap);
	const char *tsrc = "{% include \"b.html\" %}";
	struct diag_note note = {{"templates/a.html", tsrc, strlen(tsrc), 1, 1}, "included from here"};
	struct diag_loc l5 = {"templates/b.html", "{{ x }}", 7, 1, 4};
	diag_report(&d, DIAG_ERROR, &l5, &note, 1, "undefined variable '%s'", "x");
	STR_EQ(cap.p, "templates/b.html:1:4: error: undefined variable 'x'\n"
		      " 1 | {{ x }}\n"
		      "   |    ^\n"
		      "templates/a.html:1:1: note: included from here\n"
		      " 1 | {% include \"b.html\" %}\n"
		      "   | ^\n");

	/* carets count characters, not bytes */
	buf_reset(&cap);
	const char *u = "t: \xC3\xA9\xC3\xA9x";
	struct diag_loc l6 = {"f", u, strlen(u), 1, 8};
	diag_error(&d, &l6, "here");
	STR_EQ(cap.p, "f:1:6: error: here\n 1 | t: \xC3\xA9\xC3\xA9x\n   |      ^\n");

	/* the printed column counts characters: an arrow (3 bytes) before
	 * it is one; a tab is one; the caret keeps the tab */
	buf_reset(&cap);
	const char *arrow = "a \xE2\x86\x92 b\tc\n";
	struct diag_loc l6b = {"f", arrow, strlen(arrow), 1, 9}; /* the c */
	diag_error(&d, &l6b, "c");
	STR_EQ(cap.p, "f:1:7: error: c\n 1 | a \xE2\x86\x92 b\tc\n   |      \t^\n");
	/* the caret lines up under wide characters (CJK: two columns each)
	 * and combining marks (none), while the column counts characters */
	buf_reset(&cap);
	const char *cjk = "\xE6\x97\xA5\xE6\x9C\xAC e\xCC\x81 $x\n"; /* 日本 é(combining) $x */
	struct diag_loc l6c = {"f", cjk, strlen(cjk), 1, 12}; /* the $ */
	diag_error(&d, &l6c, "wide");
	STR_EQ(cap.p, "f:1:7: error: wide\n 1 | \xE6\x97\xA5\xE6\x9C\xAC e\xCC\x81 $x\n   |        ^\n");
	buf_reset(&cap);
	struct diag_format_test {
		int col;
		const char *want;
	} at_ends[] = {{1, "f:1:1: error: first\n 1 | a \xE2\x86\x92 b\tc\n   | ^\n"},
		       {10, "f:1:8: error: first\n 1 | a \xE2\x86\x92 b\tc\n   |      \t ^\n"}};
	for (size_t i = 0; i < 2; i++) {
		buf_reset(&cap);
		struct diag_loc e = {"f", arrow, strlen(arrow), 1, at_ends[i].col};
		diag_error(&d, &e, "first");
		STR_EQ(cap.p, at_ends[i].want);
	}
	/* without the source text, the byte column as it is */
	buf_reset(&cap);
	struct buf fl;
	buf_init(&fl);
	struct diag_loc nosrc = {"f", NULL, 0, 1, 10};
	diag_format_loc(&fl, &nosrc);
	STR_EQ(fl.p, "f:1:10");
	buf_reset(&fl);
	diag_format_loc(&fl, &l6b);
	STR_EQ(fl.p, "f:1:7");
	buf_fini(&fl);

	/* a line of 5,000 characters: a window of 100 around the column,
	 * "…" where it was cut, the column in characters */
	{
		struct buf line;
		buf_init(&line);
		buf_puts(&line, "intro\n");
		for (int i = 0; i < 1000; i++) /* 1,000 arrows: 3,000 bytes */
			buf_puts(&line, "\xE2\x86\x92");
		for (int i = 0; i < 3990; i++)
			buf_putc(&line, (char)('a' + i % 26));
		buf_puts(&line, "ERROR\tend!\nlast\n"); /* 5,000 characters */
		const char *bol = strchr(line.p, '\n') + 1;
		size_t err = (size_t)(strstr(line.p, "ERROR") - bol); /* bytes */
		struct diag_loc lg = {"long.md", line.p, line.len, 2, (int)err + 1};
		buf_reset(&cap);
		diag_error(&d, &lg, "long");
		/* ERROR is character 4,991 */
		OK(strncmp(cap.p, "long.md:2:4991: error: long\n 2 | \xE2\x80\xA6", 33) == 0);
		const char *r1 = strchr(cap.p, '\n') + 1, *r2 = strchr(r1, '\n') + 1;
		/* 60 characters before the column, 40 from it: to the end */
		INT_EQ(r2 - r1, (long)(strlen(" 2 | ") + 3 + 100 + 1));
		OK(strncmp(r2 - 11, "ERROR\tend!\n", 11) == 0);
		INT_EQ(caret_at(r2), 1 + 90); /* the window ends with the line */
		/* near the start of the line, among the arrows: cut on the right */
		struct diag_loc ls = {"long.md", line.p, line.len, 2, 3 * 10 + 1};
		buf_reset(&cap);
		diag_error(&d, &ls, "arrow");
		r1 = strchr(cap.p, '\n') + 1;
		r2 = strchr(r1, '\n') + 1;
		OK(strncmp(cap.p, "long.md:2:11: error: arrow\n 2 | \xE2\x86\x92", 30) == 0);
		INT_EQ(r2 - r1, (long)(strlen(" 2 | ") + 3 * 100 + 3 + 1));
		OK(strncmp(r2 - 4, "\xE2\x80\xA6\n", 4) == 0);
		INT_EQ(caret_at(r2), 10);
		/* in the middle: cut on both sides */
		struct diag_loc lm = {"long.md", line.p, line.len, 2, 3000 + 2000 + 1};
		buf_reset(&cap);
		diag_error(&d, &lm, "middle");
		r1 = strchr(cap.p, '\n') + 1;
		r2 = strchr(r1, '\n') + 1;
		OK(strncmp(cap.p, "long.md:2:3001: error: middle\n 2 | \xE2\x80\xA6", 35) == 0);
		INT_EQ(r2 - r1, (long)(strlen(" 2 | ") + 3 + 100 + 3 + 1));
		OK(strncmp(r2 - 4, "\xE2\x80\xA6\n", 4) == 0);
		INT_EQ(caret_at(r2), 1 + 60);
		/* at column 1 of the long line */
		struct diag_loc l1c = {"long.md", line.p, line.len, 2, 1};
		buf_reset(&cap);
		diag_error(&d, &l1c, "start");
		OK(strncmp(cap.p, "long.md:2:1: error: start\n", 26) == 0);
		OK(strstr(cap.p, "\n   | ^\n") != NULL);
		buf_fini(&line);
	}

	/* a line past the end of the source: no excerpt */
	buf_reset(&cap);
	struct diag_loc l7 = {"f", "one", 3, 9, 1};
	diag_error(&d, &l7, "far");
	STR_EQ(cap.p, "f:9:1: error: far\n");

	/* many distinct messages grow the seen-set */
	for (int i = 0; i < 1000; i++)
		diag_error(&d, &l4, "message %d", i);
	INT_EQ(d.errors, 1 + 2 + 1 + 1 + 1 + 1 + 1 + 2 + 4 + 1000);

	/* at most DIAG_MAX_FILE_ERRORS errors of a file are printed; the
	 * others count, and the first of them prints a note instead */
	for (int defer = 0; defer < 2; defer++) {
		struct diag dl;
		struct buf lc;
		buf_init(&lc);
		diag_init(&dl, NULL);
		dl.capture = &lc;
		dl.defer = defer;
		static char big[160 * 2];
		for (int i = 0; i < 160; i++)
			memcpy(big + 2 * i, "x\n", 2);
		int wrong = 0; /* diag_file_full: from the 100th error on */
		for (int i = 1; i <= 150; i++) {
			struct diag_loc at = {"content/posts/big.md", big, sizeof big, i, 1};
			if (diag_file_full(&dl, "content/posts/big.md") != (i > DIAG_MAX_FILE_ERRORS))
				wrong++;
			diag_error(&dl, &at, "bad %d", i);
			diag_error(&dl, &at, "bad %d", i); /* the same: once */
		}
		struct diag_loc other = {"content/posts/small.md", NULL, 0, 3, 1};
		diag_error(&dl, &other, "fine");
		struct diag_loc w = {"content/posts/big.md", NULL, 0, 200, 1};
		diag_warning(&dl, &w, "still shown");
		INT_EQ(wrong, 0);
		OK(!diag_file_full(&dl, "content/posts/small.md"));
		OK(!diag_file_full(&dl, NULL));
		diag_flush(&dl);
		INT_EQ(dl.errors, 151);
		INT_EQ(dl.warnings, 1);
		int shown = 0;
		for (const char *p = lc.p; (p = strstr(p, "big.md:")); p++)
			if (strncmp(strchr(p, ' '), " error: bad ", 12) == 0)
				shown++;
		INT_EQ(shown, DIAG_MAX_FILE_ERRORS);
		OK(strstr(lc.p, "content/posts/big.md:100:1: error: bad 100\n") != NULL);
		OK(strstr(lc.p, "bad 101") == NULL);
		OK(strstr(lc.p, "content/posts/big.md:101:1: note: more than 100 errors in this file: the others are "
				"not shown (fix these first)\n") != NULL);
		OK(strstr(lc.p, "content/posts/small.md:3:1: error: fine\n") != NULL);
		OK(strstr(lc.p, "content/posts/big.md:200:1: warning: still shown\n") != NULL);
		diag_fini(&dl);
		buf_fini(&lc);
	}

	/* diag_too_big: the place where the limit falls */
	buf_reset(&cap);
	const char *text = "ab\ncdef\ngh";
	OK(!diag_too_big(&d, "content/posts/x.md", text, 9, 9, "split it"));
	OK(diag_too_big(&d, "content/posts/x.md", text, 10, 9, "split it"));
	STR_EQ(cap.p, "content/posts/x.md:3:2: error: file larger than 9 bytes: folio reads at most 9 bytes of a post, "
		      "page, template or YAML file (hint: split it)\n");
	buf_reset(&cap);
	OK(diag_too_big(&d, "t.html", text, 6, 5, "split it"));
	STR_EQ(cap.p, "t.html:2:3: error: file larger than 5 bytes: folio reads at most 5 bytes of a post, page, "
		      "template or YAML file (hint: split it)\n");

	const char *keys[] = {"title", "date", "tags", "summary", NULL};
	STR_EQ(diag_suggest("titel", 5, keys), "title");
	STR_EQ(diag_suggest("tag", 3, keys), "tags");
	OK(diag_suggest("zzzzzz", 6, keys) == NULL);
	OK(diag_suggest("title", 5, keys) == NULL); /* an exact match is no typo */
	OK(diag_suggest("x", 1, keys) == NULL);

	/* diag_guess: candidates as pointer+length, not NUL-terminated */
	const char *names = "series-oneXseries-two";
	struct diag_guess g;
	size_t gn = 0;
	diag_guess_init(&g, "seires-two", 10);
	diag_guess_try(&g, names, 10);
	diag_guess_try(&g, names + 11, 10);
	OK(diag_guess_best(&g, &gn) == names + 11);
	INT_EQ(gn, 10);
	diag_guess_init(&g, "series-one", 10); /* exact: no typo */
	diag_guess_try(&g, names + 11, 10);
	diag_guess_try(&g, names, 10);
	OK(diag_guess_best(&g, &gn) == NULL);
	diag_guess_init(&g, "abcdefghi", 9); /* 4 letters more than the 3 edits allowed */
	diag_guess_try(&g, "abcdefghijklm", 13);
	OK(diag_guess_best(&g, &gn) == NULL);
	diag_guess_init(&g, "abcdefghi", 9);
	diag_guess_try(&g, "abcdefghijkl", 12);
	OK(diag_guess_best(&g, &gn) != NULL);
	char longw[66];
	memset(longw, 'a', sizeof longw);
	diag_guess_init(&g, longw, 65); /* over 64 bytes: never measured */
	diag_guess_try(&g, longw, 64);
	OK(diag_guess_best(&g, &gn) == NULL);
	diag_guess_init(&g, longw, 64);
	diag_guess_try(&g, longw, 63);
	OK(diag_guess_best(&g, &gn) == longw);
	/* the first of equally close candidates, as diag_suggest */
	const char *ties[] = {"titla", "titlb", "title", NULL};
	STR_EQ(diag_suggest("titlx", 5, ties), "titla");

	/* a text inside a file: its lines moved by those before it */
	struct diag_src in = {"content/posts/a.md", "---\ntitle: x\n---\nbody", 22, 3};
	struct diag_loc at = diag_src_at(&in, 1, 2);
	STR_EQ(at.path, "content/posts/a.md");
	OK(at.src == in.src && at.src_len == 22);
	INT_EQ(at.line, 4);
	INT_EQ(at.col, 2);
	/* diag_line_col: '\n' ends a line, nothing else does */
	size_t line, start;
	diag_line_col("ab\ncd\r\nef", 9, &line, &start);
	INT_EQ(line, 2);
	INT_EQ(start, 7);
	diag_line_col("ab\rcd", 4, &line, &start);
	INT_EQ(line, 0);
	INT_EQ(start, 0);
	diag_line_col("ab\n", 3, &line, &start);
	INT_EQ(line, 1);
	INT_EQ(start, 3);

	diag_fini(&d);
	buf_fini(&cap);
}
