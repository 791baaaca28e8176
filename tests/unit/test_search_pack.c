/* test_search_pack.c: the documents' counts kept between builds
 * (src/search/pack.c, .folio-cache/search.pack). An index made with a
 * cache that holds all, some or none of the documents is the same bytes as
 * one made without, on one thread or several; the pack grows at its end,
 * is written anew when a quarter of it is of no more use, and drops what
 * no build used; a damaged pack (cut, a byte changed, a wrong count or
 * length, a text's number out of range, a key twice, another salt or
 * magic) costs only counting again, never a wrong index. */
#include "harness.h"

#include "base/arena.h"
#include "search/pack.h"
#include "search/search.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#define NDOCS 1100 /* more than two batches of the threads */

struct corpus {
	struct search_doc *d;
	char *bodies;
	size_t n;
};

static const struct str tags[] = {{"cuda", 4}, {"GPU", 3}, {"triton", 6}};

/* body: document i's HTML, edit-th version. */
static void body(struct corpus *c, size_t i, int edit)
{
	static const char *const verbs[] = {"spilling", "spilled", "spills", "coalesced", "coalescing", "reduces",
					    "reduction", "warps", "warp", "scheduling", "Grüße", "naïve"};
	char *b = c->bodies + i * 512;
	snprintf(b, 512,
		 "<h2>%s %s w%zu</h2><p>%s registers x%zu %s <strong>bank</strong> c%zu e%d</p>"
		 "<pre><code>hidden%zu</code></pre><h3>Tail %s</h3><p>%s</p>",
		 verbs[i % 12], verbs[(i * 7) % 12], i % 97, verbs[(i / 3) % 12], i, verbs[(i + 4) % 12], i % 31, edit, i,
		 verbs[(i + edit) % 12], edit ? "an edited paragraph with new words" : "");
	c->d[i].body_html = (struct str){b, strlen(b)};
	c->d[i].excerpt = c->d[i].body_html;
}

static void corpus_init(struct corpus *c, size_t n)
{
	c->n = n;
	c->d = calloc(n, sizeof *c->d);
	c->bodies = calloc(n, 512);
	for (size_t i = 0; i < n; i++) {
		struct search_doc *d = &c->d[i];
		d->url = (struct str){"posts/x/", 8};
		d->title = i % 5 ? (struct str){"Tiling kernels", 14} : (struct str){"Warp level reduction", 20};
		d->tags = &tags[i % 2];
		d->ntags = 1 + i % 2;
		d->series = i % 4 ? (struct str){"GPU Systems", 11} : (struct str){"", 0};
		d->summary = i % 6 ? (struct str){"", 0} : (struct str){"Registers spill under pressure", 30};
		body(c, i, 0);
	}
}

static void corpus_free(struct corpus *c)
{
	free(c->d);
	free(c->bodies);
}

static int same(const struct search_index *x, const struct search_index *y)
{
	if (x->nfiles != y->nfiles || x->nwords != y->nwords || x->nstems != y->nstems)
		return 0;
	for (size_t i = 0; i < x->nfiles; i++)
		if (strcmp(x->files[i].rel, y->files[i].rel) || x->files[i].len != y->files[i].len ||
		    memcmp(x->files[i].data, y->files[i].data, x->files[i].len))
			return 0;
	return 1;
}

static struct search_options opts(int jobs, int stem, struct search_cache *cache)
{
	struct search_options o = {1, 1, stem, {"en", 2}, jobs, cache};
	return o;
}

/* with: the index of c made with cache on jobs threads; 1 if it is the
 * same bytes as ref; *cached: the documents it took from the cache. */
static int with(struct arena *a, const struct corpus *c, int jobs, struct search_cache *cache,
		const struct search_index *ref, size_t *cached)
{
	struct search_options o = opts(jobs, 1, cache);
	struct search_index ix;
	search_index_docs(a, &o, c->d, c->n, NULL, 0, &(struct search_filter){{"cuda", 4}, NULL, 0}, 1, &ix);
	if (cached)
		*cached = ix.ncached;
	return same(&ix, ref);
}

static void reference(struct arena *a, const struct corpus *c, struct search_index *ref)
{
	struct search_options o = opts(1, 1, NULL);
	search_index_docs(a, &o, c->d, c->n, NULL, 0, &(struct search_filter){{"cuda", 4}, NULL, 0}, 1, ref);
}

/* ---- all, some, none ---- */

