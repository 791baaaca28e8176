/* test_include.c: code from files: the options file=, lines=, symbol= and
 * link of a code block's info string and their messages, and the
 * definitions symbol_find finds by name in each language it knows. */
#include "harness.h"

#include "base/arena.h"
#include "base/buf.h"
#include "md/codeblock.h"
#include "md/markdown.h"
#include "md/symbol.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct arena *arena;
static struct buf err;

static int parse(const char *info, struct code_opts *o)
{
	buf_reset(&err);
	return code_opts_parse(arena, str_from(info), o, &err);
}

static const char *fails(const char *info)
{
	struct code_opts o;
	INT_EQ(parse(info, &o), -1);
	return err.p ? err.p : "";
}

static const char *s(struct str x)
{
	return arena_strndup(arena, x.p ? x.p : "", x.len);
}

static void test_options(void)
{
	struct code_opts o;
	INT_EQ(parse("cuda {file=\"code/gemm.cu\" lines=\"10-42\" linenos}", &o), 0);
	STR_EQ(s(o.lang), "cuda");
	STR_EQ(s(o.file), "code/gemm.cu");
	INT_EQ(o.lines_lo, 10);
	INT_EQ(o.lines_hi, 42);
	INT_EQ(o.start, 1);
	INT_EQ(o.start_set, 0);
	INT_EQ(o.link, 0);
	INT_EQ(o.symbol.len, 0);

	INT_EQ(parse("{file=\"/code/gemm.cu\" symbol=\"Matrix::at\" link}", &o), 0);
	STR_EQ(s(o.lang), "");
	STR_EQ(s(o.file), "/code/gemm.cu");
	STR_EQ(s(o.symbol), "Matrix::at");
	INT_EQ(o.link, 1);
	INT_EQ(o.lines_lo, 0);

	/* one line; to the end; spaces around; start= kept apart */
	INT_EQ(parse("c {file=\"a.c\" lines=\"7\"}", &o), 0);
	INT_EQ(o.lines_lo, 7);
	INT_EQ(o.lines_hi, 7);
	INT_EQ(parse("c {file=\"a.c\" lines=\" 7 - \" start=3}", &o), 0);
	INT_EQ(o.lines_lo, 7);
	OK(o.lines_hi == CODE_LINES_END);
	INT_EQ(o.start, 3);
	INT_EQ(o.start_set, 1);
	INT_EQ(parse("c {file=\"a.c\" link=false}", &o), 0);
	INT_EQ(o.link, 0);

	/* the errors */
	STR_EQ(fails("c {file=\"a.c\" lines=\"42-10\"}"),
	       "bad range '42-10' in lines (hint: write the smaller number first: '10-42')");
	STR_EQ(fails("c {file=\"a.c\" lines=\"ten\"}"),
	       "bad range 'ten' in lines (hint: write lines=\"10-42\", lines=\"10\", or lines=\"10-\" for line 10 "
	       "to the end)");
	STR_EQ(fails("c {file=\"a.c\" lines=\"-5\"}"),
	       "bad range '-5' in lines (hint: write lines=\"10-42\", lines=\"10\", or lines=\"10-\" for line 10 "
	       "to the end)");
	STR_EQ(fails("c {file=\"a.c\" lines=\"0-5\"}"), "bad line number '0' in lines (hint: lines are numbered from 1)");
	STR_EQ(fails("c {file=\"a.c\" lines=\"1-200000\"}"), "line '1-200000' in lines is past the limit of 100000 lines");
	STR_EQ(fails("c {file}"), "'file' needs a value (hint: file=\"code/gemm.cu\")");
	STR_EQ(fails("c {file=\"\"}"), "'file' needs a value (hint: file=\"code/gemm.cu\")");
	STR_EQ(fails("c {file=\"a.c\" symbol}"), "'symbol' needs a value (hint: symbol=\"gemm_kernel\")");
	STR_EQ(fails("c {file=\"a.c\" link=maybe}"), "bad value 'maybe' for link (hint: write link, or link=false)");
	STR_EQ(fails("c {lines=\"1-2\"}"),
	       "'lines' needs file= (hint: file=\"code/gemm.cu\" names the file the code comes from)");
	STR_EQ(fails("c {symbol=\"f\"}"),
	       "'symbol' needs file= (hint: file=\"code/gemm.cu\" names the file the code comes from)");
	STR_EQ(fails("c {link}"), "'link' needs file= (hint: file=\"code/gemm.cu\" names the file the code comes from)");
	STR_EQ(fails("c {file=\"a.c\" symbol=\"f\" lines=\"1-2\"}"),
	       "lines= and symbol= together (hint: symbol= includes the whole definition; keep one of them)");
	/* other generators' names */
	STR_EQ(fails("c {include=\"a.c\"}"), "unknown code block option 'include' (did you mean 'file'?)");
	STR_EQ(fails("c {file=\"a.c\" function=\"f\"}"), "unknown code block option 'function' (did you mean 'symbol'?)");
	STR_EQ(fails("c {file=\"a.c\" line=\"3\"}"), "unknown code block option 'line' (did you mean 'lines'?)");
	STR_EQ(fails("c {symbl=\"f\"}"), "unknown code block option 'symbl' (did you mean 'symbol'?)");
}

