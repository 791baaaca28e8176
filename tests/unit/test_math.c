/* test_math.c: the math module: KaTeX output, errors and their positions,
 * macros, the memory and disk caches, threads, pathological formulas; and
 * the spec cases of tests/math/ (*.txt). With FOLIO_MATH_BENCH set in the
 * environment it also prints KaTeX's load time and formulas per second.
 *
 * Spec case format:
 *   === what the case shows
 *   --- options   (optional; lines: "display", "mathjax" (math_cache_mathjax),
 *                 or "macro \NAME EXPANSION")
 *   --- tex       (the formula; the newline before the next "---" is not part of it)
 *   --- katex     (optional: what mathjax_rewrite makes of it, exactly; "=" for
 *                 nothing)
 *   --- mathml    (the expected output, exactly)
 *   --- error N   (or: the expected message, exactly, and N the expected err_pos)
 * A case with --- katex and neither --- mathml nor --- error passes when the
 * rewrite is the one given and KaTeX typesets the formula.
 */
#include "harness.h"

#include <dirent.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>

#include "base/arena.h"
#include "base/buf.h"
#include "md/math.h"
#include "md/mathjax.h"
#include "base/sanitize.h"

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* cpu_s: the calling thread's CPU time, the clock of math.c's limit. */
static double cpu_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* render: math_render of a C string; the output or the error in *res
 * (reset first). Returns math_render's result. */
static int render(struct math_cache *c, const char *tex, int display, struct buf *res, int *pos)
{
	struct buf err;
	buf_init(&err);
	buf_reset(res);
	*pos = -2;
	int rc = math_render(c, tex, strlen(tex), display, res, &err, pos);
	if (rc != 0)
		buf_append(res, err.p, err.len);
	buf_fini(&err);
	return rc;
}

#define X2_INLINE                                                                                  \
	"<span class=\"katex\"><math "                                                             \
	"xmlns=\"http://www.w3.org/1998/Math/MathML\"><semantics><mrow>"                           \
	"<msup><mi>x</mi><mn>2</mn></msup></mrow><annotation encoding=\"application/x-tex\">x^2"   \
	"</annotation></semantics></math></span>"

static void test_math_output(void)
{
	t_current = "math output";
	struct math_cache *c = math_cache_open(NULL, 0);
	struct buf out;
	buf_init(&out);
	int pos;
	INT_EQ(render(c, "x^2", 0, &out, &pos), 0);
	STR_EQ(out.p, X2_INLINE);
	INT_EQ(pos, -1);

	INT_EQ(render(c, "\\sum_{i=1}^n i", 1, &out, &pos), 0);
	static const char block[] =
	    "<span class=\"katex\"><math "
	    "xmlns=\"http://www.w3.org/1998/Math/MathML\" display=\"block\">";
	OK(strncmp(out.p, block, sizeof block - 1) == 0);
	OK(strstr(out.p, "<munderover><mo>∑</mo>") != NULL);
	OK(strstr(out.p, "</math></span>") == out.p + out.len - strlen("</math></span>"));

	/* Appends; reads len bytes only; escapes the TeX in the annotation. */
	buf_reset(&out);
	buf_puts(&out, "before:");
	INT_EQ(math_render(c, "x^2 and more", 3, 0, &out, NULL, NULL), 0);
	OK(strncmp(out.p, "before:<span", 12) == 0);
	STR_EQ(out.p + 7, X2_INLINE);
	INT_EQ(render(c, "a<b", 0, &out, &pos), 0);
	OK(strstr(out.p, "<mo>&lt;</mo>") != NULL);
	OK(strstr(out.p, ">a&lt;b</annotation>") != NULL);
	INT_EQ(render(c, "", 0, &out, &pos), 0);
	OK(strstr(out.p, "<mrow></mrow>") != NULL);
	/* UTF-8 in and out. */
	INT_EQ(render(c, "\\alpha + \\text{naïve} + α", 0, &out, &pos), 0);
	OK(strstr(out.p, "<mi>α</mi><mo>+</mo>") != NULL);
	OK(strstr(out.p, "\\text{naïve} + α</annotation>") != NULL);
	/* trust: \href is rendered, not shown in red. */
	INT_EQ(render(c, "\\href{https://example.org/}{x}", 0, &out, &pos), 0);
	OK(strstr(out.p, "href=\"https://example.org/\"") != NULL);
	OK(strstr(out.p, "#cc0000") == NULL);
	OK(strcmp(math_katex_version, "0.16.10") == 0);
	buf_fini(&out);
	math_cache_close(c);
}

