/* serve.c: `folio serve`: a private build folder, an HTTP server on
 * libmicrohttpd, an inotify watcher that rebuilds, and Server-Sent Events
 * that make open tabs reload or show the build's errors. */
#include "serve/serve.h"

#include "base/buf.h"
#include "base/pool.h"
#include "pipeline/build.h"
#include "base/diag.h"
#include "output/output.h"
#include "files/reader.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <malloc.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define EVENTS_PATH "/__folio/events"
/* Changes closer together than this are one rebuild (an editor's save is a
 * burst: write a temporary file, rename, chmod). A burst that ends with a
 * file closed after writing, renamed into place or deleted is a save that
 * has ended, and waits only SETTLE_MS for whatever follows at once; one
 * that ends mid-write (a modification, a new empty file) waits
 * DEBOUNCE_MS. */
#define DEBOUNCE_MS 50
#define SETTLE_MS 5
/* An idle event stream sends a comment this often, so that a closed tab's
 * connection is noticed and its thread ends. */
#define PING_SECONDS 10

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int serve_resolve(const char *root, const char *url, char *out, size_t n)
{
	char path[PATH_MAX];
	size_t len = 0;
	if (n)
		out[0] = '\0';
	if (!url || url[0] != '/')
		return 400; /* "*", absolute URLs, relative paths */
	/* decode once; what decodes to a separator, a '%' (double encoding),
	 * NUL or a control byte is refused rather than interpreted */
	for (const char *p = url; *p && *p != '?' && *p != '#'; p++) {
		unsigned char c = (unsigned char)*p;
		if (c == '%') {
			int h = hexval((unsigned char)p[1]),
			    l = h < 0 ? -1 : hexval((unsigned char)p[2]);
			if (h < 0 || l < 0)
				return 400;
			c = (unsigned char)(h * 16 + l);
			p += 2;
			if (c == '/' || c == '\\' || c == '%' || c == '\0')
				return 400;
		} else if (c == '\\') {
			return 400;
		}
		if (c < 0x20 || c == 0x7f)
			return 400;
		if (len + 1 >= sizeof path)
			return 400;
		path[len++] = (char)c;
	}
	path[len] = '\0';
	/* segments: no ".", "..", empty ones (but a final '/'), hidden names */
	int hidden = 0;
	for (size_t i = 1; i <= len;) {
		size_t j = i;
		while (j < len && path[j] != '/')
			j++;
		size_t sl = j - i;
		if (sl == 0 && j < len)
			return 400; /* "//" */
		if ((sl == 1 && path[i] == '.') ||
		    (sl == 2 && path[i] == '.' && path[i + 1] == '.'))
			return 400;
		if (sl > 0 && path[i] == '.')
			hidden = 1;
		i = j + 1;
	}
	if (hidden)
		return 404;
	char real_root[PATH_MAX];
	if (!realpath(root, real_root))
		return 404;
	char full[PATH_MAX * 2], real[PATH_MAX];
	snprintf(full, sizeof full, "%s%s", real_root, path);
	if (!realpath(full, real))
		return errno == ENOENT || errno == ENOTDIR || errno == ELOOP ? 404 : 403;
	size_t rl = strlen(real_root);
	int inside = !strncmp(real, real_root, rl) && (real[rl] == '/' || real[rl] == '\0');
	if (!inside)
		return 404; /* a link out of root: as if there were nothing (folio-site(5)) */
	struct stat st;
	if (stat(real, &st) != 0)
		return 404;
	if (S_ISDIR(st.st_mode)) {
		if (len == 0 || path[len - 1] != '/')
			return 301;
		char idx[PATH_MAX + 16];
		snprintf(idx, sizeof idx, "%s/index.html", real);
		if (!realpath(idx, real))
			return 404;
		if (strncmp(real, real_root, rl) || real[rl] != '/')
			return 404;
		if (stat(real, &st) != 0)
			return 404;
	}
	if (!S_ISREG(st.st_mode))
		return 404;
	if (strlen(real) + 1 > n)
		return 404;
	memcpy(out, real, strlen(real) + 1);
	return 0;
}

/* host_is: whether host is name, alone or followed by ":port". */
static int host_is(const char *host, const char *name, int port)
{
	size_t l = strlen(name);
	if (strncasecmp(host, name, l))
		return 0;
	if (host[l] == '\0')
		return 1;
	if (host[l] != ':')
		return 0;
	char want[16];
	snprintf(want, sizeof want, "%d", port);
	return !strcmp(host + l + 1, want);
}

int serve_host_ok(const char *host, const char *bind, int port)
{
	if (!host || !*host)
		return 0;
	if (host_is(host, "localhost", port) || host_is(host, "127.0.0.1", port) ||
	    host_is(host, "[::1]", port))
		return 1;
	if (bind && *bind) {
		char b[INET6_ADDRSTRLEN + 3];
		if (strchr(bind, ':'))
			snprintf(b, sizeof b, "[%s]", bind);
		else
			snprintf(b, sizeof b, "%s", bind);
		if (host_is(host, b, port))
			return 1;
		if (!strcmp(bind, "0.0.0.0") || !strcmp(bind, "::")) {
			/* any IP literal: DNS rebinding needs a name */
			char h[INET6_ADDRSTRLEN + 8];
			if (strlen(host) >= sizeof h)
				return 0; /* no IP literal with a port is this long: cut
				           * to fit, "[v6]:port.evil.example" would pass */
			snprintf(h, sizeof h, "%s", host);
			unsigned char addr[16];
			if (h[0] == '[') {
				char *e = strchr(h, ']');
				if (!e)
					return 0;
				*e = '\0';
				if (inet_pton(AF_INET6, h + 1, addr) != 1)
					return 0;
				char want[16];
				snprintf(want, sizeof want, "%d", port);
				return e[1] == '\0' || (e[1] == ':' && !strcmp(e + 2, want));
			}
			char *colon = strchr(h, ':');
			if (colon) {
				char want[16];
				snprintf(want, sizeof want, "%d", port);
				if (strcmp(colon + 1, want))
					return 0;
				*colon = '\0';
			}
			return inet_pton(AF_INET, h, addr) == 1;
		}
	}
	return 0;
}

