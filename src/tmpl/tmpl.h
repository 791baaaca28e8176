/* tmpl.h: folio's template language (the Jinja family): values, template
 * sets and rendering. The language is described in folio-template(5).
 *
 * A template set (struct tmpl_env) is filled once: every template is parsed
 * into a tree whose nodes carry line and column, and tmpl_env_check links the
 * set (includes, parents, imports). After that the set is read-only and
 * tmpl_render may run on several threads at once, each with its own output
 * buffer and scratch arena.
 *
 * Folder tmpl/: a general template engine (values, template sets,
 * rendering), which knows no blog.
 * uses: base, formats.
 */
#ifndef FOLIO_TMPL_H
#define FOLIO_TMPL_H

#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/index.h"
#include "base/buf.h"
#include "base/diag.h"

/* ---- Values ------------------------------------------------------------ */

enum tval_kind {
	TV_UNDEF, /* a name that does not exist: u.s is its spelling (with
		   * safe = 1, the whole message); a field or item: u.missing
		   * (safe = 2) */
	TV_NONE,
	TV_BOOL,
	TV_INT,
	TV_FLOAT,
	TV_STR, /* u.s; safe = 1 marks HTML that must not be escaped again */
	TV_LIST,
	TV_MAP,
	TV_OBJ,  /* an object of the host (the site model), read through callbacks */
	TV_FUNC  /* a macro or a built-in function such as range() */
};

struct tlist;
struct tmap;
struct tobj_class;
struct tfunc;
struct tmissing;

/* A dynamic value: small, copied by value. Strings, lists and maps point to
 * memory owned by whoever made them (an arena); a value never owns memory. */
struct tval {
	unsigned char kind;
	unsigned char safe;
	union {
		int b;
		int64_t i;
		double f;
		struct str s;
		struct tlist *list;
		struct tmap *map;
		struct {
			const struct tobj_class *cls;
			const void *self;
		} obj;
		const struct tfunc *func;
		const struct tmissing *missing;
	} u;
};

struct tlist {
	size_t len, cap;
	struct tval *items;
};

/* An insertion-ordered map with string keys; hashed once it grows past a
 * few entries, so lookups stay O(1) for big maps such as tag indexes. */
struct tmap {
	size_t len, cap;
	struct str *keys;
	struct tval *vals;
	struct index index; /* position + 1, by key; no slots below TMAP_LINEAR keys */
	uint32_t dep; /* 0, or the first of the TMPL_DEP_FIELDS + 1 ids that
	               * renders record when they read this map (see
	               * tmpl_deps_record) */
	unsigned char frozen; /* tmap_freeze */
	unsigned char shared; /* keys and index are a shape's (tmap_new_like) */
};

/* An object hands the host's data to templates without copying it.
 * get: looks up a field; returns 1 and sets *out, or 0 when there is no such
 *      field. Results may be allocated from a (the render's scratch arena).
 * len/at: optional (NULL for none); make the object a sequence that for-loops
 *      and filters can walk.
 * fields: optional NULL-terminated field names, for `json` and for loops over
 *      the object as a map.
 * The callbacks must be safe to call from several threads at once. */
struct tobj_class {
	const char *name;
	int (*get)(const void *self, struct str key, struct tval *out, struct arena *a);
	size_t (*len)(const void *self);
	int (*at)(const void *self, size_t i, struct tval *out, struct arena *a);
	const char *const *fields;
};

struct tval tv_undef(void);
struct tval tv_none(void);
struct tval tv_bool(int b);
struct tval tv_int(int64_t i);
struct tval tv_float(double f);
struct tval tv_str(struct str s);   /* text: escaped when printed */
struct tval tv_cstr(const char *s); /* s must outlive the value */
struct tval tv_safe(struct str s);  /* HTML: printed as is */
struct tval tv_list(struct tlist *l);
struct tval tv_map(struct tmap *m);
struct tval tv_obj(const struct tobj_class *cls, const void *self);

/* Lists and maps are built in an arena. tmap_set replaces an existing key. */
struct tlist *tlist_new(struct arena *a, size_t cap);
void tlist_push(struct arena *a, struct tlist *l, struct tval v);
struct tmap *tmap_new(struct arena *a, size_t cap);
/* tmap_new_like: an empty map that takes its keys, and their index, from
 * shape, which must not change while the map lives: a map of the same
 * keys set in the same order (a post's, a heading's) holds only its
 * values. Setting a key that is not the shape's next makes the map's own
 * copy of its keys first; the map is the same to everything else.
 * tmap_shares_keys: whether m still takes its keys from a shape. */
