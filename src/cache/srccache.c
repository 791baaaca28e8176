/* srccache.c: the records of content files kept between builds
 * (srccache.h).
 *
 * The file: SRC_MAGIC, the salt, the number of records and the XXH3 of
 * every byte after the head (u64 each), then each record: content, len,
 * body_off, body_hash, the front matter's key (two u64) and fm_len (u64
 * each), body_line, fm_lines and link_hint (i32 each), the path's length
 * (u32), then the path, padded to 8. A file that is not whole is not read
 * at all, and neither is one with a record no build makes (a body past the
 * file's end, a path that is not a content file's), so that no file,
 * however made, gives a record a build could not have given. */
#include "cache/srccache.h"

#include "base/index.h"
#include "base/hash.h"

#include <stdlib.h>
#include <string.h>

#define SRC_MAGIC "folio-sources 1\n"
#define SRC_HEAD 40
#define REC_HEAD 72
#define PATH_MAX_LEN 4095

struct rec {
	char *path;
	struct src_record r;
};

struct src_cache {
	uint64_t salt;
	struct rec *v;
	size_t n, cap;
	struct index ix; /* position + 1 by path */
};

struct src_cache *src_cache_new(uint64_t salt)
{
	struct src_cache *c = xcalloc(1, sizeof *c);
	c->salt = salt;
	return c;
}

static void clear(struct src_cache *c)
{
	for (size_t i = 0; i < c->n; i++)
		free(c->v[i].path);
	free(c->v);
	c->v = NULL;
	c->n = c->cap = 0;
	index_fini(&c->ix);
}

void src_cache_free(struct src_cache *c)
{
	if (!c)
		return;
	clear(c);
	free(c);
}

size_t src_cache_count(const struct src_cache *c)
{
	return c ? c->n : 0;
}

static const char *rec_path(const void *ctx, uint32_t v)
{
	return ((const struct src_cache *)ctx)->v[v - 1].path;
}

const struct src_record *src_cache_get(const struct src_cache *c, const char *path)
{
	if (!c || !c->n)
		return NULL;
	uint32_t v = index_get_str(&c->ix, path, rec_path, c);
	return v ? &c->v[v - 1].r : NULL;
}

/* valid: whether a build could have made r, the record of path[0..n):
 * a content file's path (content/..., .md, no NUL, no "..", not hidden),
 * its body within its bytes, a front matter before the body, hashes that
 * are set, a link hint a scan gives. */
static int valid(const char *path, size_t n, const struct src_record *r)
{
	if (n < 12 || n > PATH_MAX_LEN || memchr(path, '\0', n) || strncmp(path, "content/", 8) ||
	    memcmp(path + n - 3, ".md", 3))
		return 0;
	for (size_t i = 0; i + 1 < n; i++)
		if (path[i] == '/' && (path[i + 1] == '.' || path[i + 1] == '/'))
			return 0;
	return r->content && r->body_hash && r->len <= FOLIO_MAX_FILE && r->body_off <= r->len &&
	       r->fm_len < r->body_off && r->body_line >= 2 && r->fm_lines >= 1 && r->fm_lines <= r->body_line &&
	       (uint64_t)r->body_line <= r->body_off && r->link_hint >= 1 && r->link_hint <= 3;
}

static void add(struct src_cache *c, const char *path, size_t n, const struct src_record *r)
{
	if (c->n == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 256;
		c->v = xrealloc(c->v, c->cap * sizeof *c->v);
	}
	c->v[c->n] = (struct rec){xstrndup(path, n), *r};
	c->n++;
	index_add_str(&c->ix, c->v[c->n - 1].path, (uint32_t)c->n, 256, rec_path, c);
}

void src_cache_put(struct src_cache *c, const char *path, const struct src_record *r)
{
	size_t n = strlen(path);
	if (!valid(path, n, r))
		return;
	uint32_t v = index_get_str(&c->ix, path, rec_path, c);
	if (v)
		c->v[v - 1].r = *r;
	else
		add(c, path, n, r);
}

int src_cache_read(struct src_cache *c, const void *bytes, size_t len)
{
	const char *p = bytes;
	clear(c);
	if (len < SRC_HEAD || memcmp(p, SRC_MAGIC, 16) || load_u64(p + 16) != c->salt ||
	    hash_bytes(p + SRC_HEAD, len - SRC_HEAD) != load_u64(p + 32))
		return -1;
	uint64_t count = load_u64(p + 24);
	if (count > (len - SRC_HEAD) / (REC_HEAD + 16))
		return -1; /* each record takes that much at least */
	size_t at = SRC_HEAD;
	for (uint64_t i = 0; i < count; i++) {
		if (len - at < REC_HEAD)
			goto bad;
		const char *h = p + at;
		struct src_record r = {load_u64(h),
				       load_u64(h + 8),
				       load_u64(h + 16),
				       load_u64(h + 24),
				       {load_u64(h + 32), load_u64(h + 40)},
				       load_u64(h + 48),
				       (int32_t)load_u32(h + 56),
				       (int32_t)load_u32(h + 60),
				       (int32_t)load_u32(h + 64)};
		uint32_t n = load_u32(h + 68);
		if (n > len - at - REC_HEAD || !valid(h + REC_HEAD, n, &r))
			goto bad;
		char path[PATH_MAX_LEN + 1];
		memcpy(path, h + REC_HEAD, n);
		path[n] = '\0';
		if (src_cache_get(c, path))
			goto bad; /* a path twice: a build writes each once */
		add(c, path, n, &r);
		at += REC_HEAD + ((size_t)n + 7) / 8 * 8;
		if (at > len)
			goto bad;
	}
	if (at != len)
		goto bad;
	return 0;
bad:
	clear(c);
	return -1;
}

static void put64(struct buf *b, uint64_t v)
{
	buf_append(b, &v, 8);
}

static void put32(struct buf *b, int32_t v)
{
	buf_append(b, &v, 4);
}

void src_cache_write(const struct src_cache *c, struct buf *b)
{
	buf_reset(b);
	buf_reserve(b, SRC_HEAD + c->n * (REC_HEAD + 64));
	char head[SRC_HEAD];
	memset(head, 0, sizeof head);
	buf_append(b, head, sizeof head);
	for (size_t i = 0; i < c->n; i++) {
		const struct src_record *r = &c->v[i].r;
		size_t n = strlen(c->v[i].path);
		put64(b, r->content);
		put64(b, r->len);
		put64(b, r->body_off);
		put64(b, r->body_hash);
		put64(b, r->fm.lo);
		put64(b, r->fm.hi);
		put64(b, r->fm_len);
		put32(b, r->body_line);
		put32(b, r->fm_lines);
		put32(b, r->link_hint);
		put32(b, (int32_t)n);
		buf_append(b, c->v[i].path, n);
		static const char zero[8];
		buf_append(b, zero, (8 - n % 8) % 8);
	}
	uint64_t count = c->n;
	memcpy(b->p, SRC_MAGIC, 16);
	memcpy(b->p + 16, &c->salt, 8);
	memcpy(b->p + 24, &count, 8);
	uint64_t sum = hash_bytes(b->p + SRC_HEAD, b->len - SRC_HEAD);
	memcpy(b->p + 32, &sum, 8);
}
