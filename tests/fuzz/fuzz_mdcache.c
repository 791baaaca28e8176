/* fuzz_mdcache.c: libFuzzer target for the rendered Markdown a build keeps
 * in .folio-cache/markdown.pack: md_cache_open on a damaged file, then
 * md_cache_get of every entry it names, as the next build would (its
 * pages are then made of what the cache returns). An input is the pack
 * file (the format is in mdcache.c; seeds.py writes valid ones). The keys
 * and stamps to ask for are read from the input at the places the format
 * puts them, so that mutations of the blobs are looked at.
 *
 * Besides crashes, the target checks that what a get returns lies within
 * the file: its strings are no longer than the file and NUL-terminated,
 * and its table of contents is a tree of headings; then that a document
 * stored and saved (added at the file's end, or the file written anew) is
 * found by the next open. */
#include "fuzz.h"

#include "cache/mdcache.h"

#define PACK_HEAD 24
#define PACK_ENTRY 40
#define MAX_GETS 64

static const char *dir;
static char pack[4096];
static volatile unsigned char sink;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	dir = fuzz_tmpdir();
	snprintf(pack, sizeof pack, "%s/markdown.pack", dir);
	return 0;
}

static uint64_t get64(const uint8_t *p)
{
	uint64_t v;
	memcpy(&v, p, sizeof v);
	return v;
}

/* touch: reads every byte of s, so that a string pointing out of the file
 * is seen; its length must fit in the file. */
static void touch(struct str s, size_t size)
{
	if (s.len > size)
		abort();
	for (size_t i = 0; i < s.len; i++)
		sink ^= (unsigned char)s.p[i];
}

static void touch_toc(const struct md_toc *t, size_t n, size_t size, int depth)
{
	if (depth > 64)
		abort();
	for (size_t i = 0; i < n; i++) {
		touch(t[i].id, size);
		touch(t[i].text, size);
		touch(t[i].html, size);
		touch_toc(t[i].children, t[i].nchildren, size, depth + 1);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_write(dir, "markdown.pack", data, size);
	struct md_cache *c = md_cache_open(pack);
	struct arena *a = arena_new();
	/* the entries as the format lays them out; a damaged length ends it */
	size_t p = PACK_HEAD, gets = 0;
	while (gets < MAX_GETS && p <= size && size - p >= PACK_ENTRY) {
		struct md_key k = {get64(data + p), get64(data + p + 8)};
		uint64_t stamp = get64(data + p + 16), len = get64(data + p + 32);
		struct md_doc doc;
		if (md_cache_get(c, &k, stamp, a, &doc)) {
			touch(doc.html, size);
			touch(doc.summary_html, size);
			touch(doc.summary_text, size);
			if (doc.html.p[doc.html.len] || doc.summary_html.p[doc.summary_html.len] ||
			    doc.summary_text.p[doc.summary_text.len])
				abort(); /* the strings are NUL-terminated, as the renderer's are */
			if (doc.ntoc > size)
				abort();
			touch_toc(doc.toc, doc.ntoc, size, 0);
		}
		gets++;
		p += PACK_ENTRY;
		if (len > size - p)
			break;
		p += (size_t)((len + 7) & ~(uint64_t)7);
	}
	/* a key that is not there */
	struct md_key none = {1, 2};
	struct md_doc doc;
	(void)md_cache_get(c, &none, 0, a, &doc);
	/* a build that stores a new document: added at the end of a whole
	 * file, or the file written anew; either way the next build finds it,
	 * with every entry it got from this one */
	struct md_key mine = {0x6d696e65u, 0x6b6579u};
	struct md_doc put;
	memset(&put, 0, sizeof put);
	put.html = (struct str){"<p>mine</p>", 11};
	put.summary_html = (struct str){"", 0};
	put.summary_text = (struct str){"", 0};
	md_cache_put(c, &mine, 0, &put, 0);
	md_cache_sweep(c);
	int saved = md_cache_save(c);
	md_cache_free(c);
	if (saved == 0) {
		c = md_cache_open(pack);
		if (!md_cache_get(c, &mine, 0, a, &doc) || doc.html.len != 11 || memcmp(doc.html.p, "<p>mine</p>", 11))
			abort();
		md_cache_free(c);
	}
	arena_free(a);
	return 0;
}
