/* extcheck.c: the external link check (see extcheck.h). One curl multi
 * handle drives every transfer; folio queues the transfers itself, so that
 * a transfer's timeout counts from when it starts (curl's own per-host
 * queue counts the time spent waiting) and a redirect to another host
 * waits for a place there. Redirects are followed here, hop by hop, to
 * tell a permanent first answer from a temporary one. */
#include "check/extcheck.h"

#include "cache/cache.h"
#include "base/index.h"

#include <curl/curl.h>
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "base/arena.h"
#include "base/buf.h"

#define EXT_MAX_REDIRECTS 10
#define EXT_USER_AGENT    "folio-linkcheck/1"
#define EXT_CACHE_MAGIC   "folio-linkcheck 1"

enum job_state { J_QUEUED, J_ACTIVE, J_DONE };

struct job {
	char *key; /* the URL asked, fragment left out */
	char *cur; /* the URL of the current hop */
	size_t host;
	enum job_state state;
	CURL *h;
	int get;        /* the current request is a GET (HEAD was refused) */
	int hops;       /* redirects followed */
	int perm_open;  /* every redirect so far was permanent */
	int perm_code;  /* 301 or 308 when the first answer was one */
	char *perm_url; /* where the run of permanent redirects ends */
	int body_abort; /* the write callback stopped a GET's body */
	int status;     /* final HTTP status (0: none) */
	char *err;      /* a failure without a status: "timed out after 10 s" */
	int from_cache;
	long long cache_time;
	char errbuf[CURL_ERROR_SIZE];
};

struct host {
	char *name;
	int active;
};

struct centry {
	long long t;
	int status, redir;
	char *url, *newurl;
	int seen; /* a URL of this run: not copied from the old file */
};

struct run {
	const struct extcheck_opts *o;
	int max_total, max_per_host, timeout_s, ttl;
	CURLM *m;
	struct job *jobs;
	size_t njobs;
	struct host *hosts;
	size_t nhosts, cap_hosts;
	size_t first_q; /* no queued job before this one */
	int active;
	size_t nfetch, ndone;
	int progress;
	struct timeval last_progress;
	struct centry *cache;
	size_t ncache;
};

static char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

static int is_http(const char *url)
{
	return strncasecmp(url, "http://", 7) == 0 || strncasecmp(url, "https://", 8) == 0;
}

/* without_fragment: url up to its '#', malloc'd. */
static char *without_fragment(const char *url)
{
	const char *h = strchr(url, '#');
	return xstrndup(url, h ? (size_t)(h - url) : strlen(url));
}

static const char *reason(int code)
{
	static const struct {
		int code;
		const char *text;
	} t[] = {
	    {400, "Bad Request"},
	    {401, "Unauthorized"},
	    {402, "Payment Required"},
	    {403, "Forbidden"},
	    {404, "Not Found"},
	    {405, "Method Not Allowed"},
	    {406, "Not Acceptable"},
	    {407, "Proxy Authentication Required"},
	    {408, "Request Timeout"},
	    {409, "Conflict"},
	    {410, "Gone"},
	    {411, "Length Required"},
	    {412, "Precondition Failed"},
	    {413, "Content Too Large"},
	    {414, "URI Too Long"},
	    {415, "Unsupported Media Type"},
	    {416, "Range Not Satisfiable"},
	    {417, "Expectation Failed"},
	    {418, "I'm a teapot"},
	    {421, "Misdirected Request"},
	    {422, "Unprocessable Content"},
	    {423, "Locked"},
	    {424, "Failed Dependency"},
	    {425, "Too Early"},
	    {426, "Upgrade Required"},
	    {428, "Precondition Required"},
	    {429, "Too Many Requests"},
	    {431, "Request Header Fields Too Large"},
	    {451, "Unavailable For Legal Reasons"},
	    {500, "Internal Server Error"},
	    {501, "Not Implemented"},
	    {502, "Bad Gateway"},
	    {503, "Service Unavailable"},
	    {504, "Gateway Timeout"},
	    {505, "HTTP Version Not Supported"},
	    {506, "Variant Also Negotiates"},
	    {507, "Insufficient Storage"},
	    {508, "Loop Detected"},
	    {510, "Not Extended"},
	    {511, "Network Authentication Required"},
	};
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
		if (t[i].code == code)
			return t[i].text;
	return NULL;
}

