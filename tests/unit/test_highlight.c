/* test_highlight.c: syntax highlighting (src/md/highlight.c): languages and
 * aliases, escaping, precedence and predicates, the golden files of
 * tests/highlight/ (REGRESS_UPDATE=1 rewrites them), threads, and
 * pathological input. */
#include "harness.h"

#include "base/buf.h"
#include "md/highlight.h"

#include <dirent.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

void test_highlight(void);

#define GOLDEN_DIR "tests/highlight"

/* render: hl_render into a static buffer (valid until the next call); *rc
 * gets its return value. */
static struct buf t_out;

static const char *render(const char *lang, const char *code, size_t len, int *rc)
{
	buf_reset(&t_out);
	*rc = hl_render(&t_out, lang, strlen(lang), code, len);
	return t_out.p ? t_out.p : "";
}

static const char *render_s(const char *lang, const char *code)
{
	int rc;
	return render(lang, code, strlen(code), &rc);
}

static const char *render_q(const char *lang, const char *query, const char *code)
{
	buf_reset(&t_out);
	if (hl_render_with(&t_out, lang, strlen(lang), query, code, strlen(code)) < 0)
		return "(query error)";
	return t_out.p ? t_out.p : "";
}

/* text_of: the text of highlighted HTML: tags removed, the four entities
 * hl_render writes decoded. */
