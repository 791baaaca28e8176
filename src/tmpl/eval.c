/* eval.c: renders a template tree: scopes, expressions, statements,
 * inheritance, includes, macros, and the error chain. Reentrant: all state
 * lives in struct render on the caller's stack. */
#include "internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A scope holds the variables set in one template, loop body or macro call. */
struct scope {
	struct scope *parent;
	struct str *names;
	struct tval *vals;
	size_t n, cap;
};

struct block_chain {
	const struct tmpl *t[128];
	int n;
	/* the block being rendered, for super() */
	struct str cur_name;
	int cur_level;
};

static const struct tfunc fn_range = {F_RANGE, NULL};
static const struct tfunc fn_super = {F_SUPER, NULL};
static const struct tfunc fn_namespace = {F_NAMESPACE, NULL};

static void exec_body(struct render *r, const struct body *b, struct scope *s);

/* ---- errors ---- */

/* same_frame: whether a and b are one call (the same place, the same words) */
static int same_frame(const struct call_frame *a, const struct call_frame *b)
{
	return a->t == b->t && a->line == b->line && a->col == b->col && !a->what == !b->what &&
	       (a->what ? !strcmp(a->what, b->what) : str_eq(a->macro, b->macro));
}

/* render_error: the error, with a note per call that led to it, the
 * innermost first. A call made again and again (a recursion: 100 frames
 * of one macro calling itself) is one note that says how many times, not
 * a hundred notes of one line. */
void render_error(struct render *r, const struct tmpl *t, int line, int col, const char *fmt, ...)
{
	struct diag_note notes[TMPL_MAX_FRAMES];
	int times[TMPL_MAX_FRAMES], first[TMPL_MAX_FRAMES];
	size_t nn = 0;
	for (int i = r->nframes - 1; i >= 0; i--) {
		const struct call_frame *f = &r->frames[i];
		size_t k = 0;
		while (k < nn && !same_frame(&r->frames[first[k]], f))
			k++;
		if (k < nn) {
			times[k]++;
			continue;
		}
		first[nn] = i;
		times[nn] = 1;
		notes[nn++] = (struct diag_note){{f->t->path, f->t->src, f->t->len, f->line, f->col}, NULL};
	}
	struct buf words; /* the notes' words with their counts, at offsets */
	buf_init(&words);
	size_t at[TMPL_MAX_FRAMES];
	for (size_t k = 0; k < nn; k++) {
		const struct call_frame *f = &r->frames[first[k]];
		at[k] = words.len;
		if (f->what)
			buf_puts(&words, f->what);
		else
			buf_printf(&words, "in macro '%.*s' called from here", STR_FMT(f->macro));
		if (times[k] > 1)
			buf_printf(&words, ", %d times (a recursion)", times[k]);
		buf_putc(&words, '\0');
	}
	for (size_t k = 0; k < nn; k++)
		notes[k].msg = words.p + at[k];
	va_list ap;
	va_start(ap, fmt);
	tmpl_vreport(r->d, t, line, col, notes, nn, fmt, ap);
	va_end(ap);
	buf_fini(&words);
	/* past the errors a file may show, the render stops: the same error
	 * in a loop of 458,329 iterations (found by fuzzing) took 2 s and
	 * 400 MB to report, once */
	if (++r->errors > DIAG_MAX_FILE_ERRORS)
		r->fatal = 1;
}

static void expr_error(struct render *r, const struct expr *e, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void expr_error(struct render *r, const struct expr *e, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	render_error(r, r->cur, e->line, e->col, "%s", msg);
}

static int push_frame(struct render *r, const struct tmpl *t, int line, int col, const char *what)
{
	if (r->depth >= r->env->max_depth || r->nframes >= TMPL_MAX_FRAMES) {
		render_error(r, t, line, col, "templates nested deeper than %d levels (a recursive include or macro?)",
			     r->env->max_depth < TMPL_MAX_FRAMES ? r->env->max_depth : TMPL_MAX_FRAMES);
		r->fatal = 1;
		return -1;
	}
	r->frames[r->nframes].t = t;
	r->frames[r->nframes].line = line;
	r->frames[r->nframes].col = col;
	r->frames[r->nframes].what = what;
	r->frames[r->nframes].macro = (struct str){NULL, 0};
	r->nframes++;
	r->depth++;
	return 0;
}

static void pop_frame(struct render *r)
{
	r->nframes--;
	r->depth--;
}

static int lookup(struct render *r, struct scope *s, struct str name, struct tval *out);
static int lookup_at(struct render *r, struct scope *s, struct str name, uint64_t h, _Atomic uint32_t *hint,
		     struct tval *out);

/* suggest_name: the name in reach of scope s closest to name, for "did you
 * mean": variables of the scopes, macros of the running template, the
 * render's variables, globals and built-ins. NULL if none is close. */
static const char *suggest_name(struct render *r, struct scope *s, struct str name)
{
	enum { MAX_CAND = 512 }; /* edit distance is quadratic: a big map needs no full scan */
	const char **cand = arena_alloc(r->a, (MAX_CAND + 1) * sizeof *cand);
	size_t k = 0;
#define ADD(p_, n_)                                                                                \
	do {                                                                                       \
		if (k < MAX_CAND)                                                                  \
			cand[k++] = arena_strndup(r->a, (p_), (n_));                               \
	} while (0)
	for (; s; s = s->parent)
		for (size_t i = 0; i < s->n; i++)
			ADD(s->names[i].p, s->names[i].len);
	for (size_t i = 0; r->cur && i < r->cur->nmacros; i++)
		ADD(r->cur->macros[i]->name.p, r->cur->macros[i]->name.len);
	if (r->vars && r->vars->kind == TV_MAP)
		for (size_t i = 0; i < r->vars->u.map->len; i++)
			ADD(r->vars->u.map->keys[i].p, r->vars->u.map->keys[i].len);
	else if (r->vars && r->vars->kind == TV_OBJ && r->vars->u.obj.cls->fields)
		for (size_t i = 0; r->vars->u.obj.cls->fields[i]; i++)
			ADD(r->vars->u.obj.cls->fields[i], strlen(r->vars->u.obj.cls->fields[i]));
	for (size_t i = 0; i < r->env->globals->len; i++)
		ADD(r->env->globals->keys[i].p, r->env->globals->keys[i].len);
	static const char *const builtins[] = {"range", "super", "namespace"};
	for (size_t i = 0; i < sizeof builtins / sizeof *builtins; i++)
		ADD(builtins[i], strlen(builtins[i]));
#undef ADD
	cand[k] = NULL;
	return diag_suggest(name.p, name.len, cand);
}

/* undefined_error: an undefined value was used where a value is needed;
 * s is the scope it was looked up in, for a suggestion. */
static struct str missing_message(struct render *r, const struct tmissing *m);

static void undefined_error(struct render *r, const struct expr *e, const struct tval *v, struct scope *s)
{
	if (v->safe == 2) { /* a missing field or item */
		struct str msg = missing_message(r, v->u.missing);
		expr_error(r, e, "%.*s", STR_FMT(msg));
		return;
	}
	if (v->safe) { /* u.s is a full message */
		expr_error(r, e, "%.*s", STR_FMT(v->u.s));
		return;
	}
	/* `x.y.z` with x undefined: point at x, the name that is missing */
	while (e->kind == E_ATTR || e->kind == E_INDEX)
		e = e->a;
	const char *sug = suggest_name(r, s, v->u.s);
	expr_error(r, e, "undefined variable '%.*s'%s%s%s", STR_FMT(v->u.s), sug ? " (did you mean '" : "",
		   sug ? sug : "", sug ? "'?)" : "");
}

/* ---- output ---- */

/* output_cap_error: the page outgrew max_output; the render stops. */
static void output_cap_error(struct render *r, int line, int col)
{
	render_error(r, r->cur, line, col, "output larger than %zu bytes (a runaway loop or recursion?)",
		     r->env->max_output);
	r->fatal = 1;
}

/* room: how many more bytes r->out may take (the caller's buffer may
 * already hold more than the cap). */
static size_t room(const struct render *r)
{
	size_t len = r->out->len + (r->out == r->page ? r->spliced : 0);
	return len < r->env->max_output ? r->env->max_output - len : 0;
}

/* add_piece: p[0..n) is a piece of the page (tmpl_render_pieces), to come
 * before what the page's buffer holds next. Out of line: emit, which
 * every run of text goes through, stays small. */
static __attribute__((noinline)) void add_piece(struct render *r, const char *p, size_t n)
{
	struct tmpl_pieces *ps = r->pieces;
	if (ps->n == ps->cap) {
		ps->cap = ps->cap ? 2 * ps->cap : 4;
		ps->v = xrealloc(ps->v, ps->cap * sizeof *ps->v);
	}
	ps->v[ps->n++] = (struct tmpl_piece){r->out->len, {p, n}};
	r->spliced += n;
}

/* emit: appends p[0..n) as is; line and col are where it comes from, for
 * the error when it would pass max_output. */
static inline __attribute__((always_inline)) void emit(struct render *r, const char *p, size_t n, int line, int col)
{
	if (r->fatal)
		return;
	if (n > room(r)) {
		output_cap_error(r, line, col);
		return;
	}
	if (n >= TMPL_PIECE_MIN && r->pieces && r->out == r->page) {
		add_piece(r, p, n);
		return;
	}
	buf_append(r->out, p, n);
}

/* emit_escaped: appends p[0..n) escaped for HTML. The cap counts the
 * escaped bytes, which may be up to 6 times as many. */
static void emit_escaped(struct render *r, const char *p, size_t n, int line, int col)
{
	if (r->fatal)
		return;
	size_t before = r->out->len, limit = room(r);
	if (n > limit) {
		output_cap_error(r, line, col);
		return;
	}
	buf_put_html(r->out, p, n);
	if (r->out->len - before > limit) {
		r->out->len = before;
		r->out->p[before] = '\0';
		output_cap_error(r, line, col);
	}
}

/* charge_step: counts one loop iteration or macro call. A render that
 * runs more than TMPL_MAX_STEPS of them, or whose scratch memory grows
 * past a budget, is stopped: nested loops over range() that print nothing
 * would otherwise hang the build, and a list that doubles in a loop would
 * exhaust memory long before the output cap is reached. */
static int charge_step(struct render *r, int line, int col)
{
	if (++r->steps > TMPL_MAX_STEPS) {
		render_error(r, r->cur, line, col, "more than %d loop iterations and macro calls (a runaway loop?)",
			     TMPL_MAX_STEPS);
		r->fatal = 1;
		return -1;
	}
	size_t budget = r->env->max_output > (SIZE_MAX - TMPL_MEMORY_BASE) / 4
				? SIZE_MAX
				: r->env->max_output * 4 + TMPL_MEMORY_BASE;
	if (arena_used(r->a) - r->arena_base > budget) {
		render_error(r, r->cur, line, col, "the render used more than %zu bytes of memory (a runaway loop?)",
			     budget);
		r->fatal = 1;
		return -1;
	}
	return 0;
}

/* charge_work: n bytes of text and k items of lists gone through, as steps
 * (see TMPL_STEP_BYTES); tmpl_steps_over then says if they ran out. */
static inline void charge_work(struct render *r, size_t bytes, size_t items)
{
	r->steps += (long)(bytes / TMPL_STEP_BYTES + items / TMPL_STEP_ITEMS);
}

/* value_work: what going through v once costs (a string's bytes, a list's
 * items; a map or object is looked up, not gone through). */
static void value_work(struct render *r, const struct tval *v)
{
	if (v->kind == TV_STR)
		charge_work(r, v->u.s.len, 0);
	else if (v->kind == TV_LIST)
		charge_work(r, 0, v->u.list->len);
}

int tmpl_steps_over(struct render *r, const struct tmpl *t, int line, int col)
{
	if (r->steps <= TMPL_MAX_STEPS)
		return 0;
	if (!r->fatal) {
		render_error(r, t, line, col,
			     "more than %d steps of work: loop iterations, macro calls, values compared, and "
			     "each %d bytes or %d list items gone through (a runaway loop?)",
			     TMPL_MAX_STEPS, TMPL_STEP_BYTES, TMPL_STEP_ITEMS);
		r->fatal = 1;
	}
	return -1;
}

/* ---- scopes ---- */

static struct scope *scope_new(struct render *r, struct scope *parent)
{
	struct scope *s = arena_alloc(r->a, sizeof *s);
	s->parent = parent;
	return s;
}

static void scope_set(struct render *r, struct scope *s, struct str name, struct tval v)
{
	for (size_t i = 0; i < s->n; i++) {
		if (str_eq(s->names[i], name)) {
			s->vals[i] = v;
			return;
		}
	}
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 4;
		s->names = arena_realloc(r->a, s->names, s->cap * sizeof *s->names, cap * sizeof *s->names);
		s->vals = arena_realloc(r->a, s->vals, s->cap * sizeof *s->vals, cap * sizeof *s->vals);
		s->cap = cap;
	}
	s->names[s->n] = name;
	s->vals[s->n] = v;
	s->n++;
}

