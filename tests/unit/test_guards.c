/* test_guards.c: property tests of the guards that keep a user safe, each
 * checked on thousands of random inputs against a small reference model
 * of its rule, written here from the rule's words, not from its code:
 *
 *  - serve_resolve (folio serve's request paths): a random target over a
 *    tree of files, folders, hidden names and links (inside the site, to
 *    a sibling folder whose name begins with the site's, out of it) gets
 *    the status the model gives it, and a served file is the model's,
 *    inside the site;
 *  - site_where (the symlink rule: every file folio reads is inside the
 *    site, after links): random paths through files, folders and links
 *    inside, out (to a sibling folder whose name begins with the site's,
 *    to the folder above), to nothing and round a circle;
 *  - serve_host_ok (the Host check against DNS rebinding): random hosts,
 *    ports and bound addresses;
 *  - buf_put_html and buf_put_json (the escapers every page goes through):
 *    random bytes come out with nothing that ends an attribute, a text or
 *    a string, and decode back to themselves;
 *  - the urlencode filter: random bytes come out as unreserved bytes and
 *    %XX, and decode back;
 *  - output_foreign (output ownership: a build replaces an output folder
 *    only when it holds nothing but what folio wrote there): random
 *    trees of files, folders and links against random manifests, each
 *    foreign name the model's.
 * A failure prints its input; the generator's seed is fixed, so a failure
 * comes again. */
#include "harness.h"

#include "base/arena.h"
#include "base/buf.h"
#include "base/diag.h"
#include "files/sitefile.h"
#include "output/internal.h"
#include "serve/serve.h"
#include "tmpl/tmpl.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <dirent.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

static uint64_t rng = 0x243f6a8885a308d3u;

static unsigned pick(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % n);
}

/* ---- serve_resolve ---- */

/* The tree: the site's paths and what each is. A link names the path it
 * stands for (inside the site) or "out" (outside it: the sibling folder
 * site-private, or /etc). */
enum kind { NONE, FILE_, DIR_, DIR_INDEX };
static const struct node {
	const char *path; /* from the site's root, no leading '/' */
	enum kind kind;
	const char *link; /* a link: to this path of the site, or "out" */
} tree[] = {
    {"index.html", FILE_, NULL},
    {"a.txt", FILE_, NULL},
    {"b c.txt", FILE_, NULL},
    {"posts", DIR_, NULL},
    {"posts/x", DIR_INDEX, NULL},
    {"posts/x/index.html", FILE_, NULL},
    {"posts/y", DIR_, NULL},
    {"posts/y/z.css", FILE_, NULL},
    {".hidden", DIR_INDEX, NULL},
    {".hidden/index.html", FILE_, NULL},
    {"in.txt", FILE_, "a.txt"},
    {"indir", DIR_INDEX, "posts/x"},
    {"sib.txt", FILE_, "out"},
    {"sibdir", DIR_INDEX, "out"},
    {"etc", DIR_, "out"},
};

static const struct node *node_at(const char *path)
{
	for (size_t i = 0; i < sizeof tree / sizeof *tree; i++)
		if (!strcmp(tree[i].path, path))
			return &tree[i];
	return NULL;
}

/* the model's path through links: a link's target for the link's part */
static int model_real(const char *path, char *out, size_t n, int *outside)
{
	*outside = 0;
	/* the longest prefix that is a link */
	char pre[256];
	for (size_t i = strlen(path);; i--) {
		if (i == strlen(path) || path[i] == '/') {
			snprintf(pre, sizeof pre, "%.*s", (int)i, path);
			const struct node *nd = node_at(pre);
			if (nd && nd->link) {
				if (!strcmp(nd->link, "out")) {
					*outside = 1;
					return 0;
				}
				snprintf(out, n, "%s%s", nd->link, path + i);
				return 1;
			}
		}
		if (i == 0)
			break;
	}
	snprintf(out, n, "%s", path);
	return 1;
}

static int hexv(int c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* model_resolve: the status folio serve's rule gives url (serve.h's
 * words), and the site path of the file served */
