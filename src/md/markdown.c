/* markdown.c: Markdown to HTML on cmark-gfm: md_render, a list of named
 * passes over one document (each in a file of its own, see internal.h). */
#include "md/markdown.h"

#include "internal.h"
#include "md/mdmem.h"

#include <assert.h>
#include <string.h>

#include <cmark-gfm_version.h>

/* Besides its public API, md/ uses headers of cmark-gfm's that Debian's
 * libcmark-gfm-dev installs under cmark-gfm/, so it is tied to the
 * version it was written against (checked here):
 *  - chunk.h: the layout of the text an inline parser works on, which
 *    cmark_inline_parser_get_chunk returns (the math scanner reads it);
 *  - render.h: struct cmark_html_renderer, whose `html` buffer an
 *    html_render_func writes to (the extensions in cmark-gfm do the same);
 *  - houdini.h: HTML entity decoding (plain text of raw HTML);
 *  - node.h and buffer.h: a formula's TeX is set straight into its node,
 *    and a block handed to the extension gets its kind (blockext.c);
 *  - parser.h: the parser's open block (blockext.c);
 *  - syntax_extension.h and inlines.h: to pin the special characters of the
 *    inline extensions once, at init (ext.c). */
#if CMARK_GFM_VERSION != ((0 << 24) | (29 << 16) | (0 << 8) | 13)
#error "md/ uses cmark-gfm 0.29.0.gfm.13 internals: check chunk.h, node.h, parser.h, render.h and syntax_extension.h"
#endif

size_t md_image_at(struct str html)
{
	static const char tag[] = "<img src=\"";
	const char *p = html.p, *e = html.p + html.len;
	while (html.len && p < e) {
		const char *at = memmem(p, (size_t)(e - p), tag, sizeof tag - 1);
		const char *cmt = at ? memmem(p, (size_t)(at - p), "<!--", 4) : NULL;
		if (!cmt)
			return at ? 2 + (size_t)(at - html.p) : 1;
		/* an image in a comment is no image of the page */
		const char *end = memmem(cmt + 4, (size_t)(e - cmt - 4), "-->", 3);
		if (!end)
			return 1;
		p = end + 3;
	}
	return 1;
}

/* pass_render: the body's HTML, cmark's renderer over the whole tree (the
 * counts' task joined: it reads the tree); the HTML of a big page is kept
 * where cmark wrote it, not copied. */
static void pass_render(struct md_ctx *c)
{
	char *html = cmark_render_html(c->root, c->options, cmark_parser_get_syntax_extensions(c->parser));
	size_t len = strlen(html);
	md_count_finish(c);
	void *block = mdmem_take(html);
	if (block) {
		arena_own(c->a, block);
		c->out->html = (struct str){html, len};
	} else {
		c->out->html = (struct str){arena_strndup(c->a, html, len), len};
		c->mem->free(html);
	}
	if (c->udir_calls)
		md_udirs_fill(c); /* the site's directives, rendered with their templates */
	/* no image counted (Markdown's, raw HTML's <img> tags, diagrams) and
	 * no directive (a video's poster): no <img> to look for */
	c->out->img_at = c->out->images || c->dirs_on ? md_image_at(c->out->html) : 1;
}

static void md_pass_summary_udirs(struct md_ctx *c)
{
	if (c->udir_calls)
		md_udirs_fill_summary(c);
}

/* The passes, in order. Each reads what those before it made of c (the
 * text, the tree, the outline) and leaves its part in c or in c->out. */
static const struct md_pass {
	const char *name;
	void (*run)(struct md_ctx *c);
} passes[] = {
	{"sentinels", md_pass_sentinels},       /* \( \) \[ \] for cmark (brackets) */
	{"parse", md_pass_parse},               /* cmark-gfm and folio's extension */
	{"directives", md_pass_directives},     /* :::note ... ::: checked, made HTML */
	{"inline directives", md_pass_inline_directives}, /* :name[...]{...} of the site's */
	{"math blocks", md_pass_math_blocks},   /* $$ ... $$ and ```math made formulas */
	{"outline", md_pass_outline},           /* headings, <!--more-->, first paragraph */
	{"ids", md_pass_ids},                   /* heading ids and anchors */
	{"xref", md_pass_xref},                 /* labels numbered, references made placeholders */
	{"citations", md_pass_citations},       /* [@key], @key; the References */
	{"summary text", md_pass_summary_text}, /* before formulas are MathML */
	{"blocks", md_pass_blocks},             /* code, diagrams, formulas, images; the counts */
	{"render", pass_render},                /* the body's HTML */
	{"sidenotes", md_pass_sidenotes},       /* footnotes again in the margin */
	{"summary", md_pass_summary},           /* its HTML, after the body's */
	{"summary directives", md_pass_summary_udirs}, /* the site's directives in it */
	{"toc", md_pass_toc},                   /* the table of contents */
};

int md_render(struct arena *a, const struct md_options *o, struct diag *d, const char *path,
              const char *src, size_t src_len, const char *text, size_t len, int line_offset,
              struct md_doc *out)
{
	assert(a && o && out && (text || !len));
	md_init();
	memset(out, 0, sizeof *out);
	struct md_ctx c = {.a = a, .d = d, .in = {path, src, src_len, line_offset}, .o = o, .out = out,
	                   .text = text ? text : "", .len = len, .hl_left = MD_HL_BUDGET,
	                   .raw_left = MD_RAW_BUDGET};
	c.marks = out->marks = md_marks(c.text, c.len);
	c.mem = mdmem_begin();
	for (size_t i = 0; i < sizeof passes / sizeof *passes; i++)
		passes[i].run(&c);
	md_includes_free(&c);
	md_images_free(&c);
	md_where_free(&c);
	md_directives_free(&c);
	md_outline_free(&c);
	md_count_free(&c);
	md_xref_free(&c);
	md_parse_free(&c);
	mdmem_end();
	return c.errors ? -1 : 0;
}
