/* mathjax.c: MathJax's TeX rewritten into KaTeX's (see mathjax.h).
 *
 * A formula is scanned once, left to right, by scan(): braces and the
 * arguments of the commands below recurse (at most MATHJAX_MAX_DEPTH
 * deep); everything else is copied byte for byte. A command is a control
 * word (a backslash and letters) or a control symbol (a backslash and one
 * other character); an argument is a {group}, a command or one character,
 * after spaces, as TeX reads them. The rewrites, each from a formula that
 * MathJax typesets and KaTeX refuses:
 *   x_\max, Q^\vec{\mu}         x_{\max}, Q^{\vec{\mu}} (a function as a
 *                               sub- or superscript: braced with its
 *                               arguments)
 *   \text{a_b & c}              \text{a\_b \& c} (also \textrm, \textbf...,
 *                               \mbox and \hbox as \text, \emph as \textit,
 *                               \textsc as \text)
 *   \begin{eqnarray}...         \begin{array}{rcl}... (and eqnarray*)
 *   \begin{multline}...         \begin{gathered}...
 *   $\begin{align}...$ inline   \begin{aligned}... (gather: gathered,
 *                               equation: gathered)
 *   \tag{1} inline              \qquad\text{(1)}
 *   \require{x}, \label{x}      (removed)
 *   \bbox[...]{x}, \class{c}{x}, \style{s}{x}, \cssId{i}{x}   {x}
 *   \unicode{8730}              the character (decimal or x/0x hex)
 *   \displaylines{a\\b}         \begin{gathered}a\\b\end{gathered}
 *   \cases{..}, \matrix{..}, \pmatrix{..}, \bmatrix{..}, \eqalign{..}
 *                               the environment, \cr as \\
 *   \newcommand{\R}[1]{..}      \def\R#1{..} (and \renewcommand: MathJax
 *                               redefines what KaTeX has, and defines what
 *                               it has not)
 *   \DeclareMathOperator{\f}{f} \def\f{\operatorname{f}} (* too)
 *   \buildrel a \over b         \stackrel{a}{b}
 *   \scr x                      \mathscr{x} (to the end of the group)
 *   \mathbfit, \overparen, \underparen, \idotsint, \euro
 *                               \boldsymbol, \overgroup, \undergroup,
 *                               \int\cdots\int, \text{€} */
#include "md/mathjax.h"

#include "base/arena.h"

#include <stdlib.h>
#include <string.h>

enum kind {
	K_DROP1,    /* the command and one argument removed */
	K_UNWRAP,   /* args-1 arguments (and an [option]) dropped, the last kept */
	K_TEXT,     /* a text command: its argument's specials escaped */
	K_RENAME,   /* another name, same arguments */
	K_SWITCH,   /* a font switch: \to{the rest of the group} */
	K_UNICODE,  /* \unicode{N} */
	K_ENVARG,   /* \cmd{body}: \begin{to}body\end{to}, \cr as \\ */
	K_NEWCMD,   /* \newcommand, \renewcommand */
	K_DECLOP,   /* \DeclareMathOperator */
	K_BUILDREL, /* \buildrel top \over rel */
	K_TAG,      /* \tag inline */
	K_BEGIN,
	K_END,
};

struct cmd {
	const char *name;
	enum kind kind;
	const char *to; /* K_TEXT, K_RENAME, K_SWITCH, K_ENVARG: the new name */
	int args;       /* K_UNWRAP: arguments read (the last kept); K_RENAME: taken */
};

