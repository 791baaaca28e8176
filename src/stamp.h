/* stamp.h: stamps of files, of folio itself and of a site's inputs: hashes
 * of what a build may read (names, sizes, times, inodes; never contents),
 * that tell whether anything changed since. The file system side of
 * rebuild.h, which decides with them. */
#ifndef FOLIO_STAMP_H
#define FOLIO_STAMP_H

#include <stdint.h>
#include <xxhash.h>

/* stamp_binary: a hash that tells folio's own executable from any other
 * build (its GNU build ID, else the file's bytes); never 0. Once per
 * process. */
uint64_t stamp_binary(void);

/* stamp_files: adds every file below dir (path, size, time, inode) to h;
 * links are followed as output_copy_tree follows them. A missing dir adds
 * nothing. */
void stamp_files(XXH3_state_t *h, const char *dir);

/* stamp_site: the stamp of every file below site_dir that a build may read
 * (names starting with '.' aside, as folio skips them), in name order,
 * leaving out out_dir when it is inside, added to h. 0, or -1 when the
 * tree cannot be read whole (a loop of links, a tree too deep). */
int stamp_site(XXH3_state_t *h, const char *site_dir, const char *out_dir);

#endif
