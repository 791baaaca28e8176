/* mem.c: the per-thread bump allocator md_render gives cmark-gfm. */
#include "md/mdmem.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/arena.h"
#include "base/pool.h"

/* Under AddressSanitizer, memory no block holds (a chunk's free space, a
 * freed block, a block on a free list) is poisoned, so that a read or
 * write of freed memory inside a chunk is reported as with malloc. */
#include "base/sanitize.h"
#ifdef FOLIO_ASAN
#define POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define POISON(p, n) ((void)(p), (void)(n))
#define UNPOISON(p, n) ((void)(p), (void)(n))
#endif

/* Every block starts with a header holding its usable size; the low bit
 * marks a block with a malloc of its own (too large for a chunk), which is
 * also linked into the thread's list of large blocks. */
#define ALIGN 16
#define HDR ALIGN
#define CHUNK_SIZE ((size_t)256 << 10)
#define BIG_MIN (CHUNK_SIZE / 8)
#define KEEP_CHUNKS 8 /* chunks kept between documents: 2 MiB */
/* Freed blocks up to this size go to a free list of their size (in steps
 * of ALIGN) and are handed out again: cmark frees many small blocks while
 * it parses (a table row's cells, delimiters, brackets), which a pure bump
 * allocator kept until the document's end (1 MiB of table rows: 340 MB). */
#define FREE_MAX 1024
#define NCLASS (FREE_MAX / ALIGN + 1)

struct chunk {
	struct chunk *next;
	size_t used;
	/* data follows at ALIGN */
};

struct big {
	struct big *prev, *next;
	/* then the block's header and data */
};

#define CHUNK_HDR ((sizeof(struct chunk) + ALIGN - 1) & ~(size_t)(ALIGN - 1))
#define BIG_HDR ((sizeof(struct big) + ALIGN - 1) & ~(size_t)(ALIGN - 1))

/* A document past AHEAD_AFTER chunks (8 MiB: prose takes some 18 bytes
 * of nodes a byte, so 450 KB of it, twice the longest real posts; 1 MiB
 * of pathological Markdown takes 150-300 MB) takes its next chunks
 * from the reserve: chunks whose pages a helper thread has already
 * touched, so that the kernel's work of mapping and zeroing them (a third
 * of such a document's time) is done on another core while the parser
 * goes on. The helper keeps AHEAD chunks ready while a document draws on
 * them; when none does, it sleeps and the reserve is freed. */
#ifndef MDMEM_AHEAD_AFTER
#define MDMEM_AHEAD_AFTER 32 /* the fuzz build lowers it (-D) */
#endif
#define AHEAD_AFTER MDMEM_AHEAD_AFTER
#define AHEAD 32

/* A large block that grows by PREFAULT_MIN or more (the HTML of a big
 * page, which cmark's renderer grows by half each time) has the pages of
 * its new part mapped by the helper too, PREFAULT_STEP at a time, while
 * the renderer still writes the part before: a page it reaches is then
 * there, instead of a fault on the renderer's thread (57 MB of HTML: 14,000
 * of them). The helper keeps the last NPREFAULT such ranges; a range is
 * dropped when its block grows again or is freed. Mapping the pages of a
 * range that was unmapped meanwhile fails, and one mapped again by
 * another allocation is only prefaulted: neither changes any memory. */
#ifndef MDMEM_PREFAULT_MIN
#define MDMEM_PREFAULT_MIN ((size_t)1 << 20) /* the fuzz build lowers it */
#endif
#define PREFAULT_MIN ((size_t)MDMEM_PREFAULT_MIN)
#define PREFAULT_STEP ((size_t)1 << 20)
#define NPREFAULT 8

struct range {
	char *lo, *hi;
};

static struct {
	pthread_mutex_t lock;
	pthread_cond_t wake;
	struct chunk *ready;
	size_t nready;
	int drawing; /* documents taking chunks from the reserve now */
	int starved; /* malloc failed: no more until none draws */
	int started; /* 1: the helper runs; -1: it could not be started */
	struct range pre[NPREFAULT]; /* oldest first */
	int npre;
} R = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, NULL, 0, 0, 0, 0, {{NULL, NULL}}, 0};

