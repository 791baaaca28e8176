/* slug.h: URL slugs for tags, categories and titles, and the UTF-8 checks
 * that names and texts from files need. */
#ifndef FOLIO_SLUG_H
#define FOLIO_SLUG_H

#include "base/arena.h"
#include "base/buf.h"

/* slugify: a URL path segment for text: Unicode lower case (utf8proc),
 * letters and digits kept, every other run of characters one '-', no '-'
 * at either end. "ML Systems" -> "ml-systems", "C++" -> "c", "Über GPU" ->
 * "über-gpu". Empty when text has no letter or digit. Owned by the arena. */
struct str slugify(struct arena *a, struct str text);

/* term_slug: the URL slug of a tag or a category: slugify after a few
 * signs that tell names apart are spelled out as words: each '+' is "plus"
 * ("C++" -> "c-plus-plus"), '#' after a letter or digit is "sharp" ("C#" ->
 * "c-sharp", "F#" -> "f-sharp"; elsewhere '#' separates), '&' is "and"
 * ("R&D" -> "r-and-d"), and a '.' that starts the name before a letter or
 * digit is "dot", joined to it (".NET" -> "dotnet"). Names that differ only
 * in case or spacing get one slug. "_" when nothing is left ("!!!"), so
 * that every term has a URL. Owned by the arena. */
struct str term_slug(struct arena *a, struct str name);

/* term_key: what makes two spellings of a term one name: each code point
 * lower-cased (as slugify does), white space trimmed and each run of it
 * one space, a hyphen or underscore between two letters or digits a space.
 * "Deep  Learning", "deep-learning" and "deep_learning" have one key; "C--"
 * and "C" do not. Owned by the arena. */
struct str term_key(struct arena *a, struct str name);

/* slug_valid: whether s may be used as given in a URL: non-empty, no '/',
 * no white space, not "." or "..", no control characters, valid UTF-8. */
int slug_valid(struct str s);

/* utf8_valid_prefix: how many bytes of s[0..n) are well-formed UTF-8 (no
 * overlong forms, surrogates or code points past U+10FFFF): n when all. */
size_t utf8_valid_prefix(const char *s, size_t n);

/* utf8_step: the code point at s.p[*i] in *cp (-1 for a byte that does
 * not start one: invalid UTF-8), *i moved past it; 0 when *i is at the
 * end. */
int utf8_step(struct str s, size_t *i, int32_t *cp);

/* utf8_show: appends s to b for a message, each byte that is not UTF-8
 * written as \xHH, so that the user sees (and can type) the name. */
void utf8_show(struct buf *b, struct str s);

#endif
