/* markdown.h: Markdown to HTML on cmark-gfm 0.29.0.gfm.13: GFM extensions,
 * the math extension, heading ids and anchors, the table of contents,
 * summary, word count and reading time.
 *
 * Folder md/: Markdown -> HTML: cmark-gfm and its extensions, directives,
 * code and highlighting, formulas (KaTeX in QuickJS), images.
 * uses: base, formats, files, images.
 */
#ifndef FOLIO_MARKDOWN_H
#define FOLIO_MARKDOWN_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/diag.h"
#include "formats/bibtex.h"

/* md_highlight_fn: appends code highlighted as lang to out (HTML-escaped,
 * with <span class="hl-..."> spans); -1 when the language is unknown (out
 * then holds the escaped plain code). */
typedef int (*md_highlight_fn)(struct buf *out, const char *lang, size_t lang_len, const char *code, size_t len);
/* md_typeset_fn: appends the MathML of tex to out; -1 with a message in err
 * (and the byte offset of the problem in tex in *err_pos, or -1) when the
 * formula is wrong. */
typedef int (*md_typeset_fn)(void *ctx, const char *tex, size_t len, int display, struct buf *out,
			     struct buf *err, int *err_pos);

/* The words of the rendered HTML that are not the author's: the heading
 * links' label, the callouts' titles and a diagram's name when they have
 * none. */
enum {
	MD_LABEL_HEADING_LINK, /* "Link to this section" */
	MD_LABEL_NOTE,         /* "Note" */
	MD_LABEL_TIP,          /* "Tip" */
	MD_LABEL_WARNING,      /* "Warning" */
	MD_LABEL_DIAGRAM,      /* "Diagram": the name of a diagram without a title */
	/* cross-references (md/xref.c): the words before a number, and how a
	 * reference into another post reads ("{ref} of {title}") */
	MD_LABEL_XREF_EQ,      /* "Eq." */
	MD_LABEL_XREF_FIG,     /* "Figure" */
	MD_LABEL_XREF_TBL,     /* "Table" */
	MD_LABEL_XREF_LST,     /* "Listing" */
	MD_LABEL_XREF_OF,      /* "{ref} of {title}" */
	MD_LABEL_REFERENCES,   /* "References": the heading of the works cited */
	MD_LABEL_ET_AL,        /* "et al.": a citation of three authors or more */
	MD_LABEL_AND,          /* "and": a citation of two authors */
	MD_LABEL_NO_DATE,      /* "n.d.": the year of a work without one */
	MD_LABELS
};

/* A file of a document that is not in the site's folders: its name
 * (one URL path segment) and bytes (see md_options.assets). */
struct md_asset {
	const char *name;
	const unsigned char *data;
	size_t len;
};

/* A directive the site defines with a template (templates/directives/
 * NAME.html, read/theme.c): its name, the arguments the template declares
 * at its top, and the template's file and the hash of its bytes (a
 * document that calls it notes it in md_doc.deps, so that an edit of the
 * template renders it again). */
enum md_uarg_type { MD_UARG_STRING, MD_UARG_INT, MD_UARG_NUMBER, MD_UARG_BOOL };
struct md_uarg {
	const char *name;
	int type;         /* MD_UARG_* */
	int required;
	const char *def;  /* its default as written, or NULL */
};
struct md_udir {
	const char *name;
	const struct md_uarg *args;
	size_t nargs;
	const char *path; /* the template's file, as a document's deps name it */
	const char *shown; /* as messages name it: templates/directives/NAME.html */
	uint64_t hash;    /* hash_bytes of its bytes */
	int broken;       /* its declaration has errors (reported): its calls are not checked */
};
/* What folio draws of one of its media directives (video, animation,
 * model3d) that a site's template replaces: the element (a <video>, an
 * animated image's <picture>, a <model-viewer>), sized from the files,
 * with the resized copies of its still; its width and height (the
 * author's, else the still's; NULL: unknown); the reason its file was
 * refused (reported; the element is then the error's span), or NULL. */
struct md_media {
	struct str element;
	const char *width, *height;
	const char *error;
};
/* One call of a site's directive, handed to md_options.udir_render: the
 * directive, each declared argument's value (values[i] for args[i]: as
 * written, checked against its type, or its default; NULL when neither),
 * the HTML of its content (a block directive's body, rendered; empty for
 * a leaf), the document's file, and for a template of one of folio's
 * media directives what folio draws of it (else NULL). */
