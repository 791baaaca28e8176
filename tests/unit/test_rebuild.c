/* test_rebuild.c: what a session renders again (rebuild.c), without a file
 * system: ids, fingerprints, the dirty decision, committing, and the state
 * as bytes; the build key's projections (key.c) and the decisions of the
 * incremental state (incr.c). */
#include "harness.h"

#include "base/arena.h"
#include "base/hash.h"
#include "cache/mdcache.h"
#include "incremental/incr.h"
#include "incremental/key.h"
#include "incremental/rebuild.h"
#include "model/site.h"
#include "read/config.h"
#include "read/content.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* A build of two pages: "a.html" reads the post's title (id post+1), "b.html"
 * reads the global (id g). fp is this build's fingerprint array. */
struct two {
	uint32_t post, g;
	uint64_t *fp;
	size_t nfp;
};

static void two_build(struct rebuild *rb, struct arena *a, const char *title, int64_t global, struct two *t)
{
	struct tmap *m = tmap_new(a, 4);
	tmap_set_cstr(a, m, "title", tv_cstr(title));
	t->post = rebuild_id(rb, "post:hello", 10, TMPL_DEP_FIELDS + 1);
	t->g = rebuild_id(rb, "global:n", 8, 1);
	m->dep = t->post;
	t->nfp = rebuild_nids(rb);
	t->fp = calloc(t->nfp, sizeof *t->fp);
	struct render_dep_val dv = {t->post, 1, tv_map(m)};
	rebuild_fingerprint_dep(rb, t->fp, &dv);
	struct render_dep_val gv = {t->g, 0, tv_int(global)};
	rebuild_fingerprint_dep(rb, t->fp, &gv);
}

static void test_ids(void)
{
	struct rebuild *rb = rebuild_new();
	uint32_t a = rebuild_id(rb, "post:a", 6, 3), b = rebuild_id(rb, "tag:x", 5, 1);
	INT_EQ(a, 1);
	INT_EQ(b, 4);
	INT_EQ(rebuild_id(rb, "post:a", 6, 3), 1); /* the same block */
	INT_EQ(rebuild_id(rb, "post:a", 6, 2), 1); /* smaller fits */
	INT_EQ(rebuild_id(rb, "post:a", 6, 5), 5); /* bigger: a new block, never the old ids */
	INT_EQ(rebuild_nids(rb), 10);
	/* many keys: the index grows, every id stays */
	int same = 1;
	for (int i = 0; i < 5000; i++) {
		char k[32];
		int n = snprintf(k, sizeof k, "k:%d", i);
		rebuild_id(rb, k, (size_t)n, 1);
	}
	for (int i = 0; i < 5000; i++) {
		char k[32];
		int n = snprintf(k, sizeof k, "k:%d", i);
		same &= rebuild_id(rb, k, (size_t)n, 1) == (uint32_t)(10 + i);
	}
	OK(same);
	rebuild_free(rb);
}

static uint64_t fpv(struct tval v, const char *extra)
{
	return rebuild_fingerprint(NULL, &v, extra);
}

static void test_fingerprints(void)
{
	struct arena *a = arena_new();
	struct tmap *m1 = tmap_new(a, 2), *m2 = tmap_new(a, 2);
	tmap_set_cstr(a, m1, "t", tv_cstr("x"));
	tmap_set_cstr(a, m2, "t", tv_cstr("x"));
	uint64_t f1 = fpv(tv_undef(), NULL);
	OK(f1 != 0);
	OK(fpv(tv_map(m1), "post.html") == fpv(tv_map(m2), "post.html"));
	OK(fpv(tv_map(m1), "post.html") != fpv(tv_map(m1), "page.html"));
	tmap_set_cstr(a, m2, "t", tv_cstr("y"));
	OK(fpv(tv_map(m1), NULL) != fpv(tv_map(m2), NULL));
	/* text and HTML of the same bytes differ */
	OK(fpv(tv_str(STR_LIT("<b>")), NULL) != fpv(tv_safe(STR_LIT("<b>")), NULL));
	/* a map with an id inside a value counts by its id */
	struct tmap *outer1 = tmap_new(a, 1), *outer2 = tmap_new(a, 1);
	m1->dep = 7;
	m2->dep = 7;
	tmap_set_cstr(a, outer1, "p", tv_map(m1));
	tmap_set_cstr(a, outer2, "p", tv_map(m2));
	OK(fpv(tv_map(outer1), NULL) == fpv(tv_map(outer2), NULL));

	/* a known text's hash is used for it: the same fingerprint as made,
	 * and (for a text told with another hash) that hash */
	struct rebuild *rb = rebuild_new();
	char *big = arena_alloc(a, 4096);
	memset(big, 'x', 4095);
	big[4095] = '\0';
	struct tval bv = tv_safe((struct str){big, 4095});
	uint64_t plain = rebuild_fingerprint(rb, &bv, NULL);
	rebuild_known(rb, big, 4095, rebuild_text_hash(big, 4095));
	OK(rebuild_fingerprint(rb, &bv, NULL) == plain);
	rebuild_known_clear(rb);
	rebuild_known(rb, big, 4095, 12345);
	OK(rebuild_fingerprint(rb, &bv, NULL) != plain);
	struct tval shorter = tv_safe((struct str){big, 4000}); /* another length: not the known text */
	OK(rebuild_fingerprint(rb, &shorter, NULL) == rebuild_fingerprint(NULL, &shorter, NULL));
	rebuild_known_clear(rb);
	OK(rebuild_fingerprint(rb, &bv, NULL) == plain);
	rebuild_free(rb);
	arena_free(a);
}

