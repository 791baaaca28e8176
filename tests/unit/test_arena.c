/* test_arena.c: the bump allocator. */
#include "harness.h"

#include "arena.h"

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

	char *x = xstrndup("abcdef", 3);
	STR_EQ(x, "abc");
	free(x);
}