static int model_resolve(const char *url, char *served, size_t n)
{
	served[0] = '\0';
	if (url[0] != '/')
		return 400;
	char path[512];
	size_t len = 0;
	for (const char *p = url; *p && *p != '?' && *p != '#'; p++) {
		int c = (unsigned char)*p;
		if (c == '\\')
			return 400;
		if (c == '%') {
			int h = hexv((unsigned char)p[1]), l = h < 0 ? -1 : hexv((unsigned char)p[2]);
			if (h < 0 || l < 0)
				return 400;
			c = h * 16 + l;
			p += 2;
			if (c == '/' || c == '\\' || c == '%' || c == 0)
				return 400;
		}
		if (c < 0x20 || c == 0x7f)
			return 400;
		path[len++] = (char)c;
	}
	path[len] = '\0';
	/* segments */
	int hidden = 0;
	for (char *s = path + 1;;) {
		char *e = strchr(s, '/');
		size_t sl = e ? (size_t)(e - s) : strlen(s);
		if (sl == 0 && e)
			return 400;
		if ((sl == 1 && s[0] == '.') || (sl == 2 && s[0] == '.' && s[1] == '.'))
			return 400;
		if (sl && s[0] == '.')
			hidden = 1;
		if (!e)
			break;
		s = e + 1;
	}
	if (hidden)
		return 404;
	int slash = len > 1 && path[len - 1] == '/';
	char rel[512];
	snprintf(rel, sizeof rel, "%.*s", (int)(len - 1 - (size_t)slash), path + 1);
	if (!rel[0]) /* the root */
		return slash || len == 1 ? (snprintf(served, n, "index.html"), 0) : 301;
	char real[512];
	int outside;
	model_real(rel, real, sizeof real, &outside);
	if (outside)
		return 404;
	const struct node *nd = node_at(real);
	if (!nd)
		return 404;
	if (nd->kind == FILE_) /* "/a.txt/" names no folder: nothing */
		return slash ? 404 : (snprintf(served, n, "%s", real), 0);
	if (!slash)
		return 301;
	if (nd->kind != DIR_INDEX)
		return 404;
	char idx[600];
	snprintf(idx, sizeof idx, "%s/index.html", real);
	model_real(idx, served, n, &outside);
	return outside || !node_at(served) ? 404 : 0;
}

static void make_tree(const char *root, const char *site)
{
	char p[PATH_MAX + 64], q[PATH_MAX + 64];
	snprintf(p, sizeof p, "%s/site-private", root);
	t_write(p, "secret.txt", "secret");
	t_write(p, "index.html", "secret index");
	for (size_t i = 0; i < sizeof tree / sizeof *tree; i++) {
		const struct node *nd = &tree[i];
		snprintf(p, sizeof p, "%s/%s", site, nd->path);
		if (nd->link) {
			if (!strcmp(nd->link, "out"))
				snprintf(q, sizeof q, "%s", !strcmp(nd->path, "etc") ? "/etc"
							     : nd->kind == FILE_ ? "../site-private/secret.txt"
										: "../site-private");
			else
				snprintf(q, sizeof q, "%s/%s", site, nd->link);
			if (symlink(q, p) != 0)
				perror(p);
		} else if (nd->kind == FILE_) {
			t_write(site, nd->path, nd->path);
		} else {
			mkdir(p, 0755);
		}
	}
}

/* a random request target over the tree's names and hostile pieces */
static void random_url(char *u, size_t n)
{
	static const char *const segs[] = {"index.html", "a.txt", "b c.txt", "b%20c.txt", "posts", "x", "y",
		"z.css", ".hidden", "in.txt", "indir", "sib.txt", "sibdir", "etc", "passwd", "secret.txt", ".", "..",
		"", "%2e", "%2e%2e", "%2E.", "a%2fb", "%5c", "a\\b", "%00", "%25", "%252e", "%", "%g1", "%7f",
		"\x01", "site-private", "nothing", "%61.txt", "%69ndex.html"};
	size_t len = 0;
	int k = 1 + (int)pick(4);
	if (pick(20) == 0)
		len += (size_t)snprintf(u, n, "%s", pick(2) ? "*" : "posts/x");
	for (int i = 0; i < k && len + 40 < n; i++)
		len += (size_t)snprintf(u + len, n - len, "/%s", segs[pick(sizeof segs / sizeof *segs)]);
	if (pick(3) == 0 && len + 2 < n)
		u[len++] = '/', u[len] = '\0';
	if (pick(8) == 0 && len + 8 < n)
		len += (size_t)snprintf(u + len, n - len, "%s", pick(2) ? "?q=%2f" : "#top");
}