static struct tval macro_value(const struct macro *m)
{
	struct tval v = {.kind = TV_FUNC};
	v.u.func = &m->fn;
	return v;
}

/* lookup: a name, from the innermost scope out, then the top-level macros
 * of the running template (so an imported macro can call its neighbours,
 * and a macro can be called above its definition), the render's
 * variables, the globals and the built-in functions. */
static int lookup(struct render *r, struct scope *s, struct str name, struct tval *out)
{
	return lookup_at(r, s, name, hash_bytes(name.p, name.len), NULL, out);
}

/* lookup_at: lookup, with name's hash (h) and, when the name is an
 * expression's, its inline cache for the render's variables (hint). */
static int lookup_at(struct render *r, struct scope *s, struct str name, uint64_t h, _Atomic uint32_t *hint,
		     struct tval *out)
{
	for (; s; s = s->parent)
		for (size_t i = s->n; i-- > 0;)
			if (str_eq(s->names[i], name)) {
				*out = s->vals[i];
				return 1;
			}
	for (size_t i = 0; r->cur && i < r->cur->nmacros; i++)
		if (str_eq(r->cur->macros[i]->name, name)) {
			*out = macro_value(r->cur->macros[i]);
			return 1;
		}
	if (r->vars && (hint ? tval_attr_at(r->vars, name, h, hint, out, r->a) : tval_attr(r->vars, name, out, r->a)))
		return 1;
	_Atomic uint32_t ghint = 0;
	const struct tval *g = tmap_get_at(r->env->globals, name, h, &ghint);
	if (g) {
		size_t at = (size_t)(g - r->env->globals->vals);
		if (at < r->env->nglobal_deps)
			tmpl_deps_touch(r->env->global_deps[at]);
		*out = *g;
		return 1;
	}
	struct tval f = {.kind = TV_FUNC};
	if (str_eq_cstr(name, "range"))
		f.u.func = &fn_range;
	else if (str_eq_cstr(name, "super"))
		f.u.func = &fn_super;
	else if (str_eq_cstr(name, "namespace"))
		f.u.func = &fn_namespace;
	else
		return 0;
	*out = f;
	return 1;
}

/* ---- expressions ---- */

static int eval(struct render *r, const struct expr *e, struct scope *s, struct tval *out);

/* eval_defined: eval, then an error if the value is undefined. */
static int eval_defined(struct render *r, const struct expr *e, struct scope *s, struct tval *out)
{
	if (eval(r, e, s, out))
		return -1;
	if (out->kind == TV_UNDEF) {
		undefined_error(r, e, out, s);
		return -1;
	}
	return 0;
}

/* A missing field or item: what its message needs. Most are never
 * reported (`{% if post.image %}`, `is defined`, `default`), so the
 * message, with its suggestion, is made only when one is. */
struct tmissing {
	struct tval base;
	struct str key;
	int index;
};

/* undef_attr: the undefined value for a missing field `key` of basev (an
 * index when index is set). */
static struct tval undef_attr(struct render *r, const struct tval *basev, struct str key, int index)
{
	if (basev->kind == TV_UNDEF) {
		/* propagate: `a.b` where a is undefined is undefined as `a` */
		return *basev;
	}
	struct tmissing *m = arena_alloc(r->a, sizeof *m);
	m->base = *basev;
	m->key = (struct str){arena_strndup(r->a, key.p, key.len), key.len};
	m->index = index;
	struct tval u = tv_undef();
	u.u.missing = m;
	u.safe = 2;
	return u;
}

/* missing_message: the message of a missing field or item, in the
 * arena. */
static struct str missing_message(struct render *r, const struct tmissing *m)
{
	struct buf b;
	buf_init(&b);
	const struct tval *basev = &m->base;
	const char *sug = NULL;
	if (!m->index) {
		const char *cand[64];
		size_t k = 0;
		if (basev->kind == TV_MAP)
			for (size_t i = 0; i < basev->u.map->len && k < 63; i++)
				cand[k++] = arena_strndup(r->a, basev->u.map->keys[i].p, basev->u.map->keys[i].len);
		else if (basev->kind == TV_OBJ && basev->u.obj.cls->fields)
			for (size_t i = 0; basev->u.obj.cls->fields[i] && k < 63; i++)
				cand[k++] = basev->u.obj.cls->fields[i];
		cand[k] = NULL;
		sug = diag_suggest(m->key.p, m->key.len, cand);
	}
	if (m->index)
		buf_printf(&b, "no item [%.*s] in %s", STR_FMT(m->key), tval_type_name(basev));
	else
		buf_printf(&b, "%s has no attribute '%.*s'", tval_type_name(basev), STR_FMT(m->key));
	if (sug)
		buf_printf(&b, " (did you mean '%s'?)", sug);
	struct str msg = {arena_strndup(r->a, b.p ? b.p : "", b.len), b.len};
	buf_fini(&b);
	return msg;
}

