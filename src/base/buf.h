/* buf.h: text as pointer+length (struct str), and a growable byte buffer. */
#ifndef FOLIO_BUF_H
#define FOLIO_BUF_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* A view of bytes owned by someone else: a file read whole, an arena, a
 * literal. Not NUL-terminated in general. */
struct str {
	const char *p;
	size_t len;
};

#define STR_LIT(s) ((struct str){(s), sizeof(s) - 1})
#define STR_FMT(s) (int)(s).len, (s).p /* for printf's "%.*s" */

struct str str_from(const char *cstr);
/* str_eq: whether a and b hold the same bytes (in line: the template
 * engine's lookups call it for every name) */
static inline int str_eq(struct str a, struct str b)
{
	return a.len == b.len && (a.len == 0 || a.p == b.p || memcmp(a.p, b.p, a.len) == 0);
}
int str_eq_cstr(struct str a, const char *cstr);
/* byte_in: whether c is one of the bytes of set; a NUL never is (strchr
 * alone finds it: the set's own end) */
static inline int byte_in(const char *set, char c)
{
	return c && strchr(set, c) != NULL;
}
int str_cmp(struct str a, struct str b);
int str_starts_with(struct str s, const char *prefix);
struct str str_trim(struct str s);

/* A growable buffer that owns its bytes. p is always NUL-terminated after
 * any append (p[len] == 0), so buf.p can be handed to libc. */
struct buf {
	char *p;
	size_t len, cap;
};

