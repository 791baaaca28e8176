/* buf.c: struct str helpers and the growable buffer. */
#include "base/buf.h"

#include <utf8proc.h>

#include "base/arena.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdatomic.h>
#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <sys/stat.h>
#include <time.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

struct str str_from(const char *cstr)
{
	struct str s = {cstr, cstr ? strlen(cstr) : 0};
	return s;
}

int str_eq_cstr(struct str a, const char *cstr)
{
	return str_eq(a, str_from(cstr));
}

int str_cmp(struct str a, struct str b)
{
	size_t n = a.len < b.len ? a.len : b.len;
	int c = n ? memcmp(a.p, b.p, n) : 0;
	if (c)
		return c;
	return a.len < b.len ? -1 : a.len > b.len;
}

int str_starts_with(struct str s, const char *prefix)
{
	size_t n = strlen(prefix);
	return s.len >= n && memcmp(s.p, prefix, n) == 0;
}

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

struct str str_trim(struct str s)
{
	while (s.len && is_space(s.p[0])) {
		s.p++;
		s.len--;
	}
	while (s.len && is_space(s.p[s.len - 1]))
		s.len--;
	return s;
}

void buf_init(struct buf *b)
{
	b->p = NULL;
	b->len = b->cap = 0;
}

void buf_fini(struct buf *b)
{
	free(b->p);
	buf_init(b);
}

void buf_reset(struct buf *b)
{
	b->len = 0;
	if (b->p)
		b->p[0] = '\0';
}

/* grow: makes room for n more bytes (the slow path of reserve). */
static void __attribute__((noinline)) grow(struct buf *b, size_t n)
{
	size_t cap = b->cap ? b->cap : 64;
	while (cap - b->len <= n) {
		if (cap > ((size_t)-1) / 2) {
			fputs("folio: out of memory\n", stderr);
			exit(1);
		}
		cap *= 2;
	}
	b->p = xrealloc(b->p, cap);
	b->cap = cap;
}

static inline void reserve(struct buf *b, size_t n)
{
	if (b->cap - b->len <= n)
		grow(b, n);
}

void buf_reserve(struct buf *b, size_t n)
{
	reserve(b, n);
}

void buf_append(struct buf *b, const void *p, size_t n)
{
	reserve(b, n);
	if (n)
		memcpy(b->p + b->len, p, n);
	b->len += n;
	b->p[b->len] = '\0';
}

void buf_puts(struct buf *b, const char *s)
{
	buf_append(b, s, strlen(s));
}

void buf_putc(struct buf *b, int c)
{
	reserve(b, 1);
	b->p[b->len++] = (char)c;
	b->p[b->len] = '\0';
}

void buf_put_str(struct buf *b, struct str s)
{
	buf_append(b, s.p, s.len);
}

void buf_vprintf(struct buf *b, const char *fmt, va_list ap)
{
	va_list ap2;
	va_copy(ap2, ap);
	buf_reserve(b, 128);
	int n = vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
	if (n < 0) {
		va_end(ap2);
		return;
	}
	if ((size_t)n >= b->cap - b->len) {
		buf_reserve(b, (size_t)n + 1);
		vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap2);
	}
	va_end(ap2);
	b->len += (size_t)n;
}

