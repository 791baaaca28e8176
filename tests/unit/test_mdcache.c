/* test_mdcache.c: the Markdown cache of a session: keys, body hashes, a
 * document stored and found again field by field (its table of contents
 * too), the files stamp, sweeps, a key put twice, a growing table,
 * concurrent use and a damaged pack file. */
#include "harness.h"

#include "base/arena.h"
#include "base/buf.h"
#include "md/markdown.h"
#include "cache/mdcache.h"
#include "incremental/rebuild.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static struct arena *arena;

static struct str s_of(const char *text)
{
	return (struct str){arena_strndup(arena, text, strlen(text)), strlen(text)};
}

/* sv: s as a C string (in the arena). */
static const char *sv(struct str s)
{
	return arena_strndup(arena, s.p ? s.p : "", s.len);
}

static int key_eq(struct md_key a, struct md_key b)
{
	return a.lo == b.lo && a.hi == b.hi;
}

static struct md_key key_of(const char *path)
{
	return md_cache_key(1, 0, path, 3, md_cache_body_hash("abc", 3), 4, NULL);
}

/* ---- keys and body hashes ---- */

static void test_keys(void)
{
	const char *body = "Some *text*.\n";
	size_t len = strlen(body);
	uint64_t h = md_cache_body_hash(body, len);
	struct md_key k = md_cache_key(42, 1, "content/posts/a.md", len, h, 5, "/site/content/posts/a");
	/* the same inputs, the same key (and strings compared by content) */
	char path[] = "content/posts/a.md", dir[] = "/site/content/posts/a";
	OK(key_eq(k, md_cache_key(42, 1, path, len, h, 5, dir)));
	OK(k.lo != 0 || k.hi != 0);

	/* each field changes it */
	OK(!key_eq(k, md_cache_key(43, 1, path, len, h, 5, dir)));           /* salt */
	OK(!key_eq(k, md_cache_key(42, 2, path, len, h, 5, dir)));           /* kind */
	OK(!key_eq(k, md_cache_key(42, 1, "content/posts/b.md", len, h, 5, dir))); /* path */
	OK(!key_eq(k, md_cache_key(42, 1, path, len + 1, h, 5, dir)));       /* length */
	OK(!key_eq(k, md_cache_key(42, 1, path, len, h ^ 1, 5, dir)));       /* body hash */
	OK(!key_eq(k, md_cache_key(42, 1, path, len, h, 6, dir)));           /* first line */
	OK(!key_eq(k, md_cache_key(42, 1, path, len, h, 5, "/site/x")));     /* asset folder */

	/* no asset folder, an empty one and "x" are three keys */
	struct md_key kn = md_cache_key(42, 1, path, len, h, 5, NULL);
	struct md_key ke = md_cache_key(42, 1, path, len, h, 5, "");
	struct md_key kx = md_cache_key(42, 1, path, len, h, 5, "x");
	OK(!key_eq(kn, ke));
	OK(!key_eq(kn, kx));
	OK(!key_eq(ke, kx));
	OK(key_eq(kn, md_cache_key(42, 1, path, len, h, 5, NULL)));
	/* where the path ends and the folder begins matters */
	OK(!key_eq(md_cache_key(0, 0, "ab", 0, 1, 0, "c"), md_cache_key(0, 0, "a", 0, 1, 0, "bc")));
	OK(!key_eq(md_cache_key(0, 0, "ab", 0, 1, 0, NULL), md_cache_key(0, 0, "a", 0, 1, 0, "b")));
	/* the salt is not just mixed into one half */
	struct md_key s1 = md_cache_key(1, 0, "p", 0, 1, 0, NULL), s2 = md_cache_key(2, 0, "p", 0, 1, 0, NULL);
	OK(s1.lo != s2.lo);
	OK(s1.hi != s2.hi);

	/* body hashes: never 0, the same for the same bytes, else not */
	OK(md_cache_body_hash("", 0) != 0);
	OK(md_cache_body_hash(NULL, 0) != 0);
	OK(md_cache_body_hash("a", 1) != 0);
	OK(md_cache_body_hash(body, len) == h);
	OK(md_cache_body_hash("Some *text*!\n", len) != h);
	OK(md_cache_body_hash(body, len - 1) != h);
	int zeros = 0, same = 0;
	uint64_t prev = 0;
	for (int i = 0; i < 20000; i++) {
		char t[32];
		int n = snprintf(t, sizeof t, "doc %d", i);
		uint64_t x = md_cache_body_hash(t, (size_t)n);
		zeros += x == 0;
		same += x == prev;
		prev = x;
	}
	INT_EQ(zeros, 0);
	INT_EQ(same, 0);
}

/* ---- a document stored and found again ---- */

/* sample: a document with every field set, and a table of contents of
 * two top-level headings, the first with two children, one of which has a
 * child of its own. */