/* find: the lines "lo-hi" of name in src (lang), or "none: NEAR", or
 * "no grammar". */
static const char *find(const char *lang, const char *src, const char *name)
{
	struct symbol_span sp;
	struct buf near;
	buf_init(&near);
	int guess = -1;
	int rc = symbol_find(lang, src, strlen(src), name, strlen(name), &sp, &near, &guess);
	char tmp[256];
	if (rc < 0)
		snprintf(tmp, sizeof tmp, "no grammar");
	else if (rc == 0)
		snprintf(tmp, sizeof tmp, "none%s: %s", guess ? " (close)" : "", near.p ? near.p : "");
	else
		snprintf(tmp, sizeof tmp, "%zu-%zu", sp.lo, sp.hi);
	buf_fini(&near);
	return arena_strndup(arena, tmp, strlen(tmp));
}

static void test_c(void)
{
	const char *c = "#include <stdio.h>\n"          /* 1 */
			"\n"                            /* 2 */
			"/* adds */\n"                  /* 3 */
			"static int add(int a, int b)\n" /* 4 */
			"{\n"                           /* 5 */
			"\treturn a + b;\n"             /* 6 */
			"}\n"                           /* 7 */
			"int proto(void);\n"            /* 8 */
			"struct point {\n"              /* 9 */
			"\tint x, y;\n"                 /* 10 */
			"};\n"                          /* 11 */
			"typedef struct { int w; } size_t2;\n" /* 12 */
			"#define SQ(x) ((x) * (x))\n"   /* 13 */
			"char *name_of(int k) { return 0; } /* x */\n" /* 14 */
			"int x; // trailing\n"          /* 15 */
			"int after(void) { return 1; }\n"; /* 16 */
	STR_EQ(find("c", c, "add"), "3-7");
	STR_EQ(find("c", c, "point"), "9-11");
	STR_EQ(find("c", c, "size_t2"), "12-12");
	STR_EQ(find("c", c, "SQ"), "13-13");
	STR_EQ(find("c", c, "name_of"), "14-14");
	/* a comment at the end of a line of code is not the next one's */
	STR_EQ(find("c", c, "after"), "16-16");
	/* a prototype is no definition */
	STR_EQ(find("c", c, "proto"), "none: add, point, size_t2, SQ, name_of");
	STR_EQ(find("c", c, "pointt"), "none (close): point");
	/* a struct used, not defined, is none */
	STR_EQ(find("c", "struct s *p;\n", "s"), "none: ");
}

