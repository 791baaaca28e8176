/* mathjax.h: the TeX that MathJax accepts and KaTeX refuses, rewritten into
 * KaTeX's form before typesetting (folio.yml's math: {compat: mathjax}).
 * Each rewrite is listed in folio-site(5), MATH IN MATHJAX'S DIALECT; what
 * no rewrite covers is left as it is, and KaTeX's error stays an error. */
#ifndef FOLIO_MATHJAX_H
#define FOLIO_MATHJAX_H

#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"

/* MATHJAX_MAX_DEPTH: braces and arguments nested deeper than this are
 * copied as they are (a formula that deep is refused by KaTeX anyway). */
#define MATHJAX_MAX_DEPTH 48

/* mathjax_rewrite: tex[0..len) (a formula without its delimiters, inline
 * or display != 0) in KaTeX's dialect. Returns the number of rewrites
 * made: 0 when tex needs none (out and map untouched), else out holds the
 * new TeX (appended) and map one uint32_t per byte of it, appended too:
 * the offset in tex of what that byte came from (a rewrite's inserted
 * bytes: the offset of the construct it replaced), so that an error
 * KaTeX finds in the new TeX points into the author's. Never fails. */
int mathjax_rewrite(const char *tex, size_t len, int display, struct buf *out, struct buf *map);

#endif