static struct md_doc sample(void)
{
	struct md_doc d;
	memset(&d, 0, sizeof d);
	d.html = s_of("<h1 id=\"intro\">Intro</h1>\n<p>Text with \"quotes\" &amp; more.</p>\n<p><img src=\"fig.png\" alt=\"\"></p>\n");
	d.summary_html = s_of("<p>Text with \"quotes\" &amp; more.</p>");
	d.summary_text = s_of("Text with \"quotes\" & more. \xE2\x80\xA6");
	d.has_more = 1;
	struct md_toc *top = arena_alloc(arena, 2 * sizeof *top);
	struct md_toc *kids = arena_alloc(arena, 2 * sizeof *kids);
	struct md_toc *grand = arena_alloc(arena, 1 * sizeof *grand);
	top[0] = (struct md_toc){1, s_of("intro"), s_of("Intro"), s_of("Intro"), kids, 2};
	kids[0] = (struct md_toc){2, s_of("why-cudamemcpy-is-slow"), s_of("Why cudaMemcpy is slow"),
				  s_of("Why <code>cudaMemcpy</code> is slow"), grand, 1};
	kids[1] = (struct md_toc){2, s_of("empty"), s_of(""), s_of(""), NULL, 0};
	grand[0] = (struct md_toc){3, s_of("deep"), s_of("Deep"), s_of("<em>Deep</em>"), NULL, 0};
	top[1] = (struct md_toc){1, s_of("end"), s_of("The end"), s_of("The end"), NULL, 0};
	d.toc = top;
	d.ntoc = 2;
	d.nheadings = 5;
	d.words = 1234;
	d.code_words = 56;
	d.images = 0;
	d.cjk_chars = 7;
	d.math_spans = 3;
	d.has_model3d = 0;
	d.has_video = 0;
	d.deps = str_from("00000000000000ab content/posts/a/gemm.cu\n00000000000000cd+code/x.c\n");
	return d;
}

static int str_same(struct str a, struct str b)
{
	return a.len == b.len && (a.len == 0 || memcmp(a.p, b.p, a.len) == 0);
}

/* toc_same: the two trees hold the same headings; counts the entries. */
static int toc_same(const struct md_toc *a, const struct md_toc *b, size_t n, int *entries)
{
	for (size_t i = 0; i < n; i++) {
		++*entries;
		if (a[i].level != b[i].level || !str_same(a[i].id, b[i].id) || !str_same(a[i].text, b[i].text) ||
		    !str_same(a[i].html, b[i].html) || a[i].nchildren != b[i].nchildren)
			return 0;
		if (!toc_same(a[i].children, b[i].children, a[i].nchildren, entries))
			return 0;
	}
	return 1;
}

/* doc_same: every field of the two documents, the TOC compared deeply. */
static void doc_same(const struct md_doc *got, const struct md_doc *want)
{
	OK(str_same(got->html, want->html));
	OK(str_same(got->summary_html, want->summary_html));
	OK(str_same(got->summary_text, want->summary_text));
	INT_EQ(got->has_more, want->has_more);
	INT_EQ(got->ntoc, want->ntoc);
	INT_EQ(got->nheadings, want->nheadings);
	INT_EQ(got->words, want->words);
	INT_EQ(got->code_words, want->code_words);
	INT_EQ(got->images, want->images);
	INT_EQ(got->cjk_chars, want->cjk_chars);
	INT_EQ(got->math_spans, want->math_spans);
	INT_EQ(got->has_model3d, want->has_model3d);
	INT_EQ(got->has_video, want->has_video);
	OK(str_same(got->deps, want->deps));
	int entries = 0, want_entries = 0;
	OK(got->ntoc == 0 || got->toc != NULL);
	if (got->ntoc == want->ntoc) {
		OK(toc_same(got->toc, want->toc, got->ntoc, &entries));
		toc_same(want->toc, want->toc, want->ntoc, &want_entries);
		INT_EQ(entries, want_entries);
	}
}