/* ---- hosts ---- */

/* host_of: the index of url's host (lowercased) in r->hosts, added if new;
 * *req gets the URL to request (spaces and bytes past ASCII encoded), or
 * NULL when url is not one curl can parse. */
static size_t host_of(struct run *r, const char *url, char **req)
{
	*req = NULL;
	CURLU *u = curl_url();
	char *host = NULL, *full = NULL;
	if (!u)
		return 0;
	if (curl_url_set(u, CURLUPART_URL, url, CURLU_ALLOW_SPACE | CURLU_URLENCODE) != CURLUE_OK ||
	    curl_url_get(u, CURLUPART_HOST, &host, 0) != CURLUE_OK ||
	    curl_url_get(u, CURLUPART_URL, &full, 0) != CURLUE_OK) {
		curl_free(host);
		curl_free(full);
		curl_url_cleanup(u);
		return 0;
	}
	curl_url_cleanup(u);
	for (char *p = host; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	*req = xstrdup(full);
	curl_free(full);
	size_t i;
	for (i = 0; i < r->nhosts; i++)
		if (strcmp(r->hosts[i].name, host) == 0)
			break;
	if (i == r->nhosts) {
		if (r->nhosts == r->cap_hosts) {
			r->cap_hosts = r->cap_hosts ? 2 * r->cap_hosts : 16;
			r->hosts = xrealloc(r->hosts, r->cap_hosts * sizeof *r->hosts);
		}
		r->hosts[r->nhosts].name = xstrdup(host);
		r->hosts[r->nhosts].active = 0;
		r->nhosts++;
	}
	curl_free(host);
	return i;
}

/* ---- the cache file ---- */

static int centry_cmp(const void *a, const void *b)
{
	return strcmp(((const struct centry *)a)->url, ((const struct centry *)b)->url);
}

static int centry_newest_first(const void *a, const void *b)
{
	const struct centry *x = a, *y = b;
	int c = strcmp(x->url, y->url);
	if (c)
		return c;
	return x->t > y->t ? -1 : x->t < y->t;
}

static int cache_key_ok(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return 0;
	return 1;
}

/* read_answers: the answers of a cache file's bytes text[0..tlen) (not
 * changed; the caller's) into r->cache, sorted by URL, one per URL. */
static void read_answers(struct run *r, char *text, size_t tlen)
{
	FILE *f = text && tlen ? fmemopen(text, tlen, "r") : NULL;
	if (!f)
		return;
	char *line = NULL;
	size_t cap = 0, ncap = 0;
	ssize_t len;
	int first = 1;
	while ((len = getline(&line, &cap, f)) > 0) {
		if (line[len - 1] == '\n')
			line[--len] = '\0';
		if (first) {
			first = 0;
			if (strcmp(line, EXT_CACHE_MAGIC) != 0)
				break; /* not a cache file folio knows: ignored */
			continue;
		}
		char *f1 = strchr(line, '\t'), *f2 = f1 ? strchr(f1 + 1, '\t') : NULL,
		     *f3 = f2 ? strchr(f2 + 1, '\t') : NULL, *f4 = f3 ? strchr(f3 + 1, '\t') : NULL;
		if (!f4 || strchr(f4 + 1, '\t'))
			continue;
		*f1 = *f2 = *f3 = *f4 = '\0';
		char *end;
		long long t = strtoll(line, &end, 10);
		if (*end || end == line)
			continue;
		long st = strtol(f1 + 1, &end, 10);
		if (*end || st < 100 || st > 999)
			continue;
		long rd = strtol(f2 + 1, &end, 10);
		if (*end || (rd != 0 && rd != 301 && rd != 308))
			continue;
		if (!cache_key_ok(f3 + 1) || !cache_key_ok(f4 + 1))
			continue;
		if (r->ncache == ncap) {
			ncap = ncap ? 2 * ncap : 64;
			r->cache = xrealloc(r->cache, ncap * sizeof *r->cache);
		}
		struct centry *e = &r->cache[r->ncache++];
		e->t = t;
		e->status = (int)st;
		e->redir = (int)rd;
		e->url = xstrdup(f3 + 1);
		e->newurl = strcmp(f4 + 1, "-") == 0 ? NULL : xstrdup(f4 + 1);
		e->seen = 0;
	}
	free(line);
	fclose(f);
	if (!r->ncache)
		return;
	/* A URL written twice (two runs that raced) keeps its newest answer. */
	qsort(r->cache, r->ncache, sizeof *r->cache, centry_newest_first);
	size_t k = 1;
	for (size_t i = 1; i < r->ncache; i++) {
		if (strcmp(r->cache[i].url, r->cache[k - 1].url) == 0) {
			free(r->cache[i].url);
			free(r->cache[i].newurl);
		} else {
			r->cache[k++] = r->cache[i];
		}
	}
	r->ncache = k;
}

static void cache_load(struct run *r, const char *path)
{
	/* read as every file folio reads (a regular file only: a named pipe
	 * in its place is no cache), then parsed line by line */
	size_t tlen;
	char *text = cache_read(path, CACHE_EXTERNAL, &tlen); /* within the catalogue's bound */
	read_answers(r, text, tlen);
	free(text);
}

static int cache_fresh(const struct run *r, long long t, long long now)
{
	/* (t > now - ttl, not now - t < ttl: t is the file's, and now - t
	 * overflows for a t of -2^63) */
	return t <= now + 60 && t > now - r->ttl;
}

/* cache_lookup: fills j from the cache when it holds a fresh answer for
 * j->key; 1 then. */
static int cache_lookup(struct run *r, struct job *j, long long now)
{
	if (!r->ncache)
		return 0;
	struct centry k = {.url = j->key};
	struct centry *e = bsearch(&k, r->cache, r->ncache, sizeof *r->cache, centry_cmp);
	if (!e)
		return 0;
	e->seen = 1;
	if (!cache_fresh(r, e->t, now) || (e->redir && !e->newurl))
		return 0;
	j->status = e->status;
	j->perm_code = e->redir;
	j->perm_url = e->newurl ? xstrdup(e->newurl) : NULL;
	j->from_cache = 1;
	j->cache_time = e->t;
	return 1;
}

/* cacheable: successes and the failures that last (404, 410). */
static int cacheable(const struct job *j)
{
	if (j->err || j->status < 100)
		return 0;
	return j->status < 400 || j->status == 404 || j->status == 410;
}

/* cache_put_old: the lines of the answers read from the cache file that
 * are still fresh and were not asked again in this run, appended to b;
 * how many. */
static size_t cache_put_old(const struct run *r, long long now, struct buf *b)
{
	size_t n = 0;
	for (size_t i = 0; i < r->ncache; i++) {
		const struct centry *e = &r->cache[i];
		if (e->seen || !cache_fresh(r, e->t, now))
			continue;
		buf_printf(b, "%lld\t%d\t%d\t%s\t%s\n", e->t, e->status, e->redir, e->url,
		           e->newurl ? e->newurl : "-");
		n++;
	}
	return n;
}

static void cache_save(struct run *r, const char *path, long long now, struct diag *d)
{
	struct buf b;
	buf_init(&b);
	buf_puts(&b, EXT_CACHE_MAGIC "\n");
	for (size_t i = 0; i < r->njobs; i++) {
		const struct job *j = &r->jobs[i];
		if (!cacheable(j) || !cache_key_ok(j->key) ||
		    (j->perm_code && !cache_key_ok(j->perm_url)))
			continue;
		buf_printf(&b, "%lld\t%d\t%d\t%s\t%s\n", j->from_cache ? j->cache_time : now,
		           j->status, j->perm_code, j->key, j->perm_code ? j->perm_url : "-");
	}
	cache_put_old(r, now, &b);
	if (cache_write(path, b.p, b.len) != 0) {
		struct diag_loc loc = {.path = path};
		diag_warning(d, &loc, "cannot write the link cache: %s", strerror(errno));
	}
	buf_fini(&b);
}

/* ---- transfers ---- */

static size_t body_cb(char *p, size_t size, size_t n, void *ud)
{
	(void)p;
	struct job *j = ud;
	if (size * n == 0)
		return 0;
	j->body_abort = 1; /* the status is known: the body is not wanted */
	return 0;
}

static void set_request(struct run *r, struct job *j)
{
	CURL *h = j->h;
	j->errbuf[0] = '\0';
	j->body_abort = 0;
	curl_easy_setopt(h, CURLOPT_URL, j->cur);
	if (j->get)
		curl_easy_setopt(h, CURLOPT_HTTPGET, 1L);
	else
		curl_easy_setopt(h, CURLOPT_NOBODY, 1L);
	curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 0L);
	curl_easy_setopt(h, CURLOPT_USERAGENT, EXT_USER_AGENT);
	curl_easy_setopt(h, CURLOPT_TIMEOUT, (long)r->timeout_s);
	curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT, (long)r->timeout_s);
	curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, body_cb);
	curl_easy_setopt(h, CURLOPT_WRITEDATA, (void *)j);
	curl_easy_setopt(h, CURLOPT_ERRORBUFFER, j->errbuf);
	curl_easy_setopt(h, CURLOPT_PRIVATE, (void *)j);
}