/* Sorted by name (strcmp), for bsearch. */
static const struct cmd cmds[] = {
    {"DeclareMathOperator", K_DECLOP, NULL, 0},
    {"bbox", K_UNWRAP, NULL, 1},
    {"begin", K_BEGIN, NULL, 0},
    {"bmatrix", K_ENVARG, "bmatrix", 0},
    {"buildrel", K_BUILDREL, NULL, 0},
    {"cases", K_ENVARG, "cases", 0},
    {"class", K_UNWRAP, NULL, 2},
    {"cssId", K_UNWRAP, NULL, 2},
    {"displaylines", K_ENVARG, "gathered", 0},
    {"emph", K_TEXT, "textit", 0},
    {"end", K_END, NULL, 0},
    {"eqalign", K_ENVARG, "aligned", 0},
    {"euro", K_RENAME, "text{\xe2\x82\xac}", 0},
    {"hbox", K_TEXT, "text", 0},
    {"idotsint", K_RENAME, "int\\cdots\\int", 0},
    {"label", K_DROP1, NULL, 0},
    {"mathbfit", K_RENAME, "boldsymbol", 1},
    {"matrix", K_ENVARG, "matrix", 0},
    {"mbox", K_TEXT, "text", 0},
    {"newcommand", K_NEWCMD, NULL, 0},
    {"overparen", K_RENAME, "overgroup", 1},
    {"pmatrix", K_ENVARG, "pmatrix", 0},
    {"renewcommand", K_NEWCMD, NULL, 0},
    {"require", K_DROP1, NULL, 0},
    {"scr", K_SWITCH, "mathscr", 0},
    {"style", K_UNWRAP, NULL, 2},
    {"tag", K_TAG, NULL, 0},
    {"text", K_TEXT, NULL, 0},
    {"textbf", K_TEXT, NULL, 0},
    {"textit", K_TEXT, NULL, 0},
    {"textmd", K_TEXT, NULL, 0},
    {"textnormal", K_TEXT, NULL, 0},
    {"textrm", K_TEXT, NULL, 0},
    {"textsc", K_TEXT, "text", 0},
    {"textsf", K_TEXT, NULL, 0},
    {"texttt", K_TEXT, NULL, 0},
    {"textup", K_TEXT, NULL, 0},
    {"underparen", K_RENAME, "undergroup", 1},
    {"unicode", K_UNICODE, NULL, 0},
};

/* KaTeX's commands that take arguments (their count; -1: an [option] and
 * one), and its named operators, which it refuses as a bare sub- or
 * superscript too (args 0). Sorted by name. */
static const struct arity {
	const char *name;
	int args;
} arities[] = {
    {"Pr", 0},           {"acute", 1},     {"arccos", 0},      {"arcsin", 0},       {"arctan", 0},
    {"arg", 0},          {"bar", 1},       {"bcancel", 1},     {"binom", 2},        {"bm", 1},
    {"boldsymbol", 1},   {"boxed", 1},     {"breve", 1},       {"cancel", 1},       {"cfrac", 2},
    {"check", 1},        {"colorbox", 2},  {"cos", 0},         {"cosh", 0},         {"cot", 0},
    {"coth", 0},         {"csc", 0},       {"dbinom", 2},      {"ddot", 1},         {"deg", 0},
    {"det", 0},          {"dfrac", 2},     {"dim", 0},         {"dot", 1},          {"exp", 0},
    {"fbox", 1},         {"fcolorbox", 3}, {"frac", 2},        {"gcd", 0},          {"grave", 1},
    {"hat", 1},          {"hom", 0},       {"hphantom", 1},    {"inf", 0},          {"ker", 0},
    {"lg", 0},           {"lim", 0},       {"liminf", 0},      {"limsup", 0},       {"ln", 0},
    {"log", 0},          {"mathbb", 1},    {"mathbf", 1},      {"mathcal", 1},      {"mathfrak", 1},
    {"mathit", 1},       {"mathring", 1},  {"mathrm", 1},      {"mathscr", 1},      {"mathsf", 1},
    {"mathtt", 1},       {"max", 0},       {"min", 0},         {"operatorname", 1}, {"overbrace", 1},
    {"overleftarrow", 1}, {"overline", 1}, {"overrightarrow", 1}, {"overset", 2},    {"phantom", 1},
    {"pmb", 1},          {"sec", 0},       {"sin", 0},         {"sinh", 0},         {"sout", 1},
    {"sqrt", -1},        {"stackrel", 2},  {"sup", 0},         {"tan", 0},          {"tanh", 0},
    {"tbinom", 2},       {"textcolor", 2}, {"tfrac", 2},       {"tilde", 1},        {"underbrace", 1},
    {"underline", 1},    {"underset", 2},  {"vec", 1},         {"vphantom", 1},     {"widehat", 1},
    {"widetilde", 1},    {"xcancel", 1},   {"xleftarrow", -1}, {"xrightarrow", -1},
};

