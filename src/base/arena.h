/* arena.h: the per-build bump allocator, and folio's one allocation path.
 *
 * Folder base/: what every stage uses: memory (arenas), text and buffers,
 * the one map and index, hashing, threads (the pool), diagnostics, slugs,
 * dates, clocks, file primitives.
 * uses: nothing.
 */
#ifndef FOLIO_ARENA_H
#define FOLIO_ARENA_H

#include <stddef.h>

/* xmalloc, xcalloc, xrealloc: malloc and friends that never return NULL.
 * On out-of-memory they print "folio: out of memory" and exit(1), as cmark's
 * xcalloc does, so callers need no NULL checks. */
void *xmalloc(size_t n);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrndup(const char *s, size_t n);
/* xoom: says "folio: out of memory" and ends folio (exit 1), for a
 * library's allocation that failed. */
void xoom(void) __attribute__((noreturn));

/* An arena hands out memory that lives until arena_free. Not thread-safe:
 * each thread uses its own arena. */
struct arena;

/* arena_new: a new empty arena, owned by the caller (free with arena_free). */
struct arena *arena_new(void);

/* arena_free: releases every allocation made from the arena, then the arena. */
void arena_free(struct arena *a);

/* arena_alloc: n zeroed bytes aligned for any type; valid until arena_free. */
void *arena_alloc(struct arena *a, size_t n);

/* arena_alloc_raw: arena_alloc, the bytes not zeroed (the caller writes
 * every one it reads). */
void *arena_alloc_raw(struct arena *a, size_t n);

/* arena_strndup: a NUL-terminated copy of s[0..n), owned by the arena. */
char *arena_strndup(struct arena *a, const char *s, size_t n);

/* arena_realloc: grows p (an allocation of old_n bytes from the same arena)
 * to new_n bytes. Extends in place when p is the newest allocation. */
void *arena_realloc(struct arena *a, void *p, size_t old_n, size_t new_n);

/* arena_adopt: child is freed with a (by arena_free(a)); child must not be
 * freed otherwise. Not thread-safe, as the rest. */
void arena_adopt(struct arena *a, struct arena *child);

/* arena_own: block (from malloc) is freed by arena_free(a): memory made
 * elsewhere that lives as long as the arena, without a copy. Returns the
 * slot that holds it: an owner done with the block before the arena is
 * may free(*slot) and set *slot to NULL (on the arena's thread, or when
 * no other thread uses the arena). */
void **arena_own(struct arena *a, void *block);

/* arena_used: bytes handed out so far (for tests and statistics). */
size_t arena_used(const struct arena *a);

#endif
