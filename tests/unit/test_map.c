/* test_map.c: base's map (map.c), hashing helper (hash.c) and clocks
 * (clock.c): keys found again after the map grows, in the order they were
 * put, a running hash equal to the hash of the bytes in one piece, and
 * the build's date from SOURCE_DATE_EPOCH. */
#include "harness.h"

#include "base/clock.h"
#include "base/hash.h"
#include "base/map.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void test_map_basic(void)
{
	struct map m = MAP_INIT;
	OK(map_find(&m, "a", 1) == NULL); /* an empty map */
	OK(map_get(&m, "a", 1) == NULL);
	int added = -1;
	struct map_entry *e = map_put(&m, "alpha", 5, &added);
	INT_EQ(added, 1);
	INT_EQ(e->val.u, 0); /* zero when added */
	e->val.u = 7;
	e = map_put(&m, "alpha", 5, &added);
	INT_EQ(added, 0);
	INT_EQ(e->val.u, 7);
	/* the length is the key's: "alp" is another key, and so is "" */
	OK(map_find(&m, "alp", 3) == NULL);
	e = map_put(&m, "", 0, &added);
	INT_EQ(added, 1);
	e->val.p = &m;
	OK(map_get(&m, "", 0) == &m);
	OK(map_cstr(&m, "alpha") != NULL && map_cstr(&m, "alpha")->val.u == 7);
	INT_EQ(m.n, 2);
	map_fini(&m);
	INT_EQ(m.n, 0);
	OK(map_find(&m, "alpha", 5) == NULL); /* empty again, and usable */
	map_put(&m, "beta", 4, NULL);
	INT_EQ(m.n, 1);
	map_fini(&m);
}

static void test_map_grow(void)
{
	/* 10,000 keys: every one found after the map grew, with its value,
	 * and the entries in the order they were put */
	enum { N = 10000 };
	char (*keys)[16] = malloc(N * sizeof *keys);
	struct map m = MAP_INIT;
	for (int i = 0; i < N; i++) {
		snprintf(keys[i], sizeof keys[i], "key-%d", i);
		int added;
		map_put(&m, keys[i], strlen(keys[i]), &added)->val.u = (uint64_t)i + 1;
		if (!added)
			OK(!"a new key is added");
	}
	INT_EQ(m.n, N);
	int found = 0, ordered = 0;
	for (int i = 0; i < N; i++) {
		struct map_entry *e = map_find(&m, keys[i], strlen(keys[i]));
		found += e && e->val.u == (uint64_t)i + 1;
		ordered += m.e[i].key == keys[i];
	}
	INT_EQ(found, N);
	INT_EQ(ordered, N);
	OK(map_cstr(&m, "key-10000") == NULL);
	/* the caller's own hash: the _h forms find what they put */
	struct map h = MAP_INIT;
	uint64_t k[2] = {0x1234, 0x5678};
	map_put_h(&h, k[0], k, sizeof k, NULL)->val.u = 9;
	OK(map_find_h(&h, k[0], k, sizeof k) && map_find_h(&h, k[0], k, sizeof k)->val.u == 9);
	uint64_t other[2] = {0x1234, 0x9999}; /* the same hash, another key */
	OK(map_find_h(&h, k[0], other, sizeof other) == NULL);
	map_fini(&h);
	/* reserved first: no growing, the same result */
	struct map r = MAP_INIT;
	map_reserve(&r, 100);
	for (int i = 0; i < 100; i++)
		map_put(&r, keys[i], strlen(keys[i]), NULL);
	INT_EQ(r.cap, 100);
	OK(map_cstr(&r, "key-99") != NULL && map_cstr(&r, "key-100") == NULL);
	map_fini(&r);
	map_fini(&m);
	free(keys);
}

static void test_hash(void)
{
	const char *text = "the quick brown fox jumps over the lazy dog";
	size_t n = strlen(text);
	/* a running hash of pieces is the hash of the bytes */
	struct hasher h;
	hasher_begin(&h, 0);
	hasher_add(&h, text, 10);
	hasher_add(&h, text + 10, n - 10);
	OK(hasher_digest(&h) == hash_bytes(text, n));
	hasher_begin(&h, 42);
	hasher_add(&h, text, n);
	OK(hasher_digest(&h) == hash_seeded(text, n, 42));
	OK(hash_seeded(text, n, 42) != hash_bytes(text, n));
	struct hash128 a = hasher_digest128(&h), b = hash128_seeded(text, n, 42);
	OK(a.lo == b.lo && a.hi == b.hi);
	/* a digest may be asked again after more is added */
	uint64_t first = hasher_digest(&h);
	hasher_add_u64(&h, 1);
	OK(hasher_digest(&h) != first);
	/* strings with their NUL: "ab","c" is not "a","bc"; NULL is "" */
	struct hasher x, y, z;
	hasher_begin(&x, 0);
	hasher_add_cstr(&x, "ab");
	hasher_add_cstr(&x, "c");
	hasher_begin(&y, 0);
	hasher_add_cstr(&y, "a");
	hasher_add_cstr(&y, "bc");
	OK(hasher_digest(&x) != hasher_digest(&y));
	hasher_begin(&y, 0);
	hasher_add_cstr(&y, NULL);
	hasher_begin(&z, 0);
	hasher_add_cstr(&z, "");
	OK(hasher_digest(&y) == hasher_digest(&z));
	/* keyed: the same in one process */
	OK(hash_keyed(text, n) == hash_keyed(text, n));
}

static void test_clock(void)
{
	double t0 = clock_seconds(), t1 = clock_seconds();
	OK(t1 >= t0);
	INT_EQ(clock_build_now(12345), 12345); /* given: as it is */
	const char *was = getenv("SOURCE_DATE_EPOCH");
	char *keep = was ? strdup(was) : NULL;
	setenv("SOURCE_DATE_EPOCH", "1700000000", 1);
	INT_EQ(clock_build_now(0), 1700000000);
	setenv("SOURCE_DATE_EPOCH", "", 1); /* empty: the system's clock */
	OK(clock_build_now(0) > 1700000000);
	unsetenv("SOURCE_DATE_EPOCH");
	OK(clock_build_now(0) > 1700000000);
	if (keep) {
		setenv("SOURCE_DATE_EPOCH", keep, 1);
		free(keep);
	}
}

void test_map(void)
{
	test_map_basic();
	test_map_grow();
	test_hash();
	test_clock();
}
