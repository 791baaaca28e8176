/* test_live.c: the folder folio serve keeps up to date in place: which
 * folders live_open takes, rounds of writes, keeps and deletions, files
 * left alone when their bytes are the same, abort, copies that skip an
 * unchanged source, paths outside the folder, and writes from threads. */
#include "harness.h"

#include "base/buf.h"
#include "base/diag.h"
#include "output/output.h"

#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static struct buf cap;
static struct diag d;
static char *root;
static char out[600], src[600];

static void dbegin(void)
{
	diag_init(&d, NULL);
	buf_reset(&cap);
	d.capture = &cap;
}

static const char *dend(void)
{
	diag_fini(&d);
	return t_msgs(&cap);
}

/* open_out: a live on out, with the messages captured (dend ends them);
 * NULL, after a failed check, if it cannot be opened. */
static struct live *open_out(void)
{
	dbegin();
	struct live *l = live_open(&d, out);
	OK(l != NULL);
	if (!l)
		dend();
	return l;
}

/* temp_count: files below dir whose names end in ".folio-new". */
static int temp_count(const char *dir)
{
	DIR *dh = opendir(dir);
	if (!dh)
		return 0;
	int n = 0;
	struct dirent *de;
	while ((de = readdir(dh))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		char p[4096];
		snprintf(p, sizeof p, "%s/%s", dir, de->d_name);
		size_t len = strlen(de->d_name);
		if (len >= 10 && !strcmp(de->d_name + len - 10, ".folio-new"))
			n++;
		struct stat st;
		if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
			n += temp_count(p);
	}
	closedir(dh);
	return n;
}

