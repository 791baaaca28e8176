/* nodes.c: folio's node types in cmark-gfm's tree (formulas, and the block
 * a document is parsed in), and what a formula keeps in its node. */
#include "internal.h"



/* Set once by md_nodes_init (md_init), read-only afterwards. */
cmark_node_type md_node_math_inline, md_node_math_display, md_node_wrap;

void md_nodes_init(void)
{
	md_node_math_inline = cmark_syntax_extension_add_node(1);
	md_node_math_display = cmark_syntax_extension_add_node(1);
	md_node_wrap = cmark_syntax_extension_add_node(0);
}

/* md_math_pack: where a formula starts, relative to the document body
 * (1-based line and column), packed into a node's user data for error
 * messages. The line is exact; the column is exact on the container's
 * first line and counts from the container's text (after list or quote
 * markers) below it. */
uintptr_t md_math_pack(int line, int col)
{
	return ((uintptr_t)(line > 0 ? line : 0) << 20) | (uintptr_t)(col > 0 && col < (1 << 20) ? col : 0);
}

void md_math_where(cmark_node *n, int *line, int *col)
{
	uintptr_t v = (uintptr_t)cmark_node_get_user_data(n);
	*line = (int)(v >> 20);
	*col = (int)(v & ((1u << 20) - 1));
}

cmark_node *md_math_new(cmark_mem *mem, cmark_syntax_extension *ext, int display, const char *tex, size_t n,
                        int line, int col)
{
	cmark_node *m = cmark_node_new_with_mem_and_ext(display ? md_node_math_display : md_node_math_inline, mem, ext);
	/* the TeX, copied once (cmark_node_set_string_content wants a C
	 * string, which would be a second copy) */
	cmark_strbuf_set(&m->content, (const unsigned char *)tex, (bufsize_t)n);
	cmark_node_set_user_data(m, (void *)md_math_pack(line, col));
	return m;
}