struct state {
	struct chunk *cur;  /* the chunk being filled; earlier ones follow */
	struct chunk *spare; /* released chunks, kept for the next document */
	size_t nspare;
	struct big *bigs;
	char *last; /* the newest small block's data, for in-place growth */
	void *free_list[NCLASS]; /* freed small blocks by size / ALIGN */
	size_t nchunks;  /* chunks the open document has taken */
	size_t reserved; /* how many of them came from the reserve */
	int drawing;     /* 1: it takes them from the reserve */
	int depth;
	size_t in_use;
	int registered;
};

/* The calling thread's state. Per thread, not per document: cmark calls
 * its allocator (cmark_mem's calloc, realloc and free) with no context
 * pointer, and a thread renders one document at a time, so the thread's
 * state is that document's (mdmem_begin ... mdmem_end); its chunks are
 * kept for the thread's next document. */
static _Thread_local struct state S;
static pthread_key_t key;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;

static char *cdata(struct chunk *c)
{
	return (char *)c + CHUNK_HDR;
}

static size_t *hdr(void *p)
{
	return (size_t *)((char *)p - HDR);
}

static void stop_drawing(struct state *s);
static void forget_big(struct big *b);

static void release(struct state *s, int keep)
{
	stop_drawing(s);
	struct chunk *c = s->cur;
	while (c) {
		struct chunk *next = c->next;
		if (keep && s->nspare < KEEP_CHUNKS) {
			c->next = s->spare;
			s->spare = c;
			s->nspare++;
		} else {
			UNPOISON(cdata(c), CHUNK_SIZE);
			free(c);
		}
		c = next;
	}
	s->cur = NULL;
	s->nchunks = s->reserved = 0;
	for (struct big *b = s->bigs; b;) {
		struct big *next = b->next;
		forget_big(b);
		free(b);
		b = next;
	}
	s->bigs = NULL;
	s->last = NULL;
	memset(s->free_list, 0, sizeof s->free_list);
	s->in_use = 0;
	if (!keep) {
		for (c = s->spare; c;) {
			struct chunk *next = c->next;
			UNPOISON(cdata(c), CHUNK_SIZE);
			free(c);
			c = next;
		}
		s->spare = NULL;
		s->nspare = 0;
	}
}

/* thread_exit: a worker thread's chunks go with it. */
static void thread_exit(void *p)
{
	release(p, 0);
}

static void make_key(void)
{
	(void)pthread_key_create(&key, thread_exit);
}

static size_t page_size(void)
{
	long pg = sysconf(_SC_PAGESIZE);
	return pg > 0 ? (size_t)pg : 4096;
}

/* fill_chunk: a new chunk whose pages the kernel has mapped, or NULL */
static struct chunk *fill_chunk(size_t step)
{
	struct chunk *c = malloc(CHUNK_HDR + CHUNK_SIZE);
	if (c) {
		/* the whole pages inside the chunk in one call where the
		 * kernel can (Linux 5.14), else a write to each page */
		uintptr_t lo = ((uintptr_t)c + step - 1) & ~(uintptr_t)(step - 1);
		uintptr_t hi = ((uintptr_t)c + CHUNK_HDR + CHUNK_SIZE) & ~(uintptr_t)(step - 1);
		volatile char *b = (volatile char *)c;
		b[0] = 0;
		if (hi <= lo || madvise((void *)lo, hi - lo, MADV_POPULATE_WRITE) != 0)
			for (size_t i = 0; i < CHUNK_HDR + CHUNK_SIZE; i += step)
				b[i] = 0;
		b[CHUNK_HDR + CHUNK_SIZE - 1] = 0;
	}
	return c;
}

static int reserve_wanted(void)
{
	return R.drawing && !R.starved && R.nready < AHEAD;
}

