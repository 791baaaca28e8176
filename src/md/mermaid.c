/* mermaid.c: Mermaid diagrams as inline SVG (mermaid.h): beautiful-mermaid,
 * dagre, folio's elkjs and entities stand-ins and its glue, embedded as
 * QuickJS module bytecode (build/gen/mermaid.c), run in one interpreter
 * per thread; the drawing checked and given folio's <svg> start tag. */
#include "md/mermaid.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/hash.h"
#include "md/diagram.h"
#include "md/qjs.h"

/* build/gen/mermaid.c (scripts/embed-js.c, mk/mermaid.mk): the modules as
 * bytecode, one after the other in mermaid_js_bc, the glue last. */
struct embed_js_unit {
	const char *name;
	size_t off, len;
};
extern const struct embed_js_unit mermaid_js_units[];
extern const size_t mermaid_js_nunits;
extern const unsigned char mermaid_js_bc[];
extern const size_t mermaid_js_bc_len;

/* ---- the per-thread interpreter ---- */

/* The thread's interpreter: a struct qjs whose fn is __folio_mermaid. */
static struct qjs_slot slot = QJS_SLOT(qjs_free);

/* interp_new: a runtime with the modules read and the glue evaluated
 * (owned by the caller: qjs_free), or NULL with the reason in err. The
 * modules import each other by the names they were embedded under, which
 * QuickJS finds among those already read (no loader). */
static struct qjs *interp_new(struct buf *err)
{
	struct qjs *js = xmalloc(sizeof *js);
	if (qjs_open(js, MERMAID_MEMORY_LIMIT, MERMAID_MAX_STACK) < 0) {
		buf_puts(err, "cannot start QuickJS (out of memory)");
		free(js);
		return NULL;
	}
	JSContext *ctx = js->ctx;
	/* FOLIO_MERMAID_NO_SHORTCUT, a hook of folio's tests: every graph laid
	 * out by dagre's own ranking, as a tree's shortcut must draw the same
	 * (folio(1)); read by mermaid/elk-dagre.js */
	const char *slow = getenv("FOLIO_MERMAID_NO_SHORTCUT");
	if (slow && *slow) {
		JSValue global = JS_GetGlobalObject(ctx);
		JS_SetPropertyStr(ctx, global, "__folio_no_shortcut", JS_TRUE);
		JS_FreeValue(ctx, global);
	}
	JSValue glue = JS_UNDEFINED;
	for (size_t i = 0; i < mermaid_js_nunits; i++) {
		const struct embed_js_unit *u = &mermaid_js_units[i];
		JSValue m = JS_ReadObject(ctx, mermaid_js_bc + u->off, u->len,
		                          JS_READ_OBJ_BYTECODE | JS_READ_OBJ_ROM_DATA);
		if (JS_IsException(m))
			return qjs_load_failed(js, u->name, err);
		if (i + 1 < mermaid_js_nunits)
			JS_FreeValue(ctx, m); /* kept by the context, by its name */
		else
			glue = m;
	}
	if (JS_ResolveModule(ctx, glue) < 0) {
		JS_FreeValue(ctx, glue);
		return qjs_load_failed(js, "folio's Mermaid glue", err);
	}
	JSValue p = JS_EvalFunction(ctx, glue); /* takes glue; a promise */
	if (JS_IsException(p))
		return qjs_load_failed(js, "folio's Mermaid glue", err);
	JSContext *job;
	while (JS_IsJobPending(js->rt))
		if (JS_ExecutePendingJob(js->rt, &job) < 0)
			break;
	if (JS_PromiseState(ctx, p) != JS_PROMISE_FULFILLED) {
		JS_Throw(ctx, JS_PromiseResult(ctx, p));
		JS_FreeValue(ctx, p);
		return qjs_load_failed(js, "folio's Mermaid glue", err);
	}
	JS_FreeValue(ctx, p);
	JSValue global = JS_GetGlobalObject(ctx);
	js->fn = JS_GetPropertyStr(ctx, global, "__folio_mermaid");
	JS_FreeValue(ctx, global);
	if (!JS_IsFunction(ctx, js->fn)) {
		buf_puts(err, "folio's Mermaid glue defines no __folio_mermaid");
		qjs_free(js);
		return NULL;
	}
	return js;
}

/* thread_js: the thread's interpreter, made on first use; NULL with err
 * set if it cannot start. */
