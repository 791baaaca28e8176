/* test_extcheck.c: extcheck_run against a small HTTP server of its own (a
 * forked child on 127.0.0.1, a thread per connection), which counts the
 * requests of each path and the most connections it held at once. */
#include "harness.h"

#include "base/buf.h"
#include "base/diag.h"
#include "check/extcheck.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *const srv_paths[] = {"/ok",   "/r1",     "/r2",    "/temp", "/gone", "/err",
                                        "/slow", "/nohead", "/delay", "/loop", "/away"};
#define NPATHS (sizeof srv_paths / sizeof srv_paths[0])

/* Shared with the server's process (mmap'd before the fork). */
struct srv_shared {
	int hits[NPATHS];
	int cur, max;  /* requests being served now, and the most at once */
	int bad_ua;    /* requests without folio's User-Agent */
	int fragments; /* request targets with a '#' */
};
static struct srv_shared *sh;
static int srv_fd = -1, srv_port;

static int path_index(const char *p, size_t n)
{
	for (size_t i = 0; i < NPATHS; i++)
		if (strlen(srv_paths[i]) == n && memcmp(srv_paths[i], p, n) == 0)
			return (int)i;
	return -1;
}

static void reply(int fd, int code, const char *status, const char *extra, const char *body,
                  int head)
{
	char out[512];
	int n = snprintf(out, sizeof out,
	                 "HTTP/1.1 %d %s\r\nContent-Length: %zu\r\nConnection: close\r\n%s\r\n%s",
	                 code, status, strlen(body), extra, head ? "" : body);
	send(fd, out, (size_t)n, MSG_NOSIGNAL);
}

static void *conn_main(void *arg)
{
	int fd = (int)(intptr_t)arg;
	int c = __atomic_add_fetch(&sh->cur, 1, __ATOMIC_SEQ_CST);
	int m = __atomic_load_n(&sh->max, __ATOMIC_SEQ_CST);
	while (c > m &&
	       !__atomic_compare_exchange_n(&sh->max, &m, c, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
		;
	char req[4096];
	size_t len = 0;
	req[0] = '\0';
	while (len < sizeof req - 1) {
		ssize_t k = recv(fd, req + len, sizeof req - 1 - len, 0);
		if (k <= 0)
			break;
		len += (size_t)k;
		req[len] = '\0';
		if (!isupper((unsigned char)req[0]) || strstr(req, "\r\n\r\n"))
			break;
	}
	int head = strncmp(req, "HEAD ", 5) == 0;
	const char *target = strchr(req, ' ');
	int pi = -1;
	if (isupper((unsigned char)req[0]) && target) {
		target++;
		size_t n = strcspn(target, " ?#");
		if (memchr(target, '#', strcspn(target, " ")))
			__atomic_add_fetch(&sh->fragments, 1, __ATOMIC_SEQ_CST);
		if (!strstr(req, "\r\nUser-Agent: folio-linkcheck/1\r\n"))
			__atomic_add_fetch(&sh->bad_ua, 1, __ATOMIC_SEQ_CST);
		pi = path_index(target, n);
		if (pi >= 0)
			__atomic_add_fetch(&sh->hits[pi], 1, __ATOMIC_SEQ_CST);
	}
	const char *p = pi >= 0 ? srv_paths[pi] : "";
	/* Not counted once answered (the client may start its next request as
	 * soon as it has the answer), nor while /slow sleeps past the client's
	 * timeout, into the next runs. */
	if (strcmp(p, "/slow") == 0) {
		__atomic_sub_fetch(&sh->cur, 1, __ATOMIC_SEQ_CST);
		sleep(3);
	} else {
		if (strcmp(p, "/delay") == 0)
			usleep(150 * 1000);
		__atomic_sub_fetch(&sh->cur, 1, __ATOMIC_SEQ_CST);
	}
	if (pi < 0 && !isupper((unsigned char)req[0]))
		reply(fd, 400, "Bad Request", "", "", 0); /* a TLS hello, say */
	else if (!strcmp(p, "/ok") || !strcmp(p, "/delay") || !strcmp(p, "/slow"))
		reply(fd, 200, "OK", "", "ok", head);
	else if (!strcmp(p, "/r1"))
		reply(fd, 301, "Moved Permanently", "Location: /r2\r\n", "", head);
	else if (!strcmp(p, "/r2"))
		reply(fd, 301, "Moved Permanently", "Location: /ok\r\n", "", head);
	else if (!strcmp(p, "/loop"))
		reply(fd, 302, "Found", "Location: /loop\r\n", "", head);
	else if (!strcmp(p, "/away")) {
		char loc[128];
		snprintf(loc, sizeof loc, "Location: http://localhost:%d/ok#top\r\n", srv_port);
		reply(fd, 308, "Permanent Redirect", loc, "", head);
	} else if (!strcmp(p, "/temp"))
		reply(fd, 302, "Found", "Location: /ok\r\n", "", head);
	else if (!strcmp(p, "/err"))
		reply(fd, 500, "Internal Server Error", "", "oops", head);
	else if (!strcmp(p, "/nohead"))
		reply(fd, head ? 405 : 200, head ? "Method Not Allowed" : "OK", "",
		      "a body of some length", head);
	else
		reply(fd, 404, "Not Found", "", "nothing here", head);
	close(fd);
	return NULL;
}

static void srv_main(void)
{
	signal(SIGPIPE, SIG_IGN);
	for (;;) {
		int fd = accept(srv_fd, NULL, NULL);
		if (fd < 0)
			continue;
		pthread_t t;
		pthread_attr_t at;
		pthread_attr_init(&at);
		pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
		if (pthread_create(&t, &at, conn_main, (void *)(intptr_t)fd) != 0)
			close(fd);
		pthread_attr_destroy(&at);
	}
}

/* listen_any: a socket listening on 127.0.0.1 at a free port (*port). */
static int listen_any(int *port)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a = {0};
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	a.sin_port = 0;
	socklen_t al = sizeof a;
	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof a) != 0 || listen(fd, 64) != 0 ||
	    getsockname(fd, (struct sockaddr *)&a, &al) != 0) {
		perror("test_extcheck: listen");
		exit(1);
	}
	*port = ntohs(a.sin_port);
	return fd;
}

