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

/* search_hword_fn: search_word_fn with h, search_word_hash(w, n); the
 * bytes after the word, up to the next multiple of 8, are readable and
 * zero (as search_word_hash_padded reads them), so that a table compares
 * a word 8 bytes at a time. */
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

/* search_word_hash_2: the same hash of a word of 1 to 16 bytes given as
 * its two halves v0 and v1, zero-padded (v1 0 up to 8 bytes): from
 * registers, with no load of bytes just stored. */
static inline uint64_t search_word_hash_2(uint64_t v0, uint64_t v1, size_t n)
{
	uint64_t h = (uint64_t)n * SEARCH_HASH_K1;
	h = (h ^ v0) * SEARCH_HASH_K2;
	h ^= h >> 32;
	if (n > 8) {
		h = (h ^ v1) * SEARCH_HASH_K2;
		h ^= h >> 32;
	}
	h ^= h >> 29;
	h *= SEARCH_HASH_K1;
	return h ^ (h >> 32);
}

/* search_word_eq_padded: whether a[0..n) and b[0..n) are the same bytes,
 * both zero-padded to the next multiple of 8 (compared 8 at a time). */
static inline int search_word_eq_padded(const char *a, const char *b, size_t n)
{
	for (size_t i = 0; i < n; i += 8) {
		uint64_t x, y;
		memcpy(&x, a + i, 8);
		memcpy(&y, b + i, 8);
		if (x != y)
			return 0;
	}
	return 1;
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
