/* pool.c: the worker threads of a build (see pool.h): the Markdown
 * documents, the pages, the content files and the output links are each
 * spread over pool_run's threads. */
#include "base/pool.h"

#include "base/arena.h"

#include <stdio.h>
#include <stdlib.h>

int pool_run(int n, void *(*fn)(void *), void *args, size_t size, int partial)
{
	if (n < 1)
		n = 1;
	pthread_t *th = xcalloc((size_t)n, sizeof *th);
	int started = 1;
	for (; started < n; started++)
		if (pthread_create(&th[started], NULL, fn, (char *)args + (size_t)started * size) != 0) {
			if (!partial) {
				fputs("folio: cannot start a thread\n", stderr);
				exit(1);
			}
			break;
		}
	fn(args); /* the calling thread works too */
	for (int i = 1; i < started; i++)
		pthread_join(th[i], NULL);
	free(th);
	return started;
}

static _Atomic int cancelled;

void pool_cancel(void)
{
	cancelled = 1;
}

int pool_cancelled(void)
{
	return cancelled;
}

void pool_queue_init(struct pool_queue *q, size_t n, size_t batch)
{
	pthread_mutex_init(&q->lock, NULL);
	q->next = 0;
	q->n = n;
	q->batch = batch ? batch : 1;
}

int pool_take(struct pool_queue *q, size_t *start, size_t *end)
{
	pthread_mutex_lock(&q->lock);
	size_t s = q->next, e = q->n - s > q->batch ? s + q->batch : q->n;
	q->next = e;
	pthread_mutex_unlock(&q->lock);
	*start = s;
	*end = e;
	return s < e;
}

void pool_queue_fini(struct pool_queue *q)
{
	pthread_mutex_destroy(&q->lock);
}

int pool_spawn(struct pool_task *t, void *(*fn)(void *), void *arg)
{
	t->fn = fn;
	t->arg = arg;
	t->state = pthread_create(&t->thread, NULL, fn, arg) == 0 ? 1 : 2;
	return t->state == 1;
}

void pool_join(struct pool_task *t)
{
	if (t->state == 1)
		pthread_join(t->thread, NULL);
	if (t->state)
		t->state = 3;
}

void pool_finish(struct pool_task *t)
{
	if (t->state == 2)
		t->fn(t->arg);
	pool_join(t);
}

int pool_running(const struct pool_task *t)
{
	return t->state == 1;
}

int pool_detach(void *(*fn)(void *), void *arg)
{
	pthread_t t;
	pthread_attr_t at;
	int ok = 0;
	if (pthread_attr_init(&at) == 0) {
		ok = pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED) == 0 &&
		     pthread_create(&t, &at, fn, arg) == 0;
		pthread_attr_destroy(&at);
	}
	return ok;
}
