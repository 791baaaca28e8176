/* treeparse.h: the helpers of the unit tests of a reader that gives
 * yaml_parse's tree (test_json.c, test_toml.c): parse into the test's
 * arena with the diagnostics captured, the messages of a text that fails,
 * the tree printed back. Define TREE_PARSE (the reader) and TREE_PATH (the
 * file name in messages) before including it. */
#ifndef FOLIO_TREEPARSE_H
#define FOLIO_TREEPARSE_H

static struct arena *arena;
static struct buf cap;  /* the diagnostics of the last parse */
static int last_errors; /* and how many there were */

static struct ynode *parse_in(const char *src, size_t src_len, size_t at, int line_offset)
{
	struct diag d;
	diag_init(&d, NULL);
	buf_reset(&cap);
	d.capture = &cap;
	struct ynode *n =
	    TREE_PARSE(arena, &d, TREE_PATH, src, src_len, src + at, src_len - at, line_offset);
	last_errors = d.errors;
	diag_fini(&d);
	return n;
}

static struct ynode *parse(const char *text)
{
	return parse_in(text, strlen(text), 0, 0);
}

static const char *diags(void)
{
	return cap.p ? cap.p : "";
}

/* msgs_of: the message lines for text, which must fail to parse. */
static const char *msgs_of(const char *text)
{
	OK(parse(text) == NULL);
	return t_msgs(&cap);
}

/* dump: the tree in one line: {k: v, ...}, [a, ...], quoted scalars in
 * double quotes, plain ones bare (static buffer). */
static void dump_to(struct buf *b, const struct ynode *n)
{
	if (!n) {
		buf_puts(b, "(null)");
		return;
	}
	if (n->kind == YNODE_SCALAR) {
		if (n->quoted)
			buf_printf(b, "\"%.*s\"", STR_FMT(n->str));
		else
			buf_put_str(b, n->str);
		return;
	}
	buf_putc(b, n->kind == YNODE_MAP ? '{' : '[');
	for (size_t i = 0; i < n->len; i++) {
		if (i)
			buf_puts(b, ", ");
		if (n->kind == YNODE_MAP) {
			dump_to(b, n->keys[i]);
			buf_puts(b, ": ");
		}
		dump_to(b, n->items[i]);
	}
	buf_putc(b, n->kind == YNODE_MAP ? '}' : ']');
}

static const char *dump(const struct ynode *n)
{
	static struct buf b;
	buf_reset(&b);
	dump_to(&b, n);
	buf_putc(&b, '\0');
	return b.p;
}

static const char *dump_of(const char *text)
{
	struct ynode *r = parse(text);
	if (!r)
		return diags();
	return dump(r);
}

/* pos: "line:col" of a node (static buffer). */
static const char *pos(const struct ynode *n)
{
	static char s[32];
	if (!n)
		return "(null)";
	snprintf(s, sizeof s, "%d:%d", n->line, n->col);
	return s;
}

#endif