static void test_math_errors(void)
{
	t_current = "math errors";
	struct math_macro bad[] = {{STR_LIT("\\bad"), STR_LIT("\\mathrm{x}\\foo")}};
	struct math_cache *c = math_cache_open(bad, 1);
	struct buf out;
	buf_init(&out);
	int pos;
	INT_EQ(render(c, "a+\\foo", 0, &out, &pos), -1);
	STR_EQ(out.p, "Undefined control sequence: \\foo");
	INT_EQ(pos, 2);
	/* Positions are byte offsets, not UTF-16 units. */
	INT_EQ(render(c, "é+𝔸+\\foo", 0, &out, &pos), -1);
	INT_EQ(pos, 8);
	INT_EQ(render(c, "x^2_1^3", 0, &out, &pos), -1);
	STR_EQ(out.p, "Double superscript");
	INT_EQ(pos, 5);
	INT_EQ(render(c, "\\frac{a}", 0, &out, &pos), -1);
	STR_EQ(out.p,
	       "Unexpected end of input in a macro argument, expected '}'");
	INT_EQ(pos, 8);
	/* Errors of the whole formula, or inside a macro, have no position. */
	INT_EQ(render(c, "\\tag{1} x", 0, &out, &pos), -1);
	STR_EQ(out.p, "\\tag works only in display equations");
	INT_EQ(pos, -1);
	INT_EQ(render(c, "\\tag{1} x", 1, &out, &pos), 0);
	INT_EQ(render(c, "\\def\\a{\\a}\\a", 0, &out, &pos), -1);
	STR_EQ(out.p, "Too many expansions: infinite loop or need to increase maxExpand setting");
	INT_EQ(pos, -1);
	INT_EQ(render(c, "x + \\bad", 0, &out, &pos), -1);
	STR_EQ(out.p, "Undefined control sequence: \\foo (in a macro expansion)");
	INT_EQ(pos, -1);
	/* err and err_pos may be NULL; out is untouched on error. */
	buf_reset(&out);
	buf_puts(&out, "kept");
	INT_EQ(math_render(c, "\\foo", 4, 0, &out, NULL, NULL), -1);
	STR_EQ(out.p, "kept");
	INT_EQ(render(c, "y", 0, &out, &pos), 0);
	struct math_stats s;
	math_stats(c, &s);
	INT_EQ(s.errors, 8);
	INT_EQ(s.typeset, 2);
	buf_fini(&out);
	math_cache_close(c);
}

