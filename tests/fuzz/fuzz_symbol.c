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
 * (never, for inputs of a fuzzer's size); a close name said is a name. */
#include "fuzz.h"

#include "base/buf.h"
#include "md/symbol.h"

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
	int rc = symbol_find(lang, code, code_len, name, name_len, &span, &near, &guess);
	size_t lines = 1;
	for (size_t i = 0; i < code_len; i++)
		lines += code[i] == '\n';
	if (rc < 0)
		fail("a language with symbols said to have no grammar", data, size);
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
