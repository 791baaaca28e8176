/* test_buf.c: struct str helpers, the growable buffer and read_file. */
#include "harness.h"

#include "base/arena.h"
#include "base/buf.h"

#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

/* not_files: read_file refuses what is not a regular file, at once: a
 * named pipe with no writer (fopen would wait for one for ever), a
 * device, a socket, a folder; and through a link too. */
static void not_files(void)
{
	char *dir = t_tmpdir();
	char p[600], q[600];
	size_t n = 7;
	errno = 0;
	snprintf(p, sizeof p, "%s/pipe.md", dir);
	OK(mkfifo(p, 0644) == 0);
	OK(read_file(p, &n) == NULL);
	INT_EQ(errno, FOLIO_ENOTREG);
	OK(open_regular(p) < 0);
	INT_EQ(errno, FOLIO_ENOTREG);
	snprintf(q, sizeof q, "%s/link.md", dir);
	OK(symlink(p, q) == 0);
	OK(read_file_max(q, 100, &n) == NULL);
	INT_EQ(errno, FOLIO_ENOTREG);

	OK(read_file_max("/dev/zero", 100, &n) == NULL); /* would fill the buffer */
	INT_EQ(errno, FOLIO_ENOTREG);
	OK(read_file("/dev/null", &n) == NULL);
	INT_EQ(errno, FOLIO_ENOTREG);

	/* a socket cannot be opened at all (ENXIO): the same error */
	snprintf(p, sizeof p, "%s/sock", dir);
	int s = socket(AF_UNIX, SOCK_STREAM, 0);
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	OK(s >= 0 && strlen(p) < sizeof sa.sun_path);
	if (s >= 0 && strlen(p) < sizeof sa.sun_path) {
		memcpy(sa.sun_path, p, strlen(p) + 1);
		OK(bind(s, (struct sockaddr *)&sa, sizeof sa) == 0);
		OK(read_file(p, &n) == NULL);
		INT_EQ(errno, FOLIO_ENOTREG);
	}
	if (s >= 0)
		close(s);

	OK(read_file(dir, &n) == NULL);
	INT_EQ(errno, EISDIR);
	STR_EQ(file_strerror(EISDIR), strerror(EISDIR));
	OK(strstr(file_strerror(FOLIO_ENOTREG), "not a regular file (a named pipe") != NULL);

	/* a regular file through a link is read */
	snprintf(p, sizeof p, "%s/real.md", dir);
	FILE *f = fopen(p, "w");
	OK(f != NULL);
	if (f) {
		fputs("text", f);
		fclose(f);
	}
	snprintf(q, sizeof q, "%s/to-real.md", dir);
	OK(symlink(p, q) == 0);
	char *t = read_file(q, &n);
	OK(t && n == 4 && !strcmp(t, "text"));
	free(t);
	int fd = open_regular(q);
	OK(fd >= 0);
	if (fd >= 0)
		close(fd);
	t_rmtree(dir);
	free(dir);
}

/* utf8_bad and text_encoding: the first byte that is not UTF-8, and the
 * encodings that show at a file's start. */
static void test_encodings(void)
{
	INT_EQ(utf8_bad("", 0), 0);
	INT_EQ(utf8_bad("plain ascii text, longer than eight bytes", 41), 41);
	INT_EQ(utf8_bad("caf\xc3\xa9 \xe4\xb8\xad \xf0\x9f\x98\x80", 14), 14);
	INT_EQ(utf8_bad("caf\xe9 au lait", 12), 3);          /* Latin-1 */
	INT_EQ(utf8_bad("abcdefgh\xc0\xaf", 10), 8);         /* overlong '/' */
	INT_EQ(utf8_bad("ab\xed\xa0\x80", 5), 2);            /* a surrogate */
	INT_EQ(utf8_bad("ab\xf4\x90\x80\x80", 6), 2);       /* past U+10FFFF */
	INT_EQ(utf8_bad("ab\xe4\xb8", 4), 2);                /* cut short */
	INT_EQ(utf8_bad("ab\x80", 3), 2);                    /* a lone continuation */
	STR_EQ(text_encoding("\xff\xfe-\0-\0", 6), "UTF-16LE");
	STR_EQ(text_encoding("\xfe\xff\0-\0-", 6), "UTF-16BE");
	STR_EQ(text_encoding("\xff\xfe\0\0-\0\0\0", 8), "UTF-32LE");
	STR_EQ(text_encoding("\0\0\xfe\xff\0\0\0-", 8), "UTF-32BE");
	STR_EQ(text_encoding("-\0-\0-\0", 6), "UTF-16LE");
	STR_EQ(text_encoding("\0-\0-\0-", 6), "UTF-16BE");
	STR_EQ(text_encoding("-\0\0\0-\0\0\0", 8), "UTF-32LE");
	OK(text_encoding("---\ntitle: x\n", 14) == NULL);
	OK(text_encoding("\xef\xbb\xbf---\n", 7) == NULL); /* UTF-8's own mark */
	OK(text_encoding("-", 1) == NULL);
}

