/* yaml.h: libyaml events -> folio's YAML tree, every node with its position.
 *
 * Folder formats/: the data formats read into one tree with positions:
 * YAML (libyaml), JSON (cJSON), TOML (toml++), and the schema that types a
 * tree.
 * uses: base.
 */
#ifndef FOLIO_YAML_H
#define FOLIO_YAML_H

#include <stdint.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/diag.h"

enum ynode_kind { YNODE_SCALAR, YNODE_SEQ, YNODE_MAP };

/* A node of a parsed YAML document. Everything is owned by the arena given to
 * yaml_parse. Scalars keep their text as written (after YAML unquoting and
 * folding); typing (null, bool, int, float) is decided by the yaml_as_*
 * helpers, following the YAML 1.2 core schema, and never for quoted scalars. */
struct ynode {
	enum ynode_kind kind;
	int line, col;       /* 1-based, in the file (line_offset applied) */
	struct str str;      /* scalar: its text, NUL-terminated in the arena */
	int quoted;          /* scalar: was single- or double-quoted, or a block */
	size_t len;          /* seq: items; map: pairs */
	struct ynode **items; /* seq: the items; map: the values */
	struct ynode **keys;  /* map: the keys (scalars), parallel to items */
};

/* yaml_parse: parses text[0..len) as one YAML document. path names the file
 * in diagnostics; line_offset is added to every line (front matter starting
 * on line 2 of its file passes 1), and src/src_len is the whole file for
 * excerpts (may equal text). An empty document gives an empty map.
 * Errors (syntax, duplicate map keys, non-scalar keys, nesting deeper than
 * YAML_MAX_DEPTH, aliases: folio's files need none) are reported to d as
 * path:line:col: error: ..., and the result is NULL. */
#define YAML_MAX_DEPTH 64
struct ynode *yaml_parse(struct arena *a, struct diag *d, const char *path, const char *src,
			 size_t src_len, const char *text, size_t len, int line_offset);

/* yaml_map_get: the value for key in a map node, or NULL (also when m is not a map). */
struct ynode *yaml_map_get(const struct ynode *m, const char *key);

/* Typed views of a scalar. Each returns 1 and stores the value if the
 * scalar has that type (unquoted, and spelled as the core schema says),
 * else 0. yaml_is_null is also true for an empty plain scalar. */
int yaml_is_null(const struct ynode *n);
int yaml_as_bool(const struct ynode *n, int *out);   /* true/True/TRUE/false/... */
int yaml_as_int(const struct ynode *n, int64_t *out);  /* decimal, 0x.., 0o.. */
int yaml_as_float(const struct ynode *n, double *out); /* 1.5, 1e3, .inf, .nan */

/* yaml_kind_name: "string", "list", "map", ... for "expected X, found Y" messages. */
const char *yaml_kind_name(const struct ynode *n);

#endif