static void test_dirty_and_commit(void)
{
	struct arena *a = arena_new();
	struct rebuild *rb = rebuild_new();
	struct two t;
	two_build(rb, a, "Hello", 1, &t);
	uint64_t va = 11, vb = 22, cfg = 99;
	/* nothing built yet: every page */
	OK(!rebuild_built(rb));
	OK(rebuild_dirty(rb, "a.html", va, t.fp, t.nfp, cfg));
	struct rebuild_page *fresh[2];
	uint32_t ra[] = {t.post + 1}, rbd[] = {t.g};
	fresh[0] = rebuild_record("a.html", va, ra, 1);
	fresh[1] = rebuild_record("b.html", vb, rbd, 1);
	const char *outs[] = {"a.html", "b.html"};
	unsigned char want[] = {1, 1};
	rebuild_commit(rb, fresh, outs, want, 2, t.fp, t.nfp, cfg);
	OK(rebuild_built(rb));
	OK(rebuild_last(rb, "a.html") != NULL);
	OK(rebuild_last(rb, "c.html") == NULL);

	/* the same inputs: clean */
	two_build(rb, a, "Hello", 1, &t);
	OK(!rebuild_dirty(rb, "a.html", va, t.fp, t.nfp, cfg));
	OK(!rebuild_dirty(rb, "b.html", vb, t.fp, t.nfp, cfg));
	/* its own variables, the config, a new page: dirty */
	OK(rebuild_dirty(rb, "a.html", va + 1, t.fp, t.nfp, cfg));
	OK(rebuild_dirty(rb, "a.html", va, t.fp, t.nfp, cfg + 1));
	OK(rebuild_dirty(rb, "c.html", va, t.fp, t.nfp, cfg));
	free(t.fp);
	/* the title changes: the page that read it, not the other */
	two_build(rb, a, "Hello again", 1, &t);
	OK(rebuild_dirty(rb, "a.html", va, t.fp, t.nfp, cfg));
	OK(!rebuild_dirty(rb, "b.html", vb, t.fp, t.nfp, cfg));
	/* commit: a.html rendered again, b.html clean and kept, c.html
	 * could not be made (no record: rendered next time) */
	fresh[0] = rebuild_record("a.html", va, ra, 1);
	fresh[1] = NULL;
	struct rebuild_page *none = NULL;
	struct rebuild_page *f3[] = {fresh[0], fresh[1], none};
	const char *outs3[] = {"a.html", "b.html", "c.html"};
	unsigned char want3[] = {1, 0, 1};
	rebuild_commit(rb, f3, outs3, want3, 3, t.fp, t.nfp, cfg);
	OK(rebuild_last(rb, "b.html") != NULL);
	OK(rebuild_last(rb, "c.html") == NULL);
	two_build(rb, a, "Hello again", 1, &t);
	OK(!rebuild_dirty(rb, "a.html", va, t.fp, t.nfp, cfg));
	OK(rebuild_dirty(rb, "c.html", 5, t.fp, t.nfp, cfg));

	/* a page gone from the site loses its record */
	struct rebuild_page *f1[] = {NULL};
	const char *outs1[] = {"a.html"};
	unsigned char want1[] = {0};
	rebuild_commit(rb, f1, outs1, want1, 1, t.fp, t.nfp, cfg);
	OK(rebuild_last(rb, "b.html") == NULL);
	OK(rebuild_last(rb, "a.html") != NULL);
	rebuild_free(rb);
	arena_free(a);
}

/* state_bytes: a state of one key (its bytes k[0..kl); NULL: none) and nfp
 * fingerprints, whose next id is next_id, and one record of out[0..ol). */
static void state_bytes(struct buf *b, uint32_t next_id, const char *k, uint32_t kl, uint64_t nfp, const char *out,
			uint32_t ol)
{
	char head[16] = "folio-pages 4\n";
	uint64_t u[3] = {0xabc, 42, 0}; /* stamp, config, no memo */
	buf_append(b, head, 16);
	buf_append(b, u, sizeof u);
	buf_append(b, &next_id, 4);
	uint64_t one = 1, nkeys = k != NULL, vfp = 11, ll = 0;
	uint32_t key[3] = {1, 1, kl}, rec[2] = {0, ol};
	buf_append(b, &nkeys, 8);
	if (k) {
		buf_append(b, key, sizeof key);
		buf_append(b, k, kl);
	}
	buf_append(b, &nfp, 8);
	for (uint64_t i = 0; i < nfp; i++)
		buf_append(b, &one, 8);
	buf_append(b, &one, 8);
	buf_append(b, &vfp, 8);
	buf_append(b, rec, sizeof rec);
	buf_append(b, out, ol);
	buf_append(b, &ll, 8);
}