static void test_round_trip(void)
{
	struct md_cache *c = md_cache_new();
	INT_EQ(md_cache_count(c), 0);
	INT_EQ(md_cache_bytes(c), 0);
	struct md_doc d = sample();
	struct md_key k = key_of("content/posts/a.md");
	md_cache_put(c, &k, 0, &d, 0);
	INT_EQ(md_cache_count(c), 1);
	OK(md_cache_bytes(c) >= d.html.len + d.summary_html.len + d.summary_text.len);

	struct arena *a = arena_new();
	struct md_doc got;
	memset(&got, 0xAB, sizeof got);
	INT_EQ(md_cache_get(c, &k, 0, a, &got), 1);
	doc_same(&got, &d);
	STR_EQ(got.html.p, d.html.p);
	STR_EQ(sv(got.toc[0].children[0].html), "Why <code>cudaMemcpy</code> is slow");
	STR_EQ(sv(got.toc[0].children[0].children[0].id), "deep");
	STR_EQ(sv(got.toc[1].text), "The end");
	/* a copy, not the caller's memory */
	OK(got.html.p != d.html.p);
	OK(got.toc != d.toc);
	/* the strings are NUL-terminated, as the renderer's are */
	INT_EQ(got.html.p[got.html.len], 0);
	INT_EQ(got.summary_html.p[got.summary_html.len], 0);
	INT_EQ(got.summary_text.p[got.summary_text.len], 0);

	/* the caller's document may go: the cache holds its own copy */
	char *html = (char *)d.html.p;
	memset(html, 'x', d.html.len);
	struct md_doc again;
	INT_EQ(md_cache_get(c, &k, 0, a, &again), 1);
	STR_EQ(again.html.p, "<h1 id=\"intro\">Intro</h1>\n<p>Text with \"quotes\" &amp; more.</p>\n<p><img src=\"fig.png\" alt=\"\"></p>\n");
	/* each get copies the table of contents into the arena given */
	OK(again.toc != got.toc);
	STR_EQ(sv(again.toc[0].id), "intro");

	/* a document with nothing in it */
	struct md_doc empty;
	memset(&empty, 0, sizeof empty);
	struct md_key ke = key_of("content/pages/empty.md");
	md_cache_put(c, &ke, 0, &empty, 0);
	memset(&got, 0xAB, sizeof got);
	INT_EQ(md_cache_get(c, &ke, 0, a, &got), 1);
	doc_same(&got, &empty);
	STR_EQ(got.html.p, "");
	INT_EQ(md_cache_count(c), 2);

	/* an unknown key */
	struct md_key ku = key_of("content/posts/unknown.md");
	memset(&got, 0, sizeof got);
	INT_EQ(md_cache_get(c, &ku, 0, a, &got), 0);
	struct md_key kz = {0, 0};
	INT_EQ(md_cache_get(c, &kz, 0, a, &got), 0);
	/* the same low half is not enough */
	struct md_key kh = k;
	kh.hi ^= 1;
	INT_EQ(md_cache_get(c, &kh, 0, a, &got), 0);
	INT_EQ(md_cache_count(c), 2);
	arena_free(a);
	md_cache_free(c);
}

/* ---- an entry found stale by its caller (a file it included changed) ---- */

static void test_forget(void)
{
	struct md_cache *c = md_cache_new();
	struct arena *a = arena_new();
	struct md_doc d = sample(), got;
	struct md_key k = key_of("content/posts/inc.md"), other = key_of("content/posts/other.md");
	md_cache_put(c, &k, 7, &d, 0);
	md_cache_put(c, &other, 7, &d, 0);
	INT_EQ(md_cache_get(c, &k, 7, a, &got), 1);
	STR_EQ(sv(got.deps), "00000000000000ab content/posts/a/gemm.cu\n00000000000000cd+code/x.c\n");
	md_cache_forget(c, &k);
	INT_EQ(md_cache_get(c, &k, 7, a, &got), 0);
	INT_EQ(md_cache_get(c, &other, 7, a, &got), 1); /* the others stay */
	/* rendered again: the new document replaces it */
	struct md_doc fresh = sample();
	fresh.deps = str_from("00000000000000ef content/posts/a/gemm.cu\n");
	md_cache_put(c, &k, 7, &fresh, 0);
	INT_EQ(md_cache_get(c, &k, 7, a, &got), 1);
	STR_EQ(sv(got.deps), "00000000000000ef content/posts/a/gemm.cu\n");
	/* forgotten and not stored again (the render failed): the sweep drops it */
	md_cache_forget(c, &k);
	INT_EQ(md_cache_get(c, &other, 7, a, &got), 1);
	md_cache_sweep(c);
	INT_EQ(md_cache_count(c), 1);
	INT_EQ(md_cache_get(c, &k, 7, a, &got), 0);
	/* a key it does not have: nothing */
	struct md_key none = key_of("content/posts/none.md");
	md_cache_forget(c, &none);
	INT_EQ(md_cache_count(c), 1);
	arena_free(a);
	md_cache_free(c);
}

/* ---- the stamp of the files documents read ---- */

