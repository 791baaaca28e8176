/* symbol.c: a definition found by name in a file of code (symbol.h): the
 * file parsed with the grammar the highlighter has (hl_grammar), its tree
 * walked once for the node types each language defines things with, each
 * given its full name (the scopes around it, joined by '.'). */
#include "md/symbol.h"

#include "base/diag.h"
#include "md/highlight.h"

#include <stdint.h>
#include <string.h>

#include <tree_sitter/api.h>

/* A file takes the parser at most this long (1 MiB of C takes 0.7 s). */
#define SYMBOL_PARSE_US (4 * 1000 * 1000)
/* Definitions nested deeper than this are not looked at: a pathological
 * file nests 100,000 parentheses, real code a few dozen scopes. */
#define SYMBOL_MAX_DEPTH 256

/* How a node type defines a name. */
enum {
	S_NAME = 1,     /* its "name" field */
	S_SCOPE = 2,    /* the definitions inside it are its members */
	S_DECL = 4,     /* C's declarator chain (a function definition, a typedef) */
	S_BODY = 8,     /* only with a "body" field (struct x { ... }, not struct x *p) */
	S_IMPL = 16,    /* Rust's impl: a scope named by its "type", no definition itself */
	S_RECV = 32,    /* Go's method: named Receiver.name */
	S_VARFN = 64,   /* JavaScript's const f = () => ...: a "value" that is a function */
};

struct def {
	const char *type;
	int how;
};

#define C_DEFS                                                                                     \
	{"function_definition", S_DECL}, {"struct_specifier", S_NAME | S_SCOPE | S_BODY},          \
	    {"union_specifier", S_NAME | S_SCOPE | S_BODY}, {"enum_specifier", S_NAME | S_BODY},   \
	    {"type_definition", S_DECL}, {"preproc_def", S_NAME}, {"preproc_function_def", S_NAME}
#define CPP_DEFS                                                                                   \
	C_DEFS, {"class_specifier", S_NAME | S_SCOPE | S_BODY}, {"namespace_definition", S_NAME | S_SCOPE}
#define JS_DEFS                                                                                    \
	{"function_declaration", S_NAME}, {"generator_function_declaration", S_NAME},              \
	    {"class_declaration", S_NAME | S_SCOPE}, {"method_definition", S_NAME},                \
	    {"variable_declarator", S_VARFN}
#define TS_DEFS                                                                                    \
	JS_DEFS, {"abstract_class_declaration", S_NAME | S_SCOPE}, {"interface_declaration", S_NAME}, \
	    {"type_alias_declaration", S_NAME}, {"enum_declaration", S_NAME}

static const struct def c_defs[] = {C_DEFS, {NULL, 0}};
static const struct def cpp_defs[] = {CPP_DEFS, {NULL, 0}};
static const struct def python_defs[] = {
    {"function_definition", S_NAME | S_SCOPE}, {"class_definition", S_NAME | S_SCOPE}, {NULL, 0}};
static const struct def rust_defs[] = {
    {"function_item", S_NAME},           {"function_signature_item", S_NAME}, {"struct_item", S_NAME},
    {"enum_item", S_NAME},               {"union_item", S_NAME},              {"trait_item", S_NAME | S_SCOPE},
    {"impl_item", S_IMPL | S_SCOPE},     {"mod_item", S_NAME | S_SCOPE},      {"type_item", S_NAME},
    {"const_item", S_NAME},              {"static_item", S_NAME},             {"macro_definition", S_NAME},
    {NULL, 0}};
static const struct def go_defs[] = {
    {"function_declaration", S_NAME}, {"method_declaration", S_RECV}, {"type_spec", S_NAME}, {NULL, 0}};
static const struct def js_defs[] = {JS_DEFS, {NULL, 0}};
static const struct def ts_defs[] = {TS_DEFS, {NULL, 0}};
static const struct def java_defs[] = {
    {"class_declaration", S_NAME | S_SCOPE},     {"interface_declaration", S_NAME | S_SCOPE},
    {"enum_declaration", S_NAME | S_SCOPE},      {"record_declaration", S_NAME | S_SCOPE},
    {"annotation_type_declaration", S_NAME | S_SCOPE}, {"method_declaration", S_NAME},
    {"constructor_declaration", S_NAME},         {NULL, 0}};

