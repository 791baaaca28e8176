/* diagrams_dot.c: measures Graphviz (viz.js 2.1.2's asm.js build) in
 * folio's QuickJS: compiles the scripts to bytecode once, then, in a fresh
 * runtime as each of folio's threads would have, loads the bytecode and
 * renders DOT files with bench/dot/glue.js's __folio_dot, timing
 * each step in CPU time (the machine is shared; wall time would measure
 * the neighbours too). Driven by bench/dot/diagrams_dot.py.
 * Usage: diagrams_dot compile OUT.bc JS...      (scripts joined in order)
 *        diagrams_dot run BC REPEAT [DOT...]    (one line per figure)
 * Environment: DIAGRAMS_DOT_STACK (bytes of JS stack, default 4 MB, as
 * folio's math), DIAGRAMS_DOT_JS_ATOB=1 (leave atob to the glue's
 * JavaScript), DIAGRAMS_DOT_OUT=PREFIX (write each first SVG to
 * PREFIX.NAME.svg). */
#include <quickjs/quickjs.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double cpu_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* slurp: the whole file, NUL-terminated (length in *n); exits on failure */
static char *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		exit(1);
	}
	size_t cap = 1 << 16, len = 0, got;
	char *b = malloc(cap + 1);
	while (b && (got = fread(b + len, 1, cap - len, f)) > 0)
		if ((len += got) == cap)
			b = realloc(b, (cap *= 2) + 1);
	fclose(f);
	if (!b)
		exit(1);
	b[len] = '\0';
	*n = len;
	return b;
}

/* report: prints the pending exception (message, .line, stack) */
static void report(JSContext *ctx, const char *what)
{
	JSValue e = JS_GetException(ctx), line = JS_GetPropertyStr(ctx, e, "line");
	const char *msg = JS_ToCString(ctx, e);
	int32_t l = 0;
	JS_ToInt32(ctx, &l, line);
	printf("%s: error: %s (line %d)\n", what, msg ? msg : "?", l);
	JS_FreeCString(ctx, msg);
	JS_FreeValue(ctx, line);
	JS_FreeValue(ctx, e);
}

/* atob as folio could give it: base64 to a string of code units 0-255
 * (made as UTF-8 for JS_NewStringLen) */
static JSValue js_atob(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
	(void)this_val;
	size_t n;
	const char *s = argc ? JS_ToCStringLen(ctx, &n, argv[0]) : NULL;
	if (!s)
		return JS_EXCEPTION;
	static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	char *out = malloc(n / 4 * 6 + 8);
	size_t len = 0;
	unsigned acc = 0;
	int bits = 0;
	for (size_t i = 0; out && i < n; i++) {
		const char *p = s[i] ? strchr(alphabet, s[i]) : NULL;
		if (!p)
			continue;
		acc = (acc << 6 | (unsigned)(p - alphabet)) & 0xffffff;
		if ((bits += 6) >= 8) {
			unsigned c = acc >> (bits -= 8) & 255;
			if (c < 0x80) {
				out[len++] = (char)c;
			} else {
				out[len++] = (char)(0xc0 | c >> 6);
				out[len++] = (char)(0x80 | (c & 63));
			}
		}
	}
	JS_FreeCString(ctx, s);
	JSValue r = out ? JS_NewStringLen(ctx, out, len) : JS_ThrowOutOfMemory(ctx);
	free(out);
	return r;
}

/* compile: the scripts joined, compiled without debug information (10 MB
 * of bytecode with it, 1.5 MB without), written to out */
static int compile(const char *out, int n, char **paths)
{
	size_t len = 0;
	char *js = NULL;
	for (int i = 0; i < n; i++) {
		size_t l;
		char *b = slurp(paths[i], &l);
		js = realloc(js, len + l + 2);
		memcpy(js + len, b, l);
		len += l;
		js[len++] = '\n';
		js[len] = '\0';
		free(b);
	}
	JSRuntime *rt = JS_NewRuntime();
	JS_SetStripInfo(rt, JS_STRIP_DEBUG);
	JSContext *ctx = JS_NewContext(rt);
	double t0 = cpu_ms();
	JSValue f = JS_Eval(ctx, js, len, "graphviz.js", JS_EVAL_TYPE_GLOBAL | JS_EVAL_FLAG_COMPILE_ONLY);
	if (JS_IsException(f)) {
		report(ctx, "compile");
		return 1;
	}
	double t1 = cpu_ms();
	size_t bl;
	uint8_t *bc = JS_WriteObject(ctx, &bl, f, JS_WRITE_OBJ_BYTECODE);
	FILE *o = fopen(out, "wb");
	if (!bc || !o || fwrite(bc, 1, bl, o) != bl || fclose(o) != 0) {
		fprintf(stderr, "diagrams_dot: cannot write %s\n", out);
		return 1;
	}
	printf("source\t%zu bytes\nparse\t%.1f ms\nbytecode\t%zu bytes\n", len, t1 - t0, bl);
	js_free(ctx, bc);
	JS_FreeValue(ctx, f);
	JS_FreeContext(ctx);
	JS_FreeRuntime(rt);
	free(js);
	return 0;
}

