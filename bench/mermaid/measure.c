/* measure.c: how fast beautiful-mermaid (with elkjs and entities, from npm)
 * draws Mermaid diagrams in the QuickJS folio links, in CPU milliseconds:
 * the time to compile its JavaScript, to load the bytecode into a fresh
 * runtime, then per diagram a cold render (fresh runtime, bytecode loaded,
 * first render) and warm renders (the same runtime again), and whether
 * the warm renders give the same bytes as the cold one.
 * Usage: measure [-n N] [-o OUTDIR] PKGDIR FILE.mmd...
 * PKGDIR holds beautiful-mermaid.js (its dist/index.js), elk.bundled.js
 * (elkjs's lib/elk.bundled.js) and entities/ (entities' dist/esm/); run.sh
 * fetches them, pinned, and runs this. OUTDIR gets FILE.svg for each file.
 * A feasibility probe, not part of folio: see run.sh for the figures. */
#include <quickjs/quickjs.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* cpu_ms: this process's CPU time in milliseconds (the machine is shared:
 * wall time would measure the other jobs too). */
static double cpu_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* slurp: the whole file at path, NUL-terminated, malloc'd, its length in
 * *n; NULL after saying why. */
static char *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		return NULL;
	}
	size_t cap = 1 << 16, len = 0, k;
	char *b = malloc(cap + 1);
	while (b && (k = fread(b + len, 1, cap - len, f)) > 0)
		if ((len += k) == cap)
			b = realloc(b, (cap *= 2) + 1);
	fclose(f);
	if (!b)
		return NULL;
	b[len] = '\0';
	*n = len;
	return b;
}

/* The runtime beautiful-mermaid expects, which QuickJS lacks: `global`
 * (elkjs's GWT code finds Math through it), console, atob (entities
 * decodes its tables with it), a setTimeout that queues (elkjs answers its
 * start-up message through one; glue_js runs the queue after a render).
 * Math.random and Date.now are made deterministic: elkjs seeds Java's
 * Random from the clock. */
static const char prelude_js[] =
    "globalThis.global = globalThis;\n"
    "globalThis.console = {log() {}, warn() {}, error() {}, err() {}};\n"
    "globalThis.__timers = [];\n"
    "globalThis.setTimeout = function (f) { __timers.push(f); return __timers.length; };\n"
    "(function () { var seed = 1;\n"
    "  Math.random = function () { seed = seed * 16807 % 2147483647; return (seed - 1) / "
    "2147483646; };\n"
    "})();\n"
    "Date.now = function () { return 0; };\n"
    "globalThis.atob = function (s) {\n"
    "  var A = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/', o = [], b = 0, "
    "n = 0;\n"
    "  for (var i = 0; i < s.length; i++) {\n"
    "    var v = A.indexOf(s[i]);\n"
    "    if (v < 0) continue;\n"
    "    b = (b << 6 | v) & 0xffffff; n += 6;\n"
    "    if (n >= 8) { n -= 8; o.push(String.fromCharCode(b >> n & 255)); }\n"
    "  }\n"
    "  return o.join('');\n"
    "};\n";

/* elk.bundled.js is a browserify bundle run as a script (non-strict, as
 * GWT's output needs), which leaves ELK global; this module gives it to
 * beautiful-mermaid's `import ELKBundled from "elkjs/lib/elk.bundled.js"`. */
static const char elk_module_js[] = "export default globalThis.ELK;\n";

static const char glue_js[] = "import {renderMermaidSVG} from 'beautiful-mermaid';\n"
                              "globalThis.__render = function (src) {\n"
                              "  var svg = renderMermaidSVG(src, {});\n"
                              "  while (__timers.length) __timers.shift()();\n"
                              "  return svg;\n"
                              "};\n";

/* The units compiled and loaded, in order: scripts run as they are read,
 * modules are linked when the glue (last) is evaluated. name is the
 * module's name, which imports resolve to (normalize); file is relative to
 * PKGDIR, or NULL for the text in js. */
struct unit {
	const char *name, *file, *js;
	int module;
	uint8_t *bc;
	size_t len;
};
/* an entities module, named by its path in PKGDIR */
#define ENTITIES(file)                                                                             \
	{                                                                                          \
		"entities/" file, "entities/" file, NULL, 1, NULL, 0                               \
	}
static struct unit units[] = {
    {"prelude", NULL, prelude_js, 0, NULL, 0},
    {"elk.bundled.js", "elk.bundled.js", NULL, 0, NULL, 0},
    ENTITIES("internal/bin-trie-flags.js"),
    ENTITIES("internal/decode-shared.js"),
    ENTITIES("internal/encode-shared.js"),
    ENTITIES("generated/decode-data-html.js"),
    ENTITIES("generated/decode-data-xml.js"),
    ENTITIES("generated/encode-html.js"),
    ENTITIES("decode-codepoint.js"),
    ENTITIES("decode.js"),
    ENTITIES("escape.js"),
    ENTITIES("encode.js"),
    ENTITIES("index.js"),
    {"elkjs/lib/elk.bundled.js", NULL, elk_module_js, 1, NULL, 0},
    {"beautiful-mermaid", "beautiful-mermaid.js", NULL, 1, NULL, 0},
    {"glue", NULL, glue_js, 1, NULL, 0},
};
#define NUNITS (sizeof units / sizeof units[0])

