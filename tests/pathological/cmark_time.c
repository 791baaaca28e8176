/* cmark_time.c: how much CPU time cmark-gfm alone takes to parse a Markdown file and
 * render it to HTML, with the options and extensions folio uses (without
 * folio's own: math, directives, heading ids, highlighting). measure.py
 * prints it beside folio's build time, to tell cmark's share from folio's.
 *
 *     cmark_time FILE      prints "CPU_SECONDS HTML_BYTES"; front matter
 *                          (from a first line "---" to the next) skipped */
#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: cmark_time FILE\n");
		return 2;
	}
	FILE *f = fopen(argv[1], "rb");
	if (!f) {
		perror(argv[1]);
		return 1;
	}
	size_t cap = 1 << 20, len = 0, n;
	char *text = malloc(cap);
	while (text && (n = fread(text + len, 1, cap - len, f)) > 0) {
		len += n;
		if (len == cap)
			text = realloc(text, cap *= 2);
	}
	fclose(f);
	if (!text)
		return 1;
	const char *body = text;
	if (len >= 4 && memcmp(text, "---\n", 4) == 0) {
		const char *end = strstr(text + 4, "\n---\n");
		if (end)
			body = end + 5;
	}
	size_t blen = len - (size_t)(body - text);

	cmark_gfm_core_extensions_ensure_registered();
	int options = CMARK_OPT_FOOTNOTES | CMARK_OPT_VALIDATE_UTF8 | CMARK_OPT_TABLE_PREFER_STYLE_ATTRIBUTES |
		      CMARK_OPT_UNSAFE | CMARK_OPT_SMART;
	double t0 = now();
	cmark_parser *p = cmark_parser_new(options);
	static const char *const exts[] = {"table", "strikethrough", "autolink", "tasklist"};
	for (size_t i = 0; i < sizeof exts / sizeof *exts; i++)
		cmark_parser_attach_syntax_extension(p, cmark_find_syntax_extension(exts[i]));
	cmark_parser_feed(p, body, blen);
	cmark_node *root = cmark_parser_finish(p);
	char *html = cmark_render_html(root, options, cmark_parser_get_syntax_extensions(p));
	double t = now() - t0;
	printf("%.3f %zu\n", t, strlen(html));
	free(html);
	cmark_node_free(root);
	cmark_parser_free(p);
	free(text);
	return 0;
}
