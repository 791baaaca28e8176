/* test_fmcache.c: front matter trees kept between builds: a tree read back
 * is the tree yaml_parse made (kinds, text, quoting, positions), the file
 * is refused whole when a byte of it changed or another folio wrote it,
 * entries that cannot be trees of the text are never given, and the file
 * is written again only when its entries changed. */
#include "harness.h"

#include "base/arena.h"
#include "base/buf.h"
#include "base/diag.h"
#include "cache/fmcache.h"
#include "formats/yaml.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#define SALT 0x1234abcdULL

static struct arena *arena;

static const char *const texts[] = {
	"title: \"A post\"\ndate: 2026-01-02\ntags: [cuda, \"c++\", 'x']\n",
	"title: Series\nposts:\n  - a\n  - b\nnested:\n  deep:\n    deeper: [1, {k: v}]\n",
	"summary: |\n  A block\n  of text.\nempty: \"\"\nnull_value:\n",
	"",
	"unicode: \"caf\xc3\xa9 \xe2\x88\x91\"\nnumber: 3.5\n",
};
#define NTEXTS (sizeof texts / sizeof *texts)

static struct ynode *parse(const char *text)
{
	struct diag d;
	struct buf cap;
	buf_init(&cap);
	diag_init(&d, NULL);
	d.capture = &cap;
	struct ynode *n = yaml_parse(arena, &d, "t.md", text, strlen(text), text, strlen(text), 1);
	diag_fini(&d);
	buf_fini(&cap);
	return n;
}

/* same: whether two trees are the same in every field yaml_parse fills. */
static int same(const struct ynode *a, const struct ynode *b)
{
	if (a->kind != b->kind || a->line != b->line || a->col != b->col || !a->quoted != !b->quoted)
		return 0;
	if (a->kind == YNODE_SCALAR)
		return str_eq(a->str, b->str) && a->str.p[a->str.len] == '\0' && b->str.p[b->str.len] == '\0';
	if (a->len != b->len)
		return 0;
	for (size_t i = 0; i < a->len; i++)
		if ((a->kind == YNODE_MAP && !same(a->keys[i], b->keys[i])) || !same(a->items[i], b->items[i]))
			return 0;
	return 1;
}

static int lines_of(const char *t)
{
	int n = 1;
	for (; *t; t++)
		n += *t == '\n';
	return n;
}

static struct ynode *get(struct fm_cache *c, const char *text)
{
	return fm_cache_get(c, arena, fm_cache_key(text, strlen(text), 1), 2, 1 + lines_of(text),
			    (int)strlen(text) + 1);
}

/* filled: a cache holding the trees of every text, written into b. */
static void filled(struct buf *b)
{
	struct fm_cache *c = fm_cache_new(SALT);
	for (size_t i = 0; i < NTEXTS; i++)
		fm_cache_put(c, fm_cache_key(texts[i], strlen(texts[i]), 1), parse(texts[i]));
	OK(fm_cache_dirty(c));
	fm_cache_write(c, b);
	fm_cache_free(c);
}

static void test_round_trip(void)
{
	struct buf b;
	buf_init(&b);
	filled(&b);
	struct fm_cache *c = fm_cache_new(SALT);
	INT_EQ(fm_cache_read(c, b.p, b.len), 0);
	for (size_t i = 0; i < NTEXTS; i++) {
		struct ynode *t = get(c, texts[i]);
		OK(t != NULL);
		if (t)
			OK(same(t, parse(texts[i])));
	}
	/* every entry used, none added: nothing to write */
	OK(!fm_cache_dirty(c));
	/* a text not kept, or the same text starting on another line */
	OK(get(c, "title: other\n") == NULL);
	OK(fm_cache_get(c, arena, fm_cache_key(texts[0], strlen(texts[0]), 2), 3, 10, 100) == NULL);
	/* written again: the same bytes */
	struct buf again;
	buf_init(&again);
	fm_cache_write(c, &again);
	INT_EQ(again.len, b.len);
	OK(!memcmp(again.p, b.p, b.len));
	fm_cache_free(c);

	/* an entry not used is dropped from the next file; one put is added */
	c = fm_cache_new(SALT);
	INT_EQ(fm_cache_read(c, b.p, b.len), 0);
	OK(get(c, texts[0]) != NULL);
	OK(fm_cache_dirty(c));
	fm_cache_put(c, fm_cache_key("a: 1\n", 5, 1), parse("a: 1\n"));
	fm_cache_put(c, fm_cache_key("a: 1\n", 5, 1), parse("a: 1\n")); /* two files, one text */
	fm_cache_write(c, &again);
	fm_cache_free(c);
	c = fm_cache_new(SALT);
	INT_EQ(fm_cache_read(c, again.p, again.len), 0);
	OK(get(c, texts[0]) != NULL);
	OK(get(c, texts[1]) == NULL);
	OK(get(c, "a: 1\n") != NULL);
	fm_cache_free(c);
	buf_fini(&again);
	buf_fini(&b);
}

