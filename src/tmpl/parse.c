/* parse.c: tokens -> the template tree, and the template set (adding,
 * linking, checking). The parser recovers after an error by skipping to the
 * end of the tag, so one pass reports every error of a template. */
#include "internal.h"

#include "base/slug.h"
#include "base/hash.h"

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct parser {
	struct arena *a;
	struct tmpl_env *env;
	struct tmpl *t;
	struct diag *d;
	struct token *toks;
	size_t n, pos;
	int errors;
	/* open block statements, innermost last, for unmatched end tags */
	const char *open_kw[256];
	int open_line[256], open_col[256];
	int nopen;
	int in_block_or_macro; /* depth of block/macro/if/for: extends must be top level */
	int nest;              /* recursion of parse_expr, parse_unary and parse_not */
};

void tmpl_vreport(struct diag *d, const struct tmpl *t, int line, int col, const struct diag_note *notes, size_t nn,
		  const char *fmt, va_list ap)
{
	struct diag_loc loc = {t->path, t->src, t->len, line, col};
	diag_vreport(d, DIAG_ERROR, &loc, notes, nn, fmt, ap);
}

static void perr(struct parser *p, int line, int col, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void perr(struct parser *p, int line, int col, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	tmpl_vreport(p->d, p->t, line, col, NULL, 0, fmt, ap);
	va_end(ap);
	p->errors++;
	p->t->has_errors = 1;
}

static struct token *peek(struct parser *p)
{
	return &p->toks[p->pos];
}

static struct token *peek2(struct parser *p)
{
	return &p->toks[p->pos + 1 < p->n ? p->pos + 1 : p->pos];
}

static struct token *next(struct parser *p)
{
	struct token *t = &p->toks[p->pos];
	if (t->kind != TK_EOF)
		p->pos++;
	return t;
}

static int is_op(struct token *t, enum op op)
{
	return t->kind == TK_OP && t->op == op;
}

static int is_name(struct token *t, const char *name)
{
	return t->kind == TK_NAME && str_eq_cstr(t->s, name);
}

static const char *tok_desc(struct token *t, char *buf, size_t n)
{
	switch (t->kind) {
	case TK_EOF: return "end of template";
	case TK_TEXT: return "text";
	case TK_VAR_BEGIN: return "'{{'";
	case TK_VAR_END: return "'}}'";
	case TK_STMT_BEGIN: return "'{%'";
	case TK_STMT_END: return "'%}'";
	case TK_STRING: return "a string";
	case TK_INT:
	case TK_FLOAT: return "a number";
	case TK_NAME: snprintf(buf, n, "'%.*s'", STR_FMT(t->s)); return buf;
	default: break;
	}
	static const char *const spell[] = {
		"", "+", "-", "*", "/", "//", "%", "**", "~", "==", "!=", "<", "<=", ">", ">=", "in",
		"not in", "=", ".", ",", ":", "|", "(", ")", "[", "]", "{", "}", "not", "-", "+"};
	snprintf(buf, n, "'%s'", spell[t->op]);
	return buf;
}

static void unexpected(struct parser *p, const char *wanted)
{
	char b[64];
	struct token *t = peek(p);
	perr(p, t->line, t->col, "expected %s, found %s", wanted, tok_desc(t, b, sizeof b));
}

/* skip_tag: after an error, moves past the end of the current tag. */
static void skip_tag(struct parser *p)
{
	while (peek(p)->kind != TK_EOF && peek(p)->kind != TK_STMT_END && peek(p)->kind != TK_VAR_END &&
	       peek(p)->kind != TK_TEXT && peek(p)->kind != TK_STMT_BEGIN && peek(p)->kind != TK_VAR_BEGIN)
		next(p);
	if (peek(p)->kind == TK_STMT_END || peek(p)->kind == TK_VAR_END)
		next(p);
}

static int expect_end(struct parser *p, enum tok_kind end)
{
	if (peek(p)->kind == end) {
		next(p);
		return 0;
	}
	unexpected(p, end == TK_STMT_END ? "'%}'" : "'}}'");
	skip_tag(p);
	return -1;
}

static struct expr *new_expr(struct parser *p, enum expr_kind kind, struct token *at)
{
	struct expr *e = arena_alloc(p->a, sizeof *e);
	e->kind = kind;
	e->line = at->line;
	e->col = at->col;
	e->depth = 1;
	return e;
}

static void too_deep(struct parser *p, int line, int col)
{
	perr(p, line, col, "expression nested too deeply (at most %d levels)", TMPL_MAX_EXPR_DEPTH);
}

/* grow: sets the depth of e, whose children are complete; NULL (after an
 * error) when it passes TMPL_MAX_EXPR_DEPTH. Chains such as a ~ b ~ c ...
 * are built by loops, not recursion, so their depth is checked here. */
static struct expr *grow(struct parser *p, struct expr *e)
{
	int d = 0;
	const struct expr *kids[3] = {e->a, e->b, e->c};
	for (int i = 0; i < 3; i++)
		if (kids[i] && kids[i]->depth > d)
			d = kids[i]->depth;
	for (size_t i = 0; i < e->nargs; i++)
		if (e->args[i] && e->args[i]->depth > d)
			d = e->args[i]->depth;
	e->depth = d + 1;
	if (e->depth > TMPL_MAX_EXPR_DEPTH) {
		too_deep(p, e->line, e->col);
		return NULL;
	}
	return e;
}

/* enter/leave: bound the parser's own recursion, for the same reason. */
static int enter(struct parser *p)
{
	if (p->nest >= TMPL_MAX_EXPR_DEPTH) {
		too_deep(p, peek(p)->line, peek(p)->col);
		return -1;
	}
	p->nest++;
	return 0;
}

static void leave(struct parser *p)
{
	p->nest--;
}

static struct expr *parse_expr(struct parser *p);
static struct expr *parse_or(struct parser *p);

/* args: '(' [name '='] expr, ... ')' ; the '(' is the current token. */
static int parse_args(struct parser *p, struct expr *e)
{
	struct expr *argv[64];
	struct str kw[64];
	size_t n = 0;
	next(p); /* ( */
	while (!is_op(peek(p), OP_RPAREN)) {
		if (n == 64) {
			perr(p, peek(p)->line, peek(p)->col, "too many arguments (at most 64)");
			return -1;
		}
		kw[n].p = NULL;
		kw[n].len = 0;
		if (peek(p)->kind == TK_NAME && is_op(peek2(p), OP_ASSIGN)) {
			kw[n] = next(p)->s;
			next(p);
		} else if (n > 0 && kw[n - 1].len) {
			perr(p, peek(p)->line, peek(p)->col, "positional argument after a keyword argument");
			return -1;
		}
		struct expr *a = parse_expr(p);
		if (!a)
			return -1;
		argv[n++] = a;
		if (is_op(peek(p), OP_COMMA)) {
			next(p);
			continue;
		}
		if (!is_op(peek(p), OP_RPAREN)) {
			unexpected(p, "',' or ')'");
			return -1;
		}
	}
	next(p); /* ) */
	e->nargs = n;
	e->args = arena_alloc(p->a, (n ? n : 1) * sizeof *e->args);
	e->kwnames = arena_alloc(p->a, (n ? n : 1) * sizeof *e->kwnames);
	memcpy(e->args, argv, n * sizeof *argv);
	memcpy(e->kwnames, kw, n * sizeof *kw);
	return 0;
}

/* bind_filter_args: reorders e's arguments into the filter's parameter
 * order, checking counts and keywords. */
static int bind_filter_args(struct parser *p, struct expr *e, const struct filter_def *f)
{
	struct expr **bound = arena_alloc(p->a, (size_t)(f->nparams ? f->nparams : 1) * sizeof *bound);
	size_t npos = 0;
	for (size_t i = 0; i < e->nargs; i++) {
		if (!e->kwnames[i].len) {
			if ((int)npos >= f->nparams) {
				if (f->nparams == 0)
					perr(p, e->line, e->col, "filter '%s' takes no arguments (%zu given)", f->name, e->nargs);
				else
					perr(p, e->line, e->col, "filter '%s' takes at most %d argument%s (%zu given)",
					     f->name, f->nparams, f->nparams == 1 ? "" : "s", e->nargs);
				return -1;
			}
			bound[npos++] = e->args[i];
			continue;
		}
		int k;
		for (k = 0; k < f->nparams; k++)
			if (str_eq_cstr(e->kwnames[i], f->params[k]))
				break;
		if (k == f->nparams) {
			const char *cand[FILTER_MAX_PARAMS + 1];
			for (int j = 0; j < f->nparams; j++)
				cand[j] = f->params[j];
			cand[f->nparams] = NULL;
			const char *s = diag_suggest(e->kwnames[i].p, e->kwnames[i].len, cand);
			int line, col;
			tmpl_src_pos(p->t, e->kwnames[i].p, &line, &col);
			perr(p, line, col, "filter '%s' has no parameter '%.*s'%s%s%s",
			     f->name, STR_FMT(e->kwnames[i]), s ? " (did you mean '" : "", s ? s : "", s ? "'?)" : "");
			return -1;
		}
		if (bound[k]) {
			int line, col;
			tmpl_src_pos(p->t, e->kwnames[i].p, &line, &col);
			perr(p, line, col, "filter '%s' got argument '%s' twice", f->name,
			     f->params[k]);
			return -1;
		}
		bound[k] = e->args[i];
	}
	for (int k = 0; k < f->nrequired; k++) {
		if (!bound[k]) {
			perr(p, e->line, e->col, "filter '%s' requires argument '%s'", f->name, f->params[k]);
			return -1;
		}
	}
	e->args = bound;
	e->nargs = (size_t)f->nparams;
	e->kwnames = NULL;
	return 0;
}

/* other_engines_filter: folio's filter for the name another engine
 * (Liquid, Jinja, Hugo) gives it, which its spelling alone would not
 * suggest; NULL if none. */
static const char *other_engines_filter(struct str name)
{
	static const char *const names[][2] = {
		{"upcase", "upper"},           {"downcase", "lower"},         {"strip", "trim"},
		{"strip_html", "striptags"},   {"plainify", "striptags"},     {"size", "length"},
		{"len", "length"},             {"jsonify", "json"},           {"tojson", "json"},
		{"url_encode", "urlencode"},   {"urlquery", "urlencode"},     {"relative_url", "rel_url"},
		{"relURL", "rel_url"},         {"absolute_url", "abs_url"},   {"absURL", "abs_url"},
		{"number_of_words", "wordcount"}, {"uniq", "unique"},         {"escape_once", "escape"},
		{"xml_escape", "escape"},      {"htmlEscape", "escape"},      {"safeHTML", "safe"},
		{"date_to_xml_schema", "date"}, {"date_to_string", "date"},   {"truncatewords", "truncate"},
		{"sort_natural", "sort"},      {"where_exp", "where"},
	};
	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		if (strlen(names[i][0]) == name.len && !memcmp(names[i][0], name.p, name.len))
			return names[i][1];
	return NULL;
}

static struct expr *parse_filter(struct parser *p, struct expr *in)
{
	next(p); /* | */
	if (peek(p)->kind != TK_NAME) {
		unexpected(p, "a filter name after '|'");
		return NULL;
	}
	struct token *nt = next(p);
	struct expr *e = new_expr(p, E_FILTER, nt);
	e->a = in;
	e->name = nt->s;
	e->filter = tmpl_env_filter(p->env, nt->s);
	if (is_op(peek(p), OP_LPAREN) && parse_args(p, e))
		return NULL;
	if (!e->filter) {
		const char *cand[128];
		size_t k = 0;
		for (size_t i = 0; i < p->env->nfilters && k < 127; i++)
			cand[k++] = p->env->filters[i].name;
		cand[k] = NULL;
		const char *s = other_engines_filter(nt->s);
		if (!s || !tmpl_env_filter(p->env, (struct str){s, strlen(s)}))
			s = diag_suggest(nt->s.p, nt->s.len, cand);
		perr(p, nt->line, nt->col, "unknown filter '%.*s'%s%s%s", STR_FMT(nt->s),
		     s ? " (did you mean '" : "", s ? s : "", s ? "'?)" : "");
		return NULL;
	}
	if (bind_filter_args(p, e, e->filter))
		return NULL;
	return grow(p, e);
}

static struct expr *parse_primary(struct parser *p)
{
	struct token *t = peek(p);
	struct expr *e;
	switch (t->kind) {
	case TK_NAME:
		next(p);
		if (is_name(t, "true") || is_name(t, "True") || is_name(t, "false") || is_name(t, "False")) {
			e = new_expr(p, E_LIT, t);
			e->lit = tv_bool(t->s.p[0] == 't' || t->s.p[0] == 'T');
			return e;
		}
		if (is_name(t, "none") || is_name(t, "None")) {
			e = new_expr(p, E_LIT, t);
			e->lit = tv_none();
			return e;
		}
		e = new_expr(p, E_NAME, t);
		e->name = t->s;
		e->hash = hash_bytes(e->name.p, e->name.len);
		return e;
	case TK_STRING: {
		next(p);
		e = new_expr(p, E_LIT, t);
		struct str s = t->s;
		/* adjacent literals join, as in Python: "a" "b" */
		if (peek(p)->kind == TK_STRING) {
			struct buf b;
			buf_init(&b);
			buf_put_str(&b, s);
			while (peek(p)->kind == TK_STRING)
				buf_put_str(&b, next(p)->s);
			s.len = b.len;
			s.p = arena_strndup(p->a, b.p, b.len);
			buf_fini(&b);
		}
		e->lit = tv_str(s);
		return e;
	}
	case TK_INT:
		next(p);
		e = new_expr(p, E_LIT, t);
		e->lit = tv_int(t->i);
		return e;
	case TK_FLOAT:
		next(p);
		e = new_expr(p, E_LIT, t);
		e->lit = tv_float(t->f);
		return e;
	case TK_OP:
		if (t->op == OP_LPAREN) {
			next(p);
			e = parse_expr(p);
			if (!e)
				return NULL;
			if (!is_op(peek(p), OP_RPAREN)) {
				unexpected(p, "')'");
				return NULL;
			}
			next(p);
			return e;
		}
		if (t->op == OP_LBRACKET || t->op == OP_LBRACE) {
			int is_map = t->op == OP_LBRACE;
			enum op close = is_map ? OP_RBRACE : OP_RBRACKET;
			next(p);
			e = new_expr(p, is_map ? E_MAP : E_LIST, t);
			struct expr **items = NULL;
			size_t n = 0, cap = 0;
			while (!is_op(peek(p), close)) {
				for (int k = 0; k < 1 + is_map; k++) {
					struct expr *x = parse_expr(p);
					if (!x)
						return NULL;
					if (n == cap) {
						size_t nc = cap ? cap * 2 : 8;
						items = arena_realloc(p->a, items, cap * sizeof *items, nc * sizeof *items);
						cap = nc;
					}
					items[n++] = x;
					if (is_map && k == 0) {
						if (!is_op(peek(p), OP_COLON)) {
							unexpected(p, "':' after a map key");
							return NULL;
						}
						next(p);
					}
				}
				if (is_op(peek(p), OP_COMMA)) {
					next(p);
					continue;
				}
				if (!is_op(peek(p), close)) {
					unexpected(p, is_map ? "',' or '}'" : "',' or ']'");
					return NULL;
				}
			}
			next(p);
			e->args = items;
			e->nargs = n;
			return grow(p, e);
		}
		break;
	default: break;
	}
	unexpected(p, "an expression");
	return NULL;
}

/* parse_postfix: a primary with its attributes, indexes, calls and, when
 * with_filter, its filters. */
static struct expr *parse_postfix(struct parser *p, int with_filter)
{
	struct expr *e = parse_primary(p);
	while (e) {
		struct token *t = peek(p);
		if (is_op(t, OP_DOT)) {
			next(p);
			struct token *nt = peek(p);
			if (nt->kind != TK_NAME && nt->kind != TK_INT) {
				unexpected(p, "an attribute name after '.'");
				return NULL;
			}
			next(p);
			if (nt->kind == TK_INT) { /* xs.0 is xs[0] */
				struct expr *x = new_expr(p, E_INDEX, nt);
				x->a = e;
				x->b = new_expr(p, E_LIT, nt);
				x->b->lit = tv_int(nt->i);
				e = grow(p, x);
				continue;
			}
			struct expr *x = new_expr(p, E_ATTR, nt);
			x->a = e;
			x->name = nt->s;
			x->hash = hash_bytes(x->name.p, x->name.len);
			e = grow(p, x);
		} else if (is_op(t, OP_LBRACKET)) {
			next(p);
			struct expr *x = new_expr(p, E_INDEX, t);
			x->a = e;
			x->b = parse_expr(p);
			if (!x->b)
				return NULL;
			if (!is_op(peek(p), OP_RBRACKET)) {
				unexpected(p, "']'");
				return NULL;
			}
			next(p);
			e = grow(p, x);
		} else if (is_op(t, OP_LPAREN)) {
			struct expr *x = new_expr(p, E_CALL, t);
			x->a = e;
			x->line = e->line;
			x->col = e->col;
			if (parse_args(p, x))
				return NULL;
			e = grow(p, x);
		} else if (is_op(t, OP_PIPE) && with_filter) {
			e = parse_filter(p, e);
		} else {
			break;
		}
	}
	return e;
}

/* parse_unary: as in Jinja, a sign binds tighter than the filters that
 * follow it: `-x | abs` is abs(-x), not -(abs(x)). */
static struct expr *parse_unary(struct parser *p, int with_filter)
{
	struct token *t = peek(p);
	if (!is_op(t, OP_SUB) && !is_op(t, OP_ADD))
		return parse_postfix(p, with_filter);
	next(p);
	if (enter(p))
		return NULL;
	struct expr *a = parse_unary(p, 0);
	leave(p);
	if (!a)
		return NULL;
	struct expr *e = new_expr(p, E_UNARY, t);
	e->op = t->op == OP_SUB ? OP_NEG : OP_POS;
	e->a = a;
	e = grow(p, e);
	while (e && with_filter && is_op(peek(p), OP_PIPE))
		e = parse_filter(p, e);
	return e;
}

static struct expr *binary(struct parser *p, struct token *t, enum expr_kind kind, enum op op, struct expr *a,
			   struct expr *b)
{
	struct expr *e = new_expr(p, kind, t);
	e->op = op;
	e->a = a;
	e->b = b;
	return grow(p, e);
}

static struct expr *parse_pow(struct parser *p)
{
	struct expr *e = parse_unary(p, 1);
	while (e && is_op(peek(p), OP_POW)) {
		struct token *t = next(p);
		struct expr *b = parse_unary(p, 1);
		e = b ? binary(p, t, E_BINARY, OP_POW, e, b) : NULL;
	}
	return e;
}

static struct expr *parse_mul(struct parser *p)
{
	struct expr *e = parse_pow(p);
	while (e && (is_op(peek(p), OP_MUL) || is_op(peek(p), OP_DIV) || is_op(peek(p), OP_FLOORDIV) ||
		     is_op(peek(p), OP_MOD))) {
		struct token *t = next(p);
		struct expr *b = parse_pow(p);
		e = b ? binary(p, t, E_BINARY, t->op, e, b) : NULL;
	}
	return e;
}

static struct expr *parse_add(struct parser *p)
{
	struct expr *e = parse_mul(p);
	while (e && (is_op(peek(p), OP_ADD) || is_op(peek(p), OP_SUB))) {
		struct token *t = next(p);
		struct expr *b = parse_mul(p);
		e = b ? binary(p, t, E_BINARY, t->op, e, b) : NULL;
	}
	return e;
}

static struct expr *parse_concat(struct parser *p)
{
	struct expr *e = parse_add(p);
	while (e && is_op(peek(p), OP_CONCAT)) {
		struct token *t = next(p);
		struct expr *b = parse_add(p);
		e = b ? binary(p, t, E_BINARY, OP_CONCAT, e, b) : NULL;
	}
	return e;
}

/* parse_compare: comparisons chain as in Python and Jinja: `a < b < c` is
 * `a < b and b < c` (b is evaluated twice; expressions have no side
 * effects). */
static struct expr *parse_compare(struct parser *p)
{
	struct expr *e = parse_concat(p);
	struct expr *prev = NULL; /* the last comparison of the chain */
	while (e) {
		struct token *t = peek(p);
		enum op op = OP_NONE;
		if (t->kind == TK_OP && t->op >= OP_EQ && t->op <= OP_GE)
			op = t->op;
		else if (is_name(t, "in"))
			op = OP_IN;
		else if (is_name(t, "not") && is_name(peek2(p), "in"))
			op = OP_NOT_IN;
		else if (is_name(t, "is")) {
			next(p);
			struct expr *x = new_expr(p, E_TEST, t);
			x->a = e;
			if (is_name(peek(p), "not")) {
				next(p);
				x->negate = 1;
			}
			struct token *nt = peek(p);
			if (nt->kind != TK_NAME && !is_name(nt, "none")) {
				unexpected(p, "a test name after 'is'");
				return NULL;
			}
			next(p);
			x->name = nt->s;
			int nargs;
			if (!tmpl_test_known(nt->s, &nargs)) {
				static const char *const tests[] = {"defined", "undefined", "none", "odd", "even",
					"divisibleby", "string", "number", "integer", "float", "boolean", "mapping",
					"iterable", "sequence", "true", "false", NULL};
				const char *s = diag_suggest(nt->s.p, nt->s.len, tests);
				perr(p, nt->line, nt->col, "unknown test '%.*s'%s%s%s", STR_FMT(nt->s),
				     s ? " (did you mean '" : "", s ? s : "", s ? "'?)" : "");
				return NULL;
			}
			if (is_op(peek(p), OP_LPAREN)) {
				if (parse_args(p, x))
					return NULL;
			} else if (nargs > 0 && (peek(p)->kind == TK_INT || peek(p)->kind == TK_FLOAT ||
						 peek(p)->kind == TK_STRING || peek(p)->kind == TK_NAME)) {
				/* `x is divisibleby 3` */
				struct expr *arg = parse_concat(p);
				if (!arg)
					return NULL;
				x->args = arena_alloc(p->a, sizeof *x->args);
				x->args[0] = arg;
				x->nargs = 1;
			}
			if ((int)x->nargs != nargs) {
				perr(p, nt->line, nt->col, "test '%.*s' takes %d argument%s (%zu given)", STR_FMT(nt->s),
				     nargs, nargs == 1 ? "" : "s", x->nargs);
				return NULL;
			}
			e = grow(p, x);
			prev = NULL;
			continue;
		}
		if (op == OP_NONE)
			break;
		next(p);
		if (op == OP_NOT_IN)
			next(p);
		struct expr *b = parse_concat(p);
		if (!b)
			return NULL;
		if (prev) {
			struct expr *cmp = binary(p, t, E_BINARY, op, prev->b, b);
			e = cmp ? binary(p, t, E_AND, OP_NONE, e, cmp) : NULL;
			prev = cmp;
		} else {
			e = prev = binary(p, t, E_BINARY, op, e, b);
		}
	}
	return e;
}

static struct expr *parse_not(struct parser *p)
{
	struct token *t = peek(p);
	if (is_name(t, "not")) {
		next(p);
		if (enter(p))
			return NULL;
		struct expr *a = parse_not(p);
		leave(p);
		if (!a)
			return NULL;
		struct expr *e = new_expr(p, E_UNARY, t);
		e->op = OP_NOT;
		e->a = a;
		return grow(p, e);
	}
	return parse_compare(p);
}

static struct expr *parse_and(struct parser *p)
{
	struct expr *e = parse_not(p);
	while (e && is_name(peek(p), "and")) {
		struct token *t = next(p);
		struct expr *b = parse_not(p);
		e = b ? binary(p, t, E_AND, OP_NONE, e, b) : NULL;
	}
	return e;
}

static struct expr *parse_or(struct parser *p)
{
	struct expr *e = parse_and(p);
	while (e && is_name(peek(p), "or")) {
		struct token *t = next(p);
		struct expr *b = parse_and(p);
		e = b ? binary(p, t, E_OR, OP_NONE, e, b) : NULL;
	}
	return e;
}

static struct expr *parse_cond(struct parser *p)
{
	struct expr *e = parse_or(p);
	if (e && is_name(peek(p), "if")) {
		struct token *t = next(p);
		struct expr *x = new_expr(p, E_COND, t);
		x->a = e;
		x->b = parse_or(p);
		if (!x->b)
			return NULL;
		if (is_name(peek(p), "else")) {
			next(p);
			x->c = parse_expr(p);
			if (!x->c)
				return NULL;
		}
		return grow(p, x);
	}
	return e;
}

/* parse_expr: a whole expression (an inline if at the loosest level). */
static struct expr *parse_expr(struct parser *p)
{
	if (enter(p))
		return NULL;
	struct expr *e = parse_cond(p);
	leave(p);
	return e;
}

/* ---- statements ---- */

static struct node *new_node(struct parser *p, enum node_kind kind, struct token *at)
{
	struct node *n = arena_alloc(p->a, sizeof *n);
	n->kind = kind;
	n->line = at->line;
	n->col = at->col;
	return n;
}

static void body_push(struct parser *p, struct body *b, struct node *n)
{
	/* capacity is 4, then the next power of two: grow when n reaches one */
	if (b->n == 0)
		b->v = arena_alloc(p->a, 4 * sizeof *b->v);
	else if (b->n >= 4 && (b->n & (b->n - 1)) == 0)
		b->v = arena_realloc(p->a, b->v, b->n * sizeof *b->v, 2 * b->n * sizeof *b->v);
	b->v[b->n++] = n;
}

static const char *const end_words[] = {"endif", "elif", "else", "endfor", "endblock", "endmacro", "endset",
	"endraw", NULL};

static int is_end_word(struct str s)
{
	for (int i = 0; end_words[i]; i++)
		if (str_eq_cstr(s, end_words[i]))
			return 1;
	return 0;
}

/* Which end words may close the block keyword kw. */
static int closes(const char *kw, struct str word)
{
	if (!strcmp(kw, "if"))
		return str_eq_cstr(word, "endif") || str_eq_cstr(word, "elif") || str_eq_cstr(word, "else");
	if (!strcmp(kw, "for"))
		return str_eq_cstr(word, "endfor") || str_eq_cstr(word, "else");
	char want[32];
	snprintf(want, sizeof want, "end%s", kw);
	return str_eq_cstr(word, want);
}

static const char *end_of(const char *kw)
{
	if (!strcmp(kw, "if"))
		return "endif";
	if (!strcmp(kw, "for"))
		return "endfor";
	if (!strcmp(kw, "block"))
		return "endblock";
	if (!strcmp(kw, "macro"))
		return "endmacro";
	return "endset";
}

static struct node *parse_stmt(struct parser *p, struct token *begin);

/* end_follows: whether a tag `{% end<kw> %}` comes later in the template
 * (looked for in a bounded window, so an error costs no more than that). */
static int end_follows(struct parser *p, const char *kw)
{
	const char *want = end_of(kw);
	for (size_t i = p->pos + 2, k = 0; i + 1 < p->n && k < 100000; i++, k++)
		if (p->toks[i].kind == TK_STMT_BEGIN && is_name(&p->toks[i + 1], want))
			return 1;
	return 0;
}

/* parse_body: statements until a tag whose keyword closes `kw` (NULL: the
 * top level, until the end). Returns the terminating keyword token (its
 * '{%' consumed, the keyword not), or NULL at the end of the template or
 * when an outer block's end word was found (left unconsumed). */
static struct token *parse_body(struct parser *p, struct body *out, const char *kw, int line, int col)
{
	if (kw) {
		if (p->nopen == 256) {
			perr(p, line, col, "blocks nested deeper than 256 levels");
			return NULL;
		}
		p->open_kw[p->nopen] = kw;
		p->open_line[p->nopen] = line;
		p->open_col[p->nopen] = col;
		p->nopen++;
	}
	struct token *result = NULL;
	for (;;) {
		struct token *t = peek(p);
		if (t->kind == TK_EOF) {
			if (kw)
				perr(p, line, col, "'%s' is never closed (expected '%s')", kw, end_of(kw));
			break;
		}
		if (t->kind == TK_TEXT) {
			next(p);
			struct node *n = new_node(p, N_TEXT, t);
			n->text = t->s;
			body_push(p, out, n);
			continue;
		}
		if (t->kind == TK_VAR_BEGIN) {
			next(p);
			struct expr *e = parse_expr(p);
			if (!e) {
				skip_tag(p);
				continue;
			}
			if (expect_end(p, TK_VAR_END))
				continue;
			struct node *n = new_node(p, N_OUTPUT, t);
			n->e = e;
			body_push(p, out, n);
			continue;
		}
		if (t->kind != TK_STMT_BEGIN) {
			char b[64];
			perr(p, t->line, t->col, "unexpected %s outside a tag", tok_desc(t, b, sizeof b));
			next(p);
			continue;
		}
		struct token *w = peek2(p);
		if (w->kind == TK_NAME && is_end_word(w->s)) {
			if (kw && closes(kw, w->s)) {
				next(p);
				result = w;
				break;
			}
			/* an end word for an outer block: this one was never closed */
			int outer = -1;
			for (int i = p->nopen - 2; i >= 0; i--)
				if (closes(p->open_kw[i], w->s)) {
					outer = i;
					break;
				}
			if (kw && outer >= 0) {
				perr(p, line, col, "'%s' is never closed (expected '%s' before '%.*s' on line %d)", kw,
				     end_of(kw), STR_FMT(w->s), w->line);
				break;
			}
			if (str_eq_cstr(w->s, "else") || str_eq_cstr(w->s, "elif"))
				perr(p, w->line, w->col, "'%.*s' outside of 'if'%s", STR_FMT(w->s),
				     str_eq_cstr(w->s, "else") ? " or 'for'" : "");
			else if (kw && str_starts_with(w->s, "end")) {
				perr(p, w->line, w->col, "'%.*s' does not close '%s' (opened on line %d; expected '%s')",
				     STR_FMT(w->s), kw, line, end_of(kw));
				/* no right end word later: this one was meant to close the
				 * block, so take it as such, and one slip is one error */
				if (!end_follows(p, kw)) {
					next(p);
					result = w;
					break;
				}
			} else
				perr(p, w->line, w->col, "'%.*s' without an open '%.*s'", STR_FMT(w->s),
				     (int)w->s.len - 3, w->s.p + 3);
			next(p);
			skip_tag(p);
			continue;
		}
		next(p);
		/* a statement's position is its keyword's, as its errors point there */
		struct node *n = parse_stmt(p, peek(p));
		if (n)
			body_push(p, out, n);
	}
	if (kw)
		p->nopen--;
	return result;
}

static int expect_name(struct parser *p, struct str *out, const char *what)
{
	if (peek(p)->kind != TK_NAME) {
		unexpected(p, what);
		return -1;
	}
	*out = next(p)->s;
	return 0;
}

/* end_tag: after the end keyword: an optional name (endblock x) and '%}'. */
static void end_tag(struct parser *p, struct token *kwtok, struct str name)
{
	next(p); /* the keyword */
	if (peek(p)->kind == TK_NAME && name.len) {
		struct token *nt = next(p);
		if (!str_eq(nt->s, name))
			perr(p, nt->line, nt->col, "'%.*s %.*s' closes '%.*s'", STR_FMT(kwtok->s), STR_FMT(nt->s),
			     STR_FMT(name));
	}
	expect_end(p, TK_STMT_END);
}

static struct node *parse_if(struct parser *p, struct token *begin)
{
	struct node *n = new_node(p, N_IF, begin);
	struct expr *conds[256];
	struct body bodies[256];
	size_t k = 0;
	int bad = 0;
	struct token *kwt = peek(p);
	next(p); /* if */
	for (;;) {
		struct expr *c = parse_expr(p);
		if (!c) {
			bad = 1;
			skip_tag(p);
		} else if (expect_end(p, TK_STMT_END)) {
			bad = 1;
		}
		if (k == 256) {
			perr(p, kwt->line, kwt->col, "too many 'elif' branches (at most 255)");
			return NULL;
		}
		conds[k] = c;
		memset(&bodies[k], 0, sizeof bodies[k]);
		struct token *end = parse_body(p, &bodies[k], "if", begin->line, begin->col);
		k++;
		if (!end)
			return NULL;
		if (str_eq_cstr(end->s, "elif")) {
			next(p);
			continue;
		}
		if (str_eq_cstr(end->s, "else")) {
			next(p);
			expect_end(p, TK_STMT_END);
			end = parse_body(p, &n->else_body, "if", begin->line, begin->col);
			if (!end)
				return NULL;
			if (!str_eq_cstr(end->s, "endif")) {
				perr(p, end->line, end->col, "'%.*s' after 'else' (expected 'endif')", STR_FMT(end->s));
				next(p);
				skip_tag(p);
				/* the rest up to endif is dropped */
				struct body junk = {0};
				while ((end = parse_body(p, &junk, "if", begin->line, begin->col)) &&
				       !str_eq_cstr(end->s, "endif")) {
					next(p);
					skip_tag(p);
				}
				if (!end)
					return NULL;
			}
		}
		end_tag(p, end, (struct str){NULL, 0});
		break;
	}
	if (bad)
		return NULL;
	n->nconds = k;
	n->conds = arena_alloc(p->a, k * sizeof *n->conds);
	n->bodies = arena_alloc(p->a, k * sizeof *n->bodies);
	memcpy(n->conds, conds, k * sizeof *conds);
	memcpy(n->bodies, bodies, k * sizeof *bodies);
	return n;
}

static struct node *parse_for(struct parser *p, struct token *begin)
{
	struct node *n = new_node(p, N_FOR, begin);
	int bad = 0;
	next(p); /* for */
	if (expect_name(p, &n->targets[0], "a loop variable name")) {
		bad = 1;
	} else {
		n->ntargets = 1;
		if (is_op(peek(p), OP_COMMA)) {
			next(p);
			if (expect_name(p, &n->targets[1], "a second loop variable name"))
				bad = 1;
			n->ntargets = 2;
		}
	}
	if (!bad && !is_name(peek(p), "in")) {
		unexpected(p, "'in'");
		bad = 1;
	}
	if (!bad) {
		next(p);
		n->e = parse_or(p); /* not parse_expr: `if` here filters the loop */
		if (!n->e)
			bad = 1;
		else if (is_name(peek(p), "if")) {
			next(p);
			n->e2 = parse_expr(p);
			if (!n->e2)
				bad = 1;
		}
	}
	if (bad)
		skip_tag(p);
	else if (expect_end(p, TK_STMT_END))
		bad = 1;
	p->in_block_or_macro++;
	struct token *end = parse_body(p, &n->body, "for", begin->line, begin->col);
	if (end && str_eq_cstr(end->s, "else")) {
		next(p);
		expect_end(p, TK_STMT_END);
		end = parse_body(p, &n->else_body, "for", begin->line, begin->col);
		if (end && !str_eq_cstr(end->s, "endfor")) {
			perr(p, end->line, end->col, "'%.*s' after 'else' (expected 'endfor')", STR_FMT(end->s));
			next(p);
			skip_tag(p);
			/* the rest up to endfor is dropped, so one mistake is one error */
			struct body junk = {0};
			while ((end = parse_body(p, &junk, "for", begin->line, begin->col)) && !str_eq_cstr(end->s, "endfor")) {
				next(p);
				skip_tag(p);
			}
		}
	}
	p->in_block_or_macro--;
	if (!end)
		return NULL;
	end_tag(p, end, (struct str){NULL, 0});
	return bad ? NULL : n;
}

static void add_block(struct parser *p, struct node *n)
{
	for (size_t i = 0; i < p->t->nblocks; i++) {
		if (str_eq(p->t->blocks[i]->text, n->text)) {
			perr(p, n->line, n->col, "block '%.*s' is defined twice (first on line %d)", STR_FMT(n->text),
			     p->t->blocks[i]->line);
			return;
		}
	}
	size_t cap = p->t->nblocks;
	p->t->blocks = arena_realloc(p->a, p->t->blocks, cap * sizeof *p->t->blocks, (cap + 1) * sizeof *p->t->blocks);
	p->t->blocks[p->t->nblocks++] = n;
}

static struct node *parse_block(struct parser *p, struct token *begin)
{
	struct node *n = new_node(p, N_BLOCK, begin);
	next(p); /* block */
	int bad = expect_name(p, &n->text, "a block name");
	if (bad)
		skip_tag(p);
	else if (expect_end(p, TK_STMT_END))
		bad = 1;
	p->in_block_or_macro++;
	struct token *end = parse_body(p, &n->body, "block", begin->line, begin->col);
	p->in_block_or_macro--;
	if (!end)
		return NULL;
	end_tag(p, end, n->text);
	if (bad)
		return NULL;
	add_block(p, n);
	return n;
}

static struct node *parse_macro(struct parser *p, struct token *begin)
{
	struct node *n = new_node(p, N_MACRO, begin);
	struct macro *m = arena_alloc(p->a, sizeof *m);
	m->owner = p->t;
	m->fn.kind = F_MACRO;
	m->fn.m = m;
	m->line = begin->line;
	m->col = begin->col;
	n->macro = m;
	next(p); /* macro */
	int bad = expect_name(p, &m->name, "a macro name");
	struct str params[64];
	struct expr *defs[64];
	size_t np = 0;
	if (!bad && !is_op(peek(p), OP_LPAREN)) {
		unexpected(p, "'(' after the macro name");
		bad = 1;
	}
	if (!bad) {
		next(p);
		while (!bad && !is_op(peek(p), OP_RPAREN)) {
			if (np == 64) {
				perr(p, peek(p)->line, peek(p)->col, "too many macro parameters (at most 64)");
				bad = 1;
				break;
			}
			if (expect_name(p, &params[np], "a parameter name")) {
				bad = 1;
				break;
			}
			for (size_t i = 0; i < np; i++)
				if (str_eq(params[i], params[np]))
					perr(p, p->toks[p->pos - 1].line, p->toks[p->pos - 1].col,
					     "parameter '%.*s' appears twice", STR_FMT(params[np]));
			defs[np] = NULL;
			if (is_op(peek(p), OP_ASSIGN)) {
				next(p);
				defs[np] = parse_expr(p);
				if (!defs[np]) {
					bad = 1;
					break;
				}
			} else if (np > 0 && defs[np - 1]) {
				perr(p, p->toks[p->pos - 1].line, p->toks[p->pos - 1].col,
				     "parameter without a default after one with a default");
				bad = 1;
				break;
			}
			np++;
			if (is_op(peek(p), OP_COMMA))
				next(p);
			else if (!is_op(peek(p), OP_RPAREN)) {
				unexpected(p, "',' or ')'");
				bad = 1;
			}
		}
		if (!bad)
			next(p);
	}
	if (bad)
		skip_tag(p);
	else if (expect_end(p, TK_STMT_END))
		bad = 1;
	m->nparams = np;
	m->params = arena_alloc(p->a, (np ? np : 1) * sizeof *m->params);
	m->defaults = arena_alloc(p->a, (np ? np : 1) * sizeof *m->defaults);
	memcpy(m->params, params, np * sizeof *params);
	memcpy(m->defaults, defs, np * sizeof *defs);
	p->in_block_or_macro++;
	struct token *end = parse_body(p, &m->body, "macro", begin->line, begin->col);
	p->in_block_or_macro--;
	if (!end)
		return NULL;
	end_tag(p, end, m->name);
	if (bad)
		return NULL;
	memo_analyse(p->a, m);
	return n;
}

static struct node *parse_set(struct parser *p, struct token *begin)
{
	struct node *n = new_node(p, N_SET, begin);
	next(p); /* set */
	if (expect_name(p, &n->text, "a variable name after 'set'")) {
		skip_tag(p);
		return NULL;
	}
	if (is_op(peek(p), OP_DOT)) {
		next(p);
		if (expect_name(p, &n->attr, "an attribute name")) {
			skip_tag(p);
			return NULL;
		}
	}
	if (peek(p)->kind == TK_STMT_END && !n->attr.len) {
		/* {% set x %}...{% endset %}: captures the body's output */
		next(p);
		n->kind = N_SET_BLOCK;
		p->in_block_or_macro++;
		struct token *end = parse_body(p, &n->body, "set", begin->line, begin->col);
		p->in_block_or_macro--;
		if (!end)
			return NULL;
		end_tag(p, end, (struct str){NULL, 0});
		return n;
	}
	if (!is_op(peek(p), OP_ASSIGN)) {
		unexpected(p, "'='");
		skip_tag(p);
		return NULL;
	}
	next(p);
	n->e = parse_expr(p);
	if (!n->e) {
		skip_tag(p);
		return NULL;
	}
	return expect_end(p, TK_STMT_END) ? NULL : n;
}

/* parse_jump: {% break %} or {% continue %} (w), inside a loop of this
 * template's (a macro's body is not inside the loop around it). */
static struct node *parse_jump(struct parser *p, struct token *begin, struct token *w)
{
	next(p);
	int inside_for = 0;
	for (int i = 0; i < p->nopen; i++)
		if (!strcmp(p->open_kw[i], "for"))
			inside_for = 1;
		else if (!strcmp(p->open_kw[i], "macro"))
			inside_for = 0;
	if (!inside_for) {
		perr(p, w->line, w->col, "'%.*s' outside of a 'for' loop", STR_FMT(w->s));
		skip_tag(p);
		return NULL;
	}
	struct node *n = new_node(p, w->s.p[0] == 'b' ? N_BREAK : N_CONTINUE, begin);
	return expect_end(p, TK_STMT_END) ? NULL : n;
}

/* parse_import_names: the names of {% from X import a, b as c %}, after
 * "import", into n. 0, or -1 after the error (the tag skipped). */
static int parse_import_names(struct parser *p, struct node *n)
{
	struct str names[64], aliases[64];
	size_t k = 0;
	do {
		if (k && is_op(peek(p), OP_COMMA))
			next(p);
		if (k == 64 || expect_name(p, &names[k], "a macro name to import")) {
			skip_tag(p);
			return -1;
		}
		aliases[k] = names[k];
		if (is_name(peek(p), "as")) {
			next(p);
			if (expect_name(p, &aliases[k], "a name after 'as'")) {
				skip_tag(p);
				return -1;
			}
		}
		k++;
	} while (is_op(peek(p), OP_COMMA));
	n->nnames = k;
	n->names = arena_alloc(p->a, k * sizeof *names);
	n->aliases = arena_alloc(p->a, k * sizeof *aliases);
	memcpy(n->names, names, k * sizeof *names);
	memcpy(n->aliases, aliases, k * sizeof *aliases);
	return 0;
}

/* parse_load_tail: what follows the template name of n (w: its tag):
 * include's "ignore missing" and "with(out) context", import's "as
 * NAME", from's "import NAMES"; extends is checked to be the one at the
 * top level. 0, or -1 after the error (the tag skipped). */
static int parse_load_tail(struct parser *p, struct node *n, struct token *w)
{
	if (n->kind == N_INCLUDE) {
		if (is_name(peek(p), "ignore") && is_name(peek2(p), "missing")) {
			next(p);
			next(p);
			n->ignore_missing = 1;
		}
		if ((is_name(peek(p), "with") || is_name(peek(p), "without")) && is_name(peek2(p), "context")) {
			n->without_context = is_name(peek(p), "without");
			next(p);
			next(p);
		}
		return 0;
	}
	const char *err = NULL;
	if (n->kind == N_IMPORT) {
		if (!is_name(peek(p), "as")) {
			unexpected(p, "'as'");
			skip_tag(p);
			return -1;
		}
		next(p);
		if (expect_name(p, &n->text, "a name after 'as'")) {
			skip_tag(p);
			return -1;
		}
	} else if (n->kind == N_FROM_IMPORT) {
		if (!is_name(peek(p), "import")) {
			unexpected(p, "'import'");
			skip_tag(p);
			return -1;
		}
		next(p);
		return parse_import_names(p, n);
	} else if (p->in_block_or_macro || p->nopen)
		err = "'extends' must be at the top level of the template";
	else if (p->t->extends)
		err = "'extends' appears twice";
	else
		p->t->extends = n;
	if (err) {
		perr(p, w->line, w->col, "%s", err);
		skip_tag(p);
		return -1;
	}
	return 0;
}

/* parse_load: {% include %}, {% extends %}, {% import %} or {% from %}
 * (w): the template's name (an expression), then the rest of the tag. */
static struct node *parse_load(struct parser *p, struct token *begin, struct token *w)
{
	next(p);
	enum node_kind kind = is_name(w, "include") ? N_INCLUDE : is_name(w, "extends") ? N_EXTENDS
				: is_name(w, "import") ? N_IMPORT : N_FROM_IMPORT;
	struct node *n = new_node(p, kind, begin);
	n->e = parse_expr(p);
	if (!n->e) {
		skip_tag(p);
		return NULL;
	}
	if (parse_load_tail(p, n, w))
		return NULL;
	return expect_end(p, TK_STMT_END) ? NULL : n;
}

/* parse_stmt: the statement of a {% tag, by its name; an unknown name is
 * an error with the nearest one. */
static struct node *parse_stmt(struct parser *p, struct token *begin)
{
	struct token *w = peek(p);
	if (w->kind != TK_NAME) {
		unexpected(p, "a statement name after '{%'");
		skip_tag(p);
		return NULL;
	}
	if (is_name(w, "if"))
		return parse_if(p, begin);
	if (is_name(w, "for"))
		return parse_for(p, begin);
	if (is_name(w, "block"))
		return parse_block(p, begin);
	if (is_name(w, "macro"))
		return parse_macro(p, begin);
	if (is_name(w, "set"))
		return parse_set(p, begin);
	if (is_name(w, "break") || is_name(w, "continue"))
		return parse_jump(p, begin, w);
	if (is_name(w, "include") || is_name(w, "extends") || is_name(w, "import") || is_name(w, "from"))
		return parse_load(p, begin, w);
	static const char *const stmts[] = {"if", "for", "set", "block", "macro", "include", "extends", "import",
		"from", "raw", "break", "continue", "elif", "else", "endif", "endfor", "endblock", "endmacro",
		"endset", "endraw", NULL};
	const char *s = diag_suggest(w->s.p, w->s.len, stmts);
	perr(p, w->line, w->col, "unknown statement '%.*s'%s%s%s", STR_FMT(w->s), s ? " (did you mean '" : "",
	     s ? s : "", s ? "'?)" : "");
	skip_tag(p);
	return NULL;
}

void tmpl_src_pos(const struct tmpl *t, const char *p, int *line, int *col)
{
	assert(p >= t->src && p <= t->src + t->len);
	int l = 1;
	const char *start = t->src;
	for (const char *q = t->src; q < p; q++) {
		if (*q == '\n') {
			l++;
			start = q + 1;
		}
	}
	*line = l;
	*col = (int)(p - start) + 1;
}

/* ---- the set ---- */

struct tmpl_env *tmpl_env_new(void)
{
	struct tmpl_env *env = xcalloc(1, sizeof *env);
	env->arena = arena_new();
	env->strict = 1;
	env->max_output = 64u << 20;
	env->max_depth = 100;
	env->globals = tmap_new(env->arena, 8);
	size_t n = 0;
	while (tmpl_builtin_filters[n].name)
		n++;
	env->filters = xcalloc(n + 1, sizeof *env->filters);
	memcpy(env->filters, tmpl_builtin_filters, n * sizeof *env->filters);
	env->nfilters = n;
	return env;
}

void tmpl_env_free(struct tmpl_env *env)
{
	if (!env)
		return;
	arena_free(env->arena);
	free(env->tmpls);
	index_fini(&env->by_name);
	free(env->filters);
	free(env->base_url);
	free(env);
}

void tmpl_env_set_strict(struct tmpl_env *env, int strict)
{
	env->strict = strict;
}

void tmpl_env_set_base_url(struct tmpl_env *env, const char *base_url)
{
	free(env->base_url);
	env->base_url = base_url ? xstrndup(base_url, strlen(base_url)) : NULL;
	/* rel_url's base, found once: the path after the host, if any */
	struct str base = str_from(env->base_url);
	const char *scheme = base.len ? memmem(base.p, base.len, "://", 3) : NULL;
	if (scheme) {
		const char *host = scheme + 3;
		const char *path = memchr(host, '/', base.len - (size_t)(host - base.p));
		base.len = path ? base.len - (size_t)(path - base.p) : 0;
		base.p = path ? path : "";
	}
	while (base.len && base.p[base.len - 1] == '/')
		base.len--;
	env->base_path = base;
}

void tmpl_env_set_limits(struct tmpl_env *env, size_t max_output, int max_depth)
{
	env->max_output = max_output;
	env->max_depth = max_depth;
}

void tmpl_env_set_locale(struct tmpl_env *env, const struct tmpl_locale *loc)
{
	if (loc)
		env->locale = *loc;
	else
		memset(&env->locale, 0, sizeof env->locale);
}

void tmpl_env_set_locale_dep(struct tmpl_env *env, uint32_t dep)
{
	env->locale_dep = dep;
}

const struct tval *tmpl_env_global(const struct tmpl_env *env, const char *name)
{
	return tmap_get(env->globals, str_from(name));
}

void tmpl_env_set_global(struct tmpl_env *env, const char *name, struct tval v)
{
	tmpl_env_set_global_dep(env, name, v, 0);
}

void tmpl_env_set_global_dep(struct tmpl_env *env, const char *name, struct tval v, uint32_t dep)
{
	size_t n = strlen(name);
	struct str key = {arena_strndup(env->arena, name, n), n};
	tmap_set(env->arena, env->globals, key, v);
	size_t at = (size_t)(tmap_get(env->globals, key) - env->globals->vals);
	if (at >= env->nglobal_deps) {
		size_t cap = env->globals->cap;
		env->global_deps = arena_realloc(env->arena, env->global_deps, env->nglobal_deps * sizeof *env->global_deps,
		                                 cap * sizeof *env->global_deps);
		env->nglobal_deps = cap;
	}
	env->global_deps[at] = dep;
}

static uint64_t name_hash(const void *ctx, uint32_t v)
{
	const char *name = ((const struct tmpl_env *)ctx)->tmpls[v - 1]->name;
	return hash_bytes(name, strlen(name));
}

static int name_eq(const void *ctx, uint32_t v, const void *name)
{
	return str_eq_cstr(*(const struct str *)name, ((const struct tmpl_env *)ctx)->tmpls[v - 1]->name);
}

/* find_pos: the position of the template called name in env->tmpls, or
 * SIZE_MAX. */
static size_t find_pos(const struct tmpl_env *env, struct str name)
{
	uint32_t k = index_get(&env->by_name, hash_bytes(name.p, name.len), name_eq, env, &name);
	return k ? k - 1 : SIZE_MAX;
}

int tmpl_env_set_template_dep(struct tmpl_env *env, const char *name, uint32_t dep)
{
	size_t i = find_pos(env, str_from(name));
	if (i == SIZE_MAX)
		return -1;
	env->tmpls[i]->dep = dep;
	return 0;
}

void tmpl_env_set_missing_dep(struct tmpl_env *env, uint32_t dep)
{
	env->missing_dep = dep;
}

size_t tmpl_env_count(const struct tmpl_env *env)
{
	return env->ntmpls;
}

const char *tmpl_env_name(const struct tmpl_env *env, size_t i)
{
	return env->tmpls[i]->name;
}

struct str tmpl_env_source(const struct tmpl_env *env, size_t i)
{
	return (struct str){env->tmpls[i]->src, env->tmpls[i]->len};
}

void tmpl_env_add_filter(struct tmpl_env *env, const char *name, tmpl_filter_fn fn, const char *params)
{
	struct filter_def def = {0};
	def.name = arena_strndup(env->arena, name, strlen(name));
	def.fn = fn;
	def.host = 1;
	filter_parse_params(&def, params ? arena_strndup(env->arena, params, strlen(params)) : "");
	for (size_t i = 0; i < env->nfilters; i++) {
		if (!strcmp(env->filters[i].name, name)) {
			env->filters[i] = def;
			return;
		}
	}
	env->filters = xrealloc(env->filters, (env->nfilters + 2) * sizeof *env->filters);
	env->filters[env->nfilters++] = def;
	memset(&env->filters[env->nfilters], 0, sizeof *env->filters);
}

const struct filter_def *tmpl_env_filter(const struct tmpl_env *env, struct str name)
{
	for (size_t i = 0; i < env->nfilters; i++)
		if (str_eq_cstr(name, env->filters[i].name))
			return &env->filters[i];
	return NULL;
}

const struct tmpl *tmpl_env_find(const struct tmpl_env *env, struct str name)
{
	size_t i = find_pos(env, name);
	if (i != SIZE_MAX) {
		tmpl_deps_touch(env->tmpls[i]->dep);
		return env->tmpls[i];
	}
	tmpl_deps_touch(env->missing_dep); /* `ignore missing`: it may appear later */
	return NULL;
}

int tmpl_env_has(const struct tmpl_env *env, const char *name)
{
	return tmpl_env_find(env, str_from(name)) != NULL;
}

int tmpl_env_add(struct tmpl_env *env, const char *name, const char *path, const char *src, size_t len,
		 struct diag *d)
{
	struct tmpl *t = arena_alloc(env->arena, sizeof *t);
	t->name = arena_strndup(env->arena, name, strlen(name));
	t->path = arena_strndup(env->arena, path, strlen(path));
	t->src = arena_strndup(env->arena, src, len);
	t->len = len;
	struct parser p = {0};
	p.a = env->arena;
	p.env = env;
	p.t = t;
	p.d = d;
	int before = d->errors;
	size_t ntoks = 0;
	/* Template text is copied to pages as it is: bytes that are not UTF-8
	 * would make a page that is not (and <meta charset="utf-8"> a lie). */
	size_t ok = utf8_valid_prefix(src, len);
	if (ok < len) {
		int line = 1;
		size_t ls = 0;
		for (size_t i = 0; i < ok; i++)
			if (src[i] == '\n') {
				line++;
				ls = i + 1;
			}
		struct diag_loc loc = {t->path, t->src, t->len, line, (int)(ok - ls) + 1};
		diag_error(d, &loc, "not UTF-8: byte 0x%02X here (hint: save the file as UTF-8)", (unsigned char)src[ok]);
		p.toks = NULL;
	} else {
		p.toks = tmpl_lex(env->arena, t, d, &ntoks);
	}
	if (!p.toks) {
		t->has_errors = 1;
	} else {
		p.n = ntoks;
		parse_body(&p, &t->root, NULL, 1, 1);
		for (size_t i = 0; i < t->root.n; i++) {
			struct node *n = t->root.v[i];
			if (n->kind == N_MACRO) {
				size_t cap = t->nmacros;
				t->macros = arena_realloc(env->arena, t->macros, cap * sizeof *t->macros,
							  (cap + 1) * sizeof *t->macros);
				t->macros[t->nmacros++] = n->macro;
			}
		}
	}
	size_t i = find_pos(env, str_from(name));
	if (i != SIZE_MAX) {
		t->pos = i;
		env->tmpls[i] = t;
		return d->errors - before;
	}
	if (env->ntmpls == env->cap_tmpls) {
		env->cap_tmpls = env->cap_tmpls ? env->cap_tmpls * 2 : 16;
		env->tmpls = xrealloc(env->tmpls, env->cap_tmpls * sizeof *env->tmpls);
	}
	t->pos = env->ntmpls;
	env->tmpls[env->ntmpls++] = t;
	index_add(&env->by_name, hash_bytes(name, strlen(name)), (uint32_t)env->ntmpls, 64, name_hash, env);
	return d->errors - before;
}

/* ---- linking ---- */

struct link_state {
	struct tmpl_env *env;
	struct diag *d;
	int errors;
	/* the chain being followed, for cycle detection and notes */
	const struct tmpl *chain[128];
	const struct node *via[128];
	int depth;
	unsigned char *done; /* per template: 0 new, 1 in progress, 2 checked */
};

static size_t tmpl_index(const struct tmpl_env *env, const struct tmpl *t)
{
	return env->tmpls[t->pos] == t ? t->pos : 0;
}

static void link_tmpl(struct link_state *ls, const struct tmpl *t);

static void link_error(struct link_state *ls, const struct tmpl *t, int line, int col, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
static void link_error(struct link_state *ls, const struct tmpl *t, int line, int col, const char *fmt, ...)
{
	struct diag_note notes[128];
	size_t nn = 0;
	/* from the template that holds the error out to the one that was checked first */
	for (int i = ls->depth - 1; i >= 0 && nn < 128; i--) {
		const struct node *v = ls->via[i];
		const struct tmpl *c = ls->chain[i];
		if (v)
			notes[nn++] = (struct diag_note){{c->path, c->src, c->len, v->line, v->col},
							 v->kind == N_EXTENDS   ? "extended from here"
							 : v->kind == N_INCLUDE ? "included from here"
										: "imported from here"};
	}
	va_list ap;
	va_start(ap, fmt);
	tmpl_vreport(ls->d, t, line, col, notes, nn, fmt, ap);
	va_end(ap);
	ls->errors++;
}

static void link_ref(struct link_state *ls, const struct tmpl *t, const struct node *n)
{
	if (n->e->kind != E_LIT || n->e->lit.kind != TV_STR)
		return; /* a computed name: checked when rendered */
	struct str name = n->e->lit.u.s;
	const struct tmpl *target = tmpl_env_find(ls->env, name);
	if (!target) {
		if (n->kind == N_INCLUDE && n->ignore_missing)
			return;
		const char *what = n->kind == N_EXTENDS ? "parent template" : n->kind == N_INCLUDE ? "included template"
												: "imported template";
		const char *cand[256];
		size_t k = 0;
		for (size_t i = 0; i < ls->env->ntmpls && k < 255; i++)
			cand[k++] = ls->env->tmpls[i]->name;
		cand[k] = NULL;
		const char *s = diag_suggest(name.p, name.len, cand);
		link_error(ls, t, n->e->line, n->e->col, "%s '%.*s' not found%s%s%s", what, STR_FMT(name), s ? " (did you mean '" : "",
			   s ? s : "", s ? "'?)" : "");
		return;
	}
	size_t ti = tmpl_index(ls->env, target);
	if (ls->done[ti] == 1) {
		link_error(ls, t, n->e->line, n->e->col, "'%.*s' %s itself (a cycle of %s)", STR_FMT(name),
			   n->kind == N_EXTENDS ? "extends" : n->kind == N_INCLUDE ? "includes" : "imports",
			   n->kind == N_EXTENDS ? "parents" : n->kind == N_INCLUDE ? "includes" : "imports");
		return;
	}
	if (ls->done[ti] == 2 || ls->depth >= 127)
		return;
	ls->via[ls->depth - 1] = n;
	link_tmpl(ls, target);
	ls->via[ls->depth - 1] = NULL;
}

static void link_body(struct link_state *ls, const struct tmpl *t, const struct body *b)
{
	for (size_t i = 0; i < b->n; i++) {
		const struct node *n = b->v[i];
		switch (n->kind) {
		case N_INCLUDE:
		case N_EXTENDS:
		case N_IMPORT:
		case N_FROM_IMPORT: link_ref(ls, t, n); break;
		case N_IF:
			for (size_t k = 0; k < n->nconds; k++)
				link_body(ls, t, &n->bodies[k]);
			link_body(ls, t, &n->else_body);
			break;
		case N_FOR:
		case N_BLOCK:
		case N_SET_BLOCK:
			link_body(ls, t, &n->body);
			link_body(ls, t, &n->else_body);
			break;
		case N_MACRO: link_body(ls, t, &n->macro->body); break;
		default: break;
		}
		if (n->kind == N_FROM_IMPORT && n->e->kind == E_LIT && n->e->lit.kind == TV_STR) {
			const struct tmpl *src = tmpl_env_find(ls->env, n->e->lit.u.s);
			for (size_t k = 0; src && k < n->nnames; k++) {
				size_t m;
				for (m = 0; m < src->nmacros; m++)
					if (str_eq(src->macros[m]->name, n->names[k]))
						break;
				if (m == src->nmacros)
					link_error(ls, t, n->line, n->col, "'%.*s' has no macro '%.*s'", STR_FMT(n->e->lit.u.s),
						   STR_FMT(n->names[k]));
			}
		}
	}
}

static void link_tmpl(struct link_state *ls, const struct tmpl *t)
{
	size_t ti = tmpl_index(ls->env, t);
	ls->done[ti] = 1;
	ls->chain[ls->depth] = t;
	ls->via[ls->depth] = NULL;
	ls->depth++;
	link_body(ls, t, &t->root);
	ls->depth--;
	ls->done[ti] = 2;
}

int tmpl_env_check(struct tmpl_env *env, struct diag *d)
{
	struct link_state ls = {0};
	ls.env = env;
	ls.d = d;
	ls.done = xcalloc(env->ntmpls + 1, 1);
	for (size_t i = 0; i < env->ntmpls; i++)
		if (!ls.done[i])
			link_tmpl(&ls, env->tmpls[i]);
	free(ls.done);
	return ls.errors;
}
