/* search.h: the site's search index, made from the model after Markdown
 * (never from the HTML files written), as the files of search/ in the
 * output. The format is described in folio-site(5), SEARCH INDEX; the
 * client that reads it is the theme's static/search.js.
 *
 *   words.c  words of text and of a body's HTML: Unicode NFKC and case
 *            folding (utf8proc), code blocks, math and markup left out
 *   stem.c   the Snowball stemmer of the site's language (libstemmer)
 *   index.c  documents -> stems, weighted postings, shards by prefix,
 *            per-document records, filter lists, each file named by the
 *            hash of its bytes; search_output hands them to the output;
 *            a session's index kept and patched after an edit
 *            (search_live: only the files of what changed are made)
 *   pack.c   each document's counts kept between builds (search.pack in
 *            .folio-cache/): a build counts only the documents that
 *            changed
 *
 * Folder search/: the search index of the model: words, stems, shards and
 * records, each document's counts kept between builds.
 * uses: base, cache, tmpl, read, model, output.
 */
#ifndef FOLIO_SEARCH_H
#define FOLIO_SEARCH_H

#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/buf.h"

struct site;
struct output_sink;

/* ---- words (words.c) ---- */

/* Where a word of a body was: in a heading, or elsewhere. */
enum search_field { SEARCH_BODY = 0, SEARCH_HEADING = 1 };

/* The longest word kept, in bytes once normalised: longer runs (hashes,
 * base64) are dropped, not cut. */
#define SEARCH_WORD_MAX 48

/* search_word_fn: one word, normalised (NFKC, case-folded; w[0..n) is not
 * NUL-terminated), and where it was. */
typedef void (*search_word_fn)(void *ctx, const char *w, size_t n, enum search_field f);

/* search_words: each word of text[0..len): a run of letters, marks and
 * digits (an ideograph or a kana alone is a word of its own). Invalid
 * UTF-8 separates words. Every word goes to fn with field f. */
void search_words(const char *text, size_t len, enum search_field f, search_word_fn fn, void *ctx);

/* search_html_words: the words of a body's HTML as md_render made it:
 * text of <pre>, <script>, <style>, <svg>, <math>, comments and the math
 * spans (class "math ..." or "math-error", KaTeX's markup inside) is left
 * out; text inside <h1>..<h6> is SEARCH_HEADING; entities separate words. */
void search_html_words(const char *html, size_t len, search_word_fn fn, void *ctx);

/* ---- stems (stem.c) ---- */

struct search_stemmer;
/* search_stemmer_new: the Snowball stemmer of language ("en", "de-AT",
 * "french"), or NULL when libstemmer has none (words are then kept as
 * they are). */
struct search_stemmer *search_stemmer_new(const char *language, size_t len);
void search_stemmer_free(struct search_stemmer *st);
/* search_stem: the stem of w[0..n) (a normalised word), valid until the
 * next call; *out_len its length. With st NULL, w itself. */
const char *search_stem(struct search_stemmer *st, const char *w, size_t n, size_t *out_len);

/* ---- the counts of documents kept between builds (pack.c) ---- */

/* A cache of each document's counts (its words, stems and their weighted
 * counts), found by a hash of everything counting it reads; an index made
 * with it is the same bytes as one made without. */
struct search_cache;

/* search_cache_open: a cache kept in the file path (NULL: in memory
 * only), the pack of an earlier build, mapped; a missing, cut, damaged or
 * foreign file gives fewer entries or none (a damaged entry is counted
 * again, never taken). salt: hashed into every key (folio's executable:
 * counts made by another are not taken). */
struct search_cache *search_cache_open(const char *path, uint64_t salt);
void search_cache_free(struct search_cache *c);

/* search_cache_sweep: drops the entries no index used or stored since
 * the last sweep. */
void search_cache_sweep(struct search_cache *c);

/* search_cache_save: the entries held written to the file: the new ones
 * added at its end, or the file written anew when it is not the one read
 * or a quarter of it is of no more use. 0 (also without a file), or -1
 * with errno. search_cache_store: saves into the site's cache folder
 * (made if missing); a failure is a warning on stderr. */
int search_cache_save(struct search_cache *c);
void search_cache_store(struct search_cache *c, const char *site_dir);

/* search_cache_count: the entries held. */
size_t search_cache_count(const struct search_cache *c);

/* ---- the index (index.c) ---- */