/* Environments renamed: always, or in inline formulas only. */
static const struct env {
	const char *from, *to;
	int inline_only;
} envs[] = {
    {"eqnarray", "array}{rcl", 0}, {"eqnarray*", "array}{rcl", 0}, {"multline", "gathered", 0},
    {"multline*", "gathered", 0},  {"align", "aligned", 1},        {"align*", "aligned", 1},
    {"gather", "gathered", 1},     {"gather*", "gathered", 1},     {"equation", "gathered", 1},
    {"equation*", "gathered", 1},
};

enum mode { MATH, TEXT };

struct rw {
	const char *in;
	size_t len;
	int display;
	int changes;
	int cr; /* in a K_ENVARG body: \cr written \\ */
	struct buf *out, *map;
	/* close[i]: for a '{' at in[i], where its '}' is (NO_CLOSE: nowhere),
	 * found once for the formula, so that unclosed braces cost no second
	 * pass each */
	uint32_t *close;
};

#define NO_CLOSE UINT32_MAX

#define NONE ((size_t)-1)

static void emit(struct rw *w, const char *s, size_t n, size_t src)
{
	uint32_t m = (uint32_t)src;
	buf_append(w->out, s, n);
	for (size_t k = 0; k < n; k++)
		buf_append(w->map, &m, sizeof m);
}

static void emits(struct rw *w, const char *s, size_t src)
{
	emit(w, s, strlen(s), src);
}

static void copy(struct rw *w, size_t from, size_t to)
{
	buf_append(w->out, w->in + from, to - from);
	for (size_t k = from; k < to; k++) {
		uint32_t m = (uint32_t)k;
		buf_append(w->map, &m, sizeof m);
	}
}

static int is_letter(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z');
}

static size_t skip_space(const struct rw *w, size_t i, size_t to)
{
	while (i < to && (w->in[i] == ' ' || w->in[i] == '\t' || w->in[i] == '\n' || w->in[i] == '\r'))
		i++;
	return i;
}

/* cs_end: past the command at in[i] ('\'): its letters, or the one
 * character (whole, if UTF-8) after the backslash. */
static size_t cs_end(const struct rw *w, size_t i, size_t to)
{
	size_t j = i + 1;
	if (j >= to)
		return j > to ? to : j;
	if (!is_letter(w->in[j])) {
		j++;
		while (j < to && ((unsigned char)w->in[j] & 0xC0) == 0x80)
			j++;
		return j;
	}
	while (j < to && is_letter(w->in[j]))
		j++;
	return j;
}

/* group_end: past the '}' that closes the '{' at in[i] (before to), or
 * NONE. */
static size_t group_end(const struct rw *w, size_t i, size_t to)
{
	uint32_t c = w->close[i];
	return c != NO_CLOSE && c < to ? (size_t)c + 1 : NONE;
}

/* find_closes: w->close for every '{' of the formula (a backslash
 * protects the next byte, as in cs_end). */