static const char reload_script[] =
    "<script>/* added by folio serve */\n"
    "(function () {\n"
    "  var key = 'folio-serve-scroll:' + location.pathname;\n"
    "  var y = sessionStorage.getItem(key);\n"
    "  if (y !== null) {\n"
    "    sessionStorage.removeItem(key);\n"
    "    var go = function () { window.scrollTo(0, +y); };\n"
    "    if (document.readyState === 'complete') go(); else window.addEventListener('load', go);\n"
    "  }\n"
    "  var es = new EventSource('\001" EVENTS_PATH "');\n"
    "  es.addEventListener('reload', function () {\n"
    "    sessionStorage.setItem(key, String(window.scrollY));\n"
    "    location.reload();\n"
    "  });\n"
    "  es.addEventListener('error', function (e) {\n"
    "    if (typeof e.data !== 'string') return; /* a dropped connection, not a build error */\n"
    "    var box = document.getElementById('folio-serve-error');\n"
    "    if (!box) {\n"
    "      box = document.createElement('div');\n"
    "      box.id = 'folio-serve-error';\n"
    "      box.style.cssText = "
    "'position:fixed;inset:0;z-index:2147483647;overflow:auto;margin:0;'\n"
    "        + 'padding:2em;background:rgba(20,20,20,.94);color:#f6f6f6;font:14px/1.5 monospace';\n"
    "      var h = document.createElement('div');\n"
    "      h.textContent = 'folio: the build failed; fix the error and save to reload';\n"
    "      h.style.cssText = 'color:#ff8080;font-weight:bold;margin-bottom:1em';\n"
    "      box.appendChild(h);\n"
    "      var pre = document.createElement('pre');\n"
    "      pre.style.cssText = 'all:unset;display:block;white-space:pre-wrap;font:inherit;color:inherit';\n"
    "      box.appendChild(pre);\n"
    "      document.body.appendChild(box);\n"
    "    }\n"
    "    box.lastChild.textContent = e.data;\n"
    "  });\n"
    "})();\n"
    "</script>\n";

void serve_inject(struct buf *out, const char *html, size_t len, const char *base)
{
	/* the script's \001 is the base path ("/blog/" -> "/blog") */
	const char *mark = memchr(reload_script, '\001', sizeof reload_script - 1);
	size_t bl = base && *base ? strlen(base) - (base[strlen(base) - 1] == '/') : 0;
	/* the last </body>, in any case */
	size_t at = len;
	for (size_t i = len; i >= 7; i--) {
		if (!strncasecmp(html + i - 7, "</body>", 7)) {
			at = i - 7;
			break;
		}
	}
	buf_append(out, html, at);
	buf_append(out, reload_script, (size_t)(mark - reload_script));
	buf_append(out, base, bl);
	buf_append(out, mark + 1, sizeof reload_script - 1 - (size_t)(mark + 1 - reload_script));
	buf_append(out, html + at, len - at);
}

/* ---- the server's state, shared by the watcher and the connections ---- */

struct state {
	pthread_mutex_t lock;
	pthread_cond_t changed;
	unsigned long seq; /* bumped by every event */
	char *error;       /* the last build's diagnostics, or NULL (owned) */
	int built;         /* a build was written: there is a site to serve */
	int stopping;
	char root[PATH_MAX]; /* the output folder, resolved on every request */
	const char *bind;
	int port;
	char base[1100]; /* the path of base_url ("/" or "/blog/"): the site is served there */
};

static struct state st = {
    .lock = PTHREAD_MUTEX_INITIALIZER,
    .changed = PTHREAD_COND_INITIALIZER,
};

/* One open event stream. */
struct stream {
	unsigned long seen;
	int first;     /* a new stream is told about a current build error */
	char *pending; /* formatted event not yet sent (owned) */
	size_t plen, poff;
};

/* format_event: "event: NAME\ndata: LINE\n...\n\n" (malloc'd). */
static char *format_event(const char *name, const char *data, size_t *len)
{
	struct buf b;
	buf_init(&b);
	buf_printf(&b, "event: %s\n", name);
	const char *p = data;
	do {
		const char *nl = strchr(p, '\n');
		size_t l = nl ? (size_t)(nl - p) : strlen(p);
		if (!nl && l == 0 && p != data)
			break; /* the final newline */
		buf_puts(&b, "data: ");
		buf_append(&b, p, l);
		buf_putc(&b, '\n');
		p = nl ? nl + 1 : p + l;
	} while (*p);
	buf_putc(&b, '\n');
	return buf_detach(&b, len);
}

