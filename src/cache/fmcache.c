/* fmcache.c: front matter trees kept between builds (fmcache.h). Each is
 * kept as bytes, node by node in document order: kind, quoted (a byte
 * each), two zero bytes, line, column and n (u32 each: a scalar's length,
 * a sequence's items, a map's pairs), then a scalar's text, a sequence's
 * items or a map's keys and values, one after the other.
 *
 * The file: FM_MAGIC, the salt, the number of entries and the XXH3 of
 * every byte after the head (u64 each), then each entry: its key (two
 * u64), the length of its tree's bytes (u32), four zero bytes, the bytes,
 * padded to 8. A file that is not whole is not read at all; a tree is
 * checked again as it is made (fm_cache_get), so that no file, however
 * made, gives a tree yaml_parse could not have made. */
#include "cache/fmcache.h"

#include "base/index.h"
#include "base/hash.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define FM_MAGIC "folio-fm-pack 1\n"
#define FM_HEAD 40
#define NODE_HEAD 16

struct entry {
	struct fm_key key;
	size_t off, len; /* of its bytes in data (read) or in added (put) */
	atomic_int used;
};

/* The entries read are fixed once read (gets read them from any thread);
 * those put go to a list of their own, under the lock. */
struct entries {
	struct entry *e;
	size_t n, cap;
};

struct fm_cache {
	uint64_t salt;
	char *data; /* the entries' bytes of the file read */
	struct entries read;
	struct index ix; /* the entries read, by key */
	pthread_mutex_t lock;
	struct entries put;
	struct buf added; /* the bytes of those put */
};

struct fm_cache *fm_cache_new(uint64_t salt)
{
	struct fm_cache *c = xcalloc(1, sizeof *c);
	c->salt = salt;
	pthread_mutex_init(&c->lock, NULL);
	buf_init(&c->added);
	return c;
}

static void clear(struct fm_cache *c)
{
	free(c->data);
	c->data = NULL;
	free(c->read.e);
	free(c->put.e);
	memset(&c->read, 0, sizeof c->read);
	memset(&c->put, 0, sizeof c->put);
	index_fini(&c->ix);
	buf_reset(&c->added);
}

void fm_cache_free(struct fm_cache *c)
{
	if (!c)
		return;
	clear(c);
	buf_fini(&c->added);
	pthread_mutex_destroy(&c->lock);
	free(c);
}

struct fm_key fm_cache_key(const char *text, size_t len, int line_offset)
{
	struct hash128 h = hash128_seeded(text, len, (uint64_t)(int64_t)line_offset);
	return (struct fm_key){h.lo, h.hi};
}

/* an index of entries' keys: ctx is the entries, v a position + 1 */
static uint64_t key_hash(const void *ctx, uint32_t v)
{
	return ((const struct entries *)ctx)->e[v - 1].key.lo;
}

static int key_eq(const void *ctx, uint32_t v, const void *key)
{
	const struct fm_key *a = &((const struct entries *)ctx)->e[v - 1].key, *b = key;
	return a->lo == b->lo && a->hi == b->hi;
}

static struct entry *add_entry(struct entries *l)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 256;
		l->e = xrealloc(l->e, l->cap * sizeof *l->e);
	}
	struct entry *e = &l->e[l->n++];
	memset(e, 0, sizeof *e);
	return e;
}

int fm_cache_read(struct fm_cache *c, const void *bytes, size_t len)
{
	const char *p = bytes;
	clear(c);
	if (len < FM_HEAD || memcmp(p, FM_MAGIC, 16) || load_u64(p + 16) != c->salt ||
	    hash_bytes(p + FM_HEAD, len - FM_HEAD) != load_u64(p + 32))
		return -1;
	uint64_t count = load_u64(p + 24);
	if (count > (len - FM_HEAD) / 24)
		return -1; /* each entry takes 24 bytes at least */
	c->data = xmalloc(len - FM_HEAD + 1);
	memcpy(c->data, p + FM_HEAD, len - FM_HEAD);
	size_t at = 0, end = len - FM_HEAD;
	for (uint64_t i = 0; i < count; i++) {
		if (end - at < 24)
			goto bad;
		const char *h = c->data + at;
		size_t n = load_u32(h + 16);
		if (n > end - at - 24)
			goto bad;
		struct entry *e = add_entry(&c->read);
		e->key = (struct fm_key){load_u64(h), load_u64(h + 8)};
		e->off = at + 24;
		e->len = n;
		at += 24 + (n + 7) / 8 * 8;
		if (at > end)
			goto bad;
		if (index_get(&c->ix, e->key.lo, key_eq, &c->read, &e->key)) {
			c->read.n--; /* a key twice: the first one stays */
			continue;
		}
		index_add(&c->ix, e->key.lo, (uint32_t)c->read.n, 256, key_hash, &c->read);
	}
	if (at != end)
		goto bad;
	return 0;
bad:
	clear(c);
	return -1;
}

