/* internal.h: the template engine's tokens, tree and render state, shared by
 * lex.c, parse.c, eval.c, filters.c and value.c. Not for use outside src/tmpl. */
#ifndef FOLIO_TMPL_INTERNAL_H
#define FOLIO_TMPL_INTERNAL_H

#include "tmpl/tmpl.h"
#include "base/index.h"

#include <stdatomic.h>

/* ---- Tokens (lex.c) ---- */

enum tok_kind {
	TK_EOF,
	TK_TEXT,     /* literal text between tags */
	TK_VAR_BEGIN, /* {{ */
	TK_VAR_END,   /* }} */
	TK_STMT_BEGIN, /* {% */
	TK_STMT_END,   /* %} */
	TK_NAME,
	TK_STRING, /* s holds the unescaped value (arena) */
	TK_INT,
	TK_FLOAT,
	TK_OP /* op holds the operator */
};

enum op {
	OP_NONE,
	OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_FLOORDIV, OP_MOD, OP_POW, OP_CONCAT,
	OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE, OP_IN, OP_NOT_IN,
	OP_ASSIGN, OP_DOT, OP_COMMA, OP_COLON, OP_PIPE,
	OP_LPAREN, OP_RPAREN, OP_LBRACKET, OP_RBRACKET, OP_LBRACE, OP_RBRACE,
	OP_NOT, OP_NEG, OP_POS
};

struct token {
	enum tok_kind kind;
	enum op op;
	int line, col;
	struct str s; /* text, name, or string value */
	int64_t i;
	double f;
};

struct tmpl;
/* tmpl_lex: tokenizes t->src. Returns the tokens (arena) ending in TK_EOF,
 * and their count in *n. Errors go to d; returns NULL after one. */
struct token *tmpl_lex(struct arena *a, struct tmpl *t, struct diag *d, size_t *n);

/* ---- Tree (parse.c) ---- */

enum expr_kind {
	E_LIT,
	E_NAME,
	E_ATTR,   /* a.name */
	E_INDEX,  /* a[b] */
	E_CALL,   /* a(args) */
	E_FILTER, /* a | name(args) */
	E_TEST,   /* a is [not] name(args) */
	E_UNARY,  /* op a: not, -, + */
	E_BINARY, /* a op b */
	E_AND,
	E_OR,
	E_COND, /* a if b else c (c may be NULL) */
	E_LIST,
	E_MAP /* args are alternating key, value */
};

struct filter_def;

struct expr {
	enum expr_kind kind;
	enum op op;
	int negate; /* E_TEST: `is not` */
	int line, col;
	struct tval lit;
	struct str name;
	struct expr *a, *b, *c;
	struct expr **args;
	struct str *kwnames; /* parallel to args: a keyword, or len 0 */
	size_t nargs;
	const struct filter_def *filter; /* E_FILTER: resolved when parsed */
	int depth;                       /* 1 for a leaf; at most TMPL_MAX_EXPR_DEPTH */
	/* E_ATTR and E_NAME: the hash of name (hash_bytes), made when parsed,
	 * and where the key was in the last map it was looked up in (an
	 * inline cache: the maps of one kind are built in one order, so the
	 * next post's map has it at the same place; a hint, read and written
	 * by several renders at once, hence relaxed atomics) */
	uint64_t hash;
	_Atomic uint32_t hint;
};

/* Expressions deeper than this are a syntax error: the parser and the
 * evaluator recurse on the tree, and "((((...1" must not exhaust the stack. */
#define TMPL_MAX_EXPR_DEPTH 200

enum node_kind {
	N_TEXT,
	N_OUTPUT,
	N_IF,
	N_FOR,
	N_SET,
	N_SET_BLOCK,
	N_INCLUDE,
	N_BLOCK,
	N_MACRO,
	N_IMPORT,      /* import "x" as name */
	N_FROM_IMPORT, /* from "x" import a, b as c */
	N_BREAK,
	N_CONTINUE,
	N_EXTENDS
};

struct node;
struct body {
	struct node **v;
	size_t n;
};

/* A callable value (TV_FUNC): a macro or a built-in function. */
enum func_kind { F_MACRO, F_RANGE, F_SUPER, F_NAMESPACE };

struct macro;
struct tfunc {
	enum func_kind kind;
	const struct macro *m; /* F_MACRO */
};