static ssize_t stream_read(void *cls, uint64_t pos, char *out, size_t max)
{
	(void)pos;
	struct stream *s = cls;
	if (!s->pending) {
		pthread_mutex_lock(&st.lock);
		if (s->first) {
			s->first = 0;
			if (st.error)
				s->pending = format_event("error", st.error, &s->plen);
			else
				s->pending = format_event("hello", "", &s->plen);
		}
		while (!s->pending && !st.stopping && s->seen == st.seq) {
			struct timespec ts;
			clock_gettime(CLOCK_REALTIME, &ts);
			ts.tv_sec += PING_SECONDS;
			if (pthread_cond_timedwait(&st.changed, &st.lock, &ts) == ETIMEDOUT)
				break;
		}
		if (st.stopping) {
			pthread_mutex_unlock(&st.lock);
			return MHD_CONTENT_READER_END_OF_STREAM;
		}
		if (!s->pending && s->seen != st.seq) {
			s->seen = st.seq;
			s->pending = st.error ? format_event("error", st.error, &s->plen)
			                      : format_event("reload", "", &s->plen);
		}
		pthread_mutex_unlock(&st.lock);
		if (!s->pending) {
			s->pending = strdup(": ping\n\n");
			s->plen = strlen(s->pending);
		}
		s->poff = 0;
	}
	size_t k = s->plen - s->poff < max ? s->plen - s->poff : max;
	memcpy(out, s->pending + s->poff, k);
	s->poff += k;
	if (s->poff == s->plen) {
		free(s->pending);
		s->pending = NULL;
	}
	return (ssize_t)k;
}

static void stream_free(void *cls)
{
	struct stream *s = cls;
	free(s->pending);
	free(s);
}

static const char *content_type(const char *path)
{
	static const char *const types[][2] = {
	    {".html", "text/html; charset=utf-8"},
	    {".htm", "text/html; charset=utf-8"},
	    {".css", "text/css; charset=utf-8"},
	    {".js", "text/javascript; charset=utf-8"},
	    {".mjs", "text/javascript; charset=utf-8"},
	    {".json", "application/json; charset=utf-8"},
	    {".map", "application/json; charset=utf-8"},
	    {".xml", "application/xml; charset=utf-8"},
	    {".atom", "application/atom+xml; charset=utf-8"},
	    {".rss", "application/rss+xml; charset=utf-8"},
	    {".txt", "text/plain; charset=utf-8"},
	    {".md", "text/plain; charset=utf-8"},
	    {".svg", "image/svg+xml; charset=utf-8"},
	    {".png", "image/png"},
	    {".jpg", "image/jpeg"},
	    {".jpeg", "image/jpeg"},
	    {".gif", "image/gif"},
	    {".webp", "image/webp"},
	    {".avif", "image/avif"},
	    {".ico", "image/x-icon"},
	    {".woff", "font/woff"},
	    {".woff2", "font/woff2"},
	    {".ttf", "font/ttf"},
	    {".otf", "font/otf"},
	    {".pdf", "application/pdf"},
	    {".mp4", "video/mp4"},
	    {".webm", "video/webm"},
	    {".mp3", "audio/mpeg"},
	    {".wasm", "application/wasm"},
	    {".glb", "model/gltf-binary"},
	    {".gltf", "model/gltf+json"},
	};
	const char *dot = strrchr(path, '.');
	const char *slash = strrchr(path, '/');
	if (dot && (!slash || dot > slash))
		for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
			if (!strcasecmp(dot, types[i][0]))
				return types[i][1];
	return "application/octet-stream";
}

static enum MHD_Result send_text(struct MHD_Connection *c, unsigned code, const char *text)
{
	struct MHD_Response *r =
	    MHD_create_response_from_buffer(strlen(text), (void *)text, MHD_RESPMEM_PERSISTENT);
	MHD_add_response_header(r, "Content-Type", "text/plain; charset=utf-8");
	MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
	enum MHD_Result ret = MHD_queue_response(c, code, r);
	MHD_destroy_response(r);
	return ret;
}

/* etag_matches: whether an If-None-Match list names tag (or is "*"). */
static int etag_matches(const char *inm, const char *tag)
{
	if (!strcmp(inm, "*"))
		return 1;
	const char *p = inm;
	size_t tl = strlen(tag);
	while ((p = strstr(p, tag))) {
		char after = p[tl];
		if (after == '\0' || after == ',' || after == ' ')
			return 1;
		p += tl;
	}
	return 0;
}

/* send_file: path (a resolved regular file) with status code; HTML gets the
 * reload script. HEAD requests get the same headers (libmicrohttpd drops
 * the body). */
