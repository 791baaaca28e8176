/* fuzz_mathjax.c: libFuzzer target for the MathJax rewrites
 * (mathjax_rewrite, md/mathjax.c), which read every formula of a site
 * whose folio.yml says math: {compat: mathjax}. An input is a mode byte
 * (its low bit: display) and a formula.
 *
 * Besides crashes, the target checks the promises of mathjax.h: no rewrite
 * leaves out and map untouched; a rewrite gives one map entry per byte,
 * each an offset into the formula (or its end); and a formula in UTF-8 is
 * rewritten in UTF-8 (KaTeX and the page need it). */
#include "fuzz.h"

#include "base/slug.h"
#include "md/mathjax.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	int display = data[0] & 1;
	const char *tex = (const char *)data + 1;
	size_t len = size - 1;
	struct buf out, map;
	buf_init(&out);
	buf_init(&map);
	int n = mathjax_rewrite(tex, len, display, &out, &map);
	if (n < 0)
		abort();
	if (n == 0 && (out.len || map.len))
		abort(); /* no rewrite, yet bytes */
	if (n > 0) {
		if (map.len != out.len * sizeof(uint32_t))
			abort(); /* not one offset per byte */
		for (size_t i = 0; i < out.len; i++) {
			uint32_t at;
			memcpy(&at, map.p + i * sizeof at, sizeof at);
			if (at > len)
				abort(); /* an offset past the formula */
		}
		if (utf8_valid_prefix(tex, len) == len && utf8_valid_prefix(out.p, out.len) != out.len)
			abort(); /* UTF-8 in, not UTF-8 out */
	}
	buf_fini(&out);
	buf_fini(&map);
	return 0;
}
