/* memo.c: macro calls remembered across the pages of a render.
 *
 * A blog's archive, tag, category and year pages show each post's card
 * again and again: the 10,000-post corpus prints 69,391 cards for 9,912
 * posts. A card is a macro call whose text depends only on its arguments
 * and on the few names its body reads, so the text made once is taken for
 * the next call with the same ones (eval.c's call_macro builds the key).
 *
 * Here: which macros may be remembered, and what each reads (found once,
 * when the macro is parsed: memo_analyse), and the table of calls made
 * (struct tmpl_memo), shared by the threads of a render under a lock.
 */
#include "internal.h"

#include "base/hash.h"
#include "base/map.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* ---- what a macro reads ---- */

#define MEMO_MAX_FREE 32  /* a body reading more names is not remembered */
#define MEMO_MAX_BOUND 64 /* parameters and loop variables in reach */

struct walk {
	struct arena *a;
	int ok;
	struct str bound[MEMO_MAX_BOUND];
	size_t nbound;
	struct str free[MEMO_MAX_FREE];
	size_t nfree;
};

static int is_bound(const struct walk *w, struct str name)
{
	for (size_t i = w->nbound; i-- > 0;)
		if (str_eq(w->bound[i], name))
			return 1;
	return 0;
}

static void bind(struct walk *w, struct str name)
{
	if (w->nbound == MEMO_MAX_BOUND)
		w->ok = 0;
	else
		w->bound[w->nbound++] = name;
}

/* read_name: the body reads name. Names whose value comes from the call
 * (caller) or from the template around it (super, self) are not what a
 * key can hold: such a macro is never remembered. */
static void read_name(struct walk *w, struct str name)
{
	static const char *const context[] = {"caller", "super", "self", "varargs", "kwargs", NULL};
	for (size_t i = 0; context[i]; i++)
		if (str_eq_cstr(name, context[i]))
			w->ok = 0;
	if (is_bound(w, name))
		return;
	for (size_t i = 0; i < w->nfree; i++)
		if (str_eq(w->free[i], name))
			return;
	if (w->nfree == MEMO_MAX_FREE)
		w->ok = 0;
	else
		w->free[w->nfree++] = name;
}

static void walk_expr(struct walk *w, const struct expr *e)
{
	if (!e || !w->ok)
		return;
	switch (e->kind) {
	case E_LIT: return;
	case E_NAME: read_name(w, e->name); return;
	case E_FILTER:
		/* a host's filter may read anything; the built-in ones are
		 * functions of their input, arguments and the set */
		if (!e->filter || e->filter->host)
			w->ok = 0;
		break;
	default: break;
	}
	walk_expr(w, e->a);
	walk_expr(w, e->b);
	walk_expr(w, e->c);
	for (size_t i = 0; i < e->nargs; i++)
		walk_expr(w, e->args[i]);
}

static void walk_body(struct walk *w, const struct body *b)
{
	for (size_t i = 0; i < b->n && w->ok; i++) {
		const struct node *n = b->v[i];
		switch (n->kind) {
		case N_TEXT:
		case N_BREAK:
		case N_CONTINUE: break;
		case N_OUTPUT: walk_expr(w, n->e); break;
		case N_IF:
			for (size_t k = 0; k < n->nconds; k++) {
				walk_expr(w, n->conds[k]);
				walk_body(w, &n->bodies[k]);
			}
			walk_body(w, &n->else_body);
			break;
		case N_FOR: {
			walk_expr(w, n->e);
			size_t mark = w->nbound;
			for (int k = 0; k < n->ntargets; k++)
				bind(w, n->targets[k]);
			bind(w, str_from("loop"));
			walk_expr(w, n->e2);
			walk_body(w, &n->body);
			w->nbound = mark;
			walk_body(w, &n->else_body);
			break;
		}
		case N_SET:
		case N_SET_BLOCK:
			/* a name set in the body is still read from outside
			 * before it is set: it stays a free name. An attribute
			 * set changes a value the caller may hold. */
			if (n->attr.len)
				w->ok = 0;
			walk_expr(w, n->e);
			walk_body(w, &n->body);
			break;
		default: w->ok = 0; /* include, block, macro, import, extends */
		}
	}
}

void memo_analyse(struct arena *a, struct macro *m)
{
	struct walk w;
	w.a = a;
	w.ok = 1;
	w.nbound = w.nfree = 0;
	for (size_t k = 0; k < m->nparams && w.ok; k++) {
		/* a default sees the parameters before its own */
		walk_expr(&w, m->defaults[k]);
		bind(&w, m->params[k]);
	}
	walk_body(&w, &m->body);
	m->memo = w.ok;
	m->nfree = w.ok ? w.nfree : 0;
	m->free = NULL;
	m->free_hash = NULL;
	if (m->nfree) {
		m->free = arena_alloc(a, m->nfree * sizeof *m->free);
		m->free_hash = arena_alloc(a, m->nfree * sizeof *m->free_hash);
		for (size_t i = 0; i < m->nfree; i++) {
			m->free[i] = w.free[i];
			m->free_hash[i] = hash_bytes(w.free[i].p, w.free[i].len);
		}
	}
}