/* Damaged states the fuzz target (tests/fuzz/fuzz_pages.c) found read:
 * refused now. */
static void test_state_refused(void)
{
	static const struct {
		uint32_t next_id;
		const char *k;
		uint32_t kl;
		uint64_t nfp;
		const char *out;
		uint32_t ol;
		int rc;
	} cases[] = {
		{2, "post:a", 6, 2, "a.html", 6, 0},      /* a state as folio writes it */
		{2, "post:a\0b", 8, 2, "a.html", 6, -1}, /* a key holding a NUL: saved cut */
		{2, "post:a", 6, 2, "a\0.html", 7, -1},  /* a path holding a NUL */
		{1, NULL, 0, 1, "a.html", 6, 0},          /* no key */
		{0, NULL, 0, 0, "a.html", 6, -1},         /* no ids at all: a new key's would be 0 */
		{4000000000u, "post:a", 6, 2, "a.html", 6, -1}, /* ids without fingerprints: 32 GB of them */
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		struct buf b;
		buf_init(&b);
		state_bytes(&b, cases[i].next_id, cases[i].k, cases[i].kl, cases[i].nfp, cases[i].out, cases[i].ol);
		struct rebuild *rb = rebuild_new();
		if (rebuild_load(rb, 0xabc, b.p, b.len) != cases[i].rc || rebuild_built(rb) != !cases[i].rc)
			t_fail(__FILE__, __LINE__, "state %zu: not %s", i, cases[i].rc ? "refused" : "read");
		rebuild_free(rb);
		buf_fini(&b);
	}
}

static void test_state_bytes(void)
{
	struct arena *a = arena_new();
	struct rebuild *rb = rebuild_new();
	struct two t;
	two_build(rb, a, "Hello", 1, &t);
	uint32_t ra[] = {t.post + 1};
	struct rebuild_page *fresh[] = {rebuild_record("a.html", 11, ra, 1)};
	fresh[0]->links = malloc(4);
	memcpy(fresh[0]->links, "a\tb", 4);
	fresh[0]->links_len = 4;
	const char *outs[] = {"a.html"};
	rebuild_commit(rb, fresh, outs, NULL, 1, t.fp, t.nfp, 42);
	size_t ml = 99;
	OK(rebuild_links_memo(rb, &ml) == NULL && ml == 0);
	rebuild_set_links_memo(rb, "memo\0bytes", 10);
	struct buf b;
	buf_init(&b);
	INT_EQ(rebuild_save(rb, 0xabc, &b, NULL, NULL), 0);

	/* read back: the same ids, the same decisions, the same links, the
	 * link check's key */
	struct rebuild *back = rebuild_new();
	INT_EQ(rebuild_load(back, 0xabc, b.p, b.len), 0);
	OK(rebuild_built(back));
	const char *memo = rebuild_links_memo(back, &ml);
	OK(memo && ml == 10 && !memcmp(memo, "memo\0bytes", 10));
	INT_EQ(rebuild_id(back, "post:hello", 10, TMPL_DEP_FIELDS + 1), t.post);
	INT_EQ(rebuild_nids(back), rebuild_nids(rb));
	two_build(back, a, "Hello", 1, &t);
	OK(!rebuild_dirty(back, "a.html", 11, t.fp, t.nfp, 42));
	const struct rebuild_page *p = rebuild_last(back, "a.html");
	OK(p && p->links_len == 4 && !memcmp(p->links, "a\tb", 4));
	free(t.fp);
	rebuild_free(back);

	/* another folio's state, and every cut of it: not read, rb stays new */
	back = rebuild_new();
	INT_EQ(rebuild_load(back, 0xabd, b.p, b.len), -1);
	OK(!rebuild_built(back));
	int all_refused = 1;
	for (size_t n = 0; n < b.len; n++)
		all_refused &= rebuild_load(back, 0xabc, b.p, n) == -1 && !rebuild_built(back);
	OK(all_refused);
	/* damaged bytes never crash; a load either works or leaves rb new */
	int consistent = 1;
	for (size_t i = 16; i < b.len; i++) {
		b.p[i] ^= 0x5a;
		int rc = rebuild_load(back, 0xabc, b.p, b.len);
		consistent &= (rc == 0) == rebuild_built(back);
		b.p[i] ^= 0x5a;
	}
	OK(consistent);
	rebuild_free(back);
	buf_fini(&b);
	rebuild_free(rb);
	arena_free(a);
	test_state_refused();
}

/* stamps: a list of inputs, each name with a stamp made of seed and its
 * position, its bytes' hash content(i) */
static void stamps(struct stamp_list *l, const char *const *names, size_t n, int64_t seed)
{
	memset(l, 0, sizeof *l);
	l->e = xcalloc(n, sizeof *l->e);
	l->n = l->cap = n;
	for (size_t i = 0; i < n; i++) {
		struct stamp_entry *e = &l->e[i];
		e->path = xstrndup(names[i], strlen(names[i]));
		int dir = !strchr(names[i], '.');
		e->sig[0] = dir ? S_IFDIR | 0755 : S_IFREG | 0644;
		for (int k = 1; !dir && k < 6; k++)
			e->sig[k] = seed * 100 + (int64_t)i * 10 + k;
		e->content = dir ? 0 : 0xabc0 + i;
	}
}