static void test_math_macros(void)
{
	t_current = "math macros";
	struct math_macro m[] = {
	    {STR_LIT("\\RR"), STR_LIT("\\mathbb{R}")},
	    {STR_LIT("\\norm"), STR_LIT("\\left\\lVert #1 \\right\\rVert")},
	    {STR_LIT("\\q"), STR_LIT("\\text{\"q\"\t}")}, /* JSON escapes */
	};
	struct math_cache *c = math_cache_open(m, 3);
	struct math_cache *plain = math_cache_open(NULL, 0);
	struct buf out;
	buf_init(&out);
	int pos;
	INT_EQ(render(c, "x \\in \\RR", 0, &out, &pos), 0);
	OK(strstr(out.p, "<mi mathvariant=\"double-struck\">R</mi>") != NULL);
	OK(strstr(out.p, ">x \\in \\RR</annotation>") != NULL);
	INT_EQ(render(c, "\\norm{v}", 0, &out, &pos), 0);
	OK(strstr(out.p, "<mo fence=\"true\">∥</mo><mi>v</mi><mo fence=\"true\">∥</mo>") != NULL);
	INT_EQ(render(c, "\\q", 0, &out, &pos), 0);
	OK(strstr(out.p, "<mtext>“q”") != NULL || strstr(out.p, "&quot;q&quot;") != NULL);
	INT_EQ(render(plain, "x \\in \\RR", 0, &out, &pos), -1);
	STR_EQ(out.p, "Undefined control sequence: \\RR");
	/* A \gdef in one formula does not leak into the next. */
	INT_EQ(render(c, "\\gdef\\foo{y}\\foo", 0, &out, &pos), 0);
	INT_EQ(render(c, "\\foo", 0, &out, &pos), -1);
	OK(strstr(out.p, "Undefined control sequence: \\foo") != NULL);

	OK(math_macro_check(STR_LIT("\\RR")) == NULL);
	OK(math_macro_check(STR_LIT("\\,")) == NULL);
	STR_EQ(math_macro_check(STR_LIT("RR")), "macro names start with '\\', as in '\\RR'");
	OK(math_macro_check(STR_LIT("\\")) != NULL);
	OK(math_macro_check(STR_LIT("\\R2")) != NULL);
	buf_fini(&out);
	math_cache_close(c);
	math_cache_close(plain);
}

static void test_math_memory_cache(void)
{
	t_current = "math memory cache";
	math_thread_cleanup(); /* so that this cache sees the load */
	struct math_cache *c = math_cache_open(NULL, 0);
	struct buf a, b;
	buf_init(&a);
	buf_init(&b);
	int pos;
	INT_EQ(render(c, "e^{i\\pi} + 1 = 0", 0, &a, &pos), 0);
	INT_EQ(render(c, "e^{i\\pi} + 1 = 0", 0, &b, &pos), 0);
	STR_EQ(a.p, b.p);
	INT_EQ(pos, -1);                                        /* set on a cache hit too */
	INT_EQ(render(c, "e^{i\\pi} + 1 = 0", 1, &b, &pos), 0); /* display: another entry */
	OK(strcmp(a.p, b.p) != 0);
	struct math_stats s;
	math_stats(c, &s);
	INT_EQ(s.typeset, 2);
	INT_EQ(s.cached, 1);
	INT_EQ(s.loads, 1);
	OK(s.load_s > 0 && s.load_s < 5);
	OK(s.typeset_s > 0);
	INT_EQ(s.disk_entries, 0);
	buf_fini(&a);
	buf_fini(&b);
	math_cache_close(c);
	math_cache_close(NULL);
}

static const char *const disk_tex[] = {"a^2+b^2=c^2", "\\int_0^1 x\\,dx", "\\RR^n"};

/* reopen: a cache with macros m (n of them), the saved bytes *file loaded. */
static struct math_cache *reopen(const struct math_macro *m, size_t n, const struct buf *file)
{
	struct math_cache *c = math_cache_open(m, n);
	if (file->len)
		math_cache_load(c, file->p, file->len);
	return c;
}

/* save: closes c, its bytes in *file if it asks to be written; returns
 * whether it did. */
static int save(struct math_cache *c, struct buf *file)
{
	struct buf b;
	buf_init(&b);
	int w = math_cache_save(c, &b);
	if (w) {
		buf_reset(file);
		buf_append(file, b.p, b.len);
	}
	buf_fini(&b);
	math_cache_close(c);
	return w;
}

/* The bytes a cache gives to be saved between builds (the build keeps
 * them in .folio-cache/math/KEY.cache, KEY its key), read back. */