static void progress(struct run *r, int force)
{
	if (!r->progress)
		return;
	struct timeval now;
	gettimeofday(&now, NULL);
	long ms = (now.tv_sec - r->last_progress.tv_sec) * 1000 +
	          (now.tv_usec - r->last_progress.tv_usec) / 1000;
	if (!force && ms < 100)
		return;
	r->last_progress = now;
	fprintf(stderr, "\rchecking external links: %zu/%zu", r->ndone, r->nfetch);
	fflush(stderr);
}

static void job_done(struct run *r, struct job *j)
{
	if (j->state == J_ACTIVE) {
		curl_multi_remove_handle(r->m, j->h);
		r->hosts[j->host].active--;
		r->active--;
	}
	if (j->h)
		curl_easy_cleanup(j->h);
	j->h = NULL;
	j->state = J_DONE;
	r->ndone++;
	progress(r, r->ndone == r->nfetch);
}

static void job_fail(struct run *r, struct job *j, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void job_fail(struct run *r, struct job *j, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	j->err = buf_vformat(NULL, fmt, ap);
	va_end(ap);
	job_done(r, j);
}

static void start(struct run *r, struct job *j)
{
	if (!j->h) {
		j->h = curl_easy_init();
		if (!j->h) {
			job_fail(r, j, "could not start a transfer");
			return;
		}
	}
	set_request(r, j);
	if (curl_multi_add_handle(r->m, j->h) != CURLM_OK) {
		job_fail(r, j, "could not start a transfer");
		return;
	}
	j->state = J_ACTIVE;
	r->hosts[j->host].active++;
	r->active++;
}

/* restart: the same transfer again (a GET after HEAD, or the next hop on
 * the same host), keeping its place. */
static void restart(struct run *r, struct job *j)
{
	curl_multi_remove_handle(r->m, j->h);
	set_request(r, j);
	if (curl_multi_add_handle(r->m, j->h) != CURLM_OK)
		job_fail(r, j, "could not start a transfer");
}

static void schedule(struct run *r)
{
	for (size_t i = r->first_q; i < r->njobs && r->active < r->max_total; i++) {
		struct job *j = &r->jobs[i];
		if (j->state != J_QUEUED) {
			if (i == r->first_q)
				r->first_q++;
			continue;
		}
		if (r->hosts[j->host].active >= r->max_per_host)
			continue;
		start(r, j);
	}
}

static void curl_failure(struct run *r, struct job *j, CURLcode res)
{
	const char *eb = j->errbuf[0] ? j->errbuf : curl_easy_strerror(res);
	switch (res) {
	case CURLE_OPERATION_TIMEDOUT: job_fail(r, j, "timed out after %d s", r->timeout_s); return;
	case CURLE_COULDNT_RESOLVE_HOST:
		job_fail(r, j, "host '%s' not found (DNS)", r->hosts[j->host].name);
		return;
	case CURLE_COULDNT_CONNECT: {
		long oserr = 0;
		curl_easy_getinfo(j->h, CURLINFO_OS_ERRNO, &oserr);
		if (oserr == ECONNREFUSED)
			job_fail(r, j, "connection refused");
		else
			job_fail(r, j, "could not connect (%s)", eb);
		return;
	}
	case CURLE_SSL_CONNECT_ERROR: job_fail(r, j, "TLS handshake failed (%s)", eb); return;
	case CURLE_PEER_FAILED_VERIFICATION:
		job_fail(r, j, "TLS certificate not valid (%s)", eb);
		return;
	case CURLE_UNSUPPORTED_PROTOCOL:
		job_fail(r, j, "redirects to '%s', which is not http(s)", j->cur);
		return;
	case CURLE_GOT_NOTHING:
		job_fail(r, j, "the server closed the connection without answering");
		return;
	default:
		if (j->errbuf[0])
			job_fail(r, j, "%s (%s)", curl_easy_strerror(res), j->errbuf);
		else
			job_fail(r, j, "%s", curl_easy_strerror(res));
		return;
	}
}

static void finish(struct run *r, struct job *j, CURLcode res)
{
	long code = 0;
	curl_easy_getinfo(j->h, CURLINFO_RESPONSE_CODE, &code);
	if (res == CURLE_WRITE_ERROR && j->body_abort)
		res = CURLE_OK;
	if (res != CURLE_OK) {
		if (!j->get && (res == CURLE_GOT_NOTHING || res == CURLE_WEIRD_SERVER_REPLY)) {
			j->get = 1; /* a server that does not answer HEAD */
			restart(r, j);
			return;
		}
		curl_failure(r, j, res);
		return;
	}
	if (!j->get && (code == 405 || code == 403 || code == 501)) {
		j->get = 1;
		restart(r, j);
		return;
	}
	char *loc = NULL;
	if (code >= 300 && code < 400 &&
	    curl_easy_getinfo(j->h, CURLINFO_REDIRECT_URL, &loc) == CURLE_OK && loc) {
		int perm = code == 301 || code == 308;
		if (j->hops == 0) {
			j->perm_open = perm;
			j->perm_code = perm ? (int)code : 0;
		} else if (!perm) {
			j->perm_open = 0;
		}
		char *next = without_fragment(loc);
		if (j->perm_open) {
			free(j->perm_url);
			j->perm_url = xstrdup(loc);
		}
		if (++j->hops > EXT_MAX_REDIRECTS) {
			free(next);
			job_fail(r, j, "more than %d redirects", EXT_MAX_REDIRECTS);
			return;
		}
		char *req;
		size_t host = host_of(r, next, &req);
		free(next);
		free(j->cur);
		j->cur = req ? req : xstrdup(loc);
		j->get = 0;
		if (!req) {
			job_fail(r, j, "redirects to '%s', not a valid URL", loc);
			return;
		}
		if (host == j->host) {
			restart(r, j);
			return;
		}
		/* Another host: wait for a place there. */
		curl_multi_remove_handle(r->m, j->h);
		r->hosts[j->host].active--;
		r->active--;
		j->host = host;
		j->state = J_QUEUED;
		size_t idx = (size_t)(j - r->jobs);
		if (idx < r->first_q)
			r->first_q = idx;
		return;
	}
	j->status = (int)code;
	job_done(r, j);
}

static void run_transfers(struct run *r)
{
	while (r->ndone < r->nfetch) {
		schedule(r);
		int running = 0;
		curl_multi_perform(r->m, &running);
		CURLMsg *msg;
		int left;
		while ((msg = curl_multi_info_read(r->m, &left))) {
			if (msg->msg != CURLMSG_DONE)
				continue;
			char *priv = NULL;
			CURL *h = msg->easy_handle;
			CURLcode res = msg->data.result;
			curl_easy_getinfo(h, CURLINFO_PRIVATE, &priv);
			if (priv)
				finish(r, (struct job *)(void *)priv, res);
		}
		if (r->ndone >= r->nfetch)
			break;
		schedule(r);
		curl_multi_poll(r->m, NULL, 0, 200, NULL);
	}
	if (r->progress) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
	}
}

