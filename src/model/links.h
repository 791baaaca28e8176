/* links.h: the links of the HTML folio writes: a tolerant tag scanner
 * (never a full parser), and the rewriting of post bodies' links (`.md`
 * and `@/` links to the page they name, root-relative URLs under a
 * sub-path base_url), which hands on the URLs it saw (backlinks). The check of the built site's links is
 * check/links.h. */
#ifndef FOLIO_LINKS_H
#define FOLIO_LINKS_H

#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/diag.h"

/* What links_scan reports: a URL-bearing attribute (href, src, poster, one
 * URL of srcset, the content of a <meta> whose property or name is a
 * social card's image, og:image or twitter:image), or an id (id, or name
 * on <a>). */
enum links_kind { LINKS_URL, LINKS_ID };

/* links_scan_fn: value is the attribute's text as written in the HTML
 * (entities not decoded), at byte `at` of the scanned text. Return nonzero
 * to stop the scan. */
typedef int (*links_scan_fn)(void *ctx, enum links_kind kind, const char *value, size_t len, size_t at);

/* links_scan: calls fn for every URL attribute and id of html[0..len),
 * in order. Comments, <script> and <style> contents, and text are skipped;
 * broken markup is scanned as well as it goes, never read past len.
 * Returns 0, or fn's nonzero value. */
int links_scan(const char *html, size_t len, links_scan_fn fn, void *ctx);

/* links_unescape: value with HTML character references decoded (&amp;,
 * &quot;, &#39;, &#x2F;, ...; an unknown name stays as written), appended to
 * out. */
void links_unescape(struct buf *out, const char *value, size_t len);

/* links_base_path: the path of a base URL ("https://x.org/blog/" ->
 * "/blog/"; none -> "/"), in a. */
const char *links_base_path(struct arena *a, const char *base_url, size_t len);

/* URLs as the scanner finds them: links_has_scheme, whether u starts with
 * a scheme ("http:", "mailto:", "data:"); links_pct_decode, s with %XX
 * decoded, appended to out (NUL-terminated there too); links_normalize,
 * the site-relative path rel ("a/./b/../c") with its dot segments
 * resolved in place, -1 if it climbs out of the site (a trailing slash
 * stays); links_is_md_link, whether u is a relative link to a Markdown
 * file ("../x.md#part"). */
int links_has_scheme(const char *u, size_t n);
void links_pct_decode(struct buf *out, const char *s, size_t n);
int links_normalize(char *rel);
int links_is_md_link(const char *u, size_t ul);

/* ---- rewriting post bodies ---- */

/* links_resolve_fn: the URL ("/posts/x/", without the base path) of the
 * content file at site-relative path ("content/posts/x.md"), or NULL. */
typedef const char *(*links_resolve_fn)(void *ctx, const char *path, size_t len);

/* links_rewrite: html with its links made final, in a: `@/posts/x.md` and
 * relative `x.md` links (relative to src_path, the file the HTML comes
 * from) become the URL of the content file they name, with their
 * #fragment; root-relative URLs ("/img/a.png") get base_path's path in
 * front when it is not "/". A link that names no content file is left as
 * it is, for the check to report. Returns html itself when nothing
 * changes. */
struct str links_rewrite(struct arena *a, struct str html, const char *src_path, const char *base_path,
			 links_resolve_fn resolve, void *ctx);

/* links_seen_fn: one URL of the HTML as links_rewrite_seen leaves it
 * (made final, character references decoded), url[0..len) valid during
 * the call only. */
typedef void (*links_seen_fn)(void *ctx, const char *url, size_t len);

/* links_rewrite_seen: links_rewrite, and each URL of html (a link, an
 * image, ...) handed to seen as it is once final: the one scan of a body
 * gives the model both (a post's backlinks, site.c). With seen, html is
 * scanned even when nothing in it can change. */
struct str links_rewrite_seen(struct arena *a, struct str html, const char *src_path, const char *base_path,
			      links_resolve_fn resolve, void *ctx, links_seen_fn seen, void *seen_ctx);

#endif
