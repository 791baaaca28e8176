/* fuzz_toml.c: libFuzzer target for the TOML reader (toml_parse: toml++
 * behind src/toml.cpp).
 *
 * An input is a TOML text. It is parsed twice: whole, as a config
 * file, and as the front matter of a Markdown file made of it (between two
 * +++ lines, then a body), so that line offsets and excerpts into a larger
 * file are exercised too. A tree must keep the promises of
 * tests/fuzz/tree.h and is then used as the later stages use a tree;
 * a failed parse must have reported exactly one error. */
#include "fuzz.h"
#include "tree.h"

#include "formats/toml.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

static void one(struct arena *a, const char *src, size_t src_len, const char *text, size_t len,
                int line_offset, struct buf *out)
{
	struct diag d;
	struct buf cap;
	buf_init(&cap);
	diag_init(&d, NULL);
	d.capture = &cap;
	struct ynode *root = toml_parse(a, &d, "fuzz.toml", src, src_len, text, len, line_offset);
	if (root) {
		if (d.errors)
			abort(); /* errors reported, yet a tree */
		fuzz_tree_walk(root, 0, 1 + line_offset, line_offset + fuzz_tree_lines(text, len));
		fuzz_tree_use(a, root, out);
	} else if (d.errors != 1) {
		abort(); /* no tree: one error, reported once */
	}
	diag_fini(&d);
	buf_fini(&cap);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct arena *a = arena_new();
	struct buf out, file;
	buf_init(&out);
	buf_init(&file);

	one(a, (const char *)data, size, (const char *)data, size, 0, &out);

	/* the pathological regression inputs (megabytes) once only */
	if (size <= 65536) {
		buf_puts(&file, "+++\n");
		buf_append(&file, data, size);
		buf_puts(&file, "\n+++\nBody.\n");
		one(a, file.p, file.len, file.p + 4, size, 1, &out);
	}

	buf_fini(&out);
	buf_fini(&file);
	arena_free(a);
	return 0;
}
