/* harness.h: the tiny unit-test harness (after cmark's api_test). */
#ifndef FOLIO_HARNESS_H
#define FOLIO_HARNESS_H

#include <stdio.h>
#include <string.h>

extern int t_passed, t_failed;
extern const char *t_current;

void t_fail(const char *file, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#define OK(cond)                                                                                   \
	do {                                                                                       \
		if (cond)                                                                          \
			t_passed++;                                                                \
		else                                                                               \
			t_fail(__FILE__, __LINE__, "%s", #cond);                                   \
	} while (0)

#define INT_EQ(got, want)                                                                          \
	do {                                                                                       \
		long long g_ = (long long)(got), w_ = (long long)(want);                           \
		if (g_ == w_)                                                                      \
			t_passed++;                                                                \
		else                                                                               \
			t_fail(__FILE__, __LINE__, "%s: got %lld, want %lld", #got, g_, w_);       \
	} while (0)

#define STR_EQ(got, want)                                                                          \
	do {                                                                                       \
		const char *g_ = (got), *w_ = (want);                                              \
		if (g_ && w_ && strcmp(g_, w_) == 0)                                               \
			t_passed++;                                                                \
		else                                                                               \
			t_fail(__FILE__, __LINE__, "%s:\n--- got\n%s\n--- want\n%s", #got,         \
			       g_ ? g_ : "(null)", w_ ? w_ : "(null)");                            \
	} while (0)

/* Helpers for tests that need files (defined in test_main.c). */
struct buf;
/* t_tmpdir: a new empty folder under /tmp (malloc'd path; the caller frees
 * it after t_rmtree). */
char *t_tmpdir(void);
/* t_write: writes text as dir/rel, making the folders on the way (dir too). */
void t_write(const char *dir, const char *rel, const char *text);
/* t_rmtree: deletes dir and everything below it. */
void t_rmtree(const char *dir);
/* t_exists: whether dir/rel exists. t_read: its contents (static buffer,
 * valid until the next call; "" if it cannot be read). */
int t_exists(const char *dir, const char *rel);
const char *t_read(const char *dir, const char *rel);
/* t_has: s (may be NULL) holds needle; t_count: how many times, not
 * overlapping. */
int t_has(const char *s, const char *needle);
size_t t_count(const char *s, const char *needle);

/* t_post: md_render (into doc) of md as the body of content/posts/p.md
 * after a 4-line front matter (md's first line is the file's 5th), with
 * raw HTML allowed and opts' other fields (NULL: none), its diagnostics
 * captured in errs; the page's HTML, doc->html.p. */
struct arena;
struct md_options;
struct md_doc;
const char *t_post(struct arena *a, const char *md, const struct md_options *opts, struct md_doc *doc,
                   struct buf *errs);

/* t_msgs: the message lines of captured diagnostics ("path:l:c: error:
 * ..."), without the source excerpts under them, joined by newlines (static
 * buffer, valid until the next call). */
const char *t_msgs(const struct buf *cap);

/* The spec cases' folder and the template man page, for test_tmpl_spec
 * (tests/tmpl and man/folio-template.5 unless the arguments name others). */
extern const char *t_spec_dir, *t_man_page;

/* Every tests/unit/test_<module>.c defines one entry point,
 * void test_<module>(void), and that is all it takes to add a module:
 * the Makefile lists the modules it builds as UNIT(<module>) lines in
 * build/gen/unit_list.h, which declares them here and which test_main.c
 * runs (in the order of their names). */
#define UNIT(name) void test_##name(void);
#include "unit_list.h"
#undef UNIT

#endif