struct md_udir_call {
	const struct md_udir *dir;
	const char *const *values;
	struct str content;
	const char *doc_path;
	const struct md_media *media;
};
/* md_uarg_valid: whether v[0..n) is a value of type (MD_UARG_*): any
 * text for a string; an integer in decimal; a number strtod reads whole;
 * true or false. */
int md_uarg_valid(int type, const char *v, size_t n);
/* md_uarg_type_name: "string", "int", "number", "bool" */
const char *md_uarg_type_name(int type);
/* md_is_builtin_directive: whether name is one of folio's own directives */
int md_is_builtin_directive(const char *name);

/* md_udir_fn: appends the call's HTML to out: 0; else -1 with the reason
 * in err (reported at the call). Safe to call from several threads. */
typedef int (*md_udir_fn)(void *ctx, const struct md_udir_call *call, struct buf *out, struct buf *err);

struct md_options {
	int smart;  /* smart punctuation (curly quotes, dashes, ellipses) */
	int math;   /* $...$ and $$...$$ become <span class="math inline|display">
	             * with the TeX, HTML-escaped; off: dollars are plain text */
	int no_dollars; /* with math: $ is plain text (math.delimiters without dollars) */
	int brackets;   /* with math: \(...\) is inline math, \[...\] display math
	                 * (math.delimiters: brackets), outside code */
	int unsafe; /* raw HTML passes through (folio always sets it) */
	md_highlight_fn highlight; /* NULL: code blocks are escaped plain text */
	int hl_quiet_unknown;      /* no warning for a code block's unknown language */
	md_typeset_fn typeset;     /* NULL: math stays as escaped TeX in its span */
	void *typeset_ctx;
	/* CPU seconds typeset may take for the formulas of one document
	 * (0: no limit); past them the rest are not typeset, with an error */
	double typeset_seconds;
	/* CPU seconds the diagrams of one document may take to draw (0:
	 * DIAGRAM_DOC_SECONDS, md/diagram.h); past them the rest are not, with
	 * an error */
	double diagram_seconds;
	/* Where local images are: a relative src is looked up in asset_dir (a
	 * post bundle's folder; NULL: the image must not be relative), an
	 * absolute one (/img/x.png) in static_dir. NULL static_dir: images are
	 * not checked at all. */
	const char *asset_dir;
	const char *static_dir;
	/* the realpath of static_dir's folder (the site), when the caller made
	 * it once for the build (site_root); NULL: each document makes it
	 * (a readlink per folder of the path, per document) */
	const char *site_real;
	/* files of the document held in memory (a notebook's image outputs,
	 * read/notebook.h): a relative URL that names one (by its whole name)
	 * is this file, sized from its bytes, before asset_dir is looked at;
	 * the caller publishes them beside the page */
	const struct md_asset *assets;
	size_t nassets;
	int code_ui; /* code blocks as the theme wants them: <pre tabindex="0"
	              * data-lang="LANG"> (folio's builds; off: cmark's <pre>) */
	int toc_hidden; /* the page does not show its table of contents: no
	                 * warning when the TOC is cut (MD_TOC_MAX) */
	/* where a code block's unknown language is noted, to be told once per
	 * language for the whole build (NULL: a warning at each block) */
	struct md_unknown *unknown;
	/* the words the HTML says in the site's language (the theme's
	 * strings, see MD_LABEL_*); a NULL one is English */
	const char *labels[MD_LABELS];
	/* resized copies of local JPEG and PNG images (folio.yml's images:):
	 * the widths (ascending; none: images are written as they are) and
	 * whether WebP and AVIF copies are made beside the image's own format */
	const int *image_widths;
	int nimage_widths;
	int image_webp, image_avif;
	/* citations (md/cite.c): the document's bibliographies, a key looked
	 * up in each in turn (NULL: the document has none, and [@key] and
	 * @key are text), and how citations look (MD_CITE_*) */
	const struct bibtex *const *bibs;
	size_t nbibs;
	int cite_style;
	/* keys listed in the References though not cited (front matter
	 * nocite), after those cited */
	const struct str *nocite;
	size_t nnocite;
	/* footnotes also as sidenotes (md/sidenote.c): a note of one
	 * paragraph of phrasing content is written again, as <span
	 * class="sidenote">, after its first reference in a paragraph; the
	 * footnotes section's items that have one get class="sidenoted" */
	int sidenotes;
	/* the site's own directives (NULL: none), sorted by name, and the
	 * function that renders a call of one with its template */
	const struct md_udir *udirs;
	size_t nudirs;
	md_udir_fn udir_render;
	void *udir_ctx;
};