void buf_put_int(struct buf *b, long long v, int width)
{
	char digits[24];
	int n = 0;
	unsigned long long u = v < 0 ? -(unsigned long long)v : (unsigned long long)v;
	do {
		digits[n++] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	int zeros = width - n - (v < 0);
	reserve(b, (size_t)(n + 1 + (zeros > 0 ? zeros : 0)));
	if (v < 0)
		b->p[b->len++] = '-';
	for (; zeros > 0; zeros--)
		b->p[b->len++] = '0';
	while (n)
		b->p[b->len++] = digits[--n];
	b->p[b->len] = '\0';
}

char *buf_vformat(size_t *len, const char *fmt, va_list ap)
{
	struct buf b;
	buf_init(&b);
	buf_vprintf(&b, fmt, ap);
	return buf_detach(&b, len);
}

void buf_printf(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	buf_vprintf(b, fmt, ap);
	va_end(ap);
}

/* ESC: which bytes HTML escaping stops at: 1 for & < > ", 2 for ' (escaped
 * only in attributes), 4 for a newline (a stop for callers that handle it,
 * never replaced here). REP: what each becomes. */
static const unsigned char ESC[256] = {['&'] = 1, ['<'] = 1, ['>'] = 1, ['"'] = 1, ['\''] = 2, ['\n'] = 4};
static const char *const REP[256] = {
	['&'] = "&amp;", ['<'] = "&lt;", ['>'] = "&gt;", ['"'] = "&quot;", ['\''] = "&#39;"};

size_t html_esc_run(const char *s, size_t n, unsigned flags, const char **rep)
{
	const unsigned char *u = (const unsigned char *)s;
	unsigned mask = 1 | flags;
	size_t i = 0;
#if defined(__SSE2__)
	/* sixteen bytes at a time where the text is long enough: a page's
	 * titles, summaries and addresses are escaped on every page showing
	 * them (a byte that is not a stop repeats '&') */
	if (n >= 16) {
		__m128i amp = _mm_set1_epi8('&'), lt = _mm_set1_epi8('<'), gt = _mm_set1_epi8('>'),
			quot = _mm_set1_epi8('"'), apos = _mm_set1_epi8(mask & HTML_ESC_APOS ? '\'' : '&'),
			nl = _mm_set1_epi8(mask & HTML_ESC_NL ? '\n' : '&');
		for (; n - i >= 16; i += 16) {
			__m128i v = _mm_loadu_si128((const __m128i *)(u + i));
			__m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, amp), _mm_cmpeq_epi8(v, lt)),
						   _mm_or_si128(_mm_cmpeq_epi8(v, gt), _mm_cmpeq_epi8(v, quot)));
			hit = _mm_or_si128(hit, _mm_or_si128(_mm_cmpeq_epi8(v, apos), _mm_cmpeq_epi8(v, nl)));
			unsigned bits = (unsigned)_mm_movemask_epi8(hit);
			if (bits) {
				i += (size_t)__builtin_ctz(bits);
				*rep = REP[u[i]];
				return i;
			}
		}
	}
#endif
	while (i < n && !(ESC[u[i]] & mask))
		i++;
	*rep = i < n ? REP[u[i]] : NULL;
	return i;
}

/* put_escaped: s escaped as html_esc_run says; the bytes between
 * replacements go in as runs. */
static void put_escaped(struct buf *b, const char *s, size_t n, unsigned flags)
{
	buf_reserve(b, n);
	for (;;) {
		const char *rep;
		size_t run = html_esc_run(s, n, flags, &rep);
		buf_append(b, s, run);
		if (run == n)
			break;
		buf_puts(b, rep);
		s += run + 1;
		n -= run + 1;
	}
}

size_t html_escaped_len(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t len = n;
	for (size_t i = 0; i < n; i++)
		if (ESC[u[i]] & 3)
			len += strlen(REP[u[i]]) - 1;
	return len;
}

void buf_put_html(struct buf *b, const char *s, size_t n)
{
	put_escaped(b, s, n, HTML_ESC_APOS);
}

void buf_put_html_text(struct buf *b, const char *s, size_t n)
{
	put_escaped(b, s, n, 0);
}

/* JESC: which bytes a JSON string escapes: 1 always (" \ and the control
 * characters), 2 only with JSON_ESC_HTML (& ' < >). 0x7f, '/' and every
 * byte of a multi-byte character are kept as they are (so U+2028 and
 * U+2029 too: the JSON is read by JSON.parse or written into a file, never
 * into a script as a literal). */
#define JESC16(k) k, k, k, k, k, k, k, k, k, k, k, k, k, k, k, k
static const unsigned char JESC[256] = {
	JESC16(1), JESC16(1), ['"'] = 1, ['\\'] = 1, ['&'] = 2, ['\''] = 2, ['<'] = 2, ['>'] = 2};