/* fmt: buf_vformat through a printf-like wrapper, as its callers use it. */
static char *fmt(size_t *len, const char *f, ...) __attribute__((format(printf, 2, 3)));
static char *fmt(size_t *len, const char *f, ...)
{
	va_list ap;
	va_start(ap, f);
	char *r = buf_vformat(len, f, ap);
	va_end(ap);
	return r;
}

/* buf_vformat: a new string of any length, and its length. */
static void vformat(void)
{
	size_t n = 7;
	char *s = fmt(&n, "%s-%d", "ab", 42);
	STR_EQ(s, "ab-42");
	INT_EQ(n, 5);
	free(s);
	s = fmt(NULL, "%s", "");
	STR_EQ(s, "");
	free(s);
	s = fmt(&n, "%300d|", 1);
	INT_EQ(n, 301);
	OK(s[299] == '1' && s[300] == '|' && s[301] == 0);
	free(s);
}

/* buf_to_arena and buf_sep: a buffer handed to an arena, and runs of
 * spacing made one separator, none at the start. */
static void arena_and_sep(void)
{
	struct arena *a = arena_new();
	struct buf b;
	buf_init(&b);
	struct str s = buf_to_arena(&b, a);
	OK(s.p && s.len == 0 && s.p[0] == 0);
	const char *words[] = {"", "a", "", "", "b", "c"};
	int pending = 0;
	for (int i = 0; i < 6; i++) {
		if (!*words[i]) {
			pending = 1;
			continue;
		}
		buf_sep(&b, &pending, '-');
		OK(pending == 0);
		buf_puts(&b, words[i]);
	}
	s = buf_to_arena(&b, a);
	STR_EQ(s.p, "a-bc");
	INT_EQ(s.len, 4);
	OK(b.len == 0 && b.p == NULL);
	arena_free(a);
}

/* The escapers buf_put_json replaced, as they were: tmpl/value.c's (with
 * and without html_safe; search/index.c wrote the same bytes, html_safe)
 * and md/math.c's (every control character as \u00XX). */
static void old_json(struct buf *b, const char *s, size_t n, int html_safe, int u_only)
{
	buf_putc(b, '"');
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '"' || c == '\\')
			buf_printf(b, "\\%c", c);
		else if (!u_only && c == '\n')
			buf_puts(b, "\\n");
		else if (!u_only && c == '\r')
			buf_puts(b, "\\r");
		else if (!u_only && c == '\t')
			buf_puts(b, "\\t");
		else if (c < 0x20 || (html_safe && (c == '<' || c == '>' || c == '&' || c == '\'')))
			buf_printf(b, "\\u%04x", c);
		else
			buf_putc(b, c);
	}
	buf_putc(b, '"');
}

/* buf_put_json: the bytes each of its former copies wrote, for every byte
 * alone and amid runs of kept text (U+2028, U+2029, '/', DEL kept). */
static void json_escape(void)
{
	struct buf got, want;
	buf_init(&got);
	buf_init(&want);
	char s[300];
	for (int c = 0; c < 256; c++) {
		int n = snprintf(s, sizeof s, "ab%c\xe2\x80\xa8/x%c\x7f\xe2\x80\xa9", c, c);
		for (unsigned f = 0; f < 4; f++) {
			buf_reset(&got);
			buf_reset(&want);
			buf_put_json(&got, s, (size_t)n, f);
			old_json(&want, s, (size_t)n, f & JSON_ESC_HTML, (f & JSON_ESC_CONTROL_U) != 0);
			if (got.len != want.len || memcmp(got.p, want.p, got.len) != 0)
				t_fail(__FILE__, __LINE__, "byte %d flags %u: %s, want %s", c, f, got.p, want.p);
			else
				t_passed++;
		}
	}
	buf_reset(&got);
	buf_put_json(&got, "", 0, 0);
	STR_EQ(got.p, "\"\"");
	buf_reset(&got);
	buf_put_json(&got, "<a href='x'>\"q\"</a>\n\t\\", 22, JSON_ESC_HTML);
	STR_EQ(got.p, "\"\\u003ca href=\\u0027x\\u0027\\u003e\\\"q\\\"\\u003c/a\\u003e\\n\\t\\\\\"");
	buf_reset(&got);
	buf_put_json(&got, "a\nb\x01", 4, JSON_ESC_CONTROL_U);
	STR_EQ(got.p, "\"a\\u000ab\\u0001\"");
	buf_fini(&got);
	buf_fini(&want);
}