/* The up-to-date check: the same key and no post come due, as a text
 * that reads back, and nothing else reads as one. */
static void test_uptodate(void)
{
	struct rebuild_uptodate u = {0x1234abcd5678ef01ull, 2000, 15069, 10000, 15400, 0x77, NULL, 0, 0, {0}};
	OK(rebuild_uptodate(&u, u.key, 1999, 0));
	OK(!rebuild_uptodate(&u, u.key, 2000, 0)); /* a future post has come due */
	OK(rebuild_uptodate(&u, u.key, 2000, 1));  /* --future: it was in already */
	OK(!rebuild_uptodate(&u, u.key + 1, 1999, 0));
	OK(!rebuild_uptodate(&u, 0, 1999, 0)); /* a key not known is never up to date */
	struct rebuild_uptodate none = u;
	none.next_future = 0;
	OK(rebuild_uptodate(&none, u.key, 99999999999, 0));

	/* with warnings said and inputs */
	static const char *const names[] = {"content", "content/posts", "content/posts/a.md", "content/posts/b b.md",
					    "folio.yml"};
	stamps(&u.inputs, names, 5, 1);
	u.said = xstrndup("content/posts/a.md:3:1: warning: x\n", 36);
	u.said_len = strlen(u.said);
	u.said_warnings = 1;
	struct buf b;
	buf_init(&b);
	rebuild_uptodate_save(&u, &b);
	struct rebuild_uptodate back;
	INT_EQ(rebuild_uptodate_load(&back, b.p, b.len), 0);
	OK(back.key == u.key && back.next_future == u.next_future && back.pages == u.pages && back.posts == u.posts &&
	   back.files == u.files && back.opts == 0x77 && back.said_warnings == 1 && back.said_len == u.said_len &&
	   !memcmp(back.said, u.said, u.said_len));
	INT_EQ((int)back.inputs.n, 5);
	for (size_t i = 0; i < 5 && i < back.inputs.n; i++)
		OK(!strcmp(back.inputs.e[i].path, names[i]) && back.inputs.e[i].content == u.inputs.e[i].content &&
		   !memcmp(back.inputs.e[i].sig, u.inputs.e[i].sig, sizeof u.inputs.e[i].sig));
	rebuild_uptodate_fini(&back);
	/* a text cut anywhere, or a byte changed in its head, is refused */
	for (size_t n = 0; n < b.len; n++)
		if (rebuild_uptodate_load(&back, b.p, n) == 0)
			t_fail(__FILE__, __LINE__, "the text cut to %zu bytes reads back", n);
	INT_EQ(rebuild_uptodate_load(&back, "folio-uptodate-2 0 0 0 0 0\n", 27), -1);
	static const char *const texts[] = {
		"folio-uptodate-1 1 2 3 4 5 77 0 0 0\n\nend\n",  /* an older layout */
		"folio-uptodate-2 1 2 3 4 5 77 0 0 0 0\n\nend\n", /* a number too many */
		"folio-uptodate-2 1 2 3 4 5 77 0 0 0\nend\n",     /* no line of warnings */
		"folio-uptodate-2 1 2 3 4 5 77 0 0 0\n\nend\nx", /* bytes after the end */
		"folio-uptodate-2 1 2 3 4 5 77 0 0 99999999999\n\nend\n", /* a count before any allocation */
		"folio-uptodate-2 1 2 3 4 5 77 0 0 1\n\n0 1 2 3 4 5 6 7 0 \nend\n", /* a path of no bytes */
		"folio-uptodate-2 1 2 3 4 5 77 0 0 1\n\n0 1 2 3 4 5 6 7 9 a\nend\n", /* longer than it is */
		"folio-uptodate-2 1 -2 3 4 5 77 0 5 0\nabc\n\nend\n", /* warnings longer than there are */
	};
	for (size_t i = 0; i < sizeof texts / sizeof *texts; i++)
		if (rebuild_uptodate_load(&back, texts[i], strlen(texts[i])) == 0)
			t_fail(__FILE__, __LINE__, "text %zu reads back", i);
	const char *good = "folio-uptodate-2 1 -2 3 4 5 77 1 3 1\nabc\n0 -1 2 3 4 5 6 7 3 a b\nend\n";
	INT_EQ(rebuild_uptodate_load(&back, good, strlen(good)), 0);
	OK(back.next_future == -2 && back.said_len == 3 && back.inputs.n == 1 && back.inputs.e[0].sig[0] == -1 &&
	   !strcmp(back.inputs.e[0].path, "a b"));
	rebuild_uptodate_fini(&back);
	char nul[] = "folio-uptodate-2 1 2 3 4 5 77 0 0 1\n\n0 1 2 3 4 5 6 7 3 a\0b\nend\n";
	INT_EQ(rebuild_uptodate_load(&back, nul, sizeof nul - 1), -1);
	/* the least int64_t, as save writes it, reads back (its negation
	 * overflowed: the fuzz target found it) */
	const char *least = "folio-uptodate-2 0000000000000001 -9223372036854775808 3 4 5 0000000000000077 0 0 1\n\n"
			    "0000000000000000 -9223372036854775808 2 3 4 5 6 7 1 a\nend\n";
	INT_EQ(rebuild_uptodate_load(&back, least, strlen(least)), 0);
	OK(back.next_future == INT64_MIN && back.inputs.n == 1 && back.inputs.e[0].sig[0] == INT64_MIN);
	struct buf lb;
	buf_init(&lb);
	rebuild_uptodate_save(&back, &lb);
	OK(lb.len == strlen(least) && !memcmp(lb.p, least, lb.len));
	buf_fini(&lb);
	rebuild_uptodate_fini(&back);
	buf_fini(&b);

	/* touched: the same names, changed stamps of regular files only */
	struct stamp_list now;
	size_t *which;
	stamps(&now, names, 5, 1);
	INT_EQ((int)rebuild_uptodate_touched(&u, 0x77, &now, &which), 0);
	OK(which == NULL);
	now.e[2].sig[2] += 7; /* a.md touched */
	now.e[4].sig[3] += 1; /* folio.yml's change time */
	INT_EQ((int)rebuild_uptodate_touched(&u, 0x77, &now, &which), 2);
	OK(which && which[0] == 2 && which[1] == 4);
	free(which);
	now.e[3].sig[0] = S_IFLNK | 0777; /* a file became something else */
	INT_EQ((int)rebuild_uptodate_touched(&u, 0x77, &now, &which), -1);
	OK(which == NULL);
	stamp_list_free(&now);
	stamps(&now, names, 4, 1); /* a file removed */
	INT_EQ((int)rebuild_uptodate_touched(&u, 0x77, &now, &which), -1);
	stamp_list_free(&now);
	static const char *const renamed[] = {"content", "content/posts", "content/posts/a.md", "content/posts/c.md",
					      "folio.yml"};
	stamps(&now, renamed, 5, 1);
	INT_EQ((int)rebuild_uptodate_touched(&u, 0x77, &now, &which), -1);
	stamp_list_free(&now);
	stamps(&now, names, 5, 2);
	u.inputs.e[3].content = 0; /* bytes not known: not taken as the same */
	INT_EQ((int)rebuild_uptodate_touched(&u, 0x77, &now, &which), -1);
	stamp_list_free(&now);
	stamps(&now, names, 5, 1);
	INT_EQ((int)rebuild_uptodate_touched(&u, 0x78, &now, &which), -1); /* other options */
	stamp_list_free(&now);
	u.key = 0; /* no last build */
	stamps(&now, names, 5, 1);
	INT_EQ((int)rebuild_uptodate_touched(&u, 0x77, &now, &which), -1);
	stamp_list_free(&now);
	rebuild_uptodate_fini(&u);
}