static int count_entries(const char *path)
{
	DIR *dh = opendir(path);
	if (!dh)
		return -1;
	int n = 0;
	struct dirent *de;
	while ((de = readdir(dh)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			n++;
	closedir(dh);
	return n;
}

static int wr(struct live *l, const char *rel, const char *text)
{
	return live_write(l, rel, text, strlen(text));
}

static struct stat stat_of(const char *dir, const char *rel)
{
	char p[4096];
	snprintf(p, sizeof p, "%s/%s", dir, rel);
	struct stat st;
	memset(&st, 0, sizeof st);
	stat(p, &st);
	return st;
}

/* age: sets rel's modification time to an old one, so that a rewrite,
 * however soon, would show. */
static void age(const char *dir, const char *rel)
{
	char p[4096];
	snprintf(p, sizeof p, "%s/%s", dir, rel);
	struct timespec ts[2] = {{1000000000, 0}, {1000000000, 0}};
	utimensat(AT_FDCWD, p, ts, 0);
}

/* unchanged: rel is the same file (inode) with the old time age set. */
static int unchanged(const char *rel, struct stat before)
{
	struct stat now = stat_of(out, rel);
	return now.st_ino == before.st_ino && now.st_mtim.tv_sec == 1000000000 && before.st_mtim.tv_sec == 1000000000;
}

static void test_open(void)
{
	char path[700], want[900];

	/* a folder that is not empty and not folio's is refused, untouched */
	snprintf(path, sizeof path, "%s/precious", root);
	t_write(path, "thesis.tex", "years of work");
	dbegin();
	OK(live_open(&d, path) == NULL);
	snprintf(want, sizeof want,
		 "%s: error: refusing to write the site here: it is not empty and was not made by folio", path);
	STR_EQ(dend(), want);
	STR_EQ(t_read(path, "thesis.tex"), "years of work");
	OK(!t_exists(path, OUTPUT_MARKER));
	INT_EQ(count_entries(path), 1);
	/* a hidden file is enough */
	snprintf(path, sizeof path, "%s/hidden-only", root);
	t_write(path, ".git", "x");
	dbegin();
	OK(live_open(&d, path) == NULL);
	snprintf(want, sizeof want,
		 "%s: error: refusing to write the site here: it is not empty and was not made by folio", path);
	STR_EQ(dend(), want);
	OK(!t_exists(path, OUTPUT_MARKER));
	/* a file */
	snprintf(path, sizeof path, "%s/a-file", root);
	t_write(root, "a-file", "x");
	dbegin();
	OK(live_open(&d, path) == NULL);
	snprintf(want, sizeof want,
		 "%s: error: refusing to write the site here: it is not empty and was not made by folio", path);
	STR_EQ(dend(), want);
	STR_EQ(t_read(root, "a-file"), "x");
	/* a folder whose parent is missing */
	snprintf(path, sizeof path, "%s/no/such/parent", root);
	dbegin();
	OK(live_open(&d, path) == NULL);
	snprintf(want, sizeof want, "%s: error: cannot make the folder: No such file or directory", path);
	STR_EQ(dend(), want);

	/* a missing folder is made, with the marker */
	snprintf(path, sizeof path, "%s/new", root);
	dbegin();
	struct live *l = live_open(&d, path);
	OK(l != NULL);
	STR_EQ(dend(), "");
	OK(t_exists(path, OUTPUT_MARKER));
	INT_EQ(count_entries(path), 1);
	live_close(l);
	OK(t_exists(path, OUTPUT_MARKER)); /* the folder stays */
	/* a folder with the marker (and files) is taken again */
	t_write(path, "old.html", "from before");
	dbegin();
	l = live_open(&d, path);
	OK(l != NULL);
	STR_EQ(dend(), "");
	STR_EQ(t_read(path, "old.html"), "from before");
	live_close(l);
	/* an empty folder is fine */
	snprintf(path, sizeof path, "%s/empty", root);
	mkdir(path, 0755);
	dbegin();
	l = live_open(&d, path);
	OK(l != NULL);
	STR_EQ(dend(), "");
	OK(t_exists(path, OUTPUT_MARKER));
	live_close(l);
}

static void test_rounds(void)
{
	size_t w = 99, r = 99;
	struct live *l = open_out();
	if (!l)
		return;

	/* round 1: new files, folders made on the way */
	INT_EQ(wr(l, "index.html", "home 1"), 0);
	INT_EQ(wr(l, "posts/a/index.html", "post a"), 0);
	INT_EQ(wr(l, "posts/b/deep/index.html", "post b"), 0);
	INT_EQ(wr(l, "style.css", "css"), 0);
	/* nothing in place before the commit: only hidden temporary files */
	OK(!t_exists(out, "index.html"));
	OK(!t_exists(out, "posts/a/index.html"));
	INT_EQ(temp_count(out), 4);
	INT_EQ(live_commit(l, &w, &r), 0);
	INT_EQ(w, 4);
	INT_EQ(r, 0);
	STR_EQ(t_read(out, "index.html"), "home 1");
	STR_EQ(t_read(out, "posts/a/index.html"), "post a");
	STR_EQ(t_read(out, "posts/b/deep/index.html"), "post b");
	STR_EQ(t_read(out, "style.css"), "css");
	OK(t_exists(out, OUTPUT_MARKER));
	INT_EQ(temp_count(out), 0);

	/* round 2: the same bytes: nothing is written, the files stay as they
	 * are (same inode, same time) */
	age(out, "index.html");
	age(out, "posts/a/index.html");
	age(out, "posts/b/deep/index.html");
	age(out, "style.css");
	struct stat home = stat_of(out, "index.html"), pa = stat_of(out, "posts/a/index.html");
	struct stat pb = stat_of(out, "posts/b/deep/index.html"), css = stat_of(out, "style.css");
	/* the same bytes in parts (a page whose post HTML is left where it
	 * is) are the same file */
	struct str same[3] = {STR_LIT("ho"), STR_LIT(""), STR_LIT("me 1")};
	INT_EQ(live_write_parts(l, "index.html", same, 3), 0);
	INT_EQ(wr(l, "posts/a/index.html", "post a"), 0);
	INT_EQ(wr(l, "posts/b/deep/index.html", "post b"), 0);
	INT_EQ(wr(l, "style.css", "css"), 0);
	INT_EQ(temp_count(out), 0);
	w = r = 99;
	INT_EQ(live_commit(l, &w, &r), 0);
	INT_EQ(w, 0);
	INT_EQ(r, 0);
	OK(unchanged("index.html", home));
	OK(unchanged("posts/a/index.html", pa));
	OK(unchanged("posts/b/deep/index.html", pb));
	OK(unchanged("style.css", css));

	/* round 3: one new text, one kept, one left out (deleted with its
	 * empty folders), one written the same */
	struct str parts[2] = {STR_LIT("home 3, "), STR_LIT("longer")};
	INT_EQ(live_write_parts(l, "index.html", parts, 2), 0);
	live_keep(l, "posts/a/index.html");
	INT_EQ(wr(l, "style.css", "css"), 0);
	/* until the commit, the old file is in place */
	STR_EQ(t_read(out, "index.html"), "home 1");
	INT_EQ(temp_count(out), 1);
	w = r = 99;
	INT_EQ(live_commit(l, &w, &r), 0);
	INT_EQ(w, 1);
	INT_EQ(r, 1);
	STR_EQ(t_read(out, "index.html"), "home 3, longer");
	OK(unchanged("posts/a/index.html", pa));
	OK(unchanged("style.css", css));
	OK(!t_exists(out, "posts/b/deep/index.html"));
	OK(!t_exists(out, "posts/b/deep"));
	OK(!t_exists(out, "posts/b"));
	OK(t_exists(out, "posts/a"));
	INT_EQ(count_entries(out), 4); /* marker, index.html, posts, style.css */
	INT_EQ(temp_count(out), 0);

	/* round 4: everything left out but one file: the rest is deleted, the
	 * marker is not; NULL counters are fine */
	INT_EQ(wr(l, "style.css", "css"), 0);
	INT_EQ(live_commit(l, NULL, NULL), 0);
	OK(!t_exists(out, "index.html"));
	OK(!t_exists(out, "posts"));
	OK(t_exists(out, OUTPUT_MARKER));
	INT_EQ(count_entries(out), 2);
	/* a file deleted is new again when it comes back */
	INT_EQ(wr(l, "style.css", "css"), 0);
	INT_EQ(wr(l, "posts/a/index.html", "post a"), 0);
	w = r = 99;
	INT_EQ(live_commit(l, &w, &r), 0);
	INT_EQ(w, 1);
	INT_EQ(r, 0);
	STR_EQ(t_read(out, "posts/a/index.html"), "post a");
	/* keeping a file that is not there does nothing */
	INT_EQ(wr(l, "style.css", "css"), 0);
	INT_EQ(wr(l, "posts/a/index.html", "post a"), 0);
	live_keep(l, "never/written.html");
	w = r = 99;
	INT_EQ(live_commit(l, &w, &r), 0);
	INT_EQ(w, 0);
	INT_EQ(r, 0);
	OK(!t_exists(out, "never"));
	STR_EQ(dend(), "");
	live_close(l);
}

static void test_twice_and_abort(void)
{
	size_t w = 99, r = 99;
	struct live *l = open_out();
	if (!l)
		return;
	/* a new live on a folio folder knows nothing of what is in it: the
	 * first round writes everything */
	INT_EQ(wr(l, "style.css", "css"), 0);
	INT_EQ(wr(l, "posts/a/index.html", "post a"), 0);
	/* a file written twice in a round ends with the second bytes */
	INT_EQ(wr(l, "t.html", "first"), 0);
	INT_EQ(wr(l, "t.html", "second"), 0);
	INT_EQ(temp_count(out), 3);
	INT_EQ(live_commit(l, &w, &r), 0);
	INT_EQ(w, 3);
	STR_EQ(t_read(out, "t.html"), "second");
	INT_EQ(temp_count(out), 0);

	/* other bytes first, then the bytes in place: nothing is written, and
	 * no temporary file is left */
	age(out, "t.html");
	struct stat t = stat_of(out, "t.html");
	INT_EQ(wr(l, "t.html", "something else"), 0);
	INT_EQ(temp_count(out), 1);
	INT_EQ(wr(l, "t.html", "second"), 0);
	INT_EQ(temp_count(out), 0);
	INT_EQ(wr(l, "style.css", "css"), 0);
	INT_EQ(wr(l, "posts/a/index.html", "post a"), 0);
	w = r = 99;
	INT_EQ(live_commit(l, &w, &r), 0);
	INT_EQ(w, 0);
	INT_EQ(r, 0);
	OK(unchanged("t.html", t));
	STR_EQ(t_read(out, "t.html"), "second");

	/* abort: new bytes, a new file, and files left out: nothing changes */
	age(out, "style.css");
	age(out, "posts/a/index.html");
	struct stat css = stat_of(out, "style.css"), pa = stat_of(out, "posts/a/index.html");
	INT_EQ(wr(l, "t.html", "aborted"), 0);
	INT_EQ(wr(l, "new/page.html", "aborted too"), 0);
	INT_EQ(wr(l, "style.css", "css"), 0);
	OK(temp_count(out) == 2);
	live_abort(l);
	INT_EQ(temp_count(out), 0);
	STR_EQ(t_read(out, "t.html"), "second");
	OK(unchanged("t.html", t));
	OK(unchanged("style.css", css));
	OK(unchanged("posts/a/index.html", pa));
	OK(!t_exists(out, "new/page.html"));
	OK(t_exists(out, "posts/a/index.html"));
	/* the folder made for the temporary file goes with it */
	OK(!t_exists(out, "new"));

	/* the round after an abort starts from what is in place */
	INT_EQ(wr(l, "t.html", "second"), 0);
	INT_EQ(wr(l, "style.css", "css"), 0);
	INT_EQ(wr(l, "posts/a/index.html", "post a"), 0);
	INT_EQ(wr(l, "new/page.html", "new page"), 0);
	w = r = 99;
	INT_EQ(live_commit(l, &w, &r), 0);
	INT_EQ(w, 1);
	INT_EQ(r, 0);
	OK(unchanged("t.html", t));
	OK(unchanged("style.css", css));
	STR_EQ(t_read(out, "new/page.html"), "new page");

	/* an abort in the very first round of a file, then it is written */
	INT_EQ(wr(l, "t.html", "second"), 0);
	INT_EQ(wr(l, "style.css", "css"), 0);
	INT_EQ(wr(l, "posts/a/index.html", "post a"), 0);
	INT_EQ(wr(l, "new/page.html", "new page"), 0);
	INT_EQ(wr(l, "later.html", "v1"), 0);
	live_abort(l);
	OK(!t_exists(out, "later.html"));
	INT_EQ(temp_count(out), 0);
	INT_EQ(wr(l, "t.html", "second"), 0);
	INT_EQ(wr(l, "style.css", "css"), 0);
	INT_EQ(wr(l, "posts/a/index.html", "post a"), 0);
	INT_EQ(wr(l, "new/page.html", "new page"), 0);
	INT_EQ(wr(l, "later.html", "v2"), 0);
	w = r = 99;
	INT_EQ(live_commit(l, &w, &r), 0);
	INT_EQ(w, 1);
	INT_EQ(r, 0);
	STR_EQ(t_read(out, "later.html"), "v2");
	STR_EQ(dend(), "");
	live_close(l);
}

static void test_copy(void)
{
	size_t w = 99, r = 99;
	char path[800], gone[800];
	snprintf(path, sizeof path, "%s/logo.svg", src);
	snprintf(gone, sizeof gone, "%s/no-such-file.svg", src);
	t_write(src, "logo.svg", "<svg>one</svg>");
	struct live *l = open_out();
	if (!l)
		return;
	struct stat st;
	OK(stat(path, &st) == 0);
	INT_EQ(live_copy(l, "img/logo.svg", path, &st), 0);
	INT_EQ(live_commit(l, &w, &r), 0);
	INT_EQ(w, 1);
	STR_EQ(t_read(out, "img/logo.svg"), "<svg>one</svg>");

	/* the same source: not read again (a path that cannot be read, with
	 * what stat said of the file before, is not even opened) */
	age(out, "img/logo.svg");
	struct stat placed = stat_of(out, "img/logo.svg");
	INT_EQ(live_copy(l, "img/logo.svg", gone, &st), 0);
	w = r = 99;
	INT_EQ(live_commit(l, &w, &r), 0);
	INT_EQ(w, 0);
	INT_EQ(r, 0);
	OK(unchanged("img/logo.svg", placed));
	STR_EQ(dend(), "");
	/* and with the real path */
	dbegin();
	INT_EQ(live_copy(l, "img/logo.svg", path, &st), 0);
	w = r = 99;
	INT_EQ(live_commit(l, &w, &r), 0);
	INT_EQ(w, 0);
	OK(unchanged("img/logo.svg", placed));

	/* a changed source: read, and the new bytes written */
	t_write(src, "logo.svg", "<svg>two, longer</svg>");
	OK(stat(path, &st) == 0);
	INT_EQ(live_copy(l, "img/logo.svg", path, &st), 0);
	w = r = 99;
	INT_EQ(live_commit(l, &w, &r), 0);
	INT_EQ(w, 1);
	INT_EQ(r, 0);
	STR_EQ(t_read(out, "img/logo.svg"), "<svg>two, longer</svg>");

	/* a source touched but with the same bytes: read, nothing written;
	 * then its new times are the ones remembered */
	age(out, "img/logo.svg");
	placed = stat_of(out, "img/logo.svg");
	struct timespec ts[2] = {{1500000000, 0}, {1500000000, 0}};
	OK(utimensat(AT_FDCWD, path, ts, 0) == 0);
	OK(stat(path, &st) == 0);
	INT_EQ(live_copy(l, "img/logo.svg", path, &st), 0);
	w = r = 99;
	INT_EQ(live_commit(l, &w, &r), 0);
	INT_EQ(w, 0);
	OK(unchanged("img/logo.svg", placed));
	INT_EQ(live_copy(l, "img/logo.svg", gone, &st), 0);
	w = r = 99;
	INT_EQ(live_commit(l, &w, &r), 0);
	INT_EQ(w, 0);
	INT_EQ(r, 0);
	STR_EQ(dend(), "");

	/* a stale stat is no reason to skip a file that was written with
	 * other bytes since: written by live_write, it is read again */
	dbegin();
	INT_EQ(wr(l, "img/logo.svg", "<svg>generated</svg>"), 0);
	INT_EQ(live_commit(l, &w, &r), 0);
	INT_EQ(w, 1);
	INT_EQ(live_copy(l, "img/logo.svg", path, &st), 0);
	INT_EQ(live_commit(l, &w, &r), 0);
	INT_EQ(w, 1);
	STR_EQ(t_read(out, "img/logo.svg"), "<svg>two, longer</svg>");
	/* written with other bytes earlier in the same round, then copied */
	INT_EQ(wr(l, "img/logo.svg", "<svg>generated</svg>"), 0);
	INT_EQ(live_copy(l, "img/logo.svg", path, &st), 0);
	INT_EQ(live_commit(l, &w, &r), 0);
	INT_EQ(w, 0);
	STR_EQ(t_read(out, "img/logo.svg"), "<svg>two, longer</svg>");
	INT_EQ(temp_count(out), 0);
	STR_EQ(dend(), "");

	/* a source that cannot be read is reported */
	dbegin();
	struct stat none;
	memset(&none, 0, sizeof none);
	INT_EQ(live_copy(l, "img/missing.svg", gone, &none), -1);
	char want[900];
	snprintf(want, sizeof want, "%s: error: cannot read: No such file or directory", gone);
	STR_EQ(dend(), want);
	live_abort(l);
	live_close(l);
}

static void test_paths(void)
{
	struct live *l = open_out();
	if (!l)
		return;
	char path[800];
	snprintf(path, sizeof path, "%s/logo.svg", src);
	struct stat st;
	OK(stat(path, &st) == 0);
	INT_EQ(wr(l, "../escape.html", "x"), -1);
	INT_EQ(wr(l, "/etc/escape", "x"), -1);
	INT_EQ(wr(l, "a/../../escape.html", "x"), -1);
	INT_EQ(wr(l, "a/..", "x"), -1);
	INT_EQ(wr(l, "", "x"), -1);
	INT_EQ(live_copy(l, "../escape.svg", path, &st), -1);
	INT_EQ(wr(l, "..dots-are-fine.txt", "y"), 0);
	size_t w = 99, r = 99;
	INT_EQ(live_commit(l, &w, &r), 0);
	INT_EQ(w, 1);
	STR_EQ(dend(), "../escape.html: error: refusing to write outside the output folder\n"
		       "/etc/escape: error: refusing to write outside the output folder\n"
		       "a/../../escape.html: error: refusing to write outside the output folder\n"
		       "a/..: error: refusing to write outside the output folder\n"
		       ": error: refusing to write outside the output folder\n"
		       "../escape.svg: error: refusing to write outside the output folder");
	OK(!t_exists(root, "escape.html"));
	OK(!t_exists(root, "escape.svg"));
	OK(!t_exists(root, ".escape.html.folio-new"));
	OK(!t_exists("/etc", ".escape.folio-new"));
	STR_EQ(t_read(out, "..dots-are-fine.txt"), "y");
	INT_EQ(temp_count(root), 0);
	live_close(l);
}

/* a path too long for the system is refused, not cut short */
static void test_long_path(void)
{
	struct live *l = open_out();
	if (!l)
		return;
	char rel[4200];
	size_t n = 0;
	while (n < 4080)
		n += (size_t)snprintf(rel + n, sizeof rel - n, "a/");
	snprintf(rel + n, sizeof rel - n, "index.html");
	INT_EQ(wr(l, rel, "x"), -1);
	const char *msg = dend();
	OK(strstr(msg, "index.html: error: cannot write: File name too long (the last good build is still served)") !=
	   NULL);
	OK(!t_exists(out, "a"));
	INT_EQ(temp_count(root), 0);
	live_close(l);
}

/* ---- writes from several threads ---- */

struct writer {
	struct live *l;
	int id, round, failed;
};

static void *writer_run(void *arg)
{
	struct writer *wt = arg;
	for (int i = 0; i < 200; i++) {
		char rel[64], text[64];
		snprintf(rel, sizeof rel, "t%d/p%d/index.html", wt->id, i);
		/* every third file changes from round to round */
		snprintf(text, sizeof text, "thread %d page %d round %d", wt->id, i, i % 3 ? 0 : wt->round);
		wt->failed += live_write(wt->l, rel, text, strlen(text)) != 0;
	}
	return NULL;
}

static void test_threads(void)
{
	char dir[700];
	snprintf(dir, sizeof dir, "%s/threads", root);
	dbegin();
	struct live *l = live_open(&d, dir);
	OK(l != NULL);
	if (!l) {
		dend();
		return;
	}
	for (int round = 1; round <= 2; round++) {
		struct writer wt[4];
		pthread_t th[4];
		for (int i = 0; i < 4; i++) {
			wt[i] = (struct writer){l, i, round, 0};
			pthread_create(&th[i], NULL, writer_run, &wt[i]);
		}
		for (int i = 0; i < 4; i++) {
			pthread_join(th[i], NULL);
			INT_EQ(wt[i].failed, 0);
		}
		size_t w = 0, r = 99;
		INT_EQ(live_commit(l, &w, &r), 0);
		INT_EQ(w, round == 1 ? 800 : 4 * 67);
		INT_EQ(r, 0);
	}
	STR_EQ(t_read(dir, "t3/p199/index.html"), "thread 3 page 199 round 0");
	STR_EQ(t_read(dir, "t2/p198/index.html"), "thread 2 page 198 round 2");
	INT_EQ(temp_count(dir), 0);
	STR_EQ(dend(), "");
	live_close(l);
}

/* Files gone and made again: a file left out of a round is deleted, its
 * entry kept until a quarter of the entries are of files gone (then
 * dropped at once); a file of the same path made again afterwards is
 * new (written, staged, kept only once it exists), through either. */
static void test_gone_and_back(void)
{
	size_t w = 99, r = 99;
	char dir[700];
	snprintf(dir, sizeof dir, "%s/gone", root);
	dbegin();
	struct live *l = live_open(&d, dir);
	if (!l) {
		OK(0);
		return;
	}
	char rel[64];
	for (int i = 0; i < 400; i++) {
		snprintf(rel, sizeof rel, "p/%d.html", i);
		INT_EQ(live_write(l, rel, "v1", 2), 0);
	}
	INT_EQ(live_commit(l, &w, &r), 0);
	INT_EQ(w, 400);
	/* rounds that drop ten files each (p/0..p/9, then p/10.., ...) and
	 * keep the others; each round one dropped file comes back */
	int bad = 0;
	for (int k = 0; k < 30; k++) {
		for (int i = 0; i < 400; i++) {
			snprintf(rel, sizeof rel, "p/%d.html", i);
			if (i < 10 * k || i >= 10 * k + 10)
				live_keep(l, rel);
		}
		if (k) { /* one of the last round's ten, back with new bytes */
			snprintf(rel, sizeof rel, "p/%d.html", 10 * (k - 1));
			OK(live_keep_if(l, rel) != 0); /* gone: not kept */
			INT_EQ(live_write(l, rel, "v2", 2), 0);
		}
		w = r = 99;
		INT_EQ(live_commit(l, &w, &r), 0);
		bad += (int)r != 10 || (int)w != (k ? 1 : 0);
		snprintf(rel, sizeof rel, "p/%d.html", 10 * k);
		bad += t_exists(dir, rel);
		if (k) {
			snprintf(rel, sizeof rel, "p/%d.html", 10 * (k - 1));
			bad += strcmp(t_read(dir, rel), "v2") != 0;
			OK(live_keep_if(l, rel) == 0); /* in place: kept */
		}
	}
	INT_EQ(bad, 0);
	/* the last round: only the files brought back and never dropped */
	int n = 0;
	for (int i = 0; i < 400; i++) {
		snprintf(rel, sizeof rel, "p/%d.html", i);
		n += t_exists(dir, rel);
	}
	INT_EQ(n, 400 - 300 + 29);
	INT_EQ(temp_count(dir), 0);
	live_close(l);
	STR_EQ(dend(), "");
}

void test_live(void)
{
	t_current = "live";
	buf_init(&cap);
	root = t_tmpdir();
	snprintf(out, sizeof out, "%s/out", root);
	snprintf(src, sizeof src, "%s/src", root);
	test_open();
	test_rounds();
	test_twice_and_abort();
	test_copy();
	test_paths();
	test_long_path();
	test_threads();
	test_gone_and_back();
	t_rmtree(root);
	free(root);
	root = NULL;
	buf_fini(&cap);
}