static int get_attr(struct render *r, const struct tval *base, struct str key, struct tval *out)
{
	if (tval_attr(base, key, out, r->a))
		return 1;
	*out = undef_attr(r, base, key, 0);
	return 0;
}

static int get_index(struct render *r, const struct expr *e, const struct tval *base, const struct tval *idx,
		     struct tval *out)
{
	if (base->kind == TV_UNDEF) {
		*out = *base;
		return 0;
	}
	if (idx->kind == TV_STR && (base->kind == TV_MAP || base->kind == TV_OBJ)) {
		get_attr(r, base, idx->u.s, out);
		return 0;
	}
	if (idx->kind == TV_INT) {
		int64_t n = tval_length(base);
		int64_t i = idx->u.i;
		if (n >= 0 && i < 0)
			i += n;
		if (base->kind == TV_STR) {
			charge_work(r, base->u.s.len, 0); /* counted, then gone through */
			if (tmpl_steps_over(r, r->cur, e->line, e->col))
				return -1;
			if (i >= 0 && i < n) {
				size_t pos = utf8_offset(base->u.s, (size_t)i);
				struct str c = {base->u.s.p + pos, utf8_len(base->u.s.p + pos, base->u.s.len - pos)};
				*out = tv_str(c);
				return 0;
			}
		} else if (n >= 0 && i >= 0 && i < n && tval_item(base, (size_t)i, out, r->a)) {
			return 0;
		}
		char tmp[32];
		snprintf(tmp, sizeof tmp, "%lld", (long long)idx->u.i);
		if (n < 0 && base->kind != TV_STR) {
			expr_error(r, e, "cannot index %s with an integer", tval_type_name(base));
			return -1;
		}
		*out = undef_attr(r, base, str_from(tmp), 1);
		return 0;
	}
	expr_error(r, e, "cannot index %s with %s", tval_type_name(base), tval_type_name(idx));
	return -1;
}

/* concat_text: a ~ b (and "a" + "b") into *out. Markup joined with text
 * stays markup, with the text escaped. Longer than max_output is an error:
 * a string that doubles in a loop would exhaust memory. */
static int concat_text(struct render *r, const struct expr *e, const struct tval *a, const struct tval *b,
		       struct tval *out)
{
	int safe = (a->kind == TV_STR && a->safe) || (b->kind == TV_STR && b->safe);
	struct str t[2];
	size_t cap = r->env->max_output;
	if (tval_text(a, r->a, cap, &t[0]) || tval_text(b, r->a, cap, &t[1]) || t[0].len > cap ||
	    t[1].len > cap - t[0].len) {
		expr_error(r, e, "string longer than %zu bytes (a runaway loop?)", r->env->max_output);
		/* the render stops, as at the other runaway guards: a loop that
		 * went on would make its strings (and a map holding them) as
		 * text again at every step, a megabyte each (found by fuzzing) */
		r->fatal = 1;
		return -1;
	}
	charge_work(r, t[0].len + t[1].len, 0);
	if (tmpl_steps_over(r, r->cur, e->line, e->col))
		return -1;
	const struct tval *parts[2] = {a, b};
	struct buf buf;
	buf_init(&buf);
	for (int i = 0; i < 2; i++) {
		if (safe && !(parts[i]->kind == TV_STR && parts[i]->safe))
			buf_put_html(&buf, t[i].p, t[i].len);
		else
			buf_put_str(&buf, t[i]);
	}
	*out = tv_str((struct str){arena_strndup(r->a, buf.p ? buf.p : "", buf.len), buf.len});
	out->safe = (unsigned char)safe;
	buf_fini(&buf);
	return 0;
}

/* list_concat: a + b of two lists, under the cap of strings counted in
 * items. */
static int list_concat(struct render *r, const struct expr *e, const struct tval *a, const struct tval *b,
		       struct tval *out)
{
	/* the same cap as for strings, counted in items */
	if (a->u.list->len + b->u.list->len > r->env->max_output / sizeof(struct tval)) {
		expr_error(r, e, "list longer than %zu items (a runaway loop?)", r->env->max_output / sizeof(struct tval));
		return -1;
	}
	charge_work(r, 0, a->u.list->len + b->u.list->len);
	if (tmpl_steps_over(r, r->cur, e->line, e->col))
		return -1;
	struct tlist *l = tlist_new(r->a, a->u.list->len + b->u.list->len);
	for (size_t i = 0; i < a->u.list->len; i++)
		tlist_push(r->a, l, a->u.list->items[i]);
	for (size_t i = 0; i < b->u.list->len; i++)
		tlist_push(r->a, l, b->u.list->items[i]);
	*out = tv_list(l);
	return 0;
}

/* str_repeat: string a * integer b, under the cap. */
static int str_repeat(struct render *r, const struct expr *e, const struct tval *a, const struct tval *b,
		      struct tval *out)
{
	/* the count is not bounded by the cap when nothing is repeated:
	 * "" * 10000000000 is "" at once, not ten billion empty copies */
	size_t len = a->u.s.len;
	if (b->u.i <= 0 || !len) {
		*out = tv_str(STR_LIT(""));
		out->safe = a->safe;
		return 0;
	}
	if ((uint64_t)b->u.i > r->env->max_output / len) {
		expr_error(r, e, "string repeated into more than %zu bytes", r->env->max_output);
		return -1;
	}
	/* one copy, then the copies made so far copied after them */
	size_t total = len * (size_t)b->u.i;
	charge_work(r, total, 0);
	if (tmpl_steps_over(r, r->cur, e->line, e->col))
		return -1;
	char *p = arena_alloc(r->a, total + 1);
	memcpy(p, a->u.s.p, len);
	for (size_t have = len; have < total;) {
		size_t k = have < total - have ? have : total - have;
		memcpy(p + have, p, k);
		have += k;
	}
	*out = tv_str((struct str){p, total});
	out->safe = a->safe;
	return 0;
}

/* int_arith: x op y of two integers (not /, which gives a float), as
 * Python computes it: floor division and modulo toward minus infinity,
 * a negative power a float; an overflow is an error. */
static int int_arith(struct render *r, const struct expr *e, enum op op, int64_t x, int64_t y, struct tval *out)
{
	int64_t z = 0;
	int ovf = 0;
	switch (op) {
	case OP_ADD: ovf = __builtin_add_overflow(x, y, &z); break;
	case OP_SUB: ovf = __builtin_sub_overflow(x, y, &z); break;
	case OP_MUL: ovf = __builtin_mul_overflow(x, y, &z); break;
	case OP_FLOORDIV:
	case OP_MOD:
		if (y == 0) {
			expr_error(r, e, "division by zero");
			return -1;
		}
		if (x == INT64_MIN && y == -1) {
			ovf = 1;
			break;
		}
		z = op == OP_FLOORDIV ? x / y : x % y;
		/* Python's rounding: toward minus infinity */
		if (op == OP_FLOORDIV && (x % y != 0) && ((x < 0) != (y < 0)))
			z--;
		if (op == OP_MOD && z != 0 && ((z < 0) != (y < 0)))
			z += y;
		break;
	case OP_POW:
		if (y < 0) {
			*out = tv_float(pow((double)x, (double)y));
			return 0;
		}
		/* by squaring: a loop of y steps would hang on 1 ** 2**62. When the
		 * base overflows while exponent bits remain, so would the result
		 * (|x| >= 2 then). */
		z = 1;
		for (int64_t base = x, k = y; k && !ovf; ) {
			if (k & 1)
				ovf = __builtin_mul_overflow(z, base, &z);
			k >>= 1;
			if (k && !ovf)
				ovf = __builtin_mul_overflow(base, base, &base);
		}
		break;
	default: break;
	}
	if (ovf) {
		expr_error(r, e, "integer overflow");
		return -1;
	}
	*out = tv_int(z);
	return 0;
}

/* arith: a op b: strings and lists joined with +, a string repeated with
 * *, numbers (integers while both are, but for /). */
static int arith(struct render *r, const struct expr *e, enum op op, const struct tval *a, const struct tval *b,
		 struct tval *out)
{
	if (op == OP_ADD && a->kind == TV_STR && b->kind == TV_STR)
		return concat_text(r, e, a, b, out);
	if (op == OP_ADD && a->kind == TV_LIST && b->kind == TV_LIST)
		return list_concat(r, e, a, b, out);
	if (op == OP_MUL && a->kind == TV_STR && b->kind == TV_INT)
		return str_repeat(r, e, a, b, out);
	if (!tval_is_number(a) || !tval_is_number(b)) {
		static const char *const spell[] = {"", "+", "-", "*", "/", "//", "%", "**"};
		expr_error(r, e, "cannot apply '%s' to %s and %s", spell[op], tval_type_name(a), tval_type_name(b));
		return -1;
	}
	if (a->kind == TV_INT && b->kind == TV_INT && op != OP_DIV)
		return int_arith(r, e, op, a->u.i, b->u.i, out);
	double x = tval_as_double(a), y = tval_as_double(b), z = 0;
	switch (op) {
	case OP_ADD: z = x + y; break;
	case OP_SUB: z = x - y; break;
	case OP_MUL: z = x * y; break;
	case OP_DIV:
	case OP_FLOORDIV:
	case OP_MOD:
		if (y == 0) {
			expr_error(r, e, "division by zero");
			return -1;
		}
		z = op == OP_DIV ? x / y : op == OP_FLOORDIV ? floor(x / y) : x - y * floor(x / y);
		break;
	case OP_POW: z = pow(x, y); break;
	default: break;
	}
	*out = tv_float(z);
	return 0;
}

