/* index.h: an open-addressing index of uint32_t slots over entries the
 * caller keeps (in an array, a buffer): each slot holds 0 (free) or a
 * value of the caller's, nonzero (an entry's position + 1, an offset + 1).
 * The caller hashes and compares keys; the index only probes, places and
 * grows. Linear probing, a power-of-two size, at most half full. */
#ifndef FOLIO_INDEX_H
#define FOLIO_INDEX_H

#include "base/buf.h"
#include "base/hash.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct index {
	uint32_t *slot;
	size_t cap; /* a power of two, or 0 before the first entry */
	size_t n;   /* values held */
};

/* index_hash_fn: the hash of the key of value v (for moving v when the
 * index grows). index_eq_fn: 1 if value v's key is key. */
typedef uint64_t (*index_hash_fn)(const void *ctx, uint32_t v);
typedef int (*index_eq_fn)(const void *ctx, uint32_t v, const void *key);

/* index_slot: the slot holding the value whose key eq matches key (hash
 * h), or the free slot where it would go. ix->cap must not be 0. Inline,
 * so that a static eq is inlined too: the template maps look keys up on
 * every {{ x.y }}. */
static inline uint32_t *index_slot(const struct index *ix, uint64_t h, index_eq_fn eq, const void *ctx,
				   const void *key)
{
	size_t mask = ix->cap - 1, j = (size_t)h & mask;
	while (ix->slot[j] && !eq(ctx, ix->slot[j], key))
		j = (j + 1) & mask;
	return &ix->slot[j];
}

/* index_get: the value whose key matches, or 0. */
static inline uint32_t index_get(const struct index *ix, uint64_t h, index_eq_fn eq, const void *ctx,
				 const void *key)
{
	return ix->cap ? *index_slot(ix, h, eq, ctx, key) : 0;
}

/* index_size: the size of an index of n values: at least min (a power of
 * two), at least 2n + 2. */
size_t index_size(size_t n, size_t min);
/* index_place: puts v in the first free slot from h. The index must have
 * room; for an index whose memory the caller gives (an arena's). */
void index_place(struct index *ix, uint64_t h, uint32_t v);
/* index_add: puts v (not there yet) under hash h; first grows the index
 * (to min slots at least) when one more would make it over half full. */
void index_add(struct index *ix, uint64_t h, uint32_t v, size_t min, index_hash_fn hash, const void *ctx);
/* index_rebuild: the index made anew, of the values 1..n (entries 0..n-1
 * of an array), at least min slots. */
void index_rebuild(struct index *ix, size_t n, size_t min, index_hash_fn hash, const void *ctx);
/* index_fini: frees the slots of an index index_add/index_rebuild made. */
void index_fini(struct index *ix);

/* The same for entries keyed by a NUL-terminated string (a path, a URL):
 * the caller says only where value v's key is; the index hashes it with
 * hash_bytes and compares it with strcmp. */
typedef const char *(*index_key_fn)(const void *ctx, uint32_t v);

struct index_str_ctx {
	index_key_fn key;
	const void *ctx;
};

static inline int index_str_eq(const void *ctx, uint32_t v, const void *key)
{
	const struct index_str_ctx *c = (const struct index_str_ctx *)ctx;
	return !strcmp(c->key(c->ctx, v), (const char *)key);
}

static inline uint32_t index_get_str(const struct index *ix, const char *key, index_key_fn fn, const void *ctx)
{
	struct index_str_ctx c = {fn, ctx};
	return index_get(ix, hash_bytes(key, strlen(key)), index_str_eq, &c, key);
}

void index_add_str(struct index *ix, const char *key, uint32_t v, size_t min, index_key_fn fn, const void *ctx);
void index_rebuild_str(struct index *ix, size_t n, size_t min, index_key_fn fn, const void *ctx);

#endif
