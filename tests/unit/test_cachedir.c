/* test_cachedir.c: the .folio-cache folder (cache.c): paths by the
 * catalogue's kinds, the layout version, atomic writes, bounded reads,
 * sweeping and pruning. */
#include "harness.h"

#include "base/buf.h"
#include "cache/cache.h"

#include <dirent.h>
#include <stdlib.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utime.h>

static int count_prefix(const char *dir, const char *prefix)
{
	DIR *d = opendir(dir);
	int c = 0;
	for (struct dirent *e; d && (e = readdir(d));)
		c += strncmp(e->d_name, prefix, strlen(prefix)) == 0;
	if (d)
		closedir(d);
	return d ? c : -1;
}

/* t_path: DIR/REL (malloc'd) */
static char *t_path(const char *dir, const char *rel)
{
	char *p = malloc(strlen(dir) + strlen(rel) + 2);
	sprintf(p, "%s/%s", dir, rel);
	return p;
}

static void set_old(const char *path, long seconds_ago)
{
	struct utimbuf t = {time(NULL) - seconds_ago, time(NULL) - seconds_ago};
	utime(path, &t);
}

void test_cachedir(void)
{
	t_current = "cache";
	char *site = t_tmpdir();
	char *dir = cache_path(site, CACHE_ROOT), *pack = cache_path(site, CACHE_MARKDOWN);
	OK(strstr(dir, "/.folio-cache") && !strcmp(strstr(dir, "/.folio-cache"), "/.folio-cache"));
	OK(strstr(pack, "/.folio-cache/markdown.pack") != NULL);

	/* the folder and its version */
	INT_EQ(cache_open_dir(site, CACHE_MATH), 0);
	OK(t_exists(site, ".folio-cache/math"));
	STR_EQ(t_read(site, ".folio-cache/VERSION"), "folio-cache 1\n");

	/* a whole file, replaced whole, and no temporary file left */
	INT_EQ(cache_write(pack, "one", 3), 0);
	STR_EQ(t_read(site, ".folio-cache/markdown.pack"), "one");
	INT_EQ(cache_write(pack, "two!", 4), 0);
	STR_EQ(t_read(site, ".folio-cache/markdown.pack"), "two!");
	INT_EQ(count_prefix(dir, ".tmp-"), 0);
	struct cache_file f;
	INT_EQ(cache_file_open(&f, pack), 0);
	OK(write(f.fd, "partial", 7) == 7);
	cache_file_abort(&f);
	STR_EQ(t_read(site, ".folio-cache/markdown.pack"), "two!");
	INT_EQ(count_prefix(dir, ".tmp-"), 0);
	INT_EQ(cache_file_open(&f, pack), 0);
	OK(write(f.fd, "three", 5) == 5);
	INT_EQ(cache_file_commit(&f), 0);
	STR_EQ(t_read(site, ".folio-cache/markdown.pack"), "three");
	/* a folder that cannot hold it: -1, nothing left */
	char *bad = malloc(strlen(dir) + 16);
	sprintf(bad, "%s/nofolder/x", dir);
	INT_EQ(cache_write(bad, "x", 1), -1);
	free(bad);

	/* another layout version: the folder is emptied first */
	t_write(site, ".folio-cache/VERSION", "folio-cache 0\n");
	INT_EQ(cache_open_dir(site, CACHE_ROOT), 0);
	OK(!t_exists(site, ".folio-cache/markdown.pack"));
	OK(!t_exists(site, ".folio-cache/math"));
	STR_EQ(t_read(site, ".folio-cache/VERSION"), "folio-cache 1\n");
	/* the same version: nothing goes */
	INT_EQ(cache_write(pack, "kept", 4), 0);
	INT_EQ(cache_open_dir(site, CACHE_ROOT), 0);
	STR_EQ(t_read(site, ".folio-cache/markdown.pack"), "kept");

	/* state files: the output's KIND-HASH, the same HASH for each kind */
	char *out = cache_output_path(site, "/tmp/folio-unit-no-such/out", CACHE_MANIFEST);
	OK(out == NULL); /* the output's parent does not resolve */
	char *pub_dir = NULL;
	size_t n = strlen(site) + 16;
	pub_dir = malloc(n);
	snprintf(pub_dir, n, "%s/public", site);
	out = cache_output_path(site, pub_dir, CACHE_MANIFEST);
	OK(out && strstr(out, "/.folio-cache/output-") && strlen(strstr(out, "output-")) == 7 + 16);
	char *pages = out ? cache_output_sibling(out, CACHE_PAGES) : NULL;
	OK(pages && out && !strcmp(strrchr(pages, '-'), strrchr(out, '-')) && strstr(pages, "/pages-"));
	char *pages2 = cache_output_path(site, pub_dir, CACHE_PAGES);
	OK(pages && pages2 && !strcmp(pages, pages2));
	INT_EQ(pages ? (int)cache_output_kind(pages) : -1, CACHE_PAGES);
	INT_EQ(cache_output_kind(pack), CACHE_KINDS);
	/* the catalogue: each kind once, in order, its file per site, per
	 * output or per key */
	for (int k = 0; k < CACHE_KINDS; k++)
		INT_EQ(cache_entry((enum cache_kind)k)->kind, k);
	OK(cache_entry(CACHE_MANIFEST)->scope == CACHE_OUTPUT && cache_entry(CACHE_MATH)->scope == CACHE_KEYED);
	STR_EQ(cache_entry(CACHE_SPARE)->fuzz, "manifest");
	/* every file read from bytes folio does not trust has a fuzz target
	 * (VERSION is compared whole; a git target's bare repository is git's
	 * to read, never folio's) */
	for (int k = CACHE_LAYOUT + 1; k < CACHE_KINDS; k++)
		OK(cache_entry((enum cache_kind)k)->fuzz != NULL || k == CACHE_DEPLOY_GIT);
	char *mfile = cache_key_path(site, CACHE_MATH, 0xabc);
	OK(strstr(mfile, "/.folio-cache/math/0000000000000abc.cache") != NULL);
	free(mfile);

	/* a bounded read: a file bigger than its kind's bound is not read */
	INT_EQ(cache_write(pack, "x", 1), 0);
	char *vpath = cache_path(site, CACHE_LAYOUT);
	size_t vlen = 0;
	char *v = cache_read(vpath, CACHE_LAYOUT, &vlen);
	STR_EQ(v, "folio-cache 1\n");
	free(v);
	char big[64];
	memset(big, 'v', sizeof big);
	INT_EQ(cache_write(vpath, big, sizeof big), 0);
	OK(cache_read(vpath, CACHE_LAYOUT, &vlen) == NULL);
	INT_EQ(cache_write(vpath, "folio-cache 1\n", 14), 0);
	v = cache_read(pack, CACHE_RELATED, &vlen);
	OK(v && vlen == 1);
	free(v);
	free(vpath);
	INT_EQ(cache_write(pack, "kept", 4), 0);

	/* pruning: the state files of the CACHE_KEEP_OUTPUTS newest outputs stay */
	for (int i = 0; i < CACHE_KEEP_OUTPUTS + 3; i++) {
		char name[64];
		snprintf(name, sizeof name, ".folio-cache/output-%016x", i + 1);
		t_write(site, name, "m");
		char *p = t_path(site, name);
		set_old(p, 1000 - i); /* the higher i, the newer */
		free(p);
		snprintf(name, sizeof name, ".folio-cache/pages-%016x", i + 1);
		t_write(site, name, "p");
		p = t_path(site, name);
		set_old(p, 1000 - i);
		free(p);
	}
	t_write(site, ".folio-cache/.tmp-1-2-old", "dead");
	char *dead = t_path(site, ".folio-cache/.tmp-1-2-old");
	set_old(dead, 7200);
	t_write(site, ".folio-cache/.tmp-1-3-new", "writing");
	cache_prune(site);
	OK(!t_exists(site, ".folio-cache/output-0000000000000001"));
	OK(!t_exists(site, ".folio-cache/pages-0000000000000003"));
	OK(t_exists(site, ".folio-cache/output-0000000000000004"));
	OK(t_exists(site, ".folio-cache/pages-000000000000000b"));
	INT_EQ(count_prefix(dir, "output-"), CACHE_KEEP_OUTPUTS);
	INT_EQ(count_prefix(dir, "pages-"), CACHE_KEEP_OUTPUTS);
	OK(!t_exists(site, ".folio-cache/.tmp-1-2-old"));
	OK(t_exists(site, ".folio-cache/.tmp-1-3-new"));
	OK(t_exists(site, ".folio-cache/markdown.pack"));

	/* sweeping a folder: other caches and dead temporary files go */
	t_write(site, ".folio-cache/math/a.cache", "a");
	t_write(site, ".folio-cache/math/b.cache", "b");
	t_write(site, ".folio-cache/math/.tmp-9-9-b.cache", "dead");
	char *tmp = t_path(site, ".folio-cache/math/.tmp-9-9-b.cache");
	set_old(tmp, 7200);
	char *mdir = cache_path(site, CACHE_MATH);
	char *keep = t_path(site, ".folio-cache/math/b.cache");
	cache_sweep(site, CACHE_MATH, keep);
	free(keep);
	OK(!t_exists(site, ".folio-cache/math/a.cache"));
	OK(t_exists(site, ".folio-cache/math/b.cache"));
	OK(!t_exists(site, ".folio-cache/math/.tmp-9-9-b.cache"));

	/* cache_remove */
	cache_remove(pack);
	OK(!t_exists(site, ".folio-cache/markdown.pack"));
	cache_remove(pack); /* already gone: nothing happens */

	free(tmp);
	free(mdir);
	free(dead);
	free(pages);
	free(pages2);
	free(out);
	free(pub_dir);
	free(dir);
	free(pack);
	t_rmtree(site);
	free(site);
}