/* A state saved a MB at a time (folio build streams it into its file) is
 * byte for byte the one saved whole; a flush that fails stops the save. */
struct sink_bytes {
	struct buf all;
	int calls, fail_at;
};

static int to_sink(void *ctx, struct buf *b)
{
	struct sink_bytes *k = ctx;
	if (++k->calls == k->fail_at)
		return -1;
	OK(b->len >= ((size_t)1 << 20));
	buf_append(&k->all, b->p, b->len);
	buf_reset(b);
	return 0;
}

static void test_state_streamed(void)
{
	struct arena *a = arena_new();
	struct rebuild *rb = rebuild_new();
	struct two t;
	two_build(rb, a, "Hello", 1, &t);
	uint32_t ra[] = {t.post + 1};
	enum { PAGES = 5 };
	struct rebuild_page *fresh[PAGES];
	const char *outs[PAGES] = {"a.html", "b.html", "c.html", "d.html", "e.html"};
	for (int i = 0; i < PAGES; i++) {
		fresh[i] = rebuild_record(outs[i], 11 + (uint64_t)i, ra, 1);
		size_t n = (size_t)700000 + (size_t)i * 1000; /* two pages and more hold a MB */
		fresh[i]->links = malloc(n);
		memset(fresh[i]->links, 'a' + i, n);
		fresh[i]->links_len = n;
	}
	rebuild_commit(rb, fresh, outs, NULL, PAGES, t.fp, t.nfp, 42);
	struct buf whole;
	buf_init(&whole);
	INT_EQ(rebuild_save(rb, 0xabc, &whole, NULL, NULL), 0);
	struct sink_bytes k = {{0}, 0, 0};
	buf_init(&k.all);
	struct buf b;
	buf_init(&b);
	INT_EQ(rebuild_save(rb, 0xabc, &b, to_sink, &k), 0);
	OK(k.calls >= 2);
	OK(b.len < ((size_t)1 << 20)); /* the rest, the caller's */
	buf_append(&k.all, b.p, b.len);
	INT_EQ(k.all.len, whole.len);
	OK(k.all.len == whole.len && !memcmp(k.all.p, whole.p, whole.len));
	/* a flush that fails: -1, and no more is handed over */
	struct sink_bytes bad = {{0}, 0, 2};
	buf_init(&bad.all);
	buf_reset(&b);
	INT_EQ(rebuild_save(rb, 0xabc, &b, to_sink, &bad), -1);
	INT_EQ(bad.calls, 2);
	buf_fini(&bad.all);
	buf_fini(&b);
	buf_fini(&k.all);
	buf_fini(&whole);
	rebuild_free(rb);
	arena_free(a);
}