/* ---- the run ---- */

/* put_url: u in quotes, cut after EXT_URL_SHOWN bytes (at a character's
 * start) when it is much longer: a message shows where a URL is, not all
 * of a 10 KB query. */
#define EXT_URL_SHOWN 150
static void put_url(struct buf *b, const char *u)
{
	size_t n = strlen(u);
	buf_putc(b, '\'');
	if (n <= EXT_URL_SHOWN + 20) {
		buf_append(b, u, n);
	} else {
		size_t k = EXT_URL_SHOWN;
		while (k > 0 && ((unsigned char)u[k] & 0xC0) == 0x80)
			k--;
		buf_append(b, u, k);
		buf_puts(b, "...");
	}
	buf_putc(b, '\'');
}

static void report(const struct job *j, const struct extlink *l, struct diag *d, int *errors)
{
	struct diag_loc loc = {l->path, l->src, l->src_len, l->line, l->col};
	const char *moved = j->hops && j->cur && !j->from_cache ? j->cur : NULL;
	struct buf m;
	buf_init(&m);
	if (j->err || j->status >= 400) {
		buf_puts(&m, "broken link ");
		put_url(&m, l->url);
		buf_puts(&m, ": ");
		if (j->err) {
			buf_puts(&m, j->err);
		} else {
			const char *why = reason(j->status);
			buf_printf(&m, "%d", j->status);
			if (why)
				buf_printf(&m, " %s", why);
		}
		if (moved) {
			buf_puts(&m, " (redirected to ");
			put_url(&m, moved);
			buf_putc(&m, ')');
		}
		diag_error(d, &loc, "%s", m.p);
		(*errors)++;
	} else if (j->perm_code && j->perm_url) {
		buf_puts(&m, "link ");
		put_url(&m, l->url);
		buf_puts(&m, " redirects to ");
		put_url(&m, j->perm_url);
		buf_printf(&m, " (%d): write the new address", j->perm_code);
		diag_warning(d, &loc, "%s", m.p);
	}
	buf_fini(&m);
}