struct tmap *tmap_new_like(struct arena *a, const struct tmap *shape);
int tmap_shares_keys(const struct tmap *m);
void tmap_set(struct arena *a, struct tmap *m, struct str key, struct tval v);
void tmap_set_cstr(struct arena *a, struct tmap *m, const char *key, struct tval v);
/* tmap_get: the value for key, or NULL. */
const struct tval *tmap_get(const struct tmap *m, struct str key);

/* tval_truthy: Jinja's truth: none, undefined, false, 0, 0.0, "" and empty
 * lists, maps and sequence objects are false. */
int tval_truthy(const struct tval *v);
/* tval_type_name: "none", "string", "list", ... for error messages. */
const char *tval_type_name(const struct tval *v);
/* tval_to_text: appends the plain-text form of v (no escaping). Integers in
 * decimal, floats as Python prints them (2.5, 3.0, 1e+16), booleans as true
 * and false, none and undefined as nothing, lists and maps as JSON. Returns
 * 0, or -1 if the text is longer than limit bytes (b then holds a part of
 * it: writing stops soon after the limit). */
int tval_to_text(struct buf *b, const struct tval *v, struct arena *a, size_t limit);
/* tval_to_json: appends v as JSON. With html_safe, <, >, & and ' are written
 * as \u escapes so the result can sit inside <script> or an attribute.
 * Returns as tval_to_text does: lists that hold one list many times over
 * are small in memory, and may be too large to write out. */
int tval_to_json(struct buf *b, const struct tval *v, struct arena *a, int html_safe, size_t limit);

struct ynode;
/* tval_from_yaml: converts a YAML tree (see yaml.h) into values in a: maps,
 * lists, and typed scalars (quoted scalars stay strings). */
struct tval tval_from_yaml(struct arena *a, const struct ynode *n);

/* ---- Template sets ----------------------------------------------------- */

struct tmpl_env;

/* tmpl_env_new: an empty set with strict undefined variables, a 64 MiB cap
 * on one render's output and a nesting cap of 100 (includes, macro calls). */
struct tmpl_env *tmpl_env_new(void);
void tmpl_env_free(struct tmpl_env *env);

/* strict (default 1): printing, iterating or computing with an undefined
 * value is an error. Off: it prints as nothing and iterates as empty. */
void tmpl_env_set_strict(struct tmpl_env *env, int strict);
/* base_url: the site's address, used by abs_url and rel_url. Copied. */
void tmpl_env_set_base_url(struct tmpl_env *env, const char *base_url);
/* tmpl_env_set_limits: max_output caps a render's output, and also any one
 * string or list it builds (a value that doubles in a loop); the scratch
 * memory of a render is capped at 4 * max_output + 128 MiB. max_depth caps
 * the nesting of includes, parents and macro calls (at most 128). A render
 * also stops after 100 million loop iterations and macro calls. Passing a
 * cap is an error with the position where it happened, never a crash. */
void tmpl_env_set_limits(struct tmpl_env *env, size_t max_output, int max_depth);
/* tmpl_env_set_global: a variable every template sees (the render's own
 * variables hide it). v must live as long as env; name is copied. */
void tmpl_env_set_global(struct tmpl_env *env, const char *name, struct tval v);

/* A language for the filters that write words: the names of months and
 * weekdays that `date` writes for %B, %b, %A and %a (days from Sunday), and
 * which counts take the `one` form of a message in `fill`. A name left NULL
 * is the English one. The strings must live as long as env. */
enum tmpl_plural {
	TMPL_PLURAL_ONE,      /* one: n == 1 (English, German, Spanish) */
	TMPL_PLURAL_ZERO_ONE, /* one: n is 0 or 1 (French) */
	TMPL_PLURAL_NONE      /* always `other` (Chinese, Japanese) */
};
struct tmpl_locale {
	const char *months[12], *months_short[12];
	const char *days[7], *days_short[7];
	enum tmpl_plural plural;
};
/* tmpl_env_set_locale: copies loc (NULL: English, the default). */
void tmpl_env_set_locale(struct tmpl_env *env, const struct tmpl_locale *loc);
/* tmpl_env_set_locale_dep: renders that use the locale (a name of a month
 * or day, a plural form) record dep. */