/* normalize: the module an import of name from base means: the package
 * names as the units name them, a relative path joined to base's folder. */
static char *normalize(JSContext *ctx, const char *base, const char *name, void *opaque)
{
	(void)opaque;
	char path[512] = "";
	if (strcmp(name, "entities") == 0)
		return js_strdup(ctx, "entities/index.js");
	if (name[0] != '.')
		return js_strdup(ctx, name);
	const char *slash = strrchr(base, '/');
	size_t n = slash ? (size_t)(slash - base) : 0;
	snprintf(path, sizeof path, "%.*s", (int)n, base);
	for (const char *p = name; *p;) {
		size_t k = strcspn(p, "/");
		if (k == 2 && p[0] == '.' && p[1] == '.') {
			char *up = strrchr(path, '/');
			*(up ? up : path) = '\0';
		} else if (!(k == 1 && p[0] == '.') && k) {
			size_t at = strlen(path);
			snprintf(path + at, sizeof path - at, "%s%.*s", at ? "/" : "", (int)k, p);
		}
		p += k + (p[k] == '/');
	}
	return js_strdup(ctx, path);
}

/* loader: every module is loaded before it is imported; another is an error. */
static JSModuleDef *loader(JSContext *ctx, const char *name, void *opaque)
{
	(void)opaque;
	JS_ThrowReferenceError(ctx, "no module %s", name);
	return NULL;
}

/* exception: prints the pending exception and its stack; returns 1. */
static int exception(JSContext *ctx, const char *what)
{
	JSValue e = JS_GetException(ctx), st = JS_GetPropertyStr(ctx, e, "stack");
	const char *m = JS_ToCString(ctx, e), *s = JS_ToCString(ctx, st);
	fprintf(stderr, "%s: %s\n%s", what, m ? m : "?", s ? s : "");
	JS_FreeCString(ctx, m);
	JS_FreeCString(ctx, s);
	JS_FreeValue(ctx, st);
	JS_FreeValue(ctx, e);
	return 1;
}

/* compile: each unit's bytecode (debug information stripped, as folio
 * would embed it) from PKGDIR's files; 0, or 1 after saying why. */
static int compile(const char *pkgdir, size_t *total)
{
	JSRuntime *rt = JS_NewRuntime();
	JS_SetStripInfo(rt, JS_STRIP_DEBUG);
	JS_SetModuleLoaderFunc(rt, normalize, loader, NULL);
	JSContext *ctx = JS_NewContext(rt);
	*total = 0;
	for (size_t i = 0; i < NUNITS; i++) {
		char path[1024];
		size_t n = 0;
		char *src = NULL;
		if (units[i].file) {
			snprintf(path, sizeof path, "%s/%s", pkgdir, units[i].file);
			if (!(src = slurp(path, &n)))
				return 1;
		}
		const char *js = src ? src : units[i].js;
		int type = units[i].module ? JS_EVAL_TYPE_MODULE : JS_EVAL_TYPE_GLOBAL;
		JSValue f = JS_Eval(ctx, js, src ? n : strlen(js), units[i].name,
		                    type | JS_EVAL_FLAG_COMPILE_ONLY);
		free(src);
		if (JS_IsException(f))
			return exception(ctx, units[i].name);
		units[i].bc = JS_WriteObject(ctx, &units[i].len, f, JS_WRITE_OBJ_BYTECODE);
		*total += units[i].len;
		JS_FreeValue(ctx, f);
	}
	JS_FreeContext(ctx);
	JS_FreeRuntime(rt);
	return 0;
}

/* load: a fresh runtime with the bytecode read and run, and __render in
 * *render; the context, or NULL after saying why. */
static JSContext *load(JSValue *render)
{
	JSRuntime *rt = JS_NewRuntime();
	JS_SetMaxStackSize(rt, 4 << 20);
	JS_SetModuleLoaderFunc(rt, normalize, loader, NULL);
	JSContext *ctx = JS_NewContext(rt);
	JSValue glue = JS_UNDEFINED;
	for (size_t i = 0; i < NUNITS; i++) {
		JSValue o = JS_ReadObject(ctx, units[i].bc, units[i].len,
		                          JS_READ_OBJ_BYTECODE | JS_READ_OBJ_ROM_DATA);
		if (JS_IsException(o))
			return exception(ctx, units[i].name), NULL;
		if (!units[i].module) {
			JSValue r = JS_EvalFunction(ctx, o);
			if (JS_IsException(r))
				return exception(ctx, units[i].name), NULL;
			JS_FreeValue(ctx, r);
		} else if (i == NUNITS - 1) {
			glue = o;
		}
	}
	if (JS_ResolveModule(ctx, glue) < 0)
		return exception(ctx, "glue"), NULL;
	JSValue p = JS_EvalFunction(ctx, glue);
	if (JS_IsException(p))
		return exception(ctx, "glue"), NULL;
	JSContext *job;
	while (JS_IsJobPending(rt))
		JS_ExecutePendingJob(rt, &job);
	if (JS_PromiseState(ctx, p) == JS_PROMISE_REJECTED) {
		JS_Throw(ctx, JS_PromiseResult(ctx, p));
		return exception(ctx, "glue"), NULL;
	}
	JS_FreeValue(ctx, p);
	JSValue g = JS_GetGlobalObject(ctx);
	*render = JS_GetPropertyStr(ctx, g, "__render");
	JS_FreeValue(ctx, g);
	return ctx;
}

