/* test_arena.c: the bump allocator. */
#include "harness.h"

#include "base/arena.h"

#include <stdint.h>
#include <stdlib.h>

void test_arena(void)
{
	t_current = "arena";
	struct arena *a = arena_new();
	INT_EQ(arena_used(a), 0);

	/* allocations are zeroed and 16-byte aligned */
	unsigned char *p = arena_alloc(a, 3);
	OK(((uintptr_t)p & 15) == 0);
	OK(p[0] == 0 && p[1] == 0 && p[2] == 0);
	char *q = arena_alloc(a, 40);
	OK(((uintptr_t)q & 15) == 0);
	OK(q >= (char *)p + 16); /* no overlap */

	/* strndup copies and terminates */
	char *s = arena_strndup(a, "hello world", 5);
	STR_EQ(s, "hello");

	/* realloc of the newest block grows in place and keeps the contents */
	char *r = arena_alloc(a, 16);
	memcpy(r, "0123456789abcdef", 16);
	char *r2 = arena_realloc(a, r, 16, 64);
	OK(r2 == r);
	OK(memcmp(r2, "0123456789abcdef", 16) == 0);
	OK(r2[16] == 0 && r2[63] == 0);
	/* realloc of an older block moves it and keeps the contents */
	char *r3 = arena_realloc(a, s, 6, 100);
	OK(r3 != s);
	STR_EQ(r3, "hello");
	/* shrinking returns the same block */
	OK(arena_realloc(a, r3, 100, 10) == r3);

	/* large blocks (bigger than a chunk) work and stay usable */
	char *big = arena_alloc(a, 1 << 20);
	big[0] = 'x';
	big[(1 << 20) - 1] = 'y';
	OK(big[0] == 'x' && big[(1 << 20) - 1] == 'y');
	char *after = arena_alloc(a, 8);
	OK(after != NULL && after[0] == 0);

	/* many small allocations across chunks */
	size_t before = arena_used(a);
	for (int i = 0; i < 100000; i++) {
		int *v = arena_alloc(a, sizeof(int));
		*v = i;
	}
	OK(arena_used(a) >= before + 100000 * 16);
	/* zero-size allocations still give distinct pointers */
	OK(arena_alloc(a, 0) != arena_alloc(a, 0));
	/* blocks from malloc that the arena frees (leak checkers see it) */
	for (int i = 0; i < 3; i++) {
		char *own = xmalloc(100 + i);
		memcpy(own, "owned", 6);
		arena_own(a, own);
		STR_EQ(own, "owned");
	}
	arena_free(a);
	arena_free(NULL); /* a no-op, like free(NULL) */

	/* a big arena (past 8 MiB: its chunks from the kernel, a huge page
	 * each): still zeroed, aligned, apart, grown in place, and its large
	 * blocks beside */
	a = arena_new();
	int all_zero = 1, aligned = 1, kept = 1;
	unsigned char *prev = NULL;
	for (int i = 0; i < 40000; i++) {
		unsigned char *m = arena_alloc(a, 300 + (size_t)(i % 7));
		for (int k = 0; k < 300; k++)
			all_zero &= m[k] == 0;
		aligned &= ((uintptr_t)m & 15) == 0;
		memset(m, 0xab, 300 + (size_t)(i % 7)); /* no byte is handed out twice */
		if (prev)
			kept &= prev[0] == 0xab;
		prev = m;
	}
	OK(all_zero);
	OK(kept);
	OK(aligned);
	OK(arena_used(a) >= (size_t)40000 * 300);
	char *g = arena_alloc(a, 32);
	memcpy(g, "grown", 6);
	char *g2 = arena_realloc(a, g, 32, 4096);
	STR_EQ(g2, "grown");
	OK(g2[4095] == 0 && g2[100] == 0);
	char *huge = arena_alloc(a, 3 << 20);
	OK(huge[0] == 0 && huge[(3 << 20) - 1] == 0);
	huge[(3 << 20) - 1] = 1;
	char *next = arena_alloc(a, 64);
	OK(next[0] == 0 && next[63] == 0);
	arena_free(a);

	char *x = xstrndup("abcdef", 3);
	STR_EQ(x, "abc");
	free(x);
}