static void find_closes(struct rw *w)
{
	uint32_t *open = xmalloc((w->len + 1) * sizeof *open);
	w->close = xmalloc((w->len + 1) * sizeof *w->close);
	size_t depth = 0;
	for (size_t j = 0; j < w->len; j++) {
		w->close[j] = NO_CLOSE;
		if (w->in[j] == '\\' && j + 1 < w->len)
			w->close[++j] = NO_CLOSE;
		else if (w->in[j] == '{')
			open[depth++] = (uint32_t)j;
		else if (w->in[j] == '}' && depth)
			w->close[open[--depth]] = (uint32_t)j;
	}
	free(open);
}

/* opt_end: past the ']' that closes the '[' at in[i], outside braces, or
 * NONE; an option is at most MAX_OPTION bytes (MathJax's are a few words),
 * so that a formula of unclosed ones costs one pass. */
#define MAX_OPTION 256
static size_t opt_end(const struct rw *w, size_t i, size_t to)
{
	int depth = 0;
	if (to - i > MAX_OPTION)
		to = i + MAX_OPTION;
	for (size_t j = i + 1; j < to; j++) {
		char ch = w->in[j];
		if (ch == '\\')
			j++;
		else if (ch == '{')
			depth++;
		else if (ch == '}')
			depth--;
		else if (ch == ']' && depth <= 0)
			return j + 1;
	}
	return NONE;
}

/* arg_end: past the argument at in[i] (spaces first): a group, a command
 * or one character; NONE if there is none (the end, or an unclosed or
 * closing brace). */
static size_t arg_end(const struct rw *w, size_t i, size_t to)
{
	i = skip_space(w, i, to);
	if (i >= to || w->in[i] == '}')
		return NONE;
	if (w->in[i] == '{')
		return group_end(w, i, to);
	if (w->in[i] == '\\')
		return cs_end(w, i, to);
	i++;
	while (i < to && ((unsigned char)w->in[i] & 0xC0) == 0x80)
		i++;
	return i;
}

static int name_is(const struct rw *w, size_t i, size_t e, const char *name)
{
	size_t n = strlen(name);
	return e - i == n && memcmp(w->in + i, name, n) == 0;
}

static int cmp_cmd(const void *key, const void *elt)
{
	const struct str *k = key;
	const char *name = *(const char *const *)elt;
	size_t n = strlen(name);
	int c = strncmp(k->p, name, k->len < n ? k->len : n);
	return c ? c : (k->len > n) - (k->len < n);
}

static const struct cmd *find_cmd(const struct rw *w, size_t i, size_t e)
{
	struct str k = {w->in + i, e - i};
	return bsearch(&k, cmds, sizeof cmds / sizeof *cmds, sizeof *cmds, cmp_cmd);
}

static const struct arity *find_arity(const struct rw *w, size_t i, size_t e)
{
	struct str k = {w->in + i, e - i};
	return bsearch(&k, arities, sizeof arities / sizeof *arities, sizeof *arities, cmp_cmd);
}

/* script_end: past the command at in[i] and the arguments it takes, if
 * KaTeX refuses it as a bare sub- or superscript (a function, or one that
 * is rewritten here); else NONE. */
static size_t script_end(const struct rw *w, size_t i, size_t to)
{
	size_t e = cs_end(w, i, to);
	const struct arity *a = find_arity(w, i + 1, e);
	const struct cmd *c = find_cmd(w, i + 1, e);
	if (!a && !c)
		return NONE;
	int args = a                                             ? a->args
	           : c->kind == K_UNWRAP || c->kind == K_RENAME ? c->args
	           : c->kind == K_DROP1 || c->kind == K_TEXT || c->kind == K_UNICODE || c->kind == K_ENVARG
	               ? 1
	               : 0;
	if (args < 0) {
		size_t j = skip_space(w, e, to);
		if (j < to && w->in[j] == '[' && (j = opt_end(w, j, to)) != NONE)
			e = j;
		args = 1;
	}
	if (c && c->kind == K_UNWRAP) {
		size_t j = skip_space(w, e, to);
		if (j < to && w->in[j] == '[' && (j = opt_end(w, j, to)) != NONE)
			e = j;
	}
	for (int k = 0; k < args; k++) {
		size_t j = arg_end(w, e, to);
		if (j == NONE)
			break;
		e = j;
	}
	return e;
}

