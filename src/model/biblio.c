/* biblio.c: the bibliographies of a build: folio.yml's bibliography: and
 * each post's and page's front matter's, each .bib read through files/
 * (site_read) and parsed once per build however many documents name it
 * (formats/bibtex.h), its errors reported at its own file:line:col; each
 * document handed its list (source.bibs: its own files first, then the
 * site's) and a hash of them and of its citation style, which its
 * Markdown cache key includes (an edited entry renders again the
 * documents that may cite it). */
#include "model/site.h"

#include "base/hash.h"
#include "files/reader.h"
#include "files/sitefile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One .bib file of the build, by its path in the site. */
struct bib_file {
	struct bibtex bib;
	uint64_t hash;
	int ok; /* read (its entries may still hold errors) */
};

struct biblio {
	struct arena *a;
	struct diag *d;
	char *root;
	struct map files; /* path -> struct bib_file * */
	int errors;
};

/* load: the file that node `at` (of the file whose text is in `in`)
 * names, read and parsed the first time; NULL when it cannot be read
 * (reported at `at`). */
static struct bib_file *load(struct site *s, struct biblio *b, const struct diag_loc *in, const struct ynode *at)
{
	struct str path = at->str;
	struct map_entry *me = map_put(&b->files, path.p, path.len, NULL);
	if (me->val.p)
		return ((struct bib_file *)me->val.p)->ok ? me->val.p : NULL;
	struct bib_file *f = arena_alloc(b->a, sizeof *f);
	me->val.p = f;
	struct diag_loc loc = {in->path, in->src, in->src_len, at->line, at->col};
	if (path.p[0] == '/' || strstr(path.p, "..")) {
		diag_error(b->d, &loc, "bibliography path '%.*s' must be inside the site (relative to its folder, without '..')",
			   STR_FMT(path));
		b->errors++;
		return NULL;
	}
	char *full = arena_alloc(b->a, strlen(s->cfg->site_dir) + path.len + 2);
	sprintf(full, "%s/%s", s->cfg->site_dir, path.p);
	struct site_file sf = {full, path.p, FOLIO_MAX_FILE, "a bibliography is a .bib file of a few hundred KB", SITE_READ_QUIET};
	size_t len;
	int before = b->d->errors;
	errno = 0;
	char *text = site_read(b->d, b->root, &sf, b->a, &len, &f->hash);
	if (!text) {
		if (b->d->errors == before) {
			if (errno == ENOENT)
				diag_error(b->d, &loc, "bibliography file '%.*s' not found (paths are relative to the site's folder)",
					   STR_FMT(path));
			else
				diag_error(b->d, &loc, "cannot read bibliography file '%.*s': %s", STR_FMT(path),
					   file_strerror(errno));
		}
		b->errors++;
		return NULL;
	}
	if (content_check_text(b->d, path.p, text, len) < 0) {
		b->errors++;
		return NULL;
	}
	bibtex_parse(b->a, text, len, &f->bib);
	for (size_t i = 0; i < f->bib.nerrors; i++) {
		struct diag_loc el = {path.p, text, len, f->bib.errors[i].line, f->bib.errors[i].col};
		diag_error(b->d, &el, "%s", f->bib.errors[i].msg);
		b->errors++;
	}
	f->ok = 1;
	if (s->nbibs == s->cap_bibs) {
		s->cap_bibs = s->cap_bibs ? s->cap_bibs * 2 : 4;
		s->bibs = xrealloc(s->bibs, s->cap_bibs * sizeof *s->bibs);
	}
	s->bibs[s->nbibs++] = &f->bib; /* site_bibliographies_free's */
	return f;
}

/* add_list: the files node names (a path or a list) onto list (each
 * once), their hashes into h; -1 when one of them could not be read or
 * has errors. */
static int add_list(struct site *s, struct biblio *b, const struct diag_loc *in, const struct ynode *node,
		    const struct bibtex **list, size_t *n, size_t cap, struct hasher *h)
{
	size_t k = node->kind == YNODE_SEQ ? node->len : 1;
	int failed = 0;
	for (size_t i = 0; i < k; i++) {
		const struct ynode *at = node->kind == YNODE_SEQ ? node->items[i] : node;
		struct bib_file *f = load(s, b, in, at);
		if (!f || f->bib.nerrors)
			failed = 1;
		if (!f)
			continue;
		size_t j = 0;
		while (j < *n && list[j] != &f->bib)
			j++;
		if (j < *n || *n == cap)
			continue;
		list[(*n)++] = &f->bib;
		hasher_add(h, &f->hash, sizeof f->hash);
	}
	return failed ? -1 : 0;
}

/* nocite: the keys src's front matter lists without citing them, each
 * checked against its bibliographies (an unknown one is an error at its
 * place, with the key meant), or "*": every entry; into src->nocite and
 * the hash h. */
