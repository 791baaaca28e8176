/* diag.h: diagnostics as path:line:col: level: message, with source excerpt. */
#ifndef FOLIO_DIAG_H
#define FOLIO_DIAG_H

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>

#include "base/buf.h"
#include "base/map.h"

enum diag_level { DIAG_ERROR, DIAG_WARNING, DIAG_NOTE };

/* Where a message points. path is site-relative as the user should see it;
 * src/src_len is the whole text of that file (or NULL: no excerpt); line and
 * col are 1-based (0: unknown). col counts bytes from the start of the line;
 * when src is known, the printed column counts characters (UTF-8 code
 * points, as an editor does), converted when the message is formatted. */
struct diag_loc {
	const char *path;
	const char *src;
	size_t src_len;
	int line, col;
};

/* A text of a file that messages point into (front matter, a Markdown
 * body): the file's path and whole text (for excerpts), and how many of
 * the file's lines come before the text. */
struct diag_src {
	const char *path, *src;
	size_t src_len;
	int line_offset;
};

/* diag_src_at: where line and col of the text are in the file. */
static inline struct diag_loc diag_src_at(const struct diag_src *s, int line, int col)
{
	return (struct diag_loc){s->path, s->src, s->src_len, line + s->line_offset, col};
}

/* diag_line_col: the line of text[off] (0-based: the '\n's before it) and
 * the offset where that line starts. */
void diag_line_col(const char *text, size_t off, size_t *line, size_t *line_start);

/* A secondary line printed under an error, e.g. "included from here". */
struct diag_note {
	struct diag_loc loc;
	const char *msg;
};

/* The collector for one run. Thread-safe: reports from several threads are
 * serialised, each message with its excerpt and notes printed as one piece.
 * The same message at the same place is reported only once. */
struct diag {
	FILE *out;           /* where messages go; NULL: nowhere */
	struct buf *capture; /* if set, messages (without colour) go here too */
	int color;
	int errors, warnings;
	pthread_mutex_t lock;
	struct map seen;     /* the messages printed (keys: copies) */
	/* defer: hold messages until diag_flush, which prints them sorted by
	 * path, line and column, so that a build on several threads reports in
	 * the same order every time. */
	int defer;
	struct diag_pending *pending;
	size_t npending, cap_pending;
	struct map files; /* errors by path (keys: copies) */
	/* the texts of files a message points into without its text (see
	 * diag_set_texts) */
	const char *(*texts)(void *ctx, struct diag *d, const char *path, size_t *len);
	void *texts_ctx;
	/* a relay (diag_relay): each message goes on to relay_to instead */
	struct diag *relay_to;
	void (*relay_map)(void *ctx, struct diag_loc *loc, struct buf *prefix);
	void *relay_ctx;
};

/* At most this many errors of one file are printed (as clang's
 * -ferror-limit): the 1,000th error of a file tells nothing the first ones
 * did not, and a post of 100,000 bad formulas would flood the terminal and
 * take minutes. The others still count; one note says they were left out. */
#define DIAG_MAX_FILE_ERRORS 100

/* diag_init: out may be NULL. Colour is on when out is a terminal and the
 * environment has no NO_COLOR. */
void diag_init(struct diag *d, FILE *out);
void diag_fini(struct diag *d);

/* diag_set_texts: where the excerpt of a message comes from when its
 * place has a line but no text (a file the build did not read: its text
 * is read when a message needs it, by the stage that reads files, never
 * by the one that reports): fn gives the whole text of path (site-
 * relative) in *len, or NULL; it may report to d. fn NULL: none. */
void diag_set_texts(struct diag *d, const char *(*fn)(void *ctx, struct diag *d, const char *path, size_t *len),
		    void *ctx);

/* diag_relay: makes d (initialised, printing nowhere) a relay that hands
 * each message on to `to` (which counts and prints it), after map has
 * moved its place, and each note's, (e.g. from a text made of a file to
 * the file: a notebook's Markdown to its JSON) and may have appended to
 * prefix what goes before the message's text (only the message's own
 * prefix is used). */
void diag_relay(struct diag *d, struct diag *to, void (*map)(void *ctx, struct diag_loc *loc, struct buf *prefix),
		void *ctx);

void diag_report(struct diag *d, enum diag_level level, const struct diag_loc *loc,
		 const struct diag_note *notes, size_t nnotes, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
void diag_vreport(struct diag *d, enum diag_level level, const struct diag_loc *loc,
		  const struct diag_note *notes, size_t nnotes, const char *fmt, va_list ap)
	__attribute__((format(printf, 6, 0)));

/* diag_too_big: if len > max (a file read with read_file_max), reports
 * that path is too large, at the line and column where the limit falls in
 * text, with hint, and returns 1; else 0. */
int diag_too_big(struct diag *d, const char *path, const char *text, size_t len, size_t max, const char *hint);

/* diag_thread_reports: how many messages this thread has reported (to any
 * collector), so that a caller can tell whether a piece of work said
 * anything. */
unsigned long diag_thread_reports(void);

/* Shorthands without notes. */
void diag_error(struct diag *d, const struct diag_loc *loc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void diag_warning(struct diag *d, const struct diag_loc *loc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* diag_flush: prints the messages held back by defer, sorted by place
 * (messages at the same place keep their order). */
void diag_flush(struct diag *d);

/* diag_pending_count: how many messages defer holds now.
 * diag_pending_plain: the text of those held since the first `from` (their
 * plain form, in the order diag_flush prints them) appended to out; 0, or
 * -1 when there are none (a collector that printed them at once).
 * diag_replay: text, such a record of warnings reported by an earlier run,
 * reported again (without colour) and counted as `warnings` more. */
size_t diag_pending_count(struct diag *d);
int diag_pending_plain(struct diag *d, size_t from, struct buf *out);
void diag_replay(struct diag *d, const char *text, size_t len, unsigned warnings);

/* diag_suggest: the candidate closest to word by edit distance, if it is
 * close enough to be a likely typo; else NULL. candidates ends with NULL. */
const char *diag_suggest(const char *word, size_t len, const char *const *candidates);

/* The same search over candidates given one at a time, as pointer+length
 * text that is not copied: diag_guess_try each, then diag_guess_best (NULL
 * or a candidate's pointer, its length in *n). Words or candidates longer
 * than 64 bytes are never suggested. */
struct diag_guess {
	const char *word, *best;
	size_t len, best_len, best_d;
};
void diag_guess_init(struct diag_guess *g, const char *word, size_t len);
void diag_guess_try(struct diag_guess *g, const char *cand, size_t n);
const char *diag_guess_best(const struct diag_guess *g, size_t *n);

/* diag_file_full: 1 if path has had DIAG_MAX_FILE_ERRORS errors, so that
 * its next ones are only counted: a caller may skip the work of a hint
 * that no one will see (a "did you mean" over thousands of names). */
int diag_file_full(struct diag *d, const char *path);

/* diag_format_loc: appends "path:line:col" (as much as is known) to b,
 * the column in characters if loc->src is known. */
void diag_format_loc(struct buf *b, const struct diag_loc *loc);

#endif
