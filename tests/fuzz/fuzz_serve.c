/* fuzz_serve.c: libFuzzer target for what `folio serve` does with a
 * request before any file is read: serve_resolve (the request target to a
 * file of the built site), serve_host_ok (the Host header) and
 * serve_inject (the reload script added to HTML pages).
 *
 * An input is three lines: the request target (raw, as libmicrohttpd
 * hands it over), the Host header, and the rest, an HTML page:
 *
 *   /posts/a/?x=1
 *   localhost:8080
 *   <html><body>page</body></html>
 *
 * The site served is a scratch folder like a built site, with hidden
 * files, a folder without index.html, a FIFO, and links to files and
 * folders inside and outside it. Besides crashes, the target checks what
 * serve.h promises: only regular files inside the root, never a hidden
 * one, never through a link out; Host headers only in the forms
 * serve_host_ok documents. */
#include "fuzz.h"

#include "base/arena.h"
#include "base/buf.h"
#include "serve/serve.h"

#include <arpa/inet.h>
#include <limits.h>
#include <strings.h>

static char root[PATH_MAX], real_root[PATH_MAX], outside[PATH_MAX];

static void link_to(const char *target, const char *dir, const char *name)
{
	char p[PATH_MAX + 64];
	snprintf(p, sizeof p, "%s/%s", dir, name);
	if (symlink(target, p) != 0)
		fuzz_die(p);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	const char *top = fuzz_tmpdir();
	snprintf(root, sizeof root, "%s/site", top);
	snprintf(outside, sizeof outside, "%s/outside", top);
	fuzz_mkdirs(top, "site/posts/a");
	fuzz_mkdirs(top, "site/noindex");
	fuzz_mkdirs(top, "site/.hidden-dir");
	fuzz_mkdirs(top, "outside/d");
	fuzz_write(top, "site/index.html", "<p>home</p>", 11);
	fuzz_write(top, "site/404.html", "<p>404</p>", 10);
	fuzz_write(top, "site/posts/a/index.html", "<p>a</p>", 8);
	fuzz_write(top, "site/posts/.secret", "s", 1);
	fuzz_write(top, "site/style.css", "p{}", 3);
	fuzz_write(top, "site/.folio-output", "", 0);
	fuzz_write(top, "site/.hidden-dir/index.html", "h", 1);
	fuzz_write(top, "site/a b.txt", "space", 5);
	fuzz_write(top, "site/caf\xc3\xa9.html", "utf-8", 5);
	fuzz_write(top, "site/noindex/x.txt", "x", 1);
	fuzz_write(top, "outside/passwd", "root:x:0:0", 10);
	fuzz_write(top, "outside/d/index.html", "out", 3);
	char q[PATH_MAX + 64];
	link_to(outside, root, "out");
	snprintf(q, sizeof q, "%s/passwd", outside);
	link_to(q, root, "outfile");
	snprintf(q, sizeof q, "%s/d", outside);
	link_to(q, root, "outdir");
	link_to("style.css", root, "inside.css");
	link_to("posts", root, "posts-link");
	link_to("../site/posts/a", root, "updown");
	link_to("nowhere", root, "dangling");
	snprintf(q, sizeof q, "%s/fifo", root);
	if (mkfifo(q, 0600) != 0)
		fuzz_die(q);
	if (!realpath(root, real_root))
		fuzz_die(root);
	return 0;
}

/* check_resolved: what serve_resolve returned 0 for must be a regular,
 * visible file inside the root. */
static void check_resolved(const char *url, const char *out)
{
	size_t rl = strlen(real_root);
	struct stat st;
	if (strncmp(out, real_root, rl) || out[rl] != '/' || stat(out, &st) != 0 || !S_ISREG(st.st_mode)) {
		fprintf(stderr, "serve_resolve(\"%s\") gave '%s', not a file of the site\n", url, out);
		abort();
	}
	if (strstr(out + rl, "/.")) {
		fprintf(stderr, "serve_resolve(\"%s\") gave '%s', a hidden file\n", url, out);
		abort();
	}
}

/* port_is: whether s[0..n) is the decimal port. */
static int port_is(const char *s, size_t n, int port)
{
	char want[16];
	int wl = snprintf(want, sizeof want, "%d", port);
	return n == (size_t)wl && !memcmp(s, want, n);
}