static void test_math_saved_cache(void)
{
	t_current = "math saved cache";
	struct math_macro m1[] = {{STR_LIT("\\RR"), STR_LIT("\\mathbb{R}")}};
	struct math_macro m2[] = {{STR_LIT("\\RR"), STR_LIT("\\mathbf{R}")}};
	struct buf first[3], out, file, file2;
	buf_init(&out);
	buf_init(&file);
	buf_init(&file2);
	int pos;

	struct math_cache *c = reopen(m1, 1, &file);
	uint64_t key1 = math_cache_key(c);
	for (int i = 0; i < 3; i++) {
		buf_init(&first[i]);
		INT_EQ(render(c, disk_tex[i], i == 1, &first[i], &pos), 0);
	}
	INT_EQ(save(c, &file), 1);
	OK(file.len > 0 && !memcmp(file.p, "folio-math-cache 1 ", 19));

	/* Read back: every formula from the bytes, byte for byte; nothing
	 * new, nothing aged: nothing to write. */
	c = reopen(m1, 1, &file);
	struct math_stats s;
	math_stats(c, &s);
	INT_EQ(s.disk_entries, 3);
	int same = 1;
	for (int i = 0; i < 3; i++) {
		INT_EQ(render(c, disk_tex[i], i == 1, &out, &pos), 0);
		same &= strcmp(out.p, first[i].p) == 0;
	}
	OK(same);
	math_stats(c, &s);
	INT_EQ(s.cached, 3);
	INT_EQ(s.typeset, 0);
	INT_EQ(s.loads, 0);
	INT_EQ(save(c, &file), 0);

	/* Read only (folio check): read, a new formula typeset, and nothing
	 * to write. */
	c = reopen(m1, 1, &file);
	math_cache_read_only(c);
	INT_EQ(render(c, disk_tex[0], 0, &out, &pos), 0);
	INT_EQ(render(c, "x^{read}", 0, &out, &pos), 0);
	math_stats(c, &s);
	INT_EQ(s.cached, 1);
	INT_EQ(s.typeset, 1);
	INT_EQ(save(c, &file), 0);

	/* Other macros: another key, and the first key's bytes are no
	 * cache of it. */
	c = reopen(m2, 1, &file);
	OK(math_cache_key(c) != key1);
	math_stats(c, &s);
	INT_EQ(s.disk_entries, 0);
	INT_EQ(render(c, disk_tex[2], 0, &out, &pos), 0);
	OK(strstr(out.p, "<mi mathvariant=\"bold\">R</mi>") != NULL);
	INT_EQ(save(c, &file2), 1);

	/* Damaged bytes are an empty cache. */
	buf_reset(&file);
	buf_append(&file, file2.p, file2.len);
	file.p[file.len / 2] ^= 1;
	c = reopen(m2, 1, &file);
	math_stats(c, &s);
	INT_EQ(s.disk_entries, 0);
	math_cache_close(c);

	/* Entries unused for MATH_CACHE_KEEP runs are dropped. */
	size_t kept[MATH_CACHE_KEEP + 1];
	for (int run = 0; run <= MATH_CACHE_KEEP; run++) {
		c = reopen(m2, 1, &file2);
		math_stats(c, &s);
		kept[run] = s.disk_entries;
		save(c, &file2);
	}
	INT_EQ(kept[0], 1);
	INT_EQ(kept[MATH_CACHE_KEEP - 1], 1);
	INT_EQ(kept[MATH_CACHE_KEEP], 0);

	for (int i = 0; i < 3; i++)
		buf_fini(&first[i]);
	buf_fini(&out);
	buf_fini(&file);
	buf_fini(&file2);
}

/* ---- threads ---- */

#define NTHREAD_TEX 40

struct thread_arg {
	struct math_cache *c;
	int index;
	int cleanup; /* call math_thread_cleanup, else rely on the thread's exit */
	struct buf out[NTHREAD_TEX];
	int fails;
};

static void thread_tex(int i, char *tex, size_t size)
{
	snprintf(tex, size, "\\frac{x_{%d}}{1+y^{%d}} + \\sqrt[%d]{z} %s", i, i, i % 5 + 2,
	         i % 3 ? "\\leq \\alpha" : "\\geq \\beta");
}