void buf_put_json(struct buf *b, const char *s, size_t n, unsigned flags)
{
	const unsigned char *u = (const unsigned char *)s;
	unsigned mask = 1 | (flags & JSON_ESC_HTML ? 2 : 0);
	buf_reserve(b, n + 2);
	buf_putc(b, '"');
	for (size_t i = 0; i < n;) {
		size_t j = i;
		while (j < n && !(JESC[u[j]] & mask))
			j++;
		buf_append(b, s + i, j - i);
		if (j == n)
			break;
		unsigned char c = u[j];
		const char *rep = NULL;
		if (c == '"')
			rep = "\\\"";
		else if (c == '\\')
			rep = "\\\\";
		else if (!(flags & JSON_ESC_CONTROL_U))
			rep = c == '\n' ? "\\n" : c == '\r' ? "\\r" : c == '\t' ? "\\t" : NULL;
		if (rep) {
			buf_puts(b, rep);
		} else { /* every byte escaped so is ASCII: \u00XX */
			static const char hex[] = "0123456789abcdef";
			char u6[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
			buf_append(b, u6, 6);
		}
		i = j + 1;
	}
	buf_putc(b, '"');
}

struct str buf_str(const struct buf *b)
{
	struct str s = {b->p ? b->p : "", b->len};
	return s;
}

struct str buf_to_arena(struct buf *b, struct arena *a)
{
	struct str s = {arena_strndup(a, b->p ? b->p : "", b->len), b->len};
	buf_fini(b);
	return s;
}

void buf_sep(struct buf *b, int *pending, char sep)
{
	if (*pending && b->len)
		buf_putc(b, sep);
	*pending = 0;
}

char *buf_detach(struct buf *b, size_t *len)
{
	char *p = b->p ? b->p : xcalloc(1, 1);
	if (len)
		*len = b->len;
	buf_init(b);
	return p;
}

char *read_file(const char *path, size_t *len)
{
	return read_file_max(path, SIZE_MAX - 1, len);
}

/* open_sized: open_regular, with the file's size in *size. */
static int open_sized(const char *path, off_t *size)
{
	/* O_NONBLOCK: opening a named pipe for reading waits for a writer;
	 * this way it returns at once, and is refused below. It changes
	 * nothing for a regular file. */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0) {
		if (errno == ENXIO) /* a socket, or a device without its driver */
			errno = FOLIO_ENOTREG;
		return -1;
	}
	struct stat st;
	int e = fstat(fd, &st) != 0 ? errno : S_ISDIR(st.st_mode) ? EISDIR : !S_ISREG(st.st_mode) ? FOLIO_ENOTREG : 0;
	if (e) {
		close(fd);
		errno = e;
		return -1;
	}
	*size = st.st_size;
	return fd;
}

int open_regular(const char *path)
{
	off_t size;
	return open_sized(path, &size);
}

const char *file_strerror(int err)
{
	if (err == FOLIO_ENOTREG)
		return "not a regular file (a named pipe, a socket or a device: folio reads only files)";
	return strerror(err);
}

char *read_file_max(const char *path, size_t max, size_t *len)
{
	off_t size;
	int fd = open_sized(path, &size);
	if (fd < 0)
		return NULL;
	struct buf b;
	buf_init(&b);
	/* room for the whole file and the end of file seen in one more read
	 * (a file that grows meanwhile is read on, up to max + 1) */
	buf_reserve(&b, size > 0 && (uint64_t)size < max ? (size_t)size + 1 : 4096);
	int err = 0;
	for (;;) {
		size_t want = b.cap - b.len - 1;
		if (want > max + 1 - b.len)
			want = max + 1 - b.len;
		if (!want)
			break;
		ssize_t n = read(fd, b.p + b.len, want);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = errno;
			break;
		}
		if (n == 0)
			break;
		b.len += (size_t)n;
		if (b.cap - b.len - 1 == 0)
			buf_reserve(&b, 4096);
	}
	close(fd);
	if (err) {
		buf_fini(&b);
		errno = err;
		return NULL;
	}
	b.p[b.len] = '\0';
	return buf_detach(&b, len);
}

char *read_file_arena(struct arena *a, const char *path, size_t max, size_t *len)
{
	off_t size;
	int fd = open_sized(path, &size);
	if (fd < 0)
		return NULL;
	if (size <= 0 || (uint64_t)size > max) {
		/* empty (or a file that says so: /proc), or too big: read as it
		 * comes, up to max + 1 */
		close(fd);
		char *text = read_file_max(path, max, len);
		if (text)
			arena_own(a, text);
		return text;
	}
	/* room for one byte more than the file has, to see its end in the
	 * same read, and the NUL */
	size_t cap = (size_t)size + 1;
	char *p = arena_alloc_raw(a, cap + 1);
	size_t got = 0;
	int err = 0;
	while (got < cap) {
		ssize_t n = read(fd, p + got, cap - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			err = n < 0 ? errno : 0;
			break;
		}
		got += (size_t)n;
		if (got == cap - 1)
			break; /* all fstat said, and not the byte more: its end, with no other read to see it */
	}
	close(fd);
	if (err) {
		errno = err;
		return NULL;
	}
	if (got == cap) {
		/* it grew since: read it whole again */
		char *text = read_file_max(path, max, len);
		if (text)
			arena_own(a, text);
		return text;
	}
	p[got] = '\0';
	*len = got;
	return p;
}