static void nocite(struct biblio *b, struct source *src, struct hasher *h)
{
	const struct ynode *n = src->nocite_node;
	size_t cap = 0;
	if (n->kind == YNODE_SCALAR)
		for (size_t i = 0; i < src->nbibs; i++)
			cap += src->bibs[i]->n;
	else
		cap = n->len;
	struct str *keys = arena_alloc(b->a, (cap + 1) * sizeof *keys);
	size_t k = 0;
	if (n->kind == YNODE_SCALAR) {
		for (size_t i = 0; i < src->nbibs; i++)
			for (size_t j = 0; j < src->bibs[i]->n; j++)
				keys[k++] = src->bibs[i]->entries[j].key;
	} else {
		for (size_t i = 0; i < n->len; i++) {
			struct str key = n->items[i]->str;
			size_t j = 0;
			while (j < src->nbibs && !bibtex_find(src->bibs[j], key))
				j++;
			if (j < src->nbibs) {
				keys[k++] = key;
				continue;
			}
			struct diag_guess g;
			diag_guess_init(&g, key.p, key.len);
			for (j = 0; j < src->nbibs; j++)
				for (size_t e = 0; e < src->bibs[j]->n; e++)
					diag_guess_try(&g, src->bibs[j]->entries[e].key.p, src->bibs[j]->entries[e].key.len);
			size_t gn;
			const char *best = diag_guess_best(&g, &gn);
			struct diag_loc loc = {src->path, src->src, src->len, n->items[i]->line, n->items[i]->col};
			if (best)
				diag_error(b->d, &loc, "nocite: unknown citation key '%.*s' (did you mean '%.*s'?)", STR_FMT(key),
					   (int)gn, best);
			else
				diag_error(b->d, &loc, "nocite: unknown citation key '%.*s' (no entry of the post's bibliography has it)",
					   STR_FMT(key));
			b->errors++;
		}
	}
	for (size_t i = 0; i < k; i++) {
		hasher_add(h, keys[i].p, keys[i].len);
		hasher_add(h, "", 1); /* "ab","c" is not "a","bc" */
	}
	src->nocite = keys;
	src->nnocite = k;
}

/* assign: source src's bibliographies (its own, then the site's) and
 * style. */
static void assign(struct site *s, struct biblio *b, struct source *src)
{
	src->bibs = NULL;
	src->nbibs = 0;
	src->nocite = NULL;
	src->nnocite = 0;
	src->bib_hash = 0;
	src->bib_style = src->cite_style ? src->cite_style - 1 : s->cfg->cite_style;
	const struct ynode *own = src->bib_node, *site = s->cfg->bibliography;
	if (!own && !site)
		return;
	size_t cap = (own ? (own->kind == YNODE_SEQ ? own->len : 1) : 0) +
		     (site ? (site->kind == YNODE_SEQ ? site->len : 1) : 0);
	const struct bibtex **list = arena_alloc(b->a, (cap + 1) * sizeof *list);
	size_t n = 0;
	struct hasher h;
	hasher_begin(&h, 0);
	hasher_add(&h, &src->bib_style, sizeof src->bib_style);
	int failed = 0;
	if (own) {
		struct diag_loc in = {src->path, src->src, src->len, 0, 0};
		failed |= add_list(s, b, &in, own, list, &n, cap, &h);
	}
	if (site) {
		struct diag_loc in = {s->cfg->path, s->cfg->src, s->cfg->src_len, 0, 0};
		failed |= add_list(s, b, &in, site, list, &n, cap, &h);
	}
	/* a .bib that is missing or wrong: its errors are the ones to fix
	 * (the build fails on them); the document's citations stay text, not
	 * a second error at each */
	if (failed)
		return;
	src->bibs = list;
	src->nbibs = n;
	if (src->nocite_node)
		nocite(b, src, &h);
	src->bib_hash = hasher_digest(&h) | 1;
}

int site_bibliographies(struct arena *a, struct diag *d, struct site *s, struct content *c)
{
	struct biblio b = {.a = a, .d = d, .files = MAP_INIT};
	int any = s->cfg->bibliography != NULL;
	for (size_t i = 0; i < c->nposts && !any; i++)
		any = c->posts[i]->s.bib_node != NULL;
	for (size_t i = 0; i < c->npages && !any; i++)
		any = c->pages[i]->s.bib_node != NULL;
	if (any)
		b.root = site_root(s->cfg->site_dir);
	for (size_t i = 0; i < c->nposts; i++)
		assign(s, &b, &c->posts[i]->s);
	for (size_t i = 0; i < c->npages; i++)
		assign(s, &b, &c->pages[i]->s);
	for (size_t i = 0; i < c->nseries; i++) {
		c->series[i]->s.bib_node = NULL;
		c->series[i]->s.cite_style = 0;
		c->series[i]->s.nocite_node = NULL;
		assign(s, &b, &c->series[i]->s);
	}
	free(b.root);
	map_fini(&b.files);
	return b.errors;
}

void site_bibliographies_free(struct site *s)
{
	for (size_t i = 0; i < s->nbibs; i++)
		bibtex_fini(s->bibs[i]);
	free(s->bibs);
	s->bibs = NULL;
	s->nbibs = s->cap_bibs = 0;
}