static void test_cpp(void)
{
	const char *cpp = "namespace linalg {\n"               /* 1 */
			  "template <typename T>\n"          /* 2 */
			  "struct Matrix {\n"                /* 3 */
			  "    T at(int i) const\n"          /* 4 */
			  "    {\n"                          /* 5 */
			  "        return 0;\n"              /* 6 */
			  "    }\n"                          /* 7 */
			  "    void mul();\n"                /* 8 */
			  "};\n"                             /* 9 */
			  "void Matrix::mul() {}\n"          /* 10 */
			  "class Solver { public: int run() { return 1; } };\n" /* 11 */
			  "}\n";
	STR_EQ(find("cpp", cpp, "Matrix"), "2-9");
	STR_EQ(find("cpp", cpp, "Matrix::at"), "4-7");
	STR_EQ(find("cpp", cpp, "Matrix.at"), "4-7");
	STR_EQ(find("cpp", cpp, "linalg::Matrix::at"), "4-7");
	STR_EQ(find("cpp", cpp, "at"), "4-7");
	/* defined outside its class */
	STR_EQ(find("cpp", cpp, "Matrix::mul"), "10-10");
	STR_EQ(find("cpp", cpp, "Solver::run"), "11-11");
	STR_EQ(find("cpp", cpp, "Solver.rn"), "none (close): linalg.Solver.run");
	/* CUDA: C++ with __global__ */
	const char *cu = "// one thread per element\n"
			 "__global__ void scale(float *x, float a, int n)\n"
			 "{\n"
			 "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
			 "    if (i < n) x[i] *= a;\n"
			 "}\n";
	STR_EQ(find("cuda", cu, "scale"), "1-6");
	STR_EQ(find("cuda", cu, "scal"), "none (close): scale");
}

static void test_python(void)
{
	const char *py = "import math\n"                  /* 1 */
			 "\n"                             /* 2 */
			 "class Adam:\n"                  /* 3 */
			 "    \"\"\"The optimiser.\"\"\"\n" /* 4 */
			 "\n"                             /* 5 */
			 "    @staticmethod\n"            /* 6 */
			 "    def step(p, g):\n"          /* 7 */
			 "        return p - g\n"         /* 8 */
			 "\n"                             /* 9 */
			 "def loss(x):\n"                 /* 10 */
			 "    def inner():\n"             /* 11 */
			 "        pass\n"                 /* 12 */
			 "    return x\n";                /* 13 */
	STR_EQ(find("python", py, "Adam"), "3-8");
	STR_EQ(find("python", py, "Adam.step"), "6-8");
	STR_EQ(find("python", py, "step"), "6-8");
	STR_EQ(find("python", py, "loss"), "10-13");
	STR_EQ(find("python", py, "loss.inner"), "11-12");
	STR_EQ(find("python", py, "Adam.stpe"), "none (close): Adam.step");
}

static void test_rust(void)
{
	const char *rs = "/// A point.\n"                 /* 1 */
			 "#[derive(Debug)]\n"             /* 2 */
			 "pub struct Point { x: f64 }\n"   /* 3 */
			 "\n"                             /* 4 */
			 "impl Point {\n"                 /* 5 */
			 "    pub fn norm(&self) -> f64 {\n" /* 6 */
			 "        self.x\n"               /* 7 */
			 "    }\n"                        /* 8 */
			 "}\n"                            /* 9 */
			 "trait Shape { fn area(&self) -> f64; }\n" /* 10 */
			 "fn main() {}\n";                /* 11 */
	STR_EQ(find("rust", rs, "Point"), "1-3");
	STR_EQ(find("rust", rs, "Point::norm"), "6-8");
	STR_EQ(find("rust", rs, "norm"), "6-8");
	STR_EQ(find("rust", rs, "Shape"), "10-10");
	STR_EQ(find("rust", rs, "main"), "11-11");
}