static void test_files_stamp(void)
{
	struct md_cache *c = md_cache_new();
	struct arena *a = arena_new();
	struct md_doc got;
	struct md_doc plain = sample();
	struct md_doc img = sample(), model = sample(), video = sample();
	img.images = 2;
	model.has_model3d = 1;
	video.has_video = 1;
	struct md_key kp = key_of("plain"), ki = key_of("img"), km = key_of("model"), kv = key_of("video");
	md_cache_put(c, &kp, 100, &plain, 0);
	md_cache_put(c, &ki, 100, &img, 0);
	md_cache_put(c, &km, 100, &model, 0);
	md_cache_put(c, &kv, 100, &video, 0);
	INT_EQ(md_cache_count(c), 4);

	/* with the stamp they were stored with: all found */
	INT_EQ(md_cache_get(c, &kp, 100, a, &got), 1);
	INT_EQ(md_cache_get(c, &ki, 100, a, &got), 1);
	doc_same(&got, &img);
	INT_EQ(got.images, 2);
	INT_EQ(md_cache_get(c, &km, 100, a, &got), 1);
	INT_EQ(got.has_model3d, 1);
	INT_EQ(md_cache_get(c, &kv, 100, a, &got), 1);
	INT_EQ(got.has_video, 1);

	/* another stamp: only the document that reads no files */
	INT_EQ(md_cache_get(c, &kp, 101, a, &got), 1);
	INT_EQ(md_cache_get(c, &kp, 0, a, &got), 1);
	INT_EQ(md_cache_get(c, &ki, 101, a, &got), 0);
	INT_EQ(md_cache_get(c, &km, 101, a, &got), 0);
	INT_EQ(md_cache_get(c, &kv, 101, a, &got), 0);
	INT_EQ(md_cache_get(c, &ki, 0, a, &got), 0);
	/* a miss does not drop it: the old stamp still finds it */
	INT_EQ(md_cache_get(c, &ki, 100, a, &got), 1);
	INT_EQ(md_cache_count(c), 4);
	/* rendered again with the new stamp, it replaces the old entry */
	struct md_doc fresh = got;
	fresh.html = STR_LIT("<p>new size</p>");
	md_cache_put(c, &ki, 101, &fresh, 0);
	INT_EQ(md_cache_count(c), 4);
	INT_EQ(md_cache_get(c, &ki, 101, a, &got), 1);
	OK(str_eq_cstr(got.html, "<p>new size</p>"));
	INT_EQ(md_cache_get(c, &ki, 100, a, &got), 0);
	arena_free(a);
	md_cache_free(c);
}

/* ---- sweeps, a key put twice ---- */

static void test_sweep(void)
{
	struct md_cache *c = md_cache_new();
	struct arena *a = arena_new();
	struct md_doc got;
	struct md_doc da = sample(), db = sample();
	db.html = s_of("<p>B, a longer body than A's to tell their sizes apart.</p>\n");
	struct md_key ka = key_of("a"), kb = key_of("b"), kc = key_of("c");

	/* the bytes of each alone */
	md_cache_put(c, &ka, 0, &da, 0);
	size_t bytes_a = md_cache_bytes(c);
	md_cache_put(c, &kb, 0, &db, 0);
	size_t bytes_ab = md_cache_bytes(c);
	OK(bytes_a > 0);
	OK(bytes_ab > bytes_a);
	size_t bytes_b = bytes_ab - bytes_a;
	OK(bytes_b != bytes_a);
	INT_EQ(md_cache_count(c), 2);

	/* both were put since the last sweep: both stay */
	md_cache_sweep(c);
	INT_EQ(md_cache_count(c), 2);
	INT_EQ(md_cache_bytes(c), bytes_ab);

	/* only a is got: b goes at the next sweep */
	INT_EQ(md_cache_get(c, &ka, 0, a, &got), 1);
	md_cache_sweep(c);
	INT_EQ(md_cache_count(c), 1);
	INT_EQ(md_cache_bytes(c), bytes_a);
	INT_EQ(md_cache_get(c, &kb, 0, a, &got), 0);
	INT_EQ(md_cache_get(c, &ka, 0, a, &got), 1);
	doc_same(&got, &da);
	/* got again since that sweep: stays; then unused for one build: gone */
	md_cache_sweep(c);
	INT_EQ(md_cache_count(c), 1);
	md_cache_sweep(c);
	INT_EQ(md_cache_count(c), 0);
	INT_EQ(md_cache_bytes(c), 0);
	INT_EQ(md_cache_get(c, &ka, 0, a, &got), 0);

	/* a miss (another stamp) is not a use */
	struct md_doc img = sample();
	img.images = 1;
	md_cache_put(c, &kc, 7, &img, 0);
	md_cache_sweep(c);
	INT_EQ(md_cache_get(c, &kc, 8, a, &got), 0);
	md_cache_sweep(c);
	INT_EQ(md_cache_count(c), 0);

	/* the same key twice: the first stays (a build may point into it) */
	md_cache_put(c, &ka, 0, &da, 0);
	INT_EQ(md_cache_get(c, &ka, 0, a, &got), 1);
	const char *first = got.html.p;
	md_cache_put(c, &ka, 0, &db, 0);
	INT_EQ(md_cache_count(c), 1);
	INT_EQ(md_cache_bytes(c), bytes_a);
	INT_EQ(md_cache_get(c, &ka, 0, a, &got), 1);
	OK(got.html.p == first);
	doc_same(&got, &da);
	/* and the second put counts as a use: it survives the sweeps */
	md_cache_sweep(c);
	md_cache_put(c, &ka, 0, &db, 0);
	md_cache_sweep(c);
	INT_EQ(md_cache_count(c), 1);
	INT_EQ(md_cache_get(c, &ka, 0, a, &got), 1);
	/* strings got before a sweep are still there after it */
	STR_EQ(first, da.html.p);
	arena_free(a);
	md_cache_free(c);
}

