/* test_reader.c: the site's reader (files/reader.c): the one rule for the
 * names a walk passes over, folders listed in order without them, and
 * files read after the site check, bounded, hashed, with their errors. */
#include "harness.h"

#include "base/arena.h"
#include "base/buf.h"
#include "base/diag.h"
#include "base/hash.h"
#include "files/reader.h"
#include "files/sitefile.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static void test_ignored(void)
{
	static const char *const skipped[] = {".", "..", ".hidden", ".folio-cache", ".folio-output", "#post.md#",
					      "post.md~", "a.swp", "a.swx", "a.swo", "a.tmp", "x.part", "4913", NULL};
	static const char *const kept[] = {"post.md", "a.png", "swp", ".swp.md", "4913.md", "partial", "x-", NULL};
	int n = 0;
	for (size_t i = 0; skipped[i]; i++)
		n += site_ignored(skipped[i]);
	INT_EQ(n, 13);
	n = 0;
	for (size_t i = 0; kept[i]; i++)
		n += !site_ignored(kept[i]);
	INT_EQ(n, 6); /* ".swp.md" begins with a dot: hidden */
	OK(site_ignored(".swp.md"));
}

static void test_list(void)
{
	char *dir = t_tmpdir();
	t_write(dir, "b.md", "b");
	t_write(dir, "a.md", "a");
	t_write(dir, "a.md~", "backup");
	t_write(dir, ".x.swp", "swap");
	t_write(dir, "sub/c.md", "c");
	size_t n;
	char **v = site_list(dir, &n);
	OK(v != NULL);
	INT_EQ(n, 3);
	if (v && n == 3) {
		STR_EQ(v[0], "a.md");
		STR_EQ(v[1], "b.md");
		STR_EQ(v[2], "sub");
		OK(site_list_type(v[2]) == DT_DIR || site_list_type(v[2]) == DT_UNKNOWN);
	}
	site_list_free(v, n);
	char missing[4200];
	snprintf(missing, sizeof missing, "%s/none", dir);
	errno = 0;
	v = site_list(missing, &n);
	OK(v == NULL && n == 0 && errno == ENOENT);
	t_rmtree(dir);
	free(dir);
}

static void test_read(void)
{
	char *dir = t_tmpdir(), *out = t_tmpdir();
	t_write(dir, "content/posts/a.md", "hello\n");
	t_write(dir, "big.md", "0123456789\n");
	t_write(out, "secret.txt", "not the site's\n");
	char path[4200], link[4200], big[4200];
	snprintf(path, sizeof path, "%s/content/posts/a.md", dir);
	snprintf(big, sizeof big, "%s/big.md", dir);
	snprintf(link, sizeof link, "%s/content/posts/s.md", dir);
	char target[4200];
	snprintf(target, sizeof target, "%s/secret.txt", out);
	OK(symlink(target, link) == 0);
	char *root = site_root(dir);
	struct buf cap;
	buf_init(&cap);
	struct diag d;
	diag_init(&d, NULL);
	d.capture = &cap;
	struct arena *a = arena_new();

	/* a file of the site: its bytes, a NUL, its hash */
	size_t len;
	uint64_t h = 0;
	struct site_file f = {path, "content/posts/a.md", FOLIO_MAX_FILE, "hint", 0};
	char *text = site_read(&d, root, &f, a, &len, &h);
	STR_EQ(text, "hello\n");
	INT_EQ(len, 6);
	OK(h == hash_bytes("hello\n", 6));
	char *own = site_read(&d, root, &f, NULL, &len, NULL); /* malloc'd */
	STR_EQ(own, "hello\n");
	free(own);

	/* a link out of the site: never read, an error at its place */
	struct site_file s = {link, "content/posts/s.md", FOLIO_MAX_FILE, "hint", 0};
	errno = 0;
	OK(site_read(&d, root, &s, a, &len, NULL) == NULL && errno == EPERM);
	OK(strstr(t_msgs(&cap), "content/posts/s.md: error: symlink points outside the site") != NULL);
	/* ... unless the caller checked it (the walk) */
	struct site_file sc = {link, "content/posts/s.md", FOLIO_MAX_FILE, "hint", SITE_READ_CHECKED};
	text = site_read(&d, root, &sc, a, &len, NULL);
	STR_EQ(text, "not the site's\n");

	/* too large: an error with the hint */
	buf_reset(&cap);
	struct site_file b = {big, "big.md", 4, "split it", 0};
	errno = 0;
	OK(site_read(&d, root, &b, NULL, &len, NULL) == NULL && errno == EFBIG);
	OK(strstr(t_msgs(&cap), "big.md") != NULL && strstr(cap.p, "split it") != NULL);

	/* missing: "cannot read", unless quiet (errno tells) */
	buf_reset(&cap);
	char none[4200];
	snprintf(none, sizeof none, "%s/none.md", dir);
	struct site_file m = {none, "none.md", FOLIO_MAX_FILE, "", 0};
	OK(site_read(&d, root, &m, a, &len, NULL) == NULL);
	STR_EQ(t_msgs(&cap), "none.md: error: cannot read: No such file or directory");
	buf_reset(&cap);
	m.flags = SITE_READ_QUIET;
	errno = 0;
	OK(site_read(&d, root, &m, a, &len, NULL) == NULL && errno == ENOENT);
	STR_EQ(t_msgs(&cap), "");

	arena_free(a);
	diag_fini(&d);
	buf_fini(&cap);
	free(root);
	t_rmtree(dir);
	t_rmtree(out);
	free(dir);
	free(out);
}

static void test_held(void)
{
	char *dir = t_tmpdir();
	t_write(dir, "a/b/x", "x");
	struct held *top = held_root(dir);
	OK(top != NULL);
	struct stat st;
	char sub[4200];
	snprintf(sub, sizeof sub, "%s/a", dir);
	OK(stat(sub, &st) == 0);
	OK(held_find(top, &st, 0) == NULL); /* a folder below: not one that holds the walk */
	OK(stat(dir, &st) == 0);
	OK(held_find(top, &st, 0) == top);
	OK(stat("/", &st) == 0);
	OK(held_find(top, &st, 0) == NULL); /* above the root: only a link leads there */
	OK(held_find(top, &st, 1) != NULL);
	held_free(top);
	snprintf(sub, sizeof sub, "%s/a/b/x", dir);
	OK(held_root(sub) == NULL); /* not a folder */
	t_rmtree(dir);
	free(dir);
}

void test_reader(void)
{
	test_ignored();
	test_list();
	test_read();
	test_held();
}