static void test_resolve(void)
{
	char *root = t_tmpdir();
	char site[PATH_MAX];
	snprintf(site, sizeof site, "%s/site", root);
	mkdir(site, 0755);
	make_tree(root, site);
	char real_site[PATH_MAX];
	OK(realpath(site, real_site) != NULL);
	size_t rl = strlen(real_site);
	int wrong = 0, served = 0;
	for (int i = 0; i < 20000; i++) {
		char url[300], out[PATH_MAX], want_rel[600];
		random_url(url, sizeof url);
		int want = model_resolve(url, want_rel, sizeof want_rel);
		int got = serve_resolve(site, url, out, sizeof out);
		char want_real[PATH_MAX + 700];
		snprintf(want_real, sizeof want_real, "%s/%s", real_site, want_rel);
		int bad = got != want || (got == 0 && strcmp(out, want_real));
		/* the guard's promise, whatever the model says: a file served
		 * is a regular file inside the site, never the sibling's */
		struct stat st;
		if (got == 0 && (strncmp(out, real_site, rl) || out[rl] != '/' || stat(out, &st) || !S_ISREG(st.st_mode) ||
				 strstr(out, "site-private")))
			bad = 1;
		served += got == 0;
		if (bad && wrong++ < 5)
			t_fail(__FILE__, __LINE__, "serve_resolve(\"%s\"): got %d (%s), the model %d (%s)", url, got,
			       got == 0 ? out : "", want, want == 0 ? want_rel : "");
	}
	INT_EQ(wrong, 0);
	OK(served > 500); /* the targets reach files often enough to test them */
	t_rmtree(root);
	free(root);
}

/* ---- site_where ---- */

/* The folder R holds the site and a sibling; each entry's kind, and a
 * link's target as a path from R ("" is R itself). */
static const struct fsnode {
	const char *path;
	char kind; /* 'f' file, 'd' folder, 'l' link */
	const char *target;
} fs[] = {
    {"site", 'd', NULL},          {"site/f", 'f', NULL},         {"site/d", 'd', NULL},
    {"site/d/g", 'f', NULL},      {"site/in", 'l', "site/f"},    {"site/ind", 'l', "site/d"},
    {"site/out", 'l', "site-x/secret"}, {"site/outd", 'l', "site-x"}, {"site/dang", 'l', "site/nope"},
    {"site/loop1", 'l', "site/loop2"}, {"site/loop2", 'l', "site/loop1"}, {"site/up", 'l', ""},
    {"site/self", 'l', "site"},   {"site-x", 'd', NULL},         {"site-x/secret", 'f', NULL},
};

static const struct fsnode *fs_at(const char *path)
{
	for (size_t i = 0; i < sizeof fs / sizeof *fs; i++)
		if (!strcmp(fs[i].path, path))
			return &fs[i];
	return NULL;
}

/* follow: where link target t leads: 0 and the real path in out (from R;
 * "" R, "^" above it), or SITE_LOOP, SITE_DANGLING */
static int follow(const char *t, char *out, size_t n, int depth)
{
	if (depth > 40)
		return SITE_LOOP;
	if (!*t) {
		snprintf(out, n, "%s", "");
		return 0;
	}
	const struct fsnode *nd = fs_at(t);
	if (!nd)
		return SITE_DANGLING;
	if (nd->kind == 'l')
		return follow(nd->target, out, n, depth + 1);
	snprintf(out, n, "%s", t);
	return 0;
}

/* model_where: site_where's rule for R/site/SEGS (sitefile.h's words):
 * what is not there (lstat fails) is missing, but a circle of links;
 * a link at the end to nothing is dangling; else inside or outside by
 * where the path really leads */