static int contains(struct render *r, const struct expr *e, const struct tval *item, const struct tval *coll,
		    int *res)
{
	if (coll->kind == TV_STR) {
		if (item->kind != TV_STR) {
			expr_error(r, e, "'in' a string needs a string on the left, not %s", tval_type_name(item));
			return -1;
		}
		charge_work(r, coll->u.s.len, 0);
		if (tmpl_steps_over(r, r->cur, e->line, e->col))
			return -1;
		*res = item->u.s.len == 0 || memmem(coll->u.s.p, coll->u.s.len, item->u.s.p, item->u.s.len) != NULL;
		return 0;
	}
	if (coll->kind == TV_MAP) {
		*res = item->kind == TV_STR && tmap_get(coll->u.map, item->u.s) != NULL;
		return 0;
	}
	if (coll->kind == TV_OBJ && !coll->u.obj.cls->at) {
		struct tval tmp;
		*res = item->kind == TV_STR && coll->u.obj.cls->get(coll->u.obj.self, item->u.s, &tmp, r->a);
		return 0;
	}
	int64_t n = tval_length(coll);
	if (coll->kind != TV_LIST && coll->kind != TV_OBJ) {
		expr_error(r, e, "'in' needs a list, map or string on the right, not %s", tval_type_name(coll));
		return -1;
	}
	*res = 0;
	for (int64_t i = 0; i < n; i++) {
		struct tval x;
		if (tval_item(coll, (size_t)i, &x, r->a) && tval_equal(item, &x, r->a, &r->steps)) {
			*res = 1;
			break;
		}
		if (tmpl_steps_over(r, r->cur, e->line, e->col))
			return -1;
	}
	return 0;
}

static int eval_test(struct render *r, const struct expr *e, struct scope *s, struct tval *out)
{
	struct tval v;
	if (eval(r, e->a, s, &v))
		return -1;
	struct str n = e->name;
	int res = 0;
	if (str_eq_cstr(n, "defined"))
		res = v.kind != TV_UNDEF;
	else if (str_eq_cstr(n, "undefined"))
		res = v.kind == TV_UNDEF;
	else if (str_eq_cstr(n, "none"))
		res = v.kind == TV_NONE;
	else if (v.kind == TV_UNDEF && r->env->strict) {
		undefined_error(r, e->a, &v, s);
		return -1;
	} else if (str_eq_cstr(n, "odd") || str_eq_cstr(n, "even") || str_eq_cstr(n, "divisibleby")) {
		int64_t d = 2;
		if (v.kind != TV_INT) {
			expr_error(r, e, "test '%.*s' needs an integer, not %s", STR_FMT(n), tval_type_name(&v));
			return -1;
		}
		if (n.p[0] == 'd') {
			struct tval a;
			if (eval_defined(r, e->args[0], s, &a))
				return -1;
			if (a.kind != TV_INT || a.u.i == 0) {
				expr_error(r, e->args[0], "divisibleby needs a non-zero integer");
				return -1;
			}
			d = a.u.i;
		}
		int64_t m = v.u.i % d;
		res = n.p[0] == 'o' ? m != 0 : m == 0;
	} else if (str_eq_cstr(n, "string"))
		res = v.kind == TV_STR;
	else if (str_eq_cstr(n, "number"))
		res = tval_is_number(&v);
	else if (str_eq_cstr(n, "integer"))
		res = v.kind == TV_INT;
	else if (str_eq_cstr(n, "float"))
		res = v.kind == TV_FLOAT;
	else if (str_eq_cstr(n, "boolean"))
		res = v.kind == TV_BOOL;
	else if (str_eq_cstr(n, "true"))
		res = v.kind == TV_BOOL && v.u.b;
	else if (str_eq_cstr(n, "false"))
		res = v.kind == TV_BOOL && !v.u.b;
	else if (str_eq_cstr(n, "mapping"))
		res = v.kind == TV_MAP || (v.kind == TV_OBJ && !v.u.obj.cls->at);
	else if (str_eq_cstr(n, "iterable"))
		res = v.kind == TV_LIST || v.kind == TV_MAP || v.kind == TV_STR ||
		      (v.kind == TV_OBJ && (v.u.obj.cls->at || v.u.obj.cls->fields));
	else if (str_eq_cstr(n, "sequence"))
		res = v.kind == TV_LIST || v.kind == TV_STR || (v.kind == TV_OBJ && v.u.obj.cls->at);
	*out = tv_bool(e->negate ? !res : res);
	return 0;
}

int tmpl_test_known(struct str name, int *nargs)
{
	static const char *const tests0[] = {"defined", "undefined", "none", "odd", "even", "string", "number",
		"integer", "float", "boolean", "mapping", "iterable", "sequence", "true", "false", NULL};
	for (int i = 0; tests0[i]; i++)
		if (str_eq_cstr(name, tests0[i])) {
			*nargs = 0;
			return 1;
		}
	if (str_eq_cstr(name, "divisibleby")) {
		*nargs = 1;
		return 1;
	}
	return 0;
}

static int call_filter(struct render *r, const struct expr *e, struct scope *s, struct tval *out)
{
	const struct filter_def *f = e->filter;
	struct tval in;
	if (eval(r, e->a, s, &in))
		return -1;
	if (in.kind == TV_UNDEF && !f->keeps_undefined) {
		if (r->env->strict) {
			undefined_error(r, e->a, &in, s);
			return -1;
		}
		in = tv_str((struct str){"", 0});
	}
	struct tval args[FILTER_MAX_PARAMS];
	for (int i = 0; i < f->nparams; i++) {
		if (!e->args[i]) {
			args[i] = tv_undef();
			continue;
		}
		if (eval_defined(r, e->args[i], s, &args[i]))
			return -1;
	}
	/* a filter goes through its input and arguments (about once) */
	value_work(r, &in);
	for (int i = 0; i < f->nparams; i++)
		value_work(r, &args[i]);
	if (tmpl_steps_over(r, r->cur, e->line, e->col))
		return -1;
	struct tmpl_call c = {r, e, r->cur};
	int before = r->errors;
	struct tval fin = in; /* the input as the filter takes it; in stays for the check below */
	if ((f->str_in && filter_input_str(&c, &fin)) || f->fn(&c, &fin, args, out)) {
		if (r->errors == before)
			expr_error(r, e, "filter '%s' failed", f->name);
		return -1;
	}
	/* each string a filter makes stays under the cap, so that filters
	 * chained (escape | escape | ...) cannot multiply a string past it */
	if (out->kind == TV_STR && out->u.s.len > r->env->max_output &&
	    !(in.kind == TV_STR && out->u.s.p == in.u.s.p)) {
		expr_error(r, e, "filter '%s' made a string longer than %zu bytes (a runaway loop?)", f->name,
			   r->env->max_output);
		r->fatal = 1;
		return -1;
	}
	if (out->kind == TV_STR && !(in.kind == TV_STR && out->u.s.p == in.u.s.p))
		value_work(r, out); /* and writes what it makes */
	return tmpl_steps_over(r, r->cur, e->line, e->col);
}

static int call_macro(struct render *r, const struct expr *e, const struct macro *m, struct scope *s,
		      struct tval *out);
static int call_super(struct render *r, const struct expr *e, struct scope *s, struct tval *out);

