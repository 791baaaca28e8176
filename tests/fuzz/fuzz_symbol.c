/* fuzz_symbol.c: libFuzzer target for symbol_find (md/symbol.c), which
 * finds a definition by name in a file a code block includes (symbol=):
 * the file is the site author's, or someone else's copied into the site.
 * An input is a first line "LANG NAME" (LANG one of the languages with
 * symbols; another word picks one by its first byte) and the file's code
 * after it.
 *
 * Besides crashes and leaks, the target checks the promises of symbol.h:
 * a definition found spans lines of the code (1 <= lo <= hi <= its number
 * of lines); none found leaves in near a text without a NUL byte; a
 * language with symbols is never "no grammar" unless the parse timed out
 * (by the wall clock: only when the fuzzer was starved of the CPU, never
 * by the CPU time an input of a fuzzer's size takes); a close name said
 * is a name. */
#include "fuzz.h"

#include "base/buf.h"
#include "md/symbol.h"

#include <time.h>

static const char *const langs[] = {"c",    "cpp",        "cuda",       "python", "rust",
				    "go",   "javascript", "typescript", "tsx",    "java"};

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

static void fail(const char *what, const uint8_t *data, size_t size)
{
	fuzz_fail("fuzz_symbol", what, (const char *)data, size);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *d = (const char *)data;
	const char *nl = memchr(d, '\n', size);
	size_t head = nl ? (size_t)(nl - d) : size;
	const char *sp = memchr(d, ' ', head);
	size_t lang_len = sp ? (size_t)(sp - d) : head;
	const char *lang = langs[size ? data[0] % (sizeof langs / sizeof langs[0]) : 0];
	for (size_t i = 0; i < sizeof langs / sizeof langs[0]; i++)
		if (strlen(langs[i]) == lang_len && !memcmp(langs[i], d, lang_len))
			lang = langs[i];
	const char *name = sp ? sp + 1 : d + head;
	size_t name_len = (size_t)(d + head - name);
	const char *code = nl ? nl + 1 : d + size;
	size_t code_len = (size_t)(d + size - code);
	struct symbol_span span = {0, 0};
	struct buf near;
	buf_init(&near);
	int guess = -1;
	struct timespec w0, w1, c0, c1;
	clock_gettime(CLOCK_MONOTONIC, &w0);
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c0);
	int rc = symbol_find(lang, code, code_len, name, name_len, &span, &near, &guess);
	clock_gettime(CLOCK_MONOTONIC, &w1);
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c1);
	double wall = (double)(w1.tv_sec - w0.tv_sec) + (double)(w1.tv_nsec - w0.tv_nsec) / 1e9;
	double cpu = (double)(c1.tv_sec - c0.tv_sec) + (double)(c1.tv_nsec - c0.tv_nsec) / 1e9;
	size_t lines = 1;
	for (size_t i = 0; i < code_len; i++)
		lines += code[i] == '\n';
	/* the parse's budget (symbol.c's SYMBOL_PARSE_US, 4 s) is wall time
	 * (tree-sitter's timeout): a fuzzer
	 * starved of the CPU (a build beside it) can spend it waiting; that
	 * is no finding, but a parse that used half of it working is one */
	if (rc < 0 && wall < 4.0)
		fail("a language with symbols said to have no grammar", data, size);
	if (rc < 0 && cpu >= 2.0)
		fail("a parse of a fuzzer's input took seconds of CPU", data, size);
	if (rc == 1 && !(span.lo >= 1 && span.lo <= span.hi && span.hi <= lines))
		fail("a definition's lines outside the code", data, size);
	if (rc == 0 && near.len && memchr(near.p, 0, near.len))
		fail("a NUL byte in the names suggested", data, size);
	if (rc == 1 && (near.len || guess))
		fail("a suggestion beside a definition found", data, size);
	if (rc == 0 && guess && !near.len)
		fail("a close name that is no name", data, size);
	buf_fini(&near);
	return 0;
}