/* ---- a table that grows ---- */

enum { MANY = 5000 };

static void test_many(void)
{
	struct md_cache *c = md_cache_new();
	struct arena *a = arena_new();
	char path[64], html[64];
	for (int i = 0; i < MANY; i++) {
		snprintf(path, sizeof path, "content/posts/p%d.md", i);
		snprintf(html, sizeof html, "<p>post %d</p>", i);
		struct md_doc d;
		memset(&d, 0, sizeof d);
		d.html = (struct str){html, strlen(html)};
		d.words = (size_t)i;
		struct md_key k = md_cache_key(9, 0, path, 10, 1, 0, NULL);
		md_cache_put(c, &k, 0, &d, 0);
	}
	INT_EQ(md_cache_count(c), MANY);
	int found = 0, right = 0;
	for (int i = 0; i < MANY; i++) {
		snprintf(path, sizeof path, "content/posts/p%d.md", i);
		snprintf(html, sizeof html, "<p>post %d</p>", i);
		struct md_key k = md_cache_key(9, 0, path, 10, 1, 0, NULL);
		struct md_doc got;
		if (md_cache_get(c, &k, 0, a, &got)) {
			found++;
			right += got.words == (size_t)i && strcmp(got.html.p, html) == 0;
		}
	}
	INT_EQ(found, MANY);
	INT_EQ(right, MANY);
	/* the sweep rebuilds the table: every entry is still found */
	md_cache_sweep(c);
	INT_EQ(md_cache_count(c), MANY);
	found = 0;
	for (int i = 0; i < MANY; i += 2) {
		snprintf(path, sizeof path, "content/posts/p%d.md", i);
		struct md_key k = md_cache_key(9, 0, path, 10, 1, 0, NULL);
		struct md_doc got;
		found += md_cache_get(c, &k, 0, a, &got);
	}
	INT_EQ(found, MANY / 2);
	md_cache_sweep(c); /* the odd ones were not used since */
	INT_EQ(md_cache_count(c), MANY / 2);
	found = 0;
	for (int i = 0; i < MANY; i++) {
		snprintf(path, sizeof path, "content/posts/p%d.md", i);
		struct md_key k = md_cache_key(9, 0, path, 10, 1, 0, NULL);
		struct md_doc got;
		found += md_cache_get(c, &k, 0, a, &got) == (i % 2 == 0);
	}
	INT_EQ(found, MANY);
	arena_free(a);
	md_cache_free(c);
}

/* ---- several threads at once ---- */

struct worker {
	struct md_cache *c;
	int id;
	int right;
};

static void *worker_run(void *arg)
{
	struct worker *w = arg;
	struct arena *a = arena_new();
	char path[64], html[64];
	for (int i = 0; i < 500; i++) {
		snprintf(path, sizeof path, "t%d/p%d", w->id, i);
		snprintf(html, sizeof html, "thread %d doc %d", w->id, i);
		struct md_doc d;
		memset(&d, 0, sizeof d);
		d.html = (struct str){html, strlen(html)};
		struct md_key k = md_cache_key(0, 0, path, 0, 1, 0, NULL);
		md_cache_put(w->c, &k, 0, &d, 0);
	}
	for (int i = 0; i < 500; i++) {
		snprintf(path, sizeof path, "t%d/p%d", w->id, i);
		snprintf(html, sizeof html, "thread %d doc %d", w->id, i);
		struct md_key k = md_cache_key(0, 0, path, 0, 1, 0, NULL);
		struct md_doc got;
		w->right += md_cache_get(w->c, &k, 0, a, &got) && strcmp(got.html.p, html) == 0;
	}
	arena_free(a);
	return NULL;
}

static void test_threads(void)
{
	struct md_cache *c = md_cache_new();
	struct worker w[4];
	pthread_t th[4];
	for (int i = 0; i < 4; i++) {
		w[i] = (struct worker){c, i, 0};
		pthread_create(&th[i], NULL, worker_run, &w[i]);
	}
	for (int i = 0; i < 4; i++) {
		pthread_join(th[i], NULL);
		INT_EQ(w[i].right, 500);
	}
	INT_EQ(md_cache_count(c), 2000);
	md_cache_free(c);
}

/* ---- a damaged pack file ---- */

/* The pack's layout (mdcache.c): a 24-byte head, then each entry's 40
 * bytes (key, stamp, reads_files, length) before its blob, padded to 8
 * bytes; a blob's header starts with the lengths of the three strings and
 * the number of TOC entries, has the HTML's hash and where its first image
 * is at 104 and 112, the numbers of cross-reference labels and references
 * at 120 and 128, the length of the included files' list at 136 (the
 * list after the cross-references), and ends 144 bytes in. */
