/* qjs.c: a QuickJS runtime under folio's limits (qjs.h): memory, CPU
 * deadline, C stack; an exception's text. */
#include "md/qjs.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/sanitize.h"

/* ASan's allocator makes QuickJS (whose allocations it intercepts) five to
 * seven times slower: a sanitizer build gives JavaScript three times the
 * time. Under valgrind (`make valgrind`) it is ten to twenty times slower,
 * and gets twenty times the time. */
#ifdef FOLIO_ASAN
#define TIME_SCALE 3
#else
#define TIME_SCALE 1
#endif

int qjs_time_scale(void)
{
	return TIME_SCALE * (RUNNING_ON_VALGRIND ? 20 : 1);
}

void qjs_deadline(struct qjs *q, double seconds)
{
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &q->deadline);
	long ns = (long)((seconds - (double)(long)seconds) * 1e9) + q->deadline.tv_nsec;
	q->deadline.tv_sec += (time_t)seconds + ns / 1000000000L;
	q->deadline.tv_nsec = ns % 1000000000L;
}

/* QuickJS calls this every few thousand operations; nonzero stops the
 * script with an uncatchable "interrupted" error. */
static int interrupt(JSRuntime *rt, void *opaque)
{
	(void)rt;
	const struct qjs *q = opaque;
	struct timespec t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return t.tv_sec > q->deadline.tv_sec ||
	       (t.tv_sec == q->deadline.tv_sec && t.tv_nsec > q->deadline.tv_nsec);
}

void qjs_set_stack(struct qjs *q)
{
	JS_UpdateStackTop(q->rt);
	size_t limit = q->max_stack;
	if (q->stack_lo) {
		char *here = __builtin_frame_address(0);
		size_t left = here > q->stack_lo ? (size_t)(here - q->stack_lo) : 0;
		if (left / 2 < limit)
			limit = left / 2;
		if (limit < 64 * 1024)
			limit = 64 * 1024; /* a nearly full stack: fail fast in JS */
	}
	JS_SetMaxStackSize(q->rt, limit);
}

int qjs_open(struct qjs *q, size_t memory_limit, size_t max_stack)
{
	memset(q, 0, sizeof *q);
	q->fn = JS_UNDEFINED;
	q->max_stack = max_stack;
	pthread_attr_t attr;
	if (pthread_getattr_np(pthread_self(), &attr) == 0) {
		void *addr;
		size_t size;
		if (pthread_attr_getstack(&attr, &addr, &size) == 0)
			q->stack_lo = addr;
		pthread_attr_destroy(&attr);
	}
	q->rt = JS_NewRuntime();
	if (q->rt)
		q->ctx = JS_NewContext(q->rt);
	if (!q->ctx) {
		qjs_close(q);
		return -1;
	}
	JS_SetMemoryLimit(q->rt, memory_limit);
	JS_SetInterruptHandler(q->rt, interrupt, q);
	qjs_set_stack(q);
	qjs_deadline(q, 60); /* loading takes a few ms */
	return 0;
}

void qjs_close(struct qjs *q)
{
	if (q->ctx) {
		JS_FreeValue(q->ctx, q->fn);
		JS_FreeContext(q->ctx);
	}
	q->fn = JS_UNDEFINED;
	if (q->rt)
		JS_FreeRuntime(q->rt);
	q->ctx = NULL;
	q->rt = NULL;
}

void qjs_free(void *p)
{
	if (p) {
		qjs_close(p);
		free(p);
	}
}

void qjs_exception(JSContext *ctx, char **name, char **msg, long *pos)
{
	JSValue ex = JS_GetException(ctx);
	*name = NULL;
	*msg = NULL;
	*pos = -1;
	if (JS_IsObject(ex)) {
		const char *fields[2] = {"name", "message"};
		char **dst[2] = {name, msg};
		for (int i = 0; i < 2; i++) {
			JSValue v = JS_GetPropertyStr(ctx, ex, fields[i]);
			const char *s = JS_IsString(v) ? JS_ToCString(ctx, v) : NULL;
			if (s) {
				*dst[i] = xstrndup(s, strlen(s));
				JS_FreeCString(ctx, s);
			}
			JS_FreeValue(ctx, v);
		}
		JSValue p = JS_GetPropertyStr(ctx, ex, "position");
		double d;
		if (JS_IsNumber(p) && JS_ToFloat64(ctx, &d, p) == 0 && d >= 0 && d < 1e9)
			*pos = (long)d;
		JS_FreeValue(ctx, p);
	} else if (!JS_IsNull(ex) && !JS_IsUndefined(ex)) {
		const char *s = JS_ToCString(ctx, ex);
		if (s) {
			*msg = xstrndup(s, strlen(s));
			JS_FreeCString(ctx, s);
		}
	}
	/* A failure above (out of memory) leaves a new exception: drop it. */
	JS_FreeValue(ctx, JS_GetException(ctx));
	JS_FreeValue(ctx, ex);
	if (!*name)
		*name = xstrndup("", 0);
	if (!*msg)
		*msg = xstrndup("", 0);
}

/* slot_key: s's thread key, made by the first caller. */
static pthread_key_t slot_key(struct qjs_slot *s)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	if (!__atomic_load_n(&s->ready, __ATOMIC_ACQUIRE)) {
		pthread_mutex_lock(&lock);
		if (!s->ready) {
			if (pthread_key_create(&s->key, s->free_fn) != 0) {
				fputs("folio: cannot create a thread key\n", stderr);
				exit(1);
			}
			__atomic_store_n(&s->ready, 1, __ATOMIC_RELEASE);
		}
		pthread_mutex_unlock(&lock);
	}
	return s->key;
}

void *qjs_slot_get(struct qjs_slot *s)
{
	return pthread_getspecific(slot_key(s));
}

void qjs_slot_set(struct qjs_slot *s, void *p)
{
	pthread_setspecific(slot_key(s), p);
}

void qjs_slot_clear(struct qjs_slot *s)
{
	void *p = qjs_slot_get(s);
	if (p) {
		qjs_slot_set(s, NULL);
		s->free_fn(p);
	}
}

void *qjs_load_failed(struct qjs *q, const char *what, struct buf *err)
{
	char *name, *msg;
	long pos;
	qjs_exception(q->ctx, &name, &msg, &pos);
	buf_printf(err, "cannot load %s: %s%s%s", what, name, *name ? ": " : "", msg);
	free(name);
	free(msg);
	qjs_free(q);
	return NULL;
}