static const char *job_key(const void *ctx, uint32_t v)
{
	return ((const struct job *)ctx)[v - 1].key;
}

/* make_jobs: r's jobs, one for each distinct http(s) URL of links (its
 * fragment off), in the order first written; the job of each link in
 * the array returned (malloc'd; job index + 1, 0 for a link skipped). */
static size_t *make_jobs(struct run *r, const struct extlink *links, size_t n)
{
	/* the distinct URLs: an index of keys over the jobs */
	struct index slots = {0}; /* job index + 1 */
	size_t *of = xcalloc(n, sizeof *of);
	r->jobs = xcalloc(n, sizeof *r->jobs);
	for (size_t i = 0; i < n; i++) {
		if (!links[i].url || !is_http(links[i].url))
			continue;
		char *key = without_fragment(links[i].url);
		uint32_t v = index_get_str(&slots, key, job_key, r->jobs);
		if (!v) {
			r->jobs[r->njobs].key = key;
			v = (uint32_t)++r->njobs;
			index_add_str(&slots, key, v, 16, job_key, r->jobs);
		} else {
			free(key);
		}
		of[i] = v;
	}
	index_fini(&slots);
	return of;
}

/* queue_jobs: each job answered by the cache is done, each other queued
 * for a transfer (or done: not a valid URL). */