/* helper: fills the reserve up to AHEAD chunks while a document draws
 * on it, having the kernel map every page of each chunk it adds, and maps
 * the pages of the ranges of growing blocks (a chunk first while the
 * reserve is below half). A chunk it made after the last such document
 * ended is freed. */
static void *helper(void *arg)
{
	(void)arg;
	size_t step = page_size();
	pthread_mutex_lock(&R.lock);
	for (;;) {
		while (!reserve_wanted() && !R.npre)
			pthread_cond_wait(&R.wake, &R.lock);
		if (R.npre && !(reserve_wanted() && R.nready < AHEAD / 2)) {
			struct range *r = &R.pre[0];
			char *lo = r->lo, *hi = (size_t)(r->hi - lo) > PREFAULT_STEP ? lo + PREFAULT_STEP : r->hi;
			r->lo = hi;
			if (r->lo == r->hi)
				memmove(R.pre, R.pre + 1, (size_t)--R.npre * sizeof *R.pre);
			pthread_mutex_unlock(&R.lock);
			(void)madvise(lo, (size_t)(hi - lo), MADV_POPULATE_WRITE);
			pthread_mutex_lock(&R.lock);
			continue;
		}
		pthread_mutex_unlock(&R.lock);
		struct chunk *c = fill_chunk(step);
		pthread_mutex_lock(&R.lock);
		if (!c) {
			/* out of memory: the parser's own malloc reports it */
			R.starved = 1;
			continue;
		}
		if (!R.drawing) {
			free(c);
			continue;
		}
		c->next = R.ready;
		R.ready = c;
		R.nready++;
	}
	return NULL;
}

/* start_helper: the helper runs from the first call on (R.lock held), on
 * a thread of the pool's that no one waits for: 1, or 0 if it could not
 * be started. */
static int start_helper(void)
{
	if (!R.started)
		R.started = pool_detach(helper, NULL) ? 1 : -1;
	return R.started > 0;
}

/* forget_locked: drops the ranges inside [lo, hi) (R.lock held). */
static void forget_locked(const char *lo, const char *hi)
{
	int k = 0;
	for (int i = 0; i < R.npre; i++)
		if (!(R.pre[i].lo >= lo && R.pre[i].lo < hi))
			R.pre[k++] = R.pre[i];
	R.npre = k;
}

/* prefault: the helper is to map the pages of [lo, hi), which replaces
 * any range of the block's old place [old_lo, old_hi). */
static void prefault(const char *old_lo, const char *old_hi, char *lo, char *hi)
{
	size_t step = page_size();
	lo = (char *)(((uintptr_t)lo + step - 1) & ~(uintptr_t)(step - 1));
	hi = (char *)((uintptr_t)hi & ~(uintptr_t)(step - 1));
	pthread_mutex_lock(&R.lock);
	forget_locked(old_lo, old_hi);
	if (hi > lo && start_helper()) {
		if (R.npre == NPREFAULT)
			memmove(R.pre, R.pre + 1, (size_t)--R.npre * sizeof *R.pre);
		R.pre[R.npre++] = (struct range){lo, hi};
		pthread_cond_signal(&R.wake);
	}
	pthread_mutex_unlock(&R.lock);
}

/* forget: a block at [lo, hi) is freed: the helper leaves its pages. */
static void forget(const char *lo, const char *hi)
{
	pthread_mutex_lock(&R.lock);
	if (R.npre)
		forget_locked(lo, hi);
	pthread_mutex_unlock(&R.lock);
}

/* start_drawing: the open document takes its chunks from the reserve
 * from now on; the helper starts the first time. */
static void start_drawing(struct state *s)
{
	pthread_mutex_lock(&R.lock);
	if (start_helper()) {
		s->drawing = 1;
		R.drawing++;
		pthread_cond_signal(&R.wake);
	}
	pthread_mutex_unlock(&R.lock);
}

