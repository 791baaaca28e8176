/* hash.c: XXH3 behind folio's hashing helper (see hash.h). */
#include "base/hash.h"

#include <pthread.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>
#define XXH_STATIC_LINKING_ONLY /* XXH3_state_t in struct hasher */
#include <xxhash.h>

uint64_t hash_bytes(const void *p, size_t n)
{
	/* xxHash: FNV-1a's byte at a time was an eighth of a 10k-post
	 * session's rebuild (every page path, link and key is hashed) */
	return XXH3_64bits(p, n);
}

uint64_t hash_seeded(const void *p, size_t n, uint64_t seed)
{
	return XXH3_64bits_withSeed(p, n, seed);
}

static uint64_t key_seed;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;

static void key_init(void)
{
	uint64_t s;
	if (getrandom(&s, sizeof s, GRND_NONBLOCK) != (ssize_t)sizeof s) {
		struct timespec t;
		clock_gettime(CLOCK_MONOTONIC, &t);
		s = (uint64_t)t.tv_nsec ^ ((uint64_t)t.tv_sec << 32) ^ ((uint64_t)getpid() << 16);
	}
	key_seed = s;
}

uint64_t hash_keyed(const void *p, size_t n)
{
	pthread_once(&key_once, key_init);
	return XXH3_64bits_withSeed(p, n, key_seed);
}

_Static_assert(sizeof(XXH3_state_t) <= sizeof(((struct hasher *)0)->state), "struct hasher holds an XXH3 state");

struct hash128 hash128_seeded(const void *p, size_t n, uint64_t seed)
{
	XXH128_hash_t h = XXH3_128bits_withSeed(p, n, seed);
	return (struct hash128){h.low64, h.high64};
}

void hasher_begin(struct hasher *h, uint64_t seed)
{
	XXH3_state_t *st = (XXH3_state_t *)h->state;
	/* a reset with a seed reads the state's last seed: it must be set */
	XXH3_INITSTATE(st);
	XXH3_64bits_reset_withSeed(st, seed);
}

void hasher_add(struct hasher *h, const void *p, size_t n)
{
	XXH3_64bits_update((XXH3_state_t *)h->state, p, n);
}

void hasher_add_cstr(struct hasher *h, const char *s)
{
	if (!s)
		s = "";
	hasher_add(h, s, strlen(s) + 1);
}

void hasher_add_u64(struct hasher *h, uint64_t v)
{
	hasher_add(h, &v, sizeof v);
}

uint64_t hasher_digest(const struct hasher *h)
{
	return XXH3_64bits_digest((const XXH3_state_t *)h->state);
}

struct hash128 hasher_digest128(const struct hasher *h)
{
	XXH128_hash_t v = XXH3_128bits_digest((const XXH3_state_t *)h->state);
	return (struct hash128){v.low64, v.high64};
}
