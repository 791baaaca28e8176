/* fuzz_extcache.c: libFuzzer target for the answers folio check
 * --external keeps in .folio-cache/external-links (check/extcheck.c: a
 * "folio-linkcheck 1" line, then "TIME\tSTATUS\tREDIRECT\tURL\tNEW"
 * lines). An input is such a file. It is read by the file's reader alone
 * (extcheck_cache_keep) at a fixed clock, with the default time to live
 * and with the longest, and once a run in a thousand by a whole check
 * of no link over the file on disk (extcheck_run: cache_read, the
 * parser, cache_write), which must leave what the reader alone gives.
 *
 * Besides crashes, the target checks that what is written back is one
 * well-formed line per answer, sorted by URL, each URL once, and that it
 * reads back as the same lines (what folio writes, it must read).
 *
 * With FUZZ_SHOW set in the environment, the answers kept are printed. */
#include "fuzz.h"

#include "base/buf.h"
#include "base/diag.h"
#include "check/extcheck.h"

#include <curl/curl.h>
#include <limits.h>
#include <time.h>

#define NOW   1800000000LL
#define MAGIC "folio-linkcheck 1\n"

static const char *dir;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	dir = fuzz_tmpdir();
	/* once for the process: extcheck_run's own init and cleanup then
	 * only count (libcurl's global state is reference counted) */
	curl_global_init(CURL_GLOBAL_DEFAULT);
	return 0;
}

/* check_lines: out[0..len) is n lines as cache_save writes them, sorted
 * by URL, each URL once. */
static void check_lines(const char *p, size_t len, size_t n)
{
	if (!len) {
		if (n)
			abort();
		return; /* (p NULL: NULL + 0 is undefined) */
	}
	const char *end = p + len, *last_url = NULL;
	size_t last_len = 0, lines = 0;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl || memchr(p, '\0', (size_t)(nl - p)))
			abort();
		const char *f[5];
		size_t nf = 0;
		f[nf++] = p;
		for (const char *q = p; q < nl; q++)
			if (*q == '\t') {
				if (nf == 5)
					abort(); /* a tab inside a field */
				f[nf++] = q + 1;
			}
		if (nf != 5)
			abort();
		const char *url = f[3];
		size_t url_len = (size_t)(f[4] - 1 - url);
		if (!url_len || f[4] == nl)
			abort(); /* empty URL or NEW */
		if (last_url) {
			size_t m = url_len < last_len ? url_len : last_len;
			int c = memcmp(last_url, url, m);
			if (c > 0 || (c == 0 && last_len >= url_len))
				abort(); /* not sorted, or a URL twice */
		}
		last_url = url;
		last_len = url_len;
		lines++;
		p = nl + 1;
	}
	if (lines != n)
		abort();
}

static void one(const char *text, size_t len, int ttl)
{
	struct buf a, file, b;
	buf_init(&a);
	buf_init(&file);
	buf_init(&b);
	size_t n = extcheck_cache_keep(text, len, NOW, ttl, &a);
	if (getenv("FUZZ_SHOW"))
		fprintf(stderr, "--- kept %zu answers (time to live %d)\n%.*s", n, ttl, (int)a.len,
		        a.p ? a.p : "");
	check_lines(a.p, a.len, n);
	buf_puts(&file, MAGIC);
	buf_append(&file, a.p, a.len);
	if (extcheck_cache_keep(file.p, file.len, NOW, ttl, &b) != n || b.len != a.len ||
	    (a.len && memcmp(a.p, b.p, a.len) != 0))
		abort(); /* what folio writes, it must read */
	buf_fini(&a);
	buf_fini(&file);
	buf_fini(&b);
}

/* whole: a check of no link with the input as its cache file, which it
 * rewrites with the fresh answers read. */
static void whole(const char *text, size_t len)
{
	char path[4200];
	snprintf(path, sizeof path, "%s/external-links", dir);
	fuzz_write(dir, "external-links", text, len);
	struct extcheck_opts o = {.cache_path = path};
	struct diag d;
	diag_init(&d, NULL);
	long long t0 = (long long)time(NULL);
	if (extcheck_run(NULL, 0, &o, &d, NULL) != 0 || d.errors || d.warnings)
		abort();
	long long t1 = (long long)time(NULL);
	diag_fini(&d);
	FILE *f = fopen(path, "rb");
	if (!f)
		abort(); /* the file is written again, if only its first line */
	struct buf got, want;
	buf_init(&got);
	buf_init(&want);
	char chunk[4096];
	size_t k;
	while ((k = fread(chunk, 1, sizeof chunk, f)) > 0)
		buf_append(&got, chunk, k);
	fclose(f);
	buf_puts(&want, MAGIC);
	extcheck_cache_keep(text, len, t0, 0, &want);
	if (t0 == t1 && (got.len != want.len || memcmp(got.p, want.p, got.len) != 0))
		abort();
	buf_fini(&got);
	buf_fini(&want);
	fuzz_unlink(dir, "external-links");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* a copy of just the input, so that ASan sees a read past it */
	char *text = malloc(size ? size : 1);
	memcpy(text, data, size);
	one(text, size, 0);
	one(text, size, INT_MAX);
	static unsigned runs;
	if (runs++ % 1000 == 0)
		whole(text, size);
	free(text);
	return 0;
}
