/* pool.h: folio's threads, all started here: one function run on n
 * threads at once (the calling thread among them), a queue of numbered
 * jobs that those threads take in batches, and tasks run beside the
 * calling thread (pool_spawn ... pool_join). */
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

/* A task beside the calling thread: a file read ahead, a cache saved
 * while the next stage runs. pool_spawn starts fn(arg) on a thread of its
 * own: 1; 0 when no thread could start (nothing ran: pool_finish runs it
 * then, or the caller does the work another way). pool_join waits for it
 * if it runs (a task that never started is not run); pool_finish waits,
 * or runs fn(arg) on the calling thread if it never ran. Each is done
 * once: joining or finishing again does nothing. */
struct pool_task {
	pthread_t thread;
	void *(*fn)(void *);
	void *arg;
	int state; /* 0: none, 1: running on its thread, 2: not started, 3: done */
};

int pool_spawn(struct pool_task *t, void *(*fn)(void *), void *arg);
void pool_join(struct pool_task *t);
void pool_finish(struct pool_task *t);
/* pool_running: whether t runs on a thread of its own (not joined yet). */
int pool_running(const struct pool_task *t);

/* pool_cancel: asks the build under way to stop (folio serve's Ctrl-C):
 * the loops over a build's documents and pages stop taking work, and the
 * build driver stops at its next step, writing nothing. Once asked, it
 * stays asked: the process is on its way out. Safe from any thread.
 * pool_cancelled: whether it was asked. */
void pool_cancel(void);
int pool_cancelled(void);

/* pool_detach: fn(arg) on a thread no one waits for, which lives as long
 * as folio (a helper that maps memory ahead): 1, or 0 when it could not
 * start. */
int pool_detach(void *(*fn)(void *), void *arg);

#endif