static void test_hits(void)
{
	struct arena *a = arena_new();
	char *dir = t_tmpdir(), path[4096];
	snprintf(path, sizeof path, "%s/search.pack", dir);
	struct corpus c;
	corpus_init(&c, NDOCS);
	struct search_index ref;
	reference(a, &c, &ref);
	OK(ref.nwords > 1000);

	/* none: a missing file */
	struct search_cache *sc = search_cache_open(path, 7);
	size_t cached = 99;
	OK(with(a, &c, 2, sc, &ref, &cached));
	INT_EQ(cached, 0);
	INT_EQ(search_cache_count(sc), NDOCS);
	/* all, on one thread, two and three; in memory */
	for (int jobs = 1; jobs <= 3; jobs++) {
		OK(with(a, &c, jobs, sc, &ref, &cached));
		INT_EQ(cached, NDOCS);
	}
	search_cache_sweep(sc);
	INT_EQ(search_cache_save(sc), 0);
	search_cache_free(sc);
	struct stat st1;
	OK(stat(path, &st1) == 0 && st1.st_size > 0);

	/* all, from the file */
	for (int jobs = 1; jobs <= 3; jobs++) {
		sc = search_cache_open(path, 7);
		INT_EQ(search_cache_count(sc), NDOCS);
		OK(with(a, &c, jobs, sc, &ref, &cached));
		INT_EQ(cached, NDOCS);
		search_cache_free(sc);
	}
	/* another salt (another folio): nothing taken, the same index */
	sc = search_cache_open(path, 8);
	OK(with(a, &c, 2, sc, &ref, &cached));
	INT_EQ(cached, 0);
	search_cache_free(sc);
	/* other options: not stemmed, nothing taken */
	sc = search_cache_open(path, 7);
	struct search_options flat = opts(2, 0, sc), flat_ref = opts(1, 0, NULL);
	struct search_index fx, fr;
	search_index_docs(a, &flat, c.d, c.n, NULL, 0, NULL, 0, &fx);
	search_index_docs(a, &flat_ref, c.d, c.n, NULL, 0, NULL, 0, &fr);
	OK(same(&fx, &fr));
	INT_EQ(fx.ncached, 0);
	search_cache_free(sc);

	/* some: every seventh document edited (with words no other has) */
	size_t edited = 0;
	for (size_t i = 0; i < NDOCS; i += 7, edited++)
		body(&c, i, 1);
	struct search_index ref2;
	reference(a, &c, &ref2);
	OK(!same(&ref, &ref2));
	sc = search_cache_open(path, 7);
	OK(with(a, &c, 2, sc, &ref2, &cached));
	INT_EQ(cached, NDOCS - edited);
	/* the unedited documents' entries stay; the edited ones' old ones go */
	search_cache_sweep(sc);
	INT_EQ(search_cache_count(sc), NDOCS);
	INT_EQ(search_cache_save(sc), 0);
	search_cache_free(sc);
	struct stat st2;
	OK(stat(path, &st2) == 0);
	/* added at the end of the same file, not written anew */
	OK(st2.st_ino == st1.st_ino && st2.st_size > st1.st_size);
	for (int jobs = 1; jobs <= 2; jobs++) {
		sc = search_cache_open(path, 7);
		OK(with(a, &c, jobs, sc, &ref2, &cached));
		INT_EQ(cached, NDOCS);
		search_cache_free(sc);
	}

	/* a third of the documents gone: the file is written anew, smaller,
	 * and holds what is left */
	struct corpus part = c;
	part.n = 2 * NDOCS / 3;
	struct search_index ref3;
	reference(a, &part, &ref3);
	sc = search_cache_open(path, 7);
	OK(with(a, &part, 2, sc, &ref3, &cached));
	INT_EQ(cached, part.n);
	search_cache_sweep(sc);
	INT_EQ(search_cache_count(sc), part.n);
	INT_EQ(search_cache_save(sc), 0);
	/* saved again in the same process: written anew again, the same */
	INT_EQ(search_cache_save(sc), 0);
	search_cache_free(sc);
	struct stat st3;
	OK(stat(path, &st3) == 0 && st3.st_size < st2.st_size);
	sc = search_cache_open(path, 7);
	INT_EQ(search_cache_count(sc), part.n);
	OK(with(a, &part, 2, sc, &ref3, &cached));
	INT_EQ(cached, part.n);
	/* a sweep after an index drops nothing it used; one after none, all */
	search_cache_sweep(sc);
	INT_EQ(search_cache_count(sc), part.n);
	search_cache_sweep(sc);
	INT_EQ(search_cache_count(sc), 0);
	search_cache_free(sc);

	/* a cache in memory only (NULL path) saves nothing, without error */
	sc = search_cache_open(NULL, 7);
	OK(with(a, &c, 2, sc, &ref2, &cached));
	INT_EQ(search_cache_save(sc), 0);
	search_cache_free(sc);

	corpus_free(&c);
	t_rmtree(dir);
	free(dir);
	arena_free(a);
}

