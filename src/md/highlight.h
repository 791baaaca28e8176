/* highlight.h: build-time syntax highlighting of code blocks: tree-sitter
 * grammars and their highlight queries -> HTML spans. */
#ifndef FOLIO_HIGHLIGHT_H
#define FOLIO_HIGHLIGHT_H

#include <stdbool.h>
#include <stddef.h>

struct buf;

/* The output: the code, HTML-escaped (& < > " as cmark escapes code), with
 * each highlighted range in <span class="...">. A capture name of the
 * queries picks the most specific of the names below all of whose parts it
 * has (as tree-sitter's highlighter does), and the span carries the class of
 * the first part plus, for a two-part name, one for both parts:
 *
 *   @keyword, @keyword.modifier        class="hl-keyword"
 *   @function.builtin                  class="hl-function hl-function-builtin"
 *   @string.special.key (JSON keys)    class="hl-string hl-string-special"
 *
 * The names: attribute, comment, comment.documentation, constant,
 * constant.builtin, constructor, embedded (code inside a string, as ${...}),
 * escape, function, function.builtin, function.macro, function.method,
 * keyword, label, module, number, operator, property, punctuation,
 * punctuation.bracket, punctuation.delimiter, punctuation.special, string,
 * string.escape, string.regexp, string.special, tag, type, type.builtin,
 * variable, variable.builtin, variable.member, variable.parameter.
 * hl_classes lists the classes. A capture matching none of them (C's
 * @delimiter) marks its node as plain text.
 *
 * The queries are the grammars' own (C++ and CUDA on top of C's, as their
 * tree-sitter.json says), with all their predicates (#match? in Rust regex
 * syntax, #eq?, #any-of?, their not- and any- forms; #set!, #is? and
 * #is-not? ignored, as the highlighter ignores them); for Go and Python
 * folio appends a few patterns of its own (see hl_langs in md/highlight.c).
 *
 * Precedence, as tree-sitter's highlighter (0.21 and later) applies it:
 * when several patterns capture the same node, the last pattern in the
 * query files wins; a node inside a highlighted node gets a span of its own,
 * nested, so the innermost node wins visually (of nodes with the same range
 * only the last pattern's span is written). Spans always nest properly,
 * and none crosses a line: a span open at a newline is closed before it and
 * opened again after it, so each line of the output is balanced HTML (for
 * line numbers and highlighted lines). Invalid UTF-8 and NUL bytes come out
 * as U+FFFD. */

/* hl_lookup: the canonical language for an info-string word (ASCII case
 * ignored): "cu" -> "cuda", "py" and "triton" -> "python", "sh", "shell"
 * and "zsh" -> "bash", "c++", "cc", "cxx" and "hpp" -> "cpp", "js" ->
 * "javascript", "rs" -> "rust", "yml" -> "yaml", "ts" -> "typescript",
 * "kt" -> "kotlin", "rb" -> "ruby", "hs" -> "haskell", "ml" -> "ocaml",
 * "jl" -> "julia", "cs", "c#" -> "csharp", "makefile" -> "make", "md" ->
 * "markdown", "patch" -> "diff", ... (hl_aliases in md/highlight.c). Two
 * languages are folio's own, line by line: "diff" (each added, removed,
 * hunk and header line in a span of class hl-diff-add, hl-diff-del,
 * hl-diff-hunk, hl-diff-header) and "console" (the commands after a "$ "
 * prompt as bash, the prompt in hl-prompt, the output plain; all plain
 * without a prompt). Returns a static string, or NULL if folio has no
 * grammar for it. */
const char *hl_lookup(const char *lang, size_t len);

/* hl_grammar: the tree-sitter grammar of a canonical language name or
 * alias (hl_lookup's), or NULL: for md/symbol.c, which finds definitions
 * in the same trees. */
struct TSLanguage;
const struct TSLanguage *hl_grammar(const char *lang, size_t len);

/* hl_is_plain: whether an info-string word (ASCII case ignored) is one
 * shown as plain text without a warning: none at all, "text", "plain",
 * "txt", "output", "math", and the languages folio has no grammar for
 * (assembly: "asm", "nasm", "ptx", ...; "llvm"; "dockerfile"). hl_render
 * gives them 0. */
bool hl_is_plain(const char *lang, size_t len);

/* hl_render: appends code[0..len) highlighted as lang (canonical name or
 * alias, lang_len bytes) to out. Returns 0, or -1 if the language is
 * unknown (or, a build defect, its grammar or query cannot be loaded), in
 * which case out gets the escaped plain code and the caller warns. A block
 * that takes tree-sitter too long (4 s for the parse and the query), whose
 * tree would be too costly to query (100k unmatched parentheses) or whose
 * output would be over 40 times its size also comes out as escaped plain
 * code, with 0.
 * Thread-safe: each thread has its own parser and compiled queries,
 * created on first use and kept until hl_thread_cleanup (or the thread's
 * exit). */
int hl_render(struct buf *out, const char *lang, size_t lang_len, const char *code, size_t len);

/* hl_thread_cleanup: frees the calling thread's parser and compiled
 * queries; the next hl_render in this thread creates them again. */
void hl_thread_cleanup(void);

/* hl_version: "tree-sitter VERSION (N grammars)", for folio --version. */
const char *hl_version(void);

/* hl_languages: the canonical language names, NULL-terminated (static). */
const char *const *hl_languages(void);

/* hl_classes: every class name hl_render emits ("hl-keyword",
 * "hl-function-builtin", ...), NULL-terminated (static). */
const char *const *hl_classes(void);

/* hl_render_with: for tests: hl_render with the query text given (in
 * place of the built-in queries; compiled on each call). Returns -1, with
 * out getting the plain code, for an unknown language or a query that does
 * not compile. */
int hl_render_with(struct buf *out, const char *lang, size_t lang_len, const char *query,
                   const char *code, size_t len);

#endif
