/* internal.h: what the files of md/ share: the document being rendered
 * (struct md_ctx, which md_render hands to folio's cmark extension as its
 * private data), the passes md_render runs over it in order, and the
 * helpers the passes share. Not for other modules: they use markdown.h.
 *
 * The files, each using only those below it (no file calls back into one
 * that calls it):
 *   markdown.c   md_render: the table of passes, and rendering
 *   parse.c      the parse pass: cmark-gfm with folio's extension
 *   dirblock.c   the directives pass: kinds, checks, each line's HTML
 *   mathblock.c  the display math pass, and the bracket sentinels
 *   headings.c   the outline and ids passes, the table of contents
 *   xref.c       the cross-reference pass: labels numbered, references
 *                made placeholders (md_xref_expand)
 *   cite.c       the citations pass: [@key] and @key, the References
 *   summary.c    the summary passes
 *   sidenote.c   the sidenotes pass: footnotes again beside their references
 *   count.c      the counting pass (words, code, images), beside blocks
 *   blocks.c     code blocks, diagrams, formulas, figures and images made HTML
 *   htmlimg.c    the <img> tags of raw HTML sized, in a <picture>
 *   image.c      local image and media files: looked up, sized, refused;
 *                a picture of resized copies
 *   include.c    code from a file in a code block: looked up, refused,
 *                read, cut to lines or a symbol (symbol.c), noted
 *   where.c      places in the file: its lines, a text found again, the
 *                byte of a formula that an error points at
 *   ext.c        folio's cmark extension: inline math, rendering; md_init
 *   blockext.c   its block hooks: directive lines, display math blocks
 *   text.c       plain text of nodes and of raw HTML
 *   marks.c      the markers a text holds, in one scan (md_marks)
 *   nodes.c      folio's node types and a formula's place
 *   directive.c, codeblock.c, symbol.c, mem.c, math.c, highlight.c, unknown.c,
 *   diagram.c, mermaid.c, qjs.c: the modules they use (and
 *   images/imagesize.h, for image sizes). */
#ifndef FOLIO_MD_INTERNAL_H
#define FOLIO_MD_INTERNAL_H

#include <stdint.h>

#include <cmark-gfm.h>
#include <cmark-gfm-extension_api.h>
/* node.h and buffer.h (internal headers of cmark-gfm, which markdown.c
 * checks the version of): what a node keeps, read in place by the inline
 * helpers below */
#include <cmark-gfm/buffer.h>
#include <cmark-gfm/node.h>

#include "base/map.h"
#include "base/pool.h"
#include "md/directive.h"
#include "md/markdown.h"

/* ---- the document ---- */

struct md_heading; /* headings.c */
struct md_counter; /* count.c */

/* A node the parse made, or handed to the extension, which cmark may free
 * before the parse ends (an unreferenced footnote's blocks go): node is
 * NULL once it has been (its user data points here, its free function
 * says so). */
struct md_node_ref {
	cmark_node *node;
};

/* A display math block the parser found (blockext.c, mathblock.c): its
 * node, its TeX (in the arena; without its "$$"s, the lines after the
 * first without their containers' prefixes), where its "$$" opens (body
 * line, 1-based byte column), and the text after its closing "$$" (in the
 * arena, its line in the body). */
struct md_mblock {
	struct md_node_ref *ref;
	const char *tex;
	size_t tex_len;
	int line, col;
	const char *after;
	size_t after_len;
	int after_line;
	int closed; /* its closing "$$" was found */
	char closer; /* '$' for $$, ']' for \[ ... \] */
	/* it ended an HTML block that runs on to a blank line: the lines after
	 * its closing line up to it are raw HTML too (in the arena) */
	int in_html;
	const char *raw;
	size_t raw_len;
};

/* The file attributes of directives found wrong (dirblock.c),
 * with their messages: a directive's HTML shows the error in place of the
 * media, without the link the link check would report again. */