static void *thread_main(void *p)
{
	struct thread_arg *a = p;
	char tex[200];
	for (int k = 0; k < NTHREAD_TEX; k++) {
		int i = (k + a->index * 7) % NTHREAD_TEX; /* each thread in its own order */
		thread_tex(i, tex, sizeof tex);
		buf_init(&a->out[i]);
		if (math_render(a->c, tex, strlen(tex), i % 2, &a->out[i], NULL, NULL) != 0)
			a->fails++;
	}
	if (a->cleanup)
		math_thread_cleanup();
	return NULL;
}

static void test_math_threads(void)
{
	t_current = "math threads";
	struct math_cache *ref = math_cache_open(NULL, 0);
	struct buf want[NTHREAD_TEX];
	char tex[200];
	for (int i = 0; i < NTHREAD_TEX; i++) {
		thread_tex(i, tex, sizeof tex);
		buf_init(&want[i]);
		math_render(ref, tex, strlen(tex), i % 2, &want[i], NULL, NULL);
	}
	math_cache_close(ref);

	struct math_cache *c = math_cache_open(NULL, 0);
	struct thread_arg args[4];
	pthread_t th[4];
	for (int t = 0; t < 4; t++) {
		args[t].c = c;
		args[t].index = t;
		args[t].cleanup = t < 2;
		args[t].fails = 0;
		OK(pthread_create(&th[t], NULL, thread_main, &args[t]) == 0);
	}
	int fails = 0, diff = 0;
	for (int t = 0; t < 4; t++) {
		pthread_join(th[t], NULL);
		fails += args[t].fails;
		for (int i = 0; i < NTHREAD_TEX; i++) {
			diff += strcmp(args[t].out[i].p ? args[t].out[i].p : "", want[i].p) != 0;
			buf_fini(&args[t].out[i]);
		}
	}
	INT_EQ(fails, 0);
	INT_EQ(diff, 0);
	struct math_stats s;
	math_stats(c, &s);
	INT_EQ(s.typeset + s.cached, 4 * NTHREAD_TEX);
	OK(s.typeset >= NTHREAD_TEX);
	INT_EQ(s.loads, 4);
	math_cache_close(c);
	for (int i = 0; i < NTHREAD_TEX; i++)
		buf_fini(&want[i]);
}

/* ---- pathological formulas ---- */

static char *repeat(const char *head, const char *unit, size_t n, const char *tail)
{
	struct buf b;
	buf_init(&b);
	buf_puts(&b, head);
	for (size_t i = 0; i < n; i++)
		buf_puts(&b, unit);
	buf_puts(&b, tail);
	return buf_detach(&b, NULL);
}

struct patho_arg {
	const char *tex;
	int rc;
	char msg[128];
};

static void *patho_thread(void *p)
{
	struct patho_arg *a = p;
	struct math_cache *c = math_cache_open(NULL, 0);
	struct buf out, err;
	buf_init(&out);
	buf_init(&err);
	a->rc = math_render(c, a->tex, strlen(a->tex), 0, &out, &err, NULL);
	snprintf(a->msg, sizeof a->msg, "%s", a->rc ? err.p : "");
	buf_reset(&out);
	a->rc = a->rc * 10 + math_render(c, "x", 1, 0, &out, NULL, NULL);
	buf_fini(&out);
	buf_fini(&err);
	math_cache_close(c);
	math_thread_cleanup();
	return NULL;
}

/* Time limits are CPU time, 3 times longer under ASan and 20 times under
 * valgrind (see math.c); the bounds below are the rendering thread's CPU
 * time too, with room to spare, so that a busy machine (make check runs
 * its suites beside the unit tests) does not fail them. */
#ifdef FOLIO_ASAN
#define ASAN_SCALE 3
#else
#define ASAN_SCALE 1
#endif
#define SCALE (ASAN_SCALE * (RUNNING_ON_VALGRIND ? 20 : 1))