struct macro {
	struct tfunc fn; /* the macro as a value: {F_MACRO, this macro} */
	struct str name;
	struct str *params;
	struct expr **defaults; /* NULL entry: required */
	size_t nparams;
	struct body body;
	const struct tmpl *owner;
	int line, col;
	/* memo.c: whether a call may be remembered (memo), and the names the
	 * body reads that are neither its parameters nor loop variables
	 * (free, with their hashes), found when the macro is parsed */
	int memo;
	struct str *free;
	uint64_t *free_hash;
	size_t nfree;
};

struct node {
	enum node_kind kind;
	int line, col;
	struct str text;        /* N_TEXT; N_BLOCK name; N_IMPORT alias */
	struct expr *e;         /* output, for iterable, set value, include/import name, extends */
	/* N_IF: conds[i] guards bodies[i]; else_body when none holds */
	struct expr **conds;
	struct body *bodies;
	size_t nconds;
	struct body body, else_body;
	/* N_FOR: targets (1 or 2), optional filter `if cond` (in e2) */
	struct str targets[2];
	int ntargets;
	struct expr *e2;
	/* N_SET: target name, optional attribute (ns.attr) */
	struct str attr;
	/* N_INCLUDE: ignore missing; without context (sees only the globals) */
	int ignore_missing;
	int without_context;
	/* N_MACRO */
	struct macro *macro;
	/* N_FROM_IMPORT: names and aliases */
	struct str *names, *aliases;
	size_t nnames;
};

/* A parsed template. */
struct tmpl {
	const char *name; /* "post.html" */
	const char *path; /* "templates/post.html" */
	const char *src;
	size_t len;
	struct body root;
	const struct node *extends; /* NULL, or the N_EXTENDS node (e: the parent's name) */
	int has_errors;
	uint32_t dep; /* recorded by renders that use it (0: none) */
	size_t pos;   /* its place in env->tmpls */
	/* blocks defined in this template (nested ones included), by name */
	struct node **blocks;
	size_t nblocks;
	/* macros defined at top level */
	struct macro **macros;
	size_t nmacros;
};

/* tmpl_src_pos: the line and column of p, a pointer into t->src (names and
 * keywords of the tree point there). */
void tmpl_src_pos(const struct tmpl *t, const char *p, int *line, int *col);

/* ---- Filters (filters.c) ---- */

#define FILTER_MAX_PARAMS 6
struct filter_def {
	const char *name;
	tmpl_filter_fn fn;
	const char *params[FILTER_MAX_PARAMS];
	int nparams, nrequired;
	int keeps_undefined; /* `default`: receives undefined input without error */
	int variant;         /* which of the filters one function serves this is (upper, lower, ...): FILTER_VARIANT */
	int str_in;          /* the input is a string (filter_input_str): the filter reads in->u.s */
	int host;            /* added by the host (tmpl_env_add_filter): it may read anything */
};

struct tmpl_call;
/* filter_input_str: the input of a str_in filter made a string: a
 * number, boolean or none as its text; anything else is an error ("the
 * input must be a string, not a list"): -1. */
int filter_input_str(struct tmpl_call *c, struct tval *in);

/* FILTER_VARIANT: the variant of the filter a call runs. */
#define FILTER_VARIANT(c) ((c)->e->filter->variant)

/* filter_parse_params: fills def->params from "a,b?,c?". */
void filter_parse_params(struct filter_def *def, const char *spec);
/* tmpl_builtin_filters: the built-in filters, ending with name == NULL. */
extern const struct filter_def tmpl_builtin_filters[];

/* ---- Tests (`is name`) ---- */
int tmpl_test_known(struct str name, int *nargs);

/* ---- The set ---- */

struct tmpl_env {
	struct arena *arena;
	struct tmpl **tmpls;
	size_t ntmpls, cap_tmpls;
	/* by name: positions in tmpls plus one, for a site with thousands
	 * of templates */
	struct index by_name;
	struct filter_def *filters;
	size_t nfilters;
	struct tmap *globals;
	uint32_t *global_deps; /* by position in globals (0: none), or NULL */
	uint32_t missing_dep;  /* recorded when a render looks for a template the set lacks */
	size_t nglobal_deps;
	char *base_url;
	struct str base_path; /* base_url's path ("/blog" of "https://x.org/blog/"),
	                       * without its trailing slashes: rel_url's base */
	int strict;
	size_t max_output;
	int max_depth;
	struct tmpl_locale locale; /* names NULL: English */
	uint32_t locale_dep;
};