struct search_options {
	int body;   /* the body's text is indexed (else title, summary, headings, tags, series) */
	int pages;  /* pages (about, ...) are indexed beside posts and series guides */
	int stem;   /* words are stemmed */
	struct str language;
	int jobs;   /* threads the index is made on (0 or 1: this one) */
	struct search_cache *cache; /* counts of earlier builds (NULL: none) */
};

/* One file of the index: its path in the output ("search/t/HASH.bin"). */
struct search_file {
	const char *rel;
	const char *data;
	size_t len;
};

struct search_index {
	struct search_file *files;
	size_t nfiles;
	size_t ndocs, nwords, nstems, nshards;
	size_t ncached; /* documents whose counts came from the cache */
};

/* A document to index: its weighted texts and its record. */
struct search_doc {
	struct str url, title, date, series, excerpt;
	struct str summary;          /* front matter's summary, if any */
	const struct str *tags;
	size_t ntags;
	struct str body_html;        /* may be empty */
	/* XXH3_64bits_withSeed(body_html, its length, its length) when known
	 * (markdown.h: md_doc's html_hash), else 0: made when needed */
	uint64_t body_hash;
};

/* search_index_docs: the index of docs[0..n), in this order (a
 * document's number is its position). series_of/tags_of: the filters,
 * each a name and the numbers of its documents. Everything is allocated
 * in a; the same input gives the same bytes. */
struct search_filter {
	struct str name;
	const uint32_t *docs;
	size_t ndocs;
};
void search_index_docs(struct arena *a, const struct search_options *o, const struct search_doc *docs, size_t n,
		       const struct search_filter *series, size_t nseries, const struct search_filter *tags,
		       size_t ntags, struct search_index *out);

/* search_index_site: the documents of a site (published posts newest
 * first, series guides, then pages) given to search_index_docs. */
void search_index_site(struct arena *a, const struct site *s, const struct search_options *o,
		       struct search_index *out);

/* ---- a session's index, patched after an edit (index.c) ---- */

/* What an index was made of, kept by folio serve's session to patch it
 * when documents' texts change: an edit then costs the shards of the
 * words it changed and the records of the documents edited, not the
 * site's. It points into the documents' texts, which must outlive it. */
struct search_live;

/* search_index_docs_kept: search_index_docs, with what it was made of
 * kept in *keep (search_live_free frees it). */
void search_index_docs_kept(struct arena *a, const struct search_options *o, const struct search_doc *docs,
			    size_t n, const struct search_filter *series, size_t nseries,
			    const struct search_filter *tags, size_t ntags, struct search_index *out,
			    struct search_live **keep);

/* search_live_update: the index of docs[0..n) made by patching L, which
 * was made from the same number of documents (a document whose texts are
 * not where they were is counted again): the files of out that a patch
 * makes have their bytes (in a); the others, the last index's, have none
 * (data NULL: the output keeps them). 0; 1 when the index must be made
 * whole (L is then of no more use): the options or the number of
 * documents changed, too many documents did, or the averages of their
 * lengths moved (every impact may). The filters are those L was made
 * with (a patch changes no post's tags or series). The same bytes as
 * search_index_docs of the same documents and filters. */
int search_live_update(struct search_live *L, struct arena *a, const struct search_options *o,
		       const struct search_doc *docs, size_t n, struct search_index *out);

/* search_live_patched: the documents patched into L since it was made */
size_t search_live_patched(const struct search_live *L);
void search_live_free(struct search_live *L);

/* search_reuse_fn: 0 when rel, a file of the last build, is kept as it is
 * (its name is the hash of its bytes: the same name, the same bytes). */
typedef int (*search_reuse_fn)(void *ctx, const char *rel);

/* search_output: the site's index (when its config asks for one), its
 * documents counted on up to `jobs` threads (or taken from cache, which
 * may be NULL), handed to sink, each file not kept by reuse (which may be
 * NULL) written. With live (a session's), the index *live holds is
 * patched (*patched set: the cache was not asked), or the index made whole
 * is kept there. Returns the number of errors (a file that could not be
 * written). */
int search_output(struct arena *a, const struct site *s, int jobs, struct search_cache *cache, search_reuse_fn reuse,
		  void *reuse_ctx, const struct output_sink *sink, struct search_live **live, int *patched);

/* ---- the shards' bytes, for tests ---- */

/* search_varint: appends v as LEB128 (7 bits a byte, low first). */
void search_varint(struct buf *b, uint64_t v);
/* search_shard_key: the bytes of w's shard key at depth k code points
 * (the whole word when it has fewer). */
size_t search_prefix_len(const char *w, size_t n, size_t k);

#endif