static int eval_call(struct render *r, const struct expr *e, struct scope *s, struct tval *out)
{
	struct tval f;
	if (eval(r, e->a, s, &f))
		return -1;
	if (f.kind == TV_UNDEF) {
		if (e->a->kind == E_NAME) {
			const char *sug = suggest_name(r, s, e->a->name);
			expr_error(r, e, "undefined macro or function '%.*s'%s%s%s", STR_FMT(e->a->name),
				   sug ? " (did you mean '" : "", sug ? sug : "", sug ? "'?)" : "");
		}
		else
			undefined_error(r, e->a, &f, s);
		return -1;
	}
	if (f.kind != TV_FUNC) {
		expr_error(r, e, "%s is not callable", tval_type_name(&f));
		return -1;
	}
	const struct tfunc *fn = f.u.func;
	if (fn->kind == F_MACRO)
		return call_macro(r, e, fn->m, s, out);
	if (fn->kind == F_SUPER) {
		if (e->nargs) {
			expr_error(r, e, "super() takes no arguments");
			return -1;
		}
		return call_super(r, e, s, out);
	}
	if (fn->kind == F_NAMESPACE) {
		struct tmap *m = tmap_new(r->a, e->nargs);
		for (size_t i = 0; i < e->nargs; i++) {
			struct tval v;
			if (!e->kwnames[i].len) {
				expr_error(r, e->args[i], "namespace() takes keyword arguments only");
				return -1;
			}
			if (eval_defined(r, e->args[i], s, &v))
				return -1;
			tmap_set(r->a, m, e->kwnames[i], v);
		}
		*out = tv_map(m);
		return 0;
	}
	/* range(stop) / range(start, stop[, step]) */
	int64_t a[3];
	if (e->nargs < 1 || e->nargs > 3) {
		expr_error(r, e, "range() takes 1 to 3 arguments (%zu given)", e->nargs);
		return -1;
	}
	for (size_t i = 0; i < e->nargs; i++) {
		struct tval v;
		if (eval_defined(r, e->args[i], s, &v))
			return -1;
		if (v.kind != TV_INT) {
			expr_error(r, e->args[i], "range() needs integers, not %s", tval_type_name(&v));
			return -1;
		}
		a[i] = v.u.i;
	}
	int64_t start = e->nargs == 1 ? 0 : a[0], stop = e->nargs == 1 ? a[0] : a[1], step = e->nargs == 3 ? a[2] : 1;
	if (step == 0) {
		expr_error(r, e, "range() step must not be zero");
		return -1;
	}
	double count = ceil(((double)stop - (double)start) / (double)step);
	if (count > 1e6) {
		expr_error(r, e, "range() of more than 1000000 numbers");
		return -1;
	}
	struct tlist *l = tlist_new(r->a, count > 0 ? (size_t)count : 0);
	for (int64_t i = start; step > 0 ? i < stop : i > stop; i += step)
		tlist_push(r->a, l, tv_int(i));
	*out = tv_list(l);
	return 0;
}

/* eval_unary: not, - and + of e->a. */
static int eval_unary(struct render *r, const struct expr *e, struct scope *s, struct tval *out)
{
	struct tval v;
	if (e->op == OP_NOT) {
		if (eval(r, e->a, s, &v))
			return -1;
		*out = tv_bool(!tval_truthy(&v));
		return 0;
	}
	if (eval_defined(r, e->a, s, &v))
		return -1;
	if (!tval_is_number(&v)) {
		expr_error(r, e, "cannot apply unary '%s' to %s", e->op == OP_NEG ? "-" : "+", tval_type_name(&v));
		return -1;
	}
	if (e->op == OP_NEG) {
		if (v.kind == TV_INT) {
			if (v.u.i == INT64_MIN) {
				expr_error(r, e, "integer overflow");
				return -1;
			}
			v.u.i = -v.u.i;
		} else {
			v.u.f = -v.u.f;
		}
	}
	*out = v;
	return 0;
}

/* eval_list_map: a list [a, b] or a map {"k": v} written in the
 * template. */
static int eval_list_map(struct render *r, const struct expr *e, struct scope *s, struct tval *out)
{
	if (e->kind == E_LIST) {
		struct tlist *l = tlist_new(r->a, e->nargs);
		for (size_t i = 0; i < e->nargs; i++) {
			struct tval v;
			if (eval_defined(r, e->args[i], s, &v))
				return -1;
			tlist_push(r->a, l, v);
		}
		*out = tv_list(l);
		return 0;
	}
	struct tmap *m = tmap_new(r->a, e->nargs / 2);
	for (size_t i = 0; i + 1 < e->nargs; i += 2) {
		struct tval k, v;
		if (eval_defined(r, e->args[i], s, &k) || eval_defined(r, e->args[i + 1], s, &v))
			return -1;
		if (k.kind != TV_STR) {
			expr_error(r, e->args[i], "map keys must be strings, not %s", tval_type_name(&k));
			return -1;
		}
		tmap_set(r->a, m, k.u.s, v);
	}
	*out = tv_map(m);
	return 0;
}

/* eval_binary: a op b: == and != of any values, the comparisons, in and
 * not in, ~ and arithmetic (each side defined). */
static int eval_binary(struct render *r, const struct expr *e, struct scope *s, struct tval *out)
{
	struct tval a, b;
	if (e->op == OP_EQ || e->op == OP_NE) {
		if (eval(r, e->a, s, &a) || eval(r, e->b, s, &b))
			return -1;
		int eq = tval_equal(&a, &b, r->a, &r->steps);
		if (tmpl_steps_over(r, r->cur, e->line, e->col))
			return -1;
		*out = tv_bool(e->op == OP_EQ ? eq : !eq);
		return 0;
	}
	if (eval_defined(r, e->a, s, &a) || eval_defined(r, e->b, s, &b))
		return -1;
	switch (e->op) {
	case OP_LT:
	case OP_LE:
	case OP_GT:
	case OP_GE: {
		int ok;
		int c = tval_compare(&a, &b, &ok, &r->steps);
		if (tmpl_steps_over(r, r->cur, e->line, e->col))
			return -1;
		if (!ok) {
			expr_error(r, e, "cannot compare %s with %s", tval_type_name(&a), tval_type_name(&b));
			return -1;
		}
		int res = e->op == OP_LT ? c < 0 : e->op == OP_LE ? c <= 0 : e->op == OP_GT ? c > 0 : c >= 0;
		*out = tv_bool(res);
		return 0;
	}
	case OP_IN:
	case OP_NOT_IN: {
		int res;
		if (contains(r, e, &a, &b, &res))
			return -1;
		*out = tv_bool(e->op == OP_IN ? res : !res);
		return 0;
	}
	case OP_CONCAT: return concat_text(r, e, &a, &b, out);
	default: return arith(r, e, e->op, &a, &b, out);
	}
}

/* eval: the value of expression e in scope s. A dispatch on the kind of
 * expression: each kind is one case, the longer ones a function above. */
static int eval(struct render *r, const struct expr *e, struct scope *s, struct tval *out)
{
	if (r->fatal)
		return -1;
	switch (e->kind) {
	case E_LIT: *out = e->lit; return 0;
	case E_NAME:
		if (!lookup_at(r, s, e->name, e->hash, &((struct expr *)e)->hint, out)) {
			*out = tv_undef();
			out->u.s = e->name;
		}
		return 0;
	case E_ATTR: {
		struct tval base;
		if (eval(r, e->a, s, &base))
			return -1;
		if (!tval_attr_at(&base, e->name, e->hash, &((struct expr *)e)->hint, out, r->a))
			*out = undef_attr(r, &base, e->name, 0);
		return 0;
	}
	case E_INDEX: {
		struct tval base, idx;
		if (eval(r, e->a, s, &base) || eval_defined(r, e->b, s, &idx))
			return -1;
		return get_index(r, e, &base, &idx, out);
	}
	case E_CALL: return eval_call(r, e, s, out);
	case E_FILTER: return call_filter(r, e, s, out);
	case E_TEST: return eval_test(r, e, s, out);
	case E_UNARY: return eval_unary(r, e, s, out);
	case E_AND:
	case E_OR: {
		struct tval a;
		if (eval(r, e->a, s, &a))
			return -1;
		int t = tval_truthy(&a);
		if ((e->kind == E_AND && !t) || (e->kind == E_OR && t)) {
			*out = a;
			return 0;
		}
		return eval(r, e->b, s, out);
	}
	case E_COND: {
		struct tval c;
		if (eval(r, e->b, s, &c))
			return -1;
		if (tval_truthy(&c))
			return eval(r, e->a, s, out);
		if (e->c)
			return eval(r, e->c, s, out);
		*out = tv_none(); /* `a if c` without else: prints as nothing */
		return 0;
	}
	case E_LIST:
	case E_MAP: return eval_list_map(r, e, s, out);
	case E_BINARY: return eval_binary(r, e, s, out);
	}
	return -1;
}

/* ---- macros ---- */

/* capture_begin: r's output goes to a capture buffer (one kept for this
 * level of nesting, else *spare) until capture_end, which gives back the
 * output it had (returned here) and the captured text, in r's arena. */
static struct buf *capture_begin(struct render *r, struct buf *spare)
{
	struct buf *was = r->out;
	if (r->ncaps < TMPL_CAPS) {
		r->out = &r->caps[r->ncaps];
		buf_reset(r->out);
	} else {
		buf_init(spare);
		r->out = spare;
	}
	r->ncaps++;
	return was;
}

static struct str capture_end(struct render *r, struct buf *was)
{
	struct buf *b = r->out;
	struct str s = {arena_strndup(r->a, b->p ? b->p : "", b->len), b->len};
	if (--r->ncaps >= TMPL_CAPS)
		buf_fini(b);
	r->out = was;
	return s;
}

/* ---- calls remembered (memo.c) ---- */

/* A call's key: the macro, then each value its text depends on. */
struct memo_key {
	unsigned char b[2048];
	size_t n;
	int ok;
	const struct macro *seen[8]; /* the macros whose names are in it */
	size_t nseen;
};

