/* fuzz_links.c: libFuzzer target for the links of the built site
 * (links.c): the tolerant HTML scanner, character references, the base
 * path of a URL, the rewriting of a post body's links (with base "/" and
 * "/blog/"), a page's record, and the link check over pages made of the
 * input.
 *
 * An input is the HTML of one or more pages: a line "@@@ OUT" starts the
 * page written as OUT ("posts/x/index.html"); the text before the first
 * such line is the page index.html. Each page's text is also its source
 * (content/pN.md), where the check looks for a broken link's place, and
 * the whole input is a template (templates/base.html). The first line is
 * also read as a base_url.
 *
 * Checked beside the sanitizers: every value the scanner reports lies in
 * the input where its offset says; a record is a list of distinct
 * entries, each 'i' or 'l' and NUL-terminated; a rewrite that changes
 * nothing gives the text back; a check in LINKS_WARN reports no error and
 * counts no broken link; one in LINKS_ERROR counts at most the links it
 * checked; a check that reported nothing leaves a memo that holds for
 * its own build, one that reported something none; any bytes (the
 * input) are read as a memo without harm.
 *
 * With FUZZ_SHOW set in the environment, the rewritten pages and the
 * check's messages are printed. */
#include "fuzz.h"

#include "base/arena.h"
#include "base/buf.h"
#include "base/diag.h"
#include "check/links.h"

#define MAX_PAGES 8

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

struct scan_ctx {
	const char *text;
	size_t len;
	size_t n;
	struct buf un;
};

static int on_value(void *ctx, enum links_kind kind, const char *v, size_t n, size_t at)
{
	struct scan_ctx *s = ctx;
	if ((kind != LINKS_URL && kind != LINKS_ID) || at > s->len || n > s->len - at || v != s->text + at) {
		fprintf(stderr, "links_scan reported a value outside the text: at %zu, %zu bytes of %zu\n", at, n,
			s->len);
		abort();
	}
	buf_reset(&s->un);
	links_unescape(&s->un, v, n);
	s->n++;
	return 0;
}

static void scan(const char *text, size_t len)
{
	struct scan_ctx s = {text, len, 0, {0}};
	buf_init(&s.un);
	if (links_scan(text, len, on_value, &s) != 0)
		abort();
	buf_fini(&s.un);
}

/* resolve: any content/...md file is a page: "content/posts/x.md" ->
 * "/posts/x/", "content/b/index.md" -> "/b/". */
static const char *resolve(void *ctx, const char *path, size_t len)
{
	struct arena *a = ctx;
	if (memchr(path, '\0', len) || strlen(path) != len)
		abort(); /* the resolver is given a C string */
	if (len < 11 || memcmp(path, "content/", 8) || memcmp(path + len - 3, ".md", 3))
		return NULL;
	size_t stem = len - 11;
	if (stem >= 5 && !memcmp(path + 8 + stem - 5, "index", 5))
		stem -= 5;
	char *u = arena_alloc(a, stem + 3);
	u[0] = '/';
	memcpy(u + 1, path + 8, stem);
	size_t n = 1 + stem;
	if (u[n - 1] != '/')
		u[n++] = '/';
	u[n] = '\0';
	return u;
}

static int cmp_entry(const void *x, const void *y)
{
	return strcmp(*(const char *const *)x, *(const char *const *)y);
}

static void check_record(const char *rec, size_t len)
{
	if (!rec) {
		if (len)
			abort();
		return;
	}
	if (!len || rec[len - 1] != '\0')
		abort();
	size_t n = 0;
	for (const char *p = rec; p < rec + len; p += strlen(p) + 1) {
		if (*p != 'i' && *p != 'l')
			abort();
		if (*p == 'l' && !p[1])
			abort(); /* href="" is the page itself, never recorded */
		n++;
	}
	const char **e = malloc(n * sizeof *e);
	n = 0;
	for (const char *p = rec; p < rec + len; p += strlen(p) + 1)
		e[n++] = p;
	qsort(e, n, sizeof *e, cmp_entry);
	for (size_t i = 1; i < n; i++)
		if (!strcmp(e[i - 1], e[i])) {
			fprintf(stderr, "links_record lists '%s' twice\n", e[i]);
			abort();
		}
	free(e);
}

struct page {
	char *out, *src;
	struct str html; /* the rewritten text */
	char *rec;
	size_t rec_len;
};

static int externals;

static void on_external(void *ctx, const char *url, const char *path, int line, int col)
{
	(void)ctx;
	if (strncmp(url, "http://", 7) && strncmp(url, "https://", 8))
		abort();
	if (!path || line < 0 || col < 0)
		abort();
	externals++;
}