static void test_math_pathological(void)
{
	t_current = "math pathological";
	struct math_cache *c = math_cache_open(NULL, 0);
	struct buf out;
	buf_init(&out);
	int pos;
	render(c, "x", 0, &out, &pos); /* KaTeX loaded before the clocks start */
	struct {
		char *tex;
		const char *msg; /* expected error, or NULL: renders */
		double limit;    /* seconds */
	} cases[] = {
	    {repeat("", "x+", 50000, "x"), "formula too long (100001 bytes, at most 16384)", 0.5},
	    {repeat("", "x+", 2000, "x"), NULL, 1},
	    {repeat("\\text{", "é", 2000, "}"), NULL, 1},
	    {repeat("", "{", 8000, "x"), "formula nested too deeply", 1},
	    {repeat("", "\\sqrt{", 2000, "x"), "formula nested too deeply", 1},
	    {repeat("", "\\left(", 2000, "x"), "formula nested too deeply", 1},
	    {repeat("\\def\\a{\\a\\a}", "", 0, "\\a"),
	     "Too many expansions: "
	     "infinite loop or need to increase maxExpand setting",
	     1},
	    /* A macro expanding to millions of tokens: stopped by the time limit. */
	    {repeat("\\def\\a{", "x+", 2000, "}"), "formula takes longer than 1 s to typeset", 3},
	};
	size_t ncases = sizeof cases / sizeof cases[0];
	/* the last case: \a 900 times after its definition */
	char *bomb = repeat(cases[ncases - 1].tex, "\\a", 900, "");
	free(cases[ncases - 1].tex);
	cases[ncases - 1].tex = bomb;
	for (size_t i = 0; i < ncases; i++) {
		double t0 = cpu_s();
		int rc = render(c, cases[i].tex, 0, &out, &pos);
		double dt = cpu_s() - t0;
		if (cases[i].msg) {
			INT_EQ(rc, -1);
			STR_EQ(out.p, cases[i].msg);
		} else {
			INT_EQ(rc, 0);
		}
		if (getenv("FOLIO_MATH_BENCH"))
			fprintf(stderr, "math pathological case %zu: %.3f s of CPU\n", i, dt);
		if (dt > cases[i].limit * SCALE)
			t_fail(__FILE__, __LINE__, "case %zu took %.2f s of CPU", i, dt);
		else
			t_passed++;
		/* KaTeX is usable afterwards (a new interpreter if need be). */
		INT_EQ(render(c, "x^2", 0, &out, &pos), 0);
		free(cases[i].tex);
	}

	/* A thread with a small stack: deep nesting is an error, not a crash. */
	pthread_attr_t attr;
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 256 * 1024);
	struct patho_arg a = {repeat("", "{", 5000, "x"), -3, ""},
	                 b = {"{{{{{{{{{{x}}}}}}}}}}", -3, ""};
	pthread_t th;
	OK(pthread_create(&th, &attr, patho_thread, &a) == 0 && pthread_join(th, NULL) == 0);
	INT_EQ(a.rc, -10);
	STR_EQ(a.msg, "formula nested too deeply");
	OK(pthread_create(&th, &attr, patho_thread, &b) == 0 && pthread_join(th, NULL) == 0);
	INT_EQ(b.rc, 0);
	pthread_attr_destroy(&attr);
	free((char *)a.tex);
	buf_fini(&out);
	math_cache_close(c);
}

/* ---- spec cases ---- */

/* section: the text after "--- name" up to the next line starting "---"
 * or "===", without the newline before it. */
static struct str section(const char *start, const char *end)
{
	const char *p = start;
	while (p < end) {
		if ((p == start || p[-1] == '\n') && end - p >= 3 &&
		    (strncmp(p, "---", 3) == 0 || strncmp(p, "===", 3) == 0))
			break;
		p++;
	}
	size_t len = (size_t)(p - start);
	if (len && start[len - 1] == '\n')
		len--;
	return (struct str){start, len};
}