static void test_go_js_java(void)
{
	const char *go = "package geo\n"
			 "\n"
			 "type Point struct{ X, Y float64 }\n"
			 "\n"
			 "// Dist is the distance.\n"
			 "func (p *Point) Dist() float64 {\n"
			 "\treturn p.X\n"
			 "}\n"
			 "func Origin() Point { return Point{} }\n";
	STR_EQ(find("go", go, "Point"), "3-3");
	STR_EQ(find("go", go, "Point.Dist"), "5-8");
	STR_EQ(find("go", go, "Dist"), "5-8");
	STR_EQ(find("go", go, "Origin"), "9-9");

	const char *js = "export function add(a, b) {\n"
			 "  return a + b;\n"
			 "}\n"
			 "class Box {\n"
			 "  open() { return 1; }\n"
			 "}\n"
			 "const twice = (x) => x * 2;\n"
			 "const n = 3;\n";
	STR_EQ(find("javascript", js, "add"), "1-3");
	STR_EQ(find("javascript", js, "Box.open"), "5-5");
	STR_EQ(find("javascript", js, "twice"), "7-7");
	STR_EQ(find("javascript", js, "n"), "none: add, Box, Box.open, twice");
	const char *ts = "interface Shape { area(): number }\n"
			 "type Id = string;\n"
			 "export class Sq implements Shape {\n"
			 "  area(): number { return 1; }\n"
			 "}\n";
	STR_EQ(find("typescript", ts, "Shape"), "1-1");
	STR_EQ(find("typescript", ts, "Id"), "2-2");
	STR_EQ(find("typescript", ts, "Sq.area"), "4-4");
	STR_EQ(find("typescript", ts, "Sq"), "3-5");

	const char *java = "public class Main {\n"
			   "    /** Entry. */\n"
			   "    @Override\n"
			   "    public static void main(String[] args) {\n"
			   "    }\n"
			   "    Main() {}\n"
			   "}\n";
	STR_EQ(find("java", java, "Main.main"), "2-5");
	STR_EQ(find("java", java, "Main.Main"), "6-6");
	STR_EQ(find("java", java, "Main"), "1-7");

	/* languages without a list of definitions */
	STR_EQ(find("yaml", "a: 1\n", "a"), "no grammar");
	STR_EQ(find("bash", "f() { :; }\n", "f"), "no grammar");
	OK(symbol_lang("cuda") && symbol_lang("tsx") && !symbol_lang("kotlin") && !symbol_lang(NULL));
	/* broken code still has its definitions */
	STR_EQ(find("c", "int f(void) { return (; }\nint g(void) { return 1; }\n", "g"), "2-2");
	/* nothing to parse */
	STR_EQ(find("c", "", "f"), "none: ");
}

/* md_render of blocks with file=: the code, the deps, the errors. */
static void test_render(void)
{
	char *site = t_tmpdir();
	t_write(site, "code/k.c", "int a;\n\nint add(int x)\n{\n\treturn x + 1;\n}\n");
	t_write(site, "static/.keep", "");
	char static_dir[4096];
	snprintf(static_dir, sizeof static_dir, "%s/static", site);
	struct md_options o = {.static_dir = static_dir, .code_ui = 1};
	struct md_doc doc;
	struct buf errs;
	buf_init(&errs);
	const char *html = t_post(arena, "```{file=\"/code/k.c\" symbol=\"add\" linenos}\n```\n", &o, &doc, &errs);
	STR_EQ(t_msgs(&errs), "");
	OK(t_has(html, "<figcaption class=\"code-title\">/code/k.c</figcaption><pre class=\"linenos\" tabindex=\"0\" "
		       "data-lang=\"c\">"));
	OK(t_has(html, "<span class=\"ln\" aria-hidden=\"true\">3</span>"));
	OK(!t_has(html, "int</span> <span class=\"hl-variable\">a</span>;") && !t_has(html, ">2</span>"));
	/* the deps: the file's hash and path, one line */
	INT_EQ(t_count(doc.deps.p, "\n"), 1);
	OK(doc.deps.len > 17 && doc.deps.p[16] == ' ' && t_has(doc.deps.p, "/code/k.c\n"));
	/* its code counts as the same code written in the block would */
	size_t words = doc.code_words;
	OK(words > 0);
	/* a document without file= has none */
	t_post(arena, "```c\nint add(int x)\n{\n\treturn x + 1;\n}\n```\n", &o, &doc, &errs);
	INT_EQ(doc.deps.len, 0);
	INT_EQ(doc.code_words, words);
	/* errors at the fence: the body's line 1 is the file's 5th */
	buf_reset(&errs);
	t_post(arena, "Text.\n\n```c {file=\"/code/k.c\" lines=\"3-9\"}\n```\n", &o, &doc, &errs);
	STR_EQ(t_msgs(&errs), "content/posts/p.md:7:1: error: code block: file '/code/k.c': lines 3-9: the file has 6 "
			      "lines");
	buf_reset(&errs);
	struct md_options none = {.code_ui = 1};
	t_post(arena, "```{file=\"/code/k.c\"}\n```\n", &none, &doc, &errs);
	STR_EQ(t_msgs(&errs), "content/posts/p.md:5:1: error: code block: file= needs the site's folder, which this "
			      "document has none of");
	buf_fini(&errs);
	t_rmtree(site);
	free(site);
}

void test_include(void)
{
	t_current = "include";
	arena = arena_new();
	buf_init(&err);
	test_options();
	test_c();
	test_cpp();
	test_python();
	test_rust();
	test_go_js_java();
	test_render();
	buf_fini(&err);
	arena_free(arena);
}