enum { MD_CITE_NUMERIC, MD_CITE_AUTHOR_YEAR };

/* md_picture_widths: the widths of the resized copies of an image w
 * pixels wide under o's settings, in out[] (at least MD_PICTURE_MAX),
 * returns how many: first the copies in the image's own format, one at
 * each configured width below w (never upscaled: the image itself is the
 * widest), *own of them, ascending; then, with WebP, the WebP copies, at
 * those widths and at w itself; then, with AVIF, the AVIF copies, at the
 * same widths. The build makes exactly these copies (variants/), and md/
 * writes srcset from them: one rule for both. md_picture_format: the
 * format of copy i of them ("webp", "avif"; NULL: the image's own). */
enum { MD_MAX_WIDTHS = 8, MD_PICTURE_MAX = 3 * MD_MAX_WIDTHS + 2 };
int md_picture_widths(const struct md_options *o, int w, int *out, int *own);
const char *md_picture_format(const struct md_options *o, int own, int i);

/* md_variant_name: the address of image url's copy at width in format
 * ext ("/img/a.png", 480, "webp" -> "/img/a-480w.webp"), appended to
 * out. */
void md_variant_name(struct buf *out, const char *url, size_t url_len, int width, const char *ext);

/* md_unknown: the unknown languages of the code blocks of one build
 * (md/unknown.c). md_unknown_add is thread-safe; md_unknown_report warns
 * once per language, at its first block (by path, line and column), with
 * the number of blocks and the files; md_unknown_thread_count counts the
 * blocks this thread noted (a document that noted one is not cached, so
 * that its warning comes again). */
struct md_unknown;
struct md_unknown *md_unknown_new(void);
void md_unknown_add(struct md_unknown *u, const char *lang, size_t lang_len, const struct diag_loc *loc);
void md_unknown_report(struct md_unknown *u, struct diag *d);
void md_unknown_free(struct md_unknown *u);
unsigned long md_unknown_thread_count(void);

/* A table of contents lists at most a page's first MD_TOC_MAX headings
 * (every heading still has its id and anchor): 262,144 headings made a
 * TOC that took longer to render than the page. With more, md_render
 * warns, unless the page hides its TOC. */
#define MD_TOC_MAX 1000

/* One heading of the table of contents; a tree: children are the headings
 * of the next deeper level under it. Strings are owned by the arena. */
struct md_toc {
	int level;       /* 1..6 */
	struct str id;   /* the heading's id, e.g. "why-cudamemcpy-is-slow" */
	struct str text; /* plain text, whitespace folded */
	struct str html; /* inline HTML of the heading's content: no anchor, and
	                  * links reduced to their text (a TOC entry is a link) */
	struct md_toc *children;
	size_t nchildren;
};

/* ---- cross-references (md/xref.c) ----
 *
 * A label names a numbered item of a document: a display equation
 * ({#eq:NAME} after its closing $$, or \label{eq:NAME} in it), a figure
 * (![alt](src "caption"){#fig:NAME}), a table (a caption paragraph
 * ": Caption {#tbl:NAME}" right after or before it), a listing (a fence's
 * {#lst:NAME title="caption"}) or a heading ({#sec:NAME}). A reference
 * (@eq:NAME, [@eq:a; @fig:b], @SLUG#fig:NAME into another post, or a link
 * [](other.md#fig:NAME) with no text) becomes a link. Numbers depend on the
 * series a post is part of, and references into other posts on those
 * posts: md_render writes placeholders for both (md_xref_expand), which
 * the model fills in once every document is rendered. */
enum md_xref_kind { MD_XREF_EQ, MD_XREF_FIG, MD_XREF_TBL, MD_XREF_LST, MD_XREF_SEC, MD_XREF_KINDS };