static int fake_highlight(struct buf *out, const char *lang, size_t lang_len, const char *code, size_t len)
{
	(void)out, (void)lang, (void)lang_len, (void)code, (void)len;
	return -1;
}

/* key_site: build_key_site of a site whose folio.yml is yml, with
 * highlighting or not and the first label */
static void key_site(struct build_key *k, const char *yml, int highlight, const char *label)
{
	struct config cfg;
	memset(&cfg, 0, sizeof cfg);
	cfg.src = yml;
	cfg.src_len = strlen(yml);
	struct build_opts opts;
	memset(&opts, 0, sizeof opts);
	opts.highlight = highlight ? fake_highlight : NULL;
	opts.md_labels[0] = label;
	opts.static_dir = "/nonexistent/folio-unit/static";
	struct content c;
	memset(&c, 0, sizeof c);
	build_key_site(k, &cfg, &opts, &c);
}

/* files_key: the stamp of the files documents may read, static/ being
 * static_dir, the posts' bundles (NULL for none) bundles[0..n) */
static uint64_t files_key(const char *static_dir, const char *const *bundles, size_t n)
{
	struct build_key k;
	build_key_init(&k, 0, 0, NULL);
	struct config cfg;
	memset(&cfg, 0, sizeof cfg);
	struct build_opts opts;
	memset(&opts, 0, sizeof opts);
	opts.static_dir = static_dir;
	struct content c;
	memset(&c, 0, sizeof c);
	struct post posts[4], *pp[4];
	memset(posts, 0, sizeof posts);
	for (size_t i = 0; i < n && i < 4; i++) {
		posts[i].bundle_dir = bundles[i];
		pp[i] = &posts[i];
	}
	c.posts = pp;
	c.nposts = n < 4 ? n : 4;
	build_key_site(&k, &cfg, &opts, &c);
	return k.files;
}

/* the files' stamp changes with a file renamed (its size, time and inode
 * the same: a page naming the old name must be rendered again) or added. (A file of static/ itself: the stamp has no time of static/,
 * whose entries changed, only of the folders below it.) */
static void test_key_files(void)
{
	char *dir = t_tmpdir();
	char st[PATH_MAX], a[PATH_MAX + 16], b[PATH_MAX + 16];
	snprintf(st, sizeof st, "%s/static", dir);
	t_write(st, "a.png", "png");
	uint64_t k0 = files_key(st, NULL, 0);
	OK(k0 == files_key(st, NULL, 0));
	snprintf(a, sizeof a, "%s/a.png", st);
	snprintf(b, sizeof b, "%s/b.png", st);
	INT_EQ(rename(a, b), 0);
	uint64_t k1 = files_key(st, NULL, 0);
	OK(k1 != k0);
	t_write(st, "img/c.png", "png");
	OK(files_key(st, NULL, 0) != k1);
	/* each post's bundle, the last one's too */
	char b1[PATH_MAX + 16], b2[PATH_MAX + 16];
	snprintf(b1, sizeof b1, "%s/posts/one", dir);
	snprintf(b2, sizeof b2, "%s/posts/two", dir);
	t_write(b1, "fig.png", "one");
	t_write(b2, "fig.png", "two");
	const char *const bundles[3] = {b1, NULL, b2};
	uint64_t k2 = files_key(st, bundles, 3);
	OK(k2 != files_key(st, NULL, 0));
	t_write(b2, "plot.png", "new");
	uint64_t k3 = files_key(st, bundles, 3);
	OK(k3 != k2);
	t_write(b1, "plot.png", "new");
	OK(files_key(st, bundles, 3) != k3);
	t_rmtree(dir);
	free(dir);
}

