/* folder.c: the folder target: each file copied to a temporary name
 * beside its place and renamed over it (a reader sees the old file or
 * the new one, never a part), each deletion a file the record says an
 * earlier deploy put there; folders left empty by a deletion go too. */
#include "deploy/internal.h"

#include "base/buf.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* make_parents: the folders of dest/rel made, below dest. 0, or -1 with
 * errno (ENOTDIR: a file where a folder goes). */
static int make_parents(const char *dest, const char *rel)
{
	char p[PATH_MAX];
	size_t skip = strlen(dest) + 1;
	if (snprintf(p, sizeof p, "%s/%s", dest, rel) >= (int)sizeof p) {
		errno = ENAMETOOLONG;
		return -1;
	}
	for (char *s = p + skip; (s = strchr(s, '/')); s++) {
		*s = '\0';
		int rc = mkdir(p, 0755);
		int e = errno;
		*s = '/';
		if (rc != 0 && e != EEXIST) {
			errno = e;
			return -1;
		}
	}
	return 0;
}

/* copy_file: the output's rel written to dest/rel through a temporary
 * file beside it. 0, or -1 with errno. */
static int copy_file(const char *out, const char *dest, const char *rel)
{
	char path[PATH_MAX], tmp[PATH_MAX + 64];
	if (snprintf(path, sizeof path, "%s/%s", dest, rel) >= (int)sizeof path) {
		errno = ENAMETOOLONG;
		return -1;
	}
	const char *slash = strrchr(path, '/');
	snprintf(tmp, sizeof tmp, "%.*s/.%s.folio-deploy-%ld", (int)(slash - path), path, slash + 1, (long)getpid());
	if (make_parents(dest, rel) != 0)
		return -1;
	int in = output_open(out, rel);
	if (in < 0)
		return -1;
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0) {
		int e = errno;
		close(in);
		errno = e;
		return -1;
	}
	char chunk[65536];
	ssize_t r;
	int rc = 0;
	while (rc == 0 && (r = read(in, chunk, sizeof chunk)) != 0) {
		if (r < 0 && errno == EINTR)
			continue;
		rc = r < 0 ? -1 : write_full(fd, chunk, (size_t)r);
	}
	int e = errno;
	close(in);
	if (close(fd) != 0 && rc == 0) {
		rc = -1;
		e = errno;
	}
	if (rc == 0 && rename(tmp, path) != 0) {
		rc = -1;
		e = errno;
	}
	if (rc != 0)
		unlink(tmp);
	errno = e;
	return rc;
}

/* delete_file: dest/rel removed if it is a file (gone already: done),
 * then its folders that are left empty, up to dest (not dest). */
static int delete_file(const char *dest, const char *rel)
{
	char p[PATH_MAX];
	if (snprintf(p, sizeof p, "%s/%s", dest, rel) >= (int)sizeof p) {
		errno = ENAMETOOLONG;
		return -1;
	}
	struct stat st;
	if (lstat(p, &st) != 0)
		return errno == ENOENT ? 0 : -1;
	if (S_ISDIR(st.st_mode)) {
		errno = EISDIR; /* a folder now, which folio did not make there */
		return -1;
	}
	if (unlink(p) != 0)
		return -1;
	size_t skip = strlen(dest);
	for (char *s = strrchr(p, '/'); s && (size_t)(s - p) > skip; s = strrchr(p, '/')) {
		*s = '\0';
		if (rmdir(p) != 0)
			break; /* not empty: what is left in it stays */
	}
	return 0;
}

/* make_dest: the target folder made, with the folders above it. */
static int make_dest(const char *dest)
{
	char p[PATH_MAX];
	if (snprintf(p, sizeof p, "%s/", dest) >= (int)sizeof p) {
		errno = ENAMETOOLONG;
		return -1;
	}
	for (char *s = strchr(p + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		int rc = mkdir(p, 0755);
		int e = errno;
		*s = '/';
		if (rc != 0 && e != EEXIST) {
			errno = e;
			return -1;
		}
	}
	struct stat st;
	if (stat(dest, &st) != 0)
		return -1;
	if (!S_ISDIR(st.st_mode)) {
		errno = ENOTDIR;
		return -1;
	}
	return 0;
}

int deploy_folder(struct deploy_ctx *c, const char *dest)
{
	if (make_dest(dest) != 0) {
		deploy_error(c->d, dest, "cannot make the deploy folder: %s (hint: check deploy.folder in folio.yml, and "
			     "that you may write there)", strerror(errno));
		return -1;
	}
	for (size_t i = 0; i < c->plan->n; i++) {
		struct deploy_action *a = &c->plan->v[i];
		int up = a->op == DEPLOY_UPLOAD;
		int rc = up ? copy_file(c->out_abs, dest, a->rel) : delete_file(dest, a->rel);
		if (rc == 0) {
			a->state = DEPLOY_DONE;
			continue;
		}
		int e = errno;
		a->state = DEPLOY_TRIED;
		char p[PATH_MAX + 8];
		snprintf(p, sizeof p, "%s/%s", dest, a->rel);
		deploy_error(c->d, p, "cannot %s it: %s (hint: %s)", up ? "copy the site's file to" : "delete",
			     strerror(e),
			     e == EISDIR   ? "a folder stands there, which folio did not put there: move it away"
			     : e == ENOSPC ? "the disk is full: make room"
			     : e == EACCES || e == EPERM || e == EROFS ? "you may not write there: check its permissions"
			     : e == ENOTDIR ? "a file stands where a folder goes: move it away"
					    : "fix the cause");
		return -1;
	}
	return 0;
}