static struct qjs *thread_js(struct buf *err)
{
	struct qjs *js = qjs_slot_get(&slot);
	if (!js && (js = interp_new(err)) != NULL)
		qjs_slot_set(&slot, js);
	return js;
}

void mermaid_thread_cleanup(void)
{
	qjs_slot_clear(&slot);
}

/* ---- the drawing checked ---- */

/* The elements a drawing may hold: SVG's shapes, text and markers, and
 * style sheets that check_style passes. */
static int element_ok(struct str name)
{
	static const char *const ok[] = {"g",      "rect",   "polyline", "polygon", "line",
	                                 "path",   "circle", "ellipse",  "text",    "tspan",
	                                 "marker", "defs",   "title",    "desc",    "style"};
	for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
		if (str_eq_cstr(name, ok[i]))
			return 1;
	return 0;
}

/* value_ok: an attribute's value v may go in the page: every url( in it
 * and an href names an element of this drawing (#PREFIX-...). */
static int value_ok(struct str attr, struct str v, const char *prefix)
{
	char want[48];
	int n = snprintf(want, sizeof want, "#%s-", prefix);
	if (str_eq_cstr(attr, "href") || str_eq_cstr(attr, "xlink:href"))
		return v.len >= (size_t)n && memcmp(v.p, want, (size_t)n) == 0;
	for (size_t i = 0; i + 4 <= v.len; i++) {
		if (memcmp(v.p + i, "url(", 4) != 0)
			continue;
		if (v.len - i - 4 < (size_t)n || memcmp(v.p + i + 4, want, (size_t)n) != 0)
			return 0;
	}
	return 1;
}

static int name_char(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
	       ch == '-' || ch == '_' || ch == ':';
}

/* check_tag: the tag at s[0..n) (from '<' to its '>', excluded) is one a
 * drawing may hold; 0, or -1 with the reason in err. */
static int check_tag(const char *s, size_t n, const char *prefix, struct buf *err)
{
	size_t i = 1 + (n > 1 && s[1] == '/');
	size_t k = i;
	while (k < n && name_char(s[k]))
		k++;
	struct str name = {s + i, k - i};
	if (!element_ok(name)) {
		buf_printf(
		    err,
		    "beautiful-mermaid drew a <%.*s> element, which folio does not put in a page",
		    (int)(name.len > 40 ? 40 : name.len), name.p);
		return -1;
	}
	while (k < n) {
		if (s[k] == ' ' || s[k] == '\n' || s[k] == '\t' || (s[k] == '/' && k + 1 == n)) {
			k++;
			continue;
		}
		size_t a = k;
		while (k < n && name_char(s[k]))
			k++;
		struct str attr = {s + a, k - a};
		if (!attr.len || k + 1 >= n || s[k] != '=' || s[k + 1] != '"')
			break;
		const char *v = s + k + 2, *q = memchr(v, '"', n - k - 2);
		if (!q)
			break;
		if ((attr.len >= 2 && (attr.p[0] | 0x20) == 'o' && (attr.p[1] | 0x20) == 'n') ||
		    !value_ok(attr, (struct str){v, (size_t)(q - v)}, prefix)) {
			buf_printf(err,
			           "beautiful-mermaid drew an attribute %.*s=\"...\" folio does "
			           "not put in a page",
			           (int)(attr.len > 40 ? 40 : attr.len), attr.p);
			return -1;
		}
		k = (size_t)(q - s) + 1;
	}
	if (k < n) {
		buf_puts(err, "beautiful-mermaid drew a tag folio cannot read");
		return -1;
	}
	return 0;
}

/* check_style: the style sheet css[0..n) applies to this drawing only and
 * fetches nothing: rules only (no @import, @font-face...), each selector
 * starting with #PREFIX (the drawing's root), no url() but to the drawing's
 * own ids, no '\\' (no escapes to hide a word in); 0, or -1 with the reason
 * in err. */