static void scan(struct rw *w, size_t i, size_t to, enum mode mode, int depth);

/* scan_arg: the argument [a, e) rewritten: a group's inside between
 * braces, another argument braced. */
static void scan_arg(struct rw *w, size_t a, size_t e, enum mode mode, int depth)
{
	a = skip_space(w, a, e);
	if (w->in[a] == '{') {
		emit(w, "{", 1, a);
		scan(w, a + 1, e - 1, mode, depth + 1);
		emit(w, "}", 1, e - 1);
	} else {
		emit(w, "{", 1, a);
		scan(w, a, e, mode, depth + 1);
		emit(w, "}", 1, e > a ? e - 1 : a);
	}
}

/* put_utf8: the code point cp as UTF-8; 0 if it is none a page can hold. */
static int put_utf8(struct rw *w, unsigned long cp, size_t src)
{
	char b[4];
	size_t n;
	if (cp == 0 || (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF)
		return 0;
	if (cp < 0x80) {
		b[0] = (char)cp;
		n = 1;
	} else if (cp < 0x800) {
		b[0] = (char)(0xC0 | (cp >> 6));
		b[1] = (char)(0x80 | (cp & 0x3F));
		n = 2;
	} else if (cp < 0x10000) {
		b[0] = (char)(0xE0 | (cp >> 12));
		b[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		b[2] = (char)(0x80 | (cp & 0x3F));
		n = 3;
	} else {
		b[0] = (char)(0xF0 | (cp >> 18));
		b[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
		b[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
		b[3] = (char)(0x80 | (cp & 0x3F));
		n = 4;
	}
	emit(w, b, n, src);
	return 1;
}

/* unicode: \unicode[opt]{N} at in[i] (e past its name): the character, and
 * where the scan goes on; NONE if it is not one MathJax would draw. */
static size_t unicode(struct rw *w, size_t i, size_t e, size_t to)
{
	size_t j = skip_space(w, e, to);
	if (j < to && w->in[j] == '[' && (j = opt_end(w, j, to)) == NONE)
		return NONE;
	j = skip_space(w, j, to);
	size_t g = j < to && w->in[j] == '{' ? group_end(w, j, to) : NONE;
	if (g == NONE)
		return NONE;
	size_t k = skip_space(w, j + 1, g - 1);
	int base = 10;
	if (k + 1 < g - 1 && w->in[k] == '0' && (w->in[k + 1] == 'x' || w->in[k + 1] == 'X'))
		k += 2, base = 16;
	else if (k < g - 1 && (w->in[k] == 'x' || w->in[k] == 'X'))
		k++, base = 16;
	unsigned long cp = 0;
	size_t digits = 0;
	for (; k < g - 1 && digits < 8; k++, digits++) {
		char ch = w->in[k];
		int d = ch >= '0' && ch <= '9' ? ch - '0'
		        : base == 16 && ch >= 'a' && ch <= 'f' ? ch - 'a' + 10
		        : base == 16 && ch >= 'A' && ch <= 'F' ? ch - 'A' + 10
		                                               : -1;
		if (d < 0)
			break;
		cp = cp * (unsigned long)base + (unsigned long)d;
	}
	if (!digits || skip_space(w, k, g - 1) != g - 1)
		return NONE;
	return put_utf8(w, cp, i) ? g : NONE;
}

/* newcmd: \newcommand{\name}[n]{body} (or \newcommand\name...) at in[i]
 * as \def\name#1..#n{body}; NONE if it has another form (a default
 * argument: KaTeX takes it as it is). */
static size_t newcmd(struct rw *w, size_t i, size_t e, size_t to, int depth)
{
	size_t j = skip_space(w, e, to), n0, n1, after;
	if (j < to && w->in[j] == '{') {
		after = group_end(w, j, to);
		if (after == NONE)
			return NONE;
		n0 = skip_space(w, j + 1, after - 1);
		if (n0 >= after - 1 || w->in[n0] != '\\')
			return NONE;
		n1 = cs_end(w, n0, after - 1);
		if (skip_space(w, n1, after - 1) != after - 1)
			return NONE;
	} else if (j < to && w->in[j] == '\\') {
		n0 = j;
		after = n1 = cs_end(w, j, to);
	} else {
		return NONE;
	}
	int nargs = 0;
	j = skip_space(w, after, to);
	if (j < to && w->in[j] == '[') {
		size_t o = opt_end(w, j, to);
		size_t d = skip_space(w, j + 1, to);
		if (o == NONE || d + 2 != o || w->in[d] < '0' || w->in[d] > '9')
			return NONE;
		nargs = w->in[d] - '0';
		j = skip_space(w, o, to);
		if (j < to && w->in[j] == '[')
			return NONE;
	}
	size_t b = arg_end(w, j, to);
	if (b == NONE)
		return NONE;
	emits(w, "\\def", i);
	copy(w, n0, n1);
	for (int k = 1; k <= nargs; k++) {
		char p[3] = {'#', (char)('0' + k), 0};
		emits(w, p, i);
	}
	scan_arg(w, j, b, MATH, depth);
	return b;
}

/* declop: \DeclareMathOperator{\name}{text} (or *) at in[i] as
 * \def\name{\operatorname{text}}; NONE if it has another form. */
static size_t declop(struct rw *w, size_t i, size_t e, size_t to, int depth)
{
	size_t j = skip_space(w, e, to);
	int star = j < to && w->in[j] == '*';
	if (star)
		j++;
	size_t ne = arg_end(w, j, to);
	if (ne == NONE)
		return NONE;
	size_t n0 = skip_space(w, j, ne), n1;
	if (w->in[n0] == '{')
		n0 = skip_space(w, n0 + 1, ne - 1);
	if (n0 >= ne || w->in[n0] != '\\')
		return NONE;
	n1 = cs_end(w, n0, ne);
	size_t te = arg_end(w, ne, to);
	if (te == NONE)
		return NONE;
	emits(w, "\\def", i);
	copy(w, n0, n1);
	emits(w, star ? "{\\operatorname*" : "{\\operatorname", i);
	scan_arg(w, ne, te, MATH, depth);
	emit(w, "}", 1, te - 1);
	return te;
}

/* buildrel: \buildrel top \over rel at in[i] as \stackrel{top}{rel}; NONE
 * without its \over. */
static size_t buildrel(struct rw *w, size_t i, size_t e, size_t to, int depth)
{
	int level = 0;
	for (size_t j = e; j < to; j++) {
		char ch = w->in[j];
		if (ch == '{')
			level++;
		else if (ch == '}' && --level < 0)
			return NONE;
		else if (ch == '\\') {
			size_t ce = cs_end(w, j, to);
			if (level == 0 && name_is(w, j + 1, ce, "over")) {
				size_t r = arg_end(w, ce, to);
				if (r == NONE)
					return NONE;
				emits(w, "\\stackrel{", i);
				scan(w, e, j, MATH, depth + 1);
				emit(w, "}", 1, j);
				scan_arg(w, ce, r, MATH, depth);
				return r;
			}
			j = ce - 1;
		}
	}
	return NONE;
}

/* environment: \begin{name} or \end{name} at in[i] with a renamed
 * environment: written renamed, and where the scan goes on; else NONE. */
static size_t environment(struct rw *w, size_t i, size_t e, size_t to, int begin)
{
	size_t j = skip_space(w, e, to);
	size_t g = j < to && w->in[j] == '{' ? group_end(w, j, to) : NONE;
	if (g == NONE)
		return NONE;
	for (size_t k = 0; k < sizeof envs / sizeof *envs; k++) {
		if (!name_is(w, j + 1, g - 1, envs[k].from) || (envs[k].inline_only && w->display))
			continue;
		emits(w, begin ? "\\begin{" : "\\end{", i);
		if (begin)
			emits(w, envs[k].to, j + 1);
		else
			emit(w, envs[k].to, strcspn(envs[k].to, "}"), j + 1);
		emit(w, "}", 1, g - 1);
		return g;
	}
	return NONE;
}

/* rewrite: the command c at in[i] (e past its name) rewritten; returns
 * where the scan goes on, or NONE if it has a form left as it is (for the
 * caller to copy). */
static size_t rewrite(struct rw *w, const struct cmd *c, size_t i, size_t e, size_t to, enum mode mode, int depth)
{
	size_t a, j;
	switch (c->kind) {
	case K_DROP1:
		return (a = arg_end(w, e, to)) == NONE ? NONE : a;
	case K_UNWRAP:
		j = skip_space(w, e, to);
		if (j < to && w->in[j] == '[' && (j = opt_end(w, j, to)) == NONE)
			return NONE;
		for (int k = 1; k < c->args; k++)
			if ((j = arg_end(w, j, to)) == NONE)
				return NONE;
		if ((a = arg_end(w, j, to)) == NONE)
			return NONE;
		scan_arg(w, j, a, mode, depth);
		return a;
	case K_TEXT:
		if ((a = arg_end(w, e, to)) == NONE)
			return NONE;
		emits(w, "\\", i);
		if (c->to)
			emits(w, c->to, i);
		else
			copy(w, i + 1, e);
		scan_arg(w, e, a, TEXT, depth);
		return a;
	case K_RENAME:
		emits(w, "\\", i);
		emits(w, c->to, i);
		return e;
	case K_SWITCH:
		emits(w, "\\", i);
		emits(w, c->to, i);
		emit(w, "{", 1, i);
		scan(w, e, to, mode, depth + 1);
		emit(w, "}", 1, to);
		return to;
	case K_UNICODE:
		return unicode(w, i, e, to);
	case K_ENVARG:
		j = skip_space(w, e, to);
		if ((a = arg_end(w, j, to)) == NONE || w->in[j] != '{')
			return NONE;
		emits(w, "\\begin{", i);
		emits(w, c->to, i);
		emit(w, "}", 1, i);
		int cr = w->cr;
		w->cr = 1;
		scan(w, j + 1, a - 1, MATH, depth + 1);
		w->cr = cr;
		emits(w, "\\end{", a - 1);
		emits(w, c->to, a - 1);
		emit(w, "}", 1, a - 1);
		return a;
	case K_NEWCMD:
		return newcmd(w, i, e, to, depth);
	case K_DECLOP:
		return declop(w, i, e, to, depth);
	case K_BUILDREL:
		return buildrel(w, i, e, to, depth);
	case K_TAG:
		if (w->display)
			return NONE;
		j = skip_space(w, e, to);
		int star = j < to && w->in[j] == '*';
		if ((a = arg_end(w, star ? j + 1 : j, to)) == NONE)
			return NONE;
		emits(w, star ? "\\qquad\\text" : "\\qquad\\text{(", i);
		scan_arg(w, star ? j + 1 : j, a, TEXT, depth);
		if (!star)
			emit(w, ")}", 2, a - 1);
		return a;
	case K_BEGIN:
	case K_END:
		return environment(w, i, e, to, c->kind == K_BEGIN);
	}
	return NONE;
}

/* command: the command at in[i] (e past its name), rewritten if it is one
 * of cmds; returns where the scan goes on, or NONE if it was left for the
 * caller to copy. */
static size_t command(struct rw *w, size_t i, size_t e, size_t to, enum mode mode, int depth)
{
	const struct cmd *c = find_cmd(w, i + 1, e);
	if (!c)
		return NONE;
	size_t r = rewrite(w, c, i, e, to, mode, depth);
	/* a text command that keeps its name is a rewrite only if its
	 * argument changed (counted there) */
	if (r != NONE && !(c->kind == K_TEXT && !c->to))
		w->changes++;
	return r;
}

/* text_math: the $...$ at in[i] inside a text argument, its formula
 * scanned as math; NONE without its closing $. */
static size_t text_math(struct rw *w, size_t i, size_t to, int depth)
{
	for (size_t j = i + 1; j < to; j++) {
		if (w->in[j] == '\\')
			j++;
		else if (w->in[j] == '$') {
			emit(w, "$", 1, i);
			scan(w, i + 1, j, MATH, depth + 1);
			emit(w, "$", 1, j);
			return j + 1;
		}
	}
	return NONE;
}

/* scan: in[i..to) rewritten into w, as math or as the argument of a text
 * command (where _ & # % are escaped, as MathJax's text mode prints them). */
static void scan(struct rw *w, size_t i, size_t to, enum mode mode, int depth)
{
	if (depth > MATHJAX_MAX_DEPTH) {
		copy(w, i, to);
		return;
	}
	while (i < to) {
		char ch = w->in[i];
		size_t e, n;
		if (ch == '\\') {
			e = cs_end(w, i, to);
			if (mode == MATH && w->cr && name_is(w, i + 1, e, "cr")) {
				emits(w, "\\\\", i);
				w->changes++;
				i = e;
				continue;
			}
			n = is_letter(w->in[i + 1 < to ? i + 1 : i]) ? command(w, i, e, to, mode, depth) : NONE;
			if (n != NONE) {
				i = n;
				continue;
			}
			copy(w, i, e);
			i = e;
		} else if (ch == '{' && (e = group_end(w, i, to)) != NONE) {
			emit(w, "{", 1, i);
			scan(w, i + 1, e - 1, mode, depth + 1);
			emit(w, "}", 1, e - 1);
			i = e;
		} else if (mode == MATH && (ch == '_' || ch == '^')) {
			copy(w, i, i + 1);
			size_t j = skip_space(w, i + 1, to);
			if (j + 1 < to && w->in[j] == '\\' && is_letter(w->in[j + 1]) &&
			    (e = script_end(w, j, to)) != NONE) {
				copy(w, i + 1, j);
				emit(w, "{", 1, j);
				scan(w, j, e, MATH, depth + 1);
				emit(w, "}", 1, e - 1);
				w->changes++;
				i = e;
			} else {
				i++;
			}
		} else if (mode == MATH && ch == '%') {
			for (e = i; e < to && w->in[e] != '\n'; e++)
				;
			copy(w, i, e);
			i = e;
		} else if (mode == TEXT && ch == '$' && (e = text_math(w, i, to, depth)) != NONE) {
			i = e;
		} else if (mode == TEXT && (ch == '_' || ch == '&' || ch == '#' || ch == '%')) {
			char esc[2] = {'\\', ch};
			emit(w, esc, 2, i);
			w->changes++;
			i++;
		} else if (mode == TEXT && ch == '^') {
			emits(w, "\\textasciicircum{}", i);
			w->changes++;
			i++;
		} else {
			copy(w, i, i + 1);
			i++;
		}
	}
}

int mathjax_rewrite(const char *tex, size_t len, int display, struct buf *out, struct buf *map)
{
	if (len >= NO_CLOSE)
		return 0;
	struct rw w = {tex, len, display != 0, 0, 0, out, map, NULL};
	size_t out0 = out->len, map0 = map->len;
	find_closes(&w);
	scan(&w, 0, len, MATH, 0);
	free(w.close);
	if (!w.changes) {
		out->len = out0;
		map->len = map0;
		if (out->p)
			out->p[out0] = 0;
	}
	return w.changes;
}