/* FOLIO_FAIL_WRITE_AFTER=BYTES, a test hook (folio(1), ENVIRONMENT): a
 * write that would take the bytes written through write_full by this
 * process past BYTES fails with ENOSPC, as on a full disk. */
static atomic_int fail_hook;      /* 0: the environment not read yet, 1: off, 2: on */
static atomic_llong fail_after;   /* the limit, when on */
static atomic_llong fail_written; /* bytes written so far */

static int write_fails(size_t len)
{
	int h = atomic_load(&fail_hook);
	if (h == 0) {
		const char *v = getenv("FOLIO_FAIL_WRITE_AFTER");
		char *end = NULL;
		long long n = v && *v ? strtoll(v, &end, 10) : -1;
		int want = n >= 0 && end && !*end ? 2 : 1;
		if (want == 2)
			atomic_store(&fail_after, n);
		int expect = 0;
		atomic_compare_exchange_strong(&fail_hook, &expect, want);
		h = atomic_load(&fail_hook);
	}
	if (h != 2)
		return 0;
	return atomic_fetch_add(&fail_written, (long long)len) + (long long)len > atomic_load(&fail_after);
}

int write_full(int fd, const void *data, size_t len)
{
	const char *p = data;
	if (write_fails(len)) {
		errno = ENOSPC;
		return -1;
	}
	while (len) {
		ssize_t w = write(fd, p, len);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

char *path_absolute(const char *dir)
{
	char *r = realpath(dir, NULL);
	if (r)
		return r;
	char *copy1 = xstrndup(dir, strlen(dir)), *copy2 = xstrndup(dir, strlen(dir));
	char *parent = realpath(dirname(copy1), NULL);
	char *res = NULL;
	if (parent) {
		const char *base = basename(copy2);
		size_t n = strlen(parent) + strlen(base) + 2;
		res = xmalloc(n);
		snprintf(res, n, "%s/%s", strcmp(parent, "/") ? parent : "", base);
		free(parent);
	}
	free(copy1);
	free(copy2);
	return res;
}


size_t utf8_bad(const char *p, size_t len)
{
	const unsigned char *u = (const unsigned char *)p;
	size_t i = 0;
	while (i < len) {
		/* ASCII eight bytes at a time */
		while (i + 8 <= len) {
			uint64_t w;
			memcpy(&w, u + i, 8);
			if (w & 0x8080808080808080ull)
				break;
			i += 8;
		}
		if (i >= len)
			break;
		if (u[i] < 0x80) {
			i++;
			continue;
		}
		utf8proc_int32_t cp;
		utf8proc_ssize_t n = utf8proc_iterate(u + i, (utf8proc_ssize_t)(len - i), &cp);
		if (n <= 0 || cp < 0)
			return i;
		i += (size_t)n;
	}
	return len;
}

const char *text_encoding(const char *p, size_t len)
{
	const unsigned char *u = (const unsigned char *)p;
	if (len >= 4 && u[0] == 0xFF && u[1] == 0xFE && !u[2] && !u[3])
		return "UTF-32LE";
	if (len >= 4 && !u[0] && !u[1] && u[2] == 0xFE && u[3] == 0xFF)
		return "UTF-32BE";
	if (len >= 2 && u[0] == 0xFF && u[1] == 0xFE)
		return "UTF-16LE";
	if (len >= 2 && u[0] == 0xFE && u[1] == 0xFF)
		return "UTF-16BE";
	/* no mark: ASCII text with a NUL beside each character */
	if (len >= 4 && u[0] && !u[1] && !u[2] && !u[3])
		return "UTF-32LE";
	if (len >= 4 && u[0] && !u[1] && u[2] && !u[3])
		return "UTF-16LE";
	if (len >= 4 && !u[0] && u[1] && !u[2] && u[3])
		return "UTF-16BE";
	if (len >= 4 && !u[0] && !u[1] && !u[2] && u[3])
		return "UTF-32BE";
	return NULL;
}