/* ---- a tree as bytes, and back ---- */

static void put_node(struct buf *b, const struct ynode *n)
{
	unsigned char head[NODE_HEAD] = {(unsigned char)n->kind, (unsigned char)(n->quoted != 0), 0, 0};
	uint32_t line = (uint32_t)n->line, col = (uint32_t)n->col;
	uint32_t count = n->kind == YNODE_SCALAR ? (uint32_t)n->str.len : (uint32_t)n->len;
	memcpy(head + 4, &line, 4);
	memcpy(head + 8, &col, 4);
	memcpy(head + 12, &count, 4);
	buf_append(b, head, sizeof head);
	if (n->kind == YNODE_SCALAR) {
		buf_append(b, n->str.p, n->str.len);
		return;
	}
	for (size_t i = 0; i < n->len; i++) {
		if (n->kind == YNODE_MAP)
			put_node(b, n->keys[i]);
		put_node(b, n->items[i]);
	}
}

struct reader {
	const char *p, *end;
	struct arena *a;
	uint32_t first, last, max_col; /* where the text's nodes may be */
};

static const char *map_key(const void *ctx, uint32_t v)
{
	return ((const struct ynode *)ctx)->keys[v - 1]->str.p;
}

/* twice: whether the map m has a key twice (keys hold no NUL). */
static int twice(const struct ynode *m)
{
	if (m->len <= 16) {
		for (size_t i = 1; i < m->len; i++)
			for (size_t j = 0; j < i; j++)
				if (str_eq(m->keys[i]->str, m->keys[j]->str))
					return 1;
		return 0;
	}
	struct index ix = {0};
	int found = 0;
	for (size_t i = 0; i < m->len && !found; i++) {
		if (index_get_str(&ix, m->keys[i]->str.p, map_key, m))
			found = 1;
		else
			index_add_str(&ix, m->keys[i]->str.p, (uint32_t)i + 1, 64, map_key, m);
	}
	index_fini(&ix);
	return found;
}

/* get_node: the node at r->p, made in r->a, or NULL when the bytes are not
 * one yaml_parse could make (depth as in YAML_MAX_DEPTH, keys scalars,
 * lines and columns from 1, a scalar's text without a NUL). */
static struct ynode *get_node(struct reader *r, int depth, int key)
{
	if ((size_t)(r->end - r->p) < NODE_HEAD || depth > YAML_MAX_DEPTH + 1)
		return NULL;
	const char *h = r->p;
	unsigned kind = (unsigned char)h[0], quoted = (unsigned char)h[1];
	uint32_t line = load_u32(h + 4), col = load_u32(h + 8), count = load_u32(h + 12);
	if (kind > YNODE_MAP || quoted > 1 || h[2] || h[3] || line < r->first || line > r->last || !col ||
	    col > r->max_col || (key && kind != YNODE_SCALAR) || (kind != YNODE_SCALAR && quoted))
		return NULL;
	r->p += NODE_HEAD;
	struct ynode *n = arena_alloc(r->a, sizeof *n);
	n->kind = (enum ynode_kind)kind;
	n->line = (int)line;
	n->col = (int)col;
	n->quoted = (int)quoted;
	if (kind == YNODE_SCALAR) {
		if ((size_t)(r->end - r->p) < count || memchr(r->p, '\0', count))
			return NULL;
		n->str = (struct str){arena_strndup(r->a, r->p, count), count};
		r->p += count;
		return n;
	}
	/* each child takes NODE_HEAD bytes at least */
	size_t per = kind == YNODE_MAP ? 2 * NODE_HEAD : NODE_HEAD;
	if (count > (size_t)(r->end - r->p) / per)
		return NULL;
	n->len = count;
	n->items = arena_alloc(r->a, ((size_t)count + 1) * sizeof *n->items);
	if (kind == YNODE_MAP)
		n->keys = arena_alloc(r->a, ((size_t)count + 1) * sizeof *n->keys);
	for (size_t i = 0; i < count; i++) {
		if (kind == YNODE_MAP && !(n->keys[i] = get_node(r, depth + 1, 1)))
			return NULL;
		if (!(n->items[i] = get_node(r, depth + 1, 0)))
			return NULL;
	}
	if (kind == YNODE_MAP && twice(n))
		return NULL; /* yaml_parse reports a key twice */
	return n;
}

