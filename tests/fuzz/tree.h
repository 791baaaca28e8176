/* tree.h: what the fuzz targets of the readers that give folio's YAML tree
 * (fuzz_toml.c, fuzz_json.c) check of a tree, and do with it as the later
 * stages would. Header-only, as fuzz.h. */
#ifndef FOLIO_FUZZ_TREE_H
#define FOLIO_FUZZ_TREE_H

#include "fuzz.h"

#include "tmpl/tmpl.h"
#include "formats/yaml.h"

/* fuzz_tree_walk: the typed views of every scalar of n, and what the
 * readers promise of a tree: at most YAML_MAX_DEPTH levels, scalars
 * NUL-terminated, every key found in its map (keys are unique), positions
 * inside the text (line in first..last, column at least 1). */
static inline void fuzz_tree_walk(const struct ynode *n, int depth, int first, int last)
{
	if (!n || depth > YAML_MAX_DEPTH + 1)
		abort();
	if (n->line < first || n->line > last || n->col < 1)
		abort();
	(void)yaml_kind_name(n);
	if (n->kind == YNODE_SCALAR) {
		int b;
		int64_t i;
		double f;
		if (n->str.p[n->str.len] != '\0')
			abort();
		(void)yaml_is_null(n);
		(void)yaml_as_bool(n, &b);
		(void)yaml_as_int(n, &i);
		(void)yaml_as_float(n, &f);
		return;
	}
	if (depth >= YAML_MAX_DEPTH)
		abort(); /* a collection at the 65th level */
	for (size_t k = 0; k < n->len; k++) {
		if (n->kind == YNODE_MAP) {
			if (n->keys[k]->kind != YNODE_SCALAR)
				abort();
			fuzz_tree_walk(n->keys[k], depth + 1, first, last);
			const struct str key = n->keys[k]->str;
			/* (yaml_map_get scans: not in maps of 100,000 keys) */
			if (n->len <= 1000 && strlen(key.p) == key.len &&
			    yaml_map_get(n, key.p) == NULL)
				abort();
		}
		fuzz_tree_walk(n->items[k], depth + 1, first, last);
	}
}

/* fuzz_tree_use: the tree as template values, then as JSON and text, as
 * data files and front matter are used. */
static inline void fuzz_tree_use(struct arena *a, const struct ynode *root, struct buf *out)
{
	struct tval v = tval_from_yaml(a, root);
	buf_reset(out);
	(void)tval_to_json(out, &v, a, 1, 1u << 24);
	buf_reset(out);
	(void)tval_to_text(out, &v, a, 1u << 24);
}

/* fuzz_tree_lines: 1 + the number of '\n' in text[0..len). */
static inline int fuzz_tree_lines(const char *text, size_t len)
{
	int n = 1;
	for (size_t i = 0; i < len; i++)
		n += text[i] == '\n';
	return n;
}

#endif