static void text_of(const char *html, size_t n, struct buf *out)
{
	buf_reset(out);
	for (size_t i = 0; i < n;) {
		if (html[i] == '<') {
			const char *gt = memchr(html + i, '>', n - i);
			i = gt ? (size_t)(gt - html) + 1 : n;
		} else if (html[i] == '&') {
			static const struct {
				const char *ent;
				char c;
			} ents[] = {{"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}};
			size_t k = 0;
			while (k < 4 && strncmp(html + i, ents[k].ent, strlen(ents[k].ent)) != 0)
				k++;
			if (k == 4) {
				buf_putc(out, '&');
				i++;
			} else {
				buf_putc(out, ents[k].c);
				i += strlen(ents[k].ent);
			}
		} else {
			buf_putc(out, html[i++]);
		}
	}
}

/* well_formed: every line's spans are balanced, none is empty, and tags
 * are only <span class="hl-..."> and </span>. */
static int well_formed(const char *html, size_t n)
{
	int depth = 0;
	for (size_t i = 0; i < n; i++) {
		if (html[i] == '\n') {
			if (depth != 0)
				return 0;
		} else if (html[i] == '<') {
			if (strncmp(html + i, "</span>", 7) == 0) {
				if (--depth < 0)
					return 0;
			} else if (strncmp(html + i, "<span class=\"hl-", 16) == 0) {
				const char *gt = memchr(html + i, '>', n - i);
				if (!gt || strncmp(gt + 1, "</span>", 7) == 0)
					return 0;
				depth++;
			} else {
				return 0;
			}
		}
	}
	return depth == 0;
}

/* same_text: whether html shows exactly code (valid UTF-8 code). */
static int same_text(const char *html, size_t n, const char *code, size_t len)
{
	struct buf t;
	buf_init(&t);
	text_of(html, n, &t);
	int same = t.len == len && (len == 0 || memcmp(t.p, code, len) == 0);
	buf_fini(&t);
	return same;
}

static int valid_utf8(const unsigned char *s, size_t n)
{
	for (size_t i = 0; i < n;) {
		unsigned char c = s[i];
		size_t k = c < 0x80                 ? 1
		           : c >= 0xC2 && c <= 0xDF ? 2
		           : c >= 0xE0 && c <= 0xEF ? 3
		           : c >= 0xF0 && c <= 0xF4 ? 4
		                                    : 0;
		if (k == 0 || c == 0 || i + k > n)
			return 0;
		for (size_t j = 1; j < k; j++)
			if ((s[i + j] & 0xC0) != 0x80)
				return 0;
		i += k;
	}
	return 1;
}

static void test_lookup(void)
{
	t_current = "highlight lookup";
	STR_EQ(hl_lookup("cu", 2), "cuda");
	STR_EQ(hl_lookup("cuda", 4), "cuda");
	STR_EQ(hl_lookup("py", 2), "python");
	STR_EQ(hl_lookup("triton", 6), "python");
	STR_EQ(hl_lookup("sh", 2), "bash");
	STR_EQ(hl_lookup("shell", 5), "bash");
	STR_EQ(hl_lookup("console", 7), "console");
	STR_EQ(hl_lookup("zsh", 3), "bash");
	STR_EQ(hl_lookup("yml", 3), "yaml");
	STR_EQ(hl_lookup("ts", 2), "typescript");
	STR_EQ(hl_lookup("TSX", 3), "tsx");
	STR_EQ(hl_lookup("kt", 2), "kotlin");
	STR_EQ(hl_lookup("rb", 2), "ruby");
	STR_EQ(hl_lookup("hs", 2), "haskell");
	STR_EQ(hl_lookup("ml", 2), "ocaml");
	STR_EQ(hl_lookup("jl", 2), "julia");
	STR_EQ(hl_lookup("cs", 2), "csharp");
	STR_EQ(hl_lookup("c#", 2), "csharp");
	STR_EQ(hl_lookup("csharp", 6), "csharp");
	STR_EQ(hl_lookup("hpp", 3), "cpp");
	STR_EQ(hl_lookup("Makefile", 8), "make");
	STR_EQ(hl_lookup("md", 2), "markdown");
	STR_EQ(hl_lookup("patch", 5), "diff");
	STR_EQ(hl_lookup("postgresql", 10), "sql");
	STR_EQ(hl_lookup("svg", 3), "xml");
	/* plain text, no grammar, no warning */
	OK(hl_lookup("text", 4) == NULL);
	OK(hl_lookup("asm", 3) == NULL);
	static const char *const plain[] = {"", "text", "plain", "txt", "output", "math", "asm",
	                                    "nasm", "ptx", "llvm", "dockerfile", "Docker", NULL};
	for (int i = 0; plain[i]; i++)
		OK(hl_is_plain(plain[i], strlen(plain[i])));
	OK(!hl_is_plain("brainfuck", 9));
	OK(!hl_is_plain("c", 1));
	STR_EQ(hl_lookup("c++", 3), "cpp");
	STR_EQ(hl_lookup("cc", 2), "cpp");
	STR_EQ(hl_lookup("cxx", 3), "cpp");
	STR_EQ(hl_lookup("js", 2), "javascript");
	STR_EQ(hl_lookup("rs", 2), "rust");
	STR_EQ(hl_lookup("Python", 6), "python");
	STR_EQ(hl_lookup("C", 1), "c");
	STR_EQ(hl_lookup("json", 4), "json");
	STR_EQ(hl_lookup("go", 2), "go");
	STR_EQ(hl_lookup("pyx", 2), "python"); /* the length counts, not a NUL */
	OK(hl_lookup("pyx", 3) == NULL);
	OK(hl_lookup("brainfuck", 9) == NULL);
	OK(hl_lookup("", 0) == NULL);
	OK(hl_lookup(NULL, 0) == NULL);

	const char *const *langs = hl_languages();
	int n = 0;
	for (; langs[n]; n++)
		STR_EQ(hl_lookup(langs[n], strlen(langs[n])), langs[n]);
	INT_EQ(n, 33);

	/* every class is "hl-" and a name, listed once */
	const char *const *cls = hl_classes();
	int k = 0;
	for (; cls[k]; k++)
		OK(strncmp(cls[k], "hl-", 3) == 0);
	INT_EQ(k, 38);
}

/* Each language loads (grammar ABI, query compiled) and highlights. */
static void test_languages(void)
{
	static const struct {
		const char *lang, *code, *want;
	} cases[] = {
	    {"c", "return 1;",
	     "<span class=\"hl-keyword\">return</span> <span "
	     "class=\"hl-number\">1</span>;"},
	    {"cpp", "delete p;",
	     "<span class=\"hl-keyword\">delete</span> <span "
	     "class=\"hl-variable\">p</span>;"},
	    {"cuda", "__global__ void k();",
	     "<span class=\"hl-keyword\">__global__</span> <span class=\"hl-type\">void</span> "
	     "<span class=\"hl-function\">k</span>();"},
	    {"python", "pass", "<span class=\"hl-keyword\">pass</span>"},
	    {"bash", "echo hi", "<span class=\"hl-function\">echo</span> hi"},
	    {"rust", "let x;",
	     "<span class=\"hl-keyword\">let</span> x<span class=\"hl-punctuation "
	     "hl-punctuation-delimiter\">;</span>"},
	    {"javascript", "null", "<span class=\"hl-constant hl-constant-builtin\">null</span>"},
	    {"json", "[true]", "[<span class=\"hl-constant hl-constant-builtin\">true</span>]"},
	    {"go", "go f()",
	     "<span class=\"hl-keyword\">go</span> <span "
	     "class=\"hl-function\">f</span>()"},
	    {"diff", "@@ -1 +1 @@\n-a\n+b\n c",
	     "<span class=\"hl-diff-hunk\">@@ -1 +1 @@</span>\n"
	     "<span class=\"hl-diff-del\">-a</span>\n"
	     "<span class=\"hl-diff-add\">+b</span>\n c"},
	    {"console", "$ echo hi\nhi\n",
	     "<span class=\"hl-prompt\">$</span> <span class=\"hl-function\">echo</span> hi\nhi\n"},
	    {"console", "hi < 1\n", "hi &lt; 1\n"},
	};
	t_current = "highlight languages";
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		int rc;
		const char *got = render(cases[i].lang, cases[i].code, strlen(cases[i].code), &rc);
		INT_EQ(rc, 0);
		STR_EQ(got, cases[i].want);
	}
}

static void test_plain(void)
{
	int rc;
	t_current = "highlight plain";
	STR_EQ(render("brainfuck", "a < b && \"c\" > 'd'\n", 19, &rc),
	       "a &lt; b &amp;&amp; &quot;c&quot; &gt; 'd'\n");
	INT_EQ(rc, -1);
	STR_EQ(render("", "x", 1, &rc), "x");
	INT_EQ(rc, 0);
	STR_EQ(render("text", "<x>", 3, &rc), "&lt;x&gt;");
	INT_EQ(rc, 0);
	STR_EQ(render("ptx", "ld.global.f32 %f1, [%rd1];", 26, &rc), "ld.global.f32 %f1, [%rd1];");
	INT_EQ(rc, 0);
	STR_EQ(render("math", "a<b", 3, &rc), "a&lt;b");
	INT_EQ(rc, 0);
	STR_EQ(render("c", "", 0, &rc), "");
	INT_EQ(rc, 0);
	STR_EQ(render("nope", "", 0, &rc), "");
	INT_EQ(rc, -1);
	/* escaping inside spans */
	STR_EQ(render_s("c", "\"<&>\""),
	       "<span class=\"hl-string\">&quot;&lt;&amp;&gt;&quot;</span>");
}

/* The shipped queries' predicates and precedence, on real snippets. */
static void test_precedence(void)
{
	t_current = "highlight precedence";
	/* last pattern wins for a node: C's (identifier) @variable comes first,
	 * the call pattern later */
	STR_EQ(render_s("c", "f(x);"), "<span class=\"hl-function\">f</span>(<span "
	                               "class=\"hl-variable\">x</span>);");
	/* #match? with \d in a bracket expression: ^[A-Z][A-Z\d_]*$ */
	STR_EQ(render_s("c", "A2_B + Ab;"), "<span class=\"hl-constant\">A2_B</span> <span "
	                                    "class=\"hl-operator\">+</span> <span "
	                                    "class=\"hl-variable\">Ab</span>;");
	/* Python: the builtin pattern (a #match?) comes after the call one */
	STR_EQ(render_s("python", "print(x)"),
	       "<span class=\"hl-function hl-function-builtin\">print</span>(<span "
	       "class=\"hl-variable\">x</span>)");
	STR_EQ(render_s("python", "prints(x)"),
	       "<span class=\"hl-function\">prints</span>(<span class=\"hl-variable\">x</span>)");
	/* JavaScript: #eq? "require", with an #is-not? local (ignored) */
	STR_EQ(render_s("js", "require(a)"),
	       "<span class=\"hl-function hl-function-builtin\">require</span><span "
	       "class=\"hl-punctuation hl-punctuation-bracket\">(</span><span "
	       "class=\"hl-variable\">a</span><span class=\"hl-punctuation "
	       "hl-punctuation-bracket\">)</span>");
	/* JSX: lowercase tags (a #match?), components are constructors */
	const char *jsx = render_s("js", "<a/>");
	OK(strstr(jsx, "<span class=\"hl-tag\">a</span>") != NULL);
	jsx = render_s("js", "<Ab/>");
	OK(strstr(jsx, "<span class=\"hl-constructor\">Ab</span>") != NULL);
	/* nesting: the innermost node wins visually */
	STR_EQ(render_s("python", "f\"{x}\""),
	       "<span class=\"hl-string\">f&quot;<span class=\"hl-embedded\"><span "
	       "class=\"hl-punctuation hl-punctuation-special\">{</span><span "
	       "class=\"hl-variable\">x</span><span class=\"hl-punctuation "
	       "hl-punctuation-special\">}</span></span>&quot;</span>");
	/* a capture of no recognized name (C's @delimiter) is plain */
	STR_EQ(render_s("c", "a.b;"), "<span class=\"hl-variable\">a</span>.<span "
	                              "class=\"hl-property\">b</span>;");
	/* a multi-line comment: one span per line, none empty */
	STR_EQ(
	    render_s("c", "/* a\n\nb */\n"),
	    "<span class=\"hl-comment\">/* a</span>\n\n<span class=\"hl-comment\">b */</span>\n");
	/* Go: folio's patterns after the grammar's */
	STR_EQ(render_s("go", "len(x)"),
	       "<span class=\"hl-function hl-function-builtin\">len</span>(<span "
	       "class=\"hl-variable\">x</span>)");
}

/* Predicates and precedence with queries of the test's own. */
static void test_queries(void)
{
	t_current = "highlight queries";
	/* same node: the last pattern wins, whatever the names */
	STR_EQ(render_q("c", "(identifier) @function (identifier) @type", "x;"),
	       "<span class=\"hl-type\">x</span>;");
	STR_EQ(render_q("c", "(identifier) @type (identifier) @nothing", "x;"), "x;");
	/* a name picks the recognized name with most parts it has */
	STR_EQ(render_q("c", "(identifier) @function.method.builtin", "x;"),
	       "<span class=\"hl-function hl-function-builtin\">x</span>;");
	STR_EQ(render_q("c", "(identifier) @keyword.control.repeat", "x;"),
	       "<span class=\"hl-keyword\">x</span>;");
	/* private captures: predicates only */
	STR_EQ(render_q("c",
	                "((call_expression function: (identifier) @_f arguments: (_) @string)"
	                " (#eq? @_f \"g\"))",
	                "g(1); h(2);"),
	       "g<span class=\"hl-string\">(1)</span>; h(2);");
	/* #eq? / #not-eq? with a string and with a capture */
	STR_EQ(render_q("c", "((identifier) @type (#not-eq? @type \"b\"))", "a+b;"),
	       "<span class=\"hl-type\">a</span>+b;");
	STR_EQ(render_q("c",
	                "((binary_expression left: (identifier) @_l right: (identifier) @keyword)"
	                " (#eq? @_l @keyword))",
	                "a+a; a+b;"),
	       "a+<span class=\"hl-keyword\">a</span>; a+b;");
	STR_EQ(render_q("c",
	                "((binary_expression left: (identifier) @_l right: (identifier) @keyword)"
	                " (#not-eq? @_l @keyword))",
	                "a+a; a+b;"),
	       "a+a; a+<span class=\"hl-keyword\">b</span>;");
	/* #any-of? and #not-any-of? */
	STR_EQ(render_q("c", "((identifier) @keyword (#any-of? @keyword \"a\" \"c\"))", "a+b+c;"),
	       "<span class=\"hl-keyword\">a</span>+b+<span class=\"hl-keyword\">c</span>;");
	STR_EQ(
	    render_q("c", "((identifier) @keyword (#not-any-of? @keyword \"a\" \"c\"))", "a+b+c;"),
	    "a+<span class=\"hl-keyword\">b</span>+c;");
	/* #match? in Rust regex syntax: \d \w \s, classes, (?i), #not-match? */
	STR_EQ(
	    render_q("c", "((identifier) @constant (#match? @constant \"^x\\\\d+$\"))", "x1+xa;"),
	    "<span class=\"hl-constant\">x1</span>+xa;");
	STR_EQ(render_q("c", "((identifier) @constant (#match? @constant \"^[\\\\d_]+\\\\w$\"))",
	                "_1a+a1_;"),
	       "<span class=\"hl-constant\">_1a</span>+a1_;");
	STR_EQ(render_q("c", "((string_literal) @string (#match? @string \"a\\\\sb\"))",
	                "f(\"a b\", \"ab\");"),
	       "f(<span class=\"hl-string\">&quot;a b&quot;</span>, &quot;ab&quot;);");
	STR_EQ(
	    render_q("c", "((identifier) @constant (#match? @constant \"(?i)^abc$\"))", "ABC+abd;"),
	    "<span class=\"hl-constant\">ABC</span>+abd;");
	STR_EQ(render_q("c", "((identifier) @constant (#not-match? @constant \"^[a-z]+$\"))",
	                "ab+Ab;"),
	       "ab+<span class=\"hl-constant\">Ab</span>;");
	STR_EQ(render_q("c", "((identifier) @constant (#match? @constant \"^[]a-]+$\"))", "a+b;"),
	       "<span class=\"hl-constant\">a</span>+b;");
	/* a capture of several nodes: #eq? needs every node, #any-eq? one */
	STR_EQ(render_q("c",
	                "((argument_list . (identifier) @keyword . (identifier) @keyword .)"
	                " (#eq? @keyword \"a\"))",
	                "f(a, a); g(a, b);"),
	       "f(<span class=\"hl-keyword\">a</span>, <span class=\"hl-keyword\">a</span>); "
	       "g(a, b);");
	STR_EQ(render_q("c",
	                "((argument_list . (identifier) @keyword . (identifier) @keyword .)"
	                " (#any-eq? @keyword \"b\"))",
	                "f(a, a); g(a, b);"),
	       "f(a, a); g(<span class=\"hl-keyword\">a</span>, <span "
	       "class=\"hl-keyword\">b</span>);");
	/* directives and property predicates are ignored */
	STR_EQ(render_q("c", "((identifier) @type (#set! priority 105) (#is-not? local))", "x;"),
	       "<span class=\"hl-type\">x</span>;");
	/* a regex that cannot be translated disables its pattern */
	STR_EQ(
	    render_q("c",
	             "(identifier) @type ((identifier) @keyword (#match? @keyword \"\\\\p{L}\"))",
	             "x;"),
	    "<span class=\"hl-type\">x</span>;");
	/* a query that does not compile */
	STR_EQ(render_q("c", "(no_such_node) @type", "x;"), "(query error)");
	/* same range, different nodes: the last pattern wins */
	STR_EQ(render_q("c",
	                "(expression_statement (identifier) @type) (expression_statement) @keyword",
	                "x;"),
	       "<span class=\"hl-keyword\"><span class=\"hl-type\">x</span>;</span>");
	STR_EQ(render_q("python", "(identifier) @type (expression_statement) @keyword", "x"),
	       "<span class=\"hl-keyword\">x</span>");
	STR_EQ(render_q("python", "(expression_statement) @keyword (identifier) @type", "x"),
	       "<span class=\"hl-type\">x</span>");
}

/* The golden files: tests/highlight/NAME.LANG and NAME.LANG.html. */
static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void test_golden(void)
{
	t_current = "highlight golden";
	DIR *d = opendir(GOLDEN_DIR);
	OK(d != NULL);
	if (!d)
		return;
	char *names[64];
	int n = 0;
	struct dirent *e;
	while ((e = readdir(d)) && n < 64) {
		size_t len = strlen(e->d_name);
		if (e->d_name[0] == '.' || (len > 5 && strcmp(e->d_name + len - 5, ".html") == 0))
			continue;
		names[n++] = strdup(e->d_name);
	}
	closedir(d);
	qsort(names, (size_t)n, sizeof names[0], name_cmp);
	OK(n >= 9);
	int update = getenv("REGRESS_UPDATE") != NULL;
	for (int i = 0; i < n; i++) {
		char path[512], want_path[600];
		snprintf(path, sizeof path, "%s/%s", GOLDEN_DIR, names[i]);
		snprintf(want_path, sizeof want_path, "%s.html", path);
		const char *lang = strrchr(names[i], '.') + 1;
		size_t len, want_len;
		char *code = read_file(path, &len);
		OK(code != NULL);
		if (!code)
			continue;
		int rc;
		const char *got = render(lang, code, len, &rc);
		INT_EQ(rc, 0);
		OK(well_formed(got, t_out.len));
		OK(same_text(got, t_out.len, code, len));
		if (update) {
			FILE *f = fopen(want_path, "wb");
			if (f) {
				fwrite(got, 1, t_out.len, f);
				fclose(f);
			}
		}
		char *want = read_file(want_path, &want_len);
		if (!want || strcmp(got, want) != 0)
			t_fail(__FILE__, __LINE__,
			       "%s: output differs from %s (REGRESS_UPDATE=1 rewrites it)", path,
			       want_path);
		else
			t_passed++;
		free(want);
		free(code);
		free(names[i]);
	}
}

/* Threads: each has its own parser and queries; the output is the same. */
struct t_job {
	const char *lang, *code;
	const char *want;
	int ok;
	int cleanup;
};

static void *t_thread(void *arg)
{
	struct t_job *job = arg;
	struct buf out;
	buf_init(&out);
	job->ok = 1;
	for (int i = 0; i < 20; i++) {
		buf_reset(&out);
		if (hl_render(&out, job->lang, strlen(job->lang), job->code, strlen(job->code)) !=
		        0 ||
		    strcmp(out.p, job->want) != 0)
			job->ok = 0;
	}
	buf_fini(&out);
	if (job->cleanup)
		hl_thread_cleanup(); /* else the thread's exit frees its state */
	return NULL;
}

static void test_threads(void)
{
	static const struct {
		const char *lang, *code;
	} src[] = {
	    {"c", "int main(void) { return printf(\"%d\\n\", MAX); }"},
	    {"python", "def f(x):\n    return len(x) if x else None\n"},
	    {"cuda", "__global__ void k(float *x) { x[threadIdx.x] = 0; }"},
	    {"rust", "fn main() { println!(\"{}\", 1); }"},
	};
	enum { N = 8 };
	struct t_job jobs[N];
	pthread_t th[N];
	char *want[4];
	t_current = "highlight threads";
	for (int i = 0; i < 4; i++)
		want[i] = strdup(render_s(src[i].lang, src[i].code));
	for (int i = 0; i < N; i++) {
		jobs[i] = (struct t_job){src[i % 4].lang, src[i % 4].code, want[i % 4], 0, i % 2};
		OK(pthread_create(&th[i], NULL, t_thread, &jobs[i]) == 0);
	}
	for (int i = 0; i < N; i++) {
		pthread_join(th[i], NULL);
		OK(jobs[i].ok);
	}
	for (int i = 0; i < 4; i++)
		free(want[i]);
	/* cleanup, then use again */
	hl_thread_cleanup();
	hl_thread_cleanup();
	/* a text of no span first, on a fresh state (no list of spans yet:
	 * UBSan caught the sort of that NULL list in an imported blog) */
	STR_EQ(render_s("c", " \n"), " \n");
	STR_EQ(render_s("c", "x;"), "<span class=\"hl-variable\">x</span>;");
}

/* Pathological input: no crash, no hang, the text always intact. */
static void check_big(const char *lang, const char *code, size_t len)
{
	int rc;
	const char *got = render(lang, code, len, &rc);
	INT_EQ(rc, 0);
	OK(valid_utf8((const unsigned char *)got, t_out.len));
	OK(well_formed(got, t_out.len));
	if (valid_utf8((const unsigned char *)code, len))
		OK(same_text(got, t_out.len, code, len));
}

static void test_pathological(void)
{
	t_current = "highlight pathological";
	size_t n = 100000;
	char *s = malloc(2 * n + 16);
	/* 100k nested parentheses, closed and not */
	memset(s, '(', n);
	memset(s + n, ')', n);
	s[2 * n] = '\0';
	check_big("c", s, 2 * n);
	check_big("python", s, 2 * n);
	check_big("rust", s, 2 * n);
	check_big("javascript", s, 2 * n);
	memcpy(s, "x = ", 4);
	memset(s + 4, '(', n);
	check_big("c", s, n + 4);
	check_big("go", s, n + 4);
	memset(s, '[', n);
	check_big("json", s, n);
	check_big("python", s, n);
	free(s);

	/* a 1 MB line */
	size_t big = 1 << 20;
	const char *unit = "x = a[i] + f(\"s\", 'c') * 2; /* c */ ";
	size_t ul = strlen(unit);
	s = malloc(big + 1);
	for (size_t i = 0; i < big; i++)
		s[i] = unit[i % ul];
	s[big] = '\0';
	check_big("c", s, big);
	free(s);

	/* nested template strings and f-strings: spans nest at most 16 deep */
	struct buf b;
	buf_init(&b);
	for (int i = 0; i < 40; i++)
		buf_puts(&b, "`${");
	buf_puts(&b, "x\n");
	for (int i = 0; i < 40; i++)
		buf_puts(&b, "}`");
	check_big("javascript", b.p, b.len);
	int depth = 0, max = 0;
	for (const char *p = t_out.p; *p; p++) {
		if (strncmp(p, "<span", 5) == 0 && ++depth > max)
			max = depth;
		else if (strncmp(p, "</span>", 7) == 0)
			depth--;
	}
	OK(max >= 8 && max <= 16);
	buf_reset(&b);

	/* invalid UTF-8 and NUL bytes come out as U+FFFD */
	static const char bad[] = "int x = \"\xff\xfe\"; /* \xc3\x28 \xe2\x82 */ char c = '\0';";
	int rc;
	const char *got = render("c", bad, sizeof bad - 1, &rc);
	INT_EQ(rc, 0);
	OK(valid_utf8((const unsigned char *)got, t_out.len));
	OK(strstr(got, "&quot;\xEF\xBF\xBD\xEF\xBF\xBD&quot;") != NULL);
	OK(strstr(got, "'\xEF\xBF\xBD'") != NULL);
	got = render("nope", "\xff", 1, &rc);
	STR_EQ(got, "\xEF\xBF\xBD");
	INT_EQ(rc, -1);
	/* random bytes in every language */
	unsigned seed = 12345;
	for (int i = 0; i < 16384; i++) {
		seed = seed * 1103515245u + 12345u;
		buf_putc(&b, (int)(seed >> 16) & 0xff);
	}
	for (const char *const *l = hl_languages(); *l; l++)
		check_big(*l, b.p, b.len);
	buf_fini(&b);
}

void test_highlight(void)
{
	buf_init(&t_out);
	test_lookup();
	test_languages();
	test_plain();
	test_precedence();
	test_queries();
	test_golden();
	test_threads();
	test_pathological();
	buf_fini(&t_out);
	hl_thread_cleanup();
}