/* ---- damage ---- */

struct rec {
	size_t at; /* of its head */
	uint32_t kind, len;
};

/* records: the records of the pack p[0..n) (at most max). */
static size_t records(const unsigned char *p, size_t n, struct rec *r, size_t max)
{
	size_t at = 24, k = 0;
	while (k < max && at + 16 <= n) {
		memcpy(&r[k].kind, p + at, 4);
		memcpy(&r[k].len, p + at + 4, 4);
		r[k].at = at;
		at += 16 + ((r[k].len + 7) & ~(size_t)7);
		k++;
	}
	return k;
}

/* reseal: record r's hash made right again (a change that the hash does
 * not tell). */
static void reseal(unsigned char *p, const struct rec *r)
{
	uint64_t sum = XXH3_64bits(p + r->at + 16, r->len);
	memcpy(p + r->at + 8, &sum, 8);
}

static void put_file(const char *path, const void *p, size_t n)
{
	FILE *f = fopen(path, "wb");
	OK(f != NULL);
	if (f) {
		fwrite(p, 1, n, f);
		fclose(f);
	}
}

/* damaged: the pack p[0..n) written and used: the index is ref's bytes;
 * returns the documents taken from it. */
static size_t damaged(struct arena *a, const char *path, const void *p, size_t n, const struct corpus *c,
		      const struct search_index *ref)
{
	put_file(path, p, n);
	struct search_cache *sc = search_cache_open(path, 7);
	size_t cached = 0;
	OK(with(a, c, 2, sc, ref, &cached));
	/* and a save after it makes a whole pack again */
	search_cache_sweep(sc);
	INT_EQ(search_cache_save(sc), 0);
	search_cache_free(sc);
	size_t again = 0;
	sc = search_cache_open(path, 7);
	OK(with(a, c, 1, sc, ref, &again));
	INT_EQ(again, c->n);
	search_cache_free(sc);
	return cached;
}