static struct buf cap;
static struct extcheck_stats st;

/* check: runs extcheck_run on urls (link i at content/posts/a.md, line
 * i + 1, column 3), messages in cap; returns its value. */
static int check(const char *const *urls, size_t n, const struct extcheck_opts *o)
{
	static const char src[] =
	    "line 1\nline 2\nline 3\nline 4\nline 5\nline 6\nline 7\nline 8\nline 9\n"
	    "line 10\nline 11\nline 12\nline 13\n";
	struct extlink links[16];
	for (size_t i = 0; i < n && i < 16; i++)
		links[i] = (struct extlink){urls[i], "content/posts/a.md", (int)i + 1, 3,
		                            src,     sizeof src - 1};
	struct diag d;
	diag_init(&d, NULL);
	buf_reset(&cap);
	d.capture = &cap;
	int e = extcheck_run(links, n, o, &d, &st);
	diag_fini(&d);
	return e;
}

static int has(const char *hay, const char *needle)
{
	if (strstr(hay, needle))
		return 1;
	fprintf(stderr, "test_extcheck: missing \"%s\" in:\n%s\n", needle, hay);
	return 0;
}

/* backdate: the cache file's times moved back by secs. */
static void backdate(const char *dir, long long secs)
{
	struct buf out;
	buf_init(&out);
	const char *p = t_read(dir, "cache.txt");
	const char *nl = strchr(p, '\n');
	if (!nl)
		return;
	buf_append(&out, p, (size_t)(nl + 1 - p));
	for (p = nl + 1; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		if (!nl)
			break;
		char *end;
		long long t = strtoll(p, &end, 10);
		buf_printf(&out, "%lld", t - secs);
		buf_append(&out, end, (size_t)(nl + 1 - end));
	}
	t_write(dir, "cache.txt", out.p);
	buf_fini(&out);
}

