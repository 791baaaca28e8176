/* fuzz_notebook.c: libFuzzer target for the notebook reader and converter
 * (read/notebook.c: the JSON tree's cells, outputs, base64, attachments,
 * the line map) and the ANSI SGR parser (read/ansi.c).
 *
 * An input is a notebook's text. It is read; a notebook read is rendered
 * (md_render through the relay that moves each message into the JSON), and
 * every line of its Markdown must map to a place inside the file; a
 * notebook not read must have reported an error. The input's bytes are
 * also given to the ANSI parser as terminal text: its HTML must hold no
 * escape byte, and as many </span> as <span. */
#include "fuzz.h"

#include "base/arena.h"
#include "base/buf.h"
#include "base/diag.h"
#include "read/notebook.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

static size_t count(const char *s, size_t n, const char *needle)
{
	size_t k = 0, l = strlen(needle);
	for (const char *p = s; (p = memmem(p, (size_t)(s + n - p), needle, l)); p += l)
		k++;
	return k;
}

static void ansi(const uint8_t *data, size_t size)
{
	struct buf h;
	buf_init(&h);
	ansi_to_html(&h, (const char *)data, size);
	if (h.len && memchr(h.p, 0x1B, h.len))
		abort(); /* an escape left in the HTML */
	if (count(h.p ? h.p : "", h.len, "<span") != count(h.p ? h.p : "", h.len, "</span>"))
		abort(); /* a span left open, or closed twice */
	if (h.len && (memmem(h.p, h.len, "<pre", 4) || memmem(h.p, h.len, "</pre", 5)))
		abort(); /* text that would end its <pre> */
	buf_fini(&h);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ansi(data, size);
	struct arena *a = arena_new();
	struct diag d;
	struct buf cap;
	buf_init(&cap);
	diag_init(&d, NULL);
	d.capture = &cap;
	const char *src = arena_strndup(a, (const char *)data, size);
	const struct notebook *nb = notebook_read(a, &d, "content/posts/f.ipynb", src, size);
	if (!nb) {
		if (d.errors < 1)
			abort(); /* no notebook, and nothing said why */
	} else {
		if (d.errors)
			abort(); /* errors reported, yet a notebook */
		int lines = 1;
		for (size_t i = 0; i < size; i++)
			lines += src[i] == '\n';
		for (size_t l = 1; l <= nb->nlines + 1; l++) {
			struct notebook_place pl = notebook_place(nb, (int)l, (int)(l % 7) + 1);
			if (pl.line < 1 || pl.line > lines || pl.col < 1 || (size_t)pl.col > size + 1)
				abort(); /* a place outside the file */
		}
		struct md_options o;
		memset(&o, 0, sizeof o);
		o.unsafe = 1;
		o.math = 1;
		struct md_doc doc;
		memset(&doc, 0, sizeof doc);
		notebook_render(a, &o, &d, nb, &doc);
		if (!doc.html.p)
			abort();
	}
	diag_fini(&d);
	buf_fini(&cap);
	arena_free(a);
	return 0;
}
