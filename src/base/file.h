/* file.h: the one writer of new files outside output/ and cache/ (the
 * files of folio new, folio theme export and folio import): one policy
 * for short writes (write_full), for files that exist (never
 * overwritten) and for failures (no partial file left). */
#ifndef FOLIO_FILE_H
#define FOLIO_FILE_H

#include <stddef.h>

/* What failed, as the callers word their messages: FILE_FAIL_DIR making
 * a parent folder, FILE_FAIL_CREATE creating the file, FILE_FAIL_WRITE
 * writing, closing or renaming it. FILE_OK (0) when nothing did. */
enum file_fail { FILE_OK = 0, FILE_FAIL_DIR, FILE_FAIL_CREATE, FILE_FAIL_WRITE };

/* The temporary file_replace writes before its rename: PATH followed by
 * this. */
#define FILE_TEMP_SUFFIX ".folio-new"

/* file_create_new: makes path (mode 0644) with data[0..len), after the
 * folders on the way to it that are missing (0755). Never over anything
 * that exists (O_EXCL: EEXIST, even for a dangling link). All of data is
 * written, again after EINTR and short writes (write_full, and so its
 * test hook FOLIO_FAIL_WRITE_AFTER). FILE_OK, or the step that failed
 * with errno set; after FILE_FAIL_WRITE the partial file is removed. */
int file_create_new(const char *path, const void *data, size_t len);

/* file_replace: path's contents made data[0..len) at once: written to
 * path FILE_TEMP_SUFFIX (truncated if it is there) and renamed over
 * path, so that a reader sees the old file or the new one, never a part.
 * Makes no folder. FILE_OK; FILE_FAIL_CREATE when the temporary cannot be
 * made, FILE_FAIL_WRITE when writing, closing or the rename fails (the
 * temporary removed); errno set. */
int file_replace(const char *path, const void *data, size_t len);

/* file_dir_empty: whether the folder dir, where new files are to go, has
 * no entry: 1 when it has none, 0 when it has one, -1 when it cannot be
 * read (errno: ENOENT when it does not exist, ENOTDIR when it is no
 * folder). */
int file_dir_empty(const char *dir);

/* file_fail_what: the words for a failed step, "cannot make its folder",
 * "cannot create" or "cannot write" (a literal), for messages of the
 * form "PATH: error: WHAT: strerror". */
const char *file_fail_what(int fail);

#endif