/* render_file: renders path rep times; prints first, best, bytes and
 * whether every render gave the same bytes */
static void render_file(JSContext *ctx, JSValue fn, const char *path, int rep)
{
	size_t n, first_len = 0;
	char *src = slurp(path, &n), *first = NULL;
	double t_first = 0, best = 1e30;
	int same = 1;
	for (int r = 0; r < rep; r++) {
		JSValue arg = JS_NewStringLen(ctx, src, n);
		double t0 = cpu_ms();
		JSValue res = JS_Call(ctx, fn, JS_UNDEFINED, 1, &arg);
		double d = cpu_ms() - t0;
		JS_FreeValue(ctx, arg);
		if (JS_IsException(res)) {
			report(ctx, path);
			free(src);
			free(first);
			return;
		}
		size_t l;
		const char *svg = JS_ToCStringLen(ctx, &l, res);
		if (r == 0) {
			t_first = d;
			first = malloc(l + 1);
			memcpy(first, svg, l + 1);
			first_len = l;
		} else if (l != first_len || memcmp(svg, first, l) != 0) {
			same = 0;
		}
		JS_FreeCString(ctx, svg);
		JS_FreeValue(ctx, res);
		if (d < best)
			best = d;
	}
	printf("%s\tfirst %.1f ms\tbest %.1f ms\t%zu bytes\t%s\n", path, t_first, best, first_len,
	       same ? "same bytes" : "DIFFERENT BYTES");
	const char *prefix = getenv("DIAGRAMS_DOT_OUT");
	if (prefix) {
		char out[4096];
		const char *base = strrchr(path, '/');
		snprintf(out, sizeof out, "%s.%s.svg", prefix, base ? base + 1 : path);
		FILE *o = fopen(out, "wb");
		if (o) {
			fwrite(first, 1, first_len, o);
			fclose(o);
		}
	}
	free(src);
	free(first);
}

static int run(const char *bc_path, int rep, int n, char **dots)
{
	size_t len;
	char *bc = slurp(bc_path, &len);
	double t0 = cpu_ms();
	JSRuntime *rt = JS_NewRuntime();
	JSContext *ctx = JS_NewContext(rt);
	const char *stack = getenv("DIAGRAMS_DOT_STACK");
	JS_SetMaxStackSize(rt, stack ? strtoul(stack, NULL, 10) : 4u << 20);
	JS_SetMemoryLimit(rt, 128u << 20);
	JSValue global = JS_GetGlobalObject(ctx);
	if (!getenv("DIAGRAMS_DOT_JS_ATOB"))
		JS_SetPropertyStr(ctx, global, "atob", JS_NewCFunction(ctx, js_atob, "atob", 1));
	JSValue v = JS_ReadObject(ctx, (uint8_t *)bc, len, JS_READ_OBJ_BYTECODE);
	if (!JS_IsException(v))
		v = JS_EvalFunction(ctx, v);
	if (JS_IsException(v)) {
		report(ctx, bc_path);
		return 1;
	}
	JS_FreeValue(ctx, v);
	double t1 = cpu_ms();
	JSValue fn = JS_GetPropertyStr(ctx, global, "__folio_dot");
	JSValue arg = JS_NewString(ctx, "digraph{}");
	v = JS_Call(ctx, fn, JS_UNDEFINED, 1, &arg);
	JS_FreeValue(ctx, arg);
	if (JS_IsException(v)) {
		report(ctx, "instantiate");
		return 1;
	}
	JS_FreeValue(ctx, v);
	double t2 = cpu_ms();
	printf("load bytecode\t%.1f ms\ninstantiate + empty graph\t%.1f ms\n", t1 - t0, t2 - t1);
	for (int i = 0; i < n; i++)
		render_file(ctx, fn, dots[i], rep);
	JSMemoryUsage mu;
	JS_ComputeMemoryUsage(rt, &mu);
	printf("quickjs memory\t%.1f MB\n", mu.malloc_size / 1048576.0);
	JS_FreeValue(ctx, fn);
	JS_FreeValue(ctx, global);
	JS_FreeContext(ctx);
	JS_FreeRuntime(rt);
	free(bc);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 4 && strcmp(argv[1], "compile") == 0)
		return compile(argv[2], argc - 3, argv + 3);
	if (argc >= 4 && strcmp(argv[1], "run") == 0)
		return run(argv[2], atoi(argv[3]), argc - 4, argv + 4);
	fprintf(stderr, "usage: diagrams_dot compile OUT.bc JS... | run BC REPEAT [DOT...]\n");
	return 2;
}
