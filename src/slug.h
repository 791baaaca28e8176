/* slug.h: URL slugs for tags, categories and titles. */
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
 * no white space, not "." or "..", no control characters. */
int slug_valid(struct str s);

#endif
