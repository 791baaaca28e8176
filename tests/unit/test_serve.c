/* test_serve.c: serve_resolve (the request-path sanitizer), serve_host_ok
 * and serve_inject. */
#include "harness.h"

#include "base/buf.h"
#include "serve/serve.h"

#include <limits.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <unistd.h>

/* Request targets that must never reach a file: each with the status it
 * gets (400 malformed or hostile, 404 nothing there or a link out). */
static const struct {
	const char *url;
	int want;
} hostile[] = {
    {"/../etc/passwd", 400},
    {"/..", 400},
    {"/../", 400},
    {"/posts/../../etc/passwd", 400},
    {"/posts/..", 400},
    {"/./index.html", 400},
    {"/posts/./a/", 400},
    {"/%2e%2e/etc/passwd", 400},
    {"/%2E%2E/etc/passwd", 400},
    {"/%2e./etc/passwd", 400},
    {"/.%2e/etc/passwd", 400},
    {"/%2e", 400},
    {"/posts/%2e%2e/%2e%2e/etc/passwd", 400},
    {"/..%2fetc%2fpasswd", 400},
    {"/%2fetc/passwd", 400},
    {"/posts%2f..%2f..%2fetc", 400},
    {"/..%5c..%5cetc%5cpasswd", 400},
    {"/%5cetc", 400},
    {"/..\\..\\etc\\passwd", 400},
    {"/\\etc\\passwd", 400},
    {"/index.html\\", 400},
    {"/%252e%252e/etc/passwd", 400},
    {"/%252fetc", 400},
    {"/%25", 400},
    {"/%", 400},
    {"/%2", 400},
    {"/%zz", 400},
    {"/%g0", 400},
    {"/index.html%00", 400},
    {"/index.html%00.png", 400},
    {"/%00", 400},
    {"/a%0d%0aSet-Cookie:x", 400},
    {"/a%0a", 400},
    {"/a\t", 400},
    {"/a%7f", 400},
    {"//etc/passwd", 400},
    {"/posts//a/", 400},
    {"", 400},
    {"*", 400},
    {"etc/passwd", 400},
    {"../etc/passwd", 400},
    {"http://evil.example/index.html", 400},
    {"https://127.0.0.1/index.html", 400},
    {"/etc/passwd", 404},
    {"/out", 404},
    {"/out/passwd", 404},
    {"/outfile", 404},
    {"/outdir/", 404},
    {"/.folio-output", 404},
    {"/.hidden", 404},
    {"/posts/.secret", 404},
    {"/%2efolio-output", 404},
    {"/nosuch.html", 404},
    {"/noindex/", 404},
    {"/fifo", 404},
    {"/index.html/", 404},
};

