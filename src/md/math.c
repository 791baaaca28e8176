/* math.c: TeX to MathML with KaTeX in QuickJS, one interpreter per thread,
 * and a cache of results in memory, which the caller saves between builds
 * as the bytes math_cache_save gives (md/ reads and writes no file). */
#include "md/math.h"

#include "base/slug.h"

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <quickjs/quickjs.h>

#include "base/arena.h"
#include "base/hash.h"
#include "base/map.h"
#include "base/version.h"
#include "md/mathjax.h"
#include "md/qjs.h"

/* build/gen/katex.c (scripts/embed-js.c): katex.min.js as bytecode. */
extern const unsigned char math_katex_bc[]; /* KaTeX as QuickJS bytecode */
extern const size_t math_katex_bc_len;

/* The glue folio runs after KaTeX: one function per render. macros arrive
 * as JSON, parsed once per distinct text, and are copied for every formula
 * because KaTeX writes \gdef definitions into the object it is given: a
 * formula must not change how the next one renders (or the cache would
 * depend on the order of pages). strict "ignore": LaTeX-compatibility
 * remarks are not errors (and QuickJS has no console to warn on); unknown
 * commands are errors whatever strict says, as throwOnError is set. trust:
 * \href, \url, \htmlClass... are allowed, as raw HTML is in folio's
 * Markdown (the author's own text); untrusted, KaTeX would print them in
 * red instead, not fail.
 * A ParseError's position is kept only when it points into this formula's
 * TeX: an error inside a macro's expansion gives a position in the
 * expansion, which the check against the excerpt in the message (the
 * blamed text, each character followed by U+0332) tells apart; its
 * message then ends in "(in a macro expansion)". Messages are KaTeX's short
 * ones (rawMessage), without its excerpt: folio's diagnostics point at the
 * place in the Markdown source with a caret instead. */
static const char glue_js[] =
    "var __folio_render = (function (katex) {\n"
    "  var json = null, macros = null;\n"
    "  return function (tex, display, macrosJson) {\n"
    "    if (macrosJson !== json) { macros = JSON.parse(macrosJson); json = macrosJson; }\n"
    "    var m = {};\n"
    "    for (var k in macros) m[k] = macros[k];\n"
    "    try {\n"
    "      return katex.renderToString(tex, {output: 'mathml', displayMode: display,\n"
    "        throwOnError: true, strict: 'ignore', trust: true, macros: m});\n"
    "    } catch (e) {\n"
    "      var inMacro = false;\n"
    "      if (e instanceof katex.ParseError && typeof e.position === 'number') {\n"
    "        var n = typeof e.length === 'number' ? e.length : 0;\n"
    "        var blamed = tex.slice(e.position, e.position + n).replace(/[^]/g, '$&\\u0332');\n"
    "        if (e.position > tex.length || e.message.indexOf(blamed) < 0) {\n"
    "          e.position = undefined;\n"
    "          inMacro = true;\n"
    "        }\n"
    "      }\n"
    "      /* the short message: folio's caret shows where, so no excerpt */\n"
    "      if (e instanceof katex.ParseError && e.rawMessage)\n"
    "        e.message = e.rawMessage + (inMacro ? ' (in a macro expansion)' : '');\n"
    "      throw e;\n"
    "    }\n"
    "  };\n"
    "})(katex);\n";

/* ---- the per-thread interpreter ---- */

double math_doc_seconds(void)
{
	return MATH_DOC_TIME_LIMIT_S * qjs_time_scale();
}

/* The thread's interpreter: a struct qjs whose fn is __folio_render. */
static struct qjs_slot slot = QJS_SLOT(qjs_free);

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* interp_new: a runtime with KaTeX and the glue loaded (owned by the
 * caller: qjs_free), or NULL with the reason in err. */
