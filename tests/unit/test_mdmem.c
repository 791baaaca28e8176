/* test_mdmem.c: cmark's per-thread bump allocator: zeroed callocs,
 * alignment, growth in place and by copy, large blocks, free of the newest
 * block, free lists of small blocks, nesting, release at the outermost end, a whole document
 * parsed and rendered through it on several threads, and the reserve of
 * touched chunks that a large document draws on. */
#include "harness.h"

#include "md/mdmem.h"

#include "base/sanitize.h"
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static int aligned(const void *p)
{
	return ((uintptr_t)p & 15) == 0;
}

static int all_zero(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return 0;
	return 1;
}

static void test_blocks(void)
{
	INT_EQ(mdmem_in_use(), 0);
	OK(mdmem_current() == cmark_get_default_mem_allocator());
	cmark_mem *m = mdmem_begin();
	OK(mdmem_current() == m);

	/* calloc zeroes, even where an earlier block was freed */
	unsigned char *a = m->calloc(1, 100);
	memset(a, 0xAB, 100);
	m->free(a); /* the newest: its space is reused */
	unsigned char *b = m->calloc(10, 10);
	OK(b == a);
	OK(all_zero(b, 100));
	OK(aligned(b));
	INT_EQ(mdmem_in_use(), 112);

	/* the newest block grows in place; an older one is copied */
	memcpy(b, "hello", 6);
	unsigned char *b2 = m->realloc(b, 1000);
	OK(b2 == b);
	STR_EQ((char *)b2, "hello");
	unsigned char *c = m->calloc(1, 1);
	OK(aligned(c) && c > b2);
	unsigned char *b3 = m->realloc(b2, 2000);
	OK(b3 != b2);
	OK(aligned(b3));
	STR_EQ((char *)b3, "hello");
	/* shrinking keeps the block */
	OK(m->realloc(b3, 10) == b3);

	/* a freed older block is handed out again for the same size, zeroed by
	 * calloc; the block a realloc copied from too */
	memset(c, 0xCD, 16);
	m->free(c);
	unsigned char *d = m->calloc(1, 16);
	OK(d == c);
	OK(all_zero(d, 16));
#ifdef FOLIO_ASAN
	/* under ASan, a freed block is poisoned until it is handed out again */
	unsigned char *f1 = m->calloc(1, 32), *f2 = m->calloc(1, 32);
	m->free(f1);
	OK(__asan_address_is_poisoned(f1));
	OK(!__asan_address_is_poisoned(f2));
	OK(m->calloc(1, 32) == f1 && !__asan_address_is_poisoned(f1));
#endif
	unsigned char *e1 = m->calloc(1, 48), *e2 = m->calloc(1, 16);
	unsigned char *e3 = m->realloc(e1, 3000); /* copied: e1 is not the newest */
	OK(e3 != e1);
	unsigned char *e4 = m->calloc(3, 16);
	OK(e4 == e1 && all_zero(e4, 48));
	(void)e2;

	/* large blocks: their own malloc, grown, freed, and copied across */
	unsigned char *big = m->realloc(NULL, 1 << 20);
	OK(aligned(big));
	memset(big, 7, 1 << 20);
	unsigned char *big2 = m->realloc(big, 3 << 20);
	OK(big2[0] == 7 && big2[(1 << 20) - 1] == 7);
	unsigned char *big3 = m->calloc(1, 200000);
	OK(all_zero(big3, 200000));
	m->free(big2);
	/* a small block grown past the chunk size becomes a large one */
	unsigned char *s = m->calloc(1, 64);
	memcpy(s, "small", 6);
	unsigned char *s2 = m->realloc(s, 5 << 20);
	STR_EQ((char *)s2, "small");
	s2[(5 << 20) - 1] = 1;

	/* many blocks, over many chunks, each its own memory */
	unsigned char *p[5000];
	for (int i = 0; i < 5000; i++) {
		p[i] = m->calloc(1, (size_t)(i % 300) + 1);
		p[i][0] = (unsigned char)i;
	}
	int right = 0;
	for (int i = 0; i < 5000; i++)
		right += p[i][0] == (unsigned char)i;
	INT_EQ(right, 5000);
	OK(mdmem_in_use() > 5000 * 16);

	/* nesting: released at the outermost end only */
	OK(mdmem_begin() == m);
	mdmem_end();
	OK(mdmem_in_use() > 0);
	OK(mdmem_current() == m);
	mdmem_end();
	INT_EQ(mdmem_in_use(), 0);
	OK(mdmem_current() == cmark_get_default_mem_allocator());
	/* an unmatched end does nothing */
	mdmem_end();
	INT_EQ(mdmem_in_use(), 0);

	/* chunks kept from the last document serve the next one */
	m = mdmem_begin();
	unsigned char *e = m->calloc(1, 32);
	OK(all_zero(e, 32));
	mdmem_end();
}

