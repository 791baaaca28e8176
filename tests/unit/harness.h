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

/* Every test_<module>.c defines one entry point, listed in test_main.c. */
void test_arena(void);
void test_buf(void);
void test_diag(void);
void test_yaml(void);
void test_tmpl(void);
void test_tmpl_spec(const char *dir);
void test_tmpl_man(const char *path);

#endif