static void key_put(struct memo_key *k, const void *p, size_t n)
{
	if (!k->ok || n > sizeof k->b - k->n) {
		k->ok = 0;
		return;
	}
	memcpy(k->b + k->n, p, n);
	k->n += n;
}

/* key_value: v as a part of the key, or the key refused (k->ok = 0): a
 * value is compared by what it is only where that is cheap and sure
 * (see tmpl.h). */
static void key_value(struct memo_key *k, const struct tval *v)
{
	unsigned char head[2] = {v->kind, v->safe};
	key_put(k, head, 2);
	switch (v->kind) {
	case TV_UNDEF:
	case TV_NONE: break;
	case TV_BOOL: key_put(k, &v->u.b, sizeof v->u.b); break;
	case TV_INT: key_put(k, &v->u.i, sizeof v->u.i); break;
	case TV_FLOAT: key_put(k, &v->u.f, sizeof v->u.f); break;
	case TV_STR:
		key_put(k, &v->u.s.len, sizeof v->u.s.len);
		key_put(k, v->u.s.p, v->u.s.len);
		break;
	case TV_FUNC: key_put(k, &v->u.func, sizeof v->u.func); break;
	case TV_MAP:
		if (v->u.map->frozen) {
			key_put(k, &v->u.map, sizeof v->u.map);
			break;
		}
		k->ok = 0;
		break;
	default: k->ok = 0;
	}
}

/* key_names: the values of the names m's body reads, as the call will
 * find them, and those of the macros they name, into k. */
static void key_names(struct render *r, struct memo_key *k, const struct macro *m)
{
	for (size_t i = 0; i < k->nseen; i++)
		if (k->seen[i] == m)
			return;
	if (!m->memo || k->nseen == sizeof k->seen / sizeof k->seen[0]) {
		k->ok = 0;
		return;
	}
	k->seen[k->nseen++] = m;
	const struct tmpl *saved = r->cur;
	r->cur = m->owner;
	for (size_t i = 0; i < m->nfree && k->ok; i++) {
		struct tval v = {.kind = TV_UNDEF};
		(void)lookup_at(r, r->top, m->free[i], m->free_hash[i], NULL, &v);
		/* a global by its place: the same value for the whole render */
		const struct tval *g = tmap_get(r->env->globals, m->free[i]);
		if (g && g->kind == v.kind && g->safe == v.safe && !memcmp(&g->u, &v.u, sizeof v.u)) {
			size_t at = (size_t)(g - r->env->globals->vals);
			unsigned char tag = 0xff;
			key_put(k, &tag, 1);
			key_put(k, &at, sizeof at);
		} else {
			key_value(k, &v);
		}
		if (v.kind == TV_FUNC && v.u.func->kind == F_MACRO)
			key_names(r, k, v.u.func->m);
	}
	r->cur = saved;
}

/* memo_try: with a memo in use, the call of m with args as a key (1 in
 * *keyed); its text in *out if the memo has it (returns 1). */
static int memo_try(struct render *r, const struct macro *m, const struct tval *args, struct memo_key *k,
		    struct tval *out)
{
	k->ok = 1;
	k->n = k->nseen = 0;
	key_put(k, &m, sizeof m);
	for (size_t i = 0; i < m->nparams && k->ok; i++)
		key_value(k, &args[i]);
	/* the names are looked up as the body will, without recording them:
	 * the body records what it reads */
	struct tmpl_deps *rec = tmpl_deps_current;
	tmpl_deps_current = NULL;
	key_names(r, k, m);
	tmpl_deps_current = rec;
	if (!k->ok)
		return 0;
	struct str text;
	const uint32_t *ids;
	size_t nids;
	if (!memo_find(tmpl_memo_current, k->b, k->n, rec != NULL, &text, &ids, &nids))
		return 0;
	for (size_t i = 0; rec && i < nids; i++)
		tmpl_deps_add(rec, ids[i]);
	*out = tv_safe(text);
	return 1;
}

static int call_macro(struct render *r, const struct expr *e, const struct macro *m, struct scope *s,
		      struct tval *out)
{
	struct tval args[64];
	int given[64] = {0};
	size_t npos = 0;
	if (charge_step(r, e->line, e->col))
		return -1;
	for (size_t i = 0; i < e->nargs; i++) {
		size_t k;
		if (!e->kwnames[i].len) {
			k = npos++;
			if (k >= m->nparams) {
				expr_error(r, e, "macro '%.*s' takes %zu argument%s (%zu given)", STR_FMT(m->name), m->nparams,
					   m->nparams == 1 ? "" : "s", e->nargs);
				return -1;
			}
		} else {
			for (k = 0; k < m->nparams; k++)
				if (str_eq(m->params[k], e->kwnames[i]))
					break;
			if (k == m->nparams) {
				const char **cand = arena_alloc(r->a, (m->nparams + 1) * sizeof *cand);
				for (size_t j = 0; j < m->nparams; j++)
					cand[j] = arena_strndup(r->a, m->params[j].p, m->params[j].len);
				const char *sug = diag_suggest(e->kwnames[i].p, e->kwnames[i].len, cand);
				int line, col;
				tmpl_src_pos(r->cur, e->kwnames[i].p, &line, &col);
				render_error(r, r->cur, line, col, "macro '%.*s' has no parameter '%.*s'%s%s%s",
					     STR_FMT(m->name), STR_FMT(e->kwnames[i]), sug ? " (did you mean '" : "",
					     sug ? sug : "", sug ? "'?)" : "");
				return -1;
			}
			if (given[k]) {
				int line, col;
				tmpl_src_pos(r->cur, e->kwnames[i].p, &line, &col);
				render_error(r, r->cur, line, col, "macro '%.*s' got argument '%.*s' twice",
					     STR_FMT(m->name), STR_FMT(m->params[k]));
				return -1;
			}
		}
		if (eval_defined(r, e->args[i], s, &args[k]))
			return -1;
		given[k] = 1;
	}
	/* the macro body sees its parameters and the render's top scope, not the caller's locals */
	struct scope *ms = scope_new(r, r->top);
	const struct tmpl *caller_t = r->cur;
	/* The frame first: a default is evaluated in the macro, and one that
	 * calls the macro again ({% macro m(b=m()) %}) is a recursion the
	 * depth limit must see, not one that overflows the C stack. */
	if (push_frame(r, caller_t, e->line, e->col, NULL))
		return -1;
	r->frames[r->nframes - 1].macro = m->name;
	for (size_t k = 0; k < m->nparams; k++) {
		if (!given[k]) {
			if (!m->defaults[k]) {
				pop_frame(r);
				expr_error(r, e, "macro '%.*s' requires argument '%.*s'", STR_FMT(m->name), STR_FMT(m->params[k]));
				return -1;
			}
			r->cur = m->owner;
			int err = eval(r, m->defaults[k], ms, &args[k]);
			r->cur = caller_t;
			if (err) {
				pop_frame(r);
				return -1;
			}
		}
		scope_set(r, ms, m->params[k], args[k]);
	}
	struct memo_key key;
	key.ok = 0;
	/* the outermost call only: one inside a call being made is made
	 * with it (a card's date line is kept as part of the card) */
	if (tmpl_memo_current && m->memo && !r->memo_depth && memo_try(r, m, args, &key, out)) {
		pop_frame(r);
		return 0;
	}
	r->memo_depth += key.ok;
	struct tmpl_deps *rec = key.ok ? tmpl_deps_current : NULL;
	size_t mark = rec ? tmpl_deps_capture_begin(rec) : 0;
	int errors = r->errors;
	struct buf tmp, *saved_out = capture_begin(r, &tmp);
	r->cur = m->owner;
	struct block_chain *saved_blocks = r->blocks;
	int saved_ctl = r->loop_ctl;
	exec_body(r, &m->body, ms);
	r->loop_ctl = saved_ctl;
	r->blocks = saved_blocks;
	r->cur = caller_t;
	pop_frame(r);
	*out = tv_safe(capture_end(r, saved_out));
	r->memo_depth -= key.ok;
	size_t nids = 0;
	const uint32_t *ids = rec ? tmpl_deps_capture_end(rec, mark, &nids) : NULL;
	if (key.ok && r->errors == errors && !r->fatal)
		memo_put(tmpl_memo_current, key.b, key.n, out->u.s, ids, nids, rec != NULL);
	return r->fatal ? -1 : 0;
}

static const struct node *find_block(const struct tmpl *t, struct str name)
{
	for (size_t i = 0; i < t->nblocks; i++)
		if (str_eq(t->blocks[i]->text, name))
			return t->blocks[i];
	return NULL;
}

static void render_block_at(struct render *r, struct str name, int level, struct scope *s)
{
	struct block_chain *bc = r->blocks;
	for (int i = level; i < bc->n; i++) {
		const struct node *b = find_block(bc->t[i], name);
		if (!b)
			continue;
		struct str saved_name = bc->cur_name;
		int saved_level = bc->cur_level;
		const struct tmpl *saved_t = r->cur;
		bc->cur_name = name;
		bc->cur_level = i;
		r->cur = bc->t[i];
		exec_body(r, &b->body, s);
		r->cur = saved_t;
		bc->cur_name = saved_name;
		bc->cur_level = saved_level;
		return;
	}
}