const struct tmpl *tmpl_env_find(const struct tmpl_env *env, struct str name);
const struct filter_def *tmpl_env_filter(const struct tmpl_env *env, struct str name);

/* ---- Values (value.c) ---- */

/* The recorder of this thread's renders (tmpl_deps_record), or NULL. */
extern _Thread_local struct tmpl_deps *tmpl_deps_current;
void tmpl_deps_add(struct tmpl_deps *r, uint32_t id);

/* tmap_get_at, tval_attr_at: tmap_get and tval_attr for an expression's
 * name, with its hash (expr.hash) and its inline cache (expr.hint). */
const struct tval *tmap_get_at(const struct tmap *m, struct str key, uint64_t h, _Atomic uint32_t *hint);
int tval_attr_at(const struct tval *v, struct str key, uint64_t h, _Atomic uint32_t *hint, struct tval *out,
		 struct arena *a);

/* tmap_touch: records that a render read the whole of m (iterated it,
 * took its length, wrote it as JSON, compared it). */
static inline void tmap_touch(const struct tmap *m)
{
	if (m->dep && tmpl_deps_current)
		tmpl_deps_add(tmpl_deps_current, m->dep);
}

/* tmap_touch_key: records that a render looked up the key at pos of m
 * (-1: a key m does not have, which depends on all of it). */
static inline void tmap_touch_key(const struct tmap *m, long pos)
{
	if (m->dep && tmpl_deps_current)
		tmpl_deps_add(tmpl_deps_current,
		              pos >= 0 && pos < TMPL_DEP_FIELDS ? m->dep + 1 + (uint32_t)pos : m->dep);
}


/* tval_equal: Jinja's ==: numbers by value, strings by bytes, lists and maps
 * deeply; different types are unequal, and so are values nested more than
 * 64 levels deep (the recursion must stay bounded). Each value looked at
 * adds one to *steps (a render's r->steps); past TMPL_MAX_STEPS the answer
 * is 0, and the caller reports the error (see tmpl_steps_over). */
int tval_equal(const struct tval *a, const struct tval *b, struct arena *ar, long *steps);
/* tval_compare: <0, 0, >0 for numbers and strings (and lists of them);
 * returns 0 and sets *ok = 0 when the types cannot be ordered (or nest
 * more than 64 levels deep, or *steps passes TMPL_MAX_STEPS, as above). */
int tval_compare(const struct tval *a, const struct tval *b, int *ok, long *steps);
/* tval_length: items of a list, map or sequence object; characters of a
 * string. -1 if v has no length. */
int64_t tval_length(const struct tval *v);
/* tval_item: item i of a list or sequence object. */
int tval_item(const struct tval *v, size_t i, struct tval *out, struct arena *a);
/* tval_attr: field `key` of a map or object (and list/str index helpers). 1 if found. */
int tval_attr(const struct tval *v, struct str key, struct tval *out, struct arena *a);
/* tval_as_list: a list of the items of v (list, sequence object, map keys,
 * string characters). 0 if v cannot be iterated. */
int tval_as_list(const struct tval *v, struct arena *a, struct tlist **out);
/* tval_text: v as a string in the arena (see tval_to_text): a string is
 * itself; text made for any other value may be at most limit bytes, or
 * the result is -1 (and *out empty). */
int tval_text(const struct tval *v, struct arena *a, size_t limit, struct str *out);
/* tval_number: 1 if v is an int or float (bools are not numbers here). */
int tval_is_number(const struct tval *v);
double tval_as_double(const struct tval *v);

/* utf8_len: the length of the UTF-8 sequence starting at s[0] (1 for an
 * invalid byte, so loops always advance). */
size_t utf8_len(const char *s, size_t n);
size_t utf8_count(struct str s);
/* utf8_offset: where character k of s starts (s.len if s is shorter). */
size_t utf8_offset(struct str s, size_t k);

/* ---- Macro calls remembered (memo.c) ---- */

/* memo_analyse: fills m's memo, free and free_hash from its body. */
void memo_analyse(struct arena *a, struct macro *m);
/* The memo of this thread's renders (tmpl_memo_use), or NULL. */
extern _Thread_local struct tmpl_memo *tmpl_memo_current;
/* memo_find: the text (and the dependency ids its render recorded) of the
 * call whose key is key[0..klen); 1 if found. with_deps: the ids are
 * wanted (an entry made without a recorder is not found). */