static void test_key(void)
{
	struct build_key a, b;
	build_key_init(&a, 0, 0, NULL);
	build_key_init(&b, 0, 0, NULL);
	OK(a.binary && a.options && a.options == b.options);
	OK(!a.inputs && !a.md_salt && !a.files && !a.config); /* not known yet */
	/* each option is in the options */
	build_key_init(&b, 1, 0, NULL);
	OK(b.options != a.options);
	build_key_init(&b, 0, 1, NULL);
	OK(b.options != a.options);
	build_key_init(&b, 0, 0, "https://x.example/");
	OK(b.options != a.options);
	/* another address is another build, not only an address or none */
	struct build_key c;
	build_key_init(&c, 0, 0, "https://y.example/");
	OK(c.options != b.options);
	/* the site's projections: folio.yml in all of them, highlighting in
	 * the Markdown's salt and the config's, the labels in the salt alone */
	build_key_init(&b, 0, 0, NULL);
	key_site(&a, "title: A\n", 0, "Note");
	key_site(&b, "title: A\n", 0, "Note");
	OK(a.md_salt && a.config && a.md_salt == b.md_salt && a.config == b.config && a.files == b.files);
	key_site(&b, "title: B\n", 0, "Note");
	OK(b.md_salt != a.md_salt && b.config != a.config);
	key_site(&b, "title: A\n", 1, "Note");
	OK(b.md_salt != a.md_salt && b.config != a.config);
	key_site(&b, "title: A\n", 0, "Remarque");
	OK(b.md_salt != a.md_salt && b.config == a.config);
	/* the drafts option reaches what every page reads */
	build_key_init(&b, 1, 0, NULL);
	key_site(&b, "title: A\n", 0, "Note");
	OK(b.config != a.config && b.md_salt == a.md_salt);
	INT_EQ(build_key_html(&a) == rebuild_mix(a.md_salt, a.files), 1);
	/* a text's fingerprint is the hash the Markdown cache keeps of a
	 * document's HTML */
	INT_EQ(rebuild_text_hash("<p>x</p>", 8) == md_cache_html_hash("<p>x</p>", 8), 1);
}

static void test_incr(void)
{
	struct build_key k;
	build_key_init(&k, 0, 0, NULL);
	struct incr_state *inc = incr_new(&k, NULL, NULL);
	OK(incr_records(inc) != NULL && incr_known(inc) == NULL);
	INT_EQ(incr_key(inc)->options == k.options, 1);
	/* no state known: no link memo, and every page's links checked */
	INT_EQ(incr_links_memo_key(inc), 0);
	/* a plan of two pages, none rendered: the same ids as ever */
	struct render_job jobs[2];
	memset(jobs, 0, sizeof jobs);
	jobs[0].out = "a.html";
	jobs[1].out = "b.html";
	struct render_plan plan;
	memset(&plan, 0, sizeof plan);
	plan.jobs = jobs;
	plan.njobs = 2;
	const char *outs[2] = {"a.html", "b.html"};
	struct rebuild_page *fresh[2] = {NULL, NULL};
	INT_EQ(incr_links_same_ids(inc, outs, fresh, 2), 1);
	/* the key of a check: its mode, and no pattern to leave alone */
	INT_EQ(incr_links_key(&plan, 2) == 2, 1);
	/* a page rendered now that the last build did not have: its ids are
	 * new */
	fresh[0] = rebuild_record("a.html", 1, NULL, 0);
	INT_EQ(incr_links_same_ids(inc, outs, fresh, 2), 0);
	rebuild_page_free(fresh[0]);
	/* no static file is known without the up-to-date check's stamps */
	struct stat st;
	memset(&st, 0, sizeof st);
	struct index ix = {0};
	INT_EQ(incr_static_known(inc, &ix, "/site", "/site/static/a.png", &st), 0);
	incr_free(inc);
}

/* rebuild_readers against a look at every record: random records reading
 * random ids, random fingerprints changed, records replaced (other ids)
 * and added by patches between the calls (the readers' index made at the
 * first call keeps them apart), and a whole commit (the index made
 * again). */
static uint32_t rr_state = 12345;
static uint32_t rr(uint32_t n)
{
	rr_state = rr_state * 1103515245u + 12345u;
	return (rr_state >> 8) % n;
}

static struct rebuild_page *rr_record(const char *out, uint32_t nids)
{
	uint32_t ids[8];
	size_t n = rr(8);
	for (size_t k = 0; k < n; k++)
		ids[k] = 1 + rr(nids - 1);
	return rebuild_record(out, 7, ids, n);
}

static int rr_reads(const struct rebuild_page *p, const uint64_t *fp, const uint64_t *was, size_t nfp)
{
	for (size_t k = 0; k < p->ndeps; k++)
		if (p->deps[k] < nfp && fp[p->deps[k]] != was[p->deps[k]])
			return 1;
	return 0;
}

