/* fuzz_fmcache.c: libFuzzer target for the front matter trees a build
 * keeps in .folio-cache/frontmatter (fm_cache_read and fm_cache_get; the
 * layout in fmcache.c). An input is such a file. It is read as it is, and
 * again with its salt and checksum made right, so that mutations reach
 * the entries and the trees; the keys to ask for are read from the input
 * at the places the format puts them.
 *
 * Besides crashes, the target checks that a tree given keeps the promises
 * of tests/fuzz/tree.h (then used as front matter is), and that the trees
 * given, written out and read back, are given again the same. */
#include "fuzz.h"
#include "tree.h"

#include "cache/fmcache.h"

#include <xxhash.h>

#define SALT 7
#define MAX_GETS 64
#define FIRST 2
#define LAST 100000
#define MAX_COL 100000

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

static int same(const struct ynode *a, const struct ynode *b)
{
	if (a->kind != b->kind || a->line != b->line || a->col != b->col || a->quoted != b->quoted)
		return 0;
	if (a->kind == YNODE_SCALAR)
		return str_eq(a->str, b->str);
	if (a->len != b->len)
		return 0;
	for (size_t i = 0; i < a->len; i++)
		if ((a->kind == YNODE_MAP && !same(a->keys[i], b->keys[i])) || !same(a->items[i], b->items[i]))
			return 0;
	return 1;
}

static void one(struct arena *a, const char *p, size_t n, struct buf *out)
{
	struct fm_cache *c = fm_cache_new(SALT);
	if (fm_cache_read(c, p, n) != 0) {
		fm_cache_free(c);
		return;
	}
	/* the keys where the entries are */
	struct fm_key keys[MAX_GETS];
	struct ynode *got[MAX_GETS];
	size_t nkeys = 0, at = 40;
	while (nkeys < MAX_GETS && n >= 24 && at <= n - 24) {
		uint32_t len;
		memcpy(&keys[nkeys].lo, p + at, 8);
		memcpy(&keys[nkeys].hi, p + at + 8, 8);
		memcpy(&len, p + at + 16, 4);
		got[nkeys] = fm_cache_get(c, a, keys[nkeys], FIRST, LAST, MAX_COL);
		if (got[nkeys]) {
			fuzz_tree_walk(got[nkeys], 0, FIRST, LAST);
			fuzz_tree_use(a, got[nkeys], out);
		}
		nkeys++;
		if (len > n - at - 24)
			break;
		at += 24 + ((size_t)len + 7) / 8 * 8;
	}
	struct buf w;
	buf_init(&w);
	fm_cache_write(c, &w);
	fm_cache_free(c);
	c = fm_cache_new(SALT);
	if (fm_cache_read(c, w.p, w.len) != 0)
		abort(); /* what folio writes, it must read */
	for (size_t i = 0; i < nkeys; i++)
		if (got[i]) {
			struct ynode *again = fm_cache_get(c, a, keys[i], FIRST, LAST, MAX_COL);
			if (!again || !same(again, got[i]))
				abort();
		}
	fm_cache_free(c);
	buf_fini(&w);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct arena *a = arena_new();
	struct buf out;
	buf_init(&out);
	one(a, (const char *)data, size, &out);
	if (size >= 40) {
		char *copy = xmalloc(size);
		memcpy(copy, data, size);
		uint64_t salt = SALT, sum = XXH3_64bits(copy + 40, size - 40);
		memcpy(copy + 16, &salt, 8);
		memcpy(copy + 32, &sum, 8);
		one(a, copy, size, &out);
		free(copy);
	}
	buf_fini(&out);
	arena_free(a);
	return 0;
}
