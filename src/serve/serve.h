/* serve.h: `folio serve`: builds the site into a private folder, serves it
 * over HTTP on the loopback address, rebuilds when a file changes and tells
 * open tabs to reload (Server-Sent Events).
 *
 * Folder serve/: folio serve: HTTP (libmicrohttpd), inotify, a session's
 * builds, the reload events.
 * uses: base, files, output, pipeline.
 */
#ifndef FOLIO_SERVE_H
#define FOLIO_SERVE_H

#include <stddef.h>

struct serve_options {
	const char *site_dir;
	const char *bind; /* numeric address; NULL: 127.0.0.1 */
	int port;         /* 0..65535; 0: a free port, told on stderr */
	int port_given;   /* else 8080, or the next free one of 8081..8089 */
	int drafts, future;
};

/* serve_run: takes the port (before building: a port in use is said at
 * once), builds, serves and watches until SIGINT or SIGTERM. Until a build
 * succeeds, every path is answered with the errors, shown as the overlay
 * of the reload script, and the tab reloads once the site builds. Returns
 * the exit status: 0 after a signal, 1 when the server cannot start. */
int serve_run(const struct serve_options *o);

/* serve_resolve: maps the request target url (the raw path, still
 * percent-encoded, without the query) to a regular file below root.
 * Refuses what could lead out of root: anything not starting with '/',
 * '.' and '..' segments, empty segments, backslashes, control bytes, and
 * encoded '/', '\', '%' (double encoding) or NUL; symbolic links that
 * resolve outside root (realpath and a prefix check). Hidden files (a
 * segment starting with '.') are not served.
 * Returns 0 with the file's real path in out (n bytes), 301 when url names
 * a folder without its final '/' (out is then empty), 400 for a malformed
 * or hostile target, 404 when there is no such file or it is behind a
 * link out of root (whose target is not told), 403 when it cannot be
 * looked at (a folder folio may not read). */
int serve_resolve(const char *root, const char *url, char *out, size_t n);

/* serve_host_ok: whether a Host header is one folio serve answers:
 * localhost, 127.0.0.1, [::1] or the bound address, each with no port or
 * with the server's port (protection against DNS rebinding). When bound to
 * a wildcard address (0.0.0.0, ::) any IP literal is accepted, never a
 * name. NULL host: no. */
int serve_host_ok(const char *host, const char *bind, int port);

/* serve_inject: the script that folio serve adds to HTML pages before the
 * last </body> (or at the end). Appends the page with the script to out
 * (a struct buf). base is the path the site is served under ("/",
 * "/blog/"), for the script's own URL. */
struct buf;
void serve_inject(struct buf *out, const char *html, size_t len, const char *base);

#endif
