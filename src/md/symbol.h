/* symbol.h: a definition in a file of code found by name with
 * tree-sitter, for a code block's symbol= (md/include.c): a function, a
 * struct, class, method, type, ... of the languages below, and the lines
 * it spans. */
#ifndef FOLIO_SYMBOL_H
#define FOLIO_SYMBOL_H

#include <stddef.h>

#include "base/buf.h"

/* The languages symbols are found in, as a list for messages. */
#define SYMBOL_LANGS "C, C++, CUDA, Python, Rust, Go, JavaScript, TypeScript and Java"

/* symbol_lang: whether symbols are found in lang (a canonical name of
 * hl_lookup: "c", "cpp", "cuda", "python", "rust", "go", "javascript",
 * "typescript", "tsx", "java"). */
int symbol_lang(const char *lang);

/* What symbol_find found: the lines of the definition (1-based, both
 * included), from its first comment line right above it (no blank line
 * between) or its first decorator, template<...>, export or attribute,
 * to its last line. */
struct symbol_span {
	size_t lo, hi;
};

/* symbol_find: the definition named name (len bytes) in the code
 * src[0..src_len) in language lang (symbol_lang's). A definition's full
 * name is its own with the names of the definitions around it that are
 * scopes (classes, structs, namespaces, impl blocks, a Go method's
 * receiver type), joined by '.': "Matrix.mul", "linalg.Matrix.mul". name
 * matches a full name or the end of one at a '.' ("mul" and
 * "Matrix.mul" both find "linalg.Matrix.mul"); "::" in name (or in a C++
 * definition's own qualified name) counts as '.'. The first definition
 * that matches, in the file's order, wins (C++'s overloads: the first).
 * The definitions:
 *   C, C++, CUDA  function definitions (not prototypes), struct, union,
 *                 enum and class bodies, typedefs, namespaces, #define
 *                 macros
 *   Python        def, class
 *   Rust          fn, struct, enum, union, trait, impl (by its type),
 *                 mod, type, const, static, macro_rules!
 *   Go            func, methods (Type.Method), type specs
 *   JavaScript, TypeScript  function, class, method, a const/let/var
 *                 bound to a function or arrow function; TypeScript's
 *                 interface, type, enum
 *   Java          class, interface, enum, record, method, constructor
 * Returns 1 and fills *out; 0 when none matches (near then holds the full
 * name closest to name, if one is close, and *guess is 1; else up to five
 * of the file's names separated by ", ", and *guess is 0); -1 when lang
 * has no grammar here or the file cannot be parsed in time. */
int symbol_find(const char *lang, const char *src, size_t src_len, const char *name, size_t len,
		struct symbol_span *out, struct buf *near, int *guess);

#endif