static void test_damage(void)
{
	struct arena *a = arena_new();
	char *dir = t_tmpdir(), path[4096];
	snprintf(path, sizeof path, "%s/search.pack", dir);
	struct corpus c;
	corpus_init(&c, 300);
	struct search_index ref;
	reference(a, &c, &ref);
	struct search_cache *sc = search_cache_open(path, 7);
	OK(with(a, &c, 2, sc, &ref, NULL));
	search_cache_sweep(sc);
	INT_EQ(search_cache_save(sc), 0);
	search_cache_free(sc);
	size_t n;
	char *orig = read_file(path, &n);
	OK(orig != NULL && n > 1000);
	if (!orig)
		return;
	unsigned char *p = malloc(n + 64);
	struct rec r[400];
	size_t nr = records((const unsigned char *)orig, n, r, 400);
	INT_EQ(nr, 301); /* the texts, then each document */
	INT_EQ(r[0].kind, 1);
	INT_EQ(r[1].kind, 2);

	/* cut anywhere: what was before the cut is taken, nothing wrong */
	size_t last = 0;
	for (size_t cut = 0; cut <= n; cut += cut < 64 ? 1 : 1 + n / 37) {
		size_t got = damaged(a, path, orig, cut, &c, &ref);
		OK(got >= last || cut < r[1].at);
		last = got;
	}
	INT_EQ(damaged(a, path, orig, n, &c, &ref), 300);

	/* a byte of a document changed: its hash tells, it alone is counted */
	for (size_t k = 1; k < nr; k += 37) {
		memcpy(p, orig, n);
		p[r[k].at + 16 + r[k].len / 2] ^= 0x21;
		INT_EQ(damaged(a, path, p, n, &c, &ref), 299);
	}
	/* a byte of the texts changed: the documents after them are not read */
	memcpy(p, orig, n);
	p[r[0].at + 16 + r[0].len / 2] ^= 0x21;
	INT_EQ(damaged(a, path, p, n, &c, &ref), 0);

	/* a document's numbers wrong, and its hash made to match: a text's
	 * number out of range, more words than it holds, a number that does
	 * not end; it is counted again */
	size_t d = r[5].at + 16;
	static const unsigned char bad[][6] = {
		{0xff, 0xff, 0xff, 0xff, 0x0f, 0}, /* words: 2^32 - 1 */
		{0x80, 0x80, 0x80, 0x80, 0x80, 0x80},
	};
	for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
		memcpy(p, orig, n);
		memcpy(p + d + 16, bad[k], sizeof bad[k]);
		reseal(p, &r[5]);
		INT_EQ(damaged(a, path, p, n, &c, &ref), 299);
	}
	memcpy(p, orig, n);
	/* the first word's text: 5 numbers (words, postings, dl, tl, in
	 * order) after the key, each of one byte or more */
	const unsigned char *q = p + d + 16;
	for (int k = 0; k < 5; k++)
		while (*q++ & 0x80)
			;
	memset(p + (q - p), 0xff, 4);
	p[(q - p) + 4] = 0x7f; /* a text number far past the texts */
	reseal(p, &r[5]);
	INT_EQ(damaged(a, path, p, n, &c, &ref), 299);

	/* lengths: a record longer than the file, a text longer than any
	 * word; the reading stops there */
	memcpy(p, orig, n);
	uint32_t huge = 0xfffffff0u;
	memcpy(p + r[3].at + 4, &huge, 4);
	INT_EQ(damaged(a, path, p, n, &c, &ref), 2);
	memcpy(p, orig, n);
	q = p + r[0].at + 16;
	while (*q++ & 0x80) /* the number of texts */
		;
	p[q - p] = 0x7f; /* the first text's length: longer than any word */
	reseal(p, &r[0]);
	INT_EQ(damaged(a, path, p, n, &c, &ref), 0);

	/* the head's count: fewer records read; more: the file is not whole */
	memcpy(p, orig, n);
	uint64_t count = 11;
	memcpy(p + 16, &count, 8);
	INT_EQ(damaged(a, path, p, n, &c, &ref), 10);
	count = 1u << 30;
	memcpy(p + 16, &count, 8);
	INT_EQ(damaged(a, path, p, n, &c, &ref), 300);
	/* another kind of record ends the reading */
	memcpy(p, orig, n);
	p[r[50].at] = 9;
	INT_EQ(damaged(a, path, p, n, &c, &ref), 49);
	/* another magic: nothing */
	memcpy(p, orig, n);
	p[3] ^= 1;
	INT_EQ(damaged(a, path, p, n, &c, &ref), 0);

	/* a key twice: the later record wins; here a copy of a document's
	 * counts under another's key, which its hash (of the key too) tells:
	 * that document is counted again */
	unsigned char *p2 = malloc(n + r[20].len + 64);
	memcpy(p2, orig, n);
	size_t rl = 16 + ((r[20].len + 7) & ~(size_t)7);
	memcpy(p2 + n, orig + r[20].at, rl);
	memcpy(p2 + n + 16, orig + r[8].at + 16, 16); /* another document's key */
	count = nr + 1;
	memcpy(p2 + 16, &count, 8);
	INT_EQ(damaged(a, path, p2, n + rl, &c, &ref), 299);
	/* the same record twice: the same counts */
	memcpy(p2 + n, orig + r[20].at, rl);
	INT_EQ(damaged(a, path, p2, n + rl, &c, &ref), 300);
	free(p2);

	free(p);
	free(orig);
	corpus_free(&c);
	t_rmtree(dir);
	free(dir);
	arena_free(a);
}

/* test_key: a document's key is the same whether the hash of its body
 * is given (the Markdown cache's) or made, and another body, or the same
 * one said to hash otherwise, is another key. */
static void test_key(void)
{
	t_current = "search key";
	struct search_options o = {1, 0, 1, {"en", 2}, 1, NULL};
	struct search_doc d = {0};
	d.title = (struct str){"Warps", 5};
	d.body_html = (struct str){"<p>warp shuffles</p>", 20};
	struct search_key made = search_doc_key(7, &o, &d);
	d.body_hash = XXH3_64bits_withSeed(d.body_html.p, d.body_html.len, d.body_html.len);
	struct search_key given = search_doc_key(7, &o, &d);
	OK(made.lo == given.lo && made.hi == given.hi);
	d.body_hash ^= 1;
	struct search_key wrong = search_doc_key(7, &o, &d);
	OK(wrong.lo != made.lo || wrong.hi != made.hi);
	d.body_hash = 0;
	d.body_html = (struct str){"<p>warp shuffled</p>", 20};
	struct search_key other = search_doc_key(7, &o, &d);
	OK(other.lo != made.lo || other.hi != made.hi);
	/* an empty body: no text read */
	d.body_html = (struct str){NULL, 0};
	struct search_key none = search_doc_key(7, &o, &d);
	d.body_html = (struct str){"", 0};
	struct search_key empty = search_doc_key(7, &o, &d);
	OK(none.lo == empty.lo && none.hi == empty.hi);
}

void test_search_pack(void)
{
	test_key();
	test_hits();
	test_damage();
}
