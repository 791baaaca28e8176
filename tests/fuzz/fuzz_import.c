/* fuzz_import.c: libFuzzer target for folio import's body converters
 * (src/import/jkbody.c): a Jekyll post body (Liquid and kramdown) and a
 * Hugo page body (shortcodes, Goldmark code block attributes) to folio
 * Markdown.
 *
 * An input is the body's text. It is converted six times: as a Jekyll
 * Markdown post's, a Jekyll HTML post's (HTML kept as raw blocks, see
 * html_doc) and a Hugo page's, each with no callbacks (the pure defaults),
 * and with
 * callbacks that resolve some posts, links and URLs and call every other
 * image missing, so that both the plain and the rewriting paths run.
 *
 * Checked beside the sanitizers: the converter returns (pathological
 * inputs of unclosed tags, fences and formulas stay linear; libFuzzer's
 * timeout catches a quadratic case), every finding has a kind, a path
 * and a one-line text, its line lies within the input's lines, and the
 * findings of one kind are capped.
 *
 * With FUZZ_SHOW set in the environment, the converted text and the
 * findings are printed. */
#include "fuzz.h"

#include <ctype.h>

#include "base/arena.h"
#include "base/buf.h"
#include "import/import.h"
#include "base/diag.h"
#include "tmpl/tmpl.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

static int calls;

static const char *post_url_cb(void *ctx, const char *name, int line)
{
	(void)ctx;
	(void)line;
	return calls++ % 2 ? "/posts/x/" : name;
}

static const char *link_cb(void *ctx, const char *path, int line)
{
	(void)ctx;
	(void)line;
	return calls++ % 3 ? NULL : path;
}

static const char *url_cb(void *ctx, const char *u, int image, int line, int *missing)
{
	(void)ctx;
	(void)line;
	if (image && calls++ % 2)
		*missing = 1;
	return calls % 5 ? NULL : u;
}

/* one: text converted as a Jekyll post (kind 0), a Hugo page (1) or a
 * Jekyll HTML post (2). */
/* a shortcode written as a directive call: its name and arguments must
 * be a directive's (folio-site(5)) */
static void on_directive(void *ctx, struct str hugo_name, const char *name, const char *const *keys, size_t nkeys,
			 int inl, int line)
{
	(void)ctx, (void)hugo_name, (void)inl, (void)line;
	if (!((name[0] >= 'a' && name[0] <= 'z') || (name[0] >= 'A' && name[0] <= 'Z')))
		abort();
	for (const char *p = name; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '-')
			abort();
	for (size_t k = 0; k < nkeys; k++)
		if (!keys[k][0] || (!isalpha((unsigned char)keys[k][0]) && keys[k][0] != '_'))
			abort();
}

static void one(const char *text, size_t len, int with_callbacks, int kind)
{
	int hugo = kind == 1;
	struct arena *a = arena_new();
	struct imp_report r;
	memset(&r, 0, sizeof r);
	struct jk_body c = {a, &r, kind == 2 ? "_posts/x.html" : "_posts/x.md", 2, NULL, NULL, NULL, NULL, hugo, NULL, 0, 0,
			    on_directive};
	struct imp_counts counts;
	memset(&counts, 0, sizeof counts);
	if (with_callbacks) {
		/* and as a blog that loads MathJax with $ inline, counted for
		 * the parity check */
		c.post_url = post_url_cb;
		c.link = link_cb;
		c.url = url_cb;
		c.mathjax = 1;
		c.dollar = 1;
		c.counts = &counts;
	}
	struct buf out;
	buf_init(&out);
	if (hugo)
		hugo_body(&c, text, len, &out);
	else
		jekyll_body(&c, text, len, &out);
	size_t lines = 1;
	for (size_t i = 0; i < len; i++)
		lines += text[i] == '\n';
	if (r.n > 32 * 52 + 1) {
		fprintf(stderr, "%zu findings: the cap per kind does not hold\n", r.n);
		abort();
	}
	for (size_t i = 0; i < r.n; i++) {
		const struct imp_finding *f = &r.v[i];
		if (!f->kind || !f->path || !f->what || strchr(f->what, '\n') || f->line < 0 ||
		    (size_t)f->line > lines + 2 + 1) {
			fprintf(stderr, "finding %zu: bad kind, text or line %d (of %zu)\n", i, f->line, lines);
			abort();
		}
	}
	if (getenv("FUZZ_SHOW")) {
		fwrite(out.p, 1, out.len, stdout);
		for (size_t i = 0; i < r.n; i++)
			printf("\n%s:%d: %s: %s", r.v[i].path, r.v[i].line, r.v[i].kind, r.v[i].what);
		printf("\n");
	}
	buf_fini(&out);
	arena_free(a);
}

/* a shortcode's or an include's template made a directive's: what it
 * makes must be a template folio reads without an error, declaring the
 * arguments it reads */
static void templates(const char *text, size_t len)
{
	for (int jekyll = 0; jekyll < 2; jekyll++) {
		struct arena *a = arena_new();
		struct imp_dir d;
		memset(&d, 0, sizeof d);
		d.name = "x";
		d.orig = "x";
		struct buf b;
		buf_init(&b);
		int simple = jekyll ? imp_jekyll_template(a, text, len, &b, &d) : imp_hugo_template(a, text, len, &b, &d);
		for (size_t k = 0; k < d.nkeys; k++)
			if (!d.keys[k][0] || (!isalpha((unsigned char)d.keys[k][0]) && d.keys[k][0] != '_'))
				abort();
		if (simple) {
			struct buf t;
			buf_init(&t);
			buf_puts(&t, "{# args:\n");
			for (size_t k = 0; k < d.nkeys; k++)
				buf_printf(&t, "     %s: string\n", d.keys[k]);
			buf_puts(&t, "#}\n");
			buf_append(&t, b.p ? b.p : "", b.len);
			struct tmpl_env *env = tmpl_env_new();
			struct diag q;
			diag_init(&q, NULL);
			struct buf cap;
			buf_init(&cap);
			q.capture = &cap;
			int errors = tmpl_env_add(env, "directives/x.html", "directives/x.html", t.p, t.len, &q);
			if (errors) {
				fprintf(stderr, "a %s template made one folio refuses:\n%.*s\n%.*s\n", jekyll ? "Jekyll" : "Hugo",
					(int)t.len, t.p, (int)cap.len, cap.p ? cap.p : "");
				abort();
			}
			diag_fini(&q);
			buf_fini(&cap);
			tmpl_env_free(env);
			buf_fini(&t);
		}
		buf_fini(&b);
		arena_free(a);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	for (int kind = 0; kind < 3; kind++) {
		one((const char *)data, size, 0, kind);
		one((const char *)data, size, 1, kind);
	}
	templates((const char *)data, size);
	return 0;
}
