/* mermaid.h: Mermaid diagrams drawn at build time: beautiful-mermaid (its
 * layout by dagre, through folio's stand-in for elkjs) run in QuickJS, one
 * interpreter per thread, made an inline SVG that follows the page's
 * colours, or the renderer's error. */
#ifndef FOLIO_MERMAID_H
#define FOLIO_MERMAID_H

#include <stddef.h>

#include "base/buf.h"

/* Bytes a thread's interpreter may hold (beautiful-mermaid and dagre
 * loaded: some 4 MB; a 1,000-node flowchart laid out: under 100 MB), and
 * the C stack JavaScript may use at most (and half what the calling thread
 * has left). */
#define MERMAID_MEMORY_LIMIT ((size_t)256 << 20)
#define MERMAID_MAX_STACK    ((size_t)4 << 20)

/* mermaid_render: draws src[0..len) (Mermaid's language: flowchart, state,
 * sequence, class, ER, xychart...) and appends to out one <svg> element:
 *   <svg xmlns="http://www.w3.org/2000/svg" id="mmHEX" viewBox="0 0 W H"
 *   width="W" height="H" role="img" aria-label="TITLE" style="max-width:
 *   100%;height:auto;COLOURS"><title>TITLE</title>...</svg>
 * title is the caption (HTML-escaped here; empty: DIAGRAM_UNTITLED). mmHEX
 * (from a hash of the source) starts every id inside, and the references
 * to them, so that diagrams on a page never share one. The colours are
 * the page's: var(--bg,#fff) and var(--fg,currentColor) and mixes of them
 * (color-mix), so that a dark theme draws it light on dark; the text takes
 * the page's font. What beautiful-mermaid writes is checked: elements of
 * SVG's drawing only (no <script>, <foreignObject>, <style> or <a>), no
 * on* attribute, no reference outside the drawing. The same source gives
 * the same bytes.
 * seconds: the CPU time the drawing may take (the page's budget left);
 * past it the drawing stops with an error. Loading the thread's
 * interpreter (its first diagram) is not counted.
 * Returns 0; 1 when the source is empty or blank (out untouched); or -1
 * with the message in err (beautiful-mermaid's, e.g. "Unknown diagram
 * type", which names no place in the source; or folio's: over
 * DIAGRAM_MAX_SOURCE, a NUL byte, over the time, memory or stack).
 * Thread-safe. */
int mermaid_render(struct buf *out, const char *src, size_t len, struct str title, double seconds,
                   struct buf *err);

/* mermaid_thread_cleanup: frees this thread's interpreter, if it has one
 * (threads exiting free theirs anyway). */
void mermaid_thread_cleanup(void);

/* mermaid_version: "beautiful-mermaid VERSION, dagre VERSION", for folio
 * --version. */
const char *mermaid_version(void);

#endif