static struct qjs *interp_new(struct buf *err)
{
	struct qjs *js = xmalloc(sizeof *js);
	if (qjs_open(js, MATH_MEMORY_LIMIT, MATH_MAX_STACK) < 0) {
		buf_puts(err, "cannot start QuickJS (out of memory)");
		free(js);
		return NULL;
	}
	const char *what = "katex.min.js";
	JSValue v = JS_ReadObject(js->ctx, math_katex_bc, math_katex_bc_len, JS_READ_OBJ_BYTECODE);
	if (!JS_IsException(v))
		v = JS_EvalFunction(js->ctx, v); /* takes v */
	if (!JS_IsException(v)) {
		JS_FreeValue(js->ctx, v);
		what = "folio's KaTeX glue";
		v = JS_Eval(js->ctx, glue_js, sizeof glue_js - 1, "folio-math.js",
		            JS_EVAL_TYPE_GLOBAL);
	}
	if (JS_IsException(v))
		return qjs_load_failed(js, what, err);
	JS_FreeValue(js->ctx, v);
	JSValue global = JS_GetGlobalObject(js->ctx);
	js->fn = JS_GetPropertyStr(js->ctx, global, "__folio_render");
	JS_FreeValue(js->ctx, global);
	if (!JS_IsFunction(js->ctx, js->fn)) {
		buf_puts(err, "folio's KaTeX glue defines no __folio_render");
		qjs_free(js);
		return NULL;
	}
	return js;
}

/* ---- the cache ---- */

struct entry {
	size_t tex_len, html_len;
	int display;
	int age;     /* runs since it was last used, as read from the saved file */
	int used;    /* typeset or found in this run */
	char data[]; /* tex, then html, then NUL */
};

struct math_cache {
	pthread_mutex_t lock; /* guards everything below but the constants */
	char *macros_json;    /* constant */
	size_t macros_json_len;
	uint64_t salt; /* hash of what the output depends on besides the TeX; constant */
	/* the entries (struct entry, malloc'd, owned here), inline and
	 * display, by TeX (the entry's own copy) */
	struct map kind[2];
	int dirty;     /* the saved file should be rewritten */
	int read_only; /* never saved (math_cache_read_only) */
	int mathjax;   /* formulas rewritten by mathjax_rewrite first; constant */
	struct math_stats stats;
};

/* Called with c->lock held. */
static struct entry *cache_find(struct math_cache *c, const char *tex, size_t len, int display)
{
	return map_get(&c->kind[display], tex, len);
}

/* cache_insert: e, unless an entry of its TeX is there (then e is freed);
 * 1 when it went in. Called with c->lock held (or before c is shared). */
static int cache_insert(struct math_cache *c, struct entry *e)
{
	int added;
	struct map_entry *me = map_put(&c->kind[e->display], e->data, e->tex_len, &added);
	if (!added) {
		free(e);
		return 0;
	}
	me->val.p = e;
	return 1;
}

static struct entry *entry_new(const char *tex, size_t tex_len, int display, const char *html, size_t html_len)
{
	struct entry *e = xmalloc(sizeof *e + tex_len + html_len + 1);
	e->tex_len = tex_len;
	e->html_len = html_len;
	e->display = display;
	e->age = 0;
	e->used = 0;
	memcpy(e->data, tex, tex_len);
	memcpy(e->data + tex_len, html, html_len);
	e->data[tex_len + html_len] = '\0';
	return e;
}

const char *math_macro_check(struct str name)
{
	if (name.len == 0 || name.p[0] != '\\')
		return "macro names start with '\\', as in '\\RR'";
	if (name.len == 1)
		return "a macro name needs a letter or a symbol after '\\'";
	if (name.len == 2)
		return NULL; /* \, \; \| ... */
	for (size_t i = 1; i < name.len; i++) {
		char ch = name.p[i];
		if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z')))
			return "a macro name is '\\' and letters, or '\\' and one symbol";
	}
	return NULL;
}