static int run_spec_file(const char *path, const char *text, size_t len)
{
	const char *p = text, *end = text + len;
	int cases = 0;
	for (;;) {
		/* the next line starting "=== " */
		if (!(p == text || p[-1] == '\n') || strncmp(p, "=== ", 4) != 0) {
			p = strstr(p, "\n=== ");
			if (!p || p >= end)
				break;
			p++;
		}
		const char *title = p + 4, *nl = strchr(p, '\n');
		if (!nl)
			break;
		int line = 1;
		for (const char *q = text; q < p; q++)
			line += *q == '\n';
		struct math_macro macros[8];
		size_t nmacros = 0;
		int display = 0, want_pos = -1, is_error = 0, mathjax = 0, has_want = 0;
		struct str tex = {"", 0}, want = {"", 0}, katex = {NULL, 0};
		p = nl + 1;
		while (p < end && strncmp(p, "--- ", 4) == 0) {
			const char *hl = strchr(p, '\n');
			if (!hl)
				hl = end;
			struct str body = section(hl + 1 < end ? hl + 1 : end, end);
			if (strncmp(p, "--- options", 11) == 0) {
				const char *o = body.p, *oe = body.p + body.len;
				while (o < oe) {
					const char *e = memchr(o, '\n', (size_t)(oe - o));
					if (!e)
						e = oe;
					if (e - o == 7 && strncmp(o, "display", 7) == 0)
						display = 1;
					else if (e - o == 7 && strncmp(o, "mathjax", 7) == 0)
						mathjax = 1;
					else if (strncmp(o, "macro ", 6) == 0 && nmacros < 8) {
						const char *sp =
						    memchr(o + 6, ' ', (size_t)(e - o - 6));
						if (sp) {
							macros[nmacros].name = (struct str){
							    o + 6, (size_t)(sp - o - 6)};
							macros[nmacros].expansion = (struct str){
							    sp + 1, (size_t)(e - sp - 1)};
							nmacros++;
						}
					}
					o = e + 1;
				}
			} else if (strncmp(p, "--- tex", 7) == 0) {
				tex = body;
			} else if (strncmp(p, "--- katex", 9) == 0) {
				katex = body;
			} else if (strncmp(p, "--- mathml", 10) == 0) {
				want = body;
				has_want = 1;
			} else if (strncmp(p, "--- error", 9) == 0) {
				is_error = 1;
				has_want = 1;
				want = body;
				want_pos = atoi(p + 9);
			}
			p = body.p + body.len;
			if (p < end && *p == '\n')
				p++;
		}
		struct math_cache *c = math_cache_open(macros, nmacros);
		if (mathjax)
			math_cache_mathjax(c);
		struct buf out, err, kt;
		buf_init(&out);
		buf_init(&err);
		buf_init(&kt);
		int pos = -2;
		/* --- katex: what mathjax_rewrite makes of the TeX ("=" for
		 * nothing); then, without --- mathml or --- error, KaTeX must
		 * take it */
		if (katex.p) {
			struct buf map;
			buf_init(&map);
			if (!mathjax_rewrite(tex.p, tex.len, display, &kt, &map))
				buf_puts(&kt, "=");
			if (map.len != kt.len * sizeof(uint32_t) && !(kt.len == 1 && *kt.p == '='))
				t_fail(path, line, "the map has %zu bytes for %zu", map.len, kt.len);
			buf_fini(&map);
		}
		int rc = math_render(c, tex.p, tex.len, display, &out, &err, &pos);
		const char *got = rc ? (err.p ? err.p : "") : (out.p ? out.p : "");
		int ok = has_want ? rc == (is_error ? -1 : 0) && strlen(got) == want.len &&
		                        memcmp(got, want.p, want.len) == 0 && (!is_error || pos == want_pos)
		                  : rc == 0;
		if (katex.p && (kt.len != katex.len || memcmp(kt.p, katex.p, katex.len) != 0)) {
			ok = 0;
			got = kt.p;
			want = katex;
		}
		if (ok)
			t_passed++;
		else
			t_fail(path, line, "%.*s: rc %d, pos %d\n--- want\n%.*s\n--- got\n%s",
			       (int)(nl - title), title, rc, pos, (int)want.len, want.p, got);
		buf_fini(&out);
		buf_fini(&err);
		buf_fini(&kt);
		math_cache_close(c);
		cases++;
	}
	return cases;
}