static int check_style(const char *css, size_t n, const char *prefix, struct buf *err)
{
	char root[40];
	int k = snprintf(root, sizeof root, "#%s", prefix);
	if (memchr(css, '@', n) || memchr(css, '\\', n) ||
	    !value_ok(STR_LIT("style"), (struct str){css, n}, prefix))
		goto bad;
	for (size_t i = 0; i < n;) {
		const char *open = memchr(css + i, '{', n - i), *close;
		if (!open) {
			if (str_trim((struct str){css + i, n - i}).len)
				goto bad;
			break;
		}
		close = memchr(open, '}', n - (size_t)(open - css));
		if (!close || memchr(open + 1, '{', (size_t)(close - open - 1)))
			goto bad;
		for (struct str sel = {css + i, (size_t)(open - css) - i};
		     sel.len;) { /* each selector */
			const char *comma = memchr(sel.p, ',', sel.len);
			struct str one = str_trim(
			    (struct str){sel.p, comma ? (size_t)(comma - sel.p) : sel.len});
			if (one.len < (size_t)k || memcmp(one.p, root, (size_t)k) != 0 ||
			    (one.len > (size_t)k && one.p[k] != ' '))
				goto bad;
			sel = comma ? (struct str){comma + 1, sel.len - (size_t)(comma + 1 - sel.p)}
			            : (struct str){"", 0};
		}
		i = (size_t)(close - css) + 1;
	}
	return 0;
bad:
	buf_puts(err, "beautiful-mermaid drew a style sheet folio does not put in a page");
	return -1;
}

/* check_body: every tag of the drawing's inside s[0..n) passes check_tag,
 * and its text holds no '>' outside one (no comment, no CDATA). */
static int check_body(const char *s, size_t n, const char *prefix, struct buf *err)
{
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '>') {
			buf_puts(err, "beautiful-mermaid drew a tag folio cannot read");
			return -1;
		}
		if (s[i] != '<')
			continue;
		const char *gt = memchr(s + i, '>', n - i), *lt = memchr(s + i + 1, '<', n - i - 1);
		if (!gt || (lt && lt < gt)) {
			buf_puts(err, "beautiful-mermaid drew a tag folio cannot read");
			return -1;
		}
		if (check_tag(s + i, (size_t)(gt - s - i), prefix, err) < 0)
			return -1;
		int sheet = gt - (s + i) == 6 && memcmp(s + i, "<style", 6) == 0;
		i = (size_t)(gt - s);
		if (sheet) { /* its text, up to its end tag (read next), is CSS */
			const char *end = memmem(gt + 1, n - i - 1, "</style>", 8);
			if (!end) {
				buf_puts(err, "beautiful-mermaid drew a tag folio cannot read");
				return -1;
			}
			if (check_style(gt + 1, (size_t)(end - gt - 1), prefix, err) < 0)
				return -1;
			i = (size_t)(end - s) - 1;
		}
	}
	return 0;
}

/* attr_of: the value of name="..." in the tag t[0..n), or an empty str. */
static struct str attr_of(const char *t, size_t n, const char *name)
{
	size_t k = strlen(name);
	for (size_t i = 1; i + k + 2 <= n; i++) {
		if (t[i - 1] == ' ' && memcmp(t + i, name, k) == 0 && t[i + k] == '=' &&
		    t[i + k + 1] == '"') {
			const char *v = t + i + k + 2, *e = memchr(v, '"', n - (i + k + 2));
			if (e)
				return (struct str){v, (size_t)(e - v)};
		}
	}
	return (struct str){"", 0};
}

/* drawing: out gets the glue's SVG svg[0..n) with folio's start tag and
 * title; 0, or -1 with the reason in err (out untouched). */