static void stop_drawing(struct state *s)
{
	if (!s->drawing)
		return;
	s->drawing = 0;
	struct chunk *c = NULL;
	pthread_mutex_lock(&R.lock);
	if (--R.drawing == 0) {
		c = R.ready;
		R.ready = NULL;
		R.nready = 0;
		R.starved = 0;
	}
	pthread_mutex_unlock(&R.lock);
	while (c) {
		struct chunk *next = c->next;
		free(c);
		c = next;
	}
}

/* reserve_take: a chunk from the reserve, or NULL if none is ready. */
static struct chunk *reserve_take(void)
{
	pthread_mutex_lock(&R.lock);
	struct chunk *c = R.ready;
	if (c) {
		R.ready = c->next;
		R.nready--;
	}
	pthread_cond_signal(&R.wake);
	pthread_mutex_unlock(&R.lock);
	return c;
}

static void *big_alloc(size_t n)
{
	struct big *b = xmalloc(BIG_HDR + HDR + n);
	b->prev = NULL;
	b->next = S.bigs;
	if (S.bigs)
		S.bigs->prev = b;
	S.bigs = b;
	char *p = (char *)b + BIG_HDR + HDR;
	*hdr(p) = n | 1;
	S.in_use += n;
	return p;
}

static struct big *big_of(void *p)
{
	return (struct big *)((char *)p - HDR - BIG_HDR);
}

/* forget_big: b is freed or done with: the helper leaves its pages. */
static void forget_big(struct big *b)
{
	char *lo = (char *)b;
	forget(lo, lo + BIG_HDR + HDR + (*(size_t *)(lo + BIG_HDR) & ~(size_t)1));
}

static void big_unlink(struct big *b)
{
	if (b->prev)
		b->prev->next = b->next;
	else
		S.bigs = b->next;
	if (b->next)
		b->next->prev = b->prev;
}

/* put_free: a small block that is not the newest, of have bytes, onto its
 * size's free list (a larger one stays unused until the document ends). */
static void put_free(void *p, size_t have)
{
	if (have > FREE_MAX)
		return;
	if ((char *)p == S.last)
		S.last = NULL; /* it must not grow in place from the list */
	memcpy(p, &S.free_list[have / ALIGN], sizeof p);
	S.free_list[have / ALIGN] = p;
	S.in_use -= have;
	POISON(p, have);
}

/* new_chunk: the next chunk to fill: a kept one, one from the reserve
 * once the document is large, or a new one. */
static struct chunk *new_chunk(void)
{
	struct chunk *c;
	if (++S.nchunks == AHEAD_AFTER)
		start_drawing(&S);
	if (S.spare) {
		c = S.spare;
		S.spare = c->next;
		S.nspare--;
	} else if (!S.drawing || !(c = reserve_take())) {
		c = xmalloc(CHUNK_HDR + CHUNK_SIZE);
	} else {
		S.reserved++;
	}
	c->used = 0;
	c->next = S.cur;
	S.cur = c;
	POISON(cdata(c), CHUNK_SIZE);
	return c;
}

/* alloc: n bytes, not zeroed. */
static void *alloc(size_t n)
{
	size_t need = (n + ALIGN - 1) & ~(size_t)(ALIGN - 1);
	if (need < n || need > SIZE_MAX - BIG_HDR - HDR - ALIGN) {
		/* cmark asks only for what fits in an int; this is a bug */
		abort();
	}
	if (need == 0)
		need = ALIGN;
	if (need >= BIG_MIN)
		return big_alloc(need);
	if (need <= FREE_MAX && S.free_list[need / ALIGN]) {
		void *p = S.free_list[need / ALIGN];
		UNPOISON(p, need);
		memcpy(&S.free_list[need / ALIGN], p, sizeof p);
		S.in_use += need;
		return p;
	}
	struct chunk *c = S.cur;
	if (!c || CHUNK_SIZE - c->used < HDR + need)
		c = new_chunk();
	char *p = cdata(c) + c->used + HDR;
	UNPOISON(p - HDR, HDR + need);
	c->used += HDR + need;
	*hdr(p) = need;
	S.last = p;
	S.in_use += need;
	return p;
}