static enum site_where model_where(const char *const *segs, int n)
{
	char cur[512] = "site";
	char kind = 'd';
	for (int i = 0; i < n; i++) {
		int last = i == n - 1;
		const char *sg = segs[i];
		if (!strcmp(sg, ".") || !strcmp(sg, "..")) {
			if (kind != 'd')
				return SITE_MISSING; /* "f/..": not a folder */
			if (sg[1] == '.') {
				char *sl = strrchr(cur, '/');
				if (sl)
					*sl = '\0';
				else if (*cur && strcmp(cur, "^"))
					cur[0] = '\0';
				else
					snprintf(cur, sizeof cur, "^"); /* above R: outside, as far as the site goes */
			}
			continue;
		}
		if (kind != 'd')
			return SITE_MISSING;
		if (!strcmp(cur, "^"))
			return SITE_MISSING; /* nothing of ours up there by these names */
		char child[512];
		snprintf(child, sizeof child, "%.400s%s%.60s", cur, *cur ? "/" : "", sg);
		const struct fsnode *nd = fs_at(child);
		if (!nd)
			return SITE_MISSING;
		if (nd->kind != 'l') {
			snprintf(cur, sizeof cur, "%s", child);
			kind = nd->kind;
			continue;
		}
		char real[512];
		int r = follow(nd->target, real, sizeof real, 0);
		if (r == SITE_LOOP)
			return SITE_LOOP;
		if (r == SITE_DANGLING)
			return last ? SITE_DANGLING : SITE_MISSING;
		snprintf(cur, sizeof cur, "%s", real);
		kind = *real ? fs_at(real)->kind : 'd';
	}
	return !strcmp(cur, "site") || !strncmp(cur, "site/", 5) ? SITE_INSIDE : SITE_OUTSIDE;
}

static void test_site_where(void)
{
	char *R = t_tmpdir();
	char p[PATH_MAX + 64], q[PATH_MAX + 64];
	for (size_t i = 0; i < sizeof fs / sizeof *fs; i++) {
		snprintf(p, sizeof p, "%s/%s", R, fs[i].path);
		if (fs[i].kind == 'd')
			mkdir(p, 0755);
		else if (fs[i].kind == 'f')
			t_write(R, fs[i].path, fs[i].path);
		else {
			snprintf(q, sizeof q, "%s%s%s", R, *fs[i].target ? "/" : "", fs[i].target);
			if (symlink(q, p) != 0)
				perror(p);
		}
	}
	snprintf(p, sizeof p, "%s/site", R);
	char *root = site_root(p);
	OK(root != NULL);
	static const char *const pool[] = {"f", "d", "g", "in", "ind", "out", "outd", "dang", "loop1", "loop2", "..", ".",
		"nope", "self", "up", "secret", "site-x", "site"};
	int wrong = 0, kinds[6] = {0};
	for (int i = 0; i < 5000 && root; i++) {
		const char *segs[5];
		int n = 1 + (int)pick(4);
		size_t len = (size_t)snprintf(p, sizeof p, "%s/site", R);
		for (int k = 0; k < n; k++) {
			segs[k] = pool[pick(sizeof pool / sizeof *pool)];
			len += (size_t)snprintf(p + len, sizeof p - len, "/%s", segs[k]);
		}
		char to[PATH_MAX];
		enum site_where got = site_where(root, p, to, sizeof to), want = model_where(segs, n);
		kinds[got]++;
		if (got != want && wrong++ < 5)
			t_fail(__FILE__, __LINE__, "site_where(\"%s\"): got %d, the model %d", p + strlen(R), (int)got,
			       (int)want);
		if (got == SITE_INSIDE) { /* the promise: its real path is the site's */
			char real[PATH_MAX];
			if (!realpath(p, real) || !site_inside(root, real) || strstr(real, "site-x"))
				if (wrong++ < 5)
					t_fail(__FILE__, __LINE__, "site_where(\"%s\"): inside, but leads to %s", p, real);
		}
	}
	INT_EQ(wrong, 0);
	OK(kinds[SITE_INSIDE] > 100 && kinds[SITE_OUTSIDE] > 100 && kinds[SITE_LOOP] > 10 && kinds[SITE_DANGLING] > 10);
	free(root);
	t_rmtree(R);
	free(R);
}

/* ---- serve_host_ok ---- */

/* model_host: serve.h's rule: localhost, 127.0.0.1, [::1] or the bound
 * address, with no port or the server's; bound to a wildcard address,
 * any IP literal (never a name) */
