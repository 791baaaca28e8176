/* internal.h: what markdown.c shares with blocks.c and mathblocks.c. Not
 * for other modules: they use markdown.h. */
#ifndef FOLIO_MD_INTERNAL_H
#define FOLIO_MD_INTERNAL_H

#include <stdint.h>

#include <cmark-gfm.h>

#include "md/markdown.h"

/* The document being rendered, for the block passes and their messages. */
struct md_ctx {
	struct arena *a;
	struct diag *d;
	struct diag_src in; /* the file and where the Markdown is in it */
	const struct md_options *o;
	struct md_doc *out;
	int errors;
	/* for find_in_source (blocks.c): where each line of src starts,
	 * made on first use, and where the last search of a block ended */
	size_t *lines, nlines;
	int find_block;
	size_t find_next;
	size_t find_left; /* bytes the searches may still read */
	/* local images looked up so far (blocks.c), by file */
	struct md_image *images;
	size_t nimages, cap_images;
	/* the site folder's realpath (the folder of o->static_dir), looked up
	 * on first use: files named outside it are refused (sitefile.h) */
	char *site_real;
	int site_looked;
	/* code the highlighter may still be given in this document (see
	 * MD_HL_BUDGET); 0 once a block did not fit */
	size_t hl_left;
	/* HTML the block passes may still put in (see MD_RAW_BUDGET), and
	 * whether a piece did not fit (the passes then stop) */
	size_t raw_left;
	int raw_over;
	/* CPU seconds the formulas took so far (see md_options'
	 * typeset_seconds), and whether they took too long */
	double math_s;
	int math_over;
	/* the file attributes of directives found wrong (md_directives_check),
	 * with their messages: md_directive_emit shows the error in place of
	 * the media, without the link the link check would report again */
	struct md_bad_file {
		const void *attr; /* a struct dattr */
		char *msg;        /* in the arena */
	} *bad_files;
	size_t nbad_files;
};

/* MD_RAW_BUDGET: the bytes of HTML the block passes may put in one
 * document: code blocks (with line numbers some 80 bytes a line) and
 * formulas (each use counts its MathML again: it is one copy in memory,
 * but every copy in the page). A page may be 64 MiB (the templates'
 * output limit, folio-template(5)); past this the document is an error,
 * rather than a page cmark's renderer would abort the process for (past
 * 1 GiB) or the templates reject after building it. */
#define MD_RAW_BUDGET ((size_t)64 << 20)

/* MD_HL_BUDGET: the bytes of code one document may have highlighted (each
 * block counts its size plus MD_HL_BLOCK_COST). tree-sitter takes 0.7 s
 * for 1 MiB of real C and over 2 s for 1 MiB of unclosed parentheses, so
 * this keeps any page's highlighting under a third of a second; blocks
 * past it come out as plain code, with a warning. */
#define MD_HL_BUDGET ((size_t)128 << 10)
#define MD_HL_BLOCK_COST 64

/* md_math_kind: 0 for a node that is no formula, 1 inline, 2 display. */
int md_math_kind(cmark_node *n);
/* md_math_pack / md_math_where: a formula's place in the body (1-based line
 * and column), kept in its node's user data. */
uintptr_t md_math_pack(int line, int col);
void md_math_where(cmark_node *n, int *line, int *col);
/* md_plain_text: the text of n and its descendants, as a reader sees it. */
void md_plain_text(cmark_node *n, struct buf *b);

/* md_visit_fn: sees every event of a walk of the whole tree. */
typedef void (*md_visit_fn)(void *ctx, cmark_node *n, cmark_event_type ev);

/* md_blocks: the passes after parsing: code blocks highlighted (with their
 * options), formulas typeset, local images checked and sized, an image
 * alone in its paragraph with a title made a <figure>. Errors and warnings
 * go to c->d; returns the number of errors. visit (if not NULL) is given
 * every event of the walk that finds them, before the tree changes: one
 * walk of a big tree instead of two (each node a cache miss). */
int md_blocks(struct md_ctx *c, cmark_node *root, md_visit_fn visit, void *visit_ctx);

/* A display math block found before parsing (mathblocks.c): its TeX
 * (owned by the arena; the lines below the opening one without their
 * containers' prefixes), where its "$$" opens (body line, 1-based byte
 * column), and the text after its closing "$$" on that line (in the body;
 * a paragraph). */
struct md_mblock {
	const char *tex;
	size_t tex_len;
	int line, col;
	const char *after;
	size_t after_len;
	int after_line;
};

/* md_math_blocks: finds the display math blocks of t[0..len) (see
 * mathblocks.c) into *bs (*nb of them; the caller frees *bs). If there are
 * any, out holds t with each block made, line for line, a raw HTML block
 * <pre data-folio-math="K">...</pre> (K its index), and it returns 1; else
 * 0, out untouched. An unclosed "$$" is an error (to c->d, counted in
 * c->errors) and is left as it is. */
int md_math_blocks(struct md_ctx *c, const char *t, size_t len, struct buf *out, struct md_mblock **bs,
                   size_t *nb);

/* With math.delimiters: brackets, the backslash of each \(, \), \[ and \]
 * (one that no backslash before it escapes) becomes MD_BSENT before cmark
 * parses: cmark would read "\(" as an escaped "(", and an inline extension
 * cannot take the backslash from it. The math extension takes the
 * sentinel's pairs; markdown.c gives every other one back (a backslash in
 * code, raw HTML and TeX; nothing, as the escape it was, in text). The
 * text keeps its length, so positions stay right. */
#define MD_BSENT '\x02'

/* md_math_sentinels: t[0..len) into out with the sentinels (and a byte
 * MD_BSENT of t made U+001A, so that it cannot pass for one). Returns the
 * number of sentinels; 0 leaves out untouched. */
size_t md_math_sentinels(const char *t, size_t len, struct buf *out);

/* md_unsentinel: s[0..n) with each MD_BSENT made a backslash, into out. */
void md_unsentinel(struct buf *out, const char *s, size_t n);

/* md_images_free: frees what the image pass remembered of c's images. */
void md_images_free(struct md_ctx *c);

struct directive;
/* md_directives_check: every directive must be one folio has, with its
 * attributes, and the files it names must exist. Returns the errors. */
int md_directives_check(struct md_ctx *c, const struct directive *dirs, size_t n);
/* md_directive_emit: the HTML of a directive's opening or closing line (a
 * directive_rewrite callback; ctx is the struct md_ctx). */
void md_directive_emit(struct buf *out, const struct directive *dir, int closing, void *ctx);

#endif