#define PACK_HEAD 24
#define PACK_ENTRY 40
#define BLOB_HEADER 144
#define BLOB_IMG_AT 112

/* write_pack: writes len bytes of data as path. */
static void write_pack(const char *path, const char *data, size_t len)
{
	FILE *f = fopen(path, "wb");
	OK(f != NULL);
	if (f) {
		OK(fwrite(data, 1, len, f) == len);
		fclose(f);
	}
}

/* A damaged .folio-cache/markdown.pack: a blob whose lengths are not
 * those of its bytes was returned as it was, with strings running past it
 * (found by the mdcache fuzz target; tests/fuzz/regressions/mdcache/
 * holds its inputs). Such an entry is a miss now, which the next put
 * replaces, and the file's other entries are still found. */
static void test_damaged_pack(void)
{
	char *dir = t_tmpdir();
	char path[4096];
	snprintf(path, sizeof path, "%s/markdown.pack", dir);
	struct md_doc d = sample(), empty;
	memset(&empty, 0, sizeof empty);
	struct md_key k1 = key_of("content/posts/a.md"), k2 = key_of("content/posts/b.md");
	struct md_cache *c = md_cache_open(path);
	md_cache_put(c, &k1, 0, &d, 0);
	md_cache_put(c, &k2, 0, &empty, 0);
	INT_EQ(md_cache_save(c), 0);
	md_cache_free(c);
	size_t len;
	char *good = read_file(path, &len);
	OK(good && len > PACK_HEAD + 2 * PACK_ENTRY + 2 * BLOB_HEADER);
	if (!good)
		return;
	/* the sample's blob, first or second in the file */
	size_t blob = PACK_HEAD + PACK_ENTRY;
	struct md_key first;
	memcpy(&first, good + PACK_HEAD, sizeof first);
	if (!key_eq(first, k1)) {
		uint64_t bl;
		memcpy(&bl, good + PACK_HEAD + 32, sizeof bl);
		blob += ((size_t)bl + 7) / 8 * 8 + PACK_ENTRY;
	}
	uint64_t html, sh, st;
	memcpy(&html, good + blob, 8);
	memcpy(&sh, good + blob + 8, 8);
	memcpy(&st, good + blob + 16, 8);
	INT_EQ(html, d.html.len);
	/* the first TOC entry: level, children, and its strings' lengths */
	size_t toc = blob + BLOB_HEADER + html + sh + st + 3;

	static const struct {
		size_t at;      /* in the sample's blob, or past BLOB_HEADER: in its first TOC entry */
		uint64_t value; /* written there */
	} damage[] = {
	    {0, 1u << 20},                    /* html longer than the blob */
	    {0, 1},                           /* html shorter: its NUL is not where it says */
	    {8, UINT64_MAX},                  /* summary_html: no length fits */
	    {16, UINT64_MAX - 1},             /* summary_text: the + 1 wraps */
	    {24, (uint64_t)1 << 40},          /* a TOC of 2^40 entries */
	    {120, (uint64_t)1 << 40},         /* 2^40 cross-reference labels */
	    {128, 1000},                      /* cross-references that are not there */
	    {136, 1u << 20},                  /* the included files' list past the blob */
	    {136, 0},                         /* shorter: its NUL is not where it says */
	    {BLOB_HEADER + 0, 7},             /* a heading of level 7 */
	    {BLOB_HEADER + 8, 1000},          /* children that are not there */
	    {BLOB_HEADER + 24, 1u << 20},     /* a TOC entry's text past the blob */
	};
	struct arena *a = arena_new();
	for (size_t i = 0; i < sizeof damage / sizeof *damage; i++) {
		char *bad = malloc(len);
		memcpy(bad, good, len);
		size_t at = damage[i].at < BLOB_HEADER ? blob + damage[i].at : toc + damage[i].at - BLOB_HEADER;
		memcpy(bad + at, &damage[i].value, sizeof damage[i].value);
		write_pack(path, bad, len);
		free(bad);
		c = md_cache_open(path);
		INT_EQ(md_cache_count(c), 2);
		struct md_doc got;
		INT_EQ(md_cache_get(c, &k1, 0, a, &got), 0);
		INT_EQ(md_cache_get(c, &k1, 0, a, &got), 0); /* still */
		INT_EQ(md_cache_get(c, &k2, 0, a, &got), 1);
		doc_same(&got, &empty);
		/* the build renders it again and stores it over the damaged one */
		md_cache_put(c, &k1, 0, &d, 0);
		INT_EQ(md_cache_get(c, &k1, 0, a, &got), 1);
		doc_same(&got, &d);
		INT_EQ(md_cache_count(c), 2);
		md_cache_free(c);
	}
	/* where the first image is, past the HTML: the entry is still whole,
	 * and the image is looked for again (0) rather than read there */
	{
		char *bad = malloc(len);
		memcpy(bad, good, len);
		uint64_t far = html + 2;
		memcpy(bad + blob + BLOB_IMG_AT, &far, sizeof far);
		write_pack(path, bad, len);
		free(bad);
		c = md_cache_open(path);
		struct md_doc got;
		INT_EQ(md_cache_get(c, &k1, 0, a, &got), 1);
		INT_EQ(got.img_at, 0);
		md_cache_free(c);
	}
	/* the file as written is whole, with the HTML's hash and its first
	 * image's place made at the put */
	write_pack(path, good, len);
	c = md_cache_open(path);
	struct md_doc got;
	INT_EQ(md_cache_get(c, &k1, 0, a, &got), 1);
	doc_same(&got, &d);
	OK(got.html_hash == rebuild_text_hash(d.html.p, d.html.len));
	INT_EQ(got.img_at, md_image_at(d.html));
	OK(got.img_at > 2 && !memcmp(got.html.p + got.img_at - 2, "<img src=\"fig.png", 17));
	md_cache_free(c);
	arena_free(a);
	free(good);
	t_rmtree(dir);
	free(dir);
}

