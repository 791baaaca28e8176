/* pack.h: inside the search module, between index.c and pack.c: what
 * counting one document gives (struct counted), and the cache of those
 * counts that search.pack keeps between builds (search.h's struct
 * search_cache). */
#ifndef FOLIO_SEARCH_PACK_H
#define FOLIO_SEARCH_PACK_H

#include <stddef.h>
#include <stdint.h>

struct arena;

/* varint_put: v as LEB128 at o (room for 10 bytes); returns the end. */
static inline unsigned char *varint_put(unsigned char *o, uint64_t v)
{
	while (v >= 0x80) {
		*o++ = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	*o++ = (unsigned char)v;
	return o;
}

/* SEARCH_COUNT_VERSION: the way documents are counted (words.c, stem.c,
 * index.c's pass 1 and a count's bits below). Bump it with any change to
 * them: it is hashed into every key, so that counts made another way are
 * never taken. */
#define SEARCH_COUNT_VERSION 1

/* What a stem's count in a document holds: the text's weighted count
 * below TEXT_MAX, and where else it was. */
#define TEXT_MAX 0xfffffu
#define TITLE_ONE (1u << 20) /* times in the title: 4 bits */
#define TITLE_MASK (15u << 20)
#define IN_TAG (1u << 24)
#define IN_SERIES (1u << 25)
#define IN_HEADING (1u << 26)

/* One document's counts, self-contained: its words in the order they
 * first came in it, each with the number of its stem among the
 * document's own (stems numbered in the order their first word came), and
 * its postings by that number. Its postings are in an arena kept until
 * the index is made (the counting thread's: the index renumbers their
 * stems in place), the rest in one freed once the index has taken the
 * document in. Counted now, the words' and stems' texts are in it (tid
 * NULL); taken from the cache, their numbers there (text NULL), the texts
 * themselves read from the cache (search_cache_text) only by a build that
 * has not met them yet. */
struct counted {
	uint32_t *wstem; /* per word: its stem's number */
	/* counted now */
	char *text;      /* the words' and stems' bytes */
	uint32_t *wtext; /* per word: offset, length in text */
	uint32_t *stext; /* per stem: offset, length in text */
	/* taken from the cache: per word, then per stem, the number of its
	 * text there (the same number, the same text, for a whole build) */
	uint32_t *tid;
	/* the postings: stem (with in_order, posting k is of stem k: the
	 * array is room for np numbers), count */
	uint32_t *pstem, *pw;
	uint32_t nwords, nstems, np, dl, tl, in_order;
};

/* The key of a document's counts: a hash of everything counting it reads. */
struct search_key {
	uint64_t lo, hi;
};

struct search_options;
struct search_doc;
/* search_doc_key: the key of d's counts (index.c): its texts, o's options
 * that change them and SEARCH_COUNT_VERSION, salted. */
struct search_key search_doc_key(uint64_t salt, const struct search_options *o, const struct search_doc *d);

struct search_cache;

/* search_cache_salt: what the cache was opened with, for the keys. */
uint64_t search_cache_salt(const struct search_cache *c);

/* search_cache_get: on a hit, *r made (its postings in keep, the rest in
 * a: arenas of the calling thread's) and 1; 0 when there is no entry of
 * k, or a damaged one. Thread-safe. */
int search_cache_get(struct search_cache *c, const struct search_key *k, struct arena *a, struct arena *keep,
		     struct counted *r);

/* search_cache_text: the text of number id (below search_cache_texts(c))
 * and *len its length, as long as c lives. Thread-safe. */
const char *search_cache_text(struct search_cache *c, uint32_t id, uint32_t *len);
size_t search_cache_texts(struct search_cache *c);

/* search_cache_text_id: the number of the text p[0..len) (at most
 * 2 * SEARCH_WORD_MAX + 1 bytes), added if new: the same as long as c
 * lives. Thread-safe. */
uint32_t search_cache_text_id(struct search_cache *c, const char *p, uint32_t len);

/* search_cache_put: r stored under k (r stays the caller's); r's texts
 * are its text, or their numbers in c (tid: r made by counting, with
 * search_cache_text_id). Thread-safe. */
void search_cache_put(struct search_cache *c, const struct search_key *k, const struct counted *r);

#endif