static void test_refused(void)
{
	struct buf b;
	buf_init(&b);
	filled(&b);
	struct fm_cache *c = fm_cache_new(SALT);
	/* any byte changed, or the file cut: not read at all */
	size_t refused = 0;
	for (size_t i = 0; i < b.len; i++) {
		b.p[i] ^= 0x20;
		refused += fm_cache_read(c, b.p, b.len) != 0;
		b.p[i] ^= 0x20;
	}
	INT_EQ(refused, b.len);
	for (size_t n = 0; n < b.len; n += 5)
		OK(fm_cache_read(c, b.p, n) != 0);
	OK(get(c, texts[0]) == NULL); /* a refused file leaves the cache empty */
	fm_cache_free(c);
	/* another folio's file */
	c = fm_cache_new(SALT + 1);
	OK(fm_cache_read(c, b.p, b.len) != 0);
	fm_cache_free(c);
	buf_fini(&b);
}

/* one_entry: a whole file of one entry, the tree bytes t[0..n) under the
 * key of text (its checksum made, as a hostile file would). */
static void one_entry(struct buf *b, const char *text, const void *t, size_t n)
{
	buf_reset(b);
	char head[40] = "folio-fm-pack 1\n";
	uint64_t salt = SALT, count = 1;
	memcpy(head + 16, &salt, 8);
	memcpy(head + 24, &count, 8);
	buf_append(b, head, sizeof head);
	struct fm_key k = fm_cache_key(text, strlen(text), 1);
	uint32_t len = (uint32_t)n, pad = 0;
	buf_append(b, &k.lo, 8);
	buf_append(b, &k.hi, 8);
	buf_append(b, &len, 4);
	buf_append(b, &pad, 4);
	buf_append(b, t, n);
	static const char zero[8];
	buf_append(b, zero, (8 - n % 8) % 8);
	uint64_t sum = XXH3_64bits(b->p + 40, b->len - 40);
	memcpy(b->p + 32, &sum, 8);
}

/* node: a node's 16 bytes of head. */
static void node(struct buf *b, int kind, int quoted, uint32_t line, uint32_t col, uint32_t n)
{
	unsigned char h[16] = {(unsigned char)kind, (unsigned char)quoted, 0, 0};
	memcpy(h + 4, &line, 4);
	memcpy(h + 8, &col, 4);
	memcpy(h + 12, &n, 4);
	buf_append(b, h, sizeof h);
}