/* Borrowed entries (folio build): the cache refers to the document's HTML,
 * and the pack written from them is the one copies would make: read back,
 * byte for byte the same file, beside an entry that was copied. */
static void test_borrowed(void)
{
	char *dir = t_tmpdir();
	char path[4096], path2[4096];
	snprintf(path, sizeof path, "%s/markdown.pack", dir);
	snprintf(path2, sizeof path2, "%s/copied.pack", dir);
	struct md_doc d = sample(), e = sample(), big = sample();
	e.html = s_of("<p>another</p>\n");
	/* a page whose HTML is larger than the writes the pack gathers */
	struct buf h;
	buf_init(&h);
	for (int i = 0; i < 30000; i++)
		buf_printf(&h, "<p>%d</p>\n", i);
	big.html = (struct str){arena_strndup(arena, h.p, h.len), h.len};
	buf_fini(&h);
	struct md_key k1 = key_of("content/posts/a.md"), k2 = key_of("content/posts/b.md"),
	              k3 = key_of("content/posts/c.md");
	struct md_cache *c = md_cache_open(path), *cc = md_cache_open(path2);
	md_cache_put(c, &k1, 0, &d, 1);
	md_cache_put(c, &k2, 0, &e, 0);
	md_cache_put(c, &k3, 0, &big, 1);
	md_cache_put(cc, &k1, 0, &d, 0);
	md_cache_put(cc, &k2, 0, &e, 0);
	md_cache_put(cc, &k3, 0, &big, 0);
	struct arena *a = arena_new();
	struct md_doc got;
	INT_EQ(md_cache_get(c, &k1, 0, a, &got), 1);
	doc_same(&got, &d);
	OK(got.html.p == d.html.p); /* not a copy */
	INT_EQ(md_cache_get(c, &k3, 0, a, &got), 1);
	OK(got.html.p == big.html.p);
	INT_EQ(md_cache_save(c), 0);
	INT_EQ(md_cache_save(cc), 0);
	md_cache_free(c);
	md_cache_free(cc);
	size_t n1, n2;
	char *f1 = read_file(path, &n1), *f2 = read_file(path2, &n2);
	OK(f1 && f2 && n1 == n2 && memcmp(f1, f2, n1) == 0);
	free(f1);
	free(f2);
	/* the document may go now: the file has it */
	memset((char *)d.html.p, 'x', d.html.len);
	c = md_cache_open(path);
	INT_EQ(md_cache_count(c), 3);
	INT_EQ(md_cache_get(c, &k1, 0, a, &got), 1);
	STR_EQ(got.html.p, "<h1 id=\"intro\">Intro</h1>\n<p>Text with \"quotes\" &amp; more.</p>\n<p><img src=\"fig.png\" alt=\"\"></p>\n");
	INT_EQ(md_cache_get(c, &k2, 0, a, &got), 1);
	doc_same(&got, &e);
	INT_EQ(md_cache_get(c, &k3, 0, a, &got), 1);
	doc_same(&got, &big);
	md_cache_free(c);
	arena_free(a);
	t_rmtree(dir);
	free(dir);
}

/* ---- a pack added to, not written again ---- */

static void file_id(const char *path, struct stat *st)
{
	if (stat(path, st) != 0)
		memset(st, 0, sizeof *st);
}

/* one_build: a build that uses the first `keep` of doc-N (from the pack)
 * and puts `fresh` new ones (named prefix-N); with img, it also puts "img",
 * a document that reads files, under that stamp (HTML "img-STAMP"); then
 * it sweeps and saves */
