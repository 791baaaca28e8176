/* fuzz_bibtex.c: libFuzzer target for the BibTeX reader (formats/bibtex.h:
 * entries, values, @string, errors with places) and what is made of what
 * it reads: every field's LaTeX as text and as HTML, every author and
 * editor list split into names.
 *
 * An input is a .bib file's text, then optionally a line "@@@ md" and a
 * Markdown body that cites from it (md/cite.c), rendered in both styles.
 * The reader must keep its promises: every key found once and found again
 * by bibtex_find, each error at a line and column inside the text, the
 * HTML of a value with its elements paired and nothing unescaped; every
 * citation's link must lead to an entry of the References; and it must
 * stay linear (run.sh's timeout). */
#include "fuzz.h"

#include "formats/bibtex.h"
#include "md/markdown.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

/* check_html: the HTML bibtex_latex made holds no raw '<' but its own
 * elements', each closed, and no '"' or '>' outside them. */
static void check_html(const struct buf *h)
{
	size_t depth = 0;
	for (size_t i = 0; i < h->len; i++) {
		const char *p = h->p + i;
		if (*p == '"' || *p == '>')
			abort();
		if (*p != '<')
			continue;
		static const char *const tags[] = {"<em>", "</em>", "<strong>", "</strong>", "<code>", "</code>"};
		size_t k = 0;
		while (k < 6 && strncmp(p, tags[k], strlen(tags[k])))
			k++;
		if (k == 6)
			abort(); /* a '<' of the input, unescaped */
		if (k % 2 == 0)
			depth++;
		else if (!depth--)
			abort();
		i += strlen(tags[k]) - 1;
	}
	if (depth)
		abort();
}

/* cite: body rendered with b as its bibliography in style; each
 * href="#ref-..." of the HTML has its id="ref-..." there. */
static void cite(struct arena *a, const struct bibtex *b, const char *body, size_t len, int style)
{
	const struct bibtex *const bibs[] = {b};
	struct md_options o = {.smart = 1, .unsafe = 1, .bibs = bibs, .nbibs = 1, .cite_style = style};
	struct diag d;
	diag_init(&d, NULL);
	struct md_doc doc;
	char *copy = malloc(len + 1); /* exactly the body, for ASan */
	memcpy(copy, body, len);
	md_render(a, &o, &d, "content/posts/fuzz.md", copy, len, copy, len, 4, &doc);
	const char *h = doc.html.p, *end = doc.html.p + doc.html.len;
	char id[512];
	for (const char *p = h; (p = memmem(p, (size_t)(end - p), "href=\"#ref-", 11));) {
		p += 11;
		const char *q = memchr(p, '"', (size_t)(end - p));
		if (!q)
			abort();
		if ((size_t)(q - p) < sizeof id - 12) {
			snprintf(id, sizeof id, "id=\"ref-%.*s\"", (int)(q - p), p);
			if (!memmem(h, doc.html.len, id, strlen(id))) {
				fprintf(stderr, "no %s in:\n%.*s\n", id, (int)doc.html.len, h);
				abort(); /* a citation that leads nowhere */
			}
		}
	}
	free(copy);
	diag_fini(&d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct arena *a = arena_new();
	struct fuzz_part parts[2];
	size_t nparts = fuzz_split((const char *)data, size, "@@@ md", parts, 2);
	const char *src = parts[0].text;
	size = parts[0].len;
	struct bibtex b;
	size_t nerr = bibtex_parse(a, src, size, &b);
	if (nerr != b.nerrors || nerr > BIBTEX_MAX_ERRORS + 1)
		abort();
	size_t lines = 1;
	for (size_t i = 0; i < size; i++)
		lines += src[i] == '\n';
	for (size_t i = 0; i < b.nerrors; i++)
		if (b.errors[i].line < 1 || (size_t)b.errors[i].line > lines || b.errors[i].col < 1 || !b.errors[i].msg)
			abort();
	struct buf t;
	buf_init(&t);
	for (size_t i = 0; i < b.n; i++) {
		const struct bib_entry *e = &b.entries[i];
		if (!e->key.len || bibtex_find(&b, e->key) != e)
			abort();
		for (size_t j = 0; j < e->nfields; j++) {
			struct str v = e->fields[j].value;
			if (v.len > BIBTEX_VALUE_MAX)
				abort();
			buf_reset(&t);
			bibtex_latex(&t, v, 0);
			buf_reset(&t);
			bibtex_latex(&t, v, 1);
			check_html(&t);
			struct bib_name *names;
			int others;
			size_t n = bibtex_names(a, v, &names, &others);
			for (size_t k = 0; k < n; k++) {
				buf_reset(&t);
				bibtex_latex(&t, names[k].last, 1);
				check_html(&t);
				bibtex_latex(&t, names[k].first, 0);
			}
		}
	}
	buf_fini(&t);
	if (nparts == 2) {
		cite(a, &b, parts[1].text, parts[1].len, MD_CITE_NUMERIC);
		cite(a, &b, parts[1].text, parts[1].len, MD_CITE_AUTHOR_YEAR);
	}
	bibtex_fini(&b);
	arena_free(a);
	return 0;
}
