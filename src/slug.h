/* slug.h: URL slugs for tags, categories and titles, and the UTF-8 checks
 * that names and texts from files need. */
#ifndef FOLIO_SLUG_H
#define FOLIO_SLUG_H

#include "arena.h"
#include "buf.h"

/* slugify: a URL path segment for text: Unicode lower case (utf8proc),
 * letters and digits kept, every other run of characters one '-', no '-'
 * at either end. "ML Systems" -> "ml-systems", "C++" -> "c", "Über GPU" ->
 * "über-gpu". Empty when text has no letter or digit. Owned by the arena. */
struct str slugify(struct arena *a, struct str text);

/* slug_valid: whether s may be used as given in a URL: non-empty, no '/',
 * no white space, not "." or "..", no control characters, valid UTF-8. */
int slug_valid(struct str s);

/* utf8_valid_prefix: how many bytes of s[0..n) are well-formed UTF-8 (no
 * overlong forms, surrogates or code points past U+10FFFF): n when all. */
size_t utf8_valid_prefix(const char *s, size_t n);

/* utf8_show: appends s to b for a message, each byte that is not UTF-8
 * written as \xHH, so that the user sees (and can type) the name. */
void utf8_show(struct buf *b, struct str s);

#endif
