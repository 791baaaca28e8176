/* json.h: JSON (cJSON) -> folio's YAML tree, with positions and diagnostics. */
#ifndef FOLIO_JSON_H
#define FOLIO_JSON_H

#include "formats/yaml.h"

/* json_parse: parses text[0..len) as one JSON value (Hugo's JSON front
 * matter, config.json) into the tree yaml_parse makes, with the same
 * arguments: path names the file in diagnostics, line_offset is added to
 * every line, src/src_len is the whole file for excerpts (may equal text).
 * Everything returned is owned by the arena a.
 *
 * The tree: objects are YNODE_MAP with their keys in file order, arrays
 * YNODE_SEQ. Strings (and keys) are quoted scalars; numbers plain scalars
 * with their text as written ("3", "3.0", "1e5": yaml_as_int and
 * yaml_as_float type them); true, false and null plain "true", "false",
 * "null". Each node has the line and byte column where its text starts.
 * A text of only whitespace is an empty map, as for yaml_parse.
 *
 * Errors (cJSON's syntax errors, where it stopped, with a hint; text
 * after the value; invalid UTF-8; duplicate keys; nesting deeper than
 * YAML_MAX_DEPTH) are reported to d as path:line:col: error: ..., and the
 * result is NULL. A string's "\u0000" ends it (cJSON's strings are C
 * strings), and control characters in strings are kept (cJSON lets them
 * through). Thread-safe: cJSON's parses take turns (on an error it writes
 * a global of its own). */
struct ynode *json_parse(struct arena *a, struct diag *d, const char *path, const char *src,
                         size_t src_len, const char *text, size_t len, int line_offset);

#endif