/* One label of a document, in document order. */
struct md_label {
	struct str name;  /* "eq:adam", its prefix telling the kind */
	int kind;         /* enum md_xref_kind */
	int number;       /* 1, 2, ... among the document's labels of its kind (a heading: 0) */
	struct str text;  /* a heading's plain text (else empty): what a reference to it says */
	int line, col;    /* where it is defined: body line, 1-based byte column */
};

/* One reference the document makes, in document order. */
struct md_xref {
	struct str target; /* empty: this document; else the other post's slug, or
	                    * (MD_XREF_BY_PATH) the Markdown file's link as written */
	struct str name;   /* the label: "fig:tree" */
	int label;         /* this document's: the index in labels; else -1 */
	int flags;         /* MD_XREF_CAP, MD_XREF_BY_PATH */
	int line, col;     /* where it is: body line, 1-based byte column */
};
#define MD_XREF_CAP 1     /* @Eq:x: the word with a capital letter */
#define MD_XREF_BY_PATH 2 /* a link [](x.md#fig:a): target is x.md as written */

/* md_xref_kind_of: the kind of a label's prefix ("eq:" .. "sec:", or
 * capitalised "Eq:" with *cap set), or -1 for a name with none of them. */
int md_xref_kind_of(const char *name, size_t len, int *cap);

/* md_marks: which of these markers text[0..len) holds, in one scan (the
 * passes ask it of the text, site.c of a body for its link hint). */
enum {
	MD_MARK_AT = 1u << 0,          /* '@' */
	MD_MARK_AT_SLASH = 1u << 1,    /* "@/" */
	MD_MARK_AMP_HASH = 1u << 2,    /* "&#" */
	MD_MARK_COMMAT = 1u << 3,      /* "&commat;" */
	MD_MARK_PERIOD = 1u << 4,      /* "&period" */
	MD_MARK_BRACE_HASH = 1u << 5,  /* "{#" */
	MD_MARK_LABEL = 1u << 6,       /* "\\label{" */
	MD_MARK_STARS = 1u << 7,       /* "**" */
	MD_MARK_UNDERS = 1u << 8,      /* "__" */
	MD_MARK_IMAGE = 1u << 9,       /* "![" */
	MD_MARK_DOLLAR = 1u << 10,     /* '$' */
	MD_MARK_DOLLARS = 1u << 11,    /* "$$" */
	MD_MARK_DOT_MD = 1u << 12,     /* ".md" */
	MD_MARK_DOTDOT = 1u << 13,     /* "../" */
	MD_MARK_POSTS = 1u << 14,      /* "/posts/" */
	MD_MARK_BRACKET = 1u << 15,    /* '[' */
	MD_MARK_FENCE = 1u << 16       /* ":::" */
};
uint32_t md_marks(const char *text, size_t len);

/* md_xref_expand: s with its placeholders filled in, appended to out: a
 * label's number (`number` gives the text of labels[i]'s) and a
 * reference (`ref` gives the HTML, or with text set the plain text, of
 * xrefs[i]). A placeholder cut short (a summary cut) is dropped; bytes
 * that are no placeholder are copied. Returns the number filled in. */
struct md_xref_fill {
	void (*number)(void *ctx, struct buf *out, size_t label);
	void (*ref)(void *ctx, struct buf *out, size_t xref, int text);
	void *ctx;
	size_t nlabels, nxrefs;
};
size_t md_xref_expand(struct buf *out, struct str s, int text, const struct md_xref_fill *f);
/* md_xref_has: s holds a placeholder (a byte MD_XREF_MARK). */
#define MD_XREF_MARK '\x01'
static inline int md_xref_has(struct str s)
{
	return s.len && memchr(s.p, MD_XREF_MARK, s.len) != NULL;
}

