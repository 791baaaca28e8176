/* pool.h: the worker threads of a build: one function run on n threads at
 * once (the calling thread among them), and a queue of numbered jobs that
 * those threads take in batches. */
#ifndef FOLIO_POOL_H
#define FOLIO_POOL_H

#include <pthread.h>
#include <stddef.h>

/* pool_run: fn(args + i * size) for i = 0..n-1: i = 0 on the calling
 * thread, each other on a thread of its own; returns when all have
 * returned. With size 0 every call gets args itself. A thread that cannot
 * start ends folio ("folio: cannot start a thread"), unless partial: then
 * the calls from the first that could not start on are not made, and the
 * number made is returned (n when all were). */
int pool_run(int n, void *(*fn)(void *), void *args, size_t size, int partial);

/* A queue of the jobs 0..n-1, taken batch jobs at a time (fewer lock round
 * trips when jobs are small). */
struct pool_queue {
	pthread_mutex_t lock;
	size_t next, n, batch;
};

void pool_queue_init(struct pool_queue *q, size_t n, size_t batch);
/* pool_take: the next batch [*start, *end); 0 when every job is taken. */
int pool_take(struct pool_queue *q, size_t *start, size_t *end);
void pool_queue_fini(struct pool_queue *q);

#endif
