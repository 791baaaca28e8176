/* stamp.h: stamps of files, of folio itself and of a site's inputs: hashes
 * of what a build may read (names, sizes, times, inodes), that tell
 * whether anything changed since, and hashes of the bytes of those that
 * did, to tell a touched file from a changed one. The file system side of
 * rebuild.h, which decides with them. */
#ifndef FOLIO_STAMP_H
#define FOLIO_STAMP_H

#include <stdint.h>
#include "base/hash.h"

/* stamp_binary: a hash that tells folio's own executable from any other
 * build (its GNU build ID, else the file's bytes); never 0. Once per
 * process. */
uint64_t stamp_binary(void);

/* stamp_files: adds every file below dir (path, size, time, inode) to h;
 * links are followed as output_copy_tree follows them. A missing dir adds
 * nothing. */
void stamp_files(struct hasher *h, const char *dir);

/* One file or folder below a site folder, as a build may read it. */
struct stamp_entry {
	char *path;       /* below the site folder, '/' between names (malloc'd) */
	int64_t sig[7];   /* mode, size, modification and change times (ns),
	                   * inode, device; a folder its mode only; [6] 1: a
	                   * dangling link */
	uint64_t content; /* (for the caller: a hash of its bytes, 0: unknown) */
};
struct stamp_list {
	struct stamp_entry *e;
	size_t n, cap;
};

/* stamp_site: every file and folder below site_dir that a build may read
 * (names starting with '.' aside, as folio skips them), in name order,
 * leaving out out_dir when it is inside, into l (contents 0). 0, or -1
 * when the tree cannot be read whole (a loop of links, a tree too deep;
 * l is then empty). */
int stamp_site(struct stamp_list *l, const char *site_dir, const char *out_dir);
void stamp_list_free(struct stamp_list *l);

/* stamp_hash_list: the names and stamps of l added to h. */
void stamp_hash_list(struct hasher *h, const struct stamp_list *l);

/* stamp_sig: the stamp of a file as stamp_site gives it. */
struct stat;
void stamp_sig(const struct stat *st, int64_t sig[7]);

/* stamp_content: a hash of the bytes of the regular file site_dir/rel,
 * if its stamp is still sig once they are read; else 0 (changed since,
 * or unreadable). */
uint64_t stamp_content(const char *site_dir, const char *rel, const int64_t sig[7]);

#endif