/* What rendering one document gives. Everything is owned by the arena. */
struct md_doc {
	struct str html;         /* the body; each heading has an id and an anchor link */
	struct str summary_html; /* the top-level blocks before <!--more--> if present, else the
	                          * first paragraph with text; footnote references and heading
	                          * ids dropped */
	struct str summary_text; /* the same as plain text: no tags, entities decoded, whitespace
	                          * folded; at most 300 code points, else cut at a word boundary
	                          * with "…" appended */
	int has_more;            /* the document has a <!--more--> block at its top level */
	struct md_toc *toc;      /* top-level entries */
	size_t ntoc;
	size_t nheadings;  /* all headings, at any level */
	size_t words;      /* words of prose: runs of non-space holding a letter or digit;
	                    * inline code and math count, code blocks and alt text not */
	size_t code_words; /* words inside code blocks */
	size_t images;     /* Markdown images, <img> tags and diagrams */
	size_t cjk_chars;  /* CJK characters, which are counted apart from words */
	size_t math_spans; /* inline and display math spans */
	int has_model3d;   /* uses :::model3d (the page needs model-viewer's script) */
	int has_video;     /* uses :::video or :::animation */
	size_t sidenotes;  /* the footnotes written again as sidenotes (md_options.sidenotes) */
	uint32_t marks;    /* md_marks of the text md_render was given */
	int link_hint;     /* not md_render's: the source's link_hint (content.h),
	                    * kept with the document by the cache (0: unknown) */
	/* of html as md_render made it (0: not known; both are reset when the
	 * links are made final and the HTML changes): rebuild_text_hash of
	 * it, kept by the Markdown cache so that a build does not hash every
	 * body again; and where its first image is (md_image_at) */
	uint64_t html_hash;
	size_t img_at;
	/* cross-references: the labels the document defines and the
	 * references it makes; with any, html, summary_html, summary_text and
	 * the TOC may hold placeholders (md_xref_expand) */
	struct md_label *labels;
	size_t nlabels;
	struct md_xref *xrefs;
	size_t nxrefs;
	/* the files its code blocks included (file=, md/include.c): a line
	 * each, "HASH PATH\n", HASH the 16 hex digits of hash_bytes of the
	 * bytes read, PATH the file as opened; "HASH+PATH\n" for one the
	 * build must copy into the site at its place in the site folder (its
	 * block has link, and it is neither in static/ nor in the post's
	 * bundle, which are copied anyway); empty: none. The Markdown cache
	 * keeps it, and a build renders the document again when one of them
	 * changed (model/site.c). */
	struct str deps;
};

/* md_image_at: 2 + the offset in html of its first image's <img src="
 * (one inside an HTML comment is none), or 1 when it has none
 * (md_doc.img_at). */
size_t md_image_at(struct str html);

/* md_init: registers cmark-gfm's extensions and folio's node types, and
 * marks the inline extensions' special characters once for the whole
 * process (see md/ext.c: cmark-gfm otherwise marks and unmarks them in a
 * global table on every parse, which races). Idempotent and thread-safe;
 * md_render calls it. */
void md_init(void);

/* md_render: renders text[0..len) (a document body) to HTML into *out,
 * everything owned by a (the cmark tree and parser are freed before it
 * returns). path names the file in diagnostics and line_offset is the
 * number of lines before the body in that file (the front matter), so
 * positions point into the file (columns: 1-based bytes); src/src_len is
 * the whole file, for excerpts. Errors go to d (which may be NULL): a
 * duplicate {#id}, a directive's, display math with no closing $$, a code
 * block's options, a code block's file= (md/include.c: a file missing,
 * outside the site, binary or too big, a range past its end, an unknown
 * symbol), a formula KaTeX refuses, a missing image (an inline
 * formula left unclosed is text, never an error). *out is filled in
 * either case. Returns 0, or -1 if an error was reported.
 * Thread-safe: documents may be rendered on several threads at once, each
 * with its own arena. */
int md_render(struct arena *a, const struct md_options *o, struct diag *d, const char *path,
              const char *src, size_t src_len, const char *text, size_t len, int line_offset,
              struct md_doc *out);

/* md_reading_minutes: reading time, rounded to the nearest minute, at
 * least 1: prose at wpm words per minute (230 if wpm <= 0), code words at a
 * third of that speed, 12 seconds per image, CJK at 500 characters a
 * minute. */
int md_reading_minutes(const struct md_doc *doc, int wpm);

/* md_slugify: appends the GitHub-style id of a heading's plain text to b:
 * lower case (Unicode-aware), everything but letters, marks, digits, '-',
 * '_' and spaces dropped, each space to '-'; "section" if no letter, digit
 * or '_' is left. "Why `cudaMemcpy` is slow" -> "why-cudamemcpy-is-slow".
 * (md_render then de-duplicates: "intro", "intro-1", "intro-2".) */
void md_slugify(struct buf *b, struct str text);

#endif
