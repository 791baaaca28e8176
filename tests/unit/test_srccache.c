/* test_srccache.c: the records of content files kept between builds: a
 * record read back is the one put, found by its path; the file is refused
 * whole when any byte of it changed, when it is cut, or when another folio
 * wrote it; records no build makes are neither kept nor read. */
#include "harness.h"

#include "base/buf.h"
#include "cache/srccache.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#define SALT 0x51c0ffeeULL

static struct src_record rec(uint64_t seed)
{
	struct src_record r = {0x1000 + seed, 500 + seed, 120, 0x2000 + seed, {0x3000 + seed, 0x4000 + seed}, 100, 9, 7,
			       seed % 2 ? 1 : 2};
	return r;
}

static int same(const struct src_record *a, const struct src_record *b)
{
	return a->content == b->content && a->len == b->len && a->body_off == b->body_off &&
	       a->body_hash == b->body_hash && a->fm.lo == b->fm.lo && a->fm.hi == b->fm.hi && a->fm_len == b->fm_len &&
	       a->body_line == b->body_line && a->fm_lines == b->fm_lines && a->link_hint == b->link_hint;
}

static const char *const paths[] = {
	"content/posts/a.md",
	"content/posts/warps-and-occupancy.md",
	"content/posts/bundle/index.md",
	"content/series/gpu-systems.md",
	"content/pages/about.md",
};
#define NPATHS (sizeof paths / sizeof *paths)

static void make(struct buf *b)
{
	struct src_cache *c = src_cache_new(SALT);
	for (size_t i = 0; i < NPATHS; i++) {
		struct src_record r = rec(i);
		src_cache_put(c, paths[i], &r);
	}
	/* put again: replaced, not added */
	struct src_record r = rec(40);
	src_cache_put(c, paths[1], &r);
	INT_EQ(src_cache_count(c), NPATHS);
	buf_init(b);
	src_cache_write(c, b);
	src_cache_free(c);
}

static void test_round_trip(void)
{
	struct buf b;
	make(&b);
	struct src_cache *c = src_cache_new(SALT);
	INT_EQ(src_cache_read(c, b.p, b.len), 0);
	INT_EQ(src_cache_count(c), NPATHS);
	for (size_t i = 0; i < NPATHS; i++) {
		const struct src_record *got = src_cache_get(c, paths[i]);
		struct src_record want = rec(i == 1 ? 40 : i);
		OK(got && same(got, &want));
	}
	OK(src_cache_get(c, "content/posts/b.md") == NULL);
	OK(src_cache_get(c, "content/posts") == NULL);
	/* written again: the same bytes */
	struct buf again;
	buf_init(&again);
	src_cache_write(c, &again);
	OK(again.len == b.len && !memcmp(again.p, b.p, b.len));
	buf_fini(&again);
	src_cache_free(c);
	/* an empty cache writes a file that reads back empty */
	c = src_cache_new(SALT);
	buf_init(&again);
	src_cache_write(c, &again);
	struct src_cache *d = src_cache_new(SALT);
	INT_EQ(src_cache_read(d, again.p, again.len), 0);
	INT_EQ(src_cache_count(d), 0);
	OK(src_cache_get(d, paths[0]) == NULL);
	src_cache_free(d);
	src_cache_free(c);
	buf_fini(&again);
	buf_fini(&b);
}

static void test_refused(void)
{
	struct buf b;
	make(&b);
	struct src_cache *c = src_cache_new(SALT);
	/* another folio's */
	struct src_cache *other = src_cache_new(SALT + 1);
	INT_EQ(src_cache_read(other, b.p, b.len), -1);
	INT_EQ(src_cache_count(other), 0);
	src_cache_free(other);
	/* every byte changed, every cut: refused, and nothing kept */
	int all = 1;
	for (size_t i = 0; i < b.len; i++) {
		b.p[i] ^= 0x20;
		all &= src_cache_read(c, b.p, b.len) == -1 && src_cache_count(c) == 0;
		b.p[i] ^= 0x20;
	}
	OK(all);
	all = 1;
	for (size_t n = 0; n < b.len; n++)
		all &= src_cache_read(c, b.p, n) == -1 && src_cache_count(c) == 0;
	OK(all);
	/* a read that fails empties what was read before */
	INT_EQ(src_cache_read(c, b.p, b.len), 0);
	INT_EQ(src_cache_read(c, b.p, b.len - 1), -1);
	OK(src_cache_get(c, paths[0]) == NULL);
	src_cache_free(c);
	buf_fini(&b);
}

/* fix_sum: the checksum of b made right, after a change of its records */
static void fix_sum(struct buf *b)
{
	uint64_t sum = XXH3_64bits(b->p + 40, b->len - 40);
	memcpy(b->p + 32, &sum, 8);
}

static void test_not_records(void)
{
	struct src_cache *c = src_cache_new(SALT);
	/* records no build makes are not kept */
	static const char *const bad_paths[] = {"posts/a.md",          "content/posts/a.txt", "content/../x.md",
						"content/posts/.a.md", "content//a.md",       "content/.md"};
	for (size_t i = 0; i < sizeof bad_paths / sizeof *bad_paths; i++) {
		struct src_record r = rec(1);
		src_cache_put(c, bad_paths[i], &r);
	}
	struct src_record r = rec(1);
	r.body_off = r.len + 1; /* a body past the end */
	src_cache_put(c, paths[0], &r);
	r = rec(1);
	r.fm_len = r.body_off; /* a front matter over the body */
	src_cache_put(c, paths[0], &r);
	r = rec(1);
	r.content = 0;
	src_cache_put(c, paths[0], &r);
	r = rec(1);
	r.link_hint = 0;
	src_cache_put(c, paths[0], &r);
	r = rec(1);
	r.body_line = 1;
	src_cache_put(c, paths[0], &r);
	INT_EQ(src_cache_count(c), 0);
	/* nor read, with a checksum made right */
	struct buf b;
	make(&b);
	uint64_t past = 1u << 30; /* the first record's body_off, past its len */
	memcpy(b.p + 40 + 16, &past, 8);
	fix_sum(&b);
	INT_EQ(src_cache_read(c, b.p, b.len), -1);
	buf_fini(&b);
	make(&b);
	memcpy(b.p + 40 + 72, "xontent", 7); /* the first record's path */
	fix_sum(&b);
	INT_EQ(src_cache_read(c, b.p, b.len), -1);
	buf_fini(&b);
	/* a path twice */
	struct src_cache *two = src_cache_new(SALT);
	src_cache_put(two, "content/posts/a.md", &r);
	src_cache_put(two, "content/posts/b.md", &r);
	r = rec(1);
	src_cache_put(two, "content/posts/a.md", &r);
	src_cache_put(two, "content/posts/b.md", &r);
	INT_EQ(src_cache_count(two), 2);
	buf_init(&b);
	src_cache_write(two, &b);
	INT_EQ(src_cache_read(c, b.p, b.len), 0);
	size_t second = 40 + 72 + 24 + 72; /* 18 bytes of path, padded to 24 */
	OK(b.len > second + 18 && !memcmp(b.p + second, "content/posts/b.md", 18));
	b.p[second + 14] = 'a';
	fix_sum(&b);
	INT_EQ(src_cache_read(c, b.p, b.len), -1);
	buf_fini(&b);
	src_cache_free(two);
	src_cache_free(c);
}

void test_srccache(void)
{
	test_round_trip();
	test_refused();
	test_not_records();
}