struct math_cache *math_cache_open(const struct math_macro *macros, size_t nmacros)
{
	struct math_cache *c = xcalloc(1, sizeof *c);
	pthread_mutex_init(&c->lock, NULL);
	struct buf j;
	buf_init(&j);
	buf_putc(&j, '{');
	for (size_t i = 0; i < nmacros; i++) {
		if (i)
			buf_putc(&j, ',');
		/* (\u00XX for a control character: the cache's key is a hash of
		 * this text, the same as it ever was) */
		buf_put_json(&j, macros[i].name.p, macros[i].name.len, JSON_ESC_CONTROL_U);
		buf_putc(&j, ':');
		buf_put_json(&j, macros[i].expansion.p, macros[i].expansion.len, JSON_ESC_CONTROL_U);
	}
	buf_putc(&j, '}');
	c->macros_json = buf_detach(&j, &c->macros_json_len);

	/* Everything the MathML depends on besides the formula: a new folio,
	 * KaTeX, glue or macros is a new cache. */
	struct hasher st;
	hasher_begin(&st, 0);
	static const char tag[] = "folio math cache 1\n" FOLIO_VERSION "\n";
	hasher_add(&st, tag, sizeof tag);
	hasher_add(&st, math_katex_bc, math_katex_bc_len);
	hasher_add(&st, glue_js, sizeof glue_js);
	hasher_add(&st, c->macros_json, c->macros_json_len);
	c->salt = hasher_digest(&st);
	return c;
}

uint64_t math_cache_key(const struct math_cache *c)
{
	return c->salt;
}

/* ---- the saved file ----
 * What math_cache_save makes and math_cache_load reads:
 *   folio-math-cache 1 KEY\n
 *   then per entry: D AGE TEXLEN HTMLLEN\n TEX HTML \n
 *   end N XXH64\n
 * KEY is the 16 hex digits of the cache's key (math_cache_key), N the
 * number of entries and XXH64 (16 hex digits) the hash of all the bytes
 * before "end". A file that does not parse exactly is ignored. */

#define CACHE_MAGIC "folio-math-cache 1"

/* parse_num: a decimal number ending in stop at *p (advanced past stop). */
static int parse_num(const char **p, const char *end, char stop, size_t *out)
{
	const char *s = *p;
	size_t n = 0;
	if (s >= end || *s < '0' || *s > '9')
		return -1;
	while (s < end && *s >= '0' && *s <= '9') {
		if (n > (SIZE_MAX - 9) / 10)
			return -1;
		n = n * 10 + (size_t)(*s++ - '0');
	}
	if (s >= end || *s != stop)
		return -1;
	*p = s + 1;
	*out = n;
	return 0;
}

/* load_entries: the entries of text[0..len) into *list (malloc'd, n of
 * them), and where their bytes end (before "end"): 0, or -1 when it does
 * not parse (*list holds what was read, for the caller to free). */
static int load_entries(const struct math_cache *c, const char *text, size_t len, struct entry ***list,
                        size_t *n, size_t *body)
{
	const char *p = text, *end = text + len;
	char head[64];
	int hl = snprintf(head, sizeof head, CACHE_MAGIC " %016llx\n", (unsigned long long)c->salt);
	size_t cap = 0;
	if (len < (size_t)hl || memcmp(p, head, (size_t)hl) != 0)
		return -1;
	for (p += hl; !(end - p >= 4 && memcmp(p, "end ", 4) == 0);) {
		size_t display, age, tl, hl2;
		if (parse_num(&p, end, ' ', &display) || display > 1 || parse_num(&p, end, ' ', &age) ||
		    parse_num(&p, end, ' ', &tl) || parse_num(&p, end, '\n', &hl2))
			return -1;
		if ((size_t)(end - p) < tl || (size_t)(end - p) - tl < hl2 + 1 || p[tl + hl2] != '\n')
			return -1;
		struct entry *e = entry_new(p, tl, (int)display, p + tl, hl2);
		e->age = age > MATH_CACHE_KEEP ? MATH_CACHE_KEEP : (int)age;
		if (*n == cap) {
			cap = cap ? cap * 2 : 64;
			*list = xrealloc(*list, cap * sizeof **list);
		}
		(*list)[(*n)++] = e;
		p += tl + hl2 + 1;
	}
	*body = (size_t)(p - text);
	return 0;
}