static int model_host(const char *host, const char *bind, int port)
{
	if (!host || !*host)
		return 0;
	char name[128], bracket[80];
	const char *colon = host[0] == '[' ? strstr(host, "]:") : strrchr(host, ':');
	if (host[0] == '[' && colon)
		colon++;
	size_t nl = colon ? (size_t)(colon - host) : strlen(host);
	if (nl >= sizeof name)
		return 0;
	memcpy(name, host, nl);
	name[nl] = '\0';
	if (colon) {
		char want[16];
		snprintf(want, sizeof want, "%d", port);
		if (strcmp(colon + 1, want))
			return 0;
	}
	snprintf(bracket, sizeof bracket, strchr(bind, ':') ? "[%s]" : "%s", bind);
	if (!strcasecmp(name, "localhost") || !strcmp(name, "127.0.0.1") || !strcmp(name, "[::1]") ||
	    !strcasecmp(name, bracket))
		return 1;
	if (strcmp(bind, "0.0.0.0") && strcmp(bind, "::"))
		return 0;
	unsigned char a[16];
	if (name[0] == '[') {
		size_t l = strlen(name);
		if (l < 3 || name[l - 1] != ']')
			return 0;
		name[l - 1] = '\0';
		return inet_pton(AF_INET6, name + 1, a) == 1;
	}
	return inet_pton(AF_INET, name, a) == 1;
}

static void test_host(void)
{
	static const char *const names[] = {"localhost", "LocalHost", "127.0.0.1", "[::1]", "10.0.0.7", "192.168.1.5",
		"[fe80::1]", "[::]", "0.0.0.0", "evil.example", "127.0.0.1.evil.example", "localhost.evil", "1.2.3",
		"256.1.1.1", "[fe80::1", "fe80::1", "[::1]x", "", "[::ffff:1.2.3.4]", "01.2.3.4",
		"[ffff:ffff:ffff:ffff:ffff:ffff:255.255.255.255]"}; /* the longest literal: cut to fit, ":65535.evil" would go */
	static const char *const binds[] = {"127.0.0.1", "0.0.0.0", "::", "192.168.1.5", "fe80::1", "::1"};
	int wrong = 0;
	for (int i = 0; i < 20000; i++) {
		const char *b = binds[pick(sizeof binds / sizeof *binds)];
		int port = pick(4) ? 8080 : pick(2) ? 65535 : 1 + (int)pick(65535);
		char host[160];
		const char *nm = names[pick(sizeof names / sizeof *names)];
		switch (pick(5)) {
		case 0: snprintf(host, sizeof host, "%s", nm); break;
		case 1: snprintf(host, sizeof host, "%s:%d", nm, port); break;
		case 2: snprintf(host, sizeof host, "%s:%d", nm, port + 1); break;
		case 3: snprintf(host, sizeof host, "%s:%d.evil.example", nm, port); break;
		default: snprintf(host, sizeof host, "%s:", nm); break;
		}
		int want = model_host(host, b, port), got = serve_host_ok(host, b, port) != 0;
		if (got != want && wrong++ < 5)
			t_fail(__FILE__, __LINE__, "serve_host_ok(\"%s\", \"%s\", %d): got %d, the model %d", host, b, port,
			       got, want);
	}
	INT_EQ(wrong, 0);
}

/* ---- the escapers ---- */

/* unhtml: the text of an escaped string (the five entities buf_put_html
 * writes), or -1 on anything else after '&' */
