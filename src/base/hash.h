/* hash.h: folio's one hashing helper (xxHash's XXH3): the hash of some
 * bytes, for tables in memory (hash_bytes; hash_keyed when the keys come
 * from a file), and a running hash of many pieces (struct hasher) for the
 * fingerprints and keys that the caches and the incremental build keep. */
#ifndef FOLIO_HASH_H
#define FOLIO_HASH_H

#include <stddef.h>
#include <stdint.h>

/* hash_bytes: XXH3 of p[0..n), the same in every process: for keys kept
 * in a file, and for tables whose keys folio makes itself. */
uint64_t hash_bytes(const void *p, size_t n);

/* hash_seeded: XXH3 of p[0..n) with seed. */
uint64_t hash_seeded(const void *p, size_t n, uint64_t seed);

/* hash_keyed: XXH3 of p[0..n) with a seed drawn once per process, for the
 * hash tables whose keys come from a file (heading ids, YAML keys,
 * formulas, messages) and whose order decides nothing: keys made to
 * collide cannot make such a table quadratic. Never written anywhere. */
uint64_t hash_keyed(const void *p, size_t n);

/* hash128_seeded: the 128-bit XXH3 of p[0..n) with seed, for keys that
 * name an entry of a cache file (two documents must not share one). */
struct hash128 {
	uint64_t lo, hi;
};
struct hash128 hash128_seeded(const void *p, size_t n, uint64_t seed);

/* A running hash, on the caller's stack: hasher_begin, any number of
 * hasher_add*, then hasher_digest (64 bits) or hasher_digest128, which
 * may be asked again after more is added. */
struct hasher {
	unsigned char state[640] __attribute__((aligned(64))); /* XXH3_state_t */
};

void hasher_begin(struct hasher *h, uint64_t seed);
void hasher_add(struct hasher *h, const void *p, size_t n);
/* hasher_add_cstr: s with its NUL (so that "ab","c" and "a","bc" differ);
 * NULL as "". */
void hasher_add_cstr(struct hasher *h, const char *s);
void hasher_add_u64(struct hasher *h, uint64_t v);
uint64_t hasher_digest(const struct hasher *h);
struct hash128 hasher_digest128(const struct hasher *h);

#endif
