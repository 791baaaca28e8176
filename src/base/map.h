/* map.h: folio's one map: byte-string keys (pointer + length) to a value
 * each, in the order they were put, looked up through index.h (open
 * addressing, at most half full). The keys are not copied: they must
 * outlive the map (an arena's, a file read whole, a literal). Keys are
 * hashed with hash_keyed (a seed per process), so keys made to collide
 * cannot make a map slow; a caller that already holds a good hash of
 * its key (a 128-bit key that is itself a hash) gives it with the _h
 * forms. Not thread-safe: a map shared by threads is locked by its
 * owner. */
#ifndef FOLIO_MAP_H
#define FOLIO_MAP_H

#include <stddef.h>
#include <stdint.h>

#include "base/index.h"

struct map_entry {
	const char *key;
	size_t len;
	uint64_t hash;
	union {
		void *p;
		uint64_t u;
	} val; /* zero when the entry is added */
};

struct map {
	struct map_entry *e; /* m->n entries, in the order they were put */
	size_t n, cap;
	struct index ix;
};

#define MAP_INIT {NULL, 0, 0, {NULL, 0, 0}}

/* map_fini: the map's memory (not the keys' or values'); the map is empty
 * and may be used again. */
void map_fini(struct map *m);
/* map_reserve: room for n entries in all without growing. */
void map_reserve(struct map *m, size_t n);

/* map_find: key's entry, or NULL. An entry stays where it is until the
 * next map_put. */
struct map_entry *map_find(const struct map *m, const void *key, size_t len);
struct map_entry *map_find_h(const struct map *m, uint64_t h, const void *key, size_t len);

/* map_put: key's entry, added (its value zero) if it is not there;
 * *added (may be NULL) says which. */
struct map_entry *map_put(struct map *m, const void *key, size_t len, int *added);
struct map_entry *map_put_h(struct map *m, uint64_t h, const void *key, size_t len, int *added);

/* map_get: the pointer under key, or NULL. */
void *map_get(const struct map *m, const void *key, size_t len);
/* map_cstr: map_find of a NUL-terminated key. */
struct map_entry *map_cstr(const struct map *m, const char *key);

#endif