/* render: a document through cmark with the allocator, as md_render does */
static char *render(const char *md)
{
	cmark_mem *m = mdmem_begin();
	cmark_parser *ps = cmark_parser_new_with_mem(CMARK_OPT_DEFAULT, m);
	cmark_parser_feed(ps, md, strlen(md));
	cmark_node *root = cmark_parser_finish(ps);
	char *html = cmark_render_html_with_mem(root, CMARK_OPT_DEFAULT, NULL, m);
	char *copy = strdup(html);
	m->free(html);
	cmark_node_free(root);
	cmark_parser_free(ps);
	mdmem_end();
	return copy;
}

static void *worker(void *arg)
{
	int *right = arg;
	char md[512];
	for (int i = 0; i < 300; i++) {
		snprintf(md, sizeof md, "# Title %d\n\n- *a* %d\n- **b**\n\n> quote `%d`\n", i, i, i);
		char want[512];
		snprintf(want, sizeof want,
		         "<h1>Title %d</h1>\n<ul>\n<li><em>a</em> %d</li>\n<li><strong>b</strong></li>\n"
		         "</ul>\n<blockquote>\n<p>quote <code>%d</code></p>\n</blockquote>\n",
		         i, i, i);
		char *got = render(md);
		*right += strcmp(got, want) == 0;
		free(got);
	}
	return NULL;
}

static void test_documents(void)
{
	/* a long document: buffers grow through many copies and large blocks */
	size_t n = 400000;
	char *md = malloc(n * 2 + 1), *want = malloc(n * 2 + 16);
	for (size_t i = 0; i < n; i++) {
		md[2 * i] = 'x';
		md[2 * i + 1] = i % 50 == 49 ? '\n' : ' ';
	}
	md[2 * n] = '\0';
	char *got = render(md);
	OK(strncmp(got, "<p>x x x", 8) == 0);
	OK(strlen(got) > 2 * n);
	free(got);
	free(md);
	free(want);
	INT_EQ(mdmem_in_use(), 0);

	/* a large block taken out of the document outlives it; a small one
	 * cannot be taken */
	cmark_mem *m = mdmem_begin();
	char *small = m->calloc(1, 64);
	OK(mdmem_take(small) == NULL);
	size_t bign = 1 << 20;
	char *large = m->calloc(1, bign);
	memset(large, 'z', bign);
	size_t used = mdmem_in_use();
	void *block = mdmem_take(large);
	OK(block != NULL && (char *)block < large && large - (char *)block <= 64);
	OK(mdmem_in_use() + bign <= used);
	mdmem_end();
	INT_EQ(mdmem_in_use(), 0);
	OK(large[0] == 'z' && large[bign - 1] == 'z');
	free(block);

	int right[3] = {0, 0, 0};
	pthread_t th[3];
	for (int i = 0; i < 3; i++)
		pthread_create(&th[i], NULL, worker, &right[i]);
	for (int i = 0; i < 3; i++) {
		pthread_join(th[i], NULL);
		INT_EQ(right[i], 300);
	}
}

/* wait_ready: waits up to 20 s for the helper to have a chunk ready */
static int wait_ready(void)
{
	struct timespec pause = {0, 5 * 1000 * 1000};
	for (int i = 0; i < 4000 && mdmem_reserve_ready() == 0; i++)
		nanosleep(&pause, NULL);
	return mdmem_reserve_ready() > 0;
}

/* list_of: a list of n items "- a N" */
static char *list_of(int n)
{
	char *md = malloc((size_t)n * 16 + 1), *p = md;
	for (int i = 0; i < n; i++)
		p += sprintf(p, "- a %d\n", i);
	return md;
}

static void *big_worker(void *arg)
{
	int *right = arg;
	for (int round = 0; round < 2; round++) {
		char *md = list_of(20000);
		char *got = render(md);
		size_t items = t_count(got, "<li>a ");
		*right += items == 20000 && strstr(got, "<li>a 19999</li>\n</ul>") != NULL;
		free(got);
		free(md);
	}
	return NULL;
}