void math_cache_load(struct math_cache *c, const char *text, size_t len)
{
	struct entry **list = NULL;
	size_t n = 0, body = 0, count;
	int ok = load_entries(c, text, len, &list, &n, &body) == 0;
	const char *p = text + body, *end = text + len;
	if (ok) {
		p += 4;
		ok = !parse_num(&p, end, ' ', &count) && count == n && end - p == 17 && end[-1] == '\n';
	}
	if (ok) {
		char sum[17];
		snprintf(sum, sizeof sum, "%016llx", (unsigned long long)hash_bytes(text, body));
		ok = memcmp(p, sum, 16) == 0;
	}
	pthread_mutex_lock(&c->lock);
	for (size_t i = 0; i < n; i++) {
		if (ok)
			cache_insert(c, list[i]);
		else
			free(list[i]);
	}
	if (ok)
		c->stats.disk_entries = c->kind[0].n + c->kind[1].n;
	pthread_mutex_unlock(&c->lock);
	free(list);
}

int math_cache_save(struct math_cache *c, struct buf *out)
{
	pthread_mutex_lock(&c->lock);
	/* Rewritten when something was added, or when an entry ages (a
	 * formula removed from the site leaves after a few runs). */
	int write = c->dirty && !c->read_only;
	for (int k = 0; k < 2 && !write && !c->read_only; k++)
		for (size_t i = 0; i < c->kind[k].n && !write; i++)
			write = !((struct entry *)c->kind[k].e[i].val.p)->used;
	if (write) {
		size_t start = out->len, n = 0;
		buf_printf(out, CACHE_MAGIC " %016llx\n", (unsigned long long)c->salt);
		for (int k = 0; k < 2; k++)
			for (size_t i = 0; i < c->kind[k].n; i++) {
				const struct entry *e = c->kind[k].e[i].val.p;
				int age = e->used ? 0 : e->age + 1;
				if (age >= MATH_CACHE_KEEP)
					continue;
				buf_printf(out, "%d %d %zu %zu\n", e->display, age, e->tex_len, e->html_len);
				buf_append(out, e->data, e->tex_len + e->html_len);
				buf_putc(out, '\n');
				n++;
			}
		buf_printf(out, "end %zu %016llx\n", n,
		           (unsigned long long)hash_bytes(out->p + start, out->len - start));
	}
	pthread_mutex_unlock(&c->lock);
	return write;
}

void math_cache_close(struct math_cache *c)
{
	if (!c)
		return;
	for (int k = 0; k < 2; k++) {
		for (size_t i = 0; i < c->kind[k].n; i++)
			free(c->kind[k].e[i].val.p);
		map_fini(&c->kind[k]);
	}
	free(c->macros_json);
	pthread_mutex_destroy(&c->lock);
	free(c);
}

void math_cache_mathjax(struct math_cache *c)
{
	c->mathjax = 1;
}

void math_cache_read_only(struct math_cache *c)
{
	c->read_only = 1;
}

void math_stats(struct math_cache *c, struct math_stats *s)
{
	pthread_mutex_lock(&c->lock);
	*s = c->stats;
	pthread_mutex_unlock(&c->lock);
}

/* ---- rendering ---- */

/* byte_offset: the byte offset in s[0..len) (UTF-8) of UTF-16 unit u, as
 * QuickJS decodes the string (a byte that starts no valid sequence is one
 * unit). */
static int byte_offset(const char *s, size_t len, long u)
{
	size_t i = 0;
	while (i < len && u > 0) {
		unsigned char ch = (unsigned char)s[i];
		size_t n = ch < 0xc0 ? 1 : ch < 0xe0 ? 2 : ch < 0xf0 ? 3 : ch < 0xf8 ? 4 : 1;
		if (i + n > len)
			n = 1;
		for (size_t k = 1; k < n; k++)
			if (((unsigned char)s[i + k] & 0xc0) != 0x80)
				n = 1;
		u -= n == 4 ? 2 : 1;
		i += n;
	}
	return (int)i;
}