static enum MHD_Result send_file(struct MHD_Connection *c, const char *path, unsigned code)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	struct stat sb;
	if (fd < 0 || fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
		if (fd >= 0)
			close(fd);
		return send_text(c, MHD_HTTP_NOT_FOUND, "404 Not Found\n");
	}
	char etag[96], lastmod[64];
	snprintf(etag, sizeof etag, "\"%llx-%llx-%lx\"", (unsigned long long)sb.st_size,
	         (unsigned long long)sb.st_mtim.tv_sec, (long)sb.st_mtim.tv_nsec);
	struct tm tm;
	gmtime_r(&sb.st_mtim.tv_sec, &tm);
	strftime(lastmod, sizeof lastmod, "%a, %d %b %Y %H:%M:%S GMT", &tm);
	const char *type = content_type(path);
	if (code == MHD_HTTP_OK) {
		const char *inm = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "If-None-Match");
		const char *ims =
		    MHD_lookup_connection_value(c, MHD_HEADER_KIND, "If-Modified-Since");
		int fresh = 0;
		if (inm)
			fresh = etag_matches(inm, etag);
		else if (ims) {
			struct tm t;
			memset(&t, 0, sizeof t);
			const char *e = strptime(ims, "%a, %d %b %Y %H:%M:%S GMT", &t);
			fresh = e && !*e && timegm(&t) >= sb.st_mtim.tv_sec;
		}
		if (fresh) {
			close(fd);
			struct MHD_Response *r =
			    MHD_create_response_from_buffer(0, (void *)"", MHD_RESPMEM_PERSISTENT);
			MHD_add_response_header(r, "ETag", etag);
			MHD_add_response_header(r, "Last-Modified", lastmod);
			MHD_add_response_header(r, "Cache-Control", "no-cache");
			enum MHD_Result ret = MHD_queue_response(c, MHD_HTTP_NOT_MODIFIED, r);
			MHD_destroy_response(r);
			return ret;
		}
	}
	struct MHD_Response *r;
	if (!strncmp(type, "text/html", 9)) {
		struct buf page, b;
		buf_init(&page);
		buf_init(&b);
		buf_reserve(&page, (size_t)sb.st_size + 1);
		char chunk[65536];
		ssize_t k;
		while ((k = read(fd, chunk, sizeof chunk)) > 0)
			buf_append(&page, chunk, (size_t)k);
		close(fd);
		char base[sizeof st.base];
		pthread_mutex_lock(&st.lock);
		memcpy(base, st.base, sizeof base);
		pthread_mutex_unlock(&st.lock);
		serve_inject(&b, page.p ? page.p : "", page.len, base);
		buf_fini(&page);
		size_t len;
		char *body = buf_detach(&b, &len);
		r = MHD_create_response_from_buffer(len, body, MHD_RESPMEM_MUST_FREE);
	} else {
		r = MHD_create_response_from_fd((uint64_t)sb.st_size, fd); /* closes fd */
	}
	MHD_add_response_header(r, "Content-Type", type);
	MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
	if (code == MHD_HTTP_OK) {
		MHD_add_response_header(r, "ETag", etag);
		MHD_add_response_header(r, "Last-Modified", lastmod);
	}
	MHD_add_response_header(r, "Cache-Control", "no-cache");
	enum MHD_Result ret = MHD_queue_response(c, code, r);
	MHD_destroy_response(r);
	return ret;
}

static enum MHD_Result send_not_found(struct MHD_Connection *c, const char *root)
{
	char path[PATH_MAX];
	if (serve_resolve(root, "/404.html", path, sizeof path) == 0)
		return send_file(c, path, MHD_HTTP_NOT_FOUND);
	return send_text(c, MHD_HTTP_NOT_FOUND, "404 Not Found\n");
}

/* send_no_build: before any build could be written, every path is this
 * page: the errors, which the reload script shows as its overlay, and the
 * script, which reloads the tab once the site builds. */
static enum MHD_Result send_no_build(struct MHD_Connection *c)
{
	struct buf page, b;
	buf_init(&page);
	buf_init(&b);
	char base[sizeof st.base];
	pthread_mutex_lock(&st.lock);
	memcpy(base, st.base, sizeof base);
	buf_puts(&page, "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
			"<title>folio serve: no good build yet</title></head>\n<body>\n"
			"<h1>folio serve: no good build yet</h1>\n<p>The site has errors, so nothing could be "
			"built. Fix them and save: this page reloads.</p>\n<pre>");
	if (st.error)
		buf_put_html(&page, st.error, strlen(st.error));
	buf_puts(&page, "</pre>\n</body></html>\n");
	pthread_mutex_unlock(&st.lock);
	serve_inject(&b, page.p, page.len, base);
	buf_fini(&page);
	size_t len;
	char *body = buf_detach(&b, &len);
	struct MHD_Response *r = MHD_create_response_from_buffer(len, body, MHD_RESPMEM_MUST_FREE);
	MHD_add_response_header(r, "Content-Type", "text/html; charset=utf-8");
	MHD_add_response_header(r, "Cache-Control", "no-store");
	enum MHD_Result ret = MHD_queue_response(c, MHD_HTTP_SERVICE_UNAVAILABLE, r);
	MHD_destroy_response(r);
	return ret;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url,
                                  const char *method, const char *version, const char *upload_data,
                                  size_t *upload_size, void **con_cls)
{
	(void)cls;
	(void)version;
	(void)upload_data;
	if (!*con_cls) {
		/* first call: headers only; answer on the next one */
		*con_cls = (void *)1;
		return MHD_YES;
	}
	if (*upload_size) {
		*upload_size = 0; /* a body is ignored (and refused below) */
		return MHD_YES;
	}
	const char *host = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Host");
	if (!serve_host_ok(host, st.bind, st.port))
		return send_text(c, MHD_HTTP_FORBIDDEN, "403 Forbidden: unknown Host\n");
	int head = !strcmp(method, "HEAD");
	if (strcmp(method, "GET") && !head) {
		struct MHD_Response *r = MHD_create_response_from_buffer(
		    23, (void *)"405 Method Not Allowed\n", MHD_RESPMEM_PERSISTENT);
		MHD_add_response_header(r, "Allow", "GET, HEAD");
		MHD_add_response_header(r, "Content-Type", "text/plain; charset=utf-8");
		enum MHD_Result ret = MHD_queue_response(c, MHD_HTTP_METHOD_NOT_ALLOWED, r);
		MHD_destroy_response(r);
		return ret;
	}
	/* the site lives under the path of its base_url, as it will when
	 * deployed: "/" and "/blog" lead there, other paths are not the site's */
	char base[sizeof st.base];
	pthread_mutex_lock(&st.lock);
	memcpy(base, st.base, sizeof base);
	pthread_mutex_unlock(&st.lock);
	const char *full = url;
	size_t bl = strlen(base);
	if (bl > 1) {
		if (!strcmp(url, "/") || (strlen(url) == bl - 1 && !strncmp(url, base, bl - 1))) {
			struct MHD_Response *r = MHD_create_response_from_buffer(0, (void *)"", MHD_RESPMEM_PERSISTENT);
			MHD_add_response_header(r, "Location", base);
			enum MHD_Result ret = MHD_queue_response(c, MHD_HTTP_FOUND, r);
			MHD_destroy_response(r);
			return ret;
		}
		if (strncmp(url, base, bl) != 0)
			return send_not_found(c, st.root);
		url += bl - 1;
	}
	if (!strcmp(url, EVENTS_PATH)) {
		struct stream *s = calloc(1, sizeof *s);
		if (!s)
			return MHD_NO;
		pthread_mutex_lock(&st.lock);
		s->seen = st.seq;
		pthread_mutex_unlock(&st.lock);
		s->first = 1;
		struct MHD_Response *r = MHD_create_response_from_callback(
		    MHD_SIZE_UNKNOWN, 4096, stream_read, s, stream_free);
		MHD_add_response_header(r, "Content-Type", "text/event-stream; charset=utf-8");
		MHD_add_response_header(r, "Cache-Control", "no-cache");
		enum MHD_Result ret = MHD_queue_response(c, MHD_HTTP_OK, r);
		MHD_destroy_response(r);
		return ret;
	}
	pthread_mutex_lock(&st.lock);
	int built = st.built;
	pthread_mutex_unlock(&st.lock);
	if (!built)
		return send_no_build(c);
	char path[PATH_MAX];
	int rc = serve_resolve(st.root, url, path, sizeof path);
	switch (rc) {
	case 0: return send_file(c, path, MHD_HTTP_OK);
	case 301: {
		struct buf loc;
		buf_init(&loc);
		buf_printf(&loc, "%s/", full);
		struct MHD_Response *r =
		    MHD_create_response_from_buffer(0, (void *)"", MHD_RESPMEM_PERSISTENT);
		MHD_add_response_header(r, "Location", loc.p);
		enum MHD_Result ret = MHD_queue_response(c, MHD_HTTP_MOVED_PERMANENTLY, r);
		MHD_destroy_response(r);
		buf_fini(&loc);
		return ret;
	}
	case 400: return send_text(c, MHD_HTTP_BAD_REQUEST, "400 Bad Request\n");
	case 403: return send_text(c, MHD_HTTP_FORBIDDEN, "403 Forbidden\n");
	default: return send_not_found(c, st.root);
	}
}