static void test_math_spec(const char *dir)
{
	t_current = "math spec";
	DIR *dp = opendir(dir);
	if (!dp) {
		t_fail(__FILE__, __LINE__, "cannot open %s", dir);
		return;
	}
	int total = 0;
	size_t files = 0;
	for (struct dirent *e; (e = readdir(dp));) {
		size_t l = strlen(e->d_name);
		if (l < 5 || strcmp(e->d_name + l - 4, ".txt") != 0)
			continue;
		char path[512];
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		size_t len;
		char *text = read_file(path, &len);
		if (!text) {
			t_fail(__FILE__, __LINE__, "cannot read %s", path);
			continue;
		}
		total += run_spec_file(path, text, len);
		files++;
		free(text);
	}
	closedir(dp);
	printf("math spec: %d cases in %zu files\n", total, files);
	OK(total > 0);
}

/* ---- timings (FOLIO_MATH_BENCH=1) ---- */

/* Formulas as a technical blog has them; '@' becomes a number, so that
 * every one is new to the cache. */
static const char *const bench_forms[] = {
    "\\frac{a_{@}}{b_{@}}",
    "\\sum_{i=1}^{@} x_i^2",
    "\\int_0^{@} e^{-x^2}\\,dx = \\frac{\\sqrt{\\pi}}{2}",
    "O(n^{@} \\log n)",
    "\\mathbf{W}_{@} \\in \\mathbb{R}^{d \\times k}",
    "\\begin{pmatrix} a & b \\\\ c & @ \\end{pmatrix}",
    "\\operatorname{softmax}(x)_{@} = \\frac{e^{x_i}}{\\sum_j e^{x_j}}",
    "\\lim_{n\\to\\infty} \\left(1+\\frac{1}{n}\\right)^{@ n}",
};

static void bench_tex(char *tex, size_t size, int i)
{
	struct buf b;
	buf_init(&b);
	for (const char *p = bench_forms[i % 8]; *p; p++)
		if (*p == '@')
			buf_printf(&b, "%d", i);
		else
			buf_putc(&b, *p);
	snprintf(tex, size, "%s", b.p);
	buf_fini(&b);
}

static void bench(void)
{
	const int n = 400;
	math_thread_cleanup();
	struct math_cache *c = math_cache_open(NULL, 0);
	struct buf out;
	buf_init(&out);
	char tex[256];
	double t0 = now_s();
	math_render(c, "x", 1, 0, &out, NULL, NULL);
	double load = now_s() - t0;
	t0 = now_s();
	for (int i = 0; i < n; i++) {
		bench_tex(tex, sizeof tex, i);
		buf_reset(&out);
		math_render(c, tex, strlen(tex), i % 4 == 0, &out, NULL, NULL);
	}
	double cold = now_s() - t0;
	t0 = now_s();
	for (int r = 0; r < 25; r++)
		for (int i = 0; i < n; i++) {
			bench_tex(tex, sizeof tex, i);
			buf_reset(&out);
			math_render(c, tex, strlen(tex), i % 4 == 0, &out, NULL, NULL);
		}
	double warm = now_s() - t0;
	fprintf(stderr,
	        "math bench: KaTeX %s load %.1f ms; cold %.0f formulas/s (%.3f ms each); "
	        "cached %.0f formulas/s\n",
	        math_katex_version, load * 1e3, n / cold, cold * 1e3 / n, 25 * n / warm);
	buf_fini(&out);
	math_cache_close(c);
}

void test_math(void);
void test_math(void)
{
	test_math_output();
	test_math_errors();
	test_math_macros();
	test_math_memory_cache();
	test_math_saved_cache();
	test_math_threads();
	test_math_pathological();
	test_math_spec("tests/math");
	if (getenv("FOLIO_MATH_BENCH"))
		bench();
	math_thread_cleanup();
}
