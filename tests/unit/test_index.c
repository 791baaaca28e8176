/* test_index.c: the open-addressing index (index.c) over an array of
 * names, as the modules use it. */
#include "harness.h"

#include "base/buf.h"
#include "base/index.h"
#include "base/hash.h"

#include <stdio.h>
#include <string.h>

struct names {
	char v[3000][16];
	size_t n;
};

static uint64_t name_hash(const void *ctx, uint32_t v)
{
	const char *s = ((const struct names *)ctx)->v[v - 1];
	return hash_bytes(s, strlen(s));
}

static int name_eq(const void *ctx, uint32_t v, const void *key)
{
	return !strcmp(((const struct names *)ctx)->v[v - 1], key);
}

static const char *name_key(const void *ctx, uint32_t v)
{
	return ((const struct names *)ctx)->v[v - 1];
}

/* bad_hash: every key in one chain, so that probing past others and
 * wrapping around the end are exercised */
static uint64_t bad_hash(const void *ctx, uint32_t v)
{
	(void)ctx;
	(void)v;
	return 30;
}

void test_index(void)
{
	static struct names nm;
	struct index ix = {0};
	OK(index_get(&ix, 1, name_eq, &nm, "x") == 0); /* empty: no slots at all */

	/* added one by one: grows, and finds every one */
	for (size_t i = 0; i < 3000; i++) {
		snprintf(nm.v[i], sizeof nm.v[i], "name%zu", i);
		nm.n++;
		index_add(&ix, name_hash(&nm, (uint32_t)nm.n), (uint32_t)nm.n, 16, name_hash, &nm);
	}
	INT_EQ(ix.n, 3000);
	OK(ix.cap >= 6002 && (ix.cap & (ix.cap - 1)) == 0);
	int all = 1;
	for (size_t i = 0; i < 3000; i++)
		all &= index_get(&ix, hash_bytes(nm.v[i], strlen(nm.v[i])), name_eq, &nm, nm.v[i]) == i + 1;
	OK(all);
	OK(index_get(&ix, hash_bytes("name3000", 8), name_eq, &nm, "name3000") == 0);
	/* index_slot: the free slot where a new key would go */
	uint32_t *s = index_slot(&ix, hash_bytes("nope", 4), name_eq, &nm, "nope");
	OK(*s == 0);

	/* made anew at once, at least min slots */
	index_rebuild(&ix, 10, 1024, name_hash, &nm);
	INT_EQ(ix.cap, 1024);
	INT_EQ(ix.n, 10);
	OK(index_get(&ix, hash_bytes("name9", 5), name_eq, &nm, "name9") == 10);
	OK(index_get(&ix, hash_bytes("name10", 6), name_eq, &nm, "name10") == 0);
	index_fini(&ix);
	OK(ix.slot == NULL && ix.cap == 0 && ix.n == 0);

	/* one chain for all, starting near the end: it wraps */
	for (uint32_t v = 1; v <= 12; v++)
		index_add(&ix, bad_hash(&nm, v), v, 16, bad_hash, &nm);
	INT_EQ(ix.cap, 32);
	all = 1;
	for (uint32_t v = 1; v <= 12; v++)
		all &= index_get(&ix, 30, name_eq, &nm, nm.v[v - 1]) == v;
	OK(all);
	index_fini(&ix);

	/* keyed by C strings: hash_bytes and strcmp, the same slots as by hand */
	for (uint32_t v = 1; v <= 100; v++)
		index_add_str(&ix, nm.v[v - 1], v, 16, name_key, &nm);
	INT_EQ(ix.cap, 256);
	all = 1;
	for (uint32_t v = 1; v <= 100; v++)
		all &= index_get_str(&ix, nm.v[v - 1], name_key, &nm) == v &&
		       index_get(&ix, name_hash(&nm, v), name_eq, &nm, nm.v[v - 1]) == v;
	OK(all);
	OK(index_get_str(&ix, "name100", name_key, &nm) == 0);
	index_rebuild_str(&ix, 3000, 16, name_key, &nm);
	OK(index_get_str(&ix, "name2999", name_key, &nm) == 3000);
	index_fini(&ix);
	OK(index_get_str(&ix, "name1", name_key, &nm) == 0);

	INT_EQ(index_size(0, 16), 16);
	INT_EQ(index_size(7, 16), 16);
	INT_EQ(index_size(8, 16), 32);
}
