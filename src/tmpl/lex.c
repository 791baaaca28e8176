/* lex.c: template text -> tokens. Text between tags becomes TK_TEXT; inside
 * {{ }} and {% %} come names, literals and operators. Comments vanish here,
 * whitespace control ({%- -%}) trims the neighbouring text here, and
 * {% raw %} bodies come out as text. */
#include "internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct lexer {
	struct arena *a;
	struct tmpl *t;
	struct diag *d;
	const char *src;
	size_t len, pos;
	int line;
	size_t line_start;
	struct token *toks;
	size_t n, cap;
	int trim_next; /* the last tag ended with '-': strip the next text's leading space */
	int failed;
};

static int is_ws(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static void lex_error(struct lexer *lx, int line, int col, const char *msg)
{
	struct diag_loc loc = {lx->t->path, lx->src, lx->len, line, col};
	diag_error(lx->d, &loc, "%s", msg);
	lx->failed = 1;
}

static struct token *push(struct lexer *lx, enum tok_kind kind, int line, int col)
{
	if (lx->n == lx->cap) {
		size_t cap = lx->cap ? lx->cap * 2 : 64;
		lx->toks = arena_realloc(lx->a, lx->toks, lx->cap * sizeof *lx->toks, cap * sizeof *lx->toks);
		lx->cap = cap;
	}
	struct token *t = &lx->toks[lx->n++];
	memset(t, 0, sizeof *t);
	t->kind = kind;
	t->line = line;
	t->col = col;
	return t;
}

/* advance: moves pos to p, counting lines on the way. */
static void advance(struct lexer *lx, size_t p)
{
	for (size_t i = lx->pos; i < p; i++) {
		if (lx->src[i] == '\n') {
			lx->line++;
			lx->line_start = i + 1;
		}
	}
	lx->pos = p;
}

static int col_at(struct lexer *lx, size_t p)
{
	return (int)(p - lx->line_start) + 1;
}

/* push_text: text src[from..to), trimmed as the neighbouring tags ask. */
static void push_text(struct lexer *lx, size_t from, size_t to, int trim_right, int line, int col)
{
	if (lx->trim_next) {
		while (from < to && is_ws(lx->src[from]))
			from++;
		lx->trim_next = 0;
	}
	if (trim_right)
		while (to > from && is_ws(lx->src[to - 1]))
			to--;
	if (to > from) {
		struct token *t = push(lx, TK_TEXT, line, col);
		t->s.p = lx->src + from;
		t->s.len = to - from;
	}
}

static const char *find2(const char *s, size_t from, size_t len, char a, char b)
{
	for (size_t i = from; i + 1 < len; i++)
		if (s[i] == a && s[i + 1] == b)
			return s + i;
	return NULL;
}

static int lex_string(struct lexer *lx)
{
	char q = lx->src[lx->pos];
	int line = lx->line, col = col_at(lx, lx->pos);
	struct buf b;
	buf_init(&b);
	size_t i = lx->pos + 1;
	for (;;) {
		if (i >= lx->len || lx->src[i] == '\n') {
			lex_error(lx, line, col, "unterminated string (hint: close it with the same quote on the same line)");
			buf_fini(&b);
			return -1;
		}
		char c = lx->src[i];
		if (c == q)
			break;
		if (c == '\\' && i + 1 < lx->len) {
			char e = lx->src[++i];
			switch (e) {
			case 'n': buf_putc(&b, '\n'); break;
			case 't': buf_putc(&b, '\t'); break;
			case 'r': buf_putc(&b, '\r'); break;
			case '\\': buf_putc(&b, '\\'); break;
			case '\'': buf_putc(&b, '\''); break;
			case '"': buf_putc(&b, '"'); break;
			default:
				buf_putc(&b, '\\');
				buf_putc(&b, e);
			}
			i++;
			continue;
		}
		buf_putc(&b, c);
		i++;
	}
	struct token *t = push(lx, TK_STRING, line, col);
	t->s.len = b.len;
	t->s.p = arena_strndup(lx->a, b.p ? b.p : "", b.len);
	buf_fini(&b);
	advance(lx, i + 1);
	return 0;
}

static int lex_number(struct lexer *lx)
{
	size_t i = lx->pos;
	int line = lx->line, col = col_at(lx, i);
	int is_float = 0;
	/* after a '.', digits are an index: xs.0.1 is xs[0][1], not xs[0.1] */
	int index = lx->n && lx->toks[lx->n - 1].kind == TK_OP && lx->toks[lx->n - 1].op == OP_DOT;
	while (i < lx->len && lx->src[i] >= '0' && lx->src[i] <= '9')
		i++;
	if (index) {
		/* no fraction, no exponent */
	} else if (i + 1 < lx->len && lx->src[i] == '.' && lx->src[i + 1] >= '0' && lx->src[i + 1] <= '9') {
		is_float = 1;
		i++;
		while (i < lx->len && lx->src[i] >= '0' && lx->src[i] <= '9')
			i++;
	}
	if (!index && i < lx->len && (lx->src[i] == 'e' || lx->src[i] == 'E')) {
		size_t j = i + 1;
		if (j < lx->len && (lx->src[j] == '+' || lx->src[j] == '-'))
			j++;
		if (j < lx->len && lx->src[j] >= '0' && lx->src[j] <= '9') {
			is_float = 1;
			i = j;
			while (i < lx->len && lx->src[i] >= '0' && lx->src[i] <= '9')
				i++;
		}
	}
	char tmp[64];
	size_t n = i - lx->pos;
	if (n >= sizeof tmp) {
		lex_error(lx, line, col, "number literal too long");
		return -1;
	}
	memcpy(tmp, lx->src + lx->pos, n);
	tmp[n] = '\0';
	struct token *t = push(lx, is_float ? TK_FLOAT : TK_INT, line, col);
	errno = 0;
	if (is_float) {
		t->f = strtod(tmp, NULL);
	} else {
		t->i = strtoll(tmp, NULL, 10);
		if (errno == ERANGE) {
			lex_error(lx, line, col, "integer literal out of range");
			return -1;
		}
	}
	advance(lx, i);
	return 0;
}

struct opspell {
	const char *s;
	enum op op;
};

static const struct opspell ops[] = {
	{"**", OP_POW}, {"//", OP_FLOORDIV}, {"==", OP_EQ}, {"!=", OP_NE}, {"<=", OP_LE},
	{">=", OP_GE}, {"+", OP_ADD}, {"-", OP_SUB}, {"*", OP_MUL}, {"/", OP_DIV},
	{"%", OP_MOD}, {"~", OP_CONCAT}, {"<", OP_LT}, {">", OP_GT}, {"=", OP_ASSIGN},
	{".", OP_DOT}, {",", OP_COMMA}, {":", OP_COLON}, {"|", OP_PIPE}, {"(", OP_LPAREN},
	{")", OP_RPAREN}, {"[", OP_LBRACKET}, {"]", OP_RBRACKET}, {"{", OP_LBRACE},
	{"}", OP_RBRACE}, {NULL, OP_NONE}};

/* lex_tag: the inside of a {{ }} or {% %} tag, up to and including its end.
 * close is '}' or '%'. Returns the position after the tag, or 0 on error. */
static size_t lex_tag(struct lexer *lx, char close, int open_line, int open_col)
{
	int depth = 0; /* open braces: a '}}' inside a map literal is not the end */
	for (;;) {
		while (lx->pos < lx->len && is_ws(lx->src[lx->pos]))
			advance(lx, lx->pos + 1);
		if (lx->pos >= lx->len) {
			lex_error(lx, open_line, open_col,
				  close == '}' ? "unclosed '{{' (expected '}}')" : "unclosed '{%' (expected '%}')");
			return 0;
		}
		size_t p = lx->pos;
		const char *s = lx->src + p;
		size_t rest = lx->len - p;
		int trim = 0;
		if (s[0] == '-' && rest >= 3 && s[1] == close && s[2] == '}' && depth == 0) {
			trim = 1;
			s++;
			rest--;
		}
		if (rest >= 2 && s[0] == close && s[1] == '}' && (depth == 0 || close == '%')) {
			struct token *t = push(lx, close == '}' ? TK_VAR_END : TK_STMT_END, lx->line, col_at(lx, p));
			(void)t;
			lx->trim_next = trim;
			advance(lx, p + (size_t)trim + 2);
			return lx->pos;
		}
		char c = s[0];
		if (c == '"' || c == '\'') {
			if (lex_string(lx))
				return 0;
			continue;
		}
		if (c >= '0' && c <= '9') {
			if (lex_number(lx))
				return 0;
			continue;
		}
		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_') {
			size_t i = p;
			while (i < lx->len && ((lx->src[i] >= 'a' && lx->src[i] <= 'z') ||
					       (lx->src[i] >= 'A' && lx->src[i] <= 'Z') ||
					       (lx->src[i] >= '0' && lx->src[i] <= '9') || lx->src[i] == '_'))
				i++;
			struct token *t = push(lx, TK_NAME, lx->line, col_at(lx, p));
			t->s.p = lx->src + p;
			t->s.len = i - p;
			advance(lx, i);
			continue;
		}
		const struct opspell *o;
		for (o = ops; o->s; o++) {
			size_t n = strlen(o->s);
			if (rest >= n && memcmp(s, o->s, n) == 0)
				break;
		}
		if (!o->s) {
			char msg[80];
			if ((unsigned char)c >= 0x80)
				snprintf(msg, sizeof msg, "unexpected character in tag");
			else
				snprintf(msg, sizeof msg, "unexpected character '%c' in tag", c);
			lex_error(lx, lx->line, col_at(lx, p), msg);
			return 0;
		}
		/* only braces: counting parentheses too would let `{{ f(1 }}` run
		 * to the end of the file looking for its '}}' */
		if (o->op == OP_LBRACE)
			depth++;
		else if (o->op == OP_RBRACE && depth > 0)
			depth--;
		struct token *t = push(lx, TK_OP, lx->line, col_at(lx, p));
		t->op = o->op;
		advance(lx, p + strlen(o->s));
	}
}

