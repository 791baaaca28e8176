/* links.h: the check of the built site's links: what each rendered page
 * holds (its ids and links), and every internal link, image and
 * #fragment checked against the files and ids of the build.
 *
 * Folder check/: checks of the rendered site: internal links and
 * #fragments, external links (folio check --external).
 * uses: base, files, cache, model, output.
 */
#ifndef FOLIO_CHECK_LINKS_H
#define FOLIO_CHECK_LINKS_H

#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "base/diag.h"
#include "model/links.h"

/* ---- what a page holds ---- */

/* links_record: the ids and the distinct links of a rendered page (the
 * parts, one after the other), as one malloc'd block (*len bytes) that
 * links_check_page takes: "i" id NUL ... "l" url NUL ..., each decoded,
 * each once. NULL (and *len 0) for a page with neither. */
char *links_record(const struct str *parts, size_t nparts, size_t *len);

/* ---- the check ---- */

enum links_mode { LINKS_OFF, LINKS_WARN, LINKS_ERROR };

/* A file where the text of a link may be found, to report it there: a
 * page's source, the templates, folio.yml. */
struct links_text {
	const char *path; /* site-relative */
	const char *text;
	size_t len;
};

struct links_check;

/* links_check_new: a check of the links of one build under base_path
 * ("/" or "/blog/"); free with links_check_free. */
struct links_check *links_check_new(const char *base_path, enum links_mode mode);
void links_check_free(struct links_check *lc);

/* links_check_list_ignored: a link that ignore_links leaves unchecked and
 * that would be broken is said as a note at its place, with the pattern
 * and why (folio check --ignored); the check's result is the same. */
void links_check_list_ignored(struct links_check *lc);

/* links_check_site: base_url[0..len) is the site's address
 * ("https://example.org/blog/"): a link to it written whole (an og:image,
 * a post's absolute link to its own site) is checked as its path is. */
void links_check_site(struct links_check *lc, const char *base_url, size_t len);

/* links_check_file: out ("posts/x/index.html", "img/a.png") is a file the
 * build writes. */
void links_check_file(struct links_check *lc, const char *out);

/* links_check_later: out is the page of a post or page this build leaves
 * out (why: "a draft", "dated 2026-09-24, in the future"): a link to it is
 * a warning, not an error. */
void links_check_later(struct links_check *lc, const char *out, const char *why);

/* links_check_page: out is a page with the ids and links of rec (from
 * links_record; borrowed until the check has run; may be NULL). src is
 * the site-relative file it is made from (or NULL), whose text (may be
 * NULL: asked of links_check_sources' function when needed) is searched
 * first for a broken link's place; ignore (n patterns, fnmatch) are links
 * not to check. */
void links_check_page(struct links_check *lc, const char *out, const char *rec, size_t rec_len, const char *src,
		      const char *src_text, size_t src_len, const char *const *ignore, size_t nignore);

/* links_check_repage: for a check run again (folio serve, after an edit
 * of a few pages): page i (the order of links_check_page) has the ids and
 * links of rec now, and its source's text is src_text. */
void links_check_repage(struct links_check *lc, size_t i, const char *rec, size_t rec_len, const char *src_text,
			size_t src_len);

/* links_check_sources: fn gives the text of a page's source file src
 * (site-relative) that links_check_page was not given (a file this build
 * did not read), in *len, or NULL; it is asked only for a broken link's
 * place. The check reads no file itself. */
typedef const char *(*links_source_fn)(void *ctx, const char *src, size_t *len);
void links_check_sources(struct links_check *lc, links_source_fn fn, void *ctx);

/* links_check_texts: where to look for a link that is not in its page's
 * source (templates, folio.yml), in order; borrowed until the check has
 * run. */
void links_check_texts(struct links_check *lc, const struct links_text *t, size_t n);

/* links_check_run: checks every link of every page: a link into the site
 * must name a file the build writes, and its #fragment an id of the
 * target page. Each broken one is reported (an error, or a warning in
 * LINKS_WARN) at the place of its text, with a close name when there is
 * one. Returns the number of broken links (0 in LINKS_WARN). */
size_t links_check_run(struct links_check *lc, struct diag *d);

/* links_check_count: the number of links checked by the last run. */
size_t links_check_count(const struct links_check *lc);

/* For a build after a check (folio serve's last round, or the last folio
 * build into the same folder): the links of the pages that reported
 * nothing then cannot have broken when every file a link of that check
 * led to is still a file of this build (files added break no link) and
 * the pages rendered again have the same ids as before
 * (links_record_same_ids); then links_check_only limits the run to the
 * pages with which[i] set (i: the order of links_check_page): those
 * rendered again and those that reported (links_memo_told), whose
 * warnings are said again. links_check_reported counts what the last run
 * reported (errors and warnings).
 *
 * links_check_memo: what the run that has just ended leaves for the next
 * (malloc'd, *len bytes): key (what else the links were checked against,
 * such as the ignore_links patterns), the hashes of the files its links
 * led to and of the pages that reported something, with those of last
 * (the memo it ran on, when it checked only some pages: its targets, and
 * the pages it said reported that this run did not check); NULL when
 * links are not checked, or it ran on some pages without a memo of the
 * same key. links_check_memo_holds: whether memo has key and each of its
 * files is one of lc's (every file of the build given). links_memo_key:
 * memo's key, 0 for bytes that are not a memo. links_memo_told: sets
 * which[i] for each page outs[i] that reported in memo's run; the number
 * it set. */
int links_record_same_ids(const char *a, size_t alen, const char *b, size_t blen);
void links_check_only(struct links_check *lc, const unsigned char *which);
char *links_check_memo(const struct links_check *lc, uint64_t key, const char *last, size_t last_len, size_t *len);
int links_check_memo_holds(const struct links_check *lc, uint64_t key, const char *memo, size_t len);
uint64_t links_memo_key(const char *memo, size_t len);
size_t links_memo_told(const char *memo, size_t len, const char *const *outs, size_t n, unsigned char *which);
size_t links_check_reported(const struct links_check *lc);

/* links_external: for `folio check --external`, every http(s) link of the
 * pages given, once per page and URL, with the place of its text: fn is
 * called with the URL and its place. Links into self (the site's own
 * absolute base_url, or NULL), such as its canonical and feed links, are
 * the site itself, not yet at that address: they are left out. */
typedef void (*links_external_fn)(void *ctx, const char *url, const char *path, int line, int col);
void links_check_external(struct links_check *lc, const char *self, links_external_fn fn,
			  void *ctx);

#endif
