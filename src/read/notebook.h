/* notebook.h: a Jupyter notebook (.ipynb, nbformat 4) as a post: its JSON
 * read into folio's tree (formats/json.h), its front matter (the
 * metadata's `folio` map), its cells converted into the Markdown folio
 * renders (code cells as fences in the kernel's language, their outputs as
 * HTML, images as files held in memory, LaTeX as display math), with a
 * table that maps each line of that Markdown back to its cell and its
 * place in the JSON, so that a message about the Markdown points into the
 * notebook. Part of read/ (content.h's uses).
 */
#ifndef FOLIO_NOTEBOOK_H
#define FOLIO_NOTEBOOK_H

#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/diag.h"
#include "formats/yaml.h"
#include "md/markdown.h"

/* A notebook post's file name ends so; its front matter may be in the
 * file of the same name ending in ".yml" beside it (a sidecar). */
#define NOTEBOOK_EXT ".ipynb"

/* The most bytes of a notebook folio reads: its images are in it, as
 * base64, so it may be larger than a Markdown file (FOLIO_MAX_FILE). */
#define NOTEBOOK_MAX_FILE ((size_t)64 << 20)

/* Where one line of the generated Markdown comes from: cell (1-based; 0:
 * none), its kind ("markdown", "code", "raw"), output (1-based, 0: the
 * cell's source) and the JSON string node it was made from (or the cell's
 * node); skip: the bytes of that string's text before the line, or
 * NOTEBOOK_NO_SKIP when the line is folio's own (a fence, a wrapper) or
 * escaped text whose columns are not the string's. */
#define NOTEBOOK_NO_SKIP ((size_t)-1)
struct notebook_line {
	uint32_t cell, output;
	const char *kind;
	const struct ynode *node;
	size_t skip;
};

struct notebook {
	const char *path;       /* site-relative, for messages */
	const char *src;        /* the JSON text */
	size_t src_len;
	const struct ynode *fm; /* the metadata's `folio` map, or NULL */
	const struct ynode *fm_node; /* the `metadata` map (NULL: none), for messages */
	const char *md;         /* the Markdown made of the cells (arena) */
	size_t md_len;
	struct notebook_line *lines; /* one per line of md */
	size_t nlines;
	struct md_asset *assets; /* the image outputs and attachments, by name */
	size_t nassets;
	size_t *starts; /* where each line of src starts: a place is found at once */
	size_t nstarts;
};

/* notebook_read: reads src[0..len) (the file path, site-relative) as a
 * notebook into a new struct notebook in a (everything of it in a).
 * Errors go to d as "path:line:col: error: cell N (KIND): ...": JSON that
 * does not parse (at its own place), an nbformat other than 4, no
 * `cells` list, a cell that is not a map or has no cell_type or source,
 * an unknown cell_type, an output without output_type, an image that is
 * not base64 of its type. NULL after any error. */
struct notebook *notebook_read(struct arena *a, struct diag *d, const char *path, const char *src, size_t len);

/* notebook_render: md_render of nb's Markdown with o (its assets added),
 * every message about it moved to the cell, the line and the column of the
 * notebook it comes from, with "cell N (KIND): " before its text. As
 * md_render: 0, or -1 after an error; out owned by a. */
int notebook_render(struct arena *a, const struct md_options *o, struct diag *d, const struct notebook *nb,
		    struct md_doc *out);

/* notebook_place: where line and col (1-based) of nb's Markdown are in the
 * notebook file: the line, the byte column, and the cell and its kind
 * (cell 0: none). For notebook_render's messages; public for its tests. */
struct notebook_place {
	int line, col;
	uint32_t cell, output;
	const char *kind;
};
struct notebook_place notebook_place(const struct notebook *nb, int line, int col);

/* ansi_to_html: appends terminal text s[0..n) to out as HTML: & < > "
 * escaped; SGR colours 30-37 and 90-97 as <span class="ansi-red">,
 * "ansi-bright-red", bold (1) as "ansi-bold" (22 ends it, 39 the colour,
 * 0 or an empty list both); every other escape (CSI, OSC, two-byte) and
 * control character but newline and tab dropped. Spans never stay open
 * past the end, and are never empty. (read/ansi.c) */
void ansi_to_html(struct buf *out, const char *s, size_t n);

/* notebook_base64: decodes base64 s[0..n) (white space ignored, padding
 * optional) into a new arena block, its length in *len; NULL when a byte
 * is not base64 (its offset in *bad) or the length cannot be. */
unsigned char *notebook_base64(struct arena *a, const char *s, size_t n, size_t *len, size_t *bad);

#endif