/* The thread's interpreter, made on first use. NULL with err set if it
 * cannot start. */
static struct qjs *thread_js(struct math_cache *c, struct buf *err)
{
	struct qjs *js = qjs_slot_get(&slot);
	if (js)
		return js;
	double t0 = now_s();
	js = interp_new(err);
	if (!js)
		return NULL;
	qjs_slot_set(&slot, js);
	double dt = now_s() - t0;
	pthread_mutex_lock(&c->lock);
	c->stats.loads++;
	c->stats.load_s += dt;
	pthread_mutex_unlock(&c->lock);
	return js;
}

void math_thread_cleanup(void)
{
	qjs_slot_clear(&slot);
}

static void fail(struct math_cache *c, int *err_pos, int pos)
{
	if (err_pos)
		*err_pos = pos;
	pthread_mutex_lock(&c->lock);
	c->stats.errors++;
	pthread_mutex_unlock(&c->lock);
}

/* bad_html: 1, with a message in err, if KaTeX's html for len bytes of TeX may not go
 * in a page: much longer than the TeX (MATH_MAX_GROWTH), or holding a NUL
 * (KaTeX's \char0; the page would end there) or a lone surrogate (no
 * UTF-8). Checked on cache hits too: the cache file is not trusted. */
static int bad_html(size_t len, const char *html, size_t html_len, struct buf *err)
{
	if (html_len > MATH_MAX_GROWTH * len + MATH_GROWTH_SLACK) {
		buf_printf(err,
		           "formula makes %zu bytes of MathML, more than %d times its TeX "
		           "(hint: a macro that expands many times)",
		           html_len, MATH_MAX_GROWTH);
		return 1;
	}
	if (memchr(html, '\0', html_len) || utf8_valid_prefix(html, html_len) != html_len) {
		buf_puts(err, "formula makes a character a page cannot hold (U+0000 or not UTF-8)");
		return 1;
	}
	return 0;
}

/* render: math_render of TeX in KaTeX's dialect. */
static int render(struct math_cache *c, const char *tex, size_t len, int display, struct buf *out,
                  struct buf *err, int *err_pos)
{
	struct buf scratch;
	buf_init(&scratch);
	if (!err)
		err = &scratch;
	buf_reset(err);
	display = display != 0;
	if (len > MATH_MAX_LEN) {
		/* Linear but slow: 100 KB of TeX would take KaTeX over a second. */
		buf_printf(err, "formula too long (%zu bytes, at most %d)", len, MATH_MAX_LEN);
		fail(c, err_pos, -1);
		buf_fini(&scratch);
		return -1;
	}
	pthread_mutex_lock(&c->lock);
	struct entry *hit = cache_find(c, tex, len, display);
	if (hit && bad_html(len, hit->data + hit->tex_len, hit->html_len, err)) {
		pthread_mutex_unlock(&c->lock);
		fail(c, err_pos, -1);
		buf_fini(&scratch);
		return -1;
	}
	if (hit) {
		hit->used = 1;
		c->stats.cached++;
		buf_append(out, hit->data + hit->tex_len, hit->html_len);
		pthread_mutex_unlock(&c->lock);
		if (err_pos)
			*err_pos = -1;
		buf_fini(&scratch);
		return 0;
	}
	pthread_mutex_unlock(&c->lock);

