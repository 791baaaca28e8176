/* toml.h: TOML (toml++, a C++ library, behind a C shim) -> folio's YAML tree. */
#ifndef FOLIO_TOML_H
#define FOLIO_TOML_H

#include "formats/yaml.h"

/* toml_parse: parses text[0..len) as one TOML 1.0 document (Hugo's +++
 * front matter, hugo.toml) into the tree yaml_parse makes, with the same
 * arguments: path names the file in diagnostics, line_offset is added to
 * every line, src/src_len is the whole file for excerpts (may equal text).
 * Everything returned is owned by the arena a.
 *
 * The tree: the document and every table is a YNODE_MAP whose keys are in
 * the order they first appear in the file (a dotted key or a [a.b] header
 * makes its parent tables where their first segment is); arrays, and arrays
 * of tables, are YNODE_SEQ. Scalars are typed as yaml_as_* expects: strings
 * (all four kinds) are quoted; integers are plain decimal text (0xff gives
 * "255"); floats plain, spelled for yaml_as_float (inf is ".inf", 1.0 stays
 * "1.0"); booleans "true" and "false"; dates and times their ISO 8601 text,
 * plain ("1979-05-27T07:32:00Z", "1979-05-27T07:32:00", "1979-05-27",
 * "07:32:00"; fractions of a second kept, an offset of zero written Z).
 * Each node has the line and byte column where toml++ saw it begin (a key
 * where its text starts, a value where its text starts, a table where it was
 * first named); the document is at line 1 + line_offset, column 1.
 *
 * Errors (toml++'s syntax errors, with its message and a hint; nesting
 * deeper than YAML_MAX_DEPTH, a dotted key or table header of more parts
 * than that included; an internal check of toml++ that fails) are reported
 * once to d as path:line:col: error: ..., and the result is NULL. An empty
 * document is an empty map. Thread-safe. */
struct ynode *toml_parse(struct arena *a, struct diag *d, const char *path, const char *src,
                         size_t src_len, const char *text, size_t len, int line_offset);

#endif
