/* test_search_live.c: a session's index patched after an edit
 * (src/search/index.c, search_live). Random edits of random documents
 * (words added, taken away, repeated; words no other document has; the
 * only word of a stem; a stem that is no word made one and unmade; a
 * heading's words; a title) are patched into the kept index, and each
 * index patched is compared, file by file, with the index made whole from
 * the same documents: the same names, the same bytes (a file the patch
 * kept is the last one of its name); an edit that moves the averages of
 * the documents' lengths asks for the index whole. */
#include "harness.h"

#include "base/arena.h"
#include "base/map.h"
#include "search/search.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A small random generator of its own: the runs are the same each time. */
static uint64_t rnd_state = 0x9e3779b97f4a7c15u;
static uint32_t rnd(uint32_t n)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return (uint32_t)(rnd_state % n);
}

/* words with stems in common, words of a stem that is no word (spilling,
 * spilled: "spill"), and rare ones */
static const char *const vocab[] = {"spilling", "spilled", "spills", "coalesced", "coalescing", "reduces",
				    "reduction", "warps", "warp", "scheduling", "registers", "bank",
				    "shuffle", "tiles", "tiled", "tiling", "kernel", "kernels", "memory", "latency"};
#define NVOCAB (sizeof vocab / sizeof *vocab)

/* a body: a heading of two words, then n words of the vocabulary, some
 * numbered (v0..v399: some in many documents, some in one) */
static char *make_body(struct arena *a, size_t n, int novel)
{
	struct buf b;
	buf_init(&b);
	buf_printf(&b, "<h2>%s %s</h2><p>", vocab[rnd(NVOCAB)], vocab[rnd(NVOCAB)]);
	for (size_t k = 0; k < n; k++) {
		uint32_t r = rnd(10);
		if (r < 5)
			buf_printf(&b, "%s ", vocab[rnd(NVOCAB)]);
		else if (r < 9)
			buf_printf(&b, "v%u ", rnd(k % 3 ? 40 : 400));
		else
			buf_printf(&b, "z%u ", rnd(5000));
	}
	if (novel)
		buf_printf(&b, "novel%u spill ", rnd(1000000));
	buf_puts(&b, "</p>");
	char *s = arena_strndup(a, b.p, b.len);
	buf_fini(&b);
	return s;
}

static const struct str tags[] = {{"cuda", 4}, {"GPU", 3}};

static void set_doc(struct arena *a, struct search_doc *d, size_t i, size_t len, int novel)
{
	char *body = make_body(a, len, novel);
	char url[32];
	snprintf(url, sizeof url, "posts/p%zu/", i);
	d->url = str_from(arena_strndup(a, url, strlen(url)));
	d->title = i % 3 ? (struct str){"Tiling kernels", 14} : (struct str){"Warp shuffles", 13};
	d->date = STR_LIT("2024-01-02");
	d->tags = &tags[i % 2];
	d->ntags = 1;
	d->body_html = str_from(body);
	d->body_hash = 0;
	d->excerpt = (struct str){body, strlen(body) < 40 ? strlen(body) : 40};
}

/* same_files: x (patched: a file without bytes is the one of that name in
 * seen, the files met so far) and y (whole) are the same files */
static int same_files(const struct search_index *x, const struct search_index *y, struct map *seen)
{
	if (x->nfiles != y->nfiles) {
		if (getenv("LIVE_DEBUG"))
			fprintf(stderr, "nfiles %zu %zu\n", x->nfiles, y->nfiles);
		return 0;
	}
	for (size_t i = 0; i < x->nfiles; i++) {
		const struct search_file *f = &x->files[i], *g = &y->files[i];
		if (strcmp(f->rel, g->rel)) {
			if (getenv("LIVE_DEBUG"))
				fprintf(stderr, "file %zu: %s %s\n", i, f->rel, g->rel);
			return 0;
		}
		const struct str *was = map_get(seen, f->rel, strlen(f->rel));
		if (!f->data && (!was || was->len != g->len || memcmp(was->p, g->data, g->len)))
			return 0;
		if (f->data && (f->len != g->len || memcmp(f->data, g->data, g->len)))
			return 0;
	}
	return 1;
}

static void remember(struct arena *a, const struct search_index *ix, struct map *seen)
{
	for (size_t i = 0; i < ix->nfiles; i++) {
		const struct search_file *f = &ix->files[i];
		if (!f->data || map_get(seen, f->rel, strlen(f->rel)))
			continue;
		struct str *v = arena_alloc(a, sizeof *v);
		*v = (struct str){arena_strndup(a, f->data, f->len), f->len};
		const char *k = arena_strndup(a, f->rel, strlen(f->rel));
		map_put(seen, k, strlen(k), NULL)->val.p = v;
	}
}