void test_serve(void)
{
	t_current = "serve";
	char *root = t_tmpdir();
	char *outside = t_tmpdir();
	t_write(root, "index.html", "<p>home</p>");
	t_write(root, "posts/a/index.html", "<p>a</p>");
	t_write(root, "posts/.secret", "s");
	t_write(root, "style.css", "p{}");
	t_write(root, ".folio-output", "");
	t_write(root, ".hidden", "h");
	t_write(root, "noindex/x.txt", "x");
	t_write(root, "a b.txt", "space");
	t_write(outside, "passwd", "root:x:0:0");
	t_write(outside, "d/index.html", "out");
	char p[PATH_MAX], q[PATH_MAX];
	snprintf(p, sizeof p, "%s/out", root);
	OK(symlink(outside, p) == 0);
	snprintf(p, sizeof p, "%s/outfile", root);
	snprintf(q, sizeof q, "%s/passwd", outside);
	OK(symlink(q, p) == 0);
	snprintf(p, sizeof p, "%s/outdir", root);
	snprintf(q, sizeof q, "%s/d", outside);
	OK(symlink(q, p) == 0);
	snprintf(p, sizeof p, "%s/inside.css", root);
	OK(symlink("style.css", p) == 0);
	snprintf(p, sizeof p, "%s/fifo", root);
	OK(mkfifo(p, 0600) == 0);

	char out[PATH_MAX], real_root[PATH_MAX], want[PATH_MAX * 2];
	OK(realpath(root, real_root) != NULL);
	for (size_t i = 0; i < sizeof hostile / sizeof hostile[0]; i++) {
		int got = serve_resolve(root, hostile[i].url, out, sizeof out);
		if (got != hostile[i].want)
			t_fail(__FILE__, __LINE__, "serve_resolve(\"%s\"): got %d, want %d",
			       hostile[i].url, got, hostile[i].want);
		else
			t_passed++;
		STR_EQ(out, "");
	}

	/* what is served */
	INT_EQ(serve_resolve(root, "/", out, sizeof out), 0);
	snprintf(want, sizeof want, "%s/index.html", real_root);
	STR_EQ(out, want);
	INT_EQ(serve_resolve(root, "/index.html", out, sizeof out), 0);
	STR_EQ(out, want);
	INT_EQ(serve_resolve(root, "/posts/a/", out, sizeof out), 0);
	snprintf(want, sizeof want, "%s/posts/a/index.html", real_root);
	STR_EQ(out, want);
	INT_EQ(serve_resolve(root, "/posts/a", out, sizeof out), 301);
	INT_EQ(serve_resolve(root, "/posts/a/?x=1", out, sizeof out), 0);
	STR_EQ(out, want);
	INT_EQ(serve_resolve(root, "/style.css#top", out, sizeof out), 0);
	INT_EQ(serve_resolve(root, "/%73tyle.css", out, sizeof out), 0);
	snprintf(want, sizeof want, "%s/style.css", real_root);
	STR_EQ(out, want);
	INT_EQ(serve_resolve(root, "/inside.css", out, sizeof out), 0);
	STR_EQ(out, want); /* a link inside the root is followed */
	INT_EQ(serve_resolve(root, "/a%20b.txt", out, sizeof out), 0);
	INT_EQ(serve_resolve(root, "/index.html", out, 4), 404); /* no room */

	/* Host headers */
	OK(serve_host_ok("localhost", "127.0.0.1", 8080));
	OK(serve_host_ok("localhost:8080", "127.0.0.1", 8080));
	OK(serve_host_ok("LOCALHOST:8080", "127.0.0.1", 8080));
	OK(serve_host_ok("127.0.0.1:8080", "127.0.0.1", 8080));
	OK(serve_host_ok("[::1]:8080", "127.0.0.1", 8080));
	OK(serve_host_ok("192.168.1.5:8080", "192.168.1.5", 8080));
	OK(serve_host_ok("[fe80::1]:8080", "fe80::1", 8080));
	OK(serve_host_ok("10.0.0.7:8080", "0.0.0.0", 8080));
	OK(!serve_host_ok("evil.example:8080", "0.0.0.0", 8080));
	/* a name after the longest IPv6 literal and port was cut off and the
	 * rest accepted (the serve fuzz target's Host check; its input is in
	 * tests/fuzz/regressions/serve/) */
	OK(serve_host_ok("[ffff:ffff:ffff:ffff:ffff:ffff:255.255.255.255]:65535", "::", 65535));
	OK(!serve_host_ok("[ffff:ffff:ffff:ffff:ffff:ffff:255.255.255.255]:65535.evil.example", "::", 65535));
	OK(!serve_host_ok("[ffff:ffff:ffff:ffff:ffff:ffff:255.255.255.255]:65535.evil.example", "0.0.0.0", 65535));
	OK(!serve_host_ok("10.0.0.7:9", "0.0.0.0", 8080));
	OK(!serve_host_ok(NULL, "127.0.0.1", 8080));
	OK(!serve_host_ok("", "127.0.0.1", 8080));
	OK(!serve_host_ok("evil.example", "127.0.0.1", 8080));
	OK(!serve_host_ok("evil.example:8080", "127.0.0.1", 8080));
	OK(!serve_host_ok("localhost:8081", "127.0.0.1", 8080));
	OK(!serve_host_ok("localhost.evil.example", "127.0.0.1", 8080));
	OK(!serve_host_ok("127.0.0.1.nip.io:8080", "127.0.0.1", 8080));
	OK(!serve_host_ok("localhost:8080x", "127.0.0.1", 8080));
	OK(!serve_host_ok("192.168.1.5:8080", "127.0.0.1", 8080));

	/* the reload script goes before the last </body> */
	struct buf b;
	buf_init(&b);
	const char *page = "<html><body><p>x</p></BODY></html>";
	serve_inject(&b, page, strlen(page), "/");
	buf_putc(&b, '\0');
	OK(strstr(b.p, "EventSource('/__folio/events')") != NULL);
	OK(strstr(b.p, "<p>x</p><script>") != NULL);
	OK(strstr(b.p, "</script>\n</BODY></html>") != NULL);
	buf_reset(&b);
	serve_inject(&b, "<p>no body</p>", 14, "/");
	buf_putc(&b, '\0');
	OK(!strncmp(b.p, "<p>no body</p><script>", 22));
	buf_fini(&b);

	t_rmtree(root);
	t_rmtree(outside);
	free(root);
	free(outside);
}
