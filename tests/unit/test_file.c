/* test_file.c: the writer of new files (base/file.c). */
#include "harness.h"

#include "base/file.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

/* file_create_new: the folders on the way made, the bytes written; an
 * existing file, folder or dangling link never written over. */
static void create_new(const char *dir)
{
	char p[700], q[700];
	snprintf(p, sizeof p, "%s/a/b/c.txt", dir);
	INT_EQ(file_create_new(p, "hello", 5), FILE_OK);
	STR_EQ(t_read(dir, "a/b/c.txt"), "hello");
	errno = 0;
	INT_EQ(file_create_new(p, "other", 5), FILE_FAIL_CREATE);
	INT_EQ(errno, EEXIST);
	STR_EQ(t_read(dir, "a/b/c.txt"), "hello");

	snprintf(q, sizeof q, "%s/a/link", dir);
	OK(symlink("nowhere", q) == 0);
	INT_EQ(file_create_new(q, "x", 1), FILE_FAIL_CREATE);
	INT_EQ(errno, EEXIST);
	snprintf(q, sizeof q, "%s/a/nowhere", dir);
	OK(access(q, F_OK) != 0);

	snprintf(q, sizeof q, "%s/a/empty", dir);
	INT_EQ(file_create_new(q, NULL, 0), FILE_OK);
	STR_EQ(t_read(dir, "a/empty"), "");

	/* a file where a folder must be made, or where one is */
	snprintf(q, sizeof q, "%s/a/b/c.txt/x/d.txt", dir);
	INT_EQ(file_create_new(q, "x", 1), FILE_FAIL_DIR);
	INT_EQ(errno, ENOTDIR);
	snprintf(q, sizeof q, "%s/a/b/c.txt/d.txt", dir);
	INT_EQ(file_create_new(q, "x", 1), FILE_FAIL_CREATE);
	INT_EQ(errno, ENOTDIR);
	STR_EQ(file_fail_what(FILE_FAIL_DIR), "cannot make its folder");
	STR_EQ(file_fail_what(FILE_FAIL_CREATE), "cannot create");
	STR_EQ(file_fail_what(FILE_FAIL_WRITE), "cannot write");
}

/* A write cut short (a file size limit: the first bytes written, then
 * EFBIG) fails, and leaves no part of the file behind; file_replace leaves
 * the old file and no temporary. */
static void short_write(const char *dir)
{
	char p[700], q[700];
	snprintf(p, sizeof p, "%s/short.txt", dir);
	snprintf(q, sizeof q, "%s/kept.txt", dir);
	INT_EQ(file_create_new(q, "old", 3), FILE_OK);
	struct rlimit was, lim;
	OK(getrlimit(RLIMIT_FSIZE, &was) == 0);
	lim = was;
	lim.rlim_cur = 4;
	void (*old)(int) = signal(SIGXFSZ, SIG_IGN);
	OK(setrlimit(RLIMIT_FSIZE, &lim) == 0);
	int created = file_create_new(p, "0123456789", 10);
	int e1 = errno;
	int replaced = file_replace(q, "0123456789", 10);
	int e2 = errno;
	setrlimit(RLIMIT_FSIZE, &was);
	signal(SIGXFSZ, old);
	INT_EQ(created, FILE_FAIL_WRITE);
	INT_EQ(e1, EFBIG);
	OK(!t_exists(dir, "short.txt"));
	INT_EQ(replaced, FILE_FAIL_WRITE);
	INT_EQ(e2, EFBIG);
	STR_EQ(t_read(dir, "kept.txt"), "old");
	OK(!t_exists(dir, "kept.txt" FILE_TEMP_SUFFIX));
}

/* file_replace: the new contents at once, over an old file or none, a
 * stale temporary truncated; no folder made. */
static void replace(const char *dir)
{
	char p[700];
	snprintf(p, sizeof p, "%s/r.txt", dir);
	INT_EQ(file_replace(p, "one", 3), FILE_OK);
	STR_EQ(t_read(dir, "r.txt"), "one");
	t_write(dir, "r.txt" FILE_TEMP_SUFFIX, "a stale temporary, longer");
	INT_EQ(file_replace(p, "two", 3), FILE_OK);
	STR_EQ(t_read(dir, "r.txt"), "two");
	OK(!t_exists(dir, "r.txt" FILE_TEMP_SUFFIX));
	snprintf(p, sizeof p, "%s/no/such/r.txt", dir);
	INT_EQ(file_replace(p, "x", 1), FILE_FAIL_CREATE);
	INT_EQ(errno, ENOENT);
}

/* file_dir_empty: a folder without entries, one with a hidden file, one
 * missing, a file. */
static void dir_empty(const char *dir)
{
	char p[700];
	snprintf(p, sizeof p, "%s/e", dir);
	OK(mkdir(p, 0755) == 0);
	INT_EQ(file_dir_empty(p), 1);
	t_write(dir, "e/.hidden", "x");
	INT_EQ(file_dir_empty(p), 0);
	snprintf(p, sizeof p, "%s/none", dir);
	errno = 0;
	INT_EQ(file_dir_empty(p), -1);
	INT_EQ(errno, ENOENT);
	snprintf(p, sizeof p, "%s/e/.hidden", dir);
	INT_EQ(file_dir_empty(p), -1);
	INT_EQ(errno, ENOTDIR);
}

void test_file(void)
{
	t_current = "file";
	char *dir = t_tmpdir();
	create_new(dir);
	short_write(dir);
	replace(dir);
	dir_empty(dir);
	t_rmtree(dir);
	free(dir);
}
