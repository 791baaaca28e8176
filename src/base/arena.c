/* arena.c: bump allocation in chunks; large requests get their own chunk. */
#include "base/arena.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define ARENA_ALIGN 16
#define ARENA_CHUNK (64 * 1024)
#define ARENA_MIN_CHUNK 4096
/* a big arena (a build's model: hundreds of MB at 10,000 posts) takes its
 * chunks from the kernel a huge page at a time: memory that comes zeroed,
 * and one page fault per 2 MiB instead of one per 4 KiB */
#define ARENA_BIG_CHUNK (2 * 1024 * 1024)
#define ARENA_BIG_AFTER (8 * 1024 * 1024)

void xoom(void)
{
	fputs("folio: out of memory\n", stderr);
	exit(1);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		xoom();
	return p;
}

void *xcalloc(size_t count, size_t size)
{
	void *p = calloc(count ? count : 1, size ? size : 1);
	if (!p)
		xoom();
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		xoom();
	return p;
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);
	if (n) /* s may be NULL for nothing (an absent value) */
		memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

struct chunk {
	struct chunk *next;
	size_t size, used;
	int mapped; /* mmap'd (big_chunk): zeroed by the kernel, munmap'd */
	/* data follows, aligned */
};

#define CHUNK_HDR ((sizeof(struct chunk) + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1))

struct arena {
	struct chunk *head;
	size_t total;
	void *last;      /* newest allocation, for in-place arena_realloc */
	size_t last_len; /* its rounded length */
	struct arena *kids, *sibling; /* arenas freed with this one */
	struct owned *owned;          /* malloc'd blocks freed with it */
	int fresh;                    /* the newest allocation is known zeroed */
};

struct owned {
	struct owned *next;
	void *block;
};

struct arena *arena_new(void)
{
	return xcalloc(1, sizeof(struct arena));
}

void arena_free(struct arena *a)
{
	if (!a)
		return;
	for (struct arena *k = a->kids; k;) {
		struct arena *next = k->sibling;
		arena_free(k);
		k = next;
	}
	for (struct owned *o = a->owned; o; o = o->next)
		free(o->block);
	struct chunk *c = a->head;
	while (c) {
		struct chunk *next = c->next;
		if (c->mapped)
			munmap(c, CHUNK_HDR + c->size);
		else
			free(c);
		c = next;
	}
	free(a);
}

static char *chunk_data(struct chunk *c)
{
	return (char *)c + CHUNK_HDR;
}

/* big_chunk: a chunk of ARENA_BIG_CHUNK bytes of data, on a huge page
 * where the system gives them (madvise), or NULL. */
static struct chunk *big_chunk(void)
{
	size_t want = ARENA_BIG_CHUNK, span = 2 * want;
	char *m = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return NULL;
	/* aligned to the huge page, the rest given back */
	char *at = (char *)(((uintptr_t)m + want - 1) & ~(uintptr_t)(want - 1));
	if (at > m)
		munmap(m, (size_t)(at - m));
	if (at + want < m + span)
		munmap(at + want, (size_t)(m + span - (at + want)));
#ifdef MADV_HUGEPAGE
	(void)madvise(at, want, MADV_HUGEPAGE);
#endif
	struct chunk *c = (struct chunk *)at;
	c->size = want - CHUNK_HDR;
	c->used = 0;
	c->mapped = 1;
	return c;
}

/* alloc: n bytes, not zeroed (a->fresh: known to be). */
static void *alloc(struct arena *a, size_t n)
{
	size_t need = (n + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
	if (need < n) /* overflow */
		xoom();
	if (need == 0)
		need = ARENA_ALIGN;
	struct chunk *c = a->head;
	if (!c || c->size - c->used < need) {
		if (need > ARENA_CHUNK / 4) {
			/* A large block gets a chunk of its own, linked behind the
			 * current one so the current chunk's free space stays usable. */
			struct chunk *big = xmalloc(CHUNK_HDR + need);
			big->size = need;
			big->used = need;
			big->mapped = 0;
			if (c) {
				big->next = c->next;
				c->next = big;
			} else {
				big->next = NULL;
				a->head = big;
			}
			a->total += need;
			a->last = NULL;
			a->fresh = 0;
			return chunk_data(big);
		}
		/* chunks grow with the arena, 4 KiB first, so that the many
		 * small arenas (a page's scratch, a kept file's) stay small */
		c = a->total >= ARENA_BIG_AFTER ? big_chunk() : NULL;
		if (!c) {
			size_t size = ARENA_MIN_CHUNK;
			while (size < ARENA_CHUNK && (size < a->total || size < need))
				size *= 2;
			c = xmalloc(CHUNK_HDR + size);
			c->size = size;
			c->used = 0;
			c->mapped = 0;
		}
		c->next = a->head;
		a->head = c;
	}
	a->fresh = c->mapped; /* bump allocation: never handed out before */
	void *p = chunk_data(c) + c->used;
	c->used += need;
	a->total += need;
	a->last = p;
	a->last_len = need;
	return p;
}

void *arena_alloc(struct arena *a, size_t n)
{
	void *p = alloc(a, n);
	if (!a->fresh)
		memset(p, 0, n);
	return p;
}

void *arena_alloc_raw(struct arena *a, size_t n)
{
	return alloc(a, n);
}

char *arena_strndup(struct arena *a, const char *s, size_t n)
{
	char *p = alloc(a, n + 1); /* every byte is written */
	if (n)
		memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

void *arena_realloc(struct arena *a, void *p, size_t old_n, size_t new_n)
{
	if (!p)
		return arena_alloc(a, new_n);
	if (new_n <= old_n)
		return p;
	struct chunk *c = a->head;
	if (p == a->last && c && (char *)p >= chunk_data(c) && (char *)p < chunk_data(c) + c->size) {
		size_t need = (new_n + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
		size_t start = (size_t)((char *)p - chunk_data(c));
		if (start + need <= c->size) {
			memset((char *)p + old_n, 0, need - old_n);
			c->used = start + need;
			a->total += need - a->last_len;
			a->last_len = need;
			return p;
		}
	}
	char *q = alloc(a, new_n);
	memcpy(q, p, old_n);
	memset(q + old_n, 0, new_n - old_n);
	return q;
}

void arena_adopt(struct arena *a, struct arena *child)
{
	child->sibling = a->kids;
	a->kids = child;
}

void **arena_own(struct arena *a, void *block)
{
	struct owned *o = alloc(a, sizeof *o);
	o->block = block;
	o->next = a->owned;
	a->owned = o;
	return &o->block;
}

size_t arena_used(const struct arena *a)
{
	return a->total;
}