/* ---- the table ---- */

/* A call kept: one allocation holding the ids, the key and the text. */
struct memo_entry {
	size_t size;
	struct str out;
	const uint32_t *deps;
	size_t ndeps;
	int with_deps;
};

struct tmpl_memo {
	pthread_mutex_t lock;
	struct map calls; /* key -> struct memo_entry * */
	size_t bytes, max_bytes;
	/* entries replaced by one with ids: another thread may still read
	 * the text it was given, so they go with the memo */
	struct memo_entry **retired;
	size_t nretired;
	size_t taken; /* calls answered */
};

_Thread_local struct tmpl_memo *tmpl_memo_current;

struct tmpl_memo *tmpl_memo_new(size_t max_bytes)
{
	struct tmpl_memo *mm = xcalloc(1, sizeof *mm);
	pthread_mutex_init(&mm->lock, NULL);
	mm->calls = (struct map)MAP_INIT;
	mm->max_bytes = max_bytes;
	return mm;
}

void tmpl_memo_free(struct tmpl_memo *mm)
{
	if (!mm)
		return;
	for (size_t i = 0; i < mm->calls.n; i++)
		free(mm->calls.e[i].val.p);
	for (size_t i = 0; i < mm->nretired; i++)
		free(mm->retired[i]);
	free(mm->retired);
	map_fini(&mm->calls);
	pthread_mutex_destroy(&mm->lock);
	free(mm);
}

void tmpl_memo_use(struct tmpl_memo *mm)
{
	tmpl_memo_current = mm;
}

size_t tmpl_memo_bytes(const struct tmpl_memo *mm)
{
	return mm->bytes;
}

void tmpl_memo_counts(struct tmpl_memo *mm, size_t *kept, size_t *taken)
{
	pthread_mutex_lock(&mm->lock);
	*kept = mm->calls.n;
	*taken = mm->taken;
	pthread_mutex_unlock(&mm->lock);
}

int memo_find(struct tmpl_memo *mm, const void *key, size_t klen, int with_deps, struct str *out,
	      const uint32_t **deps, size_t *ndeps)
{
	int found = 0;
	pthread_mutex_lock(&mm->lock);
	struct map_entry *me = map_find(&mm->calls, key, klen);
	const struct memo_entry *e = me ? me->val.p : NULL;
	/* an entry made without a recorder knows no ids */
	if (e && (e->with_deps || !with_deps)) {
		*out = e->out;
		*deps = e->deps;
		*ndeps = e->ndeps;
		found = 1;
		mm->taken++;
	}
	pthread_mutex_unlock(&mm->lock);
	return found;
}

void memo_put(struct tmpl_memo *mm, const void *key, size_t klen, struct str out, const uint32_t *deps,
	      size_t ndeps, int with_deps)
{
	size_t size = sizeof(struct memo_entry) + (ndeps + 1) * sizeof *deps + klen + out.len + 1;
	pthread_mutex_lock(&mm->lock);
	struct map_entry *me = map_find(&mm->calls, key, klen);
	struct memo_entry *old = me ? me->val.p : NULL;
	if ((old && (old->with_deps || !with_deps)) || mm->bytes + size > mm->max_bytes) {
		/* another thread made it first, or no room */
		pthread_mutex_unlock(&mm->lock);
		return;
	}
	/* the entry, then the ids (aligned after it), the key, the text */
	struct memo_entry *e = xmalloc(size);
	uint32_t *ids = (uint32_t *)(e + 1);
	if (ndeps)
		memcpy(ids, deps, ndeps * sizeof *deps);
	char *k = (char *)(ids + ndeps + 1);
	memcpy(k, key, klen);
	char *text = k + klen;
	if (out.len)
		memcpy(text, out.p, out.len);
	text[out.len] = '\0';
	*e = (struct memo_entry){size, {text, out.len}, ids, ndeps, with_deps};
	if (old) { /* made without ids: this one has them */
		mm->retired = xrealloc(mm->retired, (mm->nretired + 1) * sizeof *mm->retired);
		mm->retired[mm->nretired++] = old;
		me->key = k;
	} else {
		me = map_put(&mm->calls, k, klen, NULL);
	}
	me->val.p = e;
	mm->bytes += size;
	pthread_mutex_unlock(&mm->lock);
}