static int call_super(struct render *r, const struct expr *e, struct scope *s, struct tval *out)
{
	struct block_chain *bc = r->blocks;
	if (!bc) {
		expr_error(r, e, "super() needs a parent template: this template does not extend another");
		return -1;
	}
	if (!bc->cur_name.len) {
		expr_error(r, e, "super() outside of a block");
		return -1;
	}
	int found = 0;
	for (int i = bc->cur_level + 1; i < bc->n; i++)
		if (find_block(bc->t[i], bc->cur_name))
			found = 1;
	if (!found) {
		expr_error(r, e, "super(): no parent template defines block '%.*s'", STR_FMT(bc->cur_name));
		return -1;
	}
	struct buf tmp, *saved_out = capture_begin(r, &tmp);
	/* the parent's block sees what the child's sees (a loop variable around it) */
	render_block_at(r, bc->cur_name, bc->cur_level + 1, s);
	*out = tv_safe(capture_end(r, saved_out));
	return r->fatal ? -1 : 0;
}

/* ---- statements ---- */

static void render_tmpl(struct render *r, const struct tmpl *t, struct scope *s);

static const struct tmpl *resolve_tmpl(struct render *r, const struct node *n, struct scope *s, int *missing_ok)
{
	struct tval name;
	if (eval_defined(r, n->e, s, &name))
		return NULL;
	if (name.kind != TV_STR) {
		expr_error(r, n->e, "template name must be a string, not %s", tval_type_name(&name));
		return NULL;
	}
	const struct tmpl *t = tmpl_env_find(r->env, name.u.s);
	if (!t) {
		if (missing_ok && n->ignore_missing) {
			*missing_ok = 1;
			return NULL;
		}
		expr_error(r, n->e, "template '%.*s' not found", STR_FMT(name.u.s));
		return NULL;
	}
	if (t->has_errors) {
		/* its syntax errors were reported when it was added */
		r->errors++;
		return NULL;
	}
	return t;
}

static void import_macros(struct render *r, const struct node *n, struct scope *s)
{
	const struct tmpl *t = resolve_tmpl(r, n, s, NULL);
	if (!t)
		return;
	if (n->kind == N_IMPORT) {
		struct tmap *m = tmap_new(r->a, t->nmacros);
		for (size_t i = 0; i < t->nmacros; i++)
			tmap_set(r->a, m, t->macros[i]->name, macro_value(t->macros[i]));
		scope_set(r, s, n->text, tv_map(m));
		return;
	}
	for (size_t k = 0; k < n->nnames; k++) {
		size_t i;
		for (i = 0; i < t->nmacros; i++)
			if (str_eq(t->macros[i]->name, n->names[k]))
				break;
		if (i == t->nmacros) {
			render_error(r, r->cur, n->line, n->col, "'%s' has no macro '%.*s'", t->name, STR_FMT(n->names[k]));
			continue;
		}
		scope_set(r, s, n->aliases[k], macro_value(t->macros[i]));
	}
}

struct loop_state {
	const struct tlist *items;
	size_t i;
};

static int loop_get(const void *self, struct str key, struct tval *out, struct arena *a)
{
	const struct loop_state *ls = self;
	size_t n = ls->items->len, i = ls->i;
	(void)a;
	if (str_eq_cstr(key, "index"))
		*out = tv_int((int64_t)i + 1);
	else if (str_eq_cstr(key, "index0"))
		*out = tv_int((int64_t)i);
	else if (str_eq_cstr(key, "revindex"))
		*out = tv_int((int64_t)(n - i));
	else if (str_eq_cstr(key, "revindex0"))
		*out = tv_int((int64_t)(n - i - 1));
	else if (str_eq_cstr(key, "first"))
		*out = tv_bool(i == 0);
	else if (str_eq_cstr(key, "last"))
		*out = tv_bool(i + 1 == n);
	else if (str_eq_cstr(key, "length"))
		*out = tv_int((int64_t)n);
	else if (str_eq_cstr(key, "previtem")) {
		if (i == 0) {
			*out = tv_undef(); /* with its own message, for `{{ loop.previtem }}` */
			out->u.s = STR_LIT("loop.previtem is undefined on the first iteration (test it with 'is defined')");
			out->safe = 1;
		} else {
			*out = ls->items->items[i - 1];
		}
	} else if (str_eq_cstr(key, "nextitem")) {
		if (i + 1 >= n) {
			*out = tv_undef();
			out->u.s = STR_LIT("loop.nextitem is undefined on the last iteration (test it with 'is defined')");
			out->safe = 1;
		} else {
			*out = ls->items->items[i + 1];
		}
	} else
		return 0;
	return 1;
}

static const char *const loop_fields[] = {"index", "index0", "revindex", "revindex0", "first", "last", "length",
	"previtem", "nextitem", NULL};
static const struct tobj_class loop_class = {"loop", loop_get, NULL, NULL, loop_fields};

static void bind_targets(struct render *r, const struct node *n, struct scope *ls, const struct tval *item,
			 const struct tval *key)
{
	if (n->ntargets == 1) {
		scope_set(r, ls, n->targets[0], key ? *key : *item);
		return;
	}
	if (key) {
		scope_set(r, ls, n->targets[0], *key);
		scope_set(r, ls, n->targets[1], *item);
		return;
	}
	/* unpack a pair: for a, b in [[1, 2], ...] */
	struct tval x = tv_none(), y = tv_none();
	tval_item(item, 0, &x, r->a);
	tval_item(item, 1, &y, r->a);
	scope_set(r, ls, n->targets[0], x);
	scope_set(r, ls, n->targets[1], y);
}

static void exec_for(struct render *r, const struct node *n, struct scope *s)
{
	struct tval coll;
	if (eval(r, n->e, s, &coll))
		return;
	if (coll.kind == TV_UNDEF) {
		if (r->env->strict) {
			undefined_error(r, n->e, &coll, s);
			return;
		}
		coll = tv_list(tlist_new(r->a, 0));
	}
	if (coll.kind == TV_NONE)
		coll = tv_list(tlist_new(r->a, 0));
	int is_map = coll.kind == TV_MAP || (coll.kind == TV_OBJ && !coll.u.obj.cls->at && coll.u.obj.cls->fields);
	if (n->ntargets == 2 && !is_map && coll.kind != TV_LIST && !(coll.kind == TV_OBJ && coll.u.obj.cls->at)) {
		expr_error(r, n->e, "cannot unpack the items of %s into two variables", tval_type_name(&coll));
		return;
	}
	struct tlist *keys = NULL, *items = NULL;
	if (coll.kind == TV_STR) {
		/* one item per character: the cap on lists holds (a loop over
		 * 60 MB would take 1.4 GB of items before its first step) */
		value_work(r, &coll);
		size_t cap = r->env->max_output / sizeof(struct tval);
		if (coll.u.s.len > cap && utf8_count(coll.u.s) > cap) {
			expr_error(r, n->e, "cannot loop over a string of more than %zu characters", cap);
			return;
		}
	}
	if (!tval_as_list(&coll, r->a, &keys)) {
		expr_error(r, n->e, "cannot loop over %s", tval_type_name(&coll));
		return;
	}
	if (is_map) {
		items = tlist_new(r->a, keys->len);
		for (size_t i = 0; i < keys->len; i++) {
			struct tval v = tv_none();
			tval_attr(&coll, keys->items[i].u.s, &v, r->a);
			tlist_push(r->a, items, v);
		}
	} else {
		items = keys;
		keys = NULL;
	}
	struct scope *ls = scope_new(r, s);
	if (n->e2) { /* for x in xs if cond: filter first, so loop.length counts what is shown */
		struct tlist *fi = tlist_new(r->a, items->len), *fk = keys ? tlist_new(r->a, keys->len) : NULL;
		for (size_t i = 0; i < items->len; i++) {
			struct tval c;
			bind_targets(r, n, ls, &items->items[i], keys ? &keys->items[i] : NULL);
			if (eval(r, n->e2, ls, &c))
				return;
			if (tval_truthy(&c)) {
				tlist_push(r->a, fi, items->items[i]);
				if (fk)
					tlist_push(r->a, fk, keys->items[i]);
			}
		}
		items = fi;
		keys = fk;
		ls = scope_new(r, s);
	}
	if (items->len == 0) {
		exec_body(r, &n->else_body, s);
		return;
	}
	struct loop_state st = {items, 0};
	/* the loop object is what `keys` iterate when it is a map */
	const struct tlist *shown = keys ? keys : items;
	st.items = shown;
	for (size_t i = 0; i < items->len && !r->fatal; i++) {
		if (charge_step(r, n->line, n->col))
			break;
		st.i = i;
		ls->n = 0; /* fresh variables each iteration */
		bind_targets(r, n, ls, &items->items[i], keys ? &keys->items[i] : NULL);
		scope_set(r, ls, STR_LIT("loop"), tv_obj(&loop_class, &st));
		exec_body(r, &n->body, ls);
		if (r->loop_ctl == 1) {
			r->loop_ctl = 0;
			break;
		}
		r->loop_ctl = 0;
	}
}