void test_buf(void)
{
	t_current = "buf";
	test_encodings();
	json_escape();
	vformat();
	arena_and_sep();
	struct str s = str_from("hello");
	INT_EQ(s.len, 5);
	OK(str_eq(s, STR_LIT("hello")));
	OK(!str_eq(s, STR_LIT("hell")));
	OK(str_eq_cstr(s, "hello"));
	OK(str_cmp(STR_LIT("a"), STR_LIT("b")) < 0);
	OK(str_cmp(STR_LIT("ab"), STR_LIT("a")) > 0);
	INT_EQ(str_cmp(STR_LIT(""), STR_LIT("")), 0);
	OK(str_starts_with(s, "he"));
	OK(!str_starts_with(s, "hello!"));
	struct str t = str_trim(STR_LIT("  \t x y \n"));
	OK(str_eq(t, STR_LIT("x y")));
	OK(str_trim(STR_LIT("   ")).len == 0);
	OK(str_from(NULL).len == 0);

	struct buf b;
	buf_init(&b);
	OK(buf_str(&b).len == 0 && buf_str(&b).p != NULL);
	buf_puts(&b, "abc");
	buf_putc(&b, 'd');
	buf_append(&b, "efgh", 2);
	STR_EQ(b.p, "abcdef");
	buf_printf(&b, "-%d-%s", 42, "x");
	STR_EQ(b.p, "abcdef-42-x");
	/* a printf longer than the free space */
	buf_reset(&b);
	STR_EQ(b.p, "");
	char big[1000];
	memset(big, 'z', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	buf_printf(&b, "<%s>", big);
	INT_EQ(b.len, 1001);
	OK(b.p[0] == '<' && b.p[1000] == '>' && b.p[1001] == '\0');

	buf_reset(&b);
	buf_put_html(&b, "a<b>&\"c'd", 9);
	STR_EQ(b.p, "a&lt;b&gt;&amp;&quot;c&#39;d");
	buf_reset(&b);
	buf_put_html(&b, "plain \xC3\xA9", 8);
	STR_EQ(b.p, "plain \xC3\xA9");
	/* html_escaped_len measures what buf_put_html makes, byte for byte */
	const char *esc[] = {"", "plain", "a<b>&\"c'd", "&&&&", "''\"\"<<>>", "x\xC3\xA9&"};
	for (size_t i = 0; i < sizeof esc / sizeof *esc; i++) {
		buf_reset(&b);
		buf_put_html(&b, esc[i], strlen(esc[i]));
		INT_EQ(html_escaped_len(esc[i], strlen(esc[i])), b.len);
	}
	/* the text variant leaves ' alone, as cmark does */
	buf_reset(&b);
	buf_put_html_text(&b, "a<b>&\"c'd\n", 10);
	STR_EQ(b.p, "a&lt;b&gt;&amp;&quot;c'd\n");
	/* html_esc_run, the one scanner under every escaper: the run up to
	 * the next byte to replace, and what it becomes */
	const char *rep = "x";
	INT_EQ(html_esc_run("ab'c\nd", 6, 0, &rep), 6);
	OK(rep == NULL);
	INT_EQ(html_esc_run("ab'c\nd", 6, HTML_ESC_APOS, &rep), 2);
	STR_EQ(rep, "&#39;");
	INT_EQ(html_esc_run("abc\n<", 5, HTML_ESC_NL, &rep), 3);
	OK(rep == NULL); /* a newline: the caller's to write */
	INT_EQ(html_esc_run("abc\n<", 5, 0, &rep), 4);
	STR_EQ(rep, "&lt;");
	INT_EQ(html_esc_run("", 0, HTML_ESC_APOS | HTML_ESC_NL, &rep), 0);
	OK(rep == NULL);
	/* on random texts, long and short (it goes sixteen bytes at a time
	 * where it can), with each set of stops: the first byte the stops
	 * name, by a byte loop here */
	{
		static const char alphabet[] = "abcdefghij &<>\"'\n\xc3\xa9";
		unsigned seed = 7;
		char txt[100];
		int bad = 0;
		for (int round = 0; round < 40000; round++) {
			size_t n = (size_t)(rand_r(&seed) % (int)sizeof txt);
			int sparse = round % 2;
			for (size_t i = 0; i < n; i++)
				txt[i] = sparse && rand_r(&seed) % 20 ? 'x'
								   : alphabet[rand_r(&seed) % (int)(sizeof alphabet - 1)];
			unsigned flags = (unsigned)(round % 4) * 2; /* 0, APOS, NL, both */
			size_t want = 0;
			while (want < n && !strchr(txt[want] == '\'' ? (flags & HTML_ESC_APOS ? "'" : "")
						       : txt[want] == '\n' ? (flags & HTML_ESC_NL ? "\n" : "")
									: "&<>\"",
						       txt[want]))
				want++;
			size_t got = html_esc_run(txt, n, flags, &rep);
			int rep_ok = got < n ? (rep != NULL) == (txt[got] != '\n') : rep == NULL;
			if ((got != want || !rep_ok) && bad++ < 3)
				t_fail(__FILE__, __LINE__, "html_esc_run(\"%.*s\", %u) = %zu, want %zu", (int)n, txt, flags,
				       got, want);
		}
		OK(!bad);
	}

	/* growth across many appends keeps every byte */
	buf_reset(&b);
	for (int i = 0; i < 100000; i++)
		buf_putc(&b, 'a' + i % 26);
	INT_EQ(b.len, 100000);
	OK(b.p[99999] == 'a' + 99999 % 26);
	size_t n;
	char *d = buf_detach(&b, &n);
	INT_EQ(n, 100000);
	OK(b.p == NULL && b.len == 0);
	free(d);
	buf_fini(&b);

	/* read_file: whole files, NUL-terminated; NULL for a missing one */
	char path[] = "/tmp/folio-test-buf-XXXXXX";
	int fd = mkstemp(path);
	OK(fd >= 0);
	if (fd >= 0) {
		char data[10000];
		for (size_t i = 0; i < sizeof data; i++)
			data[i] = (char)('0' + i % 10);
		OK(write(fd, data, sizeof data) == (ssize_t)sizeof data);
		close(fd);
		char *f = read_file(path, &n);
		INT_EQ(n, sizeof data);
		OK(f && memcmp(f, data, sizeof data) == 0 && f[n] == '\0');
		free(f);
		/* read_file_max: at most max + 1 bytes, so a larger file shows */
		f = read_file_max(path, 100, &n);
		INT_EQ(n, 101);
		OK(f && memcmp(f, data, 101) == 0 && f[n] == '\0');
		free(f);
		f = read_file_max(path, sizeof data, &n);
		INT_EQ(n, sizeof data);
		free(f);
		f = read_file_max(path, 0, &n);
		INT_EQ(n, 1);
		free(f);
		/* read_file_arena: the same, into an arena */
		struct arena *a = arena_new();
		f = read_file_arena(a, path, 1 << 20, &n);
		INT_EQ(n, sizeof data);
		OK(f && memcmp(f, data, sizeof data) == 0 && f[n] == '\0');
		f = read_file_arena(a, path, 100, &n);
		INT_EQ(n, 101);
		OK(f && memcmp(f, data, 101) == 0 && f[n] == '\0');
		OK(read_file_arena(a, "/dev/zero", 100, &n) == NULL);
		INT_EQ(errno, FOLIO_ENOTREG);
		OK(read_file_arena(a, "/nonexistent/folio/file", 100, &n) == NULL);
		INT_EQ(errno, ENOENT);
		int e = open(path, O_WRONLY | O_TRUNC);
		OK(e >= 0);
		if (e >= 0)
			close(e);
		f = read_file_arena(a, path, 100, &n);
		OK(f && n == 0 && f[0] == '\0');
		arena_free(a);
		unlink(path);
	}
	OK(read_file("/nonexistent/folio/file", &n) == NULL);
	INT_EQ(errno, ENOENT);
	not_files();
}