/* The raw target reaches serve_resolve, which decodes it once itself. */
static size_t no_unescape(void *cls, struct MHD_Connection *c, char *uri)
{
	(void)cls;
	(void)c;
	return strlen(uri);
}

/* ---- the watcher ---- */

struct watches {
	int fd;
	char **paths; /* indexed by watch descriptor (owned) */
	int cap;
	const char *site;
};

#define WATCH_MASK                                                                                 \
	(IN_CREATE | IN_DELETE | IN_CLOSE_WRITE | IN_MODIFY | IN_MOVED_FROM | IN_MOVED_TO |        \
	 IN_ATTRIB | IN_DELETE_SELF | IN_ONLYDIR)

/* watch_tree: watches dir and every folder below it (not hidden ones, not
 * the site's public/ output). */
static void watch_tree_at(struct watches *w, const char *dir, int depth, const struct held *up);

static void watch_tree(struct watches *w, const char *dir)
{
	struct held *top = held_root(dir);
	if (top)
		watch_tree_at(w, dir, 0, top);
	held_free(top);
}

/* watch_tree_at: links to folders are followed (a site's content/ may be
 * one), but not to a folder that holds them, which the build does not
 * follow either (struct held), and a folder already watched under another
 * name (a link to it) is not walked again. */
static void watch_tree_at(struct watches *w, const char *dir, int depth, const struct held *up)
{
	if (depth > 64)
		return;
	int wd = inotify_add_watch(w->fd, dir, WATCH_MASK);
	if (wd < 0)
		return;
	if (wd < w->cap && w->paths[wd] && strcmp(w->paths[wd], dir) != 0)
		return;
	if (wd >= w->cap) {
		int nc = wd * 2 + 16;
		char **np = realloc(w->paths, (size_t)nc * sizeof *np);
		if (!np) {
			fputs("folio: out of memory\n", stderr);
			exit(1);
		}
		memset(np + w->cap, 0, (size_t)(nc - w->cap) * sizeof *np);
		w->paths = np;
		w->cap = nc;
	}
	free(w->paths[wd]);
	w->paths[wd] = strdup(dir);
	DIR *dp = opendir(dir);
	if (!dp)
		return;
	struct dirent *e;
	while ((e = readdir(dp))) {
		if (site_ignored(e->d_name))
			continue;
		char sub[PATH_MAX];
		if (snprintf(sub, sizeof sub, "%s/%s", dir, e->d_name) >= (int)sizeof sub)
			continue;
		if (!strcmp(dir, w->site) && !strcmp(e->d_name, "public"))
			continue;
		struct stat sb;
		if (stat(sub, &sb) == 0 && S_ISDIR(sb.st_mode) &&
		    !held_find(up, &sb, e->d_type == DT_LNK || e->d_type == DT_UNKNOWN)) {
			struct held here = {sb.st_dev, sb.st_ino, sub, up, 0};
			watch_tree_at(w, sub, depth + 1, &here);
		}
	}
	closedir(dp);
}

/* note_change: tells the session which file an event is about: a file
 * written (or put in place by a rename), by its site-relative path, else
 * (a file deleted or moved away, a folder, an event without a name)
 * that the change is not known file by file. */