	struct qjs *js = thread_js(c, err);
	if (!js) {
		fail(c, err_pos, -1);
		buf_fini(&scratch);
		return -1;
	}
	JSContext *ctx = js->ctx;
	double t0 = now_s();
	qjs_set_stack(js);
	qjs_deadline(js, MATH_TIME_LIMIT_S * qjs_time_scale());
	JSValue args[3] = {JS_NewStringLen(ctx, tex, len), JS_NewBool(ctx, display),
	                   JS_NewStringLen(ctx, c->macros_json, c->macros_json_len)};
	JSValue r = JS_Call(ctx, js->fn, JS_UNDEFINED, 3, args);
	for (int i = 0; i < 3; i++)
		JS_FreeValue(ctx, args[i]);
	size_t html_len = 0;
	const char *html = JS_IsException(r) ? NULL : JS_ToCStringLen(ctx, &html_len, r);
	JS_FreeValue(ctx, r);
	double dt = now_s() - t0;

	if (!html) {
		char *name, *msg;
		long upos;
		qjs_exception(ctx, &name, &msg, &upos);
		int pos = -1;
		int reset = 1;
		if (strcmp(name, "ParseError") == 0) {
			buf_puts(err, msg);
			if (upos >= 0)
				pos = byte_offset(tex, len, upos);
			reset = 0;
		} else if (strcmp(msg, "interrupted") == 0) {
			buf_printf(err, "formula takes longer than %d s to typeset",
			           MATH_TIME_LIMIT_S);
		} else if (strcmp(msg, "stack overflow") == 0) {
			buf_puts(err, "formula nested too deeply");
		} else if (strstr(msg, "out of memory") || !*msg) {
			/* (QuickJS throws null when it cannot even make the error) */
			buf_printf(err, "formula needs more than %u MB to typeset",
			           MATH_MEMORY_LIMIT >> 20);
		} else {
			buf_printf(err, "KaTeX failed: %s%s%s", name, *name ? ": " : "", msg);
		}
		free(name);
		free(msg);
		/* After an interruption, a stack overflow or running out of
		 * memory, KaTeX's state is unknown: start afresh next time. */
		if (reset)
			math_thread_cleanup();
		fail(c, err_pos, pos);
		buf_fini(&scratch);
		return -1;
	}

	if (bad_html(len, html, html_len, err)) {
		JS_FreeCString(ctx, html);
		fail(c, err_pos, -1);
		buf_fini(&scratch);
		return -1;
	}
	struct entry *e = entry_new(tex, len, display, html, html_len);
	JS_FreeCString(ctx, html);
	e->used = 1;
	buf_append(out, e->data + len, html_len);
	pthread_mutex_lock(&c->lock);
	c->stats.typeset++;
	c->stats.typeset_s += dt;
	if (cache_insert(c, e)) /* else another thread typeset it meanwhile */
		c->dirty = 1;
	pthread_mutex_unlock(&c->lock);
	if (err_pos)
		*err_pos = -1;
	buf_fini(&scratch);
	return 0;
}

int math_render(struct math_cache *c, const char *tex, size_t len, int display, struct buf *out,
                struct buf *err, int *err_pos)
{
	struct buf ktex, map;
	buf_init(&ktex);
	buf_init(&map);
	int pos = -1;
	int rc;
	if (c->mathjax && len <= MATH_MAX_LEN && mathjax_rewrite(tex, len, display, &ktex, &map)) {
		rc = render(c, ktex.p, ktex.len, display, out, err, &pos);
		if (pos >= 0) {
			/* back to the author's TeX (past the end: its end) */
			uint32_t at = (uint32_t)len;
			if ((size_t)pos < ktex.len)
				memcpy(&at, map.p + (size_t)pos * sizeof at, sizeof at);
			pos = (int)at;
		}
	} else {
		rc = render(c, tex, len, display, out, err, &pos);
	}
	if (err_pos)
		*err_pos = pos;
	buf_fini(&ktex);
	buf_fini(&map);
	return rc;
}

#ifndef FOLIO_QUICKJS_VERSION
#define FOLIO_QUICKJS_VERSION "(version not known)"
#endif
#ifndef FOLIO_KATEX_VERSION
#define FOLIO_KATEX_VERSION "(version not known)"
#endif

const char *math_version(void)
{
	return "QuickJS " FOLIO_QUICKJS_VERSION "\nKaTeX " FOLIO_KATEX_VERSION;
}