/* one run: n documents, rounds of edits of one to three of them */
static void run(int stem, size_t n, int rounds, int *patched, int *whole, int *same)
{
	struct arena *a = arena_new();
	struct search_options o = {1, 1, stem, {"en", 2}, 1, NULL};
	struct search_doc *d = calloc(n, sizeof *d);
	for (size_t i = 0; i < n; i++)
		set_doc(a, &d[i], i, 30 + rnd(40), 0);
	static const uint32_t cuda[] = {0, 2, 5, 9};
	struct search_filter tf = {{"cuda", 4}, cuda, 4};
	struct map seen = MAP_INIT;
	struct search_live *L;
	struct search_index ix;
	search_index_docs_kept(a, &o, d, n, NULL, 0, &tf, 1, &ix, &L);
	remember(a, &ix, &seen);
	for (int r = 0; r < rounds; r++) {
		int k = 1 + (int)rnd(3);
		for (int e = 0; e < k; e++) {
			size_t i = rnd((uint32_t)n);
			uint32_t kind = rnd(8);
			if (kind == 0) /* much longer: the averages may move */
				set_doc(a, &d[i], i, 400 + rnd(400), 1);
			else if (kind == 1) /* a title of its own */
				d[i].title = str_from(make_body(a, 3, 0));
			else
				set_doc(a, &d[i], i, 30 + rnd(40), kind == 2);
		}
		struct search_index px, wx;
		int r1 = search_live_update(L, a, &o, d, n, &px);
		search_index_docs(a, &o, d, n, NULL, 0, &tf, 1, &wx);
		if (r1) {
			(*whole)++;
			search_live_free(L);
			search_index_docs_kept(a, &o, d, n, NULL, 0, &tf, 1, &ix, &L);
		} else {
			(*patched)++;
			if (same_files(&px, &wx, &seen))
				(*same)++;
		}
		remember(a, &wx, &seen);
	}
	search_live_free(L);
	map_fini(&seen);
	free(d);
	arena_free(a);
}

/* Random edits: every patched index is the whole one's bytes. */
static void test_random_edits(void)
{
	for (int stem = 0; stem < 2; stem++) {
		int patched = 0, whole = 0, same = 0;
		run(stem, 300, 150, &patched, &whole, &same);
		INT_EQ(same, patched);
		OK(patched > 100); /* most edits are patched, not made whole */
		OK(whole > 0);     /* and a long one moves the averages */
	}
}

/* A stem that is no word ("spill", of "spilling"), made a word by an edit
 * and unmade by the next; a word only one document has, gone; a document
 * the same texts in other places (the same bytes: counted again, no
 * change). */
static void test_stem_word(void)
{
	struct arena *a = arena_new();
	struct search_options o = {1, 1, 1, {"en", 2}, 1, NULL};
	struct search_doc d[40];
	memset(d, 0, sizeof d);
	for (size_t i = 0; i < 40; i++) {
		d[i].url = STR_LIT("posts/x/");
		d[i].title = STR_LIT("Registers");
		d[i].body_html = i % 2 ? STR_LIT("<p>spilling registers warp</p>") : STR_LIT("<p>spilled bank warp</p>");
	}
	for (size_t i = 0; i < 40; i++)
		d[i].body_html = i % 2 ? STR_LIT("<p>spilling registers warp bank</p>") : STR_LIT("<p>spilled bank warp registers</p>");
	d[7].body_html = STR_LIT("<p>spilling registers warp lonely</p>");
	struct search_live *L;
	struct search_index ix, px, wx;
	struct map seen = MAP_INIT;
	search_index_docs_kept(a, &o, d, 40, NULL, 0, NULL, 0, &ix, &L);
	remember(a, &ix, &seen);
	const char *bodies[] = {"<p>spill registers warp bank</p>", "<p>spilling registers warp bank</p>",
				"<p>spilling registers warp lonely</p>", "<p>spilling lonely lonely spill</p>",
				"<p>spilling registers warp bank</p>"};
	for (size_t k = 0; k < sizeof bodies / sizeof *bodies; k++) {
		d[7].body_html = str_from(arena_strndup(a, bodies[k], strlen(bodies[k])));
		INT_EQ(search_live_update(L, a, &o, d, 40, &px), 0);
		search_index_docs(a, &o, d, 40, NULL, 0, NULL, 0, &wx);
		OK(same_files(&px, &wx, &seen));
		INT_EQ(px.nwords, wx.nwords);
		remember(a, &wx, &seen);
	}
	/* the number of documents, or the options, changed: whole */
	INT_EQ(search_live_update(L, a, &o, d, 39, &px), 1);
	search_live_free(L);
	search_index_docs_kept(a, &o, d, 40, NULL, 0, NULL, 0, &ix, &L);
	struct search_options o2 = o;
	o2.stem = 0;
	INT_EQ(search_live_update(L, a, &o2, d, 40, &px), 1);
	search_live_free(L);
	map_fini(&seen);
	arena_free(a);
}

void test_search_live(void)
{
	test_random_edits();
	test_stem_word();
}
