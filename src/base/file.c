/* file.c: the writer of new files (see file.h). */
#include "base/file.h"

#include "base/buf.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* make_parents: the folders on the way to path, each made if missing.
 * 0, or -1 with errno set. */
static int make_parents(const char *path)
{
	size_t n = strlen(path);
	char *tmp = malloc(n + 1);
	if (!tmp) {
		errno = ENOMEM;
		return -1;
	}
	memcpy(tmp, path, n + 1);
	int rc = 0;
	for (char *p = n ? strchr(tmp + 1, '/') : NULL; p && !rc; p = strchr(p + 1, '/')) {
		*p = '\0';
		if (mkdir(tmp, 0755) != 0 && errno != EEXIST)
			rc = -1;
		*p = '/';
	}
	int err = errno;
	free(tmp);
	errno = err;
	return rc;
}

/* write_close: data written to fd, which is closed either way. 0, or -1
 * with errno that of the first failure. */
static int write_close(int fd, const void *data, size_t len)
{
	int rc = write_full(fd, data, len);
	int err = errno;
	if (close(fd) != 0 && rc == 0) {
		rc = -1;
		err = errno;
	}
	errno = err;
	return rc;
}

/* gone: removes path after a failure, keeping the failure's errno. */
static void gone(const char *path)
{
	int err = errno;
	unlink(path);
	errno = err;
}

int file_create_new(const char *path, const void *data, size_t len)
{
	if (make_parents(path))
		return FILE_FAIL_DIR;
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		return FILE_FAIL_CREATE;
	if (write_close(fd, data, len)) {
		gone(path);
		return FILE_FAIL_WRITE;
	}
	return FILE_OK;
}

int file_replace(const char *path, const void *data, size_t len)
{
	size_t n = strlen(path);
	char *tmp = malloc(n + sizeof FILE_TEMP_SUFFIX);
	if (!tmp) {
		errno = ENOMEM;
		return FILE_FAIL_CREATE;
	}
	memcpy(tmp, path, n);
	memcpy(tmp + n, FILE_TEMP_SUFFIX, sizeof FILE_TEMP_SUFFIX);
	int rc = FILE_OK;
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		rc = FILE_FAIL_CREATE;
	else if (write_close(fd, data, len) || rename(tmp, path) != 0) {
		gone(tmp);
		rc = FILE_FAIL_WRITE;
	}
	int err = errno;
	free(tmp);
	errno = err;
	return rc;
}

int file_dir_empty(const char *dir)
{
	DIR *dh = opendir(dir);
	if (!dh)
		return -1;
	int empty = 1;
	struct dirent *de;
	while (empty && (de = readdir(dh)))
		empty = !strcmp(de->d_name, ".") || !strcmp(de->d_name, "..");
	closedir(dh);
	return empty;
}

const char *file_fail_what(int fail)
{
	switch (fail) {
	case FILE_FAIL_DIR: return "cannot make its folder";
	case FILE_FAIL_CREATE: return "cannot create";
	default: return "cannot write";
	}
}