struct ynode *fm_cache_get(struct fm_cache *c, struct arena *a, struct fm_key k, int first, int last, int max_col)
{
	if (first < 1 || last < first || max_col < 1)
		return NULL;
	uint32_t v = index_get(&c->ix, k.lo, key_eq, &c->read, &k);
	if (!v)
		return NULL;
	struct entry *e = &c->read.e[v - 1];
	struct reader r = {c->data + e->off, c->data + e->off + e->len, a, (uint32_t)first, (uint32_t)last,
			   (uint32_t)max_col};
	struct ynode *n = get_node(&r, 0, 0);
	if (!n || r.p != r.end)
		return NULL; /* the memory it took stays in a until the build ends */
	atomic_store_explicit(&e->used, 1, memory_order_relaxed);
	return n;
}

void fm_cache_put(struct fm_cache *c, struct fm_key k, const struct ynode *tree)
{
	struct buf b;
	buf_init(&b);
	put_node(&b, tree);
	pthread_mutex_lock(&c->lock);
	struct entry *e = add_entry(&c->put);
	e->key = k;
	e->off = c->added.len;
	e->len = b.len;
	buf_append(&c->added, b.p, b.len);
	pthread_mutex_unlock(&c->lock);
	buf_fini(&b);
}

int fm_cache_dirty(const struct fm_cache *c)
{
	if (c->put.n)
		return 1;
	for (size_t i = 0; i < c->read.n; i++)
		if (!atomic_load_explicit(&c->read.e[i].used, memory_order_relaxed))
			return 1;
	return 0;
}

static void put_entry(struct buf *b, const struct entry *e, const char *bytes)
{
	static const char zero[8];
	uint32_t n = (uint32_t)e->len, pad = 0;
	buf_append(b, &e->key.lo, 8);
	buf_append(b, &e->key.hi, 8);
	buf_append(b, &n, 4);
	buf_append(b, &pad, 4);
	buf_append(b, bytes + e->off, e->len);
	buf_append(b, zero, (8 - e->len % 8) % 8);
}

void fm_cache_write(struct fm_cache *c, struct buf *b)
{
	buf_reset(b);
	char head[FM_HEAD] = {0};
	buf_append(b, head, sizeof head);
	/* the entries read that were used, then those put that were not
	 * read (a key once: a tree put twice, by two files with the same
	 * front matter, is the same) */
	struct index seen = {0};
	uint64_t count = 0;
	for (int put = 0; put < 2; put++) {
		struct entries *l = put ? &c->put : &c->read;
		for (size_t i = 0; i < l->n; i++) {
			struct entry *e = &l->e[i];
			if (!put && !atomic_load_explicit(&e->used, memory_order_relaxed))
				continue;
			if (put && (index_get(&c->ix, e->key.lo, key_eq, &c->read, &e->key) ||
				    index_get(&seen, e->key.lo, key_eq, l, &e->key)))
				continue;
			if (put)
				index_add(&seen, e->key.lo, (uint32_t)i + 1, 256, key_hash, l);
			put_entry(b, e, put ? c->added.p : c->data);
			count++;
		}
	}
	index_fini(&seen);
	memcpy(b->p, FM_MAGIC, 16);
	memcpy(b->p + 16, &c->salt, 8);
	memcpy(b->p + 24, &count, 8);
	uint64_t sum = hash_bytes(b->p + FM_HEAD, b->len - FM_HEAD);
	memcpy(b->p + 32, &sum, 8);
}
