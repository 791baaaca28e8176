/* fuzz_srccache.c: libFuzzer target for the records of content files a
 * build keeps in .folio-cache/sources (src_cache_read and src_cache_get;
 * the layout in srccache.c). An input is such a file. It is read as it
 * is, and again with its salt and checksum made right, so that mutations
 * reach the records; the paths to ask for are read from the input at the
 * places the format puts them.
 *
 * Besides crashes, the target checks that a record given is one a build
 * could use (its body within its bytes, its front matter before it, its
 * hashes set), and that the records read, written out and read back, are
 * given again the same. */
#include "fuzz.h"

#include "cache/srccache.h"

#include <xxhash.h>

#define SALT 11
#define MAX_GETS 64
#define HEAD 40
#define REC 72

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

static int same(const struct src_record *a, const struct src_record *b)
{
	return a->content == b->content && a->len == b->len && a->body_off == b->body_off &&
	       a->body_hash == b->body_hash && a->fm.lo == b->fm.lo && a->fm.hi == b->fm.hi && a->fm_len == b->fm_len &&
	       a->body_line == b->body_line && a->fm_lines == b->fm_lines && a->link_hint == b->link_hint;
}

static void check(const struct src_record *r)
{
	if (!r->content || !r->body_hash || r->body_off > r->len || r->fm_len >= r->body_off || r->body_line < 2 ||
	    r->fm_lines < 1 || r->link_hint < 1 || r->link_hint > 3 || r->len > FOLIO_MAX_FILE)
		abort();
}

static void one(const char *p, size_t n)
{
	struct src_cache *c = src_cache_new(SALT);
	if (src_cache_read(c, p, n) != 0) {
		if (src_cache_count(c))
			abort(); /* refused: nothing kept */
		src_cache_free(c);
		return;
	}
	char *paths[MAX_GETS];
	struct src_record got[MAX_GETS];
	size_t ngot = 0, at = HEAD;
	while (ngot < MAX_GETS && n >= REC && at <= n - REC) {
		uint32_t len;
		memcpy(&len, p + at + 68, 4);
		if (len > n - at - REC || len > 4095)
			break;
		char *path = xstrndup(p + at + REC, len);
		const struct src_record *r = src_cache_get(c, path);
		if (!r)
			abort(); /* read whole: each record is found by its path */
		check(r);
		paths[ngot] = path;
		got[ngot++] = *r;
		at += REC + ((size_t)len + 7) / 8 * 8;
	}
	if (ngot != src_cache_count(c) && ngot < MAX_GETS)
		abort();
	struct buf w;
	buf_init(&w);
	src_cache_write(c, &w);
	src_cache_free(c);
	c = src_cache_new(SALT);
	if (src_cache_read(c, w.p, w.len) != 0)
		abort(); /* what folio writes, it must read */
	for (size_t i = 0; i < ngot; i++) {
		const struct src_record *r = src_cache_get(c, paths[i]);
		if (!r || !same(r, &got[i]))
			abort();
		free(paths[i]);
	}
	src_cache_free(c);
	buf_fini(&w);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	one((const char *)data, size);
	if (size >= HEAD) {
		char *copy = xmalloc(size);
		memcpy(copy, data, size);
		uint64_t salt = SALT, sum = XXH3_64bits(copy + HEAD, size - HEAD);
		memcpy(copy + 16, &salt, 8);
		memcpy(copy + 32, &sum, 8);
		one(copy, size);
		free(copy);
	}
	return 0;
}