static void queue_jobs(struct run *r, long long now)
{
	for (size_t i = 0; i < r->njobs; i++) {
		struct job *j = &r->jobs[i];
		if (cache_lookup(r, j, now)) {
			j->state = J_DONE;
			continue;
		}
		j->host = host_of(r, j->key, &j->cur);
		if (!j->cur) {
			struct buf b;
			buf_init(&b);
			buf_puts(&b, "not a valid URL");
			j->err = buf_detach(&b, NULL);
			j->state = J_DONE;
			continue;
		}
		j->state = J_QUEUED;
		r->nfetch++;
	}
}

/* count_stats: what the run did, into st. */
static void count_stats(const struct run *r, struct extcheck_stats *st)
{
	st->urls = r->njobs;
	for (size_t i = 0; i < r->njobs; i++) {
		const struct job *j = &r->jobs[i];
		if (j->state != J_DONE)
			continue;
		if (j->from_cache)
			st->cached++;
		else if (j->cur)
			st->checked++;
		if (j->err || j->status >= 400)
			st->broken++;
		else if (j->perm_code)
			st->redirected++;
	}
}

/* run_free: what r holds. */
static void run_free(struct run *r)
{
	for (size_t i = 0; i < r->njobs; i++) {
		struct job *j = &r->jobs[i];
		if (j->h)
			curl_easy_cleanup(j->h);
		free(j->key);
		free(j->cur);
		free(j->perm_url);
		free(j->err);
	}
	for (size_t i = 0; i < r->nhosts; i++)
		free(r->hosts[i].name);
	for (size_t i = 0; i < r->ncache; i++) {
		free(r->cache[i].url);
		free(r->cache[i].newurl);
	}
	free(r->cache);
	free(r->hosts);
	free(r->jobs);
}

