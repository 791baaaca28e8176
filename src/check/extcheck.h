/* extcheck.h: checks external http(s) links with libcurl (folio check
 * --external). Each distinct URL (its #fragment left out) is fetched once,
 * concurrently, a few at a time per host; the results are reported at
 * every place the URL is written, and kept in a small cache file.
 */
#ifndef FOLIO_EXTCHECK_H
#define FOLIO_EXTCHECK_H

#include <stddef.h>

#include "base/diag.h"

/* One external link as written in the site's sources: url as written
 * (http:// or https://; other schemes are skipped), path/line/col where it
 * is (site-relative path, 1-based, 0: unknown), src/src_len that file's
 * text for the excerpt (NULL: none). Nothing is copied: the strings live
 * until extcheck_run returns. */
struct extlink {
	const char *url;
	const char *path;
	int line, col;
	const char *src;
	size_t src_len;
};

/* Options; a field left 0 takes its default. */
struct extcheck_opts {
	int max_total;          /* transfers at once, all hosts (16) */
	int max_per_host;       /* transfers at once to one host name (2) */
	int timeout_s;          /* per request, connecting included (10) */
	int cache_ttl_s;        /* how long a cached answer holds (86400) */
	const char *cache_path; /* the cache file; NULL: no cache */
	int progress;           /* a \r-updated progress line on stderr, when a terminal */
};

/* What a run did, counted in distinct URLs (fragment left out). */
struct extcheck_stats {
	size_t urls;       /* distinct http(s) URLs given */
	size_t checked;    /* fetched over the network */
	size_t cached;     /* answered from the cache file */
	size_t broken;     /* errors (4xx/5xx, DNS, refused, TLS, timeout, ...) */
	size_t redirected; /* permanently redirected (301/308 first): warned */
};

/* extcheck_run: checks the n links. For each URL: HEAD, then GET (the body
 * not read) when HEAD answers 405, 403 or 501; redirects followed (at most
 * 10). Reports to d, at every place the URL is written:
 *   error   "broken link 'URL': 404 Not Found" (any 4xx/5xx), "...: timed
 *           out after 10 s", "...: TLS handshake failed (...)", "...: host
 *           'NAME' not found (DNS)", "...: connection refused", ...
 *   warning "link 'URL' redirects to 'NEW' (301): write the new address"
 *           when the first answer is 301 or 308 (NEW is where the run of
 *           permanent redirects ends); 302, 303 and 307 are fine.
 * With o->cache_path, answers younger than cache_ttl_s are taken from the
 * file instead of the network; successes and 404/410 are written back (with
 * the time they were checked), transient failures are not. The file is text:
 * a "folio-linkcheck 1" line, then "TIME\tSTATUS\tREDIRECT\tURL\tNEW" lines
 * (REDIRECT 0 and NEW "-" when not permanently redirected). o may be NULL,
 * st too. Returns the number of errors reported (places of broken links). */
int extcheck_run(const struct extlink *links, size_t n, const struct extcheck_opts *o,
                 struct diag *d, struct extcheck_stats *st);

/* extcheck_cache_keep: the cache file's reader alone, for its fuzz target
 * (tests/fuzz/fuzz_extcache.c): the answers of the bytes text[0..len), as
 * a run reads the file, appended to out as a run at time now that asked
 * for no URL writes them back (the answers younger than ttl_s seconds,
 * 0: the default, the newest of each URL, sorted by URL). Returns how
 * many lines it appended. Any bytes may be given. */
size_t extcheck_cache_keep(const char *text, size_t len, long long now, int ttl_s, struct buf *out);

#endif
