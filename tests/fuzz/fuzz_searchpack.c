/* fuzz_searchpack.c: libFuzzer target for the documents' counts a build
 * keeps in .folio-cache/search.pack (src/search/pack.c's format): the
 * index of a few fixed documents made with a cache opened on a damaged
 * file, as the next build would. An input is a mode byte, then the pack
 * file (seeds.py writes valid ones).
 *
 * Mode 0: the file as it is; its keys are not the documents' (and a
 * record's hash covers its key), so nothing may be taken from it: the
 * index must be the bytes of one made without a cache.
 * Mode 1: each DOC record is given the key of a document (in turn) and
 * every record's hash made right, so that the counts it holds, however
 * wrong, reach the index: the target looks for crashes there; each count
 * taken must be whole (its words, stems and postings within it). Then,
 * either way, the cache is saved (added to, or written anew) and opened
 * again: every document is found in it, and the index made from it is the
 * same bytes as the one before. */
#include "fuzz.h"

#include "base/arena.h"
#include "search/pack.h"
#include "search/search.h"

#include <xxhash.h>

#define SALT 7
#define NDOCS 4

static const char *dir;
static char pack[4096];
static struct search_doc docs[NDOCS];
static const struct search_options base = {1, 1, 1, {"en", 2}, 1, NULL};
static struct search_key keys[NDOCS];
static struct arena *ref_arena;
static struct search_index ref;

static struct str s_(const char *t)
{
	return (struct str){t, strlen(t)};
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	dir = fuzz_tmpdir();
	snprintf(pack, sizeof pack, "%s/search.pack", dir);
	static const struct str tags[] = {{"cuda", 4}, {"GPU", 3}};
	static const char *const body[NDOCS] = {
		"<h2>Warp shuffles</h2><p>Lanes exchange registers in a warp.</p>",
		"<p>Spilling registers, spilled, spills.</p><h3>Bank conflicts</h3>",
		"<p>Grüße aus Köln: naïve café, 東京 タワー.</p>",
		"",
	};
	static const char *const title[NDOCS] = {"Warp level reduction", "Register pressure", "Unicode", "Empty"};
	for (int i = 0; i < NDOCS; i++) {
		docs[i].url = s_("posts/x/");
		docs[i].title = s_(title[i]);
		docs[i].body_html = s_(body[i]);
		docs[i].excerpt = docs[i].body_html;
		docs[i].tags = &tags[i % 2];
		docs[i].ntags = (size_t)(i % 3);
		docs[i].series = i % 2 ? s_("GPU Systems") : s_("");
		docs[i].summary = i == 1 ? s_("Registers spill under pressure") : s_("");
		keys[i] = search_doc_key(SALT, &base, &docs[i]);
	}
	ref_arena = arena_new();
	search_index_docs(ref_arena, &base, docs, NDOCS, NULL, 0, NULL, 0, &ref);
	return 0;
}

static int same(const struct search_index *x, const struct search_index *y)
{
	if (x->nfiles != y->nfiles)
		return 0;
	for (size_t i = 0; i < x->nfiles; i++)
		if (strcmp(x->files[i].rel, y->files[i].rel) || x->files[i].len != y->files[i].len ||
		    memcmp(x->files[i].data, y->files[i].data, x->files[i].len))
			return 0;
	return 1;
}

/* rekey: mode 1's changes to the file p[0..n): each DOC record the key of
 * a document, every record's hash made right. */
static void rekey(uint8_t *p, size_t n)
{
	size_t at = 24, k = 0;
	while (n >= 16 && at <= n - 16) {
		uint32_t kind, len;
		memcpy(&kind, p + at, 4);
		memcpy(&len, p + at + 4, 4);
		if (len > n - at - 16)
			break;
		if (kind == 2 && len >= 16)
			memcpy(p + at + 16, &keys[k++ % NDOCS], 16);
		uint64_t sum = XXH3_64bits(p + at + 16, len);
		memcpy(p + at + 8, &sum, 8);
		at += 16 + (((size_t)len + 7) & ~(size_t)7);
	}
}

/* make_index: the documents' index with c. */
static void make_index(struct arena *a, struct search_cache *c, struct search_index *ix)
{
	struct search_options o = base;
	o.cache = c;
	search_index_docs(a, &o, docs, NDOCS, NULL, 0, NULL, 0, ix);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	int mode = data[0] & 1;
	uint8_t *p = malloc(size);
	memcpy(p, data + 1, size - 1);
	if (mode)
		rekey(p, size - 1);
	fuzz_write(dir, "search.pack", p, size - 1);
	free(p);

	struct search_cache *c = search_cache_open(pack, SALT);
	/* each count it gives is whole: its words' and stems' texts are the
	 * cache's, its stems and postings within it */
	struct arena *ca = arena_new();
	size_t ntexts = search_cache_texts(c);
	for (int i = 0; i < NDOCS; i++) {
		struct counted r;
		if (!search_cache_get(c, &keys[i], ca, ca, &r))
			continue;
		if (!r.tid || r.text)
			abort();
		for (uint32_t k = 0; k < r.nwords; k++)
			if (r.wstem[k] >= r.nstems)
				abort();
		for (uint32_t k = 0; k < r.nwords + r.nstems; k++) {
			uint32_t len = 0;
			if (r.tid[k] >= ntexts)
				abort();
			search_cache_text(c, r.tid[k], &len);
			if (len > 2 * SEARCH_WORD_MAX + 1)
				abort();
		}
		for (uint32_t k = 0; k < r.np; k++)
			if ((r.in_order ? k : r.pstem[k]) >= r.nstems)
				abort();
	}
	arena_free(ca);
	struct arena *a = arena_new();
	struct search_index x1, x2;
	make_index(a, c, &x1);
	if (!mode && (x1.ncached || !same(&x1, &ref)))
		abort(); /* counts taken under a key the file cannot have */
	search_cache_sweep(c);
	int saved = search_cache_save(c);
	search_cache_free(c);
	if (saved == 0) {
		c = search_cache_open(pack, SALT);
		make_index(a, c, &x2);
		if (x2.ncached != NDOCS || !same(&x1, &x2))
			abort(); /* what was saved is not what was read back */
		search_cache_free(c);
	}
	arena_free(a);
	return 0;
}