static void note_change(struct build_session *sess, const struct watches *w, const char *dir,
			const struct inotify_event *ev)
{
	size_t sl = strlen(w->site);
	int named = ev->len && ev->name[0] && !(ev->mask & IN_ISDIR);
	int written = (ev->mask & (IN_CLOSE_WRITE | IN_MODIFY | IN_ATTRIB | IN_MOVED_TO | IN_CREATE)) &&
		      !(ev->mask & (IN_DELETE | IN_MOVED_FROM | IN_DELETE_SELF));
	if (!named || !written || strncmp(dir, w->site, sl) || (dir[sl] && dir[sl] != '/')) {
		build_session_changed(sess, NULL);
		return;
	}
	char rel[PATH_MAX];
	const char *sub = dir[sl] ? dir + sl + 1 : "";
	if (snprintf(rel, sizeof rel, "%s%s%s", sub, *sub ? "/" : "", ev->name) >= (int)sizeof rel)
		build_session_changed(sess, NULL);
	else
		build_session_changed(sess, rel);
}

/* drain: reads the pending inotify events: 0 if none matters, else
 * SETTLE_MS or DEBOUNCE_MS, by the last one that does; each one that
 * matters is noted in sess (note_change). */
static int drain(struct watches *w, struct build_session *sess)
{
	int last_done = 0;
	char bufr[16384] __attribute__((aligned(__alignof__(struct inotify_event))));
	int relevant = 0;
	for (;;) {
		ssize_t k = read(w->fd, bufr, sizeof bufr);
		if (k <= 0)
			break;
		for (char *p = bufr; p < bufr + k;) {
			struct inotify_event *ev = (struct inotify_event *)p;
			p += sizeof *ev + ev->len;
			if (ev->mask & IN_Q_OVERFLOW) {
				relevant = 1;
				build_session_changed(sess, NULL);
				continue;
			}
			if (ev->mask & IN_IGNORED) {
				if (ev->wd >= 0 && ev->wd < w->cap) {
					free(w->paths[ev->wd]);
					w->paths[ev->wd] = NULL;
				}
				continue;
			}
			const char *dir = ev->wd >= 0 && ev->wd < w->cap ? w->paths[ev->wd] : NULL;
			if (!dir)
				continue;
			if (ev->len == 0 || !ev->name[0]) {
				relevant = 1;
				build_session_changed(sess, NULL);
				continue;
			}
			if (site_ignored(ev->name))
				continue;
			if (!strcmp(dir, w->site) && !strcmp(ev->name, "public"))
				continue;
			relevant = 1;
			note_change(sess, w, dir, ev);
			last_done = (ev->mask & (IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE)) != 0;
			if ((ev->mask & IN_ISDIR) && (ev->mask & (IN_CREATE | IN_MOVED_TO))) {
				char sub[PATH_MAX];
				if (snprintf(sub, sizeof sub, "%s/%s", dir, ev->name) <
				    (int)sizeof sub)
					watch_tree(w, sub);
			}
		}
	}
	return !relevant ? 0 : last_done ? SETTLE_MS : DEBOUNCE_MS;
}

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1000 + (double)ts.tv_nsec / 1e6;
}

/* rebuild: one build of the session (what changed) into the server's
 * folder; then a `reload` event, or an `error` event with the diagnostics
 * (also printed on stderr). */
static void rebuild(struct build_session *sess, int first)
{
	struct buf cap;
	buf_init(&cap);
	struct diag d;
	diag_init(&d, stderr);
	d.capture = &cap;
	d.defer = 1;
	struct build_result res;
	int errors = build_session_run(sess, &d, &res);
	if (pool_cancelled()) { /* Ctrl-C: the build stopped where it was */
		diag_fini(&d);
		buf_fini(&cap);
		return;
	}
	diag_flush(&d);
	char *error = NULL;
	if (errors) {
		int n = d.errors ? d.errors : errors;
		int had = st.built;
		fprintf(stderr, "folio serve: %d error%s; %s\n", n, n == 1 ? "" : "s",
		        res.committed ? "the pages that could be built were written anyway"
		        : had         ? "still serving the last good build"
		                      : "no good build yet: every page shows the errors until they are fixed");
		buf_printf(&cap, "folio: %d error%s\n", n, n == 1 ? "" : "s");
		error = strdup(cap.p ? cap.p : "");
	}
	diag_fini(&d);
	buf_fini(&cap);
	pthread_mutex_lock(&st.lock);
	free(st.error);
	st.error = error;
	if (!errors || res.committed) {
		snprintf(st.base, sizeof st.base, "%s", build_session_base_path(sess));
		st.built = 1;
	}
	if (!first)
		st.seq++;
	pthread_cond_broadcast(&st.changed);
	pthread_mutex_unlock(&st.lock);
	if (errors)
		return;
	/* once the tab is told: what the build left for later (the search
	 * index of a patched build); the line comes after it, so that what
	 * it reports is all in place */
	struct diag late;
	diag_init(&late, stderr);
	double t0 = now_ms();
	int done;
	int failed = build_session_finish(sess, &late, &done);
	double t_late = now_ms() - t0;
	diag_fini(&late);
	char after[64] = "";
	if (done)
		snprintf(after, sizeof after, "; the search index in %.0f ms after it", t_late);
	fprintf(stderr,
	        "folio serve: %s in %.0f ms: %zu of %zu page%s rendered (%zu post%s), %zu file%s "
	        "written, %zu removed%s\n",
	        first ? "built" : "rebuilt", res.seconds * 1000, res.rendered, res.pages, res.pages == 1 ? "" : "s",
	        res.posts, res.posts == 1 ? "" : "s", res.written, res.written == 1 ? "" : "s", res.removed, after);
	if (failed)
		fprintf(stderr, "folio serve: the search index could not be written; the next change builds it again\n");
}