struct md_bad_file {
	const void *attr; /* a struct dattr */
	char *msg;        /* in the arena */
};

struct md_ctx {
	/* what md_render was given */
	struct arena *a;
	struct diag *d;
	struct diag_src in; /* the file and where the Markdown is in it */
	const struct md_options *o;
	struct md_doc *out;
	int errors;
	/* the body as cmark reads it (with sentinels: md_math_sentinels) */
	const char *text;
	size_t len;
	uint32_t marks; /* md_marks of the text as given (before the sentinels) */
	struct buf senttext;
	size_t nsent;
	/* the parse (parse.c): its options, this document's allocator, parser
	 * and tree, and folio's extension (private data: this context) */
	int options, parse_options;
	cmark_mem *mem;
	cmark_parser *parser;
	cmark_node *root;
	cmark_syntax_extension *ext;
	/* the block hooks (blockext.c): on when the text may hold a directive
	 * or display math; what they find */
	int blocks, dirs_on, math_on;
	int math_stop; /* display math opens only on lines above it (0: any line) */
	cmark_node *wrap;
	struct md_node_ref **tagged; /* HTML blocks handed to the extension */
	size_t ntagged, cap_tagged;
	struct dline *dlines;
	struct md_node_ref **dnodes; /* each line's node: a raw HTML block of one line */
	size_t ndlines, cap_dlines;
	struct dblock open_at_end;
	struct md_mblock *mblocks;
	size_t nmblocks, cap_mblocks;
	struct buf tex; /* the open display block's TeX */
	struct buf raw; /* the raw HTML lines after it (in_html) */
	int html_ended; /* the line on which a block ended an HTML block */
	/* how the parse went: directives turned off for their errors (their
	 * lines kept for the messages), the first unclosed display block */
	int dirs_failed;
	struct dline *failed_dlines;
	size_t nfailed_dlines;
	struct dblock failed_open;
	int unclosed_line, unclosed_col;
	char unclosed_closer;
	/* a code fence open at the end of the text (0: none): where, its
	 * character and length */
	int fence_line, fence_col, fence_len;
	char fence_char;
	/* inline math (ext.c): where counting a text's lines stopped, so that
	 * the formulas of one paragraph cost one pass */
	struct {
		const unsigned char *data;
		int pos, lines, last_nl;
	} seen;
	/* the directives the lines make (directive_pair) */
	struct directive *dirs;
	long ndirs, cap_dirs; /* cap_dirs: room in dirs for add_dir (0: none, a parse's) */
	/* for a site's template of a medium: what folio draws of it, by the
	 * directive's index (NULL until one is drawn) */
	struct md_media *media;
	long nmedia; /* its length: the directives when it was made */
	struct md_bad_file *bad_files;
	size_t nbad_files;
	int udir_calls; /* calls of the site's directives: their markers to fill (md_udirs_fill) */
	/* inline calls: the paragraph they are in, and where in the file the
	 * last one was found (their place: cmark keeps none for inlines) */
	cmark_node *inl_para;
	size_t inl_at;
	int inl_line; /* the file's line of inl_at */
	size_t inl_left; /* bytes the searches for their ']' may still read */
	int inl_warned;
	/* the outline (headings.c): headings, the <!--more--> marker, the
	 * first paragraph with text, whether there is code */
	struct md_heading *hs;
	size_t nh;
	cmark_node *more, *first_para;
	int has_code;
	size_t *text_lines, ntext_lines; /* where the lines of text start */
	size_t summary_len; /* bytes of plain text in the summary's blocks, uncut */
	/* for md_find_in_source (image.c): where each line of src starts,
	 * made on first use, and where the last search of a block ended */
	size_t *lines, nlines;
	int find_block;
	size_t find_next;
	size_t find_left; /* bytes the searches may still read */
	/* local files looked up so far (image.c), by path: struct md_image */
	struct map images;
	int in_picture;   /* inside an author's <picture> that raw HTML opened (htmlimg.c) */
	int imgs_written; /* the <img> tags written (md_img_loading): the first is fetched first */
	/* the site folder's realpath (the folder of o->static_dir), looked up
	 * on first use: files named outside it are refused (sitefile.h) */
	char *site_real;
	int site_looked;
	/* the files code blocks included (include.c), as md_doc.deps lists
	 * them; NULL until one is; and the code they showed (in the arena),
	 * which md_count_finish counts as code words */
	struct buf *deps;
	struct str *inc_code;
	size_t ninc_code;
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
	/* CPU seconds the diagrams took so far (see DIAGRAM_DOC_SECONDS), and
	 * whether they took too long */
	double diagram_s;
	int diagram_over;
	/* the counts (count.c), made on a task of their own beside the
	 * rendering when nothing in the tree changes (count_task) */
	struct md_counter *count;
	struct pool_task count_task;
	/* the body's HTML as cmark wrote it (mdmem's) */
	char *html;
	size_t html_len;
	/* the figures' images and listings' code blocks that have a label
	 * (xref.c): 1 + its index in out->labels, by the node's pointer */
	struct map xnodes;
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

/* ---- the passes, in the order md_render runs them ---- */

/* md_pass_sentinels: with math.delimiters: brackets, the text with its
 * bracket sentinels (mathblock.c, MD_BSENT). */
void md_pass_sentinels(struct md_ctx *c);
/* md_pass_parse: cmark-gfm parses the text into c->root with folio's
 * extension (parse.c). */
void md_pass_parse(struct md_ctx *c);
/* md_pass_directives: the directives' errors, checks and HTML (dirblock.c).
 * A call of one of the site's directives (md_options.udirs) becomes two
 * markers around its body's HTML; md_udirs_fill, once the body is HTML,
 * replaces each (innermost first) with what its template makes of its
 * arguments and the HTML between them, and notes the template in the
 * document's deps. */
void md_pass_directives(struct md_ctx *c);
void md_udirs_fill(struct md_ctx *c);
/* md_udirs_fill_summary: the same in the summary's HTML (md_pass_summary) */
void md_udirs_fill_summary(struct md_ctx *c);
/* md_pass_inline_directives: the site's inline directives, ":name[content]{attrs}"
 * in the text, made two markers around their content (dirblock.c) */
void md_pass_inline_directives(struct md_ctx *c);
/* md_pass_math_blocks: display math blocks and ```math fences made
 * formulas; the sentinels given back (mathblock.c). */
void md_pass_math_blocks(struct md_ctx *c);
/* md_pass_outline: the headings, the <!--more--> marker, the first
 * paragraph (headings.c). */
void md_pass_outline(struct md_ctx *c);
/* md_pass_ids: each heading's {#id} or slug, made unique, its TOC text
 * and HTML; headings rendered with their ids and anchors (headings.c). */
void md_pass_ids(struct md_ctx *c);
/* md_pass_xref: labels numbered, equations and tables wrapped with
 * theirs, references made placeholders (xref.c). */
void md_pass_xref(struct md_ctx *c);
/* md_pass_citations: [@key], [@a; @b, p. 4] and @key made links to the
 * works cited, listed before the footnotes (cite.c); only with
 * md_options.bibs and an '@' in the text. md_is_citation: n is such a
 * link (the summary keeps its text only). */
void md_pass_citations(struct md_ctx *c);
int md_is_citation(cmark_node *n);
/* md_pass_summary_text: the summary as text, before formulas become
 * MathML (summary.c). */
void md_pass_summary_text(struct md_ctx *c);
/* md_pass_blocks: code, formulas, images and figures made folio's HTML,
 * and the counts, in the same walk or on a task beside the rendering
 * (count.c). */
void md_pass_blocks(struct md_ctx *c);
/* md_count_finish: the counts into c->out, their task joined (count.c). */
void md_count_finish(struct md_ctx *c);
/* md_count_words: the words of s[0..n) as the counting pass counts them
 * outside prose (no CJK rule), fed in pieces of `piece` bytes or a little
 * more, whole characters (0: whole);
 * bytewise: without the sixteen-byte blocks. For the tests. */
size_t md_count_words(const char *s, size_t n, size_t piece, int bytewise);
/* md_pass_sidenotes: with md_options.sidenotes, the footnotes that can be
 * written again beside their first reference (sidenote.c), into the
 * body's HTML, before the summary changes the tree. */
void md_pass_sidenotes(struct md_ctx *c);
/* md_pass_summary: summary_html, after the body is rendered (summary.c). */
void md_pass_summary(struct md_ctx *c);
/* md_pass_toc: the table of contents (headings.c). */
void md_pass_toc(struct md_ctx *c);

/* md_parse_free / md_directives_free / md_outline_free / md_count_free /
 * md_images_free: what each keeps of c, freed (c's arena keeps the rest). */
void md_parse_free(struct md_ctx *c);
void md_directives_free(struct md_ctx *c);
void md_outline_free(struct md_ctx *c);
void md_count_free(struct md_ctx *c);
void md_images_free(struct md_ctx *c);
void md_xref_free(struct md_ctx *c);

/* ---- xref.c: what blocks.c asks of the labels ---- */

/* md_xref_node: the index in c->out->labels of the label of a figure's
 * image or a listing's code block n, or -1. */
int md_xref_node(const struct md_ctx *c, cmark_node *n);
/* md_xref_caption: the start of a labelled item's caption, "Figure N:"
 * (the theme's word, the number a placeholder), as HTML to out. */
void md_xref_caption(const struct md_ctx *c, struct buf *out, int label);

/* ---- nodes.c: folio's node types ---- */

/* The types of folio's nodes, registered once (md_nodes_init): formulas
 * (inline and display, their TeX in the node's content) and the block the
 * whole document is parsed in (see blockext.c). */
extern cmark_node_type md_node_math_inline, md_node_math_display, md_node_wrap;
void md_nodes_init(void);

/* md_math_kind: 0 for a node that is no formula, 1 inline, 2 display.
 * (This and the helpers below are inline: the counting walk asks them of
 * every node.) */
static inline int md_math_kind(cmark_node *n)
{
	cmark_node_type t = (cmark_node_type)n->type;
	return t == md_node_math_inline ? 1 : t == md_node_math_display ? 2 : 0;
}

/* md_math_pack / md_math_where: a formula's place in the body (1-based line
 * and column), kept in its node's user data. */
uintptr_t md_math_pack(int line, int col);
void md_math_where(cmark_node *n, int *line, int *col);
/* md_math_new: a formula node of tex[0..n) (display or inline) at
 * line:col, made with mem, rendered by ext. */
cmark_node *md_math_new(cmark_mem *mem, cmark_syntax_extension *ext, int display, const char *tex, size_t n,
                        int line, int col);

/* md_tex: a formula's TeX (its node's content). */
static inline struct str md_tex(cmark_node *n)
{
	return (struct str){n->content.size ? (const char *)n->content.ptr : "", (size_t)n->content.size};
}

/* md_literal: the text of a text, code, raw HTML or code block node, as
 * cmark keeps it (cmark_node_get_literal would first copy a text that
 * points into its paragraph, as most do, into a C string of its own). */
static inline struct str md_literal(cmark_node *n)
{
	const cmark_chunk *c = n->type == CMARK_NODE_CODE_BLOCK ? &n->as.code.literal : &n->as.literal;
	return (struct str){c->len ? (const char *)c->data : "", (size_t)c->len};
}

/* md_is_space: the bytes CommonMark and the counters take for space. */
static inline int md_is_space(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

/* md_info_is: the info string i's first word is word (k bytes). */
static inline int md_info_is(const cmark_chunk *i, const char *word, int k)
{
	return i->len >= k && memcmp(i->data, word, (size_t)k) == 0 &&
	       (i->len == k || i->data[k] == ' ' || i->data[k] == '\t' || i->data[k] == '{');
}

/* md_is_diagram: n is a fenced code block that blocks.c draws as a
 * diagram: its info string's first word is "pikchr" or "mermaid". */
static inline int md_is_diagram(cmark_node *n)
{
	const cmark_chunk *i = &n->as.code.info;
	return n->type == CMARK_NODE_CODE_BLOCK && n->as.code.fenced &&
	       (md_info_is(i, "pikchr", 6) || md_info_is(i, "mermaid", 7));
}

/* md_is_block: n is a block node. */
static inline int md_is_block(cmark_node *n)
{
	return (n->type & CMARK_NODE_TYPE_MASK) == CMARK_NODE_TYPE_BLOCK;
}

/* ---- ext.c: folio's cmark extension ---- */

/* md_ext_new: folio's extension for the document c (c its private data);
 * md_ext_free frees it. */
cmark_syntax_extension *md_ext_new(struct md_ctx *c);
void md_ext_free(cmark_syntax_extension *ext);
/* md_ext_attach: attaches to parser, in order, folio's extension (first:
 * its block hooks come before the table's; not at all with neither math
 * nor block hooks) and cmark-gfm's (table,
 * strikethrough, autolink, tasklist). may_hold_at: the text may hold an
 * e-mail address (else autolink's walk of the tree is left out). */
void md_ext_attach(struct md_ctx *c, cmark_parser *parser, int may_hold_at);
/* md_ext_table / md_ext_strike: cmark-gfm's extensions, to tell their
 * nodes. */
extern cmark_syntax_extension *md_ext_table, *md_ext_strike;

/* ---- blockext.c: the extension's block hooks ---- */

cmark_node *md_block_open(cmark_syntax_extension *self, int indented, cmark_parser *parser, cmark_node *parent,
                          unsigned char *input, int len);
int md_block_continues(cmark_syntax_extension *self, cmark_parser *parser, unsigned char *input, int len,
                       cmark_node *node);
/* md_block_wrap: the block the document is parsed in, made before the
 * first line (see blockext.c); md_block_unwrap: its blocks put in the
 * document's, and the HTML blocks handed to the extension given back. */
void md_block_wrap(struct md_ctx *c);
void md_block_unwrap(struct md_ctx *c);
/* md_block_at_end: notes in c->open_at_end the block open at the end of
 * the text (all of it fed), if it is fenced code or an HTML block that
 * ends at a marker: what hides directive lines (directive_pair's note). */
void md_block_at_end(struct md_ctx *c);
/* md_fence_at_end: notes in c->fence_line (0: none) the fenced code block
 * open at the end of the text (all of it fed): its closing fence never
 * came, so everything after its opening one is code. */
void md_fence_at_end(struct md_ctx *c);

/* ---- image.c: the local files a document names ---- */

/* What the file of a local image or medium says: looked up once per
 * document however often it is named (40,000 times: 40,000 opens). */
struct md_image {
	char *path;
	int err;   /* 0: a file that could be read; else its errno */
	char *why; /* set: a link outside the site, to nothing or in a circle (never read) */
	int w, h;
	int resizable; /* a still JPEG or PNG of known size: it has resized copies (md_picture_widths) */
};

/* md_is_local: url names a file of the site (no scheme, no //host). */
int md_is_local(const char *url);
/* md_local_path: the file of a local URL (query and fragment dropped, %XX
 * decoded); NULL and *why when it cannot be looked up. Caller frees. */
char *md_local_path(const struct md_ctx *c, const char *url, const char **why);
/* md_image_file: the file at path (taken; a local file an image or a
 * directive names): refused (a link outside the site, to nothing, round a
 * circle), not readable (its errno), or its size when it is an image: with
 * md_include (a code block's file=), the one place md/ reads a file of the
 * site, after sitefile.h's check, through files/reader.h (site_read_head). */
const struct md_image *md_image_file(struct md_ctx *c, char *path);
/* The sizes of a picture in the theme's column: 46rem, or the screen
 * less its margins. */
#define MD_PICTURE_SIZES "(min-width: 49rem) 46rem, calc(100vw - 2.5rem)"
/* A local image's resized copies, as its <picture> names them. */
struct md_picture {
	int widths[MD_PICTURE_MAX]; /* md_picture_widths' */
	int n, own, w;              /* all of them, those of the own format, the image's width */
	const char *sizes;          /* the sizes attribute (not copied) */
};
/* md_picture_plan: fills *p with the resized copies of the local image im
 * at url, sized by sizes; returns how many there are (0: none: not a still
 * JPEG or PNG, a query or fragment in url, no widths below its own and no
 * WebP). */
int md_picture_plan(struct md_ctx *c, const char *url, const struct md_image *im, const char *sizes,
                    struct md_picture *p);
/* md_picture_start: when the local image im at url has resized copies (a
 * still JPEG or PNG, url without a query or fragment, and widths below its
 * own or WebP configured): appends "<picture>" and its <source>s (the dark
 * variant's, a.dark.png beside a.png, for a dark system; the WebP
 * copies), with sizes, to out, fills *p and returns 1; else 0, out
 * untouched. The caller writes the <img> (md_picture_img adds its srcset)
 * and "</picture>". */
int md_picture_start(struct md_ctx *c, struct buf *out, const char *url, const struct md_image *im,
                     const char *sizes, struct md_picture *p);
/* md_picture_img: the <img>'s srcset and sizes attributes (the copies in
 * the image's own format and the image itself), appended to out. */
void md_picture_img(struct buf *out, const char *url, const struct md_picture *p);
/* md_img_loading: the loading attributes of the document's next <img>:
 * the first is fetched first (fetchpriority="high"), the others lazily;
 * counts it. */
const char *md_img_loading(struct md_ctx *c);

/* md_site_real: the site folder's realpath (the folder of o->static_dir),
 * looked up on first use; NULL when the document has none. */
const char *md_site_real(struct md_ctx *c);

/* ---- where.c: places in the file ---- */

/* md_source_line: body line `line`'s text in the file, without its "\n"
 * (0: not at hand). */
int md_source_line(struct md_ctx *c, int line, const char **p, size_t *n);
/* md_find_in_source: the place of needle in the file within 200 lines
 * after body line *line (see where.c). */
void md_find_in_source(struct md_ctx *c, const char *needle, int *line, int *col);
/* md_math_place: the place in the file of byte pos of formula n's TeX
 * (pos < 0: of its first byte, after the $ or $$), on whichever of its
 * lines, inside any containers: what an error about that byte points at. */
void md_math_place(struct md_ctx *c, cmark_node *n, int pos, int *line, int *col);
/* md_where_free: the index of the file's lines, once the document is done. */
void md_where_free(struct md_ctx *c);

/* ---- include.c: code from a file ---- */

/* Code from a file is at most this big (folio-site(5), LIMITS): the file
 * is read whole, parsed for symbol=, and shown in a page. */
#define MD_INCLUDE_MAX ((size_t)1 << 20)

struct code_opts;
/* md_include: the code of a block with file= (o->file), at body line:col:
 * the file looked up (a relative path in the post's bundle folder, or the
 * site folder for a document that is no bundle; /path in the site
 * folder), checked inside the site, read (at most MD_INCLUDE_MAX bytes,
 * no NUL byte), cut to o's lines= or symbol=, without the indentation its
 * lines share, into *code (the arena's). o gets the file's language when
 * it names none (by the extension), start the first line's number unless
 * start= was given, title the file's path unless title= was; *url the
 * published file's address with o->link. The file is noted in c's deps.
 * 0; or -1 after an error reported at line:col. */
int md_include(struct md_ctx *c, struct code_opts *o, int line, int col, struct str *code, const char **url);
/* md_includes_free: the files included, as c->out->deps; what c kept
 * freed (after md_count_finish, which counts c->inc_code). */
void md_includes_free(struct md_ctx *c);

/* ---- htmlimg.c ---- */

/* md_html_images: when the raw HTML html holds an <img> of a local image
 * (not one in an author's <picture>, with a srcset or a slot of its own,
 * nor in a comment, a script or a style), appends html to out with each
 * such tag written anew: its src first, in a <picture> of the file's
 * resized copies (md_picture_start; sizes no wider than a width the
 * author gave in pixels), with the file's width and height unless the
 * author gave a size (a width alone gets the height that keeps the
 * shape), and the loading attributes (md_img_loading) unless the author
 * gave some; returns 1. Else 0, out untouched. Every <img> counts for
 * md_img_loading. A file that is missing is left to the link check. */
int md_html_images(struct md_ctx *c, struct str html, struct buf *out);
/* md_has_img: html holds an <img> tag, or opens or closes a <picture> (in
 * any case): md_html_images is to see it. */
int md_has_img(struct str html);

/* ---- blocks.c ---- */

/* md_visit_fn: sees every event of a walk of the whole tree. */
typedef void (*md_visit_fn)(void *ctx, cmark_node *n, cmark_event_type ev);

/* md_blocks: code blocks highlighted (with their options), formulas
 * typeset, local images checked and sized, an image alone in its
 * paragraph with a title made a <figure>. Errors and warnings go to c->d;
 * returns the number of errors. visit (if not NULL) is given every event
 * of the walk that finds them, before the tree changes: one walk of a big
 * tree instead of two (each node a cache miss). */
int md_blocks(struct md_ctx *c, cmark_node *root, md_visit_fn visit, void *visit_ctx);

/* ---- text.c: plain text ---- */

/* md_plain_text: appends the text of the tree under root to b: text, code
 * and math as written, a space for each line break and between blocks,
 * code blocks' text, raw HTML without its tags. Images (their alt text)
 * and footnote references are left out. Not folded: see md_fold_space.
 * md_plain_text_max stops once b holds more than max bytes. */
void md_plain_text(cmark_node *root, struct buf *b);
void md_plain_text_max(cmark_node *root, struct buf *b, size_t max);
/* md_fold_space: s[0..n) with runs of whitespace made one space, trimmed,
 * in out (which it resets). */
void md_fold_space(struct buf *out, const char *s, size_t n);

/* A sink for text: p[0..n), or a break between words when p is NULL. */
typedef void (*md_text_sink)(void *ctx, const char *p, size_t n);
/* md_html_text: the text of raw HTML s[0..n) to the sink: tags and
 * comments dropped (each tag but the inline ones is a word break), the
 * content of script and style dropped, entities decoded. Counts <img>
 * tags in *images (if not NULL). Linear. */
void md_html_text(const char *s, size_t n, md_text_sink sink, void *ctx, size_t *images);

/* ---- mathblock.c: bracket sentinels ---- */

/* With math.delimiters: brackets, the backslash of each \(, \), \[ and \]
 * (one that no backslash before it escapes) becomes MD_BSENT before cmark
 * parses: cmark would read "\(" as an escaped "(", and an inline extension
 * cannot take the backslash from it. The math extension takes the
 * sentinel's pairs; mathblock.c gives every other one back (a backslash in
 * code, raw HTML and TeX; nothing, as the escape it was, in text). The
 * text keeps its length, so positions stay right. */
#define MD_BSENT '\x02'

/* md_math_sentinels: t[0..len) into out with the sentinels (and a byte
 * MD_BSENT of t made U+001A, so that it cannot pass for one). Returns the
 * number of sentinels; 0 leaves out untouched. */
size_t md_math_sentinels(const char *t, size_t len, struct buf *out);
/* md_unsentinel: s[0..n) with each MD_BSENT made a backslash, into out. */
void md_unsentinel(struct buf *out, const char *s, size_t n);

#endif