static void test_readers(void)
{
	struct rebuild *rb = rebuild_new();
	(void)rebuild_id(rb, "post:all", 8, 300);
	size_t nids = rebuild_nids(rb), npages = 400;
	char names[440][16];
	struct rebuild_page *fresh[440];
	const char *outs[440];
	for (size_t i = 0; i < 440; i++) {
		snprintf(names[i], sizeof names[i], "p%zu.html", i);
		outs[i] = names[i];
	}
	for (size_t i = 0; i < npages; i++)
		fresh[i] = rr_record(outs[i], (uint32_t)nids);
	uint64_t *fp = calloc(nids, sizeof *fp);
	for (size_t id = 0; id < nids; id++)
		fp[id] = id + 1;
	rebuild_commit(rb, fresh, outs, NULL, npages, fp, nids, 1);
	int same = 1, calls = 0, found = 0;
	for (int round = 0; round < 60; round++) {
		if (round == 30) { /* a whole commit: every record again */
			for (size_t i = 0; i < npages; i++)
				fresh[i] = rr_record(outs[i], (uint32_t)nids);
			size_t n;
			uint64_t *f = rebuild_last_inputs(rb, &n);
			rebuild_commit(rb, fresh, outs, NULL, npages, f, n, 1);
		}
		size_t nfp;
		uint64_t *now = rebuild_last_inputs(rb, &nfp), *was = rebuild_last_inputs(rb, &nfp);
		for (int k = 1 + (int)rr(3); k > 0; k--)
			now[1 + rr((uint32_t)nfp - 1)] += 1000;
		const char **got;
		size_t ng = rebuild_readers(rb, now, nfp, &got);
		calls++;
		/* the reference: every record as it is */
		size_t want = 0;
		for (size_t i = 0; i < npages; i++) {
			const struct rebuild_page *p = rebuild_last(rb, outs[i]);
			if (!p || !rr_reads(p, now, was, nfp))
				continue;
			want++;
			int in = 0;
			for (size_t g = 0; g < ng; g++)
				in |= !strcmp(got[g], outs[i]);
			same &= in;
		}
		same &= ng == want;
		found += (int)ng;
		free(got);
		free(was);
		/* a patch: a few records read other ids now, one page is new */
		memset(fresh, 0, sizeof fresh);
		for (int k = (int)rr(4); k > 0; k--) {
			size_t i = rr((uint32_t)npages);
			if (!fresh[i])
				fresh[i] = rr_record(outs[i], (uint32_t)nfp);
		}
		if (npages < 440 && rr(3) == 0) {
			fresh[npages] = rr_record(outs[npages], (uint32_t)nfp);
			npages++;
		}
		rebuild_commit_some(rb, fresh, npages, now, nfp);
	}
	OK(same);
	INT_EQ(calls, 60);
	OK(found > 60); /* (the changes were read by pages) */
	rebuild_free(rb);
}

/* A patch changes the fingerprints in place: the pages that read a value
 * it changed (the title: a.html; not b.html), the ones before it back by
 * undo, or kept by commit_some (the same array); a global changed by a
 * patch (b.html). */
static void test_patch_in_place(void)
{
	struct arena *a = arena_new();
	struct rebuild *rb = rebuild_new();
	struct two t;
	two_build(rb, a, "Hello", 1, &t);
	struct rebuild_page *fresh[2];
	uint32_t ra[] = {t.post + 1}, rbd[] = {t.g};
	fresh[0] = rebuild_record("a.html", 11, ra, 1);
	fresh[1] = rebuild_record("b.html", 22, rbd, 1);
	const char *outs[] = {"a.html", "b.html"};
	rebuild_commit(rb, fresh, outs, NULL, 2, t.fp, t.nfp, 9);
	size_t n0;
	uint64_t *before = rebuild_last_inputs(rb, &n0);

	struct tmap *m = tmap_new(a, 4);
	tmap_set_cstr(a, m, "title", tv_cstr("Hello, again"));
	m->dep = t.post;
	struct render_dep_val dv = {t.post, 1, tv_map(m)};
	size_t nfp;
	uint64_t *fp = rebuild_patch_begin(rb, &nfp);
	INT_EQ(nfp, n0);
	rebuild_patch_dep(rb, &dv);
	const char **got;
	size_t k = rebuild_patch_readers(rb, &got);
	INT_EQ(k, 1);
	STR_EQ(k ? got[0] : NULL, "a.html");
	free(got);
	/* undone: as before */
	rebuild_patch_undo(rb);
	size_t n1;
	uint64_t *now = rebuild_last_inputs(rb, &n1);
	OK(n1 == n0 && !memcmp(now, before, n0 * sizeof *now));
	free(now);
	/* again, the same value twice (read once), committed */
	fp = rebuild_patch_begin(rb, &nfp);
	rebuild_patch_dep(rb, &dv);
	rebuild_patch_dep(rb, &dv);
	k = rebuild_patch_readers(rb, &got);
	INT_EQ(k, 1);
	free(got);
	struct rebuild_page *f2[2] = {rebuild_record("a.html", 11, ra, 1), NULL};
	rebuild_commit_some(rb, f2, 2, fp, nfp);
	now = rebuild_last_inputs(rb, &n1);
	OK(n1 == n0 && memcmp(now, before, n0 * sizeof *now) != 0);
	free(now);
	/* the same value once more: nothing changed, nothing read */
	fp = rebuild_patch_begin(rb, &nfp);
	rebuild_patch_dep(rb, &dv);
	INT_EQ(rebuild_patch_readers(rb, &got), 0);
	free(got);
	rebuild_patch_undo(rb);
	/* a global */
	struct render_dep_val gv = {t.g, 0, tv_int(2)};
	fp = rebuild_patch_begin(rb, &nfp);
	rebuild_patch_dep(rb, &gv);
	k = rebuild_patch_readers(rb, &got);
	INT_EQ(k, 1);
	STR_EQ(k ? got[0] : NULL, "b.html");
	free(got);
	rebuild_patch_undo(rb);
	(void)fp;
	free(before);
	rebuild_free(rb);
	arena_free(a);
}

void test_rebuild(void)
{
	t_current = "rebuild";
	test_ids();
	test_fingerprints();
	test_dirty_and_commit();
	test_readers();
	test_patch_in_place();
	test_state_bytes();
	test_state_streamed();
	test_uptodate();
	test_key();
	test_key_files();
	test_incr();
}