/* take_port: a socket listening on sa; -1 with errno set. */
static int take_port(struct sockaddr *sa, socklen_t len)
{
	int fd = socket(sa->sa_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	int one = 1;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
	if (bind(fd, sa, len) != 0 || listen(fd, 128) != 0) {
		int e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

/* set_port, get_port: the port of an IPv4 or IPv6 address. */
static void set_port(struct sockaddr *sa, int port)
{
	if (sa->sa_family == AF_INET)
		((struct sockaddr_in *)(void *)sa)->sin_port = htons((uint16_t)port);
	else
		((struct sockaddr_in6 *)(void *)sa)->sin6_port = htons((uint16_t)port);
}

static int get_port(int fd)
{
	struct sockaddr_storage ss;
	socklen_t n = sizeof ss;
	if (getsockname(fd, (struct sockaddr *)&ss, &n) != 0)
		return -1;
	return ss.ss_family == AF_INET ? ntohs(((struct sockaddr_in *)(void *)&ss)->sin_port)
				       : ntohs(((struct sockaddr_in6 *)(void *)&ss)->sin6_port);
}

/* listen_port: the listening socket of o, taken before the first build so
 * that a port in use is said at once; *port gets the port taken. The
 * default port, when in use, gives way to the next free one of nine. */
static int listen_port(const struct serve_options *o, struct sockaddr *sa, socklen_t len, const char *bind, int *port)
{
	int tries = o->port_given ? 1 : 10;
	for (int i = 0; i < tries; i++) {
		set_port(sa, o->port + i);
		int fd = take_port(sa, len);
		if (fd >= 0) {
			*port = get_port(fd);
			if (i)
				fprintf(stderr, "folio serve: port %d is in use; took %d\n", o->port, *port);
			return fd;
		}
		if (errno != EADDRINUSE)
			break;
	}
	if (errno == EADDRINUSE)
		fprintf(stderr, "folio serve: cannot listen on %s port %d: it is in use%s (hint: --port N, or --port 0 for "
			"a free one)\n", bind, o->port, tries > 1 ? ", and so are the next nine" : "");
	else
		fprintf(stderr, "folio serve: cannot listen on %s port %d: %s\n", bind, o->port, strerror(errno));
	return -1;
}

/* The address serve listens on: --bind's, IPv4 or IPv6, and the daemon's
 * flags for it. */
struct listen_addr {
	struct sockaddr_in a4;
	struct sockaddr_in6 a6;
	struct sockaddr *sa;
	socklen_t len;
	unsigned flags;
};

/* parse_bind: bind (a numeric address) and port into la; 0, or 2 after
 * saying why not (a usage error). */
static int parse_bind(const char *bind, int port, struct listen_addr *la)
{
	memset(la, 0, sizeof *la);
	la->flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION | MHD_USE_POLL;
	if (inet_pton(AF_INET, bind, &la->a4.sin_addr) == 1) {
		la->a4.sin_family = AF_INET;
		la->a4.sin_port = htons((uint16_t)port);
		la->sa = (struct sockaddr *)&la->a4;
		la->len = sizeof la->a4;
	} else if (inet_pton(AF_INET6, bind, &la->a6.sin6_addr) == 1) {
		la->a6.sin6_family = AF_INET6;
		la->a6.sin6_port = htons((uint16_t)port);
		la->sa = (struct sockaddr *)&la->a6;
		la->len = sizeof la->a6;
		la->flags |= MHD_USE_IPv6;
	} else {
		fprintf(stderr, "folio serve: --bind needs a numeric IP address, not '%s'\n", bind);
		return 2;
	}
	return 0;
}

/* make_root: the output, a private temporary folder, never the site's
 * public/: base (n bytes) is made, and st.root is base/site, which the
 * build makes (live_open takes a new or empty folder, and later only its
 * own). 0, or -1 after saying why. */
static int make_root(char *base, size_t n)
{
	int rc = live_folder_new(base, n, st.root, sizeof st.root);
	if (rc == -1)
		fprintf(stderr, "folio serve: cannot make a temporary folder: %s\n", strerror(errno));
	else if (rc)
		fprintf(stderr, "folio serve: %s: path too long\n", base);
	return rc ? -1 : 0;
}

/* take_signals: SIGINT and SIGTERM, to arrive on the descriptor returned
 * (-1 with errno set); every thread started after (libmicrohttpd's)
 * inherits the mask, SIGPIPE blocked too. */
static int take_signals(void)
{
	sigset_t sigs;
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	sigaddset(&sigs, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &sigs, NULL);
	sigdelset(&sigs, SIGPIPE);
	return signalfd(-1, &sigs, SFD_CLOEXEC | SFD_NONBLOCK);
}

/* The signals' watcher: a thread of its own that waits for SIGINT or
 * SIGTERM on the signalfd, so that one arriving while a build runs stops
 * that build (pool_cancel: it ends within a document or a page, writing
 * nothing) instead of waiting for its end; then it wakes serve_loop
 * through the pipe. */
struct signal_watch {
	int sfd;    /* the signals */
	int wake[2]; /* a byte written to wake[1] when one came */
};

static void *watch_signals(void *arg)
{
	struct signal_watch *sw = arg;
	for (;;) {
		struct pollfd p = {.fd = sw->sfd, .events = POLLIN};
		if (poll(&p, 1, -1) < 0 && errno != EINTR)
			break;
		struct signalfd_siginfo si;
		if (read(sw->sfd, &si, sizeof si) > 0)
			break;
	}
	pool_cancel();
	char c = 1;
	ssize_t k = write(sw->wake[1], &c, 1);
	(void)k; /* a pipe of one byte: it cannot be full */
	return NULL;
}

/* serve_loop: until a signal (a byte on wake): each burst of changes the
 * watcher tells is one rebuild, once it has settled (drain) */
static void serve_loop(int wake, struct watches *w, struct build_session *sess)
{
	double due = -1;
	for (;;) {
		struct pollfd p[2] = {{.fd = wake, .events = POLLIN}, {.fd = w->fd, .events = POLLIN}};
		int timeout = -1;
		if (due >= 0) {
			double left = due - now_ms();
			timeout = left > 0 ? (int)left + 1 : 0;
		}
		int k = poll(p, 2, timeout);
		if (k < 0 && errno != EINTR)
			break;
		if ((p[0].revents & POLLIN) || pool_cancelled())
			break;
		int wait = (p[1].revents & POLLIN) ? drain(w, sess) : 0;
		if (wait)
			due = now_ms() + wait; /* a burst pushes the build back */
		if (due >= 0 && now_ms() >= due) {
			due = -1;
			rebuild(sess, 0);
			if (pool_cancelled())
				break;
		}
	}
}

/* serve_daemon: the HTTP server on the socket lfd (taken) serves until a
 * signal; 0, or 1 when it cannot start. */
static int serve_daemon(const struct serve_options *o, const struct listen_addr *la, const char *bind, int port,
			int lfd, int wake, struct watches *w, struct build_session *sess)
{
	struct MHD_Daemon *daemon =
	    MHD_start_daemon(la->flags, (uint16_t)port, NULL, NULL, on_request, NULL, MHD_OPTION_LISTEN_SOCKET, lfd,
			     MHD_OPTION_UNESCAPE_CALLBACK, no_unescape, NULL, MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)120,
			     MHD_OPTION_END);
	if (!daemon) {
		fprintf(stderr, "folio serve: cannot serve on %s port %d\n", bind, port);
		close(lfd);
		return 1;
	}
	int loopback = !strcmp(bind, "127.0.0.1") || !strcmp(bind, "::1") || !strncmp(bind, "127.", 4);
	if (!loopback)
		fprintf(stderr,
			"folio serve: warning: listening on %s: other machines can read "
			"this site, drafts "
			"included\n",
			bind);
	fprintf(stderr, "folio serve: serving %s on http://%s%s%s:%d%s (Ctrl-C stops)\n", o->site_dir,
		strchr(bind, ':') ? "[" : "", bind, strchr(bind, ':') ? "]" : "", port, st.base[0] ? st.base : "/");
	serve_loop(wake, w, sess);
	fprintf(stderr, "folio serve: stopping\n");
	pthread_mutex_lock(&st.lock);
	st.stopping = 1;
	pthread_cond_broadcast(&st.changed);
	pthread_mutex_unlock(&st.lock);
	MHD_stop_daemon(daemon);
	return 0;
}

int serve_run(const struct serve_options *o)
{
	const char *bind = o->bind ? o->bind : "127.0.0.1";
	struct listen_addr la;
	if (parse_bind(bind, o->port, &la))
		return 2;
	struct stat sb;
	char site_real[PATH_MAX];
	if (!realpath(o->site_dir, site_real) || stat(site_real, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
		fprintf(stderr, "folio serve: %s: not a folder\n", o->site_dir);
		return 1;
	}
	int port = o->port;
	int lfd = listen_port(o, la.sa, la.len, bind, &port);
	if (lfd < 0)
		return 1;
	/* every rebuild allocates about what the last one did: keep freed
	 * memory in the process instead of handing it back and taking it
	 * again page by page (zeroed pages were a tenth of a rebuild) */
	mallopt(M_TRIM_THRESHOLD, 1 << 30);
	mallopt(M_MMAP_THRESHOLD, 32 << 20); /* the largest glibc takes */
	char base[PATH_MAX];
	if (make_root(base, sizeof base)) {
		close(lfd);
		return 1;
	}
	const char *out_dir = st.root;
	st.bind = bind;
	st.port = port;
	/* the watcher reads the signals (every thread started after
	 * take_signals blocks them) */
	static struct signal_watch sw;
	sw.sfd = take_signals();
	struct watches w = {.fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC), .site = site_real};
	if (sw.sfd < 0 || w.fd < 0 || pipe2(sw.wake, O_CLOEXEC) != 0 || !pool_detach(watch_signals, &sw)) {
		fprintf(stderr, "folio serve: %s\n", strerror(errno));
		live_folder_remove(base, out_dir);
		close(lfd);
		return 1;
	}
	watch_tree(&w, site_real);

	struct build_request req;
	memset(&req, 0, sizeof req);
	req.site_dir = site_real;
	req.out_dir = out_dir;
	req.drafts = o->drafts;
	req.future = o->future;
	req.keep_going = 1; /* the pages are shown even with errors; the overlay shows these */
	struct build_session *sess = build_session_new(&req);
	rebuild(sess, 1);
	int rc = 0;
	if (pool_cancelled()) { /* Ctrl-C during the first build */
		fprintf(stderr, "folio serve: stopping\n");
		close(lfd);
	} else {
		live_folder_ensure(out_dir); /* the first build failed: serve an empty site */
		rc = serve_daemon(o, &la, bind, port, lfd, sw.wake[0], &w, sess);
	}
	build_session_free(sess);
	close(w.fd);
	for (int i = 0; i < w.cap; i++)
		free(w.paths[i]);
	free(w.paths);
	free(st.error);
	st.error = NULL;
	live_folder_remove(base, out_dir);
	return rc;
}