void tmpl_env_set_locale_dep(struct tmpl_env *env, uint32_t dep);
/* tmpl_env_global: the value of a global set with tmpl_env_set_global, or
 * NULL. */
const struct tval *tmpl_env_global(const struct tmpl_env *env, const char *name);

/* tmpl_env_add: parses src[0..len) as the template `name` (as used by
 * include and extends, e.g. "post.html"); path is how diagnostics name the
 * file ("templates/post.html"). The text is copied. A template of the same
 * name replaces the earlier one (a site's file overriding the theme's).
 * Every syntax error is reported to d. Returns the number of errors. */
int tmpl_env_add(struct tmpl_env *env, const char *name, const char *path, const char *src,
		 size_t len, struct diag *d);

/* tmpl_env_check: links the set once every template is added: parents,
 * includes and imports named by a literal must exist, and must not form a
 * cycle. Reports every problem to d, with the chain of templates that leads
 * to it. Returns the number of errors. */
int tmpl_env_check(struct tmpl_env *env, struct diag *d);

/* tmpl_env_has: whether a template of that name was added. */
int tmpl_env_has(const struct tmpl_env *env, const char *name);

/* tmpl_render: renders template `name` with vars (a map or object value, or
 * NULL) appended to out. Temporary values come from scratch, which the
 * caller may reset after the call. Errors (undefined variables, type errors,
 * output or nesting caps) are reported to d with the include chain; the
 * render continues past an error where it can, to report more. Returns the
 * number of errors (0: out holds the page). Reentrant. */
int tmpl_render(const struct tmpl_env *env, const char *name, const struct tval *vars,
		struct buf *out, struct arena *scratch, struct diag *d);

/* tmpl_render_pieces: tmpl_render, but a string of TMPL_PIECE_MIN bytes or
 * more printed as it is (a post's HTML through `safe`, a long run of a
 * template's text) is not copied into out: it is recorded in pieces
 * (emptied first; pieces->v is malloc'd, the caller frees it), to come
 * before out's byte `at`. The page is out's bytes with each piece put in at
 * its offset, in order; the pieces' bytes belong to the values and to
 * scratch, and stay valid while they do. The output cap counts them. */
#define TMPL_PIECE_MIN ((size_t)64 << 10)
struct tmpl_piece {
	size_t at;
	struct str s;
};
struct tmpl_pieces {
	struct tmpl_piece *v;
	size_t n, cap;
};
int tmpl_render_pieces(const struct tmpl_env *env, const char *name, const struct tval *vars, struct buf *out,
		       struct tmpl_pieces *pieces, struct arena *scratch, struct diag *d);

/* ---- Dependencies -------------------------------------------------------- */

/* What a render read, for incremental rebuilds (folio serve): ids
 * (nonzero, below nbits), each recorded once. A map with dep d owns the ids
 * d .. d + TMPL_DEP_FIELDS: looking up its key at position i records
 * d + 1 + i (d itself for a position past TMPL_DEP_FIELDS - 1, or a key it
 * does not have); iterating it, taking its length, writing it as JSON or
 * comparing it records d. A global set with tmpl_env_set_global_dep records
 * its id when looked up, a template with a dep when it is used. */
#define TMPL_DEP_FIELDS 63
struct tmpl_deps {
	uint64_t *seen; /* a bit per id */
	size_t nbits;
	uint32_t *ids; /* in the order first read */
	size_t n, cap;
	/* while a remembered macro call is made (tmpl_memo), every id it
	 * reads, in order, repeats included */
	uint32_t *cids;
	size_t cn, ccap;
	int cdepth;
};

/* tmpl_deps_init: a recorder for ids below nbits (others are ignored:
 * size it for every id in use). tmpl_deps_fini frees it. */
void tmpl_deps_init(struct tmpl_deps *r, size_t nbits);
void tmpl_deps_fini(struct tmpl_deps *r);
/* tmpl_deps_clear: forgets what was recorded; cheap (clears only the bits
 * set). */
void tmpl_deps_clear(struct tmpl_deps *r);
/* tmpl_deps_record: renders on this thread record into r from now on;
 * NULL stops recording. */
void tmpl_deps_record(struct tmpl_deps *r);
/* tmpl_deps_touch: records id on this thread, if it records. */
void tmpl_deps_touch(uint32_t id);