static int drawing(struct buf *out, const char *svg, size_t n, const char *prefix, struct str title,
                   struct buf *err)
{
	const char *gt = memchr(svg, '>', n);
	size_t end = n;
	while (end > 0 && (svg[end - 1] == '\n' || svg[end - 1] == ' '))
		end--;
	if (n < 5 || memcmp(svg, "<svg ", 5) != 0 || !gt || end < 6 ||
	    memcmp(svg + end - 6, "</svg>", 6) != 0 || (size_t)(gt - svg) > end - 6) {
		buf_puts(err, "beautiful-mermaid wrote no SVG folio can read");
		return -1;
	}
	size_t tag = (size_t)(gt - svg);
	struct str view = attr_of(svg, tag, "viewBox"), w = attr_of(svg, tag, "width"),
	           h = attr_of(svg, tag, "height"), style = attr_of(svg, tag, "style");
	const char *body = gt + 1;
	size_t blen = end - 6 - (tag + 1);
	if (!view.len || check_body(body, blen, prefix, err) < 0 ||
	    !value_ok(STR_LIT("style"), style, prefix) || memchr(style.p, '<', style.len)) {
		if (!err->len)
			buf_puts(err, "beautiful-mermaid wrote no SVG folio can read");
		return -1;
	}
	if (!title.len)
		title = STR_LIT(DIAGRAM_UNTITLED);
	buf_printf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"%s\" viewBox=\"", prefix);
	buf_put_html(out, view.p, view.len);
	if (w.len && h.len) { /* its size, which max-width lets a phone shrink */
		buf_puts(out, "\" width=\"");
		buf_put_html(out, w.p, w.len);
		buf_puts(out, "\" height=\"");
		buf_put_html(out, h.p, h.len);
	}
	buf_puts(out, "\" role=\"img\" aria-label=\"");
	buf_put_html(out, title.p, title.len);
	buf_puts(out, "\" style=\"max-width:100%;height:auto;");
	buf_put_html(out, style.p, style.len);
	buf_puts(out, "\"><title>");
	buf_put_html(out, title.p, title.len);
	buf_puts(out, "</title>");
	buf_append(out, body, blen);
	buf_puts(out, "</svg>");
	return 0;
}

/* ---- the API ---- */

/* failure: err says why the render stopped (the pending exception); after
 * an interruption, a stack overflow or running out of memory the
 * interpreter's state is unknown, and the next diagram starts afresh. */
static void failure(struct qjs *js, double seconds, struct buf *err)
{
	char *name, *msg;
	long pos;
	qjs_exception(js->ctx, &name, &msg, &pos);
	int reset = 1;
	if (strcmp(msg, "interrupted") == 0)
		buf_printf(
		    err,
		    "the diagram takes longer than the %.2g s left to the page's diagrams to draw "
		    "(split the page, or the diagram)",
		    seconds);
	else if (strcmp(msg, "stack overflow") == 0)
		buf_puts(err, "the diagram is nested too deeply");
	else if (strstr(msg, "out of memory") || !*msg)
		/* (QuickJS throws null when it cannot even make the error) */
		buf_printf(err, "the diagram needs more than %zu MB to draw",
		           MERMAID_MEMORY_LIMIT >> 20);
	else if (strcmp(name, "Error") == 0 || !*name)
		buf_puts(err, msg), reset = 0; /* beautiful-mermaid's own */
	else
		buf_printf(err, "beautiful-mermaid failed: %s: %s", name, msg), reset = 0;
	free(name);
	free(msg);
	if (reset)
		mermaid_thread_cleanup();
}

int mermaid_render(struct buf *out, const char *src, size_t len, struct str title, double seconds,
                   struct buf *err)
{
	int line, col; /* (Mermaid's errors name no place: nor do folio's) */
	if (diagram_refuse(src, len, err, &line, &col) < 0)
		return -1;
	if (!str_trim((struct str){src, len}).len)
		return 1;
	struct qjs *js = thread_js(err);
	if (!js)
		return -1;
	char prefix[24];
	snprintf(prefix, sizeof prefix, "mm%012llx",
	         (unsigned long long)(hash_bytes(src, len) & 0xffffffffffffULL));
	JSContext *ctx = js->ctx;
	qjs_set_stack(js);
	qjs_deadline(js, seconds > 0 ? seconds : 0);
	JSValue args[2] = {JS_NewStringLen(ctx, src, len), JS_NewString(ctx, prefix)};
	JSValue r = JS_Call(ctx, js->fn, JS_UNDEFINED, 2, args);
	JS_FreeValue(ctx, args[0]);
	JS_FreeValue(ctx, args[1]);
	size_t n = 0;
	const char *svg = JS_IsException(r) ? NULL : JS_ToCStringLen(ctx, &n, r);
	JS_FreeValue(ctx, r);
	if (!svg) {
		failure(js, seconds, err);
		return -1;
	}
	int rc = drawing(out, svg, n, prefix, title, err);
	JS_FreeCString(ctx, svg);
	return rc;
}

#ifndef FOLIO_MERMAID_VERSION
#define FOLIO_MERMAID_VERSION "(version not known)"
#endif
#ifndef FOLIO_DAGRE_VERSION
#define FOLIO_DAGRE_VERSION "(version not known)"
#endif

const char *mermaid_version(void)
{
	return "beautiful-mermaid " FOLIO_MERMAID_VERSION ", dagre " FOLIO_DAGRE_VERSION;
}