/* host_allowed: serve_host_ok as serve.h describes it, written apart to
 * compare with: NAME or NAME:PORT, NAME one of localhost, 127.0.0.1,
 * [::1], the bound address ([...] for IPv6) or, bound to a wildcard, any
 * IPv4 or [IPv6] literal. */
static int host_allowed(const char *host, const char *bind, int port)
{
	if (!host || !*host)
		return 0;
	size_t hl = strlen(host), name_len = hl;
	/* the port: after the last ':' that is not inside [...] */
	const char *colon = NULL;
	if (host[0] == '[') {
		const char *e = strchr(host, ']');
		if (!e)
			return 0;
		if (e[1] == ':')
			colon = e + 1;
		else if (e[1] != '\0')
			return 0;
	} else {
		colon = strchr(host, ':');
	}
	if (colon) {
		name_len = (size_t)(colon - host);
		if (!port_is(colon + 1, hl - name_len - 1, port))
			return 0;
	}
	char name[256];
	if (name_len >= sizeof name)
		return 0;
	memcpy(name, host, name_len);
	name[name_len] = '\0';
	if (!strcasecmp(name, "localhost") || !strcmp(name, "127.0.0.1") || !strcmp(name, "[::1]"))
		return 1;
	char b[256];
	snprintf(b, sizeof b, strchr(bind, ':') ? "[%s]" : "%s", bind);
	if (!strcasecmp(name, b))
		return 1;
	if (strcmp(bind, "0.0.0.0") && strcmp(bind, "::"))
		return 0;
	unsigned char addr[16];
	if (name[0] == '[') {
		name[name_len - 1] = '\0';
		return inet_pton(AF_INET6, name + 1, addr) == 1;
	}
	return inet_pton(AF_INET, name, addr) == 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* the URL and the Host header are C strings from libmicrohttpd */
	const char *text = (const char *)data;
	const char *nl1 = memchr(text, '\n', size);
	size_t ul = nl1 ? (size_t)(nl1 - text) : size;
	const char *rest = nl1 ? nl1 + 1 : text + size;
	size_t rl = size - (size_t)(rest - text);
	const char *nl2 = memchr(rest, '\n', rl);
	size_t hl = nl2 ? (size_t)(nl2 - rest) : rl;
	const char *html = nl2 ? nl2 + 1 : rest + rl;
	size_t html_len = size - (size_t)(html - text);

	char *url = xstrndup(text, ul);
	char *host = xstrndup(rest, hl);

	char out[PATH_MAX];
	int rc = serve_resolve(root, url, out, sizeof out);
	if (rc == 0)
		check_resolved(url, out);
	else if (rc != 301 && rc != 400 && rc != 403 && rc != 404)
		abort();
	else if (out[0])
		abort(); /* out is empty unless a file was found */
	/* too small an out is "no such file", never a cut path */
	char small[16];
	rc = serve_resolve(root, url, small, sizeof small);
	if (rc == 0)
		abort();

	static const char *const binds[] = {"127.0.0.1", "0.0.0.0", "::", "fe80::1", "192.168.1.5"};
	static const int ports[] = {8080, 1, 65535};
	for (size_t b = 0; b < sizeof binds / sizeof *binds; b++) {
		for (size_t p = 0; p < sizeof ports / sizeof *ports; p++) {
			int got = serve_host_ok(host, binds[b], ports[p]);
			if (got != host_allowed(host, binds[b], ports[p])) {
				fprintf(stderr, "serve_host_ok(\"%s\", \"%s\", %d) = %d\n", host, binds[b], ports[p],
					got);
				abort();
			}
		}
	}

	struct buf page;
	buf_init(&page);
	char *h = malloc(html_len ? html_len : 1);
	memcpy(h, html, html_len);
	/* at the root and under a base path: the script is added, with the
	 * events URL under that path */
	serve_inject(&page, h, html_len, html_len & 1 ? "/blog/" : "/");
	if (page.len <= html_len)
		abort(); /* the script is added */
	if ((html_len & 1) && !memmem(page.p, page.len, "/blog/__folio/events", 20))
		abort();
	buf_fini(&page);
	free(h);
	free(url);
	free(host);
	return 0;
}