static void exec_output(struct render *r, const struct node *n, struct scope *s)
{
	struct tval v;
	if (eval(r, n->e, s, &v))
		return;
	switch (v.kind) {
	case TV_UNDEF:
		if (r->env->strict)
			undefined_error(r, n->e, &v, s);
		return;
	case TV_NONE: return;
	case TV_STR:
		if (v.safe)
			emit(r, v.u.s.p, v.u.s.len, n->e->line, n->e->col);
		else
			emit_escaped(r, v.u.s.p, v.u.s.len, n->e->line, n->e->col);
		return;
	case TV_FUNC: expr_error(r, n->e, "cannot print a macro or function (call it with '()')"); return;
	default: {
		struct str t;
		if (tval_text(&v, r->a, room(r), &t))
			output_cap_error(r, n->e->line, n->e->col);
		else
			emit_escaped(r, t.p, t.len, n->e->line, n->e->col);
	}
	}
}

static void exec_node(struct render *r, const struct node *n, struct scope *s)
{
	switch (n->kind) {
	case N_TEXT: emit(r, n->text.p, n->text.len, n->line, n->col); break;
	case N_OUTPUT: exec_output(r, n, s); break;
	case N_IF:
		for (size_t i = 0; i < n->nconds; i++) {
			struct tval c;
			if (eval(r, n->conds[i], s, &c))
				return;
			if (tval_truthy(&c)) {
				exec_body(r, &n->bodies[i], s);
				return;
			}
		}
		exec_body(r, &n->else_body, s);
		break;
	case N_FOR: exec_for(r, n, s); break;
	case N_SET: {
		struct tval v;
		if (eval(r, n->e, s, &v))
			return;
		if (n->attr.len) {
			struct tval ns;
			if (!lookup(r, s, n->text, &ns) || ns.kind != TV_MAP) {
				render_error(r, r->cur, n->line, n->col,
					     "'set %.*s.%.*s' needs '%.*s' to be a namespace() or map", STR_FMT(n->text),
					     STR_FMT(n->attr), STR_FMT(n->text));
				return;
			}
			if (ns.u.map->frozen) {
				render_error(r, r->cur, n->line, n->col,
					     "'set %.*s.%.*s' would change the site's data, which templates only read "
					     "(hint: {%% set ns = namespace(%.*s=...) %%} holds a value of your own)",
					     STR_FMT(n->text), STR_FMT(n->attr), STR_FMT(n->attr));
				return;
			}
			tmap_set(r->a, ns.u.map, n->attr, v);
			return;
		}
		scope_set(r, s, n->text, v);
		break;
	}
	case N_SET_BLOCK: {
		struct buf tmp, *saved = capture_begin(r, &tmp);
		exec_body(r, &n->body, s);
		scope_set(r, s, n->text, tv_safe(capture_end(r, saved)));
		break;
	}
	case N_INCLUDE: {
		int missing = 0;
		const struct tmpl *t = resolve_tmpl(r, n, s, &missing);
		if (!t)
			return;
		if (push_frame(r, r->cur, n->line, n->col, "included from here"))
			return;
		const struct tmpl *saved_t = r->cur;
		struct block_chain *saved_blocks = r->blocks;
		const struct tval *saved_vars = r->vars;
		struct scope *saved_top = r->top;
		r->blocks = NULL;
		if (n->without_context) { /* as in Jinja: the globals only */
			r->vars = NULL;
			r->top = scope_new(r, NULL);
			render_tmpl(r, t, r->top);
		} else {
			render_tmpl(r, t, scope_new(r, s));
		}
		r->top = saved_top;
		r->vars = saved_vars;
		r->blocks = saved_blocks;
		r->cur = saved_t;
		pop_frame(r);
		break;
	}
	case N_BLOCK:
		if (r->blocks)
			render_block_at(r, n->text, 0, s);
		else
			exec_body(r, &n->body, s);
		break;
	case N_MACRO: scope_set(r, s, n->macro->name, macro_value(n->macro)); break;
	case N_IMPORT:
	case N_FROM_IMPORT: import_macros(r, n, s); break;
	case N_BREAK: r->loop_ctl = 1; break;
	case N_CONTINUE: r->loop_ctl = 2; break;
	case N_EXTENDS: break; /* handled by render_tmpl */
	}
}

static void exec_body(struct render *r, const struct body *b, struct scope *s)
{
	for (size_t i = 0; i < b->n && !r->fatal && !r->loop_ctl; i++)
		exec_node(r, b->v[i], s);
}

/* render_tmpl: renders t into r->out; with a parent, runs t's top-level
 * set/macro/import statements and hands its blocks to the parent chain. */
static void render_tmpl(struct render *r, const struct tmpl *t, struct scope *s)
{
	r->cur = t;
	if (!t->extends) {
		exec_body(r, &t->root, s);
		return;
	}
	struct block_chain *bc = arena_alloc(r->a, sizeof *bc);
	const struct tmpl *cur = t;
	int pushed = 0;
	while (cur) {
		if (bc->n == 128) {
			render_error(r, cur, 1, 1, "templates extend each other more than 128 levels deep");
			r->fatal = 1;
			break;
		}
		for (int i = 0; i < bc->n; i++) {
			if (bc->t[i] == cur) {
				render_error(r, cur, cur->extends->e->line, cur->extends->e->col, "'%s' extends itself (a cycle of parents)",
					     cur->name);
				r->fatal = 1;
				break;
			}
		}
		if (r->fatal)
			break;
		bc->t[bc->n++] = cur;
		if (!cur->extends)
			break;
		/* run the child's top-level statements other than output */
		r->cur = cur;
		for (size_t i = 0; i < cur->root.n && !r->fatal; i++) {
			const struct node *n = cur->root.v[i];
			if (n->kind == N_SET || n->kind == N_MACRO || n->kind == N_IMPORT || n->kind == N_FROM_IMPORT)
				exec_node(r, n, s);
		}
		struct tval name;
		if (eval_defined(r, cur->extends->e, s, &name))
			break;
		if (name.kind != TV_STR) {
			expr_error(r, cur->extends->e, "template name must be a string, not %s", tval_type_name(&name));
			break;
		}
		const struct tmpl *parent = tmpl_env_find(r->env, name.u.s);
		if (!parent) {
			expr_error(r, cur->extends->e, "parent template '%.*s' not found", STR_FMT(name.u.s));
			break;
		}
		if (parent->has_errors) {
			r->errors++;
			break;
		}
		if (push_frame(r, cur, cur->extends->line, cur->extends->col, "extended from here"))
			break;
		pushed++;
		cur = parent;
	}
	if (!r->fatal && bc->n && !bc->t[bc->n - 1]->extends) {
		struct block_chain *saved = r->blocks;
		r->blocks = bc;
		r->cur = bc->t[bc->n - 1];
		exec_body(r, &bc->t[bc->n - 1]->root, s);
		r->blocks = saved;
	}
	while (pushed-- > 0)
		pop_frame(r);
}

int tmpl_render(const struct tmpl_env *env, const char *name, const struct tval *vars, struct buf *out,
		struct arena *scratch, struct diag *d)
{
	return tmpl_render_pieces(env, name, vars, out, NULL, scratch, d);
}

int tmpl_render_pieces(const struct tmpl_env *env, const char *name, const struct tval *vars, struct buf *out,
		       struct tmpl_pieces *pieces, struct arena *scratch, struct diag *d)
{
	struct render r = {.env = env, .a = scratch, .out = out, .page = out, .pieces = pieces, .d = d, .vars = vars};
	if (pieces)
		pieces->n = 0;
	const struct tmpl *t = tmpl_env_find(env, str_from(name));
	if (!t) {
		struct diag_loc loc = {name, NULL, 0, 0, 0};
		diag_error(d, &loc, "template '%s' not found", name);
		return 1;
	}
	if (t->has_errors)
		return 1; /* reported when it was added */
	r.arena_base = arena_used(scratch);
	r.top = scope_new(&r, NULL);
	render_tmpl(&r, t, r.top);
	for (int i = 0; i < TMPL_CAPS; i++)
		buf_fini(&r.caps[i]);
	return r.errors;
}

/* ---- for filters ---- */

struct arena *tmpl_call_arena(struct tmpl_call *c)
{
	return c->r->a;
}

size_t tmpl_call_max_output(struct tmpl_call *c)
{
	return c->r->env->max_output;
}

const struct tmpl_env *tmpl_call_env(struct tmpl_call *c)
{
	return c->r->env;
}

void tmpl_call_error(struct tmpl_call *c, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	render_error(c->r, c->t, c->e->line, c->e->col, "%s: %s", c->e->filter ? c->e->filter->name : "filter", msg);
}