int memo_find(struct tmpl_memo *mm, const void *key, size_t klen, int with_deps, struct str *out,
	      const uint32_t **deps, size_t *ndeps);
/* memo_put: keeps a call's text and ids (copied), unless the memo is full. */
void memo_put(struct tmpl_memo *mm, const void *key, size_t klen, struct str out, const uint32_t *deps,
	      size_t ndeps, int with_deps);
/* tmpl_deps_capture_begin: from now on every id r records (even one it
 * has) is also kept in order, until the matching capture_end; returns the
 * mark to give it. Captures nest. capture_end: the ids kept since mark. */
size_t tmpl_deps_capture_begin(struct tmpl_deps *r);
const uint32_t *tmpl_deps_capture_end(struct tmpl_deps *r, size_t mark, size_t *n);

/* ---- Render state (eval.c) ---- */

struct scope;
struct call_frame {
	const struct tmpl *t;
	int line, col;
	const char *what; /* "included from here"; NULL: a macro's call */
	struct str macro; /* a macro's call: its name ("in macro 'x' called from
	                   * here" is written only for a message) */
};

#define TMPL_MAX_FRAMES 128
/* A render's budget of loop iterations and macro calls, and the fixed part
 * of its scratch memory budget (the rest is 4 times max_output). The fuzz
 * build lowers both (-D), so that a runaway loop ends within milliseconds. */
#ifndef TMPL_MAX_STEPS
#define TMPL_MAX_STEPS 100000000
#endif
/* Work on text and lists counts too, or a loop could run a filter over a
 * 60 MB string a million times: every TMPL_STEP_BYTES bytes of a string,
 * and every TMPL_STEP_ITEMS items of a list, that a filter, an operator or
 * a comparison goes through are one step. (At these rates the 10,000-post
 * benchmark site's largest page takes under 1% of the steps.) */
#define TMPL_STEP_BYTES 16
#define TMPL_STEP_ITEMS 4
#ifndef TMPL_MEMORY_BASE
#define TMPL_MEMORY_BASE ((size_t)128 << 20)
#endif

#define TMPL_CAPS 16 /* capture buffers kept; deeper ones are made and freed */
struct render {
	const struct tmpl_env *env;
	struct arena *a;
	struct buf *out;
	struct diag *d;
	int errors;
	int fatal;
	int depth;
	int loop_ctl; /* 1 break, 2 continue */
	long steps;        /* loop iterations and macro calls so far */
	size_t arena_base; /* arena_used(a) when the render started */
	const struct tmpl *cur; /* the template whose nodes are running */
	struct scope *top;      /* the render's top scope (vars, globals) */
	struct call_frame frames[TMPL_MAX_FRAMES];
	int nframes;
	/* inheritance: the block chain of the template being rendered */
	struct block_chain *blocks;
	const struct tval *vars;
	/* tmpl_render_pieces: the page's own buffer (a capture's is not),
	 * the long strings left out of it, and their bytes */
	struct buf *page;
	struct tmpl_pieces *pieces;
	size_t spliced;
	/* the buffers of captures (a macro's output, {% set %} ... {% endset %},
	 * super()), one per level of nesting, kept for the render's next
	 * capture at that level (capture_begin, capture_end) */
	struct buf caps[TMPL_CAPS];
	int ncaps;
	int memo_depth; /* macro calls being made to be kept in the memo */
};

struct tmpl_call {
	struct render *r;
	const struct expr *e;
	const struct tmpl *t;
};

/* tmpl_vreport: an error at line:col of template t to d, with nn notes
 * (the templates and calls that led there). */
void tmpl_vreport(struct diag *d, const struct tmpl *t, int line, int col, const struct diag_note *notes, size_t nn,
		  const char *fmt, va_list ap) __attribute__((format(printf, 7, 0)));
void render_error(struct render *r, const struct tmpl *t, int line, int col, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* tmpl_steps_over: -1, with the error (once) and the render stopped, if
 * r->steps has passed TMPL_MAX_STEPS (a comparison may have used them up);
 * else 0. */
int tmpl_steps_over(struct render *r, const struct tmpl *t, int line, int col);

#endif
