/* index.c: the open-addressing index of uint32_t slots (see index.h), the
 * one table under folio's lookups by name: records by output path, files
 * by relative path, session keys, template names. */
#include "base/index.h"

#include "base/arena.h"
#include "base/hash.h"

#include <stdlib.h>
#include <string.h>

size_t index_size(size_t n, size_t min)
{
	size_t cap = min;
	while (cap < n * 2 + 2)
		cap *= 2;
	return cap;
}

void index_place(struct index *ix, uint64_t h, uint32_t v)
{
	size_t mask = ix->cap - 1, j = (size_t)h & mask;
	while (ix->slot[j])
		j = (j + 1) & mask;
	ix->slot[j] = v;
	ix->n++;
}

void index_add(struct index *ix, uint64_t h, uint32_t v, size_t min, index_hash_fn hash, const void *ctx)
{
	if ((ix->n + 1) * 2 > ix->cap) {
		struct index t = {0};
		t.cap = index_size(ix->n + 1, ix->cap ? ix->cap * 2 : min);
		t.slot = xcalloc(t.cap, sizeof *t.slot);
		for (size_t i = 0; i < ix->cap; i++)
			if (ix->slot[i])
				index_place(&t, hash(ctx, ix->slot[i]), ix->slot[i]);
		free(ix->slot);
		*ix = t;
	}
	index_place(ix, h, v);
}

void index_rebuild(struct index *ix, size_t n, size_t min, index_hash_fn hash, const void *ctx)
{
	free(ix->slot);
	ix->cap = index_size(n, min);
	ix->slot = xcalloc(ix->cap, sizeof *ix->slot);
	ix->n = 0;
	for (size_t i = 0; i < n; i++)
		index_place(ix, hash(ctx, (uint32_t)(i + 1)), (uint32_t)(i + 1));
}

void index_fini(struct index *ix)
{
	free(ix->slot);
	ix->slot = NULL;
	ix->cap = ix->n = 0;
}

static uint64_t str_hash(const void *ctx, uint32_t v)
{
	const struct index_str_ctx *c = ctx;
	const char *k = c->key(c->ctx, v);
	return hash_bytes(k, strlen(k));
}

void index_add_str(struct index *ix, const char *key, uint32_t v, size_t min, index_key_fn fn, const void *ctx)
{
	struct index_str_ctx c = {fn, ctx};
	index_add(ix, hash_bytes(key, strlen(key)), v, min, str_hash, &c);
}

void index_rebuild_str(struct index *ix, size_t n, size_t min, index_key_fn fn, const void *ctx)
{
	struct index_str_ctx c = {fn, ctx};
	index_rebuild(ix, n, min, str_hash, &c);
}
