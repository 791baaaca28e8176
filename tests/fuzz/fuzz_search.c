/* fuzz_search.c: libFuzzer target for the search index's reading of text
 * (src/search/words.c, the tokeniser) and what is made of it: the words
 * of the input as text and as a body's HTML, their stems, and an index of
 * documents made of the input.
 *
 * The input is the text; its first byte also picks the options (body,
 * pages, stem). Lines "@@@ " split it into documents, the first line of
 * each its title, the rest its HTML body.
 *
 * Checked beside the sanitizers: every word is 1 to SEARCH_WORD_MAX bytes
 * of valid UTF-8 with no ASCII upper-case letter, space or punctuation;
 * words of plain text are never headings; the same input gives the same
 * index twice (the same files, byte for byte), whose last file is
 * search/index.json; and so does the index of the documents with the
 * first and last bodies swapped, kept (search_live) and patched back:
 * the patch is taken (the lengths add up the same), and its files are
 * the same names and bytes (a file it kept: the kept index's). */
#include "fuzz.h"

#include "base/arena.h"
#include "base/buf.h"
#include "search/search.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

struct check {
	int text; /* words of plain text: never headings */
	struct search_stemmer *st;
	size_t n;
};

static void on_word(void *ctx, const char *w, size_t n, enum search_field f)
{
	struct check *c = ctx;
	if (n == 0 || n > SEARCH_WORD_MAX || utf8_bad(w, n) != n) {
		fprintf(stderr, "a word of %zu bytes that is not 1 to %d bytes of UTF-8\n", n, SEARCH_WORD_MAX);
		abort();
	}
	for (size_t i = 0; i < n; i++) {
		unsigned char b = (unsigned char)w[i];
		if (b < 0x80 && !((b >= 'a' && b <= 'z') || (b >= '0' && b <= '9'))) {
			fprintf(stderr, "a word with the byte 0x%02x: %.*s\n", b, (int)n, w);
			abort();
		}
	}
	if (c->text && f != SEARCH_BODY) {
		fputs("a word of plain text in a heading\n", stderr);
		abort();
	}
	size_t sl;
	const char *s = search_stem(c->st, w, n, &sl);
	if (!s || sl > 4 * n + 16) {
		fputs("a stem far longer than its word\n", stderr);
		abort();
	}
	c->n++;
}

#define MAX_DOCS 16

static const struct search_file *file_of(const struct search_index *ix, const char *rel)
{
	for (size_t i = 0; i < ix->nfiles; i++)
		if (!strcmp(ix->files[i].rel, rel))
			return &ix->files[i];
	return NULL;
}

/* check_patch: docs' index made by patching the index of the same
 * documents with the bodies of the first and the last swapped: x's files */
static void check_patch(struct arena *a, const struct search_options *o, const struct search_doc *docs, size_t nd,
			const struct search_filter *f, size_t ntags, const struct search_index *x)
{
	struct search_doc sw[MAX_DOCS];
	memcpy(sw, docs, nd * sizeof *sw);
	sw[0].body_html = docs[nd - 1].body_html;
	sw[0].excerpt = docs[nd - 1].excerpt;
	sw[nd - 1].body_html = docs[0].body_html;
	sw[nd - 1].excerpt = docs[0].excerpt;
	struct search_live *L;
	struct search_index k, p;
	search_index_docs_kept(a, o, sw, nd, f, 1, f, ntags, &k, &L);
	if (search_live_update(L, a, o, docs, nd, &p)) {
		fputs("a patch of two bodies swapped was refused\n", stderr);
		abort();
	}
	if (p.nfiles != x->nfiles) {
		fprintf(stderr, "a patched index has %zu files, the whole one %zu\n", p.nfiles, x->nfiles);
		abort();
	}
	for (size_t i = 0; i < p.nfiles; i++) {
		const struct search_file *pf = &p.files[i], *xf = &x->files[i];
		const struct search_file *had = pf->data ? pf : file_of(&k, pf->rel);
		if (strcmp(pf->rel, xf->rel) || !had || had->len != xf->len || memcmp(had->data, xf->data, xf->len)) {
			fprintf(stderr, "a patched index differs from the whole one in %s\n", xf->rel);
			abort();
		}
	}
	search_live_free(L);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	struct check c = {1, search_stemmer_new("en", 2), 0};
	search_words(text, size, SEARCH_BODY, on_word, &c);
	c.text = 0;
	search_html_words(text, size, on_word, &c);

	struct search_doc docs[MAX_DOCS];
	memset(docs, 0, sizeof docs);
	size_t nd = 0, at = 0;
	while (at <= size && nd < MAX_DOCS) {
		const char *start = text + at;
		size_t left = size - at;
		const char *next = left >= 4 ? memmem(start, left, "@@@ ", 4) : NULL;
		size_t len = next ? (size_t)(next - start) : left;
		const char *nl = memchr(start, '\n', len);
		size_t tl = nl ? (size_t)(nl - start) : len;
		struct search_doc *d = &docs[nd++];
		d->url = d->title = (struct str){start, tl};
		d->excerpt = d->body_html = (struct str){start + tl, len - tl};
		d->summary = (struct str){start, tl < 40 ? tl : 40};
		d->tags = &d->title;
		d->ntags = tl & 1;
		if (!next)
			break;
		at += len + 4;
	}
	unsigned opt = size ? data[0] : 0;
	struct search_options o = {opt & 1, 1, (opt >> 1) & 1, {(opt & 4) ? "de" : "en", 2}, 1, NULL};
	uint32_t all[MAX_DOCS];
	for (size_t i = 0; i < nd; i++)
		all[i] = (uint32_t)i;
	struct search_filter f = {{"all", 3}, all, nd};
	struct arena *a = arena_new();
	struct search_index x, y;
	search_index_docs(a, &o, docs, nd, &f, 1, &f, opt & 8 ? 1 : 0, &x);
	search_index_docs(a, &o, docs, nd, &f, 1, &f, opt & 8 ? 1 : 0, &y);
	if (x.nfiles != y.nfiles || !x.nfiles || strcmp(x.files[x.nfiles - 1].rel, "search/index.json")) {
		fputs("two indexes of one input differ in their files\n", stderr);
		abort();
	}
	for (size_t i = 0; i < x.nfiles; i++)
		if (strcmp(x.files[i].rel, y.files[i].rel) || x.files[i].len != y.files[i].len ||
		    memcmp(x.files[i].data, y.files[i].data, x.files[i].len)) {
			fprintf(stderr, "two indexes of one input differ in %s\n", x.files[i].rel);
			abort();
		}
	if (nd >= 2)
		check_patch(a, &o, docs, nd, &f, opt & 8 ? 1 : 0, &x);
	if (getenv("FUZZ_SHOW"))
		printf("%zu words, %zu documents, %zu files, %zu shards\n", c.n, nd, x.nfiles, x.nshards);
	arena_free(a);
	search_stemmer_free(c.st);
	return 0;
}