static const struct {
	const char *lang;
	const struct def *defs;
} langs[] = {
    {"c", c_defs},       {"cpp", cpp_defs},   {"cuda", cpp_defs},       {"python", python_defs},
    {"rust", rust_defs}, {"go", go_defs},     {"javascript", js_defs},  {"typescript", ts_defs},
    {"tsx", ts_defs},    {"java", java_defs},
};

static const struct def *defs_of(const char *lang)
{
	for (size_t i = 0; lang && i < sizeof langs / sizeof langs[0]; i++)
		if (!strcmp(langs[i].lang, lang))
			return langs[i].defs;
	return NULL;
}

int symbol_lang(const char *lang)
{
	return defs_of(lang) != NULL;
}

/* The walk: the file, what is looked for, the scopes open (their names
 * in scope, each one's length before it in at[]), and what was found. */
struct walk {
	const char *src;
	const struct def *defs;
	struct buf want; /* name, normalised */
	struct buf scope;
	size_t at[SYMBOL_MAX_DEPTH + 1];
	int depth;
	int found;
	TSNode hit;
	struct buf names; /* every full name, NUL-separated, for near */
	size_t nnames;
};

/* put_name: text[0..n), a name as written, appended to b normalised: no
 * spaces, no template arguments (<...>), "::" as '.'. */
static void put_name(struct buf *b, const char *text, size_t n)
{
	int angle = 0;
	for (size_t i = 0; i < n; i++) {
		char c = text[i];
		if (c == '<')
			angle++;
		else if (c == '>' && angle)
			angle--;
		else if (angle || c == ' ' || c == '\t' || c == '\n' || c == '\r')
			continue;
		else if (c == ':' && i + 1 < n && text[i + 1] == ':') {
			if (b->len) /* ::f, the global namespace's */
				buf_putc(b, '.');
			i++;
		} else
			buf_putc(b, c);
	}
}

static void put_node(struct walk *w, struct buf *b, TSNode n)
{
	uint32_t s = ts_node_start_byte(n), e = ts_node_end_byte(n);
	put_name(b, w->src + s, e - s);
}

/* decl_name: the name a C declarator chain ends in (a function's, a
 * typedef's), or a null node. */
static TSNode decl_name(TSNode n)
{
	for (int k = 0; k < 32 && !ts_node_is_null(n); k++) {
		const char *t = ts_node_type(n);
		if (!strcmp(t, "identifier") || !strcmp(t, "field_identifier") || !strcmp(t, "type_identifier") ||
		    !strcmp(t, "qualified_identifier") || !strcmp(t, "destructor_name") ||
		    !strcmp(t, "operator_name") || !strcmp(t, "template_function") ||
		    !strcmp(t, "primitive_type"))
			return n;
		TSNode d = ts_node_child_by_field_name(n, "declarator", 10);
		n = ts_node_is_null(d) ? ts_node_named_child(n, 0) : d;
	}
	return (TSNode){0};
}

/* own_name: the name node n (of kind how) defines appended to b; 0 if it
 * defines none. */
static int own_name(struct walk *w, TSNode n, int how, struct buf *b)
{
	if ((how & S_BODY) && ts_node_is_null(ts_node_child_by_field_name(n, "body", 4)))
		return 0;
	TSNode name = {0};
	if (how & S_DECL) {
		name = decl_name(ts_node_child_by_field_name(n, "declarator", 10));
	} else if (how & S_IMPL) {
		name = ts_node_child_by_field_name(n, "type", 4);
	} else if (how & S_VARFN) {
		TSNode v = ts_node_child_by_field_name(n, "value", 5);
		const char *t = ts_node_is_null(v) ? "" : ts_node_type(v);
		if (strcmp(t, "arrow_function") && strcmp(t, "function_expression") && strcmp(t, "function") &&
		    strcmp(t, "generator_function"))
			return 0;
		name = ts_node_child_by_field_name(n, "name", 4);
	} else {
		name = ts_node_child_by_field_name(n, "name", 4);
	}
	if (ts_node_is_null(name))
		return 0;
	if (how & S_RECV) { /* func (p *Point) Dist(): Point.Dist */
		TSNode r = ts_node_named_child(ts_node_child_by_field_name(n, "receiver", 8), 0);
		TSNode t = ts_node_is_null(r) ? r : ts_node_child_by_field_name(r, "type", 4);
		while (!ts_node_is_null(t) && strcmp(ts_node_type(t), "type_identifier") &&
		       ts_node_named_child_count(t))
			t = ts_node_named_child(t, 0); /* *Point, Point[T] */
		if (!ts_node_is_null(t)) {
			put_node(w, b, t);
			buf_putc(b, '.');
		}
	}
	put_node(w, b, name);
	return b->len > 0;
}

