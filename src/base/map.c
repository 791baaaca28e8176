/* map.c: the map of byte-string keys (see map.h): entries in an array,
 * found through an index of their positions. */
#include "base/map.h"

#include "base/arena.h"
#include "base/hash.h"

#include <stdlib.h>
#include <string.h>

struct probe {
	const void *key;
	size_t len;
	uint64_t h;
};

static int entry_eq(const void *ctx, uint32_t v, const void *key)
{
	const struct map_entry *e = &((const struct map *)ctx)->e[v - 1];
	const struct probe *k = key;
	return e->hash == k->h && e->len == k->len && (k->len == 0 || memcmp(e->key, k->key, k->len) == 0);
}

static uint64_t entry_hash(const void *ctx, uint32_t v)
{
	return ((const struct map *)ctx)->e[v - 1].hash;
}

void map_fini(struct map *m)
{
	free(m->e);
	index_fini(&m->ix);
	memset(m, 0, sizeof *m);
}

void map_reserve(struct map *m, size_t n)
{
	if (n <= m->cap)
		return;
	m->e = xrealloc(m->e, n * sizeof *m->e);
	m->cap = n;
	if (index_size(n, 16) > m->ix.cap)
		index_rebuild(&m->ix, m->n, index_size(n, 16), entry_hash, m);
}

struct map_entry *map_find_h(const struct map *m, uint64_t h, const void *key, size_t len)
{
	struct probe k = {key, len, h};
	uint32_t v = index_get(&m->ix, h, entry_eq, m, &k);
	return v ? &m->e[v - 1] : NULL;
}

struct map_entry *map_find(const struct map *m, const void *key, size_t len)
{
	return m->n ? map_find_h(m, hash_keyed(key, len), key, len) : NULL;
}

struct map_entry *map_put_h(struct map *m, uint64_t h, const void *key, size_t len, int *added)
{
	struct map_entry *e = m->n ? map_find_h(m, h, key, len) : NULL;
	if (added)
		*added = !e;
	if (e)
		return e;
	if (m->n == m->cap)
		map_reserve(m, m->cap ? m->cap * 2 : 8);
	e = &m->e[m->n++];
	e->key = key;
	e->len = len;
	e->hash = h;
	e->val.u = 0;
	index_add(&m->ix, h, (uint32_t)m->n, 16, entry_hash, m);
	return e;
}

struct map_entry *map_put(struct map *m, const void *key, size_t len, int *added)
{
	return map_put_h(m, hash_keyed(key, len), key, len, added);
}

void *map_get(const struct map *m, const void *key, size_t len)
{
	struct map_entry *e = map_find(m, key, len);
	return e ? e->val.p : NULL;
}

struct map_entry *map_cstr(const struct map *m, const char *key)
{
	return map_find(m, key, strlen(key));
}
