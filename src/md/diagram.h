/* diagram.h: diagrams drawn at build time: pikchr's source made an inline
 * SVG that follows the page's colours, or pikchr's error with its place. */
#ifndef FOLIO_DIAGRAM_H
#define FOLIO_DIAGRAM_H

#include <stddef.h>

#include "base/buf.h"

/* A diagram's source is at most this many bytes: a drawing of several
 * hundred objects is a few KiB, and pikchr's run time grows with the
 * square of the objects a source names and refers back to. */
#define DIAGRAM_MAX_SOURCE ((size_t)64 << 10)

/* The CPU seconds the diagrams of one document may take in all (unless
 * md_options' diagram_seconds says otherwise); past them the rest are not
 * drawn, with an error. pikchr reads at most 10,000 tokens a diagram,
 * macro expansions included (mk/pikchr.mk), which bounds one diagram to
 * some 0.05 s however it is written; a real one of 30 objects takes 0.4
 * ms, so that this is some 700 of them, and a page of 1 MiB of diagrams
 * builds within bench-patho's goal of 0.5 s. */
#define DIAGRAM_DOC_SECONDS 0.25

/* The accessible name of a diagram without a caption. */
#define DIAGRAM_UNTITLED "Diagram"

/* diagram_pikchr: draws src[0..len) (pikchr's language) and appends to out
 * one <svg> element:
 *   <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 W H" width="W"
 *   height="H" role="img" aria-label="TITLE" style="font-size:initial;
 *   max-width:100%;height:auto"><title>TITLE</title>...</svg>
 * title is the caption (HTML-escaped here; empty: DIAGRAM_UNTITLED). The
 * drawing's black (pikchr's default ink) becomes currentColor and its white
 * the page's background, var(--bg,#fff) (the default theme's variable,
 * white without it, as in a feed reader), so that a dark theme draws it
 * light on dark; other colours stay as written. pikchr gives its elements
 * no ids, so that any number of diagrams may share a page. The same source
 * gives the same bytes (pikchr prints numbers with printf in the C
 * locale, which folio never changes).
 * Returns 0; 1 when the source draws nothing (empty, or only comments and
 * settings: out untouched); or -1 with pikchr's message in err (e.g.
 * "no such variable"; a source over DIAGRAM_MAX_SOURCE or holding a NUL
 * byte is refused with a message of folio's) and its place in the source
 * in *line and *col (1-based; the column in bytes, and one past the end of
 * the line when pikchr points after its last token; 0 and 0 when it names
 * no place). Thread-safe. */
int diagram_pikchr(struct buf *out, const char *src, size_t len, struct str title, struct buf *err,
                   int *line, int *col);

/* diagram_refuse: -1 if src[0..len) is not drawn whatever its language:
 * over DIAGRAM_MAX_SOURCE, or holding a NUL byte; then folio's message is
 * in err and the NUL's place in *line and *col (1-based; else 0 and 0).
 * Else 0, with *line and *col 0. */
int diagram_refuse(const char *src, size_t len, struct buf *err, int *line, int *col);

/* diagram_version: "pikchr VERSION", for folio --version. */
const char *diagram_version(void);

#endif