static void check(struct fuzz_part *parts, size_t nparts, const char *whole, size_t whole_len,
		  const char *base_path, enum links_mode mode)
{
	struct arena *a = arena_new();
	struct page pages[MAX_PAGES];
	size_t nlinks = 0;
	for (size_t i = 0; i < nparts; i++) {
		struct page *p = &pages[i];
		const struct fuzz_part *part = &parts[i];
		p->out = part->name_len && !memchr(part->name, '\0', part->name_len)
				 ? strndup(part->name, part->name_len)
				 : strdup("index.html");
		char src[32];
		snprintf(src, sizeof src, "content/p%zu.md", i);
		p->src = strdup(src);
		p->html = links_rewrite(a, (struct str){part->text, part->len}, p->src, base_path, resolve, a);
		if (p->html.p != part->text) {
			if (p->html.p[p->html.len] != '\0')
				abort();
			scan(p->html.p, p->html.len);
		}
		p->rec = links_record(&p->html, 1, &p->rec_len);
		check_record(p->rec, p->rec_len);
		for (const char *r = p->rec; r && r < p->rec + p->rec_len; r += strlen(r) + 1)
			nlinks += *r == 'l';
		if (getenv("FUZZ_SHOW"))
			fprintf(stderr, "--- %s under %s\n%.*s\n", p->out, base_path, STR_FMT(p->html));
	}

	struct links_check *lc = links_check_new(base_path, mode);
	links_check_file(lc, "img/a.png");
	links_check_file(lc, "files/a b.pdf");
	links_check_later(lc, "posts/draft/index.html", "a draft");
	static const char *const ignore[] = {"*.zip", "/skip/*"};
	for (size_t i = 0; i < nparts; i++)
		links_check_page(lc, pages[i].out, pages[i].rec, pages[i].rec_len, pages[i].src, parts[i].text,
				 parts[i].len, ignore, 2);
	links_check_page(lc, "posts/x/index.html", NULL, 0, NULL, NULL, 0, NULL, 0);
	struct links_text texts[] = {{"folio.yml", "title: t\n", 9}, {"templates/base.html", whole, whole_len}};
	links_check_texts(lc, texts, 2);

	struct diag d;
	struct buf cap;
	buf_init(&cap);
	diag_init(&d, NULL);
	d.capture = &cap;
	size_t broken = links_check_run(lc, &d);
	size_t count = links_check_count(lc);
	if (getenv("FUZZ_SHOW"))
		fprintf(stderr, "--- the check under %s: %zu broken of %zu\n%s\n", base_path, broken, count,
			cap.p ? cap.p : "");
	if (count > nlinks || broken > count)
		abort();
	if (mode == LINKS_WARN && (broken || d.errors))
		abort();
	if (mode == LINKS_ERROR && broken && !d.errors)
		abort();
	size_t memo_len = 0;
	char *memo = links_check_memo(lc, 5, NULL, 0, &memo_len);
	if (!memo || !links_check_memo_holds(lc, 5, memo, memo_len) || links_memo_key(memo, memo_len) != 5)
		abort();
	/* it names the pages that reported something: some, exactly when
	 * anything was reported */
	const char *outs[MAX_PAGES + 1];
	unsigned char which[MAX_PAGES + 1] = {0};
	size_t nouts = 0;
	for (size_t i = 0; i < nparts; i++)
		outs[nouts++] = pages[i].out;
	outs[nouts++] = "posts/x/index.html";
	size_t told = links_memo_told(memo, memo_len, outs, nouts, which);
	if (!told != !(d.errors || d.warnings))
		abort();
	free(memo);
	(void)links_check_memo_holds(lc, links_memo_key(whole, whole_len), whole, whole_len);
	externals = 0;
	links_check_external(lc, "https://example.org/blog/", on_external, NULL);
	diag_fini(&d);
	buf_fini(&cap);
	links_check_free(lc);
	for (size_t i = 0; i < nparts; i++) {
		free(pages[i].out);
		free(pages[i].src);
		free(pages[i].rec);
	}
	arena_free(a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* a copy of just the input, so that ASan sees a read past it */
	char *text = malloc(size ? size : 1);
	memcpy(text, data, size);

	scan(text, size);

	struct arena *a = arena_new();
	const char *nl = memchr(text, '\n', size);
	size_t first = nl ? (size_t)(nl - text) : size;
	const char *nul = memchr(text, '\0', first);
	if (nul)
		first = (size_t)(nul - text); /* a base_url is a C string */
	const char *bp = links_base_path(a, text, first < 300 ? first : 300);
	if (bp[0] != '/' || bp[strlen(bp) - 1] != '/')
		abort();

	/* a rewrite that has nothing to do gives the text back */
	struct str html = {text, size};
	struct str r = links_rewrite(a, html, "content/posts/x.md", "/", resolve, a);
	if (r.p != text && (memmem(text, size, ".md", 3) == NULL && memmem(text, size, "@/", 2) == NULL))
		abort();
	r = links_rewrite(a, html, NULL, NULL, resolve, a);
	if (r.p != text)
		scan(r.p, r.len);

	size_t rec_len = 0;
	char *rec = links_record(&html, 1, &rec_len);
	check_record(rec, rec_len);
	free(rec);

	struct fuzz_part parts[MAX_PAGES];
	size_t nparts = fuzz_split(text, size, "@@@ ", parts, MAX_PAGES);
	check(parts, nparts, text, size, "/", LINKS_ERROR);
	check(parts, nparts, text, size, "/blog/", LINKS_WARN);
	check(parts, nparts, text, size, bp, LINKS_ERROR);

	arena_free(a);
	free(text);
	return 0;
}