static void one_build(const char *path, int keep, int fresh, const char *prefix, uint64_t img)
{
	struct md_cache *c = md_cache_open(path);
	struct arena *a = arena_new();
	struct md_doc got, d = sample();
	char name[64];
	for (int i = 0; i < keep; i++) {
		snprintf(name, sizeof name, "doc-%d", i);
		struct md_key k = key_of(name);
		if (md_cache_get(c, &k, 0, a, &got) != 1)
			t_fail(__FILE__, __LINE__, "%s not in the pack", name);
	}
	for (int i = 0; i < fresh; i++) {
		snprintf(name, sizeof name, "%s-%d", prefix, i);
		struct md_key k = key_of(name);
		d.html = s_of(name);
		md_cache_put(c, &k, 0, &d, 0);
	}
	if (img) {
		struct md_key k = key_of("img");
		struct md_doc im = sample();
		im.images = 1;
		snprintf(name, sizeof name, "img-%d", (int)img);
		im.html = s_of(name);
		if (md_cache_get(c, &k, img, a, &got) != 1)
			md_cache_put(c, &k, img, &im, 0);
	}
	md_cache_sweep(c);
	INT_EQ(md_cache_save(c), 0);
	md_cache_free(c);
	arena_free(a);
}

static void test_extended(void)
{
	char *dir = t_tmpdir();
	char path[4096];
	snprintf(path, sizeof path, "%s/markdown.pack", dir);
	one_build(path, 0, 40, "doc", 7);
	struct stat s0, s1, s2;
	file_id(path, &s0);
	/* one document changed: one entry added at the end, the file kept */
	one_build(path, 39, 1, "new", 0);
	file_id(path, &s1);
	OK(s1.st_ino == s0.st_ino);
	OK(s1.st_size > s0.st_size && s1.st_size < s0.st_size + s0.st_size / 20);
	struct md_cache *c = md_cache_open(path);
	INT_EQ(md_cache_count(c), 42); /* doc-39 and img are no use, still there */
	struct arena *a = arena_new();
	struct md_doc got;
	struct md_key k = key_of("new-0");
	INT_EQ(md_cache_get(c, &k, 0, a, &got), 1);
	STR_EQ(got.html.p, "new-0");
	md_cache_free(c);
	/* nothing new: nothing written */
	one_build(path, 39, 0, "none", 0);
	file_id(path, &s2);
	OK(s2.st_ino == s0.st_ino && s2.st_size == s1.st_size);
	/* a document whose files changed: its new entry comes later in the
	 * file, and is the one read */
	one_build(path, 39, 0, "none", 9);
	file_id(path, &s2);
	OK(s2.st_ino == s0.st_ino && s2.st_size > s1.st_size);
	c = md_cache_open(path);
	k = key_of("img");
	INT_EQ(md_cache_get(c, &k, 9, a, &got), 1);
	STR_EQ(got.html.p, "img-9");
	INT_EQ(md_cache_get(c, &k, 7, a, &got), 0);
	md_cache_free(c);
	/* more than a quarter of no use: written anew, smaller */
	file_id(path, &s1);
	one_build(path, 10, 0, "none", 0);
	file_id(path, &s2);
	OK(s2.st_ino != s1.st_ino && s2.st_size < s1.st_size);
	c = md_cache_open(path);
	INT_EQ(md_cache_count(c), 10);
	md_cache_free(c);
	/* an end cut off (a build killed while adding): what was whole is
	 * read, and the next save writes it anew */
	one_build(path, 10, 2, "late", 0);
	file_id(path, &s1);
	INT_EQ(truncate(path, s1.st_size - 40), 0);
	c = md_cache_open(path);
	INT_EQ(md_cache_count(c), 11);
	md_cache_free(c);
	one_build(path, 10, 1, "after", 0);
	file_id(path, &s2);
	OK(s2.st_ino != s1.st_ino);
	c = md_cache_open(path);
	INT_EQ(md_cache_count(c), 11);
	k = key_of("after-0");
	INT_EQ(md_cache_get(c, &k, 0, a, &got), 1);
	md_cache_free(c);
	/* the file replaced by another since it was read: not added to */
	c = md_cache_open(path);
	char other[4096];
	snprintf(other, sizeof other, "%s/other.pack", dir);
	one_build(other, 0, 3, "doc", 0);
	INT_EQ(rename(other, path), 0);
	struct md_doc d = sample();
	k = key_of("mine");
	md_cache_put(c, &k, 0, &d, 0);
	INT_EQ(md_cache_save(c), 0);
	md_cache_free(c);
	c = md_cache_open(path);
	INT_EQ(md_cache_get(c, &k, 0, a, &got), 1); /* written anew, with it */
	md_cache_free(c);
	arena_free(a);
	t_rmtree(dir);
	free(dir);
}

void test_mdcache(void)
{
	t_current = "mdcache";
	arena = arena_new();
	test_keys();
	test_round_trip();
	test_files_stamp();
	test_forget();
	test_sweep();
	test_many();
	test_threads();
	test_damaged_pack();
	test_borrowed();
	test_extended();
	arena_free(arena);
	arena = NULL;
}