static void *mm_calloc(size_t count, size_t size)
{
	if (size && count > SIZE_MAX / size)
		abort();
	void *p = alloc(count * size);
	memset(p, 0, count * size);
	return p;
}

static void *mm_realloc(void *p, size_t n)
{
	if (!p)
		return alloc(n);
	size_t have = *hdr(p);
	if (have & 1) {
		/* a large block: realloc it where it is, keeping the links */
		have &= ~(size_t)1;
		size_t need = (n + ALIGN - 1) & ~(size_t)(ALIGN - 1);
		if (need <= have)
			return p;
		struct big *b = big_of(p);
		struct big *prev = b->prev, *next = b->next;
		char *old_lo = (char *)b, *old_hi = old_lo + BIG_HDR + HDR + have;
		struct big *nb = xrealloc(b, BIG_HDR + HDR + need);
		if (prev)
			prev->next = nb;
		else
			S.bigs = nb;
		if (next)
			next->prev = nb;
		char *q = (char *)nb + BIG_HDR + HDR;
		*hdr(q) = need | 1;
		S.in_use += need - have;
		if (need - have >= PREFAULT_MIN)
			prefault(old_lo, old_hi, q + have, q + need);
		return q;
	}
	if (n <= have)
		return p;
	struct chunk *c = S.cur;
	size_t need = (n + ALIGN - 1) & ~(size_t)(ALIGN - 1);
	if ((char *)p == S.last && need < BIG_MIN) {
		/* the newest block grows in place while its chunk has room */
		size_t start = (size_t)((char *)p - cdata(c));
		if (start + need <= CHUNK_SIZE) {
			UNPOISON(p, need);
			c->used = start + need;
			*hdr(p) = need;
			S.in_use += need - have;
			return p;
		}
	}
	/* cmark's buffers grow by half each time, so copies stay linear */
	void *q = alloc(need);
	memcpy(q, p, have);
	put_free(p, have);
	return q;
}

static void mm_free(void *p)
{
	if (!p)
		return;
	size_t have = *hdr(p);
	if (have & 1) {
		big_unlink(big_of(p));
		S.in_use -= have & ~(size_t)1;
		forget_big(big_of(p));
		free(big_of(p));
		return;
	}
	if ((char *)p == S.last) {
		/* the newest block: its space is handed out again */
		struct chunk *c = S.cur;
		c->used = (size_t)((char *)p - HDR - cdata(c));
		S.in_use -= have;
		S.last = NULL;
		POISON((char *)p - HDR, HDR + have);
	} else {
		put_free(p, have);
	}
}

static cmark_mem mem = {mm_calloc, mm_realloc, mm_free};

cmark_mem *mdmem_begin(void)
{
	if (!S.registered) {
		(void)pthread_once(&key_once, make_key);
		(void)pthread_setspecific(key, &S);
		S.registered = 1;
	}
	S.depth++;
	return &mem;
}

void mdmem_end(void)
{
	if (S.depth > 0 && --S.depth == 0)
		release(&S, 1);
}

void *mdmem_take(void *p)
{
	size_t have = *hdr(p);
	if (!(have & 1))
		return NULL;
	struct big *b = big_of(p);
	big_unlink(b);
	forget_big(b); /* its writer is done */
	S.in_use -= have & ~(size_t)1;
	return b;
}

size_t mdmem_in_use(void)
{
	return S.in_use;
}

size_t mdmem_reserved(void)
{
	return S.reserved;
}

int mdmem_large(void)
{
	return S.nchunks >= AHEAD_AFTER;
}

size_t mdmem_reserve_ready(void)
{
	pthread_mutex_lock(&R.lock);
	size_t n = R.nready;
	pthread_mutex_unlock(&R.lock);
	return n;
}

size_t mdmem_prefault_pending(void)
{
	pthread_mutex_lock(&R.lock);
	size_t n = (size_t)R.npre;
	pthread_mutex_unlock(&R.lock);
	return n;
}

cmark_mem *mdmem_current(void)
{
	return S.depth > 0 ? &mem : cmark_get_default_mem_allocator();
}