int extcheck_run(const struct extlink *links, size_t n, const struct extcheck_opts *o,
                 struct diag *d, struct extcheck_stats *st)
{
	static const struct extcheck_opts none;
	if (!o)
		o = &none;
	struct run r = {0};
	r.o = o;
	r.max_total = o->max_total > 0 ? o->max_total : 16;
	r.max_per_host = o->max_per_host > 0 ? o->max_per_host : 2;
	r.timeout_s = o->timeout_s > 0 ? o->timeout_s : 10;
	r.ttl = o->cache_ttl_s > 0 ? o->cache_ttl_s : 86400;
	if (st)
		memset(st, 0, sizeof *st);
	curl_global_init(CURL_GLOBAL_DEFAULT);
	size_t *of = make_jobs(&r, links, n);
	long long now = (long long)time(NULL);
	if (o->cache_path)
		cache_load(&r, o->cache_path);
	queue_jobs(&r, now);
	if (r.nfetch) {
		r.m = curl_multi_init();
		if (!r.m) {
			struct diag_loc loc = {0};
			diag_error(d, &loc, "cannot start libcurl: external links not checked");
		} else {
			curl_multi_setopt(r.m, CURLMOPT_MAX_HOST_CONNECTIONS, (long)r.max_per_host);
			curl_multi_setopt(r.m, CURLMOPT_MAX_TOTAL_CONNECTIONS, (long)r.max_total);
			r.progress = o->progress && isatty(STDERR_FILENO);
			run_transfers(&r);
			curl_multi_cleanup(r.m);
		}
	}
	int errors = 0;
	for (size_t i = 0; i < n; i++)
		if (of[i] && r.jobs[of[i] - 1].state == J_DONE)
			report(&r.jobs[of[i] - 1], &links[i], d, &errors);
	if (o->cache_path)
		cache_save(&r, o->cache_path, now, d);
	if (st)
		count_stats(&r, st);
	run_free(&r);
	free(of);
	curl_global_cleanup();
	return errors;
}

size_t extcheck_cache_keep(const char *text, size_t len, long long now, int ttl_s, struct buf *out)
{
	struct run r = {0};
	r.ttl = ttl_s > 0 ? ttl_s : 86400;
	char *copy = xmalloc(len + 1);
	memcpy(copy, text, len);
	read_answers(&r, copy, len);
	free(copy);
	size_t n = cache_put_old(&r, now, out);
	run_free(&r);
	return n;
}
