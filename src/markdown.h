/* markdown.h: Markdown to HTML on cmark-gfm 0.29.0.gfm.13: GFM extensions,
 * the math extension, heading ids and anchors, the table of contents,
 * summary, word count and reading time. */
#ifndef FOLIO_MARKDOWN_H
#define FOLIO_MARKDOWN_H

#include <stddef.h>

#include "arena.h"
#include "buf.h"
#include "diag.h"

struct md_options {
	int smart;  /* smart punctuation (curly quotes, dashes, ellipses) */
	int math;   /* $...$ and $$...$$ become math spans; off: plain text */
	int unsafe; /* raw HTML passes through (folio always sets it) */
};

/* One heading of the table of contents; a tree: children are the headings
 * of the next deeper level under it. Strings are owned by the arena. */
struct md_toc {
	int level;      /* 1..6 */
	struct str id;  /* the heading's id, e.g. "why-cudamemcpy-is-slow" */
	struct str text; /* plain text */
	struct str html; /* inline HTML of the heading's content (no anchor) */
	struct md_toc *children;
	size_t nchildren;
};

/* What rendering one document gives. Everything is owned by the arena. */
struct md_doc {
	struct str html;         /* the body */
	struct str summary_html; /* text before <!--more--> if present, else the first paragraph */
	struct str summary_text; /* the same as plain text, at most about 300 characters, cut at a word boundary */
	int has_more;            /* the document has a <!--more--> marker */
	struct md_toc *toc;      /* top-level entries */
	size_t ntoc;
	size_t nheadings;        /* all headings, at any level */
	size_t words;            /* words of prose (not code) */
	size_t code_words;       /* words inside code blocks */
	size_t images;
	size_t cjk_chars;        /* CJK characters, which are counted apart from words */
	size_t math_spans;       /* inline and display math spans */
};

/* md_init: registers cmark-gfm's extensions and folio's math extension.
 * Idempotent and thread-safe; md_render calls it. */
void md_init(void);

/* md_render: renders text[0..len) (a document body) to HTML.
 * path names the file in diagnostics and line_offset is the number of
 * lines before the body in that file (the front matter), so positions point
 * into the file; src/src_len is the whole file, for excerpts.
 * Problems (a math span that is never closed, a duplicate {#id}) are
 * reported to d. Returns 0, or -1 if an error was reported.
 * Thread-safe: documents may be rendered on several threads at once. */
int md_render(struct arena *a, const struct md_options *o, struct diag *d, const char *path,
	      const char *src, size_t src_len, const char *text, size_t len, int line_offset,
	      struct md_doc *out);

/* md_reading_minutes: reading time in whole minutes, at least 1: prose at
 * wpm words per minute, code at a third of that speed... (see markdown.c
 * for the weights), 12 seconds per image, CJK at 500 characters a minute. */
int md_reading_minutes(const struct md_doc *doc, int wpm);

/* md_slugify: appends the GitHub-style id of a heading's plain text to b:
 * lower case (Unicode-aware), punctuation dropped except '-' and '_',
 * spaces to '-'. "Why `cudaMemcpy` is slow" -> "why-cudamemcpy-is-slow". */
void md_slugify(struct buf *b, struct str text);

#endif
