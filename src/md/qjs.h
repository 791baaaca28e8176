/* qjs.h: what folio's two QuickJS users (math.c: KaTeX; mermaid.c:
 * beautiful-mermaid) share: a runtime and context under a memory limit, a
 * deadline in the thread's CPU time, a C stack limit, and the text of an
 * exception. Each user keeps one per thread. */
#ifndef FOLIO_QJS_H
#define FOLIO_QJS_H

#include <pthread.h>
#include <stddef.h>
#include <time.h>

#include <quickjs/quickjs.h>

#include "base/buf.h"

struct qjs {
	JSRuntime *rt;
	JSContext *ctx;
	struct timespec deadline; /* the interrupt handler stops JavaScript past it */
	char *stack_lo;           /* the lowest address of this thread's stack, or NULL */
	size_t max_stack;         /* bytes of C stack JavaScript may use at most */
	JSValue fn;               /* the user's entry point, or JS_UNDEFINED */
};

/* qjs_open: q made a runtime and context, at most memory_limit bytes and
 * max_stack bytes of C stack (qjs_set_stack), with a deadline 60 s away
 * (for loading); 0, or -1 when QuickJS cannot start (out of memory: q is
 * then closed). q is the caller's, to qjs_close. */
int qjs_open(struct qjs *q, size_t memory_limit, size_t max_stack);

/* qjs_close: frees q's entry point, context and runtime (any may be
 * missing). */
void qjs_close(struct qjs *q);

/* qjs_free: closes p (a malloc'd struct qjs, or NULL) and frees it: the
 * free_fn of a QJS_SLOT. */
void qjs_free(void *p);

/* qjs_deadline: JavaScript run by q stops with an uncatchable
 * "interrupted" error once this thread has taken seconds more of CPU time
 * (CPU, not wall: a loaded machine does not turn slow work into errors). */
void qjs_deadline(struct qjs *q, double seconds);

/* qjs_set_stack: lets JavaScript use at most half the C stack left below
 * the caller (and q's max_stack), measured from here: QuickJS recurses on
 * the C stack, so deep nesting must become a JavaScript "stack overflow",
 * not a SIGSEGV, whatever stack the calling thread was given. Call it
 * before each call into JavaScript. */
void qjs_set_stack(struct qjs *q);

/* qjs_load_failed: appends to err "cannot load WHAT: NAME: MESSAGE" from
 * the pending exception of q, and frees q (qjs_free); returns NULL, for
 * the loader that failed to return. */
void *qjs_load_failed(struct qjs *q, const char *what, struct buf *err);

/* qjs_exception: the pending exception of ctx (cleared): its name and
 * message (either may be "": malloc'd, the caller frees them), and its
 * numeric "position" property or -1. */
void qjs_exception(JSContext *ctx, char **name, char **msg, long *pos);

/* struct qjs_slot: one interpreter per thread for one user of QuickJS (its
 * struct, which holds a struct qjs): a thread key, made on first use, whose
 * destructor free_fn frees a thread's when the thread exits. A static
 * QJS_SLOT(free_fn) in the user's file. */
struct qjs_slot {
	void (*free_fn)(void *);
	int ready; /* the key is made (read and written atomically) */
	pthread_key_t key;
};
#define QJS_SLOT(free_fn)                                                                          \
	{                                                                                          \
		(free_fn), 0, 0                                                                    \
	}

/* qjs_slot_get: this thread's interpreter in s, or NULL. */
void *qjs_slot_get(struct qjs_slot *s);

/* qjs_slot_set: p (the caller's, or NULL) becomes this thread's in s; one
 * already there is not freed. */
void qjs_slot_set(struct qjs_slot *s, void *p);

/* qjs_slot_clear: frees this thread's interpreter in s (free_fn), if it
 * has one. */
void qjs_slot_clear(struct qjs_slot *s);

/* qjs_time_scale: how many times slower JavaScript runs in this build: 3
 * under AddressSanitizer (whose allocator QuickJS's allocations go
 * through), 20 times that under valgrind, else 1. Limits in time are
 * multiplied by it, so that real work never reaches them there either. */
int qjs_time_scale(void);

#endif
