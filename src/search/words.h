/* words.h: inside the search module, between words.c and index.c: the
 * words of a text handed on with a hash of their bytes, so that the
 * dictionary's tables look them up without hashing them again. The hash
 * is only ever used in memory, by index.c's tables: it is neither written
 * nor compared across builds, and may change. */
#ifndef FOLIO_SEARCH_WORDS_H
#define FOLIO_SEARCH_WORDS_H

#include "search.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* search_hword_fn: search_word_fn with h, search_word_hash(w, n). */
typedef void (*search_hword_fn)(void *ctx, const char *w, size_t n, uint64_t h, enum search_field f);

#define SEARCH_HASH_K1 0x9e3779b97f4a7c15ull
#define SEARCH_HASH_K2 0xff51afd7ed558ccdull

/* search_word_hash_padded: the hash of w[0..n) where the bytes after n, up
 * to the next multiple of 8, are readable and zero (a word's buffer);
 * two multiplications for a word of up to 16 bytes. */
static inline uint64_t search_word_hash_padded(const char *w, size_t n)
{
	uint64_t h = (uint64_t)n * SEARCH_HASH_K1;
	for (size_t i = 0; i < n; i += 8) {
		uint64_t v;
		memcpy(&v, w + i, 8);
		h = (h ^ v) * SEARCH_HASH_K2;
		h ^= h >> 32;
	}
	h ^= h >> 29;
	h *= SEARCH_HASH_K1;
	return h ^ (h >> 32);
}

/* search_word_hash: the same hash of any w[0..n) (no padding read). */
static inline uint64_t search_word_hash(const char *w, size_t n)
{
	uint64_t h = (uint64_t)n * SEARCH_HASH_K1;
	for (size_t i = 0; i < n; i += 8) {
		uint64_t v = 0;
		memcpy(&v, w + i, n - i < 8 ? n - i : 8);
		h = (h ^ v) * SEARCH_HASH_K2;
		h ^= h >> 32;
	}
	h ^= h >> 29;
	h *= SEARCH_HASH_K1;
	return h ^ (h >> 32);
}

/* search_words_h, search_html_words_h: search_words and
 * search_html_words, each word with its hash. */
void search_words_h(const char *text, size_t len, enum search_field f, search_hword_fn fn, void *ctx);
void search_html_words_h(const char *html, size_t len, search_hword_fn fn, void *ctx);

#endif