/* is_tag_word: whether the tag starting at src[p] (just after "{%") is
 * `word` alone: "{% raw %}", "{%- endraw -%}". Sets *end after the tag and
 * *trim_l / *trim_r for its whitespace control. */
static int is_tag_word(const struct lexer *lx, size_t p, const char *word, size_t *end, int *trim_l,
		       int *trim_r)
{
	*trim_l = *trim_r = 0;
	if (p < lx->len && lx->src[p] == '-') {
		*trim_l = 1;
		p++;
	}
	while (p < lx->len && is_ws(lx->src[p]))
		p++;
	size_t n = strlen(word);
	if (p + n > lx->len || memcmp(lx->src + p, word, n) != 0)
		return 0;
	p += n;
	while (p < lx->len && is_ws(lx->src[p]))
		p++;
	if (p < lx->len && lx->src[p] == '-') {
		*trim_r = 1;
		p++;
	}
	if (p + 1 < lx->len && lx->src[p] == '%' && lx->src[p + 1] == '}') {
		*end = p + 2;
		return 1;
	}
	return 0;
}

struct token *tmpl_lex(struct arena *a, struct tmpl *t, struct diag *d, size_t *n)
{
	struct lexer lx = {0};
	lx.a = a;
	lx.t = t;
	lx.d = d;
	lx.src = t->src;
	lx.len = t->len;
	lx.line = 1;
	while (lx.pos < lx.len && !lx.failed) {
		/* find the next tag opener */
		size_t p = lx.pos;
		const char *open = NULL;
		for (size_t i = p; i + 1 < lx.len; i++) {
			if (lx.src[i] == '{' && (lx.src[i + 1] == '{' || lx.src[i + 1] == '%' || lx.src[i + 1] == '#')) {
				open = lx.src + i;
				break;
			}
		}
		int text_line = lx.line, text_col = col_at(&lx, lx.pos);
		if (!open) {
			push_text(&lx, lx.pos, lx.len, 0, text_line, text_col);
			advance(&lx, lx.len);
			break;
		}
		size_t at = (size_t)(open - lx.src);
		int trim_left = at + 2 < lx.len && lx.src[at + 2] == '-';
		push_text(&lx, lx.pos, at, trim_left, text_line, text_col);
		advance(&lx, at);
		int tag_line = lx.line, tag_col = col_at(&lx, at);
		char kind = lx.src[at + 1];
		if (kind == '#') {
			const char *close = find2(lx.src, at + 2, lx.len, '#', '}');
			if (!close) {
				lex_error(&lx, tag_line, tag_col, "unclosed comment (expected '#}')");
				break;
			}
			size_t end = (size_t)(close - lx.src);
			lx.trim_next = end > at + 2 && lx.src[end - 1] == '-';
			advance(&lx, end + 2);
			continue;
		}
		if (kind == '%') {
			size_t end;
			int tl, tr;
			if (is_tag_word(&lx, at + 2, "raw", &end, &tl, &tr)) {
				/* find the matching endraw: everything between is text */
				size_t q = end, raw_end = 0, after = 0;
				int etl = 0, etr = 0;
				while (q + 1 < lx.len) {
					const char *o = find2(lx.src, q, lx.len, '{', '%');
					if (!o)
						break;
					size_t op = (size_t)(o - lx.src);
					if (is_tag_word(&lx, op + 2, "endraw", &after, &etl, &etr)) {
						raw_end = op;
						break;
					}
					q = op + 2;
				}
				if (!after) {
					lex_error(&lx, tag_line, tag_col, "unclosed 'raw' (expected '{% endraw %}')");
					break;
				}
				lx.trim_next = tr;
				advance(&lx, end);
				push_text(&lx, end, raw_end, etl, lx.line, col_at(&lx, end));
				lx.trim_next = etr;
				advance(&lx, after);
				continue;
			}
		}
		push(&lx, kind == '{' ? TK_VAR_BEGIN : TK_STMT_BEGIN, tag_line, tag_col);
		advance(&lx, at + 2 + (size_t)trim_left);
		if (!lex_tag(&lx, kind == '{' ? '}' : '%', tag_line, tag_col))
			break;
	}
	if (lx.failed)
		return NULL;
	push(&lx, TK_EOF, lx.line, col_at(&lx, lx.pos));
	*n = lx.n;
	return lx.toks;
}
