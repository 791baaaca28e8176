/* test_pool.c: the worker threads (pool.c): every call made once, each
 * with its own argument, and the job queue handing out every job once. */
#include "harness.h"

#include "base/pool.h"

#include <string.h>
#include <time.h>

struct share {
	int id, ran;
};

static void *mark(void *arg)
{
	struct share *s = arg;
	s->ran++;
	return NULL;
}

struct jobs {
	struct pool_queue q;
	unsigned char done[1000];
	pthread_mutex_t lock;
	size_t batches;
};

static void *take_all(void *arg)
{
	struct jobs *j = arg;
	size_t start, end;
	while (pool_take(&j->q, &start, &end)) {
		for (size_t i = start; i < end; i++)
			j->done[i]++;
		pthread_mutex_lock(&j->lock);
		j->batches++;
		pthread_mutex_unlock(&j->lock);
	}
	return NULL;
}

static void *count_up(void *arg)
{
	__atomic_add_fetch((int *)arg, 1, __ATOMIC_SEQ_CST);
	return NULL;
}

/* tasks beside the calling thread: run once, joined once */
static void test_tasks(void)
{
	int n = 0;
	struct pool_task t = {0};
	OK(!pool_running(&t));
	pool_join(&t); /* never started: nothing to wait for */
	INT_EQ(pool_spawn(&t, count_up, &n), 1);
	pool_join(&t);
	INT_EQ(n, 1);
	OK(!pool_running(&t));
	pool_join(&t); /* again: nothing */
	pool_finish(&t); /* it ran: not again */
	INT_EQ(n, 1);
	/* a task that could not start runs at pool_finish, once */
	struct pool_task u = {0};
	u.fn = count_up;
	u.arg = &n;
	u.state = 2; /* as pool_spawn leaves it when no thread starts */
	pool_join(&u); /* join does not run it */
	INT_EQ(n, 1);
	u.state = 2;
	pool_finish(&u);
	INT_EQ(n, 2);
	pool_finish(&u);
	INT_EQ(n, 2);
	/* a detached helper runs on its own */
	int d = 0;
	OK(pool_detach(count_up, &d));
	for (int i = 0; i < 5000 && !__atomic_load_n(&d, __ATOMIC_SEQ_CST); i++)
		nanosleep(&(struct timespec){0, 1000000}, NULL); /* at most 5 s */
	INT_EQ(__atomic_load_n(&d, __ATOMIC_SEQ_CST), 1);
}

void test_pool(void)
{
	test_tasks();
	/* each call its own argument, the first on this thread */
	struct share s[4];
	memset(s, 0, sizeof s);
	INT_EQ(pool_run(4, mark, s, sizeof *s, 0), 4);
	OK(s[0].ran == 1 && s[1].ran == 1 && s[2].ran == 1 && s[3].ran == 1);
	INT_EQ(pool_run(0, mark, s, sizeof *s, 1), 1); /* at least the caller */
	INT_EQ(s[0].ran, 2);

	/* the queue in batches: [0,3) [3,6) [6,9) [9,10), then nothing */
	struct pool_queue q;
	size_t a, b;
	pool_queue_init(&q, 10, 3);
	OK(pool_take(&q, &a, &b) && a == 0 && b == 3);
	OK(pool_take(&q, &a, &b) && a == 3 && b == 6);
	OK(pool_take(&q, &a, &b) && a == 6 && b == 9);
	OK(pool_take(&q, &a, &b) && a == 9 && b == 10);
	OK(!pool_take(&q, &a, &b));
	OK(!pool_take(&q, &a, &b));
	pool_queue_fini(&q);
	pool_queue_init(&q, 0, 8);
	OK(!pool_take(&q, &a, &b));
	pool_queue_fini(&q);

	/* shared by threads (size 0: one argument for all): each job once */
	static struct jobs j;
	memset(&j, 0, sizeof j);
	pool_queue_init(&j.q, 1000, 8);
	pthread_mutex_init(&j.lock, NULL);
	INT_EQ(pool_run(3, take_all, &j, 0, 0), 3);
	int once = 1;
	for (size_t i = 0; i < 1000; i++)
		once &= j.done[i] == 1;
	OK(once);
	INT_EQ(j.batches, 125);
	pthread_mutex_destroy(&j.lock);
	pool_queue_fini(&j.q);
}