/* The checks behind the checksum: trees no text could give. */
static void test_not_trees(void)
{
	const char *text = "a: b\nc: d\n";
	struct buf t, f;
	buf_init(&t);
	buf_init(&f);
	struct fm_cache *c = fm_cache_new(SALT);
	struct {
		const char *what;
		int kind, quoted, key_kind;
		uint32_t line, col;
		const char *key, *value;
	} cases[] = {
		{"a good map", YNODE_MAP, 0, YNODE_SCALAR, 2, 1, "a", "b"},
		{"a line before the text", YNODE_MAP, 0, YNODE_SCALAR, 1, 1, "a", "b"},
		{"a line after it", YNODE_MAP, 0, YNODE_SCALAR, 9, 1, "a", "b"},
		{"a column past it", YNODE_MAP, 0, YNODE_SCALAR, 2, 99, "a", "b"},
		{"column 0", YNODE_MAP, 0, YNODE_SCALAR, 2, 0, "a", "b"},
		{"a map quoted", YNODE_MAP, 1, YNODE_SCALAR, 2, 1, "a", "b"},
		{"no such kind", 7, 0, YNODE_SCALAR, 2, 1, "a", "b"},
		{"a key that is a list", YNODE_MAP, 0, YNODE_SEQ, 2, 1, "a", "b"},
		{"a NUL in a scalar", YNODE_MAP, 0, YNODE_SCALAR, 2, 1, "a", "b\0c"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		buf_reset(&t);
		node(&t, cases[i].kind, cases[i].quoted, cases[i].line, cases[i].col, 1);
		if (cases[i].key_kind == YNODE_SCALAR) {
			node(&t, YNODE_SCALAR, 0, 2, 1, (uint32_t)strlen(cases[i].key));
			buf_append(&t, cases[i].key, strlen(cases[i].key));
		} else {
			node(&t, YNODE_SEQ, 0, 2, 1, 0);
		}
		size_t vl = strlen(cases[i].value) + (strstr(cases[i].what, "NUL") ? 2 : 0);
		node(&t, YNODE_SCALAR, 0, 2, 4, (uint32_t)vl);
		buf_append(&t, cases[i].value, vl);
		one_entry(&f, text, t.p, t.len);
		INT_EQ(fm_cache_read(c, f.p, f.len), 0);
		struct ynode *n = get(c, text);
		if (i == 0) {
			OK(n && n->kind == YNODE_MAP && n->len == 1 && !strcmp(n->items[0]->str.p, "b"));
		} else if (n) {
			t_fail(__FILE__, __LINE__, "%s: given as a tree", cases[i].what);
		}
	}
	/* a key twice, in a small map and in a big one */
	for (uint32_t keys = 3; keys <= 40; keys += 37) {
		buf_reset(&t);
		node(&t, YNODE_MAP, 0, 2, 1, keys);
		for (uint32_t k = 0; k < keys; k++) {
			char name[16];
			snprintf(name, sizeof name, "k%u", k == keys - 1 ? 0 : k);
			node(&t, YNODE_SCALAR, 0, 2, 1, (uint32_t)strlen(name));
			buf_append(&t, name, strlen(name));
			node(&t, YNODE_SCALAR, 0, 2, 1, 1);
			buf_append(&t, "v", 1);
		}
		one_entry(&f, text, t.p, t.len);
		INT_EQ(fm_cache_read(c, f.p, f.len), 0);
		OK(get(c, text) == NULL);
	}
	/* nested deeper than yaml_parse goes, counts past the bytes, bytes
	 * after the tree */
	buf_reset(&t);
	for (int d = 0; d < YAML_MAX_DEPTH + 3; d++)
		node(&t, YNODE_SEQ, 0, 2, 1, 1);
	node(&t, YNODE_SCALAR, 0, 2, 1, 0);
	one_entry(&f, text, t.p, t.len);
	INT_EQ(fm_cache_read(c, f.p, f.len), 0);
	OK(get(c, text) == NULL);
	buf_reset(&t);
	node(&t, YNODE_SEQ, 0, 2, 1, 0xffffffffu);
	one_entry(&f, text, t.p, t.len);
	INT_EQ(fm_cache_read(c, f.p, f.len), 0);
	OK(get(c, text) == NULL);
	buf_reset(&t);
	node(&t, YNODE_SCALAR, 0, 2, 1, 1);
	buf_append(&t, "xy", 2);
	one_entry(&f, text, t.p, t.len);
	INT_EQ(fm_cache_read(c, f.p, f.len), 0);
	OK(get(c, text) == NULL);
	fm_cache_free(c);
	buf_fini(&t);
	buf_fini(&f);
}

void test_fmcache(void)
{
	arena = arena_new();
	test_round_trip();
	test_refused();
	test_not_trees();
	arena_free(arena);
}