/* unload: frees the context and its runtime. */
static void unload(JSContext *ctx, JSValue render)
{
	JSRuntime *rt = JS_GetRuntime(ctx);
	JS_FreeValue(ctx, render);
	JS_FreeContext(ctx);
	JS_RunGC(rt);
	JS_FreeRuntime(rt);
}

/* render: src drawn by __render, malloc'd in *svg (length *n); 0, or 1
 * after printing the renderer's error. */
static int render(JSContext *ctx, JSValue fn, const char *src, size_t len, char **svg, size_t *n)
{
	JSValue arg = JS_NewStringLen(ctx, src, len);
	JSValue out = JS_Call(ctx, fn, JS_UNDEFINED, 1, &arg);
	JS_FreeValue(ctx, arg);
	if (JS_IsException(out))
		return exception(ctx, "render");
	const char *s = JS_ToCStringLen(ctx, n, out);
	*svg = malloc(*n + 1);
	memcpy(*svg, s, *n + 1);
	JS_FreeCString(ctx, s);
	JS_FreeValue(ctx, out);
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* measure_file: the figures of one diagram, one line on stdout; 0 or 1. */
static int measure_file(const char *path, int warm_n, const char *outdir)
{
	size_t len, n0, n;
	char *src = slurp(path, &len), *svg0, *svg;
	if (!src)
		return 1;
	JSValue fn;
	double t0 = cpu_ms();
	JSContext *ctx = load(&fn);
	if (!ctx)
		return 1;
	double t1 = cpu_ms();
	if (render(ctx, fn, src, len, &svg0, &n0))
		return 1;
	double t2 = cpu_ms(), warm[64];
	int same = 1;
	if (warm_n > 64)
		warm_n = 64;
	for (int k = 0; k < warm_n; k++) {
		double w0 = cpu_ms();
		if (render(ctx, fn, src, len, &svg, &n))
			return 1;
		warm[k] = cpu_ms() - w0;
		same &= n == n0 && memcmp(svg, svg0, n) == 0;
		free(svg);
	}
	qsort(warm, (size_t)warm_n, sizeof *warm, cmp_double);
	unload(ctx, fn);
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	printf("%-14s cold %7.1f ms (load %5.1f + render %7.1f)  warm median %7.1f ms  %6zu bytes  "
	       "%s\n",
	       base, t2 - t0, t1 - t0, t2 - t1, warm_n ? warm[warm_n / 2] : 0.0, n0,
	       same ? "same bytes" : "DIFFERENT BYTES");
	if (outdir) {
		char out[1024];
		snprintf(out, sizeof out, "%s/%s.svg", outdir, base);
		FILE *f = fopen(out, "w");
		if (!f || fwrite(svg0, 1, n0, f) != n0 || fclose(f) != 0)
			return perror(out), 1;
	}
	free(svg0);
	free(src);
	return 0;
}

int main(int argc, char **argv)
{
	int warm_n = 3, a = 1;
	const char *outdir = NULL;
	for (; a + 1 < argc && argv[a][0] == '-'; a += 2) {
		if (strcmp(argv[a], "-n") == 0)
			warm_n = atoi(argv[a + 1]);
		else if (strcmp(argv[a], "-o") == 0)
			outdir = argv[a + 1];
	}
	if (argc - a < 2) {
		fprintf(stderr, "usage: measure [-n N] [-o OUTDIR] PKGDIR FILE.mmd...\n");
		return 2;
	}
	size_t total;
	double t0 = cpu_ms();
	if (compile(argv[a], &total))
		return 1;
	double t1 = cpu_ms();
	JSValue fn;
	JSContext *ctx = load(&fn);
	if (!ctx)
		return 1;
	double t2 = cpu_ms();
	unload(ctx, fn);
	printf("compile from source %.0f ms; bytecode %zu KiB; load (read + evaluate) %.1f ms\n",
	       t1 - t0, total >> 10, t2 - t1);
	int rc = 0;
	for (a++; a < argc; a++)
		rc |= measure_file(argv[a], warm_n, outdir);
	return rc;
}