static int unhtml(const char *s, size_t n, struct buf *out)
{
	static const struct {
		const char *ent;
		char c;
	} ents[] = {{"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}, {"&#39;", '\''}};
	for (size_t i = 0; i < n;) {
		if (s[i] != '&') {
			buf_putc(out, s[i++]);
			continue;
		}
		size_t k = 0;
		while (k < sizeof ents / sizeof *ents && strncmp(s + i, ents[k].ent, strlen(ents[k].ent)))
			k++;
		if (k == sizeof ents / sizeof *ents)
			return -1;
		buf_putc(out, ents[k].c);
		i += strlen(ents[k].ent);
	}
	return 0;
}

static void random_bytes(char *s, size_t n)
{
	static const char hot[] = "&<>\"'\\/%\n\r\t\x00\x7f\xc3\xa9\xe2\x80\xa8 aZ09-_.~?#=";
	for (size_t i = 0; i < n; i++)
		s[i] = pick(3) ? hot[pick(sizeof hot - 1)] : (char)pick(256);
}

static void test_escapers(void)
{
	int wrong = 0;
	struct buf e, d;
	buf_init(&e);
	buf_init(&d);
	for (int i = 0; i < 20000; i++) {
		char s[64];
		size_t n = pick(sizeof s);
		random_bytes(s, n);
		buf_reset(&e);
		buf_reset(&d);
		buf_put_html(&e, s, n);
		/* nothing that ends a text or an attribute, and its text again */
		int bad = (e.len && (memchr(e.p, '<', e.len) || memchr(e.p, '>', e.len) || memchr(e.p, '"', e.len) ||
				    memchr(e.p, '\'', e.len))) ||
			  unhtml(e.p ? e.p : "", e.len, &d) || d.len != n || (n && memcmp(d.p, s, n));
		if (bad && wrong++ < 5)
			t_fail(__FILE__, __LINE__, "buf_put_html of %zu bytes: %.*s", n, (int)e.len, e.p ? e.p : "");
		/* JSON for HTML: no raw quote, control byte, & ' < > (a </script>
		 * cannot end the page's script), and its bytes again */
		buf_reset(&e);
		buf_reset(&d);
		buf_put_json(&e, s, n, JSON_ESC_HTML);
		bad = e.len < 2 || e.p[0] != '"' || e.p[e.len - 1] != '"';
		for (size_t k = 1; !bad && k + 1 < e.len; k++) {
			unsigned char c = (unsigned char)e.p[k];
			if (c < 0x20 || c == '"' || strchr("&'<>", c))
				bad = 1;
			else if (c != '\\')
				buf_putc(&d, (char)c);
			else if (k + 2 < e.len && strchr("\"\\/nrt", e.p[k + 1]))
				buf_putc(&d, e.p[k + 1] == 'n' ? '\n' : e.p[k + 1] == 'r' ? '\r' : e.p[k + 1] == 't' ? '\t' : e.p[k + 1]),
				    k++;
			else if (k + 6 < e.len && e.p[k + 1] == 'u' && !memcmp(e.p + k + 2, "00", 2) && hexv(e.p[k + 4]) >= 0 &&
				 hexv(e.p[k + 5]) >= 0)
				buf_putc(&d, (char)(hexv(e.p[k + 4]) * 16 + hexv(e.p[k + 5]))), k += 5;
			else
				bad = 1;
		}
		bad |= d.len != n || (n && memcmp(d.p, s, n));
		if (bad && wrong++ < 5)
			t_fail(__FILE__, __LINE__, "buf_put_json of %zu bytes: %.*s", n, (int)e.len, e.p ? e.p : "");
	}
	INT_EQ(wrong, 0);
	buf_fini(&e);
	buf_fini(&d);
}

/* the urlencode filter: unreserved bytes (and '/' in a string) as they
 * are, every other byte as %XX, decoding back to the input */
static void test_urlencode(void)
{
	struct tmpl_env *env = tmpl_env_new();
	struct diag q;
	diag_init(&q, NULL);
	static const char src[] = "{{ s | urlencode }}|{{ m | urlencode }}";
	OK(tmpl_env_add(env, "u.html", "u.html", src, sizeof src - 1, &q) == 0);
	diag_fini(&q);
	int wrong = 0;
	struct buf out, dec;
	buf_init(&out);
	buf_init(&dec);
	for (int i = 0; i < 5000; i++) {
		char s[40];
		size_t n = pick(sizeof s);
		random_bytes(s, n);
		struct arena *a = arena_new();
		struct tmap *vars = tmap_new(a, 2), *m = tmap_new(a, 1);
		tmap_set(a, m, (struct str){"k", 1}, tv_str((struct str){s, n}));
		tmap_set_cstr(a, vars, "s", tv_str((struct str){s, n}));
		tmap_set_cstr(a, vars, "m", tv_map(m));
		struct tval v = tv_map(vars);
		buf_reset(&out);
		struct diag d2;
		diag_init(&d2, NULL);
		int bad = tmpl_render(env, "u.html", &v, &out, a, &d2) != 0;
		diag_fini(&d2);
		/* both forms: only unreserved bytes, '/' (the string's), '=' and
		 * '|' of the template, and %XX; decoded, the input */
		const char *bar = out.p ? memchr(out.p, '|', out.len) : NULL;
		for (int form = 0; !bad && form < 2; form++) {
			const char *p = form ? bar + 1 + 2 : out.p; /* the map's after "k=" */
			const char *e = form ? out.p + out.len : bar;
			if (!bar || (form && (e - bar < 3 || memcmp(bar + 1, "k=", 2)))) {
				bad = 1;
				break;
			}
			buf_reset(&dec);
			for (; p < e && !bad; p++) {
				if (isalnum((unsigned char)*p) || strchr("-._~", *p) || (*p == '/' && !form))
					buf_putc(&dec, *p);
				else if (*p == '%' && e - p >= 3 && hexv(p[1]) >= 0 && hexv(p[2]) >= 0)
					buf_putc(&dec, (char)(hexv(p[1]) * 16 + hexv(p[2]))), p += 2;
				else
					bad = 1;
			}
			bad |= dec.len != n || (n && memcmp(dec.p, s, n));
		}
		if (bad && wrong++ < 5)
			t_fail(__FILE__, __LINE__, "urlencode of %zu bytes: %.*s", n, (int)out.len, out.p ? out.p : "");
		arena_free(a);
	}
	INT_EQ(wrong, 0);
	buf_fini(&out);
	buf_fini(&dec);
	tmpl_env_free(env);
}

/* ---- output_foreign: what of an output folio did not write ---- */

/* The model, from folio(1)'s words (THE OUTPUT FOLDER): walking the
 * output, a regular file the manifest lists is folio's; a folder that
 * holds (at any depth) a file the manifest lists is folio's and is walked;
 * any other entry is foreign: a file it does not list, a folder holding
 * none of its files (named once, with '/'), a link (whatever it points
 * at). The marker at the top is folio's. */
static int model_holds(const struct manifest *m, const char *rel)
{
	size_t n = strlen(rel);
	for (size_t i = 0; i < m->n; i++)
		if (!strncmp(m->v[i].rel, rel, n) && m->v[i].rel[n] == '/')
			return 1;
	return 0;
}

static void model_foreign(const struct manifest *m, const char *root, const char *rel, struct buf *out)
{
	char p[2 * PATH_MAX + 64];
	snprintf(p, sizeof p, "%s%s%s", root, rel[0] ? "/" : "", rel);
	DIR *dh = opendir(p);
	if (!dh)
		return;
	char names[64][NAME_MAX + 1];
	int n = 0;
	for (struct dirent *de; (de = readdir(dh)) && n < 64;)
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..") &&
		    (rel[0] || strcmp(de->d_name, OUTPUT_MARKER)))
			snprintf(names[n++], sizeof names[0], "%s", de->d_name);
	closedir(dh);
	for (int i = 0; i < n; i++) {
		char r[PATH_MAX + NAME_MAX + 2], q[2 * PATH_MAX + NAME_MAX + 4];
		struct stat st;
		if (snprintf(r, sizeof r, "%s%s%s", rel, rel[0] ? "/" : "", names[i]) >= (int)sizeof r ||
		    snprintf(q, sizeof q, "%s/%s", root, r) >= (int)sizeof q || lstat(q, &st) != 0)
			continue;
		if (S_ISREG(st.st_mode)) {
			if (!manifest_find(m, r))
				buf_printf(out, "%s\n", r);
		} else if (S_ISDIR(st.st_mode)) {
			if (model_holds(m, r))
				model_foreign(m, root, r, out);
			else
				buf_printf(out, "%s/\n", r);
		} else {
			buf_printf(out, "%s\n", r);
		}
	}
}

/* a random path of one to three names, from few so that they meet */
static void random_rel(char *r, size_t n)
{
	static const char *const names[] = {"a", "b", "c", "index.html", "x.css", "a-b", "a.b"};
	size_t len = 0;
	int k = 1 + (int)pick(3);
	for (int i = 0; i < k; i++)
		len += (size_t)snprintf(r + len, n - len, "%s%s", i ? "/" : "", names[pick(7)]);
}

/* clashes: whether one of rel's folders is a file of m's */
static int clashes(const struct manifest *m, const char *rel)
{
	for (size_t i = 0; i < m->n; i++) {
		size_t n = strlen(m->v[i].rel);
		if (!strncmp(rel, m->v[i].rel, n) && rel[n] == '/')
			return 1;
	}
	return 0;
}

/* make_random_output: files, folders and links (to a file or a folder
 * inside, to outside, to nothing) at random paths below out; the
 * manifest lists some of its files, some it does not have, and folders
 * named as files */
static void make_random_output(const char *out, struct manifest *m)
{
	char rel[64], p[PATH_MAX + 80];
	t_write(out, OUTPUT_MARKER, "marker");
	/* one in three: a clean output, each file listed as it is made */
	int clean = pick(3) == 0;
	int k = 1 + (int)pick(14);
	for (int i = 0; i < k; i++) {
		random_rel(rel, sizeof rel);
		snprintf(p, sizeof p, "%s/%s", out, rel);
		/* its folders, where nothing else stands */
		for (char *s = strchr(p + strlen(out) + 1, '/'); s; s = strchr(s + 1, '/')) {
			*s = '\0';
			mkdir(p, 0755);
			*s = '/';
		}
		unsigned what = clean ? 0 : pick(10);
		if (what < 6) {
			FILE *f = fopen(p, "wx");
			if (f)
				fclose(f);
			struct mfile mf = {.rel = rel};
			if (f && clean && !clashes(m, rel) && !model_holds(m, rel)) {
				manifest_add(m, &mf);
				manifest_reindex(m);
			}
		} else if (what < 8) {
			mkdir(p, 0755);
		} else {
			static const char *const to[] = {"a", "index.html", "/etc", "../elsewhere", "nothing"};
			if (symlink(to[pick(5)], p) != 0) {
				/* taken: the path is already something */
			}
		}
	}
	int listed = clean ? 0 : (int)pick(10);
	for (int i = 0; i < listed; i++) {
		random_rel(rel, sizeof rel);
		/* (a path that is a file and a folder is no build's manifest) */
		if (manifest_find(m, rel) || model_holds(m, rel) || clashes(m, rel))
			continue;
		struct mfile f = {.rel = rel};
		manifest_add(m, &f);
		manifest_reindex(m);
	}
	m->known = 1;
}

/* sorted_lines: the lines of b sorted (as output_foreign sorts its names) */
static int cmp_line(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

static void sorted_lines(struct buf *b)
{
	if (!b->len)
		return;
	char *copy = xstrndup(b->p, b->len), *v[256];
	size_t n = 0;
	for (char *s = strtok(copy, "\n"); s && n < 256; s = strtok(NULL, "\n"))
		v[n++] = s;
	qsort(v, n, sizeof *v, cmp_line);
	buf_reset(b);
	for (size_t i = 0; i < n; i++)
		buf_printf(b, "%s\n", v[i]);
	free(copy);
}

static void test_foreign(void)
{
	char *root = t_tmpdir();
	char out[PATH_MAX];
	int wrong = 0, seen = 0;
	struct buf want, got;
	buf_init(&want);
	buf_init(&got);
	for (int i = 0; i < 1500; i++) {
		snprintf(out, sizeof out, "%s/out%d", root, i);
		struct manifest m;
		memset(&m, 0, sizeof m);
		make_random_output(out, &m);
		buf_reset(&want);
		model_foreign(&m, out, "", &want);
		sorted_lines(&want);
		struct foreign fo;
		int rc = output_foreign(&m, out, 0, &fo);
		buf_reset(&got);
		for (size_t j = 0; j < fo.n; j++)
			buf_printf(&got, "%s\n", fo.names[j]);
		seen += fo.n > 0;
		if ((rc != 0 || got.len != want.len || (got.len && memcmp(got.p, want.p, got.len))) && wrong++ < 5)
			t_fail(__FILE__, __LINE__, "output %d: foreign\n%.*s\nwanted\n%.*s", i, (int)got.len,
			       got.p ? got.p : "", (int)want.len, want.p ? want.p : "");
		foreign_fini(&fo);
		manifest_fini(&m);
		t_rmtree(out);
	}
	INT_EQ(wrong, 0);
	/* the trees are not all foreign-free nor all foreign */
	OK(seen > 300 && seen < 1450);
	buf_fini(&want);
	buf_fini(&got);
	t_rmtree(root);
	free(root);
}

void test_guards(void)
{
	t_current = "guards";
	test_resolve();
	test_site_where();
	test_host();
	test_escapers();
	test_urlencode();
	test_foreign();
}