void buf_init(struct buf *b);
void buf_fini(struct buf *b);              /* frees the bytes; b is empty */
void buf_reset(struct buf *b);             /* len = 0, keeps the memory */
void buf_reserve(struct buf *b, size_t n); /* room for n more bytes */
void buf_append(struct buf *b, const void *p, size_t n);
void buf_puts(struct buf *b, const char *s);
void buf_putc(struct buf *b, int c);
void buf_put_str(struct buf *b, struct str s);
void buf_printf(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void buf_vprintf(struct buf *b, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
/* buf_put_int: v in decimal, as printf's "%0*lld" with width (the sign
 * counts in it): without printf's cost, for the many numbers of a page. */
void buf_put_int(struct buf *b, long long v, int width);
/* buf_vformat: fmt and ap formatted (vprintf) into a new NUL-terminated
 * string, handed to the caller (free with free()); its length in *len
 * when len is not NULL. */
char *buf_vformat(size_t *len, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
/* buf_put_html: appends s with & < > " ' escaped for HTML text and attributes. */
void buf_put_html(struct buf *b, const char *s, size_t n);
/* html_escaped_len: how long s is once buf_put_html has escaped it. */
size_t html_escaped_len(const char *s, size_t n);
/* buf_put_html_text: the same without ' (as cmark escapes text), for HTML
 * that must match cmark's byte for byte. */
void buf_put_html_text(struct buf *b, const char *s, size_t n);
/* html_esc_run: the length of the leading run of s[0..n) that HTML
 * escaping leaves as it is, for escapers that write elsewhere than a buf.
 * If the run ends before n, *rep is what the byte there becomes, or NULL
 * for a newline (a stop only with HTML_ESC_NL); otherwise *rep is NULL.
 * & < > " are always escaped; ' (as &#39;) with HTML_ESC_APOS. */
enum { HTML_ESC_APOS = 2, HTML_ESC_NL = 4 };
size_t html_esc_run(const char *s, size_t n, unsigned flags, const char **rep);
/* buf_put_json: appends s[0..n) as a JSON string, quotes included: " and
 * backslash escaped with a backslash, newline, carriage return and tab as
 * \n \r \t (as \u000a ... with JSON_ESC_CONTROL_U), the other control
 * characters as \u00XX (lowercase hex); with JSON_ESC_HTML also & ' < > as
 * \u00XX, so that the string is safe inside HTML (a <script> element, an
 * attribute). Every other byte, UTF-8 and '/' included, is kept. */
enum { JSON_ESC_HTML = 1, JSON_ESC_CONTROL_U = 2 };
void buf_put_json(struct buf *b, const char *s, size_t n, unsigned flags);
struct str buf_str(const struct buf *b);
/* buf_detach: hands the bytes to the caller (free with free()); b is empty. */
char *buf_detach(struct buf *b, size_t *len);
struct arena;
/* buf_to_arena: b's bytes copied into the arena a (NUL-terminated, owned
 * by a); b is freed (empty). */
struct str buf_to_arena(struct buf *b, struct arena *a);
/* buf_sep: appends sep when one is pending (*pending: a run of spaces or
 * separators was seen) and b is not empty (none at the start), then
 * clears *pending: for texts whose runs of spacing become one separator. */
void buf_sep(struct buf *b, int *pending, char sep);

/* read_file: reads a whole file into a malloc'd NUL-terminated buffer owned
 * by the caller. Returns NULL and sets errno on failure: EISDIR for a
 * folder, FOLIO_ENOTREG for anything else that is not a regular file (a
 * named pipe, which would never end or wait for a writer; a socket; a
 * device such as /dev/zero). Show errno with file_strerror. */
char *read_file(const char *path, size_t *len);

/* The largest file folio parses: a post, page or series, folio.yml, a data
 * file or a template (static files are copied, not read). The longest real
 * posts are some 200 KB; 16 MiB stops a file that is not one (a log, a
 * dump) before it takes gigabytes of memory. See folio-site(5), LIMITS. */
/* load_u64, load_u32, load_u16: a number as the cache files keep them (in the
 * machine's byte order) at p, which need not be aligned. */
static inline uint64_t load_u64(const void *p)
{
	uint64_t v;
	memcpy(&v, p, sizeof v);
	return v;
}

static inline uint32_t load_u32(const void *p)
{
	uint32_t v;
	memcpy(&v, p, sizeof v);
	return v;
}

static inline uint16_t load_u16(const void *p)
{
	uint16_t v;
	memcpy(&v, p, sizeof v);
	return v;
}

#define FOLIO_MAX_FILE ((size_t)16 << 20)

/* read_file_max: read_file, but at most max + 1 bytes: *len > max means
 * the file is larger than max (the buffer holds its first max + 1 bytes). */
char *read_file_max(const char *path, size_t max, size_t *len);

/* read_file_arena: read_file_max into memory of the arena a (freed with
 * it). */
struct arena;
char *read_file_arena(struct arena *a, const char *path, size_t max, size_t *len);

/* open_regular: path opened for reading, if it is a regular file (after
 * links): a descriptor, or -1 with errno set as read_file sets it. Never
 * waits, even for a named pipe. */
int open_regular(const char *path);

/* utf8_bad: the offset of the first byte of p[0..len) that is not part of
 * valid UTF-8 (overlong forms, surrogates and code points past U+10FFFF
 * are not), or len when all of it is. */
size_t utf8_bad(const char *p, size_t len);

/* text_encoding: the name of the encoding that the start of p[0..len)
 * shows is not UTF-8 ("UTF-16LE", "UTF-16BE", "UTF-32LE", "UTF-32BE": a
 * byte order mark, or NUL bytes between ASCII characters), else NULL. */
const char *text_encoding(const char *p, size_t len);

/* FOLIO_ENOTREG: the errno of open_regular and read_file for a path that
 * is neither a regular file nor a folder; not one of the system's. */
#define FOLIO_ENOTREG 4095

/* file_strerror: strerror, and what FOLIO_ENOTREG means. */
const char *file_strerror(int err);

/* write_full: writes all of data to fd, again after EINTR and short
 * writes. 0, or -1 with errno set. Every file folio writes goes through
 * it, so the test hook FOLIO_FAIL_WRITE_AFTER=BYTES (a full disk after
 * BYTES bytes: ENOSPC) is here. */
int write_full(int fd, const void *data, size_t len);

/* path_absolute: dir as an absolute path without symbolic links; one that
 * does not exist yet is its parent's real path and its own name. malloc'd,
 * or NULL when not even the parent resolves. */
char *path_absolute(const char *dir);

#endif