static void test_reserve(void)
{
	/* a small document never wakes the helper */
	cmark_mem *m = mdmem_begin();
	for (int i = 0; i < 64 * 8; i++)
		m->calloc(1, 4000);
	INT_EQ(mdmem_reserve_ready(), 0);
	mdmem_end();
	INT_EQ(mdmem_reserve_ready(), 0);

	/* past 8 MiB (64 blocks of 4000 bytes fill a chunk), the next chunks
	 * come from the reserve; every block is zeroed, and none overlaps
	 * another */
	m = mdmem_begin();
	enum { BLOCKS = 64 * 48 };
	unsigned char **p = malloc(BLOCKS * sizeof *p);
	int zero = 0;
	for (int i = 0; i < 64 * 40; i++) {
		p[i] = m->calloc(1, 4000);
		zero += all_zero(p[i], 4000);
		memset(p[i], i & 0xFF, 4000);
	}
	INT_EQ(zero, 64 * 40);
	OK(wait_ready());
	size_t before = mdmem_reserved();
	for (int i = 64 * 40; i < BLOCKS; i++) {
		p[i] = m->calloc(1, 4000);
		zero += all_zero(p[i], 4000);
		memset(p[i], i & 0xFF, 4000);
	}
	INT_EQ(zero, BLOCKS);
	OK(mdmem_reserved() > before);
	int right = 0;
	for (int i = 0; i < BLOCKS; i++)
		right += p[i][0] == (i & 0xFF) && p[i][3999] == (i & 0xFF);
	INT_EQ(right, BLOCKS);
	free(p);
	/* the document's end frees what is left of the reserve */
	mdmem_end();
	INT_EQ(mdmem_reserve_ready(), 0);
	INT_EQ(mdmem_reserved(), 0);
	INT_EQ(mdmem_in_use(), 0);

	/* two threads with large documents at once: while one still draws on
	 * the reserve, the other's end leaves it alone */
	int r[2] = {0, 0};
	pthread_t th[2];
	for (int i = 0; i < 2; i++)
		pthread_create(&th[i], NULL, big_worker, &r[i]);
	for (int i = 0; i < 2; i++) {
		pthread_join(th[i], NULL);
		INT_EQ(r[i], 2);
	}
	INT_EQ(mdmem_reserve_ready(), 0);
}

/* resident: whether every page of [p, p + n) is mapped */
static int resident(const char *p, size_t n)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	uintptr_t lo = ((uintptr_t)p + pg - 1) & ~(uintptr_t)(pg - 1), hi = ((uintptr_t)p + n) & ~(uintptr_t)(pg - 1);
	size_t pages = (hi - lo) / pg;
	unsigned char *v = malloc(pages ? pages : 1);
	int all = mincore((void *)lo, hi - lo, v) == 0;
	for (size_t i = 0; all && i < pages; i++)
		all = v[i] & 1;
	free(v);
	return all;
}

/* populate_write_works: whether this kernel maps pages for madvise */
static int populate_write_works(void)
{
	size_t n = 1 << 16;
	void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return 0;
	int ok = madvise(p, n, MADV_POPULATE_WRITE) == 0;
	munmap(p, n);
	return ok;
}

static void test_prefault(void)
{
	cmark_mem *m = mdmem_begin();
	/* a large block grown by 8 MiB: the helper maps its new pages while
	 * what was written before stays */
	size_t small = 64 << 10, large = (size_t)8 << 20;
	char *p = m->realloc(NULL, small);
	memset(p, 'x', small);
	p = m->realloc(p, large);
	int kept = 1;
	for (size_t i = 0; i < small; i++)
		kept &= p[i] == 'x';
	OK(kept);
	if (populate_write_works()) {
		struct timespec pause = {0, 5 * 1000 * 1000};
		for (int i = 0; i < 4000 && !resident(p + small, large - small); i++)
			nanosleep(&pause, NULL);
		OK(resident(p + small, large - small));
	}
	/* the block grows again, to 64 MiB: the new part replaces the old
	 * one; freed at once, before the helper is through, it is left */
	p = m->realloc(p, 8 * large);
	OK(mdmem_prefault_pending() <= 1);
	p[8 * large - 1] = 'y';
	OK(p[0] == 'x' && p[small - 1] == 'x');
	m->free(p);
	INT_EQ(mdmem_prefault_pending(), 0);
	/* growing by less than 1 MiB asks for nothing; a block taken out of
	 * the document is done with */
	p = m->realloc(NULL, small);
	p = m->realloc(p, small + (512 << 10));
	INT_EQ(mdmem_prefault_pending(), 0);
	p = m->realloc(p, large);
	void *own = mdmem_take(p);
	OK(own != NULL);
	INT_EQ(mdmem_prefault_pending(), 0);
	mdmem_end();
	free(own);
	INT_EQ(mdmem_in_use(), 0);
}

void test_mdmem(void)
{
	t_current = "mdmem";
	test_blocks();
	test_documents();
	test_reserve();
	test_prefault();
}