/* matches: full (a full name) is want, or ends in '.' + want. */
static int matches(const struct walk *w, const char *full, size_t n)
{
	size_t k = w->want.len;
	if (!k) /* a name of nothing ("<>"): matches nothing */
		return 0;
	return n >= k && !memcmp(full + n - k, w->want.p, k) && (n == k || full[n - k - 1] == '.');
}

/* visit: node n, which defines nothing or a name (how): the name noted,
 * looked at; its scope opened (returns 1: the caller closes it). */
static int visit(struct walk *w, TSNode n)
{
	const char *t = ts_node_type(n);
	int how = 0;
	for (const struct def *d = w->defs; d->type; d++)
		if (!strcmp(d->type, t)) {
			how = d->how;
			break;
		}
	if (!how)
		return 0;
	size_t mark = w->scope.len;
	if (mark)
		buf_putc(&w->scope, '.');
	struct buf own;
	buf_init(&own);
	if (!own_name(w, n, how, &own)) {
		buf_fini(&own);
		w->scope.len = mark;
		return 0;
	}
	/* a C++ method defined outside its class (Matrix::mul) names its own scope */
	buf_append(&w->scope, own.p, own.len);
	buf_fini(&own);
	const char *full = w->scope.p;
	size_t len = w->scope.len;
	if (!(how & S_IMPL)) {
		if (!w->found && matches(w, full, len)) {
			w->found = 1;
			w->hit = n;
		}
		buf_append(&w->names, full, len);
		buf_putc(&w->names, 0);
		w->nnames++;
	}
	if (how & (S_SCOPE | S_IMPL))
		return 1;
	w->scope.len = mark;
	return 0;
}

static void walk_tree(struct walk *w, TSTreeCursor *cur)
{
	TSNode n = ts_tree_cursor_current_node(cur);
	if (!ts_node_is_named(n))
		return;
	size_t mark = w->scope.len;
	int opened = visit(w, n);
	if (opened) {
		w->at[w->depth++] = mark;
		if (w->depth >= SYMBOL_MAX_DEPTH)
			goto done;
	} else if (w->depth >= SYMBOL_MAX_DEPTH) {
		return;
	}
	if (ts_tree_cursor_goto_first_child(cur)) {
		do
			walk_tree(w, cur);
		while (!w->found && ts_tree_cursor_goto_next_sibling(cur));
		ts_tree_cursor_goto_parent(cur);
	}
done:
	if (opened)
		w->scope.len = w->at[--w->depth];
}

/* wraps: whether parent holds only n's definition and its trimmings
 * (template<...>, decorators, export, const f = ..., type X ...), so that
 * the lines are the parent's. */
static int wraps(TSNode parent)
{
	const char *t = ts_node_type(parent);
	if (!strcmp(t, "template_declaration") || !strcmp(t, "decorated_definition") ||
	    !strcmp(t, "export_statement"))
		return 1;
	if (!strcmp(t, "lexical_declaration") || !strcmp(t, "variable_declaration") ||
	    !strcmp(t, "type_declaration"))
		return ts_node_named_child_count(parent) == 1;
	return 0;
}

/* span_of: the lines of n's definition, with its wrappers and the comments
 * and attributes right above it. */