/* tmpl_env_set_global_dep: a global (as tmpl_env_set_global) whose lookup
 * records dep. */
void tmpl_env_set_global_dep(struct tmpl_env *env, const char *name, struct tval v, uint32_t dep);
/* tmpl_env_set_template_dep: renders that use template `name` (as the page,
 * a parent, an include or an import) record dep. 0 if there is such a
 * template, else -1. */
int tmpl_env_set_template_dep(struct tmpl_env *env, const char *name, uint32_t dep);
/* tmpl_env_set_missing_dep: renders that look for a template the set does
 * not have (`include ... ignore missing`) record dep. */
void tmpl_env_set_missing_dep(struct tmpl_env *env, uint32_t dep);
/* tmpl_env_count, tmpl_env_name, tmpl_env_source: the templates of the set
 * (i below the count), by name and with their text. */
size_t tmpl_env_count(const struct tmpl_env *env);
const char *tmpl_env_name(const struct tmpl_env *env, size_t i);
struct str tmpl_env_source(const struct tmpl_env *env, size_t i);

/* ---- Macro calls remembered ------------------------------------------- */

/* A memo lets the renders of several pages share the text of a macro call:
 * a call is made once and its text taken for each later call of the same
 * macro with the same arguments while the names its body reads (other
 * than its parameters and loop variables, in the macros it calls too)
 * hold the same values. A macro whose body includes, imports, sets an
 * attribute, calls caller() or super(), or uses a filter of the host's is
 * never remembered; nor is a call with an error, or one given a value that
 * cannot be compared cheaply and surely. Values compare as: strings,
 * numbers, booleans and none by value; macros and globals by identity;
 * maps only when frozen (tmap_freeze), by identity; lists and other maps
 * never. The ids a call records (tmpl_deps_record) are recorded again by
 * each call that takes its text, so incremental builds see the same
 * dependencies.
 *
 * tmpl_memo_new: an empty memo holding at most max_bytes of text and keys
 * (past that, calls are made as usual). tmpl_memo_use: renders on this
 * thread use mm from now on (NULL: none); a memo may serve several threads
 * at once. It must be freed (tmpl_memo_free) before any frozen map or
 * global it saw changes or is freed. tmpl_memo_bytes: what it holds. */
struct tmpl_memo;
struct tmpl_memo *tmpl_memo_new(size_t max_bytes);
void tmpl_memo_free(struct tmpl_memo *mm);
void tmpl_memo_use(struct tmpl_memo *mm);
size_t tmpl_memo_bytes(const struct tmpl_memo *mm);
/* tmpl_memo_counts: the calls kept, and the calls answered from them. */
void tmpl_memo_counts(struct tmpl_memo *mm, size_t *kept, size_t *taken);
/* tmap_freeze: m, and every value it holds, stay as they are while a memo
 * lives (the host's data: a post's map); a template's `set m.x` is then an
 * error. */
void tmap_freeze(struct tmap *m);
/* tval_freeze: tmap_freeze of every map in v, however deep (to 64 levels). */
void tval_freeze(const struct tval *v);

/* ---- Filters ----------------------------------------------------------- */

struct tmpl_call; /* the render in progress, for filters that report errors */

/* A filter receives its input and its arguments, already bound to the
 * parameters the filter declared (missing optional ones are TV_UNDEF), and
 * stores its result. Return 0, or -1 after calling tmpl_call_error. */
typedef int (*tmpl_filter_fn)(struct tmpl_call *c, const struct tval *in, const struct tval *args,
			      struct tval *out);

/* tmpl_env_add_filter: adds or replaces a filter. params is a comma-separated
 * list of parameter names, optional ones ending in '?', e.g. "length?,end?".
 * Must be called before templates using it are added (filters are checked
 * at parse time). */
void tmpl_env_add_filter(struct tmpl_env *env, const char *name, tmpl_filter_fn fn,
			 const char *params);

/* For filter implementations: the scratch arena, and error reporting at the
 * filter's position in the template. */
struct arena *tmpl_call_arena(struct tmpl_call *c);
/* tmpl_call_max_output: the longest string a filter should make (the
 * render's output cap, see tmpl_env_set_limits). */
size_t tmpl_call_max_output(struct tmpl_call *c);
const struct tmpl_env *tmpl_call_env(struct tmpl_call *c);
void tmpl_call_error(struct tmpl_call *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
