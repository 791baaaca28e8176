/* fuzz_related.c: libFuzzer target for the related posts a build keeps in
 * .folio-cache/related (related_cache_read, the layout in site.c). An
 * input is such a file. It is read as it is, and again with its last 8
 * bytes made the checksum of the rest, so that the checks behind the
 * checksum are reached by mutations too.
 *
 * Besides crashes, the target checks that lists read are whole: written
 * out again, they read back, and write out as the same bytes; and that
 * a read that fails leaves the cache empty (it writes nothing). */
#include "fuzz.h"

#include "model/site.h"

#include <xxhash.h>

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

static void one(struct related_cache *rc, const char *p, size_t n)
{
	struct buf a, b;
	buf_init(&a);
	buf_init(&b);
	if (related_cache_read(rc, p, n) == 0) {
		related_cache_write(rc, &a);
		if (!a.len || a.len != n)
			abort(); /* lists read, written as other lists */
		if (related_cache_read(rc, a.p, a.len) != 0)
			abort(); /* what folio writes, it must read */
		related_cache_write(rc, &b);
		if (b.len != a.len || memcmp(a.p, b.p, a.len))
			abort();
	} else {
		related_cache_write(rc, &a);
		if (a.len)
			abort(); /* a failed read left lists behind */
	}
	buf_fini(&a);
	buf_fini(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct related_cache *rc = related_cache_new();
	one(rc, (const char *)data, size);
	if (size >= 16) {
		char *copy = xmalloc(size);
		memcpy(copy, data, size);
		uint64_t sum = XXH3_64bits(copy, size - 8);
		memcpy(copy + size - 8, &sum, 8);
		one(rc, copy, size);
		free(copy);
	}
	related_cache_free(rc);
	return 0;
}