static struct symbol_span span_of(TSNode n)
{
	for (int k = 0; k < 8; k++) {
		TSNode p = ts_node_parent(n);
		if (ts_node_is_null(p) || !wraps(p))
			break;
		n = p;
	}
	TSPoint s = ts_node_start_point(n), e = ts_node_end_point(n);
	struct symbol_span sp = {s.row + 1, e.column == 0 && e.row > s.row ? e.row : e.row + 1};
	for (TSNode p = ts_node_prev_named_sibling(n); !ts_node_is_null(p); p = ts_node_prev_named_sibling(p)) {
		const char *t = ts_node_type(p);
		if (!strstr(t, "comment") && strcmp(t, "attribute_item"))
			break;
		TSPoint pe = ts_node_end_point(p), ps = ts_node_start_point(p);
		size_t end_line = pe.column == 0 && pe.row > ps.row ? pe.row : pe.row + 1;
		if (end_line + 1 < sp.lo) /* a blank line between */
			break;
		TSNode before = ts_node_prev_sibling(p);
		if (!ts_node_is_null(before)) {
			TSPoint be = ts_node_end_point(before); /* a line comment may end past its newline */
			if ((be.column == 0 && be.row > 0 ? be.row - 1 : be.row) == ps.row)
				break; /* the comment at the end of a line of code */
		}
		sp.lo = ps.row + 1;
	}
	return sp;
}

/* tail: the end of the full name p with parts names ("a.b.c", 2: "b.c"),
 * or p itself. */
static const char *tail(const char *p, int parts)
{
	const char *t = p + strlen(p);
	while (t > p && (t[-1] != '.' || --parts > 0))
		t--;
	return t;
}

/* suggest: the full name closest to the one wanted (or whose end, with as
 * many parts as it has, is), else the file's first five names, appended
 * to near; 1 for a close name, else 0. */
static int suggest(const struct walk *w, struct buf *near)
{
	struct diag_guess g;
	diag_guess_init(&g, w->want.p ? w->want.p : "", w->want.len);
	int parts = 1;
	for (size_t i = 0; i < w->want.len; i++)
		parts += w->want.p[i] == '.';
	const char *p = w->names.p;
	for (size_t i = 0; i < w->nnames; i++, p += strlen(p) + 1) {
		diag_guess_try(&g, p, strlen(p));
		const char *t = tail(p, parts);
		if (t != p)
			diag_guess_try(&g, t, strlen(t));
	}
	size_t n;
	const char *best = diag_guess_best(&g, &n);
	if (best) {
		if (best > w->names.p && best[-1] != 0) { /* an end: its full name */
			while (best > w->names.p && best[-1] != 0)
				best--;
			n = strlen(best);
		}
		buf_append(near, best, n);
		return 1;
	}
	p = w->names.p;
	for (size_t i = 0; i < w->nnames && i < 5; i++, p += strlen(p) + 1)
		buf_printf(near, "%s%s", i ? ", " : "", p);
	return 0;
}

int symbol_find(const char *lang, const char *src, size_t src_len, const char *name, size_t len,
		struct symbol_span *out, struct buf *near, int *guess)
{
	*guess = 0;
	const struct def *defs = defs_of(lang);
	const TSLanguage *tsl = defs ? hl_grammar(lang, strlen(lang)) : NULL;
	if (!tsl || src_len > UINT32_MAX / 2)
		return -1;
	TSParser *parser = ts_parser_new();
	if (!ts_parser_set_language(parser, tsl)) {
		ts_parser_delete(parser);
		return -1;
	}
	ts_parser_set_timeout_micros(parser, SYMBOL_PARSE_US);
	TSTree *tree = ts_parser_parse_string(parser, NULL, src, (uint32_t)src_len);
	ts_parser_delete(parser);
	if (!tree)
		return -1;
	struct walk w;
	memset(&w, 0, sizeof w);
	w.src = src;
	w.defs = defs;
	buf_init(&w.want);
	buf_init(&w.scope);
	buf_init(&w.names);
	put_name(&w.want, name, len);
	TSTreeCursor cur = ts_tree_cursor_new(ts_tree_root_node(tree));
	walk_tree(&w, &cur);
	ts_tree_cursor_delete(&cur);
	if (w.found) {
		*out = span_of(w.hit);
	} else {
		*guess = suggest(&w, near);
	}
	int found = w.found;
	ts_tree_delete(tree);
	buf_fini(&w.want);
	buf_fini(&w.scope);
	buf_fini(&w.names);
	return found;
}