void test_extcheck(void)
{
	t_current = "extcheck";
	setenv("no_proxy", "*", 1);
	setenv("NO_PROXY", "*", 1);
	sh = mmap(NULL, sizeof *sh, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		perror("test_extcheck: mmap");
		exit(1);
	}
	memset(sh, 0, sizeof *sh);
	int port, closed_port;
	srv_fd = listen_any(&port);
	srv_port = port;
	int cfd = listen_any(&closed_port);
	close(cfd); /* nothing listens there now: connection refused */
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		perror("test_extcheck: fork");
		exit(1);
	}
	if (pid == 0) {
		srv_main();
		_exit(0);
	}
	close(srv_fd);

	char u[16][128];
	const char *names[] = {"/ok",           "/r1",  "/temp", "/gone",
	                       "/gone#section", "/err", "/slow", "/nohead"};
	for (size_t i = 0; i < 8; i++)
		snprintf(u[i], sizeof u[i], "http://127.0.0.1:%d%s", port, names[i]);
	snprintf(u[8], sizeof u[8], "http://127.0.0.1:%d/", closed_port);
	snprintf(u[9], sizeof u[9], "https://127.0.0.1:%d/ok", port);
	snprintf(u[10], sizeof u[10], "ftp://127.0.0.1/x");
	snprintf(u[11], sizeof u[11], "http://[bad/");
	const char *urls[12];
	for (size_t i = 0; i < 12; i++)
		urls[i] = u[i];

	char *dir = t_tmpdir();
	char cache_path[4096], line[512];
	snprintf(cache_path, sizeof cache_path, "%s/cache.txt", dir);
	struct extcheck_opts o = {.timeout_s = 1, .cache_path = cache_path};

	/* The first run: everything from the server. */
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	INT_EQ(check(urls, 12, &o), 7);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	OK(secs < 3.0);
	const char *msgs = t_msgs(&cap);
	snprintf(line, sizeof line,
	         "content/posts/a.md:2:3: warning: link '%s' redirects to 'http://127.0.0.1:%d/ok' "
	         "(301): write the new "
	         "address",
	         u[1], port);
	OK(has(msgs, line));
	snprintf(line, sizeof line,
	         "content/posts/a.md:4:3: error: broken link '%s': 404 Not Found", u[3]);
	OK(has(msgs, line));
	snprintf(line, sizeof line,
	         "content/posts/a.md:5:3: error: broken link '%s': 404 Not Found", u[4]);
	OK(has(msgs, line));
	snprintf(line, sizeof line,
	         "content/posts/a.md:6:3: error: broken link '%s': 500 Internal Server Error",
	         u[5]);
	OK(has(msgs, line));
	snprintf(line, sizeof line,
	         "content/posts/a.md:7:3: error: broken link '%s': timed out after 1 s", u[6]);
	OK(has(msgs, line));
	snprintf(line, sizeof line,
	         "content/posts/a.md:9:3: error: broken link '%s': connection refused", u[8]);
	OK(has(msgs, line));
	snprintf(line, sizeof line,
	         "content/posts/a.md:10:3: error: broken link '%s': TLS handshake failed (", u[9]);
	OK(has(msgs, line));
	OK(has(msgs,
	       "content/posts/a.md:12:3: error: broken link 'http://[bad/': not a valid URL"));
	OK(strstr(msgs, ":1:3:") == NULL);  /* /ok */
	OK(strstr(msgs, ":3:3:") == NULL);  /* /temp: a temporary redirect is fine */
	OK(strstr(msgs, ":8:3:") == NULL);  /* /nohead: GET after HEAD's 405 */
	OK(strstr(msgs, ":11:3:") == NULL); /* ftp: not checked */
	INT_EQ(st.urls, 10);
	INT_EQ(st.checked, 9);
	INT_EQ(st.cached, 0);
	INT_EQ(st.broken, 6);
	INT_EQ(st.redirected, 1);
	INT_EQ(sh->hits[4], 1); /* /gone twice (once with a #fragment): one HEAD */
	INT_EQ(sh->hits[7], 2); /* /nohead: HEAD, then GET */
	INT_EQ(sh->hits[0], 3); /* /ok: itself, after /r2, after /temp */
	INT_EQ(sh->hits[1], 1);
	INT_EQ(sh->hits[2], 1);
	INT_EQ(sh->fragments, 0);
	INT_EQ(sh->bad_ua, 0);

	/* The cache file: successes and 404, not 500, timeouts or failures. */
	const char *c = t_read(dir, "cache.txt");
	OK(strncmp(c, "folio-linkcheck 1\n", 18) == 0);
	snprintf(line, sizeof line, "\t200\t0\t%s\t-\n", u[0]);
	OK(has(c, line));
	snprintf(line, sizeof line, "\t200\t301\t%s\thttp://127.0.0.1:%d/ok\n", u[1], port);
	OK(has(c, line));
	snprintf(line, sizeof line, "\t404\t0\t%s\t-\n", u[3]);
	OK(has(c, line));
	OK(strstr(c, "/gone#") == NULL);
	OK(strstr(c, "/err") == NULL);
	OK(strstr(c, "/slow") == NULL);
	OK(strstr(c, "https://") == NULL);
	snprintf(line, sizeof line, ":%d/", closed_port);
	OK(strstr(c, line) == NULL);

	/* The second run: the cached answers, the same messages; /err again. */
	const char *again[] = {u[0], u[1], u[3], u[5]};
	int before[NPATHS];
	memcpy(before, sh->hits, sizeof before);
	INT_EQ(check(again, 4, &o), 2);
	INT_EQ(st.cached, 3);
	INT_EQ(st.checked, 1);
	INT_EQ(st.redirected, 1);
	INT_EQ(sh->hits[0], before[0]);
	INT_EQ(sh->hits[1], before[1]);
	INT_EQ(sh->hits[4], before[4]);
	INT_EQ(sh->hits[5], before[5] + 1);
	msgs = t_msgs(&cap);
	snprintf(line, sizeof line,
	         "content/posts/a.md:2:3: warning: link '%s' redirects to 'http://127.0.0.1:%d/ok' "
	         "(301): write the new "
	         "address",
	         u[1], port);
	OK(has(msgs, line));
	snprintf(line, sizeof line,
	         "content/posts/a.md:3:3: error: broken link '%s': 404 Not Found", u[3]);
	OK(has(msgs, line));
	/* Entries of URLs not in this run stay in the file. */
	snprintf(line, sizeof line, "\t%s\t-\n", u[7]);
	OK(has(t_read(dir, "cache.txt"), line));

	/* TTL: answers 100 s old hold for a TTL of 200 s, not of 50 s. */
	backdate(dir, 100);
	const char *one[] = {u[0]};
	o.cache_ttl_s = 200;
	memcpy(before, sh->hits, sizeof before);
	INT_EQ(check(one, 1, &o), 0);
	INT_EQ(st.cached, 1);
	INT_EQ(sh->hits[0], before[0]);
	o.cache_ttl_s = 50;
	INT_EQ(check(one, 1, &o), 0);
	INT_EQ(st.cached, 0);
	INT_EQ(st.checked, 1);
	INT_EQ(sh->hits[0], before[0] + 1);
	/* Expired entries of other URLs are dropped; the fresh one is kept. */
	c = t_read(dir, "cache.txt");
	OK(strstr(c, "/gone") == NULL);
	snprintf(line, sizeof line, "\t200\t0\t%s\t-\n", u[0]);
	OK(has(c, line));

	/* At most max_per_host at once to one host. */
	char d[6][128];
	const char *delays[6];
	for (int i = 0; i < 6; i++) {
		snprintf(d[i], sizeof d[i], "http://127.0.0.1:%d/delay?%d", port, i);
		delays[i] = d[i];
	}
	struct extcheck_opts po = {.max_per_host = 2, .timeout_s = 2};
	__atomic_store_n(&sh->max, 0, __ATOMIC_SEQ_CST);
	INT_EQ(check(delays, 6, &po), 0);
	INT_EQ(sh->hits[8], 6);
	INT_EQ(st.checked, 6);
	OK(sh->max <= 2);
	OK(sh->max >= 2); /* and they did run side by side */
	po.max_per_host = 3;
	po.max_total = 1;
	__atomic_store_n(&sh->max, 0, __ATOMIC_SEQ_CST);
	INT_EQ(check(delays, 3, &po), 0);
	INT_EQ(sh->max, 1);

	/* A redirect loop; a permanent redirect to another host name (queued
	 * again there), its #fragment kept in the message. */
	char lp[2][128];
	snprintf(lp[0], sizeof lp[0], "http://127.0.0.1:%d/loop", port);
	snprintf(lp[1], sizeof lp[1], "http://127.0.0.1:%d/away", port);
	const char *more[] = {lp[0], lp[1]};
	struct extcheck_opts mo = {.max_per_host = 1, .timeout_s = 2};
	memcpy(before, sh->hits, sizeof before);
	INT_EQ(check(more, 2, &mo), 1);
	msgs = t_msgs(&cap);
	snprintf(line, sizeof line,
	         "content/posts/a.md:1:3: error: broken link '%s': more than 10 redirects", lp[0]);
	OK(has(msgs, line));
	snprintf(line, sizeof line,
	         "content/posts/a.md:2:3: warning: link '%s' redirects to "
	         "'http://localhost:%d/ok#top' (308): write "
	         "the new address",
	         lp[1], port);
	OK(has(msgs, line));
	INT_EQ(sh->hits[9], before[9] + 11);
	INT_EQ(sh->hits[0], before[0] + 1);
	INT_EQ(st.redirected, 1);
	INT_EQ(st.broken, 1);

	/* A URL twice in the cache file: its newest answer holds, written once. */
	char dup[128], text[512];
	snprintf(dup, sizeof dup, "http://127.0.0.1:%d/gone?dup", port);
	long long now = (long long)time(NULL);
	snprintf(text, sizeof text, "folio-linkcheck 1\n%lld\t404\t0\t%s\t-\n%lld\t200\t0\t%s\t-\n",
	         now - 10, dup, now - 5, dup);
	t_write(dir, "cache.txt", text);
	const char *du[] = {dup};
	memcpy(before, sh->hits, sizeof before);
	INT_EQ(check(du, 1, &o), 0);
	INT_EQ(st.cached, 1);
	INT_EQ(sh->hits[4], before[4]);
	snprintf(text, sizeof text, "folio-linkcheck 1\n%lld\t200\t0\t%s\t-\n", now - 5, dup);
	STR_EQ(t_read(dir, "cache.txt"), text);

	/* The reader alone: a time of -2^63 is old, not an overflow (the
	 * fuzz target found it); the newest answer of a URL, sorted. */
	struct buf kept;
	buf_init(&kept);
	snprintf(text, sizeof text,
	         "folio-linkcheck 1\n-9223372036854775808\t200\t0\thttp://a/\t-\n"
	         "%lld\t404\t0\thttp://b/\t-\n%lld\t200\t301\thttp://a/\thttp://c/\n",
	         now - 5, now - 10);
	INT_EQ((int)extcheck_cache_keep(text, strlen(text), now, 0, &kept), 2);
	snprintf(line, sizeof line, "%lld\t200\t301\thttp://a/\thttp://c/\n%lld\t404\t0\thttp://b/\t-\n",
	         now - 10, now - 5);
	OK(kept.p && !strcmp(kept.p, line));
	buf_reset(&kept);
	const char *least = "folio-linkcheck 1\n-9223372036854775808\t200\t0\thttp://a/\t-\n";
	INT_EQ((int)extcheck_cache_keep(least, strlen(least), now, 0, &kept), 0);
	buf_fini(&kept);

	/* A long URL is cut in the message. */
	char longu[512];
	int k = snprintf(longu, sizeof longu, "http://127.0.0.1:%d/gone?q=", port);
	memset(longu + k, 'x', 300);
	longu[k + 300] = '\0';
	const char *lu[] = {longu};
	INT_EQ(check(lu, 1, &mo), 1);
	msgs = t_msgs(&cap);
	snprintf(line, sizeof line, "broken link '%.150s...': 404 Not Found", longu);
	OK(has(msgs, line));
	OK(strstr(msgs, longu) == NULL);

	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	munmap(sh, sizeof *sh);
	buf_fini(&cap);
	t_rmtree(dir);
	free(dir);
}
