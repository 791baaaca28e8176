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
/* t_msgs: the message lines of captured diagnostics ("path:l:c: error:
 * ..."), without the source excerpts under them, joined by newlines (static
 * buffer, valid until the next call). */
const char *t_msgs(const struct buf *cap);

/* Every test_<module>.c defines one entry point, listed in test_main.c. */
void test_arena(void);
void test_buf(void);
void test_index(void);
void test_pool(void);
void test_diag(void);
void test_yaml(void);
void test_tmpl(void);
void test_config(void);
void test_schema(void);
void test_slug(void);
void test_content(void);
void test_site(void);
void test_output(void);
void test_markdown(void);
void test_commonmark(void);
void test_imagesize(void);
void test_directive(void);
void test_codeblock(void);
void test_serve(void);
void test_mdcache(void);
void test_mdmem(void);
void test_live(void);
void test_deps(void);
void test_build(void);
void test_links(void);
/* Parts that need libraries of their own are built only when wired in
 * (mk/): their tests are weak symbols, run when present. */
void test_math(void) __attribute__((weak));
void test_highlight(void) __attribute__((weak));
void test_extcheck(void) __attribute__((weak));
void test_tmpl_spec(const char *dir);
void test_tmpl_man(const char *path);

#endif
